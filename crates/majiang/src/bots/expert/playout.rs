//! Playouts: one candidate discard played forward in one determinized [`World`], valued by the
//! rule set's real payments to the viewer.
//!
//! The viewer discards the candidate; an opponent who may win on it (the rule set says who may
//! win off whom) and whose guessed hand it completes wins, scored as the rule set scores it (a
//! hand below the minimum is no win). Otherwise the seats draw from the guessed wall in turn:
//! an opponent wins on a self-drawn tile that completes their hand, or else throws the tile
//! they drew (the viewer may win on it); the viewer wins on a draw or plays on with the
//! efficient bot's quick discard, each one checked for a deal-in. Nobody calls, except where the
//! rule set makes the feeder of a third exposed meld pay for the hand (Yangzhou's 包牌 Pao Pai,
//! Hangzhou's 三摊承包): there an opponent for whom the viewer's discard would be that meld
//! claims it when the world gives them the tiles (`fed_claim`), once a playout. The playout
//! stops at the end of the wall or after `horizon` draws of the viewer (worth nothing then).
//!
//! At five- and six-player classic tables the playouts see the table as the efficient bot's
//! ordinary decisions do, with extra winds set aside: an extra wind drawn from the wall is a
//! dead draw (thrown at once, by the viewer too, nobody winning on it), and the extra winds a
//! winner or a loser holds concealed are scored as the rule set scores them.

use super::world::World;
use crate::analysis::{self, HandRules};
use crate::bots::efficient::Planner;
use crate::counts::TileCounts;
use crate::meld::{Meld, MeldKind};
use crate::rules::registry::FedThirdMeld;
use crate::scoring::{Circumstances, OtherHand, WinKind, WinSituation};
use crate::seat::Seat;
use crate::table::{Observation, TableRules};
use crate::tile::{KINDS, Tile};
use std::collections::BTreeMap;

/// What a playout needs besides the world: the rules, the viewer's observation and planner.
pub(crate) struct Table<'a> {
    pub(crate) ruleset: &'a TableRules,
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
        if let Some((fed, next)) = self.fed_claim(world, me, candidate) {
            return self.play_from(&fed, mine, next, one_suit, 0, 0, 0);
        }
        self.play_on(world, mine, (me + 1) % n, one_suit)
    }

    /// [`Table::play_on`] after the viewer passed a win on `passed`: under Hong Kong's missed
    /// win ([`TableRules::missed_win`]) the viewer may not win on a throw of that kind until
    /// their next draw, so the pass forfeits those wins in the playout too.
    pub(crate) fn play_on_after_passing(
        &self,
        world: &World,
        mine: TileCounts,
        first: usize,
        passed: Tile,
    ) -> i64 {
        let barred = if self.ruleset.missed_win() && passed.index() < KINDS {
            1u64 << passed.index()
        } else {
            0
        };
        self.play_from(world, mine, first, None, 0, 0, barred)
    }

    /// The viewer's payment when the seats draw from `world`'s wall in turn from chair
    /// `first`, the viewer holding `mine` (`3k + 1` tiles) and steering to `one_suit` when
    /// given (see [`Table::playout_steered`]).
    pub(crate) fn play_on(
        &self,
        world: &World,
        mine: TileCounts,
        first: usize,
        one_suit: Option<usize>,
    ) -> i64 {
        self.play_from(world, mine, first, one_suit, 0, 0, 0)
    }

    /// [`Table::play_on`] from the wall's tile `start`, the viewer having drawn `draws` times
    /// and barred from winning on a throw of the kinds in `barred` (a bit per kind) until
    /// their next draw (the missed win).
    #[allow(clippy::too_many_arguments)]
    fn play_from(
        &self,
        world: &World,
        mut mine: TileCounts,
        first: usize,
        one_suit: Option<usize>,
        start: usize,
        mut draws: u32,
        mut barred: u64,
    ) -> i64 {
        let n = world.hands.len();
        let me = self.obs.player.index();
        let mut turn = first % n;
        for (i, &t) in world.wall.iter().enumerate().skip(start) {
            if t.is_bonus() {
                // An extra wind: thrown as drawn.
                if turn == me {
                    draws += 1;
                    if draws >= self.horizon {
                        return 0;
                    }
                }
                turn = (turn + 1) % n;
                continue;
            }
            if turn == me {
                // A draw from the live wall restores every passed win.
                barred = 0;
                mine.add(t);
                if self.complete(&mine) {
                    let mut before = mine;
                    before.remove(t);
                    if let Some(v) = self.score(world, me, &mine, &before, t, None) {
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
                if let Some((fed, next)) = self.fed_claim(world, me, d) {
                    return self.play_from(&fed, mine, next, one_suit, i + 1, draws, barred);
                }
            } else {
                let mut h = world.hands[turn];
                h.add(t);
                if self.complete(&h) {
                    if let Some(v) = self.score(world, turn, &mine, &world.hands[turn], t, None) {
                        return v;
                    }
                }
                // They throw what they drew: may the viewer win on it?
                let mut with = mine;
                with.add(t);
                if self.may_win(me, turn) && barred & (1 << t.index()) == 0 && self.complete(&with)
                {
                    if let Some(v) = self.score(world, me, &mine, &mine, t, Some(turn)) {
                        return v;
                    }
                }
            }
            turn = (turn + 1) % n;
        }
        0
    }

    /// Whether `hand` (`3k + 2` playing tiles) is a complete hand: sets and a pair (or the
    /// rule set's other forms), and at six-player classic, where only three pungs and a pair
    /// win, pungs and a pair (without it the playouts there found wins the rule set refuses and
    /// scored nothing, every alternative worth exactly 0).
    pub(crate) fn complete(&self, hand: &TileCounts) -> bool {
        if !analysis::is_win(hand, &self.rules) {
            return false;
        }
        !self.ruleset.config().wins_by_pungs_only() || pungs_and_a_pair(hand)
    }

    /// Whether `hand` (`3k + 1` tiles) of opponent `q` is ready with a win the rule set pays
    /// for (its first winning kind, on the viewer's discard where allowed, else self-drawn).
    /// Always true without a minimum fan.
    pub(crate) fn pays(&self, q: usize, hand: &TileCounts) -> bool {
        if self.ruleset.set().aims().min_fan <= 0 {
            return true;
        }
        let me = self.obs.player.index();
        let Some(t) = (0..crate::tile::KINDS)
            .filter_map(Tile::from_index)
            .find(|&t| {
                let mut h = *hand;
                h.add(t);
                self.complete(&h)
            })
        else {
            return false;
        };
        let mut world = World::nobody(self.obs.table.len());
        world.hands[q] = *hand;
        let from = self.may_win(q, me).then_some(me);
        self.score(&world, q, &self.obs.concealed, hand, t, from)
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
    pub(crate) fn deal_in(
        &self,
        world: &World,
        me: usize,
        mine: &TileCounts,
        t: Tile,
    ) -> Option<i64> {
        let n = world.hands.len();
        for k in 1..n {
            let q = (me + k) % n;
            if !self.may_win(q, me) {
                continue;
            }
            let mut h = world.hands[q];
            h.add(t);
            if self.complete(&h) {
                if let Some(v) = self.score(world, q, mine, &world.hands[q], t, Some(me)) {
                    return Some(v);
                }
            }
        }
        None
    }

    /// The opponent who claims the viewer's discard `t` for a third exposed meld that would
    /// make the viewer pay for their hand, as the rule set's [`FedThirdMeld`] says: under
    /// Yangzhou's 包牌 one with two exposed melds all of `t`'s number suit (or all honours, `t`
    /// an honour) pungs it; under Hangzhou's 三摊承包 one with two melds fed by the viewer pungs
    /// it or, as the viewer's right-hand neighbour, chows it. Only when `world` gives them the
    /// tiles for it. Answers the world after the claim (their meld added, its tiles and the
    /// tile they throw gone from their hand) and the chair whose turn is next. At most once a
    /// playout.
    fn fed_claim(&self, world: &World, me: usize, t: Tile) -> Option<(World, usize)> {
        let rule = self.ruleset.set().aims().fed_third_meld;
        if world.claim.is_some() || rule == FedThirdMeld::Nothing || Some(t) == self.obs.wildcard {
            return None;
        }
        let n = world.hands.len();
        let my_seat = self.obs.table[me].seat;
        let group = |x: Tile| if x.index() < 27 { x.index() / 9 } else { 3 };
        let (q, meld) = (1..n).find_map(|k| {
            let q = (me + k) % n;
            let melds = &self.obs.table[q].melds;
            let hand = &world.hands[q];
            let pung = (hand.get(t) >= 2)
                .then(|| Meld::new(MeldKind::Pung, t))
                .flatten();
            let meld = match rule {
                FedThirdMeld::Nothing => None,
                FedThirdMeld::OneSuitFeederPays => {
                    let exposed = melds.iter().filter(|m| m.from.is_some()).count();
                    let one_group = melds.iter().all(|m| group(m.tile) == group(t));
                    pung.filter(|_| exposed == 2 && one_group)
                }
                FedThirdMeld::ThreeFromOnePays => {
                    let fed = melds.iter().filter(|m| m.from == Some(my_seat)).count();
                    let chow = || (k == 1).then(|| self.chow_of(hand, t)).flatten();
                    pung.or_else(chow).filter(|_| fed == 2)
                }
            }?;
            Some((q, meld))
        })?;
        // Their hand with the discard, less the meld's tiles.
        let mut hand = world.hands[q];
        hand.add(t);
        for (i, c) in super::world::meld_counts(&meld) {
            let x = Tile::from_index(i)?;
            for _ in 0..c {
                hand.remove(x);
            }
        }
        let throw = self.fed_discard(&hand, group(meld.tile))?;
        hand.remove(throw);
        let mut meld = meld;
        meld.from = Some(my_seat);
        meld.claimed = Some(t);
        let mut hands = world.hands.clone();
        hands[q] = hand;
        let fed = World {
            hands,
            wall: world.wall.clone(),
            claim: Some((q, meld)),
            extra: world.extra.clone(),
        };
        Some((fed, (q + 1) % n))
    }

    /// A chow `hand` can make with the discard `t` (number tiles, no wildcard), if any.
    fn chow_of(&self, hand: &TileCounts, t: Tile) -> Option<Meld> {
        if !t.is_numbered() {
            return None;
        }
        let i = t.index();
        let r = i % 9;
        let has = |j: usize| {
            Tile::from_index(j).is_some_and(|x| Some(x) != self.obs.wildcard && hand.get(x) > 0)
        };
        (r.saturating_sub(2)..=r.min(6))
            .map(|s| i - r + s)
            .find(|&lo| (lo..lo + 3).filter(|&j| j != i).all(has))
            .and_then(|lo| Meld::new(MeldKind::Chow, Tile::from_index(lo)?))
    }

    /// What a player who just claimed throws from `hand` (`3k + 2` tiles), collecting `group`
    /// (a number suit, or 3 for honours): a tile that leaves the hand ready if one does, one
    /// outside the group before one in it, never the wildcard.
    fn fed_discard(&self, hand: &TileCounts, group: usize) -> Option<Tile> {
        let mut order: Vec<Tile> = hand
            .iter()
            .map(|(x, _)| x)
            .filter(|&x| Some(x) != self.obs.wildcard)
            .collect();
        let off = |x: &Tile| (if x.index() < 27 { x.index() / 9 } else { 3 }) != group;
        let ready = |x: Tile| {
            let mut h = *hand;
            h.remove(x);
            (0..crate::tile::KINDS)
                .filter_map(Tile::from_index)
                .any(|w| {
                    let mut g = h;
                    g.add(w);
                    self.complete(&g)
                })
        };
        order.sort_by_key(|x| !off(x));
        order
            .iter()
            .copied()
            .find(|&x| ready(x))
            .or_else(|| order.first().copied())
    }

    /// The viewer's payment when `winner` wins with `tile` on a hand of `concealed` (without
    /// the tile), by self-draw or on `discarder`'s discard, in `world` (its concealed hands and
    /// the meld a playout gave); `mine` is the viewer's hand then. `None` when the rule set
    /// refuses the win (below the minimum, a win it forbids).
    pub(crate) fn score(
        &self,
        world: &World,
        winner: usize,
        mine: &TileCounts,
        concealed: &TileCounts,
        tile: Tile,
        discarder: Option<usize>,
    ) -> Option<i64> {
        let hands = &world.hands;
        let obs = self.obs;
        let me = obs.player.index();
        let seat = |p: usize| obs.table.get(p).map_or(Seat::East, |h| h.seat);
        let hand_of = |p: usize| if p == me { *mine } else { hands[p] };
        let melds_of = |p: usize| {
            let mut melds = obs.table[p].melds.clone();
            if let Some((_, m)) = world.claim.as_ref().filter(|(q, _)| *q == p) {
                melds.push(*m);
            }
            melds
        };
        // Flowers laid out, and the extra winds held concealed (scored as the engine passes
        // them: in `flowers`).
        let flowers_of = |p: usize| {
            let mut flowers = obs.table[p].flowers.clone();
            if p == me {
                flowers.extend(&obs.extra_winds);
            } else {
                let held = world.extra.get(p).copied().unwrap_or(0);
                flowers.extend((0..held).filter_map(|i| Tile::from_index(KINDS + usize::from(i))));
            }
            flowers
        };
        let n = hands.len();
        let mut others = BTreeMap::new();
        for k in 1..n {
            let q = (winner + k) % n;
            let public = &obs.table[q];
            others.insert(
                public.seat,
                OtherHand {
                    concealed: hand_of(q),
                    melds: melds_of(q),
                    flowers: flowers_of(q),
                },
            );
        }
        let public = &obs.table[winner];
        let self_draw = discarder.is_none();
        let situation = WinSituation {
            concealed: *concealed,
            melds: melds_of(winner),
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
            flowers: flowers_of(winner),
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

/// Whether `hand` is pungs and exactly one pair (no wildcards: classic has none).
fn pungs_and_a_pair(hand: &TileCounts) -> bool {
    let mut pairs = 0;
    for (_, n) in hand.iter() {
        match n {
            3 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    pairs == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Game, HandSetup, Player};
    use std::sync::Arc;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    fn counts(s: &str) -> TileCounts {
        TileCounts::parse(s).unwrap()
    }

    /// The viewer (chair 0) of a `rules` table where chair 1 shows pungs of 1s and 9s, claimed
    /// from chairs 2 and 3, and holds seven tiles.
    fn observation(rules: &Arc<TableRules>) -> Observation {
        let (game, _) = Game::new(rules.clone(), HandSetup::new(1)).unwrap();
        let mut obs = game.observation(Player(0));
        obs.concealed = counts("123m789m456p5s1z1z2z3z");
        let pung = |tile: &str, from: usize| {
            let mut m = Meld::new(MeldKind::Pung, t(tile)).unwrap();
            m.from = Some(obs.table[from].seat);
            m
        };
        obs.table[1].melds = vec![pung("1s", 2), pung("9s", 3)];
        obs.table[1].concealed_count = 7;
        obs
    }

    /// A world where chair 1 holds `theirs`, the others junk, and chair 1's first draw after
    /// a pung off the viewer is 8s.
    fn world(theirs: &str) -> World {
        let junk = counts("1m4m7m1p4p7p1z2z3z4z5z6z7z");
        World {
            hands: vec![counts("123m789m456p1z1z2z3z"), counts(theirs), junk, junk],
            wall: vec![t("9m"), t("9p"), t("4z"), t("8s"), t("5z"), t("6z")],
            claim: None,
            extra: vec![0; 4],
        }
    }

    fn with<R>(rules: &Arc<TableRules>, f: impl FnOnce(&Table) -> R) -> R {
        let obs = observation(rules);
        let planner = Planner::new(rules.clone(), &obs);
        let table = Table {
            ruleset: rules,
            obs: &obs,
            rules: rules.hand_rules(obs.wildcard),
            planner: &planner,
            horizon: 8,
        };
        f(&table)
    }

    #[test]
    fn a_passed_win_forfeits_the_same_kind_until_the_viewers_next_draw_in_hong_kong() {
        // The viewer waits on 4p-7p; chair 1 draws and throws a 7p straight after the viewer
        // passed a win on 7p, before the viewer draws again.
        let obs_hand = counts("123m789m56p1z1z2z2z2z");
        let w = World {
            hands: vec![
                obs_hand,
                counts("1m4m7m1p4p7p3s6s3z4z5z6z7z"),
                counts("1m4m7m1p4p7p3s6s3z4z5z6z7z"),
                counts("1m4m7m1p4p7p3s6s3z4z5z6z7z"),
            ],
            wall: vec![t("7p"), t("9s"), t("9s"), t("9s")],
            claim: None,
            extra: vec![0; 4],
        };
        for (options, barred) in [
            (serde_json::json!({"min_fan": 0}), true),
            (
                serde_json::json!({"min_fan": 0, "missed_win": false}),
                false,
            ),
        ] {
            let rules =
                Arc::new(TableRules::from_name("hongkong", options.as_object().unwrap()).unwrap());
            with(&rules, |table| {
                let free = table.play_on(&w, obs_hand, 1, None);
                let after_pass = table.play_on_after_passing(&w, obs_hand, 1, t("7p"));
                assert!(free > 0, "the viewer wins on chair 1's 7p: {free}");
                if barred {
                    assert!(
                        after_pass <= 0,
                        "passing 7p forfeits the next 7p: {after_pass}"
                    );
                } else {
                    assert_eq!(after_pass, free, "no missed win: nothing forfeited");
                }
                // A pass on another kind forfeits nothing.
                assert_eq!(table.play_on_after_passing(&w, obs_hand, 1, t("4p")), free);
            });
        }
    }

    #[test]
    fn feeding_a_one_suit_hands_third_meld_costs_the_whole_hand_in_yangzhou() {
        let rules = Arc::new(TableRules::from_name("yangzhou", &serde_json::Map::new()).unwrap());
        with(&rules, |table| {
            let w = world("55s2s3s4s7s8s");
            // The pung of 5s: their third exposed meld, from the viewer; they throw 7s and
            // wait on 8s with 2s3s4s.
            let (fed, next) = table.fed_claim(&w, 0, t("5s")).unwrap();
            assert_eq!(next, 2);
            let (q, meld) = fed.claim.unwrap();
            assert_eq!((q, meld.kind, meld.tile), (1, MeldKind::Pung, t("5s")));
            assert_eq!(meld.from, Some(table.obs.table[0].seat));
            assert_eq!(fed.hands[1], counts("2s3s4s8s"));
            // They draw the 8s: a full flush, 包牌 — the viewer pays all three shares.
            let v = table.playout(&w, &table.obs.concealed, t("5s"));
            assert!(v <= -3 * 60, "the viewer paid {v}");
            // Throwing another tile feeds nothing.
            assert!(table.fed_claim(&w, 0, t("5m")).is_none());
            assert!(table.playout(&w, &table.obs.concealed, t("3z")) > -60);
            // Without a pair of 5s they cannot pung.
            assert!(
                table
                    .fed_claim(&world("5s2s3s4s7s8s9s"), 0, t("5s"))
                    .is_none()
            );
        });
        // Hong Kong has no 包牌 of the third meld: nobody pungs in its playouts.
        let hk = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
        with(&hk, |table| {
            assert!(
                table
                    .fed_claim(&world("55s2s3s4s7s8s"), 0, t("5s"))
                    .is_none()
            );
        });
    }

    #[test]
    fn feeding_a_third_meld_in_hangzhou_is_claimed_by_pung_or_by_the_next_seats_chow() {
        let rules = Arc::new(TableRules::from_name("hangzhou", &serde_json::Map::new()).unwrap());
        let mut obs = observation(&rules);
        let me = obs.table[0].seat;
        for m in &mut obs.table[1].melds {
            m.from = Some(me);
        }
        let planner = Planner::new(rules.clone(), &obs);
        let table = Table {
            ruleset: &rules,
            obs: &obs,
            rules: rules.hand_rules(obs.wildcard),
            planner: &planner,
            horizon: 8,
        };
        // Two melds fed by the viewer: a pair of 5s pungs it, 4s6s chows it (chair 1 sits
        // after the viewer), and the claim is the third meld from the viewer.
        let (fed, _) = table
            .fed_claim(&world("55s2s3s4s7s8s"), 0, t("5s"))
            .unwrap();
        let (_, pung) = fed.claim.unwrap();
        assert_eq!(
            (pung.kind, pung.tile, pung.from),
            (MeldKind::Pung, t("5s"), Some(me))
        );
        let (fed, _) = table
            .fed_claim(&world("4s6s1m2m3m8p9p"), 0, t("5s"))
            .unwrap();
        let (q, chow) = fed.claim.unwrap();
        assert_eq!((q, chow.kind, chow.tile), (1, MeldKind::Chow, t("4s")));
        assert_eq!(
            fed.hands[1].iter().map(|(_, c)| c as usize).sum::<usize>(),
            4
        );
        // Nothing to claim it with: no meld.
        assert!(
            table
                .fed_claim(&world("1m2m3m8p9p1z1z"), 0, t("5s"))
                .is_none()
        );
        // Melds fed by someone else: the viewer's discard is no third meld of theirs.
        let other = observation(&rules);
        let planner = Planner::new(rules.clone(), &other);
        let table = Table {
            ruleset: &rules,
            obs: &other,
            rules: rules.hand_rules(other.wildcard),
            planner: &planner,
            horizon: 8,
        };
        assert!(
            table
                .fed_claim(&world("55s2s3s4s7s8s"), 0, t("5s"))
                .is_none()
        );
    }
}
