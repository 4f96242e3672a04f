//! `retrograde cat-mouse-grid`: Cat and Mouse II on a grid (LeetCode 1728).

use std::process::ExitCode;

use clap::Args;
use rayon::prelude::*;
use retrograde::{
    disk::SavedGame,
    games::cat_mouse::{winner_totals, Turn},
    games::cat_mouse_grid::{CatMouseGrid, GridPosition, Player},
    host::in_pool,
    language::OutcomeTable,
};
use serde_json::json;

use retrograde::language::plies;

use super::args::{OutArgs, RunArgs, Timing};
use super::cat_mouse::solve_retrograde;
use super::output::{board_name, emit, emit_json, grouped};

/// Arguments of `retrograde cat-mouse-grid`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["grid", "grid_file"])))]
pub struct CatMouseGridArgs {
    /// The grid, rows separated by commas: '.' floor, '#' wall, C cat, M mouse, F food.
    #[arg(long, value_name = "ROW,ROW,...")]
    grid: Option<String>,

    /// A file holding the grid, one row per line.
    #[arg(long, value_name = "PATH")]
    grid_file: Option<std::path::PathBuf>,

    /// Longest jump of the cat.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    cat_jump: i64,

    /// Longest jump of the mouse.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    mouse_jump: i64,

    /// The cat wins if the mouse has not reached the food within this many
    /// moves (both players' moves counted).
    #[arg(
        long,
        value_name = "L",
        default_value_t = 1000,
        allow_negative_numbers = true
    )]
    max_moves: i64,

    /// Answer for the mouse on ROW,COL (counted from 1 at the top left)
    /// instead of its start; give --cat too.
    #[arg(long, value_name = "ROW,COL")]
    mouse: Option<String>,

    /// Answer for the cat on ROW,COL (counted from 1 at the top left).
    #[arg(long, value_name = "ROW,COL")]
    cat: Option<String>,

    /// Who moves in the position asked [default: mouse]
    #[arg(long, value_enum)]
    turn: Option<GridTurn>,

    #[command(flatten)]
    run: RunArgs,

    #[command(flatten)]
    out: OutArgs,

    #[command(flatten)]
    estimate: super::estimate::EstimateArg,
}

/// Who moves, as `--turn` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GridTurn {
    /// The mouse moves.
    Mouse,
    /// The cat moves.
    Cat,
}

/// The state `--mouse ROW,COL --cat ROW,COL --turn` names (rows and
/// columns counted from 1), or the grid's start when none is given.
pub fn grid_state(
    game: &CatMouseGrid,
    mouse: Option<&str>,
    cat: Option<&str>,
    turn: Option<GridTurn>,
) -> anyhow::Result<u64> {
    let turn_of = |t: Option<GridTurn>| {
        if t == Some(GridTurn::Cat) {
            Turn::Cat
        } else {
            Turn::Mouse
        }
    };
    match (mouse, cat) {
        (None, None) if turn_of(turn) == Turn::Mouse => Ok(game.start_state()),
        (Some(m), Some(c)) => {
            let cell = |text: &str, who: &str| -> anyhow::Result<u32> {
                let parts: Vec<&str> = text.split(',').map(str::trim).collect();
                let (r, c) = match parts[..] {
                    [r, c] => (r.parse::<u32>().ok(), c.parse::<u32>().ok()),
                    _ => (None, None),
                };
                match (r, c) {
                    (Some(r), Some(c)) if r > 0 && c > 0 => {
                        game.cell_at(r - 1, c - 1).ok_or_else(|| {
                            anyhow::anyhow!("--{who} {text}: not a floor cell of the grid")
                        })
                    }
                    _ => anyhow::bail!(
                        "--{who} {text:?} is not ROW,COL (counted from 1 at the top left)"
                    ),
                }
            };
            Ok(game.rank(GridPosition {
                mouse: cell(m, "mouse")?,
                cat: cell(c, "cat")?,
                turn: turn_of(turn),
            }))
        }
        _ => anyhow::bail!(
            "give both --mouse ROW,COL and --cat ROW,COL (or neither, for the grid's start)"
        ),
    }
}

/// Reads, validates and solves; prints the report.
pub fn run(args: &CatMouseGridArgs) -> anyhow::Result<ExitCode> {
    let text = match (&args.grid, &args.grid_file) {
        (Some(text), _) => text.replace(',', "\n"),
        (None, Some(path)) => retrograde::disk::read_regular_text(path)?,
        (None, None) => unreachable!("clap requires --grid or --grid-file"),
    };
    let rows: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let rows: Vec<&str> = match rows.iter().rposition(|r| !r.is_empty()) {
        Some(last) => rows[..=last].to_vec(),
        None => Vec::new(),
    };
    let jump = |value: i64, who: &str| {
        u32::try_from(value)
            .map_err(|_| anyhow::anyhow!("the {who}'s jump {value} must be from 0 to {}", u32::MAX))
    };
    let cat_jump = jump(args.cat_jump, "cat")?;
    let mouse_jump = jump(args.mouse_jump, "mouse")?;
    let max_moves = max_moves_of(args.max_moves)?;
    let game = CatMouseGrid::new_within(&rows, cat_jump, mouse_jump, &args.run.budget())?;
    let start = grid_state(&game, args.mouse.as_deref(), args.cat.as_deref(), args.turn)?;

    if args.estimate.estimate {
        return super::estimate::ranked_game("cat-mouse-grid", &game, &args.run);
    }
    let saved = SavedGame::Grid {
        rows: rows.iter().map(|r| r.to_string()).collect(),
        cat_jump,
        mouse_jump,
    };
    let (table, timing) = solve_retrograde(&game, saved, &args.run, &args.out)?;
    report(&game, &table, start, max_moves, &timing, args.run.json)
}

/// Parses `--max-moves`.
pub fn max_moves_of(value: i64) -> anyhow::Result<u64> {
    u64::try_from(value).map_err(|_| anyhow::anyhow!("--max-moves {value} must be 0 or more"))
}

/// Prints the answer for `start` under the move limit, and the counts.
pub fn report(
    game: &CatMouseGrid,
    table: &OutcomeTable,
    start: u64,
    max_moves: u64,
    timing: &Timing,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let threads = timing.threads;
    let (cat_jump, mouse_jump) = game.jumps();
    let states = table.states();
    let mouse_wins = game.mouse_wins_within(table, start, max_moves);
    let mouse_win_states = in_pool(threads.max(1), || {
        (0..states)
            .into_par_iter()
            .filter(|&s| game.mouse_wins_within(table, s, max_moves))
            .count() as u64
    })?;
    let unbounded = winner_totals(table);
    let depth = table.depth(start);
    let winner = game.winner(table, start);
    if json {
        let mut value = json!({
            "mouse_can_win": mouse_wins,
            "states": states,
            "mouse_win_states": mouse_win_states,
            "depth": depth,
            "outcome": match winner { Some(Player::Mouse) => "mouse", Some(Player::Cat) => "cat", None => "draw" },
            "max_moves": max_moves,
            "floor_cells": game.floor_cells(),
            "unbounded": {"mouse_wins": unbounded.mouse_wins, "cat_wins": unbounded.cat_wins, "draws": unbounded.draws},
        });
        if let serde_json::Value::Object(map) = &mut value {
            map.extend(timing.json_keys(Some(states)));
        }
        return emit_json(&value);
    }
    let (rows_n, cols_n) = game.size();
    let start_text = match (winner, depth) {
        (Some(Player::Mouse), Some(d)) => format!("the mouse wins in {}", plies(d)),
        (Some(Player::Cat), Some(d)) => format!("the cat wins in {}", plies(d)),
        _ => "a draw: neither can force a win, so the cat wins at the move limit".to_string(),
    };
    emit(&format!(
        "Cat and Mouse II: {grid_size} grid, {floor} floor cells, cat jump {cat_jump}, mouse jump {mouse_jump}\n\
         answer        {mouse_wins} (the mouse {verb} the food within {max_moves} moves)\n\
         start         {start_text} (unbounded game)\n\
         states        {states_g}; the mouse wins {mws} of them within the limit\n\
         unbounded     mouse wins {mw}, cat wins {cw}, draws {dr}\n\
         {timing_line}",
        floor = grouped(u64::from(game.floor_cells())),
        verb = if mouse_wins { "reaches" } else { "does not reach" },
        states_g = grouped(states),
        mws = grouped(mouse_win_states),
        mw = grouped(unbounded.mouse_wins),
        cw = grouped(unbounded.cat_wins),
        dr = grouped(unbounded.draws),
        grid_size = board_name(cols_n, rows_n),
        timing_line = timing.line(Some(states)),
    ))
}
