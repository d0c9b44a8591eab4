//! Bad input: one clear line naming the flag and what is allowed, exit code 2, nothing on
//! standard output, no panic.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common::bin;
use crate::reports::file_names;

/// A new, empty working folder for one refused command (removed when done with).
fn empty_folder() -> crate::reports::Scratch {
    static N: AtomicUsize = AtomicUsize::new(0);
    crate::reports::scratch(&format!("refused-{}", N.fetch_add(1, Ordering::Relaxed)))
}

fn rejects(args: &[&str], must_say: &[&str]) {
    // Run in an empty folder, which must stay empty: a refused command writes nothing.
    let cwd = empty_folder();
    let out = bin()
        .args(args)
        .current_dir(&*cwd)
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert!(
        file_names(&cwd).is_empty(),
        "{args:?} wrote {:?}",
        file_names(&cwd)
    );
    assert!(out.stdout.is_empty(), "{args:?} printed output");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    for s in must_say {
        assert!(
            err.contains(s),
            "{args:?}: error {err:?} does not mention {s:?}"
        );
    }
}

#[test]
fn unknown_class() {
    rejects(
        &["test", "--class", "elite"],
        &["--class", "veteran, regular, green"],
    );
}

#[test]
fn unknown_option() {
    rejects(
        &["rally", "--option", "ironmen"],
        &["--option", "keep-broken-units"],
    );
}

#[test]
fn lost_not_below_stands() {
    rejects(
        &["test", "--stands", "6", "--lost", "6"],
        &["--lost", "--stands"],
    );
    rejects(&["test", "--stands", "6", "--lost", "9"], &["--lost"]);
}

#[test]
fn zero_trials() {
    rejects(&["rally", "--trials", "0"], &["--trials", "from 1"]);
    rejects(&["rally", "--trials", "-5"], &["--trials", "from 1"]);
}

#[test]
fn to_hit_of_nine() {
    rejects(
        &["under-fire", "--set", "fire_to_hit=9"],
        &["fire_to_hit", "1 to 6"],
    );
}

#[test]
fn unparsable_set() {
    rejects(&["rally", "--set", "turns"], &["--set", "KEY=VALUE"]);
    rejects(&["rally", "--set", "=4"], &["--set"]);
    rejects(
        &["rally", "--set", "turns=many"],
        &["--set turns", "whole number"],
    );
    rejects(&["rally", "--set", "bogus=1"], &["bogus", "allowed keys"]);
}

#[test]
fn parameter_of_another_scenario() {
    rejects(&["test", "--turns", "4"], &["--turns", "does not apply"]);
    rejects(
        &["rally", "--set", "fire_dice=3"],
        &["fire_dice", "under-fire"],
    );
}

#[test]
fn other_flags() {
    rejects(
        &["rally", "--system", "warhammer"],
        &["--system", "rank-and-file"],
    );
    rejects(
        &["rally", "--state", "panicking"],
        &["--state", "good, unsteady, routing"],
    );
    rejects(
        &["rally", "--stands", "many"],
        &["--stands", "whole number"],
    );
    rejects(&["rally", "--threads", "0"], &["--threads"]);
    rejects(&["rally", "--confidence", "1.5"], &["--confidence"]);
    rejects(&["rally", "--format", "xml"], &["--format", "json"]);
    rejects(&["rally", "--seed", "-3"], &["--seed"]);
    rejects(
        &["rally", "--sampler", "magic"],
        &["--sampler", "table, dice"],
    );
    rejects(
        &["under-fire", "--set", "fire_loss=0.5,0.4"],
        &["fire_loss", "add up to exactly 1"],
    );
    rejects(
        &[
            "under-fire",
            "--set",
            "fire_loss=1/2,1/2",
            "--set",
            "fire_dice=3",
        ],
        &["fire_loss", "fire_dice"],
    );
    rejects(
        &["rally", "--set", "kind=artillery", "--stands", "2"],
        &["--state", "artillery-may-rally"],
    );
    rejects(
        &["rally", "--set", "kind=artillery", "--stands", "12"],
        &["--stands", "1 to 8"],
    );
    rejects(
        &["odds", "chess"],
        &[
            "[SYSTEM]",
            "allowed: rank-and-file, effectiveness, linear-warfare",
        ],
    );
    rejects(
        &["odds", "rank-and-fil"],
        &["did you mean 'rank-and-file'?"],
    );
    rejects(
        &["test", "--format", "mdd"],
        &[
            "--format",
            "allowed: text, csv, md, json",
            "did you mean 'md'?",
        ],
    );
    rejects(&["list", "--system", "chess"], &["--system"]);
    rejects(&["rally", "--leader", "7"], &["--leader", "-3 to 3"]);
}

#[test]
fn clap_errors_are_exit_code_two() {
    bin().args(["rally", "--no-such-flag"]).assert().code(2);
    bin().arg("frobnicate").assert().code(2);
}

#[test]
fn effectiveness_bad_input() {
    rejects(
        &["test", "--system", "effectiveness", "--class", "veteran"],
        &["--class", "elite, regular, poor"],
    );
    rejects(
        &[
            "test",
            "--system",
            "effectiveness",
            "--general",
            "--general",
        ],
        &["--general"],
    );
    rejects(
        &[
            "under-fire",
            "--system",
            "effectiveness",
            "--set",
            "p_blocked=-0.1",
        ],
        &["p_blocked", "from 0 to 1"],
    );
    rejects(
        &[
            "under-fire",
            "--system",
            "effectiveness",
            "--set",
            "p_blocked=1.5",
        ],
        &["p_blocked"],
    );
    rejects(
        &["test", "--system", "effectiveness", "--stands", "6"],
        &["--stands", "effectiveness"],
    );
    rejects(
        &["test", "--system", "effectiveness", "--lost", "4"],
        &["--lost", "0 to 3"],
    );
    rejects(
        &[
            "rally",
            "--system",
            "effectiveness",
            "--option",
            "keep-broken-units",
        ],
        &["--option", "retreat-on-fire"],
    );
    rejects(
        &["rally", "--system", "effectiveness", "--state", "routing"],
        &["--state", "in_line, retreating"],
    );
    rejects(
        &["test", "--system", "rank-and-file", "--general"],
        &["--general", "rank-and-file"],
    );
    rejects(
        &["odds", "effectiveness", "--stands", "4"],
        &["--stands", "quarters"],
    );
    rejects(
        &["odds", "rank-and-file", "--phases", "21"],
        &["--phases", "2 to 20"],
    );
    rejects(
        &["odds", "linear-warfare", "--phases", "12"],
        &["--phases", "linear-warfare"],
    );
}

#[test]
fn linear_warfare_bad_input() {
    let lw = ["--system", "linear-warfare"];
    let run = |scenario: &str, rest: &[&str], say: &[&str]| {
        let mut args = vec![scenario];
        args.extend(lw);
        args.extend(rest);
        rejects(&args, say);
    };
    run("under-fire", &["--pips", "0"], &["--pips", "1 to 12"]);
    run("under-fire", &["--pips", "40"], &["--pips", "1 to 12"]);
    run(
        "melee",
        &["--attacker", "guards pips=40"],
        &["--attacker", "pips=40", "1 to 12"],
    );
    run(
        "melee",
        &["--attacker", "guards pips=0"],
        &["--attacker", "pips=0"],
    );
    run(
        "melee",
        &["--defender", "line fearless"],
        &[
            "--defender",
            "fearless",
            "charging, double-move, obstacle, general",
        ],
    );
    run(
        "melee",
        &["--defender", "line double-move"],
        &["--defender", "only the attacker"],
    );
    run(
        "melee",
        &["--attacker", "line pips=1 double-move"],
        &["--attacker", "costs a pip", "pips=3 or more"],
    );
    run(
        "test",
        &["--set", "test=volley", "--type", "cavalry"],
        &["--type", "cavalry do not shoot", "fire_from=artillery"],
    );
    run(
        "under-fire",
        &["--rule", "general_coin=each"],
        &["general_coin", "per-attack", "per-pip"],
    );
    run(
        "melee",
        &["--attacker", "line colour=red"],
        &["--attacker", "colour=red", "pips=N"],
    );
    run(
        "melee",
        &["--attacker", "line guards"],
        &["--attacker", "one unit type"],
    );
    run(
        "melee",
        &["--attacker", "line pips=1"],
        &["--attacker", "last pip"],
    );
    run(
        "melee",
        &["--defender", "line charging"],
        &["--defender", "only the attacker"],
    );
    run(
        "test",
        &[
            "--set",
            "test=volley",
            "--set",
            "fire_from=artillery",
            "--set",
            "range_band=5",
        ],
        &["range_band", "1 to 4"],
    );
    run(
        "under-fire",
        &["--type", "hussars"],
        &["--type", "line, guards, light"],
    );
    run(
        "under-fire",
        &["--set", "fall_back_at=6"],
        &["fall_back_at"],
    );
    run(
        "under-fire",
        &["--set", "general_joins=true"],
        &["--general"],
    );
    rejects(
        &["charge", "--system", "linear-warfare"],
        &["charge", "linear-warfare", "test, under-fire, melee"],
    );
    rejects(
        &["rally", "--system", "linear-warfare"],
        &["rally", "linear-warfare"],
    );
}

#[test]
fn melee_and_charge_bad_input() {
    rejects(
        &["melee", "--attacker", "regular dragoons"],
        &["--attacker", "dragoons", "cavalry"],
    );
    rejects(
        &["melee", "--defender", "regular morale=3"],
        &["--defender", "morale=3", "stands=N"],
    );
    rejects(
        &["melee", "--attacker", "regular stands=4 lost=4"],
        &["--attacker", "lost=4"],
    );
    rejects(
        &["melee", "--attacker", "regular cavalry blown"],
        &["blown", "blown-cavalry"],
    );
    rejects(
        &["melee", "--attacker", "regular state=routing"],
        &["--attacker", "routing"],
    );
    rejects(
        &["melee", "--attacker", "regular veteran"],
        &["--attacker", "one class"],
    );
    rejects(
        &[
            "melee",
            "--attacker",
            "regular hit=-3",
            "--defender",
            "green hit=-3",
            "--rule",
            "six_always_hits=false",
        ],
        &["cannot end", "neither side can hit"],
    );
    rejects(
        &[
            "melee",
            "--attacker",
            "regular stands=1 hit=-2",
            "--defender",
            "regular stands=1 hit=-2",
            "--rule",
            "six_always_hits=false",
            "--set",
            "max_rounds=20",
        ],
        &["cannot be relied on to end", "max_rounds"],
    );
    rejects(
        &["charge", "--set", "charge_from=behind"],
        &["charge_from", "front, flank, rear"],
    );
    rejects(
        &["charge", "--system", "effectiveness"],
        &["charge", "effectiveness"],
    );
    rejects(
        &[
            "melee",
            "--system",
            "effectiveness",
            "--attacker",
            "elite fanatics",
        ],
        &["--attacker", "fanatics", "general"],
    );
    rejects(
        &[
            "melee",
            "--system",
            "effectiveness",
            "--attacker",
            "elite lost=4",
        ],
        &["--attacker", "lost=4"],
    );
}

/// The bad-input corpus: every malformed experiment file in `tests/corpus/experiments/` and every
/// command line in `tests/corpus/command-lines.txt` gives exit code 2 and one line of error
/// (for files: naming the file and the line), never a panic, and leaves no output behind.
#[test]
fn the_bad_input_corpus_is_refused_cleanly() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let out = std::env::temp_dir().join(format!("morale-lab-corpus-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let check = |args: Vec<String>, must: Option<String>| {
        // In an empty folder, which must stay empty, and nothing on standard output.
        let cwd = empty_folder();
        let o = bin().args(&args).current_dir(&*cwd).assert().code(2);
        assert!(
            file_names(&cwd).is_empty(),
            "{args:?} wrote {:?}",
            file_names(&cwd)
        );
        assert!(o.get_output().stdout.is_empty(), "{args:?} printed output");
        let err = String::from_utf8(o.get_output().stderr.clone()).unwrap();
        assert!(
            err.starts_with("error: ") && err.trim_end().lines().count() == 1,
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if let Some(m) = must {
            assert!(err.contains(&m), "{args:?} should name {m}: {err}");
            if m.ends_with(".toml:") {
                let after = &err[err.find(&m).unwrap() + m.len()..];
                assert!(
                    after.starts_with(|c: char| c.is_ascii_digit()),
                    "{args:?} should give a line number: {err}"
                );
                // Then the key at fault (`file:line: key: message`), unless the line is not
                // TOML at all and so holds no key.
                let (_, rest) = after.split_once(": ").unwrap();
                let key = rest.split_once(": ").map_or("", |(k, _)| k);
                let keyless = m == "not-toml.toml:";
                assert!(
                    keyless
                        || (!key.is_empty()
                            && key
                                .chars()
                                .all(|c| c.is_alphanumeric() || "._-".contains(c))),
                    "{args:?} should name the key: {err}"
                );
            }
        }
        assert!(!out.exists(), "{args:?} left output behind");
    };
    let mut files: Vec<_> = std::fs::read_dir(root.join("experiments"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 40, "the corpus has {} files", files.len());
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let args = vec![
            "run".into(),
            f.display().to_string(),
            "--out".into(),
            out.display().to_string(),
            "--quiet".into(),
        ];
        // file:line: — the line that is at fault.
        check(args, Some(format!("{name}:")));
    }
    // A folder instead of a file.
    check(
        vec![
            "run".into(),
            root.display().to_string(),
            "--out".into(),
            out.display().to_string(),
        ],
        Some("is a folder".into()),
    );
    let lines = std::fs::read_to_string(root.join("command-lines.txt")).unwrap();
    let mut n = 0;
    for line in lines
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let args: Vec<String> = line.split(' ').map(|a| a.replace('~', " ")).collect();
        check(args, None);
        n += 1;
    }
    assert!(n >= 20);
}

/// docs/TESTING.md states how many malformed files and command lines the corpus holds.
#[test]
fn the_testing_notes_count_the_bad_input_corpus() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let files = std::fs::read_dir(root.join("experiments")).unwrap().count();
    let lines = std::fs::read_to_string(root.join("command-lines.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .count();
    let readme = include_str!("../docs/TESTING.md");
    for said in [
        format!("{files} malformed experiment files"),
        format!("{lines} command lines"),
    ] {
        assert!(
            readme.contains(&said),
            "docs/TESTING.md should say \"{said}\""
        );
    }
}
