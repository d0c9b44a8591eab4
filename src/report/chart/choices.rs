//! The best choice by state: a cell per pair of the two sides' states, coloured by the choice
//! that is best there (or by the choice it starts with, where the best choice changes as the
//! turn limit nears), named in the cell, with a legend of the colours under the plot.
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::Area;
use super::frame::*;

/// A map of the best choice by state.
#[derive(Debug, Clone, PartialEq)]
pub struct Choices {
    /// Title.
    pub title: String,
    /// The x axis's name and its states, left to right.
    pub x: (String, Vec<String>),
    /// The y axis's name and its states, top to bottom.
    pub y: (String, Vec<String>),
    /// `cells[y][x]`: the kind of the cell (an index into `kinds`) and the words in it;
    /// `None` where there is no choice to show (a state not met, or one where the choices are
    /// worth the same).
    pub cells: Vec<Vec<Option<(usize, String)>>>,
    /// The kinds of cell, named in the legend, each with its colour.
    pub kinds: Vec<(String, RGBColor)>,
    /// Under the plot: what the cells mean.
    pub note: String,
    /// Drawn without its title, legend, x axis's name and note, which a phone gives as text
    /// beside the map it pans (inside the panned picture they were cut off at the screen's
    /// edge, phone trial 76); see [`Choices::legend`].
    pub bare: bool,
}

impl Choices {
    /// The kinds some cell shows, by name and colour, in the legend's order: a colour in the
    /// legend that no cell has sends a reader looking for it (writer trial 66: "charge" where
    /// side A never charges from the start).
    pub fn legend(&self) -> Vec<(String, RGBColor)> {
        let shown = |k: usize| {
            self.cells
                .iter()
                .flatten()
                .flatten()
                .any(|(kind, _)| *kind == k)
        };
        self.kinds
            .iter()
            .enumerate()
            .filter(|(k, _)| shown(*k))
            .map(|(_, kind)| kind.clone())
            .collect()
    }
}

/// The height of a row of cells at scale 1 (two lines of the body's text fit it).
const ROW_H: f64 = 40.0;

/// Draw the map on `root`; returns the height the drawing needs.
pub(super) fn draw<DB: DrawingBackend>(
    root: &Area<DB>,
    c: &Choices,
    s: Scale,
) -> Result<i32, String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let entries: Vec<(String, Key)> = match c.bare {
        true => Vec::new(),
        false => c
            .legend()
            .into_iter()
            .map(|(name, col)| (name, Key::Swatch(col)))
            .collect(),
    };
    let (title, x_name, note) = match c.bare {
        true => ("", "", ""),
        false => (c.title.as_str(), c.x.0.as_str(), c.note.as_str()),
    };
    let (nx, ny) = (c.x.1.len().max(1), c.y.1.len().max(1));
    let widest = |names: &[String]| {
        names
            .iter()
            .map(|n| text_w(n, s.em(TEXT)))
            .max()
            .unwrap_or(0)
    };
    let y_area = widest(&c.y.1) + s.px(56.0);
    // The x axis's names stand on end where they are wider than a column (a side with a
    // dozen states and more: side by side they ran into one another).
    let width = root.dim_in_pixel().0 as i32;
    let column = (width - y_area - s.px(24.0)) / nx as i32;
    let x_widest = widest(&c.x.1);
    let on_end = x_widest > column - s.px(6.0);
    let x_room = match on_end {
        true => x_widest + s.px(52.0),
        false => s.px(66.0),
    };
    // The plot's height: a row of cells each, and the x axis's room under them.
    let plot_h = (ny as f64 * ROW_H + 30.0).max(134.0) + f64::from(x_room) / s.0;
    let f = frame(root, title, Place::Below(&entries), plot_h, s)?;
    let mut plot = axes_with(
        &f.plot,
        8.0,
        x_room,
        y_area,
        0f64..nx as f64,
        0f64..ny as f64,
        s,
    )?;
    // Row `i` (from the top) sits at y from `ny - 1 - i` to `ny - i`.
    let name_at = |v: f64, names: &[String], flip: bool| {
        let i = (v - 0.5).round();
        if (v - 0.5 - i).abs() > 1e-6 || i < 0.0 || i as usize >= names.len() {
            return String::new();
        }
        let i = i as usize;
        names[if flip { names.len() - 1 - i } else { i }].clone()
    };
    mesh(&mut plot, s, false)
        .disable_mesh()
        .x_labels(nx * 2 + 1)
        .y_labels(ny * 2 + 1)
        .x_label_formatter(&|v| match on_end {
            true => String::new(),
            false => name_at(*v, &c.x.1, false),
        })
        .y_label_formatter(&|v| name_at(*v, &c.y.1, true))
        .x_desc(x_name)
        .y_desc(c.y.0.as_str())
        .draw()
        .map_err(e)?;
    if on_end {
        for (xi, name) in c.x.1.iter().enumerate() {
            let (x, y) = plot.backend_coord(&(xi as f64 + 0.5, 0.0));
            root.draw(&Text::new(
                name.as_str(),
                (x, y + s.px(12.0)),
                anchored(s.text(TEXT, BLACK), HPos::Right, VPos::Center)
                    .transform(FontTransform::Rotate270),
            ))
            .map_err(e)?;
        }
    }
    for (yi, row) in c.cells.iter().enumerate() {
        for (xi, cell) in row.iter().enumerate() {
            let y0 = (ny - 1 - yi) as f64;
            let a = plot.backend_coord(&(xi as f64, y0 + 1.0));
            let b = plot.backend_coord(&(xi as f64 + 1.0, y0));
            let (fill, words) = match cell {
                Some((kind, words)) => (c.kinds[*kind].1, words.as_str()),
                None => (RGBColor(255, 255, 255), ""),
            };
            root.draw(&Rectangle::new([a, b], fill.filled()))
                .map_err(e)?;
            root.draw(&Rectangle::new(
                [a, b],
                RGBColor(255, 255, 255).stroke_width(s.px(2.0).max(1) as u32),
            ))
            .map_err(e)?;
            // The words, or as many of their last words as fit ("charge from 11", "from 11",
            // "11" on a phone's narrow canvas).
            let room = (b.0 - a.0).abs() - s.px(6.0);
            let all: Vec<&str> = words.split(' ').collect();
            let fits = (0..all.len())
                .map(|k| all[k..].join(" "))
                .find(|w| !w.is_empty() && text_w(w, s.em(TEXT)) <= room);
            if let Some(words) = fits {
                root.draw(&Text::new(
                    words,
                    ((a.0 + b.0) / 2, (a.1 + b.1) / 2),
                    anchored(s.text(TEXT, ink_on(fill)), HPos::Center, VPos::Center),
                ))
                .map_err(e)?;
            }
        }
    }
    caption(root, f.caption_top, f.setup.as_deref(), note, s)
}
