//! Hong Kong match logs recorded under rules revision 2, which must keep replaying identically
//! (every Hong Kong log of `recorded_logs` was recorded under revision 1 and meets the last
//! discard). Two of them:
//!
//! - `hongkong-r2-efficient.jsonl`: the revision-1 log's match (seed 7, 12 hands, the
//!   `efficient` bot in every seat) recorded again with `majiang selfplay --rules hongkong
//!   --seed 7 --hands 12 --log hongkong-r2-efficient.jsonl`;
//! - `hongkong-r2-passing.jsonl`: every seat plays `efficient` but passes every win offered on
//!   a discard or a robbed kong (the test kit's [`scenario::play_passing`]), so the match meets
//!   both rules of revision 2 — a seat that passed a win is later not offered the same kind, and
//!   the last discard is offered to a seat only as a win. Recorded by
//!   `record_the_revision_2_logs` below (ignored; run it by name to record again).

use majiang::table::{Action, ActionError, IllegalReason, Player, Session, TableRules, replay};
use majiang_testkit::scenario;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// Each revision-2 log: (file, hands, actions, records).
const RECORDED: &[(&str, usize, usize, usize)] = &[
    ("hongkong-r2-efficient.jsonl", 12, 1020, 3046),
    ("hongkong-r2-passing.jsonl", 8, 713, 1994),
];

/// The passing match: Hong Kong without flowers and with no minimum (wins are offered often),
/// eight hands, the first seed whose match meets both rules.
const PASSING_HANDS: u32 = 8;

fn passing_rules() -> Arc<TableRules> {
    let options: Map<String, Value> = json!({"flowers": false, "min_fan": 0})
        .as_object()
        .unwrap()
        .clone();
    Arc::new(TableRules::from_name("hongkong", &options).unwrap())
}

fn path(file: &str) -> String {
    format!("{}/tests/data/logs/{file}", env!("CARGO_MANIFEST_DIR"))
}

fn read(file: &str) -> String {
    std::fs::read_to_string(path(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn revision_2_hong_kong_logs_replay_identically() {
    for &(file, hands, actions, records) in RECORDED {
        let text = read(file);
        let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(header["rules"], "hongkong", "{file}");
        assert_eq!(header["rules_revision"], 2, "{file}");
        let report = replay(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(report.complete, "{file}");
        assert_eq!(
            (report.hands.len(), report.actions, report.records),
            (hands, actions, records),
            "{file}"
        );
    }
}

/// What the passing log's match met, followed action by action on a session of its header.
#[derive(Default, Debug)]
struct Met {
    /// A seat was not offered a win only because it had passed one on that kind.
    missed_win: usize,
    /// The last discard was on offer while another seat held a pair of its kind (a pung
    /// revision 1 would have offered), refused.
    last_discard_pung: usize,
    /// The last discard was offered as a win.
    last_discard_win: usize,
}

impl Met {
    /// Both rules met: a barred win, and the last discard offered as a win. (A pair of the
    /// last discard held by another seat, refused its pung, is checked where it happens: rarer.)
    fn all(&self) -> bool {
        self.missed_win > 0 && self.last_discard_win > 0
    }
}

/// What the match of a passing log met, its actions followed one by one on a session of its
/// header's seed.
fn met(text: &str) -> Met {
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let seed = header["seed"].as_u64().unwrap();
    let (mut session, _) = Session::new(passing_rules(), seed, Some(PASSING_HANDS)).unwrap();
    let mut met = Met::default();
    let actions = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["kind"] == "action");
    for v in actions {
        if session.awaiting_deal() {
            session.deal_next().unwrap();
        }
        let g = session.game();
        if let Some((from, tile)) = g.on_offer() {
            for p in (0..4).map(Player) {
                let why = match g.check(p, Action::Win) {
                    Err(ActionError::Illegal { reason, .. }) => Some(reason),
                    _ => None,
                };
                if why == Some(IllegalReason::MissedWin) {
                    met.missed_win += 1;
                }
                if g.live_remaining() == 0 && p != from {
                    if g.legal_actions(p).contains(&Action::Win) {
                        met.last_discard_win += 1;
                    }
                    if g.concealed(p).get(tile) >= 2 {
                        let pung = g.check(p, Action::Pung);
                        assert!(
                            matches!(
                                pung,
                                Err(ActionError::Illegal {
                                    reason: IllegalReason::LastDiscard,
                                    ..
                                })
                            ),
                            "{pung:?}"
                        );
                        met.last_discard_pung += 1;
                    }
                }
            }
        }
        let player: Player = serde_json::from_value(v["player"].clone()).unwrap();
        let action: Action = serde_json::from_value(v["action"].clone()).unwrap();
        session.act(player, action).unwrap();
    }
    assert!(session.is_over());
    met
}

#[test]
fn the_passing_log_meets_the_missed_win_and_the_last_discard() {
    let met = met(&read("hongkong-r2-passing.jsonl"));
    assert!(met.all(), "{met:?}");
}

/// Records `hongkong-r2-passing.jsonl` again (the efficient log is recorded by `majiang
/// selfplay`, see the module's docs): `cargo test -p majiang --test integration
/// record_the_revision_2_logs -- --ignored`.
#[test]
#[ignore = "records a log: run by name"]
fn record_the_revision_2_logs() {
    for seed in 0..100 {
        // Seed 13 is the first.
        let session = scenario::play_passing(&passing_rules(), seed, Some(PASSING_HANDS), |_| None)
            .unwrap_or_else(|_| unreachable!("nothing to find"));
        let text = session.log().to_jsonl();
        if met(&text).all() {
            std::fs::write(path("hongkong-r2-passing.jsonl"), text).unwrap();
            return;
        }
    }
    panic!("no seed below 100 meets both rules");
}
