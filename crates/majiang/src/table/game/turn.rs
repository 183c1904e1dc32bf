//! Turns: applying an action (checked first, then handed to the job that carries it out),
//! entering a turn, drawing from the live wall, discarding, and the exhaustive draw.

use super::super::Player;
use super::super::action::{Action, ActionError};
use super::super::event::Event;
use super::sink::{Events, Unrecorded};
use super::win::WinContext;
use super::{DiscardRecord, Game, HandOutcome, Phase, TileSource};
use crate::scoring::WinKind;
use crate::tile::Tile;

impl Game {
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
        self.apply_checked(p, action, events)
    }

    /// [`Game::apply_into`] for an action the caller took from [`Game::legal_actions_into`]
    /// for `p` in this state, so not checked again (every listed action passes
    /// [`Game::check`]; the engine's fuzz tests play only listed actions and assert it), and
    /// for a caller that never reads the events (a hand played for its outcome,
    /// [`crate::bots::play_hand`]): they are not recorded at all.
    pub(crate) fn apply_legal_unrecorded(
        &mut self,
        p: Player,
        action: Action,
    ) -> Result<(), ActionError> {
        debug_assert_eq!(self.check(p, action), Ok(()), "a listed action");
        self.apply_checked(p, action, &mut Unrecorded)
    }

    /// Carries out `p`'s action, already checked.
    fn apply_checked(
        &mut self,
        p: Player,
        action: Action,
        events: &mut impl Events,
    ) -> Result<(), ActionError> {
        match self.phase {
            Phase::Over => Err(ActionError::HandOver),
            Phase::Turn {
                drawn,
                source,
                kong_chain,
                last_wall,
                ..
            } => {
                match action {
                    Action::Win => {
                        let ctx = WinContext {
                            win: WinKind::SelfDraw,
                            tile: drawn.unwrap_or(Tile::EAST),
                            discarder: None,
                            source,
                            kong_chain,
                            last: last_wall,
                        };
                        self.finish_win(p, ctx, events)?;
                    }
                    Action::Discard(t) => self.discard(p, t, events),
                    Action::ConcealedKong(t) => self.concealed_kong(p, t, kong_chain, events),
                    Action::AddedKong(t) => self.added_kong(p, t, kong_chain, events),
                    _ => unreachable!("checked"),
                }
                Ok(())
            }
            Phase::Claims { .. } => self.answer_claim(p, action, events),
            Phase::Robbing { .. } => self.answer_robbing(p, action, events),
        }
    }

    /// The other players in turn order after `p`.
    pub(super) fn after(&self, p: Player) -> impl Iterator<Item = Player> + Clone + use<> {
        let n = self.n;
        (1..n).map(move |k| {
            let q = p.0 + k;
            Player(if q >= n { q - n } else { q })
        })
    }

    /// The player after `p` in turn order.
    pub(super) fn next_player(&self, p: Player) -> Player {
        let q = p.0 + 1;
        Player(if q >= self.n { 0 } else { q })
    }

    /// Begins `player`'s turn with `drawn` from `source` and works out once what they may do
    /// (`may_win`: false when the screen has ruled out a win with `drawn`, see
    /// [`Game::may_complete_with`]).
    pub(super) fn enter_turn(
        &mut self,
        player: Player,
        drawn: Option<Tile>,
        source: TileSource,
        kong_chain: u8,
        last_wall: bool,
        may_win: bool,
    ) {
        let can_win = match (source, drawn) {
            (TileSource::Claim, _) | (_, None) => false,
            _ if !may_win => false,
            (_, Some(tile)) => {
                let ctx = WinContext {
                    win: WinKind::SelfDraw,
                    tile,
                    discarder: None,
                    source,
                    kong_chain,
                    last: last_wall,
                };
                self.completes(&self.hands[player.index()], None)
                    && self.win_scores(player, &ctx).is_ok()
            }
        };
        let options = self.turn_options(player, drawn, source, can_win);
        self.phase = Phase::Turn {
            player,
            drawn,
            source,
            kong_chain,
            last_wall,
            options,
        };
    }

    /// `p` discards `t`; it goes on offer to whoever may claim it, else the next player draws.
    fn discard(&mut self, p: Player, t: Tile, events: &mut impl Events) {
        let gambit = self.is_gambit_discard(p, t);
        let wildcard = self.is_wildcard_discard(t);
        let h = &mut self.hands[p.index()];
        h.take(t, 1);
        h.discards.push(DiscardRecord {
            tile: t,
            claimed: false,
            gambit,
        });
        events.record(Event::Discarded {
            player: p,
            tile: t,
            wildcard,
            gambit,
        });
        self.last_discard = Some((p, t));
        self.note_discard(p, wildcard, gambit);
        self.offer_discard(p, t, events);
    }

    /// `p` draws from the live wall (replacing flowers); the hand is drawn if it has run out.
    pub(super) fn draw_for(&mut self, p: Player, events: &mut impl Events) {
        self.note_draw(p);
        let Some(mut t) = self.wall.draw() else {
            self.exhaustive_draw(events);
            return;
        };
        // A draw from the live wall restores every win the player passed.
        self.restore_wins(p);
        events.record(Event::Drew {
            player: p,
            tile: Some(t),
        });
        let mut source = TileSource::Wall;
        if self.ruleset.config().is_flower(t) {
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
        let may_win = self.may_complete_with(p, t);
        self.hands[p.index()].add(t);
        self.enter_turn(p, Some(t), source, 0, last_wall, may_win);
    }

    /// The wall has run out: the hand ends with nobody paying.
    pub(super) fn exhaustive_draw(&mut self, events: &mut impl Events) {
        events.record(Event::ExhaustiveDraw);
        events.record_with(|| Event::HandEnded {
            payments: vec![0; self.players()],
        });
        self.outcome = Some(HandOutcome::ExhaustiveDraw);
        self.phase = Phase::Over;
    }
}
