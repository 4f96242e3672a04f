//! The command line as a user meets it: answers, JSON, and bad input that
//! gets one clear line on stderr and exit code 2, never a panic.

use std::process::{Command, Stdio};

use crate::common::cli::{json_of, refused, retrograde};

const EXAMPLE_1: &str = "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]";

#[test]
fn json_answers_the_leetcode_examples() {
    let v = json_of(&["cat-mouse", "--graph", EXAMPLE_1, "--json"]);
    assert_eq!(v["states"], 60);
    assert_eq!(v["code"], 0);
    assert_eq!(v["outcome"], "draw");
    assert!(v["depth"].is_null());
    assert_eq!(
        v["mouse_wins"].as_u64().unwrap()
            + v["cat_wins"].as_u64().unwrap()
            + v["draws"].as_u64().unwrap(),
        60
    );
    let v = json_of(&[
        "cat-mouse",
        "--graph",
        "[[1,3],[0],[3],[0,2]]",
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(
        (v["code"].as_u64(), v["outcome"].as_str()),
        (Some(1), Some("mouse"))
    );
    assert_eq!(v["depth"], 1);
}

#[test]
fn another_start_can_be_asked() {
    // The mouse on node 3, next to the hole, with the cat to move on node 4.
    let v = json_of(&[
        "cat-mouse",
        "--graph",
        EXAMPLE_1,
        "--mouse",
        "3",
        "--cat",
        "4",
        "--turn",
        "cat",
        "--json",
    ]);
    assert_eq!(v["start"]["turn"], "cat");
    assert!(v["code"].is_u64());
    // The mouse already in the hole: over before it starts.
    let v = json_of(&["cat-mouse", "--graph", EXAMPLE_1, "--mouse", "0", "--json"]);
    assert_eq!(
        (v["code"].as_u64(), v["depth"].as_u64()),
        (Some(1), Some(0))
    );
}

#[test]
fn the_human_report_gives_the_answer_and_the_counts() {
    let out = retrograde(&["cat-mouse", "--graph", EXAMPLE_1]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("answer      0 (draw)"), "{text}");
    assert!(text.contains("60 states"), "{text}");
    assert!(text.contains("states/s"), "{text}");
}

#[test]
fn bad_graphs_get_one_line_and_exit_2() {
    assert!(refused(&["cat-mouse", "--graph", "[[1,2"]).contains("not JSON"));
    assert!(refused(&["cat-mouse", "--graph", "[[1.5],[0],[0]]"]).contains("not JSON"));
    assert!(refused(&["cat-mouse", "--graph", "{\"a\":1}"]).contains("not JSON"));
    assert!(refused(&["cat-mouse", "--graph", "[[1],[0]]"]).contains("at least 3"));
    assert!(refused(&["cat-mouse", "--graph", "[[1],[5],[0]]"]).contains("graph[1] lists node 5"));
    assert!(refused(&["cat-mouse", "--graph", "[[1],[-1],[0]]"]).contains("graph[1] lists node -1"));
    assert!(
        refused(&["cat-mouse", "--graph-file", "/nonexistent/graph.json"]).contains("cannot read")
    );
    refused(&["cat-mouse"]);
    refused(&["cat-mouse", "--graph", EXAMPLE_1, "--graph-file", "x.json"]);
}

#[test]
fn bad_starts_and_options_get_one_line_and_exit_2() {
    assert!(refused(&["cat-mouse", "--graph", EXAMPLE_1, "--mouse", "6"]).contains("out of range"));
    assert!(
        refused(&["cat-mouse", "--graph", EXAMPLE_1, "--mouse", "-1"]).contains("out of range")
    );
    assert!(refused(&["cat-mouse", "--graph", EXAMPLE_1, "--cat", "0"]).contains("hole"));
    assert!(refused(&["cat-mouse", "--graph", EXAMPLE_1, "--cat", "9"]).contains("out of range"));
    assert!(refused(&["cat-mouse", "--graph", EXAMPLE_1, "--turn", "dog"]).contains("dog"));
    assert!(refused(&["cat-mouse", "--graph", EXAMPLE_1, "--threads", "0"]).contains("threads"));
    refused(&["cat-mouse", "--graph", EXAMPLE_1, "--max-memory", "lots"]);
}

#[test]
fn a_solve_over_the_memory_budget_is_refused_with_the_estimate() {
    let err = refused(&["cat-mouse", "--graph", EXAMPLE_1, "--max-memory", "100B"]);
    assert!(
        // 796 B of tables, 216 B of graph structures, 200 B of the saved description
        err.contains("estimated 1.2 KiB") && err.contains("budget of 100 B"),
        "{err}"
    );
    // 40,000 nodes: 3.2 billion states, about 28 GiB, over any default budget here.
    let path = std::env::temp_dir().join(format!("retrograde-big-{}.json", std::process::id()));
    let graph = format!("[[1],[0],{}[]]", "[],".repeat(39_997));
    std::fs::write(&path, graph).unwrap();
    let err = refused(&[
        "cat-mouse",
        "--graph-file",
        path.to_str().unwrap(),
        "--max-memory",
        "16GiB",
    ]);
    std::fs::remove_file(&path).unwrap();
    assert!(
        err.contains("3199920000 states") && err.contains("GiB"),
        "{err}"
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_retrograde"))
        .args(["cat-mouse", "--graph", EXAMPLE_1])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A build without the `mpi` feature, started as one of several `mpirun`
/// processes, refuses with one line instead of solving the board once per
/// process.
#[cfg(not(feature = "mpi"))]
#[test]
fn several_mpirun_processes_without_mpi_support_are_refused() {
    for command in ["connect", "mnk"] {
        let done = Command::new(env!("CARGO_BIN_EXE_retrograde"))
            .arg(command)
            .env("OMPI_COMM_WORLD_SIZE", "2")
            .env("OMPI_COMM_WORLD_RANK", "1")
            .output()
            .unwrap();
        assert_eq!(done.status.code(), Some(2));
        let said = String::from_utf8_lossy(&done.stderr);
        assert!(said.contains("no MPI support"), "{said}");
        assert!(done.stdout.is_empty());
    }
}
