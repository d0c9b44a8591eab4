//! The experiment's answer in plain words, generated from the numbers.

use super::*;

/// A sweep point in a reader's words: each swept parameter's label and value ("Green unit's
/// base number 4"); [`point_label`] keeps the keys, for file names and the data.
pub(super) fn point_words(exp: &crate::experiment::Experiment, point: &[SetValue]) -> String {
    exp.sweep
        .iter()
        .zip(point)
        .map(|(a, v)| crate::labels::setting_in_words(&a.key, &v.as_input()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A sweep point as a sentence says it after "with": a number's setting as "the Green base
/// number at 3", any other as [`point_words`] says it ("routing at the start").
pub(super) fn point_said(exp: &crate::experiment::Experiment, point: &[SetValue]) -> String {
    let mut systems: Vec<&str> = Vec::new();
    for v in &exp.variants {
        if !systems.contains(&v.system.as_str()) {
            systems.push(&v.system);
        }
    }
    let parts = exp
        .sweep
        .iter()
        .zip(point)
        .map(|(a, v)| {
            let v = v.as_input();
            let label = crate::params::label(&a.key);
            let words = crate::labels::setting_in_words_under(&systems, &a.key, &v);
            match v.parse::<f64>() {
                Ok(_) if words == format!("{label} {v}") => {
                    format!("{} at {v}", crate::labels::setting_in_prose(&label))
                }
                _ => words,
            }
        })
        .collect::<Vec<_>>();
    crate::labels::listed(&parts.iter().map(String::as_str).collect::<Vec<_>>())
}

/// A variant `name` at setting `point` (as [`point_said`] says it), its name not said twice:
/// "Green with its base number at 3", not "Green with the Green base number at 3".
pub(super) fn named_with(name: &str, point: &str) -> String {
    match point
        .strip_prefix("the ")
        .and_then(|p| p.strip_prefix(name))
        .and_then(|p| p.strip_prefix(' '))
    {
        Some(rest) => format!("{name} with its {rest}"),
        None => format!("{name} with {point}"),
    }
}

/// A sweep point as `key=value` pairs (file names, the data's columns).
pub(super) fn point_label(exp: &crate::experiment::Experiment, point: &[SetValue]) -> String {
    exp.sweep
        .iter()
        .zip(point)
        .map(|(a, v)| format!("{}={}", a.key, v.as_input()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The outcome an experiment's answer speaks of first: the file's first `headline`, else
/// `recovered` where the scenario has it, else the unit gone (removed or eliminated), else the
/// first outcome.
pub(super) fn headline(exp: &crate::experiment::Experiment, report: &Report) -> String {
    if let Some(h) = exp.headlines.first() {
        return h.clone();
    }
    if let Some(o) = report.outcomes.iter().find(|o| o.outcome == "recovered") {
        return o.outcome.clone();
    }
    report
        .outcomes
        .iter()
        .find(|o| o.outcome == "removed" || o.outcome == "eliminated")
        .or(report.outcomes.first())
        .map(|o| o.outcome.clone())
        .unwrap_or_default()
}

/// The headline's value in `report`: an outcome's chance (`removed` and `eliminated` are the
/// same end), else a metric's mean with its normal interval at the report's confidence.
pub(super) fn find(report: &Report, outcome: &str) -> Option<Cell> {
    let gone = |s: &str| s == "removed" || s == "eliminated";
    if let Some(o) = report
        .outcomes
        .iter()
        .find(|o| o.outcome == outcome || (gone(outcome) && gone(&o.outcome)))
    {
        return Some(o.cell.clone());
    }
    let m = report.metrics.iter().find(|m| m.name == outcome)?;
    let p = m.value.or(m.exact)?;
    let z = crate::stats::z_for_confidence(report.confidence);
    Some(Cell {
        count: m.n,
        p,
        ci_low: m.stderr.map(|s| p - z * s),
        ci_high: m.stderr.map(|s| p + z * s),
        exact: m.exact,
    })
}

/// The exact values a report checks against the simulation: every outcome and measure of every
/// run with both an exact value and an estimate with its spread.
pub(super) fn checks_made(result: &ExperimentResult) -> usize {
    result
        .runs
        .iter()
        .map(|r| {
            let outcomes = r
                .report
                .outcomes
                .iter()
                .filter(|o| o.cell.exact.is_some() && o.cell.count.is_some())
                .count();
            let metrics = r
                .report
                .metrics
                .iter()
                .filter(|m| m.exact.is_some_and(f64::is_finite) && m.stderr.is_some())
                .count();
            outcomes + metrics
        })
        .sum()
}

/// The checks of [`checks_made`] whose interval (at [`check_z`]) misses its exact value, each
/// as "variant: quantity" in a reader's words, in the runs' order; empty where all agree.
pub(super) fn checks_missed(result: &ExperimentResult) -> Vec<String> {
    let exp = &result.experiment;
    let z = check_z(result);
    let mut out = Vec::new();
    for r in &result.runs {
        let name = &exp.variants[r.variant].name;
        let at = match exp.sweep.is_empty() {
            true => String::new(),
            false => format!(" at {}", point_words(exp, &r.point)),
        };
        for o in &r.report.outcomes {
            if o.cell.count.is_some()
                && check_holds(&o.cell, true, exp.confidence, z) == Some(false)
            {
                let head = crate::labels::outcome(&o.outcome).head;
                out.push(format!("{name}{at}, {head}"));
            }
        }
        for m in &r.report.metrics {
            if !(m.exact.is_some_and(f64::is_finite) && m.stderr.is_some()) {
                continue;
            }
            if let Some(c) = find(&r.report, &m.name)
                && check_holds(&c, false, exp.confidence, z) == Some(false)
            {
                let head = crate::labels::metric(&m.name).head;
                out.push(format!("{name}{at}, {head}"));
            }
        }
    }
    out
}

/// The normal quantile of every check of a report: its checks are a reader's to scan at once,
/// so they are sure at the experiment's level taken together (Bonferroni's adjustment over the
/// [`checks_made`]), not one by one: at 95% over 200 checks, each at 99.975%. A value outside
/// its interval then says something is wrong, not that 1 check in 20 misses.
pub(super) fn check_z(result: &ExperimentResult) -> f64 {
    let k = checks_made(result).max(1) as f64;
    crate::stats::z_for_confidence(1.0 - (1.0 - result.experiment.confidence) / k)
}

/// The interval a check holds an exact value to, at normal quantile `z`: a chance's the Wilson
/// interval of its counts, an average's its estimate ± `z` standard errors (read off its
/// interval at the report's `confidence`). `None` where there is no estimate to check.
pub(super) fn check_interval(
    c: &Cell,
    chance: bool,
    confidence: f64,
    z: f64,
) -> Option<(f64, f64)> {
    if chance {
        let n = c.count?;
        let k = (c.p * n as f64).round() as u64;
        Some(crate::stats::wilson(k, n, z))
    } else {
        let (l, h) = (c.ci_low?, c.ci_high?);
        // A mean with no spread at 0 or 1 (every trial the same: a share no trial reached, or
        // every trial reached): its interval is a chance's of n trials without one the other
        // way, not the estimate alone, which a value met once in a million trials would miss.
        if h - l <= 0.0
            && (c.p == 0.0 || c.p == 1.0)
            && let Some(n) = c.count
        {
            return Some(crate::stats::wilson((c.p * n as f64).round() as u64, n, z));
        }
        let se = (h - l) / (2.0 * crate::stats::z_for_confidence(confidence));
        Some((c.p - z * se, c.p + z * se))
    }
}

/// Whether the check of cell `c` holds its exact value (see [`check_interval`]); `None` where
/// there is nothing to check.
pub(super) fn check_holds(c: &Cell, chance: bool, confidence: f64, z: f64) -> Option<bool> {
    let e = c.exact?;
    let (l, h) = check_interval(c, chance, confidence, z)?;
    // An interval of a mean with no spread is its estimate alone: the exact value agrees to
    // the estimate's last digits.
    let slack = 1e-9 * e.abs().max(1.0);
    Some(l - slack <= e && e <= h + slack)
}

/// Whether `key` is an outcome of `report` (a chance), not a measure.
pub(super) fn is_outcome(report: &Report, key: &str) -> bool {
    report
        .outcomes
        .iter()
        .any(|o| o.outcome == key || find_same(&o.outcome, key))
}

/// The share of full strength a run counted as weakly held (`weak_share`), as its file gave it.
pub(super) fn weak_share(report: &Report) -> Option<String> {
    report.params.get("weak_share").map(|v| match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

/// The headline as the answer speaks of it: an outcome's chance (in per cent, differences in
/// points) or a metric's mean (in its own unit, with the condition it is taken under).
pub(super) struct Head {
    /// The outcome's or metric's name.
    pub key: String,
    /// A metric's mean, not an outcome's chance.
    pub metric: bool,
    /// A conditional mean's condition ("among units that recovered").
    pub condition: Option<String>,
    /// The weak share the run counted (`weak_share`), said in a weakly-held metric's words.
    pub weak: Option<String>,
}

impl Head {
    /// The experiment's (first) headline, read from one of its reports.
    pub fn of(exp: &crate::experiment::Experiment, report: &Report) -> Head {
        Head::named(headline(exp, report), report)
    }
    /// Every headline of the experiment, in the file's order (the default one where it names
    /// none).
    pub fn all(exp: &crate::experiment::Experiment, report: &Report) -> Vec<Head> {
        if exp.headlines.is_empty() {
            return vec![Head::of(exp, report)];
        }
        exp.headlines
            .iter()
            .map(|k| Head::named(k.clone(), report))
            .collect()
    }
    /// The headline `key` (an outcome or a metric of `report`).
    pub fn named(key: String, report: &Report) -> Head {
        let metric = report
            .outcomes
            .iter()
            .all(|o| o.outcome != key && !find_same(&o.outcome, &key))
            && report.metrics.iter().any(|m| m.name == key);
        let condition = report
            .metrics
            .iter()
            .find(|m| metric && m.name == key)
            .and_then(|m| condition_of(&m.meaning).map(str::to_string));
        Head {
            key,
            metric,
            condition,
            weak: weak_share(report),
        }
    }
    /// The comparisons' kind of the headline.
    pub fn kind(&self) -> &'static str {
        if self.metric { "metric" } else { "outcome" }
    }
    /// Whether comparison `c` is of the headline.
    pub fn is(&self, c: &Comparison) -> bool {
        c.kind == self.kind()
            && (c.name == self.key || (!self.metric && find_same(&c.name, &self.key)))
    }
    /// A value: a chance in per cent, a mean to two decimals.
    pub fn value(&self, x: f64) -> String {
        if self.metric {
            format!("{x:.2}")
        } else {
            pct(x)
        }
    }
    /// A value one digit finer (a match is judged finer than the tables' digits).
    pub fn fine(&self, x: f64) -> String {
        if self.metric {
            format!("{x:.3}")
        } else {
            pct2(x)
        }
    }
    /// A difference: in points of a chance, or in the metric's unit, to two decimals as the
    /// values it compares; a difference that would round to nought gets the digits that show it
    /// ("+0.004 points"). It is worked out before rounding, so its last digit may now and then
    /// differ from the difference of the rounded figures: the tables' note says so.
    pub fn diff(&self, d: f64) -> String {
        let (scale, digits) = if self.metric { (1.0, 2) } else { (100.0, 2) };
        let x = scale * d;
        // The differences table's rule for a change too small for two places (one digit).
        match self.metric {
            true => crate::report::signed_small(x, digits),
            false => format!("{} points", crate::report::signed_small(x, digits)),
        }
    }
    /// [`Head::diff`] with a metric's unit where it has one ("+0.78 turns"): in a table's cell,
    /// where a bare "+0.78" beside "−13.94 points" read as a chance (writer trial 59).
    pub fn diff_unit(&self, d: f64) -> String {
        match (self.metric, crate::labels::metric_unit(&self.key)) {
            (true, Some(unit)) => format!("{} {unit}", self.diff(d)),
            _ => self.diff(d),
        }
    }
    /// A difference one digit finer.
    pub fn diff_fine(&self, d: f64) -> String {
        if self.metric {
            signed(d, 3)
        } else {
            format!("{} points", signed(100.0 * d, 3))
        }
    }
    /// An interval of differences, `[lo, hi]` in the unit of [`Head::diff`] (without it).
    pub fn diff_interval(&self, lo: f64, hi: f64) -> String {
        if self.metric {
            format!("[{}, {}]", signed(lo, 2), signed(hi, 2))
        } else {
            format!("[{}, {}]", signed(100.0 * lo, 2), signed(100.0 * hi, 2))
        }
    }
    /// The headline's plain words ([`crate::labels`]).
    pub fn label(&self) -> crate::labels::Label {
        if self.metric {
            let mut l = crate::labels::metric(&self.key);
            l.head = crate::labels::at_weak_share(&l.head, self.weak.as_deref());
            l.noun = crate::labels::at_weak_share(&l.noun, self.weak.as_deref());
            l
        } else {
            crate::labels::outcome(&self.key)
        }
    }
    /// A table's head: the label with its condition, "turns to recover (among units
    /// that recovered)".
    pub fn labelled(&self) -> String {
        let head = self.label().head;
        match &self.condition {
            Some(c) => format!("{head} ({c})"),
            None => head,
        }
    }
    /// What a chart's axis measures: "chance of recovering", "average turns to recover
    /// (among units that recovered)".
    pub fn axis(&self) -> String {
        let l = self.label();
        match (&self.condition, self.metric) {
            (_, false) => l.noun.trim_start_matches("the ").to_string(),
            (Some(c), true) => format!("average {} ({c})", l.head),
            (None, true) => format!("average {}", l.head),
        }
    }
    /// What is measured, in words: "the chance of recovering", "the average number of rally
    /// phases to recover among units that recovered".
    pub fn noun(&self) -> String {
        let noun = self.label().noun;
        match (&self.condition, self.metric) {
            (Some(c), true) => format!("{noun} {c}"),
            _ => noun,
        }
    }
}

/// A p-value as text, as journals print it: below 0.0001 as that bound, no powers of ten.
pub(super) fn p_text(p: f64) -> String {
    if p < 1e-4 {
        "p < 0.0001".into()
    } else if p < 0.001 {
        format!("p = {p:.4}")
    } else {
        format!("p = {p:.3}")
    }
}

/// A p-value in a table cell: "—" where no test can be made.
pub(super) fn p_cell(p: Option<f64>) -> String {
    p.map_or("—".into(), |p| {
        p_text(p).trim_start_matches("p = ").to_string()
    })
}

/// The p-value of a comparison, in words: Holm-adjusted where its family has more than one
/// member (the answer says so once, at its end); the unadjusted one where the exact values
/// decide (said beside them).
fn p_said(c: &Comparison) -> String {
    c.p_adjusted
        .or(c.p_value)
        .map_or("no test: no spread".into(), p_text)
}

/// Whether the exact values show no difference at all.
pub(super) fn exactly_same(c: &Comparison) -> bool {
    c.exact_difference.is_some_and(|e| e.abs() < EXACTLY_ZERO)
}

/// The "chance?" cell of a comparison, in one voice in every table: where the exact difference
/// is known it decides ("exactly the same", or "no (the exact values differ)"); else the estimates' test after
/// Holm's adjustment.
pub(super) fn chance_cell(c: &Comparison) -> &'static str {
    match c.exact_difference {
        Some(_) if exactly_same(c) => "exactly the same",
        Some(_) => "no (the exact values differ)",
        None if c.p_value.is_none() => "no test (no spread)",
        None if c.distinguishable => "no",
        None => "could be",
    }
}

/// A chance to two decimals, as its changes in points are given, so that the figures a reader
/// sets side by side subtract to the change printed beside them (85.37% against 71.43% is
/// −13.94 points); never rounded to 0% or 100% when it is neither ("<0.01%", ">99.99%"); a
/// chance of exactly none or all is "0%" or "100%".
pub(super) fn pct(x: f64) -> String {
    crate::labels::percent(x)
}

/// The plain-words answer: each variant against the baseline on the headline outcome and the
/// holes metric, with the interval of the difference and whether chance could explain it.
pub(super) fn answer(result: &ExperimentResult, comparisons: &[Comparison]) -> String {
    let mut out = answer_runs(result, comparisons);
    let systems = crossing_systems(result);
    if !systems.is_empty() {
        let missing = unmatched(result);
        out += &format!(
            " The variants use different rule systems ({}): outcomes are compared only where both name the same end{}.",
            systems
                .iter()
                .map(|s| crate::labels::system(s))
                .collect::<Vec<_>>()
                .join(", "),
            if missing.is_empty() {
                String::new()
            } else {
                format!(
                    "; states one rule set has and the other has not are not compared ({})",
                    missing.join("; ")
                )
            }
        );
    }
    // Which rule matters most, in a sentence per variant, after the answer on the runs.
    for (name, sens) in &result.sensitivity {
        if result.sensitivity.len() > 1 {
            out += &format!(" For {name}: {}", sens.verdict());
        } else {
            out += &format!(" {}", sens.verdict());
        }
    }
    out
}

fn answer_runs(result: &ExperimentResult, comparisons: &[Comparison]) -> String {
    let exp = &result.experiment;
    let level = format!("{}%", crate::report::fmt_level(exp.confidence));
    let first = &result.runs[0].report;
    let head = Head::of(exp, first);
    let mut out = String::new();
    if exp.variants.len() == 1 {
        return one_variant(result, &head, &level);
    }
    // Exact values quoted (each once), and how many of them the simulation's intervals hold.
    let mut checked = Checked::default();
    for (vi, v) in exp.variants.iter().enumerate() {
        let Some(bi) = exp.baseline_of(vi) else {
            continue;
        };
        // A variant there for scale is not a comparison the question asks about: the table
        // gives its value, and one sentence after the answer sets it against the sweep.
        if v.reference {
            continue;
        }
        let rows: Vec<&Comparison> = comparisons
            .iter()
            .filter(|c| c.variant == v.name && head.is(c))
            .collect();
        if rows.is_empty() {
            continue;
        }
        let said = AgainstBaseline {
            result,
            head: &head,
            level: &level,
            v,
            vi,
            bi,
            base: &exp.variants[bi].name,
        };
        if let [c] = rows[..] {
            out += &said.one_setting(c, &mut checked);
        } else {
            out += &said.across_settings(&rows);
        }
        out += &said.holes(comparisons, &mut checked);
    }
    out += &for_scale(result, &head);
    out += &simulation_agrees(exp, &checked, &level);
    out += &holm_note(exp, comparisons);
    out.trim_end().to_string()
}

/// One variant (`v`, index `vi`) set against its baseline (index `bi`, named `base`) in the
/// answer on the runs.
struct AgainstBaseline<'a> {
    result: &'a ExperimentResult,
    head: &'a Head,
    level: &'a str,
    v: &'a crate::experiment::Variant,
    vi: usize,
    bi: usize,
    base: &'a str,
}

impl AgainstBaseline<'_> {
    /// The headline's sentence where the variant has one comparison (no sweep).
    fn one_setting(&self, c: &Comparison, checked: &mut Checked) -> String {
        let (result, head, level, v, base) =
            (self.result, self.head, self.level, self.v, self.base);
        // The variant's own word for the same end (`removed` against `eliminated`).
        let noun = if head.metric {
            head.noun()
        } else {
            crate::labels::outcome(&c.name).noun
        };
        match exact_pair(result, c, &head.key, checked) {
            // One number per quantity: the exact values, the simulation as their check
            // (said once, at the paragraph's end).
            Some((x, _)) if exactly_same(c) => format!(
                "Under {}, {noun} is exactly the same as under {base}: {}. ",
                v.name,
                head.value(x)
            ),
            Some((x, b)) => format!(
                "Under {}, {noun} is {} against {} under {base}: {}. ",
                v.name,
                head.value(x),
                head.value(b),
                head.diff(x - b)
            ),
            None => {
                let (lo, hi) = if head.metric {
                    (signed(c.low, 2), signed(c.high, 2))
                } else {
                    (signed(100.0 * c.low, 2), signed(100.0 * c.high, 2))
                };
                format!(
                    "Under {}, {noun} is {} against {} under {base} (simulation): a difference of {} ({level} interval {lo} to {hi}), {}. ",
                    v.name,
                    head.value(c.estimate),
                    head.value(c.baseline_estimate),
                    head.diff(c.difference),
                    if c.distinguishable {
                        format!("which chance does not explain ({})", p_said(c))
                    } else {
                        format!("which chance could explain ({})", p_said(c))
                    }
                )
            }
        }
    }

    /// The headline's sentences where the variant has a comparison at each setting swept:
    /// along the rule where one setting is swept, else the range of differences.
    fn across_settings(&self, rows: &[&Comparison]) -> String {
        let (result, head, v, vi, bi, base) =
            (self.result, self.head, self.v, self.vi, self.bi, self.base);
        let exp = &result.experiment;
        let mut out = String::new();
        // The exact differences where known: settings that are exactly the same add no
        // range of their own estimates' noise.
        let shown = |c: &&Comparison| c.exact_difference.unwrap_or(c.difference);
        let lo = rows.iter().map(shown).fold(f64::INFINITY, f64::min);
        let hi = rows.iter().map(shown).fold(f64::NEG_INFINITY, f64::max);
        let clear = rows.iter().filter(|c| c.distinguishable).count();
        let same = rows.iter().filter(|c| exactly_same(c)).count();
        let exact = rows.iter().all(|c| c.exact_difference.is_some());
        match (along(result, v, head, None), exp.sweep.len()) {
            (Some(line), 1) => {
                // The baseline along the rule too, once, unless it stays put (a target).
                let target = fixed_target(result, &head.key, bi);
                match target {
                    // A target: the setting that meets it is the answer, said first; then
                    // each setting's gap to it, as the table gives it.
                    Some(t) => {
                        out += &best_match(exp, rows, head, &v.name, base, Some(t));
                        out += " ";
                        if let Some(l) = along(result, v, head, Some((t, base))) {
                            out += &l;
                            out += " ";
                        }
                    }
                    None => {
                        if first_against(exp, bi) == Some(vi)
                            && let Some(b) = along(result, &exp.variants[bi], head, None)
                        {
                            out += &b;
                            out += " ";
                        }
                        out += &line;
                        out += " ";
                    }
                }
            }
            _ if same == rows.len() => {
                out += &format!(
                    "At every one of the {} settings swept, {} gives exactly the same {} as {base} (exact values). ",
                    rows.len(),
                    v.name,
                    head.noun(),
                );
            }
            _ => {
                let range = if (hi - lo).abs() < EXACTLY_ZERO {
                    head.diff(lo)
                } else {
                    format!(
                        "{} to {}",
                        head.diff(lo).trim_end_matches(" points"),
                        head.diff(hi)
                    )
                };
                let verdict = match (exact, same) {
                    (true, 0) => "exact values".to_string(),
                    (true, k) => format!("exact values; exactly the same in {k}"),
                    (false, 0) => format!(
                        "the difference is real (exact, or distinguishable from chance) in {clear} of them"
                    ),
                    (false, k) => format!(
                        "the difference is real (exact, or distinguishable from chance) in {clear} of them, exactly the same in {k}"
                    ),
                };
                out += &format!(
                    "Across the {} settings swept, {} changes {} by {range} against {base} ({verdict}). ",
                    rows.len(),
                    v.name,
                    head.noun(),
                );
            }
        }
        out
    }

    /// The holes metrics: of one unit under fire, or of side A's line in a battle.
    fn holes(&self, comparisons: &[Comparison], checked: &mut Checked) -> String {
        let (result, head, level, v, base) =
            (self.result, self.head, self.level, self.v, self.base);
        let mut out = String::new();
        let metric = |name: &str| -> Vec<&Comparison> {
            comparisons
                .iter()
                .filter(|c| c.variant == v.name && c.kind == "metric" && c.name == name)
                .collect()
        };
        for (name, what, unit) in [
            // (Not again where the headline is one of them.)
            (
                "empty_turns",
                "Its place in the line stands empty for",
                "turns",
            ),
            // In the tables' words (labels: "side A's empty places × turns"), not a unit of
            // its own ("position-turns", writer trial 74).
            ("a_hole_turns", "Side A's empty places × turns come to", ""),
            ("a_units_lost", "Side A loses", "units"),
            (
                "strength_turns",
                "The strength it held in its place comes to",
                "turns at full strength",
            ),
            (
                "a_strength_turns",
                "The strength side A's front line held comes to",
                "turns at full strength",
            ),
        ] {
            let unit = match unit.is_empty() {
                true => String::new(),
                false => format!(" {unit}"),
            };
            if let [c] = metric(name)[..]
                && !(head.metric && head.key == name)
            {
                out += &match exact_pair(result, c, name, checked) {
                    Some((x, _)) if exactly_same(c) => {
                        format!("{what} {x:.2}{unit} on average, exactly as under {base}. ")
                    }
                    Some((x, b)) => format!(
                        "{what} {x:.2}{unit} on average against {b:.2} ({}). ",
                        Head {
                            key: name.to_string(),
                            metric: true,
                            condition: None,
                            weak: None,
                        }
                        .diff(x - b)
                    ),
                    None => format!(
                        "{what} {:.2}{unit} on average against {:.2} (simulation; {}, {level} interval {} to {}{}). ",
                        c.estimate,
                        c.baseline_estimate,
                        signed(c.difference, 2),
                        signed(c.low, 2),
                        signed(c.high, 2),
                        match () {
                            _ if c.p_value.is_none() => ", no test: no spread",
                            _ if c.distinguishable => "",
                            _ => ", which chance could explain",
                        }
                    ),
                };
            }
        }
        out
    }
}

/// How many of the exact values quoted the simulation's intervals hold, after the answer (none
/// quoted: nothing said).
fn simulation_agrees(
    exp: &crate::experiment::Experiment,
    checked: &Checked,
    level: &str,
) -> String {
    let (held, quoted) = (
        checked.seen.iter().filter(|s| s.1).count(),
        checked.seen.len(),
    );
    if quoted == 0 {
        return String::new();
    }
    if held == quoted {
        "The simulation agrees: each exact value above lies within its estimate's interval. "
            .to_string()
    } else {
        format!(
            "The simulation agrees with {held} of the {quoted} exact values above; the others lie outside their estimates' intervals, which are {level} sure taken together (1 report in {:.0} has such a miss by chance alone). ",
            1.0 / (1.0 - exp.confidence)
        )
    }
}

/// Where the estimates decide a family of comparisons: that Holm's method adjusts their
/// p-values together.
fn holm_note(exp: &crate::experiment::Experiment, comparisons: &[Comparison]) -> String {
    let Some(c) = comparisons
        .first()
        .filter(|c| c.family > 1 && comparisons.iter().any(|x| x.exact_difference.is_none()))
    else {
        return String::new();
    };
    format!(
        "The p-values are adjusted together by Holm's method: the {} comparisons decided by the estimates, every outcome and metric of each variant against {}{}; where the exact difference is known, it decides.",
        c.family,
        if exp.several_baselines() {
            "its baseline"
        } else {
            exp.variants[0].name.as_str()
        },
        if exp.sweep.is_empty() {
            ""
        } else {
            " at every setting"
        }
    )
}

/// The first variant compared with baseline `b` (by index), if any.
pub(super) fn first_against(exp: &crate::experiment::Experiment, b: usize) -> Option<usize> {
    (0..exp.variants.len()).find(|&i| exp.baseline_of(i) == Some(b))
}

/// The exact values the answer quotes, each once (its variant, point and quantity), with
/// whether the simulation's interval holds it.
#[derive(Default)]
struct Checked {
    seen: Vec<(Quoted, bool)>,
}

/// A quoted value: its variant, sweep point and quantity.
type Quoted = (String, Vec<SetValue>, String);

/// The exact values of comparison `c`'s quantity `key` under its variant and under the
/// baseline, at its point, where both are known; each is noted in `checked` with whether its
/// estimate's interval holds it.
fn exact_pair(
    result: &ExperimentResult,
    c: &Comparison,
    key: &str,
    checked: &mut Checked,
) -> Option<(f64, f64)> {
    let exp = &result.experiment;
    let run = |name: &str| {
        let i = exp.variants.iter().position(|v| v.name == name)?;
        result
            .runs
            .iter()
            .find(|r| r.variant == i && r.point == c.point)
    };
    let cell = |name: &str, key: &str| find(&run(name)?.report, key);
    let (x, b) = (cell(&c.variant, key)?, cell(&c.baseline, key)?);
    let (ex, eb) = (x.exact?, b.exact?);
    let z = check_z(result);
    for (who, cell) in [(&c.variant, &x), (&c.baseline, &b)] {
        let chance = run(who).is_some_and(|r| is_outcome(&r.report, key));
        if let Some(holds) = check_holds(cell, chance, exp.confidence, z) {
            let id = (who.clone(), c.point.clone(), key.to_string());
            if checked.seen.iter().all(|s| s.0 != id) {
                checked.seen.push((id, holds));
            }
        }
    }
    Some((ex, eb))
}

pub(super) fn find_same(a: &str, b: &str) -> bool {
    let gone = |s: &str| s == "removed" || s == "eliminated";
    gone(a) && gone(b)
}

/// The answer of a one-variant experiment: the headline's chance, or its range over the sweep,
/// from the exact values where every run has them, else from the Monte Carlo estimates (said so,
/// with their interval).
fn one_variant(result: &ExperimentResult, head: &Head, level: &str) -> String {
    let base = &result.experiment.variants[0].name;
    let key = &head.key;
    let noun = head.noun();
    let cells: Vec<Cell> = result
        .runs
        .iter()
        .filter_map(|r| find(&r.report, key))
        .collect();
    if cells.is_empty() {
        return format!("Under {base}, no run reports {noun}.");
    }
    let exact: Option<Vec<f64>> = cells.iter().map(|c| c.exact).collect();
    let how = if exact.is_some() {
        format!("exact values; Monte Carlo estimates agree within their {level} intervals")
    } else {
        format!("Monte Carlo estimates with {level} intervals; this scenario has no exact solution")
    };
    let values: Vec<f64> = exact.unwrap_or_else(|| cells.iter().map(|c| c.p).collect());
    if let [only] = &cells[..] {
        let how = match (only.exact, only.ci_low, only.ci_high) {
            (None, Some(lo), Some(hi)) => format!(
                "{level} interval {} to {}; a Monte Carlo estimate: this scenario has no exact solution",
                head.value(lo),
                head.value(hi)
            ),
            (None, ..) => "a Monte Carlo estimate: this scenario has no exact solution".into(),
            (Some(_), ..) => {
                format!(
                    "exact; the Monte Carlo estimate and its {level} interval are in the tables"
                )
            }
        };
        return format!("Under {base}, {noun} is {} ({how}).", head.value(values[0]));
    }
    if let Some(line) = along(result, &result.experiment.variants[0], head, None) {
        return format!("{line} ({how}).");
    }
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let points = cells.len();
    if lo == hi {
        format!(
            "Under {base}, {noun} is {} at each of the {points} settings swept ({how}).",
            head.value(lo)
        )
    } else {
        format!(
            "Under {base}, {noun} ranges from {} to {} over the {points} settings swept ({how}).",
            head.value(lo),
            head.value(hi)
        )
    }
}

/// A chance to three decimals of a percent (a match is judged finer than the tables' two).
fn pct2(x: f64) -> String {
    format!("{:.3}%", 100.0 * x)
}

/// The headline's value of variant `v` at each value of a one-axis sweep over a rule parameter,
/// each set against the source's value ("as written"): `None` for any other sweep. Exact values
/// where every run has them, else the estimates.
fn along(
    result: &ExperimentResult,
    v: &crate::experiment::Variant,
    head: &Head,
    target: Option<(f64, &str)>,
) -> Option<String> {
    let key = &head.key;
    let exp = &result.experiment;
    let [axis] = &exp.sweep[..] else { return None };
    if !axis.rule {
        return None;
    }
    let vi = exp.variants.iter().position(|x| x.name == v.name)?;
    let source = crate::system::find(&v.system)
        .ok()?
        .rule_params()
        .iter()
        .find(|d| d.key == axis.key)?
        .default;
    let per = exp.variants.len();
    let cells: Vec<Cell> = (0..axis.values.len())
        .map(|xi| find(&result.runs[xi * per + vi].report, key))
        .collect::<Option<_>>()?;
    let exact = cells.iter().all(|c| c.exact.is_some());
    let value = |c: &Cell| if exact { c.exact.unwrap_or(c.p) } else { c.p };
    let written = axis.values.iter().position(|x| x.as_input() == source);
    // Against a target, the settings that meet it exactly are the answer said just before
    // (`best_match`): not said again.
    let met = |c: &Cell| target.is_some_and(|(t, _)| (value(c) - t).abs() < EXACTLY_ZERO);
    let omitted = cells.iter().filter(|c| met(c)).count();
    // After the setting that meets the target, the others by their values alone: their gaps
    // to it are the table's column, and with them the sentence was a wall of numbers (writer
    // trial 74).
    let brief = omitted > 0 && omitted < cells.len();
    let parts: Vec<String> = axis
        .values
        .iter()
        .zip(&cells)
        .enumerate()
        .filter(|(_, (_, c))| omitted == cells.len() || !met(c))
        .map(|(i, (x, c))| {
            // The rules' own value said in the sentence, not in a bracket with the gap
            // ("55.65% at 5, the rules' own number (−34.50 points)", writer trial 74).
            let own = match (written == Some(i) && target.is_some(), brief) {
                (true, true) => " (the rules' own number)",
                (true, false) => ", the rules' own number",
                _ => "",
            };
            let here = format!("{} at {}{own}", head.value(value(c)), x.as_input());
            if brief {
                return here;
            }
            // Against a target (the baseline, the same at every setting), each value's gap to
            // it, as the table gives it; else against the rules as written.
            match (target, written) {
                (Some((t, _)), _) if (value(c) - t).abs() < EXACTLY_ZERO => {
                    format!("{here} (the same)")
                }
                (Some((t, _)), _) => {
                    format!("{here} ({})", head.diff(value(c) - t))
                }
                (None, Some(w)) if w == i => format!("{here} (as written)"),
                (None, Some(w)) => format!("{here} ({})", head.diff(value(c) - value(&cells[w]))),
                (None, None) => here,
            }
        })
        .collect();
    // The rules' own value is marked where it is among those tried ("55.65% at 5 (the rules'
    // own; …)"): said once more before them, it made three "the rules give 5" on a page
    // (writer trial 62).
    let given = match written {
        Some(_) => String::new(),
        None => format!(" (the rules give {source}, not among them)"),
    };
    Some(match target {
        // The setting was just named, with the value that meets the target.
        Some(_) if brief => format!(
            "At the other values tried{}, {} under {} is {}.",
            given,
            head.noun(),
            v.name,
            crate::labels::listed(&parts.iter().map(String::as_str).collect::<Vec<_>>()),
        ),
        Some((t, base)) => format!(
            "As \u{201c}{}\u{201d} runs over the values tried{}, {} under {} is {}, against {} under {base} at every one.",
            crate::params::label_in_prose(&axis.key),
            given,
            head.noun(),
            v.name,
            parts.join(", "),
            head.value(t)
        ),
        None => format!(
            "Under {}, as \u{201c}{}\u{201d} runs over the values tried{}, {} is {}.",
            v.name,
            crate::params::label_in_prose(&axis.key),
            given,
            head.noun(),
            parts.join(", ")
        ),
    })
}

/// With one rule swept, each variant there for scale whose value stays put (exact), set against
/// the swept variants: "For scale, Regular, no leader: 74.4%, as Green at Green base number 4."
/// Empty where there is none, or nothing swept meets it exactly.
fn for_scale(result: &ExperimentResult, head: &Head) -> String {
    let exp = &result.experiment;
    let [axis] = &exp.sweep[..] else {
        return String::new();
    };
    let per = exp.variants.len();
    let mut out = String::new();
    for (ri, r) in exp.variants.iter().enumerate() {
        let Some(t) = r
            .reference
            .then(|| fixed_target(result, &head.key, ri))
            .flatten()
        else {
            continue;
        };
        let met: Vec<String> = exp
            .variants
            .iter()
            .enumerate()
            .filter(|(vi, v)| !v.reference && fixed_target(result, &head.key, *vi).is_none())
            .filter_map(|(vi, v)| {
                let at: Vec<String> = axis
                    .values
                    .iter()
                    .enumerate()
                    .filter(|(xi, _)| {
                        find(&result.runs[xi * per + vi].report, &head.key)
                            .and_then(|c| c.exact)
                            .is_some_and(|x| (x - t).abs() < EXACTLY_ZERO)
                    })
                    .map(|(_, x)| x.as_input())
                    .collect();
                (!at.is_empty()).then(|| {
                    named_with(
                        &v.name,
                        &format!(
                            "{} at {}",
                            crate::labels::setting_in_prose(&crate::params::label(&axis.key)),
                            crate::labels::listed(
                                &at.iter().map(String::as_str).collect::<Vec<_>>()
                            )
                        ),
                    )
                })
            })
            .collect();
        if met.is_empty() {
            continue;
        }
        // A sentence, not "For comparison, Regular without a leader: 74.39%, exactly as …"
        // (writer trial 74, fifth round: a fragment).
        out += &format!(
            "For comparison, {} under {} is {}, exactly as under {}. ",
            head.noun(),
            r.name,
            head.value(t),
            met.join("; ")
        );
    }
    out
}

/// The swept value at which `variant` comes nearest the baseline on the headline, from the
/// comparisons `rows` (one per sweep point), with how near: exactly the same, within chance,
/// or not.
fn best_match(
    exp: &crate::experiment::Experiment,
    rows: &[&Comparison],
    head: &Head,
    variant: &str,
    base: &str,
    target: Option<f64>,
) -> String {
    let noun = head.noun();
    let gap = |c: &Comparison| c.exact_difference.unwrap_or(c.difference).abs();
    let Some(best) = rows.iter().min_by(|a, b| gap(a).total_cmp(&gap(b))) else {
        return String::new();
    };
    // The setting first, as a designer asks it ("at which number?"), in a sentence's words:
    // "With the Green base number at 3, Green matches …".
    let with = point_said(exp, &best.point);
    // Where the exact values are known they decide, alone: one number for one quantity.
    let how = match best.exact_difference {
        Some(_) if exactly_same(best) => {
            return match target {
                Some(t) => format!(
                    "With {with}, {variant} matches {base} exactly: {noun} is {} under both.",
                    head.value(t)
                ),
                None => format!("With {with}, {variant} matches {base} exactly on {noun}."),
            };
        }
        Some(e) => {
            return format!(
                "With {with}, {variant} comes nearest {base} on {noun}: {}, exactly.",
                head.diff(e)
            );
        }
        None if best.distinguishable => format!(
            "{}, which chance does not explain ({})",
            head.diff_fine(best.difference),
            p_said(best)
        ),
        None => format!(
            "{}, which chance explains ({})",
            head.diff_fine(best.difference),
            p_said(best)
        ),
    };
    let (mine, theirs) = (head.fine(best.estimate), head.fine(best.baseline_estimate));
    format!(
        "With {with}, {variant} comes nearest {base} on {noun} (estimates {mine} against {theirs}; {how})."
    )
}

/// The baseline's exact headline when it is the same at every sweep point (a target the other
/// variants are swept to meet, as a Regular's chance is when only Green's number moves).
fn fixed_target(result: &ExperimentResult, key: &str, base: usize) -> Option<f64> {
    let per = result.experiment.variants.len();
    let values: Vec<f64> = result
        .runs
        .iter()
        .skip(base)
        .step_by(per)
        .map(|r| find(&r.report, key).and_then(|c| c.exact))
        .collect::<Option<_>>()?;
    let first = *values.first()?;
    values
        .iter()
        .all(|v| (v - first).abs() < 1e-12)
        .then_some(first)
}

/// The condition a mean is taken under, as its meaning words it: "among units that recovered".
/// (Here with the other words of a report, so that the page reads the answer and not the other
/// way round.)
pub(super) fn condition_of(meaning: &str) -> Option<&str> {
    meaning.rfind(", among ").map(|i| &meaning[i + 2..])
}
