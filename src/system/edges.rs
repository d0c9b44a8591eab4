//! The edges of what the tool accepts: for every system × scenario, each numeric parameter and
//! each numeric rule parameter at its minimum and at its maximum (one at a time), every number at
//! its maximum together (rule parameters included), and the largest unit specs. The edge test runs them all (no panic; a clear error or a report),
//! and `morale-lab bench --edges` times them against a bound.

use crate::params::{Input, Kind, ParamDef, Source};
use crate::scenario::Scenario;

/// One setting at the edge of the allowed ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// The system's name.
    pub system: &'static str,
    /// The scenario's name.
    pub scenario: Scenario,
    /// What is at its edge, in words (`stands=40`, `all numbers at their maximum`).
    pub label: String,
    /// The settings, as `--set` takes them.
    pub set: Vec<(String, String)>,
    /// The rule parameters, as `--rule` takes them.
    pub rules: Vec<(String, String)>,
}

impl Edge {
    /// The settings as inputs.
    pub fn inputs(&self) -> Vec<Input> {
        let set = self.set.iter().map(|(k, v)| Input {
            key: k.clone(),
            value: v.clone(),
            source: Source::Set,
        });
        let rules = self.rules.iter().map(|(k, v)| Input::rule(k, v.clone()));
        set.chain(rules).collect()
    }

    /// The command line that runs it.
    pub fn command(&self) -> String {
        let sets: Vec<String> = self
            .set
            .iter()
            .map(|(k, v)| format!("--set \"{k}={v}\""))
            .chain(
                self.rules
                    .iter()
                    .map(|(k, v)| format!("--rule \"{k}={v}\"")),
            )
            .collect();
        format!(
            "morale-lab {} --system {} {}",
            self.scenario,
            self.system,
            sets.join(" ")
        )
    }
}

/// Every edge of every system and scenario.
pub fn edges() -> Vec<Edge> {
    let mut out = Vec::new();
    for sys in super::systems() {
        let params = super::all_params(sys);
        for &scenario in sys.scenarios() {
            let own: Vec<_> = params
                .iter()
                .filter(|p| p.scenarios.contains(&scenario))
                .collect();
            let edge = |label: String, set: Vec<(String, String)>| Edge {
                system: sys.name(),
                scenario,
                label,
                set,
                rules: Vec::new(),
            };
            let range = |p: &ParamDef| match p.kind {
                Kind::Int { min, max } => Some((min.to_string(), max.to_string())),
                Kind::Real { min, max } => Some((min.to_string(), max.to_string())),
                _ => None,
            };
            let mut all_max = Vec::new();
            for p in &own {
                let Some((lo, hi)) = range(p) else { continue };
                for v in [lo, hi.clone()] {
                    let set = vec![(p.key.to_string(), v.clone())];
                    out.push(edge(format!("{}={v}", p.key), set));
                }
                all_max.push((p.key.to_string(), hi));
            }
            // Every rule parameter is in force in every scenario.
            let mut rules_max = Vec::new();
            for p in sys.rule_params() {
                let Some((lo, hi)) = range(p) else { continue };
                for v in [lo, hi.clone()] {
                    out.push(Edge {
                        rules: vec![(p.key.to_string(), v.clone())],
                        ..edge(format!("rule {}={v}", p.key), Vec::new())
                    });
                }
                rules_max.push((p.key.to_string(), hi));
            }
            let specs: Vec<_> = own
                .iter()
                .filter(|p| matches!(p.kind, Kind::Spec(_)))
                .collect();
            for &(a, d) in sys.about().edge_specs {
                let side = |spec: &str| {
                    if scenario == Scenario::Line {
                        format!("12 x {spec}")
                    } else {
                        spec.to_string()
                    }
                };
                let set: Vec<_> = specs
                    .iter()
                    .filter_map(|p| match p.key {
                        "attacker" => Some((p.key.to_string(), side(a))),
                        "defender" => Some((p.key.to_string(), side(d))),
                        _ => None,
                    })
                    .collect();
                if !set.is_empty() {
                    out.push(edge(format!("{a} v {d}"), set.clone()));
                    let mut with_max = all_max.clone();
                    with_max.extend(set);
                    out.push(Edge {
                        rules: rules_max.clone(),
                        ..edge(
                            format!("every number at its maximum, rules too, {a} v {d}"),
                            with_max,
                        )
                    });
                }
            }
            if !all_max.is_empty() {
                out.push(edge("every number at its maximum".into(), all_max.clone()));
            }
            if !rules_max.is_empty() {
                out.push(Edge {
                    rules: rules_max.clone(),
                    ..edge(
                        "every number at its maximum, rules too".into(),
                        all_max.clone(),
                    )
                });
            }
        }
    }
    out
}
