//! `new`: a commented experiment file to start from.

use clap::Args;

use morale_lab::error::{Error, Result};

use crate::cli::flags::invalid;
use crate::cli::write::write_file;

#[derive(Debug, Args)]
pub(crate) struct NewArgs {
    /// The experiment's name (letters, digits, '-' and '_'), or a path ending in .toml.
    #[arg(value_name = "NAME")]
    pub(crate) name: std::path::PathBuf,
    /// Replace the file if it exists.
    #[arg(long)]
    pub(crate) force: bool,
}

/// `new`: write a commented experiment file to start from.
pub(crate) fn run_new(a: NewArgs) -> Result<String> {
    let path = if a.name.extension().is_some_and(|e| e == "toml") {
        a.name.clone()
    } else {
        a.name.with_extension("toml")
    };
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(invalid(
            "NAME",
            &a.name.display().to_string(),
            "the name names the report folder: letters, digits, '-' and '_' only (e.g. my-question)",
        ));
    }
    if path.exists() && !a.force {
        return Err(Error::Conflict(format!(
            "{} exists: choose another name, or --force to replace it",
            path.display()
        )));
    }
    write_file(&path, morale_lab::experiment::template(&name).as_bytes())?;
    Ok(format!(
        "wrote {}: edit the question and the variants, then `morale-lab run {}`\n",
        path.display(),
        path.display()
    ))
}
