//! Log lines that an outage repeats: a failed write is retried every 500 ms at most in every
//! room, a failed lease round every 200 ms, so a database away for a minute would write
//! thousands of alike lines. A [`Quiet`] lets one line through every [`QUIET_EVERY`] and says
//! on it how many it held back; the metrics (`majiang_store_errors`) still count every one.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// At most one line of a kind this often.
pub const QUIET_EVERY: Duration = Duration::from_secs(5);

/// One kind of repeated line, shared by every room of the process.
#[derive(Debug)]
pub struct Quiet {
    /// When a line last went out, and how many were held back since.
    state: Mutex<(Option<Instant>, u64)>,
}

impl Quiet {
    /// A kind of line none of which went out yet.
    pub const fn new() -> Quiet {
        Quiet {
            state: Mutex::new((None, 0)),
        }
    }

    /// Whether a line may go out now: `Some` with what to add to it (how many were held back,
    /// or nothing), else `None` (the line is counted and held back).
    pub fn allow(&self) -> Option<String> {
        self.allow_at(Instant::now())
    }

    fn allow_at(&self, now: Instant) -> Option<String> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let (last, held) = &mut *state;
        if last.is_some_and(|t| now.duration_since(t) < QUIET_EVERY) {
            *held += 1;
            return None;
        }
        let suffix = match *held {
            0 => String::new(),
            n => format!(
                " ({n} more like it in the last {} s)",
                QUIET_EVERY.as_secs()
            ),
        };
        *last = Some(now);
        *held = 0;
        Some(suffix)
    }
}

impl Default for Quiet {
    fn default() -> Quiet {
        Quiet::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An outage of a minute with 50 rooms retrying twice a second: 6,000 failures, 12 lines,
    /// each after the first saying how many it stands for.
    #[test]
    fn an_outage_writes_one_line_every_few_seconds_with_the_count_held_back() {
        let quiet = Quiet::new();
        let start = Instant::now();
        let mut lines = Vec::new();
        for tick in 0..120u64 {
            let now = start + Duration::from_millis(500 * tick);
            for _room in 0..50 {
                if let Some(suffix) = quiet.allow_at(now) {
                    lines.push(suffix);
                }
            }
        }
        assert_eq!(lines.len(), 12, "{lines:?}");
        assert_eq!(lines[0], "");
        assert_eq!(lines[1], " (499 more like it in the last 5 s)");
        let told: u64 = lines[1..]
            .iter()
            .map(|l| {
                l.split_whitespace()
                    .next()
                    .unwrap()
                    .trim_start_matches('(')
                    .parse::<u64>()
                    .unwrap()
            })
            .sum();
        assert_eq!(told + 12 + 499, 6000);
    }
}
