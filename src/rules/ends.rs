//! Take-from-either-end (LeetCode 486 Predict the Winner, 877 Stone Game):
//! a row of numbers; players alternately take the number at either end;
//! each maximises their own total.
//!
//! Every interval `[i, j]` is solved, by length, each length in parallel:
//! `best(i, j) = max(a_i − best(i+1, j), a_j − best(i, j−1))` is the mover's
//! optimal lead over the interval. One bit an interval records whether
//! taking the left end is optimal, so an optimal line of play can be read
//! back; the leads themselves need only the previous length.

use bitvec::prelude::*;
use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::memory::{Budget, Bytes};

/// Largest row.
pub const MAX_NUMBERS: usize = 5_000;

/// Which end a player takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The first number of the row.
    Left,
    /// The last number of the row.
    Right,
}

/// The solved row.
#[derive(Clone, Debug)]
pub struct EndsSolution {
    numbers: Vec<u64>,
    /// The first player's lead under perfect play.
    pub difference: i64,
    /// `take_left[i · n + j]`: taking the left end of `[i, j]` is optimal.
    take_left: BitVec<u64, Lsb0>,
}

/// Bytes the solve of `n` numbers needs.
pub fn estimate_bytes(n: usize) -> Bytes {
    Bytes(((n * n).div_ceil(64) * 8 + 3 * n * 8) as u64)
}

/// Solves every interval of `numbers`.
pub fn solve_ends(numbers: &[u64], budget: &Budget) -> Result<EndsSolution> {
    let n = numbers.len();
    if n == 0 {
        return Err(Error::InvalidInput("the row is empty".into()));
    }
    if n > MAX_NUMBERS {
        return Err(Error::InvalidInput(format!(
            "the row has {n} numbers; at most {MAX_NUMBERS}"
        )));
    }
    let total = numbers.iter().try_fold(0i64, |sum, &a| {
        i64::try_from(a).ok().and_then(|a| sum.checked_add(a))
    });
    if total.is_none() {
        return Err(Error::InvalidInput(
            "the numbers' sum overflows 64-bit integers".into(),
        ));
    }
    budget.check(&format!("solving a row of {n}"), estimate_bytes(n))?;
    let mut take_left = bitvec![u64, Lsb0; 0; n * n];
    // lead[i] for the intervals of the current length starting at i
    let mut lead: Vec<i64> = numbers.iter().map(|&a| a as i64).collect();
    for i in 0..n {
        take_left.set(i * n + i, true);
    }
    for len in 2..=n {
        let (next, left): (Vec<i64>, Vec<bool>) = (0..=n - len)
            .into_par_iter()
            .map(|i| {
                let j = i + len - 1;
                // a − lead can reach twice the total: computed in 128 bits;
                // the best lead itself lies within ±total, which fits 64
                let left = i128::from(numbers[i]) - i128::from(lead[i + 1]);
                let right = i128::from(numbers[j]) - i128::from(lead[i]);
                let best = i64::try_from(left.max(right)).expect("a lead within ±total");
                (best, left >= right)
            })
            .unzip();
        for (i, &l) in left.iter().enumerate() {
            take_left.set(i * n + i + len - 1, l);
        }
        lead = next;
    }
    Ok(EndsSolution {
        numbers: numbers.to_vec(),
        difference: lead[0],
        take_left,
    })
}

impl EndsSolution {
    /// A solution from its parts, as [`Self::raw_words`] gives them.
    pub(crate) fn from_raw(numbers: Vec<u64>, difference: i64, words: Vec<u64>) -> Self {
        let n = numbers.len();
        let mut take_left = BitVec::from_vec(words);
        take_left.truncate(n * n);
        Self {
            numbers,
            difference,
            take_left,
        }
    }

    /// The take-left bits' words.
    pub(crate) fn raw_words(&self) -> &[u64] {
        self.take_left.as_raw_slice()
    }

    /// The row.
    pub fn numbers(&self) -> &[u64] {
        &self.numbers
    }

    /// The mover's optimal lead over the numbers `from..=to` (counted from
    /// 0) and the end an optimal player takes, read back along an optimal
    /// line. Contract: `from ≤ to < n`.
    pub fn interval(&self, from: usize, to: usize) -> (i64, End) {
        let n = self.numbers.len();
        let first = if self.take_left[from * n + to] {
            End::Left
        } else {
            End::Right
        };
        let (mut i, mut j) = (from, to);
        let mut lead = 0i64;
        for turn in 0..=to - from {
            // a one-number interval always takes its left end, so j > i here
            let take = if self.take_left[i * n + j] {
                i += 1;
                self.numbers[i - 1] as i64
            } else {
                j -= 1;
                self.numbers[j + 1] as i64
            };
            lead += if turn % 2 == 0 { take } else { -take };
        }
        (lead, first)
    }

    /// The sum of the row.
    pub fn total(&self) -> i64 {
        self.numbers.iter().map(|&a| a as i64).sum()
    }

    /// The first player's total under perfect play.
    pub fn first_score(&self) -> i64 {
        Self::half(i128::from(self.total()) + i128::from(self.difference))
    }

    /// The second player's total under perfect play.
    pub fn second_score(&self) -> i64 {
        Self::half(i128::from(self.total()) - i128::from(self.difference))
    }

    /// Half of a sum of two figures within ±total: a score within the total.
    fn half(twice: i128) -> i64 {
        i64::try_from(twice / 2).expect("a score within the total")
    }

    /// One optimal line of play: each move's end and number.
    pub fn line(&self) -> Vec<(End, u64)> {
        let n = self.numbers.len();
        let (mut i, mut j) = (0, n - 1);
        let mut line = Vec::with_capacity(n);
        loop {
            if self.take_left[i * n + j] {
                line.push((End::Left, self.numbers[i]));
                if i == j {
                    break;
                }
                i += 1;
            } else {
                line.push((End::Right, self.numbers[j]));
                j -= 1;
            }
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leetcode_486_and_877() {
        let b = Budget::unlimited();
        assert_eq!(solve_ends(&[1, 100, 3], &b).unwrap().difference, -96);
        assert!(solve_ends(&[1, 5, 2], &b).unwrap().difference < 0);
        assert!(solve_ends(&[1, 5, 233, 7], &b).unwrap().difference >= 0);
        let s = solve_ends(&[1, 100, 3], &b).unwrap();
        assert_eq!((s.first_score(), s.second_score()), (4, 100));
        assert_eq!(s.line().len(), 3);
    }
}
