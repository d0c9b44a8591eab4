//! The rule invariants every turn of every scenario must keep , checked by
//! [`Chain::check_step`](crate::chain::Chain::check_step) on each transition and by
//! [`audit`] over a chain's reachable states and sampled trials.
//!
//! What is checked, by system:
//! - Rank & File (RF-2 to RF-7): stands lost never come back and never pass the unit's stands;
//!   the commander's re-rolls are only spent; a unit rises at most one level a turn (RF-5's
//!   rally); a removed unit never changes again; a formed unit that routs at 50% losses is
//!   removed at once unless `keep-broken-units` (RF-3).
//! - Effectiveness (EF-1, EF-4): quarters only fall and stay within 0..=4; a unit at 0% is
//!   eliminated; hits short of a quarter stay short of it; an eliminated unit never changes.
//! - Linear Warfare (LW-1, LW-5, LW-6): pips stay within 0..=start and rise by one a turn only
//!   while recovering (LW-5); a general's pips only fall; a unit out of pips is removed; a
//!   removed unit never changes.

use crate::chain::Chain;
use crate::dice::Dice;
use crate::exact;
use std::collections::{BTreeMap, BTreeSet};

pub use crate::chain::check::{Check, ensure, stays};

/// Every value and series read off `s` is within its declared largest value, and every value
/// and series reads the same alone and all at once.
fn within_bounds<C: Chain>(chain: &C, s: C::State) -> Check {
    let mut values = vec![0u32; chain.values().len()];
    chain.values_all(&s, &mut values);
    for (i, v) in chain.values().iter().enumerate() {
        let x = chain.value_of(s, i);
        ensure(values[i] == x, || {
            format!(
                "value {} is {x} read alone but {} read with the others in {s:?}",
                v.name, values[i]
            )
        })?;
        ensure(x <= v.max, || {
            format!(
                "value {} is {x}, above its largest {} in {s:?}",
                v.name, v.max
            )
        })?;
    }
    let mut all = vec![0u32; chain.series().len()];
    chain.series_all(&s, &mut all);
    for (i, v) in chain.series().iter().enumerate() {
        let x = chain.series_of(s, i);
        ensure(x <= v.max, || {
            format!(
                "series {} is {x}, above its largest {} in {s:?}",
                v.name, v.max
            )
        })?;
        // Read all at once (the Monte Carlo loop's way), each series is the same.
        ensure(all[i] == x, || {
            format!(
                "series {} is {x} read alone but {} read with the others in {s:?}",
                v.name, all[i]
            )
        })?;
    }
    Ok(())
}

/// Most reachable states [`audit`] enumerates before it stops widening (the rest of a huge
/// state space is still sampled).
pub const AUDIT_STATES: usize = 20_000;

/// Most branches (dice sequences) [`audit`] enumerates over all the states it widens to before
/// it stops widening: a state whose turn rolls two hundred dice has millions, and a count, not
/// a clock, bounds the work, so the audit stops at the same state on every machine.
pub const AUDIT_BRANCHES: u64 = 4_000_000;

/// Most branches [`audit`] gives the exact solve of a chain whose reachable states it saw in
/// full (a larger solve is left to the scenario's own exact tests).
pub const AUDIT_SOLVE_BRANCHES: u64 = 4_000_000;

/// Audit a chain: values and series read off every state stay within their declared largest
/// values; for an exactly solvable chain, every transition out of every reachable live
/// state
/// (up to [`AUDIT_STATES`] states) keeps the invariants, each turn's probabilities add up to 1
/// and so does the exact solution's; then `trials` trials sampled turn by turn with the dice of
/// `seed` keep the invariants at every turn until they are absorbed (as the engine runs them),
/// and (for exact chains) every sampled turn is one the exact solution counts. True when the
/// whole chain was solved exactly within [`AUDIT_SOLVE_BRANCHES`] (its states all seen, within
/// [`AUDIT_STATES`] and [`AUDIT_BRANCHES`]). Nothing here reads the clock: the same chain is
/// audited alike on any machine.
///
/// # Errors
/// What broke, with the states.
pub fn audit<C: Chain>(chain: &C, trials: u64, seed: u64) -> Result<bool, String> {
    let mut solved = false;
    let mut support: BTreeMap<C::State, Vec<(C::State, f64)>> = BTreeMap::new();
    if chain.exact() {
        // Breadth first, turn by turn, up to the chain's horizon: a state reached only after
        // the last turn is no state of the process (a battle's hole count grows past its
        // declared largest there).
        let mut seen: BTreeSet<C::State> = BTreeSet::new();
        let mut layer = vec![chain.start()];
        seen.insert(chain.start());
        let mut complete = true;
        let watch = exact::Watch {
            max_total: AUDIT_BRANCHES,
            ..exact::Watch::none()
        };
        'turns: for _ in 0..chain.turns() {
            let mut next_layer = Vec::new();
            for s in layer {
                if support.len() >= AUDIT_STATES {
                    complete = false;
                    break 'turns;
                }
                if chain.classes()[chain.class_of(s)].absorbing {
                    continue;
                }
                let next = match exact::transitions_within(chain, s, &watch) {
                    Ok(next) => next,
                    Err(crate::error::Error::TooManyBranches { .. }) => {
                        complete = false;
                        break 'turns;
                    }
                    Err(e) => return Err(e.to_string()),
                };
                let mass: f64 = next.iter().map(|(_, p)| p).sum();
                ensure((mass - 1.0).abs() <= exact::MASS_TOLERANCE, || {
                    format!("the turn from {s:?} has probability {mass}, not 1")
                })?;
                for &(t, p) in &next {
                    ensure(p > 0.0, || format!("{s:?} → {t:?} has probability {p}"))?;
                    within_bounds(chain, t)?;
                    chain
                        .check_step(s, t)
                        .map_err(|e| format!("{e} (reachable turn {s:?} → {t:?})"))?;
                    if seen.insert(t) {
                        next_layer.push(t);
                    }
                }
                support.insert(s, next);
            }
            layer = next_layer;
        }
        // The whole solution's mass adds up to 1 where the enumeration saw every state (a
        // space past the enumeration's bound is too large to solve here as well).
        if complete {
            let limit = exact::Limit {
                branches: Some(AUDIT_SOLVE_BRANCHES),
                ..exact::Limit::none()
            };
            match exact::solve_chain_within(chain, "audit", &limit) {
                Ok(_) => solved = true,
                Err(crate::error::Error::TooManyBranches { .. }) => {}
                Err(e) => return Err(e.to_string()),
            }
        }
    }
    let mut dice = Dice::for_chunk(seed, 0, 0);
    for _ in 0..trials {
        let mut s = chain.start();
        for _ in 0..chain.turns() {
            if chain.classes()[chain.class_of(s)].absorbing {
                break;
            }
            let t = chain.step(s, &mut dice);
            within_bounds(chain, t)?;
            chain
                .check_step(s, t)
                .map_err(|e| format!("{e} (sampled turn {s:?} → {t:?})"))?;
            if let Some(next) = support.get(&s) {
                ensure(next.iter().any(|&(n, _)| n == t), || {
                    format!("a sampled turn the exact solution does not have: {s:?} → {t:?}")
                })?;
            }
            s = t;
        }
    }
    Ok(solved)
}
