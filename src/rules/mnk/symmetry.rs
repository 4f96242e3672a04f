//! The symmetries of a board: the 8 rotations and reflections of a square,
//! the 4 of a rectangle (identity, both mirrors, half turn), as cell
//! permutations applied to masks through byte tables.

/// Distinct cell permutations of a board, identity first, with byte tables:
/// `tables[g][b][v]` is the image under symmetry `g` of the byte value `v`
/// at byte `b` of a mask.
#[derive(Clone, Debug)]
pub struct Symmetries {
    tables: Vec<[[u32; 256]; 4]>,
}

impl Symmetries {
    /// The symmetries of a `rows × cols` board, duplicates removed (on a
    /// 1×n board a vertical mirror is the identity).
    pub fn of_board(rows: u32, cols: u32) -> Self {
        let kinds = if rows == cols { 8 } else { 4 };
        let mut perms: Vec<Vec<u32>> = Vec::new();
        for kind in 0..kinds {
            let perm: Vec<u32> = (0..rows * cols)
                .map(|cell| {
                    let (r, c) = map_cell(kind, cell / cols, cell % cols, rows, cols);
                    r * cols + c
                })
                .collect();
            if !perms.contains(&perm) {
                perms.push(perm);
            }
        }
        let tables = perms
            .iter()
            .map(|perm| {
                let mut table = [[0u32; 256]; 4];
                for (byte, row) in table.iter_mut().enumerate() {
                    for (value, image) in row.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let cell = byte * 8 + bit;
                            if value & (1 << bit) != 0 && cell < perm.len() {
                                *image |= 1 << perm[cell];
                            }
                        }
                    }
                }
                table
            })
            .collect();
        Self { tables }
    }

    /// Number of distinct symmetries (the group's order).
    pub fn len(&self) -> u32 {
        self.tables.len() as u32
    }

    /// Always false: the identity is a symmetry.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The image of `mask` under symmetry `g`.
    #[inline]
    pub fn apply(&self, g: usize, mask: u32) -> u32 {
        let t = &self.tables[g];
        t[0][(mask & 0xFF) as usize]
            | t[1][((mask >> 8) & 0xFF) as usize]
            | t[2][((mask >> 16) & 0xFF) as usize]
            | t[3][(mask >> 24) as usize]
    }

    /// The symmetries other than the identity that map `mask` onto itself,
    /// as bits (`1 << g`).
    #[inline]
    pub fn fixing(&self, mask: u32) -> u8 {
        (1..self.tables.len())
            .filter(|&g| self.apply(g, mask) == mask)
            .fold(0, |bits, g| bits | 1 << g)
    }

    /// [`stabilizer`](Self::stabilizer) of (X cells, O cells) given
    /// `fixing_x = fixing(X cells)`: only those symmetries are tried on O.
    #[inline]
    pub fn stabilizer_given(&self, fixing_x: u8, o_cells: u32) -> u32 {
        let mut count = 1;
        let mut rest = fixing_x;
        while rest != 0 {
            let g = rest.trailing_zeros() as usize;
            count += u32::from(self.apply(g, o_cells) == o_cells);
            rest &= rest - 1;
        }
        count
    }

    /// How many symmetries map the board (X cells, O cells) onto itself.
    /// By Burnside's lemma, summing this over a symmetric set of boards and
    /// dividing by [`len`](Self::len) counts the set's classes.
    #[inline]
    pub fn stabilizer(&self, x_cells: u32, o_cells: u32) -> u32 {
        1 + (1..self.tables.len())
            .filter(|&g| self.apply(g, x_cells) == x_cells && self.apply(g, o_cells) == o_cells)
            .count() as u32
    }
}

/// Where symmetry `kind` (0..4 for any board, 4..8 only for squares)
/// sends the cell at row `r`, column `c`.
pub(crate) fn map_cell(kind: u32, r: u32, c: u32, rows: u32, cols: u32) -> (u32, u32) {
    let (r1, c1) = (rows - 1, cols - 1);
    match kind {
        0 => (r, c),
        1 => (r, c1 - c),
        2 => (r1 - r, c),
        3 => (r1 - r, c1 - c),
        4 => (c, r),
        5 => (c1 - c, r1 - r),
        6 => (c, r1 - r),
        _ => (c1 - c, r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_orders() {
        assert_eq!(Symmetries::of_board(3, 3).len(), 8);
        assert_eq!(Symmetries::of_board(3, 4).len(), 4);
        assert_eq!(Symmetries::of_board(1, 4).len(), 2);
        assert_eq!(Symmetries::of_board(1, 1).len(), 1);
    }

    #[test]
    fn images_are_permutations() {
        let s = Symmetries::of_board(4, 4);
        for g in 0..s.len() as usize {
            let mut seen = 0u32;
            for cell in 0..16 {
                let image = s.apply(g, 1 << cell);
                assert_eq!(image.count_ones(), 1);
                seen |= image;
            }
            assert_eq!(seen, 0xFFFF);
        }
        // the centre of a 3×3 board is fixed by all 8
        assert_eq!(Symmetries::of_board(3, 3).stabilizer(1 << 4, 0), 8);
        assert_eq!(Symmetries::of_board(3, 3).stabilizer(1 << 0, 0), 2);
    }
}
