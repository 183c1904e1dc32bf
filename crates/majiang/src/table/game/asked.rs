//! What a player is asked now, read from the hand's phase in one place ([`Game::asked`]):
//! nothing, their turn (with its options), a claim on a discard (with theirs) or whether to rob
//! an added kong. Everything that decides what a player may do goes through it:
//! [`Game::legal_actions`] lists the options ([`Asked::list_into`]), [`Game::check`] asks
//! whether they hold an action ([`Asked::allows`]) and [`Game::legal_set`] copies them into a
//! [`LegalSet`](super::LegalSet).
//!
//! The options themselves are worked out once, when the turn begins (`legality`'s
//! [`TurnOptions`]) or the discard is made (`claims`' [`ClaimOptions`]); here they are only read,
//! by the list and the membership test side by side, so that the order of the list and the
//! test stay together (the set's own reading of them is checked against this list at every
//! step of random play: `tests/legal_set.rs`).

use super::super::Player;
use super::super::action::Action;
use super::claims::{ClaimOptions, chow_tiles};
use super::hand::Hand;
use super::legality::TurnOptions;
use super::{Game, Phase, tile_at};
use crate::meld::MeldKind;
use crate::tile::{KINDS, Tile};

/// What one player is asked now, with the options they have (borrowed from the game).
#[derive(Debug, Clone, Copy)]
pub(super) enum Asked<'a> {
    /// Nothing: not their turn, not offered the tile, answered already, or the hand is over.
    Nothing,
    /// Their turn: win, concealed kongs, added kongs, discards.
    Turn {
        /// The options, worked out when the turn began.
        options: &'a TurnOptions,
        /// Their hand (the kinds they may discard).
        hand: &'a Hand,
    },
    /// A discard on offer to them: win, kong, pung, chows, pass.
    Claim {
        /// Their options on it.
        options: &'a ClaimOptions,
        /// The tile on offer.
        tile: Tile,
    },
    /// An added kong they may rob: win or pass.
    Rob,
}

/// True for the bit of `t` in a set of bits by tile index.
#[inline]
fn has(bits: u64, t: Tile) -> bool {
    bits & (1 << t.index()) != 0
}

impl Game {
    /// What `p` is asked now: the one reading of the phase for what a player may do.
    #[inline]
    pub(super) fn asked(&self, p: Player) -> Asked<'_> {
        if p.index() >= self.players() {
            return Asked::Nothing;
        }
        match &self.phase {
            Phase::Turn {
                player, options, ..
            } if *player == p => Asked::Turn {
                options,
                hand: &self.hands[p.index()],
            },
            Phase::Claims {
                tile,
                options,
                answers,
                pending,
                ..
            } if pending & (1 << p.0) != 0 && answers[p.index()].is_none() => Asked::Claim {
                options: &options[p.index()],
                tile: *tile,
            },
            Phase::Robbing { pending, .. } if pending & (1 << p.0) != 0 => Asked::Rob,
            _ => Asked::Nothing,
        }
    }

    /// The actions legal for `p` now (empty iff `p` has nothing to decide).
    pub fn legal_actions(&self, p: Player) -> Vec<Action> {
        let mut v = Vec::with_capacity(16);
        self.legal_actions_into(p, &mut v);
        v
    }

    /// [`Game::legal_actions`] into a caller's buffer (cleared first): no allocation once the
    /// buffer has grown.
    pub fn legal_actions_into(&self, p: Player, out: &mut Vec<Action>) {
        out.clear();
        self.asked(p).list_into(out);
    }
}

impl Asked<'_> {
    /// True if `action` is one of the options.
    #[inline]
    pub(super) fn allows(&self, action: Action) -> bool {
        match *self {
            Asked::Nothing => false,
            Asked::Turn { options: o, hand } => match action {
                Action::Win => o.win,
                Action::Discard(t) => hand.holds(t) && o.only_discard.is_none_or(|d| d == t),
                Action::ConcealedKong(t) => has(o.concealed_kongs, t),
                Action::AddedKong(t) => has(o.added_kongs, t),
                Action::Chow { .. } | Action::Pung | Action::Kong | Action::Pass => false,
            },
            Asked::Claim { options: o, tile } => match action {
                Action::Pass => true,
                Action::Win => o.win,
                Action::Pung => o.pung,
                Action::Kong => o.kong,
                Action::Chow { tiles } => {
                    (0..3).any(|b| o.chows & (1 << b) != 0 && chow_tiles(tile, b) == tiles)
                }
                Action::Discard(_) | Action::ConcealedKong(_) | Action::AddedKong(_) => false,
            },
            Asked::Rob => matches!(action, Action::Win | Action::Pass),
        }
    }

    /// Appends the options to `out` in the order every list of legal actions has: on turn
    /// win, concealed kongs, added kongs (extra winds first, then the pungs of playing tiles in
    /// the order melded), discards; on a discard win, kong, pung, chows, pass; on an added kong
    /// win, pass.
    #[inline]
    pub(super) fn list_into(&self, out: &mut Vec<Action>) {
        match *self {
            Asked::Nothing => {}
            Asked::Turn { options, hand } => turn_list_into(options, hand, out),
            Asked::Claim { options: o, tile } => {
                if o.win {
                    out.push(Action::Win);
                }
                if o.kong {
                    out.push(Action::Kong);
                }
                if o.pung {
                    out.push(Action::Pung);
                }
                for bit in 0..3u8 {
                    if o.chows & (1 << bit) != 0 {
                        out.push(Action::Chow {
                            tiles: chow_tiles(tile, bit),
                        });
                    }
                }
                out.push(Action::Pass);
            }
            Asked::Rob => out.extend([Action::Win, Action::Pass]),
        }
    }
}

/// [`Asked::list_into`] on turn, with the options `o` and the hand `h`.
#[inline]
fn turn_list_into(o: &TurnOptions, h: &Hand, out: &mut Vec<Action>) {
    if o.win {
        out.push(Action::Win);
    }
    let mut kongs = o.concealed_kongs;
    while kongs != 0 {
        out.push(Action::ConcealedKong(tile_at(
            kongs.trailing_zeros() as usize
        )));
        kongs &= kongs - 1;
    }
    if o.added_kongs != 0 {
        // Extra winds first, then the pungs of playing tiles in the order they were melded.
        let mut extra = o.added_kongs >> KINDS;
        while extra != 0 {
            out.push(Action::AddedKong(tile_at(
                KINDS + extra.trailing_zeros() as usize,
            )));
            extra &= extra - 1;
        }
        for m in &h.melds {
            if m.kind == MeldKind::Pung && !m.tile.is_bonus() && has(o.added_kongs, m.tile) {
                out.push(Action::AddedKong(m.tile));
            }
        }
    }
    match o.only_discard {
        Some(d) => out.push(Action::Discard(d)),
        None => {
            // The kinds held, from the hand's running mask: one step a kind held. A counted
            // range extends without a capacity check per action.
            let mut held = h.held;
            out.extend((0..h.held_kinds).map(|_| {
                let t = tile_at(held.trailing_zeros() as usize);
                held &= held - 1;
                Action::Discard(t)
            }));
            if !h.extra.is_empty() {
                out.extend(h.extra.tiles().map(Action::Discard));
            }
        }
    }
}
