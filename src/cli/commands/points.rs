//! `points`: what a unit is worth, every type against every other at equal points.

use std::sync::Arc;

use clap::Args;

use morale_lab::RunOptions;
use morale_lab::engine::Control;
use morale_lab::error::Result;
use morale_lab::report::Rendered;

use crate::cli::files::{read_named, read_text};
use crate::cli::flags::{
    confidence_in, exact_budget_of, format_of, invalid, shell_word, threads_of,
};
use crate::cli::progress::Progress;
use crate::cli::write::write_file;

#[derive(Debug, Args)]
pub(crate) struct PointsArgs {
    /// The points file (TOML): unit types, a cost formula, a budget and what it buys (see points/
    /// and the guide).
    #[arg(value_name = "POINTS.toml")]
    pub(crate) file: std::path::PathBuf,
    /// Output format: text, md, json or csv.
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    pub(crate) format: String,
    /// Play only part K of N of the matchups and write their scores (JSON) to --out (default
    /// <name>.shard-K-of-N.json); `morale-lab merge` adds the N parts, fits and checks.
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<String>,
    /// With --shard: the shard file to write.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<std::path::PathBuf>,
    /// Replace an existing --out file.
    #[arg(long)]
    pub(crate) force: bool,
    /// Refuse a matchup that does not solve exactly instead of playing it by Monte Carlo (the
    /// file's trials and seed).
    #[arg(long)]
    pub(crate) exact_only: bool,
    /// Seconds an exact solve of one matchup may take before it is played by Monte Carlo.
    #[arg(long, value_name = "SECONDS")]
    pub(crate) exact_budget: Option<String>,
    /// Play every matchup by Monte Carlo (the file's trials and seed), even those that solve
    /// exactly: to check the exact numbers, or see the fit under noise.
    #[arg(long, conflicts_with = "exact_only")]
    pub(crate) monte_carlo: bool,
    /// How side A plays: "optimal" (its best choices, hold or charge each turn, solved exactly
    /// in each matchup) or "as set" (its parameters' policy); the file's `play`, else as set.
    #[arg(long, value_name = "PLAY")]
    pub(crate) play: Option<String>,
    /// Confidence of every interval (the fitted costs' and the Monte Carlo cells').
    #[arg(long, value_name = "LEVEL", default_value = "0.95")]
    pub(crate) confidence: String,
    /// Worker threads for the Monte Carlo matchups (default: every core; the numbers do not
    /// depend on it).
    #[arg(long, value_name = "N")]
    pub(crate) threads: Option<String>,
    /// No progress display.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// `points`: play a points file's matchups (or a shard of them), fit and check its costs.
pub(crate) fn run_points(a: PointsArgs, control: Arc<Control>) -> Result<String> {
    use morale_lab::experiment::points;
    let format = format_of(&a.format)?;
    let confidence = confidence_in(&a.confidence)?;
    let exact_budget = exact_budget_of(a.exact_budget.as_deref())?;
    let shard = a
        .shard
        .as_deref()
        .map(morale_lab::experiment::shard::parse_shard)
        .transpose()?;
    if a.out.is_some() && shard.is_none() {
        return Err(invalid(
            "--out",
            &a.out
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            "only with --shard K/N (the report goes to standard output)",
        ));
    }
    let path = a.file.display().to_string();
    let text = read_text(&a.file, "points file")?;
    let mut file = points::PointsFile::parse_with(&path, &text, &mut read_named)?;
    file.monte_carlo = a.monte_carlo;
    match a.play.as_deref().map(str::trim) {
        None => {}
        Some("optimal") if file.scenario == morale_lab::Scenario::Engagement => {
            file.optimal_play = true;
        }
        Some("as set") | Some("as-set") => file.optimal_play = false,
        Some(other) => {
            return Err(invalid(
                "--play",
                other,
                match file.scenario == morale_lab::Scenario::Engagement {
                    true => {
                        "optimal (side A's best choices, solved exactly in each matchup) or \"as set\" (its parameters' policy, the file's default)"
                    }
                    false => "\"as set\": side A's best choices are solved in an engagement only",
                },
            ));
        }
    }
    let run = RunOptions::new(file.trials, file.seed)
        .confidence(confidence)
        .exact_only(a.exact_only)
        .exact_budget(Some(exact_budget))
        .threads(threads_of(&a.threads)?);
    let bar = Progress::matchups(a.quiet, "matchup");
    let mut tick = |done: usize, total: usize| {
        if let Some(b) = &bar {
            b.at(done as u64, total as u64);
        }
    };
    if let Some((k, n)) = shard {
        let out = a.out.clone().unwrap_or_else(|| {
            let stem = a
                .file
                .file_stem()
                .map_or("points".into(), |s| s.to_string_lossy().to_string());
            a.file
                .with_file_name(format!("{stem}.shard-{k}-of-{n}.json"))
        });
        if out.exists() && !a.force {
            return Err(invalid(
                "--out",
                &out.display().to_string(),
                "a file that does not exist yet (or --force to replace it)",
            ));
        }
        let part = points::run_shard(&file, k, n, &run, &control, &mut tick);
        drop(bar);
        let part = part?;
        let mut json = serde_json::to_string_pretty(&part).expect("a shard serialises");
        json.push('\n');
        write_file(&out, json.as_bytes())?;
        return Ok(format!(
            "shard {k} of {n}: {} matchups written to {}\n",
            part.scores.len(),
            out.display()
        ));
    }
    let result = points::run(&file, &run, &control, &mut tick);
    drop(bar);
    let mut result = result?;
    let mut words = vec![format!("morale-lab points {}", shell_word(&path))];
    if a.exact_only {
        words.push("--exact-only".into());
    }
    if a.monte_carlo {
        words.push("--monte-carlo".into());
    }
    if let Some(p) = &a.play {
        words.push(format!("--play {}", shell_word(p.trim())));
    }
    if let Some(b) = &a.exact_budget {
        words.push(format!("--exact-budget {}", shell_word(b)));
    }
    if (confidence - 0.95).abs() > 1e-12 {
        words.push(format!("--confidence {confidence}"));
    }
    result.command = words.join(" ");
    Ok(result.render(format))
}
