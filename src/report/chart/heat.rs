//! A heat map of chances (or means) over two swept settings: a cell per pair, labelled where
//! the label fits, and a colour bar.
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::Area;
use super::frame::*;

/// Draw a heat map on `root` (`cells[y][x]`; `range`: `None` for chances, else the means'
/// lightest and darkest values); returns the height the drawing needs.
pub(super) fn draw<DB: DrawingBackend>(
    root: &Area<DB>,
    title: &str,
    x: &(String, Vec<String>),
    y: &(String, Vec<String>),
    cells: &[Vec<f64>],
    range: &Option<(f64, f64)>,
    s: Scale,
) -> Result<i32, String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    // Where a cell's value falls on the colour scale (0–1).
    let shade = |v: f64| match range {
        None => v,
        Some((lo, hi)) if hi > lo => (v - lo) / (hi - lo),
        Some(_) => 0.5,
    };
    let f = frame(root, title, Place::None(130.0), PLOT_H, s)?;
    let (nx, ny) = (x.1.len().max(1), y.1.len().max(1));
    let widest_of = |names: &[String]| {
        names
            .iter()
            .map(|n| text_w(n, s.em(TEXT)))
            .max()
            .unwrap_or(0)
    };
    let y_area = widest_of(&y.1) + s.px(56.0);
    // The widest x name, against the room a cell has: show every k-th name when they
    // would touch.
    let (plot_w, _) = f.plot.dim_in_pixel();
    let room = ((plot_w as i32 - y_area - s.px(16.0)) / nx as i32).max(1);
    let x_every = ((widest_of(&x.1) + s.px(10.0)) / room + 1).max(1) as usize;
    let mut c = axes(&f.plot, 8.0, y_area, 0f64..nx as f64, 0f64..ny as f64, s)?;
    mesh(&mut c, s, false)
        .disable_mesh()
        .x_labels(nx * 2 + 1)
        .y_labels(ny * 2 + 1)
        .x_label_formatter(&|v| {
            // Crowded names: every k-th, so that they never run together.
            let i = (v - 0.5).round();
            if i >= 0.0 && !(i as usize).is_multiple_of(x_every) {
                String::new()
            } else {
                cell_label(*v, &x.1)
            }
        })
        .y_label_formatter(&|v| cell_label(*v, &y.1))
        .x_desc(x.0.as_str())
        .y_desc(y.0.as_str())
        .draw()
        .map_err(e)?;
    for (yi, row) in cells.iter().enumerate() {
        for (xi, &p) in row.iter().enumerate() {
            let (x0, y0) = (xi as f64, yi as f64);
            let a = c.backend_coord(&(x0, y0));
            let b = c.backend_coord(&(x0 + 1.0, y0 + 1.0));
            root.draw(&Rectangle::new([a, b], heat(shade(p)).filled()))
                .map_err(e)?;
            let text = if p.is_nan() {
                "—".to_string()
            } else if range.is_some() {
                format!("{p:.2}")
            } else {
                format!("{:.1}%", 100.0 * p)
            };
            // A label only where it fits its cell (the colour bar carries the rest).
            let (cw, ch) = ((b.0 - a.0).abs(), (b.1 - a.1).abs());
            let fits =
                text_w(&text, s.em(TEXT)) + s.px(6.0) <= cw && s.line(TEXT) + s.px(2.0) <= ch;
            if fits {
                let size = TEXT;
                root.draw(&Text::new(
                    text,
                    ((a.0 + b.0) / 2, (a.1 + b.1) / 2),
                    anchored(
                        s.text(size, ink_on(heat(shade(p)))),
                        HPos::Center,
                        VPos::Center,
                    ),
                ))
                .map_err(e)?;
            }
        }
    }
    if let Some(area) = &f.legend {
        colour_bar(area, *range, s)?;
    }
    caption(root, f.caption_top, f.setup.as_deref(), "", s)
}

/// The heat map's colour at probability `p`: white (0) to deep blue (1); grey when unknown.
fn heat(p: f64) -> RGBColor {
    if p.is_nan() {
        return RGBColor(200, 200, 200);
    }
    let t = p.clamp(0.0, 1.0);
    RGBColor(
        (255.0 - 247.0 * t) as u8,
        (255.0 - 207.0 * t) as u8,
        (255.0 - 148.0 * t) as u8,
    )
}

/// The heat map's colour bar: 0% at the bottom to 100% at the top (or a mean's range), ticks
/// every quarter.
fn colour_bar<DB: DrawingBackend>(
    area: &Area<DB>,
    range: Option<(f64, f64)>,
    s: Scale,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let (_, h) = area.dim_in_pixel();
    let (top, bottom) = (s.px(40.0), h as i32 - s.px(70.0));
    let (x0, x1) = (s.px(16.0), s.px(40.0));
    let steps = 100;
    for i in 0..steps {
        let p = (i as f64 + 0.5) / steps as f64;
        let y_hi = bottom - (bottom - top) * (i + 1) / steps;
        let y_lo = bottom - (bottom - top) * i / steps;
        area.draw(&Rectangle::new([(x0, y_hi), (x1, y_lo)], heat(p).filled()))
            .map_err(e)?;
    }
    area.draw(&Rectangle::new(
        [(x0, top), (x1, bottom)],
        BLACK.stroke_width(1),
    ))
    .map_err(e)?;
    for q in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let y = bottom - ((bottom - top) as f64 * q).round() as i32;
        area.draw(&PathElement::new(
            vec![(x1, y), (x1 + s.px(5.0), y)],
            BLACK.stroke_width(1),
        ))
        .map_err(e)?;
        area.draw(&Text::new(
            match range {
                None => format!("{:.0}%", 100.0 * q),
                Some((lo, hi)) => format!("{:.2}", lo + (hi - lo) * q),
            },
            (x1 + s.px(8.0), y),
            anchored(s.text(TEXT, BLACK), HPos::Left, VPos::Center),
        ))
        .map_err(e)?;
    }
    area.draw(&Text::new(
        if range.is_some() { "mean" } else { "chance" }.to_string(),
        (x0, top - s.px(30.0)),
        anchored(s.text(TEXT, BLACK), HPos::Left, VPos::Top),
    ))
    .map_err(e)
}

/// The label of a heat-map axis at `v`: a cell's name at its middle, else nothing.
fn cell_label(v: f64, names: &[String]) -> String {
    let i = (v - 0.5).round();
    if (v - 0.5 - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
        names[i as usize].clone()
    } else {
        String::new()
    }
}
