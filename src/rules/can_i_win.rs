//! Can I Win (LeetCode 464): players alternately pick an unused integer
//! from `1..=M` and add it to a running total; whoever first makes the
//! total reach `T` wins.
//!
//! A state is the set of used numbers, indexed by its bit mask (bit `i` =
//! number `i + 1`); the side to move follows from the popcount. States are
//! solved in layers of popcount, from the full set down to the empty one —
//! every move adds a number, so a layer needs only the next one — and each
//! layer in parallel. One bit a state (set = the player to move wins).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::error::{Error, Result, Setting};
use crate::index::colex::{binomial, colex_unrank, next_subset};
use crate::memory::{Budget, Bytes};
use crate::runtime::progress::{Progress, Silent};

/// Largest `M`.
pub const MAX_NUMBERS: u32 = 30;

/// Masks a worker takes at once.
const SHARD: u64 = 1 << 14;

/// The solved states of a game of `1..=M` to `T`.
#[derive(Clone, Debug)]
pub struct CanIWinTable {
    numbers: u32,
    total: i64,
    wins: Vec<u64>,
}

/// Bytes the table for `numbers` needs.
pub fn estimate_bytes(numbers: u32) -> Bytes {
    Bytes((1u64 << numbers).div_ceil(64) * 8)
}

/// Sum of the numbers of `mask`.
#[inline]
fn sum_of(mask: u32) -> i64 {
    let mut sum = 0;
    let mut rest = mask;
    while rest != 0 {
        sum += i64::from(rest.trailing_zeros() + 1);
        rest &= rest - 1;
    }
    sum
}

/// Solves every state, on the current rayon pool.
pub fn solve_can_i_win(numbers: u32, total: i64, budget: &Budget) -> Result<CanIWinTable> {
    solve_can_i_win_reporting(numbers, total, budget, &Silent)
}

/// [`solve_can_i_win`], telling `progress` of every shard of states solved
/// (stage "states", total 2^M).
pub fn solve_can_i_win_reporting(
    numbers: u32,
    total: i64,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<CanIWinTable> {
    if numbers > MAX_NUMBERS {
        return Err(Error::setting(
            Setting::LargestNumber,
            format!("{numbers} is above {MAX_NUMBERS}: the table has 2^M states"),
        ));
    }
    budget.check(
        &format!("the table of 2^{numbers} states"),
        estimate_bytes(numbers),
    )?;
    let words: Vec<AtomicU64> = (0..(1u64 << numbers).div_ceil(64))
        .map(|_| AtomicU64::new(0))
        .collect();
    let full = if numbers == 32 {
        u32::MAX
    } else {
        (1u32 << numbers) - 1
    };
    progress.stage("states", 1u64 << numbers);
    for layer in (0..=numbers).rev() {
        let count = binomial(numbers, layer);
        (0..count.div_ceil(SHARD))
            .into_par_iter()
            .for_each(|shard| {
                let start = shard * SHARD;
                let end = (start + SHARD).min(count);
                progress.advance(end - start);
                let mut mask = colex_unrank(start, layer);
                for rank in start..end {
                    let sum = sum_of(mask);
                    // A total already reached means the previous player won.
                    let wins = sum < total && {
                        let free = full & !mask;
                        let largest = 32 - free.leading_zeros();
                        (free != 0 && sum + i64::from(largest) >= total) || {
                            let mut rest = free;
                            let mut found = false;
                            while rest != 0 && !found {
                                let child = mask | (rest & rest.wrapping_neg());
                                found = (words[(child / 64) as usize].load(Relaxed)
                                    >> (child % 64))
                                    & 1
                                    == 0;
                                rest &= rest - 1;
                            }
                            found
                        }
                    };
                    if wins {
                        // Masks of a layer share words: the bit is set atomically.
                        words[(mask / 64) as usize].fetch_or(1 << (mask % 64), Relaxed);
                    }
                    if rank + 1 < end {
                        mask = next_subset(mask);
                    }
                }
            });
    }
    Ok(CanIWinTable {
        numbers,
        total,
        wins: words.into_iter().map(AtomicU64::into_inner).collect(),
    })
}

impl CanIWinTable {
    /// A table from its parts, as [`Self::raw_words`] gives them.
    pub(crate) fn from_raw(numbers: u32, total: i64, wins: Vec<u64>) -> Self {
        Self {
            numbers,
            total,
            wins,
        }
    }

    /// The table's words (bit `mask` set: the mover wins).
    pub(crate) fn raw_words(&self) -> &[u64] {
        &self.wins
    }

    /// The numbers are `1..=max`.
    pub fn max(&self) -> u32 {
        self.numbers
    }

    /// The total to reach.
    pub fn total(&self) -> i64 {
        self.total
    }

    /// Whether the player to move wins with the numbers of `used` gone.
    /// A state whose total already reached `T` is lost for the player to move.
    pub fn wins(&self, used: u32) -> bool {
        (self.wins[(used / 64) as usize] >> (used % 64)) & 1 == 1
    }

    /// LeetCode's answer: `T ≤ 0` → the first player wins; `1 + … + M < T`
    /// → the first player does not win; otherwise the empty state's value.
    pub fn first_player_wins(&self) -> bool {
        let all = i64::from(self.numbers) * i64::from(self.numbers + 1) / 2;
        if self.total <= 0 {
            true
        } else if all < self.total {
            false
        } else {
            self.wins(0)
        }
    }

    /// States solved (2^M).
    pub fn states(&self) -> u64 {
        1u64 << self.numbers
    }

    /// States won by the player to move.
    pub fn winning_states(&self) -> u64 {
        self.wins.iter().map(|w| u64::from(w.count_ones())).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leetcode_464() {
        let t = solve_can_i_win(10, 11, &Budget::unlimited()).unwrap();
        assert!(!t.first_player_wins());
        assert!(solve_can_i_win(10, 0, &Budget::unlimited())
            .unwrap()
            .first_player_wins());
        assert!(solve_can_i_win(10, 1, &Budget::unlimited())
            .unwrap()
            .first_player_wins());
        assert!(!solve_can_i_win(5, 50, &Budget::unlimited())
            .unwrap()
            .first_player_wins());
        assert!(solve_can_i_win(31, 5, &Budget::unlimited()).is_err());
    }
}
