//! `retrograde mnk` and `retrograde verify` as a user meets them.

use crate::common::cli::{json_of, refused, retrograde};

#[test]
fn tic_tac_toe_json_has_every_field() {
    let v = json_of(&["mnk", "--json"]);
    for (key, want) in [
        ("positions", 5478),
        ("terminal", 958),
        ("classes", 765),
        ("terminal_classes", 138),
        ("games", 255_168),
    ] {
        assert_eq!(v[key], want, "{key}");
    }
    assert_eq!(
        (
            v["games_x_wins"].as_u64(),
            v["games_o_wins"].as_u64(),
            v["games_draws"].as_u64()
        ),
        (Some(131_184), Some(77_904), Some(46_080))
    );
    assert_eq!(v["value"], "draw");
    assert_eq!(
        (v["rows"].as_u64(), v["cols"].as_u64(), v["k"].as_u64()),
        (Some(3), Some(3), Some(3))
    );
    let plies = v["per_ply"].as_array().unwrap();
    assert_eq!(plies.len(), 10);
    for key in [
        "ply",
        "positions",
        "terminal",
        "x_wins",
        "o_wins",
        "draws",
        "classes",
        "terminal_classes",
        "x_can_win",
        "o_can_win",
        "neither_can_win",
        "x_can_win_classes",
        "o_can_win_classes",
        "neither_can_win_classes",
    ] {
        assert!(plies[5][key].is_u64(), "per_ply.{key}");
    }
}

#[test]
fn the_human_report_has_the_table_and_the_value() {
    let out = retrograde(&["mnk", "--rows", "3", "--cols", "4", "--k", "3"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("total") && text.contains("first player wins"),
        "{text}"
    );
}

#[test]
fn position_queries_answer_the_leetcode_puzzles() {
    // 1275: X has the diagonal
    let v = json_of(&["mnk", "--board", "XO./OX./..X", "--json"]);
    assert_eq!(
        (
            v["reachable"].as_bool(),
            v["status"].as_str(),
            v["winner"].as_str()
        ),
        (Some(true), Some("won"), Some("X"))
    );
    assert_eq!(
        (v["value"].as_str(), v["depth"].as_u64()),
        (Some("loss"), Some(0))
    );
    assert!(v["moves"].as_array().unwrap().is_empty());
    // 794: O cannot have more stones than X
    let v = json_of(&["mnk", "--board", "O../.../...", "--json"]);
    assert_eq!(v["reachable"], false);
    // 794: play goes on after X won
    let v = json_of(&["mnk", "--board", "XXX/OO./O..", "--json"]);
    assert_eq!(v["reachable"], false);
    // the empty board: a draw, 9 moves, 9 plies
    let v = json_of(&["mnk", "--board", ".../.../...", "--json"]);
    assert_eq!(
        (
            v["status"].as_str(),
            v["to_move"].as_str(),
            v["value"].as_str()
        ),
        (Some("in_progress"), Some("X"), Some("draw"))
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 9);
    // O to move must block: only c1 (column c, row 1) holds the draw
    let v = json_of(&["mnk", "--board", "XX./.O./...", "--json"]);
    assert_eq!(v["to_move"], "O");
    let moves = v["moves"].as_array().unwrap();
    let best: Vec<_> = moves
        .iter()
        .filter(|m| m["best"] == true)
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(best, ["c1"]);
    assert_eq!(v["value"], "draw");
    assert!(moves
        .iter()
        .filter(|m| m["best"] == false)
        .all(|m| m["value"] == "loss"));
}

#[test]
fn bad_boards_and_sizes_are_refused() {
    assert!(refused(&["mnk", "--board", "XO/X"]).contains("row 2"));
    assert!(refused(&["mnk", "--board", "XOZ/.../..."]).contains("'Z'"));
    assert!(refused(&["mnk", "--board", ""]).contains("empty"));
    // a side over 5 is outside the dense engine: refused when it is asked
    // for (auto takes the symbolic engine: tests/cli/symbolic.rs), and a
    // side over 8 is outside every engine
    assert!(refused(&["mnk", "--rows", "6", "--engine", "explicit"]).contains("3 columns × 6 rows"));
    assert!(refused(&["mnk", "--rows", "17"]).contains("17"));
    assert!(refused(&["mnk", "--k", "4"]).contains("k = 4"));
    assert!(refused(&["mnk", "--board", ".../.../...", "--rows", "4"]).contains("--rows"));
}

#[test]
fn boards_over_the_memory_budget_are_refused_with_the_estimate() {
    let err = refused(&[
        "mnk",
        "--rows",
        "4",
        "--cols",
        "4",
        "--k",
        "4",
        "--max-memory",
        "1MiB",
        "--engine",
        "explicit",
    ]);
    assert!(
        err.contains("needs an estimated") && err.contains("MiB") && err.contains("1.0 MiB"),
        "{err}"
    );
    let err = refused(&[
        "mnk",
        "--rows",
        "5",
        "--cols",
        "5",
        "--k",
        "4",
        "--max-memory",
        "16GiB",
        "--engine",
        "explicit",
    ]);
    assert!(err.contains("GiB"), "{err}");
}

#[test]
fn verify_agrees_with_every_published_figure_it_reaches() {
    // A short budget per search case and a memory budget that leaves out
    // Connect Four 5×5's 70 M positions: the slow cases report "not reached".
    let out = retrograde(&["verify", "--case-seconds", "2", "--max-memory", "256MiB"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("all figures reached agree") && !text.contains('✗'),
        "{text}"
    );
    assert!(
        text.lines().filter(|l| l.contains('✓')).count() >= 25,
        "{text}"
    );
    for case in [
        "Connect Four 4×4 positions",
        "Connect Four 5×4 positions",
        "Connect Four 6×4 value",
        "Connect Four 4×7 value",
        "Connect Four 4×8 value",
        "5,4,4 value",
        "8,8,8 value (pairing certificate)",
        "9,9,9 value (pairing certificate)",
        "15,15,9 value (pairing certificate)",
        "6,6,4 value (win certificate)",
        "7,5,4 value (win certificate)",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(case) && l.contains('✓')),
            "{case}: {text}"
        );
    }
    // every Connect Four board with width + height ≤ 13 is a case, with
    // its published value and game-end move
    for (case, published) in [
        ("Connect Four 9×4 value", "second (36)"),
        ("Connect Four 8×5 value", "first (39)"),
        ("Connect Four 6×7 value", "first (41)"),
        ("Connect Four 5×8 value", "draw (40)"),
        ("Connect Four 4×9 value", "draw (36)"),
        ("Connect Four 4×8 value", "draw (32)"),
    ] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(case) && l.contains(published)),
            "{case}: {text}"
        );
    }
    let boards = text
        .lines()
        .filter(|l| l.starts_with("Connect Four") && l.contains(" value"))
        .count();
    assert_eq!(boards, 21, "{text}");
    // 9,4,4 and 10,4,4 take the win prover more than this run's 2 s a
    // case (about 85 s and 65 s with the default budget): rows all the same
    for case in [
        "9,4,4 value (win certificate)",
        "10,4,4 value (win certificate)",
    ] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(case) && l.contains("first")),
            "{case}: {text}"
        );
    }
}
