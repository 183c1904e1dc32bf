//! Tile pictures drawn as SVG: a cream face, the suit in its colour (characters red and blue,
//! dots in circles, bamboo in green sticks), honours as characters, and the notation in the
//! corner so a tile reads even without a CJK font.

use majiang::tile::{Suit, Tile};
use std::fmt::Write;

const W: f32 = 60.0;
const H: f32 = 80.0;

const NUMERALS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const HONOURS: [&str; 7] = ["東", "南", "西", "北", "", "發", "中"];
const BONUS: [&str; 8] = ["梅", "蘭", "菊", "竹", "春", "夏", "秋", "冬"];

/// Where the pips of a dots or bamboo tile sit, by rank (in the 60×80 face).
fn pips(rank: u8) -> &'static [(f32, f32)] {
    match rank {
        1 => &[(30.0, 42.0)],
        2 => &[(30.0, 24.0), (30.0, 58.0)],
        3 => &[(16.0, 20.0), (30.0, 41.0), (44.0, 62.0)],
        4 => &[(19.0, 24.0), (41.0, 24.0), (19.0, 58.0), (41.0, 58.0)],
        5 => &[
            (17.0, 20.0),
            (43.0, 20.0),
            (30.0, 41.0),
            (17.0, 62.0),
            (43.0, 62.0),
        ],
        6 => &[
            (20.0, 19.0),
            (40.0, 19.0),
            (20.0, 41.0),
            (40.0, 41.0),
            (20.0, 63.0),
            (40.0, 63.0),
        ],
        7 => &[
            (14.0, 15.0),
            (30.0, 23.0),
            (46.0, 31.0),
            (20.0, 48.0),
            (40.0, 48.0),
            (20.0, 66.0),
            (40.0, 66.0),
        ],
        8 => &[
            (20.0, 15.0),
            (40.0, 15.0),
            (20.0, 32.0),
            (40.0, 32.0),
            (20.0, 49.0),
            (40.0, 49.0),
            (20.0, 66.0),
            (40.0, 66.0),
        ],
        _ => &[
            (15.0, 19.0),
            (30.0, 19.0),
            (45.0, 19.0),
            (15.0, 41.0),
            (30.0, 41.0),
            (45.0, 41.0),
            (15.0, 63.0),
            (30.0, 63.0),
            (45.0, 63.0),
        ],
    }
}

/// The SVG picture of a tile.
///
/// ```
/// let five_dots: majiang::tile::Tile = "5p".parse().unwrap();
/// let svg = majiang_server::svg::tile_svg(five_dots);
/// assert!(svg.starts_with("<svg"));
/// assert_eq!(svg.matches("<circle").count(), 10); // five pips, each two rings
/// ```
pub fn tile_svg(tile: Tile) -> String {
    let mut s = String::with_capacity(1024);
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}"><title>{name}</title><rect x="1" y="1" width="58" height="78" rx="7" fill="#fbf6e9" stroke="#8a7f66" stroke-width="2"/>"##,
        name = tile.name()
    );
    let rank = tile.rank();
    let text = |s: &mut String, x: f32, y: f32, size: f32, fill: &str, t: &str| {
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" font-size="{size}" fill="{fill}" text-anchor="middle" font-family="'Noto Serif CJK SC','Noto Sans CJK SC',serif" font-weight="bold">{t}</text>"#
        );
    };
    match tile.suit() {
        Suit::Characters => {
            text(
                &mut s,
                30.0,
                36.0,
                26.0,
                "#1d3f8f",
                NUMERALS[usize::from(rank) - 1],
            );
            text(&mut s, 30.0, 68.0, 28.0, "#c0262d", "萬");
        }
        Suit::Dots => {
            for (i, &(x, y)) in pips(rank).iter().enumerate() {
                let r = if rank == 1 { 17.0 } else { 7.0 };
                let colour = match (rank, i % 3) {
                    (1, _) => "#c0262d",
                    (_, 0) => "#1d3f8f",
                    (_, 1) => "#1e7d3a",
                    _ => "#c0262d",
                };
                let _ = write!(
                    s,
                    r#"<circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="{colour}" stroke-width="3"/><circle cx="{x}" cy="{y}" r="{}" fill="{colour}"/>"#,
                    r / 3.0
                );
            }
        }
        Suit::Bamboo => {
            for &(x, y) in pips(rank) {
                let (w, h) = if rank == 1 { (10.0, 40.0) } else { (6.0, 15.0) };
                let colour = if rank == 1 { "#c0262d" } else { "#1e7d3a" };
                let _ = write!(
                    s,
                    r##"<rect x="{}" y="{}" width="{w}" height="{h}" rx="3" fill="{colour}"/><line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#fbf6e9" stroke-width="1.5"/>"##,
                    x - w / 2.0,
                    y - h / 2.0,
                    x - w / 2.0,
                    x + w / 2.0
                );
            }
        }
        Suit::Honors => match rank {
            5 => {
                // White dragon: an empty blue frame.
                let _ = write!(
                    s,
                    r##"<rect x="12" y="14" width="36" height="52" rx="3" fill="none" stroke="#1d3f8f" stroke-width="4"/>"##
                );
            }
            r => {
                let colour = match r {
                    6 => "#1e7d3a",
                    7 => "#c0262d",
                    _ => "#222222",
                };
                text(
                    &mut s,
                    30.0,
                    54.0,
                    36.0,
                    colour,
                    HONOURS[usize::from(r) - 1],
                );
            }
        },
        Suit::Bonus => {
            let colour = if rank <= 4 { "#b0306a" } else { "#2f6f8f" };
            text(
                &mut s,
                30.0,
                52.0,
                32.0,
                colour,
                BONUS[usize::from(rank) - 1],
            );
        }
    }
    let _ = write!(
        s,
        r##"<text x="55" y="76" font-size="10" fill="#6b6250" text-anchor="end" font-family="sans-serif">{tile}</text></svg>"##
    );
    s
}

/// The picture of the tile named in notation (`5m`, `7z`, `3f`), or `back` for a face-down
/// tile; `None` for an unknown name.
pub fn tile_svg_by_name(name: &str) -> Option<String> {
    if name == "back" {
        return Some(format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}"><rect x="1" y="1" width="58" height="78" rx="7" fill="#2f7d6d" stroke="#1c4d43" stroke-width="2"/><rect x="8" y="8" width="44" height="64" rx="4" fill="none" stroke="#9fd3c4" stroke-width="1.5"/></svg>"##
        ));
    }
    // Only plain notation: a digit and a suit letter.
    let b = name.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_digit() {
        return None;
    }
    name.parse::<Tile>().ok().map(tile_svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_has_a_distinct_picture() {
        let mut seen = std::collections::HashSet::new();
        for t in Tile::all().chain(Tile::bonus_tiles()) {
            let svg = tile_svg_by_name(&t.to_string()).unwrap();
            assert!(
                svg.contains(&format!(">{t}</text></svg>")),
                "{t}: corner label"
            );
            assert!(seen.insert(svg), "{t}: same picture as another tile");
        }
        assert_eq!(seen.len(), 42);
    }

    #[test]
    fn pips_match_the_rank() {
        for r in 1..=9u8 {
            assert_eq!(pips(r).len(), usize::from(r));
            let s = tile_svg(Tile::new(Suit::Bamboo, r).unwrap());
            assert_eq!(s.matches("<rect").count(), 1 + usize::from(r));
        }
    }

    #[test]
    fn unknown_names_are_refused() {
        for bad in ["", "0m", "10m", "5x", "<script>", "5m5m", "8z"] {
            assert!(tile_svg_by_name(bad).is_none(), "{bad}");
        }
        assert!(tile_svg_by_name("back").is_some());
    }
}
