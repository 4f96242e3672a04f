//! A user game on its dense index, as the retrograde pass reads it: the
//! [`RankedGame`] of a [`Rules`].
//!
//! Per state it keeps one byte for how the game ends there (if it does)
//! and two for its number of distinct moves. Predecessors come from the
//! rules' unmoves when they give them ([`Rules::UNMOVES`]); otherwise from
//! a compact reverse graph built from the moves (CSR: an offset per state,
//! a `u32` per move).
//!
//! Moves are counted as distinct children after symmetry: two moves to the
//! same (canonical) position are one move, and such a child yields its
//! parent once. That keeps the pass's counters right whatever the rules
//! list twice.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::numbering::{Numbering, RankSet};
use super::{canonical, Key, Rules, MAX_END_DEPTH};
use crate::error::{Error, Result};
use crate::game::{Outcome, RankedGame};
use crate::memory::{huge_capacity, huge_vec, Budget, Bytes};
use crate::runtime::cache::prefetch;
use crate::runtime::progress::Progress;

/// How a state ends, one byte a state: a code in the low 3 bits, and for
/// a won or lost end the rules' [`Rules::end_depth`] in the 5 above.
mod end {
    /// The code of an end byte.
    pub fn code(end: u8) -> u8 {
        end & 7
    }
    /// The depth of an end byte.
    pub fn depth(end: u8) -> u32 {
        u32::from(end >> 3)
    }
    pub const PLAY: u8 = 0;
    pub const WIN: u8 = 1;
    pub const LOSS: u8 = 2;
    pub const DRAW: u8 = 3;
    /// A rank no position has, or one the start does not reach: a drawn
    /// end for the pass (claimed, never expanded), which no move of a
    /// position reached leads to and no answer reads.
    pub const NONE: u8 = 4;
    /// A position of a tier above the one being solved: decided there,
    /// handed to the pass as a seed; no moves here.
    pub const OUTSIDE: u8 = 5;
}

/// States handled by one task of a parallel pass.
const CHUNK: usize = 4096;

/// Where the predecessors come from.
enum Predecessors {
    /// The rules' unmoves, found in the index as they are asked.
    Unmoves,
    /// A reverse graph: the parents of state `s` are
    /// `sources[offsets[s]..offsets[s + 1]]`.
    Reverse {
        offsets: Vec<u64>,
        sources: Vec<u32>,
    },
}

/// A user game on its dense index.
pub struct OwnGraph<'a, R: Rules> {
    rules: &'a R,
    index: &'a Numbering<R::Position>,
    /// When a tier is solved: the states outside it (the children above);
    /// `None` for the whole game.
    outside: Option<&'a RankSet>,
    ends: Vec<u8>,
    moves: Vec<u16>,
    max_moves: u32,
    edges: u64,
    /// `None` for a graph built to check a table (moves only).
    predecessors: Option<Predecessors>,
    /// A checking graph's moves, kept from the scan when they fit: every
    /// later pass reads them instead of asking the rules again.
    moves_kept: Option<KeptMoves>,
}

/// The moves the scan kept, for reading state by state: chunk `c` holds
/// the children of states `c·CHUNK…` in order, state `s`'s from `start[s]`
/// within its chunk, `moves[s]` of them.
struct KeptMoves {
    chunks: Vec<Vec<u32>>,
    start: Vec<u32>,
}

/// Bytes per state of the graph without its reverse edges: its end, its
/// move count and its row's offset (and while the rows are laid out, an
/// in-degree, gone before the rows are filled).
pub const BYTES_PER_STATE: u64 = 1 + 2 + 8;

/// Bytes per move of the reverse graph.
pub const BYTES_PER_MOVE: u64 = 4;

impl<'a, R: Rules> OwnGraph<'a, R> {
    /// Builds the graph of the positions in `index`, checking the reverse
    /// graph's size against `budget` before it is allocated.
    pub fn build(
        rules: &'a R,
        index: &'a Numbering<R::Position>,
        budget: &Budget,
        progress: &dyn Progress,
    ) -> Result<Self> {
        Self::build_tier(rules, index, None, budget, progress)
    }

    /// [`build`](Self::build) for a tier: the states in `outside` (the
    /// children above, of higher tiers) are
    /// [`end::OUTSIDE`]: not terminal, without moves, for the pass to seed.
    pub fn build_tier(
        rules: &'a R,
        index: &'a Numbering<R::Position>,
        outside: Option<&'a RankSet>,
        budget: &Budget,
        progress: &dyn Progress,
    ) -> Result<Self> {
        // The moves are kept (4 bytes each) for the reverse graph while
        // they and the reverse graph fit the budget; past that they are
        // dropped and the reverse graph asks the rules again.
        let keep = if R::UNMOVES {
            0
        } else {
            moves_that_fit(index.states(), budget, 2 * BYTES_PER_MOVE)
        };
        let (mut graph, kept) = Self::scan(rules, index, outside, keep, progress)?;
        // the moves of every state (a rank the start does not reach has none)
        let edges = graph.edges;
        graph.predecessors = Some(if R::UNMOVES {
            Predecessors::Unmoves
        } else {
            budget.check(
                &format!("the reverse graph of {} ({edges} moves)", rules.name()),
                Bytes(edges.saturating_mul(BYTES_PER_MOVE)),
            )?;
            reverse_graph(&graph, edges, kept, progress)?
        });
        Ok(graph)
    }

    /// The graph's ends and moves without its predecessors: what checking
    /// a table needs, the rules asked once. The moves are kept (4 bytes
    /// each, and 4 a state) while they fit `budget`, so that the check's
    /// passes read them; else each pass asks the rules again. A child the
    /// index lacks is an error.
    pub fn forward(
        rules: &'a R,
        index: &'a Numbering<R::Position>,
        budget: &Budget,
        progress: &dyn Progress,
    ) -> Result<Self> {
        let keep = moves_that_fit(index.states(), budget, BYTES_PER_MOVE);
        let (mut graph, kept) = Self::scan(rules, index, None, keep, progress)?;
        graph.moves_kept = kept.map(|chunks| {
            let mut start = vec![0u32; graph.moves.len()];
            start
                .par_chunks_mut(CHUNK)
                .zip(graph.moves.par_chunks(CHUNK))
                .for_each(|(start, moves)| {
                    let mut at = 0u32;
                    for (s, &m) in start.iter_mut().zip(moves) {
                        *s = at;
                        at += u32::from(m);
                    }
                });
            KeptMoves { chunks, start }
        });
        Ok(graph)
    }

    /// Asks the rules for every state's end and moves; keeps the moves
    /// themselves (chunk by chunk, in state order) if there are at most
    /// `keep` of them.
    fn scan(
        rules: &'a R,
        index: &'a Numbering<R::Position>,
        outside: Option<&'a RankSet>,
        keep: u64,
        progress: &dyn Progress,
    ) -> Result<(Self, Option<Vec<Vec<u32>>>)> {
        let states = index.states() as usize;
        let mut ends = huge_vec(states, |_| end::PLAY);
        let mut moves = huge_vec(states, |_| 0u16);
        progress.stage("moves", states as u64);
        let failure = FirstError::default();
        let kept_so_far = AtomicU64::new(0);
        let kept: Vec<(Option<Vec<u32>>, u64)> = ends
            .par_chunks_mut(CHUNK)
            .zip(moves.par_chunks_mut(CHUNK))
            .enumerate()
            .map(|(c, (ends, moves))| {
                let mut scratch = Scratch::default();
                let mut children_here = Vec::new();
                let mut reached_moves = 0u64;
                for (i, (end, count)) in ends.iter_mut().zip(moves.iter_mut()).enumerate() {
                    let state = (c * CHUNK + i) as u64;
                    match children(rules, index, outside, state, &mut scratch) {
                        Ok(code) => *end = code,
                        Err(e) => {
                            failure.record(e);
                            return (None, 0);
                        }
                    }
                    match u16::try_from(scratch.indices.len()) {
                        Ok(n) => *count = n,
                        Err(_) => failure.record(too_many_moves(rules, index, state)),
                    }
                    if index.reached(state) {
                        reached_moves += scratch.indices.len() as u64;
                    }
                    children_here.extend_from_slice(&scratch.indices);
                }
                let total = kept_so_far.fetch_add(children_here.len() as u64, Relaxed);
                let kept = (total + children_here.len() as u64 <= keep).then_some(children_here);
                (kept, reached_moves)
            })
            .collect();
        let edges: u64 = kept.iter().map(|(_, moves)| moves).sum();
        let kept: Vec<Option<Vec<u32>>> = kept.into_iter().map(|(kept, _)| kept).collect();
        failure.into_result()?;
        progress.advance(states as u64);
        let kept: Option<Vec<Vec<u32>>> = if keep > 0 {
            kept.into_iter().collect()
        } else {
            None
        };
        let max_moves = moves.par_iter().map(|&m| u32::from(m)).max().unwrap_or(0);
        let graph = Self {
            rules,
            index,
            outside,
            ends,
            moves,
            max_moves,
            edges,
            predecessors: None,
            moves_kept: None,
        };
        Ok((graph, kept))
    }

    /// Distinct moves of the positions the start reaches that do not end
    /// the game.
    pub fn edges(&self) -> u64 {
        self.edges
    }
}

/// How many moves of `bytes_each` fit `budget` beside the graph's own
/// bytes for `states` states (and 4 a state more, for an index into them).
fn moves_that_fit(states: u64, budget: &Budget, bytes_each: u64) -> u64 {
    let fixed = states.saturating_mul(BYTES_PER_STATE + 4);
    budget.0 .0.saturating_sub(fixed) / bytes_each
}

/// Scratch buffers of a worker.
struct Scratch<P> {
    positions: Vec<P>,
    images: Vec<P>,
    found: Vec<Option<u64>>,
    indices: Vec<u32>,
}

impl<P> Default for Scratch<P> {
    fn default() -> Self {
        Self {
            positions: Vec::new(),
            images: Vec::new(),
            found: Vec::new(),
            indices: Vec::new(),
        }
    }
}

/// Fills `scratch.indices` with the distinct children of `state`, sorted;
/// returns how the game ends at `state` (an `end` code: [`end::PLAY`] if
/// it has children; [`end::OUTSIDE`], without children, if the state is
/// in `outside`). A position with no moves that the rules do not
/// end is lost.
fn children<R: Rules>(
    rules: &R,
    index: &Numbering<R::Position>,
    outside: Option<&RankSet>,
    state: u64,
    scratch: &mut Scratch<R::Position>,
) -> Result<u8> {
    scratch.indices.clear();
    if outside.is_some_and(|outside| outside.contains(state)) {
        return Ok(end::OUTSIDE);
    }
    // a rank the start does not reach is not asked of the rules: no
    // position reached moves to it, and no answer reads it
    if !index.reached(state) {
        return Ok(end::NONE);
    }
    let Some(position) = index.position_with(rules, state, &mut scratch.images) else {
        return Ok(end::NONE);
    };
    if let Some(outcome) = rules.outcome(&position) {
        let depth = rules.end_depth(&position);
        if depth > MAX_END_DEPTH {
            return Err(Error::InvalidInput(format!(
                "position {} of {} ends at depth {depth}, more than the {MAX_END_DEPTH} \
                 an end may have",
                position.to_hex(),
                rules.name()
            )));
        }
        return Ok(end_code(outcome) | (depth as u8) << 3);
    }
    scratch.positions.clear();
    rules.moves(&position, &mut scratch.positions);
    for i in 0..scratch.positions.len() {
        scratch.positions[i] = canonical(rules, scratch.positions[i], &mut scratch.images);
    }
    index.find_many(rules, &scratch.positions, &mut scratch.found);
    for (&child, &found) in scratch.positions.iter().zip(&scratch.found) {
        let Some(found) = found else {
            return Err(Error::InvalidInput(format!(
                "a move of position {} of {} leads to {}, {} \
                 (rules that give other moves than when the positions were enumerated?)",
                position.to_hex(),
                rules.name(),
                child.to_hex(),
                match index {
                    Numbering::Keys(_) => "which is not among its positions".to_string(),
                    Numbering::Ranks(_) => format!(
                        "whose rank {} is not below its {} ranks",
                        rules.rank(&child),
                        index.states()
                    ),
                }
            )));
        };
        scratch.indices.push(found as u32);
    }
    scratch.indices.sort_unstable();
    scratch.indices.dedup();
    Ok(if scratch.indices.is_empty() {
        end::LOSS
    } else {
        end::PLAY
    })
}

/// The refusal of `state`, which has more moves than a count holds.
fn too_many_moves<R: Rules>(rules: &R, index: &Numbering<R::Position>, state: u64) -> Error {
    let position = index
        .position(rules, state)
        .map_or(String::new(), |p| p.to_hex());
    Error::InvalidInput(format!(
        "position {position} of {} has more than 65,535 moves; the engine counts at most that many",
        rules.name()
    ))
}

fn end_code(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::Win => end::WIN,
        Outcome::Loss => end::LOSS,
        Outcome::Draw => end::DRAW,
    }
}

/// The first error a parallel pass met.
#[derive(Default)]
struct FirstError(std::sync::Mutex<Option<Error>>);

impl FirstError {
    fn record(&self, error: Error) {
        let mut slot = self.0.lock().unwrap_or_else(|p| p.into_inner());
        slot.get_or_insert(error);
    }

    fn into_result(self) -> Result<()> {
        match self.0.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

/// The reverse graph: counts each state's parents, lays the rows out, then
/// fills them (the order within a row may differ from run to run; the pass
/// does not depend on it). The moves come from `kept` (each chunk's
/// children in state order) when the scan kept them, else from the rules.
fn reverse_graph<R: Rules>(
    graph: &OwnGraph<'_, R>,
    edges: u64,
    kept: Option<Vec<Vec<u32>>>,
    progress: &dyn Progress,
) -> Result<Predecessors> {
    let moves = &graph.moves;
    let states = moves.len();
    let each_edge = |ahead: &(dyn Fn(u32) + Sync), visit: &(dyn Fn(u32, u32) + Sync)| match &kept {
        Some(chunks) => {
            for_each_kept_edge(moves, chunks, ahead, visit);
            Ok(())
        }
        None => for_each_edge(graph, visit),
    };
    let degrees: Vec<AtomicU32> = huge_vec(states, |_| AtomicU32::new(0));
    progress.stage("reverse graph", 2 * states as u64);
    each_edge(&|child| prefetch(&degrees[child as usize]), &|_, child| {
        degrees[child as usize].fetch_add(1, Relaxed);
    })?;
    progress.advance(states as u64);
    // Each state's cursor starts at the end of its row and is taken down
    // one slot a parent, so when the rows are full it is the row's start.
    let mut total = 0u64;
    let mut cursors: Vec<AtomicU64> = huge_capacity(states);
    cursors.extend(degrees.iter().map(|degree| {
        total += u64::from(degree.load(Relaxed));
        AtomicU64::new(total)
    }));
    debug_assert_eq!(total, edges);
    drop(degrees);
    let sources: Vec<AtomicU32> = huge_vec(edges as usize, |_| AtomicU32::new(0));
    each_edge(
        &|child| prefetch(&cursors[child as usize]),
        &|parent, child| {
            let slot = cursors[child as usize].fetch_sub(1, Relaxed) - 1;
            sources[slot as usize].store(parent, Relaxed);
        },
    )?;
    drop(kept);
    progress.advance(states as u64);
    let mut offsets: Vec<u64> = cursors.into_iter().map(AtomicU64::into_inner).collect();
    offsets.push(edges);
    let sources = sources.into_iter().map(AtomicU32::into_inner).collect();
    Ok(Predecessors::Reverse { offsets, sources })
}

/// Moves looked ahead of the one visited, for [`for_each_kept_edge`]'s
/// prefetches.
const LOOKAHEAD: usize = 16;

/// Calls `visit(parent, child)` for every move kept by the scan: chunk `c`
/// holds the children of states `c·CHUNK…`, each state's in a run as long
/// as its move count. `ahead(child)` is called [`LOOKAHEAD`] moves before
/// `child` is visited (to prefetch what the visit will touch: the visits
/// update counters scattered over every state).
fn for_each_kept_edge(
    moves: &[u16],
    chunks: &[Vec<u32>],
    ahead: &(dyn Fn(u32) + Sync),
    visit: &(dyn Fn(u32, u32) + Sync),
) {
    chunks.par_iter().enumerate().for_each(|(c, children)| {
        for &child in children.iter().take(LOOKAHEAD) {
            ahead(child);
        }
        let mut at = 0;
        for (i, &count) in moves[c * CHUNK..].iter().take(CHUNK).enumerate() {
            let parent = (c * CHUNK + i) as u32;
            for (j, &child) in children[at..at + count as usize].iter().enumerate() {
                if let Some(&later) = children.get(at + j + LOOKAHEAD) {
                    ahead(later);
                }
                visit(parent, child);
            }
            at += count as usize;
        }
    });
}

/// Calls `visit(parent, child)` for every distinct move of every state
/// that does not end the game, in parallel.
fn for_each_edge<R: Rules>(graph: &OwnGraph<'_, R>, visit: impl Fn(u32, u32) + Sync) -> Result<()> {
    let failure = FirstError::default();
    graph
        .ends
        .par_chunks(CHUNK)
        .enumerate()
        .for_each(|(c, ends)| {
            let mut scratch = Scratch::default();
            for (i, &end) in ends.iter().enumerate() {
                if end != end::PLAY {
                    continue;
                }
                let state = (c * CHUNK + i) as u64;
                if let Err(e) =
                    children(graph.rules, graph.index, graph.outside, state, &mut scratch)
                {
                    failure.record(e);
                    return;
                }
                for &child in &scratch.indices {
                    visit(state as u32, child);
                }
            }
        });
    failure.into_result()
}

impl<R: Rules> RankedGame for OwnGraph<'_, R> {
    fn state_count(&self) -> u64 {
        self.index.states()
    }

    fn terminal(&self, state: u64) -> Option<Outcome> {
        match end::code(self.ends[state as usize]) {
            end::WIN => Some(Outcome::Win),
            end::LOSS => Some(Outcome::Loss),
            end::DRAW | end::NONE => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// The positions reached (with keys every state, a tier's children
    /// above too; with ranks the reached ones).
    fn decidable_states(&self) -> u64 {
        self.index.positions()
    }

    fn terminal_depth(&self, state: u64) -> u32 {
        end::depth(self.ends[state as usize])
    }

    fn move_count(&self, state: u64) -> u32 {
        u32::from(self.moves[state as usize])
    }

    fn max_move_count(&self) -> u32 {
        self.max_moves
    }

    fn structure_bytes(&self) -> u64 {
        let reverse = match &self.predecessors {
            Some(Predecessors::Reverse { offsets, sources }) => {
                (offsets.len() * 8 + sources.len() * 4) as u64
            }
            _ => 0,
        };
        (self.ends.len() * 3) as u64 + reverse
    }

    fn for_each_move(&self, state: u64, mut visit: impl FnMut(u64)) {
        if let Some(kept) = &self.moves_kept {
            let s = state as usize;
            let from = kept.start[s] as usize;
            let children = &kept.chunks[s / CHUNK][from..from + usize::from(self.moves[s])];
            for &child in children {
                visit(u64::from(child));
            }
            return;
        }
        let mut scratch = Scratch::default();
        if children(self.rules, self.index, self.outside, state, &mut scratch).is_ok() {
            for &child in &scratch.indices {
                visit(u64::from(child));
            }
        }
    }

    fn for_each_unmove(&self, state: u64, mut visit: impl FnMut(u64, u32)) {
        match &self.predecessors {
            None => debug_assert!(false, "a graph built without predecessors is not solved"),
            Some(Predecessors::Reverse { offsets, sources }) => {
                let row = offsets[state as usize] as usize..offsets[state as usize + 1] as usize;
                for &parent in &sources[row] {
                    visit(u64::from(parent), u32::from(self.moves[parent as usize]));
                }
            }
            Some(Predecessors::Unmoves) => {
                self.parents(state, |parent| {
                    visit(parent, u32::from(self.moves[parent as usize]))
                });
            }
        }
    }

    /// The won and lost ends only: the drawn ones (and the ranks without a
    /// position, often most of a loose rank's) are draws unclaimed.
    fn terminal_states(&self) -> Vec<(u64, Outcome)> {
        self.ends
            .par_iter()
            .enumerate()
            .filter_map(|(s, &end)| match end::code(end) {
                end::WIN => Some((s as u64, Outcome::Win)),
                end::LOSS => Some((s as u64, Outcome::Loss)),
                _ => None,
            })
            .collect()
    }
}

impl<R: Rules> OwnGraph<'_, R> {
    /// Calls `visit` once for each distinct state in play that has a move
    /// to `state`: the unmoves of each of its images, made canonical. The
    /// buffers are the thread's own, kept from call to call (a call per
    /// decided state: allocating them each time cost more than the rules).
    fn parents(&self, state: u64, mut visit: impl FnMut(u64)) {
        with_scratch::<R::Position>(|scratch| {
            let ParentScratch {
                images,
                raw,
                canonical_images,
                states,
                found,
            } = scratch;
            let Some(position) = self
                .index
                .position_with(self.rules, state, canonical_images)
            else {
                return;
            };
            images.clear();
            images.push(position);
            self.rules.symmetries(&position, images);
            raw.clear();
            for image in images.iter() {
                self.rules.unmoves(image, raw);
            }
            for p in raw.iter_mut() {
                *p = canonical(self.rules, *p, canonical_images);
            }
            self.index.find_many(self.rules, raw, states);
            found.clear();
            found.extend(
                states
                    .iter()
                    .flatten()
                    .copied()
                    .filter(|&s| self.ends[s as usize] == end::PLAY),
            );
            found.sort_unstable();
            found.dedup();
            for &s in found.iter() {
                visit(s);
            }
        });
    }
}

/// A thread's buffers for [`OwnGraph::parents`].
struct ParentScratch<P> {
    images: Vec<P>,
    raw: Vec<P>,
    canonical_images: Vec<P>,
    states: Vec<Option<u64>>,
    found: Vec<u64>,
}

thread_local! {
    /// This thread's [`ParentScratch`], of whatever key type it last held.
    static SCRATCH: std::cell::RefCell<Option<Box<dyn std::any::Any>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `work` on this thread's [`ParentScratch`] of keys `P` (made the
/// first time, or when the thread last held another key type).
fn with_scratch<P: Key>(work: impl FnOnce(&mut ParentScratch<P>)) {
    let kept = SCRATCH.with(|cell| cell.borrow_mut().take());
    let mut scratch: Box<ParentScratch<P>> =
        kept.and_then(|any| any.downcast().ok()).unwrap_or_else(|| {
            Box::new(ParentScratch {
                images: Vec::new(),
                raw: Vec::new(),
                canonical_images: Vec::new(),
                states: Vec::new(),
                found: Vec::new(),
            })
        });
    work(&mut scratch);
    SCRATCH.with(|cell| *cell.borrow_mut() = Some(scratch));
}
