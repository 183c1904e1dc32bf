//! The ready hint: from what a seat may see ([`Observation`]), how far its hand is from ready
//! and, when it is ready, each winning tile with how many copies the seat has not seen and what
//! the win would score, by self-draw and by discard, through the rule set's own scorer.
//!
//! A wait the scorer refuses (below the rule set's minimum, or a win the rules forbid) is kept
//! but marked: [`Wait::reaches_minimum`] is false. The terminal and the browser both say it in
//! the same words ([`ReadyHint::text`]).
//!
//! ```
//! use majiang::table::{Game, HandSetup, TableRules, ready_hint};
//! use std::sync::Arc;
//!
//! let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
//! let (game, _deal) = Game::new(Arc::clone(&rules), HandSetup::new(3)).unwrap();
//! let obs = game.observation(game.dealer());
//! // The dealer holds 14 tiles: the hint reads the hand after a discard.
//! let tile = obs.concealed.tiles()[0];
//! let hint = ready_hint(&obs, &rules, Some(tile));
//! assert!(hint.shanten >= 0);
//! ```
//!
//! Readings:
//!
//! - **Unseen copies.** Four of each kind, less the seat's own concealed tiles, every discard
//!   still in a row, every meld on the table (concealed kongs too), the flowers and the
//!   indicator. At a five- or six-player classic table the extra winds are one kind of four or
//!   eight tiles.
//! - **The situation scored.** The win as it would be now: the seat's melds and flowers, the
//!   dealer and winds, the lao, the wild kind, the Fortune Gambit run for a self-draw, no special
//!   circumstances. The other hands are not known: they are given with their melds and flowers
//!   only. By discard: from the first seat after the viewer (in turn order) the rule set lets the
//!   viewer win from; [`Wait::discard`] says why not when no seat may.
//! - **Five and six players.** The extra winds are kept apart from the 34 kinds, so waits come
//!   from the engine's own completeness check, one candidate at a time (the 34 kinds and "an
//!   extra wind"). Shanten away from ready there is an estimate: the extra winds counted as an
//!   honour kind the hand does not hold.

use super::extra_wind_play as extra_winds;
use super::{Observation, TableRules, complete::Screen};
use crate::analysis;
use crate::config::TableConfig;
use crate::counts::TileCounts;
use crate::extra_winds::ExtraWinds;
use crate::rules::ScoreUnit;
use crate::scoring::{Circumstances, Invalid, OtherHand, WinKind, WinSituation};
use crate::seat::Seat;
use crate::tile::{KINDS, Tile};
use std::collections::BTreeMap;

/// How far a hand is from ready, and what it waits on when ready.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadyHint {
    /// Tiles from ready: `0` ready, `-1` complete (a hand of `3k + 2` that wins as it stands).
    pub shanten: i8,
    /// The winning tiles when ready (empty otherwise), in tile order.
    pub waits: Vec<Wait>,
}

/// One winning tile of a ready hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wait {
    /// The tile. At a five- or six-player classic table an extra-wind wait names one extra
    /// wind the seat has not seen (any of them wins).
    pub tile: Tile,
    /// True if the tile stands for any extra wind (five- and six-player classic).
    pub extra_wind: bool,
    /// Copies the seat has not seen (own hand, discards, melds, flowers, the indicator).
    pub unseen: u8,
    /// The hand's total by self-draw, in the rule set's unit, or why it would not win.
    pub self_draw: Result<i64, Invalid>,
    /// The hand's total on a discard, or why it would not win.
    pub discard: Result<i64, Invalid>,
}

impl Wait {
    /// True if the win would count one way or the other (self-draw or discard).
    pub fn reaches_minimum(&self) -> bool {
        self.self_draw.is_ok() || self.discard.is_ok()
    }

    /// What the win would score: `self-draw 4 fan, discard 3 fan`, `self-draw only: 3 fan`,
    /// `discard only: 2 fan`, `below the minimum`.
    pub fn scores(&self, unit: ScoreUnit) -> String {
        match (&self.self_draw, &self.discard) {
            (Ok(s), Ok(d)) => format!("self-draw {}, discard {}", unit.show(*s), unit.show(*d)),
            (Ok(s), Err(_)) => format!("self-draw only: {}", unit.show(*s)),
            (Err(_), Ok(d)) => format!("discard only: {}", unit.show(*d)),
            (Err(_), Err(_)) => "below the minimum".to_string(),
        }
    }

    /// Copies still to come that would win: `unseen` if the win counts, else 0.
    pub fn live(&self) -> u8 {
        if self.reaches_minimum() {
            self.unseen
        } else {
            0
        }
    }
}

impl ReadyHint {
    /// True if the hand is ready (one tile from a win).
    pub fn is_ready(&self) -> bool {
        self.shanten == 0
    }

    /// True if some wait would count.
    pub fn any_reaches_minimum(&self) -> bool {
        self.waits.iter().any(Wait::reaches_minimum)
    }

    /// The hint in words, tiles written by `tile`, totals in `unit`:
    /// `ready: 3s (2 unseen, self-draw 4 fan, discard 3 fan), 6s (3 unseen, self-draw only: 3 fan)`,
    /// `ready, but no winning tile reaches the minimum (3s 6s)`, `2 tiles from ready`.
    pub fn text(&self, unit: ScoreUnit, tile: impl Fn(Tile) -> String) -> String {
        let name = |w: &Wait| {
            if w.extra_wind {
                "extra wind".to_string()
            } else {
                tile(w.tile)
            }
        };
        match self.shanten {
            s if s < 0 => "complete".to_string(),
            0 if self.waits.is_empty() => "ready, but nothing left to wait on".to_string(),
            0 if !self.any_reaches_minimum() => {
                let names: Vec<String> = self.waits.iter().map(name).collect();
                format!(
                    "ready, but no winning tile reaches the minimum ({})",
                    names.join(" ")
                )
            }
            0 => {
                let parts: Vec<String> = self
                    .waits
                    .iter()
                    .filter(|w| w.reaches_minimum())
                    .map(|w| format!("{} ({} unseen, {})", name(w), w.unseen, w.scores(unit)))
                    .collect();
                let short = self.waits.len() - parts.len();
                let mut text = format!("ready: {}", parts.join(", "));
                if short > 0 {
                    text.push_str(&format!("; {short} more below the minimum"));
                }
                text
            }
            1 => "1 tile from ready".to_string(),
            s => format!("{s} tiles from ready"),
        }
    }
}

/// The ready hint for the viewer of `obs` at a table of `rules`, their hand read after
/// discarding `discard` when given (a tile they hold; one they do not hold is ignored).
pub fn ready_hint(obs: &Observation, rules: &TableRules, discard: Option<Tile>) -> ReadyHint {
    let mut hand = obs.concealed;
    let mut extra = ExtraWinds::EMPTY;
    for &t in &obs.extra_winds {
        extra.insert(t);
    }
    if let Some(t) = discard {
        if t.is_bonus() {
            extra.remove(t);
        } else {
            hand.remove(t);
        }
    }
    let config = rules.config();
    let seen = Seen::of(obs, config);
    let hand_rules = rules.hand_rules(obs.wildcard);
    let size = hand.len() + usize::from(extra.len());
    let (shanten, waiting_on) = if config.extra_winds() == 0 {
        let s = analysis::shanten(&hand, &hand_rules);
        let w = if s == 0 && size % 3 == 1 {
            analysis::waits(&hand, &hand_rules).iter().collect()
        } else {
            Vec::new()
        };
        (s, w)
    } else {
        extra_wind_readiness(&hand, extra, config, &seen, &hand_rules)
    };
    let waits = waiting_on
        .into_iter()
        .map(|t| {
            let unseen = seen.unseen(t, config);
            Wait {
                tile: t,
                extra_wind: t.is_bonus(),
                unseen,
                self_draw: score(obs, rules, &hand, extra, t, None),
                discard: match discarder(obs, rules) {
                    Some(d) => score(obs, rules, &hand, extra, t, Some(d)),
                    None => Err(Invalid::from(
                        &crate::scoring::invalid::NO_WIN_ON_DISCARD_NOW,
                    )),
                },
            }
        })
        .collect();
    ReadyHint { shanten, waits }
}

/// What the viewer has seen: copies of each kind, and extra winds.
struct Seen {
    kinds: [u8; KINDS],
    extra: ExtraWinds,
    extra_count: u8,
}

impl Seen {
    fn of(obs: &Observation, config: &TableConfig) -> Seen {
        let mut seen = Seen {
            kinds: [0; KINDS],
            extra: ExtraWinds::EMPTY,
            extra_count: 0,
        };
        let mut add = |t: Tile, n: u8| {
            if t.is_bonus() {
                seen.extra.insert(t);
                seen.extra_count = seen.extra_count.saturating_add(n);
            } else {
                seen.kinds[t.index()] = seen.kinds[t.index()].saturating_add(n);
            }
        };
        for (t, n) in obs.concealed.iter() {
            add(t, n);
        }
        for &t in &obs.extra_winds {
            add(t, 1);
        }
        for h in &obs.table {
            for d in h.discards.iter().filter(|d| !d.claimed) {
                add(d.tile, 1);
            }
            for m in &h.melds {
                for t in m.tiles() {
                    add(t, 1);
                }
            }
            if config.extra_winds() > 0 {
                for &t in &h.flowers {
                    add(t, 1);
                }
            }
        }
        if let Some(t) = obs.indicator {
            add(t, 1);
        }
        seen
    }

    /// Copies of `t` not seen (for a bonus tile at an extra-wind table: extra winds not seen).
    fn unseen(&self, t: Tile, config: &TableConfig) -> u8 {
        if t.is_bonus() {
            config.extra_winds().saturating_sub(self.extra_count)
        } else {
            4u8.saturating_sub(self.kinds[t.index()])
        }
    }
}

/// Shanten and waits of a hand at a five- or six-player classic table.
fn extra_wind_readiness(
    hand: &TileCounts,
    extra: ExtraWinds,
    config: &TableConfig,
    seen: &Seen,
    hand_rules: &analysis::HandRules,
) -> (i8, Vec<Tile>) {
    let pungs_only = config.players == 6;
    let screen = Screen::of(hand);
    let size = hand.len() + usize::from(extra.len());
    if size % 3 == 2 {
        if extra_winds::is_complete(hand, &screen, extra, None, pungs_only) {
            return (-1, Vec::new());
        }
    } else {
        let mut waits: Vec<Tile> = Tile::all()
            .filter(|&t| extra_winds::is_complete(hand, &screen, extra, Some(t), pungs_only))
            .collect();
        // One extra wind stands for all of them: the lowest the viewer has not seen.
        let any_extra = Tile::bonus_tiles()
            .take(usize::from(config.extra_winds()))
            .find(|&t| !seen.extra.contains(t))
            .or_else(|| Tile::bonus_tiles().next());
        if let Some(x) = any_extra {
            if extra_winds::is_complete(hand, &screen, extra, Some(x), pungs_only) {
                waits.push(x);
            }
        }
        if !waits.is_empty() {
            return (0, waits);
        }
    }
    // Not ready: an estimate with the extra winds as one honour kind the hand lacks (beyond
    // four, each three of them a pung set aside).
    let mut counts = *hand;
    let mut n = extra.len();
    while n > 4 {
        n -= 3;
    }
    if let Some(free) = (27..KINDS).find(|&i| counts.0[i] == 0) {
        counts.0[free] = n;
    }
    let s = analysis::shanten(&counts, hand_rules).max(1);
    (s, Vec::new())
}

/// The first seat after the viewer, in turn order, the rules let the viewer win from.
fn discarder(obs: &Observation, rules: &TableRules) -> Option<Seat> {
    let n = obs.table.len();
    (1..n)
        .map(|k| obs.table[(obs.player.index() + k) % n].seat)
        .find(|&d| rules.may_win_on_discard(obs.seat, d, obs.lao))
}

/// The total of a win on `tile` (by self-draw when `discarder` is `None`), or why not.
fn score(
    obs: &Observation,
    rules: &TableRules,
    hand: &TileCounts,
    extra: ExtraWinds,
    tile: Tile,
    discarder: Option<Seat>,
) -> Result<i64, Invalid> {
    let me = obs.table.get(obs.player.index());
    let mut flowers: Vec<Tile> = me.map(|h| h.flowers.clone()).unwrap_or_default();
    flowers.extend(extra.tiles());
    let others: BTreeMap<Seat, OtherHand> = obs
        .table
        .iter()
        .filter(|h| h.player != obs.player)
        .map(|h| {
            (
                h.seat,
                OtherHand {
                    concealed: TileCounts::EMPTY,
                    melds: h.melds.clone(),
                    flowers: h.flowers.clone(),
                },
            )
        })
        .collect();
    let self_draw = discarder.is_none();
    let situation = WinSituation {
        concealed: *hand,
        melds: me.map(|h| h.melds.clone()).unwrap_or_default(),
        winning_tile: tile,
        win: if self_draw {
            WinKind::SelfDraw
        } else {
            WinKind::Discard
        },
        discarder,
        seat: obs.seat,
        dealer: Seat::East,
        prevailing_wind: obs.prevailing_wind,
        flowers,
        circumstances: Circumstances::default(),
        kong_chain: 0,
        gambits: match (self_draw, me) {
            (true, Some(h)) => h.gambit_run,
            _ => 0,
        },
        lao: obs.lao,
        wildcard: if rules.config().fortune_gambit {
            obs.wildcard
        } else {
            None
        },
        balances: None,
        others,
        seats: rules.seats().to_vec(),
    };
    rules.score(&situation).map(|s| s.total)
}

#[cfg(test)]
mod tests;
