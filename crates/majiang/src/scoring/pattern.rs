//! The shape every rule set's pattern table shares.

use super::{PatternScore, Unit};

/// One row of a rule set's pattern table (each set lists its rows as `rules::<set>::PATTERNS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PatternDef {
    /// Stable snake_case id, e.g. `little_three_dragons`.
    pub id: &'static str,
    /// The seed's name, e.g. "Little Three Dragons".
    pub name: &'static str,
    /// The value of one occurrence under the default options (for a row whose value an option
    /// sets, that option's default).
    pub value: i64,
    /// What the value counts.
    pub unit: Unit,
    /// The definition as implemented, in a sentence.
    pub definition: &'static str,
    /// The option that sets the value instead, if any: `limit` for the Hong Kong special hands,
    /// `seven_pairs` for Hong Kong's Seven Pairs, `base` for the Hangzhou base score.
    pub option: Option<&'static str>,
    /// True if the row counts once per set that meets it (a pung of dragons, a concealed
    /// triplet), false if at most once per hand.
    pub per_set: bool,
}

impl PatternDef {
    /// A row counted at most once per hand, its value fixed.
    pub const fn new(
        id: &'static str,
        name: &'static str,
        value: i64,
        unit: Unit,
        definition: &'static str,
    ) -> PatternDef {
        PatternDef {
            id,
            name,
            value,
            unit,
            definition,
            option: None,
            per_set: false,
        }
    }

    /// The same row, counted once per set that meets it.
    pub const fn per_set(self) -> PatternDef {
        PatternDef {
            per_set: true,
            ..self
        }
    }

    /// The same row, its value set by the option `option` (whose default is `value`).
    pub const fn set_by(self, option: &'static str) -> PatternDef {
        PatternDef {
            option: Some(option),
            ..self
        }
    }

    /// The row's value as people read it, the same words everywhere: `3 fan`, `10 points`,
    /// `1 double`, `×2`, with `each` for a row counted per set and `(option limit)` when an
    /// option sets it.
    ///
    /// ```
    /// let texts: Vec<String> =
    ///     majiang::rules::hongkong::PATTERNS.iter().map(|p| p.value_text()).collect();
    /// assert!(texts.iter().any(|t| t == "3 fan"));
    /// ```
    pub fn value_text(&self) -> String {
        let plural = if self.value == 1 { "" } else { "s" };
        let mut text = match self.unit {
            Unit::Fan => format!("{} fan", self.value),
            Unit::Points => format!("{} point{plural}", self.value),
            Unit::Double => format!("{} double{plural}", self.value),
            Unit::Multiplier => format!("×{}", self.value),
        };
        if self.per_set {
            text.push_str(" each");
        }
        if let Some(option) = self.option {
            text.push_str(&format!(" (option {option})"));
        }
        text
    }

    /// This row scored at `value` (in its unit).
    pub fn score(&self, value: i64) -> PatternScore {
        PatternScore::new(self.id, self.name, value, self.unit)
    }
}
