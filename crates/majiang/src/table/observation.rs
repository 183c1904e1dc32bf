//! What one player may see: their own concealed tiles, everything on the table, and nothing of
//! the other players' concealed tiles or of the wall's order.

use super::Player;
use super::action::Action;
use super::game::{DiscardRecord, Game};
use crate::counts::TileCounts;
use crate::meld::Meld;
use crate::seat::Seat;
use crate::tile::{Tile, Wind};
use serde::{Deserialize, Serialize};

/// What everyone can see of one player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicHand {
    /// The player.
    pub player: Player,
    /// Their seat wind this hand.
    pub seat: Seat,
    /// Declared melds, with the discarder's seat.
    pub melds: Vec<Meld>,
    /// Flowers and seasons laid out.
    pub flowers: Vec<Tile>,
    /// Their discards in order, claimed ones marked.
    pub discards: Vec<DiscardRecord>,
    /// How many concealed tiles they hold (extra winds included).
    pub concealed_count: u8,
    /// Fortune Gambits in their current run (Hangzhou).
    pub gambit_run: u8,
}

/// One player's view of the hand, with the actions legal for them now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The viewer.
    pub player: Player,
    /// The viewer's seat wind.
    pub seat: Seat,
    /// The dealer.
    pub dealer: Player,
    /// The prevailing wind.
    pub prevailing_wind: Wind,
    /// The dealer's lao (Hangzhou).
    pub lao: u8,
    /// The viewer's concealed tiles (written in notation in JSON).
    #[serde(with = "counts_notation")]
    pub concealed: TileCounts,
    /// The viewer's concealed extra winds (five- and six-player classic), lowest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_winds: Vec<Tile>,
    /// The tile the viewer just drew, when it is their turn after a draw.
    pub drawn: Option<Tile>,
    /// Everyone's public tiles, by chair.
    pub table: Vec<PublicHand>,
    /// Tiles left in the live wall.
    pub live_wall: usize,
    /// The wild kind, if any.
    pub wildcard: Option<Tile>,
    /// The face-up indicator (Hangzhou `indicator`).
    pub indicator: Option<Tile>,
    /// A Fortune Gambit round is open: no claims on discards until its player draws again.
    pub gambit_round: bool,
    /// Discarding a wildcard now would be a Fortune Gambit for the viewer.
    pub wildcard_discard_is_gambit: bool,
    /// The discard (or added-kong tile) on offer, and whose it is.
    pub on_offer: Option<(Player, Tile)>,
    /// The latest discard of the hand and its discarder (claimed or not).
    pub last_discard: Option<(Player, Tile)>,
    /// The player on turn, if any.
    pub turn: Option<Player>,
    /// What the viewer may do now (empty: nothing to decide).
    pub legal_actions: Vec<Action>,
    /// The kinds the viewer passed a win on since their last draw from the live wall, and so
    /// may not win on from a discard or a robbed kong until then (Hong Kong's missed win,
    /// `missed_win`; [`Game::missed_wins`]). The viewer's own: empty in anyone else's view.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missed_wins: Vec<Tile>,
}

impl Game {
    /// What `p` may see now. Panics never: an unknown player gets an empty view of their own
    /// tiles.
    pub fn observation(&self, p: Player) -> Observation {
        let n = self.players();
        let own = p.index() < n;
        let table = (0..n)
            .map(|i| {
                let q = Player(i as u8);
                PublicHand {
                    player: q,
                    seat: self.seat_of(q),
                    melds: self.melds(q).to_vec(),
                    flowers: self.flowers(q).to_vec(),
                    discards: self.discards(q).to_vec(),
                    concealed_count: (self.concealed(q).len()
                        + usize::from(self.extra_winds(q).len()))
                        as u8,
                    gambit_run: self.gambit_run(q),
                }
            })
            .collect();
        let wild_gambit = match (own, self.wildcard()) {
            (true, Some(w)) => self.concealed(p).get(w) > 0 && self.is_gambit_discard(p, w),
            _ => false,
        };
        Observation {
            player: p,
            seat: self.seat_of(p),
            dealer: self.dealer(),
            prevailing_wind: self.setup().prevailing_wind,
            lao: self.setup().lao,
            concealed: if own {
                *self.concealed(p)
            } else {
                TileCounts::EMPTY
            },
            extra_winds: if own {
                self.extra_winds(p).tiles().collect()
            } else {
                Vec::new()
            },
            drawn: if self.turn() == Some(p) {
                self.drawn()
            } else {
                None
            },
            table,
            live_wall: self.live_remaining(),
            wildcard: self.wildcard(),
            indicator: self.indicator(),
            gambit_round: self.gambit_round().is_some(),
            wildcard_discard_is_gambit: wild_gambit,
            on_offer: self.on_offer(),
            last_discard: self.last_discard(),
            turn: self.turn(),
            legal_actions: if own {
                self.legal_actions(p)
            } else {
                Vec::new()
            },
            missed_wins: if own { self.missed_wins(p) } else { Vec::new() },
        }
    }
}

mod counts_notation {
    use crate::counts::TileCounts;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &TileCounts, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(c)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TileCounts, D::Error> {
        let s = String::deserialize(d)?;
        if s.is_empty() {
            return Ok(TileCounts::EMPTY);
        }
        TileCounts::parse(&s).map_err(serde::de::Error::custom)
    }
}
