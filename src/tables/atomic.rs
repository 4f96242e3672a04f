//! The shared tables of a parallel solve: the claim-once 2-bit value table,
//! the per-state move counters and the depth array.
//!
//! These are the only places where workers share memory; everything else a
//! worker touches is its own. All atomics here use `Relaxed` ordering: within
//! a level only the *atomicity* of a read-modify-write matters (exactly one
//! worker claims a state, exactly one sees a counter reach its mark), and
//! between levels rayon's join publishes every write before the next level
//! reads it.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};

use crate::game::table::code;

/// Low bit of each of the 32 two-bit slots of a word.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// 2-bit values (see [`crate::game::table`]) that workers claim exactly once.
pub struct ClaimTable {
    words: Vec<AtomicU64>,
    states: usize,
}

impl ClaimTable {
    /// All `states` unknown.
    pub fn new(states: usize) -> Self {
        let words = (0..states.div_ceil(32))
            .map(|_| AtomicU64::new(0))
            .collect();
        Self { words, states }
    }

    #[inline]
    fn slot(state: u64) -> (usize, u32) {
        ((state / 32) as usize, 2 * (state % 32) as u32)
    }

    /// The current code of `state` (`code::UNKNOWN` if not yet decided).
    #[inline]
    pub fn get(&self, state: u64) -> u64 {
        let (word, shift) = Self::slot(state);
        (self.words[word].load(Relaxed) >> shift) & 0b11
    }

    /// Whether `state` already has a value.
    #[inline]
    pub fn is_decided(&self, state: u64) -> bool {
        self.get(state) != code::UNKNOWN
    }

    /// Sets `state` to `value` if it was unknown. Returns `true` for exactly
    /// one caller per state: the old bits returned by the atomic `fetch_or`
    /// say whether someone else got there first. A plain load first skips
    /// the read-modify-write for states decided at an earlier level.
    ///
    /// Contract: every claim of one state within a solve carries the same
    /// value (the solver guarantees it: a state with a losing child never has
    /// its counter run out), so a claim that comes second leaves the value as
    /// it was.
    #[inline]
    pub fn try_claim(&self, state: u64, value: u64) -> bool {
        debug_assert!(value != code::UNKNOWN && value <= code::DRAW);
        let (word, shift) = Self::slot(state);
        let slot = &self.words[word];
        if (slot.load(Relaxed) >> shift) & 0b11 != code::UNKNOWN {
            return false;
        }
        let old = (slot.fetch_or(value << shift, Relaxed) >> shift) & 0b11;
        debug_assert!(
            old == code::UNKNOWN || old == value,
            "state {state} claimed with two values"
        );
        old == code::UNKNOWN
    }

    /// Ends the solve: every state still unknown becomes a draw; returns the
    /// plain words, zero past the last state.
    pub fn into_words_with_draws(self) -> Vec<u64> {
        let states = self.states;
        let mut words: Vec<u64> = self.words.into_iter().map(AtomicU64::into_inner).collect();
        let last = words.len().wrapping_sub(1);
        for (i, word) in words.iter_mut().enumerate() {
            let valid = if i == last && !states.is_multiple_of(32) {
                LOW_BITS & ((1u64 << (2 * (states % 32))) - 1)
            } else {
                LOW_BITS
            };
            let unknown = !(*word | (*word >> 1)) & valid;
            *word |= unknown | (unknown << 1);
        }
        words
    }
}

/// A per-state counter of a state's moves already known to lose, i.e. to
/// lead to a position the opponent wins. The state's remaining-moves count is
/// `move_count − counter`; it is stored this way round so that the counter
/// table starts as zeroed memory and no pass over all states is needed to
/// initialise it. The width is chosen from the game's largest move count.
pub trait MoveCounter: Sync + Send + Sized {
    /// `len` counters at zero, from zeroed (lazily mapped) memory.
    fn zeroed(len: usize) -> Vec<Self>;
    /// Adds one and returns the new count. Contract: never called more often
    /// than `MAX` times for one counter.
    fn bump(&self) -> u32;
}

macro_rules! move_counter {
    ($atomic:ty, $plain:ty) => {
        impl MoveCounter for $atomic {
            fn zeroed(len: usize) -> Vec<Self> {
                zeroed_atomics::<$plain, $atomic>(len)
            }

            #[inline]
            fn bump(&self) -> u32 {
                u32::from(self.fetch_add(1, Relaxed)) + 1
            }
        }
    };
}

move_counter!(AtomicU8, u8);
move_counter!(AtomicU16, u16);
move_counter!(AtomicU32, u32);

/// `len` zeroed depths, shared by the workers (each written only by the
/// worker that claimed its state).
pub fn zeroed_depths(len: usize) -> Vec<AtomicU32> {
    zeroed_atomics::<u32, AtomicU32>(len)
}

/// `len` zeroed 64-bit words, mapped only when first touched.
pub fn zeroed_words(len: usize) -> Vec<AtomicU64> {
    zeroed_atomics::<u64, AtomicU64>(len)
}

/// Returns the plain depths once the solve is over.
pub fn into_plain_depths(depths: Vec<AtomicU32>) -> Vec<u32> {
    depths.into_iter().map(AtomicU32::into_inner).collect()
}

/// A `Vec<A>` of zeros built from `vec![0; len]`, which the allocator serves
/// with zeroed pages that are only mapped when first touched. Only
/// instantiated (by the macro and `zeroed_depths`) for `(P, A)` pairs where
/// `A` is the atomic version of the integer `P`.
fn zeroed_atomics<P: Copy + Default + 'static, A>(len: usize) -> Vec<A> {
    assert!(std::mem::size_of::<P>() == std::mem::size_of::<A>());
    assert!(std::mem::align_of::<P>() == std::mem::align_of::<A>());
    let plain: Vec<P> = vec![P::default(); len];
    let mut plain = std::mem::ManuallyDrop::new(plain);
    // SAFETY: `A` is the atomic type of the integer `P` (the only callers
    // are above): the standard library documents that it has the same size
    // and bit validity, and the asserts check the alignment, so the
    // allocation is a valid `Vec<A>` of zeros with the same layout, and
    // ownership moves to the new Vec (the old one is never dropped).
    unsafe {
        Vec::from_raw_parts(
            plain.as_mut_ptr().cast::<A>(),
            plain.len(),
            plain.capacity(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_claimed_once() {
        let claims = ClaimTable::new(70);
        assert!(claims.try_claim(33, code::WIN));
        assert!(!claims.try_claim(33, code::WIN));
        assert!(claims.try_claim(34, code::LOSS));
        assert_eq!(claims.get(33), code::WIN);
        assert_eq!(claims.get(34), code::LOSS);
        assert!(!claims.is_decided(35));
        let words = claims.into_words_with_draws();
        assert_eq!(words.len(), 3);
        // slots 64..70 are draws, the rest of the last word stays zero
        assert_eq!(words[2], (1u64 << 12) - 1);
        assert_eq!((words[1] >> 2) & 0b11, code::WIN);
    }

    #[test]
    fn counters_count_from_zero() {
        let counters = AtomicU8::zeroed(5);
        assert_eq!(counters[3].bump(), 1);
        assert_eq!(counters[3].bump(), 2);
        assert_eq!(counters[2].bump(), 1);
        let depths = zeroed_depths(4);
        depths[1].store(9, Relaxed);
        assert_eq!(into_plain_depths(depths), vec![0, 9, 0, 0]);
    }
}
