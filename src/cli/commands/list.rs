//! `list`: systems, scenarios, optional rules and every parameter; or a rule set's rules.

use clap::Args;

use morale_lab::error::Result;

use crate::cli::files::{load_mechanic, load_ruleset};
use crate::cli::flags::{format_of, formats, systems};

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// Only this system, or a mechanic file (`path/to/file.rhai`).
    #[arg(long, value_name = "SYSTEM", value_parser = systems())]
    pub(crate) system: Option<String>,
    /// Instead: the effective rules of this rule-set file (every rule parameter, what it
    /// changes from the source, and its optional rules).
    #[arg(long = "rules", value_name = "FILE", conflicts_with = "system")]
    pub(crate) rules_file: Option<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = formats())]
    pub(crate) format: String,
}

/// `list`: everything a system takes, or the effective rules of a rule-set file.
pub(crate) fn run_list(a: ListArgs) -> Result<String> {
    match &a.rules_file {
        Some(file) => crate::list::render_ruleset(&load_ruleset(file)?, format_of(&a.format)?),
        None => {
            let system = a.system.as_deref().map(load_mechanic).transpose()?;
            crate::list::render(system.as_deref(), format_of(&a.format)?)
        }
    }
}
