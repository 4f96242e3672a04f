//! Colex ranks of sets of places, the building block of a dense rank
//! ([`Rules::rank`](super::Rules::rank)): choose the places of one kind of
//! piece among the places, rank that set, then the next kind's among the
//! places left ([`among_free`]), and so on; a position's rank is the mixed
//! radix of those ranks, each counted by a binomial coefficient.
//!
//! A set is a `u64` of places (bit `i` for place `i`). The colex rank of a
//! `k`-set is `Σ C(place_j, j)` over its places in increasing order
//! (`j` from 1): the `k`-sets of `n` places get the ranks `0..C(n, k)`.

/// Binomial coefficients up to a number of places, and colex ranks.
/// Invariant: `choose[n * stride + k]` is `C(n, k)` for `n, k < stride`.
#[derive(Clone, Debug)]
pub struct Colex {
    choose: Vec<u64>,
    stride: usize,
}

impl Colex {
    /// The tables for sets of up to `places` places. Contract: `places`
    /// is at most 64 (sets are `u64`s).
    pub fn new(places: usize) -> Self {
        assert!(places <= 64, "a set holds at most 64 places");
        let stride = places + 1;
        let mut choose = vec![0u64; stride * stride];
        for n in 0..stride {
            choose[n * stride] = 1;
            for k in 1..=n {
                choose[n * stride + k] =
                    choose[(n - 1) * stride + k - 1].saturating_add(choose[(n - 1) * stride + k]);
            }
        }
        Self { choose, stride }
    }

    /// `C(n, k)`: 0 when `k > n`. Contract: `n` at most the places.
    #[inline]
    pub fn choose(&self, n: usize, k: usize) -> u64 {
        if k >= self.stride {
            return 0;
        }
        self.choose[n * self.stride + k]
    }

    /// The colex rank of `set` among the sets of as many places.
    #[inline]
    pub fn rank(&self, mut set: u64) -> u64 {
        let (mut rank, mut j) = (0, 1);
        while set != 0 {
            rank += self.choose(set.trailing_zeros() as usize, j);
            set &= set - 1;
            j += 1;
        }
        rank
    }

    /// The set of `k` of `n` places whose colex rank is `rank`. Contract:
    /// `rank < C(n, k)`.
    #[inline]
    pub fn unrank(&self, mut rank: u64, k: usize, n: usize) -> u64 {
        let (mut set, mut place) = (0, n);
        for j in (1..=k).rev() {
            place -= 1;
            while self.choose(place, j) > rank {
                place -= 1;
            }
            rank -= self.choose(place, j);
            set |= 1 << place;
        }
        set
    }
}

/// The places of `set` renumbered among those `taken` leaves free: each
/// moves down by the taken places below it. Contract: `set` and `taken`
/// are disjoint.
#[inline]
pub fn among_free(set: u64, taken: u64) -> u64 {
    let (mut out, mut rest) = (0, set);
    while rest != 0 {
        let place = rest.trailing_zeros();
        out |= 1 << (place - (taken & ((1 << place) - 1)).count_ones());
        rest &= rest - 1;
    }
    out
}

/// [`among_free`] undone: for each place `i` of `set`, the `i`-th place
/// (from 0) that `taken` leaves free.
#[inline]
pub fn from_free(set: u64, taken: u64) -> u64 {
    let (mut out, mut place, mut rest) = (0, 0, set);
    while rest != 0 {
        if taken >> place & 1 == 0 {
            out |= (rest & 1) << place;
            rest >>= 1;
        }
        place += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_set_of_ten_places_ranks_densely_and_back() {
        let colex = Colex::new(10);
        for k in 0..=10 {
            let mut seen = vec![false; colex.choose(10, k) as usize];
            for set in (0u64..1 << 10).filter(|s| s.count_ones() as usize == k) {
                let rank = colex.rank(set);
                assert!(!seen[rank as usize], "rank {rank} twice");
                seen[rank as usize] = true;
                assert_eq!(colex.unrank(rank, k, 10), set);
            }
            assert!(seen.iter().all(|&s| s), "a rank of {k} of 10 unused");
        }
        assert_eq!(colex.choose(10, 3), 120);
        assert_eq!(colex.choose(3, 10), 0);
    }

    #[test]
    fn places_among_the_free_ones_round_trip() {
        let taken = 0b1001_0110u64;
        for set in (0u64..1 << 8).filter(|s| s & taken == 0) {
            let free = among_free(set, taken);
            assert!(free < 1 << (8 - taken.count_ones()));
            assert_eq!(from_free(free, taken), set);
        }
        assert_eq!(among_free(0b1000, 0b0101), 0b10);
    }
}
