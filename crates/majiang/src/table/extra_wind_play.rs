//! The extra-wind tiles of five- and six-player classic tables (seed 003, "Rules for 5
//! Players", "Rules for 6 Players"; `docs/rules/classic.md`).
//!
//! At five players the four flowers `1f`–`4f` join the wall as "North East Wind" tiles; at six,
//! all eight bonus tiles `1f`–`8f` are "Extra Wind" tiles. They are playing tiles, not flowers:
//! drawn, held, discarded, punged (any three of them: at a table they are all one kind),
//! konged at five players, claimed for a win, never chowed. Each physical tile is still itself
//! (the log and the discard rows name it), so a hand keeps them apart from its 34-kind counts,
//! as a set of bonus tiles ([`ExtraWinds`]); the engine's hot path for the other tables never
//! looks at it.
//!
//! Readings the seed leaves open, and the engine's choices:
//!
//! - **Wall.** One side per player: 5 sides of 14 stacks (140 tiles), 6 sides of 12 stacks
//!   (144). Four sides cannot hold 140 tiles in stacks of two evenly, and one side per player
//!   is what the four-player table has too. The dice count sides from the dealer's in turn
//!   order, as at four players.
//! - **Hands.** Five players: 13 tiles (14 to East), sets and a pair. Six players: 10 tiles (11
//!   to East); a win is three pungs and a pair (11 tiles), so chows are never offered at six
//!   (a chow could never be part of a win) and concealed runs do not count; no kongs at six.
//! - **Which tiles make a set.** A claimed or declared extra-wind set takes the lowest extra
//!   winds the player holds (apart from a tile the action names: the discard claimed, the tile
//!   added to a kong). Copies are alike for play, so this only fixes what the log records. The
//!   meld's `tile` is the lowest of its bonus tiles, as the scorer reads it; the `Claimed` and
//!   `KongDeclared` events carry that meld or tile, and which extra winds left the hand
//!   follows from this rule.
//! - **Scoring.** The winner's concealed extra winds (not the winning tile) go in
//!   [`WinSituation::flowers`](crate::scoring::WinSituation::flowers), and each other player's
//!   in [`OtherHand::flowers`](crate::scoring::OtherHand::flowers); `concealed` holds only the
//!   34 kinds.

use super::complete::{self, Screen};
use crate::analysis::HandRules;
use crate::counts::TileCounts;
use crate::extra_winds::ExtraWinds;
use crate::meld::{Meld, MeldKind};
use crate::tile::{KINDS, Tile};

/// True if `a` and `b` are the same kind for play at a table where every bonus tile is an
/// extra wind.
pub(crate) fn same_kind(a: Tile, b: Tile) -> bool {
    a == b || (a.is_bonus() && b.is_bonus())
}

/// The kongs of extra winds a player may declare on their turn: a concealed kong of all four
/// (named by the lowest), and the held extra winds that may be added to an exposed pung of
/// them.
pub(crate) fn kong_options(extra: ExtraWinds, melds: &[Meld]) -> (Option<Tile>, ExtraWinds) {
    let concealed = if extra.len() == 4 {
        extra.lowest()
    } else {
        None
    };
    let added = if melds
        .iter()
        .any(|m| m.kind == MeldKind::Pung && m.tile.is_bonus())
    {
        extra
    } else {
        ExtraWinds::EMPTY
    };
    (concealed, added)
}

/// Checks that the extra winds recorded as melded are exactly as many as the extra-wind melds
/// hold, and that each such meld's tile is one of them.
pub(crate) fn check_melded(melded: ExtraWinds, melds: &[Meld]) -> Result<(), String> {
    let mut size = 0;
    for m in melds.iter().filter(|m| m.tile.is_bonus()) {
        if !melded.contains(m.tile) || m.kind == MeldKind::Chow {
            return Err(format!(
                "extra-wind meld {m} does not match the tiles melded"
            ));
        }
        size += m.kind.size();
    }
    if size != usize::from(melded.len()) {
        return Err(format!(
            "{} extra winds melded, but the extra-wind melds hold {size}",
            melded.len()
        ));
    }
    Ok(())
}

/// True if the playing tiles `concealed` and `extra` extra winds, plus `claimed` (a playing
/// tile or an extra wind) if given, are a winning hand of a five- or six-player table:
/// `pungs_only` (six players) three pungs and a pair; otherwise sets and a pair. The extra winds
/// form pungs and at most one pair, never chows; an undeclared four of them is no set.
/// `screen` holds the running statistics of `concealed`, for a quick refusal of most hands.
pub(crate) fn is_complete(
    concealed: &TileCounts,
    screen: &Screen,
    extra: ExtraWinds,
    claimed: Option<Tile>,
    pungs_only: bool,
) -> bool {
    let mut c = concealed.0;
    let mut e = u32::from(extra.len());
    match claimed {
        Some(t) if t.is_bonus() => e += 1,
        Some(t) => c[t.index()] += 1,
        None => {}
    }
    // The extra winds: every three a pung, two left over the pair, one left over no hand.
    let extra_pair = match e % 3 {
        0 => false,
        2 => true,
        _ => return false,
    };
    if pungs_only {
        let mut pairs = u32::from(extra_pair);
        for &n in &c {
            match n {
                0 | 3 => {}
                2 => pairs += 1,
                _ => return false,
            }
        }
        return pairs == 1;
    }
    if extra_pair {
        return sets_only(&c);
    }
    // The playing tiles hold the pair: the engine's screen and check for sets and a pair.
    let rules = HandRules::STANDARD_ONLY;
    let playing = claimed.filter(|t| !t.is_bonus());
    screen.may_complete(concealed, playing, &rules) && complete::is_complete(&TileCounts(c), &rules)
}

/// True if the counts split into pungs and chows with no pair (or are empty).
fn sets_only(c: &[u8; KINDS]) -> bool {
    if c[27..].iter().any(|&n| n % 3 != 0) {
        return false;
    }
    (0..3).all(|suit| {
        let mut a = [0u8; 9];
        a.copy_from_slice(&c[suit * 9..suit * 9 + 9]);
        // Take pungs where they fit, then runs from the lowest tile up: for sets only this
        // greedy reading finds a split whenever one exists.
        for i in 0..9 {
            let r = a[i] % 3;
            if r > 0 {
                if i + 2 >= 9 || a[i + 1] < r || a[i + 2] < r {
                    return false;
                }
                a[i + 1] -= r;
                a[i + 2] -= r;
            }
        }
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_tiles;

    fn counts(s: &str) -> TileCounts {
        TileCounts::from_tiles(&parse_tiles(s).unwrap()).unwrap()
    }

    fn check(c: &TileCounts, w: ExtraWinds, claimed: Option<Tile>, six: bool) -> bool {
        is_complete(c, &Screen::of(c), w, claimed, six)
    }

    fn winds(s: &str) -> ExtraWinds {
        let mut w = ExtraWinds::EMPTY;
        for t in parse_tiles(s).unwrap() {
            w.insert(t);
        }
        w
    }

    #[test]
    fn take_prefers_the_named_tile_then_the_lowest() {
        let mut w = winds("2f5f7f8f");
        assert_eq!(w.take("7f".parse().unwrap(), 2), winds("2f7f"));
        assert_eq!(w, winds("5f8f"));
        assert_eq!(w.take("1f".parse().unwrap(), 3), winds("5f8f"));
        assert!(w.is_empty());
    }

    #[test]
    fn five_player_hands() {
        // Sets and a pair, the extra winds as a pung...
        assert!(check(
            &counts("123m456p789s11z"),
            winds("1f2f3f"),
            None,
            false
        ));
        // ... or as the pair (the rest sets only), or claimed for the pair.
        assert!(check(
            &counts("123m456p789s111z"),
            winds("1f2f"),
            None,
            false
        ));
        assert!(check(
            &counts("123m456p789s111z"),
            winds("4f"),
            Some("2f".parse().unwrap()),
            false
        ));
        // Four undeclared extra winds are a pung and a stray tile; one is a stray.
        assert!(!check(
            &counts("123m456p789s1z"),
            winds("1f2f3f4f"),
            None,
            false
        ));
        assert!(!check(
            &counts("123m456p789s1155z"),
            winds("1f"),
            None,
            false
        ));
        // The pair among the extra winds leaves no second pair; a pung of the claimed tile
        // completes it.
        assert!(!check(
            &counts("123m456p789s11z"),
            winds("1f2f"),
            Some("2z".parse().unwrap()),
            false
        ));
        assert!(check(
            &counts("123m456p789s11z"),
            winds("1f2f"),
            Some("1z".parse().unwrap()),
            false
        ));
        // No extra winds: an ordinary hand.
        assert!(check(
            &counts("123m456p789s1z"),
            ExtraWinds::EMPTY,
            Some("1z".parse().unwrap()),
            false
        ));
        assert!(!check(
            &counts("123m456p789s1z"),
            ExtraWinds::EMPTY,
            Some("2z".parse().unwrap()),
            false
        ));
    }

    #[test]
    fn six_player_hands_are_pungs_and_a_pair() {
        assert!(check(&counts("111m555p99s"), winds("1f2f3f"), None, true));
        assert!(check(&counts("111m555p777s"), winds("6f8f"), None, true));
        assert!(check(&counts("111m99s"), winds("1f2f3f4f5f6f"), None, true));
        assert!(check(
            &counts("111m555p99s"),
            winds("1f2f"),
            Some("8f".parse().unwrap()),
            true
        ));
        // Runs do not count at six players.
        assert!(!check(&counts("123m555p99s"), winds("1f2f3f"), None, true));
        assert!(!check(&counts("1111m55p99s"), winds("1f2f3f"), None, true));
        assert!(!check(
            &counts("111m555p99s"),
            winds("1f2f3f4f"),
            None,
            true
        ));
    }
}
