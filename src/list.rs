//! `morale-lab list`: systems, scenarios, optional rules and parameters, from the library's
//! own tables (so the list cannot drift from what the code accepts).

use serde_json::json;

use morale_lab::Scenario;
use morale_lab::error::Result;
use morale_lab::params;
use morale_lab::report::{Format, json_text};
use morale_lab::ruleset::RuleSet;
use morale_lab::system::{self, RuleSystem};

/// Render the list for one system or all, in any of the single-run formats.
pub fn render(only: Option<&str>, format: Format) -> Result<String> {
    let systems: Vec<&dyn RuleSystem> = match only {
        Some(name) => vec![system::find(name)?],
        None => system::systems(),
    };
    Ok(match format {
        Format::Json => json_list(&systems),
        Format::Csv => csv_list(&systems),
        Format::Text => text_list(&systems, false),
        Format::Markdown => text_list(&systems, true),
    })
}

/// One row per scenario, optional rule and parameter of each system: `system`, `kind`
/// (`scenario`, `option` or `param`), `name`, `flag`, `default`, `allowed`, `rule`,
/// `scenarios`, `meaning`.
fn csv_list(systems: &[&dyn RuleSystem]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let head = [
        "system",
        "kind",
        "name",
        "flag",
        "default",
        "allowed",
        "rule",
        "scenarios",
        "meaning",
    ];
    let mut rows: Vec<[String; 9]> = Vec::new();
    for s in systems {
        let row = |kind: &str,
                   name: &str,
                   flag: &str,
                   default: &str,
                   allowed: &str,
                   rule: &str,
                   scenarios: String,
                   meaning: &str| {
            [
                s.name(),
                kind,
                name,
                flag,
                default,
                allowed,
                rule,
                &scenarios,
                meaning,
            ]
            .map(String::from)
        };
        for &n in s.scenarios() {
            let what = n.about().what;
            rows.push(row(
                "scenario",
                n.name(),
                "",
                "",
                "",
                s.rules(),
                String::new(),
                what,
            ));
        }
        for o in s.options() {
            rows.push(row(
                "option",
                o.name,
                "--option",
                "off",
                "on, off",
                o.rule,
                Scenario::join(s.scenarios(), " "),
                o.meaning,
            ));
        }
        for p in s.rule_params() {
            rows.push(row(
                "rule",
                p.key,
                "--rule",
                p.default,
                &p.kind.allowed(),
                p.rule,
                Scenario::join(s.scenarios(), " "),
                p.meaning,
            ));
        }
        for p in system::all_params(*s) {
            rows.push(row(
                "param",
                p.key,
                p.flag.unwrap_or(""),
                &system::default_text(*s, p),
                &p.kind.allowed(),
                p.rule,
                Scenario::join(p.scenarios, " "),
                p.meaning,
            ));
        }
        for o in s.not_modelled() {
            rows.push(row(
                "not-modelled",
                "",
                "",
                "",
                "",
                o.rules,
                Scenario::join(o.scenarios, " "),
                o.what,
            ));
        }
    }
    w.write_record(head).expect("writing to memory");
    for r in rows {
        w.write_record(&r).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("UTF-8 in, UTF-8 out")
}

fn json_list(systems: &[&dyn RuleSystem]) -> String {
    let v = json!({
        "version": morale_lab::VERSION,
        "scenarios": Scenario::ALL.iter().map(|n| json!({
            "name": n, "trial": n.about().what, "outcomes": n.about().outcomes,
        })).collect::<Vec<_>>(),
        "systems": systems.iter().map(|s| json!({
            "name": s.name(),
            "title": s.title(),
            "mechanic_file": s.source(),
            "rules": s.rules(),
            "scenarios": s.scenarios(),
            "holes_in_the_line": s.holes(),
            "unit_spec_keywords": s.specs(),
            "options": s.options().iter().map(|o| json!({
                "name": o.name, "rule": o.rule, "meaning": o.meaning,
            })).collect::<Vec<_>>(),
            "rule_params": s.rule_params().iter().map(|p| json!({
                "key": p.key, "default": p.default, "allowed": p.kind.allowed(),
                "meaning": p.meaning, "rule": p.rule,
            })).collect::<Vec<_>>(),
            "not_modelled": s.not_modelled().iter().map(|o| json!({
                "what": o.what, "rule": o.rules, "scenarios": o.scenarios,
            })).collect::<Vec<_>>(),
            "params": system::all_params(*s).iter().map(|p| json!({
                "key": p.key, "flag": p.flag, "default": system::default_text(*s, p),
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
    // The scenarios of the systems listed.
    for n in Scenario::ALL
        .into_iter()
        .filter(|n| systems.iter().any(|s| s.scenarios().contains(n)))
    {
        let about = n.about();
        out += &item(format!(
            "{n}: {} Outcomes: {}.",
            about.what,
            about.outcomes.join(", ")
        ));
    }
    out += "\n";
    for s in systems {
        out += &h(2, &format!("System {} ({})", s.name(), s.rules()));
        out += &format!("{}\n", s.title());
        if let Some(file) = s.source() {
            out += &format!("Mechanic file: {file}\n");
        }
        out += &format!("Scenarios: {}\n", Scenario::join(s.scenarios(), ", "));
        out += &format!(
            "Holes in the line (under-fire empty_turns): {}\n",
            s.holes()
        );
        if !s.specs().is_empty() {
            out += &format!("Unit specs (--attacker, --defender): {}\n", s.specs());
        }
        out += "\n";
        out += &h(3, "Optional rules (--option NAME)");
        for o in s.options() {
            out += &item(format!("{} [{}]: {}", o.name, o.rule, o.meaning));
        }
        out += "\n";
        out += &h(
            3,
            "Rule parameters (--rule KEY=VALUE; the default is the source's value)",
        );
        if s.rule_params().is_empty() {
            out += &item("none yet: this system's numbers are not parameters".into());
        }
        for p in s.rule_params() {
            out += &item(format!(
                "{} = {} [{}]: {}. Allowed: {}.",
                p.key,
                p.default,
                p.rule,
                p.meaning,
                p.kind.allowed()
            ));
        }
        out += "\n";
        out += &h(
            3,
            "Parameters of the situation (--set KEY=VALUE, or the flag)",
        );
        for p in system::all_params(*s) {
            let flag = p.flag.map(|f| format!(" ({f})")).unwrap_or_default();
            let default = match system::default_text(*s, p) {
                d if d.is_empty() => "unset".to_string(),
                d => d,
            };
            out += &item(format!(
                "{}{flag} = {default} [{}; {}]: {}. Allowed: {}.",
                p.key,
                p.rule,
                Scenario::join(p.scenarios, ", "),
                p.meaning,
                p.kind.allowed()
            ));
        }
        out += "\n";
        if !s.not_modelled().is_empty() {
            out += &h(3, "Not modelled (what and why: docs/RULES.md §5)");
            for o in s.not_modelled() {
                out += &item(format!(
                    "{} [{}; {}]",
                    o.what,
                    o.rules,
                    Scenario::join(o.scenarios, ", ")
                ));
            }
            out += "\n";
        }
    }
    out
}

/// `list --rules FILE`: the effective rules of a rule set — every rule parameter of its
/// system with its value, the source's and whether it changed, and its optional rules.
pub fn render_ruleset(set: &RuleSet, format: Format) -> Result<String> {
    let sys = system::find(&set.system)?;
    let p = params::resolve(
        &[],
        sys.rule_params(),
        sys.name(),
        sys.scenarios()[0],
        &set.inputs(),
        &[],
    )?;
    let values = p.rules_json();
    let text = |k: &str| values.get(k).map(json_text).unwrap_or_default();
    let changed: Vec<&str> = p.rules_changed().iter().map(|c| c.key).collect();
    let files: Vec<&str> = set.files.iter().map(|(f, _)| f.as_str()).collect();
    Ok(match format {
        Format::Json => {
            let v = json!({
                "name": set.name,
                "description": set.description,
                "system": set.system,
                "files": files,
                "options": set.options,
                "rules": sys.rule_params().iter().map(|d| json!({
                    "key": d.key, "value": text(d.key), "source": d.default,
                    "changed": changed.contains(&d.key), "rule": d.rule, "meaning": d.meaning,
                })).collect::<Vec<_>>(),
            });
            let mut s = serde_json::to_string_pretty(&v).expect("serialises");
            s.push('\n');
            s
        }
        Format::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(["key", "value", "source", "changed", "rule", "meaning"])
                .expect("writing to memory");
            for d in sys.rule_params() {
                let changed = if changed.contains(&d.key) {
                    "true"
                } else {
                    "false"
                };
                w.write_record([d.key, &text(d.key), d.default, changed, d.rule, d.meaning])
                    .expect("writing to memory");
            }
            for o in &set.options {
                w.write_record(["option", o, "off", "true", "", ""])
                    .expect("writing to memory");
            }
            String::from_utf8(w.into_inner().expect("writing to memory"))
                .expect("UTF-8 in, UTF-8 out")
        }
        Format::Text | Format::Markdown => {
            let md = format == Format::Markdown;
            let item = |s: String| {
                if md {
                    format!("- {s}\n")
                } else {
                    format!("  {s}\n")
                }
            };
            let mut out = if md {
                format!("## Rule set {}\n\n", set.name)
            } else {
                format!(
                    "Rule set {}\n{}\n",
                    set.name,
                    "=".repeat(9 + set.name.chars().count())
                )
            };
            if !set.description.is_empty() {
                out += &format!("{}\n", set.description);
            }
            out += &format!("System: {}\n", set.system);
            out += &format!("Files: {}\n", files.join(" ← "));
            out += &format!(
                "Optional rules: {}\n",
                if set.options.is_empty() {
                    "none".to_string()
                } else {
                    set.options.join(", ")
                }
            );
            out += &format!(
                "Changed from the source: {}\n\n",
                if changed.is_empty() {
                    "nothing (the rules as written)".to_string()
                } else {
                    changed.join(", ")
                }
            );
            for d in sys.rule_params() {
                let mark = if changed.contains(&d.key) {
                    format!(" (CHANGED; source: {})", d.default)
                } else {
                    String::new()
                };
                out += &item(format!(
                    "{} = {}{mark} [{}]: {}.",
                    d.key,
                    text(d.key),
                    d.rule,
                    d.meaning
                ));
            }
            out
        }
    })
}
