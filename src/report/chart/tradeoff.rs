//! A trade-off between two headlines: a point per variant, at its exact values where they
//! are known, else at its estimates with their intervals both ways; the better way on each
//! axis said, and an arrow into the better corner where both are known.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::frame::*;
use super::{Area, Estimate, series_colours};

/// A variant's point: its name and its value on each axis.
type Point = (String, Estimate, Estimate);

/// A trade-off between two headlines: a point per variant at (first, second), at the exact
/// values where they are known, else at the estimates with their intervals both ways.
#[derive(Debug, Clone, PartialEq)]
pub struct Tradeoff {
    /// Title.
    pub title: String,
    /// The x axis (the first headline): what and in which unit.
    pub x_label: String,
    /// The y axis (the second headline).
    pub y_label: String,
    /// Whether each axis is a chance (drawn in per cent, within 0–100%), not a mean.
    pub share: (bool, bool),
    /// Which way is better on each axis, where it is known: `Some(true)` higher,
    /// `Some(false)` lower. The axes say so, and an arrow points to the better corner.
    pub better: (Option<bool>, Option<bool>),
    /// The level of the intervals, e.g. "95%".
    pub level: String,
    /// The points: the variant's name and its value on each axis.
    pub points: Vec<(String, Estimate, Estimate)>,
    /// Variants not drawn (shown for scale in the report's table, not asked about), named in
    /// the caption.
    pub left_out: Vec<String>,
}

/// Where a point sits: the exact value where known, else the estimate.
fn at(v: &Estimate) -> f64 {
    v.exact.unwrap_or(v.p)
}

/// Whether a value is drawn with its interval: an estimate whose interval has a width.
fn whisker(v: &Estimate) -> bool {
    v.exact.is_none() && (v.low != v.p || v.high != v.p)
}

/// An axis's range over the points' values `f` (with their intervals): a margin of an eighth
/// of the span either side (a fixed one for a single value); a chance's axis stays within
/// 0–100%, its margin taken inside.
fn range(points: &[Point], f: &dyn Fn(&Point) -> Estimate, chance: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in points {
        let v = f(p);
        let (l, h) = if whisker(&v) {
            (v.low, v.high)
        } else {
            (at(&v), at(&v))
        };
        lo = lo.min(l.min(at(&v)));
        hi = hi.max(h.max(at(&v)));
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let least = lo;
    let pad = ((hi - lo) / 8.0).max(if hi.abs() > 0.0 {
        hi.abs() * 0.02
    } else {
        0.01
    });
    let (lo, hi) = if chance {
        ((lo - pad).max(0.0), (hi + pad).min(1.0))
    } else {
        (lo - pad, hi + pad)
    };
    // Out to whole ticks, so that no point lies past the last labelled one.
    let step = nice_step((hi - lo) / 5.0);
    let (lo, hi) = ((lo / step).floor() * step, (hi / step).ceil() * step);
    // A count or a chance never runs below nought: the axis does not either.
    let lo = if least >= 0.0 { lo.max(0.0) } else { lo };
    if chance { (lo, hi.min(1.0)) } else { (lo, hi) }
}

/// A tick step of 1, 2 or 5 times a power of ten, the nearest at or above `raw`.
fn nice_step(raw: f64) -> f64 {
    let raw = raw.max(1e-9);
    let ten = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * ten)
        .find(|v| *v >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * ten)
}

/// The number of labels an axis from `lo` to `hi` needs for a label at every tick.
fn labels_of(lo: f64, hi: f64) -> usize {
    ((hi - lo) / nice_step((hi - lo) / 5.0)).round() as usize + 1
}

/// Each point's name written beside it, in its colour (the names of points on the same spot
/// one under another): to its right, else its left, above or below, wherever the words cover
/// no other point, name or the arrow (`keep_off`). A reader matches a point to its row by its
/// name, not by a colour looked up in a key. Returns the points left unnamed for want of room
/// (the legend under the plot keys them).
fn names_beside<DB: DrawingBackend>(
    root: &Area<DB>,
    c: &Plot<DB>,
    points: &[Point],
    keep_off: Option<Boxed>,
    s: Scale,
) -> Result<Vec<usize>, String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let (xs, ys) = c.plotting_area().get_pixel_range();
    let inside = |b: &Boxed| b.0 >= xs.start && b.2 <= xs.end && b.1 >= ys.start && b.3 <= ys.end;
    let meets = |a: &Boxed, b: &Boxed| a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3;
    let centres: Vec<(i32, i32)> = points
        .iter()
        .map(|(_, x, y)| c.backend_coord(&(at(x), at(y))))
        .collect();
    let colours = point_colours(points);
    let near = |a: (i32, i32), b: (i32, i32)| same_spot_px(a, b, s);
    // A point's mark, as large as `draw_points` draws it with others on its spot.
    let mark_of = |i: usize| {
        let under = centres[i + 1..]
            .iter()
            .filter(|q| near(**q, centres[i]))
            .count();
        s.px(11.0 * (1.0 + 0.9 * under as f64))
    };
    // Names keep off the marks, the whiskers of estimates and the arrow.
    let mut taken: Vec<Boxed> = centres
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| {
            let m = mark_of(i);
            (x - m, y - m, x + m, y + m)
        })
        .chain(points.iter().flat_map(|(_, x, y)| {
            let mut w = Vec::new();
            if whisker(x) {
                let (l, r) = (
                    c.backend_coord(&(x.low, at(y))),
                    c.backend_coord(&(x.high, at(y))),
                );
                w.push((l.0, l.1 - s.px(5.0), r.0, r.1 + s.px(5.0)));
            }
            if whisker(y) {
                let (b, t) = (
                    c.backend_coord(&(at(x), y.low)),
                    c.backend_coord(&(at(x), y.high)),
                );
                w.push((t.0 - s.px(5.0), t.1, b.0 + s.px(5.0), b.1));
            }
            w
        }))
        .chain(keep_off)
        .collect();
    let mut done: Vec<usize> = Vec::new();
    let mut unnamed = Vec::new();
    for (i, &(px, py)) in centres.iter().enumerate() {
        if done.contains(&i) {
            continue;
        }
        // This point and any later ones on its spot, named together.
        let group: Vec<usize> = (i..points.len())
            .filter(|&j| near(centres[j], (px, py)))
            .collect();
        done.extend(&group);
        let line = s.line(TEXT);
        let w = group
            .iter()
            .map(|&j| text_w(&points[j].0, s.em(TEXT)))
            .max()
            .unwrap_or(0);
        let mark = mark_of(i);
        let (h, gap) = (line * group.len() as i32, mark + s.px(4.0));
        let candidates: [Boxed; 4] = [
            (px + gap, py - h / 2, px + gap + w, py + h / 2),
            (px - gap - w, py - h / 2, px - gap, py + h / 2),
            (px - w / 2, py - gap - h, px + w / 2, py - gap),
            (px - w / 2, py + gap, px + w / 2, py + gap + h),
        ];
        // Its own mark and whiskers aside, the names cover nothing drawn.
        let Some(b) = candidates
            .into_iter()
            .find(|b| inside(b) && !taken.iter().any(|t| meets(t, b)))
        else {
            unnamed.extend(group);
            continue;
        };
        taken.push(b);
        // Right of the point the names start at its side; left of it they end there.
        let (x, pos) = if b.2 <= px {
            (b.2, HPos::Right)
        } else if b.0 >= px {
            (b.0, HPos::Left)
        } else {
            (px, HPos::Center)
        };
        for (k, &j) in group.iter().enumerate() {
            root.draw(&Text::new(
                points[j].0.clone(),
                (x, b.1 + k as i32 * line + line / 2),
                anchored(s.text(TEXT, text_ink(colours[j])), pos, VPos::Center),
            ))
            .map_err(e)?;
        }
    }
    Ok(unnamed)
}

/// Whether two points' centres (pixels) are drawn on one spot: the later mark covers the
/// earlier, so both are drawn, named and said together.
fn same_spot_px(a: (i32, i32), b: (i32, i32), s: Scale) -> bool {
    (a.0 - b.0).abs() < s.px(9.0) && (a.1 - b.1).abs() < s.px(9.0)
}

/// A box on the canvas: left, top, right, bottom (pixels).
type Boxed = (i32, i32, i32, i32);

/// An axis's words with the better way, in one bracket: "(among units that recovered; lower
/// is better)".
fn said(label: &str, b: Option<bool>) -> String {
    match b {
        Some(better) => {
            let way = if better { "higher" } else { "lower" };
            match label.strip_suffix(')') {
                Some(open) if open.contains(" (") => format!("{open}; {way} is better)"),
                _ => format!("{label} ({way} is better)"),
            }
        }
        None => label.to_string(),
    }
}

/// Where both ways are known, an arrow into the better corner of the plot (`x` and `y`: its
/// ranges), drawn under the points, with the word "better".
fn arrow<DB: DrawingBackend>(
    root: &Area<DB>,
    c: &Plot<DB>,
    (x, y): ((f64, f64), (f64, f64)),
    (bx, by): (bool, bool),
    s: Scale,
) -> Result<Boxed, String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let ((x0, x1), (y0, y1)) = (x, y);
    let (l, t) = c.backend_coord(&(x0, y1));
    let (r, b) = c.backend_coord(&(x1, y0));
    let (cx, sx) = if bx { (r, -1) } else { (l, 1) };
    let (cy, sy) = if by { (t, 1) } else { (b, -1) };
    let grey = RGBColor(110, 110, 110);
    let tip = (cx + sx * s.px(10.0), cy + sy * s.px(10.0));
    let tail = (cx + sx * s.px(52.0), cy + sy * s.px(52.0));
    let pen = grey.stroke_width(s.px(2.5).max(1) as u32);
    root.draw(&PathElement::new(vec![tail, tip], pen))
        .map_err(e)?;
    let head = s.px(10.0);
    root.draw(&Polygon::new(
        vec![
            tip,
            (tip.0 + sx * head, tip.1 + sy * head / 3),
            (tip.0 + sx * head / 3, tip.1 + sy * head),
        ],
        grey.filled(),
    ))
    .map_err(e)?;
    let h = if sx > 0 { HPos::Left } else { HPos::Right };
    let v = if sy > 0 { VPos::Top } else { VPos::Bottom };
    root.draw(&Text::new(
        "better".to_string(),
        (tail.0 + sx * s.px(2.0), tail.1 + sy * s.px(2.0)),
        anchored(s.text(TEXT, grey), h, v),
    ))
    .map_err(e)?;
    // What it covers, its word included, for the values written beside the points.
    let far = (
        tail.0 + sx * (s.px(4.0) + text_w("better", s.em(TEXT))),
        tail.1 + sy * (s.px(4.0) + s.line(TEXT)),
    );
    Ok((cx.min(far.0), cy.min(far.1), cx.max(far.0), cy.max(far.1)))
}

/// The points' colours, as the legend gives them.
fn point_colours(points: &[Point]) -> Vec<RGBColor> {
    let names: Vec<&str> = points.iter().map(|p| p.0.as_str()).collect();
    series_colours(&names)
}

/// Draw each point with its whiskers, a point with later ones on its spot larger, so that it
/// shows around them. Returns whether any value was an estimate drawn with its interval.
fn draw_points<DB: DrawingBackend>(
    root: &Area<DB>,
    c: &Plot<DB>,
    points: &[Point],
    s: Scale,
) -> Result<bool, String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let ink = BLACK.stroke_width(s.px(1.5).max(1) as u32);
    let cap_w = s.px(4.0);
    let mut estimated = false;
    let colours = point_colours(points);
    for (i, (_, x, y)) in points.iter().enumerate() {
        let centre = c.backend_coord(&(at(x), at(y)));
        if whisker(x) {
            estimated = true;
            let l = c.backend_coord(&(x.low, at(y)));
            let r = c.backend_coord(&(x.high, at(y)));
            for seg in [
                vec![l, r],
                vec![(l.0, l.1 - cap_w), (l.0, l.1 + cap_w)],
                vec![(r.0, r.1 - cap_w), (r.0, r.1 + cap_w)],
            ] {
                root.draw(&PathElement::new(seg, ink)).map_err(e)?;
            }
        }
        if whisker(y) {
            estimated = true;
            let b = c.backend_coord(&(at(x), y.low));
            let t = c.backend_coord(&(at(x), y.high));
            for seg in [
                vec![b, t],
                vec![(b.0 - cap_w, b.1), (b.0 + cap_w, b.1)],
                vec![(t.0 - cap_w, t.1), (t.0 + cap_w, t.1)],
            ] {
                root.draw(&PathElement::new(seg, ink)).map_err(e)?;
            }
        }
        // A point with later ones on its spot is drawn larger, so it shows around them.
        let under = points[i + 1..]
            .iter()
            .filter(|b| {
                let pb = c.backend_coord(&(at(&b.1), at(&b.2)));
                same_spot_px(centre, pb, s)
            })
            .count();
        marker(
            root,
            centre,
            i,
            colours[i],
            // Larger than a line's markers: a point is the whole datum here, and
            // it must read at 16 cm.
            Scale(s.0 * 1.6 * (1.0 + 0.9 * under as f64)),
        )?;
    }
    Ok(estimated)
}

/// Points drawn on the same place, in words ("A and B"): said, since the later one covers the
/// earlier.
fn same_spot<DB: DrawingBackend>(c: &Plot<DB>, points: &[Point], s: Scale) -> Vec<String> {
    let mut same: Vec<String> = Vec::new();
    for (i, a) in points.iter().enumerate() {
        let pa = c.backend_coord(&(at(&a.1), at(&a.2)));
        let twins: Vec<&str> = points[i + 1..]
            .iter()
            .filter(|b| {
                let pb = c.backend_coord(&(at(&b.1), at(&b.2)));
                same_spot_px(pa, pb, s)
            })
            .map(|b| b.0.as_str())
            .collect();
        if !twins.is_empty() && !same.iter().any(|x| x.contains(&a.0)) {
            same.push(format!("{} and {}", a.0, twins.join(" and ")));
        }
    }
    same
}

/// Draw a trade-off on `root`; returns the height the drawing needs.
pub(super) fn draw<DB: DrawingBackend>(
    root: &Area<DB>,
    chart: &Tradeoff,
    s: Scale,
) -> Result<i32, String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let Tradeoff {
        title,
        x_label,
        y_label,
        share,
        better,
        level,
        points,
        left_out,
    } = chart;
    let names: Vec<String> = points.iter().map(|p| p.0.clone()).collect();
    let entries = series_entries(&names, Key::Point);
    // The points are named beside them; a legend keys only those left unnamed (drawn under
    // the plot once the names are placed).
    let f = frame(root, title, Place::Below(&[]), PLOT_H, s)?;
    let (x0, x1) = range(points, &|p| p.1, share.0);
    let (y0, y1) = range(points, &|p| p.2, share.1);
    let (x_desc, y_words) = (said(x_label, better.0), said(y_label, better.1));
    // Room at the right for the last tick's label, which now sits at the edge.
    let mut c = axes(&f.plot, 26.0, y_area(&y_words, s), x0..x1, y0..y1, s)?;
    // Whole per cents where the axis spans more than five points.
    let fmt = |v: f64, pct: bool, span: f64| {
        if pct && span > 0.05 {
            format!("{:.0}%", 100.0 * v)
        } else if pct {
            format!("{:.1}%", 100.0 * v)
        } else {
            tick(v, span)
        }
    };
    mesh(&mut c, s, true)
        .x_desc(x_desc.as_str())
        .x_labels(labels_of(x0, x1))
        .y_labels(labels_of(y0, y1))
        .x_label_formatter(&|v| fmt(*v, share.0, x1 - x0))
        .y_label_formatter(&|v| fmt(*v, share.1, y1 - y0))
        .draw()
        .map_err(e)?;
    y_desc(root, &f.plot, &c, &y_words, s)?;
    let arrowed = match *better {
        (Some(bx), Some(by)) => Some(arrow(root, &c, ((x0, x1), (y0, y1)), (bx, by), s)?),
        _ => None,
    };
    let estimated = draw_points(root, &c, points, s)?;
    let unnamed = names_beside(root, &c, points, arrowed, s)?;
    let keyed: Vec<(String, Key)> = unnamed.iter().map(|&i| entries[i].clone()).collect();
    let legend_h = legend_below(&f.below, &keyed, s)?;
    let same = same_spot(&c, points, s);
    // The rows left off said in the same sentence: "a point for each row" and, later, "X is
    // left off the chart" read as a contradiction (writer trial 74).
    let rows = match left_out.is_empty() {
        true => "each row of the table".to_string(),
        false => format!(
            "each row of the table except {} (there for comparison)",
            left_out.join(" and ")
        ),
    };
    let mut note = if estimated {
        format!(
            "A point for {rows}; whiskers: the {level} intervals of estimates (exact values have none)."
        )
    } else {
        format!("A point for {rows}, at its exact values.")
    };
    if !same.is_empty() {
        note += &format!(" On the same spot: {}.", same.join("; "));
    }
    if !unnamed.is_empty() {
        note += match unnamed.len() {
            1 => " The key above names the point with no room for its name.",
            _ => " The key above names the points with no room for theirs.",
        };
    }
    // Where the values are: the chart shows where each variant lies, the table what it is.
    note += " The values are in the report's table.";
    if better.0.is_some() && better.1.is_some() {
        note += " The arrow points the way both measures get better.";
    }
    // Axes drawn where the points are, not from zero: said, so that a gap is not read as a
    // ratio.
    let from_zero = |lo: f64| lo <= 0.0;
    note += match (from_zero(x0), from_zero(y0)) {
        (true, true) => "",
        (false, false) => " Neither axis starts at zero.",
        (true, false) => " The upright axis does not start at zero.",
        (false, true) => " The axis across does not start at zero.",
    };
    caption(root, f.caption_top + legend_h, f.setup.as_deref(), &note, s)
}
