//! The threat prover's cache of *leaf numbers*: the numbers a position
//! starts with ([`super::ThreatProver`]'s mobility numbers), for positions
//! a search has looked at as a child but not searched, in one flat array
//! of 8-byte slots that forgets.
//!
//! Why apart from the [`super::table`]: df-pn reads the numbers of every
//! child of each position it searches, and most children are never
//! searched themselves. Stored in the table, they took most of it: the
//! checkpoint of the gomoku class k8 (178.4 M entries, the table full)
//! held 80.8 M open entries with disproof 1 (defender-to-move leaves start
//! at `(moves, 1)`) and 37.0 M with proof 1 and disproof at most 6
//! (attacker-to-move leaves start at `(1, moves)` with 6 moves tried),
//! against 9.3 M settled. The table now holds the positions searched and
//! the settled ones; a leaf's numbers live here, at 8 bytes rather than
//! 20, and a leaf pushed out is worked out again from its expansion.
//!
//! * **Exactness**: only *unsettled* numbers are kept (both at least 1),
//!   so whatever this cache answers can steer the search but never settle
//!   a position: an OR node is proved only by a child proved in the table,
//!   an AND node only when every child is. A slot holds 32 bits of the
//!   key's fingerprint to tell keys apart: a key not held meets a false
//!   entry with chance 2⁻³² a lookup of a taken slot, which at worst makes
//!   the search try a child first or last. So the search is the one the
//!   table alone would make, bar those chances and the leaves forgotten
//!   (worked out again the same way).
//! * **Layout**: direct-mapped (a key has one slot: its home by the
//!   fingerprint's high word, as in the table); a new key overwrites what
//!   was there. A slot is `check << 32 | proof << 16 | disproof`, 0 empty
//!   (the check is never 0). Numbers past 16 bits are not kept.
//! * **Growth**: like the table's, the array starts small (at least
//!   [`FIRST_SLOTS`]) and grows eightfold, up to its bytes, when half its
//!   slots are taken; the slots hold no whole key to move them by, so
//!   growing starts empty (the leaves forgotten are worked out again).

use super::table::Fingerprint;
use crate::prove::proof_numbers::Numbers;

/// Bytes a slot takes.
pub const BYTES_PER_LEAF: u64 = 8;

/// The slots of a new cache (512 KiB).
pub const FIRST_SLOTS: usize = 1 << 16;

/// How much larger the array grows each time.
const GROWTH: usize = 8;

/// A cache of unsettled leaf numbers by key fingerprint (module docs).
pub struct Leaves {
    slots: Vec<u64>,
    /// Slots taken.
    len: usize,
    /// The most slots the array may have: its first size times a power
    /// of [`GROWTH`].
    max_slots: usize,
}

impl Leaves {
    /// A cache that never takes more than `bytes` (at least its first
    /// size).
    pub fn within(bytes: u64) -> Self {
        let most = (bytes / BYTES_PER_LEAF).clamp(FIRST_SLOTS as u64, 1 << 40) as usize;
        // the first size whose growths by GROWTH end at the most
        let mut first = most;
        while first / GROWTH >= FIRST_SLOTS {
            first /= GROWTH;
        }
        Self::of(first, most)
    }

    fn of(slots: usize, max_slots: usize) -> Self {
        let slots = vec![0u64; slots];
        crate::memory::advise_huge_pages(&slots);
        Self {
            slots,
            len: 0,
            max_slots,
        }
    }

    #[cfg(test)]
    /// Bytes the cache takes now.
    pub fn bytes(&self) -> u64 {
        self.slots.len() as u64 * BYTES_PER_LEAF
    }

    fn home(&self, fingerprint: Fingerprint) -> usize {
        ((u128::from(fingerprint.high) * self.slots.len() as u128) >> 64) as usize
    }

    fn check(fingerprint: Fingerprint) -> u64 {
        u64::from(fingerprint.low.max(1))
    }

    /// The numbers kept for `fingerprint`, if any (unsettled).
    pub fn get(&self, fingerprint: Fingerprint) -> Option<Numbers> {
        let slot = self.slots[self.home(fingerprint)];
        (slot >> 32 == Self::check(fingerprint)).then_some(Numbers {
            proof: (slot >> 16 & 0xffff) as u32,
            disproof: (slot & 0xffff) as u32,
        })
    }

    /// Keeps `numbers` for `fingerprint` when they are unsettled and fit
    /// 16 bits each; otherwise keeps nothing.
    pub fn keep(&mut self, fingerprint: Fingerprint, numbers: Numbers) {
        let fits = |n: u32| (1..=0xffff).contains(&n);
        if !fits(numbers.proof) || !fits(numbers.disproof) {
            return;
        }
        if self.len * 2 >= self.slots.len() && self.slots.len() < self.max_slots {
            // (the old array given back first: never both at once)
            let slots = self.slots.len() * GROWTH;
            self.slots = Vec::new();
            *self = Self::of(slots, self.max_slots);
        }
        let home = self.home(fingerprint);
        if self.slots[home] == 0 {
            self.len += 1;
        }
        self.slots[home] = Self::check(fingerprint) << 32
            | u64::from(numbers.proof) << 16
            | u64::from(numbers.disproof);
    }
}

#[cfg(test)]
mod tests {
    use super::super::table::fingerprint;
    use super::*;

    fn open(proof: u32, disproof: u32) -> Numbers {
        Numbers { proof, disproof }
    }

    #[test]
    fn unsettled_numbers_come_back_and_settled_ones_are_not_kept() {
        let mut leaves = Leaves::within(1 << 20);
        let (a, b, c) = (fingerprint(1), fingerprint(2), fingerprint(3));
        leaves.keep(a, open(1, 6));
        leaves.keep(b, Numbers::PROVED);
        leaves.keep(c, open(70_000, 1));
        assert_eq!(leaves.get(a), Some(open(1, 6)));
        assert_eq!(leaves.get(b), None);
        assert_eq!(leaves.get(c), None);
        leaves.keep(a, open(4, 1));
        assert_eq!(leaves.get(a), Some(open(4, 1)));
    }

    #[test]
    fn it_grows_within_its_bytes_and_never_answers_for_another_key() {
        // (keys spread over all 128 bits, as the prover's hashes are)
        let mut leaves = Leaves::within(100 * FIRST_SLOTS as u64);
        let keys: Vec<Fingerprint> = (1..=200_000u128)
            .map(|k| fingerprint(k.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)))
            .collect();
        for (i, &f) in keys.iter().enumerate() {
            leaves.keep(f, open(i as u32 % 1000 + 1, 2));
        }
        // 100 bytes a first slot allow 12.5 times its slots: a first
        // size of 12.5/8 of FIRST_SLOTS, and one growth
        assert_eq!(leaves.bytes(), 100 * FIRST_SLOTS as u64);
        let mut held = 0;
        for (i, &f) in keys.iter().enumerate() {
            if let Some(n) = leaves.get(f) {
                assert_eq!(n, open(i as u32 % 1000 + 1, 2));
                held += 1;
            }
        }
        // the last keys kept are most of the slots' worth
        assert!(held > 100_000, "{held}");
    }
}
