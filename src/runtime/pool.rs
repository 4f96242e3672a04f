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

/// The most worker threads a run takes (a front end refuses more).
pub const MAX_THREADS: usize = 4096;

/// The most worker threads a core: beyond it, threads only queue up and
/// cost start-up time.
pub const MAX_THREADS_A_CORE: usize = 16;

/// The machine's cores (1 if it cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The worker threads a run takes when `asked` for (every core when
/// `None`), and, when the count asked was capped at
/// [`MAX_THREADS_A_CORE`] a core, that cap (for the front end's note: the
/// count asked, the cap, the cores).
pub fn worker_threads(asked: Option<usize>) -> (usize, Option<ThreadCap>) {
    let cores = cores();
    match asked {
        None => (cores, None),
        Some(n) if n > cores * MAX_THREADS_A_CORE => {
            let cap = cores * MAX_THREADS_A_CORE;
            (
                cap,
                Some(ThreadCap {
                    asked: n,
                    cap,
                    cores,
                }),
            )
        }
        Some(n) => (n.max(1), None),
    }
}

/// A thread count capped by [`worker_threads`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadCap {
    /// The count asked for.
    pub asked: usize,
    /// The count taken: [`MAX_THREADS_A_CORE`] a core.
    pub cap: usize,
    /// The machine's cores.
    pub cores: usize,
}
