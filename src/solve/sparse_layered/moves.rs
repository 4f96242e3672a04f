//! A position's moves in key arithmetic, shared by the forward pass (which
//! generates children) and the backward pass (which looks them up).
//!
//! A column's field in a key is `X stones + 2^height` (see
//! [`crate::games::gravity`]), so dropping a stone at height `h` of a
//! column at bit offset `o` adds `2^(o+h)` for O (the height marker moves
//! up one) and `2 · 2^(o+h)` for X (the marker moves up and an X bit
//! appears under it). The mirror image's key changes by the same amount at
//! the mirrored column's offset, so a child's canonical key (the smaller of
//! its key and its mirror's) costs two additions and a minimum once the
//! parent's mirror is known.

use crate::games::gravity::Gravity;

/// The move generator of one board.
#[derive(Clone, Debug)]
pub(crate) struct Moves {
    game: Gravity,
    cols: u32,
    rows: u32,
    /// Bits of one column's field: `rows + 1`.
    field_bits: u32,
    /// Stones in a row that win.
    k: u32,
    /// The empty board's key: one height marker a column.
    bottom: u64,
    /// The steps that smear each column's height marker down over its
    /// field: `(shift, keep)`, `keep` holding the bits of each field that
    /// the shift fills from the same field (never from the next column).
    smear: Vec<(u32, u64)>,
    /// The shifts between a line's cells: up, right, and both diagonals.
    directions: [u32; 4],
    /// Runs of stones are doubled to `k` in these steps: a run of `a`
    /// cells and one `step` further along give a run of `a + step`.
    run_steps: Vec<u32>,
}

impl Moves {
    pub(crate) fn new(game: &Gravity) -> Self {
        let (cols, rows, k) = game.dimensions();
        let field_bits = rows + 1;
        let fields = |low_bits: u32| {
            let one = (1u64 << low_bits) - 1;
            (0..cols).fold(0u64, |m, c| m | one << (c * field_bits))
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
        Self {
            game: game.clone(),
            cols,
            rows,
            field_bits,
            k,
            bottom: fields(1),
            smear,
            directions: [1, field_bits, rows, field_bits + 1],
            run_steps,
        }
    }

    /// (X stones, occupied cells) of a key, as [`Gravity::unkey`] but
    /// without a loop over the columns: each column's height marker is
    /// smeared down over its field in log₂(rows + 1) shifts, and the cells
    /// below the marker are the occupied ones.
    #[inline]
    fn unkey(&self, key: u64) -> (u64, u64) {
        let mut smeared = key;
        for &(shift, keep) in &self.smear {
            smeared |= (smeared >> shift) & keep;
        }
        let occupied = (smeared >> 1) & self.smear.first().map_or(0, |&(_, keep)| keep);
        (key - occupied - self.bottom, occupied)
    }

    /// Whether `stones` hold `k` in a row, as [`Gravity::has_line`] but
    /// in log₂ k steps a direction: runs of 1, 2, 4 … cells.
    #[inline]
    fn has_line(&self, stones: u64) -> bool {
        self.directions.iter().any(|&d| {
            let mut runs = stones;
            for &step in &self.run_steps {
                runs &= runs >> (step * d);
            }
            runs != 0
        })
    }

    /// Whether the position `key` at `ply` is over because the player who
    /// just moved completed a line (the empty board never is).
    #[inline]
    pub(crate) fn has_ended_by_line(&self, key: u64, ply: u32) -> bool {
        // the player who just moved has ⌈ply / 2⌉ stones: no line below k
        if ply.div_ceil(2) < self.k {
            return false;
        }
        let (x, occupied) = self.unkey(key);
        let last = if ply % 2 == 1 { x } else { occupied & !x };
        self.has_line(last)
    }

    /// Calls `child` with the canonical key of every child of the position
    /// `key` (whose mirror image's key is `mirror`) at `ply`, column by
    /// column from the left.
    #[inline]
    pub(crate) fn for_each_child(
        &self,
        key: u64,
        mirror: u64,
        ply: u32,
        mut child: impl FnMut(u64),
    ) {
        let step = if ply.is_multiple_of(2) { 2u64 } else { 1 };
        let field = (1u64 << self.field_bits) - 1;
        for c in 0..self.cols {
            let offset = c * self.field_bits;
            let height = 63 - ((key >> offset) & field).leading_zeros();
            if height < self.rows {
                let mirrored = (self.cols - 1 - c) * self.field_bits;
                let own = key + (step << (offset + height));
                let image = mirror + (step << (mirrored + height));
                child(own.min(image));
            }
        }
    }

    /// The key of the mirror image.
    #[inline]
    pub(crate) fn mirror(&self, key: u64) -> u64 {
        self.game.mirror(key)
    }

    /// The board.
    pub(crate) fn game(&self) -> &Gravity {
        &self.game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shift-only unkey and line test agree with the board's own on
    /// every board shape and k, on pseudo-random positions.
    #[test]
    fn fast_unkey_and_lines_agree_with_the_board() {
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
                    let game = Gravity::new(cols, rows, k).unwrap();
                    let moves = Moves::new(&game);
                    for _ in 0..300 {
                        let (mut x, mut occupied) = (0u64, 0u64);
                        for c in 0..cols {
                            let height = (next() % u64::from(rows + 1)) as u32;
                            let shift = c * (rows + 1);
                            occupied |= ((1u64 << height) - 1) << shift;
                            x |= (next() & ((1u64 << height) - 1)) << shift;
                        }
                        let key = game.key(x, occupied);
                        assert_eq!(moves.unkey(key), game.unkey(key), "{cols}x{rows} {key:#x}");
                        for stones in [x, occupied & !x] {
                            assert_eq!(moves.has_line(stones), game.has_line(stones));
                        }
                    }
                }
            }
        }
    }
}
