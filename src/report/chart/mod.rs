//! Charts as PNG and SVG bytes, drawn with plotters, made to be printed: the legend beside the
//! plot (never over the data), every series told apart by a colour of the Okabe–Ito palette
//! (safe for colour-blind readers), a marker shape and a dash pattern, each outcome one colour in
//! every chart, intervals drawn (whiskers with caps on bars, bands around lines, and a caption
//! when they are narrower than the marks), per-turn charts as steps, heat maps with a colour bar.
//! DejaVu Sans is embedded (the `dejavu` crate): PNG text is set with it, and SVG text stays
//! `<text>` (editable in a layout program) with the letters it uses embedded as an
//! `@font-face`, so both formats look the same on a machine with no fonts installed.
//!
//! One file per kind of chart (`bars`, `stacked`, `lines`, `heat`, `tradeoff`, `tornado`,
//! `choices`), each
//! drawn on the frame they share (`frame`: title, legend, caption, axes, text and marks); a new
//! kind is a variant of [`Chart`], a file with its `draw`, and an arm in [`draw`].

use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;

mod bars;
mod choices;
mod frame;
mod heat;
mod lines;
mod stacked;
mod tornado;
mod tradeoff;

pub use bars::Bars;
pub use choices::Choices;
use frame::{FONT, Scale};
pub use lines::Lines;
pub use tradeoff::Tradeoff;

/// Chart size in pixels at scale 1: the width, and the height a chart is laid out for (the
/// canvas ends where the drawing does: taller with a long title, legend or caption, shorter
/// with none, so that no blank strip is printed under it).
pub const SIZE: (u32, u32) = (960, 540);

/// A canvas for a phone's width (about 390 px): the text stays near its size on screen.
pub const NARROW: (u32, u32) = (480, 440);

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

/// Colour words a series' name may carry ("Green" troops), each with its place in the palette.
const COLOUR_WORDS: [(&str, usize); 6] = [
    ("blue", 0),
    ("red", 1),
    ("green", 2),
    ("orange", 3),
    ("black", 6),
    ("yellow", 7),
];

/// The palette place a name's colour word asks for: "Green" drawn in green.
fn colour_word(name: &str) -> Option<usize> {
    name.split(|c: char| !c.is_alphanumeric()).find_map(|w| {
        COLOUR_WORDS
            .iter()
            .find(|(word, _)| w.eq_ignore_ascii_case(word))
            .map(|&(_, at)| at)
    })
}

/// The colours of series named `names`, in order. A series whose name carries a colour word
/// ("Green") is drawn in that colour, and no other series takes it, so that "Regular" is
/// never the green line beside "Green"; the rest take the palette in order. Without colour
/// words this is [`colour`] by place.
pub fn series_colours<S: AsRef<str>>(names: &[S]) -> Vec<RGBColor> {
    let mut taken = [false; PALETTE.len()];
    let claims: Vec<Option<usize>> = names
        .iter()
        .map(|n| {
            let at = colour_word(n.as_ref())?;
            (!std::mem::replace(&mut taken[at], true)).then_some(at)
        })
        .collect();
    let free: Vec<usize> = (0..PALETTE.len()).filter(|&c| !taken[c]).collect();
    let mut next = 0;
    claims
        .into_iter()
        .map(|claim| {
            PALETTE[claim.unwrap_or_else(|| {
                next += 1;
                free[(next - 1) % free.len()]
            })]
        })
        .collect()
}

/// The colour of an outcome or state, the same in every chart and system: in action (good, in
/// line, and a rally's end there, recovered) green, shaken (unsteady, retreating, falling back)
/// orange, routing vermillion, gone (removed, eliminated) dark grey; others by their place `i`.
pub fn outcome_colour(name: &str, i: usize) -> RGBColor {
    match name {
        "good" | "recovered" | "rallied" | "in_line" | "holds" | "passed" | "pass" => PALETTE[2],
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
    Bars(Bars),
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
    Lines(Lines),
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
    Tradeoff(Tradeoff),
    /// The best choice by state: a cell per pair of the two sides' states, coloured by the
    /// choice best there.
    Choices(Choices),
}

type Area<DB> = DrawingArea<DB, Shift>;

/// Draw `chart` on `root` from the top down; returns the height the drawing needs (the canvas
/// is drawn a second time at that height, see [`Chart::svg_sized`]). Each kind of chart is
/// drawn in its own file, on the frame they share (`frame.rs`).
fn draw<DB: DrawingBackend>(chart: &Chart, root: &Area<DB>, s: Scale) -> Result<i32, String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let height = match chart {
        Chart::Bars(bars) => bars::draw(root, bars, s)?,
        Chart::Stacked {
            title,
            layers,
            shares,
        } => stacked::draw(root, title, layers, shares, s)?,
        Chart::Lines(lines) => lines::draw(root, lines, s)?,
        Chart::Heat {
            title,
            x,
            y,
            cells,
            range,
        } => heat::draw(root, title, x, y, cells, range, s)?,
        Chart::Tradeoff(tradeoff) => tradeoff::draw(root, tradeoff, s)?,
        Chart::Choices(choices) => choices::draw(root, choices, s)?,
        Chart::Tornado {
            title,
            x_label,
            share,
            rows,
        } => tornado::draw(root, title, x_label, share, rows, s)?,
    };
    root.present().map_err(e)?;
    Ok(height)
}

impl Chart {
    /// The chart's title.
    pub fn title(&self) -> &str {
        match self {
            Chart::Bars(Bars { title, .. })
            | Chart::Stacked { title, .. }
            | Chart::Lines(Lines { title, .. })
            | Chart::Heat { title, .. }
            | Chart::Tornado { title, .. }
            | Chart::Tradeoff(Tradeoff { title, .. })
            | Chart::Choices(Choices { title, .. }) => title,
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

    /// The chart as SVG for a report's page, whose own text gives the setup and the caption:
    /// drawn without them (shorter, so that it prints larger in the same room), with the
    /// caption's words returned beside it (empty where it has none). The files keep both.
    ///
    /// # Errors
    /// As [`Chart::svg`].
    pub fn svg_for_page(&self) -> Result<(String, String), String> {
        frame::PAGE_CAPTION.with(|sink| *sink.borrow_mut() = Some(String::new()));
        let svg = self.svg();
        let words = frame::PAGE_CAPTION.with(|sink| sink.borrow_mut().take());
        Ok((svg?, words.unwrap_or_default()))
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

#[cfg(test)]
mod tests {
    use super::frame::{DASHES, MARKERS};
    use super::lines::hidden_words;
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
        Chart::Bars(Bars {
            title: "Outcomes & more".into(),
            y_label: "chance".into(),
            level: "95%".into(),
            categories: vec!["pass".into(), "fail".into()],
            share: true,
            series: vec![("A".into(), vec![est(0.6), est(0.4)])],
            left_out: vec!["routed".into()],
        })
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
        let chart = |points| {
            Chart::Tradeoff(Tradeoff {
                title: "Trade-off".into(),
                x_label: "chance of eliminated".into(),
                y_label: "mean empty turns".into(),
                share: (true, false),
                better: (Some(false), Some(false)),
                level: "95%".into(),
                points,
                left_out: Vec::new(),
            })
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

    /// On a phone's narrow canvas the values written at a sweep's points never run into each
    /// other: a label that would is set below its point or left out (the table has it). The
    /// values are the Green base number's chances of recovering, 1 to 8, and a target line.
    #[test]
    fn values_at_points_never_overlap_on_a_narrow_chart() {
        let at = |v: f64| {
            Some(Estimate {
                p: v,
                low: v,
                high: v,
                exact: Some(v),
            })
        };
        let values = [0.9954, 0.9811, 0.9015, 0.7439, 0.5565, 0.428, 0.428, 0.428];
        let chart = Chart::Lines(Lines {
            title: "Recovered at each Green base number".into(),
            x_label: "Green base number".into(),
            x_values: (1..=8).map(|x| x.to_string()).collect(),
            y_label: "chance of recovering (%)".into(),
            level: "95%".into(),
            steps: false,
            share: true,
            series: vec![
                ("recovered".into(), values.iter().map(|&v| at(v)).collect()),
                ("target".into(), values.iter().map(|_| at(0.5)).collect()),
            ],
        });
        for size in [SIZE, NARROW] {
            let svg = chart.svg_sized(size).unwrap();
            let labels: Vec<Placed> = svg_texts(&svg)
                .into_iter()
                .filter(|t| t.content.ends_with('%') && !t.turned && t.left > 60.0)
                .filter(|t| t.content.contains('.'))
                .collect();
            assert!(labels.len() >= 5, "{size:?}: {labels:?}");
            for (i, a) in labels.iter().enumerate() {
                for b in &labels[i + 1..] {
                    let apart = a.right <= b.left
                        || b.right <= a.left
                        || (a.y - b.y).abs() >= a.size.max(b.size);
                    assert!(apart, "{size:?}: {a:?} runs into {b:?}");
                }
            }
        }
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
        let chart = Chart::Lines(Lines {
            title: "Many series".into(),
            x_label: "base green".into(),
            x_values: (1..=6).map(|x| x.to_string()).collect(),
            y_label: "chance".into(),
            level: "95%".into(),
            steps: false,
            share: true,
            series,
        });
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
        let series = |steps: bool| {
            Chart::Lines(Lines {
                title: "Meet".into(),
                x_label: "base green".into(),
                x_values: (3..=6).map(|x| x.to_string()).collect(),
                y_label: "chance".into(),
                level: "95%".into(),
                steps,
                share: true,
                series: vec![
                    (
                        "Regular".into(),
                        vec![exact(0.9), exact(0.8), exact(0.7), exact(0.6)],
                    ),
                    (
                        "Green".into(),
                        vec![exact(0.9), exact(0.74), exact(0.56), exact(0.43)],
                    ),
                ],
            })
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

    /// A series the same at every setting of a sweep is a level, drawn without marks and said
    /// so; where another line meets it, no mark covers another, so nothing is said of that.
    #[test]
    fn a_series_the_same_at_every_setting_is_a_line_without_marks() {
        let exact = |e: f64| {
            Some(Estimate {
                p: e,
                low: e,
                high: e,
                exact: Some(e),
            })
        };
        let chart = Chart::Lines(Lines {
            title: "Level".into(),
            x_label: "base green".into(),
            x_values: (3..=6).map(|x| x.to_string()).collect(),
            y_label: "chance".into(),
            level: "95%".into(),
            steps: false,
            share: true,
            series: vec![
                ("Regular".into(), vec![exact(0.9); 4]),
                (
                    "Green".into(),
                    vec![exact(0.9), exact(0.74), exact(0.56), exact(0.43)],
                ),
            ],
        });
        let texts: String = svg_texts(&chart.svg().unwrap())
            .into_iter()
            .map(|t| t.content)
            .collect::<Vec<String>>()
            .join(" ");
        assert!(
            texts.contains(
                "Regular does not change with the base green: a flat line without marks."
            ) && !texts.contains("Where lines meet"),
            "{texts}"
        );
    }

    #[test]
    fn a_series_named_for_a_colour_is_drawn_in_it_and_no_other_takes_it() {
        let plain = ["Regular with a +1 leader", "Guards", "Line", "Militia"];
        assert_eq!(
            series_colours(&plain),
            (0..4).map(colour).collect::<Vec<_>>(),
            "without colour words, colours go by place"
        );
        let c = series_colours(&[
            "Regular with a +1 leader",
            "Green",
            "Regular without a leader",
        ]);
        assert_eq!(c[1], PALETTE[2], "Green is green");
        assert_eq!(c[0], PALETTE[0]);
        assert_ne!(c[2], PALETTE[2], "Regular is not the green line");
        assert_ne!(c[2], c[0]);
        // "Greenish" is not the word; two Greens: the first takes green, the second another.
        let c = series_colours(&["Greenish", "Green", "Green, +1 leader"]);
        assert_eq!(c[1], PALETTE[2]);
        assert_ne!(c[0], PALETTE[2]);
        assert_ne!(c[2], PALETTE[2]);
        assert_ne!(c[0], c[2]);
        // Many series: every colour but green is used before any comes round again.
        let names: Vec<String> = (0..9)
            .map(|i| {
                if i == 4 {
                    "Green".into()
                } else {
                    format!("v{i}")
                }
            })
            .collect();
        let c = series_colours(&names);
        assert_eq!(c[4], PALETTE[2]);
        let others: Vec<_> = c
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != 4)
            .map(|x| *x.1)
            .collect();
        assert!(others[..7].iter().all(|x| *x != PALETTE[2]));
        assert_eq!(others[0], others[7], "colours come round again after seven");
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
