//! Position answers on m,n,k boards past what positions describe (more
//! than [`MAX_CELLS`] cells, up to the threat prover's 256: gomoku's
//! 15 × 15), for `search mnk --moves`: the threat prover
//! ([`retrograde::prove::threats`]) asked whether the side to move
//! wins (its winning move is the best move) and, if not, whether the
//! other side does (every move loses). It proves wins by threats; a draw,
//! or a win it does not find among its few attacker moves, is "not
//! proved" (exit 3, as a search past its time limit). With `--all-moves`
//! each move gets both questions in its share of the time left. Values
//! come without depths: df-pn proves a win, not its shortest length.

use retrograde::board::BoardSize;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use retrograde::position::{mnk_column_letter, render_rows, Side, Status, MAX_CELLS};
use retrograde::prove::threats::board::{Board, Geometry};
use retrograde::prove::threats::{Settings, ThreatProver, Verdict};
use serde_json::json;

use super::output::{emit, emit_json, grouped};

/// What was asked: the board, the moves, the clock and the output.
pub struct Question<'a> {
    pub cols: u32,
    pub rows: u32,
    pub k: u32,
    pub moves: &'a str,
    pub all_moves: bool,
    pub deadline: Option<Instant>,
    pub memory: u64,
    pub json: bool,
    /// No note on stderr.
    pub quiet: bool,
}

/// Whether `search mnk` on a `cols × rows` board is answered here.
pub fn past_positions(cols: u32, rows: u32) -> bool {
    u64::from(cols) * u64::from(rows) > u64::from(MAX_CELLS)
}

/// A value for the side to move (or after a move, for the side that
/// made it), where proved.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Value {
    Win,
    Loss,
    Draw,
}

impl Value {
    pub(super) fn word(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Loss => "loss",
            Value::Draw => "draw",
        }
    }
}

/// Answers `question` and prints it (exit 3 when the value is not proved).
pub fn answer(question: &Question) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let geometry = Geometry::new(BoardSize::new(question.cols, question.rows, question.k))?;
    let mut board =
        Board::after(&geometry, question.moves).map_err(|e| anyhow::anyhow!("--moves: {e}"))?;
    if question.deadline.is_none() && !question.quiet {
        eprintln!(
            "note: no --time-limit: the threat prover runs until it proves a win for either side or finds none among the moves it tries, which may take hours on {} × {}; --time-limit S stops it",
            question.cols, question.rows
        );
    }
    let mover = board.to_move();
    let mut visits = 0;
    let (value, best, ended) = if board.has_line() {
        // Board::after refuses moves past a line, so the last mover has it
        (Some(Value::Loss), None, true)
    } else if board.empties().is_empty() {
        (Some(Value::Draw), None, true)
    } else {
        // with --all-moves the position's own questions get one share of
        // the time, as each move does
        let shares = if question.all_moves {
            board.empties().len() + 1
        } else {
            1
        };
        let deadline = share(question.deadline, shares);
        let (value, best) = value_of(&mut board, question.memory, deadline, &mut visits);
        (value, best, false)
    };
    let mut moves: Vec<(u32, Option<Value>)> = Vec::new();
    if question.all_moves && !ended {
        let empties: Vec<u32> = board.empties().iter().collect();
        for (i, &cell) in empties.iter().enumerate() {
            // an equal share of the time left for each move left
            let deadline = share(question.deadline, (empties.len() - i) as u32);
            board.play(cell, mover);
            let after = if board.has_line() {
                Some(Value::Win)
            } else if board.empties().is_empty() {
                Some(Value::Draw)
            } else {
                // the value for the mover is the other side's, turned
                value_of(&mut board, question.memory, deadline, &mut visits)
                    .0
                    .map(|v| match v {
                        Value::Win => Value::Loss,
                        Value::Loss => Value::Win,
                        Value::Draw => Value::Draw,
                    })
            };
            board.undo(cell, mover);
            // the position's proved winning move stays one, whatever its
            // own share found
            let after = if best == Some(cell) {
                Some(Value::Win)
            } else {
                after
            };
            moves.push((cell, after));
        }
    } else if let Some(cell) = best {
        moves.push((cell, Some(Value::Win)));
    }
    // the moves' values settle a position its own questions left open: a
    // move proved to win wins it, every move proved to lose loses it
    let value = value.or_else(|| {
        let values: Vec<Option<Value>> = moves.iter().map(|m| m.1).collect();
        if values.contains(&Some(Value::Win)) {
            Some(Value::Win)
        } else if !values.is_empty() && values.iter().all(|&v| v == Some(Value::Loss)) {
            Some(Value::Loss)
        } else {
            None
        }
    });
    let best_value = moves.iter().filter_map(|m| m.1).max_by_key(|v| match v {
        Value::Win => 2,
        Value::Draw => 1,
        Value::Loss => 0,
    });
    let is_best = |v: Option<Value>| v.is_some() && v == best_value && value.is_some();
    let seconds = started.elapsed().as_secs_f64();
    let side = ["X", "O"][mover];
    let code = if value.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    };
    if question.json {
        let listed: Vec<_> = moves
            .iter()
            .map(|&(cell, v)| {
                json!({
                    "move": geometry.cell_name(cell),
                    "value": v.map(Value::word),
                    "depth": null,
                    "best": is_best(v),
                })
            })
            .collect();
        // the fields and their order of every position answer
        // (`retrograde::position::answer::PositionAnswer`); a game over has
        // depth 0, a value proved by threats none (df-pn proves a win, not
        // its length). Moves are replayed from the empty board, so the
        // position is always reachable.
        let status = match (ended, value) {
            // the last mover made the line
            (true, Some(Value::Loss)) => Status::Won([Side::X, Side::O][1 - mover]),
            (true, _) => Status::Drawn,
            (false, _) => Status::InProgress,
        };
        let winner = status.winner_name();
        let mut answer = json!({
            "position": board.diagram(),
            "to_move": side,
            "status": status.name(),
            "winner": winner,
            "reachable": true,
            "value": value.map(Value::word),
            "depth": ended.then_some(0),
            "method": "threats",
            "moves": listed,
            "positions_searched": visits,
            "seconds": seconds,
        });
        if winner.is_none() {
            // (as a position answer: no "winner" key while nobody has won)
            if let Some(fields) = answer.as_object_mut() {
                fields.shift_remove("winner");
            }
        }
        emit_json(&answer)?;
        return Ok(code);
    }
    let mut text = render(&board);
    text += &match value {
        Some(v) if ended => format!("{side} to move: {} (the game is over)\n", v.word()),
        Some(Value::Loss) => format!(
            "{side} to move: loss, proved by threats (no depth): every move loses\n"
        ),
        Some(v) => format!("{side} to move: {}, proved by threats (no depth)\n", v.word()),
        None => format!(
            "{side} to move: not proved: no win for either side found by threats{} (the threat prover proves wins; a draw, or a win past its few moves tried, stays open)\n",
            if question.deadline.is_some() { " within the time limit" } else { "" }
        ),
    };
    for &(cell, v) in &moves {
        let word = v.map_or("not proved", Value::word);
        let mark = if is_best(v) { "  (best)" } else { "" };
        text += &format!("  {:>4}  {word}{mark}\n", geometry.cell_name(cell));
    }
    text += &format!(
        "searched {} positions by threats in {seconds:.3} s on 1 thread\n",
        grouped(visits)
    );
    emit(&text)?;
    Ok(code)
}

/// The value for the side to move at `board` (left as it was) and its
/// winning move: a win if the threat prover proves one for it, a loss if
/// it proves one for the other side, `None` if neither by `deadline`. The
/// two provers take turns in slices that double (a tenth of a second
/// first), each resuming from its own table, so the side whose win is
/// quick to prove is found in about twice its time whichever side it is.
pub(super) fn value_of(
    board: &mut Board,
    memory: u64,
    deadline: Option<Instant>,
    visits: &mut u64,
) -> (Option<Value>, Option<u32>) {
    let geometry = board.geometry;
    let mover = board.to_move();
    let mut provers: Vec<(usize, ThreatProver)> = [mover, 1 - mover]
        .into_iter()
        .map(|attacker| {
            let prover =
                ThreatProver::new(geometry, attacker, Settings::default(), memory / 2, None);
            (attacker, prover)
        })
        .collect();
    let mut open = [true, true];
    let mut slice = Duration::from_millis(100);
    let mut value = (None, None);
    while value.0.is_none() && open.contains(&true) {
        for (i, (attacker, prover)) in provers.iter_mut().enumerate() {
            if !open[i] {
                continue;
            }
            let until = Instant::now() + slice;
            let until = deadline.map_or(until, |d| d.min(until));
            prover.set_deadline(Some(until));
            match prover.prove(board) {
                Verdict::Proved if *attacker == mover => {
                    value = (Some(Value::Win), prover.winning_move(board));
                    break;
                }
                Verdict::Proved => {
                    value = (Some(Value::Loss), None);
                    break;
                }
                // not proved with the moves tried, or stopped by memory
                // (before the clock): nothing more from this one
                Verdict::Disproved => open[i] = false,
                Verdict::Open if Instant::now() < until => open[i] = false,
                Verdict::Open => {}
            }
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        slice *= 2;
    }
    *visits += provers.iter().map(|(_, p)| p.stats().visits).sum::<u64>();
    value
}

/// The board drawn for a person, as positions are drawn
/// ([`render_rows`]): column letters on top, row numbers from 1 at the top
/// on the left.
pub(super) fn render(board: &Board) -> String {
    let labels: Vec<String> = (0..board.geometry.cols)
        .map(|c| mnk_column_letter(c).to_string())
        .collect();
    let rows: Vec<String> = board.diagram().split('/').map(str::to_string).collect();
    render_rows(&labels, true, &rows)
}

/// `parts` equal shares of the time left to `deadline`: the deadline of
/// the first.
fn share(deadline: Option<Instant>, parts: u32) -> Option<Instant> {
    deadline.map(|d| {
        let now = Instant::now();
        now + d.saturating_duration_since(now) / parts
    })
}
