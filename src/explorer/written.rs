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
pub(super) fn solve_command(
    v: &View,
    s: &Setting,
    b: &crate::experiment::balance::Balance,
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
    out += &format!(
        " --headline {} --target {}",
        view::shell(&b.headline),
        b.target
    );
    out
}
