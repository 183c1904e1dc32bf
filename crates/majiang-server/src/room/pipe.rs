//! An outside bot's process, for the room's task: started with `tokio::process`, written a line
//! at a time, its lines read and handed to the room as [`Heard`]. No clock here: the room keeps
//! the time limits (a late bot is told so and killed by the room's orders).
//!
//! Why `tokio::process` and not a thread per bot: the writes and the reads wait on the runtime's
//! I/O driver, so a bot that thinks for seconds holds no thread at all, and a room with four
//! bots costs four small tasks rather than four blocked threads.

use super::io::{BotOrder, Heard};
use majiang_external::conversation::MAX_LINE;
use majiang_external::spec::Command;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin};
use tokio::sync::{Notify, mpsc};

/// How long a bot whose standard input closed has to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// How long the exit status of a bot that closed its output is waited for, for the message.
const EXIT_NOTE_WAIT: Duration = Duration::from_millis(200);

/// Lines heard and not yet taken by the room (a bot writing faster waits).
const HEARD_QUEUE: usize = 64;

/// The room task's end of one bot's process.
pub(crate) struct Pipe {
    orders: mpsc::UnboundedSender<Order>,
    kill: Arc<Notify>,
}

enum Order {
    Line(String),
    Finish,
    Kill,
}

/// What a pipe hands to its room: the seat, and what was heard.
pub(crate) type HeardTx = mpsc::Sender<(usize, Heard)>;

impl Pipe {
    /// Starts `command` for `seat`; what it writes goes to `heard`. A command that cannot be
    /// started is heard as gone at once.
    pub(crate) fn start(seat: usize, command: &Command, heard: HeardTx) -> Pipe {
        let (orders, rx) = mpsc::unbounded_channel();
        let kill = Arc::new(Notify::new());
        let pipe = Pipe {
            orders,
            kill: kill.clone(),
        };
        let spawned = tokio::process::Command::new(&command.program)
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn();
        match spawned {
            Ok(child) => {
                tokio::spawn(run(seat, child, rx, kill, heard));
            }
            Err(e) => {
                let gone = Heard::Gone(format!("cannot start {command}: {e}"));
                tokio::spawn(async move { heard.send((seat, gone)).await });
            }
        }
        pipe
    }

    /// Carries out one of the room's orders (not [`BotOrder::Start`]).
    pub(crate) fn order(&self, order: BotOrder) {
        let sent = match order {
            BotOrder::Start(_) => Ok(()),
            BotOrder::Say(message) => match serde_json::to_string(&message) {
                Ok(line) => self.orders.send(Order::Line(line)),
                Err(e) => {
                    tracing::error!("cannot write a message to a bot: {e}");
                    Ok(())
                }
            },
            BotOrder::Finish => self.orders.send(Order::Finish),
            BotOrder::Kill => {
                // After the lines before it (the dismissal's notice); at once if a write is
                // stuck on a bot that does not read.
                self.kill.notify_one();
                self.orders.send(Order::Kill)
            }
        };
        // Sent to a process already ended: nothing to do.
        let _ = sent;
    }
}

/// The process's life: its lines to the room, the room's lines to it, until it is finished,
/// killed, or its room is gone (its orders closed: finished).
async fn run(
    seat: usize,
    mut child: Child,
    mut orders: mpsc::UnboundedReceiver<Order>,
    kill: Arc<Notify>,
    heard: HeardTx,
) {
    let mut stdin = child.stdin.take();
    let (lines_tx, mut lines) = mpsc::channel(HEARD_QUEUE);
    if let Some(stdout) = child.stdout.take() {
        tokio::spawn(read_lines(stdout, lines_tx));
    }
    let mut reading = true;
    loop {
        tokio::select! {
            order = orders.recv() => match order {
                Some(Order::Kill) => break,
                Some(Order::Line(line)) => {
                    let Some(input) = stdin.as_mut() else { continue };
                    let written = tokio::select! {
                        biased;
                        w = write_line(input, &line) => w,
                        _ = kill.notified() => break,
                    };
                    if let Err(e) = written {
                        stdin = None;
                        let what = exit_note(&mut child, &format!("writing to it: {e}")).await;
                        let _ = heard.send((seat, Heard::Gone(what))).await;
                    }
                }
                Some(Order::Finish) | None => {
                    drop(stdin.take());
                    tokio::select! {
                        _ = tokio::time::timeout(EXIT_GRACE, child.wait()) => {}
                        _ = kill.notified() => {}
                    }
                    break;
                }
            },
            line = lines.recv(), if reading => {
                let news = match line {
                    Some(Ok(line)) => Heard::Line(line),
                    Some(Err(news)) => {
                        reading = false;
                        news
                    }
                    None => {
                        reading = false;
                        Heard::Gone(exit_note(&mut child, "it closed its output").await)
                    }
                };
                let _ = heard.send((seat, news)).await;
            }
        }
    }
    let _ = child.kill().await;
}

async fn write_line(stdin: &mut ChildStdin, line: &str) -> std::io::Result<()> {
    stdin.write_all(line.as_bytes()).await?;
    stdin.write_all(b"\n").await?;
    stdin.flush().await
}

/// Reads the bot's lines that are not blank, until its output closes or a line is too long.
async fn read_lines(
    stdout: tokio::process::ChildStdout,
    lines: mpsc::Sender<Result<String, Heard>>,
) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut buf = Vec::new();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .await;
        let line = match read {
            Ok(0) => return,
            Ok(_) if buf.len() > MAX_LINE => Err(Heard::TooLong),
            Ok(_) => Ok(String::from_utf8_lossy(&buf).into_owned()),
            Err(e) => Err(Heard::Gone(format!("reading its output: {e}"))),
        };
        if matches!(&line, Ok(l) if l.trim().is_empty()) {
            continue;
        }
        let stop = line.is_err();
        if lines.send(line).await.is_err() || stop {
            return;
        }
    }
}

/// `what`, with the exit status when the process has exited (waiting a moment for it).
async fn exit_note(child: &mut Child, what: &str) -> String {
    match tokio::time::timeout(EXIT_NOTE_WAIT, child.wait()).await {
        Ok(Ok(status)) => format!("{what} ({status})"),
        _ => what.to_string(),
    }
}
