//! The layered engine on sparse plies, for gravity boards: no dense rank
//! fits the positions of a ply (they are a thin, irregular subset of all
//! stone patterns), so each ply is the sorted set of its position keys.
//!
//! * **Forward**: the children of every non-terminal position of ply `p`,
//!   generated in parallel, sorted in parallel and deduplicated, are ply
//!   `p + 1`. Positions containing a win are kept (and counted, as in
//!   Tromp's tables) but not expanded.
//! * **Backward**: each position's value from its children, found by binary
//!   search in the next ply, in parallel over the ply.
//!
//! The table is exact: a value and a depth byte for every reachable
//! position; depth as in [`crate::solve::layered`] (a draw fills the board).
//! Memory cannot be known before enumerating, so it is checked ply by ply,
//! before each allocation, against the budget.

use rayon::prelude::*;

use crate::error::Result;
use crate::game::Outcome;
use crate::games::gravity::Gravity;
use crate::memory::{Budget, Bytes};

/// The counts of one ply of a gravity board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct GravityCounts {
    /// Stones on the board.
    pub ply: u32,
    /// Reachable positions (positions containing a win included).
    pub positions: u64,
    /// Positions that end the game.
    pub terminal: u64,
    /// Terminal positions X has won.
    pub x_wins: u64,
    /// Terminal positions O has won.
    pub o_wins: u64,
    /// Full boards without a line.
    pub draws: u64,
}

/// One ply: sorted keys and, aligned with them, value (low 2 bits, codes of
/// [`crate::table`]) and depth (the byte above) for the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GravityPly {
    keys: Vec<u64>,
    values: Vec<u16>,
}

/// A solved gravity board.
#[derive(Clone, Debug)]
pub struct GravitySolution {
    /// The plies, from the empty board.
    pub plies: Vec<GravityPly>,
    /// Their counts.
    pub counts: Vec<GravityCounts>,
}

const WIN: u16 = 0b01;
const LOSS: u16 = 0b10;
const DRAW: u16 = 0b11;

impl GravitySolution {
    /// The value and depth of the position with `key` at `ply`, if reachable.
    pub fn lookup(&self, ply: usize, key: u64) -> Option<(Outcome, u32)> {
        let p = self.plies.get(ply)?;
        let i = p.keys.binary_search(&key).ok()?;
        let v = p.values[i];
        let outcome = match v & 0b11 {
            WIN => Outcome::Win,
            LOSS => Outcome::Loss,
            _ => Outcome::Draw,
        };
        Some((outcome, u32::from(v >> 2)))
    }

    /// All positions of all plies.
    pub fn positions(&self) -> u64 {
        self.counts.iter().map(|c| c.positions).sum()
    }
}

/// Enumerates and solves every reachable position of `game`.
pub fn solve_gravity(game: &Gravity, budget: &Budget) -> Result<GravitySolution> {
    let cells = game.cells();
    let (cols, _, _) = game.dimensions();
    let mut plies_keys: Vec<Vec<u64>> = vec![vec![game.key(0, 0)]];
    let mut held = 8u64;
    for ply in 0..cells {
        let current = &plies_keys[ply as usize];
        let bound = current.len() as u64 * u64::from(cols) * 8;
        budget.check(
            &format!(
                "enumerating ply {} ({held} bytes held, up to {bound} more)",
                ply + 1
            ),
            Bytes(held + bound),
        )?;
        let x_moved = ply % 2 == 1;
        let mut next: Vec<u64> = current
            .par_iter()
            .flat_map_iter(|&key| {
                let (x, occupied) = game.unkey(key);
                let last = if x_moved { x } else { occupied & !x };
                let over = ply > 0 && game.has_line(last);
                (0..cols).filter_map(move |c| {
                    if over {
                        return None;
                    }
                    let cell = game.drop_cell(occupied, c)?;
                    let x2 = if x_moved { x } else { x | cell };
                    Some(game.key(x2, occupied | cell))
                })
            })
            .collect();
        next.par_sort_unstable();
        next.dedup();
        next.shrink_to_fit();
        held += next.len() as u64 * 10;
        plies_keys.push(next);
    }
    let mut plies: Vec<Option<GravityPly>> = vec![None; plies_keys.len()];
    let mut counts = vec![GravityCounts::default(); plies_keys.len()];
    for (ply, keys) in plies_keys.into_iter().enumerate().rev() {
        let next = plies.get(ply + 1).and_then(Option::as_ref);
        let (values, c) = solve_ply(game, ply as u32, &keys, next);
        counts[ply] = c;
        plies[ply] = Some(GravityPly { keys, values });
    }
    Ok(GravitySolution {
        plies: plies
            .into_iter()
            .map(|p| p.expect("every ply solved"))
            .collect(),
        counts,
    })
}

fn solve_ply(
    game: &Gravity,
    ply: u32,
    keys: &[u64],
    next: Option<&GravityPly>,
) -> (Vec<u16>, GravityCounts) {
    let cells = game.cells();
    let (cols, _, _) = game.dimensions();
    let x_moves = ply.is_multiple_of(2);
    let values: Vec<u16> = keys
        .par_iter()
        .map(|&key| {
            let (x, occupied) = game.unkey(key);
            let last = if x_moves { occupied & !x } else { x };
            if ply > 0 && game.has_line(last) {
                return LOSS;
            }
            if ply == cells {
                return DRAW;
            }
            let next = next.expect("a non-full board has a next ply");
            let (mut fastest_win, mut slowest_loss, mut can_draw) = (u16::MAX, 0u16, false);
            for c in 0..cols {
                let Some(cell) = game.drop_cell(occupied, c) else {
                    continue;
                };
                let child = game.key(if x_moves { x | cell } else { x }, occupied | cell);
                let i = next
                    .keys
                    .binary_search(&child)
                    .expect("children of a reachable position are reachable");
                let v = next.values[i];
                let depth = (v >> 2) + 1;
                match v & 0b11 {
                    LOSS => fastest_win = fastest_win.min(depth),
                    WIN => slowest_loss = slowest_loss.max(depth),
                    _ => can_draw = true,
                }
            }
            if fastest_win != u16::MAX {
                WIN | fastest_win << 2
            } else if can_draw {
                DRAW | ((cells - ply) as u16) << 2
            } else {
                LOSS | slowest_loss << 2
            }
        })
        .collect();
    let mut c = GravityCounts {
        ply,
        positions: keys.len() as u64,
        ..GravityCounts::default()
    };
    for (&key, &v) in keys.iter().zip(&values) {
        let terminal = v >> 2 == 0 && (v & 0b11 != WIN);
        if terminal {
            c.terminal += 1;
            let (x, occupied) = game.unkey(key);
            let last_x = !x_moves;
            let last = if last_x { x } else { occupied & !x };
            if ply > 0 && game.has_line(last) {
                if last_x {
                    c.x_wins += 1;
                } else {
                    c.o_wins += 1;
                }
            } else {
                c.draws += 1;
            }
        }
    }
    (values, c)
}
