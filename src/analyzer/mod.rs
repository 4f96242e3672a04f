//! The facade every front end calls (the command line, the Python package,
//! the HTTP server): which engine answers a question, within what budget
//! and time. An [`Analyzer`] holds the budget and the threads; its
//! questions are typed requests with typed reports.
//!
//! * [`prove`]: an m,n,k board's value with its certificate, by the one
//!   cascade of provers.
//! * [`oracles`]: the searches and provers behind a position answer.
//! * [`searching`]: answering positions by search with a table sized from
//!   the budget.

#![warn(missing_docs)]

pub mod oracles;
pub mod prove;
pub mod searching;

use crate::error::Result;
use crate::memory::Budget;

/// The library's questions, asked within one memory budget on a number of
/// worker threads.
#[derive(Clone, Debug)]
pub struct Analyzer {
    budget: Budget,
    threads: usize,
}

impl Analyzer {
    /// An analyzer that works within `budget` on `threads` workers (at
    /// least 1).
    pub fn new(budget: Budget, threads: usize) -> Self {
        Self {
            budget,
            threads: threads.max(1),
        }
    }

    /// The memory budget.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// The worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Proves the claim of `request` ([`prove::prove`]: the cascade, its
    /// shares and what it reports).
    pub fn prove(&self, request: &prove::ProveRequest) -> Result<prove::ProveReport> {
        prove::prove(request, &self.budget, self.threads)
    }
}
