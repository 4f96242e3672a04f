//! `retrograde mnk`: m,n,k boards — the full solution with every count, or
//! one position's answer (`--board`).

use retrograde::BoardSize;
use std::fmt::Write as _;
use std::process::ExitCode;

use clap::Args;
use retrograde::{
    engines::layered::{MnkSolution, PlyCounts},
    facade::{BoardSolve, MnkSummary, TableEngine},
    games::mnk::Mnk,
    language::{plies, BoardGame, GameValue, Oracle, Outcome},
    Analyzer, Family, Position,
};
use serde_json::Value;

use super::args::{OutArgs, RunArgs, Timing};
use super::distributed::{on_ranks, Board, RankReport, Ranked, Request};
use super::output::{board_name, emit, emit_json, grouped, grouped_u128};
use super::position::{board_size, print_table_answer, PositionArgs};
use super::symbolic::EngineArgs;
use retrograde::disk::SavedTable;

/// Arguments of `retrograde mnk`.
#[derive(Debug, Args)]
pub struct MnkArgs {
    /// Columns (width, 1 to 8; the dense engine up to 5) [default: 3, or the --board's]
    #[arg(long, value_name = "C")]
    pub(super) cols: Option<u32>,

    /// Rows (height, 1 to 8; the dense engine up to 5) [default: 3, or the --board's]
    #[arg(long, value_name = "R")]
    pub(super) rows: Option<u32>,

    /// Stones in a row that win (1 to the longer side).
    #[arg(long, value_name = "K", default_value_t = 3)]
    pub(super) k: u32,

    #[command(flatten)]
    pub(super) position: PositionArgs,

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

/// The dense engine's board and the position language's board for the
/// same size: `(columns, rows)` from the flags or the diagram, default 3×3.
pub fn boards(
    cols: Option<u32>,
    rows: Option<u32>,
    k: u32,
    position: &PositionArgs,
) -> anyhow::Result<(Mnk, BoardGame)> {
    let (cols, rows) = board_size(cols, rows, position, (3, 3))?;
    let game = Mnk::new(BoardSize { cols, rows, k })?;
    Ok((
        game,
        BoardGame::new(Family::Mnk, BoardSize::new(cols, rows, k))?,
    ))
}

/// Solves the board (and answers the position) and prints the report.
pub fn run(args: &MnkArgs) -> anyhow::Result<ExitCode> {
    args.engine.check()?;
    if args.engine.estimate {
        let (cols, rows) = board_size(args.cols, args.rows, &args.position, (3, 3))?;
        return super::estimate::mnk(
            (cols, rows, args.k),
            &args.engine,
            &args.run.budget(),
            args.run.json,
        );
    }
    if let Some(code) = symbolic_if_chosen(args)? {
        return Ok(code);
    }
    let (game, board) = boards(args.cols, args.rows, args.k, &args.position)?;
    let request = Request {
        board: Board::Mnk(&game),
        run: &args.run,
        out: &args.out,
        one_position: args.position.given(),
    };
    match on_ranks(request)? {
        Some(Ranked::Exit(code)) => return Ok(code),
        Some(Ranked::Report(RankReport::Mnk {
            counts,
            games,
            root,
            timing,
        })) => {
            let summary = MnkSummary {
                counts: &counts,
                games,
                root,
            };
            return report_summary(&game, &summary, &timing, args.run.json);
        }
        Some(Ranked::Report(RankReport::Connect { .. })) => {
            unreachable!("an m,n,k request reports m,n,k counts")
        }
        None => {}
    }
    let position = args
        .position
        .given()
        .then(|| args.position.position(&board))
        .transpose()?;
    args.out.check(&retrograde::disk::SavedGame::of_board(
        board.family(),
        board.size(),
    ))?;
    let threads = args.run.threads();
    let bar = args.run.progress();
    let analyzer = Analyzer::new(args.run.budget(), threads);
    let request = args.engine.request();
    let encoding = args.engine.encoding(Family::Mnk);
    let solved = analyzer.solve_board(&board, encoding, &request, &bar)?;
    bar.finish();
    let solved = match solved {
        BoardSolve::Solved(solved) => solved,
        BoardSolve::Symbolic(hand_over) => {
            if let Some(hand_over) = hand_over.filter(|_| !args.run.quiet()) {
                eprintln!("note: {}", super::engine_choice::hand_over_note(&hand_over));
            }
            return super::symbolic::run(
                Family::Mnk,
                (board.cols(), board.rows(), board.k()),
                &args.engine,
                &args.position,
                &args.run,
                &args.out,
            );
        }
        BoardSolve::Refused(why) => {
            return Err(super::engine_choice::refusal(
                Family::Mnk,
                board.size(),
                &why,
            ))
        }
    };
    args.out.save(solved.saved(), solved.table())?;
    let timing = Timing::solved(solved.seconds(), threads);
    if let Some(p) = position {
        return answer_position(&board, solved.oracle().as_ref(), &p, &timing, args.run.json);
    }
    let SavedTable::Layered(solution) = solved.table() else {
        unreachable!("an m,n,k board is solved into a layered table")
    };
    report(&game, solution, &timing, args.run.json)
}

/// Runs the symbolic engine when it is chosen: by `--engine symbolic`, by
/// a symbolic-only option, or under `auto` for a board the dense engine
/// does not take (a side over 5) or whose estimate exceeds the budget.
fn symbolic_if_chosen(args: &MnkArgs) -> anyhow::Result<Option<ExitCode>> {
    let (cols, rows) = board_size(args.cols, args.rows, &args.position, (3, 3))?;
    let k = args.k;
    // a board the position language cannot describe (or k off it) is
    // refused as such, before any engine is chosen
    if cols <= 8 && rows <= 8 {
        BoardGame::new(Family::Mnk, BoardSize::new(cols, rows, k))?;
    }
    let size = BoardSize { cols, rows, k };
    let analyzer = Analyzer::new(args.run.budget(), args.run.threads());
    let engine = analyzer.table_engine(
        Family::Mnk,
        size,
        args.engine.encoding(Family::Mnk),
        &args.engine.request(),
    )?;
    let chosen = match engine {
        TableEngine::Explicit => false,
        TableEngine::Symbolic(hand_over) => {
            if let Some(hand_over) = hand_over.filter(|_| !args.run.quiet()) {
                eprintln!("note: {}", super::engine_choice::hand_over_note(&hand_over));
            }
            true
        }
        TableEngine::Refused(why) => {
            return Err(super::engine_choice::refusal(Family::Mnk, size, &why))
        }
    };
    if !chosen {
        return Ok(None);
    }
    // an m,n,k board must fit the position language (k at most the longer
    // side, sides up to 16 and 64 cells), with or without a position to
    // answer
    BoardGame::new(Family::Mnk, BoardSize::new(cols, rows, args.k))?;
    super::symbolic::run(
        Family::Mnk,
        (cols, rows, args.k),
        &args.engine,
        &args.position,
        &args.run,
        &args.out,
    )
    .map(Some)
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

/// "first", "second" or "draw": the value of the empty board.
pub fn empty_board_value(solution: &MnkSolution) -> &'static str {
    GameValue::of_first_player(solution.lookup(0, 0).map_or(Outcome::Draw, |(v, _)| v)).name()
}

/// Prints the whole board's counts (human or JSON).
pub fn report(
    game: &Mnk,
    solution: &MnkSolution,
    timing: &Timing,
    json: bool,
) -> anyhow::Result<ExitCode> {
    report_summary(game, &MnkSummary::of(solution), timing, json)
}

/// [`report`] of a summary.
pub fn report_summary(
    game: &Mnk,
    solution: &MnkSummary<'_>,
    timing: &Timing,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let t = PlyCounts::totals(solution.counts);
    if json {
        let mut value = solution.json(game);
        if let Value::Object(map) = &mut value {
            map.extend(timing.json_keys(Some(t.positions)));
        }
        return emit_json(&value);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "m,n,k game: {}, {} in a row wins",
        board_name(game.cols(), game.rows()),
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
    for c in solution.counts {
        line(c.ply.to_string(), c);
    }
    line("total".into(), &t);
    let value = GameValue::of_first_player(solution.root.0).in_words();
    let depth = solution.root.1;
    let g = &solution.games;
    let _ = writeln!(
        out,
        "value of the empty board: {value} (in {} under perfect play)",
        plies(depth)
    );
    let _ = writeln!(
        out,
        "games: {} (X wins {}, O wins {}, draws {}); terminal classes {}",
        grouped_u128(g.total()),
        grouped_u128(g.x_wins),
        grouped_u128(g.o_wins),
        grouped_u128(g.draws),
        grouped(t.terminal_classes)
    );
    out.push_str(&timing.line(Some(t.positions)));
    emit(&out)
}
