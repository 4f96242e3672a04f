//! `play mnk` on boards past what positions describe (more than 64
//! cells, up to the threat prover's 256: gomoku's 15 × 15): the same
//! conversation as [`super::play`], with each position answered by the
//! threat prover for both sides within `--move-seconds`
//! ([`super::threat_answer`]). The program plays a proved winning move;
//! where no win is proved for it, the empty cell nearest the centre (said
//! so), as play by search does when a search runs out of time.

use retrograde::board::BoardSize;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use retrograde::position::mnk_distance_from_centre;
use retrograde::prove::threats::board::{Board, Geometry};

use super::prompt::{ask_until, ECHO_CHARS};
use super::threat_answer::{render, value_of, Value};

/// One game on `cols × rows` with lines of `k` from `moves`, the human
/// playing `human` (0 = X), each program move within `seconds`.
pub fn play(
    (cols, rows, k): (u32, u32, u32),
    moves: &str,
    human: usize,
    seconds: Duration,
    memory: u64,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let geometry = Geometry::new(BoardSize { cols, rows, k })?;
    let mut board = Board::after(&geometry, moves).map_err(|e| anyhow::anyhow!("--moves: {e}"))?;
    let name = |colour: usize| ["X", "O"][colour];
    eprintln!(
        "note: {cols} columns × {rows} rows is past the 64 cells positions describe; playing by the threat prover (wins by threats, no depths), each position within {} s",
        seconds.as_secs_f64()
    );
    writeln!(
        out,
        "m,n,k board of {cols} columns × {rows} rows, {k} in a row wins. You play {}; a move is a cell such as h8 (column letter, row number).",
        name(human)
    )?;
    loop {
        write!(out, "{}", render(&board))?;
        let mover = board.to_move();
        if board.has_line() {
            // the moves stop at a line, so the last mover made it
            writeln!(out, "result: {} wins", name(1 - mover))?;
            return Ok(ExitCode::SUCCESS);
        }
        if board.empties().is_empty() {
            writeln!(out, "result: draw")?;
            return Ok(ExitCode::SUCCESS);
        }
        let mut visits = 0;
        let (value, best) = value_of(
            &mut board,
            memory,
            Some(Instant::now() + seconds),
            &mut visits,
        );
        match value {
            Some(v) => writeln!(
                out,
                "{} to move: {} for {}, proved by threats",
                name(mover),
                v.word(),
                name(mover)
            )?,
            None => writeln!(
                out,
                "{} to move: not proved within the move's time",
                name(mover)
            )?,
        }
        let cell = if mover == human {
            match ask(&geometry, &board, input, out)? {
                Some(cell) => cell,
                None => return Ok(ExitCode::SUCCESS),
            }
        } else if let (Some(Value::Win), Some(cell)) = (value, best) {
            writeln!(out, "{} plays {}", name(mover), geometry.cell_name(cell))?;
            cell
        } else {
            // the other side's completion cell must be taken; else the
            // cell nearest the centre
            let block = board.completions(1 - mover).first();
            let guess = block.unwrap_or_else(|| nearest_centre(&board));
            writeln!(
                out,
                "{} plays {} (no win proved for {}; {})",
                name(mover),
                geometry.cell_name(guess),
                name(mover),
                if block.is_some() {
                    "the block of the other side's line"
                } else {
                    "the move nearest the centre"
                }
            )?;
            guess
        };
        board.play(cell, mover);
    }
}

/// The empty cell nearest the centre, the first in cell order on a tie.
fn nearest_centre(board: &Board) -> u32 {
    let (cols, rows) = (board.geometry.cols, board.geometry.rows);
    board
        .empties()
        .iter()
        .min_by_key(|&c| mnk_distance_from_centre(cols, rows, c))
        .expect("a board in play has an empty cell")
}

/// Reads moves until a legal one ([`super::prompt::ask_until`]); `None` at
/// the end of input. A line that is not a cell, or a taken cell, gets a
/// message and a new prompt.
fn ask(
    geometry: &Geometry,
    board: &Board,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<Option<u32>> {
    ask_until(input, out, |line| {
        let shown: String = line.trim().chars().take(ECHO_CHARS).collect();
        match geometry.parse_cell(line) {
            Ok(cell) if board.is_empty(cell) => Ok(cell),
            Ok(_) => Err(format!("{shown} is taken")),
            Err(e) => Err(e.to_string()),
        }
    })
}
