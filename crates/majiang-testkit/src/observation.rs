//! The observation model: what one seat can rebuild of the table from the events as it sees
//! them, and the check that the engine's observation shows exactly that, no more and no less.
//!
//! Bonus tiles are handled both ways the engine uses them: as flowers (drawn, then declared
//! and set aside at once) and as the extra winds of five- and six-player classic tables (held,
//! discarded, punged, konged, won with). A seat's own bonus tiles are kept as an
//! [`ExtraWinds`] set; an extra-wind set takes its tiles by the engine's documented rule (the
//! tile the action names, then the lowest; `docs/rules/classic.md`).

use majiang::scoring::WinKind;
use majiang::table::{
    Action, DiscardRecord, Event, ExtraWinds, Game, KongKind, Observation, Player,
};
use majiang::{Meld, MeldKind, Tile, TileCounts};
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// One seat's rebuilt view of the table.
pub struct SeatView {
    viewer: Player,
    own: TileCounts,
    own_bonus: ExtraWinds,
    counts: Vec<i32>,
    melds: Vec<Vec<Meld>>,
    flowers: Vec<Vec<Tile>>,
    discards: Vec<Vec<DiscardRecord>>,
    /// An added kong waits for the next event: robbed, the pung stays a pung.
    pending_added: Option<(Player, Tile)>,
}

impl SeatView {
    /// The view of `viewer` at a table of `players`, before the deal.
    pub fn new(viewer: Player, players: usize) -> SeatView {
        SeatView {
            viewer,
            own: TileCounts::EMPTY,
            own_bonus: ExtraWinds::EMPTY,
            counts: vec![0; players],
            melds: vec![Vec::new(); players],
            flowers: vec![Vec::new(); players],
            discards: vec![Vec::new(); players],
            pending_added: None,
        }
    }

    /// The seat this view belongs to.
    pub fn viewer(&self) -> Player {
        self.viewer
    }

    fn gain(&mut self, p: Player, tile: Option<Tile>) {
        self.counts[p.index()] += 1;
        if p == self.viewer {
            let t = tile.expect("own tiles are shown");
            if t.is_bonus() {
                self.own_bonus.insert(t);
            } else {
                self.own.add(t);
            }
        }
    }

    fn lose(&mut self, p: Player, t: Tile, k: u8) {
        self.counts[p.index()] -= i32::from(k);
        if p == self.viewer {
            if t.is_bonus() {
                assert_eq!(self.own_bonus.take(t, k).len(), k, "{p} lost {k} × {t}");
            } else {
                for _ in 0..k {
                    assert!(self.own.remove(t), "{p} lost a {t} they did not hold");
                }
            }
        }
    }

    /// Takes in one event of the hand, as the engine sent it (this applies the viewer's
    /// [`Event::seen_by`] and checks that another seat's tiles are hidden).
    pub fn see(&mut self, event: &Event) {
        let v = self.viewer;
        let e = &event.seen_by(v);
        if let Some((p, t)) = self.pending_added.take() {
            if !matches!(e, Event::KongRobbed { .. }) {
                self.lose(p, t, 1);
                let m = self.melds[p.index()]
                    .iter_mut()
                    .find(|m| {
                        m.kind == MeldKind::Pung
                            && (m.tile == t || m.tile.is_bonus() && t.is_bonus())
                    })
                    .expect("an added kong extends a pung");
                m.kind = MeldKind::Kong;
                m.tile = m.tile.min(t);
                if t.is_bonus() {
                    m.extra_winds.insert(t);
                }
            }
        }
        match e {
            Event::TilesDealt {
                player,
                tiles,
                count,
            } => {
                assert_eq!(tiles.is_some(), *player == v, "{e:?} seen by {v}");
                for i in 0..usize::from(*count) {
                    self.gain(*player, tiles.as_ref().map(|t| t[i]));
                }
            }
            Event::Drew { player, tile } | Event::ReplacementDrawn { player, tile } => {
                assert_eq!(tile.is_some(), *player == v, "{e:?} seen by {v}");
                self.gain(*player, *tile);
            }
            Event::FlowerDeclared { player, tile } => {
                self.lose(*player, *tile, 1);
                self.flowers[player.index()].push(*tile);
            }
            Event::Discarded {
                player,
                tile,
                gambit,
                ..
            } => {
                self.lose(*player, *tile, 1);
                self.discards[player.index()].push(DiscardRecord {
                    tile: *tile,
                    claimed: false,
                    gambit: *gambit,
                });
            }
            Event::Claimed {
                player,
                from,
                tile,
                meld,
            } => {
                self.discards[from.index()]
                    .last_mut()
                    .expect("a claim takes a discard")
                    .claimed = true;
                if tile.is_bonus() {
                    let held = u8::try_from(meld.kind.size() - 1).expect("a set is small");
                    self.lose(*player, *tile, held);
                } else {
                    let mut tiles = meld.tiles();
                    let i = tiles
                        .iter()
                        .position(|x| x == tile)
                        .expect("the claimed tile is in the meld");
                    tiles.remove(i);
                    for t in tiles {
                        self.lose(*player, t, 1);
                    }
                }
                self.melds[player.index()].push(*meld);
            }
            Event::KongDeclared { player, kind, tile } => match kind {
                KongKind::Concealed => {
                    self.lose(*player, *tile, 4);
                    // Kongs of extra winds exist only at five players: all four, 1f–4f.
                    let mut extra_winds = ExtraWinds::EMPTY;
                    if tile.is_bonus() {
                        for f in ["1f", "2f", "3f", "4f"] {
                            extra_winds.insert(f.parse().expect("a tile"));
                        }
                    }
                    self.melds[player.index()].push(Meld {
                        kind: MeldKind::ConcealedKong,
                        tile: *tile,
                        from: None,
                        claimed: None,
                        extra_winds,
                    });
                }
                KongKind::Added => self.pending_added = Some((*player, *tile)),
                KongKind::Exposed => {}
            },
            Event::KongRobbed { from, tile, .. } => self.lose(*from, *tile, 1),
            Event::Won {
                player,
                win,
                discarder,
                tile,
                ..
            } => {
                if *win == WinKind::Discard {
                    let d = discarder.expect("a discard win names the discarder");
                    self.discards[d.index()]
                        .last_mut()
                        .expect("a discard win takes a discard")
                        .claimed = true;
                }
                if *win != WinKind::SelfDraw {
                    self.gain(*player, Some(*tile));
                }
            }
            _ => {}
        }
    }

    /// Asserts that `obs` (the engine's observation for this view's seat) shows exactly what
    /// the events revealed: the seat's own tiles and extra winds, and for every seat its
    /// number of concealed tiles, melds, flowers and discards. `context` names the hand in a
    /// failure.
    pub fn assert_matches(&self, obs: &Observation, context: &str) {
        let v = self.viewer;
        assert_eq!(obs.player, v, "{context}");
        assert_eq!(obs.concealed, self.own, "{context}: {v}'s concealed tiles");
        assert_eq!(
            obs.extra_winds,
            self.own_bonus.tiles().collect::<Vec<_>>(),
            "{context}: {v}'s extra winds"
        );
        assert_eq!(obs.table.len(), self.counts.len(), "{context}: seats");
        for (q, public) in obs.table.iter().enumerate() {
            let who = format!("{context}: chair {q} seen by {v}");
            assert_eq!(
                i32::from(public.concealed_count),
                self.counts[q],
                "{who}: concealed count"
            );
            assert_eq!(public.melds, self.melds[q], "{who}: melds");
            assert_eq!(public.flowers, self.flowers[q], "{who}: flowers");
            assert_eq!(public.discards, self.discards[q], "{who}: discards");
        }
    }
}

/// How a random player picks among the legal actions of the seat chosen to act.
pub type Choose<'a> = dyn FnMut(&Game, Player, &[Action], &mut ChaCha8Rng) -> Action + 'a;

/// Plays `game` (just dealt, `dealt` its opening events) to its end, a random seat among
/// those to act choosing by `choose`, and after every step checks every seat's observation
/// against the view that seat rebuilt from the events. `context` names the hand in a failure.
pub fn assert_views_follow_the_events(
    mut game: Game,
    dealt: Vec<Event>,
    rng: &mut ChaCha8Rng,
    choose: &mut Choose<'_>,
    context: &str,
) {
    let n = game.players();
    let mut views: Vec<SeatView> = (0..n)
        .map(|v| SeatView::new(Player(u8::try_from(v).expect("a few seats")), n))
        .collect();
    let mut batch = dealt;
    loop {
        for view in &mut views {
            for e in &batch {
                view.see(e);
            }
            view.assert_matches(&game.observation(view.viewer()), context);
        }
        if game.is_over() {
            break;
        }
        let actors: Vec<Player> = game.to_act().collect();
        let p = *actors.choose(rng).expect("someone acts in a hand not over");
        let legal = game.legal_actions(p);
        let a = choose(&game, p, &legal, rng);
        batch = game
            .apply(p, a)
            .unwrap_or_else(|e| panic!("{context}: {p} {a}: {e}"));
    }
}
