//! Progress bars on stderr for long solves: shown only when stderr is a
//! terminal and `--quiet` is not given; otherwise nothing is drawn at all.
//! And for work that counts nothing ([`Working`]): a spinner with what it
//! is doing on a terminal, else [`LateNote`], a one-line note on stderr
//! printed only when the work is still running after a moment.

use std::io::IsTerminal;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use retrograde::host::Progress;

/// A solve's progress bar, or nothing.
pub struct Bar(Option<ProgressBar>);

impl Bar {
    /// A bar on stderr if it is a terminal and `quiet` is off.
    pub fn on_stderr(quiet: bool) -> Self {
        if quiet || !std::io::stderr().is_terminal() {
            return Bar(None);
        }
        // hidden until the first stage gives it a size: drawn before, it
        // flashed "0/0 states" (issue 73, line 15)
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template(
            "{msg:>9} [{bar:24}] {percent:>3}% {human_pos}/{human_len} states, ETA {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> ");
        bar.set_style(style);
        Bar(Some(bar))
    }

    /// A bar counting plies, for the layered gravity engine.
    pub fn plies_on_stderr(quiet: bool) -> Self {
        let Bar(Some(bar)) = Self::on_stderr(quiet) else {
            return Bar(None);
        };
        bar.set_style(
            // plies done, not the ply's number: the backward pass works down
            // from the full board, and a counter of ply numbers ran
            // backwards (issue 73, line 15)
            ProgressStyle::with_template(
                "{msg:>9} [{bar:24}] {pos}/{len} plies done, {elapsed} so far, ETA {eta} {prefix}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        Bar(Some(bar))
    }

    /// A counter of work of unknown size (search nodes) on stderr, under
    /// the same conditions as [`on_stderr`](Self::on_stderr).
    pub fn counter_on_stderr(quiet: bool) -> Self {
        let Bar(Some(bar)) = Self::on_stderr(quiet) else {
            return Bar(None);
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {msg} {human_pos} ({per_sec}, {elapsed} so far)",
            )
            .expect("a valid template"),
        );
        Bar(Some(bar))
    }

    /// A spinner with `message` and the time so far on stderr, under the
    /// same conditions as [`on_stderr`](Self::on_stderr): for work of one
    /// step that counts nothing (a search of `play`), so a terminal shows
    /// it is running.
    pub fn spinner_on_stderr(quiet: bool, message: &str) -> Self {
        if quiet || !std::io::stderr().is_terminal() {
            return Bar(None);
        }
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed} so far)")
                .expect("a valid template"),
        );
        bar.set_message(message.to_string());
        bar.enable_steady_tick(Duration::from_millis(100));
        Bar(Some(bar))
    }

    /// Runs `f` (which prints) with the bar hidden.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.0 {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar before the report is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

impl Progress for Bar {
    fn stage(&self, name: &str, total: u64) {
        if let Some(bar) = &self.0 {
            // changed out of sight, so that no frame mixes the old stage
            // with the new (a drawn "backward 20/20, 20/21, 4/21")
            let first = bar.is_hidden();
            bar.set_draw_target(ProgressDrawTarget::hidden());
            bar.set_position(0);
            bar.set_length(total);
            bar.set_message(name.to_string());
            bar.reset_eta();
            bar.set_draw_target(ProgressDrawTarget::stderr());
            if first {
                bar.enable_steady_tick(Duration::from_millis(100));
            }
        }
    }

    fn advance(&self, units: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(units);
        }
    }

    /// Shown after the bar (the symbolic engine: the last ply's nodes).
    fn note(&self, text: &str) {
        if let Some(bar) = &self.0 {
            bar.set_prefix(format!("({text})"));
        }
    }
}

/// How long work runs before a [`LateNote`] says what it is doing.
pub const LATE_NOTE_AFTER: Duration = Duration::from_secs(2);

/// A note printed on stderr (`note: TEXT`) if the work it stands for is
/// still running [`LATE_NOTE_AFTER`] after it was made; dropped (the work
/// done) before then, it prints nothing. For the commands whose long
/// runs would otherwise be silent (a proof, a server opening its tables),
/// without a line on their quick runs. Nothing under `--quiet` or
/// `--json` (the one object on stdout is all a program reads; a test's
/// `json_of` asks stderr to stay empty).
pub struct LateNote {
    /// Dropped when the work ends: the thread then stops waiting.
    done: Option<mpsc::Sender<()>>,
    waiting: Option<JoinHandle<()>>,
}

impl LateNote {
    /// `text` on stderr after [`LATE_NOTE_AFTER`] unless dropped first;
    /// nothing at all when `silent` (`--quiet` or `--json`).
    pub fn after_a_moment(silent: bool, text: String) -> Self {
        if silent {
            return Self {
                done: None,
                waiting: None,
            };
        }
        let (done, ended) = mpsc::channel::<()>();
        let waiting = std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = ended.recv_timeout(LATE_NOTE_AFTER) {
                eprintln!(
                    "note: still running after {} s: {text}",
                    LATE_NOTE_AFTER.as_secs()
                );
            }
        });
        Self {
            done: Some(done),
            waiting: Some(waiting),
        }
    }
}

impl Drop for LateNote {
    /// The work is done: the note, if not printed yet, never is (and is
    /// not printed after the report, which the caller prints next).
    fn drop(&mut self) {
        drop(self.done.take());
        if let Some(waiting) = self.waiting.take() {
            let _ = waiting.join();
        }
    }
}

/// Work that counts nothing (a proof, tables being opened), said while it
/// runs: on a terminal a spinner with a short text and the time so far
/// ([`Bar::spinner_on_stderr`], cleared when done), elsewhere a
/// [`LateNote`] saying more. Dropped when the work ends.
pub struct Working {
    spinner: Bar,
    /// Held for its drop: `None` when the spinner is drawn.
    _note: Option<LateNote>,
}

impl Working {
    /// `short` on the spinner, `text` in the note, while the work runs:
    /// nothing under `quiet`, and no note (a spinner still, on a terminal,
    /// as every bar) under `json`.
    pub fn new(quiet: bool, json: bool, short: &str, text: String) -> Self {
        let spinner = Bar::spinner_on_stderr(quiet, short);
        let note = match spinner {
            Bar(None) => Some(LateNote::after_a_moment(quiet || json, text)),
            Bar(Some(_)) => None,
        };
        Self {
            spinner,
            _note: note,
        }
    }
}

impl Drop for Working {
    fn drop(&mut self) {
        self.spinner.finish();
    }
}
