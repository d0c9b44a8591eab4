//! Readings of the sources' own words (issue 17) that show at the command line and in whole
//! fights: each test is built from a sentence of the rules, with exact values where the
//! scenario has them and the same seed where it has not.

use morale_lab::Sampler;
use morale_lab::report::Report;

use crate::common::{Plan, exact_metric, exact_outcome, run};

fn exact_outcomes(r: &Report) -> Vec<(String, f64)> {
    r.outcomes
        .iter()
        .map(|o| (o.outcome.clone(), o.cell.exact.expect("an exact value")))
        .collect()
}

fn exact_metrics(r: &Report) -> Vec<(String, f64)> {
    r.metrics
        .iter()
        .map(|m| (m.name.clone(), m.exact.expect("an exact value")))
        .collect()
}

fn metric(r: &Report, name: &str) -> f64 {
    r.metrics
        .iter()
        .find(|m| m.name == name)
        .and_then(|m| m.value)
        .unwrap_or_else(|| panic!("no metric {name}"))
}

fn counts(r: &Report) -> Vec<Option<u64>> {
    r.outcomes.iter().map(|o| o.cell.count).collect()
}

/// LW-3: "Any unit *may* expend a pip to gain a double move to charge." A double move is a
/// charge that has paid a pip before the closing fire: `pips=7 double-move` is, pip for pip,
/// the melee of `pips=6 charging`, and the pip it spent is not a loss to fire or melee.
#[test]
fn a_double_move_is_a_charge_that_has_paid_its_pip() {
    let melee = |attacker: &str, sampler| {
        run(
            "linear-warfare",
            "melee",
            &[attacker, "defender=line pips=5 obstacle general"],
            &[],
            Plan::new(50_000, 7, 2, sampler),
        )
    };
    for sampler in [Sampler::Dice, Sampler::Table] {
        let moved = melee("attacker=line pips=7 double-move", sampler);
        let fresh = melee("attacker=line pips=6 charging", sampler);
        assert_eq!(exact_outcomes(&moved), exact_outcomes(&fresh));
        assert_eq!(exact_metrics(&moved), exact_metrics(&fresh));
        // The same dice, the same fights.
        assert_eq!(counts(&moved), counts(&fresh));
        assert_eq!(
            metric(&moved, "attacker_pips_lost"),
            metric(&fresh, "attacker_pips_lost")
        );
    }
    // A charge of a single move costs nothing: `charging` alone keeps all seven pips, and so
    // has the two-pip advantage over a Line of 5 that the double move spends.
    let single = melee("attacker=line pips=7 charging", Sampler::Table);
    let moved = melee("attacker=line pips=7 double-move", Sampler::Table);
    let win = |r: &Report| exact_outcomes(r)[0].1;
    assert!(
        win(&single) > win(&moved) + 0.01,
        "{} {}",
        win(&single),
        win(&moved)
    );
}

/// LW-3 in a fight: side A pays the pip only when the distance at the start of the turn needs
/// a double move (two moves apart), and the pip is reported as `a_double_move_pips`, apart from
/// `a_strength_lost`.
#[test]
fn in_a_fight_only_a_charge_from_two_moves_pays_a_pip() {
    let fight = |range: &str| {
        run(
            "linear-warfare",
            "engagement",
            &[
                "attacker=guards pips=7",
                "defender=line pips=6",
                "fire_range=0",
                "charge_at_turn=1",
                "turns=1",
                range,
            ],
            &[],
            Plan::new(20_000, 3, 2, Sampler::Dice),
        )
    };
    let near = fight("range=1");
    assert_eq!(metric(&near, "a_double_move_pips"), 0.0);
    let far = fight("range=2");
    assert_eq!(metric(&far, "a_double_move_pips"), 1.0);
    // Three moves away, side A advances a move and cannot charge in the first turn.
    let out = fight("range=3");
    assert_eq!(metric(&out, "a_double_move_pips"), 0.0);
    assert_eq!(metric(&out, "b_strength_lost"), 0.0);
    // The pip is not a loss: a double-move fight loses what the melee of a 6-pip Guards
    // charge loses, to the same dice.
    let melee = run(
        "linear-warfare",
        "melee",
        &["attacker=guards pips=7 double-move", "defender=line pips=6"],
        &[],
        Plan::new(1_000, 1, 1, Sampler::Table),
    );
    let exact = |name: &str| {
        melee
            .metrics
            .iter()
            .find(|m| m.name == name)
            .and_then(|m| m.exact)
            .unwrap()
    };
    let se = |name: &str| {
        far.metrics
            .iter()
            .find(|m| m.name == name)
            .and_then(|m| m.stderr)
            .unwrap()
    };
    // Two-sided 1e-5.
    for (fight, melee) in [
        ("a_strength_lost", "attacker_pips_lost"),
        ("b_strength_lost", "defender_pips_lost"),
    ] {
        assert!(
            (metric(&far, fight) - exact(melee)).abs() <= 4.42 * se(fight),
            "{fight} {} against {melee} {}",
            metric(&far, fight),
            exact(melee)
        );
    }
}

/// LW-2: "Cavalry do not shoot." A Line charging cavalry meets no closing fire, and cavalry in
/// a fight never fire.
#[test]
fn cavalry_do_not_shoot() {
    let melee = |defender: &str| {
        run(
            "linear-warfare",
            "melee",
            &["attacker=line pips=6 charging", defender],
            &[],
            Plan::new(1_000, 1, 1, Sampler::Table),
        )
    };
    let exact_lost = |r: &Report| {
        exact_metrics(r)
            .into_iter()
            .find(|(n, _)| n == "attacker_pips_lost")
            .unwrap()
            .1
    };
    // Against infantry the closing volley costs the attacker pips; against cavalry it can only
    // lose the melee's pips.
    let cav = melee("defender=cavalry");
    assert!(exact_lost(&melee("defender=line")) > exact_lost(&cav));
    // In a fight, cavalry opposite a Line that fires at them take losses and inflict none.
    let fight = run(
        "linear-warfare",
        "engagement",
        &[
            "attacker=line",
            "defender=cavalry",
            "charge_at_turn=0",
            "charge_when_shaken=false",
            "turns=6",
        ],
        &[],
        Plan::new(5_000, 5, 2, Sampler::Dice),
    );
    assert_eq!(metric(&fight, "a_strength_lost"), 0.0);
    assert!(metric(&fight, "b_strength_lost") > 1.0);
}

/// RF-6 (optional rule): re-rolls are "a certain number of times during a battle", and Elite
/// gives "a morale re-roll attempt". With `elite_rerolls=1` an Elite unit is, test for test, a
/// unit with one commander's re-roll; `unlimited` re-rolls every failed test.
#[test]
fn elite_rerolls_are_an_allowance_for_the_battle() {
    let rally = |pairs: &[&str]| {
        let mut all = vec!["state=routing", "lost=2", "turns=8"];
        all.extend(pairs);
        run(
            "rank-and-file",
            "rally",
            &all,
            &[],
            Plan::new(20_000, 9, 2, Sampler::Dice),
        )
    };
    let elite = rally(&["elite=true", "rule:elite_rerolls=1"]);
    let pool = rally(&["rerolls=1"]);
    assert_eq!(exact_outcomes(&elite), exact_outcomes(&pool));
    assert_eq!(exact_metrics(&elite), exact_metrics(&pool));
    assert_eq!(counts(&elite), counts(&pool));
    // The default is one re-roll; three are worth more, and unlimited more still.
    assert_eq!(
        exact_outcomes(&rally(&["elite=true"])),
        exact_outcomes(&elite)
    );
    let recovered = |r: &Report| exact_outcomes(r)[0].1;
    let three = rally(&["elite=true", "rule:elite_rerolls=3"]);
    let unlimited = rally(&["elite=true", "rule:elite_rerolls=unlimited"]);
    assert!(recovered(&three) > recovered(&elite) + 0.01);
    assert!(recovered(&unlimited) > recovered(&three));
    // Elite's allowance comes before the commander's pool: one of each is two re-rolls.
    assert_eq!(
        exact_outcomes(&rally(&["elite=true", "rerolls=1"])),
        exact_outcomes(&rally(&["rerolls=2"]))
    );
}

fn charge(pairs: &[&str], options: &[&str]) -> Report {
    run(
        "rank-and-file",
        "charge",
        pairs,
        options,
        Plan::new(2_000, 4, 1, Sampler::Table),
    )
}

/// RF-10 (supplement): "A waiver test is carried out just like any other morale test and all
/// the usual modifiers apply including those for charging"; its triggers spare foot "in square
/// or defending a linear obstacle/building", and shock cavalry charging frontally in the
/// "Industrial Age"; a routed target "if it is contacted it will be destroyed"; and RF-8's
/// stampede follows a failed waiver test as it follows a failed morale test.
#[test]
fn waiver_tests_as_the_supplement_writes_them() {
    let w = ["waiver-tests"];
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    // A flank charge always causes a waiver test. A Regular needs 4+: half fail; in buildings
    // (+1) a third; with a −1 for the situation two thirds.
    for (target, fails) in [
        ("defender=regular infantry", 1.0 / 2.0),
        ("defender=regular infantry buildings", 1.0 / 3.0),
        ("defender=regular infantry modifier=-1", 2.0 / 3.0),
    ] {
        let r = charge(
            &["attacker=veteran infantry", target, "charge_from=flank"],
            &w,
        );
        assert!(close(exact_metric(&r, "waiver_failed"), fails), "{target}");
    }
    // A frontal shock charge of a better class: a test, unless the target holds a building.
    let shock = "attacker=veteran cavalry shock";
    let r = charge(&[shock, "defender=regular infantry"], &w);
    assert!(close(exact_metric(&r, "waiver_failed"), 0.5));
    let r = charge(&[shock, "defender=regular infantry buildings"], &w);
    assert_eq!(exact_metric(&r, "waiver_failed"), 0.0);
    // The Industrial Age: shock cavalry cause none frontally; shock infantry still do.
    let r = charge(&[shock, "defender=regular infantry", "era=industrial"], &w);
    assert_eq!(exact_metric(&r, "waiver_failed"), 0.0);
    let r = charge(
        &[
            "attacker=veteran infantry shock",
            "defender=regular infantry",
            "era=industrial",
        ],
        &w,
    );
    assert!(close(exact_metric(&r, "waiver_failed"), 0.5));
    // An Unsteady target that fails routs; pursued, it is caught and destroyed.
    let unsteady = [
        "attacker=veteran infantry",
        "defender=regular infantry state=unsteady",
        "charge_from=flank",
    ];
    let r = charge(&unsteady, &w);
    assert!(close(exact_outcome(&r, "target_broke"), 0.5));
    assert!(r.outcomes.iter().all(|o| o.outcome != "target_caught"));
    let mut pursued = unsteady.to_vec();
    pursued.push("pursue=true");
    let r = charge(&pursued, &w);
    assert!(close(exact_outcome(&r, "target_caught"), 0.5));
    assert_eq!(exact_outcome(&r, "target_broke"), 0.0);
    // An elephant that fails its waiver test (half the time) stampedes on 1–2: a sixth of
    // charges, and the charge ends there.
    let r = charge(
        &[
            "attacker=veteran infantry",
            "defender=regular elephant",
            "charge_from=flank",
        ],
        &["waiver-tests", "elephant-stampede"],
    );
    assert!(close(exact_metric(&r, "p_stampede"), 1.0 / 6.0));
    assert!(exact_outcome(&r, "target_broke") >= 1.0 / 6.0 - 1e-12);
    // Read with the rally tests (`waiver_stampede = false`), a failed waiver test starts no
    // stampede: the elephant routs (Regular, Good: a failure makes it Unsteady, no break).
    let r = charge(
        &[
            "attacker=veteran infantry",
            "defender=regular elephant",
            "charge_from=flank",
            "rule:waiver_stampede=false",
        ],
        &["waiver-tests", "elephant-stampede"],
    );
    assert_eq!(exact_metric(&r, "p_stampede"), 0.0);
}

/// EF-2 and EF-4: "light infantry and artillery units cannot give support"; a retreat is
/// obstructed only by "another unit that is not light infantry or artillery". In a line under
/// the amendment, supports that block retreats cost units; light supports let them through.
#[test]
fn light_supports_neither_support_nor_block() {
    let line = |support: &str| {
        run(
            "effectiveness",
            "line",
            &[
                "attacker=4 x regular",
                "defender=4 x regular",
                "supports=4",
                "turns=8",
                "fire_dice=3",
                "fire_to_hit=5",
                support,
            ],
            &["retreat-on-fire", "return-roll"],
            Plan::new(20_000, 21, 2, Sampler::Dice),
        )
    };
    let se = |r: &Report, name: &str| {
        r.metrics
            .iter()
            .find(|m| m.name == name)
            .and_then(|m| m.stderr)
            .unwrap()
    };
    let blocking = line("support_type=infantry");
    let light = line("support_type=light");
    let (b, l) = (
        metric(&blocking, "a_units_lost"),
        metric(&light, "a_units_lost"),
    );
    let margin = 4.42 * (se(&blocking, "a_units_lost").hypot(se(&light, "a_units_lost")));
    assert!(
        b > l + margin,
        "blocking supports {b} against light {l} (± {margin})"
    );
    // "same" is the type of the unit in front: regular infantry here.
    let same = line("support_type=same");
    assert_eq!(metric(&same, "a_units_lost"), b);
}

/// Rank & File's `removed`, by cause. RF-3: "a routing unit at 50% losses is removed"
/// (dispersed); RF-7: a routed battery's crew abandon the guns; RF-4 (`routing_fail`): a Routing
/// unit that fails again may be removed; and any unit with nothing left is destroyed. Each
/// cause has its metric, and the causes add up to `removed`.
#[test]
fn removed_is_reported_by_cause() {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    let exact = |scenario: &str, pairs: &[&str], options: &[&str]| {
        run(
            "rank-and-file",
            scenario,
            pairs,
            options,
            Plan::new(5_000, 3, 2, Sampler::Table),
        )
    };
    let sum = |r: &Report, names: &[&str]| names.iter().map(|n| exact_metric(r, n)).sum::<f64>();
    let rally_causes = [
        "removed_destroyed",
        "removed_dispersed",
        "removed_guns_abandoned",
    ];
    // A Regular routing with 3 of 8 stands lost needs a natural 6 to rally (4+ with −3);
    // failing, it loses a fourth stand and the 50% rule disperses it: 5/6 in one turn.
    let r = exact(
        "rally",
        &["state=routing", "stands=8", "lost=3", "turns=1"],
        &[],
    );
    assert!(close(exact_metric(&r, "removed_dispersed"), 5.0 / 6.0));
    assert!(close(exact_outcome(&r, "removed"), 5.0 / 6.0));
    assert_eq!(exact_metric(&r, "removed_destroyed"), 0.0);
    // RF-7: a battery that fails while Unsteady routs and is removed. A Green battery (5+, no
    // casualty modifier for a single stand) starting Unsteady: it rallies on 5+ (1/3); then
    // it takes a hit and tests: the 2/3 still Unsteady fail with chance 2/3. It had limbered
    // and retired, so it routs with its guns; one that stayed in place (`battery_stays`) has
    // them unlimbered, and its crew abandon them.
    let battery = [
        "state=unsteady",
        "kind=artillery",
        "stands=2",
        "class=green",
        "turns=1",
        "fire_loss=0,1",
    ];
    let r = exact("under-fire", &battery, &[]);
    assert!(close(
        exact_metric(&r, "removed_routed_with_guns"),
        4.0 / 9.0
    ));
    assert_eq!(exact_metric(&r, "removed_guns_abandoned"), 0.0);
    assert!(close(exact_outcome(&r, "removed"), 4.0 / 9.0));
    let mut stays = battery.to_vec();
    stays.push("battery_stays=true");
    let r = exact("under-fire", &stays, &[]);
    assert!(close(exact_metric(&r, "removed_guns_abandoned"), 4.0 / 9.0));
    assert_eq!(exact_metric(&r, "removed_routed_with_guns"), 0.0);
    // Allowed to rally, a battery that fails loses a model at a time, and with none left it is
    // destroyed: the causes still add up.
    let r = exact(
        "rally",
        &["state=routing", "kind=artillery", "stands=2", "class=green"],
        &["artillery-may-rally"],
    );
    let destroyed = exact_metric(&r, "removed_destroyed");
    assert!(destroyed > 0.1, "{destroyed}");
    assert!(close(sum(&r, &rally_causes), exact_outcome(&r, "removed")));
    // Under fire every cause can happen; they add up to `removed` under each reading of RF-4.
    let fire_causes = [
        "removed_destroyed",
        "removed_dispersed",
        "removed_failed_while_routing",
        "removed_guns_abandoned",
        "removed_routed_with_guns",
    ];
    for routing_fail in ["rule:routing_fail=rout-again", "rule:routing_fail=removed"] {
        for unit in [
            &["stands=8", "class=green"][..],
            &["stands=3", "kind=artillery", "class=green"][..],
        ] {
            let mut pairs = unit.to_vec();
            pairs.extend(["fire_dice=6", "fire_to_hit=5", routing_fail]);
            let r = exact("under-fire", &pairs, &[]);
            let removed = exact_outcome(&r, "removed");
            assert!(removed > 0.05, "{pairs:?}: {removed}");
            assert!(close(sum(&r, &fire_causes), removed), "{pairs:?}");
            let failed = exact_metric(&r, "removed_failed_while_routing");
            let artillery = unit.contains(&"kind=artillery");
            assert_eq!(
                failed > 0.0,
                routing_fail.ends_with("=removed") && !artillery,
                "{pairs:?}"
            );
            assert_eq!(
                exact_metric(&r, "removed_routed_with_guns") > 0.0,
                artillery,
                "{pairs:?}"
            );
        }
    }
    // A melee's loser: dispersed, destroyed or, already routing, removed; they add up.
    let r = exact(
        "melee",
        &[
            "attacker=veteran infantry stands=6",
            "defender=green infantry stands=4 lost=1",
        ],
        &[],
    );
    let by_cause = sum(
        &r,
        &[
            "loser_removed_by_fifty_percent",
            "loser_removed_destroyed",
            "loser_removed_failed_while_routing",
        ],
    );
    assert!(close(by_cause, exact_metric(&r, "loser_removed")));
    assert!(exact_metric(&r, "loser_removed") > 0.05);
}

/// The second reading of the sources (issue 30), each from the rules' words with exact values
/// worked out by hand.
fn exact_rf(scenario: &str, pairs: &[&str], options: &[&str]) -> Report {
    run(
        "rank-and-file",
        scenario,
        pairs,
        options,
        Plan::new(2_000, 5, 2, Sampler::Table),
    )
}

/// RF-3 optional rule: broken routers "continue routing until they either disperse or leave
/// the table", and a router that did not rally "will still lose another stand". A routing
/// unit of 8 at 4 lost may not rally (50%) and loses a stand each rally phase: 5, 6, 7, 8 —
/// gone at the fourth, always.
#[test]
fn keep_broken_units_rout_on_and_lose_a_stand_each_turn() {
    let r = exact_rf(
        "rally",
        &["stands=8", "lost=4", "state=routing", "turns=6"],
        &["keep-broken-units"],
    );
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(close(exact_outcome(&r, "removed"), 1.0));
    assert!(close(exact_metric(&r, "stands_lost"), 8.0));
    assert!(close(exact_metric(&r, "turns_to_removal"), 4.0));
}

/// RF-8 (supplement): "this stampede test applies to any failed morale test - whether that
/// test is to rout the elephant or just make it become unsteady", and a stampede turns the
/// elephant about and runs it: routing. A Regular elephant (4+, no casualty modifier) hit
/// once: it fails with 1/2 and stampedes on 1–2: routing 1/6, Unsteady 1/3, Good 1/2. A
/// routing elephant of 3 models is rolled for as well: whatever its rally did, its test
/// after the hit fails with 1/2, so p_stampede is 1/6.
#[test]
fn a_stampede_follows_any_failed_morale_test_and_routs() {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    let base = ["kind=elephant", "turns=1", "fire_loss=0,1"];
    let mut pairs = base.to_vec();
    pairs.push("stands=1");
    let r = exact_rf("under-fire", &pairs, &["elephant-stampede"]);
    assert!(close(exact_outcome(&r, "routing"), 1.0 / 6.0));
    assert!(close(exact_outcome(&r, "unsteady"), 1.0 / 3.0));
    assert!(close(exact_outcome(&r, "good"), 1.0 / 2.0));
    assert!(close(exact_metric(&r, "p_stampede"), 1.0 / 6.0));
    let mut pairs = base.to_vec();
    pairs.extend(["stands=3", "state=routing"]);
    let r = exact_rf("under-fire", &pairs, &["elephant-stampede"]);
    assert!(close(exact_metric(&r, "p_stampede"), 1.0 / 6.0));
}

/// LW-4, a reading where the source is silent (`reversal_follow_up`): Guards (7 pips)
/// charging cavalry of 5 behind an obstacle (no closing fire: cavalry do not shoot). Worked by
/// hand over the opposed rounds, with every draw the mutual push-back the source gives ("Draws
/// result in a mutual push-back"), the charger wins 1801/2592 and bounces 829/3888 when the
/// winner of a reversal may follow up in turn, and wins 145/216 and bounces 43/216 when the
/// reversal ends the melee. Under the earlier reading (`follow_up_draw = earlier-winner`, a
/// drawn follow-up going to the side that won the round before) it wins 493/648 and 948/1296,
/// and a bounce (then only a drawn first round) is 1/9 either way.
#[test]
fn a_reversal_may_follow_up_or_end_the_melee() {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    let melee = |rules: &[&str]| {
        let mut pairs = vec![
            "attacker=guards charging",
            "defender=cavalry pips=5 obstacle",
        ];
        pairs.extend(rules);
        run(
            "linear-warfare",
            "melee",
            &pairs,
            &[],
            Plan::new(2_000, 5, 2, Sampler::Table),
        )
    };
    let on = melee(&["rule:reversal_follow_up=true"]);
    assert!(close(exact_outcome(&on, "attacker_wins"), 1801.0 / 2592.0));
    assert!(close(exact_outcome(&on, "bounce"), 829.0 / 3888.0));
    let off = melee(&["rule:reversal_follow_up=false"]);
    assert!(close(exact_outcome(&off, "attacker_wins"), 145.0 / 216.0));
    assert!(close(exact_outcome(&off, "bounce"), 43.0 / 216.0));
    let earlier = "rule:follow_up_draw=earlier-winner";
    let on = melee(&["rule:reversal_follow_up=true", earlier]);
    assert!(close(exact_outcome(&on, "attacker_wins"), 493.0 / 648.0));
    assert!(close(exact_outcome(&on, "bounce"), 1.0 / 9.0));
    let off = melee(&["rule:reversal_follow_up=false", earlier]);
    assert!(close(exact_outcome(&off, "attacker_wins"), 948.0 / 1296.0));
    assert!(close(exact_outcome(&off, "bounce"), 1.0 / 9.0));
}

/// LW-1: "units down to their last pip may perform no offensive action": a double move to
/// charge would leave a unit of 2 pips on its last, so it is refused as a unit of 1 pip
/// charging is, naming the pips it needs.
#[test]
fn no_double_move_onto_the_last_pip() {
    let build = |attacker: &str| {
        morale_lab::system::build(
            "linear-warfare",
            morale_lab::Scenario::Melee,
            &crate::common::inputs(&[attacker, "defender=line stands=1"]),
            &[],
        )
    };
    let err = build("attacker=line pips=2 double-move").err().unwrap();
    assert!(err.to_string().contains("pips=3 or more"), "{err}");
    assert!(build("attacker=line pips=1").is_err());
    assert!(build("attacker=line pips=3 double-move").is_ok());
}

/// RF-7 gives hit points (3) for gun models only; an elephant's are the tool's assumption, a
/// rule parameter of its own. One elephant model hit once: with 1 hit point it is gone, with
/// the default 3 it is not.
#[test]
fn an_elephants_hit_points_are_a_rule_parameter_of_their_own() {
    let pairs = ["kind=elephant", "stands=1", "turns=1", "fire_loss=0,1"];
    let r = exact_rf("under-fire", &pairs, &[]);
    assert_eq!(exact_outcome(&r, "removed"), 0.0);
    let mut one = pairs.to_vec();
    one.push("rule:hit_points_elephant=1");
    let r = exact_rf("under-fire", &one, &[]);
    assert!((exact_outcome(&r, "removed") - 1.0).abs() < 1e-12);
    // The guns' number does not reach the elephant.
    let mut guns = pairs.to_vec();
    guns.push("rule:hit_points=1");
    let r = exact_rf("under-fire", &guns, &[]);
    assert_eq!(exact_outcome(&r, "removed"), 0.0);
}

/// A battle's note says what its units do: with `fall_back_at = 0` Linear Warfare units never
/// fall back (it used to say they "fall back at 0 pips").
#[test]
fn a_battle_note_says_units_never_fall_back_at_zero() {
    let r = run(
        "linear-warfare",
        "engagement",
        &["fall_back_at=0", "turns=1"],
        &[],
        Plan::new(100, 1, 1, Sampler::Dice),
    );
    let notes = r.notes.join(" ");
    assert!(notes.contains("never fall back"), "{notes}");
    assert!(!notes.contains("at 0 pips"), "{notes}");
}

/// The third reading of the sources (issue 49): values worked by hand, as fractions, from the
/// rules' words alone.
fn third(system: &str, scenario: &str, pairs: &[&str], options: &[&str]) -> Report {
    run(
        system,
        scenario,
        pairs,
        options,
        Plan::new(2_000, 5, 2, Sampler::Table),
    )
}

fn exactly(got: f64, want: f64) {
    assert!((got - want).abs() < 1e-12, "{got} against {want}");
}

/// A Line of 6 charging a Line of 6, by LW-1 to LW-4's words. The closing fire, 6 dice on 4+,
/// destroys the charger with 1/64 and leaves it on its last pip with 6/64: "units down to their
/// last pip may perform no offensive action", so that charge halts (3/32). Then the rounds: +1
/// for charging in the first, +1 for two or more pips more, +1 for following up; the loser of a
/// round loses a pip, a second lost round destroys; "Draws result in a mutual push-back" in
/// any round. Worked over every round: the charger wins 62141/248832, the defender
/// 579173/1492992, and 401005/1492992 end in a push-back. With the +1 for charging in every
/// round (`charge_bonus_rounds = every`) the charger wins 599/1728; with a drawn follow-up
/// going to the earlier winner (`follow_up_draw = earlier-winner`) 236813/746496. (The tool's
/// readings before — no halt, the earlier winner — gave 265973/746496, 35.6%.)
#[test]
fn a_line_charging_a_line_halts_on_its_last_pip_and_draws_push_back() {
    let melee = |rules: &[&str]| {
        let mut pairs = vec!["attacker=line charging", "defender=line"];
        pairs.extend(rules);
        third("linear-warfare", "melee", &pairs, &[])
    };
    let r = melee(&[]);
    exactly(exact_outcome(&r, "attacker_wins"), 62141.0 / 248832.0);
    exactly(exact_outcome(&r, "defender_wins"), 579173.0 / 1492992.0);
    exactly(exact_outcome(&r, "bounce"), 401005.0 / 1492992.0);
    exactly(exact_outcome(&r, "halted"), 3.0 / 32.0);
    let r = melee(&["rule:charge_bonus_rounds=every"]);
    exactly(exact_outcome(&r, "attacker_wins"), 599.0 / 1728.0);
    exactly(exact_outcome(&r, "halted"), 3.0 / 32.0);
    let r = melee(&["rule:follow_up_draw=earlier-winner"]);
    exactly(exact_outcome(&r, "attacker_wins"), 236813.0 / 746496.0);
}

/// LW-5: a unit falling back "may recover one pip per turn in which it may perform no other
/// actions". A unit of 2 pips falls back at 1 and rejoins at 2, under fire that takes a pip
/// with 1/2 each turn. Hit in turn 1, it retires in turn 2 and recovers its pip in turn 3 —
/// a turn of no other action, so it is still out of the line; it rejoins in turn 4, fired at
/// again. In the line after 3 turns: only if never hit, 1/8. After 4: never hit, 1/16, or hit
/// in turn 1 and not in turn 4, 1/4: 5/16.
#[test]
fn a_unit_that_recovers_its_last_pip_rejoins_the_turn_after() {
    let fall = |turns: &str| {
        let pairs = [
            "pips=2",
            "fire_loss=1/2,1/2",
            "fall_back_at=1",
            "return_at=2",
            turns,
        ];
        third("linear-warfare", "under-fire", &pairs, &[])
    };
    exactly(exact_outcome(&fall("turns=3"), "in_line"), 1.0 / 8.0);
    exactly(exact_outcome(&fall("turns=3"), "falling_back"), 7.0 / 8.0);
    exactly(exact_outcome(&fall("turns=4"), "in_line"), 5.0 / 16.0);
}

/// LW-2: infantry fire at "Range 25cm", one line-infantry move (LW-1), so a Linear Warfare
/// battle's `fire_range` is one move: two moves apart, with no charge, nobody fires and
/// nobody loses a pip; at two moves' range both do. `list` shows the system's default.
#[test]
fn linear_warfare_fires_at_one_move() {
    let fight = |extra: &[&str]| {
        // Side A does not mean to charge (`charge_when_shaken=false`), so it does not advance.
        let mut pairs = vec!["range=2", "turns=3", "charge_when_shaken=false"];
        pairs.extend(extra);
        run(
            "linear-warfare",
            "engagement",
            &pairs,
            &[],
            Plan::new(2_000, 3, 2, Sampler::Dice),
        )
    };
    let r = fight(&[]);
    assert_eq!(metric(&r, "a_strength_lost"), 0.0);
    assert_eq!(metric(&r, "b_strength_lost"), 0.0);
    let r = fight(&["fire_range=2"]);
    assert!(metric(&r, "b_strength_lost") > 1.0);
    let list = crate::common::bin()
        .args(["list", "--system", "linear-warfare"])
        .output()
        .unwrap();
    let text = String::from_utf8(list.stdout).unwrap();
    assert!(text.contains("fire_range = 1 ["), "{text}");
}

/// EF-5's exception: no retreat "if an enemy unit with which fire has been exchanged also
/// loses effectiveness and fails a morale test". A Regular unit loses a quarter (fire given as
/// losses, `fire_loss`), tests on 4+ and fails with 1/2; its own return fire, 2 dice on 4+,
/// costs the enemy a quarter only with both hits (EF-3: 2 hits a quarter), 1/4, and the
/// Regular enemy then fails with 1/2: the exception holds with 1/8, so it retreats with
/// 1/2 × 7/8 = 7/16. (Counting each return hit as a quarter gave 5/16.)
#[test]
fn the_exception_counts_the_return_fire_in_hits_per_quarter() {
    let r = third(
        "effectiveness",
        "under-fire",
        &[
            "fire_loss=0,1",
            "turns=1",
            "exchange_fire=true",
            "return_fire_dice=2",
            "return_fire_to_hit=4",
        ],
        &["retreat-on-fire"],
    );
    exactly(exact_outcome(&r, "retreating"), 7.0 / 16.0);
    exactly(exact_outcome(&r, "in_line"), 9.0 / 16.0);
}

/// RF-7: wagons "routed as a result of fire … flee". A Regular wagon (a single stand, 4+, no
/// casualty modifier) takes a hit each turn for two turns. Turn 1: it fails with 1/2 and is
/// Unsteady. Turn 2: an Unsteady wagon rallies first (RF-5, 4+: 1/2), then is hit and tests;
/// one that stayed Unsteady and fails again routs: 1/2 × 1/2 × 1/2 = 1/8. Under `routed_wagons
/// = leave` that 1/8 has fled the table (removed); under `rout` it is routing. Good 3/8 (1/4
/// held twice, 1/8 rallied and held), Unsteady 1/2 either way. A wagon cannot start routing
/// under `leave`.
#[test]
fn routed_wagons_flee_the_table() {
    let fire = |rule: &str| {
        third(
            "rank-and-file",
            "under-fire",
            &["kind=wagon", "stands=1", "fire_loss=0,1", "turns=2", rule],
            &[],
        )
    };
    let leave = fire("rule:routed_wagons=leave");
    exactly(exact_outcome(&leave, "removed"), 1.0 / 8.0);
    exactly(exact_metric(&leave, "removed_wagons_fled"), 1.0 / 8.0);
    exactly(exact_outcome(&leave, "routing"), 0.0);
    exactly(exact_outcome(&leave, "good"), 3.0 / 8.0);
    let rout = fire("rule:routed_wagons=rout");
    exactly(exact_outcome(&rout, "routing"), 1.0 / 8.0);
    exactly(exact_outcome(&rout, "removed"), 0.0);
    exactly(exact_outcome(&rout, "unsteady"), 1.0 / 2.0);
    let refused = crate::common::bin()
        .args([
            "rally",
            "--system",
            "rank-and-file",
            "--set",
            "kind=wagon",
            "--stands",
            "1",
            "--state",
            "routing",
        ])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8(refused.stderr).unwrap();
    assert!(err.contains("routed_wagons=rout"), "{err}");
}

/// What is not modelled is said where users look: every system's odds sheet (in players' words),
/// each scenario's `--help` and `list` name the rules left out, the last two pointing to
/// docs/RULES.md §5.
#[test]
fn what_is_not_modelled_is_named_where_users_look() {
    let out = |args: &[&str]| {
        let o = crate::common::bin().args(args).output().unwrap();
        assert!(o.status.success(), "{args:?}");
        String::from_utf8(o.stdout).unwrap()
    };
    for system in ["rank-and-file", "effectiveness", "linear-warfare"] {
        let sheet = out(&["odds", system])
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        // On a player's sheet, in a player's words: no pointer into the project's docs.
        assert!(
            sheet.contains("These tables leave out "),
            "{system}: {sheet}"
        );
        assert!(!sheet.contains("docs/RULES.md"), "{system}");
        let list = out(&["list", "--system", system]);
        assert!(list.contains("Not modelled (what and why: docs/RULES.md §5)"));
    }
    let help = out(&["engagement", "--help"]);
    assert!(help.contains("flank marches, counter-charges"), "{help}");
    assert!(help.contains("cover and flanking fire in fights"), "{help}");
    let help = out(&["test", "--help"]);
    assert!(help.contains("how far a support may stand"), "{help}");
}

/// The fourth reading of the sources (issue 79), RF-11: a cavalry unit takes its Blown marker
/// off "in any turn that it does not charge and is not routing", at the end of the charge
/// phase, and the turn order puts the melee phase after the charge phase. So a charged unit
/// meets the melee without its marker (it did not charge this turn), and a unit that starts
/// with one but does not charge in turn 1 has lost it by turn 2. Values worked by hand:
/// Regular infantry of 2 stands charging Regular cavalry of 2 stands, both hitting on 4+ once
/// the marker is off, wins 19/45 (with the marker on, the cavalry need 5+ and lose 5/8); in an
/// engagement without fire the same pairing holds the field 13/45 of the time, charging in
/// turn 1 or in turn 2, and so does a Blown cavalry unit that charges only in turn 2 (it shed
/// its marker in turn 1). (Mutation tried: the charged unit keeping its spec's marker gives
/// 5/8, 3/8 and 5/32, the values before the fix.)
#[test]
fn a_blown_marker_comes_off_in_a_turn_without_a_charge() {
    let blown = ["blown-cavalry"];
    let infantry = "attacker=regular infantry stands=2";
    let cavalry = "defender=regular cavalry stands=2 blown";
    let r = third("rank-and-file", "charge", &[infantry, cavalry], &blown);
    exactly(exact_outcome(&r, "attacker_wins"), 19.0 / 45.0);
    assert!(
        r.notes.iter().any(|n| n.contains("Blown marker comes off")),
        "{:?}",
        r.notes
    );
    for turn in ["1", "2"] {
        let r = third(
            "rank-and-file",
            "engagement",
            &[
                infantry,
                cavalry,
                "fire_range=0",
                &format!("charge_at_turn={turn}"),
                &format!("turns={turn}"),
            ],
            &blown,
        );
        exactly(exact_outcome(&r, "side_a_holds"), 13.0 / 45.0);
    }
    let r = third(
        "rank-and-file",
        "engagement",
        &[
            "attacker=regular cavalry stands=2 blown",
            "defender=regular infantry stands=2",
            "fire_range=0",
            "charge_at_turn=2",
            "turns=2",
        ],
        &blown,
    );
    exactly(exact_outcome(&r, "side_a_holds"), 13.0 / 45.0);
}

/// The fourth reading's choices (issue 79), each a named parameter whose default keeps the
/// numbers. RF-9: a winner routs its opponent automatically "in some cases": said per unit by
/// the spec keyword `routs-loser`; both units with it fight exactly as under
/// `auto_rout_on_win = true`, and one with it changes the fight. RF-12: a winner that is not in
/// good order (here Unsteady from the start) rolls for an uncontrolled charge unless
/// `shaken_winner_charges = false`: with `uncontrolled=6` it is bound to charge whenever it
/// wins, and under `false` never.
#[test]
fn the_fourth_readings_choices() {
    let (a, d) = (
        "attacker=regular cavalry stands=4",
        "defender=regular infantry stands=4",
    );
    let keyword = |spec: &str| format!("{spec} routs-loser");
    let both = third("rank-and-file", "melee", &[&keyword(a), &keyword(d)], &[]);
    let global = third(
        "rank-and-file",
        "melee",
        &[a, d, "rule:auto_rout_on_win=true"],
        &[],
    );
    let plain = third("rank-and-file", "melee", &[a, d], &[]);
    let one = third("rank-and-file", "melee", &[&keyword(a), d], &[]);
    assert_eq!(exact_outcomes(&both), exact_outcomes(&global));
    assert_eq!(exact_metrics(&both), exact_metrics(&global));
    assert_ne!(exact_metrics(&one), exact_metrics(&plain));
    assert_ne!(exact_metrics(&one), exact_metrics(&global));

    let shaken = "defender=regular infantry stands=4 state=unsteady uncontrolled=6";
    let charge = |rule: &str| {
        let mut pairs = vec![a, shaken];
        if !rule.is_empty() {
            pairs.push(rule);
        }
        third("rank-and-file", "charge", &pairs, &["uncontrolled"])
    };
    let reads = charge("");
    exactly(
        exact_metric(&reads, "must_charge_again"),
        exact_outcome(&reads, "defender_wins"),
    );
    assert!(exact_outcome(&reads, "defender_wins") > 0.0);
    let good_only = charge("rule:shaken_winner_charges=false");
    exactly(exact_metric(&good_only, "must_charge_again"), 0.0);
    assert_eq!(exact_outcomes(&good_only), exact_outcomes(&reads));
}

/// Issue 79: Linear Warfare's silent reading of the last pip (`last_pip_fires`) moves a line's
/// chances by up to ten points (one file a side, two turns: side A wins 0.292 at closing-only,
/// 0.247 at all; both broken 0.255, 0.357). A report on such a fight, waiting against charging,
/// names the reading among the assumptions its answer rests on, with the exact differences.
#[test]
fn a_linear_warfare_report_names_the_last_pip_where_it_moves_the_answer() {
    let dir = crate::reports::scratch("last-pip");
    let file = dir.join("last-pip.toml");
    std::fs::write(
        &file,
        r#"name = "last-pip"
question = "Should a single Linear Warfare line battalion wait or charge?"
scenario = "line"
headline = ["side_a_wins", "both_broken"]
seed = 1
trials = 2000

[[variant]]
name = "Waits"
system = "linear-warfare"
set = { attacker = "1 x line", defender = "1 x line", turns = 2 }

[[variant]]
name = "Charges"
system = "linear-warfare"
set = { attacker = "1 x line", defender = "1 x line", turns = 2, charge_at_turn = 1 }
"#,
    )
    .unwrap();
    let out = dir.join("out");
    crate::reports::run_into(&file, &out);
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    let rows: Vec<&str> = summary
        .lines()
        .filter(|l| l.contains("| Last pip still shoots | closing only | all |"))
        .collect();
    // side A wins: 0.042956 − 0.292327 = −24.94 points, at all 0.043046 − 0.246608 = −20.36;
    // both broken: 0 − 0.255151 = −25.52, at all 0.005634 − 0.356854 = −35.12 (−35.3 before a
    // charger the fire phase left on its last pip stayed put, LW-1).
    let row = |head: &str, was: &str, now: &str, so: &str| {
        rows.iter().any(|r| {
            r.contains(&format!("| {head} |"))
                && r.contains(was)
                && r.contains(now)
                && r.ends_with(&format!("| {so} |"))
        })
    };
    assert!(
        row("side A wins", "−24.94", "−20.36", "shrinks"),
        "{summary}"
    );
    assert!(
        row("both sides break", "−25.52", "−35.12", "grows"),
        "{summary}"
    );
    // The answer names it in words, with the comparison it moves, and never by its key.
    let answer = summary
        .lines()
        .find(|l| l.starts_with("**Answer.**"))
        .unwrap();
    assert!(
        answer.contains("an assumption where the sources are silent, \u{201c}Last pip still shoots\u{201d} being closing only (at all, Charges would differ from Waits by −35.12 points in the chance that both sides break, not −25.52 points)"),
        "{answer}"
    );
    assert!(!answer.contains("last_pip_fires"), "{answer}");
}
