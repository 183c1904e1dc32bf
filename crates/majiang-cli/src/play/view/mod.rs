//! Drawing the app: the table (opponents round the edge, you at the bottom), the message and
//! help lines, and the pop-ups (choices, end of hand, standings, quit).

mod bottom;
mod keys;
mod log;
mod popups;
mod wrap;

use super::app::{App, Mode};
use super::tiles::meld_text;
use bottom::{Bottom, draw_bottom};
use keys::key_rows;
use log::log_lines;
use majiang::seat::Seat;
use majiang::table::{Action, IllegalReason, Observation, Player, PublicHand, ready_hint};
use majiang::tile::{Suit, Tile};
#[cfg(test)]
pub(super) use popups::value_text;
use popups::{choose_popup, help_popup, standings_popup, summary_popup};
use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use wrap::wrap_words;

/// Fewest discards per row (as on a real table); a wider box puts more in a row.
const ROW: usize = 6;

/// The narrowest terminal the table is drawn in (columns): most terminals' default.
pub const MIN_WIDTH: u16 = 80;
/// The shortest terminal the table is drawn in (rows).
pub const MIN_HEIGHT: u16 = 24;
/// The narrowest terminal that gets the full layout (opponents round the edge, the table's
/// centre box, the log); a smaller one gets the compact layout ([`compact`]).
pub const FULL_WIDTH: u16 = 90;
/// The shortest terminal that gets the full layout.
pub const FULL_HEIGHT: u16 = 32;

/// True if a terminal of `width`×`height` is big enough to show the table.
pub fn fits(width: u16, height: u16) -> bool {
    width >= MIN_WIDTH && height >= MIN_HEIGHT
}

/// True if a terminal of `width`×`height` gets the compact layout: the opponents' boxes in
/// rows across the top (their discards' newest rows), no centre box (the status line carries
/// the wall, dealer and wind; your box says what is on offer), your own discards' newest rows,
/// and a log of what room is left.
pub fn compact(width: u16, height: u16) -> bool {
    width < FULL_WIDTH || height < FULL_HEIGHT
}

/// Draws the whole screen.
pub fn draw(f: &mut Frame, app: &App) {
    draw_with_keys(f, app, &|| app.keys());
}

/// Draws the whole screen with the keys `keys` answers on the key line (the app's own keys in
/// the game; any list in the tests, to lay out the longest). They are asked again after the
/// pop-ups: the end-of-hand box has just said whether it scrolls, which adds a key.
pub(super) fn draw_with_keys(f: &mut Frame, app: &App, keys: &dyn Fn() -> Vec<&'static str>) {
    let obs = app.observation();
    let area = f.area();
    if !fits(area.width, area.height) {
        let text = vec![
            Line::from(format!(
                "The table needs a terminal of at least {MIN_WIDTH}×{MIN_HEIGHT}; this one is {}×{}.",
                area.width, area.height
            )),
            Line::from("Enlarge the window (or make the font smaller), or press q to quit."),
        ];
        f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        if let Mode::ConfirmQuit(_) = app.mode() {
            let r = Rect {
                y: area.y + area.height.saturating_sub(1),
                height: 1.min(area.height),
                ..area
            };
            f.render_widget(Paragraph::new("Abandon the match? y/n"), r);
        }
        return;
    }
    // The notice whole, wrapped at spaces (an outside bot's dismissal is a long sentence); its
    // rows come out of the log's.
    let notice = wrap_words(app.notice().unwrap_or(""), usize::from(area.width));
    // The keys on as many rows as they need (two in the longest cases at 80 columns), also
    // taken from the log's.
    let key_count = key_rows(&keys(), usize::from(area.width)).len() as u16;
    let bottom = Bottom {
        notice: &notice,
        keys: key_count,
    };
    let (notice_row, keys_row, status_rows) = if compact(area.width, area.height) {
        compact_table(f, app, &obs, area, bottom)
    } else {
        full_table(f, app, &obs, area, bottom)
    };
    match app.mode() {
        Mode::Choose(options) => choose_popup(f, app, options),
        Mode::HandOver => {
            if let Some(s) = app.summary() {
                summary_popup(f, app, s, status_rows, key_count);
            }
        }
        Mode::MatchOver => standings_popup(f, app),
        Mode::Help(_) => help_popup(f, app),
        Mode::ConfirmQuit(_) => {
            let r = popup_rect(area, 44, 5);
            f.render_widget(Clear, r);
            f.render_widget(
                Paragraph::new(vec![
                    Line::from("Abandon the match?"),
                    Line::from("y: yes, leave   n: no, keep playing"),
                ])
                .block(Block::default().borders(Borders::ALL).title(" quit ")),
                r,
            );
        }
        Mode::Playing | Mode::Quit => {}
    }
    // The notice and key lines last: the end-of-hand box has just said whether it scrolls.
    let keys = key_rows(&keys(), usize::from(area.width));
    draw_bottom(f, notice, keys, notice_row, keys_row);

    skip_after_glyphs(f.buffer_mut());
}

/// The compact layout (below [`FULL_WIDTH`]×[`FULL_HEIGHT`]): the status line, the opponents'
/// boxes in rows of up to three (the player before you first, the one after you last), your
/// box, the log in what room is left. Answers the notice and key rows and the status's height.
fn compact_table(
    f: &mut Frame,
    app: &App,
    obs: &Observation,
    area: Rect,
    bottom: Bottom,
) -> (Rect, Rect, u16) {
    let n = obs.table.len();
    let rel = |k: usize| Player(((app.human().index() + k) % n) as u8);
    let opponents: Vec<Player> = (1..n).rev().map(rel).collect();
    let status = status_lines(app, obs, usize::from(area.width));
    let own = own_lines(app, obs, usize::from(area.width.saturating_sub(2)), 2);
    let per_line = opponents.len().div_ceil(opponents.len().div_ceil(3)).max(1);
    let lines_of_boxes = opponents.len().div_ceil(per_line).max(1) as u16;
    let fixed = status.len() as u16 + own.len() as u16 + 2 + 2;
    // The opponents' boxes share what is left, each 3 to 8 rows (a title, the tiles and melds
    // in a line, the newest discards), one row kept for the log when there is room.
    let room = area.height.saturating_sub(fixed + 1);
    let box_height = (room / lines_of_boxes).clamp(3, 8);
    // A long notice and the keys' second row take the log's rows, never the boxes'.
    let log_room = room.saturating_sub(box_height * lines_of_boxes) + 1;
    let notice_rows = bottom.notice_rows(log_room);
    let mut constraints = vec![Constraint::Length(status.len() as u16)];
    constraints.extend((0..lines_of_boxes).map(|_| Constraint::Length(box_height)));
    constraints.extend([
        Constraint::Length(own.len() as u16 + 2),
        Constraint::Min(0),
        Constraint::Length(notice_rows),
        Constraint::Length(bottom.keys),
    ]);
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints(constraints)
        .split(area);
    let status_rows = status.len() as u16;
    f.render_widget(Paragraph::new(status), rows[0]);
    for (line, players) in opponents.chunks(per_line).enumerate() {
        let cols = Layout::default()
            .direction(Direction::Horizontal)
            .constraints(vec![Constraint::Ratio(1, per_line as u32); per_line])
            .split(rows[1 + line]);
        for (&p, &r) in players.iter().zip(cols.iter()) {
            opponent(f, app, obs, p, r, true);
        }
    }
    let own_row = rows[1 + usize::from(lines_of_boxes)];
    f.render_widget(
        Paragraph::new(own).block(Block::default().borders(Borders::ALL).title(title(
            app,
            obs,
            app.human(),
            own_row.width,
        ))),
        own_row,
    );
    let log_row = rows[2 + usize::from(lines_of_boxes)];
    let told = bottom.whole_notice(app, notice_rows);
    f.render_widget(
        Paragraph::new(log_lines(app, log_row.width, log_row.height, told)),
        log_row,
    );
    let k = rows.len();
    (rows[k - 2], rows[k - 1], status_rows)
}

/// The full layout (from [`FULL_WIDTH`]×[`FULL_HEIGHT`]): opponents round the edge, the
/// table's centre box, your box, the log. Answers the notice and key rows and the status's
/// height.
fn full_table(
    f: &mut Frame,
    app: &App,
    obs: &Observation,
    area: Rect,
    bottom: Bottom,
) -> (Rect, Rect, u16) {
    let n = obs.table.len();
    let rel = |k: usize| Player(((app.human().index() + k) % n) as u8);
    // Right is the next player, left the one before you; everyone else sits across the top
    // (one player at four, two or three at the classic five- and six-player tables, nobody at
    // three: the side boxes then have the height).
    let (left, right) = (Some(rel(n - 1)), Some(rel(1)));
    let across: Vec<Player> = (2..n.saturating_sub(1)).map(rel).rev().collect();
    let status = status_lines(app, obs, usize::from(area.width));
    let across_height = if across.is_empty() {
        0
    } else {
        // Room for the discards of the fullest box across, 5 to 8 rows.
        let box_width = if across.len() == 1 {
            60.min(area.width)
        } else {
            area.width / across.len() as u16
        };
        let per_row = per_row(app, box_width.saturating_sub(2));
        let most = across
            .iter()
            .map(|p| obs.table[p.index()].discards.len())
            .max()
            .unwrap_or(0);
        (4 + most.div_ceil(per_row).max(1) as u16).clamp(5, 8)
    };
    let own_lines = own_lines(
        app,
        obs,
        usize::from(area.width.saturating_sub(2)),
        usize::MAX,
    );
    // A long notice and the keys' second row take the log's rows (two kept), never the
    // table's.
    let fixed = status.len() as u16 + across_height + 6 + own_lines.len() as u16 + 2 + 2 + 1;
    let notice_rows = bottom.notice_rows(area.height.saturating_sub(fixed) + 1);
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(status.len() as u16),
            Constraint::Length(across_height),
            Constraint::Min(6),
            Constraint::Length(own_lines.len() as u16 + 2),
            Constraint::Min(2),
            Constraint::Length(notice_rows),
            Constraint::Length(bottom.keys),
        ])
        .split(area);
    let status_rows = status.len() as u16;
    f.render_widget(Paragraph::new(status), rows[0]);

    match across.len() {
        0 => {}
        1 => opponent(f, app, obs, across[0], centred(rows[1], 60), false),
        k => {
            let cols = Layout::default()
                .direction(Direction::Horizontal)
                .constraints(vec![Constraint::Ratio(1, k as u32); k])
                .split(rows[1]);
            for (&p, &area) in across.iter().zip(cols.iter()) {
                opponent(f, app, obs, p, area, false);
            }
        }
    }
    let mid = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([
            Constraint::Percentage(33),
            Constraint::Percentage(34),
            Constraint::Percentage(33),
        ])
        .split(rows[2]);
    if let Some(p) = left {
        opponent(f, app, obs, p, mid[0], false);
    }
    centre(f, app, obs, mid[1]);
    if let Some(p) = right {
        opponent(f, app, obs, p, mid[2], false);
    }
    f.render_widget(
        Paragraph::new(own_lines).block(Block::default().borders(Borders::ALL).title(title(
            app,
            obs,
            app.human(),
            rows[3].width,
        ))),
        rows[3],
    );

    let told = bottom.whole_notice(app, notice_rows);
    f.render_widget(
        Paragraph::new(log_lines(app, rows[4].width, rows[4].height, told)),
        rows[4],
    );
    (rows[5], rows[6], status_rows)
}

/// Terminals disagree on the width of the mahjong glyphs (one column or two). Each glyph is
/// followed by a space in the layout; that space is marked "skip", so the terminal is never
/// told to write it and the next cell is placed by an explicit cursor move: the glyph may
/// spill into it or not, and nothing after it shifts. (The caller clears the screen before
/// each frame in glyph mode, so a skipped cell is never stale.) A glyph followed by anything
/// but a space — a table tile just left of a pop-up's border — is blanked instead: skipping
/// the border would leave a hole in it (tmux draws the glyph two columns wide), and writing
/// the border after a two-column glyph would shift it.
pub fn skip_after_glyphs(buf: &mut ratatui::buffer::Buffer) {
    let area = buf.area;
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right().saturating_sub(1) {
            let glyph = buf[(x, y)]
                .symbol()
                .chars()
                .next()
                .is_some_and(|c| ('\u{1F000}'..='\u{1F02B}').contains(&c));
            if !glyph {
                continue;
            }
            if buf[(x + 1, y)].symbol() == " " {
                buf[(x + 1, y)].set_skip(true);
            } else {
                buf[(x, y)].set_symbol(" ");
            }
        }
    }
}

/// The status line's parts (rule set, hand, dealer, lao or wind, wall, wildcard, gambit round),
/// in as many lines of `width` as they need: a part is never cut.
fn status_lines(app: &App, obs: &Observation, width: usize) -> Vec<Line<'static>> {
    let rules = app.ruleset();
    let mut parts = vec![
        format!("majiang · {}", rules.spec().english),
        app.match_length(),
        format!("dealer {}", app.name(obs.dealer)),
    ];
    if rules.spec().lao {
        parts.push(format!("lao {}", obs.lao));
    } else {
        parts.push(format!("{} wind", capital(obs.prevailing_wind.name())));
    }
    parts.push(format!("wall {}", obs.live_wall));
    if let Some(w) = obs.wildcard {
        parts.push(format!("wild {}", app.style.tile(w)));
    }
    if obs.gambit_round {
        parts.push("Fortune Gambit round: no claims".into());
    }
    let mut lines: Vec<String> = Vec::new();
    for part in parts {
        match lines.last_mut() {
            Some(line) if Span::raw(format!("{line} │ {part}")).width() <= width => {
                line.push_str(" │ ");
                line.push_str(&part);
            }
            _ => lines.push(part),
        }
    }
    lines
        .into_iter()
        .map(|l| {
            Line::from(Span::styled(
                l,
                Style::default().add_modifier(Modifier::REVERSED),
            ))
        })
        .collect()
}

fn centred(r: Rect, width: u16) -> Rect {
    let w = width.min(r.width);
    Rect {
        x: r.x + (r.width - w) / 2,
        width: w,
        ..r
    }
}

fn popup_rect(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// A box's title, "Bot 1 · South · +16 · dealer ◀", in at most `width` cells: when the full
/// form is too wide the seat is abbreviated (S, NE) and "dealer" becomes "D", so nothing is cut.
fn title(app: &App, obs: &Observation, p: Player, width: u16) -> Line<'static> {
    let h = &obs.table[p.index()];
    let score = app.ledger().get(p.index()).copied().unwrap_or(0);
    // Who is on turn, and the human when asked; never which bots are weighing a claim.
    let asked = p == app.human() && !obs.legal_actions.is_empty();
    let on_turn = obs.turn == Some(p) || asked && app.mode() == &Mode::Playing;
    let form = |short: bool| {
        let seat = if short {
            seat_initials(h.seat)
        } else {
            seat_name(h.seat)
        };
        let mut t = format!(" {} · {seat} · {}", app.name(p), points(app, score));
        if obs.dealer == p {
            t.push_str(if short { " · D" } else { " · dealer" });
        }
        t.push(' ');
        if on_turn {
            t.push_str("◀ ");
        }
        t
    };
    let full = form(false);
    let t = if Span::raw(full.as_str()).width() <= usize::from(width.saturating_sub(2)) {
        full
    } else {
        form(true)
    };
    let mut style = Style::default();
    if on_turn {
        style = style.fg(Color::Cyan).add_modifier(Modifier::BOLD);
    }
    Line::from(Span::styled(t, style))
}

/// A seat's initials: E, S, W, N, NE, SW.
fn seat_initials(s: Seat) -> String {
    s.title()
        .split('-')
        .filter_map(|w| w.chars().next())
        .collect::<String>()
        .to_uppercase()
}

/// A tile's colour by suit: characters red, dots blue, bamboo green, honours and bonus tiles
/// plain.
fn tile_style(t: Tile) -> Style {
    let color = match t.suit() {
        Suit::Characters => Color::LightRed,
        Suit::Dots => Color::LightBlue,
        Suit::Bamboo => Color::LightGreen,
        Suit::Honors | Suit::Bonus => return Style::default(),
    };
    Style::default().fg(color)
}

/// Points as the ledger shows them: signed when everyone starts at 0.
fn points(app: &App, x: i64) -> String {
    if app.starting_points() == 0 {
        format!("{x:+}")
    } else {
        format!("{x}")
    }
}

fn seat_name(s: Seat) -> String {
    s.title().to_string()
}

fn capital(name: &str) -> String {
    let mut c = name.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn melds_line(app: &App, h: &PublicHand, own: bool) -> Line<'static> {
    let order = app.ruleset().seats();
    let mut spans = vec![Span::raw("melds: ")];
    if h.melds.is_empty() {
        spans.push(Span::styled("none", Style::default().fg(Color::DarkGray)));
    }
    for (i, m) in h.melds.iter().enumerate() {
        if i > 0 {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::styled(
            meld_text(app.style, order, h.seat, m, own),
            Style::default().fg(Color::Green),
        ));
    }
    if own {
        spans.extend(extras(app, h));
    }
    Line::from(spans)
}

/// Flowers and the Fortune Gambit run, if any.
fn extras(app: &App, h: &PublicHand) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    if !h.flowers.is_empty() {
        spans.push(Span::raw(format!(
            "   flowers: {}",
            app.style.tiles(&h.flowers)
        )));
    }
    if h.gambit_run > 0 {
        spans.push(Span::styled(
            format!("   gambits: {}", h.gambit_run),
            Style::default().fg(Color::Magenta),
        ));
    }
    spans
}

/// How many discards fit in a row `inner` cells wide (at least [`ROW`]). One-column glyphs
/// keep a space after the last one too (`skip_after_glyphs`: the box's border is never the
/// cell a glyph may spill into).
fn per_row(app: &App, inner: u16) -> usize {
    let tile = Span::raw(app.style.tile(Tile::EAST)).width();
    let room = usize::from(inner) + usize::from(tile > 1);
    (room / (tile + 1)).max(ROW)
}

/// A player's discards in rows of `per_row`, at most `max_rows` of them: the newest rows when
/// they do not all fit (the tile on offer is always shown); and how many older ones are left
/// out.
fn discard_lines(
    app: &App,
    obs: &Observation,
    h: &PublicHand,
    per_row: usize,
    max_rows: usize,
) -> (Vec<Line<'static>>, usize) {
    // The latest discard of the hand stands out (the one on offer, or the last one played).
    let last = obs
        .last_discard
        .filter(|&(p, t)| p == h.player && h.discards.last().map(|d| d.tile) == Some(t))
        .map(|_| h.discards.len() - 1);
    let rows: Vec<&[majiang::table::DiscardRecord]> = h.discards.chunks(per_row).collect();
    let skip = rows.len().saturating_sub(max_rows.max(1));
    let lines = rows
        .iter()
        .enumerate()
        .skip(skip)
        .map(|(r, row)| {
            let mut spans = Vec::new();
            for (c, d) in row.iter().enumerate() {
                if c > 0 {
                    spans.push(Span::raw(" "));
                }
                let mut style = tile_style(d.tile);
                if d.claimed {
                    style = style
                        .fg(Color::DarkGray)
                        .add_modifier(Modifier::CROSSED_OUT);
                }
                if d.gambit {
                    style = style.fg(Color::Magenta);
                }
                if Some(r * per_row + c) == last {
                    style = style.add_modifier(Modifier::REVERSED);
                }
                spans.push(Span::styled(app.style.tile(d.tile), style));
            }
            Line::from(spans)
        })
        .collect();
    (lines, skip * per_row)
}

/// Rows a line takes in a box `inner` cells wide when wrapped.
fn wrapped_rows(line: &Line, inner: usize) -> usize {
    line.width().max(1).div_ceil(inner.max(1))
}

/// An opponent's box: their melds, concealed count (flowers, gambits) and newest discards in
/// `area`; `compact` puts the count and the melds in one line.
fn opponent(f: &mut Frame, app: &App, obs: &Observation, p: Player, area: Rect, compact: bool) {
    let h = &obs.table[p.index()];
    let inner = area.width.saturating_sub(2);
    let mut melds = melds_line(app, h, false);
    let mut count = vec![Span::raw(format!("concealed: {}", h.concealed_count))];
    count.extend(extras(app, h));
    if compact {
        // "13 tiles · melds: …" in one line (wrapped when long).
        let mut spans = vec![Span::raw(format!("{} tiles · ", h.concealed_count))];
        spans.extend(melds.spans);
        spans.extend(extras(app, h));
        melds = Line::from(spans);
        count = Vec::new();
    }
    let head_rows = wrapped_rows(&melds, usize::from(inner)) + usize::from(!compact);
    let room = usize::from(area.height.saturating_sub(2)).saturating_sub(head_rows);
    let (discards, earlier) = discard_lines(app, obs, h, per_row(app, inner), room);
    if earlier > 0 {
        let older = Span::styled(
            format!("  +{earlier} older"),
            Style::default().fg(Color::DarkGray),
        );
        if compact {
            melds.spans.push(older);
        } else {
            count.push(Span::styled(
                format!("{} discards", older.content),
                older.style,
            ));
        }
    }
    let mut lines = vec![melds];
    if !compact {
        lines.push(Line::from(count));
    }
    lines.extend(discards);
    f.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::default()
                .borders(Borders::ALL)
                .title(title(app, obs, p, area.width)),
        ),
        area,
    );
}

fn centre(f: &mut Frame, app: &App, obs: &Observation, area: Rect) {
    let mut lines = Vec::new();
    // Most important first: the panel may be short.
    if let Some((p, t)) = obs.on_offer {
        lines.push(Line::from(Span::styled(
            format!("On offer: {} from {}", app.style.tile(t), app.name(p)),
            Style::default().add_modifier(Modifier::BOLD),
        )));
    } else if let Some(p) = obs.turn {
        lines.push(Line::from(format!("To play: {}", app.name(p))));
    }
    lines.push(Line::from(format!("Wall: {} tiles left", obs.live_wall)));
    lines.push(Line::from(format!("Dealer: {}", app.name(obs.dealer))));
    if app.ruleset().spec().lao {
        lines.push(Line::from(format!("Lao: {}", obs.lao)));
    } else {
        lines.push(Line::from(format!(
            "Prevailing wind: {}",
            capital(obs.prevailing_wind.name())
        )));
    }
    if let Some(w) = obs.wildcard {
        let mut text = format!("Wild: {}", app.style.tile(w));
        if let Some(i) = obs.indicator {
            text.push_str(&format!(" (indicator {})", app.style.tile(i)));
        }
        lines.push(Line::from(text));
    }
    lines.push(Line::from(Span::styled(
        format!("Seed: {}", app.seed()),
        Style::default().fg(Color::DarkGray),
    )));
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(Block::default().borders(Borders::ALL).title(" table ")),
        area,
    );
}

/// The lines of your box, `inner` cells wide: melds, discards (the newest `discard_rows` rows,
/// with how many older ones are left out), the hand, the cursor with the picked tile's name,
/// and what discarding it leaves (ready or not, each wait), wrapped so nothing is cut.
fn own_lines(
    app: &App,
    obs: &Observation,
    inner: usize,
    discard_rows: usize,
) -> Vec<Line<'static>> {
    let me = app.human();
    let h = &obs.table[me.index()];
    let mut lines = vec![melds_line(app, h, true)];
    let (discards, earlier) = discard_lines(app, obs, h, per_row(app, inner as u16), discard_rows);
    if earlier > 0 {
        if let Some(first) = lines.first_mut() {
            first.spans.push(Span::styled(
                format!("   +{earlier} older discards"),
                Style::default().fg(Color::DarkGray),
            ));
        }
    }
    if discards.is_empty() {
        lines.push(Line::from(Span::styled(
            "discards: none",
            Style::default().fg(Color::DarkGray),
        )));
    }
    lines.extend(discards);
    while lines.len() < 3 {
        lines.push(Line::from(""));
    }
    let tiles = app.hand_tiles();
    let drawn = obs.drawn.is_some();
    let picking = app.mode() == &Mode::Playing
        && obs
            .legal_actions
            .iter()
            .any(|a| matches!(a, Action::Discard(_)));
    let mut spans = vec![Span::raw("hand: ")];
    let mut caret = String::from("      ");
    for (i, &t) in tiles.iter().enumerate() {
        if i > 0 {
            let gap = if drawn && i + 1 == tiles.len() {
                "   "
            } else {
                " "
            };
            spans.push(Span::raw(gap));
            caret.push_str(gap);
        }
        let text = app.style.tile(t);
        let mut style = tile_style(t).add_modifier(Modifier::BOLD);
        if Some(t) == obs.wildcard {
            style = style.fg(Color::Yellow);
        }
        let selected = picking && i == app.cursor();
        if selected {
            style = style.add_modifier(Modifier::REVERSED);
        }
        let width = Span::raw(text.as_str()).width();
        caret.push_str(&if selected { "^" } else { " " }.repeat(width));
        spans.push(Span::styled(text, style));
    }
    lines.push(Line::from(spans));
    let mut caret_line = caret.trim_end().to_string();
    let mut hint = None;
    if let (true, Some(&t)) = (picking, tiles.get(app.cursor())) {
        caret_line.push_str(&format!("  {}", app.ruleset().config().tile_name(t)));
        if Some(t) == obs.wildcard {
            caret_line.push_str(if obs.wildcard_discard_is_gambit {
                " (wild): discarding it is a Fortune Gambit"
            } else {
                " (wild)"
            });
        }
        hint = Some(format!("→ {}", readiness(app, obs, Some(t))));
    } else if tiles.len() % 3 == 1 && obs.turn != Some(app.human()) {
        caret_line = String::new();
        hint = Some(readiness(app, obs, None));
    }
    if let Some((p, t)) = obs.on_offer {
        if !obs.legal_actions.is_empty() {
            // The last discard (the live wall empty) is offered only as a win (RULES.md §1);
            // a kong's tile to rob is not a discard.
            let what = if obs.live_wall == 0 && obs.last_discard == obs.on_offer {
                "the last discard: win or pass"
            } else {
                "claim or pass"
            };
            caret_line = format!("{} offers {}: {what}", app.name(p), app.style.tile(t));
            hint = None;
        }
        // Hong Kong's missed win: say why no win is offered on this tile.
        if obs.missed_wins.contains(&t) {
            hint = Some(format!(
                "No win on {}: {}.",
                app.style.tile(t),
                IllegalReason::MissedWin
            ));
        }
    }
    if !caret_line.is_empty() {
        lines.push(Line::from(caret_line));
    }
    // The hint in whole words, each continuation indented under its first word; then the
    // expert's suggestion (`--hints`).
    for hint in hint.into_iter().chain(app.hint()) {
        for (i, part) in wrap_words(&hint, inner.saturating_sub(4))
            .into_iter()
            .enumerate()
        {
            let indent = if i == 0 { "" } else { "  " };
            lines.push(Line::from(format!("{indent}{part}")));
        }
    }
    lines
}

/// How far the human's hand (after discarding `discard`, if given) is from ready, and when
/// ready each wait with its unseen copies and score, from the library's ready hint (the
/// rule set's minimum and the tiles seen taken into account).
pub(super) fn readiness(app: &App, obs: &Observation, discard: Option<Tile>) -> String {
    let hint = ready_hint(obs, app.ruleset(), discard);
    if hint.waits.len() >= 20 && hint.any_reaches_minimum() {
        let live: u32 = hint.waits.iter().map(|w| u32::from(w.live())).sum();
        return format!(
            "ready, waiting on almost anything ({} kinds, {live} tiles unseen)",
            hint.waits.len()
        );
    }
    hint.text(app.ruleset().spec().unit, |t| app.style.tile(t))
}
