//! `retrograde play`: a game of m,n,k or of a gravity board against perfect
//! play, in the terminal — moves in the position language of every other
//! command (`b2` on m,n,k boards, column numbers on gravity boards).

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::bail;
use clap::{Args, ValueEnum};
use retrograde::games::gravity::Gravity;
use retrograde::position::answer::{answer, plies, Oracle};
use retrograde::position::oracles::{GravityTable, MnkTable};
use retrograde::position::{BoardGame, Family, Position, Side, Status};
use retrograde::solve::in_pool;
use retrograde::solve::layered::{solve_mnk_reporting, MnkSolution};
use retrograde::solve::sparse_layered::solve_gravity_reporting;
use retrograde::tablefile::{load, SavedGame, SavedTable};
use retrograde::tablefile::{GravityValues, MappedGravity};

use super::position::{board_size, PositionArgs};
use super::{OutArgs, RunArgs};

/// Longest input line echoed back in a message.
const ECHO_CHARS: usize = 40;

/// Arguments of `retrograde play`. Play is a conversation in the
/// terminal: the shared `--json` is not listed in its help, and is refused
/// with a line saying where JSON answers come from.
#[derive(Debug, Args)]
#[command(mut_arg("json", |json| json.hide(true)))]
pub struct PlayArgs {
    /// `mnk` or `connect` to solve a board now, or a table saved with --out.
    target: String,

    /// Columns (with `mnk` or `connect`) [default: 3 for mnk, 4 for connect]
    #[arg(long, value_name = "C")]
    cols: Option<u32>,

    /// Rows (with `mnk` or `connect`) [default: 3 for mnk, 4 for connect]
    #[arg(long, value_name = "R")]
    rows: Option<u32>,

    /// Stones in a row that win (with `mnk` or `connect`) [default: 3 for mnk, 4 for connect]
    #[arg(long, value_name = "K")]
    k: Option<u32>,

    /// The side you play; X moves first.
    #[arg(long, value_enum, default_value_t = HumanSide::X)]
    human: HumanSide,

    /// Start from this position instead of the empty board.
    #[command(flatten)]
    position: PositionArgs,

    #[command(flatten)]
    run: RunArgs,

    #[command(flatten)]
    out: OutArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum HumanSide {
    X,
    O,
}

/// A solved board to play on.
enum Solved {
    Mnk(MnkSolution),
    Gravity(Gravity, Box<dyn GravityValues>),
    /// A symbolic table: values without depths (a won game is still won:
    /// every move adds a stone, so keeping the value ends it).
    Symbolic(Box<retrograde::tablefile::symbolic::SymbolicFile>),
}

impl Solved {
    fn oracle(&self) -> Box<dyn Oracle + '_> {
        match self {
            Solved::Mnk(solution) => Box::new(MnkTable(solution)),
            Solved::Gravity(game, solution) => Box::new(GravityTable {
                game,
                solution: solution.as_ref(),
            }),
            Solved::Symbolic(table) => {
                Box::new(retrograde::position::oracles::SymbolicTable(table.as_ref()))
            }
        }
    }
}

/// Solves (or loads) the board, then plays one game on stdin/stdout.
pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    if args.run.json {
        bail!("play is a conversation in the terminal; --json is not for it (use query --json)");
    }
    let (game, solved) = match args.target.as_str() {
        "mnk" | "connect" => solve_now(args)?,
        file => {
            if let Some(flag) = [
                ("--cols", args.cols),
                ("--rows", args.rows),
                ("--k", args.k),
            ]
            .iter()
            .find_map(|(name, v)| v.map(|_| name))
            {
                bail!("{flag} is for `play mnk` or `play connect`; a table file fixes its board");
            }
            if args.out.out.is_some() {
                bail!("--out saves a table solved for play; {file} is one already");
            }
            let path = std::path::Path::new(file);
            if let Some(table) = retrograde::tablefile::symbolic::SymbolicFile::open(path)? {
                use retrograde::tablefile::symbolic::SymbolicSets;
                let l = *table.layout();
                (
                    BoardGame::new(l.family, l.cols, l.rows, l.k)?,
                    Solved::Symbolic(Box::new(table)),
                )
            } else if let Some(table) = MappedGravity::open(path)? {
                let (cols, rows, k) = table.game().dimensions();
                (
                    BoardGame::new(Family::Gravity, cols, rows, k)?,
                    Solved::Gravity(table.game().clone(), Box::new(table)),
                )
            } else {
                match load(path)? {
                    (SavedGame::Mnk { rows, cols, k }, SavedTable::Layered(solution)) => (
                        BoardGame::new(Family::Mnk, cols, rows, k)?,
                        Solved::Mnk(solution),
                    ),
                    (other, _) => bail!(
                        "{file} holds a {} table; play needs an mnk or connect table",
                        other.kind_name()
                    ),
                }
            }
        }
    };
    let start = args.position.position(&game)?;
    let oracle = solved.oracle();
    play(
        &game,
        start,
        oracle.as_ref(),
        args.human,
        &mut std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
    )
}

/// `play mnk` / `play connect`: the board of the flags, solved now.
fn solve_now(args: &PlayArgs) -> anyhow::Result<(BoardGame, Solved)> {
    let gravity = args.target == "connect";
    let default = if gravity { (4, 4) } else { (3, 3) };
    let (cols, rows) = board_size(args.cols, args.rows, &args.position, default)?;
    let k = args.k.unwrap_or(if gravity { 4 } else { 3 });
    let family = if gravity {
        Family::Gravity
    } else {
        Family::Mnk
    };
    let game = BoardGame::new(family, cols, rows, k)?;
    args.position.position(&game)?;
    args.out.check()?;
    let (budget, bar) = (args.run.budget(), args.run.progress());
    let solved = if gravity {
        let engine = Gravity::new(cols, rows, k)?;
        let solution = in_pool(args.run.threads(), || {
            solve_gravity_reporting(&engine, &budget, &bar)
        })??;
        let table = SavedTable::Gravity(solution);
        args.out
            .save(&SavedGame::Gravity { cols, rows, k }, &table)?;
        let SavedTable::Gravity(solution) = table else {
            unreachable!("built above")
        };
        Solved::Gravity(engine, Box::new(solution))
    } else {
        let engine = retrograde::games::mnk::Mnk::new(rows, cols, k)?;
        let solution = in_pool(args.run.threads(), || {
            solve_mnk_reporting(&engine, &budget, &bar)
        })??;
        let table = SavedTable::Layered(solution);
        args.out.save(&SavedGame::Mnk { rows, cols, k }, &table)?;
        let SavedTable::Layered(solution) = table else {
            unreachable!("built above")
        };
        Solved::Mnk(solution)
    };
    bar.finish();
    Ok((game, solved))
}

/// Plays from `start` until the game ends or the input does.
fn play(
    game: &BoardGame,
    start: Position,
    oracle: &dyn Oracle,
    human: HumanSide,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    // refused before anything is printed: a game cannot start from a
    // position no game reaches (it printed the board and a result)
    if !game.reachable(&start) {
        bail!("no legal game reaches {}", game.diagram(&start));
    }
    let human = if human == HumanSide::X {
        Side::X
    } else {
        Side::O
    };
    let how = match game.family() {
        Family::Mnk => "a cell such as b2 (column letter, row number)",
        Family::Gravity => "a column number",
    };
    writeln!(
        out,
        "{} board of {} columns × {} rows, {} in a row wins. You play {}; a move is {how}.",
        if game.family() == Family::Mnk {
            "m,n,k"
        } else {
            "gravity"
        },
        game.cols(),
        game.rows(),
        game.k(),
        human.name()
    )?;
    let mut p = start;
    loop {
        write!(out, "{}", game.render(&p))?;
        match game.status(&p) {
            Status::Won(side) => {
                writeln!(out, "result: {} wins", side.name())?;
                return Ok(ExitCode::SUCCESS);
            }
            Status::Drawn => {
                writeln!(out, "result: draw")?;
                return Ok(ExitCode::SUCCESS);
            }
            Status::InProgress => {}
        }
        let Some(a) = answer(game, &p, oracle)? else {
            bail!("no value for the position");
        };
        if a.reachable == Some(false) {
            bail!("no legal game reaches the starting position");
        }
        let mover = p.to_move();
        writeln!(
            out,
            "{} to move: {} for {} in {} under perfect play",
            mover.name(),
            a.value.unwrap_or("unknown"),
            mover.name(),
            plies(a.depth.unwrap_or(0))
        )?;
        let cell = if mover == human {
            match ask(game, &p, input, out)? {
                Some(cell) => cell,
                None => return Ok(ExitCode::SUCCESS),
            }
        } else {
            let best = a
                .moves
                .iter()
                .find(|m| m.best)
                .expect("a position in play has a best move");
            writeln!(out, "{} plays {}", mover.name(), best.notation)?;
            game.parse_move(&p, &best.notation)?
        };
        p = p.with(cell);
    }
}

/// Reads moves until a legal one; `None` at the end of input. A line that
/// is not text, or not a legal move, gets a message and a new prompt.
fn ask(
    game: &BoardGame,
    p: &Position,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<Option<u32>> {
    loop {
        write!(out, "your move: ")?;
        out.flush()?;
        let mut bytes = Vec::new();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        let Ok(line) = std::str::from_utf8(&bytes) else {
            writeln!(out, "not a move: the line is not text")?;
            continue;
        };
        match game.parse_move(p, line) {
            Ok(cell) => return Ok(Some(cell)),
            Err(err) => {
                let shown: String = line.trim().chars().take(ECHO_CHARS).collect();
                let text = err.to_string().replace(line.trim(), &shown);
                writeln!(out, "{text}")?;
            }
        }
    }
}
