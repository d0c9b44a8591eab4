//! `play SCENARIO`: the best choices the rules leave a side, solved exactly.

use std::sync::Arc;

use clap::Args;

use morale_lab::Scenario;
use morale_lab::engine::Control;
use morale_lab::error::{Error, Result};

use crate::cli::commands::scenario::{RunArgs, asked};
use crate::cli::flags::{int_in, invalid};
use crate::cli::write::{chart_target, draw_chart};

/// The flags `play` adds to a scenario's.
#[derive(Debug, Args)]
pub(crate) struct PlayArgs {
    /// What side A plays for: outcomes added or taken away, e.g. side_a_holds-side_b_holds
    /// (the default: the chance to hold the field minus the enemy's) or side_a_holds.
    #[arg(
        help_heading = "Play",
        long,
        value_name = "OUTCOMES",
        allow_hyphen_values = true
    )]
    pub(crate) objective: Option<String>,
    /// A rule of thumb is named when it comes within this many points of the best (default
    /// 0.5).
    #[arg(help_heading = "Play", long, value_name = "POINTS")]
    pub(crate) within: Option<String>,
    /// Rows of the best choice by state to print (default 20; the JSON has them all).
    #[arg(help_heading = "Play", long, value_name = "N")]
    pub(crate) rows: Option<String>,
    /// Also draw the map of the best choice by state to FILE (.png or .svg).
    #[arg(help_heading = "Play", long, value_name = "FILE")]
    pub(crate) chart: Option<std::path::PathBuf>,
    /// Replace the --chart file if it exists.
    #[arg(help_heading = "Play", long)]
    pub(crate) force: bool,
}

/// The objective as outcomes with weights: `a-b+c`.
fn weights(raw: &str) -> Result<Vec<(String, f64)>> {
    let mut out = Vec::new();
    let mut sign = 1.0;
    let mut word = String::new();
    let bad = || {
        invalid(
            "--objective",
            raw,
            "outcomes joined by + or -, e.g. side_a_holds-side_b_holds",
        )
    };
    for c in raw.trim().chars().chain(std::iter::once('+')) {
        match c {
            '+' | '-' | '−' => {
                let w = word.trim();
                if w.is_empty() {
                    if !out.is_empty() || c == '+' {
                        return Err(bad());
                    }
                } else {
                    out.push((w.to_string(), sign));
                }
                word.clear();
                sign = if c == '+' { 1.0 } else { -1.0 };
            }
            c => word.push(c),
        }
    }
    if out.is_empty() {
        return Err(bad());
    }
    if let Some((name, _)) = out
        .iter()
        .enumerate()
        .find(|(i, (n, _))| out[..*i].iter().any(|(m, _)| m == n))
        .map(|(_, o)| o)
    {
        return Err(invalid(
            "--objective",
            raw,
            &format!("each outcome once ({name} is named twice)"),
        ));
    }
    Ok(out)
}

/// `play SCENARIO`: solve side A's choices.
pub(crate) fn run_play(
    scenario: Scenario,
    a: RunArgs,
    p: PlayArgs,
    control: Arc<Control>,
) -> Result<String> {
    if scenario != Scenario::Engagement {
        return Err(Error::Conflict(format!(
            "play solves side A's charge in an engagement, one unit a side; a {scenario}'s charges are chosen file by file, which it does not solve yet (try: morale-lab play engagement --system rank-and-file)"
        )));
    }
    let within = match &p.within {
        None => 0.005,
        Some(w) => w
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| (0.0..=100.0).contains(x))
            .map(|x| x / 100.0)
            .ok_or_else(|| invalid("--within", w, "points from 0 to 100, e.g. 0.5"))?,
    };
    let rows = match &p.rows {
        None => 20,
        Some(r) => int_in("--rows", r, 0, 100_000)? as usize,
    };
    let chart = chart_target(p.chart.as_ref(), p.force)?;
    let asked = asked(&a)?;
    let ask = morale_lab::play::Ask {
        weights: weights(
            p.objective
                .as_deref()
                .unwrap_or("side_a_holds-side_b_holds"),
        )?,
        within,
        budget: asked.run.exact_budget,
    };
    let job = morale_lab::system::build(&asked.system, scenario, &asked.inputs, &asked.options)?;
    let solution = job.play(&ask, &control)?;
    if let Some((path, svg)) = chart {
        draw_chart(
            &solution.chart("The best choice by state, side A"),
            &path,
            svg,
        )?;
    }
    Ok(solution.render(asked.format, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_objective_is_outcomes_added_and_taken_away() {
        assert_eq!(
            weights("side_a_holds-side_b_holds").unwrap(),
            vec![
                ("side_a_holds".to_string(), 1.0),
                ("side_b_holds".to_string(), -1.0)
            ]
        );
        assert_eq!(
            weights("-side_b_holds").unwrap(),
            vec![("side_b_holds".to_string(), -1.0)]
        );
        for bad in ["", "+", "a--b", "a+", "a+a", "a-b+a"] {
            assert!(weights(bad).is_err(), "{bad}");
        }
    }
}
