//! The readings of a hand when the rules have no wildcard: what the general search in
//! [`super::decompositions`] finds, found without its wildcard bookkeeping.
//!
//! Without wildcards a group takes real tiles only, so at the lowest kind left the search
//! tries a pung, a pair and a chow starting there, nothing else; the groups are held on a
//! stack, and the only allocations are the readings returned. Scoring reads every winning
//! hand of Hong Kong, Yangzhou and classic through it (about a third of a Hong Kong `score`
//! call's reading went to the general search's bookkeeping).

use super::{Decomposition, Form, Group, GroupKind};
use crate::analysis::HandRules;
use crate::tile::{KINDS, Tile};

/// Every decomposition of `counts` under `rules`, which have no wildcard, sorted and without
/// repeats, as the general search gives them (empty when the hand does not win); `None` for a
/// hand of more tiles than a hand holds (more groups than the stack: the general search).
pub(super) fn decompositions(
    counts: &[u8; KINDS],
    rules: &HandRules,
) -> Option<Vec<Decomposition>> {
    debug_assert!(rules.wildcard.is_none());
    let hand = counts;
    let mut counts = *counts;
    let n: usize = counts.iter().map(|&x| usize::from(x)).sum();
    if n > 14 {
        return None;
    }
    let mut out = Vec::new();
    if n % 3 != 2 {
        return Some(out);
    }
    let mut search = Search {
        groups: [PLACEHOLDER; 5],
        len: 0,
        out: &mut out,
    };
    search.run(&mut counts, 0, true);
    if rules.seven_pairs && n == 14 {
        if let Some(d) = seven_pairs(hand, rules.four_as_two_pairs) {
            out.push(d);
        }
    }
    if rules.thirteen_orphans && n == 14 {
        if let Some(d) = thirteen_orphans(hand) {
            out.push(d);
        }
    }
    if out.len() > 1 {
        out.sort();
        out.dedup();
    }
    Some(out)
}

const PLACEHOLDER: Group = Group {
    kind: GroupKind::Pair,
    tile: Tile::WHITE,
    wilds: 0,
};

/// The search for sets and a pair: the groups taken so far on a stack (at most four sets and
/// the pair of a hand without melds).
struct Search<'a> {
    groups: [Group; 5],
    len: usize,
    out: &'a mut Vec<Decomposition>,
}

impl Search<'_> {
    /// Takes groups from `counts`, whose kinds below `from` are all used up.
    fn run(&mut self, counts: &mut [u8; KINDS], from: usize, need_pair: bool) {
        let Some(i) = (from..KINDS).find(|&i| counts[i] > 0) else {
            if !need_pair {
                let mut groups = self.groups[..self.len].to_vec();
                groups.sort();
                self.out.push(Decomposition {
                    form: Form::Standard,
                    groups,
                });
            }
            return;
        };
        let tile = Tile::from_index(i).expect("kind index");
        if counts[i] >= 3 {
            counts[i] -= 3;
            self.with(GroupKind::Pung, tile, |s| s.run(counts, i, need_pair));
            counts[i] += 3;
        }
        if need_pair && counts[i] >= 2 {
            counts[i] -= 2;
            self.with(GroupKind::Pair, tile, |s| s.run(counts, i, false));
            counts[i] += 2;
        }
        // A chow starts at rank 1–7 of a number suit.
        if i < 27 && i % 9 <= 6 && counts[i + 1] > 0 && counts[i + 2] > 0 {
            for c in &mut counts[i..i + 3] {
                *c -= 1;
            }
            self.with(GroupKind::Chow, tile, |s| s.run(counts, i, need_pair));
            for c in &mut counts[i..i + 3] {
                *c += 1;
            }
        }
    }

    /// Runs `f` with the group `kind` of `tile` taken.
    fn with(&mut self, kind: GroupKind, tile: Tile, f: impl FnOnce(&mut Self)) {
        self.groups[self.len] = Group {
            kind,
            tile,
            wilds: 0,
        };
        self.len += 1;
        f(self);
        self.len -= 1;
    }
}

fn group(kind: GroupKind, i: usize) -> Group {
    Group {
        kind,
        tile: Tile::from_index(i).expect("kind index"),
        wilds: 0,
    }
}

/// Seven pairs from 14 tiles: every kind held twice (or four times, as two pairs, when
/// `four_as_two` allows).
fn seven_pairs(counts: &[u8; KINDS], four_as_two: bool) -> Option<Decomposition> {
    let ok = counts
        .iter()
        .all(|&n| n % 2 == 0 && (n <= 2 || four_as_two));
    if !ok {
        return None;
    }
    let mut groups = Vec::with_capacity(7);
    for (i, &n) in counts.iter().enumerate() {
        for _ in 0..n / 2 {
            groups.push(group(GroupKind::Pair, i));
        }
    }
    Some(Decomposition {
        form: Form::SevenPairs,
        groups,
    })
}

/// Thirteen orphans from 14 tiles: one of each terminal and honor, one of them twice.
fn thirteen_orphans(counts: &[u8; KINDS]) -> Option<Decomposition> {
    let orphans: u8 = Tile::ORPHANS.iter().map(|t| counts[t.index()]).sum();
    let paired = Tile::ORPHANS
        .iter()
        .filter(|t| counts[t.index()] == 2)
        .count();
    let every = Tile::ORPHANS
        .iter()
        .all(|t| (1..=2).contains(&counts[t.index()]));
    if orphans != 14 || paired != 1 || !every {
        return None;
    }
    let mut groups: Vec<Group> = Tile::ORPHANS
        .iter()
        .map(|t| {
            let kind = if counts[t.index()] == 2 {
                GroupKind::Pair
            } else {
                GroupKind::Single
            };
            group(kind, t.index())
        })
        .collect();
    groups.sort();
    Some(Decomposition {
        form: Form::ThirteenOrphans,
        groups,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every combination of the three forms' switches (no wildcard).
    fn all_rules() -> Vec<HandRules> {
        let mut out = Vec::new();
        for bits in 0..8u8 {
            out.push(HandRules {
                seven_pairs: bits & 1 != 0,
                four_as_two_pairs: bits & 2 != 0,
                thirteen_orphans: bits & 4 != 0,
                wildcard: None,
            });
        }
        out
    }

    fn check(counts: [u8; KINDS]) {
        let tiles: u32 = counts.iter().map(|&c| u32::from(c)).sum();
        for rules in all_rules() {
            let plain = decompositions(&counts, &rules);
            // Past a hand's size it leaves the hand to the general search.
            assert_eq!(plain.is_none(), tiles > 14, "{counts:?}");
            if let Some(found) = plain {
                let searched = super::super::searched(&counts, &rules);
                assert_eq!(found, searched, "{counts:?} under {rules:?}");
            }
        }
    }

    #[test]
    fn worked_hands_read_as_the_wildcard_search_reads_them() {
        for s in [
            "111222333m45677p",
            "112233m445566p77s",
            "11223344556677m",
            "11112233445566m",
            "19m19p19s1234567z1m",
            "19m19p19s1234567z",
            "111m333m555m777m99m",
            "123456789m234m99m",
            "1112345678999m5m",
            "22m",
            "1234m",
        ] {
            check(crate::counts::TileCounts::parse(s).unwrap().0);
        }
    }

    /// A hand built of `sets` random sets and a pair (kinds held at most four times), or any
    /// random tiles: winning hands and not.
    fn hand() -> impl Strategy<Value = [u8; KINDS]> {
        let built = (
            0usize..=4,
            proptest::collection::vec((0u8..3, 0usize..KINDS), 5),
        )
            .prop_map(|(sets, picks)| {
                let mut c = [0u8; KINDS];
                for (k, &(kind, i)) in picks.iter().enumerate() {
                    let tiles: Vec<usize> = match (k, kind) {
                        (0, _) => vec![i, i],
                        (_, 0) if i < 27 && i % 9 <= 6 => vec![i, i + 1, i + 2],
                        _ => vec![i, i, i],
                    };
                    if k > sets || tiles.iter().any(|&t| c[t] == 4) {
                        continue;
                    }
                    for t in tiles {
                        c[t] += 1;
                    }
                }
                c
            });
        let pairs = proptest::collection::vec(0usize..KINDS, 7).prop_map(|kinds| {
            let mut c = [0u8; KINDS];
            for i in kinds {
                c[i] = (c[i] + 2).min(4);
            }
            c
        });
        let loose = proptest::collection::vec(0usize..KINDS, 0..15).prop_map(|kinds| {
            let mut c = [0u8; KINDS];
            for i in kinds {
                c[i] = (c[i] + 1).min(4);
            }
            c
        });
        let orphans = (0usize..13, 0usize..KINDS).prop_map(|(pair, extra)| {
            let mut c = [0u8; KINDS];
            for t in Tile::ORPHANS {
                c[t.index()] = 1;
            }
            c[Tile::ORPHANS[pair].index()] += 1;
            if extra % 3 == 0 {
                c[extra] = (c[extra] + 1).min(4);
            }
            c
        });
        prop_oneof![built, pairs, loose, orphans]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn the_same_readings_as_the_wildcard_search(counts in hand()) {
            check(counts);
        }
    }
}
