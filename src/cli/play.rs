//! `retrograde play`: a game of m,n,k against perfect play, in the terminal.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::bail;
use clap::{Args, ValueEnum};
use retrograde::game::Outcome;
use retrograde::games::mnk::{render_board, Mnk};
use retrograde::memory::Budget;
use retrograde::solve::layered::{solve_mnk, MnkSolution};
use retrograde::tablefile::{load, SavedGame, SavedTable};

/// Arguments of `retrograde play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// `mnk` to solve a board now, or a saved m,n,k table file.
    target: String,

    /// Rows (with `mnk`; default 3).
    #[arg(long, value_name = "R", default_value_t = 3)]
    rows: u32,

    /// Columns (with `mnk`; default 3).
    #[arg(long, value_name = "C", default_value_t = 3)]
    cols: u32,

    /// Stones in a row that win (with `mnk`; default 3).
    #[arg(long, value_name = "K", default_value_t = 3)]
    k: u32,

    /// The side you play; X moves first.
    #[arg(long, value_enum, default_value_t = Side::X)]
    human: Side,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Side {
    X,
    O,
}

/// Plays one game on stdin/stdout.
pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let (game, solution) = if args.target == "mnk" {
        let game = Mnk::new(args.rows, args.cols, args.k)?;
        let solution = solve_mnk(&game, &Budget::default_for_machine())?;
        (game, solution)
    } else {
        match load(std::path::Path::new(&args.target))? {
            (SavedGame::Mnk { rows, cols, k }, SavedTable::Layered(solution)) => {
                (Mnk::new(rows, cols, k)?, solution)
            }
            (other, _) => bail!(
                "{} holds a {} table; play needs an m,n,k table",
                args.target,
                other.kind_name()
            ),
        }
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let human_is_x = args.human == Side::X;
    let (mut x, mut o) = (0u32, 0u32);
    let cols = game.cols();
    writeln!(
        out,
        "{}×{} board, {} in a row wins. You play {}; moves are `row col`, counted from 1.",
        game.rows(),
        cols,
        game.k(),
        if human_is_x { "X" } else { "O" }
    )?;
    loop {
        write!(out, "{}", render_board(game.rows(), cols, x, o))?;
        let x_to_move = x.count_ones() == o.count_ones();
        let mover = if x_to_move { "X" } else { "O" };
        if let Some(result) = result(&game, x, o) {
            writeln!(out, "result: {result}")?;
            return Ok(ExitCode::SUCCESS);
        }
        let (value, depth) = solution
            .lookup(x, o)
            .expect("every position of a game is reachable");
        writeln!(
            out,
            "{mover} to move: {} for {mover} in {depth} plies under perfect play",
            value.name()
        )?;
        let cell = if x_to_move == human_is_x {
            match ask(&game, x | o, &mut input, &mut out)? {
                Some(cell) => cell,
                None => return Ok(ExitCode::SUCCESS),
            }
        } else {
            let cell = best_move(&game, &solution, x, o);
            writeln!(out, "{mover} plays {} {}", cell / cols + 1, cell % cols + 1)?;
            cell
        };
        if x_to_move {
            x |= 1 << cell;
        } else {
            o |= 1 << cell;
        }
    }
}

/// The finished game's result, `None` while play goes on.
fn result(game: &Mnk, x: u32, o: u32) -> Option<&'static str> {
    if game.has_line(x) {
        Some("X wins")
    } else if game.has_line(o) {
        Some("O wins")
    } else if (x | o).count_ones() == game.cells() {
        Some("draw")
    } else {
        None
    }
}

/// Reads moves until a legal one; `None` at the end of input.
fn ask(
    game: &Mnk,
    taken: u32,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<Option<u32>> {
    loop {
        write!(out, "your move: ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        let numbers: Vec<Option<u32>> = line.split_whitespace().map(|w| w.parse().ok()).collect();
        let (row, col) = match numbers[..] {
            [Some(r), Some(c)] => (r, c),
            _ => {
                writeln!(
                    out,
                    "not a move: {:?} — type the row and the column, e.g. `2 3`",
                    line.trim()
                )?;
                continue;
            }
        };
        if !(1..=game.rows()).contains(&row) || !(1..=game.cols()).contains(&col) {
            writeln!(
                out,
                "off the board: rows 1..{}, columns 1..{}",
                game.rows(),
                game.cols()
            )?;
            continue;
        }
        let cell = (row - 1) * game.cols() + (col - 1);
        if taken & (1 << cell) != 0 {
            writeln!(out, "that cell is taken")?;
            continue;
        }
        return Ok(Some(cell));
    }
}

/// The fastest win, else a draw, else the slowest loss (lowest cell on ties).
fn best_move(game: &Mnk, solution: &MnkSolution, x: u32, o: u32) -> u32 {
    let score = |value: Outcome, plies: u32| match value {
        Outcome::Win => (2, u32::MAX - plies),
        Outcome::Draw => (1, 0),
        Outcome::Loss => (0, plies),
    };
    solution
        .moves(game, x, o)
        .into_iter()
        .max_by_key(|&(cell, value, plies)| (score(value, plies), std::cmp::Reverse(cell)))
        .map(|(cell, _, _)| cell)
        .expect("a position in play has an empty cell")
}
