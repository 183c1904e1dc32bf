//! The end of a hand, shown: every chair's hand face up and each payment with its reason, read
//! from the finished game and the itemised payments its win carries. Built only once the hand
//! is over.

use majiang::Meld;
use majiang::analysis;
use majiang::scoring::Reason;
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
    /// On the winner's hand in a game with wildcards (Hangzhou's 财神): each wildcard that stood
    /// for another tile, with that tile (one reading of the winning hand).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wildcards: Vec<WildAs>,
}

/// A wildcard of the winning hand and the tile it stood for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WildAs {
    /// The wildcard tile.
    pub tile: Tile,
    /// What it stood for.
    #[serde(rename = "as")]
    pub stands_for: Tile,
}

/// What the wildcards of `p`'s winning hand stood for, by one reading of it: the tiles a
/// reading needs beyond the real ones held. Which wildcard stood for which tile is not
/// asked (they are alike); a wildcard standing for its own kind is not listed.
fn wildcards_of(game: &Game, p: Player, winning: Tile) -> Vec<WildAs> {
    let Some(wild) = game.wildcard() else {
        return Vec::new();
    };
    let mut hand = *game.concealed(p);
    if hand.len() % 3 == 1 {
        hand.add(winning);
    }
    let Some(reading) = analysis::decompositions(&hand, game.hand_rules())
        .into_iter()
        .next()
    else {
        return Vec::new();
    };
    let mut needed = [0u8; 34];
    for group in &reading.groups {
        for t in group.tiles() {
            needed[t.index()] += 1;
        }
    }
    let mut out = Vec::new();
    for (i, &n) in needed.iter().enumerate() {
        let Some(kind) = Tile::from_index(i) else {
            continue;
        };
        if kind == wild {
            continue;
        }
        for _ in hand.get(kind)..n {
            out.push(WildAs {
                tile: wild,
                stands_for: kind,
            });
        }
    }
    out
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
    /// The rule and its numbers: `{"key": ..., "args": {...}}`, worded by the browser's
    /// catalogue (`reason.<key>`).
    pub reason: Reason,
    /// The same reason in English (the library's words).
    pub text: String,
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
                wildcards: winner
                    .filter(|(w, _)| *w == p)
                    .map_or_else(Vec::new, |(_, t)| wildcards_of(game, p, t)),
            }
        })
        .collect()
}

/// The payments of a finished game's win, one by one with their reasons, by chair, as the win
/// carries them. Empty for a drawn hand and while the hand is in play.
pub fn payments_explained(game: &Game) -> Vec<PaymentExplained> {
    let Some(HandOutcome::Win { scored, .. }) = game.outcome().filter(|_| game.is_over()) else {
        return Vec::new();
    };
    scored
        .itemised
        .iter()
        .map(|p| PaymentExplained {
            from: p.from,
            to: p.to,
            amount: p.amount,
            text: p.reason.to_string(),
            reason: p.reason.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use majiang::table::{Session, TableRules};
    use std::sync::Arc;

    #[test]
    fn nothing_is_revealed_while_the_hand_is_in_play() {
        let rules = Arc::new(TableRules::from_name("hangzhou", &serde_json::Map::new()).unwrap());
        let (session, _) = Session::new(rules, 9, Some(1)).unwrap();
        assert!(!session.game().is_over());
        assert!(reveal(session.game()).is_empty());
        assert!(payments_explained(session.game()).is_empty());
    }

    /// Hangzhou hands played by efficient bots until winners used wildcards for other tiles:
    /// each listed wildcard stands for a tile other than itself, no more are listed than the
    /// hand holds, and the hand with those wildcards turned into what they stood for (the rest
    /// as themselves) wins without any wildcard.
    #[test]
    fn a_winners_wildcards_say_what_they_stood_for() {
        use majiang::analysis::{self, HandRules};
        use majiang::bots;
        let rules = Arc::new(TableRules::from_name("hangzhou", &serde_json::Map::new()).unwrap());
        let mut checked = 0;
        for seed in 0..200u64 {
            let (mut session, _) = Session::new(Arc::clone(&rules), seed, Some(1)).unwrap();
            let mut players: Vec<_> = (0..4)
                .map(|i| bots::by_name("normal", &rules, seed * 4 + i).unwrap())
                .collect();
            while let Some(p) = session.to_act() {
                let obs = session.observation(p);
                let legal = session.legal_actions(p);
                let a = players[p.index()].act(&obs, &legal);
                session.act(p, a).unwrap();
            }
            let game = session.finished_game().unwrap();
            let Some(HandOutcome::Win { winner, .. }) = game.outcome() else {
                continue;
            };
            let hand = reveal(game)
                .into_iter()
                .find(|h| h.player == *winner)
                .unwrap();
            if hand.wildcards.is_empty() {
                continue;
            }
            let wild = game.wildcard().unwrap();
            let mut counts = majiang::TileCounts::EMPTY;
            for &t in &hand.concealed {
                counts.add(t);
            }
            assert!(hand.wildcards.len() <= usize::from(counts.get(wild)));
            for w in &hand.wildcards {
                assert_eq!(w.tile, wild);
                assert_ne!(w.stands_for, wild);
                counts.remove(wild);
                counts.add(w.stands_for);
            }
            let plain = HandRules {
                wildcard: None,
                ..*game.hand_rules()
            };
            assert!(analysis::is_win(&counts, &plain), "seed {seed}: {hand:?}");
            checked += 1;
        }
        assert!(checked >= 3, "only {checked} winning hands used wildcards");
    }
}
