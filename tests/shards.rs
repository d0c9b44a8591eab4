//! Runs split across machines: `run --shard K/N` and `merge`.
//!
//! The experiment runs more than three chunks per run, so every one of three shards runs trials
//! of its own; merged, they give the single run's tables to the byte. Every kind of mismatch
//! between parts is refused with one line naming the file at fault, and nothing is written.

use std::path::{Path, PathBuf};

use morale_lab::engine::CHUNK;

use crate::common::bin;
use crate::reports::{SMALL, file_names, run_at, run_into, scratch};

/// Trials per run: three whole chunks and part of a fourth, so a three-way split gives every
/// shard at least one chunk (at the file's 20,000 trials, shards 1/3 and 2/3 ran nothing).
const TRIALS: u64 = 3 * CHUNK + 1_000;

/// The small experiment at [`TRIALS`] trials.
fn experiment() -> String {
    let text = SMALL.replace("trials = 20000", &format!("trials = {TRIALS}"));
    assert_ne!(text, SMALL, "SMALL names its trials");
    text
}

/// `run FILE --shard K/N --out OUT` with `extra` arguments, which must succeed.
fn shard(file: &Path, k_of_n: &str, out: &Path, extra: &[&str]) -> String {
    bin()
        .args(["run", file.to_str().unwrap(), "--shard", k_of_n])
        .args(["--out", out.to_str().unwrap(), "--quiet", "--threads", "1"])
        .args(extra)
        .assert()
        .success();
    out.to_str().unwrap().to_string()
}

/// Shards 1/3, 2/3 and 3/3 of `file`, written as `{name}{k}.json` in `dir`.
fn thirds(file: &Path, dir: &Path, name: &str) -> Vec<String> {
    (1..=3)
        .map(|k| {
            let out = dir.join(format!("{name}{k}.json"));
            shard(file, &format!("{k}/3"), &out, &[])
        })
        .collect()
}

/// `merge PARTS --out OUT`, which must succeed.
fn merge(parts: &[String], out: &Path) {
    bin()
        .arg("merge")
        .args(parts)
        .args(["--out", out.to_str().unwrap(), "--quiet"])
        .assert()
        .success();
}

/// A shard file's JSON.
fn read_json(path: &str) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Write `value` as the shard file `name` in `dir`.
fn write_json(dir: &Path, name: &str, value: &serde_json::Value) -> String {
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(value).unwrap()).unwrap();
    path.to_str().unwrap().to_string()
}

/// The sum of every counter of every run of a shard.
fn counted(part: &serde_json::Value) -> u64 {
    part["tallies"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t.as_array().unwrap())
        .map(|x| x.as_u64().unwrap())
        .sum()
}

/// Three shards, each running trials of its own, merged give the single run's report to the
/// byte — tables, charts, `results.json`, `summary.md` and `index.html` with the recorded
/// command and thread count — all but `timing.json`, which sums the shards' times and says so.
/// Mutation tried: every shard running chunk 0's dice (`chunk_range` returning `0..1` for every
/// shard) makes this test fail, as does a shard that runs nothing; so do a merge that records
/// its own command (`merge ...`) or `--out` in the single run's, and a merge's timing left at 0.
#[test]
fn three_shards_that_each_run_trials_merge_to_the_single_run() {
    let dir = scratch("shards");
    let file = dir.join("small.toml");
    std::fs::write(&file, experiment()).unwrap();
    let single = dir.join("single");
    // The shards run on one thread each: so does the single run, to record the same count.
    run_at(&file, &single, 1);
    let parts = thirds(&file, &dir, "part");
    // Each shard ran trials, and different ones.
    let jsons: Vec<serde_json::Value> = parts.iter().map(|p| read_json(p)).collect();
    for (k, j) in jsons.iter().enumerate() {
        assert!(counted(j) > 0, "shard {} ran no trial", k + 1);
    }
    assert_ne!(jsons[0]["tallies"], jsons[1]["tallies"]);
    assert_ne!(jsons[1]["tallies"], jsons[2]["tallies"]);
    let merged = dir.join("merged");
    merge(&parts, &merged);
    let names = file_names(&single);
    assert!(names.len() > 10);
    assert_eq!(file_names(&merged), names);
    for n in names.iter().filter(|n| *n != "timing.json") {
        let (a, b) = (
            std::fs::read(single.join(n)).unwrap(),
            std::fs::read(merged.join(n)).unwrap(),
        );
        assert!(a == b, "{n} differs");
    }
    // timing.json: each run's time is the sum of the shards' (not 0), and says so.
    let timing = |dir: &Path| -> Vec<serde_json::Value> {
        serde_json::from_slice(&std::fs::read(dir.join("timing.json")).unwrap()).unwrap()
    };
    let (one, sum) = (timing(&single), timing(&merged));
    assert_eq!(one.len(), sum.len());
    for (r, t) in sum.iter().enumerate() {
        let spent: f64 = jsons
            .iter()
            .map(|j| j["elapsed_s"][r].as_f64().unwrap())
            .sum();
        assert!(spent > 0.0, "run {r}: the shards recorded no time");
        // (added in the merge's order: equal to the last bits or so)
        let elapsed = t["elapsed_s"].as_f64().unwrap();
        assert!(
            (elapsed - spent).abs() <= 1e-12 * spent,
            "run {r}: {elapsed} against {spent}"
        );
        assert_eq!(t["elapsed_is"], "the sum of 3 shards' times", "run {r}");
        let rate = t["trials_per_s"].as_f64().unwrap();
        assert!(
            (rate - TRIALS as f64 / spent).abs() <= 1e-9 * rate,
            "run {r}: {rate}"
        );
        assert!(
            one[r].get("elapsed_is").is_none(),
            "a single run's time is its own"
        );
    }
    // The split's total is the single run's: the results say the same trial count.
    let csv = String::from_utf8(std::fs::read(merged.join("results.csv")).unwrap()).unwrap();
    assert!(csv.contains(&TRIALS.to_string()), "{csv}");
}

/// A part cut short (a task stopped while copying it, a full disk) is refused with its name and
/// exit 2, as is a merge with parts missing, which names every missing index and how to run it
/// again; every shard given twice is named. Nothing is written.
#[test]
fn missing_cut_short_and_twice_given_parts_are_each_named() {
    let dir = scratch("shards-missing");
    let file = dir.join("small.toml");
    std::fs::write(&file, experiment()).unwrap();
    let p = thirds(&file, &dir, "part");
    // Cut short at several places: inside the text, inside the tallies, before the last brace.
    let whole = std::fs::read(&p[1]).unwrap();
    for cut in [10, whole.len() / 2, whole.len() - 2] {
        let name = dir.join(format!("cut{cut}.json"));
        std::fs::write(&name, &whole[..cut]).unwrap();
        let name = name.to_str().unwrap();
        refused(&dir, &[&p[0], name, &p[2]], &[name, "is not a shard file"]);
    }
    // One missing: its index, the flag that runs it again, and the Slurm array index.
    refused(
        &dir,
        &[&p[0], &p[2]],
        &[
            "shard 2/3 is missing",
            "with `--shard 2/3`",
            "`sbatch --array=2`",
        ],
    );
    // Two missing: both.
    refused(
        &dir,
        &[&p[1]],
        &[
            "shards 1/3, 3/3 are missing",
            "for K = 1, 3",
            "`sbatch --array=1,3`",
        ],
    );
    // Two given twice: both, with their files.
    refused(
        &dir,
        &[&p[0], &p[1], &p[0], &p[2], &p[1]],
        &[
            "shards given twice: ",
            &format!("1/3 ({} and {})", p[0], p[0]),
            &format!("2/3 ({} and {})", p[1], p[1]),
        ],
    );
}

/// The parts as `&str`s.
fn as_refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// `merge PARTS` must fail with exit code 2, one line on standard error that contains every
/// one of `must`, and no output folder.
fn refused(dir: &Path, parts: &[&str], must: &[&str]) {
    let out = dir.join("bad");
    let o = bin()
        .arg("merge")
        .args(parts)
        .args(["--out", out.to_str().unwrap()])
        .assert()
        .code(2);
    let err = String::from_utf8(o.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    for m in must {
        assert!(err.contains(m), "{m:?} not in: {err}");
    }
    assert!(!out.exists(), "a refused merge wrote {}", out.display());
}

/// Every kind of mismatch between parts is refused, naming the file at fault. Each part at
/// fault differs from the good ones in that one thing only, so each check is the one that
/// fires (mutations tried: each comparison in `shard::merge` removed in turn, and the per-part
/// trial count check removed, each makes this test fail).
#[test]
fn merges_of_parts_that_do_not_belong_together_are_refused_naming_the_file() {
    let dir = scratch("shards-bad");
    let file = dir.join("small.toml");
    std::fs::write(&file, experiment()).unwrap();
    let p = thirds(&file, &dir, "part");
    let good = |third: &str| vec![p[0].clone(), p[1].clone(), third.to_string()];

    // Another seed, from the same file (`--seed`): only the seed differs.
    let seed = shard(&file, "3/3", &dir.join("seed8.json"), &["--seed", "8"]);
    refused(&dir, &as_refs(&good(&seed)), &[&seed, "seed 8 against 7"]);
    // Other trials.
    let trials = shard(
        &file,
        "3/3",
        &dir.join("trials.json"),
        &["--trials", "300000"],
    );
    refused(
        &dir,
        &as_refs(&good(&trials)),
        &[&trials, &format!("trials 300000 against {TRIALS}")],
    );
    // The other sampler.
    let sampler = shard(&file, "3/3", &dir.join("dice.json"), &["--sampler", "dice"]);
    refused(
        &dir,
        &as_refs(&good(&sampler)),
        &[&sampler, "sampler dice against table"],
    );
    // Another split: the third of four parts.
    let split = shard(&file, "3/4", &dir.join("split.json"), &[]);
    refused(
        &dir,
        &as_refs(&good(&split)),
        &[&split, "a split into 4 parts against 3"],
    );
    // Another experiment file (another text).
    let other = dir.join("other.toml");
    std::fs::write(
        &other,
        experiment().replace("name = \"led\"", "name = \"lead\""),
    )
    .unwrap();
    let text = shard(&other, "3/3", &dir.join("other3.json"), &[]);
    refused(
        &dir,
        &as_refs(&good(&text)),
        &[&text, "experiment", "not parts of the same run"],
    );
    // The same text under another path, and another text under the same path (each alone:
    // a surviving mutant showed that the two together did not test either).
    let copy = dir.join("copy.toml");
    std::fs::write(&copy, experiment()).unwrap();
    let moved = shard(&copy, "3/3", &dir.join("moved.json"), &[]);
    refused(
        &dir,
        &as_refs(&good(&moved)),
        &[&moved, "copy.toml against"],
    );
    let mut j = read_json(&p[2]);
    j["source"] = format!("{}\n# edited\n", j["source"].as_str().unwrap()).into();
    let edited = write_json(&dir, "edited.json", &j);
    refused(
        &dir,
        &as_refs(&good(&edited)),
        &[&edited, "(or its text differs)"],
    );
    // Another version of the tool.
    let mut j = read_json(&p[2]);
    j["version"] = "0.0.1-old".into();
    let version = write_json(&dir, "version.json", &j);
    refused(
        &dir,
        &as_refs(&good(&version)),
        &[&version, "version 0.0.1-old against"],
    );
    // All parts of another version: refused, naming both versions.
    let mut olds = Vec::new();
    for (k, part) in p.iter().enumerate() {
        let mut j = read_json(part);
        j["version"] = "0.0.1-old".into();
        olds.push(write_json(&dir, &format!("old{k}.json"), &j));
    }
    refused(
        &dir,
        &as_refs(&olds),
        &["made by morale-lab 0.0.1-old", env!("CARGO_PKG_VERSION")],
    );
    // Duplicate and missing shards.
    refused(
        &dir,
        &[&p[0], &p[0], &p[2]],
        &["shard given twice: 1/3", &p[0]],
    );
    refused(&dir, &[&p[0], &p[1]], &["shard 3/3 is missing"]);
    refused(&dir, &[&p[1]], &["shards 1/3, 3/3 are missing"]);
    // Damaged counts: one run's counters doubled (the shape still fits, the total does not).
    let mut j = read_json(&p[1]);
    let doubled: Vec<u64> = j["tallies"][2]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| 2 * x.as_u64().unwrap())
        .collect();
    j["tallies"][2] = doubled.into();
    let damaged = write_json(&dir, "damaged.json", &j);
    refused(
        &dir,
        &[&p[0], &damaged, &p[2]],
        &[&damaged, "run 3 counts", "damaged or edited"],
    );
    // A counter removed (another shape), and a run missing.
    let mut j = read_json(&p[1]);
    j["tallies"][0].as_array_mut().unwrap().pop();
    let shape = write_json(&dir, "shape.json", &j);
    refused(&dir, &[&p[0], &shape, &p[2]], &[&shape, "run 1"]);
    let mut j = read_json(&p[1]);
    j["tallies"].as_array_mut().unwrap().pop();
    let short = write_json(&dir, "short.json", &j);
    refused(
        &dir,
        &[&p[0], &short, &p[2]],
        &[&short, "has no tally for run"],
    );
    // A part that calls itself shard 0 or shard 4 of 3.
    for k in [0, 4] {
        let mut j = read_json(&p[2]);
        j["shard"] = k.into();
        let bad = write_json(&dir, &format!("shard{k}.json"), &j);
        refused(
            &dir,
            &as_refs(&good(&bad)),
            &[&bad, &format!("says shard {k} of 3")],
        );
    }
    // Not a shard file at all.
    std::fs::write(dir.join("junk.json"), "{}").unwrap();
    let junk = dir.join("junk.json");
    refused(
        &dir,
        &[junk.to_str().unwrap()],
        &["junk.json", "not a shard file"],
    );
    // And the good parts still merge, in any order.
    bin()
        .arg("merge")
        .args([&p[2], &p[0], &p[1]])
        .args(["--out", dir.join("ok").to_str().unwrap()])
        .assert()
        .success();
}

/// Shards of an experiment whose variant stands on a rule-set file that stands on another
/// (`rules_file` with a file `base`): each shard records both files, the merge reads them from
/// the shards (not the disk, where they have since changed) and gives the single run's tables.
#[test]
fn shards_carry_their_rule_set_chain() {
    let dir = scratch("shards-rules");
    std::fs::write(
        dir.join("base.toml"),
        "name = \"base\"\nbase = \"rank-and-file\"\n[rules]\nbase_green = 6\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("child.toml"),
        "name = \"child\"\nbase = \"base.toml\"\n[rules]\nrally_loss = 2\n",
    )
    .unwrap();
    let text = experiment().replace(
        "name = \"led\"\nsystem = \"rank-and-file\"\n",
        "name = \"led\"\nsystem = \"rank-and-file\"\nrules_file = \"child.toml\"\n",
    );
    assert!(text.contains("rules_file"));
    let file = dir.join("ruled.toml");
    std::fs::write(&file, &text).unwrap();
    let single = dir.join("single");
    run_into(&file, &single);
    let parts = thirds(&file, &dir, "r");
    let files = read_json(&parts[0])["rule_files"].clone();
    let names: Vec<&str> = files
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f[0].as_str().unwrap())
        .collect();
    assert!(
        names.iter().any(|n| n.ends_with("child.toml"))
            && names.iter().any(|n| n.ends_with("base.toml")),
        "{names:?}"
    );
    // The files change on the disk after the shards ran: the merge uses the recorded ones.
    std::fs::write(
        dir.join("base.toml"),
        "name = \"base\"\nbase = \"rank-and-file\"\n[rules]\nbase_green = 3\n",
    )
    .unwrap();
    let merged = dir.join("merged");
    merge(&parts, &merged);
    for n in ["results.csv", "comparisons.csv", "per_turn.csv"] {
        assert!(
            std::fs::read(single.join(n)).unwrap() == std::fs::read(merged.join(n)).unwrap(),
            "{n} differs"
        );
    }
    // The merge did not read the disk: run again now, the changed base gives other numbers.
    let now = dir.join("now");
    run_into(&file, &now);
    assert!(
        std::fs::read(now.join("results.csv")).unwrap()
            != std::fs::read(merged.join("results.csv")).unwrap(),
        "the changed base file moved no number: the test proves nothing"
    );
}
