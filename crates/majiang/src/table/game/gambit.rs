//! Hangzhou's Fortune Gambit: a wildcard discarded in the Bao Tou state starts or continues a
//! player's run (each of their draws then allows only a win, a concealed kong or discarding
//! the drawn tile), and any wildcard discard opens a round with no claims until its
//! discarder's next draw.

use super::super::Player;
use super::{Game, TileSource};
use crate::analysis::lone_wildcard_wait;
use crate::tile::Tile;

impl Game {
    /// Fortune Gambits in `p`'s current run (Hangzhou).
    pub fn gambit_run(&self, p: Player) -> u8 {
        self.hands.get(p.index()).map_or(0, |h| h.gambit_run)
    }

    /// A wildcard discard has opened a Fortune Gambit round: no claims until that player's
    /// next draw. The player who opened it.
    pub fn gambit_round(&self) -> Option<Player> {
        self.gambit_round
    }

    /// True if discarding `tile` now would be a Fortune Gambit for `p` (a wildcard discarded
    /// in the Bao Tou state).
    pub fn is_gambit_discard(&self, p: Player, tile: Tile) -> bool {
        if p.index() >= self.players() || tile.is_bonus() {
            return false;
        }
        if !self.ruleset.config().fortune_gambit || Some(tile) != self.wild {
            return false;
        }
        if self.turn() != Some(p) {
            return false;
        }
        let h = &self.hands[p.index()];
        if h.concealed.get(tile) < 2 {
            return false;
        }
        let mut rest = h.concealed;
        rest.remove(tile);
        lone_wildcard_wait(&rest, &self.hand_rules)
    }

    /// True if discarding `tile` is a wildcard discard that opens a Fortune Gambit round.
    pub(super) fn is_wildcard_discard(&self, tile: Tile) -> bool {
        self.ruleset.config().fortune_gambit && Some(tile) == self.wild
    }

    /// True if `p`, on turn with a tile from `source`, is in a Fortune Gambit run and so
    /// restricted to a win, a concealed kong or discarding the tile just drawn.
    pub(super) fn in_gambit_run(&self, p: Player, source: TileSource) -> bool {
        source != TileSource::Claim && self.hands[p.index()].gambit_run > 0
    }

    /// Records `p`'s discard for the Fortune Gambit: a gambit extends their run and anything
    /// else ends it; a wildcard discard opens a round without claims.
    pub(super) fn note_discard(&mut self, p: Player, wildcard: bool, gambit: bool) {
        let h = &mut self.hands[p.index()];
        if gambit {
            h.gambit_run = h.gambit_run.saturating_add(1);
        } else {
            h.gambit_run = 0;
        }
        if wildcard {
            self.gambit_round = Some(p);
        }
    }

    /// A claim ends the claimer's run.
    pub(super) fn end_gambit_run(&mut self, p: Player) {
        self.hands[p.index()].gambit_run = 0;
    }

    /// `p` draws: the round they opened with a wildcard discard, if any, is over.
    pub(super) fn note_draw(&mut self, p: Player) {
        if self.gambit_round == Some(p) {
            self.gambit_round = None;
        }
    }
}
