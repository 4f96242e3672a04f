//! Second audit, lines 13 and 14: a `verify` case not reached says why
//! (time or memory, in the report and the JSON), `--case-seconds` says it
//! bounds every case, the OEIS rows are shown whole, the memory of a full
//! run is stated; and the Connect Four projection's refusal says what
//! budget would do and what goes further, its range measured here.

#[path = "common/cli.rs"]
mod cli_support;

use cli_support::{refused, retrograde, run_within};
use retrograde::games::gravity::Gravity;
use retrograde::tables::sparse::{project_positions, PROJECTION_SEEN};

#[test]
fn line_13_verify_says_why_a_case_was_not_reached_and_shows_rows_whole() {
    let args = ["verify", "--case-seconds", "0.3", "--max-memory", "2GiB"];
    let (code, out, err) = run_within(&[&args[..], &["--json"]].concat(), 300, None);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let cases = v["cases"].as_array().unwrap();
    let reason_of = |case: &str| {
        let c = cases.iter().find(|c| c["case"] == case).expect(case);
        (c["status"].clone(), c["reason"].clone(), c["why"].clone())
    };
    // over the budget before it starts: memory, with the figure
    let (status, reason, why) = reason_of("Connect Four 6×5 positions");
    assert_eq!(
        (status.as_str(), reason.as_str()),
        (Some("not reached"), Some("memory"))
    );
    assert!(why.as_str().unwrap().contains("GiB"), "{why}");
    // out of its seconds: time
    let (_, reason, _) = reason_of("5,5,5 value (search)");
    assert_eq!(reason, "time");
    for c in cases.iter().filter(|c| c["status"] == "agrees") {
        assert!(c.get("reason").is_none(), "{c}");
    }
    let (code, out, err) = run_within(&args, 300, None);
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("not reached (memory): "), "{out}");
    assert!(out.contains("not reached (time): "), "{out}");
    assert!(out.contains("a full run needs about 12.6 GiB"), "{out}");
    // the OEIS row A317573 for n = 4, whole
    assert!(
        out.contains("0,0,0,0,0,0,1100,280,26771,11535,91567,36362,78138,26146,12900,3774,0"),
        "{out}"
    );
    let help = String::from_utf8(retrograde(&["verify", "--help"]).stdout).unwrap();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("the exhaustive counts and solves as well as the searches"),
        "{help}"
    );
    assert!(help.contains("12.6 GiB"), "{help}");
}

/// Every board counted completely here: its first ten plies and its
/// total, from the results files.
fn counted_boards() -> Vec<(u32, u32, Vec<u64>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
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

#[test]
fn line_14_the_projection_stays_within_its_measured_range() {
    let boards = counted_boards();
    assert!(boards.len() >= 15, "{}", boards.len());
    let (low, high) = PROJECTION_SEEN;
    for (cols, rows, plies) in boards.iter().filter(|(c, r, _)| c * r > 12) {
        let game = Gravity::new(*cols, *rows, 4).unwrap();
        let projected = project_positions(&game, &plies[..10]) as f64;
        let truth: u64 = plies.iter().sum();
        let ratio = projected / truth as f64;
        assert!(
            (low..=high).contains(&ratio),
            "{cols}×{rows}: projected {projected:.3e}, counted {truth}: {ratio:.2}×"
        );
    }
}

#[test]
fn line_14_the_refusal_says_what_budget_would_do_and_what_goes_further() {
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
        err.contains("a --max-memory of 2.7 GiB or more lets the engine try"),
        "{err}"
    );
    assert!(err.contains("`--engine symbolic`"), "{err}");
    assert!(err.contains("mpirun"), "{err}");
    // the truth, 2.82e9 positions and 12.8 GiB measured, lies in the range said
    assert!(err.contains("between 2.7 GiB and 85.4 GiB"), "{err}");
}

// (issue 73, line 15) verify ran every case or none, exited 0 with cases
// not reached, and said nothing of its total time; counts were ungrouped
#[test]
fn verify_runs_a_subset_states_its_time_and_is_strict_when_asked() {
    let out = retrograde(&["verify", "--only", "3,3,3 games"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("verify: 3 cases, each within 120 s: at most 6 min"),
        "{text}"
    );
    assert!(
        text.contains("255,168") && !text.contains("5,478"),
        "{text}"
    );
    let err = refused(&["verify", "--only", "no such case"]);
    assert!(err.contains("matches no case"), "{err}");
    // a case not reached: exit 0 without --strict, 3 with it
    let args = [
        "verify",
        "--only",
        "Connect Four 5×5 positions",
        "--max-memory",
        "20MiB",
    ];
    assert_eq!(retrograde(&args).status.code(), Some(0));
    let strict = [&args[..], &["--strict"]].concat();
    assert_eq!(retrograde(&strict).status.code(), Some(3));
}
