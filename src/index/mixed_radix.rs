//! Mixed radix: a state made of `D` digits `d[0], …, d[D-1]` with
//! `d[i] < radix[i]` packs as
//!
//! ```text
//!   index = ((d[0] · r[1] + d[1]) · r[2] + d[2]) · … + d[D-1]
//!
//!   ┌────────────┬────────────┬─────┬──────────────┐
//!   │    d[0]    │    d[1]    │  …  │    d[D-1]    │
//!   └────────────┴────────────┴─────┴──────────────┘
//!    most significant                 least significant (stride 1)
//! ```
//!
//! so the last digit varies fastest: states that differ only in it are
//! neighbours in every table.

/// A mixed-radix bijection between `[u64; D]` digit vectors and `0..size()`.
///
/// Invariant: every radix is at least 1 and the product of the radices fits
/// in a `u64` (checked by [`MixedRadix::new`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MixedRadix<const D: usize> {
    radices: [u64; D],
    strides: [u64; D],
    size: u64,
}

impl<const D: usize> MixedRadix<D> {
    /// Builds the encoder; `None` if a radix is 0 or the product overflows `u64`.
    pub fn new(radices: [u64; D]) -> Option<Self> {
        let mut strides = [0u64; D];
        let mut size = 1u64;
        for i in (0..D).rev() {
            if radices[i] == 0 {
                return None;
            }
            strides[i] = size;
            size = size.checked_mul(radices[i])?;
        }
        Some(Self {
            radices,
            strides,
            size,
        })
    }

    /// Number of indices, the product of the radices.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The index of a digit vector. Contract: `digits[i] < radices[i]`
    /// (checked in debug builds).
    #[inline]
    pub fn rank(&self, digits: [u64; D]) -> u64 {
        let mut index = 0;
        for ((digit, radix), stride) in digits.iter().zip(&self.radices).zip(&self.strides) {
            debug_assert!(digit < radix, "digit {digit} out of range 0..{radix}");
            index += digit * stride;
        }
        index
    }

    /// The digit vector of an index. Contract: `index < size()` (checked in
    /// debug builds). Uses 32-bit division when the index fits, which is what
    /// every table that fits in memory needs.
    #[inline]
    pub fn unrank(&self, index: u64) -> [u64; D] {
        debug_assert!(index < self.size, "index out of range");
        let mut digits = [0u64; D];
        let mut rest = index;
        for i in (0..D).rev() {
            let radix = self.radices[i];
            if rest <= u64::from(u32::MAX) && radix <= u64::from(u32::MAX) {
                let (r, q) = (rest as u32, radix as u32);
                digits[i] = u64::from(r % q);
                rest = u64::from(r / q);
            } else {
                digits[i] = rest % radix;
                rest /= radix;
            }
        }
        digits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_every_index_of_small_radices() {
        for radices in [[1, 1, 1], [3, 2, 2], [5, 4, 2], [7, 6, 2], [2, 9, 3]] {
            let r = MixedRadix::new(radices).unwrap();
            assert_eq!(r.size(), radices.iter().product::<u64>());
            for index in 0..r.size() {
                let digits = r.unrank(index);
                for i in 0..3 {
                    assert!(digits[i] < radices[i]);
                }
                assert_eq!(r.rank(digits), index);
            }
        }
    }

    #[test]
    fn large_indices_use_the_wide_path() {
        let r = MixedRadix::new([1 << 40, 3, 2]).unwrap();
        let digits = [(1 << 40) - 5, 2, 1];
        assert_eq!(r.unrank(r.rank(digits)), digits);
    }

    #[test]
    fn zero_radix_and_overflow_are_refused() {
        assert!(MixedRadix::new([3, 0, 2]).is_none());
        assert!(MixedRadix::new([u64::MAX, 2, 1]).is_none());
    }

    #[test]
    fn mixed_radix_ranks_digits_most_significant_first() {
        let r = MixedRadix::new([3, 4, 2]).unwrap();
        assert_eq!(r.size(), 24);
        assert_eq!(r.rank([2, 1, 1]), (2 * 4 + 1) * 2 + 1);
        assert_eq!(r.unrank(19), [2, 1, 1]);
    }
}
