//! A prover of wins on m,n,k boards of up to 40 cells: depth-first
//! proof-number search (df-pn; Nagai, "Df-pn algorithm for searching
//! AND/OR trees and its applications", PhD thesis, Tokyo 2002; after
//! Allis's proof-number search, 1994) over the positions of a
//! [`Bitboard`], for one fixed side, the *attacker*: does it complete a
//! line whatever the other side (the *defender*) plays?
//!
//! The alpha-beta search ([`crate::solve::board_search`]) proves a value
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
//!   the game): a mover with an empty cell that completes its line wins
//!   there; a full board is not a win for the attacker; a mover facing two
//!   cells where the opponent completes a line loses (it blocks one at
//!   most, and has no line of its own to complete first); facing one, it
//!   must take it; else every empty cell is a move.
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
//!   share an entry). When it outgrows its budget, every entry not yet
//!   settled is dropped; settled ones stay, since the strategy is read from
//!   them ([`WinProver::winning_move`]).
//!
//! The positions form a DAG (stones are only added), so there are no
//! cycles to mind; a position reached by several paths is counted in each
//! parent's numbers (over-counting changes the order of work, not the
//! results).
//!
//! A proved win becomes a certificate through
//! [`crate::solve::proof_tree`]: the walk there asks
//! [`WinProver::winning_move`] for the attacker's move, tries every
//! defender reply itself, and an independent checker replays it.

use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::error::{Error, Result};
use crate::position::Family;
use crate::solve::board_search::{mover_of, Bitboard, MAX_MNK_CELLS};
use crate::solve::proof_tree::{certificate_from, Claim, Goal, MoveSource, ProofSize};

/// A number too large to count: proved or disproved.
const INFINITE: u32 = u32::MAX / 2;

/// Bytes a table entry takes (key, two numbers, the hash map's overhead),
/// to size the table from a memory budget.
pub const BYTES_PER_ENTRY: u64 = 32;

/// The proof and disproof numbers of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    proof: u32,
    disproof: u32,
}

impl Numbers {
    const PROVED: Self = Self {
        proof: 0,
        disproof: INFINITE,
    };
    const DISPROVED: Self = Self {
        proof: INFINITE,
        disproof: 0,
    };
    fn settled(self) -> bool {
        self.proof == 0 || self.disproof == 0
    }
}

/// What the rules say of a position before any search.
enum Expansion {
    Proved,
    Disproved,
    /// The moves worth trying (all the exact rules leave).
    Moves(u64),
}

/// The verdict on a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker wins.
    Win,
    /// The attacker does not win (the defender draws or wins).
    NoWin,
    /// Not settled within the limits.
    Open,
}

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
    attacker_is_x: bool,
    table: FxHashMap<u64, Numbers>,
    max_entries: usize,
    deadline: Option<Instant>,
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
        Ok(Self {
            board,
            attacker_is_x,
            table: FxHashMap::default(),
            max_entries: max_entries.max(1024),
            deadline,
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
        let moves = match self.expand(x, occupied) {
            Expansion::Proved => {
                let me = mover_of(x, occupied);
                return Some(lowest(self.board.winning_cells_of(me, occupied)));
            }
            Expansion::Disproved => return None,
            Expansion::Moves(moves) => moves,
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

    /// The exact rules of the module doc.
    fn expand(&self, x: u64, occupied: u64) -> Expansion {
        let attacker_moves = self.attacker_to_move(occupied);
        let (win, loss) = if attacker_moves {
            (Expansion::Proved, Expansion::Disproved)
        } else {
            (Expansion::Disproved, Expansion::Proved)
        };
        let me = mover_of(x, occupied);
        let them = occupied & !me;
        if self.board.winning_cells_of(me, occupied) != 0 {
            return win;
        }
        let empty = self.board.empty_cells(occupied);
        if empty == 0 {
            return Expansion::Disproved;
        }
        let threats = self.board.winning_cells_of(them, occupied);
        match threats.count_ones() {
            0 => Expansion::Moves(empty),
            1 => Expansion::Moves(threats),
            _ => loss,
        }
    }

    /// A position's numbers: from the table, else its starting numbers.
    fn numbers_of(&self, x: u64, occupied: u64) -> Numbers {
        if let Some(&n) = self.table.get(&self.board.position_key(x, occupied)) {
            return n;
        }
        match self.expand(x, occupied) {
            Expansion::Proved => Numbers::PROVED,
            Expansion::Disproved => Numbers::DISPROVED,
            Expansion::Moves(moves) => {
                let n = moves.count_ones();
                if self.attacker_to_move(occupied) {
                    Numbers {
                        proof: 1,
                        disproof: n,
                    }
                } else {
                    Numbers {
                        proof: n,
                        disproof: 1,
                    }
                }
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
                && self.deadline.is_some_and(|d| Instant::now() >= d))
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
        let moves = match self.expand(x, occupied) {
            Expansion::Proved => return Numbers::PROVED,
            Expansion::Disproved => return Numbers::DISPROVED,
            Expansion::Moves(moves) => moves,
        };
        let or_node = self.attacker_to_move(occupied);
        let mut children = Vec::with_capacity(moves.count_ones() as usize);
        let mut left = moves;
        while left != 0 {
            let cell = lowest(left);
            left ^= cell;
            children.push(self.play(x, occupied, cell));
        }
        loop {
            // the best child (least number minimised here; a node has at
            // least one), the runner-up's number, the other numbers' sum
            let (mut best, mut best_n, mut second) = (0usize, INFINITE + 1, INFINITE);
            let mut sum = 0u32;
            let mut best_numbers = Numbers::PROVED;
            for (i, &(cx, cocc)) in children.iter().enumerate() {
                let n = self.numbers_of(cx, cocc);
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
            let (cx, cocc) = children[best];
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
/// ([`crate::solve::proof_tree`]), which asks for one move at a time.
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

/// The attacker's win from the empty board of `board`, proved and written
/// as a proof-tree certificate (at most `max_entries` positions listed,
/// the search stopping at `deadline` or after `max_visits` positions);
/// `Ok(None)` with the verdict when it is not a proved win.
pub fn win_certificate(
    board: &Bitboard,
    attacker_is_x: bool,
    max_entries: usize,
    deadline: Option<Instant>,
    max_visits: Option<u64>,
) -> Result<std::result::Result<(String, ProofSize, WinStats), Verdict>> {
    let mut prover = WinProver::new(board, attacker_is_x, max_entries, deadline)?;
    if let Some(visits) = max_visits {
        prover.limit_visits(visits);
    }
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

/// The lowest set bit of `bits` (0 for none).
fn lowest(bits: u64) -> u64 {
    bits & bits.wrapping_neg()
}
