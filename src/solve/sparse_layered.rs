//! The layered engine on sparse plies, for gravity boards: no dense rank
//! fits the positions of a ply (they are a thin, irregular subset of all
//! stone patterns), so each ply is the sorted set of its position keys.
//!
//! * **Forward**: the children of every non-terminal position of ply `p`,
//!   generated in parallel, sorted in parallel and deduplicated, are ply
//!   `p + 1`. Positions containing a win are kept (and counted, as in
//!   Tromp's tables) but not expanded.
//! * **Backward**: each position's value from its children, found in the
//!   next ply through a bucket index on the key range (one read of the
//!   index, then a binary search inside a bucket of about eight keys), in
//!   parallel over the ply. A binary search over the whole next ply was
//!   half of the solve: with the index, 6×4 went from 24.6 s to 15.3 s and
//!   5×5 from 16.1 s to 9.6 s at 2 threads.
//!
//! The table is exact: a value and a depth byte for every reachable
//! position; depth as in [`crate::solve::layered`] (a draw fills the board).
//! Memory cannot be known before enumerating, so it is checked ply by ply,
//! before each allocation, against the budget.

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::game::Outcome;
use crate::games::gravity::Gravity;
use crate::memory::{Budget, Bytes};
use crate::solve::progress::{Progress, Silent};

/// The counts of one ply of a gravity board.
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
    /// Sets the first player's won / drawn / lost counts from the value
    /// words of a ply's positions (value for the player to move: X on even
    /// plies).
    pub(crate) fn set_outcomes(&mut self, values: &[u16]) {
        let (mut won, mut drawn, mut lost) = (0, 0, 0);
        for &v in values {
            match v & 0b11 {
                DRAW => drawn += 1,
                WIN => won += 1,
                _ => lost += 1,
            }
        }
        if self.ply % 2 == 1 {
            (won, lost) = (lost, won);
        }
        (self.first_won, self.first_drawn, self.first_lost) = (won, drawn, lost);
    }
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

impl GravityPly {
    /// A ply from its sorted keys and their value/depth words (as
    /// [`Self::raw`] gives them). Contract: same lengths, keys ascending.
    pub(crate) fn from_raw(keys: Vec<u64>, values: Vec<u16>) -> Self {
        Self { keys, values }
    }

    /// The sorted keys and their value/depth words.
    pub(crate) fn raw(&self) -> (&[u64], &[u16]) {
        (&self.keys, &self.values)
    }
}

/// The value and depth of a value/depth word.
fn decode(v: u16) -> (Outcome, u32) {
    let outcome = match v & 0b11 {
        WIN => Outcome::Win,
        LOSS => Outcome::Loss,
        _ => Outcome::Draw,
    };
    (outcome, u32::from(v >> 2))
}

impl GravitySolution {
    /// The value and depth of the position with `key` at `ply`, if reachable.
    pub fn lookup(&self, ply: usize, key: u64) -> Option<(Outcome, u32)> {
        let p = self.plies.get(ply)?;
        let i = p.keys.binary_search(&key).ok()?;
        Some(decode(p.values[i]))
    }

    /// Every position of every ply: (ply, key, value, depth), ply by ply in
    /// key order.
    pub fn entries(&self) -> impl Iterator<Item = (usize, u64, Outcome, u32)> + '_ {
        self.plies.iter().enumerate().flat_map(|(ply, p)| {
            p.keys
                .iter()
                .zip(&p.values)
                .map(move |(&key, &v)| (ply, key, decode(v).0, decode(v).1))
        })
    }

    /// All positions of all plies.
    pub fn positions(&self) -> u64 {
        self.counts.iter().map(|c| c.positions).sum()
    }

    /// A checksum of every ply's keys and value/depth words, for checking
    /// that runs at different thread counts build the same table.
    pub fn checksum(&self) -> u64 {
        let mut sum = crate::checksum::Checksum::default();
        for ply in &self.plies {
            let words: Vec<u64> = ply.values.iter().map(|&v| u64::from(v)).collect();
            sum.words(&ply.keys).words(&words);
        }
        sum.value()
    }
}

/// Bytes the engine holds a position: its key and its value/depth word.
const BYTES_PER_POSITION: u64 = 10;

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
    let cells = game.cells();
    let (cols, _, _) = game.dimensions();
    let mut plies_keys: Vec<Vec<u64>> = vec![vec![game.key(0, 0)]];
    let mut held = BYTES_PER_POSITION;
    progress.stage("forward", u64::from(cells));
    for ply in 0..cells {
        let current = &plies_keys[ply as usize];
        let bound = current.len() as u64 * u64::from(cols) * 8;
        budget.check(
            &format!(
                "enumerating ply {} ({} held, up to {} more)",
                ply + 1,
                Bytes(held),
                Bytes(bound)
            ),
            Bytes(held.saturating_add(bound)),
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
        held += next.len() as u64 * BYTES_PER_POSITION;
        plies_keys.push(next);
        progress.advance(1);
        if plies_keys.len() > PLIES_BEFORE_PROJECTING && (ply as usize) < cells as usize - 1 {
            let sizes: Vec<u64> = plies_keys.iter().map(|k| k.len() as u64).collect();
            let projected = project_positions(game, &sizes);
            let bytes = Bytes(projected.saturating_mul(BYTES_PER_POSITION));
            if bytes > budget.0 {
                let (cols, rows, _) = game.dimensions();
                return Err(Error::InvalidInput(format!(
                    "the gravity board of {cols} columns × {rows} rows is projected from its first {} plies to hold about {:.2e} positions, {bytes} for this engine at {BYTES_PER_POSITION} bytes a position — over the memory budget of {}{}",
                    sizes.len(),
                    projected as f64,
                    budget.0,
                    crate::memory::beyond_machine_hint(bytes)
                )));
            }
        }
    }
    let mut plies: Vec<Option<GravityPly>> = vec![None; plies_keys.len()];
    let mut counts = vec![GravityCounts::default(); plies_keys.len()];
    progress.stage("backward", plies_keys.len() as u64);
    for (ply, keys) in plies_keys.into_iter().enumerate().rev() {
        let next = plies.get(ply + 1).and_then(Option::as_ref);
        let (values, c) = solve_ply(game, ply as u32, &keys, next);
        counts[ply] = c;
        plies[ply] = Some(GravityPly { keys, values });
        progress.advance(1);
    }
    Ok(GravitySolution {
        plies: plies
            .into_iter()
            .map(|p| p.expect("every ply solved"))
            .collect(),
        counts,
    })
}

/// A projection of a gravity board's total positions from the sizes of its
/// first plies (at least two). Each ply can hold at most its stone patterns
/// (column heights summing to the ply, times the ways to colour its
/// stones); the projection takes the share of that bound the last ply
/// filled, shrinking each later ply by the factor by which the share last
/// shrank (wins stop play, so the share falls once lines appear).
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
    let share = |p: usize| sizes[p] as f64 / bound(p).max(1.0);
    let last = share(n - 1);
    let shrink = (last / share(n - 2).max(1e-300)).min(1.0);
    let mut total: f64 = sizes.iter().map(|&s| s as f64).sum();
    let mut fraction = last;
    for p in n..=cells {
        fraction *= shrink;
        total += bound(p) * fraction;
    }
    total.min(u64::MAX as f64) as u64
}

/// Where a key lies in a sorted ply, found without a binary search over
/// the whole ply: the key range is cut into equal buckets (about one for
/// every [`KEYS_PER_BUCKET`] keys, so a bucket's keys share a cache line or
/// two) and `starts` holds each bucket's first index; a lookup is one read
/// of `starts` and a binary search inside one bucket. Measured on 6×4 (the
/// backward pass was half the solve, nearly all of it in the binary search
/// over the next ply): see the module docs. The buckets cut the key range,
/// not the keys, so they are uneven where keys cluster; a lookup is still
/// a binary search, only over fewer keys.
struct KeyIndex {
    /// The smallest key.
    min: u64,
    /// A key's bucket is `(key − min) >> shift`.
    shift: u32,
    /// Bucket `b`'s keys are `keys[starts[b] .. starts[b + 1]]`.
    starts: Vec<usize>,
}

/// Keys a bucket holds on average (the index costs 8 bytes a bucket).
const KEYS_PER_BUCKET: usize = 8;

impl KeyIndex {
    /// The index of sorted `keys`.
    fn new(keys: &[u64]) -> Self {
        let (Some(&min), Some(&max)) = (keys.first(), keys.last()) else {
            return Self {
                min: 0,
                shift: 0,
                starts: vec![0],
            };
        };
        let span_bits = 64 - (max - min).leading_zeros();
        let bucket_bits = (keys.len() / KEYS_PER_BUCKET).max(1).ilog2() + 1;
        let shift = span_bits.saturating_sub(bucket_bits);
        let buckets = ((max - min) >> shift) as usize + 1;
        let mut starts = Vec::with_capacity(buckets + 1);
        for (i, &key) in keys.iter().enumerate() {
            let b = ((key - min) >> shift) as usize;
            while starts.len() <= b {
                starts.push(i);
            }
        }
        starts.push(keys.len());
        Self { min, shift, starts }
    }

    /// The position of `key` in `keys` (the keys indexed), if there.
    #[inline]
    fn find(&self, keys: &[u64], key: u64) -> Option<usize> {
        let b = (key.checked_sub(self.min)? >> self.shift) as usize;
        let (&from, &to) = (self.starts.get(b)?, self.starts.get(b + 1)?);
        keys[from..to].binary_search(&key).ok().map(|i| from + i)
    }
}

fn solve_ply(
    game: &Gravity,
    ply: u32,
    keys: &[u64],
    next: Option<&GravityPly>,
) -> (Vec<u16>, GravityCounts) {
    let index = next.map(|n| KeyIndex::new(&n.keys));
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
                let i = index
                    .as_ref()
                    .and_then(|index| index.find(&next.keys, child))
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
    c.set_outcomes(&values);
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
