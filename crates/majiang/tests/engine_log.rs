//! Match logs: seeded matches for every rule set are written as JSON lines and replayed
//! identically; tampered, truncated and unreadable logs are refused with the line named.

use majiang::bots::{self, Bot};
use majiang::driver::play_match;
use majiang::table::TableRules;
use majiang::table::log::{LOG_FORMAT, LogRecord, MatchLog, RULES_REVISION};
use majiang::table::matches::Match;
use majiang::table::{ReplayError, replay};
use majiang_testkit::engine::ruleset;
use serde_json::{Value, json};

/// A match of bots named `bot`, with its log.
fn played_by(bot: &str, name: &str, options: Value, seed: u64) -> (Match, MatchLog) {
    let r = ruleset(name, options);
    let mut players: Vec<Box<dyn Bot>> = (0..r.players() as u64)
        .map(|i| bots::by_name(bot, &r, seed.wrapping_add(i)).unwrap())
        .collect();
    play_match(r, seed, None, &mut players).unwrap()
}

fn played(name: &str, options: Value, seed: u64) -> (Match, String) {
    let (m, log) = played_by("efficient", name, options, seed);
    (m, log.to_jsonl())
}

fn classic_log() -> String {
    played("classic", json!({}), 11).1
}

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

fn join(lines: &[String]) -> String {
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// The index (from 0) of the first line of this record kind matching `pred`.
fn find(lines: &[String], kind: &str, pred: impl Fn(&Value) -> bool) -> usize {
    lines
        .iter()
        .position(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["kind"] == kind && pred(&v)
        })
        .unwrap()
}

#[test]
fn every_rule_set_replays_identically() {
    let cases = [
        ("hongkong", json!({})),
        ("hongkong", json!({"flowers": false, "min_fan": 1})),
        ("hangzhou", json!({})),
        (
            "hangzhou",
            json!({"wildcard": "indicator", "end": "points:6", "cap": 8}),
        ),
        ("yangzhou", json!({})),
        ("yangzhou", json!({"chow": true, "min_fan": 3})),
        ("classic", json!({})),
        ("classic", json!({"players": 3, "flowers": true})),
    ];
    for (i, (name, options)) in cases.into_iter().enumerate() {
        let (m, text) = played(name, options.clone(), 100 + i as u64);
        let report = replay(&text).unwrap_or_else(|e| panic!("{name} {options}: {e}"));
        assert_eq!(report.hands, m.settlements());
        assert_eq!(report.summary.ledger, m.ledger());
        assert_eq!(report.summary.standings, m.standings());
        assert_eq!(report.summary.hands, m.hands_played());
        assert_eq!(report.chairs, m.chairs());
        assert_eq!(report.records, text.lines().count());
        assert_eq!(report.header.rules, name);
        assert_eq!(report.header.seed, 100 + i as u64);
        // The options written are every option, and they rebuild the same rule set.
        let rebuilt = TableRules::from_name(name, &report.header.options).unwrap();
        assert_eq!(&rebuilt, m.ruleset().as_ref());
        for (k, v) in options.as_object().unwrap() {
            assert_eq!(&report.header.options[k], v, "{name}: option {k}");
        }
        // Parsing and writing again gives the same text.
        assert_eq!(MatchLog::parse(&text).unwrap().to_jsonl(), text);
        // Every action line was re-applied.
        let actions = text
            .lines()
            .filter(|l| l.contains(r#""kind":"action""#))
            .count();
        assert_eq!(report.actions, actions);
        assert!(actions > 0);
    }
}

#[test]
fn the_log_reads_as_documented() {
    let text = classic_log();
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(
        first,
        json!({"kind": "header", "format": LOG_FORMAT, "rules": "classic",
               "options": {"flowers": false, "players": 4}, "seed": 11, "players": 4,
               "rules_revision": RULES_REVISION})
    );
    let log = MatchLog::parse(&text).unwrap();
    let kinds: Vec<&str> = log
        .records
        .iter()
        .map(|r| match r {
            LogRecord::Header(_) => "header",
            LogRecord::Event { hand: None, .. } => "seat",
            LogRecord::Event { .. } => "event",
            LogRecord::Hand { .. } => "hand",
            LogRecord::Action { .. } => "action",
            LogRecord::Settlement(_) => "settlement",
            LogRecord::End(_) => "end",
        })
        .collect();
    assert_eq!(kinds[0], "header");
    assert_eq!(kinds[1], "seat");
    assert_eq!(kinds.last(), Some(&"end"));
    assert_eq!(kinds.iter().filter(|k| **k == "hand").count(), 4);
    assert_eq!(kinds.iter().filter(|k| **k == "settlement").count(), 4);
    // Seat choice, then hand after hand: each hand record follows a seat event or a settlement.
    for (i, k) in kinds.iter().enumerate() {
        if *k == "hand" {
            assert!(matches!(kinds[i - 1], "seat" | "settlement"));
        }
    }
    // An action line names hand, player and action.
    let line = text
        .lines()
        .find(|l| l.contains(r#""kind":"action""#))
        .unwrap();
    let v: Value = serde_json::from_str(line).unwrap();
    assert_eq!(v["hand"], 1);
    assert!(v["player"].is_u64());
    assert!(v["action"].is_object() || v["action"].is_string());
}

#[test]
fn an_action_by_the_wrong_player_is_refused_at_its_line() {
    let mut l = lines(&classic_log());
    let i = find(&l, "action", |v| v["hand"] == 2);
    let mut v: Value = serde_json::from_str(&l[i]).unwrap();
    let p = v["player"].as_u64().unwrap();
    v["player"] = json!((p + 1) % 4);
    l[i] = v.to_string();
    let err = replay(&join(&l)).unwrap_err();
    assert!(matches!(err, ReplayError::Refused { .. }), "{err}");
    assert_eq!(err.line(), i + 1);
    assert!(!err.is_unreadable());
    assert!(
        err.to_string().starts_with(&format!("line {}: ", i + 1)),
        "{err}"
    );
}

#[test]
fn a_different_legal_action_diverges_within_its_hand() {
    // Replace the first discard of hand 1 with another tile of the same hand: the discard is
    // legal (the dealer holds 14 tiles, so another kind is there), but the events that follow
    // differ.
    let text = classic_log();
    let mut l = lines(&text);
    let i = find(&l, "action", |v| v["action"].get("discard").is_some());
    let v: Value = serde_json::from_str(&l[i]).unwrap();
    let discarded = v["action"]["discard"].as_str().unwrap().to_string();
    // The dealer's hand is the dealt tiles: take another kind from the deal events.
    let dealer = v["player"].as_u64().unwrap();
    let other = l[..i]
        .iter()
        .filter_map(|x| serde_json::from_str::<Value>(x).ok())
        .filter(|x| x["event"]["type"] == "tiles_dealt" && x["event"]["player"] == dealer)
        .flat_map(|x| {
            x["event"]["tiles"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect::<Vec<_>>()
        })
        .find(|t| *t != discarded && !t.ends_with('f'))
        .unwrap();
    let mut w = v.clone();
    w["action"]["discard"] = json!(other);
    l[i] = w.to_string();
    let err = replay(&join(&l)).unwrap_err();
    assert!(matches!(err, ReplayError::Diverged { .. }), "{err}");
    assert_eq!(err.line(), i + 2, "the discard event right after: {err}");
    assert!(err.to_string().contains(&discarded), "{err}");
}

#[test]
fn a_tampered_event_or_settlement_is_named() {
    let text = classic_log();
    // A drawn tile changed.
    let mut l = lines(&text);
    let i = find(&l, "event", |v| v["event"]["type"] == "drew");
    let mut v: Value = serde_json::from_str(&l[i]).unwrap();
    let t = v["event"]["tile"].as_str().unwrap().to_string();
    v["event"]["tile"] = json!(if t == "1m" { "2m" } else { "1m" });
    l[i] = v.to_string();
    let err = replay(&join(&l)).unwrap_err();
    assert!(matches!(err, ReplayError::Diverged { .. }), "{err}");
    assert_eq!(err.line(), i + 1);

    // A settlement's ledger changed.
    let mut l = lines(&text);
    let i = find(&l, "settlement", |_| true);
    let mut v: Value = serde_json::from_str(&l[i]).unwrap();
    v["ledger"][0] = json!(v["ledger"][0].as_i64().unwrap() + 1);
    l[i] = v.to_string();
    let err = replay(&join(&l)).unwrap_err();
    assert_eq!(err.line(), i + 1, "{err}");

    // The final standings changed.
    let mut l = lines(&text);
    let last = l.len() - 1;
    let mut v: Value = serde_json::from_str(&l[last]).unwrap();
    v["ledger"][1] = json!(v["ledger"][1].as_i64().unwrap() - 5);
    l[last] = v.to_string();
    let err = replay(&join(&l)).unwrap_err();
    assert_eq!(err.line(), last + 1, "{err}");

    // Another seed in the header: the seat choice differs (line 2) or, if it happens to be the
    // same, a later line does.
    let mut l = lines(&text);
    let mut v: Value = serde_json::from_str(&l[0]).unwrap();
    v["seed"] = json!(12);
    l[0] = v.to_string();
    let err = replay(&join(&l)).unwrap_err();
    assert!(matches!(err, ReplayError::Diverged { .. }), "{err}");
    assert!(err.line() >= 2);
}

#[test]
fn missing_and_extra_lines() {
    let text = classic_log();
    let l = lines(&text);
    // A dropped action: the line where it stood now holds an event.
    let i = find(&l, "action", |v| v["hand"] == 3);
    let mut dropped = l.clone();
    dropped.remove(i);
    let err = replay(&join(&dropped)).unwrap_err();
    assert!(matches!(err, ReplayError::Diverged { .. }), "{err}");
    assert_eq!(err.line(), i + 1);
    assert!(err.to_string().contains("an action of hand 3"), "{err}");

    // Truncated in the middle of a hand: the finished hands replay, and the report says where
    // the log stops.
    let cut = join(&l[..i]);
    let report = replay(&cut).unwrap();
    assert!(!report.complete);
    assert_eq!(report.stops_in, Some(3));
    assert_eq!(report.hands.len(), 2);
    assert_eq!(report.records, i);
    assert_eq!(report.summary.reason, None);
    let full = replay(&text).unwrap();
    assert!(full.complete);
    assert_eq!(full.stops_in, None);
    assert_eq!(report.hands[..], full.hands[..2]);
    // Cut between two hands: it stops in the next one.
    let s = find(&l, "settlement", |v| v["hand_number"] == 2);
    let report = replay(&join(&l[..=s])).unwrap();
    assert_eq!((report.complete, report.stops_in), (false, Some(3)));
    assert_eq!(report.hands.len(), 2);
    // Cut before the end line: incomplete too.
    let report = replay(&join(&l[..l.len() - 1])).unwrap();
    assert!(!report.complete);
    assert_eq!(report.hands.len(), 4);

    // A line after the end.
    let mut extra = l.clone();
    extra.push(l[l.len() - 2].clone());
    let err = replay(&join(&extra)).unwrap_err();
    assert_eq!(err, ReplayError::Trailing { line: l.len() + 1 });

    // Blank lines are fine (and counted).
    let mut blank = l.clone();
    blank.insert(3, String::new());
    assert!(replay(&join(&blank)).is_ok());
    blank[5] = "{oops".into();
    let err = replay(&join(&blank)).unwrap_err();
    assert!(
        matches!(err, ReplayError::Unreadable { line: 6, .. }),
        "{err}"
    );
}

#[test]
fn unreadable_input_is_told_apart() {
    for (text, line) in [
        ("", 1),
        ("not json\n", 1),
        (
            "{\"kind\":\"event\",\"event\":{\"type\":\"exhaustive_draw\"}}\n",
            1,
        ),
        (
            "{\"kind\":\"header\",\"format\":1,\"rules\":\"riichi\",\"options\":{},\"seed\":1,\"players\":4}\n",
            1,
        ),
        (
            "{\"kind\":\"header\",\"format\":1,\"rules\":\"hongkong\",\"options\":{\"min_fan\":\"x\"},\"seed\":1,\"players\":4}\n",
            1,
        ),
        (
            "{\"kind\":\"header\",\"format\":99,\"rules\":\"hongkong\",\"options\":{},\"seed\":1,\"players\":4}\n",
            1,
        ),
        (
            "{\"kind\":\"header\",\"format\":1,\"rules\":\"hongkong\",\"options\":{},\"seed\":1,\"players\":3}\n",
            1,
        ),
    ] {
        let err = replay(text).unwrap_err();
        assert!(err.is_unreadable(), "{text}: {err}");
        assert_eq!(err.line(), line, "{text}: {err}");
    }
    // A header alone is a log that stops before the first hand, not an unreadable one.
    let header = classic_log().lines().next().unwrap().to_string();
    let report = replay(&header).unwrap();
    assert_eq!((report.complete, report.stops_in), (false, Some(1)));
    assert!(report.hands.is_empty());
}

#[test]
fn random_play_logs_replay_too() {
    for (name, seed) in [("hangzhou", 3u64), ("yangzhou", 4), ("classic", 5)] {
        let (_, log) = played_by("random", name, json!({}), seed);
        assert!(replay(&log.to_jsonl()).unwrap().complete);
    }
}

#[test]
fn settlement_and_end_records_read_as_documented() {
    let text = classic_log();
    let keys = |v: &Value| -> Vec<String> {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let line = text
        .lines()
        .find(|l| l.contains(r#""kind":"settlement""#))
        .unwrap();
    let v: Value = serde_json::from_str(line).unwrap();
    assert_eq!(
        keys(&v),
        [
            "deal",
            "ended",
            "hand_number",
            "kind",
            "ledger",
            "next",
            "outcome",
            "payments",
            "uncollected"
        ]
    );
    assert_eq!(keys(&v["deal"]), ["dealer", "lao", "prevailing_wind"]);
    assert_eq!(v["deal"]["prevailing_wind"], "east");
    assert!(matches!(
        v["outcome"]["type"].as_str(),
        Some("win" | "exhaustive_draw")
    ));
    assert_eq!(v["hand_number"], 1);
    let end: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(
        keys(&end),
        [
            "hands",
            "kind",
            "ledger",
            "reason",
            "standings",
            "uncollected"
        ]
    );
    assert_eq!(end["kind"], "end");
    assert_eq!(end["reason"], "deal_rounds");
    assert_eq!(end["hands"], 4);
    assert_eq!(
        keys(&end["standings"][0]),
        ["entrant", "player", "points", "rank"]
    );
}

#[test]
fn a_players_view_of_the_log_hides_the_others_tiles() {
    use majiang::table::{Action, Event, Player};
    for (name, options) in [("hongkong", json!({})), ("hangzhou", json!({}))] {
        let (_, log) = played_by("efficient", name, options, 3);
        for v in 0..4u8 {
            let viewer = Player(v);
            let seen = log.seen_by(viewer);
            let (mut own_tiles, mut hidden) = (0, 0);
            for r in &seen.records {
                match r {
                    LogRecord::Event {
                        hand: Some(_),
                        event,
                    } => match event {
                        Event::TilesDealt { player, tiles, .. } => {
                            assert_eq!(tiles.is_some(), *player == viewer, "{event:?}");
                            if *player == viewer {
                                own_tiles += 1;
                            } else {
                                hidden += 1;
                            }
                        }
                        Event::Drew { player, tile } | Event::ReplacementDrawn { player, tile } => {
                            assert_eq!(tile.is_some(), *player == viewer, "{event:?}");
                        }
                        _ => {}
                    },
                    LogRecord::Action {
                        player,
                        action: Action::Pass,
                        ..
                    } => assert_eq!(*player, viewer),
                    _ => {}
                }
            }
            assert!(own_tiles > 0 && hidden > 0);
            // Only hidden things changed: the same number of records, less the others' passes.
            let passes = log
                .records
                .iter()
                .filter(|r| {
                    matches!(r, LogRecord::Action { player, action: Action::Pass, .. }
                        if *player != viewer)
                })
                .count();
            assert_eq!(seen.records.len() + passes, log.records.len());
        }
    }
}
