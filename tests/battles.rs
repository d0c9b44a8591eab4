//! `engagement` and `line`: consistency with the scenarios they are built from,
//! symmetry, and nothing happening when nothing can happen. Statistical checks use fixed seeds
//! and a two-sided level of 1e-5 (z = 4.42), stated once here.

use morale_lab::report::Report;
use morale_lab::{Sampler, Scenario};

use crate::common::{Plan, bin, exact_metric, run};

/// Two-sided 1e-5.
const Z: f64 = 4.42;

/// Every system with battles, from the registry.
fn systems() -> Vec<&'static str> {
    morale_lab::system::systems()
        .into_iter()
        .filter(|s| s.scenarios().iter().any(|sc| sc.is_battle()))
        .map(|s| s.name())
        .collect()
}

fn outcome(r: &Report, name: &str) -> (u64, f64) {
    let o = r
        .outcomes
        .iter()
        .find(|o| o.outcome == name)
        .unwrap_or_else(|| panic!("no outcome {name}"));
    (o.cell.count.unwrap(), o.cell.p)
}

fn metric(r: &Report, name: &str) -> (f64, f64) {
    let m = r
        .metrics
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no metric {name}"));
    (m.value.unwrap_or(0.0), m.stderr.unwrap_or(0.0))
}

#[test]
fn nothing_happens_without_fire_or_charge() {
    for system in systems() {
        for (scenario, undecided) in [("engagement", "undecided_at_cap"), ("line", "draw_at_cap")] {
            let r = run(
                system,
                scenario,
                &["fire_range=0", "charge_when_shaken=false", "turns=6"],
                &[],
                Plan::new(20_000, 3, 2, Sampler::Dice),
            );
            assert_eq!(outcome(&r, undecided).1, 1.0, "{system} {scenario}");
            for m in &r.metrics {
                // Every unit ends as it began: in the line, nothing lost; no trial was
                // decided, so there is no mean turn of decision.
                let want = if m.name.ends_with("_good") || m.name.ends_with("_in_line") {
                    Some(1.0)
                } else if m.name == "turns_to_decision" {
                    None
                } else {
                    Some(0.0)
                };
                assert_eq!(m.value, want, "{system} {scenario} {}", m.name.as_str());
            }
            let lines = r.tables.iter().find(|t| t.name == "lines").unwrap();
            assert!(
                lines
                    .rows
                    .iter()
                    .all(|row| row.cells.iter().all(|c| c.p == 0.0)),
                "{system} {scenario}: a line moved with nothing happening"
            );
        }
    }
}

/// A mean from Monte Carlo against an exact value, within Z standard errors (a standard error
/// of zero needs equality).
fn agrees(what: &str, (mean, se): (f64, f64), exact: f64) {
    assert!(
        (mean - exact).abs() <= Z * se + 1e-12,
        "{what}: {mean} ± {se} against exact {exact}"
    );
}

#[test]
fn a_charge_on_turn_one_is_the_charge_scenario() {
    // Rank & File: fire off, side A charges on turn 1 and the fight is cut after that turn.
    // With waiver tests on and a better-class shock attacker, the target also tests (RF-10).
    let a = "attacker=veteran infantry shock stands=6";
    let d = "defender=green infantry stands=6";
    let options = ["waiver-tests"];
    let e = run(
        "rank-and-file",
        "engagement",
        &[a, d, "fire_range=0", "charge_at_turn=1", "turns=1"],
        &options,
        Plan::new(400_000, 11, 2, Sampler::Dice),
    );
    let c = run(
        "rank-and-file",
        "charge",
        &[a, d],
        &options,
        Plan::new(1_000, 1, 1, Sampler::Table),
    );
    agrees(
        "attacker stands lost",
        metric(&e, "a_strength_lost"),
        exact_metric(&c, "attacker_stands_lost"),
    );
    agrees(
        "defender stands lost",
        metric(&e, "b_strength_lost"),
        exact_metric(&c, "defender_stands_lost"),
    );
    // Linear Warfare: the charge's pip and closing fire, then the melee.
    let a = "attacker=guards pips=7";
    let d = "defender=line pips=6";
    let e = run(
        "linear-warfare",
        "engagement",
        &[a, d, "fire_range=0", "charge_at_turn=1", "turns=1"],
        &[],
        Plan::new(400_000, 12, 2, Sampler::Dice),
    );
    let m = run(
        "linear-warfare",
        "melee",
        &["attacker=guards pips=7 charging", d],
        &[],
        Plan::new(1_000, 1, 1, Sampler::Table),
    );
    agrees(
        "attacker pips lost",
        metric(&e, "a_strength_lost"),
        exact_metric(&m, "attacker_pips_lost"),
    );
    agrees(
        "defender pips lost",
        metric(&e, "b_strength_lost"),
        exact_metric(&m, "defender_pips_lost"),
    );
    agrees(
        "defender destroyed",
        metric(&e, "b_ends_removed"),
        exact_metric(&m, "defender_destroyed"),
    );
}

/// Two shares from the same multinomial trials are equal within Z standard errors of their
/// difference.
fn same_chance(what: &str, r: &Report, a: &str, b: &str) {
    let n = r.trials as f64;
    let ((_, pa), (_, pb)) = (outcome(r, a), outcome(r, b));
    let se = ((pa + pb - (pa - pb).powi(2)) / n).sqrt();
    assert!(
        (pa - pb).abs() <= Z * se + 1e-12,
        "{what}: {a} {pa} against {b} {pb} (s.e. {se})"
    );
}

#[test]
fn symmetric_setups_give_each_side_the_same_chance() {
    for system in systems() {
        let firefight = ["charge_when_shaken=false", "turns=8"];
        let e = run(
            system,
            "engagement",
            &firefight,
            &[],
            Plan::new(200_000, 5, 2, Sampler::Dice),
        );
        same_chance(system, &e, "side_a_holds", "side_b_holds");
        let mut line = firefight.to_vec();
        line.push("supports=2");
        let l = run(
            system,
            "line",
            &line,
            &[],
            Plan::new(100_000, 6, 2, Sampler::Dice),
        );
        same_chance(system, &l, "side_a_wins", "side_b_wins");
        // The two means come from the same trials, so they are correlated: the standard
        // error of their difference is at most sa + sb (|cov| <= sa·sb, Cauchy–Schwarz), the
        // bound used here whatever the correlation.
        let (ga, sa) = metric(&l, "a_hole_turns");
        let (gb, sb) = metric(&l, "b_hole_turns");
        assert!(
            (ga - gb).abs() <= Z * (sa + sb),
            "{system}: holes {ga} against {gb} (s.e. {sa}, {sb})"
        );
    }
}

#[test]
fn battles_are_the_same_at_any_thread_count() {
    for system in systems() {
        let one = run(
            system,
            "line",
            &["supports=1"],
            &[],
            Plan::new(150_000, 9, 1, Sampler::Dice),
        );
        let two = run(
            system,
            "line",
            &["supports=1"],
            &[],
            Plan::new(150_000, 9, 2, Sampler::Dice),
        );
        assert_eq!(
            serde_json::to_string(&one.outcomes).unwrap(),
            serde_json::to_string(&two.outcomes).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&one.tables).unwrap(),
            serde_json::to_string(&two.tables).unwrap()
        );
    }
}

#[test]
fn line_specs_are_checked() {
    use morale_lab::params::Input;
    let build = |pairs: &[&str]| {
        let inputs: Vec<Input> = pairs.iter().map(|p| Input::parse_set(p).unwrap()).collect();
        morale_lab::system::build("effectiveness", Scenario::Line, &inputs, &[]).map(|_| ())
    };
    assert!(build(&["attacker=3 x elite; 3 x poor", "defender=6 x regular"]).is_ok());
    let e = build(&["attacker=4 x elite", "defender=6 x regular"]).unwrap_err();
    assert!(e.to_string().contains("same number"), "{e}");
    let e = build(&["attacker=13 x elite"]).unwrap_err();
    assert!(e.to_string().contains("1 to 12"), "{e}");
    let e = build(&["attacker=2 x elite; ; 2 x poor"]).unwrap_err();
    assert!(e.to_string().contains("empty"), "{e}");
    let e = morale_lab::system::build(
        "rank-and-file",
        Scenario::Engagement,
        &[Input::parse_set("attacker=2 x regular infantry").unwrap()],
        &[],
    )
    .map(|_| ())
    .unwrap_err();
    assert!(e.to_string().contains("one unit a side"), "{e}");
    // Side B's own fire.
    assert!(build(&["b_fire=6 on 4+"]).is_ok());
    let e = build(&["b_fire=6 at 4"]).unwrap_err();
    assert!(e.to_string().contains("DICE on TO_HIT"), "{e}");
    let e = morale_lab::system::build(
        "linear-warfare",
        Scenario::Line,
        &[Input::parse_set("b_fire=6 on 4").unwrap()],
        &[],
    )
    .map(|_| ())
    .unwrap_err();
    assert!(e.to_string().contains("a die per stand"), "{e}");
}

#[test]
fn better_fire_wins_more_often() {
    // Side B with 6 dice on 4+ against side A's 4 on 5+ (effectiveness defaults), no charges.
    let r = run(
        "effectiveness",
        "engagement",
        &["b_fire=6 on 4", "charge_when_shaken=false"],
        &[],
        Plan::new(50_000, 4, 2, Sampler::Dice),
    );
    let ((_, a), (_, b)) = (outcome(&r, "side_a_holds"), outcome(&r, "side_b_holds"));
    assert!(b > a + 0.5, "side B {b} against side A {a}");
}

/// A line's report says whose break point it is: the tool's assumption for Rank & File (no
/// number in the sources) and the effectiveness rules (no army rule), LW-7's half for Linear
/// Warfare; `list` gives each system's own example of a unit spec.
#[test]
fn line_reports_say_whose_break_point_and_list_examples_fit() {
    let notes = |system: &str, a: &str, d: &str| {
        let o = bin()
            .args([
                "line",
                "--system",
                system,
                "--attacker",
                a,
                "--defender",
                d,
                "--trials",
                "200",
                "--format",
                "json",
                "--quiet",
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let v: serde_json::Value = serde_json::from_slice(&o).unwrap();
        v["notes"].to_string()
    };
    let rf = notes(
        "rank-and-file",
        "4 x regular infantry",
        "4 x green infantry",
    );
    assert!(
        rf.contains(
            "tool's assumption: the Rank & File sources give the army break point no number"
        ),
        "{rf}"
    );
    let ef = notes("effectiveness", "4 x regular", "4 x poor");
    assert!(
        ef.contains("the effectiveness rules have no army morale rule"),
        "{ef}"
    );
    let lw = notes("linear-warfare", "4 x line", "4 x light");
    assert!(
        lw.contains("LW-7: an army breaks at half its units"),
        "{lw}"
    );
    for (system, example, not) in [
        ("rank-and-file", "veteran cavalry stands=6 shock", "guards"),
        ("effectiveness", "elite general lost=1", "guards"),
        ("linear-warfare", "guards pips=7 double-move", "veteran"),
    ] {
        let o = bin()
            .args(["list", "--system", system])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let list = String::from_utf8(o).unwrap();
        let line = list
            .lines()
            .find(|l| l.trim_start().starts_with("attacker (--attacker)"))
            .unwrap();
        assert!(
            line.contains(example) && !line.contains(not),
            "{system}: {line}"
        );
        let b_fire = list
            .lines()
            .find(|l| l.trim_start().starts_with("b_fire"))
            .unwrap();
        assert!(b_fire.contains("Allowed: DICE on TO_HIT"), "{b_fire}");
    }
}

/// A unit gone from the line counts what it lost, whether or not a support took its place: a
/// Regular unit of 8 stands, Unsteady with 3 lost, loses a fourth stand to fire, fails its test
/// (the 50% rule) and is dispersed with 4 stands lost; its support (the same spec: 3 lost) steps
/// up. Side A has lost 4 + 3 = 7 stands, not its first unit's full 8 and the support's 3.
#[test]
fn a_replaced_unit_counts_what_it_lost_not_what_it_had() {
    let r = run(
        "rank-and-file",
        "line",
        &[
            "attacker=regular infantry stands=8 lost=3 state=unsteady",
            "defender=regular infantry",
            "units=1",
            "supports=1",
            "turns=1",
            "fire_loss=0,1",
            "charge_when_shaken=false",
        ],
        &[],
        Plan::new(2_000, 3, 2, Sampler::Dice),
    );
    assert!(metric(&r, "a_units_lost").0 > 0.5);
    assert_eq!(metric(&r, "a_strength_lost"), (7.0, 0.0));
}
