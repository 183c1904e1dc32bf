//! `majiang sim --arena A,B[,C…]`: bots compared over duplicate deals with every seat rotated,
//! a paired interval per pair and an Elo-style rating table — the command line's twin of the
//! Python package's `majiang.arena`, with the same scheme.
//!
//! Every deal (one wall, its own seed) is played `2 n` times at an `n`-seat table for each pair
//! A, B: for each chair `r`, once with A alone in chair `r` and B in every other chair, once
//! with B alone in chair `r` and A elsewhere. The deal's score is A's mean chips alone minus
//! B's; the mean over deals and its 95 % interval (1.96 standard errors of the per-deal
//! scores) say which is stronger. Ratings: a Bradley–Terry fit of the per-deal wins (a tie
//! half), 400 points for 10:1 odds, their mean 1500.

use super::{ci95, mix};
use crate::exit::UsageError;
use majiang::bots::{self, Bot};
use majiang::table::{Game, HandSetup, Player, TableRules};
use majiang::tile::Wind;
use rayon::prelude::*;
use serde_json::{Value, json};
use std::sync::Arc;

/// One pair's duel over the deals.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Duel {
    pub(crate) a: usize,
    pub(crate) b: usize,
    /// Per deal: A's mean chips alone in a chair minus B's.
    pub(crate) scores: Vec<f64>,
}

impl Duel {
    fn mean(&self) -> f64 {
        self.scores.iter().sum::<f64>() / self.scores.len().max(1) as f64
    }

    fn ci95(&self) -> f64 {
        let sum: f64 = self.scores.iter().sum();
        let sum_sq: f64 = self.scores.iter().map(|s| s * s).sum();
        ci95(self.scores.len() as u64, sum, sum_sq)
    }

    /// Deals won, lost and tied by A.
    fn record(&self) -> (u64, u64, u64) {
        let won = self.scores.iter().filter(|&&s| s > 0.0).count() as u64;
        let lost = self.scores.iter().filter(|&&s| s < 0.0).count() as u64;
        (won, lost, self.scores.len() as u64 - won - lost)
    }
}

/// The contestants of `--arena`: at least two bot names `majiang::bots::by_name` knows.
pub(crate) fn parse(list: &str) -> Result<Vec<String>, UsageError> {
    let names: Vec<String> = list.split(',').map(|s| s.trim().to_string()).collect();
    if names.len() < 2 {
        return Err(UsageError(format!(
            "--arena: two or more bots, comma-separated (got {list:?})"
        )));
    }
    for name in &names {
        bots::check_name(name).map_err(|e| UsageError(format!("--arena: {e}")))?;
    }
    Ok(names)
}

/// Plays deal `deal_seed` (dealer `dealer`) with `seats[c]` (a bot name) in chair `c`; the
/// chips of chair `alone`. Bots are seeded from the deal and their chair.
fn play(
    rules: &Arc<TableRules>,
    deal_seed: u64,
    dealer: usize,
    seats: &[&str],
    alone: usize,
) -> Result<i64, UsageError> {
    let setup = HandSetup {
        dealer: Player(dealer as u8),
        prevailing_wind: Wind::East,
        lao: 1,
        balances: None,
        hand_number: 1,
        seed: deal_seed,
    };
    let mut game =
        Game::new_unrecorded(rules.clone(), setup).map_err(|e| UsageError(e.to_string()))?;
    let mut players: Vec<Box<dyn Bot>> = seats
        .iter()
        .enumerate()
        .map(|(c, name)| {
            bots::by_name(name, rules, mix(deal_seed ^ mix(1000 + c as u64)))
                .map_err(|e| UsageError(e.to_string()))
        })
        .collect::<Result<_, _>>()?;
    let outcome = bots::play_hand(&mut game, &mut players)?;
    Ok(outcome.payments(seats.len())[alone])
}

/// The score of deal `deal` for A against B (see the module docs).
fn deal_score(
    rules: &Arc<TableRules>,
    seed: u64,
    deal: u64,
    a: &str,
    b: &str,
) -> Result<f64, UsageError> {
    let n = rules.players();
    let deal_seed = mix(seed ^ mix(deal));
    let dealer = (deal % n as u64) as usize;
    let (mut alone_a, mut alone_b) = (0i64, 0i64);
    for r in 0..n {
        let mut seats = vec![b; n];
        seats[r] = a;
        alone_a += play(rules, deal_seed, dealer, &seats, r)?;
        let mut seats = vec![a; n];
        seats[r] = b;
        alone_b += play(rules, deal_seed, dealer, &seats, r)?;
    }
    Ok((alone_a - alone_b) as f64 / n as f64)
}

/// Every pair of `names` over `deals` deals from `seed`, deals played in parallel on `pool`
/// and collected in order (the figures do not depend on the thread count).
pub(crate) fn duels(
    rules: &Arc<TableRules>,
    names: &[String],
    deals: u64,
    seed: u64,
    pool: &rayon::ThreadPool,
) -> Result<Vec<Duel>, UsageError> {
    let mut out = Vec::new();
    for a in 0..names.len() {
        for b in a + 1..names.len() {
            let scores: Result<Vec<f64>, UsageError> = pool.install(|| {
                (0..deals)
                    .into_par_iter()
                    .map(|d| deal_score(rules, seed, d, &names[a], &names[b]))
                    .collect()
            });
            out.push(Duel {
                a,
                b,
                scores: scores?,
            });
        }
    }
    Ok(out)
}

/// Elo-style ratings of `k` contestants from the duels' per-deal records (Bradley–Terry on the
/// 400-point logistic scale, Newton steps; a weak prior of one tie against the mean keeps a
/// contestant that won everything finite), their mean 1500.
pub(crate) fn ratings(k: usize, duels: &[Duel]) -> Vec<f64> {
    let ln10 = std::f64::consts::LN_10;
    let mut r = vec![0.0f64; k];
    for _ in 0..2000 {
        let mut grad = vec![0.0f64; k];
        let mut hess = vec![1e-9f64; k];
        for d in duels {
            let (won, _, tied) = d.record();
            let (score, games) = (won as f64 + 0.5 * tied as f64, d.scores.len() as f64);
            let p = 1.0 / (1.0 + 10f64.powf((r[d.b] - r[d.a]) / 400.0));
            grad[d.a] += score - games * p;
            grad[d.b] -= score - games * p;
            let w = games * p * (1.0 - p) * ln10 / 400.0;
            hess[d.a] += w;
            hess[d.b] += w;
        }
        let mut largest = 0.0f64;
        for i in 0..k {
            let p0 = 1.0 / (1.0 + 10f64.powf(-r[i] / 400.0));
            grad[i] += 0.5 - p0;
            hess[i] += p0 * (1.0 - p0) * ln10 / 400.0;
            let step = (grad[i] / hess[i]).clamp(-100.0, 100.0);
            largest = largest.max(step.abs());
            r[i] += step;
        }
        let mean = r.iter().sum::<f64>() / k as f64;
        r.iter_mut().for_each(|x| *x -= mean);
        if largest < 1e-6 {
            break;
        }
    }
    r.into_iter().map(|x| 1500.0 + x).collect()
}

/// Runs the arena and prints its tables; the JSON report's value.
pub(crate) fn run(
    rules: &Arc<TableRules>,
    names: &[String],
    deals: u64,
    seed: u64,
    pool: &rayon::ThreadPool,
) -> Result<Value, UsageError> {
    if deals == 0 {
        return Err(UsageError(
            "--games: the arena needs at least one deal".into(),
        ));
    }
    let duels = duels(rules, names, deals, seed, pool)?;
    let rated = ratings(names.len(), &duels);
    let n = rules.players();
    println!(
        "arena: {deals} duplicate deals, each played {} times per pair (every chair alone \
         against the other bot)",
        2 * n
    );
    println!(
        "{:<24} {:>22} {:>14}",
        "pair", "A − B chips/hand", "won/lost/tied"
    );
    for d in &duels {
        let (won, lost, tied) = d.record();
        println!(
            "{:<24} {:>+12.2} ± {:<7.2} {:>14}",
            format!("{} vs {}", names[d.a], names[d.b]),
            d.mean(),
            d.ci95(),
            format!("{won}/{lost}/{tied}")
        );
    }
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&i, &j| rated[j].total_cmp(&rated[i]));
    println!("{:>6}  bot", "rating");
    for &i in &order {
        println!("{:>6.0}  {}", rated[i], names[i]);
    }
    Ok(json!({
        "deals": deals,
        "hands_per_deal_and_pair": 2 * n,
        "duels": duels.iter().map(|d| {
            let (won, lost, tied) = d.record();
            json!({"bot": names[d.a], "versus": names[d.b], "difference_per_hand": d.mean(),
                   "difference_ci95": d.ci95(), "won": won, "lost": lost, "tied": tied})
        }).collect::<Vec<_>>(),
        "ratings": order.iter().map(|&i| json!({"bot": names[i], "rating": rated[i]})).collect::<Vec<_>>(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
    }

    fn rules(name: &str) -> Arc<TableRules> {
        Arc::new(TableRules::from_name(name, &serde_json::Map::new()).unwrap())
    }

    #[test]
    fn the_stronger_bot_wins_with_an_interval_and_the_ratings_agree() {
        let names = vec!["normal".to_string(), "random".to_string()];
        let d = duels(&rules("hongkong"), &names, 24, 7, &pool()).unwrap();
        assert_eq!(d.len(), 1);
        assert!(d[0].mean() - d[0].ci95() > 0.0, "{:?}", d[0]);
        let r = ratings(2, &d);
        assert!(r[0] > r[1] + 100.0, "{r:?}");
        assert!((r.iter().sum::<f64>() / 2.0 - 1500.0).abs() < 1e-6);
    }

    #[test]
    fn swapping_the_pair_negates_every_deal() {
        let r = rules("yangzhou");
        let ab = duels(&r, &["easy".into(), "normal".into()], 6, 3, &pool()).unwrap();
        let ba = duels(&r, &["normal".into(), "easy".into()], 6, 3, &pool()).unwrap();
        let negated: Vec<f64> = ba[0].scores.iter().map(|s| -s).collect();
        assert_eq!(ab[0].scores, negated);
    }

    #[test]
    fn elo_matches_three_to_one_odds() {
        // 75 of 100 deals won: about 400·log10(3) ≈ 191 points apart (the prior pulls a little).
        let scores = (0..100).map(|i| if i < 75 { 1.0 } else { -1.0 }).collect();
        let r = ratings(2, &[Duel { a: 0, b: 1, scores }]);
        assert!((175.0..192.0).contains(&(r[0] - r[1])), "{r:?}");
    }

    #[test]
    fn contestants_are_checked() {
        assert!(parse("normal").is_err());
        assert!(
            parse("normal,grandmaster")
                .unwrap_err()
                .0
                .contains("grandmaster")
        );
        assert_eq!(parse("easy, hard:8").unwrap(), vec!["easy", "hard:8"]);
    }
}
