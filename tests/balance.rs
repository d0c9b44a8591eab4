//! `balance`: the number that makes it fair, checked against the runs it stands for — a
//! chance's root against the line through plain exact runs (the headline is linear in it
//! there), a whole number's table against each value run on its own, no crossing as an answer,
//! and bad input refused with one line.

use morale_lab::experiment::balance::{Ask, Target, solve};
use morale_lab::params::Input;
use morale_lab::{Control, RunOptions, Scenario, system};

use crate::common::{exact_outcome, inputs, json_of};

fn exact(system: &str, scenario: Scenario, pairs: &[&str], options: &[&str]) -> f64 {
    let options: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    let job = system::build(system, scenario, &inputs(pairs), &options).unwrap();
    let r = job
        .run(
            &RunOptions::new(1, 1).exact_only(true).threads(Some(1)),
            &Control::new(),
        )
        .unwrap();
    let name = match scenario {
        Scenario::Rally => "recovered",
        _ => "eliminated",
    };
    exact_outcome(&r, name)
}

const AMENDMENT_FIRE: [&str; 4] = ["class=regular", "turns=8", "fire_dice=3", "fire_to_hit=5"];

/// Question 3 of the guide: the chance of a blocked retreat that makes the amendment eliminate
/// as many units as the plain 25% rules. Eliminations are a straight line in that chance here
/// (checked at 0, 1/2 and 1), so the root is the line's, worked out from three plain runs.
#[test]
fn a_chance_is_solved_to_the_root_the_plain_runs_give() {
    let amended = ["retreat-on-fire", "return-roll"];
    let at = |p: &str| {
        let mut pairs = AMENDMENT_FIRE.to_vec();
        let set = format!("p_blocked={p}");
        pairs.push(&set);
        exact("effectiveness", Scenario::UnderFire, &pairs, &amended)
    };
    let (e0, e_half, e1) = (at("0"), at("1/2"), at("1"));
    assert!((e_half - (e0 + e1) / 2.0).abs() < 1e-12, "a straight line");
    let plain = exact("effectiveness", Scenario::UnderFire, &AMENDMENT_FIRE, &[]);
    let by_hand = (plain - e0) / (e1 - e0);

    let options: Vec<String> = amended.iter().map(|s| s.to_string()).collect();
    let ins = inputs(&AMENDMENT_FIRE);
    let b = solve(
        &Ask {
            system: "effectiveness",
            scenario: Scenario::UnderFire,
            inputs: &ins,
            options: &options,
            headline: Some("eliminated"),
            key: "p_blocked",
            range: None,
            target: Target::Setting {
                inputs: vec![],
                options: Some(vec![]),
                system: None,
            },
            run: RunOptions::new(1, 1).threads(Some(1)),
            monte_carlo: false,
            optimal_play: false,
        },
        &Control::new(),
    )
    .unwrap();
    assert!((b.target - plain).abs() < 1e-15);
    assert_eq!(b.crossings.len(), 1);
    let c = &b.crossings[0];
    let root = c.root.unwrap();
    assert!((root - by_hand).abs() < 1e-9, "{root} against {by_hand}");
    assert!(c.above.x - c.below.x <= 1e-9);
    assert!(c.below.x <= by_hand + 1e-12 && by_hand <= c.above.x + 1e-12);
    // The simple fraction nearest the root, solved too.
    assert_eq!(b.simple.len(), 1);
    assert_eq!(b.simple[0].value, "23/32");
    assert!(
        b.answer().contains("chance a retreat is blocked 0.71803"),
        "{}",
        b.answer()
    );
}

/// A whole number: every value of the range is the plain run's exact value, and the target
/// between two values is bracketed by them, the nearer named.
#[test]
fn a_whole_number_is_bracketed_by_the_values_either_side() {
    let ins = inputs(&["class=green", "state=routing", "turns=3"]);
    let b = solve(
        &Ask {
            system: "rank-and-file",
            scenario: Scenario::Rally,
            inputs: &ins,
            options: &[],
            headline: None,
            key: "base_green",
            range: None,
            target: Target::Number(0.5),
            run: RunOptions::new(1, 1).threads(Some(1)),
            monte_carlo: false,
            optimal_play: false,
        },
        &Control::new(),
    )
    .unwrap();
    assert_eq!(b.range, ("1".to_string(), "8".to_string()));
    assert_eq!(b.points.len(), 8);
    for p in &b.points {
        let rule = format!("rule:base_green={}", p.value);
        let alone = exact(
            "rank-and-file",
            Scenario::Rally,
            &["class=green", "state=routing", "turns=3", &rule],
            &[],
        );
        assert_eq!(p.headline.unwrap().value, alone, "base_green {}", p.value);
        assert!(p.headline.unwrap().exact);
    }
    assert_eq!(b.crossings.len(), 1);
    let c = &b.crossings[0];
    assert!(!c.hit);
    assert_eq!((c.below.value.as_str(), c.above.value.as_str()), ("3", "4"));
    assert!(c.below.gap.unwrap() > 0.0 && c.above.gap.unwrap() < 0.0);
    let nearer = if c.below.gap.unwrap().abs() < c.above.gap.unwrap().abs() {
        "3"
    } else {
        "4"
    };
    assert_eq!(b.nearest.as_ref().unwrap().value, nearer);
    assert_eq!(b.shape, "falls");
    // Against the Regular class: Green's base number at Regular's hits it exactly.
    let b = solve(
        &Ask {
            system: "rank-and-file",
            scenario: Scenario::Rally,
            inputs: &ins,
            options: &[],
            headline: None,
            key: "base_green",
            range: None,
            target: Target::Setting {
                inputs: vec![Input::parse_set("class=regular").unwrap()],
                options: None,
                system: None,
            },
            run: RunOptions::new(1, 1).threads(Some(1)),
            monte_carlo: false,
            optimal_play: false,
        },
        &Control::new(),
    )
    .unwrap();
    assert_eq!(b.crossings.len(), 1);
    assert!(b.crossings[0].hit);
    assert_eq!(b.crossings[0].below.value, "4");
}

/// A target no value reaches is an answer with both ends and the nearest, from the command
/// line as JSON too.
#[test]
fn no_crossing_is_an_answer_with_both_ends() {
    let j = json_of(&[
        "balance",
        "under-fire",
        "--system",
        "rank-and-file",
        "--class",
        "green",
        "--solve",
        "stands",
        "--range",
        "1..12",
        "--headline",
        "empty_turns",
        "--against",
        "class=veteran",
        "--against",
        "stands=6",
        "--format",
        "json",
    ]);
    assert_eq!(j["crossings"].as_array().unwrap().len(), 0);
    assert_eq!(j["points"].as_array().unwrap().len(), 12);
    let gap = |p: &serde_json::Value| p["gap"].as_f64().unwrap().abs();
    let least = j["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(gap)
        .fold(f64::INFINITY, f64::min);
    assert_eq!(gap(&j["nearest"]), least);
    // A Green unit loses its place sooner however large: 11 and 12 stands are the nearest.
    assert!(["11", "12"].contains(&j["nearest"]["value"].as_str().unwrap()));
    assert!(j["target"].as_f64().unwrap() < j["nearest"]["headline"]["value"].as_f64().unwrap());
    assert!(
        j["command"]
            .as_str()
            .unwrap()
            .starts_with("morale-lab balance under-fire --system rank-and-file")
    );
}

/// Bad input: one line naming what was wrong and what is allowed, exit code 2, no output.
#[test]
fn bad_balance_input_is_refused_with_one_line() {
    let base = ["balance", "rally", "--system", "rank-and-file"];
    let cases: [(&[&str], &str); 8] = [
        (&["--solve", "nope", "--target", "0.5"], "base_green"),
        (
            &["--solve", "base_green", "--target", "2"],
            "a share from 0 to 1",
        ),
        (&["--solve", "base_green"], "needs a target"),
        (
            &[
                "--solve",
                "base_green",
                "--target",
                "0.5",
                "--against",
                "class=regular",
            ],
            "not both",
        ),
        (
            &[
                "--solve",
                "base_green",
                "--target",
                "0.5",
                "--range",
                "0..20",
            ],
            "within base_green's allowed 1..8",
        ),
        (&["--solve", "turns", "--target", "0.5"], "at most 200"),
        (
            &["--solve", "class", "--target", "0.5", "--range", "1..2"],
            "no range",
        ),
        (
            &[
                "--solve",
                "base_green",
                "--target",
                "0.5",
                "--precision",
                "0.01",
            ],
            "not taken by balance",
        ),
    ];
    for (args, says) in cases {
        let all: Vec<&str> = base.iter().chain(args).copied().collect();
        let out = crate::common::bin()
            .args(&all)
            .assert()
            .code(2)
            .get_output()
            .clone();
        assert!(out.stdout.is_empty(), "{all:?} printed");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{all:?}: {err}");
        assert!(err.contains(says), "{all:?}: {err}");
    }
}

/// A unit spec's field (question 4: the leader bonus that lets a 6-stand Green unit hold an
/// engagement against a 6-stand Regular one half the time): each value is the engagement with
/// that spec, run on its own; a value the spec refuses is listed as refused, with why.
#[test]
fn a_unit_specs_field_is_solved_through_its_spec() {
    let ins = inputs(&["attacker=green stands=6", "defender=regular stands=6"]);
    let b = solve(
        &Ask {
            system: "rank-and-file",
            scenario: Scenario::Engagement,
            inputs: &ins,
            options: &[],
            headline: Some("side_a_holds"),
            key: "attacker.leader",
            range: Some(("0".into(), "4".into())),
            target: Target::Number(0.5),
            run: RunOptions::new(1, 1).threads(Some(1)),
            monte_carlo: false,
            optimal_play: false,
        },
        &Control::new(),
    )
    .unwrap();
    assert_eq!(b.as_set, "not given");
    for p in &b.points[..4] {
        let spec = format!("attacker=green stands=6 leader={}", p.value);
        let job = system::build(
            "rank-and-file",
            Scenario::Engagement,
            &inputs(&[&spec, "defender=regular stands=6"]),
            &[],
        )
        .unwrap();
        let r = job
            .run(
                &RunOptions::new(1, 1).exact_only(true).threads(Some(1)),
                &Control::new(),
            )
            .unwrap();
        assert_eq!(
            p.headline.unwrap().value,
            exact_outcome(&r, "side_a_holds"),
            "{spec}"
        );
    }
    let refused = b.points[4].refused.as_deref().unwrap();
    assert!(
        refused.contains("leader takes a whole number from -3 to 3"),
        "{refused}"
    );
    // A led Green unit still holds less than half the time.
    assert!(b.crossings.is_empty());
    assert_eq!(b.nearest.as_ref().unwrap().value, "3");
    assert!(
        b.answer()
            .starts_with("No value of attacking unit's leader's bonus from 0 to 4 reaches 50.00%")
    );
}

/// By Monte Carlo (forced on a setting that solves, so the exact root is known): the values
/// whose interval holds the target contain the exact root in at least 17 of 20 seeds (at a
/// 95% level, 17 or more come out with probability 0.98; the seeds are fixed, so the count is
/// too), and the estimated root sits within that set.
#[test]
fn a_monte_carlo_roots_set_holds_the_exact_root_at_its_rate() {
    let amended: Vec<String> = ["retreat-on-fire", "return-roll"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let ins = inputs(&AMENDMENT_FIRE);
    let ask = |seed: u64, monte_carlo: bool| Ask {
        system: "effectiveness",
        scenario: Scenario::UnderFire,
        inputs: &ins,
        options: &amended,
        headline: Some("eliminated"),
        key: "p_blocked",
        range: None,
        target: Target::Setting {
            inputs: vec![],
            options: Some(vec![]),
            system: None,
        },
        run: RunOptions::new(20_000, seed).threads(Some(1)),
        monte_carlo,
        optimal_play: false,
    };
    let exact = solve(&ask(1, false), &Control::new()).unwrap().crossings[0]
        .root
        .unwrap();
    let mut held = 0;
    for seed in 1..=20 {
        let b = solve(&ask(seed, true), &Control::new()).unwrap();
        assert!(!b.exact && b.trials == 20_000 && b.seed == seed);
        let (lo, hi) = b.root_set.expect("a set for the root");
        if let Some(root) = b.crossings.first().and_then(|c| c.root) {
            assert!(
                lo <= root && root <= hi,
                "seed {seed}: {root} outside {lo}..{hi}"
            );
        }
        if lo <= exact && exact <= hi {
            held += 1;
        }
    }
    assert!(held >= 17, "the exact root {exact} in {held} of 20 sets");
}

/// A setting with no exact solution (a line of four files a side) is searched by Monte Carlo,
/// and says so and why; the same seed gives the same answer, to the bit.
#[test]
fn a_setting_without_an_exact_solution_is_searched_by_monte_carlo() {
    let args = [
        "balance",
        "line",
        "--system",
        "rank-and-file",
        "--attacker",
        "4 x regular",
        "--defender",
        "4 x regular",
        "--solve",
        "break_point",
        "--range",
        "20..30",
        "--target",
        "0.5",
        "--trials",
        "4000",
        "--format",
        "json",
    ];
    let j = json_of(&args);
    assert_eq!(j["exact"], false);
    assert_eq!(j["trials"], 4000);
    assert!(
        j["why_estimates"]
            .as_str()
            .unwrap()
            .contains("no exact solution"),
        "{}",
        j["why_estimates"]
    );
    assert_eq!(j["points"].as_array().unwrap().len(), 11);
    assert!(j["points"][0]["headline"]["low"].is_number());
    assert_eq!(j, json_of(&args));
}

/// Every example `balance --help` shows runs as written (its words split as a shell would).
#[test]
fn balance_help_examples_run() {
    let help = crate::common::stdout_of(&["balance", "--help"]);
    let examples: Vec<&str> = help
        .split("Examples:")
        .nth(1)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("morale-lab "))
        .collect();
    assert_eq!(examples.len(), 3);
    for line in examples {
        // Split on spaces, keeping "quoted words" together.
        let mut words: Vec<String> = Vec::new();
        let mut quoted = false;
        let mut word = String::new();
        for c in line.chars() {
            match c {
                '"' => quoted = !quoted,
                ' ' if !quoted => {
                    if !word.is_empty() {
                        words.push(std::mem::take(&mut word));
                    }
                }
                c => word.push(c),
            }
        }
        words.push(word);
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        let out = crate::common::stdout_of(&args);
        assert!(out.contains("Answer: "), "{line}: {out}");
    }
}

/// A target under another system: the headline of the same situation there (its own fire
/// given with --against; Rank & File's stands left behind, which the 25% rules do not have),
/// a unit gone meaning removed here and eliminated there; each value tried is the run itself.
#[test]
fn a_target_under_another_system_is_that_systems_own_run() {
    let j = json_of(&[
        "balance",
        "under-fire",
        "--system",
        "rank-and-file",
        "--class",
        "regular",
        "--stands",
        "8",
        "--turns",
        "8",
        "--set",
        "fire_dice=6",
        "--set",
        "fire_to_hit=6",
        "--solve",
        "base_regular",
        "--headline",
        "removed",
        "--against-system",
        "effectiveness",
        "--against",
        "fire_dice=3",
        "--against",
        "fire_to_hit=5",
        "--format",
        "json",
    ]);
    let theirs = exact(
        "effectiveness",
        Scenario::UnderFire,
        &["class=regular", "turns=8", "fire_dice=3", "fire_to_hit=5"],
        &[],
    );
    assert!((j["target"].as_f64().unwrap() - theirs).abs() < 1e-12);
    let from = j["target_from"].as_str().unwrap();
    assert!(from.contains("under effectiveness"), "{from}");
    assert!(from.contains("eliminated there"), "{from}");
    assert!(
        from.contains("left behind") && from.contains("stands"),
        "{from}"
    );
    let mine = |base: &str| {
        let set = format!("base_regular={base}");
        let job = system::build(
            "rank-and-file",
            Scenario::UnderFire,
            &[
                inputs(&[
                    "class=regular",
                    "stands=8",
                    "turns=8",
                    "fire_dice=6",
                    "fire_to_hit=6",
                ]),
                vec![Input::parse_rule(&set).unwrap()],
            ]
            .concat(),
            &[],
        )
        .unwrap();
        let r = job
            .run(&RunOptions::new(1, 1).exact_only(true), &Control::new())
            .unwrap();
        exact_outcome(&r, "removed")
    };
    for p in j["points"].as_array().unwrap() {
        let v = p["value"].as_str().unwrap();
        let got = p["headline"]["value"].as_f64().unwrap();
        assert!((got - mine(v)).abs() < 1e-12, "base_regular {v}");
    }
}

/// `--against` takes a rule parameter as it takes the situation's: the target is the run with
/// that rule number (Regular at base number 5 recovers as Green does at its own 5).
#[test]
fn against_takes_a_rule_parameter() {
    let j = json_of(&[
        "balance",
        "rally",
        "--system",
        "rank-and-file",
        "--class",
        "green",
        "--solve",
        "base_green",
        "--against",
        "class=regular",
        "--against",
        "base_regular=5",
        "--format",
        "json",
    ]);
    let theirs = exact(
        "rank-and-file",
        Scenario::Rally,
        &["class=green", "rule:base_green=5"],
        &[],
    );
    assert!(
        (j["target"].as_f64().unwrap() - theirs).abs() < 1e-12,
        "{j}"
    );
    assert_eq!(j["crossings"][0]["root"], serde_json::json!(5.0), "{j}");
}

/// The sequential search (question 3 by Monte Carlo at 160,000 trials): every value first runs
/// a sixteenth of the trials; those still undecided run more, up to the full count. The ends of
/// the crossing run it all, a value left at the first stage is decided there (its interval
/// misses the target), far fewer trials run than a fixed design's, and the root's set still
/// holds the exact root.
#[test]
fn the_monte_carlo_search_spends_its_trials_near_the_crossing() {
    let j = json_of(&[
        "balance",
        "under-fire",
        "--system",
        "effectiveness",
        "--class",
        "regular",
        "--turns",
        "8",
        "--set",
        "fire_dice=3",
        "--set",
        "fire_to_hit=5",
        "--option",
        "retreat-on-fire",
        "--option",
        "return-roll",
        "--solve",
        "p_blocked",
        "--headline",
        "eliminated",
        "--against-options",
        "none",
        "--monte-carlo",
        "--trials",
        "160000",
        "--format",
        "json",
    ]);
    let full = 160_000;
    assert_eq!(j["trials"], full);
    assert_eq!(j["first_trials"], full / 16);
    let points = j["points"].as_array().unwrap();
    let fixed = full * points.len() as u64;
    let spent = j["trials_spent"].as_u64().unwrap();
    assert!(spent * 4 < fixed, "{spent} of {fixed}");
    let counted: u64 = points.iter().map(|p| p["trials"].as_u64().unwrap()).sum();
    assert!(spent >= counted, "every stage is counted");
    let target = j["target"].as_f64().unwrap();
    for c in j["crossings"].as_array().unwrap() {
        assert_eq!(c["below"]["trials"], full);
        assert_eq!(c["above"]["trials"], full);
    }
    for p in points {
        if p["trials"] == full / 16 {
            let h = &p["headline"];
            let (lo, hi) = (h["low"].as_f64().unwrap(), h["high"].as_f64().unwrap());
            assert!(target < lo || target > hi, "{} is undecided", p["value"]);
        }
    }
    let (lo, hi) = (
        j["root_set"][0].as_f64().unwrap(),
        j["root_set"][1].as_f64().unwrap(),
    );
    assert!(lo <= 0.718032682 && 0.718032682 <= hi, "{lo}..{hi}");
}

const FAIR_GREEN: &str = r#"
name = "fair"
question = "What base number makes a Green unit rally as often as a Regular one?"
scenario = "rally"
headline = "recovered"
seed = 3
trials = 20000
set = { stands = 8, state = "routing", turns = 3 }

[[variant]]
name = "Regular"
system = "rank-and-file"
set = { class = "regular" }

[[variant]]
name = "Green"
system = "rank-and-file"
set = { class = "green" }

[[variant]]
name = "Green, 2 lost"
system = "rank-and-file"
set = { class = "green", lost = 2 }

[balance]
solve = "base_green"
against = "Regular"
"#;

/// An experiment's `[balance]` section (issue 53): every variant but the one `against` names is
/// solved for the parameter, against that variant's own headline; every value's headline is the
/// variant's own exact run at that value, the target the named variant's exact run, and each
/// crossing brackets (or hits) it. A number as the target solves every variant.
#[test]
fn an_experiments_balance_section_solves_each_variant_against_another() {
    use morale_lab::Sampler;
    use morale_lab::experiment::Experiment;
    let exp = Experiment::parse("fair.toml", FAIR_GREEN).unwrap();
    let result = exp
        .run(Some(1), Sampler::default(), &Control::new())
        .unwrap();
    let names: Vec<&str> = result.balance.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Green", "Green, 2 lost"]);
    let base = ["stands=8", "state=routing", "turns=3"];
    let target = exact(
        "rank-and-file",
        Scenario::Rally,
        &[&base[..], &["class=regular"]].concat(),
        &[],
    );
    for ((_, b), own) in result
        .balance
        .iter()
        .zip([vec!["class=green"], vec!["class=green", "lost=2"]])
    {
        assert!(b.exact);
        assert_eq!(b.target, target);
        assert!(b.target_from.contains("Regular"), "{}", b.target_from);
        assert_eq!(b.points.len(), 8, "base_green 1 to 8");
        for p in &b.points {
            let rule = format!("rule:base_green={}", p.value);
            let mut pairs: Vec<&str> = base.to_vec();
            pairs.extend(own.iter().copied());
            pairs.push(&rule);
            let want = exact("rank-and-file", Scenario::Rally, &pairs, &[]);
            let got = p.headline.unwrap().value;
            assert!(
                (got - want).abs() < 1e-12,
                "{own:?} at {}: {got} {want}",
                p.value
            );
        }
        assert!(!b.crossings.is_empty(), "{own:?}: {}", b.answer());
        for c in &b.crossings {
            let (lo, hi) = (
                c.below.headline.unwrap().value,
                c.above.headline.unwrap().value,
            );
            assert!(
                c.hit && (lo - target).abs() < 1e-12
                    || (lo - target).signum() != (hi - target).signum(),
                "{own:?}: {lo} {hi} {target}"
            );
        }
    }
    // The unit with no losses equals the Regular exactly where its base number is the
    // Regular's own (4): the rules differ in nothing else.
    let green = &result.balance[0].1;
    assert!(green.crossings[0].hit && green.crossings[0].below.value == "4");

    // A number as the target: every variant is solved, each against that number.
    let text = FAIR_GREEN.replace("against = \"Regular\"", "target = 0.5");
    let exp = Experiment::parse("fair.toml", &text).unwrap();
    let result = exp
        .run(Some(1), Sampler::default(), &Control::new())
        .unwrap();
    assert_eq!(result.balance.len(), 3);
    assert!(result.balance.iter().all(|(_, b)| b.target == 0.5));
    // base_green does not touch a Regular unit: no crossing, and the answer says so.
    let regular = &result.balance[0].1;
    assert!(regular.crossings.is_empty());
    assert!(
        regular
            .answer()
            .starts_with("No value of Green base number"),
        "{}",
        regular.answer()
    );
}

/// The report of an experiment with `[balance]`: the answer opens with each variant's number, a
/// section and a chart per variant solved, `balance.csv` with a row per value tried; and shards
/// merged give the single run's files to the byte.
#[test]
fn an_experiment_with_balance_reports_it_and_merges_from_shards() {
    let dir = std::env::temp_dir().join(format!("morale-lab-balance-exp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("fair.toml");
    std::fs::write(&file, FAIR_GREEN).unwrap();
    let one = dir.join("one");
    crate::common::bin()
        .args([
            "run",
            file.to_str().unwrap(),
            "--quiet",
            "--out",
            one.to_str().unwrap(),
        ])
        .assert()
        .success();
    let summary = std::fs::read_to_string(one.join("summary.md")).unwrap();
    let answer = summary
        .lines()
        .find(|l| l.starts_with("**Answer.**"))
        .unwrap();
    assert!(
        answer.starts_with("**Answer.** For Green: the chance of recovering reaches 43.06% at Green base number 4, exactly. For Green, 2 lost:"),
        "{answer}"
    );
    for section in [
        "## What Green base number makes it fair: Green\n",
        "## What Green base number makes it fair: Green, 2 lost\n",
    ] {
        assert!(summary.contains(section), "{section}");
    }
    for chart in ["balance_green.png", "balance_green-2-lost.svg"] {
        assert!(one.join(chart).is_file(), "{chart}");
    }
    let csv = std::fs::read_to_string(one.join("balance.csv")).unwrap();
    assert!(csv.starts_with("variant,system,scenario,headline,parameter,value,"));
    assert_eq!(csv.lines().filter(|l| l.contains(",tried,")).count(), 16);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(one.join("results.json")).unwrap()).unwrap();
    assert_eq!(json["experiment"]["balance"]["against"], "Regular");
    assert_eq!(json["balance"].as_array().unwrap().len(), 2);

    let mut parts = Vec::new();
    for k in ["1/2", "2/2"] {
        let part = dir.join(format!("part{}.json", &k[..1]));
        crate::common::bin()
            .args(["run", file.to_str().unwrap(), "--quiet", "--shard", k])
            .args(["--out", part.to_str().unwrap()])
            .assert()
            .success();
        parts.push(part.display().to_string());
    }
    let merged = dir.join("merged");
    crate::common::bin()
        .arg("merge")
        .args(&parts)
        .args(["--quiet", "--out", merged.to_str().unwrap()])
        .assert()
        .success();
    for name in [
        "summary.md",
        "balance.csv",
        "results.json",
        "balance_green.svg",
        "index.html",
    ] {
        assert_eq!(
            std::fs::read(one.join(name)).unwrap(),
            std::fs::read(merged.join(name)).unwrap(),
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
