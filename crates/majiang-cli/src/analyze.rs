//! `majiang analyze`: win, decompositions, waits and shanten of a hand.

use crate::UsageError;
use crate::hand_input::{check_copies, parse_hand};
use majiang::analysis::{self, Decomposition, GroupKind, HandRules};
use majiang::notation::{format_in_order, parse_tile};
use serde::Serialize;

/// Arguments of `majiang analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// The hand: concealed tiles, then any declared melds, e.g. "123m456p11z pung 555z".
    hand: String,
    /// The wildcard kind, e.g. 5z (every copy of it in the hand is wild).
    #[arg(long)]
    wildcard: Option<String>,
    /// A wildcard may not stand for its own kind.
    #[arg(long, requires = "wildcard")]
    wild_not_own_kind: bool,
    /// Do not count seven pairs as a winning form.
    #[arg(long)]
    no_seven_pairs: bool,
    /// Do not count thirteen orphans as a winning form.
    #[arg(long)]
    no_thirteen_orphans: bool,
    /// In seven pairs, a four-of-a-kind may count as two pairs.
    #[arg(long)]
    four_as_two_pairs: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    hand: String,
    tiles: usize,
    melds: Vec<String>,
    winning: bool,
    shanten: i8,
    shanten_by_form: FormShanten,
    waits: Vec<String>,
    decompositions: Vec<JsonDecomposition>,
}

#[derive(Serialize)]
struct FormShanten {
    standard: i8,
    seven_pairs: Option<i8>,
    thirteen_orphans: Option<i8>,
}

#[derive(Serialize)]
struct JsonDecomposition {
    form: analysis::Form,
    groups: Vec<JsonGroup>,
}

#[derive(Serialize)]
struct JsonGroup {
    kind: GroupKind,
    tiles: String,
    wilds: u8,
}

fn to_json(d: &Decomposition) -> JsonDecomposition {
    JsonDecomposition {
        form: d.form,
        groups: d
            .groups
            .iter()
            .map(|g| JsonGroup {
                kind: g.kind,
                tiles: format_in_order(&g.tiles()),
                wilds: g.wilds,
            })
            .collect(),
    }
}

/// Runs the command.
pub fn run(args: &Args) -> Result<(), UsageError> {
    let hand = parse_hand(&args.hand)?;
    let counts = check_copies(&hand, &[])?;
    let n = counts.len();
    let sets = 3 * hand.melds.len();
    if n == 0 || n % 3 == 0 || n + sets > 14 {
        return Err(UsageError(format!(
            "{:?}: {n} concealed tiles with {} melds is not a hand; give 14 − 3×melds tiles \
             (a complete hand) or one fewer (to see waits)",
            args.hand,
            hand.melds.len()
        )));
    }
    let mut rules = HandRules {
        seven_pairs: !args.no_seven_pairs,
        four_as_two_pairs: args.four_as_two_pairs,
        thirteen_orphans: !args.no_thirteen_orphans,
        wildcard: None,
    };
    if let Some(w) = &args.wildcard {
        let tile = parse_tile(w)?;
        if tile.is_bonus() {
            return Err(UsageError(format!(
                "{w}: a bonus tile cannot be the wildcard"
            )));
        }
        rules = rules.with_wildcard(tile);
        if args.wild_not_own_kind {
            if let Some(wc) = rules.wildcard.as_mut() {
                wc.as_own_kind = false;
            }
        }
    }
    let by_form = analysis::shanten_by_form(&counts, &rules);
    let winning = n % 3 == 2 && analysis::is_win(&counts, &rules);
    let waits = if n % 3 == 1 {
        analysis::waits(&counts, &rules)
    } else {
        analysis::TileSet::EMPTY
    };
    let decompositions = if winning {
        analysis::decompositions(&counts, &rules)
    } else {
        Vec::new()
    };
    let report = Report {
        hand: counts.to_string(),
        tiles: n,
        melds: hand.melds.iter().map(ToString::to_string).collect(),
        winning,
        shanten: by_form.min(),
        shanten_by_form: FormShanten {
            standard: by_form.standard,
            seven_pairs: by_form.seven_pairs,
            thirteen_orphans: by_form.thirteen_orphans,
        },
        waits: waits.iter().map(|t| t.to_string()).collect(),
        decompositions: decompositions.iter().map(to_json).collect(),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_text(&report, &counts, &rules);
    }
    Ok(())
}

fn print_text(r: &Report, counts: &majiang::TileCounts, rules: &HandRules) {
    let glyphs = majiang::notation::format_glyphs(&counts.tiles());
    println!("Hand:     {}  {}", r.hand, glyphs);
    if !r.melds.is_empty() {
        println!("Melds:    {}", r.melds.join(", "));
    }
    if let Some(w) = rules.wildcard {
        println!("Wildcard: {} ({} in hand)", w.tile, counts.get(w.tile));
    }
    let shanten_word = match r.shanten {
        -1 => "complete (-1)".to_string(),
        0 => "ready (0)".to_string(),
        s => format!("{s} from ready"),
    };
    println!("Shanten:  {shanten_word}");
    let f = &r.shanten_by_form;
    let opt = |x: Option<i8>| x.map_or("-".to_string(), |v| v.to_string());
    println!(
        "          standard {}, seven pairs {}, thirteen orphans {}",
        f.standard,
        opt(f.seven_pairs),
        opt(f.thirteen_orphans)
    );
    if r.tiles % 3 == 1 {
        if r.waits.is_empty() {
            println!("Waits:    none");
        } else {
            println!("Waits:    {} ({} kinds)", r.waits.join(" "), r.waits.len());
        }
    }
    if r.tiles % 3 == 2 {
        println!("Winning:  {}", if r.winning { "yes" } else { "no" });
    }
    for (i, d) in r.decompositions.iter().enumerate() {
        let groups: Vec<String> = d
            .groups
            .iter()
            .map(|g| {
                if g.wilds > 0 {
                    format!("{}({}w)", g.tiles, g.wilds)
                } else {
                    g.tiles.clone()
                }
            })
            .collect();
        println!("  {}. {:?}: {}", i + 1, d.form, groups.join(" "));
    }
}
