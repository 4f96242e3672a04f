//! `retrograde play` against bad input: lines that are not text or are
//! huge get a new prompt, flags that do not apply are refused, a closed
//! reader ends the game quietly, and a board no game reaches is refused
//! before anything is printed.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::cli::{json_of, refused, retrograde, run_within, scratch_dir};

const BIN: &str = env!("CARGO_BIN_EXE_retrograde");

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

// issue 12, line 12
#[test]
fn play_survives_bad_lines_and_refuses_ignored_flags() {
    let mut input = b"\xff\xfe\n".to_vec();
    input.extend(std::iter::repeat_n(b'z', 10_000_000));
    input.extend(b"\nb2\n");
    let (code, out, err) = run_within(&["play", "mnk"], 20, Some(&input));
    assert_eq!(code, Some(0), "{err}");
    let out = String::from_utf8_lossy(&out);
    assert!(out.contains("not text"), "a new prompt after non-UTF-8");
    assert!(out.len() < 100_000, "the bad line is not echoed whole");
    let dir = scratch_dir("hardening", "line12");
    let table = dir.join("t.rtb");
    json_of(&["mnk", "--out", s(&table), "--json"]);
    refused(&["play", s(&table), "--rows", "4"]);
    // play takes --max-memory: a table over it gives way to play by
    // search (as on connect boards); a solve refused on it advises it
    let small_budget = "--rows 4 --cols 4 --max-memory 1KiB";
    let play: Vec<&str> = ["play", "mnk"]
        .into_iter()
        .chain(small_budget.split(' '))
        .collect();
    let (code, _, err) = run_within(&play, 60, Some(b""));
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("playing by search"), "{err}");
    let solve: Vec<&str> = ["mnk", "--engine", "explicit"]
        .into_iter()
        .chain(small_budget.split(' '))
        .collect();
    let line = refused(&solve);
    assert!(line.contains("(raise --max-memory)"), "{line}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `yes 1 | retrograde play connect | head -3`: the reader goes away after
/// three lines; play ends quietly with success, as every other command
/// does on a closed pipe (it printed "error: Broken pipe", exit 2).
// issue 26, line 6
#[test]
fn play_is_quiet_when_its_reader_goes_away() {
    let mut child = Command::new(BIN)
        .args(["play", "connect"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        // an endless "1" (column 1 fills up, then every line is refused
        // and asked again): stops when play exits and the pipe closes
        while stdin.write_all(b"1\n").is_ok() {}
    });
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    for _ in 0..3 {
        lines.next().unwrap().unwrap();
    }
    drop(lines);
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "play did not end after its reader went away"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    feeder.join().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(status.success(), "exit {status}, stderr {stderr:?}");
    assert_eq!(stderr, "");
}

/// `play mnk --board` with a board no game reaches (`mnk --board` calls
/// them unreachable) printed the board and "result: O wins", exit 0; it is
/// refused before anything is printed. A reachable won board still ends
/// the game at once.
// issue 26, line 4
#[test]
fn play_refuses_an_unreachable_board_before_printing() {
    for board in ["OOO/.../...", "XXX/.../...", "XXX/OOO/...", "XXX/OO./O.."] {
        let stderr = refused(&["play", "mnk", "--board", board]);
        assert!(stderr.contains("no legal game reaches"), "{stderr}");
    }
    let won = retrograde(&["play", "mnk", "--board", "XXX/OO./..."]);
    assert!(won.status.success());
    assert!(String::from_utf8_lossy(&won.stdout).contains("result: X wins"));
}

/// Issue 88: `play --engine mcts` plays against the library's Monte Carlo
/// tree search (the one Python's `mcts_action` runs), on a board no table
/// holds: its moves are said to be not proved, a seed plays the same game
/// again, and its settings are refused before a game starts.
#[test]
fn play_against_monte_carlo_tree_search() {
    let columns: Vec<u8> = b"1\n2\n3\n4\n5\n6\n7\n".repeat(8);
    let game = |seed: &str| {
        let args = [
            "play",
            "connect",
            "--cols",
            "7",
            "--rows",
            "6",
            "--engine",
            "mcts",
            "--playouts",
            "200",
            "--seed",
            seed,
            "-q",
        ];
        let (code, out, err) = run_within(&args, 60, Some(&columns));
        assert_eq!(code, Some(0), "{err}");
        String::from_utf8(out).unwrap()
    };
    let first = game("7");
    assert!(first.contains("O plays"), "{first}");
    assert!(
        first.contains("(Monte Carlo tree search: not proved)"),
        "{first}"
    );
    assert!(first.contains("result:"), "the game ends: {first}");
    assert_eq!(game("7"), first, "the same seed plays the same game");
    for args in [
        &["play", "mnk", "--engine", "mcts", "--playouts", "0"][..],
        &["play", "mnk", "--seed", "3"][..],
        &["play", "t.rtb", "--engine", "mcts"][..],
        &["play", "mnk", "--engine", "mcts", "--out", "t.rtb"][..],
    ] {
        // one line, exit 2 (`refused` checks both)
        refused(args);
    }
    assert!(
        refused(&["play", "mnk", "--engine", "mcts", "--playouts", "0"]).contains("--playouts")
    );
}
