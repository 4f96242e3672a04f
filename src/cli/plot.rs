//! `retrograde plot REPORT.json --out FILE.svg`: a picture of a board's
//! per-ply table — positions per ply (log scale) above, the first
//! player's won / drawn / lost positions per ply below (Connect Four
//! reports; m,n,k reports: the positions X can win, O can win, neither) —
//! or a `bench --json` report's speed-up by thread count, a line a
//! workload beside the ideal; drawn with plotters' SVG backend. Written atomically; a file already at
//! FILE is replaced only if this command wrote it (its marker comment), or
//! with `--force`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;
use plotters::prelude::*;
use serde_json::Value;

/// The first line of every SVG this command writes: what it may replace.
const MARKER: &str = "<!-- retrograde plot -->";

/// Arguments of `retrograde plot`.
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// A `connect` or `mnk` report written with --json (it holds `per_ply`).
    report: PathBuf,

    /// The SVG to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Replace a file at --out that this command did not write.
    #[arg(long)]
    force: bool,
}

/// The value series a report holds per ply, by its keys, with their names.
const VALUE_SERIES: [[(&str, &str); 3]; 2] = [
    [
        ("first_won", "first player wins"),
        ("first_drawn", "draw"),
        ("first_lost", "second player wins"),
    ],
    [
        ("x_can_win", "X can win"),
        ("neither_can_win", "neither can win"),
        ("o_can_win", "O can win"),
    ],
];

/// Reads the report, draws it and writes the SVG.
pub fn run(args: &PlotArgs) -> anyhow::Result<ExitCode> {
    retrograde::files::check_output(&args.out)?;
    refuse_foreign(&args.out, args.force)?;
    let text = retrograde::files::read_regular_text(&args.report)?;
    let report: Value = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a JSON report", args.report.display()))?;
    if let Some(Value::Array(rows)) = report.get("rows") {
        let svg = draw_scaling(rows)?;
        retrograde::atomic_file::write_atomically(&args.out, format!("{MARKER}\n{svg}").as_bytes())
            .with_context(|| args.out.display().to_string())?;
        return Ok(ExitCode::SUCCESS);
    }
    let Some(Value::Array(plies)) = report.get("per_ply") else {
        bail!(
            "{}: no per_ply table (plot takes a `connect` or `mnk` report, or a `bench` one, written with --json)",
            args.report.display()
        );
    };
    let column =
        |key: &str| -> Option<Vec<f64>> { plies.iter().map(|p| p.get(key)?.as_f64()).collect() };
    let positions = column("positions")
        .filter(|p| !p.is_empty())
        .with_context(|| format!("{}: per_ply has no positions", args.report.display()))?;
    let values: Vec<(&str, Vec<f64>)> = VALUE_SERIES
        .iter()
        .find_map(|series| {
            series
                .iter()
                .map(|(k, name)| Some((*name, column(k)?)))
                .collect()
        })
        .unwrap_or_default();
    let title = match (report.get("cols"), report.get("rows")) {
        (Some(c), Some(r)) => format!("{c} columns × {r} rows"),
        _ => args.report.display().to_string(),
    };
    let svg = draw(&title, &positions, &values)?;
    retrograde::atomic_file::write_atomically(&args.out, format!("{MARKER}\n{svg}").as_bytes())
        .with_context(|| args.out.display().to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// Refuses a file at `path` that this command did not write, unless forced.
fn refuse_foreign(path: &Path, force: bool) -> anyhow::Result<()> {
    if force || !path.exists() {
        return Ok(());
    }
    let ours = std::fs::read(path)
        .map(|bytes| bytes.starts_with(MARKER.as_bytes()))
        .unwrap_or(false);
    if !ours {
        bail!(
            "{}: a file that plot did not write is there; --force replaces it",
            path.display()
        );
    }
    Ok(())
}

/// The SVG text of the two panels.
fn draw(title: &str, positions: &[f64], values: &[(&str, Vec<f64>)]) -> anyhow::Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 640)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let (top, bottom) = root.split_vertically(320);
        let plies = positions.len() as u32;
        let most = positions.iter().copied().fold(1.0, f64::max) * 2.0;
        let mut chart = ChartBuilder::on(&top)
            .caption(format!("{title}: positions per ply"), ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(70)
            .build_cartesian_2d(0..plies, (1f64..most).log_scale())
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("ply")
            .y_desc("positions")
            .draw()
            .map_err(plot_error)?;
        let points = positions
            .iter()
            .enumerate()
            .map(|(p, &n)| (p as u32, n.max(1.0)));
        chart
            .draw_series(LineSeries::new(points, &BLUE))
            .map_err(plot_error)?;
        if !values.is_empty() {
            let most = values
                .iter()
                .flat_map(|(_, v)| v.iter().copied())
                .fold(1.0, f64::max)
                * 2.0;
            let mut chart = ChartBuilder::on(&bottom)
                .caption(format!("{title}: positions by value"), ("sans-serif", 18))
                .margin(10)
                .x_label_area_size(30)
                .y_label_area_size(70)
                .build_cartesian_2d(0..plies, (1f64..most).log_scale())
                .map_err(plot_error)?;
            chart
                .configure_mesh()
                .x_desc("ply")
                .draw()
                .map_err(plot_error)?;
            for ((name, series), colour) in values.iter().zip([GREEN, BLACK, RED]) {
                let points = series
                    .iter()
                    .enumerate()
                    .map(|(p, &n)| (p as u32, n.max(1.0)));
                chart
                    .draw_series(LineSeries::new(points, colour))
                    .map_err(plot_error)?
                    .label(*name)
                    .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour));
            }
            chart
                .configure_series_labels()
                .background_style(WHITE)
                .border_style(BLACK)
                .draw()
                .map_err(plot_error)?;
        }
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// The SVG text of a bench report: speed-up against threads, a line a
/// workload, and the ideal (speed-up = threads).
fn draw_scaling(rows: &[Value]) -> anyhow::Result<String> {
    let mut workloads: Vec<(String, Vec<(u32, f64)>)> = Vec::new();
    for row in rows {
        let (Some(name), Some(threads), Some(speedup)) = (
            row.get("workload").and_then(Value::as_str),
            row.get("threads").and_then(Value::as_u64),
            row.get("speedup").and_then(Value::as_f64),
        ) else {
            bail!("a bench row without workload, threads and speedup: {row}");
        };
        match workloads.iter_mut().find(|(w, _)| w == name) {
            Some((_, points)) => points.push((threads as u32, speedup)),
            None => workloads.push((name.to_string(), vec![(threads as u32, speedup)])),
        }
    }
    let most_threads = workloads
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(t, _)| t))
        .max()
        .context("the bench report has no rows")?;
    let most = workloads
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(_, s)| s))
        .fold(most_threads as f64, f64::max)
        * 1.1;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("retrograde bench: speed-up by threads", ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(50)
            .build_cartesian_2d(1u32..most_threads.max(2), 0f64..most)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("threads")
            .y_desc("speed-up")
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(LineSeries::new(
                (1..=most_threads.max(2)).map(|t| (t, t as f64)),
                BLACK.mix(0.3),
            ))
            .map_err(plot_error)?
            .label("ideal")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK.mix(0.3)));
        for (i, (name, points)) in workloads.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(points.iter().copied(), colour))
                .map_err(plot_error)?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE)
            .border_style(BLACK)
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

fn plot_error<E: std::fmt::Debug>(err: E) -> anyhow::Error {
    anyhow::anyhow!("drawing the plot: {err:?}")
}
