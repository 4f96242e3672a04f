//! `retrograde mnk`: m,n,k boards — the full solution with every count, or
//! one position's answer (`--board`).

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use retrograde::game::Outcome;
use retrograde::games::mnk::{parse_board, render_board, Mnk};
use retrograde::solve::in_pool;
use retrograde::solve::layered::{solve_mnk_reporting, MnkSolution, PlyCounts};
use serde_json::{json, Value};

use super::output::{emit, emit_json, first_player_result, grouped, rate, result_in_words};
use super::{check_board_size, OutArgs, RunArgs};
use retrograde::tablefile::{SavedGame, SavedTable};

/// Arguments of `retrograde mnk`.
#[derive(Debug, Args)]
pub struct MnkArgs {
    /// Rows of the board (1..=5; default 3).
    #[arg(long, value_name = "R")]
    rows: Option<u32>,

    /// Columns of the board (1..=5; default 3).
    #[arg(long, value_name = "C")]
    cols: Option<u32>,

    /// Stones in a row that win (1..=max(rows, cols)).
    #[arg(long, value_name = "K", default_value_t = 3)]
    k: u32,

    /// Answer for one position instead: rows separated by '/', '.' empty,
    /// e.g. "XOX/.O./..."; the board's size is taken from it.
    #[arg(long, value_name = "BOARD")]
    board: Option<String>,

    #[command(flatten)]
    run: RunArgs,

    #[command(flatten)]
    out: OutArgs,
}

/// Solves the board (and answers the position) and prints the report.
pub fn run(args: &MnkArgs) -> anyhow::Result<ExitCode> {
    let position = args.board.as_deref().map(parse_board).transpose()?;
    let (rows, cols) = match position {
        Some(p) => {
            check_board_size([args.rows, args.cols], [p.rows, p.cols])?;
            (p.rows, p.cols)
        }
        None => (args.rows.unwrap_or(3), args.cols.unwrap_or(3)),
    };
    let game = Mnk::new(rows, cols, args.k)?;
    let threads = args.run.threads();
    let budget = args.run.budget();
    let bar = args.run.progress();
    let clock = Instant::now();
    let solution = in_pool(threads, || solve_mnk_reporting(&game, &budget, &bar))??;
    bar.finish();
    let seconds = clock.elapsed().as_secs_f64();
    let table = SavedTable::Layered(solution);
    args.out.save(
        &SavedGame::Mnk {
            rows,
            cols,
            k: args.k,
        },
        &table,
    )?;
    let SavedTable::Layered(solution) = table else {
        unreachable!("built above")
    };
    match position {
        Some(p) => answer_position(&game, &solution, p.x_cells, p.o_cells, args.run.json),
        None => report(&game, &solution, seconds, threads, args.run.json),
    }
}

/// "first", "second" or "draw": the value of the empty board.
pub fn empty_board_value(solution: &MnkSolution) -> &'static str {
    first_player_result(solution.lookup(0, 0).map_or(Outcome::Draw, |(v, _)| v))
}

fn ply_json(c: &PlyCounts) -> Value {
    serde_json::to_value(c).expect("counts serialise")
}

/// The JSON summary of a solved board (also written to `results/`).
pub fn summary_json(game: &Mnk, solution: &MnkSolution) -> Value {
    let t = solution.totals();
    json!({
        "rows": game.rows(),
        "cols": game.cols(),
        "k": game.k(),
        "positions": t.positions,
        "terminal": t.terminal,
        "x_wins": t.x_wins,
        "o_wins": t.o_wins,
        "draws": t.draws,
        "classes": t.classes,
        "terminal_classes": t.terminal_classes,
        "games": solution.games.total().to_string().parse::<Value>().expect("a number"),
        "games_x_wins": solution.games.x_wins.to_string().parse::<Value>().expect("a number"),
        "games_o_wins": solution.games.o_wins.to_string().parse::<Value>().expect("a number"),
        "games_draws": solution.games.draws.to_string().parse::<Value>().expect("a number"),
        "value": empty_board_value(solution),
        "per_ply": solution.counts.iter().map(ply_json).collect::<Vec<_>>(),
    })
}

pub fn report(
    game: &Mnk,
    solution: &MnkSolution,
    seconds: f64,
    threads: usize,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let t = solution.totals();
    if json {
        let mut value = summary_json(game, solution);
        value["threads"] = json!(threads);
        value["seconds"] = json!(seconds);
        value["states_per_second"] = json!(t.positions as f64 / seconds.max(1e-9));
        return emit_json(&value);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "m,n,k game: {}×{} board, {} in a row wins",
        game.rows(),
        game.cols(),
        game.k()
    );
    let _ = writeln!(
        out,
        "{:>5} {:>12} {:>11} {:>10} {:>10} {:>10} {:>11}",
        "ply", "positions", "terminal", "X wins", "O wins", "draws", "classes"
    );
    let mut line = |label: String, c: &PlyCounts| {
        let _ = writeln!(
            out,
            "{label:>5} {:>12} {:>11} {:>10} {:>10} {:>10} {:>11}",
            grouped(c.positions),
            grouped(c.terminal),
            grouped(c.x_wins),
            grouped(c.o_wins),
            grouped(c.draws),
            grouped(c.classes)
        );
    };
    for c in &solution.counts {
        line(c.ply.to_string(), c);
    }
    line("total".into(), &t);
    let value = result_in_words(empty_board_value(solution));
    let depth = solution.lookup(0, 0).map_or(0, |(_, d)| d);
    let g = &solution.games;
    let _ = writeln!(
        out,
        "value of the empty board: {value} (in {depth} plies under perfect play)"
    );
    let _ = writeln!(
        out,
        "games: {} (X wins {}, O wins {}, draws {}); terminal classes {}",
        g.total(),
        g.x_wins,
        g.o_wins,
        g.draws,
        grouped(t.terminal_classes)
    );
    let _ = writeln!(
        out,
        "solved in {seconds:.3} s on {threads} thread{}, {}",
        if threads == 1 { "" } else { "s" },
        rate(t.positions, seconds)
    );
    emit(&out)
}

pub fn answer_position(
    game: &Mnk,
    solution: &MnkSolution,
    x: u32,
    o: u32,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let (x_line, o_line) = (game.has_line(x), game.has_line(o));
    let (xs, os) = (x.count_ones(), o.count_ones());
    let full = xs + os == game.cells();
    let status = match (x_line, o_line) {
        (true, false) => "x_won",
        (false, true) => "o_won",
        // both lines: no legal game gets there; name the last mover's win
        (true, true) => {
            if xs > os {
                "x_won"
            } else {
                "o_won"
            }
        }
        (false, false) if full => "draw",
        _ => "in_progress",
    };
    let entry = solution.lookup(x, o);
    let reachable = entry.is_some();
    let in_play = status == "in_progress" && reachable;
    let to_move = in_play.then_some(if xs == os { "X" } else { "O" });
    let (value, depth) = match entry {
        Some((outcome, depth)) if in_play => (Some(outcome), Some(depth)),
        _ => (None, None),
    };
    let mut moves = Vec::new();
    if in_play {
        for (cell, mine, plies) in solution.moves(game, x, o) {
            let best = Some(mine) == value && (mine == Outcome::Draw || Some(plies) == depth);
            moves.push((cell / game.cols(), cell % game.cols(), mine, best));
        }
    }
    if json {
        return emit_json(&json!({
            "reachable": reachable,
            "status": status,
            "to_move": to_move,
            "value": value.map(Outcome::name),
            "depth": depth,
            "moves": moves.iter().map(|&(row, col, v, best)| json!({"row": row, "col": col, "value": v.name(), "best": best})).collect::<Vec<_>>(),
        }));
    }
    let mut out = render_board(game.rows(), game.cols(), x, o);
    let _ = writeln!(
        out,
        "k = {}; reachable in legal play: {}",
        game.k(),
        if reachable { "yes" } else { "no" }
    );
    let _ = writeln!(out, "status: {}", status.replace('_', " "));
    if let (Some(side), Some(v), Some(d)) = (to_move, value, depth) {
        let _ = writeln!(
            out,
            "{side} to move: {} in {d} plies under perfect play",
            v.name()
        );
        for (row, col, v, best) in &moves {
            let _ = writeln!(
                out,
                "  move row {row} col {col}: {}{}",
                v.name(),
                if *best { "  (best)" } else { "" }
            );
        }
    }
    emit(&out)
}
