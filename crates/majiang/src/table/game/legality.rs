//! What a player may do now, worked out in one place.
//!
//! The options of the player on turn ([`TurnOptions`]) are worked out once, when the turn
//! begins; those of the players who may claim a discard ([`ClaimOptions`]) once, when it is
//! made. [`Game::legal_actions`] lists them, and [`Game::check`] accepts exactly that list and
//! says why anything else is refused (the explanation is worked out only then).

use super::super::Player;
use super::super::action::{Action, ActionError, IllegalReason};
use super::super::extra_wind_play as extra_winds;
use super::claims::{ClaimOptions, chow_tiles};
use super::{Game, Phase, TileSource, tile_at};
use crate::meld::MeldKind;
use crate::tile::{KINDS, Tile};

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

impl TurnOptions {
    /// True if `action` is one of the options, for a player holding `held` concealed.
    fn allows(&self, action: Action, holds: impl Fn(Tile) -> bool) -> bool {
        match action {
            Action::Win => self.win,
            Action::Discard(t) => holds(t) && self.only_discard.is_none_or(|d| d == t),
            Action::ConcealedKong(t) => self.concealed_kongs & bit(t) != 0,
            Action::AddedKong(t) => self.added_kongs & bit(t) != 0,
            Action::Chow { .. } | Action::Pung | Action::Kong | Action::Pass => false,
        }
    }
}

impl ClaimOptions {
    /// True if `action` is one of the options on the discard `tile`.
    fn allows(&self, tile: Tile, action: Action) -> bool {
        match action {
            Action::Pass => true,
            Action::Win => self.win,
            Action::Pung => self.pung,
            Action::Kong => self.kong,
            Action::Chow { tiles } => {
                (0..3).any(|b| self.chows & (1 << b) != 0 && chow_tiles(tile, b) == tiles)
            }
            Action::Discard(_) | Action::ConcealedKong(_) | Action::AddedKong(_) => false,
        }
    }

    /// Lists the options on the discard `tile`: win, kong, pung, chows, pass.
    fn actions_into(&self, tile: Tile, out: &mut Vec<Action>) {
        if self.win {
            out.push(Action::Win);
        }
        if self.kong {
            out.push(Action::Kong);
        }
        if self.pung {
            out.push(Action::Pung);
        }
        for bit in 0..3u8 {
            if self.chows & (1 << bit) != 0 {
                out.push(Action::Chow {
                    tiles: chow_tiles(tile, bit),
                });
            }
        }
        out.push(Action::Pass);
    }
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
                player, options, ..
            } => {
                if *player == p {
                    self.turn_actions_into(p, options, out);
                }
            }
            Phase::Claims {
                tile,
                options,
                answers,
                pending,
                ..
            } => {
                if pending & (1 << p.0) != 0 && answers[p.index()].is_none() {
                    options[p.index()].actions_into(*tile, out);
                }
            }
            Phase::Robbing { pending, .. } => {
                if pending & (1 << p.0) != 0 {
                    out.push(Action::Win);
                    out.push(Action::Pass);
                }
            }
        }
    }

    /// Lists `o` for the player on turn: win, concealed kongs, added kongs, discards.
    fn turn_actions_into(&self, p: Player, o: &TurnOptions, out: &mut Vec<Action>) {
        let h = &self.hands[p.index()];
        if o.win {
            out.push(Action::Win);
        }
        let mut kongs = o.concealed_kongs;
        while kongs != 0 {
            out.push(Action::ConcealedKong(tile_at(
                kongs.trailing_zeros() as usize
            )));
            kongs &= kongs - 1;
        }
        if o.added_kongs != 0 {
            // Extra winds first, then the pungs of playing tiles in the order they were melded.
            let mut extra = o.added_kongs >> KINDS;
            while extra != 0 {
                out.push(Action::AddedKong(tile_at(
                    KINDS + extra.trailing_zeros() as usize,
                )));
                extra &= extra - 1;
            }
            for m in &h.melds {
                if m.kind == MeldKind::Pung
                    && !m.tile.is_bonus()
                    && o.added_kongs & bit(m.tile) != 0
                {
                    out.push(Action::AddedKong(m.tile));
                }
            }
        }
        match o.only_discard {
            Some(d) => out.push(Action::Discard(d)),
            None => {
                // The kinds held, from the hand's running mask: one step a kind held. A
                // counted range extends without a capacity check per action.
                let mut held = h.held;
                out.extend((0..h.held_kinds).map(|_| {
                    let t = tile_at(held.trailing_zeros() as usize);
                    held &= held - 1;
                    Action::Discard(t)
                }));
                if !h.extra.is_empty() {
                    out.extend(h.extra.tiles().map(Action::Discard));
                }
            }
        }
    }

    /// Checks an action without applying it: `Ok` iff it is in [`Game::legal_actions`];
    /// otherwise the error says why not.
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
            // Not asked because of the missed win or the last discard: say so, rather than
            // "nothing to decide".
            let last_discard = matches!(
                self.phase,
                Phase::Claims {
                    last_discard: true,
                    ..
                }
            );
            let reason = if action == Action::Win && self.only_missed_win_bars(p) {
                Some(IllegalReason::MissedWin)
            } else if last_discard
                && is_meld_claim(action)
                && self.on_offer().is_some_and(|(d, _)| d != p)
            {
                Some(IllegalReason::LastDiscard)
            } else {
                None
            };
            if let Some(reason) = reason {
                return Err(ActionError::Illegal {
                    player: p,
                    action,
                    reason,
                });
            }
            let waiting = self
                .to_act()
                .map(|q| q.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            return Err(ActionError::NotYourTurn { player: p, waiting });
        }
        let refused = |reason: IllegalReason| {
            Err(ActionError::Illegal {
                player: p,
                action,
                reason,
            })
        };
        match &self.phase {
            Phase::Over => Err(ActionError::HandOver),
            Phase::Turn {
                source, options, ..
            } => {
                let h = &self.hands[p.index()];
                if options.allows(action, |t| h.holds(t)) {
                    Ok(())
                } else {
                    refused(self.why_not_on_turn(p, action, *source, options))
                }
            }
            Phase::Claims {
                discarder,
                tile,
                last_discard,
                options,
                answers,
                ..
            } => {
                if answers[p.index()].is_some() {
                    refused(IllegalReason::AlreadyAnswered)
                } else if options[p.index()].allows(*tile, action) {
                    Ok(())
                } else if *last_discard && is_meld_claim(action) {
                    refused(IllegalReason::LastDiscard)
                } else {
                    refused(self.why_no_claim(p, *discarder, *tile, action))
                }
            }
            Phase::Robbing { answers, .. } => {
                if answers[p.index()].is_some() {
                    refused(IllegalReason::AlreadyAnswered)
                } else if matches!(action, Action::Win | Action::Pass) {
                    Ok(())
                } else {
                    refused(IllegalReason::RobOrPass)
                }
            }
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
