//! The Hangzhou multipliers (`docs/rules/hangzhou.md`): the pattern table as data, one function per
//! pattern, and the choice of the reading worth most.
//!
//! Every multiplier multiplies: the hand's total is the product of the values of the patterns
//! that count (the base score included). Patterns that apply several times (Luxury Pairs, Fortune
//! Gambit, Kong Blossom) are reported once, with the product as their value (×2 per instance).

use crate::analysis::HandRules;
use crate::analysis::reference;
use crate::counts::TileCounts;
use crate::scoring::{Invalid, PatternDef, PatternScore, Unit, WinKind, WinSituation};
use crate::tile::Tile;

const fn def(
    id: &'static str,
    name: &'static str,
    value: i64,
    definition: &'static str,
) -> PatternDef {
    PatternDef::new(id, name, value, Unit::Multiplier, definition)
}

/// Base score: every hand; its value is the `base` option.
pub const BASE_SCORE: PatternDef = def(
    "base_score",
    "Base Score",
    1,
    "Every winning hand; the value is the base option (1 by default).",
)
.set_by("base");
/// Seven pairs.
pub const SEVEN_PAIRS: PatternDef = def(
    "seven_pairs",
    "Seven Pairs (Qi Dui)",
    2,
    "Fourteen concealed tiles as seven pairs (wildcards may fill pairs; a four-of-a-kind counts as two pairs).",
);
/// Pure seven pairs.
pub const PURE_SEVEN_PAIRS: PatternDef = def(
    "pure_seven_pairs",
    "Pure Seven Pairs (Qing Qi Dui)",
    2,
    "Seven pairs with no wildcard in the hand; ×2 on top of Seven Pairs.",
);
/// Each four-of-a-kind inside seven pairs.
pub const LUXURY_PAIRS: PatternDef = def(
    "luxury_pairs",
    "Luxury Pairs (Hao Hua Dui)",
    2,
    "×2 for each kind held four times (four real copies, no wildcard) in a seven-pairs hand, at most 3; value = 2^n.",
);
/// Bao Tou.
pub const BAO_TOU: PatternDef = def(
    "bao_tou",
    "Explosive Pair (Bao Tou)",
    2,
    "Self-drawn win, four-sets-and-a-pair reading, where the hand before the draw was complete sets plus one wildcard (any tile would have won).",
);
/// Each Fortune Gambit.
pub const FORTUNE_GAMBIT: PatternDef = def(
    "fortune_gambit",
    "Fortune Gambit (Cai Piao)",
    2,
    "×2 for each wildcard discarded in the Bao Tou state in the unbroken run before the self-drawn win (request `gambits`, at most 4 counted); value = 2^n.",
);
/// Each kong in the chain before the winning replacement tile.
pub const KONG_BLOSSOM: PatternDef = def(
    "kong_blossom",
    "Kong Blossom (Gang Kai)",
    2,
    "×2 for each kong in the unbroken chain before the winning replacement tile (request `kong_chain`); value = 2^n.",
);
/// Gang Bao: Bao Tou on a kong replacement.
pub const GANG_BAO: PatternDef = def(
    "gang_bao",
    "Explosive Kong (Gang Bao)",
    4,
    "Bao Tou on a kong replacement tile: replaces Bao Tou and one kong of Kong Blossom (further kongs of the chain still ×2 each).",
);
/// Gang Piao: a Fortune Gambit won on a kong replacement.
pub const GANG_PIAO: PatternDef = def(
    "gang_piao",
    "Kong Gambit (Gang Piao)",
    4,
    "A Fortune Gambit won on a kong replacement tile: replaces one gambit and one kong (Bao Tou still counts; further gambits and kongs ×2 each).",
);
/// Dealer wins at 1 lao.
pub const DEALER_1_LAO: PatternDef = def(
    "dealer_1_lao",
    "Dealer, 1 Lao",
    2,
    "The dealer wins in the first dealership.",
);
/// Dealer wins at 2 lao.
pub const DEALER_2_LAO: PatternDef = def(
    "dealer_2_lao",
    "Dealer, 2 Lao",
    4,
    "The dealer wins in the second continuous dealership.",
);
/// Dealer wins at 3 lao or more.
pub const DEALER_3_LAO: PatternDef = def(
    "dealer_3_lao",
    "Dealer, 3+ Lao",
    8,
    "The dealer wins in the third continuous dealership or later.",
);

/// Every Hangzhou pattern.
pub const PATTERNS: &[PatternDef] = &[
    BASE_SCORE,
    SEVEN_PAIRS,
    PURE_SEVEN_PAIRS,
    LUXURY_PAIRS,
    BAO_TOU,
    FORTUNE_GAMBIT,
    KONG_BLOSSOM,
    GANG_BAO,
    GANG_PIAO,
    DEALER_1_LAO,
    DEALER_2_LAO,
    DEALER_3_LAO,
];

/// Most gambits counted in one run.
pub const MAX_GAMBITS: u8 = 4;
/// Most four-of-a-kinds counted in seven pairs.
pub const MAX_LUXURY: u32 = 3;

/// The winning shapes: four sets and a pair or seven pairs (a four-of-a-kind may be two pairs),
/// no thirteen orphans, with `wild` wild (standing for any tile, its own kind included).
pub fn hand_rules(wild: Tile) -> HandRules {
    HandRules {
        seven_pairs: true,
        four_as_two_pairs: true,
        thirteen_orphans: false,
        wildcard: None,
    }
    .with_wildcard(wild)
}

/// True when a hand of `3k + 1` tiles is in the Bao Tou state: one wildcard plus complete sets
/// (the other wildcards standing in), so that any tile pairs with that wildcard and wins.
pub fn bao_tou_state(before_draw: &TileCounts, rules: &HandRules) -> bool {
    crate::analysis::lone_wildcard_wait(before_draw, rules)
}

/// The winning forms a hand reads as: (four sets and a pair, seven pairs).
///
/// The Hangzhou multipliers depend only on the form, never on the groups, so this asks each
/// form once (stopping at the first reading found) rather than listing every reading with
/// [`crate::analysis::decompositions`]: with four wildcards that list is long, and the engine calls
/// scoring from its legal-action generation.
fn winning_forms(full: &TileCounts, rules: &HandRules) -> (bool, bool) {
    let (real, w, _) = reference::split_wild(&full.0, rules);
    let pairs = rules.seven_pairs && reference::seven_pairs(&real, w, rules.four_as_two_pairs);
    let standard = full.len() % 3 == 2 && crate::analysis::is_sets_and_pair(full, rules);
    (standard, pairs)
}

/// Pure Seven Pairs: no wildcard at all in the hand.
fn pure_seven_pairs(full: &TileCounts, wild: Tile) -> bool {
    full.get(wild) == 0
}

/// Luxury Pairs: kinds held four times (real copies; wildcards never make a four-of-a-kind).
fn luxury_pairs(full: &TileCounts, wild: Tile) -> u32 {
    let n = full.iter().filter(|&(t, n)| n == 4 && t != wild).count() as u32;
    n.min(MAX_LUXURY)
}

/// Dealer multiplier: the dealer's pattern for this lao, when the dealer won.
fn dealer_multiplier(s: &WinSituation) -> Option<&'static PatternDef> {
    (s.seat == s.dealer).then_some(match s.lao {
        0 | 1 => &DEALER_1_LAO,
        2 => &DEALER_2_LAO,
        _ => &DEALER_3_LAO,
    })
}

/// The kongs of the chain before the winning replacement tile: `kong_chain`, or 1 when only the
/// `kong_replacement` circumstance is given.
pub fn kong_chain(s: &WinSituation) -> u8 {
    if s.kong_chain == 0 && s.circumstances.kong_replacement {
        1
    } else {
        s.kong_chain
    }
}

fn pow2(n: u32) -> i64 {
    1i64 << n
}

/// A pattern that counts, and its multiplier.
type Row = (&'static PatternDef, i64);

/// Adds the situation's multipliers for one reading to `rows`: Bao Tou (standard reading only),
/// gambits, the kong chain, and their combined forms.
fn situational(rows: &mut Vec<Row>, bao_tou: bool, gambits: u8, kongs: u8) {
    let (mut g, mut k) = (u32::from(gambits), u32::from(kongs));
    let mut bao = bao_tou;
    if g > 0 && k > 0 {
        rows.push((&GANG_PIAO, GANG_PIAO.value));
        g -= 1;
        k -= 1;
    } else if bao && k > 0 {
        rows.push((&GANG_BAO, GANG_BAO.value));
        bao = false;
        k -= 1;
    }
    if bao {
        rows.push((&BAO_TOU, BAO_TOU.value));
    }
    if g > 0 {
        rows.push((&FORTUNE_GAMBIT, pow2(g)));
    }
    if k > 0 {
        rows.push((&KONG_BLOSSOM, pow2(k)));
    }
}

/// The product of the patterns' values.
pub fn product(patterns: &[PatternScore]) -> i64 {
    patterns.iter().map(|p| p.value).product()
}

/// The multipliers of a valid-shaped win, for the reading worth most (on a tie, the four sets
/// and a pair reading). Checks that the hand wins and that gambits and the kong chain fit it.
pub fn multipliers(s: &WinSituation, base: i64, wild: Tile) -> Result<Vec<PatternScore>, Invalid> {
    let rules = hand_rules(wild);
    let full = s.full_concealed();
    let (standard, pairs) = winning_forms(&full, &rules);
    if !standard && !pairs {
        return Err(Invalid::from(&crate::scoring::invalid::NOT_SETS_HANGZHOU));
    }
    let self_drawn = s.win == WinKind::SelfDraw;
    let bao_state = self_drawn && bao_tou_state(&s.concealed, &rules);
    if s.gambits > 0 && !bao_state {
        return Err(Invalid::from(&crate::scoring::invalid::GAMBIT_SELF_DRAWN));
    }
    let gambits = s.gambits.min(MAX_GAMBITS);
    let kongs = kong_chain(s);
    let dealer: Option<Row> = dealer_multiplier(s).map(|d| (d, d.value));
    let base: Row = (&BASE_SCORE, base);
    let product = |rows: &[Row]| rows.iter().map(|&(_, v)| v).product::<i64>();

    let mut best: Option<Vec<Row>> = None;
    if standard {
        let mut v = vec![base];
        situational(&mut v, bao_state, gambits, kongs);
        v.extend(dealer);
        best = Some(v);
    }
    if pairs {
        let mut v = vec![base, (&SEVEN_PAIRS, SEVEN_PAIRS.value)];
        if pure_seven_pairs(&full, wild) {
            v.push((&PURE_SEVEN_PAIRS, PURE_SEVEN_PAIRS.value));
        }
        let lux = luxury_pairs(&full, wild);
        if lux > 0 {
            v.push((&LUXURY_PAIRS, pow2(lux)));
        }
        situational(&mut v, false, gambits, kongs);
        v.extend(dealer);
        if best.as_ref().is_none_or(|b| product(&v) > product(b)) {
            best = Some(v);
        }
    }
    let best = best.ok_or_else(|| Invalid::from(&crate::scoring::invalid::NOT_A_WINNING_HAND))?;
    Ok(best.iter().map(|&(d, v)| d.score(v)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{self, Form};

    #[test]
    fn winning_forms_agree_with_decompositions() {
        let rules = hand_rules(Tile::WHITE);
        for hand in [
            "123m456p789s11122z",
            "123m456p789s1115z9m",
            "1133m55p99s112257p",
            "11112222333m55p3m",
            "123m456p789s5555z",
            "5555z",
            "1z5z",
            "123m456p789s11123z",
            "1133m55p99s11223z7p",
            "19m19p19s1234567z5z",
        ] {
            let c = TileCounts::parse(hand).unwrap();
            let d = analysis::decompositions(&c, &rules);
            let expect = (
                d.iter().any(|x| x.form == Form::Standard),
                d.iter().any(|x| x.form == Form::SevenPairs),
            );
            assert_eq!(winning_forms(&c, &rules), expect, "{hand}");
        }
    }

    #[test]
    fn bao_tou_state_examples() {
        let rules = hand_rules(Tile::WHITE);
        let yes = ["123m456p789s111z5z", "123m456p789s11z5z5z", "5z", "123m5z"];
        let no = [
            "123m456p789s1125z",
            "1133m55p99s11225z",
            "123m456p789s1112z",
        ];
        for h in yes {
            assert!(bao_tou_state(&TileCounts::parse(h).unwrap(), &rules), "{h}");
        }
        for h in no {
            assert!(
                !bao_tou_state(&TileCounts::parse(h).unwrap(), &rules),
                "{h}"
            );
        }
    }
}
