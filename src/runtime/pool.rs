//! Thread pools: solvers and searches run on the rayon pool they are called
//! in, and [`in_pool`] runs a closure on a pool of a chosen size.

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
