//! Ranks of the boards one stone away, in O(1) a neighbour.
//!
//! Ranking a board from scratch walks all its stones. The solver ranks every
//! child (one stone added) and every parent (one stone removed) of millions
//! of boards, so it first takes the board apart once — the X cells
//! `x_1 < … < x_a`, the O cells `o_1 < … < o_b` and their compressed numbers
//! `q_j` among the cells not taken by X — into prefix and suffix sums of
//! binomials. A stone placed or lifted only shifts the colex terms above it
//! by one place (`C(v, j)` → `C(v, j±1)`) or their values by one
//! (`C(q, j)` → `C(q±1, j)`), so each neighbour's rank is a prefix sum plus
//! a suffix sum (see [`super::colex`] for the rank itself).

#[cfg(test)]
use super::colex::compress;
use super::colex::{binomial, PlyShape};

/// The neighbours a [`Neighbours`] is prepared for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Children of a board with X to move.
    XPlaces,
    /// Children of a board with O to move.
    OPlaces,
    /// Parents of a board whose last stone is an X.
    XLifts,
    /// Parents of a board whose last stone is an O.
    OLifts,
}

impl Step {
    /// Placing a stone of the side to move.
    pub fn placing(x_moves: bool) -> Self {
        if x_moves {
            Step::XPlaces
        } else {
            Step::OPlaces
        }
    }

    /// Lifting a stone of the last mover.
    pub fn lifting(x_moved: bool) -> Self {
        if x_moved {
            Step::XLifts
        } else {
            Step::OLifts
        }
    }
}

/// Room for 32 stones plus the sentinels of the 1-based sums.
const SLOTS: usize = 34;

/// A board taken apart for neighbour ranks. Indices are 1-based: `x[1]` is
/// the lowest X cell; `prefix_x[t] = Σ_{j≤t} C(x_j, j)`, likewise for O with
/// the compressed `q_j`.
///
/// One value serves many boards in turn: [`set_x`](Self::set_x) once for
/// all the boards that share their X cells (consecutive ranks of a ply do),
/// then [`set_o`](Self::set_o) for each board. Each overwrites exactly what
/// the next queries read, so the hot loop never clears its arrays.
#[derive(Clone, Debug)]
pub struct Neighbours {
    x_cells: u32,
    o_cells: u32,
    a: usize,
    b: usize,
    x: [u32; SLOTS],
    q: [u32; SLOTS],
    prefix_x: [u64; SLOTS],
    prefix_o: [u64; SLOTS],
    /// Suffix sums `Σ_{j≥t}` of the X terms after the change, by kind.
    suffix_x: [u64; SLOTS],
    /// Suffix sums `Σ_{j≥t}` of the O terms after the change, by kind.
    suffix_o: [u64; SLOTS],
}

impl Default for Neighbours {
    fn default() -> Self {
        Self::new()
    }
}

impl Neighbours {
    /// An empty scratch value.
    pub fn new() -> Self {
        Neighbours {
            x_cells: 0,
            o_cells: 0,
            a: 0,
            b: 0,
            x: [0; SLOTS],
            q: [0; SLOTS],
            prefix_x: [0; SLOTS],
            prefix_o: [0; SLOTS],
            suffix_x: [0; SLOTS],
            suffix_o: [0; SLOTS],
        }
    }

    /// Takes in the X stones: their cells, prefix sums, and the suffix sums
    /// of the terms that `step` shifts. Stays valid for every board with
    /// the same X cells and step; entries past the stones are never read.
    #[inline]
    pub fn set_x(&mut self, x_cells: u32, step: Step) {
        self.x_cells = x_cells;
        self.a = 0;
        let mut rest = x_cells;
        while rest != 0 {
            self.a += 1;
            let a = self.a;
            self.x[a] = rest.trailing_zeros();
            self.prefix_x[a] = self.prefix_x[a - 1] + binomial(self.x[a], a as u32);
            rest &= rest - 1;
        }
        let placing = matches!(step, Step::XPlaces | Step::OPlaces);
        self.suffix_x[self.a + 1] = 0;
        for j in (1..=self.a).rev() {
            // A stone placed below x_j raises its order by one; one lifted
            // below it lowers its order by one.
            let order = if placing { j as u32 + 1 } else { j as u32 - 1 };
            self.suffix_x[j] = self.suffix_x[j + 1] + binomial(self.x[j], order);
        }
    }

    /// Takes in the O stones, as cells and compressed among the cells not
    /// taken by X (`o_compact`, see [`super::colex::compress`]). Contract:
    /// [`set_x`](Self::set_x) was called with this board's X cells and the
    /// same step.
    #[inline]
    pub fn set_o(&mut self, o_cells: u32, o_compact: u32, step: Step) {
        self.o_cells = o_cells;
        self.b = 0;
        let mut rest = o_compact;
        while rest != 0 {
            self.b += 1;
            let b = self.b;
            self.q[b] = rest.trailing_zeros();
            self.prefix_o[b] = self.prefix_o[b - 1] + binomial(self.q[b], b as u32);
            rest &= rest - 1;
        }
        self.suffix_o[self.b + 1] = 0;
        for j in (1..=self.b).rev() {
            let (q, order) = (self.q[j], j as u32);
            let term = match step {
                // X placed below o_j: its compressed number drops by one. (A
                // stone with q_j = 0 has no free cell below it, so no X can
                // be placed below it: that term is never read.)
                Step::XPlaces => binomial(q.saturating_sub(1), order),
                // O placed below o_j: its order rises by one.
                Step::OPlaces => binomial(q, order + 1),
                // X lifted below o_j: its compressed number rises by one.
                Step::XLifts => binomial(q + 1, order),
                // O lifted below o_j: its order drops by one.
                Step::OLifts => binomial(q, order - 1),
            };
            self.suffix_o[j] = self.suffix_o[j + 1] + term;
        }
    }

    #[cfg(test)]
    fn prepare(&mut self, x_cells: u32, o_cells: u32, step: Step) {
        self.set_x(x_cells, step);
        self.set_o(o_cells, compress(o_cells, !x_cells), step);
    }

    #[cfg(test)]
    /// Prepares for the children of a board whose mover is X (`x_moves`) or O.
    pub fn prepare_children(&mut self, x_cells: u32, o_cells: u32, x_moves: bool) {
        self.prepare(
            x_cells,
            o_cells,
            if x_moves {
                Step::XPlaces
            } else {
                Step::OPlaces
            },
        );
    }

    #[cfg(test)]
    /// Prepares for the parents of a board whose last mover was X
    /// (`x_moved`) or O.
    pub fn prepare_parents(&mut self, x_cells: u32, o_cells: u32, x_moved: bool) {
        self.prepare(
            x_cells,
            o_cells,
            if x_moved { Step::XLifts } else { Step::OLifts },
        );
    }

    /// Calls `visit(cell, rank in next)` for every empty cell of `all`, the
    /// child with the mover's stone there. Contract: built by
    /// `prepare_children` with the same mover, and `next`
    /// is the shape of the next ply.
    #[inline]
    pub fn children(&self, next: &PlyShape, x_moves: bool, mut visit: impl FnMut(u32, u64)) {
        let mut empty = next.all_cells() & !(self.x_cells | self.o_cells);
        while empty != 0 {
            let cell = empty.trailing_zeros();
            let below = (1u32 << cell) - 1;
            let t_x = (self.x_cells & below).count_ones() as usize;
            let t_o = (self.o_cells & below).count_ones() as usize;
            let rank = if x_moves {
                let x_rank =
                    self.prefix_x[t_x] + binomial(cell, t_x as u32 + 1) + self.suffix_x[t_x + 1];
                let o_rank = self.prefix_o[t_o] + self.suffix_o[t_o + 1];
                x_rank * next.o_sets + o_rank
            } else {
                let q = cell - t_x as u32;
                let o_rank =
                    self.prefix_o[t_o] + binomial(q, t_o as u32 + 1) + self.suffix_o[t_o + 1];
                self.prefix_x[self.a] * next.o_sets + o_rank
            };
            visit(cell, rank);
            empty &= empty - 1;
        }
    }

    /// Calls `visit(rank in previous)` for every parent: the board with one
    /// stone of the last mover lifted. Contract: built by
    /// `prepare_parents` with the same mover, and
    /// `previous` is the shape of the previous ply.
    #[inline]
    pub fn parents(&self, previous: &PlyShape, x_moved: bool, mut visit: impl FnMut(u64)) {
        if x_moved {
            for j in 1..=self.a {
                let cell = self.x[j];
                let t_o = (self.o_cells & ((1u32 << cell) - 1)).count_ones() as usize;
                let x_rank = self.prefix_x[j - 1] + self.suffix_x[j + 1];
                let o_rank = self.prefix_o[t_o] + self.suffix_o[t_o + 1];
                visit(x_rank * previous.o_sets + o_rank);
            }
        } else {
            let x_rank = self.prefix_x[self.a];
            for j in 1..=self.b {
                let o_rank = self.prefix_o[j - 1] + self.suffix_o[j + 1];
                visit(x_rank * previous.o_sets + o_rank);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbour_ranks_equal_ranks_from_scratch() {
        for cells in 1..=9u32 {
            for ply in 0..=cells {
                let shape = PlyShape::of_ply(cells, ply);
                let x_moves = ply % 2 == 0;
                for rank in 0..shape.size {
                    let (x, o) = shape.unrank(rank);
                    if ply < cells {
                        let next = PlyShape::of_ply(cells, ply + 1);
                        let mut count = 0;
                        let mut n = Neighbours::new();
                        n.prepare_children(x, o, x_moves);
                        n.children(&next, x_moves, |cell, child| {
                            let (cx, co) = if x_moves {
                                (x | 1 << cell, o)
                            } else {
                                (x, o | 1 << cell)
                            };
                            assert_eq!(child, next.rank(cx, co));
                            count += 1;
                        });
                        assert_eq!(count, cells - ply);
                    }
                    if ply > 0 {
                        let previous = PlyShape::of_ply(cells, ply - 1);
                        let x_moved = !x_moves;
                        let mut expected: Vec<u64> = (0..cells)
                            .filter(|&c| (if x_moved { x } else { o }) & (1 << c) != 0)
                            .map(|c| {
                                let bit = !(1u32 << c);
                                if x_moved {
                                    previous.rank(x & bit, o)
                                } else {
                                    previous.rank(x, o & bit)
                                }
                            })
                            .collect();
                        let mut got = Vec::new();
                        let mut n = Neighbours::new();
                        n.prepare_parents(x, o, x_moved);
                        n.parents(&previous, x_moved, |p| got.push(p));
                        expected.sort_unstable();
                        got.sort_unstable();
                        assert_eq!(got, expected);
                    }
                }
            }
        }
    }
}
