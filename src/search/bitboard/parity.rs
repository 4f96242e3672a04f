//! Static bounds of gravity positions from threat parity: a strategy for
//! the player *not* to move (the responder) that holds whatever the mover
//! does, checked in a few mask operations, settles a position or narrows
//! its window without searching it (after Allis 1988, "A knowledge-based
//! approach of connect-four": claimeven and the zugzwang of an odd threat;
//! our own formulation, for any number of rows and either player).
//!
//! **The follow-up game.** Call a column *even* or *odd* by the parity of
//! its empty cells, and count a column's empty cells from its playable
//! one (offset 1) up to the top. The responder answers a move in an even
//! column by playing right on top of it (the cell exists: an even number
//! were empty), so the column stays even and the mover gets offsets 1, 3,
//! 5 …: the cells at an odd distance below the top, since the top one is
//! at offset `e`, even. The responder answers a first move in an odd
//! column by taking the playable cell of another odd column, its partner
//! (odd columns paired off); both are then even. Whatever the pairing,
//! the mover gets at most the playable cells of the odd columns and, above
//! them, again the cells at an odd distance below the top (
//! [`Bitboard::follow_cells`] holds the others: the top row and every
//! second row below it).
//!
//! * **Every column paired** (an even number of empty cells in all, so of
//!   odd columns): the responder can answer every move, to the end. If
//!   the mover's share (its stones, its cells of the follow-up game) holds
//!   no line, the mover never completes one: at most a draw. If moreover
//!   the responder's share (its stones and the other empty cells but the
//!   playable cells of odd columns) holds a line, the responder completes
//!   it at the latest with the last stone: the mover loses (at most −1).
//!   With an even number of rows and the first player to move this is
//!   Allis's claimeven (the second player takes the even rows counted from
//!   1); the same strategy serves odd heights (7 × 5) and the second
//!   player to move whenever the empty cells are even in number.
//! * **One column left over, holding the responder's threat** (an odd
//!   number of empty cells, so of odd columns): the responder picks an
//!   odd column `c` holding one of its winning cells `t` at an even offset
//!   (above the playable cell), pairs the other odd columns and answers in
//!   `c` by playing on top. The mover gets the odd offsets of `c` and
//!   never reaches its top before the responder's answer at `t` completes
//!   the responder's line; the other columns are as above. If the mover's
//!   share (with the cells of `c` below `t` at odd offsets) holds no line,
//!   the mover cannot win first, and the board cannot fill while `t` is
//!   empty: the mover loses (at most −1). On 7 × 6 with the second player
//!   to move this is Allis's rule that an odd threat of the first player
//!   wins when the second has nothing to set against it.
//!
//! Both are upper bounds of the mover's exact score, sound for every
//! position (each holds against every move of the mover), which the tests
//! check against the exhaustive tables position by position.

use super::Bitboard;

impl Bitboard {
    /// The cells at an even distance below the top of their column (the
    /// top row, the row two below it, …): in an even column of the
    /// follow-up game the responder's (module docs). Gravity boards only.
    pub(super) fn follow_cells(cols: u32, rows: u32) -> u64 {
        let h = rows + 1;
        (0..cols * h)
            .filter(|bit| bit % h < rows && (rows - 1 - bit % h).is_multiple_of(2))
            .fold(0, |m, bit| m | 1 << bit)
    }

    /// An upper bound of the exact score of the player to move in a
    /// gravity position (its stones `me`, occupied `mask`, playable cells
    /// `possible`, the opponent's winning cells `threats`) from the
    /// responder's strategies of the module docs, or `None`: 0 (at most a
    /// draw) or −1 (lost).
    #[inline]
    pub(super) fn parity_bound(
        &self,
        me: u64,
        mask: u64,
        possible: u64,
        threats: u64,
    ) -> Option<i8> {
        let follow = self.follow_cells;
        if follow == 0 {
            return None; // an m,n,k board
        }
        let empty = self.board & !mask;
        if (self.cells - mask.count_ones()).is_multiple_of(2) {
            // every odd column paired
            if self.has_line(me | (empty & !follow) | possible) {
                return None;
            }
            let theirs = (me ^ mask) | (empty & follow & !possible);
            return Some(if self.has_line(theirs) { -1 } else { 0 });
        }
        // one odd column left over: its playable cell is at an even
        // distance below the top, and the responder's threat at an even
        // offset, so at an odd distance
        let odd_playable = possible & follow;
        let mut leftover = odd_playable;
        while leftover != 0 {
            let playable = leftover & leftover.wrapping_neg();
            leftover ^= playable;
            let column = self.columns[(playable.trailing_zeros() / (self.rows + 1)) as usize];
            let reply_threats = threats & column & !follow & !possible;
            if reply_threats == 0 {
                continue;
            }
            // the cells of the column from its playable one up to the
            // lowest such threat, not included
            let below = (reply_threats & reply_threats.wrapping_neg()) - playable;
            let share = me | (((empty & !follow) | possible) & !column) | (below & follow);
            if !self.has_line(share) {
                return Some(-1);
            }
        }
        None
    }

    /// The static bound the search takes for the position of X stones `x`
    /// and occupied cells `occupied` (the layout of [`Bitboard::cell`]), as
    /// `parity_bound` gives it (module docs of `parity.rs`): `Some(0)` (the
    /// player to move cannot win), `Some(-1)` (it loses) or `None`; always
    /// `None` on m,n,k boards. For tests and tools; refuses a position
    /// that is over or malformed.
    pub fn static_bound(&self, x: u64, occupied: u64) -> crate::error::Result<Option<i8>> {
        let me = self.stones_to_move(x, occupied)?;
        let possible = self.playable(occupied);
        let threats = self.winning_cells::<0>(me ^ occupied, occupied);
        Ok(self.parity_bound(me, occupied, possible, threats))
    }
}
