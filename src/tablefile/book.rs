//! Search books on disk (index encoding 9): the exact scores of every
//! position in play up to some number of stones, as
//! [`crate::search::book`] makes them, in the table format's container
//! (magic, version, kind 3 or 4, `PARM`, checksum trailer; `docs/FORMAT.md`).
//!
//! Reading never trusts the file: the checksum covers every byte, the
//! parameters must be the board being searched, and every entry must be
//! the key of a position in play with at most the book's stones, stored
//! under the key the search gives it, with a score that position can have;
//! keys strictly ascending, padding zero; and every position of fewer than
//! the book's stones must have the negamax of its children's scores, all in
//! the book ([`Book::check_negamax`]). Any failure is an
//! [`Error::BadTableFile`]. What cannot be checked without solving again is
//! that each score of the deepest ply is right: a book whose checksum was
//! recomputed after an edit of such a score answers what it says (an edit
//! of a shallower one breaks the negamax, or moves its parent's with it up
//! to the root, whose score is then wrong with every ply of it consistent:
//! `search --book` names the book it used).

use std::io::Write;
use std::path::Path;

use serde_json::{json, Value};

use super::{read_header, rename, SavedGame, Summing};
use crate::error::{Error, Result};
use crate::memory::{Budget, Bytes};
use crate::position::Family;
use crate::search::bitboard::Bitboard;
use crate::search::book::Book;
use crate::search::general::score_possible;

/// The index encoding of a search book.
pub const BOOK_ENCODING: u32 = 9;

/// Bytes of one entry: the key (`u64`), the score (`i8`), the stones
/// (`u8`), six zero bytes.
const ENTRY_BYTES: u64 = 16;

/// The saved game of the board of `board`.
fn saved_game(board: &Bitboard) -> SavedGame {
    let (family, cols, rows, k) = board.dimensions();
    match family {
        Family::Gravity => SavedGame::Gravity { cols, rows, k },
        Family::Mnk => SavedGame::Mnk { rows, cols, k },
    }
}

/// The keys of every position a complete book of `board` up to
/// `max_stones` stones holds, ascending: the order of a compact book's
/// scores. Refuses to enumerate more than `limit` positions of one ply.
fn keys_in_play(
    board: &Bitboard,
    max_stones: u32,
    limit: usize,
) -> std::result::Result<Vec<u64>, String> {
    let by_ply = board
        .positions_in_play(max_stones, limit)
        .map_err(|e| e.to_string())?;
    let mut keys: Vec<u64> = by_ply
        .iter()
        .flatten()
        .map(|&(x, occupied)| board.position_key(x, occupied))
        .collect();
    keys.sort_unstable();
    Ok(keys)
}

/// Writes `book` of `board` to `out`; returns the bytes written. A book
/// that holds exactly the positions in play up to its stones (every book
/// [`crate::search::book_making::make_book`] makes) is written compact: its
/// scores alone (`BKSC`), in the ascending order of keys a reader
/// enumerates again; any other with its keys ([`write_keyed_book`]).
pub fn write_book(out: impl Write, board: &Bitboard, book: &Book) -> std::io::Result<u64> {
    let entries = book.entries();
    let complete = keys_in_play(board, book.max_stones(), entries.len())
        .is_ok_and(|keys| keys.iter().copied().eq(entries.iter().map(|e| e.0)));
    if !complete {
        return write_keyed_book(out, board, book);
    }
    let mut w = Summing::head(out, &saved_game(board), BOOK_ENCODING, entries.len() as u64)?;
    w.json(b"BKSM", &json!({ "max_stones": book.max_stones() }))?;
    w.section(b"BKSC", entries.len() as u64, |w| {
        let scores: Vec<u8> = entries.iter().map(|&(_, score)| score as u8).collect();
        w.put(&scores)
    })?;
    w.trailer()
}

/// Writes `book` of `board` to `out` with its keys (`BOOK`, 16 bytes an
/// entry: the form every book had before the compact one, still read);
/// returns the bytes written.
pub fn write_keyed_book(out: impl Write, board: &Bitboard, book: &Book) -> std::io::Result<u64> {
    let entries = book.entries();
    let mut w = Summing::head(out, &saved_game(board), BOOK_ENCODING, entries.len() as u64)?;
    w.json(b"BKSM", &json!({ "max_stones": book.max_stones() }))?;
    w.section(b"BOOK", entries.len() as u64 * ENTRY_BYTES, |w| {
        for chunk in entries.chunks(4096) {
            let mut bytes = Vec::with_capacity(chunk.len() * ENTRY_BYTES as usize);
            for &(key, score) in chunk {
                let stones = board
                    .position_of_key(key)
                    .map_or(0, |(_, occupied)| occupied.count_ones() as u8);
                bytes.extend_from_slice(&key.to_le_bytes());
                bytes.push(score as u8);
                bytes.push(stones);
                bytes.extend_from_slice(&[0; 6]);
            }
            w.put(&bytes)?;
        }
        Ok(())
    })?;
    w.trailer()
}

/// Writes `book` of `board` to `path` atomically; returns the file's size.
pub fn save_book(path: &Path, board: &Bitboard, book: &Book) -> Result<u64> {
    super::save_with(path, |out| write_book(out, board, book))
}

/// Reads the book at `path` for `board`, checking it whole (module docs).
/// Refuses, before reading it, a file whose book would not fit `budget`.
pub fn load_book(path: &Path, board: &Bitboard, budget: &Budget) -> Result<Book> {
    let size = std::fs::metadata(path)
        .map_err(|cause| Error::CannotRead {
            path: path.display().to_string(),
            cause,
        })?
        .len();
    // the file, and the map it becomes (about three times its entries)
    budget.check(
        &format!("the book {}", path.display()),
        Bytes(size.saturating_mul(3)),
    )?;
    let bytes = crate::files::read_regular(path)?;
    decode_book_within(&bytes, board, budget).map_err(|why| {
        rename(
            Error::BadTableFile {
                path: "book".into(),
                why,
            },
            path,
        )
    })
}

/// Parses and checks a book's bytes for `board`.
pub fn decode_book(bytes: &[u8], board: &Bitboard) -> std::result::Result<Book, String> {
    decode_book_within(bytes, board, &Budget::unlimited())
}

/// Bytes a position of a compact book takes while it is read: its place in
/// the enumeration (the position, its key, the set that removes mirror
/// images) and in the book's map.
const COMPACT_READ_BYTES: u64 = 96;

/// [`decode_book`], refusing a compact book whose reading (its positions
/// enumerated again) would not fit `budget`.
pub fn decode_book_within(
    bytes: &[u8],
    board: &Bitboard,
    budget: &Budget,
) -> std::result::Result<Book, String> {
    let (mut r, game, encoding, count) = read_header(bytes, true)?;
    if encoding != BOOK_ENCODING {
        return Err(format!(
            "a {} table, not a search book (a search makes one of a board's first plies)",
            game.kind_name()
        ));
    }
    let wanted = saved_game(board);
    if game != wanted {
        return Err(format!(
            "the book is for {}, the search is on {}",
            describe(&game),
            describe(&wanted)
        ));
    }
    let summary: Value = serde_json::from_slice(r.section(b"BKSM", None)?)
        .map_err(|e| format!("the book's summary is not JSON: {e}"))?;
    let max_stones = summary["max_stones"]
        .as_u64()
        .filter(|&m| m <= u64::from(board.cells()))
        .ok_or("the book's summary has no valid max_stones")? as u32;
    let scores = if bytes[r.at..].starts_with(b"BKSC") {
        budget
            .check(
                "reading the compact book",
                Bytes(count.saturating_mul(COMPACT_READ_BYTES)),
            )
            .map_err(|e| e.to_string())?;
        compact_entries(&mut r, board, max_stones, count)?
    } else {
        keyed_entries(&mut r, board, max_stones, count)?
    };
    if r.at != bytes.len() - super::TRAILER_BYTES {
        return Err("unexpected bytes before the checksum".into());
    }
    let book = Book::new(max_stones, scores);
    book.check_negamax(board)?;
    Ok(book)
}

/// The entries of a book written with its keys (`BOOK`), each checked.
fn keyed_entries(
    r: &mut super::Reader<'_>,
    board: &Bitboard,
    max_stones: u32,
    count: u64,
) -> std::result::Result<Vec<(u64, i8)>, String> {
    let len = count
        .checked_mul(ENTRY_BYTES)
        .ok_or("the header's entry count overflows")?;
    let body = r.section(b"BOOK", Some(len))?;
    let mut previous = None;
    let mut scores = Vec::with_capacity(count as usize);
    for (i, entry) in body.chunks_exact(ENTRY_BYTES as usize).enumerate() {
        let key = u64::from_le_bytes(entry[..8].try_into().expect("8 bytes"));
        let (score, stones) = (entry[8] as i8, u32::from(entry[9]));
        let bad = |why: &str| format!("entry {i} (key {key:#x}): {why}");
        if entry[10..].iter().any(|&b| b != 0) {
            return Err(bad("its padding bytes are not zero"));
        }
        if previous.is_some_and(|p| p >= key) {
            return Err(bad("keys are not strictly ascending"));
        }
        previous = Some(key);
        if checked_entry(board, key, score).map_err(|why| bad(&why))? != stones
            || stones > max_stones
        {
            return Err(bad("its stone count is wrong or beyond the book's"));
        }
        scores.push((key, score));
    }
    Ok(scores)
}

/// Checks one entry of a book (or record of its journal): `key` is the
/// search's key of a legal position in play on `board`, and `score` one
/// that position can have. Returns the position's stones.
pub(super) fn checked_entry(
    board: &Bitboard,
    key: u64,
    score: i8,
) -> std::result::Result<u32, String> {
    let (x, occupied) = board
        .position_of_key(key)
        .ok_or("not the key of a position on this board")?;
    if board.position_key(x, occupied) != key {
        return Err("not the key the search gives its position".into());
    }
    board
        .stones_to_move(x, occupied)
        .map_err(|e| e.to_string())?;
    let stones = occupied.count_ones();
    if !score_possible(score, board.cells() - stones) {
        return Err("a score its position cannot have".into());
    }
    Ok(stones)
}

/// The entries of a compact book (`BKSC`): its scores in the ascending
/// order of the keys of every position in play up to `max_stones` stones,
/// enumerated again here (the count must be theirs), each score one its
/// position can have.
fn compact_entries(
    r: &mut super::Reader<'_>,
    board: &Bitboard,
    max_stones: u32,
    count: u64,
) -> std::result::Result<Vec<(u64, i8)>, String> {
    let body = r.section(b"BKSC", Some(count))?;
    let keys = keys_in_play(board, max_stones, body.len())?;
    if keys.len() as u64 != count {
        return Err(format!(
            "it holds {count} scores, and the board has {} positions in play up to {max_stones} \
             stones",
            keys.len()
        ));
    }
    keys.into_iter()
        .zip(body)
        .enumerate()
        .map(|(i, (key, &score))| {
            let score = score as i8;
            let (_, occupied) = board.position_of_key(key).expect("a key of the board");
            if score_possible(score, board.cells() - occupied.count_ones()) {
                Ok((key, score))
            } else {
                Err(format!(
                    "score {i} (key {key:#x}): a score its position cannot have"
                ))
            }
        })
        .collect()
}

/// `Connect Four 7×6 (k = 4)` or `m,n,k 5×5 (k = 4)`.
fn describe(game: &SavedGame) -> String {
    match game {
        SavedGame::Gravity { cols, rows, k } => format!("a gravity board {cols}×{rows}, k = {k}"),
        SavedGame::Mnk { rows, cols, k } => format!("an m,n,k board {cols}×{rows}, k = {k}"),
        other => format!("a {} game", other.kind_name()),
    }
}
