//! The explorer's written files: what an answer hands the reader to run the view again: each
//! profile's command line, the rule-set and experiment files, and a search's `balance` command.

use serde_json::{Value, json};

use super::view::{self, Profile, Setting, View};

/// A profile as the experiment runs it: its link prefix, the profile, and its system's name
/// in the registry (an edited file's as the server loaded it).
pub(super) struct Variant<'a> {
    pub(super) prefix: String,
    pub(super) profile: &'a Profile,
    pub(super) name: String,
}

/// Each profile's command line, in letter order, with its letter and name.
pub(super) fn commands(v: &View) -> Value {
    Value::Array(
        v.profiles
            .iter()
            .enumerate()
            .map(|(k, p)| {
                // Profile k runs as the experiment's run of its place in the order (the base
                // first): that run's stream.
                let stream = if v.compared() {
                    v.in_order().iter().position(|&j| j == k).unwrap_or(0)
                } else {
                    0
                };
                json!({ "label": p.label.to_string(), "name": p.name, "command": v.command_in_stream(&p.setting, stream) })
            })
            .collect(),
    )
}

/// A setting's rules as a rule-set file (its situation is not a rule set's).
pub(super) fn ruleset_toml(v: &View, s: &Setting) -> String {
    let mut out = String::from(
        "# A rule set written by morale-lab's explorer: use it with --rules FILE, or as\n# rules_file = \"FILE\" in an experiment's variant.\n",
    );
    if s.code.is_some() {
        out += &format!(
            "# It stands on an edited copy of {}: save the editor's text there first.\n",
            s.system
        );
    }
    out += &format!(
        "name = \"explorer-rules\"\ndescription = {}\nbase = {}\n",
        view::toml_string(&format!(
            "The rules of `{}` as set in the explorer.",
            v.command(s)
        )),
        view::toml_string(&s.system)
    );
    if !s.options.is_empty() {
        let opts: Vec<String> = s.options.iter().map(|o| view::toml_string(o)).collect();
        out += &format!("options = [{}]\n", opts.join(", "));
    }
    if !s.rules.is_empty() {
        out += "\n[rules]\n";
        for (k, val) in &s.rules {
            out += &format!("{k} = {}\n", view::toml_value(val));
        }
    }
    out
}

/// The view as an experiment file: its profiles as variants, the base first, or the one profile
/// alone. `to_run`: name edited files by the server's paths for them (else by the page's, with
/// a note).
pub(super) fn experiment_toml(v: &View, settings: &[Variant<'_>], to_run: bool) -> String {
    let compare = v.compared();
    let mut out = String::from(
        "# An experiment written by morale-lab's explorer: run it with\n#   morale-lab run explorer.toml\n",
    );
    for s in settings {
        let st = &s.profile.setting;
        if st.code.is_some() && !to_run {
            out += &format!(
                "# {} uses an edited copy of {}: save the editor's text (Download the edited file) as {} first.\n",
                s.profile.label,
                st.system,
                view::edited_name(&st.system)
            );
        }
    }
    let question = if !compare {
        "What does this setting give?".to_string()
    } else {
        let base = settings[0].profile.label;
        let others: Vec<String> = settings[1..]
            .iter()
            .map(|s| s.profile.label.to_string())
            .collect();
        let others = match others.len() {
            1 => others[0].clone(),
            n => format!("{} and {}", others[..n - 1].join(", "), others[n - 1]),
        };
        format!(
            "How do{} {others} differ from {base}?",
            if settings.len() == 2 { "es" } else { "" }
        )
    };
    out += &format!(
        "name = \"explorer\"\nquestion = {}\nscenario = \"{}\"\nseed = {}\ntrials = {}\n",
        view::toml_string(&question),
        v.scenario.name(),
        v.seed,
        v.trials
    );
    for s in settings {
        let st = &s.profile.setting;
        let label = if compare {
            s.profile.title()
        } else {
            "this setting".to_string()
        };
        let system = match (to_run, &st.code) {
            (true, _) => s.name.clone(),
            (false, Some(_)) => view::edited_name(&st.system),
            (false, None) => st.system.clone(),
        };
        out += &format!(
            "\n[[variant]]\nname = {}\nsystem = {}\n",
            view::toml_string(&label),
            view::toml_string(&system)
        );
        if !st.sets.is_empty() {
            out += &format!("set = {}\n", view::inline_table(&st.sets));
        }
        if !st.rules.is_empty() {
            out += &format!("rules = {}\n", view::inline_table(&st.rules));
        }
        if !st.options.is_empty() {
            let opts: Vec<String> = st.options.iter().map(|o| view::toml_string(o)).collect();
            out += &format!("options = [{}]\n", opts.join(", "));
        }
    }
    out
}

/// The `balance` command line that gives a search's numbers (setting `s`, as the view runs it).
/// Solved to meet another profile (`against`), it names that profile's setting with
/// `--against` flags, so the command measures the target as the page did; a number's target,
/// or a profile the flags cannot name (an edited file, a value its system cannot take), is given
/// as `--target`.
pub(super) fn solve_command(
    v: &View,
    s: &Setting,
    b: &crate::experiment::balance::Balance,
    against: Option<&Setting>,
) -> String {
    let run = v.command(s);
    let run = run
        .strip_prefix("morale-lab ")
        .unwrap_or(&run)
        .split(" --trials ")
        .next()
        .unwrap_or("")
        .to_string();
    let mut out = format!("morale-lab balance {run} --solve {}", view::shell(&b.key));
    if !b.range.0.is_empty() {
        out += &format!(
            " --range {}",
            view::shell(&format!("{}..{}", b.range.0, b.range.1))
        );
    }
    out += &format!(" --headline {}", view::shell(&b.headline));
    match against.and_then(|a| against_flags(v.scenario, s, a)) {
        Some(flags) => out += &flags,
        None => out += &format!(" --target {}", b.target),
    }
    out
}

/// The `--against` flags that make setting `a` from setting `s` on the command line: each
/// value `a` gives that `s` does not, each value `s` gives that `a` leaves at its default (that
/// default), its optional rules where they differ, its system where it differs (then its rule
/// numbers and optional rules in full, as `s`'s do not go along). `None` where they cannot say
/// it: an edited file, or the same setting.
fn against_flags(scenario: crate::Scenario, s: &Setting, a: &Setting) -> Option<String> {
    if s.code.is_some() || a.code.is_some() {
        return None;
    }
    let sys = crate::system::find(&a.system).ok()?;
    let across = a.system != s.system;
    let inputs = view::inputs_of(a);
    let defaults = sys.defaults(scenario, &inputs);
    let default_of = |key: &str, defs: &[crate::params::ParamDef]| -> Option<String> {
        defaults
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
            .or_else(|| {
                defs.iter()
                    .find(|p| p.key == key)
                    .map(|p| p.default.to_string())
            })
    };
    let situation: Vec<crate::params::ParamDef> = crate::system::all_params(sys)
        .into_iter()
        .cloned()
        .collect();
    let mut flags: Vec<(String, String)> = Vec::new();
    // The situation goes along across systems too; the rule numbers only within one.
    type Pairs = [(String, String)];
    let none: &Pairs = &[];
    let pairs: [(&Pairs, &Pairs, &[crate::params::ParamDef]); 2] = [
        (&s.sets, &a.sets, &situation),
        (
            if across { none } else { &s.rules },
            &a.rules,
            sys.rule_params(),
        ),
    ];
    for (mine, theirs, defs) in pairs {
        for (k, v) in theirs {
            if mine.iter().all(|(mk, mv)| mk != k || mv != v) {
                flags.push((k.clone(), v.clone()));
            }
        }
        for (k, _) in mine {
            // Across systems, a setting the other system lacks does not go along.
            if across && defs.iter().all(|p| p.key != *k) {
                continue;
            }
            if theirs.iter().all(|(tk, _)| tk != k) {
                flags.push((k.clone(), default_of(k, defs)?));
            }
        }
    }
    let mut out = String::new();
    if across {
        out += &format!(" --against-system {}", view::shell(&a.system));
    }
    for (k, v) in &flags {
        out += &format!(" --against {}", view::shell(&format!("{k}={v}")));
    }
    let mut mine = s.options.clone();
    let mut theirs = a.options.clone();
    mine.sort();
    theirs.sort();
    if across || mine != theirs {
        let list = match theirs.is_empty() {
            true => "none".to_string(),
            false => a.options.join(","),
        };
        out += &format!(" --against-options {}", view::shell(&list));
    }
    // Nothing differs: the same setting is its own target, which the flags cannot say.
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(
        system: &str,
        sets: &[(&str, &str)],
        rules: &[(&str, &str)],
        options: &[&str],
    ) -> Setting {
        let pairs = |l: &[(&str, &str)]| {
            l.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        Setting {
            system: system.into(),
            code: None,
            sets: pairs(sets),
            rules: pairs(rules),
            options: options.iter().map(|o| o.to_string()).collect(),
        }
    }

    /// A solve to meet another profile names that profile with `--against` flags: what it
    /// gives that differs, what it leaves at its default (the default), its optional rules where
    /// they differ, its system where it differs (with its own rule numbers only).
    #[test]
    fn against_flags_name_the_other_profile() {
        use crate::Scenario;
        let green = setting(
            "rank-and-file",
            &[("class", "green"), ("stands", "6")],
            &[],
            &[],
        );
        let regular = setting(
            "rank-and-file",
            &[("class", "regular"), ("leader", "1")],
            &[("base_regular", "5")],
            &["waiver-tests"],
        );
        assert_eq!(
            against_flags(Scenario::Rally, &green, &regular).as_deref(),
            Some(
                " --against class=regular --against leader=1 --against stands=8 --against base_regular=5 --against-options waiver-tests"
            )
        );
        // The other way: the rule number it leaves is back at the source's 4, no optional rules.
        assert_eq!(
            against_flags(Scenario::Rally, &regular, &green).as_deref(),
            Some(
                " --against class=green --against stands=6 --against leader=0 --against base_regular=4 --against-options none"
            )
        );
        // Across systems the situation goes along; the rule numbers and optional rules do not.
        let theirs = setting("effectiveness", &[("class", "regular")], &[], &[]);
        assert_eq!(
            against_flags(Scenario::UnderFire, &regular, &theirs).as_deref(),
            Some(" --against-system effectiveness --against-options none"),
            "the class goes along; effectiveness has no leader, which does not"
        );
        let plain = setting(
            "rank-and-file",
            &[("class", "green")],
            &[("base_green", "4")],
            &[],
        );
        assert_eq!(
            against_flags(Scenario::UnderFire, &plain, &theirs).as_deref(),
            Some(" --against-system effectiveness --against class=regular --against-options none")
        );
        // An edited file, or the same setting, cannot be said by flags.
        let mut edited = green.clone();
        edited.code = Some(String::new());
        assert_eq!(against_flags(Scenario::Rally, &edited, &regular), None);
        assert_eq!(against_flags(Scenario::Rally, &green, &green.clone()), None);
    }
}
