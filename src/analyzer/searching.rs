//! Answering positions by search, for a program that uses the crate (the
//! Python package's opponents and `search`): [`PositionSearcher`] picks the
//! engine for a board — the bitboard engine where the board fits 64 bits
//! with a sentinel row (gravity) or 40 cells (m,n,k), the general engine
//! otherwise (sides up to 8) — and sizes its transposition table from the
//! budget as `retrograde search` does ([`board_table_entries`],
//! [`table_capacity`]). Each engine's table is kept from one position to
//! the next, so a game's later positions (and a batch's later lines) reuse
//! what earlier searches proved.

use crate::board::BoardSize;
use std::time::{Duration, Instant};

/// The longest time limit a search takes, in seconds (about 31 years:
/// longer is no limit, which giving none says).
pub const MAX_TIME_LIMIT: f64 = 1e9;

/// `seconds` as a search's time limit: `None` unless it is a number above
/// 0 and at most [`MAX_TIME_LIMIT`] (the caller says why, in its own
/// terms).
pub fn time_limit(seconds: f64) -> Option<Duration> {
    (seconds.is_finite() && seconds > 0.0 && seconds <= MAX_TIME_LIMIT)
        .then(|| Duration::from_secs_f64(seconds))
}

/// `seconds`, if given, as the duration of `setting` (a time limit, the
/// seconds between reports or checkpoints): refused by name unless a
/// number above 0 and at most [`MAX_TIME_LIMIT`]. Every front end checks
/// its seconds here and names the setting its own way.
pub fn checked_seconds(setting: Setting, seconds: Option<f64>) -> Result<Option<Duration>> {
    match seconds {
        None => Ok(None),
        Some(s) => time_limit(s).map(Some).ok_or_else(|| {
            Error::setting(
                setting,
                format!("{s} must be a number of seconds above 0 and at most {MAX_TIME_LIMIT:.0}"),
            )
        }),
    }
}

use std::sync::atomic::{AtomicU64, Ordering};

use super::oracles::{BoardSearch, ProversThenSearch, Search};
use super::threats::ThreatOracle;
use crate::error::{Error, Result, Setting};
use crate::memory::Budget;
use crate::position::answer::{answer_with, MoveDetail, Oracle, PositionAnswer};
use crate::position::{BoardGame, Family, Position, WORD_CELLS};
use crate::prove::pairing::PairingBoard;
use crate::runtime::clock::Clock;
use crate::runtime::progress::{Progress, Silent};
use crate::search::bitboard::board_table_entries;
use crate::search::bitboard::{Bitboard, BoardSearcher};
use crate::search::book::Book;
pub use crate::search::general::Precision;
use crate::search::general::{SearchBoard, Searcher};
use std::sync::Arc;

/// The most cells of an m,n,k board the bitboard search takes: past them
/// the empty board's value is the provers' (`super::prove`).
pub const MAX_BITBOARD_MNK_CELLS: u32 = crate::search::bitboard::MAX_MNK_CELLS;

/// Bytes one transposition entry costs in the general engine's concurrent
/// table, roughly (key, bounds, hash-map overhead): the budget divided by
/// this is the table's capacity.
const BYTES_PER_ENTRY: u64 = 64;

/// How many positions the general engine's transposition table may keep
/// within `budget`.
pub fn table_capacity(budget: &Budget) -> usize {
    (budget.0 .0 / BYTES_PER_ENTRY).min(usize::MAX as u64) as usize
}

/// Positions with at least this many empty cells on an m,n,k board past
/// the bitboard search go to the zone prover before the general search
/// ([`provers_first`]): there the search is hopeless.
pub const LONG_SEARCH_CELLS: u32 = 36;

/// The general search, behind the zone prover when `provers` gives an
/// m,n,k board, the run's memory budget (a quarter of it for each proof's
/// table) and a count of the proofs' positions: positions with at least
/// [`LONG_SEARCH_CELLS`] empty cells go to the prover first, with no limit
/// but the clock ([`ProversThenSearch`]).
pub fn provers_first<'a>(
    search: Search<'a>,
    provers: Option<(PairingBoard, &Budget, &'a AtomicU64)>,
) -> Box<dyn Oracle + Sync + 'a> {
    match provers {
        Some((board, budget, nodes)) => Box::new(ProversThenSearch {
            search,
            board,
            max_nodes: u64::MAX,
            memory_bytes: budget.0 .0 / 4,
            min_empty: LONG_SEARCH_CELLS,
            nodes,
        }),
        None => Box::new(search),
    }
}

/// Which engine answers the positions of a board (the cascade of
/// [`PositionSearcher::new`]), as the facade reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AnsweredBy {
    /// A loaded table.
    Table,
    /// The bitboard search (gravity boards with a sentinel row in 64
    /// bits, m,n,k boards of up to 40 cells).
    Search,
    /// The zone prover, then the general search (m,n,k boards of 41–64
    /// cells).
    ZonesThenSearch,
    /// The general search (gravity boards past the bitboard search, to 64
    /// cells).
    GeneralSearch,
    /// The threat prover (m,n,k boards of 65–256 cells): wins, no depths.
    Threats,
    /// The provers (a pairing, zones, the win prover), which joined the
    /// search for the empty m,n,k board's value (`super::race`) and
    /// settled it first: the report holds the proof
    /// ([`AnswerReport::proof`]).
    Provers,
}

impl AnsweredBy {
    /// The name reported (`"table"`, `"search"` …).
    pub fn name(self) -> &'static str {
        match self {
            AnsweredBy::Table => "table",
            AnsweredBy::Search => "search",
            AnsweredBy::ZonesThenSearch => "zones_then_search",
            AnsweredBy::GeneralSearch => "general_search",
            AnsweredBy::Threats => "threats",
            AnsweredBy::Provers => "provers",
        }
    }
}

/// The engine of a [`PositionSearcher`].
enum Engine<'p> {
    /// The bitboard engine, with its table kept between positions.
    Bitboard(BoardSearcher<'p>),
    /// The general engine, its table kept between questions, behind the
    /// zone prover on m,n,k boards (`proved` counts the provers'
    /// positions).
    General {
        searcher: Searcher<'p>,
        provers: Option<(PairingBoard, Budget)>,
        proved: AtomicU64,
    },
    /// The threat prover, its tables within `memory` bytes.
    Threats { memory: u64 },
}

/// How a [`PositionSearcher`] is built, beyond its board and budget.
pub struct SearchOptions<'p> {
    /// The fewest stones of a position it will be asked: the largest
    /// search, which its table is sized for.
    pub fewest_stones: u32,
    /// Exact scores proved before, answered from where they hold (the
    /// bitboard search only; [`crate::analyzer::books::open_book`]
    /// reads one and checks it is this board's).
    pub book: Option<Arc<Book>>,
    /// Without `book`: whether to take the book shipped for the board, if
    /// there is one ([`crate::analyzer::books::shipped_book`]: standard
    /// 7×6 Connect Four).
    pub shipped_book: bool,
    /// Told of the positions searched (stage "nodes").
    pub progress: &'p dyn Progress,
    /// Positions asked side by side from many threads, each search on its
    /// calling thread alone (the bitboard search; the others answer one
    /// question at a time with every worker).
    pub side_by_side: bool,
}

impl SearchOptions<'static> {
    /// Positions of at least `fewest_stones` stones, the shipped book if
    /// the board has one, no progress, one question at a time.
    pub fn new(fewest_stones: u32) -> Self {
        Self {
            fewest_stones,
            book: None,
            shipped_book: true,
            progress: &Silent,
            side_by_side: false,
        }
    }
}

/// A search question about one position.
#[derive(Clone, Copy, Debug)]
pub struct Question<'a> {
    /// The position.
    pub position: Position,
    /// Exact depths, or values only.
    pub precision: Precision,
    /// Every legal move's value, or one best move.
    pub detail: MoveDetail,
    /// When the search gives up (`None`: when it is done).
    pub time_limit: Option<Duration>,
    /// A flag that stops the search when set.
    pub cancel: Option<&'a std::sync::atomic::AtomicBool>,
    /// Whether a position in play whose answer names no best move gets
    /// the best move so far ([`AnswerReport::best_so_far`]), a slice of
    /// the time kept for it ([`crate::Analyzer::answer`]; asked of
    /// [`PositionSearcher::answer`] directly, it is not looked for).
    pub best_so_far: bool,
}

impl Question<'_> {
    /// The question of `position`'s every move's value, exact, no limit.
    pub fn of(position: Position) -> Self {
        Self {
            position,
            precision: Precision::Exact,
            detail: MoveDetail::All,
            time_limit: None,
            cancel: None,
            best_so_far: false,
        }
    }

    /// Whether the question's cancel flag is set (now).
    pub fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}

/// A search's answer: the position answer (`None`: not reached within the
/// time), which engine answered, the positions it searched and the time.
#[derive(Clone, Debug)]
pub struct AnswerReport {
    /// The answer; a source that answers in part leaves values open in it
    /// ([`PositionAnswer::proved`]).
    pub answer: Option<PositionAnswer>,
    /// Which engine answered.
    pub by: AnsweredBy,
    /// Positions searched for this answer (nodes of a search, visits of a
    /// prover): the searcher's count before and after, so questions asked
    /// of one searcher at once from many threads count each other's
    /// (except side by side: [`SearchOptions::side_by_side`]).
    pub positions: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// The best move so far, not proved, when it was asked for
    /// ([`Question::best_so_far`]) and the answer names no best move
    /// (`crate::analyzer::fallback`).
    pub best_so_far: Option<super::fallback::BestSoFar>,
    /// The proof, with its certificate, when the provers settled the value
    /// ([`AnsweredBy::Provers`]).
    pub proof: Option<Box<super::prove::Proof>>,
}

impl AnswerReport {
    /// Whether the value asked was found: an answer that holds it.
    pub fn proved(&self) -> bool {
        self.answer.as_ref().is_some_and(PositionAnswer::proved)
    }
}

/// Whether the bitboard search answers the positions of `game` (the first
/// engine of [`PositionSearcher::new`]'s cascade): its table is sized for
/// the largest search asked, so a front end reads its questions ahead.
pub fn bitboard_takes(game: &BoardGame) -> bool {
    Bitboard::new(game.family(), game.size()).is_ok()
}

/// A searcher for the positions of one board. Its totals of positions
/// searched and table hits run over every question asked.
pub struct PositionSearcher<'p> {
    game: BoardGame,
    engine: Engine<'p>,
    /// Positions searched by the threat prover, which keeps no count
    /// between questions.
    positions: AtomicU64,
    /// Whether the bitboard search runs each question on its calling
    /// thread alone ([`SearchOptions::side_by_side`]).
    side_by_side: bool,
}

impl PositionSearcher<'static> {
    /// A searcher for `game` whose table fits `budget` and the largest
    /// search it will be asked: positions of at least `fewest_stones`. The
    /// cascade: the bitboard search where the board fits it; else, to 64
    /// cells, the general search (behind the zone prover on m,n,k boards);
    /// else (m,n,k boards to 256 cells) the threat prover. A gravity board
    /// past 64 cells has no engine: refused.
    pub fn new(game: &BoardGame, budget: &Budget, fewest_stones: u32) -> Result<Self> {
        PositionSearcher::with_options(game, budget, SearchOptions::new(fewest_stones))
    }
}

/// Refuses a board no searcher answers (a gravity board past 64 cells),
/// before anything is made or waited for.
pub fn check_searchable(game: &BoardGame) -> Result<()> {
    if game.family() == Family::Gravity && game.cells() > WORD_CELLS {
        return Err(Error::InvalidInput(format!(
            "no engine answers positions of a gravity board of {} columns × {} rows: the searches take gravity boards of at most {WORD_CELLS} cells",
            game.cols(),
            game.rows()
        )));
    }
    Ok(())
}

impl<'p> PositionSearcher<'p> {
    /// [`PositionSearcher::new`] with `options`: a book, progress, many
    /// questions side by side. A book on a board the bitboard search does
    /// not take is refused.
    pub fn with_options(
        game: &BoardGame,
        budget: &Budget,
        options: SearchOptions<'p>,
    ) -> Result<Self> {
        check_searchable(game)?;
        let (family, cols, rows, k) = (game.family(), game.cols(), game.rows(), game.k());
        let bitboard = Bitboard::new(family, BoardSize { cols, rows, k });
        if options.book.is_some() {
            super::books::check_board(game)?;
        }
        let engine = match bitboard {
            Ok(bitboard) => {
                let empty = bitboard.cells().saturating_sub(options.fewest_stones);
                let entries = board_table_entries(budget, family, empty);
                let mut searcher = BoardSearcher::new(bitboard, entries, None, options.progress);
                let book = match options.book {
                    Some(book) => Some(book),
                    None if options.shipped_book => super::books::shipped_book(game)?,
                    None => None,
                };
                if let Some(book) = book {
                    searcher.set_book(book);
                }
                if options.side_by_side {
                    searcher = searcher.side_by_side();
                }
                Engine::Bitboard(searcher)
            }
            // an m,n,k board: a gravity board this large was refused above
            Err(_) if game.cells() > WORD_CELLS => Engine::Threats {
                memory: budget.0 .0,
            },
            Err(_) => {
                let (board, provers) = match family {
                    Family::Mnk => (
                        SearchBoard::new(BoardSize { cols, rows, k })?,
                        Some((PairingBoard::new(BoardSize { cols, rows, k })?, *budget)),
                    ),
                    Family::Gravity => (SearchBoard::gravity(BoardSize { cols, rows, k })?, None),
                };
                Engine::General {
                    searcher: Searcher::owning(board, table_capacity(budget), options.progress),
                    provers,
                    proved: AtomicU64::new(0),
                }
            }
        };
        Ok(Self {
            game: game.clone(),
            engine,
            positions: AtomicU64::new(0),
            side_by_side: options.side_by_side,
        })
    }

    /// The bitboard search's searcher, if it answers this board.
    pub fn board_searcher(&self) -> Option<&BoardSearcher<'p>> {
        match &self.engine {
            Engine::Bitboard(searcher) => Some(searcher),
            _ => None,
        }
    }

    /// Whether questions asked from many threads are answered side by
    /// side, each on its thread alone ([`SearchOptions::side_by_side`] on
    /// a board of the bitboard search); else ask one at a time.
    pub fn side_by_side(&self) -> bool {
        self.side_by_side && self.board_searcher().is_some()
    }

    /// The book the bitboard search answers from, if any.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.board_searcher().and_then(BoardSearcher::book)
    }

    /// Positions searched so far, over every question.
    pub fn positions(&self) -> u64 {
        match &self.engine {
            Engine::Bitboard(searcher) => searcher.nodes(),
            Engine::General {
                searcher, proved, ..
            } => searcher.nodes() + proved.load(Ordering::Relaxed),
            Engine::Threats { .. } => self.positions.load(Ordering::Relaxed),
        }
    }

    /// Positions the calling thread has searched so far: with
    /// [`SearchOptions::side_by_side`], the difference of two readings is
    /// one question's (the other engines answer one question at a time,
    /// so there it is [`Self::positions`]).
    pub fn positions_on_this_thread(&self) -> u64 {
        match &self.engine {
            Engine::Bitboard(searcher) if self.side_by_side => searcher.nodes_on_this_thread(),
            _ => self.positions(),
        }
    }

    /// Transposition table hits so far, over every question (the threat
    /// prover keeps none).
    pub fn hits(&self) -> u64 {
        match &self.engine {
            Engine::Bitboard(searcher) => searcher.hits(),
            Engine::General { searcher, .. } => searcher.hits(),
            Engine::Threats { .. } => 0,
        }
    }

    /// The board.
    pub fn game(&self) -> &BoardGame {
        &self.game
    }

    /// Which engine answers.
    pub fn answered_by(&self) -> AnsweredBy {
        match &self.engine {
            Engine::Bitboard(_) => AnsweredBy::Search,
            Engine::General {
                provers: Some(_), ..
            } => AnsweredBy::ZonesThenSearch,
            Engine::General { provers: None, .. } => AnsweredBy::GeneralSearch,
            Engine::Threats { .. } => AnsweredBy::Threats,
        }
    }

    /// The precision this searcher answers a question asked to
    /// `asked`: the threat prover proves values only, so an exact
    /// question is answered (and reported) weak; the searches answer as
    /// asked.
    pub fn precision_for(&self, asked: Precision) -> Precision {
        match self.answered_by() {
            AnsweredBy::Threats => Precision::Weak,
            _ => asked,
        }
    }

    /// The answer to `question` (every legal move's value with
    /// [`MoveDetail::All`], one best move with [`MoveDetail::Best`]), its
    /// answer `None` when the search did not finish within the time limit
    /// or before the cancel flag was set. Runs on the current rayon pool.
    pub fn answer(&self, question: &Question) -> Result<AnswerReport> {
        let started = Instant::now();
        let deadline = question.time_limit.map(|l| started + l);
        let clock = Clock::until(deadline);
        let clock = match question.cancel {
            Some(flag) => clock.cancelled_by(flag),
            None => clock,
        };
        let before = self.positions_on_this_thread();
        let answer = self.answer_within(
            &question.position,
            question.precision,
            question.detail,
            &clock,
        )?;
        let positions = self.positions_on_this_thread().saturating_sub(before);
        Ok(AnswerReport {
            answer,
            by: self.answered_by(),
            positions,
            seconds: started.elapsed().as_secs_f64(),
            best_so_far: None,
            proof: None,
        })
    }

    /// The answer of `p` to `precision` with `detail`, `None` when `clock`
    /// stopped first: [`Self::answer`] on a clock of the caller's (a batch
    /// line's own limit, cancelled with the batch). Runs on the current
    /// rayon pool.
    pub fn answer_within(
        &self,
        p: &Position,
        precision: Precision,
        detail: MoveDetail,
        clock: &Clock,
    ) -> Result<Option<PositionAnswer>> {
        match &self.engine {
            Engine::Bitboard(searcher) => {
                let oracle = BoardSearch {
                    searcher,
                    clock,
                    precision,
                };
                answer_with(&self.game, p, &oracle, detail)
            }
            Engine::General {
                searcher,
                provers,
                proved,
            } => {
                let search = Search {
                    game: &self.game,
                    searcher,
                    clock,
                    precision,
                };
                let provers = provers.as_ref().map(|(b, budget)| (*b, budget, proved));
                answer_with(
                    &self.game,
                    p,
                    provers_first(search, provers).as_ref(),
                    detail,
                )
            }
            Engine::Threats { memory } => {
                let oracle = ThreatOracle::new(&self.game, *memory, clock)?;
                // the position's question, and one a move when all are asked
                let questions = match detail {
                    MoveDetail::All => self.game.legal_cells(p).len() as u32 + 1,
                    MoveDetail::Best => 1,
                };
                oracle.expect_questions(questions);
                let answer = answer_with(&self.game, p, &oracle, detail);
                self.positions.fetch_add(oracle.visits(), Ordering::Relaxed);
                answer
            }
        }
    }
}
