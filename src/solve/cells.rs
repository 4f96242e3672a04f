//! A set of up to 256 cells of a board (four 64-bit words, bit `i` for
//! cell `i`): the stones, zones and lines of the provers on large m,n,k
//! boards ([`crate::solve::zone_proof`], [`crate::solve::threat_proof`]).

/// A set of cells, bit `i` for cell `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cells([u64; 4]);

impl Cells {
    /// The most cells a set holds.
    pub const CAPACITY: usize = 256;

    /// The set of one cell.
    pub fn one(cell: u32) -> Self {
        let mut s = Self::default();
        s.0[(cell / 64) as usize] = 1 << (cell % 64);
        s
    }

    pub fn has(&self, cell: u32) -> bool {
        self.0[(cell / 64) as usize] >> (cell % 64) & 1 == 1
    }

    pub fn with(self, cell: u32) -> Self {
        self | Self::one(cell)
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

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

    pub fn meets(&self, other: &Self) -> bool {
        !(*self & *other).is_empty()
    }

    /// The cells in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros();
                    w &= w - 1;
                    i as u32 * 64 + bit
                })
            })
        })
    }
}

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
