//! Search books (`search --make-book PLIES --out FILE`, `--book FILE`):
//! every score of a book against the exhaustive tables, answers with and
//! without a book equal at 1, 2 and 4 threads, and a damaged, forged or
//! foreign book file refused with a one-line error.

use retrograde::BoardSize;
use std::sync::Arc;

use retrograde::{
    disk::{decode_book, write_book, write_keyed_book, Checksum},
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::book::{make_book, Book},
    engines::search::{depth_of_score, Precision, SearchResult},
    engines::sparse::solve_gravity,
    games::gravity::Gravity,
    host::{in_pool, Budget, Silent},
    language::Outcome,
    Family,
};

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
    let mut compact = Vec::new();
    write_book(&mut compact, &board, &book).unwrap();
    assert_eq!(decode_book(&compact, &board).unwrap(), book);
    compact_books_are_checked_whole(&board, &book, &compact);
    // the keyed form (every book before the compact one), still read
    let mut bytes = Vec::new();
    write_keyed_book(&mut bytes, &board, &book).unwrap();
    assert!(
        compact.len() * 4 < bytes.len(),
        "{} {}",
        compact.len(),
        bytes.len()
    );
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

/// With its checksum recomputed after `edit`.
fn resummed(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 12;
    let sum = Checksum::default().bytes(&bytes[..body]).value();
    bytes[body + 4..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// A compact book (scores alone, keys enumerated again): any score
/// changed to another its position can have breaks the negamax or is the
/// deepest ply's, which its stones tell; a count that is not the board's
/// and a book of another depth are refused.
fn compact_books_are_checked_whole(board: &Bitboard, book: &Book, bytes: &[u8]) {
    let at = bytes.windows(4).position(|w| w == b"BKSC").unwrap() + 12;
    let entries = book.entries();
    assert_eq!(bytes[at..at + entries.len()].len(), entries.len());
    for (i, &(key, score)) in entries.iter().enumerate().step_by(5) {
        let stones = board.position_of_key(key).unwrap().1.count_ones();
        let other = if score == 0 { 2 } else { -score };
        let mut forged = bytes.to_vec();
        forged[at + i] = other as u8;
        match decode_book(&resummed(forged), board) {
            Err(err) => assert!(
                err.contains("negamax") || err.contains("cannot have"),
                "{err}"
            ),
            // the deepest ply's scores are taken on trust (module docs)
            Ok(_) => assert_eq!(stones, book.max_stones(), "score {i} forged and accepted"),
        }
    }
    // one score fewer: the count is not the board's
    let mut short = bytes[..at - 12].to_vec();
    let count_at = 24; // the header's state count
    let count = u64::from_le_bytes(short[count_at..count_at + 8].try_into().unwrap());
    short[count_at..count_at + 8].copy_from_slice(&(count - 1).to_le_bytes());
    short.extend_from_slice(b"BKSC");
    short.extend_from_slice(&(count - 1).to_le_bytes());
    short.extend_from_slice(&bytes[at..at + count as usize - 1]);
    short.extend_from_slice(&bytes[bytes.len() - 12..]);
    let err = decode_book(&resummed(short), board).unwrap_err();
    assert!(err.contains("positions in play"), "{err}");
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

/// A journal that keeps every batch in memory.
#[derive(Default)]
struct Kept {
    earlier: std::collections::HashMap<u64, i8>,
    recorded: Vec<(u64, i8)>,
}

impl retrograde::engines::book::Journal for Kept {
    fn earlier(&self) -> &std::collections::HashMap<u64, i8> {
        &self.earlier
    }

    fn record(&mut self, proved: &[(u64, i8)]) -> retrograde::Result<()> {
        self.recorded.extend_from_slice(proved);
        Ok(())
    }
}

/// A run told of an earlier run's journal searches nothing it holds: a
/// book made in two runs — the first cut short after a part of its
/// scores, the second resuming from them — is the book made in one.
#[test]
fn a_book_resumed_from_its_journal_is_the_book_made_at_once() {
    use retrograde::engines::book::make_book_of;
    let game = Gravity::new(BoardSize::new(5, 4, 4)).unwrap();
    let board = Bitboard::gravity(&game);
    let by_ply = board.positions_in_play(6, 1 << 24).unwrap();
    let mut first = Kept::default();
    let whole = in_pool(2, || {
        make_book_of(board.clone(), ENTRIES, &by_ply, None, &mut first, &Silent)
    })
    .unwrap()
    .unwrap();
    assert_eq!(
        first.recorded.len(),
        whole.len(),
        "every score searched once"
    );
    // the first run cut short: a third of its scores kept
    let kept: Vec<(u64, i8)> = first.recorded[..first.recorded.len() / 3].to_vec();
    let mut second = Kept {
        earlier: kept.iter().copied().collect(),
        recorded: Vec::new(),
    };
    let resumed = in_pool(2, || {
        make_book_of(board.clone(), ENTRIES, &by_ply, None, &mut second, &Silent)
    })
    .unwrap()
    .unwrap();
    assert_eq!(resumed, whole);
    assert_eq!(second.recorded.len(), whole.len() - kept.len());
    assert!(second
        .recorded
        .iter()
        .all(|(key, _)| !second.earlier.contains_key(key)));
}

/// The book built into the program for standard 7×6 Connect Four, with
/// its board.
fn shipped() -> (Bitboard, Arc<Book>) {
    use retrograde::{facade::books::shipped_book, language::BoardGame};
    let game = BoardGame::new(Family::Gravity, BoardSize::new(7, 6, 4)).unwrap();
    let book = shipped_book(&game).unwrap().expect("7×6 has a book");
    let board = Bitboard::new(Family::Gravity, BoardSize::new(7, 6, 4)).unwrap();
    (board, book)
}

/// The entries of `book`'s deepest ply: the scores it takes on trust.
fn deepest_ply(board: &Bitboard, book: &Book) -> Vec<(u64, i8)> {
    book.entries()
        .into_iter()
        .filter(|&(key, _)| board.position_of_key(key).unwrap().1.count_ones() == book.max_stones())
        .collect()
}

/// Re-searches `entries` of the shipped book without any book on `threads`
/// workers: the keys whose search disagrees with the book.
fn searched_again(board: &Bitboard, entries: &[(u64, i8)], threads: usize) -> Vec<u64> {
    use rayon::prelude::*;
    in_pool(threads, || {
        let searcher = BoardSearcher::new(board.clone(), 1 << 24, None, &Silent).side_by_side();
        entries
            .par_iter()
            .filter(|&&(key, score)| {
                let (x, occupied) = board.position_of_key(key).unwrap();
                exact(&searcher, x, occupied).score != Some(score)
            })
            .map(|&(key, _)| key)
            .collect()
    })
    .unwrap()
}

/// The shipped book (checked whole on decoding: every score above its
/// deepest ply the negamax of its children's) holds every position in
/// play up to its stones, and a seeded sample of its deepest ply — the
/// scores taken on trust — searched again without it has the same scores.
/// The whole deepest ply: `the_whole_shipped_book_is_searched_again`.
#[test]
fn the_shipped_book_is_complete_and_a_sample_of_it_searched_again_agrees() {
    let (board, book) = shipped();
    let by_ply = board.positions_in_play(book.max_stones(), 1 << 24).unwrap();
    let positions: usize = by_ply.iter().map(Vec::len).sum();
    assert_eq!(book.len(), positions);
    let deepest = deepest_ply(&board, &book);
    let mut rng = Rng::new(87);
    let sample: Vec<(u64, i8)> = (0..6)
        .map(|_| deepest[rng.below(deepest.len() as u64) as usize])
        .collect();
    assert_eq!(searched_again(&board, &sample, 2), Vec::<u64>::new());
}

/// Every score of the shipped book's deepest ply searched again without
/// a book (a documented run: `cargo test --release --test search --
/// --ignored the_whole_shipped_book`, or with `RETROGRADE_BOOK_SAMPLE=N`
/// a seeded sample of N; the figures in results/serve/BOOK.md).
#[test]
#[ignore = "the whole deepest ply: minutes to hours (results/serve/BOOK.md)"]
fn the_whole_shipped_book_is_searched_again() {
    let (board, book) = shipped();
    let mut deepest = deepest_ply(&board, &book);
    // RETROGRADE_BOOK_SAMPLE=N: a seeded sample of N scores instead of all
    if let Some(n) = std::env::var("RETROGRADE_BOOK_SAMPLE")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        let mut rng = Rng::new(8787);
        deepest = (0..n)
            .map(|_| deepest[rng.below(deepest.len() as u64) as usize])
            .collect();
    }
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let started = std::time::Instant::now();
    let wrong = searched_again(&board, &deepest, threads);
    eprintln!(
        "{} scores of {} stones searched again in {:.0} s on {threads} threads: {} disagree",
        deepest.len(),
        book.max_stones(),
        started.elapsed().as_secs_f64(),
        wrong.len()
    );
    assert_eq!(wrong, Vec::<u64>::new());
}

/// Every move's value of a position above the book's deepest ply is
/// answered from the book: each child, in the book, takes its score from
/// it (the search looked the book up below the root only, and searched
/// each such child's whole subtree: 88 million nodes, 8 s, for "4 4 4"
/// with the 4-stone book; and it looked a position up only after its
/// one-move shortcut, so a forced line left the book: 3.4 million nodes
/// for "2 6 5 3 6 3 1" with the 8-stone book). Node counts at one thread
/// are repeatable.
#[test]
fn every_move_of_a_position_above_the_deepest_ply_comes_from_the_book() {
    for moves in [
        "4 4 4",
        "2 6 5 3 6 3",
        "2 6 5 3 6 3 1",
        "2 6 5 3 6 3 7",
        "1 7 2 2 6 4 4",
    ] {
        let answer = json_of(&[
            "search",
            "connect",
            "--moves",
            moves,
            "--all-moves",
            "--threads",
            "1",
            "--json",
        ]);
        assert_eq!(answer["moves"].as_array().unwrap().len(), 7, "{answer}");
        assert!(
            answer["nodes"].as_u64().unwrap() < 1_000,
            "{moves}: {answer}"
        );
    }
}

/// `--make-book` resumes from the journal a run cut short leaves at
/// `OUT.partial`: a journal holding part of a book's scores (written as a
/// run writes it) is taken, only the rest searched, the report counts
/// what it took, the book is the one made at once, and the journal is
/// gone.
#[test]
fn make_book_resumes_from_the_journal_beside_its_output() {
    use retrograde::{
        disk::{journal_path, BookJournal},
        engines::book::Journal,
    };
    let dir = scratch_dir("book", "resume");
    let (whole, resumed) = (dir.join("whole.book"), dir.join("resumed.book"));
    let make = |out: &std::path::Path| {
        json_of(&[
            "search",
            "connect",
            "--cols",
            "5",
            "--rows",
            "4",
            "--make-book",
            "6",
            "--out",
            out.to_str().unwrap(),
            "--json",
        ])
    };
    let made = make(&whole);
    assert_eq!(made["resumed"], 0, "{made}");
    // a journal of half the book's scores, as a run cut short leaves it
    let board = Bitboard::gravity(&Gravity::new(BoardSize::new(5, 4, 4)).unwrap());
    let book = decode_book(&std::fs::read(&whole).unwrap(), &board).unwrap();
    let half: Vec<(u64, i8)> = book.entries().into_iter().step_by(2).collect();
    let mut journal = BookJournal::open(&journal_path(&resumed), &board, 6).unwrap();
    journal.record(&half).unwrap();
    drop(journal);
    let again = make(&resumed);
    assert_eq!(again["resumed"], half.len(), "{again}");
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    assert!(!journal_path(&resumed).exists());
    std::fs::remove_dir_all(dir).unwrap();
}
