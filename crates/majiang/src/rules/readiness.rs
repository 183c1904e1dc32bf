//! How soon players are ready under a rule set: the share of opponents ready with a hand the
//! rule set pays for, by their exposed melds and the length of their discard row. Each rule
//! set's `spec.rs` holds its table, measured in self-play of four `efficient` bots
//! (`bots/expert/calibrate.rs` prints the tables and checks the stored ones:
//! `cargo test --release -p majiang calibrate -- --ignored --nocapture`; every test run checks
//! them against a fresh sample); the expert bot deals its guessed worlds by it.

/// Rows: exposed melds 0, 1, 2, 3, 4 or more. Columns: discards 0–3, 4–7, 8–11, 12–15, 16–19,
/// 20 or more. Each cell is a share in `0..=1`, and the table grows along both.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Readiness(pub [[f32; 6]; 5]);

impl Readiness {
    /// A rough curve for a rule set not yet measured (what the expert bot used before the
    /// tables were measured: it overstates readiness where a minimum fan must be reached).
    pub const UNMEASURED: Readiness = Readiness([
        [0.00, 0.18, 0.42, 0.66, 0.80, 0.80],
        [0.10, 0.26, 0.48, 0.69, 0.82, 0.82],
        [0.30, 0.43, 0.59, 0.76, 0.86, 0.86],
        [0.60, 0.67, 0.77, 0.86, 0.92, 0.92],
        [0.85, 0.88, 0.91, 0.95, 0.97, 0.97],
    ]);

    /// The chance that a player with `exposed` claimed melds and `discards` discards is ready.
    pub fn chance(&self, exposed: usize, discards: usize) -> f64 {
        f64::from(self.0[exposed.min(4)][(discards / 4).min(5)])
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::RULE_SETS;
    use serde_json::Map;

    #[test]
    fn every_rule_sets_table_grows_with_melds_and_discards() {
        for set in RULE_SETS {
            let name = set.name();
            let t = set.read(&Map::new()).unwrap().aims().ready.0;
            for e in 0..5 {
                for b in 0..6 {
                    assert!((0.0..=1.0).contains(&t[e][b]), "{name}");
                    assert!(b == 0 || t[e][b] >= t[e][b - 1], "{name}");
                    assert!(e == 0 || t[e][b] >= t[e - 1][b], "{name}");
                }
            }
        }
    }

    #[test]
    fn a_minimum_fan_makes_an_early_ready_hand_rare() {
        let ready = |name: &str| {
            let set = crate::rules::lookup(name).unwrap();
            set.read(&Map::new()).unwrap().aims().ready
        };
        // Ten discards, no meld: Yangzhou's 15 fan are rarely there yet; Hangzhou's hands,
        // with no minimum and 财神 wildcards, mostly are.
        assert!(ready("yangzhou").chance(0, 10) < 0.05);
        assert!(ready("hangzhou").chance(0, 10) > 0.5);
        // Far outside the table: its last cell.
        let yz = ready("yangzhou");
        assert_eq!(yz.chance(9, 90), f64::from(yz.0[4][5]));
    }
}
