//! The picture of a board's per-ply table: positions per ply above, the
//! positions by value below, each on a [`CountAxis`] (0 on its own
//! baseline, then a log scale), a legend beside each panel.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::style::{
    draw_mark, legend, plot_error, CountAxis, Entry, Shape, BLACK_OI, FONT, LEGEND_WIDTH,
};

/// One line of a panel: a count a ply.
pub struct Series {
    pub name: &'static str,
    pub colour: RGBColor,
    pub shape: Shape,
    /// The count at each ply, from ply 0.
    pub counts: Vec<f64>,
}

/// The SVG text of the two panels: `positions` above, `values` below (no
/// lower panel when there are none).
pub fn draw(title: &str, positions: &[f64], values: &[Series]) -> anyhow::Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 660)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let (top, bottom) = root.split_vertically(330);
        let positions = [Series {
            name: "positions",
            colour: BLACK_OI,
            shape: Shape::Circle,
            counts: positions.to_vec(),
        }];
        panel(&top, &format!("{title}: positions per ply"), &positions)?;
        if !values.is_empty() {
            panel(&bottom, &format!("{title}: positions by value"), values)?;
        }
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// One panel: the chart of `series` by ply and, right of it, their legend.
fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    series: &[Series],
) -> anyhow::Result<()> {
    let width = area.dim_in_pixel().0;
    let (chart_area, legend_area) = area.split_horizontally(width.saturating_sub(LEGEND_WIDTH));
    let plies = series.iter().map(|s| s.counts.len()).max().unwrap_or(0);
    let last = (plies.saturating_sub(1) as u32).max(1);
    let most = series
        .iter()
        .flat_map(|s| s.counts.iter().copied())
        .fold(0.0, f64::max);
    let mut chart = ChartBuilder::on(&chart_area)
        .caption(title, (FONT, 18))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(65)
        .build_cartesian_2d(0..last, CountAxis::up_to(most))
        .map_err(plot_error)?;
    chart
        .configure_mesh()
        .x_desc("ply")
        .y_desc("positions (log scale)")
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 14))
        .draw()
        .map_err(plot_error)?;
    for s in series {
        // a count of 0 has no logarithm: no line reaches it, and its marker
        // is hollow, on the 0 baseline
        for run in nonzero_runs(&s.counts) {
            chart
                .draw_series(LineSeries::new(
                    run.map(|p| (p as u32, s.counts[p])),
                    s.colour.stroke_width(2),
                ))
                .map_err(plot_error)?;
        }
        for (p, &n) in s.counts.iter().enumerate() {
            draw_mark(
                chart.plotting_area(),
                (p as u32, n),
                s.shape,
                s.colour,
                n == 0.0,
            )?;
        }
    }
    let entries: Vec<Entry> = series
        .iter()
        .map(|s| Entry {
            label: s.name.to_string(),
            figure: None,
            colour: s.colour,
            shape: Some(s.shape),
            hollow: false,
            line: Some(false),
        })
        .collect();
    let zeros = series.iter().any(|s| s.counts.contains(&0.0));
    let notes = if zeros {
        vec![
            "hollow marker on the 0 line:".to_string(),
            "no positions at that ply".to_string(),
        ]
    } else {
        Vec::new()
    };
    legend(&legend_area, 48, &entries, &notes)
}

/// The ranges of consecutive plies whose counts are all above 0.
fn nonzero_runs(counts: &[f64]) -> Vec<std::ops::Range<usize>> {
    let mut runs = Vec::new();
    let mut start = None;
    for (p, &n) in counts.iter().enumerate() {
        match (n > 0.0, start) {
            (true, None) => start = Some(p),
            (false, Some(s)) => {
                runs.push(s..p);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        runs.push(s..counts.len());
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_join_only_counts_above_zero() {
        assert_eq!(nonzero_runs(&[0.0, 1.0, 2.0, 0.0, 5.0]), [1..3, 4..5]);
        assert_eq!(
            nonzero_runs(&[1.0, 1.0]),
            vec![std::ops::Range { start: 0, end: 2 }]
        );
        assert!(nonzero_runs(&[0.0, 0.0]).is_empty());
    }
}
