//! The pop-ups over the table: the `?` help (the keys and the rule set's patterns in columns),
//! a choice between chows or kongs, the end-of-hand box with its payments, and the final
//! standings.

use super::{capital, points, popup_rect, wrap_words, wrapped_rows};
use crate::play::app::{App, HandSummary};
use crate::play::tiles::meld_text;
use majiang::scoring::{Unit, WinKind};
use majiang::table::matches::EndReason;
use majiang::table::{Action, Player};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

/// The patterns with their values in as few columns as `room` rows allow (one when they fit),
/// each column as wide as its longest name and value, within `width` cells; limit hands say
/// "limit". When the columns are too wide, the longest names wrap onto a second line (words
/// kept whole); a name is cut only when even that does not fit in `room` rows.
fn pattern_columns(
    patterns: &[majiang::scoring::PatternDef],
    room: usize,
    width: usize,
) -> Vec<Line<'static>> {
    let value = |p: &majiang::scoring::PatternDef| {
        let v = if p.option == Some("limit") {
            "limit".to_string()
        } else {
            p.value_text()
        };
        v.split(" (option").next().unwrap_or_default().to_string()
    };
    let cells: Vec<(String, String)> = patterns
        .iter()
        .map(|p| (p.name.to_string(), value(p)))
        .collect();
    let columns = cells.len().div_ceil(room.max(1)).max(1);
    let per_column = cells.len().div_ceil(columns).max(1);
    let chunks: Vec<&[(String, String)]> = cells.chunks(per_column).collect();
    let widest = |c: &[(String, String)], f: fn(&(String, String)) -> &String| {
        c.iter().map(|x| f(x).chars().count()).max().unwrap_or(0)
    };
    let mut names: Vec<usize> = chunks.iter().map(|c| widest(c, |x| &x.0)).collect();
    let values: Vec<usize> = chunks.iter().map(|c| widest(c, |x| &x.1)).collect();
    // Each column: two spaces, the name, a space, the value.
    let needed =
        |names: &[usize]| -> usize { names.iter().zip(&values).map(|(n, v)| 2 + n + 1 + v).sum() };
    // Too wide: narrow the widest name column, one cell at a time.
    while needed(&names) > width {
        let Some(longest) = names.iter_mut().max() else {
            break;
        };
        if *longest <= 8 {
            break;
        }
        *longest -= 1;
    }
    // Each column as lines: a name wrapped to its width, its value on the first line.
    let column_lines = |wrap: bool| -> Vec<Vec<String>> {
        chunks
            .iter()
            .zip(names.iter().zip(&values))
            .map(|(chunk, (&n, &v))| {
                let mut out = Vec::new();
                for (name, value) in chunk.iter() {
                    let parts = if wrap {
                        wrap_words(name, n)
                    } else {
                        vec![name.chars().take(n).collect()]
                    };
                    for (i, part) in parts.iter().enumerate() {
                        let value = if i == 0 { value.as_str() } else { "" };
                        let indent = if i == 0 { "" } else { " " };
                        let part = format!("{indent}{part}");
                        let part: String = part.chars().take(n).collect();
                        out.push(format!("  {part:<n$} {value:<v$}"));
                    }
                }
                out
            })
            .collect()
    };
    let mut laid = column_lines(true);
    if laid.iter().map(Vec::len).max().unwrap_or(0) > room {
        laid = column_lines(false);
    }
    let rows = laid.iter().map(Vec::len).max().unwrap_or(0);
    (0..rows)
        .map(|r| {
            let mut line = String::new();
            for (c, col) in laid.iter().enumerate() {
                let blank = " ".repeat(2 + names[c] + 1 + values[c]);
                line.push_str(col.get(r).unwrap_or(&blank));
            }
            Line::from(line.trim_end().to_string())
        })
        .collect()
}

/// The `?` overlay: the keys, then the rule set's patterns with their values.
pub(super) fn help_popup(f: &mut Frame, app: &App) {
    let spec = app.ruleset().spec();
    let mut lines = vec![
        Line::from(Span::styled(
            "Keys",
            Style::default().add_modifier(Modifier::BOLD),
        )),
        Line::from("  ←/→ h/l Home/End  pick a tile      Enter or d  discard it"),
        Line::from("  w win   c chow   p pung   k kong   Space/x/Esc  pass on a discard"),
        Line::from("  PgUp/PgDn  scroll the log          g  tiles as glyphs or text"),
        Line::from("  ?  this help                       q  quit (asks first)"),
        Line::from(""),
        Line::from(Span::styled(
            format!("{} ({}) patterns", spec.english, spec.chinese),
            Style::default().add_modifier(Modifier::BOLD),
        )),
    ];
    let area = f.area();
    let room = usize::from(area.height.saturating_sub(3)).saturating_sub(lines.len());
    let inner = usize::from(area.width.min(110).saturating_sub(2));
    lines.extend(pattern_columns(spec.patterns, room, inner));
    let above_keys = Rect {
        height: area.height.saturating_sub(1),
        ..area
    };
    let r = popup_rect(above_keys, 110, lines.len() as u16 + 2);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" help — any key to go back "),
        ),
        r,
    );
}

pub(super) fn choose_popup(f: &mut Frame, app: &App, options: &[Action]) {
    let mut lines = Vec::new();
    for (i, a) in options.iter().enumerate() {
        let text = match a {
            Action::Chow { tiles } => format!("chow {}", app.style.tiles(tiles)),
            Action::ConcealedKong(t) => format!("concealed kong of {}", app.style.tile(*t)),
            Action::AddedKong(t) => format!("add {} to your pung", app.style.tile(*t)),
            other => other.to_string(),
        };
        let style = if i == app.cursor() {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        lines.push(Line::from(Span::styled(
            format!("{}) {text}", i + 1),
            style,
        )));
    }
    let r = popup_rect(f.area(), 40, options.len() as u16 + 2);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" choose ")),
        r,
    );
}

/// A pattern's value with its unit: `3 fan`, `10 points`, `1 double`, `×2`.
pub(in crate::play) fn value_text(value: i64, unit: Unit) -> String {
    match unit {
        Unit::Fan => format!("{value:>4} fan"),
        Unit::Points => format!("{value:>4} points"),
        Unit::Double => format!("{value:>4} double{}", if value == 1 { "" } else { "s" }),
        Unit::Multiplier => format!("{:>4}", format!("×{value}")),
    }
}

/// The end-of-hand box, between the `status_rows` of the status line and the key line.
pub(super) fn summary_popup(
    f: &mut Frame,
    app: &App,
    s: &HandSummary,
    status_rows: u16,
    key_rows: u16,
) {
    let st = app.style;
    let mut lines = Vec::new();
    match s.winner {
        Some(w) => {
            let how = match s.win {
                Some(WinKind::SelfDraw) => "by self-draw".to_string(),
                Some(WinKind::Discard) => format!(
                    "on {} discard",
                    s.discarder.map_or("?".to_string(), |d| app.whose(d))
                ),
                Some(WinKind::RobbingKong) => format!(
                    "robbing {} kong",
                    s.discarder.map_or("?".to_string(), |d| app.whose(d))
                ),
                None => String::new(),
            };
            lines.push(Line::from(Span::styled(
                format!(
                    "Hand {}: {} {how} with {}",
                    s.hand,
                    app.says(w, "win"),
                    s.tile.map_or(String::new(), |t| st.tile(t))
                ),
                Style::default().add_modifier(Modifier::BOLD),
            )));
            let seat = app.observation().table[w.index()].seat;
            let melds: Vec<String> = s
                .melds
                .iter()
                .map(|m| meld_text(st, app.ruleset().seats(), seat, m, true))
                .collect();
            lines.push(Line::from(format!(
                "Winning hand: {}",
                st.tiles(&s.hand_tiles)
            )));
            if !melds.is_empty() {
                lines.push(Line::from(format!("       melds: {}", melds.join("  "))));
            }
            if !s.flowers.is_empty() {
                lines.push(Line::from(format!(
                    "     flowers: {}",
                    st.tiles(&s.flowers)
                )));
            }
            lines.push(Line::from(""));
            lines.push(Line::from("Patterns:"));
            for p in &s.patterns {
                lines.push(Line::from(format!(
                    "  {:<36} {}",
                    p.name,
                    value_text(p.value, p.unit)
                )));
            }
            lines.push(Line::from(format!("  {:<36} {:>4}", "Total", s.total)));
        }
        None => lines.push(Line::from(Span::styled(
            format!(
                "Hand {}: exhaustive draw — the wall ran out, nobody wins",
                s.hand
            ),
            Style::default().add_modifier(Modifier::BOLD),
        ))),
    }
    lines.push(Line::from(""));
    lines.push(Line::from("Payments:"));
    for (i, pay) in s.payments.iter().enumerate() {
        let p = Player(i as u8);
        lines.push(Line::from(format!(
            "  {:<8} {:>+6}   (match {:>6})",
            app.name(p),
            pay,
            points(app, app.ledger().get(i).copied().unwrap_or(0))
        )));
    }
    // The box's width, and the reasons wrapped in whole words with each continuation indented
    // under the text it continues.
    let width: u16 = f.area().width.saturating_sub(4).clamp(76, 110);
    let inner = usize::from(width.min(f.area().width).saturating_sub(2)).max(1);
    let mut why = Vec::new();
    for pay in &s.itemised {
        let text = format!(
            "{} {} {}: {}",
            app.says(pay.from, "pay"),
            app.name(pay.to),
            pay.amount,
            pay.reason
        );
        for (i, part) in wrap_words(&text, inner.saturating_sub(6))
            .into_iter()
            .enumerate()
        {
            let indent = if i == 0 { "  " } else { "      " };
            why.push(Line::from(format!("{indent}{part}")));
        }
    }
    if !why.is_empty() {
        lines.push(Line::from("Why:"));
        lines.extend(why);
    }
    lines.push(Line::from(""));
    match app.settlement().map(|st| (st.next, st.ended)) {
        Some((Some(next), _)) => lines.push(Line::from(format!(
            "Next hand: {}{}. Press Enter.",
            app.says(next.dealer, "deal"),
            if app.ruleset().spec().lao {
                format!(" at lao {}", next.lao)
            } else {
                format!(", {} wind", capital(next.prevailing_wind.name()))
            }
        ))),
        Some((None, ended)) => {
            lines.push(Line::from(format!(
                "The match is over: {}.",
                match ended {
                    Some(EndReason::HandLimit) => "the hand limit was reached",
                    Some(EndReason::Points) => "a player ran out of points",
                    _ => "every hand has been played",
                }
            )));
            lines.push(Line::from("Press Enter for the standings."));
        }
        None => lines.push(Line::from("Press Enter.")),
    }
    // The box is as tall as its text once wrapped, between the status line and the key line
    // (both stay in view); when the text is taller, it scrolls (↑/↓) and its title says so.
    let rows: usize = lines.iter().map(|l| wrapped_rows(l, inner)).sum();
    let area = f.area();
    let between = Rect {
        y: area.y + status_rows,
        height: area.height.saturating_sub(status_rows + key_rows),
        ..area
    };
    let room = usize::from(between.height.saturating_sub(2)).max(1);
    let hidden = rows.saturating_sub(room);
    app.note_summary_hidden(hidden);
    let scroll = app.summary_scroll().min(hidden);
    let title = if hidden > 0 {
        format!(
            " end of hand — rows {}–{} of {rows}: ↑/↓ PgUp/PgDn scroll ",
            scroll + 1,
            scroll + room
        )
    } else {
        " end of hand ".to_string()
    };
    let r = popup_rect(between, width, rows.min(room) as u16 + 2);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll as u16, 0))
            .block(Block::default().borders(Borders::ALL).title(title)),
        r,
    );
}

pub(super) fn standings_popup(f: &mut Frame, app: &App) {
    let mut lines = vec![
        Line::from(Span::styled(
            "Final standings",
            Style::default().add_modifier(Modifier::BOLD),
        )),
        Line::from(""),
    ];
    for s in app.standings() {
        lines.push(Line::from(format!(
            "  {}. {:<8} {:>7}",
            s.rank,
            app.name(s.player),
            points(app, s.points)
        )));
    }
    lines.push(Line::from(""));
    let hands = app.hand_number();
    lines.push(Line::from(format!(
        "{hands} hand{}, seed {}.",
        if hands == 1 { "" } else { "s" },
        app.seed()
    )));
    lines.push(Line::from("Press Enter or q to leave."));
    let r = popup_rect(f.area(), 40, lines.len() as u16 + 2);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" match over ")),
        r,
    );
}
