//! `retrograde cat-mouse-grid` as a user meets it.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::cli::{json_of, refused, retrograde, run_within, scratch_dir};
use crate::common::forge::resum;

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn json_gives_the_answer_the_counts_and_the_depth() {
    let out = retrograde(&[
        "cat-mouse-grid",
        "--grid",
        "M.C...F",
        "--cat-jump",
        "1",
        "--mouse-jump",
        "4",
        "--json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["mouse_can_win"], true);
    assert_eq!(v["states"], 7 * 7 * 2);
    assert_eq!(v["depth"], 3);
    assert!(v["mouse_win_states"].as_u64().unwrap() > 0);
    // the same grid with a limit below the depth: the cat wins
    let out = retrograde(&[
        "cat-mouse-grid",
        "--grid",
        "M.C...F",
        "--cat-jump",
        "1",
        "--mouse-jump",
        "4",
        "--max-moves",
        "2",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["mouse_can_win"], false);
    // a drawn start has no depth
    let out = retrograde(&[
        "cat-mouse-grid",
        "--grid",
        "C...#,...#F,....#,M....",
        "--cat-jump",
        "2",
        "--mouse-jump",
        "5",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["depth"].is_null() && v["mouse_can_win"] == false);
}

#[test]
fn a_grid_file_reads_one_row_per_line() {
    let path = std::env::temp_dir().join(format!("retrograde-grid-{}.txt", std::process::id()));
    std::fs::write(&path, "####F\r\n#C...\r\nM....\r\n\r\n").unwrap();
    let out = retrograde(&[
        "cat-mouse-grid",
        "--grid-file",
        path.to_str().unwrap(),
        "--cat-jump",
        "1",
        "--mouse-jump",
        "2",
        "--json",
    ]);
    std::fs::remove_file(&path).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["mouse_can_win"], true);
}

#[test]
fn bad_grids_and_jumps_get_one_line_and_exit_2() {
    let base = [
        "cat-mouse-grid",
        "--cat-jump",
        "1",
        "--mouse-jump",
        "1",
        "--grid",
    ];
    let with =
        |grid: &'static str| -> Vec<&'static str> { base.iter().copied().chain([grid]).collect() };
    assert!(refused(&with("CM.,F.")).contains("row 2"));
    assert!(refused(&with("CMX,F..")).contains("'X'"));
    assert!(refused(&with("M..,F..")).contains("C (cat)"));
    assert!(refused(&with("CMF,F..")).contains("F (food)"));
    assert!(refused(&[
        "cat-mouse-grid",
        "--grid",
        "CMF",
        "--cat-jump",
        "-1",
        "--mouse-jump",
        "1"
    ])
    .contains("jump"));
    assert!(refused(&[
        "cat-mouse-grid",
        "--grid",
        "CMF",
        "--cat-jump",
        "1",
        "--mouse-jump",
        "1",
        "--max-moves",
        "-3"
    ])
    .contains("max-moves"));
    refused(&["cat-mouse-grid", "--grid", "CMF", "--cat-jump", "1"]);
    let err = refused(&[
        "cat-mouse-grid",
        "--grid",
        "CM.F",
        "--cat-jump",
        "1",
        "--mouse-jump",
        "1",
        "--max-memory",
        "64B",
    ]);
    assert!(err.contains("estimated") && err.contains("64 B"), "{err}");
}

// issue 12, line 4
#[test]
fn grid_jump_tables_are_checked_before_they_are_built() {
    let dir = scratch_dir("hardening", "line4");
    for (side, jump) in [(500usize, "500"), (1000, "1000")] {
        let mut rows = vec![".".repeat(side); side];
        rows[0].replace_range(0..3, "MCF");
        let grid = dir.join(format!("g{side}.txt"));
        std::fs::write(&grid, rows.join("\n")).unwrap();
        let args = [
            "cat-mouse-grid",
            "--grid-file",
            s(&grid),
            "--cat-jump",
            jump,
            "--mouse-jump",
            jump,
            "--max-memory",
            "100MiB",
        ];
        let started = Instant::now();
        let (code, _, err) = run_within(&args, 10, None);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("over the budget"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    // a crafted table claiming a large grid is refused before its tables exist
    let small = dir.join("small.rtb");
    json_of(&[
        "cat-mouse-grid",
        "--grid",
        "M.C...F",
        "--cat-jump",
        "1",
        "--mouse-jump",
        "1",
        "--out",
        s(&small),
        "--json",
    ]);
    let mut bytes = std::fs::read(&small).unwrap();
    let at = bytes.windows(7).position(|w| w == b"M.C...F").unwrap();
    bytes.splice(at..at + 7, *b"M.C.F..");
    resum(&mut bytes);
    let crafted = dir.join("crafted.rtb");
    std::fs::write(&crafted, &bytes).unwrap();
    let (code, _, err) = run_within(&["query", s(&crafted)], 10, None);
    assert_eq!(code, Some(2), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
