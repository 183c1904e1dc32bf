//! The options of a turn, and why an action is refused.
//!
//! The options of the player on turn ([`TurnOptions`]) are worked out once, when the turn
//! begins; those of the players who may claim a discard
//! ([`ClaimOptions`](super::claims::ClaimOptions)) once, when it is made. What a player may do
//! now is read from them in one place, [`Game::asked`] (`asked`); [`Game::check`] asks it, and
//! only for an action it refuses works out here why (the explanation costs nothing on the way
//! of a legal action).

use super::super::Player;
use super::super::action::{Action, ActionError, IllegalReason};
use super::super::extra_wind_play as extra_winds;
use super::{Game, Phase, TileSource};
use crate::meld::MeldKind;
use crate::tile::Tile;

/// Why no kong may be declared on a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KongBar {
    /// The turn began with a chow or pung: discard only.
    JustClaimed,
    /// The rules have no kongs.
    NoKongs,
    /// No replacement tile is left.
    NoReplacementTile,
}

impl KongBar {
    fn reason(self) -> IllegalReason {
        match self {
            KongBar::JustClaimed => IllegalReason::JustClaimed,
            KongBar::NoKongs => IllegalReason::NoKongs,
            KongBar::NoReplacementTile => IllegalReason::NoReplacementTile,
        }
    }
}

/// What the player on turn may do, worked out once when the turn begins (their hand cannot
/// change until they act).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TurnOptions {
    /// A self-drawn win (complete and scoring).
    pub(super) win: bool,
    /// In a Fortune Gambit run: the only tile that may be discarded, the one just drawn.
    pub(super) only_discard: Option<Tile>,
    /// In a Fortune Gambit run (no added kong).
    gambit_run: bool,
    /// Why no kong may be declared, if none may.
    kong_bar: Option<KongBar>,
    /// Bit per tile index: the kinds of a concealed kong (extra winds: the lowest of four).
    pub(super) concealed_kongs: u64,
    /// Bit per tile index: the tiles that may be added to an exposed pung.
    pub(super) added_kongs: u64,
}

/// The bit of `t` in [`TurnOptions`]' tile sets.
fn bit(t: Tile) -> u64 {
    1 << t.index()
}

/// True for a claim that makes a meld of a discard (chow, pung, exposed kong).
fn is_meld_claim(action: Action) -> bool {
    matches!(action, Action::Chow { .. } | Action::Pung | Action::Kong)
}

impl Game {
    /// What `p` may do on a turn begun with `drawn` from `source` (`can_win`: the hand wins
    /// self-drawn and scores).
    pub(super) fn turn_options(
        &self,
        p: Player,
        drawn: Option<Tile>,
        source: TileSource,
        can_win: bool,
    ) -> TurnOptions {
        let config = self.ruleset.config();
        let h = &self.hands[p.index()];
        let gambit_run = self.in_gambit_run(p, source);
        let kong_bar = if source == TileSource::Claim {
            Some(KongBar::JustClaimed)
        } else if !config.kongs_allowed {
            Some(KongBar::NoKongs)
        } else if !self.wall.can_replace() {
            Some(KongBar::NoReplacementTile)
        } else {
            None
        };
        let mut concealed_kongs = 0;
        let mut added_kongs = 0;
        if kong_bar.is_none() {
            let wild = self.wild.map_or(usize::MAX, Tile::index);
            let counts = &h.concealed.0;
            if h.screen.has_four() {
                for (i, &n) in counts.iter().enumerate() {
                    if n == 4 && i != wild {
                        concealed_kongs |= 1 << i;
                    }
                }
            }
            if !h.extra.is_empty() {
                let (concealed, added) = extra_winds::kong_options(h.extra, &h.melds);
                if let Some(t) = concealed {
                    concealed_kongs |= bit(t);
                }
                if !gambit_run {
                    added_kongs |= added.tiles().fold(0, |m, t| m | bit(t));
                }
            }
            if !gambit_run {
                for m in &h.melds {
                    let i = m.tile.index();
                    if m.kind == MeldKind::Pung && !m.tile.is_bonus() && counts[i] > 0 && i != wild
                    {
                        added_kongs |= bit(m.tile);
                    }
                }
            }
        }
        TurnOptions {
            win: can_win,
            only_discard: if gambit_run { drawn } else { None },
            gambit_run,
            kong_bar,
            concealed_kongs,
            added_kongs,
        }
    }

    /// Checks an action without applying it: `Ok` iff it is in [`Game::legal_actions`] (both
    /// ask `Game::asked`, the one place that reads what a player may do); otherwise the error
    /// says why not.
    ///
    /// ```
    /// use majiang::table::{Action, ActionError, Game, HandSetup, IllegalReason, TableRules};
    /// use std::sync::Arc;
    /// let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
    /// let (game, _) = Game::new(rules, HandSetup::new(7)).unwrap();
    /// let dealer = game.dealer();
    /// let err = game.check(dealer, Action::Pung).unwrap_err();
    /// assert!(matches!(err, ActionError::Illegal { reason: IllegalReason::OnTurn, .. }));
    /// assert!(err.to_string().contains("your turn"));
    /// ```
    pub fn check(&self, p: Player, action: Action) -> Result<(), ActionError> {
        if self.asked(p).allows(action) {
            Ok(())
        } else {
            Err(self.refusal(p, action))
        }
    }

    /// Why `p` may not take `action` now, an action [`Game::asked`] does not allow: the
    /// hand is over, `p` is not at the table or not asked (the missed win and the last
    /// discard named), or the rule that refuses it. Only explains: the decision was taken.
    #[cold]
    fn refusal(&self, p: Player, action: Action) -> ActionError {
        if self.is_over() {
            return ActionError::HandOver;
        }
        if p.index() >= self.players() {
            return ActionError::NoSuchPlayer {
                player: p,
                players: self.players(),
            };
        }
        let illegal = |reason: IllegalReason| ActionError::Illegal {
            player: p,
            action,
            reason,
        };
        if !self.to_act().contains(p) {
            // Not asked because of the missed win or the last discard: say so, rather than
            // "nothing to decide".
            let last_discard = matches!(
                self.phase,
                Phase::Claims {
                    last_discard: true,
                    ..
                }
            );
            if action == Action::Win && self.only_missed_win_bars(p) {
                return illegal(IllegalReason::MissedWin);
            }
            if last_discard && is_meld_claim(action) && self.on_offer().is_some_and(|(d, _)| d != p)
            {
                return illegal(IllegalReason::LastDiscard);
            }
            let waiting = self
                .to_act()
                .map(|q| q.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            return ActionError::NotYourTurn { player: p, waiting };
        }
        match &self.phase {
            Phase::Over => ActionError::HandOver,
            Phase::Turn {
                source, options, ..
            } => illegal(self.why_not_on_turn(p, action, *source, options)),
            Phase::Claims {
                discarder,
                tile,
                last_discard,
                answers,
                ..
            } => illegal(if answers[p.index()].is_some() {
                IllegalReason::AlreadyAnswered
            } else if *last_discard && is_meld_claim(action) {
                IllegalReason::LastDiscard
            } else {
                self.why_no_claim(p, *discarder, *tile, action)
            }),
            Phase::Robbing { answers, .. } => illegal(if answers[p.index()].is_some() {
                IllegalReason::AlreadyAnswered
            } else {
                IllegalReason::RobOrPass
            }),
        }
    }

    /// Why `action` is not among `o`, the options of `p` on turn.
    fn why_not_on_turn(
        &self,
        p: Player,
        action: Action,
        source: TileSource,
        o: &TurnOptions,
    ) -> IllegalReason {
        let h = &self.hands[p.index()];
        let kong_refused = |t: Tile| {
            if let Some(bar) = o.kong_bar {
                Some(bar.reason())
            } else if Some(t) == self.wild {
                Some(IllegalReason::WildcardKong)
            } else {
                None
            }
        };
        match action {
            Action::Win if source == TileSource::Claim => IllegalReason::JustClaimed,
            Action::Win => self.why_no_win(p, None),
            Action::Discard(t) => match o.only_discard {
                Some(drawn) if h.holds(t) => IllegalReason::GambitRunDiscard { drawn },
                _ => IllegalReason::NotHeld { tile: t },
            },
            Action::ConcealedKong(t) => {
                if let Some(why) = kong_refused(t) {
                    return why;
                }
                match h.extra.lowest() {
                    Some(lowest) if t.is_bonus() && h.count(t) == 4 => {
                        IllegalReason::ExtraWindKongName { lowest }
                    }
                    _ => IllegalReason::ConcealedKongNeedsFour { tile: t },
                }
            }
            Action::AddedKong(t) => {
                if let Some(why) = kong_refused(t) {
                    why
                } else if o.gambit_run {
                    IllegalReason::GambitRunAddedKong
                } else if !h.holds(t) {
                    IllegalReason::NotHeld { tile: t }
                } else {
                    IllegalReason::AddedKongNeedsPung { tile: t }
                }
            }
            Action::Chow { .. } | Action::Pung | Action::Kong | Action::Pass => {
                IllegalReason::OnTurn
            }
        }
    }

    /// Why `p` may not win now: self-drawn (`on_offer` `None`) or on the tile on offer.
    fn why_no_win(&self, p: Player, on_offer: Option<Tile>) -> IllegalReason {
        let h = &self.hands[p.index()];
        if !self.completes(h, on_offer) {
            return match on_offer {
                Some(tile) => IllegalReason::DoesNotComplete { tile },
                None => IllegalReason::NotComplete,
            };
        }
        match self.win_situation(p).map(|s| self.ruleset.accepts_win(&s)) {
            Some(Err(e)) => IllegalReason::DoesNotScore(e.0),
            _ => IllegalReason::NotComplete,
        }
    }

    /// Why `action` is not among the options of `p` on `d`'s discard `tile`.
    fn why_no_claim(&self, p: Player, d: Player, tile: Tile, action: Action) -> IllegalReason {
        let config = self.ruleset.config();
        match action {
            Action::Win => {
                if !self.ruleset.may_win_on_discard(
                    self.seat_of(p),
                    self.seat_of(d),
                    self.setup.lao,
                ) {
                    IllegalReason::MayNotWinOff
                } else if self.only_missed_win_bars(p) {
                    IllegalReason::MissedWin
                } else {
                    self.why_no_win(p, Some(tile))
                }
            }
            Action::Pung => IllegalReason::PungNeedsTwo { tile },
            Action::Kong if !config.kongs_allowed => IllegalReason::NoKongs,
            Action::Kong if !self.wall.can_replace() => IllegalReason::NoReplacementTile,
            Action::Kong => IllegalReason::KongNeedsThree { tile },
            Action::Chow { tiles } => self.why_no_chow(p, d, tile, tiles),
            Action::Discard(_) | Action::ConcealedKong(_) | Action::AddedKong(_) => {
                IllegalReason::ClaimOrPass
            }
            Action::Pass => IllegalReason::ClaimOrPass,
        }
    }

    /// Why `p` may not chow `d`'s discard `tile` as `tiles`.
    fn why_no_chow(&self, p: Player, d: Player, tile: Tile, tiles: [Tile; 3]) -> IllegalReason {
        if !self.ruleset.config().chow_allowed {
            return IllegalReason::NoChows;
        }
        if self.next_player(d) != p {
            return IllegalReason::ChowNotFromLeft;
        }
        let [a, b, c] = tiles;
        let run = a.is_numbered()
            && a.suit() == c.suit()
            && b.index() == a.index() + 1
            && c.index() == b.index() + 1;
        let Some(k) = tiles.iter().position(|&x| x == tile).filter(|_| run) else {
            return IllegalReason::ChowShape { tile };
        };
        let others = tiles
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != k)
            .map(|(_, &x)| x);
        if others.clone().any(|x| Some(x) == self.wild) {
            IllegalReason::WildcardChow
        } else if others.clone().any(|x| !self.hands[p.index()].holds(x)) {
            IllegalReason::ChowTilesNotHeld
        } else {
            IllegalReason::ChowShape { tile }
        }
    }
}
