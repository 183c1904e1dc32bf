//! Numbers for learners: every [`Action`] as an index into a fixed action space, and a seat's
//! [`Observation`] as a block of `uint8` planes, 42 columns wide (one per tile kind: the 34
//! playing kinds, then the 8 bonus tiles, flowers or extra winds).
//!
//! Everything here reads only an [`Observation`], so an encoded observation holds nothing that
//! seat may not see.

use majiang::meld::MeldKind;
use majiang::table::{Action, Observation, Player};
use majiang::tile::Tile;

/// Tile kinds, bonus tiles included: the width of every plane.
pub const TILE_KINDS: usize = 42;

/// First index of `Discard(tile)`: `DISCARD + tile.index()`.
pub const DISCARD: usize = 0;
/// First index of `ConcealedKong(tile)`.
pub const CONCEALED_KONG: usize = DISCARD + TILE_KINDS;
/// First index of `AddedKong(tile)`.
pub const ADDED_KONG: usize = CONCEALED_KONG + TILE_KINDS;
/// First index of a chow, by its lowest tile (one of the 27 suited kinds).
pub const CHOW: usize = ADDED_KONG + TILE_KINDS;
/// Suited kinds a chow may start from (the index leaves 8m/9m etc. unused).
const SUITED: usize = 27;
/// `Pung`.
pub const PUNG: usize = CHOW + SUITED;
/// `Kong` (exposed, on a discard).
pub const KONG: usize = PUNG + 1;
/// `Win`.
pub const WIN: usize = KONG + 1;
/// `Pass`.
pub const PASS: usize = WIN + 1;
/// Size of the action space.
pub const ACTIONS: usize = PASS + 1;

/// Planes that do not depend on the table size: own hand, drawn tile, and the five rows after
/// the per-seat blocks (wildcard, indicator, tile on offer, last discard, scalars).
const FIXED_PLANES: usize = 7;
/// Planes per seat: exposed melds, concealed kongs, discards, flowers.
const SEAT_PLANES: usize = 4;

/// Rows of an encoded observation at a table of `players`.
pub const fn planes(players: usize) -> usize {
    FIXED_PLANES + SEAT_PLANES * players
}

/// The index of an action, or `None` for an action outside the space (a chow not starting on
/// a suited kind cannot happen: the engine builds chows of three suited tiles in a row).
pub fn encode_action(action: &Action) -> Option<usize> {
    Some(match *action {
        Action::Discard(t) => DISCARD + t.index(),
        Action::ConcealedKong(t) => CONCEALED_KONG + t.index(),
        Action::AddedKong(t) => ADDED_KONG + t.index(),
        Action::Chow { tiles } => {
            let low = tiles[0].index();
            if low >= SUITED {
                return None;
            }
            CHOW + low
        }
        Action::Pung => PUNG,
        Action::Kong => KONG,
        Action::Win => WIN,
        Action::Pass => PASS,
    })
}

/// The action with index `code`, or `None` for an index outside the space or a chow that is not
/// three tiles in a row of one suit.
pub fn decode_action(code: usize) -> Option<Action> {
    let tile = |i: usize| Tile::from_index(i);
    Some(match code {
        c if c < CONCEALED_KONG => Action::Discard(tile(c - DISCARD)?),
        c if c < ADDED_KONG => Action::ConcealedKong(tile(c - CONCEALED_KONG)?),
        c if c < CHOW => Action::AddedKong(tile(c - ADDED_KONG)?),
        c if c < PUNG => {
            let low = c - CHOW;
            // Ranks 8 and 9 start no chow.
            if low % 9 > 6 {
                return None;
            }
            Action::Chow {
                tiles: [tile(low)?, tile(low + 1)?, tile(low + 2)?],
            }
        }
        PUNG => Action::Pung,
        KONG => Action::Kong,
        WIN => Action::Win,
        PASS => Action::Pass,
        _ => return None,
    })
}

/// Chair `q` counted from the viewer `p` in turn order (0 = the viewer, 1 = the next to play).
fn relative(p: Player, q: Player, players: usize) -> usize {
    (q.index() + players - p.index()) % players
}

/// Writes `obs` into `out` (`planes(players) * 42` bytes, every byte written) and its legal
/// actions into `mask` (`ACTIONS` bytes, 1 where legal).
///
/// Layout (rows of 42 tile kinds; seats counted from the viewer in turn order, `k = 0` the
/// viewer, `n` = players):
///
/// - row 0: own concealed tiles (counts; extra winds at their bonus index)
/// - row 1: the tile just drawn (one-hot; zero when not on turn after a draw)
/// - rows `2 + 4k ..= 5 + 4k` for seat `k`: exposed meld tiles (chows, pungs, exposed and
///   added kongs; counts), concealed kong tiles, discards (all ever made, claimed ones too;
///   counts), flowers and seasons laid out (one-hot)
/// - row `2 + 4n`: the wild kind (one-hot); `3 + 4n`: the indicator (one-hot);
///   `4 + 4n`: the tile on offer (one-hot); `5 + 4n`: the latest discard (one-hot)
/// - row `6 + 4n`, scalars by column: 0 live wall left, 1 dealer's lao, 2 prevailing wind
///   (0–3 E S W N), 3 own seat (its place in the rule set's seat order), 4 dealer (relative),
///   5 player on turn (relative; `n` if none), 6 the offer's discarder (relative; `n` if none),
///   7 a Fortune Gambit round is open, 8 discarding a wildcard now is a gambit, 9 the latest
///   discard's discarder (relative; `n` if none), `10 + k` concealed tile count of seat `k`,
///   `10 + n + k` Fortune Gambit run of seat `k`; the rest 0.
pub fn encode_observation(
    obs: &Observation,
    seats: &[majiang::Seat],
    out: &mut [u8],
    mask: &mut [u8],
) {
    let n = obs.table.len();
    let p = obs.player;
    out.fill(0);
    mask.fill(0);
    fn add(out: &mut [u8], i: usize, v: u8) {
        out[i] = out[i].saturating_add(v);
    }
    let row = |r: usize| r * TILE_KINDS;
    out[..obs.concealed.0.len()].copy_from_slice(&obs.concealed.0);
    for t in &obs.extra_winds {
        add(out, t.index(), 1);
    }
    if let Some(t) = obs.drawn {
        out[row(1) + t.index()] = 1;
    }
    for hand in &obs.table {
        let k = relative(p, hand.player, n);
        let base = 2 + SEAT_PLANES * k;
        for m in &hand.melds {
            let r = if m.kind == MeldKind::ConcealedKong {
                base + 1
            } else {
                base
            };
            let at = row(r) + m.tile.index();
            // Chows are three kinds in a row; pungs and kongs several copies of one kind.
            match m.kind {
                MeldKind::Chow => (at..at + 3).for_each(|i| add(out, i, 1)),
                kind => add(out, at, kind.size() as u8),
            }
        }
        let discards = row(base + 2);
        for d in &hand.discards {
            add(out, discards + d.tile.index(), 1);
        }
        for t in &hand.flowers {
            out[row(base + 3) + t.index()] = 1;
        }
    }
    let tail = 2 + SEAT_PLANES * n;
    let mut one_hot = |r: usize, t: Option<Tile>| {
        if let Some(t) = t {
            out[row(r) + t.index()] = 1;
        }
    };
    one_hot(tail, obs.wildcard);
    one_hot(tail + 1, obs.indicator);
    one_hot(tail + 2, obs.on_offer.map(|(_, t)| t));
    one_hot(tail + 3, obs.last_discard.map(|(_, t)| t));
    let s = row(tail + 4);
    let rel = |q: Option<Player>| q.map_or(n, |q| relative(p, q, n)) as u8;
    let scalars = [
        u8::try_from(obs.live_wall).unwrap_or(u8::MAX),
        obs.lao,
        obs.prevailing_wind as u8,
        seats.iter().position(|&x| x == obs.seat).unwrap_or(0) as u8,
        rel(Some(obs.dealer)),
        rel(obs.turn),
        rel(obs.on_offer.map(|(q, _)| q)),
        u8::from(obs.gambit_round),
        u8::from(obs.wildcard_discard_is_gambit),
        rel(obs.last_discard.map(|(q, _)| q)),
    ];
    out[s..s + scalars.len()].copy_from_slice(&scalars);
    for hand in &obs.table {
        let k = relative(p, hand.player, n);
        out[s + 10 + k] = hand.concealed_count;
        out[s + 10 + n + k] = hand.gambit_run;
    }
    for a in &obs.legal_actions {
        if let Some(i) = encode_action(a) {
            mask[i] = 1;
        }
    }
}
