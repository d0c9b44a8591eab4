//! Monte Carlo against exact: intervals must contain the exact value at the rate their
//! confidence level promises, for both samplers, across many settings.

use morale_lab::Sampler;
use morale_lab::stats;
use statrs::distribution::{Binomial, DiscreteCDF};

use crate::common::{Plan, run};

/// A setting: (system, scenario, parameters, options).
type Setting = (
    &'static str,
    &'static str,
    Vec<&'static str>,
    Vec<&'static str>,
);

/// Settings of every system's scenarios.
fn settings() -> Vec<Setting> {
    let mut v: Vec<Setting> = rank_and_file_settings()
        .into_iter()
        .map(|(sc, p, o)| ("rank-and-file", sc, p, o))
        .collect();
    v.extend(effectiveness_settings());
    v.extend(linear_warfare_settings());
    v.extend(fight_settings());
    v
}

/// Melees and charges of Rank & File and the effectiveness rules, across stands, classes and
/// options.
fn fight_settings() -> Vec<Setting> {
    let mut v: Vec<Setting> = Vec::new();
    for (a, d) in [
        ("attacker=regular stands=4", "defender=regular stands=4"),
        (
            "attacker=veteran cavalry stands=6 frontage=2",
            "defender=green stands=8 lost=2",
        ),
        (
            "attacker=green stands=3 hit=1",
            "defender=veteran stands=5 state=unsteady",
        ),
        (
            "attacker=regular cavalry stands=4",
            "defender=regular elephant",
        ),
    ] {
        v.push(("rank-and-file", "melee", vec![a, d], vec![]));
        v.push((
            "rank-and-file",
            "melee",
            vec![a, d, "rule:hits_per_stand=2", "rule:auto_rout_on_win=true"],
            vec!["keep-broken-units"],
        ));
    }
    v.push((
        "rank-and-file",
        "charge",
        vec![
            "attacker=veteran cavalry stands=6 shock uncontrolled=3",
            "defender=regular stands=6 leader=1 rerolls=1",
        ],
        vec!["waiver-tests", "uncontrolled"],
    ));
    v.push((
        "rank-and-file",
        "charge",
        vec![
            "attacker=regular cavalry blown stands=5",
            "defender=green skirmisher stands=4 state=unsteady",
            "charge_from=flank",
        ],
        vec!["waiver-tests", "blown-cavalry"],
    ));
    v.push((
        "rank-and-file",
        "under-fire",
        vec![
            "class=regular",
            "kind=elephant",
            "stands=1",
            "fire_dice=2",
            "fire_to_hit=4",
        ],
        vec!["elephant-stampede"],
    ));
    for (a, d) in [
        ("attacker=regular", "defender=regular"),
        (
            "attacker=elite general dice=5",
            "defender=poor supported lost=1",
        ),
    ] {
        v.push(("effectiveness", "melee", vec![a, d], vec![]));
        v.push((
            "effectiveness",
            "melee",
            vec![a, d, "p_blocked=1/6", "rule:hits_per_step=3"],
            vec!["natural-one-fails"],
        ));
    }
    v
}

/// Settings of The Age of Linear Warfare: melees across pips and modifiers, volleys, fire.
fn linear_warfare_settings() -> Vec<Setting> {
    let mut v: Vec<Setting> = Vec::new();
    for d in ["difference=-2", "difference=0", "difference=1"] {
        v.push(("linear-warfare", "test", vec!["test=round", d], vec![]));
    }
    v.push((
        "linear-warfare",
        "test",
        vec!["test=volley", "stands=6", "cover=true"],
        vec![],
    ));
    v.push((
        "linear-warfare",
        "test",
        vec![
            "test=volley",
            "fire_from=artillery",
            "range_band=2",
            "flanking=true",
        ],
        vec![],
    ));
    for (a, d) in [
        (
            "attacker=guards pips=7 charging",
            "defender=line pips=5 obstacle",
        ),
        ("attacker=line", "defender=line"),
        ("attacker=line pips=3 charging general", "defender=light"),
        (
            "attacker=light pips=2",
            "defender=guards pips=4 general stands=4",
        ),
        (
            "attacker=line pips=6 charging stands=6",
            "defender=line pips=2 obstacle",
        ),
    ] {
        v.push(("linear-warfare", "melee", vec![a, d], vec![]));
        v.push((
            "linear-warfare",
            "melee",
            vec![a, d, "follow_up=never"],
            vec!["dice-follow-pips"],
        ));
    }
    v.push(("linear-warfare", "under-fire", vec!["fire_dice=3"], vec![]));
    v.push((
        "linear-warfare",
        "under-fire",
        vec![
            "type=guards",
            "general=true",
            "fire_dice=4",
            "fall_back_at=3",
        ],
        vec![],
    ));
    v.push((
        "linear-warfare",
        "under-fire",
        vec![
            "type=light",
            "fall_back_at=2",
            "return_at=3",
            "fall_back_out_of_range=false",
            "fire_loss=1/2,1/3,1/6",
        ],
        vec![],
    ));
    v.push((
        "linear-warfare",
        "under-fire",
        vec![
            "fire_from=artillery",
            "range_band=3",
            "cover=true",
            "turns=20",
        ],
        vec![],
    ));
    v
}

/// Settings of the effectiveness rules, with and without the retreat amendment.
fn effectiveness_settings() -> Vec<Setting> {
    let mut v: Vec<Setting> = Vec::new();
    for class in ["class=elite", "class=regular", "class=poor"] {
        v.push(("effectiveness", "test", vec![class], vec![]));
        v.push((
            "effectiveness",
            "test",
            vec![class, "general=true", "supported=true"],
            vec!["natural-one-fails"],
        ));
        v.push(("effectiveness", "rally", vec![class, "turns=8"], vec![]));
        for retreat in [vec![], vec!["retreat-on-fire"]] {
            v.push((
                "effectiveness",
                "under-fire",
                vec![class, "fire_dice=3", "fire_to_hit=5", "turns=8"],
                retreat.clone(),
            ));
            v.push((
                "effectiveness",
                "under-fire",
                vec![
                    class,
                    "lost=1",
                    "general=true",
                    "p_blocked=1/6",
                    "fire_dice=4",
                    "fire_to_hit=5",
                    "rule:hits_per_step=3",
                ],
                retreat,
            ));
        }
    }
    v.push((
        "effectiveness",
        "rally",
        vec!["general=true", "lost=2"],
        vec![],
    ));
    v.push((
        "effectiveness",
        "under-fire",
        vec![
            "class=poor",
            "retreat_out_of_range=false",
            "enemy_class=elite",
            "fire_loss=1/2,1/3,1/6",
        ],
        vec!["retreat-on-fire"],
    ));
    v.push((
        "effectiveness",
        "under-fire",
        vec![
            "class=regular",
            "exchange_fire=false",
            "p_blocked=0.25",
            "turns=16",
        ],
        vec!["retreat-on-fire", "natural-one-fails"],
    ));
    v
}

/// Settings of Rank & File scenarios: (scenario, parameters, options).
fn rank_and_file_settings() -> Vec<(&'static str, Vec<&'static str>, Vec<&'static str>)> {
    let mut v: Vec<(&str, Vec<&str>, Vec<&str>)> = Vec::new();
    for class in ["class=veteran", "class=regular", "class=green"] {
        for (stands, lost) in [
            ("stands=7", "lost=2"),
            ("stands=8", "lost=0"),
            ("stands=6", "lost=1"),
        ] {
            v.push(("test", vec![class, stands, lost], vec![]));
            v.push(("rally", vec![class, stands, lost, "state=routing"], vec![]));
            v.push((
                "rally",
                vec![class, stands, lost, "state=unsteady", "turns=6"],
                vec![],
            ));
            v.push((
                "under-fire",
                vec![
                    class,
                    stands,
                    lost,
                    "fire_dice=4",
                    "fire_to_hit=5",
                    "turns=8",
                ],
                vec![],
            ));
        }
    }
    v.push((
        "test",
        vec!["class=regular", "elite=true", "lost=2"],
        vec![],
    ));
    v.push(("test", vec!["class=green", "rerolls=2", "leader=1"], vec![]));
    v.push((
        "rally",
        vec![
            "class=veteran",
            "stands=7",
            "lost=3",
            "leader=1",
            "rerolls=1",
        ],
        vec![],
    ));
    v.push((
        "rally",
        vec![
            "class=regular",
            "stands=8",
            "lost=3",
            "elite=true",
            "turns=20",
        ],
        vec![],
    ));
    v.push((
        "rally",
        vec!["class=green", "stands=10", "lost=4", "voluntary_rout=true"],
        vec![],
    ));
    v.push((
        "rally",
        vec!["class=regular", "stands=6", "lost=3"],
        vec!["keep-broken-units"],
    ));
    v.push((
        "rally",
        vec![
            "class=regular",
            "kind=artillery",
            "stands=2",
            "state=unsteady",
        ],
        vec![],
    ));
    v.push((
        "rally",
        vec![
            "class=green",
            "kind=artillery",
            "stands=2",
            "lost=0",
            "state=routing",
        ],
        vec!["artillery-may-rally"],
    ));
    v.push((
        "under-fire",
        vec![
            "class=regular",
            "stands=8",
            "rerolls=2",
            "leader=1",
            "fire_dice=6",
            "fire_to_hit=5",
        ],
        vec![],
    ));
    v.push((
        "under-fire",
        vec![
            "class=veteran",
            "stands=12",
            "turns=24",
            "fire_loss=1/2,1/3,1/6",
        ],
        vec![],
    ));
    v.push((
        "under-fire",
        vec![
            "class=green",
            "stands=8",
            "fire_dice=5",
            "fire_on_shaken=none",
        ],
        vec!["keep-broken-units"],
    ));
    v.push((
        "under-fire",
        vec![
            "class=regular",
            "kind=artillery",
            "stands=2",
            "fire_dice=3",
            "fire_to_hit=4",
        ],
        vec![],
    ));
    v.push((
        "under-fire",
        vec![
            "class=regular",
            "kind=artillery",
            "stands=2",
            "rule:hit_points=4",
            "fire_dice=3",
            "fire_to_hit=4",
        ],
        vec!["artillery-may-rally"],
    ));
    v.push((
        "under-fire",
        vec![
            "class=veteran",
            "kind=elephant",
            "stands=1",
            "fire_dice=2",
            "fire_to_hit=4",
            "elite=true",
        ],
        vec![],
    ));
    v
}

/// The smallest k with P(Binomial(n, p) > k) < tail: statrs' binomial upper tail (through the
/// regularised incomplete Beta function, never its inverse).
fn binomial_upper(n: u64, p: f64, tail: f64) -> u64 {
    let b = Binomial::new(p, n).expect("0 <= p <= 1");
    // P(X > k) falls as k grows: the first k below `tail`, by bisection.
    let (mut lo, mut hi) = (0u64, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if b.sf(mid) < tail {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// True unless `count` of `n` is implausible for chance `p` at two-sided level `alpha`: the
/// exact binomial test, 2 · min(P(X ≤ count), P(X ≥ count)) ≥ alpha, worked on the rarer side
/// so that both tails keep their precision near 0 and near 1.
fn plausible(count: u64, n: u64, p: f64, alpha: f64) -> bool {
    let (k, q) = if p <= 0.5 {
        (count, p)
    } else {
        (n - count, 1.0 - p)
    };
    let b = Binomial::new(q, n).expect("0 <= q <= 1/2");
    let at_most = b.cdf(k);
    let at_least = if k == 0 { 1.0 } else { b.sf(k - 1) };
    2.0 * at_most.min(at_least) >= alpha
}

#[test]
fn intervals_cover_exact_values_at_the_promised_rate() {
    let z_wide = stats::z_for_confidence(1.0 - 1e-6);
    let mut primary_misses = 0u64;
    let mut primary = 0u64;
    let mut cells = 0u64;
    for sampler in [Sampler::Table, Sampler::Dice] {
        // Each setting twice, with unrelated seeds: independent runs.
        let all = settings()
            .into_iter()
            .enumerate()
            .flat_map(|(i, s)| [(2 * i, s.clone()), (2 * i + 1, s)]);
        for (i, (system, scenario, params, options)) in all {
            let seed = 1000 + i as u64 + if sampler == Sampler::Dice { 500 } else { 0 };
            let r = run(
                system,
                scenario,
                &params,
                &options,
                Plan::new(100_000, seed, 2, sampler),
            );
            let what = format!("{system} {scenario} {params:?} {options:?} ({sampler:?})");
            let mass: f64 = r.outcomes.iter().map(|o| o.cell.exact.unwrap()).sum();
            assert!(
                (mass - 1.0).abs() < 1e-9,
                "{what}: exact outcomes sum to {mass}"
            );
            assert!((r.exact_mass.unwrap() - 1.0).abs() < 1e-9);
            // One independent interval per run: the first non-degenerate outcome at 95%.
            if let Some(o) = r.outcomes.iter().find(|o| {
                let e = o.cell.exact.unwrap();
                e > 1e-3 && e < 1.0 - 1e-3
            }) {
                primary += 1;
                let e = o.cell.exact.unwrap();
                if e < o.cell.ci_low.unwrap() || e > o.cell.ci_high.unwrap() {
                    primary_misses += 1;
                }
            }
            // Every cell and outcome must pass a two-sided binomial test at level 1e-6, and
            // every metric sit within z(1 − 1e-6) standard errors: a gross disagreement
            // anywhere is a defect, not chance.
            let n = r.trials;
            let mut check = |name: &str, count: u64, exact: f64| {
                cells += 1;
                assert!(
                    plausible(count, n, exact, 1e-6),
                    "{what}: {name} count {count} of {n} is implausible for exact {exact}"
                );
            };
            for o in &r.outcomes {
                check(&o.outcome, o.cell.count.unwrap(), o.cell.exact.unwrap());
            }
            for t in &r.tables {
                for row in &t.rows {
                    for (col, c) in t.columns.iter().zip(&row.cells) {
                        check(
                            &format!("{} turn {} {col}", t.name, row.turn),
                            c.count.unwrap(),
                            c.exact.unwrap(),
                        );
                    }
                }
            }
            // A mean's normal tolerance needs enough trials behind it (a conditional mean may
            // rest on a handful) and some spread among them (all equal gives an error of 0).
            for m in r
                .metrics
                .iter()
                .filter(|m| m.n.unwrap_or(0) >= 100 && m.stderr.unwrap_or(0.0) > 0.0)
            {
                if let (Some(v), Some(e), Some(se)) = (m.value, m.exact, m.stderr) {
                    assert!(
                        (v - e).abs() <= z_wide * se + 1e-9,
                        "{what}: metric {} = {v} ± {se}, exact {e}",
                        m.name
                    );
                }
            }
        }
    }
    let allowed = binomial_upper(primary, 0.05, 1e-4);
    assert!(primary >= 200, "only {primary} independent intervals");
    assert!(
        primary_misses <= allowed,
        "{primary_misses} of {primary} 95% intervals missed the exact value (at most {allowed} expected by chance)"
    );
    assert!(cells > 2000, "checked {cells} cells");
}

#[test]
fn binomial_plausibility_check() {
    assert!(plausible(1, 100_000, 3.08e-8, 1e-6));
    assert!(!plausible(5, 100_000, 3.08e-8, 1e-6));
    assert!(plausible(50_100, 100_000, 0.5, 1e-6));
    assert!(!plausible(52_000, 100_000, 0.5, 1e-6));
    assert!(plausible(99_999, 100_000, 1.0 - 1e-8, 1e-6));
    assert!(!plausible(1, 100_000, 0.0, 1e-6));
    // P(X > 9) = 0.588, P(X > 10) = 0.412 for Binomial(20, 1/2).
    assert_eq!(binomial_upper(20, 0.5, 0.5), 10);
}

#[test]
fn both_samplers_agree_with_each_other() {
    // Same setting, independent seeds: the two samplers' estimates differ by no more than
    // their combined uncertainty allows (z for 1 − 1e-6).
    let z = stats::z_for_confidence(1.0 - 1e-6);
    let params = [
        "class=regular",
        "stands=8",
        "lost=1",
        "rerolls=1",
        "fire_dice=6",
        "fire_to_hit=5",
    ];
    let a = run(
        "rank-and-file",
        "under-fire",
        &params,
        &[],
        Plan::new(300_000, 7, 2, Sampler::Table),
    );
    let b = run(
        "rank-and-file",
        "under-fire",
        &params,
        &[],
        Plan::new(300_000, 8, 2, Sampler::Dice),
    );
    assert_eq!(a.sampler.as_deref(), Some("table"));
    assert_eq!(b.sampler.as_deref(), Some("dice"));
    for (x, y) in a.outcomes.iter().zip(&b.outcomes) {
        let (p, q) = (x.cell.p, y.cell.p);
        let se = (p * (1.0 - p) / 300_000.0 + q * (1.0 - q) / 300_000.0).sqrt();
        assert!((p - q).abs() <= z * se + 1e-9, "{}: {p} vs {q}", x.outcome);
    }
}

#[test]
fn worked_examples_exactly() {
    // RF-2: Veteran, 7 stands, 2 lost → 5+ (1/3); 3 lost → 6 (1/6); 3 lost, +1 leader → 5+.
    for (params, p) in [
        (vec!["class=veteran", "stands=7", "lost=2"], 1.0 / 3.0),
        (vec!["class=veteran", "stands=7", "lost=3"], 1.0 / 6.0),
        (
            vec!["class=veteran", "stands=7", "lost=3", "leader=1"],
            1.0 / 3.0,
        ),
        // RF-6: one re-roll of a 5+ test: 1 − (2/3)² = 5/9.
        (
            vec![
                "class=veteran",
                "stands=7",
                "lost=3",
                "leader=1",
                "rerolls=1",
            ],
            5.0 / 9.0,
        ),
        // RF-3: 4 of 7 lost fails whatever.
        (
            vec!["class=veteran", "stands=7", "lost=4", "elite=true"],
            0.0,
        ),
    ] {
        let r = run(
            "rank-and-file",
            "test",
            &params,
            &[],
            Plan::new(1, 1, 1, Sampler::Table),
        );
        let e = r.outcomes[0].cell.exact.unwrap();
        assert!((e - p).abs() < 1e-12, "{params:?}: {e} vs {p}");
    }
    // RF-5/RF-6 together: the source's routing Veteran (3 of 7 lost, +1 leader with a re-roll)
    // rallies at its first attempt with 5/9, else loses a stand and is dispersed.
    let r = run(
        "rank-and-file",
        "rally",
        &[
            "class=veteran",
            "stands=7",
            "lost=3",
            "leader=1",
            "rerolls=1",
            "turns=1",
        ],
        &[],
        Plan::new(1, 1, 1, Sampler::Table),
    );
    let removed = r.outcomes.iter().find(|o| o.outcome == "removed").unwrap();
    assert!((removed.cell.exact.unwrap() - 4.0 / 9.0).abs() < 1e-12);
}

#[test]
fn effectiveness_return_to_action_is_geometric() {
    // EF-5: back by move 1, 2, 3 with 1/3, 5/9, 19/27; with a general 1/2, 3/4, 7/8.
    for (general, by) in [
        ("general=false", [1.0 / 3.0, 5.0 / 9.0, 19.0 / 27.0]),
        ("general=true", [0.5, 0.75, 0.875]),
    ] {
        let r = run(
            "effectiveness",
            "rally",
            &[general, "turns=3"],
            &["return-roll"],
            Plan::new(1, 1, 1, Sampler::Table),
        );
        let turns = r.tables.iter().find(|t| t.name == "turns").unwrap();
        for (k, want) in by.iter().enumerate() {
            let got = turns.rows[k].cells[1].exact.unwrap();
            assert!(
                (got - want).abs() < 1e-12,
                "{general} by move {}: {got} vs {want}",
                k + 1
            );
        }
    }
    // Without the amendment's return roll a retreating unit is back after retreat_turns.
    for (turns, by) in [
        ("rule:retreat_turns=1", [1.0, 1.0, 1.0]),
        ("rule:retreat_turns=2", [0.0, 1.0, 1.0]),
    ] {
        let r = run(
            "effectiveness",
            "rally",
            &[turns, "turns=3"],
            &[],
            Plan::new(1, 1, 1, Sampler::Table),
        );
        let table = r.tables.iter().find(|t| t.name == "turns").unwrap();
        for (k, want) in by.iter().enumerate() {
            assert_eq!(table.rows[k].cells[1].exact.unwrap(), *want, "{turns}");
        }
    }
}

#[test]
fn effectiveness_elite_with_two_never_fails() {
    let r = run(
        "effectiveness",
        "test",
        &["class=elite", "general=true", "supported=true"],
        &[],
        Plan::new(10_000, 1, 1, Sampler::Dice),
    );
    assert_eq!(r.outcomes[1].cell.count, Some(0));
    assert_eq!(r.outcomes[1].cell.exact, Some(0.0));
    let r = run(
        "effectiveness",
        "test",
        &["class=elite", "general=true", "supported=true"],
        &["natural-one-fails"],
        Plan::new(1, 1, 1, Sampler::Table),
    );
    assert!((r.outcomes[1].cell.exact.unwrap() - 1.0 / 6.0).abs() < 1e-12);
}

#[test]
fn without_the_amendment_nobody_retreats() {
    // Retreats come only from the amendment (or melee, not modelled here).
    let r = run(
        "effectiveness",
        "under-fire",
        &["fire_dice=6"],
        &[],
        Plan::new(50_000, 3, 2, Sampler::Table),
    );
    let retreating = r
        .outcomes
        .iter()
        .find(|o| o.outcome == "retreating")
        .unwrap();
    assert_eq!(
        (retreating.cell.count, retreating.cell.exact),
        (Some(0), Some(0.0))
    );
}

#[test]
fn linear_warfare_round_and_volley_exactly() {
    let p = |params: &[&str]| {
        run(
            "linear-warfare",
            "test",
            params,
            &[],
            Plan::new(1, 1, 1, Sampler::Table),
        )
    };
    let even = p(&["test=round"]);
    let e = |r: &morale_lab::report::Report, i: usize| r.outcomes[i].cell.exact.unwrap();
    assert!((e(&even, 0) - 15.0 / 36.0).abs() < 1e-12 && (e(&even, 1) - 6.0 / 36.0).abs() < 1e-12);
    let plus = p(&["test=round", "difference=1"]);
    assert!((e(&plus, 0) - 21.0 / 36.0).abs() < 1e-12 && (e(&plus, 1) - 5.0 / 36.0).abs() < 1e-12);
    let volley = p(&["test=volley", "stands=6"]);
    assert!((e(&volley, 0) - 1.0 / 64.0).abs() < 1e-12);
    assert!((volley.metrics[0].exact.unwrap() - 3.0).abs() < 1e-12);
}

#[test]
fn melees_always_end() {
    // No melee is left "fighting" after its steps: every trial reaches an outcome.
    for (a, d) in [
        (
            "attacker=guards pips=12 charging general",
            "defender=guards pips=12 obstacle general",
        ),
        ("attacker=light pips=2", "defender=light pips=1"),
    ] {
        let r = run(
            "linear-warfare",
            "melee",
            &[a, d],
            &[],
            Plan::new(20_000, 5, 2, Sampler::Table),
        );
        let total: f64 = r.outcomes.iter().map(|o| o.cell.exact.unwrap()).sum();
        assert!(
            (total - 1.0).abs() < 1e-12,
            "{a} v {d}: outcomes sum to {total}"
        );
        assert_eq!(
            r.outcomes
                .iter()
                .map(|o| o.cell.count.unwrap())
                .sum::<u64>(),
            20_000
        );
    }
}

#[test]
fn one_waiver_test_however_many_causes() {
    // Flank charge by better-class shock troops on standing skirmishers: three causes, one test.
    // A regular target needs 4+: it fails with exactly 1/2 (two tests would give 3/4).
    let r = run(
        "rank-and-file",
        "charge",
        &[
            "attacker=veteran infantry shock",
            "defender=regular skirmisher stands=4",
            "charge_from=flank",
        ],
        &["waiver-tests"],
        Plan::new(1, 1, 1, Sampler::Table),
    );
    let failed = r
        .metrics
        .iter()
        .find(|m| m.name == "waiver_failed")
        .unwrap();
    assert!((failed.exact.unwrap() - 0.5).abs() < 1e-12);
    // Without the option no test is taken; with it but no trigger, none either.
    for (params, opts) in [
        (
            vec![
                "attacker=veteran infantry shock",
                "defender=regular",
                "charge_from=flank",
            ],
            vec![],
        ),
        (
            vec!["attacker=veteran infantry", "defender=regular"],
            vec!["waiver-tests"],
        ),
    ] {
        let r = run(
            "rank-and-file",
            "charge",
            &params,
            &opts,
            Plan::new(1, 1, 1, Sampler::Table),
        );
        let failed = r
            .metrics
            .iter()
            .find(|m| m.name == "waiver_failed")
            .unwrap();
        assert_eq!(failed.exact, Some(0.0), "{params:?} {opts:?}");
    }
    // An Unsteady target that fails breaks before contact: 1/2.
    let r = run(
        "rank-and-file",
        "charge",
        &[
            "attacker=regular",
            "defender=regular state=unsteady",
            "charge_from=rear",
        ],
        &["waiver-tests"],
        Plan::new(1, 1, 1, Sampler::Table),
    );
    assert_eq!(r.outcomes[0].outcome, "target_broke");
    assert!((r.outcomes[0].cell.exact.unwrap() - 0.5).abs() < 1e-12);
}

#[test]
fn elephant_stampedes_on_one_or_two() {
    // One turn, one sure hit: a Regular elephant fails its 4+ test with 1/2, then stampedes
    // with 1/3: 1/6.
    let r = run(
        "rank-and-file",
        "under-fire",
        &["kind=elephant", "stands=1", "turns=1", "fire_loss=0,1"],
        &["elephant-stampede"],
        Plan::new(1, 1, 1, Sampler::Table),
    );
    let p = r.metrics.iter().find(|m| m.name == "p_stampede").unwrap();
    assert!((p.exact.unwrap() - 1.0 / 6.0).abs() < 1e-12);
}

#[test]
fn effectiveness_melee_ties_fight_on() {
    // Equal sides: each wins with the same chance; rounds are more than one on average.
    let r = run(
        "effectiveness",
        "melee",
        &["attacker=regular", "defender=regular"],
        &[],
        Plan::new(1, 1, 1, Sampler::Table),
    );
    let e = |i: usize| r.outcomes[i].cell.exact.unwrap();
    assert!((e(0) - e(1)).abs() < 1e-12);
    assert!(r.metrics[0].exact.unwrap() > 1.0);
}

/// Units of more than 24 stands roll their melee dice in several tables: a 40 v 40 melee and
/// charge run, with an exact value beside every estimate, and the counts pass the exact binomial
/// test against them at level 1e-6.
#[test]
fn melees_of_the_largest_units_run_with_exact_values() {
    let n = 200_000;
    for scenario in ["melee", "charge"] {
        let r = run(
            "rank-and-file",
            scenario,
            &[
                "attacker=veteran cavalry stands=40",
                "defender=green infantry stands=40",
            ],
            &[],
            Plan::new(n, 11, 2, Sampler::Table),
        );
        for o in &r.outcomes {
            let ex = o.cell.exact.expect("exact beside every estimate");
            let count = (o.cell.p * n as f64).round() as u64;
            assert!(
                plausible(count, n, ex, 1e-6),
                "{scenario} {}: {count} of {n} against exact {ex}",
                o.outcome
            );
        }
    }
}

/// docs/TESTING.md states how many settings this comparison runs; the number is this list's.
#[test]
fn the_testing_notes_count_the_settings_compared() {
    let readme = include_str!("../docs/TESTING.md");
    let n = settings().len();
    assert!(
        readme.contains(&format!("{n} settings of all three systems")),
        "docs/TESTING.md should say \"{n} settings of all three systems\""
    );
}
