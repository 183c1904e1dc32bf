//! Creation throttles: token buckets per client address and one for everyone, for room and
//! ledger creation. The per-address table is bounded: full buckets (addresses quiet for a
//! minute) are dropped when it grows, and past its cap an unknown address shares one bucket.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// Most client addresses tracked at once.
const MAX_TRACKED: usize = 65_536;

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    last: Instant,
}

impl Bucket {
    fn full(capacity: f64, now: Instant) -> Bucket {
        Bucket {
            tokens: capacity,
            last: now,
        }
    }

    fn refill(&mut self, capacity: f64, per_sec: f64, now: Instant) {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + dt * per_sec).min(capacity);
        self.last = now;
    }
}

/// Why a creation was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Throttled {
    /// This client address created too many lately.
    Address,
    /// Every client together created too many lately.
    Everyone,
}

/// `per_minute` creations a minute per address (bursts of as many), `total_per_minute` for
/// everyone.
#[derive(Debug)]
pub struct Throttle {
    per_minute: f64,
    total_per_minute: f64,
    state: Mutex<(Bucket, HashMap<IpAddr, Bucket>)>,
}

impl Throttle {
    /// A throttle with these rates (0: no creation at all).
    pub fn new(per_minute: u32, total_per_minute: u32) -> Throttle {
        let now = Instant::now();
        Throttle {
            per_minute: f64::from(per_minute),
            total_per_minute: f64::from(total_per_minute),
            state: Mutex::new((
                Bucket::full(f64::from(total_per_minute), now),
                HashMap::new(),
            )),
        }
    }

    /// Takes one creation for `addr`, or says why not.
    pub fn take(&self, addr: IpAddr) -> Result<(), Throttled> {
        let now = Instant::now();
        let (cap, total) = (self.per_minute, self.total_per_minute);
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let (everyone, table) = &mut *guard;
        everyone.refill(total, total / 60.0, now);
        if table.len() >= MAX_TRACKED && !table.contains_key(&addr) {
            table.retain(|_, b| {
                b.refill(cap, cap / 60.0, now);
                b.tokens < cap
            });
        }
        // Still full of busy addresses: the newcomers share one bucket.
        let key = if table.len() >= MAX_TRACKED && !table.contains_key(&addr) {
            IpAddr::from([0u8, 0, 0, 0])
        } else {
            addr
        };
        let mine = table.entry(key).or_insert_with(|| Bucket::full(cap, now));
        mine.refill(cap, cap / 60.0, now);
        if mine.tokens < 1.0 {
            return Err(Throttled::Address);
        }
        if everyone.tokens < 1.0 {
            return Err(Throttled::Everyone);
        }
        mine.tokens -= 1.0;
        everyone.tokens -= 1.0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_burst_then_is_refused_and_others_are_not() {
        let t = Throttle::new(3, 5);
        let a = IpAddr::from([10, 0, 0, 1]);
        let b = IpAddr::from([10, 0, 0, 2]);
        for _ in 0..3 {
            t.take(a).unwrap();
        }
        assert_eq!(t.take(a), Err(Throttled::Address));
        t.take(b).unwrap();
        t.take(b).unwrap();
        // Five taken in all: everyone's bucket is empty.
        assert_eq!(t.take(b), Err(Throttled::Everyone));
        assert_eq!(
            t.take(IpAddr::from([10, 0, 0, 3])),
            Err(Throttled::Everyone)
        );
    }

    #[test]
    fn zero_refuses_everything() {
        let t = Throttle::new(0, 10);
        assert_eq!(t.take(IpAddr::from([1, 2, 3, 4])), Err(Throttled::Address));
    }
}
