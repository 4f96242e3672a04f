//! A deliberately simple m,n,k reference for the tests: boards as (X mask,
//! O mask) pairs in hash maps, reachability by breadth-first search, values
//! and game counts by memoised recursion, classes by canonical forms (the
//! least image under the board's symmetries). It shares no code with the
//! library.
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};

/// Who wins a position under perfect play, with the plies to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The player to move wins.
    Win(u32),
    /// The player to move loses.
    Loss(u32),
    /// A draw, which always fills the board.
    Draw(u32),
}

/// A rotation or reflection, as a map of (row, column).
type CellMap = Box<dyn Fn(u32, u32) -> (u32, u32)>;

pub struct Reference {
    pub rows: u32,
    pub cols: u32,
    lines: Vec<u32>,
    /// Reachable boards per ply.
    pub plies: Vec<HashSet<(u32, u32)>>,
    pub values: HashMap<(u32, u32), Value>,
}

impl Reference {
    /// Reachable boards, values and all.
    pub fn new(rows: u32, cols: u32, k: u32) -> Self {
        let mut reference = Self::reachable_only(rows, cols, k);
        let boards: Vec<(u32, u32)> = reference.plies.iter().flatten().copied().collect();
        for (x, o) in boards {
            reference.value(x, o);
        }
        reference
    }

    /// Only the reachable boards (no values).
    pub fn reachable_only(rows: u32, cols: u32, k: u32) -> Self {
        let mut lines = Vec::new();
        for r in 0..rows as i32 {
            for c in 0..cols as i32 {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let cells: Vec<(i32, i32)> =
                        (0..k as i32).map(|i| (r + dr * i, c + dc * i)).collect();
                    if cells
                        .iter()
                        .all(|&(a, b)| a >= 0 && b >= 0 && a < rows as i32 && b < cols as i32)
                    {
                        lines.push(
                            cells
                                .iter()
                                .fold(0u32, |m, &(a, b)| m | 1 << (a * cols as i32 + b)),
                        );
                    }
                }
            }
        }
        let mut reference = Reference {
            rows,
            cols,
            lines,
            plies: Vec::new(),
            values: HashMap::new(),
        };
        reference.enumerate();
        reference
    }

    pub fn cells(&self) -> u32 {
        self.rows * self.cols
    }

    pub fn has_line(&self, stones: u32) -> bool {
        self.lines.iter().any(|&l| l & !stones == 0)
    }

    /// Whether the game is over: the last mover has a line, or the board is full.
    pub fn is_terminal(&self, x: u32, o: u32) -> bool {
        let x_moved = x.count_ones() > o.count_ones();
        let last = if x_moved { x } else { o };
        ((x | o) != 0 && self.has_line(last)) || (x | o).count_ones() == self.cells()
    }

    pub fn children(&self, x: u32, o: u32) -> Vec<(u32, u32)> {
        let x_moves = x.count_ones() == o.count_ones();
        (0..self.cells())
            .filter(|c| (x | o) & (1 << c) == 0)
            .map(|c| {
                if x_moves {
                    (x | 1 << c, o)
                } else {
                    (x, o | 1 << c)
                }
            })
            .collect()
    }

    fn enumerate(&mut self) {
        let mut current: HashSet<(u32, u32)> = HashSet::from([(0, 0)]);
        for _ in 0..=self.cells() {
            let mut next = HashSet::new();
            for &(x, o) in &current {
                if !self.is_terminal(x, o) {
                    next.extend(self.children(x, o));
                }
            }
            self.plies.push(current);
            current = next;
        }
    }

    fn value(&mut self, x: u32, o: u32) -> Value {
        if let Some(&v) = self.values.get(&(x, o)) {
            return v;
        }
        let empty = self.cells() - (x | o).count_ones();
        let v = if self.is_terminal(x, o) {
            if (x | o) != 0
                && self.has_line(if x.count_ones() > o.count_ones() {
                    x
                } else {
                    o
                })
            {
                Value::Loss(0)
            } else {
                Value::Draw(0)
            }
        } else {
            let children: Vec<Value> = self
                .children(x, o)
                .into_iter()
                .map(|(a, b)| self.value(a, b))
                .collect();
            let wins: Vec<u32> = children
                .iter()
                .filter_map(|v| {
                    if let Value::Loss(d) = v {
                        Some(d + 1)
                    } else {
                        None
                    }
                })
                .collect();
            if let Some(&fastest) = wins.iter().min() {
                Value::Win(fastest)
            } else if children.iter().any(|v| matches!(v, Value::Draw(_))) {
                Value::Draw(empty)
            } else {
                let slowest = children
                    .iter()
                    .map(|v| if let Value::Win(d) = v { d + 1 } else { 0 })
                    .max()
                    .unwrap();
                Value::Loss(slowest)
            }
        };
        self.values.insert((x, o), v);
        v
    }

    /// The board's images under its rotations and reflections.
    fn images(&self, x: u32, o: u32) -> Vec<(u32, u32)> {
        let (rows, cols) = (self.rows, self.cols);
        let mut maps: Vec<CellMap> = vec![
            Box::new(|r, c| (r, c)),
            Box::new(move |r, c| (r, cols - 1 - c)),
            Box::new(move |r, c| (rows - 1 - r, c)),
            Box::new(move |r, c| (rows - 1 - r, cols - 1 - c)),
        ];
        if rows == cols {
            maps.push(Box::new(|r, c| (c, r)));
            maps.push(Box::new(move |r, c| (cols - 1 - c, rows - 1 - r)));
            maps.push(Box::new(move |r, c| (c, rows - 1 - r)));
            maps.push(Box::new(move |r, c| (cols - 1 - c, r)));
        }
        let apply = |map: &dyn Fn(u32, u32) -> (u32, u32), mask: u32| {
            (0..rows * cols)
                .filter(|i| mask & (1 << i) != 0)
                .fold(0u32, |m, i| {
                    let (r, c) = map(i / cols, i % cols);
                    m | 1 << (r * cols + c)
                })
        };
        maps.iter()
            .map(|m| (apply(m.as_ref(), x), apply(m.as_ref(), o)))
            .collect()
    }

    pub fn canonical(&self, x: u32, o: u32) -> (u32, u32) {
        self.images(x, o).into_iter().min().unwrap()
    }

    /// Games from this board to the end, by result: (X wins, O wins, draws).
    pub fn games(&self, memo: &mut HashMap<(u32, u32), [u128; 3]>, x: u32, o: u32) -> [u128; 3] {
        if let Some(&g) = memo.get(&(x, o)) {
            return g;
        }
        let g = if self.is_terminal(x, o) {
            if (x | o) != 0 && self.has_line(x) && x.count_ones() > o.count_ones() {
                [1, 0, 0]
            } else if (x | o) != 0 && self.has_line(o) && x.count_ones() == o.count_ones() {
                [0, 1, 0]
            } else {
                [0, 0, 1]
            }
        } else {
            self.children(x, o).into_iter().fold([0; 3], |acc, (a, b)| {
                let g = self.games(memo, a, b);
                [acc[0] + g[0], acc[1] + g[1], acc[2] + g[2]]
            })
        };
        memo.insert((x, o), g);
        g
    }
}
