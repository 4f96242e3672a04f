//! One product: every board game answers a position the same way, from a
//! fresh solve, a saved table and a search; every printed move is accepted
//! back by `--moves` and by `play`; every game answers every verb of the
//! README's table.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::cli::{json_of, play_with, refused, retrograde, scratch_dir};

/// The keys every position answer has.
const ANSWER_KEYS: [&str; 7] = [
    "position", "to_move", "status", "value", "depth", "moves", "status",
];

fn answer_part(v: &Value, gravity: bool) -> Value {
    let mut keys: Vec<&str> = ANSWER_KEYS.to_vec();
    if gravity {
        keys.push("score");
    }
    keys.iter()
        .map(|k| (k.to_string(), v[*k].clone()))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// Runs `play ARGS` with `input` typed in; returns what it printed.
fn play(args: &[&str], input: &str) -> String {
    play_with(&[&["play"], args].concat(), input)
}

#[test]
fn connect_answers_agree_from_solve_table_and_search() {
    let dir = scratch_dir("position", "agree-connect");
    let table = dir.join("c54.rtb");
    let t = table.to_str().unwrap();
    let solved = json_of(&[
        "connect", "--cols", "5", "--rows", "4", "--moves", "4453", "--json", "--out", t,
    ]);
    let loaded = json_of(&["query", t, "--moves", "4453", "--json"]);
    let searched = json_of(&[
        "search",
        "connect",
        "--cols",
        "5",
        "--rows",
        "4",
        "--moves",
        "4453",
        "--json",
        "--all-moves",
    ]);
    let (a, b, c) = (
        answer_part(&solved, true),
        answer_part(&loaded, true),
        answer_part(&searched, true),
    );
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert_eq!(solved["value"], "loss");
    assert_eq!(solved["depth"], 16);
    assert_eq!(solved["score"], -1);
    assert_eq!(solved["moves"].as_array().unwrap().len(), 5);
    assert_eq!(loaded["loaded"], true);
    // the short form agrees too, and a diagram names the same position
    let short = json_of(&[
        "connect",
        "--cols",
        "5",
        "--rows",
        "4",
        "--board",
        solved["position"].as_str().unwrap(),
        "--search",
        "--json",
    ]);
    assert_eq!(answer_part(&short, true), a);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn mnk_answers_agree_from_solve_table_and_search() {
    let dir = scratch_dir("position", "agree-mnk");
    let table = dir.join("t.rtb");
    let t = table.to_str().unwrap();
    for moves in ["", "b2", "b2 a1", "a1 b2 c3", "b2 a1 c1 a3"] {
        let solved = json_of(&["mnk", "--moves", moves, "--json", "--out", t]);
        let loaded = json_of(&["query", t, "--moves", moves, "--json"]);
        let searched = json_of(&["search", "mnk", "--moves", moves, "--json", "--all-moves"]);
        assert_eq!(
            answer_part(&solved, false),
            answer_part(&loaded, false),
            "{moves}"
        );
        assert_eq!(
            answer_part(&solved, false),
            answer_part(&searched, false),
            "{moves}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// Walks positions breadth-first from the empty board (up to `limit`),
/// checking each answer's moves: each is accepted by `--moves` and by
/// `play` as printed, and a best move leads to a position of the flipped
/// value, one ply shallower.
fn round_trip(game: &[&str], limit: usize) {
    let flip = |v: &str| match v {
        "win" => "loss",
        "loss" => "win",
        _ => "draw",
    };
    let mut queue = vec![String::new()];
    let mut seen = 0;
    while let Some(moves) = queue.pop() {
        if seen == limit {
            break;
        }
        seen += 1;
        let mut args: Vec<&str> = game.to_vec();
        args.extend(["--moves", &moves, "--json"]);
        let a = json_of(&args);
        let human = String::from_utf8(retrograde(&args[..args.len() - 1]).stdout).unwrap();
        for m in a["moves"].as_array().unwrap() {
            let notation = m["move"].as_str().unwrap();
            assert!(
                human.contains(&format!(" {notation} ")),
                "{moves}: {notation} in {human}"
            );
            let next = format!("{moves} {notation}").trim().to_string();
            let mut child_args: Vec<&str> = game.to_vec();
            child_args.extend(["--moves", &next, "--json"]);
            let child = json_of(&child_args);
            if m["best"] == true {
                assert_eq!(child["value"], flip(a["value"].as_str().unwrap()), "{next}");
                assert_eq!(
                    child["depth"].as_u64().unwrap() + 1,
                    a["depth"].as_u64().unwrap(),
                    "{next}"
                );
            }
            if child["status"] == "in_progress" && queue.len() < limit {
                queue.insert(0, next);
            }
        }
        // play accepts the first printed move as it is (the human moves first)
        if let Some(first) = a["moves"].as_array().unwrap().first() {
            let mut play_args: Vec<&str> = vec![game[0]];
            play_args.extend(&game[1..game.len()]);
            play_args.extend(["--moves", &moves, "--human", a["to_move"].as_str().unwrap()]);
            let play_args: Vec<String> = play_args.iter().map(|s| s.to_lowercase()).collect();
            let play_args: Vec<&str> = play_args.iter().map(String::as_str).collect();
            let out = play(
                &play_args,
                &format!("{}\n", first["move"].as_str().unwrap()),
            );
            assert!(
                !out.contains("not a move")
                    && !out.contains("off the board")
                    && !out.contains("taken"),
                "{out}"
            );
        }
    }
}

#[test]
fn printed_moves_are_accepted_back_and_best_moves_flip_the_value() {
    round_trip(&["mnk"], 12);
    round_trip(&["connect", "--cols", "4", "--rows", "4"], 12);
}

#[test]
fn play_answers_on_gravity_boards_and_saved_tables() {
    let out = play(
        &["connect", "--cols", "4", "--rows", "4", "--human", "o"],
        "1\n1\n1\n1\n2\n2\n2\n2\n3\n3\n3\n3\n4\n4\n4\n4\n",
    );
    assert!(out.contains("X plays"), "{out}");
    assert!(out.contains("result: "), "{out}");
    let dir = scratch_dir("position", "play-table");
    let table = dir.join("c44.rtb");
    json_of(&["connect", "--out", table.to_str().unwrap(), "--json"]);
    let out = play(&[table.to_str().unwrap(), "--moves", "1 2"], "5\n3\n");
    assert!(out.contains("off the board"), "{out}");
    assert!(out.contains("X to move"), "{out}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn every_game_saves_and_queries_its_table() {
    let dir = scratch_dir("position", "verbs");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, Vec<&str>, &str)> = vec![
        (
            vec!["nim".into(), "--stones".into(), "40".into()],
            vec!["--stones", "12"],
            "first_player_wins",
        ),
        (
            vec![
                "can-i-win".into(),
                "--max".into(),
                "10".into(),
                "--total".into(),
                "11".into(),
            ],
            vec!["--used", "1,2"],
            "mover_wins",
        ),
        (
            vec!["ends".into(), "--nums".into(), "1,5,233,7".into()],
            vec!["--from", "2", "--to", "3"],
            "interval",
        ),
        (
            vec![
                "cat-mouse".into(),
                "--graph".into(),
                "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]".into(),
            ],
            vec!["--mouse", "3", "--cat", "4"],
            "outcome",
        ),
        (
            vec![
                "cat-mouse-grid".into(),
                "--grid".into(),
                "M.C...F".into(),
                "--cat-jump".into(),
                "1".into(),
                "--mouse-jump".into(),
                "4".into(),
            ],
            vec!["--max-moves", "20"],
            "mouse_can_win",
        ),
        (vec!["mnk".into()], vec!["--board", "X../.O./..."], "moves"),
        (vec!["connect".into()], vec!["--moves", "12"], "score"),
    ];
    for (solve, position, key) in cases {
        let file = path(&format!("{}.rtb", solve[0]));
        let mut args: Vec<&str> = solve.iter().map(String::as_str).collect();
        args.extend(["--out", &file, "--json"]);
        json_of(&args);
        let mut query = vec!["query", file.as_str()];
        query.extend(&position);
        query.push("--json");
        let answer = json_of(&query);
        assert!(answer.get(key).is_some(), "{solve:?}: {answer}");
        let info = json_of(&["query", &file, "--check", "--json"]);
        assert_eq!(info["game"], solve[0].as_str());
        // another game's position option is refused with one line
        let wrong = if solve[0] == "nim" {
            "--used"
        } else {
            "--stones"
        };
        let value = if wrong == "--used" { "1" } else { "3" };
        refused(&["query", &file, wrong, value]);
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn search_stops_at_its_time_limit_with_exit_3() {
    // the empty 8 × 7 board: no book, hours of search
    let out = retrograde(&[
        "search",
        "connect",
        "--cols",
        "8",
        "--rows",
        "7",
        "--time-limit",
        "0.2",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("not reached"), "{text}");
    refused(&["search", "connect", "--time-limit", "-1"]);
    refused(&["search", "connect", "--time-limit", "NaN"]);
}

#[test]
fn bad_positions_get_one_line_and_exit_2() {
    for args in [
        vec!["connect", "--moves", "4456"],
        vec!["connect", "--moves", "11111"],
        vec!["connect", "--board", "X.../..../..../...."],
        vec!["connect", "--board", "..../..../O.../O..."],
        vec!["mnk", "--moves", "b2 b2"],
        vec!["mnk", "--moves", "a1 b1 a2 b2 a3 b3"],
        vec!["mnk", "--moves", "z9"],
        vec!["search", "mnk", "--board", "XO/X"],
        vec![
            "search", "connect", "--cols", "5", "--rows", "4", "--moves", "66",
        ],
        vec!["mnk", "--cols", "4", "--board", "X../.../..."],
    ] {
        refused(&args);
    }
}

#[test]
fn unreachable_mnk_boards_answer_reachable_false() {
    let a = json_of(&["mnk", "--board", "XXX/OOO/...", "--json"]);
    assert_eq!(a["reachable"], false);
    assert_eq!(a["value"], Value::Null);
    let won = json_of(&["mnk", "--board", "XXX/OO./...", "--json"]);
    assert_eq!(
        (won["status"].as_str(), won["winner"].as_str()),
        (Some("won"), Some("X"))
    );
    assert_eq!(
        (won["value"].as_str(), won["depth"].as_u64()),
        (Some("loss"), Some(0))
    );
}

#[test]
fn fail_fast_before_solving() {
    let clock = Instant::now();
    let line = refused(&[
        "connect",
        "--cols",
        "5",
        "--rows",
        "5",
        "--out",
        "/nonexistent-dir/x.rtb",
    ]);
    assert!(line.contains("does not exist"), "{line}");
    assert!(clock.elapsed() < Duration::from_secs(1));
    let clock = Instant::now();
    let line = refused(&["connect", "--cols", "7", "--rows", "6"]);
    assert!(line.contains("projected"), "{line}");
    assert!(!line.contains("raise it"), "{line}");
    assert!(clock.elapsed() < Duration::from_secs(10));
}

#[test]
fn query_says_loaded_not_solved() {
    let dir = scratch_dir("position", "loaded");
    let table = dir.join("t.rtb");
    json_of(&["mnk", "--out", table.to_str().unwrap(), "--json"]);
    let out = String::from_utf8(retrograde(&["query", table.to_str().unwrap()]).stdout).unwrap();
    assert!(out.contains("loaded in"), "{out}");
    assert!(!out.contains("solved in"), "{out}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_solving_commands_answer_their_positions_too() {
    let v = json_of(&[
        "can-i-win",
        "--max",
        "10",
        "--total",
        "11",
        "--used",
        "1,2",
        "--json",
    ]);
    assert_eq!(v["first_player_wins"], false);
    assert!(v["mover_wins"].is_boolean());
    refused(&["can-i-win", "--max", "10", "--total", "11", "--used", "11"]);
    refused(&["can-i-win", "--max", "10", "--total", "11", "--used", "2,2"]);
    let v = json_of(&[
        "ends",
        "--nums",
        "1,5,233,7",
        "--from",
        "2",
        "--to",
        "3",
        "--json",
    ]);
    // 5 and 233: the mover takes 233 and leads by 228
    assert_eq!(v["interval"]["lead"], 228);
    assert_eq!(v["interval"]["best_end"], "right");
    refused(&["ends", "--nums", "1,5", "--from", "2", "--to", "3"]);
    let grid = [
        "cat-mouse-grid",
        "--grid",
        "M.C...F",
        "--cat-jump",
        "1",
        "--mouse-jump",
        "4",
    ];
    let start = json_of(&[&grid[..], &["--json"]].concat());
    let same = json_of(&[&grid[..], &["--mouse", "1,1", "--cat", "1,3", "--json"]].concat());
    assert_eq!(start["mouse_can_win"], same["mouse_can_win"]);
    assert_eq!(start["depth"], same["depth"]);
    refused(&[&grid[..], &["--mouse", "0,0", "--cat", "1,3"]].concat());
    refused(&[&grid[..], &["--mouse", "1,1"]].concat());
}

#[test]
fn play_past_64_cells_goes_by_the_threat_prover() {
    let words = |line: &'static str| line.split_whitespace().collect::<Vec<_>>();
    // 9 × 9, k = 5: X's open four on row 5, the human O to move; a bad
    // line and a taken cell get a message, then X completes a line
    let game = play(
        &words(
            "mnk --cols 9 --rows 9 --k 5 --moves c5,a1,d5,a2,e5,a3,f5 --human o --move-seconds 20",
        ),
        "zz\nc5\ni9\n",
    );
    assert!(
        game.contains("O to move: loss for O under perfect play"),
        "{game}"
    );
    assert!(game.contains("\"zz\" is not a move"), "{game}");
    assert!(game.contains("c5 is taken"), "{game}");
    let completes = game.contains("X plays b5") || game.contains("X plays g5");
    assert!(completes && game.ends_with("result: X wins\n"), "{game}");
    // gomoku: an unproved position gets the move nearest the centre, said so
    let opening = play(
        &words("mnk --cols 15 --rows 15 --k 5 --human o --move-seconds 0.5"),
        "",
    );
    assert!(opening.contains("X plays h8 (not proved"), "{opening}");
    let err = refused(&words("play mnk --cols 15 --rows 15 --out x.rtb"));
    assert!(err.contains("drop --out"), "{err}");
}
