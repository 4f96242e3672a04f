//! `retrograde query FILE`: answers from a saved table, without solving
//! again, with the same report as the solving subcommand.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use clap::{Args, ValueEnum};
use retrograde::games::cat_mouse::{winner_totals, CatMouseGraph, Turn};
use retrograde::games::cat_mouse_grid::{CatMouseGrid, GridPosition};
use retrograde::games::mnk::{parse_board, Mnk};
use retrograde::memory::Bytes;
use retrograde::table::OutcomeTable;
use retrograde::tablefile::{load, SavedGame, SavedTable, FORMAT_VERSION};
use serde_json::json;

use super::output::{emit, emit_json, grouped};
use super::Timing;

/// Arguments of `retrograde query`.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// A table written with `--out`.
    file: PathBuf,

    /// Describe the file: game, parameters, counts, size.
    #[arg(long)]
    info: bool,

    /// m,n,k tables: the position to answer ("XOX/.O./...").
    #[arg(long, value_name = "BOARD")]
    board: Option<String>,

    /// Cat-and-mouse tables: the mouse's node (graph) or ROW,COL (grid, from 0).
    #[arg(long, value_name = "M")]
    mouse: Option<String>,

    /// Cat-and-mouse tables: the cat's node (graph) or ROW,COL (grid, from 0).
    #[arg(long, value_name = "C")]
    cat: Option<String>,

    /// Cat-and-mouse tables: who moves.
    #[arg(long, value_enum, default_value_t = TurnArg::Mouse)]
    turn: TurnArg,

    /// Grid tables: the move limit.
    #[arg(
        long,
        value_name = "L",
        default_value_t = 1000,
        allow_negative_numbers = true
    )]
    max_moves: i64,

    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TurnArg {
    Mouse,
    Cat,
}

/// Loads the table and answers.
pub fn run(args: &QueryArgs) -> anyhow::Result<ExitCode> {
    let clock = Instant::now();
    let (game, table) = load(&args.file)?;
    let timing = |levels| Timing {
        seconds: clock.elapsed().as_secs_f64(),
        threads: 1,
        levels,
    };
    let file = args.file.display();
    let kind = game.kind_name();
    if args.board.is_some() && kind != "mnk" {
        bail!("{file} holds a {kind} table; --board asks an m,n,k table");
    }
    if (args.mouse.is_some() || args.cat.is_some()) && kind == "mnk" {
        bail!("{file} holds an m,n,k table; --mouse/--cat ask a cat-and-mouse table");
    }
    if args.info {
        return info(args, &game, &table);
    }
    let turn = if args.turn == TurnArg::Mouse {
        Turn::Mouse
    } else {
        Turn::Cat
    };
    match (&game, &table) {
        (SavedGame::Graph(graph), SavedTable::Retrograde(t)) => {
            let g = CatMouseGraph::new(graph)?;
            let node = |text: &Option<String>, default: u32, who: &str| -> anyhow::Result<u32> {
                match text {
                    None => Ok(default),
                    Some(s) => s
                        .trim()
                        .parse()
                        .map_err(|_| anyhow::anyhow!("--{who} {s:?} is not a node number")),
                }
            };
            let start = g.start_state(
                node(&args.mouse, 1, "mouse")?,
                node(&args.cat, 2, "cat")?,
                turn,
            )?;
            super::cat_mouse::report(&g, t, start, &timing(t.levels()), args.json)
        }
        (
            SavedGame::Grid {
                rows,
                cat_jump,
                mouse_jump,
            },
            SavedTable::Retrograde(t),
        ) => {
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let g = CatMouseGrid::new(&rows, *cat_jump, *mouse_jump)?;
            let start = match (&args.mouse, &args.cat) {
                (None, None) if turn == Turn::Mouse => g.start_state(),
                (Some(m), Some(c)) => {
                    let cell = |text: &str, who: &str| -> anyhow::Result<u32> {
                        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
                        let (r, c) = match parts[..] {
                            [r, c] => (r.parse::<u32>().ok(), c.parse::<u32>().ok()),
                            _ => (None, None),
                        };
                        match (r, c) {
                            (Some(r), Some(c)) => g
                                .cell_at(r, c)
                                .ok_or_else(|| anyhow::anyhow!("--{who} {text}: not a floor cell of the grid")),
                            _ => bail!("--{who} {text:?} is not ROW,COL"),
                        }
                    };
                    g.rank(GridPosition { mouse: cell(m, "mouse")?, cat: cell(c, "cat")?, turn })
                }
                _ => bail!("give both --mouse ROW,COL and --cat ROW,COL (or neither, for the grid's start)"),
            };
            let max_moves = super::cat_mouse_grid::max_moves_of(args.max_moves)?;
            super::cat_mouse_grid::report(&g, t, start, max_moves, &timing(t.levels()), args.json)
        }
        (SavedGame::Mnk { rows, cols, k }, SavedTable::Layered(solution)) => {
            let board = Mnk::new(*rows, *cols, *k)?;
            match &args.board {
                Some(text) => {
                    let p = parse_board(text)?;
                    if (p.rows, p.cols) != (*rows, *cols) {
                        bail!(
                            "the board is {}×{}, the table solves {rows}×{cols}",
                            p.rows,
                            p.cols
                        );
                    }
                    super::mnk::answer_position(&board, solution, p.x_cells, p.o_cells, args.json)
                }
                None => super::mnk::report(&board, solution, timing(0).seconds, 1, args.json),
            }
        }
        _ => bail!("{file}: the table does not fit its game"),
    }
}

/// A cat-and-mouse table's totals, for `--info`.
fn totals_json(table: &OutcomeTable) -> serde_json::Value {
    let t = winner_totals(table);
    json!({"states": table.states(), "mouse_wins": t.mouse_wins, "cat_wins": t.cat_wins, "draws": t.draws})
}

fn info(args: &QueryArgs, game: &SavedGame, table: &SavedTable) -> anyhow::Result<ExitCode> {
    let size = std::fs::metadata(&args.file)?.len();
    let (parameters, counts) = match (game, table) {
        (SavedGame::Graph(graph), SavedTable::Retrograde(t)) => {
            (json!({"nodes": graph.len()}), totals_json(t))
        }
        (
            SavedGame::Grid {
                rows,
                cat_jump,
                mouse_jump,
            },
            SavedTable::Retrograde(t),
        ) => (
            json!({"rows": rows.len(), "cols": rows.first().map_or(0, |r| r.chars().count()), "cat_jump": cat_jump, "mouse_jump": mouse_jump}),
            totals_json(t),
        ),
        (SavedGame::Mnk { rows, cols, k }, SavedTable::Layered(s)) => {
            let t = s.totals();
            (
                json!({"rows": rows, "cols": cols, "k": k}),
                json!({"positions": t.positions, "terminal": t.terminal, "classes": t.classes, "value": super::mnk::empty_board_value(s)}),
            )
        }
        _ => bail!("the table does not fit its game"),
    };
    if args.json {
        return emit_json(&json!({
            "game": game.kind_name(),
            "format_version": FORMAT_VERSION,
            "parameters": parameters,
            "counts": counts,
            "file_bytes": size,
        }));
    }
    emit(&format!(
        "file        {}\ngame        {} (format version {FORMAT_VERSION})\nparameters  {parameters}\ncounts      {counts}\nsize        {} bytes ({})\n",
        args.file.display(),
        game.kind_name(),
        grouped(size),
        Bytes(size)
    ))
}
