//! What happened: every step of a hand as an event, the full truth for the log. Use
//! [`Event::seen_by`] for what one player may see.

use super::{DealtTiles, Player};
use crate::meld::Meld;
use crate::scoring::{PatternScore, Reason, WinKind};
use crate::seat::Seat;
use crate::tile::{Tile, Wind};
use serde::{Deserialize, Serialize};

/// Why dice were thrown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DicePurpose {
    /// A player's roll to choose the first dealer (or temporary East in Hong Kong).
    SeatChoice,
    /// Temporary East's roll that picks who draws the first wind tile (Hong Kong), or the single
    /// roll counted round the table to the first dealer (Hangzhou).
    DealerChoice,
    /// The dealer's roll that says where the wall breaks.
    WallBreak,
    /// The dealer's roll that picks the wildcard indicator (Hangzhou `indicator`).
    Indicator,
}

/// How a kong was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KongKind {
    /// Claimed from a discard with three in hand.
    Exposed,
    /// Four in hand.
    Concealed,
    /// A fourth tile added to an exposed pung.
    Added,
}

/// A scored win, with payments per player (chair) rather than per seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerScore {
    /// The patterns that count.
    pub patterns: Vec<PatternScore>,
    /// The hand's total in the rule set's unit.
    pub total: i64,
    /// Net chips per player, indexed by chair.
    pub payments: Vec<i64>,
    /// The payments one by one, each with its reason; they add up to `payments`. Not written
    /// when empty, so a log from before the payments were itemised reads the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub itemised: Vec<PlayerPayment>,
}

/// One payment of a win between two players (chairs), and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerPayment {
    /// Who pays.
    pub from: Player,
    /// Who receives.
    pub to: Player,
    /// How many chips (always positive).
    pub amount: i64,
    /// The rule and its arithmetic.
    pub reason: Reason,
}

/// One step of a hand (or of the seat choice before a match).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    /// Dice thrown.
    DiceRolled {
        /// Who threw (a chair; during seat choice, an entrant's index).
        by: Player,
        /// The dice.
        dice: Vec<u8>,
        /// What for.
        purpose: DicePurpose,
    },
    /// Hong Kong seat choice: a wind tile drawn from the face-down row.
    WindTileDrawn {
        /// The entrant (index in the match's list of players).
        entrant: u8,
        /// The wind drawn.
        wind: Wind,
    },
    /// The seats are settled for the match.
    SeatsChosen {
        /// For each entrant, the chair they sit in.
        chairs: Vec<Player>,
        /// The first dealer (a chair).
        dealer: Player,
    },
    /// A hand begins.
    HandStarted {
        /// Hand number within the match.
        hand_number: u32,
        /// The dealer.
        dealer: Player,
        /// The prevailing wind.
        prevailing_wind: Wind,
        /// The dealer's lao (Hangzhou; 1 elsewhere).
        lao: u8,
        /// Each player's seat this hand, by chair.
        seats: Vec<Seat>,
    },
    /// The wall is built: `sides` sides of `stacks_per_side` stacks two high.
    WallBuilt {
        /// Sides of the wall.
        sides: u8,
        /// Stacks per side.
        stacks_per_side: u8,
        /// Tiles in the wall.
        tiles: u16,
    },
    /// The wall is broken: on `side` (counted from the dealer's own wall, 0, in turn order),
    /// `stack` stacks from that side's right end. Drawing starts to the left of the break.
    WallBroken {
        /// Side, 0 = the dealer's.
        side: u8,
        /// Stacks counted from the right end of that side.
        stack: u8,
        /// Tiles kept back as the dead wall.
        dead_wall: u8,
    },
    /// Tiles dealt to a player from the front of the wall (a block of four, or the last one or
    /// two).
    TilesDealt {
        /// Who.
        player: Player,
        /// The tiles; `None` in another player's view.
        tiles: Option<DealtTiles>,
        /// How many.
        count: u8,
    },
    /// A flower or season laid out face up (it is replaced next).
    FlowerDeclared {
        /// Who.
        player: Player,
        /// The bonus tile.
        tile: Tile,
    },
    /// The wildcard indicator turned face up at the back of the wall.
    IndicatorRevealed {
        /// The indicator, out of play.
        tile: Tile,
        /// The wild kind (the same kind).
        wildcard: Tile,
        /// Its place, counted in tiles from the back end of the wall.
        from_back: u8,
    },
    /// A tile drawn from the front of the live wall.
    Drew {
        /// Who.
        player: Player,
        /// The tile; `None` in another player's view.
        tile: Option<Tile>,
    },
    /// A replacement tile drawn from the back of the wall (for a kong or a flower).
    ReplacementDrawn {
        /// Who.
        player: Player,
        /// The tile; `None` in another player's view.
        tile: Option<Tile>,
    },
    /// A tile discarded.
    Discarded {
        /// Who.
        player: Player,
        /// The tile.
        tile: Tile,
        /// A wildcard discarded (opens a Fortune Gambit round: no claims until the player's
        /// next draw).
        wildcard: bool,
        /// A Fortune Gambit (a wildcard discarded in the Bao Tou state).
        gambit: bool,
    },
    /// A discard claimed for a meld.
    Claimed {
        /// The claimer.
        player: Player,
        /// The discarder.
        from: Player,
        /// The claimed tile.
        tile: Tile,
        /// The meld made (its `from` is the discarder's seat).
        meld: Meld,
    },
    /// A kong declared (its replacement draw follows).
    KongDeclared {
        /// Who.
        player: Player,
        /// How.
        kind: KongKind,
        /// The kind of the kong.
        tile: Tile,
    },
    /// An added kong robbed: the added tile wins for another player.
    KongRobbed {
        /// The robber.
        player: Player,
        /// The player whose kong was robbed.
        from: Player,
        /// The tile.
        tile: Tile,
    },
    /// A player won.
    Won {
        /// The winner.
        player: Player,
        /// How.
        win: WinKind,
        /// The discarder (or robbed player), for discard and robbing wins.
        discarder: Option<Player>,
        /// The winning tile.
        tile: Tile,
        /// The winner's concealed tiles with the winning tile (revealed).
        hand: Vec<Tile>,
        /// The score.
        scored: PlayerScore,
    },
    /// The live wall ran out: nobody won.
    ExhaustiveDraw,
    /// The hand is over.
    HandEnded {
        /// Net chips per player, by chair (all zero for a drawn hand).
        payments: Vec<i64>,
    },
}

impl Event {
    /// The event as `viewer` may see it: tiles dealt to or drawn by another player are hidden.
    /// Everything else is public.
    pub fn seen_by(&self, viewer: Player) -> Event {
        match self {
            Event::TilesDealt {
                player,
                tiles: Some(_),
                count,
            } if *player != viewer => Event::TilesDealt {
                player: *player,
                tiles: None,
                count: *count,
            },
            Event::Drew {
                player,
                tile: Some(_),
            } if *player != viewer => Event::Drew {
                player: *player,
                tile: None,
            },
            Event::ReplacementDrawn {
                player,
                tile: Some(_),
            } if *player != viewer => Event::ReplacementDrawn {
                player: *player,
                tile: None,
            },
            e => e.clone(),
        }
    }
}
