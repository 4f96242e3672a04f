//! The threat prover's table: proof and disproof numbers by position key,
//! in one flat array of [`BYTES_PER_SLOT`] a slot.
//!
//! It replaces a `HashMap`, which took about twice the bytes an entry
//! needs (a power of two of slots, under 7/8 full, a control byte each)
//! and, growing, held its old and new arrays at once: the run of h8 o14
//! peaked at 9.6 GB with `--max-memory 8GiB`.
//!
//! * **Fingerprints**: a slot holds a 96-bit *fingerprint* of the
//!   position's 128-bit key (a mix of both halves), the numbers and the
//!   entry's *work*: 24 bytes a slot rather than 28 with the whole key. Two keys with one fingerprint would
//!   share an entry: with `N` entries a lookup of a key not held meets a
//!   false one with chance about `N / 2⁹⁶`, under 10⁻¹⁷ at 3 × 10⁸ entries,
//!   so under 10⁻⁸ in a run of 10⁹ lookups (64 bits, 16-byte slots, would
//!   have made it about 1 in 60 such runs: a false settled entry could
//!   make `search` report a wrong value, which is why they are not used).
//!   Its high word is never 0 (0 marks the empty slot): one that would be
//!   is taken as 1.
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
//! * **Never a hole**: no entry lies after an empty slot on the way from
//!   its home, so a probe that meets an empty slot may stop there (an
//!   entry removed has the later entries of its run moved back).
//! * **Work**: the positions searched at and below the entry's position
//!   while its entry was written (summed over its searches, saturating
//!   at `u32::MAX`), as the prover tells [`Table::store`]: what losing
//!   the entry would cost to search again.
//! * **Ageing**: each time as many new keys as the table has slots have
//!   found it crowded (no empty slot in [`PROBES`] from their home) or
//!   15/16 full, every entry's work is halved (a table with room never
//!   ages), so that an entry the search
//!   has left (under an OR node proved by another move, say) wears down
//!   and makes room, while one it still works under is written again
//!   with its work grown.
//! * **Replacement** (the array at its largest): a new key whose first
//!   [`PROBES`] slots are all taken (or the table 15/16 full) replaces
//!   the entry not proved among the [`PROBES`] slots from its home with
//!   the least work (then the least proof plus disproof number): in
//!   place when it lies before the first empty slot, else the victim is
//!   removed and the key takes the empty slot. Disproved entries are
//!   replaced like open ones (with a horizon, a table can fill with
//!   entries disproved there, each worked out again from one
//!   expansion). With only proved entries there, the key takes the
//!   first empty slot further on, unless the table is 15/16 full: then
//!   it replaces the proved entry of least work in those slots, a proof
//!   *given up* ([`TableCounts::proofs_given_up`]). The prover proves
//!   such a position again where it needs it: a search that meets it
//!   missing works it out anew (from its expansion, and its children's
//!   entries, most of them still held), and the certificate's walk
//!   proves each piece it finds missing. Least work is what costs least
//!   to prove again, and most proved entries of a full table lie off the
//!   final proof (under positions later disproved, or moves not chosen).
//!   A key is never refused. Measured with tables that fill:
//!   h8 a1 i9 a4 o15 a3, proved in 2.0 M positions with room, is proved
//!   in 3.3 M positions with `--max-memory 56MiB` and in 3.2 M with
//!   24 MiB; h8 a1 i9 a2 (163,058 positions with room) in 182,169 with
//!   4 MiB, and without zones, in 384 KiB, in about 300 K. Chosen by the
//!   least proof plus disproof number instead (a forced line holds small
//!   numbers over a large search), the victims are such entries again
//!   and again while the search goes round them: h8 a1 i9 a4 o15 a3
//!   searches 30 M positions with 56 MiB without a proof; by work without
//!   ageing, too (the table fills with entries the search has left).

use crate::prove::proof_numbers::Numbers;

/// Bytes a slot takes: the fingerprint (three 32-bit words), the two
/// numbers and the work (one each).
pub const BYTES_PER_SLOT: u64 = 24;

/// The slots from its home in which a new key looks for an entry to
/// replace.
pub const PROBES: usize = 64;

/// The share of the slots (out of 16) that may be taken: past it, probes
/// grow long.
const FULL: usize = 15;

/// The slots of a new table (1.25 MiB).
pub const FIRST_SLOTS: usize = 1 << 16;

/// How much larger the array grows each time.
const GROWTH: usize = 8;

/// XORed into every key before it is mixed, so that the empty board's
/// key (0) does not mix to 0.
const SALT: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;

/// 96 bits of a position's key that identify it in the table (module
/// docs): `high` picks its home and is never 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fingerprint {
    pub high: u64,
    pub low: u32,
}

/// The fingerprint of a position's key (module docs). Checkpoints hold
/// fingerprints: a change here is a new checkpoint format version.
pub fn fingerprint(key: u128) -> Fingerprint {
    let s = key ^ SALT;
    let (lo, hi) = (s as u64, (s >> 64) as u64);
    // (the key is the least of its images' hashes: its high bits lean to
    // zero, its low ones do not; the multiply carries the low bits up to
    // the high ones the home is read from. `lo` is uniform whatever `hi`
    // is, so `high` and `low` together are 96 uniform bits.)
    let high = (lo ^ hi.rotate_left(32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    Fingerprint {
        high: high.max(1),
        low: hi as u32,
    }
}

/// A slot: `[high's low half, high's high half, low, proof, disproof,
/// work]`; high 0: empty. (Words of 32 bits: 24 bytes, and a zeroed array
/// comes untouched from the allocator.)
type Slot = [u32; 6];

fn slot_high(slot: &Slot) -> u64 {
    u64::from(slot[0]) | u64::from(slot[1]) << 32
}

fn slot_fingerprint(slot: &Slot) -> Fingerprint {
    Fingerprint {
        high: slot_high(slot),
        low: slot[2],
    }
}

fn slot_numbers(slot: &Slot) -> Numbers {
    Numbers {
        proof: slot[3],
        disproof: slot[4],
    }
}

fn slot_of(f: Fingerprint, n: Numbers, work: u32) -> Slot {
    [
        f.high as u32,
        (f.high >> 32) as u32,
        f.low,
        n.proof,
        n.disproof,
        work,
    ]
}

/// A table of numbers by key of a fixed number of slots.
pub struct Table {
    /// See [`Slot`].
    slots: Vec<Slot>,
    /// Slots taken.
    len: usize,
    /// New keys that found the table crowded or full since the works
    /// were last halved (module docs, "Ageing").
    since_ageing: usize,
    /// The most slots the array may have: its first size times a power
    /// of [`GROWTH`].
    max_slots: usize,
    /// What the table did, for progress reports.
    counts: TableCounts,
}

/// What a table did since it was made (for progress reports; growth and
/// checkpoint loads counted too).
#[derive(Clone, Copy, Debug, Default)]
pub struct TableCounts {
    /// Settled entries held.
    pub settled: usize,
    /// New keys that found the table crowded or 15/16 full.
    pub crowded: u64,
    /// Entries replaced or removed to make room.
    pub replaced: u64,
    /// Times every work was halved.
    pub ageings: u64,
    /// Proved entries given up to new keys in a full table (module docs,
    /// "Replacement").
    pub proofs_given_up: u64,
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
        let slots = vec![[0u32; 6]; slots];
        crate::memory::advise_huge_pages(&slots);
        Self {
            slots,
            len: 0,
            since_ageing: 0,
            max_slots,
            counts: TableCounts::default(),
        }
    }

    /// Slots the array has now.
    pub fn slots(&self) -> usize {
        self.slots.len()
    }

    /// What the table did (with the settled entries it holds).
    pub fn counts(&self) -> TableCounts {
        self.counts
    }

    #[cfg(test)]
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
            if slot_high(slot) != 0 {
                let i = larger
                    .find(slot_fingerprint(slot))
                    .expect_err("fingerprints are stored once");
                larger.slots[i] = *slot;
                larger.len += 1;
            }
        }
        larger.counts = self.counts;
        *self = larger;
    }

    /// The entries the table takes at its largest with a quarter of its
    /// slots left for a search to write (a checkpoint's share).
    pub fn room(&self) -> usize {
        self.max_slots / 4 * 3
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Every entry held, as (fingerprint, numbers, work), in slot order.
    pub fn entries(&self) -> impl Iterator<Item = (Fingerprint, Numbers, u32)> + '_ {
        self.slots
            .iter()
            .filter(|slot| slot_high(slot) != 0)
            .map(|slot| (slot_fingerprint(slot), slot_numbers(slot), slot[5]))
    }

    /// The home slot of a fingerprint: its high word onto the slots by a
    /// multiply (Lemire's reduction).
    fn home(&self, fingerprint: Fingerprint) -> usize {
        ((u128::from(fingerprint.high) * self.slots.len() as u128) >> 64) as usize
    }

    /// The slot of `fingerprint`, or `Err` with the first empty slot from
    /// its home on (there is one: the table is never full to the last
    /// slot).
    fn find(&self, fingerprint: Fingerprint) -> std::result::Result<usize, usize> {
        let mut i = self.home(fingerprint);
        loop {
            let slot = &self.slots[i];
            let high = slot_high(slot);
            if high == fingerprint.high && slot[2] == fingerprint.low {
                return Ok(i);
            }
            if high == 0 {
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
        self.get_fingerprint(fingerprint(key))
    }

    /// [`Self::get`] by the key's fingerprint.
    pub fn get_fingerprint(&self, fingerprint: Fingerprint) -> Option<Numbers> {
        self.entry(fingerprint).map(|(n, _)| n)
    }

    /// The numbers and work stored for a fingerprint.
    pub fn entry(&self, fingerprint: Fingerprint) -> Option<(Numbers, u32)> {
        let fingerprint = Fingerprint {
            high: fingerprint.high.max(1),
            ..fingerprint
        };
        self.find(fingerprint).ok().map(|i| {
            let slot = &self.slots[i];
            (slot_numbers(slot), slot[5])
        })
    }

    /// Stores `numbers` and `work` for `key` (module docs, "Work",
    /// "Replacement"); never refused.
    pub fn store(&mut self, key: u128, numbers: Numbers, work: u32) {
        self.store_fingerprint(fingerprint(key), numbers, work)
    }

    /// [`Self::store`] by the key's fingerprint (a checkpoint's entries).
    pub fn store_fingerprint(&mut self, fingerprint: Fingerprint, numbers: Numbers, work: u32) {
        if self.len * 4 >= self.slots.len() * 3 && self.can_grow() {
            self.grow();
        }
        let fingerprint = Fingerprint {
            high: fingerprint.high.max(1),
            ..fingerprint
        };
        let home = self.home(fingerprint);
        let entry = slot_of(fingerprint, numbers, work);
        let empty = match self.find(fingerprint) {
            Ok(i) => {
                let was = usize::from(slot_numbers(&self.slots[i]).settled());
                self.counts.settled = self.counts.settled - was + usize::from(numbers.settled());
                self.slots[i] = entry;
                return;
            }
            Err(empty) => empty,
        };
        // (every way on stores the new key: an entry not proved replaced,
        // or in a full table with none near, the proof of least work)
        let settled = usize::from(numbers.settled());
        let distance = (empty + self.slots.len() - home) % self.slots.len();
        let full = self.len * 16 >= self.slots.len() * FULL;
        if distance < PROBES && !full {
            self.len += 1;
            self.counts.settled += settled;
            self.slots[empty] = entry;
            return;
        }
        self.counts.crowded += 1;
        self.since_ageing += 1;
        if self.since_ageing >= self.slots.len() {
            self.age();
        }
        if self.can_grow() {
            // room to grow: grow rather than replace
            self.grow();
            return self.store_fingerprint(fingerprint, numbers, work);
        }
        let victim = match self.replaceable_from(home) {
            None if full => self.least_worked_from(home),
            victim => victim,
        };
        let Some((_, _, i)) = victim else {
            // a crowded key in a table not full: the first empty slot
            self.len += 1;
            self.counts.settled += settled;
            self.slots[empty] = entry;
            return;
        };
        self.counts.replaced += 1;
        if slot_numbers(&self.slots[i]).proof == 0 {
            self.counts.proofs_given_up += 1;
        }
        self.forget_settled(i);
        if (i + self.slots.len() - home) % self.slots.len() < distance {
            // before the first empty slot: the key is found there
            self.slots[i] = entry;
        } else {
            // past it (the table 15/16 full): the victim's slot is emptied
            // and the key takes the first empty slot from its home
            self.remove_at(i);
            let empty = self
                .find(fingerprint)
                .expect_err("the key is not in the table");
            self.len += 1;
            self.slots[empty] = entry;
        }
        self.counts.settled += settled;
    }

    /// The entry to replace for a key whose home is `home` (module docs,
    /// "Replacement"): (least work, least proof + disproof, its slot)
    /// among the entries not proved of the [`PROBES`] slots from the
    /// home; `None` when they hold none.
    fn replaceable_from(&self, home: usize) -> Option<(u32, u64, usize)> {
        let n = self.slots.len();
        (0..PROBES.min(n))
            .map(|d| (home + d) % n)
            .filter_map(|i| {
                let slot = &self.slots[i];
                let held = slot_numbers(slot);
                let numbers = u64::from(held.proof) + u64::from(held.disproof);
                (slot_high(slot) != 0 && held.proof != 0).then_some((slot[5], numbers, i))
            })
            .min()
    }

    /// The entry of least work, proved or not, among the first [`PROBES`]
    /// slots from `home` on that hold any (module docs, "Replacement":
    /// a full table with nothing replaceable near the home); `None` only
    /// for an empty table.
    fn least_worked_from(&self, home: usize) -> Option<(u32, u64, usize)> {
        let n = self.slots.len();
        (0..n).step_by(PROBES).find_map(|start| {
            (start..(start + PROBES).min(n))
                .map(|d| (home + d) % n)
                .filter(|&i| slot_high(&self.slots[i]) != 0)
                .map(|i| (self.slots[i][5], 0, i))
                .min()
        })
    }

    /// Takes slot `i`'s entry, about to be replaced, out of the settled
    /// count if it is settled (disproved, or a proof given up).
    fn forget_settled(&mut self, i: usize) {
        self.counts.settled -= usize::from(slot_numbers(&self.slots[i]).settled());
    }

    /// Removes every disproved entry, returning how many: a wider
    /// horizon may prove what a narrower one disproved
    /// ([`super::ThreatProver::set_horizon`]). Proved and open entries
    /// stay where they are or move back in their runs.
    pub fn forget_disproved(&mut self) -> usize {
        let mut removed = 0;
        let mut i = 0;
        while i < self.slots.len() {
            let slot = &self.slots[i];
            if slot_high(slot) != 0 && slot_numbers(slot).disproof == 0 {
                self.forget_settled(i);
                self.remove_at(i);
                removed += 1;
                // slot i again: a later entry of its run may have moved
                // there (entries move back only into holes from i on, so
                // none not yet looked at moves before i)
            } else {
                i += 1;
            }
        }
        removed
    }

    /// Halves every entry's work (module docs, "Ageing").
    fn age(&mut self) {
        for slot in &mut self.slots {
            slot[5] /= 2;
        }
        self.since_ageing = 0;
        self.counts.ageings += 1;
    }

    /// Empties slot `i`, moving later entries of its run back so that each
    /// stays after its home with no empty slot between (the deletion of
    /// linear probing: an entry moves back to the hole when the hole lies
    /// between its home and its slot).
    fn remove_at(&mut self, mut hole: usize) {
        let n = self.slots.len();
        let mut j = hole;
        loop {
            j = (j + 1) % n;
            let slot = self.slots[j];
            if slot_high(&slot) == 0 {
                break;
            }
            let home = self.home(slot_fingerprint(&slot));
            if (j + n - home) % n >= (j + n - hole) % n {
                self.slots[hole] = slot;
                hole = j;
            }
        }
        self.slots[hole] = [0; 6];
        self.len -= 1;
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
    fn forgetting_disproved_entries_keeps_every_other_findable() {
        // a small table crowded into long runs, wrapping at the end
        let mut t = Table::of(1 << 10, 1 << 10);
        let numbers = |k: u128| match k % 3 {
            0 => Numbers::DISPROVED,
            1 => Numbers::PROVED,
            _ => open(k as u32 % 50 + 1),
        };
        for k in 0..720u128 {
            t.store(k * 7919, numbers(k), k as u32);
        }
        assert_eq!((t.len(), t.counts().replaced), (720, 0));
        let settled = t.counts().settled;
        assert_eq!(t.forget_disproved(), 240);
        assert_eq!(t.len(), 480);
        assert_eq!(t.counts().settled, settled - 240);
        for k in 0..720u128 {
            let kept = (k % 3 != 0).then(|| numbers(k));
            assert_eq!(t.get(k * 7919), kept, "key {k}");
        }
    }

    #[test]
    fn keys_come_back_and_the_empty_board_key_is_a_key() {
        let mut t = Table::within(1 << 16);
        assert_eq!(t.get(0), None);
        t.store(0, Numbers::PROVED, 1);
        t.store(12345, open(3), 1);
        t.store(12345, open(4), 1);
        assert_eq!(t.get(0), Some(Numbers::PROVED));
        assert_eq!(t.get(12345), Some(open(4)));
        assert_eq!(t.len(), 2);
        assert!(t.bytes() <= 1 << 16);
    }

    #[test]
    fn fingerprints_are_pinned_since_checkpoints_hold_them() {
        // a change of the mix makes every checkpoint's entries unfindable:
        // it must come with a new checkpoint format version
        let pinned = [
            (0, 0xcfdc_453c_2fb2_dc91, 0x7f4a_7c15),
            (
                0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
                0x82db_a5d4_9de6_6a82,
                0xf6e1_b1fa,
            ),
        ];
        for (key, high, low) in pinned {
            assert_eq!(fingerprint(key), Fingerprint { high, low });
        }
    }

    #[test]
    fn entries_by_fingerprint_fill_another_table_alike() {
        // (a checkpoint carries fingerprints, not keys)
        assert_ne!(fingerprint(0).high, 0);
        assert_ne!(fingerprint(0), fingerprint(1));
        let mut t = Table::within(1 << 20);
        let keys: Vec<u128> = (0..5_000u128)
            .map(|i| (i * 0x1234_5678_9abc_def1) << 3)
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, open(i as u32 + 1), 1);
        }
        let mut copy = Table::within(1 << 22);
        for (f, n, w) in t.entries() {
            copy.store_fingerprint(f, n, w);
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
            t.store(k, open(i as u32 + 1), 1);
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
                t.store(key, n, 1);
                assert_eq!(t.get(key), Some(n), "seed {seed}, key {i}");
            }
        }
    }

    #[test]
    fn a_full_table_takes_every_key_while_unsettled_entries_are_near() {
        for seed in 1..=20u128 {
            let mut t = Table::of(1 << 12, 1 << 12);
            let key = |i: u128| (i * 0x1234_5678_9abc_def1 * seed) ^ (seed << 70);
            // a tenth settled, the rest open: far more keys than slots
            let mut kept_settled = Vec::new();
            for i in 1..=20_000u128 {
                let n = if i % 10 == 0 {
                    Numbers::PROVED
                } else {
                    open(i as u32)
                };
                t.store(key(i), n, 1);
                assert_eq!(t.get(key(i)), Some(n), "seed {seed}, key {i}");
                if n.settled() {
                    kept_settled.push(key(i));
                }
                assert!(t.len() * 16 <= t.slots.len() * FULL + 16);
            }
            // every settled entry stays, every entry is reachable
            assert!(kept_settled
                .iter()
                .all(|&k| t.get(k) == Some(Numbers::PROVED)));
            assert_eq!(t.entries().count(), t.len());
            for (f, n, _) in t.entries() {
                assert_eq!(t.find(f).map(|i| slot_numbers(&t.slots[i])), Ok(n));
            }
            assert_eq!(t.counts().settled, settled_held(&t), "seed {seed}");
            assert!(t.counts().replaced > 0 && t.counts().crowded >= t.counts().replaced);
        }
    }

    fn settled_held(t: &Table) -> usize {
        t.entries().filter(|(_, n, _)| n.settled()).count()
    }

    #[test]
    fn the_settled_count_follows_stores_and_growth() {
        let mut t = Table::of(FIRST_SLOTS, FIRST_SLOTS * GROWTH);
        let key = |i: u128| i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
        for i in 1..=100_000u128 {
            // open first, settled when stored again, settled kept
            t.store(key(i), open(3), 1);
            if i % 3 == 0 {
                t.store(key(i / 3), Numbers::DISPROVED, 0);
            }
            if i % 5 == 0 {
                t.store(key(i / 5), Numbers::PROVED, 0);
            }
        }
        assert_eq!(t.slots.len(), FIRST_SLOTS * GROWTH, "it grew");
        assert_eq!(t.counts().settled, settled_held(&t));
        assert!(t.counts().settled > 30_000);
    }

    #[test]
    fn a_full_table_replaces_the_least_searched_and_counts_the_settled() {
        // the smallest table: 128 slots, so 200 keys crowd it
        let mut t = Table::of(2 * PROBES, 2 * PROBES);
        let keys: Vec<u128> = (1..=200u128).map(|i| i * 0x1234_5678_9abc_def1).collect();
        for (i, &k) in keys.iter().enumerate() {
            let n = if i % 3 == 0 {
                Numbers::PROVED
            } else {
                open(i as u32 + 1)
            };
            t.store(k, n, 1);
        }
        // whatever is found is what was stored for that key
        for (i, &k) in keys.iter().enumerate() {
            if let Some(n) = t.get(k) {
                assert!(n == Numbers::PROVED || n == open(i as u32 + 1));
                assert_eq!(n.settled(), i % 3 == 0);
            }
        }
        assert!(t.len() * 16 <= 2 * PROBES * FULL);
        assert_eq!(t.counts().settled, settled_held(&t));
    }

    #[test]
    fn a_full_table_of_proofs_gives_up_the_least_worked_and_takes_every_key() {
        // (the gomoku class j8 stopped with "the table is full": all its
        // 94.0 M entries settled, nearly all proved)
        for seed in 1..=20u128 {
            let slots = 4 * PROBES;
            let mut t = Table::of(slots, slots);
            let key = |i: u128| (i * 0x1234_5678_9abc_def1 * seed) ^ (seed << 70);
            let full = slots * FULL / 16;
            // proved only, works 2 to 9
            let work = |i: u128| 2 + (i % 8) as u32;
            for i in 0..full as u128 {
                t.store(key(i), Numbers::PROVED, work(i));
            }
            assert_eq!(t.len(), full);
            for i in 0..100u128 {
                t.store(key(2_000 + i), open(9), 1);
                assert_eq!(t.get(key(2_000 + i)), Some(open(9)), "seed {seed}");
                assert_eq!(t.len(), full);
            }
            let given_up = t.counts().proofs_given_up;
            assert!(given_up > 0 && given_up <= 100, "seed {seed}: {given_up}");
            assert_eq!(t.counts().settled, settled_held(&t), "seed {seed}");
            assert_eq!(settled_held(&t) as u64, full as u64 - given_up);
            // the most worked outlast the least
            let kept = |w: u32| {
                (0..full as u128)
                    .filter(|&i| work(i) == w && t.get(key(i)).is_some())
                    .count()
            };
            assert!(kept(9) > kept(2), "seed {seed}: {} {}", kept(9), kept(2));
        }
    }

    #[test]
    fn the_proofs_of_least_work_are_given_up_first() {
        // (a position the rules prove, of no work, is worked out again
        // from one expansion; one proved by a search costs that search)
        for seed in 1..=20u128 {
            let slots = 4 * PROBES;
            let mut t = Table::of(slots, slots);
            let key = |i: u128| (i * 0x1234_5678_9abc_def1 * seed) ^ (seed << 70);
            let full = slots * FULL / 16;
            // every fourth proved by the rules (no work), the rest searched
            let work = |i: u128| if i.is_multiple_of(4) { 0 } else { 3 };
            for i in 0..full as u128 {
                t.store(key(i), Numbers::PROVED, work(i));
            }
            // (a proof crowded out while filling takes a slot further on)
            assert_eq!(t.len(), full);
            for i in 0..10u128 {
                t.store(key(2_000 + i), open(9), 1);
                assert_eq!(t.get(key(2_000 + i)), Some(open(9)));
            }
            let given_up = t.counts().proofs_given_up;
            assert!((1..=10).contains(&given_up), "seed {seed}: {given_up}");
            assert!((0..full as u128)
                .filter(|&i| work(i) > 0)
                .all(|i| t.get(key(i)) == Some(Numbers::PROVED)));
        }
    }

    #[test]
    fn a_full_table_of_settled_entries_replaces_the_disproved_ones() {
        // (with a horizon, the gomoku class k8 filled its table with
        // settled entries, most of them disproved at the horizon: cheap
        // to work out again, and not part of any certificate)
        for seed in 1..=20u128 {
            let slots = 4 * PROBES;
            let mut t = Table::of(slots, slots);
            let key = |i: u128| (i * 0x1234_5678_9abc_def1 * seed) ^ (seed << 70);
            let full = slots * FULL / 16;
            // settled only: every other one proved, the rest disproved
            let settled = |i: u128| {
                if i.is_multiple_of(2) {
                    Numbers::PROVED
                } else {
                    Numbers::DISPROVED
                }
            };
            for i in 0..full as u128 {
                t.store(key(i), settled(i), 0);
            }
            // open keys take the disproved entries' places; the proved stay
            for i in 0..full as u128 / 4 {
                t.store(key(10_000 + i), open(3), 1);
                assert_eq!(t.get(key(10_000 + i)), Some(open(3)));
            }
            assert!((0..full as u128)
                .step_by(2)
                .all(|i| t.get(key(i)) == Some(Numbers::PROVED)));
            assert_eq!(t.counts().settled, settled_held(&t), "seed {seed}");
            assert!(settled_held(&t) < full);
        }
    }

    #[test]
    fn a_full_table_keeps_the_most_worked_until_ageing_wears_it_down() {
        let mut t = Table::of(2 * PROBES, 2 * PROBES);
        let keys: Vec<u128> = (1..=100_000u128)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835))
            .collect();
        // one entry of much work among many of little: it outlives
        // every store of the next slots' worth (no ageing yet)
        t.store(keys[0], open(5), 1_000);
        for &k in &keys[1..2 * PROBES - 10] {
            t.store(k, open(5), 1);
        }
        assert_eq!(t.get(keys[0]), Some(open(5)));
        // each slots' worth of stores halves the works: 1,000 wears down
        // to the others' 1 in ten, and the entry is then replaced
        for &k in &keys[2 * PROBES..] {
            t.store(k, open(5), 1);
        }
        assert_eq!(t.get(keys[0]), None);
    }
}
