//! A tornado chart: a row per parameter, biggest first, a bar from zero to the change each
//! of its settings makes to one headline, with its interval where it is an estimate and its
//! value at the bar's end.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::frame::*;
use super::{Area, Estimate, colour};

/// At most this many rows stay readable at the standard size; the caption says when more
/// were left out (the table has them all).
const MOST: usize = 16;

/// A row: the parameter's label and each setting's (label, change).
type Row = (String, Vec<(String, Estimate)>);

/// A bar's label at its end: the setting and the change ("4: +2.5", a minus sign for less).
fn value(to: &str, v: &Estimate, share: bool) -> String {
    let value = if v.p == 0.0 {
        "0".to_string()
    } else if share {
        format!("{:+.1}", v.p * 100.0)
    } else {
        format!("{:+.3}", v.p)
    };
    format!("{to}: {}", value.replace('-', "−"))
}

/// Draw row `ri` of `n` (row 0, the biggest, at the top): its name left of the plot (at
/// `lo`), a bar per setting with its whisker where it is an estimate, and its value at the
/// end. Returns whether any bar was an estimate.
fn draw_row<DB: DrawingBackend>(
    root: &Area<DB>,
    c: &Plot<DB>,
    (ri, n, lo): (usize, usize, f64),
    (name, bars): &Row,
    share: bool,
    s: Scale,
) -> Result<bool, String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let k = if share { 100.0 } else { 1.0 };
    let mut estimates = false;
    // Row 0 (the biggest) at the top.
    let top = (n - ri) as f64 - 0.12;
    let bottom = (n - ri - 1) as f64 + 0.12;
    let (lx, ly) = c.backend_coord(&(lo, (top + bottom) / 2.0));
    root.draw(&Text::new(
        name.clone(),
        (lx - s.px(8.0), ly),
        anchored(s.text(TEXT, BLACK), HPos::Right, VPos::Center),
    ))
    .map_err(e)?;
    let m = bars.len().max(1) as f64;
    let h = (top - bottom) / m;
    for (bi, (to, v)) in bars.iter().enumerate() {
        let y1 = top - bi as f64 * h;
        let y0 = y1 - h * 0.9;
        let col = colour(bi);
        let a = c.backend_coord(&(0.0, y1));
        let b = c.backend_coord(&(v.p * k, y0));
        root.draw(&Rectangle::new([a, b], col.filled()))
            .map_err(e)?;
        if v.low != v.p || v.high != v.p {
            estimates = true;
            let ym = c.backend_coord(&(0.0, (y0 + y1) / 2.0)).1;
            let l = c.backend_coord(&(v.low * k, 0.0)).0;
            let r = c.backend_coord(&(v.high * k, 0.0)).0;
            let cap_h = s.px(4.0);
            let ink = BLACK.stroke_width(s.px(1.5).max(1) as u32);
            for seg in [
                vec![(l, ym), (r, ym)],
                vec![(l, ym - cap_h), (l, ym + cap_h)],
                vec![(r, ym - cap_h), (r, ym + cap_h)],
            ] {
                root.draw(&PathElement::new(seg, ink)).map_err(e)?;
            }
        }
        let text = value(to, v, share);
        let end = c
            .backend_coord(&((if v.p < 0.0 { v.low } else { v.high }) * k, 0.0))
            .0;
        let ym = c.backend_coord(&(0.0, (y0 + y1) / 2.0)).1;
        let (x, pos) = if v.p < 0.0 {
            (end - s.px(4.0), HPos::Right)
        } else {
            (end + s.px(4.0), HPos::Left)
        };
        root.draw(&Text::new(
            text,
            (x, ym),
            anchored(s.text(TEXT, BLACK), pos, VPos::Center),
        ))
        .map_err(e)?;
    }
    Ok(estimates)
}

/// Draw a tornado chart on `root`; returns the height the drawing needs.
pub(super) fn draw<DB: DrawingBackend>(
    root: &Area<DB>,
    title: &str,
    x_label: &str,
    share: &bool,
    rows: &[Row],
    s: Scale,
) -> Result<i32, String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let shown = &rows[..rows.len().min(MOST)];
    // Each bar a line of text high: the plot grows with the rows.
    let bars_shown: usize = shown.iter().map(|r| r.1.len().max(1)).sum();
    let plot_h = PLOT_H.max(bars_shown as f64 * TEXT * 1.5 + shown.len() as f64 * 10.0 + 90.0);
    let f = frame(root, title, Place::None(0.0), plot_h, s)?;
    let k = if *share { 100.0 } else { 1.0 };
    let (mut lo, mut hi) = (0f64, 0f64);
    for (_, bars) in shown {
        for (_, v) in bars {
            lo = lo.min(v.low.min(v.p) * k);
            hi = hi.max(v.high.max(v.p) * k);
        }
    }
    let n = shown.len().max(1);
    let widest = shown
        .iter()
        .map(|(l, _)| text_w(l, s.em(TEXT)))
        .max()
        .unwrap_or(0);
    // Room either side for the value labels at the bars' ends: a margin `p` (in the
    // axis's unit) holding the widest label, p = label × (span + 2p) / plot width.
    let label_w = shown
        .iter()
        .flat_map(|r| {
            r.1.iter()
                .map(|(to, v)| text_w(&value(to, v, *share), s.em(TEXT)))
        })
        .max()
        .unwrap_or(0) as f64
        + s.px(12.0) as f64;
    let (plot_w, _) = f.plot.dim_in_pixel();
    let avail = (plot_w as i32 - (widest + s.px(16.0)).min(s.px(330.0)) - s.px(16.0)) as f64;
    let span = (hi - lo).max(1e-9);
    let pad = (label_w * span / (avail - 2.0 * label_w).max(avail / 4.0)).max(span * 0.05);
    let (lo, hi) = (lo - pad, hi + pad);
    let mut c = axes(
        &f.plot,
        8.0,
        (widest + s.px(16.0)).min(s.px(330.0)),
        lo..hi,
        0f64..n as f64,
        s,
    )?;
    let unit = if *share { " pts" } else { "" };
    mesh(&mut c, s, true)
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(6)
        .x_desc(x_label)
        .x_label_formatter(&|v| {
            if *share {
                format!("{v:+.0}{unit}").replace("+0", "0")
            } else {
                format!("{v:+.2}")
            }
        })
        .draw()
        .map_err(e)?;
    // The zero line: the rules as set.
    let z0 = c.backend_coord(&(0.0, 0.0));
    let z1 = c.backend_coord(&(0.0, n as f64));
    root.draw(&PathElement::new(
        vec![z0, z1],
        BLACK.stroke_width(s.px(1.5).max(1) as u32),
    ))
    .map_err(e)?;
    let mut estimates = false;
    for (ri, row) in shown.iter().enumerate() {
        estimates |= draw_row(root, &c, (ri, n, lo), row, *share, s)?;
    }
    let mut note = "Each bar is one setting (value: change) from the rules as set (0): blue a step down, orange a step up, then other values.".to_string();
    if estimates {
        note += " Whiskers: the intervals.";
    }
    if rows.len() > MOST {
        note = format!(
            "The {MOST} parameters that matter most of {}; the table has them all. {note}",
            rows.len()
        );
    }
    caption(root, f.caption_top, f.setup.as_deref(), &note, s)
}
