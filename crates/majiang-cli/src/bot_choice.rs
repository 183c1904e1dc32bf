//! `--bots` for `sim`, `selfplay` and `play`: a list of bots separated by commas, each a bot
//! of ours by name or level, or `cmd:COMMAND`, a program speaking the bot protocol
//! (`docs/bot-protocol.md`; the `majiang-external` crate runs it). After the run, [`BotChoice::report`]
//! says how the external bots did: decisions they answered, and every fall-back to `efficient`.

use crate::exit::UsageError;
use majiang::bots::{self, Bot};
use majiang::table::{Player, TableRules};
use majiang_external::spec::{BotSpec, Command, split_list};
use majiang_external::{ExternalBot, Limits, Seating, Stderr, Tally, bot_name};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// The help shared by every `--bot-time-ms`.
pub const TIME_HELP: &str = "The time an external bot (cmd:…) has for each decision, in \
     milliseconds; one that is late is dismissed and `efficient` plays its seat on";

/// The `--bots` syntax, for the help of each command.
pub const SYNTAX_HELP: &str = "An entry is a level (easy, normal, hard), a bot (random, \
     efficient, aggressive: efficient without defence, expert), expert:N or hard:N (the expert \
     searching N worlds per batch, 1 to 4096; plain expert is 64) or cmd:COMMAND, a program \
     speaking the bot protocol (docs/bot-protocol.md), e.g. --bots 'efficient,cmd:python3 \
     examples/bots/simple_bot.py,efficient,efficient'. The command is split into words as the \
     shell does; quote a comma that belongs to it (cmd:bot --weights 'a,b'). A bot that \
     crashes, is late (--bot-time-ms), or answers nonsense or an illegal action is dismissed \
     and `efficient` plays its seat for the rest of the match.";

/// One entry of `--bots`.
#[derive(Debug)]
struct Entry {
    /// As reports show it: the bot's name, or `cmd:` and the command, its paths shortened to
    /// file names ([`Command::short`]).
    label: String,
    spec: BotSpec,
    /// For a command: what its bots did.
    tally: Arc<Tally>,
}

/// The bots `--bots` names, ready to be made seat by seat.
#[derive(Debug)]
pub struct BotChoice {
    entries: Vec<Entry>,
    limits: Limits,
}

impl BotChoice {
    /// Reads `--bots` (names known to the library or `cmd:` commands). `time_ms` is the
    /// time for a decision; `stderr` where the commands' standard error goes.
    pub fn parse(list: &str, time_ms: u64, stderr: Stderr) -> Result<BotChoice, UsageError> {
        if time_ms == 0 {
            return Err(UsageError("--bot-time-ms must be at least 1".into()));
        }
        let entries = split_list(list)
            .map_err(|e| UsageError(format!("--bots: {e}")))?
            .iter()
            .map(|text| {
                let spec = BotSpec::parse(text).map_err(|e| UsageError(format!("--bots: {e}")))?;
                let label = match &spec {
                    BotSpec::Named(name) if bots::check_name(name).is_err() => {
                        return Err(UsageError(format!(
                            "--bots: {}",
                            bots::UnknownBot(name.clone())
                        )));
                    }
                    BotSpec::Named(name) => name.clone(),
                    BotSpec::Command(c) => format!("cmd:{}", c.short()),
                };
                Ok(Entry {
                    label,
                    spec,
                    tally: Arc::default(),
                })
            })
            .collect::<Result<Vec<_>, UsageError>>()?;
        let decision = Duration::from_millis(time_ms);
        Ok(BotChoice {
            entries,
            limits: Limits {
                decision,
                start: decision.max(Limits::default().start),
                stderr,
            },
        })
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Each entry as reports show it.
    pub fn labels(&self) -> Vec<String> {
        self.entries.iter().map(|e| e.label.clone()).collect()
    }

    /// True when some entry is a command.
    pub fn has_commands(&self) -> bool {
        self.entries
            .iter()
            .any(|e| matches!(e.spec, BotSpec::Command(_)))
    }

    /// The bot of entry `index` for chair `seat` of a table under `ruleset`, seeded with
    /// `seed`; `context` names the match or hand in reports ("match 3"), formatted only for a
    /// command (`format_args!` costs nothing until then).
    pub fn make(
        &self,
        index: usize,
        ruleset: &Arc<TableRules>,
        seat: Player,
        seed: u64,
        context: impl std::fmt::Display,
    ) -> Result<Box<dyn Bot>, UsageError> {
        let entry = &self.entries[index];
        match &entry.spec {
            BotSpec::Named(name) => {
                bots::by_name(name, ruleset, seed).map_err(|e| UsageError(format!("--bots: {e}")))
            }
            BotSpec::Command(command) => Ok(Box::new(start(
                command,
                Seating {
                    ruleset: ruleset.clone(),
                    seat,
                    seed,
                    context: context.to_string(),
                },
                self.limits,
                entry.tally.clone(),
            )?)),
        }
    }

    /// What the external bots did, one line each (none without commands): decisions they
    /// answered, decisions `efficient` made for them, and every dismissal with its reason. Each
    /// bot is named by its position in `--bots` as `sim`'s table numbers it, in the one form of
    /// [`bot_name`]: "Bot 0 (cmd:my_bot.py)".
    pub fn report(&self) -> String {
        let mut out = String::new();
        for (i, e) in self.commands() {
            let name = bot_name(&format!("Bot {i}"), &e.label);
            out.push_str(&format!("{name}: {}\n", tally_words(&e.tally)));
            for f in e.tally.fallbacks() {
                out.push_str(&format!(
                    "  {}, chair {}: {}\n",
                    f.context,
                    f.seat,
                    f.text(&name)
                ));
            }
        }
        out
    }

    /// [`BotChoice::report`] for `play`, where each bot is named as the table names its seat
    /// (the context it was made with: "Bot 2"), never by its position in `--bots`.
    pub fn report_by_seat(&self) -> String {
        let mut out = String::new();
        for (_, e) in self.commands() {
            out.push_str(&format!("{}: {}\n", e.label, tally_words(&e.tally)));
        }
        for d in self.dismissals() {
            out.push_str(&format!("{d}\n"));
        }
        out
    }

    /// Every dismissal so far, in order, each named as the table names its seat ("Bot 2
    /// (cmd:my_bot.py) was dismissed in hand 3: …; efficient plays its seat on"): `play`
    /// tells each when it happens.
    pub fn dismissals(&self) -> Vec<String> {
        self.commands()
            .flat_map(|(_, e)| {
                e.tally
                    .fallbacks()
                    .into_iter()
                    .map(|f| f.text(&bot_name(&f.context, &e.label)))
            })
            .collect()
    }

    /// The entries that are commands, with their positions.
    fn commands(&self) -> impl Iterator<Item = (usize, &Entry)> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e.spec, BotSpec::Command(_)))
    }

    /// [`BotChoice::report`] as JSON, for `--json` reports (an empty list without commands).
    pub fn report_json(&self) -> Value {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e.spec, BotSpec::Command(_)))
            .map(|(i, e)| {
                json!({
                    "position": i,
                    "bot": e.label,
                    "decisions": e.tally.decisions(),
                    "fallback_decisions": e.tally.fallback_decisions(),
                    "dismissals": e.tally.fallbacks().iter().map(|f| json!({
                        "context": f.context,
                        "chair": f.seat.index(),
                        "hand": f.hand,
                        "reason": f.failure.to_string(),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect()
    }
}

/// A tally in words: "12 decisions answered, 30 played by efficient after 1 dismissal(s)".
fn tally_words(tally: &Tally) -> String {
    format!(
        "{} decisions answered, {} played by efficient after {} dismissal(s)",
        tally.decisions(),
        tally.fallback_decisions(),
        tally.fallbacks().len()
    )
}

fn start(
    command: &Command,
    seating: Seating,
    limits: Limits,
    tally: Arc<Tally>,
) -> Result<ExternalBot, UsageError> {
    ExternalBot::start(command, seating, limits, tally)
        .map_err(|e| UsageError(format!("--bots: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_names_or_commands() {
        let c = BotChoice::parse(
            "efficient, cmd:python3 'my bot.py' --x 'a,b',hard",
            100,
            Stderr::Discard,
        )
        .unwrap();
        assert_eq!(
            c.labels(),
            ["efficient", "cmd:python3 'my bot.py' --x 'a,b'", "hard"]
        );
        assert!(c.has_commands());
        let err = BotChoice::parse("efficient,clever", 100, Stderr::Discard).unwrap_err();
        assert!(err.0.contains("unknown bot \"clever\""), "{}", err.0);
        let err = BotChoice::parse("cmd:", 100, Stderr::Discard).unwrap_err();
        assert!(err.0.contains("no command"), "{}", err.0);
        assert!(BotChoice::parse("efficient", 0, Stderr::Discard).is_err());
    }

    #[test]
    fn play_seats_external_bots_and_every_bot_move_is_theirs() {
        use crate::play::app::{App, Key, Mode};
        use majiang::table::Action;
        use majiang::table::log::{LogRecord, MatchLog};
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/bots/simple_bot.py"
        );
        let choice =
            BotChoice::parse(&format!("cmd:python3 {script}"), 5000, Stderr::Discard).unwrap();
        let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
        let mut app = App::with_bots(rules, 4, &choice, Some(1), true, 0).unwrap();
        for _ in 0..1000 {
            app.run_bots();
            if app.mode() == &Mode::HandOver {
                break;
            }
            let legal = app.observation().legal_actions;
            app.on_key(if legal.contains(&Action::Win) {
                Key::Char('w')
            } else if legal.contains(&Action::Pass) {
                Key::Char(' ')
            } else {
                Key::Enter
            });
        }
        assert_eq!(app.mode(), &Mode::HandOver);
        let human = app.human();
        let log = MatchLog::parse(&app.take_log().join("\n")).unwrap();
        let bot_moves = log
            .records
            .iter()
            .filter(|r| matches!(r, LogRecord::Action { player, .. } if *player != human))
            .count();
        assert!(bot_moves > 10, "{bot_moves}");
        let report = choice.report_json();
        assert_eq!(report[0]["decisions"], bot_moves as u64, "{report}");
        assert_eq!(report[0]["fallback_decisions"], 0, "{report}");
    }

    #[test]
    fn a_command_that_cannot_start_is_a_usage_error() {
        let c = BotChoice::parse("cmd:/nonexistent/bot", 100, Stderr::Discard).unwrap();
        let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
        let err = c.make(0, &rules, Player(0), 1, "test").err().unwrap();
        assert!(err.0.contains("cannot start /nonexistent/bot"), "{}", err.0);
    }
}
