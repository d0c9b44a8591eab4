//! Where the command line writes, and the one way it writes: every file through a temporary
//! beside it and a rename, every report folder built aside and renamed into place, each counted
//! while under way so an interrupt never leaves half a file. A failure is an [`Error::Write`].

use clap::Args;

use morale_lab::error::{Error, Result};

use crate::cli::flags::invalid;

/// Where `run` and `merge` write, and whether they may replace what is there.
#[derive(Debug, Args)]
pub(crate) struct OutArgs {
    /// Where to write the report (default: reports/<experiment name>/; with `run`, one file
    /// only; with `run --shard`, the shard file).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<std::path::PathBuf>,
    /// Replace an existing output folder (or shard file). Not needed to replace the
    /// experiment's own report, as written by `run` or `merge`.
    #[arg(long)]
    pub(crate) force: bool,
    /// Draw the PNG charts this many times larger (e.g. 2 for print: 1920 pixels wide);
    /// the SVG charts are vector and print at any size.
    #[arg(long, value_name = "FACTOR", default_value = "1")]
    pub(crate) chart_scale: String,
}

impl OutArgs {
    /// `--chart-scale`: a factor from 0.5 to 4.
    pub(crate) fn chart_scale(&self) -> Result<f64> {
        self.chart_scale
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|k| (0.5..=4.0).contains(k))
            .ok_or_else(|| {
                invalid(
                    "--chart-scale",
                    &self.chart_scale,
                    "allowed: a factor from 0.5 to 4 (2 draws PNGs 1920 pixels wide)",
                )
            })
    }

    /// The report folder: `--out`, or `default`. An existing folder is replaced when it is this
    /// experiment's report as the tool wrote it (so an edited experiment runs again without
    /// `--force`), and otherwise refused without `--force`, saying why.
    pub(crate) fn report_folder(
        &self,
        default: impl FnOnce() -> std::path::PathBuf,
        experiment: &str,
    ) -> Result<std::path::PathBuf> {
        let out = self.out.clone().unwrap_or_else(default);
        if out.exists()
            && !self.force
            && let Err(why) = our_report(&out, experiment)
        {
            return Err(invalid(
                "--out",
                &out.display().to_string(),
                &format!(
                    "that {} exists and {why}: give --force to replace it, or another --out",
                    if out.is_dir() { "folder" } else { "file" }
                ),
            ));
        }
        Ok(out)
    }

    /// `--out`, or `default`; refused when it exists and `--force` is not given.
    pub(crate) fn path(
        &self,
        default: impl FnOnce() -> std::path::PathBuf,
    ) -> Result<std::path::PathBuf> {
        let out = self.out.clone().unwrap_or_else(default);
        if out.exists() && !self.force {
            let what = if out.is_dir() { "folder" } else { "file" };
            return Err(invalid(
                "--out",
                &out.display().to_string(),
                &format!("that {what} exists: give --force to replace it, or another --out"),
            ));
        }
        Ok(out)
    }
}

/// Whether `dir` is the report of experiment `name` as `run` or `merge` writes it: a folder of
/// the files a report has (CSV, JSON, Markdown, HTML, PNG, SVG, Parquet) and nothing else, whose
/// `results.json` is a morale-lab report of that experiment. `Err` says what it is not.
pub(crate) fn our_report(dir: &std::path::Path, name: &str) -> std::result::Result<(), String> {
    const KINDS: [&str; 7] = ["csv", "json", "md", "html", "png", "svg", "parquet"];
    if !dir.is_dir() {
        return Err("is not a folder".into());
    }
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot be read ({e})"))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot be read ({e})"))?;
        let path = entry.path();
        let file = entry.file_type().is_ok_and(|t| t.is_file());
        let kind = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !file || !KINDS.contains(&kind) {
            return Err(format!(
                "holds {}, which a report does not",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    let results = std::fs::read_to_string(dir.join("results.json"))
        .map_err(|_| "has no results.json of a report".to_string())?;
    let v: serde_json::Value = serde_json::from_str(&results)
        .map_err(|_| "its results.json is not a report's".to_string())?;
    match v["experiment"]["name"].as_str() {
        Some(n) if v["version"].is_string() && n == name => Ok(()),
        Some(n) if v["version"].is_string() => {
            Err(format!("is the report of another experiment, '{n}'"))
        }
        _ => Err("its results.json is not a report's".into()),
    }
}

/// Where `--chart` writes, and whether as SVG: a `.png` or `.svg` name not already there
/// (unless `force`).
pub(crate) fn chart_target(
    chart: Option<&std::path::PathBuf>,
    force: bool,
) -> Result<Option<(std::path::PathBuf, bool)>> {
    let Some(path) = chart else {
        return Ok(None);
    };
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if ext != "png" && ext != "svg" {
        return Err(invalid(
            "--chart",
            &path.display().to_string(),
            "allowed: a file name ending .png or .svg",
        ));
    }
    if path.exists() && !force {
        return Err(Error::Conflict(format!(
            "{} exists; add --force to replace it",
            path.display()
        )));
    }
    Ok(Some((path.clone(), ext == "svg")))
}

/// Draw `chart` to `path` (SVG or PNG).
pub(crate) fn draw_chart(
    chart: &morale_lab::report::chart::Chart,
    path: &std::path::Path,
    svg: bool,
) -> Result<()> {
    let fail = |e: String| Error::Conflict(format!("could not draw the chart: {e}"));
    let bytes = if svg {
        chart.svg().map_err(fail)?.into_bytes()
    } else {
        chart.png().map_err(fail)?
    };
    write_file(path, &bytes)
}

/// What could not be done to `path` (write, replace, create the parent of), and why: an error
/// of its own kind and exit status, apart from bad input.
fn write_error(action: &str, path: &std::path::Path, e: &std::io::Error) -> Error {
    Error::Write {
        action: action.into(),
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

/// Files being written just now: an interrupt waits for them to be in place (or gone) before
/// it ends the process, so that a forced end never leaves a half-written file behind.
pub(crate) static WRITING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// What an interrupt prints on standard output before the process ends, where the command
/// promised a script an object on every exit (`bench --format json`).
pub(crate) static ON_INTERRUPT: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Counts one write under way while it lives.
pub(crate) struct Writing;

impl Writing {
    pub(crate) fn start() -> Writing {
        WRITING.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Writing
    }
}

impl Drop for Writing {
    fn drop(&mut self) {
        WRITING.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Write `bytes` to `path` through a temporary file beside it, so a failure leaves no half file.
pub(crate) fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    let _writing = Writing::start();
    let fail = |e: std::io::Error| write_error("write", path, &e);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or("chart".into());
    let tmp = path.with_file_name(format!(".{name}.partial-{}", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}

/// Write `files` into a new folder beside `out`, then rename it into place, so an interrupted
/// or failed run leaves no partial folder.
/// Returns the files the folder it replaced held and the new one does not (a Parquet file a
/// build without the `parquet` feature does not write), for the caller to say so.
pub(crate) fn write_folder(
    out: &std::path::Path,
    files: &[morale_lab::experiment::output::OutputFile],
) -> Result<Vec<String>> {
    let _writing = Writing::start();
    let fail = |what: &str, e: std::io::Error| write_error(what, out, &e);
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| fail("create the parent of", e))?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or("report".into());
    let tmp = parent.join(format!(".{name}.partial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir(&tmp).map_err(|e| fail("write", e))?;
    let written = files
        .iter()
        .try_for_each(|f| std::fs::write(tmp.join(&f.name), &f.bytes));
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(fail("write", e));
    }
    let mut dropped: Vec<String> = std::fs::read_dir(out)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| !files.iter().any(|f| &f.name == n))
        .collect();
    dropped.sort();
    if out.exists() {
        let old = parent.join(format!(".{name}.old-{}", std::process::id()));
        std::fs::rename(out, &old).map_err(|e| fail("replace", e))?;
        std::fs::rename(&tmp, out).map_err(|e| fail("replace", e))?;
        let _ = std::fs::remove_dir_all(&old);
    } else {
        std::fs::rename(&tmp, out).map_err(|e| fail("write", e))?;
    }
    Ok(dropped)
}

/// What a report folder's replacement left out, in a line after "wrote N files …" (empty when
/// nothing was): a Parquet file is named with why (this build writes none).
pub(crate) fn dropped_line(dropped: &[String]) -> String {
    if dropped.is_empty() {
        return String::new();
    }
    let parquet = dropped.iter().any(|n| n.ends_with(".parquet"));
    format!(
        "removed {}, which {} not write{}\n",
        dropped.join(", "),
        if parquet {
            "this build does"
        } else {
            "this run does"
        },
        if parquet {
            " (a build with --features parquet writes results.parquet)"
        } else {
            ""
        }
    )
}
