//! `morale-lab list`: systems, scenarios, optional rules and parameters, from the library's
//! own tables (so the list cannot drift from what the code accepts).

use serde_json::json;

use morale_lab::error::{Error, Result};
use morale_lab::system::{self, RuleSystem, SCENARIO_INFO, SYSTEMS};

/// Render the list for one system or all, as text, md or json.
pub fn render(only: Option<&str>, format: &str) -> Result<String> {
    let systems: Vec<&dyn RuleSystem> = match only {
        Some(name) => vec![system::find(name)?],
        None => SYSTEMS.to_vec(),
    };
    match format {
        "json" => Ok(json_list(&systems)),
        "text" | "md" | "markdown" => Ok(text_list(&systems, format != "text")),
        other => Err(Error::Invalid {
            what: "--format".into(),
            value: other.into(),
            allowed: "allowed: text, md, json".into(),
        }),
    }
}

fn json_list(systems: &[&dyn RuleSystem]) -> String {
    let v = json!({
        "version": morale_lab::VERSION,
        "scenarios": SCENARIO_INFO.iter().map(|(n, what, outcomes)| json!({
            "name": n, "trial": what, "outcomes": outcomes,
        })).collect::<Vec<_>>(),
        "systems": systems.iter().map(|s| json!({
            "name": s.name(),
            "title": s.title(),
            "rules": s.rules(),
            "scenarios": s.scenarios(),
            "holes_in_the_line": s.holes(),
            "unit_spec_keywords": s.specs(),
            "options": s.options().iter().map(|o| json!({
                "name": o.name, "rule": o.rule, "meaning": o.meaning,
            })).collect::<Vec<_>>(),
            "params": system::all_params(*s).iter().map(|p| json!({
                "key": p.key, "flag": p.flag, "default": p.default,
                "allowed": p.kind.allowed(), "meaning": p.meaning, "rule": p.rule,
                "scenarios": p.scenarios,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let mut s = serde_json::to_string_pretty(&v).expect("serialises");
    s.push('\n');
    s
}

fn text_list(systems: &[&dyn RuleSystem], md: bool) -> String {
    let h = |level: usize, t: &str| {
        if md {
            format!("{} {t}\n\n", "#".repeat(level))
        } else {
            format!(
                "{}\n{}\n",
                t,
                if level <= 2 {
                    "=".repeat(t.chars().count())
                } else {
                    "-".repeat(t.chars().count())
                }
            )
        }
    };
    let item = |s: String| {
        if md {
            format!("- {s}\n")
        } else {
            format!("  {s}\n")
        }
    };
    let mut out = h(2, "Scenarios");
    for (n, what, outcomes) in SCENARIO_INFO {
        out += &item(format!("{n}: {what} Outcomes: {}.", outcomes.join(", ")));
    }
    out += "\n";
    for s in systems {
        out += &h(2, &format!("System {} ({})", s.name(), s.rules()));
        out += &format!("{}\n", s.title());
        out += &format!("Scenarios: {}\n", s.scenarios().join(", "));
        out += &format!(
            "Holes in the line (under-fire empty_turns): {}\n",
            s.holes()
        );
        out += &format!("Unit specs (--attacker, --defender): {}\n\n", s.specs());
        out += &h(3, "Optional rules (--option NAME)");
        for o in s.options() {
            out += &item(format!("{} [{}]: {}", o.name, o.rule, o.meaning));
        }
        out += "\n";
        out += &h(3, "Parameters (--set KEY=VALUE, or the flag)");
        for p in system::all_params(*s) {
            let flag = p.flag.map(|f| format!(" ({f})")).unwrap_or_default();
            let default = if p.default.is_empty() {
                "unset"
            } else {
                p.default
            };
            out += &item(format!(
                "{}{flag} = {default} [{}; {}]: {}. Allowed: {}.",
                p.key,
                p.rule,
                p.scenarios.join(", "),
                p.meaning,
                p.kind.allowed()
            ));
        }
        out += "\n";
    }
    out
}
