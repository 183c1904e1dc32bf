//! The engine's self-check: every tile of the set is somewhere exactly once, and every hand
//! holds its size.

use super::super::complete::Screen;
use super::super::extra_wind_play as extra_winds;
use super::super::wall::full_set;
use super::{Game, HandOutcome, Phase, tile_at};

impl Game {
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
            for m in h.melds.iter().filter(|m| !m.tile.is_bonus()) {
                let tiles = m.tiles();
                for t in tiles {
                    count[t.index()] += 1;
                }
            }
            extra_winds::check_melded(h.extra_melded, &h.melds)
                .map_err(|e| format!("player {i}: {e}"))?;
            for t in h.extra.tiles().chain(h.extra_melded.tiles()) {
                count[t.index()] += 1;
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
            let held = h
                .concealed
                .iter()
                .fold(0u64, |m, (t, _)| m | 1 << t.index());
            if h.held != held || u32::from(h.held_kinds) != held.count_ones() {
                return Err(format!("player {i}: held kinds out of date"));
            }
            let size = h.concealed.len() + usize::from(h.extra.len()) + 3 * h.melds.len();
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
