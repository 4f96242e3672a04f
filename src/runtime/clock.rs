//! When a search gives up. A [`Clock`] belongs to one search (or to one
//! position's answer, a few searches in turn): its deadline, an optional
//! flag that cancels it from outside, and the flag that, once set, makes
//! every worker of that search unwind. Many searches may share one
//! searcher and its table, each with its own clock: one running out of
//! time stops only itself.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use crate::runtime::progress::Progress;

/// Nodes between two looks at the clock (and two progress reports).
pub const NODES_PER_CHECK: u64 = 4096;

/// A search's deadline and stop flag.
///
/// Invariant: once [`Self::stopped`] is true it stays true. A search
/// stores nothing computed after its clock stopped (a result then may rest
/// on abandoned children), so the table holds only proven bounds.
#[derive(Debug, Default)]
pub struct Clock<'a> {
    deadline: Option<Instant>,
    /// Set from outside to stop the search (checked with the deadline).
    cancel: Option<&'a AtomicBool>,
    stopped: AtomicBool,
}

impl<'a> Clock<'a> {
    /// A clock that stops at `deadline` (never, with `None`).
    pub fn until(deadline: Option<Instant>) -> Self {
        Self {
            deadline,
            cancel: None,
            stopped: AtomicBool::new(false),
        }
    }

    /// This clock, also stopping once `cancel` is set (seen within
    /// `NODES_PER_CHECK` nodes of each worker).
    pub fn cancelled_by(self, cancel: &'a AtomicBool) -> Self {
        Self {
            cancel: Some(cancel),
            ..self
        }
    }

    /// The instant the clock stops at, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether the flag of [`Self::cancelled_by`] is set (now, not at a
    /// check): for engines that look between slices rather than nodes.
    pub fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Relaxed))
    }

    /// Whether the search must unwind: its deadline passed or it was
    /// cancelled (as seen at a check).
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stopped.load(Relaxed)
    }

    /// Whether a search at its `visited`-th node (counted from 0 by
    /// whatever counter the engine keeps) must unwind: the clock stopped,
    /// or, every `NODES_PER_CHECK` nodes, `progress` hears of them and
    /// the deadline has passed or the search was cancelled (which stops
    /// the clock for every worker of the search).
    #[inline]
    pub fn out_of_time(&self, visited: u64, progress: &dyn Progress) -> bool {
        if self.stopped() {
            return true;
        }
        if visited.is_multiple_of(NODES_PER_CHECK) {
            progress.advance(NODES_PER_CHECK);
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.cancel.is_some_and(|c| c.load(Relaxed)) {
                self.stopped.store(true, Relaxed);
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::progress::Silent;

    #[test]
    fn stops_at_its_deadline_or_when_cancelled_and_stays_stopped() {
        let never = Clock::until(None);
        assert!(!never.out_of_time(0, &Silent));
        let past = Clock::until(Some(Instant::now()));
        assert!(!past.out_of_time(1, &Silent), "looked at only every check");
        assert!(past.out_of_time(NODES_PER_CHECK, &Silent));
        assert!(past.stopped() && past.out_of_time(1, &Silent));
        let cancel = AtomicBool::new(false);
        let clock = Clock::until(None).cancelled_by(&cancel);
        assert!(!clock.out_of_time(0, &Silent));
        cancel.store(true, Relaxed);
        assert!(clock.out_of_time(0, &Silent));
        assert!(clock.stopped());
    }
}
