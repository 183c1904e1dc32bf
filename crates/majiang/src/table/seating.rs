//! Seat choice at the start of a match: who sits in which chair and who deals first, with the
//! dice and wind tiles of the ceremony as events.

use super::Player;
use super::dice::roll;
use super::event::{DicePurpose, Event};
use super::table_rules::TableRules;
use crate::config::SeatChoiceRule;
use crate::tile::Wind;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The seats settled at the start of a match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatChoice {
    /// For each entrant (in the order the match lists them), the chair they sit in.
    pub chairs: Vec<Player>,
    /// The first dealer (a chair).
    pub dealer: Player,
    /// The dice that chose the dealer were a double or summed to 12 (Hangzhou's
    /// `dice_double_starts_lao3`).
    pub dealer_double: bool,
    /// The ceremony, as events.
    pub events: Vec<Event>,
}

/// Chooses seats and the first dealer once per match, as the rule set's seeds describe:
/// everyone rolls and the highest deals (ties roll again); Hangzhou's single roll counted round
/// the table; or Hong Kong's wind-tile ceremony, after which the entrant who drew East sits in
/// chair 0 and deals, South in chair 1, and so on. Every die and tile drawn is an event.
///
/// ```
/// use majiang::table::{TableRules, choose_seats};
/// use rand::SeedableRng;
/// let r = TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let c = choose_seats(&r, &mut rng);
/// let mut chairs: Vec<u8> = c.chairs.iter().map(|p| p.0).collect();
/// chairs.sort();
/// assert_eq!(chairs, vec![0, 1, 2, 3]);
/// ```
pub fn choose_seats(ruleset: &TableRules, rng: &mut ChaCha8Rng) -> SeatChoice {
    let n = ruleset.players();
    let mut events = Vec::new();
    let highest = |events: &mut Vec<Event>, rng: &mut ChaCha8Rng| {
        let mut contenders: Vec<usize> = (0..n).collect();
        loop {
            let mut best = 0u8;
            let mut rolls = Vec::with_capacity(contenders.len());
            for &e in &contenders {
                let dice = roll(rng, 2);
                let total = dice[0] + dice[1];
                best = best.max(total);
                rolls.push(total);
                events.push(Event::DiceRolled {
                    by: Player(e as u8),
                    dice,
                    purpose: DicePurpose::SeatChoice,
                });
            }
            contenders = contenders
                .into_iter()
                .zip(rolls)
                .filter(|&(_, t)| t == best)
                .map(|(e, _)| e)
                .collect();
            if contenders.len() == 1 {
                return contenders[0];
            }
        }
    };
    let identity: Vec<Player> = (0..n).map(|i| Player(i as u8)).collect();
    let (chairs, dealer, dealer_double) = match ruleset.config().seat_choice {
        SeatChoiceRule::HighestRoll => {
            let e = highest(&mut events, rng);
            (identity, Player(e as u8), false)
        }
        SeatChoiceRule::CountedRoll => {
            let dice = roll(rng, 2);
            let total = usize::from(dice[0] + dice[1]);
            let double = dice[0] == dice[1] || total == 12;
            events.push(Event::DiceRolled {
                by: Player(0),
                dice,
                purpose: DicePurpose::DealerChoice,
            });
            (identity, Player(((total - 1) % n) as u8), double)
        }
        SeatChoiceRule::WindTiles => {
            let east = highest(&mut events, rng);
            let mut row: Vec<Wind> = Wind::ALL[..n.min(4)].to_vec();
            rand::seq::SliceRandom::shuffle(row.as_mut_slice(), rng);
            let dice = roll(rng, 2);
            let total = usize::from(dice[0] + dice[1]);
            events.push(Event::DiceRolled {
                by: Player(east as u8),
                dice,
                purpose: DicePurpose::DealerChoice,
            });
            // Odd: take from the odd end (the front of the row), even: from the back.
            if total % 2 == 0 {
                row.reverse();
            }
            let first = (east + total - 1) % n;
            let mut chairs = vec![Player(0); n];
            for (k, wind) in row.into_iter().enumerate() {
                let entrant = (first + k) % n;
                events.push(Event::WindTileDrawn {
                    entrant: entrant as u8,
                    wind,
                });
                chairs[entrant] = Player(wind.index() as u8);
            }
            (chairs, Player(0), false)
        }
    };
    events.push(Event::SeatsChosen {
        chairs: chairs.clone(),
        dealer,
    });
    SeatChoice {
        chairs,
        dealer,
        dealer_double,
        events,
    }
}
