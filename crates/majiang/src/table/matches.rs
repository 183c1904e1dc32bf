//! A whole match: seat choice once, then hands, with dealer rotation, the prevailing wind, lao
//! counting, a chip ledger and the rule set's end of match.
//!
//! The rules of the match, per rule set (`docs/rules/<set>.md`, "Match"):
//!
//! | rule set | dealer after a hand | prevailing wind | the match ends |
//! | --- | --- | --- | --- |
//! | Hong Kong | stays on a dealer win or a drawn hand, else the next seat deals | East, South, West, North; the next wind once the deal has gone round every seat | after the North wind |
//! | Hangzhou | dealer win or draw: same dealer, lao + 1; another player wins: the winner deals at 1 lao | always East (Hangzhou scores no winds) | `end = rounds:N`: after N hands; `points:N`: after a hand not won by the dealer once anyone is at 0 or below |
//! | Yangzhou | stays on a dealer win, else (a drawn hand too) the next seat deals | as Hong Kong | as Hong Kong (the seed is silent: one turn of the deal round all four winds) |
//! | classic | the next seat deals after every hand | always East | when every seat has dealt once |
//!
//! Readings written down here because the seeds leave them open:
//!
//! - Hangzhou's "round" in `rounds:8` is one hand: the seed calls each hand a round ("if the
//!   dealer wins, they retain their position … for the next round").
//! - Hangzhou `points:N`: every player starts at N, and the ledger is passed to the scorer as the
//!   balances of the zero floor (a player at 0 or below pays nothing, nobody pays more than
//!   they hold). What cannot be collected is the winner's loss: the scorer credits the winner
//!   with what was collected, so the ledger still sums to `4 × N` ([`Match::uncollected`]
//!   would show any imbalance a scorer left; what the floor kept from the winner is each
//!   settlement's `withheld`, [`Match::withheld`] over the match). A drawn hand is "not won by the
//!   dealer", so it ends the match when someone is at 0 or below. With `rounds:N` the ledger
//!   starts at 0 and there is no floor.
//! - Hangzhou `dice_double_starts_lao3`: the only dealer-choice roll is the one at the start of
//!   the match, so only the first dealer can start at 3 lao; later dealers become dealer by
//!   winning and start at 1.
//!
//! Hands are numbered from 1. Each hand's seed is derived from the match seed and the hand
//! number ([`hand_seed`]), so a match seed fixes every shuffle and die of the match.
//!
//! Drive a match with a [`Session`](super::Session), which also writes its log; a match played
//! by bots from start to end is [`driver::play_match`](crate::driver::play_match).

use super::game::{Game, HandOutcome, HandSetup, SetupError, choose_seats};
use super::progress::Progress;
pub use super::progress::{Deal, EndReason, EndRule, HAND_CAP, MatchRules, Rotation};
use super::table_rules::TableRules;
use super::{ActionError, Event, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What a finished hand did to the match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settlement {
    /// The hand (from 1).
    pub hand_number: u32,
    /// Who dealt it, the wind, the lao.
    pub deal: Deal,
    /// How it ended.
    pub outcome: HandOutcome,
    /// Net chips per player, by chair.
    pub payments: Vec<i64>,
    /// Minus the payments' sum: chips paid that nobody received (or the reverse). 0 with every
    /// current scorer: under Hangzhou's zero floor the winner is credited only with what was
    /// collected, so the shortfall is the winner's loss, not a hole in the ledger (that
    /// shortfall is [`Settlement::withheld`]).
    pub uncollected: i64,
    /// Chips the winner was owed but the zero floor kept back, because a payer had too few
    /// left (Hangzhou `points:N`): the winner's loss, so the ledger still balances. Not written
    /// when 0, so logs from before it was recorded read the same.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub withheld: i64,
    /// The ledger after the hand, by chair.
    pub ledger: Vec<i64>,
    /// The next hand's dealer, wind and lao (`None` once the match is over).
    pub next: Option<Deal>,
    /// Why the match ended, if this hand ended it.
    pub ended: Option<EndReason>,
}

/// One line of the final standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// Place, from 1 (equal totals share a place).
    pub rank: u8,
    /// The chair.
    pub player: Player,
    /// The entrant sitting in that chair (their index in the match's list of players).
    pub entrant: u8,
    /// Chips held.
    pub points: i64,
}

/// Why the match refused a call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// The match is over.
    #[error("the match is over: no more hands")]
    Over,
    /// A hand is in progress: finish it first.
    #[error("hand {0} is in progress: finish it before starting another")]
    HandInProgress(u32),
    /// No hand has been started.
    #[error("no hand is in progress")]
    NoHand,
    /// The game given is not the hand in progress.
    #[error("that game is not hand {0} of this match")]
    WrongGame(u32),
    /// The game given has not ended.
    #[error("hand {0} has not ended yet")]
    HandNotOver(u32),
    /// The hand could not be set up.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// One bot per player is needed.
    #[error("{bots} bots for {players} players")]
    BotCount {
        /// Bots given.
        bots: usize,
        /// Players at the table.
        players: usize,
    },
    /// An action the game refused.
    #[error("hand {hand}: {error}")]
    Action {
        /// The hand.
        hand: u32,
        /// The refusal.
        error: ActionError,
    },
}

/// The seed of hand `hand_number` of the match with seed `seed` (a SplitMix64 mix of both).
pub fn hand_seed(seed: u64, hand_number: u32) -> u64 {
    use crate::seeds::splitmix64;
    splitmix64(seed ^ splitmix64(u64::from(hand_number).wrapping_add(0x5851_F42D_4C95_7F2D)))
}

/// The random stream of the seat choice (hands use stream = hand number, from 1).
const SEAT_STREAM: u64 = 0;

/// A match: seats chosen once, then hands until the rule set says it is over.
///
/// Drive it with [`Match::start_hand`] (a [`Game`] to play to its end) and
/// [`Match::finish_hand`] (the settlement and the rotation), or through a
/// [`Session`](super::Session), which does both and writes the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    ruleset: Arc<TableRules>,
    rules: MatchRules,
    seed: u64,
    hand_limit: Option<u32>,
    chairs: Vec<Player>,
    first_dealer: Player,
    /// The deal, the passes, the hands played, the chips and the end: moved on after each hand
    /// by [`Progress::after_hand`], the one rule of rotation and end.
    progress: Progress,
    uncollected: i64,
    withheld: i64,
    current: Option<HandSetup>,
    settlements: Vec<Settlement>,
}

impl Match {
    /// A new match under `ruleset`, every die and shuffle fixed by `seed`: the seats are chosen
    /// (the returned events are the ceremony).
    pub fn new(ruleset: Arc<TableRules>, seed: u64) -> (Match, Vec<Event>) {
        Match::with_hand_limit(ruleset, seed, None)
    }

    /// As [`Match::new`], but the match also ends (reason [`EndReason::HandLimit`]) after
    /// `limit` hands, whatever the rule set says: a safety net for automated play, where a Hong
    /// Kong dealer could otherwise keep the deal through drawn hands for a very long time.
    pub fn with_hand_limit(
        ruleset: Arc<TableRules>,
        seed: u64,
        limit: Option<u32>,
    ) -> (Match, Vec<Event>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(SEAT_STREAM);
        let choice = choose_seats(&ruleset, &mut rng);
        let rules = ruleset.set().match_rules();
        let n = ruleset.players();
        let lao = if rules.double_starts_lao3 && choice.dealer_double {
            3
        } else {
            1
        };
        let progress = Progress::start(&rules, n, choice.dealer, lao, limit)
            .expect("a rule set seats 3 to 6 and its seat choice picks one of them");
        let m = Match {
            rules,
            seed,
            hand_limit: limit,
            chairs: choice.chairs,
            first_dealer: choice.dealer,
            progress,
            uncollected: 0,
            withheld: 0,
            current: None,
            settlements: Vec::new(),
            ruleset,
        };
        (m, choice.events)
    }

    /// The rule set.
    pub fn ruleset(&self) -> &Arc<TableRules> {
        &self.ruleset
    }

    /// The match rules (rotation, end, starting chips).
    pub fn rules(&self) -> &MatchRules {
        &self.rules
    }

    /// The match seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The safety limit on hands, if any.
    pub fn hand_limit(&self) -> Option<u32> {
        self.hand_limit
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        self.progress.players()
    }

    /// For each entrant (in the order the match lists them), the chair they sit in.
    pub fn chairs(&self) -> &[Player] {
        &self.chairs
    }

    /// The first dealer of the match.
    pub fn first_dealer(&self) -> Player {
        self.first_dealer
    }

    /// The dealer, wind and lao of the next hand (or of the hand in progress).
    pub fn deal(&self) -> Deal {
        self.progress.deal
    }

    /// Hands finished so far.
    pub fn hands_played(&self) -> u32 {
        self.progress.hands_played
    }

    /// Chips per player, by chair.
    pub fn ledger(&self) -> &[i64] {
        &self.progress.ledger
    }

    /// Where the match stands between hands (deal, passes, hands played, chips, end).
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// The payments' imbalance summed over the match (see [`Settlement::uncollected`]; 0 with
    /// every current scorer). The ledger sums to `players × starting points − uncollected`.
    pub fn uncollected(&self) -> i64 {
        self.uncollected
    }

    /// Chips the zero floor kept back from winners over the match (see
    /// [`Settlement::withheld`]).
    pub fn withheld(&self) -> i64 {
        self.withheld
    }

    /// Every finished hand's settlement, in order.
    pub fn settlements(&self) -> &[Settlement] {
        &self.settlements
    }

    /// True once the match has ended.
    pub fn is_over(&self) -> bool {
        self.progress.is_over()
    }

    /// Why the match ended, once it has.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.progress.ended
    }

    /// The hand in progress (its setup), if any.
    pub fn current_hand(&self) -> Option<&HandSetup> {
        self.current.as_ref()
    }

    /// The standings: every chair with its chips, best first (ties share a place, then by
    /// chair).
    pub fn standings(&self) -> Vec<Standing> {
        let mut rows: Vec<Standing> = (0..self.players())
            .map(|c| Standing {
                rank: 0,
                player: Player(c as u8),
                entrant: self.chairs.iter().position(|p| p.index() == c).unwrap_or(c) as u8,
                points: self.progress.ledger[c],
            })
            .collect();
        rows.sort_by(|a, b| b.points.cmp(&a.points).then(a.player.cmp(&b.player)));
        for i in 0..rows.len() {
            rows[i].rank = if i > 0 && rows[i].points == rows[i - 1].points {
                rows[i - 1].rank
            } else {
                i as u8 + 1
            };
        }
        rows
    }

    /// The setup of the next hand: dealer, wind, lao, balances (when the rule set has a zero
    /// floor) and its seed.
    pub fn next_setup(&self) -> HandSetup {
        let hand_number = self.progress.hands_played + 1;
        let deal = self.progress.deal;
        HandSetup {
            dealer: deal.dealer,
            prevailing_wind: deal.prevailing_wind,
            lao: deal.lao,
            balances: self.rules.floor.then(|| self.progress.ledger.clone()),
            hand_number,
            seed: hand_seed(self.seed, hand_number),
        }
    }

    /// Starts the next hand: the [`Game`] (to be played until [`Game::is_over`]) and its setup
    /// events. Refused when the match is over or a hand is already in progress.
    pub fn start_hand(&mut self) -> Result<(Game, Vec<Event>), MatchError> {
        if self.is_over() {
            return Err(MatchError::Over);
        }
        if let Some(s) = &self.current {
            return Err(MatchError::HandInProgress(s.hand_number));
        }
        let setup = self.next_setup();
        let (game, events) = Game::new(Arc::clone(&self.ruleset), setup.clone())?;
        self.current = Some(setup);
        Ok((game, events))
    }

    /// Settles the finished hand `game` (which must be the hand in progress): the payments go
    /// to the ledger, the deal rotates and the match may end. The match is unchanged on error.
    pub fn finish_hand(&mut self, game: &Game) -> Result<Settlement, MatchError> {
        let setup = self.current.as_ref().ok_or(MatchError::NoHand)?;
        if game.setup() != setup || **game.ruleset() != *self.ruleset {
            return Err(MatchError::WrongGame(setup.hand_number));
        }
        let outcome = game
            .outcome()
            .ok_or(MatchError::HandNotOver(setup.hand_number))?
            .clone();
        let hand_number = setup.hand_number;
        let n = self.players();
        let payments = outcome.payments(n);
        let played = self.progress.deal;
        let next = self
            .progress
            .after_hand(&self.rules, outcome.winner(), &payments, self.hand_limit)
            .map_err(|_| MatchError::WrongGame(hand_number))?;
        let uncollected = -payments.iter().sum::<i64>();
        self.uncollected += uncollected;
        let withheld = game.withheld();
        self.withheld += withheld;
        self.current = None;
        self.progress = next;
        let ended = self.progress.ended;
        let settlement = Settlement {
            hand_number,
            deal: played,
            outcome,
            payments,
            uncollected,
            withheld,
            ledger: self.progress.ledger.clone(),
            next: ended.is_none().then_some(self.progress.deal),
            ended,
        };
        self.settlements.push(settlement.clone());
        Ok(settlement)
    }
}

/// For serde: a zero count is not written.
fn is_zero(x: &i64) -> bool {
    *x == 0
}
