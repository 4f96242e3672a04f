//! A prover of wins on m,n,k boards of up to 40 cells: depth-first
//! proof-number search (df-pn; Nagai, "Df-pn algorithm for searching
//! AND/OR trees and its applications", PhD thesis, Tokyo 2002; after
//! Allis's proof-number search, 1994) over the positions of a
//! [`Bitboard`], for one fixed side, the *attacker*: does it complete a
//! line whatever the other side (the *defender*) plays?
//!
//! The alpha-beta search ([`crate::search::bitboard`]) proves a value
//! by refuting every alternative; here the search grows the part of the
//! tree that is cheapest to settle, measured by proof numbers (positions
//! still to prove to show the attacker wins) and disproof numbers (to show
//! it does not). Forcing play is cheap in those numbers, so the search
//! follows threats first, as a person proving a win does.
//!
//! * **Nodes**: a position (X's stones, the occupied cells) with the side
//!   to move given by the count of stones. OR nodes have the attacker to
//!   move, AND nodes the defender.
//! * **Expansion** (each rule exact, so proof and disproof are those of
//!   the game), for the side to move (the *mover*):
//!   1. with an empty cell that completes its line, it wins there; a full
//!      board is not a win for the attacker;
//!   2. facing two cells where the opponent completes a line, it loses
//!      (it blocks one at most, and has no line of its own to complete
//!      first); facing one, it must take it;
//!   3. only *live* cells are tried: cells on a line still free of one
//!      colour. A stone on a dead cell changes no line, so it is worth a
//!      pass, and a pass is worth no more than a stone on any cell (an
//!      extra stone never hurts its owner in an m,n,k game: the
//!      strategy-stealing argument); with no line left open for the
//!      attacker, it does not win;
//!   4. a move that makes two cells where the mover completes a line (a
//!      *double four*; the opponent having none) wins;
//!   5. each move of the opponent's that would make a double four must be
//!      stopped: the mover takes that cell or, if the move makes exactly
//!      two, one of them — or makes a four of its own (a cell where it
//!      completes a line, which the opponent must block first). Any other
//!      move lets the opponent's double four through: the mover loses;
//!   6. a *victory by continuous fours* (Allis 1994): a run of fours, each
//!      blocked by the opponent's only reply (a block that makes no four
//!      of the opponent's), ending in a double four, wins; searched up to
//!      [`VCF_DEPTH`] fours and [`VCF_BUDGET`] tries;
//!   7. the opponent's run of fours, found as if the mover passed: each
//!      move after which that very run still works (replayed step by step
//!      on the new position) loses and is dropped;
//!   8. an opponent's move onto a line of `k − 3` of its stones (a
//!      *three*) that, were the mover to pass, leaves the mover lost by
//!      rules 1–5: each move after which that threat still leaves it lost
//!      by rules 1–5 loses and is dropped (the first such threat only).
//!
//!   Rules 3, 5, 7 and 8 drop moves only when they lose or are worth no
//!   more than a move kept, so a proof or a disproof here is one of the
//!   game.
//! * **Numbers**: OR: proof = the least of the children's, disproof = their
//!   sum; AND the other way round. A new child starts at (1, its number of
//!   moves) at an OR node and (its number of moves, 1) at an AND node (the
//!   "mobility" start), so a defender left with one forced reply costs one.
//! * **Thresholds**: the child searched gets the parent's threshold, cut to
//!   the second-best child's number times 1 + 1/4 (the "1 + ε" trick of
//!   Pawlewicz & Lew, 2007), so that the search stays longer in one
//!   subtree.
//! * **Table**: numbers by the symmetric key of [`Bitboard::position_key`]
//!   (a position and its images under the board's mirrors and half turn
//!   share an entry). A position the rules settle is stored too: rule 6
//!   tries cells in order within a budget, so it may settle one image and
//!   not another, and a parent that read the other image's open numbers
//!   would search the child for ever. When the table outgrows its budget,
//!   every entry not yet settled is dropped; settled ones stay, since the
//!   strategy is read from them ([`WinProver::winning_move`]).
//!
//! * **Speed** (none of it changes a result: the same positions are
//!   visited and the certificates are byte-identical): the rules' verdicts
//!   are cached by exact position (a direct-mapped cache of up to 2²²
//!   slots; the search asks for a child when its parent starts it and again
//!   when it is searched); the search for continuous fours works out each
//!   position's fours from its parent's (a four and its block change only
//!   the lines through them) instead of scanning every line; rule 8 first
//!   settles most threats without running the rules (a threat that makes
//!   one cell, or leaves the mover a four, or leaves the opponent no
//!   double four the mover cannot stop, does not leave it lost). 9,4,4
//!   went from 290 s to 93 s end to end with these.
//!
//! The positions form a DAG (stones are only added), so there are no
//! cycles to mind; a position reached by several paths is counted in each
//! parent's numbers (over-counting changes the order of work, not the
//! results).
//!
//! A proved win becomes a certificate through
//! [`crate::prove::proof_tree`]: the walk there asks
//! [`WinProver::winning_move`] for the attacker's move, tries every
//! defender reply itself, and an independent checker replays it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::error::{Error, Result};
use crate::position::Family;
use crate::prove::proof_numbers::{capped_sum, Numbers, INFINITE};
use crate::prove::proof_tree::{certificate_from, Claim, Goal, MoveSource, ProofSize};
use crate::search::bitboard::{mover_of, Bitboard, MAX_MNK_CELLS};

/// Bytes a table entry takes (key, two numbers, the hash map's overhead),
/// to size the table from a memory budget.
pub const BYTES_PER_ENTRY: u64 = 32;

/// The most fours a search for continuous fours follows.
pub const VCF_DEPTH: u32 = 12;

/// The most fours one search for continuous fours tries.
pub const VCF_BUDGET: u32 = 64;

/// What the rules say of a position before any search.
#[derive(Clone, Copy)]
enum Expansion {
    Proved,
    Disproved,
    /// The moves worth trying (all the exact rules leave).
    Moves(u64),
}

/// The rules' verdicts on recent positions, by exact position (not the
/// table's symmetric key: rule 6's bounded search may settle one image of a
/// position and not another, and the moves are cells of that image).
///
/// Direct-mapped: a slot per hash, a new position overwriting the old. A
/// position's verdict is a function of the position alone, so the cache
/// changes the time, never a result. The search asks the rules for a child
/// when its parent starts it, and again when it is searched, and df-pn
/// revisits; in 30 s of 9,4,4 the rules were asked 5.5 M times for 2.4 M
/// positions.
struct ExpansionCache {
    /// `(x, occupied, verdict)`: the verdict a move mask, or one of the
    /// codes below (masks never hold those bits: no padding bit is a cell);
    /// `occupied == u64::MAX` marks an empty slot.
    slots: Vec<(u64, u64, u64)>,
}

impl ExpansionCache {
    const PROVED: u64 = u64::MAX;
    const DISPROVED: u64 = u64::MAX - 1;
    const EMPTY: u64 = u64::MAX;

    /// A cache for a search of at most `max_entries` table entries: a power
    /// of two of slots, an eighth of the entries (at most 2²², 96 MiB), so
    /// it takes 3 bytes of each entry's budget at most.
    fn for_table(max_entries: usize) -> Self {
        let slots = 1usize << (max_entries / 8).clamp(1024, 1 << 22).ilog2();
        Self {
            slots: vec![(0, Self::EMPTY, 0); slots],
        }
    }

    fn slot(&self, x: u64, occupied: u64) -> usize {
        let hash =
            (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ occupied).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (hash >> 32) as usize & (self.slots.len() - 1)
    }

    fn get(&self, x: u64, occupied: u64) -> Option<Expansion> {
        let (sx, socc, verdict) = self.slots[self.slot(x, occupied)];
        (sx == x && socc == occupied).then_some(match verdict {
            Self::PROVED => Expansion::Proved,
            Self::DISPROVED => Expansion::Disproved,
            moves => Expansion::Moves(moves),
        })
    }

    fn put(&mut self, x: u64, occupied: u64, expansion: Expansion) {
        let verdict = match expansion {
            Expansion::Proved => Self::PROVED,
            Expansion::Disproved => Self::DISPROVED,
            Expansion::Moves(moves) => moves,
        };
        let slot = self.slot(x, occupied);
        self.slots[slot] = (x, occupied, verdict);
    }
}

/// One side's lines in a position (no line of it complete).
struct Scan {
    /// The empty cells where it completes a line.
    wins: u64,
    /// Its fours: lines of `k − 2` stones and two empty cells.
    fours: Fours,
    /// The empty cells where it makes a line of `k − 2` stones and two
    /// empty cells.
    threes: u64,
    /// The cells of its lines still open (free of the other side's
    /// stones).
    open: u64,
}

/// One side's lines of `k − 2` stones and two empty cells: a move on either
/// cell (a *four*) makes the other a cell where the side completes a line.
#[derive(Clone)]
struct Fours {
    /// The empty cells that make a four.
    cells: u64,
    /// By cell index: the cells a move there would make, for the cells of
    /// `cells` (other entries are stale).
    made: [u64; 64],
}

impl Fours {
    const NONE: Self = Self {
        cells: 0,
        made: [0; 64],
    };

    /// The cells a move on `cell` makes.
    fn made_by(&self, cell: u64) -> u64 {
        self.made[cell.trailing_zeros() as usize]
    }

    /// Adds a line whose two empty cells are `cells`.
    fn add(&mut self, cells: u64) {
        let (a, b) = (lowest(cells), cells & (cells - 1));
        self.made[a.trailing_zeros() as usize] |= b;
        self.made[b.trailing_zeros() as usize] |= a;
        self.cells |= cells;
    }

    /// A move that makes two cells at once (a double four).
    fn double(&self) -> Option<u64> {
        let mut left = self.cells;
        while left != 0 {
            let cell = lowest(left);
            left ^= cell;
            if self.made_by(cell).count_ones() >= 2 {
                return Some(cell);
            }
        }
        None
    }

    /// The cells of `answers` that stop every double four of this side
    /// (rule 5: its cell or, when it makes exactly two, one of them), and
    /// whether there is one.
    fn stopped_by(&self, mut answers: u64) -> (u64, bool) {
        let mut any = false;
        let mut left = self.cells;
        while left != 0 {
            let cell = lowest(left);
            left ^= cell;
            let made = self.made_by(cell);
            if made.count_ones() >= 2 {
                any = true;
                answers &= cell | if made.count_ones() == 2 { made } else { 0 };
            }
        }
        (answers, any)
    }

    /// These fours after the four on `cell` (making one cell, `block`) and
    /// the block: the lines through the block are blocked and those
    /// through `cell` (each pairing it with the block) closed. New fours
    /// through `cell` are the caller's to add.
    fn after_block(&self, cell: u64, block: u64) -> Self {
        let mut next = Self {
            cells: self.cells & !(cell | block),
            made: self.made,
        };
        for (placed, partners) in [(block, self.made_by(block)), (cell, self.made_by(cell))] {
            let mut left = partners;
            while left != 0 {
                let partner = lowest(left);
                left ^= partner;
                let i = partner.trailing_zeros() as usize;
                next.made[i] &= !placed;
                if next.made[i] == 0 {
                    next.cells &= !partner;
                }
            }
        }
        next
    }
}

/// What the rules say from the mover's side.
enum Rules {
    /// The mover wins, starting with this move.
    MoverWins(u64),
    /// The mover loses whatever it plays.
    MoverLoses,
    /// Nobody can complete a line any more (a full board, or every line
    /// blocked for the attacker): not a win for the attacker.
    NoLine,
    /// The moves worth trying.
    Moves(u64),
}

/// The verdict on a position (the df-pn verdict, shared with the threat
/// prover).
pub use crate::prove::proof_numbers::Verdict;

/// Counts of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WinStats {
    /// Positions visited by the search (each visit counted).
    pub visits: u64,
    /// Entries in the table at the end.
    pub entries: usize,
    /// Times the table was cut back to its settled entries.
    pub cuts: u32,
}

/// The prover for one board and one attacker.
pub struct WinProver<'b> {
    board: &'b Bitboard,
    /// Every line of the board (k cells in a row), as cell masks.
    lines: Vec<u64>,
    /// Stones in a row that win.
    k: u32,
    /// By cell index: the lines through the cell.
    lines_through: Vec<Vec<u64>>,
    attacker_is_x: bool,
    table: FxHashMap<u64, Numbers>,
    max_entries: usize,
    /// The rules' verdicts on positions seen lately.
    expansions: ExpansionCache,
    deadline: Option<Instant>,
    /// Set from outside to stop the search (another engine answered).
    cancel: Option<&'b AtomicBool>,
    max_visits: Option<u64>,
    stats: WinStats,
    /// Set when a limit is reached (time, positions, or a table that
    /// cannot be cut below its budget): every search returns at once.
    stopped: bool,
}

impl<'b> WinProver<'b> {
    /// A prover of wins for X (`attacker_is_x`) or O on `board` (an m,n,k
    /// board), keeping at most `max_entries` positions, stopping at
    /// `deadline`.
    pub fn new(
        board: &'b Bitboard,
        attacker_is_x: bool,
        max_entries: usize,
        deadline: Option<Instant>,
    ) -> Result<Self> {
        let (family, _, _, _) = board.dimensions();
        if family != Family::Mnk || board.cells() > MAX_MNK_CELLS {
            return Err(Error::InvalidInput(format!(
                "the win prover takes m,n,k boards of at most {MAX_MNK_CELLS} cells"
            )));
        }
        let lines = lines_of(board);
        Ok(Self {
            board,
            lines_through: (0..64)
                .map(|i| lines.iter().copied().filter(|l| l >> i & 1 == 1).collect())
                .collect(),
            lines,
            k: board.dimensions().3,
            attacker_is_x,
            table: FxHashMap::default(),
            max_entries: max_entries.max(1024),
            expansions: ExpansionCache::for_table(max_entries),
            deadline,
            cancel: None,
            max_visits: None,
            stats: WinStats::default(),
            stopped: false,
        })
    }

    /// Stops after `visits` positions visited (a repeatable limit, unlike
    /// time).
    pub fn limit_visits(&mut self, visits: u64) {
        self.max_visits = Some(visits);
    }

    /// The counts so far.
    pub fn stats(&self) -> WinStats {
        WinStats {
            entries: self.table.len(),
            ..self.stats
        }
    }

    /// Whether the attacker wins from the position of X stones `x` and
    /// occupied cells `occupied` (a position in play: no line, not full).
    pub fn prove(&mut self, x: u64, occupied: u64) -> Verdict {
        self.stopped = false;
        loop {
            let numbers = self.search(x, occupied, INFINITE, INFINITE);
            if numbers.proof == 0 {
                return Verdict::Win;
            }
            if numbers.disproof == 0 {
                return Verdict::NoWin;
            }
            if self.stopped {
                return Verdict::Open;
            }
        }
    }

    /// The attacker's winning move at an OR node `(x, occupied)` (attacker
    /// to move, no line on the board): one whose position is proved, proving
    /// the node again if the table lost it. `None` if the attacker does not
    /// win here or the limits passed first.
    pub fn winning_move(&mut self, x: u64, occupied: u64) -> Option<u64> {
        // the attacker moves here: the rules' win is its move
        let moves = match self.rules(x, occupied) {
            Rules::MoverWins(cell) => return Some(cell),
            Rules::MoverLoses | Rules::NoLine => return None,
            Rules::Moves(moves) => moves,
        };
        for _ in 0..2 {
            let mut left = moves;
            while left != 0 {
                let cell = lowest(left);
                left ^= cell;
                let (cx, cocc) = self.play(x, occupied, cell);
                if self.numbers_of(cx, cocc).proof == 0 {
                    return Some(cell);
                }
            }
            if self.prove(x, occupied) != Verdict::Win {
                return None;
            }
        }
        None
    }

    /// X's stones and the occupied cells after the mover takes `cell`.
    fn play(&self, x: u64, occupied: u64, cell: u64) -> (u64, u64) {
        if occupied.count_ones().is_multiple_of(2) {
            (x | cell, occupied | cell)
        } else {
            (x, occupied | cell)
        }
    }

    fn attacker_to_move(&self, occupied: u64) -> bool {
        occupied.count_ones().is_multiple_of(2) == self.attacker_is_x
    }

    /// The exact rules of the module doc, from the cache when it holds the
    /// position.
    fn expand(&mut self, x: u64, occupied: u64) -> Expansion {
        if let Some(expansion) = self.expansions.get(x, occupied) {
            return expansion;
        }
        let attacker_moves = self.attacker_to_move(occupied);
        let expansion = match self.rules(x, occupied) {
            Rules::MoverWins(_) if attacker_moves => Expansion::Proved,
            Rules::MoverLoses if !attacker_moves => Expansion::Proved,
            Rules::Moves(moves) => Expansion::Moves(moves),
            _ => Expansion::Disproved,
        };
        self.expansions.put(x, occupied, expansion);
        expansion
    }

    /// The rules of the module doc from the mover's side.
    fn rules(&self, x: u64, occupied: u64) -> Rules {
        let me = mover_of(x, occupied);
        let mover_is_attacker = self.attacker_to_move(occupied);
        self.rules_for(me, occupied & !me, occupied, mover_is_attacker, true)
    }

    /// [`Self::rules`] for the mover's stones `me`, the opponent's `them`
    /// (either may have one stone more: a passed move), with rule 8 when
    /// `threes`.
    fn rules_for(
        &self,
        me: u64,
        them: u64,
        occupied: u64,
        mover_is_attacker: bool,
        threes: bool,
    ) -> Rules {
        let empty = self.board.empty_cells(occupied);
        let mine = self.scan(me, them, empty);
        if mine.wins != 0 {
            return Rules::MoverWins(lowest(mine.wins));
        }
        if empty == 0 {
            return Rules::NoLine;
        }
        let theirs = self.scan(them, me, empty);
        match theirs.wins.count_ones() {
            0 => {}
            1 => return Rules::Moves(theirs.wins),
            _ => return Rules::MoverLoses,
        }
        // neither side can complete a line now. A move on a dead cell
        // (every line through it holds both colours) is worth no more than
        // a move on a live one (module doc), and with no live cell nobody
        // completes a line
        let attacker_open = if mover_is_attacker {
            mine.open
        } else {
            theirs.open
        };
        if attacker_open == 0 {
            return Rules::NoLine;
        }
        // look one move further: a move making two cells wins; each move
        // of theirs making two must be stopped (only the move's cell, or
        // one of exactly two cells it would make, stops it) unless we make
        // a four first
        if let Some(cell) = mine.fours.double() {
            return Rules::MoverWins(cell);
        }
        let (answers, _) = theirs.fours.stopped_by(empty & (mine.open | theirs.open));
        let mut moves = answers | mine.fours.cells;
        if moves == 0 {
            return Rules::MoverLoses;
        }
        if !threes {
            // rule 8's inner look: rules 1–5 only
            return Rules::Moves(moves);
        }
        // further still: a run of fours that ends in two cells
        if let Some(line) = self.continuous_fours(me, them, occupied, &mine.fours) {
            return Rules::MoverWins(line[0]);
        }
        if moves.count_ones() > 1 && theirs.fours.cells != 0 {
            // the opponent's run of fours, were we to pass: a move after
            // which it still works, step by step, loses
            if let Some(line) = self.continuous_fours(them, me, occupied, &theirs.fours) {
                let mut left = moves;
                while left != 0 {
                    let cell = lowest(left);
                    left ^= cell;
                    if self.fours_still_win(them, me | cell, occupied | cell, &line) {
                        moves ^= cell;
                    }
                }
                if moves == 0 {
                    return Rules::MoverLoses;
                }
            }
        }
        if moves.count_ones() > 1 {
            // an opponent's move that, were we to pass, leaves us lost by
            // the rules above: each move after which it still does loses
            let mut left = theirs.threes & empty;
            while left != 0 {
                let threat = lowest(left);
                left ^= threat;
                let after = |m: u64| {
                    matches!(
                        self.rules_for(
                            me | m,
                            them | threat,
                            occupied | threat | m,
                            mover_is_attacker,
                            false
                        ),
                        Rules::MoverLoses
                    )
                };
                if !self.threat_may_leave_lost(&mine, &theirs, me, them, empty, threat) || !after(0)
                {
                    continue;
                }
                let mut kept = moves;
                while kept != 0 {
                    let cell = lowest(kept);
                    kept ^= cell;
                    if cell != threat && after(cell) {
                        moves ^= cell;
                    }
                }
                if moves == 0 {
                    return Rules::MoverLoses;
                }
                break;
            }
        }
        Rules::Moves(moves)
    }

    /// Rule 8's filter: `false` when the opponent's `threat` (a cell of
    /// `theirs.threes`), the mover passing, certainly does not leave the
    /// mover lost by rules 1–5; `true` when it may (then the rules are
    /// run). `mine` and `theirs` are the scans of the position before the
    /// threat, in which neither side can complete a line and the rules
    /// reached rule 8. Nine threats in ten are settled here, without the
    /// rules' two scans.
    ///
    /// After the threat, with `made` its cells where the opponent would
    /// then complete a line (`theirs.fours.made_by(threat)`):
    /// * one such cell: the mover must take it, so it is not lost; two or
    ///   more: it is (may be lost);
    /// * none: the mover is lost only when it has no four left (a four
    ///   whose line does not pass through the threat, which is one of
    ///   that line's two empty cells) and the opponent's double-four
    ///   cells leave no answer (rule 5). The opponent's fours after the
    ///   threat are those before (none through the threat, which is not
    ///   a four's cell) and the lines through the threat that held
    ///   `k − 3` of its stones. With no double-four cell, every live
    ///   cell answers; with some, the answers are the cells stopping
    ///   each of them, all on the opponent's open lines.
    fn threat_may_leave_lost(
        &self,
        mine: &Scan,
        theirs: &Scan,
        me: u64,
        them: u64,
        empty: u64,
        threat: u64,
    ) -> bool {
        match theirs.fours.made_by(threat).count_ones() {
            0 => {}
            1 => return false,
            _ => return true,
        }
        let mut fours = mine.fours.cells & !threat;
        while fours != 0 {
            let cell = lowest(fours);
            fours ^= cell;
            if mine.fours.made_by(cell) & !threat != 0 {
                return false;
            }
        }
        // the opponent's fours after the threat: those before, and its
        // lines through the threat that held k − 3 of its stones (and none
        // of the mover's)
        let mut after = theirs.fours.clone();
        for &line in &self.lines_through[threat.trailing_zeros() as usize] {
            if line & me == 0 && (line & them).count_ones() + 3 == self.k {
                after.add(line & empty & !threat);
            }
        }
        let (answers, any_double) = after.stopped_by(empty & !threat);
        any_double && answers == 0
    }

    /// One side's lines in a position: `me`'s stones, `them`'s, the empty
    /// cells.
    fn scan(&self, me: u64, them: u64, empty: u64) -> Scan {
        let mut scan = Scan {
            wins: 0,
            fours: Fours::NONE,
            threes: 0,
            open: 0,
        };
        let k = self.k;
        for &line in &self.lines {
            if line & them != 0 {
                continue;
            }
            scan.open |= line;
            let stones = (line & me).count_ones();
            if stones + 1 == k {
                scan.wins |= line & empty;
            } else if stones + 2 == k {
                scan.fours.add(line & empty);
            } else if stones + 3 == k {
                scan.threes |= line & empty;
            }
        }
        scan
    }

    /// The moves of a victory by continuous fours for `me` (neither side
    /// able to complete a line now; `fours` are `me`'s in the position):
    /// each move makes one cell where `me` completes a line, the opponent
    /// blocks it (its block making no such cell of its own), and the last
    /// move makes two. A search of at most [`VCF_DEPTH`] fours and
    /// [`VCF_BUDGET`] positions, so the same position always gets the same
    /// answer.
    fn continuous_fours(
        &self,
        me: u64,
        them: u64,
        occupied: u64,
        fours: &Fours,
    ) -> Option<Vec<u64>> {
        let mut line = Vec::new();
        let mut budget = VCF_BUDGET;
        self.fours_from(me, them, occupied, fours, VCF_DEPTH, &mut budget, &mut line)
            .then_some(line)
    }

    /// The search of [`Self::continuous_fours`]: pushes the moves of a win
    /// found on `line` (the last one making two cells). A child's `fours`
    /// are worked out from its parent's, since a four and its block change
    /// only the lines through them.
    #[allow(clippy::too_many_arguments)]
    fn fours_from(
        &self,
        me: u64,
        them: u64,
        occupied: u64,
        fours: &Fours,
        depth: u32,
        budget: &mut u32,
        line: &mut Vec<u64>,
    ) -> bool {
        if let Some(cell) = fours.double() {
            line.push(cell);
            return true;
        }
        if depth == 0 {
            return false;
        }
        let mut left = fours.cells;
        while left != 0 {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let cell = lowest(left);
            left ^= cell;
            let block = fours.made_by(cell);
            let (me2, them2, occupied2) = (me | cell, them | block, occupied | cell | block);
            // they had no such cell: a new one lies on a line through the block
            if self.wins_through(them2, me2, block) != 0 {
                continue;
            }
            // lines through the cell that held k − 3 of `me`'s stones
            // become fours
            let mut fours2 = fours.after_block(cell, block);
            let empty2 = self.board.empty_cells(occupied2);
            for &through in &self.lines_through[cell.trailing_zeros() as usize] {
                if through & them2 == 0 && (through & me2).count_ones() + 2 == self.k {
                    fours2.add(through & empty2);
                }
            }
            line.push(cell);
            if self.fours_from(me2, them2, occupied2, &fours2, depth - 1, budget, line) {
                return true;
            }
            line.pop();
        }
        false
    }

    /// The empty cells where `stones` complete a line through `cell` (lines
    /// free of `other`'s stones).
    fn wins_through(&self, stones: u64, other: u64, cell: u64) -> u64 {
        let mut wins = 0u64;
        for &line in &self.lines_through[cell.trailing_zeros() as usize] {
            if line & other == 0 && (line & stones).count_ones() + 1 == self.k {
                wins |= line & !stones;
            }
        }
        wins
    }

    /// Whether the run of fours `line` found by [`Self::fours_from`] still
    /// wins for `me`, to move, in this position: each move on an empty
    /// cell, the opponent never able to complete a line first, each move
    /// but the last making one cell (blocked), the last making two.
    fn fours_still_win(&self, mut me: u64, mut them: u64, mut occupied: u64, line: &[u64]) -> bool {
        // the opponent's cells where it completes a line: after the start,
        // a new one lies on a line through its latest block
        let mut their_wins = self.board.winning_cells_of(them, occupied);
        for (i, &cell) in line.iter().enumerate() {
            if cell & occupied != 0 || their_wins != 0 {
                return false;
            }
            // `me` has no such cell before its move (none at the start, and
            // each four's cell is blocked), so a new one lies on a line
            // through the move
            let made = self.wins_through(me | cell, them, cell);
            match made.count_ones() {
                0 => return false,
                1 if i + 1 < line.len() => {
                    (me, them, occupied) = (me | cell, them | made, occupied | cell | made);
                    their_wins = self.wins_through(them, me, made);
                }
                1 => return false,
                _ => return true,
            }
        }
        false
    }

    /// A position's numbers: from the table, else its starting numbers.
    fn numbers_of(&mut self, x: u64, occupied: u64) -> Numbers {
        match self.table.get(&self.board.position_key(x, occupied)) {
            Some(&n) => n,
            None => self.starting_numbers(x, occupied),
        }
    }

    /// A position's numbers before any search: settled by the rules, else
    /// the mobility start of the module doc.
    fn starting_numbers(&mut self, x: u64, occupied: u64) -> Numbers {
        match self.expand(x, occupied) {
            Expansion::Proved => Numbers::PROVED,
            Expansion::Disproved => Numbers::DISPROVED,
            Expansion::Moves(moves) => {
                Numbers::mobility(self.attacker_to_move(occupied), moves.count_ones())
            }
        }
    }

    fn store(&mut self, x: u64, occupied: u64, numbers: Numbers) {
        if self.table.len() >= self.max_entries {
            self.stats.cuts += 1;
            self.table.retain(|_, n| n.settled());
            if self.table.len() >= self.max_entries / 2 {
                self.stopped = true;
            }
        }
        self.table
            .insert(self.board.position_key(x, occupied), numbers);
    }

    fn over_limits(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.max_visits.is_some_and(|m| self.stats.visits >= m)
            || (self.stats.visits.is_multiple_of(4096)
                && (self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Searches `(x, occupied)` until its proof number reaches
    /// `proof_limit` or its disproof number `disproof_limit` (or it is
    /// settled, or a limit passes), and returns its numbers.
    fn search(&mut self, x: u64, occupied: u64, proof_limit: u32, disproof_limit: u32) -> Numbers {
        self.stats.visits += 1;
        // a position settled by the rules is stored too: its symmetric
        // image shares the entry, and the bounded search for fours, which
        // tries cells in order, may settle one image and not the other
        let moves = match self.expand(x, occupied) {
            Expansion::Proved => {
                self.store(x, occupied, Numbers::PROVED);
                return Numbers::PROVED;
            }
            Expansion::Disproved => {
                self.store(x, occupied, Numbers::DISPROVED);
                return Numbers::DISPROVED;
            }
            Expansion::Moves(moves) => moves,
        };
        let or_node = self.attacker_to_move(occupied);
        // each child's position, table key and starting numbers (worked
        // out once, when first needed: the rules cost more than a probe)
        let mut children = Vec::with_capacity(moves.count_ones() as usize);
        let mut left = moves;
        while left != 0 {
            let cell = lowest(left);
            left ^= cell;
            let (cx, cocc) = self.play(x, occupied, cell);
            children.push((cx, cocc, self.board.position_key(cx, cocc), None));
        }
        loop {
            // the best child (least number minimised here; a node has at
            // least one), the runner-up's number, the other numbers' sum
            let (mut best, mut best_n, mut second) = (0usize, INFINITE + 1, INFINITE);
            let mut sum = 0u32;
            let mut best_numbers = Numbers::PROVED;
            for (i, child) in children.iter_mut().enumerate() {
                let (cx, cocc, key, _) = *child;
                let n = match self.table.get(&key) {
                    Some(&n) => n,
                    None => *child
                        .3
                        .get_or_insert_with(|| self.starting_numbers(cx, cocc)),
                };
                // at an OR node the child's proof number is minimised, its
                // disproof numbers summed; at an AND node the other way
                let (mine, other) = if or_node {
                    (n.proof, n.disproof)
                } else {
                    (n.disproof, n.proof)
                };
                sum = sum.saturating_add(other).min(INFINITE);
                if mine < best_n {
                    second = best_n.min(INFINITE);
                    (best, best_n, best_numbers) = (i, mine, n);
                } else if mine < second {
                    second = mine;
                }
            }
            let sum = capped_sum(sum, best_n);
            let numbers = if or_node {
                Numbers {
                    proof: best_n,
                    disproof: sum,
                }
            } else {
                Numbers {
                    proof: sum,
                    disproof: best_n,
                }
            };
            if numbers.proof >= proof_limit
                || numbers.disproof >= disproof_limit
                || numbers.settled()
                || self.over_limits()
            {
                self.store(x, occupied, numbers);
                return numbers;
            }
            let widened = second
                .saturating_add(second / 4)
                .max(second.saturating_add(1));
            let (cx, cocc, _, _) = children[best];
            if or_node {
                let child_proof = proof_limit.min(widened);
                let child_disproof = disproof_limit - numbers.disproof + best_numbers.disproof;
                self.search(cx, cocc, child_proof, child_disproof);
            } else {
                let child_disproof = disproof_limit.min(widened);
                let child_proof = proof_limit - numbers.proof + best_numbers.proof;
                self.search(cx, cocc, child_proof, child_disproof);
            }
        }
    }
}

/// A prover as the source of the attacker's moves in a proof tree
/// ([`crate::prove::proof_tree`]), which asks for one move at a time.
pub struct WinMoves<'b>(pub std::cell::RefCell<WinProver<'b>>);

impl MoveSource for WinMoves<'_> {
    fn prover_move(&self, x: u64, occupied: u64, claim: Claim) -> Result<Option<u64>> {
        let mut prover = self.0.borrow_mut();
        if claim.goal != Goal::Win || claim.prover_is_x != prover.attacker_is_x {
            return Err(Error::InvalidInput(format!(
                "the win prover does not show \"{}\"",
                claim.line()
            )));
        }
        Ok(prover.winning_move(x, occupied))
    }
}

/// The most positions [`win_certificate`] may keep within `bytes` of
/// memory: the prover's table and the proof tree's each hold at most this
/// many, sized by the dearer entry of the two.
pub fn certificate_entries(bytes: u64) -> usize {
    (bytes / BYTES_PER_ENTRY.max(crate::prove::proof_tree::BYTES_PER_ENTRY)).min(1 << 32) as usize
}

/// The attacker's win from the empty board of `board`, proved and written
/// as a proof-tree certificate (at most `max_entries` positions listed,
/// the search stopping at `deadline`, after `max_visits` positions or once
/// `cancel` is set); `Ok(None)` with the verdict when it is not a proved
/// win.
pub fn win_certificate(
    board: &Bitboard,
    attacker_is_x: bool,
    max_entries: usize,
    deadline: Option<Instant>,
    max_visits: Option<u64>,
    cancel: Option<&AtomicBool>,
) -> Result<std::result::Result<(String, ProofSize, WinStats), Verdict>> {
    let mut prover = WinProver::new(board, attacker_is_x, max_entries, deadline)?;
    if let Some(visits) = max_visits {
        prover.limit_visits(visits);
    }
    prover.cancel = cancel;
    let verdict = prover.prove(0, 0);
    if verdict != Verdict::Win {
        return Ok(Err(verdict));
    }
    let moves = WinMoves(std::cell::RefCell::new(prover));
    let claim = Claim {
        prover_is_x: attacker_is_x,
        goal: Goal::Win,
    };
    let (text, sizes) = certificate_from(board, &moves, &[claim], max_entries)?;
    let stats = moves.0.borrow().stats();
    Ok(Ok((text, sizes[0], stats)))
}

/// Every line of `board` ([`crate::position::winning_lines`]) as a mask of
/// its bitboard cells.
fn lines_of(board: &Bitboard) -> Vec<u64> {
    let (_, cols, rows, k) = board.dimensions();
    crate::position::winning_lines(cols, rows, k)
        .iter()
        .map(|line| {
            line.iter()
                .fold(0u64, |mask, &i| mask | board.cell(i % cols, i / cols))
        })
        .collect()
}

/// The lowest set bit of `bits` (0 for none).
fn lowest(bits: u64) -> u64 {
    bits & bits.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    /// The `n`th set bit of `bits`.
    fn nth_bit(mut bits: u64, n: u32) -> u64 {
        for _ in 0..n {
            bits &= bits - 1;
        }
        lowest(bits)
    }

    /// Rule 8's filter never dismisses a threat after which the rules find
    /// the mover lost, on random positions where neither side can complete
    /// a line; and it does dismiss some, and keeps some that lose.
    #[test]
    fn the_threat_filter_keeps_every_threat_that_leaves_the_mover_lost() {
        let mut seed = 0x5eed_u64;
        let mut random = move |below: u32| {
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) % below as u64) as u32
        };
        for (cols, rows, k) in [(4, 4, 3), (5, 4, 4), (6, 5, 4), (9, 4, 4), (5, 5, 4)] {
            let board = Bitboard::new(Family::Mnk, BoardSize { cols, rows, k }).unwrap();
            let prover = WinProver::new(&board, true, 1024, None).unwrap();
            let (mut dismissed, mut lost_kept) = (0, 0);
            for _ in 0..3000 {
                let (mut me, mut them, mut occupied) = (0u64, 0u64, 0u64);
                for _ in 0..random(board.cells() - 2) {
                    let empty = board.empty_cells(occupied);
                    let cell = nth_bit(empty, random(empty.count_ones()));
                    if board.has_line(me | cell) {
                        break;
                    }
                    (me, them, occupied) = (them, me | cell, occupied | cell);
                }
                let empty = board.empty_cells(occupied);
                let (mine, theirs) = (prover.scan(me, them, empty), prover.scan(them, me, empty));
                if mine.wins != 0 || theirs.wins != 0 {
                    continue;
                }
                let mut threats = theirs.threes & empty;
                while threats != 0 {
                    let threat = lowest(threats);
                    threats ^= threat;
                    let attacker = random(2) == 0;
                    let lost = matches!(
                        prover.rules_for(me, them | threat, occupied | threat, attacker, false),
                        Rules::MoverLoses
                    );
                    if !prover.threat_may_leave_lost(&mine, &theirs, me, them, empty, threat) {
                        assert!(
                            !lost,
                            "{cols},{rows},{k}: me {me:#x} them {them:#x} threat {threat:#x}"
                        );
                        dismissed += 1;
                    } else if lost {
                        lost_kept += 1;
                    }
                }
            }
            assert!(
                dismissed > 0 && lost_kept > 0,
                "{cols},{rows},{k}: {dismissed} {lost_kept}"
            );
        }
    }
}
