//! Boards as text: `"XOX/.O./..."` — rows separated by `/`, `.` for an
//! empty cell.

use crate::error::{Error, Result};

use super::MAX_SIDE;

/// A board read from text: its size and stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedBoard {
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
    /// X cells (bit `r · cols + c`).
    pub x_cells: u32,
    /// O cells.
    pub o_cells: u32,
}

/// Reads a board; refuses an empty text, ragged rows, characters other than
/// `X`, `O`, `.` and `/`, and boards beyond 5×5.
pub fn parse_board(text: &str) -> Result<ParsedBoard> {
    let (rows, cols, x, o) = parse_board_within(text, MAX_SIDE)?;
    Ok(ParsedBoard {
        rows,
        cols,
        x_cells: x as u32,
        o_cells: o as u32,
    })
}

/// Reads a board of at most `max_side` rows and columns (and 64 cells) as
/// (rows, cols, X cells, O cells) with 64-bit masks.
pub fn parse_board_within(text: &str, max_side: u32) -> Result<(u32, u32, u64, u64)> {
    let bad = |why: String| Err(Error::InvalidInput(format!("bad board {text:?}: {why}")));
    if text.is_empty() {
        return bad("it is empty".into());
    }
    let rows: Vec<&str> = text.split('/').collect();
    let cols = rows[0].chars().count();
    if cols == 0 {
        return bad("a row is empty".into());
    }
    if let Some(r) = rows.iter().position(|row| row.chars().count() != cols) {
        return bad(format!(
            "row {} has {} cells, row 1 has {cols}",
            r + 1,
            rows[r].chars().count()
        ));
    }
    if rows.len() > max_side as usize || cols > max_side as usize || rows.len() * cols > 64 {
        return bad(format!(
            "{}×{cols} is larger than {max_side}×{max_side}",
            rows.len()
        ));
    }
    let (mut x_cells, mut o_cells) = (0u64, 0u64);
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let bit = 1u64 << (r * cols + c);
            match ch {
                'X' => x_cells |= bit,
                'O' => o_cells |= bit,
                '.' => {}
                other => return bad(format!("{other:?} is not X, O, . or /")),
            }
        }
    }
    Ok((rows.len() as u32, cols as u32, x_cells, o_cells))
}

/// The board as rows of `X`, `O`, `.`, one line each.
pub fn render_board(rows: u32, cols: u32, x_cells: u32, o_cells: u32) -> String {
    let mut out = String::new();
    for r in 0..rows {
        for c in 0..cols {
            let bit = 1u32 << (r * cols + c);
            out.push(if x_cells & bit != 0 {
                'X'
            } else if o_cells & bit != 0 {
                'O'
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_parse_and_render() {
        let b = parse_board("XOX/.O./...").unwrap();
        assert_eq!((b.rows, b.cols), (3, 3));
        assert_eq!(b.x_cells, 0b101);
        assert_eq!(b.o_cells, 0b10_010);
        assert_eq!(render_board(3, 3, b.x_cells, b.o_cells), "XOX\n.O.\n...\n");
    }

    #[test]
    fn malformed_boards_are_refused() {
        for text in [
            "",
            "XO/X",
            "XOZ/.../...",
            "x../.../...",
            "/",
            "....../....../",
            "...//...",
        ] {
            assert!(parse_board(text).is_err(), "{text:?}");
        }
    }
}
