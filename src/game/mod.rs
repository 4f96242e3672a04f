//! The game abstraction the solvers work on.
//!
//! A [`RankedGame`] is a finite game whose states are already packed onto a
//! dense index `0..state_count()` (see [`crate::index`]). The retrograde
//! solver needs four things of it, all REQUIRED:
//!
//! * [`terminal`](RankedGame::terminal): which states end the game, and how;
//! * [`move_count`](RankedGame::move_count): how many moves a state has;
//! * [`for_each_move`](RankedGame::for_each_move): the successors of a state;
//! * [`for_each_unmove`](RankedGame::for_each_unmove): its predecessors, the
//!   exact inverse of the moves.
//!
//! One method is OPTIONAL: [`terminal_states`](RankedGame::terminal_states)
//! lists every terminal state; the fallback scans all states with
//! `terminal`, which is correct but costs a pass over `0..N`.
//!
//! If a game gets a required method wrong (an unmove that is not the inverse
//! of a move, a move count that disagrees with the moves), the solver's
//! labels are wrong; `tests/` checks each game's contract on small instances.

pub mod table;

use rayon::prelude::*;

/// A game's result under perfect play, named by who wins it: the answer
/// to "who wins this board?" (JSON `"first"`, `"second"`, `"draw"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameValue {
    /// The first player (X) wins.
    First,
    /// The second player (O) wins.
    Second,
    /// Neither player can force a win.
    Draw,
}

impl GameValue {
    /// The result of a position whose value for the first player, to move,
    /// is `value`.
    pub fn of_first_player(value: Outcome) -> Self {
        match value {
            Outcome::Win => GameValue::First,
            Outcome::Loss => GameValue::Second,
            Outcome::Draw => GameValue::Draw,
        }
    }

    /// The value for the first player, to move, of a position with this
    /// result (the inverse of [`Self::of_first_player`]).
    pub fn for_first_player(self) -> Outcome {
        match self {
            GameValue::First => Outcome::Win,
            GameValue::Second => Outcome::Loss,
            GameValue::Draw => Outcome::Draw,
        }
    }

    /// `"first"`, `"second"` or `"draw"`, as JSON gives it.
    pub fn name(self) -> &'static str {
        match self {
            GameValue::First => "first",
            GameValue::Second => "second",
            GameValue::Draw => "draw",
        }
    }

    /// "first player wins", "second player wins" or "draw".
    pub fn in_words(self) -> &'static str {
        match self {
            GameValue::First => "first player wins",
            GameValue::Second => "second player wins",
            GameValue::Draw => "draw",
        }
    }
}

/// The value of a state for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player to move wins under perfect play.
    Win,
    /// The player to move loses under perfect play.
    Loss,
    /// Neither player can force a win.
    Draw,
}

impl Outcome {
    /// The same result seen from the other player.
    pub fn flip(self) -> Self {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }

    /// Lower-case name, as printed in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
        }
    }
}

impl serde::Serialize for Outcome {
    /// By its name (`"win"`, `"loss"`, `"draw"`): the answers' JSON.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// A finite two-player game on a dense state index.
///
/// States are `0..state_count()`. A state is *terminal* when
/// [`terminal`](Self::terminal) returns `Some`; terminal states have no moves.
/// Every other state has at least one move (a game in which "no legal move"
/// means something reports it through `terminal`).
pub trait RankedGame: Sync {
    /// Number of states; the states are exactly `0..state_count()`.
    fn state_count(&self) -> u64;

    /// REQUIRED. `Some(outcome)` for the player to move if `state` ends the
    /// game (a won, lost or drawn position, or a position whose mover has no
    /// legal move), `None` if play goes on.
    fn terminal(&self, state: u64) -> Option<Outcome>;

    /// REQUIRED. The number of moves of a non-terminal state, counted as
    /// [`for_each_move`](Self::for_each_move) yields them.
    fn move_count(&self, state: u64) -> u32;

    /// REQUIRED. An upper bound of [`move_count`](Self::move_count) over all
    /// states; the solver sizes its per-state counters by it.
    fn max_move_count(&self) -> u32;

    /// OPTIONAL. Bytes the game itself holds (its graph, its jump tables),
    /// counted with the solver's tables against the memory budget.
    /// Default: 0, for games whose rules need no tables.
    fn structure_bytes(&self) -> u64 {
        0
    }

    /// REQUIRED. Calls `visit` once for every move of the non-terminal
    /// `state`, with the state the move leads to.
    fn for_each_move(&self, state: u64, visit: impl FnMut(u64));

    /// REQUIRED. Calls `visit(pred, pred_moves)` for every non-terminal
    /// `pred` that has a move into `state` — once per such move — where
    /// `pred_moves == move_count(pred)`. Terminal states are never yielded.
    fn for_each_unmove(&self, state: u64, visit: impl FnMut(u64, u32));

    /// OPTIONAL. How many states the pass can decide at most (its
    /// frontiers hold only those): fewer than the states for a game whose
    /// states include ranks no position has. Fallback: every state.
    fn decidable_states(&self) -> u64 {
        self.state_count()
    }

    /// OPTIONAL. The depth of terminal `state`: 0 (the fallback) when the
    /// game is over there; more for a state the rules end early (a won
    /// position whose winning move is played for it, as a lion capture
    /// that is the mover's only choice). The pass decides such a state at
    /// the level of its depth, and the certificate checks that depth.
    fn terminal_depth(&self, _state: u64) -> u32 {
        0
    }

    /// OPTIONAL. Every terminal state with its outcome, each exactly once, in
    /// any order; drawn ones may be left out (a state never decided is a
    /// draw, and a terminal state is never a predecessor). Fallback: a
    /// parallel scan of all states with [`terminal`](Self::terminal).
    fn terminal_states(&self) -> Vec<(u64, Outcome)> {
        (0..self.state_count())
            .into_par_iter()
            .filter_map(|s| self.terminal(s).map(|o| (s, o)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::Outcome;

    #[test]
    fn flip_is_an_involution() {
        for o in [Outcome::Win, Outcome::Loss, Outcome::Draw] {
            assert_eq!(o.flip().flip(), o);
        }
        assert_eq!(Outcome::Win.flip(), Outcome::Loss);
    }
}
