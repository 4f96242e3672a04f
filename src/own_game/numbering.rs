//! How a user game's positions are numbered as the retrograde pass's
//! states: by their sorted keys ([`KeyIndex`]), or by the rules' own dense
//! rank ([`Rules::rank`], when [`Rules::RANKED`]).
//!
//! Invariant: a state's position, if it has one, is canonical, and
//! `find(position(s)) == Some(s)`. With keys every state is a position the
//! start reaches; with ranks a state may be a rank no position has, or a
//! position the start does not reach ([`Numbering::reached`] tells).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::index::KeyIndex;
use super::{canonical, Key, Rules};
use crate::game::table::{Counts, OutcomeTable};

/// The states of a user game.
pub enum Numbering<P> {
    /// The positions the start reaches, sorted: a position's state is its
    /// rank among them.
    Keys(KeyIndex<P>),
    /// Every rank below [`Rules::ranks`] is a state, with the ranks the
    /// start reaches marked.
    Ranks(RankSet),
}

/// The ranks the start reaches: one bit a rank.
///
/// Invariant: `words` has `ranks.div_ceil(64)` words, no bit set past
/// `ranks`, and `count` bits set.
pub struct RankSet {
    ranks: u64,
    words: Vec<u64>,
    count: u64,
}

impl RankSet {
    /// The reached set of `ranks` ranks held in `words` (a bit a rank,
    /// little-endian within a word); `None` if `words` is not that long or
    /// has a bit set past the last rank.
    pub fn from_words(ranks: u64, words: Vec<u64>) -> Option<Self> {
        if words.len() as u64 != ranks.div_ceil(64) {
            return None;
        }
        let used = ranks % 64;
        if used != 0 && words.last().is_some_and(|&w| w >> used != 0) {
            return None;
        }
        let count = words.par_iter().map(|w| u64::from(w.count_ones())).sum();
        Some(Self {
            ranks,
            words,
            count,
        })
    }

    /// A set of `ranks` ranks that are marked concurrently ([`Marks`]).
    pub fn marks(ranks: u64) -> Marks {
        Marks {
            ranks,
            words: (0..ranks.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Whether `rank` is reached.
    #[inline]
    pub fn contains(&self, rank: u64) -> bool {
        rank < self.ranks && self.words[(rank / 64) as usize] >> (rank % 64) & 1 == 1
    }

    /// The bits, a word at a time.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Ranks marked.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Every marked rank, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.words
            .iter()
            .enumerate()
            .flat_map(|(w, &word)| ranks_in_word(w, word))
    }

    /// Every marked rank, in parallel (in increasing order for a consumer
    /// that keeps order, as `find_first` does).
    pub fn par_iter(&self) -> impl ParallelIterator<Item = u64> + '_ {
        self.words
            .par_iter()
            .enumerate()
            .flat_map_iter(|(w, &word)| ranks_in_word(w, word))
    }
}

/// The ranks marked in word `w` of a [`RankSet`], whose bits are `word`.
fn ranks_in_word(w: usize, word: u64) -> impl Iterator<Item = u64> {
    let mut bits = word;
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            w as u64 * 64 + u64::from(bit)
        })
    })
}

/// A set of ranks being marked by many threads.
pub struct Marks {
    ranks: u64,
    words: Vec<AtomicU64>,
}

impl Marks {
    /// Marks `rank`; whether it was not marked before.
    #[inline]
    pub fn mark(&self, rank: u64) -> bool {
        let bit = 1u64 << (rank % 64);
        self.words[(rank / 64) as usize].fetch_or(bit, Relaxed) & bit == 0
    }

    /// The marks, done.
    pub fn done(self) -> RankSet {
        let words = self.words.into_iter().map(AtomicU64::into_inner).collect();
        RankSet::from_words(self.ranks, words).expect("marks within the ranks")
    }
}

impl<P: Key> Numbering<P> {
    /// Number of states.
    pub fn states(&self) -> u64 {
        match self {
            Numbering::Keys(index) => index.len(),
            Numbering::Ranks(reached) => reached.ranks,
        }
    }

    /// Number of positions the start reaches.
    pub fn positions(&self) -> u64 {
        match self {
            Numbering::Keys(index) => index.len(),
            Numbering::Ranks(reached) => reached.count,
        }
    }

    /// Whether the start reaches state `state`.
    #[inline]
    pub fn reached(&self, state: u64) -> bool {
        match self {
            Numbering::Keys(index) => state < index.len(),
            Numbering::Ranks(reached) => reached.contains(state),
        }
    }

    /// The (canonical) position of `state`; `None` for a rank that no
    /// canonical position has.
    #[inline]
    pub fn position<R: Rules<Position = P>>(&self, rules: &R, state: u64) -> Option<P> {
        self.position_with(rules, state, &mut Vec::new())
    }

    /// [`Numbering::position`] with `images` as scratch space (a caller
    /// that asks for many positions spares an allocation each).
    #[inline]
    pub fn position_with<R: Rules<Position = P>>(
        &self,
        rules: &R,
        state: u64,
        images: &mut Vec<P>,
    ) -> Option<P> {
        match self {
            Numbering::Keys(index) => Some(index.key(state)),
            Numbering::Ranks(_) => rules
                .unrank(state)
                .filter(|&p| canonical(rules, p, images) == p),
        }
    }

    /// The state of the canonical `position`, `None` if it has none (a key
    /// not among the positions, or a rank past the last).
    #[inline]
    pub fn find<R: Rules<Position = P>>(&self, rules: &R, position: &P) -> Option<u64> {
        match self {
            Numbering::Keys(index) => index.find(position),
            Numbering::Ranks(reached) => {
                Some(rules.rank(position)).filter(|&rank| rank < reached.ranks)
            }
        }
    }

    /// The states of the canonical `positions` into `found` (cleared
    /// first), as [`Numbering::find`] gives them, looked up as a batch.
    pub fn find_many<R: Rules<Position = P>>(
        &self,
        rules: &R,
        positions: &[P],
        found: &mut Vec<Option<u64>>,
    ) {
        match self {
            Numbering::Keys(index) => index.find_many(positions, found),
            Numbering::Ranks(_) => {
                found.clear();
                found.extend(positions.iter().map(|p| self.find(rules, p)));
            }
        }
    }

    /// Win / loss / draw totals of `table` (a value a state) over the
    /// positions the start reaches.
    pub fn counts(&self, table: &OutcomeTable) -> Counts {
        match self {
            Numbering::Keys(_) => table.counts(),
            Numbering::Ranks(reached) => table.counts_marked(reached.words()),
        }
    }

    /// The sorted keys, when the positions are numbered by them.
    pub fn keys(&self) -> Option<&[P]> {
        match self {
            Numbering::Keys(index) => Some(index.keys()),
            Numbering::Ranks(_) => None,
        }
    }

    /// The ranks reached, when the positions are numbered by rank.
    pub fn ranks(&self) -> Option<&RankSet> {
        match self {
            Numbering::Keys(_) => None,
            Numbering::Ranks(reached) => Some(reached),
        }
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> u64 {
        match self {
            Numbering::Keys(index) => index.heap_bytes(),
            Numbering::Ranks(reached) => reached.words.len() as u64 * 8,
        }
    }
}
