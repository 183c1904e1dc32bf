//! Text broken into lines at spaces, measured in terminal cells as the layout measures them.

use ratatui::text::Span;

/// `text` in lines of at most `width` cells, broken at spaces (a longer word is cut). Widths
/// are the terminal's (a wide character takes two cells), as the layout measures them.
pub(super) fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let cells = |s: &str| Span::raw(s).width();
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word: String = word.to_string();
        loop {
            let used = cells(&line);
            let len = cells(&word);
            if used > 0 && used + 1 + len <= width {
                line.push(' ');
                line.push_str(&word);
                break;
            }
            if used == 0 && len <= width {
                line = word;
                break;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut line));
                continue;
            }
            // A word longer than the line: cut it after as many characters as fit (at least
            // one, so a character wider than the line still moves on).
            let mut head = String::new();
            for c in word.chars() {
                let mut next = head.clone();
                next.push(c);
                if !head.is_empty() && cells(&next) > width {
                    break;
                }
                head = next;
            }
            word = word[head.len()..].to_string();
            lines.push(head);
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::wrap_words;

    #[test]
    fn lines_break_at_spaces_and_count_wide_characters_as_two_cells() {
        assert_eq!(
            wrap_words("the bot stopped: it closed", 10),
            ["the bot", "stopped:", "it closed"]
        );
        // 胡 and 杠 take two cells each: "胡 胡 胡" is 8 cells.
        assert_eq!(wrap_words("胡 胡 胡 杠", 7), ["胡 胡", "胡 杠"]);
        // A word longer than the line is cut, never past the width.
        assert_eq!(wrap_words("财神财神财神", 5), ["财神", "财神", "财神"]);
        assert_eq!(wrap_words("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(wrap_words("", 5), [""]);
    }
}
