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
