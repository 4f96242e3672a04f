//! One answer shape for a position, whoever knows the values: a fresh
//! solve, a saved table or a search. An [`Oracle`] gives the value and depth
//! of a position in play; [`answer`] builds from it the position's status,
//! value, depth and every legal move's value and depth, the same way for
//! every source — so the answers of the three sources can be compared key
//! by key.

use serde::Serialize;

use super::{BoardGame, Family, Position, Side, Status};
use crate::error::{Error, Result};
use crate::game::Outcome;

/// What an oracle knows of a position in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Its value for the player to move and, where known, its depth
    /// (plies to the end under perfect play; `None` from a weak search).
    Known(Outcome, Option<u32>),
    /// The oracle holds no value for it (a table of reachable positions
    /// asked about one that it lacks).
    Unreachable,
    /// The search ran out of time before proving it.
    NotReached,
}

/// A source of values for positions in play.
pub trait Oracle {
    /// The value of `p`, a position in play (no line, board not full,
    /// counts checked by [`BoardGame::check`]).
    fn lookup(&self, p: &Position) -> Result<Lookup>;

    /// [`Self::lookup`], with a best move (a cell) where the source finds
    /// one on the way, as a search does. By default none.
    fn lookup_best(&self, p: &Position) -> Result<(Lookup, Option<u32>)> {
        Ok((self.lookup(p)?, None))
    }

    /// Whether a position this source does not reach leaves only its own
    /// value open, not the whole answer: a prover that proves wins and
    /// not draws (the threat prover) answers what it proves, each move
    /// apart; a search's answer is all or nothing. By default false.
    fn answers_in_part(&self) -> bool {
        false
    }

    /// Whether the move to `child` (a position in play) keeps its parent's
    /// value `value` in `depth` plies (`None`: the value alone), that is,
    /// whether it is a best move. `Ok(None)` when a search ran out of
    /// time. By default the child is looked up; a search proves it with one
    /// probe instead of a whole score.
    fn keeps_value(
        &self,
        child: &Position,
        value: Outcome,
        depth: Option<u32>,
    ) -> Result<Option<bool>> {
        Ok(match self.lookup(child)? {
            Lookup::Known(v, d) => Some(keeps(value, depth, v.flip(), d.map(|d| d + 1))),
            Lookup::NotReached => None,
            Lookup::Unreachable => Some(false),
        })
    }
}

/// Whether a move worth `mine` in `plies` (counting it) keeps a position's
/// `value` in `depth`: the same value, and for a win or loss the same depth.
/// Without a depth (a values-only source), the value alone decides.
pub(crate) fn keeps(value: Outcome, depth: Option<u32>, mine: Outcome, plies: Option<u32>) -> bool {
    mine == value && (mine == Outcome::Draw || depth.is_none() || plies == depth)
}

/// Which moves an answer lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveDetail {
    /// Every legal move with its value (a table: cheap; a search: one
    /// search per move).
    All,
    /// One best move, found by asking the oracle about moves nearest the
    /// centre first (for a search, a probe each).
    Best,
}

/// The value of one legal move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveAnswer {
    /// The move in the game's notation (see the `position` module).
    #[serde(rename = "move")]
    pub notation: String,
    /// What the move gets the player who makes it; `None` where a source
    /// that answers in part ([`Oracle::answers_in_part`]) did not prove it.
    pub value: Option<Outcome>,
    /// Plies to the end after this move, counting it.
    pub depth: Option<u32>,
    /// Gravity boards: the score in Pascal Pons' convention.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// Whether the move keeps the position's value at its depth.
    pub best: bool,
}

/// The answer for a position, in the shape every command prints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionAnswer {
    /// The position as a one-line diagram.
    pub position: String,
    /// The player whose turn it is (or would be, once the game is over).
    pub to_move: Side,
    /// `in_progress`, `won` or `drawn` (the winner in [`Self::winner`]).
    pub status: Status,
    /// The player with a line, once the game is won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Side>,
    /// m,n,k boards: whether legal play reaches the position (LeetCode 794).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reachable: Option<bool>,
    /// The value for the player to move; `None` for an unreachable board,
    /// and for a position in play that a source answering in part did not
    /// prove ([`PositionAnswer::proved`]).
    pub value: Option<Outcome>,
    /// Plies to the end under perfect play (0 once the game is over).
    pub depth: Option<u32>,
    /// Gravity boards: the score in Pascal Pons' convention.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// Every legal move, in column (gravity) or cell order.
    pub moves: Vec<MoveAnswer>,
}

impl PositionAnswer {
    /// Whether the answer holds the value it was asked: false only for a
    /// reachable position in play whose value was not proved.
    pub fn proved(&self) -> bool {
        self.value.is_some() || self.reachable == Some(false)
    }
}

/// The score of a value reached `depth` plies from a position with `stones`
/// on a board of `cells`, in Pascal Pons' convention: a win completed by
/// the stone placed when `n` stones are on the board scores
/// ⌊(cells + 1 − n) / 2⌋ for the winner, its negation for the loser; a
/// draw 0. `None` without a depth.
pub fn pons_score(cells: u32, stones: u32, value: Outcome, depth: Option<u32>) -> Option<i32> {
    let depth = depth?;
    let n = (stones + depth) as i32 - 1;
    let magnitude = (cells as i32 + 1 - n) / 2;
    Some(match value {
        Outcome::Win => magnitude,
        Outcome::Loss => -magnitude,
        Outcome::Draw => 0,
    })
}

/// Answers `p` on `game` from `oracle`. `Ok(None)` when the oracle ran out
/// of time on any position it was asked. A position no legal game reaches
/// ([`BoardGame::reachable`]) is an error on gravity boards and
/// `reachable: false` on m,n,k boards (LeetCode 794); a table that lacks a
/// reachable position is reported as damaged.
pub fn answer(
    game: &BoardGame,
    p: &Position,
    oracle: &dyn Oracle,
) -> Result<Option<PositionAnswer>> {
    answer_with(game, p, oracle, MoveDetail::All)
}

/// [`answer`], listing the moves `detail` asks for.
pub fn answer_with(
    game: &BoardGame,
    p: &Position,
    oracle: &dyn Oracle,
    detail: MoveDetail,
) -> Result<Option<PositionAnswer>> {
    if game.family() == Family::Gravity {
        game.check(p)?;
    }
    let status = game.status(p);
    let gravity = game.family() == Family::Gravity;
    let score = |stones, value, depth| {
        if gravity {
            pons_score(game.cells(), stones, value, depth)
        } else {
            None
        }
    };
    let mut out = PositionAnswer {
        position: game.diagram(p),
        to_move: p.to_move(),
        status,
        winner: match status {
            Status::Won(side) => Some(side),
            _ => None,
        },
        reachable: (!gravity).then_some(true),
        value: None,
        depth: None,
        score: None,
        moves: Vec::new(),
    };
    if !game.reachable(p) {
        if gravity {
            return Err(Error::InvalidInput(format!(
                "no legal game reaches {}",
                game.diagram(p)
            )));
        }
        out.reachable = Some(false);
        return Ok(Some(out));
    }
    let in_part = oracle.answers_in_part();
    let (lookup, found_best) = match (status, detail) {
        (Status::InProgress, MoveDetail::Best) => oracle.lookup_best(p)?,
        // a source that answers in part names its winning move, which
        // stays one whatever the move's own question finds
        (Status::InProgress, MoveDetail::All) if in_part => oracle.lookup_best(p)?,
        (Status::InProgress, MoveDetail::All) => (oracle.lookup(p)?, None),
        _ => (Lookup::NotReached, None), // not asked: the game is over
    };
    let known = match status {
        Status::Won(_) => Some((Outcome::Loss, Some(0))),
        Status::Drawn => Some((Outcome::Draw, Some(0))),
        Status::InProgress => match lookup {
            Lookup::Known(value, depth) => Some((value, depth)),
            Lookup::NotReached if in_part => None,
            Lookup::NotReached => return Ok(None),
            Lookup::Unreachable => {
                return Err(Error::InvalidInput(format!(
                    "the table has no value for {}, which legal play reaches: it is damaged",
                    game.diagram(p)
                )))
            }
        },
    };
    if let Some((value, depth)) = known {
        out.value = Some(value);
        out.depth = depth;
        out.score = score(p.stones(), value, depth);
    }
    if detail == MoveDetail::Best {
        if status == Status::InProgress {
            let best = match (found_best, known) {
                (Some(cell), _) => Some(cell),
                // a source in part names a winning move or none
                (None, _) if in_part => None,
                (None, Some((value, depth))) => match best_move(game, p, oracle, value, depth)? {
                    Some(cell) => Some(cell),
                    None => return Ok(None),
                },
                (None, None) => unreachable!("not reached returned above"),
            };
            if let (Some(best), Some((value, depth))) = (best, known) {
                out.moves.push(MoveAnswer {
                    notation: game.format_move(best),
                    value: Some(value),
                    depth,
                    score: out.score,
                    best: true,
                });
            }
        }
        return Ok(Some(out));
    }
    let mut children = Vec::new();
    for cell in game.legal_cells(p) {
        let child = p.with(cell);
        let mine = match game.status(&child) {
            Status::Won(_) => Some((Outcome::Win, Some(1))),
            Status::Drawn => Some((Outcome::Draw, Some(1))),
            Status::InProgress if found_best == Some(cell) && in_part => Some((Outcome::Win, None)),
            Status::InProgress => match oracle.lookup(&child)? {
                Lookup::Known(v, d) => Some((v.flip(), d.map(|d| d + 1))),
                Lookup::NotReached if in_part => None,
                Lookup::NotReached => return Ok(None),
                Lookup::Unreachable => {
                    return Err(Error::InvalidInput(format!(
                        "the table has no value for {} after {}: it is damaged",
                        game.diagram(&child),
                        game.format_move(cell)
                    )))
                }
            },
        };
        out.moves.push(MoveAnswer {
            notation: game.format_move(cell),
            value: mine.map(|(v, _)| v),
            depth: mine.and_then(|(_, d)| d),
            score: mine.and_then(|(v, d)| score(p.stones(), v, d)),
            best: false,
        });
        children.push(mine);
    }
    let known = match known {
        Some(known) => Some(known),
        // the moves settle a position its own question left open: a move
        // proved to win wins it, every move proved to lose loses it
        None => {
            let values: Vec<Option<Outcome>> = children.iter().map(|m| m.map(|m| m.0)).collect();
            let settled = if values.contains(&Some(Outcome::Win)) {
                Some(Outcome::Win)
            } else if !values.is_empty() && values.iter().all(|&v| v == Some(Outcome::Loss)) {
                Some(Outcome::Loss)
            } else {
                None
            };
            settled.map(|v| (v, None))
        }
    };
    let Some((value, depth)) = known else {
        return Ok(Some(out));
    };
    out.value = Some(value);
    out.depth = depth;
    out.score = score(p.stones(), value, depth);
    for (m, child) in out.moves.iter_mut().zip(&children) {
        m.best = child.is_some_and(|(mine, plies)| keeps(value, depth, mine, plies));
    }
    if status == Status::InProgress {
        let all: Option<Vec<(Outcome, Option<u32>)>> = children.iter().copied().collect();
        let consistent = match &all {
            Some(all) => follows_from_moves(value, depth, all),
            // moves left open: the proved ones must not beat the value
            None => !children.iter().flatten().any(|m| rank(m.0) > rank(value)),
        };
        if !consistent {
            return Err(Error::InvalidInput(format!(
                "the table's value for {} does not follow from its moves' values: it is damaged or edited",
                game.diagram(p)
            )));
        }
    }
    Ok(Some(out))
}

/// How good `value` is for the mover: a loss 0, a draw 1, a win 2.
fn rank(value: Outcome) -> u8 {
    match value {
        Outcome::Loss => 0,
        Outcome::Draw => 1,
        Outcome::Win => 2,
    }
}

/// Whether a position worth `value` in `depth` (exact depths) is the
/// minimax of its moves, each worth `(value, plies)` for the mover: won by
/// the fastest winning move, else drawn if a move draws, else lost by the
/// slowest move. Always true without depths (a weak search's values).
fn follows_from_moves(
    value: Outcome,
    depth: Option<u32>,
    moves: &[(Outcome, Option<u32>)],
) -> bool {
    let Some(depth) = depth else {
        // values only: the minimax of the moves' values
        let best = if moves.iter().any(|m| m.0 == Outcome::Win) {
            Outcome::Win
        } else if moves.iter().any(|m| m.0 == Outcome::Draw) {
            Outcome::Draw
        } else {
            Outcome::Loss
        };
        return moves.is_empty() || value == best;
    };
    let plies: Option<Vec<(Outcome, u32)>> =
        moves.iter().map(|&(v, d)| d.map(|d| (v, d))).collect();
    let Some(plies) = plies else {
        return true;
    };
    let fastest_win = plies
        .iter()
        .filter(|m| m.0 == Outcome::Win)
        .map(|m| m.1)
        .min();
    let slowest = plies.iter().map(|m| m.1).max();
    match (fastest_win, plies.iter().any(|m| m.0 == Outcome::Draw)) {
        (Some(d), _) => value == Outcome::Win && depth == d,
        (None, true) => value == Outcome::Draw,
        (None, false) => value == Outcome::Loss && Some(depth) == slowest,
    }
}

/// A move of `p` (in play, worth `value` in `depth`) that keeps its value,
/// trying the moves nearest the centre first; `Ok(None)` when the oracle
/// ran out of time.
fn best_move(
    game: &BoardGame,
    p: &Position,
    oracle: &dyn Oracle,
    value: Outcome,
    depth: Option<u32>,
) -> Result<Option<u32>> {
    let mut cells = game.legal_cells(p);
    cells.sort_by_key(|&cell| game.distance_from_centre(cell));
    for cell in cells {
        let child = p.with(cell);
        let kept = match game.status(&child) {
            Status::Won(_) => Some(keeps(value, depth, Outcome::Win, Some(1))),
            Status::Drawn => Some(keeps(value, depth, Outcome::Draw, Some(1))),
            Status::InProgress => oracle.keeps_value(&child, value, depth)?,
        };
        match kept {
            None => return Ok(None),
            Some(true) => return Ok(Some(cell)),
            Some(false) => {}
        }
    }
    Err(Error::InvalidInput(format!(
        "no move of {} keeps its value: the source of values is inconsistent",
        game.diagram(p)
    )))
}

/// A plural that reads well: `1 ply`, `6 plies`.
pub fn plies(n: u32) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}

/// The answer for a person: the board, the status, the value, the moves.
pub fn render(game: &BoardGame, p: &Position, a: &PositionAnswer) -> String {
    use std::fmt::Write as _;
    let mut out = game.render(p);
    let score = |s: Option<i32>| s.map_or(String::new(), |s| format!(", score {s}"));
    let depth = |d: Option<u32>| d.map_or(String::new(), |d| format!(" in {}", plies(d)));
    if a.reachable == Some(false) {
        let _ = writeln!(
            out,
            "unreachable: no legal game reaches this position{}",
            a.winner
                .map_or(String::new(), |w| format!(" (it shows a line of {w})"))
        );
        return out;
    }
    match (a.status, a.winner) {
        (Status::Won(_), Some(w)) => {
            let _ = writeln!(out, "game over: {w} has won{}", score(a.score));
        }
        (Status::Drawn, _) => {
            let _ = writeln!(out, "game over: a draw (the board is full)");
        }
        _ => {
            let _ = match a.value {
                Some(value) => writeln!(
                    out,
                    "{} to move: {}{} under perfect play{}",
                    a.to_move,
                    value.name(),
                    depth(a.depth),
                    score(a.score)
                ),
                None => writeln!(out, "{} to move: not proved", a.to_move),
            };
            for m in &a.moves {
                let _ = writeln!(
                    out,
                    "  {:>3}  {:<4}{}{}{}",
                    m.notation,
                    m.value.map_or("not proved", Outcome::name),
                    depth(m.depth),
                    score(m.score),
                    if m.best { "  (best)" } else { "" }
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pons_scores() {
        // 7×6: a win with the first player's 4th stone (placed on 6 stones)
        assert_eq!(pons_score(42, 6, Outcome::Win, Some(1)), Some(18));
        assert_eq!(pons_score(42, 5, Outcome::Loss, Some(2)), Some(-18));
        assert_eq!(pons_score(42, 0, Outcome::Draw, Some(42)), Some(0));
        // the last stone of the board wins: (42 + 1 − 41) / 2 = 1
        assert_eq!(pons_score(42, 41, Outcome::Win, Some(1)), Some(1));
        assert_eq!(pons_score(42, 0, Outcome::Win, None), None);
    }

    #[test]
    fn plurals() {
        assert_eq!(plies(1), "1 ply");
        assert_eq!(plies(0), "0 plies");
    }
}
