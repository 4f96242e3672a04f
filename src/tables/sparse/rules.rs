//! What the layered engines need of a board family: a root,
//! the canonical children of a position, whether a position is over by a
//! line, and how many positions a canonical key stands for. Every move adds
//! one stone, so the positions of ply `p` have `p` stones.

use super::moves::Moves;
use crate::rules::mnk::Mnk;

/// A family of boards where every move adds a stone, in key arithmetic.
/// Keys are canonical (one key for a position and its symmetric images).
pub trait LayeredRules: Sync {
    /// Cells of the board: the last ply.
    fn cells(&self) -> u32;
    /// Every key is below `2^key_bits()`.
    fn key_bits(&self) -> u32;
    /// The empty board's key.
    fn root(&self) -> u64;
    /// Whether `key` at `ply` is over because the player who just moved
    /// completed a line.
    fn has_ended_by_line(&self, key: u64, ply: u32) -> bool;
    /// Calls `child` with the canonical key of every child of `key` (not
    /// ended) at `ply`; a child reached by two moves may come twice.
    fn for_each_child(&self, key: u64, ply: u32, child: impl FnMut(u64));
    /// How many positions the canonical `key` stands for (its images).
    fn images(&self, key: u64) -> u64;
    /// Whether the solve counts games (move sequences from the empty
    /// board to an end, by result) as the family's report states them.
    fn counts_games(&self) -> bool {
        false
    }
}

impl LayeredRules for Moves {
    fn cells(&self) -> u32 {
        self.game().cells()
    }
    fn key_bits(&self) -> u32 {
        self.game().key_bits()
    }
    fn root(&self) -> u64 {
        self.game().key(0, 0)
    }
    #[inline]
    fn has_ended_by_line(&self, key: u64, ply: u32) -> bool {
        Moves::has_ended_by_line(self, key, ply)
    }
    #[inline]
    fn for_each_child(&self, key: u64, ply: u32, child: impl FnMut(u64)) {
        Moves::for_each_child(self, key, self.mirror(key), ply, child);
    }
    #[inline]
    fn images(&self, key: u64) -> u64 {
        if self.mirror(key) == key {
            1
        } else {
            2
        }
    }
}

/// m,n,k boards: a key is the two stone sets, `X cells | O cells << cells`
/// (cell `r · cols + c`), canonical under the board's rotations and
/// reflections (the smallest key of a position's images).
pub struct MnkRules {
    game: Mnk,
    cells: u32,
    all: u32,
}

impl MnkRules {
    /// The rules of `game`.
    pub fn new(game: &Mnk) -> Self {
        let cells = game.cells();
        Self {
            game: game.clone(),
            cells,
            all: ((1u64 << cells) - 1) as u32,
        }
    }

    /// (X cells, O cells) of a key.
    #[inline]
    fn stones(&self, key: u64) -> (u32, u32) {
        (key as u32 & self.all, (key >> self.cells) as u32)
    }

    /// The canonical key of (X cells, O cells).
    #[inline]
    fn canonical(&self, x: u32, o: u32) -> u64 {
        let symmetries = self.game.symmetries();
        (0..symmetries.len() as usize)
            .map(|g| {
                u64::from(symmetries.apply(g, x)) | u64::from(symmetries.apply(g, o)) << self.cells
            })
            .min()
            .expect("the identity at least")
    }
}

impl LayeredRules for MnkRules {
    fn cells(&self) -> u32 {
        self.cells
    }
    fn key_bits(&self) -> u32 {
        2 * self.cells
    }
    fn root(&self) -> u64 {
        0
    }
    #[inline]
    fn has_ended_by_line(&self, key: u64, ply: u32) -> bool {
        if ply.div_ceil(2) < self.game.k() {
            return false;
        }
        let (x, o) = self.stones(key);
        self.game.has_line(if ply % 2 == 1 { x } else { o })
    }
    #[inline]
    fn for_each_child(&self, key: u64, ply: u32, mut child: impl FnMut(u64)) {
        let (x, o) = self.stones(key);
        let mut empty = self.all & !(x | o);
        while empty != 0 {
            let cell = empty & empty.wrapping_neg();
            empty &= empty - 1;
            child(if ply.is_multiple_of(2) {
                self.canonical(x | cell, o)
            } else {
                self.canonical(x, o | cell)
            });
        }
    }
    #[inline]
    fn images(&self, key: u64) -> u64 {
        let (x, o) = self.stones(key);
        let symmetries = self.game.symmetries();
        u64::from(symmetries.len() / symmetries.stabilizer(x, o))
    }
    fn counts_games(&self) -> bool {
        true
    }
}
