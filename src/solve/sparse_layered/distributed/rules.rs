//! What the distributed layered engine needs of a board family: a root,
//! the canonical children of a position, whether a position is over by a
//! line, and how many positions a canonical key stands for. Every move adds
//! one stone, so the positions of ply `p` have `p` stones.

use super::super::moves::Moves;

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
