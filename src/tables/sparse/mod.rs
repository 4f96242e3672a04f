//! The layered engine on sparse plies, for gravity boards: no dense rank
//! fits the positions of a ply (they are a thin, irregular subset of all
//! stone patterns), so each ply is the sorted set of its position keys.
//!
//! * **Mirror symmetry.** A position and its left–right mirror image have
//!   the same value and depth, so a ply holds only canonical keys (the
//!   smaller of a key and its mirror's, [`Gravity::canonical`]); counts
//!   weigh each stored position twice unless it is its own mirror image,
//!   and so equal the published counts of all positions.
//! * **Forward** (`forward.rs`): the canonical children of every position
//!   of ply `p` not ended by a line are ply `p + 1`, binned by their top
//!   bits and deduplicated bin group by bin group (no global sort), in
//!   rounds that fit the memory left. Positions containing a win are kept
//!   (and counted, as in Tromp's tables) but not expanded.
//! * **Backward** (`backward.rs`): each position's value from its
//!   children, found in the next ply through a bucket index on the key
//!   range (`key_index.rs`), in parallel over the ply.
//! * **Key words** ([`keys`]): `u32` keys for boards whose keys fit 32
//!   bits, else `u64`.
//!
//! The table is exact: a value and depth byte for every reachable
//! canonical position (value in the low 2 bits, codes of
//! [`crate::game::table`]; depth above, at most 63 as a board has at most 63
//! cells); depth as in [`crate::tables::layered`] (a draw fills the board).
//! Memory cannot be known before enumerating, so it is checked ply by ply,
//! before each allocation, against the budget, and after the first plies
//! the final size is projected and a board that will not fit is refused.
//!
//! Measured on 6×4 (94,910,577 positions) at 2 threads, this machine:
//! u64 keys, no symmetry, one global parallel sort a ply: 17.0 s (the sort
//! 39% of the time); mirror-canonical u32 keys, binned forward pass with
//! bitmaps, prefetched group lookups: 4.9–6.9 s (the VM's speed varies run
//! to run), about half of it the backward pass's lookups. 6×5 (2.8 × 10⁹
//! positions): 205 s, 12.5 GiB peak.

mod backward;
mod disjoint;
pub mod distributed;
mod forward;
pub(crate) mod key_index;
pub mod keys;
mod moves;
pub mod rules;

use crate::error::{Error, Remedy, Result, Setting};
use crate::game::Outcome;
use crate::memory::{Budget, Bytes};
use crate::rules::gravity::Gravity;
use crate::runtime::progress::{Progress, Silent};

use keys::{KeyWord, PlyKeys};
use moves::Moves;

/// The counts of one ply of a gravity board (all positions: a canonical
/// position and its distinct mirror image count twice).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// Positions the first player (X) wins under perfect play, terminal
    /// ones (X has completed a line) included.
    #[serde(default)]
    pub first_won: u64,
    /// Positions drawn under perfect play (full boards included).
    #[serde(default)]
    pub first_drawn: u64,
    /// Positions the first player loses under perfect play (O has
    /// completed a line, or will).
    #[serde(default)]
    pub first_lost: u64,
}

impl GravityCounts {
    /// The sum of two counts (the ply of `self`).
    pub fn plus(&self, o: &Self) -> Self {
        Self {
            ply: self.ply,
            positions: self.positions + o.positions,
            terminal: self.terminal + o.terminal,
            x_wins: self.x_wins + o.x_wins,
            o_wins: self.o_wins + o.o_wins,
            draws: self.draws + o.draws,
            first_won: self.first_won + o.first_won,
            first_drawn: self.first_drawn + o.first_drawn,
            first_lost: self.first_lost + o.first_lost,
        }
    }

    fn with_ply(self, ply: u32) -> Self {
        Self { ply, ..self }
    }
}

/// One ply: sorted canonical keys and, aligned with them, value/depth
/// bytes for the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GravityPly {
    keys: PlyKeys,
    values: Vec<u8>,
}

impl GravityPly {
    /// A ply from its sorted canonical keys and their value/depth bytes.
    /// Contract: same lengths, keys ascending.
    pub(crate) fn from_raw(keys: PlyKeys, values: Vec<u8>) -> Self {
        Self { keys, values }
    }

    /// The sorted canonical keys and their value/depth bytes.
    pub fn raw(&self) -> (&PlyKeys, &[u8]) {
        (&self.keys, &self.values)
    }
}

/// A solved gravity board.
#[derive(Clone, Debug)]
pub struct GravitySolution {
    /// The board.
    pub game: Gravity,
    /// The plies, from the empty board.
    pub plies: Vec<GravityPly>,
    /// Their counts.
    pub counts: Vec<GravityCounts>,
}

/// Value codes of a value/depth byte (low 2 bits).
pub(crate) const WIN: u8 = 0b01;
pub(crate) const LOSS: u8 = 0b10;
pub(crate) const DRAW: u8 = 0b11;
/// The forward pass's flag of a position ended by a line: its final
/// value/depth byte (a loss in 0) for the player to move.
pub(crate) const ENDED: u8 = LOSS;

/// The value and depth of a value/depth byte.
pub fn decode(v: u8) -> (Outcome, u32) {
    let outcome = match v & 0b11 {
        WIN => Outcome::Win,
        LOSS => Outcome::Loss,
        _ => Outcome::Draw,
    };
    (outcome, u32::from(v >> 2))
}

impl GravitySolution {
    /// The value and depth of the position with `key` at `ply` (either
    /// mirror image), if reachable.
    pub fn lookup(&self, ply: usize, key: u64) -> Option<(Outcome, u32)> {
        let p = self.plies.get(ply)?;
        let i = p.keys.position(self.game.canonical(key))?;
        Some(decode(p.values[i]))
    }

    /// Every position of every ply, mirror images included: (ply, key,
    /// value, depth), ply by ply.
    pub fn entries(&self) -> impl Iterator<Item = (usize, u64, Outcome, u32)> + '_ {
        self.plies.iter().enumerate().flat_map(move |(ply, p)| {
            p.keys.iter().zip(&p.values).flat_map(move |(key, &v)| {
                let (value, depth) = decode(v);
                let mirror = self.game.mirror(key);
                let images = if mirror == key { 1 } else { 2 };
                [key, mirror]
                    .into_iter()
                    .take(images)
                    .map(move |k| (ply, k, value, depth))
            })
        })
    }

    /// All positions of all plies.
    pub fn positions(&self) -> u64 {
        self.counts.iter().map(|c| c.positions).sum()
    }

    /// Canonical positions stored.
    pub fn stored(&self) -> u64 {
        self.plies.iter().map(|p| p.keys.len() as u64).sum()
    }

    /// A checksum of every ply's keys and value/depth bytes, for checking
    /// that runs at different thread counts build the same table.
    pub fn checksum(&self) -> u64 {
        let mut sum = crate::checksum::Checksum::default();
        for ply in &self.plies {
            let keys: Vec<u64> = ply.keys.iter().collect();
            sum.words(&keys).bytes(&ply.values);
        }
        sum.value()
    }
}

/// Positions a parallel chunk of a ply holds: enough chunks for every
/// thread to stay busy, none too small to be worth a task.
fn chunk_len(positions: usize) -> usize {
    positions
        .div_ceil(rayon::current_num_threads() * 8)
        .max(4096)
}

/// Plies enumerated before the projection is trusted to refuse a board:
/// the first lines (and so the shrinking share of the bound) appear at
/// ply 2k − 1, 7 for Connect Four.
const PLIES_BEFORE_PROJECTING: usize = 9;

/// Enumerates and solves every reachable position of `game`.
pub fn solve_gravity(game: &Gravity, budget: &Budget) -> Result<GravitySolution> {
    solve_gravity_reporting(game, budget, &Silent)
}

/// [`solve_gravity`], telling `progress` of each ply (stages "forward" and
/// "backward", one unit a ply). After the first few plies the final size is
/// projected ([`project_positions`]) and a board whose projection does not
/// fit the budget is refused at once, with the projection.
pub fn solve_gravity_reporting(
    game: &Gravity,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<GravitySolution> {
    solve_gravity_within(game, budget, progress, None)
}

/// `solve_gravity_reporting`, given up with [`Error::OutOfTime`] once a
/// ply ends past `deadline` (checked between plies).
pub fn solve_gravity_within(
    game: &Gravity,
    budget: &Budget,
    progress: &dyn Progress,
    deadline: Option<std::time::Instant>,
) -> Result<GravitySolution> {
    let clock = Clock(deadline);
    let (plies, counts) = if game.key_bits() <= u32::BITS {
        solve_with::<u32>(game, budget, progress, &clock)?
    } else {
        solve_with::<u64>(game, budget, progress, &clock)?
    };
    Ok(GravitySolution {
        game: game.clone(),
        plies,
        counts,
    })
}

/// The deadline of a solve, if any.
struct Clock(Option<std::time::Instant>);

impl Clock {
    /// Refuses to go on past the deadline.
    fn check(&self, game: &Gravity) -> Result<()> {
        match self.0 {
            Some(deadline) if std::time::Instant::now() > deadline => {
                let (cols, rows, _) = game.dimensions();
                Err(Error::OutOfTime(format!(
                    "the solve of {cols} columns × {rows} rows"
                )))
            }
            _ => Ok(()),
        }
    }
}

/// The solve in key word `K`.
fn solve_with<K: KeyWord>(
    game: &Gravity,
    budget: &Budget,
    progress: &dyn Progress,
    clock: &Clock,
) -> Result<(Vec<GravityPly>, Vec<GravityCounts>)> {
    let moves = Moves::new(game);
    let cells = game.cells();
    let per_position = std::mem::size_of::<K>() as u64 + 1;
    let mut keys: Vec<Vec<K>> = vec![vec![K::from_key(game.key(0, 0))]];
    let mut flags: Vec<Vec<u8>> = Vec::new();
    let mut held = per_position;
    progress.stage("forward", u64::from(cells));
    for ply in 0..cells {
        let parents = &keys[ply as usize];
        let mut ended = vec![0u8; parents.len()];
        let next = forward::next_ply(&moves, ply, parents, &mut ended, budget, held)?;
        held += next.len() as u64 * per_position;
        flags.push(ended);
        keys.push(next);
        progress.advance(1);
        clock.check(game)?;
        if keys.len() > PLIES_BEFORE_PROJECTING && ply + 1 < cells {
            refuse_if_projected_over(game, &keys, per_position, budget)?;
        }
    }
    let mut last = vec![0u8; keys[cells as usize].len()];
    forward::mark_ended(&moves, cells, &keys[cells as usize], &mut last);
    flags.push(last);

    // solved from the full board back to the empty one
    let mut counts = Vec::with_capacity(keys.len());
    progress.stage("backward", keys.len() as u64);
    let plies = backward::solve_backward(keys, flags, |ply, keys, values, next| {
        counts.push(backward::solve_ply(&moves, ply, keys, values, next));
        progress.advance(1);
        clock.check(game)
    })?;
    counts.reverse();
    Ok((plies, counts))
}

/// Refuses the board if the positions projected from the plies so far
/// (canonical keys, about half of all positions) will not fit the budget.
fn refuse_if_projected_over<K>(
    game: &Gravity,
    keys: &[Vec<K>],
    per_position: u64,
    budget: &Budget,
) -> Result<()> {
    let sizes: Vec<u64> = keys.iter().map(|k| 2 * k.len() as u64).collect();
    let projected = project_positions(game, &sizes);
    let bytes = Bytes((projected / 2).saturating_mul(per_position));
    if bytes.0 as f64 > budget.0 .0 as f64 * PROJECTION_MARGIN {
        let (cols, rows, _) = game.dimensions();
        let (low, high) = PROJECTION_SEEN;
        let least = Bytes((bytes.0 as f64 / high) as u64);
        let most = Bytes((bytes.0 as f64 / low) as u64);
        // said only where even the least is more than this process may
        // use (the message says how to raise the budget already)
        let beyond_this_machine = crate::memory::beyond_this_machine(least).unwrap_or_default();
        return Err(Error::ProjectedOverBudget {
            message: format!(
                "the gravity board of {cols} columns × {rows} rows is projected from its first {} plies to hold about {:.2e} positions, {bytes} for this engine at {per_position} bytes a position and its mirror image; projections have been {low}–{high} times the true count, so it needs between {least} and {most}, far over the memory budget of {}: raising {{remedy}} to {least} or more lets the engine try (it stops at the first ply that does not fit){}; {{remedy}} (decision diagrams) or `mpirun` over several machines reach further",
                sizes.len(),
                projected as f64,
                budget.0,
                beyond_this_machine
            ),
            remedies: vec![
                Remedy::give(Setting::MaxMemory),
                Remedy::set(Setting::Engine, "symbolic"),
            ],
        });
    }
    Ok(())
}

/// What [`project_gravity`] finds of a board before any solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GravityProjection {
    /// Plies enumerated (all of them on a small board: then exact).
    pub plies_counted: usize,
    /// Whether every ply was enumerated (the count is the true one).
    pub exact: bool,
    /// The positions projected (or counted), mirror images included.
    pub positions: u64,
    /// Bytes the explicit engine holds a position (and its mirror image).
    pub bytes_per_position: u64,
}

/// Enumerates the first plies of `game` (those the solve projects from,
/// ten, or every ply of a smaller board) within
/// `budget` and projects its positions ([`project_positions`]); nothing is
/// solved. The figure a solve refuses a board by, given ahead of it.
pub fn project_gravity(game: &Gravity, budget: &Budget) -> Result<GravityProjection> {
    if game.key_bits() <= u32::BITS {
        project_with::<u32>(game, budget)
    } else {
        project_with::<u64>(game, budget)
    }
}

fn project_with<K: KeyWord>(game: &Gravity, budget: &Budget) -> Result<GravityProjection> {
    let moves = Moves::new(game);
    let cells = game.cells();
    let per_position = std::mem::size_of::<K>() as u64 + 1;
    let mut keys: Vec<Vec<K>> = vec![vec![K::from_key(game.key(0, 0))]];
    let mut held = per_position;
    let plies = (PLIES_BEFORE_PROJECTING as u32).min(cells);
    for ply in 0..plies {
        let parents = &keys[ply as usize];
        let mut ended = vec![0u8; parents.len()];
        let next = forward::next_ply(&moves, ply, parents, &mut ended, budget, held)?;
        held += next.len() as u64 * per_position;
        keys.push(next);
    }
    let sizes: Vec<u64> = keys.iter().map(|k| 2 * k.len() as u64).collect();
    let exact = keys.len() as u32 == cells + 1;
    Ok(GravityProjection {
        plies_counted: keys.len(),
        exact,
        positions: if exact {
            // (canonical keys counted twice: an estimate's upper side)
            sizes.iter().sum()
        } else {
            project_positions(game, &sizes)
        },
        bytes_per_position: per_position,
    })
}

/// The least and the most that [`project_positions`] from the first ten
/// plies has been, as a multiple of the true count, on every board counted
/// completely (`results/connect/`, `results/symbolic/count-*.json`).
pub const PROJECTION_SEEN: (f64, f64) = (0.45, 14.4);

/// A projection of a gravity board's total positions from the sizes of its
/// first plies (at least five). Each ply can hold at most its stone
/// patterns (column heights summing to the ply, times the ways to colour
/// its stones); the projection takes the share of that bound the last ply
/// filled and lets it fall, ply by ply, as it last fell between plies of
/// the same parity (the share alternates with the side to move), the fall
/// steepening as it last steepened (wins stop play, faster and faster).
///
/// Checked against every board counted completely (`results/connect/`
/// and the symbolic engine's counts, `results/symbolic/`), from the first
/// ten plies: 0.86× (3×8) to 4.2× (5×6) on the boards the explicit engine
/// solves, 0.48× (3×9) to 14.4× (7×6; 6×6 7.75×) with the symbolic counts
/// of the larger ones ([`PROJECTION_SEEN`]). A crude extrapolation, then: it
/// refuses only boards far beyond the budget (`PROJECTION_MARGIN`), and
/// the check before each ply stops the rest.
pub fn project_positions(game: &Gravity, sizes: &[u64]) -> u64 {
    let (cols, rows, _) = game.dimensions();
    let cells = game.cells() as usize;
    let mut heights = vec![0f64; cells + 1];
    heights[0] = 1.0;
    for _ in 0..cols {
        let mut next = vec![0f64; cells + 1];
        for (sum, &ways) in heights.iter().enumerate() {
            for h in 0..=rows as usize {
                if sum + h <= cells {
                    next[sum + h] += ways;
                }
            }
        }
        heights = next;
    }
    let binomial =
        |n: usize, k: usize| (0..k).fold(1f64, |b, i| b * (n - i) as f64 / (i + 1) as f64);
    let bound = |p: usize| heights[p] * binomial(p, p.div_ceil(2));
    let n = sizes.len();
    let mut total: f64 = sizes.iter().map(|&s| s as f64).sum();
    if n < 5 || n > cells {
        return total.min(u64::MAX as f64) as u64;
    }
    let share = |p: usize| (sizes[p] as f64 / bound(p).max(1.0)).max(1e-300);
    // the log of the share's fall per ply, over two plies of one parity
    let fall = |p: usize| (share(p) / share(p - 2)).min(1.0).ln() / 2.0;
    let mut step = fall(n - 1);
    let steepening = (step - fall(n - 3)).min(0.0);
    let mut log_share = share(n - 1).ln();
    for p in n..=cells {
        step += steepening / 2.0;
        log_share += step;
        total += bound(p) * log_share.min(0.0).exp();
    }
    total.min(u64::MAX as f64) as u64
}

/// A board is refused early only if its projection exceeds the budget by
/// this factor: the worst overestimate seen from the first ten plies
/// ([`PROJECTION_SEEN`]), so that no board counted so far would have been
/// refused by it had its true size fitted; the budget checks before each
/// ply stop the rest.
pub const PROJECTION_MARGIN: f64 = PROJECTION_SEEN.1;
