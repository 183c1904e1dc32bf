//! Reading a hand from the command line: concealed tiles followed by declared melds.
//!
//! `"123m456p11z pung 555z chow 234s"`: plain tile groups are the concealed tiles; a meld keyword
//! (`chow`, `pung`, `kong`, `concealed_kong`) takes the tiles after it as a declared meld.

use majiang::{Meld, MeldKind, TileCounts, notation::parse_tiles};

/// A hand as typed: concealed tiles and declared melds.
pub struct HandInput {
    /// The concealed tiles, in the order typed.
    pub concealed: Vec<majiang::Tile>,
    /// Declared melds.
    pub melds: Vec<Meld>,
}

/// Parses `concealed [kind tiles]...`.
pub fn parse_hand(input: &str) -> Result<HandInput, String> {
    let mut concealed = Vec::new();
    let mut melds = Vec::new();
    let mut words = input.split_whitespace().peekable();
    while let Some(word) = words.next() {
        if MeldKind::from_keyword(&word.to_ascii_lowercase()).is_some() {
            let tiles = words.next().ok_or_else(|| {
                format!("{input:?}: {word} needs its tiles after it, e.g. \"{word} 555z\"")
            })?;
            let meld = Meld::parse(&format!("{word} {tiles}")).map_err(|e| e.to_string())?;
            melds.push(meld);
        } else {
            concealed.extend(parse_tiles(word).map_err(|e| e.to_string())?);
        }
    }
    Ok(HandInput { concealed, melds })
}

/// Checks that no kind appears more than four times across the concealed tiles and the melds,
/// and returns the concealed counts.
pub fn check_copies(hand: &HandInput, extra: &[majiang::Tile]) -> Result<TileCounts, String> {
    let mut all = hand.concealed.clone();
    all.extend_from_slice(extra);
    for m in &hand.melds {
        all.extend(m.tiles());
    }
    TileCounts::from_tiles(&all).map_err(|e| e.to_string())?;
    TileCounts::from_tiles(&hand.concealed).map_err(|e| e.to_string())
}
