//! The threat prover's board: the *windows* (every run of `k` cells in a
//! row, column or diagonal), the board's symmetries, and a position kept
//! with per-window stone counts so that a move updates only the windows
//! through its cell.
//!
//! Invariants of [`Board`]: byte `s` of `counts[w]` (little-endian: X
//! low, O high) is the number of stones of colour `s` (0 = X, 1 = O) in
//! window `w`; `level[s][j]` holds exactly the
//! windows with `k − 1 − j` stones of `s` and none of the other colour
//! (`j` = 0: *fours*, one cell short of a line; `j` = 1: *threes*);
//! `hashes[t]` is the Zobrist hash of the position's image under symmetry
//! `t`, with `SIDE_KEY` xored in when `passed`. [`Board::play`] and
//! [`Board::undo`] keep all three; [`Board::play_in_run`] and
//! [`Board::undo_in_run`], for the runs of fours, keep the counts and
//! levels but of the hashes only `hashes[0]` (the exact key), and must be
//! undone before any other key is read;
//! [`Board::image_into`] maps all three onto an image. [`Board::pass`] flips `passed` (the
//! parity of the passes), and the side to move follows from the parity of
//! the stones and passes together.

use crate::board::cells::Cells;
use crate::board::BoardSize;
use crate::error::{Error, Result};

/// The hash key of "the side to move is not the one the stones give"
/// (after a pass); the same under every symmetry.
const SIDE_KEY: u128 = 0x5bd1_e995_8f3a_2c47_d6e8_feb8_6659_fd93;

/// A set of windows (at most 64 · [`WINDOW_WORDS`]).
pub type Windows = [u64; WINDOW_WORDS];

/// Words of a window set: 1,024 windows, enough for 16 × 16 with any `k`
/// ≥ 5 (19 × 19 would need more cells than [`Cells`] holds anyway).
pub const WINDOW_WORDS: usize = 16;

/// The most windows a board has.
pub const MAX_WINDOWS: usize = WINDOW_WORDS * 64;

/// The shape of the board: its windows, which windows run through each
/// cell, its symmetries and the hash keys of the stones.
pub struct Geometry {
    /// Columns.
    pub cols: u32,
    /// Rows.
    pub rows: u32,
    /// Stones in a row that win.
    pub k: u32,
    /// Every cell of the board.
    pub all: Cells,
    /// The cells of each window.
    pub windows: Vec<Cells>,
    /// The windows through each cell.
    pub windows_at: Vec<Vec<u16>>,
    /// The cells of each window, `k` a window in window order (window `w`
    /// at `w · k`).
    pub window_cells: Vec<u16>,
    /// The image of each cell under each symmetry (the identity first).
    pub symmetries: Vec<Vec<u16>>,
    /// The inverse of each symmetry.
    pub inverses: Vec<Vec<u16>>,
    /// The cells sharing a window with each cell (itself among them).
    near: Vec<Cells>,
    /// The image of each window under each symmetry.
    window_images: Vec<Vec<u16>>,
    /// The number of windows through each cell (0 past the board).
    pub windows_through: [u64; Cells::CAPACITY],
    /// `compositions[s][t]`: the symmetry that is `t` then `s`, so that
    /// the image under `s` of a position's image under `t` is its image
    /// under `compositions[s][t]`.
    compositions: Vec<Vec<u8>>,
    /// Hash keys by colour, a row of one a symmetry for each cell: entry
    /// `cell · S + t` (S symmetries) is the key of a stone on the image of
    /// `cell` under symmetry `t`, so that a move reads one row in a row.
    keys: [Vec<u128>; 2],
    /// The level sets of the empty board (threes when k = 2, fours when
    /// k = 1), copied by [`Board::empty`] instead of worked out per board.
    empty_levels: [[Windows; 2]; 2],
    /// Added to a window's counts word, sets bit 7 of a byte where its
    /// count is k − 2 or more: `(128 − (k − 2)) · 0x0101` (`0x8080` when
    /// k ≤ 2; 0 when k − 2 > 128, which no count reaches, and a count of
    /// 128 then asks for a harmless relevel). A count is at most
    /// min(k, 128) (half of 256 cells, rounded up), so a byte's sum stays
    /// at most 130 and no carry crosses into the other byte.
    level_bias: u16,
}

impl Geometry {
    /// The board of `cols × rows` cells where `k` in a row wins; refused
    /// (one line) past [`Cells::CAPACITY`] cells or `WINDOW_WORDS` · 64
    /// windows, or when `k` is 0 or longer than both sides.
    pub fn new(size: BoardSize) -> Result<Self> {
        let BoardSize { cols, rows, k } = size;
        let cells = u64::from(cols) * u64::from(rows);
        if cells == 0 || cells > Cells::CAPACITY as u64 {
            return Err(Error::InvalidInput(format!(
                "a {cols} × {rows} board has {cells} cells; the threat prover takes 1 to {}",
                Cells::CAPACITY
            )));
        }
        if k == 0 || k > cols.max(rows) {
            return Err(Error::InvalidInput(format!(
                "k = {k} does not fit a {cols} × {rows} board"
            )));
        }
        let lines = crate::position::winning_lines(cols, rows, k);
        if lines.len() > WINDOW_WORDS * 64 {
            return Err(Error::InvalidInput(format!(
                "a {cols} × {rows} board with k = {k} has {} lines; the threat prover takes at most {}",
                lines.len(),
                WINDOW_WORDS * 64
            )));
        }
        let n = cells as usize;
        let mut windows_at = vec![Vec::new(); n];
        let windows: Vec<Cells> = lines
            .iter()
            .enumerate()
            .map(|(w, line)| {
                line.iter().fold(Cells::default(), |s, &c| {
                    windows_at[c as usize].push(w as u16);
                    s.with(c)
                })
            })
            .collect();
        let window_cells = lines.iter().flatten().map(|&c| c as u16).collect();
        let all = (0..n as u32).fold(Cells::default(), |s, c| s.with(c));
        let symmetries = crate::position::cell_symmetries(cols, rows);
        let inverses = symmetries
            .iter()
            .map(|image| {
                let mut inverse = vec![0u16; n];
                for (cell, &to) in image.iter().enumerate() {
                    inverse[to as usize] = cell as u16;
                }
                inverse
            })
            .collect();
        let windows_through =
            std::array::from_fn(|c| windows_at.get(c).map_or(0, |w: &Vec<u16>| w.len() as u64));
        let window_images = symmetries
            .iter()
            .map(|image| {
                (0..lines.len())
                    .map(|w| {
                        let to = windows[w].iter().fold(Cells::default(), |s, c| {
                            s.with(u32::from(image[c as usize]))
                        });
                        let first = to.first().expect("a window has cells");
                        windows_at[first as usize]
                            .iter()
                            .copied()
                            .find(|&v| windows[usize::from(v)] == to)
                            .expect("a symmetry maps windows onto windows")
                    })
                    .collect()
            })
            .collect();
        let compositions = symmetries
            .iter()
            .map(|s| {
                symmetries
                    .iter()
                    .map(|t| {
                        let then: Vec<u16> = t.iter().map(|&c| s[c as usize]).collect();
                        symmetries
                            .iter()
                            .position(|u| *u == then)
                            .expect("the symmetries are a group") as u8
                    })
                    .collect()
            })
            .collect();
        let mut empty_levels = [[[0; WINDOW_WORDS]; 2]; 2];
        for w in 0..lines.len() {
            for (colour, levels) in empty_levels.iter_mut().enumerate() {
                if let Some(j) = level(k as u8, [0; 2], colour) {
                    levels[j][w / 64] |= 1 << (w % 64);
                }
            }
        }
        let keys = [0x9e37_79b9, 0x7f4a_7c15].map(|seed| {
            let of_cell = hash_keys(n, seed);
            (0..n)
                .flat_map(|cell| symmetries.iter().map(move |image| image[cell]))
                .map(|to| of_cell[to as usize])
                .collect()
        });
        let near = windows_at
            .iter()
            .enumerate()
            .map(|(cell, ws)| {
                ws.iter().fold(Cells::one(cell as u32), |near, &w| {
                    near | windows[w as usize]
                })
            })
            .collect();
        Ok(Self {
            cols,
            rows,
            k,
            all,
            windows,
            windows_at,
            near,
            window_cells,
            symmetries,
            inverses,
            window_images,
            windows_through,
            compositions,
            keys,
            empty_levels,
            level_bias: 128u16.saturating_sub(k.saturating_sub(2).min(128) as u16) * 0x0101,
        })
    }

    /// The cells sharing a window with `cell` (itself among them).
    pub fn cells_near(&self, cell: u32) -> Cells {
        self.near[cell as usize]
    }

    /// The hash keys of a stone of `colour` on `cell`'s image under each
    /// symmetry.
    fn keys_of(&self, cell: u32, colour: usize) -> &[u128] {
        let n = self.symmetries.len();
        &self.keys[colour][cell as usize * n..][..n]
    }

    /// Cells on the board.
    pub fn cells(&self) -> u32 {
        self.cols * self.rows
    }

    /// The name of a cell: column letter, row number from 1 at the top.
    pub fn cell_name(&self, cell: u32) -> String {
        crate::position::mnk_cell_name(self.cols, cell)
    }

    /// The cell named `name` (`h8`: column h, row 8 from the top; the
    /// position language's `crate::position::parse_mnk_cell`), or a
    /// one-line error.
    pub fn parse_cell(&self, name: &str) -> Result<u32> {
        crate::position::parse_mnk_cell(self.cols, self.rows, name)
    }
}

/// `n` pseudo-random 128-bit keys (splitmix64 from `seed`).
fn hash_keys(n: usize, seed: u64) -> Vec<u128> {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    (0..n)
        .map(|_| (u128::from(next()) << 64) | u128::from(next()))
        .collect()
}

/// The level of a window with `counts` for `colour`: 0 a four, 1 a three
/// (`k − 1` or `k − 2` of its stones and none of the other's), else none.
fn level(k: u8, counts: [u8; 2], colour: usize) -> Option<usize> {
    let (mine, theirs) = (counts[colour], counts[1 - colour]);
    (theirs == 0 && mine + 2 >= k && mine < k).then(|| usize::from(k - 1 - mine))
}

/// A position with its per-window counts (module docs).
#[derive(Clone)]
pub struct Board<'g> {
    /// The board's shape.
    pub geometry: &'g Geometry,
    /// The stones by colour: 0 = X (moves first), 1 = O.
    pub stones: [Cells; 2],
    /// Both colours' counts of each window in one word (module docs; the
    /// words past the board's windows stay 0): a
    /// move adds or takes `1 << 8 · colour`, in a register (an update
    /// through a byte of a pair in memory stalled on store forwarding and
    /// took most of the prover's time).
    counts: Box<[u16; MAX_WINDOWS]>,
    level: [[Windows; 2]; 2],
    hashes: Vec<u128>,
    /// Whether an odd number of passes changed the side to move.
    passed: bool,
}

impl<'g> Board<'g> {
    /// The empty board, X to move.
    pub fn empty(geometry: &'g Geometry) -> Self {
        Self {
            geometry,
            stones: [Cells::default(); 2],
            counts: Box::new([0; MAX_WINDOWS]),
            level: geometry.empty_levels,
            hashes: vec![0; geometry.symmetries.len()],
            passed: false,
        }
    }

    /// The cells either colour holds.
    pub fn occupied(&self) -> Cells {
        self.stones[0] | self.stones[1]
    }

    /// The cells no stone holds.
    pub fn empties(&self) -> Cells {
        self.geometry.all.minus(self.occupied())
    }

    /// Whether `cell` holds no stone.
    pub fn is_empty(&self, cell: u32) -> bool {
        !self.occupied().has(cell)
    }

    /// The colour to move: X after an even number of moves and passes
    /// (so X when both have as many stones and no one passed).
    pub fn to_move(&self) -> usize {
        ((self.stones[0].len() + self.stones[1].len()) as usize + usize::from(self.passed)) % 2
    }

    /// The side to move passes (its own inverse: a second pass takes the
    /// first back).
    pub fn pass(&mut self) {
        self.passed = !self.passed;
        for h in &mut self.hashes {
            *h ^= SIDE_KEY;
        }
    }

    /// [`Self::key`] after a pass, without passing.
    pub fn key_after_pass(&self) -> u128 {
        self.hashes.iter().map(|h| h ^ SIDE_KEY).min().unwrap_or(0)
    }

    /// The windows with `k − 1` stones of `colour` and none of the other.
    pub fn fours(&self, colour: usize) -> &Windows {
        &self.level[colour][0]
    }

    /// The windows with `k − 2` stones of `colour` and none of the other.
    pub fn threes(&self, colour: usize) -> &Windows {
        &self.level[colour][1]
    }

    /// The stones of each colour in window `w`.
    pub fn count(&self, w: usize) -> [u8; 2] {
        self.counts[w].to_le_bytes()
    }

    /// Calls `f` with each window holding a stone and its counts (as
    /// [`Self::count`]), in window order; most windows hold none, and are
    /// skipped eight at a time.
    pub fn for_each_window_with_stones(&self, mut f: impl FnMut(usize, [u8; 2])) {
        for (i, chunk) in self.counts.chunks_exact(8).enumerate() {
            // (an or of the eight: one vector test)
            if chunk.iter().fold(0, |any, &c| any | c) == 0 {
                continue;
            }
            for (j, &counts) in chunk.iter().enumerate() {
                if counts != 0 {
                    f(i * 8 + j, counts.to_le_bytes());
                }
            }
        }
    }

    /// The cells where `colour` completes a line with one move.
    pub fn completions(&self, colour: usize) -> Cells {
        self.empty_cells_of(self.fours(colour))
    }

    /// The empty cells of a set of windows.
    pub fn empty_cells_of(&self, windows: &Windows) -> Cells {
        self.cells_of(windows).minus(self.occupied())
    }

    /// Every cell of a set of windows.
    pub fn cells_of(&self, windows: &Windows) -> Cells {
        let mut cells = Cells::default();
        for_each(windows, |w| cells = cells | self.geometry.windows[w]);
        cells
    }

    /// Every cell of the windows that hold no stone of the other colour and
    /// `at_least` stones of `colour` or more (but fewer than `k`).
    pub fn open_window_cells(&self, colour: usize, at_least: u32) -> Cells {
        let k = self.geometry.k;
        if at_least >= k {
            return Cells::default();
        }
        if at_least + 2 >= k {
            let mut cells = self.cells_of(self.fours(colour));
            if at_least + 2 == k {
                cells = cells | self.cells_of(self.threes(colour));
            }
            return cells;
        }
        let mut cells = Cells::default();
        let windows = self.geometry.windows.len();
        for (w, counts) in self.counts[..windows].iter().enumerate() {
            let counts = counts.to_le_bytes();
            let (mine, theirs) = (u32::from(counts[colour]), counts[1 - colour]);
            if theirs == 0 && mine >= at_least && mine < k {
                cells = cells | self.geometry.windows[w];
            }
        }
        cells
    }

    /// Puts a stone of `colour` on the empty `cell`.
    pub fn play(&mut self, cell: u32, colour: usize) {
        self.rehash(cell, colour);
        self.play_in_run(cell, colour);
    }

    /// Takes back the stone of `colour` on `cell`.
    pub fn undo(&mut self, cell: u32, colour: usize) {
        self.rehash(cell, colour);
        self.undo_in_run(cell, colour);
    }

    /// [`Self::play`] for a replay or search of runs of fours, which reads
    /// no key but [`Self::exact_key`]: the images' hashes are left as they
    /// are (a move's cost was a third theirs), so until the stone is taken
    /// back with [`Self::undo_in_run`] every other key is wrong.
    pub fn play_in_run(&mut self, cell: u32, colour: usize) {
        debug_assert!(self.is_empty(cell));
        self.stones[colour] = self.stones[colour].with(cell);
        self.hashes[0] ^= self.geometry.keys_of(cell, colour)[0];
        self.count_stone(cell, colour, true);
    }

    /// Takes back a stone of [`Self::play_in_run`].
    pub fn undo_in_run(&mut self, cell: u32, colour: usize) {
        debug_assert!(self.stones[colour].has(cell));
        self.stones[colour] = self.stones[colour].minus(Cells::one(cell));
        self.hashes[0] ^= self.geometry.keys_of(cell, colour)[0];
        self.count_stone(cell, colour, false);
    }

    /// Adds (`placed`) or removes a stone of `colour` on `cell` in the
    /// counts and levels of the windows through it.
    fn count_stone(&mut self, cell: u32, colour: usize, placed: bool) {
        let geometry = self.geometry;
        let delta = 1u16 << (8 * colour);
        let step = if placed { delta } else { delta.wrapping_neg() };
        let level_bias = geometry.level_bias;
        for &w in &geometry.windows_at[cell as usize] {
            // (the mask keeps w, below MAX_WINDOWS, and spares the bounds
            // check)
            let w = usize::from(w) % MAX_WINDOWS;
            let before = self.counts[w];
            let after = before.wrapping_add(step);
            // the mover's byte alone changes: the larger word has its
            // larger count
            let larger = before.max(after);
            self.counts[w] = after;
            // `larger` holds the mover's larger count (before or after) and
            // the other's: a window with fewer than k − 2 of each colour in
            // it has no level before or after (most windows)
            if (larger + level_bias) & 0x8080 != 0 {
                self.relevel(w, before.to_le_bytes(), after.to_le_bytes());
            }
        }
    }

    /// Moves window `w` between the level sets as its counts change from
    /// `before` to `after`.
    fn relevel(&mut self, w: usize, before: [u8; 2], after: [u8; 2]) {
        let k = self.geometry.k as u8;
        let (word, bit) = (w / 64, 1u64 << (w % 64));
        for colour in 0..2 {
            let old = level(k, before, colour);
            let new = level(k, after, colour);
            if old != new {
                if let Some(j) = old {
                    self.level[colour][j][word] &= !bit;
                }
                if let Some(j) = new {
                    self.level[colour][j][word] |= bit;
                }
            }
        }
    }

    /// Xors a stone of `colour` on `cell` into the images' hashes (all but
    /// the exact key, which the moves update themselves).
    fn rehash(&mut self, cell: u32, colour: usize) {
        for (h, key) in self.hashes[1..]
            .iter_mut()
            .zip(&self.geometry.keys_of(cell, colour)[1..])
        {
            *h ^= key;
        }
    }

    /// The position's key, the same for all its symmetric images.
    pub fn key(&self) -> u128 {
        self.hashes.iter().copied().min().unwrap_or(0)
    }

    /// The key and a symmetry that maps the position onto the image the
    /// key names (its *canonical* image): the same image from every
    /// orientation.
    pub fn canonical(&self) -> (u128, usize) {
        let (t, &key) = self
            .hashes
            .iter()
            .enumerate()
            .min_by_key(|&(_, h)| *h)
            .expect("the identity");
        (key, t)
    }

    /// Whether a symmetry other than the identity maps the position onto
    /// itself (by key).
    pub fn is_symmetric(&self) -> bool {
        self.hashes[1..].contains(&self.hashes[0])
    }

    /// The position's image under symmetry `t` (each stone on its cell's
    /// image).
    pub fn image(&self, t: usize) -> Self {
        let mut image = Self::empty(self.geometry);
        self.image_into(t, &mut image);
        image
    }

    /// Makes `target` (any position on the same board) this position's
    /// image under symmetry `t`, moving counts, levels and hashes to their
    /// images rather than playing each stone again (the prover takes an
    /// image at every expansion).
    pub fn image_into(&self, t: usize, target: &mut Board<'_>) {
        let g = self.geometry;
        debug_assert!(std::ptr::eq(g, target.geometry));
        let cells = &g.symmetries[t];
        for colour in 0..2 {
            target.stones[colour] = self.stones[colour].iter().fold(Cells::default(), |s, c| {
                s.with(u32::from(cells[c as usize]))
            });
        }
        let windows = &g.window_images[t];
        target.counts.fill(0);
        self.for_each_window_with_stones(|w, counts| {
            target.counts[usize::from(windows[w]) % MAX_WINDOWS] = u16::from_le_bytes(counts);
        });
        for (levels, to_levels) in self.level.iter().zip(&mut target.level) {
            for (set, to_set) in levels.iter().zip(to_levels) {
                *to_set = [0; WINDOW_WORDS];
                for_each(set, |w| {
                    let to = usize::from(windows[w]);
                    to_set[to / 64] |= 1 << (to % 64);
                });
            }
        }
        // the image under s of the image under t is the image under s∘t
        for (s, hash) in target.hashes.iter_mut().enumerate() {
            *hash = self.hashes[usize::from(g.compositions[s][t])];
        }
        target.passed = self.passed;
    }

    /// The key of this exact position (not shared with its images).
    pub fn exact_key(&self) -> u128 {
        self.hashes[0]
    }

    /// [`Self::key`] after a stone of `colour` on `cell`, without playing it.
    pub fn key_after(&self, cell: u32, colour: usize) -> u128 {
        self.hashes
            .iter()
            .zip(self.geometry.keys_of(cell, colour))
            .map(|(h, key)| h ^ key)
            .min()
            .unwrap_or(0)
    }

    /// The position after `moves` from the empty board (cell names
    /// separated by spaces or commas, X first, then turn about), or a
    /// one-line error for a cell not on the board or taken, or a move
    /// after a line is complete.
    pub fn after(geometry: &'g Geometry, moves: &str) -> Result<Self> {
        let mut board = Self::empty(geometry);
        for name in moves.split([',', ' ']).filter(|s| !s.is_empty()) {
            let cell = geometry.parse_cell(name)?;
            if !board.is_empty(cell) {
                return Err(Error::InvalidInput(format!("{name} is played twice")));
            }
            if board.has_line() {
                return Err(Error::InvalidInput(format!(
                    "{name} comes after a line of {} is complete",
                    geometry.k
                )));
            }
            let colour = board.to_move();
            board.play(cell, colour);
        }
        Ok(board)
    }

    /// The position a [`Self::diagram`] shows (rows from the top
    /// separated by `/`, `X`, `O` or `.` a cell), or `None` for text of
    /// another shape or with other characters.
    pub fn from_diagram(geometry: &'g Geometry, diagram: &str) -> Option<Self> {
        let rows: Vec<&str> = diagram.split('/').collect();
        if rows.len() != geometry.rows as usize
            || rows.iter().any(|r| r.len() != geometry.cols as usize)
        {
            return None;
        }
        let mut board = Self::empty(geometry);
        for (cell, stone) in rows.concat().bytes().enumerate() {
            match stone {
                b'X' => board.play(cell as u32, 0),
                b'O' => board.play(cell as u32, 1),
                b'.' => {}
                _ => return None,
            }
        }
        Some(board)
    }

    /// Whether either colour has a complete line.
    pub fn has_line(&self) -> bool {
        let k = self.geometry.k as u8;
        self.counts[..self.geometry.windows.len()]
            .iter()
            .any(|c| c.to_le_bytes().contains(&k))
    }

    /// The position's diagram (rows from the top separated by `/`).
    pub fn diagram(&self) -> String {
        let g = self.geometry;
        crate::position::mnk_diagram(g.cols, g.rows, |c| {
            if self.stones[0].has(c) {
                'X'
            } else if self.stones[1].has(c) {
                'O'
            } else {
                '.'
            }
        })
    }
}

/// Calls `f` on each window of the set.
pub fn for_each(windows: &Windows, mut f: impl FnMut(usize)) {
    for (i, &word) in windows.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            f(i * 64 + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_levels_and_keys_follow_play_and_undo() {
        let g = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        assert_eq!(g.windows.len(), 572);
        let mut b = Board::empty(&g);
        let start = b.key();
        for name in ["h8", "h9", "i8", "a1", "j8"] {
            let cell = g.parse_cell(name).unwrap();
            let colour = b.to_move();
            b.play(cell, colour);
        }
        // X on h8 i8 j8: three in a row, open both ways
        assert!(b.completions(0).is_empty());
        let threes = b.empty_cells_of(b.threes(0));
        for name in ["f8", "g8", "k8", "l8"] {
            assert!(threes.has(g.parse_cell(name).unwrap()), "{name}");
        }
        // mirrored position has the same key
        let mut m = Board::empty(&g);
        for name in ["h8", "h9", "g8", "o1", "f8"] {
            let cell = g.parse_cell(name).unwrap();
            let colour = m.to_move();
            m.play(cell, colour);
        }
        assert_eq!(b.key(), m.key());
        assert_ne!(b.exact_key(), m.exact_key());
        for name in ["j8", "a1", "i8", "h9", "h8"] {
            let cell = g.parse_cell(name).unwrap();
            let colour = usize::from(!b.stones[0].has(cell));
            b.undo(cell, colour);
        }
        assert_eq!(b.key(), start);
        assert!(b.level[0][1].iter().all(|&w| w == 0));
    }

    #[test]
    fn a_diagram_gives_back_its_position_and_other_text_none() {
        let g = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        let b = Board::after(&g, "h8,a1,i9,o15,c3").unwrap();
        let back = Board::from_diagram(&g, &b.diagram()).unwrap();
        assert_eq!((back.key(), back.exact_key()), (b.key(), b.exact_key()));
        assert_eq!(back.stones, b.stones);
        let small = Geometry::new(BoardSize::new(4, 3, 3)).unwrap();
        let empty = Board::empty(&small).diagram();
        assert_eq!(empty, "..../..../....");
        for bad in [
            "..../..../...",
            "..../..../.....",
            "..../..../...x",
            "",
            "..../....",
        ] {
            assert!(Board::from_diagram(&small, bad).is_none(), "{bad}");
        }
    }

    /// Everything a board keeps (stones, counts, levels, hashes, pass),
    /// for comparing two.
    type State = ([Cells; 2], Vec<u16>, [[Windows; 2]; 2], Vec<u128>, bool);

    fn state(b: &Board) -> State {
        (
            b.stones,
            b.counts.to_vec(),
            b.level,
            b.hashes.clone(),
            b.passed,
        )
    }

    /// The image moved over by `image_into` (counts, levels and hashes
    /// mapped, into a board that held another position) is the board
    /// made by playing each stone's image, on square and oblong boards,
    /// with and without a pass; and a stone played and taken back "in a
    /// run" leaves the board as it was, its exact key right meanwhile.
    #[test]
    fn images_moved_over_are_the_images_played() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (cols, rows, k) in [(15, 15, 5), (9, 6, 4), (4, 4, 2), (5, 5, 1)] {
            let g = Geometry::new(BoardSize { cols, rows, k }).unwrap();
            let cells = g.cells() as u64;
            let mut target = Board::empty(&g);
            for trial in 0..60 {
                let mut b = Board::empty(&g);
                for _ in 0..next() % cells.min(40) {
                    let cell = (next() % cells) as u32;
                    if b.is_empty(cell) {
                        b.play(cell, (next() % 2) as usize);
                    }
                }
                if trial % 3 == 0 {
                    b.pass();
                }
                for t in 0..g.symmetries.len() {
                    let mut played = Board::empty(&g);
                    for colour in 0..2 {
                        for c in b.stones[colour].iter() {
                            played.play(u32::from(g.symmetries[t][c as usize]), colour);
                        }
                    }
                    if b.passed {
                        played.pass();
                    }
                    b.image_into(t, &mut target);
                    assert_eq!(state(&target), state(&played), "{cols}×{rows} symmetry {t}");
                }
                let before = state(&b);
                if let Some(cell) = b.empties().first() {
                    let exact_after = {
                        let mut c = b.clone();
                        c.play(cell, 1);
                        c.exact_key()
                    };
                    b.play_in_run(cell, 1);
                    assert_eq!(b.exact_key(), exact_after);
                    b.undo_in_run(cell, 1);
                    assert_eq!(state(&b), before);
                }
            }
        }
    }

    #[test]
    fn bad_boards_and_cells_are_refused() {
        assert!(Geometry::new(BoardSize::new(17, 16, 5)).is_err());
        assert!(Geometry::new(BoardSize::new(5, 5, 6)).is_err());
        let g = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        for bad in [
            "",
            "p1",
            "a0",
            "a16",
            "h",
            "8h",
            "h8x",
            "h+8",
            "h 8",
            "é8",
            "a99999999999",
        ] {
            assert!(g.parse_cell(bad).is_err(), "{bad}");
        }
        // the position language's names: either case, spaces trimmed
        assert_eq!(g.parse_cell(" H8 ").unwrap(), g.parse_cell("h8").unwrap());
        assert_eq!(g.parse_cell("o15").unwrap(), 224);
    }
}
