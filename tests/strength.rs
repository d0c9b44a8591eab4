//! Strength in the line (docs/RULES.md §4): strength-turns held and weakly held turns, exact,
//! against hand calculations in fractions, and the simulation within its interval of them.

use morale_lab::{Control, RunOptions, Scenario, system};

use crate::common::{exact_metric, inputs};

fn exact(system: &str, pairs: &[&str]) -> morale_lab::Report {
    let job = system::build(system, Scenario::UnderFire, &inputs(pairs), &[]).unwrap();
    job.run(
        &RunOptions::new(1, 1).exact_only(true).threads(Some(1)),
        &Control::new(),
    )
    .unwrap()
}

/// Effectiveness, two turns, each turn losing a quarter with chance 1/2; a quarter lost calls a
/// test (EF-2, regular: a natural 4+, so 1/2), whose failure costs another quarter. A turn
/// from q quarters leaves q (1/2), q − 1 (1/4) or q − 2 (1/4); from 4 no unit can reach 0
/// before the second turn's end, so the expected loss is 3/4 a turn: 3¼ held after the first
/// turn, 2½ after the second: 23/4 quarter-turns, 23/16 turns at full strength. Weakly held
/// (below 2 of 4 quarters) only after the second: 3 → 1 (1/4 · 1/4) and 2 → 1 or 0
/// (1/4 · 1/2), 3/16.
#[test]
fn effectiveness_strength_turns_are_the_hand_calculation() {
    let r = exact(
        "effectiveness",
        &["turns=2", "fire_loss=1/2,1/2", "measure_strength=true"],
    );
    // In turns at full strength (4 quarters): 23/16.
    assert!((exact_metric(&r, "strength_turns") - 23.0 / 16.0).abs() < 1e-12);
    assert!((exact_metric(&r, "weak_turns") - 3.0 / 16.0).abs() < 1e-12);
}

/// Rank & File, one turn, 4 stands, a stand lost with chance 1/2; a loss calls a morale test
/// (RF-5): Regular's base 4 with −1 for the stand lost (RF-1, RF-2) needs 5+, 1/3, and a
/// failure leaves the unit Unsteady out of its place (RF-4: nothing held). Held: 4 · 1/2 +
/// 3 · 1/2 · 1/3 = 5/2; weakly held (below 2 stands) only when the place is empty, 1/2 · 2/3.
#[test]
fn rank_and_file_strength_turns_are_the_hand_calculation() {
    let r = exact(
        "rank-and-file",
        &[
            "turns=1",
            "stands=4",
            "fire_loss=1/2,1/2",
            "measure_strength=true",
        ],
    );
    // In turns at full strength (4 stands): 5/8.
    assert!((exact_metric(&r, "strength_turns") - 5.0 / 8.0).abs() < 1e-12);
    assert!((exact_metric(&r, "weak_turns") - 1.0 / 3.0).abs() < 1e-12);
}

/// Every system under fire, measured: the simulation's strength-turns within its (conservative)
/// 99.9% interval of the exact value; unmeasured, the report has no such metric and its other
/// numbers are the measured report's exact values.
#[test]
fn the_simulation_checks_the_exact_strength_in_every_system() {
    for system in ["rank-and-file", "effectiveness", "linear-warfare"] {
        let pairs = ["turns=6", "measure_strength=true"];
        let job = system::build(system, Scenario::UnderFire, &inputs(&pairs), &[]).unwrap();
        let r = job
            .run(
                &RunOptions::new(200_000, 7)
                    .threads(Some(2))
                    .confidence(0.999),
                &Control::new(),
            )
            .unwrap();
        for name in ["strength_turns", "weak_turns"] {
            let m = r.metrics.iter().find(|m| m.name == name).unwrap();
            let (v, se, ex) = (m.value.unwrap(), m.stderr.unwrap(), m.exact.unwrap());
            assert!(
                (v - ex).abs() <= 3.3 * se,
                "{system} {name}: {v} ± {se} against exact {ex}"
            );
        }
        let plain = exact(system, &["turns=6"]);
        assert!(plain.metrics.iter().all(|m| m.name != "strength_turns"));
        let measured = exact(system, &pairs);
        for m in &plain.metrics {
            let other = measured.metrics.iter().find(|x| x.name == m.name).unwrap();
            assert_eq!(m.exact, other.exact, "{system} {}", m.name);
        }
    }
}

/// A mechanic file declares the same measure as a `turns_sum` metric (a value of its state
/// added up over the turns): the effectiveness mechanic with the strength it holds gives the
/// built-in system's hand calculation, 23/4 quarter-turns (23/16 as a share).
#[test]
fn a_mechanic_file_sums_a_value_over_the_turns() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/mechanics/effectiveness.rhai"
    ))
    .unwrap();
    let values_of = "fn values_of(p, s) { #{ quarters_lost: p.steps - p.lost - if s.status == \"eliminated\" { 0 } else { s.quarters } } }";
    assert!(src.contains(values_of));
    let declared = r#"values: [#{ name: "quarters_lost", max: p.steps }],
        outcomes: ["in_line", "retreating", "eliminated"],"#;
    assert!(src.contains(declared));
    let src = src
        .replace(
            values_of,
            "fn values_of(p, s) { #{ quarters_lost: p.steps - p.lost - if s.status == \"eliminated\" { 0 } else { s.quarters }, \
             held: if s.status == \"in_line\" { s.quarters } else { 0 } } }",
        )
        .replace(
            declared,
            r#"values: [#{ name: "quarters_lost", max: p.steps }, #{ name: "held", max: p.steps }],
        outcomes: ["in_line", "retreating", "eliminated"],"#,
        )
        .replace(
            r#"            #{ kind: "empty_turns" },
            #{ kind: "absorb_turn", name: "turn_eliminated""#,
            r#"            #{ kind: "empty_turns" },
            #{ kind: "turns_sum", name: "quarter_turns", value: "held",
               meaning: "quarters held in the line, summed over the turns" },
            #{ kind: "turns_sum", name: "strength_turns", value: "held", share: true,
               meaning: "the same in turns at full strength" },
            #{ kind: "absorb_turn", name: "turn_eliminated""#,
        );
    assert!(src.contains("turns_sum"));
    // The file as if it stood beside the others, read from memory.
    let mut read = |_: &str| -> morale_lab::Result<String> { Ok(src.clone()) };
    let sys = morale_lab::mechanic::load_with("mechanics/measured-effectiveness.rhai", &mut read)
        .unwrap();
    let path = sys.name();
    let pairs = inputs(&["turns=2", "fire_loss=1/2,1/2"]);
    let job = system::build(path, Scenario::UnderFire, &pairs, &[]).unwrap();
    let r = job
        .run(
            &RunOptions::new(100_000, 3).threads(Some(2)),
            &Control::new(),
        )
        .unwrap();
    assert!((exact_metric(&r, "quarter_turns") - 23.0 / 4.0).abs() < 1e-12);
    // `share: true`: each turn a share of the value's max (4 quarters), as the built-in's.
    assert!((exact_metric(&r, "strength_turns") - 23.0 / 16.0).abs() < 1e-12);
    let m = r
        .metrics
        .iter()
        .find(|m| m.name == "quarter_turns")
        .unwrap();
    assert!((m.value.unwrap() - 23.0 / 4.0).abs() <= 4.0 * m.stderr.unwrap());
}

/// An engagement in every system: each side's strength-turns and weakly held turns, the
/// simulation within its conservative interval of the exact values; a side's front holds at
/// most its full strength every turn.
#[test]
fn an_engagement_measures_both_fronts() {
    for system in ["rank-and-file", "effectiveness", "linear-warfare"] {
        let job = system::build(system, Scenario::Engagement, &inputs(&["turns=5"]), &[]).unwrap();
        let r = job
            .run(
                &RunOptions::new(100_000, 11)
                    .threads(Some(2))
                    .confidence(0.999),
                &Control::new(),
            )
            .unwrap();
        for name in [
            "a_strength_turns",
            "b_strength_turns",
            "a_weak_turns",
            "b_weak_turns",
        ] {
            let m = r.metrics.iter().find(|m| m.name == name).unwrap();
            let (v, se, ex) = (m.value.unwrap(), m.stderr.unwrap(), m.exact.unwrap());
            assert!(
                (v - ex).abs() <= 3.3 * se,
                "{system} {name}: {v} ± {se} against exact {ex}"
            );
            assert!((0.0..=5.0).contains(&ex), "{system} {name}: {ex}");
        }
    }
}
