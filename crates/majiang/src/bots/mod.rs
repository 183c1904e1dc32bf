//! Bots: players that choose an action from what their seat may see, and a driver that plays
//! a whole hand with them.
//!
//! A [`Bot`] gets the player's [`Observation`] (its own concealed tiles and the table, never
//! another seat's hidden tiles) and the legal actions, and returns one of them. Each bot owns a
//! seeded random generator, so a hand played by bots is fixed by the hand's seed and the bots'
//! seeds.
//!
//! - [`RandomBot`]: a uniformly random legal action.
//! - [`EasyBot`]: the `easy` level, the efficient bot with misjudgements.
//! - [`ExpertBot`]: the `hard` level, determinized Monte-Carlo search over the discards (and,
//!   in Hangzhou, whether to turn a win down for Bao Tou).
//! - [`EfficientBot`] (the `normal` level): discards and calls by shanten and the unseen useful tiles, aiming at
//!   the patterns its rule set needs, with a basic defence late in the hand
//!   ([`EfficientBot::without_defence`]: the same without it, `aggressive` in [`by_name`]).
//!
//! [`play_hand`] drives a [`Game`] to its end with one bot per chair, building each bot's
//! observation with [`observe_into`] (reusing its buffers) only for bots that read it;
//! [`play_match`](crate::driver::play_match) plays a whole match the same way through the
//! seat driver, writing its log.
//!
//! Measured with `majiang sim` (seed 2026, release build): the efficient bot against the
//! random one in 20 000 duplicate hands per rule set wins +11.5 chips a hand in Hong Kong,
//! +1.5 in Hangzhou (1 lao: self-draws only; +2.3 at 3 lao), +11.4 in Yangzhou and +51 points
//! in classic. Four efficient bots finish 68 % of Hong Kong hands with a win (3 fan minimum),
//! 99 % in Hangzhou, 87 % in Yangzhou (15 fan minimum) and all but a handful in classic.
//! `cargo bench --bench bots` times whole hands.
//!
//! ```
//! use majiang::bots::{self, Bot};
//! use majiang::table::{Game, HandSetup, TableRules};
//! use std::sync::Arc;
//!
//! let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
//! let (mut game, _events) = Game::new(rules.clone(), HandSetup::new(1)).unwrap();
//! let mut players: Vec<Box<dyn Bot>> = (0..4)
//!     .map(|i| bots::by_name("efficient", &rules, i).unwrap())
//!     .collect();
//! let outcome = bots::play_hand(&mut game, &mut players).unwrap();
//! assert!(game.is_over());
//! assert_eq!(outcome.payments(4).iter().sum::<i64>(), 0);
//! ```

pub mod easy;
pub mod efficient;
pub mod expert;
pub mod policy;
pub mod protocol;
pub mod random;
mod view;

pub use easy::EasyBot;
pub use efficient::EfficientBot;
pub use expert::{Budget, ExpertBot};
pub use policy::{Refusal, SeatAction};
pub use random::RandomBot;
pub(crate) use view::empty_observation;
pub use view::observe_into;

use crate::table::game::MAX_PLAYERS;
use crate::table::matches::Standing;
use crate::table::{
    Action, ActionError, Game, HandOutcome, LegalSet, Observation, Player, TableRules,
};
use std::sync::Arc;

/// A player at the table: picks one of the legal actions from what its seat may see.
pub trait Bot: Send {
    /// The bot's name (as `majiang sim --bots` spells it).
    fn name(&self) -> &'static str;

    /// Chooses one of `legal` (never empty) for the player `obs` describes. `obs` holds only
    /// what that seat may see. When [`Bot::needs_observation`] is false the driver may pass a
    /// stale or empty observation: only `legal` is current.
    fn act(&mut self, obs: &Observation, legal: &[Action]) -> Action;

    /// Chooses from the legal actions as a set (the same actions in the same order as the
    /// list `act` gets), for a bot that reads neither the observation nor the list: `None`
    /// (the default) means "ask [`Bot::act`]". [`play_hand`] asks this first of a bot whose
    /// [`Bot::needs_observation`] is false, and lists the actions only if it declines; an
    /// answer must be the one `act` would give, so both ways play the same game.
    fn choose(&mut self, _legal: &LegalSet) -> Option<Action> {
        None
    }

    /// Whether [`Bot::act`] reads the observation (building one costs time; a bot that only
    /// looks at the legal actions says `false`). The same answer for the whole hand:
    /// [`play_hand`] asks once per hand.
    fn needs_observation(&self) -> bool {
        true
    }

    /// Told when a hand it played has ended: how, and the chips per chair. The default
    /// ignores it (a bot that keeps nothing between hands); a bot in another process passes it
    /// on ([`protocol::HandEnd`]).
    fn hand_ended(&mut self, _outcome: &HandOutcome, _payments: &[i64]) {}

    /// Told when the match is over, after `hands` hands, with the final standings (the
    /// default ignores it).
    fn match_ended(&mut self, _hands: u32, _standings: &[Standing]) {}

    /// A copy of the bot as it stands (its random generator where it is now), for a caller
    /// that copies a game in play (a search, the Python `Table.clone`); `None` (the default)
    /// for a bot that cannot be copied, such as one in another process.
    fn clone_box(&self) -> Option<Box<dyn Bot>> {
        None
    }
}

/// The difficulty levels, weakest first, with the bot each one is: `easy` ([`EasyBot`]),
/// `normal` ([`EfficientBot`]) and `hard` ([`ExpertBot`]).
pub const LEVELS: &[(&str, &str)] = &[
    ("easy", "easy"),
    ("normal", "efficient"),
    ("hard", "expert"),
];

/// Every name [`by_name`] knows: the difficulty levels, then the bots by their own names.
pub const BOT_NAMES: &[&str] = &[
    "easy",
    "normal",
    "hard",
    "random",
    "efficient",
    "aggressive",
    "expert",
];

/// An unknown bot name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownBot(pub String);

impl std::fmt::Display for UnknownBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some((bot, _)) = with_budget(&self.0) {
            return write!(
                f,
                "bad search budget in {:?}: write {bot}:N, N the worlds per batch of the \
                 search, a whole number from 1 to {MAX_ROLLOUTS} (plain {bot} is {})",
                self.0,
                Budget::DEFAULT.rollouts
            );
        }
        write!(
            f,
            "unknown bot {:?} (known bots: {}; the expert with another search budget: \
             expert:N or hard:N)",
            self.0,
            BOT_NAMES.join(", ")
        )
    }
}

/// The most worlds per batch `expert:N` accepts.
pub const MAX_ROLLOUTS: u32 = 4096;

/// `expert:N` or `hard:N` split into the bot and the text after the colon.
fn with_budget(name: &str) -> Option<(&str, &str)> {
    let (bot, n) = name.split_once(':')?;
    matches!(bot, "expert" | "hard").then_some((bot, n))
}

/// The budget `expert:N` / `hard:N` names: [`Budget::DEFAULT`] with `N` rollouts per batch.
/// `None` for another name; `Some(Err)` for a bad number.
fn budget_of(name: &str) -> Option<Result<Budget, UnknownBot>> {
    let (_, n) = with_budget(name)?;
    Some(match n.parse::<u32>() {
        Ok(r) if (1..=MAX_ROLLOUTS).contains(&r) => Ok(Budget {
            rollouts: r,
            ..Budget::DEFAULT
        }),
        _ => Err(UnknownBot(name.to_string())),
    })
}

/// Checks a name [`by_name`] would accept, without making the bot: one of [`BOT_NAMES`], or
/// `expert:N` / `hard:N` (the expert with `N` worlds per batch of its search, 1 to
/// [`MAX_ROLLOUTS`]; the other fields of its [`Budget`] as in [`Budget::DEFAULT`]).
///
/// ```
/// use majiang::bots;
/// assert!(bots::check_name("hard").is_ok());
/// assert!(bots::check_name("expert:256").is_ok());
/// let bad = bots::check_name("expert:lots").unwrap_err();
/// assert!(bad.to_string().contains("bad search budget"));
/// assert!(bots::check_name("expert:0").is_err());
/// assert!(bots::check_name("grandmaster").is_err());
/// ```
pub fn check_name(name: &str) -> Result<(), UnknownBot> {
    match budget_of(name) {
        Some(budget) => budget.map(|_| ()),
        None if BOT_NAMES.contains(&name) => Ok(()),
        None => Err(UnknownBot(name.to_string())),
    }
}

impl std::error::Error for UnknownBot {}

/// A bot by name for a table under `ruleset`, seeded with `seed`: a difficulty level (`easy`,
/// `normal`, `hard`) or a bot's own name (`random`; `efficient`; `aggressive`, the efficient
/// bot without defence; `expert`), or `expert:N` / `hard:N`, the expert searching `N` worlds
/// per batch instead of [`Budget::DEFAULT`]'s (see [`check_name`]).
pub fn by_name(
    name: &str,
    ruleset: &Arc<TableRules>,
    seed: u64,
) -> Result<Box<dyn Bot>, UnknownBot> {
    if let Some(budget) = budget_of(name) {
        let bot = ExpertBot::new(ruleset.clone(), seed).with_budget(budget?);
        return Ok(Box::new(bot));
    }
    let name = LEVELS
        .iter()
        .find(|(level, _)| *level == name)
        .map_or(name, |(_, bot)| *bot);
    match name {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        "easy" => Ok(Box::new(EasyBot::new(ruleset.clone(), seed))),
        "efficient" => Ok(Box::new(EfficientBot::new(ruleset.clone(), seed))),
        "aggressive" => Ok(Box::new(
            EfficientBot::new(ruleset.clone(), seed).without_defence(),
        )),
        "expert" => Ok(Box::new(ExpertBot::new(ruleset.clone(), seed))),
        other => Err(UnknownBot(other.to_string())),
    }
}

/// Why [`play_hand`] stopped before the hand ended.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// One bot per player is needed.
    #[error("{bots} bots for {players} players")]
    BotCount {
        /// Bots given.
        bots: usize,
        /// Players at the table.
        players: usize,
    },
    /// The engine refused the first legal action it listed itself (an engine bug; never seen).
    #[error("player {player}: the engine refused its own first legal action: {error}")]
    FallbackRefused {
        /// The player.
        player: Player,
        /// The engine's reason.
        error: ActionError,
    },
}

/// Plays `game` to its end, asking `bots[p]` for player `p`'s decisions (when several players
/// must answer a discard, in chair order; the engine resolves the claims once all have
/// answered). Returns how the hand ended.
pub fn play_hand(game: &mut Game, bots: &mut [Box<dyn Bot>]) -> Result<HandOutcome, PlayError> {
    play_hand_reporting(game, bots, &mut Vec::new())
}

/// [`play_hand`], adding each bot choice the engine refused to `refused`. A refused choice
/// does not stop the hand: the seat plays the first legal action instead ([`SeatAction`], the
/// policy every seat driver follows).
pub fn play_hand_reporting(
    game: &mut Game,
    bots: &mut [Box<dyn Bot>],
    refused: &mut Vec<Refusal>,
) -> Result<HandOutcome, PlayError> {
    let n = game.players();
    if bots.len() != n {
        return Err(PlayError::BotCount {
            bots: bots.len(),
            players: n,
        });
    }
    let mut legal = Vec::with_capacity(24);
    let mut events = Vec::new();
    let mut obs = view::empty_observation();
    let mut watching = [false; MAX_PLAYERS];
    for (w, bot) in watching.iter_mut().zip(bots.iter()) {
        *w = bot.needs_observation();
    }
    while let Some(p) = game.to_act().next() {
        let bot = &mut bots[p.index()];
        let watches = watching.get(p.index()).copied().unwrap_or(true);
        // A bot that reads neither the observation nor the list may choose from the set of
        // legal actions (no list built); any other is given both. Either way a legal action
        // is applied without checking it again, and without recording the events nobody
        // here reads.
        let (action, legal_now) = if watches {
            game.legal_actions_into(p, &mut legal);
            observe_into(game, p, &legal, &mut obs);
            let action = bot.act(&obs, &legal);
            (action, legal.contains(&action))
        } else {
            let set = game.legal_set(p);
            let action = match bot.choose(&set) {
                Some(action) => action,
                None => {
                    game.legal_actions_into(p, &mut legal);
                    bot.act(&obs, &legal)
                }
            };
            (action, set.contains(action))
        };
        if legal_now {
            game.apply_legal_unrecorded(p, action)
                .map_err(|error| PlayError::FallbackRefused { player: p, error })
        } else {
            // The seat policy: the first legal action instead (the list is built only here on
            // the fast path).
            if !watches {
                game.legal_actions_into(p, &mut legal);
            }
            let seat = SeatAction::of(game, p, action, &legal);
            if let Some((chosen, error)) = seat.refused {
                refused.push(Refusal {
                    name: bot.name(),
                    player: p,
                    chosen,
                    error,
                });
            }
            events.clear();
            game.apply_into(p, seat.action, &mut events)
                .map_err(|error| PlayError::FallbackRefused { player: p, error })?;
            Ok(())
        }?;
    }
    let outcome = game
        .outcome()
        .cloned()
        .unwrap_or(HandOutcome::ExhaustiveDraw);
    let payments = outcome.payments(n);
    for bot in bots.iter_mut() {
        bot.hand_ended(&outcome, &payments);
    }
    Ok(outcome)
}
