//! What the facade has to tell while it works, typed: each front end words
//! a [`Note`] its own way (the command line as a `note:` line on stderr,
//! unless quiet), so that the facade decides and the front ends only
//! print.

use std::sync::Arc;
use std::time::Duration;

/// Something the facade did that the person waiting should hear of.
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// The empty m,n,k board's value was not reached by the search alone
    /// in its first share of the time; the provers (a pairing, zones, the
    /// win prover) join it now (`super::race`).
    ProversJoin {
        /// The time the search had alone.
        searched_alone: Duration,
    },
}

/// Where an [`super::Analyzer`]'s notes go: a front end's function, called
/// once a note, from the thread that asked the question.
#[derive(Clone)]
pub struct Notes(Arc<dyn Fn(&Note) + Send + Sync>);

impl Notes {
    /// Notes handed to `tell`.
    pub fn new(tell: impl Fn(&Note) + Send + Sync + 'static) -> Self {
        Notes(Arc::new(tell))
    }

    /// Hands `note` on.
    pub fn tell(&self, note: &Note) {
        (self.0)(note)
    }
}

impl std::fmt::Debug for Notes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Notes(..)")
    }
}
