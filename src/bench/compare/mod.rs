//! `bench --compare`: a bench against a saved one (a baseline), case by case, judged from
//! everything the two recorded. One estimator throughout: each side's figure is the median of
//! its timed runs (of every round's runs, pooled, when a side is several files), the change is
//! the ratio of those two medians — the very figures printed beside it — and its interval
//! holds that ratio at 95% at least. "× reference" is the median of the paired ratios to the
//! hand loop, as `bench` prints it. A row is `unreliable` when either side's threads waited for
//! a core more than [`MOST_WAITED`] of their time, or the two sides' shares differ by more than
//! [`MOST_WAITED_APART`]; two benches that ran different threads, sampler or settings are not
//! compared at all ([`differs`]). Verdicts: faster, slower, same, unreliable; the command exits
//! 1 on a reliable `slower` and 3 when a row could not be judged.

use morale_lab::error::{Error, Result};
use morale_lab::report::align;

use super::{Bench, CpuUse, Plan, Run, Spread, median_interval, median_of_sorted, provenance};

/// Threads that waited for a core more than this share of their time (on either side): the
/// machine's other work, not the code, may be what the figures show. 5%: on a quiet machine
/// the share measured here stays under 1%; one busy process beside a 2-thread bench on 2 cores
/// makes it 30–50%.
pub const MOST_WAITED: f64 = 0.05;

/// The two sides' waited shares apart by more than this (in share of the time): a difference in
/// load of that size moves a rate by about as much, so it is not set against the code. 2
/// points, a fifth of the default threshold of 10%.
pub const MOST_WAITED_APART: f64 = 0.02;

/// Where a side recorded no waited share (a system that does not say): a 1-minute load
/// average at its start above this share of its logical cores.
pub const MOST_LOAD: f64 = 0.5;

/// The least confidence of a change's interval.
pub const CONFIDENCE: f64 = 0.95;

/// Read a saved bench (`bench --save`, or `--format json`'s output), of this layout or
/// [`provenance::OLDEST_READ`] (upgraded: its paired ratios made a spread).
///
/// # Errors
/// Not JSON of a bench, or of a layout not read.
#[cfg(test)]
pub fn parse(text: &str, name: &str) -> Result<Bench> {
    parse_as(text, "--compare", name)
}

/// A saved bench given with `flag` (`--compare` or `--to`), which its errors name: read as
/// [`parse`] reads it, and refused where its figures disagree with the runs it recorded.
///
/// # Errors
/// Not JSON of a bench, of a layout not read, or an edited one.
pub fn parse_as(text: &str, flag: &str, name: &str) -> Result<Bench> {
    let bad = |why: String| Error::Conflict(format!("{flag} {name}: {why}"));
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| bad(format!("not a file written by bench --save ({e})")))?;
    let schema = v.get("schema").and_then(serde_json::Value::as_u64);
    let read = u64::from(provenance::OLDEST_READ)..=u64::from(provenance::SCHEMA);
    if !schema.is_some_and(|s| read.contains(&s)) {
        return Err(bad(format!(
            "written by bench --save of {}, and this build reads layouts {} to {}; save the baseline again with this build",
            schema.map_or_else(|| "no known layout".into(), |s| format!("layout {s}")),
            provenance::OLDEST_READ,
            provenance::SCHEMA
        )));
    }
    let mut b: Bench = serde_json::from_value(v)
        .map_err(|e| bad(format!("not a file written by bench --save ({e})")))?;
    for c in &mut b.cases {
        if c.to_reference.is_none() && !c.legacy_ratio_samples.is_empty() {
            c.to_reference = Some(Spread::of(
                std::mem::take(&mut c.legacy_ratio_samples),
                "ratio",
            ));
        }
        if c.per_second.unit.is_empty() {
            c.per_second.unit = "trials/s".into();
        }
    }
    // A figure a bench could not have measured (a rate or a time of zero, below zero, or not
    // a number) is an edited or damaged file, not a verdict to give.
    let bad_sample = |x: &f64| !(x.is_finite() && *x > 0.0);
    for c in &b.cases {
        if c.per_second.samples.iter().any(bad_sample)
            || c.to_reference
                .as_ref()
                .is_some_and(|r| r.samples.iter().any(bad_sample))
        {
            return Err(bad(format!(
                "case '{}' ({}) has a run's figure that is not a positive number: an edited or damaged file",
                c.case, c.sampler
            )));
        }
    }
    for e in &b.exact {
        if e.ms.samples.iter().any(bad_sample) {
            return Err(bad(format!(
                "exact case '{}' has a run's time that is not a positive number: an edited or damaged file",
                e.case
            )));
        }
    }
    for e in &mut b.exact {
        if e.ms.unit.is_empty() {
            e.ms.unit = "ms".into();
        }
    }
    if let Some(why) = disagrees_with_itself(&b) {
        return Err(bad(format!(
            "{why}: an edited or damaged file, not a verdict to give; save it again with bench --save"
        )));
    }
    Ok(b)
}

/// Where a saved result's figures disagree with the runs it recorded beside them (a file
/// from 2026-12-01 on records every run's wall, processor and waiting time): a rate that is
/// not the run's trials over its wall time, a solve's time that is not its batch's, a run
/// count that is not the figures', or processor use that is not the runs' medians. A hand edit
/// of one of them would otherwise give a verdict of its own making.
fn disagrees_with_itself(b: &Bench) -> Option<String> {
    let threads = b.machine.threads.max(1) as f64;
    // A figure's own timing is part of the run's wall time, never more than it; it may leave
    // out much of it (a scenario's run also solves it exactly and writes its report, which
    // under load or in short runs can take longer than the trials).
    let off = |figure_s: f64, wall_s: f64| wall_s / figure_s < 0.99;
    let use_of = |runs: &[Run], threads: f64| -> Option<CpuUse> {
        let of = |f: fn(&Run) -> Option<f64>| -> Option<Vec<f64>> {
            runs.iter()
                .map(|r| f(r).map(|x| x / (r.wall_s * threads)))
                .collect()
        };
        Some(CpuUse {
            busy: Spread::of(of(|r| r.cpu_s)?, "share").median,
            waited: Spread::of(of(|r| r.waited_s)?, "share").median,
        })
    };
    // The share waited of the time the threads were ready to run (files from 2026-12-01 on);
    // a file saved before then took it of wall time × threads, and is read as it was saved.
    let waited_of_ready = |runs: &[Run]| -> Option<f64> {
        let shares: Option<Vec<f64>> = runs
            .iter()
            .map(|r| {
                let (on, waited) = (r.cpu_s?, r.waited_s?);
                Some(if on + waited > 0.0 {
                    waited / (on + waited)
                } else {
                    0.0
                })
            })
            .collect();
        Some(Spread::of(shares?, "share").median)
    };
    let use_off =
        |said: Option<CpuUse>, runs: &[Run], threads: f64| match (said, use_of(runs, threads)) {
            (Some(s), Some(r)) => {
                let waited_off = (s.waited - r.waited).abs() > 1e-6
                    && waited_of_ready(runs).is_none_or(|w| (s.waited - w).abs() > 1e-6);
                (s.busy - r.busy).abs() > 1e-6 || waited_off
            }
            _ => false,
        };
    let series = b
        .cases
        .iter()
        .map(|c| {
            (
                format!("case '{}' ({})", c.case, c.sampler),
                c.trials,
                &c.per_second,
                &c.runs,
                c.cpu,
            )
        })
        .chain(b.references.iter().map(|r| {
            (
                format!("'{}'", r.reference),
                r.trials,
                &r.per_second,
                &r.runs,
                r.cpu,
            )
        }));
    for (name, trials, rate, runs, cpu) in series {
        if runs.is_empty() {
            continue;
        }
        if runs.len() != rate.samples.len() {
            return Some(format!(
                "{name} has {} runs' figures and {} runs' times",
                rate.samples.len(),
                runs.len()
            ));
        }
        if let Some(i) =
            (0..runs.len()).find(|&i| off(trials as f64 / rate.samples[i], runs[i].wall_s))
        {
            return Some(format!(
                "{name}: run {} of {} gives {:.4e} trials/s, but its {} trials took {:.4} s",
                i + 1,
                runs.len(),
                rate.samples[i],
                trials,
                runs[i].wall_s
            ));
        }
        if use_off(cpu, runs, threads) {
            return Some(format!(
                "{name}: its processor use is not that of the runs it recorded"
            ));
        }
    }
    for e in &b.exact {
        if e.runs.is_empty() || e.solves_a_run == 0 {
            continue;
        }
        if e.runs.len() != e.ms.samples.len() {
            return Some(format!(
                "exact case '{}' has {} runs' figures and {} runs' times",
                e.case,
                e.ms.samples.len(),
                e.runs.len()
            ));
        }
        let k = f64::from(e.solves_a_run);
        if let Some(i) =
            (0..e.runs.len()).find(|&i| off(e.ms.samples[i] * k / 1e3, e.runs[i].wall_s))
        {
            return Some(format!(
                "exact case '{}': batch {} of {} gives {:.4} ms a solve, but its {} solves took {:.4} s",
                e.case,
                i + 1,
                e.runs.len(),
                e.ms.samples[i],
                e.solves_a_run,
                e.runs[i].wall_s
            ));
        }
        if use_off(e.cpu, &e.runs, 1.0) {
            return Some(format!(
                "exact case '{}': its processor use is not that of the runs it recorded",
                e.case
            ));
        }
    }
    None
}

/// What a comparison called a row.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Faster beyond the noise and the threshold.
    Faster,
    /// Slower beyond the noise and the threshold: a regression.
    Slower,
    /// Neither.
    Same,
    /// Not judged, and why (the machine was busy on a side, or too few runs).
    Unreliable(String),
}

impl Verdict {
    /// `faster`, `slower`, `same`, or `unreliable: why`.
    pub fn text(&self) -> String {
        match self {
            Verdict::Faster => "faster".into(),
            Verdict::Slower => "slower".into(),
            Verdict::Same => "same".into(),
            Verdict::Unreliable(why) => format!("unreliable: {why}"),
        }
    }
}

/// A change of speed, new over old: the ratio of the two medians, its interval, and the verdict
/// on the figures alone.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The old side's median.
    pub old: f64,
    /// The new side's median.
    pub new: f64,
    /// `new / old`: exactly the ratio of the two figures shown.
    pub ratio: f64,
    /// The interval's lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// The interval's confidence (at least [`CONFIDENCE`] where the runs allow it).
    pub confidence: f64,
    /// faster, slower or same.
    pub verdict: Verdict,
}

/// The change from `old` to `new` (each every timed run's figure, higher faster): the ratio of
/// their medians, with an interval from each median's own, taken at √[`CONFIDENCE`] (order
/// statistics, whatever the distribution of the runs): the ratio lies between the ratios of
/// their far ends with probability [`CONFIDENCE`] at least, the sides being independent. Called
/// faster or slower when the interval lies wholly on that side of 1 and the ratio passes
/// `threshold`. `None` with fewer than two runs a side.
pub fn change(old: &[f64], new: &[f64], threshold: f64) -> Option<Change> {
    if old.len() < 2 || new.len() < 2 {
        return None;
    }
    let side = |xs: &[f64]| {
        let mut xs = xs.to_vec();
        xs.sort_by(f64::total_cmp);
        let (lo, hi, c) = median_interval(&xs, CONFIDENCE.sqrt());
        (median_of_sorted(&xs), lo, hi, c)
    };
    let (o, o_lo, o_hi, o_c) = side(old);
    let (n, n_lo, n_hi, n_c) = side(new);
    let (ratio, low, high) = (n / o, n_lo / o_hi, n_hi / o_lo);
    let verdict = if low > 1.0 && ratio > 1.0 + threshold {
        Verdict::Faster
    } else if high < 1.0 && ratio < 1.0 - threshold {
        Verdict::Slower
    } else {
        Verdict::Same
    };
    Some(Change {
        old: o,
        new: n,
        ratio,
        low,
        high,
        confidence: o_c * n_c,
        verdict,
    })
}

/// How busy the machine was for one side of a row, as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Contention {
    /// The share of their time the threads waited for a core (the worst round's median).
    pub waited: Option<f64>,
    /// The 1-minute load average at the start over the logical cores (the worst round's).
    pub load: Option<f64>,
}

impl Contention {
    /// A side's contention for a row measured with processor use `cpu` in each of its files.
    fn of(side: &[Bench], cpu: &[Option<CpuUse>]) -> Contention {
        let waited = if cpu.iter().all(Option::is_some) && !cpu.is_empty() {
            cpu.iter().flatten().map(|u| u.waited).reduce(f64::max)
        } else {
            None
        };
        let load = side
            .iter()
            .filter_map(|b| {
                b.machine
                    .load_before
                    .map(|l| l[0] / b.machine.cores.max(1) as f64)
            })
            .reduce(f64::max);
        Contention { waited, load }
    }
}

/// A share as a reader takes it: `0.4%`, `38%`.
fn share_text(x: f64) -> String {
    if x < 0.1 {
        format!("{:.1}%", x * 100.0)
    } else {
        format!("{:.0}%", x * 100.0)
    }
}

/// Why a row cannot be judged from what was recorded, if it cannot: either side's threads
/// waited for a core more than [`MOST_WAITED`] of their time, or the two differ by more than
/// [`MOST_WAITED_APART`]; where a side recorded no waited share, a load average above
/// [`MOST_LOAD`] of the cores.
pub fn unreliable(old: Contention, new: Contention) -> Option<String> {
    match (old.waited, new.waited) {
        (Some(o), Some(n)) => {
            (o > MOST_WAITED || n > MOST_WAITED || (o - n).abs() > MOST_WAITED_APART).then(|| {
                format!(
                    "threads waited {} now, {} then",
                    share_text(n),
                    share_text(o)
                )
            })
        }
        // A side without a waited share is judged by its load at the start, the other by
        // its own waited share.
        _ => {
            let busy = |c: Contention| match (c.waited, c.load) {
                (Some(w), _) => w > MOST_WAITED,
                (None, l) => l.is_some_and(|l| l > MOST_LOAD),
            };
            let said = |c: Contention| match (c.waited, c.load) {
                (Some(w), _) => format!("threads waited {}", share_text(w)),
                (None, Some(l)) => format!("load {l:.2} a core (no waited time recorded)"),
                (None, None) => "nothing recorded".into(),
            };
            (busy(old) || busy(new)).then(|| format!("{} now, {} then", said(new), said(old)))
        }
    }
}

/// What two benches ran differently, so that their figures measure different work (one line),
/// if they did: the threads, the sampler, the settings laid over the cases.
pub fn differs(old: &Bench, threads: usize, plan: &Plan) -> Option<String> {
    let mut out = Vec::new();
    if old.machine.threads != threads {
        out.push(format!(
            "threads: {} then, {threads} now",
            old.machine.threads
        ));
    }
    let sampler = |s: &Option<String>| s.clone().unwrap_or_else(|| "the default".into());
    if old.plan.sampler != plan.sampler {
        out.push(format!(
            "sampler: {} then, {} now",
            sampler(&old.plan.sampler),
            sampler(&plan.sampler)
        ));
    }
    let sorted = |v: &[String]| {
        let mut v = v.to_vec();
        v.sort();
        v
    };
    if sorted(&old.plan.set) != sorted(&plan.set) {
        let set = |v: &[String]| {
            if v.is_empty() {
                "the cases' own".to_string()
            } else {
                v.join(" ")
            }
        };
        out.push(format!(
            "settings: {} then, {} now",
            set(&old.plan.set),
            set(&plan.set)
        ));
    }
    (!out.is_empty()).then(|| out.join("; "))
}

fn side_text(label: &str, names: &[String], side: &[Bench]) -> String {
    let b = &side[0];
    let mut commits: Vec<String> = side.iter().map(|b| b.build.short()).collect();
    commits.dedup();
    let load = |l: Option<[f64; 3]>| l.map_or_else(|| "?".into(), |l| format!("{:.2}", l[0]));
    let mut out = format!(
        "{label} {} · {} · {} · {} logical cores · {} threads · {} · {} · layout {} · {} file(s){}\n",
        commits.join(", "),
        b.date,
        b.machine.cpu,
        b.machine.cores,
        b.machine.threads,
        b.build.rustc,
        b.build.profile,
        b.schema,
        side.len(),
        if names.is_empty() {
            String::new()
        } else {
            format!(" ({})", names.join(", "))
        }
    );
    for (i, b) in side.iter().enumerate() {
        let which = if side.len() > 1 {
            format!(" (file {})", i + 1)
        } else {
            String::new()
        };
        out += &format!(
            "  load {} → {}{which}; settings: {}; sampler: {}\n",
            load(b.machine.load_before),
            load(b.machine.load_after),
            if b.plan.set.is_empty() {
                "the cases' own".into()
            } else {
                b.plan.set.join(" ")
            },
            b.plan.sampler.as_deref().unwrap_or("the default")
        );
        for w in &b.warnings {
            out += &format!("  warning{which}: {w}\n");
        }
    }
    out
}

/// What a comparison found: its tables, and the rows that fell or could not be judged.
#[derive(Debug)]
pub struct Compared {
    /// The tables.
    pub text: String,
    /// Rows reliably slower past the threshold (speed, hand-loop ratio or exact solve).
    pub regressions: Vec<String>,
    /// Rows that could not be judged, with why.
    pub unjudged: Vec<String>,
    /// Of those, the hand-loop rows (what `--fail-on-drop` judges).
    pub unjudged_guarded: Vec<String>,
    /// `case (sampler): ratio` for each reliable drop beyond `--fail-on-drop`.
    pub dropped: Vec<String>,
    /// How many hand-loop ratios were compared.
    pub guarded: usize,
    /// Every row of the tables as data (`bench --compare --format json`), in their order.
    pub rows: Vec<RowData>,
    /// The notes printed above the tables (different processors, trials that differ …).
    pub notes: Vec<String>,
    /// What was in one side only, named.
    pub not_compared: Vec<String>,
}

/// One row of a comparison as data: which table, the case, each side's figure in its unit,
/// the ratio judged with its interval, and the verdict with why where it is `unreliable`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RowData {
    /// `speed` (trials a second), `hand_loop` (the rate over its hand-written loop's) or
    /// `exact` (an exact solution's time).
    pub table: &'static str,
    /// The case.
    pub case: String,
    /// The sampler (`None` for an exact solution).
    pub sampler: Option<String>,
    /// The unit of `old` and `new`: `trials/s`, `x hand loop` or `ms`.
    pub unit: &'static str,
    /// Timed runs a side (every file's, pooled).
    pub runs_old: usize,
    /// Timed runs of the new side.
    pub runs_new: usize,
    /// The baseline's median (`None`: too few runs).
    pub old: Option<f64>,
    /// The new side's median.
    pub new: Option<f64>,
    /// Speed new over old (for an exact solution, old time over new): the ratio judged.
    pub ratio: Option<f64>,
    /// The ratio's interval, lower end.
    pub low: Option<f64>,
    /// Its upper end.
    pub high: Option<f64>,
    /// The interval's confidence.
    pub confidence: Option<f64>,
    /// `faster`, `slower`, `same` or `unreliable`.
    pub verdict: &'static str,
    /// Why a row is `unreliable`.
    pub why: Option<String>,
    /// Of an `unreliable` row, which kind of reason: `busy` (a side's threads waited for a
    /// core, or the two sides' shares differ) or `too_few_runs` (a side has too few timed runs
    /// to give a median with an interval); a script tells contention from missing data by it.
    pub cause: Option<&'static str>,
}

impl RowData {
    fn of(
        table: &'static str,
        case: &str,
        sampler: Option<&str>,
        unit: &'static str,
        runs: (usize, usize),
        ch: Option<&Change>,
        verdict: &Verdict,
    ) -> RowData {
        // An exact solution's change is of times with the sides swapped (see `compare`).
        let swap = table == "exact";
        RowData {
            table,
            case: case.to_string(),
            sampler: sampler.map(str::to_string),
            unit,
            runs_old: runs.0,
            runs_new: runs.1,
            old: ch.map(|c| if swap { c.new } else { c.old }),
            new: ch.map(|c| if swap { c.old } else { c.new }),
            ratio: ch.map(|c| c.ratio),
            low: ch.map(|c| c.low),
            high: ch.map(|c| c.high),
            confidence: ch.map(|c| c.confidence),
            verdict: match verdict {
                Verdict::Faster => "faster",
                Verdict::Slower => "slower",
                Verdict::Same => "same",
                Verdict::Unreliable(_) => "unreliable",
            },
            why: match verdict {
                Verdict::Unreliable(w) => Some(w.clone()),
                _ => None,
            },
            // `judge` calls a row with no change "too few runs"; any other unreliable row was
            // judged so for contention.
            cause: match (verdict, ch) {
                (Verdict::Unreliable(_), None) => Some("too_few_runs"),
                (Verdict::Unreliable(_), Some(_)) => Some("busy"),
                _ => None,
            },
        }
    }
}

/// One side's figures for a row, file by file.
fn rows_of<'a, T>(side: &'a [Bench], find: impl Fn(&'a Bench) -> Option<T>) -> Vec<T> {
    side.iter().filter_map(find).collect()
}

/// A row's verdict: unreliable with too few runs or where the machine was busy (`why`), else
/// the change's.
fn judge(ch: Option<&Change>, why: Option<String>) -> Verdict {
    match (ch, why) {
        (None, _) => Verdict::Unreliable("too few runs".into()),
        (Some(_), Some(why)) => Verdict::Unreliable(why),
        (Some(ch), None) => ch.verdict.clone(),
    }
}

/// A change as a table gives it: the ratio and its interval.
fn change_text(ch: Option<&Change>) -> String {
    match ch {
        None => "—".to_string(),
        Some(ch) => format!("{:.3} ({:.3}–{:.3})", ch.ratio, ch.low, ch.high),
    }
}

/// Refused: two files of one side, or the two sides, that ran different work.
fn same_work(old: &[Bench], new: &[Bench]) -> Result<()> {
    let first = &new[0];
    for (label, side) in [("the baseline's files", old), ("the new files", new)] {
        for b in &side[1..] {
            if let Some(d) = differs(&side[0], b.machine.threads, &b.plan) {
                return Err(Error::Conflict(format!(
                    "bench --compare: cannot compare: {label} ran different work ({d})"
                )));
            }
        }
    }
    if let Some(d) = differs(&old[0], first.machine.threads, &first.plan) {
        return Err(Error::Conflict(format!(
            "bench --compare: cannot compare: the two ran different work ({d}); run both the same way"
        )));
    }
    Ok(())
}

/// The header: each side's files and provenance, and how a figure, a ratio and a verdict are
/// made.
fn header(old: &[Bench], new: &[Bench], names: (&[String], &[String]), threshold: f64) -> String {
    let mut text = format!(
        "bench --compare: each case now against the baseline (new/old above 1: faster)\n{}{}",
        side_text("baseline:", names.0, old),
        side_text("now:     ", names.1, new)
    );
    text += &format!(
        "a figure: the median of a side's timed runs (every file's, pooled); new/old: the ratio of the two medians shown, with an interval holding it at {:.0}% at least (each median's {:.1}% interval from order statistics, the ratio of their far ends); faster or slower when that interval lies wholly on that side of 1 and the ratio passes ±{:.0}%; unreliable when either side's threads waited for a core more than {:.0}% of their time, or the two shares differ by more than {:.0} points\n",
        CONFIDENCE * 100.0,
        CONFIDENCE.sqrt() * 100.0,
        threshold * 100.0,
        MOST_WAITED * 100.0,
        MOST_WAITED_APART * 100.0
    );
    text
}

/// Notes on the two sides as a whole: different processors, a file of an older layout.
fn side_notes(old: &[Bench], new: &[Bench]) -> Vec<String> {
    let mut notes = Vec::new();
    let cpus = |s: &[Bench]| {
        let mut v: Vec<&str> = s.iter().map(|b| b.machine.cpu.as_str()).collect();
        v.dedup();
        v.join(", ")
    };
    if cpus(old) != cpus(new) {
        notes.push(format!(
            "NOTE: different processors ({} then, {} now): the speeds compare the machines as well as the builds; the ratios to the hand loops less so",
            cpus(old),
            cpus(new)
        ));
    }
    // The same measurement on both sides compares nothing: every row reads "same" by
    // construction (a fair check of the tool, not of a build).
    let text = |b: &Bench| serde_json::to_string(b).unwrap_or_default();
    if old.iter().any(|o| new.iter().any(|n| text(o) == text(n))) {
        notes.push(
            "NOTE: the same saved result is on both sides: every row reads \"same\" by construction; it compares no build with another".into(),
        );
    }
    if old.iter().chain(new).any(|b| b.schema < provenance::SCHEMA) {
        notes.push(format!(
            "NOTE: a file of layout {} (an older bench): its first run of each case was a calibration run, counted among its runs",
            provenance::OLDEST_READ
        ));
    }
    notes
}

/// What a comparison collects as it goes: its verdicts (in `c`), the three tables' rows, the
/// cases in one side only and those whose trials a run differ.
struct Tables {
    c: Compared,
    rows: Vec<Vec<String>>,
    refs: Vec<Vec<String>>,
    exact: Vec<Vec<String>>,
    missing: Vec<String>,
    trials_differ: Vec<String>,
}

/// A Monte Carlo case's speed row, and its row against its hand loop where both sides have
/// one (checked against the largest drop allowed, `drop`).
fn case_row(
    t: &mut Tables,
    (old, new): (&[Bench], &[Bench]),
    row: &super::CaseRow,
    threshold: f64,
    drop: Option<f64>,
) {
    let find = |b: &Bench| {
        b.cases
            .iter()
            .find(|x| x.case == row.case && x.sampler == row.sampler)
            .cloned()
    };
    let (o, n) = (rows_of(old, find), rows_of(new, find));
    if o.is_empty() {
        t.missing.push(format!(
            "{} ({}), in the new build only",
            row.case, row.sampler
        ));
        return;
    }
    let name = format!("{} ({})", row.case, row.sampler);
    let why = unreliable(
        Contention::of(old, &o.iter().map(|x| x.cpu).collect::<Vec<_>>()),
        Contention::of(new, &n.iter().map(|x| x.cpu).collect::<Vec<_>>()),
    );
    let trials = |v: &[super::CaseRow]| {
        let mut t: Vec<u64> = v.iter().map(|x| x.trials).collect();
        t.dedup();
        t.iter()
            .map(|t| morale_lab::report::thousands(*t))
            .collect::<Vec<_>>()
            .join("/")
    };
    let (to, tn) = (trials(&o), trials(&n));
    if to != tn {
        t.trials_differ.push(name.clone());
    }
    let pooled = |v: &[super::CaseRow]| {
        v.iter()
            .flat_map(|x| x.per_second.samples.iter().copied())
            .collect::<Vec<f64>>()
    };
    let (po, pn) = (pooled(&o), pooled(&n));
    let trials = if to == tn {
        to
    } else {
        format!("{to} → {tn} (differ)")
    };
    speed_row(
        t,
        (&row.case, &row.sampler, trials),
        (&po, &pn),
        why.clone(),
        threshold,
    );
    let c = &mut t.c;
    let ratios = |v: &[super::CaseRow]| {
        v.iter()
            .filter_map(|x| x.to_reference.as_ref())
            .flat_map(|s| s.samples.iter().copied())
            .collect::<Vec<f64>>()
    };
    let (ro, rn) = (ratios(&o), ratios(&n));
    if ro.is_empty() || rn.is_empty() {
        return;
    }
    c.guarded += 1;
    // A ratio is as reliable as both its loops: the hand loop's own processor use counts too,
    // where the file recorded it (files saved before 2026-12-01 did not).
    let with_loop = |side: &[Bench], v: &[super::CaseRow]| -> Vec<Option<CpuUse>> {
        v.iter()
            .map(|x| x.cpu)
            .chain(
                side.iter()
                    .filter_map(|b| b.references.iter().find(|r| r.case == row.case))
                    .filter_map(|r| r.cpu)
                    .map(Some),
            )
            .collect()
    };
    let why = unreliable(
        Contention::of(old, &with_loop(old, &o)),
        Contention::of(new, &with_loop(new, &n)),
    );
    let ch = change(&ro, &rn, threshold);
    let verdict = judge(ch.as_ref(), why);
    match &verdict {
        Verdict::Slower => c.regressions.push(format!("{name} against its hand loop")),
        Verdict::Unreliable(w) => {
            c.unjudged
                .push(format!("{name} against its hand loop: {w}"));
            c.unjudged_guarded.push(format!("{name}: {w}"));
        }
        _ => {}
    }
    if let (Some(d), Some(ch), false) = (drop, &ch, matches!(verdict, Verdict::Unreliable(_)))
        && ch.high < 1.0
        && ch.ratio < 1.0 - d
    {
        c.dropped.push(format!(
            "{name}: {:.3} of the baseline's ratio to its hand loop",
            ch.ratio
        ));
    }
    c.rows.push(RowData::of(
        "hand_loop",
        &row.case,
        Some(&row.sampler),
        "x hand loop",
        (ro.len(), rn.len()),
        ch.as_ref(),
        &verdict,
    ));
    t.refs.push(vec![
        row.case.clone(),
        row.sampler.clone(),
        ch.as_ref()
            .map_or_else(|| "—".into(), |ch| format!("{:.2}×", ch.old)),
        ch.as_ref()
            .map_or_else(|| "—".into(), |ch| format!("{:.2}×", ch.new)),
        change_text(ch.as_ref()),
        verdict.text(),
    ]);
}

/// A mechanic file's row: its trials a second, judged as a built-in case's speed is (the
/// built-in it is timed beside is a case of its own).
fn mechanic_row(
    t: &mut Tables,
    (old, new): (&[Bench], &[Bench]),
    m: &super::MechanicRow,
    threshold: f64,
) {
    let find = |b: &Bench| b.mechanic.iter().find(|x| x.case == m.case).cloned();
    let (o, n) = (rows_of(old, find), rows_of(new, find));
    if o.is_empty() {
        t.missing
            .push(format!("{} (mechanic file), in the new build only", m.case));
        return;
    }
    let sampler = "mechanic file";
    let why = unreliable(
        Contention::of(old, &o.iter().map(|x| x.cpu_file).collect::<Vec<_>>()),
        Contention::of(new, &n.iter().map(|x| x.cpu_file).collect::<Vec<_>>()),
    );
    let pooled = |v: &[super::MechanicRow]| {
        v.iter()
            .flat_map(|x| x.per_second_file.samples.iter().copied())
            .collect::<Vec<f64>>()
    };
    let (po, pn) = (pooled(&o), pooled(&n));
    speed_row(
        t,
        (&m.case, sampler, "\u{2014}".into()),
        (&po, &pn),
        why,
        threshold,
    );
}

/// A speed row (trials a second, higher faster), judged and written to the table and the
/// data: `(case, sampler, trials a run as the table says it)`, each side's pooled runs, and
/// why it cannot be judged, if it cannot.
fn speed_row(
    t: &mut Tables,
    (case, sampler, trials): (&str, &str, String),
    (po, pn): (&[f64], &[f64]),
    why: Option<String>,
    threshold: f64,
) {
    let c = &mut t.c;
    let name = format!("{case} ({sampler})");
    let ch = change(po, pn, threshold);
    let verdict = judge(ch.as_ref(), why);
    match &verdict {
        Verdict::Slower => c.regressions.push(format!("{name} speed")),
        Verdict::Unreliable(w) => c.unjudged.push(format!("{name}: {w}")),
        _ => {}
    }
    c.rows.push(RowData::of(
        "speed",
        case,
        Some(sampler),
        "trials/s",
        (po.len(), pn.len()),
        ch.as_ref(),
        &verdict,
    ));
    t.rows.push(vec![
        case.to_string(),
        sampler.to_string(),
        trials,
        format!("{} | {}", po.len(), pn.len()),
        ch.as_ref()
            .map_or_else(|| "—".into(), |ch| super::rate_text(ch.old)),
        ch.as_ref()
            .map_or_else(|| "—".into(), |ch| super::rate_text(ch.new)),
        change_text(ch.as_ref()),
        verdict.text(),
    ]);
}

/// An exact solution's row: speed is old time over new.
fn exact_row(
    t: &mut Tables,
    (old, new): (&[Bench], &[Bench]),
    e: &super::ExactRow,
    threshold: f64,
) {
    let c = &mut t.c;
    let find = |b: &Bench| b.exact.iter().find(|x| x.case == e.case).cloned();
    let (o, n) = (rows_of(old, find), rows_of(new, find));
    if o.is_empty() {
        t.missing
            .push(format!("{} (exact), in the new build only", e.case));
        return;
    }
    let pooled = |v: &[super::ExactRow]| {
        v.iter()
            .flat_map(|x| x.ms.samples.iter().copied())
            .collect::<Vec<f64>>()
    };
    // Speed is old time over new: the change of the times with the sides swapped, so
    // that the ratio is exactly that of the two medians shown.
    let (tn, to) = (pooled(&n), pooled(&o));
    let ch = change(&tn, &to, threshold);
    let why = unreliable(
        Contention::of(old, &o.iter().map(|x| x.cpu).collect::<Vec<_>>()),
        Contention::of(new, &n.iter().map(|x| x.cpu).collect::<Vec<_>>()),
    );
    let verdict = judge(ch.as_ref(), why);
    match &verdict {
        Verdict::Slower => c.regressions.push(format!("{} (exact)", e.case)),
        Verdict::Unreliable(w) => c.unjudged.push(format!("{} (exact): {w}", e.case)),
        _ => {}
    }
    c.rows.push(RowData::of(
        "exact",
        &e.case,
        None,
        "ms",
        (to.len(), tn.len()),
        ch.as_ref(),
        &verdict,
    ));
    t.exact.push(vec![
        e.case.clone(),
        ch.as_ref()
            .map_or_else(|| "—".into(), |ch| super::ms_text(ch.new)),
        ch.as_ref()
            .map_or_else(|| "—".into(), |ch| super::ms_text(ch.old)),
        change_text(ch.as_ref()),
        verdict.text(),
    ]);
}

/// The comparison's text from its header on: the notes, the three tables, what was not
/// compared, and the verdict.
fn text(mut text: String, t: &Tables, notes: &[String], threshold: f64) -> String {
    let c = &t.c;
    for n in notes {
        text += n;
        text += "\n";
    }
    if t.rows.len() > 1 {
        text += "\n";
        text += &align(&t.rows);
    }
    if t.exact.len() > 1 {
        text += "\n";
        text += &align(&t.exact);
    }
    if c.guarded > 0 {
        text += "\n";
        text += &align(&t.refs);
        text += "(× reference: the median of each round's rate over its hand loop's in the same round, as bench prints it; it cancels a change of the machine's speed between rounds, not contention within one: it is judged unreliable on the same grounds)\n";
    }
    if !t.missing.is_empty() {
        text += &format!(
            "NOTE: not compared (in one side only): {}\n",
            t.missing.join(", ")
        );
    }
    text += &if !c.regressions.is_empty() {
        format!(
            "verdict: slower beyond the noise and {:.0}% in {} row(s): {}\n",
            threshold * 100.0,
            c.regressions.len(),
            c.regressions.join(", ")
        )
    } else if !c.unjudged.is_empty() {
        format!(
            "verdict: could not judge {} row(s) (no reliable row slower)\n",
            c.unjudged.len()
        )
    } else {
        "verdict: every row judged, none slower beyond the noise and the threshold\n".into()
    };
    text
}

/// Compare `new` with `old` (each one bench or several rounds of one; `names` their files,
/// empty for a bench run now); `threshold` is the smallest change called faster or slower;
/// `drop` the largest fall of a hand-loop ratio allowed.
///
/// # Errors
/// The two sides (or two rounds of one) ran different threads, sampler or settings: refused,
/// naming what differs.
pub fn compare(
    old: &[Bench],
    new: &[Bench],
    names: (&[String], &[String]),
    threshold: f64,
    drop: Option<f64>,
) -> Result<Compared> {
    let first = &new[0];
    same_work(old, new)?;
    let head = header(old, new, names, threshold);
    let mut notes = side_notes(old, new);
    let mut t = Tables {
        c: Compared {
            text: String::new(),
            regressions: Vec::new(),
            unjudged: Vec::new(),
            unjudged_guarded: Vec::new(),
            dropped: Vec::new(),
            guarded: 0,
            rows: Vec::new(),
            notes: Vec::new(),
            not_compared: Vec::new(),
        },
        rows: vec![vec![
            "case".to_string(),
            "sampler".into(),
            "trials a run".into(),
            "runs".into(),
            "old /s".into(),
            "new /s".into(),
            "new/old (interval)".into(),
            "verdict".into(),
        ]],
        refs: vec![vec![
            "against its hand loop".to_string(),
            "sampler".into(),
            "old ×".into(),
            "new ×".into(),
            "new/old (interval)".into(),
            "verdict".into(),
        ]],
        exact: vec![vec![
            "exact solution".to_string(),
            "old ms".into(),
            "new ms".into(),
            "speed new/old (interval)".into(),
            "verdict".into(),
        ]],
        missing: Vec::new(),
        trials_differ: Vec::new(),
    };
    for row in &first.cases {
        case_row(&mut t, (old, new), row, threshold, drop);
    }
    for b in old.iter().take(1) {
        for x in &b.cases {
            if !first
                .cases
                .iter()
                .any(|y| y.case == x.case && y.sampler == x.sampler)
            {
                t.missing
                    .push(format!("{} ({}), in the baseline only", x.case, x.sampler));
            }
        }
    }
    if !t.trials_differ.is_empty() {
        notes.push(format!(
            "NOTE: the trials a run differ in {} (each side calibrated its own): runs of different lengths weigh the start-up differently",
            t.trials_differ.join(", ")
        ));
    }
    for e in &first.exact {
        exact_row(&mut t, (old, new), e, threshold);
    }
    // An exact solution the baseline timed and the new build did not is named too, never
    // dropped in silence.
    for b in old.iter().take(1) {
        for x in &b.exact {
            if !first.exact.iter().any(|y| y.case == x.case) {
                t.missing
                    .push(format!("{} (exact), in the baseline only", x.case));
            }
        }
    }
    // A mechanic file's speed is judged as a built-in case's is; one only one side ran is
    // named, never dropped in silence.
    for m in &first.mechanic {
        mechanic_row(&mut t, (old, new), m, threshold);
    }
    for b in old.iter().take(1) {
        for x in &b.mechanic {
            if !first.mechanic.iter().any(|y| y.case == x.case) {
                t.missing
                    .push(format!("{} (mechanic file), in the baseline only", x.case));
            }
        }
    }
    let text = text(head, &t, &notes, threshold);
    let mut c = t.c;
    c.notes = notes;
    c.not_compared = t.missing;
    c.text = text;
    Ok(c)
}

#[cfg(test)]
mod tests;
