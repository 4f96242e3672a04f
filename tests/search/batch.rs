//! Batch mode (`search --positions`) streams (issue 26, line 5). A slow
//! line no longer makes every later line "not reached" (each line has its
//! own `--time-limit`, counted from the start of its search); each answer
//! is written as soon as it and those before it are known, so the batch
//! serves as a co-process; its memory does not grow with the number of
//! lines; a bad line gets an answer with an `error` field in its place, the
//! rest go on, and the exit code says some line was bad, quoted at most
//! once and shortened (issue 26, line 8).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::cli;
use crate::common::cli::run_within;

const BIN: &str = env!("CARGO_BIN_EXE_retrograde");

/// The lines of a batch's JSON output, each parsed.
fn json_lines(text: &[u8]) -> Vec<Value> {
    String::from_utf8(text.to_vec())
        .expect("UTF-8 output")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// On 7 × 6 and 8 × 8, `121212` leaves X a win in one ply (a fourth stone
/// in the first column) and `1212123` leaves O one (in the second):
/// answered in no time, however slow the empty board before them.
const WIN_IN_ONE: [&str; 2] = ["121212", "1212123"];

/// `--time-limit 4` with the empty 8×8 board first made every later line,
/// even 1-ply wins, answer "not reached": one deadline served the whole
/// batch. Each line now has its own, from the start of its search: on
/// 7 × 6 (the bitboard engine) at one thread (the lines one after another)
/// and at two (side by side), and on 8 × 8 (the general engine, the lines
/// one after another with every worker).
// issue 26, line 5
#[test]
fn a_slow_line_leaves_the_later_lines_their_own_time() {
    for (size, threads) in [("7", "1"), ("7", "2"), ("8", "2")] {
        let rows = if size == "7" { "6" } else { "8" };
        let input = format!("\n{}\n{}\n", WIN_IN_ONE[0], WIN_IN_ONE[1]);
        let (code, stdout, stderr) = run_within(
            &[
                "search",
                "connect",
                "--cols",
                size,
                "--rows",
                rows,
                "--positions",
                "-",
                "--no-book",
                "--time-limit",
                "1",
                "--threads",
                threads,
                "--json",
            ],
            60,
            Some(input.as_bytes()),
        );
        let case = format!("{size} × {rows}, threads {threads}");
        let lines = json_lines(&stdout);
        assert_eq!(lines.len(), 3, "{case}: {lines:?} {stderr}");
        assert_eq!(lines[0]["not_reached"], true, "{case}: the empty board");
        for (line, moves) in lines[1..].iter().zip(WIN_IN_ONE) {
            assert_eq!(line["moves_played"], moves, "{case}");
            assert_eq!(line["value"], "win", "{case}: {line}");
            assert_eq!(line["depth"], 1, "{case}: {line}");
        }
        // none bad, one not reached
        assert_eq!(code, Some(3), "{case}: {stderr}");
    }
}

/// The time limit is each position's: two slow lines at one thread each
/// get their own second (the first used to spend the batch's only one).
// issue 26, line 5
#[test]
fn the_time_limit_applies_to_each_position() {
    let started = Instant::now();
    let (code, stdout, stderr) = run_within(
        &[
            "search",
            "connect",
            "--positions",
            "-",
            "--no-book",
            "--time-limit",
            "1",
            "--threads",
            "1",
            "--max-memory",
            "64MiB",
            "--json",
        ],
        60,
        Some(b"\n4\n121212\n"),
    );
    assert!(started.elapsed() >= Duration::from_secs(2), "{stderr}");
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 3, "{stderr}");
    for line in &lines[..2] {
        assert_eq!(line["not_reached"], true, "{line}");
        let seconds = line["seconds"].as_f64().expect("its seconds");
        assert!(seconds >= 1.0, "{line}");
    }
    assert_eq!(lines[2]["value"], "win");
    assert_eq!(code, Some(3));
}

/// Reads the lines `child` writes on stdout into a channel.
fn lines_of(child: &mut std::process::Child) -> mpsc::Receiver<String> {
    let stdout = child.stdout.take().expect("piped");
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

/// All input was read before the first answer, so the batch could not
/// serve as a co-process: a program that writes a line and waits for its
/// answer waited forever. Each answer now comes as soon as its line is
/// solved, before the next line is sent, in the JSON and the human forms.
// issue 26, line 5
#[test]
fn a_batch_answers_each_line_before_the_next_is_sent() {
    for json in [true, false] {
        let mut args = vec![
            "search",
            "connect",
            "--cols",
            "5",
            "--rows",
            "4",
            "--positions",
            "-",
        ];
        if json {
            args.push("--json");
        }
        let mut child = Command::new(BIN)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let answers = lines_of(&mut child);
        let mut ask = |moves: &str| -> String {
            writeln!(stdin, "{moves}").unwrap();
            stdin.flush().unwrap();
            match answers.recv_timeout(Duration::from_secs(30)) {
                Ok(line) => line,
                Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!("no answer to {moves:?} while the input stays open (json {json})");
                }
            }
        };
        let first = ask("4453");
        let second = ask("");
        if json {
            let (first, second): (Value, Value) = (
                serde_json::from_str(&first).unwrap(),
                serde_json::from_str(&second).unwrap(),
            );
            assert_eq!(first["moves_played"], "4453");
            assert_eq!(first["value"], "loss");
            assert_eq!(first["depth"], 16);
            assert_eq!(second["moves_played"], "");
            assert_eq!(second["value"], "draw");
        } else {
            assert!(first.starts_with("4453: loss in 16 plies"), "{first}");
            assert!(second.starts_with("(empty): draw in 20 plies"), "{second}");
        }
        drop(stdin);
        let status = child.wait().unwrap();
        assert!(status.success(), "{status}");
        // after the input ends: nothing more in JSON, the summary otherwise
        let rest: Vec<String> = answers.iter().collect();
        if json {
            assert!(rest.is_empty(), "{rest:?}");
        } else {
            assert_eq!(rest.len(), 1, "{rest:?}");
            assert!(rest[0].starts_with("searched 2 positions"), "{rest:?}");
        }
    }
}

/// One bad line rejected the whole batch with no answers. It now gets an
/// answer in its place (JSON: `moves_played` and `error`; human: one
/// `error:` line), the others are answered, one line on stderr says that
/// some line was bad, and the exit code is 2.
// issue 26, line 5
#[test]
fn a_bad_line_is_answered_in_its_place_and_the_rest_go_on() {
    let input = b"4453\n9\n\n1234\n";
    let args = [
        "search",
        "connect",
        "--cols",
        "5",
        "--rows",
        "4",
        "--positions",
        "-",
    ];
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let (code, stdout, stderr) = run_within(&json_args, 60, Some(input));
    assert_eq!(code, Some(2), "{stderr}");
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["value"], "loss");
    assert_eq!(lines[1]["moves_played"], "9");
    let error = lines[1]["error"].as_str().expect("an error field");
    assert!(error.contains("standard input, line 2"), "{error}");
    assert_eq!(lines[1].get("value"), None);
    assert_eq!(lines[2]["value"], "draw");
    assert!(lines[3]["value"].is_string());
    for i in [0, 2, 3] {
        assert_eq!(lines[i].get("error"), None);
    }
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: ") && stderr.contains("1 bad line"));

    let (code, stdout, stderr) = run_within(&args, 60, Some(input));
    assert_eq!(code, Some(2), "{stderr}");
    let text = String::from_utf8(stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "four answers and the summary: {text}");
    assert!(lines[0].starts_with("4453: loss in 16 plies"), "{text}");
    assert!(
        lines[1].starts_with("error: standard input, line 2: "),
        "{text}"
    );
    assert!(lines[2].starts_with("(empty): draw"), "{text}");
    assert!(lines[3].starts_with("1234: "), "{text}");
    assert!(lines[4].starts_with("searched 3 positions"), "{text}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
}

/// A line of megabytes, or one that is not UTF-8, is a bad line like any
/// other: answered in its place with a short error (not echoed), the rest
/// answered.
// issue 26, line 5
#[test]
fn huge_and_binary_lines_get_short_errors_in_their_place() {
    let mut input = b"4453\n".to_vec();
    input.extend(std::iter::repeat_n(b'1', 5 << 20));
    input.extend(b"\n\xff\xfe4\n\n");
    let (code, stdout, stderr) = run_within(
        &[
            "search",
            "connect",
            "--cols",
            "5",
            "--rows",
            "4",
            "--positions",
            "-",
            "--json",
        ],
        60,
        Some(&input),
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stdout.len() < 4096, "short answers: {} bytes", stdout.len());
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["value"], "loss");
    let long = lines[1]["error"].as_str().expect("an error");
    assert!(long.contains("line 2") && long.contains("bytes"), "{long}");
    let binary = lines[2]["error"].as_str().expect("an error");
    assert!(
        binary.contains("line 3") && binary.contains("UTF-8"),
        "{binary}"
    );
    assert_eq!(lines[3]["value"], "draw");
    assert!(stderr.len() < 1024, "{stderr}");
}

/// A bad batch line: a megabyte's was quoted whole, twice (as the line
/// and as its one move), into a 2 MB line on stderr. Now a line under the
/// batch's cap on a line's length (4,096 bytes) is quoted at most once,
/// shortened to its start and its length in bytes; a longer one is refused
/// by its length alone. (Where the message goes — stderr, or the bad
/// line's answer — is the batch loop's business; this looks at both.)
// issue 26, line 8
#[test]
fn a_bad_batch_line_is_quoted_once_and_shortened() {
    for size in [4_000, 1_000_000] {
        let long = "x".repeat(size);
        let two_moves = format!("a1 {}", "b".repeat(size));
        let full_column = "1".repeat(size);
        for (game, line) in [
            ("mnk", long.as_str()),
            ("mnk", two_moves.as_str()),
            ("connect", full_column.as_str()),
        ] {
            let (code, said) = batch(game, format!("\n{line}\n").as_bytes());
            let shown = &said[..said.len().min(400)];
            assert!(
                code.is_some_and(|c| c != 0),
                "{game}: exit {code:?}: {shown}"
            );
            assert!(!said.contains("panicked"), "{shown}");
            assert!(
                said.len() < 1000,
                "{game}: {} bytes said: {shown}",
                said.len()
            );
            assert!(said.contains("line 2"), "{said}");
            let quoted = said.matches(&line[..40]).count();
            if size < 4096 {
                assert!(said.contains(&format!("({} bytes)", line.len())), "{said}");
                // the line's start appears once, not as the line and again as its move
                assert_eq!(quoted, 1, "{said}");
            } else {
                assert!(said.contains("bytes, more than the 4,096"), "{said}");
                assert!(quoted <= 1, "{said}");
            }
        }
    }
    // a short bad line is quoted whole, once
    let (code, said) = batch("mnk", b"zz\n");
    assert_eq!(code, Some(2));
    assert_eq!(said.matches("zz").count(), 1, "{said}");
    assert!(said.contains("\"zz\""), "{said}");
}

#[test]
fn a_batch_past_64_cells_is_refused_and_names_the_one_position_path() {
    // (issue 74, line 2: the facade's threat prover takes these boards one
    // position at a time; it cannot be cancelled line by line)
    let err = cli::refused(&[
        "search",
        "mnk",
        "--cols",
        "9",
        "--rows",
        "9",
        "--k",
        "5",
        "--positions",
        "-",
    ]);
    assert!(
        err.contains("at most 64 cells") && err.contains("--moves"),
        "{err}"
    );
}

/// Runs `search GAME --positions -` on a 4×4 board with `input`, reading
/// its output while it runs (a long line on stderr fills no pipe);
/// returns the exit code and what it printed (stdout, then stderr).
fn batch(game: &str, input: &[u8]) -> (Option<i32>, String) {
    let args = [
        "search",
        game,
        "--cols",
        "4",
        "--rows",
        "4",
        "--positions",
        "-",
    ];
    let (code, stdout, stderr) = cli::run_within(&args, 120, Some(input));
    let mut said = String::from_utf8_lossy(&stdout).into_owned();
    said.push_str(&stderr);
    (code, said)
}
