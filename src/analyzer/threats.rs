//! Position answers by the threat prover ([`crate::prove::threats`]), on
//! m,n,k boards past the searches (more than 64 cells, to 16 × 16: gomoku's
//! 15 × 15): asked whether the side to move wins (its winning move is the
//! best move) and, if not, whether the other side does (every move loses).
//! It proves wins; a draw, or a win it does not find among its few
//! attacker moves, stays open, so it answers in part
//! ([`Oracle::answers_in_part`]): what it proves, each move apart. Values
//! come without depths: df-pn proves a win, not its shortest length.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::error::Result;
use crate::game::Outcome;
use crate::position::answer::{Lookup, Oracle};
use crate::position::{BoardGame, Position};
use crate::prove::threats::board::{Board, Geometry};
use crate::prove::threats::{Settings, ThreatProver, Verdict};
use crate::runtime::clock::Clock;

/// The threat prover behind a position answer: each question gets an
/// equal share of the time left to the clock's deadline among the
/// questions still to come (`questions_left`, set by the one who asks: 1
/// for a value and its best move, one more a legal move for every move's
/// value). Once the deadline has passed or the clock is cancelled, every
/// question is answered not reached at once.
pub struct ThreatOracle<'c> {
    geometry: Geometry,
    memory: u64,
    clock: &'c Clock<'c>,
    questions_left: Cell<u32>,
    visits: AtomicU64,
}

impl<'c> ThreatOracle<'c> {
    /// An oracle for the m,n,k board of `game` whose provers keep their
    /// tables within `memory` bytes (half for each side's) and stop with
    /// `clock` (its deadline; its cancel flag, seen between slices).
    pub fn new(game: &BoardGame, memory: u64, clock: &'c Clock<'c>) -> Result<Self> {
        Ok(Self {
            geometry: Geometry::new(crate::board::BoardSize::new(
                game.cols(),
                game.rows(),
                game.k(),
            ))?,
            memory,
            clock,
            questions_left: Cell::new(1),
            visits: AtomicU64::new(0),
        })
    }

    /// Sets how many questions the time left is shared among.
    pub fn expect_questions(&self, questions: u32) {
        self.questions_left.set(questions.max(1));
    }

    /// Positions the provers visited, added up.
    pub fn visits(&self) -> u64 {
        self.visits.load(Ordering::Relaxed)
    }

    /// The board of `p` for the prover.
    fn board(&self, p: &Position) -> Board<'_> {
        let mut board = Board::empty(&self.geometry);
        for cell in p.x.iter() {
            board.play(cell, 0);
        }
        for cell in p.o.iter() {
            board.play(cell, 1);
        }
        board
    }

    /// The deadline of the next question: its share of the time left, less
    /// the fifth that freeing its provers' tables takes after it (on
    /// 15 × 15, 326 ms after 2 s of proving: the provers' trees are many
    /// small allocations).
    fn next_share(&self) -> Option<Instant> {
        let parts = self.questions_left.get().max(1);
        self.questions_left.set(parts.saturating_sub(1).max(1));
        self.clock.deadline().map(|d| {
            let now = Instant::now();
            now + d.saturating_duration_since(now) / parts * 4 / 5
        })
    }
}

impl Oracle for ThreatOracle<'_> {
    fn lookup(&self, p: &Position) -> Result<Lookup> {
        Ok(self.lookup_best(p)?.0)
    }

    fn lookup_best(&self, p: &Position) -> Result<(Lookup, Option<u32>)> {
        let deadline = self.next_share();
        // past the deadline, not even the provers' tables are made (on
        // 15 × 15 making them takes about 8 ms of zeroed pages a question)
        if self.clock.cancelled() || self.clock.deadline().is_some_and(|d| Instant::now() >= d) {
            return Ok((Lookup::NotReached, None));
        }
        let mut board = self.board(p);
        let (value, best, visits) = value_of(&mut board, self.memory, deadline, self.clock);
        self.visits.fetch_add(visits, Ordering::Relaxed);
        Ok(match value {
            Some(value) => (Lookup::Known(value, None), best),
            None => (Lookup::NotReached, None),
        })
    }

    fn answers_in_part(&self) -> bool {
        true
    }
}

/// The value for the side to move at `board` (left as it was), its
/// winning move and the positions visited: a win if the threat prover
/// proves one for it, a loss if it proves one for the other side, `None`
/// if neither by `deadline` (or before `clock` is cancelled, as seen
/// between slices). The two provers take turns in slices that
/// double (a tenth of a second first), each resuming from its own table,
/// so the side whose win is quick to prove is found in about twice its
/// time whichever side it is.
pub fn value_of(
    board: &mut Board,
    memory: u64,
    deadline: Option<Instant>,
    clock: &Clock,
) -> (Option<Outcome>, Option<u32>, u64) {
    let geometry = board.geometry;
    let mover = board.to_move();
    let mut provers: Vec<(usize, ThreatProver)> = [mover, 1 - mover]
        .into_iter()
        .map(|attacker| {
            let prover =
                ThreatProver::new(geometry, attacker, Settings::default(), memory / 2, None);
            (attacker, prover)
        })
        .collect();
    let stopped = || clock.cancelled() || deadline.is_some_and(|d| Instant::now() >= d);
    let mut open = [true, true];
    let mut slice = Duration::from_millis(100);
    let mut value = (None, None);
    while value.0.is_none() && open.contains(&true) {
        for (i, (attacker, prover)) in provers.iter_mut().enumerate() {
            if !open[i] {
                continue;
            }
            // a prover started past the deadline still expands its root
            if stopped() {
                break;
            }
            let until = Instant::now() + slice;
            let until = deadline.map_or(until, |d| d.min(until));
            prover.set_deadline(Some(until));
            match prover.prove(board) {
                Verdict::Win if *attacker == mover => {
                    value = (Some(Outcome::Win), prover.winning_move(board));
                    break;
                }
                Verdict::Win => {
                    value = (Some(Outcome::Loss), None);
                    break;
                }
                // not proved with the moves tried, or stopped by memory
                // (before the clock): nothing more from this one
                Verdict::NoWin => open[i] = false,
                Verdict::Open if Instant::now() < until => open[i] = false,
                Verdict::Open => {}
            }
        }
        if stopped() {
            break;
        }
        slice *= 2;
    }
    let visits = provers.iter().map(|(_, p)| p.stats().visits).sum::<u64>();
    (value.0, value.1, visits)
}
