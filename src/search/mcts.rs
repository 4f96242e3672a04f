//! Monte Carlo tree search (UCT) for boards beyond proof, as the article
//! this project grew from planned: from the root, descend by the UCB1
//! rule (win rate + `exploration` · √(ln N / n)), add one child, finish the
//! game with uniformly random moves, and credit the result (1 a win, ½ a
//! draw) to every node on the path from the side of the player who moved
//! into it. The move played is the root's most visited child. A seed makes
//! the choice reproducible (SplitMix64). The search looks at a cancel flag
//! before every playout, so a caller stops it within one playout
//! (Python's Ctrl-C). Python's `mcts_action` and its MCTS opponent call
//! [`mcts_move`].

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use crate::error::{Error, Result, Setting};
use crate::position::{
    winning_lines, BoardGame, Cells, Family, Position, Side, Status, WORD_CELLS,
};

/// The most playouts one call makes.
pub const MAX_PLAYOUTS: u32 = 10_000_000;

/// The exploration weight a front end uses when none is given (near √2,
/// the UCT constant of rewards in 0..=1).
pub const DEFAULT_EXPLORATION: f64 = 1.4;

/// SplitMix64: small, fast, and reproducible from a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform index below `n` (n ≥ 1).
    fn below(&mut self, n: u32) -> u32 {
        (((self.next() >> 32) * u64::from(n)) >> 32) as u32
    }
}

/// A set of cells as the tree and its playouts hold it: one word on boards
/// of at most 64 cells, where playouts are a third faster than on the
/// 256-cell [`Cells`] (measured on 7×6: 20,000 playouts in 68 ms as words,
/// 101 ms as `Cells`), and `Cells` past them. One search serves both.
trait CellSet: Copy + Default + PartialEq {
    /// `cells` as this set (on words, they lie below 64).
    fn of(cells: Cells) -> Self;
    /// The set with `cell` added.
    fn with(self, cell: u32) -> Self;
    /// The cells of `self` not in `other`.
    fn minus(self, other: Self) -> Self;
    /// The cells of both.
    fn and(self, other: Self) -> Self;
    /// The cells of either.
    fn or(self, other: Self) -> Self;
    /// How many cells.
    fn count(self) -> u32;
    /// The `i`-th cell in order (i < its count).
    fn nth(self, i: u32) -> u32;
    /// The highest cell, if any.
    fn last(self) -> Option<u32>;
}

impl CellSet for u64 {
    fn of(cells: Cells) -> Self {
        cells.word()
    }
    fn with(self, cell: u32) -> Self {
        self | 1 << cell
    }
    fn minus(self, other: Self) -> Self {
        self & !other
    }
    fn and(self, other: Self) -> Self {
        self & other
    }
    fn or(self, other: Self) -> Self {
        self | other
    }
    fn count(self) -> u32 {
        self.count_ones()
    }
    fn nth(self, i: u32) -> u32 {
        let mut rest = self;
        for _ in 0..i {
            rest &= rest - 1;
        }
        rest.trailing_zeros()
    }
    fn last(self) -> Option<u32> {
        (self != 0).then(|| 63 - self.leading_zeros())
    }
}

impl CellSet for Cells {
    fn of(cells: Cells) -> Self {
        cells
    }
    fn with(self, cell: u32) -> Self {
        Cells::with(self, cell)
    }
    fn minus(self, other: Self) -> Self {
        Cells::minus(self, other)
    }
    fn and(self, other: Self) -> Self {
        self & other
    }
    fn or(self, other: Self) -> Self {
        self | other
    }
    fn count(self) -> u32 {
        self.len()
    }
    fn nth(self, i: u32) -> u32 {
        self.iter().nth(i as usize).expect("i is below the length")
    }
    fn last(self) -> Option<u32> {
        self.iter().last()
    }
}

/// The rules a search needs, on sets of one kind: the lines through each
/// cell (a move can only complete a line through it), the full board and,
/// on gravity boards, each column's cells.
struct Rules<S> {
    lines_through: Vec<Vec<S>>,
    full: S,
    columns: Option<Vec<S>>,
}

impl<S: CellSet> Rules<S> {
    fn of(board: &BoardGame) -> Self {
        let (cols, rows) = (board.cols(), board.rows());
        let mut lines_through = vec![Vec::new(); board.cells() as usize];
        for line in winning_lines(cols, rows, board.k()) {
            let set = S::of(line.iter().fold(Cells::default(), |s, &c| s.with(c)));
            for &c in &line {
                lines_through[c as usize].push(set);
            }
        }
        let columns = (board.family() == Family::Gravity).then(|| {
            (0..cols)
                .map(|c| S::of((0..rows).fold(Cells::default(), |s, r| s.with(r * cols + c))))
                .collect()
        });
        Self {
            lines_through,
            full: S::of(board.full()),
            columns,
        }
    }

    /// The cells the player to move may take, `occupied` taken.
    fn legal(&self, occupied: S) -> S {
        let empty = self.full.minus(occupied);
        match &self.columns {
            None => empty,
            // a stone drops to its column's lowest empty cell: rows run
            // from the top, so the highest-numbered
            Some(columns) => columns
                .iter()
                .filter_map(|&col| empty.and(col).last())
                .fold(S::default(), S::with),
        }
    }

    /// What a stone on `cell` makes of the mover's `stones` (with it) on
    /// a board of `occupied` cells (with it).
    fn after(&self, stones: S, occupied: S, cell: u32) -> End {
        if self.lines_through[cell as usize]
            .iter()
            .any(|&line| stones.and(line) == line)
        {
            End::Won
        } else if occupied == self.full {
            End::Drawn
        } else {
            End::InProgress
        }
    }
}

/// A node's game state.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    InProgress,
    /// The player who moved into it won.
    Won,
    Drawn,
}

/// The result of a finished game for the player who made its last move:
/// 1 a win, ½ a draw.
fn result_for_last_mover(end: End) -> f64 {
    match end {
        End::Won => 1.0,
        _ => 0.5,
    }
}

/// One node of the tree.
struct Node<S> {
    /// The stones of the player to move, and of the other.
    to_move: S,
    moved: S,
    end: End,
    /// Cells not yet expanded.
    untried: S,
    /// (cell, child index).
    children: Vec<(u32, usize)>,
    visits: f64,
    /// Results for the player who moved into this node.
    reward: f64,
}

/// The search on `board` (at most 64 cells: as words), see [`search_on`].
fn search(
    board: &BoardGame,
    root: Position,
    playouts: u32,
    seed: u64,
    exploration: f64,
    cancel: &AtomicBool,
) -> Option<u32> {
    let (mine, theirs) = match root.to_move() {
        Side::X => (root.x, root.o),
        Side::O => (root.o, root.x),
    };
    if board.cells() <= WORD_CELLS {
        let rules = Rules::<u64>::of(board);
        let (mine, theirs) = (u64::of(mine), u64::of(theirs));
        search_on(&rules, (mine, theirs), playouts, seed, exploration, cancel)
    } else {
        let rules = Rules::<Cells>::of(board);
        search_on(&rules, (mine, theirs), playouts, seed, exploration, cancel)
    }
}

/// The search from the position of the stones (of the player to move, of
/// the other; in play): the root's most visited child's cell, or `None`
/// once `cancel` is set (looked at before each playout).
fn search_on<S: CellSet>(
    rules: &Rules<S>,
    (mine, theirs): (S, S),
    playouts: u32,
    seed: u64,
    exploration: f64,
    cancel: &AtomicBool,
) -> Option<u32> {
    let mut rng = Rng(seed);
    let node = |to_move: S, moved: S, end: End| Node {
        to_move,
        moved,
        end,
        untried: match end {
            End::InProgress => rules.legal(to_move.or(moved)),
            _ => S::default(),
        },
        children: Vec::new(),
        visits: 0.0,
        reward: 0.0,
    };
    let mut tree = vec![node(mine, theirs, End::InProgress)];
    let mut path = Vec::new();
    for _ in 0..playouts {
        if cancel.load(Relaxed) {
            return None;
        }
        path.clear();
        let mut at = 0;
        path.push(at);
        // select
        while tree[at].untried == S::default() && !tree[at].children.is_empty() {
            let log_n = tree[at].visits.ln();
            let best = tree[at]
                .children
                .iter()
                .map(|&(_, c)| {
                    let child = &tree[c];
                    let score =
                        child.reward / child.visits + exploration * (log_n / child.visits).sqrt();
                    (score, c)
                })
                .fold((f64::NEG_INFINITY, 0), |a, b| if b.0 > a.0 { b } else { a });
            at = best.1;
            path.push(at);
        }
        // expand
        if tree[at].untried != S::default() {
            let untried = tree[at].untried;
            let cell = untried.nth(rng.below(untried.count()));
            tree[at].untried = untried.minus(S::default().with(cell));
            let (to_move, moved) = (tree[at].to_move, tree[at].moved);
            let stones = to_move.with(cell);
            let end = rules.after(stones, stones.or(moved), cell);
            tree.push(node(moved, stones, end));
            let c = tree.len() - 1;
            tree[at].children.push((cell, c));
            at = c;
            path.push(at);
        }
        // play out: `last_mover_wins` from the view of the player who moved
        // into the leaf
        let leaf = &tree[at];
        let (mut to_move, mut moved, mut end) = (leaf.to_move, leaf.moved, leaf.end);
        let mut plies = 0u32;
        while end == End::InProgress {
            let occupied = to_move.or(moved);
            let moves = rules.legal(occupied);
            let cell = moves.nth(rng.below(moves.count()));
            let stones = to_move.with(cell);
            end = rules.after(stones, occupied.with(cell), cell);
            (to_move, moved) = (moved, stones);
            plies += 1;
        }
        let end = result_for_last_mover(end);
        // the leaf's mover's result: the game's last mover's if an even
        // number of plies followed the leaf
        let mut result = if plies.is_multiple_of(2) {
            end
        } else {
            1.0 - end
        };
        for &n in path.iter().rev() {
            tree[n].visits += 1.0;
            tree[n].reward += result;
            result = 1.0 - result;
        }
    }
    tree[0]
        .children
        .iter()
        .max_by(|a, b| tree[a.1].visits.total_cmp(&tree[b.1].visits))
        .map(|&(cell, _)| cell)
}

/// The settings of one search: its playouts (1 to [`MAX_PLAYOUTS`]), the
/// seed of its random choices, and the UCB1 exploration constant (at least
/// 0; 1.4 is the usual √2).
#[derive(Clone, Copy, Debug)]
pub struct MctsSettings {
    /// Random playouts from the root.
    pub playouts: u32,
    /// The seed: the same seed gives the same move.
    pub seed: u64,
    /// The weight of the exploration term.
    pub exploration: f64,
}

impl MctsSettings {
    /// Refuses, naming the setting, playouts out of range (1 to
    /// [`MAX_PLAYOUTS`]) or an exploration below 0 or not a number: what
    /// [`mcts_move`] checks first, for a front end to check before a game.
    pub fn check(&self) -> Result<()> {
        if !(1..=MAX_PLAYOUTS).contains(&self.playouts) {
            return Err(Error::setting(
                Setting::Playouts,
                format!("{} is not from 1 to {MAX_PLAYOUTS}", self.playouts),
            ));
        }
        if !(self.exploration.is_finite() && self.exploration >= 0.0) {
            return Err(Error::setting(
                Setting::Exploration,
                format!("{} is not a number of at least 0", self.exploration),
            ));
        }
        Ok(())
    }
}

/// The move (a cell) Monte Carlo tree search chooses for `root` on
/// `board`, a position in play; `Ok(None)` once `cancel` is set (looked at
/// before each playout). Refused, naming the setting: playouts out of
/// range, an exploration below 0 or not a number, a game already over.
pub fn mcts_move(
    board: &BoardGame,
    root: Position,
    settings: MctsSettings,
    cancel: &AtomicBool,
) -> Result<Option<u32>> {
    settings.check()?;
    if board.status(&root) != Status::InProgress {
        return Err(Error::InvalidInput("the game is already over".into()));
    }
    Ok(search(
        board,
        root,
        settings.playouts,
        settings.seed,
        settings.exploration,
        cancel,
    ))
}
