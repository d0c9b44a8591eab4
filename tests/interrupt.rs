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
