//! The report of a sensitivity analysis: its words, its tables and chart, and text,
//! markdown and csv.

use super::{Effect, SCALED, Sensitivity, weight};
use crate::report::{Rendered, align_left, csv_text, md_table};

impl Sensitivity {
    fn is_share(&self) -> bool {
        self.headline_kind == "outcome"
    }

    /// The headline's plain words ([`crate::labels`]).
    fn headline_label(&self) -> crate::labels::Label {
        if self.is_share() {
            crate::labels::outcome(&self.headline)
        } else {
            crate::labels::metric(&self.headline)
        }
    }

    /// The situation as asked, in words ("stands 8, morale class regular").
    fn situation_words(&self) -> String {
        crate::labels::settings_in_words(&self.situation)
    }

    /// The scenario in words ("A unit rallying turn by turn"), or its name.
    fn scenario_words(&self) -> String {
        crate::scenario::Scenario::from_name(&self.scenario)
            .map_or_else(|| self.scenario.clone(), |s| s.words().to_string())
    }

    /// What the headline measures, in a sentence: "the chance of recovering".
    pub fn headline_noun(&self) -> String {
        self.headline_label().noun
    }

    /// A setting's name in a sentence: a rule parameter's label in quotes, or an optional
    /// rule's name in words.
    fn said(&self, key: &str) -> String {
        if self
            .effects
            .iter()
            .any(|e| e.key == key && e.kind == "option")
        {
            format!("the optional rule {}", crate::labels::option(key))
        } else {
            format!("\u{201c}{}\u{201d}", crate::params::label(key))
        }
    }

    /// A setting's name in a table or on a chart: its label, as a head.
    fn named(&self, key: &str) -> String {
        if self
            .effects
            .iter()
            .any(|e| e.key == key && e.kind == "option")
        {
            let l = crate::labels::option(key);
            let mut c = l.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
                + " (optional rule)"
        } else {
            crate::params::label(key)
        }
    }

    /// The headline's value as shown: a share as a percentage, a mean to four decimals.
    pub fn show(&self, v: f64) -> String {
        if self.is_share() {
            // A share that is not 0 or 1 never shows as 0.0% or 100.0%.
            let t = crate::odds::percent_1(v);
            if t == "0.0" && v > 0.0 {
                "<0.1%".into()
            } else if t == "100.0" && v < 1.0 {
                ">99.9%".into()
            } else {
                format!("{t}%")
            }
        } else {
            format!("{v:.4}")
        }
    }

    /// A change as shown: percentage points for a share, the metric's unit for a mean.
    pub fn show_change(&self, d: f64) -> String {
        let d = if d.abs() < 1e-12 { 0.0 } else { d };
        let sign = if d > 0.0 {
            "+"
        } else if d < 0.0 {
            "−"
        } else {
            ""
        };
        if self.is_share() {
            let t = crate::odds::percent_1(d.abs());
            if t == "0.0" && d != 0.0 {
                // Too small for a tenth of a point: two significant digits.
                format!("{sign}{:.1e} points", 100.0 * d.abs())
            } else {
                format!("{sign}{t} points")
            }
        } else {
            format!("{sign}{:.4}", d.abs())
        }
    }

    fn interval(&self, e: &Effect) -> String {
        let signed = |x: f64| {
            if self.is_share() {
                let t = crate::odds::percent_1(x.abs());
                if x < 0.0 && t != "0.0" {
                    format!("−{t}")
                } else {
                    t
                }
            } else if x < 0.0 {
                format!("−{:.4}", x.abs())
            } else {
                format!("{x:.4}")
            }
        };
        match (e.low, e.high) {
            (Some(l), Some(h)) => format!("{} to {}", signed(l), signed(h)),
            _ => "—".into(),
        }
    }

    fn exact(&self) -> bool {
        self.trials == 0
    }

    /// The header: what was analysed and how.
    fn header(&self) -> String {
        let how = if self.exact() {
            "exact values".to_string()
        } else {
            format!(
                "Monte Carlo, {} trials a setting · seed {}",
                crate::report::thousands(self.trials),
                self.seed
            )
        };
        format!(
            "morale-lab {} · sensitivity · {} · {} · {how}",
            crate::VERSION,
            self.scenario,
            self.system
        )
    }

    pub(crate) fn context_lines(&self) -> Vec<String> {
        let params = self
            .params
            .iter()
            .map(|(k, v)| format!("{k}={}", crate::report::json_text(v)))
            .collect::<Vec<_>>()
            .join(" ");
        let file = self.source.as_deref().or(self
            .system
            .ends_with(".rhai")
            .then_some(self.system.as_str()));
        let rules = match (self.rules_changed.is_empty(), file) {
            (true, None) => "as written (no rule parameter changed)".to_string(),
            (true, Some(f)) => format!("as the file {f} writes them (no rule parameter changed)"),
            (false, None) => {
                format!("changed from the source: {}", self.rules_changed.join(", "))
            }
            (false, Some(f)) => {
                format!(
                    "changed from the file {f}: {}",
                    self.rules_changed.join(", ")
                )
            }
        };
        let options = if self.options.is_empty() {
            "none".to_string()
        } else {
            self.options.join(", ")
        };
        let mut lines = vec![
            format!("params: {params}"),
            format!("rules: {rules}"),
            format!("options: {options}"),
            format!(
                "headline: {} ({}): {} as set{}",
                self.headline,
                self.meaning,
                self.show(self.base.value),
                if self.base.exact { " (exact)" } else { "" }
            ),
        ];
        if let Some(why) = &self.why_estimates {
            lines.push(format!("note: Monte Carlo estimates: {why}"));
        }
        // A rule number is the rules', not one unit's: where both sides test, the enemy's tests
        // move with it whenever the enemy is of the class (or kind) it prices.
        if matches!(
            self.scenario.as_str(),
            "melee" | "charge" | "engagement" | "line"
        ) {
            lines.push(
                "note: a rule number moves every unit it applies to, the enemy's included: stepping a class's number changes the enemy's tests too where the enemy is of that class".into(),
            );
        }
        if !self.exact() {
            lines.push(format!(
                "note: every setting runs from the same seed; a change's {}% interval treats the runs as independent, so it errs on the wide side",
                crate::report::fmt_level(self.confidence)
            ));
        }
        lines
    }

    /// The rows of the main table: each setting that was run and moved the headline.
    pub(crate) fn rows(&self, with_rank: bool) -> Vec<Vec<String>> {
        self.rows_named(with_rank, false)
    }

    /// The rows, each setting by its label, or (`keyed`, the terminal's narrow table) by the key
    /// the command line takes.
    fn rows_named(&self, with_rank: bool, keyed: bool) -> Vec<Vec<String>> {
        let mut head = vec![
            "setting".to_string(),
            "rule".into(),
            "as set".into(),
            "changed to".into(),
            self.headline_label().head,
            "change".into(),
            "per 10% of range".into(),
        ];
        if !self.exact() {
            head.push(format!(
                "{}% interval",
                crate::report::fmt_level(self.confidence)
            ));
            head.push("chance?".into());
        }
        if with_rank {
            head.insert(0, "rank".into());
        }
        let mut rows = vec![head];
        let moved_keys: Vec<&str> = self.moved().0.iter().map(|e| e.key.as_str()).collect();
        let shown = self
            .effects
            .iter()
            .filter(|e| e.refused.is_none() && moved_keys.contains(&e.key.as_str()));
        let mut rank = 0;
        let mut last = "";
        for e in shown {
            let first = e.key != last;
            if first {
                rank += 1;
                last = &e.key;
            }
            let v = e.value.expect("a setting that ran has a value");
            // An exact change of nothing is said in the one voice every report uses.
            let same = v.exact && e.change.is_some_and(|d| d.abs() < 1e-12);
            let mut row = vec![
                match (first, keyed) {
                    (false, _) => String::new(),
                    (true, true) => e.key.clone(),
                    (true, false) => self.named(&e.key),
                },
                if first { e.rule.clone() } else { String::new() },
                if first { e.from.clone() } else { String::new() },
                if e.switched_off() {
                    format!("{} (the rule off)", e.to)
                } else {
                    e.to.clone()
                },
                format!("{}{}", self.show(v.value), if v.exact { "" } else { "*" }),
                if same {
                    "exactly the same".into()
                } else {
                    self.show_change(e.change.unwrap_or(0.0))
                },
                match e.step {
                    Some(_) if same => "—".into(),
                    Some(st) if st > 0.0 => self.show_change(e.change.unwrap_or(0.0) * 0.1 / st),
                    _ => "—".into(),
                },
            ];
            if !self.exact() {
                row.push(self.interval(e));
                row.push(match e.chance {
                    Some(true) => "could be".into(),
                    Some(false) => "no".into(),
                    None => "—".into(),
                });
            }
            if with_rank {
                row.insert(
                    0,
                    if first {
                        rank.to_string()
                    } else {
                        String::new()
                    },
                );
            }
            rows.push(row);
        }
        rows
    }

    /// The parameters none of whose settings moved the headline.
    pub(crate) fn unmoved_line(&self) -> Option<String> {
        let (moved, still) = self.moved();
        let mut keys: Vec<&str> = Vec::new();
        for e in &still {
            if !keys.contains(&e.key.as_str()) && !moved.iter().any(|m| m.key == e.key) {
                keys.push(&e.key);
            }
        }
        if keys.is_empty() {
            return None;
        }
        Some(format!(
            "No change to {} from any step of {}: {}",
            self.headline_noun(),
            if keys.len() == 1 {
                "this setting".to_string()
            } else {
                format!("these {} settings", keys.len())
            },
            keys.iter()
                .map(|k| self.named(k))
                .collect::<Vec<_>>()
                .join("; ")
        ))
    }

    pub(crate) fn refused_lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .effects
            .iter()
            .filter_map(|e| {
                e.refused.as_ref().map(|why| {
                    format!(
                        "not tried: {} {} → {}: {why}",
                        self.named(&e.key),
                        e.from,
                        e.to
                    )
                })
            })
            .collect();
        out.extend(
            self.not_stepped
                .iter()
                .map(|n| format!("not stepped: {}: {}", self.named(&n.key), n.why)),
        );
        out
    }

    /// The one-sentence answer: which parameter moves the headline most, and by how much.
    pub fn verdict(&self) -> String {
        let params = self.by_parameter();
        let moved: Vec<&(&str, Vec<&Effect>)> = params
            .iter()
            .filter(|(_, es)| {
                es.iter()
                    .any(|e| e.change.is_some_and(|c| c.abs() >= 1e-12))
            })
            .collect();
        let Some((key, es)) = moved.first() else {
            return format!(
                "No rule parameter or optional rule, moved one step, changes {} here.",
                self.headline_noun()
            );
        };
        let biggest = es
            .iter()
            .filter(|e| e.change.is_some())
            .max_by(|a, b| a.change.unwrap().abs().total_cmp(&b.change.unwrap().abs()))
            .expect("a moved parameter has a change");
        let change = biggest.change.unwrap_or(0.0);
        // "at 0 instead of 1", "switched on", "at no instead of yes".
        let step = match (biggest.from.as_str(), biggest.to.as_str()) {
            ("off", "on") => "switched on".to_string(),
            ("on", "off") => "switched off".to_string(),
            ("false", "true") => "at yes instead of no".to_string(),
            ("true", "false") => "at no instead of yes".to_string(),
            (from, to) => format!(
                "at {} instead of {}",
                to.replace('_', " "),
                from.replace('_', " ")
            ),
        };
        let mut s = format!(
            "{} matters most: {step}, {} {} from {} to {} ({}).",
            crate::labels::capitalised(&self.said(key)),
            self.headline_noun(),
            if change > 0.0 { "rises" } else { "falls" },
            self.show(self.base.value),
            self.show(biggest.value.map_or(0.0, |v| v.value)),
            self.show_change(change)
        );
        if biggest.switched_off() {
            s += " (0 switches that rule off.)";
        }
        let is_option = |k: &str| {
            self.effects
                .iter()
                .any(|e| e.key == k && e.kind == "option")
        };
        if let Some((next, _)) = moved.get(1).filter(|(k, _)| !is_option(k)) {
            let w = weight(&self.effects, next);
            s += &format!(
                " Next: {} (up to {}).",
                self.said(next),
                self.show_change(w).trim_start_matches(['+', '−'])
            );
        }
        // The optional rules are ranked apart, after the rule numbers.
        if !is_option(key)
            && let Some((opt, _)) = moved.iter().find(|(k, _)| is_option(k))
        {
            let w = weight(&self.effects, opt);
            s += &format!(
                " Of the optional rules, {} changes it most (up to {}).",
                self.said(opt).trim_start_matches("the optional rule "),
                self.show_change(w).trim_start_matches(['+', '−'])
            );
        }
        let tried = self.effects.iter().filter(|e| e.refused.is_none()).count();
        if self.exact() {
            s += &format!(
                " {} of {tried} settings tried change it.",
                self.moved().0.len()
            );
        } else {
            let beyond = self
                .effects
                .iter()
                .filter(|e| e.chance == Some(false))
                .count();
            s += &format!(
                " {beyond} of {tried} settings tried change it by more than chance explains."
            );
        }
        s
    }

    /// The CSV table's rows, header first: the run asked for, then one row per setting tried
    /// (refused ones included, with why).
    pub fn csv_rows(&self) -> Vec<Vec<String>> {
        let num = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x}"));
        let head = [
            "system",
            "scenario",
            "headline",
            "parameter",
            "kind",
            "rule",
            "as_set",
            "changed_to",
            "value",
            "exact",
            "change",
            "ci_low",
            "ci_high",
            "chance_explains",
            "refused",
            "step_share",
        ];
        let mut rows = vec![head.iter().map(|h| h.to_string()).collect::<Vec<_>>()];
        let lead = || {
            vec![
                self.system.clone(),
                self.scenario.clone(),
                self.headline.clone(),
            ]
        };
        let mut base = lead();
        base.extend(["".into(), "as set".into(), "".into(), "".into(), "".into()]);
        base.extend([
            num(Some(self.base.value)),
            self.base.exact.to_string(),
            String::new(),
            num(self.base.low),
            num(self.base.high),
            String::new(),
            String::new(),
            String::new(),
        ]);
        rows.push(base);
        for e in &self.effects {
            let mut row = lead();
            row.extend([
                e.key.clone(),
                e.kind.clone(),
                e.rule.clone(),
                e.from.clone(),
                e.to.clone(),
                num(e.value.map(|v| v.value)),
                e.value.map_or(String::new(), |v| v.exact.to_string()),
                num(e.change),
                num(e.low),
                num(e.high),
                e.chance.map_or(String::new(), |c| c.to_string()),
                e.refused.clone().unwrap_or_default(),
                num(e.step),
            ]);
            rows.push(row);
        }
        rows
    }

    /// The tornado chart: a bar per parameter that moves the headline, from its smallest to its
    /// largest change, biggest first.
    pub fn chart(&self) -> crate::report::chart::Chart {
        use crate::report::chart::{Chart, Estimate};
        let mut rows = Vec::new();
        for (key, es) in self.by_parameter() {
            let ran: Vec<&&Effect> = es.iter().filter(|e| e.change.is_some()).collect();
            if !ran
                .iter()
                .any(|e| e.change.is_some_and(|c| c.abs() >= 1e-12))
            {
                continue;
            }
            let bars = ran
                .iter()
                .map(|e| {
                    let c = e.change.unwrap_or(0.0);
                    (
                        if e.switched_off() {
                            format!("{} (rule off)", e.to)
                        } else {
                            e.to.clone()
                        },
                        Estimate {
                            p: c,
                            low: e.low.unwrap_or(c),
                            high: e.high.unwrap_or(c),
                            exact: None,
                        },
                    )
                })
                .collect();
            rows.push((format!("{} = {}", self.named(key), es[0].from), bars));
        }
        Chart::Tornado {
            title: format!(
                "Which rule matters most for {} ({} under the rules as set): {}{}, {}",
                self.headline_label().head,
                self.show(self.base.value),
                crate::labels::lower_initial(&self.scenario_words()),
                if self.situation.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", self.situation_words())
                },
                crate::labels::system(&self.system)
            ),
            x_label: if self.is_share() {
                format!("change in {} (percentage points)", self.headline_noun())
            } else {
                format!("change in {}", self.headline_noun())
            },
            share: self.is_share(),
            rows,
        }
    }
}

impl Rendered for Sensitivity {
    /// Aligned plain text.
    fn to_text(&self) -> String {
        let mut out = self.header() + "\n";
        for l in self.context_lines() {
            out += &crate::odds::wrap(&l, 100);
        }
        out += "\n";
        out += &crate::odds::wrap(&self.verdict(), 100);
        out += "\n";
        out += &align_left(&self.rows_named(true, true), 5);
        out += &crate::odds::wrap(SCALED, 100);
        if !self.exact() {
            out += "* an estimate\n";
        }
        if let Some(l) = self.unmoved_line() {
            out += "\n";
            out += &crate::odds::wrap(&l, 100);
        }
        let refused = self.refused_lines();
        if !refused.is_empty() {
            out += "\n";
            for l in refused {
                out += &l;
                out += "\n";
            }
        }
        out
    }

    /// The table and notes as Markdown (for a report's summary).
    fn to_markdown(&self) -> String {
        let mut out = format!(
            "### Which rule matters most: {} in {}{} ({})\n\n",
            self.headline_label().head,
            crate::labels::lower_initial(&self.scenario_words()),
            if self.situation.is_empty() {
                String::new()
            } else {
                format!(", {}", self.situation_words())
            },
            crate::labels::system(&self.system)
        );
        for l in self.context_lines() {
            out += &format!("- {}\n", l.replace('|', "\\|"));
        }
        out += &format!("\n{}\n\n", self.verdict());
        let rows = self.rows(true);
        out += &md_table(&rows);
        out += &format!("\n{SCALED}\n");
        if !self.exact() {
            out += "\n\\* an estimate\n";
        }
        if let Some(l) = self.unmoved_line() {
            out += &format!("\n{l}\n");
        }
        for l in self.refused_lines() {
            out += &format!("\n- {l}");
        }
        out += "\n";
        out
    }

    /// The CSV table ([`Sensitivity::csv_rows`]).
    fn to_csv(&self) -> String {
        csv_text(self.csv_rows())
    }
}
