//! Setting up a hand: the shuffle, the dice that break the wall, the deal, the Hangzhou
//! indicator, and flowers declared and replaced until every hand holds only playing tiles.

use super::super::dice::roll;
use super::super::event::{DicePurpose, Event};
use super::super::table_rules::TableRules;
use super::super::wall::{Wall, WallError, full_set};
use super::super::{DealtTiles, Player};
use super::sink::{Events, Unrecorded};
use super::{Game, Hand, HandSetup, MAX_PLAYERS, Phase, SetupError, TileSource};
use crate::config::WildcardRule;
use crate::seat::Seat;
use crate::tile::Tile;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

impl Game {
    /// Sets up a hand: the wall is shuffled and built, the dealer's dice break it, the tiles
    /// are dealt (4-4-4, then 2 to the dealer and 1 to the others), the Hangzhou indicator is
    /// turned up when that option is on, and flowers are declared and replaced, dealer first.
    /// Every step is an event.
    ///
    /// ```
    /// use majiang::table::{Game, HandSetup, TableRules};
    /// use std::sync::Arc;
    /// let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
    /// let (game, events) = Game::new(rules, HandSetup::new(42)).unwrap();
    /// assert!(!game.is_over());
    /// assert!(events.len() > 16);
    /// ```
    pub fn new(
        ruleset: Arc<TableRules>,
        setup: HandSetup,
    ) -> Result<(Game, Vec<Event>), SetupError> {
        let mut events = Vec::with_capacity(64);
        let game = Self::set_up(ruleset, setup, &mut events)?;
        Ok((game, events))
    }

    /// [`Game::new`] for a hand played only for its outcome (as [`crate::bots::play_hand`]
    /// plays it): the same game, dealt from the same seed, without the set-up's events.
    ///
    /// ```
    /// use majiang::table::{Game, HandSetup, TableRules};
    /// use std::sync::Arc;
    /// let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
    /// let (game, _) = Game::new(rules.clone(), HandSetup::new(42)).unwrap();
    /// assert_eq!(Game::new_unrecorded(rules, HandSetup::new(42)).unwrap(), game);
    /// ```
    pub fn new_unrecorded(ruleset: Arc<TableRules>, setup: HandSetup) -> Result<Game, SetupError> {
        Self::set_up(ruleset, setup, &mut Unrecorded)
    }

    /// Shuffles, breaks and deals as [`Game::new`] says, recording the events in `events`.
    fn set_up(
        ruleset: Arc<TableRules>,
        setup: HandSetup,
        events: &mut impl Events,
    ) -> Result<Game, SetupError> {
        let mut rng = Self::check_setup(&ruleset, &setup)?;
        let config = *ruleset.config();
        Self::started(&ruleset, &setup, events);
        let ring = Wall::shuffled_ring(&config, &mut rng);
        events.record(Event::WallBuilt {
            sides: config.wall_sides,
            stacks_per_side: config.stacks_per_side() as u8,
            tiles: config.tile_count() as u16,
        });
        let dice = roll(&mut rng, config.break_dice);
        let total: usize = dice.iter().map(|&d| usize::from(d)).sum();
        events.record(Event::DiceRolled {
            by: setup.dealer,
            dice,
            purpose: DicePurpose::WallBreak,
        });
        let side = (total - 1) % usize::from(config.wall_sides);
        events.record(Event::WallBroken {
            side: side as u8,
            stack: total as u8,
            dead_wall: config.dead_wall.size() as u8,
        });
        let wall = Wall::break_ring(&config, ring, side, total);
        Ok(Self::deal(ruleset, setup, wall, &mut rng, events))
    }

    /// Sets up a hand on a stacked wall (see [`Wall::from_order`] and [`Wall::stacked`]): no
    /// shuffle and no break; the deal, indicator and flowers are as in [`Game::new`].
    pub fn with_wall(
        ruleset: Arc<TableRules>,
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

    fn check_setup(ruleset: &TableRules, setup: &HandSetup) -> Result<ChaCha8Rng, SetupError> {
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

    fn started(ruleset: &TableRules, setup: &HandSetup, events: &mut impl Events) {
        let n = ruleset.players();
        let order = ruleset.seats();
        events.record_with(|| Event::HandStarted {
            hand_number: setup.hand_number,
            dealer: setup.dealer,
            prevailing_wind: setup.prevailing_wind,
            lao: setup.lao,
            seats: (0..n)
                .map(|p| order[(p + n - setup.dealer.index()) % n])
                .collect(),
        });
    }

    fn deal(
        ruleset: Arc<TableRules>,
        setup: HandSetup,
        mut wall: Wall,
        rng: &mut ChaCha8Rng,
        events: &mut impl Events,
    ) -> Game {
        let config = *ruleset.config();
        let n = ruleset.players();
        let dealer = setup.dealer.index();
        // Each made anew (a clone would drop the reserved capacity).
        let mut hands: Vec<Hand> = (0..n).map(|_| Hand::empty()).collect();
        // The flowers dealt to each player, in the order dealt (eight at most in all).
        let mut bonus = [[Tile::EAST; 8]; MAX_PLAYERS];
        let mut bonus_len = [0usize; MAX_PLAYERS];
        let mut last_to_dealer = None;
        let blocks = usize::from(config.hand_size) / 4;
        let rest = usize::from(config.hand_size) % 4;
        // Deals `count` tiles to `p`; the event saying so.
        let mut give = |p: usize, count: usize, wall: &mut Wall| {
            let block = wall.draw_block(count.min(DealtTiles::CAPACITY));
            let mut tiles = DealtTiles::new();
            for &t in block {
                tiles.push(t);
                if config.is_flower(t) {
                    if let Some(slot) = bonus[p].get_mut(bonus_len[p]) {
                        *slot = t;
                        bonus_len[p] += 1;
                    }
                } else {
                    hands[p].add(t);
                }
            }
            if p == dealer && !block.is_empty() {
                last_to_dealer = block.last().copied();
            }
            Event::TilesDealt {
                player: Player(p as u8),
                count: tiles.len() as u8,
                tiles: Some(tiles),
            }
        };
        for _ in 0..blocks {
            for k in 0..n {
                events.record(give((dealer + k) % n, 4, &mut wall));
            }
        }
        for k in 0..n {
            events.record(give(
                (dealer + k) % n,
                rest + usize::from(k == 0),
                &mut wall,
            ));
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
            events.record(Event::DiceRolled {
                by: setup.dealer,
                dice,
                purpose: DicePurpose::Indicator,
            });
            if let Some(t) = wall.take_from_back(total) {
                events.record(Event::IndicatorRevealed {
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
        let mut wins_off = [0u8; MAX_PLAYERS];
        for (q, bits) in wins_off.iter_mut().enumerate().take(n) {
            for (d, &seat) in seats.iter().enumerate().take(n) {
                if ruleset.may_win_on_discard(seats[q], seat, setup.lao) {
                    *bits |= 1 << d;
                }
            }
        }
        let ruleset_missed_win = ruleset.missed_win();
        let mut game = Game {
            hand_rules: ruleset.hand_rules(wild),
            seats,
            wins_off,
            ruleset,
            n: n as u8,
            wild,
            indicator,
            wall,
            hands,
            phase: Phase::Over,
            gambit_round: None,
            missed_win: ruleset_missed_win,
            missed: [0; MAX_PLAYERS],
            last_discard: None,
            outcome: None,
            withheld: 0,
            setup,
        };
        // Flowers in the dealt hands, dealer first.
        for k in 0..n {
            let p = (dealer + k) % n;
            for &f in &bonus[p][..bonus_len[p]] {
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
        game.enter_turn(dealer, last_to_dealer, TileSource::Deal, 0, false, true);
        game
    }

    /// Lays out bonus tile `f` and draws replacements until a playing tile comes; `None` if the
    /// wall has run out.
    pub(super) fn replace_flower(
        &mut self,
        p: Player,
        mut f: Tile,
        events: &mut impl Events,
    ) -> Option<Tile> {
        loop {
            events.record(Event::FlowerDeclared { player: p, tile: f });
            self.hands[p.index()].flowers.push(f);
            let t = self.wall.draw_replacement()?;
            events.record(Event::ReplacementDrawn {
                player: p,
                tile: Some(t),
            });
            if !self.ruleset.config().is_flower(t) {
                return Some(t);
            }
            f = t;
        }
    }
}
