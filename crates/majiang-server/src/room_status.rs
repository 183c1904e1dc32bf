//! `room_status`: where a room is and its seats as everyone sees them — the words the
//! protocol's messages and the state deltas share, below both (see `protocol`, which
//! re-exports them).

use majiang::table::Player;
use serde::{Deserialize, Serialize};

/// Where a room is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    /// Seats are being filled.
    Waiting,
    /// The match is on.
    Playing,
    /// A hand has ended; the next is dealt on `continue` (never stored: a restored room in
    /// this state shows it again).
    HandOver,
    /// The match is over.
    Finished,
}

impl RoomStatus {
    /// The stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            RoomStatus::Waiting => "waiting",
            RoomStatus::Playing => "playing",
            RoomStatus::HandOver => "hand_over",
            RoomStatus::Finished => "finished",
        }
    }

    /// Reads the stored spelling.
    pub fn parse(s: &str) -> Option<RoomStatus> {
        match s {
            "waiting" => Some(RoomStatus::Waiting),
            "playing" => Some(RoomStatus::Playing),
            "hand_over" => Some(RoomStatus::HandOver),
            "finished" => Some(RoomStatus::Finished),
            _ => None,
        }
    }
}

/// One seat as everyone sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// Seat index (order of creation).
    pub seat: usize,
    /// Display name.
    pub name: String,
    /// Played by the server.
    pub bot: bool,
    /// Someone holds the seat's connection now (bots: always).
    pub connected: bool,
    /// The chair (`Player`) once the match has started.
    pub player: Option<Player>,
    /// A person seat the efficient bot plays for now: its person was away when their timer
    /// ran out, and takes the seat back by reconnecting.
    #[serde(default)]
    pub stand_in: bool,
    /// A person seat nobody is connected to while the match is on: the efficient bot plays
    /// for it after the room's away grace (then `stand_in` is set too).
    #[serde(default)]
    pub away: bool,
}

impl SeatInfo {
    /// Seat `seat` as the store knows it (a finished room, a room another node runs): its
    /// `name` and whether a `bot` plays it, with the `player` (chair) when the match was
    /// replayed; a bot counts as connected, a person as not, and nobody stands in or is away.
    pub fn stored(seat: usize, name: &str, bot: bool, player: Option<Player>) -> SeatInfo {
        SeatInfo {
            seat,
            name: name.to_string(),
            bot,
            connected: bot,
            player,
            stand_in: false,
            away: false,
        }
    }
}

/// Who the next deal waits for, while a room is `hand_over`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContinueState {
    /// The chairs of connected people who have not sent `continue`.
    pub waiting_for: Vec<Player>,
    /// Milliseconds until the next hand is dealt anyway.
    pub deadline_ms: u64,
}

#[cfg(test)]
mod tests {
    use super::SeatInfo;
    use majiang::table::Player;

    #[test]
    fn a_stored_seat_shows_its_bot_connected_and_its_person_not() {
        let bot = SeatInfo::stored(2, "Bot 2", true, Some(Player(3)));
        assert_eq!(
            (
                bot.seat,
                bot.name.as_str(),
                bot.bot,
                bot.connected,
                bot.player
            ),
            (2, "Bot 2", true, true, Some(Player(3)))
        );
        let person = SeatInfo::stored(0, "Ann", false, None);
        assert_eq!(
            (person.bot, person.connected, person.player),
            (false, false, None)
        );
        assert!(![bot, person].iter().any(|s| s.stand_in || s.away));
    }
}
