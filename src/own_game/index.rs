//! The dense index of a game's positions: the positions sorted, a
//! position's state index its rank, found through a hash table of ranks.
//!
//! Invariant: `keys` is strictly increasing; `slots` is an open-addressing
//! table (linear probing, at most half full) whose every non-empty slot
//! holds the rank of a key, each key's rank in the first slot at or after
//! its home slot that holds it. A lookup costs one probe run (about 1.5
//! slots at half load) and one key read, whatever the keys look like: a
//! binary search on radix buckets degenerated here on packed boards, whose
//! high bits (hands, empty squares) are mostly alike.

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;
use rustc_hash::FxBuildHasher;

use super::Key;
use crate::memory::huge_vec;
use crate::runtime::cache::prefetch;

/// An empty slot.
const EMPTY: u32 = u32::MAX;

/// Most positions an index holds: ranks are `u32` and `u32::MAX` marks an
/// empty slot.
pub const MAX_POSITIONS: u64 = u32::MAX as u64;

/// Sorted keys with a hash table of their ranks.
pub struct KeyIndex<P> {
    keys: Vec<P>,
    slots: Vec<u32>,
    bits: u32,
}

impl<P: Key> KeyIndex<P> {
    /// Sorts `positions` (which hold each position once) into an index.
    /// Contract: fewer than [`MAX_POSITIONS`] positions.
    pub fn new(mut positions: Vec<P>) -> Self {
        positions.par_sort_unstable();
        debug_assert!(positions.windows(2).all(|w| w[0] < w[1]));
        Self::from_sorted(positions)
    }

    /// An index of keys already sorted and distinct (a table file's).
    /// Contract: fewer than [`MAX_POSITIONS`] keys.
    pub fn from_sorted(keys: Vec<P>) -> Self {
        assert!(
            (keys.len() as u64) < MAX_POSITIONS,
            "too many positions for an index"
        );
        let bits = Self::slot_bits(keys.len() as u64);
        let slots: Vec<AtomicU32> = huge_vec(1usize << bits, |_| AtomicU32::new(EMPTY));
        let mask = (1usize << bits) - 1;
        keys.par_iter().enumerate().for_each(|(rank, key)| {
            let mut slot = home(key, bits);
            while slots[slot]
                .compare_exchange(EMPTY, rank as u32, Relaxed, Relaxed)
                .is_err()
            {
                slot = (slot + 1) & mask;
            }
        });
        let slots = slots.into_iter().map(AtomicU32::into_inner).collect();
        Self { keys, slots, bits }
    }

    /// Bits of the slot table for `positions`: at least twice as many
    /// slots as positions.
    fn slot_bits(positions: u64) -> u32 {
        (64 - (2 * positions.max(1) - 1).leading_zeros()).max(1)
    }

    /// Number of positions.
    pub fn len(&self) -> u64 {
        self.keys.len() as u64
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The sorted keys.
    pub fn keys(&self) -> &[P] {
        &self.keys
    }

    /// The position of state `index`.
    pub fn key(&self, index: u64) -> P {
        self.keys[index as usize]
    }

    /// The state index of `key`, `None` if it is not one of the positions.
    #[inline]
    pub fn find(&self, key: &P) -> Option<u64> {
        let mask = self.slots.len() - 1;
        let mut slot = home(key, self.bits);
        loop {
            let rank = self.slots[slot];
            if rank == EMPTY {
                return None;
            }
            if self.keys[rank as usize] == *key {
                return Some(u64::from(rank));
            }
            slot = (slot + 1) & mask;
        }
    }

    /// The states of `keys` into `found` (cleared first), `None` for a key
    /// not among the positions: [`KeyIndex::find`] for each, with the
    /// slots and then the keys they name prefetched for the whole batch
    /// first, so that their cache misses overlap (one key at a time, each
    /// lookup waited on two misses in turn: the move scan of a game whose
    /// index is larger than the caches spent most of its time there).
    pub fn find_many(&self, keys: &[P], found: &mut Vec<Option<u64>>) {
        found.clear();
        for key in keys {
            prefetch(&self.slots[home(key, self.bits)]);
        }
        for key in keys {
            let rank = self.slots[home(key, self.bits)];
            if rank != EMPTY {
                prefetch(&self.keys[rank as usize]);
            }
        }
        found.extend(keys.iter().map(|key| self.find(key)));
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> u64 {
        (self.keys.len() * P::BYTES + self.slots.len() * 4) as u64
    }

    /// Bytes an index of `positions` keys of `key_bytes` each holds, at
    /// most: the keys and up to four slots of 4 bytes a key.
    pub fn bytes_for(positions: u64, key_bytes: usize) -> u64 {
        positions.saturating_mul(key_bytes as u64 + 16)
    }
}

/// The home slot of `key` in a table of `2^bits` slots.
#[inline]
fn home<P: Key>(key: &P, bits: u32) -> usize {
    let hash = FxBuildHasher.hash_one(key);
    (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
}

#[cfg(test)]
mod tests {
    use super::KeyIndex;

    #[test]
    fn every_key_is_found_at_its_rank_and_no_other_key_is() {
        let keys: Vec<u64> = (0..5000u64).map(|i| i * i * 7919 + 3).collect();
        let index = KeyIndex::new(keys.iter().rev().copied().collect());
        for (rank, key) in keys.iter().enumerate() {
            assert_eq!(index.find(key), Some(rank as u64));
            assert_eq!(index.find(&(key + 1)), None);
        }
        assert_eq!(index.find(&0), None);
        assert_eq!(index.find(&u64::MAX), None);
        let one = KeyIndex::new(vec![42u128]);
        assert_eq!(one.find(&42), Some(0));
        assert_eq!(one.find(&41), None);
        let none = KeyIndex::<u32>::new(Vec::new());
        assert_eq!(none.find(&1), None);
    }
}
