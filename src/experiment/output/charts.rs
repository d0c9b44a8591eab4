//! The experiment's charts, as data: each is drawn to PNG and SVG by the exporters.

use super::*;

pub(super) fn estimate(c: &Cell) -> Estimate {
    Estimate {
        p: c.p,
        low: c.ci_low.unwrap_or(c.p),
        high: c.ci_high.unwrap_or(c.p),
        exact: c.exact,
    }
}

/// Whether every variant sets `key` to `value`.
pub(super) fn set_everywhere(
    exp: &crate::experiment::Experiment,
    key: &str,
    value: &SetValue,
) -> bool {
    exp.variants
        .iter()
        .all(|o| o.set.iter().any(|(k, v)| k == key && v == value))
}

/// Each setting that has one value in every variant and is not swept, in words (`class
/// regular`, `turns 8`); the swept keys are left to the point's label.
pub(super) fn shared_settings(exp: &crate::experiment::Experiment) -> Vec<String> {
    let systems: Vec<&str> = exp.variants.iter().map(|v| v.system.as_str()).collect();
    exp.variants.first().map_or_else(Vec::new, |first| {
        let pairs: Vec<(&str, String)> = first
            .set
            .iter()
            .filter(|(k, v)| {
                set_everywhere(exp, k, v)
                    && !exp.sweep.iter().any(|a| &a.key == k)
                    && !crate::labels::is_measurement(k)
            })
            .map(|(k, v)| (k.as_str(), v.as_input()))
            .collect();
        let said = crate::labels::settings_in_words_under(&systems, &pairs);
        match exp.scenario {
            crate::scenario::Scenario::Engagement | crate::scenario::Scenario::Line => {
                two_sided(&systems, &pairs, said)
            }
            _ => said,
        }
    })
}

/// Settings of a fight of two sides in a reader's words: both sides' units said once where
/// they are alike ("two Regular units", not "attacking unit regular, defending unit regular"),
/// the fire as each side's, not "enemy fire", and the distance as a distance ("1 move apart at
/// the start", not "range at start (moves) 1"; writer trial 74).
fn two_sided(systems: &[&str], pairs: &[(&str, String)], said: Vec<String>) -> Vec<String> {
    let words_of = |k: &str, v: &str| crate::labels::setting_in_words_under(systems, k, v);
    let value = |k: &str| pairs.iter().find(|(x, _)| *x == k).map(|(_, v)| v.as_str());
    let alike = match (value("attacker"), value("defender")) {
        (Some(a), Some(d)) if a == d => Some(a),
        _ => None,
    };
    let mut out = Vec::new();
    for words in said {
        if let Some(spec) = alike {
            let (a, d) = (words_of("attacker", spec), words_of("defender", spec));
            if words == d {
                continue;
            }
            if words == a {
                let spec = crate::labels::spec_in_words(spec);
                out.push(match spec.contains(' ') {
                    false => format!("two {} units", crate::labels::capitalised(&spec)),
                    true => format!("{spec} on each side"),
                });
                continue;
            }
        }
        if let Some(r) = value("range").filter(|r| words == words_of("range", r)) {
            out.push(match r {
                "1" => "1 move apart at the start".to_string(),
                r => format!("{r} moves apart at the start"),
            });
            continue;
        }
        out.push(words.replace("enemy fire dice a turn", "fire dice a side a turn"));
    }
    out
}

/// The setup every variant shares, in words: the scenario and the shared settings (`under
/// fire, class regular, turns 8`).
pub(super) fn setup(exp: &crate::experiment::Experiment) -> String {
    let (words, shared) = scenario_and_shared(exp);
    let mut out = vec![crate::labels::lower_initial(&words)];
    out.extend(shared);
    out.join(", ")
}

/// The scenario in words with the settings every variant shares, the units named in the
/// scenario's words where both sides' are alike: "Two Regular units fighting each other …",
/// not "Two units fighting each other …; in each case: two Regular units".
pub(super) fn scenario_and_shared(exp: &crate::experiment::Experiment) -> (String, Vec<String>) {
    let mut shared = shared_settings(exp);
    let words = exp.scenario.words();
    let units = shared
        .iter()
        .position(|s| s.starts_with("two ") && s.ends_with(" units"));
    match (units, words.strip_prefix("Two units")) {
        (Some(i), Some(rest)) => {
            let two = shared.remove(i);
            (format!("Two {}{rest}", &two["two ".len()..]), shared)
        }
        _ => (words.to_string(), shared),
    }
}

/// The systems' words for the same end, merged into one category of the outcomes chart: only
/// those the report compares (the unit gone). Rank & File's "in good order" and the 25%
/// rules' "still in the line" are not the same end, and the report says so: they keep groups
/// of their own.
const SAME: [&[&str]; 1] = [&["removed", "eliminated"]];

/// The category an outcome belongs to: its class in [`SAME`], or itself.
fn class_of(outcome: &str) -> Vec<&str> {
    SAME.iter()
        .find(|c| c.contains(&outcome))
        .map_or_else(|| vec![outcome], |c| c.to_vec())
}

/// `title` followed by the setup every variant shares (see [`setup`]), so a chart read alone
/// says what was played.
pub(super) fn with_setup(title: String, exp: &crate::experiment::Experiment) -> String {
    let setup = setup(exp);
    if setup.is_empty() {
        title
    } else {
        format!("{title} — {setup}")
    }
}

/// A parameter's meaning as a phrase for an axis: its table meaning without a leading
/// scenario word (`line: …`), up to the first colon, semicolon or `, as`, and without a
/// parenthesis that cut leaves open.
fn meaning_phrase(meaning: &str) -> &str {
    let meaning = match meaning.split_once(": ") {
        Some((head, rest)) if !head.contains(' ') => rest,
        _ => meaning,
    };
    let end = [": ", "; ", ", as "]
        .iter()
        .filter_map(|s| meaning.find(s))
        .min()
        .unwrap_or(meaning.len());
    let mut phrase = &meaning[..end];
    if phrase.matches('(').count() > phrase.matches(')').count() {
        phrase = &phrase[..phrase.find(" (").unwrap_or(phrase.len())];
    }
    phrase.trim()
}

/// The parameter a sweep axis moves, from the first variant's system's tables.
fn axis_def(
    exp: &crate::experiment::Experiment,
    axis: &crate::experiment::Axis,
) -> Option<&'static crate::params::ParamDef> {
    let system = crate::system::find(&exp.variants.first()?.system).ok()?;
    let defs = if axis.rule {
        system.rule_params()
    } else {
        system.params()
    };
    defs.iter().find(|d| d.key == axis.key)
}

/// A sweep axis named for a sentence: what a situation parameter means (`stands (or models)
/// already lost`), or a rule parameter's meaning and key (`… (rule base_green)`).
pub(super) fn axis_name(
    exp: &crate::experiment::Experiment,
    axis: &crate::experiment::Axis,
) -> String {
    match axis_def(exp, axis) {
        Some(d) if !meaning_phrase(d.meaning).is_empty() => meaning_phrase(d.meaning).to_string(),
        _ => crate::params::label_in_prose(&axis.key),
    }
}

/// A sweep axis in words: what the parameter means, then its key. A rule parameter says so
/// and gives the source's value (`the base number a Green unit's test must reach before
/// modifiers (rule base_green; the source: 5)`); a situation parameter reads `stands (or
/// models) already lost (lost)`.
pub(super) fn axis_words(
    exp: &crate::experiment::Experiment,
    axis: &crate::experiment::Axis,
) -> String {
    match (axis_def(exp, axis), axis.rule) {
        (Some(d), true) => format!(
            "{} (the rules give {})",
            meaning_phrase(d.meaning),
            d.default
        ),
        // A meaning that speaks of several scenarios at once ("turn cap (rally) or turns of
        // fire (under-fire)") gives way to the label.
        (Some(d), false)
            if !meaning_phrase(d.meaning).is_empty()
                && !meaning_phrase(d.meaning).contains(") or ") =>
        {
            meaning_phrase(d.meaning).to_string()
        }
        _ => crate::params::label_in_prose(&axis.key),
    }
}

/// A sweep axis as a chart names it, in a few words: a rule parameter by its label with the
/// source's value ("Green base number (the rules give 5)"; the setup explains it in full), any
/// other as [`axis_words`] says it.
pub(super) fn axis_label(
    exp: &crate::experiment::Experiment,
    axis: &crate::experiment::Axis,
) -> String {
    match (axis_def(exp, axis), axis.rule) {
        (Some(d), true) => format!(
            "{} (the rules give {})",
            crate::params::label(&axis.key),
            d.default
        ),
        _ => axis_words(exp, axis),
    }
}

/// What a battle's per-turn line measures, in words: (title, axis) for a column such as
/// `gaps_a`.
fn line_words(column: &str, trials: &str) -> (String, String) {
    let (what, side) = column.rsplit_once('_').unwrap_or((column, "a"));
    let side = side.to_uppercase();
    let (title, axis) = match what {
        "gaps" => (
            format!("Places empty in side {side}'s line, turn by turn"),
            "places empty",
        ),
        "lost" => (
            format!("Units side {side} has lost, turn by turn"),
            "units lost",
        ),
        "shaken" => (
            format!("Units of side {side} shaken, turn by turn"),
            "units shaken",
        ),
        "strength" => (
            format!("Strength held in side {side}'s front line, turn by turn"),
            "share of full strength held",
        ),
        _ => (format!("{}, turn by turn", words(column)), "mean"),
    };
    (title, format!("{axis}, mean of {trials} battles"))
}

/// Whether more of a headline is better (`Some(true)`), less (`Some(false)`), or neither way
/// is known ([`crate::labels`]).
fn higher(head: &Head) -> Option<bool> {
    match head.label().better {
        crate::labels::Better::Higher => Some(true),
        crate::labels::Better::Lower => Some(false),
        crate::labels::Better::Neither => None,
    }
}

/// At most this many sweep points get outcome and per-turn charts of their own; a larger sweep
/// draws them at its first setting (titled with it) and leaves the rest to the sweep chart and
/// heat maps, which cover every value.
const MOST_POINTS: usize = 12;

pub(super) fn charts(result: &ExperimentResult) -> Vec<(String, Chart)> {
    let exp = &result.experiment;
    let per_point = exp.variants.len();
    let first: &[Run] = &result.runs[..per_point];
    let mut out = Vec::new();
    let points = result.runs.len() / per_point.max(1);
    let drawn = if exp.sweep.is_empty() {
        1
    } else if points <= MOST_POINTS {
        points
    } else {
        1
    };
    // A variant the sweep does not touch (its turn-by-turn chances the same exact values at
    // every point drawn) gets one turn-by-turn chart, not one a setting: the report gives it
    // one section too.
    let untouched: Vec<bool> = (0..per_point)
        .map(|v| {
            let per_turn = |p: usize| {
                let r = &result.runs[p * per_point + v];
                r.report
                    .tables
                    .iter()
                    .find(|t| t.name == "per_turn")
                    .map(|t| {
                        t.rows
                            .iter()
                            .map(|row| row.cells.iter().map(|c| c.exact).collect::<Vec<_>>())
                            .collect::<Vec<_>>()
                    })
            };
            let first = per_turn(0);
            drawn > 1
                && first
                    .as_ref()
                    .is_some_and(|t| t.iter().flatten().all(Option::is_some))
                && (1..drawn).all(|p| per_turn(p) == first)
        })
        .collect();
    for p in 0..drawn {
        let runs = &result.runs[p * per_point..(p + 1) * per_point];
        // Without a sweep (or past MOST_POINTS) the files keep their plain names.
        let suffix = if exp.sweep.is_empty() || drawn == 1 {
            String::new()
        } else {
            format!("_{}", slug(&point_label(exp, &runs[0].point)))
        };
        let once = |v: usize| untouched[v].then_some(p == 0);
        out.extend(point_charts(result, runs, &suffix, &once));
    }
    sweep_charts(result, first, out)
}

/// The stem of the outcome bars a reader is shown: over a sweep of one rule drawn point by
/// point, those at the rule as written; over another sweep, those at the setting where the
/// variants' outcome chances differ most from the baseline's (summed); else `outcomes`.
pub(super) fn telling_outcomes(result: &ExperimentResult) -> String {
    let exp = &result.experiment;
    let per_point = exp.variants.len().max(1);
    let points = result.runs.len() / per_point;
    if exp.sweep.is_empty() || !(2..=MOST_POINTS).contains(&points) {
        return "outcomes".into();
    }
    let chance = |r: &Run, name: &str| {
        r.report
            .outcomes
            .iter()
            .find(|o| o.outcome == name)
            .map_or(0.0, |o| o.cell.exact.unwrap_or(o.cell.p))
    };
    let spread = |runs: &[Run]| -> f64 {
        runs.iter()
            .filter_map(|r| {
                Some((
                    r,
                    runs.iter()
                        .find(|b| Some(b.variant) == exp.baseline_of(r.variant))?,
                ))
            })
            .flat_map(|(r, b)| {
                r.report
                    .outcomes
                    .iter()
                    .map(|o| (chance(r, &o.outcome) - chance(b, &o.outcome)).abs())
            })
            .sum()
    };
    // One rule swept: the bars at the rule as written, where the sweep holds it.
    if let [axis] = &exp.sweep[..] {
        let written = exp.variants.iter().find_map(|v| {
            let sys = crate::system::find(&v.system).ok()?;
            let d = sys.rule_params().iter().find(|d| d.key == axis.key)?;
            axis.values.iter().position(|x| x.as_input() == d.default)
        });
        if let Some(i) = written.filter(|&i| i < points) {
            let runs = &result.runs[i * per_point..(i + 1) * per_point];
            return format!("outcomes_{}", slug(&point_label(exp, &runs[0].point)));
        }
    }
    let best = (0..points)
        .map(|p| &result.runs[p * per_point..(p + 1) * per_point])
        .enumerate()
        .max_by(|a, b| spread(a.1).total_cmp(&spread(b.1)).then(b.0.cmp(&a.0)))
        .map_or(0, |(p, _)| p);
    let runs = &result.runs[best * per_point..(best + 1) * per_point];
    format!("outcomes_{}", slug(&point_label(exp, &runs[0].point)))
}

/// The outcome bars, per-turn shares and battle lines of every variant at one sweep point
/// (`runs`), each titled with the setting it shows; file names end in `suffix`.
///
/// `once(variant)` is `Some(draw)` for a variant whose turn-by-turn chart is the same at every
/// setting: drawn once (where `draw`), under a plain name and with no setting in its title.
pub(crate) fn point_charts(
    result: &ExperimentResult,
    first: &[Run],
    suffix: &str,
    once: &dyn Fn(usize) -> Option<bool>,
) -> Vec<(String, Chart)> {
    let exp = &result.experiment;
    let at = point_words(exp, &first[0].point);
    let point = AtPoint {
        exp,
        first,
        suffix,
        level: format!("{}%", crate::report::fmt_level(exp.confidence)),
        trials: crate::report::thousands(exp.trials),
        at_words: if at.is_empty() {
            String::new()
        } else {
            format!(" (at {at})")
        },
    };
    let mut out = vec![point.outcome_bars()];
    out.extend(point.headline_bars());
    out.extend(point.tradeoff());
    out.extend(point.per_turn(once));
    out.extend(point.lines());
    out
}

/// What every chart at one sweep point shares: the variants' runs there, the file names'
/// suffix, and the words the titles and axes repeat (the confidence level, the trial count,
/// the setting shown).
struct AtPoint<'a> {
    exp: &'a crate::experiment::Experiment,
    first: &'a [Run],
    suffix: &'a str,
    level: String,
    trials: String,
    at_words: String,
}

impl AtPoint<'_> {
    /// Outcome bars at this setting: every variant's outcomes, the systems' words for the same
    /// end in one category.
    fn outcome_bars(&self) -> (String, Chart) {
        let (exp, first, suffix) = (self.exp, self.first, self.suffix);
        let at_words = &self.at_words;
        let trials = &self.trials;
        let mut classes: Vec<Vec<&str>> = Vec::new();
        for r in first {
            for o in &r.report.outcomes {
                let class = class_of(&o.outcome);
                if !classes.contains(&class) {
                    classes.push(class);
                }
            }
        }
        // An outcome that (almost) never happens takes no group of bars: under 0.05% (or none)
        // in every variant; the caption names it.
        let chance = |r: &Run, class: &Vec<&str>| {
            r.report
                .outcomes
                .iter()
                .find(|o| class.contains(&o.outcome.as_str()))
                .map_or(0.0, |o| o.cell.exact.unwrap_or(o.cell.p))
        };
        let (classes, never): (Vec<Vec<&str>>, Vec<Vec<&str>>) = classes
            .into_iter()
            .partition(|class| first.iter().any(|r| chance(r, class) >= 0.0005));
        let class_words = |class: &Vec<&str>| -> String {
            class
                .iter()
                .filter(|n| {
                    first
                        .iter()
                        .any(|r| r.report.outcomes.iter().any(|o| o.outcome == **n))
                })
                .map(|n| crate::labels::outcome(n).head)
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let left_out: Vec<String> = never.iter().map(class_words).collect();
        let categories: Vec<String> = classes.iter().map(class_words).collect();
        // Exact values need no trial count on the axis (the caption says how they were checked).
        let exact = first
            .iter()
            .all(|r| r.report.outcomes.iter().all(|o| o.cell.exact.is_some()));
        (
            format!("outcomes{suffix}"),
            Chart::Bars(crate::report::chart::Bars {
                title: with_setup(
                    // The same words for a report's rows and the explorer's profiles.
                    format!(
                        "How it ends{}{at_words}",
                        if first.len() > 1 {
                            ", side by side"
                        } else {
                            ""
                        }
                    ),
                    exp,
                ),
                y_label: if exact {
                    "chance".into()
                } else {
                    format!("chance, {trials} trials each")
                },
                level: self.level.clone(),
                series: first
                    .iter()
                    .map(|r| {
                        let vals = classes
                            .iter()
                            .map(|class| {
                                r.report
                                    .outcomes
                                    .iter()
                                    .find(|o| class.contains(&o.outcome.as_str()))
                                    .map(|o| estimate(&o.cell))
                            })
                            .collect();
                        (exp.variants[r.variant].name.clone(), vals)
                    })
                    .collect(),
                categories,
                share: true,
                left_out,
            }),
        )
    }

    /// A metric as the headline ("how much faster?"): its mean, variant by variant, with
    /// intervals, where the outcome bars cannot show it.
    fn headline_bars(&self) -> Option<(String, Chart)> {
        let (exp, first, suffix) = (self.exp, self.first, self.suffix);
        let at_words = &self.at_words;
        let trials = &self.trials;
        let head = Head::of(exp, &first[0].report);
        if !head.metric {
            return None;
        }
        let cells: Vec<Option<Estimate>> = first
            .iter()
            .map(|r| find(&r.report, &head.key).map(|c| estimate(&c)))
            .collect();
        let what = head.axis();
        Some((
            format!("headline{suffix}"),
            Chart::Bars(crate::report::chart::Bars {
                title: with_setup(format!("{}{at_words}", exp.question), exp),
                y_label: if cells
                    .iter()
                    .all(|c| c.as_ref().is_some_and(|c| c.exact.is_some()))
                {
                    what.clone()
                } else {
                    format!("{what}, {trials} trials each")
                },
                level: self.level.clone(),
                categories: vec![what.clone()],
                share: false,
                series: first
                    .iter()
                    .zip(cells)
                    .map(|(r, c)| (exp.variants[r.variant].name.clone(), vec![c]))
                    .collect(),
                left_out: Vec::new(),
            }),
        ))
    }

    /// Two headlines or more: the trade-off between the first two, a point per variant.
    fn tradeoff(&self) -> Option<(String, Chart)> {
        let (exp, first, suffix) = (self.exp, self.first, self.suffix);
        let at_words = &self.at_words;
        let heads = Head::all(exp, &first[0].report);
        let [hx, hy, ..] = &heads[..] else {
            return None;
        };
        if first.len() <= 1 {
            return None;
        }
        // A variant shown for scale is left out where two or more others remain: it is not
        // a choice the question weighs, and it would stretch the axes away from those that are.
        let asked = first
            .iter()
            .filter(|r| !exp.variants[r.variant].reference)
            .count();
        let drawn = |r: &&Run| asked < 2 || !exp.variants[r.variant].reference;
        let left_out: Vec<String> = first
            .iter()
            .filter(|r| !drawn(r))
            .map(|r| exp.variants[r.variant].name.clone())
            .collect();
        let points: Vec<(String, Estimate, Estimate)> = first
            .iter()
            .filter(drawn)
            .filter_map(|r| {
                let x = find(&r.report, &hx.key)?;
                let y = find(&r.report, &hy.key)?;
                Some((
                    exp.variants[r.variant].name.clone(),
                    estimate(&x),
                    estimate(&y),
                ))
            })
            .collect();
        // A trade-off only where a variant gains on one headline and loses on the other
        // against the baseline; where every variant moves both the same way, the chart says
        // only what it plots.
        let value = |e: &Estimate| e.exact.unwrap_or(e.p);
        let at = |v: usize| {
            points
                .iter()
                .find(|(name, ..)| *name == exp.variants[v].name)
        };
        let traded = match (higher(hx), higher(hy)) {
            (Some(bx), Some(by)) => first.iter().any(|r| {
                let Some(((_, x, y), (_, x0, y0))) = exp
                    .baseline_of(r.variant)
                    .and_then(|b| at(r.variant).zip(at(b)))
                else {
                    return false;
                };
                let gx = (value(x) - value(x0)) * if bx { 1.0 } else { -1.0 };
                let gy = (value(y) - value(y0)) * if by { 1.0 } else { -1.0 };
                gx * gy < 0.0
            }),
            // A headline with no better way (a win for one side is a loss for the other):
            // no trade-off to speak of.
            _ => false,
        };
        Some((
            format!("tradeoff{suffix}"),
            Chart::Tradeoff(crate::report::chart::Tradeoff {
                title: with_setup(
                    format!(
                        "{}{} against {}{at_words}",
                        if traded { "The trade-off: " } else { "" },
                        if traded {
                            hy.axis()
                        } else {
                            crate::labels::capitalised(&hy.axis())
                        },
                        hx.axis()
                    ),
                    exp,
                ),
                x_label: hx.axis(),
                y_label: hy.axis(),
                share: (!hx.metric, !hy.metric),
                better: (higher(hx), higher(hy)),
                level: self.level.clone(),
                points,
                left_out,
            }),
        ))
    }

    /// Each variant's chance of each state after each turn (see `once` on
    /// [`point_charts`]).
    fn per_turn(&self, once: &dyn Fn(usize) -> Option<bool>) -> Vec<(String, Chart)> {
        let exp = self.exp;
        let mut out = Vec::new();
        for r in self.first {
            let (suffix, at_words) = match once(r.variant) {
                Some(false) => continue,
                Some(true) => ("", ""),
                None => (self.suffix, self.at_words.as_str()),
            };
            if let Some(t) = r.report.tables.iter().find(|t| t.name == "per_turn") {
                out.push((
                    format!("per_turn_{}{suffix}", slug(&exp.variants[r.variant].name)),
                    Chart::Stacked {
                        title: with_setup(
                            format!(
                                "{}{at_words}: the chance of each state after each turn",
                                crate::labels::capitalised(&exp.variants[r.variant].name)
                            ),
                            exp,
                        ),
                        // A rally's end in good order is its outcome "recovered": the chart
                        // calls the state what the tables call the outcome.
                        layers: t
                            .columns
                            .iter()
                            .map(|c| match c.as_str() {
                                "good"
                                    if r.report
                                        .outcomes
                                        .iter()
                                        .any(|o| o.outcome == "recovered") =>
                                {
                                    "recovered".to_string()
                                }
                                _ => c.clone(),
                            })
                            .collect(),
                        shares: t
                            .rows
                            .iter()
                            .map(|row| row.cells.iter().map(|c| c.p).collect())
                            .collect(),
                    },
                ));
            }
        }
        out
    }

    /// Per-turn means of a battle's lines (gaps, units lost, shaken): one chart per measure,
    /// a line per variant.
    fn lines(&self) -> Vec<(String, Chart)> {
        let (exp, first, suffix) = (self.exp, self.first, self.suffix);
        let at_words = &self.at_words;
        let mut out = Vec::new();
        let Some(t0) = first[0].report.tables.iter().find(|t| t.name == "lines") else {
            return out;
        };
        for (ci, col) in t0.columns.iter().enumerate() {
            // A weakly held turn is a share, read in the table and the metrics: no chart.
            if col.starts_with("weak_") {
                continue;
            }
            let series = first
                .iter()
                .map(|r| {
                    let vals = r
                        .report
                        .tables
                        .iter()
                        .find(|t| t.name == "lines")
                        .map(|t| {
                            t.rows
                                .iter()
                                .map(|row| row.cells.get(ci).map(estimate))
                                .collect()
                        })
                        .unwrap_or_default();
                    (exp.variants[r.variant].name.clone(), vals)
                })
                .collect();
            let (title, y_label) = line_words(col, &self.trials);
            let title = with_setup(format!("{title}{at_words}"), exp);
            out.push((
                format!("lines_{col}{suffix}"),
                Chart::Lines(crate::report::chart::Lines {
                    title,
                    x_label: "after turn".into(),
                    x_values: t0.rows.iter().map(|row| row.turn.to_string()).collect(),
                    y_label,
                    level: self.level.clone(),
                    steps: true,
                    share: crate::scenario::strength::as_share(col),
                    series,
                }),
            ));
        }
        out
    }
}

/// With two variants or more: each state's share of trials after each turn as one chart, a line
/// per variant (the per-turn charts overlaid), exact lines with the estimates beside them.
pub(crate) fn per_turn_overlaid(result: &ExperimentResult, first: &[Run]) -> Vec<(String, Chart)> {
    let exp = &result.experiment;
    let tables: Vec<Option<&crate::report::Table>> = first
        .iter()
        .map(|r| r.report.tables.iter().find(|t| t.name == "per_turn"))
        .collect();
    let Some(Some(t0)) = tables.first() else {
        return Vec::new();
    };
    if first.len() < 2 {
        return Vec::new();
    }
    let level = format!("{}%", crate::report::fmt_level(exp.confidence));
    t0.columns
        .iter()
        .map(|col| {
            let series = first
                .iter()
                .zip(&tables)
                .map(|(r, t)| {
                    let vals = t
                        .and_then(|t| {
                            let k = t.columns.iter().position(|c| c == col)?;
                            Some(
                                t.rows
                                    .iter()
                                    .map(|row| row.cells.get(k).map(estimate))
                                    .collect(),
                            )
                        })
                        .unwrap_or_default();
                    (exp.variants[r.variant].name.clone(), vals)
                })
                .collect();
            (
                format!("per_turn_{}", slug(col)),
                Chart::Lines(crate::report::chart::Lines {
                    title: with_setup(
                        format!(
                            "The chance of being {} after each turn",
                            crate::labels::outcome(col).head
                        ),
                        exp,
                    ),
                    x_label: "after turn".into(),
                    x_values: t0.rows.iter().map(|row| row.turn.to_string()).collect(),
                    y_label: "chance".into(),
                    level: level.clone(),
                    steps: true,
                    share: true,
                    series,
                }),
            )
        })
        .collect()
}

/// The sweep chart and heat maps, which cover every swept value, after `out`.
pub(super) fn sweep_charts(
    result: &ExperimentResult,
    first: &[Run],
    mut out: Vec<(String, Chart)>,
) -> Vec<(String, Chart)> {
    let exp = &result.experiment;
    let per_point = exp.variants.len();
    let level = format!("{}%", crate::report::fmt_level(exp.confidence));
    let trials = crate::report::thousands(exp.trials);
    let head = Head::of(exp, &first[0].report);
    let key = head.key.clone();
    let what = head.axis();
    if let Some(x) = exp.sweep.first() {
        let ys: Vec<Option<&SetValue>> = match exp.sweep.get(1) {
            Some(y) => y.values.iter().map(Some).collect(),
            None => vec![None],
        };
        // Exact values where every run has them: the axis says so (the lines go through the
        // exact values, the estimates are dots beside them with their intervals).
        let exact = result
            .runs
            .iter()
            .all(|r| find(&r.report, &key).is_none_or(|c| c.exact.is_some()));
        let mut series = Vec::new();
        for (vi, v) in exp.variants.iter().enumerate() {
            for (yi, yv) in ys.iter().enumerate() {
                let vals = (0..x.values.len())
                    .map(|xi| {
                        let point = xi * ys.len() + yi;
                        find(&result.runs[point * per_point + vi].report, &key)
                            .map(|c| estimate(&c))
                    })
                    .collect();
                let name = match yv {
                    Some(y) => format!(
                        "{}, {} {}",
                        v.name,
                        crate::params::label_in_prose(&exp.sweep[1].key),
                        y.as_input()
                    ),
                    None => v.name.clone(),
                };
                series.push((name, vals));
            }
        }
        out.push((
            "sweep".to_string(),
            Chart::Lines(crate::report::chart::Lines {
                // What the chart shows, not the question again: the headline along the rule.
                title: with_setup(
                    format!(
                        "{}, by {}",
                        crate::labels::capitalised(&what),
                        crate::params::label_in_prose(&x.key)
                    ),
                    exp,
                ),
                x_label: axis_label(exp, x),
                x_values: x.values.iter().map(SetValue::as_input).collect(),
                y_label: if exact {
                    what.clone()
                } else {
                    format!("{what} (simulation)")
                },
                level: level.clone(),
                steps: false,
                share: !head.metric,
                series,
            }),
        ));
        if let Some(y) = exp.sweep.get(1) {
            for (vi, v) in exp.variants.iter().enumerate() {
                let mut all_exact = true;
                let cells: Vec<Vec<f64>> = (0..y.values.len())
                    .map(|yi| {
                        (0..x.values.len())
                            .map(|xi| {
                                let point = xi * y.values.len() + yi;
                                let cell = find(&result.runs[point * per_point + vi].report, &key);
                                all_exact &= cell.as_ref().is_some_and(|c| c.exact.is_some());
                                cell.map_or(f64::NAN, |c| c.exact.unwrap_or(c.p))
                            })
                            .collect()
                    })
                    .collect();
                out.push((
                    format!("heatmap_{}", slug(&v.name)),
                    Chart::Heat {
                        title: with_setup(
                            format!(
                                "{}: the {what}, {}",
                                v.name,
                                if all_exact {
                                    "exact".to_string()
                                } else {
                                    format!("estimate from {trials} trials")
                                }
                            ),
                            exp,
                        ),
                        x: (
                            axis_label(exp, x),
                            x.values.iter().map(SetValue::as_input).collect(),
                        ),
                        y: (
                            axis_label(exp, y),
                            y.values.iter().map(SetValue::as_input).collect(),
                        ),
                        range: head.metric.then(|| {
                            let all = cells.iter().flatten().filter(|v| v.is_finite());
                            let lo = all.clone().copied().fold(f64::INFINITY, f64::min);
                            let hi = all.copied().fold(f64::NEG_INFINITY, f64::max);
                            if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) }
                        }),
                        cells,
                    },
                ));
            }
        }
    }
    // One chart per variant analysed: `stem` alone for one, `stem_<variant>` for several.
    let per_variant = |stem: &str, count: usize, name: &str| {
        if count == 1 {
            stem.to_string()
        } else {
            format!("{stem}_{}", slug(name))
        }
    };
    for (name, sens) in &result.sensitivity {
        let file = per_variant("sensitivity", result.sensitivity.len(), name);
        out.push((file, sens.chart()));
    }
    for (name, b) in &result.balance {
        out.push((
            per_variant("balance", result.balance.len(), name),
            b.chart(),
        ));
    }
    for (name, solved) in &result.play {
        out.push((
            per_variant("play", result.play.len(), name),
            solved.chart(&format!(
                "{}: side A\u{2019}s best choice in each state",
                crate::labels::capitalised(name)
            )),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::meaning_phrase;

    #[test]
    fn an_axis_reads_the_parameters_meaning_as_a_phrase() {
        // Up to the first colon or semicolon, a leading scenario word dropped, and no
        // parenthesis left open by the cut.
        assert_eq!(
            meaning_phrase("the base number a Green unit's test must reach before modifiers"),
            "the base number a Green unit's test must reach before modifiers"
        );
        assert_eq!(
            meaning_phrase("morale class: the base number a test must reach (veteran 3)"),
            "morale class"
        );
        assert_eq!(
            meaning_phrase("line: a side breaks when this percentage of its units is gone"),
            "a side breaks when this percentage of its units is gone"
        );
        assert_eq!(
            meaning_phrase("lost melee rounds that destroy a unit (the source: a second; 0: pips)"),
            "lost melee rounds that destroy a unit"
        );
        assert_eq!(
            meaning_phrase("stands (or models) already lost; −1 per stand on every test"),
            "stands (or models) already lost"
        );
        assert_eq!(
            meaning_phrase("the defending unit, as --attacker"),
            "the defending unit"
        );
    }
}
