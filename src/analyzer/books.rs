//! Books for the bitboard search: exact scores of every position near the
//! root, made once and read by later searches (a book changes the time of
//! a search, never its answer). The facade's side of
//! [`crate::search::book`] (making) and [`crate::tablefile::book`] (the
//! file, checked whole on reading).

use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use crate::error::{Error, Result, Setting};
use crate::memory::{Budget, Bytes};
use crate::position::{BoardGame, Family};
use crate::runtime::in_pool;
use crate::runtime::progress::Progress;
use crate::search::bitboard::{Bitboard, POSITION_BYTES};
use crate::search::book::Book;
use crate::search::book_making::{check_plies, make_book_of, Journal};
use crate::tablefile::book::{decode_book, load_book, save_book};
use crate::tablefile::book_journal::{journal_path, BookJournal};
use crate::tablefile::replace::{check_replaceable, Ours};
use crate::tablefile::SavedGame;

use crate::search::bitboard::board_table_entries;

/// The bitboard board of `game`, or the refusal of a book for it: books
/// serve the bitboard search only.
fn bitboard_of(game: &BoardGame) -> Result<Bitboard> {
    Bitboard::new(game.family(), game.size()).map_err(|_| {
        Error::InvalidInput(format!(
            "books serve the bitboard search engine, which does not take a {} × {} board (gravity: columns × (rows + 1) ≤ 64; m,n,k: up to 40 cells)",
            game.cols(),
            game.rows()
        ))
    })
}

/// Checks, before any work, that the book of `game` can be written to
/// `path`: a file already there is replaced only if it is a book of the
/// same board, or with `replace_any_file` ([`check_replaceable`]).
pub fn check_book_output(game: &BoardGame, path: &Path, replace_any_file: bool) -> Result<()> {
    let board = SavedGame::of_board(game.family(), game.size());
    check_replaceable(
        path,
        (replace_any_file, Setting::Force),
        &[Ours::Book(board)],
    )
}

/// Refuses a book for `game` when the bitboard search, which books serve,
/// does not take the board.
pub fn check_board(game: &BoardGame) -> Result<()> {
    bitboard_of(game).map(drop)
}

/// A board as the shipped books name it: family, columns, rows, `k`.
type BoardKey = (Family, u32, u32, u32);

/// The opening books shipped inside the library, one a board: the board
/// (family, columns, rows, `k`) and the book file's bytes
/// (`books/` in the repository, made by `scripts/make-book-7x6.sh`).
const SHIPPED: [(BoardKey, &[u8]); 1] = [(
    (Family::Gravity, 7, 6, 4),
    include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/books/connect-7x6.book"
    )),
)];

/// The shipped books, each decoded (and checked whole) the first time it
/// is asked for.
static DECODED: [OnceLock<std::result::Result<Arc<Book>, String>>; SHIPPED.len()] =
    [const { OnceLock::new() }];

/// The book shipped for `game`'s board, if there is one (standard 7×6
/// Connect Four): searches take it unless asked not to
/// ([`crate::analyzer::searching::SearchOptions::shipped_book`]). A book
/// changes the time of a search, never its answer.
pub fn shipped_book(game: &BoardGame) -> Result<Option<Arc<Book>>> {
    let wanted = (game.family(), game.cols(), game.rows(), game.k());
    let Some(i) = SHIPPED.iter().position(|(board, _)| *board == wanted) else {
        return Ok(None);
    };
    let decoded = DECODED[i].get_or_init(|| {
        let board = bitboard_of(game).map_err(|e| e.to_string())?;
        decode_book(SHIPPED[i].1, &board).map(Arc::new)
    });
    match decoded {
        Ok(book) => Ok(Some(Arc::clone(book))),
        Err(why) => Err(Error::InvalidInput(format!(
            "the book shipped for this board is damaged (a bug of this build): {why}"
        ))),
    }
}

/// The boards that have a shipped book ([`shipped_book`]).
pub fn shipped_boards() -> Vec<BoardGame> {
    SHIPPED
        .iter()
        .filter_map(|&((family, cols, rows, k), _)| {
            BoardGame::new(family, crate::board::BoardSize::new(cols, rows, k)).ok()
        })
        .collect()
}

/// Reads the book at `path` for `game` within `budget`, checked whole.
pub fn open_book(game: &BoardGame, path: &Path, budget: &Budget) -> Result<Arc<Book>> {
    let board = bitboard_of(game)?;
    Ok(Arc::new(load_book(path, &board, budget)?))
}

/// What [`make`] wrote.
#[derive(Clone, Debug)]
pub struct BookReport {
    /// Positions in the book.
    pub positions: usize,
    /// The most stones of a position in it.
    pub max_stones: u32,
    /// The file's bytes.
    pub bytes: u64,
    /// Seconds taken, the file written.
    pub seconds: f64,
    /// Scores taken from the journal of an earlier run cut short
    /// (`out` + `.partial`), not searched again.
    pub resumed: usize,
}

/// A book request: the board, the plies and the file.
pub struct BookRequest<'a> {
    /// The board.
    pub game: &'a BoardGame,
    /// Every position in play with at most this many stones is scored.
    pub plies: u32,
    /// A book whose positions are not searched again.
    pub start: Option<Arc<Book>>,
    /// The file, written to a temporary file beside it and renamed into
    /// place when complete.
    pub out: &'a Path,
    /// Whether a file at `out` that is not a book of the same board may be
    /// replaced.
    pub replace_any_file: bool,
}

/// Makes the book of `request` within `budget` on `threads` workers,
/// telling `progress`, and writes it. The file at `out` is checked first:
/// nothing is searched for a book that could not be written. The scores
/// are journaled as they are proved to `out` + `.partial`
/// (`crate::tablefile::book_journal`): a run cut short leaves it, the
/// same request resumes from it, and it is removed once the book is
/// written.
pub fn make(
    request: BookRequest,
    budget: &Budget,
    threads: usize,
    progress: &dyn Progress,
) -> Result<BookReport> {
    let started = Instant::now();
    let board = bitboard_of(request.game)?;
    check_book_output(request.game, request.out, request.replace_any_file)?;
    check_plies(request.plies)?;
    // The positions first, within the whole budget; the search's table
    // then takes what they leave. (The table was sized first, from the
    // whole budget: on a large board it took all of it, and the refusal
    // said "more than 0 positions ... over the budget of 0 B", the budget
    // left after the table.)
    let by_ply = board
        .positions_in_play(request.plies, (budget.0 .0 / POSITION_BYTES) as usize)
        .map_err(|refused| over_the_budget_given(refused, budget))?;
    let positions: u64 = by_ply.iter().map(|ply| ply.len() as u64).sum();
    let held = Bytes(positions.saturating_mul(POSITION_BYTES));
    budget.check(
        &format!(
            "holding the book's {positions} positions of at most {} stones",
            request.plies
        ),
        held,
    )?;
    let empty = board.cells().saturating_sub(request.plies);
    let entries = board_table_entries(&budget.after(held), board.dimensions().0, empty);
    let mut journal = BookJournal::open(&journal_path(request.out), &board, request.plies)?;
    let resumed = journal.earlier().len();
    let made = in_pool(threads, || {
        make_book_of(
            board.clone(),
            entries,
            &by_ply,
            request.start,
            &mut journal,
            progress,
        )
    })
    .and_then(|made| made);
    let book = match made {
        Ok(book) => book,
        Err(failed) => {
            if journal.is_empty() {
                journal.remove()?;
            }
            return Err(failed);
        }
    };
    let bytes = save_book(request.out, &board, &book)?;
    journal.remove()?;
    Ok(BookReport {
        positions: book.len(),
        max_stones: book.max_stones(),
        bytes,
        seconds: started.elapsed().as_secs_f64(),
        resumed,
    })
}

/// The enumeration's refusal naming the budget given: the enumeration
/// knows only how many positions it may hold, and named their bytes (the
/// budget rounded down to a multiple of a position's) as the budget.
fn over_the_budget_given(refused: Error, budget: &Budget) -> Error {
    match refused {
        Error::OverMemoryBudget {
            what,
            needed,
            hint,
            remedies,
            ..
        } => Error::OverMemoryBudget {
            what,
            needed,
            budget: budget.0,
            hint,
            remedies,
        },
        other => other,
    }
}
