//! Which cases a plan picks (by name, scenario or system), and `--list`.

use super::*;

/// A benchmark case as it will run: the library's case with the plan's settings laid over.
#[derive(Debug, Clone)]
pub(super) struct Planned {
    pub(super) case: Case,
    /// Its `KEY=VALUE` settings.
    pub(super) set: Vec<String>,
    /// Whether the plan changed them (its reference loop then writes other rules).
    pub(super) changed: bool,
    /// Its name, and when the plan changed its settings, what it ran with instead: "rally RF
    /// … 100 turns (run with turns=12)".
    pub(super) label: String,
}

impl Planned {
    pub(super) fn new(case: Case, over: &[String]) -> Planned {
        let key = |s: &str| s.split_once('=').map_or(s, |(k, _)| k).trim().to_string();
        let mut set: Vec<String> = case
            .set
            .iter()
            .filter(|s| !over.iter().any(|o| key(o) == key(s)))
            .map(|s| s.to_string())
            .collect();
        set.extend(over.iter().cloned());
        let changed = set.len() != case.set.len() || set.iter().zip(case.set).any(|(a, b)| a != b);
        let label = label(case.name, if changed { over } else { &[] });
        Planned {
            case,
            set,
            changed,
            label,
        }
    }

    pub(super) fn job(&self) -> Result<Box<dyn morale_lab::Job>> {
        let inputs: Vec<morale_lab::params::Input> = self
            .set
            .iter()
            .map(|p| morale_lab::params::Input::parse_set(p))
            .collect::<Result<_>>()?;
        let options: Vec<String> = self.case.options.iter().map(|s| s.to_string()).collect();
        morale_lab::system::build(self.case.system, self.case.scenario, &inputs, &options).map_err(
            |e| match e {
                Error::Invalid {
                    what,
                    value,
                    allowed,
                } => Error::Invalid {
                    what: format!("{what} (bench case '{}')", self.case.name),
                    value,
                    allowed,
                },
                e => e,
            },
        )
    }

    /// The command line that runs what one of its runs runs (`tail`: the run's own options).
    pub(super) fn command(&self, tail: &str) -> String {
        let quote = |s: &str| {
            if s.contains(' ') {
                format!("\"{s}\"")
            } else {
                s.to_string()
            }
        };
        let mut c = format!(
            "morale-lab {} --system {}",
            self.case.scenario, self.case.system
        );
        for s in &self.set {
            // The turns as the command line's own flag (the rally's cap reads `--turns 100`).
            match s.strip_prefix("turns=") {
                Some(n) => c += &format!(" --turns {n}"),
                None => c += &format!(" --set {}", quote(s)),
            }
        }
        for o in self.case.options {
            c += &format!(" --option {o}");
        }
        c + tail
    }
}

/// The cases `plan` picks: Monte Carlo and exact.
pub(super) fn picked(plan: &Plan) -> (Vec<Planned>, Vec<Planned>) {
    let pick = |list: Vec<Case>| -> Vec<Planned> {
        list.into_iter()
            .filter(|c| matches(plan, c.name))
            .map(|c| Planned::new(c, &plan.set))
            .collect()
    };
    (pick(cases()), pick(exact_cases()))
}

/// A case's name, and the settings laid over it that changed it.
pub(super) fn label(name: &str, over: &[String]) -> String {
    if over.is_empty() {
        name.to_string()
    } else {
        format!("{name} (run with {})", over.join(" "))
    }
}

/// Whether a case's name is picked by the plan.
pub(super) fn matches(plan: &Plan, name: &str) -> bool {
    if !plan.exact_names.is_empty() {
        return plan
            .exact_names
            .iter()
            .any(|n| n == name || n == &label(name, &plan.set));
    }
    plan.only.is_empty() || plan.only.iter().any(|w| name.contains(w.as_str()))
}

pub(super) fn bad(what: &str, value: &str, allowed: &str) -> Error {
    Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed: allowed.into(),
    }
}

/// What the plan picks, refused when nothing.
pub(super) struct Picked<'a> {
    pub(super) cases: Vec<Planned>,
    pub(super) exact: Vec<Planned>,
    pub(super) files: Vec<&'a MechanicCase>,
    pub(super) api: bool,
}

pub(super) fn pick(plan: &Plan) -> Result<Picked<'static>> {
    let (cases, exact) = picked(plan);
    let files: Vec<&MechanicCase> = MECHANIC_CASES
        .iter()
        .filter(|c| plan.set.is_empty() && matches(plan, c.name))
        .collect();
    let api = plan.set.is_empty()
        && if plan.exact_names.is_empty() {
            plan.only.is_empty()
                || plan
                    .only
                    .iter()
                    .any(|w| w.contains("explorer") || w.contains("api"))
        } else {
            API_CASES
                .iter()
                .any(|(n, _)| plan.exact_names.iter().any(|e| e == n))
        };
    if cases.is_empty() && exact.is_empty() && files.is_empty() && !api {
        return Err(bad(
            "FILTER",
            &plan.only.join(" "),
            "no case matches; words such as rally, under-fire, melee, line, exact, mechanic, explorer, RF, EF, LW (bench --list names them all)",
        ));
    }
    Ok(Picked {
        cases,
        exact,
        files,
        api,
    })
}

/// `bench --list`: every case the plan picks, with the command line each run is.
///
/// # Errors
/// No case matches.
pub fn list(plan: &Plan) -> Result<String> {
    let p = pick(plan)?;
    let sampler = plan.sampler.as_deref().unwrap_or("table");
    let mut out = String::from(
        "Each case runs as this command with seed 1 (--trials: as many as fill its share of the time; --threads: as asked); a word of its name picks it.\n",
    );
    if !p.cases.is_empty() {
        out += "\nMonte Carlo (trials a second):\n";
        for c in &p.cases {
            let reference = references().into_iter().find(|r| r.case == c.case.name);
            out += &format!(
                "  {}\n    {}\n",
                c.label,
                c.command(&format!(" --seed 1 --sampler {sampler} --trials N"))
            );
            if let Some(r) = reference.filter(|_| !c.changed) {
                out += &format!("    beside {}\n", r.name);
            }
        }
    }
    if !p.exact.is_empty() {
        out += "\nexact solution (ms a solve):\n";
        for c in &p.exact {
            out += &format!("  {}\n    {}\n", c.label, c.command(" --exact-only"));
        }
    }
    if !p.files.is_empty() {
        out += "\nmechanic file against the built-in system (trials a second):\n";
        for c in &p.files {
            let set: String = c.set.iter().map(|s| format!(" --set {s}")).collect();
            let opts: String = c.options.iter().map(|o| format!(" --option {o}")).collect();
            out += &format!(
                "  {}\n    morale-lab {} --system {}{set}{opts}\n    morale-lab {} --system {}{set}{opts}\n",
                c.name, c.scenario, c.file, c.scenario, c.built_in
            );
        }
    }
    if p.api {
        out += "\nexplorer over loopback HTTP (ms a request; morale-lab serve):\n";
        for (name, path) in API_CASES {
            out += &format!("  {name}\n    POST {path}\n");
        }
    }
    Ok(out)
}
