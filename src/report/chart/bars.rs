//! Grouped bars with interval whiskers: categories × series, the category names wrapped
//! under their groups, and the caption saying how wide the intervals are where they are
//! narrower than the marks.
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::frame::*;
use super::{Area, Series, series_colours};

/// Grouped bars with interval whiskers: categories × series.
#[derive(Debug, Clone, PartialEq)]
pub struct Bars {
    /// Title: the question, or a sentence.
    pub title: String,
    /// What the bars measure (y axis).
    pub y_label: String,
    /// The level of the intervals, e.g. "95%".
    pub level: String,
    /// Category labels (x axis), in words.
    pub categories: Vec<String>,
    /// The bars are chances (a 0–100% axis), not means (an axis from 0 to the largest).
    pub share: bool,
    /// The series.
    pub series: Vec<Series>,
    /// Categories left out because they (almost) never happen, in words: the caption
    /// names them.
    pub left_out: Vec<String>,
}

/// Draw a bar chart on `root`; returns the height the drawing needs.
pub(super) fn draw<DB: DrawingBackend>(
    root: &Area<DB>,
    chart: &Bars,
    s: Scale,
) -> Result<i32, String>
where
    DB::ErrorType: 'static,
{
    let Bars {
        title,
        y_label,
        level,
        categories,
        share,
        series,
        left_out,
    } = chart;
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let names: Vec<String> = series.iter().map(|x| x.0.clone()).collect();
    let entries = series_entries(&names, Key::Bar);
    let f = frame(root, title, Place::Below(&entries), PLOT_H, s)?;
    let plot = &f.plot;
    let n = categories.len().max(1);
    let top = if *share {
        1.0
    } else {
        series
            .iter()
            .flat_map(|x| x.1.iter().flatten().map(|v| v.high.max(v.p)))
            .fold(0.0f64, f64::max)
            .max(1e-9)
            * 1.1
    };
    let mut c = axes(plot, 8.0, y_area(y_label, s), 0f64..n as f64, 0f64..top, s)?;
    mesh(&mut c, s, true)
        .disable_x_mesh()
        .x_labels(0)
        .y_label_formatter(&|v| {
            if *share {
                format!("{:.0}%", 100.0 * v)
            } else {
                tick(*v, top)
            }
        })
        .draw()
        .map_err(e)?;
    y_desc(root, plot, &c, y_label, s)?;
    let k = series.len().max(1) as f64;
    let width = 0.8 / k;
    let mut widest = (0, 0.0f64);
    let colours = series_colours(&names);
    for (si, (_, values)) in series.iter().enumerate() {
        let col = colours[si];
        for (ci, v) in values.iter().enumerate() {
            let Some(v) = v else { continue };
            let x0 = ci as f64 + 0.1 + si as f64 * width;
            let x1 = x0 + width * 0.9;
            let (a, b) = (c.backend_coord(&(x0, 0.0)), c.backend_coord(&(x1, v.p)));
            root.draw(&Rectangle::new([a, b], col.filled()))
                .map_err(e)?;
            let mid = (a.0 + b.0) / 2;
            if a.1 - b.1 > s.px(24.0) && b.0 - a.0 > s.px(12.0) {
                marker(root, (mid, a.1 - s.px(10.0)), si, ink_on(col), s)?;
            }
            // The whisker with its caps.
            let lo = c.backend_coord(&(x0, v.low)).1;
            let hi = c.backend_coord(&(x0, v.high)).1;
            let cap_w = ((b.0 - a.0) / 4).max(s.px(4.0));
            let ink = BLACK.stroke_width(s.px(1.5).max(1) as u32);
            for seg in [
                vec![(mid, lo), (mid, hi)],
                vec![(mid - cap_w, lo), (mid + cap_w, lo)],
                vec![(mid - cap_w, hi), (mid + cap_w, hi)],
            ] {
                root.draw(&PathElement::new(seg, ink)).map_err(e)?;
            }
            // The tallest on the canvas and the widest in value, apart: pixels round, so the
            // tallest drawn need not be the widest interval.
            widest = (widest.0.max(lo - hi), widest.1.max((v.high - v.low) / 2.0));
        }
    }
    // Category names under their groups, wrapped to the group's width.
    let group_w = c.backend_coord(&(1.0, 0.0)).0 - c.backend_coord(&(0.0, 0.0)).0;
    for (ci, name) in categories.iter().enumerate() {
        let (px, py) = c.backend_coord(&(ci as f64 + 0.5, 0.0));
        for (li, line) in balanced(name, s.em(TEXT), group_w - s.px(6.0))
            .iter()
            .enumerate()
        {
            root.draw(&Text::new(
                line.clone(),
                (px, py + s.px(8.0) + li as i32 * s.line(TEXT)),
                anchored(s.text(TEXT, BLACK), HPos::Center, VPos::Top),
            ))
            .map_err(e)?;
        }
    }
    let note = if widest.0 < s.px(10.0) && *share {
        format!(
            "The {level} intervals are narrower than the marks (the widest is ±{:.2} points).",
            100.0 * widest.1
        )
    } else if widest.0 < s.px(10.0) {
        format!(
            "The {level} intervals are narrower than the marks (the widest is ±{:.3}).",
            widest.1
        )
    } else {
        format!("Whiskers: the {level} intervals.")
    };
    let note = if left_out.is_empty() {
        note
    } else {
        format!(
            "{note} Not drawn, under 0.05% in every variant: {}.",
            left_out.join(", ")
        )
    };
    caption(root, f.caption_top, f.setup.as_deref(), &note, s)
}
