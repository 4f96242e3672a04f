//! Search books (`search --make-book PLIES --out FILE`, `--book FILE`):
//! every score of a book against the exhaustive tables, answers with and
//! without a book equal at 1, 2 and 4 threads, and a damaged, forged or
//! foreign book file refused with a one-line error.

use retrograde::board::BoardSize;
use std::sync::Arc;

use retrograde::checksum::Checksum;
use retrograde::game::Outcome;
use retrograde::games::gravity::Gravity;
use retrograde::memory::Budget;
use retrograde::position::Family;
use retrograde::runtime::in_pool;
use retrograde::runtime::progress::Silent;
use retrograde::search::bitboard::{Bitboard, BoardSearcher};
use retrograde::search::book::{make_book, Book};
use retrograde::search::general::{depth_of_score, Precision, SearchResult};
use retrograde::tablefile::book::{decode_book, write_book};
use retrograde::tables::sparse::solve_gravity;

use crate::common;
use crate::common::cli::{json_of, refused, retrograde, scratch_dir};
use crate::common::Rng;

const ENTRIES: usize = 1 << 22;

fn book_of(board: &Bitboard, plies: u32, threads: usize) -> Book {
    in_pool(threads, || {
        make_book(board.clone(), ENTRIES, plies, 1 << 24, None, &Silent)
    })
    .unwrap()
    .unwrap()
}

/// The exact search of the position (`x`, `occupied`).
fn exact(searcher: &BoardSearcher, x: u64, occupied: u64) -> SearchResult {
    searcher
        .search(x, occupied, Precision::Exact)
        .unwrap()
        .unwrap()
}

/// Every position in play up to 7 stones of 5×4 and 4×5 Connect Four (and
/// 5×4 with k = 3): held once per mirror pair, with the exhaustive table's
/// value and depth — the same book at 1, 2 and 4 threads.
#[test]
fn every_score_of_a_book_is_the_exhaustive_tables() {
    for (cols, rows, k) in [(5, 4, 4), (4, 5, 4), (5, 4, 3)] {
        let game = Gravity::new(BoardSize { cols, rows, k }).unwrap();
        let board = Bitboard::gravity(&game);
        let table = solve_gravity(&game, &Budget::unlimited()).unwrap();
        let book = book_of(&board, 7, 2);
        assert_eq!(book.max_stones(), 7);
        let mut keys = std::collections::HashSet::new();
        for (_, key, value, depth) in table.entries() {
            let (x, occupied) = game.unkey(key);
            let stones = occupied.count_ones();
            if stones > 7 || depth == 0 {
                continue;
            }
            let search_key = board.position_key(x, occupied);
            keys.insert(search_key);
            let score = book
                .score(search_key)
                .unwrap_or_else(|| panic!("{cols}×{rows}: {x:b} {occupied:b} not in the book"));
            let outcome = match score.signum() {
                1 => Outcome::Win,
                0 => Outcome::Draw,
                _ => Outcome::Loss,
            };
            assert_eq!(
                (outcome, depth_of_score(score, stones, cols * rows)),
                (value, depth),
                "{cols}×{rows} k={k}: {x:b} {occupied:b}"
            );
        }
        assert_eq!(
            book.len(),
            keys.len(),
            "{cols}×{rows}: one entry a mirror pair"
        );
        for threads in [1, 4] {
            assert_eq!(book_of(&board, 7, threads), book, "{threads} threads");
        }
    }
}

/// Random positions of 5×5 and 6×4 searched with a book of 6 plies and
/// without: the same value, depth and score, at 1, 2 and 4 threads — and
/// the empty board with the book takes a few nodes.
#[test]
fn a_book_changes_the_time_never_the_answer() {
    let mut rng = Rng::new(77);
    for (cols, rows) in [(5, 5), (6, 4)] {
        let game = Gravity::new(BoardSize::new(cols, rows, 4)).unwrap();
        let board = Bitboard::gravity(&game);
        let book = Arc::new(book_of(&board, 6, 2));
        let mut positions = vec![(0, 0, 0)];
        positions.extend((0..60).map(|_| common::random_gravity_prefix(&mut rng, &game)));
        for threads in [1, 2, 4] {
            let plain = BoardSearcher::quiet(board.clone(), ENTRIES);
            let booked = BoardSearcher::quiet(board.clone(), ENTRIES).with_book(Arc::clone(&book));
            in_pool(threads, || {
                for &(x, occupied, _) in &positions {
                    let (without, with) = (exact(&plain, x, occupied), exact(&booked, x, occupied));
                    assert_eq!(
                        (with.value, with.depth, with.score),
                        (without.value, without.depth, without.score),
                        "{cols}×{rows} {x:b} {occupied:b} at {threads} threads"
                    );
                }
            })
            .unwrap();
        }
        let booked = BoardSearcher::quiet(board.clone(), ENTRIES).with_book(Arc::clone(&book));
        let r = booked.search(0, 0, Precision::Exact).unwrap().unwrap();
        assert!(r.nodes < 100, "{cols}×{rows}: {} nodes", r.nodes);
    }
}

/// An m,n,k book (free placement, four symmetries): searches with it and
/// without agree.
#[test]
fn an_mnk_book_agrees_with_the_search() {
    let board = Bitboard::new(Family::Mnk, BoardSize::new(4, 4, 3)).unwrap();
    let book = Arc::new(book_of(&board, 4, 2));
    assert!(book.len() > 100, "{}", book.len());
    let plain = BoardSearcher::quiet(board.clone(), ENTRIES);
    let booked = BoardSearcher::quiet(board.clone(), ENTRIES).with_book(Arc::clone(&book));
    for by_ply in board.positions_in_play(6, 1 << 20).unwrap() {
        for (x, occupied) in by_ply.into_iter().step_by(7) {
            let (without, with) = (exact(&plain, x, occupied), exact(&booked, x, occupied));
            assert_eq!(with.score, without.score, "{x:b} {occupied:b}");
        }
    }
}

/// The file: written and read back equal; a flipped byte, a truncated
/// file, another board's book, and forged entries with a recomputed
/// checksum (a key out of order, a position that is over, a score the
/// position cannot have) refused.
#[test]
fn a_book_file_is_checked_whole() {
    let game = Gravity::new(BoardSize::new(5, 4, 4)).unwrap();
    let board = Bitboard::gravity(&game);
    let book = book_of(&board, 5, 2);
    let mut bytes = Vec::new();
    write_book(&mut bytes, &board, &book).unwrap();
    assert_eq!(decode_book(&bytes, &board).unwrap(), book);

    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 4;
    assert!(decode_book(&flipped, &board)
        .unwrap_err()
        .contains("checksum"));
    assert!(decode_book(&bytes[..bytes.len() - 20], &board).is_err());
    let other = Bitboard::gravity(&Gravity::new(BoardSize::new(4, 5, 4)).unwrap());
    assert!(decode_book(&bytes, &other)
        .unwrap_err()
        .contains("the book is for"));

    // the entries follow the BOOK tag and the section's length; the first
    // is the empty board's (key 0, the least)
    let at = bytes.windows(4).position(|w| w == b"BOOK").unwrap() + 12;
    assert_eq!(book.entries()[0].0, board.position_key(0, 0));
    let resum = |mut b: Vec<u8>| {
        let body = b.len() - 12;
        let sum = Checksum::default().bytes(&b[..body]).value();
        b[body + 4..].copy_from_slice(&sum.to_le_bytes());
        b
    };
    let forged = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut b = bytes.clone();
        edit(&mut b);
        decode_book(&resum(b), &board).unwrap_err()
    };
    // a score of the wrong parity (the empty board, 20 empty cells: a
    // win scores 20, 18, …)
    let (empty_key, empty_at) = (0, at);
    assert!(forged(&|b| b[empty_at + 8] = 3).contains("cannot have"));
    // the second entry's key made the first's: out of order
    assert!(forged(&|b| {
        let (head, tail) = b.split_at_mut(at + 16);
        tail[..8].copy_from_slice(&head[at..at + 8]);
    })
    .contains("ascending"));
    // a key that is no position: every column's field all ones
    assert!(
        forged(&|b| b[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes())).contains("entry 0")
    );
    // (issue 73, line 3: accepted before) a score edit with the checksum
    // recomputed, possible for its position, but not the negamax of its
    // children
    let _ = empty_key;
    assert!(forged(&|b| b[empty_at + 8] = (-1i8) as u8).contains("negamax"));
    // so is any entry's above the deepest ply: each to the other score
    // of its parity and sign that its position can have
    let entries = book.entries();
    let shallow = (0..entries.len())
        .filter(|&i| bytes[at + 16 * i + 9] < 5)
        .step_by(7)
        .take(12);
    for i in shallow {
        let score = bytes[at + 16 * i + 8] as i8;
        let other = if score == 0 { 2 } else { -score };
        let err = forged(&|b| b[at + 16 * i + 8] = other as u8);
        assert!(
            err.contains("negamax") || err.contains("cannot have"),
            "{err}"
        );
    }
    // (issue 73, line 3) padding bytes must be zero
    assert!(forged(&|b| b[at + 16 + 12] = 1).contains("padding"));
    // a child missing: one of the empty board's children dropped
    let child = entries
        .iter()
        .position(|&(key, _)| {
            let (_, occupied) = board.position_of_key(key).unwrap();
            occupied.count_ones() == 1
        })
        .unwrap();
    let mut fewer = entries.clone();
    fewer.remove(child);
    let err = Book::new(book.max_stones(), fewer)
        .check_negamax(&board)
        .unwrap_err();
    assert!(err.contains("missing"), "{err}");
    assert!(book.check_negamax(&board).is_ok());
}

/// The command line: make a book, search with it (the same answer, a
/// "book" key in the JSON), refuse a damaged one, another board's, a
/// missing --out, a file that is not ours at --out, and `query` of a book.
#[test]
fn the_command_line_makes_and_uses_books() {
    let dir = scratch_dir("book", "cli");
    let path = dir.join("5x4.book");
    let p = path.to_str().unwrap();
    // `search connect` on a board of `cols` × 4, then `rest`
    let on = |cols: &str, rest: &[&str]| -> Vec<String> {
        let head = ["search", "connect", "--cols", cols, "--rows", "4"];
        head.iter().chain(rest).map(|a| a.to_string()).collect()
    };
    fn strs(args: &[String]) -> Vec<&str> {
        args.iter().map(String::as_str).collect()
    }
    let made = json_of(&strs(&on("5", &["--make-book", "6", "--out", p, "--json"])));
    assert_eq!(made["max_stones"], 6);
    assert!(made["positions"].as_u64().unwrap() > 1000, "{made}");
    let moves = ["--moves", "3", "--all-moves", "--json"];
    let plain = json_of(&strs(&on("5", &moves)));
    let booked = json_of(&strs(&on("5", &[&moves[..], &["--book", p]].concat())));
    assert_eq!(booked["moves"], plain["moves"]);
    assert_eq!(booked["book"]["max_stones"], 6);
    // again over its own file: replaced
    json_of(&strs(&on("5", &["--make-book", "3", "--out", p, "--json"])));

    let err = refused(&strs(&on("6", &["--book", p])));
    assert!(err.contains("the book is for"), "{err}");
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 30] ^= 1;
    let damaged = dir.join("damaged.book");
    std::fs::write(&damaged, &bytes).unwrap();
    let err = refused(&strs(&on("5", &["--book", damaged.to_str().unwrap()])));
    assert!(err.contains("checksum"), "{err}");
    let none = dir.join("none");
    let err = refused(&["search", "connect", "--book", none.to_str().unwrap()]);
    assert!(err.contains("none"), "{err}");
    refused(&["search", "connect", "--make-book", "4"]);
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "mine\n").unwrap();
    let err = refused(&strs(&on(
        "4",
        &["--make-book", "2", "--out", notes.to_str().unwrap()],
    )));
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "mine\n");
    let out = retrograde(&["query", p]);
    assert_eq!(out.status.code(), Some(2));
    // (issue 74, line 4: in the library's words, which name no flag)
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "a search book, not a table: a search of its board takes it as its opening book"
    ));
    let _ = std::fs::remove_dir_all(&dir);
}
