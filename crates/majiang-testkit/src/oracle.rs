//! The pass oracle's scorer: how well one number per sample (a moment, a wait) tells two
//! classes apart (a discard somebody could claim, or nobody), as the server's timing tests
//! measure what a viewer could learn from when things reach them.

/// Balanced accuracy on `test` of the best single threshold (either direction) chosen on
/// `train`: 0.5 is chance, 1.0 tells every sample's class.
///
/// ```
/// use majiang_testkit::oracle::threshold_score;
/// let told = [(1, false), (2, false), (8, true), (9, true)];
/// assert_eq!(threshold_score(&told, &told), 1.0);
/// let mixed = [(1, false), (1, true), (2, false), (2, true)];
/// assert_eq!(threshold_score(&mixed, &mixed), 0.5);
/// ```
pub fn threshold_score<T: PartialOrd + Copy>(train: &[(T, bool)], test: &[(T, bool)]) -> f64 {
    let balanced = |data: &[(T, bool)], t: T, above: bool| {
        let (mut tp, mut p, mut tn, mut n) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        for &(x, could) in data {
            let says = (x > t) == above;
            if could {
                p += 1.0;
                tp += f64::from(u8::from(says));
            } else {
                n += 1.0;
                tn += f64::from(u8::from(!says));
            }
        }
        (tp / p.max(1.0) + tn / n.max(1.0)) / 2.0
    };
    let mut best: Option<(f64, T, bool)> = None;
    for &(t, _) in train {
        for above in [true, false] {
            let s = balanced(train, t, above);
            if best.is_none_or(|(b, _, _)| s > b) {
                best = Some((s, t, above));
            }
        }
    }
    best.map_or(0.5, |(_, t, above)| balanced(test, t, above))
}

/// The two-fold cross-validated balanced accuracy of `data` (in its order): a threshold
/// chosen on the odd samples scored on the even ones, and the other way, averaged.
pub fn cross_validated<T: PartialOrd + Copy>(data: &[(T, bool)]) -> f64 {
    let odd: Vec<_> = data.iter().skip(1).step_by(2).copied().collect();
    let even: Vec<_> = data.iter().step_by(2).copied().collect();
    (threshold_score(&odd, &even) + threshold_score(&even, &odd)) / 2.0
}

/// What [`cross_validated`] scores when the classes tell nothing: its scores over
/// `permutations` shufflings of `data`'s classes among its samples (a generator seeded with
/// `seed`), the highest last. A score above nearly all of them is a tell, not noise: with a
/// few hundred samples chance alone reaches 0.55–0.6 now and then.
pub fn chance_scores<T: PartialOrd + Copy>(
    data: &[(T, bool)],
    permutations: usize,
    seed: u64,
) -> Vec<f64> {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut classes: Vec<bool> = data.iter().map(|d| d.1).collect();
    let mut scores: Vec<f64> = (0..permutations)
        .map(|_| {
            classes.shuffle(&mut rng);
            let shuffled: Vec<(T, bool)> =
                data.iter().zip(&classes).map(|(d, &c)| (d.0, c)).collect();
            cross_validated(&shuffled)
        })
        .collect();
    scores.sort_by(f64::total_cmp);
    scores
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_split_scores_one_and_beats_every_shuffling() {
        let data: Vec<(u32, bool)> = (0..200).map(|i| (i, i >= 150)).collect();
        assert!(cross_validated(&data) > 0.99, "{}", cross_validated(&data));
        let chance = chance_scores(&data, 200, 7);
        assert_eq!(chance.len(), 200);
        assert!(chance.windows(2).all(|w| w[0] <= w[1]), "sorted");
        assert!(*chance.last().unwrap() < 0.75, "{chance:?}");
        assert!(chance[100] > 0.4 && chance[100] < 0.6, "{}", chance[100]);
    }
}
