//! Where the rules of play put the events they cause: a caller's `Vec`, or nowhere when the
//! caller never reads them ([`Unrecorded`]: [`crate::bots::play_hand`] wants only the outcome).

use super::super::event::Event;

/// A place for the events an action causes.
pub(super) trait Events {
    /// Records `event` (in order).
    fn record(&mut self, event: Event);

    /// Records the event `make` makes: for an event that copies what it holds (a hand, a
    /// score, payments), which a sink that keeps nothing then never makes.
    fn record_with(&mut self, make: impl FnOnce() -> Event);
}

impl Events for Vec<Event> {
    #[inline]
    fn record(&mut self, event: Event) {
        self.push(event);
    }

    #[inline]
    fn record_with(&mut self, make: impl FnOnce() -> Event) {
        self.push(make());
    }
}

/// Events nobody reads: dropped as they are made, so that a hand played only for its outcome
/// neither copies nor frees them.
pub(super) struct Unrecorded;

impl Events for Unrecorded {
    #[inline]
    fn record(&mut self, event: Event) {
        // Only the variants that own heap memory need dropping. Forgetting the others frees
        // nothing that needs freeing, and lets the compiler leave out their making (dropping
        // any `Event` is a call it does not inline). The match names every variant, so that a
        // new one must say which kind it is.
        match event {
            Event::DiceRolled { .. }
            | Event::SeatsChosen { .. }
            | Event::HandStarted { .. }
            | Event::Won { .. }
            | Event::HandEnded { .. } => drop(event),
            Event::WindTileDrawn { .. }
            | Event::WallBuilt { .. }
            | Event::WallBroken { .. }
            | Event::TilesDealt { .. }
            | Event::FlowerDeclared { .. }
            | Event::IndicatorRevealed { .. }
            | Event::Drew { .. }
            | Event::ReplacementDrawn { .. }
            | Event::Discarded { .. }
            | Event::Claimed { .. }
            | Event::KongDeclared { .. }
            | Event::KongRobbed { .. }
            | Event::ExhaustiveDraw => std::mem::forget(event),
        }
    }

    #[inline]
    fn record_with(&mut self, _make: impl FnOnce() -> Event) {}
}
