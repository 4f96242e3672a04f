//! Checking a table read from a file against the rules of its game, so that
//! an edited file (with its checksum recomputed) is refused rather than
//! answered: the checksum guards against damage, not against edits.
//!
//! For a retrograde table the local rules of retrograde analysis are a
//! certificate: a terminal state holds its terminal value at its terminal
//! depth (0 unless the game ends it early); a won
//! state's depth is one more than the smallest depth of its lost children;
//! a lost state has only won children and its depth is one more than the
//! largest of theirs; a drawn state has no lost child and some drawn child.
//! Depths strictly fall along every won/lost chain, so no cycle can fake a
//! decided value: a table that passes equals the solution.

use rayon::prelude::*;

use crate::game::table::OutcomeTable;
use crate::game::{Outcome, RankedGame};

/// States a worker checks at once.
const SHARD: u64 = 1 << 14;

/// Checks every state of `table` against `game` (module docs); the first
/// state that breaks a rule, in words.
pub fn check_retrograde<G: RankedGame>(game: &G, table: &OutcomeTable) -> Result<(), String> {
    let states = game.state_count();
    if table.states() != states {
        return Err(format!(
            "the table has {} states, the game {states}",
            table.states()
        ));
    }
    (0..states.div_ceil(SHARD))
        .into_par_iter()
        .try_for_each(|shard| {
            (shard * SHARD..((shard + 1) * SHARD).min(states))
                .try_for_each(|s| check_state(game, table, s))
        })
}

fn check_state<G: RankedGame>(game: &G, table: &OutcomeTable, s: u64) -> Result<(), String> {
    let value = table.outcome(s);
    let depth = table.depths()[s as usize];
    let bad = |why: &str| Err(format!("state {s} breaks the rules: {why}"));
    if let Some(terminal) = game.terminal(s) {
        if value != terminal || (value != Outcome::Draw && depth != game.terminal_depth(s)) {
            return bad("a terminal state with another value or depth");
        }
        return Ok(());
    }
    let (mut fastest_loss, mut slowest_win) = (u32::MAX, None::<u32>);
    let (mut wins, mut draws, mut moves) = (0u32, 0u32, 0u32);
    game.for_each_move(s, |child| {
        moves += 1;
        match table.outcome(child) {
            Outcome::Loss => fastest_loss = fastest_loss.min(table.depths()[child as usize]),
            Outcome::Win => {
                wins += 1;
                let d = table.depths()[child as usize];
                slowest_win = Some(slowest_win.map_or(d, |w| w.max(d)));
            }
            Outcome::Draw => draws += 1,
        }
    });
    let ok = match value {
        Outcome::Win => fastest_loss != u32::MAX && depth == fastest_loss.saturating_add(1),
        Outcome::Loss => wins == moves && slowest_win.is_some_and(|w| depth == w.saturating_add(1)),
        Outcome::Draw => fastest_loss == u32::MAX && draws > 0,
    };
    if ok {
        Ok(())
    } else {
        bad("its value or depth does not follow from its moves")
    }
}

/// The value and depth a board position must hold given its children's
/// entries (`None`: a child the table lacks): win fastest, loss slowest, a
/// draw at `empty` plies (a drawn game fills the board).
pub(crate) fn from_children(
    children: impl Iterator<Item = Option<(Outcome, u32)>>,
    empty: u32,
) -> Result<(Outcome, u32), &'static str> {
    let (mut fastest_win, mut slowest_loss, mut draw) = (u32::MAX, 0u32, false);
    for child in children {
        match child.ok_or("a child of a board in play is missing")? {
            (Outcome::Loss, d) => fastest_win = fastest_win.min(d.saturating_add(1)),
            (Outcome::Win, d) => slowest_loss = slowest_loss.max(d.saturating_add(1)),
            (Outcome::Draw, _) => draw = true,
        }
    }
    Ok(if fastest_win != u32::MAX {
        (Outcome::Win, fastest_win)
    } else if draw {
        (Outcome::Draw, empty)
    } else {
        (Outcome::Loss, slowest_loss)
    })
}

/// Checks a solved m,n,k table against the rules of `game`: the empty
/// board is reachable; a reachable board is won by its last mover exactly
/// when they hold a line (value loss, depth 0), drawn at depth 0 when full,
/// and otherwise has every child reachable and the value and depth of its
/// children's minimax; each ply's count of positions is its reachable
/// boards.
pub fn check_mnk(
    game: &crate::rules::mnk::Mnk,
    solution: &crate::tables::layered::MnkSolution,
) -> Result<(), String> {
    if solution.lookup(0, 0).is_none() {
        return Err("the empty board is not reachable".into());
    }
    let cells = game.cells();
    for (ply, table) in solution.plies.iter().enumerate() {
        let shape = &table.shape;
        let reachable = (0..shape.size.div_ceil(SHARD))
            .into_par_iter()
            .map(|shard| {
                let mut found = 0u64;
                for rank in shard * SHARD..((shard + 1) * SHARD).min(shape.size) {
                    let Some(entry) = table.entry(rank) else {
                        continue;
                    };
                    found += 1;
                    let (x, o) = shape.unrank(rank);
                    let x_moves = x.count_ones() == o.count_ones();
                    let (last, other) = if x_moves { (o, x) } else { (x, o) };
                    let bad = |why: &str| format!("board {x:b}/{o:b} of ply {ply}: {why}");
                    let want = if game.has_line(other) {
                        return Err(bad("the player to move holds a line"));
                    } else if game.has_line(last) {
                        (Outcome::Loss, 0)
                    } else if (x | o).count_ones() == cells {
                        (Outcome::Draw, 0)
                    } else {
                        let free = (0..cells).filter(|c| (x | o) & (1 << c) == 0);
                        let children = free.map(|c| {
                            if x_moves {
                                solution.lookup(x | 1 << c, o)
                            } else {
                                solution.lookup(x, o | 1 << c)
                            }
                        });
                        from_children(children, cells - ply as u32).map_err(bad)?
                    };
                    if entry != want {
                        return Err(bad("its value or depth does not follow from the rules"));
                    }
                }
                Ok(found)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        let counted = solution.counts.get(ply).map_or(0, |c| c.positions);
        if reachable != counted {
            return Err(format!(
                "ply {ply} holds {reachable} reachable boards, its count says {counted}"
            ));
        }
    }
    Ok(())
}
