//! Gravity boards — the Connect-Four family: `cols` columns of `rows`
//! cells; a stone drops to the lowest empty cell of its column; `k` in a row
//! (horizontal, vertical or diagonal) wins; a full board is a draw. X moves
//! first.
//!
//! ## Encoding
//!
//! Column `c` occupies bits `c·(rows+1) .. c·(rows+1)+rows` (bottom first);
//! the extra bit on top of each column stays empty in stone masks, so shifts
//! never wrap from one column into the next. A position packs into one
//! `u64` key (John Tromp's and Pascal Pons' encoding):
//!
//! ```text
//!   key = X stones + occupied cells + bottom row      (per column: X bits + 2^height)
//! ```
//!
//! — each column's highest set bit marks its height, the bits below it are
//! its X stones — a bijection between positions and keys, so a ply's
//! positions are a sorted `Vec<u64>`.

use crate::error::{Error, Result};

/// A validated gravity board.
#[derive(Clone, Debug)]
pub struct Gravity {
    cols: u32,
    rows: u32,
    k: u32,
    bottom: u64,
    column_mask: u64,
}

impl Gravity {
    /// Validates the dimensions: `cols · (rows + 1) ≤ 64`, `1 ≤ k ≤ max`.
    pub fn new(cols: u32, rows: u32, k: u32) -> Result<Self> {
        let bits = u64::from(cols) * (u64::from(rows) + 1);
        if cols == 0 || rows == 0 || bits > 64 {
            return Err(Error::InvalidInput(format!(
                "a board of {cols} columns × {rows} rows does not fit (columns · (rows + 1) ≤ 64)"
            )));
        }
        if k == 0 || k > cols.max(rows) {
            return Err(Error::InvalidInput(format!(
                "k = {k} does not fit {cols} columns × {rows} rows"
            )));
        }
        let bottom = (0..cols).fold(0u64, |b, c| b | 1 << (c * (rows + 1)));
        Ok(Self {
            cols,
            rows,
            k,
            bottom,
            column_mask: (1u64 << rows) - 1,
        })
    }

    /// Columns, rows, k.
    pub fn dimensions(&self) -> (u32, u32, u32) {
        (self.cols, self.rows, self.k)
    }

    /// Number of cells.
    pub fn cells(&self) -> u32 {
        self.cols * self.rows
    }

    /// Bits a key can occupy: `cols · (rows + 1)`; every key is below
    /// `2^key_bits`.
    pub fn key_bits(&self) -> u32 {
        self.cols * (self.rows + 1)
    }

    /// The key of the left–right mirror image (columns in reverse order).
    #[inline]
    pub fn mirror(&self, key: u64) -> u64 {
        let bits = self.rows + 1;
        let field = (1u64 << bits) - 1;
        (0..self.cols).fold(0, |m, c| {
            m | ((key >> (c * bits)) & field) << ((self.cols - 1 - c) * bits)
        })
    }

    /// The key a position and its mirror image are stored under: the
    /// smaller of the two. Both have the same value and depth.
    #[inline]
    pub fn canonical(&self, key: u64) -> u64 {
        key.min(self.mirror(key))
    }

    /// The key of (X stones, occupied cells).
    #[inline]
    pub fn key(&self, x: u64, occupied: u64) -> u64 {
        x + occupied + self.bottom
    }

    /// (X stones, occupied cells) of a key.
    #[inline]
    pub fn unkey(&self, key: u64) -> (u64, u64) {
        let mut occupied = 0u64;
        for c in 0..self.cols {
            let shift = c * (self.rows + 1);
            let column = (key >> shift) & ((1u64 << (self.rows + 1)) - 1);
            let height = 63 - column.leading_zeros();
            occupied |= ((1u64 << height) - 1) << shift;
        }
        (key - occupied - self.bottom, occupied)
    }

    /// Whether `stones` hold `k` in a row.
    #[inline]
    pub fn has_line(&self, stones: u64) -> bool {
        let h = u64::from(self.rows);
        [1, h + 1, h, h + 2].iter().any(|&s| {
            let mut m = stones;
            for i in 1..u64::from(self.k) {
                m &= stones >> (i * s);
            }
            m != 0
        })
    }

    /// The cell a stone dropped in column `c` lands on, if the column has room.
    #[inline]
    pub fn drop_cell(&self, occupied: u64, c: u32) -> Option<u64> {
        let shift = c * (self.rows + 1);
        let column = (occupied >> shift) & self.column_mask;
        (column != self.column_mask).then(|| (column + 1) << shift)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_lines_are_found() {
        let g = Gravity::new(7, 6, 4).unwrap();
        let (mut x, mut occ) = (0u64, 0u64);
        for (i, c) in [3, 3, 4, 2, 4, 5, 4].into_iter().enumerate() {
            let cell = g.drop_cell(occ, c).unwrap();
            occ |= cell;
            if i % 2 == 0 {
                x |= cell;
            }
            assert_eq!(g.unkey(g.key(x, occ)), (x, occ));
        }
        // X: column 3 bottom, column 4 rows 0..2 → no line yet
        assert!(!g.has_line(x));
        let vertical = 0b1111u64 << 7;
        assert!(g.has_line(vertical));
        let horizontal = (0..4).fold(0u64, |m, c| m | 1 << (c * 7));
        assert!(g.has_line(horizontal));
        let mirrored = g.mirror(g.key(x, occ));
        assert_eq!(g.mirror(mirrored), g.key(x, occ));
        let (mx, mocc) = g.unkey(mirrored);
        // column c's stones are column 6 − c's of the mirror image
        assert_eq!(mocc.count_ones(), occ.count_ones());
        assert_eq!((mx >> (3 * 7)) & 0x7f, (x >> (3 * 7)) & 0x7f);
        assert_eq!((mocc >> (2 * 7)) & 0x7f, (occ >> (4 * 7)) & 0x7f);
        assert_eq!(g.canonical(mirrored), g.canonical(g.key(x, occ)));
        assert!(Gravity::new(8, 8, 4).is_err());
        assert!(Gravity::new(4, 4, 5).is_err());
    }
}
