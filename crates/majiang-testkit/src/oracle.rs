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
