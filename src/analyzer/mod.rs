//! The facade every front end calls (the command line, the Python package,
//! the HTTP server): which engine answers a question, within what budget
//! and time. An [`Analyzer`] holds the budget and the threads; its
//! questions are typed requests with typed reports.
//!
//! * [`prove`]: an m,n,k board's value with its certificate, by the one
//!   cascade of provers.
//! * [`race`]: the empty m,n,k board's value asked of the search, the
//!   provers joining it after a first share of the time.
//! * [`books`]: opening books of the bitboard search, made and read.
//! * [`notes`]: what the facade tells while it works, typed, for each
//!   front end to word.
//! * [`fallback`]: the best move so far, not proved, when a search does not
//!   finish in time.
//! * [`solving`]: whole boards into tables, and which table engine solves
//!   a board.
//! * [`oracles`]: the searches and provers behind a position answer.
//! * [`searching`]: answering positions by search with a table sized from
//!   the budget, and the cascade of engines by board size.
//! * [`threats`]: position answers by the threat prover on m,n,k boards
//!   past the searches (to 256 cells).
//!
//! ## The answer cascade
//!
//! [`Analyzer::answer`] answers a position from a loaded table when one is
//! given; else by the board's searcher ([`searching::PositionSearcher`]):
//! the bitboard search where the board fits it (gravity boards with a
//! sentinel row in 64 bits, m,n,k boards to 40 cells), then to 64 cells the
//! general search (on m,n,k boards behind the zone prover for positions of
//! [`searching::LONG_SEARCH_CELLS`] empty cells or more), then on m,n,k
//! boards to 256 cells the threat prover, which answers in part. The report
//! names which answered ([`searching::AnsweredBy`]) and its time.
//!
//! A question that asks for the best move so far
//! ([`searching::Question::best_so_far`]) leaves a slice of its time
//! ([`fallback::reserve`]) to [`fallback::best_so_far`], which names a
//! move (not proved) when the search names none: so a position in play
//! always gets a move within the question's time.

#![warn(missing_docs)]

pub mod books;
pub mod fallback;
pub mod notes;
pub mod oracles;
pub mod prove;
pub mod race;
pub mod searching;
pub mod solving;
pub mod threats;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::error::Result;
use crate::game::Outcome;
use crate::memory::Budget;
use crate::position::answer::{answer_with, Lookup, MoveDetail, Oracle};
use crate::position::{BoardGame, Position, Status};
use crate::runtime::in_pool;
use crate::search::general::Precision;
use prove::Settled;
use searching::{AnswerReport, AnsweredBy, PositionSearcher, Question, SearchOptions};

/// The answer of `position` on `game` from a loaded `table` (the first
/// step of the cascade, which needs no budget): every legal move's value
/// with [`MoveDetail::All`], one best move with [`MoveDetail::Best`].
pub fn answer_from_table(
    game: &BoardGame,
    table: &dyn Oracle,
    position: &Position,
    detail: MoveDetail,
) -> Result<AnswerReport> {
    let started = Instant::now();
    let answer = answer_with(game, position, table, detail)?;
    Ok(AnswerReport {
        answer,
        by: AnsweredBy::Table,
        positions: 0,
        seconds: started.elapsed().as_secs_f64(),
        best_so_far: None,
        proof: None,
    })
}

/// The library's questions, asked within one memory budget on a number of
/// worker threads.
#[derive(Clone, Debug)]
pub struct Analyzer {
    budget: Budget,
    threads: usize,
    notes: Option<notes::Notes>,
    /// When a cancellable solve gives up ([`Self::with_deadline`]).
    deadline: Option<Instant>,
}

impl Analyzer {
    /// The analyzer of a service that keeps the searchers of up to
    /// `searchers` boards at once beside loaded tables that take `tables`
    /// of memory, all within `budget`: each searcher gets an equal share
    /// of what the tables leave, and one share more is held back (a
    /// searcher evicted while its search still runs keeps its table until
    /// the search ends). Refused, with the figures, when the tables alone
    /// exceed the budget.
    pub fn for_kept_searchers(
        budget: Budget,
        tables: crate::memory::Bytes,
        searchers: usize,
        threads: usize,
    ) -> Result<Self> {
        budget.check("the loaded tables", tables)?;
        let left = budget.0 .0 - tables.0;
        let shares = searchers as u64 + 1;
        Ok(Self::new(
            Budget(crate::memory::Bytes(left / shares)),
            threads,
        ))
    }

    /// An analyzer that works within `budget` on `threads` workers (at
    /// least 1).
    pub fn new(budget: Budget, threads: usize) -> Self {
        Self {
            budget,
            threads: threads.max(1),
            notes: None,
            deadline: None,
        }
    }

    /// This analyzer, its cancellable solves ([`Self::solve_cancellable`],
    /// [`Self::solve_in_memory`]) stopped between their steps once
    /// `deadline` has passed: [`crate::Error::OutOfTime`], nothing kept.
    /// A question's time is its own ([`searching::Question::time_limit`]).
    pub fn with_deadline(self, deadline: Option<Instant>) -> Self {
        Self { deadline, ..self }
    }

    /// This analyzer, telling `notes` what it does while it works
    /// ([`notes::Note`]); without them it works silently.
    pub fn with_notes(self, notes: notes::Notes) -> Self {
        Self {
            notes: Some(notes),
            ..self
        }
    }

    /// Tells `note` to the front end's notes, if any.
    fn tell(&self, note: notes::Note) {
        if let Some(notes) = &self.notes {
            notes.tell(&note);
        }
    }

    /// The memory budget.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// The worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Proves the claim of `request` ([`prove::prove`]: the cascade, its
    /// shares and what it reports).
    pub fn prove(&self, request: &prove::ProveRequest) -> Result<prove::ProveReport> {
        prove::prove(request, &self.budget, self.threads)
    }

    /// A searcher for the positions of `game` with at least
    /// `fewest_stones` stones, its table within the budget: kept, it shares
    /// what it proved between questions ([`PositionSearcher::new`]: which
    /// engine).
    pub fn searcher(
        &self,
        game: &BoardGame,
        fewest_stones: u32,
    ) -> Result<PositionSearcher<'static>> {
        PositionSearcher::new(game, &self.budget, fewest_stones)
    }

    /// [`Self::searcher`] with `options` (a book, progress, questions side
    /// by side: [`SearchOptions`]).
    pub fn searcher_with<'p>(
        &self,
        game: &BoardGame,
        options: SearchOptions<'p>,
    ) -> Result<PositionSearcher<'p>> {
        PositionSearcher::with_options(game, &self.budget, options)
    }

    /// The empty m,n,k board's value, the provers (a pairing, zones, the
    /// win prover) racing `searcher` (which goes on with its table) until
    /// `deadline` or `cancel` (`race`; [`prove::race_for_the_value`]).
    /// [`Settled::NotReached`] at once on a board the bitboard search does
    /// not take (the provers answer those alone: [`Self::prove`]).
    pub fn race_for_the_value(
        &self,
        searcher: &PositionSearcher,
        deadline: Option<Instant>,
        cancel: Option<&AtomicBool>,
    ) -> Result<Settled> {
        match searcher.board_searcher() {
            Some(board) => prove::race_for_the_value(
                searcher.game().size(),
                board,
                &self.budget,
                self.threads,
                deadline,
                cancel,
            ),
            None => Ok(Settled::NotReached),
        }
    }

    /// The race of [`race`]: `question` (the empty m,n,k board's value
    /// alone, [`race::races`]) asked of `searcher` alone for its first
    /// share of the time from `started`, then of the provers racing it
    /// ([`Self::race_for_the_value`]) for the rest. The report holds the
    /// search's answer, or the provers' proof ([`AnsweredBy::Provers`]:
    /// the value, no move named).
    fn answer_by_the_race(
        &self,
        game: &BoardGame,
        searcher: &PositionSearcher,
        question: &Question,
        started: Instant,
    ) -> Result<AnswerReport> {
        let alone_until = race::search_alone_until(started, question.time_limit);
        let alone = Question {
            time_limit: Some(alone_until.saturating_duration_since(Instant::now())),
            ..*question
        };
        let mut report = in_pool(self.threads, || searcher.answer(&alone))??;
        if report.proved() || question.cancelled() {
            report.seconds = started.elapsed().as_secs_f64();
            return Ok(report);
        }
        self.tell(notes::Note::ProversJoin {
            searched_alone: started.elapsed(),
        });
        let deadline = question.time_limit.map(|limit| started + limit);
        match self.race_for_the_value(searcher, deadline, question.cancel)? {
            Settled::BySearch(_) => {
                // the search's table holds the value now: the answer
                // (its best move) is read from it
                let rest = Question {
                    time_limit: deadline.map(|d| d.saturating_duration_since(Instant::now())),
                    ..*question
                };
                let searched = in_pool(self.threads, || searcher.answer(&rest))??;
                report.answer = searched.answer;
                report.positions += searched.positions;
            }
            Settled::ByProof(proof) => {
                let root = RootValue(proof.value.for_first_player());
                let answered = answer_with(game, &question.position, &root, MoveDetail::Best)?;
                report.answer = answered;
                report.by = AnsweredBy::Provers;
                report.proof = Some(proof);
            }
            Settled::NotReached => {}
        }
        report.seconds = started.elapsed().as_secs_f64();
        Ok(report)
    }

    /// The answer to `question` on `game` by the cascade (module docs):
    /// from `table` when one is given, else by `searcher` (or one made for
    /// this question) on the analyzer's threads. With
    /// [`Question::best_so_far`], a position in play whose answer names
    /// no best move (not reached, or a value the threat prover left
    /// open) gets [`AnswerReport::best_so_far`]: the search runs within
    /// the time limit less `fallback::reserve`, the fallback within the
    /// rest, so the whole answer comes within the limit (the fallback's
    /// first ply, a few milliseconds at most, excepted).
    pub fn answer(
        &self,
        game: &BoardGame,
        table: Option<&dyn Oracle>,
        searcher: Option<&PositionSearcher>,
        question: &Question,
    ) -> Result<AnswerReport> {
        if let Some(table) = table {
            return answer_from_table(game, table, &question.position, question.detail);
        }
        let started = Instant::now();
        let made;
        let searcher = match searcher {
            Some(searcher) => searcher,
            None => {
                made = self.searcher(game, question.position.stones())?;
                &made
            }
        };
        if !question.best_so_far {
            if race::races(game, question) && searcher.board_searcher().is_some() {
                return self.answer_by_the_race(game, searcher, question, started);
            }
            return in_pool(self.threads, || searcher.answer(question))?;
        }
        let reserved = question
            .time_limit
            .map_or(Duration::ZERO, fallback::reserve);
        let searched = Question {
            time_limit: question.time_limit.map(|l| l - reserved),
            ..*question
        };
        let mut report = in_pool(self.threads, || searcher.answer(&searched))??;
        // a best move named, or a board no legal game reaches (m,n,k):
        // nothing to fall back on
        let settled = report
            .answer
            .as_ref()
            .is_some_and(|a| a.moves.iter().any(|m| m.best) || a.reachable == Some(false));
        // (a cancelled question has nobody waiting for a move: the
        // fallback would only hold the caller's resources until its
        // deadline)
        if !settled
            && !question.cancelled()
            && game.status(&question.position) == Status::InProgress
        {
            // its reserve, whether the search used all of its share or not
            let reserve_ends = Instant::now() + fallback::MAX_RESERVE;
            let deadline = match question.time_limit {
                Some(limit) => (started + limit).min(reserve_ends),
                None => reserve_ends,
            };
            report.best_so_far = fallback::best_so_far(game, &question.position, deadline);
            report.seconds = started.elapsed().as_secs_f64();
        }
        Ok(report)
    }

    /// A move that keeps the value of `position` (in play) for play within
    /// `time_limit`, by `searcher` (exact depths from the bitboard search,
    /// values only from the others): `None` when none was proved in time
    /// (the report says what was).
    pub fn best_move(
        &self,
        searcher: &PositionSearcher,
        position: Position,
        time_limit: Option<Duration>,
    ) -> Result<(Option<u32>, AnswerReport)> {
        let precision = match searcher.answered_by() {
            AnsweredBy::Search => Precision::Exact,
            _ => Precision::Weak,
        };
        let question = Question {
            precision,
            detail: MoveDetail::Best,
            time_limit,
            ..Question::of(position)
        };
        let report = self.answer(searcher.game(), None, Some(searcher), &question)?;
        let game = searcher.game();
        let best = match report.answer.as_ref() {
            Some(a) => match a.moves.iter().find(|m| m.best) {
                Some(m) => Some(game.parse_move(&position, &m.notation)?),
                None => None,
            },
            None => None,
        };
        Ok((best, report))
    }
}

/// The empty board's value as a prover settled it: the root's value alone,
/// without a depth or a move, answered "in part" so that the answer names
/// no best move (a pairing or a zone proof names none).
struct RootValue(Outcome);

impl Oracle for RootValue {
    fn lookup(&self, _: &Position) -> Result<Lookup> {
        Ok(Lookup::Known(self.0, None))
    }

    fn answers_in_part(&self) -> bool {
        true
    }
}
