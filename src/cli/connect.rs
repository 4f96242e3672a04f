//! `retrograde connect`: gravity boards (the Connect-Four family), solved
//! exhaustively ply by ply.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use retrograde::game::Outcome;
use retrograde::games::gravity::Gravity;
use retrograde::solve::in_pool;
use retrograde::solve::search::SearchBoard;
use retrograde::solve::sparse_layered::{solve_gravity, GravityCounts};
use serde_json::json;

use super::output::{emit, emit_json, first_player_result, grouped, rate, result_in_words};
use super::RunArgs;

/// Arguments of `retrograde connect`.
#[derive(Debug, Args)]
pub struct ConnectArgs {
    /// Columns (width).
    #[arg(long, value_name = "W", default_value_t = 4)]
    cols: u32,

    /// Rows (height).
    #[arg(long, value_name = "H", default_value_t = 4)]
    rows: u32,

    /// Stones in a row that win.
    #[arg(long, value_name = "K", default_value_t = 4)]
    k: u32,

    /// Prove the empty board's value by search instead of solving every
    /// position (for boards beyond exhaustive reach).
    #[arg(long)]
    search: bool,

    #[command(flatten)]
    run: RunArgs,
}

/// Solves every reachable position and prints the per-ply counts.
pub fn run(args: &ConnectArgs) -> anyhow::Result<ExitCode> {
    let game = Gravity::new(args.cols, args.rows, args.k)?;
    if args.search {
        return search(args);
    }
    let threads = args.run.threads();
    let budget = args.run.budget();
    let clock = Instant::now();
    let solution = in_pool(threads, || solve_gravity(&game, &budget))??;
    let seconds = clock.elapsed().as_secs_f64();
    let value = first_player_result(
        solution
            .lookup(0, game.key(0, 0))
            .map_or(Outcome::Draw, |(v, _)| v),
    );
    let total = solution
        .counts
        .iter()
        .fold(GravityCounts::default(), |t, c| GravityCounts {
            ply: t.ply.max(c.ply),
            positions: t.positions + c.positions,
            terminal: t.terminal + c.terminal,
            x_wins: t.x_wins + c.x_wins,
            o_wins: t.o_wins + c.o_wins,
            draws: t.draws + c.draws,
        });
    if args.run.json {
        return emit_json(&json!({
            "cols": args.cols,
            "rows": args.rows,
            "k": args.k,
            "positions": total.positions,
            "terminal": total.terminal,
            "value": value,
            "per_ply": solution.counts,
            "threads": threads,
            "seconds": seconds,
            "states_per_second": total.positions as f64 / seconds.max(1e-9),
        }));
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "gravity board: {} columns × {} rows, {} in a row wins",
        args.cols, args.rows, args.k
    );
    let _ = writeln!(
        out,
        "{:>5} {:>14} {:>12} {:>11} {:>11} {:>9}",
        "ply", "positions", "terminal", "X wins", "O wins", "draws"
    );
    let mut line = |label: String, c: &GravityCounts| {
        let _ = writeln!(
            out,
            "{label:>5} {:>14} {:>12} {:>11} {:>11} {:>9}",
            grouped(c.positions),
            grouped(c.terminal),
            grouped(c.x_wins),
            grouped(c.o_wins),
            grouped(c.draws)
        );
    };
    for c in &solution.counts {
        line(c.ply.to_string(), c);
    }
    line("total".into(), &total);
    let _ = writeln!(out, "value of the empty board: {}", result_in_words(value));
    let _ = writeln!(
        out,
        "solved in {seconds:.3} s on {threads} thread{}, {}",
        if threads == 1 { "" } else { "s" },
        rate(total.positions, seconds)
    );
    emit(&out)
}

fn search(args: &ConnectArgs) -> anyhow::Result<ExitCode> {
    let board = SearchBoard::gravity(args.cols, args.rows, args.k)?;
    let title = format!(
        "gravity board by search: {} columns × {} rows, {} in a row wins",
        args.cols, args.rows, args.k
    );
    super::search::search_and_report(&board, 0, 0, true, &title, &args.run)
}
