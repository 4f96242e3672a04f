//! `query FILE --positions`: every line of a file answered from a table,
//! each answer equal to `query FILE --moves` for the same line; bad lines
//! answered in their place and exit code 2; other tables refused.

use serde_json::Value;

use crate::common::cli::{json_of, refused, retrograde, scratch_dir};

/// Writes `lines` to `name` in `dir` and returns its path as a string.
fn input(dir: &std::path::Path, name: &str, lines: &[&str]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.display().to_string()
}

#[test]
fn every_line_answers_as_query_moves_does() {
    let dir = scratch_dir("query-positions", "same");
    for (game, size, lines) in [
        (
            "connect",
            ["--cols", "4", "--rows", "4"],
            vec!["", "1", "2 3", "1 1 2 2 3", "4 4 4 1 3 3"],
        ),
        (
            "mnk",
            ["--cols", "3", "--rows", "3"],
            vec!["", "b2", "a1 b2 c3", "a1 a2 b1 b2"],
        ),
    ] {
        let table = dir.join(format!("{game}.rgt")).display().to_string();
        let mut args = vec![game];
        args.extend(size);
        args.extend(["--out", &table, "--quiet"]);
        assert!(retrograde(&args).status.success());
        let file = input(&dir, &format!("{game}.txt"), &lines);
        let out = retrograde(&["query", &table, "--positions", &file, "--json"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let answers: Vec<Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), lines.len());
        for (line, mut got) in lines.iter().zip(answers) {
            assert_eq!(got["moves_played"], Value::from(*line));
            got.as_object_mut().unwrap().remove("moves_played");
            let mut one = json_of(&["query", &table, "--moves", line, "--json"]);
            // the single answer carries its timing keys
            one.as_object_mut()
                .unwrap()
                .retain(|k, _| got.as_object().unwrap().contains_key(k));
            assert_eq!(got, one, "{game} {line:?}");
        }
    }
}

#[test]
fn bad_lines_are_answered_in_place_with_exit_2() {
    let dir = scratch_dir("query-positions", "bad");
    let table = dir.join("c.rgt").display().to_string();
    assert!(
        retrograde(&["connect", "--cols", "4", "--rows", "4", "--out", &table, "--quiet"])
            .status
            .success()
    );
    let file = input(&dir, "in.txt", &["1", "1 1 1 1 1", "x", "2"]);
    let out = retrograde(&["query", &table, "--positions", &file, "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0]["value"].is_string());
    assert!(lines[1]["error"].as_str().unwrap().contains("line 2"));
    assert!(lines[2]["error"].as_str().unwrap().contains("line 3"));
    assert!(lines[3]["value"].is_string());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("2 bad lines of 4"), "{stderr}");
}

#[test]
fn a_table_without_board_positions_refuses_positions() {
    let dir = scratch_dir("query-positions", "nim");
    let table = dir.join("nim.rgt").display().to_string();
    assert!(
        retrograde(&["nim", "--stones", "10", "--out", &table, "--quiet"])
            .status
            .success()
    );
    let file = input(&dir, "in.txt", &["1"]);
    let message = refused(&["query", &table, "--positions", &file]);
    assert!(message.contains("--positions"), "{message}");
    let missing = refused(&["query", &table, "--positions", "/nonexistent/file"]);
    assert!(!missing.is_empty());
}
