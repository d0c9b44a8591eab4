//! `/api/play`: the best play of the profile the form edits, solved exactly (side A's charge
//! in an engagement): what good play is worth, whether a choice is dominant, the rule of thumb,
//! each way of playing valued, the states most often met and the map of the best choice, with
//! the command line that gives the same.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::engine::Control;
use crate::error::Error;
use crate::experiment::Experiment;
use crate::report::chart;

use super::Explorer;
use super::response::Failure;
use super::view::{View, shell};
use super::written::experiment_toml;

/// The rows of the best choice by state the page shows.
const ROWS: usize = 20;

/// The map's canvas on a phone: shown at its own size in a box that pans sideways, so its
/// 14-px text stays 14 px and each cell is wide enough for its turn (at 420 px, fitted to the
/// screen, most cells were too small to carry their turn: explorer trial 74); at 480 px or
/// less the other charts set the map's cells and axes at 8.5 px (explorer trial 63).
const PHONE: (u32, u32) = (760, 560);

impl Explorer {
    /// `/api/play`: the view's edited profile's best play.
    pub(super) fn play(&self, pairs: &[(String, String)]) -> std::result::Result<Value, Failure> {
        let v = View::parse(pairs, self.limits.max_trials).map_err(|e| Failure::of(&e, ""))?;
        if v.scenario != crate::Scenario::Engagement {
            return Err(Failure {
                status: 400,
                message: "best play is solved for side A's charge in an engagement: choose the engagement scenario".into(),
                field: Some("scenario".into()),
                line: None,
            });
        }
        let (settings, _holds) = self.variants(&v)?;
        let text = experiment_toml(&v, &settings, true);
        let mut read = |p: &str| -> crate::error::Result<String> {
            let edited = self.edited.lock().unwrap_or_else(|e| e.into_inner());
            self.read_now(p, Some(&edited.kept))
        };
        let exp = Experiment::parse_with("explorer.toml", &text, &mut read)
            .map_err(|e| Failure::of(&e, ""))?;
        let edit = &v.profiles[v.edit];
        let vi = settings
            .iter()
            .position(|s| s.profile.label == edit.label)
            .unwrap_or(0);
        let _slot = self.slot(true)?;
        let control = Arc::new(Control::new());
        let (solved, timed_out) = self.within_limit(&control, || exp.play_of(vi, &control));
        let solved = solved.map_err(|e| match e {
            Error::Cancelled if timed_out => Failure::busy(format!(
                "stopped after {} s, the server's limit for one run",
                self.limits.max_seconds
            )),
            e => Failure::of(&e, ""),
        })?;
        let title = match v.compared() {
            true => format!(
                "{}: side A\u{2019}s best choice in each state",
                edit.title()
            ),
            false => "Side A\u{2019}s best choice in each state".to_string(),
        };
        let map = solved.chart(&title);
        let draw = |size| {
            map.svg_sized(size).map_err(|e| {
                Failure::of(&Error::Conflict(format!("could not draw the map: {e}")), "")
            })
        };
        let svg = draw(chart::SIZE)?;
        // A phone pans the map sideways: drawn bare, its title, legend, x axis's name and note
        // given as text outside the panned picture (phone trial 76).
        let (narrow, legend, across, note) = match &map {
            chart::Chart::Choices(c) => {
                let bare = chart::Chart::Choices(chart::Choices {
                    bare: true,
                    ..c.clone()
                });
                let narrow = bare.svg_sized(PHONE).map_err(|e| {
                    Failure::of(&Error::Conflict(format!("could not draw the map: {e}")), "")
                })?;
                let legend: Vec<(String, String)> = c
                    .legend()
                    .into_iter()
                    .map(|(name, col)| (name, format!("#{:02x}{:02x}{:02x}", col.0, col.1, col.2)))
                    .collect();
                (narrow, legend, c.x.0.clone(), c.note.clone())
            }
            _ => (draw(PHONE)?, Vec::new(), String::new(), String::new()),
        };
        let (states, met) = solved.states(ROWS, "points");
        let command = v
            .command(&edit.setting)
            .split(" --trials ")
            .next()
            .unwrap_or_default()
            .replacen("morale-lab engagement", "morale-lab play engagement", 1);
        Ok(json!({
            "label": edit.label.to_string(),
            "title": edit.title(),
            "answer": solved.answer_in("points"),
            // Each outcome's chance under the best play (the phone's strip shows the
            // headline's while best play is on show).
            "outcomes": solved.outcomes,
            "ways": solved.ways("points"),
            "states": states,
            "met": met,
            "note": solved.states_note("points", ROWS),
            "chart": {
                "name": "play",
                "title": title,
                "svg": svg,
                "narrow": narrow,
                "legend": legend,
                "across": across,
                "note": note,
            },
            "command": command,
            "chart_command": format!("{command} --chart {}", shell("best-play.png")),
        }))
    }
}
