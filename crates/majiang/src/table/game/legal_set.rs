//! A player's legal actions as a small set of bits ([`LegalSet`]): what
//! [`Game::legal_actions`] lists, in the same order, without building the list.
//!
//! The set is read from what the player is asked ([`Game::asked`], the one reading of the
//! phase); it copies the options with the kinds the player holds, so counting the actions,
//! taking the `i`-th and asking whether one is legal are bit operations. A bot that picks by
//! position ([`crate::bots::Bot::choose`]) reads it instead of a list.

use super::super::Player;
use super::super::action::Action;
use super::asked::Asked;
use super::claims::chow_tiles;
use super::{Game, tile_at};
use crate::meld::MeldKind;
use crate::tile::{KINDS, Tile};

/// The most pungs a hand holds (an added kong is listed once per pung, in the order melded).
const MAX_PUNGS: usize = 8;

/// What kind of decision a [`LegalSet`] is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Decision {
    /// Nothing to decide.
    #[default]
    None,
    /// On turn: win, concealed kongs, added kongs, discards.
    Turn,
    /// On a discard: win, kong, pung, chows, pass.
    Claim,
    /// On an added kong: win (robbing it) or pass.
    Rob,
}

/// The actions legal for one player now, as [`Game::legal_actions`] lists them (the same
/// actions in the same order), held as bits. Made by [`Game::legal_set`]; `Copy` and small.
///
/// ```
/// use majiang::table::{Game, HandSetup, TableRules};
/// use std::sync::Arc;
/// let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
/// let (game, _) = Game::new(rules, HandSetup::new(7)).unwrap();
/// let dealer = game.dealer();
/// let set = game.legal_set(dealer);
/// let listed = game.legal_actions(dealer);
/// assert_eq!(set.len(), listed.len());
/// assert_eq!(set.get(3), Some(listed[3]));
/// assert!(set.contains(listed[0]));
/// assert!(set.iter().eq(listed.iter().copied()));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LegalSet {
    decision: Decision,
    /// A win (self-drawn, on the discard, or robbing the kong).
    win: bool,
    /// Turn: bit per kind index of a concealed kong (extra winds: the lowest of four).
    concealed_kongs: u64,
    /// Turn: bit per extra-wind tile that may be added to a melded extra-wind pung (listed
    /// before the pungs of playing tiles).
    added_extra: u64,
    /// Turn: the pungs of playing tiles that may become kongs, in the order melded.
    added_pungs: [Tile; MAX_PUNGS],
    /// How many of `added_pungs` are in use.
    added_len: u8,
    /// Turn: bit per kind index of a discard (extra winds from bit 34).
    discards: u64,
    /// Claim: the tile on offer (the chows are read from it).
    tile: Tile,
    /// Claim: an exposed kong.
    kong: bool,
    /// Claim: a pung.
    pung: bool,
    /// Claim: bit `i` is the chow of `chow_tiles(tile, i)`.
    chows: u8,
    /// How many actions are legal.
    len: u8,
    /// Turn: the position of the first discard (after the win and the kongs).
    first_discard: u8,
}

/// The `k`-th set bit of `bits` (from the lowest), as an index; `bits` has more than `k`.
#[inline]
fn nth_bit(mut bits: u64, k: u32) -> usize {
    for _ in 0..k {
        bits &= bits - 1;
    }
    bits.trailing_zeros() as usize
}

impl LegalSet {
    /// Nothing to decide.
    pub const EMPTY: LegalSet = LegalSet {
        decision: Decision::None,
        win: false,
        concealed_kongs: 0,
        added_extra: 0,
        added_pungs: [Tile::EAST; MAX_PUNGS],
        added_len: 0,
        discards: 0,
        tile: Tile::EAST,
        kong: false,
        pung: false,
        chows: 0,
        len: 0,
        first_discard: 0,
    };

    /// How many actions are legal (0: nothing to decide).
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True if nothing is legal (the player has nothing to decide).
    pub fn is_empty(&self) -> bool {
        self.decision == Decision::None
    }

    /// The `i`-th legal action, as [`Game::legal_actions`] would list it at `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Action> {
        if i >= self.len() {
            return None;
        }
        if self.decision == Decision::Turn && i >= usize::from(self.first_discard) {
            let k = (i - usize::from(self.first_discard)) as u32;
            return Some(Action::Discard(tile_at(nth_bit(self.discards, k))));
        }
        let mut i = i;
        if self.win {
            if i == 0 {
                return Some(Action::Win);
            }
            i -= 1;
        }
        match self.decision {
            Decision::None => None,
            Decision::Turn => self.turn_action(i),
            Decision::Claim => self.claim_action(i),
            Decision::Rob => (i == 0).then_some(Action::Pass),
        }
    }

    /// [`LegalSet::get`] past the win, on turn: concealed kongs, added kongs, discards.
    #[inline]
    fn turn_action(&self, mut i: usize) -> Option<Action> {
        let concealed = self.concealed_kongs.count_ones() as usize;
        if i < concealed {
            return Some(Action::ConcealedKong(tile_at(nth_bit(
                self.concealed_kongs,
                i as u32,
            ))));
        }
        i -= concealed;
        let extra = self.added_extra.count_ones() as usize;
        if i < extra {
            return Some(Action::AddedKong(tile_at(nth_bit(
                self.added_extra,
                i as u32,
            ))));
        }
        i -= extra;
        let pungs = usize::from(self.added_len);
        if i < pungs {
            return Some(Action::AddedKong(self.added_pungs[i]));
        }
        i -= pungs;
        Some(Action::Discard(tile_at(nth_bit(self.discards, i as u32))))
    }

    /// [`LegalSet::get`] past the win, on a discard: kong, pung, chows, pass.
    fn claim_action(&self, mut i: usize) -> Option<Action> {
        if self.kong {
            if i == 0 {
                return Some(Action::Kong);
            }
            i -= 1;
        }
        if self.pung {
            if i == 0 {
                return Some(Action::Pung);
            }
            i -= 1;
        }
        let chows = self.chows.count_ones() as usize;
        if i < chows {
            let bit = nth_bit(u64::from(self.chows), i as u32) as u8;
            return Some(Action::Chow {
                tiles: chow_tiles(self.tile, bit),
            });
        }
        (i == chows).then_some(Action::Pass)
    }

    /// True if `action` is legal (one of [`Game::legal_actions`]).
    #[inline]
    pub fn contains(&self, action: Action) -> bool {
        let has = |bits: u64, t: Tile| t.index() < 64 && bits & (1 << t.index()) != 0;
        match (self.decision, action) {
            (Decision::None, _) => false,
            (_, Action::Win) => self.win,
            (Decision::Turn, Action::Discard(t)) => has(self.discards, t),
            (Decision::Turn, Action::ConcealedKong(t)) => has(self.concealed_kongs, t),
            (Decision::Turn, Action::AddedKong(t)) => {
                has(self.added_extra, t)
                    || self.added_pungs[..usize::from(self.added_len)].contains(&t)
            }
            (Decision::Claim, Action::Pass) | (Decision::Rob, Action::Pass) => true,
            (Decision::Claim, Action::Pung) => self.pung,
            (Decision::Claim, Action::Kong) => self.kong,
            (Decision::Claim, Action::Chow { tiles }) => {
                (0..3).any(|b| self.chows & (1 << b) != 0 && chow_tiles(self.tile, b) == tiles)
            }
            _ => false,
        }
    }

    /// The legal actions in [`Game::legal_actions`]' order.
    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

impl Game {
    /// The actions legal for `p` now, as a [`LegalSet`]: the same actions in the same order as
    /// [`Game::legal_actions`], counted, indexed and tested without a list (empty iff `p` has
    /// nothing to decide). Read from what `p` is asked (`Game::asked`).
    pub fn legal_set(&self, p: Player) -> LegalSet {
        let mut set = LegalSet::EMPTY;
        match self.asked(p) {
            Asked::Nothing => {}
            Asked::Turn { options, hand: h } => {
                set.decision = Decision::Turn;
                set.win = options.win;
                set.concealed_kongs = options.concealed_kongs;
                let added = options.added_kongs;
                if added != 0 {
                    set.added_extra = added & !((1u64 << KINDS) - 1);
                    for m in &h.melds {
                        if m.kind == MeldKind::Pung
                            && !m.tile.is_bonus()
                            && added & (1 << m.tile.index()) != 0
                            && usize::from(set.added_len) < MAX_PUNGS
                        {
                            set.added_pungs[usize::from(set.added_len)] = m.tile;
                            set.added_len += 1;
                        }
                    }
                }
                let discards = match options.only_discard {
                    Some(d) => {
                        set.discards = 1 << d.index();
                        1
                    }
                    None if h.extra.is_empty() => {
                        set.discards = h.held;
                        h.held_kinds
                    }
                    None => {
                        set.discards = h
                            .extra
                            .tiles()
                            .fold(h.held, |bits, t| bits | 1 << t.index());
                        h.held_kinds + h.extra.len()
                    }
                };
                // Kongs are rare: their bits are counted only when there are some.
                let count = |bits: u64| {
                    if bits == 0 {
                        0
                    } else {
                        bits.count_ones() as u8
                    }
                };
                set.first_discard = u8::from(set.win)
                    + count(set.concealed_kongs)
                    + count(set.added_extra)
                    + set.added_len;
                set.len = set.first_discard + discards;
            }
            Asked::Claim { options: o, tile } => {
                set.decision = Decision::Claim;
                set.tile = tile;
                set.win = o.win;
                set.kong = o.kong;
                set.pung = o.pung;
                set.chows = o.chows;
                set.len = u8::from(o.win)
                    + u8::from(o.kong)
                    + u8::from(o.pung)
                    + (o.chows & 1)
                    + (o.chows >> 1 & 1)
                    + (o.chows >> 2 & 1)
                    + 1;
            }
            Asked::Rob => {
                set.decision = Decision::Rob;
                set.win = true;
                set.len = 2;
            }
        }
        set
    }
}
