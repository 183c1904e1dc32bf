//! A Hong Kong reading of a winning hand: its form (sets and a pair, seven pairs, thirteen
//! orphans) and, for sets and a pair, the shared
//! [`scoring::reading`](crate::scoring::reading) sets. Scoring looks at every reading and keeps
//! the one worth most.

use super::options::Options;
use crate::analysis::{self, Form, HandRules};
use crate::counts::TileCounts;
use crate::scoring::reading::Reader;
pub(crate) use crate::scoring::reading::{Set, SetKind};
use crate::scoring::{Invalid, WinSituation};
use crate::tile::{KINDS, Suit, Tile};

/// One reading of the winner's whole hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hand {
    pub form: Form,
    /// The four sets, the concealed hand's then the declared melds (standard form only).
    pub sets: Vec<Set>,
    /// The pair (standard form only).
    pub pair: Option<Tile>,
    /// Every tile of the hand, declared melds included (a kong counts four).
    pub tiles: TileCounts,
    /// What the tiles hold (the same for every reading of a hand, so worked out once).
    pub suits: SuitsHeld,
    /// No declared meld at all (not even a concealed kong).
    pub no_melds: bool,
    /// The kinds of the pungs among the sets, a bit per kind index (kongs not included).
    pub pungs: u64,
    /// The kinds of the kongs among the sets, a bit per kind index.
    pub kongs: u64,
}

/// The bit of `t` in a set of kinds.
pub(crate) const fn bit(t: Tile) -> u64 {
    1 << t.index()
}

impl Hand {
    /// The sets that are pungs or kongs of `t` (one at most: a kind has four tiles).
    pub fn triplets_of(&self, t: Tile) -> usize {
        usize::from((self.pungs | self.kongs) & bit(t) != 0)
    }

    /// How many of the kinds in `kinds` (a bit per kind) have a set of `kind`: a pung, a kong,
    /// or either.
    pub fn sets_among(&self, kinds: u64, kind: SetKind) -> u32 {
        let held = match kind {
            SetKind::Pung => self.pungs,
            SetKind::Kong => self.kongs,
            SetKind::Chow => 0,
        };
        (held & kinds).count_ones()
    }

    /// True if every tile of the hand satisfies `f`.
    pub fn all_tiles(&self, f: impl Fn(Tile) -> bool) -> bool {
        self.tiles.iter().all(|(t, _)| f(t))
    }

    /// How many number suits are present.
    pub fn number_suits(&self) -> usize {
        self.suits.number_suits
    }

    /// True if some tile is an honor.
    pub fn has_honors(&self) -> bool {
        self.suits.honors
    }
}

/// The suits a hand's tiles hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SuitsHeld {
    /// How many number suits.
    pub number_suits: usize,
    /// True if some tile is an honor.
    pub honors: bool,
}

impl SuitsHeld {
    /// The suits of `tiles`.
    pub fn of(tiles: &TileCounts) -> SuitsHeld {
        let mut numbers = [false; 3];
        let mut honors = false;
        for (t, _) in tiles.iter() {
            match t.suit() {
                Suit::Characters => numbers[0] = true,
                Suit::Dots => numbers[1] = true,
                Suit::Bamboo => numbers[2] = true,
                Suit::Honors => honors = true,
                Suit::Bonus => {}
            }
        }
        SuitsHeld {
            number_suits: numbers.iter().filter(|&&n| n).count(),
            honors,
        }
    }
}

/// The winning-shape rules of Hong Kong: sets and a pair, seven distinct pairs (unless the
/// `seven_pairs` option is 0), thirteen orphans; no wildcards.
pub(crate) fn hand_rules(options: &Options) -> HandRules {
    HandRules {
        seven_pairs: options.seven_pairs > 0,
        four_as_two_pairs: false,
        thirteen_orphans: true,
        wildcard: None,
    }
}

/// Every reading of the winner's hand; `Invalid` if the tile count is wrong or it does not win.
pub(crate) fn readings(s: &WinSituation, options: &Options) -> Result<Vec<Hand>, Invalid> {
    let full = s.full_concealed();
    let want = 14usize.saturating_sub(3 * s.melds.len());
    if s.melds.len() > 4 || full.len() != want {
        return Err(Invalid(crate::scoring::invalid::TILE_COUNT.with([
            s.melds.len().into(),
            want.into(),
            full.len().into(),
        ])));
    }
    let mut tiles = full;
    for m in &s.melds {
        for t in m.tiles() {
            tiles.add(t);
        }
    }
    if let Some(i) = (0..KINDS).find(|&i| tiles.0[i] > 4) {
        let t = Tile::from_index(i).map_or_else(String::new, |t| t.to_string());
        return Err(Invalid(
            crate::scoring::invalid::MORE_THAN_FOUR.with([t.into()]),
        ));
    }
    let decomps = analysis::decompositions(&full, &hand_rules(options));
    if decomps.is_empty() {
        return Err(Invalid::from(&crate::scoring::invalid::NOT_SETS_HONGKONG));
    }
    let reader = Reader::new(s);
    let suits = SuitsHeld::of(&tiles);
    Ok(decomps
        .into_iter()
        .map(|d| {
            // Hong Kong's rows ignore where the winning tile sits: one reading per split (the
            // first place of the winning tile) is enough.
            let (sets, pair) = match reader.first(&d) {
                Some(r) => (r.sets, Some(r.pair)),
                None => (reader.declared().to_vec(), None),
            };
            let kinds = |kind: SetKind| {
                sets.iter()
                    .filter(|set| set.kind == kind)
                    .fold(0, |m, set| m | bit(set.tile))
            };
            Hand {
                form: d.form,
                pungs: kinds(SetKind::Pung),
                kongs: kinds(SetKind::Kong),
                sets,
                pair,
                tiles,
                suits,
                no_melds: s.melds.is_empty(),
            }
        })
        .collect())
}
