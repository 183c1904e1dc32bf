//! The win: the situation scoring sees ([`Game::win_situation`]), whether a hand completes and
//! scores, and finishing a win (the tile moved, the score, the payments, the outcome).

use super::super::Player;
use super::super::action::{Action, ActionError, IllegalReason};
use super::super::complete::is_complete;
use super::super::event::{Event, PlayerPayment, PlayerScore};
use super::super::extra_wind_play as extra_winds;
use super::sink::Events;
use super::{Game, Hand, HandOutcome, Phase, TileSource};
use crate::scoring::{Circumstances, Invalid, OtherHand, Scored, WinKind, WinSituation};
use crate::seat::Seat;
use crate::tile::Tile;
use std::collections::BTreeMap;

/// How a win came about, for building its situation.
#[derive(Debug, Clone, Copy)]
pub(super) struct WinContext {
    /// Self-drawn, on a discard, or robbing a kong.
    pub(super) win: WinKind,
    /// The winning tile.
    pub(super) tile: Tile,
    /// The discarder or robbed player.
    pub(super) discarder: Option<Player>,
    /// How the winner came by their last tile (`Claim` for a discard or robbed tile).
    pub(super) source: TileSource,
    /// Kongs in the chain before a replacement tile.
    pub(super) kong_chain: u8,
    /// Self-draw: the last live tile; discard: the last discard.
    pub(super) last: bool,
}

impl Game {
    /// `p` wins as `ctx` says: the tile moves, the hand is scored and paid, and the hand ends.
    pub(super) fn finish_win(
        &mut self,
        p: Player,
        ctx: WinContext,
        events: &mut impl Events,
    ) -> Result<(), ActionError> {
        let situation = self.situation(p, &ctx);
        let scored = self
            .ruleset
            .score(&situation)
            .map_err(|e| ActionError::Illegal {
                player: p,
                action: Action::Win,
                reason: IllegalReason::DoesNotScore(e.0),
            })?;
        if self.setup.balances.is_some() {
            // What the floor kept back: the winner's gain without balances, less the real one.
            let mut open = situation.clone();
            open.balances = None;
            if let Ok(owed) = self.ruleset.score(&open) {
                let gain = |s: &crate::scoring::Scored| {
                    s.payments.get(&situation.seat).copied().unwrap_or(0)
                };
                self.withheld = (gain(&owed) - gain(&scored)).max(0);
            }
        }
        let payments = self.payments_by_player(&scored);
        match ctx.win {
            WinKind::SelfDraw => {}
            WinKind::Discard => {
                if let Some(d) = ctx.discarder {
                    if let Some(rec) = self.hands[d.index()].discards.last_mut() {
                        rec.claimed = true;
                    }
                }
                self.hands[p.index()].add(ctx.tile);
            }
            WinKind::RobbingKong => {
                if let Some(k) = ctx.discarder {
                    self.hands[k.index()].take(ctx.tile, 1);
                    events.record(Event::KongRobbed {
                        player: p,
                        from: k,
                        tile: ctx.tile,
                    });
                }
                self.hands[p.index()].add(ctx.tile);
            }
        }
        let itemised = self.itemised_by_player(&scored);
        let score = PlayerScore {
            patterns: scored.patterns,
            total: scored.total,
            payments: payments.clone(),
            itemised,
        };
        events.record_with(|| Event::Won {
            player: p,
            win: ctx.win,
            discarder: ctx.discarder,
            tile: ctx.tile,
            hand: self.hands[p.index()].all_tiles(),
            scored: score.clone(),
        });
        events.record_with(|| Event::HandEnded {
            payments: payments.clone(),
        });
        self.outcome = Some(HandOutcome::Win {
            winner: p,
            win: ctx.win,
            discarder: ctx.discarder,
            tile: ctx.tile,
            scored: score,
            dealer_won: p == self.setup.dealer,
            gambits: situation.gambits,
            kong_chain: situation.kong_chain,
        });
        self.phase = Phase::Over;
        Ok(())
    }

    /// The payments of a score, by chair.
    fn payments_by_player(&self, scored: &Scored) -> Vec<i64> {
        let mut v = vec![0; self.players()];
        for (seat, amount) in &scored.payments {
            if let Some(p) = self.player_at(*seat) {
                v[p.index()] = *amount;
            }
        }
        v
    }

    /// The itemised payments of a score, between chairs (a payment naming a seat nobody sits in
    /// is left out; the rule sets name only the table's seats).
    fn itemised_by_player(&self, scored: &Scored) -> Vec<PlayerPayment> {
        scored
            .itemised
            .iter()
            .filter_map(|p| {
                Some(PlayerPayment {
                    from: self.player_at(p.from)?,
                    to: self.player_at(p.to)?,
                    amount: p.amount,
                    reason: p.reason.clone(),
                })
            })
            .collect()
    }

    /// True if `h`'s concealed tiles, with `claimed` if given, are a winning shape (the cheap
    /// screen first; the extra-wind check at five- and six-player tables).
    #[inline]
    pub(super) fn completes(&self, h: &Hand, claimed: Option<Tile>) -> bool {
        let config = self.ruleset.config();
        if config.extra_winds() > 0 {
            let six = config.players == 6;
            return extra_winds::is_complete(&h.concealed, &h.screen, h.extra, claimed, six);
        }
        if !h
            .screen
            .may_complete(&h.concealed, claimed, &self.hand_rules)
        {
            return false;
        }
        match claimed {
            None => is_complete(&h.concealed, &self.hand_rules),
            Some(t) => {
                let mut full = h.concealed;
                full.add(t);
                is_complete(&full, &self.hand_rules)
            }
        }
    }

    /// False when `q`'s concealed tiles with `t` added certainly do not complete: the hand's
    /// screen, worked out once per hand state (at five- and six-player tables, with extra winds,
    /// always true); true when they may, and [`Game::completes`] must say.
    pub(super) fn may_complete_with(&mut self, q: Player, t: Tile) -> bool {
        if self.ruleset.config().extra_winds() > 0 {
            return true;
        }
        self.hands[q.index()].may_complete_with(t, &self.hand_rules)
    }

    /// Whether `p`'s win as `ctx` says scores, or why not. Cold: asked only once the hand is
    /// complete, which keeps it out of the hot turn and claim code.
    #[cold]
    pub(super) fn win_scores(&self, p: Player, ctx: &WinContext) -> Result<(), Invalid> {
        self.ruleset.accepts_win(&self.situation(p, ctx))
    }

    /// The [`WinSituation`] that scoring would see if `p` declared a win now: self-drawn on
    /// their turn, on the discard on offer, or robbing the added kong on offer. `None` if `p`
    /// has no tile to win with now.
    pub fn win_situation(&self, p: Player) -> Option<WinSituation> {
        if p.index() >= self.players() {
            return None;
        }
        let ctx = match self.phase {
            Phase::Turn {
                player,
                drawn: Some(tile),
                source,
                kong_chain,
                last_wall,
                ..
            } if player == p && source != TileSource::Claim => WinContext {
                win: WinKind::SelfDraw,
                tile,
                discarder: None,
                source,
                kong_chain,
                last: last_wall,
            },
            Phase::Claims {
                discarder,
                tile,
                last_discard,
                ..
            } if discarder != p => WinContext {
                win: WinKind::Discard,
                tile,
                discarder: Some(discarder),
                source: TileSource::Claim,
                kong_chain: 0,
                last: last_discard,
            },
            Phase::Robbing { konger, tile, .. } if konger != p => WinContext {
                win: WinKind::RobbingKong,
                tile,
                discarder: Some(konger),
                source: TileSource::Claim,
                kong_chain: 0,
                last: false,
            },
            _ => return None,
        };
        Some(self.situation(p, &ctx))
    }

    /// The [`WinSituation`] of `p`'s win as `ctx` says.
    fn situation(&self, p: Player, ctx: &WinContext) -> WinSituation {
        let h = &self.hands[p.index()];
        let self_draw = ctx.win == WinKind::SelfDraw;
        let mut concealed = h.concealed;
        if self_draw && !ctx.tile.is_bonus() {
            concealed.remove(ctx.tile);
        }
        let dealer = self.setup.dealer;
        let no_melds = self.hands.iter().all(|x| x.melds.is_empty());
        let circumstances = Circumstances {
            last_wall_tile: self_draw && ctx.last,
            last_discard: ctx.win == WinKind::Discard && ctx.last,
            kong_replacement: self_draw
                && matches!(
                    ctx.source,
                    TileSource::KongReplacement | TileSource::FlowerReplacement
                ),
            heavenly: self_draw && p == dealer && ctx.source == TileSource::Deal,
            earthly: ctx.win == WinKind::Discard
                && ctx.discarder == Some(dealer)
                && p != dealer
                && no_melds
                && self.hands[dealer.index()].discards.len() == 1
                && self.hands.iter().all(|x| x.discards.len() <= 1),
        };
        let kong_chain = if self_draw && ctx.source == TileSource::KongReplacement {
            ctx.kong_chain
        } else {
            0
        };
        let mut others = BTreeMap::new();
        for q in self.after(p) {
            let o = &self.hands[q.index()];
            let mut c = o.concealed;
            let robbed = ctx.win == WinKind::RobbingKong && Some(q) == ctx.discarder;
            if robbed && !ctx.tile.is_bonus() {
                c.remove(ctx.tile);
            }
            others.insert(
                self.seat_of(q),
                OtherHand {
                    concealed: c,
                    melds: o.melds.to_vec(),
                    flowers: o.scoring_flowers(robbed.then_some(ctx.tile)),
                },
            );
        }
        WinSituation {
            concealed,
            melds: h.melds.to_vec(),
            winning_tile: ctx.tile,
            win: ctx.win,
            discarder: ctx.discarder.map(|d| self.seat_of(d)),
            seat: self.seat_of(p),
            dealer: Seat::East,
            prevailing_wind: self.setup.prevailing_wind,
            flowers: h.scoring_flowers(self_draw.then_some(ctx.tile)),
            circumstances,
            kong_chain,
            gambits: if self_draw { h.gambit_run } else { 0 },
            lao: self.setup.lao,
            wildcard: if self.ruleset.config().fortune_gambit {
                self.wild
            } else {
                None
            },
            balances: self.setup.balances.as_ref().map(|b| {
                b.iter()
                    .enumerate()
                    .map(|(i, &x)| (self.seat_of(Player(i as u8)), x))
                    .collect()
            }),
            others,
            seats: self.ruleset.seats().to_vec(),
        }
    }
}
