//! `state_delta`: what changed in a viewer's `state` since the last one its connection was
//! sent, so each step can send a connection the changed parts rather than the whole state.
//!
//! Deltas go only to a connection that asked for them when it opened (`/ws/ID?deltas=1`;
//! without it every state is whole, as a client that does not know this message needs). Such
//! a connection gets a whole `state` when it opens and when it asks (`sync`), then deltas. A
//! delta names only the fields of the state that changed, each with its new value (`null` for
//! an option now empty); inside the observation ([`ObservationDelta`]) only the fields that
//! changed, and of its `table` only the chairs whose public hand changed (keyed by chair). A
//! client applies one by replacing those fields (PROTOCOL.md): it then holds exactly the state
//! a fresh `state` would give, but for the deadlines, which count down from when each was
//! sent.

pub use crate::delta::{ObservationDelta, StateDelta};
use crate::protocol::ServerMsg;
use majiang::table::Observation;
use majiang::table::observation::PublicHand;
use std::collections::BTreeMap;

/// `new` if it differs from `old`.
fn changed<T: PartialEq + Clone>(old: &T, new: &T) -> Option<T> {
    (old != new).then(|| new.clone())
}

impl StateDelta {
    /// What changed from `old` to `new` (both `state`s; `None` if either is not, or if nothing
    /// changed).
    pub fn between(old: &ServerMsg, new: &ServerMsg) -> Option<StateDelta> {
        let (
            ServerMsg::State {
                status: o_status,
                seats: o_seats,
                hand_number: o_hand_number,
                hands: o_hands,
                ledger: o_ledger,
                observation: o_observation,
                claim_deadline_ms: o_claim,
                deadline_ms: o_deadline,
                continue_: o_continue,
                waits: o_waits,
                actions: o_actions,
            },
            ServerMsg::State {
                status,
                seats,
                hand_number,
                hands,
                ledger,
                observation,
                claim_deadline_ms,
                deadline_ms,
                continue_,
                waits,
                actions,
            },
        ) = (old, new)
        else {
            return None;
        };
        let (whole, part) = match (o_observation, observation) {
            (Some(o), Some(n)) => match ObservationDelta::between(o, n) {
                Some(d) => (
                    None,
                    (d != ObservationDelta::default()).then(|| Box::new(d)),
                ),
                None => (Some(Some(n.clone())), None),
            },
            (o, n) => (changed(o, n), None),
        };
        let d = StateDelta {
            status: changed(o_status, status),
            seats: changed(o_seats, seats),
            hand_number: changed(o_hand_number, hand_number),
            hands: changed(o_hands, hands),
            ledger: changed(o_ledger, ledger),
            observation: whole,
            observation_delta: part,
            claim_deadline_ms: changed(o_claim, claim_deadline_ms),
            deadline_ms: changed(o_deadline, deadline_ms),
            continue_: changed(o_continue, continue_),
            waits: changed(o_waits, waits),
            actions: changed(o_actions, actions),
        };
        (d != StateDelta::default()).then_some(d)
    }

    /// Applies the delta to `state` (a `state`; anything else is left alone).
    pub fn apply_to(&self, state: &mut ServerMsg) {
        let ServerMsg::State {
            status,
            seats,
            hand_number,
            hands,
            ledger,
            observation,
            claim_deadline_ms,
            deadline_ms,
            continue_,
            waits,
            actions,
        } = state
        else {
            return;
        };
        set(status, &self.status);
        set(seats, &self.seats);
        set(hand_number, &self.hand_number);
        set(hands, &self.hands);
        set(ledger, &self.ledger);
        set(observation, &self.observation);
        if let (Some(d), Some(o)) = (&self.observation_delta, observation.as_deref_mut()) {
            d.apply_to(o);
        }
        set(claim_deadline_ms, &self.claim_deadline_ms);
        set(deadline_ms, &self.deadline_ms);
        set(continue_, &self.continue_);
        set(waits, &self.waits);
        set(actions, &self.actions);
    }

    /// The deadlines as times turned into milliseconds left at `now`.
    pub(crate) fn relative(mut self, now: u64) -> StateDelta {
        for t in [&mut self.claim_deadline_ms, &mut self.deadline_ms]
            .into_iter()
            .flatten()
            .flatten()
        {
            *t = t.saturating_sub(now);
        }
        if let Some(Some(c)) = &mut self.continue_ {
            c.deadline_ms = c.deadline_ms.saturating_sub(now);
        }
        self
    }
}

/// Replaces `field` with the delta's value, if it has one.
fn set<T: Clone>(field: &mut T, value: &Option<T>) {
    if let Some(v) = value {
        *field = v.clone();
    }
}

impl ObservationDelta {
    /// What changed from `old` to `new`; `None` when their tables differ in length (a delta
    /// cannot say that: the whole observation is sent).
    pub fn between(old: &Observation, new: &Observation) -> Option<ObservationDelta> {
        // Every field named, so a field added to the observation must be added here too.
        let Observation {
            player,
            seat,
            dealer,
            prevailing_wind,
            lao,
            concealed,
            extra_winds,
            drawn,
            table,
            live_wall,
            wildcard,
            indicator,
            gambit_round,
            wildcard_discard_is_gambit,
            on_offer,
            last_discard,
            turn,
            legal_actions,
            missed_wins,
        } = new;
        if old.table.len() != table.len() {
            return None;
        }
        let hands: BTreeMap<usize, PublicHand> = old
            .table
            .iter()
            .zip(table)
            .enumerate()
            .filter(|(_, (o, n))| o != n)
            .map(|(i, (_, n))| (i, n.clone()))
            .collect();
        Some(ObservationDelta {
            player: changed(&old.player, player),
            seat: changed(&old.seat, seat),
            dealer: changed(&old.dealer, dealer),
            prevailing_wind: changed(&old.prevailing_wind, prevailing_wind),
            lao: changed(&old.lao, lao),
            concealed: changed(&old.concealed, concealed),
            extra_winds: changed(&old.extra_winds, extra_winds),
            drawn: changed(&old.drawn, drawn),
            table: (!hands.is_empty()).then_some(hands),
            live_wall: changed(&old.live_wall, live_wall),
            wildcard: changed(&old.wildcard, wildcard),
            indicator: changed(&old.indicator, indicator),
            gambit_round: changed(&old.gambit_round, gambit_round),
            wildcard_discard_is_gambit: changed(
                &old.wildcard_discard_is_gambit,
                wildcard_discard_is_gambit,
            ),
            on_offer: changed(&old.on_offer, on_offer),
            last_discard: changed(&old.last_discard, last_discard),
            turn: changed(&old.turn, turn),
            legal_actions: changed(&old.legal_actions, legal_actions),
            missed_wins: changed(&old.missed_wins, missed_wins),
        })
    }

    /// Applies the delta to `o`.
    pub fn apply_to(&self, o: &mut Observation) {
        set(&mut o.player, &self.player);
        set(&mut o.seat, &self.seat);
        set(&mut o.dealer, &self.dealer);
        set(&mut o.prevailing_wind, &self.prevailing_wind);
        set(&mut o.lao, &self.lao);
        set(&mut o.concealed, &self.concealed);
        set(&mut o.extra_winds, &self.extra_winds);
        set(&mut o.drawn, &self.drawn);
        for (&i, h) in self.table.iter().flatten() {
            if let Some(slot) = o.table.get_mut(i) {
                *slot = h.clone();
            }
        }
        set(&mut o.live_wall, &self.live_wall);
        set(&mut o.wildcard, &self.wildcard);
        set(&mut o.indicator, &self.indicator);
        set(&mut o.gambit_round, &self.gambit_round);
        set(
            &mut o.wildcard_discard_is_gambit,
            &self.wildcard_discard_is_gambit,
        );
        set(&mut o.on_offer, &self.on_offer);
        set(&mut o.last_discard, &self.last_discard);
        set(&mut o.turn, &self.turn);
        set(&mut o.legal_actions, &self.legal_actions);
        set(&mut o.missed_wins, &self.missed_wins);
    }
}

/// Applies the JSON of a `state_delta` to the JSON of a `state`, as PROTOCOL.md says and the
/// browser does (`web/js/state-delta.js`): each field given replaces the state's, but
/// `observation_delta`, whose fields replace the observation's, and whose `table` replaces the
/// public hands of the chairs it names. For a client that keeps states as JSON (the test kit's
/// client; the load example keeps only the fields it reads). An error says what in the delta
/// does not fit the state.
pub fn apply_to_json(
    state: &mut serde_json::Value,
    delta: &serde_json::Value,
) -> Result<(), String> {
    let state = state.as_object_mut().ok_or("the state is not an object")?;
    let delta = delta.as_object().ok_or("the delta is not an object")?;
    for (k, v) in delta {
        match k.as_str() {
            "type" => {}
            "observation_delta" => {
                let obs = state
                    .get_mut("observation")
                    .and_then(serde_json::Value::as_object_mut)
                    .ok_or("an observation_delta, but the state has no observation")?;
                for (ok, ov) in v.as_object().into_iter().flatten() {
                    if ok != "table" {
                        obs.insert(ok.clone(), ov.clone());
                        continue;
                    }
                    let table = obs
                        .get_mut("table")
                        .and_then(serde_json::Value::as_array_mut)
                        .ok_or("an observation_delta's table, but the observation has none")?;
                    for (chair, hand) in ov.as_object().into_iter().flatten() {
                        let slot = chair
                            .parse::<usize>()
                            .ok()
                            .and_then(|c| table.get_mut(c))
                            .ok_or_else(|| format!("no chair {chair:?} at the table"))?;
                        *slot = hand.clone();
                    }
                }
            }
            _ => {
                state.insert(k.clone(), v.clone());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::apply_to_json;
    use serde_json::json;

    #[test]
    fn a_delta_replaces_the_fields_it_names_and_the_chairs_of_its_table() {
        let mut state = json!({"type": "state", "status": "waiting", "ledger": [0, 0],
            "observation": {"wall_remaining": 50, "table": [{"melds": []}, {"melds": []}]}});
        let delta = json!({"type": "state_delta", "ledger": [5, -5],
            "observation_delta": {"wall_remaining": 49, "table": {"1": {"melds": ["p 5s"]}}}});
        apply_to_json(&mut state, &delta).unwrap();
        assert_eq!(
            state,
            json!({"type": "state", "status": "waiting", "ledger": [5, -5],
                "observation": {"wall_remaining": 49,
                    "table": [{"melds": []}, {"melds": ["p 5s"]}]}})
        );
    }

    #[test]
    fn a_delta_that_does_not_fit_the_state_is_an_error_that_says_why() {
        let no_obs = json!({"type": "state", "observation": null});
        let delta = json!({"type": "state_delta", "observation_delta": {"wall_remaining": 3}});
        let e = apply_to_json(&mut no_obs.clone(), &delta).unwrap_err();
        assert!(e.contains("has no observation"), "{e}");
        let mut two = json!({"observation": {"table": [{}, {}]}});
        let far = json!({"observation_delta": {"table": {"7": {}}}});
        assert_eq!(
            apply_to_json(&mut two, &far).unwrap_err(),
            "no chair \"7\" at the table"
        );
        assert!(apply_to_json(&mut json!([]), &delta).is_err());
    }
}
