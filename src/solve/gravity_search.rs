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
//! * **A fixed-size lock-free transposition table**: two words an entry,
//!   the key XOR-ed with the data and the data, so a torn write between
//!   threads fails the one 64-bit key check instead of giving a wrong
//!   bound. Entries hold proven lower and upper bounds of the exact score,
//!   keyed by the position or its mirror image, whichever is smaller; a
//!   lost or overwritten entry costs time, never correctness.
//!
//! Scores are those of [`crate::solve::search::Precision::Exact`]: a win
//! completed by the stone placed on `m` stones scores `cells − m`, a loss
//! the negation, a draw 0.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::games::gravity::Gravity;
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
}

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
        }
    }

    /// The empty cells where `me` would complete `k` in a row: for each
    /// direction, a cell wins when `j` of my stones run from it one way and
    /// `k − 1 − j` the other way, for some `j`. Runs are built one step at a
    /// time (`ahead[t]`: the next `t` cells ahead are mine).
    #[inline]
    fn winning_cells(&self, me: u64, mask: u64) -> u64 {
        let h = self.rows + 1;
        let k = self.k as usize;
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

    /// The position's key (unique: each column's stones plus its height
    /// marker) and its mirror's; the smaller is stored.
    fn key(&self, me: u64, mask: u64) -> u64 {
        let key = me + mask;
        let h = self.rows + 1;
        let column = (1u64 << h) - 1;
        let mirror = (0..self.cols).fold(0u64, |m, c| {
            m | ((key >> (c * h)) & column) << ((self.cols - 1 - c) * h)
        });
        key.min(mirror)
    }
}

/// One table entry: the key XOR the data, and the data (lower and upper
/// bound, a byte each, and a byte of 1 to tell a used entry).
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// The fixed-size lock-free table (module docs).
struct Table {
    entries: Vec<Entry>,
}

impl Table {
    /// A table of the largest power of two of entries within `entries`.
    fn new(entries: usize) -> Self {
        let entries = if entries <= 1 {
            1
        } else {
            1usize << (usize::BITS - 1 - entries.leading_zeros())
        };
        Self {
            entries: (0..entries)
                .map(|_| Entry {
                    check: AtomicU64::new(0),
                    data: AtomicU64::new(0),
                })
                .collect(),
        }
    }

    fn slot(&self, key: u64) -> &Entry {
        let hash = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // the length is a power of two: the high bits of the hash pick
        let bits = self.entries.len().trailing_zeros();
        &self.entries[if bits == 0 {
            0
        } else {
            (hash >> (64 - bits)) as usize
        }]
    }

    fn get(&self, key: u64) -> Option<(i8, i8)> {
        let e = self.slot(key);
        let data = e.data.load(Relaxed);
        if data == 0 || e.check.load(Relaxed) ^ data != key {
            return None;
        }
        Some((data as u8 as i8, (data >> 8) as u8 as i8))
    }

    fn put(&self, key: u64, lower: i8, upper: i8) {
        let data = u64::from(lower as u8) | u64::from(upper as u8) << 8 | 1 << 16;
        let e = self.slot(key);
        e.check.store(key ^ data, Relaxed);
        e.data.store(data, Relaxed);
    }
}

/// Bytes one table entry takes: the table's size is the budget over this.
pub const BYTES_PER_ENTRY: u64 = 16;

/// A search over one gravity board, with its table.
pub struct GravitySearcher<'a> {
    game: Gravity,
    board: GravityBoard,
    table: Table,
    nodes: AtomicU64,
    hits: AtomicU64,
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
            table: Table::new(entries),
            nodes: AtomicU64::new(0),
            hits: AtomicU64::new(0),
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
        self.nodes.load(Relaxed)
    }

    /// Table hits so far.
    pub fn hits(&self) -> u64 {
        self.hits.load(Relaxed)
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
        let me = if stones.is_multiple_of(2) { x } else { o };
        let (cells, n) = (b.cells as i8, stones as i8);
        let bounds = ((n + 1 - cells).min(0), (cells - n).max(0));
        let score = score_by_probes(precision, bounds, &self.stopped, |alpha, beta| {
            self.root(me, occupied, alpha, beta)
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

    /// The root, its children split across the workers, each searched
    /// with the root's window: fail-soft within it.
    fn root(&self, me: u64, mask: u64, alpha: i8, beta: i8) -> i8 {
        let b = &self.board;
        let n = mask.count_ones() as i8;
        let cells = b.cells as i8;
        let possible = b.playable(mask);
        if b.winning_cells(me, mask) & possible != 0 {
            return cells - n;
        }
        // ordered as inside the tree; the first move is searched alone
        // (a null window often fails high on it), the rest in parallel
        let mut moves: Vec<(u32, u64)> = b
            .order
            .iter()
            .enumerate()
            .map(|(rank, &c)| {
                (
                    rank,
                    possible & (((1u64 << b.rows) - 1) << (c * (b.rows + 1))),
                )
            })
            .filter(|&(_, m)| m != 0)
            .map(|(rank, m)| {
                let made = b.winning_cells(me | m, mask | m).count_ones();
                ((made << 8) | (255 - rank as u32), m)
            })
            .collect();
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        let first = -self.negamax(me ^ mask, mask | moves[0].1, -beta, -alpha);
        if first >= beta || moves.len() == 1 {
            return first;
        }
        let alpha = alpha.max(first);
        let rest = moves[1..]
            .par_iter()
            .map(|&(_, m)| -self.negamax(me ^ mask, mask | m, -beta, -alpha))
            .max()
            .expect("more than one move");
        first.max(rest)
    }

    /// Fail-soft negamax on exact scores; `me` are the stones of the
    /// player to move, who cannot complete a line at once (the parent
    /// checked), and `mask` the occupied cells.
    fn negamax(&self, me: u64, mask: u64, mut alpha: i8, mut beta: i8) -> i8 {
        let visited = self.nodes.fetch_add(1, Relaxed);
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
        let n = mask.count_ones() as i8;
        let cells = b.cells as i8;
        if n == cells {
            return 0;
        }
        let possible = b.playable(mask);
        if b.winning_cells(me, mask) & possible != 0 {
            return cells - n;
        }
        let opp = me ^ mask;
        let threats = b.winning_cells(opp, mask);
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
        let key = b.key(me, mask);
        if let Some((l, u)) = self.table.get(key) {
            self.hits.fetch_add(1, Relaxed);
            lower = lower.max(l);
            upper = upper.min(u);
        }
        if lower >= beta || upper <= alpha || lower >= upper {
            return if lower >= beta { lower } else { upper };
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let (alpha0, beta0) = (alpha, beta);
        // order: most winning cells created first, centre first on ties
        let mut moves: [(u32, u64); 64] = [(0, 0); 64];
        let mut count = 0;
        for (rank, &c) in b.order.iter().enumerate() {
            let m = safe & (((1u64 << b.rows) - 1) << (c * (b.rows + 1)));
            if m != 0 {
                let made = b.winning_cells(me | m, mask | m).count_ones();
                moves[count] = ((made << 8) | (255 - rank as u32), m);
                count += 1;
            }
        }
        let moves = &mut moves[..count];
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        let mut best = i8::MIN;
        for &(_, m) in moves.iter() {
            let v = -self.negamax(opp, mask | m, -beta, -alpha);
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
