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
                } else if m.name.ends_with("_strength_turns") {
                    // Every turn at full strength.
                    Some(6.0)
                } else if m.name == "turns_to_decision" {
                    None
                } else {
                    Some(0.0)
                };
                assert_eq!(m.value, want, "{system} {scenario} {}", m.name.as_str());
            }
            // Nothing moves: no gaps, losses, shaken units or weak turns, and the strength
            // held each turn is the first turn's (full).
            let lines = r.tables.iter().find(|t| t.name == "lines").unwrap();
            let first = &lines.rows[0].cells;
            assert!(
                lines
                    .rows
                    .iter()
                    .all(|row| row.cells.iter().zip(&lines.columns).zip(first).all(
                        |((c, col), f)| match col.starts_with("strength_") {
                            true => c.p == f.p && c.p > 0.0,
                            false => c.p == 0.0,
                        }
                    )),
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

/// Engagements of every system over a grid (classes, sizes, distances, charge policies, the
/// optional rules): each in Rank & File, the effectiveness rules and Linear Warfare.
/// The lines small enough to solve (one file a side, with or without a support; two files in
/// Linear Warfare), with blocked retreats, break points and optional rules.
fn line_grid() -> Vec<(&'static str, Vec<&'static str>, Vec<&'static str>)> {
    vec![
        (
            "rank-and-file",
            vec![
                "attacker=1 x veteran infantry stands=6",
                "defender=1 x green infantry stands=6",
                "supports=1",
                "turns=8",
                "rule:break_point=100",
            ],
            vec!["keep-broken-units"],
        ),
        (
            "effectiveness",
            vec!["units=1", "supports=1", "p_blocked=1/2", "turns=8"],
            vec!["retreat-on-fire", "return-roll"],
        ),
        (
            "linear-warfare",
            vec!["units=2", "turns=6", "rule:break_point=100"],
            vec![],
        ),
        ("linear-warfare", vec!["units=1", "supports=1"], vec![]),
    ]
}

fn engagement_grid() -> Vec<(&'static str, Vec<&'static str>, Vec<&'static str>)> {
    vec![
        ("rank-and-file", vec![], vec![]),
        (
            "rank-and-file",
            vec![
                "attacker=veteran infantry stands=6",
                "defender=green infantry stands=6",
                "charge_at_turn=2",
            ],
            vec![],
        ),
        (
            "rank-and-file",
            vec![
                "attacker=veteran cavalry shock stands=4",
                "defender=regular infantry stands=6",
                "range=3",
                "charge_at_turn=1",
            ],
            vec!["waiver-tests", "blown-cavalry", "uncontrolled"],
        ),
        (
            "rank-and-file",
            vec![
                "attacker=green infantry stands=4",
                "defender=elite infantry stands=4",
                "fire_dice=6",
                "turns=8",
            ],
            vec!["keep-broken-units"],
        ),
        ("effectiveness", vec![], vec![]),
        (
            "effectiveness",
            vec![
                "attacker=elite general",
                "defender=poor",
                "charge_at_turn=3",
                "p_blocked=1/3",
            ],
            vec!["retreat-on-fire", "return-roll"],
        ),
        (
            "effectiveness",
            vec![
                "attacker=regular lost=1",
                "defender=regular",
                "range=2",
                "charge_when_shaken=false",
                "charge_at_turn=2",
            ],
            vec!["natural-one-fails"],
        ),
        ("linear-warfare", vec![], vec![]),
        (
            "linear-warfare",
            vec![
                "attacker=guards pips=7",
                "defender=line pips=5",
                "range=3",
                "charge_at_turn=2",
            ],
            vec![],
        ),
        (
            "linear-warfare",
            vec![
                "attacker=cavalry",
                "defender=line",
                "fall_back_at=2",
                "return_at=3",
                "charge_when_shaken=false",
                "charge_at_turn=1",
            ],
            vec!["dice-follow-pips"],
        ),
    ]
}

/// The check the battle code lacked: an engagement's exact chain and its dice, rolled through
/// the battle code, agree over a grid of settings of every system; and so does the table
/// sampler, which draws each turn from the chain's compiled cores. Every outcome, every
/// per-turn cell (decided after each turn) passes a binomial test against its exact value, and
/// every mean (metrics and the per-turn series) sits within Z standard errors of its exact
/// value.
#[test]
fn engagements_agree_with_their_exact_chain() {
    let grid = engagement_grid();
    for system in systems() {
        assert!(
            grid.iter().filter(|(s, ..)| *s == system).count() >= 3,
            "{system}: at least three engagements in the grid"
        );
    }
    let lines = line_grid();
    let mut checked = 0;
    let samplers = [Sampler::Dice, Sampler::Table];
    let cases: Vec<_> = grid
        .iter()
        .map(|g| ("engagement", g))
        .chain(lines.iter().map(|g| ("line", g)))
        .collect();
    for (k, (sampler, (scenario, (system, params, options)))) in samplers
        .iter()
        .flat_map(|s| cases.iter().map(move |g| (s, g)))
        .enumerate()
    {
        let r = run(
            system,
            scenario,
            params,
            options,
            Plan::new(200_000, 500 + k as u64, 2, *sampler),
        );
        assert_eq!(
            r.sampler.as_deref(),
            Some(sampler.name()),
            "{system} {params:?}: the sampler asked for runs"
        );
        let what = format!(
            "{scenario} {system} {params:?} {options:?} ({} sampler)",
            sampler.name()
        );
        let n = r.trials;
        let close = |name: &str, count: u64, exact: f64| {
            // A count's normal tolerance (Z standard errors of a binomial at the exact chance),
            // and one trial's worth for chances near 0 or 1 (an exact sum may pass 1 in its
            // last bits: 1.000000000000002).
            let p = exact.clamp(0.0, 1.0);
            let sd = (n as f64 * p * (1.0 - p)).sqrt();
            assert!(
                (count as f64 - n as f64 * exact).abs() <= Z * sd + 1.0,
                "{what}: {name} {count} of {n}, exact {exact}"
            );
        };
        for o in &r.outcomes {
            close(
                &o.outcome,
                o.cell.count.unwrap(),
                o.cell.exact.expect("an exact value"),
            );
            checked += 1;
        }
        for t in &r.tables {
            for row in &t.rows {
                for (col, c) in t.columns.iter().zip(&row.cells) {
                    let exact = c.exact.expect("an exact value in every cell");
                    let name = format!("{} turn {} {col}", t.name, row.turn);
                    if t.name == "lines" {
                        // A mean: its 95% interval's half-width is 1.96 standard errors. With
                        // every trial alike (no spread), the exact mean must be one the trials
                        // could miss: under 10 trials' worth away.
                        let se = (c.ci_high.unwrap() - c.ci_low.unwrap()) / 2.0 / 1.96;
                        if se == 0.0 {
                            assert!(
                                (c.p - exact).abs() * (n as f64) < 10.0,
                                "{what}: {name} = {} in every trial, exact {exact}",
                                c.p
                            );
                        } else {
                            agrees(&name, (c.p, se), exact);
                        }
                    } else {
                        close(&name, c.count.unwrap(), exact);
                    }
                    checked += 1;
                }
            }
        }
        for m in r.metrics.iter().filter(|m| m.n.unwrap_or(0) >= 100) {
            let exact = m.exact.expect("an exact value for every metric");
            let (mean, se) = metric(&r, &m.name);
            if se == 0.0 {
                // Every trial gave the same value: a value the exact chain gives rarely
                // enough that none of the trials met it.
                let n = m.n.unwrap() as f64;
                assert!(
                    (mean - exact).abs() * n < 10.0,
                    "{what}: {} = {mean} in every trial, exact {exact}",
                    m.name
                );
            } else {
                agrees(&format!("{what}: {}", m.name), (mean, se), exact);
            }
            checked += 1;
        }
    }
    assert!(checked > 2000, "checked {checked} values");
}

/// A hand value from the rules' words, with no code of the tool: one turn of the effectiveness
/// rules' engagement (two Regular units a move apart, side A never charging, each firing 4 dice
/// on 5+, 2 hits a quarter, EF-3). Each side's hits are Binomial(4, 1/3): 2–3 hits take a
/// quarter, 4 take two. A unit that lost 25% or more tests (EF-2: a D6 reaching 4, so it fails
/// half the time) and a failure costs a further quarter. Quarters lost:
/// P(2) + P(3) + 2·P(4) + P(hits ≥ 2)/2 = 24/81 + 8/81 + 2/81 + (33/81)/2 = 101/162; no unit can
/// lose all four, so nothing is decided.
#[test]
fn one_turn_of_an_effectiveness_engagement_by_hand() {
    let r = run(
        "effectiveness",
        "engagement",
        &["turns=1", "charge_when_shaken=false"],
        &[],
        Plan::new(1_000, 1, 1, Sampler::Dice),
    );
    for side in ["a", "b"] {
        let lost = exact_metric(&r, &format!("{side}_strength_lost"));
        assert!((lost - 101.0 / 162.0).abs() < 1e-12, "{side}: {lost}");
    }
    let undecided = r
        .outcomes
        .iter()
        .find(|o| o.outcome == "undecided_at_cap")
        .unwrap();
    assert_eq!(undecided.cell.exact, Some(1.0));
}

/// The engagements and solvable lines of the grids keep their invariants over every reachable
/// state, and their fight tables (the table sampler's) solved as chains of their own give the
/// exact solution within 1e-9: the moves, classes, series and the values a table keeps per core
/// (all but the hole-turns, read off what a trial accumulated). Three settings are left to the
/// sampling test above: their audits (every move of every reachable state checked) take 7–53 s
/// in a release build.
#[test]
fn fight_tables_equal_the_exact_chain() {
    let slow = |params: &[&str]| {
        params.contains(&"p_blocked=1/3")
            || params.contains(&"attacker=regular lost=1")
            || params.contains(&"units=2")
    };
    let mut audited = 0;
    for (scenario, (system, params, options)) in engagement_grid()
        .into_iter()
        .map(|g| ("engagement", g))
        .chain(line_grid().into_iter().map(|g| ("line", g)))
        .filter(|(_, (_, params, _))| !slow(params))
    {
        let options: Vec<String> = options.iter().map(|s| s.to_string()).collect();
        let job = morale_lab::system::build(
            system,
            Scenario::parse(scenario).unwrap(),
            &crate::common::inputs(&params),
            &options,
        )
        .unwrap();
        job.audit(200, 3)
            .unwrap_or_else(|e| panic!("{scenario} {system} {params:?} {options:?}: {e}"));
        audited += 1;
    }
    assert_eq!(audited, 11);
}

/// A fight whose table would take longer than its budget to compile (two 40-stand units whose
/// every turn holds melees fought out, over 1000 turns) still runs, by the dice, and says so in
/// its report; it is not refused.
#[test]
fn a_fight_too_slow_to_tabulate_is_played_by_the_dice() {
    let out = bin()
        .args([
            "engagement",
            "--system",
            "rank-and-file",
            "--format",
            "json",
        ])
        .args(["--set", "turns=1000", "--set", "attacker=veteran stands=40"])
        .args(["--set", "defender=veteran stands=40"])
        .args(["--trials", "2000", "--exact-budget", "1"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["sampler"], "dice", "{}", v["notes"]);
    let notes = v["notes"].to_string();
    assert!(
        notes.contains("too large or too slow to compile"),
        "{notes}"
    );
    assert_eq!(v["trials"], 2000);
}
