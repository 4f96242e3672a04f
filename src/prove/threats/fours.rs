//! Runs of fours: their exact replay, the search for one that wins (a
//! *victory by continuous fours*, VCF; Allis 1994), and the defender moves
//! a run found after a pass does not answer.
//!
//! A *completion cell* of a colour is the empty cell of a window holding
//! `k − 1` of its stones and none of the other colour's: playing there
//! completes a line. A *run* is a list of attacker moves. Its **replay** in
//! a position with the attacker to move, move by move (`aᵢ`):
//!
//! 1. the attacker has a completion cell: **wins** (it completes next);
//! 2. the defender has two completion cells: **fails**; one, `c`, and
//!    `aᵢ ≠ c`: **fails** (the defender would complete first);
//! 3. `aᵢ` is occupied: **fails**; else the attacker plays it;
//! 4. the attacker now has no completion cell: **fails**; two or more:
//!    **wins** (the defender, who has none, blocks one at most);
//! 5. one: the defender's reply is forced there (anything else lets the
//!    attacker complete), and the replay goes on.
//!
//! The run running out **fails**. A replay that wins *is* a winning
//! strategy from that position: every defender reply it assumes is forced
//! and every win it declares is a line completed on the attacker's next
//! move. Nothing about the rest of the board is assumed, so a defender
//! counter-four, or a forced block that makes one, is met where it
//! arises: in step 2.
//!
//! **Dependent fours** (the search for a run, not its replay). After the
//! run's first move, an attacker four must share a window with the
//! attacker's move just before it (or block a defender four): Allis's
//! *dependency* of a threat on the one before (Allis 1994, ch. 5:
//! threats that do not depend on each other can be played in any order,
//! so the search needs only one order, the one where each builds on the
//! last). Runs that combine two independent chains of fours are not
//! found; no run found only means the prover searches the position
//! itself, and every run found still wins by its replay, so only the
//! speed changes. Measured (one thread, positions searched, certificates
//! listed, user seconds beside two other runs; all fours → dependent
//! fours): 1.h8 a1 i9 a2 163,058 / 9,564 / 5.7 s → 104,792 / 8,738 /
//! 2.9 s; 1.h8 m12 i9 l11 281,144 / 18,595 / 11.1 s → 273,802 / 17,655 /
//! 7.2 s; 1.h8 a1 i9 a4 o15 a3 2,031,625 / 72,699 / 55.2 s → 1,751,949 /
//! 71,490 / 36.3 s. (Fewer positions too: a search within its
//! [`VcfLimits::tries`] reaches runs it runs out of tries for with every
//! four.)
//!
//! **Covers.** With the defender to move, a run found as if the defender
//! passed (the *null move*) *covers* each defender move `x` after which
//! its replay still wins: `x` loses at once and needs no search. The
//! moves it does not cover — its own cells, defender fours, blocks that
//! build defender threats — are the defender's only candidates. This is
//! Allis's threat-space defence made exact: instead of assuming which
//! replies matter, each reply is replayed.

use rustc_hash::FxHashSet;

use crate::board::cells::Cells;
use crate::prove::threats::board::Board;

/// Limits of one search for a winning run of fours.
#[derive(Clone, Copy, Debug)]
pub struct VcfLimits {
    /// The most fours in a run.
    pub depth: u32,
    /// The most fours tried in one search.
    pub tries: u32,
}

impl Default for VcfLimits {
    fn default() -> Self {
        Self {
            depth: 24,
            tries: 1000,
        }
    }
}

/// Whether `run` wins when replayed in `board` with `attacker` to move
/// (module docs); `board` is left as it was.
pub fn replay(board: &mut Board, attacker: usize, run: &[u16]) -> bool {
    let before = board.stones;
    let wins = replay_on(board, attacker, run, |_| {});
    take_back_since(board, before);
    wins
}

/// The replay of `run`, leaving its stones on the board; `after_move`
/// sees the board after each attacker move.
fn replay_on(
    board: &mut Board,
    attacker: usize,
    run: &[u16],
    mut after_move: impl FnMut(&Board),
) -> bool {
    let defender = 1 - attacker;
    for &m in run {
        let m = u32::from(m);
        if !board.completions(attacker).is_empty() {
            return true;
        }
        let theirs = board.completions(defender);
        if theirs.len() >= 2 || (theirs.len() == 1 && !theirs.has(m)) || !board.is_empty(m) {
            return false;
        }
        board.play_in_run(m, attacker);
        after_move(board);
        let mine = board.completions(attacker);
        match mine.len() {
            0 => return false,
            1 => {
                let block = mine.first().expect("one cell");
                board.play_in_run(block, defender);
            }
            _ => return true,
        }
    }
    false
}

/// Takes back every stone played in a replay since the board held the
/// stones `before` (a list of the moves would cost an allocation a replay,
/// and the board ends the same in any order of taking back).
fn take_back_since(board: &mut Board, before: [Cells; 2]) {
    for (colour, before) in before.into_iter().enumerate() {
        for cell in board.stones[colour].minus(before).iter() {
            board.undo_in_run(cell, colour);
        }
    }
}

/// A winning run of fours for `attacker`, as if it were to move in
/// `board`, whose first move is not in `excluded`; `None` when none is
/// found within `limits` (which says nothing: a longer run may exist).
/// The run found replays to a win (`replay`).
pub fn find_vcf(
    board: &mut Board,
    attacker: usize,
    limits: VcfLimits,
    excluded: Cells,
) -> Option<Vec<u16>> {
    if !board.completions(attacker).is_empty() {
        return Some(Vec::new());
    }
    SCRATCH.with_borrow_mut(|scratch| {
        scratch.failed.clear();
        let mut search = VcfSearch {
            attacker,
            limits,
            tries: 0,
            scratch,
            run: Vec::new(),
        };
        search
            .search(board, 0, excluded, None)
            .then_some(search.run)
    })
}

/// What a search for a run keeps between its steps, kept between searches
/// too so that they are not allocated again at every search once they
/// have grown (a search runs at every expansion: their allocations were a
/// tenth of the prover's time; the run found is still a list of its own).
#[derive(Default)]
struct Scratch {
    /// Positions (exact keys) from which no run was found, in this search.
    failed: FxHashSet<u128>,
    /// The candidate moves at each depth, in order.
    orders: Vec<Vec<u32>>,
}

thread_local! {
    /// The [`Scratch`] of this thread's searches ([`find_vcf`] does not
    /// call itself, so one is enough).
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

struct VcfSearch<'s> {
    attacker: usize,
    limits: VcfLimits,
    tries: u32,
    scratch: &'s mut Scratch,
    run: Vec<u16>,
}

impl VcfSearch<'_> {
    /// Whether a run wins from `board` (attacker to move, no completion
    /// cell of its own); on success `self.run` ends with it. `last` is the
    /// run's last attacker move (`None` at the first): a four not forced
    /// by a defender four must share a window with it (module docs,
    /// "Dependent fours").
    fn search(
        &mut self,
        board: &mut Board,
        depth: u32,
        excluded: Cells,
        last: Option<u32>,
    ) -> bool {
        let (a, d) = (self.attacker, 1 - self.attacker);
        if self.scratch.failed.contains(&board.exact_key()) {
            return false;
        }
        let theirs = board.completions(d);
        let candidates = match theirs.len() {
            0 => match last {
                // (module docs, "Dependent fours")
                Some(m) => four_cells(board, a) & board.geometry.cells_near(m),
                None => four_cells(board, a),
            },
            1 => theirs,
            _ => return false,
        }
        .minus(excluded);
        let level = depth as usize;
        if self.scratch.orders.len() <= level {
            self.scratch.orders.resize_with(level + 1, Vec::new);
        }
        let mut order = std::mem::take(&mut self.scratch.orders[level]);
        ordered_by_fours(board, a, candidates, &mut order);
        let mut wins = false;
        for &m in &order {
            self.tries += 1;
            if self.tries > self.limits.tries {
                break;
            }
            board.play_in_run(m, a);
            let mine = board.completions(a);
            wins = mine.len() >= 2;
            if mine.len() == 1 && depth + 1 < self.limits.depth {
                let block = mine.first().expect("one cell");
                board.play_in_run(block, d);
                self.run.push(m as u16);
                wins = self.search(board, depth + 1, Cells::default(), Some(m));
                if !wins {
                    self.run.pop();
                }
                board.undo_in_run(block, d);
            } else if wins {
                self.run.push(m as u16);
            }
            board.undo_in_run(m, a);
            if wins {
                break;
            }
        }
        self.scratch.orders[level] = order;
        if !wins && self.tries <= self.limits.tries {
            self.scratch.failed.insert(board.exact_key());
        }
        wins
    }
}

/// The empty cells where `colour` makes a four (a completion cell).
pub fn four_cells(board: &Board, colour: usize) -> Cells {
    board.empty_cells_of(board.threes(colour))
}

/// `cells` ordered by the fours a stone of `colour` makes there (most
/// first; a double four first of all), then by cell, into `order`.
fn ordered_by_fours(board: &Board, colour: usize, cells: Cells, order: &mut Vec<u32>) {
    let threes = board.threes(colour);
    // the fours made, reversed, above the cell: the order of the pairs
    order.clear();
    order.extend(cells.iter().map(|c| {
        let made = board.geometry.windows_at[c as usize]
            .iter()
            .filter(|&&w| threes[w as usize / 64] >> (w % 64) & 1 == 1)
            .count() as u32;
        (u32::from(u16::MAX) - made) << 16 | c
    }));
    order.sort_unstable();
    for entry in order.iter_mut() {
        *entry &= 0xffff;
    }
}

/// The defender's candidate moves at its turn (`board`, the defender
/// `1 − attacker` to move, neither side with a completion cell): the runs
/// found after a null move (`covers`, at most `max_covers`, each starting
/// with a different move) and the empty cells none of them covers, in
/// increasing order. `None` when no run is found: every move is a
/// candidate.
pub fn defence(
    board: &mut Board,
    attacker: usize,
    limits: VcfLimits,
    max_covers: usize,
) -> Option<(Vec<Vec<u16>>, Vec<u32>)> {
    let defender = 1 - attacker;
    let mut open = board.empties();
    let mut covers: Vec<Vec<u16>> = Vec::new();
    let mut used = Cells::default();
    // further covers are a saving, not a need: a smaller search each
    let further = VcfLimits {
        tries: limits.tries / 8,
        ..limits
    };
    while covers.len() < max_covers && !open.is_empty() {
        let limits = if covers.is_empty() { limits } else { further };
        let Some(run) = find_vcf(board, attacker, limits, used) else {
            break;
        };
        used = used.with(u32::from(run[0]));
        let before = open.len();
        let touched = touched_by(board, attacker, &run, 1);
        // a move outside `touched` is covered without a replay (lemma)
        let replayed = open & touched;
        open = replayed;
        for x in replayed.iter() {
            if covered(board, attacker, defender, x, &run) {
                open = open.minus(Cells::one(x));
            }
        }
        // the first run is kept whatever it covers: it makes a cover
        if covers.is_empty() || open.len() < before {
            covers.push(run);
        }
    }
    (!covers.is_empty()).then_some((covers, open.iter().collect()))
}

/// Whether the defender's move `x` is answered by `run`, a run that wins
/// after a pass: its replay with `x` on the board still wins.
fn covered(board: &mut Board, attacker: usize, defender: usize, x: u32, run: &[u16]) -> bool {
    board.play_in_run(x, defender);
    let wins = replay(board, attacker, run);
    board.undo_in_run(x, defender);
    wins
}

/// The cells where defender stones may change the replay of `run`, a run
/// that wins in `board` (the attacker to move) — with `extras` of them
/// added anywhere else the replay stays as it is: the cells of every window
/// that is an attacker four at some step, and of every window free of
/// attacker stones in which the defender's stones and its forced blocks
/// make `k − 1 − extras` or more (the empty ones; the cells of
/// [`crate::prove::threats::relevance`] are built from these).
///
/// *Lemma*: defender stones `e₁ … eₘ` on empty cells with each `eᵢ`
/// outside `touched_by(…, i)` (so for `m = 1`, one stone outside
/// `touched_by(…, 1)`) leave the replay as it was, so it still wins. A
/// window free of attacker stones holds `eᵢ` only if its defender stones
/// and blocks `s` satisfy `s + i < k − 1`; the `eᵢ` in it have distinct
/// indices, so there are at most `k − 2 − s` of them and the window never
/// reaches `k − 1`: no defender completion cell appears that was not there
/// before. The attacker's fours with the extra stones are those without
/// them not through one (a defender stone only kills windows), and no
/// `eᵢ` is on a window that is an attacker four at any step. So step by
/// step both replays see the same completion cells; every `aᵢ` and every
/// block is on an attacker four, so no `eᵢ` is one of them. ∎
pub fn touched_by(board: &mut Board, attacker: usize, run: &[u16], extras: u32) -> Cells {
    let defender = 1 - attacker;
    let geometry = board.geometry;
    let k = geometry.k as usize;
    let mut fours = Cells::default();
    let before = board.stones;
    replay_on(board, attacker, run, |b| {
        fours = fours | b.cells_of(b.fours(attacker));
    });
    let block_set = board.stones[defender].minus(before[defender]);
    take_back_since(board, before);
    let reach = (k - 1).saturating_sub(extras as usize);
    let mut near = board.open_window_cells(defender, reach as u32);
    for b in block_set.iter() {
        for &w in &geometry.windows_at[b as usize] {
            let [x, o] = board.count(w as usize);
            let (mine, theirs) = if attacker == 0 { (x, o) } else { (o, x) };
            let window = geometry.windows[w as usize];
            let with_blocks = theirs as usize + (window & block_set).len() as usize;
            if mine == 0 && with_blocks >= reach {
                near = near | window;
            }
        }
    }
    (fours | near) & board.empties()
}

/// Rule 3's cells for the covers of an AND node `board` whose moves left
/// are `open` (the relevance module's docs, `super::relevance`): `touched_by(run, extras + 1)` of each run,
/// and for each defender move the covers answer only by replay,
/// `touched_by(run, extras)` of a run that answers it, on the board
/// after the move.
pub(super) fn covers_zone(
    board: &mut Board,
    attacker: usize,
    covers: &[Vec<u16>],
    open: &[u32],
    extras: u32,
) -> Cells {
    if covers.is_empty() {
        return Cells::default();
    }
    let defender = 1 - attacker;
    let mut zone = Cells::default();
    let mut touched = Vec::with_capacity(covers.len());
    for run in covers {
        zone = zone | touched_by(board, attacker, run, extras + 1);
        touched.push(touched_by(board, attacker, run, 1));
    }
    let open = open.iter().fold(Cells::default(), |s, &c| s.with(c));
    for x in board.empties().minus(open).iter() {
        if touched.iter().any(|t| !t.has(x)) {
            continue;
        }
        board.play(x, defender);
        for run in covers {
            if replay(board, attacker, run) {
                zone = zone | touched_by(board, attacker, run, extras);
                break;
            }
        }
        board.undo(x, defender);
    }
    zone
}
