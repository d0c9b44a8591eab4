//! `completions` and `man`: the shell completion scripts and the man page, drawn from the
//! command line's own definition.

use clap::Args;

use morale_lab::error::{Error, Result};

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, value_name = "SHELL")]
    pub(crate) shell: clap_complete::Shell,
}

/// `completions SHELL`: the completion script of `cmd` (the whole command tree).
pub(crate) fn run_completions(a: CompletionsArgs, mut cmd: clap::Command) -> Result<String> {
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "morale-lab", &mut out);
    Ok(String::from_utf8(out).expect("completion scripts are UTF-8"))
}

/// `man`: the man page in roff of `cmd` (the whole command tree).
pub(crate) fn run_man(cmd: clap::Command) -> Result<String> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut out)
        .map_err(|e| Error::Conflict(format!("cannot render the man page: {e}")))?;
    Ok(String::from_utf8(out).expect("roff is UTF-8"))
}
