//! Tiles as text: ASCII notation (`5m`, `7z`) or Unicode glyphs, and melds laid out with the
//! claimed tile marked by where it came from.

use majiang::meld::{Meld, MeldKind};
use majiang::seat::Seat;
use majiang::tile::Tile;

/// How tiles are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TileStyle {
    /// Notation, two characters a tile: `5m`, `1z` (safe on any terminal).
    Ascii,
    /// The Unicode mahjong glyphs (U+1F000 block), each followed by a space, since terminals
    /// disagree on their width.
    Glyphs,
}

impl TileStyle {
    /// The other style.
    pub fn toggled(self) -> TileStyle {
        match self {
            TileStyle::Ascii => TileStyle::Glyphs,
            TileStyle::Glyphs => TileStyle::Ascii,
        }
    }

    /// One tile, two columns wide.
    pub fn tile(self, t: Tile) -> String {
        match self {
            TileStyle::Ascii => t.to_string(),
            TileStyle::Glyphs => format!("{} ", t.glyph()),
        }
    }

    /// Tiles separated by single spaces.
    pub fn tiles(self, tiles: &[Tile]) -> String {
        tiles
            .iter()
            .map(|&t| self.tile(t))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Where a claimed tile came from, relative to the meld's owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The left neighbour (the player before in turn order).
    Left,
    /// Across the table.
    Across,
    /// The right neighbour (the player after in turn order).
    Right,
}

/// The side `from` sits on as seen from `owner`, for a table in `order` (turn order).
pub fn side_of(order: &[Seat], owner: Seat, from: Seat) -> Option<Side> {
    let n = order.len();
    let a = order.iter().position(|&s| s == owner)?;
    let b = order.iter().position(|&s| s == from)?;
    let offset = (b + n - a) % n;
    match offset {
        0 => None,
        1 => Some(Side::Right),
        o if o == n - 1 => Some(Side::Left),
        _ => Some(Side::Across),
    }
}

/// A meld as text, the seeds' rotated-tile convention in brackets: the claimed tile is put in
/// brackets on the side it came from (left, middle for across, right), so a pung of Red claimed
/// from the left reads `[7z]7z 7z`. A concealed kong shows its two face-down ends as `##`
/// unless `reveal` (the owner's own view).
pub fn meld_text(
    style: TileStyle,
    order: &[Seat],
    owner: Seat,
    meld: &Meld,
    reveal: bool,
) -> String {
    let mut tiles = meld.tiles();
    if meld.kind == MeldKind::ConcealedKong {
        return if reveal {
            style.tiles(&tiles)
        } else {
            let face = |i: usize| style.tile(tiles.get(i).copied().unwrap_or(meld.tile));
            format!("## {} {} ##", face(1), face(2))
        };
    }
    let claimed = meld.claimed.unwrap_or(meld.tile);
    let side = meld.from.and_then(|f| side_of(order, owner, f));
    let Some(side) = side else {
        return style.tiles(&tiles);
    };
    // The claimed tile itself; a meld without its extra winds' own tiles (an older log) shows
    // copies of its lowest, and the claimed extra wind stands for one of them.
    let alike = |t: Tile| t.is_bonus() && claimed.is_bonus();
    if let Some(i) = tiles
        .iter()
        .position(|&t| t == claimed)
        .or_else(|| tiles.iter().position(|&t| alike(t)))
    {
        tiles.remove(i);
    }
    let at = match side {
        Side::Left => 0,
        Side::Across => 1,
        Side::Right => tiles.len(),
    };
    let mut parts: Vec<String> = tiles.iter().map(|&t| style.tile(t)).collect();
    parts.insert(at, format!("[{}]", style.tile(claimed)));
    // Brackets replace the separating spaces next to them.
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 && !p.starts_with('[') && !parts[i - 1].starts_with('[') {
            out.push(' ');
        }
        out.push_str(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    #[test]
    fn ascii_and_glyphs() {
        assert_eq!(TileStyle::Ascii.tile(t("5m")), "5m");
        assert_eq!(TileStyle::Glyphs.tile(t("7z")), "\u{1F004} ");
        assert_eq!(TileStyle::Ascii.tiles(&[t("1p"), t("2p")]), "1p 2p");
        assert_eq!(TileStyle::Ascii.toggled(), TileStyle::Glyphs);
    }

    #[test]
    fn sides_follow_turn_order() {
        let four = &Seat::FOUR;
        assert_eq!(side_of(four, Seat::East, Seat::North), Some(Side::Left));
        assert_eq!(side_of(four, Seat::East, Seat::South), Some(Side::Right));
        assert_eq!(side_of(four, Seat::East, Seat::West), Some(Side::Across));
        assert_eq!(side_of(four, Seat::South, Seat::East), Some(Side::Left));
        assert_eq!(side_of(four, Seat::East, Seat::East), None);
        let three = Seat::order(3).unwrap();
        assert_eq!(side_of(three, Seat::East, Seat::North), Some(Side::Left));
        assert_eq!(side_of(three, Seat::East, Seat::South), Some(Side::Right));
    }

    #[test]
    fn claimed_tile_bracketed_on_its_side() {
        let four = &Seat::FOUR;
        let mut pung: Meld = "pung 777z".parse().unwrap();
        pung.from = Some(Seat::North);
        pung.claimed = Some(t("7z"));
        let a = TileStyle::Ascii;
        assert_eq!(meld_text(a, four, Seat::East, &pung, false), "[7z]7z 7z");
        pung.from = Some(Seat::West);
        assert_eq!(meld_text(a, four, Seat::East, &pung, false), "7z[7z]7z");
        pung.from = Some(Seat::South);
        assert_eq!(meld_text(a, four, Seat::East, &pung, false), "7z 7z[7z]");
        let mut chow: Meld = "chow 345s".parse().unwrap();
        chow.from = Some(Seat::North);
        chow.claimed = Some(t("4s"));
        assert_eq!(meld_text(a, four, Seat::East, &chow, false), "[4s]3s 5s");
        // An extra-wind pung (six players) of 3f 5f 6f, 6f claimed: its own three tiles.
        let mut winds = majiang::table::ExtraWinds::EMPTY;
        for f in ["3f", "5f", "6f"] {
            winds.insert(t(f));
        }
        let mut extra = Meld::of_extra_winds(MeldKind::Pung, winds).unwrap();
        extra.from = Some(Seat::North);
        extra.claimed = Some(t("6f"));
        assert_eq!(meld_text(a, four, Seat::East, &extra, false), "[6f]3f 5f");
        extra.from = Some(Seat::West);
        assert_eq!(meld_text(a, four, Seat::East, &extra, false), "3f[6f]5f");
        extra.from = Some(Seat::South);
        assert_eq!(meld_text(a, four, Seat::East, &extra, false), "3f 5f[6f]");
        let ck: Meld = "concealed_kong 9999p".parse().unwrap();
        assert_eq!(meld_text(a, four, Seat::East, &ck, false), "## 9p 9p ##");
        assert_eq!(meld_text(a, four, Seat::East, &ck, true), "9p 9p 9p 9p");
    }
}
