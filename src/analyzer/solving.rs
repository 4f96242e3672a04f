//! Solving whole boards into tables, for every front end: which table
//! engine solves an m,n,k or gravity board — the explicit engine (every
//! position in memory, with depths) where its estimate fits the budget,
//! the symbolic engine (decision diagrams, values only) past it — and the
//! solves themselves on the analyzer's threads. The front ends word the
//! choices (the command line names its flags and the search command).
//!
//! The choice under `auto` ([`EngineAsked::Auto`]):
//!
//! * **m,n,k** ([`mnk_auto_choice`]): the dense layered engine where the
//!   board fits it (sides to 5) and its estimate fits the budget; else the
//!   symbolic engine on boards of at most [`SYMBOLIC_REACH_CELLS`] cells;
//!   past them, refused (the search proves such boards' values).
//! * **gravity** ([`hands_over_to_symbolic`]): the sparse engine runs
//!   first, and hands over to the symbolic engine when it refuses the
//!   board for memory.
//! * either way the symbolic engine is started unasked only when it is
//!   projected to finish within [`LONG_RUN_SECONDS`]
//!   ([`symbolic_unasked`]).

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::Analyzer;
use crate::board::BoardSize;
use crate::error::{Error, Result};
use crate::game::table::OutcomeTable;
use crate::game::RankedGame;
use crate::memory::{Budget, Bytes};
use crate::position::answer::Oracle;
use crate::position::{BoardGame, Family};
use crate::rules::gravity::Gravity;
use crate::rules::mnk::Mnk;
use crate::runtime::in_pool;
use crate::runtime::progress::Progress;
use crate::tablefile::symbolic::SolvedSets;
use crate::tablefile::{SavedGame, SavedTable};
use crate::tables::retrograde::{solve_holding, SolveStats};
use crate::tables::symbolic::projection::{project, Projection};
use crate::tables::symbolic::{
    solve_symbolic, Encoding, Layout, PlySink, SymbolicRun, SymbolicSolution,
};

/// Which table engine a front end asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineAsked {
    /// The explicit engine where it takes the board, else the symbolic
    /// one (module docs).
    Auto,
    /// Every position in memory, with its depth.
    Explicit,
    /// Sets of positions as decision diagrams: values without depths.
    Symbolic,
}

/// The most cells of an m,n,k board that `auto` hands to the symbolic
/// engine: the largest it has been measured on (5×5; 5×4 with k = 4 took
/// 6 minutes and 9.8 GB). Past them auto refuses; asked, it still runs.
pub const SYMBOLIC_REACH_CELLS: u32 = 25;

/// The longest symbolic run `auto` starts unasked, in seconds.
pub const LONG_RUN_SECONDS: f64 = 300.0;

/// `auto`'s engine for an m,n,k board.
#[derive(Clone, Debug, PartialEq)]
pub enum AutoChoice {
    /// The dense layered engine: the board fits it and the budget.
    Explicit,
    /// The symbolic engine, because of `why` (empty: the board is past
    /// every explicit engine's sides).
    Symbolic {
        /// Why the explicit engine does not take the board.
        why: String,
    },
    /// Neither: past the explicit engine for `why`, and past the
    /// [`SYMBOLIC_REACH_CELLS`] the symbolic engine is started on unasked.
    Refused {
        /// Why the explicit engine does not take the board.
        why: String,
    },
}

/// `auto`'s engine for the m,n,k board of `size` within `budget`.
pub fn mnk_auto_choice(size: BoardSize, budget: &Budget) -> AutoChoice {
    let why = match Mnk::new(size) {
        Ok(game) => {
            let needed = crate::tables::layered::estimate_bytes(&game);
            if budget.check("the dense engine", needed).is_ok() {
                return AutoChoice::Explicit;
            }
            format!(
                "the dense engine needs an estimated {needed}, over the budget of {}",
                budget.0
            )
        }
        Err(_) if size.cols <= 8 && size.rows <= 8 => "the dense engine takes sides up to 5".into(),
        Err(_) => return AutoChoice::Symbolic { why: String::new() },
    };
    if size.cells() > u64::from(SYMBOLIC_REACH_CELLS) {
        AutoChoice::Refused { why }
    } else {
        AutoChoice::Symbolic { why }
    }
}

/// Whether the explicit engine's refusal `err` hands a gravity board to
/// the symbolic engine under `auto`: a refusal for memory.
pub fn hands_over_to_symbolic(asked: EngineAsked, err: &Error) -> bool {
    asked == EngineAsked::Auto
        && matches!(
            err,
            Error::OverMemoryBudget { .. } | Error::ProjectedOverBudget { .. }
        )
}

/// Whether [`Analyzer::solve`]'s refusal `err` says the board is beyond
/// the explicit tables (over the budget, or past the engine's sides), so
/// that play goes on by search ([`super::searching::PositionSearcher`]).
pub fn beyond_the_tables(err: &Error) -> bool {
    matches!(
        err,
        Error::OverMemoryBudget { .. } | Error::ProjectedOverBudget { .. } | Error::InvalidInput(_)
    )
}

/// Whether the symbolic run of `layout`, not asked for, is started.
#[derive(Clone, Debug)]
pub enum Unasked {
    /// Started: projected within [`LONG_RUN_SECONDS`], or no projection.
    Start(Option<Projection>),
    /// Not started: projected past [`LONG_RUN_SECONDS`].
    TooLong(Projection),
}

/// Whether `auto` starts the symbolic run of `layout` (counts only with
/// `count_only`) that no one asked for.
pub fn symbolic_unasked(layout: &Layout, count_only: bool) -> Unasked {
    match project(layout, count_only) {
        Some(p) if p.seconds > LONG_RUN_SECONDS => Unasked::TooLong(p),
        projection => Unasked::Start(projection),
    }
}

/// The projection of a symbolic run asked for that will be long (past
/// `LONG_RUN_SECONDS`), for a note before it starts; `None` otherwise.
pub fn long_symbolic_run(layout: &Layout, count_only: bool) -> Option<Projection> {
    project(layout, count_only).filter(|p| p.seconds > LONG_RUN_SECONDS)
}

/// What a front end asked of a whole board's solve: the engine, and
/// whether a setting only the symbolic engine takes was given (its
/// encoding, a checkpoint, counts only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineRequest {
    /// The engine asked for.
    pub asked: EngineAsked,
    /// A symbolic-only setting was given: under `auto` the symbolic engine
    /// runs.
    pub symbolic_settings: bool,
    /// Counts only (the symbolic engine's cheaper run): what a projection
    /// is of.
    pub count_only: bool,
}

/// The facade's decision of which table engine solves a whole board
/// ([`Analyzer::table_engine`], [`Analyzer::hand_over`]); each front end
/// words the notes and refusals.
#[derive(Debug)]
pub enum TableEngine {
    /// The explicit engine. On a gravity board under `auto`, its refusal
    /// for memory hands the board to the symbolic engine
    /// ([`Analyzer::hand_over`]).
    Explicit,
    /// The symbolic engine: asked for, wanted by a symbolic-only setting,
    /// or handed the board under `auto` (then with the reason and the
    /// projection, for a note).
    Symbolic(Option<HandOver>),
    /// Neither, under `auto`: the symbolic engine is not started unasked
    /// on this board.
    Refused(AutoRefusal),
}

/// Why `auto` handed a board to the symbolic engine, and what the run is
/// projected to take.
#[derive(Debug)]
pub struct HandOver {
    /// Why the explicit engine does not take the board.
    pub why: NotExplicit,
    /// The symbolic run's projection, where there is one.
    pub projection: Option<Projection>,
}

/// Why `auto` starts no engine on a board (asked for by name, the
/// symbolic engine still runs).
#[derive(Debug)]
pub enum AutoRefusal {
    /// Past the explicit engine (`why`) and past the
    /// [`SYMBOLIC_REACH_CELLS`] the symbolic engine is started on unasked.
    PastSymbolicReach {
        /// Why the explicit engine does not take the board.
        why: NotExplicit,
    },
    /// Past the explicit engine (`why`), and the symbolic run is
    /// projected past `LONG_RUN_SECONDS`.
    ProjectedTooLong {
        /// Why the explicit engine does not take the board.
        why: NotExplicit,
        /// The projection.
        projection: Projection,
    },
}

/// Why the explicit engine does not take a board, for a front end to
/// word.
#[derive(Debug)]
pub enum NotExplicit {
    /// Its estimate over the budget, or the board past its sides: in words.
    Estimate(String),
    /// It started and refused the board for memory: the refusal.
    Refused(Error),
}

/// A whole board's solve as the facade ran or routed it
/// ([`Analyzer::solve_board`]).
pub enum BoardSolve {
    /// Solved by the explicit engine.
    Solved(SolvedBoard),
    /// For the symbolic engine: asked for, chosen under `auto`, or handed
    /// over — with the hand-over, for a note, when `auto` chose it for a
    /// reason.
    Symbolic(Option<HandOver>),
    /// `auto` starts no engine: why.
    Refused(AutoRefusal),
}

/// A whole board solved in memory ([`Analyzer::solve_in_memory`]).
pub enum WholeTable {
    /// By the explicit engine: every position's value and depth.
    Explicit(SolvedBoard),
    /// By the symbolic engine: every position's value, no depths.
    Symbolic {
        /// Each ply's won and lost sets.
        sets: Box<SolvedSets>,
        /// The run's report: counts, nodes and the empty board's value.
        solution: SymbolicSolution,
        /// Why `auto` handed the board over, when it did for a reason.
        hand_over: Option<HandOver>,
    },
}

/// A board to play on ([`Analyzer::solve_for_play`]): its table, or play
/// by search.
pub enum ForPlay {
    /// Solved whole by the explicit engine: every move from its table.
    Table(SolvedBoard),
    /// Beyond the explicit tables (`beyond_the_tables`): each position
    /// searched instead; the refusal says why.
    BySearch(Error),
}

impl Analyzer {
    /// Which engine solves the board of `family` and `size` whole (in
    /// `encoding`, should it be the symbolic engine), as `request` asks
    /// (module docs): asked by name, that one; a symbolic-only setting,
    /// the symbolic engine; otherwise `auto`. On m,n,k boards `auto` takes
    /// the dense engine where its estimate fits the budget, else hands the
    /// board to the symbolic engine (`mnk_auto_choice`, and
    /// [`Self::hand_over`]'s projection rule); on gravity boards it starts
    /// with the explicit engine, whose refusal for memory hands over.
    pub fn table_engine(
        &self,
        family: Family,
        size: BoardSize,
        encoding: Encoding,
        request: &EngineRequest,
    ) -> Result<TableEngine> {
        match request.asked {
            EngineAsked::Symbolic => return Ok(TableEngine::Symbolic(None)),
            EngineAsked::Explicit => return Ok(TableEngine::Explicit),
            EngineAsked::Auto if request.symbolic_settings => {
                return Ok(TableEngine::Symbolic(None))
            }
            EngineAsked::Auto => {}
        }
        if family == Family::Gravity {
            return Ok(TableEngine::Explicit);
        }
        Ok(match mnk_auto_choice(size, &self.budget) {
            AutoChoice::Explicit => TableEngine::Explicit,
            AutoChoice::Symbolic { why } if why.is_empty() => TableEngine::Symbolic(None),
            AutoChoice::Symbolic { why } => {
                return self.hand_over(family, size, encoding, request, NotExplicit::Estimate(why))
            }
            AutoChoice::Refused { why } => TableEngine::Refused(AutoRefusal::PastSymbolicReach {
                why: NotExplicit::Estimate(why),
            }),
        })
    }

    /// Under `auto`, once the explicit engine does not take the board of
    /// `family` and `size` for `why`: the symbolic engine (in `encoding`),
    /// unless its run (counts only as `request` says) is projected past
    /// `LONG_RUN_SECONDS`.
    pub fn hand_over(
        &self,
        family: Family,
        size: BoardSize,
        encoding: Encoding,
        request: &EngineRequest,
        why: NotExplicit,
    ) -> Result<TableEngine> {
        let layout = Layout::new(family, size, encoding)?;
        Ok(match symbolic_unasked(&layout, request.count_only) {
            Unasked::TooLong(projection) => {
                TableEngine::Refused(AutoRefusal::ProjectedTooLong { why, projection })
            }
            Unasked::Start(projection) => TableEngine::Symbolic(Some(HandOver { why, projection })),
        })
    }

    /// A board for `retrograde play` and its kin: solved whole where the
    /// explicit engine takes it within the budget, else played by search
    /// (the refusal kept for the front end to word); other errors as they
    /// are.
    pub fn solve_for_play(&self, game: &BoardGame, progress: &dyn Progress) -> Result<ForPlay> {
        match self.solve(game, progress) {
            Ok(solved) => Ok(ForPlay::Table(solved)),
            Err(refused) if beyond_the_tables(&refused) => Ok(ForPlay::BySearch(refused)),
            Err(other) => Err(other),
        }
    }

    /// A whole board's solve, decided and run (the one path of `retrograde
    /// mnk` and `connect`): the engine of [`Self::table_engine`]; the
    /// explicit engine run when it is chosen, and under `auto` its refusal
    /// for memory handed to the symbolic engine ([`Self::hand_over`], which
    /// refuses a run projected past `LONG_RUN_SECONDS`). The symbolic run
    /// itself is the caller's ([`Self::solve_symbolic`]): it writes its
    /// own files and checkpoints.
    pub fn solve_board(
        &self,
        game: &BoardGame,
        encoding: Encoding,
        request: &EngineRequest,
        progress: &dyn Progress,
    ) -> Result<BoardSolve> {
        let (family, size) = (game.family(), game.size());
        match self.table_engine(family, size, encoding, request)? {
            TableEngine::Explicit => {}
            TableEngine::Symbolic(hand_over) => return Ok(BoardSolve::Symbolic(hand_over)),
            TableEngine::Refused(why) => return Ok(BoardSolve::Refused(why)),
        }
        match self.solve(game, progress) {
            Ok(solved) => Ok(BoardSolve::Solved(solved)),
            Err(refused) if hands_over_to_symbolic(request.asked, &refused) => {
                let why = NotExplicit::Refused(refused);
                Ok(
                    match self.hand_over(family, size, encoding, request, why)? {
                        TableEngine::Symbolic(hand_over) => BoardSolve::Symbolic(hand_over),
                        TableEngine::Refused(why) => BoardSolve::Refused(why),
                        TableEngine::Explicit => unreachable!("a hand-over is symbolic or refused"),
                    },
                )
            }
            Err(other) => Err(other),
        }
    }
}

/// A whole board solved by an explicit engine: its description for a
/// file, its table and the time.
/// Made only by [`Analyzer::solve`], so its table is of the board's kind.
pub struct SolvedBoard {
    saved: SavedGame,
    table: SavedTable,
    seconds: f64,
}

impl SolvedBoard {
    /// The board as a table file names it.
    pub fn saved(&self) -> &SavedGame {
        &self.saved
    }

    /// The table: [`SavedTable::Layered`] for m,n,k, [`SavedTable::Gravity`]
    /// for gravity boards.
    pub fn table(&self) -> &SavedTable {
        &self.table
    }

    /// Seconds the solve took.
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// The board's description, its table and the seconds, taken apart.
    pub fn into_parts(self) -> (SavedGame, SavedTable, f64) {
        (self.saved, self.table, self.seconds)
    }

    /// The table as the answers' oracle.
    pub fn oracle(&self) -> Box<dyn Oracle + Sync + '_> {
        self.table
            .oracle()
            .expect("a board is solved into a layered or gravity table")
    }
}

impl Analyzer {
    /// [`Self::solve`], stopped between its steps (a ply, a level) once
    /// `cancel` is set: [`Error::Cancelled`], nothing kept. The engines
    /// tell their progress between parallel steps, from the thread that
    /// drives the solve; the check there ends the solve by unwinding with
    /// a private payload (which skips the panic hook: nothing is printed),
    /// caught here, every structure dropped on the way out.
    pub fn solve_cancellable(
        &self,
        game: &BoardGame,
        progress: &dyn Progress,
        cancel: &AtomicBool,
    ) -> Result<SolvedBoard> {
        cancellable(game, progress, cancel, self.deadline, |checked| {
            self.solve(game, checked)
        })
    }

    /// A whole board solved in memory by the engine the facade chooses
    /// under `auto` (the one path of Python's `solve`): the explicit
    /// engine, or the symbolic engine it hands over to ([`Self::solve_board`],
    /// in the family's best encoding), stopped between steps once `cancel`
    /// is set. A board `auto` starts no engine on is refused as the
    /// explicit engine refuses it (its budget, its sides), typed.
    pub fn solve_in_memory(
        &self,
        game: &BoardGame,
        progress: &dyn Progress,
        cancel: &AtomicBool,
    ) -> Result<WholeTable> {
        let request = EngineRequest {
            asked: EngineAsked::Auto,
            symbolic_settings: false,
            count_only: false,
        };
        let encoding = Encoding::best_for(game.family());
        cancellable(game, progress, cancel, self.deadline, |checked| {
            match self.solve_board(game, encoding, &request, checked)? {
                BoardSolve::Solved(solved) => Ok(WholeTable::Explicit(solved)),
                BoardSolve::Symbolic(hand_over) => {
                    let layout = Layout::new(game.family(), game.size(), encoding)?;
                    let mut sets = SolvedSets::new(layout);
                    let solution =
                        self.solve_symbolic(layout, false, None, Some(&mut sets), checked)?;
                    Ok(WholeTable::Symbolic {
                        sets: Box::new(sets),
                        solution,
                        hand_over,
                    })
                }
                // no engine starts: the explicit engine's own refusal, typed
                // (a budget names its setting, sides their limit)
                BoardSolve::Refused(
                    AutoRefusal::ProjectedTooLong {
                        why: NotExplicit::Refused(refused),
                        ..
                    }
                    | AutoRefusal::PastSymbolicReach {
                        why: NotExplicit::Refused(refused),
                    },
                ) => Err(refused),
                BoardSolve::Refused(_) => self.solve(game, checked).map(WholeTable::Explicit),
            }
        })
    }

    /// Solves `game` whole by its explicit engine (m,n,k: the dense layered
    /// engine, sides to 5; gravity: the sparse layered engine), telling
    /// `progress`; refused, with the figure, when its estimate exceeds the
    /// budget.
    pub fn solve(&self, game: &BoardGame, progress: &dyn Progress) -> Result<SolvedBoard> {
        let started = Instant::now();
        let BoardSize { cols, rows, k } = game.size();
        let (saved, table) = match game.family() {
            Family::Gravity => {
                let engine = Gravity::new(game.size())?;
                let solution = in_pool(self.threads, || {
                    crate::tables::sparse::solve_gravity_reporting(&engine, &self.budget, progress)
                })??;
                (
                    SavedGame::Gravity { cols, rows, k },
                    SavedTable::Gravity(solution),
                )
            }
            Family::Mnk => {
                let engine = Mnk::new(game.size())?;
                let solution = in_pool(self.threads, || {
                    crate::tables::layered::solve_mnk_reporting(&engine, &self.budget, progress)
                })??;
                (
                    SavedGame::Mnk { rows, cols, k },
                    SavedTable::Layered(solution),
                )
            }
        };
        Ok(SolvedBoard {
            saved,
            table,
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// Solves `layout`'s board by the symbolic engine (counts only with
    /// `count_only`), each finished ply kept in `checkpoint` (and resumed
    /// from it) and handed to `sink`, telling `progress`.
    pub fn solve_symbolic(
        &self,
        layout: Layout,
        count_only: bool,
        checkpoint: Option<std::path::PathBuf>,
        sink: Option<&mut dyn PlySink>,
        progress: &dyn Progress,
    ) -> Result<SymbolicSolution> {
        let run = SymbolicRun {
            layout,
            threads: self.threads,
            budget: self.budget,
            count_only,
            checkpoint,
            deadline: None,
        };
        solve_symbolic(&run, sink, progress)
    }

    /// Solves a game of states ranked densely (the cat-and-mouse games) by
    /// the retrograde engine, `held` bytes (the game's own
    /// description) counted against the budget during the solve.
    pub fn solve_ranked<G: RankedGame>(
        &self,
        game: &G,
        held: Bytes,
        progress: &dyn Progress,
    ) -> Result<(OutcomeTable, SolveStats)> {
        in_pool(self.threads, || {
            solve_holding(game, &self.budget, progress, held)
        })?
    }
}

/// The payload of the unwind that ends a cancelled solve.
enum Cancelled {
    /// The cancel flag was set.
    ByFlag,
    /// The deadline passed.
    ByDeadline,
}

/// `solve(progress)` stopped between its steps once `cancel` is set
/// ([`Error::Cancelled`]) or `deadline` has passed ([`Error::OutOfTime`]):
/// the engines tell their progress from the thread that drives the solve,
/// and the check there unwinds with a private payload (which skips the
/// panic hook), caught here, every structure dropped.
fn cancellable<T>(
    game: &BoardGame,
    progress: &dyn Progress,
    cancel: &AtomicBool,
    deadline: Option<Instant>,
    solve: impl FnOnce(&dyn Progress) -> Result<T>,
) -> Result<T> {
    let checked = CancelBetweenSteps {
        progress,
        cancel,
        deadline,
    };
    match catch_unwind(AssertUnwindSafe(|| solve(&checked))) {
        Ok(solved) => solved,
        Err(payload) => match payload.downcast_ref::<Cancelled>() {
            Some(Cancelled::ByFlag) => {
                Err(Error::Cancelled(format!("the solve of {}", game.size())))
            }
            Some(Cancelled::ByDeadline) => {
                Err(Error::OutOfTime(format!("the solve of {}", game.size())))
            }
            None => resume_unwind(payload),
        },
    }
}

/// A solve's progress that ends the solve at its next step once `cancel`
/// is set or `deadline` has passed ([`cancellable`]), passing every call
/// on.
struct CancelBetweenSteps<'a> {
    progress: &'a dyn Progress,
    cancel: &'a AtomicBool,
    deadline: Option<Instant>,
}

impl CancelBetweenSteps<'_> {
    fn check(&self) {
        if self.cancel.load(std::sync::atomic::Ordering::Relaxed) {
            resume_unwind(Box::new(Cancelled::ByFlag));
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            resume_unwind(Box::new(Cancelled::ByDeadline));
        }
    }
}

impl Progress for CancelBetweenSteps<'_> {
    fn stage(&self, name: &str, total: u64) {
        self.check();
        self.progress.stage(name, total);
    }

    fn advance(&self, units: u64) {
        self.check();
        self.progress.advance(units);
    }

    fn note(&self, text: &str) {
        self.progress.note(text);
    }
}
