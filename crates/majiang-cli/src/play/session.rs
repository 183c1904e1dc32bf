//! The match around the hands: seat choice, dealer rotation, lao, the ledger, the end of the
//! match, and the bots' policies.
//!
//! This is a small local driver so that `majiang play` works on its own; it follows RULES.md's
//! rotation (the dealer stays on a dealer win or a drawn hand — Yangzhou and classic pass on a
//! draw; Hangzhou's winner deals next) and ends the match once the deal has gone round the table
//! once (or after `max_hands`).

use majiang::analysis::shanten;
use majiang::table::{
    Action, Event, Game, HandOutcome, HandSetup, Observation, Player, Ruleset, SetupError,
    choose_seats,
};
use majiang::tile::{Tile, Wind};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A policy for a seat: picks one of the legal actions from what the seat may see.
pub trait Policy {
    /// The action to take (one of `legal`, which is never empty).
    fn act(&mut self, obs: &Observation, legal: &[Action]) -> Action;
}

/// Which bots sit at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotKind {
    /// Discards to lower shanten, always wins, claims nothing else.
    Efficient,
    /// Uniformly random legal actions (seeded).
    Random,
}

impl BotKind {
    /// The bot for a name given on the command line.
    pub fn parse(name: &str) -> Option<BotKind> {
        match name {
            "efficient" => Some(BotKind::Efficient),
            "random" => Some(BotKind::Random),
            _ => None,
        }
    }

    /// A bot of this kind for one seat.
    pub fn make(self, ruleset: &Arc<Ruleset>, seed: u64) -> Box<dyn Policy> {
        match self {
            BotKind::Efficient => Box::new(Greedy {
                ruleset: Arc::clone(ruleset),
            }),
            BotKind::Random => Box::new(RandomPolicy {
                rng: ChaCha8Rng::seed_from_u64(seed),
            }),
        }
    }
}

/// Always wins; otherwise discards the tile that leaves the lowest shanten (honours and
/// terminals first on ties) and passes on claims.
struct Greedy {
    ruleset: Arc<Ruleset>,
}

impl Policy for Greedy {
    fn act(&mut self, obs: &Observation, legal: &[Action]) -> Action {
        if legal.contains(&Action::Win) {
            return Action::Win;
        }
        if legal.contains(&Action::Pass) {
            return Action::Pass;
        }
        let rules = self.ruleset.hand_rules(obs.wildcard);
        let mut best: Option<(i8, u8, Action)> = None;
        for &a in legal {
            let Action::Discard(t) = a else { continue };
            if Some(t) == obs.wildcard && legal.len() > 1 {
                continue;
            }
            let mut rest = obs.concealed;
            rest.remove(t);
            let s = shanten(&rest, &rules);
            let edge = edge_rank(t);
            if best.is_none_or(|(bs, be, _)| (s, edge) < (bs, be)) {
                best = Some((s, edge, a));
            }
        }
        best.map(|(_, _, a)| a).unwrap_or(legal[0])
    }
}

/// Lower is discarded first: honours, then terminals, then the rest.
fn edge_rank(t: Tile) -> u8 {
    if t.is_honor() {
        0
    } else if t.is_terminal() {
        1
    } else {
        2 + (5i8 - t.rank() as i8).unsigned_abs().min(3)
    }
}

struct RandomPolicy {
    rng: ChaCha8Rng,
}

impl Policy for RandomPolicy {
    fn act(&mut self, _obs: &Observation, legal: &[Action]) -> Action {
        use rand::Rng;
        legal[self.rng.random_range(0..legal.len())]
    }
}

/// One match: the seats, the dealer, the ledger.
pub struct Session {
    ruleset: Arc<Ruleset>,
    seed: u64,
    /// The human's chair.
    pub human: Player,
    dealer: Player,
    lao: u8,
    wind: Wind,
    hand_number: u32,
    passes: usize,
    max_hands: u32,
    ledger: Vec<i64>,
    over: bool,
}

impl Session {
    /// A match: seats are chosen (the human is the first entrant) and the first dealer found.
    /// Returns the seat-choice events.
    pub fn new(ruleset: Arc<Ruleset>, seed: u64, max_hands: u32) -> (Session, Vec<Event>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let choice = choose_seats(&ruleset, &mut rng);
        let n = ruleset.players();
        let lao = if choice.dealer_double { 3 } else { 1 };
        let session = Session {
            human: choice.chairs[0],
            dealer: choice.dealer,
            lao,
            wind: Wind::East,
            hand_number: 0,
            passes: 0,
            max_hands: max_hands.max(1),
            ledger: vec![0; n],
            over: false,
            ruleset,
            seed,
        };
        (session, choice.events)
    }

    /// Deals the next hand.
    pub fn start_hand(&mut self) -> Result<(Game, Vec<Event>), SetupError> {
        let setup = HandSetup {
            dealer: self.dealer,
            prevailing_wind: self.wind,
            lao: self.lao,
            balances: None,
            hand_number: self.hand_number,
            seed: self.seed,
        };
        Game::new(Arc::clone(&self.ruleset), setup)
    }

    /// Books a finished hand: the ledger, the next dealer, the end of the match.
    pub fn finish_hand(&mut self, game: &Game) {
        let n = self.ledger.len();
        let Some(outcome) = game.outcome() else {
            return;
        };
        for (l, p) in self.ledger.iter_mut().zip(outcome.payments(n)) {
            *l += p;
        }
        let name = self.ruleset.name();
        let next = Player(((self.dealer.index() + 1) % n) as u8);
        match outcome {
            HandOutcome::Win { dealer_won, .. } if *dealer_won => self.lao += 1,
            HandOutcome::Win { winner, .. } if name == "hangzhou" => {
                self.dealer = *winner;
                self.lao = 1;
                self.passes += 1;
            }
            HandOutcome::ExhaustiveDraw if name == "hongkong" || name == "hangzhou" => {
                self.lao += 1;
            }
            _ => {
                self.dealer = next;
                self.lao = 1;
                self.passes += 1;
            }
        }
        self.hand_number += 1;
        if self.passes >= n || self.hand_number >= self.max_hands {
            self.over = true;
        }
    }

    /// The match is over.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Net chips or points per chair so far.
    pub fn ledger(&self) -> &[i64] {
        &self.ledger
    }

    /// The rule set.
    pub fn ruleset(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }
}
