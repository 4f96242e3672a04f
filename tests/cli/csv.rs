//! Second audit, line 17: researchers get the per-ply tables as CSV, its
//! columns named as the JSON's keys, and the human columns say the same
//! words as those keys (`first won` for `first_won`).

use crate::common::cli::{json_of, refused, retrograde, scratch_dir};

fn stdout(args: &[&str]) -> String {
    let out = retrograde(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The CSV of `args` is the JSON's per-ply table: same keys in the same
/// order, same values, one row a ply.
fn csv_equals_json(args: &[&str]) {
    let json = json_of(&[args, &["--json"]].concat());
    let csv = stdout(&[args, &["--csv"]].concat());
    let plies = json["per_ply"].as_array().unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let keys: Vec<&str> = plies[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(header, keys, "{args:?}");
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), plies.len(), "{args:?}");
    for (row, ply) in rows.iter().zip(plies) {
        let fields: Vec<&str> = row.split(',').collect();
        let want: Vec<String> = keys.iter().map(|k| ply[*k].to_string()).collect();
        assert_eq!(fields, want, "{args:?}");
    }
}

#[test]
fn the_csv_is_the_json_per_ply_table() {
    csv_equals_json(&["mnk"]);
    csv_equals_json(&["mnk", "--cols", "4", "--rows", "3"]);
    csv_equals_json(&["connect", "--cols", "4", "--rows", "4"]);
    csv_equals_json(&[
        "connect", "--cols", "5", "--rows", "4", "--engine", "symbolic",
    ]);
    csv_equals_json(&[
        "connect",
        "--cols",
        "5",
        "--rows",
        "4",
        "--engine",
        "symbolic",
        "--count-only",
    ]);
}

#[test]
fn csv_is_refused_where_there_is_no_table() {
    let err = refused(&["mnk", "--csv", "--json"]);
    assert!(err.contains("--csv"), "{err}");
    let err = refused(&["mnk", "--csv", "--moves", "b2"]);
    assert!(
        err.contains("--csv prints a board's per-ply table"),
        "{err}"
    );
    let err = refused(&["connect", "--csv", "--search"]);
    assert!(
        err.contains("--csv prints a board's per-ply table"),
        "{err}"
    );
}

#[test]
fn the_human_columns_name_the_json_keys() {
    for args in [
        &["connect", "--cols", "4", "--rows", "4"][..],
        &[
            "connect", "--cols", "4", "--rows", "4", "--engine", "symbolic",
        ],
    ] {
        let report = stdout(args);
        let header = report
            .lines()
            .find(|l| l.trim_start().starts_with("ply"))
            .unwrap();
        for words in ["first won", "first drawn", "first lost"] {
            assert!(header.contains(words), "{args:?}: {header}");
        }
        assert!(!header.contains("first wins"), "{header}");
    }
}

#[test]
fn plot_draws_a_report_and_replaces_only_its_own_files() {
    let dir = scratch_dir("plot", "plot");
    let report = dir.join("c44.json");
    std::fs::write(
        &report,
        stdout(&["connect", "--cols", "4", "--rows", "4", "--json"]),
    )
    .unwrap();
    let svg = dir.join("c44.svg");
    let (r, s) = (report.to_str().unwrap(), svg.to_str().unwrap());
    stdout(&["plot", r, "--out", s]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg"), "{}", &text[..100]);
    // the positions and the three value series, each a line
    let lines = text.matches("<polyline").count();
    assert!(lines >= 4, "{lines}");
    assert!(text.contains("first player wins") && text.contains("second player wins"));
    // its own file is replaced; another is not, unless --force
    stdout(&["plot", r, "--out", s]);
    let foreign = dir.join("notes.svg");
    std::fs::write(&foreign, "mine").unwrap();
    let f = foreign.to_str().unwrap();
    let err = refused(&["plot", r, "--out", f]);
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&foreign).unwrap(), "mine");
    stdout(&["plot", r, "--out", f, "--force"]);
    // a JSON without a per-ply table
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"a\":1}").unwrap();
    let err = refused(&["plot", bad.to_str().unwrap(), "--out", s]);
    assert!(err.contains("no per_ply table"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn plot_draws_bench_thread_scaling() {
    let dir = scratch_dir("plot", "bench");
    let report = dir.join("bench.json");
    std::fs::write(
        &report,
        r#"{"machine":{"cores":4},"rows":[
            {"workload":"a","threads":1,"speedup":1.0},{"workload":"a","threads":2,"speedup":1.8},
            {"workload":"a","threads":4,"speedup":3.1},{"workload":"b","threads":1,"speedup":1.0},
            {"workload":"b","threads":2,"speedup":1.2},{"workload":"b","threads":4,"speedup":1.3}]}"#,
    )
    .unwrap();
    let svg = dir.join("bench.svg");
    stdout(&[
        "plot",
        report.to_str().unwrap(),
        "--out",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    for label in ["speed-up by threads", "ideal", ">\na\n<", ">\nb\n<"] {
        assert!(text.contains(label), "{label:?}");
    }
    std::fs::write(&report, r#"{"rows":[{"workload":"a"}]}"#).unwrap();
    let err = refused(&[
        "plot",
        report.to_str().unwrap(),
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert!(
        err.contains("without workload, threads and speedup"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
