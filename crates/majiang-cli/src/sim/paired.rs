//! The paired comparison of a duplicate run: for each deal (one wall, played once per rotation
//! of the bots over the chairs) and each two bot names, the first's mean chips per hand minus
//! the second's over that deal's hands. The luck of the wall is shared by both sides of a
//! deal, so the mean of these per-deal differences has a much narrower confidence interval
//! than the difference of two independent per-hand means.

use super::HandResult;
use serde_json::{Value, json};

/// One pair of bot names' per-deal differences.
#[derive(Debug, Clone, Default)]
struct PairStats {
    deals: u64,
    sum: f64,
    sum_sq: f64,
}

impl PairStats {
    fn mean(&self) -> f64 {
        if self.deals == 0 {
            0.0
        } else {
            self.sum / self.deals as f64
        }
    }

    /// Half the width of the 95 % confidence interval of the mean difference.
    fn ci95(&self) -> f64 {
        super::ci95(self.deals, self.sum, self.sum_sq)
    }
}

/// The running paired comparison, fed hands in order, a deal's rotations one after another.
pub(crate) struct Paired {
    /// The distinct bot names, in order of first appearance in --bots.
    names: Vec<String>,
    /// The name (index in `names`) of each position in --bots.
    name_of: Vec<usize>,
    rotations: usize,
    /// Hands of the current deal seen so far.
    seen: usize,
    /// The current deal's chips and seat-hands per name.
    current: Vec<(i64, u64)>,
    /// Per pair `(a, b)` with `a < b`, in row order.
    pairs: Vec<PairStats>,
}

impl Paired {
    /// A comparison of the names in `bots` over deals of `rotations` hands each.
    pub(crate) fn new(bots: &[String], rotations: usize) -> Paired {
        let mut names: Vec<String> = Vec::new();
        let name_of = bots
            .iter()
            .map(|b| match names.iter().position(|n| n == b) {
                Some(i) => i,
                None => {
                    names.push(b.clone());
                    names.len() - 1
                }
            })
            .collect();
        let k = names.len();
        Paired {
            current: vec![(0, 0); k],
            pairs: vec![PairStats::default(); k * k.saturating_sub(1) / 2],
            names,
            name_of,
            rotations: rotations.max(1),
            seen: 0,
        }
    }

    /// Adds one hand; the last rotation of a deal closes it.
    pub(crate) fn add(&mut self, r: &HandResult) {
        for (chair, &b) in r.seating.iter().enumerate() {
            let slot = &mut self.current[self.name_of[b]];
            slot.0 += r.payments[chair];
            slot.1 += 1;
        }
        self.seen += 1;
        if self.seen < self.rotations {
            return;
        }
        let mean = |&(chips, hands): &(i64, u64)| chips as f64 / hands.max(1) as f64;
        let k = self.names.len();
        let mut p = 0;
        for a in 0..k {
            for b in a + 1..k {
                let d = mean(&self.current[a]) - mean(&self.current[b]);
                let s = &mut self.pairs[p];
                s.deals += 1;
                s.sum += d;
                s.sum_sq += d * d;
                p += 1;
            }
        }
        self.current.iter_mut().for_each(|c| *c = (0, 0));
        self.seen = 0;
    }

    /// Each pair as `(first, second, stats)`.
    fn rows(&self) -> impl Iterator<Item = (&str, &str, &PairStats)> {
        let k = self.names.len();
        (0..k)
            .flat_map(move |a| (a + 1..k).map(move |b| (a, b)))
            .zip(&self.pairs)
            .map(|((a, b), s)| (self.names[a].as_str(), self.names[b].as_str(), s))
    }

    /// The pairs for the JSON report.
    pub(crate) fn json(&self) -> Value {
        self.rows()
            .map(|(a, b, s)| {
                json!({
                    "bot": a,
                    "versus": b,
                    "deals": s.deals,
                    "difference_per_hand": s.mean(),
                    "difference_ci95": s.ci95(),
                })
            })
            .collect()
    }

    /// The pairs for the summary table (in chips: the payments, whatever the rule set's
    /// scoring unit).
    pub(crate) fn print(&self) {
        for (a, b, s) in self.rows() {
            println!(
                "paired over {} deals: {a} − {b} = {:+.3} ± {:.3} chips per hand (95 %)",
                s.deals,
                s.mean(),
                s.ci95()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(seating: &[usize], payments: &[i64]) -> HandResult {
        HandResult {
            seating: seating.to_vec(),
            win: None,
            payments: payments.to_vec(),
        }
    }

    #[test]
    fn a_deal_is_one_paired_difference_of_per_hand_means() {
        let bots: Vec<String> = ["a", "b", "a", "b"].iter().map(|s| s.to_string()).collect();
        let mut p = Paired::new(&bots, 2);
        // Deal 1: a wins 8 over 4 seat-hands (2 per hand), b loses 8: difference 4.
        p.add(&hand(&[0, 1, 2, 3], &[6, -3, 0, -3]));
        p.add(&hand(&[1, 2, 3, 0], &[-1, 1, -1, 1]));
        // Deal 2: even.
        p.add(&hand(&[0, 1, 2, 3], &[0, 0, 0, 0]));
        p.add(&hand(&[1, 2, 3, 0], &[0, 0, 0, 0]));
        let v = p.json();
        assert_eq!(v[0]["bot"], "a");
        assert_eq!(v[0]["versus"], "b");
        assert_eq!(v[0]["deals"], 2);
        assert_eq!(v[0]["difference_per_hand"], 2.0);
        // Differences 4 and 0: sd 2√2, se 2, half-width 1.96 × 2.
        let ci = v[0]["difference_ci95"].as_f64().unwrap();
        assert!((ci - 3.92).abs() < 1e-9, "{ci}");
    }

    #[test]
    fn one_name_has_no_pairs() {
        let bots: Vec<String> = vec!["a".into(); 4];
        let p = Paired::new(&bots, 4);
        assert_eq!(p.json(), json!([]));
    }
}
