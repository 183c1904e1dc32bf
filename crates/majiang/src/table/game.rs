//! The state of one hand and its rules of play: who must decide, what they may do, and what
//! each action does.

use super::Player;
use super::action::{Action, ActionError};
use super::complete::{Screen, is_complete};
use super::config::WildcardRule;
use super::event::{DicePurpose, Event, KongKind, PlayerScore};
use super::ruleset::Ruleset;
use super::wall::{Wall, WallError, full_set};
use crate::analysis::HandRules;
use crate::counts::TileCounts;
use crate::meld::{Meld, MeldKind};
use crate::rules::hangzhou::patterns::bao_tou_state;
use crate::scoring::{Circumstances, Invalid, OtherHand, Scored, WinKind, WinSituation};
use crate::seat::Seat;
use crate::tile::{KINDS, Tile, Wind};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Most players at a table.
pub const MAX_PLAYERS: usize = 6;

/// What a hand starts from: who deals, the wind, the dealer's lao, chip balances (Hangzhou's
/// zero floor), and the seed that fixes every shuffle and die.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandSetup {
    /// The dealer (East this hand).
    pub dealer: Player,
    /// The prevailing (round) wind.
    pub prevailing_wind: Wind,
    /// The dealer's lao (Hangzhou: 1 for a new dealer; other rule sets ignore it).
    pub lao: u8,
    /// Chips per player before the hand, by chair (Hangzhou's zero floor), if tracked.
    pub balances: Option<Vec<i64>>,
    /// Hand number within the match (also selects the random stream).
    pub hand_number: u32,
    /// The seed.
    pub seed: u64,
}

impl HandSetup {
    /// A first hand: chair 0 deals, East wind, 1 lao, no balances.
    pub fn new(seed: u64) -> HandSetup {
        HandSetup {
            dealer: Player(0),
            prevailing_wind: Wind::East,
            lao: 1,
            balances: None,
            hand_number: 0,
            seed,
        }
    }
}

/// Why a hand could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The dealer is not at the table.
    #[error("dealer {dealer} is not at a table of {players}")]
    NoSuchDealer {
        /// The dealer named.
        dealer: Player,
        /// Players at the table.
        players: usize,
    },
    /// Lao counts from 1.
    #[error("lao counts from 1 (a new dealer is at 1 lao), not 0")]
    ZeroLao,
    /// Balances must give one number per player.
    #[error("balances: {given} given for {players} players")]
    Balances {
        /// Numbers given.
        given: usize,
        /// Players at the table.
        players: usize,
    },
    /// A stacked wall that is not the rule set's tile set.
    #[error(transparent)]
    Wall(#[from] WallError),
}

/// One discard in a player's discard row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DiscardRecord {
    /// The tile.
    pub tile: Tile,
    /// Someone claimed it (for a meld or a win): it left the row.
    pub claimed: bool,
    /// It was a Fortune Gambit.
    pub gambit: bool,
}

/// How the player whose turn it is came by their last tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TileSource {
    /// The dealer's dealt hand (first turn).
    Deal,
    /// Drawn from the live wall.
    Wall,
    /// A replacement tile after a kong (flowers on the way included).
    KongReplacement,
    /// A replacement tile for a flower drawn from the live wall.
    FlowerReplacement,
    /// A claimed discard (chow or pung): discard next, nothing else.
    Claim,
}

/// How a hand ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum HandOutcome {
    /// A player won.
    Win {
        /// The winner.
        winner: Player,
        /// How.
        win: WinKind,
        /// The discarder or robbed player.
        discarder: Option<Player>,
        /// The winning tile.
        tile: Tile,
        /// The score, payments by chair.
        scored: PlayerScore,
        /// The dealer won.
        dealer_won: bool,
        /// Hangzhou: Fortune Gambits counted in the win.
        gambits: u8,
        /// Hangzhou: kongs in the chain before the winning replacement tile.
        kong_chain: u8,
    },
    /// The live wall ran out.
    ExhaustiveDraw,
}

impl HandOutcome {
    /// Net chips per player (zeros for a drawn hand).
    pub fn payments(&self, players: usize) -> Vec<i64> {
        match self {
            HandOutcome::Win { scored, .. } => scored.payments.clone(),
            HandOutcome::ExhaustiveDraw => vec![0; players],
        }
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Player> {
        match self {
            HandOutcome::Win { winner, .. } => Some(*winner),
            HandOutcome::ExhaustiveDraw => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Hand {
    concealed: TileCounts,
    /// Running statistics of `concealed` for the quick completeness screen.
    screen: Screen,
    melds: Vec<Meld>,
    flowers: Vec<Tile>,
    discards: Vec<DiscardRecord>,
    /// Fortune Gambits in the player's current unbroken run.
    gambit_run: u8,
}

impl Hand {
    fn add(&mut self, t: Tile) {
        let before = self.concealed.get(t);
        self.concealed.add(t);
        self.screen.update(t, before, before + 1);
    }

    /// Removes `k` copies of `t` (the caller has checked that they are there).
    fn take(&mut self, t: Tile, k: u8) {
        let before = self.concealed.get(t);
        let after = before.saturating_sub(k);
        self.concealed.0[t.index()] = after;
        self.screen.update(t, before, after);
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct ClaimOptions {
    win: bool,
    pung: bool,
    kong: bool,
    /// Bit `i`: the chow starting `2 - i` below the tile (bit 0: the tile is the top of the
    /// chow, bit 1: middle, bit 2: bottom).
    chows: u8,
}

impl ClaimOptions {
    fn any(&self) -> bool {
        self.win || self.pung || self.kong || self.chows != 0
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    Turn {
        player: Player,
        drawn: Option<Tile>,
        source: TileSource,
        kong_chain: u8,
        last_wall: bool,
        can_win: bool,
    },
    Claims {
        discarder: Player,
        tile: Tile,
        last_discard: bool,
        options: [ClaimOptions; MAX_PLAYERS],
        answers: [Option<Action>; MAX_PLAYERS],
        pending: u8,
    },
    Robbing {
        konger: Player,
        tile: Tile,
        kong_chain: u8,
        answers: [Option<Action>; MAX_PLAYERS],
        pending: u8,
    },
    Over,
}

/// The players who must decide now (an iterator over a small set).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actors(u8);

impl Actors {
    /// True if `p` must decide.
    pub fn contains(&self, p: Player) -> bool {
        p.index() < 8 && self.0 & (1 << p.0) != 0
    }

    /// How many must decide.
    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    /// True if nobody must decide (the hand is over).
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }
}

impl Iterator for Actors {
    type Item = Player;
    fn next(&mut self) -> Option<Player> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Player(i))
    }
}

/// One hand at the table.
///
/// Built by [`Game::new`] (shuffle, dice, deal, flowers, indicator, all as events) or
/// [`Game::with_wall`] (a stacked wall, for tests). Then, while [`Game::is_over`] is false,
/// each player in [`Game::to_act`] chooses one of [`Game::legal_actions`] and calls
/// [`Game::apply`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    ruleset: Arc<Ruleset>,
    setup: HandSetup,
    n: u8,
    hand_rules: HandRules,
    /// Each chair's seat wind this hand.
    seats: [Seat; MAX_PLAYERS],
    wild: Option<Tile>,
    indicator: Option<Tile>,
    wall: Wall,
    hands: Vec<Hand>,
    phase: Phase,
    /// A wildcard was discarded by this player: no claims until their next draw.
    gambit_round: Option<Player>,
    /// The latest discard and its discarder.
    last_discard: Option<(Player, Tile)>,
    outcome: Option<HandOutcome>,
}

fn roll(rng: &mut ChaCha8Rng, dice: u8) -> Vec<u8> {
    (0..dice).map(|_| rng.random_range(1..=6u8)).collect()
}

/// Every kind by index, so that the hot loops index a table instead of checking a range.
static TILES: [Tile; 42] = {
    let mut t = [Tile::EAST; 42];
    let mut i = 0;
    while i < 42 {
        t[i] = match Tile::from_index(i) {
            Some(x) => x,
            None => Tile::EAST,
        };
        i += 1;
    }
    t
};

fn tile_at(i: usize) -> Tile {
    TILES[i.min(41)]
}

impl Game {
    /// Sets up a hand: the wall is shuffled and built, the dealer's dice break it, the tiles
    /// are dealt (4-4-4, then 2 to the dealer and 1 to the others), the Hangzhou indicator is
    /// turned up when that option is on, and flowers are declared and replaced, dealer first.
    /// Every step is an event.
    ///
    /// ```
    /// use majiang::table::{Game, HandSetup, Ruleset};
    /// use std::sync::Arc;
    /// let rules = Arc::new(Ruleset::from_name("hongkong", &serde_json::Map::new()).unwrap());
    /// let (game, events) = Game::new(rules, HandSetup::new(42)).unwrap();
    /// assert!(!game.is_over());
    /// assert!(events.len() > 16);
    /// ```
    pub fn new(ruleset: Arc<Ruleset>, setup: HandSetup) -> Result<(Game, Vec<Event>), SetupError> {
        let mut rng = Self::check_setup(&ruleset, &setup)?;
        let config = *ruleset.config();
        let mut events = Vec::with_capacity(64);
        Self::started(&ruleset, &setup, &mut events);
        let ring = Wall::shuffled_ring(&config, &mut rng);
        events.push(Event::WallBuilt {
            sides: config.wall_sides,
            stacks_per_side: config.stacks_per_side() as u8,
            tiles: config.tile_count() as u16,
        });
        let dice = roll(&mut rng, config.break_dice);
        let total: usize = dice.iter().map(|&d| usize::from(d)).sum();
        events.push(Event::DiceRolled {
            by: setup.dealer,
            dice,
            purpose: DicePurpose::WallBreak,
        });
        let side = (total - 1) % usize::from(config.wall_sides);
        events.push(Event::WallBroken {
            side: side as u8,
            stack: total as u8,
            dead_wall: config.dead_wall.size() as u8,
        });
        let wall = Wall::break_ring(&config, ring, side, total);
        let game = Self::deal(ruleset, setup, wall, &mut rng, &mut events);
        Ok((game, events))
    }

    /// Sets up a hand on a stacked wall (see [`Wall::from_order`] and [`Wall::stacked`]): no
    /// shuffle and no break; the deal, indicator and flowers are as in [`Game::new`].
    pub fn with_wall(
        ruleset: Arc<Ruleset>,
        setup: HandSetup,
        wall: Wall,
    ) -> Result<(Game, Vec<Event>), SetupError> {
        let mut rng = Self::check_setup(&ruleset, &setup)?;
        let mut tiles = wall.remaining_tiles().to_vec();
        tiles.sort();
        if tiles != full_set(ruleset.config()) {
            return Err(SetupError::Wall(WallError(
                "the wall must be whole, as Wall::from_order makes it".into(),
            )));
        }
        let mut events = Vec::with_capacity(64);
        Self::started(&ruleset, &setup, &mut events);
        let game = Self::deal(ruleset, setup, wall, &mut rng, &mut events);
        Ok((game, events))
    }

    fn check_setup(ruleset: &Ruleset, setup: &HandSetup) -> Result<ChaCha8Rng, SetupError> {
        let n = ruleset.players();
        if setup.dealer.index() >= n {
            return Err(SetupError::NoSuchDealer {
                dealer: setup.dealer,
                players: n,
            });
        }
        if setup.lao == 0 {
            return Err(SetupError::ZeroLao);
        }
        if let Some(b) = &setup.balances {
            if b.len() != n {
                return Err(SetupError::Balances {
                    given: b.len(),
                    players: n,
                });
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        rng.set_stream(u64::from(setup.hand_number));
        Ok(rng)
    }

    fn started(ruleset: &Ruleset, setup: &HandSetup, events: &mut Vec<Event>) {
        let n = ruleset.players();
        let order = ruleset.seats();
        let seats = (0..n)
            .map(|p| order[(p + n - setup.dealer.index()) % n])
            .collect();
        events.push(Event::HandStarted {
            hand_number: setup.hand_number,
            dealer: setup.dealer,
            prevailing_wind: setup.prevailing_wind,
            lao: setup.lao,
            seats,
        });
    }

    fn deal(
        ruleset: Arc<Ruleset>,
        setup: HandSetup,
        mut wall: Wall,
        rng: &mut ChaCha8Rng,
        events: &mut Vec<Event>,
    ) -> Game {
        let config = *ruleset.config();
        let n = ruleset.players();
        let dealer = setup.dealer.index();
        let hand = Hand {
            concealed: TileCounts::EMPTY,
            screen: Screen::default(),
            melds: Vec::with_capacity(4),
            flowers: Vec::new(),
            discards: Vec::with_capacity(32),
            gambit_run: 0,
        };
        let mut hands = vec![hand; n];
        let mut bonus: Vec<Vec<Tile>> = vec![Vec::new(); n];
        let mut last_to_dealer = None;
        let blocks = usize::from(config.hand_size) / 4;
        let rest = usize::from(config.hand_size) % 4;
        let mut give = |p: usize, count: usize, wall: &mut Wall, events: &mut Vec<Event>| {
            let mut tiles = Vec::with_capacity(count);
            for _ in 0..count {
                let Some(t) = wall.draw() else { break };
                tiles.push(t);
                if t.is_bonus() {
                    bonus[p].push(t);
                } else {
                    hands[p].add(t);
                }
                if p == dealer {
                    last_to_dealer = Some(t);
                }
            }
            events.push(Event::TilesDealt {
                player: Player(p as u8),
                count: tiles.len() as u8,
                tiles: Some(tiles),
            });
        };
        for _ in 0..blocks {
            for k in 0..n {
                give((dealer + k) % n, 4, &mut wall, events);
            }
        }
        for k in 0..n {
            give(
                (dealer + k) % n,
                rest + usize::from(k == 0),
                &mut wall,
                events,
            );
        }
        let mut wild = match config.wildcard {
            WildcardRule::None => None,
            WildcardRule::Fixed(t) => Some(t),
            WildcardRule::Indicator => None,
        };
        let mut indicator = None;
        if config.wildcard == WildcardRule::Indicator {
            let dice = roll(rng, 2);
            let total: usize = dice.iter().map(|&d| usize::from(d)).sum();
            events.push(Event::DiceRolled {
                by: setup.dealer,
                dice,
                purpose: DicePurpose::Indicator,
            });
            if let Some(t) = wall.take_from_back(total) {
                events.push(Event::IndicatorRevealed {
                    tile: t,
                    wildcard: t,
                    from_back: total as u8,
                });
                indicator = Some(t);
                wild = Some(t);
            }
        }
        let order = ruleset.seats();
        let mut seats = [Seat::East; MAX_PLAYERS];
        for (p, seat) in seats.iter_mut().enumerate().take(n) {
            *seat = order[(p + n - dealer) % n];
        }
        let mut game = Game {
            hand_rules: ruleset.hand_rules(wild),
            seats,
            ruleset,
            n: n as u8,
            wild,
            indicator,
            wall,
            hands,
            phase: Phase::Over,
            gambit_round: None,
            last_discard: None,
            outcome: None,
            setup,
        };
        // Flowers in the dealt hands, dealer first.
        for k in 0..n {
            let p = (dealer + k) % n;
            let list = std::mem::take(&mut bonus[p]);
            for f in list {
                match game.replace_flower(Player(p as u8), f, events) {
                    Some(t) => {
                        game.hands[p].add(t);
                        if p == dealer {
                            last_to_dealer = Some(t);
                        }
                    }
                    None => {
                        game.exhaustive_draw(events);
                        return game;
                    }
                }
            }
        }
        let dealer = game.setup.dealer;
        game.enter_turn(dealer, last_to_dealer, TileSource::Deal, 0, false);
        game
    }

    /// Lays out bonus tile `f` and draws replacements until a playing tile comes; `None` if the
    /// wall has run out.
    fn replace_flower(&mut self, p: Player, mut f: Tile, events: &mut Vec<Event>) -> Option<Tile> {
        loop {
            events.push(Event::FlowerDeclared { player: p, tile: f });
            self.hands[p.index()].flowers.push(f);
            let t = self.wall.draw_replacement()?;
            events.push(Event::ReplacementDrawn {
                player: p,
                tile: Some(t),
            });
            if !t.is_bonus() {
                return Some(t);
            }
            f = t;
        }
    }

    // ----- reading the state -----

    /// The rule set.
    pub fn ruleset(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }

    /// The hand's setup.
    pub fn setup(&self) -> &HandSetup {
        &self.setup
    }

    /// Players at the table.
    pub fn players(&self) -> usize {
        usize::from(self.n)
    }

    /// The dealer.
    pub fn dealer(&self) -> Player {
        self.setup.dealer
    }

    /// The seat wind of `p` this hand (the dealer is East, then turn order).
    pub fn seat_of(&self, p: Player) -> Seat {
        self.seats.get(p.index()).copied().unwrap_or(Seat::East)
    }

    /// The player at seat `seat` this hand, if the table has that seat.
    pub fn player_at(&self, seat: Seat) -> Option<Player> {
        let n = self.players();
        let i = self.ruleset.seats().iter().position(|&s| s == seat)?;
        Some(Player(((self.setup.dealer.index() + i) % n) as u8))
    }

    /// The wild kind, if the rule set has wildcards.
    pub fn wildcard(&self) -> Option<Tile> {
        self.wild
    }

    /// The face-up wildcard indicator (Hangzhou `indicator`).
    pub fn indicator(&self) -> Option<Tile> {
        self.indicator
    }

    /// Tiles left to draw from the live wall.
    pub fn live_remaining(&self) -> usize {
        self.wall.live_remaining()
    }

    /// The winning shapes and the wildcard, as hand analysis needs them (e.g.
    /// [`crate::analysis::shanten`]).
    pub fn hand_rules(&self) -> &HandRules {
        &self.hand_rules
    }

    /// The latest discard of the hand and who made it (claimed or not).
    pub fn last_discard(&self) -> Option<(Player, Tile)> {
        self.last_discard
    }

    /// The wall (the full truth; never show it to a player).
    pub fn wall(&self) -> &Wall {
        &self.wall
    }

    /// `p`'s concealed tiles (the full truth; a player should see only their own, through
    /// [`Game::observation`]). Like the other per-player accessors, empty for a player not at
    /// the table.
    pub fn concealed(&self, p: Player) -> &TileCounts {
        self.hands
            .get(p.index())
            .map_or(&TileCounts::EMPTY, |h| &h.concealed)
    }

    /// `p`'s declared melds (their `from` is the discarder's seat).
    pub fn melds(&self, p: Player) -> &[Meld] {
        self.hands.get(p.index()).map_or(&[], |h| &h.melds)
    }

    /// `p`'s flowers and seasons laid out.
    pub fn flowers(&self, p: Player) -> &[Tile] {
        self.hands.get(p.index()).map_or(&[], |h| &h.flowers)
    }

    /// `p`'s discards in order.
    pub fn discards(&self, p: Player) -> &[DiscardRecord] {
        self.hands.get(p.index()).map_or(&[], |h| &h.discards)
    }

    /// Fortune Gambits in `p`'s current run (Hangzhou).
    pub fn gambit_run(&self, p: Player) -> u8 {
        self.hands.get(p.index()).map_or(0, |h| h.gambit_run)
    }

    /// A wildcard discard has opened a Fortune Gambit round: no claims until that player's
    /// next draw. The player who opened it.
    pub fn gambit_round(&self) -> Option<Player> {
        self.gambit_round
    }

    /// The player whose turn it is (to discard, kong or win), if it is someone's turn.
    pub fn turn(&self) -> Option<Player> {
        match self.phase {
            Phase::Turn { player, .. } => Some(player),
            _ => None,
        }
    }

    /// The tile the player on turn last drew (or was dealt last), if any.
    pub fn drawn(&self) -> Option<Tile> {
        match self.phase {
            Phase::Turn { drawn, source, .. } if source != TileSource::Claim => drawn,
            _ => None,
        }
    }

    /// The discard (or added-kong tile) on offer now, and whose it is.
    pub fn on_offer(&self) -> Option<(Player, Tile)> {
        match self.phase {
            Phase::Claims {
                discarder, tile, ..
            } => Some((discarder, tile)),
            Phase::Robbing { konger, tile, .. } => Some((konger, tile)),
            _ => None,
        }
    }

    /// True once the hand has ended.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// How the hand ended, once it has.
    pub fn outcome(&self) -> Option<&HandOutcome> {
        self.outcome.as_ref()
    }

    /// Who must decide now: the player on turn, or everyone who can claim the tile on offer
    /// and has not answered yet. Empty once the hand is over.
    pub fn to_act(&self) -> Actors {
        match &self.phase {
            Phase::Turn { player, .. } => Actors(1 << player.0),
            Phase::Claims { pending, .. } | Phase::Robbing { pending, .. } => Actors(*pending),
            Phase::Over => Actors(0),
        }
    }

    /// True if discarding `tile` now would be a Fortune Gambit for `p` (a wildcard discarded
    /// in the Bao Tou state).
    pub fn is_gambit_discard(&self, p: Player, tile: Tile) -> bool {
        if p.index() >= self.players() || tile.is_bonus() {
            return false;
        }
        if !self.ruleset.config().fortune_gambit || Some(tile) != self.wild {
            return false;
        }
        if self.turn() != Some(p) {
            return false;
        }
        let h = &self.hands[p.index()];
        if h.concealed.get(tile) < 2 {
            return false;
        }
        let mut rest = h.concealed;
        rest.remove(tile);
        bao_tou_state(&rest, &self.hand_rules)
    }

    // ----- legal actions -----

    /// The actions legal for `p` now (empty iff `p` has nothing to decide).
    pub fn legal_actions(&self, p: Player) -> Vec<Action> {
        let mut v = Vec::with_capacity(16);
        self.legal_actions_into(p, &mut v);
        v
    }

    /// [`Game::legal_actions`] into a caller's buffer (cleared first): no allocation once the
    /// buffer has grown.
    pub fn legal_actions_into(&self, p: Player, out: &mut Vec<Action>) {
        out.clear();
        if p.index() >= self.players() {
            return;
        }
        match &self.phase {
            Phase::Over => {}
            Phase::Turn {
                player,
                drawn,
                source,
                can_win,
                ..
            } => {
                if *player != p {
                    return;
                }
                let h = &self.hands[p.index()];
                if *can_win {
                    out.push(Action::Win);
                }
                let restricted = *source != TileSource::Claim && h.gambit_run > 0;
                let kongs = *source != TileSource::Claim
                    && self.ruleset.config().kongs_allowed
                    && self.wall.can_replace();
                let wild = self.wild.map_or(usize::MAX, Tile::index);
                let counts = &h.concealed.0;
                if kongs {
                    if h.screen.has_four() {
                        for (i, &n) in counts.iter().enumerate() {
                            if n == 4 && i != wild {
                                out.push(Action::ConcealedKong(tile_at(i)));
                            }
                        }
                    }
                    if !restricted {
                        for m in &h.melds {
                            if m.kind == MeldKind::Pung
                                && counts[m.tile.index()] > 0
                                && m.tile.index() != wild
                            {
                                out.push(Action::AddedKong(m.tile));
                            }
                        }
                    }
                }
                match (restricted, drawn) {
                    (true, Some(d)) => out.push(Action::Discard(*d)),
                    _ => {
                        // Branch-free compaction: which kinds are held is unpredictable.
                        let mut buf = [Action::Pass; KINDS];
                        let mut k = 0;
                        for (i, &n) in counts.iter().enumerate() {
                            buf[k] = Action::Discard(TILES[i]);
                            k += usize::from(n > 0);
                        }
                        out.extend_from_slice(&buf[..k]);
                    }
                }
            }
            Phase::Claims {
                tile,
                options,
                answers,
                pending,
                ..
            } => {
                if pending & (1 << p.0) == 0 || answers[p.index()].is_some() {
                    return;
                }
                let o = options[p.index()];
                if o.win {
                    out.push(Action::Win);
                }
                if o.kong {
                    out.push(Action::Kong);
                }
                if o.pung {
                    out.push(Action::Pung);
                }
                for bit in 0..3u8 {
                    if o.chows & (1 << bit) != 0 {
                        out.push(Action::Chow {
                            tiles: chow_tiles(*tile, bit),
                        });
                    }
                }
                out.push(Action::Pass);
            }
            Phase::Robbing { pending, .. } => {
                if pending & (1 << p.0) != 0 {
                    out.push(Action::Win);
                    out.push(Action::Pass);
                }
            }
        }
    }

    /// Checks an action without applying it: `Ok` iff it is in [`Game::legal_actions`].
    pub fn check(&self, p: Player, action: Action) -> Result<(), ActionError> {
        if self.is_over() {
            return Err(ActionError::HandOver);
        }
        if p.index() >= self.players() {
            return Err(ActionError::NoSuchPlayer {
                player: p,
                players: self.players(),
            });
        }
        if !self.to_act().contains(p) {
            let waiting = self
                .to_act()
                .map(|q| q.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            return Err(ActionError::NotYourTurn { player: p, waiting });
        }
        let illegal = |reason: &str| {
            Err(ActionError::Illegal {
                player: p,
                action,
                reason: reason.to_string(),
            })
        };
        match &self.phase {
            Phase::Over => Err(ActionError::HandOver),
            Phase::Turn {
                drawn,
                source,
                can_win,
                ..
            } => {
                let h = &self.hands[p.index()];
                let restricted = *source != TileSource::Claim && h.gambit_run > 0;
                let kong_ok = *source != TileSource::Claim
                    && self.ruleset.config().kongs_allowed
                    && self.wall.can_replace();
                match action {
                    Action::Win if *can_win => Ok(()),
                    Action::Win => illegal("the hand does not win (or does not score enough)"),
                    Action::Discard(t) => {
                        if t.is_bonus() || h.concealed.get(t) == 0 {
                            illegal("that tile is not in the hand")
                        } else if restricted && *drawn != Some(t) {
                            illegal(
                                "after a Fortune Gambit only the tile just drawn may be discarded",
                            )
                        } else {
                            Ok(())
                        }
                    }
                    Action::ConcealedKong(t) => {
                        if !kong_ok {
                            illegal("no kong now (just claimed, no kongs, or no replacement tile)")
                        } else if t.is_bonus() || h.concealed.get(t) != 4 {
                            illegal("a concealed kong needs four of the kind in hand")
                        } else if Some(t) == self.wild {
                            illegal("wildcards never count toward a kong")
                        } else {
                            Ok(())
                        }
                    }
                    Action::AddedKong(t) => {
                        if !kong_ok || restricted {
                            illegal("no kong now")
                        } else if t.is_bonus()
                            || h.concealed.get(t) == 0
                            || !h
                                .melds
                                .iter()
                                .any(|m| m.kind == MeldKind::Pung && m.tile == t)
                        {
                            illegal(
                                "an added kong needs an exposed pung of the kind and the fourth tile in hand",
                            )
                        } else if Some(t) == self.wild {
                            illegal("wildcards never count toward a kong")
                        } else {
                            Ok(())
                        }
                    }
                    _ => illegal("it is your turn: discard, kong or win"),
                }
            }
            Phase::Claims {
                tile,
                options,
                answers,
                ..
            } => {
                if answers[p.index()].is_some() {
                    return illegal("already answered");
                }
                let o = options[p.index()];
                match action {
                    Action::Pass => Ok(()),
                    Action::Win if o.win => Ok(()),
                    Action::Pung if o.pung => Ok(()),
                    Action::Kong if o.kong => Ok(()),
                    Action::Chow { tiles } => {
                        if (0..3).any(|b| o.chows & (1 << b) != 0 && chow_tiles(*tile, b) == tiles)
                        {
                            Ok(())
                        } else {
                            illegal(
                                "no such chow with this discard (only the left neighbour's discard, with the other two tiles in hand)",
                            )
                        }
                    }
                    Action::Win => illegal("this discard does not win for you here"),
                    Action::Pung => illegal("a pung needs two of the kind in hand"),
                    Action::Kong => illegal("an exposed kong needs three of the kind in hand"),
                    _ => illegal("someone's discard is on offer: claim it or pass"),
                }
            }
            Phase::Robbing { answers, .. } => {
                if answers[p.index()].is_some() {
                    illegal("already answered")
                } else if matches!(action, Action::Win | Action::Pass) {
                    Ok(())
                } else {
                    illegal("an added kong is on offer: rob it (win) or pass")
                }
            }
        }
    }

    // ----- applying actions -----

    /// Applies `p`'s action and returns the events it caused; a refused action is a typed
    /// error and leaves the game untouched.
    pub fn apply(&mut self, p: Player, action: Action) -> Result<Vec<Event>, ActionError> {
        let mut events = Vec::new();
        self.apply_into(p, action, &mut events)?;
        Ok(events)
    }

    /// [`Game::apply`] appending the events to a caller's buffer.
    pub fn apply_into(
        &mut self,
        p: Player,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check(p, action)?;
        match self.phase.clone() {
            Phase::Over => return Err(ActionError::HandOver),
            Phase::Turn {
                drawn,
                source,
                kong_chain,
                last_wall,
                ..
            } => match action {
                Action::Win => {
                    let tile = drawn.unwrap_or(Tile::EAST);
                    let ctx = WinContext {
                        win: WinKind::SelfDraw,
                        tile,
                        discarder: None,
                        source,
                        kong_chain,
                        last: last_wall,
                    };
                    self.finish_win(p, ctx, events)?;
                }
                Action::Discard(t) => self.discard(p, t, events),
                Action::ConcealedKong(t) => {
                    let h = &mut self.hands[p.index()];
                    h.take(t, 4);
                    h.melds.push(Meld {
                        kind: MeldKind::ConcealedKong,
                        tile: t,
                        from: None,
                        claimed: None,
                    });
                    events.push(Event::KongDeclared {
                        player: p,
                        kind: KongKind::Concealed,
                        tile: t,
                    });
                    self.replacement(p, kong_chain + 1, events);
                }
                Action::AddedKong(t) => {
                    events.push(Event::KongDeclared {
                        player: p,
                        kind: KongKind::Added,
                        tile: t,
                    });
                    let mut pending = 0u8;
                    for q in self.others(p) {
                        if self.robbing_win_ok(q, p, t) {
                            pending |= 1 << q.0;
                        }
                    }
                    if pending == 0 {
                        self.complete_added_kong(p, t, kong_chain, events);
                    } else {
                        self.phase = Phase::Robbing {
                            konger: p,
                            tile: t,
                            kong_chain,
                            answers: [None; MAX_PLAYERS],
                            pending,
                        };
                    }
                }
                _ => unreachable!("checked"),
            },
            Phase::Claims {
                discarder,
                tile,
                last_discard,
                mut answers,
                pending,
                options,
            } => {
                answers[p.index()] = Some(action);
                let pending = pending & !(1 << p.0);
                if pending != 0 {
                    self.phase = Phase::Claims {
                        discarder,
                        tile,
                        last_discard,
                        options,
                        answers,
                        pending,
                    };
                } else {
                    self.resolve_claims(discarder, tile, last_discard, &answers, events)?;
                }
            }
            Phase::Robbing {
                konger,
                tile,
                kong_chain,
                mut answers,
                pending,
            } => {
                answers[p.index()] = Some(action);
                let pending = pending & !(1 << p.0);
                if pending != 0 {
                    self.phase = Phase::Robbing {
                        konger,
                        tile,
                        kong_chain,
                        answers,
                        pending,
                    };
                } else {
                    let robber = self
                        .after(konger)
                        .find(|q| answers[q.index()] == Some(Action::Win));
                    match robber {
                        Some(q) => {
                            let ctx = WinContext {
                                win: WinKind::RobbingKong,
                                tile,
                                discarder: Some(konger),
                                source: TileSource::Claim,
                                kong_chain: 0,
                                last: false,
                            };
                            self.finish_win(q, ctx, events)?;
                        }
                        None => self.complete_added_kong(konger, tile, kong_chain, events),
                    }
                }
            }
        }
        Ok(())
    }

    /// The other players in turn order after `p`.
    fn after(&self, p: Player) -> impl Iterator<Item = Player> + use<> {
        let n = self.n;
        (1..n).map(move |k| {
            let q = p.0 + k;
            Player(if q >= n { q - n } else { q })
        })
    }

    fn others(&self, p: Player) -> impl Iterator<Item = Player> + use<> {
        self.after(p)
    }

    fn next_player(&self, p: Player) -> Player {
        let q = p.0 + 1;
        Player(if q >= self.n { 0 } else { q })
    }

    fn enter_turn(
        &mut self,
        player: Player,
        drawn: Option<Tile>,
        source: TileSource,
        kong_chain: u8,
        last_wall: bool,
    ) {
        let can_win = match (source, drawn) {
            (TileSource::Claim, _) | (_, None) => false,
            (_, Some(tile)) => {
                let ctx = WinContext {
                    win: WinKind::SelfDraw,
                    tile,
                    discarder: None,
                    source,
                    kong_chain,
                    last: last_wall,
                };
                let h = &self.hands[player.index()];
                h.screen.may_complete(&h.concealed, None, &self.hand_rules)
                    && is_complete(&h.concealed, &self.hand_rules)
                    && self.score_win(player, &ctx).is_ok()
            }
        };
        self.phase = Phase::Turn {
            player,
            drawn,
            source,
            kong_chain,
            last_wall,
            can_win,
        };
    }

    fn discard(&mut self, p: Player, t: Tile, events: &mut Vec<Event>) {
        let gambit = self.is_gambit_discard(p, t);
        let wildcard = self.ruleset.config().fortune_gambit && Some(t) == self.wild;
        let h = &mut self.hands[p.index()];
        h.take(t, 1);
        h.discards.push(DiscardRecord {
            tile: t,
            claimed: false,
            gambit,
        });
        if gambit {
            h.gambit_run = h.gambit_run.saturating_add(1);
        } else {
            h.gambit_run = 0;
        }
        events.push(Event::Discarded {
            player: p,
            tile: t,
            wildcard,
            gambit,
        });
        self.last_discard = Some((p, t));
        if wildcard {
            self.gambit_round = Some(p);
        }
        let last_discard = self.wall.live_remaining() == 0;
        let mut options = [ClaimOptions::default(); MAX_PLAYERS];
        let mut pending = 0u8;
        if self.gambit_round.is_none() && Some(t) != self.wild {
            for q in self.others(p) {
                let o = self.claim_options(q, p, t, last_discard);
                if o.any() {
                    pending |= 1 << q.0;
                    options[q.index()] = o;
                }
            }
        }
        if pending == 0 {
            self.draw_for(self.next_player(p), events);
        } else {
            self.phase = Phase::Claims {
                discarder: p,
                tile: t,
                last_discard,
                options,
                answers: [None; MAX_PLAYERS],
                pending,
            };
        }
    }

    fn claim_options(&self, q: Player, d: Player, t: Tile, last_discard: bool) -> ClaimOptions {
        let config = *self.ruleset.config();
        let h = &self.hands[q.index()];
        let n = h.concealed.get(t);
        let mut o = ClaimOptions {
            pung: n >= 2,
            kong: n >= 3 && config.kongs_allowed && self.wall.can_replace(),
            ..ClaimOptions::default()
        };
        if config.chow_allowed && self.next_player(d) == q && t.is_numbered() {
            let r = t.rank();
            let has = |k: usize| {
                let x = tile_at(k);
                Some(x) != self.wild && h.concealed.get(x) > 0
            };
            let i = t.index();
            // bit 0: t is the top (t-2, t-1); bit 1: middle; bit 2: bottom.
            if r >= 3 && has(i - 2) && has(i - 1) {
                o.chows |= 1;
            }
            if (2..=8).contains(&r) && has(i - 1) && has(i + 1) {
                o.chows |= 2;
            }
            if r <= 7 && has(i + 1) && has(i + 2) {
                o.chows |= 4;
            }
        }
        let seat_q = self.seat_of(q);
        let seat_d = self.seat_of(d);
        if self
            .ruleset
            .may_win_on_discard(seat_q, seat_d, self.setup.lao)
        {
            let mut full = h.concealed;
            full.add(t);
            if h.screen
                .may_complete(&h.concealed, Some(t), &self.hand_rules)
                && is_complete(&full, &self.hand_rules)
            {
                let ctx = WinContext {
                    win: WinKind::Discard,
                    tile: t,
                    discarder: Some(d),
                    source: TileSource::Claim,
                    kong_chain: 0,
                    last: last_discard,
                };
                o.win = self.score_win(q, &ctx).is_ok();
            }
        }
        o
    }

    fn robbing_win_ok(&self, q: Player, konger: Player, t: Tile) -> bool {
        if !self
            .ruleset
            .may_rob_kong(self.seat_of(q), self.seat_of(konger))
        {
            return false;
        }
        let h = &self.hands[q.index()];
        let mut full = h.concealed;
        full.add(t);
        if !h
            .screen
            .may_complete(&h.concealed, Some(t), &self.hand_rules)
            || !is_complete(&full, &self.hand_rules)
        {
            return false;
        }
        let ctx = WinContext {
            win: WinKind::RobbingKong,
            tile: t,
            discarder: Some(konger),
            source: TileSource::Claim,
            kong_chain: 0,
            last: false,
        };
        self.score_win(q, &ctx).is_ok()
    }

    fn resolve_claims(
        &mut self,
        d: Player,
        tile: Tile,
        last_discard: bool,
        answers: &[Option<Action>; MAX_PLAYERS],
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let order: Vec<Player> = self.after(d).collect();
        let pick = |pred: &dyn Fn(&Action) -> bool| {
            order
                .iter()
                .copied()
                .find(|q| answers[q.index()].as_ref().is_some_and(pred))
        };
        if let Some(q) = pick(&|a| *a == Action::Win) {
            let ctx = WinContext {
                win: WinKind::Discard,
                tile,
                discarder: Some(d),
                source: TileSource::Claim,
                kong_chain: 0,
                last: last_discard,
            };
            return self.finish_win(q, ctx, events);
        }
        let claim = pick(&|a| matches!(a, Action::Pung | Action::Kong))
            .or_else(|| pick(&|a| matches!(a, Action::Chow { .. })));
        let Some(q) = claim else {
            self.draw_for(self.next_player(d), events);
            return Ok(());
        };
        let action = answers[q.index()].unwrap_or(Action::Pass);
        let from = self.seat_of(d);
        if let Some(rec) = self.hands[d.index()].discards.last_mut() {
            rec.claimed = true;
        }
        let h = &mut self.hands[q.index()];
        h.gambit_run = 0;
        let meld = match action {
            Action::Pung => {
                h.take(tile, 2);
                Meld {
                    kind: MeldKind::Pung,
                    tile,
                    from: Some(from),
                    claimed: Some(tile),
                }
            }
            Action::Kong => {
                h.take(tile, 3);
                Meld {
                    kind: MeldKind::Kong,
                    tile,
                    from: Some(from),
                    claimed: Some(tile),
                }
            }
            Action::Chow { tiles } => {
                for x in tiles {
                    if x != tile {
                        h.take(x, 1);
                    }
                }
                Meld {
                    kind: MeldKind::Chow,
                    tile: tiles[0],
                    from: Some(from),
                    claimed: Some(tile),
                }
            }
            _ => unreachable!("a claim"),
        };
        h.melds.push(meld);
        events.push(Event::Claimed {
            player: q,
            from: d,
            tile,
            meld,
        });
        if action == Action::Kong {
            events.push(Event::KongDeclared {
                player: q,
                kind: KongKind::Exposed,
                tile,
            });
            self.replacement(q, 1, events);
        } else {
            self.enter_turn(q, None, TileSource::Claim, 0, false);
        }
        Ok(())
    }

    fn complete_added_kong(&mut self, p: Player, t: Tile, chain: u8, events: &mut Vec<Event>) {
        let h = &mut self.hands[p.index()];
        h.take(t, 1);
        if let Some(m) = h
            .melds
            .iter_mut()
            .find(|m| m.kind == MeldKind::Pung && m.tile == t)
        {
            m.kind = MeldKind::Kong;
        }
        self.replacement(p, chain + 1, events);
    }

    fn replacement(&mut self, p: Player, chain: u8, events: &mut Vec<Event>) {
        let Some(mut t) = self.wall.draw_replacement() else {
            self.exhaustive_draw(events);
            return;
        };
        events.push(Event::ReplacementDrawn {
            player: p,
            tile: Some(t),
        });
        if t.is_bonus() {
            match self.replace_flower(p, t, events) {
                Some(x) => t = x,
                None => {
                    self.exhaustive_draw(events);
                    return;
                }
            }
        }
        self.hands[p.index()].add(t);
        self.enter_turn(p, Some(t), TileSource::KongReplacement, chain, false);
    }

    fn draw_for(&mut self, p: Player, events: &mut Vec<Event>) {
        if self.gambit_round == Some(p) {
            self.gambit_round = None;
        }
        let Some(mut t) = self.wall.draw() else {
            self.exhaustive_draw(events);
            return;
        };
        events.push(Event::Drew {
            player: p,
            tile: Some(t),
        });
        let mut source = TileSource::Wall;
        if t.is_bonus() {
            source = TileSource::FlowerReplacement;
            match self.replace_flower(p, t, events) {
                Some(x) => t = x,
                None => {
                    self.exhaustive_draw(events);
                    return;
                }
            }
        }
        let last_wall = source == TileSource::Wall && self.wall.live_remaining() == 0;
        self.hands[p.index()].add(t);
        self.enter_turn(p, Some(t), source, 0, last_wall);
    }

    fn exhaustive_draw(&mut self, events: &mut Vec<Event>) {
        events.push(Event::ExhaustiveDraw);
        events.push(Event::HandEnded {
            payments: vec![0; self.players()],
        });
        self.outcome = Some(HandOutcome::ExhaustiveDraw);
        self.phase = Phase::Over;
    }

    fn finish_win(
        &mut self,
        p: Player,
        ctx: WinContext,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let situation = self.situation(p, &ctx);
        let scored = self
            .ruleset
            .score(&situation)
            .map_err(|e| ActionError::Illegal {
                player: p,
                action: Action::Win,
                reason: e.0,
            })?;
        let payments = self.payments_by_player(&scored);
        match ctx.win {
            WinKind::SelfDraw => {}
            WinKind::Discard => {
                if let Some(d) = ctx.discarder {
                    if let Some(rec) = self.hands[d.index()].discards.last_mut() {
                        rec.claimed = true;
                    }
                }
                self.hands[p.index()].add(ctx.tile);
            }
            WinKind::RobbingKong => {
                if let Some(k) = ctx.discarder {
                    self.hands[k.index()].take(ctx.tile, 1);
                    events.push(Event::KongRobbed {
                        player: p,
                        from: k,
                        tile: ctx.tile,
                    });
                }
                self.hands[p.index()].add(ctx.tile);
            }
        }
        let score = PlayerScore {
            patterns: scored.patterns,
            total: scored.total,
            payments: payments.clone(),
        };
        events.push(Event::Won {
            player: p,
            win: ctx.win,
            discarder: ctx.discarder,
            tile: ctx.tile,
            hand: self.hands[p.index()].concealed.tiles(),
            scored: score.clone(),
        });
        events.push(Event::HandEnded {
            payments: payments.clone(),
        });
        self.outcome = Some(HandOutcome::Win {
            winner: p,
            win: ctx.win,
            discarder: ctx.discarder,
            tile: ctx.tile,
            scored: score,
            dealer_won: p == self.setup.dealer,
            gambits: situation.gambits,
            kong_chain: situation.kong_chain,
        });
        self.phase = Phase::Over;
        Ok(())
    }

    fn payments_by_player(&self, scored: &Scored) -> Vec<i64> {
        let mut v = vec![0; self.players()];
        for (seat, amount) in &scored.payments {
            if let Some(p) = self.player_at(*seat) {
                v[p.index()] = *amount;
            }
        }
        v
    }

    fn score_win(&self, p: Player, ctx: &WinContext) -> Result<Scored, Invalid> {
        self.ruleset.score(&self.situation(p, ctx))
    }

    // ----- the win situation -----

    /// The [`WinSituation`] that scoring would see if `p` declared a win now: self-drawn on
    /// their turn, on the discard on offer, or robbing the added kong on offer. `None` if `p`
    /// has no tile to win with now.
    pub fn win_situation(&self, p: Player) -> Option<WinSituation> {
        if p.index() >= self.players() {
            return None;
        }
        let ctx = match self.phase {
            Phase::Turn {
                player,
                drawn: Some(tile),
                source,
                kong_chain,
                last_wall,
                ..
            } if player == p && source != TileSource::Claim => WinContext {
                win: WinKind::SelfDraw,
                tile,
                discarder: None,
                source,
                kong_chain,
                last: last_wall,
            },
            Phase::Claims {
                discarder,
                tile,
                last_discard,
                ..
            } if discarder != p => WinContext {
                win: WinKind::Discard,
                tile,
                discarder: Some(discarder),
                source: TileSource::Claim,
                kong_chain: 0,
                last: last_discard,
            },
            Phase::Robbing { konger, tile, .. } if konger != p => WinContext {
                win: WinKind::RobbingKong,
                tile,
                discarder: Some(konger),
                source: TileSource::Claim,
                kong_chain: 0,
                last: false,
            },
            _ => return None,
        };
        Some(self.situation(p, &ctx))
    }

    fn situation(&self, p: Player, ctx: &WinContext) -> WinSituation {
        let h = &self.hands[p.index()];
        let self_draw = ctx.win == WinKind::SelfDraw;
        let mut concealed = h.concealed;
        if self_draw {
            concealed.remove(ctx.tile);
        }
        let dealer = self.setup.dealer;
        let no_melds = self.hands.iter().all(|x| x.melds.is_empty());
        let circumstances = Circumstances {
            last_wall_tile: self_draw && ctx.last,
            last_discard: ctx.win == WinKind::Discard && ctx.last,
            kong_replacement: self_draw
                && matches!(
                    ctx.source,
                    TileSource::KongReplacement | TileSource::FlowerReplacement
                ),
            heavenly: self_draw && p == dealer && ctx.source == TileSource::Deal,
            earthly: ctx.win == WinKind::Discard
                && ctx.discarder == Some(dealer)
                && p != dealer
                && no_melds
                && self.hands[dealer.index()].discards.len() == 1
                && self.hands.iter().all(|x| x.discards.len() <= 1),
        };
        let kong_chain = if self_draw && ctx.source == TileSource::KongReplacement {
            ctx.kong_chain
        } else {
            0
        };
        let mut others = BTreeMap::new();
        for q in self.others(p) {
            let o = &self.hands[q.index()];
            let mut c = o.concealed;
            if ctx.win == WinKind::RobbingKong && Some(q) == ctx.discarder {
                c.remove(ctx.tile);
            }
            others.insert(
                self.seat_of(q),
                OtherHand {
                    concealed: c,
                    melds: o.melds.clone(),
                    flowers: o.flowers.clone(),
                },
            );
        }
        WinSituation {
            concealed,
            melds: h.melds.clone(),
            winning_tile: ctx.tile,
            win: ctx.win,
            discarder: ctx.discarder.map(|d| self.seat_of(d)),
            seat: self.seat_of(p),
            dealer: Seat::East,
            prevailing_wind: self.setup.prevailing_wind,
            flowers: h.flowers.clone(),
            circumstances,
            kong_chain,
            gambits: if self_draw { h.gambit_run } else { 0 },
            lao: self.setup.lao,
            wildcard: if self.ruleset.config().fortune_gambit {
                self.wild
            } else {
                None
            },
            balances: self.setup.balances.as_ref().map(|b| {
                b.iter()
                    .enumerate()
                    .map(|(i, &x)| (self.seat_of(Player(i as u8)), x))
                    .collect()
            }),
            others,
            seats: self.ruleset.seats().to_vec(),
        }
    }

    // ----- invariants -----

    /// Checks the engine's invariants: every tile of the set is somewhere exactly once (wall,
    /// indicator, hands, melds, unclaimed discards, flowers), and every hand holds its size:
    /// 13 + one tile on turn, kongs counted as three. `Err` says what is wrong.
    pub fn check_invariants(&self) -> Result<(), String> {
        let config = self.ruleset.config();
        let mut count = [0u16; 42];
        for &t in self.wall.remaining_tiles() {
            count[t.index()] += 1;
        }
        if let Some(t) = self.indicator {
            count[t.index()] += 1;
        }
        for (i, h) in self.hands.iter().enumerate() {
            for (t, n) in h.concealed.iter() {
                count[t.index()] += u16::from(n);
            }
            for m in &h.melds {
                let tiles = m.tiles();
                for t in tiles {
                    count[t.index()] += 1;
                }
            }
            for d in &h.discards {
                if !d.claimed {
                    count[d.tile.index()] += 1;
                }
            }
            for f in &h.flowers {
                count[f.index()] += 1;
            }
            if h.screen != Screen::of(&h.concealed) {
                return Err(format!("player {i}: screen statistics out of date"));
            }
            let size = h.concealed.len() + 3 * h.melds.len();
            let on_turn = match &self.phase {
                Phase::Turn { player, .. } => player.index() == i,
                Phase::Robbing { konger, .. } => konger.index() == i,
                Phase::Over => match &self.outcome {
                    Some(HandOutcome::Win { winner, .. }) => winner.index() == i,
                    _ => size == usize::from(config.hand_size) + 1,
                },
                Phase::Claims { .. } => false,
            };
            let want = usize::from(config.hand_size) + usize::from(on_turn);
            if size != want {
                return Err(format!(
                    "player {i} holds {size} (kongs as three), expected {want}: {} {:?}",
                    h.concealed, h.melds
                ));
            }
        }
        let mut want = [0u16; 42];
        for t in full_set(config) {
            want[t.index()] += 1;
        }
        if count != want {
            let diff: Vec<String> = (0..42)
                .filter(|&i| count[i] != want[i])
                .map(|i| format!("{}: {} of {}", tile_at(i), count[i], want[i]))
                .collect();
            return Err(format!("tiles not conserved: {}", diff.join(", ")));
        }
        Ok(())
    }
}

/// The tiles of the chow for bit `bit` of [`ClaimOptions::chows`] with `t` claimed.
fn chow_tiles(t: Tile, bit: u8) -> [Tile; 3] {
    let low = t.index() + usize::from(bit) - 2;
    [tile_at(low), tile_at(low + 1), tile_at(low + 2)]
}

/// How a win came about, for building its situation.
#[derive(Debug, Clone, Copy)]
struct WinContext {
    win: WinKind,
    tile: Tile,
    discarder: Option<Player>,
    source: TileSource,
    kong_chain: u8,
    /// Self-draw: the last live tile; discard: the last discard.
    last: bool,
}

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
/// use majiang::table::{Ruleset, choose_seats};
/// use rand::SeedableRng;
/// let r = Ruleset::from_name("hongkong", &serde_json::Map::new()).unwrap();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let c = choose_seats(&r, &mut rng);
/// let mut chairs: Vec<u8> = c.chairs.iter().map(|p| p.0).collect();
/// chairs.sort();
/// assert_eq!(chairs, vec![0, 1, 2, 3]);
/// ```
pub fn choose_seats(ruleset: &Ruleset, rng: &mut ChaCha8Rng) -> SeatChoice {
    use super::config::SeatChoiceRule;
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
