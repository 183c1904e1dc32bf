use super::*;
use crate::bots::{Bot, RandomBot};
use crate::driver::play_match;

fn rules(name: &str) -> Arc<Ruleset> {
    Arc::new(Ruleset::from_name(name, &serde_json::Map::new()).unwrap())
}

/// A small budget: the debug build's tests stay quick, the search is the same.
const SMALL: Budget = Budget {
    rollouts: 10,
    candidates: 4,
    horizon: 8,
    close_rounds: 2,
};

/// The entrant sitting in `chair`.
fn entrant_in(log: &str, chair: u8) -> usize {
    let report = replay(log).unwrap();
    report
        .chairs
        .iter()
        .position(|&c| c == Player(chair))
        .unwrap()
}

#[test]
fn the_reviews_choice_is_the_expert_bots_own_decision_at_the_same_seed_and_budget() {
    let seed = 11;
    let mut checked = 0;
    for name in ["hongkong", "hangzhou", "yangzhou", "classic"] {
        let rules = rules(name);
        let mut players: Vec<Box<dyn Bot>> = (0..rules.players())
            .map(|_| {
                Box::new(ExpertBot::new(rules.clone(), seed).with_budget(SMALL)) as Box<dyn Bot>
            })
            .collect();
        let (_, log) = play_match(rules.clone(), 5, Some(1), &mut players).unwrap();
        let text = log.to_jsonl();
        for seat in [0, 2] {
            let options = ReviewOptions {
                seat,
                seed,
                budget: SMALL,
            };
            let r = review(&text, &options, |_| {}).unwrap();
            for d in r.hands.iter().flat_map(|h| &h.decisions) {
                // The log holds what the expert bot played: the review must choose it too.
                assert_eq!(d.expert, d.played, "{name} seat {seat}: {d:?}");
                assert!(d.agreed && d.lost.is_none() && !d.flagged);
                checked += 1;
            }
            assert_eq!(r.summary.agreement(), 1.0);
        }
    }
    assert!(checked >= 60, "only {checked} decisions checked");
}

#[test]
fn a_random_player_loses_value_the_review_can_see_and_flags_it() {
    let rules = rules("hongkong");
    let mut players: Vec<Box<dyn Bot>> = vec![Box::new(RandomBot::new(3))];
    for i in 1..4 {
        players.push(crate::bots::by_name("efficient", &rules, i).unwrap());
    }
    let (_, log) = play_match(rules.clone(), 21, Some(2), &mut players).unwrap();
    let text = log.to_jsonl();
    // Enough worlds for a random discard's cost to show beyond the playouts' noise.
    let options = ReviewOptions {
        seat: entrant_in(&text, 0),
        seed: 4,
        budget: Budget {
            rollouts: 48,
            ..SMALL
        },
    };
    let mut last = None;
    let r = review(&text, &options, |p| last = Some(p)).unwrap();
    let last = last.unwrap();
    assert_eq!(last.actions_done, last.actions_total);
    assert_eq!(r.chair, Player(0));
    assert_eq!((r.unit.as_str(), r.score_unit.as_str()), ("chips", "fan"));
    let s = r.summary;
    assert!(s.decisions >= 10, "{s:?}");
    assert!(s.agreement() < 0.8, "a random player agreed {s:?}");
    assert!(s.compared >= 10, "{s:?}");
    assert!((r.lost_per_hand * r.hands.len() as f64 - s.lost).abs() < 1e-9);
    let hand_sum: u32 = r.hands.iter().map(|h| h.summary.decisions).sum();
    assert_eq!(hand_sum, s.decisions);
    for d in r.costliest() {
        let lost = d.lost.unwrap();
        assert!(lost.mean > FLAG_BY * lost.se, "{d:?}");
        assert!(!d.reason.as_deref().unwrap_or("").is_empty());
        assert!(d.alternatives.iter().any(|a| a.action == d.played));
        assert_eq!(d.alternatives[0].action, d.expert);
    }
    // A discard searched by the expert values every legal discard, in the same worlds.
    let discards = r
        .hands
        .iter()
        .flat_map(|h| &h.decisions)
        .filter(|d| d.kind == DecisionKind::Discard && !d.alternatives.is_empty());
    let mut seen = 0;
    for d in discards {
        let kinds = crate::counts::TileCounts::parse(&d.concealed)
            .unwrap()
            .iter()
            .count();
        assert_eq!(d.alternatives.len(), kinds, "{d:?}");
        let worlds = d.alternatives[0].value.worlds;
        assert!(d.alternatives.iter().all(|a| a.value.worlds <= worlds));
        seen += 1;
    }
    assert!(seen >= 5);
    // The same log, seat, seed and budget: the same review.
    assert_eq!(review(&text, &options, |_| {}).unwrap(), r);
}

/// The efficient bot, except that it never takes a win.
struct NeverWins(crate::bots::EfficientBot);

impl Bot for NeverWins {
    fn name(&self) -> &'static str {
        "never-wins"
    }

    fn act(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        if !legal.contains(&Action::Win) {
            return self.0.act(obs, legal);
        }
        let drawn = obs.drawn.map(Action::Discard);
        legal
            .iter()
            .copied()
            .find(|&a| a == Action::Pass || Some(a) == drawn)
            .or_else(|| legal.iter().copied().find(|a| *a != Action::Win))
            .unwrap_or(Action::Win)
    }
}

#[test]
fn a_declined_win_is_flagged_with_its_cost() {
    let rules = rules("hongkong");
    // The first match seed in which a win comes to the seat that never takes one.
    let found = (1..40).find_map(|seed| {
        let mut players: Vec<Box<dyn Bot>> = vec![Box::new(NeverWins(
            crate::bots::EfficientBot::new(rules.clone(), 8),
        ))];
        for i in 1..4 {
            players.push(crate::bots::by_name("efficient", &rules, i).unwrap());
        }
        let (_, log) = play_match(rules.clone(), seed, Some(3), &mut players).unwrap();
        let text = log.to_jsonl();
        let options = ReviewOptions {
            seat: entrant_in(&text, 0),
            seed: 1,
            budget: SMALL,
        };
        let r = review(&text, &options, |_| {}).unwrap();
        let offered = r
            .hands
            .iter()
            .flat_map(|h| &h.decisions)
            .any(|d| d.kind == DecisionKind::Win);
        offered.then_some(r)
    });
    let r = found.expect("a win offered in one of 39 matches");
    let declined: Vec<&Decision> = r
        .hands
        .iter()
        .flat_map(|h| &h.decisions)
        .filter(|d| d.kind == DecisionKind::Win)
        .collect();
    for d in &declined {
        assert_eq!(d.expert, Action::Win, "{d:?}");
        assert_ne!(d.played, Action::Win);
        let win = d
            .alternatives
            .iter()
            .find(|a| a.action == Action::Win)
            .unwrap();
        // A win is worth what it pays (the losers' hands do not change it in Hong Kong).
        assert!(win.value.mean >= 3.0 && win.value.se == 0.0, "{win:?}");
        let lost = d.lost.unwrap();
        assert!(d.flagged && lost.mean > FLAG_BY * lost.se, "{d:?}");
        assert!(d.reason.is_some());
    }
    assert!(r.summary.flagged as usize >= declined.len());
    assert!(r.summary.lost > 0.0);
    assert_eq!(r.costliest()[0].kind, DecisionKind::Win);
}

#[test]
fn a_bad_seat_or_a_bad_log_is_an_error_not_a_panic() {
    let rules = rules("classic");
    let mut players: Vec<Box<dyn Bot>> = (0..4)
        .map(|i| crate::bots::by_name("random", &rules, i).unwrap())
        .collect();
    let (_, log) = play_match(rules, 2, Some(1), &mut players).unwrap();
    let err = review(&log.to_jsonl(), &ReviewOptions::new(4), |_| {}).unwrap_err();
    assert_eq!(
        err.to_string(),
        "there is no seat 4: the match had 4 players (seats 0 to 3)"
    );
    let err = review("hello\n", &ReviewOptions::new(0), |_| {}).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("the log does not replay: line 1"),
        "{err}"
    );
}

#[test]
fn a_hint_suggests_the_experts_choice_with_its_reason() {
    let rules = rules("hongkong");
    let (game, _) =
        crate::table::Game::new(rules.clone(), crate::table::HandSetup::new(9)).unwrap();
    let p = game.dealer();
    let obs = game.observation(p);
    let legal = game.legal_actions(p);
    let s = suggest(&obs, &legal, &rules, 1, SMALL).unwrap();
    let expert = ExpertBot::new(rules.clone(), 1).with_budget(SMALL);
    assert_eq!(s.action, expert.evaluate(&obs, &legal, Scope::Play).choice);
    assert!(legal.contains(&s.action));
    assert!(s.text.starts_with(&s.action.to_string()), "{}", s.text);
    assert!(
        s.text.contains("from ready") || s.text.contains("ready on"),
        "{}",
        s.text
    );
    assert!(s.facts.shanten.is_some());
    // Nothing to decide: no hint.
    assert!(suggest(&obs, &legal[..1], &rules, 1, SMALL).is_none());
}
