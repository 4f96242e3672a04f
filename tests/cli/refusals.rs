//! Refusals as a user meets them: one plain line, exit 2, never a panic or
//! a hang — sizes checked without wrapping, a FIFO given as an input file,
//! I/O errors said once, caps and board sizes named as the reports do.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::cli::{mkfifo, refused, retrograde, run_within, scratch_dir};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

// issue 12, line 3
#[test]
fn connect_sizes_are_checked_without_wrapping() {
    for args in [
        ["connect", "--cols", "4", "--rows", "4294967295", "--k", "4"],
        ["connect", "--cols", "2147483648", "--rows", "1", "--k", "1"],
        ["connect", "--cols", "65536", "--rows", "65535", "--k", "1"],
    ] {
        let (code, _, err) = run_within(&args, 5, None);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}

// issue 12, line 10
#[test]
fn a_fifo_is_no_input_file() {
    let dir = scratch_dir("hardening", "line10");
    let fifo = dir.join("f");
    mkfifo(&fifo);
    for args in [
        vec!["cat-mouse", "--graph-file", s(&fifo)],
        vec![
            "cat-mouse-grid",
            "--grid-file",
            s(&fifo),
            "--cat-jump",
            "1",
            "--mouse-jump",
            "1",
        ],
        vec!["query", s(&fifo)],
        vec!["play", s(&fifo)],
    ] {
        let (code, _, err) = run_within(&args, 5, None);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("FIFO"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// issue 12, line 13
#[test]
fn messages_say_things_once_and_plainly() {
    let line = refused(&["query", "/nonexistent-dir/x.rtb"]);
    assert!(!line.contains("os error"), "{line}");
    let line = refused(&["query", "/"]);
    assert!(line.contains("a directory"), "{line}");
    let line = refused(&[
        "cat-mouse-grid",
        "--grid",
        "M.C...F",
        "--cat-jump",
        "4294967296",
        "--mouse-jump",
        "1",
    ]);
    assert!(line.contains("from 0 to 4294967295"), "{line}");
    // figures that print alike get their bytes
    let needed = retrograde::games::nim::estimate_bytes(100_000_000).0;
    let line = refused(&[
        "nim",
        "--stones",
        "100000000",
        "--max-memory",
        &(needed - 1).to_string(),
    ]);
    assert!(line.contains("bytes"), "{line}");
    let started = Instant::now();
    let out = retrograde(&["mnk", "--threads", "4096", "--json"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("capped"));
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// Messages: `--time-limit 1e9+` names its real cap (it said only "above
/// 0"), and m,n,k refusals name columns first as the reports do (`--cols
/// 6 --rows 2` was "a 2×6 board").
// issue 26, line 8
#[test]
fn messages_name_the_cap_and_columns_first() {
    let cap = refused(&["search", "connect", "--moves", "1", "--time-limit", "2e9"]);
    assert!(cap.contains("at most 1000000000"), "{cap}");
    let wide = refused(&["mnk", "--cols", "6", "--rows", "2", "--engine", "explicit"]);
    assert!(wide.contains("6 columns × 2 rows"), "{wide}");
    let k = refused(&[
        "mnk", "--cols", "4", "--rows", "2", "--k", "5", "--engine", "explicit",
    ]);
    assert!(k.contains("4 columns × 2 rows"), "{k}");
    let memory = refused(&[
        "mnk",
        "--cols",
        "5",
        "--rows",
        "4",
        "--k",
        "4",
        "--engine",
        "explicit",
        "--max-memory",
        "1MiB",
    ]);
    assert!(memory.contains("5 columns × 4 rows"), "{memory}");
}

// issue 74, line 4
#[test]
fn remedies_are_named_by_their_flags() {
    let dir = scratch_dir("remedies", "flags");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "mine").unwrap();
    // the table file: leave to replace it is --force
    let err = refused(&["mnk", "--out", s(&notes), "-q"]);
    assert!(
        err.ends_with(&format!(
            "--out {}: exists and is not a table of retrograde, so it is not replaced; give \
             another path, or --force to replace it\n",
            s(&notes)
        )),
        "{err}"
    );
    // the certificate: the same leave, named the same way
    let err = refused(&[
        "prove",
        "mnk",
        "--cols",
        "3",
        "--rows",
        "3",
        "--k",
        "3",
        "--proof",
        s(&notes),
        "-q",
    ]);
    assert!(
        err.contains(&format!(
            "--proof {}: exists and is not a certificate",
            s(&notes)
        )) && err.ends_with("give another path, or --force to replace it\n"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "mine");
    // the memory budget, and the encoding that serves instead
    let err = refused(&[
        "mnk",
        "--cols",
        "4",
        "--rows",
        "4",
        "--k",
        "4",
        "--engine",
        "explicit",
        "--max-memory",
        "1KiB",
    ]);
    assert!(err.trim_end().ends_with("(raise --max-memory)"), "{err}");
    let err = refused(&["mnk", "--engine", "symbolic", "--encoding", "column", "-q"]);
    assert_eq!(
        err,
        "error: the column encoding is for gravity boards (use --encoding pair)\n"
    );
    let err = refused(&["nim", "--stones", "5", "--max-take", "0"]);
    assert_eq!(err, "error: --max-take must be at least 1\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Files of another kind, or of another board, were replaced without
/// `--force`: `search … --make-book 2 --out table.rtb` put a book in place
/// of a solved table, `nim --out b.book` a Nim table in place of a book,
/// `prove mnk --proof F` a zone certificate of another board in place of
/// a threat certificate. Each is refused now (one line naming what is
/// there, what the run writes, and `--force`), the file kept byte for
/// byte; a rerun over its own kind of file of the same board still
/// replaces it, and `--force` replaces anything.
// issue 86, line 5
#[test]
fn no_command_replaces_a_file_of_another_kind_or_board_without_force() {
    let dir = scratch_dir("refusals", "replace-kind");
    let (table, book, proof) = (
        dir.join("table.rtb"),
        dir.join("b.book"),
        dir.join("p.proof"),
    );
    let ok = |args: &[&str]| {
        let out = retrograde(args);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{args:?}: {stderr}");
    };
    let c44 = ["--cols", "4", "--rows", "4"];
    ok(&[&["connect"][..], &c44, &["--out", s(&table)]].concat());
    fn make_book<'a>(out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
        [
            &["search", "connect", "--cols", "4", "--rows", "4"][..],
            &["--make-book", "2", "--out", s(out)],
            extra,
        ]
        .concat()
    }
    ok(&make_book(&book, &[]));
    // a threat certificate of 4,4,3 (X wins), by the threat prover
    let threats = ["prove", "mnk", "--cols", "4", "--rows", "4", "--k", "3"];
    ok(&[&threats[..], &["--method", "threats", "--proof", s(&proof)]].concat());
    let zone_444 = [
        "prove",
        "mnk",
        "--cols",
        "4",
        "--rows",
        "4",
        "--k",
        "4",
        "--proof",
        s(&proof),
    ];
    for (args, file, there) in [
        (
            make_book(&table, &[]),
            &table,
            "holds a table of connect 4×4, k = 4, and this run writes a search book of connect 4×4",
        ),
        (
            vec!["nim", "--stones", "20", "--out", s(&book)],
            &book,
            "holds a search book of connect 4×4, k = 4, and this run writes a table of nim",
        ),
        (
            zone_444.to_vec(),
            &proof,
            "holds a threat proof certificate of m,n,k 4×4, k = 3, and this run writes",
        ),
        // a certificate of the same board, but of a kind the cascade does not write
        (
            [&threats[..], &["--proof", s(&proof)]].concat(),
            &proof,
            "holds a threat proof certificate of m,n,k 4×4, k = 3, and this run writes a pairing certificate",
        ),
        // a book of another board
        (
            vec![
                "search", "connect", "--cols", "5", "--rows", "4", "--make-book", "2", "--out",
                s(&book),
            ],
            &book,
            "holds a search book of connect 4×4, k = 4, and this run writes a search book of connect 5×4",
        ),
    ] {
        let before = std::fs::read(file).unwrap();
        let line = refused(&args);
        assert!(line.contains(there), "{args:?}: {line}");
        assert!(line.contains("--force"), "{args:?}: {line}");
        assert_eq!(std::fs::read(file).unwrap(), before, "{args:?}: the file kept");
    }
    // their own kind, of the same board: replaced (a rerun)
    ok(&make_book(&book, &[]));
    ok(&[&threats[..], &["--method", "threats", "--proof", s(&proof)]].concat());
    ok(&[&["connect"][..], &c44, &["--out", s(&table)]].concat());
    // --force replaces any
    ok(&make_book(&table, &["--force"]));
    ok(&[&zone_444[..], &["--force"]].concat());
    let text = std::fs::read_to_string(&proof).unwrap();
    assert!(
        text.starts_with("# retrograde zone proof certificate"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `search … --make-book 8 --max-memory 1MiB` said "over the budget of
/// 0 B": the book's search table was sized from the whole budget first and
/// the refusal named what it left. The positions now come first, within
/// the budget given, and the refusal names that budget; a book whose
/// positions fit is made (`--make-book 6` of 5×4 under 1 MiB was refused
/// at ply 1, "more than 0" positions).
// issue 86, line 5
#[test]
fn a_budget_refusal_names_the_budget_given() {
    let dir = scratch_dir("refusals", "book-budget");
    let book = dir.join("b.book");
    let line = refused(&[
        "search",
        "connect",
        "--make-book",
        "8",
        "--max-memory",
        "1MiB",
        "--out",
        s(&book),
    ]);
    assert!(line.contains("over the budget of 1.0 MiB"), "{line}");
    assert!(!line.contains("0 B"), "{line}");
    assert!(!book.exists());
    let out = retrograde(&[
        "search",
        "connect",
        "--cols",
        "5",
        "--rows",
        "4",
        "--make-book",
        "6",
        "--max-memory",
        "1MiB",
        "--out",
        s(&book),
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let made: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(made["positions"], 2411, "{made}");
    std::fs::remove_dir_all(&dir).unwrap();
}
