//! The picture of a `bench --json` report: speed-up against threads, a
//! line a workload beside the ideal (speed-up = threads), whiskers from
//! the slowest to the fastest run, and, in the legend beside the chart,
//! each workload's speed-up at the most threads — the figure of the
//! report's table.

use anyhow::{bail, Context};
use plotters::prelude::*;
use serde_json::Value;

use super::style::{
    draw_mark, legend, plot_error, short, Entry, Shape, BLACK_OI, FONT, GREY, LEGEND_WIDTH, SERIES,
    VERMILLION,
};

/// A point of a workload's line.
struct Point {
    threads: u32,
    speedup: f64,
    /// The speed-up of this thread count's slowest and fastest run against
    /// the median at the first thread count, when the report has them.
    range: Option<(f64, f64)>,
}

/// The rows of `rows` grouped by workload, in the order they first appear.
fn workloads(rows: &[Value]) -> anyhow::Result<Vec<(String, Vec<Point>)>> {
    let mut workloads: Vec<(String, Vec<Point>)> = Vec::new();
    for row in rows {
        let (Some(name), Some(threads), Some(speedup)) = (
            row.get("workload").and_then(Value::as_str),
            row.get("threads").and_then(Value::as_u64),
            row.get("speedup").and_then(Value::as_f64),
        ) else {
            bail!("a bench row without workload, threads and speedup: {row}");
        };
        let seconds = |key| row.get(key).and_then(Value::as_f64).filter(|&s| s > 0.0);
        let range = match (
            seconds("seconds"),
            seconds("min_seconds"),
            seconds("max_seconds"),
        ) {
            (Some(median), Some(min), Some(max)) => {
                Some((speedup * median / max, speedup * median / min))
            }
            _ => None,
        };
        let point = Point {
            threads: u32::try_from(threads).unwrap_or(u32::MAX),
            speedup,
            range,
        };
        match workloads.iter_mut().find(|(w, _)| w == name) {
            Some((_, points)) => points.push(point),
            None => workloads.push((name.to_string(), vec![point])),
        }
    }
    Ok(workloads)
}

/// The line under the title: runs, machine, date and build, as far as the
/// report records them.
fn subtitle(report: &Value) -> String {
    let machine = &report["machine"];
    let text = |v: &Value| v.as_str().map(str::to_string);
    let mut parts = Vec::new();
    if let Some(runs) = report["runs"].as_u64() {
        parts.push(format!(
            "median of {runs} run{}",
            if runs == 1 { "" } else { "s" }
        ));
    }
    match (machine["cores"].as_u64(), text(&machine["cpu"])) {
        (Some(cores), Some(cpu)) => parts.push(format!("{cores} cores ({cpu})")),
        (Some(cores), None) => parts.push(format!("{cores} cores")),
        _ => {}
    }
    if let Some(date) = text(&machine["date"]) {
        parts.push(date.get(..10).unwrap_or(&date).to_string());
    }
    if let (Some(version), Some(commit)) = (text(&machine["version"]), text(&machine["commit"])) {
        parts.push(format!("retrograde {version} ({commit})"));
    }
    parts.join(" · ")
}

/// The SVG text of the bench report `report`.
pub fn draw(report: &Value) -> anyhow::Result<String> {
    let rows = report["rows"]
        .as_array()
        .context("a bench report has rows")?;
    let workloads = workloads(rows)?;
    let most_threads = workloads
        .iter()
        .flat_map(|(_, p)| p.iter().map(|p| p.threads))
        .max()
        .context("the bench report has no rows")?
        .max(2);
    let most = workloads
        .iter()
        .flat_map(|(_, p)| p.iter().map(|p| p.range.map_or(p.speedup, |r| r.1)))
        .fold(f64::from(most_threads), f64::max)
        * 1.1;
    let noisy = report["noisy"].as_bool() == Some(true);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let (header, body) = root.split_vertically(68);
        let (chart_area, legend_area) = body.split_horizontally(900 - LEGEND_WIDTH);
        let centre = ((900 - LEGEND_WIDTH) / 2) as i32;
        let centred = |size, colour: RGBColor| {
            (FONT, size)
                .into_font()
                .color(&colour)
                .pos(plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Center,
                    plotters::style::text_anchor::VPos::Center,
                ))
        };
        header
            .draw(&Text::new(
                "retrograde bench: speed-up by threads",
                (centre, 16),
                centred(18, BLACK_OI),
            ))
            .map_err(plot_error)?;
        header
            .draw(&Text::new(
                subtitle(report),
                (centre, 38),
                centred(12, GREY),
            ))
            .map_err(plot_error)?;
        if noisy {
            header
                .draw(&Text::new(
                    "noisy figures: see the report's \"noise\"",
                    (centre, 56),
                    centred(12, VERMILLION),
                ))
                .map_err(plot_error)?;
        }
        let mut chart = ChartBuilder::on(&chart_area)
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(55)
            .build_cartesian_2d(1u32..most_threads, 0f64..most)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("threads")
            .y_desc("speed-up")
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 14))
            .y_label_formatter(&|v| format!("{}×", short(*v)))
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(DashedLineSeries::new(
                (1..=most_threads).map(|t| (t, f64::from(t))),
                8,
                5,
                GREY.stroke_width(2),
            ))
            .map_err(plot_error)?;
        let mut entries = vec![Entry {
            label: "ideal (speed-up = threads)".into(),
            figure: None,
            colour: GREY,
            shape: None,
            hollow: false,
            line: Some(true),
        }];
        for (i, (name, points)) in workloads.iter().enumerate() {
            let (colour, shape) = (SERIES[i % SERIES.len()], Shape::nth(i));
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|p| (p.threads, p.speedup)),
                    colour.stroke_width(2),
                ))
                .map_err(plot_error)?;
            for p in points {
                if let Some((lo, hi)) = p.range {
                    let whisker = colour.stroke_width(2);
                    let area = chart.plotting_area();
                    area.draw(&PathElement::new(
                        [(p.threads, lo), (p.threads, hi)],
                        whisker,
                    ))
                    .map_err(plot_error)?;
                    for end in [lo, hi] {
                        let cap = PathElement::new([(-4, 0), (4, 0)], whisker);
                        area.draw(&(EmptyElement::at((p.threads, end)) + cap))
                            .map_err(plot_error)?;
                    }
                }
            }
            for p in points {
                draw_mark(
                    chart.plotting_area(),
                    (p.threads, p.speedup),
                    shape,
                    colour,
                    false,
                )?;
            }
            let last = points.iter().max_by_key(|p| p.threads);
            entries.push(Entry {
                label: name.clone(),
                figure: last.map(|p| format!("{:.2}×", p.speedup)),
                colour,
                shape: Some(shape),
                hollow: false,
                line: Some(false),
            });
        }
        let top = workloads
            .iter()
            .flat_map(|(_, p)| p.iter().map(|p| p.threads))
            .max()
            .unwrap_or(1);
        let mut notes = vec![format!("figures: the speed-up at {top} threads")];
        if workloads
            .iter()
            .any(|(_, p)| p.iter().any(|p| p.range.is_some()))
        {
            notes.push("whiskers: slowest to fastest run".into());
        }
        legend(&legend_area, 24, &entries, &notes)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subtitle_names_runs_machine_date_and_build() {
        let report = serde_json::json!({
            "runs": 5,
            "machine": {"cores": 2, "cpu": "AMD EPYC", "date": "2026-11-24T21:30:00Z",
                        "version": "0.1.0", "commit": "0e9c653"},
            "rows": [],
        });
        assert_eq!(
            subtitle(&report),
            "median of 5 runs · 2 cores (AMD EPYC) · 2026-11-24 · retrograde 0.1.0 (0e9c653)"
        );
        assert_eq!(subtitle(&serde_json::json!({"rows": []})), "");
    }
}
