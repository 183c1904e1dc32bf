//! The state of one hand and its rules of play: who must decide, what they may do, and what
//! each action does.
//!
//! This module holds the [`Game`] itself, the values around it and its read-only accessors; the
//! rules of play are split by job:
//!
//! - `setup`: a new hand (shuffle, dice, deal, flower replacement).
//! - `asked`: what a player may do now, read from the phase in one place (`Game::asked`):
//!   listed by [`Game::legal_actions`], asked by [`Game::check`], copied by
//!   [`Game::legal_set`].
//! - `legal_set`: the legal actions as a small set of bits ([`LegalSet`]).
//! - `legality`: the options of a turn, worked out when it begins, and why a refused action is
//!   refused ([`Game::check`]'s explanation).
//! - `turn`: applying actions; entering a turn, drawing, discarding, the exhaustive draw.
//! - `claims`: who may claim a discard, and resolving their answers.
//! - `kongs`: concealed, exposed and added kongs, robbing, replacement tiles.
//! - `missed`: the missed win (Hong Kong): a passed win bars the tile's kind until the
//!   player's next draw from the live wall.
//! - `win`: finishing a win: its situation, scoring and payments.
//! - `gambit`: Hangzhou's Fortune Gambit.
//! - `invariants`: [`Game::check_invariants`], the engine's self-check.
//! - `sink`: where the rules of play put the events they cause (a caller's `Vec`, or nowhere
//!   when nobody reads them).
//!
//! Seat choice at the start of a match lives in [`super::seating`] (re-exported here).

mod asked;
mod claims;
mod gambit;
mod hand;
mod invariants;
mod kongs;
mod legal_set;
mod legality;
mod missed;
mod setup;
mod sink;
mod turn;
mod win;

#[cfg(test)]
mod tests;

pub use super::seating::{SeatChoice, choose_seats};

use super::Player;
use super::action::Action;
use super::event::PlayerScore;
use super::table_rules::TableRules;
use super::wall::{Wall, WallError};
use crate::analysis::HandRules;
use crate::counts::TileCounts;
use crate::extra_winds::ExtraWinds;
use crate::meld::Meld;
use crate::scoring::WinKind;
use crate::seat::Seat;
use crate::tile::{Tile, Wind};
use claims::ClaimOptions;
use hand::Hand;
pub use legal_set::LegalSet;
use legality::TurnOptions;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Most players at a table.
pub const MAX_PLAYERS: usize = 6;

/// What a hand starts from: who deals, the wind, the dealer's lao, chip balances (Hangzhou's
/// zero floor), and the seed that fixes every shuffle and die.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandSetup {
    /// The dealer (East this hand).
    pub dealer: Player,
    /// The prevailing (round) wind.
    pub prevailing_wind: Wind,
    /// The dealer's lao (Hangzhou: 1 for a new dealer; other rule sets ignore it).
    pub lao: u8,
    /// Chips per player before the hand, by chair (Hangzhou's zero floor), if tracked.
    pub balances: Option<Vec<i64>>,
    /// Hand number within the match (also selects the random stream).
    pub hand_number: u32,
    /// The seed.
    pub seed: u64,
}

impl HandSetup {
    /// A first hand: chair 0 deals, East wind, 1 lao, no balances.
    pub fn new(seed: u64) -> HandSetup {
        HandSetup {
            dealer: Player(0),
            prevailing_wind: Wind::East,
            lao: 1,
            balances: None,
            hand_number: 0,
            seed,
        }
    }
}

/// Why a hand could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The dealer is not at the table.
    #[error("dealer {dealer} is not at a table of {players}")]
    NoSuchDealer {
        /// The dealer named.
        dealer: Player,
        /// Players at the table.
        players: usize,
    },
    /// Lao counts from 1.
    #[error("lao counts from 1 (a new dealer is at 1 lao), not 0")]
    ZeroLao,
    /// Balances must give one number per player.
    #[error("balances: {given} given for {players} players")]
    Balances {
        /// Numbers given.
        given: usize,
        /// Players at the table.
        players: usize,
    },
    /// A stacked wall that is not the rule set's tile set.
    #[error(transparent)]
    Wall(#[from] WallError),
}

/// One discard in a player's discard row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DiscardRecord {
    /// The tile.
    pub tile: Tile,
    /// Someone claimed it (for a meld or a win): it left the row.
    pub claimed: bool,
    /// It was a Fortune Gambit.
    pub gambit: bool,
}

/// How the player whose turn it is came by their last tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TileSource {
    /// The dealer's dealt hand (first turn).
    Deal,
    /// Drawn from the live wall.
    Wall,
    /// A replacement tile after a kong (flowers on the way included).
    KongReplacement,
    /// A replacement tile for a flower drawn from the live wall.
    FlowerReplacement,
    /// A claimed discard (chow or pung): discard next, nothing else.
    Claim,
}

/// How a hand ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum HandOutcome {
    /// A player won.
    Win {
        /// The winner.
        winner: Player,
        /// How.
        win: WinKind,
        /// The discarder or robbed player.
        discarder: Option<Player>,
        /// The winning tile.
        tile: Tile,
        /// The score, payments by chair.
        scored: PlayerScore,
        /// The dealer won.
        dealer_won: bool,
        /// Hangzhou: Fortune Gambits counted in the win.
        gambits: u8,
        /// Hangzhou: kongs in the chain before the winning replacement tile.
        kong_chain: u8,
    },
    /// The live wall ran out.
    ExhaustiveDraw,
}

impl HandOutcome {
    /// Net chips per player (zeros for a drawn hand).
    pub fn payments(&self, players: usize) -> Vec<i64> {
        match self {
            HandOutcome::Win { scored, .. } => scored.payments.clone(),
            HandOutcome::ExhaustiveDraw => vec![0; players],
        }
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Player> {
        match self {
            HandOutcome::Win { winner, .. } => Some(*winner),
            HandOutcome::ExhaustiveDraw => None,
        }
    }
}

/// Where the hand stands: whose decision it waits for, with what they may do.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    /// A player's turn: discard, declare a kong or win.
    Turn {
        player: Player,
        drawn: Option<Tile>,
        source: TileSource,
        kong_chain: u8,
        last_wall: bool,
        options: TurnOptions,
    },
    /// A discard on offer to the players who may claim it.
    Claims {
        discarder: Player,
        tile: Tile,
        last_discard: bool,
        options: [ClaimOptions; MAX_PLAYERS],
        answers: [Option<Action>; MAX_PLAYERS],
        pending: u8,
    },
    /// An added kong on offer to the players who may rob it.
    Robbing {
        konger: Player,
        tile: Tile,
        kong_chain: u8,
        answers: [Option<Action>; MAX_PLAYERS],
        pending: u8,
    },
    /// The hand has ended.
    Over,
}

/// The players who must decide now (an iterator over a small set).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actors(u8);

impl Actors {
    /// True if `p` must decide.
    pub fn contains(&self, p: Player) -> bool {
        p.index() < 8 && self.0 & (1 << p.0) != 0
    }

    /// How many must decide.
    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    /// True if nobody must decide (the hand is over).
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }
}

impl Iterator for Actors {
    type Item = Player;
    fn next(&mut self) -> Option<Player> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Player(i))
    }
}

/// One hand at the table.
///
/// Built by [`Game::new`] (shuffle, dice, deal, flowers, indicator, all as events) or
/// [`Game::with_wall`] (a stacked wall, for tests). Then, while [`Game::is_over`] is false,
/// each player in [`Game::to_act`] chooses one of [`Game::legal_actions`] and calls
/// [`Game::apply`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    ruleset: Arc<TableRules>,
    setup: HandSetup,
    n: u8,
    hand_rules: HandRules,
    /// Each chair's seat wind this hand.
    seats: [Seat; MAX_PLAYERS],
    /// Bit `d` of entry `q`: `q` may win on `d`'s discard this hand (the rule set's answer for
    /// their seats and the lao, asked once).
    wins_off: [u8; MAX_PLAYERS],
    wild: Option<Tile>,
    indicator: Option<Tile>,
    wall: Wall,
    hands: Vec<Hand>,
    phase: Phase,
    /// A wildcard was discarded by this player: no claims until their next draw.
    gambit_round: Option<Player>,
    /// The rule set's missed win is in force ([`TableRules::missed_win`]).
    missed_win: bool,
    /// Bit per kind index, by chair: the kinds whose win the player passed since their last
    /// draw from the live wall (the missed win: no win on them from a discard or a robbed kong
    /// until then).
    missed: [u64; MAX_PLAYERS],
    /// The latest discard and its discarder.
    last_discard: Option<(Player, Tile)>,
    outcome: Option<HandOutcome>,
    /// Chips the winner was owed but the zero floor kept back (Hangzhou `points:N`).
    withheld: i64,
}

/// Every kind by index, so that the hot loops index a table instead of checking a range.
static TILES: [Tile; 42] = {
    let mut t = [Tile::EAST; 42];
    let mut i = 0;
    while i < 42 {
        t[i] = match Tile::from_index(i) {
            Some(x) => x,
            None => Tile::EAST,
        };
        i += 1;
    }
    t
};

/// The tile of kind index `i` (clamped to the last kind).
fn tile_at(i: usize) -> Tile {
    TILES[i.min(41)]
}

impl Game {
    /// Chips the winner of this hand was owed by the rules but did not receive because a payer
    /// had too few left (Hangzhou's zero floor, `end = "points:N"`); 0 otherwise.
    pub fn withheld(&self) -> i64 {
        self.withheld
    }

    /// The rule set.
    pub fn ruleset(&self) -> &Arc<TableRules> {
        &self.ruleset
    }

    /// The hand's setup.
    pub fn setup(&self) -> &HandSetup {
        &self.setup
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        usize::from(self.n)
    }

    /// The dealer.
    pub fn dealer(&self) -> Player {
        self.setup.dealer
    }

    /// The seat wind of `p` this hand (the dealer is East, then turn order).
    pub fn seat_of(&self, p: Player) -> Seat {
        self.seats.get(p.index()).copied().unwrap_or(Seat::East)
    }

    /// The player at seat `seat` this hand, if the table has that seat.
    pub fn player_at(&self, seat: Seat) -> Option<Player> {
        let n = self.players();
        let i = self.ruleset.seats().iter().position(|&s| s == seat)?;
        Some(Player(((self.setup.dealer.index() + i) % n) as u8))
    }

    /// The wild kind, if the rule set has wildcards.
    pub fn wildcard(&self) -> Option<Tile> {
        self.wild
    }

    /// The face-up wildcard indicator (Hangzhou `indicator`).
    pub fn indicator(&self) -> Option<Tile> {
        self.indicator
    }

    /// Tiles left to draw from the live wall.
    pub fn live_remaining(&self) -> usize {
        self.wall.live_remaining()
    }

    /// The winning shapes and the wildcard, as hand analysis needs them (e.g.
    /// [`crate::analysis::shanten`]).
    pub fn hand_rules(&self) -> &HandRules {
        &self.hand_rules
    }

    /// The latest discard of the hand and who made it (claimed or not).
    pub fn last_discard(&self) -> Option<(Player, Tile)> {
        self.last_discard
    }

    /// The wall (the full truth; never show it to a player).
    pub fn wall(&self) -> &Wall {
        &self.wall
    }

    /// `p`'s concealed tiles (the full truth; a player should see only their own, through
    /// [`Game::observation`]). Like the other per-player accessors, empty for a player not at
    /// the table.
    pub fn concealed(&self, p: Player) -> &TileCounts {
        self.hands
            .get(p.index())
            .map_or(&TileCounts::EMPTY, |h| &h.concealed)
    }

    /// `p`'s concealed extra winds (five- and six-player classic: bonus tiles held as playing
    /// tiles, apart from [`Game::concealed`]; the full truth, like it).
    pub fn extra_winds(&self, p: Player) -> ExtraWinds {
        self.hands
            .get(p.index())
            .map_or(ExtraWinds::EMPTY, |h| h.extra)
    }

    /// `p`'s declared melds (their `from` is the discarder's seat).
    pub fn melds(&self, p: Player) -> &[Meld] {
        self.hands.get(p.index()).map_or(&[], |h| &h.melds)
    }

    /// `p`'s flowers and seasons laid out.
    pub fn flowers(&self, p: Player) -> &[Tile] {
        self.hands.get(p.index()).map_or(&[], |h| &h.flowers)
    }

    /// `p`'s discards in order.
    pub fn discards(&self, p: Player) -> &[DiscardRecord] {
        self.hands.get(p.index()).map_or(&[], |h| &h.discards)
    }

    /// The player whose turn it is (to discard, kong or win), if it is someone's turn.
    pub fn turn(&self) -> Option<Player> {
        match self.phase {
            Phase::Turn { player, .. } => Some(player),
            _ => None,
        }
    }

    /// The tile the player on turn last drew (or was dealt last), if any.
    pub fn drawn(&self) -> Option<Tile> {
        match self.phase {
            Phase::Turn { drawn, source, .. } if source != TileSource::Claim => drawn,
            _ => None,
        }
    }

    /// The discard (or added-kong tile) on offer now, and whose it is.
    pub fn on_offer(&self) -> Option<(Player, Tile)> {
        match self.phase {
            Phase::Claims {
                discarder, tile, ..
            } => Some((discarder, tile)),
            Phase::Robbing { konger, tile, .. } => Some((konger, tile)),
            _ => None,
        }
    }

    /// True once the hand has ended.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// How the hand ended, once it has.
    pub fn outcome(&self) -> Option<&HandOutcome> {
        self.outcome.as_ref()
    }

    /// Who must decide now: the player on turn, or everyone who can claim the tile on offer
    /// and has not answered yet. Empty once the hand is over.
    pub fn to_act(&self) -> Actors {
        match &self.phase {
            Phase::Turn { player, .. } => Actors(1 << player.0),
            Phase::Claims { pending, .. } | Phase::Robbing { pending, .. } => Actors(*pending),
            Phase::Over => Actors(0),
        }
    }
}
