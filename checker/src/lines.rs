//! m,n,k lines and cell names for the certificate checkers, written apart
//! from the library (no shared code with `prove::pairing` or
//! `prove::proof_tree`); the tests take them as an independent reference
//! too.

/// Every line of `k` cells on a `cols` × `rows` board, as (column, row)
/// pairs (row 0 at the top), found by trying every cell as a start in
/// every direction.
pub fn all_lines(cols: i32, rows: i32, k: i32) -> Vec<Vec<(i32, i32)>> {
    let mut lines = Vec::new();
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for x in 0..cols {
            for y in 0..rows {
                let line: Vec<(i32, i32)> = (0..k).map(|i| (x + i * dx, y + i * dy)).collect();
                if line
                    .iter()
                    .all(|&(a, b)| (0..cols).contains(&a) && (0..rows).contains(&b))
                {
                    lines.push(line);
                }
            }
        }
    }
    lines
}

/// Every line of `k` cells on a `cols` × `rows` board as [`all_lines`]
/// finds them, each cell as its index `row · cols + column`.
pub fn cell_lines(cols: usize, rows: usize, k: usize) -> Vec<Vec<usize>> {
    all_lines(cols as i32, rows as i32, k as i32)
        .iter()
        .map(|l| {
            l.iter()
                .map(|&(c, r)| r as usize * cols + c as usize)
                .collect()
        })
        .collect()
}

/// Reads a cell name such as `c12`: a column letter, a row from 1 at the
/// top; (column, row) from 0.
pub fn parse_cell(name: &str) -> Option<(i32, i32)> {
    let mut chars = name.chars();
    let letter = chars.next()?;
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let row: i32 = chars.as_str().parse().ok()?;
    (row >= 1).then_some((letter as i32 - 'a' as i32, row - 1))
}
