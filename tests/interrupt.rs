//! Ctrl-C (SIGINT) or SIGTERM during a run, a shard or a merge: the process stops within a
//! second, exits 130 with one line saying so, and leaves no file or folder behind — not even a
//! hidden partial one.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::reports::scratch;

/// What an interrupted process did: seconds from the signal to its exit, exit code, output.
struct Stopped {
    took: f64,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Start `args`, let it run for `after`, send SIGINT, and wait for it.
fn interrupt(args: &[&str], cwd: &Path, after: Duration) -> Stopped {
    signal("-INT", args, cwd, after)
}

/// Start `args`, let it run for `after`, send `sig` (`-INT`, `-TERM`), and wait for it.
fn signal(sig: &str, args: &[&str], cwd: &Path, after: Duration) -> Stopped {
    let child = Command::new(assert_cmd::cargo::cargo_bin("morale-lab"))
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let sent = Instant::now();
    let status = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill {sig}");
    let out = child.wait_with_output().unwrap();
    Stopped {
        took: sent.elapsed().as_secs_f64(),
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Stopped by the signal within a second, with exit code 130 and one line saying so.
fn assert_stopped(s: &Stopped) {
    assert_eq!(s.code, Some(130), "exit code; stderr: {}", s.stderr);
    assert!(s.took < 1.0, "took {:.2} s to stop", s.took);
    assert_eq!(s.stderr.lines().count(), 1, "{}", s.stderr);
    assert!(s.stderr.starts_with("error: interrupted"), "{}", s.stderr);
}

/// Everything under `dir`, as paths relative to it.
fn listing(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        out.push(p.strip_prefix(dir).unwrap().display().to_string());
        if p.is_dir() {
            out.extend(
                listing(&p)
                    .into_iter()
                    .map(|q| format!("{}/{q}", p.file_name().unwrap().to_string_lossy())),
            );
        }
    }
    out.sort();
    out
}

#[test]
fn ctrl_c_stops_a_long_experiment_within_a_second_and_writes_nothing() {
    let dir = scratch("interrupt-run");
    // A line battle of 12 units a side for 24 turns: the slowest trials the tool has, and
    // 10^12 of them — it would run for weeks.
    std::fs::write(dir.join("long.toml"), LONG).unwrap();
    let before = listing(&dir);
    let s = interrupt(
        &["run", "long.toml", "--out", "long-report", "--quiet"],
        &dir,
        Duration::from_millis(1500),
    );
    assert_stopped(&s);
    assert_eq!(listing(&dir), before, "files left behind");
}

#[test]
fn ctrl_c_stops_a_single_scenario_run_and_prints_no_half_result() {
    let dir = scratch("interrupt-scenario");
    for args in [
        &[
            "under-fire",
            "--system",
            "effectiveness",
            "--trials",
            "1000000000000",
        ][..],
        &["line", "--trials", "1000000000000", "--set", "turns=24"][..],
    ] {
        let s = interrupt(args, &dir, Duration::from_millis(1000));
        assert_stopped(&s);
        assert!(s.stdout.is_empty(), "printed: {}", s.stdout);
    }
    assert!(
        listing(&dir).is_empty(),
        "files left behind: {:?}",
        listing(&dir)
    );
}

/// A long experiment: 10^12 trials of the slowest battle (12 units a side for 24 turns), which
/// would run for weeks.
const LONG: &str = r#"name = "long"
question = "Will it stop?"
scenario = "line"
seed = 1
trials = 1000000000000
set = { attacker = "12 x regular infantry", defender = "12 x regular infantry", turns = 24 }

[[variant]]
name = "one"
system = "rank-and-file"
"#;

/// `run --shard`, stopped by Ctrl-C and by SIGTERM: no shard file, no partial one.
#[test]
fn a_shard_stops_on_ctrl_c_and_sigterm_and_writes_nothing() {
    let dir = scratch("interrupt-shard");
    std::fs::write(dir.join("long.toml"), LONG).unwrap();
    let before = listing(&dir);
    for sig in ["-INT", "-TERM"] {
        let s = signal(
            sig,
            &[
                "run",
                "long.toml",
                "--shard",
                "2/3",
                "--out",
                "part.json",
                "--quiet",
            ],
            &dir,
            Duration::from_millis(1500),
        );
        assert_stopped(&s);
        assert_eq!(listing(&dir), before, "{sig}: files left behind");
    }
}

/// `merge`, stopped by Ctrl-C and by SIGTERM while it solves the exact values of its runs
/// (24 under-fire runs of 40 stands, 1,000 turns and 9 re-rolls, about a second each, so the
/// merge is still solving when the signal comes): no report folder, no partial one.
#[test]
fn a_merge_stops_on_ctrl_c_and_sigterm_and_writes_nothing() {
    let dir = scratch("interrupt-merge");
    std::fs::write(
        dir.join("slow.toml"),
        r#"name = "slow"
question = "Will the merge stop?"
scenario = "under-fire"
seed = 1
trials = 1
set = { stands = 40, turns = 1000, rerolls = 9, elite = true }

[[variant]]
name = "one"
system = "rank-and-file"

[sweep]
x = { key = "fire_dice", values = [1, 2, 3, 4, 5, 6, 7, 8] }
y = { key = "class", values = ["veteran", "regular", "green"] }
"#,
    )
    .unwrap();
    crate::common::bin()
        .current_dir(&*dir)
        .args([
            "run",
            "slow.toml",
            "--shard",
            "1/1",
            "--out",
            "part.json",
            "--quiet",
        ])
        .assert()
        .success();
    let before = listing(&dir);
    for sig in ["-INT", "-TERM"] {
        let s = signal(
            sig,
            &["merge", "part.json", "--out", "merged"],
            &dir,
            Duration::from_millis(1500),
        );
        assert_stopped(&s);
        assert!(s.stdout.is_empty(), "printed: {}", s.stdout);
        assert_eq!(listing(&dir), before, "{sig}: files left behind");
    }
}

/// The worked example of docs/MECHANICS.md: a shaken unit rallies.
fn example() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("mechanics/examples/first-rally.rhai"),
    )
    .unwrap()
}

/// A designer's easy mistake: `n` dice summed one `d6()` at a time (6^n branches a turn).
fn d6_loop(n: u32) -> String {
    format!("    let total = 0;\n    for i in 0..{n} {{ total += d6(); }}")
}

/// The worked example's rally with `extra` put at the start of its turn, written to `dir`.
fn mistake(dir: &Path, name: &str, extra: &str) -> String {
    let example = example();
    let text = example.replacen(
        "fn rally_turn(p, s) {\n",
        &format!("fn rally_turn(p, s) {{\n{extra}\n"),
        1,
    );
    assert_ne!(text, example, "the turn was found");
    std::fs::write(dir.join(name), text).unwrap();
    name.to_string()
}

/// Run `args` in `dir` to its end (killed past `limit`): seconds taken, exit code, stderr.
fn timed(args: &[&str], dir: &Path, limit: Duration) -> (f64, Option<i32>, String) {
    let started = Instant::now();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("morale-lab"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    (
        started.elapsed().as_secs_f64(),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A designer's easy mistake, ten `d6()` summed in a loop (6^10 branches a turn), is refused up
/// front with the count and how to write it, well within the budget and a second.
#[test]
fn a_turn_of_too_many_branches_is_refused_up_front() {
    let dir = scratch("interrupt-branches");
    let file = mistake(&dir, "ten.rhai", &d6_loop(10));
    for extra in [&[][..], &["--exact-only"][..]] {
        let mut args = vec!["rally", "--system", &file, "--exact-budget", "2"];
        args.extend_from_slice(extra);
        let (took, code, stderr) = timed(&args, &dir, Duration::from_secs(60));
        assert_eq!(code, Some(2), "{stderr}");
        assert!(took < 3.0, "took {took:.2} s");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("120,932,351 branches") && stderr.contains("roll(10, 6)"),
            "{stderr}"
        );
    }
}

/// Eight `d6()` a turn (about 3.4 million branches with the rally's own die) are under the
/// bound's early refusal: the exact solve stops at its budget, and SIGTERM or SIGINT in the
/// middle of a turn's branches ends the command within a second.
#[test]
fn a_turn_of_many_branches_stops_on_its_budget_and_on_sigterm() {
    let dir = scratch("interrupt-many-branches");
    let file = mistake(&dir, "eight.rhai", &d6_loop(8));
    let (took, code, stderr) = timed(
        &[
            "rally",
            "--system",
            &file,
            "--exact-budget",
            "1",
            "--exact-only",
        ],
        &dir,
        Duration::from_secs(60),
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(took < 2.0, "took {took:.2} s");
    assert!(stderr.contains("more than the budget of 1 s"), "{stderr}");
    for sig in ["-TERM", "-INT"] {
        let s = signal(
            sig,
            &[
                "rally",
                "--system",
                &file,
                "--exact-budget",
                "600",
                "--exact-only",
            ],
            &dir,
            Duration::from_millis(1500),
        );
        assert_stopped(&s);
        assert!(s.stdout.is_empty(), "printed: {}", s.stdout);
    }
}

/// A `pick` over 9,999 weights each turn, with a state of 400,000 values: the exact solve stops
/// at its budget and the table sampler's compilation at its own (10 s, refused once a quarter
/// of it is spent on a projection past it), and say so; played by dice, SIGTERM ends it within a
/// second.
#[test]
fn a_wide_pick_over_a_large_state_stops_on_its_budget_and_on_sigterm() {
    let dir = scratch("interrupt-pick");
    let text = example()
        .replacen(
            "        #{ name: \"lost\", min: 0, max: p.stands },\n",
            "        #{ name: \"lost\", min: 0, max: p.stands },\n        #{ name: \"x\", min: 0, max: 399999 },\n",
            1,
        )
        .replacen(
            "fn start(p) { #{ status: \"shaken\", lost: 0 } }",
            "fn start(p) { #{ status: \"shaken\", lost: 0, x: 0 } }",
            1,
        )
        .replacen(
            "fn rally_turn(p, s) {\n",
            "fn rally_turn(p, s) {\n    let w = [];\n    for i in 0..9999 { w.push(1 + i % 7); }\n    s.x = (s.x * 9999 + pick(w)) % 400000;\n",
            1,
        );
    std::fs::write(dir.join("pick.rhai"), text).unwrap();
    let (took, code, stderr) = timed(
        &["rally", "--system", "pick.rhai", "--exact-budget", "1"],
        &dir,
        Duration::from_secs(60),
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(took < 9.0, "took {took:.2} s");
    assert!(stderr.contains("--sampler dice"), "{stderr}");
    let s = signal(
        "-TERM",
        &[
            "rally",
            "--system",
            "pick.rhai",
            "--exact-budget",
            "1",
            "--sampler",
            "dice",
            "--trials",
            "100000000",
        ],
        &dir,
        Duration::from_millis(4000),
    );
    assert_stopped(&s);
}
