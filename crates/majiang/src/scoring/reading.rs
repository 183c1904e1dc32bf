//! A winning hand read as sets: its pungs, kongs and chows (concealed or exposed, declared or
//! formed in hand), its pair, and where the winning tile sits.
//!
//! A hand may split into sets in more than one way, and within one split the winning tile may
//! belong to more than one group (e.g. `23456m` + `4m` won on a `4m`: the `4m` can be read as
//! the end of `234m` or the start of `456m`). Every (split, place of the winning tile) pair is
//! one [`Reading`]; a rule set scores each and keeps the one worth most. Hong Kong and Yangzhou
//! read hands this way; each keeps only its own pattern tests.

use crate::analysis::{self, Decomposition, Group, GroupKind, HandRules};
use crate::meld::MeldKind;
use crate::scoring::{WinKind, WinSituation};
use crate::tile::{Suit, Tile};

/// The kind of a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SetKind {
    /// Three in sequence.
    Chow,
    /// Three of a kind.
    Pung,
    /// Four of a kind (exposed or concealed).
    Kong,
}

/// One set of a reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Set {
    /// Chow, pung or kong.
    pub kind: SetKind,
    /// The lowest tile (for pungs and kongs, the tile).
    pub tile: Tile,
    /// True for a set formed in hand: a concealed-hand set, or a concealed kong. A pung completed
    /// by a discarded (or robbed) winning tile is not concealed.
    pub concealed: bool,
    /// True for a declared meld (exposed meld or concealed kong).
    pub declared: bool,
}

impl Set {
    /// The tiles of the set (a kong's four).
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + use<> {
        let (step, count) = match self.kind {
            SetKind::Chow => (1, 3),
            SetKind::Pung => (0, 3),
            SetKind::Kong => (0, 4),
        };
        let first = self.tile.index();
        (0..count).filter_map(move |k| Tile::from_index(first + step * k))
    }

    /// True for pungs and kongs.
    pub fn is_pung_or_kong(&self) -> bool {
        self.kind != SetKind::Chow
    }

    /// For a chow, its suit and starting rank.
    pub fn chow(&self) -> Option<(Suit, u8)> {
        (self.kind == SetKind::Chow).then(|| (self.tile.suit(), self.tile.rank()))
    }
}

/// Where the winning tile sits in a reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WinPlace {
    /// It completes the pair (a single wait).
    Pair,
    /// It completes a chow starting at `start`; `offset` is its position in the chow (0–2).
    Chow {
        /// The chow's lowest tile.
        start: Tile,
        /// 0 = low end, 1 = middle, 2 = high end.
        offset: u8,
    },
    /// It completes a pung (a wait on either of two pairs).
    Pung,
}

/// A winning hand read as sets and a pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The sets: the concealed hand's, then the declared melds in the order given.
    pub sets: Vec<Set>,
    /// The pair's tile.
    pub pair: Tile,
    /// Where the winning tile sits.
    pub win: WinPlace,
}

impl Reading {
    /// Every tile of the hand (kongs count four).
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        self.sets
            .iter()
            .flat_map(Set::tiles)
            .chain([self.pair, self.pair])
    }

    /// The chows as (suit, starting rank).
    pub fn chows(&self) -> Vec<(Suit, u8)> {
        self.sets.iter().filter_map(Set::chow).collect()
    }

    /// True if every tile is of one number suit (a full flush shape).
    pub fn is_one_suit(&self) -> bool {
        let suit = self.pair.suit();
        suit.is_numbered() && self.tiles().all(|t| t.suit() == suit)
    }

    /// True if every tile is an honor.
    pub fn is_all_honors(&self) -> bool {
        self.tiles().all(Tile::is_honor)
    }
}

/// The winner's declared melds as sets, in the order given (a concealed kong is concealed).
pub fn declared_sets(situation: &WinSituation) -> Vec<Set> {
    situation
        .melds
        .iter()
        .map(|m| Set {
            kind: match m.kind {
                MeldKind::Chow => SetKind::Chow,
                MeldKind::Pung => SetKind::Pung,
                MeldKind::Kong | MeldKind::ConcealedKong => SetKind::Kong,
            },
            tile: m.tile,
            concealed: m.kind == MeldKind::ConcealedKong,
            declared: true,
        })
        .collect()
}

/// The readings of one decomposition of the winner's concealed tiles (the winning tile
/// included), one per place of the winning tile; empty unless it is sets and a pair.
pub fn readings_of(situation: &WinSituation, d: &Decomposition) -> Vec<Reading> {
    let mut out = Vec::new();
    Reader::new(situation).read(d, &mut out);
    out
}

/// Reads the decompositions of one winner's hand: what every reading shares (the declared
/// melds, whether the winning tile was another player's) worked out once.
pub struct Reader<'a> {
    situation: &'a WinSituation,
    declared: Vec<Set>,
    by_discard: bool,
}

impl<'a> Reader<'a> {
    /// A reader of the winner's hand in `situation`.
    pub fn new(situation: &'a WinSituation) -> Reader<'a> {
        Reader {
            situation,
            declared: declared_sets(situation),
            by_discard: matches!(situation.win, WinKind::Discard | WinKind::RobbingKong),
        }
    }

    /// The winner's declared melds as sets ([`declared_sets`]).
    pub fn declared(&self) -> &[Set] {
        &self.declared
    }

    /// Appends to `out` the readings of `d`, one per place of the winning tile (as
    /// [`readings_of`]).
    pub fn read(&self, d: &Decomposition, out: &mut Vec<Reading>) {
        let Some(pair) = d.pair() else {
            return;
        };
        let start = out.len();
        if pair.tile == self.situation.winning_tile {
            out.push(self.reading(d, pair.tile, None, WinPlace::Pair));
        }
        for (i, g) in d.sets().enumerate() {
            // Duplicates of the same set give the same reading.
            if let Some(place) = self.place_in(g)
                && !out[start..].iter().any(|r| r.win == place)
            {
                out.push(self.reading(d, pair.tile, Some(i), place));
            }
        }
    }

    /// The first reading of `d` (the first place of the winning tile), if it is sets and a
    /// pair.
    pub fn first(&self, d: &Decomposition) -> Option<Reading> {
        let pair = d.pair()?;
        if pair.tile == self.situation.winning_tile {
            return Some(self.reading(d, pair.tile, None, WinPlace::Pair));
        }
        let (i, place) = d
            .sets()
            .enumerate()
            .find_map(|(i, g)| Some((i, self.place_in(g)?)))?;
        Some(self.reading(d, pair.tile, Some(i), place))
    }

    /// Where the winning tile sits if it completes the set `g`.
    fn place_in(&self, g: Group) -> Option<WinPlace> {
        let won = self.situation.winning_tile;
        match g.kind {
            GroupKind::Pung if g.tile == won => Some(WinPlace::Pung),
            // A chow is three consecutive kinds of one suit.
            GroupKind::Chow if (g.tile.index()..g.tile.index() + 3).contains(&won.index()) => {
                Some(WinPlace::Chow {
                    start: g.tile,
                    offset: (won.index() - g.tile.index()) as u8,
                })
            }
            _ => None,
        }
    }

    /// The reading of `d` with the winning tile completing its `at`-th set (`None`: the pair).
    fn reading(&self, d: &Decomposition, pair: Tile, at: Option<usize>, win: WinPlace) -> Reading {
        let mut sets = Vec::with_capacity(d.groups.len() + self.declared.len());
        sets.extend(d.sets().enumerate().map(|(i, g)| Set {
            kind: if g.kind == GroupKind::Chow {
                SetKind::Chow
            } else {
                SetKind::Pung
            },
            tile: g.tile,
            concealed: !(self.by_discard && at == Some(i)),
            declared: false,
        }));
        sets.extend_from_slice(&self.declared);
        Reading { sets, pair, win }
    }
}

/// Every reading of the winner's hand as sets and a pair under `rules` (empty if it is not
/// one), in the order of [`analysis::decompositions`]. The caller has checked the concealed
/// hand's size.
///
/// ```
/// use majiang::scoring::reading::{WinPlace, readings};
/// use majiang::scoring::request::ScoreRequest;
/// use majiang::analysis::HandRules;
/// // 23456m 789p 111z 55s won on 4m: 234m 456m, the 4m ending 234m or starting 456m.
/// let req = ScoreRequest::from_json(r#"{"rules": "yangzhou", "concealed": "23456m789p111z55s",
///     "winning_tile": "4m", "win": "self_draw", "seat": "south"}"#).unwrap();
/// let all = readings(&req.situation, &HandRules::STANDARD_ONLY);
/// assert_eq!(all.len(), 2);
/// assert!(all.iter().all(|r| matches!(r.win, WinPlace::Chow { .. })));
/// ```
pub fn readings(situation: &WinSituation, rules: &HandRules) -> Vec<Reading> {
    let reader = Reader::new(situation);
    let mut out = Vec::new();
    for d in analysis::decompositions(&situation.full_concealed(), rules) {
        reader.read(&d, &mut out);
    }
    out
}
