//! `retrograde cat-mouse-grid` as a user meets it.

#[path = "common/cli.rs"]
mod cli_support;

use cli_support::{refused, retrograde};

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
