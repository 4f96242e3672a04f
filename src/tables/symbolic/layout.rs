//! Which decision-diagram variable stands for what: the board (family,
//! size, `k`) and one of two encodings of a position as a vector of bits.
//!
//! Cells are `(c, r)`: column `c` from the left, row `r` from the bottom
//! (gravity) or from the top (m,n,k; the rows of an m,n,k board are all
//! alike). Variable numbers are also the diagrams' levels (no reordering):
//! the smallest number is tested first.
//!
//! * **Column** (gravity only; Böck's "compressed" encoding): one variable
//!   a cell plus a sentinel row. Column `c` owns the `rows + 1` variables
//!   `c·(rows+1) ..`, bottom first. In a column of height `h`, variable `h`
//!   is 1 (the sentinel), those above it 0, and each one below it is the
//!   colour of its stone (1 = X). This is the bit layout of the gravity
//!   keys ([`crate::rules::gravity`]): a position's key *is* its
//!   assignment.
//!
//!   ```text
//!   column of height 2, X then O:    var 3: 0   (empty)
//!                                    var 2: 1   sentinel
//!                                    var 1: 0   O
//!                                    var 0: 1   X
//!   ```
//! * **Pair** (both families; Edelkamp & Kissmann's encoding): two
//!   variables a cell, `2·i` "X is here" and `2·i + 1` "O is here", where
//!   `i` numbers the cells column by column from the bottom (gravity) or
//!   row by row (m,n,k).
//!
//! Either way every position has exactly one assignment and every
//! assignment that a set holds is a position, so a set's model count over
//! [`Layout::vars`] variables is its number of positions.

use crate::board::BoardSize;
use crate::error::{Error, Remedy, Result, Setting};
use crate::position::{Family, Position};

/// How a position is spelled in variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// One variable a cell and a sentinel row (gravity boards).
    Column,
    /// Two variables a cell.
    Pair,
}

impl Encoding {
    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Column => "column",
            Encoding::Pair => "pair",
        }
    }

    /// The encoding measured best for a board (module doc of
    /// `super`): the column encoding for gravity boards, pairs for m,n,k.
    pub fn best_for(family: Family) -> Self {
        match family {
            Family::Gravity => Encoding::Column,
            Family::Mnk => Encoding::Pair,
        }
    }
}

/// A board and its variable layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Gravity or m,n,k.
    pub family: Family,
    /// Columns.
    pub cols: u32,
    /// Rows.
    pub rows: u32,
    /// Stones in a row that win (a `k` no line fits is allowed: nobody
    /// wins, as in Böck's table of small boards).
    pub k: u32,
    /// The encoding.
    pub encoding: Encoding,
}

impl Layout {
    /// Validates the board: at least one cell, `k ≥ 1`, at most 64 cells
    /// (positions are 64-bit masks), and the column encoding only for
    /// gravity boards.
    pub fn new(family: Family, size: BoardSize, encoding: Encoding) -> Result<Self> {
        let BoardSize { cols, rows, k } = size;
        let cells = u64::from(cols) * u64::from(rows);
        if cols == 0 || rows == 0 || cells > 64 {
            return Err(Error::InvalidInput(format!(
                "a board of {cols} columns × {rows} rows is outside what the symbolic engine \
                 takes (1 to 64 cells)"
            )));
        }
        if k == 0 || k > 64 {
            return Err(Error::InvalidInput(format!("k = {k} must be 1 to 64")));
        }
        if encoding == Encoding::Column && family != Family::Gravity {
            return Err(Error::refused(
                "the column encoding is for gravity boards (use {remedy})",
                &[Remedy::set(Setting::Encoding, "pair")],
            ));
        }
        Ok(Self {
            family,
            cols,
            rows,
            k,
            encoding,
        })
    }

    /// Cells on the board.
    pub fn cells(&self) -> u32 {
        self.cols * self.rows
    }

    /// Variables of one position.
    pub fn vars(&self) -> u32 {
        match self.encoding {
            Encoding::Column => self.cols * (self.rows + 1),
            Encoding::Pair => 2 * self.cells(),
        }
    }

    /// Column encoding: the variable of column `c`, bit `j` (0 = bottom).
    pub fn column_var(&self, c: u32, j: u32) -> u32 {
        debug_assert!(self.encoding == Encoding::Column && c < self.cols && j <= self.rows);
        c * (self.rows + 1) + j
    }

    /// Pair encoding: the variable "`player`'s stone is on `(c, r)`"
    /// (`player` 0 = X, 1 = O).
    pub fn pair_var(&self, c: u32, r: u32, player: usize) -> u32 {
        debug_assert!(self.encoding == Encoding::Pair && c < self.cols && r < self.rows);
        let cell = match self.family {
            Family::Gravity => c * self.rows + r,
            Family::Mnk => r * self.cols + c,
        };
        2 * cell + player as u32
    }

    /// The bit of `(c, r)` in [`Position`]'s masks (cells row by row from
    /// the top).
    fn position_bit(&self, c: u32, r: u32) -> u64 {
        let row_from_top = match self.family {
            Family::Gravity => self.rows - 1 - r,
            Family::Mnk => r,
        };
        1u64 << (row_from_top * self.cols + c)
    }

    /// The assignment that spells `p`, one entry a variable. Contract: `p`
    /// fits the board, and on a gravity board every stone rests on another
    /// (checked by the position module before any lookup).
    pub fn assignment(&self, p: &Position) -> Vec<bool> {
        let mut bits = vec![false; self.vars() as usize];
        let (x, o) = p.words();
        match self.encoding {
            Encoding::Pair => {
                for c in 0..self.cols {
                    for r in 0..self.rows {
                        let bit = self.position_bit(c, r);
                        bits[self.pair_var(c, r, 0) as usize] = x & bit != 0;
                        bits[self.pair_var(c, r, 1) as usize] = o & bit != 0;
                    }
                }
            }
            Encoding::Column => {
                for c in 0..self.cols {
                    let mut height = 0;
                    for r in 0..self.rows {
                        let bit = self.position_bit(c, r);
                        if (x | o) & bit != 0 {
                            bits[self.column_var(c, r) as usize] = x & bit != 0;
                            height = r + 1;
                        }
                    }
                    bits[self.column_var(c, height) as usize] = true;
                }
            }
        }
        bits
    }

    /// Every line of `k` cells, each as its cells.
    pub fn lines(&self) -> Vec<Vec<(u32, u32)>> {
        let (cols, rows, k) = (self.cols as i64, self.rows as i64, self.k as i64);
        let mut lines = Vec::new();
        for c in 0..cols {
            for r in 0..rows {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let (ec, er) = (c + dc * (k - 1), r + dr * (k - 1));
                    if !(0..cols).contains(&ec) || !(0..rows).contains(&er) {
                        continue;
                    }
                    // a line of one cell is found once, not four times
                    if k == 1 && (dc, dr) != (1, 0) {
                        continue;
                    }
                    lines.push(
                        (0..k)
                            .map(|i| ((c + dc * i) as u32, (r + dr * i) as u32))
                            .collect(),
                    );
                }
            }
        }
        lines
    }
}

/// The player (0 = X) to move at `ply`.
pub fn mover(ply: u32) -> usize {
    (ply % 2) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_assignment_is_the_gravity_key() {
        // 2 columns × 2 rows; X in column 0, O on it; X in column 1
        let layout =
            Layout::new(Family::Gravity, BoardSize::new(2, 2, 2), Encoding::Column).unwrap();
        // position bits: row 0 (top) = bits 0,1; row 1 (bottom) = bits 2,3
        let p = Position::from_words(0b0100 | 0b1000, 0b0001);
        let bits = layout.assignment(&p);
        // column 0: X, O, sentinel at 2; column 1: X, sentinel at 1
        assert_eq!(bits, vec![true, false, true, true, true, false]);
    }

    #[test]
    fn lines_of_tic_tac_toe() {
        let layout = Layout::new(Family::Mnk, BoardSize::new(3, 3, 3), Encoding::Pair).unwrap();
        assert_eq!(layout.lines().len(), 8);
        let one = Layout::new(Family::Mnk, BoardSize::new(3, 3, 1), Encoding::Pair).unwrap();
        assert_eq!(one.lines().len(), 9);
        let unfit =
            Layout::new(Family::Gravity, BoardSize::new(3, 3, 4), Encoding::Column).unwrap();
        assert!(unfit.lines().is_empty());
    }
}
