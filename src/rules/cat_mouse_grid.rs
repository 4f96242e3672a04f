//! Cat and Mouse II on a grid (LeetCode 1728).
//!
//! A `rows × cols` grid of `.` floor, `#` wall, and exactly one `C` (cat),
//! `M` (mouse) and `F` (food), each on floor. The mouse moves first, then
//! they alternate. A move is a jump of 0 up to `jump` cells in one of the
//! four directions, never through or onto a wall or off the grid; staying
//! put is allowed, and the mouse may jump over the cat. The cat wins on
//! landing on the mouse or on reaching the food first; the mouse wins on
//! reaching the food first.
//!
//! The table solves the *unbounded* game (a position that repeats forever
//! is a draw). The move limit of the puzzle follows exactly: the mouse wins
//! within `L` moves (both players' moves counted) iff it wins the unbounded
//! game with depth ≤ `L` — the depth of a win is the least number of plies
//! in which the winner can force it.
//!
//! ## State index
//!
//! Floor cells are numbered `0..F` row by row; a state is (mouse cell, cat
//! cell, side to move) in mixed radix, `F · F · 2` states:
//!
//! ```text
//!   index = (mouse · F + cat) · 2 + turn        turn: 0 mouse, 1 cat
//! ```

use super::adjacency::Adjacency;
use crate::error::{Error, Result};
use crate::game::table::OutcomeTable;
use crate::game::{Outcome, RankedGame};
use crate::index::MixedRadix;
use crate::memory::{Budget, Bytes};

pub use super::cat_mouse::{Player, Turn};

/// A grid position: floor-cell numbers of the mouse and the cat, and who moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GridPosition {
    /// The mouse's floor cell.
    pub mouse: u32,
    /// The cat's floor cell.
    pub cat: u32,
    /// The side to move.
    pub turn: Turn,
}

/// Cat and Mouse II on a validated grid.
///
/// Invariants: exactly one cat, mouse and food, on floor; `floor` lists the
/// (row, col) of every floor cell in row-major order; the jump adjacencies
/// are symmetric (a jump can be made back), include staying put, and are
/// sorted without repeats.
#[derive(Clone, Debug)]
pub struct CatMouseGrid {
    rows: u32,
    cols: u32,
    floor: Vec<(u32, u32)>,
    radix: MixedRadix<3>,
    mouse_jumps: Adjacency,
    cat_jumps: Adjacency,
    mouse_start: u32,
    cat_start: u32,
    food: u32,
    cat_jump: u32,
    mouse_jump: u32,
}

impl CatMouseGrid {
    /// Parses and validates the grid (one string a row) and builds the jump
    /// tables. Refuses ragged rows, unknown characters, a missing or repeated
    /// `C`, `M` or `F`.
    pub fn new(rows_text: &[&str], cat_jump: u32, mouse_jump: u32) -> Result<Self> {
        Self::new_within(rows_text, cat_jump, mouse_jump, &Budget::unlimited())
    }

    /// [`Self::new`], refusing before the jump tables are built a grid
    /// whose jump tables and solve (the estimate of
    /// [`crate::game::table::retrograde_bytes`]) do not fit `budget`.
    pub fn new_within(
        rows_text: &[&str],
        cat_jump: u32,
        mouse_jump: u32,
        budget: &Budget,
    ) -> Result<Self> {
        let bad = |why: String| Err(Error::InvalidInput(format!("bad grid: {why}")));
        if rows_text.is_empty() || rows_text[0].is_empty() {
            return bad("it is empty".into());
        }
        let cols = rows_text[0].chars().count();
        if let Some(r) = rows_text.iter().position(|row| row.chars().count() != cols) {
            return bad(format!(
                "row {} has {} cells, row 1 has {cols}",
                r + 1,
                rows_text[r].chars().count()
            ));
        }
        let rows = rows_text.len();
        if rows > 65_535 || cols > 65_535 {
            return bad(format!("{rows}×{cols} is too large"));
        }
        let mut id = vec![u32::MAX; rows * cols];
        let mut floor = Vec::new();
        let (mut cat, mut mouse, mut food) = (Vec::new(), Vec::new(), Vec::new());
        for (r, row) in rows_text.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let here = floor.len() as u32;
                match ch {
                    '#' => continue,
                    '.' => {}
                    'C' => cat.push(here),
                    'M' => mouse.push(here),
                    'F' => food.push(here),
                    other => {
                        return bad(format!(
                            "{other:?} at row {}, column {} is not . # C M or F",
                            r + 1,
                            c + 1
                        ))
                    }
                }
                id[r * cols + c] = here;
                floor.push((r as u32, c as u32));
            }
        }
        for (name, found) in [
            ("C (cat)", &cat),
            ("M (mouse)", &mouse),
            ("F (food)", &food),
        ] {
            if found.len() != 1 {
                return bad(format!(
                    "it needs exactly one {name}, it has {}",
                    found.len()
                ));
            }
        }
        let f = floor.len() as u64;
        // each cell reaches itself and at most `jump` cells a direction,
        // never further than the grid's longer side
        let reach = |jump: u32| 1 + 4 * u64::from(jump).min(rows.max(cols) as u64);
        let (most_cat, most_mouse) = (reach(cat_jump), reach(mouse_jump));
        let jump_bytes = f
            .saturating_mul(most_cat + most_mouse)
            .saturating_mul(4 + 4)
            .saturating_add(f.saturating_mul(2 * 24 + 8));
        let states = f.saturating_mul(f).saturating_mul(2);
        let most_moves = u32::try_from(most_cat.max(most_mouse)).unwrap_or(u32::MAX);
        let solve = crate::game::table::retrograde_bytes(states, most_moves);
        budget.check(
            &format!("solving the grid (its jump tables and {states} states)"),
            Bytes(jump_bytes.saturating_add(solve.0)),
        )?;
        let radix = MixedRadix::new([f, f, 2]).expect("F² · 2 fits in u64");
        let jumps = |jump: u32| {
            let lists: Vec<Vec<u32>> = floor
                .iter()
                .map(|&(r, c)| {
                    let mut reach = vec![id[r as usize * cols + c as usize]];
                    for (dr, dc) in [(0i64, 1i64), (0, -1), (1, 0), (-1, 0)] {
                        for step in 1..=i64::from(jump) {
                            let (nr, nc) = (i64::from(r) + dr * step, i64::from(c) + dc * step);
                            if nr < 0 || nc < 0 || nr >= rows as i64 || nc >= cols as i64 {
                                break;
                            }
                            let cell = id[nr as usize * cols + nc as usize];
                            if cell == u32::MAX {
                                break;
                            }
                            reach.push(cell);
                        }
                    }
                    reach
                })
                .collect();
            Adjacency::from_lists(&lists)
        };
        Ok(Self {
            rows: rows as u32,
            cols: cols as u32,
            radix,
            mouse_jumps: jumps(mouse_jump),
            cat_jumps: jumps(cat_jump),
            floor,
            cat_jump,
            mouse_jump,
            mouse_start: mouse[0],
            cat_start: cat[0],
            food: food[0],
        })
    }

    /// Rows and columns of the grid.
    pub fn size(&self) -> (u32, u32) {
        (self.rows, self.cols)
    }

    /// The longest jumps, (cat, mouse).
    pub fn jumps(&self) -> (u32, u32) {
        (self.cat_jump, self.mouse_jump)
    }

    /// Number of floor cells.
    pub fn floor_cells(&self) -> u32 {
        self.floor.len() as u32
    }

    /// The floor cell at (row, col), if it is floor.
    pub fn cell_at(&self, row: u32, col: u32) -> Option<u32> {
        self.floor.binary_search(&(row, col)).ok().map(|i| i as u32)
    }

    /// (row, col) of a floor cell.
    pub fn coordinates(&self, cell: u32) -> (u32, u32) {
        self.floor[cell as usize]
    }

    /// The puzzle's start: mouse and cat where the grid puts them, mouse to move.
    pub fn start_state(&self) -> u64 {
        self.rank(GridPosition {
            mouse: self.mouse_start,
            cat: self.cat_start,
            turn: Turn::Mouse,
        })
    }

    /// The index of a position.
    #[inline]
    pub fn rank(&self, p: GridPosition) -> u64 {
        self.radix
            .rank([u64::from(p.mouse), u64::from(p.cat), p.turn as u64])
    }

    /// The position of an index.
    #[inline]
    pub fn unrank(&self, state: u64) -> GridPosition {
        let [mouse, cat, turn] = self.radix.unrank(state);
        GridPosition {
            mouse: mouse as u32,
            cat: cat as u32,
            turn: if turn == 0 { Turn::Mouse } else { Turn::Cat },
        }
    }

    /// Who wins `state` in the unbounded game, `None` for a draw.
    pub fn winner(&self, table: &OutcomeTable, state: u64) -> Option<Player> {
        super::cat_mouse::winner_at(table, state)
    }

    /// Whether the mouse wins `state` within `max_moves` plies.
    pub fn mouse_wins_within(&self, table: &OutcomeTable, state: u64, max_moves: u64) -> bool {
        self.winner(table, state) == Some(Player::Mouse)
            && table
                .depth(state)
                .is_some_and(|d| u64::from(d) <= max_moves)
    }

    #[inline]
    fn terminal_of(&self, mouse: u32, cat: u32, turn: Turn) -> Option<Outcome> {
        let winner = if mouse == cat || cat == self.food {
            Player::Cat
        } else if mouse == self.food {
            Player::Mouse
        } else {
            return None;
        };
        let mover = if turn == Turn::Mouse {
            Player::Mouse
        } else {
            Player::Cat
        };
        Some(if winner == mover {
            Outcome::Win
        } else {
            Outcome::Loss
        })
    }
}

/// The fixed benchmark grid: 64×64 floor with a wall segment across row 32
/// (columns 8..56), the mouse in the top-left corner, the cat in the
/// bottom-right one and the food in the top-right one — 4,048 floor cells,
/// 32,772,608 states.
pub fn bench_grid() -> Vec<String> {
    (0..64)
        .map(|r| {
            (0..64)
                .map(|c| match (r, c) {
                    (0, 0) => 'M',
                    (63, 63) => 'C',
                    (0, 63) => 'F',
                    (32, 8..=55) => '#',
                    _ => '.',
                })
                .collect()
        })
        .collect()
}

impl RankedGame for CatMouseGrid {
    fn structure_bytes(&self) -> u64 {
        self.mouse_jumps.bytes() + self.cat_jumps.bytes() + self.floor.len() as u64 * 8
    }

    fn state_count(&self) -> u64 {
        self.radix.size()
    }

    fn terminal(&self, state: u64) -> Option<Outcome> {
        let p = self.unrank(state);
        self.terminal_of(p.mouse, p.cat, p.turn)
    }

    fn move_count(&self, state: u64) -> u32 {
        let p = self.unrank(state);
        match p.turn {
            Turn::Mouse => self.mouse_jumps.of(p.mouse).len() as u32,
            Turn::Cat => self.cat_jumps.of(p.cat).len() as u32,
        }
    }

    fn max_move_count(&self) -> u32 {
        (0..self.floor_cells())
            .map(|v| self.mouse_jumps.of(v).len().max(self.cat_jumps.of(v).len()) as u32)
            .max()
            .unwrap_or(0)
    }

    fn for_each_move(&self, state: u64, mut visit: impl FnMut(u64)) {
        let p = self.unrank(state);
        if self.terminal_of(p.mouse, p.cat, p.turn).is_some() {
            return;
        }
        match p.turn {
            Turn::Mouse => {
                for &mouse in self.mouse_jumps.of(p.mouse) {
                    visit(self.rank(GridPosition {
                        mouse,
                        turn: Turn::Cat,
                        ..p
                    }));
                }
            }
            Turn::Cat => {
                for &cat in self.cat_jumps.of(p.cat) {
                    visit(self.rank(GridPosition {
                        cat,
                        turn: Turn::Mouse,
                        ..p
                    }));
                }
            }
        }
    }

    /// Jumps can be made back, so a state's predecessors come from the
    /// same jump lists as its moves.
    #[inline]
    fn for_each_unmove(&self, state: u64, mut visit: impl FnMut(u64, u32)) {
        let p = self.unrank(state);
        match p.turn {
            // The mouse moved last.
            Turn::Cat => {
                if p.cat == self.food {
                    return;
                }
                for &mouse in self.mouse_jumps.of(p.mouse) {
                    if mouse != p.cat && mouse != self.food {
                        let moves = self.mouse_jumps.of(mouse).len() as u32;
                        visit(
                            self.rank(GridPosition {
                                mouse,
                                turn: Turn::Mouse,
                                ..p
                            }),
                            moves,
                        );
                    }
                }
            }
            // The cat moved last.
            Turn::Mouse => {
                if p.mouse == self.food {
                    return;
                }
                for &cat in self.cat_jumps.of(p.cat) {
                    if cat != p.mouse && cat != self.food {
                        let moves = self.cat_jumps.of(cat).len() as u32;
                        visit(
                            self.rank(GridPosition {
                                cat,
                                turn: Turn::Cat,
                                ..p
                            }),
                            moves,
                        );
                    }
                }
            }
        }
    }

    fn terminal_states(&self) -> Vec<(u64, Outcome)> {
        let f = self.floor_cells();
        let mut found = Vec::new();
        for a in 0..f {
            // (a, a): caught; (a, food): the cat ate; (food, a): the mouse ate.
            let mut pairs = vec![(a, a)];
            if a != self.food {
                pairs.push((a, self.food));
                pairs.push((self.food, a));
            }
            for (mouse, cat) in pairs {
                for turn in [Turn::Mouse, Turn::Cat] {
                    let outcome = self
                        .terminal_of(mouse, cat, turn)
                        .expect("terminal by construction");
                    found.push((self.rank(GridPosition { mouse, cat, turn }), outcome));
                }
            }
        }
        found
    }
}
