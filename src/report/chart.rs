//! Charts as PNG and SVG bytes, drawn with plotters, made to be printed: the legend beside the
//! plot (never over the data), every series told apart by a colour of the Okabe–Ito palette
//! (safe for colour-blind readers), a marker shape and a dash pattern, each outcome one colour in
//! every chart, intervals drawn (whiskers with caps on bars, bands around lines, and a caption
//! when they are narrower than the marks), per-turn charts as steps, heat maps with a colour bar.
//! DejaVu Sans is embedded (the `dejavu` crate): PNG text is set with it, and SVG text stays
//! `<text>` (editable in a layout program) with the letters it uses embedded as an
//! `@font-face`, so both formats look the same on a machine with no fonts installed.

use std::sync::Once;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::FontStyle;

/// Chart size in pixels at scale 1: the width, and the height a chart is laid out for (the
/// canvas ends where the drawing does: taller with a long title, legend or caption, shorter
/// with none, so that no blank strip is printed under it).
pub const SIZE: (u32, u32) = (960, 540);

/// A canvas for a phone's width (about 390 px): the text stays near its size on screen.
pub const NARROW: (u32, u32) = (480, 440);

const FONT: &str = "sans-serif";

/// The Okabe–Ito palette: series colours in order (yellow, the faintest on white, last).
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(230, 159, 0),   // orange
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(0, 0, 0),       // black
    RGBColor(240, 228, 66),  // yellow
];

/// The colour of series `i`.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// The colour of an outcome or state, the same in every chart and system: in action (good, in
/// line, and a rally's end there, recovered) green, shaken (unsteady, retreating, falling back)
/// orange, routing vermillion, gone (removed, eliminated) dark grey; others by their place `i`.
pub fn outcome_colour(name: &str, i: usize) -> RGBColor {
    match name {
        "good" | "recovered" | "in_line" | "holds" | "passed" | "pass" => PALETTE[2],
        "unsteady" | "retreating" | "falling_back" | "shaken" => PALETTE[3],
        "routing" | "routed" | "fail" | "failed" => PALETTE[1],
        "removed" | "eliminated" | "destroyed" => RGBColor(80, 80, 80),
        _ => PALETTE[(i + 4) % PALETTE.len()],
    }
}

/// A name from the tables (`side_a_wins`, `falling_back`, `a_hole_turns`) in words: `side A
/// wins`, `falling back`, `side A's hole turns`.
pub fn words(name: &str) -> String {
    // A battle's per-side keys begin with the side's letter.
    for (prefix, side) in [("a_", "side A's "), ("b_", "side B's ")] {
        if let Some(rest) = name.strip_prefix(prefix) {
            return format!("{side}{}", words(rest));
        }
    }
    let spaced = name.replace('_', " ");
    let mut out: Vec<String> = Vec::new();
    let parts: Vec<&str> = spaced.split(' ').collect();
    for (i, w) in parts.iter().enumerate() {
        let after_side = i > 0 && parts[i - 1] == "side";
        out.push(if after_side && (*w == "a" || *w == "b") {
            w.to_uppercase()
        } else {
            (*w).to_string()
        });
    }
    out.join(" ")
}

/// Marker shapes, one per series in turn.
#[derive(Debug, Clone, Copy)]
enum Marker {
    Circle,
    Square,
    Up,
    Diamond,
    Down,
    Cross,
    Plus,
}

const MARKERS: [Marker; 7] = [
    Marker::Circle,
    Marker::Square,
    Marker::Up,
    Marker::Diamond,
    Marker::Down,
    Marker::Cross,
    Marker::Plus,
];

/// Dash patterns (on, off, on, off … in pixels at scale 1), one per series in turn; empty is
/// solid.
const DASHES: [&[f64]; 5] = [
    &[],
    &[10.0, 5.0],
    &[2.5, 4.0],
    &[12.0, 4.0, 2.5, 4.0],
    &[22.0, 6.0],
];

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular())
            .map_err(|_| ())
            .expect("DejaVu Sans is a valid font");
    });
}

/// An estimate with its interval, for a bar or a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The estimate.
    pub p: f64,
    /// Lower end of its interval.
    pub low: f64,
    /// Upper end of its interval.
    pub high: f64,
    /// The exact value, where it is known: a line chart draws its line through it and the
    /// estimate beside it as a dot with its interval.
    pub exact: Option<f64>,
}

/// A series: its name and one estimate per category or x value (`None`: not applicable).
pub type Series = (String, Vec<Option<Estimate>>);

/// A chart's content, independent of the output format.
#[derive(Debug, Clone, PartialEq)]
pub enum Chart {
    /// Grouped bars with interval whiskers: categories × series.
    Bars {
        /// Title: the question, or a sentence.
        title: String,
        /// What the bars measure (y axis).
        y_label: String,
        /// The level of the intervals, e.g. "95%".
        level: String,
        /// Category labels (x axis), in words.
        categories: Vec<String>,
        /// The bars are chances (a 0–100% axis), not means (an axis from 0 to the largest).
        share: bool,
        /// The series.
        series: Vec<Series>,
        /// Categories left out because they (almost) never happen, in words: the caption
        /// names them.
        left_out: Vec<String>,
    },
    /// The share of trials in each state, turn by turn, stacked as steps.
    Stacked {
        /// Title.
        title: String,
        /// State names (as in the tables; shown in words), bottom first.
        layers: Vec<String>,
        /// Shares by turn: `shares[t][layer]`, turn t + 1.
        shares: Vec<Vec<f64>>,
    },
    /// Lines with interval bands over a swept parameter, or steps over turns.
    Lines {
        /// Title.
        title: String,
        /// The x axis: what and in which unit.
        x_label: String,
        /// Its values (labels on the x axis).
        x_values: Vec<String>,
        /// The y axis: what and in which unit.
        y_label: String,
        /// The level of the intervals, e.g. "95%".
        level: String,
        /// The x values are turns: draw steps.
        steps: bool,
        /// The values are chances (a 0–100% axis, fitted where effects are small), not means.
        share: bool,
        /// The series.
        series: Vec<Series>,
    },
    /// A heat map of probabilities over two swept parameters, with a colour bar.
    Heat {
        /// Title (it says whether the cells are exact values or estimates).
        title: String,
        /// x axis name and labels.
        x: (String, Vec<String>),
        /// y axis name and labels.
        y: (String, Vec<String>),
        /// `cells[y][x]`.
        cells: Vec<Vec<f64>>,
        /// `None`: the cells are chances (0–100%); else means, coloured from the first value
        /// (lightest) to the second (darkest) and labelled as numbers.
        range: Option<(f64, f64)>,
    },
    /// A tornado chart: a row per parameter, biggest first, with a bar from zero to the change
    /// each of its settings makes to one headline (and the interval where it is an estimate).
    Tornado {
        /// Title.
        title: String,
        /// The x axis: the change, in what unit.
        x_label: String,
        /// The headline is a share (changes drawn in percentage points).
        share: bool,
        /// Rows, biggest first: the parameter's label and each setting's (label, change).
        rows: Vec<(String, Vec<(String, Estimate)>)>,
    },
    /// A trade-off between two headlines: a point per variant at (first, second), at the exact
    /// values where they are known, else at the estimates with their intervals both ways.
    Tradeoff {
        /// Title.
        title: String,
        /// The x axis (the first headline): what and in which unit.
        x_label: String,
        /// The y axis (the second headline).
        y_label: String,
        /// Whether each axis is a chance (drawn in per cent, within 0–100%), not a mean.
        share: (bool, bool),
        /// Which way is better on each axis, where it is known: `Some(true)` higher,
        /// `Some(false)` lower. The axes say so, and an arrow points to the better corner.
        better: (Option<bool>, Option<bool>),
        /// The level of the intervals, e.g. "95%".
        level: String,
        /// The points: the variant's name and its value on each axis.
        points: Vec<(String, Estimate, Estimate)>,
    },
}

type Area<DB> = DrawingArea<DB, Shift>;

/// Sizes at a scale: `k` × the size at scale 1.
#[derive(Clone, Copy)]
struct Scale(f64);

/// Text sizes in pixels to the em at scale 1. A chart is drawn 960 px wide; printed 16 cm
/// wide, 19 px is 9 pt (960 px to 453.5 pt), the least any text here is set at.
const TEXT: f64 = 19.0;
/// The title's size.
const TITLE: f64 = 22.0;
/// The drawing library's text size is 1.24 × the em (what its SVG backend writes as
/// `font-size` is the size ÷ 1.24).
const SIZE_PER_EM: f64 = 1.24;
/// The plot's height with its axes, at scale 1 (the canvas grows with the title, the legend
/// and the caption).
const PLOT_H: f64 = 430.0;

impl Scale {
    fn px(self, v: f64) -> i32 {
        (v * self.0).round() as i32
    }
    /// A size in pixels to the em at this scale.
    fn em(self, size: f64) -> f64 {
        size * self.0
    }
    /// A line's height for text of `size` (at scale 1).
    fn line(self, size: f64) -> i32 {
        self.px(size * 1.3)
    }
    fn font(self, size: f64) -> FontDesc<'static> {
        (FONT, size * SIZE_PER_EM * self.0).into_font()
    }
    fn text(self, size: f64, colour: RGBColor) -> TextStyle<'static> {
        TextStyle {
            font: self.font(size),
            color: colour.to_backend_color(),
            pos: Pos::default(),
        }
    }
}

fn anchored(style: TextStyle<'static>, h: HPos, v: VPos) -> TextStyle<'static> {
    style.pos(Pos::new(h, v))
}

use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The width in pixels of `text` at `em` pixels to the em, as both formats set it.
fn text_w(text: &str, em: f64) -> i32 {
    super::svgtext::width(text, em as f32).ceil() as i32
}

/// Split `text` into lines of at most `width` pixels at `em` pixels to the em, each line as
/// full as it can be (a word longer than the width has a line of its own).
fn wrap(text: &str, em: f64, width: i32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    // A dash stays with the word before it (no line starts with "— "), and "a" or "an" with
    // the word after it (no line ends with one).
    let mut words: Vec<String> = Vec::new();
    let mut held: Option<&str> = None;
    for w in text.split_whitespace() {
        let w = match held.take() {
            Some(article) => format!("{article} {w}"),
            None => w.to_string(),
        };
        match words.last_mut() {
            Some(last) if w == "\u{2014}" => {
                last.push(' ');
                last.push_str(&w);
            }
            _ if w == "a" || w == "an" => held = Some(if w == "a" { "a" } else { "an" }),
            _ => words.push(w),
        }
    }
    if let Some(article) = held {
        words.push(article.to_string());
    }
    for word in &words {
        let word = word.as_str();
        let tried = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if line.is_empty() || text_w(&tried, em) <= width {
            line = tried;
        } else {
            lines.push(std::mem::take(&mut line));
            line = word.to_string();
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// As [`wrap`], in as few lines, but of even length: the narrowest width that still takes no
/// more lines, so that no line ends with a lone word where the words could share out.
fn balanced(text: &str, em: f64, width: i32) -> Vec<String> {
    let lines = wrap(text, em, width);
    if lines.len() < 2 {
        return lines;
    }
    let (mut lo, mut hi) = (width / lines.len() as i32, width);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if wrap(text, em, mid).len() <= lines.len() {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    wrap(text, em, hi)
}

/// A title in at most two balanced lines at `em`. A title too long for two lines keeps its
/// question (the part before " — ") and gives up the setup after it, returned for the caption;
/// a question still too long is cut at a word, with an ellipsis.
fn title_lines(title: &str, em: f64, width: i32) -> (Vec<String>, Option<String>) {
    let lines = balanced(title, em, width);
    if lines.len() <= 2 {
        return (lines, None);
    }
    let (head, setup) = match title.split_once(" — ") {
        Some((h, rest)) => (h, Some(rest.to_string())),
        None => (title, None),
    };
    let mut lines = balanced(head, em, width);
    if lines.len() > 2 {
        let mut words: Vec<&str> = head.split_whitespace().collect();
        while words.len() > 1 && balanced(&format!("{} …", words.join(" ")), em, width).len() > 2
        {
            words.pop();
        }
        lines = balanced(&format!("{} …", words.join(" ")), em, width);
    }
    (lines, setup)
}

/// Draw a polyline (pixels) with a dash pattern (empty: solid).
fn dashed<DB: DrawingBackend>(
    root: &Area<DB>,
    pts: &[(i32, i32)],
    dash: &[f64],
    style: ShapeStyle,
    s: Scale,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    if dash.is_empty() {
        return root.draw(&PathElement::new(pts.to_vec(), style)).map_err(e);
    }
    let pattern: Vec<f64> = dash.iter().map(|d| d * s.0).collect();
    let (mut k, mut left, mut on) = (0usize, pattern[0], true);
    for w in pts.windows(2) {
        let (a, b) = (
            (w[0].0 as f64, w[0].1 as f64),
            (w[1].0 as f64, w[1].1 as f64),
        );
        let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        let mut at = 0.0;
        while at < len {
            let step = left.min(len - at);
            if on {
                let p = |t: f64| {
                    (
                        (a.0 + (b.0 - a.0) * t / len).round() as i32,
                        (a.1 + (b.1 - a.1) * t / len).round() as i32,
                    )
                };
                root.draw(&PathElement::new(vec![p(at), p(at + step)], style))
                    .map_err(e)?;
            }
            at += step;
            left -= step;
            if left <= 1e-9 {
                k = (k + 1) % pattern.len();
                left = pattern[k];
                on = !on;
            }
        }
    }
    Ok(())
}

/// Draw series `i`'s marker centred at `at` (pixels).
fn marker<DB: DrawingBackend>(
    root: &Area<DB>,
    at: (i32, i32),
    i: usize,
    col: RGBColor,
    s: Scale,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let r = s.px(5.0);
    let (x, y) = at;
    let outline = WHITE.stroke_width(s.px(1.0).max(1) as u32);
    let fill = col.filled();
    let poly = |pts: Vec<(i32, i32)>| -> Result<(), String> {
        root.draw(&Polygon::new(pts.clone(), fill)).map_err(e)?;
        let mut closed = pts;
        closed.push(closed[0]);
        root.draw(&PathElement::new(closed, outline)).map_err(e)
    };
    match MARKERS[i % MARKERS.len()] {
        Marker::Circle => {
            root.draw(&Circle::new(at, r, fill)).map_err(e)?;
            root.draw(&Circle::new(at, r, outline)).map_err(e)
        }
        Marker::Square => poly(vec![
            (x - r + 1, y - r + 1),
            (x + r - 1, y - r + 1),
            (x + r - 1, y + r - 1),
            (x - r + 1, y + r - 1),
        ]),
        Marker::Up => poly(vec![(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)]),
        Marker::Down => poly(vec![(x, y + r + 1), (x + r + 1, y - r), (x - r - 1, y - r)]),
        Marker::Diamond => poly(vec![
            (x, y - r - 1),
            (x + r + 1, y),
            (x, y + r + 1),
            (x - r - 1, y),
        ]),
        Marker::Cross | Marker::Plus => {
            let w = s.px(3.0).max(2) as u32;
            let (a, b) = if matches!(MARKERS[i % MARKERS.len()], Marker::Cross) {
                (
                    [(x - r, y - r), (x + r, y + r)],
                    [(x - r, y + r), (x + r, y - r)],
                )
            } else {
                (
                    [(x - r - 1, y), (x + r + 1, y)],
                    [(x, y - r - 1), (x, y + r + 1)],
                )
            };
            root.draw(&PathElement::new(a.to_vec(), col.stroke_width(w)))
                .map_err(e)?;
            root.draw(&PathElement::new(b.to_vec(), col.stroke_width(w)))
                .map_err(e)
        }
    }
}

/// What a legend entry shows beside its name.
#[derive(Clone, Copy)]
enum Key {
    /// A filled swatch (bars and areas).
    Swatch(RGBColor),
    /// A swatch with series `i`'s marker on it (bars).
    Bar(usize, RGBColor),
    /// Series `i`'s marker alone (points).
    Point(usize, RGBColor),
    /// Series `i`'s dash and marker (lines).
    Line(usize, RGBColor),
}

/// Where a chart's legend goes.
enum Place<'a> {
    /// No legend (a colour bar of `0` pixels' width at scale 1 may take the right).
    None(f64),
    /// A column on the right (short names).
    Right(&'a [(String, Key)]),
    /// Rows under the plot, across the whole width.
    Below(&'a [(String, Key)]),
}

/// A chart's areas: the plot, the legend's column on the right (if any), where the caption
/// starts (pixels from the top) and the setup a long title gave up, for the caption.
struct Frame<DB: DrawingBackend> {
    plot: Area<DB>,
    legend: Option<Area<DB>>,
    caption_top: i32,
    setup: Option<String>,
}

/// The legend's key's width at scale 1, and the gap before its name.
const KEY_W: f64 = 46.0;

/// The frame of every chart, laid out from the top down: the title (at most two lines), the
/// plot of `plot_h` pixels at scale 1 (with the legend's column on its right, or a colour bar's
/// room), the legend's rows under it, then the caption. The canvas's height follows (see
/// [`draw`]).
fn frame<DB: DrawingBackend>(
    root: &Area<DB>,
    title: &str,
    place: Place,
    plot_h: f64,
    s: Scale,
) -> Result<Frame<DB>, String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let (w, _) = root.dim_in_pixel();
    let w = w as i32;
    let (lines, setup) = title_lines(title, s.em(TITLE), w - s.px(40.0));
    let line_h = s.line(TITLE);
    for (i, line) in lines.iter().enumerate() {
        root.draw(&Text::new(
            line.clone(),
            (w / 2, s.px(10.0) + i as i32 * line_h),
            anchored(s.text(TITLE, BLACK), HPos::Center, VPos::Top),
        ))
        .map_err(e)?;
    }
    let top = s.px(18.0) + lines.len() as i32 * line_h;
    let bottom = top + s.px(plot_h);
    let (_, body) = root.split_vertically(top);
    let (body, below) = body.split_vertically(s.px(plot_h));
    let (plot, legend, caption_top) = match place {
        Place::None(0.0) => (body, None, bottom),
        Place::None(bar) => {
            let (plot, bar) = body.split_horizontally(w - s.px(bar));
            (plot, Some(bar), bottom)
        }
        Place::Right(entries) => {
            let widest = entries
                .iter()
                .map(|(n, _)| text_w(n, s.em(TEXT)))
                .max()
                .unwrap_or(0);
            let legend_w = (widest + s.px(KEY_W + 24.0)).min(w * 2 / 5);
            let (plot, legend) = body.split_horizontally(w - legend_w);
            (plot, Some(legend), bottom)
        }
        Place::Below(entries) => {
            let used = legend_below(&below, entries, s)?;
            (body, None, bottom + used)
        }
    };
    Ok(Frame {
        plot,
        legend,
        caption_top,
        setup,
    })
}

/// Draw a legend entry's key, its middle at (`x0`, `mid`).
fn draw_key<DB: DrawingBackend>(
    area: &Area<DB>,
    key: Key,
    x0: i32,
    mid: i32,
    s: Scale,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let kx = |v: f64| x0 + s.px(v);
    match key {
        Key::Swatch(col) => area
            .draw(&Rectangle::new(
                [(kx(8.0), mid - s.px(9.0)), (kx(36.0), mid + s.px(9.0))],
                col.filled(),
            ))
            .map_err(e),
        Key::Bar(i, col) => {
            area.draw(&Rectangle::new(
                [(kx(6.0), mid - s.px(11.0)), (kx(38.0), mid + s.px(11.0))],
                col.filled(),
            ))
            .map_err(e)?;
            marker(area, (kx(22.0), mid), i, ink_on(col), s)
        }
        Key::Line(i, col) => {
            dashed(
                area,
                &[(kx(2.0), mid), (kx(42.0), mid)],
                DASHES[i % DASHES.len()],
                col.stroke_width(s.px(2.5).max(1) as u32),
                s,
            )?;
            marker(area, (kx(22.0), mid), i, col, s)
        }
        // As large as the points it names (see the trade-off's points).
        Key::Point(i, col) => marker(area, (kx(22.0), mid), i, col, Scale(s.0 * 1.6)),
    }
}

/// The legend under the plot: entries in rows, in as many columns (up to four) as keep every
/// name to two lines, read across; each name balanced in its column. Returns the height used.
fn legend_below<DB: DrawingBackend>(
    area: &Area<DB>,
    entries: &[(String, Key)],
    s: Scale,
) -> Result<i32, String> {
    if entries.is_empty() {
        return Ok(0);
    }
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let (w, _) = area.dim_in_pixel();
    let (x0, room) = (s.px(20.0), w as i32 - s.px(40.0));
    let em = s.em(TEXT);
    let line_h = s.line(TEXT);
    let layout = |cols: usize| -> Vec<Vec<String>> {
        let text_room = room / cols as i32 - s.px(KEY_W + 16.0);
        entries
            .iter()
            .map(|(n, _)| balanced(n, em, text_room))
            .collect()
    };
    let most = entries.len().min(4);
    let (cols, names) = (1..=most)
        .rev()
        .map(|c| (c, layout(c)))
        .find(|(_, names)| names.iter().all(|l| l.len() <= 2))
        .unwrap_or_else(|| (1, layout(1)));
    // Columns as wide as their widest entry, spread across the width.
    let widths: Vec<i32> = (0..cols)
        .map(|c| {
            names
                .iter()
                .skip(c)
                .step_by(cols)
                .map(|l| l.iter().map(|x| text_w(x, em)).max().unwrap_or(0))
                .max()
                .unwrap_or(0)
                + s.px(KEY_W)
        })
        .collect();
    let total: i32 = widths.iter().sum();
    let gap = if cols > 1 {
        ((room - total) / (cols as i32 - 1)).clamp(s.px(16.0), s.px(48.0))
    } else {
        0
    };
    let start = x0 + ((room - total - gap * (cols as i32 - 1)) / 2).max(0);
    let mut y = s.px(10.0);
    for (row, chunk) in names.chunks(cols).enumerate() {
        let tall = chunk.iter().map(Vec::len).max().unwrap_or(1).max(1) as i32 * line_h;
        let mut x = start;
        for (c, lines) in chunk.iter().enumerate() {
            let (_, key) = entries[row * cols + c];
            let mid = y + line_h / 2;
            draw_key(area, key, x, mid, s)?;
            for (li, line) in lines.iter().enumerate() {
                area.draw(&Text::new(
                    line.clone(),
                    (x + s.px(KEY_W), mid + li as i32 * line_h),
                    anchored(s.text(TEXT, BLACK), HPos::Left, VPos::Center),
                ))
                .map_err(e)?;
            }
            x += widths[c] + gap;
        }
        y += tall + s.px(6.0);
    }
    Ok(y + s.px(4.0))
}

/// The legend in a column on the right: one entry per name, its key then its name (balanced
/// in the column); in more columns when the entries do not fit its height in one.
fn legend<DB: DrawingBackend>(
    area: &Area<DB>,
    entries: &[(String, Key)],
    s: Scale,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let em = s.em(TEXT);
    let line_h = s.line(TEXT);
    let gap = s.px(8.0);
    type Placed = Vec<(i32, i32, Vec<String>)>;
    let layout = |cols: i32| -> Option<Placed> {
        let col_w = w / cols;
        let mut out = Vec::new();
        let (mut col, mut y) = (0, s.px(16.0));
        for (name, _) in entries {
            let lines = balanced(name, em, col_w - s.px(KEY_W + 8.0));
            let tall = gap + lines.len().max(1) as i32 * line_h;
            if y + tall > h && y > s.px(16.0) {
                col += 1;
                y = s.px(16.0);
            }
            if col >= cols {
                return None;
            }
            out.push((col * col_w, y, lines));
            y += tall;
        }
        Some(out)
    };
    let placed = (1..=4)
        .find_map(layout)
        .or_else(|| layout(entries.len().max(1) as i32))
        .unwrap_or_default();
    for ((_, key), (x0, y, lines)) in entries.iter().zip(placed) {
        let mid = y + line_h / 2;
        draw_key(area, *key, x0, mid, s)?;
        for (li, line) in lines.iter().enumerate() {
            area.draw(&Text::new(
                line.clone(),
                (x0 + s.px(KEY_W), mid + li as i32 * line_h),
                anchored(s.text(TEXT, BLACK), HPos::Left, VPos::Center),
            ))
            .map_err(e)?;
        }
    }
    Ok(())
}

/// Series `names`' legend entries, each keyed by `key` with its place and colour.
fn series_entries(names: &[String], key: fn(usize, RGBColor) -> Key) -> Vec<(String, Key)> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), key(i, colour(i))))
        .collect()
}

/// The marker colour on a bar of colour `col`: white, or black on the lightest bars.
fn ink_on(col: RGBColor) -> RGBColor {
    let lum = 0.299 * col.0 as f64 + 0.587 * col.1 as f64 + 0.114 * col.2 as f64;
    if lum > 150.0 { BLACK } else { WHITE }
}
/// The caption's words for series hidden under others (`hidden[i]`: the series over series
/// `i`, and its place among those under it): " Within a mark of 25% rules at every point, so
/// drawn under it: A, B (their marks set aside)."
fn hidden_words(names: &[String], hidden: &[Option<(usize, usize)>]) -> String {
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

/// The caption under the plot, from `top` (pixels): the setup a long title gave up, then
/// `text`, each balanced in as many lines as it takes. Returns the canvas's height it needs.
fn caption<DB: DrawingBackend>(
    root: &Area<DB>,
    top: i32,
    setup: Option<&str>,
    text: &str,
    s: Scale,
) -> Result<i32, String> {
    let (w, _) = root.dim_in_pixel();
    let room = w as i32 - s.px(40.0);
    let ink = RGBColor(60, 60, 60);
    let line_h = s.line(TEXT);
    let mut y = top + s.px(6.0);
    let setup = setup.map(|x| format!("Setup: {x}."));
    for para in setup.iter().map(String::as_str).chain([text]) {
        if para.trim().is_empty() {
            continue;
        }
        for line in balanced(para.trim(), s.em(TEXT), room) {
            root.draw(&Text::new(
                line,
                (w as i32 / 2, y),
                anchored(s.text(TEXT, ink), HPos::Center, VPos::Top),
            ))
            .map_err(|x| x.to_string())?;
            y += line_h;
        }
        y += s.px(4.0);
    }
    Ok(y + s.px(8.0))
}

/// The x axis's ticks and names at their values (`ticks`: value and name; crowded names are
/// shown every k-th, so that they never run together), and its description under them.
fn x_axis<DB: DrawingBackend>(
    root: &Area<DB>,
    c: &ChartContext<DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    ticks: &[(f64, String)],
    desc: &str,
    s: Scale,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let (xs, ys) = (c.x_range(), c.y_range());
    let at = |x: f64| c.backend_coord(&(x, ys.start));
    let em = s.em(TEXT);
    let widest = ticks.iter().map(|t| text_w(&t.1, em)).max().unwrap_or(0);
    let step = match ticks {
        [a, b, ..] => (at(b.0).0 - at(a.0).0).abs().max(1),
        _ => i32::MAX,
    };
    let every = ((widest + s.px(12.0)) / step + 1).max(1) as usize;
    let ink = BLACK.stroke_width(s.px(1.0).max(1) as u32);
    for (i, (x, name)) in ticks.iter().enumerate() {
        let (px, py) = at(*x);
        root.draw(&PathElement::new(vec![(px, py), (px, py + s.px(6.0))], ink))
            .map_err(e)?;
        if i % every == 0 {
            root.draw(&Text::new(
                name.clone(),
                (px, py + s.px(9.0)),
                anchored(s.text(TEXT, BLACK), HPos::Center, VPos::Top),
            ))
            .map_err(e)?;
        }
    }
    let (left, bottom) = at(xs.start);
    let right = at(xs.end).0;
    root.draw(&Text::new(
        desc.to_string(),
        (
            (left + right) / 2,
            bottom + s.px(9.0) + s.line(TEXT) + s.px(4.0),
        ),
        anchored(s.text(TEXT, BLACK), HPos::Center, VPos::Top),
    ))
    .map_err(e)
}

/// The lines of a y-axis description: one, or as many balanced ones as it takes where it is
/// longer than the plot is high (a description is never cut short).
fn y_desc_lines(desc: &str, s: Scale) -> Vec<String> {
    balanced(desc, s.em(TEXT), s.px(PLOT_H - 110.0))
}

/// The room the y axis takes beside the plot: its values and its description's lines.
fn y_area(desc: &str, s: Scale) -> i32 {
    s.px(72.0) + y_desc_lines(desc, s).len() as i32 * s.line(TEXT)
}

/// The y axis's description, turned, centred on the plot's height at the left of `plot`.
fn y_desc<DB: DrawingBackend>(
    root: &Area<DB>,
    plot: &Area<DB>,
    c: &ChartContext<DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    desc: &str,
    s: Scale,
) -> Result<(), String> {
    let (xs, ys) = (c.x_range(), c.y_range());
    let top = c.backend_coord(&(xs.start, ys.end)).1;
    let bottom = c.backend_coord(&(xs.start, ys.start)).1;
    let left = plot.get_base_pixel().0 + s.px(6.0);
    for (i, line) in y_desc_lines(desc, s).into_iter().enumerate() {
        root.draw(&Text::new(
            line,
            (left + i as i32 * s.line(TEXT), (top + bottom) / 2),
            anchored(s.text(TEXT, BLACK), HPos::Center, VPos::Top)
                .transform(FontTransform::Rotate270),
        ))
        .map_err(|x| x.to_string())?;
    }
    Ok(())
}

/// Draw `chart` on `root` from the top down; returns the height the drawing needs (the canvas
/// is drawn a second time at that height, see [`Chart::svg_sized`]).
fn draw<DB: DrawingBackend>(chart: &Chart, root: &Area<DB>, s: Scale) -> Result<i32, String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let label = s.font(TEXT);
    let axis = s.font(TEXT);
    let stroke = s.px(2.5).max(1) as u32;
    let height = match chart {
        Chart::Bars {
            title,
            y_label,
            level,
            categories,
            share,
            series,
            left_out,
        } => {
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
            let mut c = ChartBuilder::on(plot)
                .margin(s.px(8.0))
                .x_label_area_size(s.px(66.0))
                .y_label_area_size(y_area(y_label, s))
                .build_cartesian_2d(0f64..n as f64, 0f64..top)
                .map_err(e)?;
            c.configure_mesh()
                .disable_x_mesh()
                .x_labels(0)
                .y_label_formatter(&|v| {
                    if *share {
                        format!("{:.0}%", 100.0 * v)
                    } else {
                        tick(*v)
                    }
                })
                .label_style(label.clone())
                .axis_desc_style(axis.clone())
                .light_line_style(WHITE.mix(0.0))
                .bold_line_style(RGBColor(225, 225, 225))
                .draw()
                .map_err(e)?;
            y_desc(root, plot, &c, y_label, s)?;
            let k = series.len().max(1) as f64;
            let width = 0.8 / k;
            let mut widest = (0, 0.0f64);
            for (si, (_, values)) in series.iter().enumerate() {
                let col = colour(si);
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
            caption(root, f.caption_top, f.setup.as_deref(), &note, s)?
        }
        Chart::Stacked {
            title,
            layers,
            shares,
        } => {
            let names: Vec<String> = layers
                .iter()
                .map(|l| crate::labels::outcome(l).head)
                .collect();
            // Top layer first, as they stack.
            let entries: Vec<(String, Key)> = (0..layers.len())
                .rev()
                .map(|i| (names[i].clone(), Key::Swatch(outcome_colour(&layers[i], i))))
                .collect();
            let f = frame(root, title, Place::Right(&entries), PLOT_H, s)?;
            let turns = shares.len().max(1);
            let mut c = ChartBuilder::on(&f.plot)
                .margin(s.px(8.0))
                .x_label_area_size(s.px(66.0))
                .y_label_area_size(y_area("chance of each state", s))
                .build_cartesian_2d(0.5f64..turns as f64 + 0.5, 0f64..1.0)
                .map_err(e)?;
            c.configure_mesh()
                .disable_mesh()
                .x_labels(0)
                .y_label_formatter(&|v| format!("{:.0}%", 100.0 * v))
                .label_style(label.clone())
                .axis_desc_style(axis.clone())
                .draw()
                .map_err(e)?;
            let every = turns.div_ceil(12).max(1);
            let ticks: Vec<(f64, String)> = (1..=turns)
                .filter(|t| (t - 1).is_multiple_of(every))
                .map(|t| (t as f64, t.to_string()))
                .collect();
            x_axis(root, &c, &ticks, "after turn", s)?;
            y_desc(root, &f.plot, &c, "chance of each state", s)?;
            // Each state's band between the cumulative shares below and with it, as steps.
            for (li, layer) in layers.iter().enumerate() {
                let col = outcome_colour(layer, li);
                let cum = |t: usize, upto: usize| shares[t][..upto].iter().sum::<f64>().min(1.0);
                let mut pts = Vec::new();
                for t in 0..shares.len() {
                    let x = (t + 1) as f64;
                    pts.push(c.backend_coord(&(x - 0.5, cum(t, li + 1))));
                    pts.push(c.backend_coord(&(x + 0.5, cum(t, li + 1))));
                }
                for t in (0..shares.len()).rev() {
                    let x = (t + 1) as f64;
                    pts.push(c.backend_coord(&(x + 0.5, cum(t, li))));
                    pts.push(c.backend_coord(&(x - 0.5, cum(t, li))));
                }
                root.draw(&Polygon::new(pts, col.filled())).map_err(e)?;
            }
            if let Some(area) = &f.legend {
                legend(area, &entries, s)?;
            }
            caption(root, f.caption_top, f.setup.as_deref(), "", s)?
        }
        Chart::Lines {
            title,
            x_label,
            x_values,
            y_label,
            level,
            steps,
            share,
            series,
        } => {
            let names: Vec<String> = series.iter().map(|x| x.0.clone()).collect();
            let entries = series_entries(&names, Key::Line);
            let f = frame(root, title, Place::Below(&entries), PLOT_H, s)?;
            let n = x_values.len().max(1);
            // The value a line goes through: the exact one where it is known.
            let y_of = |v: &Estimate| v.exact.unwrap_or(v.p);
            let top = series
                .iter()
                .flat_map(|x| x.1.iter().flatten().map(|v| v.high.max(y_of(v))))
                .fold(0.0f64, f64::max);
            let bottom = series
                .iter()
                .flat_map(|x| x.1.iter().flatten().map(|v| v.low.min(y_of(v))))
                .fold(1.0f64, f64::min);
            let probability = *share;
            // Small effects are not flattened by a 0–100% axis: a chance axis fits the data (in
            // steps of 5 points) when they span less than 30 points, and the caption says so.
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
            let mut c = ChartBuilder::on(&f.plot)
                .margin(s.px(8.0))
                .x_label_area_size(s.px(66.0))
                .y_label_area_size(y_area(y_label, s))
                .build_cartesian_2d(-0.5f64..n as f64 - 0.5, y_min..y_max)
                .map_err(e)?;
            // The x values are places (0, 1, 2 …) named by `x_values`: ticks and names are
            // drawn at those places (see `x_axis`), not where the library would put its own.
            c.configure_mesh()
                .disable_x_mesh()
                .x_labels(0)
                .y_label_formatter(&|v| {
                    if probability && y_max - y_min < 0.1 {
                        format!("{:.1}%", 100.0 * v)
                    } else if probability {
                        format!("{:.0}%", 100.0 * v)
                    } else {
                        tick(*v)
                    }
                })
                .label_style(label.clone())
                .axis_desc_style(axis.clone())
                .light_line_style(WHITE.mix(0.0))
                .bold_line_style(RGBColor(225, 225, 225))
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
            let mut widest = (0, 0.0f64);
            // The first series is the baseline: drawn last, over the others, it stays visible
            // where they coincide with it (their marks are nudged aside).
            let order: Vec<usize> = (1..k).chain((k > 0).then_some(0)).collect();
            // A series that lies on one drawn after it at every turn (within a mark's width) is
            // hidden by it: its marks move aside along the step, one place per series hidden
            // there, and the caption names it.
            // Two values at place `i` drawn within a mark's reach of each other.
            let close = |i: usize, x: &Estimate, y: &Estimate| {
                let ya = c.backend_coord(&(i as f64, y_of(x))).1;
                let yb = c.backend_coord(&(i as f64, y_of(y))).1;
                (ya - yb).abs() <= s.px(3.0)
            };
            let on = |a: usize, b: usize| {
                let (va, vb) = (&series[a].1, &series[b].1);
                va.len() == vb.len()
                    && va.iter().any(Option::is_some)
                    && va
                        .iter()
                        .zip(vb)
                        .enumerate()
                        .all(|(i, (x, y))| match (x, y) {
                            (Some(x), Some(y)) => close(i, x, y),
                            (None, None) => true,
                            _ => false,
                        })
            };
            let mut hidden: Vec<Option<(usize, usize)>> = vec![None; k];
            for (pos, &a) in order.iter().enumerate() {
                if let Some(&b) = order[pos + 1..].iter().rev().find(|&&b| on(a, b)) {
                    let rank = hidden.iter().flatten().filter(|h| h.0 == b).count() + 1;
                    hidden[a] = Some((b, rank));
                }
            }
            // Where two lines meet at a place or two (not all along: that is hidden above), one
            // mark covers the other there: the caption names where, so the reader does not look
            // for a missing mark ("Green and Regular meet at 3"). Only on short axes of a sweep,
            // where every place has its mark, and not where turn-by-turn steps cross.
            let mut meets: Vec<String> = Vec::new();
            if x_values.len() <= 12 && !*steps {
                for a in 0..k {
                    for b in a + 1..k {
                        if hidden[a].is_some_and(|h| h.0 == b)
                            || hidden[b].is_some_and(|h| h.0 == a)
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
                                close(i, x, y).then(|| x_values[i].as_str())
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
            // The widest interval, on the canvas and in value, first: where every one is
            // narrower than a mark, the simulation's checks are not drawn beside the exact
            // values (a dot on a dot), and the note says how close they lie.
            for values in series.iter().map(|x| &x.1) {
                for (i, v) in values.iter().enumerate() {
                    if let Some(v) = v {
                        let lo = c.backend_coord(&(i as f64, v.low)).1;
                        let hi = c.backend_coord(&(i as f64, v.high)).1;
                        widest = (widest.0.max(lo - hi), widest.1.max((v.high - v.low) / 2.0));
                    }
                }
            }
            let narrow = widest.0 < s.px(10.0);
            for &si in &order {
                let values = &series[si].1;
                let col = colour(si);
                let pts: Vec<(usize, Estimate)> = values
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| v.map(|v| (i, v)))
                    .collect();
                // Every mark on its x value: series that coincide are told apart by drawing the
                // baseline last and setting aside the marks of a series hidden under another.
                let at = |x: f64, y: f64| c.backend_coord(&(x, y));
                let mut line = Vec::new();
                for &(i, v) in &pts {
                    let x = i as f64;
                    if *steps {
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
                        if *steps {
                            band.push(at(x - 0.5, v.high));
                            band.push(at(x + 0.5, v.high));
                        } else {
                            band.push(at(x, v.high));
                        }
                    }
                    for &(i, v) in run.iter().rev() {
                        let x = i as f64;
                        if *steps {
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
                let mark_every = pts.len().div_ceil(24).max(1);
                // A hidden series' marks sit aside: along the step, or a little off the point.
                let aside = hidden[si].map_or(0.0, |(_, rank)| {
                    rank as f64 * if *steps { 0.2 } else { 0.08 }
                });
                for (j, &(i, v)) in pts.iter().enumerate() {
                    if j % mark_every == 0 {
                        marker(root, at(i as f64 + aside, y_of(&v)), si, col, s)?;
                    }
                    // Beside an exact value, the estimate: a dot with its interval (not where
                    // every interval is narrower than a mark).
                    if v.exact.is_some() && v.high > v.low && !narrow {
                        let (x, _) = at(i as f64, v.p);
                        let x = x + s.px(9.0);
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
            }
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
            let note = if with_exact == points.len() && !with_interval {
                "Exact values.".to_string()
            } else if with_exact == points.len() && narrow {
                // In a reader's words: the simulation checks the exact line.
                format!(
                    "Lines: exact values. The simulation checks each to within ±{half} ({level} intervals), too close to draw."
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
                format!(
                    "The {level} intervals are narrower than the marks (the widest is ±{half})."
                )
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
            let mut note = format!("{note}{}", hidden_words(&names, &hidden));
            if !meets.is_empty() && meets.len() <= 3 {
                note += &format!(
                    " Where lines meet, one mark covers the other: {}.",
                    meets.join("; ")
                );
            }
            caption(root, f.caption_top, f.setup.as_deref(), &note, s)?
        }
        Chart::Heat {
            title,
            x,
            y,
            cells,
            range,
        } => {
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
            let mut c = ChartBuilder::on(&f.plot)
                .margin(s.px(8.0))
                .x_label_area_size(s.px(66.0))
                .y_label_area_size(y_area)
                .build_cartesian_2d(0f64..nx as f64, 0f64..ny as f64)
                .map_err(e)?;
            c.configure_mesh()
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
                .label_style(label.clone())
                .axis_desc_style(axis.clone())
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
                    let fits = text_w(&text, s.em(TEXT)) + s.px(6.0) <= cw
                        && s.line(TEXT) + s.px(2.0) <= ch;
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
            caption(root, f.caption_top, f.setup.as_deref(), "", s)?
        }
        Chart::Tradeoff {
            title,
            x_label,
            y_label,
            share,
            better,
            level,
            points,
        } => {
            let names: Vec<String> = points.iter().map(|p| p.0.clone()).collect();
            let entries = series_entries(&names, Key::Point);
            let f = frame(root, title, Place::Below(&entries), PLOT_H, s)?;
            // Where a point sits: the exact value where known, else the estimate.
            let at = |v: &Estimate| v.exact.unwrap_or(v.p);
            let whisker = |v: &Estimate| v.exact.is_none() && (v.low != v.p || v.high != v.p);
            let range = |f: &dyn Fn(&(String, Estimate, Estimate)) -> Estimate, chance: bool| {
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
                // A margin of an eighth of the span either side (a fixed one for a single value);
                // a chance's axis stays within 0–100%, its margin taken inside.
                let pad = ((hi - lo) / 8.0).max(if hi.abs() > 0.0 {
                    hi.abs() * 0.02
                } else {
                    0.01
                });
                if chance {
                    ((lo - pad).max(0.0), (hi + pad).min(1.0))
                } else {
                    (lo - pad, hi + pad)
                }
            };
            let (x0, x1) = range(&|p| p.1, share.0);
            let (y0, y1) = range(&|p| p.2, share.1);
            let said = |label: &str, b: Option<bool>| match b {
                // One bracket: "(among units that recovered; lower is better)".
                Some(better) => {
                    let way = if better { "higher" } else { "lower" };
                    match label.strip_suffix(')') {
                        Some(open) if open.contains(" (") => format!("{open}; {way} is better)"),
                        _ => format!("{label} ({way} is better)"),
                    }
                }
                None => label.to_string(),
            };
            let (x_desc, y_words) = (said(x_label, better.0), said(y_label, better.1));
            let mut c = ChartBuilder::on(&f.plot)
                .margin(s.px(12.0))
                .x_label_area_size(s.px(66.0))
                .y_label_area_size(y_area(&y_words, s))
                .build_cartesian_2d(x0..x1, y0..y1)
                .map_err(e)?;
            // Whole per cents where the axis spans more than five points.
            let fmt = |v: f64, pct: bool, span: f64| {
                if pct && span > 0.05 {
                    format!("{:.0}%", 100.0 * v)
                } else if pct {
                    format!("{:.1}%", 100.0 * v)
                } else {
                    tick(v)
                }
            };
            c.configure_mesh()
                .x_desc(x_desc.as_str())
                .x_labels(6)
                .y_labels(6)
                .x_label_formatter(&|v| fmt(*v, share.0, x1 - x0))
                .y_label_formatter(&|v| fmt(*v, share.1, y1 - y0))
                .label_style(label.clone())
                .axis_desc_style(axis.clone())
                .light_line_style(WHITE.mix(0.0))
                .bold_line_style(RGBColor(225, 225, 225))
                .draw()
                .map_err(e)?;
            y_desc(root, &f.plot, &c, &y_words, s)?;
            // Where both ways are known, an arrow into the better corner, drawn under the
            // points.
            if let (Some(bx), Some(by)) = *better {
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
            }
            let ink = BLACK.stroke_width(s.px(1.5).max(1) as u32);
            let cap_w = s.px(4.0);
            let mut estimated = false;
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
                        (centre.0 - pb.0).abs() < s.px(9.0) && (centre.1 - pb.1).abs() < s.px(9.0)
                    })
                    .count();
                marker(
                    root,
                    centre,
                    i,
                    colour(i),
                    // Larger than a line's markers: a point is the whole datum here, and
                    // it must read at 16 cm.
                    Scale(s.0 * 1.6 * (1.0 + 0.9 * under as f64)),
                )?;
            }
            // Points drawn on the same place: said, since the later one covers the earlier.
            let mut same: Vec<String> = Vec::new();
            for (i, a) in points.iter().enumerate() {
                let pa = c.backend_coord(&(at(&a.1), at(&a.2)));
                let twins: Vec<&str> = points[i + 1..]
                    .iter()
                    .filter(|b| {
                        let pb = c.backend_coord(&(at(&b.1), at(&b.2)));
                        (pa.0 - pb.0).abs() < s.px(9.0) && (pa.1 - pb.1).abs() < s.px(9.0)
                    })
                    .map(|b| b.0.as_str())
                    .collect();
                if !twins.is_empty() && !same.iter().any(|x| x.contains(&a.0)) {
                    same.push(format!("{} and {}", a.0, twins.join(" and ")));
                }
            }
            let mut note = if estimated {
                format!(
                    "A point per variant; whiskers: the {level} intervals of estimates (exact values have none)."
                )
            } else {
                "A point per variant, at its exact values.".to_string()
            };
            if !same.is_empty() {
                note += &format!(" On the same spot: {}.", same.join("; "));
            }
            if better.0.is_some() && better.1.is_some() {
                note += " The arrow points to the better corner.";
            }
            caption(root, f.caption_top, f.setup.as_deref(), &note, s)?
        }
        Chart::Tornado {
            title,
            x_label,
            share,
            rows,
        } => {
            // At most this many rows stay readable at the standard size; the caption says
            // when more were left out (the table has them all).
            const MOST: usize = 16;
            let shown = &rows[..rows.len().min(MOST)];
            // Each bar a line of text high: the plot grows with the rows.
            let bars_shown: usize = shown.iter().map(|r| r.1.len().max(1)).sum();
            let plot_h =
                PLOT_H.max(bars_shown as f64 * TEXT * 1.5 + shown.len() as f64 * 10.0 + 90.0);
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
            let value = |to: &str, v: &Estimate| {
                let value = if v.p == 0.0 {
                    "0".to_string()
                } else if *share {
                    format!("{:+.1}", v.p * 100.0)
                } else {
                    format!("{:+.3}", v.p)
                };
                format!("{to}: {}", value.replace('-', "−"))
            };
            let label_w = shown
                .iter()
                .flat_map(|r| r.1.iter().map(|(to, v)| text_w(&value(to, v), s.em(TEXT))))
                .max()
                .unwrap_or(0) as f64
                + s.px(12.0) as f64;
            let (plot_w, _) = f.plot.dim_in_pixel();
            let avail =
                (plot_w as i32 - (widest + s.px(16.0)).min(s.px(330.0)) - s.px(16.0)) as f64;
            let span = (hi - lo).max(1e-9);
            let pad = (label_w * span / (avail - 2.0 * label_w).max(avail / 4.0)).max(span * 0.05);
            let (lo, hi) = (lo - pad, hi + pad);
            let mut c = ChartBuilder::on(&f.plot)
                .margin(s.px(8.0))
                .x_label_area_size(s.px(66.0))
                .y_label_area_size((widest + s.px(16.0)).min(s.px(330.0)))
                .build_cartesian_2d(lo..hi, 0f64..n as f64)
                .map_err(e)?;
            let unit = if *share { " pts" } else { "" };
            c.configure_mesh()
                .disable_y_mesh()
                .y_labels(0)
                .x_labels(6)
                .x_desc(x_label.as_str())
                .x_label_formatter(&|v| {
                    if *share {
                        format!("{v:+.0}{unit}").replace("+0", "0")
                    } else {
                        format!("{v:+.2}")
                    }
                })
                .label_style(label.clone())
                .axis_desc_style(axis.clone())
                .light_line_style(WHITE.mix(0.0))
                .bold_line_style(RGBColor(225, 225, 225))
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
            for (ri, (name, bars)) in shown.iter().enumerate() {
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
                    let text = value(to, v);
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
            caption(root, f.caption_top, f.setup.as_deref(), &note, s)?
        }
    };
    root.present().map_err(e)?;
    Ok(height)
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

impl Chart {
    /// The chart's title.
    pub fn title(&self) -> &str {
        match self {
            Chart::Bars { title, .. }
            | Chart::Stacked { title, .. }
            | Chart::Lines { title, .. }
            | Chart::Heat { title, .. }
            | Chart::Tornado { title, .. }
            | Chart::Tradeoff { title, .. } => title,
        }
    }

    /// The chart as an SVG document (at scale 1: it is vector), its text as `<text>` with the
    /// letters it uses embedded as DejaVu Sans, so that it looks the same without DejaVu
    /// installed; the title is kept as the document's `<title>` for screen readers and search.
    ///
    /// # Errors
    /// A message from the drawing library (never expected).
    pub fn svg(&self) -> Result<String, String> {
        self.svg_sized(SIZE)
    }

    /// The chart as SVG drawn on a canvas `size.0` pixels wide: a narrow canvas (such as
    /// [`NARROW`]) keeps the text legible where the chart is shown small, on a phone (it is
    /// drawn at the scale of its width to [`SIZE`]'s, but never below 3/4, so its text is at
    /// least 14 px). Layouts follow the canvas (titles and legends wrap); the height follows
    /// the content: it ends where the drawing does (`size.1` is not a least height).
    ///
    /// # Errors
    /// As [`Chart::svg`].
    pub fn svg_sized(&self, size: (u32, u32)) -> Result<String, String> {
        register_font();
        let s = Scale((size.0 as f64 / SIZE.0 as f64).clamp(0.75, 1.0));
        let height = self.height(size.0, s)?;
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (size.0, height)).into_drawing_area();
            draw(self, &root, s)?;
        }
        let out = super::svgtext::embed_font(&out);
        let title = format!("<title>{}</title>", super::escape_html(self.title()));
        Ok(match out.find('>') {
            Some(i) if out.starts_with("<svg") => format!("{}{title}{}", &out[..=i], &out[i + 1..]),
            _ => out,
        })
    }

    /// The height the chart needs on a canvas `width` pixels wide at scale `s`: laid out on a
    /// tall canvas first (everything is placed from the top down), where the drawing ends.
    fn height(&self, width: u32, s: Scale) -> Result<u32, String> {
        let mut scratch = String::new();
        let root =
            SVGBackend::with_string(&mut scratch, (width, s.px(4000.0) as u32)).into_drawing_area();
        Ok(draw(self, &root, s)?.max(1) as u32)
    }

    /// The chart as PNG bytes at scale 1 ([`SIZE`]).
    ///
    /// # Errors
    /// A message from the drawing library or the PNG encoder (never expected).
    pub fn png(&self) -> Result<Vec<u8>, String> {
        self.png_scaled(1.0)
    }

    /// The chart as PNG bytes at `scale` × [`SIZE`]'s width (2 for print at about 200 dpi on
    /// A4), every line, mark and letter scaled with it; the height follows the content.
    ///
    /// # Errors
    /// As [`Chart::png`].
    pub fn png_scaled(&self, scale: f64) -> Result<Vec<u8>, String> {
        register_font();
        let w = (SIZE.0 as f64 * scale).round() as u32;
        let h = self.height(w, Scale(scale))?;
        let mut rgb = vec![0u8; (w * h * 3) as usize];
        {
            let root = super::typeset::Typeset(BitMapBackend::with_buffer(&mut rgb, (w, h)))
                .into_drawing_area();
            draw(self, &root, Scale(scale))?;
        }
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, w, h);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            let mut writer = enc.write_header().map_err(|e| e.to_string())?;
            writer.write_image_data(&rgb).map_err(|e| e.to_string())?;
        }
        Ok(out)
    }
}

/// A tick's number as a reader writes it: no trailing zeros ("7", "6.5", "0.25", not "7.00"),
/// at most two decimals.
fn tick(v: f64) -> String {
    let t = format!("{v:.2}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    match t {
        "-0" | "" => "0".into(),
        t => t.replacen('-', "\u{2212}", 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caption_names_every_series_drawn_under_another() {
        let names: Vec<String> = ["base", "a", "b", "c"].map(String::from).to_vec();
        assert_eq!(hidden_words(&names, &[None, None, None, None]), "");
        assert_eq!(
            hidden_words(&names, &[None, Some((0, 1)), None, Some((0, 2))]),
            " Within a mark of base at every point, so drawn under it: a, c (marks set aside)."
        );
    }

    /// A text of an SVG chart: where its ink runs (from its anchor and width), its baseline's
    /// y, its size, whether it is turned, and what it says.
    #[derive(Debug)]
    pub(crate) struct Placed {
        pub left: f64,
        pub right: f64,
        pub y: f64,
        pub size: f64,
        pub turned: bool,
        pub content: String,
    }

    /// The canvas size an SVG declares.
    pub(crate) fn svg_size(svg: &str) -> (f64, f64) {
        let num = |k: &str| {
            let at = svg.find(&format!(" {k}=\"")).unwrap() + k.len() + 3;
            svg[at..at + svg[at..].find('"').unwrap()]
                .parse::<f64>()
                .unwrap()
        };
        (num("width"), num("height"))
    }

    /// Every `<text>` of an SVG chart.
    pub(crate) fn svg_texts(svg: &str) -> Vec<Placed> {
        let mut out = Vec::new();
        for part in svg.split("<text ").skip(1) {
            let (tag, rest) = part.split_once('>').unwrap();
            let content = rest.split("</text>").next().unwrap().replace("&amp;", "&");
            let attr = |k: &str| {
                let key = format!("{k}=\"");
                tag.find(&key).map(|i| {
                    let v = &tag[i + key.len()..];
                    v[..v.find('"').unwrap()].to_string()
                })
            };
            let num = |k: &str| attr(k).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
            let size = num("font-size");
            let w = super::super::svgtext::width(&content, size as f32) as f64;
            let x = num("x");
            let left = match attr("text-anchor").as_deref() {
                Some("middle") => x - w / 2.0,
                Some("end") => x - w,
                _ => x,
            };
            out.push(Placed {
                left,
                right: left + w,
                y: num("y"),
                size,
                turned: attr("transform").is_some(),
                content,
            });
        }
        out
    }

    fn bars() -> Chart {
        let est = |p: f64| {
            Some(Estimate {
                p,
                low: p - 0.05,
                high: p + 0.05,
                exact: None,
            })
        };
        Chart::Bars {
            title: "Outcomes & more".into(),
            y_label: "chance".into(),
            level: "95%".into(),
            categories: vec!["pass".into(), "fail".into()],
            share: true,
            series: vec![("A".into(), vec![est(0.6), est(0.4)])],
            left_out: vec!["routed".into()],
        }
    }

    #[test]
    fn a_tradeoff_draws_a_point_per_variant_with_its_intervals() {
        let exact = |v: f64| Estimate {
            p: v + 0.001,
            low: v - 0.01,
            high: v + 0.01,
            exact: Some(v),
        };
        let est = |v: f64| Estimate {
            p: v,
            low: v - 0.05,
            high: v + 0.05,
            exact: None,
        };
        let chart = |points| Chart::Tradeoff {
            title: "Trade-off".into(),
            x_label: "chance of eliminated".into(),
            y_label: "mean empty turns".into(),
            share: (true, false),
            better: (Some(false), Some(false)),
            level: "95%".into(),
            points,
        };
        let apart = chart(vec![
            ("A".into(), exact(0.85), exact(3.05)),
            ("B".into(), est(0.71), est(3.83)),
        ]);
        let svg = apart.svg().unwrap();
        assert!(svg.contains("<title>Trade-off</title>"));
        assert_eq!(&apart.png().unwrap()[1..4], b"PNG");
        // Two variants on one spot: the first is drawn larger beneath, so the picture differs
        // from the second alone there.
        let same = chart(vec![
            ("A".into(), exact(0.85), exact(3.05)),
            ("B".into(), exact(0.85), exact(3.05)),
        ]);
        let alone = chart(vec![
            ("A".into(), exact(0.10), exact(9.0)),
            ("B".into(), exact(0.85), exact(3.05)),
        ]);
        assert_ne!(same.png().unwrap(), alone.png().unwrap());
    }

    #[test]
    fn renders_without_system_fonts_and_scales() {
        let chart = bars();
        let svg = chart.svg().unwrap();
        assert!(svg.contains("<svg") && svg.contains("<title>Outcomes &amp; more</title>"));
        assert!(
            svg.contains("<text") && svg.contains("@font-face"),
            "SVG text is text"
        );
        let png = chart.png().unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let big = chart.png_scaled(2.0).unwrap();
        // The PNG header's width and height (bytes 16..24).
        let dims = |p: &[u8]| {
            (
                u32::from_be_bytes(p[16..20].try_into().unwrap()),
                u32::from_be_bytes(p[20..24].try_into().unwrap()),
            )
        };
        // As wide as SIZE, as high as the drawing (here with a legend and a caption, more
        // than the plot alone); the same layout at twice the scale (each length rounded to
        // whole pixels).
        let (w, h) = dims(&png);
        assert!(w == SIZE.0 && h >= 500, "{w}×{h}");
        let (w2, h2) = dims(&big);
        assert!(
            w2 == 2 * w && h2.abs_diff(2 * h) <= 8,
            "{w2}×{h2} against {w}×{h}"
        );
        assert_eq!(svg_size(&svg), (w as f64, h as f64));
        // Every text at least 19 px to the em at 960 px wide (9 pt printed 16 cm wide), inside
        // the canvas; the note names what was left out.
        for t in svg_texts(&svg) {
            assert!(t.size >= 19.0 - 1e-9, "{t:?}");
            assert!(t.turned || (t.left >= 0.0 && t.right <= w as f64), "{t:?}");
        }
        assert!(svg.contains("Not drawn, under 0.05% in every variant: routed."));
    }

    #[test]
    fn many_series_keep_their_legend_inside_and_exact_lines_show_estimates() {
        // 24 series with long names: the legend goes into columns, every text stays inside.
        let series: Vec<Series> = (0..24)
            .map(|i| {
                let v = (0..6)
                    .map(|x| {
                        let e = 0.1 + 0.03 * i as f64 + 0.01 * x as f64;
                        Some(Estimate {
                            p: e + 0.002,
                            low: e - 0.01,
                            high: e + 0.014,
                            exact: Some(e),
                        })
                    })
                    .collect();
                (format!("Regular, +1 leader, base regular {i}"), v)
            })
            .collect();
        let chart = Chart::Lines {
            title: "Many series".into(),
            x_label: "base green".into(),
            x_values: (1..=6).map(|x| x.to_string()).collect(),
            y_label: "chance".into(),
            level: "95%".into(),
            steps: false,
            share: true,
            series,
        };
        let svg = chart.svg().unwrap();
        let (w, h) = svg_size(&svg);
        let mut texts = 0;
        // Each text's ink (its anchor and width) inside the canvas; the turned y-axis name
        // aside.
        for t in svg_texts(&svg).into_iter().filter(|t| !t.turned) {
            texts += 1;
            assert!(
                t.left >= 0.0 && t.right <= w && (0.0..=h).contains(&t.y),
                "text {:?} at ({}–{}, {}) outside the chart",
                t.content,
                t.left,
                t.right,
                t.y
            );
        }
        assert!(texts > 24 + 6, "{texts} texts");
        // Exact values with estimates beside them: the caption says what the dots are.
        let png = chart.png().unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }

    /// Two sweep lines that meet at one value: one mark covers the other there, and the
    /// caption says where; steps over turns that cross say nothing (they cross often).
    #[test]
    fn where_sweep_lines_meet_the_caption_says_so() {
        let exact = |e: f64| {
            Some(Estimate {
                p: e,
                low: e,
                high: e,
                exact: Some(e),
            })
        };
        let series = |steps: bool| Chart::Lines {
            title: "Meet".into(),
            x_label: "base green".into(),
            x_values: (3..=6).map(|x| x.to_string()).collect(),
            y_label: "chance".into(),
            level: "95%".into(),
            steps,
            share: true,
            series: vec![
                ("Regular".into(), vec![exact(0.9); 4]),
                (
                    "Green".into(),
                    vec![exact(0.9), exact(0.74), exact(0.56), exact(0.43)],
                ),
            ],
        };
        let texts = |c: &Chart| {
            svg_texts(&c.svg().unwrap())
                .into_iter()
                .map(|t| t.content)
                .collect::<Vec<String>>()
                .join(" ")
        };
        let swept = texts(&series(false));
        assert!(
            swept.contains("Where lines meet, one mark covers the other: Regular and Green at 3."),
            "{swept}"
        );
        assert!(!texts(&series(true)).contains("Where lines meet"));
    }

    #[test]
    fn names_read_as_words_and_outcomes_keep_their_colour() {
        assert_eq!(words("side_a_wins"), "side A wins");
        assert_eq!(words("falling_back"), "falling back");
        assert_eq!(words("gaps_b"), "gaps b");
        assert_eq!(words("a_hole_turns"), "side A's hole turns");
        assert_eq!(words("b_ends_removed"), "side B's ends removed");
        assert_eq!(
            outcome_colour("removed", 0),
            outcome_colour("eliminated", 5)
        );
        assert_eq!(outcome_colour("good", 0), outcome_colour("in_line", 3));
        // Every series differs from the next by colour, marker and dash, and where colours
        // come round again (every 8), the dash and the marker differ: no two of the first 35
        // series look alike.
        for i in 0..6 {
            assert_ne!(colour(i), colour(i + 1));
        }
        let look = |i: usize| {
            (
                colour(i),
                DASHES[i % DASHES.len()].to_vec(),
                format!("{:?}", MARKERS[i % MARKERS.len()]),
            )
        };
        for i in 0..35 {
            for j in i + 1..35 {
                assert_ne!(look(i), look(j), "series {i} and {j}");
                if colour(i) == colour(j) {
                    assert_ne!(
                        look(i).1,
                        look(j).1,
                        "series {i} and {j}: same colour and dash"
                    );
                }
            }
        }
    }
}
