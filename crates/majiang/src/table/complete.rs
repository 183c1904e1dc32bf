//! A fast "is this hand complete?" for the engine's hot path: per-suit arithmetic on the count
//! array, no allocation. Hands holding wildcards go to the table-driven
//! [`crate::analysis::is_win`] (only Hangzhou has them). Agrees with the slow reference analysis
//! (checked in the tests below).

use crate::analysis::HandRules;
use crate::counts::TileCounts;
use crate::tile::Tile;

/// True if the counts (size `3k + 2`) are a winning shape under `rules`.
pub fn is_complete(hand: &TileCounts, rules: &HandRules) -> bool {
    if let Some(w) = rules.wildcard {
        if hand.get(w.tile) > 0 {
            return crate::analysis::is_win(hand, rules);
        }
    }
    let c = &hand.0;
    let total: usize = c.iter().map(|&n| usize::from(n)).sum();
    if total % 3 != 2 {
        return false;
    }
    if standard(c) {
        return true;
    }
    if total == 14 {
        if rules.seven_pairs && seven_pairs(c, rules.four_as_two_pairs) {
            return true;
        }
        if rules.thirteen_orphans && thirteen_orphans(c) {
            return true;
        }
    }
    false
}

/// [`NUMBERED`]'s flag for a number tile from 2 to 8.
const SIMPLE: u8 = 4;

/// For each number kind index: its suit (0 to 2), with [`SIMPLE`] set for ranks 2 to 8 (a
/// table lookup instead of a division on every change of a hand).
static NUMBERED: [u8; 27] = {
    let mut t = [0u8; 27];
    let mut i = 0;
    while i < 27 {
        let rank = i % 9;
        t[i] = (i / 9) as u8 | if rank != 0 && rank != 8 { SIMPLE } else { 0 };
        i += 1;
    }
    t
};

/// Running statistics of a concealed hand, kept up to date on every change, that rule out
/// most incomplete hands in constant time before [`is_complete`] looks at the tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Screen {
    /// Tiles per number suit.
    suit_sum: [u8; 3],
    /// Honor kinds held once or four times (never part of sets and a pair).
    honor_bad: u8,
    /// Honor kinds held twice.
    honor_pairs: u8,
    /// Bit `k`: honor kind `27 + k` is held once (with the next two, what
    /// [`Screen::completing`] reads instead of the tiles).
    honor_ones: u8,
    /// Bit `k`: honor kind `27 + k` is held twice.
    honor_twos: u8,
    /// Bit `k`: honor kind `27 + k` is held four times.
    honor_fours: u8,
    /// Kinds held an odd number of times.
    odd: u8,
    /// Kinds held four times.
    fours: u8,
    /// Tiles that are neither terminals nor honors.
    non_orphans: u8,
    /// Tiles in all.
    total: u8,
}

impl Screen {
    /// True if some kind is held four times.
    pub fn has_four(&self) -> bool {
        self.fours > 0
    }

    /// The statistics of a hand, computed from scratch.
    pub fn of(hand: &TileCounts) -> Screen {
        let mut s = Screen::default();
        for (t, n) in hand.iter() {
            s.update(t, 0, n);
        }
        s
    }

    /// Records that the count of `t` went from `before` to `after` (both at most 4).
    #[inline]
    pub fn update(&mut self, t: Tile, before: u8, after: u8) {
        const BAD: [u8; 5] = [0, 1, 0, 0, 1];
        const PAIR: [u8; 5] = [0, 0, 1, 0, 0];
        const FOUR: [u8; 5] = [0, 0, 0, 0, 1];
        let i = t.index();
        if i >= 34 {
            return;
        }
        let (b, a) = (usize::from(before.min(4)), usize::from(after.min(4)));
        let delta = after.wrapping_sub(before);
        if i >= 27 {
            self.honor_bad = self.honor_bad.wrapping_add(BAD[a]).wrapping_sub(BAD[b]);
            self.honor_pairs = self.honor_pairs.wrapping_add(PAIR[a]).wrapping_sub(PAIR[b]);
            let k = i - 27;
            let keep = !(1u8 << k);
            self.honor_ones = (self.honor_ones & keep) | (u8::from(a == 1) << k);
            self.honor_twos = (self.honor_twos & keep) | (PAIR[a] << k);
            self.honor_fours = (self.honor_fours & keep) | (FOUR[a] << k);
        } else {
            let kind = NUMBERED[i];
            let suit = &mut self.suit_sum[usize::from(kind & 3)];
            *suit = suit.wrapping_add(delta);
            if kind & SIMPLE != 0 {
                self.non_orphans = self.non_orphans.wrapping_add(delta);
            }
        }
        self.odd = self.odd.wrapping_add(after & 1).wrapping_sub(before & 1);
        self.fours = self.fours.wrapping_add(FOUR[a]).wrapping_sub(FOUR[b]);
        self.total = self.total.wrapping_add(delta);
    }

    /// False when `hand` (whose statistics these are) plus `extra` certainly does not win under
    /// `rules`; true when it may (then ask [`is_complete`]). Hands holding a wildcard always
    /// pass.
    #[inline]
    pub fn may_complete(&self, hand: &TileCounts, extra: Option<Tile>, rules: &HandRules) -> bool {
        if let Some(w) = rules.wildcard {
            if hand.get(w.tile) > 0 || extra == Some(w.tile) {
                return wild_may_complete(hand, extra, w.tile, rules);
            }
        }
        let mut s = *self;
        if let Some(t) = extra {
            let c = hand.get(t);
            s.update(t, c, c + 1);
        }
        let mut pairs = s.honor_pairs;
        let mut bad = s.honor_bad > 0;
        for sum in s.suit_sum {
            bad |= sum % 3 == 1;
            pairs += u8::from(sum % 3 == 2);
        }
        if !bad && pairs == 1 {
            return true;
        }
        if s.total == 14 {
            if rules.seven_pairs && s.odd == 0 && (s.fours == 0 || rules.four_as_two_pairs) {
                return true;
            }
            if rules.thirteen_orphans && s.non_orphans == 0 {
                return true;
            }
        }
        false
    }

    /// The kinds (a bit per kind index) that may complete the hand these statistics describe
    /// when one is added: every `t` for which [`Screen::may_complete`] with `Some(t)` is true has
    /// its bit set (a few more may have). Worked out once per hand, it turns the screen of each
    /// discard the hand might win on, and of its own next draw, into one bit test.
    pub fn completing(&self, hand: &TileCounts, rules: &HandRules) -> u64 {
        const ALL: u64 = (1 << 34) - 1;
        let mut mask = 0u64;
        if let Some(w) = rules.wildcard {
            if hand.get(w.tile) > 0 {
                return ALL;
            }
            mask |= 1 << w.tile.index();
        }
        // Seven pairs and thirteen orphans need a 14th tile: rare enough to screen tile by tile.
        if self.total == 13
            && ((rules.seven_pairs && self.odd == 1)
                || (rules.thirteen_orphans && self.non_orphans == 0))
        {
            return ALL;
        }
        // Four sets and a pair: no suit at 1 mod 3, no honour kind held once or four times,
        // one pair in all (a suit at 2 mod 3 or an honour pair).
        let [a, b, c] = self.suit_sum.map(|s| usize::from(s % 3));
        let suits = &SUITS[a + 3 * b + 9 * c];
        let (ones, twos) = (suits.ones, usize::from(suits.twos));
        let pairs = usize::from(self.honor_pairs);
        if self.honor_bad == 0 {
            mask |= u64::from(suits.completing[pairs.min(2)]);
        }
        if ones == 0 {
            // An honour held once becomes a pair; held twice, a set (held four times: no change).
            let single_ok = self.honor_bad == 1 && pairs + twos == 0;
            let pair_ok = self.honor_bad == 0 && pairs + twos == 2;
            let four_ok = self.honor_bad == 0 && pairs + twos == 1;
            let pick = |ok: bool, kinds: u8| if ok { kinds } else { 0 };
            let honors = pick(single_ok, self.honor_ones)
                | pick(pair_ok, self.honor_twos)
                | pick(four_ok, self.honor_fours);
            mask |= u64::from(honors) << 27;
        }
        mask
    }
}

/// What [`Screen::completing`] reads from the three suits' tile counts mod 3.
#[derive(Clone, Copy)]
struct Suits {
    /// Suits at 1 mod 3.
    ones: u8,
    /// Suits at 2 mod 3.
    twos: u8,
    /// By honour pairs (0, 1, 2 or more), with no honour held once or four times: the number
    /// kinds (bits 0 to 26) whose suit, one tile up, leaves no suit at 1 mod 3 and one pair in
    /// all.
    completing: [u32; 3],
}

/// [`Suits`] for each remainder triple `a + 3 b + 9 c`, worked out at compile time.
static SUITS: [Suits; 27] = {
    let mut table = [Suits {
        ones: 0,
        twos: 0,
        completing: [0; 3],
    }; 27];
    let mut code = 0;
    while code < 27 {
        let rem = [code % 3, code / 3 % 3, code / 9];
        let mut ones = 0;
        let mut twos = 0;
        let mut s = 0;
        while s < 3 {
            ones += (rem[s] == 1) as usize;
            twos += (rem[s] == 2) as usize;
            s += 1;
        }
        let mut pairs = 0;
        while pairs < 3 {
            let mut mask = 0u32;
            let mut suit = 0;
            while suit < 3 {
                // A number tile of this suit moves its remainder up by one.
                let r = rem[suit];
                let ones_after = ones + (r == 0) as usize - (r == 1) as usize;
                let twos_after = twos + (r == 1) as usize - (r == 2) as usize;
                if ones_after == 0 && pairs + twos_after == 1 {
                    mask |= 0x1FF << (9 * suit);
                }
                suit += 1;
            }
            table[code].completing[pairs] = mask;
            pairs += 1;
        }
        table[code].ones = ones as u8;
        table[code].twos = twos as u8;
        code += 1;
    }
    table
};

/// A lower bound on the wildcards a hand needs, against the wildcards it has: each honor kind
/// and each suit is a separate group (a set never spans two), one group holds the pair (or two
/// wildcards make it), and a suit of `n` tiles needs at least enough to reach a multiple of
/// three (two more than one, for the pair). Never rules out a hand that wins.
fn wild_may_complete(
    hand: &TileCounts,
    extra: Option<Tile>,
    wild: Tile,
    rules: &HandRules,
) -> bool {
    // Honors: cost of sets only, and of sets with the pair, for n real tiles of one kind.
    const SETS: [u32; 5] = [0, 2, 1, 0, 2];
    const PAIR: [u32; 5] = [2, 1, 0, 2, 1];
    let mut c = hand.0;
    if let Some(t) = extra {
        c[t.index()] += 1;
    }
    let w = u32::from(c[wild.index()]);
    c[wild.index()] = 0;
    let mut need = 0u32;
    let mut best_delta = 2i32; // a pair of two wildcards
    let mut odd = 0u32;
    let mut total = w;
    for &n in &c[27..34] {
        let n = usize::from(n.min(4));
        need += SETS[n];
        if n > 0 {
            best_delta = best_delta.min(PAIR[n] as i32 - SETS[n] as i32);
        }
    }
    for suit in 0..3 {
        let sum: u32 = c[suit * 9..suit * 9 + 9]
            .iter()
            .map(|&n| u32::from(n))
            .sum();
        if sum > 0 {
            let m = (sum % 3) as usize;
            let (sets, pair) = [(0, 2), (2, 1), (1, 0)][m];
            need += sets;
            best_delta = best_delta.min(pair - sets as i32);
        }
    }
    for &n in c.iter() {
        odd += u32::from(n & 1);
        total += u32::from(n);
    }
    let standard = (need as i32 + best_delta) <= w as i32;
    let pairs = rules.seven_pairs && total == 14 && odd <= w;
    standard || pairs
}

fn sets_only(s: &[u8]) -> bool {
    let mut a = [0u8; 9];
    a.copy_from_slice(s);
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
}

fn standard(c: &[u8; 34]) -> bool {
    // Cheap, branch-free screening first: honors must come in threes or one pair, each suit's
    // count must be 0 or 2 mod 3, and exactly one pair overall.
    let mut bad = false;
    let mut pairs = 0u32;
    for &n in &c[27..34] {
        bad |= n == 1 || n == 4;
        pairs += u32::from(n == 2);
    }
    let mut sums = [0u32; 3];
    for (suit, sum) in sums.iter_mut().enumerate() {
        *sum = c[suit * 9..suit * 9 + 9]
            .iter()
            .map(|&n| u32::from(n))
            .sum();
        bad |= *sum % 3 == 1;
        pairs += u32::from(*sum % 3 == 2);
    }
    if bad || pairs != 1 {
        return false;
    }
    for (suit, &sum) in sums.iter().enumerate() {
        let s = &c[suit * 9..suit * 9 + 9];
        if sum % 3 == 0 {
            if !sets_only(s) {
                return false;
            }
        } else {
            let mut t = [0u8; 9];
            let ok = (0..9).any(|i| {
                s[i] >= 2 && {
                    t.copy_from_slice(s);
                    t[i] -= 2;
                    sets_only(&t)
                }
            });
            if !ok {
                return false;
            }
        }
    }
    true
}

fn seven_pairs(c: &[u8; 34], four_as_two: bool) -> bool {
    let mut pairs = 0;
    for &n in c.iter() {
        match n {
            0 => {}
            2 => pairs += 1,
            4 if four_as_two => pairs += 2,
            _ => return false,
        }
    }
    pairs == 7
}

fn thirteen_orphans(c: &[u8; 34]) -> bool {
    let mut pair = false;
    for (i, &n) in c.iter().enumerate() {
        let orphan = Tile::from_index(i).is_some_and(Tile::is_terminal_or_honor);
        match (orphan, n) {
            (false, 0) => {}
            (false, _) => return false,
            (true, 1) => {}
            (true, 2) if !pair => pair = true,
            _ => return false,
        }
    }
    pair
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::reference;
    use rand::{Rng, SeedableRng};

    #[test]
    fn agrees_with_the_reference_on_random_and_near_complete_hands() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let rule_sets = [
            HandRules::STANDARD_ONLY,
            HandRules::ALL_FORMS,
            HandRules {
                four_as_two_pairs: true,
                ..HandRules::ALL_FORMS
            },
            // Hangzhou's hand rules with White as the wildcard.
            crate::table::TableRules::from_name("hangzhou", &serde_json::Map::new())
                .expect("hangzhou")
                .hand_rules(Some(Tile::WHITE)),
            HandRules::STANDARD_ONLY.with_wildcard(Tile::WHITE),
        ];
        let mut wins = 0;
        for round in 0..20_000 {
            let mut c = TileCounts::EMPTY;
            let size = [14, 11, 8, 5, 2][round % 5];
            // Bias towards few kinds so that complete hands come up often.
            let kinds: u32 = rng.random_range(4..34);
            let off: u32 = rng.random_range(0..34);
            // Half the hands hold wildcards (White dragons for the wild rule sets).
            if rng.random_bool(0.5) {
                c.0[Tile::WHITE.index()] = rng.random_range(1..=3);
            }
            while c.len() < size {
                let i = ((rng.random_range(0..kinds) + off) % 34) as usize;
                if c.0[i] < 4 {
                    c.0[i] += 1;
                }
            }
            for r in &rule_sets {
                let fast = is_complete(&c, r);
                assert_eq!(fast, reference::is_win(&c.0, r), "{c} {r:?}");
                // The screen never rules out a complete hand, with or without an extra tile.
                assert!(!fast || Screen::of(&c).may_complete(&c, None, r), "{c}");
                let mut less = c;
                let last = less.iter().last().map(|(t, _)| t);
                if let Some(t) = last {
                    less.remove(t);
                    assert!(
                        !fast || Screen::of(&less).may_complete(&less, Some(t), r),
                        "{c}"
                    );
                }
                wins += usize::from(fast);
            }
        }
        assert!(wins > 100, "too few complete hands tried: {wins}");
    }

    #[test]
    fn completing_kinds_cover_every_kind_the_screen_lets_through() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let rule_sets = [
            HandRules::STANDARD_ONLY,
            HandRules::ALL_FORMS,
            HandRules {
                four_as_two_pairs: true,
                ..HandRules::ALL_FORMS
            },
            HandRules::ALL_FORMS.with_wildcard(Tile::WHITE),
        ];
        let mut through = 0;
        for round in 0..20_000 {
            let mut c = TileCounts::EMPTY;
            let size = [13, 13, 10, 7, 4, 1][round % 6];
            let kinds: u32 = rng.random_range(4..34);
            let off: u32 = rng.random_range(0..34);
            while c.len() < size {
                let i = ((rng.random_range(0..kinds) + off) % 34) as usize;
                if c.0[i] < 4 {
                    c.0[i] += 1;
                }
            }
            let screen = Screen::of(&c);
            for r in &rule_sets {
                let mask = screen.completing(&c, r);
                for i in 0..34 {
                    let t = Tile::from_index(i).expect("a kind");
                    if screen.may_complete(&c, Some(t), r) {
                        assert!(mask & (1 << i) != 0, "{c} + {t} under {r:?}");
                        through += 1;
                    }
                }
            }
        }
        assert!(through > 10_000, "too few hands let through: {through}");
    }
}
