//! An experiment file read and checked: the TOML's shape as written, the errors that quote the
//! file, line and key, and [`Experiment::parse`] / [`Experiment::parse_with`], which turn the
//! text into a checked [`Experiment`] one section at a time.

use toml::Spanned;

use super::*;

/// One variant: a rule system with its unit(s), optional rules and parameters.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantFile {
    name: Spanned<String>,
    system: Spanned<String>,
    #[serde(default)]
    options: Vec<Spanned<String>>,
    #[serde(default)]
    set: toml::map::Map<String, toml::Value>,
    #[serde(default)]
    rules: toml::map::Map<String, toml::Value>,
    rules_file: Option<Spanned<String>>,
    /// Shown for scale beside the comparison the question asks (`reference = true`): its
    /// assumptions stay out of the answer's first paragraph.
    #[serde(default)]
    reference: bool,
    /// The earlier variant it is compared with, instead of the first (`against = "…"`).
    against: Option<Spanned<String>>,
    /// How side A plays its choices: `"optimal"` (the best choices, solved by play) or
    /// `"as set"` (its parameters' policy, the default).
    play: Option<Spanned<String>>,
}

/// One swept parameter.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct AxisFile {
    /// A parameter of the situation …
    key: Option<Spanned<String>>,
    /// … or a rule parameter.
    rule: Option<Spanned<String>>,
    values: Spanned<Vec<SetValue>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SweepFile {
    x: AxisFile,
    y: Option<AxisFile>,
}

/// `[balance]`: solve each variant for the value of one parameter that brings the headline to
/// a target.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct BalanceFile {
    /// The parameter solved for (a situation key, a rule parameter, or `SIDE.FIELD`).
    solve: Spanned<String>,
    /// `"LOW..HIGH"`; default the parameter's allowed range.
    range: Option<Spanned<String>>,
    /// A number the headline must reach …
    target: Option<Spanned<toml::Value>>,
    /// … or the name of the variant whose headline the others must reach.
    against: Option<Spanned<String>>,
    /// Search by Monte Carlo even where the setting solves exactly.
    monte_carlo: Option<bool>,
}

/// `headline = "eliminated"` or `headline = ["eliminated", "empty_turns"]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum Headlines {
    One(String),
    Many(Vec<String>),
}

/// `verdict = true`, or `verdict = ["empty_turns", "strength_turns"]`: the headlines the
/// question asks about, where the others are shown beside them but judge nothing.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum Verdict {
    Asked(bool),
    On(Vec<String>),
}

impl Headlines {
    fn names(&self) -> Vec<String> {
        match self {
            Headlines::One(h) => vec![h.clone()],
            Headlines::Many(h) => h.clone(),
        }
    }
}

/// An experiment file as written, before any check.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExperimentFile {
    name: Spanned<String>,
    title: Option<Spanned<String>>,
    question: String,
    why: Option<String>,
    scenario: Spanned<String>,
    seed: Option<Spanned<i64>>,
    trials: Option<Spanned<i64>>,
    confidence: Option<Spanned<f64>>,
    headline: Option<Spanned<Headlines>>,
    sensitivity: Option<Spanned<bool>>,
    assumptions: Option<bool>,
    verdict: Option<Spanned<Verdict>>,
    #[serde(default)]
    set: toml::map::Map<String, toml::Value>,
    #[serde(default)]
    rules: toml::map::Map<String, toml::Value>,
    #[serde(rename = "variant", default)]
    variants: Vec<VariantFile>,
    sweep: Option<SweepFile>,
    balance: Option<BalanceFile>,
}

fn line_of(source: &str, offset: usize) -> usize {
    source[..offset.min(source.len())].matches('\n').count() + 1
}

fn value_of(v: &toml::Value) -> Option<SetValue> {
    Some(match v {
        toml::Value::Integer(i) => SetValue::Int(*i),
        toml::Value::Float(x) => SetValue::Float(*x),
        toml::Value::Boolean(b) => SetValue::Bool(*b),
        toml::Value::String(s) => SetValue::Text(s.clone()),
        _ => return None,
    })
}

/// The key a TOML or type error is about: the field a message names in backticks (a missing or
/// unknown field), else the key written left of `=` on the error's line, or the header of a
/// table line; prefixed with the table it sits in (`set.`, `sweep.`; a `[[variant]]`'s own keys
/// are bare, as in the other messages). Empty when the line holds no key at all.
fn toml_error_key(source: &str, at: usize, message: &str) -> String {
    let at = at.min(source.len());
    let start = source[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = source[at..].find('\n').map_or(source.len(), |i| at + i);
    let line = source[start..end].trim();
    let named = ["missing field `", "unknown field `"]
        .iter()
        .find_map(|p| message.strip_prefix(p))
        .and_then(|rest| rest.split('`').next())
        .filter(|k| !k.is_empty());
    let clean = |k: &str| -> String {
        let k = k.trim().trim_matches('"').trim();
        k.chars().take(40).collect()
    };
    let table = |header: &str| -> String {
        let h = clean(header.trim_matches(|c| c == '[' || c == ']'));
        let h = h.strip_prefix("variant").unwrap_or(&h);
        h.trim_start_matches('.').to_string()
    };
    let (prefix, key) = if line.starts_with('[') {
        // A header line: a missing field of that table, or the header itself.
        let t = table(line);
        match named {
            Some(n) => (t, n.to_string()),
            None => (String::new(), t),
        }
    } else {
        // The table this line sits in: the last header above it.
        let above = source[..start]
            .lines()
            .rev()
            .map(str::trim)
            .find(|l| l.starts_with('['))
            .map(table)
            .unwrap_or_default();
        let written = line.split_once('=').map_or("", |(k, _)| k);
        match named {
            Some(n) if !line.contains(n) || written.contains(n) => (above, n.to_string()),
            _ => (above, clean(written)),
        }
    };
    match (prefix.is_empty(), key.is_empty()) {
        (_, true) => prefix,
        (true, false) => key,
        (false, false) => format!("{prefix}.{key}"),
    }
}

/// Where in a key's text a table key sits, for line numbers: its first occurrence as
/// `key =` after `from`.
fn key_line(source: &str, from: usize, key: &str) -> usize {
    let hay = &source[from.min(source.len())..];
    let pos = hay
        .match_indices(key)
        .find(|(i, _)| {
            hay[i + key.len()..].trim_start().starts_with('=')
                && (*i == 0 || !hay.as_bytes()[i - 1].is_ascii_alphanumeric())
        })
        .map_or(0, |(i, _)| i);
    line_of(source, from + pos)
}

impl Experiment {
    /// Parse and check an experiment file's text. `path` names the file in messages.
    ///
    /// Every variant (at every sweep point) is built once, so unknown keys, misspelt options
    /// and out-of-range values are reported before anything runs.
    ///
    /// # Errors
    /// [`Error::File`] with the file, line, key and what is allowed.
    pub fn parse(path: &str, source: &str) -> Result<Experiment> {
        Self::parse_with(path, source, &mut |p| {
            Err(Error::Conflict(format!(
                "cannot read {p}: this caller reads no files (use parse_with)"
            )))
        })
    }

    /// [`Experiment::parse`], with `read` giving the text of the rule-set files its variants
    /// name (`rules_file`, relative to the experiment file).
    ///
    /// # Errors
    /// As [`Experiment::parse`], and a rule-set file that cannot be read or is wrong.
    pub fn parse_with(
        path: &str,
        source: &str,
        read: &mut dyn FnMut(&str) -> Result<String>,
    ) -> Result<Experiment> {
        let place = Place { path, source };
        let f = read_toml(&place)?;
        let (scenario, seed, trials, confidence) = settings(&place, &f)?;
        check_title(&place, &f)?;
        check_shape(&place, &f)?;
        let (variants, rule_files) = variants_of(&place, &f, read)?;
        let sweep = sweep_of(&place, &f)?;
        let exp = Experiment {
            name: f.name.get_ref().clone(),
            title: f.title.as_ref().map(|t| t.get_ref().trim().to_string()),
            question: f.question.clone(),
            why: f.why.clone(),
            scenario,
            seed,
            trials,
            confidence,
            headlines: f
                .headline
                .as_ref()
                .map(|h| h.get_ref().names())
                .unwrap_or_default(),
            sensitivity: f.sensitivity.as_ref().is_some_and(|s| *s.get_ref()),
            assumptions: f.assumptions.unwrap_or(true),
            verdict: f.verdict.as_ref().is_some_and(|v| match v.get_ref() {
                Verdict::Asked(b) => *b,
                Verdict::On(_) => true,
            }),
            verdict_on: match f.verdict.as_ref().map(Spanned::get_ref) {
                Some(Verdict::On(names)) => names.clone(),
                _ => Vec::new(),
            },
            variants,
            sweep,
            balance: None,
            overrides: Vec::new(),
            override_flags: String::new(),
            rule_files,
        };
        let (known, metrics) = built_names(&place, &f, &exp)?;
        check_headlines(&place, &f, &exp, &known, &metrics)?;
        check_verdict(&place, &f, &exp)?;
        let mut exp = exp;
        if let Some(b) = &f.balance {
            exp.balance = Some(exp.check_balance(
                b,
                f.sweep.is_some(),
                &|line, key, message| place.err(line, key, message),
                &|s| place.line(s),
            )?);
        }
        Ok(exp)
    }

    /// Check a `[balance]` section: one target, a variant it names, the parameter and range
    /// for every variant solved.
    fn check_balance(
        &self,
        b: &BalanceFile,
        swept: bool,
        file_err: &dyn Fn(usize, &str, String) -> Error,
        span_line: &dyn Fn(std::ops::Range<usize>) -> usize,
    ) -> Result<BalanceAsk> {
        let solve_line = span_line(b.solve.span());
        if swept {
            return Err(file_err(
                solve_line,
                "balance.solve",
                "[balance] solves at one setting: it needs an experiment without a [sweep]".into(),
            ));
        }
        let range = match &b.range {
            None => None,
            Some(r) => Some(
                r.get_ref()
                    .split_once("..")
                    .map(|(lo, hi)| (lo.trim().to_string(), hi.trim().to_string()))
                    .ok_or_else(|| {
                        file_err(
                            span_line(r.span()),
                            "balance.range",
                            format!(
                                "'{}' is no range; allowed: \"LOW..HIGH\", e.g. \"2..12\" or \"0..1/2\"",
                                r.get_ref()
                            ),
                        )
                    })?,
            ),
        };
        let (target, against) = match (&b.target, &b.against) {
            (Some(t), None) => {
                let x = match t.get_ref() {
                    toml::Value::Integer(i) => Some(*i as f64),
                    toml::Value::Float(x) if x.is_finite() => Some(*x),
                    _ => None,
                };
                let Some(x) = x else {
                    return Err(file_err(
                        span_line(t.span()),
                        "balance.target",
                        "allowed: a number (a share from 0 to 1 for an outcome), e.g. 0.5".into(),
                    ));
                };
                (Some(x), None)
            }
            (None, Some(a)) => {
                if !self.variants.iter().any(|v| v.name == *a.get_ref()) {
                    return Err(file_err(
                        span_line(a.span()),
                        "balance.against",
                        format!(
                            "no variant is named '{}'; variants: {}",
                            a.get_ref(),
                            self.variants
                                .iter()
                                .map(|v| v.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
                if self.variants.len() < 2 {
                    return Err(file_err(
                        span_line(a.span()),
                        "balance.against",
                        "against names the variant the others must match: the experiment needs a second variant to solve".into(),
                    ));
                }
                (None, Some(a.get_ref().clone()))
            }
            _ => {
                return Err(file_err(
                    solve_line,
                    "balance",
                    "[balance] needs one target: target = NUMBER, or against = \"VARIANT\" (the same headline under another variant)".into(),
                ));
            }
        };
        let ask = BalanceAsk {
            solve: b.solve.get_ref().trim().to_string(),
            range,
            target,
            against,
            monte_carlo: b.monte_carlo.unwrap_or(false),
        };
        let point = self.points().into_iter().next().unwrap_or_default();
        for v in &self.variants {
            let Some(target) = self.balance_target(&ask, v, &point) else {
                continue;
            };
            let inputs = self.inputs(v, &point);
            let run = self.run_options();
            balance::check(&self.balance_ask(&ask, v, &inputs, target, run)).map_err(|e| {
                // In the file's words, not the command line's.
                let said = e
                    .to_string()
                    .replace("for --solve", "for solve")
                    .replace("for --range", "for range")
                    .replace("give --range", "give range = ");
                match &b.range {
                    Some(r) if said.contains("for range") => file_err(
                        span_line(r.span()),
                        "balance.range",
                        format!("variant '{}': {said}", v.name),
                    ),
                    _ => file_err(
                        solve_line,
                        "balance.solve",
                        format!("variant '{}': {said}", v.name),
                    ),
                }
            })?;
            // A share is a number from 0 to 1: the headline's kind is known once the run builds.
            if let (Some(t), Some(target)) = (&b.target, ask.target)
                && !(0.0..=1.0).contains(&target)
            {
                let job = system::build(&v.system, self.scenario, &inputs, &v.options)?;
                let head = self.headlines.first();
                if !head.is_some_and(|h| job.metric_names().contains(&h.as_str())) {
                    return Err(file_err(
                        span_line(t.span()),
                        "balance.target",
                        format!(
                            "{target} is no share; allowed: a share from 0 to 1 ({} is an outcome), e.g. 0.5",
                            head.map_or("the headline", String::as_str)
                        ),
                    ));
                }
            }
        }
        Ok(ask)
    }

    /// Where in the file an error from building a variant belongs.
    fn locate(
        &self,
        source: &str,
        fv: &VariantFile,
        e: &Error,
        point: &[SetValue],
    ) -> (usize, String) {
        let at = fv.name.span().start;
        let text = e.to_string();
        if let Error::Unsupported { .. } = e {
            return (line_of(source, fv.system.span().start), "system".into());
        }
        if text.contains("--system") {
            return (line_of(source, fv.system.span().start), "system".into());
        }
        if text.contains("--option") {
            for o in &fv.options {
                if text.contains(&format!("'{}'", o.get_ref())) {
                    return (line_of(source, o.span().start), "options".into());
                }
            }
        }
        // The key the error names: a swept key, then the variant's own, then the shared ones.
        for (i, axis) in self.sweep.iter().enumerate() {
            if text.contains(&format!("--set {}", axis.key))
                || text.contains(&format!("--rule {}", axis.key))
                || text.contains(&format!("'{}'", axis.key))
            {
                let _ = point.get(i);
                let from = source.find("[sweep]").unwrap_or(0);
                let quoted = format!("\"{}\"", axis.key);
                let at = source[from..].find(&quoted).map_or(from, |i| from + i);
                return (line_of(source, at), format!("sweep.{}", axis.key));
            }
        }
        for (k, _) in &fv.set {
            if text.contains(&format!("--set {k}")) || text.contains(&format!("'{k}'")) {
                return (key_line(source, at, k), format!("set.{k}"));
            }
        }
        for (k, _) in &fv.rules {
            if text.contains(&format!("--rule {k}")) || text.contains(&format!("'{k}'")) {
                return (key_line(source, at, k), format!("rules.{k}"));
            }
        }
        for k in self.variants[0].rules.iter().map(|x| &x.0) {
            if text.contains(&format!("--rule {k}")) || text.contains(&format!("'{k}'")) {
                return (key_line(source, 0, k), format!("rules.{k}"));
            }
        }
        for k in self.variants[0].set.iter().map(|x| &x.0) {
            if text.contains(&format!("--set {k}")) || text.contains(&format!("'{k}'")) {
                return (key_line(source, 0, k), format!("set.{k}"));
            }
        }
        (line_of(source, at), "variant".into())
    }
}

/// The file being parsed, for errors that quote their place: its name in messages and its
/// text.
struct Place<'a> {
    path: &'a str,
    source: &'a str,
}

impl Place<'_> {
    /// An error of this file at `line`, about `key`.
    fn err(&self, line: usize, key: &str, message: String) -> Error {
        Error::File {
            path: self.path.to_string(),
            line,
            key: key.to_string(),
            message,
        }
    }

    /// The line a span of the file starts on.
    fn line(&self, s: std::ops::Range<usize>) -> usize {
        line_of(self.source, s.start)
    }
}

/// The file's TOML read into its shape as written; a TOML or type error quotes its line and
/// key.
fn read_toml(place: &Place) -> Result<ExperimentFile> {
    let source = place.source;
    toml::from_str(source).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        let key = toml_error_key(source, at, e.message());
        place.err(line_of(source, at), &key, e.message().to_string())
    })
}

/// The name (checked), scenario, seed, trials and confidence, in that order, each a default
/// when not written.
fn settings(place: &Place, f: &ExperimentFile) -> Result<(Scenario, u64, u64, f64)> {
    if f.name.get_ref().trim().is_empty()
        || !f
            .name
            .get_ref()
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(place.err(
            place.line(f.name.span()),
            "name",
            "the name names the report folder: letters, digits, '-' and '_' only".into(),
        ));
    }
    let Some(scenario) = Scenario::from_name(f.scenario.get_ref()) else {
        return Err(place.err(
            place.line(f.scenario.span()),
            "scenario",
            format!(
                "unknown scenario '{}'; scenarios are {}",
                f.scenario.get_ref(),
                Scenario::names()
            ),
        ));
    };
    let seed = match &f.seed {
        None => 1,
        Some(s) if *s.get_ref() >= 0 => *s.get_ref() as u64,
        Some(s) => {
            return Err(place.err(
                place.line(s.span()),
                "seed",
                "allowed: a whole number from 0".into(),
            ));
        }
    };
    let trials = match &f.trials {
        None => 1_000_000,
        Some(t) if (1..=1_000_000_000_000_000).contains(t.get_ref()) => *t.get_ref() as u64,
        Some(t) => {
            return Err(place.err(
                place.line(t.span()),
                "trials",
                "allowed: a whole number from 1 to 10^15".into(),
            ));
        }
    };
    let confidence = match &f.confidence {
        None => 0.95,
        Some(c) if (0.5..1.0).contains(c.get_ref()) => *c.get_ref(),
        Some(c) => {
            return Err(place.err(
                place.line(c.span()),
                "confidence",
                "allowed: a level from 0.5 up to (not including) 1".into(),
            ));
        }
    };
    Ok((scenario, seed, trials, confidence))
}

/// The title, when given: one line of 1 to [`MOST_TITLE`] characters.
fn check_title(place: &Place, f: &ExperimentFile) -> Result<()> {
    if let Some(t) = &f.title {
        let text = t.get_ref();
        let chars = text.chars().count();
        if text.trim().is_empty() || text.contains('\n') || chars > MOST_TITLE {
            return Err(place.err(
                place.line(t.span()),
                "title",
                format!(
                    "{}; allowed: one line of 1 to {MOST_TITLE} characters",
                    if text.contains('\n') {
                        "the title runs over several lines".to_string()
                    } else if chars > MOST_TITLE {
                        format!("the title has {chars} characters")
                    } else {
                        "the title is empty".to_string()
                    }
                ),
            ));
        }
    }
    Ok(())
}

/// The experiment's shape: no sensitivity with a sweep, at least one variant.
fn check_shape(place: &Place, f: &ExperimentFile) -> Result<()> {
    if let (Some(sens), Some(_)) = (&f.sensitivity, &f.sweep)
        && *sens.get_ref()
    {
        return Err(place.err(
                place.line(sens.span()),
                "sensitivity",
                "sensitivity = true moves every rule parameter from one setting: it needs an experiment without a [sweep]".into(),
            ));
    }
    if f.variants.is_empty() {
        return Err(place.err(
            1,
            "variant",
            "an experiment needs at least one [[variant]] (name, system, options, set)".into(),
        ));
    }
    Ok(())
}

/// A table of parameters (`set` or `rules`, written at `at`) as values, in file order; `prefix`
/// names the table in messages.
fn values_of(
    place: &Place,
    table: &toml::map::Map<String, toml::Value>,
    at: usize,
    prefix: &str,
) -> Result<Vec<(String, SetValue)>> {
    table
        .iter()
        .map(|(k, v)| {
            value_of(v).map(|x| (k.clone(), x)).ok_or_else(|| {
                place.err(
                    key_line(place.source, at, k),
                    &format!("{prefix}.{k}"),
                    "a value must be a number, true/false or text".into(),
                )
            })
        })
        .collect::<Result<Vec<(String, SetValue)>>>()
}

/// The files variants name (rule sets, mechanics), each with its text.
type Files = Vec<(String, String)>;

/// Every variant checked, in file order, with the rule-set and mechanic files they name (each
/// once, with its text).
fn variants_of(
    place: &Place,
    f: &ExperimentFile,
    read: &mut dyn FnMut(&str) -> Result<String>,
) -> Result<(Vec<Variant>, Files)> {
    let shared = values_of(place, &f.set, 0, "set")?;
    let shared_rules = values_of(place, &f.rules, 0, "rules")?;
    let mut variants = Vec::new();
    let mut rule_files: Vec<(String, String)> = Vec::new();
    for v in &f.variants {
        let variant = variant_of(
            place,
            v,
            &shared,
            &shared_rules,
            &variants,
            &mut rule_files,
            read,
        )?;
        // Sensitivity would vary the rules under the parameters' policy, not under the best
        // play: refused, not answered for another way of playing. ([balance] solves the best
        // play again at every value it tries.)
        if variant.optimal_play
            && let Some(p) = &v.play
            && f.sensitivity.as_ref().is_some_and(|s| *s.get_ref())
        {
            return Err(place.err(
                place.line(p.span()),
                "variant.play",
                format!(
                    "variant '{}': play = \"optimal\" does not go with sensitivity = true yet (it would play the parameters' policy); allowed: a plain comparison, a sweep or [balance], or `morale-lab play` for the choice itself",
                    variant.name
                ),
            ));
        }
        variants.push(variant);
    }
    Ok((variants, rule_files))
}

/// One variant checked: its system, parameters (the experiment's `shared` and `shared_rules`
/// first), rule set and options, and a name none of the variants before it (`before`) has.
fn variant_of(
    place: &Place,
    v: &VariantFile,
    shared: &[(String, SetValue)],
    shared_rules: &[(String, SetValue)],
    before: &[Variant],
    rule_files: &mut Files,
    read: &mut dyn FnMut(&str) -> Result<String>,
) -> Result<Variant> {
    let at = v.name.span().start;
    let system = system_of(place, v, rule_files, read)?;
    let mut set = shared.to_vec();
    set.extend(values_of(place, &v.set, at, "set")?);
    let mut rules = shared_rules.to_vec();
    let mut options: Vec<String> = Vec::new();
    if let Some(file) = &v.rules_file {
        add_rule_set(
            place,
            file,
            &system,
            (&mut rules, &mut options),
            rule_files,
            read,
        )?;
    }
    rules.extend(values_of(place, &v.rules, at, "rules")?);
    for o in &v.options {
        if !options.contains(o.get_ref()) {
            options.push(o.get_ref().clone());
        }
    }
    let name = v.name.get_ref().clone();
    check_variant_name(place, v, &name, before)?;
    Ok(Variant {
        name,
        system,
        options,
        set,
        rules,
        reference: v.reference,
        against: against_of(place, v, before)?,
        optimal_play: play_of(place, v)?,
    })
}

/// A variant's `play`: whether side A makes the best choices play solves.
fn play_of(place: &Place, v: &VariantFile) -> Result<bool> {
    match v.play.as_ref().map(|p| (p, p.get_ref().as_str())) {
        None | Some((_, "as set")) => Ok(false),
        Some((_, "optimal")) => Ok(true),
        Some((p, other)) => Err(place.err(
            place.line(p.span()),
            "variant.play",
            format!(
                "variant '{}': play = \"{other}\" is no way of playing; allowed: \"optimal\" (side A makes the best choices, solved exactly) or \"as set\" (its parameters' policy, the default)",
                v.name.get_ref()
            ),
        )),
    }
}

/// A variant's system: a built-in one by its name, or a mechanic file, relative to this one,
/// loaded here and going by its path (its files kept in `rule_files` for shards).
fn system_of(
    place: &Place,
    v: &VariantFile,
    rule_files: &mut Files,
    read: &mut dyn FnMut(&str) -> Result<String>,
) -> Result<String> {
    let path = place.path;
    Ok(if crate::mechanic::is_file(v.system.get_ref()) {
        let line = place.line(v.system.span());
        let file = crate::ruleset::relative_to(path, v.system.get_ref());
        let sys = crate::mechanic::load_with(&file, read)
            .map_err(|e| place.err(line, "system", e.to_string()))?;
        for f in crate::mechanic::files_of(sys.name()).unwrap_or_default() {
            if !rule_files.iter().any(|(p, _)| *p == f.0) {
                rule_files.push(f);
            }
        }
        sys.name().to_string()
    } else {
        v.system.get_ref().clone()
    })
}

/// A variant's `rules_file`: a rule set of the variant's system, whose rules and options join
/// the variant's `(rules, options)` and whose files join `rule_files`.
fn add_rule_set(
    place: &Place,
    file: &Spanned<String>,
    system: &str,
    (rules, options): (&mut Vec<(String, SetValue)>, &mut Vec<String>),
    rule_files: &mut Files,
    read: &mut dyn FnMut(&str) -> Result<String>,
) -> Result<()> {
    let path = place.path;
    let line = place.line(file.span());
    let name = crate::ruleset::relative_to(path, file.get_ref());
    let text = read(&name).map_err(|e| place.err(line, "rules_file", e.to_string()))?;
    let rs = crate::ruleset::RuleSet::parse(&name, &text, read)
        .map_err(|e| place.err(line, "rules_file", e.to_string()))?;
    if rs.system != system {
        return Err(place.err(
            line,
            "rules_file",
            format!(
                "{name} is a rule set of {}, but the variant's system is {}",
                rs.system, system
            ),
        ));
    }
    rules.extend(
        rs.rules
            .iter()
            .map(|(k, x)| (k.clone(), SetValue::Text(x.clone()))),
    );
    options.extend(rs.options.iter().cloned());
    for f in rs.files {
        if !rule_files.iter().any(|(p, _)| *p == f.0) {
            rule_files.push(f);
        }
    }
    Ok(())
}

/// A variant's name: not one of the `variants` before it, with letters or digits, not the
/// same as another's but for punctuation or case; and the first variant is no reference.
fn check_variant_name(
    place: &Place,
    v: &VariantFile,
    name: &str,
    variants: &[Variant],
) -> Result<()> {
    if variants.iter().any(|x: &Variant| x.name == name) {
        return Err(place.err(
            place.line(v.name.span()),
            "variant.name",
            format!("two variants are named '{name}'"),
        ));
    }
    // Chart files and the page's ids come from the name's letters and digits.
    let slug = output::slug(name);
    if slug.is_empty() {
        return Err(place.err(
                    place.line(v.name.span()),
                    "variant.name",
                    format!(
                        "'{name}' has no letter or digit: a variant's name needs some (its chart files are named from them)"
                    ),
                ));
    }
    if let Some(x) = variants
        .iter()
        .find(|x: &&Variant| output::slug(&x.name) == slug)
    {
        return Err(place.err(
                    place.line(v.name.span()),
                    "variant.name",
                    format!(
                        "'{name}' and '{}' differ only in punctuation or case, so their chart files would be the same ({slug}); name them apart",
                        x.name
                    ),
                ));
    }
    if v.reference && variants.is_empty() {
        return Err(place.err(
                    place.line(v.name.span()),
                    "variant.reference",
                    "the first variant is the baseline every other is compared with; a reference shown for comparison is one of the others".to_string(),
                ));
    }
    Ok(())
}

/// A variant's `against`: an earlier variant (of `variants`) that is itself compared with
/// none, so that every comparison is with a baseline.
fn against_of(place: &Place, v: &VariantFile, variants: &[Variant]) -> Result<Option<String>> {
    let Some(a) = &v.against else {
        return Ok(None);
    };
    let line = place.line(a.span());
    let name = a.get_ref();
    let Some(w) = variants.iter().find(|w| w.name == *name) else {
        let earlier: Vec<String> = variants.iter().map(|w| format!("'{}'", w.name)).collect();
        return Err(place.err(
            line,
            "variant.against",
            if earlier.is_empty() {
                "the first variant is the baseline itself: it is compared with none".to_string()
            } else {
                format!(
                    "'{name}' is not a variant before this one; against names one of {}",
                    earlier.join(", ")
                )
            },
        ));
    };
    if let Some(b) = &w.against {
        return Err(place.err(
            line,
            "variant.against",
            format!("'{name}' is itself compared with '{b}': against names a baseline, a variant compared with none"),
        ));
    }
    Ok(Some(name.clone()))
}

/// The sweep axes (none, one or two), each naming one parameter and at least one value.
fn sweep_of(place: &Place, f: &ExperimentFile) -> Result<Vec<Axis>> {
    let mut sweep = Vec::new();
    if let Some(s) = &f.sweep {
        for (axis, which) in
            std::iter::once((&s.x, "sweep.x")).chain(s.y.as_ref().map(|y| (y, "sweep.y")))
        {
            if axis.values.get_ref().is_empty() {
                return Err(place.err(
                    place.line(axis.values.span()),
                    which,
                    "a sweep needs at least one value".into(),
                ));
            }
            let (key, rule) = match (&axis.key, &axis.rule) {
                (Some(k), None) => (k.get_ref().clone(), false),
                (None, Some(r)) => (r.get_ref().clone(), true),
                _ => {
                    return Err(place.err(
                            place.line(axis.values.span()),
                            which,
                            "a sweep axis names one parameter: key = \"…\" (the situation) or rule = \"…\" (a rule parameter)".into(),
                        ));
                }
            };
            sweep.push(Axis {
                key,
                rule,
                values: axis.values.get_ref().clone(),
            });
        }
    }
    Ok(sweep)
}

/// Every variant built at every sweep point once, the first problem reported with its place
/// in the file; returns the outcomes and the metrics the builds name, in first-seen order.
fn built_names(
    place: &Place,
    f: &ExperimentFile,
    exp: &Experiment,
) -> Result<(Vec<&'static str>, Vec<&'static str>)> {
    // Build every job once: report the first problem with its place in the file. The
    // outcomes of this scenario in the words of every variant's system, at every point,
    // are the ones a headline may name.
    let mut known: Vec<&str> = Vec::new();
    let mut metrics: Vec<&str> = Vec::new();
    for (vi, v) in exp.variants.iter().enumerate() {
        let fv = &f.variants[vi];
        let mut first = true;
        for point in exp.points() {
            let built = system::build(&v.system, exp.scenario, &exp.inputs(v, &point), &v.options);
            // Whether this setting has a choice to play, once (each run solves its own); a
            // refusal belongs to the variant's `play` line.
            if let (Ok(job), Some(p), true) = (&built, &fv.play, v.optimal_play && first)
                && let Err(e) = job.played(&super::play_ask(), &crate::engine::Control::default())
            {
                return Err(place.err(
                    place.line(p.span()),
                    "variant.play",
                    format!("variant '{}': {e}", v.name),
                ));
            }
            first = false;
            match built {
                Ok(job) => {
                    for o in job.outcome_names() {
                        if !known.contains(&o) {
                            known.push(o);
                        }
                    }
                    for m in job.metric_names() {
                        if !metrics.contains(&m) {
                            metrics.push(m);
                        }
                    }
                }
                Err(e) => {
                    let (line, key) = exp.locate(place.source, fv, &e, &point);
                    return Err(place.err(line, &key, format!("variant '{}': {e}", v.name)));
                }
            }
        }
    }
    Ok((known, metrics))
}

/// `verdict = [...]`: at least one name, each once, each one of the file's headlines.
fn check_verdict(place: &Place, f: &ExperimentFile, exp: &Experiment) -> Result<()> {
    let Some(v) = &f.verdict else { return Ok(()) };
    let Verdict::On(names) = v.get_ref() else {
        return Ok(());
    };
    let line = place.line(v.span());
    let heads = match exp.headlines.is_empty() {
        true => "none: name them with headline = [...]".to_string(),
        false => exp.headlines.join(", "),
    };
    if names.is_empty() {
        return Err(place.err(
            line,
            "verdict",
            format!(
                "no headline named; allowed: true, false, or a list of the headlines ({heads})"
            ),
        ));
    }
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(place.err(
                line,
                "verdict",
                format!("'{name}' is named twice; each headline once"),
            ));
        }
        if !exp.headlines.contains(name) {
            return Err(place.err(
                line,
                "verdict",
                format!("'{name}' is not one of the headlines; allowed: {heads}"),
            ));
        }
    }
    Ok(())
}

/// The headlines, when given: 1 to [`MOST_HEADLINES`], each once, each an outcome (`known`) or
/// a metric of the builds.
fn check_headlines(
    place: &Place,
    f: &ExperimentFile,
    exp: &Experiment,
    known: &[&str],
    metrics: &[&str],
) -> Result<()> {
    if let Some(h) = &f.headline {
        let line = place.line(h.span());
        let names = h.get_ref().names();
        if names.is_empty() || names.len() > MOST_HEADLINES {
            return Err(place.err(
                line,
                "headline",
                format!(
                    "{} names given; allowed: 1 to {MOST_HEADLINES} outcomes or metrics",
                    names.len()
                ),
            ));
        }
        for (i, name) in names.iter().enumerate() {
            if names[..i].contains(name) {
                return Err(place.err(
                    line,
                    "headline",
                    format!("'{name}' is named twice; each headline once"),
                ));
            }
            if !known.contains(&name.as_str()) && !metrics.contains(&name.as_str()) {
                return Err(place.err(
                    line,
                    "headline",
                    format!(
                        "'{name}' is not an outcome or a metric of {}; outcomes: {}; metrics: {}{}",
                        exp.scenario,
                        known.join(", "),
                        metrics.join(", "),
                        crate::scenario::strength::hint(name)
                    ),
                ));
            }
        }
    }
    Ok(())
}
