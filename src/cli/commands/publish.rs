//! `publish`: one self-contained page holding every exact answer over the fields left open.

use clap::Args;

use morale_lab::Scenario;
use morale_lab::engine::Control;
use morale_lab::error::Result;

use crate::cli::files::load_mechanic;
use crate::cli::flags::invalid;
use crate::cli::write::write_file;

#[derive(Debug, Args)]
pub(crate) struct PublishArgs {
    /// The scenario (rally, under-fire, melee, charge, engagement, line, test).
    #[arg(value_name = "SCENARIO")]
    pub(crate) scenario: String,
    /// Rule system, or a mechanic file (`path/to/file.rhai`).
    #[arg(long, value_name = "SYSTEM", default_value = "rank-and-file")]
    pub(crate) system: String,
    /// A setting every answer shares (repeatable), as the scenario commands take it.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(crate) sets: Vec<String>,
    /// A rule parameter every answer shares (repeatable), e.g. --rule base_green=4.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub(crate) rules: Vec<String>,
    /// An optional rule in play (repeatable).
    #[arg(long = "option", value_name = "NAME")]
    pub(crate) options: Vec<String>,
    /// A field the reader may change (repeatable): KEY for every value a choice, switch or
    /// small whole number takes, or KEY=VALUES (values and ranges separated by commas, e.g.
    /// lost=0..3, or p_blocked=0,1/6,1/3); or an optional rule's name, left out and in play.
    /// The page holds every combination, at most 5,000, and opens at the value --set, --rule or
    /// --option gives a field (else at its default).
    #[arg(long = "open", value_name = "KEY[=VALUES]", required = true)]
    pub(crate) open: Vec<String>,
    /// The page's title, e.g. the question it answers (default: the system and the situation).
    #[arg(long, value_name = "TEXT")]
    pub(crate) title: Option<String>,
    /// The page to write (HTML).
    #[arg(long, value_name = "FILE")]
    pub(crate) out: std::path::PathBuf,
}

/// `publish`: every answer worked out (refused past the most, with the count), its size said,
/// then the page written whole.
pub(crate) fn run_publish(a: PublishArgs, control: &Control) -> Result<String> {
    use morale_lab::params::{Input, Source};
    let scenario = Scenario::from_name(&a.scenario).ok_or_else(|| {
        invalid(
            "SCENARIO",
            &a.scenario,
            "allowed: test, rally, under-fire, melee, charge, engagement, line",
        )
    })?;
    let pair = |flag: &str, kv: &str| -> Result<(String, String)> {
        kv.split_once('=')
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .filter(|(k, _)| !k.is_empty())
            .ok_or_else(|| invalid(flag, kv, "allowed: KEY=VALUE"))
    };
    let mut inputs = Vec::new();
    for kv in &a.sets {
        let (key, value) = pair("--set", kv)?;
        inputs.push(Input {
            key,
            value,
            source: Source::Set,
        });
    }
    for kv in &a.rules {
        let (key, value) = pair("--rule", kv)?;
        inputs.push(Input::rule(&key, value));
    }
    let system = load_mechanic(&a.system)?;
    let open = a
        .open
        .iter()
        .map(|o| morale_lab::publish::open_field(&system, scenario, o))
        .collect::<Result<Vec<_>>>()?;
    if let Some(t) = &a.title
        && !morale_lab::publish::is_title(t)
    {
        return Err(invalid("--title", t, morale_lab::publish::TITLE_ALLOWED));
    }
    let ask = morale_lab::publish::Ask {
        system: system.clone(),
        scenario,
        inputs,
        options: a.options.clone(),
        title: a.title.clone(),
        open,
        profiles: Vec::new(),
    };
    // The page's command line: what it fixes; each open field's value is the page's to add.
    let is_open = |key: &str| ask.open.iter().any(|o| o.covers(key));
    let key_of = |kv: &str| kv.split_once('=').map_or(kv, |(k, _)| k).trim().to_string();
    let mut command = format!("morale-lab {} --system {}", scenario.name(), a.system);
    for kv in a.sets.iter().filter(|kv| !is_open(&key_of(kv))) {
        command += &format!(" --set {}", morale_lab::explorer::view::shell(kv));
    }
    for kv in a.rules.iter().filter(|kv| !is_open(&key_of(kv))) {
        command += &format!(" --rule {}", morale_lab::explorer::view::shell(kv));
    }
    for o in a.options.iter().filter(|o| !is_open(o)) {
        command += &format!(" --option {o}");
    }
    let page = morale_lab::publish::publish(&ask, &command, env!("CARGO_PKG_VERSION"), control)?;
    eprintln!(
        "publishing {} exact answers, {} KB, to {}",
        morale_lab::report::thousands(page.answers as u64),
        page.html.len().div_ceil(1024),
        a.out.display()
    );
    write_file(&a.out, page.html.as_bytes())?;
    Ok(format!(
        "wrote {} ({} KB): {} exact answers{}\n",
        a.out.display(),
        page.html.len().div_ceil(1024),
        morale_lab::report::thousands(page.answers as u64),
        if page.refused > 0 {
            format!(
                ", {} of them settings the rules refuse (the page says why)",
                page.refused
            )
        } else {
            String::new()
        }
    ))
}
