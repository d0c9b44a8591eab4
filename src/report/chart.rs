//! Charts as PNG and SVG bytes, drawn with plotters. The DejaVu Sans font is embedded (the
//! `dejavu` crate), so text renders on a machine with no fonts installed.

use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;

/// Chart size in pixels.
pub const SIZE: (u32, u32) = (960, 540);

const FONT: &str = "sans-serif";

/// Colours of series, in order.
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// The colour of series `i`.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular())
            .map_err(|_| ())
            .expect("DejaVu Sans is a valid font");
    });
}

/// A chart drawn onto any plotters backend.
pub type Draw<'a> = dyn Fn(&DrawingArea<BitMapBackend, Shift>) -> Result<(), String> + 'a;

/// An estimate with its interval, for a bar or a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The estimate.
    pub p: f64,
    /// Lower end of its interval.
    pub low: f64,
    /// Upper end of its interval.
    pub high: f64,
}

/// A chart's content, independent of the output format.
#[derive(Debug, Clone, PartialEq)]
pub enum Chart {
    /// Grouped bars with interval whiskers: categories × series.
    Bars {
        /// Title.
        title: String,
        /// Category labels (x axis).
        categories: Vec<String>,
        /// Series: name and one estimate per category (`None`: not applicable).
        series: Vec<(String, Vec<Option<Estimate>>)>,
    },
    /// Stacked areas of shares by turn.
    Stacked {
        /// Title.
        title: String,
        /// Layer names, bottom first.
        layers: Vec<String>,
        /// Shares by turn: `shares[t][layer]`, turn t + 1.
        shares: Vec<Vec<f64>>,
    },
    /// Lines with interval whiskers over a swept parameter.
    Lines {
        /// Title.
        title: String,
        /// The swept parameter.
        x_label: String,
        /// Its values (labels on the x axis).
        x_values: Vec<String>,
        /// The y axis label.
        y_label: String,
        /// Series: name and one estimate per x value.
        series: Vec<(String, Vec<Option<Estimate>>)>,
    },
    /// A heat-map of probabilities over two swept parameters.
    Heat {
        /// Title.
        title: String,
        /// x axis name and labels.
        x: (String, Vec<String>),
        /// y axis name and labels.
        y: (String, Vec<String>),
        /// `cells[y][x]`.
        cells: Vec<Vec<f64>>,
    },
}

fn draw<DB: DrawingBackend>(chart: &Chart, root: &DrawingArea<DB, Shift>) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let label = (FONT, 16).into_font();
    match chart {
        Chart::Bars {
            title,
            categories,
            series,
        } => {
            let n = categories.len().max(1);
            let mut c = ChartBuilder::on(root)
                .caption(title, (FONT, 22))
                .margin(16)
                .x_label_area_size(40)
                .y_label_area_size(56)
                .build_cartesian_2d(0f64..n as f64, 0f64..1.0)
                .map_err(e)?;
            c.configure_mesh()
                .disable_x_mesh()
                .x_labels(0)
                .y_desc("probability")
                .label_style(label.clone())
                .draw()
                .map_err(e)?;
            let k = series.len().max(1) as f64;
            let width = 0.8 / k;
            for (si, (name, values)) in series.iter().enumerate() {
                let col = colour(si);
                let bars = values.iter().enumerate().filter_map(|(ci, v)| {
                    v.map(|v| {
                        let x0 = ci as f64 + 0.1 + si as f64 * width;
                        Rectangle::new([(x0, 0.0), (x0 + width * 0.9, v.p)], col.filled())
                    })
                });
                c.draw_series(bars)
                    .map_err(e)?
                    .label(name.clone())
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 6), (x + 12, y + 6)], col.filled())
                    });
                let whiskers = values.iter().enumerate().filter_map(|(ci, v)| {
                    v.map(|v| {
                        let xm = ci as f64 + 0.1 + si as f64 * width + width * 0.45;
                        PathElement::new(vec![(xm, v.low), (xm, v.high)], BLACK.stroke_width(2))
                    })
                });
                c.draw_series(whiskers).map_err(e)?;
            }
            for (ci, name) in categories.iter().enumerate() {
                let (px, py) = c.backend_coord(&(ci as f64 + 0.5, 0.0));
                root.draw(&Text::new(name.clone(), (px, py + 8), centred(16)))
                    .map_err(e)?;
            }
            c.configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(label)
                .draw()
                .map_err(e)?;
        }
        Chart::Stacked {
            title,
            layers,
            shares,
        } => {
            let turns = shares.len().max(1);
            let mut c = ChartBuilder::on(root)
                .caption(title, (FONT, 22))
                .margin(16)
                .x_label_area_size(40)
                .y_label_area_size(56)
                .build_cartesian_2d(1f64..turns as f64, 0f64..1.0)
                .map_err(e)?;
            c.configure_mesh()
                .x_labels(turns.min(24))
                .x_label_formatter(&|x| {
                    if (x - x.round()).abs() < 1e-6 {
                        format!("{}", x.round() as i64)
                    } else {
                        String::new()
                    }
                })
                .x_desc("turn")
                .y_desc("share of trials")
                .label_style(label.clone())
                .draw()
                .map_err(e)?;
            // Draw the cumulative tops from the top layer down, each filling to zero.
            for li in (0..layers.len()).rev() {
                let col = colour(li);
                let top: Vec<(f64, f64)> = shares
                    .iter()
                    .enumerate()
                    .map(|(t, s)| ((t + 1) as f64, s[..=li].iter().sum::<f64>().min(1.0)))
                    .collect();
                c.draw_series(AreaSeries::new(top, 0.0, col.mix(0.85).filled()))
                    .map_err(e)?
                    .label(layers[li].clone())
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 6), (x + 12, y + 6)], col.filled())
                    });
            }
            c.configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(label)
                .draw()
                .map_err(e)?;
        }
        Chart::Lines {
            title,
            x_label,
            x_values,
            y_label,
            series,
        } => {
            let n = x_values.len().max(1);
            let top = series
                .iter()
                .flat_map(|s| s.1.iter().flatten().map(|v| v.high))
                .fold(0.0f64, f64::max);
            let y_max = if top <= 1.0 { 1.0 } else { top * 1.1 };
            let mut c = ChartBuilder::on(root)
                .caption(title, (FONT, 22))
                .margin(16)
                .x_label_area_size(40)
                .y_label_area_size(56)
                .build_cartesian_2d(-0.5f64..n as f64 - 0.5, 0f64..y_max)
                .map_err(e)?;
            c.configure_mesh()
                .x_labels(0)
                .x_desc(x_label.as_str())
                .y_desc(y_label.as_str())
                .label_style(label.clone())
                .draw()
                .map_err(e)?;
            for (si, (name, values)) in series.iter().enumerate() {
                let col = colour(si);
                let pts: Vec<(f64, f64)> = values
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| v.map(|v| (i as f64, v.p)))
                    .collect();
                c.draw_series(LineSeries::new(pts.clone(), col.stroke_width(3)))
                    .map_err(e)?
                    .label(name.clone())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], col.stroke_width(3))
                    });
                c.draw_series(pts.iter().map(|&p| Circle::new(p, 4, col.filled())))
                    .map_err(e)?;
                let whiskers = values.iter().enumerate().filter_map(|(i, v)| {
                    v.map(|v| {
                        PathElement::new(
                            vec![(i as f64, v.low), (i as f64, v.high)],
                            col.stroke_width(2),
                        )
                    })
                });
                c.draw_series(whiskers).map_err(e)?;
            }
            for (i, name) in x_values.iter().enumerate() {
                let (px, py) = c.backend_coord(&(i as f64, 0.0));
                root.draw(&Text::new(name.clone(), (px, py + 8), centred(16)))
                    .map_err(e)?;
            }
            c.configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(label)
                .draw()
                .map_err(e)?;
        }
        Chart::Heat { title, x, y, cells } => {
            let (nx, ny) = (x.1.len().max(1), y.1.len().max(1));
            let mut c = ChartBuilder::on(root)
                .caption(title, (FONT, 22))
                .margin(16)
                .x_label_area_size(40)
                .y_label_area_size(90)
                .build_cartesian_2d(0f64..nx as f64, 0f64..ny as f64)
                .map_err(e)?;
            c.configure_mesh()
                .disable_mesh()
                .x_labels(nx * 2 + 1)
                .y_labels(ny * 2 + 1)
                .x_label_formatter(&|v| cell_label(*v, &x.1))
                .y_label_formatter(&|v| cell_label(*v, &y.1))
                .x_desc(x.0.as_str())
                .y_desc(y.0.as_str())
                .label_style(label.clone())
                .draw()
                .map_err(e)?;
            for (yi, row) in cells.iter().enumerate() {
                for (xi, &p) in row.iter().enumerate() {
                    // White (0) to deep blue (1).
                    let t = p.clamp(0.0, 1.0);
                    let col = RGBColor(
                        (255.0 - 224.0 * t) as u8,
                        (255.0 - 136.0 * t) as u8,
                        (255.0 - 75.0 * t) as u8,
                    );
                    let (x0, y0) = (xi as f64, yi as f64);
                    c.draw_series(std::iter::once(Rectangle::new(
                        [(x0, y0), (x0 + 1.0, y0 + 1.0)],
                        col.filled(),
                    )))
                    .map_err(e)?;
                    let text_col = if t > 0.55 { WHITE } else { BLACK };
                    c.draw_series(std::iter::once(Text::new(
                        format!("{:.1}%", 100.0 * p),
                        (x0 + 0.38, y0 + 0.55),
                        (FONT, 16).into_font().color(&text_col),
                    )))
                    .map_err(e)?;
                }
            }
        }
    }
    root.present().map_err(e)
}

/// A font anchored at the centre of its top edge, for axis labels.
fn centred(size: u32) -> TextStyle<'static> {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    TextStyle::from((FONT, size).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top))
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
            | Chart::Heat { title, .. } => title,
        }
    }

    /// The chart as an SVG document.
    ///
    /// # Errors
    /// A message from the drawing library (never expected).
    pub fn svg(&self) -> Result<String, String> {
        register_font();
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
            draw(self, &root)?;
        }
        Ok(out)
    }

    /// The chart as PNG bytes.
    ///
    /// # Errors
    /// A message from the drawing library or the PNG encoder (never expected).
    pub fn png(&self) -> Result<Vec<u8>, String> {
        register_font();
        let (w, h) = SIZE;
        let mut rgb = vec![0u8; (w * h * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
            draw(self, &root)?;
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
    use super::*;

    #[test]
    fn renders_text_and_bars_without_system_fonts() {
        let chart = Chart::Bars {
            title: "Outcomes".into(),
            categories: vec!["pass".into(), "fail".into()],
            series: vec![(
                "A".into(),
                vec![
                    Some(Estimate {
                        p: 0.6,
                        low: 0.55,
                        high: 0.65,
                    }),
                    Some(Estimate {
                        p: 0.4,
                        low: 0.35,
                        high: 0.45,
                    }),
                ],
            )],
        };
        let svg = chart.svg().unwrap();
        assert!(svg.contains("<svg") && svg.contains("Outcomes"));
        let png = chart.png().unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
}
