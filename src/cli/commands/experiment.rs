//! `run`: experiment files, each to its report folder, or a shard of every run's trials.

use std::sync::Arc;

use clap::Args;

use morale_lab::engine::Control;
use morale_lab::error::{Error, Result};

use crate::cli::files::load_experiment;
use crate::cli::flags::{invalid, sampler_of, samplers, seed_of, threads_of, trials_of};
use crate::cli::progress::Progress;
use crate::cli::write::{OutArgs, dropped_line, write_file, write_folder};

#[derive(Debug, Args)]
pub(crate) struct ExperimentArgs {
    /// Experiment files (TOML; see experiments/). Several run one after another.
    #[arg(value_name = "EXPERIMENT.toml", required = true)]
    pub(crate) files: Vec<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) target: OutArgs,
    /// Worker threads (default: every core). Results do not depend on it.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub(crate) threads: Option<String>,
    /// How Monte Carlo draws a turn.
    #[arg(long, value_name = "SAMPLER", default_value = "table", value_parser = samplers())]
    pub(crate) sampler: String,
    /// No progress bar.
    #[arg(long, short)]
    pub(crate) quiet: bool,
    /// Run only part K of N of every run's trials and write its raw tallies (JSON) to --out
    /// (default <name>.shard-K-of-N.json); `morale-lab merge` adds the N parts.
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<String>,
    /// Monte Carlo trials per run instead of the file's (a quick look; the report says so).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub(crate) trials: Option<String>,
    /// Seed instead of the file's (the report says so).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub(crate) seed: Option<String>,
}

pub(crate) fn run_experiment(a: ExperimentArgs, control: Arc<Control>) -> Result<String> {
    if a.target.out.is_some() && a.files.len() > 1 {
        return Err(invalid(
            "--out",
            &a.target
                .out
                .as_ref()
                .map(|o| o.display().to_string())
                .unwrap_or_default(),
            "--out names one report folder: give one experiment file with it",
        ));
    }
    let trials = a.trials.as_deref().map(trials_of).transpose()?;
    let seed = a.seed.as_deref().map(seed_of).transpose()?;
    a.target.chart_scale()?;
    // Check every file before running any.
    let mut loaded = Vec::new();
    for file in &a.files {
        let (exp, source) = load_experiment(file)?;
        loaded.push((file.clone(), (exp.with_overrides(trials, seed), source)));
    }
    let mut said = String::new();
    for (file, (exp, source)) in loaded {
        said += &match &a.shard {
            None => run_one(&a, &file, exp, Arc::clone(&control))?,
            Some(k_of_n) => run_shard(&a, &file, exp, &source, k_of_n, Arc::clone(&control))?,
        };
    }
    Ok(said)
}

/// `run --shard K/N`: part of every run's trials, written as raw tallies.
pub(crate) fn run_shard(
    a: &ExperimentArgs,
    file: &std::path::Path,
    exp: morale_lab::experiment::Experiment,
    source: &str,
    k_of_n: &str,
    control: Arc<Control>,
) -> Result<String> {
    use morale_lab::experiment::shard;
    let (k, n) = shard::parse_shard(k_of_n)?;
    let threads = threads_of(&a.threads)?;
    let sampler = sampler_of(&a.sampler)?;
    let out = a
        .target
        .path(|| std::path::PathBuf::from(format!("{}.shard-{k}-of-{n}.json", exp.name)))?;
    let part = exp.run_shard(
        &file.display().to_string(),
        source,
        (k, n),
        threads,
        sampler,
        &control,
    )?;
    if control.is_cancelled() {
        return Err(Error::Cancelled);
    }
    let mut bytes = serde_json::to_vec(&part).expect("serialises");
    bytes.push(b'\n');
    write_file(&out, &bytes)?;
    Ok(format!(
        "wrote shard {k}/{n} of {} to {} ({} runs)\n",
        exp.name,
        out.display(),
        exp.runs()
    ))
}

/// One experiment run whole: its report folder written in one step.
pub(crate) fn run_one(
    a: &ExperimentArgs,
    file: &std::path::Path,
    exp: morale_lab::experiment::Experiment,
    control: Arc<Control>,
) -> Result<String> {
    use morale_lab::experiment::output;
    let threads = threads_of(&a.threads)?;
    let sampler = sampler_of(&a.sampler)?;
    let out = a.target.report_folder(
        || std::path::Path::new("reports").join(&exp.name),
        &exp.name,
    )?;
    let total = exp.trials.saturating_mul(exp.runs() as u64);
    let bar = Progress::trials(a.quiet, total, true, &control);
    let result = exp.run(threads, sampler, &control);
    drop(bar);
    let result = result?;
    let command = exp.command(&file.display().to_string());
    let files = output::outputs_scaled(&result, &command, a.target.chart_scale()?)?;
    let dropped = write_folder(&out, &files)?;
    Ok(format!(
        "wrote {} files to {}/ ({} run{} of {} trials)\n{}",
        files.len(),
        out.display(),
        exp.runs(),
        if exp.runs() == 1 { "" } else { "s" },
        morale_lab::report::thousands(exp.trials),
        dropped_line(&dropped)
    ))
}
