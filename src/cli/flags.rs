//! The values the command line takes, each checked in one place: the allowed formats, systems
//! and samplers (for help, completion and "did you mean"), and the parsers of numbers, seeds,
//! trials, threads, seconds and levels, each refusing with one line that says what is allowed.

use clap::builder::{PossibleValue, PossibleValuesParser};

use morale_lab::Sampler;
use morale_lab::error::{Error, Result};
use morale_lab::params::parse_int;
use morale_lab::report::Format;
use morale_lab::system;

/// The output formats, for `--format`'s help, completion and "did you mean".
pub(crate) fn formats() -> PossibleValuesParser {
    PossibleValuesParser::new(format_values())
}

/// The output formats with their help.
pub(crate) fn format_values() -> Vec<PossibleValue> {
    vec![
        PossibleValue::new("text").help("aligned plain text for the terminal"),
        PossibleValue::new("csv").help("comma-separated values with a header row"),
        PossibleValue::new("md")
            .alias("markdown")
            .help("Markdown tables, ready for a rulebook or a blog"),
        PossibleValue::new("json").help("one JSON document with every number"),
    ]
}

/// The odds sheet's formats: the output formats and a print-ready page.
pub(crate) fn odds_formats() -> PossibleValuesParser {
    let mut values = format_values();
    values
        .push(PossibleValue::new("html").help("a print-ready quick-reference page (A4 or Letter)"));
    PossibleValuesParser::new(values)
}

/// The rule systems, for `--system`'s and `odds`' help, completion and "did you mean".
pub(crate) fn systems() -> SystemParser {
    SystemParser(PossibleValuesParser::new(
        system::systems()
            .into_iter()
            .map(|s| PossibleValue::new(s.name()).help(s.title())),
    ))
}

/// A system's name, or the path of a mechanic file (ending in `.rhai`): the names complete and
/// are suggested as the built-in list; a file is checked when it is loaded.
#[derive(Clone)]
pub(crate) struct SystemParser(PossibleValuesParser);

impl clap::builder::TypedValueParser for SystemParser {
    type Value = String;
    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> std::result::Result<String, clap::Error> {
        match value.to_str() {
            Some(v) if morale_lab::mechanic::is_file(v) => Ok(v.to_string()),
            _ => self.0.parse_ref(cmd, arg, value),
        }
    }
    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        self.0.possible_values()
    }
}

/// The Monte Carlo samplers.
pub(crate) fn samplers() -> PossibleValuesParser {
    PossibleValuesParser::new([
        PossibleValue::new("table")
            .help("each turn's exact outcome distribution, compiled from the rules (fast)"),
        PossibleValue::new("dice").help("the rules code rolls every die (the same probabilities)"),
    ])
}

pub(crate) fn invalid(what: &str, value: &str, allowed: &str) -> Error {
    Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed: allowed.into(),
    }
}

pub(crate) fn int_in(what: &str, raw: &str, min: i64, max: i64) -> Result<i64> {
    parse_int(raw)
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| {
            invalid(
                what,
                raw,
                &format!("allowed: a whole number from {min} to {max}"),
            )
        })
}

/// A number of seconds from `min` to `max`.
pub(crate) fn seconds_in(what: &str, raw: &str, min: f64, max: f64) -> Result<f64> {
    raw.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| (min..=max).contains(x))
        .ok_or_else(|| {
            invalid(
                what,
                raw,
                &format!("allowed: a number of seconds from {min} to {max}"),
            )
        })
}

pub(crate) fn format_of(raw: &str) -> Result<Format> {
    Format::parse(raw).ok_or_else(|| invalid("--format", raw, "allowed: text, csv, md, json"))
}

/// `w` as a shell reads it back: bare when it holds only safe characters, else single-quoted.
pub(crate) fn shell_word(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=./,:+%@".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// A seed: a whole number from 0 to 2^64−1.
pub(crate) fn seed_of(raw: &str) -> Result<u64> {
    parse_int(raw)
        .filter(|&s| s >= 0)
        .map(|s| s as u64)
        .or_else(|| raw.trim().parse::<u64>().ok())
        .ok_or_else(|| invalid("--seed", raw, "allowed: a whole number from 0 to 2^64−1"))
}

/// Trials: a whole number from 1 to 10^15 (1e7 and 10_000_000 both work).
pub(crate) fn trials_of(raw: &str) -> Result<u64> {
    Ok(int_in("--trials", raw, 1, 1_000_000_000_000_000)? as u64)
}

pub(crate) fn threads_of(threads: &Option<String>) -> Result<Option<usize>> {
    match threads {
        None => Ok(None),
        Some(t) => Ok(Some(int_in("--threads", t, 1, 1024)? as usize)),
    }
}

/// A confidence level as typed, checked.
pub(crate) fn confidence_in(raw: &str) -> Result<f64> {
    raw.trim()
        .parse::<f64>()
        .ok()
        .filter(|c| *c >= 0.5 && *c < 1.0)
        .ok_or_else(|| {
            invalid(
                "--confidence",
                raw,
                "allowed: a level from 0.5 up to (not including) 1, e.g. 0.95",
            )
        })
}

/// `--sampler`: how Monte Carlo draws a turn.
pub(crate) fn sampler_of(raw: &str) -> Result<Sampler> {
    Sampler::parse(raw).ok_or_else(|| invalid("--sampler", raw, "allowed: table, dice"))
}

/// `--exact-budget`: the seconds an exact solution may take (default: the library's).
pub(crate) fn exact_budget_of(raw: Option<&str>) -> Result<f64> {
    match raw {
        None => Ok(morale_lab::DEFAULT_EXACT_BUDGET),
        Some(s) => seconds_in("--exact-budget", s, 0.1, 86_400.0),
    }
}
