//! A small hand-written argument parser (no clap: it would triple the build
//! time of this crate, and the grammar is tiny).
//!
//! Grammar: `--long value`, `--long=value`, `-h`, `-V`, a lone `-` is a value
//! (stdin), and everything after `--` is a value.

use std::fmt;

/// A command-line mistake: printed with the usage, exit code 2.
#[derive(Debug)]
pub struct UsageError {
    pub message: String,
    /// Which usage text to print with it (`None`: the top-level one).
    pub command: Option<&'static str>,
}

impl UsageError {
    pub fn new(command: Option<&'static str>, message: impl Into<String>) -> UsageError {
        UsageError { message: message.into(), command }
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// One lexed token.
#[derive(Debug, PartialEq, Eq)]
pub enum Tok {
    /// `--name` (without dashes, without any `=value`) or a short flag as `-h`.
    Flag(String),
    /// A positional value.
    Value(String),
}

/// Cursor over the arguments of one (sub)command.
pub struct Args {
    items: Vec<String>,
    pos: usize,
    only_values: bool,
    /// Inline value of the flag just returned (`--policy=p.json`).
    inline: Option<String>,
    /// Flag just returned, for error messages.
    last_flag: String,
    command: Option<&'static str>,
}

impl Args {
    pub fn new(items: Vec<String>) -> Args {
        Args { items, pos: 0, only_values: false, inline: None, last_flag: String::new(), command: None }
    }

    /// Names the subcommand whose usage errors should print.
    pub fn set_command(&mut self, command: &'static str) {
        self.command = Some(command);
    }

    pub fn error(&self, message: impl Into<String>) -> UsageError {
        UsageError::new(self.command, message)
    }

    /// The next token. An inline value the previous flag did not take is an error.
    pub fn next(&mut self) -> Result<Option<Tok>, UsageError> {
        if let Some(v) = self.inline.take() {
            return Err(self.error(format!("{} does not take a value (got {v:?})", self.last_flag)));
        }
        let Some(item) = self.items.get(self.pos).cloned() else { return Ok(None) };
        self.pos += 1;
        if self.only_values || item == "-" || !item.starts_with('-') {
            return Ok(Some(Tok::Value(item)));
        }
        if item == "--" {
            self.only_values = true;
            return self.next();
        }
        let flag = match item.split_once('=') {
            Some((name, value)) if item.starts_with("--") => {
                self.inline = Some(value.to_string());
                name.to_string()
            }
            _ => item,
        };
        self.last_flag = flag.clone();
        Ok(Some(Tok::Flag(flag)))
    }

    /// The value of the flag just returned by `next`.
    pub fn value(&mut self) -> Result<String, UsageError> {
        if let Some(v) = self.inline.take() {
            return Ok(v);
        }
        match self.items.get(self.pos) {
            Some(v) => {
                self.pos += 1;
                Ok(v.clone())
            }
            None => Err(self.error(format!("{} needs a value", self.last_flag))),
        }
    }

    /// The value of the flag just returned, which must be one of `choices`.
    pub fn choice(&mut self, choices: &[&'static str]) -> Result<&'static str, UsageError> {
        let v = self.value()?;
        choices
            .iter()
            .copied()
            .find(|c| *c == v)
            .ok_or_else(|| self.error(format!("{} must be one of {}, not {v:?}", self.last_flag, choices.join("|"))))
    }

    /// Everything not consumed yet (for a subcommand's own parser).
    pub fn rest(mut self) -> Vec<String> {
        self.items.split_off(self.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Args {
        Args::new(a.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn inline_and_separate_values() {
        let mut a = args(&["--policy=p.json", "--server", "gh", "cat.json"]);
        assert_eq!(a.next().unwrap(), Some(Tok::Flag("--policy".into())));
        assert_eq!(a.value().unwrap(), "p.json");
        assert_eq!(a.next().unwrap(), Some(Tok::Flag("--server".into())));
        assert_eq!(a.value().unwrap(), "gh");
        assert_eq!(a.next().unwrap(), Some(Tok::Value("cat.json".into())));
        assert_eq!(a.next().unwrap(), None);
    }

    #[test]
    fn dash_is_stdin_and_double_dash_ends_flags() {
        let mut a = args(&["-", "--", "--pretty"]);
        assert_eq!(a.next().unwrap(), Some(Tok::Value("-".into())));
        assert_eq!(a.next().unwrap(), Some(Tok::Value("--pretty".into())));
    }

    #[test]
    fn inline_value_on_a_switch_is_refused() {
        let mut a = args(&["--pretty=yes", "x"]);
        assert_eq!(a.next().unwrap(), Some(Tok::Flag("--pretty".into())));
        assert!(a.next().is_err());
    }

    #[test]
    fn missing_value_is_refused() {
        let mut a = args(&["--policy"]);
        a.next().unwrap();
        assert!(a.value().is_err());
    }
}
