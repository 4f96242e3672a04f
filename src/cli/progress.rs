//! Progress bars on stderr for long solves: shown only when stderr is a
//! terminal and `--quiet` is not given; otherwise nothing is drawn at all.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use retrograde::solve::progress::Progress;

/// A solve's progress bar, or nothing.
pub struct Bar(Option<ProgressBar>);

impl Bar {
    /// A bar on stderr if it is a terminal and `quiet` is off.
    pub fn on_stderr(quiet: bool) -> Self {
        if quiet || !std::io::stderr().is_terminal() {
            return Bar(None);
        }
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{msg:>9} [{bar:24}] {percent:>3}% {human_pos}/{human_len} states, ETA {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> ");
        bar.set_style(style);
        bar.enable_steady_tick(Duration::from_millis(100));
        Bar(Some(bar))
    }

    /// A bar counting plies, for the layered gravity engine.
    pub fn plies_on_stderr(quiet: bool) -> Self {
        let Bar(Some(bar)) = Self::on_stderr(quiet) else {
            return Bar(None);
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:>9} [{bar:24}] ply {pos}/{len}, {elapsed} so far {prefix}",
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
            bar.set_message(name.to_string());
            bar.set_length(total);
            bar.set_position(0);
            bar.reset_eta();
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
