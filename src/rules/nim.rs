//! Nim as in LeetCode 292, generalised: players alternately take 1..=M
//! stones; whoever takes the last stone wins.
//!
//! Every heap size `0..=N` is solved into a bitset, one bit a state (set =
//! the player to move wins): a heap is won iff some take leaves a lost heap,
//! i.e. iff a lost heap lies within `M` below it. Keeping the last lost heap
//! makes each state O(1), so N = 10⁹ takes one pass and N/8 bytes.

use bitvec::prelude::*;

use crate::error::{Error, Result, Setting};
use crate::memory::{Budget, Bytes};
use crate::runtime::progress::{Progress, Silent};

/// The solved heaps `0..=N`.
#[derive(Clone, Debug)]
pub struct NimTable {
    wins: BitVec<u64, Lsb0>,
    max_take: u64,
}

/// Bytes the table of heaps `0..=stones` needs.
pub fn estimate_bytes(stones: u64) -> Bytes {
    Bytes((stones + 1).div_ceil(64) * 8)
}

/// Solves every heap `0..=stones` with takes of `1..=max_take`.
pub fn solve_nim(stones: u64, max_take: u64, budget: &Budget) -> Result<NimTable> {
    solve_nim_reporting(stones, max_take, budget, &Silent)
}

/// Heaps solved between two progress reports.
const REPORT_EVERY: u64 = 1 << 22;

/// [`solve_nim`], telling `progress` of the heaps solved (stage "heaps").
pub fn solve_nim_reporting(
    stones: u64,
    max_take: u64,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<NimTable> {
    if max_take == 0 {
        return Err(Error::setting(Setting::MaxTake, "must be at least 1"));
    }
    budget.check(
        &format!("the Nim table of {stones} stones"),
        estimate_bytes(stones),
    )?;
    let len =
        usize::try_from(stones + 1).map_err(|_| Error::InvalidInput("too many stones".into()))?;
    let mut words = vec![0u64; len.div_ceil(64)];
    // heap 0: the player to move has lost (the opponent took the last stone)
    let mut last_loss = 0u64;
    progress.stage("heaps", stones + 1);
    for heap in 1..=stones {
        if heap % REPORT_EVERY == 0 {
            progress.advance(REPORT_EVERY);
        }
        if heap - last_loss <= max_take {
            words[(heap / 64) as usize] |= 1 << (heap % 64);
        } else {
            last_loss = heap;
        }
    }
    let mut wins = BitVec::from_vec(words);
    wins.truncate(len);
    Ok(NimTable { wins, max_take })
}

impl NimTable {
    /// A table from its words (bit `h` set: heap `h` is won), the number of
    /// heaps and the largest take, as [`Self::raw_words`] gives them.
    pub(crate) fn from_raw(words: Vec<u64>, heaps: usize, max_take: u64) -> Self {
        let mut wins = BitVec::from_vec(words);
        wins.truncate(heaps);
        Self { wins, max_take }
    }

    /// The table's words.
    pub(crate) fn raw_words(&self) -> &[u64] {
        self.wins.as_raw_slice()
    }

    /// Whether the player to move wins a heap of `stones`.
    pub fn wins(&self, stones: u64) -> bool {
        self.wins[stones as usize]
    }

    /// Largest heap solved.
    pub fn stones(&self) -> u64 {
        self.wins.len() as u64 - 1
    }

    /// The largest take.
    pub fn max_take(&self) -> u64 {
        self.max_take
    }

    /// Lost heaps in the table.
    pub fn losses(&self) -> u64 {
        self.wins.count_zeros() as u64
    }

    /// The smallest `p ≥ 1` with `wins(i) == wins(i + p)` for every heap in
    /// the table: the period of the win/loss pattern as the table shows it
    /// (`N + 1` when nothing repeats within it).
    pub fn period(&self) -> u64 {
        let n = self.wins.len();
        (1..n)
            .find(|&p| self.wins[..n - p] == self.wins[p..])
            .unwrap_or(n) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leetcode_292() {
        let t = solve_nim(10, 3, &Budget::unlimited()).unwrap();
        assert!(!t.wins(4));
        assert!(t.wins(1) && t.wins(2) && t.wins(3));
        assert_eq!(t.period(), 4);
    }
}
