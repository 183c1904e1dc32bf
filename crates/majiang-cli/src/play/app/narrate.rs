//! What the human is told of the game: each event they may see worded as a line of the message
//! log, and the end-of-hand summary gathered from the win or the drawn hand.

use super::{App, HandSummary};
use majiang::scoring::WinKind;
use majiang::table::{Event, Player};

impl App {
    /// Logs the events and turns what the human may see of them into messages.
    pub(super) fn record(&mut self, events: &[Event]) {
        let hand = self.driver.session().game().setup().hand_number;
        for e in events {
            if let Event::Won {
                player,
                win,
                discarder,
                tile,
                hand: tiles,
                scored,
            } = e
            {
                self.summary = Some(HandSummary {
                    hand,
                    winner: Some(*player),
                    win: Some(*win),
                    discarder: *discarder,
                    tile: Some(*tile),
                    hand_tiles: tiles.clone(),
                    melds: self.driver.session().game().melds(*player).to_vec(),
                    flowers: self.driver.session().game().flowers(*player).to_vec(),
                    patterns: scored.patterns.clone(),
                    total: scored.total,
                    payments: scored.payments.clone(),
                    itemised: scored.itemised.clone(),
                });
            }
            if let Event::ExhaustiveDraw = e {
                self.summary = Some(HandSummary {
                    hand,
                    winner: None,
                    win: None,
                    discarder: None,
                    tile: None,
                    hand_tiles: Vec::new(),
                    melds: Vec::new(),
                    flowers: Vec::new(),
                    patterns: Vec::new(),
                    total: 0,
                    payments: vec![0; self.driver.session().game().players()],
                    itemised: Vec::new(),
                });
            }
            if let Some(m) = self.describe(&e.seen_by(self.human)) {
                self.push_message(m);
            }
        }
    }

    fn describe(&self, e: &Event) -> Option<String> {
        let st = self.style;
        let who = |p: &Player| self.name(*p).to_string();
        Some(match e {
            Event::Drew {
                player,
                tile: Some(t),
            } if *player == self.human => format!("You draw {}.", st.tile(*t)),
            Event::ReplacementDrawn {
                player,
                tile: Some(t),
            } if *player == self.human => format!("You draw {} as a replacement.", st.tile(*t)),
            Event::FlowerDeclared { player, tile } => {
                format!(
                    "{} lay{} out {}.",
                    who(player),
                    self.s(player),
                    st.tile(*tile)
                )
            }
            Event::IndicatorRevealed { tile, wildcard, .. } => format!(
                "Indicator {}: the other {} are wild.",
                st.tile(*tile),
                st.tile(*wildcard)
            ),
            Event::Discarded {
                player,
                tile,
                gambit,
                wildcard,
            } => format!(
                "{} discard{} {}{}",
                who(player),
                self.s(player),
                st.tile(*tile),
                if *gambit {
                    " — a Fortune Gambit!"
                } else if *wildcard {
                    " (a wildcard: no claims until their next draw)."
                } else {
                    "."
                }
            ),
            Event::Claimed {
                player, from, meld, ..
            } => format!(
                "{} {} {}.",
                self.says(
                    *player,
                    match meld.kind {
                        majiang::meld::MeldKind::Chow => "chow",
                        majiang::meld::MeldKind::Pung => "pung",
                        _ => "kong",
                    }
                ),
                self.whose(*from),
                st.tile(meld.claimed.unwrap_or(meld.tile))
            ),
            Event::KongDeclared { player, kind, tile } => format!(
                "{} declare{} {} kong of {}.",
                who(player),
                self.s(player),
                match kind {
                    majiang::table::KongKind::Exposed => "an exposed",
                    majiang::table::KongKind::Concealed => "a concealed",
                    majiang::table::KongKind::Added => "an added",
                },
                st.tile(*tile)
            ),
            Event::KongRobbed { player, from, tile } => format!(
                "{} rob{} {} kong of {}!",
                who(player),
                self.s(player),
                self.whose(*from),
                st.tile(*tile)
            ),
            Event::Won {
                player, win, tile, ..
            } => format!(
                "{} win{} {} {}!",
                who(player),
                self.s(player),
                match win {
                    WinKind::SelfDraw => "by self-draw on",
                    WinKind::Discard => "on the discard",
                    WinKind::RobbingKong => "robbing the kong with",
                },
                st.tile(*tile)
            ),
            Event::ExhaustiveDraw => "The wall is exhausted: a drawn hand.".to_string(),
            _ => return None,
        })
    }

    fn s(&self, p: &Player) -> &'static str {
        if *p == self.human { "" } else { "s" }
    }
}
