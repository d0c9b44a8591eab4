//! Points: what a unit is worth. A points file names unit types (a unit spec without its size)
//! and a cost formula — so much a size step for each word of the spec it names (`regular`,
//! `veteran`, `cavalry`), so much a unit for each other word (`leader=N` counts N, a bare word
//! such as `elite` counts 1). What a budget buys is the system's ([`Buys`]):
//! - a **size** of a unit, a whole-number keyword of its spec the system declares
//!   ([`crate::system::Size`]): Rank & File's stands, Linear Warfare's stands (or its pips), a
//!   mechanic file's `about().sizes`. In an engagement or a melee each type fields the most it
//!   can pay for (`stands=N` is added to its spec); in a line, each side is `units` units of its
//!   type, the budget spread over them as evenly as the count allows.
//! - **whole units**, in a line, where a unit has no size (Effectiveness): each side fields as
//!   many units as it can pay for; the smaller army sets the frontage and the larger stands its
//!   extra units behind its first files, one behind each at most (supports).
//!
//! What is computed:
//! 1. **The assessment matrix**: every type against every other at equal points, each pair played
//!    both ways round (side A and side B of an engagement, a melee or a line) — a type's *score*
//!    against another is its chance of winning plus half the chance of neither winning, averaged
//!    over the two sides, so a pair's two scores add up to 1 and the diagonal is ½. Exact where
//!    the scenario solves, else by Monte Carlo with intervals.
//! 2. **The fit**: side A's score in every matchup — at equal points and with side A a size step
//!    or more either side of it (`spread`), so that the matchups tell how much a step is worth —
//!    is modelled as `logit(score) = h + k·ln(worth A / worth B)`, where a side's worth is the
//!    cost formula with fitted numbers, the reference term held at its cost. Weighted least
//!    squares on the logits (the weights are the logit's inverse variance), solved by damped
//!    Gauss–Newton; the intervals come from the fit's covariance, scaled by how far the matchups
//!    stray from the model (so a formula that cannot explain the matrix gets wide intervals, not
//!    false precision).
//! 3. **The check**: the matrix again at the fitted costs (rounded to the file's `round`), and
//!    how far from 50% each pair remains.
//!
//! Matchups are independent: the matchups of 1–2 shard across machines ([`Shard`], [`merge`]),
//! lines as engagements; the check runs where the parts are merged.

// A matrix of pairs and the normal equations index rows and columns by the same numbers: index
// loops say that more plainly than zipped iterators.
#![allow(clippy::needless_range_loop)]

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::Control;
use crate::error::{Error, Result};
use crate::params::{Input, Resolved, Source};
use crate::report::Report;
use crate::scenario::{RunOptions, Scenario};
use crate::stats::z_for_confidence;
use crate::system::{self, RuleSystem, Size};

/// The `format` field of a points shard file.
pub const FORMAT: &str = "morale-lab points shard 1";

/// The most unit types a file may name (the matrix grows as their square).
pub const MAX_UNITS: usize = 24;

/// The most size steps either side of equal points a file may ask for (`spread`).
pub const MAX_SPREAD: u32 = 4;

/// The most files a line has (a side's units beyond them stand behind, one a file).
pub const MAX_FILES: u32 = crate::scenario::battle::MAX_FILES as u32;

/// Scores are kept this far from 0 and 1 before their logit is taken.
const CLIP: f64 = 1e-6;

/// What a points budget buys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Buys {
    /// So many of a whole-number keyword of a unit's spec (`stands=N`, `pips=N`).
    Size(Size),
    /// Whole units, in a line (for a system whose units have no size).
    Units,
}

impl Buys {
    /// Its name in a points file's `size` (`stands`, `pips`, `units`).
    pub fn key(&self) -> &'static str {
        match self {
            Buys::Size(s) => s.key,
            Buys::Units => "units",
        }
    }

    /// One of it, in words (`stand`, `pip`, `unit`).
    pub fn one(&self) -> &'static str {
        match self {
            Buys::Size(s) => s.one,
            Buys::Units => "unit",
        }
    }

    /// Several of it, in words (`stands`, `pips`, `units`).
    pub fn many(&self) -> String {
        match self {
            Buys::Size(s) if s.key.ends_with('s') => s.key.replace('_', " "),
            Buys::Size(s) => format!("{}s", s.one.replace('_', " ")),
            Buys::Units => "units".into(),
        }
    }

    /// `n` of it, in words (`1 stand`, `4 pips`).
    pub fn count(&self, n: u32) -> String {
        if n == 1 {
            format!("1 {}", self.one().replace('_', " "))
        } else {
            format!("{n} {}", self.many())
        }
    }

    /// The cost table that prices a step of it (`per_stand`, `per_pip`, `per_unit`).
    pub fn table(&self) -> String {
        format!("per_{}", self.one())
    }
}

impl Serialize for Buys {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.key())
    }
}

/// One unit type of a points file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitType {
    /// Its name in reports.
    pub name: String,
    /// Its unit spec, without its size.
    pub spec: String,
}

/// One term of the cost formula.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Term {
    /// The spec word it prices (`veteran`, `leader`, `elite`).
    pub word: String,
    /// Priced per step of what the budget buys (a stand, a pip; a unit when the budget buys
    /// units), else per unit on top.
    pub per_stand: bool,
    /// Its cost in the file.
    pub cost: f64,
}

/// A points file, parsed and checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PointsFile {
    /// The file's path, as given.
    pub path: String,
    /// Its text (kept for shards and the reproducing command).
    #[serde(skip)]
    pub source: String,
    /// A title for reports.
    pub title: String,
    /// The rule system (a mechanic file by the path it was loaded by).
    pub system: String,
    /// `engagement`, `melee` or `line`.
    pub scenario: Scenario,
    /// What the budget buys.
    pub size: Buys,
    /// Units a side when the budget buys a size in a line (1 otherwise).
    pub units_a_side: u32,
    /// Points a side.
    pub budget: f64,
    /// Side A is also played this many size steps above and below equal points (in a line of a
    /// size, this many a unit), for the fit.
    pub spread: u32,
    /// Fitted costs are rounded to a multiple of this.
    pub round: f64,
    /// The situation's and the rules' inputs besides the two units.
    #[serde(skip)]
    pub inputs: Vec<Input>,
    /// The same as `key=value` words (rule numbers marked `rule:`).
    pub setting: Vec<String>,
    /// Optional rules on.
    pub options: Vec<String>,
    /// Seed of Monte Carlo matchups.
    pub seed: u64,
    /// Trials of a Monte Carlo matchup.
    pub trials: u64,
    /// The cost formula's terms, per-step ones first.
    pub terms: Vec<Term>,
    /// The index in `terms` of the term held at its cost.
    pub reference: usize,
    /// The unit types.
    pub units: Vec<UnitType>,
    /// The fight the prices rest on, in words: the scenario, its turns, range and who charges,
    /// and the budget.
    pub fight: String,
    /// Play every matchup by Monte Carlo, even those that solve exactly (to check the exact
    /// numbers, or the fit under noise); not in the file, set by the caller.
    pub monte_carlo: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileToml {
    title: Option<String>,
    system: String,
    #[serde(default)]
    scenario: Option<String>,
    #[serde(default)]
    size: Option<String>,
    budget: f64,
    #[serde(default)]
    spread: Option<u32>,
    #[serde(default)]
    round: Option<f64>,
    #[serde(default)]
    set: BTreeMap<String, toml::Value>,
    #[serde(default)]
    rules: BTreeMap<String, toml::Value>,
    #[serde(default)]
    options: Vec<String>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    trials: Option<u64>,
    cost: toml::Table,
    unit: Vec<UnitToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitToml {
    name: String,
    spec: String,
}

fn input_text(v: &toml::Value) -> Option<String> {
    Some(match v {
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(x) => x.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::String(s) => s.clone(),
        _ => return None,
    })
}

/// How many of `term` a unit of spec `spec` has: 1 for the bare word, N for `word=N`, else 0.
fn count(spec: &str, word: &str) -> f64 {
    spec.split_whitespace()
        .filter_map(|w| {
            if w == word {
                Some(1.0)
            } else {
                w.strip_prefix(word)?
                    .strip_prefix('=')?
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
            }
        })
        .next_back()
        .unwrap_or(0.0)
}

/// Whether `spec` gives keyword `key` (`key=…`).
fn gives(spec: &str, key: &str) -> bool {
    spec.split_whitespace()
        .any(|w| w.strip_prefix(key).is_some_and(|r| r.starts_with('=')))
}

/// The words of `specs` a cost term may price, each once in order of first use: bare words and
/// the keys of `key=N`, but not `skip` (what the budget buys).
fn spec_words<'a>(specs: impl Iterator<Item = &'a str>, skip: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for spec in specs {
        for w in spec.split_whitespace() {
            let w = w.split_once('=').map_or(w, |(k, _)| k);
            if w != skip && !out.iter().any(|o| o == w) {
                out.push(w.to_string());
            }
        }
    }
    out
}

/// A unit spec with `key=n` added.
fn with_size(spec: &str, key: &str, n: u32) -> String {
    format!("{} {key}={n}", spec.trim())
}

/// A number of points in words: "60 points", "1 point".
fn points_words(x: f64) -> String {
    if x == 1.0 {
        "1 point".into()
    } else {
        format!("{} points", money(x))
    }
}

/// `n` of `what`, in words: "1 move", "2 moves".
fn plural(n: i64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Reads the mechanic file a points file names: a library reads no files itself.
fn no_files(path: &str) -> Result<String> {
    Err(Error::Invalid {
        what: "system".into(),
        value: path.into(),
        allowed: "a built-in system here (a mechanic file is read through PointsFile::parse_with, as the command line does)".into(),
    })
}

impl PointsFile {
    /// Parse and check a points file. `path` names it in messages. A points file whose system
    /// is a mechanic file is read with [`PointsFile::parse_with`].
    ///
    /// # Errors
    /// As [`PointsFile::parse_with`].
    pub fn parse(path: &str, source: &str) -> Result<PointsFile> {
        Self::parse_with(path, source, &mut no_files)
    }

    /// Parse and check a points file, reading the mechanic file its `system` may name (relative
    /// to the points file) and the files that one extends through `read`.
    ///
    /// # Errors
    /// [`Error::File`] naming the key at fault, what was wrong and what is allowed; every
    /// matchup at equal points is built once, so a spec the system refuses is reported before
    /// anything runs.
    pub fn parse_with(
        path: &str,
        source: &str,
        read: &mut dyn FnMut(&str) -> Result<String>,
    ) -> Result<PointsFile> {
        // The line of `key`: of its last part that begins a line (`cost.per_unit.elite` is on
        // the line of `per_unit = { … }`), or of its table's heading.
        let bad = |key: &str, message: String| Error::File {
            path: path.into(),
            line: key
                .rsplit('.')
                .find_map(|part| {
                    source.lines().position(|l| {
                        let t = l.trim_start();
                        t.starts_with(part) || t.starts_with(&format!("[{part}]"))
                    })
                })
                .map_or(0, |i| i + 1),
            key: key.into(),
            message,
        };
        let raw: FileToml = toml::from_str(source).map_err(|e| Error::File {
            path: path.into(),
            line: e.span().map_or(0, |s| {
                source[..s.start.min(source.len())].matches('\n').count() + 1
            }),
            key: String::new(),
            message: e.message().trim_end().replace('\n', "; "),
        })?;
        let sys: &'static dyn RuleSystem = if crate::mechanic::is_file(&raw.system) {
            let file = crate::paths::relative_to(path, &raw.system);
            crate::mechanic::load_with(&file, read).map_err(|e| bad("system", e.to_string()))?
        } else {
            system::find(&raw.system).map_err(|e| bad("system", e.to_string()))?
        };
        let sys_words = crate::labels::system(sys.name());
        let has_line = sys.scenarios().contains(&Scenario::Line);
        let sizes = sys.sizes();
        let size_names = || {
            let mut v: Vec<String> = sizes
                .iter()
                .map(|s| {
                    format!(
                        "{} ({}=N, {} to {}, {})",
                        s.key, s.key, s.min, s.max, s.rule
                    )
                })
                .collect();
            if has_line {
                v.push("units (whole units, in a line)".into());
            }
            v.join(", ")
        };
        if sizes.is_empty() && !has_line {
            return Err(bad(
                "system",
                format!(
                    "{}: declares nothing a points budget can buy — no size of a unit (a whole-number keyword of its unit specs, such as stands=N, named in about() as sizes: [#{{ key: \"stands\", min: 1, max: 24, rule: \"X-1\" }}]) and no line in which to buy whole units; allowed: a system or mechanic file that declares one",
                    sys.name()
                ),
            ));
        }
        let buys = match raw.size.as_deref() {
            Some("units") if has_line => Buys::Units,
            Some(name) => match sizes.iter().find(|s| s.key == name) {
                Some(s) => Buys::Size(*s),
                None => {
                    return Err(bad(
                        "size",
                        format!(
                            "{name}: not what a budget can buy of a unit of {sys_words}; allowed: {}",
                            size_names()
                        ),
                    ));
                }
            },
            None => sizes.first().map_or(Buys::Units, |s| Buys::Size(*s)),
        };
        let scenario = match raw.scenario.as_deref() {
            None if buys == Buys::Units => Scenario::Line,
            None => Scenario::Engagement,
            Some(name @ ("engagement" | "melee" | "line")) => Scenario::parse(name)?,
            Some(other) => {
                return Err(bad(
                    "scenario",
                    format!(
                        "{other}: a points file plays engagement (the default) or melee, or a line"
                    ),
                ));
            }
        };
        if !sys.scenarios().contains(&scenario) {
            let can: Vec<&str> = [Scenario::Engagement, Scenario::Melee, Scenario::Line]
                .into_iter()
                .filter(|s| sys.scenarios().contains(s))
                .map(Scenario::name)
                .collect();
            return Err(bad(
                "scenario",
                format!(
                    "{}: {sys_words} has no {} scenario; allowed here: {}",
                    scenario.name(),
                    scenario.name(),
                    if can.is_empty() {
                        "none (a points file plays an engagement, a melee or a line)".to_string()
                    } else {
                        can.join(", ")
                    }
                ),
            ));
        }
        if buys == Buys::Units && scenario != Scenario::Line {
            return Err(bad(
                "scenario",
                if sizes.is_empty() {
                    format!(
                        "{}: {sys_words}' units have no size a budget can buy (no stands, no pips), so its points play a line in which the budget buys whole units; allowed: line (or leave scenario out)",
                        scenario.name()
                    )
                } else {
                    format!(
                        "{}: a budget that buys whole units plays a line; allowed: line, or size = {} to buy a unit's size in an engagement or a melee",
                        scenario.name(),
                        sizes.iter().map(|s| s.key).collect::<Vec<_>>().join(" or ")
                    )
                },
            ));
        }
        if !(raw.budget.is_finite() && raw.budget > 0.0 && raw.budget <= 1e6) {
            return Err(bad(
                "budget",
                format!(
                    "{}: points a side, more than 0 and at most 1000000",
                    raw.budget
                ),
            ));
        }
        let spread = raw.spread.unwrap_or(1);
        if spread > MAX_SPREAD {
            return Err(bad(
                "spread",
                format!(
                    "{spread}: 0 to {MAX_SPREAD} {} either side of equal points{}",
                    buys.many(),
                    if scenario == Scenario::Line && buys != Buys::Units {
                        " (a unit)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        let round = raw.round.unwrap_or(1.0);
        if !(round.is_finite() && round > 0.0) {
            return Err(bad(
                "round",
                format!(
                    "{round}: a step more than 0 that fitted costs are rounded to, e.g. 1 or 0.5"
                ),
            ));
        }
        let trials = raw.trials.unwrap_or(100_000);
        if !(1_000..=100_000_000).contains(&trials) {
            return Err(bad(
                "trials",
                format!("{trials}: from 1000 to 100000000 trials a Monte Carlo matchup"),
            ));
        }
        for k in ["attacker", "defender"] {
            if raw.set.contains_key(k) {
                return Err(bad(
                    &format!("set.{k}"),
                    "the units come from [[unit]]: set the situation and the rules here, not the units"
                        .into(),
                ));
            }
        }
        if buys == Buys::Units {
            for k in ["units", "supports"] {
                if raw.set.contains_key(k) {
                    return Err(bad(
                        &format!("set.{k}"),
                        "the budget sets each side's units, and the larger army's supports: leave units and supports out"
                            .into(),
                    ));
                }
            }
        }
        let mut inputs = Vec::new();
        for (k, v) in &raw.set {
            let value = input_text(v).ok_or_else(|| {
                bad(
                    &format!("set.{k}"),
                    "a number, a switch or a text value".into(),
                )
            })?;
            inputs.push(Input {
                key: k.clone(),
                value,
                source: Source::Set,
            });
        }
        for (k, v) in &raw.rules {
            let value = input_text(v).ok_or_else(|| {
                bad(
                    &format!("rules.{k}"),
                    "a number, a switch or a text value".into(),
                )
            })?;
            inputs.push(Input::rule(k, value));
        }
        if raw.unit.len() < 2 || raw.unit.len() > MAX_UNITS {
            return Err(bad(
                "unit",
                format!(
                    "{} unit types: a points file names 2 to {MAX_UNITS} ([[unit]] with name and spec)",
                    raw.unit.len()
                ),
            ));
        }
        let words = spec_words(raw.unit.iter().map(|u| u.spec.as_str()), buys.key());
        let allowed_words = if words.is_empty() {
            "none: the unit types' specs are empty".to_string()
        } else {
            format!("the unit types' spec words {}", words.join(", "))
        };
        // The cost tables: one that prices a step of what the budget buys, and (when that is
        // not whole units) one that prices a unit on top.
        let step_table = buys.table();
        let tables: Vec<String> = if buys == Buys::Units {
            vec![step_table.clone()]
        } else {
            vec![step_table.clone(), "per_unit".into()]
        };
        let table_words = |t: &str| -> String {
            if t == step_table {
                format!("{t} (so much {} for each spec word)", a_one(buys.one()))
            } else {
                format!("{t} (so much a unit for each spec word, on top)")
            }
        };
        let mut reference_word: Option<String> = None;
        let mut priced: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
        for (k, v) in &raw.cost {
            if k == "reference" {
                reference_word = Some(v.as_str().map(str::to_string).ok_or_else(|| {
                    bad(
                        "cost.reference",
                        format!(
                            "{v}: a spec word in quotes, the {step_table} term held at its cost"
                        ),
                    )
                })?);
                continue;
            }
            if !tables.contains(k) {
                return Err(bad(
                    &format!("cost.{k}"),
                    format!(
                        "not a cost table when the budget buys {}; allowed: reference, {}",
                        buys.many(),
                        tables
                            .iter()
                            .map(|t| table_words(t))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            let table = v.as_table().ok_or_else(|| {
                bad(
                    &format!("cost.{k}"),
                    format!(
                        "{v}: a table of spec words and their costs, e.g. {{ {} = 10 }}; allowed words: {allowed_words}",
                        words.first().map_or("regular", String::as_str)
                    ),
                )
            })?;
            let mut costs = BTreeMap::new();
            for (word, c) in table {
                let cost = match c {
                    toml::Value::Integer(i) => *i as f64,
                    toml::Value::Float(x) => *x,
                    other => {
                        return Err(bad(
                            &format!("cost.{k}.{word}"),
                            format!("{other}: a cost is a number"),
                        ));
                    }
                };
                costs.insert(word.clone(), cost);
            }
            priced.insert(k.clone(), costs);
        }
        let Some(reference_word) = reference_word else {
            let priced_words: Vec<&str> = priced
                .get(&step_table)
                .map(|t| t.keys().map(String::as_str).collect())
                .unwrap_or_default();
            return Err(bad(
                "cost",
                format!(
                    "no reference: name the {step_table} term held at its cost while the others are fitted (reference = \"{}\"); allowed: {}",
                    priced_words
                        .first()
                        .copied()
                        .or(words.first().map(String::as_str))
                        .unwrap_or("regular"),
                    if priced_words.is_empty() {
                        format!("a word of {step_table}, which names none yet: {allowed_words}")
                    } else {
                        format!("one of {}", priced_words.join(", "))
                    }
                ),
            ));
        };
        if priced.get(&step_table).is_none_or(BTreeMap::is_empty) {
            let (state, why) = if priced.contains_key(&step_table) {
                ("is empty", String::new())
            } else {
                (
                    "is missing",
                    format!("the budget buys {}, and ", buys.many()),
                )
            };
            return Err(bad(
                &format!("cost.{step_table}"),
                format!(
                    "{state}: {why}{} cost is the sum of the costs of its spec words, so name one or more with a cost, e.g. {{ {} = 10 }}; allowed: {allowed_words}",
                    a_ones(buys.one()),
                    words.first().map_or("regular", String::as_str)
                ),
            ));
        }
        // A table of extra costs written but left empty prices nothing: said, not taken as
        // "every extra free".
        if let Some(t) = tables
            .iter()
            .find(|t| **t != step_table && priced.get(*t).is_some_and(BTreeMap::is_empty))
        {
            return Err(bad(
                &format!("cost.{t}"),
                format!(
                    "is empty: name one or more spec words with a unit's extra cost, e.g. {{ leader = 6 }}, or leave cost.{t} out; allowed: {allowed_words}"
                ),
            ));
        }
        let mut terms = Vec::new();
        for t in &tables {
            let per_stand = *t == step_table;
            for (word, &cost) in priced.get(t).into_iter().flatten() {
                if !cost.is_finite() || (per_stand && cost <= 0.0) {
                    return Err(bad(
                        &format!("cost.{t}.{word}"),
                        format!(
                            "{cost}: {}",
                            if per_stand {
                                format!("{} cost is a number more than 0", a_ones(buys.one()))
                            } else {
                                "a unit's extra cost is a finite number".to_string()
                            }
                        ),
                    ));
                }
                if word.is_empty()
                    || word.contains(char::is_whitespace)
                    || word.contains('=')
                    || word == buys.key()
                {
                    return Err(bad(
                        "cost",
                        format!(
                            "{word:?}: a term is one word of a unit spec, not what the budget buys; allowed: {allowed_words}"
                        ),
                    ));
                }
                terms.push(Term {
                    word: word.clone(),
                    per_stand,
                    cost,
                });
            }
        }
        let names: Vec<String> = terms.iter().map(|t| t.word.clone()).collect();
        let reference = terms
            .iter()
            .position(|t| t.per_stand && t.word == reference_word)
            .ok_or_else(|| {
                bad(
                    "cost.reference",
                    format!(
                        "{reference_word}: the per-{} term held at its cost while the others are fitted, one of {}",
                        buys.one().replace('_', "-"),
                        terms
                            .iter()
                            .filter(|t| t.per_stand)
                            .map(|t| t.word.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })?;
        let mut units: Vec<UnitType> = Vec::new();
        for u in &raw.unit {
            if units.iter().any(|v| v.name == u.name) || u.name.trim().is_empty() {
                return Err(bad(
                    "name",
                    format!("{:?}: each unit type needs a name of its own", u.name),
                ));
            }
            if let Buys::Size(s) = buys
                && gives(&u.spec, s.key)
            {
                return Err(bad(
                    "spec",
                    format!(
                        "{}: leave {}= out; a unit fields as many {} as the budget pays for",
                        u.spec,
                        s.key,
                        buys.many()
                    ),
                ));
            }
            units.push(UnitType {
                name: u.name.trim().to_string(),
                spec: u.spec.trim().to_string(),
            });
        }
        for t in &terms {
            if units.iter().all(|u| count(&u.spec, &t.word) == 0.0) {
                return Err(bad(
                    "cost",
                    format!(
                        "{}: no unit type's spec has this word, so nothing tells its cost; terms: {}; allowed: {allowed_words}",
                        t.word,
                        names.join(", ")
                    ),
                ));
            }
        }
        let units_a_side = match buys {
            Buys::Size(_) if scenario == Scenario::Line => {
                let defaults = sys.defaults(scenario, &inputs);
                let r = crate::params::resolve(
                    &system::all_params(sys),
                    sys.rule_params(),
                    sys.name(),
                    scenario,
                    &inputs,
                    &defaults,
                )
                .map_err(|e| bad("set", e.to_string()))?;
                u32::try_from(r.int("units")).unwrap_or(1)
            }
            _ => 1,
        };
        let mut file = PointsFile {
            path: path.into(),
            source: source.into(),
            title: raw
                .title
                .unwrap_or_else(|| format!("Points for {}", sys.name())),
            system: sys.name().to_string(),
            scenario,
            size: buys,
            units_a_side,
            budget: raw.budget,
            spread,
            round,
            inputs: inputs.clone(),
            options: raw.options,
            setting: inputs
                .iter()
                .map(|i| {
                    let rule = if matches!(i.source, Source::Rule) {
                        "rule:"
                    } else {
                        ""
                    };
                    format!("{rule}{}={}", i.key, i.value)
                })
                .collect(),
            seed: raw.seed.unwrap_or(1),
            trials,
            terms,
            reference,
            units,
            fight: String::new(),
            monte_carlo: false,
        };
        let costs = file.file_costs();
        for (i, u) in file.units.iter().enumerate() {
            let step: f64 = file.per_stand(&costs, i);
            if step <= 0.0 {
                return Err(bad(
                    "spec",
                    format!(
                        "{} ({}): no word of its spec has a cost in [cost.{step_table}], so it would field {} for nothing; price its class there ({})",
                        u.name,
                        u.spec,
                        buys.many(),
                        names.join(", ")
                    ),
                ));
            }
            file.stands_at(&costs, i)
                .map_err(|e| bad("budget", e.to_string()))?;
        }
        let n: Vec<u32> = (0..file.units.len())
            .map(|i| file.stands_at(&costs, i))
            .collect::<Result<_>>()
            .map_err(|e| bad("budget", e.to_string()))?;
        let mut notes = Vec::new();
        for a in 0..file.units.len() {
            for b in 0..file.units.len() {
                let m = Matchup {
                    a,
                    b,
                    a_stands: n[a],
                    b_stands: n[b],
                };
                if let Some(why) = file.unfit(&m) {
                    return Err(bad("budget", format!("{}: {why}", file.describe(&m))));
                }
                let job =
                    system::build_system(sys, file.scenario, &file.inputs_of(&m), &file.options)
                        .map_err(|e| match &e {
                            // A word of one unit type's spec the system does not know: that
                            // unit type, at its spec's line.
                            Error::Invalid {
                                what,
                                value,
                                allowed,
                            } if what.contains("attacker") || what.contains("defender") => {
                                let u = &file.units[if what.contains("attacker") { a } else { b }];
                                Error::File {
                                    path: path.into(),
                                    line: source
                                        .lines()
                                        .position(|l| {
                                            l.trim_start().starts_with("spec")
                                                && l.contains(&format!("\"{}\"", u.spec))
                                        })
                                        .map_or(0, |i| i + 1),
                                    key: "unit.spec".into(),
                                    message: format!(
                                        "unit type \u{201c}{}\u{201d}, spec \u{201c}{}\u{201d}: '{value}' is not a word of {} unit specs; allowed: {}",
                                        u.name,
                                        u.spec,
                                        sys.name(),
                                        allowed.trim_start_matches("unknown keyword; allowed: ")
                                    ),
                                }
                            }
                            _ => bad("unit", format!("{}: {e}", file.describe(&m))),
                        })?;
                if a == 0 && b == 0 {
                    notes = job.describe().notes.clone();
                }
            }
        }
        {
            let m = Matchup {
                a: 0,
                b: 0,
                a_stands: n[0],
                b_stands: n[0],
            };
            let inputs = file.inputs_of(&m);
            let defaults = sys.defaults(file.scenario, &inputs);
            let r = crate::params::resolve(
                &system::all_params(sys),
                sys.rule_params(),
                sys.name(),
                file.scenario,
                &inputs,
                &defaults,
            )
            .map_err(|e| bad("set", e.to_string()))?;
            file.fight = file.fight_words(&r, &notes);
        }
        Ok(file)
    }

    /// The fight the prices rest on, in a reader's words, from the parameters in force (`r`)
    /// and the notes of its report (whose number a line's break point is).
    fn fight_words(&self, r: &Resolved, notes: &[String]) -> String {
        let int = |k: &str| r.has(k).then(|| r.int(k));
        let what = match self.scenario {
            Scenario::Melee => {
                "a melee fought to its end, side A attacking and side B defending".to_string()
            }
            sc => {
                let start = match int("range") {
                    Some(n) => format!(", starting {} apart", plural(n, "move")),
                    None => String::new(),
                };
                let fire = match int("fire_range") {
                    Some(0) => ", with no fire".to_string(),
                    Some(n) => format!(", firing at {} or closer", plural(n, "move")),
                    None => String::new(),
                };
                let turns = match int("turns") {
                    Some(n) => format!(", for at most {}", plural(n, "turn")),
                    None => String::new(),
                };
                // The system's own words for whose number the break point is ("LW-7: an army
                // breaks at half its units", or the tool's assumption and why).
                let whose = notes
                    .iter()
                    .find(|n| n.contains("a side breaks at"))
                    .and_then(|n| n.rsplit("; ").next())
                    .map(str::to_string);
                let breaks = match (int("break_point"), whose) {
                    (_, Some(w)) if sc == Scenario::Line => format!("; {w}"),
                    (Some(n), None) if sc == Scenario::Line => {
                        format!("; a side breaks when {n}% of its units are gone")
                    }
                    _ => String::new(),
                };
                let who = match self.size {
                    _ if sc == Scenario::Engagement => "an engagement of one unit a side".to_string(),
                    Buys::Units => "a line in which each side fields the units its points buy, the smaller army setting the frontage and the larger standing its extra units behind its first files".to_string(),
                    Buys::Size(_) => {
                        let supports = int("supports").unwrap_or(0);
                        format!(
                            "a line of {} a side{}",
                            plural(i64::from(self.units_a_side), "unit"),
                            if supports > 0 {
                                format!(" ({supports} with a support behind)")
                            } else {
                                String::new()
                            }
                        )
                    }
                };
                format!("{who}{start}{fire}{turns}{breaks}")
            }
        };
        let charges = if self.scenario.is_battle() {
            let at = int("charge_at_turn").unwrap_or(0);
            let shaken = r.has("charge_when_shaken") && r.bool("charge_when_shaken");
            // Only side A chooses to charge (a melee's winner may still be bound to charge on).
            match (at, shaken) {
                (0, false) => "; neither side chooses to charge".to_string(),
                (0, true) => {
                    "; side A charges only a shaken target, and side B never chooses to charge"
                        .to_string()
                }
                (t, false) => {
                    format!("; side A charges from turn {t} on, and side B never chooses to charge")
                }
                (t, true) => format!(
                    "; side A charges from turn {t} on, or earlier at a shaken target, and side B never chooses to charge"
                ),
            }
        } else {
            String::new()
        };
        format!(
            "{what}{charges}; {} a side, each pair played both ways round (each type is side A once).",
            points_words(self.budget)
        )
    }

    /// The costs the file gives, one a term.
    pub fn file_costs(&self) -> Vec<f64> {
        self.terms.iter().map(|t| t.cost).collect()
    }

    /// How many of each term unit type `i` has: a step's (per-step terms) or the unit's.
    fn counts(&self, i: usize) -> Vec<f64> {
        self.terms
            .iter()
            .map(|t| count(&self.units[i].spec, &t.word))
            .collect()
    }

    /// The sum over the per-step terms (`per_stand`) or the per-unit ones of unit type `i`'s
    /// count of each times its cost under `costs`.
    fn priced(&self, costs: &[f64], i: usize, per_stand: bool) -> f64 {
        self.terms
            .iter()
            .zip(costs)
            .zip(self.counts(i))
            .filter(|((t, _), _)| t.per_stand == per_stand)
            .map(|((_, k), n)| k * n)
            .sum()
    }

    /// What a step of unit type `i` (a stand, a pip, a whole unit) costs under `costs`.
    fn per_stand(&self, costs: &[f64], i: usize) -> f64 {
        self.priced(costs, i, true)
    }

    /// What a side of unit type `i` costs under `costs` besides its steps: each unit's extras.
    fn extras(&self, costs: &[f64], i: usize) -> f64 {
        f64::from(self.units_a_side) * self.priced(costs, i, false)
    }

    /// What a side of unit type `i` with `stands` steps costs under `costs`.
    pub fn cost_of(&self, costs: &[f64], i: usize, stands: u32) -> f64 {
        f64::from(stands) * self.per_stand(costs, i) + self.extras(costs, i)
    }

    /// The fewest and the most steps a side may have: a unit's size times the units a side, or
    /// whole units, at most a unit behind each file of a line.
    fn bounds(&self) -> (u32, u32) {
        match self.size {
            Buys::Size(s) => (s.min * self.units_a_side, s.max * self.units_a_side),
            Buys::Units => (1, 2 * MAX_FILES),
        }
    }

    /// The most steps (stands, pips, units) a side of unit type `i` can field within the budget
    /// under `costs`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when one step is over the budget, or the count passes 1000, or falls
    /// outside what the system allows.
    pub fn stands_at(&self, costs: &[f64], i: usize) -> Result<u32> {
        let stand = self.per_stand(costs, i);
        let left = self.budget - self.extras(costs, i);
        let n = ((left + 1e-9) / stand).floor();
        let many = self.size.many();
        if !(1.0..=1000.0).contains(&n) {
            return Err(Error::Invalid {
                what: "budget".into(),
                value: format!("{}", self.budget),
                allowed: format!(
                    "a budget that pays for 1 to 1000 {many} of every unit type: {} costs {} {} and {} besides, {} {many}",
                    self.units[i].name,
                    money(stand),
                    a_one(self.size.one()),
                    money(self.extras(costs, i)),
                    if n < 1.0 {
                        "under 1".to_string()
                    } else {
                        format!("{n}")
                    }
                ),
            });
        }
        let n = n as u32;
        let (lo, hi) = self.bounds();
        if n < lo || n > hi {
            return Err(Error::Invalid {
                what: "budget".into(),
                value: format!("{}", self.budget),
                allowed: match self.size {
                    Buys::Size(s) => format!(
                        "a budget at which every unit type fields {} to {} {many} a unit ({}{}): {} would field {}",
                        s.min,
                        s.max,
                        s.rule,
                        if self.units_a_side > 1 {
                            format!(", {} units a side", self.units_a_side)
                        } else {
                            String::new()
                        },
                        self.units[i].name,
                        self.size.count(n)
                    ),
                    Buys::Units => format!(
                        "a budget at which every unit type fields 1 to {hi} units (a line holds at most {MAX_FILES} files, a unit behind each at most): {} would field {n}",
                        self.units[i].name
                    ),
                },
            });
        }
        Ok(n)
    }

    /// Why matchup `m` cannot be laid out, if it cannot: a side's steps outside what the system
    /// allows, or (whole units) a line that cannot hold the larger army.
    fn unfit(&self, m: &Matchup) -> Option<String> {
        let (lo, hi) = self.bounds();
        for n in [m.a_stands, m.b_stands] {
            if n < lo || n > hi {
                return Some(format!(
                    "a side has {}; allowed: {lo} to {hi}",
                    self.size.count(n)
                ));
            }
        }
        if self.size == Buys::Units {
            let (small, large) = (m.a_stands.min(m.b_stands), m.a_stands.max(m.b_stands));
            if small > MAX_FILES {
                return Some(format!(
                    "a line holds at most {MAX_FILES} files, and the smaller army here fields {small} units; allowed: a budget at which the smaller army of every pair fields at most {MAX_FILES} units"
                ));
            }
            if large > 2 * small {
                return Some(format!(
                    "a line cannot hold {large} units against {small}: the smaller army sets the frontage and the larger stands at most one unit behind each file; allowed: armies within twice each other's units (costs of the unit types within twice each other's)"
                ));
            }
        }
        None
    }

    /// The matchups of the assessment and the fit at `costs`: every ordered pair of types
    /// (side A first), side A at equal points and `spread` steps either side (a unit each, in a
    /// line of a size; none for the check, `spread` 0), in a fixed order; a matchup of the
    /// spread that cannot be laid out ([`PointsFile::unfit`]) is left out, and counted.
    fn grid(&self, costs: &[f64], spread: u32) -> (Vec<Matchup>, usize) {
        let n: Vec<u32> = (0..self.units.len())
            .map(|i| self.stands_at(costs, i).unwrap_or(1))
            .collect();
        let s = i64::from(spread);
        let step = i64::from(self.units_a_side);
        let mut out = Vec::new();
        let mut left_out = 0;
        for a in 0..self.units.len() {
            for b in 0..self.units.len() {
                if spread == 0 && a == b {
                    continue;
                }
                for d in -s..=s {
                    let na = i64::from(n[a]) + d * step;
                    if na < 1 {
                        continue;
                    }
                    let m = Matchup {
                        a,
                        b,
                        a_stands: na as u32,
                        b_stands: n[b],
                    };
                    if d != 0 && self.unfit(&m).is_some() {
                        left_out += 1;
                        continue;
                    }
                    out.push(m);
                }
            }
        }
        (out, left_out)
    }

    fn matchups(&self, costs: &[f64], spread: u32) -> Vec<Matchup> {
        self.grid(costs, spread).0
    }

    /// Every matchup the assessment and the fit play, in order (what shards split).
    pub fn plan(&self) -> Vec<Matchup> {
        self.matchups(&self.file_costs(), self.spread)
    }

    /// Matchups of the spread left out of the plan because they cannot be laid out (a line
    /// that cannot hold the larger army, a side past the size the system allows).
    pub fn left_out(&self) -> usize {
        self.grid(&self.file_costs(), self.spread).1
    }

    /// Side `side`'s spec in matchup `m`.
    fn side_spec(&self, m: &Matchup, side: usize) -> String {
        let (i, n) = if side == 0 {
            (m.a, m.a_stands)
        } else {
            (m.b, m.b_stands)
        };
        let spec = self.units[i].spec.trim();
        match self.size {
            Buys::Size(s) if self.scenario != Scenario::Line => with_size(spec, s.key, n),
            Buys::Size(s) => {
                // The steps spread as evenly as the count allows, the first files one more.
                let u = self.units_a_side.max(1);
                let (q, r) = (n / u, n % u);
                let mut parts = Vec::new();
                if r > 0 {
                    parts.push(format!("{r} x {}", with_size(spec, s.key, q + 1)));
                }
                if u > r {
                    parts.push(format!("{} x {}", u - r, with_size(spec, s.key, q)));
                }
                parts.join("; ")
            }
            Buys::Units => {
                let front = m.a_stands.min(m.b_stands);
                let behind = n - front.min(n);
                if behind > 0 {
                    format!("{front} x {spec}; {behind} behind")
                } else {
                    format!("{front} x {spec}")
                }
            }
        }
    }

    fn inputs_of(&self, m: &Matchup) -> Vec<Input> {
        let mut v = self.inputs.clone();
        for (side, key) in ["attacker", "defender"].into_iter().enumerate() {
            v.push(Input {
                key: key.into(),
                value: self.side_spec(m, side),
                source: Source::Set,
            });
        }
        v
    }

    /// A matchup in words: `Veteran ×5 v Regular ×6`; in a line, `4 Elite v 6 Regular` (whole
    /// units) or `Veteran ×27 v Regular ×36 (stands, 6 units a side)`.
    pub fn describe(&self, m: &Matchup) -> String {
        let (a, b) = (&self.units[m.a].name, &self.units[m.b].name);
        match self.size {
            Buys::Units => format!("{} {a} v {} {b}", m.a_stands, m.b_stands),
            Buys::Size(_) if self.scenario == Scenario::Line => format!(
                "{a} ×{} v {b} ×{} ({}, {} units a side)",
                m.a_stands,
                m.b_stands,
                self.size.many(),
                self.units_a_side
            ),
            Buys::Size(_) => format!("{a} ×{} v {b} ×{}", m.a_stands, m.b_stands),
        }
    }

    /// Play one matchup: exact where it solves (unless `exact_only` is false and it does
    /// not), else by Monte Carlo with the file's seed and trials.
    ///
    /// # Errors
    /// A matchup that neither solves nor (with `exact_only`) may run by Monte Carlo; a run's
    /// error; [`Error::Cancelled`].
    pub fn play(&self, m: &Matchup, run: &RunOptions, control: &Control) -> Result<Score> {
        if let Some(why) = self.unfit(m) {
            return Err(Error::Conflict(format!("{}: {why}", self.describe(m))));
        }
        let job = system::build(
            &self.system,
            self.scenario,
            &self.inputs_of(m),
            &self.options,
        )?;
        if self.monte_carlo || (!job.has_exact() && !run.exact_only) {
            let r = job.run(&run.clone().exact_only(false), control)?;
            return score_of(&r, false, run.confidence);
        }
        match job.run(&run.clone().exact_only(true), control) {
            Ok(r) => return score_of(&r, true, run.confidence),
            Err(Error::Cancelled) => return Err(Error::Cancelled),
            Err(e) if run.exact_only => {
                return Err(Error::Conflict(format!(
                    "{} does not solve exactly here ({e}); leave out --exact-only to play it by Monte Carlo",
                    self.describe(m)
                )));
            }
            Err(_) => {}
        }
        let r = job.run(&run.clone().exact_only(false), control)?;
        score_of(&r, false, run.confidence)
    }
}

/// "a stand", "an elite …": `one` with its article.
fn a_one(one: &str) -> String {
    let w = one.replace('_', " ");
    if w.starts_with(['a', 'e', 'i', 'o', 'u']) && !w.starts_with("uni") {
        format!("an {w}")
    } else {
        format!("a {w}")
    }
}

/// "a stand's".
fn a_ones(one: &str) -> String {
    format!("{}'s", a_one(one))
}

/// One game of the plan: unit type `a` with `a_stands` as side A against `b` with `b_stands` —
/// each side's steps of what the budget buys (its stands or pips, in all its units; or its
/// units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Matchup {
    /// Side A's unit type.
    pub a: usize,
    /// Side B's.
    pub b: usize,
    /// Side A's steps (stands, pips or units).
    pub a_stands: u32,
    /// Side B's.
    pub b_stands: u32,
}

/// Side A's score in a matchup: its chance of winning plus half the chance that neither side
/// wins.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// The score (exact, or the estimate).
    pub value: f64,
    /// Trials behind it (0: exact).
    pub trials: u64,
    /// The interval's lower end (the value when exact).
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

impl Score {
    /// Whether the score is exact.
    pub fn exact(&self) -> bool {
        self.trials == 0
    }
}

/// The outcomes in which side A, and side B, wins.
const A_WINS: [&str; 3] = ["side_a_holds", "attacker_wins", "side_a_wins"];
const B_WINS: [&str; 3] = ["side_b_holds", "defender_wins", "side_b_wins"];

fn score_of(r: &Report, exact: bool, confidence: f64) -> Result<Score> {
    let find = |names: &[&str]| {
        r.outcomes
            .iter()
            .find(|o| names.contains(&o.outcome.as_str()))
            .map(|o| &o.cell)
    };
    let (Some(a), Some(b)) = (find(&A_WINS), find(&B_WINS)) else {
        return Err(Error::Conflict(format!(
            "{} has no outcome of a side winning ({} / {})",
            r.scenario,
            A_WINS.join(", "),
            B_WINS.join(", ")
        )));
    };
    if exact {
        let (pa, pb) = (a.exact.unwrap_or(a.p), b.exact.unwrap_or(b.p));
        let v = pa + 0.5 * (1.0 - pa - pb);
        return Ok(Score {
            value: v,
            trials: 0,
            low: v,
            high: v,
        });
    }
    let n = r.trials.max(1);
    let (ka, kb) = (a.count.unwrap_or(0), b.count.unwrap_or(0));
    // Half points: the interval as a proportion's of n trials, which is wide enough (draws
    // only narrow the spread of a score).
    let twice = 2 * ka + (n - ka - kb);
    let value = twice as f64 / (2 * n) as f64;
    let (low, high) = wilson_real(value, n, z_for_confidence(confidence));
    Ok(Score {
        value,
        trials: n,
        low,
        high,
    })
}

/// The Wilson interval of a proportion `p` of `n` trials (p need not be a whole count's).
fn wilson_real(p: f64, n: u64, z: f64) -> (f64, f64) {
    let n = n as f64;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One unit type's place in a matrix.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Side {
    /// Its steps at the budget (stands, pips or units).
    pub stands: u32,
    /// The points they cost.
    pub points: f64,
    /// Its mean score against the other types.
    pub mean: f64,
}

/// Every type's score against every other at equal points under one set of costs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Matrix {
    /// The costs, one a term.
    pub costs: Vec<f64>,
    /// Each type's stands, points and mean score.
    pub sides: Vec<Side>,
    /// `cells[i][j]`: type i's score against type j, both sides averaged (½ on the diagonal).
    pub cells: Vec<Vec<Score>>,
    /// The mean of |score − ½| over the pairs.
    pub mean_gap: f64,
    /// The pair furthest from ½ (i's score against j, i ahead).
    pub worst: (usize, usize),
}

impl Matrix {
    /// Built from `play`, which gives side A's score in a matchup.
    fn build(
        file: &PointsFile,
        costs: &[f64],
        play: &mut dyn FnMut(&Matchup) -> Result<Score>,
    ) -> Result<Matrix> {
        let n = file.units.len();
        let stands: Vec<u32> = (0..n)
            .map(|i| file.stands_at(costs, i))
            .collect::<Result<_>>()?;
        let half = Score {
            value: 0.5,
            trials: 0,
            low: 0.5,
            high: 0.5,
        };
        let mut cells = vec![vec![half; n]; n];
        for i in 0..n {
            for j in i + 1..n {
                let m = |a: usize, b: usize| Matchup {
                    a,
                    b,
                    a_stands: stands[a],
                    b_stands: stands[b],
                };
                let s1 = play(&m(i, j))?;
                let s2 = play(&m(j, i))?;
                let v = 0.5 * (s1.value + 1.0 - s2.value);
                let hw = |s: &Score| (s.high - s.low) / 2.0;
                let w = 0.5 * (hw(&s1).powi(2) + hw(&s2).powi(2)).sqrt();
                let trials = s1.trials.max(s2.trials);
                let cell = Score {
                    value: v,
                    trials,
                    low: if trials == 0 { v } else { (v - w).max(0.0) },
                    high: if trials == 0 { v } else { (v + w).min(1.0) },
                };
                cells[i][j] = cell;
                cells[j][i] = Score {
                    value: 1.0 - v,
                    trials,
                    low: 1.0 - cell.high,
                    high: 1.0 - cell.low,
                };
            }
        }
        let mut worst = (0, 1.min(n - 1));
        let mut sum = 0.0;
        for i in 0..n {
            for j in i + 1..n {
                let g = (cells[i][j].value - 0.5).abs();
                sum += g;
                if g > (cells[worst.0][worst.1].value - 0.5).abs() {
                    worst = (i, j);
                }
            }
        }
        if cells[worst.0][worst.1].value < 0.5 {
            worst = (worst.1, worst.0);
        }
        let pairs = (n * (n - 1) / 2).max(1) as f64;
        let sides = (0..n)
            .map(|i| Side {
                stands: stands[i],
                points: file.cost_of(costs, i, stands[i]),
                mean: (0..n)
                    .filter(|&j| j != i)
                    .map(|j| cells[i][j].value)
                    .sum::<f64>()
                    / (n - 1) as f64,
            })
            .collect();
        Ok(Matrix {
            costs: costs.to_vec(),
            sides,
            cells,
            mean_gap: sum / pairs,
            worst,
        })
    }
}

/// The cost formula fitted to the matchups.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fit {
    /// The fitted cost of each term (the reference's is its file cost).
    pub costs: Vec<f64>,
    /// Standard errors (0 for the reference).
    pub se: Vec<f64>,
    /// Each cost's interval at the run's confidence (normal approximation).
    pub low: Vec<f64>,
    /// Its upper end.
    pub high: Vec<f64>,
    /// The costs rounded to the file's step (what the check plays).
    pub rounded: Vec<f64>,
    /// The slope: logit points of score per unit of ln(worth A / worth B).
    pub k: f64,
    /// Its standard error.
    pub k_se: f64,
    /// Side A's edge on the logit scale at equal worth.
    pub h: f64,
    /// Its standard error.
    pub h_se: f64,
    /// The spread of the matchups about the model, on the logit scale (weighted root mean
    /// square of the residuals, per degree of freedom).
    pub sigma: f64,
    /// Matchups fitted.
    pub matchups: usize,
    /// Numbers fitted.
    pub parameters: usize,
}

/// Solve `a x = b` (a square, by Gaussian elimination with partial pivoting); `None` when `a`
/// is singular to working precision.
fn solve_linear(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    let scale = a
        .iter()
        .flatten()
        .fold(0.0f64, |m, x| m.max(x.abs()))
        .max(f64::MIN_POSITIVE);
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() <= 1e-12 * scale {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..n {
            let f = a[r][c] / a[c][c];
            for k in c..n {
                a[r][k] -= f * a[c][k];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

fn logit(p: f64) -> f64 {
    let p = p.clamp(CLIP, 1.0 - CLIP);
    (p / (1.0 - p)).ln()
}

/// Fit the cost formula to side A's scores in `plan` (see the module's description).
///
/// # Errors
/// [`Error::Conflict`] when the matchups are too few for the numbers fitted, or cannot tell two
/// terms apart (they always come together), or a worth falls to 0 or below.
pub fn fit(file: &PointsFile, plan: &[Matchup], scores: &[Score], confidence: f64) -> Result<Fit> {
    let free: Vec<usize> = (0..file.terms.len())
        .filter(|&t| t != file.reference)
        .collect();
    let np = 2 + free.len();
    if plan.len() <= np {
        return Err(Error::Conflict(format!(
            "{} matchups cannot fit {np} numbers (side A's edge, the slope and {} costs): name more unit types or a larger spread",
            plan.len(),
            free.len()
        )));
    }
    let counts: Vec<Vec<f64>> = (0..file.units.len()).map(|i| file.counts(i)).collect();
    // d worth / d cost of each term, for a side with `n` steps (each unit of a line pays its
    // per-unit terms).
    let units = f64::from(file.units_a_side);
    let grad = |i: usize, n: u32| -> Vec<f64> {
        file.terms
            .iter()
            .zip(&counts[i])
            .map(|(t, c)| {
                if t.per_stand {
                    f64::from(n) * c
                } else {
                    units * c
                }
            })
            .collect()
    };
    let worth = |costs: &[f64], i: usize, n: u32| -> f64 {
        grad(i, n).iter().zip(costs).map(|(g, c)| g * c).sum()
    };
    let y: Vec<f64> = scores.iter().map(|s| logit(s.value)).collect();
    let w: Vec<f64> = scores
        .iter()
        .map(|s| {
            let p = s.value.clamp(0.01, 0.99);
            p * (1.0 - p)
        })
        .collect();
    let costs_of = |p: &[f64]| -> Vec<f64> {
        let mut c = file.file_costs();
        for (k, &t) in free.iter().enumerate() {
            c[t] = p[2 + k];
        }
        c
    };
    // Residuals and Jacobian at p; None where a worth is not positive.
    let model = |p: &[f64]| -> Option<(f64, Vec<Vec<f64>>, Vec<f64>)> {
        let c = costs_of(p);
        let mut rss = 0.0;
        let mut jac = Vec::with_capacity(plan.len());
        let mut res = Vec::with_capacity(plan.len());
        for (m, (&yi, &wi)) in plan.iter().zip(y.iter().zip(&w)) {
            let (wa, wb) = (worth(&c, m.a, m.a_stands), worth(&c, m.b, m.b_stands));
            if wa <= 0.0 || wb <= 0.0 || !wa.is_finite() || !wb.is_finite() {
                return None;
            }
            let d = wa.ln() - wb.ln();
            let eta = p[0] + p[1] * d;
            let (ga, gb) = (grad(m.a, m.a_stands), grad(m.b, m.b_stands));
            let mut row = vec![1.0, d];
            row.extend(free.iter().map(|&t| p[1] * (ga[t] / wa - gb[t] / wb)));
            res.push(yi - eta);
            rss += wi * (yi - eta).powi(2);
            jac.push(row);
        }
        Some((rss, jac, res))
    };
    let normal = |jac: &[Vec<f64>], res: &[f64]| -> (Vec<Vec<f64>>, Vec<f64>) {
        let mut a = vec![vec![0.0; np]; np];
        let mut g = vec![0.0; np];
        for ((row, r), wi) in jac.iter().zip(res).zip(&w) {
            for i in 0..np {
                g[i] += wi * row[i] * r;
                for j in 0..np {
                    a[i][j] += wi * row[i] * row[j];
                }
            }
        }
        (a, g)
    };
    // Start: the file's costs, with the edge and slope that fit them best (a straight line).
    let mut p = vec![0.0, 1.0];
    p.extend(free.iter().map(|&t| file.terms[t].cost));
    {
        let c = file.file_costs();
        let (mut sw, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (m, (&yi, &wi)) in plan.iter().zip(y.iter().zip(&w)) {
            let d = worth(&c, m.a, m.a_stands).ln() - worth(&c, m.b, m.b_stands).ln();
            sw += wi;
            sx += wi * d;
            sy += wi * yi;
            sxx += wi * d * d;
            sxy += wi * d * yi;
        }
        let det = sw * sxx - sx * sx;
        if det.abs() > 1e-12 * sw * sxx.max(1e-300) {
            p[1] = (sw * sxy - sx * sy) / det;
            p[0] = (sy - p[1] * sx) / sw;
        }
        if p[1].abs() < 1e-6 {
            p[1] = 1.0;
        }
    }
    let Some((mut rss, mut jac, mut res)) = model(&p) else {
        return Err(Error::Conflict(
            "the file's costs give a unit a worth of 0 or less".into(),
        ));
    };
    let mut lambda = 1e-3;
    for _ in 0..500 {
        let (a, g) = normal(&jac, &res);
        let mut damped = a.clone();
        for i in 0..np {
            damped[i][i] += lambda * a[i][i].max(1e-12);
        }
        let Some(step) = solve_linear(damped, g) else {
            lambda *= 10.0;
            if lambda > 1e12 {
                break;
            }
            continue;
        };
        let q: Vec<f64> = p.iter().zip(&step).map(|(x, s)| x + s).collect();
        match model(&q) {
            Some((r2, j2, e2)) if r2 <= rss => {
                let done = rss - r2 <= 1e-14 * rss.max(1e-300) || rss < 1e-28;
                p = q;
                rss = r2;
                jac = j2;
                res = e2;
                lambda = (lambda / 10.0).max(1e-12);
                if done {
                    break;
                }
            }
            _ => {
                lambda *= 10.0;
                if lambda > 1e12 {
                    break;
                }
            }
        }
    }
    let (a, _) = normal(&jac, &res);
    let mut inv = vec![vec![0.0; np]; np];
    for c in 0..np {
        let mut e = vec![0.0; np];
        e[c] = 1.0;
        let col = solve_linear(a.clone(), e).ok_or_else(|| {
            Error::Conflict(format!(
                "the matchups cannot tell the costs of {} apart (terms that always come together, or no unit whose {} vary): change the unit types or price them as one",
                free.iter()
                    .map(|&t| file.terms[t].word.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                file.size.many()
            ))
        })?;
        for r in 0..np {
            inv[r][c] = col[r];
        }
    }
    let dof = (plan.len() - np) as f64;
    let sigma2 = rss / dof;
    let z = z_for_confidence(confidence);
    let se_p: Vec<f64> = (0..np)
        .map(|i| (inv[i][i].max(0.0) * sigma2).sqrt())
        .collect();
    let costs = costs_of(&p);
    let mut se = vec![0.0; file.terms.len()];
    for (k, &t) in free.iter().enumerate() {
        se[t] = se_p[2 + k];
    }
    let step = file.round;
    let rounded: Vec<f64> = costs
        .iter()
        .enumerate()
        .map(|(t, &c)| {
            if t == file.reference {
                c
            } else {
                let r = (c / step).round() * step;
                // Keep a stand's cost above 0.
                if file.terms[t].per_stand && r <= 0.0 {
                    step
                } else {
                    r
                }
            }
        })
        .collect();
    Ok(Fit {
        low: costs.iter().zip(&se).map(|(c, s)| c - z * s).collect(),
        high: costs.iter().zip(&se).map(|(c, s)| c + z * s).collect(),
        rounded,
        costs,
        se,
        k: p[1],
        k_se: se_p[1],
        h: p[0],
        h_se: se_p[0],
        sigma: sigma2.sqrt(),
        matchups: plan.len(),
        parameters: np,
    })
}

/// Everything a points run finds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Points {
    /// The file.
    pub file: PointsFile,
    /// The matchups of the assessment and the fit, in order.
    pub plan: Vec<Matchup>,
    /// Side A's score in each.
    pub scores: Vec<Score>,
    /// The matrix at the file's costs.
    pub at_file: Matrix,
    /// The fitted formula.
    pub fit: Fit,
    /// The matrix at the fitted costs, rounded.
    pub at_fitted: Option<Matrix>,
    /// Why the check did not run, when it did not.
    pub check_refused: Option<String>,
    /// The confidence of every interval.
    pub confidence: f64,
    /// Matchups that ran by Monte Carlo (the rest are exact).
    pub monte_carlo: usize,
    /// Matchups of the spread left out because they cannot be laid out.
    #[serde(skip_serializing_if = "is_zero")]
    pub left_out: usize,
    /// The command line that makes the same numbers (set by the caller, which knows how it was
    /// asked; empty until then).
    pub command: String,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Play the matchups of `plan` with indices in `range`, reporting each one done.
fn play_range(
    file: &PointsFile,
    plan: &[Matchup],
    range: std::ops::Range<usize>,
    run: &RunOptions,
    control: &Control,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<Score>> {
    let total = range.len();
    let mut out = Vec::with_capacity(total);
    for (done, m) in plan[range].iter().enumerate() {
        if control.is_cancelled() {
            return Err(Error::Cancelled);
        }
        out.push(file.play(m, run, control)?);
        progress(done + 1, total);
    }
    Ok(out)
}

/// The run options of a points file's matchups: its seed and trials, with the caller's
/// confidence, exact budget and `exact_only`.
pub fn run_options(file: &PointsFile, base: &RunOptions) -> RunOptions {
    let mut r = base.clone();
    r.spec = RunOptions::new(file.trials, file.seed)
        .threads(base.spec.threads)
        .spec;
    r
}

/// Play every matchup, fit the formula and check it (see the module's description).
///
/// # Errors
/// As [`PointsFile::play`] and [`fit`]; [`Error::Cancelled`].
pub fn run(
    file: &PointsFile,
    base: &RunOptions,
    control: &Control,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Points> {
    let plan = file.plan();
    let run = run_options(file, base);
    let scores = play_range(file, &plan, 0..plan.len(), &run, control, progress)?;
    finish(file, plan, scores, &run, control)
}

/// From the plan's scores: the matrix at the file's costs, the fit, and the check.
fn finish(
    file: &PointsFile,
    plan: Vec<Matchup>,
    scores: Vec<Score>,
    run: &RunOptions,
    control: &Control,
) -> Result<Points> {
    let lookup: std::collections::HashMap<Matchup, Score> =
        plan.iter().copied().zip(scores.iter().copied()).collect();
    let at_file = Matrix::build(file, &file.file_costs(), &mut |m| {
        lookup
            .get(m)
            .copied()
            .ok_or_else(|| Error::Conflict(format!("{} was not played", file.describe(m))))
    })?;
    let fit = fit(file, &plan, &scores, run.confidence)?;
    let (at_fitted, check_refused) = match Matrix::build(file, &fit.rounded, &mut |m| {
        if control.is_cancelled() {
            return Err(Error::Cancelled);
        }
        match lookup.get(m) {
            Some(s) => Ok(*s),
            None => file.play(m, run, control),
        }
    }) {
        Ok(m) => (Some(m), None),
        Err(Error::Cancelled) => return Err(Error::Cancelled),
        Err(e) => (None, Some(e.to_string())),
    };
    let monte_carlo = scores.iter().filter(|s| !s.exact()).count();
    Ok(Points {
        command: String::new(),
        file: file.clone(),
        plan,
        scores,
        at_file,
        fit,
        at_fitted,
        check_refused,
        confidence: run.confidence,
        monte_carlo,
        left_out: file.left_out(),
    })
}

/// One shard's scores, with what is needed to check and merge it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shard {
    /// Always [`FORMAT`].
    pub format: String,
    /// The tool version that made it.
    pub version: String,
    /// The points file's path, as given.
    pub path: String,
    /// Its text.
    pub source: String,
    /// Which shard (1-based).
    pub shard: u64,
    /// Of how many.
    pub of: u64,
    /// The plan's matchups this shard played (their indices start here).
    pub first: usize,
    /// Side A's score in each.
    pub scores: Vec<Score>,
    /// The confidence of the intervals.
    pub confidence: f64,
    /// Every matchup was played by Monte Carlo.
    #[serde(default)]
    pub monte_carlo: bool,
    /// The mechanic file the points file names and those it extends, with their text (none for
    /// a built-in system).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<(String, String)>,
}

/// Play shard `k` of `n` of the plan.
///
/// # Errors
/// As [`run`].
pub fn run_shard(
    file: &PointsFile,
    k: u64,
    n: u64,
    base: &RunOptions,
    control: &Control,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Shard> {
    let plan = file.plan();
    let r = super::shard::chunk_range(plan.len() as u64, k, n);
    let range = r.start as usize..r.end as usize;
    let run = run_options(file, base);
    let scores = play_range(file, &plan, range.clone(), &run, control, progress)?;
    Ok(Shard {
        format: FORMAT.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        path: file.path.clone(),
        source: file.source.clone(),
        shard: k,
        of: n,
        first: range.start,
        scores,
        confidence: run.confidence,
        monte_carlo: file.monte_carlo,
        files: crate::mechanic::files_of(&file.system).unwrap_or_default(),
    })
}

/// Add the parts of every shard and finish as one run would (the check's matchups play here).
///
/// # Errors
/// [`Error::Conflict`] for parts of different files, versions or counts, a missing or repeated
/// shard; as [`run`] otherwise.
pub fn merge(parts: &[Shard], base: &RunOptions, control: &Control) -> Result<Points> {
    let first = parts
        .first()
        .ok_or_else(|| Error::Conflict("no shards to merge".into()))?;
    for p in parts {
        if p.format != FORMAT {
            return Err(Error::Conflict(format!(
                "shard {} of {}: not a points shard ({})",
                p.shard, p.of, p.format
            )));
        }
        if p.source != first.source || p.path != first.path || p.files != first.files {
            return Err(Error::Conflict(format!(
                "shard {} of {} is of another points file or another version of {}",
                p.shard, p.of, first.path
            )));
        }
        if p.version != first.version
            || p.of != first.of
            || p.confidence != first.confidence
            || p.monte_carlo != first.monte_carlo
        {
            return Err(Error::Conflict(format!(
                "shard {} of {} was made by version {} with {} shards at {} confidence, shard {} of {} by {} with {} at {}",
                p.shard,
                p.of,
                p.version,
                p.of,
                p.confidence,
                first.shard,
                first.of,
                first.version,
                first.of,
                first.confidence
            )));
        }
    }
    let mut have: Vec<&Shard> = parts.iter().collect();
    have.sort_by_key(|p| p.shard);
    let want: Vec<u64> = (1..=first.of).collect();
    let got: Vec<u64> = have.iter().map(|p| p.shard).collect();
    if got != want {
        let missing: Vec<String> = want
            .iter()
            .filter(|k| !got.contains(k))
            .map(u64::to_string)
            .collect();
        return Err(Error::Conflict(if missing.is_empty() {
            format!("a shard is given twice: shards {got:?} of {}", first.of)
        } else {
            format!("missing shard(s) {} of {}", missing.join(", "), first.of)
        }));
    }
    // A mechanic file the points file names is read from the shard, as it was when the shard
    // was played.
    let mut read = |p: &str| -> Result<String> {
        let want = crate::paths::normalize(p);
        first
            .files
            .iter()
            .find(|(f, _)| crate::paths::normalize(f) == want)
            .map(|(_, text)| text.clone())
            .ok_or_else(|| {
                Error::Conflict(format!(
                    "shard {} of {} does not hold {p}, which its points file names",
                    first.shard, first.of
                ))
            })
    };
    let mut file = PointsFile::parse_with(&first.path, &first.source, &mut read)?;
    file.monte_carlo = first.monte_carlo;
    let plan = file.plan();
    let mut scores = Vec::with_capacity(plan.len());
    for p in &have {
        if p.first != scores.len() {
            return Err(Error::Conflict(format!(
                "shard {} of {} starts at matchup {}, not {}: the plan differs",
                p.shard,
                p.of,
                p.first,
                scores.len()
            )));
        }
        scores.extend_from_slice(&p.scores);
    }
    if scores.len() != plan.len() {
        return Err(Error::Conflict(format!(
            "the shards hold {} matchups, the plan {}",
            scores.len(),
            plan.len()
        )));
    }
    let run = run_options(&file, &base.clone().confidence(first.confidence));
    finish(&file, plan, scores, &run, control)
}

/// A score as a percentage.
fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A cost to two decimals without trailing zeros.
fn money(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

impl Points {
    /// The one-line heading.
    pub fn header(&self) -> String {
        format!("Points: {}", self.file.title)
    }

    fn system_name(&self) -> String {
        crate::labels::capitalised(&crate::labels::system(&self.file.system))
    }

    /// How a term is priced, in words.
    fn priced(&self, t: &Term) -> String {
        if t.per_stand {
            a_one(self.file.size.one())
        } else {
            "a unit".into()
        }
    }

    /// The answer in a sentence: what each term is worth against the reference.
    pub fn answer(&self) -> String {
        let f = &self.file;
        let r = &f.terms[f.reference];
        let pc = (self.confidence * 100.0).round();
        if f.size == Buys::Units {
            // Every term is a unit's: a unit costs the sum of its spec words'.
            let parts: Vec<String> = f
                .terms
                .iter()
                .enumerate()
                .filter(|&(t, _)| t != f.reference)
                .map(|(t, term)| {
                    format!(
                        "{} {} ({}–{})",
                        term.word,
                        money(self.fit.costs[t]),
                        money(self.fit.low[t]),
                        money(self.fit.high[t])
                    )
                })
                .collect();
            return format!(
                "at {} points a side, if {} costs {} a unit: {} ({pc}% intervals from the fit; a unit costs the sum of its spec words' costs)",
                money(f.budget),
                r.word,
                money(r.cost),
                parts.join(", ")
            );
        }
        let one = f.size.one().replace('_', " ");
        let parts: Vec<String> = f
            .terms
            .iter()
            .enumerate()
            .filter(|&(t, _)| t != f.reference)
            .map(|(t, term)| {
                let what = if term.per_stand {
                    format!("a {} {one}", term.word)
                } else if (0..f.units.len()).all(|i| {
                    let c = count(&f.units[i].spec, &term.word);
                    c == 0.0 || c == 1.0
                }) {
                    format!("{} (a unit)", term.word)
                } else {
                    format!("{} (a unit, for each 1 of {}=N)", term.word, term.word)
                };
                format!(
                    "{what} {} ({}–{})",
                    money(self.fit.costs[t]),
                    money(self.fit.low[t]),
                    money(self.fit.high[t])
                )
            })
            .collect();
        format!(
            "at {} points a side, if a {} {one} costs {}, {} ({pc}% intervals from the fit)",
            money(f.budget),
            r.word,
            money(r.cost),
            parts.join(", ")
        )
    }

    /// What was run, in lines.
    pub fn context_lines(&self) -> Vec<String> {
        let f = &self.file;
        let many = f.size.many();
        let buys = match f.size {
            Buys::Units => {
                let supports = crate::system::BATTLE_PARAMS
                    .iter()
                    .find(|d| d.key == "supports")
                    .map_or("", |d| d.rule);
                format!(
                    "each side fields as many units of its type as its points pay for: the smaller army sets the frontage, and the larger stands its extra units behind its first files, one behind each at most ({supports})"
                )
            }
            Buys::Size(_) if f.scenario == Scenario::Line => format!(
                "each side is {} units of its type, which field the most {many} the points pay for, spread as evenly as the count allows",
                f.units_a_side
            ),
            Buys::Size(_) => format!("each type fields the most {many} it can pay for"),
        };
        // "Rank & File engagement"; a mechanic file's name is its own: "…, melee".
        let mechanic = crate::mechanic::is_file(&f.system);
        let mut out = vec![format!(
            "{}{} {}, {} points a side; {buys}. A type's score against another: its chance of winning plus half the chance that neither wins, played both ways round.",
            self.system_name(),
            if mechanic { "," } else { "" },
            if f.scenario == Scenario::Line {
                "in a line"
            } else {
                f.scenario.name()
            },
            money(f.budget)
        )];
        if !f.fight.is_empty() {
            out.push(format!("The fight the prices rest on: {}", f.fight));
        }
        let set: Vec<String> = f
            .setting
            .iter()
            .filter(|s| !s.starts_with("rule:"))
            .cloned()
            .collect();
        let rules: Vec<String> = f
            .setting
            .iter()
            .filter_map(|s| s.strip_prefix("rule:"))
            .map(str::to_string)
            .collect();
        let mut setting = Vec::new();
        if !set.is_empty() {
            setting.push(crate::labels::settings_in_words(&set));
        }
        if !rules.is_empty() {
            setting.push(format!(
                "rules changed: {}",
                crate::labels::settings_in_words(&rules)
            ));
        }
        if !f.options.is_empty() {
            setting.push(format!(
                "optional rules: {}",
                f.options
                    .iter()
                    .map(|o| crate::labels::option(o))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if !setting.is_empty() {
            out.push(format!("Setting: {}.", setting.join("; ")));
        }
        out.push(format!(
            "Unit types: {}.",
            f.units
                .iter()
                .map(|u| format!("{} ({})", u.name, u.spec))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        out.push(if self.monte_carlo == self.plan.len() {
            format!(
                "Matchups: {}, every one by Monte Carlo{} ({} trials each, seed {}; side A at equal points and {} either side{}).",
                self.plan.len(),
                if f.monte_carlo {
                    " as asked"
                } else {
                    ", as none solves exactly here"
                },
                crate::report::thousands(f.trials),
                f.seed,
                self.spread_count(),
                self.left_out_words()
            )
        } else if self.monte_carlo == 0 {
            format!(
                "Matchups: {}, every one exact (side A at equal points and {} either side{}).",
                self.plan.len(),
                self.spread_count(),
                self.left_out_words()
            )
        } else {
            format!(
                "Matchups: {}, {} by Monte Carlo ({} trials each, seed {}), the rest exact{}.",
                self.plan.len(),
                self.monte_carlo,
                crate::report::thousands(f.trials),
                f.seed,
                if self.left_out > 0 || f.scenario == Scenario::Line {
                    format!(
                        " (side A at equal points and {} either side{})",
                        self.spread_count(),
                        self.left_out_words()
                    )
                } else {
                    String::new()
                }
            )
        });
        out.push(format!(
            "The fit: logit(side A's score) = h + k × ln(worth A / worth B), a unit's worth being the cost formula with fitted numbers ({} held at {}); weighted least squares on the logits over {} matchups: k = {} ± {}, side A's edge h = {} ± {}; the matchups stray from the model by σ = {} on the logit scale, and the intervals are scaled by it.",
            f.terms[f.reference].word,
            money(f.terms[f.reference].cost),
            self.fit.matchups,
            money(self.fit.k),
            money(self.fit.k_se),
            money(self.fit.h),
            money(self.fit.h_se),
            format_args!("{:.3}", self.fit.sigma)
        ));
        out
    }

    /// How far side A is played either side of equal points, in words ("1 stand", "1 stand a
    /// unit").
    fn spread_count(&self) -> String {
        let f = &self.file;
        let n = f.size.count(f.spread);
        if f.scenario == Scenario::Line && f.size != Buys::Units {
            format!("{n} a unit")
        } else {
            n
        }
    }

    /// The matchups of the spread left out, in words (nothing when none were).
    fn left_out_words(&self) -> String {
        match self.left_out {
            0 => String::new(),
            n => format!(
                "; {} of the spread left out, where {}",
                plural(n as i64, "matchup"),
                if self.file.size == Buys::Units {
                    "a line could not hold the larger army (more than twice the smaller's units)"
                } else {
                    "a side would pass the size its units allow"
                }
            ),
        }
    }

    /// The costs table, header first.
    pub fn cost_rows(&self) -> Vec<Vec<String>> {
        let pc = (self.confidence * 100.0).round();
        let mut rows = vec![vec![
            "term".to_string(),
            "priced".into(),
            "in the file".into(),
            "fitted".into(),
            format!("{pc}% interval"),
            "rounded".into(),
        ]];
        for (t, term) in self.file.terms.iter().enumerate() {
            rows.push(vec![
                term.word.clone(),
                self.priced(term),
                money(term.cost),
                money(self.fit.costs[t]),
                if t == self.file.reference {
                    "held".into()
                } else {
                    format!("{}–{}", money(self.fit.low[t]), money(self.fit.high[t]))
                },
                money(self.fit.rounded[t]),
            ]);
        }
        rows
    }

    /// A matrix as a table, header first: each type's steps (stands, pips or units), points,
    /// scores and mean.
    pub fn matrix_rows(&self, m: &Matrix) -> Vec<Vec<String>> {
        let f = &self.file;
        let size = if f.scenario == Scenario::Line && f.size != Buys::Units {
            format!("{} in {} units", f.size.many(), f.units_a_side)
        } else {
            f.size.many()
        };
        let mut head = vec!["".to_string(), size, "points".into()];
        head.extend(f.units.iter().map(|u| format!("v {}", u.name)));
        head.push("mean".into());
        let mut rows = vec![head];
        for (i, u) in f.units.iter().enumerate() {
            let mut r = vec![
                u.name.clone(),
                m.sides[i].stands.to_string(),
                money(m.sides[i].points),
            ];
            r.extend((0..f.units.len()).map(|j| {
                if i == j {
                    "—".to_string()
                } else {
                    pct(m.cells[i][j].value)
                }
            }));
            r.push(pct(m.sides[i].mean));
            rows.push(r);
        }
        rows
    }

    /// A matrix's summary line.
    pub fn matrix_line(&self, m: &Matrix, what: &str) -> String {
        let (i, j) = m.worst;
        let mut s = format!(
            "{what}: the pairs stand {} from 50% on average; furthest, {} against {}: {}.",
            pct(m.mean_gap),
            self.file.units[i].name,
            self.file.units[j].name,
            pct(m.cells[i][j].value)
        );
        let widest = m
            .cells
            .iter()
            .flatten()
            .map(|c| (c.high - c.low) / 2.0)
            .fold(0.0f64, f64::max);
        if widest > 0.0 {
            s += &format!(
                " Monte Carlo cells are within ±{} of their value at {}%.",
                pct(widest),
                (self.confidence * 100.0).round()
            );
        }
        s
    }

    /// The check's heading line, or why it did not run.
    fn check_line(&self) -> String {
        match (&self.at_fitted, &self.check_refused) {
            (Some(m), _) => self.matrix_line(
                m,
                &format!(
                    "At the fitted costs, rounded to the nearest {}",
                    money(self.file.round)
                ),
            ),
            (None, Some(why)) => format!("The fitted costs were not played: {why}."),
            (None, None) => String::new(),
        }
    }

    /// Render in `format`.
    pub fn render(&self, format: crate::report::Format) -> String {
        use crate::report::Format;
        match format {
            Format::Text => self.to_text(),
            Format::Markdown => self.to_markdown(),
            Format::Csv => super::sensitivity::csv_text(self.csv_rows()),
            Format::Json => {
                let mut s = serde_json::to_string_pretty(self).expect("points serialise");
                s.push('\n');
                s
            }
        }
    }

    /// Aligned plain text.
    pub fn to_text(&self) -> String {
        use super::sensitivity::align_left;
        let wrap = |l: &str| crate::odds::wrap(l, 100);
        let mut out = self.header() + "\n";
        for l in self.context_lines() {
            out += &wrap(&l);
        }
        out += "\n";
        out += &wrap(&format!("Answer: {}.", self.answer()));
        out += "\n";
        out += &align_left(&self.cost_rows(), 2);
        out += "\n";
        out += &wrap(&self.matrix_line(&self.at_file, "At the file's costs"));
        out += &align_left(&self.matrix_rows(&self.at_file), 1);
        out += "\n";
        out += &wrap(&self.check_line());
        if let Some(m) = &self.at_fitted {
            out += &align_left(&self.matrix_rows(m), 1);
        }
        if !self.command.is_empty() {
            out += "\n";
            out += &wrap(&format!("The same from the command line: {}", self.command));
        }
        out
    }

    /// Markdown.
    pub fn to_markdown(&self) -> String {
        let esc = |s: &str| s.replace('|', "\\|");
        let table = |rows: Vec<Vec<String>>, text: usize| {
            let mut out = String::new();
            for (i, r) in rows.iter().enumerate() {
                let cells: Vec<String> = r.iter().map(|c| esc(c)).collect();
                out += &format!("| {} |\n", cells.join(" | "));
                if i == 0 {
                    let marks: Vec<&str> = (0..r.len())
                        .map(|k| if k < text { "---" } else { "---:" })
                        .collect();
                    out += &format!("| {} |\n", marks.join(" | "));
                }
            }
            out
        };
        let mut out = format!(
            "### {}\n\n**Answer.** {}.\n\n",
            self.header(),
            esc(&self.answer())
        );
        for l in self.context_lines() {
            out += &format!("- {}\n", esc(&l));
        }
        out += "\n";
        out += &table(self.cost_rows(), 2);
        out += &format!(
            "\n{}\n\n",
            esc(&self.matrix_line(&self.at_file, "At the file's costs"))
        );
        out += &table(self.matrix_rows(&self.at_file), 1);
        out += &format!("\n{}\n", esc(&self.check_line()));
        if let Some(m) = &self.at_fitted {
            out += "\n";
            out += &table(self.matrix_rows(m), 1);
        }
        if !self.command.is_empty() {
            out += &format!("\nThe same from the command line: `{}`\n", self.command);
        }
        out
    }

    /// CSV rows, header first: each cost, then each matrix cell (the file's costs, then the
    /// fitted ones).
    pub fn csv_rows(&self) -> Vec<Vec<String>> {
        let f = &self.file;
        let mut rows = vec![
            ["table", "row", "column", "value", "low", "high", "exact"]
                .map(String::from)
                .to_vec(),
        ];
        for (t, term) in f.terms.iter().enumerate() {
            rows.push(vec![
                "cost".into(),
                term.word.clone(),
                if term.per_stand {
                    f.size.table()
                } else {
                    "per_unit".into()
                },
                format!("{}", self.fit.costs[t]),
                format!("{}", self.fit.low[t]),
                format!("{}", self.fit.high[t]),
                (t == f.reference).to_string(),
            ]);
        }
        for (name, m) in [
            ("file_costs", Some(&self.at_file)),
            ("fitted_costs", self.at_fitted.as_ref()),
        ] {
            let Some(m) = m else { continue };
            for i in 0..f.units.len() {
                for j in 0..f.units.len() {
                    let c = &m.cells[i][j];
                    rows.push(vec![
                        name.into(),
                        f.units[i].name.clone(),
                        f.units[j].name.clone(),
                        format!("{}", c.value),
                        format!("{}", c.low),
                        format!("{}", c.high),
                        c.exact().to_string(),
                    ]);
                }
            }
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RF: &str = r#"
system = "rank-and-file"
budget = 60
[cost]
reference = "regular"
per_stand = { regular = 10, veteran = 13 }
per_unit = { leader = 6 }
[[unit]]
name = "Regular"
spec = "regular"
[[unit]]
name = "Veteran"
spec = "veteran"
[[unit]]
name = "Regular, leader"
spec = "regular leader=1"
"#;

    const EF: &str = r#"
system = "effectiveness"
budget = 60
[cost]
reference = "regular"
per_unit = { regular = 10, elite = 13, poor = 8 }
[[unit]]
name = "Regular"
spec = "regular"
[[unit]]
name = "Elite"
spec = "elite"
[[unit]]
name = "Poor"
spec = "poor"
"#;

    fn parse(text: &str) -> PointsFile {
        PointsFile::parse("t.toml", text).unwrap()
    }

    fn refused(text: &str) -> String {
        PointsFile::parse("t.toml", text).unwrap_err().to_string()
    }

    fn m(a: usize, b: usize, a_stands: u32, b_stands: u32) -> Matchup {
        Matchup {
            a,
            b,
            a_stands,
            b_stands,
        }
    }

    #[test]
    fn what_a_budget_buys_is_the_systems() {
        let f = parse(RF);
        assert_eq!((f.size.key(), f.scenario), ("stands", Scenario::Engagement));
        let f = parse(EF);
        assert_eq!((f.size.key(), f.scenario), ("units", Scenario::Line));
        assert_eq!(f.terms.iter().filter(|t| t.per_stand).count(), 3);
        let lw = parse(
            &RF.replace("rank-and-file", "linear-warfare")
                .replace("budget = 60", "budget = 60\nsize = \"pips\"")
                .replace("per_stand", "per_pip")
                .replace("regular", "line")
                .replace("veteran", "guards")
                .replace("leader=1", "general")
                .replace("leader", "general"),
        );
        assert_eq!(lw.size.key(), "pips");
        assert_eq!((lw.size.one(), lw.size.many()), ("pip", "pips".to_string()));
        assert_eq!(lw.size.table(), "per_pip");
        // 60 points: a line pip 10, 6 pips; guards 13 → 4; a general (6) leaves 54 → 5.
        let n: Vec<u32> = (0..3)
            .map(|i| lw.stands_at(&lw.file_costs(), i).unwrap())
            .collect();
        assert_eq!(n, [6, 4, 5]);
        assert_eq!(lw.side_spec(&m(1, 0, 4, 6), 0), "guards pips=4");
    }

    /// In a line of a size, a side is `units` units of its type: the budget pays each unit's
    /// extras, then the most stands, spread as evenly as the count allows, the first files one
    /// more; the spread moves side A a stand a unit.
    #[test]
    fn a_line_spreads_the_stands_over_its_units() {
        let f = parse(&RF.replace(
            "budget = 60",
            "budget = 360\nscenario = \"line\"\nspread = 1\n[set]\nunits = 6",
        ));
        assert_eq!(f.units_a_side, 6);
        let c = f.file_costs();
        // Regular: 36 stands; Veteran: 360 / 13 → 27; leader (6 a unit, 36) leaves 324 → 32.
        assert_eq!(f.stands_at(&c, 0).unwrap(), 36);
        assert_eq!(f.stands_at(&c, 1).unwrap(), 27);
        assert_eq!(f.stands_at(&c, 2).unwrap(), 32);
        assert_eq!(f.cost_of(&c, 2, 32), 356.0);
        let mm = m(1, 2, 27, 32);
        assert_eq!(
            f.side_spec(&mm, 0),
            "3 x veteran stands=5; 3 x veteran stands=4"
        );
        assert_eq!(
            f.side_spec(&mm, 1),
            "2 x regular leader=1 stands=6; 4 x regular leader=1 stands=5"
        );
        assert_eq!(f.side_spec(&m(0, 0, 36, 36), 1), "6 x regular stands=6");
        let plan = f.plan();
        let spread: Vec<u32> = plan
            .iter()
            .filter(|p| p.a == 1 && p.b == 0)
            .map(|p| p.a_stands)
            .collect();
        assert_eq!(spread, [21, 27, 33]);
        assert_eq!(
            f.describe(&mm),
            "Veteran ×27 v Regular, leader ×32 (stands, 6 units a side)"
        );
    }

    /// Whole units: the smaller army sets the frontage, the larger stands its extra units
    /// behind, one a file at most; a matchup past that is left out of the spread, and refused
    /// at equal points.
    #[test]
    fn whole_units_stand_behind_the_smaller_armys_front() {
        let f = parse(EF);
        let c = f.file_costs();
        let n: Vec<u32> = (0..3).map(|i| f.stands_at(&c, i).unwrap()).collect();
        assert_eq!(n, [6, 4, 7]);
        let elite_v_poor = m(1, 2, 4, 7);
        assert_eq!(f.side_spec(&elite_v_poor, 0), "4 x elite");
        assert_eq!(f.side_spec(&elite_v_poor, 1), "4 x poor; 3 behind");
        assert_eq!(f.describe(&elite_v_poor), "4 Elite v 7 Poor");
        assert_eq!(f.unfit(&elite_v_poor), None);
        // Three Elite cannot face seven Poor: the line holds at most one behind each of 3 files.
        let e = f.unfit(&m(1, 2, 3, 7)).unwrap();
        assert!(e.contains("cannot hold 7 units against 3"), "{e}");
        assert!(
            f.unfit(&m(0, 0, 13, 13))
                .unwrap()
                .contains("at most 12 files")
        );
        let plan = f.plan();
        assert!(!plan.contains(&m(1, 2, 3, 7)));
        assert!(plan.contains(&m(1, 2, 5, 7)));
        assert_eq!(f.left_out(), 1);
        // Costs twice apart at equal points: refused before anything runs, naming the pair.
        let e = refused(&EF.replace("poor = 8", "poor = 4"));
        assert!(
            e.contains("4 Elite v 15 Poor") || e.contains("cannot hold"),
            "{e}"
        );
    }

    /// Every refusal names what was wrong and what is allowed, whole.
    #[test]
    fn refusals_name_what_is_allowed() {
        let e = refused(&RF.replace(
            "per_stand = { regular = 10, veteran = 13 }",
            "per_stand = {}",
        ));
        assert!(
            e.ends_with(
                "cost.per_stand: is empty: a stand's cost is the sum of the costs of its spec words, so name one or more with a cost, e.g. { regular = 10 }; allowed: the unit types' spec words regular, veteran, leader"
            ),
            "{e}"
        );
        let e = refused(&EF.replace(
            "system = \"effectiveness\"",
            "system = \"effectiveness\"\nscenario = \"engagement\"",
        ));
        assert!(
            e.contains("no size a budget can buy")
                && e.ends_with("allowed: line (or leave scenario out)"),
            "{e}"
        );
        let e = refused(&EF.replace("budget = 60", "budget = 60\nsize = \"stands\""));
        assert!(
            e.ends_with("allowed: units (whole units, in a line)"),
            "{e}"
        );
        let e = refused(&RF.replace("per_unit", "per_pip"));
        assert!(
            e.ends_with("allowed: reference, per_stand (so much a stand for each spec word), per_unit (so much a unit for each spec word, on top)"),
            "{e}"
        );
        let e = refused(&EF.replace("budget = 60", "budget = 60\n[set]\nsupports = 2"));
        assert!(
            e.contains("set.supports") && e.contains("leave units and supports out"),
            "{e}"
        );
        let e = refused(&RF.replace("spec = \"veteran\"", "spec = \"veteran stands=4\""));
        assert!(e.contains("leave stands= out"), "{e}");
        let e = refused(&RF.replace("budget = 60", "budget = 500"));
        assert!(
            e.contains("1 to 40 stands a unit (RF-2)")
                && e.contains("Regular would field 50 stands"),
            "{e}"
        );
        // A mechanic file is read through the caller's reader: without one, that is said.
        let e = refused(&RF.replace("rank-and-file", "m.rhai"));
        assert!(e.contains("PointsFile::parse_with"), "{e}");
    }

    #[test]
    fn spec_words_and_counts() {
        assert_eq!(
            spec_words(
                ["regular leader=1", "veteran stands=5 elite"].into_iter(),
                "stands"
            ),
            ["regular", "leader", "veteran", "elite"]
        );
        assert!(gives("veteran stands=4", "stands") && !gives("veteran standsx", "stands"));
        assert_eq!(count("regular leader=2", "leader"), 2.0);
        assert_eq!(count("regular elite", "elite"), 1.0);
        assert_eq!(count("regular", "elite"), 0.0);
        let custom = Buys::Size(Size {
            key: "strength",
            one: "strength",
            min: 1,
            max: 9,
            rule: "X-1",
        });
        assert_eq!(
            (custom.many(), custom.table()),
            ("strengths".to_string(), "per_strength".to_string())
        );
        assert_eq!(custom.count(1), "1 strength");
        assert_eq!(Buys::Units.count(3), "3 units");
    }
}
