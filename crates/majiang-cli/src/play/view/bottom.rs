//! The rows under the log: the notice (news, a refusal) and the key line, and how many rows
//! each takes out of the log's.

use super::super::app::App;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The most rows the notice line grows to (a longer notice is cut; the log keeps it whole).
const NOTICE_ROWS: usize = 3;

/// What goes under the log: the notice's rows (wrapped to the terminal's width) and how many
/// rows the keys take.
#[derive(Clone, Copy)]
pub(super) struct Bottom<'a> {
    /// The notice in rows of the terminal's width (one empty row when there is none).
    pub notice: &'a [String],
    /// The key line's rows.
    pub keys: u16,
}

impl Bottom<'_> {
    /// The notice's rows when the log has `log_room` rows to spare for the notice and the
    /// keys beyond one row each: all of them up to [`NOTICE_ROWS`] as far as the room goes
    /// after the keys' (the keys are never cut), one at least.
    pub fn notice_rows(self, log_room: u16) -> u16 {
        let wanted = self.notice.len().clamp(1, NOTICE_ROWS) as u16;
        wanted
            .min(log_room.saturating_sub(self.keys.saturating_sub(1)))
            .max(1)
    }

    /// The notice's text when its rows (`notice_rows`) show it whole: the log then leaves that
    /// message out rather than show it twice.
    pub fn whole_notice(self, app: &App, notice_rows: u16) -> Option<&str> {
        app.notice()
            .filter(|_| self.notice.len() <= usize::from(notice_rows))
    }
}

/// Draws the notice's rows in `notice_row` (yellow) and the key rows in `keys_row` (bold).
pub(super) fn draw_bottom(
    f: &mut Frame,
    notice: Vec<String>,
    keys: Vec<String>,
    notice_row: Rect,
    keys_row: Rect,
) {
    let rows = |text: Vec<String>, style: Style| {
        Paragraph::new(
            text.into_iter()
                .map(|l| Line::from(Span::styled(l, style)))
                .collect::<Vec<_>>(),
        )
    };
    f.render_widget(rows(notice, Style::default().fg(Color::Yellow)), notice_row);
    f.render_widget(
        rows(keys, Style::default().add_modifier(Modifier::BOLD)),
        keys_row,
    );
}
