//! `merge`: the shards of `run --shard` (or `points --shard`) added into the one report.

use std::sync::Arc;

use clap::Args;

use morale_lab::RunOptions;
use morale_lab::engine::Control;
use morale_lab::error::{Error, Result};
use morale_lab::report::{Format, Rendered};

use crate::cli::flags::{invalid, shell_word};
use crate::cli::progress::Progress;
use crate::cli::write::{OutArgs, dropped_line, write_folder};

#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// The shard files of one experiment or one points file (all N of them): an experiment's
    /// report goes to --out (default reports/<name>/), a points report to standard output (and
    /// in every format under --out).
    #[arg(value_name = "SHARD.json", required = true)]
    pub(crate) parts: Vec<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) target: OutArgs,
    /// No progress display.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// `merge`: add all N shards and write the report of the whole run.
pub(crate) fn run_merge(a: MergeArgs, control: Arc<Control>) -> Result<String> {
    use morale_lab::experiment::{output, shard};
    let mut parts = Vec::new();
    let mut names = Vec::new();
    for p in &a.parts {
        let path = p.display().to_string();
        let file_err = |message: String| Error::File {
            path: path.clone(),
            line: 0,
            key: String::new(),
            message,
        };
        let bytes = std::fs::read(p).map_err(|e| {
            file_err(if p.is_dir() {
                "is a folder, not a shard file".into()
            } else {
                format!("cannot be read: {e}")
            })
        })?;
        if serde_json::from_slice::<serde_json::Value>(&bytes)
            .ok()
            .and_then(|v| v.get("format")?.as_str().map(str::to_string))
            .as_deref()
            == Some(morale_lab::experiment::points::FORMAT)
        {
            return merge_points(&a, control);
        }
        let part: shard::Shard = serde_json::from_slice(&bytes).map_err(|e| {
            file_err(format!(
                "is not a shard file of `morale-lab run --shard`: {e}"
            ))
        })?;
        parts.push(part);
        names.push(path);
    }
    // The exact solutions are worked out again while merging: show that it is going on.
    let total = parts.first().map_or(0, |p| p.tallies.len() as u64);
    let bar = Progress::count(a.quiet, "merging {pos}/{len} runs {wide_bar}");
    let result = shard::merge_with(&parts, &names, &control, &|done| {
        if let Some(b) = &bar {
            b.at(done as u64, total);
        }
    });
    drop(bar);
    let result = result?;
    let out = a.target.report_folder(
        || std::path::Path::new("reports").join(&result.experiment.name),
        &result.experiment.name,
    )?;
    let command = result.experiment.command(&parts[0].path);
    let files = output::outputs_scaled(&result, &command, a.target.chart_scale()?)?;
    // Stopped while the report was drawn: write nothing.
    if control.is_cancelled() {
        return Err(Error::Cancelled);
    }
    let dropped = write_folder(&out, &files)?;
    Ok(format!(
        "merged {} shards: wrote {} files to {}/ ({} run{} of {} trials)\n{}",
        parts.len(),
        files.len(),
        out.display(),
        result.experiment.runs(),
        if result.experiment.runs() == 1 {
            ""
        } else {
            "s"
        },
        morale_lab::report::thousands(result.experiment.trials),
        dropped_line(&dropped)
    ))
}

/// `merge` of points shards: the report on standard output, and in every format under --out.
pub(crate) fn merge_points(a: &MergeArgs, control: Arc<Control>) -> Result<String> {
    use morale_lab::experiment::output::OutputFile;
    use morale_lab::experiment::points;
    let mut parts = Vec::new();
    for p in &a.parts {
        let bytes = std::fs::read(p).map_err(|e| Error::File {
            path: p.display().to_string(),
            line: 0,
            key: String::new(),
            message: format!("cannot be read: {e}"),
        })?;
        let part: points::Shard = serde_json::from_slice(&bytes).map_err(|e| Error::File {
            path: p.display().to_string(),
            line: 0,
            key: String::new(),
            message: format!("is not a shard file of `morale-lab points --shard`: {e}"),
        })?;
        parts.push(part);
    }
    let bar = Progress::matchups(a.quiet, "checking");
    let result = points::merge(&parts, &RunOptions::new(1, 1), &control);
    drop(bar);
    let mut result = result?;
    result.command = format!(
        "morale-lab points {}{}",
        shell_word(&result.file.path),
        if result.file.monte_carlo {
            " --monte-carlo"
        } else {
            ""
        }
    );
    if let Some(out) = &a.target.out {
        if out.exists() && !a.target.force {
            return Err(invalid(
                "--out",
                &out.display().to_string(),
                "a folder that does not exist yet (or --force to replace it)",
            ));
        }
        let files: Vec<OutputFile> = [
            ("points.txt", Format::Text),
            ("points.md", Format::Markdown),
            ("points.json", Format::Json),
            ("points.csv", Format::Csv),
        ]
        .into_iter()
        .map(|(name, f)| OutputFile {
            name: name.into(),
            bytes: result.render(f).into_bytes(),
        })
        .collect();
        if control.is_cancelled() {
            return Err(Error::Cancelled);
        }
        write_folder(out, &files)?;
    }
    Ok(result.to_text())
}
