//! One regression test for each line of the second audit's report (an
//! adversary's run and a new user's), named for its numbered line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
