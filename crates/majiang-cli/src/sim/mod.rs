//! `majiang sim`: self-play between bots, in parallel, with a summary table and a JSON report.
//!
//! With `--matches N` it plays N whole matches instead (dealer rotation, Hangzhou's lao and
//! match end, Hong Kong's winds) through `majiang::driver::play_match`, the bots rotated over the
//! chairs from match to match, and reports per-bot standings (mean final score, rank
//! distribution) beside the per-hand figures of every hand played.
//!
//! Otherwise every hand is independent: hand `g` has its own seed, derived from `--seed` and `g`, and the
//! dealer rotates with `g`. With `--duplicate` each deal (wall) is played once per rotation of
//! the bots over the chairs, so that the luck of the tiles cancels out, and the report adds the
//! *paired* difference of every two bot names (`paired.rs`: per deal, one's mean chips per hand
//! minus the other's, with its 95 % interval; far narrower than two independent means).
//! Results are reduced in hand order, so the same seed gives the same figures whatever
//! `--threads` is.

mod arena;
mod matches;
mod paired;

use crate::bot_choice::BotChoice;
use crate::exit::UsageError;
use crate::output::progress;
use majiang::bots::{self, Bot};
use majiang::scoring::WinKind;
use majiang::table::{Game, HandOutcome, HandSetup, Player, TableRules};
use majiang::tile::Wind;
use majiang_external::Stderr;
use rayon::prelude::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

/// Arguments of `majiang sim`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: crate::rules_file::RulesArgs,
    /// Deals to play (with --duplicate, each is played once per rotation of the bots).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// One bot per chair, comma-separated: a level (easy, normal, hard), a bot (random,
    /// efficient, aggressive: efficient without defence, expert) or cmd:COMMAND (a program
    /// speaking the bot protocol; see --help).
    #[arg(
        long,
        default_value = "efficient,efficient,random,random",
        value_name = "BOT,BOT,...",
        long_help = format!(
            "One bot per chair, comma-separated. {}",
            crate::bot_choice::SYNTAX_HELP
        )
    )]
    bots: String,
    #[arg(long, default_value_t = 5000, value_name = "MS", help = crate::bot_choice::TIME_HELP)]
    bot_time_ms: u64,
    /// The seed every hand's seed is derived from.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Play each deal once per rotation of the bots over the chairs.
    #[arg(long)]
    duplicate: bool,
    /// The dealer's lao in every hand (Hangzhou: from 3 on, discard wins between the dealer and
    /// the others are allowed).
    #[arg(long, default_value_t = 1)]
    lao: u8,
    /// Play this many whole matches instead of independent deals (--games, --duplicate and
    /// --lao are then not used). Match i is the match `majiang selfplay --seed SEED+i` plays
    /// with --bots rotated by i (player k plays bot (k + i) mod n).
    #[arg(long, value_name = "N", conflicts_with_all = ["games", "duplicate", "lao"])]
    matches: Option<u64>,
    /// With --matches: the most hands a match may last (bots may never end a match whose
    /// dealer keeps the deal on a drawn hand; the default is `selfplay`'s too);
    /// `--hand-limit` is the old name.
    #[arg(
        long = "hands",
        alias = "hand-limit",
        requires = "matches",
        default_value_t = crate::replay::HAND_LIMIT,
        value_name = "HANDS"
    )]
    hand_limit: u32,
    /// Compare these bots (two or more, comma-separated) over --games duplicate deals: each
    /// deal played with every bot alone in every chair against each other bot, a paired 95 %
    /// interval per pair and Elo-style ratings (--bots is then not used; see sim/arena.rs).
    #[arg(long, value_name = "BOT,BOT,...", conflicts_with_all = ["matches", "duplicate"])]
    arena: Option<String>,
    /// Write the figures as JSON to this file (not `-`: the table is on standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
}

/// One hand's result, as the reduction needs it.
pub(crate) struct HandResult {
    /// The bot (index in --bots) at each chair.
    pub(crate) seating: Vec<usize>,
    /// Winner chair, how, discarder chair, total in the rule set's unit.
    pub(crate) win: Option<(usize, WinKind, Option<usize>, i64)>,
    /// Net chips per chair.
    pub(crate) payments: Vec<i64>,
}

/// Per-bot (per position in --bots) running figures.
#[derive(Default, Clone)]
pub(crate) struct BotStats {
    hands: u64,
    wins: u64,
    self_draws: u64,
    deal_ins: u64,
    chips: i64,
    chips_sq: f64,
    /// Summed totals of the wins (in the rule set's unit), for the mean win size.
    win_total: i64,
}

impl BotStats {
    fn add(&mut self, o: &BotStats) {
        self.hands += o.hands;
        self.wins += o.wins;
        self.self_draws += o.self_draws;
        self.deal_ins += o.deal_ins;
        self.chips += o.chips;
        self.chips_sq += o.chips_sq;
        self.win_total += o.win_total;
    }

    fn mean(&self) -> f64 {
        if self.hands == 0 {
            0.0
        } else {
            self.chips as f64 / self.hands as f64
        }
    }

    fn stddev(&self) -> f64 {
        if self.hands < 2 {
            return 0.0;
        }
        let n = self.hands as f64;
        let m = self.mean();
        ((self.chips_sq - n * m * m) / (n - 1.0)).max(0.0).sqrt()
    }

    pub(crate) fn rate(a: u64, b: u64) -> f64 {
        if b == 0 { 0.0 } else { a as f64 / b as f64 }
    }

    /// The mean total of the bot's wins (0 without wins).
    pub(crate) fn mean_win(&self) -> f64 {
        if self.wins == 0 {
            0.0
        } else {
            self.win_total as f64 / self.wins as f64
        }
    }

    /// Half the width of the 95 % confidence interval of the mean chips per hand.
    fn ci95(&self) -> f64 {
        ci95(self.hands, self.chips as f64, self.chips_sq)
    }

    pub(crate) fn json(&self, name: &str) -> Value {
        json!({
            "bot": name,
            "hands": self.hands,
            "wins": self.wins,
            "win_rate": Self::rate(self.wins, self.hands),
            "self_draw_wins": self.self_draws,
            "self_draw_share": Self::rate(self.self_draws, self.wins),
            "deal_ins": self.deal_ins,
            "deal_in_rate": Self::rate(self.deal_ins, self.hands),
            "chips": self.chips,
            "chips_per_hand": self.mean(),
            "chips_stddev": self.stddev(),
            "chips_per_hand_ci95": self.ci95(),
            "mean_win_size": self.mean_win(),
        })
    }
}

/// Derives independent seeds from the master seed and an index (SplitMix64).
pub(crate) use majiang::seeds::splitmix64 as mix;

fn play_one(
    rules: &Arc<TableRules>,
    choice: &BotChoice,
    seed: u64,
    deal: u64,
    rotation: usize,
    lao: u8,
) -> Result<HandResult, UsageError> {
    let n = rules.players();
    let hand_seed = mix(seed ^ mix(deal));
    let setup = HandSetup {
        dealer: Player((deal % n as u64) as u8),
        prevailing_wind: Wind::East,
        lao,
        balances: None,
        hand_number: (deal % u64::from(u32::MAX)) as u32,
        seed: hand_seed,
    };
    let mut game =
        Game::new_unrecorded(rules.clone(), setup).map_err(|e| UsageError(e.to_string()))?;
    let seating: Vec<usize> = (0..n).map(|c| (c + rotation) % n).collect();
    let mut players: Vec<Box<dyn Bot>> = Vec::with_capacity(n);
    for (c, &b) in seating.iter().enumerate() {
        let bot_seed = mix(hand_seed ^ mix(((rotation as u64) << 8) | c as u64));
        // The context names the deal to an external bot only: formatted only for one.
        let context = format_args!("deal {deal}");
        players.push(choice.make(b, rules, Player(c as u8), bot_seed, context)?);
    }
    let outcome = bots::play_hand(&mut game, &mut players)?;
    Ok(HandResult {
        seating,
        win: win_of(&outcome),
        payments: outcome.payments(n),
    })
}

/// Adds one hand's result to the per-bot figures, the draw count and the win-size histogram.
pub(crate) fn tally(
    r: &HandResult,
    per_bot: &mut [BotStats],
    draws: &mut u64,
    histogram: &mut BTreeMap<i64, u64>,
) {
    for (chair, &b) in r.seating.iter().enumerate() {
        let s = &mut per_bot[b];
        s.hands += 1;
        s.chips += r.payments[chair];
        s.chips_sq += (r.payments[chair] as f64).powi(2);
    }
    match r.win {
        Some((w, kind, discarder, total)) => {
            let s = &mut per_bot[r.seating[w]];
            s.wins += 1;
            s.win_total += total;
            if kind == WinKind::SelfDraw {
                s.self_draws += 1;
            }
            if let Some(d) = discarder {
                per_bot[r.seating[d]].deal_ins += 1;
            }
            *histogram.entry(total).or_default() += 1;
        }
        None => *draws += 1,
    }
}

/// The winner chair, how, the discarder chair and the total of a hand's outcome.
pub(crate) fn win_of(outcome: &HandOutcome) -> Option<(usize, WinKind, Option<usize>, i64)> {
    match outcome {
        HandOutcome::Win {
            winner,
            win,
            discarder,
            scored,
            ..
        } => Some((
            winner.index(),
            *win,
            discarder.map(|d| d.index()),
            scored.total,
        )),
        HandOutcome::ExhaustiveDraw => None,
    }
}

/// Runs `majiang sim`.
pub fn run(args: &Args) -> Result<(), UsageError> {
    if args.json.as_deref() == Some("-") {
        return Err(UsageError(
            "--json -: sim prints its table on standard output, so the JSON cannot go there; \
             give a file name"
                .into(),
        ));
    }
    let (name, options) = args.rules.resolve()?;
    let rules = Arc::new(TableRules::from_name(&name, &options)?);
    if let Some(list) = &args.arena {
        return run_arena(args, &rules, &options, list);
    }
    let n = rules.players();
    let choice = BotChoice::parse(&args.bots, args.bot_time_ms, Stderr::Inherit)?;
    let names = choice.labels();
    if names.len() != n {
        return Err(UsageError(format!(
            "--bots: {} bots given ({}), but a {} table seats {n}",
            names.len(),
            names.join(","),
            name
        )));
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        return Err(UsageError("--threads must be at least 1".into()));
    }
    if let Some(matches) = args.matches {
        return matches::run(args, &choice, &rules, &options, matches, threads);
    }
    if args.lao == 0 {
        return Err(UsageError(
            "--lao counts from 1 (a new dealer is at 1 lao)".into(),
        ));
    }
    let rotations = if args.duplicate { n } else { 1 };
    let total = args.games * rotations as u64;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| UsageError(format!("cannot start {threads} threads: {e}")))?;
    let pb = progress(total, "hands");
    let start = Instant::now();
    // Hands are played in parallel a chunk at a time and reduced in hand order, so memory
    // stays bounded and the figures do not depend on the thread count.
    const CHUNK: u64 = 8192;
    let mut per_bot = vec![BotStats::default(); n];
    let mut draws = 0u64;
    let mut hands = 0u64;
    let mut histogram: BTreeMap<i64, u64> = BTreeMap::new();
    let mut paired = paired::Paired::new(&names, rotations);
    let mut first = 0u64;
    while first < total {
        let last = (first + CHUNK).min(total);
        let results: Result<Vec<HandResult>, UsageError> = pool.install(|| {
            (first..last)
                .into_par_iter()
                .map(|h| {
                    let deal = h / rotations as u64;
                    let rotation = (h % rotations as u64) as usize;
                    let r = play_one(&rules, &choice, args.seed, deal, rotation, args.lao);
                    pb.inc(1);
                    r
                })
                .collect()
        });
        for r in &results? {
            hands += 1;
            tally(r, &mut per_bot, &mut draws, &mut histogram);
            paired.add(r);
        }
        first = last;
    }
    pb.finish_and_clear();
    let elapsed = start.elapsed().as_secs_f64();
    let mut by_name: BTreeMap<&str, BotStats> = BTreeMap::new();
    for (b, s) in per_bot.iter().enumerate() {
        by_name.entry(names[b].as_str()).or_default().add(s);
    }
    let unit = unit_name(&rules);
    let report = json!({
        "rules": rules.name(),
        "options": options,
        "bots": names,
        "seed": args.seed,
        "games": args.games,
        "duplicate": args.duplicate,
        "lao": args.lao,
        "hands": hands,
        "wins": hands - draws,
        "draws": draws,
        "win_rate": BotStats::rate(hands - draws, hands),
    });
    let mut report = with_hand_figures(report, &per_bot, &by_name, &names, &histogram, unit);
    print_table(&report, &per_bot, &by_name, &names, &histogram, unit);
    external_report(&choice, &mut report);
    if args.duplicate {
        report["paired"] = paired.json();
        paired.print();
    }
    println!(
        "{hands} hands in {elapsed:.2} s on {threads} thread(s): {:.0} hands/s",
        hands as f64 / elapsed.max(1e-9)
    );
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report)? + "\n";
        std::fs::write(path, text).map_err(|e| UsageError(format!("--json {path}: {e}")))?;
    }
    Ok(())
}

/// `majiang sim --arena`: the duels and ratings of `arena`, and the JSON report.
fn run_arena(
    args: &Args,
    rules: &Arc<TableRules>,
    options: &serde_json::Map<String, Value>,
    list: &str,
) -> Result<(), UsageError> {
    let names = arena::parse(list)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| UsageError(format!("cannot start {threads} threads: {e}")))?;
    let result = arena::run(rules, &names, args.games, args.seed, &pool)?;
    if let Some(path) = &args.json {
        let report = json!({"rules": rules.name(), "options": options, "seed": args.seed,
                            "arena": result});
        let text = serde_json::to_string_pretty(&report)? + "\n";
        std::fs::write(path, text).map_err(|e| UsageError(format!("--json {path}: {e}")))?;
    }
    Ok(())
}

/// How the external bots (`cmd:` entries) did, printed and added to the JSON report.
pub(crate) fn external_report(choice: &BotChoice, report: &mut Value) {
    if choice.has_commands() {
        print!("{}", choice.report());
        report["external_bots"] = choice.report_json();
    }
}

pub(crate) fn unit_name(rules: &TableRules) -> &'static str {
    rules.spec().unit.name()
}

/// `report` with the per-hand figures both reports share added: per seat, per bot name, and the
/// histogram of win totals.
pub(crate) fn with_hand_figures(
    mut report: Value,
    per_bot: &[BotStats],
    by_name: &BTreeMap<&str, BotStats>,
    names: &[String],
    histogram: &BTreeMap<i64, u64>,
    unit: &str,
) -> Value {
    report["per_seat"] = per_bot
        .iter()
        .enumerate()
        .map(|(b, s)| s.json(&names[b]))
        .collect();
    report["per_bot"] = by_name.iter().map(|(name, s)| s.json(name)).collect();
    report["win_totals"] = json!({
        "unit": unit,
        "histogram": histogram
            .iter()
            .map(|(t, c)| json!({"total": t, "count": c}))
            .collect::<Vec<_>>(),
    });
    report
}

pub(crate) fn print_table(
    report: &Value,
    per_bot: &[BotStats],
    by_name: &BTreeMap<&str, BotStats>,
    names: &[String],
    histogram: &BTreeMap<i64, u64>,
    unit: &str,
) {
    println!(
        "{} — {} hands ({}), {} won, {} drawn",
        report["rules"].as_str().unwrap_or(""),
        report["hands"],
        if report["duplicate"] == json!(true) {
            "duplicate"
        } else {
            "independent"
        },
        report["wins"],
        report["draws"],
    );
    print_rows(per_bot, by_name, names, histogram, unit);
}

/// The width of the table's first column: its longest label ("3: cmd:python3 bot.py", "all
/// NAME"), at least 14, so a long `cmd:` name never shifts the figures out of their columns.
pub(crate) fn label_width(names: &[String]) -> usize {
    names
        .iter()
        .enumerate()
        .map(|(b, n)| {
            format!("{b}: {n}")
                .chars()
                .count()
                .max(n.chars().count() + 4)
        })
        .max()
        .unwrap_or(0)
        .max(14)
}

/// The per-bot rows (per position in --bots, then per name) and the win-size histogram.
pub(crate) fn print_rows(
    per_bot: &[BotStats],
    by_name: &BTreeMap<&str, BotStats>,
    names: &[String],
    histogram: &BTreeMap<i64, u64>,
    unit: &str,
) {
    let w = label_width(names);
    println!(
        "{:<w$} {:>8} {:>8} {:>7} {:>10} {:>9} {:>10} {:>8} {:>10} {:>9}",
        "bot",
        "hands",
        "wins",
        "win %",
        "self-draw",
        "deal-ins",
        "chips/hand",
        "± 95%",
        "stddev",
        "mean win"
    );
    let row = |label: String, s: &BotStats| {
        println!(
            "{:<w$} {:>8} {:>8} {:>6.1}% {:>9.1}% {:>9} {:>10.3} {:>8.3} {:>10.2} {:>9.2}",
            label,
            s.hands,
            s.wins,
            100.0 * BotStats::rate(s.wins, s.hands),
            100.0 * BotStats::rate(s.self_draws, s.wins),
            s.deal_ins,
            s.mean(),
            s.ci95(),
            s.stddev(),
            s.mean_win()
        );
    };
    for (b, s) in per_bot.iter().enumerate() {
        row(format!("{b}: {}", names[b]), s);
    }
    // A name's "all" row only where it sits in several positions (else it is the same row).
    for (name, s) in by_name {
        if names.iter().filter(|n| n == name).count() > 1 {
            row(format!("all {name}"), s);
        }
    }
    if !histogram.is_empty() {
        let cells: Vec<String> = histogram.iter().map(|(t, c)| format!("{t}:{c}")).collect();
        println!("win totals ({unit}: count): {}", cells.join(" "));
    }
}

/// Half the width of the 95 % confidence interval of a mean, from the count, sum and sum of
/// squares of the samples (normal approximation; 0 under two samples).
pub(crate) fn ci95(n: u64, sum: f64, sum_sq: f64) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let n = n as f64;
    let mean = sum / n;
    let var = ((sum_sq - n * mean * mean) / (n - 1.0)).max(0.0);
    1.96 * (var / n).sqrt()
}
