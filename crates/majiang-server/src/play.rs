//! A match as the server runs it: a fixed number of hands over one [`Ruleset`], the dealer
//! keeping the deal while winning (Hangzhou: one more lao) and passing it otherwise, chips
//! summed per chair. Deterministic from the match seed and the actions applied, so a match is
//! rebuilt by replaying its stored actions.

use majiang::table::{
    Action, ActionError, Event, Game, HandOutcome, HandSetup, Player, Ruleset, choose_seats,
};
use majiang::tile::Wind;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Why a match could not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot deal the first hand: {0}")]
pub struct StartError(#[from] majiang::table::SetupError);

/// What applying one action did.
#[derive(Debug, Clone)]
pub struct Step {
    /// The hand the action was played in.
    pub hand_number: u32,
    /// The events of that hand (full truth; filter per viewer).
    pub events: Vec<Event>,
    /// Set when the action ended the hand.
    pub hand_end: Option<HandEnd>,
    /// The events that opened the next hand (full truth), when one was dealt.
    pub next_hand: Option<(u32, Vec<Event>)>,
}

/// A finished hand.
#[derive(Debug, Clone)]
pub struct HandEnd {
    /// Its number.
    pub hand_number: u32,
    /// How it ended.
    pub outcome: HandOutcome,
    /// Chips per chair for the hand.
    pub payments: Vec<i64>,
}

/// A match in play.
#[derive(Debug)]
pub struct MatchState {
    ruleset: Arc<Ruleset>,
    seed: u64,
    hands: u32,
    /// For each entrant, their chair.
    chairs: Vec<Player>,
    game: Game,
    previous: Option<Game>,
    standings: Vec<i64>,
    finished: bool,
    results: Vec<HandEnd>,
    dealer_passes: u32,
}

impl MatchState {
    /// Starts a match of `hands` hands: seat choice then the first deal. Returns the match and
    /// the opening events (seat choice and deal).
    pub fn start(
        ruleset: Arc<Ruleset>,
        seed: u64,
        hands: u32,
    ) -> Result<(MatchState, Vec<Event>), StartError> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let choice = choose_seats(&ruleset, &mut rng);
        let mut events = choice.events;
        let mut setup = HandSetup::new(seed);
        setup.dealer = choice.dealer;
        if choice.dealer_double && ruleset.name() == "hangzhou" {
            setup.lao = 3;
        }
        let n = ruleset.players();
        if ruleset.name() == "hangzhou" {
            setup.balances = Some(vec![0; n]);
        }
        let (game, deal) = Game::new(ruleset.clone(), setup)?;
        events.extend(deal);
        Ok((
            MatchState {
                ruleset,
                seed,
                hands: hands.max(1),
                chairs: choice.chairs,
                game,
                previous: None,
                standings: vec![0; n],
                finished: false,
                results: Vec::new(),
                dealer_passes: 0,
            },
            events,
        ))
    }

    /// The rule set.
    pub fn ruleset(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }

    /// The current (or, once finished, the last) hand.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The hand before the current one, once a second hand has been dealt.
    pub fn previous_game(&self) -> Option<&Game> {
        self.previous.as_ref()
    }

    /// The chair of each entrant.
    pub fn chairs(&self) -> &[Player] {
        &self.chairs
    }

    /// Chips per chair so far.
    pub fn standings(&self) -> &[i64] {
        &self.standings
    }

    /// Hands in the match.
    pub fn hands(&self) -> u32 {
        self.hands
    }

    /// The current hand's number (0-based).
    pub fn hand_number(&self) -> u32 {
        self.game.setup().hand_number
    }

    /// Every hand finished so far.
    pub fn results(&self) -> &[HandEnd] {
        &self.results
    }

    /// The match is over.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Applies one action of `player`. On error nothing changed.
    pub fn apply(&mut self, player: Player, action: Action) -> Result<Step, ActionError> {
        if self.finished {
            return Err(ActionError::HandOver);
        }
        let hand_number = self.hand_number();
        let events = self.game.apply(player, action)?;
        let mut step = Step {
            hand_number,
            events,
            hand_end: None,
            next_hand: None,
        };
        if let Some(outcome) = self.game.outcome().cloned() {
            let n = self.game.players();
            let payments = outcome.payments(n);
            for (s, p) in self.standings.iter_mut().zip(&payments) {
                *s += p;
            }
            let end = HandEnd {
                hand_number,
                outcome: outcome.clone(),
                payments,
            };
            self.results.push(end.clone());
            step.hand_end = Some(end);
            if hand_number + 1 >= self.hands {
                self.finished = true;
            } else {
                let (game, deal) = self.next_game(&outcome);
                self.previous = Some(std::mem::replace(&mut self.game, game));
                step.next_hand = Some((hand_number + 1, deal));
            }
        }
        Ok(step)
    }

    fn next_game(&mut self, outcome: &HandOutcome) -> (Game, Vec<Event>) {
        let prev = self.game.setup().clone();
        let n = self.game.players();
        let dealer_keeps = match outcome {
            HandOutcome::Win { dealer_won, .. } => *dealer_won,
            HandOutcome::ExhaustiveDraw => true,
        };
        let mut setup = prev.clone();
        setup.hand_number = prev.hand_number + 1;
        if dealer_keeps {
            setup.lao = prev.lao.saturating_add(1).min(9);
        } else {
            setup.dealer = Player(((prev.dealer.index() + 1) % n) as u8);
            setup.lao = 1;
            self.dealer_passes += 1;
            setup.prevailing_wind = Wind::ALL[(self.dealer_passes as usize / n) % 4];
        }
        if setup.balances.is_some() {
            setup.balances = Some(self.standings.clone());
        }
        setup.seed = self.seed;
        // The setup is built from a valid one (dealer in range, lao >= 1, balances sized), so
        // dealing cannot fail.
        Game::new(self.ruleset.clone(), setup).expect("a valid next hand setup")
    }
}

/// The server's bot: wins whenever it may, otherwise plays a random legal action, but claims
/// (other than wins) only half the time so hands reach their end.
pub fn bot_action(game: &Game, p: Player, rng: &mut ChaCha8Rng) -> Option<Action> {
    let legal = game.legal_actions(p);
    if legal.contains(&Action::Win) {
        return Some(Action::Win);
    }
    if legal.contains(&Action::Pass) && rand::Rng::random_bool(rng, 0.5) {
        return Some(Action::Pass);
    }
    legal.choose(rng).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_out(name: &str, seed: u64) -> (MatchState, Vec<(Player, Action)>) {
        let rules = Arc::new(Ruleset::from_name(name, &serde_json::Map::new()).unwrap());
        let (mut m, _) = MatchState::start(rules, seed, 3).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut log = Vec::new();
        let mut steps = 0;
        while !m.is_finished() {
            let p = m.game().to_act().next().unwrap();
            let a = bot_action(m.game(), p, &mut rng).unwrap();
            m.apply(p, a).unwrap();
            log.push((p, a));
            steps += 1;
            assert!(steps < 10_000, "a match of 3 hands must end");
        }
        (m, log)
    }

    #[test]
    fn matches_end_and_chips_balance() {
        for name in ["hongkong", "hangzhou", "yangzhou", "classic"] {
            let (m, _) = play_out(name, 11);
            assert_eq!(m.results().len(), 3, "{name}");
            assert_eq!(m.standings().iter().sum::<i64>(), 0, "{name}: zero-sum");
        }
    }

    #[test]
    fn replaying_the_actions_rebuilds_the_match() {
        let (m, log) = play_out("hangzhou", 5);
        let rules = Arc::new(Ruleset::from_name("hangzhou", &serde_json::Map::new()).unwrap());
        let (mut r, _) = MatchState::start(rules, 5, 3).unwrap();
        for (p, a) in log {
            r.apply(p, a).unwrap();
        }
        assert!(r.is_finished());
        assert_eq!(r.standings(), m.standings());
    }
}
