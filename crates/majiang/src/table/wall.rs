//! The wall: four sides of stacks two high, shuffled from the seed, broken by the dice, drawn
//! from the front, replacement tiles from the back, and the dead wall kept back as the rule set
//! says ([`DeadWall`]).
//!
//! Geometry. Seen from above, drawing runs clockwise while turns run counterclockwise, so the
//! draw order passes through each side from its owner's right end to the left end, then on to
//! the wall of the player before them in turn order. Sides are numbered from the dealer's own
//! (0) in turn order. The break on side `s`, `c` stacks from its right end, puts the head of
//! the wall (the first tile drawn) just left of the break; the tail, ending just right of the
//! break, is where replacement tiles come from.
//!
//! After the break the wall is a sequence: live draws take from its front, replacement tiles
//! from its back (the last stack before the break, top tile first is not modelled: copies of a
//! kind are alike, so only the order of kinds matters).

use crate::config::{DeadWall, TableConfig};
use crate::tile::{KINDS, Tile};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Why a stacked wall was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a full wall: {0}")]
pub struct WallError(pub String);

/// The wall after the break.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wall {
    /// Tiles in draw order from the head.
    tiles: Vec<Tile>,
    /// Index of the next live draw.
    front: usize,
    /// One past the index of the next replacement tile.
    back: usize,
    dead: DeadWall,
    /// `DeadWall::Fixed`: tiles of the kept-back tail not used yet.
    dead_left: usize,
    /// Live draws stop at this index: `back` less the tiles kept back (kept up to date by
    /// [`Wall::settle`], so that the hot `live_remaining` is one subtraction).
    live_end: usize,
}

/// Every tile of the set, sorted: four of each playing kind, then the bonus tiles if in play.
pub fn full_set(config: &TableConfig) -> Vec<Tile> {
    let mut v = Vec::with_capacity(config.tile_count());
    for t in Tile::all() {
        v.extend([t; 4]);
    }
    if config.flowers {
        v.extend(Tile::bonus_tiles());
    } else {
        v.extend(Tile::bonus_tiles().take(usize::from(config.extra_winds())));
    }
    v
}

impl Wall {
    /// The full set shuffled by `rng` and laid out as the unbroken ring (side 0, the dealer's,
    /// first, from its right end; two tiles per stack, top first).
    pub fn shuffled_ring(config: &TableConfig, rng: &mut ChaCha8Rng) -> Vec<Tile> {
        let mut tiles = full_set(config);
        tiles.shuffle(rng);
        tiles
    }

    /// Breaks the ring on `side` (0 = the dealer's, counted in turn order) after `stack` stacks
    /// from that side's right end.
    pub fn break_ring(config: &TableConfig, ring: Vec<Tile>, side: usize, stack: usize) -> Wall {
        let sides = usize::from(config.wall_sides.max(1));
        let per_side = config.stacks_per_side();
        let stacks = ring.len() / 2;
        // In draw order the sides come 0, sides-1, sides-2, ...
        let base = ((sides - side % sides) % sides) * per_side;
        let head = (base + stack) % stacks.max(1);
        let mut tiles = ring;
        tiles.rotate_left(head * 2);
        Wall::from_sequence(tiles, config.dead_wall)
    }

    fn from_sequence(tiles: Vec<Tile>, dead: DeadWall) -> Wall {
        let n = tiles.len();
        let mut wall = Wall {
            tiles,
            front: 0,
            back: n,
            dead,
            dead_left: match dead {
                DeadWall::Fixed(k) => usize::from(k).min(n),
                _ => 0,
            },
            live_end: n,
        };
        wall.settle();
        wall
    }

    /// Works out where the live wall ends after `back` or `dead_left` changed.
    fn settle(&mut self) {
        let kept = match self.dead {
            DeadWall::None => 0,
            DeadWall::Fixed(_) => self.dead_left,
            DeadWall::Replenishing(n) => usize::from(n),
        };
        self.live_end = self.back.saturating_sub(kept);
    }

    /// A stacked wall for tests and replays: `tiles` in draw order (the first dealt first; the
    /// last is the first replacement tile). It must be exactly the rule set's tile set.
    ///
    /// ```
    /// use majiang::table::{TableRules, Wall, wall::full_set};
    /// let r = TableRules::from_name("yangzhou", &serde_json::Map::new()).unwrap();
    /// let wall = Wall::from_order(r.config(), full_set(r.config())).unwrap();
    /// assert_eq!(wall.live_remaining(), 136);
    /// assert!(Wall::from_order(r.config(), vec![]).is_err());
    /// ```
    pub fn from_order(config: &TableConfig, tiles: Vec<Tile>) -> Result<Wall, WallError> {
        let mut want = [0u8; KINDS + 8];
        for t in full_set(config) {
            want[t.index()] += 1;
        }
        let mut have = [0u8; KINDS + 8];
        for &t in &tiles {
            have[t.index()] = have[t.index()].saturating_add(1);
        }
        if want != have {
            let differs = (0..KINDS + 8)
                .filter(|&i| want[i] != have[i])
                .filter_map(Tile::from_index)
                .map(|t| format!("{t} ×{} (want {})", have[t.index()], want[t.index()]))
                .collect::<Vec<_>>();
            return Err(WallError(format!(
                "{} tiles given, {} wanted; counts differ for {}",
                tiles.len(),
                config.tile_count(),
                differs.join(", ")
            )));
        }
        Ok(Wall::from_sequence(tiles, config.dead_wall))
    }

    /// A stacked wall that deals exactly `hands` (in turn order from the dealer: the dealer's
    /// 14 tiles first, then 13 for each other player, or the rule set's hand size), then has
    /// `draws` as the next live draws and `replacements` as the first replacement tiles; the
    /// rest of the set fills the middle in sorted order. For tests and scripted examples.
    ///
    /// ```
    /// use majiang::table::{TableRules, Wall};
    /// use majiang::parse_tiles;
    /// let r = TableRules::from_name("yangzhou", &serde_json::Map::new()).unwrap();
    /// let hands = [
    ///     parse_tiles("11112222333344m").unwrap(),
    ///     parse_tiles("5555666677778m").unwrap(),
    ///     parse_tiles("1111222233334p").unwrap(),
    ///     parse_tiles("5555666677778p").unwrap(),
    /// ];
    /// let wall = Wall::stacked(r.config(), &hands, &parse_tiles("9m").unwrap(), &[]).unwrap();
    /// assert_eq!(wall.remaining(), 136);
    /// ```
    pub fn stacked(
        config: &TableConfig,
        hands: &[Vec<Tile>],
        draws: &[Tile],
        replacements: &[Tile],
    ) -> Result<Wall, WallError> {
        let n = usize::from(config.players);
        let size = usize::from(config.hand_size);
        if hands.len() != n {
            return Err(WallError(format!(
                "{} hands given for {n} players",
                hands.len()
            )));
        }
        for (k, h) in hands.iter().enumerate() {
            let want = size + usize::from(k == 0);
            if h.len() != want {
                return Err(WallError(format!(
                    "hand {k} has {} tiles, not {want}",
                    h.len()
                )));
            }
        }
        let mut pos = vec![0usize; n];
        let mut order = Vec::with_capacity(config.tile_count());
        let mut take = |k: usize, count: usize, order: &mut Vec<Tile>| {
            order.extend_from_slice(&hands[k][pos[k]..pos[k] + count]);
            pos[k] += count;
        };
        for _ in 0..size / 4 {
            for k in 0..n {
                take(k, 4, &mut order);
            }
        }
        for k in 0..n {
            take(k, size % 4 + usize::from(k == 0), &mut order);
        }
        order.extend_from_slice(draws);
        let mut rest = [0i16; KINDS + 8];
        for t in full_set(config) {
            rest[t.index()] += 1;
        }
        for &t in order.iter().chain(replacements) {
            rest[t.index()] -= 1;
            if rest[t.index()] < 0 {
                return Err(WallError(format!("too many copies of {t}")));
            }
        }
        for (i, &k) in rest.iter().enumerate() {
            if let Some(t) = Tile::from_index(i) {
                for _ in 0..k {
                    order.push(t);
                }
            }
        }
        order.extend(replacements.iter().rev());
        Wall::from_order(config, order)
    }

    /// Tiles still in the wall (live and dead).
    pub fn remaining(&self) -> usize {
        self.back - self.front
    }

    /// Tiles kept back as the dead wall now.
    pub fn dead_remaining(&self) -> usize {
        self.remaining() - self.live_remaining()
    }

    /// Tiles that may still be drawn from the front. The hand is drawn when a player must draw
    /// and this is 0.
    pub fn live_remaining(&self) -> usize {
        self.live_end.saturating_sub(self.front)
    }

    /// True if a replacement tile can be drawn.
    pub fn can_replace(&self) -> bool {
        self.remaining() > 0
    }

    /// Draws from the front of the live wall.
    pub fn draw(&mut self) -> Option<Tile> {
        if self.front >= self.live_end {
            return None;
        }
        let t = *self.tiles.get(self.front)?;
        self.front += 1;
        Some(t)
    }

    /// Draws up to `k` tiles from the front of the live wall at once (fewer if it runs out):
    /// the deal's blocks.
    pub(crate) fn draw_block(&mut self, k: usize) -> &[Tile] {
        let start = self.front;
        let end = (start + k).min(self.live_end.max(start));
        self.front = end;
        &self.tiles[start..end]
    }

    /// Draws a replacement tile from the back (the dead wall, which a replenishing dead wall
    /// then makes up from the tail of the live wall).
    pub fn draw_replacement(&mut self) -> Option<Tile> {
        if self.back == self.front {
            return None;
        }
        self.back -= 1;
        if self.dead_left > 0 {
            self.dead_left -= 1;
        }
        self.settle();
        Some(self.tiles[self.back])
    }

    /// Takes out the tile `from_back` tiles from the back (1 = the last), for the wildcard
    /// indicator: it is turned face up and stays out of play.
    pub fn take_from_back(&mut self, from_back: usize) -> Option<Tile> {
        if from_back == 0 || from_back > self.remaining() {
            return None;
        }
        let i = self.back - from_back;
        let t = self.tiles.remove(i);
        self.back -= 1;
        if from_back <= self.dead_left {
            self.dead_left -= 1;
        }
        self.settle();
        Some(t)
    }

    /// The tiles still in the wall, in draw order (for invariant checks; never shown to a
    /// player).
    pub fn remaining_tiles(&self) -> &[Tile] {
        &self.tiles[self.front..self.back]
    }
}
