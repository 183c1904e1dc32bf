//! What the server says to a person, each message a catalogue key with named values
//! ([`Words`], from the library): the refusals of WebSocket messages ([`room`], [`ws`]), of
//! room settings ([`config`]), and of the HTTP API ([`api`], the ledger's [`ledger`]). The
//! library's own (refused actions, not-a-win reasons, refused house rules) are listed by
//! [`majiang::table::messages`]. Every message goes out as its English (`message` / `error`, for
//! API users and logs) with `key` and `args` beside it; the browser words the key from its
//! catalogue. [`all`] lists every key the server can send, for the catalogue test.

pub use majiang::words::{Words, WordsDef};
use serde_json::{Map, Value};

/// Refusals of a seated person's or a spectator's message in a room.
pub mod room {
    majiang::words_table! {
        /// Every room refusal.
        pub static ALL;
        /// A spectator sent an action.
        pub SPECTATORS_CANNOT_ACT = "room.spectators_cannot_act" [] "spectators cannot act";
        /// An action before the start.
        pub NOT_STARTED = "room.not_started" [] "the match has not started";
        /// Too many actions wait for a write.
        pub BUSY = "room.busy" [] "the room is busy: try again";
        /// An action between hands.
        pub HAND_OVER = "room.hand_over" [] "the hand is over: send continue for the next one";
        /// An action after the end.
        pub MATCH_OVER = "room.match_over" [] "the match is over";
        /// `start` from a spectator.
        pub SPECTATORS_CANNOT_START = "room.spectators_cannot_start" [] "spectators cannot start the match";
        /// `start` after the start.
        pub ALREADY_STARTED = "room.already_started" [] "the match has already started";
        /// `start` while the start is being written.
        pub STARTING = "room.starting" [] "the match is starting";
        /// `start` with `fill_bots` from another seat than the creator's.
        pub ONLY_CREATOR_FILLS = "room.only_creator_fills" [] "only the room's creator (seat 0) may fill the empty seats with bots";
        /// `start` while person seats are empty (`names`: theirs).
        pub WAITING_TO_JOIN = "room.waiting_to_join" ["names"] "waiting for {names} to join; the creator may start now with the empty seats played by bots";
        /// `continue` from a spectator.
        pub ONLY_SEATED_CONTINUE = "room.only_seated_continue" [] "only a seated player continues";
        /// `continue` while no result waits.
        pub NOTHING_TO_CONTINUE = "room.nothing_to_continue" [] "no hand result is waiting for continue";
        /// `hints` in a room whose creator did not allow them.
        pub HINTS_NOT_ALLOWED = "room.hints_not_allowed" [] "the room's creator did not allow hints in this room";
        /// `take_seat` from a connection whose key names no seat a bot holds.
        pub NO_SEAT_TO_TAKE_BACK = "room.no_seat_to_take_back" [] "this link's key names no seat a bot plays: there is nothing to take back";
        /// `hints` from a spectator.
        pub HINTS_SEATED_ONLY = "room.hints_seated_only" [] "only a seated person can turn hints on";
    }
}

/// Refusals of WebSocket frames before the room reads them.
pub mod ws {
    majiang::words_table! {
        /// Every frame refusal.
        pub static ALL;
        /// Over the message rate.
        pub RATE_LIMITED = "ws.rate_limited" [] "rate limit: slow down (message dropped)";
        /// A binary frame.
        pub BINARY = "ws.binary" [] "binary messages are not understood: send JSON text";
        /// A frame over the size limit.
        pub TOO_LONG = "ws.too_long" ["bytes"] "message over {bytes} bytes";
        /// A frame that is no client message (`detail`: the parser's words).
        pub BAD_MESSAGE = "ws.bad_message" ["detail"] "bad message: {detail}";
    }
}

/// Refusals of room settings (`POST /api/rooms`), besides the library's house-rule ones.
pub mod config {
    majiang::words_table! {
        /// Every settings refusal.
        pub static ALL;
        /// Not as many seats as the rule set plays with.
        pub SEAT_COUNT = "config.seat_count" ["given", "rules", "need"] "seats: {given} given, but {rules} plays with {need}";
        /// A seat name over 32 characters.
        pub NAME_TOO_LONG = "config.name_too_long" ["seat"] "seat {seat}: name longer than 32 characters";
        /// `hands` out of range.
        pub HANDS = "config.hands" ["hands", "max"] "hands: {hands} is not 1 to {max}";
        /// A rule set's end longer than the server plays.
        pub END_ROUNDS = "config.end_rounds" ["n", "max"] "end: rounds:{n} is longer than this server plays (at most rounds:{max}); choose a shorter end or set hands";
        /// A points end above the server's.
        pub END_POINTS = "config.end_points" ["n", "max"] "end: points:{n} is more than this server plays (at most points:{max}); choose fewer points or set hands";
        /// No bot of that name.
        pub NO_BOT = "config.no_bot" ["seat", "kind", "bots"] "seat {seat}: no bot \"{kind}\" (bots: {bots})";
        /// A timer out of range.
        pub TIMER = "config.timer" ["name", "value"] "{name}: {value} is not 0 (off) or 500 to 600000";
        /// A pause above its most.
        pub TOO_LONG = "config.too_long" ["name", "value", "max"] "{name}: {value} is more than {max}";
        /// The body is not room settings (`detail`: the parser's words).
        pub UNREADABLE = "config.unreadable" ["detail"] "room settings: {detail}";
        /// The body is over its size limit.
        pub TOO_LARGE = "config.too_large" ["kib"] "room settings over {kib} KiB";
    }
}

/// Refusals of the HTTP API in general.
pub mod api {
    majiang::words_table! {
        /// Every API refusal.
        pub static ALL;
        /// The room id names no room.
        pub NO_SUCH_ROOM = "api.no_such_room" [] "no such room";
        /// The token opens no seat of the room.
        pub BAD_TOKEN = "api.bad_token" [] "that token opens no seat here";
        /// A WebSocket's `deltas` is not `0` or `1`.
        pub BAD_DELTAS = "api.bad_deltas" ["value"] "deltas={value}: ask with deltas=1 (state_delta messages) or 0 (whole states)";
        /// A WebSocket's `device` is not 1 to 64 letters, digits, `-` or `_`.
        pub BAD_DEVICE = "api.bad_device" ["value"] "device={value}: a device id is 1 to 64 letters, digits, - or _";
        /// No tile picture of that name.
        pub NO_TILE = "api.no_tile" ["name"] "no tile \"{name}\"";
        /// No web file of that name.
        pub NO_FILE = "api.no_file" ["path"] "no file \"{path}\"";
        /// Too many rooms open.
        pub FULL = "api.full" ["rooms"] "the server holds {rooms} rooms already: try again later";
        /// Too many rooms created lately from this address.
        pub ROOMS_THROTTLED_ADDRESS = "api.rooms_throttled_address" [] "too many rooms created lately from your address: try again in a minute";
        /// Too many rooms created lately.
        pub ROOMS_THROTTLED = "api.rooms_throttled" [] "too many rooms created lately: try again in a minute";
        /// Too many ledgers created lately from this address.
        pub LEDGERS_THROTTLED_ADDRESS = "api.ledgers_throttled_address" [] "too many ledgers created lately from your address: try again in a minute";
        /// Too many ledgers created lately.
        pub LEDGERS_THROTTLED = "api.ledgers_throttled" [] "too many ledgers created lately: try again in a minute";
        /// Storage failed (the details are in the log under the incident id).
        pub STORAGE_FAILED = "api.storage_failed" ["incident"] "storage failed, try again (incident {incident})";
        /// Something else failed.
        pub SERVER_FAILED = "api.server_failed" ["incident"] "the server failed (incident {incident})";
        /// The database does not answer (health check).
        pub DATABASE_DOWN = "api.database_down" ["incident"] "the database does not answer (incident {incident})";
        /// A finished match's log does not replay.
        pub LOG_UNREADABLE = "api.log_unreadable" ["incident"] "the match log cannot be read (incident {incident})";
        /// The match is not over: its log stays secret.
        pub REPLAY_NOT_FINISHED = "replay.not_finished" [] "the match is not finished: its log is kept secret until the end";
        /// A match stored under rules revision `revision`, before the last-discard rule, met it:
        /// it does not replay under the rules played now, revision `current` (the CLI's
        /// `replay` says the same of a log).
        pub REPLAY_EARLIER_LAST_DISCARD = "replay.earlier_rules_last_discard" ["action", "revision", "current"] "action {action}: this match was recorded under rules revision {revision}, before the last-discard rule (after the live wall's last tile is drawn, its discard may be claimed only to win: no chow, pung or kong); here the match met that rule, so it does not replay under the rules played now (revision {current})";
        /// A match stored under rules revision `revision`, before Hong Kong's missed win, met
        /// it (the rules played now: revision `current`).
        pub REPLAY_EARLIER_MISSED_WIN = "replay.earlier_rules_missed_win" ["action", "revision", "current"] "action {action}: this match was recorded under rules revision {revision}, before Hong Kong's missed win (house rule missed_win: a player who passes a win may not win on that tile until their next draw from the live wall); here the match met that rule, so it does not replay under the rules played now (revision {current})";
        /// A body over the size limit.
        pub TOO_LARGE = "api.too_large" ["kib"] "a request over {kib} KiB";
        /// A scoring request that is not UTF-8.
        pub NOT_UTF8 = "api.not_utf8" [] "the request is not UTF-8 text";
        /// A review's budget out of range.
        pub REVIEW_BUDGET = "api.review_budget" ["max"] "budget: from 1 to {max} worlds a decision";
        /// A review of a seat the match does not have.
        pub REVIEW_NO_SEAT = "api.review_no_seat" ["seat", "players"] "no seat {seat} in a match of {players} players";
        /// The server is shutting down.
        pub SHUTTING_DOWN = "api.shutting_down" [] "the server is shutting down";
        /// A review failed (the details are in the log under the incident id).
        pub REVIEW_FAILED = "api.review_failed" ["incident"] "the match cannot be reviewed (incident {incident})";
        /// Every review job the server keeps is unfinished.
        pub REVIEW_BUSY = "api.review_busy" ["jobs"] "the server is busy with {jobs} reviews: try again in a minute";
        /// A review job that is not (or no longer) kept.
        pub REVIEW_GONE = "api.review_gone" [] "no such review: it was never asked for, or finished too long ago; ask again";
    }
}

/// Refusals of the companion's ledger API.
pub mod ledger {
    majiang::words_table! {
        /// Every ledger refusal.
        pub static ALL;
        /// The id names no ledger.
        pub NO_SUCH_LEDGER = "ledger.no_such_ledger" [] "no such ledger";
        /// Another server process wrote the ledger between our read and our write.
        pub CHANGED = "ledger.changed" [] "the ledger changed meanwhile (another phone recorded a hand): reload it";
        /// A hand after the end.
        pub MATCH_OVER = "ledger.match_over" [] "the match is over: no more hands";
        /// Undo with no hand.
        pub NOTHING_TO_UNDO = "ledger.nothing_to_undo" [] "no hand recorded yet: nothing to undo";
        /// A scoring request that is no win (`why`: the reason, itself a message).
        pub NOT_A_WIN = "ledger.not_a_win" ["why"] "not a win to record: {why}";
        /// Not as many names as the rule set seats (`rules`: its name).
        pub PLAYER_COUNT = "ledger.player_count" ["rules", "least", "most", "given"] "{rules} plays with {least} to {most} players; {given} names given";
        /// A rule set of one table size given another.
        pub SEATS = "ledger.seats" ["rules", "n"] "{rules} seats {n}";
        /// An empty or too long name.
        pub NAME_LENGTH = "ledger.name_length" ["most"] "a name of 1 to {most} characters";
        /// Two players of one name.
        pub NAMED_TWICE = "ledger.named_twice" ["name"] "\"{name}\" is named twice: give each player their own name";
        /// A first lao other than 1 or 3.
        pub FIRST_LAO_OR_THREE = "ledger.first_lao_or_three" [] "the first dealer starts at 1 lao, or 3 after a double";
        /// A first lao other than 1.
        pub FIRST_LAO = "ledger.first_lao" [] "the first dealer starts at 1 lao under these house rules";
        /// A part of the body that cannot be read (`detail`: the parser's words).
        pub UNREADABLE = "ledger.unreadable" ["detail"] "{detail}";
    }
}

/// Every key the server can send a person, each once: the library's and the server's own.
pub fn all() -> Vec<&'static WordsDef> {
    let mut all = majiang::table::messages();
    for table in [room::ALL, ws::ALL, config::ALL, api::ALL, ledger::ALL] {
        all.extend(table);
    }
    all
}

/// A message as the JSON fields sent beside its English: `key` and `args`.
pub fn fields(w: &Words) -> (String, Map<String, Value>) {
    (w.key().to_string(), w.args_json())
}

/// A list of names as one value (written "Ann, Bo").
pub fn names<'a>(names: impl IntoIterator<Item = &'a str>) -> Value {
    Value::Array(names.into_iter().map(Value::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_names_its_values_and_keys_are_unique() {
        let all = all();
        majiang::words::check_table(&all).unwrap();
        assert!(all.len() > 80, "{}", all.len());
    }

    #[test]
    fn a_refusal_is_english_and_a_key_with_values() {
        let w = room::WAITING_TO_JOIN.with([names(["Ann", "Bo"])]);
        assert_eq!(
            w.to_string(),
            "waiting for Ann, Bo to join; the creator may start now with the empty seats played by bots"
        );
        let (key, args) = fields(&w);
        assert_eq!(key, "room.waiting_to_join");
        assert_eq!(args["names"], serde_json::json!(["Ann", "Bo"]));
    }
}
