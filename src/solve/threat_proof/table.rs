//! The threat prover's table: proof and disproof numbers by position key,
//! in one flat array of [`BYTES_PER_SLOT`] a slot.
//!
//! It replaces a `HashMap`, which took about twice the bytes an entry
//! needs (a power of two of slots, under 7/8 full, a control byte each)
//! and, growing, held its old and new arrays at once: the run of h8 o14
//! peaked at 9.6 GB with `--max-memory 8GiB`.
//!
//! * **Fingerprints**: a slot holds a 64-bit *fingerprint* of the
//!   position's 128-bit key (a mix of both halves), not the key: 16 bytes
//!   a slot rather than 24, so half as many entries again fit a budget
//!   (the gomoku classes fill their table: measured at 7 GiB, about 2.3
//!   entries a position searched). Two keys with one fingerprint share an
//!   entry; with 10⁹ lookups among 3 × 10⁸ entries the chance of it ever
//!   happening in a run is about 10⁻⁸, and a false entry could cost no
//!   more than a certificate the checker refuses (every proof is read
//!   back from the board, not from the table). A fingerprint is never 0
//!   (0 is the empty slot): one that would be is taken as 1.
//! * **Growth**: the array starts at about [`FIRST_SLOTS`] (a short search
//!   stays small: its keys are spread over the whole array, so a large
//!   one would be touched page by page all over) and, 3/4 full or when a
//!   key finds no empty slot near its home, is copied into one eight times
//!   larger, up to the most slots its bytes allow. The copy holds both
//!   arrays at once, so the largest array is 8/9 of the bytes given
//!   ([`Table::within`]); never more is taken.
//! * **Huge pages**: each array is advised to the kernel for transparent
//!   huge pages ([`crate::memory::advise_huge_pages`]): every position
//!   searched reads its children's entries at random places, and with
//!   4 KiB pages nearly each read also missed the TLB. Measured on a
//!   table of 2.9 GB (120 M entries): 40 M random reads took 9.2–9.3 s
//!   against 13.5–15.4 s with huge pages disabled (`PR_SET_THP_DISABLE`).
//! * **Layout**: linear probing (wrapping at the end). A fingerprint's
//!   *home* is its slot by the fingerprint's high bits (it is mixed by a
//!   multiply); it lies after its home with no empty slot between.
//! * **Never a hole**: entries are replaced in place and never removed,
//!   so a probe that meets an empty slot may stop there.
//! * **Replacement** (the array at its largest): a new key whose first
//!   [`PROBES`] slots are all taken (or the table 15/16 full) replaces
//!   the unsettled entry among them, before the first empty slot, with
//!   the least proof plus disproof number (the least search
//!   stands behind it). Settled entries are never replaced: the
//!   certificate is read from them. With only settled entries there, the
//!   key takes the first empty slot further on, unless the table is
//!   15/16 full: then [`Table::store`] says so and the prover stops ("the
//!   table is full").

use crate::solve::proof_numbers::Numbers;

/// Bytes a slot takes: the fingerprint and the two numbers (a word each).
pub const BYTES_PER_SLOT: u64 = 16;

/// The slots from its home in which a new key looks for an entry to
/// replace.
pub const PROBES: usize = 64;

/// The share of the slots (out of 16) that may be taken: past it, probes
/// grow long.
const FULL: usize = 15;

/// The slots of a new table (1.5 MB).
pub const FIRST_SLOTS: usize = 1 << 16;

/// How much larger the array grows each time.
const GROWTH: usize = 8;

/// XORed into every key before it is mixed, so that the empty board's
/// key (0) does not mix to 0.
const SALT: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;

/// The fingerprint of a position's key (module docs): never 0.
pub fn fingerprint(key: u128) -> u64 {
    let s = key ^ SALT;
    // (the key is the least of its images' hashes: its high bits lean to
    // zero, its low ones do not; the multiply carries the low bits up to
    // the high ones the home is read from)
    let mixed = (s as u64 ^ ((s >> 64) as u64).rotate_left(32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    mixed.max(1)
}

/// A table of numbers by key of a fixed number of slots.
pub struct Table {
    /// `[fingerprint, proof << 32 | disproof]`; fingerprint 0: empty.
    slots: Vec<[u64; 2]>,
    /// Slots taken.
    len: usize,
    /// The most slots the array may have: its first size times a power
    /// of [`GROWTH`].
    max_slots: usize,
}

impl Table {
    /// A table that never takes more than `bytes` (module docs,
    /// "Growth"), or twice [`PROBES`] slots, whichever is more.
    pub fn within(bytes: u64) -> Self {
        let most = (bytes / BYTES_PER_SLOT / (GROWTH as u64 + 1) * GROWTH as u64)
            .clamp(2 * PROBES as u64, 1 << 40) as usize;
        // the first size whose growths by GROWTH end at the most
        let mut first = most;
        while first / GROWTH >= FIRST_SLOTS {
            first /= GROWTH;
        }
        let mut last = first;
        while last * GROWTH <= most {
            last *= GROWTH;
        }
        Self::of(first, last)
    }

    fn of(slots: usize, max_slots: usize) -> Self {
        // zeroed pages come untouched from the kernel: advised before the
        // first write, they are backed by huge pages (module docs)
        let slots = vec![[0u64; 2]; slots];
        crate::memory::advise_huge_pages(&slots);
        Self {
            slots,
            len: 0,
            max_slots,
        }
    }

    /// Bytes the table takes now.
    pub fn bytes(&self) -> u64 {
        self.slots.len() as u64 * BYTES_PER_SLOT
    }

    fn can_grow(&self) -> bool {
        self.slots.len() < self.max_slots
    }

    /// Copies the entries into an array [`GROWTH`] times larger (at most
    /// `max_slots`): each finds an empty slot there (under 15/16 full).
    fn grow(&mut self) {
        let slots = self.slots.len() * GROWTH;
        let mut larger = Self::of(slots, self.max_slots);
        for slot in &self.slots {
            if slot[0] != 0 {
                let i = larger
                    .find(slot[0])
                    .expect_err("fingerprints are stored once");
                larger.slots[i] = *slot;
                larger.len += 1;
            }
        }
        *self = larger;
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every entry held, as (fingerprint, numbers), in slot order.
    pub fn entries(&self) -> impl Iterator<Item = (u64, Numbers)> + '_ {
        self.slots
            .iter()
            .filter(|slot| slot[0] != 0)
            .map(|slot| (slot[0], unpack(slot[1])))
    }

    /// The home slot of a fingerprint: its high bits onto the slots by a
    /// multiply (Lemire's reduction).
    fn home(&self, fingerprint: u64) -> usize {
        ((u128::from(fingerprint) * self.slots.len() as u128) >> 64) as usize
    }

    /// The slot of `fingerprint`, or `Err` with the first empty slot from
    /// its home on (there is one: the table is never full to the last
    /// slot).
    fn find(&self, fingerprint: u64) -> std::result::Result<usize, usize> {
        let mut i = self.home(fingerprint);
        loop {
            let slot = self.slots[i][0];
            if slot == fingerprint {
                return Ok(i);
            }
            if slot == 0 {
                return Err(i);
            }
            i += 1;
            if i == self.slots.len() {
                i = 0;
            }
        }
    }

    /// The numbers stored for `key`.
    pub fn get(&self, key: u128) -> Option<Numbers> {
        let fingerprint = fingerprint(key);
        self.find(fingerprint)
            .ok()
            .map(|i| unpack(self.slots[i][1]))
    }

    /// Stores `numbers` for `key` (module docs, "Replacement"); false when
    /// the table is full and every slot near its home holds a settled
    /// entry of another key.
    pub fn store(&mut self, key: u128, numbers: Numbers) -> bool {
        self.store_fingerprint(fingerprint(key), numbers)
    }

    /// [`Self::store`] by the key's fingerprint (a checkpoint's entries).
    pub fn store_fingerprint(&mut self, fingerprint: u64, numbers: Numbers) -> bool {
        if self.len * 4 >= self.slots.len() * 3 && self.can_grow() {
            self.grow();
        }
        let fingerprint = fingerprint.max(1);
        let home = self.home(fingerprint);
        let entry = [fingerprint, pack(numbers)];
        let empty = match self.find(fingerprint) {
            Ok(i) => {
                self.slots[i] = entry;
                return true;
            }
            Err(empty) => empty,
        };
        let distance = (empty + self.slots.len() - home) % self.slots.len();
        let full = self.len * 16 >= self.slots.len() * FULL;
        if distance < PROBES && !full {
            self.len += 1;
            self.slots[empty] = entry;
            return true;
        }
        if self.can_grow() {
            // room to grow: grow rather than replace
            self.grow();
            return self.store_fingerprint(fingerprint, numbers);
        }
        // (least proof + disproof, its slot) among the unsettled before
        // the empty slot (one past it would not be found from the home)
        let victim = (0..PROBES.min(distance))
            .map(|d| (home + d) % self.slots.len())
            .filter_map(|i| {
                let held = unpack(self.slots[i][1]);
                let work = u64::from(held.proof) + u64::from(held.disproof);
                (!held.settled()).then_some((work, i))
            })
            .min();
        match victim {
            Some((_, i)) => self.slots[i] = entry,
            None if !full => {
                self.len += 1;
                self.slots[empty] = entry;
            }
            None => return false,
        }
        true
    }
}

pub(super) fn pack(n: Numbers) -> u64 {
    u64::from(n.proof) << 32 | u64::from(n.disproof)
}

pub(super) fn unpack(word: u64) -> Numbers {
    Numbers {
        proof: (word >> 32) as u32,
        disproof: word as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(n: u32) -> Numbers {
        Numbers {
            proof: n,
            disproof: n,
        }
    }

    #[test]
    fn keys_come_back_and_the_empty_board_key_is_a_key() {
        let mut t = Table::within(1 << 16);
        assert_eq!(t.get(0), None);
        assert!(t.store(0, Numbers::PROVED));
        assert!(t.store(12345, open(3)));
        assert!(t.store(12345, open(4)));
        assert_eq!(t.get(0), Some(Numbers::PROVED));
        assert_eq!(t.get(12345), Some(open(4)));
        assert_eq!(t.len(), 2);
        assert!(t.bytes() <= 1 << 16);
    }

    #[test]
    fn entries_by_fingerprint_fill_another_table_alike() {
        // (a checkpoint carries fingerprints, not keys)
        assert_ne!(fingerprint(0), 0);
        assert_ne!(fingerprint(0), fingerprint(1));
        let mut t = Table::within(1 << 20);
        let keys: Vec<u128> = (0..5_000u128)
            .map(|i| i * 0x1234_5678_9abc_def1 << 3)
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            assert!(t.store(k, open(i as u32 + 1)));
        }
        let mut copy = Table::within(1 << 22);
        for (f, n) in t.entries() {
            assert!(copy.store_fingerprint(f, n));
        }
        assert_eq!(copy.len(), keys.len());
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(copy.get(k), Some(open(i as u32 + 1)));
        }
    }

    #[test]
    fn growing_keeps_every_entry_and_stays_within_its_bytes() {
        let bytes = 100 * FIRST_SLOTS as u64 * BYTES_PER_SLOT;
        let mut t = Table::within(bytes);
        // keys as the prover's: the least of 8 random words of 128 bits
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut random = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let keys: Vec<u128> = (0..2_000_000)
            .map(|_| {
                (0..8)
                    .map(|_| u128::from(random()) << 64 | u128::from(random()))
                    .min()
                    .unwrap()
            })
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            assert!(t.store(k, open(i as u32 + 1)));
        }
        // at a third full, no key finds all its slots taken
        let found = keys
            .iter()
            .enumerate()
            .filter(|&(i, &k)| t.get(k) == Some(open(i as u32 + 1)))
            .count();
        assert_eq!(found, keys.len());
        assert_eq!(t.len(), found);
        // grown twice (×8, then to the cap); with the copy's old array,
        // within the bytes
        assert!(t.bytes() + t.bytes() / 8 <= bytes + BYTES_PER_SLOT * PROBES as u64);
        assert!(t.slots.len() > 8 * FIRST_SLOTS);
    }

    #[test]
    fn a_key_stored_is_found_at_once_also_in_a_full_table() {
        // (the prover reads a child's numbers back after searching it: a
        // store that says yes but cannot be found would loop)
        for seed in 1..=50u128 {
            let mut t = Table::of(2 * PROBES, 2 * PROBES);
            for i in 1..=400u128 {
                let key = (i * 0x1234_5678_9abc_def1 * seed) ^ (seed << 70);
                let n = if (i + seed) % 4 == 0 {
                    Numbers::PROVED
                } else {
                    open(i as u32)
                };
                if t.store(key, n) {
                    assert_eq!(t.get(key), Some(n), "seed {seed}, key {i}");
                }
            }
        }
    }

    #[test]
    fn a_full_table_replaces_the_least_searched_and_keeps_the_settled() {
        // the smallest table: 128 slots, so 200 keys crowd it
        let mut t = Table::of(2 * PROBES, 2 * PROBES);
        let keys: Vec<u128> = (1..=200u128).map(|i| i * 0x1234_5678_9abc_def1).collect();
        for (i, &k) in keys.iter().enumerate() {
            let n = if i % 3 == 0 {
                Numbers::PROVED
            } else {
                open(i as u32 + 1)
            };
            if !t.store(k, n) {
                break;
            }
        }
        // whatever is found is what was stored for that key
        for (i, &k) in keys.iter().enumerate() {
            if let Some(n) = t.get(k) {
                assert!(n == Numbers::PROVED || n == open(i as u32 + 1));
                assert_eq!(n.settled(), i % 3 == 0);
            }
        }
        // settled entries are never replaced: every one stored is found
        let settled: Vec<u128> = keys.iter().step_by(3).copied().collect();
        let mut t = Table::of(2 * PROBES, 2 * PROBES);
        let stored: Vec<u128> = settled
            .into_iter()
            .filter(|&k| t.store(k, Numbers::PROVED))
            .collect();
        for (i, &k) in keys.iter().enumerate().filter(|(i, _)| i % 3 != 0) {
            t.store(k, open(i as u32 + 1));
        }
        assert!(stored.iter().all(|&k| t.get(k) == Some(Numbers::PROVED)));
        assert!(t.len() * 16 <= 2 * PROBES * FULL);
    }
}
