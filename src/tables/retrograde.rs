//! Parallel, level-synchronous retrograde analysis.
//!
//! Level 0 is every terminal state (of depth 0: a game may end a state
//! deeper, [`RankedGame::terminal_depth`], which then joins as a seed). The frontier of level `d` (the states
//! decided at depth `d`) is split into chunks across rayon workers. A worker
//! walks the predecessors of each of its frontier states:
//!
//! * if the frontier state is lost for its mover, every undecided
//!   predecessor can move into that loss: it is claimed as a **win** at `d+1`;
//! * if the frontier state is won for its mover, the predecessor's counter of
//!   losing moves is bumped; when it reaches the predecessor's move count,
//!   every move loses and the predecessor is claimed as a **loss** at `d+1`.
//!
//! A claim is an atomic `fetch_or` on the 2-bit value that returns the old
//! bits, so each state is decided exactly once, by one worker, which appends
//! it to its own next-frontier buffer. States never decided are **draws**.
//!
//! A solve may also be handed **seeds**: states decided before the pass, each
//! with its value and depth (a tier's positions solved earlier, outside the
//! states being solved, that the states move to). A seed is claimed before
//! level 0 and joins the frontier of the level of its depth, so its parents
//! learn of it exactly when they would have had it been solved here.
//!
//! Contract of the result: `depth` is the level at which the state was
//! decided, which is minimal for the winner (the first losing child found is
//! the shallowest) and maximal for the loser (the counter runs out at the
//! deepest child). The table is bit-identical for any number of threads: the
//! set of states decided at each level, their values and depths do not depend
//! on which worker decided them.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use crate::error::{Error, Result};
#[cfg(test)]
use crate::game::table::retrograde_bytes;
use crate::game::table::{code, counter_bytes, retrograde_bytes_deciding, OutcomeTable};
use crate::game::{Outcome, RankedGame};
use crate::memory::{Budget, Bytes};
use crate::runtime::progress::{Progress, Silent};
use crate::tables::atomic::{into_plain_depths, zeroed_depths, ClaimTable, MoveCounter};

/// Largest state count: frontier entries are `u32`.
pub const MAX_STATES: u64 = u32::MAX as u64 + 1;

/// Frontiers smaller than this are expanded on the calling thread: handing
/// them to the pool costs more than it saves.
const SEQUENTIAL_BELOW: usize = 4096;

/// Smallest chunk of a frontier handed to one worker.
const MIN_CHUNK: usize = 1024;

/// What a solve did besides filling the table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Number of non-empty levels (the deepest decided depth + 1).
    pub levels: u32,
    /// States decided as won or lost (the rest are draws).
    pub decided: u64,
}

/// Solves `game` with no memory limit; see [`solve_within`].
pub fn solve<G: RankedGame>(game: &G) -> Result<OutcomeTable> {
    solve_within(game, &Budget::unlimited()).map(|(table, _)| table)
}

/// Solves every state of `game` on the current rayon pool, after checking
/// that the estimate of [`retrograde_bytes`](crate::game::table::retrograde_bytes) fits `budget`.
pub fn solve_within<G: RankedGame>(
    game: &G,
    budget: &Budget,
) -> Result<(OutcomeTable, SolveStats)> {
    solve_reporting(game, budget, &Silent)
}

/// [`solve_within`], telling `progress` of every level: the stage
/// "levels" counts decided states out of all states (draws are never
/// decided, so it may end short of the total).
pub fn solve_reporting<G: RankedGame>(
    game: &G,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<(OutcomeTable, SolveStats)> {
    solve_holding(game, budget, progress, Bytes(0))
}

/// A state decided before the pass: lost or won for its mover (a drawn
/// state needs no seed: it is never decided) at `depth`. Contract: a seed
/// has no moves and no other seed has its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seed {
    /// The state.
    pub state: u64,
    /// Its value for its mover: [`Outcome::Win`] or [`Outcome::Loss`].
    pub outcome: Outcome,
    /// Its depth.
    pub depth: u32,
}

/// [`solve_reporting`] for a caller that holds `held` bytes of its own
/// during the solve: the estimate checked against `budget` is the solver's
/// tables, the game's structures and `held`.
pub fn solve_holding<G: RankedGame>(
    game: &G,
    budget: &Budget,
    progress: &dyn Progress,
    held: Bytes,
) -> Result<(OutcomeTable, SolveStats)> {
    solve_seeded(game, &[], budget, progress, held)
}

/// [`solve_holding`] with `seeds` decided before the pass (see the module
/// docs): a seeded state keeps the seed's value and depth.
pub fn solve_seeded<G: RankedGame>(
    game: &G,
    seeds: &[Seed],
    budget: &Budget,
    progress: &dyn Progress,
    held: Bytes,
) -> Result<(OutcomeTable, SolveStats)> {
    let states = game.state_count();
    let max_moves = game.max_move_count();
    let needed = retrograde_bytes_deciding(states, max_moves, game.decidable_states())
        .0
        .saturating_add(game.structure_bytes())
        .saturating_add(held.0);
    budget.check(&format!("solving {states} states"), Bytes(needed))?;
    if states > MAX_STATES {
        return Err(Error::TooManyStates {
            states,
            limit: MAX_STATES,
        });
    }
    Ok(match counter_bytes(max_moves) {
        1 => run::<G, AtomicU8>(game, seeds, progress),
        2 => run::<G, AtomicU16>(game, seeds, progress),
        _ => run::<G, AtomicU32>(game, seeds, progress),
    })
}

/// The shared state of one solve.
struct Solve<'a, G, C> {
    game: &'a G,
    claims: ClaimTable,
    counters: Vec<C>,
    depths: Vec<AtomicU32>,
}

fn run<G: RankedGame, C: MoveCounter>(
    game: &G,
    seeds: &[Seed],
    progress: &dyn Progress,
) -> (OutcomeTable, SolveStats) {
    let states = game.state_count() as usize;
    let solve = Solve {
        game,
        claims: ClaimTable::new(states),
        counters: C::zeroed(states),
        depths: zeroed_depths(states),
    };
    let mut stats = SolveStats::default();
    progress.stage("levels", states as u64);
    // terminal states decided deeper than 0 join the seeds; the seeds by
    // depth, deepest first, so each level pops its own
    let (level0, mut later) = solve.seed_terminals();
    later.extend_from_slice(seeds);
    let mut seeds = solve.claim_seeds(&later);
    let mut frontier = vec![level0];
    let mut level = 0u32;
    loop {
        let mut seeded = Vec::new();
        while let Some(seed) = seeds.pop_if(|seed| seed.depth == level) {
            seeded.push(seed.state as u32);
        }
        if !seeded.is_empty() {
            frontier.push(seeded);
        }
        let size: usize = frontier.iter().map(Vec::len).sum();
        if size == 0 && seeds.is_empty() {
            break;
        }
        stats.decided += size as u64;
        progress.advance(size as u64);
        if size > 0 {
            stats.levels = level + 1;
        }
        level += 1;
        frontier = solve.expand(&frontier, size, level);
    }
    let Solve { claims, depths, .. } = solve;
    let table = OutcomeTable::from_parts(claims.into_words_with_draws(), into_plain_depths(depths));
    (table, stats)
}

impl<G: RankedGame, C: MoveCounter> Solve<'_, G, C> {
    /// Claims every seed with its value and depth; returns the seeds sorted
    /// deepest first.
    fn claim_seeds(&self, seeds: &[Seed]) -> Vec<Seed> {
        let mut sorted = seeds.to_vec();
        sorted.par_sort_unstable_by_key(|seed| (std::cmp::Reverse(seed.depth), seed.state));
        sorted.par_iter().for_each(|seed| {
            let fresh = self.claims.try_claim(seed.state, code::of(seed.outcome));
            debug_assert!(fresh, "seed {} listed twice", seed.state);
            self.depths[seed.state as usize].store(seed.depth, Relaxed);
        });
        sorted.retain(|seed| seed.outcome != Outcome::Draw);
        sorted
    }

    /// Level 0: claims every terminal state of depth 0; returns the won
    /// and lost ones, and the terminal states of other depths as seeds
    /// (not claimed yet). Terminal draws are marked as draws and never
    /// expanded.
    fn seed_terminals(&self) -> (Vec<u32>, Vec<Seed>) {
        let mut level0 = Vec::new();
        let mut later = Vec::new();
        for (state, outcome) in self.game.terminal_states() {
            let depth = self.game.terminal_depth(state);
            if depth > 0 && outcome != Outcome::Draw {
                later.push(Seed {
                    state,
                    outcome,
                    depth,
                });
                continue;
            }
            let fresh = self.claims.try_claim(state, code::of(outcome));
            debug_assert!(fresh, "terminal state {state} listed twice");
            if fresh && outcome != Outcome::Draw {
                level0.push(state as u32);
            }
        }
        (level0, later)
    }

    /// Decides the states of level `depth` from the frontier of level
    /// `depth - 1` (`size` states in all); returns the new frontier in parts.
    fn expand(&self, frontier: &[Vec<u32>], size: usize, depth: u32) -> Vec<Vec<u32>> {
        let threads = rayon::current_num_threads();
        if threads == 1 || size < SEQUENTIAL_BELOW {
            let mut next = Vec::new();
            for part in frontier {
                self.expand_chunk(part, depth, &mut next);
            }
            return vec![next];
        }
        let chunk = (size / (threads * 8)).max(MIN_CHUNK);
        frontier
            .par_iter()
            .flat_map(|part| part.par_chunks(chunk))
            .map(|states| {
                let mut next = Vec::new();
                self.expand_chunk(states, depth, &mut next);
                next
            })
            .filter(|next| !next.is_empty())
            .collect()
    }

    /// The kernel: walks the predecessors of `states` (all decided at
    /// `depth - 1`) and appends those it decides at `depth` to `next`.
    #[inline]
    fn expand_chunk(&self, states: &[u32], depth: u32, next: &mut Vec<u32>) {
        for &state in states {
            let state = u64::from(state);
            if self.claims.get(state) == code::LOSS {
                self.game.for_each_unmove(state, |pred, _| {
                    if self.claims.try_claim(pred, code::WIN) {
                        self.depths[pred as usize].store(depth, Relaxed);
                        next.push(pred as u32);
                    }
                });
            } else {
                self.game.for_each_unmove(state, |pred, pred_moves| {
                    if self.claims.is_decided(pred) {
                        return;
                    }
                    if self.counters[pred as usize].bump() == pred_moves {
                        let fresh = self.claims.try_claim(pred, code::LOSS);
                        debug_assert!(fresh, "counter of {pred} ran out twice");
                        self.depths[pred as usize].store(depth, Relaxed);
                        next.push(pred as u32);
                    }
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_count_every_table() {
        assert_eq!(retrograde_bytes(64, 3), Bytes(64 * 13 + 16));
        assert_eq!(retrograde_bytes(64, 300), Bytes(64 * 14 + 16));
        assert_eq!(retrograde_bytes(64, 70_000), Bytes(64 * 16 + 16));
    }
}
