//! Tile pictures drawn as SVG: a cream face, the suit in its colour (characters red and blue,
//! dots in circles, bamboo in green sticks), honours and bonus tiles as characters, and the
//! notation in the corner. Every character is drawn as a path from glyph outlines embedded in
//! the binary (`glyphs/tile_glyphs.txt`, Noto CJK outlines under the OFL), so a tile looks the same on a machine without a CJK font.

use majiang::tile::{Suit, Tile};
use std::fmt::Write;

const W: f32 = 60.0;
const H: f32 = 80.0;

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
/// The honours by rank; the white dragon (rank 5) is a frame, not a character.
const HONOURS: [Option<char>; 7] = [
    Some('東'),
    Some('南'),
    Some('西'),
    Some('北'),
    None,
    Some('發'),
    Some('中'),
];
const BONUS: [char; 8] = ['梅', '蘭', '菊', '竹', '春', '夏', '秋', '冬'];

/// Glyph outlines for every character a tile shows, one a line: the character, its advance
/// width and a relative SVG path, in font units (1000 to the em) with y pointing down and the
/// origin at the left end of the baseline. Taken from Debian's Noto CJK fonts (SIL Open Font
/// License 1.1, `glyphs/OFL.txt`) by `scripts/tile-glyphs.py`: bold serif for the faces, sans
/// for the corner labels.
const GLYPHS: &str = include_str!("glyphs/tile_glyphs.txt");

/// Font units to the em in [`GLYPHS`].
const UNITS_PER_EM: f32 = 1000.0;

/// One character's outline from [`GLYPHS`].
#[derive(Debug, Clone, Copy)]
struct Glyph {
    /// How far the pen moves after this glyph, in font units.
    advance: f32,
    /// Relative SVG path data in font units, y down, from the baseline's left end.
    path: &'static str,
}

/// The outline of `c`, if [`GLYPHS`] has it.
fn glyph(c: char) -> Option<Glyph> {
    GLYPHS
        .lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| {
            let rest = line.strip_prefix(c)?.strip_prefix(' ')?;
            let (advance, path) = rest.split_once(' ')?;
            Some(Glyph {
                advance: advance.parse().ok()?,
                path,
            })
        })
}

/// Which point of a line of glyphs sits at the given x, as SVG's `text-anchor`.
#[derive(Debug, Clone, Copy)]
enum Anchor {
    /// Centred on x.
    Middle,
    /// Ending at x.
    End,
}

/// A number for an SVG attribute: at most three decimals, no trailing zeros.
fn num(v: f32) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// Draws `text` as glyph paths with its baseline at `y`, as `<text>` with this font size,
/// fill and anchor would. A character without an outline is left out.
fn glyph_line(s: &mut String, text: &str, x: f32, y: f32, size: f32, fill: &str, anchor: Anchor) {
    let scale = size / UNITS_PER_EM;
    let glyphs: Vec<Glyph> = text.chars().filter_map(glyph).collect();
    let width: f32 = glyphs.iter().map(|g| g.advance * scale).sum();
    let mut pen = match anchor {
        Anchor::Middle => x - width / 2.0,
        Anchor::End => x - width,
    };
    for g in glyphs {
        let _ = write!(
            s,
            r#"<path fill="{fill}" transform="translate({} {}) scale({})" d="{}"/>"#,
            num(pen),
            num(y),
            num(scale),
            g.path
        );
        pen += g.advance * scale;
    }
}

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

/// Draws one character of a tile's face centred on `x`, baseline at `y`.
fn face_char(s: &mut String, c: char, x: f32, y: f32, size: f32, fill: &str) {
    glyph_line(
        s,
        c.encode_utf8(&mut [0; 4]),
        x,
        y,
        size,
        fill,
        Anchor::Middle,
    );
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
    match tile.suit() {
        Suit::Characters => {
            face_char(
                &mut s,
                NUMERALS[usize::from(rank) - 1],
                30.0,
                36.0,
                26.0,
                "#1d3f8f",
            );
            face_char(&mut s, '萬', 30.0, 68.0, 28.0, "#c0262d");
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
                if let Some(c) = HONOURS[usize::from(r) - 1] {
                    face_char(&mut s, c, 30.0, 54.0, 36.0, colour);
                }
            }
        },
        Suit::Bonus => {
            let colour = if rank <= 4 { "#b0306a" } else { "#2f6f8f" };
            face_char(
                &mut s,
                BONUS[usize::from(rank) - 1],
                30.0,
                52.0,
                32.0,
                colour,
            );
        }
    }
    // The notation in the corner, e.g. `7m`.
    glyph_line(
        &mut s,
        &tile.to_string(),
        55.0,
        76.0,
        10.0,
        "#6b6250",
        Anchor::End,
    );
    s.push_str("</svg>");
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

/// Tiles per row on [`tile_sheet`].
const SHEET_COLUMNS: usize = 10;

/// Every tile picture (the 34 kinds, the 8 bonus tiles and the back) on one SVG sheet, so a
/// page loads one file instead of 43. Each picture has a `<view id="t-NAME">` (`t-5p`,
/// `t-back`) framing it: `tiles.svg#t-5p` in an `<img>` shows that one tile.
///
/// ```
/// let sheet = majiang_server::svg::tile_sheet();
/// assert!(sheet.contains(r#"<view id="t-5p""#) && sheet.contains(r#"<view id="t-back""#));
/// assert_eq!(sheet.matches("<view ").count(), 43);
/// ```
pub fn tile_sheet() -> String {
    let names: Vec<String> = Tile::all()
        .chain(Tile::bonus_tiles())
        .map(|t| t.to_string())
        .chain(std::iter::once("back".to_string()))
        .collect();
    let rows = names.len().div_ceil(SHEET_COLUMNS);
    let mut s = String::with_capacity(names.len() * 4096);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}">"#,
        W * SHEET_COLUMNS as f32,
        H * rows as f32
    );
    for (i, name) in names.iter().enumerate() {
        let x = W * (i % SHEET_COLUMNS) as f32;
        let y = H * (i / SHEET_COLUMNS) as f32;
        let picture = tile_svg_by_name(name).expect("every listed name draws");
        let placed = picture.replacen(
            r#"<svg xmlns="http://www.w3.org/2000/svg""#,
            &format!(r#"<svg x="{x}" y="{y}""#),
            1,
        );
        let _ = write!(
            s,
            r#"<view id="t-{name}" viewBox="{x} {y} {W} {H}"/>{placed}"#
        );
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_name() -> impl Iterator<Item = String> {
        Tile::all()
            .chain(Tile::bonus_tiles())
            .map(|t| t.to_string())
            .chain(std::iter::once("back".to_string()))
    }

    /// Checks that `svg` is well-formed XML as far as these pictures go: balanced tags with
    /// quoted attributes, no stray `<` or `&` in text, one root element.
    fn well_formed(svg: &str) -> Result<(), String> {
        let mut open: Vec<&str> = Vec::new();
        let mut roots = 0;
        let mut rest = svg;
        while let Some(lt) = rest.find('<') {
            let text = &rest[..lt];
            if text.contains('&') || text.contains('>') {
                return Err(format!("bad character in text {text:?}"));
            }
            if open.is_empty() && !text.is_empty() {
                return Err(format!("text outside the root: {text:?}"));
            }
            let gt = rest[lt..].find('>').ok_or("a tag that never closes")?;
            let tag = &rest[lt + 1..lt + gt];
            rest = &rest[lt + gt + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                match open.pop() {
                    Some(top) if top == name => {}
                    top => return Err(format!("</{name}> closes {top:?}")),
                }
                continue;
            }
            let (body, empty) = match tag.strip_suffix('/') {
                Some(body) => (body, true),
                None => (tag, false),
            };
            let (name, mut attrs) = body.split_once(' ').unwrap_or((body, ""));
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
                return Err(format!("bad element name in <{tag}>"));
            }
            if open.is_empty() {
                roots += 1;
            }
            // Attributes: name="value" separated by single spaces.
            while !attrs.is_empty() {
                let (key, value) = attrs
                    .split_once("=\"")
                    .ok_or_else(|| format!("unquoted attribute in <{tag}>"))?;
                if key.is_empty() || key.contains(|c: char| c.is_whitespace() || c == '"') {
                    return Err(format!("bad attribute name {key:?} in <{tag}>"));
                }
                let end = value
                    .find('"')
                    .ok_or_else(|| format!("unterminated attribute in <{tag}>"))?;
                if value[..end].contains(['<', '&']) {
                    return Err(format!("bad character in attribute {key} of <{name}>"));
                }
                attrs = value[end + 1..]
                    .strip_prefix(' ')
                    .unwrap_or(&value[end + 1..]);
            }
            if !empty {
                open.push(name);
            }
        }
        match (open.is_empty(), rest.is_empty(), roots) {
            (true, true, 1) => Ok(()),
            _ => Err(format!(
                "unclosed {open:?}, trailing {rest:?}, {roots} roots"
            )),
        }
    }

    /// Every point (ends and control points) of relative path data with `m l c z` commands,
    /// or why it does not parse.
    fn path_points(d: &str) -> Result<Vec<(f32, f32)>, String> {
        let mut points = Vec::new();
        let (mut cur, mut start) = ((0.0f32, 0.0f32), (0.0f32, 0.0f32));
        let mut command = None;
        let mut args: Vec<f32> = Vec::new();
        let mut chars = d.char_indices().peekable();
        while let Some(&(i, c)) = chars.peek() {
            match c {
                'm' | 'l' | 'c' | 'z' => {
                    if !args.is_empty() {
                        return Err(format!("{} numbers left over before {c}", args.len()));
                    }
                    chars.next();
                    command = Some(c);
                    if c == 'z' {
                        cur = start;
                        points.push(cur);
                    }
                }
                ' ' => {
                    chars.next();
                }
                '-' | '0'..='9' => {
                    chars.next();
                    let mut end = i + c.len_utf8();
                    while let Some(&(j, '0'..='9')) = chars.peek() {
                        end = j + 1;
                        chars.next();
                    }
                    let n: f32 = d[i..end].parse().map_err(|e| format!("{e}"))?;
                    args.push(n);
                    let arity = match command {
                        Some('m' | 'l') => 2,
                        Some('c') => 6,
                        other => return Err(format!("a number after {other:?}")),
                    };
                    if args.len() == arity {
                        for pair in args.chunks(2) {
                            points.push((cur.0 + pair[0], cur.1 + pair[1]));
                        }
                        cur = (cur.0 + args[arity - 2], cur.1 + args[arity - 1]);
                        if command == Some('m') {
                            start = cur;
                            // Further pairs after a moveto are linetos.
                            command = Some('l');
                        }
                        args.clear();
                    }
                }
                other => return Err(format!("unexpected {other:?} in path data")),
            }
        }
        match (command, args.is_empty(), points.is_empty()) {
            (Some('z'), true, false) => Ok(points),
            _ => Err("path data must be closed and complete".to_string()),
        }
    }

    /// The value of attribute `key` in an element's text.
    fn attr<'a>(element: &'a str, key: &str) -> &'a str {
        let from = element.find(&format!(" {key}=\"")).expect(key) + key.len() + 3;
        &element[from..from + element[from..].find('"').unwrap()]
    }

    #[test]
    fn every_tile_has_a_distinct_picture() {
        let mut seen = std::collections::HashSet::new();
        for t in Tile::all().chain(Tile::bonus_tiles()) {
            let svg = tile_svg_by_name(&t.to_string()).unwrap();
            assert!(svg.contains(&format!("<title>{}</title>", t.name())));
            for c in t.to_string().chars() {
                let label = glyph(c).unwrap_or_else(|| panic!("{t}: no glyph for {c}"));
                assert!(svg.contains(label.path), "{t}: corner label {c}");
            }
            assert!(seen.insert(svg), "{t}: same picture as another tile");
        }
        assert_eq!(seen.len(), 42);
    }

    #[test]
    fn every_character_a_face_shows_is_embedded() {
        let faces = NUMERALS
            .iter()
            .chain(&['萬'])
            .chain(HONOURS.iter().flatten())
            .chain(&BONUS);
        let labels = Tile::all()
            .chain(Tile::bonus_tiles())
            .map(|t| t.to_string())
            .collect::<String>();
        for c in faces.copied().chain(labels.chars()) {
            let g = glyph(c).unwrap_or_else(|| panic!("no outline for {c}"));
            assert!(g.advance > 0.0, "{c}");
            path_points(g.path).unwrap_or_else(|e| panic!("{c}: {e}"));
        }
        assert!(glyph('x').is_none() && glyph('#').is_none());
    }

    #[test]
    fn no_tile_needs_a_font() {
        for name in every_name() {
            let svg = tile_svg_by_name(&name).unwrap();
            well_formed(&svg).unwrap_or_else(|e| panic!("{name}: {e}\n{svg}"));
            assert!(!svg.contains("<text"), "{name}: text element");
            assert!(!svg.contains("font"), "{name}: asks for a font");
            // Outside the title, a picture is ASCII: no character for a font to draw.
            let title_end = svg.find("</title>").map_or(0, |i| i + 8);
            assert!(
                svg[title_end..].is_ascii(),
                "{name}: non-ASCII outside the title"
            );
        }
    }

    #[test]
    fn characters_are_paths_inside_the_face() {
        for t in Tile::all().chain(Tile::bonus_tiles()) {
            let svg = tile_svg(t);
            let face_chars = match (t.suit(), t.rank()) {
                (Suit::Characters, _) => 2,
                (Suit::Dots | Suit::Bamboo, _) | (Suit::Honors, 5) => 0,
                _ => 1,
            };
            let paths: Vec<&str> = svg.split("<path").skip(1).collect();
            assert_eq!(paths.len(), face_chars + 2, "{t}: face and corner label");
            for p in paths {
                let (translate, scale) = attr(p, "transform")
                    .strip_prefix("translate(")
                    .and_then(|r| r.strip_suffix(')'))
                    .and_then(|r| r.split_once(") scale("))
                    .unwrap_or_else(|| panic!("{t}: transform in {p}"));
                let (x, y) = translate.split_once(' ').unwrap();
                let (x, y, k): (f32, f32, f32) = (
                    x.parse().unwrap(),
                    y.parse().unwrap(),
                    scale.parse().unwrap(),
                );
                let points = path_points(attr(p, "d")).unwrap_or_else(|e| panic!("{t}: {e}"));
                // Within the face's outline; a descender (`p`) reaches into the border, as the
                // text label's did.
                for (px, py) in points {
                    let (px, py) = (x + k * px, y + k * py);
                    assert!(
                        (1.0..=W - 1.0).contains(&px) && (1.0..=H - 1.0).contains(&py),
                        "{t}: ({px}, {py}) outside the face"
                    );
                }
            }
        }
    }

    #[test]
    fn the_sheet_frames_every_picture_once() {
        let sheet = tile_sheet();
        well_formed(&sheet).unwrap_or_else(|e| panic!("sheet: {e}"));
        for (i, name) in every_name().enumerate() {
            let (x, y) = ((i % SHEET_COLUMNS) * 60, (i / SHEET_COLUMNS) * 80);
            let view = format!(r#"<view id="t-{name}" viewBox="{x} {y} 60 80"/>"#);
            assert_eq!(sheet.matches(&view).count(), 1, "{view}");
            // The picture framed there is the tile's own, moved to that place.
            let own = tile_svg_by_name(&name).unwrap();
            let body = &own[own.find('>').unwrap()..];
            let placed = format!(r#"<svg x="{x}" y="{y}""#);
            let at = sheet.find(&view).unwrap() + view.len();
            assert!(sheet[at..].starts_with(&placed), "{name} placed at {x},{y}");
            assert!(sheet[at..].contains(body), "{name}: its picture");
        }
    }

    #[test]
    fn the_checks_catch_bad_pictures() {
        assert!(well_formed(r#"<svg a="1"><path d="m0 0z"/></svg>"#).is_ok());
        for bad in [
            "<svg><g></svg>",
            "<svg a=1></svg>",
            "<svg></svg><svg></svg>",
            "<svg>a & b</svg>",
            "<svg",
        ] {
            assert!(well_formed(bad).is_err(), "{bad}");
        }
        assert_eq!(
            path_points("m10 20l5-5z").unwrap(),
            [(10.0, 20.0), (15.0, 15.0), (10.0, 20.0)]
        );
        for bad in ["m10 20l5", "m1 2c1 2 3 4 5 6", "m1 2x", "3 4z", ""] {
            assert!(path_points(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(17.000_002), "17");
        assert_eq!(num(0.026), "0.026");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(42.5), "42.5");
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
