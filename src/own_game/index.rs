//! The dense index of a game's positions: the positions sorted, a
//! position's state index its rank, found by binary search within a radix
//! bucket.
//!
//! Invariant: `keys` is strictly increasing; `buckets[b]..buckets[b + 1]`
//! are the ranks of the keys whose bucket (their radix bits from `shift`
//! up, less the first key's) is `b`. With about four keys a bucket the
//! search touches a cache line or two instead of ~log2(N) scattered ones.

use rayon::prelude::*;

use super::Key;

/// Sorted keys with a bucket table over their highest bits.
pub struct KeyIndex<P> {
    keys: Vec<P>,
    buckets: Vec<u32>,
    shift: u32,
    base: u64,
}

/// Most bits of radix the bucket table uses (2^26 buckets, 256 MiB).
const MAX_BUCKET_BITS: u32 = 26;

impl<P: Key> KeyIndex<P> {
    /// Sorts `positions` (which hold each position once) into an index.
    pub fn new(mut positions: Vec<P>) -> Self {
        positions.par_sort_unstable();
        debug_assert!(positions.windows(2).all(|w| w[0] < w[1]));
        Self::from_sorted(positions)
    }

    /// An index of keys already sorted and distinct (a table file's).
    pub fn from_sorted(keys: Vec<P>) -> Self {
        let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
            return Self {
                keys,
                buckets: vec![0, 0],
                shift: 63,
                base: 0,
            };
        };
        let (low, high) = (first.radix(), last.radix());
        let span_bits = 64 - (low ^ high).leading_zeros();
        let wanted = (64 - (keys.len() as u64 / 4).max(1).leading_zeros()).min(MAX_BUCKET_BITS);
        let shift = span_bits.saturating_sub(wanted);
        let base = low >> shift;
        let count = ((high >> shift) - base + 1) as usize;
        let mut buckets = vec![0u32; count + 1];
        for key in &keys {
            buckets[((key.radix() >> shift) - base) as usize + 1] += 1;
        }
        for b in 1..buckets.len() {
            buckets[b] += buckets[b - 1];
        }
        Self {
            keys,
            buckets,
            shift,
            base,
        }
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
        let radix = key.radix() >> self.shift;
        if radix < self.base || radix - self.base >= (self.buckets.len() - 1) as u64 {
            return None;
        }
        let b = (radix - self.base) as usize;
        let (lo, hi) = (self.buckets[b] as usize, self.buckets[b + 1] as usize);
        self.keys[lo..hi]
            .binary_search(key)
            .ok()
            .map(|i| (lo + i) as u64)
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> u64 {
        (self.keys.len() * P::BYTES + self.buckets.len() * 4) as u64
    }

    /// Bytes an index of `positions` keys of `key_bytes` each holds.
    pub fn bytes_for(positions: u64, key_bytes: usize) -> u64 {
        positions.saturating_mul(key_bytes as u64 + 4)
    }
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
