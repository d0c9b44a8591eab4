//! Rule parameters (issue 18): every number of the rules a designer may change, set with
//! `--rule`, in rule-set files and in experiments, with exact values beside every estimate and
//! every report saying which rules differ from the source.

use morale_lab::Sampler;
use morale_lab::report::Report;
use serde_json::Value;

use crate::common::{Plan, bin, exact_outcome, json_of, run, stdout_of};
use crate::reports::scratch;

fn rf(scenario: &str, pairs: &[&str]) -> Report {
    run(
        "rank-and-file",
        scenario,
        pairs,
        &[],
        Plan::new(20_000, 5, 2, Sampler::Dice),
    )
}

/// The numbers of a report, without its description of the run.
fn numbers(r: &Report) -> String {
    format!("{:?}{:?}{:?}", r.outcomes, r.metrics, r.tables)
}

/// RF-1: "--rule base_green=4 on a Green unit gives exactly the values of a Regular unit in
/// the same situation": exact values and, from the same seed, the same trials.
#[test]
fn a_green_unit_with_base_four_is_a_regular_unit() {
    for (scenario, situation) in [
        ("test", &["lost=1"][..]),
        ("rally", &["state=routing", "lost=1"][..]),
        ("under-fire", &["fire_dice=6", "fire_to_hit=5"][..]),
    ] {
        let mut green = vec!["class=green", "rule:base_green=4"];
        green.extend(situation);
        let mut regular = vec!["class=regular"];
        regular.extend(situation);
        let (g, r) = (rf(scenario, &green), rf(scenario, &regular));
        assert_eq!(numbers(&g), numbers(&r), "{scenario}");
        assert_eq!(g.rules_changed.len(), 1, "{scenario}");
        assert!(r.rules_changed.is_empty());
        // And not by accident: as written, Green is worse.
        let as_written = rf(scenario, &[&["class=green"][..], situation].concat());
        assert_ne!(numbers(&as_written), numbers(&r), "{scenario}");
    }
}

/// RF-3 with `break_fraction = 2/3`: a unit of 8 stands with 4 lost is no longer broken, so it
/// passes on a natural 6 (Regular 4, −4 for losses: the 6 that always passes); at 6 lost it
/// is (6 ≥ 2/3 × 8).
#[test]
fn two_thirds_lets_half_a_unit_pass_on_a_six() {
    let pass = |lost: &str, rules: &[&str]| {
        let mut pairs = vec!["stands=8", lost];
        pairs.extend(rules);
        exact_outcome(&rf("test", &pairs), "pass")
    };
    assert_eq!(pass("lost=4", &[]), 0.0);
    assert!((pass("lost=4", &["rule:break_fraction=2/3"]) - 1.0 / 6.0).abs() < 1e-12);
    assert!((pass("lost=5", &["rule:break_fraction=2/3"]) - 1.0 / 6.0).abs() < 1e-12);
    assert_eq!(pass("lost=6", &["rule:break_fraction=2/3"]), 0.0);
    // The natural rolls that always pass and fail are rule numbers too.
    assert_eq!(
        pass("lost=4", &["rule:break_fraction=1", "rule:always_passes=7"]),
        0.0
    );
    let easy = pass("lost=0", &["rule:always_fails=0", "rule:base_regular=1"]);
    assert!((easy - 1.0).abs() < 1e-12);
}

/// A rule-set file used with `--rules` and the same values given with `--rule` give the same
/// report, and its JSON's `rules_changed` names them; `--set` is for the situation only.
#[test]
fn a_rule_set_file_is_the_same_as_its_rules_on_the_command_line() {
    let dir = scratch("ruleset");
    let file = dir.join("harsh.toml");
    std::fs::write(
        &file,
        "name = \"harsh\"\ndescription = \"test\"\nbase = \"rank-and-file\"\n[rules]\nbase_green = 6\nrally_loss = 2\n",
    )
    .unwrap();
    let json = |args: &[&str]| -> Value {
        let rally = [
            "rally", "--class", "green", "--trials", "5000", "--format", "json",
        ];
        json_of(&[&rally[..], args].concat())
    };
    let from_file = json(&["--rules", file.to_str().unwrap()]);
    let from_flags = json(&["--rule", "base_green=6", "--rule", "rally_loss=2"]);
    for key in [
        "outcomes",
        "metrics",
        "tables",
        "rules",
        "rules_changed",
        "params",
    ] {
        assert_eq!(from_file[key], from_flags[key], "{key}");
    }
    assert_eq!(
        from_file["rules_changed"],
        serde_json::json!({"base_green": 6, "rally_loss": 2})
    );
    assert_eq!(from_file["rules"]["base_veteran"], 3);
    let plain = json(&[]);
    assert_eq!(plain["rules_changed"], serde_json::json!({}));
    // The text header says it, so a published table cannot be taken for the rules as written.
    let file_arg = file.to_str().unwrap();
    let text = stdout_of(&[
        "rally", "--class", "green", "--trials", "1000", "--rules", file_arg,
    ]);
    assert!(
        text.contains(
            "rules: changed from the source: Green base number 6 (source: 5), stands lost on a failed rally 2 (source: 1)"
        ),
        "{text}"
    );
    // Misplaced keys are refused with the flag to use, exit 2, nothing on standard output.
    for (args, says) in [
        (&["--set", "base_green=6"][..], "--rule base_green=6"),
        (&["--rule", "stands=6"][..], "--set stands=6"),
        (&["--rule", "base_green=9"][..], "from 1 to 8"),
        (
            &["--rule", "always_fails=4", "--rule", "always_passes=3"][..],
            "below always_passes",
        ),
        (
            &[
                "--system",
                "effectiveness",
                "--rules",
                file.to_str().unwrap(),
            ][..],
            "two systems",
        ),
    ] {
        let out = bin()
            .arg("test")
            .args(args)
            .assert()
            .code(2)
            .get_output()
            .clone();
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // `list --rules` shows the effective rules.
    let listed = stdout_of(&["list", "--rules", file_arg]);
    assert!(
        listed.contains("base_green = 6 (CHANGED; source: 5)"),
        "{listed}"
    );
    assert!(listed.contains("base_veteran = 3 [RF-1]"), "{listed}");
}

/// Experiments take `rules` per variant and at the top, `rules_file`, and sweeps over rule
/// parameters; a bad rule names the file, line and key.
#[test]
fn experiments_change_rules_per_variant_and_sweep_them() {
    let dir = scratch("rules-exp");
    std::fs::write(
        dir.join("set.toml"),
        "name = \"s\"\nbase = \"rank-and-file\"\n[rules]\nrally_loss = 0\n",
    )
    .unwrap();
    let exp = dir.join("e.toml");
    std::fs::write(
        &exp,
        "name = \"e\"\nquestion = \"q\"\nscenario = \"rally\"\ntrials = 2000\nrules = { base_regular = 5 }\nset = { state = \"routing\" }\n\n[[variant]]\nname = \"a\"\nsystem = \"rank-and-file\"\n\n[[variant]]\nname = \"b\"\nsystem = \"rank-and-file\"\nrules_file = \"set.toml\"\nrules = { base_regular = 3 }\n\n[sweep]\nx = { rule = \"base_green\", values = [4, 6] }\n",
    )
    .unwrap();
    let out = dir.join("out");
    crate::reports::run_into(&exp, &out);
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 4);
    let changed = |i: usize| runs[i]["report"]["rules_changed"].clone();
    assert_eq!(
        changed(0),
        serde_json::json!({"base_regular": 5, "base_green": 4})
    );
    assert_eq!(
        changed(1),
        serde_json::json!({"base_regular": 3, "base_green": 4, "rally_loss": 0})
    );
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("rules: changed from the source"),
        "{summary}"
    );
    // A bad rule value in the file: its line and key.
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "name = \"e\"\nquestion = \"q\"\nscenario = \"rally\"\n\n[[variant]]\nname = \"a\"\nsystem = \"rank-and-file\"\nrules = { base_green = 0 }\n",
    )
    .unwrap();
    let o = bin()
        .args(["run", bad.to_str().unwrap(), "--out"])
        .arg(dir.join("never"))
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("bad.toml:8: rules.base_green"), "{err}");
    assert!(!dir.join("never").exists());
}

fn exact(system: &str, scenario: &str, pairs: &[&str]) -> Report {
    run(
        system,
        scenario,
        pairs,
        &[],
        Plan::new(2_000, 5, 1, Sampler::Table),
    )
}

/// The numbers of the effectiveness rules are rule parameters: each one moves the exact values
/// as the rule says, and the situation's limits follow them (`lost` below `steps`).
#[test]
fn effectiveness_numbers_reach_the_rules() {
    let pass = |pairs: &[&str]| exact_outcome(&exact("effectiveness", "test", pairs), "pass");
    // EF-2: Poor needs 5 (1/3); on 6, 1/6; a +2 general brings it back to 4 (1/2).
    assert!((pass(&["class=poor"]) - 1.0 / 3.0).abs() < 1e-12);
    assert!((pass(&["class=poor", "rule:score_poor=6"]) - 1.0 / 6.0).abs() < 1e-12);
    let general = [
        "class=poor",
        "general=true",
        "rule:score_poor=6",
        "rule:general_bonus=2",
    ];
    assert!((pass(&general) - 0.5).abs() < 1e-12);
    // A support's bonus of 0: supported or not, the same test.
    let supported = pass(&["supported=true", "rule:support_bonus=0"]);
    assert!((supported - pass(&[])).abs() < 1e-12);
    // EF-5: a return on 4+ with a +2 general: back in action by the first move 5/6.
    let back = |pairs: &[&str]| {
        let mut all = vec!["turns=1"];
        all.extend(pairs);
        let r = run(
            "effectiveness",
            "rally",
            &all,
            &["return-roll"],
            Plan::new(2_000, 5, 1, Sampler::Table),
        );
        exact_outcome(&r, "back_in_action")
    };
    assert!((back(&[]) - 1.0 / 3.0).abs() < 1e-12);
    let bonus = [
        "general=true",
        "rule:return_on=4",
        "rule:return_general_bonus=2",
    ];
    assert!((back(&bonus) - 5.0 / 6.0).abs() < 1e-12);
    // EF-1: five steps: a unit may have lost four and still stand; it may not have lost five.
    let five = exact("effectiveness", "test", &["lost=4", "rule:steps=5"]);
    assert!((exact_outcome(&five, "pass") - 0.5).abs() < 1e-12);
    let refused = morale_lab::system::build(
        "effectiveness",
        morale_lab::Scenario::Test,
        &crate::common::inputs(&["lost=4"]),
        &[],
    );
    let err = refused
        .err()
        .expect("lost=4 of 4 steps is refused")
        .to_string();
    assert!(err.contains("0 to 3") && err.contains("steps = 4"), "{err}");
}

/// The numbers of The Age of Linear Warfare are rule parameters: fire, pips, melee bonuses and
/// "a second loss destroys".
#[test]
fn linear_warfare_numbers_reach_the_rules() {
    let hits = |pairs: &[&str]| {
        let mut all = vec!["test=volley", "stands=1"];
        all.extend(pairs);
        exact_outcome(&exact("linear-warfare", "test", &all), "hits_1")
    };
    // LW-2: one die at 4+ is 1/2; to_hit 5 with cover (+2) is 7: no hit at all.
    assert!((hits(&[]) - 0.5).abs() < 1e-12);
    assert_eq!(
        hits(&["cover=true", "rule:to_hit=5", "rule:cover_penalty=2"]),
        0.0
    );
    assert!((hits(&["flanking=true", "rule:flank_bonus=2"]) - 5.0 / 6.0).abs() < 1e-12);
    // LW-1: a type's pips are the default of `pips`.
    let guards = exact(
        "linear-warfare",
        "under-fire",
        &["type=guards", "rule:pips_guards=9"],
    );
    assert_eq!(guards.params["pips"], 9);
    // LW-4: with no bonus for charging, a charge is an even fight (as written it is not).
    let melee = |rules: &[&str]| {
        let mut all = vec!["attacker=cavalry charging", "defender=cavalry"];
        all.extend(rules);
        let r = exact("linear-warfare", "melee", &all);
        (
            exact_outcome(&r, "attacker_wins"),
            exact_outcome(&r, "defender_wins"),
        )
    };
    let (a, d) = melee(&["rule:charge_bonus=0"]);
    assert!((a - d).abs() < 1e-12, "{a} v {d}");
    let (a, d) = melee(&[]);
    assert!(a > d + 0.1, "{a} v {d}");
    // "A second lost round destroys": with 0, only pips destroy (six rounds lost in a row), and
    // the melee still ends.
    let destroyed = |rules: &[&str]| {
        let mut all = vec!["attacker=line charging", "defender=line"];
        all.extend(rules);
        let r = exact("linear-warfare", "melee", &all);
        crate::common::exact_metric(&r, "defender_destroyed")
    };
    let (second, pips_only) = (destroyed(&[]), destroyed(&["rule:losses_to_destroy=0"]));
    assert!(
        second > 0.1 && pips_only > 0.0 && pips_only < second / 4.0,
        "{second} {pips_only}"
    );
}

/// Rank & File's melee and supplement numbers and the choices where the sources are silent are
/// rule parameters too: given with `--set` they are refused, naming `--rule`.
#[test]
fn rank_and_file_silent_choices_are_rule_parameters() {
    for key in [
        "routing_fail=removed",
        "elite_rerolls=2",
        "buildings_bonus=2",
        "hit_points=4",
        "to_hit=5",
        "six_always_hits=false",
        "break_point=40",
    ] {
        let out = bin()
            .args(["test", "--set", key])
            .assert()
            .code(2)
            .get_output()
            .clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(&format!("--rule {key}")), "{key}: {err}");
    }
    // RF-6: two re-rolls a test: a Regular unit with a pool of two passes 1 − (1/2)³ = 7/8.
    let r = exact(
        "rank-and-file",
        "test",
        &["rerolls=2", "rule:rerolls_per_test=2"],
    );
    assert!((exact_outcome(&r, "pass") - 7.0 / 8.0).abs() < 1e-12);
    // RF-9: cavalry against elephants on 5 instead of 6 win more often.
    let cav = |rules: &[&str]| {
        let mut all = vec![
            "attacker=regular cavalry stands=4",
            "defender=regular elephant",
        ];
        all.extend(rules);
        exact_outcome(&exact("rank-and-file", "melee", &all), "attacker_wins")
    };
    assert!(cav(&["rule:cavalry_vs_elephants=5"]) > cav(&[]) + 0.01);
}

/// The odds sheet takes `--rule` and `--rules` and says which rules it shows.
#[test]
fn odds_sheets_follow_the_rules_they_say() {
    let dir = scratch("odds-rules");
    let file = dir.join("green.toml");
    std::fs::write(
        &file,
        "name = \"g\"\nbase = \"rank-and-file\"\n[rules]\nbase_green = 4\n",
    )
    .unwrap();
    let sheet =
        |args: &[&str]| -> Value { json_of(&[&["odds", "--format", "json"][..], args].concat()) };
    let flags = sheet(&["rank-and-file", "--rule", "base_green=4"]);
    let mut from_file = sheet(&["--rules", file.to_str().unwrap()]);
    // The same sheet, but for its title: a rule set's name heads it.
    let title = from_file["title"].as_str().unwrap().to_string();
    assert_eq!(title, format!("g — {}", flags["title"].as_str().unwrap()));
    from_file["title"] = flags["title"].clone();
    assert_eq!(flags, from_file);
    assert_eq!(flags["rules_changed"], serde_json::json!({"base_green": 4}));
    // Green on 4 reads as Regular, row by row and leader bonus by leader bonus (columns:
    // veteran +0, +1, +2, regular …, green …).
    for row in flags["sections"][0]["rows"].as_array().unwrap() {
        for leader in 0..3 {
            assert_eq!(
                row[1][3 + leader]["fraction"],
                row[1][6 + leader]["fraction"]
            );
        }
    }
    let text = stdout_of(&["odds", "linear-warfare", "--rule", "to_hit=5"]);
    assert!(
        text.contains("rules: changed from the source: fire dice hit on 5 (source: 4)"),
        "{text}"
    );
    assert!(text.contains("modifier 0 (5+)"), "{text}");
    let plain = sheet(&["effectiveness"]);
    assert_eq!(plain["rules_changed"], serde_json::json!({}));
    for (args, says) in [
        (
            &["odds", "effectiveness", "--rule", "base_green=4"][..],
            "score_elite",
        ),
        (&["odds"][..], "--rules FILE"),
    ] {
        let out = bin().args(args).assert().code(2).get_output().clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
