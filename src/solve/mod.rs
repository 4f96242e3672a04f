//! Solvers: they turn a game into an [`OutcomeTable`](crate::table::OutcomeTable).
//!
//! * [`retrograde`]: parallel level-synchronous retrograde analysis for games
//!   with cycles (draws are the states never decided).
//! * [`layered`]: forward enumeration and backward induction by ply for
//!   games where every move adds a stone (m,n,k boards).
//!
//! Solvers never print; they run on the rayon pool they are called in, and
//! [`in_pool`] runs a closure on a pool of a chosen size.

pub mod atomic;
pub mod board_search;
pub mod book;
pub mod bound_table;
pub mod cache;
pub mod cells;
pub mod certify;
pub mod clock;
pub mod counters;
pub mod gravity_certificate;
pub mod layered;
pub mod pairing;
pub mod progress;
pub mod proof_numbers;
pub mod proof_tree;
pub mod retrograde;
pub mod search;
pub mod sparse_layered;
pub mod symbolic;
pub mod threat_proof;
pub mod win_proof;
pub mod zone_proof;

use crate::error::Result;

/// A rayon pool of `threads` workers (at least 1), for work that runs on
/// it many times (starting threads costs more than a small search).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| crate::error::Error::ThreadPool(e.to_string()))
}

/// Runs `work` on a fresh rayon pool of `threads` workers (at least 1).
pub fn in_pool<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> Result<T> {
    Ok(thread_pool(threads)?.install(work))
}
