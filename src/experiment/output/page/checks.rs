//! The simulation's checks of exact values in words: one cell, or runs pooled, at the level that
//! makes every check of a report sure taken together.

use super::*;

/// One value's estimates from the runs of a sweep that do not touch it, as one: their trials
/// added up, so the simulation checks the one exact value once, with all of them (a chance by
/// the Wilson interval of the pooled counts, an average by its pooled standard error).
pub(super) fn pooled(cells: &[Cell], chance: bool, z: f64) -> Cell {
    let n: u64 = cells.iter().map(|c| c.count.unwrap_or(0)).sum();
    let weight = |c: &Cell| c.count.unwrap_or(0) as f64 / (n.max(1) as f64);
    let p: f64 = cells.iter().map(|c| weight(c) * c.p).sum();
    let (ci_low, ci_high) = if chance {
        let k: u64 = cells
            .iter()
            .map(|c| (c.p * c.count.unwrap_or(0) as f64).round() as u64)
            .sum();
        let (l, h) = crate::stats::wilson(k, n, z);
        (Some(l), Some(h))
    } else {
        let spread: Option<f64> = cells
            .iter()
            .map(|c| match (c.ci_low, c.ci_high) {
                (Some(l), Some(h)) => Some((weight(c) * (h - l) / (2.0 * z)).powi(2)),
                _ => None,
            })
            .sum();
        let se = spread.map(f64::sqrt);
        (se.map(|s| p - z * s), se.map(|s| p + z * s))
    };
    Cell {
        count: Some(n),
        p,
        ci_low,
        ci_high,
        exact: cells.first().and_then(|c| c.exact),
    }
}

/// The check of a value pooled over the settings of a sweep (see [`pooled`]), in one cell, at
/// normal quantile `z` (see [`super::super::answer::check_z`]).
pub(super) fn pooled_check(cells: &[Cell], chance: bool, confidence: f64, z: f64) -> String {
    let c = pooled(cells, chance, crate::stats::z_for_confidence(confidence));
    let runs = cells.len();
    // A bare "agrees": the section's words say the runs are taken together, and a reader of
    // the answer's table wants the verdict, not its bookkeeping.
    check_cell(
        &c,
        chance,
        confidence,
        z,
        &format!(" from its {runs} runs together"),
    )
}

/// The simulation's check of an exact value, in one cell: "agrees" where its interval at
/// normal quantile `z` holds the exact value (see [`super::super::answer::check_interval`]); else the
/// exact value, the estimate and the interval, with enough decimals to read them apart; "—"
/// where there is nothing to check. `from` says what the estimate is taken from, if not its
/// run.
pub(super) fn check_cell(c: &Cell, chance: bool, confidence: f64, z: f64, from: &str) -> String {
    check_cell_as(c, chance, chance, confidence, z, from)
}

/// As [`check_cell`], with the figures in per cent where `percent` (a measure that is a share,
/// a cause of removal, checked as an average but read as a chance).
pub(super) fn check_cell_as(
    c: &Cell,
    chance: bool,
    percent: bool,
    confidence: f64,
    z: f64,
    from: &str,
) -> String {
    let (Some(e), Some((l, h))) = (
        c.exact,
        super::super::answer::check_interval(c, chance, confidence, z),
    ) else {
        return "—".into();
    };
    if super::super::answer::check_holds(c, chance, confidence, z) == Some(true) {
        return "agrees".into();
    }
    // Enough decimals that the exact value and the interval's ends read apart.
    let scale = if percent { 100.0 } else { 1.0 };
    let d = apart(
        scale * e,
        &[scale * l, scale * h],
        if percent { 2 } else { 4 },
    );
    let unit = if percent { "%" } else { "" };
    let f = |x: f64| format!("{:.d$}{unit}", scale * x);
    format!(
        "exact {} outside its interval: {} [{}, {}]{from} ({})",
        f(e),
        f(c.p),
        f(l),
        f(h),
        by_chance(confidence)
    )
}

/// What a miss means: the checks are sure at `confidence` taken together, so chance alone
/// puts one outside in 1 report in 20 (at 95%), not 1 check in 20.
pub(super) fn by_chance(confidence: f64) -> String {
    format!(
        "the report's checks are {}% sure taken together: 1 report in {} has such a miss by chance",
        crate::report::fmt_level(confidence),
        (1.0 / (1.0 - confidence)).round()
    )
}
