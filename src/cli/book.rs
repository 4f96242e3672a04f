//! `search mnk|connect --make-book PLIES --out FILE` (make a book of exact
//! scores near the root) and `--book FILE` (search with one): the command
//! line of [`retrograde::search::book`] and [`retrograde::tablefile::book`].

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use retrograde::analyzer::searching::board_table_entries;
use retrograde::memory::Budget;
use retrograde::runtime::in_pool;
use retrograde::search::bitboard::{Bitboard, BoardSearcher, POSITION_BYTES};
use retrograde::search::book::{make_book, Book};
use retrograde::tablefile::book::{load_book, save_book};
use serde_json::json;

use super::output::{emit, emit_json, grouped};
use super::RunArgs;

/// Reads the book at `path` for `board` within `budget`, with a refusal
/// that names the option.
pub fn open_book(path: &Path, board: &Bitboard, budget: &Budget) -> anyhow::Result<Arc<Book>> {
    let book = load_book(path, board, budget)
        .map_err(|e| anyhow::anyhow!("--book {}", super::output::in_flags(&e)))?;
    Ok(Arc::new(book))
}

/// `board` has no bitboard engine: books serve that engine only.
pub fn no_book_for_this_board(cols: u32, rows: u32) -> anyhow::Error {
    anyhow::anyhow!(
        "--book and --make-book serve the bitboard search engine, which does not take a {cols} × {rows} board (gravity: columns × (rows + 1) ≤ 64; m,n,k: up to 40 cells)"
    )
}

/// A book's description for a report: "1,234 positions up to 6 stones".
fn described(book: &Book) -> String {
    format!(
        "{} positions up to {} stones",
        grouped(book.len() as u64),
        book.max_stones()
    )
}

/// The book's line of a search report (`None`: no book).
pub fn book_note(
    path: Option<&Path>,
    book: Option<&Arc<Book>>,
) -> Option<(serde_json::Value, String)> {
    let (path, book) = (path?, book?);
    Some((
        json!({
            "path": path.display().to_string(),
            "positions": book.len(),
            "max_stones": book.max_stones(),
        }),
        format!("book {}: {}\n", path.display(), described(book)),
    ))
}

/// Makes the book of `plies` plies of `board` (starting from `start`, if
/// given), writes it to `out` and reports it.
pub fn make(
    board: Bitboard,
    plies: u32,
    start: Option<Arc<Book>>,
    out: &Path,
    run: &RunArgs,
) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let budget = run.budget();
    let empty = board.cells().saturating_sub(plies);
    let entries = board_table_entries(&budget, board.dimensions().0, empty);
    let table_bytes = entries as u64 * retrograde::search::bitboard::BYTES_PER_ENTRY;
    let max_positions = (budget.0 .0.saturating_sub(table_bytes) / POSITION_BYTES) as usize;
    let bar = run.progress();
    let book = in_pool(run.threads(), || {
        make_book(board.clone(), entries, plies, max_positions, start, &bar)
    })??;
    bar.finish();
    let bytes = save_book(out, &board, &book)?;
    let seconds = started.elapsed().as_secs_f64();
    let (_, cols, rows, k) = board.dimensions();
    if run.json {
        return emit_json(&json!({
            "book": out.display().to_string(),
            "cols": cols,
            "rows": rows,
            "k": k,
            "plies": plies,
            "positions": book.len(),
            "max_stones": book.max_stones(),
            "bytes": bytes,
            "seconds": seconds,
            "threads": run.threads(),
        }));
    }
    emit(&format!(
        "book of {cols}×{rows} (k = {k}): {}, every score exact\nwritten to {} ({} bytes) in {seconds:.2} s on {} thread{}\n",
        described(&book),
        out.display(),
        grouped(bytes),
        run.threads(),
        if run.threads() == 1 { "" } else { "s" },
    ))
}

/// The searcher with `book`, if any.
pub fn with_book<'a>(searcher: BoardSearcher<'a>, book: Option<&Arc<Book>>) -> BoardSearcher<'a> {
    match book {
        Some(book) => searcher.with_book(Arc::clone(book)),
        None => searcher,
    }
}
