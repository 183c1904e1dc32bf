//! What every rule set's scoring shares: the situation of a win, and the scored result.
//!
//! A rule set reads a [`WinSituation`] (who won, how, with which tiles, in which circumstances)
//! and answers a [`Scored`] (the patterns that count, the total, and net payments per seat) or
//! an [`Invalid`] reason (not a winning hand, below the minimum, a win the rules forbid).
//! [`request`] reads the JSON scoring request (`docs/rules/` and the CLI's `score --json`) into a
//! [`WinSituation`].
//!
//! The vocabulary the rule sets share: [`PatternDef`] (one row of a rule set's pattern table),
//! [`PatternScore`] (a row that counts, with its value), [`Ledger`] (zero-sum payments with their
//! reasons, written only when [`Explain`] asks) and [`Reason`] (a payment's rule and numbers, in
//! English or as a key and arguments for a front end's catalogue; each rule set declares its
//! rules as [`ReasonDef`]s).

pub mod invalid;
pub mod ledger;
pub mod pattern;
pub mod reading;
pub mod reason;
pub mod request;

pub use ledger::{Explain, Ledger, Payment};
pub use pattern::PatternDef;
pub use reason::{Arg, Reason, ReasonDef};

use crate::counts::TileCounts;
use crate::meld::Meld;
use crate::seat::Seat;
use crate::tile::{Tile, Wind};
use crate::words::{Words, WordsDef};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

pub use invalid::INVALID_WORDS;

/// How the winning tile came.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WinKind {
    /// Drawn from the wall (or a replacement tile).
    SelfDraw,
    /// Another player's discard.
    Discard,
    /// The tile another player added to an exposed pung.
    RobbingKong,
}

/// Special circumstances of a win (each a flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Circumstances {
    /// Won with the last tile of the live wall (self-drawn).
    pub last_wall_tile: bool,
    /// Won on the last discard of the hand.
    pub last_discard: bool,
    /// Won on a kong (or flower) replacement tile.
    pub kong_replacement: bool,
    /// Dealer won with the dealt hand.
    pub heavenly: bool,
    /// Non-dealer won on the dealer's first discard.
    pub earthly: bool,
}

/// Another player's tiles at the end of the hand (for penalties and for classic scoring, where
/// everyone scores).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OtherHand {
    /// Concealed tiles.
    pub concealed: TileCounts,
    /// Declared melds (with `from` where known).
    pub melds: Vec<Meld>,
    /// Bonus tiles laid out. At a five- or six-player classic table, where the bonus tiles are
    /// extra winds played like any tile, the extra-wind tiles among the concealed tiles (as for
    /// [`WinSituation::flowers`]).
    pub flowers: Vec<Tile>,
}

/// Everything scoring needs to know about a win.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WinSituation {
    /// The winner's concealed tiles, without the winning tile.
    pub concealed: TileCounts,
    /// The winner's declared melds.
    pub melds: Vec<Meld>,
    /// The tile that completed the hand.
    pub winning_tile: Tile,
    /// How it came.
    pub win: WinKind,
    /// Whose discard (or whose added kong) it was, for discard and robbing-the-kong wins.
    pub discarder: Option<Seat>,
    /// The winner.
    pub seat: Seat,
    /// The dealer.
    pub dealer: Seat,
    /// The prevailing (round) wind.
    pub prevailing_wind: Wind,
    /// The winner's bonus tiles. At a five- or six-player classic table (seed 003) the bonus
    /// tiles are not flowers but **extra winds**, played like any tile: there this holds the
    /// extra-wind tiles among the winner's concealed tiles (the winning tile, which may be one,
    /// not included), and an extra-wind set declared as a meld is a [`Meld`] whose `tile` is the
    /// lowest of its bonus tiles. See `docs/rules/classic.md`.
    pub flowers: Vec<Tile>,
    /// Special circumstances.
    pub circumstances: Circumstances,
    /// Hangzhou: kongs in the unbroken chain before the winning replacement tile.
    pub kong_chain: u8,
    /// Hangzhou: Fortune Gambits in the unbroken run before the win.
    pub gambits: u8,
    /// Hangzhou: the dealer's lao count.
    pub lao: u8,
    /// Hangzhou: the wild kind, when the request names it (else the rule set's option decides).
    pub wildcard: Option<Tile>,
    /// Hangzhou: chip balances before the hand, for the zero floor.
    pub balances: Option<BTreeMap<Seat, i64>>,
    /// The other players' hands and melds, where given.
    pub others: BTreeMap<Seat, OtherHand>,
    /// The seats at the table, in turn order (four unless the rule set seats 3, 5 or 6).
    pub seats: Vec<Seat>,
}

impl WinSituation {
    /// The winner's full hand: concealed tiles plus the winning tile (a bonus winning tile, an
    /// extra wind of the five- and six-player classic game, is not counted: the counts hold
    /// the 34 playing kinds only).
    pub fn full_concealed(&self) -> TileCounts {
        let mut c = self.concealed;
        if !self.winning_tile.is_bonus() {
            c.add(self.winning_tile);
        }
        c
    }

    /// True if the winner declared no exposed meld (concealed kongs allowed) and did not win on
    /// a discard.
    pub fn fully_concealed(&self) -> bool {
        self.melds.iter().all(|m| !m.is_exposed()) && self.win == WinKind::SelfDraw
    }

    /// The seat whose discards `seat` may chow: the one before it in turn order.
    pub fn left_of(&self, seat: Seat) -> Option<Seat> {
        let i = self.seats.iter().position(|&s| s == seat)?;
        Some(self.seats[(i + self.seats.len() - 1) % self.seats.len()])
    }

    /// Checks that every declared chow of the winner that names its source came from the
    /// winner's left neighbour (only the left neighbour's discard can be chowed; see the
    /// "Meld sources" ruling in `docs/rules/hangzhou.md`).
    pub fn check_chow_sources(&self) -> Result<(), Invalid> {
        let left = self.left_of(self.seat);
        for m in &self.melds {
            if let (crate::meld::MeldKind::Chow, Some(from)) = (m.kind, m.from) {
                if Some(from) != left {
                    return Err(Invalid(invalid::CHOW_NOT_FROM_LEFT.with([
                        invalid::meld(m),
                        from.name().into(),
                        left.map_or("nobody", Seat::name).into(),
                    ])));
                }
            }
        }
        Ok(())
    }

    /// Checks that no declared meld of the winner names the winner's own seat as its source: a
    /// player cannot claim their own discard. Melds without a `from` (concealed kongs, or a
    /// source not given) pass.
    pub fn check_meld_sources(&self) -> Result<(), Invalid> {
        match self.melds.iter().find(|m| m.from == Some(self.seat)) {
            Some(m) => Err(Invalid(
                invalid::CLAIMED_FROM_SELF.with([invalid::meld(m), self.seat.name().into()]),
            )),
            None => Ok(()),
        }
    }

    /// Checks that the winner's melds and winning tile are playing tiles: bonus tiles (`1f`–`8f`)
    /// are laid aside, never melded or won on, except as the classic five- and six-player extra
    /// winds (which that rule set reads itself).
    pub fn check_playing_tiles(&self) -> Result<(), Invalid> {
        if self.winning_tile.is_bonus() {
            return Err(Invalid(
                invalid::WON_ON_BONUS.with([self.winning_tile.to_string().into()]),
            ));
        }
        match self.melds.iter().find(|m| m.tile.is_bonus()) {
            Some(m) => Err(Invalid(invalid::BONUS_MELD.with([invalid::meld(m)]))),
            None => Ok(()),
        }
    }

    /// The losers: every seat but the winner, in turn order.
    pub fn losers(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats.iter().copied().filter(move |&s| s != self.seat)
    }
}

/// The unit a pattern's value is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Fan (Hong Kong, Yangzhou).
    Fan,
    /// Points added (classic).
    Points,
    /// Doublings (classic): the value is how many times the score doubles.
    Double,
    /// A multiplier (Hangzhou): the value multiplies the payout.
    Multiplier,
}

/// One scoring pattern that applies to a hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PatternScore {
    /// Stable snake_case id, e.g. `little_three_dragons`.
    pub id: String,
    /// The seed's name, e.g. "Little Three Dragons".
    pub name: String,
    /// Its value in `unit`.
    pub value: i64,
    /// What the value counts.
    pub unit: Unit,
}

impl PatternScore {
    /// A pattern score.
    pub fn new(id: &str, name: &str, value: i64, unit: Unit) -> PatternScore {
        PatternScore {
            id: id.to_string(),
            name: name.to_string(),
            value,
            unit,
        }
    }
}

/// "Seven Pairs ×2", "Mixed One Suit 3 fan", "Mahjong 20 points", "All Concealed 1 double".
impl fmt::Display for PatternScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.value == 1 { "" } else { "s" };
        match self.unit {
            Unit::Multiplier => write!(f, "{} ×{}", self.name, self.value),
            Unit::Fan => write!(f, "{} {} fan", self.name, self.value),
            Unit::Points => write!(f, "{} {} point{plural}", self.name, self.value),
            Unit::Double => write!(f, "{} {} double{plural}", self.name, self.value),
        }
    }
}

/// A valid win, scored and settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scored {
    /// The patterns that count.
    pub patterns: Vec<PatternScore>,
    /// The hand's total in the rule set's unit (fan, points after doubles, or the payout).
    pub total: i64,
    /// Net chips per seat (the winner positive). They sum to zero: what a rule (the Hangzhou
    /// cap and zero floor) leaves uncollected, the winner does not receive.
    pub payments: BTreeMap<Seat, i64>,
    /// The payments one by one, each with its reason; they add up to `payments`. Empty when
    /// the win was scored quietly ([`Explain::Quiet`]).
    #[serde(default)]
    pub itemised: Vec<Payment>,
}

impl Scored {
    /// A scored win settled by `ledger`: its net chips become `payments`, its entries
    /// `itemised`.
    pub fn settled(patterns: Vec<PatternScore>, total: i64, ledger: Ledger) -> Scored {
        let (payments, itemised) = ledger.into_parts();
        Scored {
            patterns,
            total,
            payments,
            itemised,
        }
    }
}

/// Why a hand scores nothing: not a winning hand, below the minimum, or a win the rules forbid,
/// as a catalogue key and its values ([`INVALID_WORDS`]; `Display` writes the English).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid(pub Words);

impl Invalid {
    /// A reason with no catalogue key of its own yet (the text is shown as it is).
    pub fn text(text: impl Into<String>) -> Invalid {
        Invalid(Words::text(text))
    }

    /// The catalogue key.
    pub fn key(&self) -> &'static str {
        self.0.key()
    }
}

impl From<&'static WordsDef> for Invalid {
    fn from(def: &'static WordsDef) -> Invalid {
        Invalid(def.plain())
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Invalid {}

#[cfg(test)]
mod tests {
    use super::request::ScoreRequest;
    use super::{PatternScore, Unit};

    #[test]
    fn pattern_scores_read_in_their_unit() {
        let show = |name, value, unit| PatternScore::new("x", name, value, unit).to_string();
        assert_eq!(show("Seven Pairs", 2, Unit::Multiplier), "Seven Pairs ×2");
        assert_eq!(show("Mixed One Suit", 3, Unit::Fan), "Mixed One Suit 3 fan");
        assert_eq!(show("Mahjong", 20, Unit::Points), "Mahjong 20 points");
        assert_eq!(show("Flower", 1, Unit::Points), "Flower 1 point");
        assert_eq!(
            show("All Concealed", 1, Unit::Double),
            "All Concealed 1 double"
        );
        assert_eq!(
            show("One Suit Only", 3, Unit::Double),
            "One Suit Only 3 doubles"
        );
    }

    fn with_meld(seat: &str, kind: &str, tiles: &str, from: &str) -> super::WinSituation {
        let text = format!(
            r#"{{"rules": "hongkong", "concealed": "456m789p1z555z",
            "melds": [{{"kind": "{kind}", "tiles": "{tiles}", "from": "{from}"}}],
            "winning_tile": "1z", "win": "self_draw", "seat": "{seat}"}}"#
        );
        ScoreRequest::from_json(&text).unwrap().situation
    }

    #[test]
    fn no_meld_from_the_winners_own_seat() {
        assert!(
            with_meld("south", "pung", "222s", "east")
                .check_meld_sources()
                .is_ok()
        );
        for kind in ["pung", "kong"] {
            let tiles = if kind == "pung" { "222s" } else { "2222s" };
            let e = with_meld("south", kind, tiles, "south")
                .check_meld_sources()
                .unwrap_err();
            assert!(e.to_string().contains("own seat"), "{e}");
        }
        let e = with_meld("west", "chow", "123s", "west")
            .check_meld_sources()
            .unwrap_err();
        assert!(e.to_string().contains("west"), "{e}");
    }

    #[test]
    fn bonus_tiles_are_never_melded_or_won_on_outside_classic_extra_winds() {
        use crate::meld::{Meld, MeldKind};
        use crate::rules::{hangzhou, hongkong, yangzhou};
        let flower = crate::parse_tile("1f").unwrap();
        let mut melded = with_meld("south", "pung", "222s", "east");
        melded.melds[0] = Meld {
            kind: MeldKind::Pung,
            tile: flower,
            from: Some(crate::Seat::East),
            claimed: None,
            extra_winds: crate::extra_winds::ExtraWinds::EMPTY,
        };
        let mut won_on = with_meld("south", "pung", "222s", "east");
        won_on.winning_tile = flower;
        for s in [&melded, &won_on] {
            let e = s.check_playing_tiles().unwrap_err();
            assert!(e.to_string().contains("bonus"), "{e}");
            // Each scorer answers Invalid rather than panicking.
            assert!(hongkong::score(s, &hongkong::Options::default()).is_err());
            assert!(yangzhou::score(s, &yangzhou::Options::default()).is_err());
            assert!(hangzhou::score(s, &hangzhou::Options::default()).is_err());
        }
        assert!(
            with_meld("south", "pung", "222s", "east")
                .check_playing_tiles()
                .is_ok()
        );
    }
}
