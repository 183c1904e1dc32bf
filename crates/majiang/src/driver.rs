//! The seat driver: a [`Session`] with a [`Controller`] for every chair — a person, or a bot —
//! that says which automatic decision is due and when, with time as a value.
//!
//! Every front end plays a match through a [`Driver`]: the server's room, `majiang play`, the
//! Python `Table` and [`play_match`]. The driver holds no clock: the
//! caller passes `now` (milliseconds on any clock of its own) and asks [`Driver::poll`] what is
//! due:
//!
//! - [`Poll::Act`]: an automatic decision due now — a bot's, or the stand-in's for a person whose
//!   timer ran out. The caller applies it with [`Driver::act`] (the server first writes it to its
//!   store; until it is applied, `poll` proposes the same decision again, so a write that failed
//!   can be retried without asking the bot twice).
//! - [`Poll::Wait`]: nothing is due before the given time (a bot's pacing delay, a person's
//!   timer), or, with `None`, until a person acts, the next hand is dealt or the match is over.
//!
//! Timers ([`Timers`]) are data: a turn timer, a claim timer, a shorter grace for a person who is
//! away (not connected), a delay between automatic moves, and a claim window. When a person's
//! timer runs out, the stand-in bot (the `efficient` bot, seeded per chair) plays that decision
//! for them; a person who is away when it runs out stays played by the stand-in until they are
//! back ([`Driver::set_present`]). The caller may change the timers in a match, when who plays
//! the seats changes ([`Driver::set_timers`]).
//!
//! **The claim window hides who could claim.** Whether anybody may claim a discard (or rob a
//! kong) is private: it depends on concealed hands. With [`Timers::claim_window_ms`] set, every
//! discard and every kong declared keeps the table waiting exactly that long, whoever could
//! claim: the answers are made within it (a bot's after its pause, a person's when they
//! answer), the next turn opens when it ends, and the caller shows nobody but those asked what
//! followed the discard before then ([`Driver::window_open_until`]). The pace is then a
//! function of public facts only (who discarded, and when), as long as the answers are in
//! before the window ends (a bot's pause and a person's claim timer shorter than it, by the
//! time it takes to store them).
//!
//! Every chair's bot is told when a hand ends and when the match ends ([`Bot::hand_ended`],
//! [`Bot::match_ended`]), as the action that ended them is applied: a bot in another process
//! passes it on (`docs/bot-protocol.md`).
//!
//! **One policy for a refused bot action**: a bot whose choice the engine would refuse (a bug in
//! a bot, or a bot that is not ours) does not stop the match. Its seat plays the first legal
//! action instead ([`bots::SeatAction`], the policy [`bots::play_hand`] and the Python vector
//! tables follow too), and the [`Decision`] says so in [`Decision::refused`] for the caller to
//! log.
//!
//! ```
//! use majiang::bots;
//! use majiang::driver::{Controller, Driver, Poll, Timers};
//! use majiang::table::{TableRules, Session};
//! use std::sync::Arc;
//!
//! let rules = Arc::new(TableRules::from_name("hongkong", &serde_json::Map::new()).unwrap());
//! let (session, _opening) = Session::new(rules.clone(), 7, Some(1)).unwrap();
//! // Chair 0 is a person; the others are bots.
//! let controllers = (0..4)
//!     .map(|i| match i {
//!         0 => Controller::person(100),
//!         _ => Controller::Bot(bots::by_name("efficient", &rules, i).unwrap()),
//!     })
//!     .collect();
//! let mut driver = Driver::new(session, controllers, Timers::default()).unwrap();
//! // The bots play until the person must decide (or the hand ends).
//! driver.run(0).unwrap();
//! let person = majiang::table::Player(0);
//! if !driver.session().is_over() {
//!     assert!(driver.session().game().to_act().contains(person) || driver.session().awaiting_deal());
//! }
//! ```

use crate::Tile;
use crate::bots::{self, Bot, RandomBot, observe_into};
use crate::table::{
    Action, ActionError, Event, Match, MatchError, MatchLog, Observation, Player, Session, Step,
    TableRules,
};
use std::fmt;
use std::sync::Arc;

/// Who decides for a chair.
pub enum Controller {
    /// A person: their actions come from outside ([`Driver::act`]). When their timer runs out
    /// the stand-in, the `efficient` bot seeded with `stand_in_seed`, decides for them.
    Person {
        /// The seed of the stand-in bot (made when first needed).
        stand_in_seed: u64,
    },
    /// A bot: the driver asks it whenever the chair must decide.
    Bot(Box<dyn Bot>),
}

impl Controller {
    /// A person whose stand-in is seeded with `stand_in_seed`.
    pub fn person(stand_in_seed: u64) -> Controller {
        Controller::Person { stand_in_seed }
    }

    /// True for a person.
    pub fn is_person(&self) -> bool {
        matches!(self, Controller::Person { .. })
    }
}

impl fmt::Debug for Controller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Controller::Person { stand_in_seed } => f
                .debug_struct("Person")
                .field("stand_in_seed", stand_in_seed)
                .finish(),
            Controller::Bot(b) => f.debug_tuple("Bot").field(&b.name()).finish(),
        }
    }
}

/// The timers of a table, in milliseconds. `None` is no timer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Timers {
    /// A person's time for a turn (discard, kong, win).
    pub turn_ms: Option<u64>,
    /// A person's time to answer a tile on offer (chow, pung, kong, win or pass).
    pub claim_ms: Option<u64>,
    /// A person who is away (not present) gets this long instead, when it is shorter or they
    /// have no timer: the stand-in plays after a short grace rather than the full timer.
    pub away_grace_ms: Option<u64>,
    /// Automatic decisions wait this long after the decision point opened (pacing for people
    /// watching; 0 plays at once).
    pub bot_delay_ms: u64,
    /// After every discard and every kong declared, the table waits this long whoever could
    /// claim (see the [module docs](self)); 0: no window, the table moves on as soon as
    /// everybody asked has answered.
    pub claim_window_ms: u64,
}

/// True for the actions after which a tile may be on offer (a discard to claim, a kong to
/// rob): the table waits out the claim window after each of them, whether or not anybody may
/// claim, so that the wait tells nothing.
fn opens_window(action: Action) -> bool {
    matches!(
        action,
        Action::Discard(_) | Action::AddedKong(_) | Action::ConcealedKong(_)
    )
}

/// Who made an automatic decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecidedBy {
    /// The chair's own bot.
    Bot,
    /// The stand-in, for a person whose timer ran out (or who is away).
    StandIn,
}

/// An automatic decision: apply it with [`Driver::act`].
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The chair deciding.
    pub player: Player,
    /// What it plays.
    pub action: Action,
    /// Its bot, or the stand-in.
    pub by: DecidedBy,
    /// Set when the bot chose an action the engine refuses: `action` is then the first legal
    /// action, and this is what the bot chose and why it was refused.
    pub refused: Option<(Action, ActionError)>,
}

/// What [`Driver::poll`] says is due.
#[derive(Debug, Clone, PartialEq)]
pub enum Poll {
    /// An automatic decision is due now.
    Act(Decision),
    /// Nothing automatic is due before this time; `None`: nothing until a person acts, the
    /// next hand is dealt ([`Driver::deal_next`]) or ever (the match is over).
    Wait(Option<u64>),
}

/// A decision point of a hand: the hand, whose turn, the tile on offer and the live wall's
/// count (claims answered one by one keep the same point).
type Point = (u32, Option<Player>, Option<(Player, Tile)>, usize);

/// Why a driver could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DriverError {
    /// One controller per chair is needed.
    #[error("{controllers} controllers for {players} players")]
    ControllerCount {
        /// Controllers given.
        controllers: usize,
        /// Players at the table.
        players: usize,
    },
    /// No such chair.
    #[error("no player {0} at this table")]
    NoSuchPlayer(Player),
}

struct Chair {
    controller: Controller,
    stand_in: Option<Box<dyn Bot>>,
    present: bool,
    /// When the person left (their grace runs from then, or from the decision point when it
    /// opened later).
    absent_since: u64,
    /// Played by the stand-in until present again (their timer ran out while away).
    away: bool,
}

/// A match with a controller per chair. See the [module docs](self).
pub struct Driver {
    session: Session,
    chairs: Vec<Chair>,
    timers: Timers,
    /// The decision point the timers run for, and when it opened.
    point: Option<(Point, u64)>,
    /// When the timers last changed ([`Driver::set_timers`]): a person's timer runs from the
    /// decision point's opening or from then, whichever is later.
    timers_since: u64,
    /// The automatic decision proposed and not yet applied.
    proposed: Option<Decision>,
    /// When the claim window of the last discard or kong ends (see [`Timers::claim_window_ms`]).
    window_end: Option<u64>,
    legal: Vec<Action>,
    obs: Observation,
}

impl fmt::Debug for Driver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Driver")
            .field("hand", &self.session.hand_number())
            .field(
                "controllers",
                &self
                    .chairs
                    .iter()
                    .map(|c| &c.controller)
                    .collect::<Vec<_>>(),
            )
            .field("timers", &self.timers)
            .field("point", &self.point)
            .finish()
    }
}

impl Driver {
    /// Drives `session` with `controllers[p]` deciding for chair `p`. Every person starts
    /// present.
    pub fn new(
        session: Session,
        controllers: Vec<Controller>,
        timers: Timers,
    ) -> Result<Driver, DriverError> {
        let players = session.ruleset().players();
        if controllers.len() != players {
            return Err(DriverError::ControllerCount {
                controllers: controllers.len(),
                players,
            });
        }
        Ok(Driver {
            session,
            chairs: controllers
                .into_iter()
                .map(|controller| Chair {
                    controller,
                    stand_in: None,
                    present: true,
                    absent_since: 0,
                    away: false,
                })
                .collect(),
            timers,
            point: None,
            timers_since: 0,
            proposed: None,
            window_end: None,
            legal: Vec::with_capacity(24),
            obs: bots::empty_observation(),
        })
    }

    /// The session (match, hand in play, log).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Gives up the driver for its session.
    pub fn into_session(self) -> Session {
        self.session
    }

    /// Gives up the driver for its session and its controllers, by chair.
    pub fn into_parts(self) -> (Session, Vec<Controller>) {
        let controllers = self.chairs.into_iter().map(|c| c.controller).collect();
        (self.session, controllers)
    }

    /// The timers.
    pub fn timers(&self) -> Timers {
        self.timers
    }

    /// Replaces the timers from `now` on (a person took a bot's seat, and the table now plays
    /// with the timers of a room of people; or the other way). A person's timer for the
    /// decision in play runs from `now`, not from when the decision opened: nobody is played
    /// by the stand-in at once for time they took while they had no timer (or a longer one).
    /// Bots keep their pacing from the decision's opening, and a claim window already open
    /// keeps its end; the next discard's window has the new length.
    pub fn set_timers(&mut self, timers: Timers, now: u64) {
        if timers != self.timers {
            self.timers = timers;
            self.timers_since = now;
        }
    }

    /// Who decides for `p`.
    pub fn controller(&self, p: Player) -> Option<&Controller> {
        self.chairs.get(p.index()).map(|c| &c.controller)
    }

    /// Hands chair `p` to `controller` (a person's seat filled with a bot, or a bot replaced).
    pub fn set_controller(&mut self, p: Player, controller: Controller) -> Result<(), DriverError> {
        let chair = self
            .chairs
            .get_mut(p.index())
            .ok_or(DriverError::NoSuchPlayer(p))?;
        chair.controller = controller;
        chair.away = false;
        self.proposed = None;
        Ok(())
    }

    /// Says whether the person in chair `p` is there (connected) from `now`. A person who
    /// comes back decides for themselves again; one who leaves gets the away grace, counted
    /// from when they left (or from when a later decision point opened), and no more than
    /// their own timer's end.
    pub fn set_present(&mut self, p: Player, present: bool, now: u64) {
        if let Some(chair) = self.chairs.get_mut(p.index()) {
            if chair.present && !present {
                chair.absent_since = now;
            }
            chair.present = present;
            if present {
                chair.away = false;
                if self.proposed.as_ref().is_some_and(|d| d.player == p) {
                    self.proposed = None;
                }
            }
        }
    }

    /// True when the person in chair `p` is played by the stand-in until they are back.
    pub fn is_away(&self, p: Player) -> bool {
        self.chairs.get(p.index()).is_some_and(|c| c.away)
    }

    /// True when chair `p` is present (bots always are).
    pub fn is_present(&self, p: Player) -> bool {
        self.chairs
            .get(p.index())
            .is_some_and(|c| !c.controller.is_person() || c.present)
    }

    /// True when the driver decides for `p` now without waiting: a bot, or a person away.
    pub fn automatic(&self, p: Player) -> bool {
        self.chairs
            .get(p.index())
            .is_some_and(|c| !c.controller.is_person() || c.away)
    }

    /// When person `p`'s timer for the decision in play runs out, if they must decide and have
    /// a timer (for showing a countdown).
    pub fn deadline_of(&self, p: Player) -> Option<u64> {
        if self.automatic(p) || !self.session.game().to_act().contains(p) {
            return None;
        }
        let (point, opened) = self.point?;
        if point != self.current_point() {
            return None;
        }
        self.deadline_at(p, opened)
    }

    /// While the claim window of the last discard or kong is open at `now`: when it ends. Until
    /// then nothing that follows the discard may be shown to anybody not asked about it (the
    /// answers are made meanwhile, and the next turn opens at its end), so that nothing tells
    /// whether anybody could claim.
    pub fn window_open_until(&self, now: u64) -> Option<u64> {
        self.window_end.filter(|&end| now < end)
    }

    /// The claim window's end (0 without one).
    fn window_floor(&self) -> u64 {
        self.window_end.unwrap_or(0)
    }

    /// When a decision point seen at `now` opens: a turn after a discard or kong opens when its
    /// claim window ends (as it would had somebody been asked and passed at its end); a tile on
    /// offer opens at once (a person's claim timer runs from the discard).
    fn opening(&self, now: u64) -> u64 {
        if self.session.game().on_offer().is_some() {
            now
        } else {
            now.max(self.window_floor())
        }
    }

    fn current_point(&self) -> Point {
        let g = self.session.game();
        (
            self.session.hand_number(),
            g.turn(),
            g.on_offer(),
            g.live_remaining(),
        )
    }

    /// When person `p`'s time for the decision in play (opened at `opened`) runs out, if ever:
    /// their timer, or for a person who is away the grace from when they left (or from
    /// `opened`, if later) when that is sooner; both run from the last change of the timers
    /// instead when that came later ([`Driver::set_timers`]).
    fn deadline_at(&self, p: Player, opened: u64) -> Option<u64> {
        let timer = if self.session.game().on_offer().is_some() {
            self.timers.claim_ms
        } else {
            self.timers.turn_ms
        };
        let chair = self.chairs.get(p.index())?;
        let from = opened.max(self.timers_since);
        let timer_end = timer.map(|t| from.saturating_add(t));
        if chair.present {
            return timer_end;
        }
        let grace_end = self
            .timers
            .away_grace_ms
            .map(|g| from.max(chair.absent_since).saturating_add(g));
        match (timer_end, grace_end) {
            (Some(t), Some(g)) => Some(t.min(g)),
            (t, g) => t.or(g),
        }
    }

    /// What is due at `now` (see [`Poll`]). Call it after every change (an action, a deal, a
    /// person arriving or leaving) and when the time it asked to wait for has come.
    pub fn poll(&mut self, now: u64) -> Poll {
        if self.session.is_over() || self.session.game().is_over() {
            self.point = None;
            self.proposed = None;
            return Poll::Wait(None);
        }
        let point = self.current_point();
        let opened = match self.point {
            Some((p, at)) if p == point => at,
            _ => {
                let at = self.opening(now);
                self.point = Some((point, at));
                self.proposed = None;
                at
            }
        };
        if let Some(d) = &self.proposed {
            return Poll::Act(d.clone());
        }
        let mut wake: Option<u64> = None;
        let actors: Vec<Player> = self.session.game().to_act().collect();
        for p in actors {
            let (is_bot, away) = {
                let chair = &self.chairs[p.index()];
                (!chair.controller.is_person(), chair.away)
            };
            let by = match (is_bot, away) {
                (true, _) => DecidedBy::Bot,
                (false, true) => DecidedBy::StandIn,
                (false, false) => match self.deadline_at(p, opened) {
                    Some(at) if now >= at => {
                        let chair = &mut self.chairs[p.index()];
                        if !chair.present {
                            chair.away = true;
                        }
                        // The timer ran out: the stand-in decides now, whatever the bot delay.
                        let decision = self.decide(p, DecidedBy::StandIn);
                        self.proposed = Some(decision.clone());
                        return Poll::Act(decision);
                    }
                    Some(at) => {
                        wake = Some(wake.map_or(at, |w| w.min(at)));
                        continue;
                    }
                    None => continue,
                },
            };
            let due = opened.saturating_add(self.timers.bot_delay_ms);
            if now >= due {
                let decision = self.decide(p, by);
                self.proposed = Some(decision.clone());
                return Poll::Act(decision);
            }
            wake = Some(wake.map_or(due, |w| w.min(due)));
        }
        Poll::Wait(wake)
    }

    /// Asks `p`'s bot (or stand-in) for its decision now.
    fn decide(&mut self, p: Player, by: DecidedBy) -> Decision {
        let game = self.session.game();
        game.legal_actions_into(p, &mut self.legal);
        let ruleset = self.session.ruleset().clone();
        let chair = &mut self.chairs[p.index()];
        let stand_in_seed = match chair.controller {
            Controller::Person { stand_in_seed } => stand_in_seed,
            Controller::Bot(_) => 0,
        };
        let bot: &mut Box<dyn Bot> = match (&mut chair.controller, by) {
            (Controller::Bot(b), DecidedBy::Bot) => b,
            _ => chair
                .stand_in
                .get_or_insert_with(|| Box::new(bots::EfficientBot::new(ruleset, stand_in_seed))),
        };
        if bot.needs_observation() {
            observe_into(game, p, &self.legal, &mut self.obs);
        }
        let chosen = bot.act(&self.obs, &self.legal);
        let bots::SeatAction { action, refused } =
            bots::SeatAction::of(game, p, chosen, &self.legal);
        Decision {
            player: p,
            action,
            by,
            refused,
        }
    }

    /// Applies `action` of `player` (a person's, or a decision from [`Driver::poll`]) at `now`.
    /// A refused action leaves everything unchanged, as [`Session::act`] does.
    pub fn act(&mut self, player: Player, action: Action, now: u64) -> Result<Step, MatchError> {
        let step = self.session.act(player, action)?;
        self.proposed = None;
        self.tell_bots(&step);
        if self.timers.claim_window_ms > 0 && opens_window(action) {
            self.window_end = Some(now.saturating_add(self.timers.claim_window_ms));
        }
        // A claim answer keeps the decision point (the others still answer the same tile);
        // anything else opens a new one (after the claim window, if one is open).
        if let Some((point, _)) = self.point
            && point != self.current_point()
        {
            self.point = Some((self.current_point(), self.opening(now)));
        }
        Ok(step)
    }

    /// Tells every chair's bot that the hand (and the match) ended, when `step` ended them.
    fn tell_bots(&mut self, step: &Step) {
        let Some(settlement) = &step.settlement else {
            return;
        };
        let standings = step.match_over.then(|| self.session.standings());
        for chair in &mut self.chairs {
            if let Controller::Bot(bot) = &mut chair.controller {
                bot.hand_ended(&settlement.outcome, &settlement.payments);
                if let Some(standings) = &standings {
                    bot.match_ended(self.session.matches().hands_played(), standings);
                }
            }
        }
    }

    /// Deals the next hand (see [`Session::deal_next`]).
    pub fn deal_next(&mut self, now: u64) -> Result<Vec<Event>, MatchError> {
        let events = self.session.deal_next()?;
        self.proposed = None;
        self.window_end = None;
        self.point = Some((self.current_point(), now));
        Ok(events)
    }

    /// Plays every automatic decision due at `now` until a person must decide, the hand ends or
    /// something waits for a later time: the steps taken, with the decisions that made them.
    /// For callers that apply decisions at once (no store to write first).
    pub fn run(&mut self, now: u64) -> Result<Vec<(Decision, Step)>, MatchError> {
        let mut steps = Vec::new();
        while let Poll::Act(d) = self.poll(now) {
            let step = self.act(d.player, d.action, now)?;
            steps.push((d, step));
        }
        Ok(steps)
    }
}

/// Plays a whole match under `ruleset` (seed `seed`, at most `hand_limit` hands if given) with
/// `bots[p]` choosing every action of chair `p` from its observation (when several players must
/// answer a discard, in chair order), through a [`Session`]: the match at its end and its log.
///
/// Bots that never win may never end a match whose dealer keeps the deal on a drawn hand (Hong
/// Kong; Hangzhou with `end = points:N`): give such play a `hand_limit`.
pub fn play_match(
    ruleset: Arc<TableRules>,
    seed: u64,
    hand_limit: Option<u32>,
    bots: &mut [Box<dyn Bot>],
) -> Result<(Match, MatchLog), MatchError> {
    let players = ruleset.players();
    if bots.len() != players {
        return Err(MatchError::BotCount {
            bots: bots.len(),
            players,
        });
    }
    let (session, _) = Session::new(ruleset, seed, hand_limit)?;
    // Each chair's bot goes into the driver for the match (its one policy for a refused
    // action applies here too) and back to the caller at the end.
    let controllers = bots
        .iter_mut()
        .map(|b| Controller::Bot(std::mem::replace(b, Box::new(RandomBot::new(0)))))
        .collect();
    let mut driver = Driver::new(session, controllers, Timers::default())
        .expect("one bot per chair, checked above");
    let result = loop {
        if driver.session().is_over() {
            break Ok(());
        }
        if let Err(e) = driver.run(0) {
            break Err(e);
        }
        if driver.session().awaiting_deal()
            && let Err(e) = driver.deal_next(0)
        {
            break Err(e);
        }
    };
    let (session, controllers) = driver.into_parts();
    for (slot, c) in bots.iter_mut().zip(controllers) {
        if let Controller::Bot(b) = c {
            *slot = b;
        }
    }
    result.map(|()| session.into_parts())
}

#[cfg(test)]
mod tests;
