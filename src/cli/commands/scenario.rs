//! The scenario commands (`test`, `rally`, `under-fire`, `melee`, `charge`, `engagement`,
//! `line`): their flags, shared with `sensitivity` and `balance`, and one run with its report.

use std::sync::Arc;

use clap::Args;

use morale_lab::engine::Control;
use morale_lab::error::Result;
use morale_lab::params::Input;
use morale_lab::report::{Format, Rendered};
use morale_lab::system;
use morale_lab::{RunOptions, Scenario};

use crate::cli::files::rules_of;
use crate::cli::flags::{
    confidence_in, exact_budget_of, format_of, formats, invalid, sampler_of, samplers, seed_of,
    systems, threads_of, trials_of,
};
use crate::cli::progress::Progress;

#[derive(Debug, Default, Args)]
pub(crate) struct RunArgs {
    /// Rule system (see `morale-lab list`), or a mechanic file (`path/to/file.rhai`)
    /// [default: rank-and-file, or the --rules file's].
    #[arg(help_heading = "Rules and situation", long, value_name = "SYSTEM", value_parser = systems())]
    pub(crate) system: Option<String>,
    /// A rule-set file (name, description, base, [rules], options): its rule parameters and
    /// optional rules, under any --rule and --option given here.
    #[arg(
        help_heading = "Rules and situation",
        long = "rules",
        value_name = "FILE"
    )]
    pub(crate) rules_file: Option<std::path::PathBuf>,
    /// Class (rank-and-file: veteran, regular, green; effectiveness: elite, regular, poor).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "CLASS"
    )]
    pub(crate) class: Option<String>,
    /// Starting stands of the unit (models, for a single stand).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    pub(crate) stands: Option<String>,
    /// Losses already taken, in the system's unit (stands; quarters for effectiveness).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    pub(crate) lost: Option<String>,
    /// State at the start (rank-and-file: good, unsteady, routing; effectiveness: in_line,
    /// retreating).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "STATE"
    )]
    pub(crate) state: Option<String>,
    /// Bonus of the attached leader (e.g. 1).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    pub(crate) leader: Option<String>,
    /// The unit is Elite (rank-and-file: re-rolls a failed test, as many times a battle as the rule elite_rerolls allows: 1 unless set, the tool's reading, as the sources give no number).
    #[arg(help_heading = "The unit (test, rally, under-fire)", long)]
    pub(crate) elite: bool,
    /// A general is attached (effectiveness: +1 to tests and to the roll to return).
    #[arg(help_heading = "The unit (test, rally, under-fire)", long)]
    pub(crate) general: bool,
    /// The unit is supported from behind (effectiveness: +1 to tests).
    #[arg(help_heading = "The unit (test, rally, under-fire)", long)]
    pub(crate) supported: bool,
    /// Unit type (linear-warfare: line, guards, light).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long = "type",
        value_name = "TYPE"
    )]
    pub(crate) unit_type: Option<String>,
    /// Pips at the start (linear-warfare; default: the type's).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    pub(crate) pips: Option<String>,
    /// The attacking unit (side A of a battle), e.g. "veteran cavalry stands=6 shock"
    /// (rank-and-file), "guards pips=7 charging" (linear-warfare), "6 x regular" (a line); see
    /// `morale-lab list`.
    #[arg(
        help_heading = "The fight (melee, charge, engagement, line)",
        long,
        value_name = "SPEC"
    )]
    pub(crate) attacker: Option<String>,
    /// The defending unit (side B of a battle), e.g. "line pips=5 obstacle".
    #[arg(
        help_heading = "The fight (melee, charge, engagement, line)",
        long,
        value_name = "SPEC"
    )]
    pub(crate) defender: Option<String>,
    /// Re-rolls left to the attached commander.
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    pub(crate) rerolls: Option<String>,
    /// Switch on an optional rule (repeatable; see `morale-lab list`).
    #[arg(
        help_heading = "Rules and situation",
        long = "option",
        value_name = "NAME"
    )]
    pub(crate) options: Vec<String>,
    /// Set any parameter of the situation (repeatable), e.g. --set fire_dice=6.
    #[arg(
        help_heading = "Rules and situation",
        long = "set",
        value_name = "KEY=VALUE"
    )]
    pub(crate) sets: Vec<String>,
    /// Change a number of the rules themselves (repeatable), e.g. --rule base_green=6; the
    /// report says which rules differ from the source (see `morale-lab list` for each system's
    /// rule parameters).
    #[arg(
        help_heading = "Rules and situation",
        long = "rule",
        value_name = "KEY=VALUE"
    )]
    pub(crate) rules: Vec<String>,
    /// Turns: the rally cap, turns of fire (under-fire), or of the battle (engagement, line).
    #[arg(
        help_heading = "Rules and situation",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    pub(crate) turns: Option<String>,
    /// Monte Carlo trials (1e7 and 10_000_000 both work); default one million, or with
    /// --precision the most trials to spend (default 1e10).
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    pub(crate) trials: Option<String>,
    /// Run until the widest interval of an outcome has at most this half-width (e.g. 0.001),
    /// doubling the trials from about a million; deterministic for a given seed.
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "HALF_WIDTH",
        allow_hyphen_values = true
    )]
    pub(crate) precision: Option<String>,
    /// Seed: the same seed gives the same numbers to the bit.
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "N",
        default_value = "1",
        allow_hyphen_values = true
    )]
    pub(crate) seed: String,
    /// The seed's generator stream (default 0). An experiment's run k draws from stream k of its
    /// seed, and so does the explorer's profile k (A is 0, B is 1): the stream reproduces
    /// their estimates to the bit.
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "K",
        default_value = "0",
        allow_hyphen_values = true
    )]
    pub(crate) stream: String,
    /// Worker threads (default: every core). Results do not depend on it.
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    pub(crate) threads: Option<String>,
    /// Confidence level of the intervals.
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "LEVEL",
        default_value = "0.95"
    )]
    pub(crate) confidence: String,
    /// Print only the exact solution (no Monte Carlo).
    #[arg(help_heading = "Monte Carlo and exact solution", long)]
    pub(crate) exact_only: bool,
    /// Seconds the exact solution may take (default 5). Past it the report notes "exact:
    /// skipped" and gives Monte Carlo alone; with --exact-only the run is refused.
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "SECONDS"
    )]
    pub(crate) exact_budget: Option<String>,
    /// Output format.
    #[arg(help_heading = "Output", long, value_name = "FORMAT", default_value = "text", value_parser = formats())]
    pub(crate) format: String,
    /// How Monte Carlo draws a turn.
    #[arg(help_heading = "Monte Carlo and exact solution", long, value_name = "SAMPLER", default_value = "table", value_parser = samplers())]
    pub(crate) sampler: String,
    /// No progress bar.
    #[arg(help_heading = "Output", long, short)]
    pub(crate) quiet: bool,
}

/// A flag of [`RunArgs`] that belongs to some scenarios only, as given: its field's id (what
/// clap calls it), the flag, the parameter's key, and the value (a switch given: "true").
pub(crate) struct Given {
    pub(crate) id: &'static str,
    pub(crate) flag: &'static str,
    pub(crate) key: &'static str,
    pub(crate) value: Option<String>,
}

impl RunArgs {
    /// The scenario flags, in the one table the command line knows them by: what `asked` turns
    /// into inputs (in this order) and what each scenario's `--help` hides when no system uses it.
    pub(crate) fn given(&self) -> Vec<Given> {
        let switch = |on: bool| on.then(|| "true".to_string());
        [
            ("class", "--class", "class", self.class.clone()),
            ("stands", "--stands", "stands", self.stands.clone()),
            ("lost", "--lost", "lost", self.lost.clone()),
            ("state", "--state", "state", self.state.clone()),
            ("leader", "--leader", "leader", self.leader.clone()),
            ("rerolls", "--rerolls", "rerolls", self.rerolls.clone()),
            ("turns", "--turns", "turns", self.turns.clone()),
            ("unit_type", "--type", "type", self.unit_type.clone()),
            ("pips", "--pips", "pips", self.pips.clone()),
            ("attacker", "--attacker", "attacker", self.attacker.clone()),
            ("defender", "--defender", "defender", self.defender.clone()),
            ("elite", "--elite", "elite", switch(self.elite)),
            ("general", "--general", "general", switch(self.general)),
            (
                "supported",
                "--supported",
                "supported",
                switch(self.supported),
            ),
        ]
        .into_iter()
        .map(|(id, flag, key, value)| Given {
            id,
            flag,
            key,
            value,
        })
        .collect()
    }
}

/// What a scenario's flags ask for: the system, its inputs and optional rules, how to run, and
/// the output format.
pub(crate) struct Asked {
    pub(crate) system: String,
    pub(crate) inputs: Vec<Input>,
    pub(crate) options: Vec<String>,
    pub(crate) run: RunOptions,
    pub(crate) format: Format,
}

pub(crate) fn asked(a: &RunArgs) -> Result<Asked> {
    let format = format_of(&a.format)?;
    let precision = match &a.precision {
        None => None,
        Some(raw) => Some(
            raw.trim()
                .parse::<f64>()
                .ok()
                .filter(|h| *h > 0.0 && *h <= 0.5)
                .ok_or_else(|| {
                    invalid(
                        "--precision",
                        raw,
                        "allowed: a half-width above 0 and at most 0.5, e.g. 0.001",
                    )
                })?,
        ),
    };
    let default_trials = if precision.is_some() {
        "1e10"
    } else {
        "1000000"
    };
    let trials = trials_of(a.trials.as_deref().unwrap_or(default_trials))?;
    let seed = seed_of(&a.seed)?;
    let threads = threads_of(&a.threads)?;
    let confidence = confidence_in(&a.confidence)?;

    let mut inputs: Vec<Input> = a
        .given()
        .into_iter()
        .filter_map(|g| g.value.map(|v| Input::flag(g.flag, g.key, v)))
        .collect();
    for s in &a.sets {
        inputs.push(Input::parse_set(s)?);
    }
    let (system, rules, mut options) = rules_of(
        (a.system.as_ref(), "--system"),
        a.rules_file.as_deref(),
        &a.rules,
    )?;
    inputs.extend(rules);
    options.extend(a.options.iter().cloned());
    let exact_budget = exact_budget_of(a.exact_budget.as_deref())?;
    let sampler = sampler_of(&a.sampler)?;
    let stream = a.stream.trim().parse::<u64>().map_err(|_| {
        invalid(
            "--stream",
            &a.stream,
            "allowed: a whole number from 0 to 2^64−1 (0: the seed's first stream)",
        )
    })?;
    let run = RunOptions::new(trials, seed)
        .stream(stream)
        .threads(threads)
        .confidence(confidence)
        .exact_only(a.exact_only)
        .sampler(sampler)
        .precision(precision)
        .exact_budget(Some(exact_budget));
    Ok(Asked {
        system,
        inputs,
        options,
        run,
        format,
    })
}

pub(crate) fn run_scenario(
    scenario: Scenario,
    a: RunArgs,
    control: Arc<Control>,
) -> Result<String> {
    let Asked {
        system,
        inputs,
        options,
        run: options_run,
        format,
    } = asked(&a)?;
    let job = system::build(&system, scenario, &inputs, &options)?;
    // With a precision the total is not known in advance: a counter instead of a bar.
    let bar = Progress::trials(
        a.quiet,
        options_run.spec.trials,
        options_run.precision.is_none(),
        &control,
    );
    let result = job.run(&options_run, &control);
    drop(bar);
    Ok(result?.render(format))
}
