//! The explorer's computing: a view's profiles run as the variants of an experiment (with a
//! sweep or a search when asked), and the answer made of their reports, charts, comparisons
//! and files.

use serde_json::{Value, json};

use crate::Sampler;
use crate::engine::Control;
use crate::error::{Error, Result};
use crate::experiment::{Experiment, compare, output};
use crate::report::chart;

use super::response::as_saved;
use super::view::View;
use super::written::Variant;
use super::written::{commands, experiment_toml, ruleset_toml, solve_command};
use super::{Explorer, sweep};

/// The view with the trials a Monte Carlo run stopped part way holds (every run of it the
/// same), whose commands and files give its numbers; `None` for a whole run or an exact one.
pub(super) fn stopped(
    v: &View,
    exact: bool,
    result: &crate::experiment::ExperimentResult,
) -> Option<View> {
    let held = result.runs.iter().map(|r| r.report.trials).min()?;
    (!exact && held > 0 && held < v.trials).then(|| View {
        trials: held,
        ..v.clone()
    })
}

/// Exact differences `b − a` of every outcome and metric both have (`an`, `bn`: their names).
fn exact_differences(a: &crate::Report, b: &crate::Report, an: &str, bn: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for o in &b.outcomes {
        if let Some(base) = a
            .outcomes
            .iter()
            .find(|x| compare::same_outcome(&x.outcome, &o.outcome))
            && let (Some(x), Some(y)) = (o.cell.exact, base.cell.exact)
        {
            out.push(json!({ "kind": "outcome", "name": o.outcome, "variant": bn, "baseline": an, "estimate": x, "baseline_estimate": y, "exact_difference": x - y }));
        }
    }
    for m in &b.metrics {
        if let Some(base) = a.metrics.iter().find(|x| x.name == m.name)
            && let (Some(x), Some(y)) = (m.exact, base.exact)
        {
            out.push(json!({ "kind": "metric", "name": m.name, "variant": bn, "baseline": an, "estimate": x, "baseline_estimate": y, "exact_difference": x - y }));
        }
    }
    out
}

impl Explorer {
    /// Parse an experiment the view wrote (edited files read as the server keeps them) and run
    /// it: exact values only when `exact`, else Monte Carlo beside them.
    pub(super) fn experiment(
        &self,
        text: &str,
        exact: bool,
        control: &Control,
    ) -> Result<(Experiment, crate::experiment::ExperimentResult)> {
        let mut read = |p: &str| -> Result<String> {
            let edited = self.edited.lock().unwrap_or_else(|e| e.into_inner());
            self.read_now(p, Some(&edited.kept))
        };
        let exp = Experiment::parse_with("explorer.toml", text, &mut read)?;
        let mut planned = exp.plan(self.limits.threads, Sampler::Table)?;
        for p in &mut planned {
            p.options.exact_only = exact;
        }
        // Monte Carlo of several runs goes side by side in batches, so that Stop leaves every
        // profile (and sweep value) on the same finished trials.
        let (runs, _) = crate::experiment::run_side_by_side(planned, control)?;
        let result = exp.result(self.limits.threads, runs);
        Ok((exp, result))
    }

    /// Run the view's profiles at every value of a sweep (an experiment with a `[sweep]`) and
    /// answer with its chart and table.
    pub(super) fn sweep(
        &self,
        v: &View,
        settings: &[Variant<'_>],
        exact: bool,
        a: &sweep::Ask,
        control: &Control,
    ) -> Result<Value> {
        let text = sweep::with_sweep(&experiment_toml(v, settings, true), a);
        let (_, result) = self.experiment(&text, exact, control)?;
        // Stopped part way: the trials every value and profile finished, and a file of that many.
        let held = stopped(v, exact, &result);
        let partial = held.as_ref().map(|h| h.trials);
        let v = held.as_ref().unwrap_or(v);
        let titles: Vec<String> = settings
            .iter()
            .map(|s| {
                if v.compared() {
                    s.profile.title()
                } else {
                    "this setting".to_string()
                }
            })
            .collect();
        let file = sweep::with_sweep(&experiment_toml(v, settings, false), a);
        let mut answer = sweep::answer(v, &titles, a, &result, file)?;
        // Charts and files name an edited file as the page saves it.
        answer = serde_json::from_str(&as_saved(&answer.to_string())).unwrap_or(answer);
        Ok(json!({
            "files_version": self.files_version(),
            "mode": if exact { "exact" } else { "mc" },
            "has_exact": true,
            "query": v.query(),
            "sweep": answer,
            "partial": partial.map(|trials| json!({ "trials": trials })),
        }))
    }

    /// Run the view's settings as the variants of an experiment (A first: the baseline) and
    /// answer with their reports, charts and comparisons.
    pub(super) fn compute(
        &self,
        v: &View,
        settings: &[Variant<'_>],
        exact: bool,
        solve: Option<&str>,
        control: &Control,
    ) -> Result<Value> {
        let text = experiment_toml(v, settings, true) + solve.unwrap_or("");
        let (exp, result) = self.experiment(&text, exact, control)?;
        // A run stopped part way: its trials, and the commands that give its numbers.
        let held = stopped(v, exact, &result);
        let partial = held.as_ref().map(|h| h.trials);
        let v = held.as_ref().unwrap_or(v);
        let mut charts = Vec::new();
        let mut drawn = output::point_charts(&result);
        if v.compared() {
            // Profiles side by side: each state's share turn by turn, every profile's line on
            // one chart, in place of a stacked chart for each.
            drawn.retain(|(name, _)| !name.starts_with("per_turn_"));
            drawn.extend(output::per_turn_overlaid(&result));
        }
        for (name, chart) in drawn {
            let draw = |size| {
                chart
                    .svg_sized(size)
                    .map_err(|e| Error::Conflict(format!("could not draw the chart {name}: {e}")))
            };
            // Drawn twice: as the reports draw it, and narrow for a phone's width.
            let (svg, narrow) = (draw(chart::SIZE)?, draw(chart::NARROW)?);
            charts.push(
                json!({ "name": name, "title": chart.title(), "svg": svg, "narrow": narrow }),
            );
        }
        let variants: Vec<Value> = result
            .runs
            .iter()
            .map(|r| variant_answer(r, settings))
            .collect();
        let comparisons = if v.compared() {
            if exact {
                let base = &result.runs[0];
                Value::Array(
                    result.runs[1..]
                        .iter()
                        .flat_map(|r| {
                            exact_differences(
                                &base.report,
                                &r.report,
                                &settings[base.variant].profile.title(),
                                &settings[r.variant].profile.title(),
                            )
                        })
                        .collect(),
                )
            } else {
                serde_json::to_value(compare::compare(&result)).unwrap_or(Value::Null)
            }
        } else {
            Value::Null
        };
        let headline = output::headline(&result);
        let mut solved = Vec::new();
        // Solved to meet a profile: the balance names it ("the same under A (Veteran)").
        let against = |from: &str| {
            let name = from.strip_prefix("the same under ")?;
            settings
                .iter()
                .map(|s| s.profile)
                .filter(|p| name.starts_with(&p.title()))
                .max_by_key(|p| p.title().len())
                .map(|p| &p.setting)
        };
        for (name, b) in exp.balances(self.limits.threads, Sampler::Table, control)? {
            let chart = b.chart();
            let draw = |size| {
                chart
                    .svg_sized(size)
                    .map_err(|e| Error::Conflict(format!("could not draw the balance chart: {e}")))
            };
            let (svg, narrow) = (draw(chart::SIZE)?, draw(chart::NARROW)?);
            let p = settings
                .iter()
                .map(|s| s.profile)
                .find(|p| p.title() == name)
                .unwrap_or(&v.profiles[v.edit]);
            solved.push(json!({
                "label": p.label.to_string(),
                "name": p.name,
                "key": b.key,
                "words": b.key_words(),
                "answer": b.answer(),
                // The number does not move this profile's headline: one line, not a search.
                "unmoved": b.unmoved(),
                "context": b.context_lines(),
                "rows": b.rows(),
                "exact": b.exact,
                "chart": { "title": chart.title(), "svg": svg, "narrow": narrow },
                "command": solve_command(v, &p.setting, &b, against(&b.target_from)),
            }));
        }
        Ok(json!({
            "files_version": self.files_version(),
            "balance": solved,
            "mode": if exact { "exact" } else { "mc" },
            "has_exact": true,
            "query": v.query(),
            "headline": headline.map(|(k, metric)| json!({ "key": k, "metric": metric })),
            "variants": variants,
            "comparisons": comparisons,
            "charts": charts,
            "commands": commands(v),
            "ruleset": ruleset_toml(v, v.current()),
            "experiment": v.compared().then(|| experiment_toml(v, settings, false)),
            "partial": partial.map(|trials| json!({ "trials": trials })),
        }))
    }
}

/// One profile's run as the page reads it: its report (an edited file named as the page saves
/// it), each exact value's simple fraction, each measure's words, and which averages are
/// shares.
fn variant_answer(r: &crate::experiment::Run, settings: &[Variant<'_>]) -> Value {
    // The report (its system, source and notes) names an edited file as the page
    // saves it, not by the server's name for it.
    let text = serde_json::to_string(&r.report).unwrap_or_default();
    let report: Value = serde_json::from_str(&as_saved(&text)).unwrap_or(Value::Null);
    // Each exact value's simple fraction (5/9), as the command line prints it, by
    // outcome and measure (beside the report, which stays the command line's).
    let outcomes = r.report.outcomes.iter().map(|o| (&o.outcome, o.cell.exact));
    let metrics = r.report.metrics.iter().map(|m| (&m.name, m.exact));
    let fractions: serde_json::Map<String, Value> = outcomes
        .chain(metrics)
        .filter_map(|(name, exact)| {
            let (a, b) = crate::report::simple_fraction(exact?)?;
            Some((name.clone(), json!(format!("{a}/{b}"))))
        })
        .collect();
    // Each outcome's and average's name in a reader's words, as the published page
    // heads its rows (`heads`), and short, for a sentence or a menu (`names`).
    let outcomes = r.report.outcomes.iter().map(|o| (&o.outcome, None));
    let metrics = r
        .report
        .metrics
        .iter()
        .map(|m| (&m.name, Some(m.meaning.as_str())));
    let (mut heads, mut names) = (serde_json::Map::new(), serde_json::Map::new());
    for (name, meaning) in outcomes.chain(metrics) {
        heads.insert(
            name.clone(),
            json!(crate::publish::measure_head(name, meaning)),
        );
        let short = match meaning {
            Some(_) => crate::labels::metric(name).head,
            None => crate::labels::outcome(name).head,
        };
        names.insert(name.clone(), json!(short));
    }
    // The averages that are shares of the trials (a cause of removal): chances, shown
    // in per cent beside the outcomes, not as 0.231.
    let shares: Vec<&str> = r
        .report
        .metrics
        .iter()
        .map(|m| m.name.as_str())
        .filter(|n| crate::labels::is_share(n))
        .collect();
    let p = settings[r.variant].profile;
    json!({ "label": p.label.to_string(), "name": p.name, "title": p.title(), "report": report, "fractions": fractions, "heads": heads, "names": names, "shares": shares })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explorer::testing::*;

    #[test]
    fn a_pinned_setting_is_compared_with_the_experiments_statistics() {
        let x = explorer();
        let q = b"scenario=rally&set=class%3Dregular&set=stands%3D8&set=state%3Drouting&rule=base_regular%3D5&a.set=class%3Dregular&a.set=stands%3D8&a.set=state%3Drouting&trials=20000&mode=mc";
        let r = x.handle("POST", "/api/run", q);
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = body(&r);
        let variants = v["variants"].as_array().unwrap();
        assert_eq!(variants[0]["label"], "A");
        assert_eq!(variants[1]["label"], "B");
        let c = v["comparisons"].as_array().unwrap();
        let rec = c.iter().find(|c| c["name"] == "recovered").unwrap();
        assert!(rec["p_value"].as_f64().is_some());
        assert!(rec["exact_difference"].as_f64().is_some());
        // The experiment offered for download runs the same.
        let text = v["experiment"].as_str().unwrap();
        let exp = Experiment::parse("explorer.toml", text).unwrap();
        assert_eq!(exp.variants.len(), 2);
        assert_eq!(exp.trials, 20_000);
        // So does the rule-set file: B's rules, on the system B plays.
        let set = crate::ruleset::RuleSet::parse(
            "explorer-rules.toml",
            v["ruleset"].as_str().unwrap(),
            &mut |p: &str| Err(Error::Conflict(format!("no file {p}"))),
        )
        .unwrap();
        assert_eq!(set.system, "rank-and-file");
        assert_eq!(
            set.rules,
            vec![("base_regular".to_string(), "5".to_string())]
        );
    }

    /// Three named profiles, the base chosen: each answer is its own setting's, each other
    /// profile is compared with the base (exact differences; Monte Carlo rows with p-values
    /// adjusted across them all), and the downloaded experiment holds them base first.
    #[test]
    fn profiles_are_compared_with_the_chosen_base() {
        let x = explorer();
        let q = "scenario=rally&set=class%3Dregular&name=Regulars&a.set=class%3Dgreen&a.name=Green&c.set=class%3Dveteran&c.name=Veterans&base=C&trials=20000";
        let r = x.handle("POST", "/api/run", format!("{q}&mode=exact").as_bytes());
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = body(&r);
        let variants = v["variants"].as_array().unwrap();
        let labels: Vec<&str> = variants
            .iter()
            .map(|x| x["label"].as_str().unwrap())
            .collect();
        assert_eq!(labels, vec!["C", "A", "B"]);
        assert_eq!(variants[0]["title"], "C (Veterans)");
        // Each profile's exact answer is that setting's alone.
        let exact_of = |class: &str| {
            let r = x.handle(
                "POST",
                "/api/run",
                format!("scenario=rally&set=class%3D{class}&mode=exact").as_bytes(),
            );
            body(&r)["variants"][0]["report"]["outcomes"][0]["exact"]
                .as_f64()
                .unwrap()
        };
        let (vet, green, regular) = (exact_of("veteran"), exact_of("green"), exact_of("regular"));
        let got: Vec<f64> = variants
            .iter()
            .map(|x| x["report"]["outcomes"][0]["exact"].as_f64().unwrap())
            .collect();
        assert_eq!(got, vec![vet, green, regular]);
        let c = v["comparisons"].as_array().unwrap();
        let rec: Vec<&Value> = c.iter().filter(|c| c["name"] == "recovered").collect();
        assert_eq!(rec.len(), 2);
        assert_eq!(rec[0]["variant"], "A (Green)");
        assert_eq!(rec[0]["baseline"], "C (Veterans)");
        assert_eq!(rec[0]["exact_difference"].as_f64().unwrap(), green - vet);
        assert_eq!(rec[1]["exact_difference"].as_f64().unwrap(), regular - vet);
        let cmds = v["commands"].as_array().unwrap();
        assert_eq!(cmds.len(), 3);
        assert_eq!(cmds[1]["name"], "Regulars");
        assert!(cmds[0]["command"].as_str().unwrap().contains("class=green"));
        // Each profile's command draws from its run's stream (the base C first: run 0), so it
        // gives that profile's estimates to the bit.
        let stream_of = |i: usize| {
            let c = cmds[i]["command"].as_str().unwrap();
            c.split(" --stream ").nth(1).map(str::to_string)
        };
        assert_eq!(
            (stream_of(0), stream_of(1), stream_of(2)),
            (Some("1".into()), Some("2".into()), None)
        );
        let text = v["experiment"].as_str().unwrap();
        let exp = Experiment::parse("explorer.toml", text).unwrap();
        let names: Vec<&str> = exp.variants.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names, vec!["C (Veterans)", "A (Green)", "B (Regulars)"]);
        assert!(text.contains("How do A and B differ from C?"), "{text}");

        // By Monte Carlo: both profiles against the base, Holm across every row.
        let r = x.handle("POST", "/api/run", format!("{q}&mode=mc").as_bytes());
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = body(&r);
        let c = v["comparisons"].as_array().unwrap();
        for who in ["A (Green)", "B (Regulars)"] {
            let row = c
                .iter()
                .find(|c| c["name"] == "recovered" && c["variant"] == who)
                .unwrap();
            assert_eq!(row["baseline"], "C (Veterans)");
            assert!(row["exact_difference"].as_f64().is_some());
        }
        // Where the exact difference is known it decides; elsewhere Holm's p is no smaller.
        for c in c {
            match (c["p_value"].as_f64(), c["p_adjusted"].as_f64()) {
                (Some(p), Some(adj)) => assert!(adj >= p, "{c}"),
                _ => assert!(c["exact_difference"].is_f64(), "{c}"),
            }
        }

        // Solve for: the other profiles meet a profile's value, named by its letter.
        let r = x.handle(
            "POST",
            "/api/run",
            format!("{q}&mode=exact&solve=base_green&target=c&range=2..6").as_bytes(),
        );
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = body(&r);
        let labels: Vec<&str> = v["balance"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["label"].as_str().unwrap())
            .collect();
        assert_eq!(labels, vec!["A", "B"]);
        let r = x.handle(
            "POST",
            "/api/run",
            format!("{q}&mode=exact&solve=base_green&target=D").as_bytes(),
        );
        assert_eq!(r.status, 400);
        assert!(
            body(&r)["error"]
                .as_str()
                .unwrap()
                .contains("one of A, B, C"),
            "{}",
            body(&r)
        );
        // Another profile's bad value says whose it is.
        let r = x.handle(
            "POST",
            "/api/run",
            b"scenario=rally&a.set=class%3Delite&c.set=class%3Dgreen&mode=exact",
        );
        assert_eq!(r.status, 400);
        let e = body(&r);
        assert!(
            e["error"].as_str().unwrap().starts_with("profile A: "),
            "{e}"
        );
        assert_eq!(e["field"], "a.set.class");
    }
}
