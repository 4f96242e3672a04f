//! Progress bars appear on a terminal and nowhere else; `bench` runs the
//! suite with agreeing checksums, and `--markdown` rewrites only its own
//! section of a file. Issue 73, line 13: `bench` reports the median of its
//! runs with min and max, warns of noisy figures, records the machine and
//! the build, and `--report DIR` writes BENCH.md, bench.json and the SVG
//! from one run.

use std::process::{Command, Stdio};

use crate::common::cli;

const BIN: &str = env!("CARGO_BIN_EXE_retrograde");

/// Runs `args` with stderr on a pseudo-terminal made by util-linux's
/// `script` (stdout to /dev/null); returns what reached the terminal. The
/// terminal is declared as an xterm: a terminal without `TERM` (as under CI)
/// or with `TERM=dumb` cannot redraw a bar, and gets none.
fn on_a_terminal(args: &str) -> String {
    let out = Command::new("script")
        .args([
            "-q",
            "-e",
            "-c",
            &format!("{BIN} {args} > /dev/null"),
            "/dev/null",
        ])
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .output()
        .expect("util-linux's script runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn progress_shows_on_a_terminal_only() {
    let args = "mnk --rows 4 --cols 4 --k 4 --json";
    let terminal = on_a_terminal(args);
    assert!(
        terminal.contains("forward")
            && terminal.contains("backward")
            && terminal.contains("states"),
        "{terminal:?}"
    );

    let piped = Command::new(BIN).args(args.split(' ')).output().unwrap();
    assert!(piped.status.success());
    assert!(
        piped.stderr.is_empty(),
        "stderr into a pipe: {}",
        String::from_utf8_lossy(&piped.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&piped.stdout).unwrap();
    assert_eq!(json["positions"], 9_722_011);

    let quiet = on_a_terminal(&format!("{args} --quiet"));
    assert!(quiet.trim().is_empty(), "--quiet: {quiet:?}");

    let graph = crate::common::root().join("benches/data/cat-mouse-2000.json");
    let levels = on_a_terminal(&format!("cat-mouse --graph-file {}", graph.display()));
    assert!(levels.contains("levels"), "{levels:?}");

    let search = on_a_terminal("search mnk --rows 4 --cols 5 --k 4");
    assert!(search.contains("nodes"), "{search:?}");
    // the other long solves draw bars too: gravity plies, Nim heaps, Can I Win states
    let plies = on_a_terminal("connect --cols 5 --rows 4");
    assert!(
        plies.contains("forward") && plies.contains("plies"),
        "{plies:?}"
    );
    let heaps = on_a_terminal("nim --stones 300000000");
    assert!(heaps.contains("heaps"), "{heaps:?}");
    let states = on_a_terminal("can-i-win --max 24 --total 150");
    assert!(states.contains("states"), "{states:?}");
    let piped = Command::new(BIN)
        .args(["search", "mnk", "--rows", "4", "--cols", "5", "--k", "4"])
        .output()
        .unwrap();
    assert!(
        piped.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
}

/// The marker lines of `bench --markdown`'s section, as the README tells
/// a user to write them.
const BEGIN: &str = "<!-- retrograde bench: generated table begins; a rerun replaces what lies between these lines -->";
const END: &str = "<!-- retrograde bench: generated table ends -->";

fn scratch(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("retrograde-bench-{}-{name}", std::process::id()))
}

#[test]
fn bench_markdown_refuses_a_file_it_did_not_write_before_any_work() {
    let path = scratch("notes.md");
    let notes = "# Somebody's notes\n\n| a | table |\n";
    std::fs::write(&path, notes).unwrap();
    // A suite of a thousand runs would take hours: the refusal must come first.
    let shown = path.display().to_string();
    let (code, stdout, stderr) =
        cli::run_within(&["bench", "--runs", "1000", "--markdown", &shown], 60, None);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("no section written by `retrograde bench`"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), notes);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn bench_runs_the_suite_and_the_checksums_agree() {
    let path = scratch("BENCH.md");
    let (above, below) = (
        "# Benchmarks\n\nKept above.\n",
        "\n## History\n\nKept below.\n",
    );
    std::fs::write(
        &path,
        format!("{above}{BEGIN}\nan old table\n{END}\n{below}"),
    )
    .unwrap();
    let out = Command::new(BIN)
        .args([
            "bench",
            "--threads-list",
            "1,2",
            "--runs",
            "1",
            "--json",
            "--markdown",
        ])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    warnings_are_the_noise(&String::from_utf8_lossy(&out.stderr), &v);
    let markdown = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let section = markdown
        .strip_prefix(&format!("{above}{BEGIN}\n"))
        .and_then(|rest| rest.strip_suffix(&format!("{END}\n{below}")))
        .unwrap_or_else(|| panic!("the text around the section changed:\n{markdown}"));
    assert!(!section.contains("an old table"));
    assert_eq!(section.matches("| connect-6x4 | 94,910,577 |").count(), 2);
    assert!(v["machine"]["cores"].as_u64().unwrap() >= 1);
    assert!(v["machine"]["cpu"].is_string());
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 12);
    for pair in rows.chunks(2) {
        assert_eq!(pair[0]["workload"], pair[1]["workload"]);
        assert_eq!(pair[0]["checksum"], pair[1]["checksum"]);
        assert_eq!(
            (pair[0]["threads"].as_u64(), pair[1]["threads"].as_u64()),
            (Some(1), Some(2))
        );
        for key in ["states", "seconds", "states_per_second", "speedup"] {
            assert!(pair[1][key].is_number(), "{key}");
        }
    }
    let states: Vec<u64> = rows
        .iter()
        .step_by(2)
        .map(|r| r["states"].as_u64().unwrap())
        .collect();
    assert_eq!(
        states,
        [7_996_000, 32_772_608, 6_036_001, 9_722_011, 94_910_577, 69_763_700]
    );
}

/// Stderr holds exactly one warning a reason of the report's `noise`, and
/// `noisy` says whether there is any.
fn warnings_are_the_noise(stderr: &str, report: &serde_json::Value) {
    let reasons: Vec<String> = report["noise"]
        .as_array()
        .expect("a noise list")
        .iter()
        .map(|r| format!("warning: noisy figures: {}", r.as_str().unwrap()))
        .collect();
    assert_eq!(stderr.lines().collect::<Vec<_>>(), reasons, "{stderr}");
    assert_eq!(report["noisy"], !reasons.is_empty());
}

/// Runs `bench ARGS --json`, which must succeed; returns the report and
/// checks its warnings.
fn bench_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(BIN)
        .arg("bench")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    warnings_are_the_noise(&stderr, &report);
    report
}

fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn bench_reports_the_median_with_min_and_max_of_its_runs() {
    let report = bench_json(&[
        "--workloads",
        "cat-mouse-2000",
        "--threads-list",
        "1,2",
        "--runs",
        "3",
    ]);
    assert_eq!(report["runs"], 3);
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for row in rows {
        let mut times: Vec<f64> = row["times"].as_array().unwrap().iter().map(f).collect();
        assert_eq!(times.len(), 3, "{row}");
        times.sort_by(f64::total_cmp);
        assert_eq!(f(&row["seconds"]), times[1], "the median: {row}");
        assert_eq!(f(&row["min_seconds"]), times[0]);
        assert_eq!(f(&row["max_seconds"]), times[2]);
        let spread = (times[2] - times[0]) / times[1];
        assert!((f(&row["spread"]) - spread).abs() < 1e-12, "{row}");
    }
    // the speed-up is of the medians
    let speedup = f(&rows[0]["seconds"]) / f(&rows[1]["seconds"]);
    assert!((f(&rows[1]["speedup"]) - speedup).abs() < 1e-9);
    // the limits the warnings use are in the report
    assert_eq!(report["noise_limits"]["spread"], 0.1);
}

#[test]
fn bench_records_the_machine_version_commit_and_date() {
    let now = || {
        let out = Command::new("date")
            .args(["-u", "+%Y-%m-%dT%H:%M:%SZ"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    let before = now();
    let report = bench_json(&["--workloads", "cat-mouse-2000", "--runs", "1"]);
    let after = now();
    let machine = &report["machine"];
    assert!(machine["cores"].as_u64().unwrap() >= 1);
    assert!(!machine["cpu"].as_str().unwrap().is_empty());
    for when in ["before", "after"] {
        let load = &machine["load_average"][when];
        assert!(load.is_null() || f(load) >= 0.0, "{machine}");
    }
    assert_eq!(machine["version"], env!("CARGO_PKG_VERSION"));
    let git = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(crate::common::root())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8(o.stdout).unwrap().trim().to_string());
    assert_eq!(
        machine["commit"].as_str().unwrap(),
        git.as_deref().unwrap_or("unknown")
    );
    // ISO 8601 in UTC, from the system clock: between the two readings of `date`
    let date = machine["date"].as_str().unwrap();
    let shape = regex::Regex::new(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$").unwrap();
    assert!(shape.is_match(date), "{date}");
    assert!(
        before.as_str() <= date && date <= after.as_str(),
        "{before} {date} {after}"
    );
}

/// `1234567` → `1,234,567`, as the tables print states.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[test]
fn bench_report_writes_markdown_json_and_svg_from_one_run() {
    let dir = scratch("report");
    std::fs::create_dir_all(&dir).unwrap();
    let markdown = dir.join("BENCH.md");
    let (above, below) = (
        "# Benchmarks\n\nKept above.\n",
        "\n## History\n\nKept below.\n",
    );
    std::fs::write(&markdown, format!("{above}{BEGIN}\nold\n{END}\n{below}")).unwrap();
    let shown = dir.display().to_string();
    let args = [
        "bench",
        "--workloads",
        "cat-mouse-2000,mnk-4x4-k3",
        "--threads-list",
        "1,2",
        "--runs",
        "2",
        "--report",
        &shown,
    ];
    let out = Command::new(BIN).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("bench.json")).unwrap()).unwrap();
    warnings_are_the_noise(&String::from_utf8_lossy(&out.stderr), &report);
    assert_eq!(report["command"], format!("retrograde {}", args.join(" ")));
    let text = std::fs::read_to_string(&markdown).unwrap();
    assert!(text.starts_with(&format!("{above}{BEGIN}\n")), "{text}");
    assert!(text.ends_with(&format!("{END}\n{below}")), "{text}");
    let svg = std::fs::read_to_string(dir.join("bench-scaling.svg")).unwrap();
    assert!(svg.starts_with("<!-- retrograde plot -->\n"));
    // every row of the JSON is a row of the table, to the printed digits
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for r in rows {
        let line = format!(
            "| {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.0}% |",
            r["workload"].as_str().unwrap(),
            grouped(r["states"].as_u64().unwrap()),
            r["threads"],
            f(&r["seconds"]),
            f(&r["min_seconds"]),
            f(&r["max_seconds"]),
            100.0 * f(&r["spread"]),
        );
        assert!(text.contains(&line), "{line} not in\n{text}");
        assert!(text.contains(&format!("| {:.2}× |", f(&r["speedup"]))));
    }
    // the plot's legend gives each workload's speed-up at 2 threads
    for r in rows.iter().filter(|r| r["threads"] == 2) {
        let figure = format!(">\n{:.2}×\n<", f(&r["speedup"]));
        assert!(svg.contains(&figure), "{figure} not in the SVG");
    }
    // the three name the same run: its date and commit
    let machine = &report["machine"];
    let (date, commit) = (
        machine["date"].as_str().unwrap(),
        machine["commit"].as_str().unwrap(),
    );
    assert!(svg.contains(&date[..10]) && svg.contains(commit));
    assert!(text.contains(&date[..10]) && text.contains(&format!("commit {commit}")));
    let noisy = report["noisy"] == true;
    assert_eq!(text.contains("**Noisy figures**"), noisy);
    assert_eq!(svg.contains("noisy figures"), noisy);

    // a file there that bench or plot did not write is refused before any work
    for (name, foreign) in [("bench.json", "{}"), ("bench-scaling.svg", "<svg/>")] {
        let path = dir.join(name);
        let kept = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, foreign).unwrap();
        let (code, stdout, stderr) =
            cli::run_within(&["bench", "--runs", "1000", "--report", &shown], 60, None);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stdout.is_empty());
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(name) && stderr.contains("not replaced"),
            "{stderr}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), foreign);
        std::fs::write(&path, kept).unwrap();
    }
    let missing = format!("{shown}/missing");
    let (code, _, stderr) = cli::run_within(&["bench", "--report", &missing], 60, None);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("not a folder"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
