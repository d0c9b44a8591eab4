//! `balance SCENARIO`: solve for the number that makes it fair.

use std::sync::Arc;

use clap::Args;

use morale_lab::Scenario;
use morale_lab::engine::Control;
use morale_lab::error::{Error, Result};
use morale_lab::params::Input;
use morale_lab::report::Rendered;

use crate::cli::commands::scenario::{RunArgs, asked};
use crate::cli::files::load_mechanic;
use crate::cli::flags::{invalid, shell_word};
use crate::cli::progress::Progress;
use crate::cli::write::{chart_target, draw_chart};

/// The flags `balance` adds to a scenario's.
#[derive(Debug, Args)]
pub(crate) struct BalanceArgs {
    /// The parameter or rule parameter to solve for (a whole number, a chance, a number, a
    /// choice or a switch), e.g. --solve base_green.
    #[arg(help_heading = "Balance", long, value_name = "KEY", required = true)]
    pub(crate) solve: String,
    /// The value the headline must reach: a share from 0 to 1 for an outcome (0.5), a value in
    /// the metric's unit for a metric. Or use --against.
    #[arg(
        help_heading = "Balance",
        long,
        value_name = "NUMBER",
        allow_hyphen_values = true
    )]
    pub(crate) target: Option<String>,
    /// The target is the same headline in another setting: the run asked for with KEY=VALUE
    /// instead (repeatable; a situation or rule parameter), e.g. --against class=regular.
    #[arg(help_heading = "Balance", long, value_name = "KEY=VALUE")]
    pub(crate) against: Vec<String>,
    /// The other setting's optional rules, instead of the run's (a comma list, or none).
    #[arg(help_heading = "Balance", long, value_name = "LIST")]
    pub(crate) against_options: Option<String>,
    /// The other setting is under another rule system (a name or a mechanic file): the run's
    /// situation goes along, not its rule numbers or optional rules; --against gives that
    /// system's own values, e.g. --against-system effectiveness --against class=regular.
    #[arg(help_heading = "Balance", long, value_name = "SYSTEM")]
    pub(crate) against_system: Option<String>,
    /// The range searched, LOW..HIGH (default: the parameter's allowed range; a chance 0..1).
    #[arg(
        help_heading = "Balance",
        long,
        value_name = "LOW..HIGH",
        allow_hyphen_values = true
    )]
    pub(crate) range: Option<String>,
    /// The outcome or metric to bring to the target (default: recovered where the scenario
    /// has it, else the unit gone, else the first outcome), e.g. --headline eliminated.
    #[arg(help_heading = "Balance", long, value_name = "NAME")]
    pub(crate) headline: Option<String>,
    /// Also draw the headline against the parameter, with the target, to FILE (.png or .svg).
    #[arg(help_heading = "Balance", long, value_name = "FILE")]
    pub(crate) chart: Option<std::path::PathBuf>,
    /// Replace the --chart file if it exists.
    #[arg(help_heading = "Balance", long)]
    pub(crate) force: bool,
    /// Search by Monte Carlo (--trials at each value, from --seed) even where the setting
    /// solves exactly; a setting that does not is searched so anyway.
    #[arg(help_heading = "Balance", long)]
    pub(crate) monte_carlo: bool,
    /// How side A plays at every value tried: "as set" (its parameters' fixed policy, the
    /// default) or "optimal" (its best choices, solved exactly there; the target's setting
    /// too), e.g. --play optimal.
    #[arg(help_heading = "Balance", long, value_name = "HOW")]
    pub(crate) play: Option<String>,
}

/// `balance SCENARIO`: solve for one parameter so that the headline reaches a target.
pub(crate) fn run_balance(
    scenario: Scenario,
    a: RunArgs,
    b: BalanceArgs,
    control: Arc<Control>,
) -> Result<String> {
    use morale_lab::experiment::balance::{Ask, Target, solve};
    if let Some(p) = &a.precision {
        return Err(invalid(
            "--precision",
            p,
            "not taken by balance: where it cannot solve exactly it runs --trials trials at each value",
        ));
    }
    let against_system = b.against_system.as_deref().map(load_mechanic).transpose()?;
    let target = match (
        &b.target,
        b.against.is_empty() && b.against_options.is_none() && against_system.is_none(),
    ) {
        (Some(t), true) => Target::Number(
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| invalid("--target", t, "a number, e.g. 0.5"))?,
        ),
        (None, false) => Target::Setting {
            inputs: b
                .against
                .iter()
                .map(|s| Input::parse_set(s))
                .collect::<Result<Vec<_>>>()?,
            options: b.against_options.as_deref().map(|l| {
                l.split(',')
                    .map(str::trim)
                    .filter(|o| !o.is_empty() && *o != "none")
                    .map(str::to_string)
                    .collect()
            }),
            system: against_system,
        },
        (Some(t), false) => {
            return Err(invalid(
                "--target",
                t,
                "either --target NUMBER or --against KEY=VALUE / --against-options LIST / --against-system NAME, not both",
            ));
        }
        (None, true) => {
            return Err(Error::Conflict(
                "balance needs a target: --target NUMBER, or --against KEY=VALUE / --against-options LIST / --against-system NAME (the same headline in another setting)".into(),
            ));
        }
    };
    let range = match &b.range {
        None => None,
        Some(r) => Some(
            r.split_once("..")
                .map(|(lo, hi)| (lo.trim().to_string(), hi.trim().to_string()))
                .ok_or_else(|| invalid("--range", r, "LOW..HIGH, e.g. 2..12 or 0..1/2"))?,
        ),
    };
    let optimal_play = match b.play.as_deref().map(str::trim) {
        None | Some("as set" | "as-set") => false,
        Some("optimal") => true,
        Some(other) => {
            return Err(invalid(
                "--play",
                other,
                "optimal (side A's best choices, solved exactly at each value) or \"as set\" (its parameters' policy, the default)",
            ));
        }
    };
    let chart = chart_target(b.chart.as_ref(), b.force)?;
    let asked = asked(&a)?;
    let ask = Ask {
        system: &asked.system,
        scenario,
        inputs: &asked.inputs,
        options: &asked.options,
        headline: b.headline.as_deref(),
        key: b.solve.trim(),
        range,
        target,
        run: asked.run.clone(),
        monte_carlo: b.monte_carlo,
        optimal_play,
    };
    // A counter of trials (the values tried are not known in advance), and the exact
    // solutions' progress.
    let bar = Progress::trials(a.quiet, 0, false, &control);
    let result = solve(&ask, &control);
    drop(bar);
    let mut result = result?;
    // What reproduces it: this command line, as typed (without --chart and --force).
    let mut words = vec!["morale-lab".to_string()];
    let mut args = std::env::args().skip(1);
    while let Some(w) = args.next() {
        if w == "--chart" {
            args.next();
            continue;
        }
        if w == "--force" || w.starts_with("--chart=") {
            continue;
        }
        words.push(shell_word(&w));
    }
    result.command = Some(words.join(" "));
    if let Some((path, svg)) = chart {
        draw_chart(&result.chart(), &path, svg)?;
    }
    Ok(result.render(asked.format))
}
