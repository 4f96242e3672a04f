//! Progress bars on stderr for long solves: shown only when stderr is a
//! terminal and `--quiet` is not given; otherwise nothing is drawn at all.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use retrograde::runtime::progress::Progress;

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
