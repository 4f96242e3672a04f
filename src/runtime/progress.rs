//! How a long solve tells the outside world how far it got, without
//! printing: the solver calls a [`Progress`] at coarse steps (a level, a
//! ply), and the command line turns that into a progress bar.

/// Receives a solve's progress. Calls come from the thread that drives the
/// solve, between parallel steps, so they cost nothing on the hot path.
pub trait Progress: Sync {
    /// A new stage begins (e.g. "forward", "levels") with `total` units.
    fn stage(&self, name: &str, total: u64);
    /// `units` more units of the current stage are done.
    fn advance(&self, units: u64);
    /// A short note on the current unit (e.g. a ply's diagram size),
    /// shown beside the bar. By default ignored.
    fn note(&self, _text: &str) {}
}

/// Reports nothing.
pub struct Silent;

impl Progress for Silent {
    fn stage(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
}

/// Where an engine's progress lines go (a long proof's periodic counts, a
/// note between its stages): a front end's choice — the command line
/// writes them to stderr, a server could log them. Engines never print.
#[derive(Clone)]
pub struct ReportLines(std::sync::Arc<dyn Fn(&str) + Send + Sync>);

impl ReportLines {
    /// Lines handed to `write`, one call a line (without its newline).
    pub fn new(write: impl Fn(&str) + Send + Sync + 'static) -> Self {
        ReportLines(std::sync::Arc::new(write))
    }

    /// Hands `line` on.
    pub fn write(&self, line: &str) {
        (self.0)(line)
    }
}

impl std::fmt::Debug for ReportLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReportLines(..)")
    }
}
