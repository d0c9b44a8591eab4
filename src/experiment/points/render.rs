//! The report of a points run: the answer in a sentence, its context, the tables, and text,
//! markdown and csv.

use super::{Buys, Matrix, Points, Term, a_one, count, money, pct, plural};
use crate::report::Rendered;
use crate::scenario::Scenario;

impl Points {
    /// The one-line heading.
    pub fn header(&self) -> String {
        format!("Points: {}", self.file.title)
    }

    fn system_name(&self) -> String {
        crate::labels::capitalised(&crate::labels::system(&self.file.system))
    }

    /// How a term is priced, in words.
    fn priced(&self, t: &Term) -> String {
        if t.per_stand {
            a_one(self.file.size.one())
        } else {
            "a unit".into()
        }
    }

    /// The answer in a sentence: what each term is worth against the reference.
    pub fn answer(&self) -> String {
        let f = &self.file;
        let r = &f.terms[f.reference];
        let pc = (self.confidence * 100.0).round();
        if f.size == Buys::Units {
            // Every term is a unit's: a unit costs the sum of its spec words'.
            let parts: Vec<String> = f
                .terms
                .iter()
                .enumerate()
                .filter(|&(t, _)| t != f.reference)
                .map(|(t, term)| {
                    format!(
                        "{} {} ({}–{})",
                        term.word,
                        money(self.fit.costs[t]),
                        money(self.fit.low[t]),
                        money(self.fit.high[t])
                    )
                })
                .collect();
            return format!(
                "at {} points a side, if {} costs {} a unit: {} ({pc}% intervals from the fit; a unit costs the sum of its spec words' costs)",
                money(f.budget),
                r.word,
                money(r.cost),
                parts.join(", ")
            );
        }
        let one = f.size.one().replace('_', " ");
        let parts: Vec<String> = f
            .terms
            .iter()
            .enumerate()
            .filter(|&(t, _)| t != f.reference)
            .map(|(t, term)| {
                let what = if term.per_stand {
                    format!("a {} {one}", term.word)
                } else if (0..f.units.len()).all(|i| {
                    let c = count(&f.units[i].spec, &term.word);
                    c == 0.0 || c == 1.0
                }) {
                    format!("{} (a unit)", term.word)
                } else {
                    format!("{} (a unit, for each 1 of {}=N)", term.word, term.word)
                };
                format!(
                    "{what} {} ({}–{})",
                    money(self.fit.costs[t]),
                    money(self.fit.low[t]),
                    money(self.fit.high[t])
                )
            })
            .collect();
        format!(
            "at {} points a side, if a {} {one} costs {}, {} ({pc}% intervals from the fit)",
            money(f.budget),
            r.word,
            money(r.cost),
            parts.join(", ")
        )
    }

    /// What was run, in lines.
    pub fn context_lines(&self) -> Vec<String> {
        let f = &self.file;
        let many = f.size.many();
        let buys = match f.size {
            Buys::Units => {
                let supports = crate::system::BATTLE_PARAMS
                    .iter()
                    .find(|d| d.key == "supports")
                    .map_or("", |d| d.rule);
                format!(
                    "each side fields as many units of its type as its points pay for: the smaller army sets the frontage, and the larger stands its extra units behind its first files, one behind each at most ({supports})"
                )
            }
            Buys::Size(_) if f.scenario == Scenario::Line => format!(
                "each side is {} units of its type, which field the most {many} the points pay for, spread as evenly as the count allows",
                f.units_a_side
            ),
            Buys::Size(_) => format!("each type fields the most {many} it can pay for"),
        };
        // "Rank & File engagement"; a mechanic file's name is its own: "…, melee".
        let mechanic = crate::mechanic::is_file(&f.system);
        let mut out = vec![format!(
            "{}{} {}, {} points a side; {buys}. A type's score against another: its chance of winning plus half the chance that neither wins, played both ways round.",
            self.system_name(),
            if mechanic { "," } else { "" },
            if f.scenario == Scenario::Line {
                "in a line"
            } else {
                f.scenario.name()
            },
            money(f.budget)
        )];
        if !f.fight.is_empty() {
            out.push(format!(
                "The fight the prices rest on: {}",
                match f.optimal_play {
                    true => best_play_fight(&f.fight),
                    false => f.fight.clone(),
                }
            ));
        }
        if f.optimal_play {
            out.push(
                "Play: side A makes its best choices in every matchup (hold or charge, each turn; solved exactly there, for the chance it holds the field minus the enemy's), not its parameters' policy; side B plays as set."
                    .to_string(),
            );
        }
        let set: Vec<String> = f
            .setting
            .iter()
            .filter(|s| !s.starts_with("rule:"))
            .cloned()
            .collect();
        let rules: Vec<String> = f
            .setting
            .iter()
            .filter_map(|s| s.strip_prefix("rule:"))
            .map(str::to_string)
            .collect();
        let mut setting = Vec::new();
        if !set.is_empty() {
            setting.push(crate::labels::settings_in_words(&set));
        }
        if !rules.is_empty() {
            setting.push(format!(
                "rules changed: {}",
                crate::labels::settings_in_words(&rules)
            ));
        }
        if !f.options.is_empty() {
            setting.push(format!(
                "optional rules: {}",
                f.options
                    .iter()
                    .map(|o| crate::labels::option(o))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if !setting.is_empty() {
            out.push(format!("Setting: {}.", setting.join("; ")));
        }
        out.push(format!(
            "Unit types: {}.",
            f.units
                .iter()
                .map(|u| format!("{} ({})", u.name, u.spec))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        out.push(if self.monte_carlo == self.plan.len() {
            format!(
                "Matchups: {}, every one by Monte Carlo{} ({} trials each, seed {}; side A at equal points and {} either side{}).",
                self.plan.len(),
                if f.monte_carlo {
                    " as asked"
                } else {
                    ", as none solves exactly here"
                },
                crate::report::thousands(f.trials),
                f.seed,
                self.spread_count(),
                self.left_out_words()
            )
        } else if self.monte_carlo == 0 {
            format!(
                "Matchups: {}, every one exact (side A at equal points and {} either side{}).",
                self.plan.len(),
                self.spread_count(),
                self.left_out_words()
            )
        } else {
            format!(
                "Matchups: {}, {} by Monte Carlo ({} trials each, seed {}), the rest exact{}.",
                self.plan.len(),
                self.monte_carlo,
                crate::report::thousands(f.trials),
                f.seed,
                if self.left_out > 0 || f.scenario == Scenario::Line {
                    format!(
                        " (side A at equal points and {} either side{})",
                        self.spread_count(),
                        self.left_out_words()
                    )
                } else {
                    String::new()
                }
            )
        });
        out.push(format!(
            "The fit: logit(side A's score) = h + k × ln(worth A / worth B), a unit's worth being the cost formula with fitted numbers ({} held at {}); weighted least squares on the logits over {} matchups: k = {} ± {}, side A's edge h = {} ± {}; the matchups stray from the model by σ = {} on the logit scale, and the intervals are scaled by it.",
            f.terms[f.reference].word,
            money(f.terms[f.reference].cost),
            self.fit.matchups,
            money(self.fit.k),
            money(self.fit.k_se),
            money(self.fit.h),
            money(self.fit.h_se),
            format_args!("{:.3}", self.fit.sigma)
        ));
        out
    }

    /// How far side A is played either side of equal points, in words ("1 stand", "1 stand a
    /// unit").
    fn spread_count(&self) -> String {
        let f = &self.file;
        let n = f.size.count(f.spread);
        if f.scenario == Scenario::Line && f.size != Buys::Units {
            format!("{n} a unit")
        } else {
            n
        }
    }

    /// The matchups of the spread left out, in words (nothing when none were).
    fn left_out_words(&self) -> String {
        match self.left_out {
            0 => String::new(),
            n => format!(
                "; {} of the spread left out, where {}",
                plural(n as i64, "matchup"),
                if self.file.size == Buys::Units {
                    "a line could not hold the larger army (more than twice the smaller's units)"
                } else {
                    "a side would pass the size its units allow"
                }
            ),
        }
    }

    /// The costs table, header first.
    pub fn cost_rows(&self) -> Vec<Vec<String>> {
        let pc = (self.confidence * 100.0).round();
        let mut rows = vec![vec![
            "term".to_string(),
            "priced".into(),
            "in the file".into(),
            "fitted".into(),
            format!("{pc}% interval"),
            "rounded".into(),
        ]];
        for (t, term) in self.file.terms.iter().enumerate() {
            rows.push(vec![
                term.word.clone(),
                self.priced(term),
                money(term.cost),
                money(self.fit.costs[t]),
                if t == self.file.reference {
                    "held".into()
                } else {
                    format!("{}–{}", money(self.fit.low[t]), money(self.fit.high[t]))
                },
                money(self.fit.rounded[t]),
            ]);
        }
        rows
    }

    /// A matrix as a table, header first: each type's steps (stands, pips or units), points,
    /// scores and mean.
    pub fn matrix_rows(&self, m: &Matrix) -> Vec<Vec<String>> {
        let f = &self.file;
        let size = if f.scenario == Scenario::Line && f.size != Buys::Units {
            format!("{} in {} units", f.size.many(), f.units_a_side)
        } else {
            f.size.many()
        };
        let mut head = vec!["".to_string(), size, "points".into()];
        head.extend(f.units.iter().map(|u| format!("v {}", u.name)));
        head.push("mean".into());
        let mut rows = vec![head];
        for (i, u) in f.units.iter().enumerate() {
            let mut r = vec![
                u.name.clone(),
                m.sides[i].stands.to_string(),
                money(m.sides[i].points),
            ];
            r.extend((0..f.units.len()).map(|j| {
                if i == j {
                    "—".to_string()
                } else {
                    pct(m.cells[i][j].value)
                }
            }));
            r.push(pct(m.sides[i].mean));
            rows.push(r);
        }
        rows
    }

    /// A matrix's summary line.
    pub fn matrix_line(&self, m: &Matrix, what: &str) -> String {
        let (i, j) = m.worst;
        let mut s = format!(
            "{what}: the pairs stand {} from 50% on average; furthest, {} against {}: {}.",
            pct(m.mean_gap),
            self.file.units[i].name,
            self.file.units[j].name,
            pct(m.cells[i][j].value)
        );
        let widest = m
            .cells
            .iter()
            .flatten()
            .map(|c| (c.high - c.low) / 2.0)
            .fold(0.0f64, f64::max);
        if widest > 0.0 {
            s += &format!(
                " Monte Carlo cells are within ±{} of their value at {}%.",
                pct(widest),
                (self.confidence * 100.0).round()
            );
        }
        s
    }

    /// The check's heading line, or why it did not run.
    fn check_line(&self) -> String {
        match (&self.at_fitted, &self.check_refused) {
            (Some(m), _) => self.matrix_line(
                m,
                &format!(
                    "At the fitted costs, rounded to the nearest {}",
                    money(self.file.round)
                ),
            ),
            (None, Some(why)) => format!("The fitted costs were not played: {why}."),
            (None, None) => String::new(),
        }
    }

    /// CSV rows, header first: each cost, then each matrix cell (the file's costs, then the
    /// fitted ones).
    pub fn csv_rows(&self) -> Vec<Vec<String>> {
        let f = &self.file;
        let mut rows = vec![
            ["table", "row", "column", "value", "low", "high", "exact"]
                .map(String::from)
                .to_vec(),
        ];
        for (t, term) in f.terms.iter().enumerate() {
            rows.push(vec![
                "cost".into(),
                term.word.clone(),
                if term.per_stand {
                    f.size.table()
                } else {
                    "per_unit".into()
                },
                format!("{}", self.fit.costs[t]),
                format!("{}", self.fit.low[t]),
                format!("{}", self.fit.high[t]),
                (t == f.reference).to_string(),
            ]);
        }
        for (name, m) in [
            ("file_costs", Some(&self.at_file)),
            ("fitted_costs", self.at_fitted.as_ref()),
        ] {
            let Some(m) = m else { continue };
            for i in 0..f.units.len() {
                for j in 0..f.units.len() {
                    let c = &m.cells[i][j];
                    rows.push(vec![
                        name.into(),
                        f.units[i].name.clone(),
                        f.units[j].name.clone(),
                        format!("{}", c.value),
                        format!("{}", c.low),
                        format!("{}", c.high),
                        c.exact().to_string(),
                    ]);
                }
            }
        }
        rows
    }
}

impl Rendered for Points {
    /// Aligned plain text.
    fn to_text(&self) -> String {
        use crate::report::align_left;
        let wrap = |l: &str| crate::odds::wrap(l, 100);
        let mut out = self.header() + "\n";
        for l in self.context_lines() {
            out += &wrap(&l);
        }
        out += "\n";
        out += &wrap(&format!("Answer: {}.", self.answer()));
        out += "\n";
        out += &align_left(&self.cost_rows(), 2);
        out += "\n";
        out += &wrap(&self.matrix_line(&self.at_file, "At the file's costs"));
        out += &align_left(&self.matrix_rows(&self.at_file), 1);
        out += "\n";
        out += &wrap(&self.check_line());
        if let Some(m) = &self.at_fitted {
            out += &align_left(&self.matrix_rows(m), 1);
        }
        if !self.command.is_empty() {
            out += "\n";
            out += &wrap(&format!("The same from the command line: {}", self.command));
        }
        out
    }

    /// Markdown.
    fn to_markdown(&self) -> String {
        let esc = |s: &str| s.replace('|', "\\|");
        let table = |rows: Vec<Vec<String>>, text: usize| {
            let mut out = String::new();
            for (i, r) in rows.iter().enumerate() {
                let cells: Vec<String> = r.iter().map(|c| esc(c)).collect();
                out += &format!("| {} |\n", cells.join(" | "));
                if i == 0 {
                    let marks: Vec<&str> = (0..r.len())
                        .map(|k| if k < text { "---" } else { "---:" })
                        .collect();
                    out += &format!("| {} |\n", marks.join(" | "));
                }
            }
            out
        };
        let mut out = format!(
            "### {}\n\n**Answer.** {}.\n\n",
            self.header(),
            esc(&self.answer())
        );
        for l in self.context_lines() {
            out += &format!("- {}\n", esc(&l));
        }
        out += "\n";
        out += &table(self.cost_rows(), 2);
        out += &format!(
            "\n{}\n\n",
            esc(&self.matrix_line(&self.at_file, "At the file's costs"))
        );
        out += &table(self.matrix_rows(&self.at_file), 1);
        out += &format!("\n{}\n", esc(&self.check_line()));
        if let Some(m) = &self.at_fitted {
            out += "\n";
            out += &table(self.matrix_rows(m), 1);
        }
        if !self.command.is_empty() {
            out += &format!("\nThe same from the command line: `{}`\n", self.command);
        }
        out
    }

    /// The CSV table ([`Points::csv_rows`]).
    fn to_csv(&self) -> String {
        crate::report::csv_text(self.csv_rows())
    }
}

/// The fight in words with side A's policy ("side A charges only a shaken target") said as the
/// best play that replaces it: the parameters' policy is not what was played.
fn best_play_fight(fight: &str) -> String {
    const B: &str = "side B never chooses to charge";
    const BEST: &str = "; side A makes its best choices, and side B never chooses to charge";
    if let Some(i) = fight.find("; neither side chooses to charge") {
        return format!(
            "{}{BEST}{}",
            &fight[..i],
            &fight[i + "; neither side chooses to charge".len()..]
        );
    }
    match (fight.find("; side A "), fight.find(B)) {
        (Some(i), Some(j)) if j > i => format!("{}{BEST}{}", &fight[..i], &fight[j + B.len()..]),
        _ => fight.to_string(),
    }
}
