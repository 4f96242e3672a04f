//! How work runs, for every engine: thread pools ([`pool`]), per-thread
//! counters ([`counters`]), cache hints ([`cache`]), progress reports
//! ([`progress`]) and the clock a search gives up by ([`clock`]).

pub mod cache;
pub mod clock;
pub mod counters;
pub mod pool;
pub mod progress;

pub use pool::{in_pool, thread_pool};
