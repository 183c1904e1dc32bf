//! The wire protocol: JSON messages over the WebSocket, and the room settings of the HTTP API.
//! `PROTOCOL.md` beside the crate documents them with examples.

pub use crate::delta::{ObservationDelta, StateDelta};
use crate::reveal::{PaymentExplained, RevealedHand};
pub use crate::room_status::{ContinueState, RoomStatus, SeatInfo};
use crate::waits::Wait;
use majiang::bots::expert::Estimate;
use majiang::review::{Facts, RunnerUp};
use majiang::table::matches::Standing;
use majiang::table::{Action, Event, Observation, Settlement, TableRules};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::words::{Words, config as said};

/// The largest client message accepted, in bytes.
pub const MAX_CLIENT_MESSAGE: usize = 4096;

/// One seat of a room as created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatConfig {
    /// Display name.
    #[serde(default)]
    pub name: String,
    /// The server plays this seat.
    #[serde(default)]
    pub bot: bool,
    /// Which bot (a level or a bot's name, default `efficient`; or `ext:NAME`, an external
    /// bot the server's administrator allowed with `serve --external-bot NAME=COMMAND`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_kind: Option<String>,
}

/// How a room is set up (the body of `POST /api/rooms`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RoomConfig {
    /// Rule set: hongkong, hangzhou, yangzhou or classic.
    pub rules: String,
    /// House rules, as in a rules file or `--option k=v` of `majiang score`.
    pub options: Map<String, Value>,
    /// The seats; empty means one person (seat 0) and bots in the others.
    pub seats: Vec<SeatConfig>,
    /// At most this many hands (1 to 64); without it the match runs to its rule set's end.
    pub hands: Option<u32>,
    /// Claim timer in milliseconds: a person who has not answered a tile on offer by then is
    /// played by the efficient bot. 0: off; unset: the server's default
    /// ([`RoomConfig::default_claim_timeout_ms`]) in rooms with two or more person seats, else
    /// off.
    pub claim_timeout_ms: Option<u64>,
    /// Turn timer in milliseconds: a person who has not played their turn by then is played by
    /// the efficient bot. 0: off; unset: the server's default
    /// ([`RoomConfig::default_turn_timeout_ms`]) in rooms with two or more person seats, else
    /// off.
    pub turn_timeout_ms: Option<u64>,
    /// The claim timer of the server the room was created on, for `claim_timeout_ms` unset
    /// (`majiang serve --claim-timeout-ms`; 0: off): written by the server when it creates
    /// the room (what a request gives is replaced), so every process that runs the room plays
    /// it alike. Unset (a room stored before there was one): [`DEFAULT_CLAIM_TIMEOUT_MS`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_claim_timeout_ms: Option<u64>,
    /// The turn timer of the server the room was created on, for `turn_timeout_ms` unset
    /// (`majiang serve --turn-timeout-ms`), as [`RoomConfig::default_claim_timeout_ms`]
    /// is for claims. Unset: [`DEFAULT_TURN_TIMEOUT_MS`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_turn_timeout_ms: Option<u64>,
    /// After a hand, the next is dealt when every connected person has sent `continue`, or
    /// after this many milliseconds (unset: [`DEFAULT_CONTINUE_TIMEOUT_MS`]; 0: at once).
    pub continue_timeout_ms: Option<u64>,
    /// Pause before each bot action, in milliseconds (0 to 5000), so people can follow.
    pub bot_delay_ms: u64,
    /// A person who is not connected when they must decide is played by the efficient bot
    /// after this many milliseconds from when they left (or their own timer, if sooner), and
    /// until they come back. Unset: [`DEFAULT_AWAY_GRACE_MS`]; 0: at once; at most 600000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub away_grace_ms: Option<u64>,
    /// Start the match at once instead of waiting for a `start` message.
    pub autostart: bool,
    /// The room's creator allows hints: a seated person may ask (`hints`) for the expert's
    /// suggested discard or call whenever they must act. Off unless set; everyone in the room
    /// sees it (`welcome`).
    pub hints: bool,
    /// When a friend who arrives after "start now, fill empty seats with bots" takes their seat
    /// back from its bot (`take_seat`): at the next hand (the default) or at once.
    #[serde(skip_serializing_if = "TakeBack::is_next_hand")]
    pub take_back: TakeBack,
}

/// When a person takes their seat back from the bot that was given it at the start (see
/// [`RoomConfig::take_back`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TakeBack {
    /// When the hand in play ends (at once between hands): the bot finishes its hand.
    #[default]
    NextHand,
    /// As soon as they ask, in the middle of a hand.
    AtOnce,
}

impl TakeBack {
    fn is_next_hand(&self) -> bool {
        *self == TakeBack::NextHand
    }
}

impl Default for RoomConfig {
    fn default() -> Self {
        RoomConfig {
            // The registry's first rule set (Hong Kong).
            rules: majiang::rules::RULE_SETS[0].name().into(),
            options: Map::new(),
            seats: Vec::new(),
            hands: None,
            claim_timeout_ms: None,
            turn_timeout_ms: None,
            default_claim_timeout_ms: None,
            default_turn_timeout_ms: None,
            continue_timeout_ms: None,
            bot_delay_ms: 0,
            away_grace_ms: None,
            autostart: false,
            hints: false,
            take_back: TakeBack::NextHand,
        }
    }
}

/// The claim timer of a room with two or more person seats, unless set (by the room's creator,
/// or by the server: `majiang serve --claim-timeout-ms`).
/// It is also the room's claim window: every discard waits this long (see
/// [`RoomConfig::claim_window`]), so it is short.
pub const DEFAULT_CLAIM_TIMEOUT_MS: u64 = 5_000;
/// The turn timer of a room with two or more person seats, unless set (by the room's creator,
/// or by the server: `majiang serve --turn-timeout-ms`).
pub const DEFAULT_TURN_TIMEOUT_MS: u64 = 30_000;
/// The shortest claim or turn timer there may be, in milliseconds (0 is off).
pub const MIN_TIMER_MS: u64 = 500;
/// The longest claim or turn timer there may be, in milliseconds.
pub const MAX_TIMER_MS: u64 = 600_000;

/// Refuses a claim or turn timer (`name` says which) that is neither 0 (off) nor
/// [`MIN_TIMER_MS`] to [`MAX_TIMER_MS`]: a room's, or a server's default for its rooms.
pub fn check_timer(name: &str, ms: u64) -> Result<(), BadConfig> {
    if ms != 0 && !(MIN_TIMER_MS..=MAX_TIMER_MS).contains(&ms) {
        return Err(BadConfig(said::TIMER.with([name.into(), ms.into()])));
    }
    Ok(())
}
/// The claim window is longer than the longest answer (a bot's pause, a person's claim timer)
/// by this much: the time to decide and store the answers, so that they are in before it ends
/// and what follows shows at its end, not later when somebody was asked.
pub const CLAIM_WINDOW_MARGIN_MS: u64 = 100;

/// The pause after a hand for `continue`, unless set.
pub const DEFAULT_CONTINUE_TIMEOUT_MS: u64 = 30_000;
/// The grace of a person who is not connected before the efficient bot plays for them, unless
/// set.
pub const DEFAULT_AWAY_GRACE_MS: u64 = 5_000;

/// The longest match the server plays, in hands, whatever its end rule (the library's
/// [`HAND_CAP`](majiang::table::matches::HAND_CAP)): `hands` is at most this; a rule set's own
/// end that cannot finish within it (`"end": "rounds:N"`, a Hong Kong match of more deal
/// rounds) is refused when `hands` is not given; and a match its end rule has not ended by
/// then ends there (`points:500`, a `min_fan` few hands reach).
pub const MAX_MATCH_HANDS: u32 = majiang::table::matches::HAND_CAP;

/// The longest a match of bots only may be paced to last, in milliseconds (3 hours): its bot
/// pause is refused when [`MAX_MATCH_HANDS`] (or its `hands`) hands of
/// [`PACED_STEPS_PER_HAND`] paced steps could last longer. Nobody plays in such a room, so
/// nothing else ends it.
pub const MAX_BOTS_ONLY_MATCH_MS: u64 = 3 * 3600 * 1000;

/// A bound on the bot pauses in one hand: every discard waits its claim window (the bot pause
/// in a room of bots) and the next turn the pause again, and a hand has fewer than 120
/// discards.
pub const PACED_STEPS_PER_HAND: u64 = 240;

/// The largest search budget a room's creator may give an expert seat (`expert:N`, `N` worlds
/// per batch; the default is 64): the server pays for the search.
pub const MAX_BOT_BUDGET: u32 = 128;

/// The most starting points of a points match (Hangzhou `"end": "points:N"`) when `hands` is
/// not given: more would let a match run for hundreds of hands.
pub const MAX_MATCH_POINTS: u32 = 500;

/// A room setting refused, with the reason (English by `Display`; a catalogue key and values).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadConfig(pub Words);

impl RoomConfig {
    /// Refuses a seat whose bot kind is neither one of ours nor an outside bot that `bots`
    /// allows, naming the kinds there are (a server's check before [`RoomConfig::validate`]).
    pub fn check_outside_bots(
        &self,
        bots: &crate::external_bots::ExternalBots,
    ) -> Result<(), BadConfig> {
        for (i, s) in self.seats.iter().enumerate() {
            if let Some(k) = &s.bot_kind
                && majiang::bots::check_name(k).is_err()
                && !bots.is_allowed(k)
            {
                let external = bots.kinds();
                let known = majiang::bots::BOT_NAMES
                    .iter()
                    .copied()
                    .chain(external.iter().map(String::as_str));
                return Err(BadConfig(said::NO_BOT.with([
                    i.into(),
                    k.as_str().into(),
                    crate::words::names(known),
                ])));
            }
        }
        Ok(())
    }

    /// Checks the settings, fills in default seats, and builds the rule set.
    pub fn validate(&mut self) -> Result<TableRules, BadConfig> {
        let ruleset =
            TableRules::from_name(&self.rules, &self.options).map_err(|e| BadConfig(e.0))?;
        let n = ruleset.players();
        if self.seats.is_empty() {
            self.seats = (0..n)
                .map(|i| SeatConfig {
                    name: if i == 0 {
                        "You".into()
                    } else {
                        format!("Bot {i}")
                    },
                    bot: i != 0,
                    bot_kind: None,
                })
                .collect();
        }
        if self.seats.len() != n {
            return Err(BadConfig(said::SEAT_COUNT.with([
                self.seats.len().into(),
                self.rules.as_str().into(),
                n.into(),
            ])));
        }
        for (i, s) in self.seats.iter_mut().enumerate() {
            if s.name.chars().count() > 32 {
                return Err(BadConfig(said::NAME_TOO_LONG.with([i.into()])));
            }
            if s.name.trim().is_empty() {
                s.name = if s.bot {
                    format!("Bot {i}")
                } else {
                    format!("Player {i}")
                };
            }
        }
        // Nobody could send `start` to a room of bots only: it starts at once.
        if self.seats.iter().all(|s| s.bot) {
            self.autostart = true;
        }
        if let Some(h) = self.hands
            && !(1..=MAX_MATCH_HANDS).contains(&h)
        {
            return Err(BadConfig(
                said::HANDS.with([h.into(), MAX_MATCH_HANDS.into()]),
            ));
        }
        if self.hands.is_none() {
            use majiang::table::matches::EndRule;
            let end = ruleset.set().match_rules().end;
            if let Some(n) = end.fewest_hands(n)
                && n > MAX_MATCH_HANDS
            {
                return Err(BadConfig(
                    said::END_ROUNDS.with([n.into(), MAX_MATCH_HANDS.into()]),
                ));
            }
            match end {
                EndRule::Points(n) if n > MAX_MATCH_POINTS => {
                    return Err(BadConfig(
                        said::END_POINTS.with([n.into(), MAX_MATCH_POINTS.into()]),
                    ));
                }
                _ => {}
            }
        }
        for s in &self.seats {
            if let Some(budget) = s.bot_kind.as_deref().and_then(search_budget)
                && budget > MAX_BOT_BUDGET
            {
                return Err(BadConfig(said::TOO_LONG.with([
                    "bot_kind".into(),
                    s.bot_kind.clone().unwrap_or_default().into(),
                    format!("expert:{MAX_BOT_BUDGET}").into(),
                ])));
            }
        }
        for (i, s) in self.seats.iter().enumerate() {
            if let Some(k) = &s.bot_kind
                && majiang::bots::check_name(k).is_err()
                && !crate::external_bots::is_external(k)
            {
                // Which external bots a server allows is the app's to say
                // (`ExternalBots::check`, before a room is made): any `ext:` name passes here.
                return Err(BadConfig(said::NO_BOT.with([
                    i.into(),
                    k.as_str().into(),
                    crate::words::names(majiang::bots::BOT_NAMES.iter().copied()),
                ])));
            }
        }
        for (name, value) in [
            ("claim_timeout_ms", self.claim_timeout_ms),
            ("turn_timeout_ms", self.turn_timeout_ms),
            ("default_claim_timeout_ms", self.default_claim_timeout_ms),
            ("default_turn_timeout_ms", self.default_turn_timeout_ms),
        ] {
            if let Some(t) = value {
                check_timer(name, t)?;
            }
        }
        if let Some(t) = self.continue_timeout_ms
            && t > 600_000
        {
            return Err(BadConfig(said::TOO_LONG.with([
                "continue_timeout_ms".into(),
                t.into(),
                600_000.into(),
            ])));
        }
        if let Some(t) = self.away_grace_ms
            && t > 600_000
        {
            return Err(BadConfig(said::TOO_LONG.with([
                "away_grace_ms".into(),
                t.into(),
                600_000.into(),
            ])));
        }
        if self.bot_delay_ms > 5000 {
            return Err(BadConfig(said::TOO_LONG.with([
                "bot_delay_ms".into(),
                self.bot_delay_ms.into(),
                5000.into(),
            ])));
        }
        if self.people() == 0 {
            let longest =
                MAX_BOTS_ONLY_MATCH_MS / (u64::from(self.hand_limit()) * PACED_STEPS_PER_HAND);
            if self.bot_delay_ms > longest {
                return Err(BadConfig(said::TOO_LONG.with([
                    "bot_delay_ms".into(),
                    self.bot_delay_ms.into(),
                    longest.into(),
                ])));
            }
        }
        Ok(ruleset)
    }

    /// The hand limit the match is played with: `hands`, or [`MAX_MATCH_HANDS`] (every match
    /// ends by then whatever its end rule).
    pub fn hand_limit(&self) -> u32 {
        self.hands.unwrap_or(MAX_MATCH_HANDS).min(MAX_MATCH_HANDS)
    }

    /// Person seats (not bots).
    pub fn people(&self) -> usize {
        self.seats.iter().filter(|s| !s.bot).count()
    }

    /// The claim timer in force (`None`: off).
    pub fn claim_timeout(&self) -> Option<u64> {
        let default = self
            .default_claim_timeout_ms
            .unwrap_or(DEFAULT_CLAIM_TIMEOUT_MS);
        self.timer(self.claim_timeout_ms, default)
    }

    /// The turn timer in force (`None`: off).
    pub fn turn_timeout(&self) -> Option<u64> {
        let default = self
            .default_turn_timeout_ms
            .unwrap_or(DEFAULT_TURN_TIMEOUT_MS);
        self.timer(self.turn_timeout_ms, default)
    }

    /// How long every discard (and every kong declared) waits for claims, whoever could claim:
    /// the claim timer in force in a room with people, or the bot pause if longer, and
    /// [`CLAIM_WINDOW_MARGIN_MS`] for the answers to be stored. Answers are made within it,
    /// and what follows the discard is shown when it ends: the pace tells nothing of who could
    /// claim (PROTOCOL.md, "What timing tells"). 0 (no window) in a room with neither.
    pub fn claim_window(&self) -> u64 {
        let claim = if self.people() > 0 {
            self.claim_timeout().unwrap_or(0)
        } else {
            0
        };
        match claim.max(self.bot_delay_ms) {
            0 => 0,
            longest => longest + CLAIM_WINDOW_MARGIN_MS,
        }
    }

    /// The grace of a person who is not connected (see [`RoomConfig::away_grace_ms`]).
    pub fn away_grace(&self) -> u64 {
        self.away_grace_ms.unwrap_or(DEFAULT_AWAY_GRACE_MS)
    }

    /// The pause after a hand for `continue`.
    pub fn continue_timeout(&self) -> u64 {
        self.continue_timeout_ms
            .unwrap_or(DEFAULT_CONTINUE_TIMEOUT_MS)
    }

    /// A timer as set (0: off), or unset: `default` (0: off) with two or more people.
    fn timer(&self, set: Option<u64>, default: u64) -> Option<u64> {
        let ms = match set {
            Some(ms) => ms,
            None if self.people() >= 2 => default,
            None => 0,
        };
        (ms != 0).then_some(ms)
    }
}

/// The search budget of an expert bot's name (`expert:N`, `hard:N`), if it has one.
fn search_budget(kind: &str) -> Option<u32> {
    let (name, n) = kind.split_once(':')?;
    matches!(name, "expert" | "hard").then(|| n.parse().ok())?
}

/// A message from a client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Start the match (a seated person, while the room is waiting). Without `fill_bots`,
    /// only once every person seat is connected; with it (the creator, seat 0, only), the
    /// person seats nobody holds become efficient bots.
    Start {
        /// Fill the empty person seats with bots.
        #[serde(default)]
        fill_bots: bool,
    },
    /// Ready for the next hand (while the room is `hand_over`).
    Continue {},
    /// Play an action. `seq` is the client's own counter, echoed in the `ack` or `error`.
    Action {
        /// The client's sequence number.
        seq: u64,
        /// The action, as the engine spells it (`{"discard": "5m"}`, `"pung"`, ...).
        action: Action,
    },
    /// Ask for a fresh `state`.
    Sync {},
    /// Take back the seat the link's key names from the bot given it at the start (a
    /// connection welcomed with `bot_holds`): at the next hand or at once, as the room's
    /// `take_back` says. The connection is then welcomed again, on the seat.
    TakeSeat {},
    /// Turn hints on or off for this person's seat (refused unless the room allows hints):
    /// while on, each `state` in which the seat must act is followed by a `hint`.
    Hints {
        /// On or off.
        on: bool,
    },
}

/// A message to a client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// First message on a connection.
    Welcome {
        /// Room id.
        room: String,
        /// Your seat, or `None` for a spectator.
        seat: Option<usize>,
        /// The seat the link's key names when a bot plays it since the match started without
        /// its person ("start now, fill empty seats with bots"): `seat` is then `None`, and
        /// the page says a bot holds the seat instead of that the link opens none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot_holds: Option<usize>,
        /// The room's settings.
        config: RoomConfig,
    },
    /// The whole visible state, after each change; to a connection that asked for deltas
    /// (`?deltas=1`) only on connecting and on `sync`, a [`ServerMsg::StateDelta`] after each
    /// change.
    State {
        /// Waiting, playing, finished.
        status: RoomStatus,
        /// The seats.
        seats: Vec<SeatInfo>,
        /// Current hand (from 1), once playing.
        hand_number: Option<u32>,
        /// The limit on hands, if any.
        hands: Option<u32>,
        /// Chips per chair.
        ledger: Vec<i64>,
        /// What this connection may see of the hand (a spectator: no concealed tiles and no
        /// actions).
        observation: Option<Box<Observation>>,
        /// Milliseconds left on the claim timer for this seat, if it runs.
        claim_deadline_ms: Option<u64>,
        /// Milliseconds left for this seat to act (its turn or its answer to a tile on offer),
        /// if a timer runs.
        deadline_ms: Option<u64>,
        /// While `hand_over`: who the next deal waits for.
        #[serde(rename = "continue")]
        continue_: Option<ContinueState>,
        /// The waits of this seat's hand when it is ready (else empty).
        waits: Vec<Wait>,
        /// Actions accepted so far in the match that this connection may know of: every action
        /// but the other players' passes (being asked to pass would tell who could claim).
        actions: u64,
    },
    /// What changed in this connection's `state` since the last one it was sent (see
    /// [`StateDelta`]): sent in place of a whole `state` once the connection holds one, to a
    /// connection that asked for deltas (`?deltas=1`) only.
    StateDelta(StateDelta),
    /// After `welcome` on a match in play: the current hand's events so far, filtered for this
    /// connection as they were live.
    History {
        /// The hand.
        hand_number: u32,
        /// What happened, in order.
        events: Vec<Event>,
    },
    /// Events of the hand, filtered for this connection.
    Events {
        /// The hand.
        hand_number: u32,
        /// What happened.
        events: Vec<Event>,
    },
    /// An action was stored and applied.
    Ack {
        /// The client's sequence number.
        seq: u64,
    },
    /// A message was refused; nothing changed.
    Error {
        /// The sequence number of the refused action, if it was one.
        seq: Option<u64>,
        /// Why, in English (API users, logs).
        message: String,
        /// Why, as a catalogue key (see [`crate::words`]) ...
        #[serde(default)]
        key: String,
        /// ... and its values by name.
        #[serde(default)]
        args: Map<String, Value>,
    },
    /// A hand ended: how (winner, patterns, payments by chair), the ledger after it, the next
    /// deal.
    HandResult {
        /// The settlement.
        settlement: Box<Settlement>,
        /// Every chair's hand face up, by chair.
        reveal: Vec<RevealedHand>,
        /// Each payment with its reason (empty for a drawn hand).
        payments_explained: Vec<PaymentExplained>,
    },
    /// The match is over.
    MatchOver {
        /// Final standings, best first.
        standings: Vec<Standing>,
        /// Final chips per chair.
        ledger: Vec<i64>,
    },
    /// The expert's suggestion for the decision in the `state` whose `actions` and
    /// `hand_number` it repeats (sent after it, to a person who turned hints on; a hint for an
    /// older state is stale).
    Hint {
        /// The hand.
        hand_number: u32,
        /// The `actions` of the state it answers.
        actions: u64,
        /// The suggested action.
        action: Action,
        /// What a person weighs about it (distance from ready, useful tiles unseen, the
        /// danger of the tile, its value).
        facts: Facts,
        /// Its value in the expert's playouts, in chips a hand, with its standard error.
        value: Option<Estimate>,
        /// The best alternative after it and how it compares, paired over the same worlds, in
        /// the review's bands (`about_equal`, `slightly_worse`, `clearly_worse`, `better`);
        /// absent when nothing else was valued.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        runner_up: Option<RunnerUp>,
        /// The suggestion in one line, in English.
        text: String,
    },
    /// No hint for the state whose `actions` and `hand_number` it repeats: the server's hint
    /// queue was full (docs/hosting/limits.md: `--hint-queue`), so the expert skipped it.
    HintBusy {
        /// The hand.
        hand_number: u32,
        /// The `actions` of the state it answers.
        actions: u64,
    },
    /// The seat of this connection was opened on another device (a connection with another
    /// `device` id): it plays there now. This connection closes next; a client takes the seat
    /// back by connecting again (with its own `device` id, which in turn tells the other).
    TakenOver {},
    /// Another server process runs this room: connect to `url` instead (sent once, then the
    /// connection closes).
    Moved {
        /// The WebSocket URL of the room on its owner, with the same token.
        url: String,
    },
}

impl ServerMsg {
    /// The refusal of a message (`seq`: the refused action's), in English and as a key.
    pub fn refusal(seq: Option<u64>, why: &Words) -> ServerMsg {
        let (key, args) = crate::words::fields(why);
        ServerMsg::Error {
            seq,
            message: why.to_string(),
            key,
            args,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_parse_and_unknown_fields_are_refused() {
        let m: ClientMsg =
            serde_json::from_str(r#"{"type":"action","seq":3,"action":{"discard":"5m"}}"#).unwrap();
        assert_eq!(
            m,
            ClientMsg::Action {
                seq: 3,
                action: Action::Discard("5m".parse().unwrap())
            }
        );
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"start","x":1}"#).is_err());
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"action","seq":1}"#).is_err());
        assert!(
            serde_json::from_str::<ClientMsg>(
                r#"{"type":"action","seq":1,"action":{"discard":"0m"}}"#
            )
            .is_err()
        );
    }

    #[test]
    fn configs_are_checked() {
        let mut c = RoomConfig::default();
        let r = c.validate().unwrap();
        assert_eq!(c.seats.len(), 4);
        assert_eq!(r.name(), "hongkong");
        assert!(!c.seats[0].bot && c.seats[1].bot);
        assert!(!c.autostart);
        let mut bots_only = RoomConfig {
            seats: (0..4)
                .map(|_| SeatConfig {
                    name: String::new(),
                    bot: true,
                    bot_kind: Some("random".into()),
                })
                .collect(),
            ..RoomConfig::default()
        };
        bots_only.validate().unwrap();
        assert!(bots_only.autostart, "a room of bots starts by itself");
        assert_eq!(bots_only.seats[2].name, "Bot 2");
        let mut c = RoomConfig {
            rules: "classic".into(),
            options: serde_json::from_str(r#"{"players": 3}"#).unwrap(),
            ..RoomConfig::default()
        };
        c.validate().unwrap();
        assert_eq!(c.seats.len(), 3);
        let mut bad = RoomConfig {
            rules: "riichi".into(),
            ..RoomConfig::default()
        };
        assert!(bad.validate().is_err());
        let mut bad = RoomConfig {
            hands: Some(0),
            ..RoomConfig::default()
        };
        assert!(bad.validate().unwrap_err().to_string().contains("hands"));
        let mut bad = RoomConfig {
            seats: vec![SeatConfig {
                name: "a".into(),
                bot: false,
                bot_kind: None,
            }],
            ..RoomConfig::default()
        };
        assert!(bad.validate().unwrap_err().to_string().contains("seats"));
    }

    #[test]
    fn a_servers_default_timers_apply_where_the_creator_set_none_and_people_play() {
        let room = |people: usize, extra: Value| {
            let mut json = serde_json::json!({
                "seats": (0..4).map(|i| serde_json::json!({"bot": i >= people})).collect::<Vec<_>>(),
                "default_claim_timeout_ms": 2500, "default_turn_timeout_ms": 0
            });
            for (k, v) in extra.as_object().unwrap() {
                json[k] = v.clone();
            }
            let mut c: RoomConfig = serde_json::from_value(json).unwrap();
            c.validate().map(|_| c)
        };
        let none = serde_json::json!({});
        // Two people: the server's claim timer, and its window; its turn timer is off.
        let two = room(2, none.clone()).unwrap();
        assert_eq!(
            (two.claim_timeout(), two.turn_timeout()),
            (Some(2500), None)
        );
        assert_eq!(two.claim_window(), 2500 + CLAIM_WINDOW_MARGIN_MS);
        // One person: no timers, as without the server's.
        let one = room(1, none).unwrap();
        assert_eq!((one.claim_timeout(), one.turn_timeout()), (None, None));
        // The creator's own win, 0 (off) included.
        let own = room(
            2,
            serde_json::json!({"claim_timeout_ms": 0, "turn_timeout_ms": 900}),
        );
        let own = own.unwrap();
        assert_eq!((own.claim_timeout(), own.turn_timeout()), (None, Some(900)));
        // Bounded as a room's own.
        let bad = room(2, serde_json::json!({"default_claim_timeout_ms": 100})).unwrap_err();
        assert_eq!(
            bad.to_string(),
            "default_claim_timeout_ms: 100 is not 0 (off) or 500 to 600000"
        );
        // A room stored before there were server defaults: the built-in ones.
        let mut old = RoomConfig {
            seats: (0..4)
                .map(|i| SeatConfig {
                    name: String::new(),
                    bot: i >= 2,
                    bot_kind: None,
                })
                .collect(),
            ..RoomConfig::default()
        };
        old.validate().unwrap();
        assert_eq!(
            (old.claim_timeout(), old.turn_timeout()),
            (
                Some(DEFAULT_CLAIM_TIMEOUT_MS),
                Some(DEFAULT_TURN_TIMEOUT_MS)
            )
        );
    }
}
