//! m,n,k boards — the tic-tac-toe family: `rows × cols` cells, X moves
//! first, players alternately place a stone on an empty cell, and whoever
//! first has `k` in a row (row, column or either diagonal) wins; a full
//! board without a line is a draw. Tic-tac-toe is 3,3,3.
//!
//! Cells are numbered row by row: cell `r · cols + c` is bit `r · cols + c`
//! of a `u32` mask; a board is the pair (X cells, O cells). Boards of one
//! ply are ranked densely by [`crate::index::PlyShape`].

mod symmetry;

pub(crate) use symmetry::map_cell;
pub use symmetry::Symmetries;

use crate::board::BoardSize;
use crate::error::{Error, Result};

/// Largest side of a board.
pub const MAX_SIDE: u32 = 5;

/// An m,n,k game: its dimensions, winning lines and symmetries.
///
/// Invariants: `1 ≤ rows, cols ≤ 5`, `1 ≤ k ≤ max(rows, cols)`; `lines`
/// holds every run of `k` cells in one of the four directions.
#[derive(Clone, Debug)]
pub struct Mnk {
    rows: u32,
    cols: u32,
    k: u32,
    lines: Vec<u32>,
    symmetries: Symmetries,
}

impl Mnk {
    /// Validates the dimensions and precomputes lines and symmetries.
    pub fn new(size: BoardSize) -> Result<Self> {
        let BoardSize { cols, rows, k } = size;
        if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
            return Err(Error::InvalidInput(format!(
                "a board of {cols} columns × {rows} rows is outside 1×1..{MAX_SIDE}×{MAX_SIDE}"
            )));
        }
        if k == 0 || k > rows.max(cols) {
            return Err(Error::InvalidInput(format!(
                "k = {k} does not fit a board of {cols} columns × {rows} rows (1 ≤ k ≤ {})",
                rows.max(cols)
            )));
        }
        let lines = crate::position::winning_lines(cols, rows, k)
            .iter()
            .map(|cells| cells.iter().fold(0u32, |m, &c| m | 1 << c))
            .collect();
        Ok(Self {
            rows,
            cols,
            k,
            lines,
            symmetries: Symmetries::of_board(rows, cols),
        })
    }

    /// Rows of the board.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Columns of the board.
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// Stones in a row that win.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Number of cells.
    pub fn cells(&self) -> u32 {
        self.rows * self.cols
    }

    /// The winning lines, as cell masks.
    pub fn lines(&self) -> &[u32] {
        &self.lines
    }

    /// The board's symmetries (rotations and reflections).
    pub fn symmetries(&self) -> &Symmetries {
        &self.symmetries
    }

    /// Whether the stones `mask` contain a winning line.
    #[inline]
    pub fn has_line(&self, mask: u32) -> bool {
        self.lines.iter().any(|&line| line & !mask == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tic_tac_toe_has_eight_lines() {
        assert_eq!(Mnk::new(BoardSize::new(3, 3, 3)).unwrap().lines().len(), 8);
        assert_eq!(Mnk::new(BoardSize::new(4, 4, 4)).unwrap().lines().len(), 10);
        assert_eq!(Mnk::new(BoardSize::new(4, 4, 3)).unwrap().lines().len(), 24);
        // k longer than a side: only the rows of a 3×4 board hold 4 in a row
        assert_eq!(Mnk::new(BoardSize::new(4, 3, 4)).unwrap().lines().len(), 3);
        assert_eq!(Mnk::new(BoardSize::new(2, 2, 1)).unwrap().lines().len(), 4);
    }

    #[test]
    fn bad_dimensions_are_refused() {
        assert!(Mnk::new(BoardSize::new(3, 6, 3)).is_err());
        assert!(Mnk::new(BoardSize::new(3, 0, 3)).is_err());
        assert!(Mnk::new(BoardSize::new(3, 3, 4)).is_err());
        assert!(Mnk::new(BoardSize::new(3, 3, 0)).is_err());
    }
}
