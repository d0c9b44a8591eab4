//! A published page (issue 76): one self-contained HTML file holding every exact answer of a
//! setting over the fields a designer leaves open, each over its values, so that a reader
//! changes them and reads the answers at once from any static host or a file on disk, with no
//! server. The page says which build and rules made it, and gives the command line that
//! reproduces the answer shown.
//!
//! The answers are worked out here, before anything is written: how many there are is known
//! from the fields' values and refused past [`MOST_ANSWERS`] (with the count and what to
//! narrow), and the page's size is known before the binary writes it.

use crate::engine::Control;
use crate::error::{Error, Result};
use crate::params::{Input, Kind, Source};
use crate::scenario::{RunOptions, Scenario};
use crate::system;
use serde_json::{Value, json};

/// Whether `title` may head a page or a sheet: one line of 1 to 200 characters (trimmed).
pub fn is_title(title: &str) -> bool {
    let t = title.trim();
    !t.is_empty() && t.chars().count() <= 200 && !t.contains(['\n', '\r'])
}

/// What a title may be, for the line that refuses one.
pub const TITLE_ALLOWED: &str = "allowed: one line of 1 to 200 characters";

/// The most answers one page may hold.
pub const MOST_ANSWERS: usize = 5_000;

/// A field left open on the page: its key, its label, whether it is a rule parameter or an
/// optional rule, its values in order (as the command line takes them) and the one the page
/// opens at.
#[derive(Debug, Clone, PartialEq)]
pub struct Open {
    /// The parameter's key, or the optional rule's name.
    pub key: String,
    /// Its label, in a reader's words.
    pub label: String,
    /// A rule parameter (`--rule`), else a setting (`--set`).
    pub rule: bool,
    /// An optional rule (`--option`), left out or in play: its values are `off` and `on`.
    pub option: bool,
    /// The page's profiles (its values are their names): each is a whole setting of its own.
    pub profile: bool,
    /// Its values, in order.
    pub values: Vec<String>,
    /// The value the page opens at: the parameter's default where it is among the values, else
    /// the first; [`publish`] moves it to a value the setting fixes.
    pub start: usize,
}

/// What a page is of: the system and scenario, the settings it fixes, its optional rules and
/// the fields it leaves open.
#[derive(Debug, Clone)]
pub struct Ask {
    /// The system's registry name.
    pub system: String,
    /// The scenario.
    pub scenario: Scenario,
    /// The fixed settings (`--set`, `--rule`, a flag of its own).
    pub inputs: Vec<Input>,
    /// Optional rules in play.
    pub options: Vec<String>,
    /// The fields left open, in the order the page shows them. A field also fixed (in
    /// `inputs`, or an optional rule in `options`) opens at that value.
    pub open: Vec<Open>,
    /// The page's title, in the author's words (default: the system and the situation).
    pub title: Option<String>,
    /// Profiles compared on the page (none, or two or more): each a whole setting of its own
    /// (system, settings, optional rules), read by the page as one more field, "Profile", set
    /// side by side at first. The fields left open apply to each; `system`, `inputs` and
    /// `options` are then the first profile's.
    pub profiles: Vec<Profile>,
}

/// One profile of a page that compares several (the explorer's A, B …).
#[derive(Debug, Clone)]
pub struct Profile {
    /// Its name as the explorer shows it ("A (Veteran)").
    pub name: String,
    /// The system's registry name, or a mechanic file.
    pub system: String,
    /// Its settings and rule parameters.
    pub inputs: Vec<Input>,
    /// Its optional rules in play.
    pub options: Vec<String>,
    /// The command line of its fixed settings (each answer adds the open fields' values).
    pub command: String,
}

impl Ask {
    /// The fields of the page: "Profile" first where it compares profiles, then those left open.
    fn fields(&self) -> Vec<Open> {
        let mut out = Vec::new();
        if !self.profiles.is_empty() {
            out.push(Open {
                key: "profile".into(),
                label: "Profile".into(),
                rule: false,
                option: false,
                profile: true,
                values: self.profiles.iter().map(|p| p.name.clone()).collect(),
                start: 0,
            });
        }
        out.extend(self.open.iter().cloned());
        out
    }

    /// The system, settings and optional rules of the answer at `pick` before its open fields
    /// are applied: its profile's, else the page's own.
    fn base(&self, pick: &[usize]) -> (&str, &[Input], &[String]) {
        match self.profiles.get(pick.first().copied().unwrap_or(0)) {
            Some(p) if !self.profiles.is_empty() => (&p.system, &p.inputs, &p.options),
            _ => (&self.system, &self.inputs, &self.options),
        }
    }
}

/// A page made: its HTML and what it holds.
#[derive(Debug, Clone)]
pub struct Published {
    /// The self-contained page.
    pub html: String,
    /// Answers it holds (settings the rules refuse included, each with why).
    pub answers: usize,
    /// Of those, settings the rules refuse.
    pub refused: usize,
}

/// The field `spec` of `system` in `scenario` left open: `KEY` (every value it allows: each
/// choice, both of a switch, every whole number of its range) or `KEY=VALUES` (values and
/// ranges separated by commas, as a sweep takes them: `2..8`, `0, 1/6, 1/3`).
///
/// # Errors
/// An unknown key, a kind that has no values to list (a unit spec, a distribution), values
/// that do not parse.
pub fn open_field(system: &str, scenario: Scenario, spec: &str) -> Result<Open> {
    let bad = |allowed: String| Error::Invalid {
        what: "--open".into(),
        value: spec.to_string(),
        allowed,
    };
    let s = system::find(system)?;
    let (key, values) = match spec.split_once('=') {
        Some((k, v)) => (k.trim(), Some(v.trim())),
        None => (spec.trim(), None),
    };
    // An optional rule, or several joined by '+' switched together (a rule and its
    // amendment): the page holds its answers without them and with them.
    let names: Vec<&str> = key.split('+').map(str::trim).collect();
    if names
        .iter()
        .all(|n| s.options().iter().any(|o| o.name == *n))
    {
        if let Some(v) = values.filter(|v| !v.split(',').all(|x| ["off", "on"].contains(&x.trim())))
        {
            return Err(bad(format!(
                "{key} is an optional rule: leave it open as {key} (off and on), not {key}={v}"
            )));
        }
        return Ok(Open {
            key: names.join("+"),
            label: crate::labels::capitalised(
                &names
                    .iter()
                    .map(|n| crate::labels::option(n))
                    .collect::<Vec<_>>()
                    .join(" + "),
            ),
            rule: false,
            option: true,
            profile: false,
            values: vec!["off".into(), "on".into()],
            start: 0,
        });
    }
    let Some((def, rule)) = crate::system::param_of(s, scenario, key) else {
        return Err(bad(format!(
            "a parameter or optional rule of {} in {} (see `morale-lab list`), as KEY or KEY=VALUES",
            s.name(),
            scenario.name()
        )));
    };
    let values = match (values, &def.kind) {
        (Some(text), Kind::Int { .. } | Kind::Real { .. } | Kind::Prob) => {
            crate::params::parse_values(&def.kind, key, text).map_err(bad)?
        }
        (Some(text), Kind::Choice(_) | Kind::Bool) => {
            let all = listed(&def.kind);
            let mut out = Vec::new();
            for v in text.split(',').map(str::trim).filter(|v| !v.is_empty()) {
                if !all.iter().any(|a| a == v) {
                    return Err(bad(format!("{key}'s values: {}", all.join(", "))));
                }
                out.push(v.to_string());
            }
            out
        }
        (None, Kind::Int { min, max }) if max - min <= 60 => {
            (*min..=*max).map(|n| n.to_string()).collect()
        }
        (None, Kind::Choice(_) | Kind::Bool) => listed(&def.kind),
        (None, Kind::Int { .. } | Kind::Real { .. } | Kind::Prob) => {
            return Err(bad(format!(
                "{key}=VALUES for a number: give its values, e.g. {key}=2..8 ({})",
                def.kind.allowed()
            )));
        }
        _ => {
            return Err(bad(format!(
                "{key} is {}: a page leaves open numbers, chances, choices and switches",
                def.kind.allowed()
            )));
        }
    };
    if values.is_empty() {
        return Err(bad("at least one value".into()));
    }
    let start = values
        .iter()
        .position(|v| same_value(v, def.default))
        .unwrap_or(0);
    Ok(Open {
        key: key.to_string(),
        label: crate::params::label(key),
        rule,
        option: false,
        profile: false,
        values,
        start,
    })
}

impl Open {
    /// Whether this field is `key` or, an optional rule (or rules joined by '+'), holds it.
    pub fn covers(&self, key: &str) -> bool {
        self.key == key || (self.option && self.key.split('+').any(|n| n == key))
    }

    /// The optional rules this field switches (none for a parameter).
    pub fn rules_switched(&self) -> Vec<&str> {
        if self.option {
            self.key.split('+').collect()
        } else {
            Vec::new()
        }
    }
}

/// Whether two values as typed are the same value: the same text, or the same number (`0.5`
/// and `1/2`, `8` and `8.0`).
fn same_value(a: &str, b: &str) -> bool {
    let num = |s: &str| -> Option<f64> {
        let s = s.trim();
        match s.split_once('/') {
            Some((n, d)) => Some(n.trim().parse::<f64>().ok()? / d.trim().parse::<f64>().ok()?),
            None => s.parse::<f64>().ok(),
        }
    };
    a.trim() == b.trim() || matches!((num(a), num(b)), (Some(x), Some(y)) if (x - y).abs() < 1e-12)
}

/// A value as a reader reads it: yes and no for a switch, words for a choice, a true minus.
fn value_words(v: &str) -> String {
    match v {
        "off" => "left out".into(),
        "on" => "in play".into(),
        "true" => "yes".into(),
        "false" => "no".into(),
        _ if v.starts_with('-') && v[1..].parse::<f64>().is_ok() => format!("\u{2212}{}", &v[1..]),
        _ => v.replace('_', " "),
    }
}

/// Why the rules refuse a setting, in the page's words: the message without the command
/// line's frame ("invalid value '12' for --set lost: ").
fn why_refused(e: &Error) -> String {
    let text = e.to_string();
    let text = match (text.find(" for --"), text.starts_with("invalid value")) {
        (Some(i), true) => match text[i..].find(": ") {
            Some(j) => text[i + j + 2..].to_string(),
            None => text,
        },
        _ => text,
    };
    crate::labels::capitalised(&text)
}

/// The open fields and answers with every value that all its settings refuse left out;
/// an open field whose values change no answer is an error.
fn prune(open: &[Open], answers: Vec<Value>, refused: usize) -> (Vec<Open>, Vec<Value>, usize) {
    let sizes: Vec<usize> = open.iter().map(|o| o.values.len()).collect();
    // The index of an answer from its pick (the last field turning fastest).
    let index = |pick: &[usize]| pick.iter().zip(&sizes).fold(0, |at, (p, n)| at * n + p);
    let picks = |sizes: &[usize]| -> Vec<Vec<usize>> {
        let total: usize = sizes.iter().product();
        let mut out = Vec::with_capacity(total);
        let mut pick = vec![0usize; sizes.len()];
        for _ in 0..total {
            out.push(pick.clone());
            for i in (0..pick.len()).rev() {
                pick[i] += 1;
                if pick[i] < sizes[i] {
                    break;
                }
                pick[i] = 0;
            }
        }
        out
    };
    let all = picks(&sizes);
    let is_refused = |a: &Value| a.get("refused").is_some();
    // The values kept of each field: those with an answer the rules allow.
    let kept: Vec<Vec<usize>> = (0..open.len())
        .map(|f| {
            let k: Vec<usize> = (0..sizes[f])
                .filter(|&v| {
                    all.iter()
                        .any(|p| p[f] == v && !is_refused(&answers[index(p)]))
                })
                .collect();
            if k.is_empty() {
                (0..sizes[f]).collect()
            } else {
                k
            }
        })
        .collect();
    let new_open: Vec<Open> = open
        .iter()
        .zip(&kept)
        .map(|(o, k)| Open {
            values: k.iter().map(|&v| o.values[v].clone()).collect(),
            ..o.clone()
        })
        .collect();
    let new_sizes: Vec<usize> = kept.iter().map(Vec::len).collect();
    let new_answers: Vec<Value> = picks(&new_sizes)
        .iter()
        .map(|p| {
            let old: Vec<usize> = p.iter().zip(&kept).map(|(&i, k)| k[i]).collect();
            answers[index(&old)].clone()
        })
        .collect();
    let refused = refused.min(new_answers.iter().filter(|a| is_refused(a)).count());
    (new_open, new_answers, refused)
}

/// An open field (of more than one value) whose every value gives the same answers, the others
/// held: it does not apply to the scenario.
fn inert<'a>(open: &'a [Open], answers: &[Value]) -> Option<&'a Open> {
    let sizes: Vec<usize> = open.iter().map(|o| o.values.len()).collect();
    (0..open.len()).filter(|&f| sizes[f] > 1).find_map(|f| {
        // Answers are laid out with the last field turning fastest: field f's values are
        // `stride` apart.
        let stride: usize = sizes[f + 1..].iter().product();
        let same = (0..answers.len())
            .filter(|i| (i / stride).is_multiple_of(sizes[f]))
            .all(|i| (1..sizes[f]).all(|v| same_numbers(&answers[i + v * stride], &answers[i])));
        same.then(|| &open[f])
    })
}

/// Whether two answers hold the same numbers (their rules lines aside: a rule parameter that
/// changes no number still changes the line that names it).
fn same_numbers(a: &Value, b: &Value) -> bool {
    let numbers = |v: &Value| -> Value {
        let mut v = v.clone();
        if let Some(m) = v.as_object_mut() {
            m.remove("_rules");
        }
        v
    };
    numbers(a) == numbers(b)
}

/// Every value a choice or a switch takes.
fn listed(kind: &Kind) -> Vec<String> {
    match kind {
        Kind::Choice(names) => names.iter().map(|n| n.to_string()).collect(),
        Kind::Bool => vec!["false".into(), "true".into()],
        _ => Vec::new(),
    }
}

/// How many answers the fields `open` make (the product of their counts).
pub fn count(open: &[Open]) -> u128 {
    open.iter().map(|o| o.values.len() as u128).product()
}

/// The inputs of the answer at `pick` (each open field's value index): the fixed ones but those
/// the page leaves open, then the open fields' values.
fn inputs_at(ask: &Ask, fields: &[Open], pick: &[usize]) -> Vec<Input> {
    let mut inputs: Vec<Input> = ask
        .base(pick)
        .1
        .iter()
        .filter(|i| !ask.open.iter().any(|o| o.key == i.key))
        .cloned()
        .collect();
    for (o, &i) in fields
        .iter()
        .zip(pick)
        .filter(|(o, _)| !o.option && !o.profile)
    {
        inputs.push(if o.rule {
            Input::rule(&o.key, o.values[i].clone())
        } else {
            Input {
                key: o.key.clone(),
                value: o.values[i].clone(),
                source: Source::Set,
            }
        });
    }
    inputs
}

/// The optional rules of the answer at `pick`: those in play but the ones the page leaves open,
/// then each open one that is on there.
fn options_at(ask: &Ask, fields: &[Open], pick: &[usize]) -> Vec<String> {
    let mut options: Vec<String> = ask
        .base(pick)
        .2
        .iter()
        .filter(|o| !ask.open.iter().any(|f| f.option && f.covers(o)))
        .cloned()
        .collect();
    for (o, &i) in fields.iter().zip(pick) {
        if o.option && o.values[i] == "on" {
            options.extend(o.rules_switched().into_iter().map(str::to_string));
        }
    }
    options
}

/// Work out every answer of `ask` exactly and make its page. `command` is the command line of
/// the fixed settings (each answer's adds its open fields' values); `version` names the build.
///
/// # Errors
/// More than [`MOST_ANSWERS`] answers (with the count and what to narrow); a setting whose
/// scenario has no exact solution; a solve that fails; [`Error::Cancelled`] once `control` is.
pub fn publish(ask: &Ask, command: &str, version: &str, control: &Control) -> Result<Published> {
    check_open(ask)?;
    let fields = ask.fields();
    let start = start_values(ask);
    let n = answer_count(&fields)?;
    let Solved {
        answers,
        names,
        refused,
        rules_lines,
        in_force,
        layers,
        profile_words,
    } = solve_all(ask, &fields, n, control)?;
    // A value of an open field that every setting refuses (8 stands lost of 8) goes, and a
    // field whose values change no answer (a melee number on a rally) is refused.
    let (open, answers, refused) = prune(&fields, answers, refused);
    if let Some(o) = inert(&open, &answers) {
        return Err(Error::Invalid {
            what: "--open".into(),
            value: o.key.clone(),
            allowed: format!(
                "a field that changes an answer: every value of \u{201c}{}\u{201d} gives the same answers in {} as set (it makes no difference here), so leave it out, or open with it a field it works with",
                o.label,
                ask.scenario.name()
            ),
        });
    }
    let fixed = in_force;
    let data = page_data(
        ask,
        &fields,
        &open,
        &start,
        &names,
        answers,
        command,
        version,
        &rules_lines,
        fixed,
    );
    let mut data = data;
    if !ask.profiles.is_empty() {
        // The "Profile" field: each profile's words, and its command line for the page to add
        // the open fields' values to.
        let kept = &data["open"][0]["values"].clone();
        let at = |v: &Value| {
            ask.profiles
                .iter()
                .position(|p| Some(p.name.as_str()) == v.as_str())
        };
        let kept: Vec<usize> = kept
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(at)
            .collect();
        data["open"][0]["words"] =
            json!(kept.iter().map(|&i| &profile_words[i]).collect::<Vec<_>>());
        // A column is headed by the profile's name; a profile named only by its letter, by
        // what sets it apart ("A: regular troops").
        data["open"][0]["heads"] = json!(
            kept.iter()
                .map(|&i| if ask.profiles[i].name.chars().count() <= 1 {
                    &profile_words[i]
                } else {
                    &ask.profiles[i].name
                })
                .collect::<Vec<_>>()
        );
        data["commands"] = json!(
            kept.iter()
                .map(|&i| &ask.profiles[i].command)
                .collect::<Vec<_>>()
        );
    }
    if !layers.is_empty() {
        data["layers"] = turn_layers(&layers, &names);
    }
    let answers_n = data["answers"].as_array().map_or(0, Vec::len);
    Ok(Published {
        html: page_html(ask, &data),
        answers: answers_n,
        refused,
    })
}

/// Refuse a field left open twice, or open without the value it is fixed at.
fn check_open(ask: &Ask) -> Result<()> {
    for (i, o) in ask.open.iter().enumerate() {
        if ask.open[..i].iter().any(|p| p.key == o.key) {
            return Err(Error::Invalid {
                what: "--open".into(),
                value: o.key.clone(),
                allowed: "each field once".into(),
            });
        }
        // A field fixed too opens at that value, which must be one the page holds.
        if let Some(fixed) = ask.inputs.iter().find(|i| i.key == o.key)
            && !o.values.iter().any(|v| same_value(v, &fixed.value))
        {
            return Err(Error::Invalid {
                what: "--open".into(),
                value: o.key.clone(),
                allowed: format!(
                    "values that hold {}={} (the value it is fixed at, where the page opens): add it, or do not fix it",
                    fixed.key, fixed.value
                ),
            });
        }
    }
    Ok(())
}

/// Where the page opens: each open field's value there.
fn start_values(ask: &Ask) -> Vec<String> {
    // Where the page opens: each field at the value the setting fixes, else at the value in
    // force without it (the scenario's own default: a rally starts routing), else the
    // parameter's default.
    let unopened: Vec<Input> = ask
        .inputs
        .iter()
        .filter(|i| !ask.open.iter().any(|o| o.key == i.key))
        .cloned()
        .collect();
    let in_force = system::build(&ask.system, ask.scenario, &unopened, &ask.options)
        .ok()
        .map(|job| {
            let d = job.describe();
            let mut all = d.params.clone();
            all.extend(d.rules.clone());
            all
        });
    let start: Vec<usize> = ask
        .open
        .iter()
        .map(|o| {
            if o.option {
                usize::from(
                    o.rules_switched()
                        .iter()
                        .all(|n| ask.options.iter().any(|x| x == n)),
                )
            } else {
                ask.inputs
                    .iter()
                    .find(|i| i.key == o.key)
                    .and_then(|i| o.values.iter().position(|v| same_value(v, &i.value)))
                    .or_else(|| {
                        let v = crate::report::json_text(in_force.as_ref()?.get(&o.key)?);
                        o.values.iter().position(|x| same_value(x, &v))
                    })
                    .unwrap_or(o.start)
            }
        })
        .collect();
    // A page of profiles opens at the first (the profile field is shown side by side).
    ask.profiles
        .first()
        .map(|p| p.name.clone())
        .into_iter()
        .chain(
            ask.open
                .iter()
                .zip(&start)
                .map(|(o, &i)| o.values[i].clone()),
        )
        .collect()
}

/// How many answers the page holds, refused past [`MOST_ANSWERS`].
fn answer_count(fields: &[Open]) -> Result<usize> {
    let n = count(fields);
    if n > MOST_ANSWERS as u128 {
        return Err(Error::Invalid {
            what: "--open".into(),
            value: fields
                .iter()
                .map(|o| format!("{} ({} values)", o.key, o.values.len()))
                .collect::<Vec<_>>()
                .join(" × "),
            allowed: format!(
                "at most {} answers on one page, not {n}: narrow a field's values or leave fewer open",
                crate::report::thousands(MOST_ANSWERS as u64)
            ),
        });
    }
    Ok(n as usize)
}

/// Every answer worked out, with what the page says beside them.
struct Solved {
    /// Each answer (or the reason its setting is refused), in the page's order.
    answers: Vec<Value>,
    /// Each outcome's and metric's key, head and whether it is a metric, in first-seen order.
    names: Vec<(String, String, bool)>,
    /// How many settings were refused.
    refused: usize,
    /// The distinct rules lines, each answer naming its own by index.
    rules_lines: Vec<String>,
    /// The settings in force that the page does not leave open, in words.
    in_force: Vec<String>,
    /// The states of the table of each state after each turn (the first answer's), where the
    /// scenario has one: each answer whose table has these states carries its rows.
    layers: Vec<String>,
    /// Each profile's name and the settings it alone has, for the page's "Profile" field.
    profile_words: Vec<String>,
}

/// Solve each of the `n` settings exactly, the last open field turning fastest.
fn solve_all(ask: &Ask, fields: &[Open], n: usize, control: &Control) -> Result<Solved> {
    let options = RunOptions::new(1000, 1).exact_only(true).threads(Some(1));
    let mut answers = Vec::with_capacity(n);
    let mut names: Vec<(String, String, bool)> = Vec::new();
    let mut refused = 0;
    let mut pick = vec![0usize; fields.len()];
    let mut rules_lines: Vec<String> = Vec::new();
    // The settings in force of each profile's first answer (of the page's, without profiles).
    let mut in_force_of: Vec<Option<Vec<String>>> = vec![None; ask.profiles.len().max(1)];
    let mut layers: Vec<String> = Vec::new();
    for _ in 0..n {
        if control.is_cancelled() {
            return Err(Error::Cancelled);
        }
        let inputs = inputs_at(ask, fields, &pick);
        let system = ask.base(&pick).0;
        match system::build(
            system,
            ask.scenario,
            &inputs,
            &options_at(ask, fields, &pick),
        ) {
            Err(e) => {
                refused += 1;
                answers.push(json!({ "refused": why_refused(&e) }));
            }
            Ok(job) => {
                if !job.has_exact() {
                    return Err(Error::Invalid {
                        what: "--scenario".into(),
                        value: ask.scenario.name().into(),
                        allowed: "a setting with an exact solution: a published page holds exact answers only".into(),
                    });
                }
                let report = job.run(&options, control)?;
                // Each answer's rules line (an open rule parameter changes it), once each.
                let line = report.rules_line();
                let rules_at = match rules_lines.iter().position(|l| *l == line) {
                    Some(k) => k,
                    None => {
                        rules_lines.push(line);
                        rules_lines.len() - 1
                    }
                };
                let at = if ask.profiles.is_empty() { 0 } else { pick[0] };
                if in_force_of[at].is_none() {
                    let mut said = settings_in_force(ask, &report);
                    if !ask.profiles.is_empty() {
                        said.extend(report.options.iter().map(|o| crate::labels::option(o)));
                    }
                    in_force_of[at] = Some(said);
                }
                let mut answer = answer_values(&report, &mut names, rules_at);
                if let Some(rows) = turn_rows(&report, &mut layers) {
                    answer["_turns"] = rows;
                }
                answers.push(answer);
            }
        }
        next_pick(fields, &mut pick);
    }
    let (in_force, profile_words) = shared_settings(ask, &in_force_of);
    Ok(Solved {
        answers,
        names,
        refused,
        rules_lines,
        in_force,
        layers,
        profile_words,
    })
}

/// The settings in force every answer shares, in words, and each profile's name with the
/// settings it alone has ("B (Veteran): veteran troops"): a page of profiles says what they
/// share once and what sets each apart in its name.
fn shared_settings(ask: &Ask, in_force_of: &[Option<Vec<String>>]) -> (Vec<String>, Vec<String>) {
    let known: Vec<&Vec<String>> = in_force_of.iter().flatten().collect();
    let Some(first) = known.first() else {
        return (
            Vec::new(),
            ask.profiles.iter().map(|p| p.name.clone()).collect(),
        );
    };
    let shared: Vec<String> = first
        .iter()
        .filter(|s| known.iter().all(|k| k.contains(s)))
        .cloned()
        .collect();
    let words = ask
        .profiles
        .iter()
        .zip(in_force_of)
        .map(|(p, own)| {
            let own: Vec<&str> = own
                .iter()
                .flatten()
                .filter(|s| !shared.contains(s))
                .map(String::as_str)
                .collect();
            if own.is_empty() {
                p.name.clone()
            } else {
                format!("{}: {}", p.name, own.join(", "))
            }
        })
        .collect();
    (shared, words)
}

/// The exact chance of each state after each turn, a row a turn (to six decimals: the page
/// shows two of a percentage), where `report` has that table and its states are `layers` (set
/// by the first answer that has one).
fn turn_rows(report: &crate::report::Report, layers: &mut Vec<String>) -> Option<Value> {
    let t = report.tables.iter().find(|t| t.name == "per_turn")?;
    if layers.is_empty() {
        layers.clone_from(&t.columns);
    }
    if t.columns != *layers {
        return None;
    }
    let rows: Option<Vec<Vec<f64>>> = t
        .rows
        .iter()
        .map(|row| {
            row.cells
                .iter()
                .map(|c| c.exact.map(|x| (x * 1e6).round() / 1e6))
                .collect()
        })
        .collect();
    Some(json!(rows?))
}

/// The page's chart of each state after each turn: its states in words and colours, the
/// colours every chart of the tool gives them (a rally's end in good order is its outcome,
/// recovered).
fn turn_layers(layers: &[String], names: &[(String, String, bool)]) -> Value {
    let rally = names.iter().any(|n| n.0 == "recovered");
    let layers: Vec<Value> = layers
        .iter()
        .enumerate()
        .map(|(i, key)| {
            let key = if key == "good" && rally {
                "recovered"
            } else {
                key.as_str()
            };
            let c = crate::report::chart::outcome_colour(key, i);
            json!({
                "key": key,
                "head": crate::labels::outcome(key).head,
                "colour": format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2),
            })
        })
        .collect();
    json!(layers)
}

/// The next pick, the last field turning fastest (the answers' order on the page).
fn next_pick(fields: &[Open], pick: &mut [usize]) {
    for i in (0..pick.len()).rev() {
        pick[i] += 1;
        if pick[i] < fields[i].values.len() {
            break;
        }
        pick[i] = 0;
    }
}

/// Every setting in force that the page does not leave open, in words.
fn settings_in_force(ask: &Ask, report: &crate::report::Report) -> Vec<String> {
    report
        .params
        .iter()
        .filter(|(k, _)| {
            !ask.open.iter().any(|o| &o.key == *k) && !crate::labels::is_measurement(k)
        })
        .filter_map(|(k, v)| match v {
            // A switch in force is said as what it means, else named; one off,
            // and a zero, go unsaid.
            Value::Bool(true) => Some(
                crate::labels::state(k, true)
                    .map_or_else(|| crate::params::label(k), str::to_string),
            ),
            Value::Bool(false) => None,
            Value::Number(n) if n.as_f64() == Some(0.0) && k != "lost" => None,
            _ => {
                let v = crate::report::json_text(v);
                (!v.is_empty())
                    .then(|| crate::labels::setting_in_words_under(&[&ask.system], k, &v))
            }
        })
        .collect()
}

/// An outcome's or an average's head in a table, in a reader's words: an average (one with a
/// `meaning`) taken among some trials says among which ("turns to recover (among units that
/// recovered)"). The published page and the explorer head their rows with it.
pub fn measure_head(name: &str, meaning: Option<&str>) -> String {
    match meaning {
        Some(m) => match crate::report::among(m) {
            "" => crate::labels::metric(name).head,
            among => format!("{} (among {among})", crate::labels::metric(name).head),
        },
        None => crate::labels::outcome(name).head,
    }
}

/// One answer: each outcome's and metric's exact value (and as a fraction, where simple) and
/// its rules line's index; each name not seen before added to `names` with its head.
fn answer_values(
    report: &crate::report::Report,
    names: &mut Vec<(String, String, bool)>,
    rules_at: usize,
) -> Value {
    let mut values = serde_json::Map::new();
    let cells = report
        .outcomes
        .iter()
        .map(|o| (o.outcome.clone(), o.cell.exact, None))
        .chain(
            report
                .metrics
                .iter()
                .map(|m| (m.name.clone(), m.exact, Some(m.meaning.clone()))),
        );
    for (name, exact, meaning) in cells {
        let metric = meaning.is_some();
        if !names.iter().any(|x| x.0 == name) {
            let head = measure_head(&name, meaning.as_deref());
            names.push((name.clone(), head, metric));
        }
        let fraction = exact
            .and_then(crate::report::simple_fraction)
            .map(|(a, b)| format!("{a}/{b}"));
        values.insert(name, json!([exact, fraction]));
    }
    values.insert("_rules".into(), json!(rules_at));
    Value::Object(values)
}

/// The page's data: the setting, the fields left open (each at the value it opens at), the
/// outcomes' and metrics' names, the answers, and the command, build and rules that made it.
#[allow(clippy::too_many_arguments)]
fn page_data(
    ask: &Ask,
    fields: &[Open],
    open: &[Open],
    start: &[String],
    names: &[(String, String, bool)],
    answers: Vec<Value>,
    command: &str,
    version: &str,
    rules_lines: &[String],
    fixed: Vec<String>,
) -> Value {
    json!({
        "system": crate::labels::system(&ask.system),
        "scenario": ask.scenario.words(),
        "fixed": fixed,
        // A page of profiles names each one's optional rules with its settings.
        "options": ask
            .options
            .iter()
            .filter(|_| ask.profiles.is_empty())
            .filter(|o| !open.iter().any(|f| f.option && f.covers(o)))
            .map(|o| crate::labels::option(o))
            .collect::<Vec<_>>(),
        "open": open.iter().zip(fields).map(|(o, asked)| {
            let at = fields.iter().position(|a| a.key == asked.key).unwrap_or(0);
            json!({
                "key": o.key,
                "label": o.label,
                "flag": if o.profile { "profile" } else if o.option { "--option" } else if o.rule { "--rule" } else { "--set" },
                "values": o.values,
                "words": o.values.iter().map(|v| value_words(v)).collect::<Vec<_>>(),
                "start": o.values.iter().position(|v| *v == start[at]).unwrap_or(0),
            })
        }).collect::<Vec<_>>(),
        "names": names.iter().map(|(k, h, m)| json!({ "key": k, "head": h, "metric": m, "share": *m && crate::labels::is_share(k) })).collect::<Vec<_>>(),
        "answers": answers,
        "command": command,
        "version": version,
        "rules": rules_lines,
    })
}

/// The page's HTML: its title and subtitle, and `data` in its script element.
fn page_html(ask: &Ask, data: &Value) -> String {
    // Inside a <script> element: no "</" may close it early.
    let text = serde_json::to_string(data)
        .unwrap_or_default()
        .replace("</", "<\\/");
    // Profiles of more than one system are named as such, not by the first one's system.
    let systems = ask
        .profiles
        .iter()
        .filter(|p| p.system != ask.system)
        .count();
    let system = if systems > 0 {
        "Rule systems compared".to_string()
    } else {
        crate::labels::system(&ask.system)
    };
    let what = crate::labels::capitalised(&format!(
        "{system}: {}",
        crate::labels::lower_initial(ask.scenario.words())
    ));
    let (title, subtitle) = match ask.title.as_deref().map(str::trim) {
        Some(t) if !t.is_empty() => (t.to_string(), what),
        _ => (what, String::new()),
    };
    PAGE.replace("{{TITLE}}", &crate::report::escape_html(&title))
        .replace("{{SUBTITLE}}", &crate::report::escape_html(&subtitle))
        .replace("{{DATA}}", &text)
}

/// The page: the data in a script element, read by a few lines of script; nothing fetched.
const PAGE: &str = include_str!("publish.html");
