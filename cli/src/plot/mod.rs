//! `retrograde plot REPORT.json --out FILE.svg`: a picture of a report,
//! drawn with plotters' SVG backend.
//!
//! * A `connect` or `mnk` report (its `per_ply` table): positions per ply
//!   above, the positions by value below (Connect Four: first player wins,
//!   draw, second player wins; m,n,k: X can win, neither, O can win), see
//!   [`per_ply`].
//! * A `bench` report (its `rows`): the speed-up by thread count, a line a
//!   workload beside the ideal, see [`scaling`].
//!
//! Every legend lies beside its chart, never over the data; colours are
//! Okabe and Ito's, with a marker shape per series (see [`style`]). Written
//! atomically, to a name ending in `.svg` (another is refused: plot writes
//! no other format); a file already at FILE is replaced only if this
//! command wrote it (its marker comment), or with `--force`.

mod per_ply;
mod scaling;
mod style;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;
use serde_json::Value;

use retrograde::{
    disk::{check_replaceable, identify, Found, Ours},
    Setting,
};

use super::output::board_name;
use per_ply::Series;
use style::{Shape, BLUE_OI, BLUISH_GREEN, VERMILLION};

/// The first line of every SVG this command writes: what it may replace
/// (the library's one rule of replacing: [`check_replaceable`]).
const MARKER: &str = retrograde::disk::PLOT_MARKER;

/// Arguments of `retrograde plot`.
#[derive(Debug, Args)]
#[command(
    long_about = "Draw a report written with --json as an SVG: a `connect` or `mnk` report's \
                  per-ply table (positions per ply, and positions by value), or a `bench` \
                  report's speed-up by threads. The SVG is written to --out (atomically), a \
                  name ending in .svg (plot writes no other format); a file already there is \
                  replaced only if plot wrote it, or with --force."
)]
pub struct PlotArgs {
    /// The report: a `connect` or `mnk` report (it holds `per_ply`) or a
    /// `bench` report (it holds `rows`), each written with --json.
    report: PathBuf,

    /// The SVG to write (atomically); its name must end in .svg (plot
    /// writes SVG only). A file already there is replaced only if plot
    /// wrote it, or with --force.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Replace a file at --out that this command did not write.
    #[arg(long)]
    force: bool,
}

/// The value series a report holds per ply, by its keys, with their names
/// and looks.
const VALUE_SERIES: [[(&str, &str, Shape); 3]; 2] = [
    [
        ("first_won", "first player wins", Shape::Circle),
        ("first_drawn", "draw", Shape::Square),
        ("first_lost", "second player wins", Shape::Triangle),
    ],
    [
        ("x_can_win", "X can win", Shape::Circle),
        ("neither_can_win", "neither can win", Shape::Square),
        ("o_can_win", "O can win", Shape::Triangle),
    ],
];

/// Reads the report, draws it and writes the SVG.
pub fn run(args: &PlotArgs) -> anyhow::Result<ExitCode> {
    refuse_another_format(&args.out)?;
    check_replaceable(&args.out, (args.force, Setting::Force), &[Ours::Plot])
        .map_err(|e| anyhow::anyhow!("--out {}", super::output::in_flags(&e)))?;
    // (issue 73, line 16: a table file was "not UTF-8 text")
    let not_a_report = || {
        anyhow::anyhow!(
            "{}: not a --json report of connect, mnk or bench (a table file is read by \
             `retrograde query`)",
            args.report.display()
        )
    };
    let bytes = retrograde::disk::read_regular(&args.report)?;
    let text = String::from_utf8(bytes).map_err(|_| not_a_report())?;
    let report: Value = serde_json::from_str(&text).map_err(|_| not_a_report())?;
    let svg = if report.get("rows").is_some_and(Value::is_array) {
        bench_svg(&report)?
    } else {
        per_ply_svg(&report, &args.report)?
    };
    retrograde::disk::write_atomically(&args.out, svg.as_bytes())
        .with_context(|| args.out.display().to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// The SVG file of a `bench` report, its marker line first.
pub fn bench_svg(report: &Value) -> anyhow::Result<String> {
    Ok(format!("{MARKER}\n{}", scaling::draw(report)?))
}

/// The SVG file of a `connect` or `mnk` report read from `path`, its
/// marker line first.
fn per_ply_svg(report: &Value, path: &Path) -> anyhow::Result<String> {
    let Some(Value::Array(plies)) = report.get("per_ply") else {
        bail!(
            "{}: no per_ply table (plot takes a `connect` or `mnk` report, or a `bench` one, written with --json)",
            path.display()
        );
    };
    let column =
        |key: &str| -> Option<Vec<f64>> { plies.iter().map(|p| p.get(key)?.as_f64()).collect() };
    let positions = column("positions")
        .filter(|p| !p.is_empty())
        .with_context(|| format!("{}: per_ply has no positions", path.display()))?;
    let colours = [BLUE_OI, BLUISH_GREEN, VERMILLION];
    let values: Vec<Series> = VALUE_SERIES
        .iter()
        .find_map(|series| {
            series
                .iter()
                .zip(colours)
                .map(|(&(key, name, shape), colour)| {
                    Some(Series {
                        name,
                        colour,
                        shape,
                        counts: column(key)?,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let svg = per_ply::draw(&title(report, path), &positions, &values)?;
    Ok(format!("{MARKER}\n{svg}"))
}

/// A per-ply report's title: its board and k (`4 columns × 4 rows, k = 4`),
/// or the file's name when the report does not say them.
fn title(report: &Value, path: &Path) -> String {
    let number = |key| report.get(key).and_then(Value::as_u64);
    let board = match (number("cols"), number("rows")) {
        (Some(c), Some(r)) => board_name(
            u32::try_from(c).unwrap_or(u32::MAX),
            u32::try_from(r).unwrap_or(u32::MAX),
        ),
        _ => path.display().to_string(),
    };
    match number("k") {
        Some(k) => format!("{board}, k = {k}"),
        None => board,
    }
}

/// Whether the file at `path` starts with this command's marker line.
pub fn is_ours(path: &Path) -> bool {
    identify(path) == Found::Ours(Ours::Plot)
}

/// Refuses an output name that does not end in `.svg`: `--out c55.png`
/// wrote an SVG under that name (plotters draws PNG only with system fonts
/// this build does not depend on).
fn refuse_another_format(path: &Path) -> anyhow::Result<()> {
    let svg = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    if svg {
        return Ok(());
    }
    let not = match path.extension() {
        Some(e) => format!(", not .{}", e.to_string_lossy()),
        None => String::new(),
    };
    bail!(
        "--out {}: plot writes SVG only{not}; give a file name ending in .svg",
        path.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_per_ply_title_names_the_board_and_k() {
        let report = serde_json::json!({"cols": 4, "rows": 3, "k": 3});
        assert_eq!(
            title(&report, Path::new("r.json")),
            "4 columns × 3 rows, k = 3"
        );
        let one = serde_json::json!({"cols": 1, "rows": 1, "k": 1});
        assert_eq!(title(&one, Path::new("r.json")), "1 column × 1 row, k = 1");
        assert_eq!(title(&serde_json::json!({}), Path::new("r.json")), "r.json");
    }
}
