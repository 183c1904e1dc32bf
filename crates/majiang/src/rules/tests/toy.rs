//! A toy rule set defined here and nowhere else: any complete hand wins `points` (1), a
//! self-draw paid double by everyone, a discard by the discarder alone. It plays whole matches
//! with the engine and the bots, and scores requests, through the public API: a rule set needs
//! nothing outside its own definition. Only finding it by its name (a log's header, a scoring
//! request, `--rules`) needs the one line in the registry's list, which it does not have.

use crate::analysis::{self, HandRules};
use crate::bots::{self, Bot};
use crate::config::{DeadWall, SeatChoiceRule, TableConfig, WildcardRule};
use crate::config::{EndRule, MatchRules, Rotation};
use crate::rules::option_table::{self, Allowed, OptionSpec};
use crate::rules::rule_set::{Aims, RuleSet, RuleSetSpec, ScoreUnit, Seats};
use crate::scoring::reason::ReasonDef;
use crate::scoring::request::{Malformed, ScoreRequest};
use crate::scoring::{Explain, Invalid, Ledger, PatternDef, Scored, Unit, WinKind, WinSituation};
use crate::table::{HandOutcome, TableRules, replay};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The toy under its house rules: what a win is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Toy {
    points: i64,
}

/// The toy under its default house rules.
static TOY: Toy = Toy { points: 1 };

static OPTIONS: &[OptionSpec] = &[OptionSpec {
    key: "points",
    default: "1",
    allowed: Allowed::Whole { min: 1, max: 100 },
    meaning: "what any complete hand is worth",
}];

static COMPLETE: PatternDef = PatternDef::new(
    "complete_hand",
    "Complete Hand",
    1,
    Unit::Points,
    "any complete hand",
);

static SELF_DRAW: ReasonDef = ReasonDef {
    key: "toy.self_draw",
    args: &["points"],
    english: "self-draw: pays double, 2 × {points}",
};

static DISCARD: ReasonDef = ReasonDef {
    key: "toy.discard",
    args: &["points"],
    english: "discard: the discarder pays {points}",
};

static SPEC: RuleSetSpec = RuleSetSpec {
    name: "toy",
    english: "Toy mahjong",
    chinese: "玩具麻将",
    seats: Seats::Fixed(4),
    unit: ScoreUnit::Points,
    lao: false,
    options: OPTIONS,
    patterns: std::slice::from_ref(&COMPLETE),
    reasons: &[&SELF_DRAW, &DISCARD],
};

/// Four sets and a pair, or seven pairs.
const SHAPES: HandRules = HandRules {
    seven_pairs: true,
    ..HandRules::STANDARD_ONLY
};

impl RuleSet for Toy {
    fn spec(&self) -> &'static RuleSetSpec {
        &SPEC
    }

    fn read(&self, options: &Map<String, Value>) -> Result<Box<dyn RuleSet>, Malformed> {
        option_table::check("toy", OPTIONS, options)?;
        let points = options.get("points").and_then(Value::as_i64).unwrap_or(1);
        Ok(Box::new(Toy { points }))
    }

    fn options_json(&self) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("points".into(), json!(self.points));
        map
    }

    fn table_config(&self) -> Result<TableConfig, Malformed> {
        Ok(TableConfig {
            players: 4,
            hand_size: 13,
            flowers: false,
            dead_wall: DeadWall::None,
            break_dice: 2,
            wall_sides: 4,
            chow_allowed: true,
            kongs_allowed: true,
            wildcard: WildcardRule::None,
            hand_rules: SHAPES,
            seat_choice: SeatChoiceRule::HighestRoll,
            fortune_gambit: false,
        })
    }

    fn match_rules(&self) -> MatchRules {
        MatchRules {
            rotation: Rotation::EveryHand,
            end: EndRule::DealRounds(1),
            starting_points: 0,
            floor: false,
            double_starts_lao3: false,
        }
    }

    fn aims(&self) -> Aims {
        Aims::NONE
    }

    fn score(&self, s: &WinSituation, explain: Explain) -> Result<Scored, Invalid> {
        s.check_playing_tiles()?;
        if !analysis::is_win(&s.full_concealed(), &SHAPES) {
            return Err(Invalid("not a complete hand".into()));
        }
        let mut ledger = Ledger::new(&s.seats, explain);
        let points = self.points;
        for loser in s.losers() {
            match s.win {
                WinKind::SelfDraw => {
                    ledger.pay(loser, s.seat, 2 * points, || SELF_DRAW.of(&[points]))
                }
                _ if s.discarder == Some(loser) => {
                    ledger.pay(loser, s.seat, points, || DISCARD.of(&[points]))
                }
                _ => {}
            }
        }
        Ok(Scored::settled(
            vec![COMPLETE.score(points)],
            points,
            ledger,
        ))
    }
}

fn toy(options: Value) -> Arc<TableRules> {
    let options = options.as_object().cloned().unwrap_or_default();
    Arc::new(TableRules::with_options(&TOY, &options).unwrap())
}

#[test]
fn the_toy_plays_whole_matches_with_the_bots() {
    let rules = toy(json!({}));
    let (mut self_draws, mut discards) = (0, 0);
    for seed in 0..6 {
        let mut players: Vec<Box<dyn Bot>> = ["efficient", "easy", "efficient", "random"]
            .iter()
            .enumerate()
            .map(|(i, name)| bots::by_name(name, &rules, seed * 4 + i as u64).unwrap())
            .collect();
        let (m, log) = crate::driver::play_match(rules.clone(), seed, None, &mut players).unwrap();
        // Every seat deals once.
        assert!(m.is_over());
        assert_eq!(m.hands_played(), 4);
        assert_eq!(m.ledger().iter().sum::<i64>(), 0);
        for s in m.settlements() {
            let HandOutcome::Win {
                winner,
                win,
                scored,
                ..
            } = &s.outcome
            else {
                assert!(s.payments.iter().all(|&p| p == 0));
                continue;
            };
            assert_eq!(scored.total, 1);
            assert_eq!(scored.patterns[0].id, "complete_hand");
            let (won, key) = if *win == WinKind::SelfDraw {
                self_draws += 1;
                (6, "toy.self_draw")
            } else {
                discards += 1;
                (1, "toy.discard")
            };
            assert_eq!(s.payments[winner.index()], won);
            assert!(scored.itemised.iter().all(|p| p.reason.key() == key));
        }
        // The log names the toy and its house rules.
        let text = log.to_jsonl();
        let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(header["rules"], "toy");
        assert_eq!(header["options"], json!({"points": 1}));
        // Reading it back (its rule set by name, its payment reasons by key) needs the line in
        // the registry's list.
        let e = replay(&text).unwrap_err().to_string();
        assert!(e.contains("\"toy") && e.contains("rule set"), "{e}");
    }
    assert!(
        self_draws > 0 && discards > 0,
        "{self_draws} self-draws, {discards} discards"
    );
}

#[test]
fn the_toy_scores_a_request_and_words_its_payments() {
    let request = |win: &str| {
        ScoreRequest::from_json(&format!(
            r#"{{"rules": "toy", "concealed": "123m456p789s11z55z", "winning_tile": "5z",
            "seat": "south", {win}}}"#
        ))
        .unwrap()
    };
    let rules = toy(json!({"points": 3}));
    let scored = rules
        .score(&request(r#""win": "self_draw""#).situation)
        .unwrap();
    assert_eq!(scored.total, 3);
    assert_eq!(
        scored.payments.values().copied().collect::<Vec<_>>(),
        [-6, 18, -6, -6]
    );
    let words: Vec<String> = scored.itemised.iter().map(ToString::to_string).collect();
    assert_eq!(words[0], "east pays south 6: self-draw: pays double, 2 × 3");
    let on_discard = request(r#""win": "discard", "discarder": "north""#);
    let scored = rules.score(&on_discard.situation).unwrap();
    assert_eq!(
        scored.payments.values().copied().collect::<Vec<_>>(),
        [0, 3, 0, -3]
    );
    assert_eq!(
        serde_json::to_value(&scored.itemised[0].reason).unwrap(),
        json!({"key": "toy.discard", "args": {"points": 3}})
    );
    // An incomplete hand is no win.
    let mut broken = on_discard.situation.clone();
    broken.winning_tile = "9m".parse().unwrap();
    assert!(rules.score(&broken).is_err());
    // Scoring a request by its name asks the registry, which does not list the toy.
    let e = crate::rules::score(&on_discard).unwrap_err().to_string();
    assert!(e.contains("\"toy\" is not a rule set"), "{e}");
}

#[test]
fn the_toys_house_rules_are_checked_against_its_options_table() {
    let three = TOY.read(json!({"points": 3}).as_object().unwrap()).unwrap();
    assert_eq!(
        three.options_json(),
        *json!({"points": 3}).as_object().unwrap()
    );
    assert_eq!(three.name(), "toy");
    for bad in [json!({"points": 0}), json!({"pointz": 2})] {
        let e = TOY.read(bad.as_object().unwrap()).unwrap_err().to_string();
        assert!(e.contains("points"), "{bad}: {e}");
    }
    let rules = toy(json!({}));
    assert_eq!(rules.spec().to_json()["options"][0]["key"], "points");
    assert_eq!(rules.set().match_rules().end, EndRule::DealRounds(1));
}
