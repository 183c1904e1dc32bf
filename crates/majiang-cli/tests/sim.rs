//! `majiang sim` driven as a user would: the real binary, its summary and its JSON report.

use serde_json::Value;
use std::process::Command;

fn majiang(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .args(args)
        .output()
        .expect("run majiang");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("majiang-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs a sim writing JSON and returns (the report text, parsed, stdout).
fn sim_json(args: &[&str], file: &str) -> (String, Value, String) {
    let path = temp(file);
    let p = path.to_str().unwrap();
    let mut all = vec!["sim"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--json", p]);
    let (code, out, err) = majiang(&all);
    assert_eq!(code, 0, "stderr: {err}");
    let text = std::fs::read_to_string(&path).unwrap();
    let v = serde_json::from_str(&text).unwrap();
    (text, v, out)
}

#[test]
fn the_same_seed_gives_the_same_report_whatever_the_thread_count() {
    let base = [
        "--rules",
        "hongkong",
        "--games",
        "60",
        "--bots",
        "efficient,random,efficient,random",
        "--seed",
        "42",
        "--duplicate",
    ];
    let mut one = base.to_vec();
    one.extend_from_slice(&["--threads", "1"]);
    let mut two = base.to_vec();
    two.extend_from_slice(&["--threads", "2"]);
    let (a, v, out) = sim_json(&one, "t1.json");
    let (b, _, _) = sim_json(&two, "t2.json");
    assert_eq!(a, b);
    // 60 deals, each played in 4 rotations.
    assert_eq!(v["hands"], 240);
    assert_eq!(
        v["wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap(),
        240
    );
    let seats = v["per_seat"].as_array().unwrap();
    assert_eq!(seats.len(), 4);
    // Zero-sum: chips over the seats add up to nothing.
    let chips: i64 = seats.iter().map(|s| s["chips"].as_i64().unwrap()).sum();
    assert_eq!(chips, 0);
    // Every bot sat in every chair once per deal.
    assert!(seats.iter().all(|s| s["hands"] == 240));
    let hist: u64 = v["win_totals"]["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["count"].as_u64().unwrap())
        .sum();
    assert_eq!(hist, v["wins"].as_u64().unwrap());
    // Hong Kong wins need 3 fan.
    assert!(
        v["win_totals"]["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["total"].as_i64().unwrap() >= 3)
    );
    assert!(out.contains("all efficient"), "{out}");
    assert!(out.contains("hands/s"), "{out}");
    // The paired comparison: one difference per deal, zero-sum chips make it twice the mean.
    let paired = &v["paired"][0];
    assert_eq!(paired["bot"], "efficient");
    assert_eq!(paired["versus"], "random");
    assert_eq!(paired["deals"], 60);
    let per_bot = v["per_bot"].as_array().unwrap();
    let mean = |name: &str| {
        per_bot.iter().find(|b| b["bot"] == name).unwrap()["chips_per_hand"]
            .as_f64()
            .unwrap()
    };
    let diff = paired["difference_per_hand"].as_f64().unwrap();
    assert!(
        (diff - (mean("efficient") - mean("random"))).abs() < 1e-9,
        "{v}"
    );
    assert!(paired["difference_ci95"].as_f64().unwrap() > 0.0);
    assert!(
        out.contains("paired over 60 deals: efficient − random"),
        "{out}"
    );
}

#[test]
fn a_different_seed_gives_different_hands() {
    let args = |seed: &'static str| {
        vec![
            "--rules",
            "classic",
            "--games",
            "40",
            "--bots",
            "random,efficient,random,efficient",
            "--seed",
            seed,
        ]
    };
    let (a, _, _) = sim_json(&args("1"), "s1.json");
    let (b, _, _) = sim_json(&args("2"), "s2.json");
    assert_ne!(a, b);
}

#[test]
fn efficient_bots_beat_random_ones_in_a_duplicate_run() {
    for rules in ["hangzhou", "yangzhou", "classic"] {
        let (_, v, _) = sim_json(
            &[
                "--rules",
                rules,
                "--games",
                "40",
                "--bots",
                "efficient,random,random,efficient",
                "--duplicate",
                "--lao",
                "3",
            ],
            &format!("beat-{rules}.json"),
        );
        let by: Vec<&Value> = v["per_bot"].as_array().unwrap().iter().collect();
        let get = |name: &str| {
            by.iter()
                .find(|b| b["bot"] == name)
                .map(|b| b["chips_per_hand"].as_f64().unwrap())
                .unwrap()
        };
        assert!(get("efficient") > get("random"), "{rules}: {v}");
    }
}

#[test]
fn three_player_classic_takes_three_bots() {
    let (_, v, _) = sim_json(
        &[
            "--rules",
            "classic",
            "-o",
            "players=3",
            "--games",
            "20",
            "--bots",
            "efficient,random,aggressive",
        ],
        "three.json",
    );
    assert_eq!(v["per_seat"].as_array().unwrap().len(), 3);
    assert_eq!(v["options"]["players"], 3);
}

#[test]
fn bad_bots_exit_2_with_a_message() {
    let (code, _, err) = majiang(&[
        "sim",
        "--rules",
        "hongkong",
        "--games",
        "1",
        "--bots",
        "efficient,clever,random,random",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown bot \"clever\""), "{err}");
    assert!(err.contains("random, efficient"), "{err}");

    let (code, _, err) = majiang(&[
        "sim",
        "--rules",
        "hongkong",
        "--games",
        "1",
        "--bots",
        "efficient,random",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("2 bots given"), "{err}");
    assert!(err.contains("seats 4"), "{err}");

    let (code, _, err) = majiang(&["sim", "--rules", "riichi", "--games", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a rule set"), "{err}");

    let (code, _, err) = majiang(&[
        "sim",
        "--rules",
        "hongkong",
        "--games",
        "1",
        "--threads",
        "0",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--threads"), "{err}");
}

#[test]
fn matches_report_standings_and_ranks_and_do_not_depend_on_threads() {
    let base = [
        "--rules",
        "hangzhou",
        "--matches",
        "3",
        "--bots",
        "normal,random,normal,random",
        "--seed",
        "5",
    ];
    let mut one = base.to_vec();
    one.extend_from_slice(&["--threads", "1"]);
    let mut two = base.to_vec();
    two.extend_from_slice(&["--threads", "2"]);
    let (a, v, out) = sim_json(&one, "m1.json");
    let (b, _, _) = sim_json(&two, "m2.json");
    assert_eq!(a, b);
    assert_eq!(v["matches"], 3);
    assert!(
        out.contains("mean final") && out.contains("per hand"),
        "{out}"
    );
    let per_bot = v["standings_per_bot"].as_array().unwrap();
    assert_eq!(per_bot.len(), 2);
    for s in per_bot {
        // Two chairs each over three matches: six finishes, one rank each.
        assert_eq!(s["matches"], 6, "{s}");
        let ranks: u64 = s["ranks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_u64().unwrap())
            .sum();
        assert_eq!(ranks, 6, "{s}");
    }
    // Every match has hands, and the figures per hand are those of the hands played.
    let hands = v["hands"].as_u64().unwrap();
    assert!(hands >= 3, "{v}");
    let seat_hands: u64 = v["per_seat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["hands"].as_u64().unwrap())
        .sum();
    assert_eq!(seat_hands, 4 * hands);
    // The efficient bots outscore the random ones over whole matches.
    let mean = |name: &str| {
        per_bot
            .iter()
            .find(|s| s["bot"] == name)
            .map(|s| s["mean_final_score"].as_f64().unwrap())
            .unwrap()
    };
    assert!(mean("normal") > mean("random"), "{v}");
}

#[test]
fn matches_refuse_zero() {
    let (code, _, err) = majiang(&[
        "sim",
        "--rules",
        "classic",
        "--matches",
        "0",
        "--bots",
        "easy,normal,hard,random",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("--matches"), "{err}");
}

/// `--hands` caps a match's length: without `--matches` (independent deals) it would mean
/// nothing, and the options of independent deals mean nothing with `--matches`. Each is an error
/// that names the option, not an option silently ignored.
#[test]
fn options_of_the_other_mode_are_refused() {
    for args in [
        &["--hands", "5"][..],
        &["--hand-limit", "5"],
        &["--matches", "2", "--games", "10"],
        &["--matches", "2", "--duplicate"],
        &["--matches", "2", "--lao", "3"],
    ] {
        let mut all = vec![
            "sim",
            "--rules",
            "classic",
            "--bots",
            "random,random,random,random",
        ];
        all.extend_from_slice(args);
        let (code, out, err) = majiang(&all);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains("--matches"), "{args:?}: {err}");
    }
    // Each alone, or with its own mode, still runs.
    let (code, out, err) = majiang(&[
        "sim",
        "--rules",
        "classic",
        "--bots",
        "random,random,random,random",
        "--matches",
        "1",
        "--hands",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
    let (code, _, err) = majiang(&[
        "sim",
        "--rules",
        "classic",
        "--bots",
        "random,random,random,random",
        "--games",
        "4",
        "--lao",
        "2",
        "--duplicate",
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_simulated_match_is_the_selfplay_match_of_its_seed() {
    // Match 2 of a run seeded 11 is `selfplay --seed 13` with --bots rotated by 2; the bots
    // follow the players drawn to the chairs, so the first named does not always deal first.
    let bots = "efficient,random,efficient,easy";
    let (_, v, out) = sim_json(
        &[
            "--rules",
            "hongkong",
            "--matches",
            "1",
            "--seed",
            "13",
            "--bots",
            bots,
            "--hands",
            "20",
        ],
        "one.json",
    );
    assert!(
        out.contains("ends: cut short at the hand limit ×1"),
        "{out}"
    );
    assert!(
        !out.contains("HandLimit") && !out.contains("DealRounds"),
        "{out}"
    );
    // One bot per name appearing once: no "all" row repeating it.
    assert!(
        !out.contains("all random") && !out.contains("all easy"),
        "{out}"
    );
    assert!(out.contains("all efficient"), "{out}");
    let path = temp("m13.jsonl");
    let (code, text, err) = majiang(&[
        "selfplay",
        "--rules",
        "hongkong",
        "--seed",
        "13",
        "--bots",
        bots,
        "--hands",
        "20",
        "--log",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let per_position = v["standings_per_seat"].as_array().unwrap();
    for (k, s) in per_position.iter().enumerate() {
        let points = s["mean_final_score"].as_f64().unwrap() as i64;
        let line = text
            .lines()
            .find(|l| l.contains(&format!("player {k} (chair")))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(
            line.trim_end().ends_with(&format!("{points:+}")),
            "{k}: {line} vs {points}"
        );
    }
    // The seating is shown, and the first named is not the first dealer in every match.
    assert!(text.contains("seats: player 0 in chair"), "{text}");
    let mut first_deals = 0;
    for seed in 0..12 {
        let (_, text, _) = majiang(&[
            "selfplay",
            "--rules",
            "hongkong",
            "--seed",
            &seed.to_string(),
            "--hands",
            "1",
            "--log",
            path.to_str().unwrap(),
        ]);
        if text.contains("player 0 in chair 0 ") {
            first_deals += 1;
        }
    }
    assert!(first_deals < 12, "player 0 sat East in every match");
}

#[test]
fn the_expert_with_a_budget_is_named_expert_colon_n() {
    // expert:N plays in its own seats and is paired against the default expert by that name.
    let (_, report, _) = sim_json(
        &[
            "--rules",
            "hongkong",
            "--games",
            "1",
            "--seed",
            "3",
            "--duplicate",
            "--threads",
            "1",
            "--bots",
            "expert:8,expert,hard:8,expert",
        ],
        "budget.json",
    );
    let paired = &report["paired"];
    let names: Vec<(&str, &str)> = paired
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["bot"].as_str().unwrap(), p["versus"].as_str().unwrap()))
        .collect();
    assert!(names.contains(&("expert:8", "expert")), "{paired}");
    // expert:64 is the default expert, move for move.
    let seats = |bots: &str, file: &str| {
        let (_, r, _) = sim_json(
            &[
                "--rules",
                "classic",
                "--games",
                "2",
                "--seed",
                "5",
                "--threads",
                "1",
                "--bots",
                bots,
            ],
            file,
        );
        r["per_seat"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["chips"].as_i64().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        seats("expert:64,efficient,efficient,efficient", "a.json"),
        seats("expert,efficient,efficient,efficient", "b.json")
    );
    // A bad number is refused with what to write instead.
    for bad in ["expert:0", "expert:abc", "hard:", "expert:99999"] {
        let list = format!("{bad},efficient,efficient,efficient");
        let (code, _, err) = majiang(&[
            "sim", "--rules", "hongkong", "--games", "1", "--bots", &list,
        ]);
        assert_eq!(code, 2, "{bad}");
        assert!(
            err.contains("bad search budget") && err.contains(bad),
            "{err}"
        );
        assert!(err.contains("from 1 to 4096"), "{err}");
    }
    let (code, _, err) = majiang(&[
        "sim",
        "--rules",
        "hongkong",
        "--games",
        "1",
        "--bots",
        "efficient:64",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown bot \"efficient:64\""), "{err}");
    // The help says how to name one.
    for command in ["sim", "selfplay", "play"] {
        let (_, help, _) = majiang(&[command, "--help"]);
        assert!(help.contains("expert:N"), "{command}: {help}");
    }
}

#[test]
fn a_dash_for_the_json_file_is_refused_not_a_file_named_dash() {
    let dir = temp("dash");
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_majiang"))
        .current_dir(&dir)
        .args(["sim", "--rules", "hongkong", "--games", "2", "--json", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--json -") && err.contains("file name"),
        "{err}"
    );
    assert!(!dir.join("-").exists(), "a file named - was made");
}
