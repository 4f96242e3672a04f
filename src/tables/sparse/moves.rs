//! A position's moves in key arithmetic, shared by the forward pass (which
//! generates children) and the backward pass (which looks them up).
//!
//! A column's field in a key is `X stones + 2^height` (see
//! [`crate::rules::gravity`]), so dropping a stone at height `h` of a
//! column at bit offset `o` adds `2^(o+h)` for O (the height marker moves
//! up one) and `2 · 2^(o+h)` for X (the marker moves up and an X bit
//! appears under it). The mirror image's key changes by the same amount at
//! the mirrored column's offset, so a child's canonical key (the smaller of
//! its key and its mirror's) costs two additions and a minimum once the
//! parent's mirror is known.

use crate::rules::gravity::Gravity;

/// The move generator of one board.
#[derive(Clone, Debug)]
pub(crate) struct Moves {
    game: Gravity,
    cols: u32,
    rows: u32,
    /// Bits of one column's field: `rows + 1`.
    field_bits: u32,
    /// Stones in a row that win.
    k: u32,
}

impl Moves {
    pub(crate) fn new(game: &Gravity) -> Self {
        let (cols, rows, k) = game.dimensions();
        Self {
            game: game.clone(),
            cols,
            rows,
            field_bits: rows + 1,
            k,
        }
    }

    /// Whether the position `key` at `ply` is over because the player who
    /// just moved completed a line (the empty board never is).
    #[inline]
    pub(crate) fn has_ended_by_line(&self, key: u64, ply: u32) -> bool {
        // the player who just moved has ⌈ply / 2⌉ stones: no line below k
        if ply.div_ceil(2) < self.k {
            return false;
        }
        let (x, occupied) = self.game.unkey(key);
        let last = if ply % 2 == 1 { x } else { occupied & !x };
        self.game.has_line(last)
    }

    /// Calls `child` with the canonical key of every child of the position
    /// `key` (whose mirror image's key is `mirror`) at `ply`, column by
    /// column from the left.
    #[inline]
    pub(crate) fn for_each_child(
        &self,
        key: u64,
        mirror: u64,
        ply: u32,
        mut child: impl FnMut(u64),
    ) {
        let step = if ply.is_multiple_of(2) { 2u64 } else { 1 };
        let field = (1u64 << self.field_bits) - 1;
        for c in 0..self.cols {
            let offset = c * self.field_bits;
            let height = 63 - ((key >> offset) & field).leading_zeros();
            if height < self.rows {
                let mirrored = (self.cols - 1 - c) * self.field_bits;
                let own = key + (step << (offset + height));
                let image = mirror + (step << (mirrored + height));
                child(own.min(image));
            }
        }
    }

    /// The key of the mirror image.
    #[inline]
    pub(crate) fn mirror(&self, key: u64) -> u64 {
        self.game.mirror(key)
    }

    /// The board.
    pub(crate) fn game(&self) -> &Gravity {
        &self.game
    }
}
