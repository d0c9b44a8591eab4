//! The share of trials in each state, turn by turn, stacked as steps, each state in its
//! outcome's colour, the legend on the right top layer first.
use plotters::prelude::*;

use super::frame::*;
use super::{Area, outcome_colour};

/// Draw the stacked states on `root` (`shares[t][layer]`, turn t + 1); returns the height the
/// drawing needs.
pub(super) fn draw<DB: DrawingBackend>(
    root: &Area<DB>,
    title: &str,
    layers: &[String],
    shares: &[Vec<f64>],
    s: Scale,
) -> Result<i32, String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
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
    let mut c = axes(
        &f.plot,
        8.0,
        y_area("chance of each state", s),
        0.5f64..turns as f64 + 0.5,
        0f64..1.0,
        s,
    )?;
    mesh(&mut c, s, false)
        .disable_mesh()
        .x_labels(0)
        .y_label_formatter(&|v| format!("{:.0}%", 100.0 * v))
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
    caption(root, f.caption_top, f.setup.as_deref(), "", s)
}
