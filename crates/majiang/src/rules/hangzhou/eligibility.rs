//! Whether a win is allowed at all (`docs/rules/hangzhou.md`: who may win, wildcards, kongs), before any
//! multiplier is counted.

use super::patterns::kong_chain;
use crate::scoring::{Invalid, WinKind, WinSituation};
use crate::seat::Seat;
use crate::tile::Tile;

fn invalid<T>(why: impl Into<String>) -> Result<T, Invalid> {
    Err(Invalid::text(why))
}

/// The shape of the request: four seats, lao at least 1, the concealed count that the melds
/// leave, no wildcard in a declared meld, and the shared meld-source checks
/// ([`WinSituation::check_meld_sources`]: no meld claimed from one's own seat;
/// [`WinSituation::check_chow_sources`]: chows only from the left neighbour).
///
/// A declared meld holding the wild kind is **Invalid** (not Malformed): the request reads fine,
/// but the rules forbid it: a wildcard never counts toward a kong, and a discarded wildcard
/// cannot be claimed for a chow, pung or kong.
pub fn check_shape(s: &WinSituation, wild: Tile) -> Result<(), Invalid> {
    if s.seats.len() != 4 {
        return Err(Invalid::from(&crate::scoring::invalid::PLAYED_BY_FOUR));
    }
    if s.lao == 0 {
        return invalid("lao counts from 1 (a new dealer is at 1 lao)");
    }
    if s.melds.len() > 4 {
        return Err(Invalid::from(&crate::scoring::invalid::FOUR_MELDS));
    }
    let expected = 14 - 3 * s.melds.len();
    let held = s.concealed.len() + 1;
    if held != expected {
        return Err(Invalid(crate::scoring::invalid::TILE_COUNT.with([
            s.melds.len().into(),
            expected.into(),
            held.into(),
        ])));
    }
    for m in &s.melds {
        if m.tiles().contains(&wild) {
            return invalid(format!(
                "the declared {m} holds the wildcard {wild}: wildcards never count toward a \
                 kong and cannot be claimed or melded"
            ));
        }
    }
    s.check_playing_tiles()?;
    s.check_meld_sources()?;
    s.check_chow_sources()
}

/// In `indicator` mode the indicator tile stays face up out of play: only three copies of the
/// wild kind can be in the hands (the winner's and the others' given).
pub fn check_indicator_copies(s: &WinSituation, wild: Tile) -> Result<(), Invalid> {
    let mut n = usize::from(s.full_concealed().get(wild));
    for h in s.others.values() {
        n += usize::from(h.concealed.get(wild));
        n += h
            .melds
            .iter()
            .flat_map(|m| m.tiles())
            .filter(|&t| t == wild)
            .count();
    }
    n += s
        .melds
        .iter()
        .flat_map(|m| m.tiles())
        .filter(|&t| t == wild)
        .count();
    if n > 3 {
        return invalid(format!(
            "with an indicator wildcard one {wild} is the face-up indicator: only three can be \
             in play, not {n}"
        ));
    }
    Ok(())
}

/// Whether `winner` may win on `discarder`'s discard at this lao (`docs/rules/hangzhou.md`): from 3 lao on,
/// the dealer on a non-dealer's discard or a non-dealer on the dealer's; never non-dealer on
/// non-dealer. (Robbing an added kong is not a discard: it is allowed at any lao.)
pub fn discard_win_allowed(winner: Seat, discarder: Seat, dealer: Seat, lao: u8) -> bool {
    winner != discarder && lao >= 3 && (winner == dealer || discarder == dealer)
}

/// Who may win, and how: self-draw always; robbing an added kong at any lao; a discard only from
/// 3 lao on, and only the dealer on a non-dealer's discard or a non-dealer on the dealer's. A
/// wildcard cannot be claimed (so no discard win on one, and no added kong of one to rob). A kong
/// chain needs a self-drawn replacement tile and that many declared kongs.
pub fn check_win(s: &WinSituation, wild: Tile) -> Result<(), Invalid> {
    let kongs = kong_chain(s);
    if kongs > 0 {
        if s.win != WinKind::SelfDraw {
            return invalid("a Kong Blossom win is self-drawn (the kong's replacement tile)");
        }
        let declared = s.melds.iter().filter(|m| m.kind.is_kong()).count();
        if usize::from(kongs) > declared {
            return invalid(format!(
                "a kong chain of {kongs} needs {kongs} declared kong(s); the hand has {declared}"
            ));
        }
    }
    match s.win {
        WinKind::SelfDraw => Ok(()),
        WinKind::RobbingKong => {
            if s.winning_tile == wild {
                return invalid("a wildcard is never added to a kong, so it cannot be robbed");
            }
            Ok(())
        }
        WinKind::Discard => {
            if s.winning_tile == wild {
                return invalid("a discarded wildcard cannot be claimed, not even to win");
            }
            let Some(d) = s.discarder else {
                return invalid("a discard win needs the discarder");
            };
            if s.seat != s.dealer && d != s.dealer {
                return invalid(format!(
                    "a non-dealer ({}) never wins on another non-dealer's ({d}) discard",
                    s.seat
                ));
            }
            if s.lao < 3 {
                return invalid(format!(
                    "at {} lao every win is self-drawn (or robbing a kong); discard wins between \
                     the dealer and a non-dealer start at 3 lao",
                    s.lao
                ));
            }
            Ok(())
        }
    }
}
