//! The frame every chart shares: sizes at a scale, text set and wrapped as both formats set
//! it, the title, the legend (beside or under the plot), the caption, the axes' ticks and
//! descriptions, markers and dashes, and the plot's coordinates and grid, set up once.

use std::ops::Range;

use plotters::chart::MeshStyle;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Area, series_colours};

pub(super) const FONT: &str = "sans-serif";

/// Marker shapes, one per series in turn.
#[derive(Debug, Clone, Copy)]
pub(super) enum Marker {
    Circle,
    Square,
    Up,
    Diamond,
    Down,
    Cross,
    Plus,
}

pub(super) const MARKERS: [Marker; 7] = [
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
pub(super) const DASHES: [&[f64]; 5] = [
    &[],
    &[10.0, 5.0],
    &[2.5, 4.0],
    &[12.0, 4.0, 2.5, 4.0],
    &[22.0, 6.0],
];

/// Sizes at a scale: `k` × the size at scale 1.
#[derive(Clone, Copy)]
pub(super) struct Scale(pub(super) f64);

/// Text sizes in pixels to the em at scale 1. A chart is drawn 960 px wide; printed 16 cm
/// wide, 19 px is 9 pt (960 px to 453.5 pt), the least any text here is set at.
pub(super) const TEXT: f64 = 19.0;
/// The title's size.
pub(super) const TITLE: f64 = 22.0;
/// The drawing library's text size is 1.24 × the em (what its SVG backend writes as
/// `font-size` is the size ÷ 1.24).
pub(super) const SIZE_PER_EM: f64 = 1.24;
/// A sweep line's marks against the base marker (radius 5 px): 7.5 px, a mark 15 px across,
/// 2.5 mm on a chart printed 16 cm wide, large enough to find a point by eye (turn-by-turn
/// steps keep the base size: their lines run close and their marks would cover each other).
pub(super) const LINE_MARK: f64 = 1.5;

/// The plot's height with its axes, at scale 1 (the canvas grows with the title, the legend
/// and the caption).
pub(super) const PLOT_H: f64 = 430.0;

impl Scale {
    pub(super) fn px(self, v: f64) -> i32 {
        (v * self.0).round() as i32
    }
    /// A size in pixels to the em at this scale.
    pub(super) fn em(self, size: f64) -> f64 {
        size * self.0
    }
    /// A line's height for text of `size` (at scale 1).
    pub(super) fn line(self, size: f64) -> i32 {
        self.px(size * 1.3)
    }
    pub(super) fn font(self, size: f64) -> FontDesc<'static> {
        (FONT, size * SIZE_PER_EM * self.0).into_font()
    }
    pub(super) fn text(self, size: f64, colour: RGBColor) -> TextStyle<'static> {
        TextStyle {
            font: self.font(size),
            color: colour.to_backend_color(),
            pos: Pos::default(),
        }
    }
}

pub(super) fn anchored(style: TextStyle<'static>, h: HPos, v: VPos) -> TextStyle<'static> {
    style.pos(Pos::new(h, v))
}

/// The width in pixels of `text` at `em` pixels to the em, as both formats set it.
pub(super) fn text_w(text: &str, em: f64) -> i32 {
    super::super::svgtext::width(text, em as f32).ceil() as i32
}

/// Split `text` into lines of at most `width` pixels at `em` pixels to the em, each line as
/// full as it can be (a word longer than the width has a line of its own).
pub(super) fn wrap(text: &str, em: f64, width: i32) -> Vec<String> {
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
pub(super) fn balanced(text: &str, em: f64, width: i32) -> Vec<String> {
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

/// A title in at most two balanced lines at `em`: its question (the part before " — "), the
/// setup after it returned for the caption, so that a chart printed under the report's own
/// setup does not say it again in large type; a question too long for two lines is cut at a
/// word, with an ellipsis.
pub(super) fn title_lines(title: &str, em: f64, width: i32) -> (Vec<String>, Option<String>) {
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
pub(super) fn dashed<DB: DrawingBackend>(
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
pub(super) fn marker<DB: DrawingBackend>(
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
pub(super) enum Key {
    /// A filled swatch (bars and areas).
    Swatch(RGBColor),
    /// A swatch with series `i`'s marker on it (bars).
    Bar(usize, RGBColor),
    /// Series `i`'s marker alone (points).
    Point(usize, RGBColor),
    /// Series `i`'s dash and marker (lines over a sweep: marks at [`LINE_MARK`]).
    Line(usize, RGBColor),
    /// Series `i`'s dash and a smaller marker (steps over turns, where the marks of lines a
    /// little apart would cover each other).
    Step(usize, RGBColor),
    /// Series `i`'s dash alone (a line without marks: a level the same at every setting).
    Level(usize, RGBColor),
}

/// Where a chart's legend goes.
pub(super) enum Place<'a> {
    /// No legend (a colour bar of `0` pixels' width at scale 1 may take the right).
    None(f64),
    /// A column on the right (short names).
    Right(&'a [(String, Key)]),
    /// Rows under the plot, across the whole width.
    Below(&'a [(String, Key)]),
}

/// A chart's areas: the plot, the legend's column on the right (if any), where the caption
/// starts (pixels from the top) and the setup a long title gave up, for the caption.
pub(super) struct Frame<DB: DrawingBackend> {
    pub(super) plot: Area<DB>,
    pub(super) legend: Option<Area<DB>>,
    pub(super) caption_top: i32,
    pub(super) setup: Option<String>,
    /// The canvas under the plot.
    pub(super) below: Area<DB>,
}

/// The legend's key's width at scale 1, and the gap before its name.
pub(super) const KEY_W: f64 = 46.0;

/// The frame of every chart, laid out from the top down: the title (at most two lines), the
/// plot of `plot_h` pixels at scale 1 (with the legend's column on its right, or a colour bar's
/// room), the legend's rows under it, then the caption. The canvas's height follows (see
/// [`draw`]).
pub(super) fn frame<DB: DrawingBackend>(
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
    // The room under the plot, for a legend drawn once the plot is (see the trade-off).
    let under = s.px(18.0) + lines.len() as i32 * s.line(TITLE) + s.px(plot_h);
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
        below: root.split_vertically(under).1,
    })
}

/// Draw a legend entry's key, its middle at (`x0`, `mid`).
pub(super) fn draw_key<DB: DrawingBackend>(
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
        Key::Line(i, col) | Key::Step(i, col) => {
            dashed(
                area,
                &[(kx(2.0), mid), (kx(42.0), mid)],
                DASHES[i % DASHES.len()],
                col.stroke_width(s.px(2.5).max(1) as u32),
                s,
            )?;
            let mark = match key {
                Key::Line(..) => LINE_MARK,
                _ => 1.0,
            };
            marker(area, (kx(22.0), mid), i, col, Scale(s.0 * mark))
        }
        Key::Level(i, col) => dashed(
            area,
            &[(kx(2.0), mid), (kx(42.0), mid)],
            DASHES[i % DASHES.len()],
            col.stroke_width(s.px(2.5).max(1) as u32),
            s,
        ),
        // As large as the points it names (see the trade-off's points).
        Key::Point(i, col) => marker(area, (kx(22.0), mid), i, col, Scale(s.0 * 1.6)),
    }
}

/// The legend under the plot: entries in rows, in as many columns (up to four) as keep every
/// name to two lines, read across; each name balanced in its column. Returns the height used.
pub(super) fn legend_below<DB: DrawingBackend>(
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
pub(super) fn legend<DB: DrawingBackend>(
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
pub(super) fn series_entries(
    names: &[String],
    key: fn(usize, RGBColor) -> Key,
) -> Vec<(String, Key)> {
    names
        .iter()
        .zip(series_colours(names))
        .enumerate()
        .map(|(i, (n, col))| (n.clone(), key(i, col)))
        .collect()
}

/// Words in a series' colour `col`, dark enough to read on white: the colour itself where its
/// contrast with white is already 4.5:1 (the WCAG bar for text), else the same hue darkened
/// until it is. Okabe–Ito's orange, pink and sky blue are marks' colours, too pale for a name
/// printed beside a point (trial 46).
pub(super) fn text_ink(col: RGBColor) -> RGBColor {
    let lin = |c: f64| {
        let c = c / 255.0;
        if c <= 0.03928 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let contrast = |c: RGBColor| {
        let l = 0.2126 * lin(c.0 as f64) + 0.7152 * lin(c.1 as f64) + 0.0722 * lin(c.2 as f64);
        1.05 / (l + 0.05)
    };
    let mut k = 1.0;
    let mut out = col;
    while contrast(out) < 4.5 && k > 0.0 {
        k -= 0.05;
        let f = |v: u8| (v as f64 * k).round() as u8;
        out = RGBColor(f(col.0), f(col.1), f(col.2));
    }
    out
}

/// The marker colour on a bar of colour `col`: white, or black on the lightest bars.
pub(super) fn ink_on(col: RGBColor) -> RGBColor {
    let lum = 0.299 * col.0 as f64 + 0.587 * col.1 as f64 + 0.114 * col.2 as f64;
    if lum > 150.0 { BLACK } else { WHITE }
}
thread_local! {
    /// While a chart is drawn for a report's page ([`super::Chart::svg_for_page`]): its
    /// caption's words, kept out of the drawing (the page prints them as text, which a reader
    /// can read at the page's size: on paper, drawn text shrinks with the chart).
    pub(super) static PAGE_CAPTION: std::cell::RefCell<Option<String>> =
        const { std::cell::RefCell::new(None) };
}

/// The caption under the plot, from `top` (pixels): the setup a long title gave up, then
/// `text`, each balanced in as many lines as it takes. Returns the canvas's height it needs.
pub(super) fn caption<DB: DrawingBackend>(
    root: &Area<DB>,
    top: i32,
    setup: Option<&str>,
    text: &str,
    s: Scale,
) -> Result<i32, String> {
    // Drawn for a page that sets the caption as its own text: the words go there, and the
    // setup, which the page says above, nowhere.
    let taken = PAGE_CAPTION.with(|sink| match sink.borrow_mut().as_mut() {
        Some(words) => {
            *words = text.trim().to_string();
            true
        }
        None => false,
    });
    if taken {
        return Ok(top + s.px(14.0));
    }
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
pub(super) fn x_axis<DB: DrawingBackend>(
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
pub(super) fn y_desc_lines(desc: &str, s: Scale) -> Vec<String> {
    balanced(desc, s.em(TEXT), s.px(PLOT_H - 110.0))
}

/// The room the y axis takes beside the plot: its values and its description's lines.
pub(super) fn y_area(desc: &str, s: Scale) -> i32 {
    s.px(72.0) + y_desc_lines(desc, s).len() as i32 * s.line(TEXT)
}

/// The y axis's description, turned, centred on the plot's height at the left of `plot`.
pub(super) fn y_desc<DB: DrawingBackend>(
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

/// A tick's number on an axis spanning `span`, every tick with the same decimals, as many as
/// the ticks' step needs ("3.0", "3.2", … not "3" beside "3.2"; "2", "4" on a whole-number
/// axis), at most two.
pub(super) fn tick(v: f64, span: f64) -> String {
    // The library puts about six ticks at steps of 1, 2 or 5 times a power of ten.
    let step = (span.abs() / 6.0).max(1e-9);
    let decimals = (-step.log10().floor()).clamp(0.0, 2.0) as usize;
    let t = format!("{v:.decimals$}");
    match t
        .trim_start_matches('-')
        .trim_matches(|c| c == '0' || c == '.')
    {
        "" => format!("{:.decimals$}", 0.0),
        _ => t.replacen('-', "\u{2212}", 1),
    }
}

/// A value written on a chart as the report's tables give it: a chance in per cent to two
/// decimals ([`crate::labels::percent`]), a mean to two decimals with a true minus.
pub(super) fn value_text(v: f64, chance: bool) -> String {
    match chance {
        true => crate::labels::percent(v),
        false => format!("{v:.2}").replacen('-', "\u{2212}", 1),
    }
}

/// A chart's plot: pixel coordinates over two ranges of numbers.
pub(super) type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The plot's coordinates on `plot`: `margin` pixels at scale 1 all round, the x axis's room
/// for its names and description under it, `y_room` pixels for the y axis's beside it.
pub(super) fn axes<'a, DB: DrawingBackend>(
    plot: &'a Area<DB>,
    margin: f64,
    y_room: i32,
    x: Range<f64>,
    y: Range<f64>,
    s: Scale,
) -> Result<Plot<'a, DB>, String> {
    axes_with(plot, margin, s.px(66.0), y_room, x, y, s)
}

/// [`axes`] with `x_room` pixels under the plot for the x axis's names and description (more
/// where the names stand on end).
pub(super) fn axes_with<'a, DB: DrawingBackend>(
    plot: &'a Area<DB>,
    margin: f64,
    x_room: i32,
    y_room: i32,
    x: Range<f64>,
    y: Range<f64>,
    s: Scale,
) -> Result<Plot<'a, DB>, String> {
    ChartBuilder::on(plot)
        .margin(s.px(margin))
        .x_label_area_size(x_room)
        .y_label_area_size(y_room)
        .build_cartesian_2d(x, y)
        .map_err(|x| x.to_string())
}

/// The mesh of `c` with every chart's text: names and descriptions at the body's size; with
/// `grid`, light grey lines at the labelled values only.
pub(super) fn mesh<'a, 'b, DB: DrawingBackend>(
    c: &'b mut Plot<'a, DB>,
    s: Scale,
    grid: bool,
) -> MeshStyle<'a, 'b, RangedCoordf64, RangedCoordf64, DB> {
    let mut m = c.configure_mesh();
    m.label_style(s.font(TEXT)).axis_desc_style(s.font(TEXT));
    if grid {
        m.light_line_style(WHITE.mix(0.0))
            .bold_line_style(RGBColor(225, 225, 225));
    }
    m
}
