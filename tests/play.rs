//! `play`: side A's charge solved exactly. Every fixed way of playing it reports is held
//! against the engine's own exact solver of the same engagement with that policy set as
//! parameters, optimal play against every fixed way over a grid of engagements in the three
//! systems, and a one-turn engagement against the better of its two choices.

use morale_lab::play::Ask;
use morale_lab::{Control, RunOptions, Scenario, system};

use crate::common::{exact_outcome, inputs};

/// Side A holding the field minus side B holding it.
fn ask() -> Ask {
    Ask {
        weights: vec![("side_a_holds".into(), 1.0), ("side_b_holds".into(), -1.0)],
        within: 0.005,
        budget: None,
    }
}

/// The exact P(A holds) − P(B holds) of an engagement run as the parameters say.
fn exact_margin(sys: &str, pairs: &[&str]) -> f64 {
    let job = system::build(sys, Scenario::Engagement, &inputs(pairs), &[]).unwrap();
    let r = job
        .run(&RunOptions::new(1, 1).exact_only(true), &Control::new())
        .unwrap();
    exact_outcome(&r, "side_a_holds") - exact_outcome(&r, "side_b_holds")
}

fn solved(sys: &str, pairs: &[&str]) -> morale_lab::play::Solution {
    let job = system::build(sys, Scenario::Engagement, &inputs(pairs), &[]).unwrap();
    job.play(&ask(), &Control::new()).unwrap()
}

fn value(s: &morale_lab::play::Solution, name: &str) -> f64 {
    // The settings' own way is named by what it does ("as set (charge a shaken target)").
    s.fixed
        .iter()
        .find(|f| f.name == name || (name == "as set" && f.name.starts_with("as set (")))
        .unwrap_or_else(|| panic!("no way of playing {name}"))
        .value
}

/// The grid: each system at its defaults, with other units, ranges and turn caps.
fn grid() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("rank-and-file", vec![]),
        ("rank-and-file", vec!["turns=4", "range=2"]),
        (
            "rank-and-file",
            vec![
                "attacker=veteran cavalry stands=4",
                "defender=green stands=6",
                "turns=6",
            ],
        ),
        ("effectiveness", vec!["turns=5"]),
        (
            "effectiveness",
            vec!["attacker=elite", "turns=4", "range=2"],
        ),
        ("linear-warfare", vec![]),
        (
            "linear-warfare",
            vec!["attacker=guards pips=7", "defender=line pips=5", "turns=6"],
        ),
    ]
}

/// The parameters' own policy, always holding and always charging, as play values them, are
/// the exact solver's margins of the same engagement with those policies set as parameters
/// (`charge_at_turn=1` charges whenever able; `charge_at_turn=0` without
/// `charge_when_shaken` never charges); and optimal play is at least each of them and every
/// rule of thumb tried.
#[test]
fn optimal_play_beats_every_fixed_way_and_each_is_the_exact_solvers() {
    for (sys, pairs) in grid() {
        let s = solved(sys, &pairs);
        let with = |extra: &[&'static str]| {
            let mut p = pairs.clone();
            p.extend(extra);
            exact_margin(sys, &p)
        };
        // The outcomes under the best play make up its value, and every trial ends in one.
        let of = |name: &str| {
            s.outcomes
                .iter()
                .find(|o| o.0 == name)
                .unwrap_or_else(|| panic!("{sys}: no outcome {name}"))
                .1
        };
        assert!(
            (of("side_a_holds") - of("side_b_holds") - s.optimal).abs() < 1e-12,
            "{sys} {pairs:?}: {:?} against {}",
            s.outcomes,
            s.optimal
        );
        let total: f64 = s.outcomes.iter().map(|o| o.1).sum();
        assert!(
            (total - 1.0).abs() < 1e-9,
            "{sys} {pairs:?}: {:?}",
            s.outcomes
        );
        let own = with(&[]);
        let always_charge = with(&["charge_at_turn=1"]);
        let always_hold = with(&["charge_at_turn=0", "charge_when_shaken=false"]);
        for (name, want) in [
            ("as set", own),
            ("always charge", always_charge),
            ("always hold", always_hold),
        ] {
            assert!(
                (value(&s, name) - want).abs() < 1e-12,
                "{sys} {pairs:?} {name}: play {} exact {want}",
                value(&s, name)
            );
        }
        for f in &s.fixed {
            assert!(
                s.optimal >= f.value - 1e-12,
                "{sys} {pairs:?}: {} beats optimal ({} > {})",
                f.name,
                f.value,
                s.optimal
            );
        }
        if let Some(t) = &s.thumb {
            assert!(s.optimal - t.value <= 0.005 + 1e-12, "{t:?}");
        }
        let shares: f64 = s.shares.iter().map(|x| x.share).sum();
        assert!(
            s.decisions_met == 0.0 || (shares - 1.0).abs() < 1e-9,
            "{shares}"
        );
    }
}

/// With one turn to play, the best play is the better of holding and charging that turn, and
/// the policy's one row at the start names it.
#[test]
fn one_turn_is_the_better_of_its_two_choices() {
    for sys in ["rank-and-file", "effectiveness", "linear-warfare"] {
        let pairs = ["turns=1"];
        let s = solved(sys, &pairs);
        let hold = value(&s, "always hold");
        let charge = value(&s, "always charge");
        assert!(
            (s.optimal - hold.max(charge)).abs() < 1e-12,
            "{sys}: {} against {hold} and {charge}",
            s.optimal
        );
        if (hold - charge).abs() > 1e-12 {
            let want = if hold > charge { "hold" } else { "charge" };
            assert_eq!(s.policy.len(), 1, "{sys}: {:?}", s.policy);
            assert_eq!(s.policy[0].choice, want, "{sys}");
            assert!((s.policy[0].margin - (hold - charge).abs()).abs() < 1e-12);
            assert!((s.policy[0].reached - 1.0).abs() < 1e-12);
        }
    }
}

/// Worked by hand: Rank & File, two Regular units of 8 stands one move apart, one turn.
/// Holding, both fire 6 dice hitting on 6 at full strength; each side's loss and test are
/// alike, so side A holds as often as side B: a margin of 0. The objective may also name
/// one outcome alone, and an outcome the scenario lacks is refused with the list.
#[test]
fn a_held_turn_of_two_like_units_is_even_and_objectives_are_checked() {
    let s = solved("rank-and-file", &["turns=1"]);
    assert!(value(&s, "always hold").abs() < 1e-15);
    let job = system::build(
        "rank-and-file",
        Scenario::Engagement,
        &inputs(&["turns=1"]),
        &[],
    )
    .unwrap();
    let only_a = Ask {
        weights: vec![("side_a_holds".into(), 1.0)],
        within: 0.005,
        budget: None,
    };
    let a = job.play(&only_a, &Control::new()).unwrap();
    assert!(a.objective.contains("side A holds") && !a.objective.contains('_'));
    let bad = Ask {
        weights: vec![("victory".into(), 1.0)],
        within: 0.005,
        budget: None,
    };
    let e = job.play(&bad, &Control::new()).unwrap_err().to_string();
    assert!(e.contains("victory") && e.contains("side_a_holds"), "{e}");
}

/// The command: what it solved heads every format; Markdown and CSV are their own formats; a
/// line, an outcome named twice or one the scenario lacks are refused in one line (exit 2).
#[test]
fn the_command_says_what_it_solved_in_each_format_and_refuses_what_it_cannot() {
    let run = |args: &[&str]| {
        assert_cmd::Command::cargo_bin("morale-lab")
            .unwrap()
            .args([
                "play",
                "engagement",
                "--system",
                "linear-warfare",
                "--turns",
                "3",
            ])
            .args(args)
            .output()
            .unwrap()
    };
    let text = String::from_utf8(run(&[]).stdout).unwrap();
    assert!(
        text.starts_with("morale-lab play · engagement · linear-warfare\nparams: turns=3")
            && text.contains("rules: as written")
            && text.contains(" pp")
            && text.contains("way of playing"),
        "{text}"
    );
    let md = String::from_utf8(run(&["--format", "md"]).stdout).unwrap();
    assert!(
        md.contains("| way of playing |") && md.contains("- params: turns=3"),
        "{md}"
    );
    let csv = String::from_utf8(run(&["--format", "csv"]).stdout).unwrap();
    assert!(
        csv.starts_with("first_turn,last_turn,side_a,side_b,best,gain,turns_met\n"),
        "{csv}"
    );
    let json: serde_json::Value =
        serde_json::from_slice(&run(&["--format", "json"]).stdout).unwrap();
    assert_eq!(
        json["setting"][0],
        "morale-lab play · engagement · linear-warfare"
    );
    for bad in [
        vec!["--objective", "side_a_holds+side_a_holds"],
        vec!["--objective", "victory"],
    ] {
        let out = run(&bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    }
    let line = assert_cmd::Command::cargo_bin("morale-lab")
        .unwrap()
        .args(["play", "line", "--system", "rank-and-file"])
        .output()
        .unwrap();
    assert_eq!(line.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&line.stderr).contains("file by file"));
}

/// A job that plays the solved table scores exactly the value play found, and its simulation,
/// table sampler or dice, agrees with it within its interval; the states a played job tells
/// apart carry the turn, so a choice that changes with the turn is made at its turn.
#[test]
fn a_played_job_scores_the_solved_value_exactly_and_by_simulation() {
    let cases = [
        (
            "rank-and-file",
            vec!["attacker=veteran cavalry", "defender=green stands=6"],
        ),
        ("effectiveness", vec!["turns=5"]),
        ("linear-warfare", vec!["turns=6"]),
    ];
    for (sys, pairs) in cases {
        let job = system::build(sys, Scenario::Engagement, &inputs(&pairs), &[]).unwrap();
        let (played, s) = job.played(&ask(), &Control::new()).unwrap();
        let r = played
            .run(&RunOptions::new(1, 1).exact_only(true), &Control::new())
            .unwrap();
        let exact = exact_outcome(&r, "side_a_holds") - exact_outcome(&r, "side_b_holds");
        assert!(
            (exact - s.optimal).abs() < 1e-12,
            "{sys} {pairs:?}: the played job {exact}, play {}",
            s.optimal
        );
        assert!(
            r.notes
                .iter()
                .any(|n| n.starts_with("side A plays its best choices")),
            "{:?}",
            r.notes
        );
        for sampler in [morale_lab::Sampler::Table, morale_lab::Sampler::Dice] {
            let trials = 200_000;
            let r = played
                .run(
                    // A minute for the exact solve: it is compared, not timed, and a loaded
                    // test run can pass the 5 s default.
                    &RunOptions::new(trials, 7)
                        .sampler(sampler)
                        .exact_budget(Some(60.0)),
                    &Control::new(),
                )
                .unwrap();
            let o = r
                .outcomes
                .iter()
                .find(|o| o.outcome == "side_a_holds")
                .unwrap();
            let p = o.cell.exact.unwrap();
            // Five standard errors: a miss by chance about once in two million.
            let se = (p * (1.0 - p) / trials as f64).sqrt();
            assert!(
                (o.cell.p - p).abs() <= 5.0 * se + 1e-9,
                "{sys} {sampler:?}: estimate {} exact {p}",
                o.cell.p
            );
        }
    }
    // A setting with no choice (a line) is refused in words, not played as it stands.
    let line = system::build("rank-and-file", Scenario::Line, &inputs(&[]), &[]).unwrap();
    let e = line
        .played(&ask(), &Control::new())
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("a line's charges, chosen file by file, are not solved yet"),
        "{e}"
    );
}

/// An experiment's variant may play its best choices (`play = "optimal"`): its exact headline
/// is play's optimal value; a way of playing that is not one, or play beside a sensitivity
/// section, is refused at its line.
#[test]
fn an_experiment_variant_plays_optimally_and_bad_play_is_refused_at_its_line() {
    let dir = std::env::temp_dir().join(format!("morale-lab-play-exp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |play: &str, extra: &str| {
        format!(
            "name = \"p\"\nquestion = \"q?\"\nscenario = \"engagement\"\nheadline = \"side_a_holds\"\ntrials = 20000\n{extra}\n[[variant]]\nname = \"as set\"\nsystem = \"linear-warfare\"\nset = {{ turns = 6 }}\n\n[[variant]]\nname = \"best\"\nsystem = \"linear-warfare\"\nset = {{ turns = 6 }}\nplay = \"{play}\"\n"
        )
    };
    let run = |text: String| {
        let path = dir.join("p.toml");
        std::fs::write(&path, text).unwrap();
        assert_cmd::Command::cargo_bin("morale-lab")
            .unwrap()
            .args([
                "run",
                path.to_str().unwrap(),
                "--threads",
                "1",
                "--quiet",
                "--force",
                "--out",
            ])
            .arg(dir.join("out"))
            .output()
            .unwrap()
    };
    let out = run(file("optimal", ""));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/results.json")).unwrap())
            .unwrap();
    let margin = |run: &serde_json::Value| {
        let of = |name: &str| {
            run["report"]["outcomes"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["outcome"] == name)
                .unwrap()["exact"]
                .as_f64()
                .unwrap()
        };
        of("side_a_holds") - of("side_b_holds")
    };
    let runs = json["runs"].as_array().unwrap();
    let s = solved("linear-warfare", &["turns=6"]);
    assert!((margin(&runs[0]) - value(&s, "as set")).abs() < 1e-12);
    assert!((margin(&runs[1]) - s.optimal).abs() < 1e-12);
    assert_eq!(json["experiment"]["variants"][1]["optimal_play"], true);
    // The report shows how the best play plays: its section with the rule of thumb or the
    // closest way tried, the map of the best choice as a chart, the solution in the data.
    assert_eq!(json["play"][0][0], "best");
    assert!((json["play"][0][1]["optimal"].as_f64().unwrap() - s.optimal).abs() < 1e-12);
    let summary = std::fs::read_to_string(dir.join("out/summary.md")).unwrap();
    let section = summary
        .split("## When to hold and when to charge: best")
        .nth(1)
        .expect("a section on how the best play plays");
    assert!(
        section.contains("| way of playing | value | short of the best |")
            && section.contains("| best play |")
            && (section.contains("Rule of thumb: ") || section.contains("the closest, ")),
        "{section}"
    );
    let svg = std::fs::read_to_string(dir.join("out/play.svg")).unwrap();
    assert!(svg.contains("<text") && svg.contains("best choice in each state"));
    assert!(dir.join("out/play.png").exists());
    let bad = run(file("cleverly", ""));
    let err = String::from_utf8(bad.stderr).unwrap();
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(
        err.contains("p.toml:16: variant.play")
            && err.contains("play = \"cleverly\" is no way of playing; allowed: \"optimal\""),
        "{err}"
    );
    let with_sens = run(file("optimal", "sensitivity = true"));
    let err = String::from_utf8(with_sens.stderr).unwrap();
    assert_eq!(with_sens.status.code(), Some(2), "{err}");
    assert!(err.contains("does not go with sensitivity = true"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `balance` under the best play: at every value tried side A's choices are solved again, so
/// each value's headline is the exact chance of the engagement played best at that value, as
/// the played job gives it on its own; the fixed policy's differ, and the command line says
/// how it played and refuses a way of playing it does not know.
#[test]
fn balance_solves_the_best_play_again_at_every_value() {
    use morale_lab::experiment::balance::{Ask as Fair, Target, solve};
    let pairs = ["attacker=veteran cavalry", "defender=green stands=10"];
    let ins = inputs(&pairs);
    let fair = |optimal_play: bool| {
        solve(
            &Fair {
                system: "rank-and-file",
                scenario: Scenario::Engagement,
                inputs: &ins,
                options: &[],
                headline: Some("side_a_holds"),
                key: "defender.stands",
                range: Some(("10".into(), "12".into())),
                target: Target::Number(0.6),
                run: RunOptions::new(1, 1).threads(Some(1)),
                monte_carlo: false,
                optimal_play,
            },
            &Control::new(),
        )
        .unwrap()
    };
    let (best, fixed) = (fair(true), fair(false));
    assert!(best.optimal_play && !fixed.optimal_play);
    assert_eq!(best.points.len(), 3);
    for (b, f) in best.points.iter().zip(&fixed.points) {
        let at = format!("defender=green stands={}", b.value);
        let job = system::build(
            "rank-and-file",
            Scenario::Engagement,
            &inputs(&["attacker=veteran cavalry", &at]),
            &[],
        )
        .unwrap();
        let (played, _) = job.played(&ask(), &Control::new()).unwrap();
        let r = played
            .run(&RunOptions::new(1, 1).exact_only(true), &Control::new())
            .unwrap();
        let want = exact_outcome(&r, "side_a_holds");
        let got = b.headline.unwrap().value;
        assert!(
            (got - want).abs() < 1e-12,
            "{}: {got} against {want}",
            b.value
        );
        // Good play is worth a great deal against a big unit: the fixed policy charges into it.
        let as_set = f.headline.unwrap().value;
        assert!(got > as_set + 0.2, "{}: {got} against {as_set}", b.value);
    }
    // The command line: said in words, and a way of playing it does not know refused.
    let out = crate::common::bin()
        .args([
            "balance",
            "engagement",
            "--system",
            "rank-and-file",
            "--attacker",
            "veteran cavalry",
            "--defender",
            "green stands=10",
            "--solve",
            "defender.stands",
            "--range",
            "10..11",
            "--headline",
            "side_a_holds",
            "--target",
            "0.6",
            "--play",
            "optimal",
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Play: side A makes its best choices at every value tried"),
        "{text}"
    );
    let bad = crate::common::bin()
        .args([
            "balance",
            "engagement",
            "--solve",
            "defender.stands",
            "--target",
            "0.6",
        ])
        .args(["--play", "cleverly"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(bad.stderr).unwrap();
    assert!(
        err.contains("invalid value 'cleverly' for --play: optimal"),
        "{err}"
    );
}

/// The map of the best choice by state says what the policy's table says: a cell for every
/// state met in at least a thousandth of a turn (on the map's axes), coloured by its one best
/// choice where that holds at every turn met, by a paler shade of it where only the last turn
/// differs, else by the first and naming the turn the last begins.
#[test]
fn the_map_of_the_best_choice_is_the_policy_table() {
    use morale_lab::report::chart::Chart;
    for (sys, pairs) in grid() {
        let s = solved(sys, &pairs);
        let Chart::Choices(map) = s.chart("t") else {
            panic!("{sys} {pairs:?}: not a map of choices");
        };
        let mut shown = 0;
        for (yi, enemy) in map.y.1.iter().enumerate() {
            for (xi, own) in map.x.1.iter().enumerate() {
                let mut runs: Vec<_> = s
                    .policy
                    .iter()
                    .filter(|r| &r.own == own && &r.enemy == enemy)
                    .collect();
                runs.sort_by_key(|r| r.turns.0);
                let met: f64 = runs.iter().map(|r| r.reached).sum();
                let cell = &map.cells[yi][xi];
                if met < 1e-3 {
                    assert!(cell.is_none(), "{sys} {pairs:?}: {own} / {enemy}");
                    continue;
                }
                shown += 1;
                let (kind, words) = cell.as_ref().expect("a cell for a state met");
                let (first, last) = (runs[0], runs[runs.len() - 1]);
                let last_only = last.turns.0 == s.turns
                    && runs[..runs.len() - 1]
                        .iter()
                        .all(|r| r.choice == first.choice);
                if runs.iter().all(|r| r.choice == first.choice) {
                    assert_eq!(map.kinds[*kind].0, first.choice);
                    assert_eq!(words, &first.choice);
                } else if last_only {
                    // A change in the last turn alone is the turn limit's: a paler shade of the
                    // first choice, named, with no number.
                    assert_eq!(
                        map.kinds[*kind].0,
                        format!("{}, {} in the last turn only", first.choice, last.choice)
                    );
                    assert_eq!(words, &first.choice);
                } else {
                    assert!(
                        map.kinds[*kind]
                            .0
                            .starts_with(&format!("{}, then ", first.choice))
                    );
                    assert_eq!(words, &format!("{} from {}", last.choice, last.turns.0));
                }
            }
        }
        let states = s
            .policy
            .iter()
            .map(|r| (&r.own, &r.enemy))
            .collect::<std::collections::HashSet<_>>();
        assert!(
            shown > 0 || states.is_empty(),
            "{sys} {pairs:?}: nothing shown"
        );
    }
}
