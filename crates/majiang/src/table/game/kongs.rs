//! Kongs: a concealed kong, an added kong (which others may rob first), the exposed kong's
//! replacement tile, and the kong chain the replacements count.

use super::super::Player;
use super::super::action::{Action, ActionError};
use super::super::event::{Event, KongKind};
use super::super::extra_wind_play::same_kind;
use super::sink::Events;
use super::win::WinContext;
use super::{Game, MAX_PLAYERS, Phase, TileSource};
use crate::meld::{Meld, MeldKind};
use crate::scoring::WinKind;
use crate::tile::Tile;

impl Game {
    /// `p` declares a concealed kong of `t` (checked) and draws a replacement.
    pub(super) fn concealed_kong(
        &mut self,
        p: Player,
        t: Tile,
        kong_chain: u8,
        events: &mut impl Events,
    ) {
        let h = &mut self.hands[p.index()];
        let (tile, extra_winds) = h.take_for_meld(t, 4, false);
        h.melds.push(Meld {
            kind: MeldKind::ConcealedKong,
            tile,
            from: None,
            claimed: None,
            extra_winds,
        });
        events.record(Event::KongDeclared {
            player: p,
            kind: KongKind::Concealed,
            tile: t,
        });
        self.replacement(p, kong_chain + 1, events);
    }

    /// `p` adds `t` to an exposed pung (checked): anyone who may win on it is asked first;
    /// if nobody may, the kong completes.
    pub(super) fn added_kong(
        &mut self,
        p: Player,
        t: Tile,
        kong_chain: u8,
        events: &mut impl Events,
    ) {
        events.record(Event::KongDeclared {
            player: p,
            kind: KongKind::Added,
            tile: t,
        });
        let mut pending = 0u8;
        for q in self.after(p) {
            if self.robbing_win_ok(q, p, t) {
                pending |= 1 << q.0;
            }
        }
        if pending == 0 {
            self.complete_added_kong(p, t, kong_chain, events);
        } else {
            self.phase = Phase::Robbing {
                konger: p,
                tile: t,
                kong_chain,
                answers: [None; MAX_PLAYERS],
                pending,
            };
        }
    }

    /// Records `p`'s (checked) answer to the added kong on offer; with the last answer the
    /// first robber in turn order wins, or else the kong completes.
    pub(super) fn answer_robbing(
        &mut self,
        p: Player,
        action: Action,
        events: &mut impl Events,
    ) -> Result<(), ActionError> {
        let Phase::Robbing {
            konger,
            tile,
            kong_chain,
            answers,
            pending,
        } = &mut self.phase
        else {
            return Err(ActionError::HandOver);
        };
        let Some(all) = super::claims::record_answer(answers, pending, p, action) else {
            return Ok(());
        };
        let (konger, tile, kong_chain) = (*konger, *tile, *kong_chain);
        // Every robber asked may win; whoever did not has missed the win, if nobody robs.
        let passed = self
            .after(konger)
            .filter(|q| all[q.index()].is_some_and(|a| a != Action::Win))
            .fold(0u8, |m, q| m | 1 << q.0);
        let robber = self
            .after(konger)
            .find(|q| all[q.index()] == Some(Action::Win));
        match robber {
            Some(q) => {
                let ctx = WinContext {
                    win: WinKind::RobbingKong,
                    tile,
                    discarder: Some(konger),
                    source: TileSource::Claim,
                    kong_chain: 0,
                    last: false,
                };
                self.finish_win(q, ctx, events)
            }
            None => {
                self.note_passed_wins(passed, tile);
                self.complete_added_kong(konger, tile, kong_chain, events);
                Ok(())
            }
        }
    }

    /// True if `q` may rob `konger`'s added kong of `t`: allowed (and not barred by a win on
    /// the kind `q` passed since their last draw), complete and scoring.
    fn robbing_win_ok(&self, q: Player, konger: Player, t: Tile) -> bool {
        if !self
            .ruleset
            .may_rob_kong(self.seat_of(q), self.seat_of(konger))
            || self.barred(q, t)
        {
            return false;
        }
        if !self.completes(&self.hands[q.index()], Some(t)) {
            return false;
        }
        let ctx = WinContext {
            win: WinKind::RobbingKong,
            tile: t,
            discarder: Some(konger),
            source: TileSource::Claim,
            kong_chain: 0,
            last: false,
        };
        self.win_scores(q, &ctx).is_ok()
    }

    /// Nobody robbed `p`'s added kong of `t`: the pung becomes a kong and `p` draws a
    /// replacement.
    fn complete_added_kong(&mut self, p: Player, t: Tile, chain: u8, events: &mut impl Events) {
        let h = &mut self.hands[p.index()];
        h.take(t, 1);
        if t.is_bonus() {
            h.extra_melded.insert(t);
        }
        if let Some(m) = h
            .melds
            .iter_mut()
            .find(|m| m.kind == MeldKind::Pung && same_kind(m.tile, t))
        {
            m.kind = MeldKind::Kong;
            m.tile = m.tile.min(t);
            if t.is_bonus() {
                m.extra_winds.insert(t);
            }
        }
        self.replacement(p, chain + 1, events);
    }

    /// `p` draws a replacement tile for a kong (replacing flowers on the way) and takes their
    /// turn; the hand is drawn if none is left.
    pub(super) fn replacement(&mut self, p: Player, chain: u8, events: &mut impl Events) {
        let Some(mut t) = self.wall.draw_replacement() else {
            self.exhaustive_draw(events);
            return;
        };
        events.record(Event::ReplacementDrawn {
            player: p,
            tile: Some(t),
        });
        if self.ruleset.config().is_flower(t) {
            match self.replace_flower(p, t, events) {
                Some(x) => t = x,
                None => {
                    self.exhaustive_draw(events);
                    return;
                }
            }
        }
        let may_win = self.may_complete_with(p, t);
        self.hands[p.index()].add(t);
        self.enter_turn(
            p,
            Some(t),
            TileSource::KongReplacement,
            chain,
            false,
            may_win,
        );
    }
}
