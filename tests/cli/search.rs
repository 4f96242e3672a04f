//! `retrograde search`: one best move by default and every move with
//! `--all-moves`, each checked against the exhaustive table's answer; the
//! batch mode `--positions` (a file or standard input) answering every
//! line in order as a single search would, with clear refusals and a clean
//! stop at each line's time limit (the streaming itself:
//! `tests/search/batch.rs`).

use serde_json::{json, Value};

use crate::common::cli::{json_of, refused, retrograde, run_within};

/// The table's answer for a 5 × 4 Connect Four position.
fn table_answer(moves: &str) -> Value {
    json_of(&[
        "connect", "--cols", "5", "--rows", "4", "--moves", moves, "--json",
    ])
}

/// The arguments of `search connect` on the 5 × 4 board, then `extra`.
fn search_5x4<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["search", "connect", "--cols", "5", "--rows", "4"];
    args.extend_from_slice(extra);
    args
}

/// The moves of an answer marked best.
fn best_moves(answer: &Value) -> Vec<String> {
    answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["best"] == true)
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

const POSITIONS: [&str; 6] = ["", "4453", "3", "33", "1234", "444455"];

#[test]
fn the_default_answer_names_one_best_move_of_the_table() {
    for moves in POSITIONS {
        let table = table_answer(moves);
        for weak in [false, true] {
            let mut args = search_5x4(&["--moves", moves, "--json"]);
            if weak {
                args.push("--weak");
            }
            let searched = json_of(&args);
            assert_eq!(searched["value"], table["value"], "{moves}");
            let listed = searched["moves"].as_array().unwrap();
            assert_eq!(listed.len(), 1, "{moves}: one move");
            assert_eq!(listed[0]["best"], true);
            let best = listed[0]["move"].as_str().unwrap().to_string();
            if weak {
                assert_eq!(searched["depth"], Value::Null);
                // a weak best move keeps the value, at any depth
                let kept = table["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|m| m["move"] == best.as_str() && m["value"] == table["value"]);
                assert!(kept, "{moves}: weak best {best}");
            } else {
                assert_eq!(searched["depth"], table["depth"], "{moves}");
                assert_eq!(searched["score"], table["score"], "{moves}");
                assert!(best_moves(&table).contains(&best), "{moves}: best {best}");
            }
        }
    }
    // an m,n,k board too: the 3 × 3 table's best moves
    for moves in ["", "b2", "a1 b2", "a1 b2 c3"] {
        let table = json_of(&["mnk", "--moves", moves, "--json"]);
        let searched = json_of(&["search", "mnk", "--moves", moves, "--json"]);
        assert_eq!(searched["depth"], table["depth"], "{moves}");
        let best = searched["moves"][0]["move"].as_str().unwrap().to_string();
        assert!(best_moves(&table).contains(&best), "{moves}: best {best}");
    }
}

#[test]
fn all_moves_lists_every_move_as_the_table_does() {
    for moves in POSITIONS {
        let table = table_answer(moves);
        let searched = json_of(&search_5x4(&["--moves", moves, "--json", "--all-moves"]));
        assert_eq!(searched["moves"], table["moves"], "{moves}");
    }
}

/// The lines of a batch's JSON output.
fn json_lines(text: &[u8]) -> Vec<Value> {
    String::from_utf8(text.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_batch_answers_every_line_in_order_as_single_searches_do() {
    let dir = std::env::temp_dir().join(format!("retrograde-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("positions.txt");
    let input = POSITIONS.join("\n") + "\n";
    std::fs::write(&file, &input).unwrap();
    let from_file = retrograde(&search_5x4(&[
        "--positions",
        file.to_str().unwrap(),
        "--json",
        "--threads",
        "4",
    ]));
    assert!(from_file.status.success());
    let (code, from_stdin, _) = run_within(
        &search_5x4(&["--positions", "-", "--json", "--threads", "1"]),
        60,
        Some(input.as_bytes()),
    );
    assert_eq!(code, Some(0));
    let (a, b) = (json_lines(&from_file.stdout), json_lines(&from_stdin));
    assert_eq!(a.len(), POSITIONS.len());
    assert_eq!(b.len(), POSITIONS.len());
    for (i, moves) in POSITIONS.iter().enumerate() {
        let single = json_of(&search_5x4(&["--moves", moves, "--json"]));
        for batch in [&a[i], &b[i]] {
            assert_eq!(batch["moves_played"], *moves);
            for key in ["position", "value", "depth", "score"] {
                assert_eq!(batch[key], single[key], "line {}: {key}", i + 1);
            }
            // with several best moves, which one a search names may
            // depend on the thread count: each is one of the table's
            let best = batch["moves"][0]["move"].as_str().unwrap().to_string();
            assert!(
                best_moves(&table_answer(moves)).contains(&best),
                "line {}",
                i + 1
            );
            assert!(batch["nodes"].as_u64().is_some());
        }
    }
    // the human form: one line per position, then the summary
    let human = retrograde(&search_5x4(&["--positions", file.to_str().unwrap()]));
    let text = String::from_utf8(human.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), POSITIONS.len() + 1, "{text}");
    assert!(lines[0].starts_with("(empty): draw in 20 plies, score 0, best "));
    assert!(lines[1].starts_with("4453: loss in 16 plies, score -1, best "));
    assert!(lines[6].starts_with("searched 6 positions"));
    std::fs::remove_dir_all(dir).unwrap();
}

/// A missing input or a position given twice is refused before any
/// search (a bad line is answered in its place: `tests/search/batch.rs`).
#[test]
fn a_missing_batch_input_is_refused_before_any_search() {
    let missing = refused(&[
        "search",
        "connect",
        "--positions",
        "/nonexistent/positions.txt",
    ]);
    assert!(missing.contains("/nonexistent/positions.txt"), "{missing}");
    let directory = refused(&["search", "connect", "--positions", "/"]);
    assert!(directory.contains("not a regular file"), "{directory}");
    refused(&["search", "connect", "--positions", "-", "--moves", "4"]);
}

#[test]
fn a_batch_stops_at_its_time_limit_with_exit_3() {
    // the empty 7 × 6 board and the board after one stone are each far
    // beyond their 0.3 s
    let (code, stdout, _) = run_within(
        &[
            "search",
            "connect",
            "--positions",
            "-",
            "--no-book",
            "--time-limit",
            "0.3",
            "--json",
        ],
        30,
        Some(b"\n4\n"),
    );
    assert_eq!(code, Some(3));
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l["not_reached"] == true));
}

/// The words of `line` as arguments (moves joined by commas).
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// `search mnk` on gomoku's 15 × 15 with `moves`: the JSON answer.
fn gomoku(moves: &str, extra: &str) -> Value {
    let line = format!("search mnk --cols 15 --rows 15 --k 5 --json -q --moves {moves} {extra}");
    json_of(&words(&line))
}

#[test]
fn a_position_past_64_cells_is_answered_by_the_threat_prover() {
    // X's open four on row 8 (h8 … k8), X to move: it completes a line
    let four = gomoku("h8,a1,i8,a2,j8,a3,k8,a15", "");
    assert_eq!(
        (four["to_move"].as_str(), four["value"].as_str()),
        (Some("X"), Some("win"))
    );
    let best = best_moves(&four);
    assert!(best == ["g8"] || best == ["l8"], "{four}");
    // the answer's fields are every position answer's
    assert_eq!(four["status"], "in_progress", "{four}");
    assert_eq!(four["reachable"], true, "{four}");
    assert!(four.get("winner").is_none(), "{four}");
    let over = gomoku(&format!("h8,a1,i8,a2,j8,a3,k8,a15,{}", best[0]), "");
    assert_eq!(over["value"], "loss", "{over}");
    assert_eq!(
        (&over["status"], &over["winner"], &over["depth"]),
        (&json!("won"), &json!("X"), &json!(0)),
        "{over}"
    );
    // O to move against it: every move loses
    let facing = gomoku("h8,a1,i8,a2,j8,a3,k8", "");
    assert_eq!(
        (facing["to_move"].as_str(), facing["value"].as_str()),
        (Some("O"), Some("loss"))
    );
    // a win by threats, and after its best move a loss for the other side
    let win = gomoku("h8,a1,i9,a15", "--time-limit 120");
    assert_eq!(win["value"], "win", "{win}");
    let best = best_moves(&win);
    assert_eq!(best.len(), 1, "{win}");
    let after = gomoku(&format!("h8,a1,i9,a15,{}", best[0]), "--time-limit 120");
    assert_eq!(after["value"], "loss", "{after}");
}

#[test]
fn every_move_past_64_cells_gets_its_value_and_an_open_one_exits_3() {
    // 9 × 9, k = 5: X's open four on row 5, O to move; every move loses
    let all = json_of(&words(
        "search mnk --cols 9 --rows 9 --k 5 --json -q --all-moves --time-limit 60 --moves c5,a1,d5,a2,e5,a3,f5",
    ));
    let moves = all["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 81 - 7);
    assert!(moves.iter().all(|m| m["value"] == "loss"), "{all}");
    assert_eq!(all["value"], "loss");
    // from 1.h8 nothing is proved in a second: exit 3, no value
    let gomoku_search = "search mnk --cols 15 --rows 15 --k 5";
    let out = retrograde(&words(&format!(
        "{gomoku_search} --json -q --moves h8 --time-limit 1"
    )));
    assert_eq!(out.status.code(), Some(3));
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(answer["value"].is_null(), "{answer}");
    // (issue 74, line 3) one position language to 256 cells: a diagram
    // is the position its moves give; a taken cell is refused
    let mut rows = vec![".".repeat(15); 15];
    rows[7].replace_range(7..8, "X");
    let diagram = rows.join("/");
    let by_board = retrograde(&words(&format!(
        "{gomoku_search} --json -q --board {diagram} --time-limit 1"
    )));
    let by_board: Value = serde_json::from_slice(&by_board.stdout).unwrap();
    assert_eq!(by_board["position"], answer["position"], "{by_board}");
    assert_eq!(by_board["method"], "threats", "{by_board}");
    let err = refused(&words(&format!("{gomoku_search} --moves h8,h8")));
    assert!(err.contains("h8 is taken"), "{err}");
}

// (issue 73, line 9) `--time-limit -1` was clap's "unexpected argument",
// and 1e309 was echoed as "inf"
#[test]
fn seconds_negative_infinite_or_not_numbers_are_refused_for_what_they_are() {
    for (args, says) in [
        (&["search", "connect", "--time-limit", "-1"][..], "above 0"),
        (
            &["search", "connect", "--time-limit", "1e309"][..],
            "not a finite",
        ),
        (
            &["search", "connect", "--time-limit", "NaN"][..],
            "not a finite",
        ),
        (&["search", "connect", "--time-limit", "0"][..], "above 0"),
        (
            &["search", "connect", "--time-limit", "two"][..],
            "not a number",
        ),
        (&["prove", "mnk", "--time-limit", "-3"][..], "above 0"),
        (&["play", "connect", "--move-seconds", "-2"][..], "above 0"),
        (&["verify", "--case-seconds", "inf"][..], "not a finite"),
    ] {
        let err = refused(args);
        assert!(
            err.contains(says)
                && !err.contains("unexpected argument")
                && (args.last() != Some(&"1e309") || !err.contains("inf")),
            "{args:?}: {err}"
        );
    }
}

// (issue 73, line 16) a refusal blamed a --cols never given, a gravity
// board got m,n,k advice, and a count said "solved in"
#[test]
fn messages_name_what_was_given_and_what_was_done() {
    let dir = std::env::temp_dir().join(format!("retrograde-messages-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("c54.rtb");
    let t = table.to_str().unwrap();
    let out = retrograde(&["connect", "--cols", "5", "--rows", "4", "-q", "--out", t]);
    assert!(out.status.success());
    let err = refused(&["query", t, "--board", "XX"]);
    assert!(
        !err.contains("--cols")
            && err.contains("2 columns × 1 row,")
            && err.contains("5 columns × 4 rows"),
        "{err}"
    );
    let err = refused(&["search", "connect", "--cols", "17", "--rows", "2"]);
    assert!(!err.contains("mnk"), "{err}");
    let out = retrograde(&[
        "connect",
        "--cols",
        "4",
        "--rows",
        "4",
        "--engine",
        "symbolic",
        "--count-only",
        "-q",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("counted in") && !text.contains("solved in"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// (issue 73, line 15) prove printed "1 positions" and counts ungrouped
#[test]
fn prove_groups_its_counts_and_says_one_position() {
    let out = retrograde(&["prove", "mnk", "--cols", "4", "--rows", "4", "--k", "3"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("(1 position visited"), "{text}");
    let out = retrograde(&["prove", "mnk", "--cols", "4", "--rows", "5", "--k", "4"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let digits_run = text
        .split(|c: char| !c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0);
    assert!(digits_run <= 4 || text.contains(','), "{text}");
}

/// `connect --search` is short for `search connect` and takes the boards
/// the search takes: an 8×8 position (four cells left) was refused by the
/// tables' board check ("does not fit") before the search was asked.
// issue 26, line 7
#[test]
fn connect_search_takes_the_boards_search_takes() {
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

/// The shortcut takes every flag of the command it stands for, one set
/// written once: `connect --search --time-limit 20` was refused
/// ("unexpected argument"), though the shortcut's own note named the flag.
/// Without `--search` a search's flag is refused in one line.
// issue 88, "two spellings of one thing"
#[test]
fn connect_search_takes_every_flag_of_search_connect() {
    let moves = "3 3 3 3 2";
    let short = json_of(&[
        "connect",
        "--cols",
        "5",
        "--rows",
        "4",
        "--search",
        "--moves",
        moves,
        "--time-limit",
        "20",
        "--weak",
        "--json",
    ]);
    let long = json_of(&search_5x4(&[
        "--moves",
        moves,
        "--time-limit",
        "20",
        "--weak",
        "--all-moves",
        "--json",
    ]));
    for key in ["value", "depth", "moves"] {
        assert_eq!(short[key], long[key], "{key}: {short} against {long}");
    }
    // --weak reached the search: a value without a depth
    assert!(short["depth"].is_null(), "{short}");
    for flag in [&["--time-limit", "5"][..], &["--weak"], &["--no-book"]] {
        let mut args = vec!["connect", "--cols", "5", "--rows", "4", "--moves", moves];
        args.extend_from_slice(flag);
        let err = refused(&args);
        assert!(err.contains(flag[0]) && err.contains("--search"), "{err}");
    }
}
