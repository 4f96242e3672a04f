//! A board's size: columns, rows and the stones in a row that win. Every
//! engine of the board games is built from one, so that no constructor
//! can be handed its numbers in the wrong order.

use serde::Serialize;

/// Columns (width), rows (height) and `k`, the stones in a row that win.
/// Boards are named *columns × rows*, the way Connect Four's 7×6 is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct BoardSize {
    /// Columns (width).
    pub cols: u32,
    /// Rows (height).
    pub rows: u32,
    /// Stones in a row that win.
    pub k: u32,
}

impl BoardSize {
    /// A board of `cols` columns and `rows` rows where `k` in a row win.
    pub const fn new(cols: u32, rows: u32, k: u32) -> Self {
        Self { cols, rows, k }
    }

    /// Cells of the board (as `u64`: sides up to `u32::MAX` cannot wrap).
    pub fn cells(&self) -> u64 {
        u64::from(self.cols) * u64::from(self.rows)
    }
}

impl std::fmt::Display for BoardSize {
    /// `7,6,4`: the m,n,k name (columns, rows, k).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{},{}", self.cols, self.rows, self.k)
    }
}
