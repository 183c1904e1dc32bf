//! Seeded matches played until a rule of revision 2 is met, for the tests that show it through
//! an interface (the server, the terminal, a stored log): Hong Kong's missed win (a seat that
//! passed a win is offered the same kind again before its next live-wall draw) and the last
//! discard (offered only as a win). Every seat plays the `efficient` bot, but passes every
//! win offered on a discard or a robbed kong, so bars are set and hands run to the wall's end.
//!
//! The search is deterministic: the same rules and seeds find the same match, and the actions
//! returned replay it on a [`Session`] of that seed (a server's stored room, a log).

use majiang::Tile;
use majiang::bots::{self, Bot};
use majiang::table::{Action, ActionError, Game, IllegalReason, Player, Session, TableRules};
use std::ops::Range;
use std::sync::Arc;

/// A match played to the moment a rule is met.
pub struct Found {
    /// The match seed.
    pub seed: u64,
    /// The hand limit it was played under.
    pub hand_limit: Option<u32>,
    /// Every action, in order, up to that moment (the hands' deals come between them).
    pub actions: Vec<(Player, Action)>,
    /// The seat the rule is about: the barred seat, or the seat offered the last discard.
    pub player: Player,
    /// The tile on offer.
    pub tile: Tile,
    /// The session at that moment.
    pub session: Session,
}

/// The first match among `seeds` where a seat asked to answer the tile on offer (it may
/// chow or pung it) would win on it but for Hong Kong's missed win (`rules` must have it on).
pub fn missed_win(
    rules: &Arc<TableRules>,
    seeds: Range<u64>,
    hand_limit: Option<u32>,
) -> Option<Found> {
    search(rules, seeds, hand_limit, |g| {
        let (_, tile) = g.on_offer()?;
        g.to_act()
            .find(|&p| {
                matches!(
                    g.check(p, Action::Win),
                    Err(ActionError::Illegal {
                        reason: IllegalReason::MissedWin,
                        ..
                    })
                )
            })
            .map(|p| (p, tile))
    })
}

/// The first match among `seeds` where the last discard (the live wall empty) is offered to a
/// seat as a win.
pub fn last_discard_win(
    rules: &Arc<TableRules>,
    seeds: Range<u64>,
    hand_limit: Option<u32>,
) -> Option<Found> {
    search(rules, seeds, hand_limit, |g| {
        let (_, tile) = g.on_offer()?;
        if g.live_remaining() != 0 {
            return None;
        }
        g.to_act()
            .find(|&p| g.legal_actions(p).contains(&Action::Win))
            .map(|p| (p, tile))
    })
}

/// Plays each seed's match (every seat `efficient`, passing wins on offer) until `met` names
/// a seat and a tile, before each decision; the first match where it does.
pub fn search(
    rules: &Arc<TableRules>,
    seeds: Range<u64>,
    hand_limit: Option<u32>,
    met: impl Fn(&Game) -> Option<(Player, Tile)>,
) -> Option<Found> {
    seeds
        .into_iter()
        .find_map(|seed| play_passing(rules, seed, hand_limit, &met).err())
        .map(|found| *found)
}

/// Plays the match of `seed` (every seat `efficient`, passing every win offered on a discard
/// or a robbed kong) to its end, or until `met` names a seat and a tile before a decision:
/// the whole match's session (its log, [`Session::log`], the match as recorded), or what was
/// found. `|_| None` plays it out.
pub fn play_passing(
    rules: &Arc<TableRules>,
    seed: u64,
    hand_limit: Option<u32>,
    met: impl Fn(&Game) -> Option<(Player, Tile)>,
) -> Result<Session, Box<Found>> {
    let (mut session, _) = Session::new(rules.clone(), seed, hand_limit).expect("a match");
    let mut players: Vec<Box<dyn Bot>> = (0..rules.players())
        .map(|i| bots::by_name("efficient", rules, seed * 8 + i as u64).expect("a bot"))
        .collect();
    let mut actions = Vec::new();
    while !session.is_over() {
        if session.awaiting_deal() {
            session.deal_next().expect("the next deal");
            continue;
        }
        if let Some((player, tile)) = met(session.game()) {
            return Err(Box::new(Found {
                seed,
                hand_limit,
                actions,
                player,
                tile,
                session,
            }));
        }
        let Some(p) = session.to_act() else { break };
        let legal = session.legal_actions(p);
        let offered_win = session.game().on_offer().is_some() && legal.contains(&Action::Win);
        let action = if offered_win {
            Action::Pass
        } else {
            players[p.index()].act(&session.observation(p), &legal)
        };
        session.act(p, action).expect("a legal action");
        actions.push((p, action));
    }
    Ok(session)
}
