//! Whether a win is allowed at all (`docs/rules/hangzhou.md`: who may win, wildcards, kongs), before any
//! multiplier is counted.

use super::patterns::kong_chain;
use crate::scoring::{Invalid, WinKind, WinSituation, invalid};
use crate::seat::Seat;
use crate::tile::Tile;

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
        return Err(Invalid::from(&invalid::LAO_FROM_ONE));
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
            return Err(Invalid(
                invalid::WILDCARD_IN_MELD.with([invalid::meld(m), wild.to_string().into()]),
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
        return Err(Invalid(
            invalid::INDICATOR_COPIES.with([wild.to_string().into(), n.into()]),
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
            return Err(Invalid::from(&invalid::KONG_BLOSSOM_SELF_DRAWN));
        }
        let declared = s.melds.iter().filter(|m| m.kind.is_kong()).count();
        if usize::from(kongs) > declared {
            return Err(Invalid(
                invalid::KONG_CHAIN.with([kongs.into(), declared.into()]),
            ));
        }
    }
    match s.win {
        WinKind::SelfDraw => Ok(()),
        WinKind::RobbingKong => {
            if s.winning_tile == wild {
                return Err(Invalid::from(&invalid::ROB_WILDCARD));
            }
            Ok(())
        }
        WinKind::Discard => {
            if s.winning_tile == wild {
                return Err(Invalid::from(&invalid::DISCARDED_WILDCARD));
            }
            let Some(d) = s.discarder else {
                return Err(Invalid::from(&invalid::NEEDS_DISCARDER));
            };
            if s.seat != s.dealer && d != s.dealer {
                return Err(Invalid(
                    invalid::NON_DEALERS.with([s.seat.name().into(), d.name().into()]),
                ));
            }
            if s.lao < 3 {
                return Err(Invalid(invalid::LAO_SELF_DRAWN.with([s.lao.into()])));
            }
            Ok(())
        }
    }
}
