//! Unit tests of the rules of play: why an illegal action is refused, and that `check` accepts exactly the legal actions.
