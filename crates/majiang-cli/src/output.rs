//! Standard output for a pipe: when its reader goes away (`majiang … | head -1`), the program
//! ends quietly with status 0 instead of reporting an error or panicking.
//!
//! The batch commands write through [`Out`] and hand a failed write to [`write_failed`], which
//! turns a closed pipe into success; `print!`-style writes anywhere else (in code shared with other commands) are
//! caught by a panic hook that recognises the standard library's "failed printing to stdout"
//! panic with a broken pipe and exits 0 before any message is printed.
//!
//! Long commands (`sim`, `review`) show their [`progress`] on standard error.

use crate::exit::{Finished, UsageError};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, BufWriter, ErrorKind, IsTerminal, StdoutLock, Write};

/// Installs the panic hook that ends the process quietly with status 0 when a `print!` fails
/// because standard output was closed; every other panic goes to the default hook.
pub fn exit_quietly_when_stdout_closes() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// Buffered, locked standard output for a command's many lines.
pub struct Out {
    inner: BufWriter<StdoutLock<'static>>,
}

impl Out {
    /// Locks standard output for the rest of the command.
    pub fn new() -> Out {
        Out {
            inner: BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
        }
    }

    /// Writes `text` and a newline.
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        self.inner.write_all(text.as_bytes())?;
        self.inner.write_all(b"\n")
    }

    /// Sends what is buffered, so a reader sees every line written so far.
    pub fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// What a failed write of standard output means for the command: a closed pipe (the reader
/// has all it wanted) ends it successfully, anything else (a full disk) is an error.
pub fn write_failed(e: io::Error) -> Result<Finished, UsageError> {
    if e.kind() == ErrorKind::BrokenPipe {
        Ok(Finished::Done)
    } else {
        Err(UsageError(format!("writing standard output: {e}")))
    }
}

/// A progress bar on standard error (hidden when it is not a terminal) counting `total`
/// `what` ("hands", "matches").
pub(crate) fn progress(total: u64, what: &str) -> ProgressBar {
    if std::io::stderr().is_terminal() {
        let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {what}, {{per_sec}}, eta {{eta}}"
        )) {
            pb.set_style(style);
        }
        pb
    } else {
        ProgressBar::hidden()
    }
}
