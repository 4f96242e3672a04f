//! `retrograde play`: a game of m,n,k or of a gravity board against perfect
//! play, in the terminal — moves in the position language of every other
//! command (`b2` on m,n,k boards, column numbers on gravity boards).
//!
//! The values come from a table (solved now, or a file); a board beyond
//! the table engines (memory, or m,n,k sides past 5) is played by search
//! instead, each position within `--move-seconds`: a move the search did
//! not prove in time is the legal move nearest the centre, marked as not
//! proved. The searcher is the facade's ([`Analyzer::best_move`]): the
//! bitboard search, the zone prover then the general search, or past 64
//! cells (m,n,k boards to 256 cells, gomoku's 15 × 15) the threat prover.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::bail;
use clap::{Args, ValueEnum};
use retrograde::{
    disk::SavedTable,
    engines::bitboard::MAX_MNK_CELLS,
    engines::mcts::{mcts_move, MctsSettings, DEFAULT_EXPLORATION},
    facade::{AnsweredBy, ForPlay, PositionSearcher},
    language::{plies, BoardGame, MoveDetail, Oracle, Outcome, Side, Status},
    Analyzer, BoardSize, Error, Family, OpenTable, Position, PositionAnswer,
};

use super::args::{OutArgs, RunArgs};
use super::position::{board_size, PositionArgs};
use super::progress::Bar;
use super::prompt::{ask_until, ECHO_CHARS};

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

    /// Boards beyond a table's reach are played by search: the time each
    /// position's search may take before the program plays an unproved
    /// move (said so) [default: 10]
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = super::args::parse_seconds)]
    move_seconds: Option<f64>,

    /// Who plays against you: `perfect` (from the board's table, or its
    /// search beyond the tables) or `mcts` (Monte Carlo tree search: a
    /// strong move, not a proved one; any board, no table).
    #[arg(long, value_enum, default_value_t = Opponent::Perfect)]
    engine: Opponent,

    /// With `--engine mcts`: random playouts a move [default: 10000]
    #[arg(long, value_name = "N")]
    playouts: Option<u32>,

    /// With `--engine mcts`: the seed of its playouts (the same seed plays
    /// the same game) [default: 0]
    #[arg(long, value_name = "S")]
    seed: Option<u64>,

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

/// Who plays against the person.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Opponent {
    /// Perfect play.
    Perfect,
    /// Monte Carlo tree search (the library's `engines::mcts`).
    Mcts,
}

/// Where the computer's moves come from in [`play`].
enum Moves<'a> {
    /// Every move's value (a table's, or a search's; `None`: not proved in
    /// the move's time): the best one is played.
    Answers(&'a dyn Fn(&Position) -> anyhow::Result<Option<PositionAnswer>>),
    /// A move and no value (Monte Carlo tree search).
    Chosen(&'a dyn Fn(&Position) -> anyhow::Result<u32>),
}

/// A solved board to play on.
enum Solved {
    /// A table solved now.
    Fresh(SavedTable),
    /// A table opened from a file; a symbolic table has values without
    /// depths (a won game is still won: every move adds a stone, so
    /// keeping the value ends it).
    Opened(Box<OpenTable>),
    /// No table: a board beyond the table engines (memory, or m,n,k sides
    /// past 5), answered by the facade's searcher a position at a time
    /// (the bitboard search, the zone prover then the general search, or
    /// the threat prover: [`PositionSearcher::new`]), each within the time
    /// given (`--move-seconds`, checked).
    Search(
        Analyzer,
        Box<PositionSearcher<'static>>,
        std::time::Duration,
    ),
}

/// Longest `--move-seconds` (a day).
const MAX_MOVE_SECONDS: f64 = 86_400.0;

impl Solved {
    /// The table as an oracle; `None` for a search.
    fn oracle(&self) -> Option<Box<dyn Oracle + '_>> {
        match self {
            Solved::Fresh(table) => table.oracle().map(|oracle| oracle as Box<dyn Oracle>),
            Solved::Opened(table) => table.oracle(),
            Solved::Search(..) => None,
        }
    }
}

/// Solves (or loads) the board, then plays one game on stdin/stdout.
pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    if args.run.json {
        bail!("play is a conversation in the terminal; --json is not for it (use query --json)");
    }
    if args.engine == Opponent::Mcts {
        return play_mcts(args);
    }
    if let Some(flag) = [
        ("--playouts", args.playouts.is_some()),
        ("--seed", args.seed.is_some()),
    ]
    .iter()
    .find_map(|(name, given)| given.then_some(name))
    {
        bail!("{flag} is for `--engine mcts`");
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
            // opened as `query` opens it (a whole-read table within the budget)
            let opened = OpenTable::open(std::path::Path::new(file), &args.run.budget())?;
            match opened.board() {
                Some(board) => (board.clone(), Solved::Opened(Box::new(opened))),
                None => bail!(
                    "{file} holds a {} table; play needs an mnk or connect table",
                    opened.kind_name()
                ),
            }
        }
    };
    let start = args.position.position(&game)?;
    let (input, output) = (&mut std::io::stdin().lock(), &mut std::io::stdout().lock());
    if let Some(oracle) = solved.oracle() {
        let answer_at = |p: &Position| {
            Ok(
                retrograde::facade::answer_from_table(&game, oracle.as_ref(), p, MoveDetail::All)?
                    .answer,
            )
        };
        return play(
            &game,
            start,
            Moves::Answers(&answer_at),
            args.human,
            input,
            output,
        );
    }
    let Solved::Search(analyzer, searcher, seconds) = solved else {
        unreachable!("every table is an oracle")
    };
    let answer_at = |p: &Position| {
        let searching = format!(
            "searching {}'s position, up to {} s",
            p.to_move().name(),
            seconds.as_secs_f64()
        );
        let spinner = Bar::spinner_on_stderr(args.run.quiet(), &searching);
        let searched = analyzer.best_move(&searcher, *p, Some(seconds));
        spinner.finish();
        let (_, report) = searched?;
        // a value the searcher left open is not proved: as a search out of time
        Ok(report.answer.filter(PositionAnswer::proved))
    };
    play(
        &game,
        start,
        Moves::Answers(&answer_at),
        args.human,
        input,
        output,
    )
}

/// `play mnk|connect --engine mcts`: the board of the flags, no table,
/// the computer's moves by Monte Carlo tree search within `--playouts`.
fn play_mcts(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let Some(family) = Family::named(&args.target) else {
        bail!("--engine mcts plays `play mnk` or `play connect`; a table file is played perfectly");
    };
    if args.out.out.is_some() {
        bail!("--out saves a table; --engine mcts solves none (drop --out)");
    }
    if args.move_seconds.is_some() {
        bail!("--move-seconds is for boards played by search; --engine mcts takes --playouts");
    }
    let game = board_of_flags(args, family)?;
    let start = args.position.position(&game)?;
    let settings = MctsSettings {
        playouts: args.playouts.unwrap_or(10_000),
        seed: args.seed.unwrap_or(0),
        exploration: DEFAULT_EXPLORATION,
    };
    settings.check().map_err(super::output::flag_error)?;
    let never = std::sync::atomic::AtomicBool::new(false);
    let choose = |p: &Position| -> anyhow::Result<u32> {
        let chosen = mcts_move(&game, *p, settings, &never).map_err(super::output::flag_error)?;
        Ok(chosen.expect("a search without a cancel flag set chooses a move"))
    };
    let (input, output) = (&mut std::io::stdin().lock(), &mut std::io::stdout().lock());
    play(
        &game,
        start,
        Moves::Chosen(&choose),
        args.human,
        input,
        output,
    )
}

/// `--move-seconds`, checked.
fn move_seconds(given: Option<f64>) -> anyhow::Result<std::time::Duration> {
    match given.unwrap_or(10.0) {
        s if s.is_finite() && s > 0.0 && s <= MAX_MOVE_SECONDS => {
            Ok(std::time::Duration::from_secs_f64(s))
        }
        s => bail!("--move-seconds {s} must be a number of seconds above 0 and at most {MAX_MOVE_SECONDS:.0}"),
    }
}

/// The board of `play mnk|connect`'s flags: the boards that solve in
/// seconds by default (3×3, 4×4), or the position's board.
fn board_of_flags(args: &PlayArgs, family: Family) -> anyhow::Result<BoardGame> {
    let default = match family {
        Family::Gravity => (4, 4),
        Family::Mnk => (3, 3),
    };
    let (cols, rows) = board_size(args.cols, args.rows, &args.position, default)?;
    let k = args.k.unwrap_or(family.default_k());
    Ok(BoardGame::new(family, BoardSize::new(cols, rows, k))?)
}

/// `play mnk` / `play connect`: the board of the flags, solved now.
fn solve_now(args: &PlayArgs) -> anyhow::Result<(BoardGame, Solved)> {
    let family = Family::named(&args.target).expect("play's target is mnk or connect here");
    let game = board_of_flags(args, family)?;
    let BoardSize { cols, rows, k } = game.size();
    args.position.position(&game)?;
    args.out.check(&retrograde::disk::SavedGame::of_board(
        game.family(),
        game.size(),
    ))?;
    let (budget, bar) = (args.run.budget(), args.run.progress());
    let threads = args.run.threads();
    let (saved, table, _) = match Analyzer::new(budget, threads).solve_for_play(&game, &bar)? {
        ForPlay::Table(solved) => solved.into_parts(),
        ForPlay::BySearch(refused) => {
            bar.finish();
            return Ok((game, by_search(args, family, (cols, rows, k), refused)?));
        }
    };
    if family == Family::Mnk && args.move_seconds.is_some() {
        bail!("--move-seconds is for boards played by search; this m,n,k board is solved whole");
    }
    args.out.save(&saved, &table)?;
    bar.finish();
    Ok((game, Solved::Fresh(table)))
}

/// A board beyond a table's reach (`refused` says why) played by the
/// bitboard search, each position within `--move-seconds`; refused where
/// the search does not take the board either.
fn by_search(
    args: &PlayArgs,
    family: Family,
    (cols, rows, k): (u32, u32, u32),
    refused: Error,
) -> anyhow::Result<Solved> {
    if args.out.out.is_some() {
        bail!(
            "{}; --out saves a table, and beyond it play goes by search (drop --out)",
            super::output::in_flags(&refused)
        );
    }
    let seconds = move_seconds(args.move_seconds)?;
    let analyzer = Analyzer::new(args.run.budget(), args.run.threads());
    let game = BoardGame::new(family, BoardSize::new(cols, rows, k))?;
    let start = args.position.position(&game)?;
    let searcher = match analyzer.searcher(&game, start.stones()) {
        Ok(searcher) => searcher,
        Err(e) => bail!("{refused}; {e}"),
    };
    let how = match searcher.answered_by() {
        AnsweredBy::Search => "by search".to_string(),
        AnsweredBy::ZonesThenSearch => format!(
            "by the zone prover (values without depths) and the search: {cols} columns × {rows} rows is past the bitboard search's {MAX_MNK_CELLS} cells"
        ),
        AnsweredBy::GeneralSearch => "by the general search".to_string(),
        AnsweredBy::Threats => format!(
            "by the threat prover (wins by threats, no depths): {cols} columns × {rows} rows is past the searches' 64 cells"
        ),
        AnsweredBy::Table | AnsweredBy::Provers => {
            unreachable!("a searcher answers by one of its engines")
        }
    };
    // said before the first search, which comes before the first prompt
    // (the value of the player's own position): issue 86 found those
    // seconds silent
    if !args.run.quiet() {
        eprintln!(
            "note: {cols} columns × {rows} rows is beyond a table's reach here; playing {how}: \
             each position is searched for up to {} s, yours too before your prompt (for its \
             value); --move-seconds S to change",
            seconds.as_secs_f64()
        );
    }
    Ok(Solved::Search(analyzer, Box::new(searcher), seconds))
}

/// Plays from `start` until the game ends or the input does.
fn play(
    game: &BoardGame,
    start: Position,
    moves: Moves,
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
        let mover = p.to_move();
        // the position's answer (`None` inside: a search that did not prove
        // it in time); none where the moves come without values
        let answer = match moves {
            Moves::Answers(answer_at) => {
                let a = answer_at(&p)?;
                if a.as_ref().is_some_and(|a| a.reachable == Some(false)) {
                    bail!("no legal game reaches the starting position");
                }
                match &a {
                    Some(a) => writeln!(
                        out,
                        "{} to move: {} for {}{} under perfect play",
                        mover.name(),
                        a.value.map_or("unknown", Outcome::name),
                        mover.name(),
                        a.depth
                            .map(|d| format!(" in {}", plies(d)))
                            .unwrap_or_default()
                    )?,
                    None => writeln!(
                        out,
                        "{} to move: not proved within the move's time",
                        mover.name()
                    )?,
                }
                a
            }
            Moves::Chosen(_) => {
                writeln!(out, "{} to move", mover.name())?;
                None
            }
        };
        let cell = if mover == human {
            match ask(game, &p, input, out)? {
                Some(cell) => cell,
                None => return Ok(ExitCode::SUCCESS),
            }
        } else if let Moves::Chosen(choose) = moves {
            let cell = choose(&p)?;
            writeln!(
                out,
                "{} plays {} (Monte Carlo tree search: not proved)",
                mover.name(),
                game.format_move(cell)
            )?;
            cell
        } else {
            best_or_guess(game, &p, answer.as_ref(), out)?
        };
        p = p.with(cell);
    }
}

/// The computer's move from the position's answer: its best move, or
/// where the search did not prove the position in time (`answer` `None`)
/// the legal move nearest the centre, said so.
fn best_or_guess(
    game: &BoardGame,
    p: &Position,
    answer: Option<&PositionAnswer>,
    out: &mut impl Write,
) -> anyhow::Result<u32> {
    let mover = p.to_move();
    Ok(match answer.and_then(|a| a.moves.iter().find(|m| m.best)) {
        Some(best) => {
            writeln!(out, "{} plays {}", mover.name(), best.notation)?;
            game.parse_move(p, &best.notation)?
        }
        None => {
            let guess = game
                .legal_cells(p)
                .into_iter()
                .min_by_key(|&c| game.distance_from_centre(c))
                .expect("a position in play has a legal move");
            writeln!(
                out,
                "{} plays {} (not proved: the search ran out of time; the move nearest the centre)",
                mover.name(),
                game.format_move(guess)
            )?;
            guess
        }
    })
}

/// Reads moves until a legal one; `None` at the end of input. A line that
/// is not text, or not a legal move, gets a message and a new prompt.
fn ask(
    game: &BoardGame,
    p: &Position,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<Option<u32>> {
    ask_until(input, out, |line| {
        game.parse_move(p, line).map_err(|err| {
            let shown: String = line.trim().chars().take(ECHO_CHARS).collect();
            err.to_string().replace(line.trim(), &shown)
        })
    })
}
