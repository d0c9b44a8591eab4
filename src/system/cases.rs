//! The benchmark cases: one realistic setup of every scenario in every system, and the largest
//! realistic units for the exact solvers. Each system lists its own (its `cases.rs`, through
//! [`super::About`]); `morale-lab bench` and the criterion benches (`benches/scenarios.rs`)
//! both run them, through the same builders as the command line.

use crate::error::Result;
use crate::params::Input;
use crate::scenario::{Job, Scenario};

/// One benchmark case of a system, as the system lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchCase {
    /// A short name (words such as `rally`, `RF` select it on the command line).
    pub name: &'static str,
    /// The scenario's name.
    pub scenario: Scenario,
    /// `KEY=VALUE` pairs, as `--set` takes them.
    pub set: &'static [&'static str],
    /// Optional rules in force.
    pub options: &'static [&'static str],
}

/// What a reference loop's outcomes are held against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Against {
    /// The case's exact solution.
    Exact,
    /// The tool's own Monte Carlo run of the case (a battle has no exact solution).
    MonteCarlo,
}

/// A plain hand-written loop of one benchmark case's rules, with the source's numbers written
/// in, for `bench` to hold the tool against (its ratio to the reference). The engine runs it as
/// it runs a job (the same chunks, dice and threads).
#[derive(Debug, Clone, Copy)]
pub struct Reference {
    /// What it is (`hand loop: …`).
    pub name: &'static str,
    /// The name of the case whose rules it writes out.
    pub case: &'static str,
    /// Its tally's counters: the names of the case's outcomes, in the tally's order.
    pub outcomes: &'static [&'static str],
    /// What its outcomes are checked against.
    pub against: Against,
    /// Run the trials of a run spec, on its threads: the tally of its outcomes.
    pub run: fn(&crate::engine::RunSpec, &crate::engine::Control) -> Result<Vec<u64>>,
}

/// [`Reference::run`] for a hand loop `S`: its trials run as the engine runs a job's.
pub(crate) fn run_loop<S: crate::engine::Sim + Default>(
    spec: &crate::engine::RunSpec,
    control: &crate::engine::Control,
) -> Result<Vec<u64>> {
    crate::engine::run(&S::default(), spec, control)
}

/// A hand loop's volley: how many of `n` dice, rolled one by one, show `to_hit` or more.
#[inline(always)]
pub(crate) fn hits(dice: &mut crate::dice::Dice, n: u32, to_hit: u8) -> u32 {
    use crate::dice::Roll;
    let mut h = 0;
    for _ in 0..n {
        h += u32::from(dice.d6() >= to_hit);
    }
    h
}

/// How far apart (in standard errors) a reference loop's share of an outcome may lie from the
/// rules' before the loop is taken to have drifted: a false alarm about once in 1.7 million
/// checks per outcome.
const DRIFT_Z: f64 = 5.0;

impl Reference {
    /// The case it writes out.
    ///
    /// # Errors
    /// [`crate::error::Error::Conflict`] when no case has its name.
    pub fn case(&self) -> Result<Case> {
        cases()
            .into_iter()
            .find(|c| c.name == self.case)
            .ok_or_else(|| self.conflict(format!("no benchmark case is named '{}'", self.case)))
    }

    fn conflict(&self, m: String) -> crate::error::Error {
        crate::error::Error::Conflict(format!("{}: {m}", self.name))
    }

    /// Check the loop's `tally` against the rules. Against the exact solution, every outcome's
    /// share must lie within the Wilson interval at z = 5 around it. Against the tool's Monte
    /// Carlo run (`tool`, a report of the case; run here, 2^18 trials from seed 2, when `None`),
    /// the two shares of every outcome may differ by at most 5 standard errors of the
    /// difference of two binomial shares. Either way a loop that drifted from the rules is
    /// caught, and a false alarm comes about once in 1.7 million checks per outcome.
    ///
    /// # Errors
    /// [`crate::error::Error::Conflict`] naming the outcome and both shares; also when the
    /// case is unknown, has no exact solution (against it) or names other outcomes.
    pub fn check(&self, tally: &[u64], tool: Option<&crate::report::Report>) -> Result<()> {
        let case = self.case()?;
        let job = case.job()?;
        let control = crate::engine::Control::new();
        let ran;
        let report = match (self.against, tool) {
            (Against::MonteCarlo, Some(r)) => r,
            (Against::MonteCarlo, None) => {
                let opts = crate::scenario::RunOptions::new(1 << 18, 2).threads(Some(1));
                ran = job.run(&opts, &control)?;
                &ran
            }
            (Against::Exact, _) => {
                let opts = crate::scenario::RunOptions::new(1, 1)
                    .threads(Some(1))
                    .exact_only(true);
                ran = job.run(&opts, &control)?;
                &ran
            }
        };
        let n: u64 = tally.iter().sum();
        if tally.len() != self.outcomes.len() || report.outcomes.len() != self.outcomes.len() {
            return Err(self.conflict(format!(
                "{} counters for {} outcomes; the case reports {}",
                tally.len(),
                self.outcomes.len(),
                report.outcomes.len()
            )));
        }
        for (name, &k) in self.outcomes.iter().zip(tally) {
            let row = report.outcomes.iter().find(|o| o.outcome == *name);
            let share = k as f64 / n as f64;
            match self.against {
                Against::Exact => {
                    let exact = row
                        .and_then(|o| o.cell.exact)
                        .ok_or_else(|| self.conflict(format!("the case has no exact '{name}'")))?;
                    let (low, high) = crate::stats::wilson(k, n, DRIFT_Z);
                    if !(low..=high).contains(&exact) {
                        return Err(self.conflict(format!(
                            "'{name}' came out {share:.6} in {n} trials (z = 5 interval {low:.6} to {high:.6}); the rules give {exact:.6}"
                        )));
                    }
                }
                Against::MonteCarlo => {
                    let k2 = row.and_then(|o| o.cell.count).ok_or_else(|| {
                        self.conflict(format!("the case has no count of '{name}'"))
                    })?;
                    let n2 = report.trials;
                    let pooled = (k + k2) as f64 / (n + n2) as f64;
                    let se = (pooled * (1.0 - pooled) * (1.0 / n as f64 + 1.0 / n2 as f64)).sqrt();
                    let theirs = k2 as f64 / n2 as f64;
                    if (share - theirs).abs() > DRIFT_Z * se {
                        return Err(self.conflict(format!(
                            "'{name}' came out {share:.6} in {n} trials, the tool's {theirs:.6} in {n2} (more than 5 standard errors apart)"
                        )));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Every system's reference loops (see [`Reference`]).
pub fn references() -> Vec<Reference> {
    super::systems()
        .into_iter()
        .flat_map(|s| s.about().references.iter().copied())
        .collect()
}

/// One benchmark case: a scenario of a system with `--set` pairs and `--option`s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Case {
    /// A short name (words such as `rally`, `RF` select it on the command line).
    pub name: &'static str,
    /// The system's name.
    pub system: &'static str,
    /// The scenario's name.
    pub scenario: Scenario,
    /// `KEY=VALUE` pairs, as `--set` takes them.
    pub set: &'static [&'static str],
    /// Optional rules in force.
    pub options: &'static [&'static str],
}

impl Case {
    /// The case's job, built as the command line builds it.
    ///
    /// # Errors
    /// Never for the systems' cases (a test builds them all); the builders' errors otherwise.
    pub fn job(&self) -> Result<Box<dyn Job>> {
        let inputs: Vec<Input> = self
            .set
            .iter()
            .map(|p| Input::parse_set(p))
            .collect::<Result<_>>()?;
        let options: Vec<String> = self.options.iter().map(|s| s.to_string()).collect();
        super::build(self.system, self.scenario, &inputs, &options)
    }
}

/// Every system's cases picked by `which`, ordered by scenario (in the order the systems list
/// their scenarios) and then by system (in registry order).
fn gather(which: fn(&super::About) -> &'static [BenchCase]) -> Vec<Case> {
    let mut order: Vec<Scenario> = Vec::new();
    for s in super::systems() {
        for sc in s.scenarios() {
            if !order.contains(sc) {
                order.push(*sc);
            }
        }
    }
    let mut out: Vec<Case> = super::systems()
        .into_iter()
        .flat_map(|s| {
            which(s.about()).iter().map(|c| Case {
                name: c.name,
                system: s.name(),
                scenario: c.scenario,
                set: c.set,
                options: c.options,
            })
        })
        .collect();
    out.sort_by_key(|c| order.iter().position(|s| *s == c.scenario));
    out
}

/// Every scenario × system, at the sizes the speed figures in docs/PERFORMANCE.md name: `rally`
/// a routing Veteran unit of 7 stands with 2 lost (turn cap 100); `under-fire` 12 turns; `melee`
/// the figures' matches; `line` 6 v 6 regular units.
pub fn cases() -> Vec<Case> {
    gather(|a| a.bench)
}

/// The largest realistic units for each exact solver (each should take under 100 ms): Rank & File
/// units of 12 stands over 24 turns, Linear Warfare's 7-pip Guards, melees of 12 v 12 stands;
/// and each system's engagement at its defaults (12 turns).
pub fn exact_cases() -> Vec<Case> {
    gather(|a| a.exact_bench)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_builds_and_every_scenario_of_every_system_has_one() {
        let all = cases();
        for c in all.iter().chain(&exact_cases()) {
            c.job().unwrap_or_else(|e| panic!("{}: {e}", c.name));
        }
        for info in super::super::systems() {
            for s in info.scenarios() {
                assert!(
                    all.iter()
                        .any(|c| c.system == info.name() && c.scenario == *s),
                    "no case for {} {s}",
                    info.name()
                );
            }
        }
    }

    /// Each hand-written reference loop agrees with its case's exact solution or, for a
    /// battle, with the tool's Monte Carlo run of it, and the check would notice a loop whose
    /// shares moved by a point.
    #[test]
    fn the_reference_loops_agree_with_the_rules() {
        let refs = references();
        // Issue 55: under fire and a melee of each system, beside the rally and the line.
        for case in [
            "rally RF veteran 7 stands 2 lost routing 100 turns",
            "under-fire RF regular 8 stands 12 turns",
            "under-fire EF regular 12 turns retreat-on-fire return-roll",
            "under-fire LW line 12 turns",
            "melee RF veteran cavalry v regular infantry",
            "melee EF regular v regular",
            "melee LW guards charging v line behind obstacle",
            "line LW 6 v 6",
        ] {
            let r = refs.iter().find(|r| r.case == case);
            let r = r.unwrap_or_else(|| panic!("no hand loop for '{case}'"));
            r.case().unwrap_or_else(|e| panic!("{e}"));
        }
        for r in &refs {
            let spec = crate::engine::RunSpec {
                trials: 1 << 20,
                seed: 1,
                stream: 0,
                threads: Some(1),
            };
            let tally = (r.run)(&spec, &crate::engine::Control::new()).unwrap();
            assert_eq!(tally.iter().sum::<u64>(), 1 << 20, "{}", r.name);
            r.check(&tally, None).unwrap_or_else(|e| panic!("{e}"));
            // Shifted by 1% of the trials from the commonest outcome to another: refused.
            let most = (0..tally.len()).max_by_key(|&i| tally[i]).unwrap();
            let other = usize::from(most == 0);
            let mut off = tally.clone();
            off[most] -= 1 << 13;
            off[other] += 1 << 13;
            assert!(
                r.check(&off, None).is_err(),
                "{}: a drifted tally passed",
                r.name
            );
        }
    }

    /// What `list` says of each scenario's outcomes (`Scenario::about`) names every outcome a
    /// job of it reports, in every system: the outcomes are written once, in the job, and the
    /// description cannot fall behind them.
    #[test]
    fn the_scenarios_descriptions_name_their_outcomes() {
        for c in cases().iter().chain(&exact_cases()) {
            let text = c.scenario.about().outcomes.join("; ");
            let words: Vec<&str> = text
                .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                .collect();
            for o in c.job().unwrap().outcome_names() {
                let named =
                    words.contains(&o) || (o.starts_with("hits_") && words.contains(&"hits_0"));
                assert!(named, "{}: '{o}' is not in \"{text}\"", c.name);
            }
        }
    }
}
