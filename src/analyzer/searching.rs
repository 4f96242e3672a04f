//! Answering positions by search, for a program that uses the crate (the
//! Python package's opponents and `search`): [`PositionSearcher`] picks the
//! engine for a board — the bitboard engine where the board fits 64 bits
//! with a sentinel row (gravity) or 40 cells (m,n,k), the general engine
//! otherwise (sides up to 8) — and sizes its transposition table from the
//! budget as `retrograde search` does ([`board_table_entries`],
//! [`table_capacity`]). The bitboard engine's table is kept from one
//! position to the next, so a game's later positions reuse what its
//! earlier searches proved; the general engine builds a table a position.

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

use super::oracles::{BoardSearch, Search};
use crate::error::Result;
use crate::memory::Budget;
use crate::position::answer::{answer_with, MoveDetail, PositionAnswer};
use crate::position::{BoardGame, Family, Position};
use crate::runtime::clock::Clock;
use crate::runtime::progress::Silent;
use crate::search::bitboard::{Bitboard, BoardSearcher};
use crate::search::general::{Precision, SearchBoard, Searcher};

/// Bytes one transposition entry costs in the general engine's concurrent
/// table, roughly (key, bounds, hash-map overhead): the budget divided by
/// this is the table's capacity.
const BYTES_PER_ENTRY: u64 = 64;

/// How many positions the general engine's transposition table may keep
/// within `budget`.
pub fn table_capacity(budget: &Budget) -> usize {
    (budget.0 .0 / BYTES_PER_ENTRY).min(usize::MAX as u64) as usize
}

/// The largest table the bitboard engine allocates by default: it gains
/// little beyond this on the boards it can finish.
pub const BOARD_TABLE_CAP: u64 = 1 << 30;

/// Entries of the bitboard engine's table for searches of positions of
/// `family` with at most `empty` empty cells, within `budget`: at most
/// [`BOARD_TABLE_CAP`] bytes, and no more than 2^(12 + 3·empty/8) entries
/// on a gravity board or 2^(empty − 2) on an m,n,k board (more moves a
/// position: more positions searched). A table larger than the search needs
/// is slower, not only bigger: every page costs time to map and clear, and
/// random probes over it miss the caches. Measured on 7×6 Connect Four at
/// 2 threads: the empty board took 111 s with 1 GiB and 166 s with
/// 256 MiB; 20 positions of 6–13 stones 5.2 s with 64 MiB and 7.7 s with
/// 1 GiB; 1,000 positions of 14–27 stones 8.4 s with 32 MiB, 9.4 s with
/// 8 MiB. So the empty 7×6 board gets the whole cap, 6×6 and 7×5 256 MiB,
/// a 7×6 position with 28 empty cells 32 MiB; the empty 5×5 m,n,k board
/// 64 MiB.
pub fn board_table_entries(budget: &Budget, family: Family, empty: u32) -> usize {
    let bytes = budget.0 .0.min(BOARD_TABLE_CAP);
    let entries = bytes / crate::search::bitboard::BYTES_PER_ENTRY;
    let log2 = match family {
        Family::Gravity => 12 + empty * 3 / 8,
        Family::Mnk => empty.saturating_sub(2),
    };
    entries.min(1u64 << log2.min(40)) as usize
}

/// The engine of a [`PositionSearcher`].
enum Engine {
    /// The bitboard engine, with its table kept between positions.
    Bitboard(BoardSearcher<'static>),
    /// The general engine's board and table capacity (a table a position).
    General(SearchBoard, usize),
}

/// A searcher for the positions of one board.
pub struct PositionSearcher {
    game: BoardGame,
    engine: Engine,
}

impl PositionSearcher {
    /// A searcher for `game` whose table fits `budget` and the largest
    /// search it will be asked: positions of at least `fewest_stones`.
    pub fn new(game: &BoardGame, budget: &Budget, fewest_stones: u32) -> Result<Self> {
        let (family, cols, rows, k) = (game.family(), game.cols(), game.rows(), game.k());
        let engine = match Bitboard::new(family, BoardSize { cols, rows, k }) {
            Ok(bitboard) => {
                let empty = bitboard.cells().saturating_sub(fewest_stones);
                let entries = board_table_entries(budget, family, empty);
                Engine::Bitboard(BoardSearcher::new(bitboard, entries, None, &Silent))
            }
            Err(_) => {
                let board = match family {
                    Family::Mnk => SearchBoard::new(BoardSize { cols, rows, k })?,
                    Family::Gravity => SearchBoard::gravity(BoardSize { cols, rows, k })?,
                };
                Engine::General(board, table_capacity(budget))
            }
        };
        Ok(Self {
            game: game.clone(),
            engine,
        })
    }

    /// The board.
    pub fn game(&self) -> &BoardGame {
        &self.game
    }

    /// The answer for `p` (every legal move's value with [`MoveDetail::All`],
    /// one best move with [`MoveDetail::Best`]), or `None` when the search
    /// did not finish within `time_limit` or before `clock`'s cancel flag
    /// was set. Runs on the current rayon pool.
    pub fn answer(
        &self,
        p: &Position,
        precision: Precision,
        detail: MoveDetail,
        time_limit: Option<Duration>,
        cancel: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<Option<PositionAnswer>> {
        let clock = Clock::until(time_limit.map(|l| Instant::now() + l));
        let clock = match cancel {
            Some(flag) => clock.cancelled_by(flag),
            None => clock,
        };
        match &self.engine {
            Engine::Bitboard(searcher) => {
                let oracle = BoardSearch {
                    searcher,
                    clock: &clock,
                    precision,
                };
                answer_with(&self.game, p, &oracle, detail)
            }
            Engine::General(board, capacity) => {
                let searcher = Searcher::new(board, *capacity);
                let oracle = Search {
                    game: &self.game,
                    searcher: &searcher,
                    clock: &clock,
                    precision,
                };
                answer_with(&self.game, p, &oracle, detail)
            }
        }
    }
}
