//! `majiang score`: the score calculator.
//!
//! With `--json`, reads the JSON request of `docs/score-json.md` on standard input and writes one JSON
//! answer on standard output, or reads JSON lines (one request a line) and writes one answer a
//! line. Without it, builds the same request from arguments and prints a
//! table. Either way the same library call scores it.

use crate::exit::{Finished, UsageError};
use crate::lines;
use majiang::rules;
use majiang::scoring::request::ScoreRequest;
use majiang::scoring::{Invalid, Scored, Unit};
use majiang::typed_hand::TypedHand;
use serde::de::IgnoredAny;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Cursor, Read};

/// Arguments of `majiang score`.
#[derive(clap::Args)]
pub struct Args {
    /// Read a JSON request (docs/score-json.md) on standard input and answer JSON; or JSON lines, one
    /// request a line, one answer a line (a bad line gets {"line": N, "error": "..."}; exit 1
    /// if any did). JSON lines when the first non-blank line is a whole request and more follow.
    #[arg(long)]
    json: bool,
    /// The rule set: hongkong, hangzhou, yangzhou or classic.
    #[arg(long, required_unless_present_any = ["json", "rules_file"])]
    rules: Option<String>,
    /// A TOML file of house rules (`rules = "..."` and option keys); --option wins over it.
    #[arg(long, value_name = "FILE")]
    rules_file: Option<String>,
    /// The hand: concealed tiles, then declared melds, then the winning tile last, e.g.
    /// "123m456p789s11z55z 5z" or "123m11z pung 555z chow 789s 1z". Give a meld's source as
    /// pung@west.
    hand: Option<String>,
    /// The winning tile came from the wall (give this, --discard-from or --robbing-kong-from).
    #[arg(long, conflicts_with_all = ["discard_from", "robbing_kong_from"])]
    self_drawn: bool,
    /// The winning tile was this seat's discard.
    #[arg(long, value_name = "SEAT")]
    discard_from: Option<String>,
    /// The winning tile was robbed from this seat's added kong.
    #[arg(long, value_name = "SEAT", conflicts_with = "discard_from")]
    robbing_kong_from: Option<String>,
    /// The winner's seat.
    #[arg(long, default_value = "east")]
    seat: String,
    /// The dealer's seat.
    #[arg(long, default_value = "east")]
    dealer: String,
    /// The prevailing wind.
    #[arg(long, default_value = "east")]
    wind: String,
    /// The winner's flowers and seasons, e.g. 1f5f.
    #[arg(long, default_value = "")]
    flowers: String,
    /// Special circumstances, comma-separated: last_wall_tile, last_discard, kong_replacement,
    /// heavenly, earthly.
    #[arg(long, value_delimiter = ',')]
    situation: Vec<String>,
    /// Hangzhou: kongs in the unbroken chain before the winning replacement tile.
    #[arg(long, default_value_t = 0)]
    kong_chain: u8,
    /// Hangzhou: Fortune Gambits in the unbroken run.
    #[arg(long, default_value_t = 0)]
    gambits: u8,
    /// Hangzhou: the dealer's lao count.
    #[arg(long, default_value_t = 1)]
    lao: u8,
    /// Hangzhou: the wild kind (default from the rules' options).
    #[arg(long)]
    wildcard: Option<String>,
    /// A house rule, KEY=VALUE (VALUE read as JSON if it can be, else as text); repeatable.
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Print the JSON answer even for the argument form.
    #[arg(long)]
    print_json: bool,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<Finished, UsageError> {
    if args.json {
        return json_mode();
    }
    let request = request_from_args(args)?;
    let text = serde_json::to_string(&request)?;
    let parsed = ScoreRequest::from_json(&text)?;
    let outcome = rules::score(&parsed)?;
    if args.print_json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rules::answer_json(&outcome, parsed.itemise))?
        );
    } else {
        print_table(&parsed, &outcome);
        if let Some(counted) = counted_below_minimum(&request, &outcome) {
            println!("Counted: {counted}");
        }
    }
    Ok(Finished::Done)
}

/// For a hand below the rule set's minimum, the patterns that did count ("Self-drawn 1 fan,
/// No flowers 1 fan"): the same request scored with no minimum. `None` for any other outcome.
fn counted_below_minimum(request: &Value, outcome: &Result<Scored, Invalid>) -> Option<String> {
    let Err(invalid) = outcome else {
        return None;
    };
    if invalid.key() != "invalid.below_minimum" {
        return None;
    }
    let mut request = request.clone();
    let options = request
        .as_object_mut()?
        .entry("options")
        .or_insert_with(|| Value::Object(Default::default()));
    options
        .as_object_mut()?
        .insert("min_fan".into(), Value::from(0));
    let parsed = ScoreRequest::from_json(&request.to_string()).ok()?;
    let scored = rules::score(&parsed).ok()?.ok()?;
    let parts: Vec<String> = scored
        .patterns
        .iter()
        .map(|p| format!("{} {}", p.name, unit_word(p.unit, p.value)))
        .collect();
    Some(if parts.is_empty() {
        "no pattern scores".to_string()
    } else {
        parts.join(", ")
    })
}

/// `--json`: one request document on standard input, one answer line; or, when the first
/// non-blank line is a whole JSON value and another non-blank line follows, JSON lines: one
/// request a line, one answer a line, an error object for a bad line.
fn json_mode() -> Result<Finished, UsageError> {
    let read_error = |e: std::io::Error| UsageError(format!("reading standard input: {e}"));
    let mut input = BufReader::new(std::io::stdin().lock());
    // The lines read so far, blank ones included, to be answered or parsed as one document.
    let mut head = String::new();
    let mut non_blank = 0;
    while non_blank < 2 {
        let before = head.len();
        if input.read_line(&mut head).map_err(read_error)? == 0 {
            break;
        }
        let line = lines::without_bom(&head[before..]).trim();
        if line.is_empty() {
            continue;
        }
        non_blank += 1;
        if non_blank == 1 && serde_json::from_str::<IgnoredAny>(line).is_err() {
            break; // a document over several lines
        }
    }
    if non_blank == 2 {
        let lines = Cursor::new(head.into_bytes()).chain(input);
        return lines::answer_lines(lines, "standard input", |line| {
            answer(line)
                .map(|a| a.to_string())
                .map_err(|UsageError(e)| e)
        });
    }
    input.read_to_string(&mut head).map_err(read_error)?;
    let answer = answer(&head)?;
    println!("{}", serde_json::to_string(&answer)?);
    Ok(Finished::Done)
}

/// Scores one JSON request with the library's one answer function; `Err` for malformed input
/// (exit 2).
pub fn answer(text: &str) -> Result<Value, UsageError> {
    let text = lines::without_bom(text);
    // A request is an object: anything else gets its own words, not the parser's internal
    // names ("RawRequest with 19 elements").
    if let Ok(other) = serde_json::from_str::<Value>(text) {
        let what = match &other {
            Value::Object(_) => None,
            Value::Null => Some("null"),
            Value::Array(a) if a.is_empty() => Some("an empty list []"),
            Value::Array(_) => Some("a list"),
            Value::String(_) => Some("a string"),
            Value::Number(_) => Some("a number"),
            Value::Bool(_) => Some("true or false"),
        };
        if let Some(what) = what {
            return Err(UsageError(format!(
                "a scoring request is a JSON object, e.g. {{\"rules\": \"hongkong\", \"concealed\": \
                 \"123m456p789s555z9m\", \"winning_tile\": \"9m\"}}; this is {what} \
                 (`majiang score --help` lists the fields)"
            )));
        }
    }
    Ok(rules::score_json(text)?)
}

fn request_from_args(args: &Args) -> Result<Value, UsageError> {
    let (rules, options) = crate::rules_file::resolve(
        args.rules.as_deref(),
        args.rules_file.as_deref(),
        &args.options,
    )?;
    let hand_text = args
        .hand
        .as_deref()
        .ok_or_else(|| UsageError("give the hand, e.g. \"123m456p789s11z55z 5z\"".into()))?;
    // The last plain word is the winning tile; meld sources may be written pung@west.
    let mut words: Vec<&str> = hand_text.split_whitespace().collect();
    let last = words
        .pop()
        .ok_or_else(|| UsageError("the hand is empty".into()))?;
    if words.is_empty() {
        return Err(UsageError(format!(
            "{hand_text:?}: write the winning tile as a separate last word, e.g. \"123m456p789s11z55z 5z\""
        )));
    }
    let mut melds = Vec::new();
    let mut plain = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let (kind, from) = match words[i].split_once('@') {
            Some((k, f)) => (k, Some(f)),
            None => (words[i], None),
        };
        if majiang::MeldKind::from_keyword(kind).is_some() {
            let tiles = words.get(i + 1).ok_or_else(|| {
                UsageError(format!(
                    "{kind} needs its tiles after it, e.g. \"{kind} 555z\""
                ))
            })?;
            let mut m = json!({"kind": kind, "tiles": tiles});
            if let Some(f) = from {
                m["from"] = json!(f);
            }
            melds.push(m);
            i += 2;
        } else {
            plain.push(words[i]);
            i += 1;
        }
    }
    // Check the concealed part reads as tiles, and that it is a hand (the check `analyze`
    // makes), before building the request.
    let typed = TypedHand::parse(&plain.join(" ")).map_err(|e| UsageError(e.to_string()))?;
    // A winning hand is the dealt hand and one tile (14; 11 at a six-player classic table),
    // as the rule set's table says; a rule set that cannot be built gets the scorer's message.
    let size = majiang::table::TableRules::from_name(&rules, &options)
        .map_or(14, |r| usize::from(r.config().hand_size) + 1);
    crate::analyze::hand_shape(
        hand_text,
        typed.concealed.len() + 1,
        melds.len(),
        size,
        false,
    )
    .map_err(UsageError)?;
    let (win, discarder) = match (&args.discard_from, &args.robbing_kong_from) {
        (Some(d), _) => ("discard", Some(d.clone())),
        (None, Some(d)) => ("robbing_kong", Some(d.clone())),
        (None, None) if args.self_drawn => ("self_draw", None),
        (None, None) => {
            return Err(UsageError(
                "say how the winning tile came: give --self-drawn (from the wall) or \
                 --discard-from SEAT (or --robbing-kong-from SEAT)"
                    .into(),
            ));
        }
    };
    let flowers: Vec<String> = majiang::parse_tiles(&args.flowers)?
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut req = json!({
        "rules": rules,
        "options": options,
        "concealed": plain.concat(),
        "melds": melds,
        "winning_tile": last,
        "win": win,
        "seat": args.seat,
        "dealer": args.dealer,
        "prevailing_wind": args.wind,
        "flowers": flowers,
        "situation": args.situation,
        "kong_chain": args.kong_chain,
        "gambits": args.gambits,
        "lao": args.lao,
    });
    if let Some(d) = discarder {
        req["discarder"] = json!(d);
    }
    if let Some(w) = &args.wildcard {
        req["wildcard"] = json!(w);
    }
    Ok(req)
}

fn unit_word(u: Unit, v: i64) -> String {
    match u {
        Unit::Fan => format!("{v} fan"),
        Unit::Points => format!("{v} points"),
        Unit::Double => {
            if v == 1 {
                "double".into()
            } else {
                format!("{v} doubles")
            }
        }
        Unit::Multiplier => format!("×{v}"),
    }
}

fn print_table(req: &ScoreRequest, outcome: &Result<Scored, Invalid>) {
    let s = &req.situation;
    let mut hand = s.full_concealed().to_string();
    for m in &s.melds {
        hand.push_str(&format!("  [{m}]"));
    }
    println!("Rules:   {}", req.rules);
    println!("Hand:    {hand}   winning tile {}", s.winning_tile);
    match outcome {
        Err(Invalid(reason)) => println!("Not a valid win: {reason}"),
        Ok(scored) => {
            println!();
            let width = scored
                .patterns
                .iter()
                .map(|p| p.name.chars().count())
                .max()
                .unwrap_or(7)
                .max(7);
            println!("  {:<width$}  value", "pattern");
            for p in &scored.patterns {
                println!("  {:<width$}  {}", p.name, unit_word(p.unit, p.value));
            }
            println!("  {:<width$}  {}", "total", scored.total);
            println!();
            println!("  payments");
            for (seat, v) in &scored.payments {
                let mark = if *seat == s.seat { "  (winner)" } else { "" };
                println!("  {:<10} {:+}{mark}", seat.name(), v);
            }
            if !scored.itemised.is_empty() {
                println!();
                println!("  why");
                for p in &scored.itemised {
                    println!("  {p}");
                }
            }
        }
    }
}
