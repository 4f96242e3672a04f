//! The position layout (row by row from the top, [`crate::position`])
//! beside the column-major layout with a sentinel row that the gravity
//! engine and the bitboard search use (row `r` from the top, column `c` is
//! bit `c · (rows + 1) + (rows − 1 − r)`).

use super::Position;

/// The cell `row · cols + col` (row 0 at the top) of the bitboard cell
/// `bit` (the layout of [`sentinel_cells`]): the inverse of its mapping.
pub fn position_cell(cols: u32, rows: u32, bit: u64) -> u32 {
    let at = bit.trailing_zeros();
    let (c, r) = (at / (rows + 1), at % (rows + 1));
    (rows - 1 - r) * cols + c
}

/// The X stones and occupied cells of `p` on a board of `cols × rows` in
/// the column-major layout with a sentinel row of the gravity engine and
/// the bitboard search (row `r` from the top, column `c` is bit
/// `c · (rows + 1) + (rows − 1 − r)`).
pub fn sentinel_cells(cols: u32, rows: u32, p: &Position) -> (u64, u64) {
    let mut x = 0u64;
    let mut occupied = 0u64;
    for cell in 0..cols * rows {
        let (r, c) = (cell / cols, cell % cols);
        let bit = 1u64 << (c * (rows + 1) + (rows - 1 - r));
        if p.x.has(cell) {
            x |= bit;
        }
        if p.occupied().has(cell) {
            occupied |= bit;
        }
    }
    (x, occupied)
}
