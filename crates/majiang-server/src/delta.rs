//! `delta`: the state delta's types — the fields of a viewer's `state` that changed, as sent
//! to a connection that asked for deltas. How they are worked out and applied is
//! `state_delta`'s (above the protocol, which carries them in its messages).

use crate::room_status::{ContinueState, RoomStatus, SeatInfo};
use crate::waits::Wait;
use majiang::counts::TileCounts;
use majiang::seat::Seat;
use majiang::table::observation::PublicHand;
use majiang::table::{Action, Observation, Player};
use majiang::tile::{Tile, Wind};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// The fields of a `state` that changed, with their new values; the others are as they were.
/// See the [`state_delta`](crate::state_delta) module.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct StateDelta {
    /// The room's status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<RoomStatus>,
    /// The seats, all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<Vec<SeatInfo>>,
    /// The hand in play.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "given"
    )]
    pub hand_number: Option<Option<u32>>,
    /// The limit on hands.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "given"
    )]
    pub hands: Option<Option<u32>>,
    /// Chips per chair.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ledger: Option<Vec<i64>>,
    /// The whole observation, when there was none before (or `null`: none now).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "given"
    )]
    pub observation: Option<Option<Box<Observation>>>,
    /// What changed in the observation, when there was one before and is one now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observation_delta: Option<Box<ObservationDelta>>,
    /// Milliseconds left on the claim timer.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "given"
    )]
    pub claim_deadline_ms: Option<Option<u64>>,
    /// Milliseconds left to act.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "given"
    )]
    pub deadline_ms: Option<Option<u64>>,
    /// Who the next deal waits for.
    #[serde(
        default,
        rename = "continue",
        skip_serializing_if = "Option::is_none",
        deserialize_with = "given"
    )]
    pub continue_: Option<Option<ContinueState>>,
    /// The ready hand's waits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waits: Option<Vec<Wait>>,
    /// Actions this connection may know of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<u64>,
}

/// The fields of an observation that changed, with their new values (see [`Observation`] for
/// what each is); `table` holds only the chairs whose public hand changed.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct ObservationDelta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Player>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealer: Option<Player>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prevailing_wind: Option<Wind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lao: Option<u8>,
    /// The viewer's concealed tiles, in notation as in the observation.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "notation")]
    pub concealed: Option<TileCounts>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_winds: Option<Vec<Tile>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "given"
    )]
    pub drawn: Option<Option<Tile>>,
    /// The public hands that changed, by chair (JSON keys are chair numbers as text).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "chairs"
    )]
    pub table: Option<BTreeMap<usize, PublicHand>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live_wall: Option<usize>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "given"
    )]
    pub wildcard: Option<Option<Tile>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "given"
    )]
    pub indicator: Option<Option<Tile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gambit_round: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wildcard_discard_is_gambit: Option<bool>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "given"
    )]
    pub on_offer: Option<Option<(Player, Tile)>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "given"
    )]
    pub last_discard: Option<Option<(Player, Tile)>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "given"
    )]
    pub turn: Option<Option<Player>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal_actions: Option<Vec<Action>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missed_wins: Option<Vec<Tile>>,
}

/// A field that is present: `null` is `Some(None)`, not `None` (absent).
fn given<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// Public hands keyed by chair: JSON's keys are text (read through a map of strings, which
/// an internally tagged message can buffer, where integer keys fail).
fn chairs<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<BTreeMap<usize, PublicHand>>, D::Error> {
    BTreeMap::<String, PublicHand>::deserialize(d)?
        .into_iter()
        .map(|(k, v)| Ok((k.parse().map_err(serde::de::Error::custom)?, v)))
        .collect::<Result<_, _>>()
        .map(Some)
}

/// Concealed tiles in notation (`123m55z`), as the observation writes them.
mod notation {
    use majiang::counts::TileCounts;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Option<TileCounts>, s: S) -> Result<S::Ok, S::Error> {
        match c {
            Some(c) => s.collect_str(c),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<TileCounts>, D::Error> {
        let s = String::deserialize(d)?;
        if s.is_empty() {
            return Ok(Some(TileCounts::EMPTY));
        }
        TileCounts::parse(&s)
            .map(Some)
            .map_err(serde::de::Error::custom)
    }
}
