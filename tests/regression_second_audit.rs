//! One regression test for each line of the second audit's report (an
//! adversary's run and a new user's), named for its numbered line.

#[path = "common/cli.rs"]
mod cli_support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cli_support::{json_of, refused, retrograde};

const BIN: &str = env!("CARGO_BIN_EXE_retrograde");

/// `yes 1 | retrograde play connect | head -3`: the reader goes away after
/// three lines; play ends quietly with success, as every other command
/// does on a closed pipe (it printed "error: Broken pipe", exit 2).
#[test]
fn line_6_play_is_quiet_when_its_reader_goes_away() {
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

/// `--out` with a name of 245–255 bytes: the name itself fits a file name
/// but the temporary one written first (`.NAME.tmp-PID`) does not. It was
/// accepted, the board solved, and then the write failed ("File name too
/// long"); now it is refused before any work, naming the longest name
/// that works, and a name that short is written.
#[test]
fn line_3_an_out_name_too_long_for_its_temporary_is_refused_before_work() {
    let dir = std::env::temp_dir().join(format!("retrograde-audit2-line3-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let long = dir.join("a".repeat(250));
    let stderr = refused(&[
        "connect",
        "--cols",
        "4",
        "--rows",
        "4",
        "--out",
        long.to_str().unwrap(),
    ]);
    assert!(
        stderr.contains("too long") && stderr.contains("at most"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing left behind"
    );
    // the longest name it names is written
    let most: usize = stderr
        .split("at most ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    let fits = dir.join("b".repeat(most));
    let out = retrograde(&[
        "connect",
        "--cols",
        "4",
        "--rows",
        "4",
        "-q",
        "--out",
        fits.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(fits.is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `connect --search` is short for `search connect` and takes the boards
/// the search takes: an 8×8 position (four cells left) was refused by the
/// tables' board check ("does not fit") before the search was asked.
#[test]
fn line_7_connect_search_takes_the_boards_search_takes() {
    let moves = "8 6 5 3 3 1 6 8 2 6 1 7 3 8 7 3 3 4 1 2 3 2 7 2 3 3 7 4 5 1 \
                 4 5 6 6 4 1 2 7 1 5 1 5 6 2 1 6 6 8 2 2 5 5 5 7 7 7 8 8 8 8";
    let answer = |args: &[&str]| {
        let mut json = json_of(args);
        for key in ["seconds", "nodes_per_second"] {
            json.as_object_mut().unwrap().remove(key);
        }
        json
    };
    let short = answer(&[
        "connect", "--cols", "8", "--rows", "8", "--search", "--moves", moves, "--json",
    ]);
    let long = answer(&[
        "search",
        "connect",
        "--cols",
        "8",
        "--rows",
        "8",
        "--moves",
        moves,
        "--all-moves",
        "--json",
    ]);
    assert_eq!(short["value"], "win");
    assert_eq!(short, long);
}

/// Messages: `--time-limit 1e9+` names its real cap (it said only "above
/// 0"), and m,n,k refusals name columns first as the reports do (`--cols
/// 6 --rows 2` was "a 2×6 board").
#[test]
fn line_8_messages_name_the_cap_and_columns_first() {
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

/// `play mnk --board` with a board no game reaches (`mnk --board` calls
/// them unreachable) printed the board and "result: O wins", exit 0; it is
/// refused before anything is printed. A reachable won board still ends
/// the game at once.
#[test]
fn line_4_play_refuses_an_unreachable_board_before_printing() {
    for board in ["OOO/.../...", "XXX/.../...", "XXX/OOO/...", "XXX/OO./O.."] {
        let stderr = refused(&["play", "mnk", "--board", board]);
        assert!(stderr.contains("no legal game reaches"), "{stderr}");
    }
    let won = retrograde(&["play", "mnk", "--board", "XXX/OO./..."]);
    assert!(won.status.success());
    assert!(String::from_utf8_lossy(&won.stdout).contains("result: X wins"));
}
