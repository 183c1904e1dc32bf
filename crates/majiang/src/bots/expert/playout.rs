//! Playouts: one candidate discard played forward in one determinized [`World`], valued by the
//! rule set's real payments to the viewer.
//!
//! The viewer discards the candidate; an opponent who may win on it (the rule set says who may
//! win off whom) and whose guessed hand it completes wins, scored as the rule set scores it (a
//! hand below the minimum is no win). Otherwise the seats draw from the guessed wall in turn:
//! an opponent wins on a self-drawn tile that completes their hand, or else throws the tile
//! they drew (the viewer may win on it); the viewer wins on a draw or plays on with the
//! efficient bot's quick discard, each one checked for a deal-in. Nobody calls. The playout
//! stops at the end of the wall or after `horizon` draws of the viewer (worth nothing then).

use super::world::World;
use crate::analysis::{self, HandRules};
use crate::bots::efficient::Planner;
use crate::counts::TileCounts;
use crate::scoring::{Circumstances, OtherHand, WinKind, WinSituation};
use crate::seat::Seat;
use crate::table::{Observation, Ruleset};
use crate::tile::Tile;
use std::collections::BTreeMap;

/// What a playout needs besides the world: the rules, the viewer's observation and planner.
pub(crate) struct Table<'a> {
    pub(crate) ruleset: &'a Ruleset,
    pub(crate) obs: &'a Observation,
    pub(crate) rules: HandRules,
    pub(crate) planner: &'a Planner,
    /// The viewer's draws after which a playout stops.
    pub(crate) horizon: u32,
}

impl Table<'_> {
    /// The viewer's payment (in the rule set's unit) when `candidate` is discarded from
    /// `hand` (`3k + 2` tiles) in `world`.
    pub(crate) fn playout(&self, world: &World, hand: &TileCounts, candidate: Tile) -> i64 {
        self.playout_steered(world, hand, candidate, None)
    }

    /// [`Table::playout`], the viewer throwing every tile outside suit `one_suit` (honours
    /// kept) before the planner's choice, when given.
    pub(crate) fn playout_steered(
        &self,
        world: &World,
        hand: &TileCounts,
        candidate: Tile,
        one_suit: Option<usize>,
    ) -> i64 {
        let n = world.hands.len();
        let me = self.obs.player.index();
        let mut mine = *hand;
        mine.remove(candidate);
        if let Some(v) = self.deal_in(world, me, &mine, candidate) {
            return v;
        }
        self.play_on(world, mine, (me + 1) % n, one_suit)
    }

    /// The viewer's payment when the seats draw from `world`'s wall in turn from chair
    /// `first`, the viewer holding `mine` (`3k + 1` tiles) and steering to `one_suit` when
    /// given (see [`Table::playout_steered`]).
    pub(crate) fn play_on(
        &self,
        world: &World,
        mut mine: TileCounts,
        first: usize,
        one_suit: Option<usize>,
    ) -> i64 {
        let n = world.hands.len();
        let me = self.obs.player.index();
        let mut draws = 0u32;
        let mut turn = first % n;
        for &t in &world.wall {
            if turn == me {
                mine.add(t);
                if analysis::is_win(&mine, &self.rules) {
                    let mut before = mine;
                    before.remove(t);
                    if let Some(v) = self.score(&world.hands, me, &mine, &before, t, None) {
                        return v;
                    }
                }
                draws += 1;
                if draws >= self.horizon {
                    return 0;
                }
                let steered = one_suit.and_then(|s| super::one_suit::loosest_off_suit(&mine, s));
                let Some(d) = steered.or_else(|| self.planner.quick_discard(&mine)) else {
                    return 0;
                };
                mine.remove(d);
                if let Some(v) = self.deal_in(world, me, &mine, d) {
                    return v;
                }
            } else {
                let mut h = world.hands[turn];
                h.add(t);
                if analysis::is_win(&h, &self.rules) {
                    if let Some(v) =
                        self.score(&world.hands, turn, &mine, &world.hands[turn], t, None)
                    {
                        return v;
                    }
                }
                // They throw what they drew: may the viewer win on it?
                let mut with = mine;
                with.add(t);
                if self.may_win(me, turn) && analysis::is_win(&with, &self.rules) {
                    if let Some(v) = self.score(&world.hands, me, &mine, &mine, t, Some(turn)) {
                        return v;
                    }
                }
            }
            turn = (turn + 1) % n;
        }
        0
    }

    /// Whether `hand` (`3k + 1` tiles) of opponent `q` is ready with a win the rule set pays
    /// for (its first winning kind, on the viewer's discard where allowed, else self-drawn).
    /// Always true without a minimum fan.
    pub(crate) fn pays(&self, q: usize, hand: &TileCounts) -> bool {
        if self.ruleset.kind().aims().min_fan <= 0 {
            return true;
        }
        let me = self.obs.player.index();
        let Some(t) = (0..crate::tile::KINDS)
            .filter_map(Tile::from_index)
            .find(|&t| {
                let mut h = *hand;
                h.add(t);
                analysis::is_win(&h, &self.rules)
            })
        else {
            return false;
        };
        let mut hands = vec![TileCounts::EMPTY; self.obs.table.len()];
        hands[q] = *hand;
        let from = self.may_win(q, me).then_some(me);
        self.score(&hands, q, &self.obs.concealed, hand, t, from)
            .is_some()
    }

    /// Whether player `winner` may win on `discarder`'s discard.
    fn may_win(&self, winner: usize, discarder: usize) -> bool {
        let seat = |p: usize| self.obs.table.get(p).map_or(Seat::East, |h| h.seat);
        self.ruleset
            .may_win_on_discard(seat(winner), seat(discarder), self.obs.lao)
    }

    /// The viewer's payment if an opponent wins on the viewer's discard `t` (the first in turn
    /// order whose hand it completes), `None` when nobody does.
    fn deal_in(&self, world: &World, me: usize, mine: &TileCounts, t: Tile) -> Option<i64> {
        let n = world.hands.len();
        for k in 1..n {
            let q = (me + k) % n;
            if !self.may_win(q, me) {
                continue;
            }
            let mut h = world.hands[q];
            h.add(t);
            if analysis::is_win(&h, &self.rules) {
                if let Some(v) = self.score(&world.hands, q, mine, &world.hands[q], t, Some(me)) {
                    return Some(v);
                }
            }
        }
        None
    }

    /// The viewer's payment when `winner` wins with `tile` on a hand of `concealed` (without
    /// the tile), by self-draw or on `discarder`'s discard; `mine` is the viewer's hand then.
    /// `None` when the rule set refuses the win (below the minimum, a win it forbids).
    pub(crate) fn score(
        &self,
        hands: &[TileCounts],
        winner: usize,
        mine: &TileCounts,
        concealed: &TileCounts,
        tile: Tile,
        discarder: Option<usize>,
    ) -> Option<i64> {
        let obs = self.obs;
        let me = obs.player.index();
        let seat = |p: usize| obs.table.get(p).map_or(Seat::East, |h| h.seat);
        let hand_of = |p: usize| if p == me { *mine } else { hands[p] };
        let n = hands.len();
        let mut others = BTreeMap::new();
        for k in 1..n {
            let q = (winner + k) % n;
            let public = &obs.table[q];
            others.insert(
                public.seat,
                OtherHand {
                    concealed: hand_of(q),
                    melds: public.melds.clone(),
                    flowers: public.flowers.clone(),
                },
            );
        }
        let public = &obs.table[winner];
        let self_draw = discarder.is_none();
        let situation = WinSituation {
            concealed: *concealed,
            melds: public.melds.clone(),
            winning_tile: tile,
            win: if self_draw {
                WinKind::SelfDraw
            } else {
                WinKind::Discard
            },
            discarder: discarder.map(seat),
            seat: public.seat,
            dealer: Seat::East,
            prevailing_wind: obs.prevailing_wind,
            flowers: public.flowers.clone(),
            circumstances: Circumstances::default(),
            kong_chain: 0,
            gambits: if self_draw { public.gambit_run } else { 0 },
            lao: obs.lao,
            wildcard: if self.ruleset.config().fortune_gambit {
                obs.wildcard
            } else {
                None
            },
            balances: None,
            others,
            seats: self.ruleset.seats().to_vec(),
        };
        let scored = self.ruleset.score(&situation).ok()?;
        Some(scored.payments.get(&seat(me)).copied().unwrap_or(0))
    }
}
