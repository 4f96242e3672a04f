//! Typed errors of the library. The binary wraps them with `anyhow` and maps
//! every one of them to a single line on stderr and exit code 2.

use crate::memory::Bytes;

/// Everything the library can refuse. None of these is a bug: each one is a
/// property of the input (or of the machine) that the caller can report.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The game's parameters are malformed or out of range.
    #[error("{0}")]
    InvalidInput(String),

    /// A board projected, from its first plies, to need far more memory
    /// than the budget (the text gives the projection and its range).
    #[error("{0}")]
    ProjectedOverBudget(String),

    /// The solve would need more memory than the budget allows.
    #[error("{what} needs an estimated {} of memory, over the budget of {}{hint}", figures(*needed, *budget).0, figures(*needed, *budget).1)]
    OverMemoryBudget {
        /// What was being sized, e.g. "the cat-and-mouse table".
        what: String,
        /// The estimate, computed before any allocation.
        needed: Bytes,
        /// The budget in force.
        budget: Bytes,
        /// How to get more: raise the budget, or nothing on this machine.
        hint: String,
    },

    /// A run whose memory filled before it finished (the symbolic
    /// engine's node store: its size cannot be known in advance).
    #[error("not reached: {what} filled the node store of {nodes} nodes ({bytes}) at ply {ply}; raise --max-memory")]
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

    /// Rayon could not start the requested worker threads.
    #[error("could not start the thread pool: {0}")]
    ThreadPool(String),
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
///
/// ```
/// use retrograde::error::quoted;
/// assert_eq!(quoted("b2"), "\"b2\"");
/// let long = "x".repeat(1000);
/// assert_eq!(quoted(&long), format!("\"{}\"… (1000 bytes)", "x".repeat(60)));
/// ```
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
