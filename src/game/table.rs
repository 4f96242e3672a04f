//! The outcome table: the exact result of a solve.
//!
//! Two bits a state in a `bitvec` (state `s` owns bits `2s` and `2s + 1`,
//! least significant first, so 32 states share a `u64` word) and one `u32`
//! depth a state.
//!
//! ```text
//!   word w, Lsb0:  bit 63 … 2 1 0
//!                  [s=32w+31] … [s=32w+1][s=32w]     each [..] = 2 bits
//!   code: 00 unknown · 01 win · 10 loss · 11 draw    (for the player to move)
//! ```
//!
//! This table is exact, never lossy: every state is labelled by the solver,
//! and every count printed comes from it.
//!
//! Invariants of a finished table: no state is `unknown`; `depth(s)` is the
//! number of plies to the end under perfect play (the winner hurries, the
//! loser delays) for won and lost states, 0 for terminal states, and the
//! stored depth of a drawn state is 0 and means nothing.

use bitvec::prelude::*;

use crate::game::Outcome;
use crate::memory::Bytes;

/// The 2-bit codes of the value table.
pub(crate) mod code {
    /// Not labelled yet (only during a solve).
    pub const UNKNOWN: u64 = 0b00;
    /// The player to move wins.
    pub const WIN: u64 = 0b01;
    /// The player to move loses.
    pub const LOSS: u64 = 0b10;
    /// Neither side can force a win.
    pub const DRAW: u64 = 0b11;

    /// The code of `outcome`.
    pub fn of(outcome: crate::game::Outcome) -> u64 {
        match outcome {
            crate::game::Outcome::Win => WIN,
            crate::game::Outcome::Loss => LOSS,
            crate::game::Outcome::Draw => DRAW,
        }
    }
}

/// Bit `2i` set for every state slot `i` of a word.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;
/// Low bits of the even state slots only (states with an even index).
const EVEN_SLOTS: u64 = 0x1111_1111_1111_1111;

/// How many states of a table (or of a part of it) are won, lost and drawn
/// for the player to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// States whose mover wins.
    pub win: u64,
    /// States whose mover loses.
    pub loss: u64,
    /// Drawn states.
    pub draw: u64,
}

impl Counts {
    /// All states counted.
    pub fn total(&self) -> u64 {
        self.win + self.loss + self.draw
    }

    fn add_word(&mut self, word: u64, slots: u64) {
        let lo = word & slots;
        let hi = (word >> 1) & slots;
        self.win += (lo & !hi).count_ones() as u64;
        self.loss += (hi & !lo).count_ones() as u64;
        self.draw += (lo & hi).count_ones() as u64;
    }
}

/// Bit `i` of `bits` (the low 32) moved to bit `2i`.
fn spread_to_even_bits(bits: u64) -> u64 {
    let mut x = bits & 0xffff_ffff;
    x = (x | (x << 16)) & 0x0000_ffff_0000_ffff;
    x = (x | (x << 8)) & 0x00ff_00ff_00ff_00ff;
    x = (x | (x << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | (x << 2)) & 0x3333_3333_3333_3333;
    (x | (x << 1)) & LOW_BITS
}

/// Win / loss / draw and depth of every state of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeTable {
    values: BitVec<u64, Lsb0>,
    depths: Vec<u32>,
}

impl OutcomeTable {
    /// Wraps finished solver output. Contract: `words` holds `2 · depths.len()`
    /// meaningful bits, no state is `unknown`, and the bits past the last
    /// state are zero.
    pub(crate) fn from_parts(words: Vec<u64>, depths: Vec<u32>) -> Self {
        let states = depths.len();
        let mut values = BitVec::from_vec(words);
        values.truncate(2 * states);
        debug_assert!(values
            .chunks(2)
            .all(|c| c.load_le::<u64>() != code::UNKNOWN));
        Self { values, depths }
    }

    /// Number of states.
    pub fn states(&self) -> u64 {
        self.depths.len() as u64
    }

    /// The value of `state` for the player to move.
    #[inline]
    pub fn outcome(&self, state: u64) -> Outcome {
        let bits = &self.values[2 * state as usize..2 * state as usize + 2];
        match bits.load_le::<u64>() {
            code::WIN => Outcome::Win,
            code::LOSS => Outcome::Loss,
            _ => Outcome::Draw,
        }
    }

    /// Plies to the end under perfect play, `None` for a drawn state.
    #[inline]
    pub fn depth(&self, state: u64) -> Option<u32> {
        match self.outcome(state) {
            Outcome::Draw => None,
            _ => Some(self.depths[state as usize]),
        }
    }

    /// The raw depth array (drawn states hold 0).
    pub fn depths(&self) -> &[u32] {
        &self.depths
    }

    /// The raw 2-bit value words (see the module docs for the layout).
    pub fn value_words(&self) -> &[u64] {
        self.values.as_raw_slice()
    }

    /// Win / loss / draw totals over all states, by popcount of the words.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for &word in self.value_words() {
            counts.add_word(word, LOW_BITS);
        }
        counts
    }

    /// Totals over the states whose bit is set in `marks` (one bit a
    /// state, little-endian within a word; at least a bit for every state).
    pub fn counts_marked(&self, marks: &[u64]) -> Counts {
        let mut counts = Counts::default();
        for (i, &word) in self.value_words().iter().enumerate() {
            let half = (marks[i / 2] >> (32 * (i % 2))) & 0xffff_ffff;
            counts.add_word(word, spread_to_even_bits(half));
        }
        counts
    }

    /// Totals over the states of even index (`[0]`) and of odd index (`[1]`).
    /// For a mixed-radix game whose last digit is the side to move, these are
    /// the totals per side to move.
    pub fn counts_by_parity(&self) -> [Counts; 2] {
        let mut even = Counts::default();
        let mut odd = Counts::default();
        for &word in self.value_words() {
            even.add_word(word, EVEN_SLOTS);
            odd.add_word(word >> 2, EVEN_SLOTS);
        }
        [even, odd]
    }

    /// The number of levels of the solve: the deepest won or lost state's
    /// depth plus one (0 if every state is drawn).
    pub fn levels(&self) -> u32 {
        (0..self.states())
            .filter(|&s| self.outcome(s) != Outcome::Draw)
            .map(|s| self.depths[s as usize] + 1)
            .max()
            .unwrap_or(0)
    }

    /// A checksum of the values and depths.
    pub fn checksum(&self) -> u64 {
        let mut sum = crate::checksum::Checksum::default();
        sum.words(self.value_words());
        for pair in self.depths.chunks(2) {
            sum.words(&[u64::from(pair[0]) | u64::from(*pair.get(1).unwrap_or(&0)) << 32]);
        }
        sum.words(&[self.states()]).value()
    }

    /// Bytes held by the table.
    pub fn heap_bytes(&self) -> u64 {
        (self.value_words().len() * 8 + self.depths.len() * 4) as u64
    }
}

/// Width in bytes of the move counters for a game whose states have at most
/// `max_moves` moves.
pub(crate) fn counter_bytes(max_moves: u32) -> u64 {
    if max_moves <= u32::from(u8::MAX) {
        1
    } else if max_moves <= u32::from(u16::MAX) {
        2
    } else {
        4
    }
}

/// Bytes a retrograde solve (`crate::tables::retrograde`) of `states` states with at most `max_moves` moves a state
/// allocates at its peak: values (2 bits), depth (4 bytes), counter (1, 2 or
/// 4 bytes) and frontiers (8 bytes: the current and next frontier are
/// disjoint sets of states, so together they hold at most one 4-byte entry
/// a state, and the workers' growing buffers may hold up to twice what they
/// use — measured on a complete 2,000-node graph, where 4 bytes fell short).
pub fn retrograde_bytes(states: u64, max_moves: u32) -> Bytes {
    retrograde_bytes_deciding(states, max_moves, states)
}

/// [`retrograde_bytes`] for a solve that decides at most `decided` of its
/// states (the frontiers hold only those): a game numbered by a loose rank
/// has many more states than positions.
pub fn retrograde_bytes_deciding(states: u64, max_moves: u32, decided: u64) -> Bytes {
    let per_state = 4 + counter_bytes(max_moves);
    let values = states.div_ceil(32) * 8;
    Bytes(
        states
            .saturating_mul(per_state)
            .saturating_add(decided.saturating_mul(8))
            .saturating_add(values),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table_of(codes: &[u64]) -> OutcomeTable {
        let mut words = vec![0u64; codes.len().div_ceil(32)];
        for (s, &c) in codes.iter().enumerate() {
            words[s / 32] |= c << (2 * (s % 32));
        }
        OutcomeTable::from_parts(words, vec![7; codes.len()])
    }

    #[test]
    fn outcomes_and_counts_read_the_codes() {
        let codes: Vec<u64> = (0..77).map(|i| [1, 2, 3, 1, 1][i % 5]).collect();
        let table = table_of(&codes);
        assert_eq!(table.states(), 77);
        for (s, &c) in codes.iter().enumerate() {
            let expected = [Outcome::Draw, Outcome::Win, Outcome::Loss, Outcome::Draw][c as usize];
            assert_eq!(table.outcome(s as u64), expected);
        }
        let count = |c: u64, parity: Option<usize>| {
            codes
                .iter()
                .enumerate()
                .filter(|&(s, &x)| x == c && parity.is_none_or(|p| s % 2 == p))
                .count() as u64
        };
        let all = table.counts();
        assert_eq!(
            (all.win, all.loss, all.draw),
            (count(1, None), count(2, None), count(3, None))
        );
        for (p, c) in table.counts_by_parity().into_iter().enumerate() {
            assert_eq!(
                (c.win, c.loss, c.draw),
                (count(1, Some(p)), count(2, Some(p)), count(3, Some(p)))
            );
        }
        assert_eq!(table.depth(2), None);
        assert_eq!(table.depth(0), Some(7));
    }
}
