//! The end of a hand, shown: every chair's hand face up and each payment with its reason, read
//! from the finished game and the library's itemised ledger. Built only once the hand is over.

use majiang::Meld;
use majiang::scoring::Scored;
use majiang::table::{Game, HandOutcome, Player};
use majiang::tile::Tile;
use serde::{Deserialize, Serialize};

/// One chair's hand after the hand ended, face up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevealedHand {
    /// The chair.
    pub player: Player,
    /// Every concealed tile (the winner's include the winning tile; five- and six-player
    /// classic: the concealed extra winds too), lowest first.
    pub concealed: Vec<Tile>,
    /// Declared melds.
    pub melds: Vec<Meld>,
    /// Flowers and seasons set aside.
    pub flowers: Vec<Tile>,
    /// The winning tile, on the winner's hand only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winning_tile: Option<Tile>,
}

/// One payment between two chairs, with the rule and its arithmetic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentExplained {
    /// The chair that pays.
    pub from: Player,
    /// The chair that receives.
    pub to: Player,
    /// Chips (positive).
    pub amount: i64,
    /// The rule and its arithmetic, for a person (the library's words).
    pub reason: String,
}

/// Every chair's hand of a finished game, face up. Empty while the hand is in play: nothing
/// concealed leaves the server before the hand ends.
pub fn reveal(game: &Game) -> Vec<RevealedHand> {
    if !game.is_over() {
        return Vec::new();
    }
    let winner = game.outcome().and_then(|o| match o {
        HandOutcome::Win { winner, tile, .. } => Some((*winner, *tile)),
        HandOutcome::ExhaustiveDraw => None,
    });
    (0..game.players())
        .map(|i| {
            let p = Player(i as u8);
            let mut concealed = game.concealed(p).tiles();
            concealed.extend(game.extra_winds(p).tiles());
            RevealedHand {
                player: p,
                concealed,
                melds: game.melds(p).to_vec(),
                flowers: game.flowers(p).to_vec(),
                winning_tile: winner.filter(|(w, _)| *w == p).map(|(_, t)| t),
            }
        })
        .collect()
}

/// The payments of a finished game's win, one by one with their reasons, by chair: from the
/// itemised score of `win` (the winner and the score read as the win was declared). Empty for
/// a drawn hand, and when that score is not the one the hand settled with (its net payments
/// differ), rather than explain payments that were not made.
pub fn payments_explained(game: &Game, win: Option<&(Player, Scored)>) -> Vec<PaymentExplained> {
    let Some(HandOutcome::Win {
        winner, scored: net, ..
    }) = game.outcome()
    else {
        return Vec::new();
    };
    let Some((_, scored)) = win.filter(|(who, _)| who == winner) else {
        return Vec::new();
    };
    let mut by_chair = vec![0i64; game.players()];
    let mut out = Vec::with_capacity(scored.itemised.len());
    for p in &scored.itemised {
        let (Some(from), Some(to)) = (game.player_at(p.from), game.player_at(p.to)) else {
            return Vec::new();
        };
        by_chair[from.index()] -= p.amount;
        by_chair[to.index()] += p.amount;
        out.push(PaymentExplained {
            from,
            to,
            amount: p.amount,
            reason: p.reason.clone(),
        });
    }
    if by_chair != net.payments {
        return Vec::new();
    }
    out
}
