//! The symbolic engine through the binary: the same JSON as the explicit
//! engine, a checkpointed run killed (SIGKILL) part-way and resumed to the
//! identical result, symbolic tables answered by `query` and refused when
//! damaged, and the refusals of the new options.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::cli;
use crate::common::cli::{json_of, refused, retrograde, scratch_dir};

/// The JSON without the keys that depend on the run (time, rate, threads).
fn without_timing(mut v: Value) -> Value {
    if let Value::Object(m) = &mut v {
        for key in ["seconds", "states_per_second", "threads", "loaded"] {
            m.remove(key);
        }
    }
    v
}

#[test]
fn symbolic_json_has_the_explicit_engines_counts_and_value() {
    for (game, size) in [
        ("connect", ["--cols", "5", "--rows", "4"]),
        ("mnk", ["--cols", "4", "--rows", "3"]),
    ] {
        let mut args = vec![game];
        args.extend(size);
        args.extend(["--json", "-q", "--max-memory", "256MiB"]);
        let explicit = json_of(&[&args[..], &["--engine", "explicit"]].concat());
        let symbolic = json_of(&[&args[..], &["--engine", "symbolic"]].concat());
        assert_eq!(symbolic["engine"], "symbolic");
        assert_eq!(symbolic["value"], explicit["value"], "{game}");
        assert_eq!(symbolic["depth"], Value::Null);
        let keys: &[&str] = if game == "connect" {
            &[
                "positions",
                "terminal",
                "x_wins",
                "o_wins",
                "draws",
                "first_won",
                "first_drawn",
                "first_lost",
            ]
        } else {
            &[
                "positions",
                "terminal",
                "x_wins",
                "o_wins",
                "draws",
                "x_can_win",
                "neither_can_win",
                "o_can_win",
            ]
        };
        let (e, s) = (
            explicit["per_ply"].as_array().unwrap(),
            symbolic["per_ply"].as_array().unwrap(),
        );
        assert_eq!(e.len(), s.len());
        for (pe, ps) in e.iter().zip(s) {
            for key in keys {
                assert_eq!(pe[key], ps[key], "{game} ply {} {key}", pe["ply"]);
            }
            assert!(ps["nodes"].as_u64().unwrap() > 0);
        }
    }
}

fn progress_of(dir: &Path) -> (usize, usize) {
    let Ok(text) = std::fs::read_to_string(dir.join("progress.json")) else {
        return (0, 0);
    };
    let Ok(v) = serde_json::from_str::<Value>(&text) else {
        return (0, 0);
    };
    let len = |k: &str| v["progress"][k].as_array().map_or(0, Vec::len);
    (len("forward"), len("backward"))
}

/// Starts a checkpointed run and kills it with SIGKILL once `ready` holds
/// of its progress; returns whether it was killed (not finished first).
fn kill_when(args: &[&str], dir: &Path, ready: impl Fn((usize, usize)) -> bool) -> bool {
    let mut child = Command::new(env!("CARGO_BIN_EXE_retrograde"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        if ready(progress_of(dir)) {
            child.kill().unwrap(); // SIGKILL
            child.wait().unwrap();
            return true;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn a_checkpointed_run_killed_twice_resumes_to_the_identical_result() {
    let dir = scratch_dir("sym", "checkpoint");
    let cp = dir.join("cp");
    let cp_text = cp.to_str().unwrap();
    let args = [
        "connect",
        "--cols",
        "5",
        "--rows",
        "4",
        "--engine",
        "symbolic",
        "--json",
        "-q",
        "--threads",
        "2",
        "--max-memory",
        "256MiB",
        "--checkpoint",
        cp_text,
    ];
    let plain = without_timing(json_of(&args[..args.len() - 2]));
    // killed in the forward pass, then in the backward pass
    assert!(
        kill_when(&args, &cp, |(f, _)| f >= 9),
        "killed in the forward pass"
    );
    let (f, b) = progress_of(&cp);
    assert!((9..21).contains(&f) && b == 0, "{f} {b}");
    assert!(
        kill_when(&args, &cp, |(_, b)| b >= 5),
        "killed in the backward pass"
    );
    let (f, b) = progress_of(&cp);
    assert!(f == 21 && (5..21).contains(&b), "{f} {b}");
    let resumed = without_timing(json_of(&args));
    assert_eq!(resumed, plain);
    // a finished checkpoint answers again at once, identically
    assert_eq!(without_timing(json_of(&args)), plain);
    // another board's checkpoint is refused
    let err = refused(&[
        "connect",
        "--cols",
        "4",
        "--rows",
        "4",
        "--engine",
        "symbolic",
        "--checkpoint",
        cp_text,
    ]);
    assert!(err.contains("checkpoint of gravity 5×4"), "{err}");
    // a damaged diagram file is refused, not trusted
    let victim = cp.join("won-000.bdd");
    let mut bytes = std::fs::read(&victim).unwrap();
    let last = bytes.len() - 20;
    bytes[last] ^= 1;
    std::fs::write(&victim, &bytes).unwrap();
    let err = refused(&args);
    assert!(
        err.contains("won-000.bdd") && err.contains("damaged"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn symbolic_tables_answer_positions_and_refuse_damage() {
    let dir = scratch_dir("sym", "table");
    let file = dir.join("c54.tbl");
    let f = file.to_str().unwrap();
    let solve = [
        "connect",
        "--cols",
        "5",
        "--rows",
        "4",
        "--engine",
        "symbolic",
        "-q",
        "--max-memory",
        "256MiB",
        "--out",
        f,
    ];
    assert!(retrograde(&solve).status.success());
    // every move's value from the table equals the explicit engine's
    for moves in ["", "4453", "1", "3333", "1122334"] {
        let from_table = json_of(&["query", f, "--moves", moves, "--json"]);
        let explicit = json_of(&[
            "connect", "--cols", "5", "--rows", "4", "--moves", moves, "--json",
        ]);
        assert_eq!(from_table["value"], explicit["value"], "{moves:?}");
        if from_table["status"] == "in_progress" {
            assert_eq!(from_table["depth"], Value::Null, "values, not depths");
        } else {
            assert_eq!(from_table["depth"], explicit["depth"], "a finished game: 0");
        }
        let values = |a: &Value| -> Vec<Value> {
            a["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["value"].clone())
                .collect()
        };
        assert_eq!(values(&from_table), values(&explicit), "{moves:?}");
    }
    let info = json_of(&["query", f, "--check", "--json"]);
    assert_eq!(info["checked"], true);
    assert_eq!(info["positions"], 3_945_711);
    assert_eq!(info["value"], "draw");
    // a flipped byte in the diagrams: --check refuses the file, and so does a
    // lookup that walks through the damaged block
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.len() - 100;
    bytes[at] ^= 0x10;
    let damaged = dir.join("damaged.tbl");
    std::fs::write(&damaged, &bytes).unwrap();
    let d = damaged.to_str().unwrap();
    let err = refused(&["query", d, "--check"]);
    assert!(err.contains("damaged") || err.contains("checksum"), "{err}");
    // the head (summary, directory) is checksummed: a changed count is refused
    let mut bytes = std::fs::read(&file).unwrap();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let at = text.find("\"positions\":1").unwrap() + "\"positions\":".len();
    bytes[at] = b'2';
    std::fs::write(&damaged, &bytes).unwrap();
    let err = refused(&["query", d, "--moves", "1"]);
    assert!(err.contains("damaged") || err.contains("checksum"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn symbolic_options_are_refused_where_they_do_not_apply() {
    let err = refused(&["connect", "--engine", "explicit", "--count-only"]);
    assert!(err.contains("symbolic engine"), "{err}");
    let err = refused(&["mnk", "--encoding", "column"]);
    assert!(err.contains("column encoding is for gravity"), "{err}");
    let err = refused(&["connect", "--count-only", "--moves", "1"]);
    assert!(err.contains("--count-only"), "{err}");
    let err = refused(&[
        "connect",
        "--cols",
        "6",
        "--rows",
        "4",
        "--engine",
        "symbolic",
        "--count-only",
        "--max-memory",
        "3MiB",
    ]);
    assert!(
        err.contains("budget") || err.contains("not reached"),
        "{err}"
    );
}

#[test]
fn auto_takes_the_symbolic_engine_for_an_m_n_k_board_beyond_the_dense_one() {
    // 6×2 k=3: a side over 5 is outside the dense engine
    let v = json_of(&[
        "mnk",
        "--cols",
        "6",
        "--rows",
        "2",
        "--k",
        "3",
        "--json",
        "-q",
        "--max-memory",
        "256MiB",
    ]);
    assert_eq!(v["engine"], "symbolic");
    assert!(v["positions"].as_u64().unwrap() > 0);
}

#[test]
fn play_from_a_symbolic_table_keeps_a_won_game_won() {
    // 4×4 with 3 in a row is a first-player win: the table's X must win
    // whatever O (typing every cell in order) does
    let dir = scratch_dir("sym", "play");
    let file = dir.join("m443.tbl");
    let f = file.to_str().unwrap();
    let solve = [
        "mnk",
        "--cols",
        "4",
        "--rows",
        "4",
        "--k",
        "3",
        "--engine",
        "symbolic",
        "-q",
        "--max-memory",
        "256MiB",
        "--out",
        f,
    ];
    assert!(retrograde(&solve).status.success());
    let cells: String = ["a", "b", "c", "d"]
        .iter()
        .flat_map(|c| (1..=4).map(move |r| format!("{c}{r}\n")))
        .collect();
    let out = cli::play_with(&["play", f, "--human", "o"], &cells);
    assert!(out.contains("result: X wins"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// (issue 73, line 12) `connect --cols 7 --rows 6` named the symbolic engine
// and mpirun (hours) but not the search (seconds); `mnk 5×5 k=4` started a
// run of hours with only a note; no command said what a run would take
#[test]
fn refusals_name_the_search_first_and_long_runs_wait_to_be_asked_for() {
    for args in [
        &["connect", "--cols", "7", "--rows", "6"][..],
        &["mnk", "--cols", "5", "--rows", "5", "--k", "4"][..],
    ] {
        let err = refused(args);
        assert!(
            err.starts_with("error: `retrograde search "),
            "{args:?}: {err}"
        );
        assert!(
            err.contains("projected to take") && err.contains("--engine symbolic"),
            "{args:?}: {err}"
        );
    }
    // a short symbolic run still starts under auto, saying what it projects
    let out = retrograde(&[
        "connect",
        "--cols",
        "5",
        "--rows",
        "5",
        "--max-memory",
        "100MiB",
        "--count-only",
    ]);
    assert!(out.status.success());
    // every solving command of a board estimates without solving
    for (args, engines) in [
        (
            &[
                "connect",
                "--cols",
                "7",
                "--rows",
                "6",
                "--estimate",
                "--json",
            ][..],
            2,
        ),
        (
            &[
                "mnk",
                "--cols",
                "5",
                "--rows",
                "5",
                "--k",
                "4",
                "--estimate",
                "--json",
            ][..],
            2,
        ),
        (
            &[
                "mnk",
                "--cols",
                "7",
                "--rows",
                "7",
                "--k",
                "5",
                "--estimate",
                "--json",
            ][..],
            2,
        ),
    ] {
        let started = std::time::Instant::now();
        let v = json_of(args);
        assert!(
            started.elapsed().as_secs() < 30,
            "{args:?}: an estimate, not a solve"
        );
        assert_eq!(v["estimate"], true);
        assert_eq!(v["engines"].as_object().unwrap().len(), engines, "{v}");
        assert!(v["search"].as_str().unwrap().contains("retrograde search"));
    }
    let v = json_of(&[
        "connect",
        "--cols",
        "7",
        "--rows",
        "6",
        "--estimate",
        "--json",
    ]);
    let explicit = &v["engines"]["explicit"];
    assert!(explicit["bytes_least"].as_u64().unwrap() > 1 << 40, "{v}");
    assert!(
        v["engines"]["symbolic"]["seconds_at_least"]
            .as_f64()
            .unwrap()
            > 3600.0
    );
}

// (issue 73, line 12) the small games' commands estimate too
#[test]
fn every_solving_command_estimates_without_solving() {
    for (args, states) in [
        (&["nim", "--stones", "100", "--estimate", "--json"][..], 101),
        (
            &[
                "can-i-win",
                "--max",
                "20",
                "--total",
                "100",
                "--estimate",
                "--json",
            ][..],
            1 << 20,
        ),
        (&["ends", "--nums", "1,5,2", "--estimate", "--json"][..], 6),
        (
            &[
                "cat-mouse",
                "--graph",
                "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]",
                "--estimate",
                "--json",
            ][..],
            60,
        ),
    ] {
        let v = json_of(args);
        assert_eq!(v["estimate"], true, "{args:?}");
        assert_eq!(v["states"], states, "{args:?}");
        assert!(v["bytes"].as_u64().unwrap() > 0 && v["fits"] == true, "{v}");
    }
    let v = json_of(&[
        "can-i-win",
        "--max",
        "30",
        "--total",
        "300",
        "--estimate",
        "--json",
        "--max-memory",
        "1MiB",
    ]);
    assert_eq!(v["fits"], false, "{v}");
}

/// A symbolic run with `--out` that ended in a refusal or an error left its
/// spill file `.NAME.spill-PID` beside the output (SIGINT removed it; an
/// error exit did not): `connect --cols 6 --rows 4 --out a.rtb
/// --max-memory 50MiB` exited 2 and a 1.6 MB spill stayed.
// issue 86, line 5
#[test]
fn a_symbolic_run_that_fails_leaves_no_spill_file() {
    let dir = scratch_dir("symbolic", "spill-left");
    let out = dir.join("a.rtb");
    let path = out.to_str().unwrap();
    for (case, args) in [
        // the explicit engine hands over to the symbolic one, whose node
        // store fills (the board, a budget that fails fast)
        (
            "handed over, store full",
            &[
                "connect",
                "--cols",
                "6",
                "--rows",
                "4",
                "--max-memory",
                "8MiB",
            ][..],
        ),
        // the node store's budget refused before the first ply
        (
            "memory refused",
            &[
                "connect",
                "--cols",
                "5",
                "--rows",
                "4",
                "--engine",
                "symbolic",
                "--max-memory",
                "2MiB",
            ],
        ),
        // the node store full in the backward pass, diagrams already
        // spilled (367 KB of them before the fix)
        (
            "store full",
            &[
                "connect",
                "--cols",
                "5",
                "--rows",
                "4",
                "--engine",
                "symbolic",
                "--max-memory",
                "10MiB",
            ],
        ),
    ] {
        let run = retrograde(&[args, &["--out", path]].concat());
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{case}: {stderr}");
        assert!(!stderr.contains("panicked"), "{case}: {stderr}");
        let left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        assert!(left.is_empty(), "{case}: left behind: {left:?} ({stderr})");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
