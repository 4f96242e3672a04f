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

use crate::board::BoardSize;
use crate::error::{Error, Result};

/// A validated gravity board.
#[derive(Clone, Debug)]
pub struct Gravity {
    cols: u32,
    rows: u32,
    k: u32,
    bottom: u64,
    column_mask: u64,
    /// The steps that smear each column's height marker down over its
    /// field: `(shift, keep)`, `keep` holding the bits of each field that
    /// the shift fills from the same field (never from the next column).
    smear: Vec<(u32, u64)>,
    /// Runs of stones are doubled to `k` in these steps: a run of `a`
    /// cells and one `step` further along give a run of `a + step`.
    run_steps: Vec<u32>,
}

impl Gravity {
    /// Validates the dimensions: `cols · (rows + 1) ≤ 64`, `1 ≤ k ≤ max`.
    pub fn new(size: BoardSize) -> Result<Self> {
        let BoardSize { cols, rows, k } = size;
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
        let field_bits = rows + 1;
        // the low `bits` of every column's field
        let fields = |bits: u32| {
            let low = (1u64 << bits) - 1;
            (0..cols).fold(0u64, |m, c| m | low << (c * field_bits))
        };
        let smear = std::iter::successors(Some(1u32), |s| Some(s * 2))
            .take_while(|&s| s < field_bits)
            .map(|s| (s, fields(field_bits - s)))
            .collect();
        let mut run_steps = Vec::new();
        let mut run = 1;
        while run < k {
            let step = run.min(k - run);
            run_steps.push(step);
            run += step;
        }
        Ok(Self {
            cols,
            rows,
            k,
            bottom: fields(1),
            column_mask: (1u64 << rows) - 1,
            smear,
            run_steps,
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

    /// (X stones, occupied cells) of a key: each column's height marker is
    /// smeared down over its field in log₂(rows + 1) masked shifts (no loop
    /// over the columns), and the cells below the marker are the occupied
    /// ones.
    #[inline]
    pub fn unkey(&self, key: u64) -> (u64, u64) {
        let mut smeared = key;
        for &(shift, keep) in &self.smear {
            smeared |= (smeared >> shift) & keep;
        }
        let below_marker = self.smear.first().map_or(0, |&(_, keep)| keep);
        let occupied = (smeared >> 1) & below_marker;
        (key - occupied - self.bottom, occupied)
    }

    /// Whether `stones` hold `k` in a row: per direction (up, right, both
    /// diagonals), runs of 1, 2, 4 … cells doubled up to `k` in log₂ k
    /// steps.
    #[inline]
    pub fn has_line(&self, stones: u64) -> bool {
        let h = self.rows;
        [1, h + 1, h, h + 2].iter().any(|&d| {
            let mut runs = stones;
            for &step in &self.run_steps {
                runs &= runs >> (step * d);
            }
            runs != 0
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

    /// The shift-only unkey and line test agree with column-by-column and
    /// cell-by-cell references on every board shape up to 8×8 and every k,
    /// on pseudo-random positions.
    #[test]
    fn unkey_and_lines_agree_with_simple_references() {
        let mut seed = 11u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 17
        };
        for cols in 1..=8u32 {
            for rows in 1..=8u32 {
                if cols * (rows + 1) > 64 {
                    continue;
                }
                for k in 1..=cols.max(rows) {
                    let game = Gravity::new(BoardSize { cols, rows, k }).unwrap();
                    let at = |c: u32, r: u32| 1u64 << (c * (rows + 1) + r);
                    // k in a row from (c, r) along (dc, dr), cell by cell
                    let line_from = |stones: u64, c: i64, r: i64, dc: i64, dr: i64| {
                        (0..i64::from(k)).all(|i| {
                            let (cc, rr) = (c + i * dc, r + i * dr);
                            (0..i64::from(cols)).contains(&cc)
                                && (0..i64::from(rows)).contains(&rr)
                                && stones & at(cc as u32, rr as u32) != 0
                        })
                    };
                    for _ in 0..300 {
                        let (mut x, mut occupied) = (0u64, 0u64);
                        for c in 0..cols {
                            let height = (next() % u64::from(rows + 1)) as u32;
                            let shift = c * (rows + 1);
                            occupied |= ((1u64 << height) - 1) << shift;
                            x |= (next() & ((1u64 << height) - 1)) << shift;
                        }
                        let key = game.key(x, occupied);
                        assert_eq!(game.unkey(key), (x, occupied), "{cols}x{rows} {key:#x}");
                        for stones in [x, occupied & !x] {
                            let want = (0..i64::from(cols)).any(|c| {
                                (0..i64::from(rows)).any(|r| {
                                    [(0, 1), (1, 0), (1, 1), (1, -1)]
                                        .iter()
                                        .any(|&(dc, dr)| line_from(stones, c, r, dc, dr))
                                })
                            });
                            assert_eq!(game.has_line(stones), want, "{cols}x{rows} k{k}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn keys_round_trip_and_lines_are_found() {
        let g = Gravity::new(BoardSize::new(7, 6, 4)).unwrap();
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
        assert!(Gravity::new(BoardSize::new(8, 8, 4)).is_err());
        assert!(Gravity::new(BoardSize::new(4, 4, 5)).is_err());
    }
}
