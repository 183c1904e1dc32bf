use super::*;
use crate::bots::{Bot, RandomBot};
use crate::driver::play_match;

fn rules(name: &str) -> Arc<TableRules> {
    Arc::new(TableRules::from_name(name, &serde_json::Map::new()).unwrap())
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

/// Plays seeded bots, seeded, as `follow` says for seat 0 and the efficient bot for the others.
fn match_log(name: &str, players: usize, hands: u32, first: Box<dyn Bot>) -> String {
    let mut opts = serde_json::Map::new();
    if players != 4 {
        opts.insert("players".into(), players.into());
    }
    let rules = Arc::new(TableRules::from_name(name, &opts).unwrap());
    let mut bots: Vec<Box<dyn Bot>> = vec![first];
    for i in 1..rules.players() {
        bots.push(crate::bots::by_name("efficient", &rules, i as u64).unwrap());
    }
    let (_, log) = play_match(rules, 5, Some(hands), &mut bots).unwrap();
    log.to_jsonl()
}

#[test]
fn the_experts_choice_is_never_below_another_option_beyond_the_paired_noise() {
    let mut stats = Vec::new();
    for (name, players) in [
        ("hongkong", 4),
        ("hangzhou", 4),
        ("yangzhou", 4),
        ("classic", 4),
        ("classic", 5),
        ("classic", 6),
    ] {
        let rules = rules(name);
        let text = match_log(
            name,
            players,
            2,
            crate::bots::by_name("efficient", &rules, 0).unwrap(),
        );
        let (mut valued, mut real, mut extra_held, mut equal) = (0, 0, 0, 0);
        for seat in 0..players {
            let options = ReviewOptions {
                seat,
                seed: EXPERT_SEED,
                budget: SMALL,
            };
            let r = review(&text, &options, |_| {}).unwrap();
            for d in r.hands.iter().flat_map(|h| &h.decisions) {
                // The hand shown holds every tile the seat has, its extra winds too.
                let tiles = crate::notation::parse_tiles(&d.concealed).unwrap();
                extra_held += usize::from(tiles.iter().any(|t| t.is_bonus()));
                if let Action::Discard(t) = d.played {
                    assert!(tiles.contains(&t), "{name}/{players}: {d:?}");
                }
                let Some(first) = d.alternatives.first() else {
                    continue;
                };
                if first.action != d.expert {
                    continue;
                }
                valued += 1;
                assert_eq!(first.band, Some(Band::Expert));
                for a in &d.alternatives[1..] {
                    // Every alternative measured on the expert's worlds, paired with it.
                    assert_eq!(a.value.worlds, first.value.worlds, "{name}: {d:?}");
                    let v = a.versus.unwrap();
                    assert!((v.mean - (a.value.mean - first.value.mean)).abs() < 1e-9);
                    assert_ne!(a.band, Some(Band::Better), "{name}/{players}: {d:?}");
                    equal += usize::from(a.band == Some(Band::AboutEqual) && v.mean > 0.0);
                }
                real += usize::from(d.alternatives.iter().any(|a| a.value.se > 0.0));
            }
        }
        eprintln!(
            "{name}/{players}: {valued} valued, {real} not all exact, {equal} options above ★ \
             within noise, {extra_held} with extra winds"
        );
        stats.push((name, players, valued, real, extra_held));
    }
    for (name, players, valued, real, extra_held) in stats {
        assert!(valued >= 20, "{name}/{players}: {valued}");
        // Real values where playouts run to the end of the wall (classic): at four and five
        // players at most a third of the decisions where every playout paid exactly nothing;
        // at six, where only pungs win and most playouts of an early decision end with
        // nobody ready, at least a third with values (the other rule sets stop a playout
        // after a few draws: early on nobody wins in it).
        if name == "classic" && players < 6 {
            assert!(
                real * 3 >= valued * 2,
                "{name}/{players}: {real} of {valued}"
            );
        }
        if name == "classic" && players == 6 {
            assert!(real * 3 >= valued, "{name}/{players}: {real} of {valued}");
        }
        if players >= 5 {
            assert!(extra_held > 0, "{name}/{players}");
        }
    }
}

/// Plays what the hint says, every time: the library's [`hint`], which `play --hints` and the
/// server's hints ask.
struct FollowsHints(Arc<TableRules>);

impl Bot for FollowsHints {
    fn name(&self) -> &'static str {
        "follows-hints"
    }

    fn act(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        assert_eq!(
            obs.legal_actions, legal,
            "a hint reads the legal actions it is shown"
        );
        match hint(obs, &self.0) {
            Some(s) => s.action,
            None => legal[0],
        }
    }
}

#[test]
fn a_match_played_by_following_every_hint_is_reviewed_with_no_loss_beyond_noise() {
    for (name, players) in [
        ("hongkong", 4),
        ("hangzhou", 4),
        ("yangzhou", 4),
        ("classic", 4),
        ("classic", 5),
        ("classic", 6),
    ] {
        let mut opts = serde_json::Map::new();
        if players != 4 {
            opts.insert("players".into(), players.into());
        }
        let rules = Arc::new(TableRules::from_name(name, &opts).unwrap());
        let text = match_log(name, players, 2, Box::new(FollowsHints(rules.clone())));
        // The review at its defaults: the seed and budget the hints used.
        let r = review(&text, &ReviewOptions::new(entrant_in(&text, 0)), |_| {}).unwrap();
        let s = r.summary;
        assert!(s.decisions >= 10, "{name}/{players}: {s:?}");
        assert_eq!(
            (s.agreed, s.flagged, s.compared),
            (s.decisions, 0, 0),
            "{name}/{players}"
        );
        assert!(r.costliest().is_empty());
        // And the ★ is never below another option beyond the paired noise.
        for d in r.hands.iter().flat_map(|h| &h.decisions) {
            for a in &d.alternatives {
                assert_ne!(a.band, Some(Band::Better), "{name}/{players}: {d:?}");
            }
        }
    }
}

#[test]
fn a_byte_order_mark_is_read_past_and_a_line_cut_short_is_left_out() {
    let rules = rules("hongkong");
    let text = match_log(
        "hongkong",
        4,
        2,
        crate::bots::by_name("efficient", &rules, 0).unwrap(),
    );
    let mut options = ReviewOptions::new(0);
    options.budget = Budget {
        rollouts: 2,
        close_rounds: 0,
        ..SMALL
    };
    let whole = review(&text, &options, |_| {}).unwrap();
    assert_eq!(whole.cut_at, None);
    let marked = review(&format!("\u{feff}{text}"), &options, |_| {}).unwrap();
    assert_eq!(marked, whole);
    // Cut in the middle of a line of the second hand: the first hand is reviewed whole.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains("\"kind\":\"action\",\"hand\":2"))
        .nth(5)
        .expect("a second hand")
        .0;
    let mut cut = lines[..at].join("\n");
    cut.push('\n');
    cut.push_str(&lines[at][..lines[at].len() / 2]);
    let r = review(&cut, &options, |_| {}).unwrap();
    assert_eq!(r.cut_at, Some(at + 1));
    assert!(!r.complete);
    assert_eq!(r.hands[0], whole.hands[0]);
    assert_eq!(r.hands.len(), 2);
    assert_eq!(r.hands[1].result, None);
}
