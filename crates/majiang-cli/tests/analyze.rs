//! `majiang analyze` driven as a user would: the real binary, its text and JSON output.

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

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (code, out, err) = majiang(&all);
    assert_eq!(code, 0, "stderr: {err}");
    serde_json::from_str(&out).expect("JSON output")
}

#[test]
fn ready_hand_lists_waits_and_shanten_zero() {
    let v = json(&["analyze", "123m456p789s1122z"]);
    assert_eq!(v["winning"], false);
    assert_eq!(v["shanten"], 0);
    assert_eq!(v["waits"], serde_json::json!(["1z", "2z"]));
    assert_eq!(v["decompositions"], serde_json::json!([]));
}

#[test]
fn complete_hand_gives_every_decomposition() {
    let v = json(&["analyze", "111222333m45677p"]);
    assert_eq!(v["winning"], true);
    assert_eq!(v["shanten"], -1);
    let d = v["decompositions"].as_array().unwrap();
    assert_eq!(d.len(), 2, "{d:?}");
    for reading in d {
        assert_eq!(reading["form"], "standard");
        let groups = reading["groups"].as_array().unwrap();
        assert_eq!(groups.len(), 5);
    }
}

#[test]
fn wildcards_complete_a_hand() {
    let v = json(&["analyze", "13m456p789s11z5555z", "--wildcard", "5z"]);
    assert_eq!(v["winning"], true);
    let plain = json(&["analyze", "13m456p789s11z5555z"]);
    assert_eq!(plain["winning"], false);
}

#[test]
fn declared_melds_shrink_the_hand() {
    let v = json(&["analyze", "124m11z pung 555z chow 789s pung 999p"]);
    assert_eq!(v["tiles"], 5);
    assert_eq!(v["winning"], false);
    assert_eq!(v["shanten"], 0);
    let v = json(&["analyze", "123m11z pung 555z chow 789s pung 999p"]);
    assert_eq!(v["winning"], true);
    let v = json(&["analyze", "123m1z pung 555z chow 789s pung 999p"]);
    assert_eq!(v["waits"], serde_json::json!(["1z"]));
}

#[test]
fn seven_pairs_and_orphans_can_be_switched_off() {
    let v = json(&["analyze", "1122m3344p5566s7z"]);
    assert_eq!(v["waits"], serde_json::json!(["7z"]));
    let v = json(&["analyze", "1122m3344p5566s7z", "--no-seven-pairs"]);
    assert_eq!(v["waits"], serde_json::json!([]));
    let v = json(&["analyze", "19m19p19s1234567z"]);
    assert_eq!(v["waits"].as_array().unwrap().len(), 13);
}

#[test]
fn text_output_is_for_people() {
    let (code, out, _) = majiang(&["analyze", "123m456p789s1122z"]);
    assert_eq!(code, 0);
    assert!(out.contains("Waits:    1z 2z"), "{out}");
    assert!(out.contains("ready"), "{out}");
}

#[test]
fn bad_input_exits_2_with_a_message() {
    for (hand, needle) in [
        ("12x3m", "unexpected 'x' at 3"),
        ("11111m234p", "four copies of 1m"),
        ("123m", "not a hand"),
        ("123m pung", "needs its tiles"),
        ("1m pung 556z", "not a pung"),
    ] {
        let (code, out, err) = majiang(&["analyze", hand]);
        assert_eq!(code, 2, "{hand}: {out}");
        assert!(err.contains(needle), "{hand}: {err}");
        assert!(out.is_empty());
    }
    let (code, _, err) = majiang(&["analyze", "123m456p789s1122z", "--wildcard", "1f"]);
    assert_eq!(code, 2);
    assert!(err.contains("bonus tile"), "{err}");
}

#[test]
fn score_asks_how_the_winning_tile_came() {
    let (code, out, err) = majiang(&["score", "--rules", "hongkong", "123m456p789s11z55z 5z"]);
    assert_eq!(code, 2, "no silent self-draw: {out}");
    assert!(
        err.contains("--self-drawn") && err.contains("--discard-from"),
        "{err}"
    );
    let (code, _, err) = majiang(&[
        "score",
        "--rules",
        "hongkong",
        "123m456p789s11z55z 5z",
        "--self-drawn",
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn short_and_long_hands_are_not_hands() {
    // Too few tiles is no more a hand than too many: exit 2 with the count, as for a long one.
    for hand in ["11z", "123m11z pung 555z chow 789s", "1123m456p789s11z555z"] {
        let (code, out, err) = majiang(&["analyze", hand]);
        assert_eq!(code, 2, "{hand}: {out}");
        assert!(err.contains("is not a hand"), "{hand}: {err}");
        assert!(out.is_empty(), "{hand}: {out}");
    }
    // The command line page's example with melds (docs/research/command-line.md), complete.
    let v = json(&["analyze", "123m11z pung 555z chow 789s pung 999p"]);
    assert_eq!(v["winning"], true);
}

#[test]
fn waits_leave_out_tiles_all_in_the_melds() {
    // All four 1z are held (one concealed, three in the pung): 1z cannot come.
    let v = json(&["analyze", "123m456p789s1z pung 111z"]);
    assert_eq!(v["waits"], serde_json::json!([]));
    let (code, out, _) = majiang(&["analyze", "123m456p789s1z pung 111z"]);
    assert_eq!(code, 0);
    assert!(out.contains("Waits:    none"), "{out}");
    // One wait left: "1 kind", not "1 kinds".
    let (_, out, _) = majiang(&["analyze", "123m456p789s1z pung 222z"]);
    assert!(out.contains("Waits:    1z (1 kind)"), "{out}");
}

#[test]
fn analyze_and_score_agree_on_what_a_hand_is() {
    // 15 tiles: analyze and score both refuse it as a usage error (exit 2), with the same words.
    let (code, _, analyze_err) = majiang(&["analyze", "1123m456p789s11z555z"]);
    assert_eq!(code, 2);
    let (code, out, score_err) = majiang(&[
        "score",
        "--rules",
        "hongkong",
        "1123m456p789s11z55z 5z",
        "--self-drawn",
    ]);
    assert_eq!(code, 2, "{out}");
    for err in [&analyze_err, &score_err] {
        assert!(
            err.contains("15 concealed tiles with 0 melds is not a hand"),
            "{err}"
        );
    }
    // Too short for score too.
    let (code, _, err) = majiang(&["score", "--rules", "hongkong", "11z 1z", "--self-drawn"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not a hand"), "{err}");
    // A six-player classic hand is 11 tiles: score takes it.
    let (code, out, err) = majiang(&[
        "score",
        "--rules",
        "classic",
        "-o",
        "players=6",
        "111m222p333s4z 4z",
        "--self-drawn",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("total"), "{out}");
}

#[test]
fn readings_are_named_for_people() {
    let (code, out, err) = majiang(&["analyze", "1122m3344p5566s77z"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("seven pairs (七对)"), "{out}");
    assert!(
        !out.contains("SevenPairs") && !out.contains("Standard:"),
        "{out}"
    );
    let (_, out, _) = majiang(&["analyze", "111222333m45677p"]);
    assert!(out.contains("sets and a pair"), "{out}");
}
