//! Opening books for the bitboard search ([`crate::search::bitboard`]):
//! the exact scores of every position in play up to some number of stones,
//! proved once by the tool itself and reused by later searches.
//!
//! * **What a book holds.** For one board (family, columns, rows, `k`),
//!   every position in play (no line, not full) reachable in at most
//!   `max_stones` moves, one of each set of symmetric images, under the
//!   search's table key, with its exact score (the convention of
//!   [`crate::search::general::Precision::Exact`]). A position of at most
//!   `max_stones` stones that the book lacks is one that is over or
//!   unreachable.
//! * **How a search uses it.** A node with at most `max_stones` stones whose
//!   key is in the book returns the book's score at once: an exact score is
//!   a valid result for any window, so a book changes the time of a search,
//!   never its answer. A root of exactly `max_stones` stones takes its score
//!   from the book too (its children are not in it); a shallower root is
//!   searched, its children found in the book, so that its best move is
//!   named.
//! * **How a book is made** (`super::book_making`): the positions are enumerated
//!   ply by ply, then searched from the deepest ply up, side by side on the
//!   pool's workers with one shared table; each finished ply joins the book,
//!   so every shallower position is settled by its children's book entries
//!   in a few nodes. The work is that of the deepest ply. The positions
//!   are taken a batch at a time and each batch's
//!   scores told to a journal, which may keep them: a run cut short
//!   and started again with that journal searches only what it lacks.
//!
//! On disk a book is a table file of its own encoding
//! ([`crate::tablefile::book`], `docs/FORMAT.md`), checksummed and checked
//! against the board on reading.

use std::collections::HashMap;

/// Exact scores of positions near the root, by table key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    /// Positions of at most this many stones are all in the book (those in
    /// play).
    pub(super) max_stones: u32,
    pub(super) scores: HashMap<u64, i8>,
}

impl Book {
    /// A book of `scores` (key, exact score) complete up to `max_stones`
    /// stones. Contract: the keys are the search's keys of one board.
    pub fn new(max_stones: u32, scores: impl IntoIterator<Item = (u64, i8)>) -> Self {
        Self {
            max_stones,
            scores: scores.into_iter().collect(),
        }
    }

    /// The most stones of the positions the book holds.
    pub fn max_stones(&self) -> u32 {
        self.max_stones
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// The exact score of the position of table key `key`, if held.
    #[inline]
    pub fn score(&self, key: u64) -> Option<i8> {
        self.scores.get(&key).copied()
    }

    /// Every (key, score), keys ascending.
    pub fn entries(&self) -> Vec<(u64, i8)> {
        let mut entries: Vec<(u64, i8)> = self.scores.iter().map(|(&k, &s)| (k, s)).collect();
        entries.sort_unstable();
        entries
    }
}
