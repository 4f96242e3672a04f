//! Combinatorial ranks of boards.
//!
//! **Sets of cells.** A `k`-subset `{c_1 < … < c_k}` of `0..n`, held as a bit
//! mask, has the colexicographic rank `Σ_j C(c_j, j)` (the combinatorial
//! number system): a bijection onto `0..C(n, k)`, and the order in which
//! Gosper's "next mask with the same popcount" visits the subsets.
//!
//! **Boards of one ply.** A board with `x` X stones and `o` O stones on `n`
//! cells is ranked among all such boards as
//!
//! ```text
//!   rank = colex(X cells) · C(n − x, o) + colex(O cells among the n − x free cells)
//!          └────── which X set ──────┘     └────── which O set, cells renumbered 0..n−x ──────┘
//! ```
//!
//! a bijection onto `0..C(n, x) · C(n − x, o)` ([`PlyShape`]). Renumbering
//! the O cells among the cells not taken by X ("compressing" them) is what
//! makes the rank dense.

/// Largest number of cells a mask holds.
pub const MAX_CELLS: usize = 32;

const fn binomial_table() -> [[u64; MAX_CELLS + 2]; MAX_CELLS + 1] {
    let mut table = [[0u64; MAX_CELLS + 2]; MAX_CELLS + 1];
    let mut n = 0;
    while n <= MAX_CELLS {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
}

static BINOMIALS: [[u64; MAX_CELLS + 2]; MAX_CELLS + 1] = binomial_table();

/// `C(n, k)`, 0 when `k > n`. Contract: `n ≤ 32`, `k ≤ 33`.
#[inline]
pub fn binomial(n: u32, k: u32) -> u64 {
    BINOMIALS[n as usize][k as usize]
}

/// The colex rank of a set of cells.
#[inline]
pub fn colex_rank(mut mask: u32) -> u64 {
    let mut rank = 0;
    let mut j = 1;
    while mask != 0 {
        rank += binomial(mask.trailing_zeros(), j);
        mask &= mask - 1;
        j += 1;
    }
    rank
}

/// The `k`-subset of colex rank `rank`. Contract: `rank < C(32, k)`.
pub fn colex_unrank(mut rank: u64, k: u32) -> u32 {
    let mut mask = 0;
    for j in (1..=k).rev() {
        // the largest cell c with C(c, j) ≤ rank
        let mut c = j - 1;
        while binomial(c + 1, j) <= rank {
            c += 1;
        }
        rank -= binomial(c, j);
        mask |= 1 << c;
    }
    mask
}

/// The next larger mask with the same number of bits (Gosper's hack): the
/// next subset in colex order. Contract: `mask != 0` and a next subset of
/// 32 cells exists.
#[inline]
pub fn next_subset(mask: u32) -> u32 {
    let low = mask & mask.wrapping_neg();
    let ripple = mask + low;
    ripple | (((mask ^ ripple) >> 2) / low)
}

/// The cells of `mask` renumbered among the cells of `free` (the `i`-th
/// free cell becomes `i`). Contract: `mask ⊆ free`.
#[inline]
pub fn compress(mask: u32, free: u32) -> u32 {
    let mut out = 0;
    let mut rest = mask;
    while rest != 0 {
        let cell = rest.trailing_zeros();
        out |= 1 << (free & ((1u32 << cell) - 1)).count_ones();
        rest &= rest - 1;
    }
    out
}

/// The inverse of [`compress`]: the `i`-th bit of `compact` becomes the
/// `i`-th cell of `free`.
#[inline]
pub fn expand(compact: u32, free: u32) -> u32 {
    let mut out = 0;
    let mut rest = free;
    let mut bit = 0;
    while rest != 0 {
        let cell = rest & rest.wrapping_neg();
        if compact & (1 << bit) != 0 {
            out |= cell;
        }
        rest &= rest - 1;
        bit += 1;
    }
    out
}

/// The boards of one ply: `x` X stones and `o` O stones on `cells` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyShape {
    /// Number of cells of the board.
    pub cells: u32,
    /// X stones.
    pub x: u32,
    /// O stones.
    pub o: u32,
    /// `C(cells − x, o)`: how many O sets go with one X set.
    pub o_sets: u64,
    /// `C(cells, x) · C(cells − x, o)`: the boards of this ply.
    pub size: u64,
}

impl PlyShape {
    /// The shape of ply `ply` (X moves first, so X has `⌈ply/2⌉` stones).
    /// Contract: `ply ≤ cells ≤ 32`.
    pub fn of_ply(cells: u32, ply: u32) -> Self {
        let x = ply.div_ceil(2);
        let o = ply / 2;
        let o_sets = binomial(cells - x, o);
        Self {
            cells,
            x,
            o,
            o_sets,
            size: binomial(cells, x) * o_sets,
        }
    }

    /// The rank of the board (X cells, O cells). Contract: disjoint masks
    /// inside the board with `x` and `o` bits.
    #[inline]
    pub fn rank(&self, x_cells: u32, o_cells: u32) -> u64 {
        debug_assert_eq!(x_cells.count_ones(), self.x);
        debug_assert_eq!(o_cells.count_ones(), self.o);
        debug_assert_eq!(x_cells & o_cells, 0);
        let free = self.all_cells() & !x_cells;
        colex_rank(x_cells) * self.o_sets + colex_rank(compress(o_cells, free))
    }

    /// The board of a rank, as (X cells, O cells). Contract: `rank < size`.
    pub fn unrank(&self, rank: u64) -> (u32, u32) {
        let x_cells = colex_unrank(rank / self.o_sets, self.x);
        let free = self.all_cells() & !x_cells;
        let o_cells = expand(colex_unrank(rank % self.o_sets, self.o), free);
        (x_cells, o_cells)
    }

    /// Every cell of the board.
    #[inline]
    pub fn all_cells(&self) -> u32 {
        if self.cells == 32 {
            u32::MAX
        } else {
            (1u32 << self.cells) - 1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_follow_pascal() {
        assert_eq!(binomial(16, 8), 12870);
        assert_eq!(binomial(25, 12), 5_200_300);
        assert_eq!(binomial(3, 5), 0);
        assert_eq!(binomial(0, 0), 1);
    }

    #[test]
    fn colex_ranks_every_subset_in_gosper_order() {
        for n in 1..=10u32 {
            for k in 1..=n {
                let mut mask = (1u32 << k) - 1;
                for rank in 0..binomial(n, k) {
                    assert_eq!(colex_rank(mask), rank);
                    assert_eq!(colex_unrank(rank, k), mask);
                    if rank + 1 < binomial(n, k) {
                        mask = next_subset(mask);
                    }
                }
                assert_eq!(32 - mask.leading_zeros(), n, "last subset ends at cell n-1");
            }
        }
    }

    #[test]
    fn ply_ranks_are_a_bijection_on_every_ply_of_small_boards() {
        for cells in 1..=9u32 {
            for ply in 0..=cells {
                let shape = PlyShape::of_ply(cells, ply);
                let mut seen = vec![false; shape.size as usize];
                for rank in 0..shape.size {
                    let (x, o) = shape.unrank(rank);
                    assert_eq!(x & o, 0);
                    assert_eq!((x | o) & !shape.all_cells(), 0);
                    let again = shape.rank(x, o);
                    assert_eq!(again, rank);
                    assert!(!seen[rank as usize]);
                    seen[rank as usize] = true;
                }
            }
        }
    }

    #[test]
    fn compress_and_expand_are_inverse() {
        let free = 0b1011_0110u32;
        for compact in 0..(1u32 << free.count_ones()) {
            let cells = expand(compact, free);
            assert_eq!(cells & !free, 0);
            assert_eq!(compress(cells, free), compact);
        }
    }

    #[test]
    fn colex_ranks_the_first_subsets() {
        assert_eq!(colex_rank(0b0111), 0);
        assert_eq!(colex_rank(0b1011), 1);
        assert_eq!(colex_unrank(1, 3), 0b1011);
    }
}
