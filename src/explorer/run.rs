//! The explorer's runs: `/api/run`, from the request to its answer: the view and mode read,
//! each profile's system found and checked, a sweep or a search asked, the answer kept or
//! computed in a run lane, and a failure said at the field it is about.

use std::sync::Arc;
use std::time::Instant;

use serde_json::json;

use crate::engine::Control;
use crate::error::Error;
use crate::params::{Input, Source};
use crate::system;

use super::edits::Hold;
use super::response::{Failure, for_the_page, unedited};
use super::view::{self, Profile, View, inputs_of};
use super::written::{Variant, commands, experiment_toml, ruleset_toml};
use super::{Explorer, sweep, value};

/// A failure of a profile other than the one the form edits says whose it is.
pub(super) fn whose(mut f: Failure, v: &View, p: &Profile) -> Failure {
    if v.compared() && p.label != v.profiles[v.edit].label {
        f.message = format!("profile {}: {}", p.title(), f.message);
    }
    f
}

impl Explorer {
    /// `/api/run`: the view's numbers, `mode=exact` (default) or `mode=mc`.
    pub(super) fn run(&self, pairs: &[(String, String)]) -> std::result::Result<Vec<u8>, Failure> {
        let started = Instant::now();
        let ask = RunAsk::parse(pairs, self.limits.max_trials)?;
        let (v, exact) = (&ask.view, ask.exact);
        // The edited files used are kept loaded until this answer is made.
        let (settings, _holds) = self.variants(v)?;
        let has_exact = has_exact(v, &settings)?;
        // "Solve for": the view's settings as the variants of an experiment with a [balance]
        // section (B against the pinned A, or both against a number), checked before it runs.
        let solve = solve_section(&ask)?;
        let sweep = sweep_asked(&ask, &settings, solve.is_some())?;
        let key = answer_key(ask.mode, solve.as_deref(), sweep.as_ref(), v, exact);
        if let Some(bytes) = self.cached(&key) {
            return Ok(bytes);
        }
        if solve.is_some() && !(exact && has_exact) {
            return Err(Failure {
                status: 400,
                message: "solve for runs on the exact answers here, and this setting has none (or Monte Carlo was asked): `morale-lab balance` searches it by Monte Carlo from the command line".into(),
                field: Some("solve.key".into()),
                line: None,
            });
        }
        if exact && !has_exact {
            return Ok(self.without_exact(v, &settings));
        }
        let _slot = self.slot(exact)?;
        if let Some(bytes) = self.cached(&key) {
            return Ok(bytes);
        }
        // Monte Carlo stopped part way keeps the trials it finished (a prefix: the numbers of a
        // run of that many), the same for every profile and sweep value (they run side by side).
        let control = Arc::new(if exact {
            Control::new()
        } else {
            Control::keeping_partial()
        });
        let id = self.register(ask.id, &control);
        let (result, timed_out) = self.within_limit(&control, || match &sweep {
            Some(a) => self.sweep(v, &settings, exact, a, &control),
            None => self.compute(v, &settings, exact, solve.as_deref(), &control),
        });
        self.unregister(id.as_deref(), &control);
        let mut answer = result.map_err(|e| self.run_failure(e, timed_out))?;
        answer["elapsed_ms"] = json!((started.elapsed().as_secs_f64() * 1e4).round() / 10.0);
        if let Some(partial) = answer.get_mut("partial").filter(|p| !p.is_null()) {
            // Not the view's whole answer: said, and never kept for it.
            partial["by"] = json!(if timed_out {
                format!(
                    "the server's limit of {} s for one run",
                    self.limits.max_seconds
                )
            } else {
                "Stop".to_string()
            });
            return Ok(answer.to_string().into_bytes());
        }
        let bytes = answer.to_string().into_bytes();
        self.keep(key, &bytes);
        Ok(bytes)
    }

    /// Each setting checked as the command line checks it: in the experiment's order (the base
    /// first), each with its link prefix and its system's name, and the holds that keep the
    /// edited files used loaded.
    pub(super) fn variants<'v>(
        &self,
        v: &'v View,
    ) -> std::result::Result<(Vec<Variant<'v>>, Vec<Hold<'_>>), Failure> {
        let mut settings: Vec<Variant<'_>> = Vec::new();
        let mut holds = Vec::new();
        for i in v.in_order() {
            let p = &v.profiles[i];
            let prefix = v.prefix(i);
            let (name, hold) = self
                .system_of(&p.setting, &prefix)
                .map_err(|f| whose(f, v, p))?;
            settings.push(Variant {
                prefix,
                profile: p,
                name,
            });
            holds.push(hold);
        }
        Ok((settings, holds))
    }

    /// The answer of an exact request for a setting that has no exact solution: its commands
    /// and files, no numbers.
    fn without_exact(&self, v: &View, settings: &[Variant<'_>]) -> Vec<u8> {
        let answer = json!({
            "mode": "exact",
            "has_exact": false,
            "files_version": self.files_version(),
            "query": v.query(),
            "commands": commands(v),
            "ruleset": ruleset_toml(v, v.current()),
            "experiment": v.compared().then(|| experiment_toml(v, settings, false)),
        });
        answer.to_string().into_bytes()
    }

    /// The run's `control` listed under the request's `run` id (if it has one, of at most 64
    /// characters), for `/api/progress` and `/api/cancel`: the id, to unlist it by.
    fn register(&self, id: Option<&str>, control: &Arc<Control>) -> Option<String> {
        let id = id.map(str::to_string);
        if let Some(id) = &id {
            let mut runs = self.runs.lock().unwrap_or_else(|e| e.into_inner());
            // The same page's earlier run gives way to its new one.
            if let Some(old) = runs.insert(id.clone(), Arc::clone(control)) {
                old.cancel();
            }
        }
        id
    }

    /// The run's `control` unlisted from its `id`, unless a newer run took the id since.
    fn unregister(&self, id: Option<&str>, control: &Arc<Control>) {
        if let Some(id) = id {
            let mut runs = self.runs.lock().unwrap_or_else(|e| e.into_inner());
            if runs.get(id).is_some_and(|c| Arc::ptr_eq(c, control)) {
                runs.remove(id);
            }
        }
    }

    /// Why a run failed, at the field it is about (`timed_out`: the server's limit stopped it).
    fn run_failure(&self, e: Error, timed_out: bool) -> Failure {
        match e {
            Error::Cancelled if timed_out => Failure::busy(format!(
                "stopped after {} s, the server's limit for one run: ask for fewer trials",
                self.limits.max_seconds
            )),
            // A sweep value one of the profiles refuses (its system has no such parameter, or
            // other bounds): the sweep's fault, beside its values.
            Error::File { key, message, .. } if key.starts_with("sweep") => Failure {
                status: 400,
                message: format!("sweep: {}", unedited(&message)),
                field: Some("sweep.values".into()),
                line: None,
            },
            // A `[balance]` the experiment refused: the solve controls' fault, in their words.
            Error::File { key, message, .. } if key.starts_with("balance") => Failure {
                status: 400,
                message: format!("solve for: {}", unedited(&message)),
                field: Some(
                    match key.as_str() {
                        "balance.range" => "solve.range",
                        "balance.target" => "solve.target",
                        _ => "solve.key",
                    }
                    .into(),
                ),
                line: None,
            },
            e => Failure::of(&e, ""),
        }
    }
}

/// The `[balance]` section a request's `solve`, `target` and `range` ask for (`None` without
/// `solve`): a profile's letter (`target=A`) solves every other profile to reach that one's
/// headline, a number solves every profile to reach it.
fn solve_section(ask: &RunAsk<'_>) -> std::result::Result<Option<String>, Failure> {
    let Some(key) = ask.solve else {
        return Ok(None);
    };
    let (v, target) = (&ask.view, ask.target);
    let bad = |field: &str, message: String| Failure {
        status: 400,
        message,
        field: Some(field.to_string()),
        line: None,
    };
    let mut out = format!("\n[balance]\nsolve = {}\n", view::toml_string(key));
    let letters: Vec<String> = v.profiles.iter().map(|p| p.label.to_string()).collect();
    if target.len() == 1 && target.chars().all(|c| c.is_ascii_alphabetic()) {
        let l = target.to_ascii_uppercase();
        if !v.compared() || !letters.contains(&l) {
            return Err(bad(
                "solve.target",
                if v.compared() {
                    format!(
                        "target {l} is not a profile here: a number, or one of {}",
                        letters.join(", ")
                    )
                } else {
                    format!(
                        "target {l} names a profile to match: keep one first (Pin as A), or give a number"
                    )
                },
            ));
        }
        let title = v
            .profiles
            .iter()
            .find(|p| p.label.to_string() == l)
            .map(Profile::title)
            .unwrap_or(l);
        out += &format!("against = {}\n", view::toml_string(&title));
    } else {
        match target.parse::<f64>() {
            Ok(t) if t.is_finite() => out += &format!("target = {t:?}\n"),
            _ => {
                return Err(bad(
                    "solve.target",
                    format!(
                        "invalid value '{target}' for the target: a number (a share from 0 to 1 for an outcome, e.g. 0.5){}",
                        if v.compared() {
                            ", or a profile's letter (A: that profile's value)"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        }
    }
    if let Some(r) = ask.range {
        out += &format!("range = {}\n", view::toml_string(r));
    }
    Ok(Some(out))
}

/// A `/api/run` request, read once: its view, its mode, and what it asks beyond the view
/// (a search, a sweep, the id the page follows the run by). Where a key is given twice, the
/// last counts; the request's words are trimmed, and an empty one is not asked.
struct RunAsk<'p> {
    /// The view: its profiles, scenario, trials and seed.
    view: View,
    /// `mode` as given (`exact` when not): part of the key the answer is kept by.
    mode: &'p str,
    /// The exact answer (`mode=exact`), not Monte Carlo (`mode=mc`).
    exact: bool,
    /// `solve`: the field a search solves for.
    solve: Option<&'p str>,
    /// `target`: the search's number or a profile's letter ("" when not given).
    target: &'p str,
    /// `range`: the search's range.
    range: Option<&'p str>,
    /// `sweep`: the field swept.
    sweep: Option<&'p str>,
    /// `values`: the sweep's values, as typed ("" when not given).
    values: &'p str,
    /// `of`: the outcome or measure the sweep draws.
    of: Option<&'p str>,
    /// `fit=1`: the sweep's range is the page's own, fitted to what the setting allows.
    fit: bool,
    /// `run`: the id `/api/progress` and `/api/cancel` find the run by (at most 64
    /// characters).
    id: Option<&'p str>,
}

impl<'p> RunAsk<'p> {
    /// Read a request's pairs: the view as [`View::parse`] reads it, then the mode (the
    /// request's only refusals before its systems are found); the rest as given.
    fn parse(
        pairs: &'p [(String, String)],
        max_trials: u64,
    ) -> std::result::Result<RunAsk<'p>, Failure> {
        let view = View::parse(pairs, max_trials).map_err(|e| Failure::of(&e, ""))?;
        let mode = value(pairs, "mode").unwrap_or("exact");
        let exact = is_exact(mode)?;
        let asked = |key: &str| value(pairs, key).map(str::trim).filter(|x| !x.is_empty());
        Ok(RunAsk {
            view,
            mode,
            exact,
            solve: asked("solve"),
            target: value(pairs, "target").map(str::trim).unwrap_or(""),
            range: asked("range"),
            sweep: asked("sweep"),
            values: value(pairs, "values").unwrap_or(""),
            of: asked("of"),
            fit: value(pairs, "fit") == Some("1"),
            id: value(pairs, "run").filter(|id| !id.is_empty() && id.len() <= 64),
        })
    }
}

/// Whether a request's `mode` asks for the exact answer (`exact`) or Monte Carlo (`mc`).
fn is_exact(mode: &str) -> std::result::Result<bool, Failure> {
    match mode {
        "exact" => Ok(true),
        "mc" => Ok(false),
        other => Err(Failure {
            status: 400,
            message: format!("invalid value '{other}' for mode: allowed: exact, mc"),
            field: None,
            line: None,
        }),
    }
}

/// Whether every setting has an exact solution, each built as the command line builds it.
fn has_exact(v: &View, settings: &[Variant<'_>]) -> std::result::Result<bool, Failure> {
    let mut has_exact = true;
    for s in settings {
        let inputs = inputs_of(&s.profile.setting);
        let job = system::build(&s.name, v.scenario, &inputs, &s.profile.setting.options)
            .map_err(|e| whose(Failure::of(&e, &s.prefix), v, s.profile))?;
        has_exact &= job.has_exact();
    }
    Ok(has_exact)
}

/// "Sweep": what a request's `sweep`, `values`, `of` and `fit` ask for (`None` without
/// `sweep`), one numeric field at each of a list of values, every profile at each; a request
/// that also `solving` is refused.
fn sweep_asked(
    ask: &RunAsk<'_>,
    settings: &[Variant<'_>],
    solving: bool,
) -> std::result::Result<Option<sweep::Ask>, Failure> {
    let Some(key) = ask.sweep else {
        return Ok(None);
    };
    let v = &ask.view;
    if solving {
        return Err(Failure {
            status: 400,
            message: "a request sweeps or solves, not both: ask one, then the other".into(),
            field: Some("sweep.key".into()),
            line: None,
        });
    }
    let edited = v.in_order().iter().position(|&i| i == v.edit).unwrap_or(0);
    let refused = |(message, field): sweep::Refusal| Failure {
        status: 400,
        message: format!("sweep: {message}"),
        field: Some(field.into()),
        line: None,
    };
    let mut a =
        sweep::ask(&settings[edited].name, v.scenario, key, ask.values, ask.of).map_err(refused)?;
    // A value some profile cannot take (3 stands lost of 3) is left out, and said.
    let rule = a.rule;
    // `fit=1`: the page's own range for the number, fitted to what it may be here.
    a.keep_allowed(ask.fit, |x| {
        settings
            .iter()
            .find_map(|s| refused_value(v, s, key, rule, x))
    })
    .map_err(refused)?;
    Ok(Some(a))
}

/// Why the setting `s` cannot take the value `x` of the swept field `key` (`rule`: a rule
/// parameter), if it cannot: the reason alone, with the profile's name when compared.
fn refused_value(v: &View, s: &Variant<'_>, key: &str, rule: bool, x: &str) -> Option<String> {
    let mut inputs = inputs_of(&s.profile.setting);
    inputs.push(if rule {
        Input::rule(key, x)
    } else {
        Input {
            key: key.to_string(),
            value: x.to_string(),
            source: Source::Set,
        }
    });
    let e = system::build(&s.name, v.scenario, &inputs, &s.profile.setting.options).err()?;
    // The reason alone (the value is said beside it): values left out
    // for one reason are listed together.
    let why = unedited(&for_the_page(&e));
    let why = why
        .strip_prefix(&format!("invalid value '{x}' for "))
        .and_then(|rest| rest.split_once(": "))
        .map_or(why.clone(), |(_, reason)| reason.to_string());
    Some(if v.compared() {
        format!("profile {}: {why}", s.profile.title())
    } else {
        why
    })
}

/// The key an answer is kept by: the mode, the search and the sweep asked, and the view's
/// exact setting (with its trials and seed for Monte Carlo).
fn answer_key(
    mode: &str,
    solve: Option<&str>,
    sweep: Option<&sweep::Ask>,
    v: &View,
    exact: bool,
) -> String {
    format!(
        "{}|{}{}{}",
        mode,
        solve.unwrap_or(""),
        // The values left out are part of the answer (a range typed says them, the same
        // range fitted by the page does not).
        sweep.map_or(String::new(), |a| format!("{}{:?}", a.toml(), a.left_out)),
        if exact {
            v.exact_key()
        } else {
            format!("{}&trials={}&seed={}", v.exact_key(), v.trials, v.seed)
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explorer::testing::*;
    use crate::explorer::{BLANK, Limits};

    /// "Solve for": the answer under `balance`, B against A or a number; bad asks at their field.
    #[test]
    fn solve_for_answers_with_the_search_and_refuses_at_its_field() {
        let x = explorer();
        let q = "/api/run?scenario=rally&set=class%3Dgreen&set=state%3Drouting&a.set=class%3Dregular&a.set=state%3Drouting";
        let r = x.handle("POST", &format!("{q}&solve=base_green&target=A"), b"");
        assert_eq!(r.status, 200);
        let v = body(&r);
        let solved = v["balance"].as_array().unwrap();
        assert_eq!(solved.len(), 1, "B alone is solved against A");
        assert_eq!(solved[0]["label"], "B");
        assert!(
            solved[0]["answer"]
                .as_str()
                .unwrap()
                .contains("Green base number 4, exactly")
        );
        assert!(
            solved[0]["chart"]["svg"]
                .as_str()
                .unwrap()
                .starts_with("<svg")
        );
        assert!(solved[0]["unmoved"].is_null());
        assert_eq!(solved[0]["words"], "Green base number");
        // A number: both solved; without solve, no search. The Green base number does not
        // move A, a Regular unit: A's answer says so in one sentence.
        let v = body(&x.handle("POST", &format!("{q}&solve=base_green&target=0.5"), b""));
        let solved = v["balance"].as_array().unwrap();
        assert_eq!(solved.len(), 2);
        let (a, b) = (&solved[0], &solved[1]);
        assert_eq!((&a["label"], &b["label"]), (&json!("A"), &json!("B")));
        let line = a["unmoved"].as_str().unwrap();
        assert!(
            line.starts_with("Green base number does not change it: the chance ")
                && line.contains(" at every value from "),
            "{line}"
        );
        assert!(b["unmoved"].is_null(), "{b}");
        let v = body(&x.handle("POST", q, b""));
        assert_eq!(v["balance"].as_array().unwrap().len(), 0);
        for (ask, field) in [
            ("solve=base_green&target=half", "solve.target"),
            ("solve=base_greenn&target=0.5", "solve.key"),
            ("solve=base_green&target=0.5&range=0..20", "solve.range"),
            ("solve=base_green&target=1.5", "solve.target"),
        ] {
            let r = x.handle("POST", &format!("{q}&{ask}"), b"");
            assert_eq!(r.status, 400, "{ask}");
            let v = body(&r);
            assert_eq!(v["field"], field, "{ask}: {v}");
            assert!(
                !v["error"].as_str().unwrap().contains("explorer.toml"),
                "{v}"
            );
        }
        let r = x.handle(
            "POST",
            "/api/run?scenario=rally&solve=base_green&target=A",
            b"",
        );
        assert_eq!(body(&r)["field"], "solve.target");
        // A line has no exact answer: solve for says so at its field rather than searching.
        let r = x.handle(
            "POST",
            "/api/run?scenario=line&solve=break_fraction&target=0.5",
            b"",
        );
        assert_eq!(r.status, 400);
        assert_eq!(body(&r)["field"], "solve.key");
        let r = x.handle(
            "POST",
            &format!("{q}&mode=mc&solve=base_green&target=0.5"),
            b"",
        );
        assert_eq!(body(&r)["field"], "solve.key");
    }

    #[test]
    fn an_exact_answer_is_the_command_lines() {
        let x = explorer();
        let r = x.handle(
            "POST",
            "/api/run",
            b"system=rank-and-file&scenario=rally&set=class%3Dveteran&set=stands%3D7&set=lost%3D2&mode=exact",
        );
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = body(&r);
        let job = crate::job(
            "rank-and-file",
            "rally",
            &[("class", "veteran"), ("stands", "7"), ("lost", "2")],
            &[],
        )
        .unwrap();
        let want = job
            .run(
                &crate::RunOptions::new(1000, 1).exact_only(true),
                &Control::new(),
            )
            .unwrap();
        let got = &v["variants"][0]["report"]["outcomes"][0];
        assert_eq!(got["outcome"], "recovered");
        assert_eq!(got["exact"].as_f64(), want.outcomes[0].cell.exact);
        assert!(
            v["charts"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["svg"].as_str().unwrap().starts_with("<svg"))
        );
        assert_eq!(
            v["commands"][0]["command"],
            "morale-lab rally --system rank-and-file --set class=veteran --set stands=7 --set lost=2 --trials 1000000 --seed 1"
        );
    }

    #[test]
    fn the_blank_template_runs_with_exact_fractions() {
        let path = "mechanics/examples/first-rally.rhai";
        let text = std::fs::read_to_string(path).unwrap();
        let x = Explorer::new(vec![(path.into(), text)], Limits::default());
        let q = format!(
            "system={}&scenario=rally&code={}&mode=exact",
            view::encode(path),
            view::encode(BLANK)
        );
        let r = x.handle("POST", "/api/run", q.as_bytes());
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = body(&r);
        let passed = &v["variants"][0]["report"]["outcomes"][0];
        assert_eq!(passed["outcome"], "passed", "{v}");
        // Six turns of a 4+ on a D6: all but (1/2)^6 pass.
        assert_eq!(passed["exact"], 63.0 / 64.0);
        assert_eq!(v["variants"][0]["fractions"]["passed"], "63/64");
        assert_eq!(v["variants"][0]["fractions"]["turns_to_pass"], "40/21");
        assert!(
            passed.get("fraction").is_none(),
            "the report stays the command line's"
        );
        // The page holds it as a JSON string that no `</` in it could end early.
        let page = x.handle("GET", "/", b"");
        let page = String::from_utf8(page.body).unwrap();
        assert!(!page.contains("{{BLANK}}"));
        let start = page.find("id=\"blank\">").unwrap() + "id=\"blank\">".len();
        let json = &page[start..start + page[start..].find("</script>").unwrap()];
        assert_eq!(serde_json::from_str::<String>(json).unwrap(), BLANK);
    }

    #[test]
    fn an_engagement_is_exact_and_a_line_says_it_is_not() {
        let x = explorer();
        let v = body(&x.handle(
            "POST",
            "/api/run?system=linear-warfare&scenario=engagement&mode=exact",
            b"",
        ));
        assert_eq!(v["has_exact"], true, "{v}");
        let v = body(&x.handle(
            "POST",
            "/api/run?system=linear-warfare&scenario=line&mode=exact",
            b"",
        ));
        assert_eq!(v["has_exact"], false, "{v}");
        let r = x.handle(
            "POST",
            "/api/run?system=linear-warfare&scenario=line&mode=mc&trials=2000",
            b"",
        );
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    }
}
