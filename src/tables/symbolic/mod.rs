//! The symbolic layered engine: each ply's set of positions as a binary
//! decision diagram (BDD) instead of a list, for boards whose positions do
//! not fit memory one by one (Edelkamp & Kissmann, "On the complexity of
//! BDDs for state space search: a case study in Connect Four", AAAI 2011;
//! Böck, "Strongly solving 7×6 Connect Four on consumer grade hardware",
//! 2025).
//!
//! * [`layout`]: which variable means what (the column encoding with a
//!   sentinel row, or two variables a cell).
//! * [`rules`]: the empty board, the lines, the moves (by column as
//!   substitutions, or by cell as cubes); image and pre-image of a set.
//! * [`forward`]: ply by ply from the empty board; each ply counted by
//!   model counting. Positions with a line are counted and not expanded,
//!   as the explicit engines and Tromp's and Böck's tables do.
//! * [`backward`]: from the full board down, each ply's won / drawn / lost
//!   sets for the player to move; the per-ply counts for the first player
//!   and the empty board's value.
//! * [`flat`], [`checkpoint`]: diagrams as flat node arrays on disk; a
//!   position is looked up by walking one path of them.
//! * [`store`]: one OxiDD manager sized from the memory budget.
//! * [`certify`]: a stored table checked against the rules, set by set
//!   (`query --check`).
//! * [`projection`]: a run's time before it starts, from the measured runs.
//!
//! The table is exact, and holds value only (won / drawn / lost), no depth:
//! a depth is found by search when asked.
//!
//! ## Measured choices (2 cores, AMD EPYC host)
//!
//! * **Library.** OxiDD 0.13 (complement edges, 32-bit node indices,
//!   parallel apply). Counting 6×4 Connect Four (94,910,577 positions) takes
//!   4.1 s with it at 1 thread against 7.4 s for Böck's hand-written C
//!   package at the same encoding, built here; 6×5 takes 83 s at 1 thread,
//!   46 s at 2 threads (Böck's: about 2 minutes at 1 thread). A node store
//!   of our own is not needed.
//! * **Encoding.** On 6×4: the column encoding 4.1 s, two variables a
//!   cell column by column 8.0 s, two variables a cell row by row 37.7 s.
//!   Gravity boards use the column encoding; m,n,k boards the pair
//!   encoding row by row (no other is possible without gravity).
//! * **Image.** Column encoding: one substitution a column of the
//!   column's bits by their values before (image) or after (pre-image) a
//!   move, 1.7–2× faster than a cofactor-and-conjoin a (column, height)
//!   (measurements in [`rules`]); pair encoding: that cofactor form (no
//!   second copy of the variables, no transition relation). The results
//!   are united as they come in a balanced tree ([`rules::Union`]); both
//!   cores work inside OxiDD's parallel operations.
//! * **Garbage collection.** OxiDD collects in the background only once
//!   95% of the store is taken, and stays off after a collection that
//!   leaves over 90%; the engine also collects between an image's
//!   operations once the store passes 70%, the next level set above the
//!   live nodes each collection leaves, and earlier when the largest
//!   operation so far would take the store to OxiDD's mark ([`rules`]).
//!   A run that reaches the mark stops with a full store: when OxiDD's
//!   thread then runs is not the same every run, so going on would make
//!   the outcome of a store near its size a matter of scheduling (4×4 k=4
//!   at 25 MiB, 1 thread: 3 runs of 6 failed; now the same refusal every
//!   run, and the symbolic engine solves it from 40 MiB up). Collecting after every
//!   ply made solving 6×4 slower (47 s against 31 s at 2 threads: a
//!   collection also empties the apply cache), and so did collecting
//!   whenever the store had doubled since the last collection (44 s).
//! * **Pre-images.** Each move's pre-image is united over the whole
//!   space and conjoined with the ply's open positions once, after the
//!   union. Conjoining each move's part with them before the union keeps
//!   the partial unions smaller (6×4 solve at 1 thread: 1.85 → 1.53 GB
//!   peak) but takes 33–35 s → 43–50 s of CPU, in either order of the
//!   two conjunctions, so it is not done.
//! * **Memory.** A count keeps only the ply it expands (keeping every
//!   ply's set, as a solve without a checkpoint must, takes about 5 times
//!   the largest ply on 6×6), and glibc's mmap threshold is fixed
//!   ([`store`]) so that freed unique-table and model-count tables leave
//!   the resident set.
//! * **6×6 count** (69,173,028,785 positions) here: 1,283 s at 2 threads
//!   with `--max-memory 3.1GiB`, peak resident 2.69 GB; Böck's
//!   `count.out 26 6 6`, built here, 2,681 s on its one thread in 3.34 GB
//!   (README: the measured pair, back to back).

pub mod backward;
pub mod certify;
pub mod checkpoint;
pub mod flat;
pub mod forward;
pub mod layout;
pub mod projection;
pub mod rules;
pub mod store;

use std::path::PathBuf;

use oxidd::bcdd::BCDDFunction;
use oxidd::util::SatCountCache;
use oxidd::{BooleanFunction, Function};

use crate::error::{Error, Result};
use crate::game::Outcome;
use crate::memory::{Budget, Bytes};
use crate::runtime::progress::Progress;
use crate::tables::sparse::GravityCounts;

pub use backward::PlySink;
pub use layout::{Encoding, Layout};

/// One ply's counts and the sizes of its diagrams.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlyReport {
    /// The counts, as the explicit engines report them (the first-player
    /// columns zero after a count-only run).
    pub counts: GravityCounts,
    /// Nodes of the ply's set of positions.
    pub nodes: u64,
    /// Nodes of its won set (0 after a count-only run).
    pub won_nodes: u64,
    /// Nodes of its lost set.
    pub lost_nodes: u64,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct SymbolicRun {
    /// The board and its encoding.
    pub layout: Layout,
    /// Worker threads of the node store.
    pub threads: usize,
    /// The memory budget; the node store takes what it leaves.
    pub budget: Budget,
    /// The forward pass alone (counts, no values).
    pub count_only: bool,
    /// Where to keep finished plies (and resume from).
    pub checkpoint: Option<PathBuf>,
    /// Stop with [`Error::OutOfTime`] once a ply ends past this instant.
    pub deadline: Option<std::time::Instant>,
}

/// What a run found.
#[derive(Clone, Debug)]
pub struct SymbolicSolution {
    /// The board and its encoding.
    pub layout: Layout,
    /// Per-ply reports, ply 0 first.
    pub plies: Vec<PlyReport>,
    /// The empty board's value for the first player (`None` after a
    /// count-only run).
    pub value: Option<Outcome>,
    /// Node slots of the store.
    pub capacity: u64,
}

/// Runs the engine; `sink` receives each ply's won and lost sets.
pub fn solve_symbolic(
    run: &SymbolicRun,
    sink: Option<&mut dyn PlySink>,
    progress: &dyn Progress,
) -> Result<SymbolicSolution> {
    let store = store::NodeStore::new(&run.layout, &run.budget, run.threads)?;
    let checkpoint = run
        .checkpoint
        .as_deref()
        .map(|dir| checkpoint::Checkpoint::open(dir, &run.layout))
        .transpose()?;
    let capacity = store.capacity;
    store.run(|| {
        let rules = rules::Rules::new(&store.manager, run.layout, capacity)
            .map_err(|_| full_store(0, capacity))?;
        let mut forward = forward::forward(
            &rules,
            !run.count_only,
            checkpoint.as_ref(),
            progress,
            capacity,
            run.deadline,
        )?;
        let value = if run.count_only {
            None
        } else {
            Some(backward::backward(
                &rules,
                &mut forward,
                checkpoint.as_ref(),
                sink,
                progress,
                capacity,
                run.deadline,
            )?)
        };
        Ok(SymbolicSolution {
            layout: run.layout,
            plies: forward.plies,
            value,
            capacity,
        })
    })
}

/// The refusal of a store that filled up while making ply `ply`.
pub(crate) fn full_store(ply: u32, capacity: u64) -> Error {
    Error::StoreFull {
        what: "the decision diagrams".into(),
        ply,
        nodes: capacity,
        bytes: Bytes(capacity.saturating_mul(store::BYTES_A_NODE)),
    }
}

/// Runs `step` (one ply's operations on the store of `rules`) and
/// refuses with a full store at `ply` when it ran out of slots or took the
/// store to the fill where OxiDD's background collector starts
/// ([`rules::Rules::store_was_full`]): the same outcome every run at one
/// thread, where a run that went on would depend on when that collector
/// got to run.
pub(crate) fn in_store<T>(
    rules: &rules::Rules,
    ply: u32,
    capacity: u64,
    step: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let result = step();
    if rules.store_was_full() {
        return Err(full_store(ply, capacity));
    }
    result
}

/// Refuses to go on past `deadline`.
pub(crate) fn in_time(deadline: Option<std::time::Instant>) -> Result<()> {
    match deadline {
        Some(d) if std::time::Instant::now() > d => {
            Err(Error::OutOfTime("the symbolic solve".into()))
        }
        _ => Ok(()),
    }
}

/// The number of positions in `set` (its models over `vars` variables).
pub(crate) fn count(set: &BCDDFunction, vars: u32) -> Result<u64> {
    let models: u128 = set.sat_count(
        vars,
        &mut SatCountCache::<u128, rustc_hash::FxBuildHasher>::default(),
    );
    u64::try_from(models).map_err(|_| {
        Error::InvalidInput(format!(
            "a ply of {models} positions overflows the 64-bit counts"
        ))
    })
}

/// Nodes of `set`'s diagram (terminal included).
pub(crate) fn node_count(set: &BCDDFunction) -> u64 {
    set.node_count() as u64
}
