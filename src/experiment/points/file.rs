//! The points file: its TOML read, every key checked with a message that names what is
//! allowed, and the fight the prices rest on put in words.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{
    Buys, MAX_SPREAD, MAX_UNITS, Matchup, PointsFile, Term, UnitType, a_one, a_ones, count, gives,
    plural, points_words, spec_words,
};
use crate::error::{Error, Result};
use crate::params::{Input, Resolved, Source};
use crate::scenario::Scenario;
use crate::system::{self, RuleSystem};

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
    /// "optimal": side A makes its best choices in every matchup (play's objective, solved
    /// exactly there); "as set" (the default): its parameters' policy.
    #[serde(default)]
    play: Option<String>,
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
        let raw = read_toml(path, source)?;
        let sys = load_system(path, &raw, read, &bad)?;
        let (buys, scenario) = buys_and_scenario(sys, &raw, &bad)?;
        let (spread, round, trials) = numbers(&raw, buys, scenario, &bad)?;
        let inputs = file_inputs(&raw, buys, &bad)?;
        let cw = cost_words(&raw, buys, &bad)?;
        let (reference_word, priced) = priced_tables(&raw, buys, &cw, &bad)?;
        let (terms, reference) = cost_terms(buys, &cw, &priced, &reference_word, &bad)?;
        let names: Vec<String> = terms.iter().map(|t| t.word.clone()).collect();
        let units = unit_types(&raw, buys, &bad)?;
        let allowed_words = &cw.allowed_words;
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
        let optimal_play = match raw.play.as_deref().map(str::trim) {
            None | Some("as set") => false,
            Some("optimal") if scenario == Scenario::Engagement => true,
            Some("optimal") => {
                return Err(bad(
                    "play",
                    format!(
                        "optimal: side A's best choices are solved in an engagement only, not in {}",
                        scenario.name()
                    ),
                ));
            }
            Some(other) => {
                return Err(bad(
                    "play",
                    format!(
                        "{other}: \"optimal\" (side A's best choices, solved exactly in each matchup) or \"as set\" (its parameters' policy, the default)"
                    ),
                ));
            }
        };
        let units_a_side = units_a_side_of(sys, scenario, buys, &inputs, &bad)?;
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
            optimal_play,
        };
        let n = file.budget_stands(&cw.step_table, &names, &bad)?;
        let notes = file.check_matchups(sys, &n, path, source, &bad)?;
        file.fight = file.fight_of(sys, n[0], &notes, &bad)?;
        Ok(file)
    }

    /// The steps each unit type fields at the budget (`file_costs`), every type checked to pay
    /// for at least one.
    fn budget_stands(&self, step_table: &str, names: &[String], bad: &Bad) -> Result<Vec<u32>> {
        let buys = self.size;
        let costs = self.file_costs();
        for (i, u) in self.units.iter().enumerate() {
            let step: f64 = self.per_stand(&costs, i);
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
            self.stands_at(&costs, i)
                .map_err(|e| bad("budget", e.to_string()))?;
        }
        (0..self.units.len())
            .map(|i| self.stands_at(&costs, i))
            .collect::<Result<_>>()
            .map_err(|e| bad("budget", e.to_string()))
    }

    /// Every matchup at equal points built once, so that a spec the system refuses is reported
    /// before anything runs; the notes of the first (a type against itself).
    fn check_matchups(
        &self,
        sys: &'static dyn RuleSystem,
        n: &[u32],
        path: &str,
        source: &str,
        bad: &Bad,
    ) -> Result<Vec<String>> {
        let mut notes = Vec::new();
        for a in 0..self.units.len() {
            for b in 0..self.units.len() {
                let m = Matchup {
                    a,
                    b,
                    a_stands: n[a],
                    b_stands: n[b],
                };
                if let Some(why) = self.unfit(&m) {
                    return Err(bad("budget", format!("{}: {why}", self.describe(&m))));
                }
                let job =
                    system::build_system(sys, self.scenario, &self.inputs_of(&m), &self.options)
                        .map_err(|e| match &e {
                            // A word of one unit type's spec the system does not know: that
                            // unit type, at its spec's line.
                            Error::Invalid {
                                what,
                                value,
                                allowed,
                            } if what.contains("attacker") || what.contains("defender") => {
                                let u = &self.units[if what.contains("attacker") { a } else { b }];
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
                            _ => bad("unit", format!("{}: {e}", self.describe(&m))),
                        })?;
                if a == 0 && b == 0 {
                    notes = job.describe().notes.clone();
                }
            }
        }
        Ok(notes)
    }

    /// The fight the prices rest on in words, from the parameters in force when the first type
    /// meets itself (`n0` steps a side).
    fn fight_of(
        &self,
        sys: &'static dyn RuleSystem,
        n0: u32,
        notes: &[String],
        bad: &Bad,
    ) -> Result<String> {
        let m = Matchup {
            a: 0,
            b: 0,
            a_stands: n0,
            b_stands: n0,
        };
        let inputs = self.inputs_of(&m);
        let defaults = sys.defaults(self.scenario, &inputs);
        let r = crate::params::resolve(
            &system::all_params(sys),
            sys.rule_params(),
            sys.name(),
            self.scenario,
            &inputs,
            &defaults,
        )
        .map_err(|e| bad("set", e.to_string()))?;
        Ok(self.fight_words(&r, notes))
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
}

/// How a points file's checks say what is wrong: the key at fault and the message, at the
/// key's line.
type Bad<'a> = dyn Fn(&str, String) -> Error + 'a;

/// The file's TOML, or where it does not read.
fn read_toml(path: &str, source: &str) -> Result<FileToml> {
    toml::from_str(source).map_err(|e| Error::File {
        path: path.into(),
        line: e.span().map_or(0, |s| {
            source[..s.start.min(source.len())].matches('\n').count() + 1
        }),
        key: String::new(),
        message: e.message().trim_end().replace('\n', "; "),
    })
}

/// The rule system the file names: built in, or a mechanic file read through `read`.
fn load_system(
    path: &str,
    raw: &FileToml,
    read: &mut dyn FnMut(&str) -> Result<String>,
    bad: &Bad,
) -> Result<&'static dyn RuleSystem> {
    Ok(if crate::mechanic::is_file(&raw.system) {
        let file = crate::paths::relative_to(path, &raw.system);
        crate::mechanic::load_with(&file, read).map_err(|e| bad("system", e.to_string()))?
    } else {
        system::find(&raw.system).map_err(|e| bad("system", e.to_string()))?
    })
}

/// What the budget buys and the scenario played, each checked against what the system has.
fn buys_and_scenario(
    sys: &'static dyn RuleSystem,
    raw: &FileToml,
    bad: &Bad,
) -> Result<(Buys, Scenario)> {
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
    Ok((buys, scenario))
}

/// The budget, the spread, the rounding step and the trials, each within its bounds.
fn numbers(raw: &FileToml, buys: Buys, scenario: Scenario, bad: &Bad) -> Result<(u32, f64, u64)> {
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
            format!("{round}: a step more than 0 that fitted costs are rounded to, e.g. 1 or 0.5"),
        ));
    }
    let trials = raw.trials.unwrap_or(100_000);
    if !(1_000..=100_000_000).contains(&trials) {
        return Err(bad(
            "trials",
            format!("{trials}: from 1000 to 100000000 trials a Monte Carlo matchup"),
        ));
    }
    Ok((spread, round, trials))
}

/// The situation's and the rules' inputs (`[set]`, `[rules]`), without what the units give.
fn file_inputs(raw: &FileToml, buys: Buys, bad: &Bad) -> Result<Vec<Input>> {
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
    Ok(inputs)
}

/// The words a cost term may price and the cost tables the budget allows.
struct CostWords {
    /// The unit types' spec words, but not what the budget buys.
    words: Vec<String>,
    /// The same in a message's words.
    allowed_words: String,
    /// The table that prices a step of what the budget buys.
    step_table: String,
    /// Every cost table allowed.
    tables: Vec<String>,
}

/// The unit types counted, and the words and tables a cost may name.
fn cost_words(raw: &FileToml, buys: Buys, bad: &Bad) -> Result<CostWords> {
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
    Ok(CostWords {
        words,
        allowed_words,
        step_table,
        tables,
    })
}

/// The `[cost]` tables read: the reference word, and each table's words and costs.
#[allow(clippy::type_complexity)]
fn priced_tables(
    raw: &FileToml,
    buys: Buys,
    cw: &CostWords,
    bad: &Bad,
) -> Result<(String, BTreeMap<String, BTreeMap<String, f64>>)> {
    let (words, allowed_words) = (&cw.words, &cw.allowed_words);
    let (step_table, tables) = (cw.step_table.clone(), cw.tables.clone());
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
                    format!("{v}: a spec word in quotes, the {step_table} term held at its cost"),
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
    Ok((reference_word, priced))
}

/// The cost formula's terms, per-step ones first, and the index of the reference.
fn cost_terms(
    buys: Buys,
    cw: &CostWords,
    priced: &BTreeMap<String, BTreeMap<String, f64>>,
    reference_word: &str,
    bad: &Bad,
) -> Result<(Vec<Term>, usize)> {
    let (words, allowed_words) = (&cw.words, &cw.allowed_words);
    let (step_table, tables) = (cw.step_table.clone(), cw.tables.clone());
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
    Ok((terms, reference))
}

/// The unit types, each named once and without the size the budget sets.
fn unit_types(raw: &FileToml, buys: Buys, bad: &Bad) -> Result<Vec<UnitType>> {
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
    Ok(units)
}

/// Units a side: the line's `units` when the budget buys a size in a line, else 1.
fn units_a_side_of(
    sys: &'static dyn RuleSystem,
    scenario: Scenario,
    buys: Buys,
    inputs: &[Input],
    bad: &Bad,
) -> Result<u32> {
    Ok(match buys {
        Buys::Size(_) if scenario == Scenario::Line => {
            let defaults = sys.defaults(scenario, inputs);
            let r = crate::params::resolve(
                &system::all_params(sys),
                sys.rule_params(),
                sys.name(),
                scenario,
                inputs,
                &defaults,
            )
            .map_err(|e| bad("set", e.to_string()))?;
            u32::try_from(r.int("units")).unwrap_or(1)
        }
        _ => 1,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{EF, RF, m, parse, refused};
    use super::*;

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
}
