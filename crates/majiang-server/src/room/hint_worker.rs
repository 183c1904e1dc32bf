//! Working out a learner's hint off the room's task (see `hints` for when one is asked): the
//! library's [`suggest`] on the observation the person was just sent, with a bounded budget
//! ([`HINT_BUDGET`]), on a blocking thread, a few at a time across the server; the `hint` goes
//! straight to the connection's outbox.

use super::io::HintJob;
use crate::protocol::ServerMsg;
use majiang::bots::expert::Budget;
use majiang::review::suggest;
use majiang::table::Ruleset;
use std::sync::{Arc, OnceLock};
use tokio::sync::{Semaphore, mpsc};

/// The expert's budget for a hint: a quarter of its playing budget's worlds and one close
/// round, so a hint comes in tens of milliseconds.
pub const HINT_BUDGET: Budget = Budget {
    rollouts: 16,
    close_rounds: 1,
    ..Budget::DEFAULT
};

/// The expert's seed for the hint at a moment of a match: the room's seed and the actions
/// its `state` counts (the seat's view of the actions so far), so the same moment of the same
/// match gets the same hint.
pub fn hint_seed(room_seed: u64, actions: u64) -> u64 {
    room_seed ^ actions.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Hints worked out at once across the server, at most.
const AT_ONCE: usize = 2;

/// The `hint` message for `job` under `ruleset` (`None`: nothing to decide).
pub fn work_out(job: &HintJob, ruleset: &Arc<Ruleset>) -> Option<ServerMsg> {
    let obs = &job.observation;
    let s = suggest(obs, &obs.legal_actions, ruleset, job.seed, HINT_BUDGET)?;
    Some(ServerMsg::Hint {
        hand_number: job.hand_number,
        actions: job.actions,
        action: s.action,
        facts: s.facts,
        value: s.value,
        text: s.text,
    })
}

fn gate() -> &'static Semaphore {
    static GATE: OnceLock<Semaphore> = OnceLock::new();
    GATE.get_or_init(|| Semaphore::new(AT_ONCE))
}

/// Works out `job` off the room's task and sends its hint to `out` (dropped if the outbox is
/// full or closed: a hint is advice, never owed).
pub(super) fn spawn(job: HintJob, ruleset: Arc<Ruleset>, out: mpsc::Sender<Arc<str>>) {
    tokio::spawn(async move {
        let Ok(_permit) = gate().acquire().await else {
            return;
        };
        if out.is_closed() {
            return;
        }
        let msg = tokio::task::spawn_blocking(move || work_out(&job, &ruleset)).await;
        if let Ok(Some(msg)) = msg
            && let Ok(text) = serde_json::to_string(&msg)
        {
            let _ = out.try_send(text.into());
        }
    });
}
