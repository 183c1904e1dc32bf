//! Naming bots on a command line: a list of bots separated by commas, where an entry is a bot
//! of ours by name (`efficient`) or a command to run, `cmd:` and the command line.
//!
//! The command is split into words as a POSIX shell would (quotes and backslashes, no
//! variables or globs), and a comma inside quotes does not end the entry:
//!
//! ```
//! use majiang_external::spec::{BotSpec, split_list};
//!
//! let entries = split_list("efficient,cmd:python3 'my bot.py' --level=2,random").unwrap();
//! assert_eq!(entries.len(), 3);
//! let BotSpec::Command(cmd) = BotSpec::parse(&entries[1]).unwrap() else { panic!() };
//! assert_eq!(cmd.program, "python3");
//! assert_eq!(cmd.args, ["my bot.py", "--level=2"]);
//! assert_eq!(split_list("cmd:bot --weights 'a,b',easy").unwrap()[0], "cmd:bot --weights 'a,b'");
//! ```

use std::fmt;

/// The prefix of an entry that runs a command.
pub const COMMAND_PREFIX: &str = "cmd:";

/// A command to run: the program and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The program (a path, or a name looked up on `PATH`).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
}

impl Command {
    /// The command as a person reads it in a bot's name: each word that is a path shortened
    /// to its file name, quoted as a shell would ("python3 misbehaving_bot.py crash 2" for
    /// `python3 /work/bots/misbehaving_bot.py crash 2`).
    ///
    /// ```
    /// use majiang_external::spec::Command;
    ///
    /// let c = Command::parse("python3 /srv/bots/my_bot.py --level 2").unwrap();
    /// assert_eq!(c.short(), "python3 my_bot.py --level 2");
    /// ```
    pub fn short(&self) -> String {
        let words = std::iter::once(&self.program).chain(&self.args);
        let short: Vec<String> = words
            .map(|w| {
                let name = w.rsplit('/').find(|part| !part.is_empty()).unwrap_or(w);
                shlex::try_quote(name).map_or_else(|_| name.to_string(), |q| q.into_owned())
            })
            .collect();
        short.join(" ")
    }

    /// Splits a command line into words as a POSIX shell does.
    pub fn parse(line: &str) -> Result<Command, SpecError> {
        let words = shlex::split(line).ok_or_else(|| SpecError::Quotes(line.to_string()))?;
        let mut words = words.into_iter();
        let program = words
            .next()
            .ok_or_else(|| SpecError::EmptyCommand(line.to_string()))?;
        Ok(Command {
            program,
            args: words.collect(),
        })
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words = std::iter::once(&self.program).chain(&self.args);
        let quoted: Vec<String> = words
            .map(|w| shlex::try_quote(w).map_or_else(|_| w.clone(), |q| q.into_owned()))
            .collect();
        f.write_str(&quoted.join(" "))
    }
}

/// One entry of a list of bots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotSpec {
    /// One of the library's bots, by name or level (checked where it is made).
    Named(String),
    /// A command speaking the bot protocol.
    Command(Command),
}

impl BotSpec {
    /// Reads one entry: `cmd:COMMAND` or a bot's name.
    pub fn parse(entry: &str) -> Result<BotSpec, SpecError> {
        let entry = entry.trim();
        match entry.strip_prefix(COMMAND_PREFIX) {
            Some(line) => Ok(BotSpec::Command(Command::parse(line)?)),
            None if entry.is_empty() => Err(SpecError::EmptyEntry),
            None => Ok(BotSpec::Named(entry.to_string())),
        }
    }
}

/// Why a list of bots cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A quote that is never closed.
    #[error("unbalanced quotes in {0:?}")]
    Quotes(String),
    /// `cmd:` with nothing after it.
    #[error("no command after \"cmd:\" in {0:?}")]
    EmptyCommand(String),
    /// Two commas in a row, or a comma at either end.
    #[error("an empty entry in the list of bots")]
    EmptyEntry,
}

/// Splits a list of bots at the commas outside quotes (single or double, as the shell reads
/// them; a backslash outside single quotes escapes the next character). Entries are trimmed.
pub fn split_list(list: &str) -> Result<Vec<String>, SpecError> {
    let mut entries = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut chars = list.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, ',') => {
                entries.push(std::mem::take(&mut current).trim().to_string());
                continue;
            }
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None | Some('"'), '\\') => {
                current.push(c);
                if let Some(next) = chars.next() {
                    current.push(next);
                }
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if quote.is_some() {
        return Err(SpecError::Quotes(list.to_string()));
    }
    entries.push(current.trim().to_string());
    if entries.iter().any(String::is_empty) {
        return Err(SpecError::EmptyEntry);
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_split_at_commas_outside_quotes() {
        assert_eq!(
            split_list("efficient, random ,hard").unwrap(),
            ["efficient", "random", "hard"]
        );
        assert_eq!(
            split_list(r#"cmd:bot "x,y" a\,b,easy"#).unwrap(),
            [r#"cmd:bot "x,y" a\,b"#, "easy"]
        );
        assert_eq!(split_list("a,,b"), Err(SpecError::EmptyEntry));
        assert_eq!(split_list("a,"), Err(SpecError::EmptyEntry));
        assert!(matches!(
            split_list("cmd:bot 'x,y"),
            Err(SpecError::Quotes(_))
        ));
    }

    #[test]
    fn commands_split_into_words() {
        let BotSpec::Command(c) = BotSpec::parse(r#"cmd:python3 "my bot.py" a\,b"#).unwrap() else {
            panic!("a command")
        };
        assert_eq!(c.program, "python3");
        assert_eq!(c.args, ["my bot.py", "a,b"]);
        assert_eq!(c.to_string(), "python3 'my bot.py' 'a,b'");
        assert_eq!(
            BotSpec::parse(" normal ").unwrap(),
            BotSpec::Named("normal".into())
        );
        assert!(matches!(
            BotSpec::parse("cmd:   "),
            Err(SpecError::EmptyCommand(_))
        ));
        assert_eq!(BotSpec::parse(""), Err(SpecError::EmptyEntry));
    }
}
