//! `majiang sim --matches N`: whole matches through `play_match` (and so the table's
//! `Session`: dealer rotation, Hangzhou lao and match end, Hong Kong's winds), the bots
//! rotated over the chairs from one match to the next. Matches run in parallel and are
//! reduced in match order, so a seed gives the same figures whatever the thread count.

use super::{Args, BotStats, HandResult, print_rows, tally, unit_name, win_of, with_hand_figures};
use crate::bot_choice::BotChoice;
use crate::exit::UsageError;
use crate::output::progress;
use majiang::table::TableRules;
use rayon::prelude::*;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

/// One match's result: every hand, and each chair's final score and rank.
struct MatchResult {
    hands: Vec<HandResult>,
    /// The bot (index in --bots) at each chair.
    seating: Vec<usize>,
    /// Final score by chair.
    finals: Vec<i64>,
    /// Rank (from 1) by chair.
    ranks: Vec<u8>,
    /// Why it ended, in words ("the deal went round", "cut short at the hand limit").
    end: String,
}

/// Per-bot match figures.
#[derive(Default, Clone)]
struct Standing {
    matches: u64,
    score: i64,
    /// Matches finished at each rank (index 0: first).
    ranks: Vec<u64>,
}

impl Standing {
    fn add(&mut self, o: &Standing) {
        self.matches += o.matches;
        self.score += o.score;
        if self.ranks.len() < o.ranks.len() {
            self.ranks.resize(o.ranks.len(), 0);
        }
        for (a, b) in self.ranks.iter_mut().zip(&o.ranks) {
            *a += b;
        }
    }

    fn mean_score(&self) -> f64 {
        if self.matches == 0 {
            0.0
        } else {
            self.score as f64 / self.matches as f64
        }
    }

    fn mean_rank(&self) -> f64 {
        let total: u64 = self.ranks.iter().sum();
        if total == 0 {
            return 0.0;
        }
        let sum: u64 = self
            .ranks
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as u64 + 1) * c)
            .sum();
        sum as f64 / total as f64
    }

    fn json(&self, name: &str) -> Value {
        json!({
            "bot": name,
            "matches": self.matches,
            "final_score_total": self.score,
            "mean_final_score": self.mean_score(),
            "mean_rank": self.mean_rank(),
            "ranks": self.ranks,
        })
    }
}

/// Match `index` of the run: the match `majiang selfplay --seed SEED+index --bots B` plays, B
/// being --bots rotated by `index` (entrant k plays bot (k + index) mod n), so any simulated
/// match can be replayed and checked alone. The bots follow the entrants the seating ceremony
/// draws, not the chairs: who deals first is the match's draw, not the order of --bots.
fn play_one(
    rules: &Arc<TableRules>,
    choice: &BotChoice,
    seed: u64,
    index: u64,
    hand_limit: u32,
) -> Result<MatchResult, UsageError> {
    let n = rules.players();
    let match_seed = seed.wrapping_add(index);
    let rotation: Vec<usize> = (0..n).map(|k| (k + index as usize) % n).collect();
    let limit = Some(hand_limit);
    let chairs = crate::replay::seating(rules, match_seed, limit)?;
    let context = format!("match {index} (seed {match_seed})");
    let mut players =
        crate::replay::chair_bots(choice, &rotation, rules, match_seed, limit, &context)?;
    // The bot (index in --bots) at each chair.
    let mut seating = vec![0; n];
    for (k, chair) in chairs.iter().enumerate() {
        seating[chair.index()] = rotation[k];
    }
    let (done, _log) =
        majiang::driver::play_match(rules.clone(), match_seed, Some(hand_limit), &mut players)?;
    let hands = done
        .settlements()
        .iter()
        .map(|s| HandResult {
            seating: seating.clone(),
            win: win_of(&s.outcome),
            payments: s.payments.clone(),
        })
        .collect();
    let mut ranks = vec![0u8; n];
    for row in done.standings() {
        ranks[row.player.index()] = row.rank;
    }
    Ok(MatchResult {
        hands,
        seating,
        finals: done.ledger().to_vec(),
        ranks,
        end: done
            .end_reason()
            .map_or("cut short at the hand limit", |r| {
                crate::replay::reason_text(Some(r))
            })
            .to_string(),
    })
}

/// Runs `majiang sim --matches N`.
pub(super) fn run(
    args: &Args,
    choice: &BotChoice,
    rules: &Arc<TableRules>,
    options: &Map<String, Value>,
    matches: u64,
    threads: usize,
) -> Result<(), UsageError> {
    let n = rules.players();
    let names = choice.labels();
    if matches == 0 {
        return Err(UsageError("--matches must be at least 1".into()));
    }
    if args.hand_limit == 0 {
        return Err(UsageError("--hands must be at least 1".into()));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| UsageError(format!("cannot start {threads} threads: {e}")))?;
    let pb = progress(matches, "matches");
    let start = Instant::now();
    let results: Result<Vec<MatchResult>, UsageError> = pool.install(|| {
        (0..matches)
            .into_par_iter()
            .map(|m| {
                let r = play_one(rules, choice, args.seed, m, args.hand_limit);
                pb.inc(1);
                r
            })
            .collect()
    });
    let results = results?;
    pb.finish_and_clear();
    let elapsed = start.elapsed().as_secs_f64();
    let mut per_bot = vec![BotStats::default(); n];
    let mut standing = vec![
        Standing {
            ranks: vec![0; n],
            ..Standing::default()
        };
        n
    ];
    let (mut hands, mut draws) = (0u64, 0u64);
    let mut histogram: BTreeMap<i64, u64> = BTreeMap::new();
    let mut ends: BTreeMap<String, u64> = BTreeMap::new();
    for m in &results {
        for h in &m.hands {
            hands += 1;
            tally(h, &mut per_bot, &mut draws, &mut histogram);
        }
        for (chair, &b) in m.seating.iter().enumerate() {
            let s = &mut standing[b];
            s.matches += 1;
            s.score += m.finals[chair];
            let rank = usize::from(m.ranks[chair].max(1)) - 1;
            s.ranks[rank.min(n - 1)] += 1;
        }
        *ends.entry(m.end.clone()).or_default() += 1;
    }
    let mut by_name: BTreeMap<&str, BotStats> = BTreeMap::new();
    let mut standing_by_name: BTreeMap<&str, Standing> = BTreeMap::new();
    for b in 0..n {
        let name = names[b].as_str();
        by_name.entry(name).or_default().add(&per_bot[b]);
        standing_by_name.entry(name).or_default().add(&standing[b]);
    }
    let unit = unit_name(rules);
    let report = json!({
        "rules": rules.name(),
        "options": options,
        "bots": names,
        "seed": args.seed,
        "matches": matches,
        "hand_limit": args.hand_limit,
        "match_ends": ends,
        "hands": hands,
        "wins": hands - draws,
        "draws": draws,
        "standings_per_seat": standing
            .iter()
            .enumerate()
            .map(|(b, s)| s.json(&names[b]))
            .collect::<Vec<_>>(),
        "standings_per_bot": standing_by_name
            .iter()
            .map(|(name, s)| s.json(name))
            .collect::<Vec<_>>(),
    });
    let mut report = with_hand_figures(report, &per_bot, &by_name, &names, &histogram, unit);
    println!(
        "{} — {matches} matches, {hands} hands ({} won, {draws} drawn); ends: {}",
        rules.name(),
        hands - draws,
        ends.iter()
            .map(|(e, c)| format!("{e} ×{c}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let ranks_header: Vec<String> = (1..=n).map(|r| format!("#{r}")).collect();
    let w = super::label_width(&names);
    println!(
        "{:<w$} {:>8} {:>12} {:>9}  ranks {}",
        "bot",
        "matches",
        "mean final",
        "mean rank",
        ranks_header.join(" ")
    );
    let row = |label: String, s: &Standing| {
        let cells: Vec<String> = s.ranks.iter().map(|c| c.to_string()).collect();
        println!(
            "{:<w$} {:>8} {:>12.1} {:>9.2}  ranks {}",
            label,
            s.matches,
            s.mean_score(),
            s.mean_rank(),
            cells.join(" ")
        );
    };
    for (b, s) in standing.iter().enumerate() {
        row(format!("{b}: {}", names[b]), s);
    }
    // A name's "all" row only where it sits in several positions (else it is the same row).
    for (name, s) in &standing_by_name {
        if names.iter().filter(|b| b == name).count() > 1 {
            row(format!("all {name}"), s);
        }
    }
    println!("per hand:");
    print_rows(&per_bot, &by_name, &names, &histogram, unit);
    super::external_report(choice, &mut report);
    println!("{matches} matches in {elapsed:.2} s on {threads} thread(s)",);
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report)? + "\n";
        std::fs::write(path, text).map_err(|e| UsageError(format!("--json {path}: {e}")))?;
    }
    Ok(())
}
