//! Batches of one request a line (`analyze --batch`, `score --json` with JSON lines): each
//! line gets one answer line, a line that cannot be answered gets an error object with its line
//! number, and the rest go on.

use crate::exit::{Finished, UsageError};
use crate::output::{Out, write_failed};
use serde_json::json;
use std::io::{self, BufRead, BufReader, Read};

/// Answers every non-blank line of `input`, in order, one line of `out` each: the answer, or
/// `{"line": N, "error": "..."}` (lines counted from 1, blank ones included). Output is flushed
/// whenever the input has nothing more buffered, so an interactive reader sees each answer at
/// once. `source` names the input in a read error.
pub fn answer_lines(
    input: impl Read,
    source: &str,
    mut answer: impl FnMut(&str) -> Result<String, String>,
) -> Result<Finished, UsageError> {
    let mut out = Out::new();
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    let mut raw = Vec::new();
    let mut number = 0usize;
    let mut failed = 0usize;
    loop {
        if reader.buffer().is_empty() {
            if let Err(e) = out.flush() {
                return write_failed(e);
            }
        }
        raw.clear();
        match reader.read_until(b'\n', &mut raw) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(UsageError(format!("reading {source}: {e}"))),
        }
        number += 1;
        let reply = match std::str::from_utf8(&raw) {
            Ok(text) if without_bom(text).trim().is_empty() => continue,
            Ok(text) => answer(without_bom(text).trim()),
            Err(_) => Err("the line is not UTF-8 text".to_string()),
        };
        let written = match reply {
            Ok(line) => out.line(&line),
            Err(error) => {
                failed += 1;
                out.line(&error_line(number, &error))
            }
        };
        if let Err(e) = written {
            return write_failed(e);
        }
    }
    match out.flush() {
        Err(e) => write_failed(e),
        Ok(()) if failed > 0 => Ok(Finished::SomeLinesFailed),
        Ok(()) => Ok(Finished::Done),
    }
}

/// `text` without a leading UTF-8 byte order mark (editors on Windows write one; it is not
/// part of the request).
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The answer line of a line that could not be answered.
pub fn error_line(number: usize, error: &str) -> String {
    json!({"line": number, "error": error}).to_string()
}

/// Where a batch reads from: a file, or standard input for "-".
pub fn open(source: &str, flag: &str) -> Result<Box<dyn Read>, UsageError> {
    if source == "-" {
        Ok(Box::new(io::stdin().lock()))
    } else {
        std::fs::File::open(source)
            .map(|f| Box::new(f) as Box<dyn Read>)
            .map_err(|e| UsageError(format!("{flag} {source}: {e}")))
    }
}
