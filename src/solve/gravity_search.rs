//! A search engine for gravity boards alone (the Connect-Four family),
//! built for speed: exact scores, as [`crate::solve::search`] proves them,
//! from the ideas of the fastest Connect Four solvers (our own code).
//!
//! * **Bitboards with a sentinel row**, in the layout of
//!   [`crate::games::gravity`]: column `c` is bits `c·(rows+1) ..`, the bit
//!   above each column stays empty, so shifts never carry a line from one
//!   column into the next.
//! * **Winning cells**: the empty cells that would complete `k` in a row
//!   for a player, computed for all cells at once with shifts.
//! * **Non-losing moves only**: a move right under a cell where the
//!   opponent would complete a line is never searched; an opponent's
//!   threat must be blocked at once, and two threats lose.
//! * **Move ordering** by the number of winning cells a move creates,
//!   centre columns first on ties.
//! * **A fixed-size lock-free transposition table**
//!   ([`crate::solve::bound_table`]): one 64-bit word an entry, exact keys,
//!   proven lower and upper bounds of the exact score, keyed by the
//!   position or its mirror image, whichever is smaller (both kept up to
//!   date move by move). A lost or overwritten entry costs time, never
//!   correctness. While a node orders its moves it starts fetching every
//!   child's entry, so the cache misses of the table overlap.
//! * **Counters per thread** ([`crate::solve::counters`]): no cache line
//!   is shared on every node.
//! * **Parallel root**: the first move alone, the others split across the
//!   workers with the shared table. The value never depends on the thread
//!   count; the node count may.
//!
//! Measured on 7×5 Connect Four from the empty board (exact score, 2^26
//! entries): 19.5 M nodes; the two-word table and one shared node counter
//! ran 2.15 M nodes/s at 1 thread, the one-word table, per-thread counters
//! and prefetching 6.6 M nodes/s (2.96 s), and 2.03 s at 2 threads.
//!
//! Scores are those of [`crate::solve::search::Precision::Exact`]: a win
//! completed by the stone placed on `m` stones scores `cells − m`, a loss
//! the negation, a draw 0.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::games::gravity::Gravity;
use crate::solve::bound_table::BoundTable;
use crate::solve::counters::ThreadCounter;
use crate::solve::progress::{Progress, Silent};
use crate::solve::search::{score_by_probes, Precision, SearchResult};

/// A gravity board prepared for search.
#[derive(Clone, Debug)]
pub struct GravityBoard {
    cols: u32,
    rows: u32,
    k: u32,
    cells: u32,
    bottom: u64,
    board: u64,
    /// Columns, centre first.
    order: Vec<u32>,
    /// Each column's cells.
    columns: Vec<u64>,
}

/// The most columns a board has: its cells and a sentinel per column fit
/// in 64 bits, with at least one row.
const MAX_COLUMNS: usize = 32;

impl GravityBoard {
    /// The board of `game`.
    pub fn new(game: &Gravity) -> Self {
        let (cols, rows, k) = game.dimensions();
        let h = rows + 1;
        let bottom = (0..cols).fold(0u64, |b, c| b | 1 << (c * h));
        let column = (1u64 << rows) - 1;
        let board = (0..cols).fold(0u64, |b, c| b | column << (c * h));
        let mut order: Vec<u32> = (0..cols).collect();
        let centre = f64::from(cols - 1) / 2.0;
        order.sort_by(|&a, &b| {
            (f64::from(a) - centre)
                .abs()
                .partial_cmp(&(f64::from(b) - centre).abs())
                .expect("finite")
                .then(a.cmp(&b))
        });
        Self {
            cols,
            rows,
            k,
            cells: cols * rows,
            bottom,
            board,
            order,
            columns: (0..cols).map(|c| column << (c * h)).collect(),
        }
    }

    /// The empty cells where `me` would complete `k` in a row: for each
    /// direction, a cell wins when `j` of my stones run from it one way and
    /// `k − 1 − j` the other way, for some `j`. Runs are built one step at a
    /// time (`ahead[t]`: the next `t` cells ahead are mine).
    /// `K` is the line length when known at compile time (the loops then
    /// unroll), or 0 to read it from the board.
    #[inline]
    fn winning_cells<const K: u32>(&self, me: u64, mask: u64) -> u64 {
        let h = self.rows + 1;
        let k = if K == 0 { self.k } else { K } as usize;
        let mut found = 0u64;
        // k ≤ the longer side ≤ 32 on a board of at most 64 bits
        let mut ahead = [!0u64; 33];
        for step in [1, h, h - 1, h + 1] {
            for t in 1..k {
                ahead[t] = ahead[t - 1] & me.checked_shr(step * t as u32).unwrap_or(0);
            }
            let mut behind = !0u64;
            for j in 0..k {
                if j > 0 {
                    behind &= me.checked_shl(step * j as u32).unwrap_or(0);
                }
                found |= behind & ahead[k - 1 - j];
            }
        }
        found & (self.board ^ mask)
    }

    /// The cells a stone may be dropped on.
    #[inline]
    fn playable(&self, mask: u64) -> u64 {
        mask.wrapping_add(self.bottom) & self.board
    }

    /// `bits` with its columns in the other order.
    fn mirror(&self, bits: u64) -> u64 {
        let h = self.rows + 1;
        let column = (1u64 << h) - 1;
        (0..self.cols).fold(0u64, |m, c| {
            m | ((bits >> (c * h)) & column) << ((self.cols - 1 - c) * h)
        })
    }

    /// The node of the position where the player to move has `me` and the
    /// occupied cells are `mask`.
    fn node(&self, me: u64, mask: u64) -> Node {
        Node {
            me,
            mask,
            mirror_me: self.mirror(me),
            mirror_mask: self.mirror(mask),
        }
    }

    /// The node after the player to move in `node` drops a stone on
    /// `cell`, in column `column`.
    #[inline]
    fn child(&self, node: &Node, column: u32, cell: u64) -> Node {
        let h = self.rows + 1;
        let row = cell.trailing_zeros() - column * h;
        let mirrored = 1u64 << ((self.cols - 1 - column) * h + row);
        Node {
            me: node.me ^ node.mask,
            mask: node.mask | cell,
            mirror_me: node.mirror_me ^ node.mirror_mask,
            mirror_mask: node.mirror_mask | mirrored,
        }
    }
}

/// A position in search: the stones of the player to move and the
/// occupied cells, and both mirrored left to right (kept up to date move by
/// move, so the mirror-canonical key costs two additions).
#[derive(Clone, Copy, Debug)]
struct Node {
    me: u64,
    mask: u64,
    mirror_me: u64,
    mirror_mask: u64,
}

impl Node {
    /// The position's key, unique (each column's stones plus its height
    /// marker), of it or its mirror image, whichever is smaller.
    #[inline]
    fn key(&self) -> u64 {
        (self.me + self.mask).min(self.mirror_me + self.mirror_mask)
    }
}

/// Bytes one table entry takes: the table's size is the budget over this.
pub const BYTES_PER_ENTRY: u64 = crate::solve::bound_table::BYTES_PER_ENTRY;

/// A search over one gravity board, with its table.
pub struct GravitySearcher<'a> {
    game: Gravity,
    board: GravityBoard,
    table: BoundTable,
    nodes: ThreadCounter,
    hits: ThreadCounter,
    deadline: Option<Instant>,
    progress: &'a dyn Progress,
    stopped: AtomicBool,
}

impl<'a> GravitySearcher<'a> {
    /// A searcher for `game` whose table holds `entries` entries, giving up
    /// at `deadline`, telling `progress` of every 4,096 nodes.
    pub fn new(
        game: &Gravity,
        entries: usize,
        deadline: Option<Instant>,
        progress: &'a dyn Progress,
    ) -> Self {
        progress.stage("nodes", 0);
        Self {
            game: game.clone(),
            board: GravityBoard::new(game),
            table: BoundTable::new(entries),
            nodes: ThreadCounter::default(),
            hits: ThreadCounter::default(),
            deadline,
            progress,
            stopped: AtomicBool::new(false),
        }
    }

    /// A searcher with no deadline and no progress.
    pub fn quiet(game: &Gravity, entries: usize) -> GravitySearcher<'static> {
        GravitySearcher::new(game, entries, None, &Silent)
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.total()
    }

    /// Table hits so far.
    pub fn hits(&self) -> u64 {
        self.hits.total()
    }

    /// Searches the position of X stones `x` and occupied cells `occupied`
    /// (the layout of [`crate::games::gravity`]) to `precision`, on the
    /// current rayon pool: `Ok(None)` once the deadline has passed. Refuses
    /// a position that is over or malformed.
    pub fn search(
        &self,
        x: u64,
        occupied: u64,
        precision: Precision,
    ) -> Result<Option<SearchResult>> {
        let b = &self.board;
        let me = self.player_to_move(x, occupied)?;
        let stones = occupied.count_ones();
        let (cells, n) = (b.cells as i8, stones as i8);
        let bounds = ((n + 1 - cells).min(0), (cells - n).max(0));
        let score = score_by_probes(precision, bounds, &self.stopped, |alpha, beta| {
            self.probe(me, occupied, alpha, beta)
        });
        if self.stopped.load(Relaxed) {
            return Ok(None);
        }
        Ok(Some(SearchResult::of_score(
            score,
            precision,
            stones,
            b.cells,
            (self.nodes(), self.hits()),
        )))
    }

    /// Whether the exact score of the position (as [`Self::search`] takes
    /// it) is at most `bound`: one null-window probe, reusing the table.
    /// `Ok(None)` once the deadline has passed.
    pub fn score_at_most(&self, x: u64, occupied: u64, bound: i8) -> Result<Option<bool>> {
        let me = self.player_to_move(x, occupied)?;
        let score = self.probe(me, occupied, bound, bound.saturating_add(1));
        Ok((!self.stopped.load(Relaxed)).then_some(score <= bound))
    }

    /// The stones of the player to move; refuses a position that is over
    /// or malformed.
    fn player_to_move(&self, x: u64, occupied: u64) -> Result<u64> {
        let b = &self.board;
        let stones = occupied.count_ones();
        let bad = |why: &str| Err(Error::InvalidInput(why.to_string()));
        if occupied & !b.board != 0 || x & !occupied != 0 {
            return bad("the stones lie off the board");
        }
        // each column's stones stand from the bottom: adding the bottom bit
        // carries through them to a single marker above
        if occupied.wrapping_add(b.bottom) & occupied != 0 {
            return bad("a stone floats");
        }
        let o = occupied & !x;
        if x.count_ones() != o.count_ones() && x.count_ones() != o.count_ones() + 1 {
            return bad("X has as many stones as O or one more");
        }
        if self.game.has_line(x) || self.game.has_line(o) || stones == b.cells {
            return bad("the game is already over in this position");
        }
        Ok(if stones.is_multiple_of(2) { x } else { o })
    }

    /// A fail-soft search of the root with the window (`alpha`, `beta`),
    /// with the line length unrolled when it is Connect Four's 4.
    fn probe(&self, me: u64, occupied: u64, alpha: i8, beta: i8) -> i8 {
        if self.board.k == 4 {
            self.root::<4>(me, occupied, alpha, beta)
        } else {
            self.root::<0>(me, occupied, alpha, beta)
        }
    }

    /// The root, its children split across the workers, each searched
    /// with the root's window: fail-soft within it.
    fn root<const K: u32>(&self, me: u64, mask: u64, alpha: i8, beta: i8) -> i8 {
        let b = &self.board;
        let node = b.node(me, mask);
        let n = mask.count_ones() as i8;
        let cells = b.cells as i8;
        let possible = b.playable(mask);
        if b.winning_cells::<K>(me, mask) & possible != 0 {
            return cells - n;
        }
        // ordered as inside the tree; the first move is searched alone
        // (a null window often fails high on it), the rest in parallel
        let mut moves = [0u32; MAX_COLUMNS];
        let count = self.order_moves::<K>(&node, possible, &mut moves);
        let child = |word: u32| {
            let c = word & 0xff;
            b.child(&node, c, possible & b.columns[c as usize])
        };
        let first = -self.negamax::<K>(&child(moves[0]), -beta, -alpha);
        if first >= beta || count == 1 {
            return first;
        }
        let alpha = alpha.max(first);
        let rest = moves[1..count]
            .par_iter()
            .map(|&word| -self.negamax::<K>(&child(word), -beta, -alpha))
            .max()
            .expect("more than one move");
        first.max(rest)
    }

    /// Writes the columns of the moves in `allowed` into `moves` as words,
    /// best first, and returns how many: most winning cells made first,
    /// then centre first (a word is made cells, then the column's rank,
    /// then the column). Starts fetching each child's table entry.
    #[inline]
    fn order_moves<const K: u32>(
        &self,
        node: &Node,
        allowed: u64,
        moves: &mut [u32; MAX_COLUMNS],
    ) -> usize {
        let b = &self.board;
        let mut count = 0;
        for (rank, &c) in b.order.iter().enumerate() {
            let m = allowed & b.columns[c as usize];
            if m != 0 {
                self.table.prefetch(b.child(node, c, m).key());
                let made = b
                    .winning_cells::<K>(node.me | m, node.mask | m)
                    .count_ones();
                let word = made << 16 | (255 - rank as u32) << 8 | c;
                let mut at = count;
                while at > 0 && moves[at - 1] < word {
                    moves[at] = moves[at - 1];
                    at -= 1;
                }
                moves[at] = word;
                count += 1;
            }
        }
        count
    }

    /// Fail-soft negamax on exact scores of `node`, whose player to move
    /// cannot complete a line at once (the parent checked).
    fn negamax<const K: u32>(&self, node: &Node, mut alpha: i8, mut beta: i8) -> i8 {
        let visited = self.nodes.bump();
        if self.stopped.load(Relaxed) {
            return 0;
        }
        if visited.is_multiple_of(4096) {
            self.progress.advance(4096);
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stopped.store(true, Relaxed);
                return 0;
            }
        }
        let b = &self.board;
        let (me, mask) = (node.me, node.mask);
        let n = mask.count_ones() as i8;
        let cells = b.cells as i8;
        if n == cells {
            return 0;
        }
        let possible = b.playable(mask);
        if b.winning_cells::<K>(me, mask) & possible != 0 {
            return cells - n;
        }
        let threats = b.winning_cells::<K>(me ^ mask, mask);
        let forced = possible & threats;
        let lose_next = -(cells - n - 1);
        let candidates = if forced != 0 {
            if forced & (forced - 1) != 0 {
                return lose_next; // two threats: one completes
            }
            forced
        } else {
            possible
        };
        // never play right under a cell where the opponent completes a line
        let safe = candidates & !(threats >> 1);
        if safe == 0 {
            return lose_next;
        }
        // the opponent cannot win at once after a safe move; we cannot win
        // before our next stone
        let mut lower = (n + 3 - cells).min(0);
        let mut upper = (cells - n - 2).max(0);
        let key = node.key();
        if let Some((l, u)) = self.table.get(key) {
            self.hits.bump();
            lower = lower.max(l);
            upper = upper.min(u);
        }
        if lower >= beta || upper <= alpha || lower >= upper {
            return if lower >= beta { lower } else { upper };
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let (alpha0, beta0) = (alpha, beta);
        let mut moves = [0u32; MAX_COLUMNS];
        let count = self.order_moves::<K>(node, safe, &mut moves);
        let mut best = i8::MIN;
        for &word in &moves[..count] {
            let c = word & 0xff;
            let child = b.child(node, c, safe & b.columns[c as usize]);
            let v = -self.negamax::<K>(&child, -beta, -alpha);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        if self.stopped.load(Relaxed) {
            return 0;
        }
        if best <= alpha0 {
            upper = upper.min(best);
        } else if best >= beta0 {
            lower = lower.max(best);
        } else {
            (lower, upper) = (best, best);
        }
        self.table.put(key, lower, upper);
        best
    }
}
