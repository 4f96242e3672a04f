//! The position options every board command shares (`--moves`, `--board`)
//! and the one way a position answer is printed.

use std::process::ExitCode;

use clap::Args;
use retrograde::{
    facade::AnswerReport,
    language::{parse_diagram_any, render, BoardGame, MoveDetail, Oracle},
    Position, PositionAnswer,
};
use serde_json::Value;

use super::output::{emit, emit_json};

/// `--moves` / `--board`: a position of a board game.
#[derive(Debug, Args, Clone, Default)]
pub struct PositionArgs {
    /// A position given as the moves from the empty board: m,n,k cells such
    /// as "b2 a1 c3" (column letter, row number from 1 at the top);
    /// gravity columns from 1 such as "4 4 5 3" (or "4453" up to 9 columns).
    #[arg(
        long,
        value_name = "MOVES",
        conflicts_with = "board",
        allow_hyphen_values = true
    )]
    pub moves: Option<String>,

    /// A position given as a diagram: rows from the top separated by '/',
    /// X, O and '.' for empty, e.g. "XO./.X./...".
    #[arg(long, value_name = "BOARD")]
    pub board: Option<String>,
}

impl PositionArgs {
    /// Whether a position was given.
    pub fn given(&self) -> bool {
        self.moves.is_some() || self.board.is_some()
    }

    /// The (columns, rows) of a `--board` diagram, if one was given.
    pub fn diagram_size(&self) -> anyhow::Result<Option<(u32, u32)>> {
        Ok(match &self.board {
            Some(text) => {
                let d = parse_diagram_any(text)?;
                Some((d.cols, d.rows))
            }
            None => None,
        })
    }

    /// The position on `game` (the empty board when none was given).
    pub fn position(&self, game: &BoardGame) -> anyhow::Result<Position> {
        Ok(match (&self.moves, &self.board) {
            (Some(moves), _) => game.play_moves(moves)?,
            (None, Some(board)) => game.parse_diagram(board)?,
            (None, None) => Position::default(),
        })
    }
}

/// The board's size: `--cols`/`--rows` as given, else the diagram's, else
/// `default`; a size that contradicts the diagram is refused.
pub fn board_size(
    cols: Option<u32>,
    rows: Option<u32>,
    position: &PositionArgs,
    default: (u32, u32),
) -> anyhow::Result<(u32, u32)> {
    match position.diagram_size()? {
        Some((c, r)) => {
            for (given, actual, name) in [(cols, c, "--cols"), (rows, r, "--rows")] {
                if let Some(g) = given.filter(|&g| g != actual) {
                    anyhow::bail!("{name} {g} disagrees with the board, which has {actual}");
                }
            }
            Ok((c, r))
        }
        None => Ok((cols.unwrap_or(default.0), rows.unwrap_or(default.1))),
    }
}

/// Answers `p` from a table's `oracle` and prints it; see [`print_answer`].
pub fn print_table_answer(
    game: &BoardGame,
    p: &Position,
    oracle: &dyn Oracle,
    json: bool,
    extra: impl FnOnce() -> (serde_json::Map<String, Value>, String),
) -> anyhow::Result<ExitCode> {
    let report = retrograde::facade::answer_from_table(game, oracle, p, MoveDetail::All)
        .map_err(super::output::flag_error)?;
    print_answer(game, p, report.answer, json, extra)
}

/// Prints an answer (human or JSON, with `extra` keys appended to the JSON
/// and a footer to the human report). `None` — a search that ran out of
/// time — prints "not reached" and exits 3.
pub fn print_answer(
    game: &BoardGame,
    p: &Position,
    answer: Option<PositionAnswer>,
    json: bool,
    extra: impl FnOnce() -> (serde_json::Map<String, Value>, String),
) -> anyhow::Result<ExitCode> {
    let Some(a) = answer else {
        return not_reached();
    };
    let (keys, footer) = extra();
    if json {
        let mut value = serde_json::to_value(&a)?;
        if let Value::Object(map) = &mut value {
            map.extend(keys);
        }
        return emit_json(&value);
    }
    emit(&format!("{}{footer}", render(game, p, &a)))
}

/// Prints a report of the facade's cascade ([`AnswerReport`]): the answer
/// (human or JSON) with the engine that answered (`"method"`), the
/// positions it searched and its time. Exit 3 when the value was not
/// proved: "not reached" for a search stopped by its limit, the answer with
/// its open values for a prover that answers in part.
pub fn print_report(
    game: &BoardGame,
    p: &Position,
    report: &AnswerReport,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let Some(a) = &report.answer else {
        return not_reached();
    };
    let by = report.by.name().replace('_', " ");
    let code = if a.proved() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    };
    if json {
        let mut value = serde_json::to_value(a)?;
        if let Value::Object(map) = &mut value {
            map.insert("method".into(), report.by.name().into());
            map.insert("positions_searched".into(), report.positions.into());
            map.insert("seconds".into(), report.seconds.into());
        }
        emit_json(&value)?;
        return Ok(code);
    }
    let open = if a.proved() {
        ""
    } else {
        " (the threat prover proves wins: a draw, or a win past the moves it tries, stays open)"
    };
    emit(&format!(
        "{}searched {} positions by {by} in {:.3} s{open}\n",
        render(game, p, a),
        super::output::grouped(report.positions),
        report.seconds
    ))?;
    Ok(code)
}

/// The answer of a search stopped by its time limit: exit 3, "not reached".
pub fn not_reached() -> anyhow::Result<ExitCode> {
    emit("not reached: the time limit passed before the search proved the value\n")?;
    Ok(ExitCode::from(3))
}
