//! `retrograde search mnk`: the perfect-play value of an m,n,k board (or of
//! a position) by search, without a table of every state.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Subcommand};
use retrograde::games::mnk::parse_board_within;
use retrograde::memory::Budget;
use retrograde::solve::in_pool;
use retrograde::solve::search::{value_reporting, SearchBoard, MAX_SIDE};
use serde_json::json;

use super::output::{emit, emit_json, first_player_result, grouped};
use super::{check_board_size, RunArgs};

/// Bytes one transposition entry costs in the concurrent table, roughly
/// (key, bounds, hash-map overhead): the budget divided by this is the
/// table's capacity.
const BYTES_PER_ENTRY: u64 = 64;

/// How many positions a search's transposition table may keep within
/// `budget`.
pub fn table_capacity(budget: &Budget) -> usize {
    (budget.0 .0 / BYTES_PER_ENTRY).min(usize::MAX as u64) as usize
}

/// Arguments of `retrograde search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    #[command(subcommand)]
    game: SearchGame,
}

#[derive(Debug, Subcommand)]
enum SearchGame {
    /// An m,n,k board: sides up to 8, at most 64 cells.
    Mnk(SearchMnkArgs),
}

#[derive(Debug, Args)]
struct SearchMnkArgs {
    /// Rows (default 3; taken from --board when given).
    #[arg(long, value_name = "R")]
    rows: Option<u32>,

    /// Columns (default 3; taken from --board when given).
    #[arg(long, value_name = "C")]
    cols: Option<u32>,

    /// Stones in a row that win.
    #[arg(long, value_name = "K", default_value_t = 3)]
    k: u32,

    /// A position to answer instead of the empty board ("XO./.../...").
    #[arg(long, value_name = "BOARD")]
    board: Option<String>,

    #[command(flatten)]
    run: RunArgs,
}

/// Searches and prints the value.
pub fn run(args: &SearchArgs) -> anyhow::Result<ExitCode> {
    let SearchGame::Mnk(args) = &args.game;
    let position = args
        .board
        .as_deref()
        .map(|b| parse_board_within(b, MAX_SIDE))
        .transpose()?;
    let (rows, cols, x, o) = match position {
        Some((rows, cols, x, o)) => {
            check_board_size([args.rows, args.cols], [rows, cols])?;
            (rows, cols, x, o)
        }
        None => (args.rows.unwrap_or(3), args.cols.unwrap_or(3), 0, 0),
    };
    let board = SearchBoard::new(rows, cols, args.k)?;
    let title = format!(
        "m,n,k search: {rows}×{cols} board, {} in a row wins",
        args.k
    );
    search_and_report(&board, x, o, position.is_none(), &title, &args.run)
}

/// Searches (X cells, O cells) on `board` and prints the value — as
/// first / second / draw for the empty board, else for the player to move —
/// with nodes, rate, transposition hits and time.
pub fn search_and_report(
    board: &SearchBoard,
    x: u64,
    o: u64,
    empty_board: bool,
    title: &str,
    run: &RunArgs,
) -> anyhow::Result<ExitCode> {
    let threads = run.threads();
    let capacity = table_capacity(&run.budget());
    let bar = run.progress_counter();
    let clock = Instant::now();
    let result = in_pool(threads, || {
        value_reporting(board, x, o, capacity, None, &bar)
    })??
    .expect("no deadline, so the search finishes");
    bar.finish();
    let seconds = clock.elapsed().as_secs_f64();
    let value = if empty_board {
        first_player_result(result.value)
    } else {
        result.value.name()
    };
    if run.json {
        return emit_json(&json!({
            "value": value,
            "nodes": result.nodes,
            "seconds": seconds,
            "transposition_hits": result.hits,
            "nodes_per_second": result.nodes as f64 / seconds.max(1e-9),
            "threads": threads,
        }));
    }
    let what = if empty_board {
        "the empty board"
    } else {
        "the position, for the player to move"
    };
    emit(&format!(
        "{title}\nvalue       {value} ({what})\nnodes       {} ({} nodes/s), {} transposition hits\nsearched in {seconds:.3} s on {threads} thread{}\n",
        grouped(result.nodes),
        grouped((result.nodes as f64 / seconds.max(1e-9)) as u64),
        grouped(result.hits),
        if threads == 1 { "" } else { "s" },
    ))
}
