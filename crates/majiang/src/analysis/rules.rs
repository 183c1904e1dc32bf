//! Which hand shapes win, and how wildcards behave: the knobs a rule set turns.

use crate::tile::Tile;

/// How wildcards work in a hand, when the rule set has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wildcard {
    /// The wild kind. Every copy of it in a hand is a wildcard.
    pub tile: Tile,
    /// Whether a wildcard may stand for its own kind (e.g. a White dragon wildcard standing for a
    /// White dragon). It may always stand for any other kind.
    pub as_own_kind: bool,
}

/// Which winning shapes a rule set recognizes, and its wildcards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HandRules {
    /// Seven pairs wins (only with a full 14-tile concealed hand).
    pub seven_pairs: bool,
    /// In seven pairs a four-of-a-kind may count as two pairs; otherwise the pairs are distinct.
    pub four_as_two_pairs: bool,
    /// Thirteen orphans wins (only with a full 14-tile concealed hand).
    pub thirteen_orphans: bool,
    /// The wildcard kind, if the rule set has wildcards.
    pub wildcard: Option<Wildcard>,
}

impl HandRules {
    /// Four sets and a pair only.
    pub const STANDARD_ONLY: HandRules = HandRules {
        seven_pairs: false,
        four_as_two_pairs: false,
        thirteen_orphans: false,
        wildcard: None,
    };

    /// Four sets and a pair, seven distinct pairs, thirteen orphans; no wildcards.
    pub const ALL_FORMS: HandRules = HandRules {
        seven_pairs: true,
        four_as_two_pairs: false,
        thirteen_orphans: true,
        wildcard: None,
    };

    /// The same rules with this wildcard kind (standing for its own kind too).
    pub const fn with_wildcard(mut self, tile: Tile) -> HandRules {
        self.wildcard = Some(Wildcard {
            tile,
            as_own_kind: true,
        });
        self
    }
}

impl Default for HandRules {
    fn default() -> Self {
        HandRules::ALL_FORMS
    }
}
