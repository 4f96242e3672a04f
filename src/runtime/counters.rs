//! Statistics counters that many threads bump on a hot path (nodes
//! visited, table hits) without sharing a cache line: each rayon worker
//! counts in its own padded slot, and a total is the sum of the slots.
//! One shared atomic counter bounced its cache line between the cores on
//! every node.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Slots: threads beyond this share slots (the total still exact, just
/// contended).
pub const SLOTS: usize = 64;

/// One counter on a cache line of its own.
#[repr(align(128))]
#[derive(Default)]
struct Padded(AtomicU64);

/// A counter summed over per-thread slots.
pub struct ThreadCounter {
    slots: Box<[Padded]>,
}

impl Default for ThreadCounter {
    fn default() -> Self {
        Self {
            slots: (0..SLOTS).map(|_| Padded::default()).collect(),
        }
    }
}

impl ThreadCounter {
    /// Adds one in the calling thread's slot; returns that slot's count
    /// before the addition (for "every n-th call" checks per thread).
    #[inline]
    pub fn bump(&self) -> u64 {
        let slot = rayon::current_thread_index().map_or(SLOTS - 1, |i| i % SLOTS);
        self.slots[slot].0.fetch_add(1, Relaxed)
    }

    /// The calling thread's count: with at most [`SLOTS`] workers, what
    /// this thread alone has counted (a search run on one thread from
    /// start to end counts its nodes as the difference).
    pub fn this_thread(&self) -> u64 {
        let slot = rayon::current_thread_index().map_or(SLOTS - 1, |i| i % SLOTS);
        self.slots[slot].0.load(Relaxed)
    }

    /// The total over all threads.
    pub fn total(&self) -> u64 {
        self.slots.iter().map(|s| s.0.load(Relaxed)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn counts_every_bump_of_every_thread() {
        let counter = ThreadCounter::default();
        crate::runtime::in_pool(3, || {
            (0..100_000).into_par_iter().for_each(|_| {
                counter.bump();
            })
        })
        .unwrap();
        counter.bump();
        assert_eq!(counter.total(), 100_001);
    }
}
