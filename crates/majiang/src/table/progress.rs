//! Where a match stands between hands, and the one rule that moves it on after a hand: whose
//! deal is next, the prevailing wind, Hangzhou's lao, the chips, and whether the match is over.
//!
//! A pure step from a hand's result (the winner, or a drawn hand, and the net payments by
//! chair) to the next state, with no [`Game`](super::Game) needed: [`Match`](super::Match)
//! moves on with it after every hand it plays, and a front end keeping the score of a real
//! table (the server's ledger) moves on with it after every hand recorded, so both follow the
//! same rule (the table in the [`matches`](super::matches) module docs).
//!
//! ```
//! use majiang::table::matches::{EndRule, MatchRules, Rotation};
//! use majiang::table::progress::Progress;
//! use majiang::table::Player;
//! let rules = MatchRules {
//!     rotation: Rotation::WinnerDeals,
//!     end: EndRule::Hands(8),
//!     starting_points: 0,
//!     floor: false,
//!     double_starts_lao3: false,
//! };
//! let start = Progress::start(&rules, 4, Player(0), 1, None).unwrap();
//! // The dealer wins: they deal again at 2 lao.
//! let next = start.after_hand(&rules, Some(Player(0)), &[6, -2, -2, -2], None).unwrap();
//! assert_eq!((next.deal.dealer, next.deal.lao), (Player(0), 2));
//! // Another player wins: they deal next at 1 lao.
//! let next = next.after_hand(&rules, Some(Player(2)), &[-2, -2, 6, -2], None).unwrap();
//! assert_eq!((next.deal.dealer, next.deal.lao), (Player(2), 1));
//! assert_eq!(next.ledger, vec![4, -4, 4, -4]);
//! ```

pub use crate::config::{Deal, EndReason, EndRule, HAND_CAP, MatchRules, Rotation};
use crate::seat::Player;
use crate::tile::Wind;
use serde::{Deserialize, Serialize};

/// Why a step was refused: input that does not describe a hand of this match.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgressError {
    /// The match is over: no hand follows.
    #[error("the match is over: no more hands")]
    Over,
    /// A table of this many players does not exist.
    #[error("{0} players: a table seats 3 to 6")]
    Players(usize),
    /// A chair that is not at the table.
    #[error("chair {chair} is not at a table of {players} players")]
    Chair {
        /// The chair given.
        chair: u8,
        /// Players at the table.
        players: usize,
    },
    /// The payments do not name every chair once.
    #[error("{given} payments for {players} players: give one per chair")]
    Payments {
        /// Payments given.
        given: usize,
        /// Players at the table.
        players: usize,
    },
}

/// Where a match stands before its next hand.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Progress {
    /// The next hand's dealer, prevailing wind and lao (the last hand's, once the match is
    /// over).
    pub deal: Deal,
    /// Times the deal has passed to the next seat.
    pub passes: u32,
    /// Hands finished.
    pub hands_played: u32,
    /// Chips per player, by chair.
    pub ledger: Vec<i64>,
    /// Why the match ended, once it has.
    pub ended: Option<EndReason>,
}

impl Progress {
    /// The start of a match of `players` under `rules`: `first_dealer` deals the first hand at
    /// `lao` (1, or 3 after a Hangzhou double with `double_starts_lao3`) in the East wind, and
    /// everyone holds the starting chips. `hand_limit` is a caller's safety limit on hands (not
    /// a rule of any set): `Some(0)` ends the match before it starts.
    pub fn start(
        rules: &MatchRules,
        players: usize,
        first_dealer: Player,
        lao: u8,
        hand_limit: Option<u32>,
    ) -> Result<Progress, ProgressError> {
        if !(3..=6).contains(&players) {
            return Err(ProgressError::Players(players));
        }
        check_chair(first_dealer, players)?;
        Ok(Progress {
            deal: Deal {
                dealer: first_dealer,
                prevailing_wind: Wind::East,
                lao: lao.max(1),
            },
            passes: 0,
            hands_played: 0,
            ledger: vec![rules.starting_points; players],
            ended: (hand_limit == Some(0)).then_some(EndReason::HandLimit),
        })
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        self.ledger.len()
    }

    /// True once the match has ended.
    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }

    /// The state after the next hand: `winner` (`None` for a drawn hand) and the net
    /// `payments` by chair go to the ledger, the deal rotates by the rule set's rule and the
    /// match may end (by its rule, or at `hand_limit` hands). Refused when the match is over or
    /// the result does not fit the table.
    pub fn after_hand(
        &self,
        rules: &MatchRules,
        winner: Option<Player>,
        payments: &[i64],
        hand_limit: Option<u32>,
    ) -> Result<Progress, ProgressError> {
        let n = self.players();
        if self.is_over() {
            return Err(ProgressError::Over);
        }
        if payments.len() != n {
            return Err(ProgressError::Payments {
                given: payments.len(),
                players: n,
            });
        }
        if let Some(w) = winner {
            check_chair(w, n)?;
        }
        let mut next = self.clone();
        for (l, p) in next.ledger.iter_mut().zip(payments) {
            *l += p;
        }
        next.hands_played += 1;
        let played = self.deal;
        let dealer_won = winner == Some(played.dealer);
        let pass = match rules.rotation {
            Rotation::StayOnWinOrDraw => winner.is_some() && !dealer_won,
            Rotation::StayOnWin => !dealer_won,
            Rotation::EveryHand => true,
            Rotation::WinnerDeals => false,
        };
        if pass {
            next.passes += 1;
            next.deal = Deal {
                dealer: Player(((played.dealer.index() + 1) % n) as u8),
                prevailing_wind: Wind::ALL[(next.passes as usize / n) % 4],
                lao: 1,
            };
        } else if rules.rotation == Rotation::WinnerDeals {
            next.deal = match winner {
                Some(w) if w != played.dealer => Deal {
                    dealer: w,
                    prevailing_wind: played.prevailing_wind,
                    lao: 1,
                },
                _ => Deal {
                    lao: played.lao.saturating_add(1),
                    ..played
                },
            };
        }
        next.ended = match rules.end {
            EndRule::DealRounds(r) => {
                (next.passes >= u32::from(r) * n as u32).then_some(EndReason::DealRounds)
            }
            EndRule::Hands(h) => (next.hands_played >= h).then_some(EndReason::Hands),
            EndRule::Points(_) => {
                (!dealer_won && next.ledger.iter().any(|&x| x <= 0)).then_some(EndReason::Points)
            }
        }
        .or_else(|| {
            hand_limit
                .filter(|&l| next.hands_played >= l)
                .map(|_| EndReason::HandLimit)
        });
        Ok(next)
    }
}

fn check_chair(p: Player, players: usize) -> Result<(), ProgressError> {
    if p.index() < players {
        Ok(())
    } else {
        Err(ProgressError::Chair {
            chair: p.0,
            players,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(rotation: Rotation, end: EndRule) -> MatchRules {
        MatchRules {
            rotation,
            end,
            starting_points: 0,
            floor: false,
            double_starts_lao3: false,
        }
    }

    #[test]
    fn hong_kong_keeps_the_deal_on_a_draw_and_ends_after_the_north_wind() {
        let r = rules(Rotation::StayOnWinOrDraw, EndRule::DealRounds(4));
        let mut p = Progress::start(&r, 4, Player(0), 1, None).unwrap();
        p = p.after_hand(&r, None, &[0; 4], None).unwrap();
        assert_eq!(p.deal.dealer, Player(0));
        let mut hands = 1;
        while !p.is_over() {
            let winner = Player(((p.deal.dealer.index() + 1) % 4) as u8);
            p = p.after_hand(&r, Some(winner), &[0; 4], None).unwrap();
            hands += 1;
            if p.passes == 4 {
                assert_eq!(p.deal.prevailing_wind, Wind::South);
            }
        }
        assert_eq!(hands, 17);
        assert_eq!(p.ended, Some(EndReason::DealRounds));
        assert_eq!(
            p.after_hand(&r, None, &[0; 4], None),
            Err(ProgressError::Over)
        );
    }

    #[test]
    fn yangzhou_passes_the_deal_on_a_draw() {
        let r = rules(Rotation::StayOnWin, EndRule::DealRounds(4));
        let p = Progress::start(&r, 4, Player(3), 1, None).unwrap();
        let p = p.after_hand(&r, None, &[0; 4], None).unwrap();
        assert_eq!(p.deal.dealer, Player(0));
    }

    #[test]
    fn hangzhou_points_end_after_a_hand_the_dealer_did_not_win() {
        let mut r = rules(Rotation::WinnerDeals, EndRule::Points(10));
        r.starting_points = 10;
        let p = Progress::start(&r, 4, Player(0), 3, None).unwrap();
        assert_eq!(p.deal.lao, 3);
        // The dealer wins and someone reaches 0: the match goes on (the dealer won).
        let p = p
            .after_hand(&r, Some(Player(0)), &[10, -10, 0, 0], None)
            .unwrap();
        assert_eq!((p.deal.lao, p.ended), (4, None));
        // A drawn hand is not won by the dealer: someone is at 0, so it ends.
        let p = p.after_hand(&r, None, &[0; 4], None).unwrap();
        assert_eq!(p.ended, Some(EndReason::Points));
    }

    #[test]
    fn bad_results_are_refused_with_a_reason() {
        let r = rules(Rotation::EveryHand, EndRule::DealRounds(1));
        assert_eq!(
            Progress::start(&r, 7, Player(0), 1, None),
            Err(ProgressError::Players(7))
        );
        let p = Progress::start(&r, 4, Player(0), 1, None).unwrap();
        let e = p
            .after_hand(&r, Some(Player(4)), &[0; 4], None)
            .unwrap_err();
        assert_eq!(e.to_string(), "chair 4 is not at a table of 4 players");
        let e = p.after_hand(&r, None, &[0; 3], None).unwrap_err();
        assert!(e.to_string().contains("one per chair"), "{e}");
        assert!(
            Progress::start(&r, 4, Player(0), 1, Some(0))
                .unwrap()
                .is_over()
        );
    }
}
