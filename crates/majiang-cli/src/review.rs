//! `majiang review LOG`: the expert reviews one seat's decisions in a match log (from `play`,
//! `selfplay`, or a server's `/api/rooms/ID/log.jsonl`), through the library's
//! [`majiang::review`]: words for people (each hand, its flagged decisions with the choice, the
//! expert's choice, the values and a one-line reason), `--json` for tools
//! (docs/review-json.md). Progress goes to standard error while it runs.

use crate::exit::UsageError;
use crate::sim::progress;
use majiang::bots::expert::Budget;
use majiang::review::{Decision, MatchReview, ReviewOptions, review};
use std::fmt::Write as _;

/// Arguments of `majiang review`.
#[derive(clap::Args)]
pub struct Args {
    /// The match log (JSON lines, as `play --log`, `selfplay --log` and the server's
    /// /api/rooms/ID/log.jsonl write it); `-` for standard input.
    file: String,
    /// The seat to review: the entrant's number from 0 (as `replay` lists the seats; in a log
    /// from `play`, you are seat 0).
    #[arg(long, default_value_t = 0)]
    seat: usize,
    /// Print the whole review as one JSON document (docs/review-json.md).
    #[arg(long)]
    json: bool,
    /// Worlds the expert plays out per decision (its default budget: 64).
    #[arg(long, default_value_t = Budget::DEFAULT.rollouts, value_name = "WORLDS")]
    budget: u32,
    /// The expert's seed: the same log, seat, seed and budget give the same review.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// In words, list every decision, not only the flagged ones.
    #[arg(long)]
    all: bool,
}

/// Runs `majiang review`.
pub fn run(args: &Args) -> Result<(), UsageError> {
    let text = if args.file == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map(|_| s)
    } else {
        std::fs::read_to_string(&args.file)
    }
    .map_err(|e| UsageError(format!("reading {}: {e}", args.file)))?;
    if args.budget == 0 {
        return Err(UsageError("--budget must be at least 1 world".into()));
    }
    let options = ReviewOptions {
        seat: args.seat,
        seed: args.seed,
        budget: Budget {
            rollouts: args.budget,
            ..Budget::DEFAULT
        },
    };
    let bar = progress(0, "actions");
    let r = review(&text, &options, |p| {
        bar.set_length(p.actions_total as u64);
        bar.set_position(p.actions_done as u64);
    })
    .map_err(|e| UsageError(format!("{}: {e}", args.file)))?;
    bar.finish_and_clear();
    if args.json {
        let json = serde_json::to_string_pretty(&r)?;
        println!("{json}");
    } else {
        print!("{}", words(&r, args.all));
    }
    Ok(())
}

/// A value with its standard error: "+1.25 ± 0.40".
fn value(mean: f64, se: f64) -> String {
    format!("{mean:+.2} ± {se:.2}")
}

/// One decision in words.
fn decision(d: &Decision, unit: &str) -> String {
    let mut s = String::new();
    let offer = d
        .on_offer
        .map(|t| format!(" ({t} on offer)"))
        .unwrap_or_default();
    let _ = write!(
        s,
        "  decision {} ({} left in the wall), hand {}{offer}: you {}; expert {}",
        d.number, d.live_wall, d.concealed, d.played, d.expert
    );
    if let Some(l) = d.lost {
        let _ = write!(s, "; lost {} {unit}", value(l.mean, l.se));
    }
    s.push('\n');
    if let Some(reason) = &d.reason {
        let _ = writeln!(s, "    why: {reason}");
    }
    for a in d.alternatives.iter().take(4) {
        let facts = a.facts.text();
        let _ = writeln!(
            s,
            "    {:<18} {} {unit}{}",
            a.action.to_string(),
            value(a.value.mean, a.value.se),
            if facts.is_empty() {
                String::new()
            } else {
                format!("  ({facts})")
            }
        );
    }
    s
}

/// The review in words: the match summary, then each hand with its flagged decisions (every
/// decision with `all`).
pub fn words(r: &MatchReview, all: bool) -> String {
    let mut s = String::new();
    let who = r
        .name
        .as_ref()
        .map(|n| format!("{n} (seat {})", r.seat))
        .unwrap_or_else(|| format!("seat {}", r.seat));
    let m = &r.summary;
    let _ = writeln!(
        s,
        "Review of {who}, {} rules, {} hands{}: expert seed {}, {} worlds a decision",
        r.rules,
        r.hands.len(),
        if r.complete { "" } else { " (log unfinished)" },
        r.seed,
        r.rollouts
    );
    let _ = writeln!(
        s,
        "Agreed with the expert on {} of {} decisions ({:.0} %); {} flagged; estimated value lost {} {} ({} {} a hand)",
        m.agreed,
        m.decisions,
        m.agreement() * 100.0,
        m.flagged,
        value(m.lost, m.lost_se),
        r.unit,
        format_args!("{:+.2}", r.lost_per_hand),
        r.unit,
    );
    for h in &r.hands {
        let hs = &h.summary;
        let result = h
            .result
            .map(|c| format!(", result {c:+}"))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "\nHand {}{result}: agreed {} of {}, {} flagged, lost {} {}",
            h.hand,
            hs.agreed,
            hs.decisions,
            hs.flagged,
            value(hs.lost, hs.lost_se),
            r.unit
        );
        for d in h.decisions.iter().filter(|d| all || d.flagged) {
            s.push_str(&decision(d, &r.unit));
        }
    }
    let costly = r.costliest();
    if !costly.is_empty() {
        let _ = writeln!(s, "\nCostliest decisions:");
        for d in costly.iter().take(5) {
            let l = d.lost.map(|l| value(l.mean, l.se)).unwrap_or_default();
            let _ = writeln!(
                s,
                "  hand {} decision {}: {} instead of {}, {l} {}",
                d.hand, d.number, d.played, d.expert, r.unit
            );
        }
    }
    s
}
