//! The transposition table of the gravity search: a fixed-size, lock-free
//! table of proven score bounds, one 64-bit word an entry.
//!
//! * **Exact keys in one word.** A position's key is spread by a
//!   multiplication by an odd constant, a bijection of 64-bit words: the
//!   top `b` bits of the product pick the entry among `2^b`, and the entry
//!   keeps the other `64 − b` bits beside the two bounds (8 bits each) and,
//!   in a table of at least 2^[`MOVE_MIN_BITS`] entries, a best move (6
//!   bits: the move plus one, 0 for none). The slot and the kept bits
//!   together give the whole product back, hence the key, so a hit is never
//!   another position's. This needs `64 − b + 16 (+ 6) ≤ 64`: a table has
//!   at least 2^16 entries (512 KiB), and keeps moves from 2^22 (32 MiB).
//! * **Lock-free.** Each entry is written and read with one relaxed 64-bit
//!   store or load, so threads never see half an entry; a lost or
//!   overwritten entry costs time, never correctness. The all-zero word
//!   means empty (the one real entry it could stand for is not stored).
//! * **Huge pages** where the kernel gives them (see
//!   [`crate::memory::advise_huge_pages`]): the table is probed at random.
//!
//! Against the earlier two-word entries (key XOR data, then data) the
//! single word holds twice the entries in the same memory; with huge pages
//! and prefetching (see [`crate::search::bitboard`]) the engine went
//! from 2.15 M to 6.6 M nodes/s on one thread.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::tables::atomic::zeroed_words;

/// Bytes one entry takes: the table's size is a byte budget over this.
pub const BYTES_PER_ENTRY: u64 = 8;

/// The fewest entries a table has (see the module docs).
pub const MIN_ENTRIES: usize = 1 << 16;

/// The odd multiplier that spreads keys (2^64 over the golden ratio).
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

/// The fewest index bits of a table whose entries keep a best move.
pub const MOVE_MIN_BITS: u32 = 22;

/// Bits of an entry's move field (where kept).
const MOVE_BITS: u32 = 6;

/// The largest move an entry keeps (a move is stored plus one).
pub const MAX_MOVE: u8 = (1 << MOVE_BITS) - 2;

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// A proven lower bound of the score.
    pub lower: i8,
    /// A proven upper bound of the score.
    pub upper: i8,
    /// The move that gave the best value when the bounds were stored, if
    /// the table keeps moves and one was given.
    pub best: Option<u8>,
}

/// A table of lower and upper bounds of exact scores, keyed by 64-bit keys.
pub struct BoundTable {
    words: Vec<AtomicU64>,
    /// `b`: the table has `2^b` entries.
    bits: u32,
    /// Where the kept key bits start: 16, or 22 with a move field.
    kept_shift: u32,
}

impl BoundTable {
    /// A table of the largest power of two of entries within `entries`,
    /// and at least [`MIN_ENTRIES`].
    pub fn new(entries: usize) -> Self {
        let entries = entries.max(MIN_ENTRIES);
        let bits = usize::BITS - 1 - entries.leading_zeros();
        let words = zeroed_words(1usize << bits);
        crate::memory::advise_huge_pages(&words);
        let kept_shift = if bits >= MOVE_MIN_BITS {
            16 + MOVE_BITS
        } else {
            16
        };
        Self {
            words,
            bits,
            kept_shift,
        }
    }

    #[cfg(test)]
    /// Entries in the table.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// The entry of `key` and the bits of its spread key the entry keeps.
    #[inline]
    fn locate(&self, key: u64) -> (&AtomicU64, u64) {
        let spread = key.wrapping_mul(SPREAD);
        let slot = (spread >> (64 - self.bits)) as usize;
        let kept = spread & ((1u64 << (64 - self.bits)) - 1);
        debug_assert!(64 - self.bits + self.kept_shift <= 64);
        (&self.words[slot], kept)
    }

    /// The bounds stored for `key`: `(lower, upper)`.
    #[inline]
    pub fn get(&self, key: u64) -> Option<(i8, i8)> {
        self.get_with_move(key).map(|b| (b.lower, b.upper))
    }

    /// The bounds and best move stored for `key`.
    #[inline]
    pub fn get_with_move(&self, key: u64) -> Option<Bounds> {
        let (word, kept) = self.locate(key);
        let entry = word.load(Relaxed);
        if entry == 0 || entry >> self.kept_shift != kept {
            return None;
        }
        let stored = ((entry >> 16) & ((1 << MOVE_BITS) - 1)) as u8;
        Some(Bounds {
            lower: entry as u8 as i8,
            upper: (entry >> 8) as u8 as i8,
            best: (self.kept_shift > 16 && stored != 0).then(|| stored - 1),
        })
    }

    #[cfg(test)]
    /// Stores `lower ≤ score ≤ upper` for `key`, replacing whatever the
    /// entry held.
    #[inline]
    pub fn put(&self, key: u64, lower: i8, upper: i8) {
        self.put_with_move(key, lower, upper, None);
    }

    /// `put` with the best move (at most [`MAX_MOVE`]; kept only in
    /// a table of at least 2^[`MOVE_MIN_BITS`] entries).
    #[inline]
    pub fn put_with_move(&self, key: u64, lower: i8, upper: i8, best: Option<u8>) {
        let (word, kept) = self.locate(key);
        let field = match best {
            Some(m) if self.kept_shift > 16 && m <= MAX_MOVE => u64::from(m + 1) << 16,
            _ => 0,
        };
        word.store(
            kept << self.kept_shift | field | u64::from(upper as u8) << 8 | u64::from(lower as u8),
            Relaxed,
        );
    }

    /// Starts bringing `key`'s entry into the cache, for a `get` soon.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::runtime::cache::prefetch(self.locate(key).0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_sharing_a_slot_never_read_each_other() {
        let table = BoundTable::new(MIN_ENTRIES);
        // many keys, several per slot: the last write of a slot wins, and
        // no other key of that slot reads it
        let keys: Vec<u64> = (0..400_000u64).map(|i| i * 0x1_0001 + 7).collect();
        for (i, &k) in keys.iter().enumerate() {
            table.put(k, (i % 50) as i8 - 25, (i % 50) as i8);
        }
        let mut hits = 0;
        for (i, &k) in keys.iter().enumerate() {
            if let Some(b) = table.get(k) {
                assert_eq!(b, ((i % 50) as i8 - 25, (i % 50) as i8));
                hits += 1;
            }
        }
        assert!(hits > 0 && hits <= table.len());
        assert_eq!(table.get(3), None);
    }

    #[test]
    fn large_tables_keep_a_move_small_ones_do_not() {
        let large = BoundTable::new(1 << MOVE_MIN_BITS);
        let keys: Vec<u64> = (0..100_000u64).map(|i| i * 0x9_0001 + 3).collect();
        for (i, &k) in keys.iter().enumerate() {
            large.put_with_move(k, -3, 5, Some((i % 7) as u8));
        }
        for (i, &k) in keys.iter().enumerate() {
            if let Some(b) = large.get_with_move(k) {
                assert_eq!(
                    b,
                    Bounds {
                        lower: -3,
                        upper: 5,
                        best: Some((i % 7) as u8)
                    }
                );
            }
        }
        large.put_with_move(1, 0, 0, None);
        assert_eq!(large.get_with_move(1).unwrap().best, None);
        let small = BoundTable::new(MIN_ENTRIES);
        small.put_with_move(5, 1, 2, Some(3));
        assert_eq!(
            small.get_with_move(5),
            Some(Bounds {
                lower: 1,
                upper: 2,
                best: None
            })
        );
    }

    #[test]
    fn sizes_are_powers_of_two_within_the_request() {
        assert_eq!(BoundTable::new(0).len(), MIN_ENTRIES);
        assert_eq!(BoundTable::new((1 << 20) + 5).len(), 1 << 20);
        assert_eq!(BoundTable::new((1 << 21) - 1).len(), 1 << 20);
    }
}
