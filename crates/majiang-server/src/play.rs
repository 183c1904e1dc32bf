//! A match as the server runs it: a thin use of the library's [`Session`] (the match, the hand
//! in play and the log written as it goes). A finished hand stays on the table until
//! [`MatchState::deal_next`]; [`MatchState::apply`] deals it first if needed, so a stored match
//! is rebuilt by replaying its actions. Deterministic from the match seed and the actions.

use majiang::table::Settlement;
use majiang::table::log::MatchLog;
use majiang::table::matches::Standing;
use majiang::table::{Action, Event, Game, Match, MatchError, Player, Ruleset, Session};
use std::sync::Arc;

/// What applying one action did.
#[derive(Debug, Clone)]
pub struct Step {
    /// The hand the action was played in (from 1).
    pub hand_number: u32,
    /// The events of that hand (full truth; filter per viewer).
    pub events: Vec<Event>,
    /// Set when the action ended the hand.
    pub settlement: Option<Settlement>,
    /// The number and opening events (full truth) of a hand dealt before the action, when the
    /// previous one had ended.
    pub dealt: Option<(u32, Vec<Event>)>,
}

/// A match in play.
#[derive(Debug)]
pub struct MatchState {
    session: Session,
    /// The current hand's events so far (full truth; filter per viewer).
    hand_events: Vec<Event>,
}

impl MatchState {
    /// Starts a match (at most `hand_limit` hands, if given): seat choice then the first deal.
    /// Returns the match and the opening events (seat choice and deal).
    pub fn start(
        ruleset: Arc<Ruleset>,
        seed: u64,
        hand_limit: Option<u32>,
    ) -> Result<(MatchState, Vec<Event>), MatchError> {
        let (session, opening) = Session::new(ruleset, seed, hand_limit)?;
        let mut events = opening.seat_choice;
        events.extend(opening.deal);
        let state = MatchState {
            session,
            hand_events: events.clone(),
        };
        Ok((state, events))
    }

    /// The session underneath.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The match (ledger, settlements, rotation).
    pub fn matches(&self) -> &Match {
        self.session.matches()
    }

    /// The rule set.
    pub fn ruleset(&self) -> &Arc<Ruleset> {
        self.session.ruleset()
    }

    /// The current (or, once the match is over, the last) hand.
    pub fn game(&self) -> &Game {
        self.session.game()
    }

    /// The hand before the current one, once a second hand has been dealt.
    pub fn previous_game(&self) -> Option<&Game> {
        self.session.previous_game()
    }

    /// The chair of each entrant.
    pub fn chairs(&self) -> &[Player] {
        self.session.chairs()
    }

    /// Chips per chair so far.
    pub fn ledger(&self) -> &[i64] {
        self.session.ledger()
    }

    /// The standings, best first.
    pub fn standings(&self) -> Vec<Standing> {
        self.session.standings()
    }

    /// The current hand's number (from 1).
    pub fn hand_number(&self) -> u32 {
        self.session.hand_number()
    }

    /// The match is over.
    pub fn is_finished(&self) -> bool {
        self.session.is_over()
    }

    /// The library's match log so far (JSON lines with [`MatchLog::to_jsonl`]).
    pub fn log(&self) -> &MatchLog {
        self.session.log()
    }

    /// The hand has ended and the next one is not dealt yet.
    pub fn awaiting_deal(&self) -> bool {
        self.session.awaiting_deal()
    }

    /// The current hand's events so far, full truth (filter with `Event::seen_by`).
    pub fn hand_events(&self) -> &[Event] {
        &self.hand_events
    }

    /// Deals the next hand after one has ended; returns its number and opening events (full
    /// truth).
    pub fn deal_next(&mut self) -> Result<(u32, Vec<Event>), MatchError> {
        let deal = self.session.deal_next()?;
        self.hand_events = deal.clone();
        Ok((self.session.hand_number(), deal))
    }

    /// Applies one action of `player` (dealing the next hand first when the last one has
    /// ended). A refused action changes nothing but that deal.
    pub fn apply(&mut self, player: Player, action: Action) -> Result<Step, MatchError> {
        let dealt = if self.session.awaiting_deal() {
            Some(self.deal_next()?)
        } else {
            None
        };
        let mut step = self.act(player, action)?;
        step.dealt = dealt;
        Ok(step)
    }

    /// Applies one action of `player` to the hand in play; a finished hand stays until
    /// [`MatchState::deal_next`]. A refused action changes nothing.
    pub fn act(&mut self, player: Player, action: Action) -> Result<Step, MatchError> {
        let step = self.session.act(player, action)?;
        self.hand_events.extend(step.events.iter().cloned());
        Ok(Step {
            hand_number: step.hand_number,
            events: step.events,
            settlement: step.settlement,
            dealt: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use majiang::bots::{self, Bot};

    fn play_out(name: &str, seed: u64) -> (MatchState, Vec<(Player, Action)>) {
        let rules = Arc::new(Ruleset::from_name(name, &serde_json::Map::new()).unwrap());
        let (mut m, _) = MatchState::start(rules.clone(), seed, Some(3)).unwrap();
        let mut players: Vec<Box<dyn Bot>> = (0..rules.players() as u64)
            .map(|i| bots::by_name("random", &rules, seed + i).unwrap())
            .collect();
        let mut log = Vec::new();
        while !m.is_finished() {
            if m.awaiting_deal() {
                // A finished hand stays until dealt; `apply` would deal it too.
                let (hand, _) = m.deal_next().unwrap();
                assert_eq!(hand, m.hand_number());
            }
            let p = m.game().to_act().next().unwrap();
            let legal = m.game().legal_actions(p);
            let obs = m.game().observation(p);
            let a = players[p.index()].act(&obs, &legal);
            let step = m.apply(p, a).unwrap();
            assert!(step.dealt.is_none(), "dealt above");
            if let Some(s) = &step.settlement
                && let majiang::table::HandOutcome::Win { winner, scored, .. } = &s.outcome
            {
                // The itemised payments the win carries are the ones the hand settled with.
                assert!(scored.itemised.iter().all(|p| p.to == *winner));
                assert_eq!(
                    scored.itemised.iter().map(|p| p.amount).sum::<i64>(),
                    s.payments.iter().filter(|&&x| x > 0).sum::<i64>()
                );
            }
            log.push((p, a));
            assert!(log.len() < 10_000, "a match of 3 hands must end");
        }
        (m, log)
    }

    #[test]
    fn matches_end_and_the_log_replays() {
        for name in ["hongkong", "hangzhou", "yangzhou", "classic"] {
            let (m, _) = play_out(name, 11);
            assert!(m.matches().hands_played() <= 3, "{name}");
            assert_eq!(m.matches().uncollected(), 0, "{name}");
            let report = majiang::table::replay(&m.log().to_jsonl());
            assert!(report.is_ok(), "{name}: {report:?}");
        }
    }

    #[test]
    fn replaying_the_actions_rebuilds_the_match() {
        let (m, log) = play_out("hangzhou", 5);
        let rules = Arc::new(Ruleset::from_name("hangzhou", &serde_json::Map::new()).unwrap());
        let (mut r, _) = MatchState::start(rules, 5, Some(3)).unwrap();
        for (p, a) in log {
            r.apply(p, a).unwrap();
        }
        assert!(r.is_finished());
        assert_eq!(r.ledger(), m.ledger());
        assert_eq!(r.log(), m.log());
    }
}
