//! The answer of a search in words, its table and chart, and text, markdown and csv.

use super::HIT;
use super::{Balance, Point};
use crate::experiment::sensitivity::Value;
use crate::frac::Frac;
use crate::report::{Rendered, align_left, csv_text};

impl Balance {
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

    /// The number solved for, in a sentence ("Green base number").
    pub fn key_words(&self) -> String {
        crate::params::label_in_prose(&self.key)
    }

    /// The headline's value as shown: a share as a percentage to two decimals, a mean to four.
    pub fn show(&self, v: f64) -> String {
        if self.is_share() {
            format!("{:.2}%", 100.0 * v)
        } else {
            format!("{v:.4}")
        }
    }

    /// The headline's value as the report's tables give it: a share as a percentage to two
    /// decimals (never rounded to 0% or 100% when it is neither), a mean to two.
    pub fn show_plain(&self, v: f64) -> String {
        if !self.is_share() {
            return format!("{v:.2}");
        }
        match (v, format!("{:.2}", 100.0 * v).as_str()) {
            (0.0, _) => "0%".into(),
            (1.0, _) => "100%".into(),
            (_, "100.00") => ">99.99%".into(),
            (_, "0.00") => "<0.01%".into(),
            (_, t) => format!("{t}%"),
        }
    }

    /// A gap to the target as shown: percentage points for a share, the metric's unit else.
    pub fn show_gap(&self, d: f64) -> String {
        let sign = if d > 0.0 {
            "+"
        } else if d < 0.0 {
            "−"
        } else {
            "±"
        };
        if self.is_share() {
            format!("{sign}{:.2} points", 100.0 * d.abs())
        } else {
            format!("{sign}{:.4}", d.abs())
        }
    }

    /// A value as shown: a chance found by bisection (a fraction with a large denominator)
    /// as a decimal; every other value as typed.
    fn value_text(&self, p: &Point) -> String {
        match Frac::parse(&p.value) {
            Some(f) if self.domain == "chance" && f.den > 1000 => format!("{:.9}", f.value()),
            _ => p.value.clone(),
        }
    }

    /// Values listed with runs of consecutive whole numbers joined (`26 to 50`).
    fn runs_of(&self, vals: &[String]) -> String {
        if self.domain != "whole number" {
            return vals.join(", ");
        }
        let nums: Vec<i64> = vals.iter().filter_map(|v| v.parse().ok()).collect();
        let mut out: Vec<String> = Vec::new();
        let mut i = 0;
        while i < nums.len() {
            let mut j = i;
            while j + 1 < nums.len() && nums[j + 1] == nums[j] + 1 {
                j += 1;
            }
            out.push(match j - i {
                0 => nums[i].to_string(),
                1 => format!("{}, {}", nums[i], nums[j]),
                _ => format!("{} to {}", nums[i], nums[j]),
            });
            i = j + 1;
        }
        out.join(", ")
    }

    fn at(&self, p: &Point) -> String {
        match (&p.headline, &p.refused) {
            (Some(v), _) => self.show(v.value),
            (None, Some(_)) => "refused (below)".into(),
            _ => "—".into(),
        }
    }

    /// When every value tried gives the same exact headline (the number does not reach it:
    /// another profile's rule, or one this setting never tests), that in a sentence, else `None`.
    pub fn unmoved(&self) -> Option<String> {
        let ran: Vec<&Point> = self
            .points
            .iter()
            .filter(|p| p.headline.is_some())
            .collect();
        let (first, last) = (ran.first()?, ran.last()?);
        let first_value = first.headline?.value;
        let same = ran.iter().all(|p| {
            p.headline
                .is_some_and(|h| (h.value - first_value).abs() < HIT)
        });
        if !self.exact || ran.len() < 2 || !same {
            return None;
        }
        Some(format!(
            "{} does not change it: {} is {} at every value from {} to {}.",
            crate::labels::capitalised(&self.key_words()),
            self.headline_label().noun,
            self.at(first),
            first.value,
            last.value
        ))
    }

    /// The answer in one paragraph.
    pub fn answer(&self) -> String {
        let k = &self.key_words();
        let noun = self.headline_label().noun;
        let target = self.show(self.target);
        if self.crossings.is_empty() {
            let ran: Vec<&Point> = self.points.iter().filter(|p| p.gap.is_some()).collect();
            let (Some(first), Some(last)) = (ran.first(), ran.last()) else {
                return format!("No value of {k} could be solved: every one was refused.");
            };
            let mut s = if self.domain == "choice" || self.domain == "switch" {
                format!("No value of {k} brings {noun} to {target} exactly.")
            } else {
                format!(
                    "No value of {k} from {} to {} reaches {target}: {} runs from {} (at {}) to {} (at {}).",
                    self.range.0,
                    self.range.1,
                    noun,
                    self.at(first),
                    first.value,
                    self.at(last),
                    last.value
                )
            };
            if let Some(n) = &self.nearest {
                s += &format!(
                    " Nearest: {k} {}, {} ({} from the target).",
                    n.value,
                    self.at(n),
                    self.show_gap(n.gap.unwrap_or(0.0))
                );
            }
            return s;
        }
        let mut parts = Vec::new();
        for c in &self.crossings {
            parts.push(match (c.hit, c.root, self.domain.as_str()) {
                (true, _, _) => format!("{k} {}, exactly", c.below.value),
                (false, Some(root), _) if !self.exact => format!(
                    "{k} ≈ {root:.4} (estimated: where the line between {} and {} meets the target)",
                    c.below.value, c.above.value
                ),
                (false, Some(root), _) => format!(
                    "{k} {root:.9} (to within {:.0e})",
                    self.tolerance.max(1e-12)
                ),
                _ => format!(
                    "between {k} {} ({}) and {} ({})",
                    c.below.value,
                    self.at(&c.below),
                    c.above.value,
                    self.at(&c.above)
                ),
            });
        }
        // Reached exactly everywhere: the target as the tables give a value (one decimal of a
        // percentage, two of a mean), one number for one quantity.
        let target = match self.crossings.iter().all(|c| c.hit) {
            true => self.show_plain(self.target),
            false => target,
        };
        let mut s = format!(
            "{} reaches {target} {}.",
            crate::labels::capitalised(&noun),
            if parts.len() == 1 {
                if parts[0].starts_with("between") {
                    parts[0].clone()
                } else {
                    format!("at {}", parts[0])
                }
            } else {
                format!(
                    "at {} places (the headline {} with {k}): {}",
                    parts.len(),
                    self.shape,
                    parts.join("; ")
                )
            }
        );
        if self.domain == "whole number"
            && self.crossings.iter().any(|c| !c.hit)
            && let Some(n) = &self.nearest
        {
            s += &format!(
                " No whole number hits it exactly; the nearest is {k} {} ({}, {} from the target).",
                n.value,
                self.at(n),
                self.show_gap(n.gap.unwrap_or(0.0))
            );
        }
        if !self.exact {
            let level = format!("{}%", 100.0 * self.confidence);
            s += &match (&self.root_set, self.not_rejected.as_slice()) {
                (Some((a, b)), _) => format!(
                    " Estimated: the values whose {level} interval holds the target run from {k} {a:.4} to {b:.4}."
                ),
                (None, []) => format!(
                    " Estimated: no value tried has a {level} interval that holds the target."
                ),
                (None, vals) => format!(
                    " Estimated: the values not told from the target at {level}: {k} {}.",
                    self.runs_of(vals)
                ),
            };
        }
        for f in &self.simple {
            s += &format!(
                " The nearest simple fraction, {k} {}, gives {} ({} from the target).",
                f.value,
                self.at(f),
                self.show_gap(f.gap.unwrap_or(0.0))
            );
        }
        s
    }

    /// The lines that say what was solved, under what.
    pub fn context_lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "Solve for {} ({}{}: {}), a {} from {} to {} ({} as set), so that {} reaches {}: {}.",
            self.key_words(),
            if self.key_kind == "rule" {
                "rule parameter"
            } else if self.key_kind == "spec field" {
                "unit spec field"
            } else {
                "parameter"
            },
            if self.rule.is_empty() {
                String::new()
            } else {
                format!(", {}", self.rule)
            },
            self.key_meaning,
            self.domain,
            self.range.0,
            self.range.1,
            self.as_set,
            self.headline_label().noun,
            self.show(self.target),
            self.target_from
        )];
        out.push(format!(
            "Situation: {}; rules: {}; optional rules: {}.",
            if self.situation.is_empty() {
                "the scenario's defaults".to_string()
            } else {
                crate::labels::settings_in_words(&self.situation)
            },
            if self.rules_changed.is_empty() {
                "as written".to_string()
            } else {
                self.rules_changed.join(", ")
            },
            if self.options.is_empty() {
                "none".to_string()
            } else {
                self.options
                    .iter()
                    .map(|o| crate::labels::option(o))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ));
        if self.optimal_play {
            out.push(format!(
                "Play: side A makes its best choices at every value tried (solved exactly there, for the chance it holds the field minus the enemy's), not a fixed policy{}.",
                match self.target_from.starts_with("the number") {
                    true => "",
                    false => "; so does the target's setting",
                }
            ));
        }
        if let Some(s) = &self.source {
            out.push(format!("Mechanic file: {s}."));
        }
        out.push(format!(
            "As set ({} {}): {} {}.",
            self.key_words(),
            self.as_set,
            self.headline_label().head,
            self.show(self.at_as_set.value)
        ));
        out.push(if self.exact {
            "Every value is exact (the scenario solved at each value tried).".into()
        } else {
            format!(
                "Values are Monte Carlo estimates ({}), all from seed {} (common random numbers, so neighbouring values differ by less noise than independent runs would), intervals at {}%. The search is sequential: every value ran {} trials first, and the values still undecided (their interval holds the target, or the headline changes side between them) four times as many, up to {}: {} trials in all, against {} for every value at the full count.",
                self.why_estimates.as_deref().unwrap_or("no exact solution"),
                self.seed,
                100.0 * self.confidence,
                crate::report::thousands(self.first_trials),
                crate::report::thousands(self.trials),
                crate::report::thousands(self.trials_spent),
                crate::report::thousands(self.trials * self.points.iter().filter(|p| p.trials > 0).count() as u64)
            )
        });
        if let Some(c) = &self.command {
            out.push(format!("The same from the command line: {c}"));
        }
        out
    }

    fn header(&self) -> String {
        format!(
            "Balance: {} in {} ({}), {} for {}",
            self.key, self.scenario, self.system, self.headline, self.target_from
        )
    }

    /// The values tried as table rows, header first: value, headline, gap to the target, and
    /// what it is (a crossing's end, the nearest, the value as set).
    pub fn rows(&self) -> Vec<Vec<String>> {
        let mut rows = vec![vec![
            crate::params::label(&self.key),
            self.headline_label().head,
            "vs target".to_string(),
            String::new(),
        ]];
        if !self.exact {
            rows[0].insert(3, "trials".into());
        }
        // A value once, as shown: a bisected crossing's two ends closer than the digits shown
        // are one row (the end nearer the target), not two with the same value.
        let mut all: Vec<&Point> = self.points.iter().collect();
        let gap = |p: &Point| p.gap.unwrap_or(f64::INFINITY).abs();
        for c in &self.crossings {
            let ends = if gap(&c.above) < gap(&c.below) {
                [&c.above, &c.below]
            } else {
                [&c.below, &c.above]
            };
            for p in ends {
                if !all
                    .iter()
                    .any(|q| q.value == p.value || self.value_text(q) == self.value_text(p))
                {
                    all.push(p);
                }
            }
        }
        for p in &self.simple {
            if !all
                .iter()
                .any(|q| q.value == p.value || self.value_text(q) == self.value_text(p))
            {
                all.push(p);
            }
        }
        if self.domain != "choice" && self.domain != "switch" {
            all.sort_by(|a, b| a.x.total_cmp(&b.x));
        }
        for p in all {
            let mut marks = Vec::new();
            if self
                .crossings
                .iter()
                .any(|c| c.hit && c.below.value == p.value)
            {
                marks.push("hits the target");
            } else if self
                .crossings
                .iter()
                .any(|c| c.below.value == p.value || c.above.value == p.value)
            {
                marks.push("brackets a crossing");
            }
            if self.nearest.as_ref().is_some_and(|n| n.value == p.value) {
                marks.push("nearest");
            }
            if self.simple.iter().any(|s| s.value == p.value) {
                marks.push("simple fraction");
            }
            if p.value == self.as_set {
                marks.push("as set");
            }
            let mut row = vec![
                self.value_text(p),
                self.at(p),
                p.gap.map(|g| self.show_gap(g)).unwrap_or_default(),
                marks.join(", "),
            ];
            if !self.exact {
                row.insert(
                    3,
                    if p.trials > 0 {
                        crate::report::thousands(p.trials)
                    } else {
                        String::new()
                    },
                );
            }
            rows.push(row);
        }
        rows
    }

    /// One line per value the system refused, with why.
    pub fn refused_lines(&self) -> Vec<String> {
        self.points
            .iter()
            .filter_map(|p| {
                p.refused
                    .as_ref()
                    .map(|why| format!("Refused {} = {}: {why}", self.key, p.value))
            })
            .collect()
    }

    /// The CSV rows, header first: every value tried (the grid, the crossings' last brackets,
    /// the simple fractions), with the target and what each is.
    pub fn csv_rows(&self) -> Vec<Vec<String>> {
        let mut rows = vec![
            [
                "system",
                "scenario",
                "headline",
                "parameter",
                "value",
                "x",
                "headline_value",
                "exact",
                "target",
                "gap",
                "refused",
                "role",
                "trials",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
        ];
        let mut push = |p: &Point, role: &str| {
            rows.push(vec![
                self.system.clone(),
                self.scenario.clone(),
                self.headline.clone(),
                self.key.clone(),
                p.value.clone(),
                format!("{}", p.x),
                p.headline
                    .map(|h| format!("{}", h.value))
                    .unwrap_or_default(),
                p.headline.map(|h| h.exact.to_string()).unwrap_or_default(),
                format!("{}", self.target),
                p.gap.map(|g| format!("{g}")).unwrap_or_default(),
                p.refused.clone().unwrap_or_default(),
                role.to_string(),
                p.trials.to_string(),
            ]);
        };
        for p in &self.points {
            push(p, "tried");
        }
        for c in &self.crossings {
            if c.hit {
                push(&c.below, "hit");
            } else {
                push(&c.below, "crossing below");
                push(&c.above, "crossing above");
            }
        }
        for p in &self.simple {
            push(p, "simple fraction");
        }
        rows
    }

    /// The chart: the headline at each value of the grid tried (exact values drawn as a
    /// line), and the target as a flat line; where they cross is the answer.
    pub fn chart(&self) -> crate::report::chart::Chart {
        use crate::report::chart::{Chart, Estimate};
        let ran: Vec<&Point> = self.points.iter().collect();
        let est = |v: f64| Estimate {
            p: v,
            low: v,
            high: v,
            exact: Some(v),
        };
        let estimate = |v: &Value| {
            if v.exact {
                est(v.value)
            } else {
                Estimate {
                    p: v.value,
                    low: v.low.unwrap_or(v.value),
                    high: v.high.unwrap_or(v.value),
                    exact: None,
                }
            }
        };
        let target = match self.target_from.strip_prefix("the same under ") {
            Some(other) => format!("{other}'s {}", self.show_plain(self.target)),
            None => format!("{} ({})", self.show_plain(self.target), self.target_from),
        };
        let answer = match self.crossings.first() {
            None => format!("no value reaches {target}"),
            Some(c) => match (c.hit, c.root) {
                (true, _) if self.crossings.len() == 1 => {
                    format!("{target} is reached at {}, exactly", c.below.value)
                }
                (false, Some(r)) if self.crossings.len() == 1 => format!(
                    "{target} is reached at {}{r:.2}",
                    if self.exact { "" } else { "about " }
                ),
                _ if self.crossings.len() == 1 => format!(
                    "{target} lies between {} and {}",
                    c.below.value, c.above.value
                ),
                _ => format!("{target} is reached {} times", self.crossings.len()),
            },
        };
        Chart::Lines(crate::report::chart::Lines {
            title: format!(
                "{} at each {}: {answer}",
                crate::labels::capitalised(&self.headline_label().head),
                self.key_words(),
            ),
            x_label: format!("{} ({})", crate::params::label(&self.key), self.domain),
            x_values: ran.iter().map(|p| p.value.clone()).collect(),
            y_label: if self.is_share() {
                format!(
                    "chance {} (%)",
                    self.headline_label().noun.trim_start_matches("the chance ")
                )
            } else {
                self.headline_label().head
            },
            level: if self.exact {
                "exact".into()
            } else {
                format!("{}%", 100.0 * self.confidence)
            },
            steps: false,
            share: self.is_share(),
            series: vec![
                (
                    self.headline_label().head,
                    ran.iter()
                        .map(|p| p.headline.as_ref().map(estimate))
                        .collect(),
                ),
                (
                    "target".into(),
                    ran.iter().map(|_| Some(est(self.target))).collect(),
                ),
            ],
        })
    }
}

impl Rendered for Balance {
    /// Aligned plain text.
    fn to_text(&self) -> String {
        let mut out = self.header() + "\n";
        for l in self.context_lines() {
            out += &crate::odds::wrap(&l, 100);
        }
        out += "\n";
        out += &crate::odds::wrap(&format!("Answer: {}", self.answer()), 100);
        out += "\n";
        out += &align_left(&self.rows(), 1);
        let refused = self.refused_lines();
        if !refused.is_empty() {
            out += "\n";
            for l in refused {
                out += &crate::odds::wrap(&l, 100);
            }
        }
        out
    }

    /// Markdown: the answer, the context and the table.
    fn to_markdown(&self) -> String {
        let mut out = format!("### {}\n\n", self.header());
        out += &format!("**Answer.** {}\n\n", self.answer());
        for l in self.context_lines() {
            out += &format!("- {}\n", l.replace('|', "\\|"));
        }
        out += "\n";
        let rows = self.rows();
        for (i, r) in rows.iter().enumerate() {
            let cells: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
            out += &format!("| {} |\n", cells.join(" | "));
            if i == 0 {
                let marks: Vec<&str> = (0..r.len())
                    .map(|k| if k + 1 == r.len() { "---" } else { "---:" })
                    .collect();
                out += &format!("| {} |\n", marks.join(" | "));
            }
        }
        for l in self.refused_lines() {
            out += &format!("\n- {}", l.replace('|', "\\|"));
        }
        out
    }

    /// The CSV table ([`Balance::csv_rows`]).
    fn to_csv(&self) -> String {
        csv_text(self.csv_rows())
    }
}
