//! The sections of the analyses an experiment may ask for beside its variants: which rule
//! matters most (sensitivity), what value of a number makes it fair (balance) and how a
//! variant that plays its best plays (play).

use super::*;

/// A section per sensitivity analysis: every rule parameter moved a step each way, every
/// optional rule switched, and the change each makes to the headline.
pub(super) fn sensitivity_sections(result: &ExperimentResult) -> Vec<Section> {
    let mut sections = Vec::new();
    for (name, sens) in &result.sensitivity {
        let rows = sens.rows(true);
        let mut tab = Tab::new(
            &rows[0]
                .iter()
                .enumerate()
                .map(|(i, h)| (h.as_str(), i >= 5 && h != "chance?"))
                .collect::<Vec<_>>(),
        );
        tab.rows = rows[1..].to_vec();
        let mut intro = format!(
            "Every rule parameter moved one step each way from its value, every optional rule switched, and the change each makes to {}, as {}{}{}. {}",
            sens.headline_noun(),
            sens.show(sens.base.value),
            if name.is_empty() {
                String::new()
            } else {
                format!(" for {name}")
            },
            if sens.trials == 0 {
                ", every value exact".to_string()
            } else {
                format!(
                    ", by Monte Carlo ({} trials a setting, the experiment's seed; * an estimate)",
                    crate::report::thousands(sens.trials)
                )
            },
            sens.verdict()
        );
        intro += &format!(" {}", crate::experiment::sensitivity::SCALED);
        if let Some(l) = sens.unmoved_line() {
            intro += &format!(" {l}.");
        }
        for l in sens.refused_lines() {
            intro += &format!(" {}.", l.trim_end_matches('.'));
        }
        sections.push(Section {
            printed: false,
            list: Vec::new(),
            closing: String::new(),
            closing_paper: String::new(),
            title: format!("Which rule matters most: {name}"),
            intro,
            tables: vec![tab],
        });
    }
    sections
}

/// A section per balance analysis: the value that makes it fair, and every value tried.
pub(super) fn balance_sections(result: &ExperimentResult) -> Vec<Section> {
    let mut sections = Vec::new();
    for (name, b) in &result.balance {
        let rows = b.rows();
        let mut tab = Tab::new(
            &rows[0]
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    let last = i + 1 == rows[0].len();
                    (
                        if last && h.is_empty() {
                            "note"
                        } else {
                            h.as_str()
                        },
                        !last,
                    )
                })
                .collect::<Vec<_>>(),
        );
        tab.rows = rows[1..].to_vec();
        let mut intro = b.answer();
        for l in b.context_lines() {
            intro += &format!(" {}.", l.trim_end_matches('.'));
        }
        for l in b.refused_lines() {
            intro += &format!(" {}.", l.trim_end_matches('.'));
        }
        sections.push(Section {
            printed: false,
            list: Vec::new(),
            closing: String::new(),
            closing_paper: String::new(),
            title: format!(
                "What {} makes it fair: {name}",
                crate::params::label_in_prose(&b.key)
            ),
            intro,
            tables: vec![tab],
        });
    }
    sections
}

/// A section per variant that plays its best: what good play is worth, whether a choice is
/// dominant and the rule of thumb (in the answer's words, in points), the ways of playing
/// valued, and the states most often met with their best choice (the map is its chart).
pub(super) fn play_sections(result: &ExperimentResult) -> Vec<Section> {
    let tab = |rows: Vec<Vec<String>>| {
        let mut t = Tab::new(
            &rows[0]
                .iter()
                .map(|h| {
                    let numeric = ["value", "short of the best", "gains", "turns there"]
                        .contains(&h.as_str());
                    (h.as_str(), numeric)
                })
                .collect::<Vec<_>>(),
        );
        t.rows = rows[1..].to_vec();
        t
    };
    let several = result.experiment.points().len() > 1;
    result
        .play
        .iter()
        .map(|(name, solved)| {
            let (states, met) = solved.states(PLAY_ROWS, "points");
            let mut intro = format!(
                "Side A chooses at the start of every turn to hold or to charge; side B never chooses to charge: it holds its ground, fires and takes every test its rules call for. {}",
                solved.answer_in("points")
            );
            if several {
                intro += " Solved at the experiment's first setting.";
            }
            intro += &format!(
                " The first table values each way of playing; the second gives the best choice in the {} states most often met under the best play (of the {met} where the choice matters), and the chart “{}: side A’s best choice in each state”, under Charts, maps it.",
                (states.len() - 1).min(met),
                crate::labels::capitalised(name)
            );
            Section {
                // Printed: in a report that asks a play question, the answer's detail is
                // here (whether a choice is dominant, the rule of thumb), and on paper it was
                // left out (writer trial 66).
                printed: true,
                list: Vec::new(),
                closing: solved.states_note("points", PLAY_ROWS),
                closing_paper: String::new(),
                title: format!("When to hold and when to charge: {name}"),
                intro,
                tables: vec![tab(solved.ways("points")), tab(states)],
            }
        })
        .collect()
}

/// The rows of the best choice by state a report shows.
const PLAY_ROWS: usize = 12;
