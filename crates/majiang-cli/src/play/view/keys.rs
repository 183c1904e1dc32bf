//! The key line at the bottom: "Keys: " and the keys that do something now, onto a second row
//! (or more) when they do not fit the terminal's width, never a key cut in two.

use super::wrap_words;
use ratatui::text::Span;

/// Before the first row; the other rows are indented as wide.
const LABEL: &str = "Keys: ";

/// Between two keys on a row.
const GAP: &str = "  ";

/// `keys` in rows of at most `width` cells: [`LABEL`] and the keys in order, two spaces
/// apart, a row broken only between keys; the rows after the first indented under the first
/// key. (A key wider than a whole row, which no terminal the table is drawn in has, is broken
/// at its spaces.)
pub(super) fn key_rows(keys: &[&str], width: usize) -> Vec<String> {
    let cells = |s: &str| Span::raw(s).width();
    let indent = " ".repeat(cells(LABEL));
    let mut rows = vec![LABEL.to_string()];
    for key in keys {
        let row = rows.last_mut().expect("one row at least");
        let fresh = row.as_str() == LABEL;
        if fresh && cells(row) + cells(key) <= width {
            row.push_str(key);
        } else if !fresh && cells(row) + cells(GAP) + cells(key) <= width {
            row.push_str(GAP);
            row.push_str(key);
        } else if cells(&indent) + cells(key) <= width {
            rows.push(format!("{indent}{key}"));
        } else {
            let room = width.saturating_sub(cells(&indent));
            rows.extend(
                wrap_words(key, room)
                    .into_iter()
                    .map(|part| format!("{indent}{part}")),
            );
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::key_rows;

    #[test]
    fn keys_break_between_keys_under_the_first_one() {
        let keys = ["←/→ pick", "Enter discard", "w win (hu)", "q quit"];
        assert_eq!(
            key_rows(&keys, 80),
            ["Keys: ←/→ pick  Enter discard  w win (hu)  q quit"]
        );
        assert_eq!(
            key_rows(&keys, 30),
            ["Keys: ←/→ pick  Enter discard", "      w win (hu)  q quit"]
        );
        // 财飘 takes four cells: "Keys: x  (财飘)" is 15.
        assert_eq!(key_rows(&["x", "(财飘)"], 15), ["Keys: x  (财飘)"]);
        assert_eq!(key_rows(&["x", "(财飘)"], 14), ["Keys: x", "      (财飘)"]);
        // A key wider than a row is broken at its spaces.
        assert_eq!(
            key_rows(&["any key back"], 10),
            ["Keys: ", "      any", "      key", "      back"]
        );
        assert_eq!(key_rows(&[], 80), ["Keys: "]);
    }
}
