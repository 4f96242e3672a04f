//! The Connect Four projection of a solve's size: within its measured
//! range on every board counted completely (the results files), and its
//! refusal says what budget would do and what goes further.

use retrograde::{
    engines::sparse::{project_positions, PROJECTION_SEEN},
    games::gravity::Gravity,
    BoardSize,
};

use crate::common::cli::refused;

/// Every board counted completely here: its first ten plies and its
/// total, from the results files.
fn counted_boards() -> Vec<(u32, u32, Vec<u64>)> {
    let root = crate::common::root();
    let mut boards = Vec::new();
    for dir in ["results/connect", "results/symbolic"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            let wanted = (dir == "results/connect" && name.ends_with("-k4.json"))
                || (name.starts_with("count-") && name.ends_with(".json"));
            if !wanted {
                continue;
            }
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let plies: Vec<u64> = v["per_ply"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["positions"].as_u64().unwrap())
                .collect();
            let dim = |key: &str| v[key].as_u64().unwrap() as u32;
            boards.push((dim("cols"), dim("rows"), plies));
        }
    }
    boards
}

// issue 26, line 14
#[test]
fn the_connect_projection_stays_within_its_measured_range() {
    let boards = counted_boards();
    assert!(boards.len() >= 15, "{}", boards.len());
    let (low, high) = PROJECTION_SEEN;
    for (cols, rows, plies) in boards.iter().filter(|(c, r, _)| c * r > 12) {
        let game = Gravity::new(BoardSize::new(*cols, *rows, 4)).unwrap();
        let projected = project_positions(&game, &plies[..10]) as f64;
        let truth: u64 = plies.iter().sum();
        let ratio = projected / truth as f64;
        assert!(
            (low..=high).contains(&ratio),
            "{cols}×{rows}: projected {projected:.3e}, counted {truth}: {ratio:.2}×"
        );
    }
}

// issue 26, line 14
#[test]
fn the_projection_refusal_says_what_budget_would_do_and_what_goes_further() {
    let err = refused(&[
        "connect",
        "--cols",
        "6",
        "--rows",
        "5",
        "--engine",
        "explicit",
        "--max-memory",
        "1GiB",
    ]);
    assert!(
        err.contains("raising --max-memory to 2.7 GiB or more lets the engine try"),
        "{err}"
    );
    assert!(
        err.contains("; --engine symbolic (decision diagrams)"),
        "{err}"
    );
    assert!(err.contains("mpirun"), "{err}");
    // the truth, 2.82e9 positions and 12.8 GiB measured, lies in the range said
    assert!(err.contains("between 2.7 GiB and 85.4 GiB"), "{err}");
}
