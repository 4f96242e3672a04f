//! `retrograde connect`: gravity boards (the Connect-Four family), solved
//! exhaustively ply by ply — the whole board's counts, or one position's
//! answer (`--moves` / `--board`).

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::Args;
use retrograde::{
    disk::{GravityValues, SavedTable},
    engines::sparse::GravityCounts,
    facade::{
        gravity_counts_summary, gravity_empty_board, gravity_totals, BoardSolve, TableEngine,
    },
    games::gravity::Gravity,
    language::{BoardGame, GameValue, Oracle},
    Analyzer, BoardSize, Family, Position,
};
use serde_json::Value;

use super::args::{OutArgs, RunArgs, Timing};
use super::distributed::{on_ranks, Board, RankReport, Ranked, Request};
use super::output::{board_name, emit, emit_json, grouped};
use super::position::{board_size, print_table_answer, PositionArgs};
use super::search::{search, SearchBoardArgs, SearchFlags};
use super::symbolic::EngineArgs;

/// Arguments of `retrograde connect`.
#[derive(Debug, Args)]
pub struct ConnectArgs {
    /// Columns (width) [default: 4, or the --board's]
    #[arg(long, value_name = "C")]
    pub(super) cols: Option<u32>,

    /// Rows (height) [default: 4, or the --board's]
    #[arg(long, value_name = "R")]
    pub(super) rows: Option<u32>,

    /// Stones in a row that win.
    #[arg(long, value_name = "K", default_value_t = 4)]
    pub(super) k: u32,

    #[command(flatten)]
    pub(super) position: PositionArgs,

    /// Answer by search instead of solving every position (short for
    /// `retrograde search connect`, every move's value listed); takes
    /// every flag of that command.
    #[arg(long)]
    pub(super) search: bool,

    #[command(flatten)]
    pub(super) search_flags: SearchFlags,

    #[command(flatten)]
    pub(super) engine: EngineArgs,

    #[command(flatten)]
    pub(super) run: RunArgs,

    /// Print the per-ply table as CSV instead of the report: a header row
    /// of the JSON's `per_ply` keys, then one row a ply
    #[arg(long, conflicts_with = "json")]
    pub(super) csv: bool,

    #[command(flatten)]
    pub(super) out: OutArgs,
}

/// The engine's board and the position language's board of one size.
pub fn boards(cols: u32, rows: u32, k: u32) -> anyhow::Result<(Gravity, BoardGame)> {
    Ok((
        Gravity::new(BoardSize { cols, rows, k })?,
        BoardGame::new(Family::Gravity, BoardSize::new(cols, rows, k))?,
    ))
}

/// Solves every reachable position; prints the per-ply counts or the
/// position's answer.
pub fn run(args: &ConnectArgs) -> anyhow::Result<ExitCode> {
    if let Some(flag) = args.search_flags.first_given().filter(|_| !args.search) {
        anyhow::bail!(
            "{flag} is a flag of the search: add --search (or run `retrograde search connect`)"
        );
    }
    let (cols, rows) = board_size(args.cols, args.rows, &args.position, (4, 4))?;
    args.engine.check()?;
    if args.engine.estimate {
        return super::estimate::connect(
            (cols, rows, args.k),
            &args.engine,
            &args.run.budget(),
            args.run.json,
        );
    }
    // under auto the explicit engine runs first and hands over when it
    // refuses the board for memory (below)
    let size = BoardSize::new(cols, rows, args.k);
    let analyzer = Analyzer::new(args.run.budget(), args.run.threads());
    let request = args.engine.request();
    let encoding = args.engine.encoding(Family::Gravity);
    let engine = analyzer.table_engine(Family::Gravity, size, encoding, &request)?;
    if matches!(engine, TableEngine::Symbolic(_)) && !args.search {
        return run_symbolic(args, cols, rows);
    }
    // under mpirun the ranks refuse a search (one position is answered in
    // one process); otherwise the search comes before the tables' board
    // check, since it takes boards (8×8) that the tables do not
    if super::distributed::launched_ranks().is_some() {
        let game = Gravity::new(BoardSize::new(cols, rows, args.k))?;
        let request = Request {
            board: Board::Connect(&game),
            run: &args.run,
            out: &args.out,
            one_position: args.position.given() || args.search,
        };
        match on_ranks(request)? {
            Some(Ranked::Exit(code)) => return Ok(code),
            Some(Ranked::Report(RankReport::Connect {
                counts,
                root: (value, depth),
                timing,
            })) => {
                let root = (GameValue::of_first_player(value), depth);
                return report_counts(&game, &counts, root, &timing, args.run.json);
            }
            Some(Ranked::Report(RankReport::Mnk { .. })) => {
                unreachable!("a connect request reports connect counts")
            }
            None => {}
        }
    }
    if args.search {
        if args.out.out.is_some() {
            anyhow::bail!("--out saves a solved table; a search has none (drop --search)");
        }
        let search_args = SearchBoardArgs::for_connect(
            cols,
            rows,
            args.k,
            &args.position,
            &args.search_flags,
            &args.run,
        );
        return search(Family::Gravity, &search_args);
    }
    let (_, board) = boards(cols, rows, args.k)?;
    let position = args
        .position
        .given()
        .then(|| args.position.position(&board))
        .transpose()?;
    args.out.check(&retrograde::disk::SavedGame::of_board(
        board.family(),
        board.size(),
    ))?;
    let threads = analyzer.threads();
    let bar = args.run.progress_plies();
    let solved = match analyzer.solve_board(&board, encoding, &request, &bar)? {
        BoardSolve::Solved(solved) => solved,
        BoardSolve::Symbolic(hand_over) => {
            bar.finish();
            if let Some(hand_over) = hand_over.filter(|_| !args.run.quiet()) {
                eprintln!("note: {}", super::engine_choice::hand_over_note(&hand_over));
            }
            return run_symbolic(args, cols, rows);
        }
        BoardSolve::Refused(why) => {
            bar.finish();
            return Err(super::engine_choice::refusal(Family::Gravity, size, &why));
        }
    };
    bar.finish();
    let timing = Timing::solved(solved.seconds(), threads);
    args.out.save(solved.saved(), solved.table())?;
    if let Some(p) = position {
        return answer_position(&board, solved.oracle().as_ref(), &p, &timing, args.run.json);
    }
    let SavedTable::Gravity(solution) = solved.table() else {
        unreachable!("a gravity board is solved into a gravity table")
    };
    report(solution, &timing, args.run.json)
}

/// Solves the board with the symbolic engine.
fn run_symbolic(args: &ConnectArgs, cols: u32, rows: u32) -> anyhow::Result<ExitCode> {
    super::symbolic::run(
        Family::Gravity,
        (cols, rows, args.k),
        &args.engine,
        &args.position,
        &args.run,
        &args.out,
    )
}

/// Prints the answer for `p` from a solved table.
pub fn answer_position(
    board: &BoardGame,
    table: &dyn Oracle,
    p: &Position,
    timing: &Timing,
    json: bool,
) -> anyhow::Result<ExitCode> {
    print_table_answer(board, p, table, json, || {
        (timing.json_keys(None), timing.line(None))
    })
}

/// Prints the whole board's counts (human or JSON).
pub fn report(
    solution: &dyn GravityValues,
    timing: &Timing,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let (value, depth) = gravity_empty_board(solution)?;
    report_counts(
        solution.game(),
        solution.counts(),
        (value, depth),
        timing,
        json,
    )
}

/// Prints a board's counts and the empty board's value for the first
/// player with its depth (human or JSON).
pub fn report_counts(
    game: &Gravity,
    counts: &[GravityCounts],
    (value, depth): (GameValue, u32),
    timing: &Timing,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let total = gravity_totals(counts);
    if json {
        let mut summary = gravity_counts_summary(game, counts, value, depth);
        if let Value::Object(map) = &mut summary {
            map.extend(timing.json_keys(Some(total.positions)));
        }
        return emit_json(&summary);
    }
    let (cols, rows, k) = game.dimensions();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "gravity board: {}, {k} in a row wins",
        board_name(cols, rows)
    );
    // terminal positions by their result, then every position by its
    // value for the first player under perfect play
    let _ = writeln!(
        out,
        "{:>5} {:>14} {:>12} {:>11} {:>11} {:>9} {:>14} {:>14} {:>14}",
        "ply",
        "positions",
        "terminal",
        "X wins",
        "O wins",
        "draws",
        "first won",
        "first drawn",
        "first lost"
    );
    let mut line = |label: String, c: &GravityCounts| {
        let _ = writeln!(
            out,
            "{label:>5} {:>14} {:>12} {:>11} {:>11} {:>9} {:>14} {:>14} {:>14}",
            grouped(c.positions),
            grouped(c.terminal),
            grouped(c.x_wins),
            grouped(c.o_wins),
            grouped(c.draws),
            grouped(c.first_won),
            grouped(c.first_drawn),
            grouped(c.first_lost)
        );
    };
    for c in counts {
        line(c.ply.to_string(), c);
    }
    line("total".into(), &total);
    let _ = writeln!(
        out,
        "value of the empty board: {} (in {} under perfect play)",
        value.in_words(),
        retrograde::language::plies(depth)
    );
    out.push_str(&timing.line(Some(total.positions)));
    emit(&out)
}
