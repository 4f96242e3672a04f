//! Peak memory of the binary's runs, measured as the child's maximum
//! resident set (wait4's rusage). Linux counts a spawned child's peak from
//! at least its parent's (the exec keeps the high-water mark of the memory
//! it leaves), so these tests run in a test binary of their own that holds
//! no tables (beside the engines' tests, a run of 150 MiB measured 342 MiB).

#[path = "../common/mod.rs"]
mod common;

mod batch;
mod budget;
