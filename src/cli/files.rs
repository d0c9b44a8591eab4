//! The files a user names (rule sets, experiments, mechanic files, points files), read with one
//! line saying why one cannot be, and the rules a command's flags add up to.

use morale_lab::error::{Error, Result};
use morale_lab::params::Input;

/// The text of a file a user named, or one line saying why it cannot be read.
pub(crate) fn read_text(file: &std::path::Path, what: &str) -> Result<String> {
    let path = file.display().to_string();
    let bytes = std::fs::read(file).map_err(|e| Error::File {
        path: path.clone(),
        line: 0,
        key: String::new(),
        message: if file.is_dir() {
            format!("is a folder, not {what}")
        } else {
            format!("cannot be read: {e}")
        },
    })?;
    String::from_utf8(bytes).map_err(|_| Error::File {
        path,
        line: 0,
        key: String::new(),
        message: "is not UTF-8 text".into(),
    })
}

/// The system, rule inputs and optional rules of `--system` (or the positional system, named
/// `flag`), `--rules FILE` and `--rule KEY=VALUE`: the file's, then the flags' over them. With
/// neither a system nor a file, Rank & File.
///
/// # Errors
/// A file that cannot be read or parsed, a `--rule` that is not KEY=VALUE, and a system that
/// differs from the file's.
pub(crate) fn rules_of(
    (system, flag): (Option<&String>, &str),
    file: Option<&std::path::Path>,
    rules: &[String],
) -> Result<(String, Vec<Input>, Vec<String>)> {
    let (mut inputs, mut options) = (Vec::new(), Vec::new());
    let system = match file {
        None => load_mechanic(&system.cloned().unwrap_or_else(|| "rank-and-file".into()))?,
        Some(file) => {
            let set = load_ruleset(file)?;
            // The same system, however it is named (a mechanic file by another path).
            let same = |s: &String| load_mechanic(s).is_ok_and(|name| name == set.system);
            if let Some(sys) = system.filter(|s| !same(s)) {
                return Err(Error::Conflict(format!(
                    "{flag} {sys} and --rules {} (a rule set of {}) name two systems: give one",
                    file.display(),
                    set.system
                )));
            }
            inputs.extend(set.inputs());
            options.extend(set.options.iter().cloned());
            set.system
        }
    };
    for s in rules {
        inputs.push(Input::parse_rule(s)?);
    }
    Ok((system, inputs, options))
}

/// A rule-set file, parsed with the files it names.
pub(crate) fn load_ruleset(file: &std::path::Path) -> Result<morale_lab::ruleset::RuleSet> {
    let source = read_text(file, "a rule-set file")?;
    morale_lab::ruleset::RuleSet::parse(&file.display().to_string(), &source, &mut read_named)
}

/// A file a rule set, an experiment or a mechanic file names, by what it is.
pub(crate) fn read_named(p: &str) -> Result<String> {
    let what = if morale_lab::mechanic::is_file(p) {
        "a mechanic file"
    } else {
        "a rule-set file"
    };
    read_text(std::path::Path::new(p), what)
}

/// The name `system` goes by: a system's own, or, when it names a mechanic file (`--system
/// path/to/file.rhai`), the file loaded (under the path it was first loaded by).
pub(crate) fn load_mechanic(system: &str) -> Result<String> {
    if morale_lab::mechanic::is_file(system) {
        return Ok(morale_lab::mechanic::load_with(system, &mut read_named)?
            .name()
            .to_string());
    }
    Ok(system.to_string())
}

/// An experiment file, parsed, and its text (a shard carries it).
pub(crate) fn load_experiment(
    file: &std::path::Path,
) -> Result<(morale_lab::experiment::Experiment, String)> {
    let path = file.display().to_string();
    let source = read_text(file, "an experiment file")?;
    let exp = morale_lab::experiment::Experiment::parse_with(&path, &source, &mut read_named)?;
    Ok((exp, source))
}
