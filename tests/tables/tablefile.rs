//! Outcome tables on disk: round trips for every game, refusal of every
//! truncation and of a flipped byte anywhere, a save killed midway, and
//! `play` against perfect play.

use retrograde::BoardSize;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use retrograde::{
    disk::{decode, encode, load, save, SavedGame, SavedTable},
    engines::layered::solve_mnk,
    engines::retrograde::solve,
    games::cat_mouse::CatMouseGraph,
    games::cat_mouse_grid::CatMouseGrid,
    games::mnk::Mnk,
    host::Budget,
};

use crate::common::cli::{self, json_of, scratch_dir};
use crate::common::{random_graph, Rng};

const BIN: &str = env!("CARGO_BIN_EXE_retrograde");

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn retrograde_tables_equal(a: &SavedTable, b: &SavedTable) {
    let (SavedTable::Retrograde(a), SavedTable::Retrograde(b)) = (a, b) else {
        panic!("retrograde tables")
    };
    assert_eq!(a.states(), b.states());
    for s in 0..a.states() {
        assert_eq!(
            (a.outcome(s), a.depth(s)),
            (b.outcome(s), b.depth(s)),
            "state {s}"
        );
    }
    assert_eq!(a, b);
}

#[test]
fn graph_tables_round_trip() {
    let mut rng = Rng::new(6);
    for case in 0..20 {
        let graph = random_graph(&mut rng, 3 + case % 8, case % 2 == 1);
        let table = SavedTable::Retrograde(solve(&CatMouseGraph::new(&graph).unwrap()).unwrap());
        let game = SavedGame::Graph(graph);
        let (game2, table2) = decode(&encode(&game, &table)).unwrap();
        assert_eq!(game2, game);
        retrograde_tables_equal(&table, &table2);
    }
}

#[test]
fn grid_tables_round_trip_through_a_file() {
    let rows = ["..#.F", "M....", "..C#."];
    let table = SavedTable::Retrograde(solve(&CatMouseGrid::new(&rows, 2, 1).unwrap()).unwrap());
    let game = SavedGame::Grid {
        rows: rows.iter().map(|r| r.to_string()).collect(),
        cat_jump: 2,
        mouse_jump: 1,
    };
    let path = std::env::temp_dir().join(format!("retrograde-grid-{}.rtb", std::process::id()));
    save(&path, &game, &table).unwrap();
    let (game2, table2) = load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(game2, game);
    retrograde_tables_equal(&table, &table2);
}

#[test]
fn mnk_tables_round_trip() {
    for (rows, cols, k) in [(3, 3, 3), (3, 4, 3), (2, 2, 2)] {
        let solution = solve_mnk(
            &Mnk::new(BoardSize { cols, rows, k }).unwrap(),
            &Budget::unlimited(),
        )
        .unwrap();
        let game = SavedGame::Mnk { rows, cols, k };
        let (game2, table2) =
            decode(&encode(&game, &SavedTable::Layered(solution.clone()))).unwrap();
        assert_eq!(game2, game);
        let SavedTable::Layered(loaded) = table2 else {
            panic!("an m,n,k table")
        };
        assert_eq!(loaded.counts, solution.counts);
        assert_eq!(loaded.games, solution.games);
        for (a, b) in loaded.plies.iter().zip(&solution.plies) {
            assert!(a.raw() == b.raw());
            for rank in 0..a.shape.size {
                assert_eq!(a.entry(rank), b.entry(rank));
            }
        }
    }
}

/// Every truncation and a flipped byte at every offset are refused.
#[test]
fn truncated_and_corrupted_files_are_refused() {
    let graph = vec![
        vec![2, 5],
        vec![3],
        vec![0, 4, 5],
        vec![1, 4, 5],
        vec![2, 3],
        vec![0, 2, 3],
    ];
    let small_graph = encode(
        &SavedGame::Graph(graph.clone()),
        &SavedTable::Retrograde(solve(&CatMouseGraph::new(&graph).unwrap()).unwrap()),
    );
    let tic_tac_toe = encode(
        &SavedGame::Mnk {
            rows: 3,
            cols: 3,
            k: 3,
        },
        &SavedTable::Layered(
            solve_mnk(
                &Mnk::new(BoardSize::new(3, 3, 3)).unwrap(),
                &Budget::unlimited(),
            )
            .unwrap(),
        ),
    );
    for bytes in [small_graph, tic_tac_toe] {
        assert!(decode(&bytes).is_ok());
        for len in 0..bytes.len() {
            let err = decode(&bytes[..len]).unwrap_err().to_string();
            assert!(!err.is_empty());
        }
        for offset in 0..bytes.len() {
            let mut damaged = bytes.clone();
            damaged[offset] ^= 0x20;
            assert!(
                decode(&damaged).is_err(),
                "a flipped byte at {offset} of {} was accepted",
                bytes.len()
            );
        }
        let mut wrong_magic = bytes.clone();
        wrong_magic[0] = b'X';
        assert!(decode(&wrong_magic)
            .unwrap_err()
            .to_string()
            .contains("magic"));
        let mut future = bytes.clone();
        future[8] = 2;
        assert!(decode(&future)
            .unwrap_err()
            .to_string()
            .contains("version 2"));
        let mut flipped = bytes.clone();
        let n = flipped.len();
        flipped[n - 20] ^= 1;
        assert!(decode(&flipped)
            .unwrap_err()
            .to_string()
            .contains("checksum"));
    }
}

#[test]
fn the_cli_refuses_bad_files_and_tables_of_another_game() {
    let dir = std::env::temp_dir().join(format!("retrograde-cli-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("graph.rtb");
    let out = Command::new(BIN)
        .args([
            "cat-mouse",
            "--graph",
            "[[1,3],[0],[3],[0,2]]",
            "--json",
            "--out",
            table.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let run = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let same = run(&["query", table.to_str().unwrap(), "--json"]);
    let solved: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let queried: serde_json::Value = serde_json::from_slice(&same.stdout).unwrap();
    for key in [
        "states",
        "mouse_wins",
        "cat_wins",
        "draws",
        "outcome",
        "code",
        "depth",
        "levels",
    ] {
        assert_eq!(solved[key], queried[key], "{key}");
    }
    let bytes = std::fs::read(&table).unwrap();
    let truncated = dir.join("truncated.rtb");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    for args in [
        vec!["query", truncated.to_str().unwrap()],
        vec!["query", table.to_str().unwrap(), "--board", "X../.../..."],
        vec!["query", "/nonexistent/table.rtb"],
        vec!["play", table.to_str().unwrap()],
    ] {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The first free cell of `1 1, 1 2, …` — every line, with a few malformed
/// and illegal ones mixed in, is offered until the game ends.
fn scripted_moves(rows: u32, cols: u32) -> String {
    let mut script = String::from("hello\na0\nz9\n");
    for _ in 0..rows * cols {
        for r in 1..=rows {
            for c in 0..cols {
                script.push_str(&format!("{}{r}\n", (b'a' + c as u8) as char));
            }
        }
    }
    script
}

fn play(args: &[&str], input: &str) -> String {
    cli::play_with(args, input)
}

#[test]
fn play_never_loses_and_refuses_illegal_moves() {
    let as_x = play(&["play", "mnk", "--human", "x"], &scripted_moves(3, 3));
    assert!(
        as_x.contains("not a move") && as_x.contains("off the board") && as_x.contains("taken"),
        "{as_x}"
    );
    let last = as_x.lines().last().unwrap();
    assert!(last == "result: O wins" || last == "result: draw", "{as_x}");

    let as_o = play(&["play", "mnk", "--human", "o"], &scripted_moves(3, 3));
    let last = as_o.lines().last().unwrap();
    assert!(last == "result: X wins" || last == "result: draw", "{as_o}");

    // 4,3,3 is a first-player win: against perfect X the scripted O loses.
    let on_4x3 = play(
        &["play", "mnk", "--rows", "4", "--cols", "3", "--human", "o"],
        &scripted_moves(4, 3),
    );
    assert_eq!(on_4x3.lines().last().unwrap(), "result: X wins", "{on_4x3}");

    // End of input ends the game quietly.
    let cut = play(&["play", "mnk"], "b2\n");
    assert!(!cut.contains("result:"));
}

#[test]
fn play_reads_a_saved_table() {
    let path = std::env::temp_dir().join(format!("retrograde-play-{}.rtb", std::process::id()));
    let out = Command::new(BIN)
        .args(["mnk", "--json", "--out", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = play(
        &["play", path.to_str().unwrap(), "--human", "x"],
        &scripted_moves(3, 3),
    );
    std::fs::remove_file(&path).unwrap();
    assert!(text.lines().last().unwrap().starts_with("result: "));
    assert!(!text.contains("result: X wins"));
}

/// Starts a save of the 64×64 bench grid's table into a fresh directory
/// named for `name` and waits until its temporary file exists; returns the
/// running save, the directory and the final path.
fn a_save_in_flight(name: &str) -> (std::process::Child, std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("retrograde-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("grid.rtb");
    let grid = dir.join("grid.txt");
    std::fs::write(
        &grid,
        retrograde::games::cat_mouse_grid::bench_grid().join("\n"),
    )
    .unwrap();
    let mut child = Command::new(BIN)
        .args(["cat-mouse-grid", "--grid-file", grid.to_str().unwrap()])
        .args(["--cat-jump", "2", "--mouse-jump", "3", "--json", "--out"])
        .arg(&target)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let temporary = dir.join(format!(".grid.rtb.tmp-{}", child.id()));
    let started = std::time::Instant::now();
    while !temporary.exists() {
        assert!(started.elapsed().as_secs() < 120, "the save never started");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the save ended before it could be interrupted"
        );
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
    (child, dir, target)
}

/// A save killed while it writes leaves nothing under the final name.
#[test]
fn a_killed_save_leaves_no_file_under_the_final_name() {
    let (mut child, dir, target) = a_save_in_flight("killed");
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "killed midway");
    assert!(
        !target.exists(),
        "a killed save left a file under the final name"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Regression (hardening, line 9): SIGINT, SIGTERM or SIGHUP during a save
/// leave neither the final file nor the temporary one, and the process
/// exits as a shell reports the signal (128 + its number).
#[test]
fn a_signal_during_a_save_removes_the_temporary_file() {
    for (signal, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let (mut child, dir, _) = a_save_in_flight(&format!("signal-{signal}"));
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "SIG{signal}");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .filter(|name| name != "grid.txt")
            .collect();
        assert!(left.is_empty(), "SIG{signal} left {left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

// issue 12, line 6
#[test]
fn a_table_shrunk_while_it_is_read_never_kills_the_reader() {
    let dir = scratch_dir("hardening", "line6");
    let big = dir.join("big.rtb");
    let graph = crate::common::root().join("benches/data/cat-mouse-2000.json");
    json_of(&[
        "cat-mouse",
        "--graph-file",
        s(&graph),
        "--out",
        s(&big),
        "--json",
    ]);
    // a gravity table is read mapped into memory: a fault must end it cleanly
    let gravity = dir.join("gravity.rtb");
    json_of(&[
        "connect",
        "--cols",
        "5",
        "--rows",
        "4",
        "--out",
        s(&gravity),
        "--json",
    ]);
    let small = dir.join("small.rtb");
    json_of(&["mnk", "--out", s(&small), "--json"]);
    for (table, delay) in [0u64, 2, 5, 10, 20]
        .into_iter()
        .flat_map(|d| [(&big, d), (&gravity, d)])
    {
        let target = dir.join("q.rtb");
        std::fs::copy(table, &target).unwrap();
        let child = Command::new(BIN)
            .args(["query", s(&target), "--check", "--json"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        std::fs::copy(&small, &target).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            matches!(out.status.code(), Some(0) | Some(2)),
            "delay {delay}: {:?}",
            out.status
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
