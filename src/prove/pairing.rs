//! Pairing strategies: draws on m,n,k boards proved without search, with a
//! certificate anyone can check.
//!
//! A *pairing* is a set of disjoint pairs of cells such that every line of
//! `k` cells (in any of the four directions) holds both cells of some pair.
//! Whoever owns a pairing can stop the other player from ever completing a
//! line: whenever the opponent takes a cell of a pair, take its partner
//! (any other move when the opponent's cell is unpaired or the partner is
//! taken). Every line then holds one of the owner's stones before it can
//! be full of the opponent's. On the empty board either player may follow
//! the pairing (the first player simply ignores the extra stone it placed
//! first: a stone never hurts on an m,n,k board), so neither can win and
//! the game is a **draw** (the argument of Hales & Jewett, 1963, used for
//! k ≥ 9 on every board; Zetters 1980 for k = 8 on the infinite board; Hsu
//! et al. 2020 use pairings at the leaves of their 7,7,5 and 8,8,5 proofs).
//!
//! **Finding one** ([`find_pairing`]). A pair that covers a line lies on it,
//! so it lies on exactly one *board line* (a maximal row, column or
//! diagonal). On a board line of length `L` the lines are its `L − k + 1`
//! windows of `k` cells; one pair covers the consecutive windows that all
//! contain it. So each board line's windows are cut into *groups* of
//! consecutive windows whose common cells (the intersection: at most `k`
//! cells, two at least) can hold a pair, and every group needs two of its
//! common cells, no cell used twice on the whole board. That last step is
//! a bipartite matching (two slots a group against the cells; Kuhn's
//! augmenting paths, which find a largest matching), so it is exact for
//! the chosen groups. The groups are cut greedily from either end of each
//! board line, spanning at most `k − 1`, `k / 2`, `k / 3` or 1 windows
//! (longer groups need fewer pairs, shorter ones leave more cells to choose
//! from; each cut is tried in turn): a pairing found is always valid (and
//! checked, [`Pairing::check`]); none found does not mean none exists.
//! Square boards where it finds one on the empty board: k = 5 on 5×5;
//! k = 6 on 6×6 and 7×7; k = 7 up to 9×9; k = 8 up to 11×11; k = 9 up to
//! 13×13; k = 10 up to 16×16; k = 11 up to 19×19.
//!
//! **For k ≥ 9, every board**: when the groups fail, the periodic pairing
//! of Hales & Jewett is tried — a tiling of the 8 × 8 torus by dominoes,
//! one along each of its rows, columns and diagonals (found here by exact
//! cover), laid over the board; a domino cut by the edge is dropped, and
//! the pairing is kept only if it passes [`Pairing::check`]. It proves
//! gomoku's 15×15 with k = 9 (102 pairs) and every board up to 26×26 with
//! k ≥ 9 tried. k = 8 (Zetters) needs more than a pairing of this kind.
//!
//! **Positions.** [`find_pairing`] takes a position too: the *defender*
//! (the pairing's owner) needs no pair on a line that already holds one of
//! its stones, and may not use a cell the attacker holds. The attacker must
//! not already have a line.
//!
//! **Certificates** ([`Pairing::to_certificate`]): a text file, one pair a
//! line (format in docs/FORMAT.md), checked in the tests by a separate
//! checker that shares no code with this module.

use crate::board::BoardSize;
use std::fmt::Write as _;

use crate::error::{Error, Result};

/// The largest side a pairing board may have: cells are named by a column
/// letter `a`–`z`.
pub const MAX_SIDE: u32 = 26;

/// The first line of a pairing certificate.
pub const CERTIFICATE_MAGIC: &str = "# retrograde pairing certificate 1";

/// An m,n,k board for pairings: `cols` × `rows` cells, lines of `k`. Cell
/// `i` is column `i % cols`, row `i / cols` (row 0 at the top, as the
/// position language names rows from 1 at the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairingBoard {
    /// Columns.
    pub cols: u32,
    /// Rows.
    pub rows: u32,
    /// Stones in a row that win.
    pub k: u32,
}

impl PairingBoard {
    /// The board, or a one-line error for sides outside 1..=`MAX_SIDE` or
    /// a `k` of 0 or that no line of the board reaches (with `k` = 1 every
    /// cell is a line and no pairing exists; [`find_pairing`] finds none).
    pub fn new(size: BoardSize) -> Result<Self> {
        let BoardSize { cols, rows, k } = size;
        if !(1..=MAX_SIDE).contains(&cols) || !(1..=MAX_SIDE).contains(&rows) {
            return Err(Error::InvalidInput(format!(
                "a {cols} × {rows} board is outside pairing's sides of 1 to {MAX_SIDE}"
            )));
        }
        if k == 0 || k > cols.max(rows) {
            return Err(Error::InvalidInput(format!(
                "lines of {k} on a {cols} × {rows} board: k must be from 1 to the longer side"
            )));
        }
        Ok(Self { cols, rows, k })
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        (self.cols * self.rows) as usize
    }

    /// The name of cell `i`: column letter, row number from 1 at the top.
    pub fn cell_name(&self, i: u32) -> String {
        crate::position::mnk_cell_name(self.cols, i)
    }

    /// The board lines: every maximal row, column and diagonal with at
    /// least `k` cells, each as its cells in order.
    pub fn board_lines(&self) -> Vec<Vec<u32>> {
        let (cols, rows) = (self.cols as i64, self.rows as i64);
        let inside = |c: i64, r: i64| (0..cols).contains(&c) && (0..rows).contains(&r);
        let mut lines = Vec::new();
        for (dc, dr) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
            for r in 0..rows {
                for c in 0..cols {
                    // a board line starts where the step back leaves the board
                    if inside(c - dc, r - dr) {
                        continue;
                    }
                    let mut cells = Vec::new();
                    let (mut x, mut y) = (c, r);
                    while inside(x, y) {
                        cells.push((y * cols + x) as u32);
                        (x, y) = (x + dc, y + dr);
                    }
                    if cells.len() >= self.k as usize {
                        lines.push(cells);
                    }
                }
            }
        }
        lines
    }
}

/// Who holds each cell of a position, for [`find_pairing`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    /// No stone.
    Empty,
    /// The player the pairing stops.
    Attacker,
    /// The pairing's owner.
    Defender,
}

/// A pairing of a board (module docs): disjoint pairs of cells, each pair
/// given lowest cell first, the pairs in increasing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub board: PairingBoard,
    pub pairs: Vec<(u32, u32)>,
}

impl Pairing {
    /// Checks the pairing on the empty board: pairs of distinct cells on
    /// the board, no cell in two pairs, and every line of `k` holds both
    /// cells of a pair. An `Err` names the first fault.
    pub fn check(&self) -> std::result::Result<(), String> {
        self.check_position(&vec![Holder::Empty; self.board.cells()])
    }

    /// [`Self::check`] for a position: pairs of empty cells, and only the
    /// lines free of defender stones need a pair.
    pub fn check_position(&self, holders: &[Holder]) -> std::result::Result<(), String> {
        let b = &self.board;
        let mut partner = vec![u32::MAX; b.cells()];
        for &(x, y) in &self.pairs {
            for cell in [x, y] {
                if cell as usize >= b.cells() {
                    return Err(format!("cell {cell} is off the board"));
                }
                if partner[cell as usize] != u32::MAX {
                    return Err(format!("{} is in two pairs", b.cell_name(cell)));
                }
                if holders[cell as usize] != Holder::Empty {
                    return Err(format!("{} is not empty", b.cell_name(cell)));
                }
            }
            if x == y {
                return Err(format!("{} is paired with itself", b.cell_name(x)));
            }
            partner[x as usize] = y;
            partner[y as usize] = x;
        }
        for line in crate::position::winning_lines(b.cols, b.rows, b.k) {
            let live = line
                .iter()
                .all(|&c| holders[c as usize] != Holder::Defender);
            let covered = line.iter().any(|&c| line.contains(&partner[c as usize]));
            if live && !covered {
                let (first, last) = (line[0], line[line.len() - 1]);
                return Err(format!(
                    "the line {}–{} holds no pair",
                    b.cell_name(first),
                    b.cell_name(last)
                ));
            }
        }
        Ok(())
    }

    /// The certificate's text (docs/FORMAT.md): the magic line, `mnk COLS
    /// ROWS K`, then one pair a line as two cell names.
    pub fn to_certificate(&self) -> String {
        let b = &self.board;
        let mut text = format!("{CERTIFICATE_MAGIC}\n");
        let _ = writeln!(
            text,
            "# {} pairs: whoever answers each cell with its partner stops every line of {}",
            self.pairs.len(),
            b.k
        );
        let _ = writeln!(text, "mnk {} {} {}", b.cols, b.rows, b.k);
        for &(x, y) in &self.pairs {
            let _ = writeln!(text, "{} {}", b.cell_name(x), b.cell_name(y));
        }
        text
    }
}

/// One group of consecutive windows of a board line: the cells they all
/// hold that the defender may use.
type Group = Vec<u32>;

/// Cuts the live windows of one board line into groups (module docs),
/// greedily from its first cell, or from its last with `reversed`. `None`
/// when a live window has fewer than two usable cells (no pair fits: the
/// attacker is about to complete it).
fn groups_of_line(
    line: &[u32],
    k: usize,
    span: usize,
    holders: &[Holder],
    reversed: bool,
) -> Option<Vec<Group>> {
    let cells: Vec<u32> = if reversed {
        line.iter().rev().copied().collect()
    } else {
        line.to_vec()
    };
    let usable = |c: u32| holders[c as usize] == Holder::Empty;
    let live = |i: usize| {
        cells[i..i + k]
            .iter()
            .all(|&c| holders[c as usize] != Holder::Defender)
    };
    let common = |first: usize, last: usize| -> Group {
        cells[last..first + k]
            .iter()
            .copied()
            .filter(|&c| usable(c))
            .collect()
    };
    let mut groups = Vec::new();
    let mut open: Option<(usize, usize)> = None;
    for i in 0..=cells.len() - k {
        if !live(i) {
            continue;
        }
        if let Some((first, last)) = open {
            if i < first + span && common(first, i).len() >= 2 {
                open = Some((first, i));
                continue;
            }
            groups.push(common(first, last));
        }
        if common(i, i).len() < 2 {
            return None;
        }
        open = Some((i, i));
    }
    if let Some((first, last)) = open {
        groups.push(common(first, last));
    }
    Some(groups)
}

/// A pairing for the `defender` of the position `holders` (one a cell, see
/// [`PairingBoard`]), or `None` when the construction of the module docs
/// finds none (which does not prove that none exists).
pub fn find_pairing(board: PairingBoard, holders: &[Holder]) -> Option<Pairing> {
    assert_eq!(holders.len(), board.cells(), "one holder a cell");
    by_groups(board, holders).or_else(|| periodic_pairing(board, holders))
}

/// A pairing of the empty board, checked against every line before it is
/// given (`Pairing::check`): `Ok(None)` when none is found, `Err` with
/// the fault when one found fails its check (a bug: nothing is claimed).
pub fn checked_empty_board_pairing(
    board: PairingBoard,
) -> std::result::Result<Option<Pairing>, String> {
    match find_pairing(board, &vec![Holder::Empty; board.cells()]) {
        Some(p) => p
            .check()
            .map(|()| Some(p))
            .map_err(|why| format!("the pairing found fails its check: {why}")),
        None => Ok(None),
    }
}

/// The pairing of the groups of the module docs, if the matching places
/// every group.
fn by_groups(board: PairingBoard, holders: &[Holder]) -> Option<Pairing> {
    let lines = board.board_lines();
    let k = board.k as usize;
    let spans = [k - 1, k / 2, k / 3, 1];
    for (span, reversed) in spans
        .iter()
        .flat_map(|&s| [(s.max(1), false), (s.max(1), true)])
    {
        let mut groups = Vec::new();
        for line in &lines {
            groups.extend(groups_of_line(line, k, span, holders, reversed)?);
        }
        if let Some(pairs) = match_groups(&groups, board.cells()) {
            let pairing = Pairing { board, pairs };
            debug_assert_eq!(pairing.check_position(holders), Ok(()));
            return Some(pairing);
        }
    }
    None
}

/// The period of [`torus_dominoes`].
const PERIOD: i32 = 8;

/// A domino of the torus: its first cell (x, y) and its direction.
type Domino = ((i32, i32), (i32, i32));

/// A tiling of the 8 × 8 torus by 32 dominoes, one along each of its 32
/// cycles (8 rows, 8 columns, 8 diagonals, 8 anti-diagonals), each domino
/// two neighbouring cells of its cycle, as (first cell, direction). Laid
/// over the plane with period 8 it is a pairing for every k ≥ 9: a line
/// of 9 cells in some direction covers 8 consecutive cells of its cycle
/// twice over but one, so it holds the two cells of that cycle's domino
/// (Hales & Jewett's construction). Found by exact-cover backtracking,
/// each cell covered once, each cycle used once.
fn torus_dominoes() -> Option<Vec<Domino>> {
    const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let wrap = |v: i32| v.rem_euclid(PERIOD);
    // the cycle of direction `d` through (x, y)
    let cycle = |d: usize, (x, y): (i32, i32)| -> usize {
        d * 8
            + match d {
                0 => y,
                1 => x,
                2 => wrap(y - x),
                _ => wrap(x + y),
            } as usize
    };
    fn place(
        covered: &mut [bool; 64],
        used: &mut [bool; 32],
        chosen: &mut Vec<Domino>,
        cycle: &dyn Fn(usize, (i32, i32)) -> usize,
    ) -> bool {
        let Some(first) = covered.iter().position(|&c| !c) else {
            return true;
        };
        let (x, y) = (first as i32 % PERIOD, first as i32 / PERIOD);
        for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            for start in [(x, y), (x - dx, y - dy)] {
                let start = (start.0.rem_euclid(PERIOD), start.1.rem_euclid(PERIOD));
                let next = (
                    (start.0 + dx).rem_euclid(PERIOD),
                    (start.1 + dy).rem_euclid(PERIOD),
                );
                let index = |(a, b): (i32, i32)| (b * PERIOD + a) as usize;
                let c = cycle(d, start);
                if used[c] || covered[index(start)] || covered[index(next)] {
                    continue;
                }
                (used[c], covered[index(start)], covered[index(next)]) = (true, true, true);
                chosen.push((start, (dx, dy)));
                if place(covered, used, chosen, cycle) {
                    return true;
                }
                chosen.pop();
                (used[c], covered[index(start)], covered[index(next)]) = (false, false, false);
            }
        }
        false
    }
    let mut chosen = Vec::new();
    place(&mut [false; 64], &mut [false; 32], &mut chosen, &cycle).then_some(chosen)
}

/// For k ≥ 9: the periodic dominoes of [`torus_dominoes`] that fall
/// wholly on empty cells of the board, if they cover every line the
/// position leaves open (checked: a line cut by the board's edge still
/// holds a whole domino).
fn periodic_pairing(board: PairingBoard, holders: &[Holder]) -> Option<Pairing> {
    if board.k < 9 {
        return None;
    }
    let tiles = torus_dominoes()?;
    let (cols, rows) = (board.cols as i32, board.rows as i32);
    let mut pairs = Vec::new();
    for y in 0..rows {
        for x in 0..cols {
            for &((tx, ty), (dx, dy)) in &tiles {
                if (x.rem_euclid(PERIOD), y.rem_euclid(PERIOD)) != (tx, ty) {
                    continue;
                }
                let (nx, ny) = (x + dx, y + dy);
                if !(0..cols).contains(&nx) || !(0..rows).contains(&ny) {
                    continue;
                }
                let (a, b) = ((y * cols + x) as u32, (ny * cols + nx) as u32);
                if holders[a as usize] == Holder::Empty && holders[b as usize] == Holder::Empty {
                    pairs.push((a.min(b), a.max(b)));
                }
            }
        }
    }
    pairs.sort_unstable();
    let pairing = Pairing { board, pairs };
    pairing.check_position(holders).is_ok().then_some(pairing)
}

/// Two distinct cells for every group, no cell used twice: a largest
/// bipartite matching of two slots a group against the cells (Kuhn's
/// augmenting paths). The pairs, sorted, or `None` if some slot stays
/// unmatched.
fn match_groups(groups: &[Group], cells: usize) -> Option<Vec<(u32, u32)>> {
    let slots = 2 * groups.len();
    if slots > cells {
        return None;
    }
    // the slot each cell is matched to
    let mut owner = vec![usize::MAX; cells];
    // the fewest choices first: their slots are hardest to place
    let mut order: Vec<usize> = (0..slots).collect();
    order.sort_by_key(|&s| groups[s / 2].len());
    for &slot in &order {
        let mut seen = vec![false; cells];
        if !augment(slot, groups, &mut owner, &mut seen) {
            return None;
        }
    }
    let mut cell_of = vec![u32::MAX; slots];
    for (cell, &slot) in owner.iter().enumerate() {
        if slot != usize::MAX {
            cell_of[slot] = cell as u32;
        }
    }
    let mut pairs: Vec<(u32, u32)> = cell_of
        .chunks(2)
        .map(|p| (p[0].min(p[1]), p[0].max(p[1])))
        .collect();
    pairs.sort_unstable();
    Some(pairs)
}

/// Kuhn's step: finds `slot` a cell of its group, moving slots already
/// placed along an augmenting path; each cell is tried once a call
/// (`seen`). The recursion is at most as deep as there are slots (a few
/// hundred on the largest board).
fn augment(slot: usize, groups: &[Group], owner: &mut [usize], seen: &mut [bool]) -> bool {
    for &cell in &groups[slot / 2] {
        let cell = cell as usize;
        if seen[cell] {
            continue;
        }
        seen[cell] = true;
        if owner[cell] == usize::MAX || augment(owner[cell], groups, owner, seen) {
            owner[cell] = slot;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty(b: PairingBoard) -> Vec<Holder> {
        vec![Holder::Empty; b.cells()]
    }

    #[test]
    fn board_lines_of_tic_tac_toe() {
        let b = PairingBoard::new(BoardSize::new(3, 3, 3)).unwrap();
        assert_eq!(b.board_lines().len(), 8);
        let b = PairingBoard::new(BoardSize::new(4, 3, 3)).unwrap();
        // 3 rows, 4 columns, diagonals of 3 cells: 2 each way
        assert_eq!(b.board_lines().len(), 11);
    }

    #[test]
    fn a_found_pairing_checks_and_a_broken_one_does_not() {
        let b = PairingBoard::new(BoardSize::new(8, 8, 8)).unwrap();
        let p = find_pairing(b, &empty(b)).expect("8,8,8 has a pairing");
        assert_eq!(p.check(), Ok(()));
        let mut broken = p.clone();
        broken.pairs.pop();
        assert!(broken.check().is_err());
        let mut twice = p.clone();
        twice.pairs[1].0 = twice.pairs[0].0;
        assert!(twice.check().is_err());
    }

    #[test]
    fn tic_tac_toe_has_no_pairing() {
        // 8 lines need 16 cells of 9
        let b = PairingBoard::new(BoardSize::new(3, 3, 3)).unwrap();
        assert_eq!(find_pairing(b, &empty(b)), None);
    }

    #[test]
    fn a_position_needs_pairs_only_on_live_lines() {
        // 3×3, k = 3: a defender stone in the centre kills 4 lines; the 4
        // edges need 8 cells of the 8 left
        let b = PairingBoard::new(BoardSize::new(3, 3, 3)).unwrap();
        let mut holders = empty(b);
        holders[4] = Holder::Defender;
        let p = find_pairing(b, &holders).expect("the edges pair up");
        assert_eq!(p.check_position(&holders), Ok(()));
        assert!(
            p.check().is_err(),
            "on the empty board the centre lines are open"
        );
        // the attacker with two in a live row: no pair fits it
        holders[0] = Holder::Attacker;
        holders[1] = Holder::Attacker;
        assert_eq!(find_pairing(b, &holders), None);
    }
}
