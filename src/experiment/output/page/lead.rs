//! The answer's opening words: the variant that moves the headlines most, how many variants change
//! them, what is there for scale, and where the headlines pull apart over a sweep.

use super::*;

/// The answer in a sentence, first: what the first variant the question asks about does to
/// every headline against the baseline, from and to (exact values where known), and whether that
/// is for the better. `None` where it changes none of them (the counts say so).
pub(super) fn lead(
    result: &ExperimentResult,
    comparisons: &[Comparison],
    heads: &[Head],
) -> Option<String> {
    let exp = &result.experiment;
    if !exp.sweep.is_empty() {
        return None;
    }
    let (vi, v) = exp.compared().find(|(_, v)| !v.reference)?;
    let bi = exp.baseline_of(vi)?;
    let run = |i: usize| result.runs.iter().find(|r| r.variant == i);
    let (mine, base) = (&run(vi)?.report, &run(bi)?.report);
    // `verdict = [...]`: the headlines the question asks about judge; the others are said
    // after them, beside the verdict.
    let judged = |h: &Head| exp.verdict_on.is_empty() || exp.verdict_on.contains(&h.key);
    let moves: Vec<Part> = heads
        .iter()
        .filter_map(|h| {
            let c = comparisons
                .iter()
                .find(|c| c.variant == v.name && h.is(c) && c.distinguishable)?;
            let (x, b) = (find(mine, &h.key)?, find(base, &h.key)?);
            let (x, b) = (x.exact.unwrap_or(x.p), b.exact.unwrap_or(b.p));
            let d = c.exact_difference.unwrap_or(c.difference);
            Some(Part {
                judged: judged(h),
                said: format!(
                    "{} {} from {} to {}",
                    h.noun(),
                    if d > 0.0 { "rises" } else { "falls" },
                    h.value(b),
                    h.value(x),
                ),
                better: better_way(h, d),
                gist: h
                    .condition
                    .is_none()
                    .then(|| crate::labels::gist(&h.key, d > 0.0))
                    .flatten(),
            })
        })
        .collect();
    // A headline beside the verdict does not judge.
    let ways: Vec<Option<bool>> = moves
        .iter()
        .map(|p| p.better.filter(|_| p.judged))
        .collect();
    let parts: Vec<(bool, String)> = moves
        .iter()
        .map(|p| {
            let mark = match p.better {
                Some(true) => " (better)",
                Some(false) => " (worse)",
                None => "",
            };
            (p.judged, format!("{}{mark}", p.said))
        })
        .collect();
    // `verdict = true`: the question asks whether this variant does better; the answer opens
    // with the plain word, from each headline's better direction.
    let opener = if exp.verdict {
        let better = ways.iter().filter(|w| **w == Some(true)).count();
        let worse = ways.iter().filter(|w| **w == Some(false)).count();
        let asked = heads.iter().filter(|h| judged(h)).count();
        let unchanged = asked.saturating_sub(parts.iter().filter(|(j, _)| *j).count());
        match (better, worse, unchanged) {
            (b, 0, 0) if b > 0 => "Yes. ",
            (0, w, 0) if w > 0 => "No: it does worse. ",
            (0, 0, _) => "",
            _ => "In part. ",
        }
    } else {
        ""
    };
    if parts.is_empty() {
        return exp.verdict.then(|| {
            format!(
                "No: under {}, no headline differs from {}.",
                v.name, exp.variants[bi].name
            )
        });
    }
    // With a verdict and a few words for every headline that moves, the answer says what the
    // rule does first, as a writer would ("No. The amendment saves units but leaves its place
    // in the line empty longer …"), the numbers after: what goes against the verdict, then
    // what decides it.
    if exp.verdict
        && !opener.is_empty()
        && moves.iter().all(|p| p.gist.is_some() && p.better.is_some())
    {
        return Some(said_as_a_writer(
            &moves,
            opener,
            &v.name,
            &exp.variants[bi].name,
            &still(mine, base, heads, &exp.variants[bi].name),
        ));
    }
    let join = |p: &[String]| match p {
        [one] => one.clone(),
        [rest @ .., last] => format!("{}; and {last}", rest.join("; ")),
        [] => String::new(),
    };
    let asked: Vec<String> = parts
        .iter()
        .filter(|(j, _)| *j)
        .map(|(_, t)| t.clone())
        .collect();
    let beside: Vec<String> = parts
        .iter()
        .filter(|(j, _)| !*j)
        .map(|(_, t)| t.clone())
        .collect();
    let said = match (asked.is_empty(), beside.is_empty()) {
        (_, true) => format!("{}.", join(&asked)),
        (true, false) => format!("{}.", join(&beside)),
        // A measure outside the question that moves the other way is set against it, as a
        // writer would ("Against that, fewer units are eliminated"); else said beside it.
        (false, false) => {
            let all = |p: &[String], mark: &str| p.iter().all(|t| t.ends_with(mark));
            let against = (all(&asked, "(worse)") && all(&beside, "(better)"))
                || (all(&asked, "(better)") && all(&beside, "(worse)"));
            format!(
                "{}. {}, {}.",
                join(&asked),
                match against {
                    true => "Against that",
                    false => "Outside the question's measures",
                },
                join(&beside)
            )
        }
    };
    Some(format!(
        "{opener}Under {}, against {}: {said}{}",
        v.name,
        exp.variants[bi].name,
        still(mine, base, heads, &exp.variants[bi].name)
    ))
}

/// A headline that moves, in the lead: whether the question asks about it, its sentence, which
/// way is better, and what the rule does to it in a few words where there are some.
struct Part {
    judged: bool,
    said: String,
    better: Option<bool>,
    gist: Option<&'static str>,
}

/// With a verdict and a few words for every headline that moves, the answer says what the rule
/// does first, as a writer would ("No. The amendment saves units but leaves its place in the
/// line empty longer …"), the numbers after: what goes against the verdict, then what decides
/// it (`name`'s against `base`'s, `still` the ends not yet reached).
fn said_as_a_writer(moves: &[Part], opener: &str, name: &str, base: &str, still: &str) -> String {
    let yes = opener.starts_with("Yes");
    let (point, against): (Vec<&Part>, Vec<&Part>) = moves.iter().partition(|p| match yes {
        true => p.better == Some(true),
        false => p.better == Some(false),
    });
    // "In part" and "No" lead with what the rule gains, "Yes" with what it costs.
    let (first, last) = (against, point);
    let words = |ps: &[&Part]| {
        let g: Vec<&str> = ps.iter().filter_map(|p| p.gist).collect();
        crate::labels::listed(&g)
    };
    let numbers = |ps: &[&Part]| {
        let g: Vec<&str> = ps.iter().map(|p| p.said.as_str()).collect();
        crate::labels::listed(&g)
    };
    let name = crate::labels::capitalised(name);
    // What goes against the verdict is outside the question's own measures: said so, or a
    // reader asks "but it saves units!" (writer trial 74).
    let outside = first.iter().all(|p| !p.judged) && last.iter().all(|p| p.judged);
    let (gist, said) = match (first.is_empty(), last.is_empty()) {
        (false, false) if outside => (
            format!(
                "{name} {}, but that is not what the question judges: it {}.",
                words(&first),
                words(&last)
            ),
            format!("{}, while {}", numbers(&first), numbers(&last)),
        ),
        (false, false) => (
            format!("{name} {} but {}.", words(&first), words(&last)),
            format!("{}, while {}", numbers(&first), numbers(&last)),
        ),
        (true, _) => (format!("{name} {}.", words(&last)), numbers(&last)),
        (false, true) => (format!("{name} {}.", words(&first)), numbers(&first)),
    };
    let verdict = match opener {
        o if o.starts_with("Yes") => "Yes.",
        o if o.starts_with("No") => "No.",
        _ => "In part.",
    };
    format!("{verdict} {gist} Against {base}, {said}.{still}")
}

/// Where a variant's units end in a state its baseline's never reach (the amendment's units
/// still retreating at the last turn), in a sentence: part of a change in the headline
/// outcomes is units not yet at any end. Empty where there is none of at least 1%.
fn still(
    mine: &crate::report::Report,
    base: &crate::report::Report,
    heads: &[Head],
    b: &str,
) -> String {
    let new: Vec<(String, String)> = still_outcomes(mine, base, heads)
        .into_iter()
        .map(|(key, x)| {
            (
                crate::experiment::output::answer::pct(x),
                crate::labels::outcome(&key).head,
            )
        })
        .collect();
    match &new[..] {
        [] => String::new(),
        [(p, what)] => {
            format!(" At the last turn, {p} of units are still {what} (none under {b}).")
        }
        _ => {
            let each: Vec<String> = new.iter().map(|(p, w)| format!("{p} {w}")).collect();
            let each: Vec<&str> = each.iter().map(String::as_str).collect();
            format!(
                " At the last turn, some units are where none are under {b}: {}.",
                crate::labels::listed(&each)
            )
        }
    }
}

/// The outcomes, besides the headlines, that a variant's units end in at least 1% of the time
/// where its baseline's never do (the amendment's "retreating"), with their chances (exact where
/// known): what [`still`] says and the answer's table shows in a column of its own.
fn still_outcomes(
    mine: &crate::report::Report,
    base: &crate::report::Report,
    heads: &[Head],
) -> Vec<(String, f64)> {
    let value = |c: &crate::report::Cell| c.exact.unwrap_or(c.p);
    mine.outcomes
        .iter()
        .filter(|o| !heads.iter().any(|h| h.key == o.outcome))
        .filter(|o| value(&o.cell) >= 0.01)
        .filter(|o| {
            base.outcomes
                .iter()
                .find(|x| x.outcome == o.outcome)
                .is_none_or(|x| value(&x.cell) == 0.0)
        })
        .map(|o| (o.outcome.clone(), value(&o.cell)))
        .collect()
}

/// The outcomes the answer's opening says units are "still" in at the last turn, for the
/// variant it leads with (no sweep): the answer's table gives each a column, so that a number
/// in the answer is a number in the table.
pub(super) fn still_heads(result: &ExperimentResult, heads: &[Head]) -> Vec<Head> {
    let exp = &result.experiment;
    if !exp.sweep.is_empty() {
        return Vec::new();
    }
    let Some((vi, _)) = exp.compared().find(|(_, v)| !v.reference) else {
        return Vec::new();
    };
    let Some(bi) = exp.baseline_of(vi) else {
        return Vec::new();
    };
    let run = |i: usize| result.runs.iter().find(|r| r.variant == i);
    let (Some(mine), Some(base)) = (run(vi), run(bi)) else {
        return Vec::new();
    };
    still_outcomes(&mine.report, &base.report, heads)
        .into_iter()
        .map(|(key, _)| Head::named(key, &mine.report))
        .collect()
}

/// The answer in a sentence or two, first, where the question asks about several variants
/// each on its own (no verdict on one of them, no sweep): the first headline under the
/// baseline, then under each variant with its change; each further headline's range where
/// every variant moves it the same way. `None` with fewer than two such variants.
pub(super) fn lead_each(
    result: &ExperimentResult,
    comparisons: &[Comparison],
    heads: &[Head],
) -> Option<String> {
    let exp = &result.experiment;
    if !exp.sweep.is_empty() || exp.verdict {
        return None;
    }
    let asked: Vec<(usize, &str)> = exp
        .compared()
        .filter(|(_, v)| !v.reference)
        .map(|(i, v)| (i, v.name.as_str()))
        .collect();
    if asked.len() < 2 {
        return None;
    }
    // Each baseline with the variants asked about against it, in the file's order.
    let mut groups: Vec<(usize, Vec<(usize, &str)>)> = Vec::new();
    for &(i, name) in &asked {
        let b = exp.baseline_of(i)?;
        match groups.iter_mut().find(|g| g.0 == b) {
            Some(g) => g.1.push((i, name)),
            None => groups.push((b, vec![(i, name)])),
        }
    }
    let report = |i: usize| {
        result
            .runs
            .iter()
            .find(|r| r.variant == i)
            .map(|r| &r.report)
    };
    let value = |i: usize, h: &Head| find(report(i)?, &h.key).map(|c| c.exact.unwrap_or(c.p));
    // Each variant's value and change (exact where known), `None` for the change where chance
    // could explain it.
    let changes = |h: &Head, asked: &[(usize, &str)]| -> Option<Vec<(String, f64, Option<f64>)>> {
        asked
            .iter()
            .map(|&(i, name)| {
                let c = comparisons.iter().find(|c| c.variant == name && h.is(c))?;
                let d = match (exactly_same(c), c.distinguishable) {
                    (true, _) | (_, false) => None,
                    (false, true) => Some(c.exact_difference.unwrap_or(c.difference)),
                };
                Some((name.to_string(), value(i, h)?, d))
            })
            .collect()
    };
    let way = |ds: &[(String, f64, Option<f64>)]| {
        if ds.iter().all(|x| x.2.is_some_and(|d| d > 0.0)) {
            Some("rises")
        } else if ds.iter().all(|x| x.2.is_some_and(|d| d < 0.0)) {
            Some("falls")
        } else {
            None
        }
    };
    let h0 = heads.first()?;
    if let [(b, group)] = &groups[..] {
        return lead_group(
            (*b, &exp.variants[*b].name),
            group,
            heads,
            &changes,
            &value,
            &way,
        );
    }
    // Several baselines (a question asked within each of several systems or units): a
    // sentence for each, its further headlines said only where every variant moves them the
    // same way, from one baseline or another.
    let mut out: Vec<String> = Vec::new();
    let mut gains: Vec<(&str, f64)> = Vec::new();
    for (b, group) in &groups {
        let first = changes(h0, group)?;
        let each: Vec<String> = match &first[..] {
            [(name, x, d)] => vec![match d {
                Some(d) => format!("with {name}, {} ({})", h0.value(*x), h0.diff(*d)),
                None => format!("with {name}, {} (the same)", h0.value(*x)),
            }],
            _ => first
                .iter()
                .map(|(name, x, d)| change_said(h0, name, *x, *d, true))
                .collect(),
        };
        gains.extend(
            group
                .iter()
                .zip(&first)
                .filter_map(|((_, n), c)| Some((*n, c.2?))),
        );
        out.push(format!(
            "With {}, {} is {}; {}.",
            exp.variants[*b].name,
            h0.noun(),
            h0.value(value(*b, h0)?),
            each.join("; ")
        ));
    }
    // Which change is largest and which smallest, where they all go one way. Not where two
    // rule sets are played well: what good play is worth under each, and what it does to each
    // side's chance, is said before (`play_worth`), and the change of one side's chance alone
    // read as the opposite of it (writer trial 70).
    let played = result.play.len() >= 2;
    let by_size = |a: &&(&str, f64), b: &&(&str, f64)| a.1.abs().total_cmp(&b.1.abs());
    if !played
        && gains.len() == asked.len()
        && gains.len() > 1
        && (gains.iter().all(|g| g.1 > 0.0) || gains.iter().all(|g| g.1 < 0.0))
        && let (Some(big), Some(small)) =
            (gains.iter().max_by(by_size), gains.iter().min_by(by_size))
    {
        // Of two, one is larger, not largest.
        out.push(match gains.len() {
            2 => format!(
                "The change is larger under {} ({}) than under {} ({}).",
                big.0,
                h0.diff(big.1),
                small.0,
                h0.diff(small.1)
            ),
            _ => format!(
                "The change is largest under {} ({}) and smallest under {} ({}).",
                big.0,
                h0.diff(big.1),
                small.0,
                h0.diff(small.1)
            ),
        });
    }
    for h in heads[1..].iter().filter(|_| !played) {
        let Some(ds) = changes(h, &asked) else {
            continue;
        };
        if let Some(w) = way(&ds) {
            out.push(format!(
                "{} {w} under every one of them{}.",
                crate::labels::capitalised(&h.noun()),
                better_said(h, ds[0].2.unwrap_or(0.0))
            ));
        }
    }
    Some(out.join(" "))
}

/// A variant's name, its value, and its change (`None`: the same, or chance could explain it).
type Change = (String, f64, Option<f64>);

/// Each of a group's variants (index, name) with its [`Change`] on a headline.
type Changes<'a> = dyn Fn(&Head, &[(usize, &'a str)]) -> Option<Vec<Change>> + 'a;

/// A variant's value and its change, or "the same" where it has none: "Green: 74.4%
/// (−15.76 points)"; `once`: which way is better is said elsewhere.
fn change_said(h: &Head, name: &str, x: f64, d: Option<f64>, once: bool) -> String {
    match d {
        Some(d) if once => format!("{name}: {} ({})", h.value(x), h.diff(d)),
        Some(d) => format!(
            "{name}: {} ({}{})",
            h.value(x),
            h.diff(d),
            better_said(h, d).replace(" (", ", ").replace(')', "")
        ),
        None => format!("{name}: {} (the same)", h.value(x)),
    }
}

/// [`lead_each`] with one baseline (`b`): its value, each variant's, and each further
/// headline's range where every variant moves it the same way.
fn lead_group<'a>(
    (b, base): (usize, &str),
    group: &[(usize, &'a str)],
    heads: &[Head],
    changes: &Changes<'a>,
    value: &dyn Fn(usize, &Head) -> Option<f64>,
    way: &dyn Fn(&[Change]) -> Option<&'static str>,
) -> Option<String> {
    let h0 = heads.first()?;
    let first = changes(h0, group)?;
    let b0 = value(b, h0)?;
    // Said once where every variant moves it the same way; else beside each change.
    let once = way(&first).is_some();
    let each: Vec<String> = first
        .iter()
        .map(|(name, x, d)| change_said(h0, name, *x, *d, once))
        .collect();
    let mut out = format!(
        "With {}, {} is {}; {} \u{2014} {}.",
        base,
        h0.noun(),
        h0.value(b0),
        match way(&first) {
            Some(w) => format!(
                "it {w} under every variant{}",
                better_said(h0, first[0].2.unwrap_or(0.0))
            ),
            None => "under each variant".to_string(),
        },
        each.join("; ")
    );
    for h in &heads[1..] {
        let (Some(ds), Some(bv)) = (changes(h, group), value(b, h)) else {
            continue;
        };
        let Some(w) = way(&ds) else {
            continue;
        };
        let lo = ds.iter().map(|x| x.1).fold(f64::INFINITY, f64::min);
        let hi = ds.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
        let d = ds[0].2.unwrap_or(0.0);
        out += &format!(
            " {} {w} under every variant too, from {} to between {} and {}{}.",
            crate::labels::capitalised(&h.noun()),
            h.value(bv),
            h.value(lo),
            h.value(hi),
            better_said(h, d)
        );
    }
    Some(out)
}

/// Which headlines each variant the question asks about changes, in one sentence, the
/// variants that change the same ones said together: "25% rules + amendment changes all
/// three; 25% rules + return roll only changes none of them" (and whether exactly). `led`: the
/// variant the answer has just spoken of; where it changes every headline, the others that do
/// are said as "… changes all three headlines too".
pub(super) fn counts(
    result: &ExperimentResult,
    comparisons: &[Comparison],
    heads: &[Head],
    led: Option<&str>,
) -> String {
    let exp = &result.experiment;
    let asked: Vec<&str> = exp
        .compared()
        .filter(|(_, v)| !v.reference)
        .map(|(_, v)| v.name.as_str())
        .collect();
    let exact_all = heads.iter().all(|h| {
        result
            .runs
            .iter()
            .all(|r| find(&r.report, &h.key).is_some_and(|c| c.exact.is_some()))
    });
    let every = every_headline(heads);
    // "All 3 variants compared" where the setup lists more (baselines, a variant for scale):
    // the count is of those compared.
    let compared = if exp.variants.len() - 1 > asked.len() {
        " compared"
    } else {
        ""
    };
    let groups = alike(result, comparisons, heads, &asked);
    // Every variant changes every headline: the sentences before have said each change, and
    // "Both variants compared change both headlines" only repeats them (writer trial 66).
    let all_change_all = matches!(&groups[..], [(changed, names)]
        if changed.len() == heads.len() && names.len() == asked.len() && heads.len() > 1);
    let parts: Vec<String> = groups
        .iter()
        .filter(|_| !all_change_all)
        .filter_map(|(changed, names)| {
            // The variant just spoken of changes every headline: the others that do too
            // follow it ("… changes all three headlines too"), and it is not said again.
            if let Some(l) = led.filter(|l| names.contains(l) && changed.len() == heads.len()) {
                let rest: Vec<&str> = names.iter().copied().filter(|n| *n != l).collect();
                let verb = if rest.len() == 1 { "changes" } else { "change" };
                return (!rest.is_empty()).then(|| {
                    format!(
                        "{} {verb} {} too",
                        crate::labels::listed(&rest),
                        every_headline(heads)
                    )
                });
            }
            let who = match (names.len(), asked.len()) {
                (2, 2) => format!("both variants{compared}"),
                (n, a) if n == a && n > 2 => format!("all {n} variants{compared}"),
                _ => crate::labels::listed(names),
            };
            Some(match (changed.len(), heads.len(), names.len()) {
                (0, 1, 1) => format!("{who} does not change {every}"),
                (0, 1, _) => format!("{who} do not change {every}"),
                (_, _, 1) => format!("{who} changes {}", what_changed(heads, changed)),
                _ => format!("{who} change {}", what_changed(heads, changed)),
            })
        })
        .collect();
    // How sure, and what is for scale, in a sentence of its own after them.
    let sure = match exact_all {
        true => "These are exact values",
        false => "Each change said is more than chance explains",
    };
    let scale = scale_said(exp);
    if parts.is_empty() {
        return format!("{sure}{scale}.");
    }
    format!(
        "{}. {sure}{scale}.",
        crate::labels::capitalised(&parts.join("; "))
    )
}

/// The variants asked about (`asked`) that change the same headlines, together, in the
/// file's order: (the headlines' indices, the variants).
fn alike<'a>(
    result: &ExperimentResult,
    comparisons: &[Comparison],
    heads: &[Head],
    asked: &[&'a str],
) -> Vec<(Vec<usize>, Vec<&'a str>)> {
    let moved: Vec<Vec<String>> = heads
        .iter()
        .map(|h| {
            moved(result, comparisons, h)
                .into_iter()
                .map(|m| m.0)
                .collect()
        })
        .collect();
    let mut groups: Vec<(Vec<usize>, Vec<&str>)> = Vec::new();
    for name in asked {
        let changed: Vec<usize> = (0..heads.len())
            .filter(|&i| moved[i].iter().any(|m| m == name))
            .collect();
        match groups.iter_mut().find(|g| g.0 == changed) {
            Some(g) => g.1.push(name),
            None => groups.push((changed, vec![name])),
        }
    }
    groups
}

/// Every headline, in words: "both headlines", "all three headlines"; one by its label.
fn every_headline(heads: &[Head]) -> String {
    match heads.len() {
        1 => format!("\u{201c}{}\u{201d}", heads[0].label().head),
        2 => "both headlines".to_string(),
        3 => "all three headlines".to_string(),
        4 => "all four headlines".to_string(),
        n => format!("all {n} headlines"),
    }
}

/// The headlines `changed` (indices into `heads`) in words: "neither headline", "all three
/// headlines", "only “eliminated” and “turns its place stood empty”".
fn what_changed(heads: &[Head], changed: &[usize]) -> String {
    match changed.len() {
        0 => match heads.len() {
            2 => "neither headline".to_string(),
            3 => "none of the three".to_string(),
            4 => "none of the four".to_string(),
            _ => "none of them".to_string(),
        },
        n if n == heads.len() => every_headline(heads),
        _ => {
            let quoted: Vec<String> = changed
                .iter()
                .map(|&i| format!("\u{201c}{}\u{201d}", heads[i].label().head))
                .collect();
            let quoted: Vec<&str> = quoted.iter().map(String::as_str).collect();
            format!("only {}", crate::labels::listed(&quoted))
        }
    }
}

/// The variants shown for scale, as the end of a bracket: "; Rank & File is there for scale
/// only" (empty without one).
fn scale_said(exp: &crate::experiment::Experiment) -> String {
    let scale: Vec<&str> = exp
        .variants
        .iter()
        .filter(|v| v.reference)
        .map(|v| v.name.as_str())
        .collect();
    match scale.len() {
        0 => String::new(),
        1 => format!("; {} is there for comparison only", scale[0]),
        _ => format!("; {} are there for comparison only", scale.join(" and ")),
    }
}

/// Whether the variant named `name` is there for scale (`reference = true`), not one the
/// question asks about.
pub(crate) fn is_reference(result: &ExperimentResult, name: &str) -> bool {
    result
        .experiment
        .variants
        .iter()
        .any(|v| v.reference && v.name == name)
}

/// The variants shown for scale, in a sentence: each one's value of every headline ("For
/// scale, under Rank & File, the chance of being removed is 95.96%, …").
pub(super) fn for_scale(result: &ExperimentResult, heads: &[Head]) -> Option<String> {
    let exp = &result.experiment;
    let said: Vec<String> = result
        .runs
        .iter()
        .filter(|r| exp.variants[r.variant].reference && r.point == result.runs[0].point)
        .map(|r| {
            let values: Vec<String> = heads
                .iter()
                .filter_map(|h| {
                    // In the variant's own words: Rank & File's units are "removed" where
                    // the baseline's are "eliminated".
                    let own = r
                        .report
                        .outcomes
                        .iter()
                        .find(|o| {
                            !h.metric
                                && o.outcome != h.key
                                && super::super::answer::find_same(&o.outcome, &h.key)
                        })
                        .map_or_else(|| h.noun(), |o| crate::labels::outcome(&o.outcome).noun);
                    find(&r.report, &h.key)
                        .map(|c| format!("{own} is {}", h.value(c.exact.unwrap_or(c.p))))
                })
                .collect();
            let values: Vec<&str> = values.iter().map(String::as_str).collect();
            format!(
                "under {}, {}",
                exp.variants[r.variant].name,
                crate::labels::listed(&values)
            )
        })
        .collect();
    (!said.is_empty()).then(|| format!("For comparison, {}.", said.join("; ")))
}

/// A sweep point where headlines pull apart, with each headline's change there.
pub(super) type Apart<'a> = (&'a Vec<SetValue>, Vec<(&'a Head, f64)>);

/// At each point swept: the headlines that fall and those that rise under `variant`, where
/// both do.
fn apart_at<'a>(
    comparisons: &[Comparison],
    heads: &'a [Head],
    variant: &str,
    points: &[&'a Vec<SetValue>],
) -> Vec<Apart<'a>> {
    let mut apart: Vec<Apart> = Vec::new();
    for p in points {
        let change = |h: &Head| {
            comparisons
                .iter()
                .find(|c| c.variant == variant && &&c.point == p && h.is(c) && c.distinguishable)
                .map(|c| c.exact_difference.unwrap_or(c.difference))
        };
        let moves: Vec<(&Head, f64)> = heads
            .iter()
            .filter_map(|h| change(h).map(|d| (h, d)))
            .collect();
        // Where every headline says which way is better, they pull apart when one gets
        // better and another worse (fewer rally phases and more recovered both improve);
        // else when one rises and another falls.
        use crate::labels::Better;
        let directed = moves.iter().all(|m| m.0.label().better != Better::Neither);
        let good = |m: &(&Head, f64)| (m.1 > 0.0) == (m.0.label().better == Better::Higher);
        let apart_here = if directed {
            moves.iter().any(good) && !moves.iter().all(good)
        } else {
            moves.iter().any(|m| m.1 > 0.0) && moves.iter().any(|m| m.1 < 0.0)
        };
        if apart_here {
            apart.push((p, moves));
        }
    }
    apart
}

/// Which side of the pull a move is on: for the better (true) or the worse where every
/// headline says which way is better, else up (true) or down.
fn side(moves: &[(&Head, f64)], m: &(&Head, f64)) -> bool {
    use crate::labels::Better;
    if moves.iter().all(|m| m.0.label().better != Better::Neither) {
        (m.1 > 0.0) == (m.0.label().better == Better::Higher)
    } else {
        m.1 > 0.0
    }
}

/// The moves on one side, each with its amount: "recovered falls by 2.5 points".
fn said(moves: &[(&Head, f64)], up: bool) -> Vec<String> {
    moves
        .iter()
        .filter(|m| side(moves, m) == up)
        .map(|(h, d)| {
            format!(
                "{} {} by {}",
                h.noun(),
                if *d > 0.0 { "rises" } else { "falls" },
                h.diff(d.abs()).trim_start_matches('+')
            )
        })
        .collect()
}

/// "A falls", "A and B move for the better": the nouns on one side, with their verb.
fn moving(moves: &[(&Head, f64)], up: bool) -> String {
    let n: Vec<&(&Head, f64)> = moves.iter().filter(|m| side(moves, m) == up).collect();
    let words: Vec<String> = n.iter().map(|m| m.0.noun()).collect();
    format!("{} {}", words.join(" and "), verb_of(moves, &n, up))
}

/// The headlines on one side, quoted by their labels.
fn nouns(moves: &[(&Head, f64)], up: bool) -> Vec<String> {
    moves
        .iter()
        .filter(|m| side(moves, m) == up)
        .map(|m| format!("\u{201c}{}\u{201d}", m.0.label().head))
        .collect()
}

/// The variants under which two headlines move in opposite directions from the baseline (each
/// change real: exact, or more than chance explains), in a sentence each: the trade-off a
/// designer weighs. With a sweep, the settings where they do (every one, or which).
pub(super) fn pull_apart(
    result: &ExperimentResult,
    comparisons: &[Comparison],
    heads: &[Head],
    led: Option<&str>,
) -> Vec<String> {
    let exp = &result.experiment;
    // The points swept (one, empty, without a sweep), in the runs' order.
    let mut points: Vec<&Vec<SetValue>> = Vec::new();
    for r in &result.runs {
        if !points.contains(&&r.point) {
            points.push(&r.point);
        }
    }
    let mut out = Vec::new();
    // Variants that pull apart the same way with no sweep, said together: (names, the
    // headlines that fall, those that rise).
    type Said = (Vec<String>, &'static str);
    let mut alike: Vec<(Vec<&str>, Said, Said)> = Vec::new();
    for (_, v) in exp
        .compared()
        .filter(|(_, v)| !v.reference && Some(v.name.as_str()) != led)
    {
        let apart = apart_at(comparisons, heads, &v.name, &points);
        match &apart[..] {
            [] => {}
            [(p, moves)] if p.is_empty() => {
                let down = nouns(moves, false);
                let up = nouns(moves, true);
                let on = |flag: bool| -> Vec<&(&Head, f64)> {
                    moves.iter().filter(|m| side(moves, m) == flag).collect()
                };
                let down = (down, verb_of(moves, &on(false), false));
                let up = (up, verb_of(moves, &on(true), true));
                match alike.iter_mut().find(|a| a.1 == down && a.2 == up) {
                    Some(a) => a.0.push(&v.name),
                    None => alike.push((vec![&v.name], down, up)),
                }
            }
            [(p, moves)] => out.push(format!(
                "Under {}{}, {} while {}: the measures pull apart.",
                v.name,
                if p.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", super::super::answer::point_words(exp, p))
                },
                said(moves, false).join(" and "),
                said(moves, true).join(" and ")
            )),
            _ => {
                let (_, first) = &apart[0];
                let everywhere = apart.len() == points.len();
                out.push(format!(
                    "Under {}, the measures pull apart {}: {} while {} (at {}: {} while {}).",
                    v.name,
                    if everywhere {
                        format!("at every one of the {} settings swept", points.len())
                    } else {
                        format!(
                            "at {} of the {} settings swept ({})",
                            apart.len(),
                            points.len(),
                            apart
                                .iter()
                                .map(|(p, _)| super::super::answer::point_words(exp, p))
                                .collect::<Vec<_>>()
                                .join("; ")
                        )
                    },
                    moving(first, false),
                    moving(first, true),
                    super::super::answer::point_words(exp, apart[0].0),
                    said(first, false).join(" and "),
                    said(first, true).join(" and ")
                ));
            }
        }
    }
    let alike: Vec<String> = alike
        .into_iter()
        .map(|(names, down, up)| {
            let many = names.len() > 1;
            let names = match &names[..] {
                [one] => one.to_string(),
                [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
                [] => String::new(),
            };
            // After the lead's own variant: the same split, said of the others in a sentence of
            // their own ("Under X, the headlines split the same way"), not a clause hung on a
            // long name.
            let opening = match (led.is_some(), many) {
                (true, false) => format!("Under {names}, the measures split the same way"),
                (true, true) => format!("Under {names} alike, the measures split the same way"),
                (false, _) => format!("The measures pull apart under {names}"),
            };
            format!(
                "{opening}: {} {}{} while {} {}.",
                down.0.join(" and "),
                down.1,
                if down.1.contains(',') { "," } else { "" },
                up.0.join(" and "),
                up.1
            )
        })
        .collect();
    alike.into_iter().chain(out).collect()
}

/// The verb for the headlines `n` of `moves` on one side of a pull: "falls"/"rise" where all of
/// `n` move one way and the pull is by direction, else "moves for the better" and the like.
pub(super) fn verb_of(moves: &[(&Head, f64)], n: &[&(&Head, f64)], up: bool) -> &'static str {
    use crate::labels::Better;
    let directed = moves.iter().all(|m| m.0.label().better != Better::Neither);
    let one = n.len() == 1;
    let rising = n.iter().all(|m| m.1 > 0.0);
    let falling = n.iter().all(|m| m.1 < 0.0);
    match (directed, up, one) {
        (false, true, true) => "rises",
        (false, true, false) => "rise",
        (false, false, true) => "falls",
        (false, false, false) => "fall",
        // By better and worse: the plain verb where the group moves one way, and which way
        // it is for.
        (true, true, true) if rising => "rises (better)",
        (true, true, true) if falling => "falls (better)",
        (true, false, true) if rising => "rises (worse)",
        (true, false, true) if falling => "falls (worse)",
        (true, true, _) => "move for the better",
        (true, false, _) => "move for the worse",
    }
}
