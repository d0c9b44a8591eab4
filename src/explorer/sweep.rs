//! The explorer's sweep: one numeric field of the situation or the rules run at each of a list
//! of values, every profile at every value, as an experiment with a `[sweep]` axis; the answer
//! is the sweep chart (a line per profile through the exact values where the setting solves,
//! estimates as dots with their intervals beside them) and a table of the headline at each
//! value.

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::experiment::{ExperimentResult, output};

use crate::params::Kind;
use crate::report::chart;
use crate::scenario::Scenario;
use crate::system;

use super::view::{self, View};

pub use crate::params::MAX_VALUES;
pub use crate::params::parse_values;
pub use crate::system::param_of;

/// What a request's `sweep`, `values` and `of` ask for, checked against the system.
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    /// The parameter swept.
    pub key: String,
    /// It is a rule parameter (`--rule`), not one of the situation (`--set`).
    pub rule: bool,
    /// Its short label.
    pub label: String,
    /// The values, as the command line writes them.
    pub values: Vec<String>,
    /// The outcome or measure drawn (`None`: the experiment's default headline).
    pub of: Option<String>,
    /// The values are chances (written as quoted fractions).
    pub chance: bool,
    /// Values left out because a profile refuses them, each with the reason.
    pub left_out: Vec<(String, String)>,
}

impl Ask {
    /// The `headline` (when one is picked) and the `[sweep]` the experiment adds for it.
    pub fn toml(&self) -> String {
        let written: Vec<String> = self
            .values
            .iter()
            .map(|v| {
                if self.chance {
                    view::toml_string(v)
                } else {
                    v.clone()
                }
            })
            .collect();
        let mut toml = String::new();
        if let Some(of) = &self.of {
            toml += &format!("headline = {}\n", view::toml_string(of));
        }
        toml += &format!(
            "\n[sweep]\nx = {{ {} = {}, values = [{}] }}\n",
            if self.rule { "rule" } else { "key" },
            view::toml_string(&self.key),
            written.join(", ")
        );
        toml
    }

    /// Leave out the values `refused` says a profile refuses (with its reason); an error when
    /// fewer than two are left. With `fit` (a range the page picked, not one typed), values
    /// refused before the first allowed one or after the last are dropped without a word: the
    /// sweep runs the range the setting allows (0..6 lost of 7 stands, not 0..8).
    pub fn keep_allowed(
        &mut self,
        fit: bool,
        mut refused: impl FnMut(&str) -> Option<String>,
    ) -> std::result::Result<(), Refusal> {
        let mut kept = Vec::new();
        let mut left = Vec::new();
        for v in std::mem::take(&mut self.values) {
            match refused(&v) {
                Some(why) => left.push((kept.len(), v, why)),
                None => kept.push(v),
            }
        }
        for (before, v, why) in left {
            if !(fit && (before == 0 || before == kept.len())) {
                self.left_out.push((v, why));
            }
        }
        self.values = kept;
        if self.values.len() < 2 {
            let why = self
                .left_out
                .first()
                .map_or(String::new(), |(v, w)| format!(" ({v}: {w})"));
            return Err((
                format!(
                    "fewer than two of the values can run here{why}: give values this setting allows"
                ),
                "sweep.values",
            ));
        }
        Ok(())
    }
}

/// A refusal: the message and the page's field it is about (`sweep.key`, `sweep.values`).
pub type Refusal = (String, &'static str);

/// Check a sweep request against the system the form edits (`system`: its registry name).
pub fn ask(
    system: &str,
    scenario: Scenario,
    key: &str,
    values: &str,
    of: Option<&str>,
) -> std::result::Result<Ask, Refusal> {
    let s = system::find(system).map_err(|e| (e.to_string(), "sweep.key"))?;
    let Some((def, rule)) = param_of(s, scenario, key) else {
        return Err((
            format!(
                "{key} is not a parameter of {} in {}: pick one of the list",
                s.name(),
                scenario.name()
            ),
            "sweep.key",
        ));
    };
    if !matches!(def.kind, Kind::Int { .. } | Kind::Real { .. } | Kind::Prob) {
        return Err((
            format!(
                "{key} is not a number ({}): a sweep runs whole numbers, numbers and chances",
                def.kind.allowed()
            ),
            "sweep.key",
        ));
    }
    let values = parse_values(&def.kind, key, values).map_err(|m| (m, "sweep.values"))?;
    Ok(Ask {
        key: key.to_string(),
        rule,
        label: crate::params::label(key),
        values,
        of: of.map(str::to_string),
        chance: matches!(def.kind, Kind::Prob),
        left_out: Vec::new(),
    })
}

/// The experiment file of a sweep: the view's, with the headline placed before its variants
/// (TOML's top-level keys come first) and the `[sweep]` at the end.
pub fn with_sweep(experiment: &str, a: &Ask) -> String {
    // Its own name, question and command (`sweep.toml`, as the page downloads it).
    let question = format!(
        "question = {}",
        view::toml_string(&format!(
            "How do the numbers change with {} ({})?",
            a.key,
            a.label.to_lowercase()
        ))
    );
    let experiment: String = experiment
        .lines()
        .map(|l| {
            if l.starts_with("question = ") {
                question.clone()
            } else if l == "name = \"explorer\"" {
                "name = \"explorer-sweep\"".to_string()
            } else {
                l.replace("morale-lab run explorer.toml", "morale-lab run sweep.toml")
            }
        })
        .map(|l| l + "\n")
        .collect();
    let toml = a.toml();
    let (head, sweep) = toml.split_once("\n[sweep]").unwrap_or(("", &toml));
    let at = experiment.find("\n[[variant]]").unwrap_or(experiment.len());
    format!(
        "{}{}{}\n[sweep]{}",
        &experiment[..at],
        head,
        &experiment[at..],
        sweep
    )
}

/// The answer to a sweep: its chart(s), a row per value with each profile's headline (exact
/// value and fraction, estimate and interval), and the experiment file and command that make
/// the same numbers.
pub fn answer(
    v: &View,
    titles: &[String],
    a: &Ask,
    result: &ExperimentResult,
    experiment: String,
) -> Result<Value> {
    let mut charts = Vec::new();
    for (name, c) in output::sweep_charts(result) {
        let draw = |size| {
            c.svg_sized(size)
                .map_err(|e| Error::Conflict(format!("could not draw the chart {name}: {e}")))
        };
        let (svg, narrow) = (draw(chart::SIZE)?, draw(chart::NARROW)?);
        charts.push(json!({ "name": name, "title": c.title(), "svg": svg, "narrow": narrow }));
    }
    let headline = output::headline(result);
    let key = headline.as_ref().map(|h| h.0.clone()).unwrap_or_default();
    let per_point = titles.len().max(1);
    let rows: Vec<Value> = a
        .values
        .iter()
        .enumerate()
        .map(|(i, value)| {
            let cells: Vec<Value> = result
                .runs
                .iter()
                .skip(i * per_point)
                .take(per_point)
                .map(|r| match output::headline_cell(&r.report, &key) {
                    Some(c) => json!({
                        "exact": c.exact,
                        "fraction": c.exact.and_then(crate::report::simple_fraction).map(|(a, b)| format!("{a}/{b}")),
                        "estimate": c.count.map(|_| c.p),
                        "low": c.ci_low,
                        "high": c.ci_high,
                    }),
                    None => Value::Null,
                })
                .collect();
            json!({ "value": value, "cells": cells })
        })
        .collect();
    Ok(json!({
        "key": a.key,
        "rule": a.rule,
        "label": a.label,
        "values": a.values,
        "left_out": a.left_out.iter().map(|(v, why)| json!({ "value": v, "why": why })).collect::<Vec<_>>(),
        "headline": headline.map(|(k, metric)| json!({ "key": k, "metric": metric })),
        "columns": titles,
        "rows": rows,
        "charts": charts,
        "experiment": experiment,
        "command": "morale-lab run sweep.toml",
        "trials": v.trials,
        "seed": v.seed,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHOLE: Kind = Kind::Int { min: 0, max: 12 };
    const REAL: Kind = Kind::Real {
        min: 0.0,
        max: 10.0,
    };

    #[test]
    fn values_read_as_lists_ranges_and_steps() {
        let v = |k: &Kind, t: &str| parse_values(k, "lost", t);
        assert_eq!(v(&WHOLE, "2..5").unwrap(), ["2", "3", "4", "5"]);
        assert_eq!(v(&WHOLE, "0, 3, 3, 7").unwrap(), ["0", "3", "7"]);
        assert_eq!(v(&WHOLE, "8..2 step 3").unwrap(), ["8", "5", "2"]);
        assert_eq!(
            v(&WHOLE, "0..12 step 4, 1").unwrap(),
            ["0", "4", "8", "12", "1"]
        );
        assert_eq!(
            v(&Kind::Prob, "0..1").unwrap(),
            [
                "0", "1/10", "1/5", "3/10", "2/5", "1/2", "3/5", "7/10", "4/5", "9/10", "1"
            ]
        );
        assert_eq!(
            v(&Kind::Prob, "1/6..5/6 step 1/6").unwrap(),
            ["1/6", "1/3", "1/2", "2/3", "5/6"]
        );
        assert_eq!(v(&Kind::Prob, "0.25, 1/2").unwrap(), ["1/4", "1/2"]);
        assert_eq!(
            v(&REAL, "1..2 step 0.25").unwrap(),
            ["1", "1.25", "1.5", "1.75", "2"]
        );
        assert_eq!(v(&REAL, "0..1").unwrap().len(), 11);
        assert_eq!(v(&REAL, "0..1").unwrap()[3], "0.3");
    }

    #[test]
    fn bad_values_say_what_is_allowed() {
        let e = |k: &Kind, t: &str| parse_values(k, "lost", t).unwrap_err();
        assert!(e(&WHOLE, "").starts_with("no values: values and ranges"));
        assert!(e(&WHOLE, "3").starts_with("one value only"));
        assert_eq!(
            e(&WHOLE, "2..13"),
            "'13' is not allowed for lost: a whole number from 0 to 12"
        );
        assert!(e(&WHOLE, "x, 2").starts_with("'x' is not allowed for lost"));
        assert!(e(&WHOLE, "1..3 step 0").starts_with("'0' is not a step here"));
        assert!(e(&WHOLE, "4 step 1").contains("a step goes with a range"));
        assert!(e(&Kind::Prob, "0..1 step 1/100").contains("holds more than 41 values"));
        assert!(e(&Kind::Prob, "3/2, 1").contains("'3/2' is not allowed"));
        assert!(e(&Kind::Bool, "0, 1").contains("is not a number"));
        let many: Vec<String> = (0..12).map(|i| i.to_string()).collect();
        let k = Kind::Int { min: 0, max: 100 };
        assert!(
            parse_values(&k, "lost", &format!("{}, 13..42", many.join(", ")))
                .unwrap_err()
                .starts_with("more than 41 values")
        );
    }

    #[test]
    fn an_ask_knows_rule_parameters_from_the_situations() {
        let a = ask(
            "rank-and-file",
            Scenario::Rally,
            "lost",
            "0..3",
            Some("removed"),
        )
        .unwrap();
        assert!(!a.rule);
        assert_eq!(a.values, ["0", "1", "2", "3"]);
        assert!(
            a.toml()
                .contains("x = { key = \"lost\", values = [0, 1, 2, 3] }")
        );
        assert!(a.toml().starts_with("headline = \"removed\"\n"));
        let r = ask("rank-and-file", Scenario::Rally, "base_green", "4..6", None).unwrap();
        assert!(r.rule);
        assert!(r.toml().contains("rule = \"base_green\""));
        let p = ask(
            "rank-and-file",
            Scenario::Rally,
            "break_fraction",
            "1/3, 1/2",
            None,
        )
        .unwrap();
        assert!(
            p.toml().contains("values = [\"1/3\", \"1/2\"]"),
            "{}",
            p.toml()
        );
        // Values a profile refuses are left out with the reason; two must stay.
        let mut k = a.clone();
        k.keep_allowed(false, |v| (v == "3").then(|| "too many".to_string()))
            .unwrap();
        assert_eq!(k.values, ["0", "1", "2"]);
        assert_eq!(k.left_out, [("3".to_string(), "too many".to_string())]);
        assert!(k.toml().contains("values = [0, 1, 2] }"));
        // A range the page picked is fitted to what the setting allows: the refused ends go
        // unsaid, a refused value inside is still said.
        let mut k = a.clone();
        k.keep_allowed(true, |v| (v == "0" || v == "3").then(|| "no".to_string()))
            .unwrap();
        assert_eq!(k.values, ["1", "2"]);
        assert!(k.left_out.is_empty());
        let mut k = ask("rank-and-file", Scenario::Rally, "lost", "0..4", None).unwrap();
        k.keep_allowed(true, |v| (v == "2").then(|| "no".to_string()))
            .unwrap();
        assert_eq!(k.values, ["0", "1", "3", "4"]);
        assert_eq!(k.left_out, [("2".to_string(), "no".to_string())]);
        let mut k = a.clone();
        let e = k
            .keep_allowed(false, |v| (v != "0").then(|| "too many".to_string()))
            .unwrap_err();
        assert_eq!(e.1, "sweep.values");
        assert!(
            e.0.starts_with("fewer than two of the values can run here (1: too many)"),
            "{}",
            e.0
        );
        assert_eq!(
            ask("rank-and-file", Scenario::Rally, "class", "1, 2", None)
                .unwrap_err()
                .1,
            "sweep.key"
        );
        assert_eq!(
            ask("rank-and-file", Scenario::Rally, "nonsense", "1, 2", None)
                .unwrap_err()
                .1,
            "sweep.key"
        );
        assert_eq!(
            ask("rank-and-file", Scenario::Rally, "lost", "1", None)
                .unwrap_err()
                .1,
            "sweep.values"
        );
        let exp = "#   morale-lab run explorer.toml\nname = \"explorer\"\nquestion = \"What?\"\nseed = 1\n\n[[variant]]\nname = \"x\"\n";
        let w = with_sweep(exp, &a);
        assert!(w.starts_with("#   morale-lab run sweep.toml\nname = \"explorer-sweep\"\nquestion = \"How do the numbers change with lost (already lost)?\"\n"));
        assert!(w.find("headline = ").unwrap() < w.find("[[variant]]").unwrap());
        assert!(w.trim_end().ends_with("values = [0, 1, 2, 3] }"));
    }
}
