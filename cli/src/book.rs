//! `search mnk|connect --make-book PLIES --out FILE` (make a book of exact
//! scores near the root) and `--book FILE` (search with one): the command
//! line of the facade's [`retrograde::facade::books`].

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use retrograde::{
    engines::book::Book,
    facade::books,
    facade::books::{BookReport, BookRequest},
    language::BoardGame,
};
use serde_json::json;

use super::args::RunArgs;
use super::output::{emit, emit_json, grouped, in_flags};

/// `game` has no bitboard engine: books serve that engine only.
pub fn no_book_for_this_board(cols: u32, rows: u32) -> anyhow::Error {
    anyhow::anyhow!(
        "--book and --make-book serve the bitboard search engine, which does not take a {cols} × {rows} board (gravity: columns × (rows + 1) ≤ 64; m,n,k: up to 40 cells)"
    )
}

/// Reads the book at `path` for `game` within the run's budget, with a
/// refusal that names the option.
pub fn open_book(game: &BoardGame, path: &Path, run: &RunArgs) -> anyhow::Result<Arc<Book>> {
    books::open_book(game, path, &run.budget())
        .map_err(|e| anyhow::anyhow!("--book {}", in_flags(&e)))
}

/// A book's description for a report: "1,234 positions up to 6 stones".
fn described(positions: usize, max_stones: u32) -> String {
    format!(
        "{} positions up to {max_stones} stones",
        grouped(positions as u64)
    )
}

/// The book's line of a search report (`None`: no book): the file at
/// `path`, or the book built into the program when no path is given.
pub fn book_note(
    path: Option<&Path>,
    book: Option<&Arc<Book>>,
) -> Option<(serde_json::Value, String)> {
    let book = book?;
    let name = path.map_or_else(|| "built-in".to_string(), |p| p.display().to_string());
    Some((
        json!({
            "path": name,
            "positions": book.len(),
            "max_stones": book.max_stones(),
        }),
        format!(
            "book {name}: {}\n",
            described(book.len(), book.max_stones())
        ),
    ))
}

/// Makes the book of `plies` plies of `game` (starting from `start`, if
/// given), writes it to `out` and reports it. The caller has checked the
/// board ([`no_book_for_this_board`]) and `out`, so that their refusals
/// name the options.
pub fn make(
    game: &BoardGame,
    plies: u32,
    start: Option<Arc<Book>>,
    out: &Path,
    force: bool,
    run: &RunArgs,
) -> anyhow::Result<ExitCode> {
    let bar = run.progress();
    let request = BookRequest {
        game,
        plies,
        start,
        out,
        replace_any_file: force,
    };
    let made = books::make(request, &run.budget(), run.threads(), &bar);
    bar.finish();
    let BookReport {
        positions,
        max_stones,
        bytes,
        seconds,
        resumed,
    } = made?;
    let (cols, rows, k) = (game.cols(), game.rows(), game.k());
    if run.json {
        return emit_json(&json!({
            "book": out.display().to_string(),
            "cols": cols,
            "rows": rows,
            "k": k,
            "plies": plies,
            "positions": positions,
            "max_stones": max_stones,
            "bytes": bytes,
            "seconds": seconds,
            "resumed": resumed,
            "threads": run.threads(),
        }));
    }
    let resumed = if resumed == 0 {
        String::new()
    } else {
        format!(
            " ({} of them proved by an earlier run, from its journal)",
            grouped(resumed as u64)
        )
    };
    emit(&format!(
        "book of {cols}×{rows} (k = {k}): {}{resumed}, every score exact\nwritten to {} ({} bytes) in {seconds:.2} s on {} thread{}\n",
        described(positions, max_stones),
        out.display(),
        grouped(bytes),
        run.threads(),
        if run.threads() == 1 { "" } else { "s" },
    ))
}
