//! Numbers for learners: every [`Action`] as an index into a dense action space laid out for
//! the table ([`ActionLayout`]), and a seat's [`Observation`] as a block of `uint8` planes, 42
//! columns wide (one per tile kind: the 34 playing kinds, then the 8 bonus tiles, flowers or
//! extra winds).
//!
//! Everything here reads only what one seat may see (a [`View`]: its [`Observation`], or the
//! game read for that seat without copying it, `crate::view::GameView`), so an encoded
//! observation holds nothing that seat may not see.

use crate::view::View;
use majiang::meld::MeldKind;
use majiang::table::{Action, Observation, Player, TableConfig};
use majiang::tile::{Suit, Tile};

/// Tile kinds, bonus tiles included: the width of every plane (the view counts discards by
/// kind in rows of this width).
pub use crate::view::TILE_KINDS;
/// Playing kinds (no bonus tiles).
const PLAYING: usize = 34;
/// Chows by their lowest tile: three suits, ranks 1 to 7.
const CHOWS: usize = 21;

/// The action numbers of one kind of table: dense, every number is an action some state of
/// that table offers. In order, each section present only when the table has it:
///
/// - discards: one per playing kind, then one per extra-wind tile (five and six players);
/// - concealed kongs (tables with kongs): one per playing kind, then one for the extra winds at
///   five players (all four, named by `1f`);
/// - added kongs (tables with kongs): one per playing kind, then one per extra-wind tile;
/// - chows (tables with chows): 21, by the lowest tile (`1m`..`7m`, `1p`..`7p`, `1s`..`7s`);
/// - pung; kong (tables with kongs); win; pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionLayout {
    /// Extra-wind tiles in play (0, 4 or 8).
    extra: usize,
    kongs: bool,
    chows: bool,
    /// The sections' ranges, worked out once (every action encoded reads them).
    sections: Sections,
}

/// The sections of an [`ActionLayout`] as number ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sections {
    discard: usize,
    concealed_kong: usize,
    added_kong: usize,
    chow: usize,
    pung: usize,
    kong: Option<usize>,
    win: usize,
    pass: usize,
}

impl ActionLayout {
    /// The layout of tables of `config`.
    pub fn new(config: &TableConfig) -> ActionLayout {
        let mut layout = ActionLayout {
            extra: usize::from(config.extra_winds()),
            kongs: config.kongs_allowed,
            chows: config.chow_allowed,
            sections: Sections {
                discard: 0,
                concealed_kong: 0,
                added_kong: 0,
                chow: 0,
                pung: 0,
                kong: None,
                win: 0,
                pass: 0,
            },
        };
        layout.sections = layout.work_out_sections();
        layout
    }

    fn sections(&self) -> Sections {
        self.sections
    }

    /// Concealed kongs of extra winds: one (all four, at five players) when there are kongs.
    fn extra_concealed_kongs(&self) -> usize {
        usize::from(self.kongs && self.extra > 0)
    }

    fn work_out_sections(&self) -> Sections {
        let discard = 0;
        let concealed_kong = discard + PLAYING + self.extra;
        let kong_kinds = if self.kongs {
            2 * PLAYING + self.extra
        } else {
            0
        };
        let added_kong = concealed_kong
            + if self.kongs {
                PLAYING + self.extra_concealed_kongs()
            } else {
                0
            };
        let chow = concealed_kong + kong_kinds + self.extra_concealed_kongs();
        let pung = chow + if self.chows { CHOWS } else { 0 };
        let kong = self.kongs.then_some(pung + 1);
        let win = pung + 1 + usize::from(self.kongs);
        Sections {
            discard,
            concealed_kong,
            added_kong,
            chow,
            pung,
            kong,
            win,
            pass: win + 1,
        }
    }

    /// The number of actions (the size of the action space).
    pub fn actions(&self) -> usize {
        self.sections().pass + 1
    }

    /// The number of `action`, or `None` for an action this table never offers.
    pub fn encode(&self, action: &Action) -> Option<usize> {
        let s = self.sections();
        let kind = |t: Tile| -> Option<usize> {
            let i = t.index();
            (i < PLAYING + self.extra).then_some(i)
        };
        Some(match *action {
            Action::Discard(t) => s.discard + kind(t)?,
            Action::ConcealedKong(t) if self.kongs => {
                if t.is_bonus() {
                    (self.extra_concealed_kongs() == 1).then_some(s.concealed_kong + PLAYING)?
                } else {
                    s.concealed_kong + t.index()
                }
            }
            Action::AddedKong(t) if self.kongs => s.added_kong + kind(t)?,
            Action::Chow { tiles } if self.chows => {
                let low = tiles[0];
                if !low.is_numbered() || low.rank() > 7 {
                    return None;
                }
                s.chow + (low.index() / 9) * 7 + usize::from(low.rank() - 1)
            }
            Action::Pung => s.pung,
            Action::Kong => s.kong?,
            Action::Win => s.win,
            Action::Pass => s.pass,
            _ => return None,
        })
    }

    /// The action of number `code`, or `None` past the end of the space.
    pub fn decode(&self, code: usize) -> Option<Action> {
        let s = self.sections();
        let tile = Tile::from_index;
        Some(match code {
            c if c < s.concealed_kong => Action::Discard(tile(c)?),
            c if c < s.added_kong => Action::ConcealedKong(tile(c - s.concealed_kong)?),
            c if c < s.chow => Action::AddedKong(tile(c - s.added_kong)?),
            c if c < s.pung => {
                let i = c - s.chow;
                let suit = [Suit::Characters, Suit::Dots, Suit::Bamboo][i / 7];
                let low = Tile::new(suit, (i % 7) as u8 + 1)?;
                Action::Chow {
                    tiles: [low, low.succ()?, low.succ()?.succ()?],
                }
            }
            c if c == s.pung => Action::Pung,
            c if Some(c) == s.kong => Action::Kong,
            c if c == s.win => Action::Win,
            c if c == s.pass => Action::Pass,
            _ => return None,
        })
    }

    /// The sections as (name, first number, count), for documentation and checks.
    pub fn describe(&self) -> Vec<(&'static str, usize, usize)> {
        let s = self.sections();
        let mut out = vec![("discard", s.discard, s.concealed_kong - s.discard)];
        if self.kongs {
            out.push((
                "concealed_kong",
                s.concealed_kong,
                s.added_kong - s.concealed_kong,
            ));
            out.push(("added_kong", s.added_kong, s.chow - s.added_kong));
        }
        if self.chows {
            out.push(("chow", s.chow, CHOWS));
        }
        out.push(("pung", s.pung, 1));
        if let Some(k) = s.kong {
            out.push(("kong", k, 1));
        }
        out.push(("win", s.win, 1));
        out.push(("pass", s.pass, 1));
        out
    }
}

/// Planes that do not depend on the table size: own hand, drawn tile, and the five rows after
/// the per-seat blocks (wildcard, indicator, tile on offer, last discard, scalars).
const FIXED_PLANES: usize = 7;
/// Planes per seat: exposed melds, concealed kongs, discards, flowers.
const SEAT_PLANES: usize = 4;

/// Rows of an encoded observation at a table of `players`.
pub const fn planes(players: usize) -> usize {
    FIXED_PLANES + SEAT_PLANES * players
}

/// Chair `q` counted from the viewer `p` in turn order (0 = the viewer, 1 = the next to play).
fn relative(p: Player, q: Player, players: usize) -> usize {
    // `(q + players - p) % players`, without a division (both are chairs below `players`).
    let d = q.index() + players - p.index();
    if d >= players { d - players } else { d }
}

/// Writes `obs` into `out` (`planes(players) * 42` bytes, every byte written) and its legal
/// actions into `mask` (`layout.actions()` bytes, 1 where legal).
///
/// Layout (rows of 42 tile kinds; seats counted from the viewer in turn order, `k = 0` the
/// viewer, `n` = players). A tile is always counted in its own column: an extra wind (`1f`–`8f`
/// at five and six players) in its bonus column in every row, melds of extra winds included.
///
/// - row 0: own concealed tiles (counts), the tile just drawn included
/// - row 1: the tile just drawn (one-hot; zero when not on turn after a draw); it is in row 0
///   too
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
    layout: &ActionLayout,
    out: &mut [u8],
    mask: &mut [u8],
) {
    encode(obs, seats, layout, out, mask);
}

/// Writes what `view` shows into `out` and `mask`, as [`encode_observation`] lays it out: from
/// an [`Observation`] or straight from the game ([`crate::view::GameView`]).
pub fn encode(
    view: &impl View,
    seats: &[majiang::Seat],
    layout: &ActionLayout,
    out: &mut [u8],
    mask: &mut [u8],
) {
    encode_planes(view, seats, out);
    mask.fill(0);
    for a in view.legal() {
        if let Some(i) = layout.encode(a) {
            mask[i] = 1;
        }
    }
}

/// Writes `legal`'s action numbers into `mask` (1 where legal, every byte written) and, in
/// the order of `legal`, into `list` (padded with -1; an action past its end is in the mask
/// only); returns how many were listed. Each action is numbered once for both.
pub fn encode_actions(
    layout: &ActionLayout,
    legal: &[Action],
    mask: &mut [u8],
    list: &mut [i16],
) -> usize {
    mask.fill(0);
    list.fill(-1);
    let mut count = 0;
    for a in legal {
        if let Some(code) = layout.encode(a) {
            mask[code] = 1;
            if let Some(slot) = list.get_mut(count) {
                *slot = code as i16;
                count += 1;
            }
        }
    }
    count
}

/// Writes the planes of what `view` shows into `out` (every byte written), as
/// [`encode_observation`] lays them out; not the mask.
pub fn encode_planes(view: &impl View, seats: &[majiang::Seat], out: &mut [u8]) {
    let n = view.players();
    let p = view.player();
    out.fill(0);
    fn add(out: &mut [u8], i: usize, v: u8) {
        out[i] = out[i].saturating_add(v);
    }
    let row = |r: usize| r * TILE_KINDS;
    let concealed = &view.concealed().0;
    out[..concealed.len()].copy_from_slice(concealed);
    view.each_own_extra_wind(|t| add(out, t.index(), 1));
    if let Some(t) = view.drawn() {
        out[row(1) + t.index()] = 1;
    }
    let tail = 2 + SEAT_PLANES * n;
    let s = row(tail + 4);
    view.each_seat(|hand| {
        let k = relative(p, hand.player, n);
        let base = 2 + SEAT_PLANES * k;
        for m in hand.melds {
            let r = if m.kind == MeldKind::ConcealedKong {
                base + 1
            } else {
                base
            };
            if m.extra_winds.is_empty() {
                let at = row(r) + m.tile.index();
                // Chows are three kinds in a row; pungs and kongs several copies of one kind.
                match m.kind {
                    MeldKind::Chow => (at..at + 3).for_each(|i| add(out, i, 1)),
                    kind => add(out, at, kind.size() as u8),
                }
            } else {
                // Extra winds: each tile in its own column.
                for t in m.tiles() {
                    add(out, row(r) + t.index(), 1);
                }
            }
        }
        let discards = row(base + 2);
        match hand.discard_row {
            Some(counted) => out[discards..discards + TILE_KINDS].copy_from_slice(counted),
            None => {
                for d in hand.discards {
                    add(out, discards + d.tile.index(), 1);
                }
            }
        }
        for t in hand.flowers {
            out[row(base + 3) + t.index()] = 1;
        }
        out[s + 10 + k] = hand.concealed_count;
        out[s + 10 + n + k] = hand.gambit_run;
    });
    let mut one_hot = |r: usize, t: Option<Tile>| {
        if let Some(t) = t {
            out[row(r) + t.index()] = 1;
        }
    };
    let on_offer = view.on_offer();
    let last_discard = view.last_discard();
    one_hot(tail, view.wildcard());
    one_hot(tail + 1, view.indicator());
    one_hot(tail + 2, on_offer.map(|(_, t)| t));
    one_hot(tail + 3, last_discard.map(|(_, t)| t));
    let rel = |q: Option<Player>| q.map_or(n, |q| relative(p, q, n)) as u8;
    let seat = view.seat();
    let scalars = [
        u8::try_from(view.live_wall()).unwrap_or(u8::MAX),
        view.lao(),
        view.prevailing_wind() as u8,
        seats.iter().position(|&x| x == seat).unwrap_or(0) as u8,
        rel(Some(view.dealer())),
        rel(view.turn()),
        rel(on_offer.map(|(q, _)| q)),
        u8::from(view.gambit_round()),
        u8::from(view.wildcard_discard_is_gambit()),
        rel(last_discard.map(|(q, _)| q)),
    ];
    out[s..s + scalars.len()].copy_from_slice(&scalars);
}
