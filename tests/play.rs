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
    s.fixed
        .iter()
        .find(|f| f.name == name)
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
        let own = with(&[]);
        let always_charge = with(&["charge_at_turn=1"]);
        let always_hold = with(&["charge_at_turn=0", "charge_when_shaken=false"]);
        for (name, want) in [
            ("as the parameters set it", own),
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
