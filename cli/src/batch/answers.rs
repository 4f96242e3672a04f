//! A batch's answers: one per input line, written in input order as one
//! line of stdout each (JSON: one object), and the tally of what they were.

use retrograde::{
    language::{plies, Outcome},
    PositionAnswer,
};
use serde_json::json;

use super::super::output::grouped;

/// What one input line got.
#[derive(Debug)]
pub enum Answered {
    /// Its position's answer, with the nodes and seconds of its search.
    Solved {
        moves: String,
        answer: PositionAnswer,
        nodes: u64,
        seconds: f64,
    },
    /// Its position's answer, looked up in a table (no search).
    Looked {
        moves: String,
        answer: PositionAnswer,
    },
    /// Its search stopped at its time limit.
    NotReached {
        moves: String,
        nodes: u64,
        seconds: f64,
    },
    /// Not a position: the message, and the line's text when it was kept
    /// (not for a line too long or not UTF-8).
    Bad {
        moves: Option<String>,
        error: String,
    },
    /// The input could not be read here: the batch ends with this message.
    Unreadable(String),
}

impl Answered {
    /// The answer's line on stdout (with its newline); `None` for an
    /// unreadable input, which is no line's answer.
    pub fn text(&self, json: bool) -> anyhow::Result<Option<String>> {
        let text = match (self, json) {
            (Self::Unreadable(_), _) => return Ok(None),
            (
                Self::Solved {
                    moves,
                    answer,
                    nodes,
                    seconds,
                },
                true,
            ) => {
                let mut value = serde_json::to_value(answer)?;
                if let serde_json::Value::Object(map) = &mut value {
                    map.insert("moves_played".into(), json!(moves));
                    map.insert("nodes".into(), json!(nodes));
                    map.insert("seconds".into(), json!(seconds));
                }
                value.to_string()
            }
            (
                Self::Solved {
                    moves,
                    answer,
                    nodes,
                    seconds,
                },
                false,
            ) => format!(
                "{}  ({} nodes, {seconds:.3} s)",
                one_line(moves, answer),
                grouped(*nodes)
            ),
            (
                Self::NotReached {
                    moves,
                    nodes,
                    seconds,
                },
                true,
            ) => json!({
                "moves_played": moves,
                "not_reached": true,
                "nodes": nodes,
                "seconds": seconds,
            })
            .to_string(),
            (
                Self::NotReached {
                    moves,
                    nodes,
                    seconds,
                },
                false,
            ) => format!(
                "{}: not reached  ({} nodes, {seconds:.3} s)",
                shown(moves),
                grouped(*nodes)
            ),
            (Self::Looked { moves, answer }, true) => {
                let mut value = serde_json::to_value(answer)?;
                if let serde_json::Value::Object(map) = &mut value {
                    map.insert("moves_played".into(), json!(moves));
                }
                value.to_string()
            }
            (Self::Looked { moves, answer }, false) => one_line(moves, answer),
            (Self::Bad { moves, error }, true) => {
                json!({"moves_played": moves, "error": error}).to_string()
            }
            (Self::Bad { error, .. }, false) => format!("error: {error}"),
        };
        Ok(Some(text + "\n"))
    }
}

/// What a batch's answers were, counted as they are written.
#[derive(Debug, Default)]
pub struct Tally {
    /// Lines answered (every kind).
    pub lines: u64,
    /// Positions searched (solved or not reached).
    pub positions: u64,
    /// Positions whose search stopped at the time limit.
    pub not_reached: u64,
    /// Bad lines, and the number of the first.
    pub bad: u64,
    pub first_bad: Option<u64>,
}

impl Tally {
    /// The error that ends a batch with bad lines (exit code 2), naming the
    /// input `name`, how many lines were bad and the first; `Ok` if none.
    pub fn refuse_bad_lines(&self, name: &str) -> anyhow::Result<()> {
        if let Some(first) = self.first_bad {
            anyhow::bail!(
                "{name}: {} bad line{} of {} (the first: line {first}), answered with an error in {}",
                grouped(self.bad),
                if self.bad == 1 { "" } else { "s" },
                grouped(self.lines),
                if self.bad == 1 { "its place" } else { "their places" },
            );
        }
        Ok(())
    }

    /// Counts the answer of line `number`.
    pub fn count(&mut self, number: u64, answered: &Answered) {
        self.lines += 1;
        match answered {
            Answered::Solved { .. } | Answered::Looked { .. } => self.positions += 1,
            Answered::NotReached { .. } => {
                self.positions += 1;
                self.not_reached += 1;
            }
            Answered::Bad { .. } => {
                self.bad += 1;
                self.first_bad.get_or_insert(number);
            }
            Answered::Unreadable(_) => {}
        }
    }
}

/// A move list as printed: "(empty)" for the empty board.
fn shown(line: &str) -> &str {
    if line.is_empty() {
        "(empty)"
    } else {
        line
    }
}

/// One line of a batch: the moves, the value with its depth and score,
/// and the moves marked best.
fn one_line(line: &str, a: &PositionAnswer) -> String {
    use std::fmt::Write as _;
    let mut out = format!(
        "{}: {}",
        shown(line),
        a.value.map_or("unreachable", Outcome::name)
    );
    if let Some(d) = a.depth {
        let _ = write!(out, " in {}", plies(d));
    }
    if let Some(score) = a.score {
        let _ = write!(out, ", score {score}");
    }
    let best: Vec<&str> = a
        .moves
        .iter()
        .filter(|m| m.best)
        .map(|m| m.notation.as_str())
        .collect();
    if !best.is_empty() {
        let _ = write!(out, ", best {}", best.join(" "));
    }
    out
}
