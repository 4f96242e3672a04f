//! Issue 73, line 14: `retrograde plot` draws pictures one can read — the
//! legend beside the data (it hid the 2-thread points), k in every title,
//! a count of 0 apart from a count of 1 on the log axis, axis labels with
//! SI suffixes (not `10000000.0`), a colour-blind-safe palette — and its
//! help says which reports it takes and where it writes.

use regex::Regex;

use crate::common::cli::{retrograde, scratch_dir};

/// Runs `retrograde ARGS`, which must succeed; returns its stdout.
fn stdout(args: &[&str]) -> String {
    let out = retrograde(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Writes `report` into a scratch folder, plots it and returns the SVG.
fn plot(name: &str, report: &str) -> String {
    let dir = scratch_dir("cli-plot", name);
    let (json, svg) = (dir.join("r.json"), dir.join("r.svg"));
    std::fs::write(&json, report).unwrap();
    stdout(&[
        "plot",
        json.to_str().unwrap(),
        "--out",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    text
}

/// The SVG of a solved board's `--json` report.
fn plot_board(name: &str, args: &[&str]) -> String {
    let report = stdout(&[args, &["--json"]].concat());
    plot(name, &report)
}

/// A text element of an SVG: where it is anchored and what it says.
struct Label {
    x: f64,
    y: f64,
    text: String,
}

fn labels(svg: &str) -> Vec<Label> {
    let re = Regex::new(r#"<text x="([-\d.]+)" y="([-\d.]+)"[^>]*>\n([^<]*)\n</text>"#).unwrap();
    re.captures_iter(svg)
        .map(|c| Label {
            x: c[1].parse().unwrap(),
            y: c[2].parse().unwrap(),
            text: c[3].to_string(),
        })
        .collect()
}

/// A circle of an SVG: its centre, fill and stroke.
struct Dot {
    cx: f64,
    cy: f64,
    fill: String,
    stroke: String,
}

fn dots(svg: &str) -> Vec<Dot> {
    let re =
        Regex::new(r#"<circle cx="([-\d.]+)" cy="([-\d.]+)"[^>]* fill="([^"]+)" stroke="([^"]+)""#)
            .unwrap();
    re.captures_iter(svg)
        .map(|c| Dot {
            cx: c[1].parse().unwrap(),
            cy: c[2].parse().unwrap(),
            fill: c[3].to_string(),
            stroke: c[4].to_string(),
        })
        .collect()
}

/// A bench report of two workloads at 1, 2 and 4 threads.
const BENCH: &str = r#"{"machine":{"cores":4},"rows":[
    {"workload":"a","threads":1,"speedup":1.0},{"workload":"a","threads":2,"speedup":1.8},
    {"workload":"a","threads":4,"speedup":3.1},{"workload":"b","threads":1,"speedup":1.0},
    {"workload":"b","threads":2,"speedup":1.2},{"workload":"b","threads":4,"speedup":1.3}]}"#;

#[test]
fn plot_legend_lies_beside_the_data_area_not_over_it() {
    let svg = plot("legend-bench", BENCH);
    let all = labels(&svg);
    // the x axis's last tick label, "4" threads, stands under the data
    // area's right edge
    let right = all
        .iter()
        .filter(|l| l.text == "4")
        .map(|l| l.x)
        .fold(f64::MIN, f64::max);
    assert!(right > 0.0, "no tick label 4");
    for name in ["ideal (speed-up = threads)", "a", "b"] {
        let label = all.iter().find(|l| l.text == name).expect(name);
        assert!(label.x > right + 10.0, "{name} at x {} ≤ {right}", label.x);
    }

    let svg = plot_board(
        "legend-mnk",
        &["mnk", "--cols", "3", "--rows", "3", "--k", "3"],
    );
    let all = labels(&svg);
    let right = all
        .iter()
        .filter(|l| l.text.parse::<u32>().is_ok())
        .map(|l| l.x)
        .fold(f64::MIN, f64::max);
    for name in ["positions", "X can win", "neither can win", "O can win"] {
        let label = all.iter().find(|l| l.text == name).expect(name);
        assert!(label.x > right + 10.0, "{name} at x {} ≤ {right}", label.x);
    }
}

#[test]
fn plot_titles_name_k() {
    let svg = plot_board("k-mnk", &["mnk", "--cols", "4", "--rows", "3", "--k", "3"]);
    for panel in ["positions per ply", "positions by value"] {
        let title = format!("4 columns × 3 rows, k = 3: {panel}");
        assert!(svg.contains(&title), "{title}");
    }
    let svg = plot_board("k-connect", &["connect", "--cols", "4", "--rows", "4"]);
    for panel in ["positions per ply", "positions by value"] {
        let title = format!("4 columns × 4 rows, k = 4: {panel}");
        assert!(svg.contains(&title), "{title}");
    }
}

#[test]
fn plot_draws_zero_counts_on_their_own_baseline_apart_from_one() {
    // X can win: 0, 1 and 2 positions at plies 0, 1 and 2
    let report = r#"{"cols":2,"rows":1,"k":2,"per_ply":[
        {"ply":0,"positions":1,"x_can_win":0,"o_can_win":0,"neither_can_win":1},
        {"ply":1,"positions":2,"x_can_win":1,"o_can_win":0,"neither_can_win":1},
        {"ply":2,"positions":4,"x_can_win":2,"o_can_win":1,"neither_can_win":1}]}"#;
    let svg = plot("zero", report);
    let blue = "#0072B2";
    let hollow: Vec<Dot> = dots(&svg)
        .into_iter()
        .filter(|d| d.fill == "none" && d.stroke == blue)
        .collect();
    assert_eq!(hollow.len(), 1, "one hollow marker: the one 0 of X can win");
    let zero = &hollow[0];
    // the filled markers of X can win, left to right: ply 1 (a count of
    // 1), ply 2, then the legend's sample
    let mut filled: Vec<Dot> = dots(&svg).into_iter().filter(|d| d.fill == blue).collect();
    filled.sort_by(|a, b| a.cx.total_cmp(&b.cx));
    assert!(filled.len() >= 2);
    let one = &filled[0];
    assert!(zero.cx < one.cx, "ply 0 left of ply 1");
    assert!(
        zero.cy > one.cy + 20.0,
        "0 drawn {} px below 1, not at it",
        zero.cy - one.cy
    );
    // the y axis labels the baseline "0" and the next line "1"
    let all = labels(&svg);
    let near = |y: f64, text: &str| {
        all.iter()
            .any(|l| l.text == text && (l.y - y).abs() <= 2.0 && l.x < zero.cx)
    };
    assert!(near(zero.cy, "0"), "the baseline is labelled 0");
    assert!(near(one.cy, "1"), "a count of 1 is on the line labelled 1");
    assert!(svg.contains("hollow marker on the 0 line:"));
}

#[test]
fn plot_axis_labels_use_si_suffixes_not_decimals() {
    let svg = plot_board("si", &["connect", "--cols", "4", "--rows", "4"]);
    let texts: Vec<String> = labels(&svg).into_iter().map(|l| l.text).collect();
    let decimal = Regex::new(r"^\d+\.\d+$").unwrap();
    let long = Regex::new(r"^\d{5,}$").unwrap();
    for text in &texts {
        assert!(
            !decimal.is_match(text) && !long.is_match(text),
            "label {text:?}"
        );
    }
    for label in ["1", "10", "100", "1k", "10k"] {
        assert!(
            texts.iter().any(|t| t == label),
            "no label {label}: {texts:?}"
        );
    }
}

/// Okabe and Ito's palette, less its yellow.
const OKABE_ITO: [&str; 7] = [
    "#000000", "#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7",
];

#[test]
fn plot_colours_are_okabe_ito_or_grey() {
    let colour = Regex::new(r#"(?:fill|stroke)="(#[0-9A-Fa-f]{6})""#).unwrap();
    for (name, svg) in [
        ("bench", plot("colour-bench", BENCH)),
        (
            "connect",
            plot_board("colour-connect", &["connect", "--cols", "4", "--rows", "4"]),
        ),
        (
            "mnk",
            plot_board(
                "colour-mnk",
                &["mnk", "--cols", "3", "--rows", "3", "--k", "3"],
            ),
        ),
    ] {
        for c in colour.captures_iter(&svg) {
            let hex = c[1].to_uppercase();
            let grey = hex[1..3] == hex[3..5] && hex[3..5] == hex[5..7];
            assert!(
                grey || OKABE_ITO.contains(&hex.as_str()),
                "{name}: {hex} is not an Okabe–Ito colour"
            );
        }
    }
}

#[test]
fn plot_help_names_the_reports_it_takes_and_where_it_writes() {
    let help = stdout(&["plot", "--help"]);
    for words in [
        "connect",
        "mnk",
        "bench",
        "--json",
        "--out",
        "atomically",
        "--force",
    ] {
        assert!(help.contains(words), "{words:?} not in\n{help}");
    }
    let top = stdout(&["--help"]);
    let line = top
        .lines()
        .find(|l| l.trim_start().starts_with("plot"))
        .unwrap();
    assert!(line.contains("bench"), "{line}");
}

// (issue 73, line 16) a table file given to plot was "not UTF-8 text"
#[test]
fn plot_of_a_table_file_says_it_is_not_a_json_report() {
    let dir = std::env::temp_dir().join(format!("retrograde-plot-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("t.rtb");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_retrograde"))
        .args(["mnk", "-q", "--out", table.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let svg = dir.join("t.svg");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_retrograde"))
        .args([
            "plot",
            table.to_str().unwrap(),
            "--out",
            svg.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("not a --json report") && !err.contains("UTF-8"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `plot --out c55.png` wrote SVG under that name. A name that does not end
/// in `.svg` is refused before anything is read or written, in one line
/// naming `.svg`, exit 2.
// issue 86, line 6
#[test]
fn plot_refuses_an_output_name_not_ending_in_svg() {
    let dir = scratch_dir("cli-plot", "png");
    let report = dir.join("r.json");
    let json =
        String::from_utf8(retrograde(&["connect", "--cols", "4", "--rows", "4", "--json"]).stdout)
            .unwrap();
    std::fs::write(&report, json).unwrap();
    for name in ["c55.png", "c55.pdf", "c55", "c55.svg.png"] {
        let out = dir.join(name);
        let run = retrograde(&[
            "plot",
            report.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{name}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{name}: {stderr}");
        assert!(stderr.contains(".svg"), "{name}: {stderr}");
        assert!(!out.exists(), "{name}: nothing written");
    }
    let upper = dir.join("c55.SVG");
    let run = retrograde(&[
        "plot",
        report.to_str().unwrap(),
        "--out",
        upper.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(std::fs::read_to_string(&upper).unwrap().contains("<svg"));
    std::fs::remove_dir_all(&dir).unwrap();
}
