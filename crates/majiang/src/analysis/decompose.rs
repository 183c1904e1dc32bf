//! Every way to read a winning hand: sets and a pair, seven pairs, or thirteen orphans.
//!
//! Scoring needs the reading worth most, so this lists them all. With wildcards, each group
//! records how many wildcards it uses; a group made only of wildcards is written as a group of
//! the wild kind itself (it may stand for anything).

mod plain;

use super::reference::{self, Counts};
use super::rules::HandRules;
use crate::tile::{KINDS, Tile};
use serde::Serialize;

/// The kind of a group in a decomposition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupKind {
    /// Three in sequence.
    Chow,
    /// Three of a kind.
    Pung,
    /// Two of a kind.
    Pair,
    /// One tile (the twelve unpaired kinds of thirteen orphans).
    Single,
}

/// One group of a decomposition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Group {
    /// Chow, pung, pair or single.
    pub kind: GroupKind,
    /// The lowest tile the group stands for.
    pub tile: Tile,
    /// How many of its tiles are wildcards.
    pub wilds: u8,
}

impl Group {
    /// The tiles the group stands for (wildcards shown as what they stand for).
    pub fn tiles(&self) -> Vec<Tile> {
        let i = self.tile.index();
        match self.kind {
            GroupKind::Chow => (i..i + 3).filter_map(Tile::from_index).collect(),
            GroupKind::Pung => vec![self.tile; 3],
            GroupKind::Pair => vec![self.tile; 2],
            GroupKind::Single => vec![self.tile],
        }
    }
}

/// The shape of a winning hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// Sets and one pair.
    Standard,
    /// Seven pairs.
    SevenPairs,
    /// Thirteen orphans.
    ThirteenOrphans,
}

/// One reading of a winning concealed hand (declared melds are not part of it).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Decomposition {
    /// Which shape.
    pub form: Form,
    /// The groups, sorted.
    pub groups: Vec<Group>,
}

impl Decomposition {
    /// The pair (for seven pairs, the first of them).
    pub fn pair(&self) -> Option<Group> {
        self.groups
            .iter()
            .copied()
            .find(|g| g.kind == GroupKind::Pair)
    }

    /// The sets (chows and pungs).
    pub fn sets(&self) -> impl Iterator<Item = Group> + '_ {
        self.groups
            .iter()
            .copied()
            .filter(|g| matches!(g.kind, GroupKind::Chow | GroupKind::Pung))
    }

    /// Total wildcards used.
    pub fn wilds(&self) -> u8 {
        self.groups.iter().map(|g| g.wilds).sum()
    }
}

struct Search<'a> {
    wild_kind: Tile,
    forbidden: Option<usize>,
    out: &'a mut Vec<Decomposition>,
    groups: Vec<Group>,
}

impl Search<'_> {
    fn push(&mut self, kind: GroupKind, tile: usize, wilds: u8) {
        self.groups.push(Group {
            kind,
            tile: Tile::from_index(tile).expect("kind index"),
            wilds,
        });
    }

    fn run(&mut self, real: &mut Counts, w: u8, need_pair: bool) {
        let Some(i) = real.iter().position(|&n| n > 0) else {
            self.finish_wild(w, need_pair);
            return;
        };
        let forbidden = self.forbidden;
        let wild_ok = |j: usize| forbidden != Some(j);
        for (size, kind) in [(3u8, GroupKind::Pung), (2u8, GroupKind::Pair)] {
            if kind == GroupKind::Pair && !need_pair {
                continue;
            }
            for k in 1..=real[i].min(size) {
                let wilds = size - k;
                if wilds > w || (wilds > 0 && !wild_ok(i)) {
                    continue;
                }
                real[i] -= k;
                self.push(kind, i, wilds);
                self.run(real, w - wilds, need_pair && kind != GroupKind::Pair);
                self.groups.pop();
                real[i] += k;
            }
        }
        for start in [i as isize - 2, i as isize - 1, i as isize] {
            if !(0..27).contains(&start) || start % 9 > 6 || start + 2 < i as isize {
                continue;
            }
            let start = start as usize;
            let others: Vec<usize> = (start..start + 3).filter(|&j| j != i).collect();
            for mask in 0..4u8 {
                let use_real = [mask & 1 != 0, mask & 2 != 0];
                let mut wilds = 0u8;
                let mut ok = true;
                for (slot, &j) in others.iter().enumerate() {
                    if use_real[slot] {
                        ok &= real[j] > 0;
                    } else {
                        ok &= wild_ok(j);
                        wilds += 1;
                    }
                }
                if !ok || wilds > w {
                    continue;
                }
                real[i] -= 1;
                for (slot, &j) in others.iter().enumerate() {
                    if use_real[slot] {
                        real[j] -= 1;
                    }
                }
                self.push(GroupKind::Chow, start, wilds);
                self.run(real, w - wilds, need_pair);
                self.groups.pop();
                real[i] += 1;
                for (slot, &j) in others.iter().enumerate() {
                    if use_real[slot] {
                        real[j] += 1;
                    }
                }
            }
        }
    }

    fn finish_wild(&mut self, w: u8, need_pair: bool) {
        let rest = if need_pair {
            if w < 2 {
                return;
            }
            w - 2
        } else {
            w
        };
        if rest % 3 != 0 {
            return;
        }
        let mark = self.groups.len();
        let wk = self.wild_kind.index();
        if need_pair {
            self.push(GroupKind::Pair, wk, 2);
        }
        for _ in 0..rest / 3 {
            self.push(GroupKind::Pung, wk, 3);
        }
        let mut groups = self.groups.clone();
        groups.sort();
        self.out.push(Decomposition {
            form: Form::Standard,
            groups,
        });
        self.groups.truncate(mark);
    }
}

/// Every decomposition of a winning hand (wildcards counted in `hand`), deduplicated and
/// sorted; empty when the hand does not win. Without a wildcard in the rules the search is the
/// plain one (`plain`: the same answer, tested against the general search).
pub fn decompositions(hand: &Counts, rules: &HandRules) -> Vec<Decomposition> {
    if rules.wildcard.is_none() {
        if let Some(found) = plain::decompositions(hand, rules) {
            return found;
        }
    }
    searched(hand, rules)
}

/// [`decompositions`] by the general search, wildcards or not.
fn searched(hand: &Counts, rules: &HandRules) -> Vec<Decomposition> {
    let (mut real, w, forbidden) = reference::split_wild(hand, rules);
    let n: usize = real.iter().map(|&x| x as usize).sum::<usize>() + w as usize;
    let mut out = Vec::new();
    if n % 3 != 2 {
        return out;
    }
    let wild_kind = rules.wildcard.map_or(Tile::WHITE, |w| w.tile);
    let mut search = Search {
        wild_kind,
        forbidden,
        out: &mut out,
        groups: Vec::with_capacity(5),
    };
    search.run(&mut real, w, true);
    if rules.seven_pairs && reference::seven_pairs(&real, w, rules.four_as_two_pairs) {
        out.push(seven_pairs_reading(&real, w, wild_kind));
    }
    if rules.thirteen_orphans && reference::thirteen_orphans(&real, w, forbidden) {
        out.push(orphans_reading(&real, w));
    }
    out.sort();
    out.dedup();
    out
}

fn seven_pairs_reading(real: &Counts, mut w: u8, wild_kind: Tile) -> Decomposition {
    let mut groups = Vec::with_capacity(7);
    for (i, &n) in real.iter().enumerate() {
        let tile = Tile::from_index(i).expect("kind index");
        for _ in 0..n / 2 {
            groups.push(Group {
                kind: GroupKind::Pair,
                tile,
                wilds: 0,
            });
        }
        if n % 2 == 1 {
            groups.push(Group {
                kind: GroupKind::Pair,
                tile,
                wilds: 1,
            });
            w -= 1;
        }
    }
    for _ in 0..w / 2 {
        groups.push(Group {
            kind: GroupKind::Pair,
            tile: wild_kind,
            wilds: 2,
        });
    }
    groups.sort();
    Decomposition {
        form: Form::SevenPairs,
        groups,
    }
}

fn orphans_reading(real: &Counts, w: u8) -> Decomposition {
    let mut groups = Vec::with_capacity(13);
    let mut spare = w;
    let paired = Tile::ORPHANS.iter().any(|t| real[t.index()] == 2);
    for t in Tile::ORPHANS {
        let n = real[t.index()];
        let (kind, wilds) = match n {
            2 => (GroupKind::Pair, 0),
            1 => (GroupKind::Single, 0),
            _ => {
                spare -= 1;
                (GroupKind::Single, 1)
            }
        };
        groups.push(Group {
            kind,
            tile: t,
            wilds,
        });
    }
    if !paired {
        // The spare wildcard pairs with the first orphan kind.
        if let Some(g) = groups.first_mut() {
            g.kind = GroupKind::Pair;
            g.wilds += spare;
        }
    }
    groups.sort();
    let _ = KINDS;
    Decomposition {
        form: Form::ThirteenOrphans,
        groups,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TileCounts;

    fn c(s: &str) -> Counts {
        TileCounts::parse(s).unwrap().0
    }

    #[test]
    fn pure_straight_or_pungs() {
        // 111222333m can be three pungs or three chows.
        let d = decompositions(&c("111222333m45677p"), &HandRules::ALL_FORMS);
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d.iter().all(|x| x.form == Form::Standard));
    }

    #[test]
    fn seven_pairs_and_standard() {
        let d = decompositions(&c("112233m445566p77s"), &HandRules::ALL_FORMS);
        assert!(d.iter().any(|x| x.form == Form::SevenPairs));
        assert!(d.iter().any(|x| x.form == Form::Standard));
    }

    #[test]
    fn wildcard_groups_are_marked() {
        let r = HandRules::STANDARD_ONLY.with_wildcard(Tile::WHITE);
        let d = decompositions(&c("13m456p789s11z5555z"), &r);
        assert!(!d.is_empty());
        assert!(d.iter().all(|x| x.wilds() == 4));
        assert!(decompositions(&c("13m456p789s123z555z"), &r).is_empty());
    }
}
