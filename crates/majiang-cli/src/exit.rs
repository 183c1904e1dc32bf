//! How a command ends: a [`UsageError`] for the person (its message on standard error, exit 2),
//! or how far it went ([`Finished`]: exit 0, 1 or 130). Every subcommand returns one of them;
//! `main` turns it into the exit status.

use std::process::ExitCode;

/// An error for the user: the message goes to standard error and the exit code is 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl<E: std::fmt::Display> From<E> for UsageError {
    fn from(e: E) -> Self {
        UsageError(e.to_string())
    }
}

/// How a command that ran to its end went, beyond success: its exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finished {
    /// Everything was done: exit 0.
    Done,
    /// A batch had lines it could not answer (each got an error line): exit 1.
    SomeLinesFailed,
    /// The user interrupted it (Ctrl-C in `play`): exit 130, as a shell reports SIGINT.
    Interrupted,
}

impl From<Finished> for ExitCode {
    fn from(f: Finished) -> ExitCode {
        match f {
            Finished::Done => ExitCode::SUCCESS,
            Finished::SomeLinesFailed => ExitCode::from(1),
            Finished::Interrupted => ExitCode::from(130),
        }
    }
}
