//! What one seat sees, as the observation encoder reads it ([`View`]): a seat's engine
//! [`Observation`], or the [`Game`] itself read for that seat ([`GameView`]), which the
//! environments encode every step without copying the seat's view into an `Observation`
//! first. [`GameView`] reads exactly what `majiang::bots::observe_into` copies, so both give
//! the same planes (a test steps random hands and compares them).

use majiang::Seat;
use majiang::counts::TileCounts;
use majiang::meld::Meld;
use majiang::table::{Action, DiscardRecord, Game, Observation, Player};
use majiang::tile::{Tile, Wind};

/// Tile kinds, bonus tiles included: the width of a row counted by kind, and of every plane
/// the codec writes.
pub const TILE_KINDS: usize = 42;

/// One seat's public hand as the encoder reads it.
pub struct SeatView<'a> {
    /// The chair.
    pub player: Player,
    /// Declared melds.
    pub melds: &'a [Meld],
    /// Every discard made (claimed ones too).
    pub discards: &'a [DiscardRecord],
    /// The same discards counted by kind, when kept ([`DiscardRows`]): the encoder copies the
    /// row instead of counting the pile.
    pub discard_row: Option<&'a [u8; TILE_KINDS]>,
    /// Flowers and seasons laid out.
    pub flowers: &'a [Tile],
    /// Concealed tiles held (extra winds included).
    pub concealed_count: u8,
    /// Fortune Gambit run.
    pub gambit_run: u8,
}

/// What the viewer may see: the fields of [`Observation`], by method.
pub trait View {
    /// The viewer.
    fn player(&self) -> Player;
    /// Players at the table.
    fn players(&self) -> usize;
    /// The viewer's seat.
    fn seat(&self) -> Seat;
    /// The dealer.
    fn dealer(&self) -> Player;
    /// The prevailing wind.
    fn prevailing_wind(&self) -> Wind;
    /// The dealer's lao.
    fn lao(&self) -> u8;
    /// The viewer's concealed playing tiles.
    fn concealed(&self) -> &TileCounts;
    /// Calls `f` with each extra-wind tile the viewer holds concealed.
    fn each_own_extra_wind(&self, f: impl FnMut(Tile));
    /// The tile the viewer just drew (on turn after a draw).
    fn drawn(&self) -> Option<Tile>;
    /// Calls `f` with each seat's public hand, in chair order.
    fn each_seat(&self, f: impl FnMut(SeatView<'_>));
    /// Live wall tiles left.
    fn live_wall(&self) -> usize;
    /// The wild kind.
    fn wildcard(&self) -> Option<Tile>;
    /// The indicator tile.
    fn indicator(&self) -> Option<Tile>;
    /// A Fortune Gambit round is open.
    fn gambit_round(&self) -> bool;
    /// Discarding a wildcard now would be a Fortune Gambit.
    fn wildcard_discard_is_gambit(&self) -> bool;
    /// The tile on offer and its discarder.
    fn on_offer(&self) -> Option<(Player, Tile)>;
    /// The latest discard and its discarder.
    fn last_discard(&self) -> Option<(Player, Tile)>;
    /// The player on turn.
    fn turn(&self) -> Option<Player>;
    /// The viewer's legal actions.
    fn legal(&self) -> &[Action];
}

impl View for Observation {
    fn player(&self) -> Player {
        self.player
    }
    fn players(&self) -> usize {
        self.table.len()
    }
    fn seat(&self) -> Seat {
        self.seat
    }
    fn dealer(&self) -> Player {
        self.dealer
    }
    fn prevailing_wind(&self) -> Wind {
        self.prevailing_wind
    }
    fn lao(&self) -> u8 {
        self.lao
    }
    fn concealed(&self) -> &TileCounts {
        &self.concealed
    }
    fn each_own_extra_wind(&self, f: impl FnMut(Tile)) {
        self.extra_winds.iter().copied().for_each(f);
    }
    fn drawn(&self) -> Option<Tile> {
        self.drawn
    }
    fn each_seat(&self, mut f: impl FnMut(SeatView<'_>)) {
        for h in &self.table {
            f(SeatView {
                player: h.player,
                melds: &h.melds,
                discards: &h.discards,
                discard_row: None,
                flowers: &h.flowers,
                concealed_count: h.concealed_count,
                gambit_run: h.gambit_run,
            });
        }
    }
    fn live_wall(&self) -> usize {
        self.live_wall
    }
    fn wildcard(&self) -> Option<Tile> {
        self.wildcard
    }
    fn indicator(&self) -> Option<Tile> {
        self.indicator
    }
    fn gambit_round(&self) -> bool {
        self.gambit_round
    }
    fn wildcard_discard_is_gambit(&self) -> bool {
        self.wildcard_discard_is_gambit
    }
    fn on_offer(&self) -> Option<(Player, Tile)> {
        self.on_offer
    }
    fn last_discard(&self) -> Option<(Player, Tile)> {
        self.last_discard
    }
    fn turn(&self) -> Option<Player> {
        self.turn
    }
    fn legal(&self) -> &[Action] {
        &self.legal_actions
    }
}

/// The game read for seat `player`, with that seat's legal actions: what
/// `majiang::bots::observe_into` would copy into an [`Observation`], read in place.
pub struct GameView<'a> {
    /// The hand in play.
    pub game: &'a Game,
    /// The viewer.
    pub player: Player,
    /// The viewer's legal actions now.
    pub legal: &'a [Action],
    /// Each seat's discards counted by kind, up to date with `game`, if the caller keeps them.
    pub discard_rows: Option<&'a DiscardRows>,
}

/// Seats at the largest table.
const MAX_SEATS: usize = 6;

/// Each seat's discards counted by kind (the observation's discard rows), kept between the
/// steps of one table: a hand only ever adds discards (a claimed one stays in its pile), so
/// bringing the rows up to date counts only the new ones instead of every pile every step.
#[derive(Debug, Clone)]
pub struct DiscardRows {
    /// Per chair: how much of its pile the row has counted.
    seen: [usize; MAX_SEATS],
    rows: [[u8; TILE_KINDS]; MAX_SEATS],
}

impl DiscardRows {
    /// Rows of no discards (a new hand's).
    pub const EMPTY: DiscardRows = DiscardRows {
        seen: [0; MAX_SEATS],
        rows: [[0; TILE_KINDS]; MAX_SEATS],
    };

    /// Counts the discards `game` added since the last update. A new hand must start from
    /// [`DiscardRows::EMPTY`] (a pile shorter than what was counted starts its row again).
    pub fn update(&mut self, game: &Game) {
        for q in 0..game.players().min(MAX_SEATS) {
            let pile = game.discards(Player(q as u8));
            if pile.len() < self.seen[q] {
                self.seen[q] = 0;
                self.rows[q] = [0; TILE_KINDS];
            }
            let row = &mut self.rows[q];
            for d in &pile[self.seen[q]..] {
                if let Some(c) = row.get_mut(d.tile.index()) {
                    *c = c.saturating_add(1);
                }
            }
            self.seen[q] = pile.len();
        }
    }
}

impl View for GameView<'_> {
    fn player(&self) -> Player {
        self.player
    }
    fn players(&self) -> usize {
        self.game.players()
    }
    fn seat(&self) -> Seat {
        self.game.seat_of(self.player)
    }
    fn dealer(&self) -> Player {
        self.game.dealer()
    }
    fn prevailing_wind(&self) -> Wind {
        self.game.setup().prevailing_wind
    }
    fn lao(&self) -> u8 {
        self.game.setup().lao
    }
    fn concealed(&self) -> &TileCounts {
        self.game.concealed(self.player)
    }
    fn each_own_extra_wind(&self, f: impl FnMut(Tile)) {
        self.game.extra_winds(self.player).tiles().for_each(f);
    }
    fn drawn(&self) -> Option<Tile> {
        if self.game.turn() == Some(self.player) {
            self.game.drawn()
        } else {
            None
        }
    }
    fn each_seat(&self, mut f: impl FnMut(SeatView<'_>)) {
        let g = self.game;
        for i in 0..g.players() {
            let q = Player(i as u8);
            f(SeatView {
                player: q,
                melds: g.melds(q),
                discards: g.discards(q),
                discard_row: self.discard_rows.and_then(|r| r.rows.get(i)),
                flowers: g.flowers(q),
                concealed_count: (g.concealed(q).len() + usize::from(g.extra_winds(q).len())) as u8,
                gambit_run: g.gambit_run(q),
            });
        }
    }
    fn live_wall(&self) -> usize {
        self.game.live_remaining()
    }
    fn wildcard(&self) -> Option<Tile> {
        self.game.wildcard()
    }
    fn indicator(&self) -> Option<Tile> {
        self.game.indicator()
    }
    fn gambit_round(&self) -> bool {
        self.game.gambit_round().is_some()
    }
    fn wildcard_discard_is_gambit(&self) -> bool {
        match self.game.wildcard() {
            Some(w) => {
                self.game.concealed(self.player).get(w) > 0
                    && self.game.is_gambit_discard(self.player, w)
            }
            None => false,
        }
    }
    fn on_offer(&self) -> Option<(Player, Tile)> {
        self.game.on_offer()
    }
    fn last_discard(&self) -> Option<(Player, Tile)> {
        self.game.last_discard()
    }
    fn turn(&self) -> Option<Player> {
        self.game.turn()
    }
    fn legal(&self) -> &[Action] {
        self.legal
    }
}
