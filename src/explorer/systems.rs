//! The explorer's systems: the tables of every system it offers for the page's form
//! (`/api/systems`), an offered file changed on disk described as it now is, and one system's
//! tables, an edited file's included (`/api/describe`).

use serde_json::{Value, json};

use crate::params::{Kind, ParamDef};
use crate::system::{self, RuleSystem};

use super::files::short_hash;
use super::response::{Failure, unrenamed};
use super::view::Setting;
use super::{Explorer, value};

/// A system's tables for the page's form: its scenarios with their parameters (defaults as
/// the scenario has them), its rule parameters with the source's values, its optional rules.
fn describe_system(s: &dyn RuleSystem, text: Option<&str>) -> Value {
    let params = system::all_params(s);
    let scenarios: Vec<Value> = s
        .scenarios()
        .iter()
        .map(|sc| {
            let defaults = s.defaults(*sc, &[]);
            let ps: Vec<Value> = params
                .iter()
                .filter(|p| p.scenarios.contains(sc))
                .filter(|p| !s.rule_params().iter().any(|r| r.key == p.key))
                .map(|p| {
                    let default = defaults
                        .iter()
                        .find(|(k, _)| *k == p.key)
                        .map_or(p.default.to_string(), |(_, v)| v.clone());
                    let mut v = param_json(p, &default, s.specs());
                    // The 25% rules have no shaken state: their policy's target is a retreating
                    // unit, as the play box names it (explorer trial 110: "A charges a shaken
                    // target" ticked beside "as set (charge a retreating target …)").
                    if p.key == "charge_when_shaken" && s.name() == "effectiveness" {
                        v["label"] = json!("A charges a retreating target");
                    }
                    v
                })
                .collect();
            json!({
                "name": sc.name(),
                "help": s.scenario_help(*sc),
                "params": ps,
            })
        })
        .collect();
    json!({
        "name": s.name(),
        "title": s.title(),
        // The name the reports give it ("The 25% effectiveness rules"): the whole title did
        // not fit the page's list and was cut mid-word.
        "short": crate::labels::capitalised(&crate::labels::system(s.name())),
        "rules": s.rules(),
        "mechanic": crate::mechanic::is_file(s.name()),
        "text": text,
        "scenarios": scenarios,
        "rule_params": s.rule_params().iter().map(|p| param_json(p, p.default, s.specs())).collect::<Vec<_>>(),
        "options": s.options().iter().map(|o| json!({ "name": o.name, "rule": o.rule, "meaning": o.meaning })).collect::<Vec<_>>(),
    })
}

/// A parameter as the page shows it. A unit spec's meaning points to "Unit specs", a heading
/// of `morale-lab list` the page does not have: there it names the words a spec takes (`specs`)
/// itself (explorer trial 49: "(see Unit specs)" led nowhere).
fn param_json(p: &ParamDef, default: &str, specs: &str) -> Value {
    let words = |t: &str| match (&p.kind, specs.is_empty()) {
        (Kind::Spec(_), false) => t
            .replace("(see Unit specs)", &format!("(its words: {specs})"))
            .replace(", as --attacker", ", in the attacking unit's words"),
        _ => t.to_string(),
    };
    let (mut meaning, allowed) = (words(p.meaning), words(&p.kind.allowed()));
    // The page shows a field's meaning and what it allows together: a unit spec's words are
    // said once, in what it allows, not again in its meaning (the attacking unit's help listed
    // them twice, a designer's trial): the meaning is the unit's part alone, "the attacking
    // (charging) unit".
    if matches!(p.kind, Kind::Spec(_))
        && allowed.contains("(its words: ")
        && let Some((unit, _)) = meaning.split_once(": ")
    {
        meaning = unit.to_string();
    }
    let (kind, extra) = match p.kind {
        Kind::Int { min, max } => ("int", json!({ "min": min, "max": max })),
        Kind::Real { min, max } => ("real", json!({ "min": min, "max": max })),
        Kind::Bool => ("bool", Value::Null),
        Kind::Choice(c) => ("choice", json!({ "choices": c })),
        Kind::Dist => ("dist", Value::Null),
        Kind::Prob => ("prob", Value::Null),
        Kind::Spec(_) => ("spec", Value::Null),
    };
    let mut v = json!({
        "key": p.key,
        "label": crate::params::label(p.key),
        "flag": p.flag,
        "kind": kind,
        "allowed": allowed,
        "default": default,
        "meaning": meaning,
        "rule": p.rule,
    });
    if let (Some(obj), Value::Object(more)) = (v.as_object_mut(), extra) {
        obj.extend(more);
    }
    v
}

impl Explorer {
    /// Every system offered: built-in ones, then the mechanic files (broken ones with why).
    pub(super) fn systems_json(&self) -> Value {
        let mut list: Vec<Value> = system::systems()
            .into_iter()
            .map(|s| describe_system(s, None))
            .collect();
        for (path, text) in &self.offered() {
            // Changed on disk, or a file it extends did: described as it now is (its own
            // tables), under its own path, with the bases that changed and a stamp of the texts
            // it runs (the page follows a change of either).
            let bases = self.bases_changed(path);
            if let Some(now) = self
                .text_now(path)
                .filter(|t| t != text || !bases.is_empty())
            {
                let stamp = short_hash(&format!("{now}{}", self.disk_stamp()));
                let setting = Setting {
                    system: path.clone(),
                    ..Setting::default()
                };
                match self.system_of(&setting, "") {
                    Ok((name, _hold)) => {
                        if let Ok(s) = system::find(&name) {
                            let mut d = describe_system(s, Some(&now));
                            d["name"] = json!(path);
                            d["changed_on_disk"] = json!(true);
                            d["bases_changed"] = json!(bases);
                            d["stamp"] = json!(stamp);
                            list.push(unrenamed(d));
                        }
                    }
                    Err(f) => list.push(json!({ "name": path, "mechanic": true, "text": now, "error": f.message, "changed_on_disk": true, "bases_changed": bases, "stamp": stamp })),
                }
                continue;
            }
            let broken = self.broken.read().unwrap_or_else(|e| e.into_inner());
            match broken.get(path) {
                Some(why) => {
                    list.push(json!({ "name": path, "mechanic": true, "text": text, "error": why }))
                }
                None => {
                    if let Ok(s) = system::find(path) {
                        list.push(describe_system(s, Some(text)));
                    }
                }
            }
        }
        json!({
            "systems": list,
            "limits": {
                "max_trials": self.limits.max_trials,
                "max_seconds": self.limits.max_seconds,
            },
            "files_version": self.files_version(),
            "version": crate::report::VERSION,
        })
    }

    /// `/api/describe`: one system's tables, an edited mechanic file's included (`system`,
    /// `code`).
    pub(super) fn describe(
        &self,
        pairs: &[(String, String)],
    ) -> std::result::Result<Value, Failure> {
        let setting = Setting {
            system: value(pairs, "system")
                .unwrap_or("rank-and-file")
                .to_string(),
            code: value(pairs, "code").map(str::to_string),
            ..Setting::default()
        };
        let (name, _hold) = self.system_of(&setting, "")?;
        let s = system::find(&name).map_err(|e| Failure::of(&e, ""))?;
        Ok(describe_system(s, setting.code.as_deref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every parameter of every built-in system has a label written for it, short enough for
    /// the form's column; a mechanic file's own parameter gets its key in words.
    #[test]
    fn every_built_in_parameter_has_a_short_label() {
        for s in system::systems() {
            let d = describe_system(s, None);
            let mut params: Vec<&Value> = d["rule_params"].as_array().unwrap().iter().collect();
            for sc in d["scenarios"].as_array().unwrap() {
                params.extend(sc["params"].as_array().unwrap());
            }
            assert!(params.len() > 10, "{}", s.name());
            for p in params {
                let key = p["key"].as_str().unwrap();
                assert!(
                    crate::params::has_label(key),
                    "{}: {key} has no label",
                    s.name()
                );
                let label = p["label"].as_str().unwrap();
                assert!(label.len() <= 30 && !label.contains('_'), "{key}: {label}");
            }
        }
        assert_eq!(
            crate::params::label("hit_points_machine_gun"),
            "Hits to lose a machine gun"
        );
        assert_eq!(crate::params::label("shaken_at"), "Shaken at");
    }

    /// A unit spec's meaning names the words a spec takes: the page has no "Unit specs" to see.
    #[test]
    fn a_unit_spec_names_its_words_on_the_page() {
        let mut specs = 0;
        for s in system::systems() {
            let d = describe_system(s, None);
            for sc in d["scenarios"].as_array().unwrap() {
                for p in sc["params"].as_array().unwrap() {
                    let meaning = p["meaning"].as_str().unwrap();
                    let allowed = p["allowed"].as_str().unwrap();
                    for said in [meaning, allowed] {
                        assert!(!said.contains("see Unit specs"), "{said}");
                        assert!(!said.contains("--attacker"), "{said}");
                    }
                    if p["kind"] == "spec" && (p["key"] == "attacker" || p["key"] == "defender") {
                        specs += 1;
                        assert!(allowed.contains("(its words: "), "{allowed}");
                    }
                }
            }
        }
        assert!(specs > 0);
        let rf = describe_system(system::find("rank-and-file").unwrap(), None);
        let attacker = rf["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|sc| sc["params"].as_array().unwrap())
            .find(|p| p["key"] == "attacker")
            .unwrap();
        assert!(
            attacker["allowed"]
                .as_str()
                .unwrap()
                .contains("(its words: veteran, regular, green, infantry, cavalry"),
            "{attacker}"
        );
    }

    /// A unit spec's help says its words once: its meaning names the unit, what it allows
    /// lists the words (the attacking unit's help listed them twice, a designer's trial).
    #[test]
    fn a_unit_specs_words_are_said_once() {
        let mut seen = 0;
        for s in system::systems() {
            let d = describe_system(s, None);
            for sc in d["scenarios"].as_array().unwrap() {
                for p in sc["params"].as_array().unwrap() {
                    if p["kind"] != "spec" || !(p["key"] == "attacker" || p["key"] == "defender") {
                        continue;
                    }
                    seen += 1;
                    let (meaning, allowed) = (
                        p["meaning"].as_str().unwrap(),
                        p["allowed"].as_str().unwrap(),
                    );
                    let help = format!("{meaning} \u{2014} allowed: {allowed}");
                    for word in ["(its words: ", "stands=N", "pips=N", "lost=N", "keywords"] {
                        assert!(help.matches(word).count() <= 1, "{word} twice: {help}");
                    }
                    assert!(
                        meaning.ends_with("unit") || meaning.contains("unit,"),
                        "{meaning}"
                    );
                }
            }
        }
        assert!(seen >= 6);
    }
}
