//! The session ledger of a real table: the stored document (players, rule set, house rules,
//! the recorded hands) and what it shows (every hand, running totals, the next deal, the end).
//!
//! The document is the record; everything else is worked out from it each time, with the
//! library's match step ([`Progress::after_hand`]), the one rule of rotation, wind, lao and
//! match end the engine plays by too. A hand is recorded as scored by the library's scoring
//! call (the request kept beside the answer), or as a drawn hand; undo pops the last one.

use crate::words::{Words, ledger as said};
use majiang::Seat;
use majiang::rules::lookup;
use majiang::table::matches::{Deal, EndReason, MatchRules};
use majiang::table::progress::Progress;
use majiang::table::{Player, TableRules};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// Longest player name accepted, in characters.
pub const MAX_NAME: usize = 40;

/// A request the ledger refuses, with the field at fault and a message for a person.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct Refusal {
    /// The field of the request at fault (`players`, `request.seat`, …), for the page to show
    /// the message beside it.
    pub field: String,
    /// What is wrong, in English.
    pub message: String,
    /// What is wrong, as a catalogue key and its values.
    pub words: Words,
}

pub(crate) fn refuse(field: &str, why: impl Into<Words>) -> Refusal {
    let words = why.into();
    Refusal {
        field: field.to_string(),
        message: words.to_string(),
        words,
    }
}

/// How a table is started: `POST /api/ledgers`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewLedger {
    /// The rule set's name.
    pub rules: String,
    /// House rules (the rule set's options).
    #[serde(default)]
    pub options: Map<String, Value>,
    /// The players' names, in turn order around the table.
    pub players: Vec<String>,
    /// The chair (index into `players`) of the first dealer; the first by default.
    #[serde(default)]
    pub first_dealer: u8,
    /// The first dealer's lao: 1, or 3 after a double on the dealer's roll where the house
    /// rules say so (Hangzhou `dice_double_starts_lao3`).
    #[serde(default = "one")]
    pub first_lao: u8,
}

fn one() -> u8 {
    1
}

/// One recorded hand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedHand {
    /// The winner's chair; `None` for a drawn hand.
    pub winner: Option<u8>,
    /// Net chips by chair.
    pub payments: Vec<i64>,
    /// The scoring request as scored (`None` for a drawn hand).
    pub request: Option<Value>,
    /// The scoring answer (patterns, total, payments and their reasons by seat).
    pub answer: Option<Value>,
    /// When it was recorded (milliseconds since the Unix epoch).
    pub recorded: i64,
}

/// The stored document of one ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LedgerDoc {
    /// Its id (in its link).
    pub id: String,
    /// When it was started (milliseconds since the Unix epoch).
    pub created: i64,
    /// The rule set's name.
    pub rules: String,
    /// The house rules as the rule set reads them back (every option, defaults written out).
    pub options: Map<String, Value>,
    /// Players' names by chair, in turn order.
    pub players: Vec<String>,
    /// The first dealer's chair.
    pub first_dealer: u8,
    /// The first dealer's lao.
    pub first_lao: u8,
    /// The hands recorded, in order.
    pub hands: Vec<RecordedHand>,
}

/// A hand as the ledger shows it.
#[derive(Debug, Clone, Serialize)]
pub struct HandRow {
    /// From 1.
    pub number: u32,
    /// Who dealt it, the wind, the lao.
    pub deal: Deal,
    /// The seat wind of each chair in that hand.
    pub seats: Vec<Seat>,
    /// The winner's chair (`None`: drawn).
    pub winner: Option<u8>,
    /// Net chips by chair.
    pub payments: Vec<i64>,
    /// Every chair's chips after the hand.
    pub totals: Vec<i64>,
    /// The scoring request and answer, for a won hand.
    pub request: Option<Value>,
    /// See `request`.
    pub answer: Option<Value>,
}

/// What the ledger shows: the document's facts and what follows from them.
#[derive(Debug, Clone, Serialize)]
pub struct LedgerView {
    /// Its id.
    pub id: String,
    /// The path that opens it again.
    pub link: String,
    /// When it was started.
    pub created: i64,
    /// The rule set's name.
    pub rules: String,
    /// The house rules.
    pub options: Map<String, Value>,
    /// The players by chair.
    pub players: Vec<String>,
    /// The rule set counts lao (Hangzhou).
    pub lao: bool,
    /// Chips each player started with.
    pub starting_points: i64,
    /// Every recorded hand.
    pub hands: Vec<HandRow>,
    /// Every chair's chips now.
    pub totals: Vec<i64>,
    /// The next hand, unless the match is over.
    pub next: Option<NextHand>,
    /// Why the match ended, once it has.
    pub ended: Option<EndReason>,
}

/// The next hand to play.
#[derive(Debug, Clone, Serialize)]
pub struct NextHand {
    /// Its number, from 1.
    pub number: u32,
    /// Its dealer, prevailing wind and lao.
    pub deal: Deal,
    /// The seat wind of each chair in it.
    pub seats: Vec<Seat>,
    /// What a scoring request for it must say (`rules`, `options`, `dealer`,
    /// `prevailing_wind`, `lao`, and `balances` under a zero floor): the page fills them in.
    pub fixed: Map<String, Value>,
}

/// The rule set with the ledger's options, and its match rules.
fn rules_of(doc: &LedgerDoc) -> Result<(TableRules, MatchRules), Refusal> {
    let ruleset =
        TableRules::from_name(&doc.rules, &doc.options).map_err(|e| refuse("options", e.0))?;
    let rules = ruleset.set().match_rules();
    Ok((ruleset, rules))
}

impl LedgerDoc {
    /// A new ledger `id` started at `created` from `new`, checked: a known rule set, house
    /// rules it reads, one name per seat it allows, a first dealer at the table.
    pub fn start(id: String, created: i64, new: NewLedger) -> Result<LedgerDoc, Refusal> {
        let set = lookup(&new.rules).map_err(|e| refuse("rules", e.0))?;
        let spec = set.spec();
        let players = new.players.len();
        let seats = spec.seat_counts();
        if !seats.contains(&u8::try_from(players).unwrap_or(u8::MAX)) {
            return Err(refuse(
                "players",
                said::PLAYER_COUNT.with([
                    spec.name.into(),
                    (*seats.start()).into(),
                    (*seats.end()).into(),
                    players.into(),
                ]),
            ));
        }
        let mut options = new.options;
        if spec.players_option().is_some() {
            options.insert("players".into(), json!(players));
        } else if players != usize::from(spec.default_players()) {
            return Err(refuse(
                "players",
                said::SEATS.with([spec.name.into(), spec.default_players().into()]),
            ));
        }
        let mut names = Vec::with_capacity(players);
        for (i, n) in new.players.iter().enumerate() {
            let n = n.trim();
            if n.is_empty() || n.chars().count() > MAX_NAME {
                return Err(refuse(
                    &format!("players[{i}]"),
                    said::NAME_LENGTH.with([MAX_NAME.into()]),
                ));
            }
            if names.contains(&n.to_string()) {
                return Err(refuse(
                    &format!("players[{i}]"),
                    said::NAMED_TWICE.with([n.into()]),
                ));
            }
            names.push(n.to_string());
        }
        let kind = set.read(&options).map_err(|e| refuse("options", e.0))?;
        let rules = kind.match_rules();
        let first_lao_allowed = if rules.double_starts_lao3 { 3 } else { 1 };
        if new.first_lao != 1 && new.first_lao != first_lao_allowed {
            return Err(refuse(
                "first_lao",
                if rules.double_starts_lao3 {
                    said::FIRST_LAO_OR_THREE.plain()
                } else {
                    said::FIRST_LAO.plain()
                },
            ));
        }
        let mut doc = LedgerDoc {
            id,
            created,
            rules: new.rules,
            options: kind.options_json(),
            players: names,
            first_dealer: new.first_dealer,
            first_lao: new.first_lao,
            hands: Vec::new(),
        };
        // The options as the rule set reads them back keep the table size.
        if spec.players_option().is_some() {
            doc.options.insert("players".into(), json!(players));
        }
        doc.progress_before(0)?;
        Ok(doc)
    }

    /// Where the match stood before hand `index` (0-based; `hands.len()`: now).
    fn progress_before(&self, index: usize) -> Result<Progress, Refusal> {
        let (_, rules) = rules_of(self)?;
        let mut p = Progress::start(
            &rules,
            self.players.len(),
            Player(self.first_dealer),
            self.first_lao,
            None,
        )
        .map_err(|e| refuse("first_dealer", e.to_string()))?;
        for (i, h) in self.hands[..index].iter().enumerate() {
            p = p
                .after_hand(&rules, h.winner.map(Player), &h.payments, None)
                .map_err(|e| refuse("hands", format!("hand {}: {e}", i + 1)))?;
        }
        Ok(p)
    }

    /// Records a drawn hand.
    pub fn record_draw(&mut self, now: i64) -> Result<(), Refusal> {
        let p = self.progress_before(self.hands.len())?;
        if p.is_over() {
            return Err(refuse("hand", said::MATCH_OVER.plain()));
        }
        self.hands.push(RecordedHand {
            winner: None,
            payments: vec![0; self.players.len()],
            request: None,
            answer: None,
            recorded: now,
        });
        Ok(())
    }

    /// Records a won hand from its scoring request: the fields the ledger decides (rule set,
    /// house rules, dealer, wind, lao, zero-floor balances) are filled in, or refused when they
    /// say otherwise; the request is scored by the library's one scoring call, and refused
    /// unless it is a valid win.
    pub fn record_win(&mut self, request: Value, now: i64) -> Result<(), Refusal> {
        let Value::Object(mut request) = request else {
            return Err(refuse("request", "a scoring request is a JSON object"));
        };
        let next = self
            .view()?
            .next
            .ok_or_else(|| refuse("hand", said::MATCH_OVER.plain()))?;
        for (key, value) in &next.fixed {
            match request.get(key) {
                None => {
                    request.insert(key.clone(), value.clone());
                }
                Some(given) if given == value => {}
                Some(given) => {
                    return Err(refuse(
                        &format!("request.{key}"),
                        format!(
                            "hand {} of this table has {value}, not {given}",
                            next.number
                        ),
                    ));
                }
            }
        }
        let request = Value::Object(request);
        let answer =
            majiang::rules::score_json(&request.to_string()).map_err(|e| refuse("request", e.0))?;
        if answer["valid"] != json!(true) {
            // The library's reason as it answered it: English and key.
            let mut why = answer["why"].clone();
            if let Value::Object(o) = &mut why {
                o.insert("text".into(), answer["reason"].clone());
            }
            return Err(refuse("request", said::NOT_A_WIN.with([why])));
        }
        let chair_of = |seat: &str| {
            next.seats
                .iter()
                .position(|s| s.name() == seat)
                .map(|c| c as u8)
        };
        let winner = request["seat"].as_str().unwrap_or("east");
        let winner = chair_of(winner)
            .ok_or_else(|| refuse("request.seat", format!("no {winner} seat at this table")))?;
        let mut payments = vec![0; self.players.len()];
        for (seat, amount) in answer["payments"].as_object().into_iter().flatten() {
            let chair = chair_of(seat)
                .ok_or_else(|| refuse("request", format!("a payment for {seat}, not seated")))?;
            payments[usize::from(chair)] = amount.as_i64().unwrap_or(0);
        }
        self.hands.push(RecordedHand {
            winner: Some(winner),
            payments,
            request: Some(request),
            answer: Some(answer),
            recorded: now,
        });
        Ok(())
    }

    /// Takes back the last hand recorded.
    pub fn undo(&mut self) -> Result<RecordedHand, Refusal> {
        self.hands
            .pop()
            .ok_or_else(|| refuse("hand", said::NOTHING_TO_UNDO.plain()))
    }

    /// The ledger as shown: every hand with the deal it was played in and the totals after
    /// it, the totals now, the next hand and the end.
    pub fn view(&self) -> Result<LedgerView, Refusal> {
        let (ruleset, rules) = rules_of(self)?;
        let seats_in = |deal: &Deal| -> Vec<Seat> {
            let n = self.players.len();
            (0..n)
                .map(|c| ruleset.seats()[(c + n - deal.dealer.index()) % n])
                .collect()
        };
        let mut p = self.progress_before(0)?;
        let mut hands = Vec::with_capacity(self.hands.len());
        for (i, h) in self.hands.iter().enumerate() {
            let deal = p.deal;
            p = p
                .after_hand(&rules, h.winner.map(Player), &h.payments, None)
                .map_err(|e| refuse("hands", format!("hand {}: {e}", i + 1)))?;
            hands.push(HandRow {
                number: i as u32 + 1,
                deal,
                seats: seats_in(&deal),
                winner: h.winner,
                payments: h.payments.clone(),
                totals: p.ledger.clone(),
                request: h.request.clone(),
                answer: h.answer.clone(),
            });
        }
        let next = (!p.is_over()).then(|| {
            let seats = seats_in(&p.deal);
            let mut fixed = Map::new();
            fixed.insert("rules".into(), json!(self.rules));
            fixed.insert("options".into(), Value::Object(self.options.clone()));
            fixed.insert("dealer".into(), json!(Seat::East));
            fixed.insert(
                "prevailing_wind".into(),
                json!(Seat::from_wind(p.deal.prevailing_wind)),
            );
            fixed.insert("lao".into(), json!(p.deal.lao));
            if rules.floor {
                let balances: Map<String, Value> = seats
                    .iter()
                    .zip(&p.ledger)
                    .map(|(s, v)| (s.name().to_string(), json!(v)))
                    .collect();
                fixed.insert("balances".into(), Value::Object(balances));
            }
            NextHand {
                number: p.hands_played + 1,
                deal: p.deal,
                seats,
                fixed,
            }
        });
        Ok(LedgerView {
            id: self.id.clone(),
            link: format!("/ledger?id={}", self.id),
            created: self.created,
            rules: self.rules.clone(),
            options: self.options.clone(),
            players: self.players.clone(),
            lao: ruleset.spec().lao,
            starting_points: rules.starting_points,
            hands,
            totals: p.ledger.clone(),
            next,
            ended: p.ended,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(rules: &str, options: Value, players: &[&str]) -> Result<LedgerDoc, Refusal> {
        let new: NewLedger = serde_json::from_value(json!({
            "rules": rules, "options": options, "players": players,
        }))
        .unwrap();
        LedgerDoc::start("t".into(), 0, new)
    }

    const PLAIN_WIN: &str = "123m456p789s1122z";

    fn win(seat: &str) -> Value {
        json!({"concealed": PLAIN_WIN, "winning_tile": "2z", "win": "self_draw", "seat": seat})
    }

    #[test]
    fn a_hangzhou_evening_follows_the_lao() {
        let mut doc = start("hangzhou", json!({}), &["A", "B", "C", "D"]).unwrap();
        // The dealer (A, east) wins: A deals again at 2 lao.
        doc.record_win(win("east"), 1).unwrap();
        let v = doc.view().unwrap();
        let next = v.next.as_ref().unwrap();
        assert_eq!((next.deal.dealer, next.deal.lao), (Player(0), 2));
        assert_eq!(v.totals.iter().sum::<i64>(), 0);
        assert!(v.totals[0] > 0);
        // C (west) wins: C deals next at 1 lao, and is east.
        doc.record_win(win("west"), 2).unwrap();
        let v = doc.view().unwrap();
        let next = v.next.as_ref().unwrap();
        assert_eq!((next.deal.dealer, next.deal.lao), (Player(2), 1));
        assert_eq!(next.seats[2], Seat::East);
        assert_eq!(next.fixed["lao"], json!(1));
        // Undo takes C's win back.
        doc.undo().unwrap();
        assert_eq!(doc.view().unwrap().next.unwrap().deal.lao, 2);
    }

    #[test]
    fn refusals_name_the_field() {
        assert_eq!(
            start("riichi", json!({}), &["A"]).unwrap_err().field,
            "rules"
        );
        assert_eq!(
            start("hongkong", json!({}), &["A", "B", "C"])
                .unwrap_err()
                .field,
            "players"
        );
        assert_eq!(
            start("hongkong", json!({}), &["A", "B", "C", "A"])
                .unwrap_err()
                .field,
            "players[3]"
        );
        assert_eq!(
            start(
                "hongkong",
                json!({"min_fan": "lots"}),
                &["A", "B", "C", "D"]
            )
            .unwrap_err()
            .field,
            "options"
        );
        let mut doc = start("hongkong", json!({}), &["A", "B", "C", "D"]).unwrap();
        let mut w = win("south");
        w["prevailing_wind"] = json!("south");
        assert_eq!(
            doc.record_win(w, 0).unwrap_err().field,
            "request.prevailing_wind"
        );
        let e = doc
            .record_win(
                json!({"concealed": "123m", "winning_tile": "2z", "win": "self_draw"}),
                0,
            )
            .unwrap_err();
        assert!(e.message.contains("not a win"), "{e}");
        assert_eq!(doc.undo().unwrap_err().field, "hand");
    }

    #[test]
    fn a_classic_table_of_five_ends_when_everyone_has_dealt() {
        let mut doc = start("classic", json!({}), &["A", "B", "C", "D", "E"]).unwrap();
        assert_eq!(doc.options["players"], json!(5));
        for _ in 0..5 {
            doc.record_draw(0).unwrap();
        }
        let v = doc.view().unwrap();
        assert_eq!(v.ended, Some(EndReason::DealRounds));
        assert!(v.next.is_none());
        assert!(doc.record_draw(0).is_err());
    }
}
