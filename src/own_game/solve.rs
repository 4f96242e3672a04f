//! A user game solved: enumeration, index, graph and the retrograde pass,
//! and the answers read from the result.

use std::path::Path;

use serde::Serialize;

use super::enumerate::{enumerate, reach_ranks, PlyCount};
use super::graph::{OwnGraph, BYTES_PER_STATE};
use super::index::{KeyIndex, MAX_POSITIONS};
use super::numbering::Numbering;
use super::tiers::{per_state_bytes, solve_tiered, TierCount};
use super::{canonical, Key, Rules};
use crate::error::{Error, Result};
use crate::game::table::{retrograde_bytes_deciding, Counts, OutcomeTable};
use crate::game::Outcome;
use crate::memory::{Budget, Bytes};
use crate::position::answer::{keeps, MoveAnswer};
use crate::runtime::progress::{Progress, Silent};
use crate::tables::retrograde::solve_holding;

/// Every reachable position of a user game with its value and depth.
///
/// Invariant: `table` has a value and depth for every state of `index`;
/// the states the start reaches are the canonical forms of every position
/// reachable from the start.
pub struct Solution<P> {
    /// The game's name ([`Rules::name`]).
    pub name: String,
    /// The states: the positions sorted (a position's rank is its state),
    /// or the rules' ranks ([`Rules::RANKED`]).
    pub index: Numbering<P>,
    /// Value and depth of every state.
    pub table: OutcomeTable,
    /// Positions by the ply at which they are first reached.
    pub plies: Vec<PlyCount>,
    /// Distinct moves of the positions in play.
    pub moves: u64,
    /// The positions by tier, when the game was solved tier by tier
    /// ([`Rules::TIERED`]); empty otherwise (a table file does not keep
    /// them).
    pub tiers: Vec<TierCount>,
}

/// Solves `rules` with no memory limit and no progress.
pub fn solve<R: Rules>(rules: &R) -> Result<Solution<R::Position>> {
    solve_within(rules, &Budget::unlimited(), &Silent)
}

/// Solves every position reachable in `rules` on the current rayon pool,
/// checking `budget` at each stage before it allocates. Rules with a tier
/// (and no rank) are solved tier by tier, spilling to the directory for
/// temporary files ([`std::env::temp_dir`], `TMPDIR`); see
/// [`solve_spilling`].
pub fn solve_within<R: Rules>(
    rules: &R,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<Solution<R::Position>> {
    solve_spilling(rules, &std::env::temp_dir(), budget, progress)
}

/// [`solve_within`], a tiered game's finished tiers spilled to `spill` (a
/// directory): rules with [`Rules::TIERED`] and not [`Rules::RANKED`] are
/// solved tier by tier (the module `tiers`), others whole. The
/// solution is the same either way.
pub fn solve_spilling<R: Rules>(
    rules: &R,
    spill: &Path,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<Solution<R::Position>> {
    if R::TIERED && !R::RANKED {
        let tiered = solve_tiered(rules, spill, budget, progress)?;
        Ok(Solution {
            name: rules.name(),
            index: tiered.index,
            table: tiered.table,
            plies: tiered.plies,
            moves: tiered.moves,
            tiers: tiered.tiers,
        })
    } else {
        solve_whole(rules, budget, progress)
    }
}

/// Solves `rules` in one piece: every position in memory at once.
pub fn solve_whole<R: Rules>(
    rules: &R,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<Solution<R::Position>> {
    // what the ranks cost: each its end and moves (and with a reverse
    // graph its row's offset), its value, depth and counter; the frontiers
    // hold only positions reached, counted once they are known
    let ranks_bytes = |ranks: u64| {
        let graph = if R::UNMOVES { 3 } else { BYTES_PER_STATE };
        ranks
            .saturating_mul(graph)
            .saturating_add(retrograde_bytes_deciding(ranks, u32::from(u16::MAX), 0).0)
    };
    let too_many = |states: u64| {
        (states >= MAX_POSITIONS).then_some(Error::TooManyStates {
            states,
            limit: MAX_POSITIONS - 1,
        })
    };
    let (index, plies) = if R::RANKED {
        let ranks = rules.ranks();
        if let Some(refused) = too_many(ranks) {
            return Err(refused);
        }
        budget.check(
            &format!("solving {} ({ranks} ranks)", rules.name()),
            Bytes(ranks_bytes(ranks)),
        )?;
        let (reached, plies) = reach_ranks(rules, budget, progress)?;
        (Numbering::Ranks(reached), plies)
    } else {
        let later = per_state_bytes::<R::Position>();
        let reached = enumerate(rules, budget, progress, later)?;
        if let Some(refused) = too_many(reached.positions.len() as u64) {
            return Err(refused);
        }
        (
            Numbering::Keys(KeyIndex::new(reached.positions)),
            reached.plies,
        )
    };
    let held = Bytes(index.heap_bytes());
    let graph = OwnGraph::build(rules, &index, &budget.after(held), progress)?;
    let moves = graph.edges();
    let (table, _) = solve_holding(&graph, budget, progress, held)?;
    drop(graph);
    Ok(Solution {
        name: rules.name(),
        index,
        table,
        plies,
        moves,
        tiers: Vec::new(),
    })
}

/// The answer for one position of a user game, in the shape of the
/// built-in games' answers: its value and depth, and every move's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OwnAnswer {
    /// The game.
    pub game: String,
    /// The position's key in hexadecimal (`query --key` reads it back).
    pub key: String,
    /// The position as [`Rules::render`] draws it.
    pub position: String,
    /// The value for the player to move; `None` for a position the start
    /// does not reach.
    pub value: Option<Outcome>,
    /// Plies to the end under perfect play (0 once the game is over);
    /// `None` for a draw.
    pub depth: Option<u32>,
    /// Whether the game is over at this position.
    pub over: bool,
    /// Every move, in the order the rules list them.
    pub moves: Vec<MoveAnswer>,
}

impl<P: Key> Solution<P> {
    /// Number of positions the start reaches.
    pub fn positions(&self) -> u64 {
        self.index.positions()
    }

    /// Every position the start reaches with its state, in the order of
    /// the states.
    pub fn reached<'s, R: Rules<Position = P>>(
        &'s self,
        rules: &'s R,
    ) -> Box<dyn Iterator<Item = (u64, P)> + 's> {
        match &self.index {
            Numbering::Keys(index) => Box::new(
                index
                    .keys()
                    .iter()
                    .enumerate()
                    .map(|(state, &key)| (state as u64, key)),
            ),
            Numbering::Ranks(reached) => Box::new(reached.iter().map(move |rank| {
                let position = self.index.position(rules, rank);
                (rank, position.expect("a reached rank is a position's"))
            })),
        }
    }

    /// Win / loss / draw totals over the positions the start reaches.
    pub fn counts(&self) -> Counts {
        self.index.counts(&self.table)
    }

    /// The value and depth of `position` (any image of it), `None` if the
    /// start does not reach it.
    pub fn lookup<R: Rules<Position = P>>(
        &self,
        rules: &R,
        position: P,
    ) -> Option<(Outcome, Option<u32>)> {
        let state = self
            .index
            .find(rules, &canonical(rules, position, &mut Vec::new()))
            .filter(|&state| self.index.reached(state))?;
        Some((self.table.outcome(state), self.table.depth(state)))
    }

    /// The answer for `position`.
    pub fn answer<R: Rules<Position = P>>(&self, rules: &R, position: P) -> OwnAnswer {
        let found = self.lookup(rules, position);
        let over = rules.outcome(&position).is_some();
        let mut children = Vec::new();
        if !over {
            rules.moves(&position, &mut children);
        }
        let (value, depth) = match found {
            Some((value, depth)) => (Some(value), depth),
            None => (None, None),
        };
        OwnAnswer {
            game: rules.name(),
            key: position.to_hex(),
            position: rules.render(&position),
            value,
            depth,
            over,
            moves: self.answer_moves(rules, position, &children),
        }
    }

    /// Every move of `position` to `children` (its moves, in the order the
    /// rules list them) with its value and depth for the player who makes
    /// it, and whether it keeps the position's value (`best`). For a front
    /// end whose rules give a position's moves themselves (Python's games:
    /// a position asked may be another image of the one walked).
    pub fn answer_moves<R: Rules<Position = P>>(
        &self,
        rules: &R,
        position: P,
        children: &[P],
    ) -> Vec<MoveAnswer> {
        let (value, depth) = match self.lookup(rules, position) {
            Some((value, depth)) => (Some(value), depth),
            None => (None, None),
        };
        children
            .iter()
            .enumerate()
            .map(|(i, child)| {
                let (mine, plies) = match self.lookup(rules, *child) {
                    Some((theirs, d)) => (Some(theirs.flip()), d.map(|d| d + 1)),
                    None => (None, None),
                };
                MoveAnswer {
                    notation: rules.move_name(&position, i, child),
                    value: mine,
                    depth: plies,
                    score: None,
                    best: match (value, mine) {
                        (Some(v), Some(m)) => keeps(v, depth, m, plies),
                        _ => false,
                    },
                }
            })
            .collect()
    }
}

/// The position reached from the start by `moves` (names as
/// [`Rules::move_name`] gives them, separated by spaces or commas).
pub fn play_moves<R: Rules>(rules: &R, moves: &str) -> Result<R::Position> {
    let mut position = rules.start();
    let mut children = Vec::new();
    for (ply, word) in moves
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        if rules.outcome(&position).is_some() {
            return Err(Error::InvalidInput(format!(
                "move {} ({word}): the game is already over",
                ply + 1
            )));
        }
        children.clear();
        rules.moves(&position, &mut children);
        let chosen = children
            .iter()
            .enumerate()
            .find(|(i, child)| rules.move_name(&position, *i, child) == word);
        let Some((_, child)) = chosen else {
            let legal: Vec<String> = children
                .iter()
                .enumerate()
                .map(|(i, c)| rules.move_name(&position, i, c))
                .collect();
            return Err(Error::InvalidInput(format!(
                "move {} ({word}) is not legal here; the moves are: {}",
                ply + 1,
                legal.join(" ")
            )));
        };
        position = *child;
    }
    Ok(position)
}
