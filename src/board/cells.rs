//! A set of up to 256 cells of a board (four 64-bit words, bit `i` for
//! cell `i`): the stones, zones and lines of the provers on large m,n,k
//! boards ([`crate::prove::zones`], [`crate::prove::threats`]).

/// A set of cells, bit `i` for cell `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cells([u64; 4]);

impl Cells {
    /// The most cells a set holds.
    pub const CAPACITY: usize = 256;

    /// The cells of `word`, bit `i` for cell `i` (cells 0 to 63).
    pub fn from_word(word: u64) -> Self {
        Self([word, 0, 0, 0])
    }

    /// Cells 0 to 63 as one word, bit `i` for cell `i`: the whole set when
    /// it lies in the first 64 cells, the contract of the engines that
    /// take boards of at most 64 cells (checked in debug builds).
    pub fn word(&self) -> u64 {
        debug_assert!(self.0[1..] == [0; 3], "a cell past 63 in a one-word set");
        self.0[0]
    }

    /// The set as one word when it lies in the first 64 cells.
    pub fn as_word(&self) -> Option<u64> {
        (self.0[1..] == [0; 3]).then_some(self.0[0])
    }

    /// Cells 0 to `n − 1`. Contract: `n ≤ 256`.
    pub fn first_n(n: u32) -> Self {
        Self(std::array::from_fn(|i| {
            let below = n.saturating_sub(64 * i as u32);
            match below {
                0 => 0,
                64.. => u64::MAX,
                b => (1u64 << b) - 1,
            }
        }))
    }

    /// The four words, cells 0–63 first.
    pub fn words(&self) -> [u64; 4] {
        self.0
    }

    /// The set of one cell.
    pub fn one(cell: u32) -> Self {
        let mut s = Self::default();
        s.0[(cell / 64) as usize] = 1 << (cell % 64);
        s
    }

    /// Whether `cell` is in the set.
    pub fn has(&self, cell: u32) -> bool {
        self.0[(cell / 64) as usize] >> (cell % 64) & 1 == 1
    }

    /// The set with `cell` added.
    pub fn with(self, cell: u32) -> Self {
        self | Self::one(cell)
    }

    /// Whether the set has no cell.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// How many cells the set holds.
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Cells in `self` and not in `other`.
    pub fn minus(self, other: Self) -> Self {
        Self(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// The lowest cell, if any.
    pub fn first(&self) -> Option<u32> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, &w)| i as u32 * 64 + w.trailing_zeros())
    }

    /// Whether the two sets share a cell.
    pub fn meets(&self, other: &Self) -> bool {
        !(*self & *other).is_empty()
    }

    /// The cells in increasing order (an exact-size iterator, so that a
    /// list collected from it is allocated once).
    pub fn iter(&self) -> CellsIter {
        CellsIter {
            words: self.0,
            word: 0,
        }
    }
}

/// The cells of a [`Cells`] in increasing order: `words` holds those not
/// yet given, all in `words[word..]`.
#[derive(Clone, Debug)]
pub struct CellsIter {
    words: [u64; 4],
    word: usize,
}

impl Iterator for CellsIter {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        while self.word < 4 {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word as u32 * 64 + w.trailing_zeros());
            }
            self.word += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.words.iter().map(|w| w.count_ones() as usize).sum();
        (left, Some(left))
    }
}

impl ExactSizeIterator for CellsIter {}

impl std::ops::BitOr for Cells {
    type Output = Self;
    fn bitor(self, o: Self) -> Self {
        Self(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl std::ops::BitAnd for Cells {
    type Output = Self;
    fn bitand(self, o: Self) -> Self {
        Self(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_gives_every_cell_in_order_with_its_length() {
        let sets = [
            vec![],
            vec![0],
            vec![63, 64],
            vec![1, 2, 127, 128, 191, 192, 255],
            (0..256).step_by(3).collect(),
        ];
        for cells in sets {
            let set = cells.iter().fold(Cells::default(), |s, &c| s.with(c));
            let mut it = set.iter();
            assert_eq!(it.len(), cells.len());
            assert_eq!(it.next(), cells.first().copied());
            assert_eq!(it.len(), cells.len().saturating_sub(1));
            let all: Vec<u32> = set.iter().collect();
            assert_eq!(all, cells);
            assert_eq!(set.len() as usize, cells.len());
        }
    }
}
