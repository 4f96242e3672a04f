//! Typed errors of the library. The binary wraps them with `anyhow` and maps
//! every one of them to a single line on stderr and exit code 2.

use crate::bytes::Bytes;

/// Everything the library can refuse. None of these is a bug: each one is a
/// property of the input (or of the machine) that the caller can report.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The game's parameters are malformed or out of range.
    #[error("{0}")]
    InvalidInput(String),

    /// A board projected, from its first plies, to need far more memory
    /// than the budget (the text gives the projection and its range).
    #[error("{}", self.render(plain))]
    ProjectedOverBudget {
        /// The projection, its range and what reaches further; each
        /// `{remedy}` in it stands for the next of `remedies`.
        message: String,
        /// The settings (and values) the message names.
        remedies: Vec<Remedy>,
    },

    /// The solve would need more memory than the budget allows.
    #[error("{}", self.render(plain))]
    OverMemoryBudget {
        /// What was being sized, e.g. "the cat-and-mouse table".
        what: String,
        /// The estimate, computed before any allocation.
        needed: Bytes,
        /// The budget in force.
        budget: Bytes,
        /// How to get more: raise the budget, or nothing on this machine;
        /// each `{remedy}` in it stands for the next of `remedies`.
        hint: String,
        /// The settings (and values) the hint names.
        remedies: Vec<Remedy>,
    },

    /// A run whose memory filled before it finished (the symbolic
    /// engine's node store: its size cannot be known in advance).
    #[error("{}", self.render(plain))]
    StoreFull {
        /// What was being made.
        what: String,
        /// The ply being made.
        ply: u32,
        /// Node slots of the store.
        nodes: u64,
        /// Their memory.
        bytes: Bytes,
    },

    /// The state space does not fit the solver's index width.
    #[error("the game has {states} states; the retrograde solver handles at most {limit}")]
    TooManyStates {
        /// Number of states of the game.
        states: u64,
        /// Largest state count the solver accepts.
        limit: u64,
    },

    /// A table file that cannot be read: truncated, corrupted, of another
    /// format version or of another game.
    #[error("{path}: {why}")]
    BadTableFile {
        /// The file.
        path: String,
        /// What is wrong with it.
        why: String,
    },

    /// A file could not be read or written.
    #[error("{path}: {}", os_text(cause))]
    Io {
        /// The file.
        path: String,
        /// The operating system's error (its text is in the message, so it
        /// is not a separate source: a chain would print it twice).
        cause: std::io::Error,
    },

    /// An input file could not be opened or read (missing, unreadable).
    #[error("cannot read {path}: {}", os_text(cause))]
    CannotRead {
        /// The file.
        path: String,
        /// The operating system's error.
        cause: std::io::Error,
    },

    /// The work did not finish before the caller's deadline.
    #[error("{0} did not finish within its time limit")]
    OutOfTime(String),

    /// The caller cancelled the work (its cancel flag was set) before it
    /// finished.
    #[error("{0} was cancelled")]
    Cancelled(String),

    /// Rayon could not start the requested worker threads.
    #[error("could not start the thread pool: {0}")]
    ThreadPool(String),

    /// One setting of a request is refused: what is wrong with it, in
    /// words that name no front end's spelling of it. Each front end
    /// names the setting its own way ([`Error::render`]): the command
    /// line as a flag, Python as a keyword argument.
    #[error("{}", self.render(plain))]
    Setting {
        /// The setting refused.
        setting: Setting,
        /// Why, starting with the value given where it helps (`h8 h8: …`);
        /// each `{remedy}` in it stands for the next of `remedies`, named
        /// by the front end.
        message: String,
        /// The settings (and values) that would serve instead, if any.
        remedies: Vec<Remedy>,
    },

    /// An input refused for a reason that names settings to give instead
    /// (`{remedy}` in the message, each standing for the next of
    /// `remedies`), each front end naming them its own way
    /// ([`Error::render`]); an [`Error::InvalidInput`] otherwise.
    #[error("{}", self.render(plain))]
    Refused {
        /// Why, with a `{remedy}` for each of `remedies`.
        message: String,
        /// The settings (and values) that would serve instead.
        remedies: Vec<Remedy>,
    },
}

/// What a refusal suggests instead: a setting, and the value to give it
/// when one does (`method` `threats`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Remedy {
    /// The setting to give.
    pub setting: Setting,
    /// Its value, if the remedy names one.
    pub value: Option<&'static str>,
}

impl Remedy {
    /// The remedy of giving `setting` (raising a budget, dropping a switch).
    pub const fn give(setting: Setting) -> Self {
        Remedy {
            setting,
            value: None,
        }
    }

    /// The remedy of giving `setting` the value `value` (`engine` `symbolic`).
    pub const fn set(setting: Setting, value: &'static str) -> Self {
        Remedy {
            setting,
            value: Some(value),
        }
    }
}

/// `message` with each `{remedy}` in it replaced by the next of
/// `remedies`, named by `name` (a `{remedy}` past the last one stays).
fn filled(
    message: &str,
    remedies: &[Remedy],
    name: &impl Fn(Setting, Option<&str>) -> String,
) -> String {
    let mut parts = message.split("{remedy}");
    let mut text = parts.next().unwrap_or_default().to_string();
    let mut remedies = remedies.iter();
    for part in parts {
        match remedies.next() {
            Some(r) => text.push_str(&name(r.setting, r.value)),
            None => text.push_str("{remedy}"),
        }
        text.push_str(part);
    }
    text
}

/// A setting named in plain words, for a message read outside any front
/// end: "the method threats".
pub fn plain(setting: Setting, value: Option<&str>) -> String {
    match value {
        Some(value) => format!("{} {value}", setting.plain()),
        None => setting.plain().to_string(),
    }
}

/// A setting of a request that an error may refer to, named by each front
/// end in its own words ([`Error::render`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// The memory budget.
    MaxMemory,
    /// The time limit.
    TimeLimit,
    /// The prover to use.
    Method,
    /// The moves to a position to prove.
    After,
    /// The file a certificate is written to.
    Proof,
    /// The file a threat proof's state is kept in.
    Checkpoint,
    /// Files of other threat proofs' states to add.
    MergeCheckpoint,
    /// Seconds between checkpoints.
    CheckpointEvery,
    /// Seconds between progress lines.
    ReportEvery,
    /// The threat prover's horizons.
    MaxStones,
    /// The threat prover's zone moves.
    ZoneMoves,
    /// The threat prover's runs of fours a defender turn looks for.
    Covers,
    /// The threat prover's search for the defender's own runs of fours.
    DefenderRuns,
    /// The threat prover's threat-space search.
    Vct,
    /// The engine that solves a table.
    Engine,
    /// The symbolic engine's encoding of a board.
    Encoding,
    /// A solve that counts positions only, with no values.
    CountOnly,
    /// Leave to replace a file at the output path that is not a table.
    Force,
    /// Leave to replace a file at the certificate path that is not a
    /// certificate.
    ReplaceAnyFile,
    /// The largest number of Can I Win.
    LargestNumber,
    /// The most stones a Nim move takes.
    MaxTake,
    /// The random playouts of a Monte Carlo tree search.
    Playouts,
    /// The exploration constant of a Monte Carlo tree search.
    Exploration,
}

impl Setting {
    /// The setting in words, for a message read outside any front end.
    pub fn plain(self) -> &'static str {
        match self {
            Setting::MaxMemory => "the memory budget",
            Setting::TimeLimit => "the time limit",
            Setting::Method => "the method",
            Setting::After => "the moves to prove after",
            Setting::Proof => "the certificate file",
            Setting::Checkpoint => "the checkpoint",
            Setting::MergeCheckpoint => "a checkpoint to merge",
            Setting::CheckpointEvery => "the seconds between checkpoints",
            Setting::ReportEvery => "the seconds between reports",
            Setting::MaxStones => "the horizon",
            Setting::ZoneMoves => "the zone moves",
            Setting::Covers => "the covers",
            Setting::DefenderRuns => "the defender runs",
            Setting::Vct => "the threat-space search",
            Setting::Engine => "the engine",
            Setting::Encoding => "the encoding",
            Setting::CountOnly => "the count-only option",
            Setting::Force => "the force option",
            Setting::ReplaceAnyFile => "the replace-any-file option",
            Setting::LargestNumber => "the largest number",
            Setting::MaxTake => "the largest take",
            Setting::Playouts => "the playouts",
            Setting::Exploration => "the exploration constant",
        }
    }
}

/// A setting's name and what is wrong with it: `NAME MESSAGE`, or
/// `NAME: …` when the message starts with its own colon.
fn joined(name: &str, message: &str) -> String {
    if message.starts_with([':', ',']) {
        format!("{name}{message}")
    } else {
        format!("{name} {message}")
    }
}

impl Error {
    /// The same error with `note` added to its message (a refusal stays a
    /// refusal of its setting, with its remedies).
    pub fn with_note(self, note: &str) -> Self {
        match self {
            Error::Setting {
                setting,
                message,
                remedies,
            } => Error::Setting {
                setting,
                message: message + note,
                remedies,
            },
            Error::Refused { message, remedies } => Error::Refused {
                message: message + note,
                remedies,
            },
            Error::ProjectedOverBudget { message, remedies } => Error::ProjectedOverBudget {
                message: message + note,
                remedies,
            },
            Error::OverMemoryBudget {
                what,
                needed,
                budget,
                hint,
                remedies,
            } => Error::OverMemoryBudget {
                what,
                needed,
                budget,
                hint: hint + note,
                remedies,
            },
            other => Error::InvalidInput(format!("{other}{note}")),
        }
    }

    /// The same error as a refusal of `setting`: its message (with the
    /// remedies it names) after the setting's name.
    pub fn of_setting(self, setting: Setting) -> Self {
        match self {
            Error::Refused { message, remedies }
            | Error::Setting {
                message, remedies, ..
            } => Error::Setting {
                setting,
                message,
                remedies,
            },
            other => Error::setting(setting, other.to_string()),
        }
    }

    /// A refusal of `setting`, for the reason `message`.
    pub fn setting(setting: Setting, message: impl Into<String>) -> Self {
        Error::Setting {
            setting,
            message: message.into(),
            remedies: Vec::new(),
        }
    }

    /// A refusal of `setting` whose `message` names, where it says
    /// `{remedy}`, the setting (and value) that would serve instead.
    pub fn setting_with(
        setting: Setting,
        message: impl Into<String>,
        remedy: Setting,
        value: Option<&'static str>,
    ) -> Self {
        Error::Setting {
            setting,
            message: message.into(),
            remedies: vec![Remedy {
                setting: remedy,
                value,
            }],
        }
    }

    /// An input refused for the reason `message`, which names each of
    /// `remedies` where it says `{remedy}` ([`Error::Refused`]).
    pub fn refused(message: impl Into<String>, remedies: &[Remedy]) -> Self {
        Error::Refused {
            message: message.into(),
            remedies: remedies.to_vec(),
        }
    }

    /// The message with each setting it refers to named by `name` (the
    /// command line's `--max-memory` or `--method threats`, Python's
    /// `max_memory=` or `method="threats"`); its `Display` names them in
    /// plain words ([`plain`]).
    pub fn render(&self, name: impl Fn(Setting, Option<&str>) -> String) -> String {
        match self {
            Error::Setting {
                setting,
                message,
                remedies,
            } => joined(&name(*setting, None), &filled(message, remedies, &name)),
            Error::Refused { message, remedies }
            | Error::ProjectedOverBudget { message, remedies } => filled(message, remedies, &name),
            Error::OverMemoryBudget {
                what,
                needed,
                budget,
                hint,
                remedies,
            } => {
                let (needed, budget) = figures(*needed, *budget);
                format!(
                    "{what} needs an estimated {needed} of memory, over the budget of {budget}{}",
                    filled(hint, remedies, &name)
                )
            }
            Error::StoreFull {
                what,
                ply,
                nodes,
                bytes,
            } => format!(
                "not reached: {what} filled the node store of {nodes} nodes ({bytes}) at ply \
                 {ply}; raise {}",
                name(Setting::MaxMemory, None)
            ),
            other => other.to_string(),
        }
    }
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// An I/O error's text without the `(os error N)` suffix that the standard
/// library appends: `No such file or directory`.
pub fn os_text(err: &std::io::Error) -> String {
    let text = err.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Most characters of an input that a message quotes ([`quoted`]).
pub const QUOTED_CHARS: usize = 60;

/// `text` quoted for a one-line message: whole, as `{:?}` quotes it, up to
/// [`QUOTED_CHARS`] characters; longer, its first [`QUOTED_CHARS`]
/// characters quoted, then `… (N bytes)` — so a message stays a line
/// whatever the input's length.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}… ({} bytes)", &text[..cut], text.len()),
    }
}

/// The two figures of a refusal, with the exact byte counts added when they
/// would print alike (1.7 GiB against 1.7 GiB says nothing).
fn figures(needed: Bytes, budget: Bytes) -> (String, String) {
    let (n, b) = (needed.to_string(), budget.to_string());
    if n == b {
        (
            format!("{n} ({} bytes)", needed.0),
            format!("{b} ({} bytes)", budget.0),
        )
    } else {
        (n, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_keeps_a_message_to_a_line() {
        assert_eq!(quoted("b2"), "\"b2\"");
        let long = "x".repeat(1000);
        assert_eq!(
            quoted(&long),
            format!("\"{}\"… (1000 bytes)", "x".repeat(60))
        );
    }
}
