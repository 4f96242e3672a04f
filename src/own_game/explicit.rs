//! A game given as its graph: positions numbered from 0 (the start), each
//! with its moves (the numbers of the positions they lead to) or its end.
//! What a front end hands the engine when the rules live elsewhere — the
//! Python package enumerates a game written in Python into one — so that
//! such a game is solved by the same engine as any other.

use super::Rules;
use crate::error::{Error, Result};
use crate::game::Outcome;

/// A game as a graph. Invariant: `offsets` has one entry more than there
/// are positions and never falls; every target is a position's number.
pub struct ExplicitGame {
    name: String,
    offsets: Vec<u64>,
    targets: Vec<u32>,
    ends: Vec<Option<Outcome>>,
}

impl ExplicitGame {
    /// The game of `ends.len()` positions whose position `p` ends as
    /// `ends[p]` (`None`: play goes on) and moves to
    /// `targets[offsets[p]..offsets[p + 1]]`. Refuses a graph that breaks
    /// the invariant.
    pub fn new(
        name: String,
        offsets: Vec<u64>,
        targets: Vec<u32>,
        ends: Vec<Option<Outcome>>,
    ) -> Result<Self> {
        let positions = ends.len();
        let bad = |why: String| Err(Error::InvalidInput(format!("the graph of {name}: {why}")));
        if positions == 0 || offsets.len() != positions + 1 || offsets[0] != 0 {
            return bad("it needs a start, and one offset a position and one more".into());
        }
        if offsets.windows(2).any(|w| w[0] > w[1]) || offsets[positions] != targets.len() as u64 {
            return bad("its offsets fall or do not end at its number of moves".into());
        }
        if let Some(t) = targets.iter().find(|&&t| t as usize >= positions) {
            return bad(format!(
                "a move leads to position {t}, past its {positions}"
            ));
        }
        Ok(Self {
            name,
            offsets,
            targets,
            ends,
        })
    }

    /// Number of positions.
    pub fn positions(&self) -> u64 {
        self.ends.len() as u64
    }

    /// The most moves a position has (moves listed twice counted twice).
    pub fn max_moves(&self) -> u64 {
        self.offsets
            .windows(2)
            .map(|w| w[1] - w[0])
            .max()
            .unwrap_or(0)
    }
}

impl Rules for ExplicitGame {
    type Position = u32;

    fn start(&self) -> u32 {
        0
    }

    fn moves(&self, position: &u32, children: &mut Vec<u32>) {
        let p = *position as usize;
        children.extend(&self.targets[self.offsets[p] as usize..self.offsets[p + 1] as usize]);
    }

    fn outcome(&self, position: &u32) -> Option<Outcome> {
        self.ends[*position as usize]
    }

    fn name(&self) -> String {
        self.name.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_graph_is_checked_and_solved() {
        // 0 → 1 → 2 (lost for its mover): 1 is won, 0 lost.
        let game = ExplicitGame::new(
            "chain".into(),
            vec![0, 1, 2, 2],
            vec![1, 2],
            vec![None, None, Some(Outcome::Loss)],
        )
        .unwrap();
        let solution = crate::own_game::solve::solve(&game).unwrap();
        assert_eq!(solution.lookup(&game, 0), Some((Outcome::Loss, Some(2))));
        let wrong = ExplicitGame::new("x".into(), vec![0, 1], vec![5], vec![None]);
        assert!(wrong.is_err());
    }
}
