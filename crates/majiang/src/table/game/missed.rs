//! The missed win (Hong Kong, house rule `missed_win`; seed 002, RULES.md §4): a player who
//! passes a win offered on a discard or a robbed kong may not win on a discard or a robbed kong
//! of that tile's kind until their next draw from the live wall. A kong or flower replacement
//! draw does not restore the right; a self-drawn win is never barred.
//!
//! The bar is kept per chair as a bit per kind ([`Game::missed`]): set when the answers to a
//! tile on offer are in, cleared when the player draws from the live wall. The claim options
//! and the robbers are worked out without a barred win, so the legal actions never offer one;
//! [`Game::check`] names the rule when a barred player asks to win anyway.

use super::super::Player;
use super::win::WinContext;
use super::{Game, Phase, TileSource};
use crate::scoring::WinKind;
use crate::tile::Tile;

impl Game {
    /// True if `p` may not win on `t` from a discard or a robbed kong because they passed a win
    /// on its kind since their last draw from the live wall.
    #[inline]
    pub(super) fn barred(&self, p: Player, t: Tile) -> bool {
        self.missed[p.index()] & (1 << t.index()) != 0
    }

    /// The kinds `p` passed a win on since their last draw from the live wall, and so may not
    /// win on from a discard or a robbed kong until then (always empty unless the rule set has
    /// the missed win, Hong Kong's `missed_win`).
    pub fn missed_wins(&self, p: Player) -> Vec<Tile> {
        let mut out = Vec::new();
        self.missed_wins_into(p, &mut out);
        out
    }

    /// [`Game::missed_wins`] into a reused buffer (cleared first).
    pub fn missed_wins_into(&self, p: Player, out: &mut Vec<Tile>) {
        out.clear();
        let mut bits = self.missed.get(p.index()).copied().unwrap_or(0);
        while bits != 0 {
            out.extend(Tile::from_index(bits.trailing_zeros() as usize));
            bits &= bits - 1;
        }
    }

    /// The players in `passed` (a bit per chair) were offered a win on `t` and did not take it:
    /// under the missed win they may not win on its kind until their next live-wall draw.
    pub(super) fn note_passed_wins(&mut self, passed: u8, t: Tile) {
        if !self.missed_win || passed == 0 {
            return;
        }
        for (q, bits) in self.missed.iter_mut().enumerate() {
            if passed & (1 << q) != 0 {
                *bits |= 1 << t.index();
            }
        }
    }

    /// `p` has drawn from the live wall: every win they passed may be taken again.
    pub(super) fn restore_wins(&mut self, p: Player) {
        if let Some(bits) = self.missed.get_mut(p.index()) {
            *bits = 0;
        }
    }

    /// True if the only thing keeping `p` from winning on the tile on offer (a discard or an
    /// added kong) is the missed win: the hand completes with it, the rules let `p` win off
    /// its player, and it scores.
    pub(super) fn only_missed_win_bars(&self, p: Player) -> bool {
        let (win, from, tile, last) = match self.phase {
            Phase::Claims {
                discarder,
                tile,
                last_discard,
                ..
            } => (WinKind::Discard, discarder, tile, last_discard),
            Phase::Robbing { konger, tile, .. } => (WinKind::RobbingKong, konger, tile, false),
            Phase::Turn { .. } | Phase::Over => return false,
        };
        if p == from || p.index() >= self.players() || !self.barred(p, tile) {
            return false;
        }
        let allowed = match win {
            WinKind::Discard => self.wins_off[p.index()] & (1 << from.0) != 0,
            _ => self
                .ruleset
                .may_rob_kong(self.seat_of(p), self.seat_of(from)),
        };
        let ctx = WinContext {
            win,
            tile,
            discarder: Some(from),
            source: TileSource::Claim,
            kong_chain: 0,
            last,
        };
        allowed
            && self.completes(&self.hands[p.index()], Some(tile))
            && self.win_scores(p, &ctx).is_ok()
    }
}
