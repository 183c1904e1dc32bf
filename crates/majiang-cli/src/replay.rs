//! `majiang replay FILE`: checks a match log and prints what happened; `majiang selfplay`:
//! plays one match with seeded bots and writes its log.
//!
//! `replay` exits 0 when the log replays identically to the end of the match, 3 when it
//! replays identically but stops before the match ended (a match left unfinished: the finished
//! hands are printed and where the log ends), 1 (with the first differing line) when it does
//! not replay, and 2 when the input cannot be read as a log at all.

use crate::bot_choice::BotChoice;
use crate::exit::UsageError;
use majiang::bots::Bot;
use majiang::scoring::{Unit, WinKind};
use majiang::table::log::MatchSummary;
use majiang::table::matches::{EndReason, Settlement};
use majiang::table::{HandOutcome, Player};
use majiang::table::{ReplayReport, TableRules, replay};
use majiang_external::Stderr;
use serde_json::Value;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `majiang replay`.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// The match log (JSON lines, as `majiang selfplay --log` writes it); `-` for standard input.
    file: String,
    /// Print only the verdict, not the hands and standings.
    #[arg(long, short)]
    quiet: bool,
}

/// The most hands a match of `selfplay` or `sim --matches` lasts unless told (`--hands`): far
/// more than a rule set's own end asks for, so it only cuts short a match whose dealer keeps
/// the deal on drawn hands (random bots in Hong Kong draw nearly every hand).
pub const HAND_LIMIT: u32 = 200;

/// Arguments of `majiang selfplay`.
#[derive(clap::Args)]
pub struct SelfplayArgs {
    #[command(flatten)]
    rules: crate::rules_file::RulesArgs,
    /// The match seed: it fixes the seats, every shuffle and die, and the players' choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where to write the match log (JSON lines); `-` for standard output.
    #[arg(long, value_name = "FILE")]
    log: String,
    /// The players: one bot for everyone, or one per player separated by commas, in the
    /// order the seating ceremony draws them to their chairs (so the first named is not always
    /// the first dealer; `replay` shows the seats). `random` is uniform among the legal
    /// actions (wins are rare).
    #[arg(
        long,
        default_value = "efficient",
        value_name = "BOT[,BOT...]",
        long_help = format!(
            "The players: one bot for everyone, or one per player separated by commas, in the \
             order the seating ceremony draws them to their chairs (so the first named is not \
             always the first dealer; `replay` shows the seats). {}",
            crate::bot_choice::SYNTAX_HELP
        )
    )]
    bots: String,
    #[arg(long, default_value_t = 5000, value_name = "MS", help = crate::bot_choice::TIME_HELP)]
    bot_time_ms: u64,
    /// Stop the match after this many hands whatever the rules say (0: no limit), as `play
    /// --hands` does (`--hand-limit` is the old name; the default is `sim --matches`'s too).
    /// Random bots in Hong Kong draw nearly every hand, and the dealer keeps the deal on a
    /// draw.
    #[arg(long = "hands", alias = "hand-limit", default_value_t = HAND_LIMIT)]
    hand_limit: u32,
}

/// Runs `majiang replay`.
pub fn run_replay(args: &ReplayArgs) -> ExitCode {
    let text = if args.file == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map(|_| s)
    } else {
        std::fs::read_to_string(&args.file)
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => {
            eprintln!("majiang: reading {}: {e}", args.file);
            return ExitCode::from(2);
        }
    };
    match replay(&text) {
        Ok(report) => {
            if !args.quiet {
                print!("{}", describe(&report));
            }
            println!(
                "replayed identically: {} hands, {} actions, {} records",
                report.hands.len(),
                report.actions,
                report.records
            );
            match report.stops_in {
                Some(hand) if !report.complete => {
                    if report.between_hands {
                        println!(
                            "the log ends after hand {} (match not finished)",
                            hand.saturating_sub(1)
                        );
                    } else {
                        println!("the log ends in hand {hand} (match not finished)");
                    }
                    ExitCode::from(3)
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(e) if e.is_unreadable() => {
            eprintln!("majiang: {}: not a match log: {e}", args.file);
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("majiang: {}: does not replay: {e}", args.file);
            ExitCode::from(1)
        }
    }
}

/// Runs `majiang selfplay`.
pub fn run_selfplay(args: &SelfplayArgs) -> Result<(), UsageError> {
    let (name, options) = args.rules.resolve()?;
    let ruleset = Arc::new(TableRules::from_name(&name, &options)?);
    let limit = (args.hand_limit > 0).then_some(args.hand_limit);
    let n = ruleset.players();
    let choice = BotChoice::parse(&args.bots, args.bot_time_ms, Stderr::Inherit)?;
    let entries: Vec<usize> = match choice.len() {
        1 => vec![0; n],
        k if k == n => (0..n).collect(),
        k => {
            return Err(UsageError(format!(
                "--bots: give one bot for every player or {n} (one per player, in the order \
                 they are drawn to their seats), not {k}"
            )));
        }
    };
    let context = format!("seed {}", args.seed);
    let mut players = chair_bots(&choice, &entries, &ruleset, args.seed, limit, &context)?;
    let played = majiang::driver::play_match(ruleset, args.seed, limit, &mut players);
    drop(players);
    eprint!("{}", choice.report());
    let (m, log) = played?;
    let text = log.to_jsonl();
    let summary = MatchSummary::of(&m);
    if args.log == "-" {
        print!("{text}");
    } else {
        std::fs::write(&args.log, &text)
            .map_err(|e| UsageError(format!("writing {}: {e}", args.log)))?;
        println!(
            "{name}, seed {}: {} hands ({}), {} log lines written to {}",
            args.seed,
            m.hands_played(),
            reason_text(summary.reason),
            log.records.len(),
            args.log
        );
        let names = Names::by_entrant(m.chairs());
        print!("{}", seats_line(m.chairs(), &names, m.ruleset().seats()));
        print!("{}", standings_text(&summary, &names));
    }
    Ok(())
}

/// The players of the match seeded `seed`, by chair: entrant k (the k-th player the seating
/// ceremony draws into a chair) plays entry `entries[k]` of `choice`, seeded from the match seed
/// and k. Bots follow the players, not the chairs: the first bot named is not always the first
/// dealer. `context` names the match in reports of external bots.
pub(crate) fn chair_bots(
    choice: &BotChoice,
    entries: &[usize],
    ruleset: &Arc<TableRules>,
    seed: u64,
    hand_limit: Option<u32>,
    context: &str,
) -> Result<Vec<Box<dyn Bot>>, UsageError> {
    let chairs = seating(ruleset, seed, hand_limit)?;
    let mut by_chair: Vec<Option<Box<dyn Bot>>> = (0..chairs.len()).map(|_| None).collect();
    for (k, (&entry, &chair)) in entries.iter().zip(&chairs).enumerate() {
        let bot_seed = majiang::seeds::bot_seed(seed, k as u64);
        by_chair[chair.index()] = Some(choice.make(entry, ruleset, chair, bot_seed, context)?);
    }
    by_chair
        .into_iter()
        .map(|b| b.ok_or_else(|| UsageError("a chair without a player".into())))
        .collect()
}

/// For each entrant, the chair the match seeded `seed` seats them in.
pub(crate) fn seating(
    ruleset: &Arc<TableRules>,
    seed: u64,
    hand_limit: Option<u32>,
) -> Result<Vec<Player>, UsageError> {
    let (session, _) = majiang::table::Session::new(ruleset.clone(), seed, hand_limit)?;
    Ok(session.chairs().to_vec())
}

/// "seats: player 0 in chair 2 (West), …": who the seating ceremony put where.
fn seats_line(chairs: &[Player], names: &Names, seats: &[majiang::seat::Seat]) -> String {
    let seats: Vec<String> = chairs
        .iter()
        .map(|&c| {
            let wind = seats
                .get(c.index())
                .map_or(String::new(), |s| format!(" ({})", s.title()));
            format!("{} in chair {c}{wind}", names.chair(c))
        })
        .collect();
    format!("seats: {}\n", seats.join(", "))
}

/// Why a match ended, in words.
pub(crate) fn reason_text(r: Option<EndReason>) -> &'static str {
    match r {
        Some(EndReason::DealRounds) => "the deal went round",
        Some(EndReason::Hands) => "the agreed number of hands",
        Some(EndReason::Points) => "a player ran out of points",
        Some(EndReason::HandLimit) => "cut short at the hand limit",
        None => "not finished",
    }
}

fn unit_word(u: Unit, v: i64) -> String {
    match u {
        Unit::Fan => format!("{v} fan"),
        Unit::Points => format!("{v} points"),
        Unit::Double if v == 1 => "1 double".into(),
        Unit::Double => format!("{v} doubles"),
        Unit::Multiplier => format!("×{v}"),
    }
}

fn signed(v: &[i64]) -> String {
    v.iter()
        .map(|x| format!("{x:+}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The players' names by chair: those seen in play when the log names them ("You", "Bot
/// 1"), else "player N" for the N-th entrant (as `selfplay --bots` names them, in order).
struct Names(Vec<String>);

impl Names {
    /// "player N" in the chair of entrant N.
    fn by_entrant(chairs: &[Player]) -> Names {
        let mut names: Vec<String> = (0..chairs.len()).map(|c| format!("player {c}")).collect();
        for (entrant, chair) in chairs.iter().enumerate() {
            if let Some(slot) = names.get_mut(chair.index()) {
                *slot = format!("player {entrant}");
            }
        }
        Names(names)
    }

    fn of(report: &ReplayReport) -> Names {
        let Names(mut names) = Names::by_entrant(&report.chairs);
        for (entrant, chair) in report.chairs.iter().enumerate() {
            if let (Some(name), Some(slot)) = (
                report.header.names.get(entrant),
                names.get_mut(chair.index()),
            ) {
                *slot = name.clone();
            }
        }
        Names(names)
    }

    fn chair(&self, p: Player) -> &str {
        self.0.get(p.index()).map_or("?", String::as_str)
    }

    /// "your" for "You", else "Bot 1's".
    fn whose(&self, p: Player) -> String {
        match self.chair(p) {
            "You" => "your".to_string(),
            name => format!("{name}'s"),
        }
    }
}

fn hand_line(s: &Settlement, show_lao: bool, names: &Names) -> String {
    let mut line = format!(
        "hand {:>3}  dealer {}  {:<5} wind",
        s.hand_number,
        names.chair(s.deal.dealer),
        s.deal.prevailing_wind.name()
    );
    if show_lao {
        let _ = write!(line, "  lao {}", s.deal.lao);
    }
    match &s.outcome {
        HandOutcome::ExhaustiveDraw => line.push_str("  drawn (the wall ran out)"),
        HandOutcome::Win {
            winner,
            win,
            discarder,
            tile,
            scored,
            ..
        } => {
            let from = |d: &Option<Player>| d.map(|p| names.whose(p)).unwrap_or_default();
            let how = match win {
                WinKind::SelfDraw => "by self-draw".to_string(),
                WinKind::Discard => format!("on {} discard", from(discarder)),
                WinKind::RobbingKong => format!("robbing {} kong", from(discarder)),
            };
            let patterns: Vec<String> = scored
                .patterns
                .iter()
                .map(|p| format!("{} {}", p.name, unit_word(p.unit, p.value)))
                .collect();
            let winner = names.chair(*winner);
            let verb = if winner == "You" { "win" } else { "wins" };
            let _ = write!(
                line,
                "  {winner} {verb} {how} with {tile}: {}; total {}",
                patterns.join(", "),
                scored.total
            );
        }
    }
    let _ = write!(line, "  | payments {}", signed(&s.payments));
    line
}

fn standings_text(summary: &MatchSummary, names: &Names) -> String {
    let mut out = String::from("final standings:\n");
    for st in &summary.standings {
        let _ = writeln!(
            out,
            "  {}. {} (chair {})  {:+}",
            st.rank,
            names.chair(st.player),
            st.player,
            st.points
        );
    }
    out
}

/// The per-hand summary and final standings of a replayed log.
fn describe(report: &ReplayReport) -> String {
    let h = &report.header;
    let mut out = format!(
        "{} match, seed {}, {} players, options {}\n",
        h.rules,
        h.seed,
        h.players,
        Value::Object(h.options.clone())
    );
    let names = Names::of(report);
    let winds = TableRules::from_name(&h.rules, &h.options)
        .map(|r| r.seats().to_vec())
        .unwrap_or_default();
    out.push_str(&seats_line(&report.chairs, &names, &winds));
    let show_lao = majiang::rules::lookup(&h.rules).is_ok_and(|set| set.spec().lao);
    for s in &report.hands {
        out.push_str(&hand_line(s, show_lao, &names));
        out.push('\n');
    }
    if report.complete {
        let _ = writeln!(
            out,
            "match over after {} hands: {}",
            report.summary.hands,
            reason_text(report.summary.reason)
        );
        out.push_str(&standings_text(&report.summary, &names));
    } else {
        let _ = writeln!(
            out,
            "{} hands finished before the log ends; standings so far:",
            report.summary.hands
        );
        out.push_str(
            standings_text(&report.summary, &names).trim_start_matches("final standings:\n"),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::describe;
    use crate::play::app::App;
    use majiang::table::{TableRules, replay};
    use std::sync::Arc;

    #[test]
    fn a_played_match_replays_with_the_names_seen_in_play() {
        let r = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
        let mut app = App::new(r, 8, "efficient", Some(1), true).unwrap();
        app.run_bots();
        let log = app.take_log().join("\n");
        let text = describe(&replay(&log).expect("a partial log replays"));
        assert!(text.contains("You in chair"), "{text}");
        assert!(text.contains("Bot 1 in chair"), "{text}");
        assert!(!text.contains("entrant"), "{text}");
        assert!(text.contains(". You (chair "), "{text}");
    }
}
