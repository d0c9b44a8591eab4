//! Lines over a swept setting (or steps over turns): exact values as the line, estimates as
//! bands or as dots beside it, the baseline drawn last, a series hidden under another set
//! aside and named, and where two lines meet said in the caption.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::frame::*;
use super::{Area, Estimate, Series, series_colours};

/// Lines with interval bands over a swept parameter, or steps over turns.
#[derive(Debug, Clone, PartialEq)]
pub struct Lines {
    /// Title.
    pub title: String,
    /// The x axis: what and in which unit.
    pub x_label: String,
    /// Its values (labels on the x axis).
    pub x_values: Vec<String>,
    /// The y axis: what and in which unit.
    pub y_label: String,
    /// The level of the intervals, e.g. "95%".
    pub level: String,
    /// The x values are turns: draw steps.
    pub steps: bool,
    /// The values are chances (a 0–100% axis, fitted where effects are small), not means.
    pub share: bool,
    /// The series.
    pub series: Vec<Series>,
}

/// The value a line goes through: the exact one where it is known.
fn y_of(v: &Estimate) -> f64 {
    v.exact.unwrap_or(v.p)
}

/// Whether series `si` is exactly the same at every setting of a sweep (the setting does not
/// touch it): drawn as a plain line across without marks, a level to read the others against,
/// not a value measured at each setting.
fn flat(chart: &Lines, si: usize) -> bool {
    let values = &chart.series[si].1;
    !chart.steps
        && values.len() > 1
        && values.iter().all(|v| v.is_some_and(|v| v.exact.is_some()))
        && values
            .iter()
            .flatten()
            .all(|v| (y_of(v) - values[0].map_or(0.0, |f| y_of(&f))).abs() < 1e-12)
}

/// The y axis's range, and whether it was fitted to the data: small effects are not flattened
/// by a 0–100% axis: a chance axis fits the data (in steps of 5 points) when they span less
/// than 30 points, and the caption says so.
fn y_range(series: &[Series], probability: bool) -> (f64, f64, bool) {
    let top = series
        .iter()
        .flat_map(|x| x.1.iter().flatten().map(|v| v.high.max(y_of(v))))
        .fold(0.0f64, f64::max);
    let bottom = series
        .iter()
        .flat_map(|x| x.1.iter().flatten().map(|v| v.low.min(y_of(v))))
        .fold(1.0f64, f64::min);
    let fitted = probability && top - bottom < 0.3;
    let (y_min, y_max) = if fitted {
        (
            ((bottom - 0.02).max(0.0) * 20.0).floor() / 20.0,
            ((top + 0.02).min(1.0) * 20.0).ceil() / 20.0,
        )
    } else if probability {
        (0.0, 1.0)
    } else {
        (0.0, (top * 1.1).max(1e-9))
    };
    (y_min, y_max, fitted)
}

/// Two values at place `i` drawn within a mark's reach of each other.
fn close<DB: DrawingBackend>(c: &Plot<DB>, i: usize, x: &Estimate, y: &Estimate, s: Scale) -> bool {
    let ya = c.backend_coord(&(i as f64, y_of(x))).1;
    let yb = c.backend_coord(&(i as f64, y_of(y))).1;
    (ya - yb).abs() <= s.px(3.0)
}

/// A series that lies on one drawn after it (in `order`) at every place (within a mark's
/// width) is hidden by it: its marks move aside along the step, one place per series hidden
/// there, and the caption names it. `hidden[a]`: the series over `a`, and `a`'s place among
/// those under it.
fn hidden<DB: DrawingBackend>(
    c: &Plot<DB>,
    series: &[Series],
    order: &[usize],
    s: Scale,
) -> Vec<Option<(usize, usize)>> {
    let on = |a: usize, b: usize| {
        let (va, vb) = (&series[a].1, &series[b].1);
        va.len() == vb.len()
            && va.iter().any(Option::is_some)
            && va
                .iter()
                .zip(vb)
                .enumerate()
                .all(|(i, (x, y))| match (x, y) {
                    (Some(x), Some(y)) => close(c, i, x, y, s),
                    (None, None) => true,
                    _ => false,
                })
    };
    let mut hidden: Vec<Option<(usize, usize)>> = vec![None; series.len()];
    for (pos, &a) in order.iter().enumerate() {
        if let Some(&b) = order[pos + 1..].iter().rev().find(|&&b| on(a, b)) {
            let rank = hidden.iter().flatten().filter(|h| h.0 == b).count() + 1;
            hidden[a] = Some((b, rank));
        }
    }
    hidden
}

/// Where two lines meet at a place or two (not all along: that is [`hidden`]), one mark
/// covers the other there: the caption names where, so the reader does not look for a
/// missing mark ("Green and Regular meet at 3"). Only on short axes of a sweep, where every
/// place has its mark, and not where turn-by-turn steps cross.
fn meets<DB: DrawingBackend>(
    c: &Plot<DB>,
    chart: &Lines,
    hidden: &[Option<(usize, usize)>],
    s: Scale,
) -> Vec<String> {
    let (series, x_values) = (&chart.series, &chart.x_values);
    let k = series.len();
    let mut meets: Vec<String> = Vec::new();
    if x_values.len() <= 12 && !chart.steps {
        for a in 0..k {
            for b in a + 1..k {
                if hidden[a].is_some_and(|h| h.0 == b)
                    || hidden[b].is_some_and(|h| h.0 == a)
                    || flat(chart, a)
                    || flat(chart, b)
                {
                    continue;
                }
                let (va, vb) = (&series[a].1, &series[b].1);
                let at: Vec<&str> = va
                    .iter()
                    .zip(vb)
                    .enumerate()
                    .filter_map(|(i, (x, y))| {
                        let (x, y) = (x.as_ref()?, y.as_ref()?);
                        close(c, i, x, y, s).then(|| x_values[i].as_str())
                    })
                    .collect();
                if !at.is_empty() && at.len() <= 2 {
                    meets.push(format!(
                        "{} and {} at {}",
                        series[a].0,
                        series[b].0,
                        at.join(" and ")
                    ));
                }
            }
        }
    }
    meets
}

/// The widest interval, on the canvas (pixels) and in value (half its width): where every
/// one is narrower than a mark, the simulation's checks are not drawn beside the exact values
/// (a dot on a dot), and the note says how close they lie.
fn widest<DB: DrawingBackend>(c: &Plot<DB>, series: &[Series]) -> (i32, f64) {
    let mut widest = (0, 0.0f64);
    for values in series.iter().map(|x| &x.1) {
        for (i, v) in values.iter().enumerate() {
            if let Some(v) = v {
                let lo = c.backend_coord(&(i as f64, v.low)).1;
                let hi = c.backend_coord(&(i as f64, v.high)).1;
                widest = (widest.0.max(lo - hi), widest.1.max((v.high - v.low) / 2.0));
            }
        }
    }
    widest
}

/// Series `si`'s points with a value, by place.
fn points(chart: &Lines, si: usize) -> Vec<(usize, Estimate)> {
    chart.series[si]
        .1
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| (i, v)))
        .collect()
}

/// The size of a line's marks: [`LINE_MARK`] over a sweep, the base size on steps.
fn mark_scale(chart: &Lines, s: Scale) -> Scale {
    match chart.steps {
        true => s,
        false => Scale(s.0 * LINE_MARK),
    }
}

/// Series `si`'s colour, as the legend gives it.
fn colour_of(chart: &Lines, si: usize) -> RGBColor {
    let names: Vec<&str> = chart.series.iter().map(|x| x.0.as_str()).collect();
    series_colours(&names)[si]
}

/// Draw series `si`'s marks alone, as [`draw_series`] places them.
fn draw_marks<DB: DrawingBackend>(
    root: &Area<DB>,
    c: &Plot<DB>,
    chart: &Lines,
    si: usize,
    aside: f64,
    s: Scale,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let pts = points(chart, si);
    let mark_every = pts.len().div_ceil(24).max(1);
    for (j, &(i, v)) in pts.iter().enumerate() {
        if j % mark_every == 0 {
            let at = c.backend_coord(&(i as f64 + aside, y_of(&v)));
            marker(root, at, si, colour_of(chart, si), mark_scale(chart, s))?;
        }
    }
    Ok(())
}

/// Draw series `si`: the band of its intervals over each run of estimates, its line, its
/// marks (set `aside` along the x axis when it is hidden under another) and, beside each
/// exact value, the estimate as a dot with its interval unless every interval is `narrow`.
fn draw_series<DB: DrawingBackend>(
    root: &Area<DB>,
    c: &Plot<DB>,
    chart: &Lines,
    si: usize,
    aside: f64,
    narrow: bool,
    s: Scale,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let steps = chart.steps;
    let stroke = s.px(2.5).max(1) as u32;
    let col = colour_of(chart, si);
    let pts = points(chart, si);
    // Every mark on its x value: series that coincide are told apart by drawing the
    // baseline last and setting aside the marks of a series hidden under another.
    let at = |x: f64, y: f64| c.backend_coord(&(x, y));
    let mut line = Vec::new();
    if flat(chart, si) {
        let y = pts.first().map_or(0.0, |p| y_of(&p.1));
        let last = (chart.x_values.len().max(1) - 1) as f64;
        return dashed(
            root,
            &[at(-0.3, y), at(last + 0.3, y)],
            DASHES[si % DASHES.len()],
            col.stroke_width(stroke),
            s,
        );
    }
    for &(i, v) in &pts {
        let x = i as f64;
        if steps {
            line.push(at(x - 0.5, y_of(&v)));
            line.push(at(x + 0.5, y_of(&v)));
        } else {
            line.push(at(x, y_of(&v)));
        }
    }
    // The band of the intervals, over each run of points without an exact value.
    for run in pts.chunk_by(|a, b| a.1.exact.is_none() && b.1.exact.is_none()) {
        if run[0].1.exact.is_some() {
            continue;
        }
        let mut band = Vec::new();
        for &(i, v) in run {
            let x = i as f64;
            if steps {
                band.push(at(x - 0.5, v.high));
                band.push(at(x + 0.5, v.high));
            } else {
                band.push(at(x, v.high));
            }
        }
        for &(i, v) in run.iter().rev() {
            let x = i as f64;
            if steps {
                band.push(at(x + 0.5, v.low));
                band.push(at(x - 0.5, v.low));
            } else {
                band.push(at(x, v.low));
            }
        }
        if band.len() > 2 {
            root.draw(&Polygon::new(band, col.mix(0.18).filled()))
                .map_err(e)?;
        }
    }
    dashed(
        root,
        &line,
        DASHES[si % DASHES.len()],
        col.stroke_width(stroke),
        s,
    )?;
    draw_marks(root, c, chart, si, aside, s)?;
    for &(i, v) in &pts {
        // Beside an exact value, the estimate: a dot with its interval (not where
        // every interval is narrower than a mark).
        if v.exact.is_some() && v.high > v.low && !narrow {
            let (x, _) = at(i as f64, v.p);
            let x = x + s.px(if chart.steps { 9.0 } else { 13.0 });
            let (lo, hi) = (at(i as f64, v.low).1, at(i as f64, v.high).1);
            root.draw(&PathElement::new(
                vec![(x, lo), (x, hi)],
                col.stroke_width(s.px(1.5).max(1) as u32),
            ))
            .map_err(e)?;
            root.draw(&Circle::new(
                (x, at(i as f64, v.p).1),
                s.px(2.5).max(1) as u32,
                col.filled(),
            ))
            .map_err(e)?;
        }
    }
    Ok(())
}

/// The caption's note: what the lines, dots and shading are, how wide the widest interval is
/// where they are too narrow to draw, a fitted axis, series hidden under others and where
/// lines meet.
fn note(
    chart: &Lines,
    widest: (i32, f64),
    narrow: bool,
    axis: (f64, f64, bool),
    hidden: &[Option<(usize, usize)>],
    meets: &[String],
) -> String {
    let (probability, level, series) = (chart.share, &chart.level, &chart.series);
    let (y_min, y_max, fitted) = axis;
    let names: Vec<String> = series.iter().map(|x| x.0.clone()).collect();
    let half = if probability {
        format!("{:.2} points", 100.0 * widest.1)
    } else {
        format!("{:.3}", widest.1)
    };
    let points: Vec<&Estimate> = series.iter().flat_map(|x| x.1.iter().flatten()).collect();
    let with_exact = points.iter().filter(|v| v.exact.is_some()).count();
    let with_interval = points.iter().any(|v| v.high > v.low);
    let intervals = if narrow {
        format!("their {level} intervals (the widest is ±{half})")
    } else {
        format!("their {level} intervals")
    };
    // Settings swept (not turns) that have nothing between them: whole numbers, or words. The
    // values are the marks, and the lines only join them ("Lines: exact values … no value
    // lies between the marks" read as a contradiction, writer trial 62).
    let whole = |x: &String| x.parse::<i64>().is_ok() || x.parse::<f64>().is_err();
    let joined = !chart.steps && chart.x_values.len() > 1 && chart.x_values.iter().all(whole);
    let drawn = if joined { "Marks" } else { "Lines" };
    let note = if with_exact == points.len() && !with_interval {
        "Exact values.".to_string()
    } else if with_exact == points.len() && narrow {
        // In a reader's words: the simulation checks the exact line ("too close to draw" read
        // as the tool's, writer trials 56 and 57).
        format!(
            "{drawn}: exact values, worked out from the dice; a simulation of the same games agrees with each to within ±{half}."
        )
    } else if with_exact == points.len() {
        format!(
            "Lines: exact values; dots: the simulation's check of each, with its {level} interval."
        )
    } else if with_exact > 0 {
        format!(
            "Lines: exact values where known, else estimates (shaded: {intervals}); dots: estimates beside exact values."
        )
    } else if narrow {
        format!("The {level} intervals are narrower than the marks (the widest is ±{half}).")
    } else {
        format!("Shaded: the {level} intervals.")
    };
    let note = if fitted {
        format!(
            "Axis {:.0}–{:.0}%, not 0–100%, to show small differences. {note}",
            100.0 * y_min,
            100.0 * y_max
        )
    } else {
        note
    };
    let mut note = format!("{note}{}", hidden_words(&names, hidden));
    // A level flat by its definition (a balance chart's "target") needs no saying.
    let level: Vec<&str> = (0..series.len())
        .filter(|&i| flat(chart, i) && series[i].0 != "target")
        .map(|i| series[i].0.as_str())
        .collect();
    // What the axis across is, in its own words ("the Green base number"), not "the setting"
    // (writer trial 74).
    let across = match chart.x_label.split(" (").next().map(str::trim) {
        // A class keeps its capital, as the rules write it ("the Green base number").
        Some(x) if !x.is_empty() => match x.split(' ').next() {
            Some("Green" | "Regular" | "Veteran" | "Elite" | "Poor" | "Militia") => {
                format!("the {x}")
            }
            _ => format!("the {}", crate::labels::lower_initial(x)),
        },
        _ => "the value across".to_string(),
    };
    if let Some((last, rest)) = level.split_last() {
        note += &match rest {
            [] => format!(" {last} does not change with {across}: a flat line without marks."),
            _ => format!(
                " {} and {last} do not change with {across}: flat lines without marks.",
                rest.join(", ")
            ),
        };
    }
    if joined {
        // In a reader's words, not the tool's (writer trials 55 to 57).
        note += " The lines only guide the eye: there are no values between the marks.";
    }
    if !meets.is_empty() && meets.len() <= 3 {
        note += &format!(
            " Where lines meet, one mark covers the other: {}.",
            meets.join("; ")
        );
    }
    note
}

/// The caption's words for series hidden under others (`hidden[i]`: the series over series
/// `i`, and its place among those under it): " Within a mark of 25% rules at every point, so
/// drawn under it: A, B (their marks set aside)."
pub(super) fn hidden_words(names: &[String], hidden: &[Option<(usize, usize)>]) -> String {
    let mut out = String::new();
    let mut covers: Vec<usize> = hidden.iter().flatten().map(|h| h.0).collect();
    covers.dedup();
    covers.sort_unstable();
    covers.dedup();
    for b in covers {
        let under: Vec<&str> = hidden
            .iter()
            .enumerate()
            .filter(|(_, h)| h.is_some_and(|h| h.0 == b))
            .map(|(a, _)| names[a].as_str())
            .collect();
        out += &format!(
            " Within a mark of {} at every point, so drawn under it: {} (marks set aside).",
            names[b],
            under.join(", ")
        );
    }
    out
}

/// Draw a line chart on `root`; returns the height the drawing needs.
pub(super) fn draw<DB: DrawingBackend>(
    root: &Area<DB>,
    chart: &Lines,
    s: Scale,
) -> Result<i32, String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let Lines {
        title,
        x_label,
        x_values,
        y_label,
        steps,
        share,
        series,
        ..
    } = chart;
    let names: Vec<String> = series.iter().map(|x| x.0.clone()).collect();
    // A level (the same at every setting) is keyed as it is drawn: a line without marks.
    let entries: Vec<(String, Key)> = series_entries(&names, Key::Line)
        .into_iter()
        .enumerate()
        .map(|(i, (n, k))| match k {
            Key::Line(j, col) if flat(chart, i) => (n, Key::Level(j, col)),
            Key::Line(j, col) if chart.steps => (n, Key::Step(j, col)),
            k => (n, k),
        })
        .collect();
    let f = frame(root, title, Place::Below(&entries), PLOT_H, s)?;
    let n = x_values.len().max(1);
    let probability = *share;
    let (y_min, y_max, fitted) = y_range(series, probability);
    let mut c = axes(
        &f.plot,
        8.0,
        y_area(y_label, s),
        -0.5f64..n as f64 - 0.5,
        y_min..y_max,
        s,
    )?;
    // The x values are places (0, 1, 2 …) named by `x_values`: ticks and names are
    // drawn at those places (see `x_axis`), not where the library would put its own.
    mesh(&mut c, s, true)
        .disable_x_mesh()
        .x_labels(0)
        .y_label_formatter(&|v| {
            if probability && y_max - y_min < 0.1 {
                format!("{:.1}%", 100.0 * v)
            } else if probability {
                format!("{:.0}%", 100.0 * v)
            } else {
                tick(*v, y_max - y_min)
            }
        })
        .draw()
        .map_err(e)?;
    y_desc(root, &f.plot, &c, y_label, s)?;
    let ticks: Vec<(f64, String)> = x_values
        .iter()
        .enumerate()
        .map(|(i, v)| (i as f64, v.clone()))
        .collect();
    x_axis(root, &c, &ticks, x_label, s)?;
    let k = series.len();
    // The first series is the baseline: drawn last, over the others, it stays visible
    // where they coincide with it (their marks are nudged aside).
    let order: Vec<usize> = (1..k).chain((k > 0).then_some(0)).collect();
    let hidden = hidden(&c, series, &order, s);
    let meets = meets(&c, chart, &hidden, s);
    let widest = widest(&c, series);
    let narrow = widest.0 < s.px(10.0);
    for &si in &order {
        // A hidden series' marks sit aside: along the step, or a little off the point.
        let aside = hidden[si].map_or(0.0, |(_, rank)| {
            rank as f64 * if *steps { 0.2 } else { 0.08 }
        });
        draw_series(root, &c, chart, si, aside, narrow, s)?;
    }
    // A flat line runs across every place, over the marks of the series drawn before it: those
    // marks are drawn again on top, so that the point a sweep's answer is about (Green meeting
    // the led Regular at 3) stays in sight.
    if (0..k).any(|si| flat(chart, si)) {
        for &si in order.iter().filter(|&&si| !flat(chart, si)) {
            let aside = hidden[si].map_or(0.0, |(_, rank)| {
                rank as f64 * if *steps { 0.2 } else { 0.08 }
            });
            draw_marks(root, &c, chart, si, aside, s)?;
        }
    }
    values_at_points(root, &c, chart, &order, (y_min, y_max), s)?;
    let note = note(
        chart,
        widest,
        narrow,
        (y_min, y_max, fitted),
        &hidden,
        &meets,
    );
    caption(root, f.caption_top, f.setup.as_deref(), &note, s)
}

/// The value of each point written beside it, where a sweep has few of them (at most 8
/// settings and one series that moves: two would set their labels on each other), so that a reader quotes the chart without reading it off
/// the axis: above the point, or below it near the top; a flat line's value once, at its right
/// end. Turn-by-turn steps and crowded charts are left to their tables.
fn values_at_points<DB: DrawingBackend>(
    root: &Area<DB>,
    c: &Plot<DB>,
    chart: &Lines,
    order: &[usize],
    (_, y_max): (f64, f64),
    s: Scale,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let moving = (0..chart.series.len())
        .filter(|&si| !flat(chart, si))
        .count();
    if chart.steps || chart.x_values.len() > 8 || moving > 1 {
        return Ok(());
    }
    let said = |v: f64| value_text(v, chart.share);
    let top = c.backend_coord(&(0.0, y_max)).1;
    let reach = s.px(5.0 * LINE_MARK) + s.px(6.0);
    for &si in order {
        let col = colour_of(chart, si);
        let style = |v: VPos, h: HPos| anchored(s.text(TEXT, text_ink(col)), h, v);
        if flat(chart, si) {
            let Some(&(_, v)) = points(chart, si).first() else {
                continue;
            };
            // At the right end, or the left where a moving series' label is near there; left
            // out where both ends are taken (the caption and the tables have it).
            let last = chart.x_values.len().max(1) - 1;
            let y = c.backend_coord(&(0.0, y_of(&v))).1;
            let taken = |i: usize| {
                (0..chart.series.len())
                    .filter(|&o| !flat(chart, o))
                    .filter_map(|o| chart.series[o].1.get(i).copied().flatten())
                    .any(|p| {
                        (c.backend_coord(&(0.0, y_of(&p))).1 - y).abs() < 2 * reach + s.line(TEXT)
                    })
            };
            let end = match (taken(last), taken(0)) {
                (false, _) => Some((last as f64 + 0.3, HPos::Right)),
                (true, false) => Some((-0.3, HPos::Left)),
                (true, true) => None,
            };
            if let Some((at, h)) = end {
                let x = c.backend_coord(&(at, 0.0)).0;
                root.draw(&Text::new(
                    said(y_of(&v)),
                    (x, y - s.px(5.0)),
                    style(VPos::Bottom, h),
                ))
                .map_err(e)?;
            }
            continue;
        }
        // Each label where it overlaps none drawn before it: above the point, else below it,
        // else left out (the table has it). On a phone's narrow chart neighbouring labels
        // ran into each other ("99.54%98.11%", three "42.80%" in a row).
        let mut drawn: Vec<(i32, i32, i32, i32)> = Vec::new();
        let (h, gap) = (s.line(TEXT), s.px(3.0));
        for (i, v) in points(chart, si) {
            let (x, y) = c.backend_coord(&(i as f64, y_of(&v)));
            let text = said(y_of(&v));
            let w = text_w(&text, s.em(TEXT));
            // A label's box (left, top, right, bottom) with its anchor at `at`.
            let boxed = |at: i32, v_pos: VPos| {
                let y0 = match v_pos {
                    VPos::Top => at,
                    _ => at - h,
                };
                (x - w / 2 - gap, y0, x + w / 2 + gap, y0 + h)
            };
            let clear = |b: (i32, i32, i32, i32)| {
                drawn
                    .iter()
                    .all(|d| b.2 <= d.0 || d.2 <= b.0 || b.3 <= d.1 || d.3 <= b.1)
            };
            let above = (y - reach, VPos::Bottom);
            let below = (y + reach, VPos::Top);
            let tries = match y - reach - h < top {
                true => [below, below],
                false => [above, below],
            };
            let Some(&(at, v_pos)) = tries.iter().find(|t| clear(boxed(t.0, t.1))) else {
                continue;
            };
            drawn.push(boxed(at, v_pos));
            root.draw(&Text::new(text, (x, at), style(v_pos, HPos::Center)))
                .map_err(e)?;
        }
    }
    Ok(())
}
