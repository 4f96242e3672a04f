//! Cat and Mouse on a graph (LeetCode 913).
//!
//! The mouse starts on node 1 and moves first, the cat starts on node 2;
//! node 0 is the hole, which the cat may never enter. Every move follows an
//! edge `a → b` with `b` in `graph[a]` (moving is compulsory). The mouse wins
//! on reaching the hole, the cat wins on reaching the mouse's node, and a
//! position that repeats forever is a draw. A player with no legal move
//! loses. Repeated entries of an adjacency list are one edge; a node may
//! list itself (a move that stays put).
//!
//! ## State index
//!
//! Mouse on `0..n`, cat on `1..n`, side to move — `n·(n−1)·2` states in
//! mixed radix ([`MixedRadix`]), the side to move varying fastest:
//!
//! ```text
//!   index = (mouse · (n−1) + (cat − 1)) · 2 + turn        turn: 0 mouse, 1 cat
//!   ┌──────────────┬──────────────────┬────────┐
//!   │ mouse  0..n  │ cat−1   0..n−1   │ turn 2 │
//!   └──────────────┴──────────────────┴────────┘
//! ```

use super::adjacency::Adjacency;
use crate::error::{Error, Result};
use crate::game::table::OutcomeTable;
use crate::game::{Outcome, RankedGame};
use crate::index::MixedRadix;

/// Whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// The mouse is to move (the index digit 0).
    Mouse = 0,
    /// The cat is to move (the index digit 1).
    Cat = 1,
}

/// A player, as the winner of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The mouse.
    Mouse,
    /// The cat.
    Cat,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Self {
        match self {
            Player::Mouse => Player::Cat,
            Player::Cat => Player::Mouse,
        }
    }
}

/// Who wins `state` of a cat-and-mouse table, `None` for a draw. Both
/// cat-and-mouse games put the side to move in the last index digit
/// (0 mouse, 1 cat), so the parity of the index names the mover.
pub fn winner_at(table: &OutcomeTable, state: u64) -> Option<Player> {
    let mover = if state.is_multiple_of(2) {
        Player::Mouse
    } else {
        Player::Cat
    };
    match table.outcome(state) {
        Outcome::Win => Some(mover),
        Outcome::Loss => Some(mover.other()),
        Outcome::Draw => None,
    }
}

/// The states of a cat-and-mouse table by who wins them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WinnerTotals {
    /// States the mouse wins.
    pub mouse_wins: u64,
    /// States the cat wins.
    pub cat_wins: u64,
    /// Drawn states.
    pub draws: u64,
}

/// Counts a cat-and-mouse table by winner (see `winner_at` for the layout).
pub fn winner_totals(table: &OutcomeTable) -> WinnerTotals {
    let [mouse_moves, cat_moves] = table.counts_by_parity();
    WinnerTotals {
        mouse_wins: mouse_moves.win + cat_moves.loss,
        cat_wins: mouse_moves.loss + cat_moves.win,
        draws: mouse_moves.draw + cat_moves.draw,
    }
}

/// A position: where the mouse and the cat stand, and who moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The mouse's node, `0..n` (0 is the hole).
    pub mouse: u32,
    /// The cat's node, `1..n`.
    pub cat: u32,
    /// The side to move.
    pub turn: Turn,
}

/// Cat and Mouse on a validated graph.
///
/// Invariants: at least 3 nodes; every listed node is `< n`; the adjacency
/// lists are sorted and free of repeats.
#[derive(Clone, Debug)]
pub struct CatMouseGraph {
    nodes: u32,
    radix: MixedRadix<3>,
    forward: Adjacency,
    backward: Adjacency,
    /// Legal moves of the mouse standing on each node.
    mouse_moves: Vec<u32>,
    /// Legal moves of the cat standing on each node (edges into the hole excluded).
    cat_moves: Vec<u32>,
}

/// The hole.
const HOLE: u32 = 0;

impl CatMouseGraph {
    /// Validates `graph` (adjacency lists of nodes `0..n`) and builds the game.
    pub fn new(graph: &[Vec<u32>]) -> Result<Self> {
        let n = graph.len();
        if n < 3 {
            return Err(Error::InvalidInput(format!(
                "the graph has {n} node{}; Cat and Mouse needs at least 3 (hole 0, mouse 1, cat 2)",
                if n == 1 { "" } else { "s" }
            )));
        }
        if n > u32::MAX as usize / 2 {
            return Err(Error::InvalidInput(format!(
                "the graph has {n} nodes, too many to index"
            )));
        }
        for (node, list) in graph.iter().enumerate() {
            if let Some(&bad) = list.iter().find(|&&b| b as usize >= n) {
                return Err(Error::InvalidInput(format!(
                    "graph[{node}] lists node {bad}, out of range 0..{n}"
                )));
            }
        }
        let nodes = n as u32;
        let radix = MixedRadix::new([u64::from(nodes), u64::from(nodes - 1), 2])
            .expect("n·(n−1)·2 fits in u64 for n < 2^31");
        let forward = Adjacency::from_lists(graph);
        let backward = forward.reversed();
        let mouse_moves = (0..nodes).map(|v| forward.of(v).len() as u32).collect();
        let cat_moves = (0..nodes)
            .map(|v| forward.of(v).iter().filter(|&&b| b != HOLE).count() as u32)
            .collect();
        Ok(Self {
            nodes,
            radix,
            forward,
            backward,
            mouse_moves,
            cat_moves,
        })
    }

    /// Builds the game from signed adjacency lists as JSON gives them,
    /// refusing negative node numbers.
    pub fn from_signed(graph: &[Vec<i64>]) -> Result<Self> {
        let n = graph.len();
        let mut lists = Vec::with_capacity(n);
        for (node, list) in graph.iter().enumerate() {
            let mut converted = Vec::with_capacity(list.len());
            for &b in list {
                match u32::try_from(b) {
                    Ok(b) => converted.push(b),
                    Err(_) => {
                        return Err(Error::InvalidInput(format!(
                            "graph[{node}] lists node {b}, out of range 0..{n}"
                        )))
                    }
                }
            }
            lists.push(converted);
        }
        Self::new(&lists)
    }

    /// Number of nodes.
    pub fn nodes(&self) -> u32 {
        self.nodes
    }

    /// The index of a position. Contract: `mouse < n`, `1 ≤ cat < n`.
    #[inline]
    pub fn rank(&self, p: Position) -> u64 {
        self.radix
            .rank([u64::from(p.mouse), u64::from(p.cat - 1), p.turn as u64])
    }

    /// The position of an index. Contract: `state < state_count()`.
    #[inline]
    pub fn unrank(&self, state: u64) -> Position {
        let [mouse, cat, turn] = self.radix.unrank(state);
        Position {
            mouse: mouse as u32,
            cat: cat as u32 + 1,
            turn: if turn == 0 { Turn::Mouse } else { Turn::Cat },
        }
    }

    /// The index of a start position given by the user, checked.
    pub fn start_state(&self, mouse: u32, cat: u32, turn: Turn) -> Result<u64> {
        let n = self.nodes;
        if mouse >= n {
            return Err(Error::InvalidInput(format!(
                "the mouse's node {mouse} is out of range 0..{n}"
            )));
        }
        if cat == HOLE {
            return Err(Error::InvalidInput(
                "the cat may not stand on the hole (node 0)".into(),
            ));
        }
        if cat >= n {
            return Err(Error::InvalidInput(format!(
                "the cat's node {cat} is out of range 1..{n}"
            )));
        }
        Ok(self.rank(Position { mouse, cat, turn }))
    }

    /// Who wins `state` under perfect play, `None` for a draw.
    pub fn winner(&self, table: &OutcomeTable, state: u64) -> Option<Player> {
        winner_at(table, state)
    }

    #[inline]
    fn moves_of(&self, p: Position) -> u32 {
        match p.turn {
            Turn::Mouse => self.mouse_moves[p.mouse as usize],
            Turn::Cat => self.cat_moves[p.cat as usize],
        }
    }

    #[inline]
    fn terminal_of(&self, p: Position) -> Option<Outcome> {
        let mouse_to_move = p.turn == Turn::Mouse;
        if p.mouse == HOLE {
            Some(if mouse_to_move {
                Outcome::Win
            } else {
                Outcome::Loss
            })
        } else if p.mouse == p.cat {
            Some(if mouse_to_move {
                Outcome::Loss
            } else {
                Outcome::Win
            })
        } else if self.moves_of(p) == 0 {
            Some(Outcome::Loss)
        } else {
            None
        }
    }
}

impl RankedGame for CatMouseGraph {
    fn structure_bytes(&self) -> u64 {
        self.forward.bytes()
            + self.backward.bytes()
            + (self.mouse_moves.len() + self.cat_moves.len()) as u64 * 4
    }

    fn state_count(&self) -> u64 {
        self.radix.size()
    }

    fn terminal(&self, state: u64) -> Option<Outcome> {
        self.terminal_of(self.unrank(state))
    }

    fn move_count(&self, state: u64) -> u32 {
        self.moves_of(self.unrank(state))
    }

    fn max_move_count(&self) -> u32 {
        let mouse = self.mouse_moves.iter().max().copied().unwrap_or(0);
        let cat = self.cat_moves.iter().max().copied().unwrap_or(0);
        mouse.max(cat)
    }

    fn for_each_move(&self, state: u64, mut visit: impl FnMut(u64)) {
        let p = self.unrank(state);
        if self.terminal_of(p).is_some() {
            return;
        }
        match p.turn {
            Turn::Mouse => {
                for &mouse in self.forward.of(p.mouse) {
                    visit(self.rank(Position {
                        mouse,
                        turn: Turn::Cat,
                        ..p
                    }));
                }
            }
            Turn::Cat => {
                for &cat in self.forward.of(p.cat).iter().filter(|&&c| c != HOLE) {
                    visit(self.rank(Position {
                        cat,
                        turn: Turn::Mouse,
                        ..p
                    }));
                }
            }
        }
    }

    #[inline]
    fn for_each_unmove(&self, state: u64, mut visit: impl FnMut(u64, u32)) {
        let p = self.unrank(state);
        match p.turn {
            // The mouse moved last: it came from an in-neighbour of its node.
            Turn::Cat => {
                for &mouse in self.backward.of(p.mouse) {
                    let moves = self.mouse_moves[mouse as usize];
                    if mouse != HOLE && mouse != p.cat {
                        visit(
                            self.rank(Position {
                                mouse,
                                turn: Turn::Mouse,
                                ..p
                            }),
                            moves,
                        );
                    }
                }
            }
            // The cat moved last, from an in-neighbour of its node other than the hole.
            Turn::Mouse => {
                for &cat in self.backward.of(p.cat) {
                    let moves = self.cat_moves[cat as usize];
                    if cat != HOLE && cat != p.mouse && p.mouse != HOLE {
                        visit(
                            self.rank(Position {
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
        let n = self.nodes;
        let mut found = Vec::new();
        for cat in 1..n {
            for mouse in [HOLE, cat] {
                for turn in [Turn::Mouse, Turn::Cat] {
                    let p = Position { mouse, cat, turn };
                    let outcome = self.terminal_of(p).expect("hole and capture are terminal");
                    found.push((self.rank(p), outcome));
                }
            }
        }
        // Positions whose mover is stuck: a mouse on a node without exits,
        // a cat whose only exits lead into the hole.
        for stuck in 1..n {
            let others = (1..n).filter(move |&other| other != stuck);
            if self.mouse_moves[stuck as usize] == 0 {
                for cat in others.clone() {
                    found.push((
                        self.rank(Position {
                            mouse: stuck,
                            cat,
                            turn: Turn::Mouse,
                        }),
                        Outcome::Loss,
                    ));
                }
            }
            if self.cat_moves[stuck as usize] == 0 {
                for mouse in others {
                    found.push((
                        self.rank(Position {
                            mouse,
                            cat: stuck,
                            turn: Turn::Cat,
                        }),
                        Outcome::Loss,
                    ));
                }
            }
        }
        found
    }
}
