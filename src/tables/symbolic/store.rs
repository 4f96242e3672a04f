//! The node store: one OxiDD manager (BDDs with complement edges) sized
//! from the memory budget before anything is allocated, with the layout's
//! variables.
//!
//! A node costs 16 bytes in the store and about 12 more in the unique
//! table's per-level hash tables; the apply cache holds one entry (about
//! 24 bytes) for every [`CACHE_SHARE`] nodes (fewer on small boards:
//! at most `2^cells` entries). [`BYTES_A_NODE`] rounds the
//! sum up so that a full store stays inside the budget (measured: see the
//! module doc of [`super`]). The store never grows: when it is full an
//! operation fails with OxiDD's `OutOfMemory`, which the engine reports as
//! [`crate::error::Error::StoreFull`] naming the ply, instead of
//! swapping. Garbage collection: the engine's own between an image's
//! operations once the store passes a fill level (see
//! [`super::rules`]); a run that takes the store to 95% of its slots,
//! where OxiDD would collect on a thread of its own, counts as a full
//! store (the same outcome every run).

use oxidd::bcdd::BCDDManagerRef;
use oxidd::{HasWorkers, Manager, ManagerRef, WorkerPool};

use super::layout::Layout;
use crate::error::Result;
use crate::memory::{Budget, Bytes};

/// Bytes a node slot costs, the unique table and its share of the apply
/// cache included.
pub const BYTES_A_NODE: u64 = 40;
/// Nodes per apply-cache entry.
pub const CACHE_SHARE: u64 = 4;
/// Fewest nodes a store holds (small boards need a few thousand).
const MIN_NODES: u64 = 1 << 16;
/// Most nodes OxiDD's 32-bit indices address (one bit is the complement
/// tag).
const MAX_NODES: u64 = (1 << 31) - 2;
/// Memory kept aside from the store for everything else of a run (the
/// flattened diagrams of a ply being written, counts, the runtime).
const RESERVE: u64 = 512 << 20;

/// A sized manager holding the layout's variables.
pub struct NodeStore {
    /// The manager.
    pub manager: BCDDManagerRef,
    /// Node slots it holds.
    pub capacity: u64,
}

impl NodeStore {
    /// A store as large as `budget` allows (less a reserve), using
    /// `threads` workers for its operations. Refused when even the
    /// smallest store would not fit.
    pub fn new(layout: &Layout, budget: &Budget, threads: usize) -> Result<Self> {
        let usable = budget.0 .0.saturating_sub(RESERVE.min(budget.0 .0 / 4));
        let capacity = (usable / BYTES_A_NODE).min(MAX_NODES);
        budget.check(
            "the decision-diagram node store",
            Bytes(MIN_NODES * BYTES_A_NODE + RESERVE.min(budget.0 .0 / 4)),
        )?;
        let capacity = capacity.max(MIN_NODES);
        return_freed_memory();
        // a small board needs no large cache, and a cache is zeroed
        // before the first operation (3 GiB take seconds)
        let cache = (capacity / CACHE_SHARE).min(1u64 << layout.cells().clamp(16, 40));
        let manager =
            oxidd::bcdd::new_manager(capacity as usize, cache as usize, threads.max(1) as u32);
        manager.with_manager_exclusive(|m| {
            m.add_vars(layout.vars());
        });
        Ok(Self { manager, capacity })
    }

    /// Runs `work` on the store's own worker threads, where OxiDD
    /// allocates nodes without taking its shared lock; the engine's own
    /// parallel loops then run on the same threads.
    pub fn run<T: Send>(&self, work: impl FnOnce() -> T + Send) -> T {
        self.manager.workers().install(work)
    }
}

/// Makes glibc return large freed blocks to the system at once. By
/// default glibc raises its mmap threshold each time such a block is
/// freed, after which blocks of up to 32 MiB come from its heap and stay
/// resident after they are freed: the unique table's level tables are
/// rehashed many times a run, and the sets of a model count come and go,
/// so a 6×5 count in a 1 GiB budget peaked at 1.18 GB resident. With a
/// fixed threshold of 128 KiB it peaks at 0.73 GB and runs 12% faster.
/// Process-wide; set when a node store is made.
fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator parameters; any value is
    // allowed, and a refusal (return 0) leaves the defaults.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}
