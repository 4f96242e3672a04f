//! What every plot shares: the Okabe–Ito palette, marker shapes, the count
//! axis (0 on its own baseline, then powers of ten with SI suffixes) and
//! the legend, drawn beside the data area, never over it.

use std::ops::Range;

use plotters::coord::ranged1d::{
    KeyPointHint, KeyPointWeight, NoDefaultFormatting, Ranged, ValueFormatter,
};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Okabe and Ito's palette ("Color Universal Design", 2008), told apart
/// with every common colour-vision deficiency. Its yellow (240, 228, 66)
/// is left out: too faint on white.
pub const BLACK_OI: RGBColor = RGBColor(0, 0, 0);
/// Okabe–Ito orange.
pub const ORANGE: RGBColor = RGBColor(230, 159, 0);
/// Okabe–Ito sky blue.
pub const SKY_BLUE: RGBColor = RGBColor(86, 180, 233);
/// Okabe–Ito bluish green.
pub const BLUISH_GREEN: RGBColor = RGBColor(0, 158, 115);
/// Okabe–Ito blue.
pub const BLUE_OI: RGBColor = RGBColor(0, 114, 178);
/// Okabe–Ito vermillion.
pub const VERMILLION: RGBColor = RGBColor(213, 94, 0);
/// Okabe–Ito reddish purple.
pub const REDDISH_PURPLE: RGBColor = RGBColor(204, 121, 167);

/// The colours of a plot's lines, in the order they are given out.
pub const SERIES: [RGBColor; 6] = [
    BLUE_OI,
    VERMILLION,
    BLUISH_GREEN,
    REDDISH_PURPLE,
    ORANGE,
    SKY_BLUE,
];

/// The grey of the ideal line and of notes.
pub const GREY: RGBColor = RGBColor(110, 110, 110);

/// Width of the legend strip right of every chart, in pixels.
pub const LEGEND_WIDTH: u32 = 230;

/// The font of titles, labels and the legend.
pub const FONT: &str = "sans-serif";

/// A marker's shape: with colour, a second cue to tell series apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Circle,
    Square,
    Triangle,
    Diamond,
}

impl Shape {
    /// The shape of the `i`-th series; with [`SERIES`] of six colours and
    /// four shapes, the first twelve series differ in one or the other.
    pub fn nth(i: usize) -> Shape {
        [
            Shape::Circle,
            Shape::Triangle,
            Shape::Square,
            Shape::Diamond,
        ][i % 4]
    }
}

/// Draws a marker of `shape` at `at` on `area` (a chart's plotting area, in
/// its coordinates, or a strip, in pixels): filled, or hollow (the outline
/// only, twice as thick).
pub fn draw_mark<DB: DrawingBackend, CT: CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    shape: Shape,
    colour: RGBColor,
    hollow: bool,
) -> anyhow::Result<()> {
    let style = if hollow {
        colour.stroke_width(2)
    } else {
        colour.filled()
    };
    let corners: &[(i32, i32)] = match shape {
        Shape::Triangle => &[(0, -5), (5, 4), (-5, 4)],
        _ => &[(0, -5), (5, 0), (0, 5), (-5, 0)],
    };
    let at = EmptyElement::at(at);
    match shape {
        Shape::Circle => area.draw(&(at + Circle::new((0, 0), 4, style))),
        Shape::Square => area.draw(&(at + Rectangle::new([(-4, -4), (4, 4)], style))),
        _ if hollow => {
            let mut outline = corners.to_vec();
            outline.push(corners[0]);
            area.draw(&(at + PathElement::new(outline, style)))
        }
        _ => area.draw(&(at + Polygon::new(corners.to_vec(), style))),
    }
    .map_err(plot_error)
}

/// `n` with an SI suffix: 1, 10, 100, 1k, 10k, 2.5M, 1G … (an exact
/// integer below 1,000 as it is; beyond 10^18, `1e21`).
pub fn si(n: f64) -> String {
    const SUFFIXES: [&str; 7] = ["", "k", "M", "G", "T", "P", "E"];
    if !n.is_finite() || n.abs() >= 1e21 {
        return format!("{n:e}");
    }
    let mut value = n;
    let mut i = 0;
    while value.abs() >= 1000.0 && i + 1 < SUFFIXES.len() {
        value /= 1000.0;
        i += 1;
    }
    format!("{}{}", short(value), SUFFIXES[i])
}

/// `v` with at most two decimals and no trailing zeros: 1, 1.5, 0.25.
pub fn short(v: f64) -> String {
    let text = format!("{v:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

/// Room below the 0 baseline, in decades, so that its markers stand clear
/// of the axis line.
const BELOW_BASELINE: f64 = 0.3;

/// A vertical axis of counts: 0 on a baseline one decade below 1, then a
/// log scale from 1 up to `10^top`. A count of 0 has no logarithm; on its
/// own baseline, labelled "0", it cannot be read as a count of 1.
///
/// Invariant: `top >= 1`; every count `0 <= n <= 10^top` maps inside the axis.
#[derive(Debug, Clone, Copy)]
pub struct CountAxis {
    top: i32,
}

impl CountAxis {
    /// The axis for counts up to `most`: its top is the first power of ten
    /// above `most` (at least 10).
    pub fn up_to(most: f64) -> CountAxis {
        let top = if most >= 1.0 {
            most.log10().floor() as i32 + 1
        } else {
            1
        };
        CountAxis { top: top.max(1) }
    }

    /// The height of `n` in decades: `log10 n` from 1 up, −1 for 0.
    fn decades(self, n: f64) -> f64 {
        if n >= 1.0 {
            n.log10()
        } else {
            -1.0
        }
    }
}

impl Ranged for CountAxis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let bottom = -1.0 - BELOW_BASELINE;
        let t = (self.decades(*value) - bottom) / (f64::from(self.top) - bottom);
        limit.0 + (f64::from(limit.1 - limit.0) * t).round() as i32
    }

    /// Bold points: 0 and the powers of ten (every second or third one on
    /// a tall axis); light points: 2–9 times each power of ten.
    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        let powers = 0..=self.top;
        match hint.weight() {
            KeyPointWeight::Bold => {
                let room = hint.max_num_points().max(3) - 1;
                let step = (self.top as usize + 1).div_ceil(room).max(1);
                std::iter::once(0.0)
                    .chain(powers.step_by(step).map(|p| 10f64.powi(p)))
                    .collect()
            }
            KeyPointWeight::Any => (0..self.top)
                .flat_map(|p| (2..10).map(move |m| f64::from(m) * 10f64.powi(p)))
                .collect(),
        }
    }

    fn range(&self) -> Range<f64> {
        0.0..10f64.powi(self.top)
    }
}

impl ValueFormatter<f64> for CountAxis {
    fn format_ext(&self, value: &f64) -> String {
        si(*value)
    }
}

/// One line of a legend.
pub struct Entry {
    /// The series' name.
    pub label: String,
    /// A figure printed right of the name (e.g. the speed-up reached).
    pub figure: Option<String>,
    pub colour: RGBColor,
    /// The marker drawn on its sample, if any.
    pub shape: Option<Shape>,
    /// Whether the marker is hollow.
    pub hollow: bool,
    /// The line of its sample: `None`, solid, or dashed.
    pub line: Option<bool>,
}

/// Draws `entries` down the strip `area` from `top` pixels, then `notes`
/// (grey, one a line) below them; returns nothing but errors.
pub fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    top: i32,
    entries: &[Entry],
    notes: &[String],
) -> anyhow::Result<()> {
    let left = 8;
    let text = |colour: RGBColor, h: HPos| {
        (FONT, 15)
            .into_font()
            .color(&colour)
            .pos(Pos::new(h, VPos::Center))
    };
    let mut y = top;
    for entry in entries {
        match entry.line {
            Some(false) => area.draw(&PathElement::new(
                [(left, y), (left + 28, y)],
                entry.colour.stroke_width(2),
            )),
            Some(true) => area
                .draw(&PathElement::new([(left, y), (left + 11, y)], entry.colour))
                .and_then(|()| {
                    area.draw(&PathElement::new(
                        [(left + 17, y), (left + 28, y)],
                        entry.colour,
                    ))
                }),
            None => Ok(()),
        }
        .map_err(plot_error)?;
        if let Some(shape) = entry.shape {
            draw_mark(area, (left + 14, y), shape, entry.colour, entry.hollow)?;
        }
        area.draw(&Text::new(
            entry.label.clone(),
            (left + 36, y),
            text(BLACK_OI, HPos::Left),
        ))
        .map_err(plot_error)?;
        if let Some(figure) = &entry.figure {
            let right = area.dim_in_pixel().0 as i32 - 8;
            area.draw(&Text::new(
                figure.clone(),
                (right, y),
                text(BLACK_OI, HPos::Right),
            ))
            .map_err(plot_error)?;
        }
        y += 22;
    }
    y += 6;
    for note in notes {
        area.draw(&Text::new(note.clone(), (left, y), text(GREY, HPos::Left)))
            .map_err(plot_error)?;
        y += 19;
    }
    Ok(())
}

/// A drawing error as one line.
pub fn plot_error<E: std::fmt::Debug>(err: E) -> anyhow::Error {
    anyhow::anyhow!("drawing the plot: {err:?}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::coord::ranged1d::BoldPoints;

    #[test]
    fn counts_are_labelled_with_si_suffixes() {
        let labels: Vec<String> = [
            0.0, 1.0, 10.0, 100.0, 1e3, 1e4, 1e6, 2.5e6, 1e7, 1e9, 1e12, 1e18,
        ]
        .iter()
        .map(|&n| si(n))
        .collect();
        assert_eq!(
            labels,
            ["0", "1", "10", "100", "1k", "10k", "1M", "2.5M", "10M", "1G", "1T", "1E"]
        );
        assert_eq!(si(1e21), "1e21");
        assert_eq!(short(1.5), "1.5");
        assert_eq!(short(2.0), "2");
        assert_eq!(short(0.30000000000000004), "0.3");
    }

    #[test]
    fn zero_has_its_own_baseline_below_one() {
        let axis = CountAxis::up_to(5478.0);
        assert_eq!(axis.range(), 0.0..10_000.0);
        // pixels grow upwards from 300 (the bottom) to 0 (the top)
        let y = |n: f64| axis.map(&n, (300, 0));
        assert!((280..300).contains(&y(0.0)), "{}", y(0.0));
        assert_eq!(y(10_000.0), 0);
        assert!(y(0.0) - y(1.0) >= 50, "{} {}", y(0.0), y(1.0));
        // decades are equally tall, to the pixel
        assert!((y(1.0) - y(10.0)).abs_diff(y(10.0) - y(100.0)) <= 1);
        let bold = axis.key_points(BoldPoints(10));
        assert_eq!(bold, [0.0, 1.0, 10.0, 100.0, 1e3, 1e4]);
        // a tall axis thins its labels, and keeps the baseline
        let tall = CountAxis::up_to(3e14).key_points(BoldPoints(6));
        assert!(
            tall.len() <= 7 && tall[0] == 0.0 && tall[1] == 1.0,
            "{tall:?}"
        );
        assert_eq!(CountAxis::up_to(0.0).range(), 0.0..10.0);
    }
}
