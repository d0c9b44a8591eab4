//! The tool's exact values against an independent reference: icepool, the dice-probability
//! library, computing the same chances from the rules' words (`tests/reference/`).
//!
//! The exact solver and the Monte Carlo samplers share the rule code, so they cannot catch a
//! rule misread together; icepool shares nothing with it. Its script writes a grid of cases
//! (Rank & File test and rally, the effectiveness test and return roll, the Linear Warfare
//! round, volley and melee with follow-up, under several rule parameters); each is run here
//! through the library, exact only, and every outcome and metric must agree within 1e-12.
//!
//! The Python comes from `MORALE_LAB_PYTHON` (CI sets up a virtual environment with icepool),
//! else `python3`. Without Python or icepool the test prints `skipped: no icepool` and passes,
//! except under CI (`CI` set) or `MORALE_LAB_REQUIRE_ICEPOOL=1`, where it fails.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use morale_lab::RunOptions;
use morale_lab::engine::Control;
use morale_lab::params::Input;
use morale_lab::system;
use serde::Deserialize;

/// The largest difference allowed between the tool's exact value and icepool's.
const TOLERANCE: f64 = 1e-12;

#[derive(Debug, Deserialize)]
struct Reference {
    icepool: String,
    cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
struct Case {
    system: String,
    scenario: String,
    set: Vec<String>,
    rule: Vec<String>,
    options: Vec<String>,
    outcomes: BTreeMap<String, f64>,
    metrics: BTreeMap<String, f64>,
}

impl Case {
    fn command(&self) -> String {
        let mut c = format!("{} --system {}", self.scenario, self.system);
        for s in &self.set {
            c += &format!(" --set '{s}'");
        }
        for r in &self.rule {
            c += &format!(" --rule {r}");
        }
        for o in &self.options {
            c += &format!(" --option {o}");
        }
        c
    }
}

/// The Python to run, or why there is none.
fn python() -> Result<String, String> {
    let python = std::env::var("MORALE_LAB_PYTHON").unwrap_or_else(|_| "python3".into());
    match Command::new(&python)
        .args(["-c", "import icepool; print(icepool.__version__)"])
        .output()
    {
        Ok(o) if o.status.success() => Ok(python),
        Ok(o) => Err(format!(
            "{python} has no icepool: {}",
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .last()
                .unwrap_or("")
        )),
        Err(e) => Err(format!("no {python}: {e}")),
    }
}

/// The reference cases, or `None` (after saying so) where icepool is missing outside CI.
fn reference() -> Option<Reference> {
    let python = match python() {
        Ok(p) => p,
        Err(why) => {
            let required = std::env::var_os("CI").is_some()
                || std::env::var_os("MORALE_LAB_REQUIRE_ICEPOOL").is_some();
            assert!(!required, "the icepool reference is required here: {why}");
            eprintln!("skipped: no icepool ({why})");
            return None;
        }
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/icepool_reference.py");
    let out = Command::new(&python).arg(&script).output().unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).expect("the reference prints one JSON object"))
}

/// The tool's exact report of one case (a mechanic file's read from the repository).
fn exact(c: &Case) -> morale_lab::report::Report {
    if morale_lab::mechanic::is_file(&c.system) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        morale_lab::mechanic::load_with(&c.system, &mut |p| {
            std::fs::read_to_string(root.join(p))
                .map_err(|e| morale_lab::Error::Conflict(format!("{p}: {e}")))
        })
        .unwrap_or_else(|e| panic!("{e}"));
    }
    let mut inputs: Vec<Input> = c.set.iter().map(|s| Input::parse_set(s).unwrap()).collect();
    inputs.extend(c.rule.iter().map(|r| Input::parse_rule(r).unwrap()));
    let job = system::build(
        &c.system,
        morale_lab::Scenario::parse(&c.scenario).unwrap(),
        &inputs,
        &c.options,
    )
    .unwrap_or_else(|e| panic!("{}: {e}", c.command()));
    let mut options = RunOptions::new(1, 1).threads(Some(1));
    options.exact_only = true;
    job.run(&options, &Control::new())
        .unwrap_or_else(|e| panic!("{}: {e}", c.command()))
}

#[test]
fn exact_values_agree_with_icepool_from_the_rules_words() {
    let Some(reference) = reference() else {
        return;
    };
    // The grid covers every mechanic it claims, so the test cannot pass on an empty list.
    let mut kinds: BTreeMap<(String, String), usize> = BTreeMap::new();
    for c in &reference.cases {
        *kinds
            .entry((c.system.clone(), c.scenario.clone()))
            .or_default() += 1;
    }
    for (kind, at_least) in [
        (("rank-and-file", "test"), 1000),
        (("rank-and-file", "rally"), 1000),
        (("effectiveness", "test"), 50),
        (("effectiveness", "rally"), 20),
        (("linear-warfare", "test"), 80),
        (("linear-warfare", "melee"), 300),
        (("mechanics/examples/first-rally.rhai", "rally"), 100),
        (("mechanics/house/ef-return-at-a-cost.rhai", "rally"), 15),
    ] {
        let n = kinds
            .get(&(kind.0.to_string(), kind.1.to_string()))
            .copied()
            .unwrap_or(0);
        assert!(n >= at_least, "{kind:?}: {n} cases");
    }
    let (mut values, mut largest) = (0usize, 0f64);
    let mut wrong = Vec::new();
    for c in &reference.cases {
        let r = exact(c);
        let mut compare = |name: &str, tool: Option<f64>, want: f64| {
            values += 1;
            match tool {
                Some(got) if (got - want).abs() <= TOLERANCE => {
                    largest = largest.max((got - want).abs());
                }
                got => wrong.push(format!("{}: {name} {got:?}, icepool {want}", c.command())),
            }
        };
        for (name, want) in &c.outcomes {
            let tool = r
                .outcomes
                .iter()
                .find(|o| &o.outcome == name)
                .and_then(|o| o.cell.exact);
            compare(name, tool, *want);
        }
        for (name, want) in &c.metrics {
            let tool = r
                .metrics
                .iter()
                .find(|m| &m.name == name)
                .and_then(|m| m.exact);
            compare(name, tool, *want);
        }
    }
    eprintln!(
        "icepool {}: {} cases, {values} values compared, largest difference {largest:.1e}, {} beyond {TOLERANCE:e}",
        reference.icepool,
        reference.cases.len(),
        wrong.len()
    );
    assert!(
        wrong.is_empty(),
        "{} of {values} values differ from icepool's:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
