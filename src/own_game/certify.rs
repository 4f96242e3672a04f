//! Checking a user game's table against its rules, so that an edited
//! table (checksum recomputed) is refused rather than answered.
//!
//! Two checks, each re-deriving the table from the rules:
//! * **the positions:** walking the stored positions from the start by the
//!   rules' moves reaches every one of them, ply by ply as the table's
//!   counts say, and no move leaves them (the moves check: every child of
//!   a position in play is stored);
//! * **the values:** every value and depth follows from the position's
//!   end or its children's, the certificate of retrograde analysis
//!   ([`crate::tablefile::certify::check_retrograde`]): a table that
//!   passes is the solution.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::enumerate::PlyCount;
use super::graph::OwnGraph;
use super::numbering::Numbering;
use super::{canonical, Key, Rules};
use crate::game::table::OutcomeTable;
use crate::game::RankedGame;
use crate::memory::Budget;
use crate::runtime::progress::Progress;
use crate::tablefile::certify::check_retrograde;

/// Frontier states a worker expands at a time.
const CHUNK: usize = 4096;

/// Checks `table` (on the positions of `index`) against `rules`, with its
/// counts by ply and of moves; the first thing that does not follow, in
/// words. The rules are asked once a position; their moves are kept for
/// the later passes while they fit `budget`.
pub fn certify<R: Rules>(
    rules: &R,
    index: &Numbering<R::Position>,
    table: &OutcomeTable,
    plies: &[PlyCount],
    moves: u64,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<(), String> {
    match index {
        Numbering::Keys(keys) => {
            if let Some(bad) = keys
                .keys()
                .par_iter()
                .position_first(|&k| canonical(rules, k, &mut Vec::new()) != k)
            {
                return Err(format!(
                    "position {} is stored, but it is not in canonical form",
                    keys.key(bad as u64).to_hex()
                ));
            }
        }
        Numbering::Ranks(reached) => {
            // a reached rank is a canonical position's (the walk below
            // checks that the start reaches each)
            if let Some(bad) = reached
                .par_iter()
                .find_first(|&rank| index.position(rules, rank).is_none())
            {
                return Err(format!(
                    "rank {bad} is marked reached, but it is no canonical position's"
                ));
            }
        }
    }
    let graph = OwnGraph::forward(rules, index, budget, progress).map_err(|e| e.to_string())?;
    if graph.edges() != moves {
        return Err(format!(
            "the table says {moves} moves, the rules give {}",
            graph.edges()
        ));
    }
    let walked = walk(rules, index, &graph)?;
    if walked != plies {
        return Err(format!(
            "the positions by ply are not those the rules reach from the start \
             (stored {} plies, {} positions; reached {} plies, {} positions)",
            plies.len(),
            plies.iter().map(|p| p.positions).sum::<u64>(),
            walked.len(),
            walked.iter().map(|p| p.positions).sum::<u64>()
        ));
    }
    let reached: u64 = walked.iter().map(|p| p.positions).sum();
    if reached != index.positions() {
        return Err(format!(
            "{} stored positions are not reached from the start",
            index.positions().abs_diff(reached)
        ));
    }
    progress.stage("values", 0);
    check_retrograde(&graph, table)
}

/// The positions of `index` reached from the start, counted by ply.
fn walk<R: Rules>(
    rules: &R,
    index: &Numbering<R::Position>,
    graph: &OwnGraph<'_, R>,
) -> Result<Vec<PlyCount>, String> {
    let start = canonical(rules, rules.start(), &mut Vec::new());
    let Some(start) = index.find(rules, &start).filter(|&s| index.reached(s)) else {
        return Err("the start position is not stored".into());
    };
    let seen: Vec<AtomicU64> = (0..index.states().div_ceil(64))
        .map(|_| AtomicU64::new(0))
        .collect();
    let mark =
        |s: u64| seen[(s / 64) as usize].fetch_or(1 << (s % 64), Relaxed) & (1 << (s % 64)) == 0;
    mark(start);
    let mut frontier = vec![start];
    let mut plies = Vec::new();
    while !frontier.is_empty() {
        if let Some(&s) = frontier.par_iter().find_first(|&&s| !index.reached(s)) {
            return Err(format!(
                "the rules reach position {s}, which the table does not mark reached"
            ));
        }
        let ended = frontier
            .par_iter()
            .filter(|&&s| graph.terminal(s).is_some())
            .filter(|&&s| {
                index
                    .position(rules, s)
                    .is_some_and(|p| rules.outcome(&p).is_some())
            })
            .count() as u64;
        plies.push(PlyCount {
            ply: plies.len() as u32,
            positions: frontier.len() as u64,
            ended,
        });
        frontier = frontier
            .par_chunks(CHUNK)
            .flat_map_iter(|chunk| {
                let mut next = Vec::new();
                for &s in chunk {
                    if graph.terminal(s).is_none() {
                        graph.for_each_move(s, |child| {
                            if mark(child) {
                                next.push(child);
                            }
                        });
                    }
                }
                next
            })
            .collect();
    }
    Ok(plies)
}
