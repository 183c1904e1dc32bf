//! The bot protocol: every example in docs/bot-protocol.md is a message the library reads,
//! its decide examples offer legal actions consistently, and bots hear of every hand's end and
//! the match's end through the seat driver.

use majiang::bots::protocol::{FromBot, ToBot};
use majiang::bots::{self, Bot};
use majiang::table::matches::Standing;
use majiang::table::{Action, HandOutcome, Observation, TableRules};
use std::sync::{Arc, Mutex};

/// The fenced blocks of the protocol document whose info string is `json KIND`.
fn examples(kind: &str) -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/bot-protocol.md");
    let doc = std::fs::read_to_string(path).expect("docs/bot-protocol.md");
    let fence = format!("```json {kind}");
    let mut out = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if line.trim() == fence {
            let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
            out.push(block.join("\n"));
        }
    }
    out
}

#[test]
fn every_message_to_the_bot_in_the_document_parses() {
    let blocks = examples("to-bot");
    let mut kinds = Vec::new();
    for block in &blocks {
        let msg: ToBot = serde_json::from_str(block).unwrap_or_else(|e| panic!("{e}:\n{block}"));
        // On the wire each message is one line: the compact form reads back the same.
        let line = serde_json::to_string(&msg).unwrap();
        assert!(!line.contains('\n'));
        assert_eq!(serde_json::from_str::<ToBot>(&line).unwrap(), msg);
        if let ToBot::Decide(d) = &msg {
            let listed: Vec<Action> = d.actions.iter().map(|a| a.action).collect();
            assert_eq!(listed, d.observation.legal_actions, "{block}");
            for (i, a) in d.actions.iter().enumerate() {
                assert_eq!(a.id, i);
                assert_eq!(a.text, a.action.to_string());
            }
        }
        kinds.push(line.split('"').nth(3).unwrap_or_default().to_string());
    }
    for kind in ["hello", "decide", "hand_end", "match_end", "error"] {
        assert!(kinds.iter().any(|k| k == kind), "no {kind} example");
    }
}

#[test]
fn every_message_from_the_bot_in_the_document_parses_and_names_a_legal_action() {
    let decide = examples("to-bot")
        .iter()
        .filter_map(|b| match serde_json::from_str::<ToBot>(b).unwrap() {
            ToBot::Decide(d) if d.observation.on_offer.is_some() => Some(d),
            _ => None,
        })
        .next()
        .expect("a claim example");
    let legal = &decide.observation.legal_actions;
    let blocks = examples("from-bot");
    assert!(blocks.len() >= 4);
    let mut answers = 0;
    for block in &blocks {
        match FromBot::parse(block).unwrap_or_else(|e| panic!("{e}:\n{block}")) {
            FromBot::Ready(r) => assert_eq!(r.protocol, 1),
            FromBot::Action(a) => {
                answers += 1;
                // The discard example belongs to the first decide; the others to the claim.
                if block.contains("discard") {
                    assert!(a.resolve(legal).is_err());
                } else {
                    assert!(a.resolve(legal).is_ok(), "{block}");
                }
            }
        }
    }
    assert!(answers >= 3);
}

/// A bot that plays the first legal action and records what it is told.
struct Listener {
    heard: Arc<Mutex<Vec<String>>>,
}

impl Bot for Listener {
    fn name(&self) -> &'static str {
        "listener"
    }

    fn act(&mut self, _obs: &Observation, legal: &[Action]) -> Action {
        legal[0]
    }

    fn needs_observation(&self) -> bool {
        false
    }

    fn hand_ended(&mut self, outcome: &HandOutcome, payments: &[i64]) {
        let sum: i64 = payments.iter().sum();
        let what = match outcome {
            HandOutcome::Win { .. } => "win",
            HandOutcome::ExhaustiveDraw => "draw",
        };
        self.heard
            .lock()
            .unwrap()
            .push(format!("hand {what} {sum}"));
    }

    fn match_ended(&mut self, hands: u32, standings: &[Standing]) {
        self.heard
            .lock()
            .unwrap()
            .push(format!("match {hands} {}", standings.len()));
    }
}

#[test]
fn bots_hear_every_hand_end_and_the_match_end() {
    let rules = Arc::new(TableRules::from_name("classic", &serde_json::Map::new()).unwrap());
    let heard = Arc::new(Mutex::new(Vec::new()));
    let mut players: Vec<Box<dyn Bot>> = (0..4)
        .map(|i| match i {
            0 => Box::new(Listener {
                heard: heard.clone(),
            }) as Box<dyn Bot>,
            _ => bots::by_name("efficient", &rules, i).unwrap(),
        })
        .collect();
    let (m, _log) = majiang::driver::play_match(rules, 3, Some(3), &mut players).unwrap();
    let heard = heard.lock().unwrap().clone();
    let hands = m.hands_played() as usize;
    assert_eq!(heard.len(), hands + 1, "{heard:?}");
    for line in &heard[..hands] {
        assert!(line.starts_with("hand ") && line.ends_with(" 0"), "{line}");
    }
    assert_eq!(heard[hands], format!("match {hands} 4"));
}
