//! Claims on a discard: who may claim it and for what ([`ClaimOptions`], worked out once when
//! it is made), collecting the answers, and resolving them (a win first, then a pung or kong,
//! then a chow, nearest the discarder first).
//!
//! The last discard (made after the live wall's last tile was drawn) may be claimed only to win
//! (RULES.md §1), so claims never chain on once the wall is empty; a player who passed a win
//! on the tile's kind since their last live-wall draw is not offered it (see `missed`).

use super::super::Player;
use super::super::action::{Action, ActionError};
use super::super::event::{Event, KongKind};
use super::sink::Events;
use super::win::WinContext;
use super::{Game, MAX_PLAYERS, Phase, TileSource, tile_at};
use crate::extra_winds::ExtraWinds;
use crate::meld::{Meld, MeldKind};
use crate::scoring::WinKind;
use crate::tile::Tile;

/// What one player may claim a discard for, worked out once when it is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct ClaimOptions {
    /// A win on the discard (complete, allowed off this discarder, and scoring).
    pub(super) win: bool,
    /// A pung (two of the kind in hand; not on the last discard).
    pub(super) pung: bool,
    /// An exposed kong (three in hand, kongs allowed, a replacement tile left; not on the last
    /// discard).
    pub(super) kong: bool,
    /// Bit `i`: the chow starting `2 - i` below the tile (bit 0: the tile is the top of the
    /// chow, bit 1: middle, bit 2: bottom; none on the last discard).
    pub(super) chows: u8,
}

impl ClaimOptions {
    /// True if the player may do anything but pass.
    pub(super) fn any(&self) -> bool {
        self.win || self.pung || self.kong || self.chows != 0
    }
}

/// The tiles of the chow for bit `bit` of [`ClaimOptions::chows`] with `t` claimed.
pub(super) fn chow_tiles(t: Tile, bit: u8) -> [Tile; 3] {
    let low = t.index() + usize::from(bit) - 2;
    [tile_at(low), tile_at(low + 1), tile_at(low + 2)]
}

/// The chows (as [`ClaimOptions::chows`]) that the kinds in `held` (a bit per kind index,
/// wildcards left out) make with the numbered tile `t`: the five kinds from two below `t` to two
/// above it read as one window of bits, the ranks that leave the suit masked off.
fn chows(held: u64, t: Tile) -> u8 {
    let i = t.index();
    // Bits 0 to 4: the kinds t-2, t-1, t, t+1, t+2.
    let w = ((held << 2) >> i) & 0x1F;
    let r = t.rank();
    let both = |a: u64, b: u64| w & (1 << a) != 0 && w & (1 << b) != 0;
    let mut chows = 0;
    if r >= 3 && both(0, 1) {
        chows |= 1;
    }
    if (2..=8).contains(&r) && both(1, 3) {
        chows |= 2;
    }
    if r <= 7 && both(3, 4) {
        chows |= 4;
    }
    chows
}

impl Game {
    /// Puts `p`'s discard `t` on offer to everyone who may claim it (nobody during a Fortune
    /// Gambit round or for a wildcard); if nobody may, the next player draws.
    pub(super) fn offer_discard(&mut self, p: Player, t: Tile, events: &mut impl Events) {
        let last_discard = self.wall.live_remaining() == 0;
        let mut options = [ClaimOptions::default(); MAX_PLAYERS];
        let mut pending = 0u8;
        if self.gambit_round.is_none() && Some(t) != self.wild {
            let config = self.ruleset.config();
            let chow_seat = (config.chow_allowed && t.is_numbered()).then(|| self.next_player(p));
            let screened = config.extra_winds() == 0;
            for q in self.after(p) {
                let may_win = self.wins_off[q.index()] & (1 << p.0) != 0
                    && !self.barred(q, t)
                    && (!screened || self.hands[q.index()].may_complete_with(t, &self.hand_rules));
                // Most players have nothing to claim: fewer than two of the kind, no chow
                // seat and no win in reach (on the last discard: no win in reach). They are
                // passed over without working it out.
                if !may_win
                    && (last_discard || Some(q) != chow_seat && self.hands[q.index()].count(t) < 2)
                {
                    continue;
                }
                let o = self.claim_options(q, p, t, last_discard, may_win);
                if o.any() {
                    pending |= 1 << q.0;
                    options[q.index()] = o;
                }
            }
        }
        if pending == 0 {
            self.draw_for(self.next_player(p), events);
        } else {
            self.phase = Phase::Claims {
                discarder: p,
                tile: t,
                last_discard,
                options,
                answers: [None; MAX_PLAYERS],
                pending,
            };
        }
    }

    /// What `q` may claim `d`'s discard `t` for (`may_win`: false when `q` may not win off `d`
    /// now, passed a win on `t` since their last draw, or the screen has ruled out a win on
    /// `t`, see [`Game::may_complete_with`]; `last_discard`: only a win). Out
    /// of line: asked only of the few players who may claim, it keeps the chow arithmetic out
    /// of every discard.
    #[inline(never)]
    fn claim_options(
        &self,
        q: Player,
        d: Player,
        t: Tile,
        last_discard: bool,
        may_win: bool,
    ) -> ClaimOptions {
        let config = self.ruleset.config();
        let h = &self.hands[q.index()];
        let n = h.count(t);
        let mut o = ClaimOptions {
            pung: n >= 2 && !last_discard,
            kong: n >= 3 && !last_discard && config.kongs_allowed && self.wall.can_replace(),
            ..ClaimOptions::default()
        };
        if !last_discard && config.chow_allowed && self.next_player(d) == q && t.is_numbered() {
            o.chows = chows(h.held & !self.wild.map_or(0, |w| 1 << w.index()), t);
        }
        if may_win && self.completes(h, Some(t)) {
            let ctx = WinContext {
                win: WinKind::Discard,
                tile: t,
                discarder: Some(d),
                source: TileSource::Claim,
                kong_chain: 0,
                last: last_discard,
            };
            o.win = self.win_scores(q, &ctx).is_ok();
        }
        o
    }

    /// Records `p`'s (checked) answer to the discard on offer; the last answer resolves them.
    pub(super) fn answer_claim(
        &mut self,
        p: Player,
        action: Action,
        events: &mut impl Events,
    ) -> Result<(), ActionError> {
        let Phase::Claims {
            discarder,
            tile,
            last_discard,
            options,
            answers,
            pending,
        } = &mut self.phase
        else {
            return Err(ActionError::HandOver);
        };
        let Some(all) = record_answer(answers, pending, p, action) else {
            return Ok(());
        };
        // The phase is left as it was until the claims resolve (a refused win changes nothing).
        let (d, t, last) = (*discarder, *tile, *last_discard);
        // Whoever was offered the win and did not take it has missed it (before anyone draws).
        let passed = (0..MAX_PLAYERS)
            .filter(|&q| options[q].win && all[q] != Some(Action::Win))
            .fold(0u8, |m, q| m | 1 << q);
        let before = self.missed;
        self.note_passed_wins(passed, t);
        let resolved = self.resolve_claims(d, t, last, &all, events);
        if resolved.is_err() {
            self.missed = before;
        }
        resolved
    }

    /// Everyone has answered the discard: the win nearest the discarder in turn order, else a
    /// pung or kong, else a chow, else the next player draws.
    fn resolve_claims(
        &mut self,
        d: Player,
        tile: Tile,
        last_discard: bool,
        answers: &[Option<Action>; MAX_PLAYERS],
        events: &mut impl Events,
    ) -> Result<(), ActionError> {
        let order = self.after(d);
        let pick = |pred: &dyn Fn(&Action) -> bool| {
            order
                .clone()
                .find(|q| answers[q.index()].as_ref().is_some_and(pred))
        };
        if let Some(q) = pick(&|a| *a == Action::Win) {
            let ctx = WinContext {
                win: WinKind::Discard,
                tile,
                discarder: Some(d),
                source: TileSource::Claim,
                kong_chain: 0,
                last: last_discard,
            };
            return self.finish_win(q, ctx, events);
        }
        let claim = pick(&|a| matches!(a, Action::Pung | Action::Kong))
            .or_else(|| pick(&|a| matches!(a, Action::Chow { .. })));
        let Some(q) = claim else {
            self.draw_for(self.next_player(d), events);
            return Ok(());
        };
        let action = answers[q.index()].unwrap_or(Action::Pass);
        let from = self.seat_of(d);
        if let Some(rec) = self.hands[d.index()].discards.last_mut() {
            rec.claimed = true;
        }
        self.end_gambit_run(q);
        let h = &mut self.hands[q.index()];
        let meld = match action {
            Action::Pung => {
                let (low, extra_winds) = h.take_for_meld(tile, 2, true);
                Meld {
                    kind: MeldKind::Pung,
                    tile: low,
                    from: Some(from),
                    claimed: Some(tile),
                    extra_winds,
                }
            }
            Action::Kong => {
                let (low, extra_winds) = h.take_for_meld(tile, 3, true);
                Meld {
                    kind: MeldKind::Kong,
                    tile: low,
                    from: Some(from),
                    claimed: Some(tile),
                    extra_winds,
                }
            }
            Action::Chow { tiles } => {
                for x in tiles {
                    if x != tile {
                        h.take(x, 1);
                    }
                }
                Meld {
                    kind: MeldKind::Chow,
                    tile: tiles[0],
                    from: Some(from),
                    claimed: Some(tile),
                    extra_winds: ExtraWinds::EMPTY,
                }
            }
            _ => unreachable!("a claim"),
        };
        h.melds.push(meld);
        events.record(Event::Claimed {
            player: q,
            from: d,
            tile,
            meld,
        });
        if action == Action::Kong {
            events.record(Event::KongDeclared {
                player: q,
                kind: KongKind::Exposed,
                tile,
            });
            self.replacement(q, 1, events);
        } else {
            self.enter_turn(q, None, TileSource::Claim, 0, false, false);
        }
        Ok(())
    }
}

/// Records `p`'s answer to a tile on offer (a discard, or an added kong that may be robbed).
/// While others have still to answer it is stored and `None` is returned; the last answer
/// returns every answer and leaves the phase as it was, so a refused win changes nothing.
pub(super) fn record_answer(
    answers: &mut [Option<Action>; MAX_PLAYERS],
    pending: &mut u8,
    p: Player,
    action: Action,
) -> Option<[Option<Action>; MAX_PLAYERS]> {
    let mut all = *answers;
    all[p.index()] = Some(action);
    let left = *pending & !(1 << p.0);
    if left != 0 {
        *answers = all;
        *pending = left;
        return None;
    }
    Some(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chows_from_the_window_match_the_ranks() {
        // Every tile against a spread of held sets: each chow bit is set exactly when its two
        // other tiles are held and in the tile's suit.
        for seed in 0u64..2_000 {
            let held = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 30 & ((1 << 34) - 1);
            for i in 0..27 {
                let t = tile_at(i);
                let has =
                    |k: i64| (0..34).contains(&k) && k / 9 == i as i64 / 9 && held & (1 << k) != 0;
                let i = i as i64;
                let want = u8::from(has(i - 2) && has(i - 1))
                    | u8::from(has(i - 1) && has(i + 1)) << 1
                    | u8::from(has(i + 1) && has(i + 2)) << 2;
                assert_eq!(chows(held, t), want, "{t} with {held:#x}");
            }
        }
    }
}
