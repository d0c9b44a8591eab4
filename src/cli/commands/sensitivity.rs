//! `sensitivity SCENARIO`: which rule number matters most for a headline.

use std::sync::Arc;

use clap::Args;

use morale_lab::Scenario;
use morale_lab::engine::Control;
use morale_lab::error::Result;
use morale_lab::report::Rendered;

use crate::cli::commands::scenario::{RunArgs, asked};
use crate::cli::flags::invalid;
use crate::cli::progress::Progress;
use crate::cli::write::{chart_target, draw_chart};

/// The flags `sensitivity` adds to a scenario's.
#[derive(Debug, Args)]
pub(crate) struct SensitivityArgs {
    /// The outcome or metric to measure (default: recovered where the scenario has it, else
    /// the unit gone, else the first outcome), e.g. --headline turns_to_recover.
    #[arg(help_heading = "Sensitivity", long, value_name = "NAME")]
    pub(crate) headline: Option<String>,
    /// Also draw the tornado chart to FILE (.png or .svg).
    #[arg(help_heading = "Sensitivity", long, value_name = "FILE")]
    pub(crate) chart: Option<std::path::PathBuf>,
    /// Replace the --chart file if it exists.
    #[arg(help_heading = "Sensitivity", long)]
    pub(crate) force: bool,
}

/// `sensitivity SCENARIO`: every rule parameter one step each way, every optional rule
/// switched, sorted by the change to the headline; a tornado chart with `--chart`.
pub(crate) fn run_sensitivity(
    scenario: Scenario,
    a: RunArgs,
    s: SensitivityArgs,
    control: Arc<Control>,
) -> Result<String> {
    use morale_lab::experiment::sensitivity::{Ask, analyse, runs};
    if a.precision.is_some() {
        return Err(invalid(
            "--precision",
            a.precision.as_deref().unwrap_or(""),
            "not taken by sensitivity: it runs --trials trials a setting where it cannot solve exactly",
        ));
    }
    let chart = chart_target(s.chart.as_ref(), s.force)?;
    let asked = asked(&a)?;
    let ask = Ask {
        system: &asked.system,
        scenario,
        inputs: &asked.inputs,
        options: &asked.options,
        headline: s.headline.as_deref(),
        run: asked.run.clone(),
    };
    let total = (runs(&ask)? as u64).saturating_mul(asked.run.spec.trials);
    let bar = Progress::trials(a.quiet, total, true, &control);
    let result = analyse(&ask, &control);
    drop(bar);
    let result = result?;
    if let Some((path, svg)) = chart {
        draw_chart(&result.chart(), &path, svg)?;
    }
    Ok(result.render(asked.format))
}
