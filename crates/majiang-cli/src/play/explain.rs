//! Why a won hand paid what it paid: the win is scored again through the rule set's scorer from
//! the finished hand, and its itemised payments (each with its reason: classic losers' own
//! points, Hangzhou's three-meld penalty, Hong Kong's fan → points) are shown, but only when
//! they add up to exactly what the hand paid. The hand's events do not carry the itemised list,
//! and a circumstance the table does not show afterwards (a chain of kongs) could change it, so
//! a list that would not agree is left out rather than shown wrong.

use majiang::counts::TileCounts;
use majiang::scoring::{Circumstances, OtherHand, Payment, WinKind, WinSituation};
use majiang::seat::Seat;
use majiang::table::{Game, Player};
use majiang::tile::Tile;
use std::collections::BTreeMap;

/// A won hand as the summary knows it.
pub struct Win<'a> {
    /// The winner.
    pub winner: Player,
    /// How the hand was won.
    pub win: WinKind,
    /// The discarder or robbed player.
    pub discarder: Option<Player>,
    /// The winning tile.
    pub tile: Tile,
    /// The winner's concealed tiles with the winning tile, as revealed.
    pub hand: &'a [Tile],
    /// The winning tile was a replacement (after a kong or a flower).
    pub replacement: bool,
    /// What the hand paid, by chair.
    pub payments: &'a [i64],
}

/// The payments one by one with their reasons, if scoring the finished hand again gives
/// exactly the payments the hand made.
pub fn itemised(game: &Game, w: &Win) -> Option<Vec<Payment>> {
    let rules = game.ruleset();
    let seat = game.seat_of(w.winner);
    let self_draw = w.win == WinKind::SelfDraw;
    let mut concealed = TileCounts::EMPTY;
    let mut flowers = game.flowers(w.winner).to_vec();
    let mut skipped = false;
    for &t in w.hand {
        if t == w.tile && !skipped {
            skipped = true;
        } else if t.is_bonus() {
            flowers.push(t);
        } else {
            concealed.add(t);
        }
    }
    let dealer = game.dealer();
    let n = game.players();
    let players = (0..n).map(|i| Player(i as u8));
    let no_melds = players.clone().all(|q| game.melds(q).is_empty());
    let last = game.live_remaining() == 0;
    let circumstances = Circumstances {
        last_wall_tile: self_draw && last,
        last_discard: w.win == WinKind::Discard && last,
        kong_replacement: self_draw && w.replacement,
        heavenly: self_draw
            && w.winner == dealer
            && players.clone().all(|q| game.discards(q).is_empty()),
        earthly: w.win == WinKind::Discard
            && w.discarder == Some(dealer)
            && w.winner != dealer
            && no_melds
            && game.discards(dealer).len() == 1
            && players.clone().all(|q| game.discards(q).len() <= 1),
    };
    let others: BTreeMap<Seat, OtherHand> = players
        .clone()
        .filter(|&q| q != w.winner)
        .map(|q| {
            let robbed = w.win == WinKind::RobbingKong && Some(q) == w.discarder;
            let mut c = *game.concealed(q);
            if robbed && !w.tile.is_bonus() {
                c.remove(w.tile);
            }
            let mut fl = game.flowers(q).to_vec();
            fl.extend(
                game.extra_winds(q)
                    .tiles()
                    .filter(|&t| !(robbed && t == w.tile)),
            );
            (
                game.seat_of(q),
                OtherHand {
                    concealed: c,
                    melds: game.melds(q).to_vec(),
                    flowers: fl,
                },
            )
        })
        .collect();
    let situation = WinSituation {
        concealed,
        melds: game.melds(w.winner).to_vec(),
        winning_tile: w.tile,
        win: w.win,
        discarder: w.discarder.map(|d| game.seat_of(d)),
        seat,
        dealer: Seat::East,
        prevailing_wind: game.setup().prevailing_wind,
        flowers,
        circumstances,
        kong_chain: 0,
        gambits: if self_draw {
            game.gambit_run(w.winner)
        } else {
            0
        },
        lao: game.setup().lao,
        wildcard: if rules.config().fortune_gambit {
            game.wildcard()
        } else {
            None
        },
        balances: game.setup().balances.as_ref().map(|b| {
            b.iter()
                .enumerate()
                .map(|(i, &x)| (game.seat_of(Player(i as u8)), x))
                .collect()
        }),
        others,
        seats: rules.seats().to_vec(),
    };
    let scored = rules.score(&situation).ok()?;
    let by_chair: Vec<i64> = (0..n)
        .map(|i| {
            let s = game.seat_of(Player(i as u8));
            scored.payments.get(&s).copied().unwrap_or(0)
        })
        .collect();
    (by_chair == w.payments && !scored.itemised.is_empty()).then_some(scored.itemised)
}
