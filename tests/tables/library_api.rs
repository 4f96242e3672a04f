//! The library answers from any saved table (second audit, line 15):
//! `OpenTable` opens what `--out` wrote — an m,n,k table, a Connect Four
//! table (mapped), a symbolic table — and answers a position exactly as
//! `retrograde query FILE --moves … --json` does; other games' tables
//! open as their game and table.

use std::path::{Path, PathBuf};

use retrograde::{
    disk::{SavedGame, SavedTable},
    host::{Budget, Bytes},
    OpenTable,
};

use crate::common::cli::{json_of, retrograde, scratch_dir};

fn saved(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let path = dir.join(name);
    let mut all = args.to_vec();
    let p = path.to_str().unwrap();
    all.extend(["--out", p, "-q"]);
    let out = retrograde(&all);
    assert!(
        out.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

/// The library's answer equals the command's, key by key (the command
/// adds its timing keys).
fn same_answers(path: &Path, positions: &[&str]) {
    let table = OpenTable::open(path, &Budget::unlimited()).unwrap();
    for moves in positions {
        let mine = serde_json::to_value(table.answer_moves(moves).unwrap()).unwrap();
        let mut theirs = json_of(&["query", path.to_str().unwrap(), "--moves", moves, "--json"]);
        for timing in ["loaded", "threads", "seconds"] {
            theirs.as_object_mut().unwrap().remove(timing);
        }
        assert_eq!(mine, theirs, "{path:?} {moves:?}");
    }
}

#[test]
fn every_board_table_answers_as_query_does() {
    let dir = scratch_dir("lib", "boards");
    let mnk = saved(&dir, "ttt.rgt", &["mnk"]);
    same_answers(&mnk, &["", "b2", "a1 b1", "a1 b1 a2 b2"]);
    let connect = saved(&dir, "c44.rgt", &["connect", "--cols", "4", "--rows", "4"]);
    same_answers(&connect, &["", "1", "1 2", "2 2 3 3"]);
    let symbolic = saved(
        &dir,
        "s54.rgt",
        &[
            "connect", "--cols", "5", "--rows", "4", "--engine", "symbolic",
        ],
    );
    same_answers(&symbolic, &["", "3", "3 3 2"]);
    let table = OpenTable::open(&symbolic, &Budget::unlimited()).unwrap();
    assert_eq!(table.kind_name(), "connect");
    assert_eq!(
        table.board().map(|b| (b.cols(), b.rows(), b.k())),
        Some((5, 4, 4))
    );
    // a move off the board is an error, not a panic
    let wrong = table.answer_moves("6").unwrap_err().to_string();
    assert!(wrong.contains('6'), "{wrong}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn other_tables_open_as_their_game_and_answer_no_board_position() {
    let dir = scratch_dir("lib", "other");
    let nim = saved(&dir, "nim.rgt", &["nim", "--stones", "40"]);
    let table = OpenTable::open(&nim, &Budget::unlimited()).unwrap();
    assert_eq!(table.kind_name(), "nim");
    assert!(table.board().is_none());
    assert!(matches!(
        table,
        OpenTable::Other(SavedGame::Nim { stones: 40, .. }, SavedTable::Nim(_))
    ));
    let refused = table.answer_moves("1").unwrap_err().to_string();
    assert_eq!(refused, "a nim table answers no board position");
    // a whole-table format larger than the budget is refused before reading
    let small = Budget(Bytes(16));
    let too_big = OpenTable::open(&nim, &small).err().unwrap().to_string();
    assert!(too_big.contains("loading"), "{too_big}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 88: a solve takes a cancel flag (the Python bindings unwound a
/// panic from their own progress receiver to stop one). Cancelled 50 ms in,
/// 6×4 Connect Four (a few seconds whole) stops with `Error::Cancelled`
/// at its next ply; not cancelled, the same call gives `solve`'s table.
#[test]
fn a_solve_stops_when_cancelled() {
    use retrograde::{host::Silent, language::BoardGame, Analyzer, Error, Family};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    let analyzer = Analyzer::new(Budget(Bytes(1 << 31)), 2);
    let board = BoardGame::new(
        Family::Gravity,
        retrograde::language::BoardSize::new(6, 4, 4),
    )
    .unwrap();
    let cancel = AtomicBool::new(false);
    let started = Instant::now();
    let stopped = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            cancel.store(true, Ordering::Relaxed);
        });
        analyzer.solve_cancellable(&board, &Silent, &cancel)
    });
    assert!(
        matches!(stopped, Err(Error::Cancelled(_))),
        "{:?}",
        stopped.map(|_| ())
    );
    let small = BoardGame::new(Family::Mnk, retrograde::language::BoardSize::new(3, 3, 3)).unwrap();
    let kept = AtomicBool::new(false);
    let whole = analyzer.solve_cancellable(&small, &Silent, &kept).unwrap();
    let plain = analyzer.solve(&small, &Silent).unwrap();
    let answer = |solved: &retrograde::facade::SolvedBoard| {
        let report = retrograde::facade::answer_from_table(
            &small,
            solved.oracle().as_ref(),
            &retrograde::language::Position::default(),
            retrograde::language::MoveDetail::All,
        )
        .unwrap();
        serde_json::to_value(report.answer).unwrap()
    };
    assert_eq!(answer(&whole), answer(&plain));
    assert_eq!(answer(&whole)["value"], "draw");
    // stopped at its next ply, not at the end of the solve
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
}
