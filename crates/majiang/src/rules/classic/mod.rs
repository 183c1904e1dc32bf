//! Classic Chinese mahjong (seed 003, `docs/rules/classic.md`): points for sets, bonuses for the winner,
//! doubles, and settlement in which every player scores.
//!
//! Every player's score is `points × 2^doubles`:
//! - **points**: pung 2–8: 2, of 1s/9s: 4, of winds/dragons: 4; kong 2–8: 8, of 1s/9s: 16, of
//!   winds/dragons: 16; a pair of dragons or of the own wind: 2; chows 0; each flower or season
//!   1 (option `flowers`). The winner alone adds 20 for Mahjong, 10 for no chows and 2 for a
//!   self-drawn winning tile.
//! - **doubles**: each dragon pung or kong, each pung or kong of the own wind, all four flowers,
//!   all four seasons (three each); the winner alone: all concealed (one), one suit with honors
//!   (one), one suit only with no honors (three).
//!
//! The winner's score is the hand's `total`. Settlement is [`settle`]. A drawn hand scores
//! nothing (there is no request for it).
//!
//! ```
//! use majiang::rules::classic::{Options, score};
//! use majiang::scoring::request::ScoreRequest;
//! // The seed's example: pung of Red dragons, kong of the own wind, the rest of one suit:
//! // 40 points, doubled for the wind, for the dragons and for one suit with honors: 320.
//! let req = ScoreRequest::from_json(r#"{"rules": "classic", "concealed": "123m456m9m",
//!     "melds": [{"kind": "kong", "tiles": "1111z", "from": "north"},
//!               {"kind": "pung", "tiles": "777z", "from": "south"}],
//!     "winning_tile": "9m", "win": "discard", "discarder": "west", "seat": "east"}"#).unwrap();
//! let scored = score(&req.situation, &Options::default()).unwrap();
//! assert_eq!(scored.total, 320);
//! ```

mod options;
mod patterns;
mod settle;
pub mod spec;

pub use options::{OPTIONS, Options};
pub use patterns::PATTERNS;
pub use settle::settle;

use crate::analysis::{self, Decomposition, Form, Group, GroupKind, HandRules};
use crate::counts::TileCounts;
use crate::meld::{Meld, MeldKind};
use crate::scoring::{Explain, Invalid, OtherHand, Scored, WinKind, WinSituation};
use crate::seat::Seat;
use crate::tile::{Suit, Tile};
use patterns::{Pattern, Tally, pair_scores, score_flowers, score_set};
use std::collections::BTreeMap;

/// Classic hands are sets and a pair only: no seven pairs, no thirteen orphans, no wildcards.
pub const HAND_RULES: HandRules = HandRules::STANDARD_ONLY;

/// Scores and settles a win: the winner's patterns and score (`total`), and net chips for every
/// seat after every player's score has been settled. A chow claimed from anyone but the
/// winner's left neighbour, or a meld claimed from the winner's own seat, is [`Invalid`].
///
/// At five and six players the bonus tiles are extra winds (see [`WinSituation::flowers`]):
/// honour tiles of their own kind that form pungs (and, at five, kongs) and pairs but no chows.
///
/// The payments are itemised with their reasons.
pub fn score(situation: &WinSituation, options: &Options) -> Result<Scored, Invalid> {
    score_with(situation, options, Explain::Itemise)
}

/// Scores a win as [`score`] does, itemising the payments or not as `explain` says.
pub fn score_with(
    situation: &WinSituation,
    options: &Options,
    explain: Explain,
) -> Result<Scored, Invalid> {
    situation.check_meld_sources()?;
    situation.check_chow_sources()?;
    check_table(situation, options)?;
    let winner = winner_tally(situation, options)?;
    let mut scores = BTreeMap::new();
    scores.insert(situation.seat, winner.score());
    for (&seat, hand) in &situation.others {
        scores.insert(seat, loser_score(seat, hand, options));
    }
    Ok(Scored::settled(
        winner.patterns(),
        winner.score(),
        settle(
            &situation.seats,
            situation.seat,
            situation.dealer,
            &scores,
            explain,
        ),
    ))
}

/// True if the table plays the bonus tiles as extra winds (five or six players).
fn extra_winds(options: &Options) -> bool {
    options.players >= 5
}

/// What a loser's tiles score: their declared pungs and kongs; from the concealed tiles every
/// three of a kind as a pung (four undeclared copies are a pung, not a kong) and at most one
/// scoring pair; their flowers; and the doubles these sets earn. Chows and unfinished groups
/// score nothing. Taking every pung and the one scoring pair is always the split worth most,
/// since a pung is worth more than a pair of the same kind. At five or six players the
/// `flowers` are concealed extra winds: every three a pung, and two left over a pair (scoring
/// only for North-East and South-West).
pub fn loser_score(seat: Seat, hand: &OtherHand, options: &Options) -> i64 {
    let mut tally = Tally::default();
    for m in &hand.melds {
        score_meld(&mut tally, m, seat);
    }
    let mut pair = false;
    let mut groups: Vec<(Tile, usize)> = hand
        .concealed
        .iter()
        .map(|(t, n)| (t, usize::from(n)))
        .collect();
    if extra_winds(options) {
        if let Some(&t) = hand.flowers.first() {
            groups.push((t, hand.flowers.len()));
        }
    }
    for (tile, n) in groups {
        // A playing kind has at most four copies: one pung, or a pair. The extra winds are up
        // to eight tiles of one kind: every three a pung, two left over a pair.
        for _ in 0..n / 3 {
            score_set(&mut tally, tile, false, seat);
        }
        if n % 3 == 2 && !pair && pair_scores(tile, seat) {
            tally.add(Pattern::PairDragonsOrOwnWind);
            pair = true;
        }
    }
    if !extra_winds(options) {
        score_flowers(&mut tally, &hand.flowers);
    }
    tally.score()
}

fn score_meld(tally: &mut Tally, meld: &Meld, seat: Seat) {
    if meld.is_pung_or_kong() {
        score_set(tally, meld.tile, meld.kind.is_kong(), seat);
    }
}

/// Table size, seats and flowers agree with the options, and no loser holds more tiles than a
/// hand has (13, or 10 at a six-player table; fewer is allowed, as the request may give only
/// part of a hand). At five players the extra winds are `1f`–`4f`; at six, `1f`–`8f`.
fn check_table(s: &WinSituation, options: &Options) -> Result<(), Invalid> {
    if s.seats.len() != usize::from(options.players) {
        return Err(Invalid::text(format!(
            "the situation seats {} players but the options say {}",
            s.seats.len(),
            options.players
        )));
    }
    let most = if options.players == 6 { 10 } else { 13 };
    let extra = extra_winds(options);
    for (seat, hand) in &s.others {
        let held = hand.concealed.len()
            + 3 * hand.melds.len()
            + if extra { hand.flowers.len() } else { 0 };
        if held > most {
            return Err(Invalid::text(format!(
                "{seat} holds {held} tiles (kongs counted as three); a losing hand has at most \
                 {most}"
            )));
        }
    }
    let others_have_flowers = s.others.values().any(|o| !o.flowers.is_empty());
    if extra {
        let bonus = s
            .flowers
            .iter()
            .chain([&s.winning_tile])
            .chain(s.melds.iter().map(|m| &m.tile))
            .chain(s.others.values().flat_map(|o| &o.flowers))
            .chain(
                s.others
                    .values()
                    .flat_map(|o| o.melds.iter().map(|m| &m.tile)),
            );
        for t in bonus.filter(|t| t.is_bonus()) {
            if options.players == 5 && !t.is_flower() {
                return Err(Invalid::text(format!(
                    "{t}: the five-player game adds only the four flowers 1f-4f (the North-East \
                     wind tiles)"
                )));
            }
        }
        if let Some(m) = s
            .melds
            .iter()
            .find(|m| m.tile.is_bonus() && m.kind == MeldKind::Chow)
        {
            return Err(Invalid(
                crate::scoring::invalid::EXTRA_WIND_CHOW.with([crate::scoring::invalid::meld(m)]),
            ));
        }
    } else if !options.flowers && (!s.flowers.is_empty() || others_have_flowers) {
        return Err(Invalid::from(&crate::scoring::invalid::FLOWERS_NOT_IN_PLAY));
    } else if s.winning_tile.is_bonus() || s.melds.iter().any(|m| m.tile.is_bonus()) {
        return Err(Invalid(
            "a bonus tile is laid out as a flower, never part of a set (extra winds exist only \
             at five- and six-player tables)"
                .into(),
        ));
    }
    Ok(())
}

/// The ways `n` concealed extra winds split into pungs and at most one pair: (pungs, pair).
/// Empty when they cannot (one, four or seven of them: undeclared fours are no kong).
fn extra_wind_splits(n: usize) -> Vec<(usize, bool)> {
    let mut splits = Vec::new();
    if n % 3 == 0 {
        splits.push((n / 3, false));
    }
    if n >= 2 && (n - 2) % 3 == 0 {
        splits.push(((n - 2) / 3, true));
    }
    splits
}

/// The winner's tally: the reading of the hand worth most.
fn winner_tally(s: &WinSituation, options: &Options) -> Result<Tally, Invalid> {
    let six = options.players == 6;
    if six && let Some(m) = s.melds.iter().find(|m| m.kind != MeldKind::Pung) {
        return Err(Invalid(
            crate::scoring::invalid::SIX_PLAYER_MELD.with([crate::scoring::invalid::meld(m)]),
        ));
    }
    // The playing tiles (34 kinds) and, apart, the extra winds held concealed.
    let full = s.full_concealed();
    let extra = if extra_winds(options) {
        s.flowers.len() + usize::from(s.winning_tile.is_bonus())
    } else {
        0
    };
    let hand_size: i64 = if six { 11 } else { 14 };
    let expected = hand_size - 3 * s.melds.len() as i64;
    let held = (full.len() + extra) as i64;
    if held != expected {
        return Err(Invalid(crate::scoring::invalid::TILE_COUNT.with([
            s.melds.len().into(),
            expected.max(0).into(),
            held.into(),
        ])));
    }
    // One of the extra winds (any stands for the kind); `None` where flowers are flowers.
    let extra_tile =
        extra_winds(options).then(|| s.flowers.first().copied().unwrap_or(s.winning_tile));
    let mut best: Option<Tally> = None;
    for (pungs, extra_pair) in extra_wind_splits(extra) {
        for reading in readings(&full, extra_pair, six) {
            let t = winner_reading(s, &full, &reading.groups, (pungs, extra_pair), extra_tile);
            if best.as_ref().is_none_or(|b| t.score() > b.score()) {
                best = Some(t);
            }
        }
    }
    best.ok_or_else(|| {
        Invalid::from(if six {
            &crate::scoring::invalid::NOT_SETS_CLASSIC_SIX
        } else {
            &crate::scoring::invalid::NOT_SETS_CLASSIC
        })
    })
}

/// The readings of the playing tiles, each a decomposition whose groups are its sets, and its
/// pair unless the extra winds hold it (`pair_elsewhere`).
fn readings(full: &TileCounts, pair_elsewhere: bool, six: bool) -> Vec<Decomposition> {
    let mut hand = *full;
    // With the pair among the extra winds the playing tiles are sets only: read them with a
    // stand-in pair of an honour kind they lack (two copies of it can only be a pair), then
    // drop it. Playing tiles holding all seven honour kinds cannot be sets only.
    let stand_in = if pair_elsewhere {
        match Tile::all()
            .filter(|t| t.is_honor())
            .find(|&t| hand.get(t) == 0)
        {
            Some(t) => {
                hand.add(t);
                hand.add(t);
                Some(t)
            }
            None => return Vec::new(),
        }
    } else {
        None
    };
    let mut all = analysis::decompositions(&hand, &HAND_RULES);
    all.retain_mut(|d| {
        let Some(pair) = d.pair() else {
            return false;
        };
        let keep = d.form == Form::Standard
            && !(six && d.groups.iter().any(|g| g.kind == GroupKind::Chow))
            && stand_in.is_none_or(|t| pair.tile == t);
        if keep && stand_in.is_some() {
            d.groups.retain(|g| g.kind != GroupKind::Pair);
        }
        keep
    });
    all
}

/// The winner's patterns for one reading of the concealed tiles, with `extra` = (pungs, pair)
/// of concealed extra winds (`extra_tile` one of them).
fn winner_reading(
    s: &WinSituation,
    full: &TileCounts,
    groups: &[Group],
    extra: (usize, bool),
    extra_tile: Option<Tile>,
) -> Tally {
    let mut tally = Tally::default();
    tally.add(Pattern::Mahjong);
    for m in &s.melds {
        score_meld(&mut tally, m, s.seat);
    }
    for g in groups {
        match g.kind {
            GroupKind::Pung => score_set(&mut tally, g.tile, false, s.seat),
            GroupKind::Pair if pair_scores(g.tile, s.seat) => {
                tally.add(Pattern::PairDragonsOrOwnWind)
            }
            _ => {}
        }
    }
    if let Some(t) = extra_tile.filter(|t| t.is_bonus()) {
        for _ in 0..extra.0 {
            score_set(&mut tally, t, false, s.seat);
        }
        if extra.1 && pair_scores(t, s.seat) {
            tally.add(Pattern::PairDragonsOrOwnWind);
        }
    }
    let chows = s.melds.iter().any(|m| m.kind == MeldKind::Chow)
        || groups.iter().any(|g| g.kind == GroupKind::Chow);
    if !chows {
        tally.add(Pattern::NoChows);
    }
    if s.win == WinKind::SelfDraw {
        tally.add(Pattern::SelfDrawn);
    }
    if extra_tile.is_none() {
        score_flowers(&mut tally, &s.flowers);
    }
    if s.fully_concealed() {
        tally.add(Pattern::AllConcealed);
    }
    if let Some(p) = one_suit(s, full, extra_tile.is_some()) {
        tally.add(p);
    }
    tally
}

/// One suit: every tile of the hand from one number suit (three doubles), or one number suit
/// plus honors (one double). A hand of honors only has no suit and earns neither. Extra winds
/// are honors.
fn one_suit(s: &WinSituation, full: &TileCounts, extra_winds: bool) -> Option<Pattern> {
    // The kinds held, and one tile of each meld (a meld's tiles share its suit).
    let kinds = full
        .iter()
        .map(|(t, _)| t)
        .chain(s.melds.iter().map(|m| m.tile));
    let mut suit: Option<Suit> = None;
    let mut mixed = false;
    let mut honors = extra_winds && (!s.flowers.is_empty() || s.winning_tile.is_bonus());
    for t in kinds {
        if t.is_honor() || t.is_bonus() {
            honors = true;
        } else if suit.is_none() {
            suit = Some(t.suit());
        } else if suit != Some(t.suit()) {
            mixed = true;
        }
    }
    match (suit.is_some() && !mixed, honors) {
        (true, true) => Some(Pattern::OneSuitWithHonors),
        (true, false) => Some(Pattern::OneSuitOnly),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
