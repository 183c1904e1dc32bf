//! Building a player's [`Observation`] into a reused buffer (no allocation once it has grown).

use crate::counts::TileCounts;
use crate::seat::Seat;
use crate::table::{Action, Game, Observation, Player, PublicHand};
use crate::tile::Wind;

/// An observation with nothing in it, to be filled by [`observe_into`].
pub(crate) fn empty_observation() -> Observation {
    Observation {
        player: Player(0),
        seat: Seat::East,
        dealer: Player(0),
        prevailing_wind: Wind::East,
        lao: 1,
        concealed: TileCounts::EMPTY,
        extra_winds: Vec::new(),
        drawn: None,
        table: Vec::new(),
        live_wall: 0,
        wildcard: None,
        indicator: None,
        gambit_round: false,
        wildcard_discard_is_gambit: false,
        on_offer: None,
        last_discard: None,
        turn: None,
        legal_actions: Vec::new(),
        missed_wins: Vec::new(),
    }
}

/// Fills `obs` with what player `p` may see now, as [`Game::observation`] does, reusing the
/// buffers of `obs`; `legal` is taken as `p`'s legal actions (from
/// [`Game::legal_actions_into`]). `p` must be at the table.
pub fn observe_into(game: &Game, p: Player, legal: &[Action], obs: &mut Observation) {
    let n = game.players();
    obs.player = p;
    obs.seat = game.seat_of(p);
    obs.dealer = game.dealer();
    obs.prevailing_wind = game.setup().prevailing_wind;
    obs.lao = game.setup().lao;
    obs.concealed = *game.concealed(p);
    obs.extra_winds.clear();
    obs.extra_winds.extend(game.extra_winds(p).tiles());
    obs.drawn = if game.turn() == Some(p) {
        game.drawn()
    } else {
        None
    };
    obs.table.truncate(n);
    for i in 0..n {
        let q = Player(i as u8);
        if obs.table.len() <= i {
            obs.table.push(PublicHand {
                player: q,
                seat: Seat::East,
                melds: Vec::new(),
                flowers: Vec::new(),
                discards: Vec::new(),
                concealed_count: 0,
                gambit_run: 0,
            });
        }
        let h = &mut obs.table[i];
        h.player = q;
        h.seat = game.seat_of(q);
        h.melds.clear();
        h.melds.extend_from_slice(game.melds(q));
        h.flowers.clear();
        h.flowers.extend_from_slice(game.flowers(q));
        h.discards.clear();
        h.discards.extend_from_slice(game.discards(q));
        h.concealed_count =
            (game.concealed(q).len() + usize::from(game.extra_winds(q).len())) as u8;
        h.gambit_run = game.gambit_run(q);
    }
    obs.live_wall = game.live_remaining();
    obs.wildcard = game.wildcard();
    obs.indicator = game.indicator();
    obs.gambit_round = game.gambit_round().is_some();
    obs.wildcard_discard_is_gambit = match game.wildcard() {
        Some(w) => game.concealed(p).get(w) > 0 && game.is_gambit_discard(p, w),
        None => false,
    };
    obs.on_offer = game.on_offer();
    obs.last_discard = game.last_discard();
    obs.turn = game.turn();
    obs.legal_actions.clear();
    obs.legal_actions.extend_from_slice(legal);
    game.missed_wins_into(p, &mut obs.missed_wins);
}
