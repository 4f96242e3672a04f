//! `retrograde search mnk|connect`: a position's value and exact depth by
//! search, without a table of every state — for boards beyond exhaustive
//! reach. The answer has the shape of every position answer.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use retrograde::games::gravity::Gravity;
use retrograde::memory::Budget;
use retrograde::position::answer::answer;
use retrograde::position::oracles::{GravitySearch, Search};
use retrograde::position::{BoardGame, Family};
use retrograde::solve::gravity_search::GravitySearcher;
use retrograde::solve::in_pool;
use retrograde::solve::search::{Precision, SearchBoard, Searcher};
use serde_json::json;

use super::output::grouped;
use super::position::{board_size, print_answer, PositionArgs};
use super::RunArgs;

/// Bytes one transposition entry costs in the concurrent table, roughly
/// (key, bounds, hash-map overhead): the budget divided by this is the
/// table's capacity.
const BYTES_PER_ENTRY: u64 = 64;

/// How many positions a search's transposition table may keep within
/// `budget`.
pub fn table_capacity(budget: &Budget) -> usize {
    (budget.0 .0 / BYTES_PER_ENTRY).min(usize::MAX as u64) as usize
}

/// The largest table the gravity engine allocates by default: it gains
/// little beyond this on the boards it can finish.
const GRAVITY_TABLE_CAP: u64 = 1 << 30;

/// Entries of the gravity engine's table for a board of `cells` within
/// `budget`: at most [`GRAVITY_TABLE_CAP`] bytes, and no more entries than
/// 2^cells (a small board needs no large table).
pub fn gravity_table_entries(budget: &Budget, cells: u32) -> usize {
    let bytes = budget.0 .0.min(GRAVITY_TABLE_CAP);
    let entries = bytes / retrograde::solve::gravity_search::BYTES_PER_ENTRY;
    entries.min(1u64 << cells.min(40)) as usize
}

/// Arguments of `retrograde search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    #[command(subcommand)]
    game: SearchGame,
}

#[derive(Debug, Subcommand)]
enum SearchGame {
    /// An m,n,k board (sides up to 8, at most 64 cells) [default: 3 × 3, k = 3]
    Mnk(SearchBoardArgs),
    /// A gravity board (Connect-Four family; sides up to 8) [default: 7 × 6, k = 4]
    Connect(SearchBoardArgs),
}

/// The options of `search mnk` and `search connect`.
#[derive(Debug, Args)]
pub struct SearchBoardArgs {
    /// Columns (width) [default: the game's, or the --board's]
    #[arg(long, value_name = "C")]
    cols: Option<u32>,

    /// Rows (height) [default: the game's, or the --board's]
    #[arg(long, value_name = "R")]
    rows: Option<u32>,

    /// Stones in a row that win [default: 3 for mnk, 4 for connect]
    #[arg(long, value_name = "K")]
    k: Option<u32>,

    #[command(flatten)]
    position: PositionArgs,

    /// Give up after SECONDS and print "not reached" (exit 3).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,

    /// Prove win / draw / loss only (faster; no depths or scores).
    #[arg(long)]
    weak: bool,

    #[command(flatten)]
    run: RunArgs,
}

/// Runs `search mnk` or `search connect`.
pub fn run(args: &SearchArgs) -> anyhow::Result<ExitCode> {
    match &args.game {
        SearchGame::Mnk(a) => search(Family::Mnk, a),
        SearchGame::Connect(a) => search(Family::Gravity, a),
    }
}

impl SearchBoardArgs {
    /// The options `connect --search` passes on: the board and the run.
    pub fn for_connect(
        cols: u32,
        rows: u32,
        k: u32,
        position: &PositionArgs,
        run: &RunArgs,
    ) -> Self {
        Self {
            cols: Some(cols),
            rows: Some(rows),
            k: Some(k),
            position: position.clone(),
            time_limit: None,
            weak: false,
            run: run.clone(),
        }
    }
}

/// Searches the position of `args` on a board of `family` and prints the
/// position answer with nodes, rate, transposition hits and time.
pub fn search(family: Family, args: &SearchBoardArgs) -> anyhow::Result<ExitCode> {
    let (default_size, default_k) = match family {
        Family::Mnk => ((3, 3), 3),
        Family::Gravity => ((7, 6), 4),
    };
    let (cols, rows) = board_size(args.cols, args.rows, &args.position, default_size)?;
    let k = args.k.unwrap_or(default_k);
    let game = BoardGame::new(family, cols, rows, k)?;
    let p = args.position.position(&game)?;
    let board = match family {
        Family::Mnk => SearchBoard::new(rows, cols, k)?,
        Family::Gravity => SearchBoard::gravity(cols, rows, k)?,
    };
    let deadline = match args.time_limit {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => {
            Some(Instant::now() + Duration::from_secs_f64(s))
        }
        Some(s) => anyhow::bail!("--time-limit {s} must be a number of seconds above 0"),
    };
    let precision = if args.weak {
        Precision::Weak
    } else {
        Precision::Exact
    };
    let threads = args.run.threads();
    let bar = args.run.progress_counter();
    let clock = Instant::now();
    // gravity boards that fit the engine's bitboards use the dedicated
    // engine; others (up to 8 × 8) the general one
    let engine = match family {
        Family::Gravity => Gravity::new(cols, rows, k).ok(),
        Family::Mnk => None,
    };
    let (result, nodes, hits) = match &engine {
        Some(gravity) => {
            let entries = gravity_table_entries(&args.run.budget(), gravity.cells());
            let searcher = GravitySearcher::new(gravity, entries, deadline, &bar);
            let oracle = GravitySearch {
                game: gravity,
                searcher: &searcher,
                precision,
            };
            let result = in_pool(threads, || answer(&game, &p, &oracle))??;
            (result, searcher.nodes(), searcher.hits())
        }
        None => {
            let capacity = table_capacity(&args.run.budget());
            let searcher = Searcher::reporting(&board, capacity, deadline, &bar);
            let oracle = Search {
                game: &game,
                searcher: &searcher,
                precision,
            };
            let result = in_pool(threads, || answer(&game, &p, &oracle))??;
            (result, searcher.nodes(), searcher.hits())
        }
    };
    bar.finish();
    let seconds = clock.elapsed().as_secs_f64();
    let rate = nodes as f64 / seconds.max(1e-9);
    print_answer(&game, &p, result, args.run.json, || {
        let keys = json!({
            "nodes": nodes,
            "nodes_per_second": rate,
            "transposition_hits": hits,
            "threads": threads,
            "seconds": seconds,
        });
        let serde_json::Value::Object(keys) = keys else {
            unreachable!("an object")
        };
        let footer = format!(
            "searched {} nodes ({} nodes/s, {} transposition hits) in {seconds:.3} s on {threads} thread{}\n",
            grouped(nodes),
            grouped(rate as u64),
            grouped(hits),
            if threads == 1 { "" } else { "s" },
        );
        (keys, footer)
    })
}
