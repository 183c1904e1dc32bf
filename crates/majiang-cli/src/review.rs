//! `majiang review LOG`: the expert reviews one seat's decisions in a match log (from `play`,
//! `selfplay`, or a server's `/api/rooms/ID/log.jsonl`), through the library's
//! [`majiang::review`]: words for people (each hand, its flagged decisions with the choice, the
//! expert's choice, the values and a one-line reason), `--json` for tools
//! (docs/review-json.md). Progress goes to standard error while it runs.

use crate::exit::UsageError;
use crate::output::progress;
use majiang::bots::MAX_ROLLOUTS;
use majiang::bots::expert::Budget;
use majiang::review::{Alternative, Band, Decision, MatchReview, ReviewOptions, review};
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
    /// Worlds the expert plays out per decision (its default budget: 64; at most 4096, as
    /// for the bots' `hard:N`).
    #[arg(long, default_value_t = Budget::DEFAULT.rollouts, value_name = "WORLDS",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_ROLLOUTS)))]
    budget: u32,
    /// The expert's seed: the same log, seat, seed and budget give the same review.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// In words, list every decision, not only the flagged ones.
    #[arg(long)]
    all: bool,
    /// In words, show the figures too: each value's standard error and each option's paired
    /// difference from the expert's choice (`--json` always has them).
    #[arg(long)]
    figures: bool,
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
    let options = ReviewOptions {
        seat: args.seat,
        seed: args.seed,
        budget: Budget {
            rollouts: args.budget,
            ..Budget::DEFAULT
        },
    };
    if args.budget > 4 * Budget::DEFAULT.rollouts {
        eprintln!(
            "review: {} worlds a decision is {:.0} times the expert's budget: expect about as \
             many times its time (a 16-hand match takes about a second at 64)",
            args.budget,
            f64::from(args.budget) / f64::from(Budget::DEFAULT.rollouts)
        );
    }
    let bar = progress(0, "actions");
    let r = review(&text, &options, |p| {
        bar.set_length(p.actions_total as u64);
        bar.set_position(p.actions_done as u64);
    })
    .map_err(|e| UsageError(format!("{}: {e}", args.file)))?;
    bar.finish_and_clear();
    if let Some(line) = r.cut_at {
        eprintln!(
            "review: {}: line {line} is cut short (the log stops mid-line); the {} hands \
             before it are reviewed",
            args.file,
            r.hands.iter().filter(|h| h.result.is_some()).count()
        );
    }
    if args.json {
        let json = serde_json::to_string_pretty(&r)?;
        println!("{json}");
    } else {
        print!("{}", words(&r, args.all, args.figures));
    }
    Ok(())
}

/// A value with its standard error: "+1.25 ± 0.40".
fn figure(mean: f64, se: f64) -> String {
    format!("{mean:+.2} ± {se:.2}")
}

/// A band in a player's words.
fn band_words(b: Band) -> &'static str {
    match b {
        Band::Expert => "expert's choice",
        Band::AboutEqual => "about equal",
        Band::SlightlyWorse => "slightly worse",
        Band::ClearlyWorse => "clearly worse",
        Band::Better => "better in the playouts",
    }
}

/// A loss in words, "clearly worse, about 3.0 chips a hand", from the decision's alternatives.
fn loss_words(d: &Decision, unit: &str, figures: bool) -> Option<String> {
    let l = d.lost?;
    let played = d.alternatives.iter().find(|a| a.action == d.played)?;
    let band = played.band.map(band_words).unwrap_or("not compared");
    Some(if figures {
        format!("{band}, lost {} {unit}", figure(l.mean, l.se))
    } else if played.band == Some(Band::AboutEqual) {
        band.to_string()
    } else {
        format!("{band}, about {:.1} {unit} a hand", l.mean)
    })
}

/// One alternative's line.
fn alternative(a: &Alternative, expert: bool, unit: &str, figures: bool) -> String {
    let facts = a.facts.text();
    let mark = if expert { "★" } else { " " };
    let value = if figures {
        let versus = a
            .versus
            .map(|v| format!(" (vs ★ {})", figure(v.mean, v.se)))
            .unwrap_or_default();
        format!("{} {unit}{versus}", figure(a.value.mean, a.value.se))
    } else {
        format!("{:+.1} {unit}", a.value.mean)
    };
    let band = a
        .band
        .filter(|b| *b != Band::Expert)
        .map(|b| format!(", {}", band_words(b)))
        .unwrap_or_default();
    format!(
        "    {mark} {:<18} {value}{band}{}",
        a.action.to_string(),
        if facts.is_empty() {
            String::new()
        } else {
            format!("  ({facts})")
        }
    )
}

/// One decision in words.
fn decision(d: &Decision, unit: &str, figures: bool) -> String {
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
    if let Some(l) = loss_words(d, unit, figures) {
        let _ = write!(s, " — {l}");
    }
    s.push('\n');
    if let Some(reason) = &d.reason {
        let _ = writeln!(s, "    why: {reason}");
    }
    let nothing = d
        .alternatives
        .iter()
        .all(|a| a.value.mean == 0.0 && a.value.se == 0.0);
    if nothing && !d.alternatives.is_empty() {
        let _ = writeln!(
            s,
            "    every option paid nothing in the playouts (nobody won in them): no difference measured"
        );
        return s;
    }
    // The expert's first, then the best others, and the one played when further down.
    let shown: Vec<&Alternative> = d
        .alternatives
        .iter()
        .take(4)
        .chain(
            d.alternatives
                .iter()
                .skip(4)
                .filter(|a| a.action == d.played),
        )
        .collect();
    for a in shown {
        let _ = writeln!(s, "{}", alternative(a, a.action == d.expert, unit, figures));
    }
    s
}

/// Below this (chips) a sum of losses is a gain: the playouts favoured the choices played (as
/// the browser's review pane words it).
const GAINED_BELOW: f64 = -0.05;

/// The value lost over some decisions in words, the sign as a word: "lost about 4.2 chips",
/// "gained about 0.7 chips" (with `figures`, "lost +4.20 ± 1.10 chips", "gained +0.70 ± 0.40
/// chips"), never "lost about -0.7".
fn lost_words(lost: f64, se: f64, unit: &str, figures: bool) -> String {
    let (word, amount) = if lost < GAINED_BELOW {
        ("gained", -lost)
    } else {
        ("lost", lost.max(0.0))
    };
    if figures {
        format!("{word} {} {unit}", figure(amount, se))
    } else {
        format!("{word} about {amount:.1} {unit}")
    }
}

/// The review in words: the match summary, then each hand with its flagged decisions (every
/// decision with `all`); the figures (± standard errors) with `figures`.
pub fn words(r: &MatchReview, all: bool, figures: bool) -> String {
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
        "Agreed with the expert on {} of {} decisions ({:.0} %); {} cost {} beyond the playouts' noise; estimated value {} ({:.1} {} a hand{})",
        m.agreed,
        m.decisions,
        m.agreement() * 100.0,
        m.flagged,
        r.unit,
        lost_words(m.lost, m.lost_se, &r.unit, figures),
        r.lost_per_hand.abs(),
        r.unit,
        if m.lost < GAINED_BELOW {
            ": the playouts favoured the choices played"
        } else {
            ""
        },
    );
    let _ = writeln!(
        s,
        "Values are {} a hand by the rule set's own settlement; \"about equal\" means within the playouts' noise.",
        r.unit
    );
    for h in &r.hands {
        let hs = &h.summary;
        let result = h
            .result
            .map(|c| format!(", result {c:+}"))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "\nHand {}{result}: agreed {} of {}, {} beyond noise, {}",
            h.hand,
            hs.agreed,
            hs.decisions,
            hs.flagged,
            lost_words(hs.lost, hs.lost_se, &r.unit, figures)
        );
        for d in h.decisions.iter().filter(|d| all || d.flagged) {
            s.push_str(&decision(d, &r.unit, figures));
        }
    }
    let costly = r.costliest();
    if !costly.is_empty() {
        let _ = writeln!(s, "\nCostliest decisions:");
        for d in costly.iter().take(5) {
            let l = loss_words(d, &r.unit, figures).unwrap_or_default();
            let _ = writeln!(
                s,
                "  hand {} decision {}: {} instead of {}, {l}",
                d.hand, d.number, d.played, d.expert
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_negative_loss_is_worded_as_a_gain_never_as_lost_minus() {
        assert_eq!(
            lost_words(4.24, 1.1, "chips", false),
            "lost about 4.2 chips"
        );
        assert_eq!(
            lost_words(-0.7, 0.4, "chips", false),
            "gained about 0.7 chips"
        );
        assert_eq!(
            lost_words(-0.02, 0.4, "chips", false),
            "lost about 0.0 chips"
        );
        assert_eq!(
            lost_words(-0.7, 0.4, "chips", true),
            "gained +0.70 ± 0.40 chips"
        );
        assert_eq!(
            lost_words(1.5, 0.5, "chips", true),
            "lost +1.50 ± 0.50 chips"
        );
    }
}
