//! The game log under your box: the newest messages that fit, each one whole (wrapped at spaces
//! over as many rows as it needs), scrolled back with PgUp/PgDn.

use super::super::app::{App, LogPages};
use super::wrap_words;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

/// Before a message's first row; its other rows are indented as wide.
const BULLET: &str = "» ";

/// The log's lines for an area `width`×`height`: the newest messages that fit whole, as far
/// back as the app's scroll says (never past the oldest screenful: the area stays full), with a
/// marker after the oldest message shown when there is more above or below. A message taller
/// than the whole area shows its first rows, the last ending in "…". `told`, the notice the
/// line under the log shows whole, is left out (its newest copy): the sentence is on the
/// screen once. Notes for the app where PgUp and PgDn go: to the messages just before or after
/// those shown.
pub(super) fn log_lines(
    app: &App,
    width: u16,
    height: u16,
    told: Option<&str>,
) -> Vec<Line<'static>> {
    let all: Vec<&str> = app.messages().collect();
    let (width, height) = (usize::from(width).max(1), usize::from(height).max(1));
    // The message left out takes no rows; the others keep their places (the pages count it).
    let left_out = told.and_then(|t| all.iter().rposition(|m| *m == t));
    let shown = |i: usize| Some(i) != left_out;
    // The marker goes after the first message shown of `start..end`.
    let first_shown = |start: usize, end: usize| (start..end).find(|&i| shown(i));
    let marker = |start: usize, end: usize| {
        (start > 0 || end < all.len()).then(|| {
            format!(
                "(log: {start} earlier, {} later — PgUp/PgDn)",
                all.len() - end
            )
        })
    };
    // The rows `all[start..end]` take, the marker after the first shown.
    let rows = |start: usize, end: usize| -> usize {
        let mark = marker(start, end);
        let first = first_shown(start, end);
        (start..end)
            .filter(|&i| shown(i))
            .map(|i| {
                let mark = if Some(i) == first {
                    mark.as_deref()
                } else {
                    None
                };
                message_lines(all[i], width, mark).len()
            })
            .sum()
    };
    // The oldest screenful (at least one message): PgUp stops there. Each message but the one
    // left out takes a row or more, so these loops look at no more messages than the area has
    // rows, and one.
    let mut first_screen = 1;
    while first_screen < all.len() && rows(0, first_screen + 1) <= height {
        first_screen += 1;
    }
    let oldest_scroll = all.len().saturating_sub(first_screen);
    let scroll = app.log_scroll().min(oldest_scroll);
    let end = all.len() - scroll;
    // Back from `end` while the messages fit (at least one shown).
    let mut start = end.saturating_sub(1);
    while start > 0 && rows(start - 1, end) <= height {
        start -= 1;
    }
    // The next page down starts where this one ends.
    let mut next_end = (end + 1).min(all.len());
    while next_end < all.len() && rows(end, next_end + 1) <= height {
        next_end += 1;
    }
    app.note_log_pages(LogPages {
        up: (all.len() - start).min(oldest_scroll).max(scroll),
        down: all.len() - next_end,
    });
    let mark = marker(start, end);
    let first = first_shown(start, end);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for i in (start..end).filter(|&i| shown(i)) {
        let mark = if Some(i) == first {
            mark.as_deref()
        } else {
            None
        };
        lines.extend(message_lines(all[i], width, mark));
    }
    if lines.len() > height {
        // Only one message is shown and it is taller than the area: its first rows.
        lines.truncate(height);
        if let Some(last) = lines.last_mut() {
            let mut text: String = last.spans.iter().map(|s| s.content.as_ref()).collect();
            while !text.is_empty() && Span::raw(format!("{text}…")).width() > width {
                text.pop();
            }
            *last = Line::from(format!("{}…", text.trim_end()));
        }
    }
    lines
}

/// One message in rows of at most `width` cells, broken at spaces: [`BULLET`] before the first
/// row, the others indented under it; `mark` (dimmed) after its last word when it fits on that
/// row, on a row of its own otherwise.
fn message_lines(message: &str, width: usize, mark: Option<&str>) -> Vec<Line<'static>> {
    let indent = " ".repeat(BULLET.chars().count());
    let inner = width.saturating_sub(indent.len()).max(1);
    let mut lines: Vec<Line<'static>> = wrap_words(message, inner)
        .into_iter()
        .enumerate()
        .map(|(i, part)| {
            let lead = if i == 0 { BULLET } else { indent.as_str() };
            Line::from(format!("{lead}{part}"))
        })
        .collect();
    if let Some(mark) = mark {
        let mark = Span::styled(format!("  {mark}"), Style::default().fg(Color::DarkGray));
        match lines.last_mut() {
            Some(last) if last.width() + mark.width() <= width => last.spans.push(mark),
            _ => lines.push(Line::from(vec![
                Span::raw(indent.clone()),
                Span::styled(
                    mark.content.trim_start().to_string(),
                    Style::default().fg(Color::DarkGray),
                ),
            ])),
        }
    }
    lines
}
