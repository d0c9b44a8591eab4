//! The rules of thumb tried, simplest first, as a player would learn them.

use super::graph::{Graph, Rule};
use super::*;

/// The rules of thumb tried, simplest first: one feature against a threshold (charge when the
/// enemy is shaken; when the enemy has `k` or less left; when we have `k` or more), then the
/// shaken rule or a threshold, in the order a player would learn them.
#[allow(clippy::type_complexity)]
pub(super) fn thumbs<'a, C: Chain>(
    chain: &'a C,
    g: &'a Graph<C::State>,
    names: &'a [&'a str],
) -> Vec<(usize, String, Box<Rule<'a>>)> {
    let (hold, charge) = match names {
        [h, c] => (*h, *c),
        _ => return Vec::new(),
    };
    let features: Vec<Vec<(String, i64)>> =
        g.states.iter().map(|s| chain.play_features(*s)).collect();
    let state_names: Vec<String> = features
        .first()
        .map(|f| {
            f.iter()
                .filter_map(|(n, _)| n.strip_prefix("enemy ").map(str::to_string))
                .filter(|n| !["strength", "shaken"].contains(&n.as_str()))
                .collect()
        })
        .unwrap_or_default();
    let feature = move |k: usize, name: &str| -> Option<i64> {
        features[k].iter().find(|(n, _)| n == name).map(|f| f.1)
    };
    let feature = std::sync::Arc::new(feature);
    let range = |name: &str| -> Vec<i64> {
        let mut v: Vec<i64> = (0..g.states.len())
            .filter_map(|k| feature(k, name))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    // Classes: 1 one state of the enemy's or one number; 2 two parts; 3 and 4 the same with a
    // turn (a timing the turn limit makes, offered last).
    let mut out: Vec<(usize, String, Box<Rule<'a>>)> = Vec::new();
    // A state of the enemy's by name (`enemy routing`), where some state met has it.
    let mut states = state_names;
    states.retain(|st| (0..g.states.len()).any(|k| feature(k, &format!("enemy {st}")) == Some(1)));
    for st in &states {
        let f = feature.clone();
        let name = format!("enemy {st}");
        out.push((
            1,
            format!(
                "{charge} when the enemy is {}, else {hold}",
                st.replace('_', " ")
            ),
            Box::new(move |_, k| Some(usize::from(f(k, &name) == Some(1)))),
        ));
    }
    let f = feature.clone();
    out.push((
        1,
        format!("{charge} when the enemy is shaken, else {hold}"),
        Box::new(move |_, k| Some(usize::from(f(k, "enemy shaken") == Some(1)))),
    ));
    for x in range("enemy strength") {
        let f = feature.clone();
        out.push((
            1,
            format!("{charge} when the enemy has {x} or less left, else {hold}"),
            Box::new(move |_, k| Some(usize::from(f(k, "enemy strength").is_some_and(|v| v <= x)))),
        ));
    }
    for x in range("own strength") {
        let f = feature.clone();
        out.push((
            1,
            format!("{charge} while we have {x} or more left, else {hold}"),
            Box::new(move |_, k| Some(usize::from(f(k, "own strength").is_some_and(|v| v >= x)))),
        ));
    }
    for x in range("enemy strength") {
        let f = feature.clone();
        out.push((
            2,
            format!("{charge} when the enemy is shaken or has {x} or less left, else {hold}"),
            Box::new(move |_, k| {
                Some(usize::from(
                    f(k, "enemy shaken") == Some(1)
                        || f(k, "enemy strength").is_some_and(|v| v <= x),
                ))
            }),
        ));
    }
    for x in 1..=chain.turns() {
        out.push((
            3,
            format!("{hold} before turn {x}, {charge} from turn {x} on"),
            Box::new(move |t, _| Some(usize::from(t >= x))),
        ));
    }
    // Two parts: an enemy's state, or from a turn on (the last turns play for the cap).
    for st in &states {
        for x in 2..=chain.turns() {
            let f = feature.clone();
            let name = format!("enemy {st}");
            out.push((
                4,
                format!(
                    "{charge} when the enemy is {} or from turn {x} on, else {hold}",
                    st.replace('_', " ")
                ),
                Box::new(move |t, k| Some(usize::from(t >= x || f(k, &name) == Some(1)))),
            ));
        }
    }
    out
}
