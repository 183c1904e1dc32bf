//! The bot's process: spawned with pipes, written a line at a time, read by a thread of its
//! own so that a read can wait with a time limit.

use crate::spec::Command;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use crate::conversation::MAX_LINE;

/// How long a bot whose standard input closed has to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// Where the bot's standard error goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Stderr {
    /// To ours (the default: a bot's messages are seen).
    #[default]
    Inherit,
    /// Nowhere (a terminal interface that owns the screen).
    Discard,
}

/// Why the process could not be talked to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Trouble {
    /// It exited or closed its output (with what we know of how).
    Gone(String),
    /// No line within the time limit.
    Timeout(Duration),
    /// A line longer than [`MAX_LINE`].
    TooLong,
}

/// A running bot.
pub(crate) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Result<String, Trouble>>,
}

impl Process {
    /// Starts `command` with piped standard input and output.
    pub(crate) fn spawn(command: &Command, stderr: Stderr) -> std::io::Result<Process> {
        let mut child = std::process::Command::new(&command.program)
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match stderr {
                Stderr::Inherit => Stdio::inherit(),
                Stderr::Discard => Stdio::null(),
            })
            .spawn()?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no pipe to the bot's standard output"))?;
        let (tx, lines) = channel();
        std::thread::Builder::new()
            .name("external-bot-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let mut buf = Vec::new();
                    let read = (&mut reader)
                        .take(MAX_LINE as u64 + 1)
                        .read_until(b'\n', &mut buf);
                    let line = match read {
                        Ok(0) => return,
                        Ok(_) if buf.len() > MAX_LINE => Err(Trouble::TooLong),
                        Ok(_) => Ok(String::from_utf8_lossy(&buf).into_owned()),
                        Err(e) => Err(Trouble::Gone(format!("reading its output: {e}"))),
                    };
                    let stop = line.is_err();
                    if tx.send(line).is_err() || stop {
                        return;
                    }
                }
            })?;
        Ok(Process {
            child,
            stdin,
            lines,
        })
    }

    /// Writes one line (a newline is added) and flushes it.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), Trouble> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Trouble::Gone("its input is closed".into()));
        };
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        written.map_err(|e| Trouble::Gone(self.exit_note(&format!("writing to it: {e}"))))
    }

    /// The next line that is not blank, waiting until `deadline` at most.
    pub(crate) fn receive(
        &mut self,
        deadline: Instant,
        limit: Duration,
    ) -> Result<String, Trouble> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Ok(line)) if line.trim().is_empty() => continue,
                Ok(line) => return line,
                Err(RecvTimeoutError::Timeout) => return Err(Trouble::Timeout(limit)),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Trouble::Gone(self.exit_note("it closed its output")));
                }
            }
        }
    }

    /// `what`, with the exit status when the process has exited (waiting a moment for it).
    fn exit_note(&mut self, what: &str) -> String {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("{what} ({status})"),
                Ok(None) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => return what.to_string(),
            }
        }
    }

    /// Closes its input and gives it [`EXIT_GRACE`] to exit; kills it after that.
    pub(crate) fn finish(&mut self) {
        self.stdin = None;
        let until = Instant::now() + EXIT_GRACE;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        self.kill();
    }

    /// Ends it now.
    pub(crate) fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.finish();
    }
}
