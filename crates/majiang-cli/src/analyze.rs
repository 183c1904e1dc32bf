//! `majiang analyze`: win, decompositions, waits and shanten of a hand, or of many hands (one
//! a line, one JSON answer a line) with `--batch`.

use crate::exit::{Finished, UsageError};
use crate::lines;
use majiang::TileCounts;
use majiang::analysis::{self, Decomposition, GroupKind, HandRules};
use majiang::notation::{format_in_order, parse_tile};
use majiang::typed_hand::TypedHand;
use serde::{Deserialize, Serialize};

/// Arguments of `majiang analyze`.
#[derive(clap::Args)]
#[command(after_help = BATCH_HELP)]
pub struct Args {
    /// The hand: concealed tiles, then any declared melds, e.g. "123m456p11z pung 555z".
    #[arg(required_unless_present = "batch", conflicts_with = "batch")]
    hand: Option<String>,
    /// Analyze many hands: one a line from FILE, or from standard input without FILE (or with
    /// "-"); one JSON answer a line. See below.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-")]
    batch: Option<String>,
    #[command(flatten)]
    flags: Flags,
    /// Print JSON instead of text (--batch always does, one answer a line).
    #[arg(long)]
    json: bool,
}

/// What `--help` says about `--batch` after the options.
const BATCH_HELP: &str = "\
--batch: each line is a hand in the notation above, or a JSON object with the hand and \
its flags, e.g. {\"hand\": \"13m456p789s11z5555z\", \"wildcard\": \"5z\", \
\"no_seven_pairs\": true} (fields: hand, wildcard, wild_not_own_kind, no_seven_pairs, \
no_thirteen_orphans, four_as_two_pairs; a field left out takes the command line's value). \
Blank lines are skipped. Each answer is the --json report on one line; a line that cannot be \
analysed gets {\"line\": N, \"error\": \"...\"} instead and the rest go on.
Exit status: 0 every line answered (or the reader of the output went away); 1 some lines got \
an error line; 2 bad arguments or an unreadable FILE.";

/// The rule flags of a hand, from the command line or a batch line.
#[derive(clap::Args, Clone, Default)]
struct Flags {
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
}

/// A batch line in JSON: the hand and any flags; a flag left out takes the command line's.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BatchLine {
    hand: String,
    wildcard: Option<String>,
    wild_not_own_kind: Option<bool>,
    no_seven_pairs: Option<bool>,
    no_thirteen_orphans: Option<bool>,
    four_as_two_pairs: Option<bool>,
}

impl BatchLine {
    /// The line's flags over the command line's `defaults`.
    fn flags(&self, defaults: &Flags) -> Flags {
        Flags {
            wildcard: self.wildcard.clone().or_else(|| defaults.wildcard.clone()),
            wild_not_own_kind: self.wild_not_own_kind.unwrap_or(defaults.wild_not_own_kind),
            no_seven_pairs: self.no_seven_pairs.unwrap_or(defaults.no_seven_pairs),
            no_thirteen_orphans: self
                .no_thirteen_orphans
                .unwrap_or(defaults.no_thirteen_orphans),
            four_as_two_pairs: self.four_as_two_pairs.unwrap_or(defaults.four_as_two_pairs),
        }
    }
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
pub fn run(args: &Args) -> Result<Finished, UsageError> {
    if let Some(source) = &args.batch {
        return batch(source, &args.flags);
    }
    let text = args.hand.as_deref().unwrap_or_default();
    let (report, counts, rules) = analyze(text, &args.flags).map_err(UsageError)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_text(&report, &counts, &rules);
    }
    Ok(Finished::Done)
}

/// The hand rules of `flags`.
fn hand_rules(flags: &Flags) -> Result<HandRules, String> {
    let mut rules = HandRules {
        seven_pairs: !flags.no_seven_pairs,
        four_as_two_pairs: flags.four_as_two_pairs,
        thirteen_orphans: !flags.no_thirteen_orphans,
        wildcard: None,
    };
    if let Some(w) = &flags.wildcard {
        let tile = parse_tile(w).map_err(|e| e.to_string())?;
        if tile.is_bonus() {
            return Err(format!("{w}: a bonus tile cannot be the wildcard"));
        }
        rules = rules.with_wildcard(tile);
        if flags.wild_not_own_kind {
            if let Some(wc) = rules.wildcard.as_mut() {
                wc.as_own_kind = false;
            }
        }
    } else if flags.wild_not_own_kind {
        return Err("--wild-not-own-kind needs a wildcard (--wildcard KIND)".into());
    }
    Ok(rules)
}

/// Checks that `concealed` typed tiles with `melds` declared melds are a hand of `size` tiles
/// (14; 11 at a six-player classic table), every meld counted as 3: a complete hand, or, with
/// `waiting`, also one tile fewer (a hand waiting for a tile). The one check `analyze` and
/// `score` share (`score` wants the complete hand, its winning tile included), so they agree on
/// what a hand is; the error is a usage error (exit 2) in both.
pub fn hand_shape(
    text: &str,
    concealed: usize,
    melds: usize,
    size: usize,
    waiting: bool,
) -> Result<(), String> {
    let total = concealed + 3 * melds;
    let fits = total == size || (waiting && total + 1 == size);
    if melds > size / 3 || concealed == 0 || !fits {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        return Err(format!(
            "{text:?}: {concealed} concealed tile{} with {melds} meld{} is not a hand; give \
             {size} − 3×melds tiles{}",
            plural(concealed),
            plural(melds),
            if waiting {
                " (a complete hand) or one fewer (to see waits)"
            } else {
                ", the winning tile included"
            }
        ));
    }
    Ok(())
}

/// Analyses one hand as typed; the report, the concealed counts and the rules used.
fn analyze(text: &str, flags: &Flags) -> Result<(Report, TileCounts, HandRules), String> {
    let hand = TypedHand::parse(text).map_err(|e| e.to_string())?;
    let counts = hand.counts().map_err(|e| e.to_string())?;
    let n = counts.len();
    hand_shape(text, n, hand.melds.len(), 14, true)?;
    let rules = hand_rules(flags)?;
    let by_form = analysis::shanten_by_form(&counts, &rules);
    let winning = n % 3 == 2 && analysis::is_win(&counts, &rules);
    // A wait is a tile that can still come: not one whose four copies are all in the hand
    // (concealed or in its declared melds).
    let mut held = counts;
    for t in hand.melds.iter().flat_map(|m| m.tiles()) {
        if !t.is_bonus() {
            held.add(t);
        }
    }
    let waits: Vec<majiang::Tile> = if n % 3 == 1 {
        analysis::waits(&counts, &rules)
            .iter()
            .filter(|&t| held.get(t) < 4)
            .collect()
    } else {
        Vec::new()
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
    Ok((report, counts, rules))
}

/// Analyses one batch line (notation or a JSON object); its JSON answer.
fn batch_answer(line: &str, defaults: &Flags) -> Result<String, String> {
    let (report, _, _) = if line.starts_with('{') {
        let request: BatchLine =
            serde_json::from_str(line).map_err(|e| format!("not a hand request: {e}"))?;
        analyze(&request.hand, &request.flags(defaults))?
    } else {
        analyze(line, defaults)?
    };
    serde_json::to_string(&report).map_err(|e| e.to_string())
}

/// `--batch`: one hand a line from `source` ("-" for standard input), one answer a line.
fn batch(source: &str, defaults: &Flags) -> Result<Finished, UsageError> {
    let input = lines::open(source, "--batch")?;
    lines::answer_lines(input, source, |line| batch_answer(line, defaults))
}

fn print_text(r: &Report, counts: &TileCounts, rules: &HandRules) {
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
            let kinds = if r.waits.len() == 1 { "kind" } else { "kinds" };
            println!(
                "Waits:    {} ({} {kinds})",
                r.waits.join(" "),
                r.waits.len()
            );
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
        println!("  {}. {}: {}", i + 1, form_name(d.form), groups.join(" "));
    }
}

/// A winning shape as players name it (English with the Chinese term).
fn form_name(form: majiang::analysis::Form) -> &'static str {
    use majiang::analysis::Form;
    match form {
        Form::Standard => "sets and a pair (面子 + 将)",
        Form::SevenPairs => "seven pairs (七对)",
        Form::ThirteenOrphans => "thirteen orphans (十三幺)",
    }
}
