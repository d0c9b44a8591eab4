//! Experiments end to end: files written, parseable, agreeing with the library, reproducible to
//! the byte; bad files leave nothing behind.

use std::path::{Path, PathBuf};

use morale_lab::RunOptions;
use morale_lab::Sampler;
use morale_lab::engine::{Control, RunSpec};
use morale_lab::experiment::Experiment;
use morale_lab::system;

use crate::common::bin;

pub(crate) const SMALL: &str = r#"
name = "small"
question = "Does a leader help a routing unit rally?"
scenario = "rally"
seed = 7
trials = 20000
set = { stands = 8, state = "routing", turns = 5 }

[[variant]]
name = "plain"
system = "rank-and-file"

[[variant]]
name = "led"
system = "rank-and-file"
set = { leader = 1 }

[sweep]
x = { key = "lost", values = [0, 2] }
y = { key = "class", values = ["veteran", "green"] }
"#;

/// A fresh directory under the system's temporary directory for one test, removed when the
/// test is done with it (also when it fails), so test runs leave nothing behind.
pub(crate) struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub(crate) fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("morale-lab-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

pub(crate) fn run_into(file: &Path, out: &Path) {
    run_at(file, out, 2);
}

/// `morale-lab run FILE --out OUT --quiet --threads N`, which must succeed.
pub(crate) fn run_at(file: &Path, out: &Path, threads: usize) {
    bin()
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--quiet", "--threads", &threads.to_string()])
        .assert()
        .success();
}

/// The names of the files in `dir`, sorted.
pub(crate) fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn small_experiment_end_to_end() {
    let dir = scratch("e2e");
    let file = dir.join("small.toml");
    std::fs::write(&file, SMALL).unwrap();
    let out = dir.join("out");
    run_into(&file, &out);
    for f in [
        "summary.md",
        "results.csv",
        "comparisons.csv",
        "per_turn.csv",
        "results.json",
        "timing.json",
        "outcomes_lost-0-class-veteran.png",
        "outcomes_lost-2-class-green.svg",
        "sweep.png",
        "sweep.svg",
        "heatmap_plain.png",
        "heatmap_led.svg",
        "per_turn_plain_lost-0-class-veteran.png",
        "per_turn_led_lost-2-class-green.svg",
    ] {
        assert!(out.join(f).is_file(), "missing {f}");
    }
    // A sweep's outcome and per-turn charts cover every swept setting, each titled with it.
    for point in [
        "lost-0-class-veteran",
        "lost-0-class-green",
        "lost-2-class-veteran",
        "lost-2-class-green",
    ] {
        let svg = std::fs::read_to_string(out.join(format!("per_turn_led_{point}.svg"))).unwrap();
        let (lost, class) = (&point[5..6], &point[13..]);
        let class = format!("{}{}", class[..1].to_uppercase(), &class[1..]);
        let title = format!("(at already lost {lost}, {class} troops)");
        assert!(
            svg.contains(&title),
            "per_turn_led_{point}.svg is not titled {title}"
        );
    }
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("Does a leader help")
            && summary.contains("**Answer.**")
            && summary.contains("morale-lab run")
    );
    // results.json parses and records what is needed to run it again.
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(v["seed"], 7);
    assert_eq!(v["trials"], 20000);
    assert_eq!(v["experiment"]["variants"][1]["name"], "led");
    assert_eq!(v["runs"].as_array().unwrap().len(), 8);
    // Its numbers are the library's: run 5 (point 2 = lost 2, veteran; variant led) again.
    let exp = Experiment::parse("small.toml", SMALL).unwrap();
    let point = &exp.points()[2];
    let job = system::build(
        "rank-and-file",
        morale_lab::Scenario::Rally,
        &exp.inputs(&exp.variants[1], point),
        &[],
    )
    .unwrap();
    let spec = RunSpec {
        trials: 20000,
        seed: 7,
        stream: 5,
        threads: Some(1),
    };
    let report = job
        .run(
            &RunOptions {
                spec,
                confidence: 0.95,
                exact_only: false,
                sampler: Sampler::Table,
                precision: None,
                exact_budget: None,
                exact_work: None,
            },
            &Control::new(),
        )
        .unwrap();
    let run5 = &v["runs"][5]["report"];
    assert_eq!(run5["params"]["lost"], 2);
    assert_eq!(run5["params"]["class"], "veteran");
    assert_eq!(run5["params"]["leader"], 1);
    for (o, mine) in run5["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&report.outcomes)
    {
        assert_eq!(o["count"].as_u64(), mine.cell.count);
        assert_eq!(o["exact"].as_f64(), mine.cell.exact);
    }
    // The CSVs parse, with one column per swept key.
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv.starts_with("lost,class,variant,system,section,name,turn,count,estimate"));
    assert!(csv.lines().next().unwrap().ends_with(",exact,among"));
    assert!(csv.contains(",metric,turns_to_recover,") && csv.contains(",units that recovered\n"));
    let cmp = std::fs::read_to_string(out.join("comparisons.csv")).unwrap();
    assert!(cmp.lines().count() > 4 && cmp.contains(",led,plain,outcome,recovered,"));
    // Charts: the right width and not blank.
    for png in [
        "outcomes_lost-0-class-veteran.png",
        "sweep.png",
        "heatmap_plain.png",
        "per_turn_led_lost-2-class-green.png",
    ] {
        let img = image::open(out.join(png)).unwrap().to_rgb8();
        // 960 px wide, as high as the drawing: taller where the legend and caption need it,
        // shorter with neither (no blank strip under it).
        let (w, h) = img.dimensions();
        assert!(w == 960 && (450..1400).contains(&h), "{png}: {w}×{h}");
        let mut colours: Vec<[u8; 3]> = img.pixels().map(|p| p.0).collect();
        colours.sort();
        colours.dedup();
        assert!(
            colours.len() > 20,
            "{png} has only {} colours",
            colours.len()
        );
        let dark = img.pixels().filter(|p| p.0.iter().all(|&c| c < 80)).count();
        assert!(
            dark > 500,
            "{png} has no text or lines ({dark} dark pixels)"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_experiment_twice_is_the_same_to_the_byte() {
    let dir = scratch("twice");
    let file = dir.join("small.toml");
    std::fs::write(&file, SMALL).unwrap();
    // The same command twice (at 2 threads, then 1): the first result is moved aside.
    let (a, b) = (dir.join("first"), dir.join("out"));
    run_into(&file, &b);
    std::fs::rename(&b, &a).unwrap();
    run_at(&file, &b, 1);
    let names = file_names(&a);
    assert!(names.len() > 10);
    for n in names.iter().filter(|n| {
        !["timing.json", "results.json", "summary.md", "index.html"].contains(&n.as_str())
    }) {
        assert!(
            std::fs::read(a.join(n)).unwrap() == std::fs::read(b.join(n)).unwrap(),
            "{n} differs"
        );
    }
    // results.json, summary.md and index.html differ only in the thread count they record.
    for n in ["results.json", "summary.md", "index.html"] {
        let x = String::from_utf8(std::fs::read(a.join(n)).unwrap()).unwrap();
        let y = String::from_utf8(std::fs::read(b.join(n)).unwrap()).unwrap();
        let norm = |s: &str| {
            s.replace("\"threads\": 2", "\"threads\": 1")
                .replace("2 threads", "1 thread")
                .replace("<td>2 (results", "<td>1 (results")
        };
        assert!(norm(&x) == norm(&y), "{n} differs beyond the thread count");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn rejects_file(name: &str, text: &str, must_say: &[&str]) {
    let dir = scratch(name);
    let file = dir.join(format!("{name}.toml"));
    std::fs::write(&file, text).unwrap();
    let out = dir.join("out");
    let o = bin()
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(o.stderr).unwrap();
    for s in must_say {
        assert!(err.contains(s), "{name}: {err:?} does not say {s:?}");
    }
    assert!(!out.exists(), "{name}: an output folder was left behind");
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{name}: left {leftovers:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_experiments_name_file_line_and_key() {
    let base = "name = \"x\"\nquestion = \"q\"\nscenario = \"rally\"\ntrials = 1000\n";
    rejects_file("syntax", "name = \"x\n", &["syntax.toml:1"]);
    rejects_file(
        "unknown-top",
        &format!("{base}colour = 3\n"),
        &["unknown-top.toml:5", "colour"],
    );
    rejects_file("no-variant", base, &["no-variant.toml", "variant"]);
    rejects_file(
        "bad-option",
        &format!(
            "{base}[[variant]]\nname = \"a\"\nsystem = \"rank-and-file\"\noptions = [\"iron-men\"]\n"
        ),
        &[
            "bad-option.toml:8",
            "options",
            "iron-men",
            "keep-broken-units",
        ],
    );
    rejects_file(
        "bad-value",
        &format!(
            "{base}[[variant]]\nname = \"a\"\nsystem = \"rank-and-file\"\nset = {{ stands = 99 }}\n"
        ),
        &["bad-value.toml:8", "set.stands", "1 to 40"],
    );
    rejects_file(
        "bad-key",
        &format!(
            "{base}[[variant]]\nname = \"a\"\nsystem = \"rank-and-file\"\nset = {{ morale = 3 }}\n"
        ),
        &["bad-key.toml:8", "morale", "allowed keys"],
    );
    rejects_file(
        "bad-system",
        &format!("{base}[[variant]]\nname = \"a\"\nsystem = \"warhammer\"\n"),
        &["bad-system.toml:7", "system", "rank-and-file"],
    );
    rejects_file(
        "bad-sweep",
        &format!(
            "{base}[[variant]]\nname = \"a\"\nsystem = \"rank-and-file\"\n[sweep]\nx = {{ key = \"lost\", values = [0, 50] }}\n"
        ),
        &["bad-sweep.toml:9", "sweep.lost", "0 to 39"],
    );
    rejects_file(
        "bad-scenario",
        "name = \"x\"\nquestion = \"q\"\nscenario = \"siege\"\n",
        &["bad-scenario.toml:3", "scenario", "rally"],
    );
    rejects_file(
        "bad-trials",
        &format!("{base}trials = 0\n"),
        &["bad-trials.toml"],
    );
    rejects_file("empty", "", &["empty.toml", "name"]);
}

/// `run` replaces its own report of the same experiment without `--force` (the edit loop), and
/// refuses any other existing output without it, saying why and touching nothing: a folder with
/// a file a report does not have, another experiment's report, a folder that is no report.
#[test]
fn existing_output_needs_force_unless_it_is_the_experiments_own_report() {
    let dir = scratch("force");
    let file = dir.join("small.toml");
    std::fs::write(&file, SMALL.replace("trials = 20000", "trials = 2000")).unwrap();
    let out = dir.join("out");
    run_into(&file, &out);
    let run = |file: &Path, out: &Path, force: bool| {
        let mut cmd = bin();
        cmd.args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ]);
        if force {
            cmd.arg("--force");
        }
        let o = cmd.output().unwrap();
        (o.status.code(), String::from_utf8(o.stderr).unwrap())
    };
    // The experiment edited and run again into its own report: replaced, no --force needed.
    std::fs::write(&file, SMALL.replace("trials = 20000", "trials = 3000")).unwrap();
    assert_eq!(run(&file, &out, false), (Some(0), String::new()));
    let results = std::fs::read_to_string(out.join("results.json")).unwrap();
    assert!(results.contains("\"trials\": 3000"), "not replaced");
    // A file of the user's in it: refused, naming it, and the folder left as it was.
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let (code, err) = run(&file, &out, false);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("holds notes.txt") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    std::fs::remove_file(out.join("notes.txt")).unwrap();
    // Another experiment's report: refused, naming it.
    let other = dir.join("other.toml");
    std::fs::write(
        &other,
        SMALL.replace("name = \"small\"", "name = \"other\""),
    )
    .unwrap();
    let (code, err) = run(&other, &out, false);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("another experiment, 'small'"), "{err}");
    // A folder that is no report (empty), and a file: refused.
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (code, err) = run(&file, &empty, false);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("has no results.json"), "{err}");
    let plain = dir.join("plain.txt");
    std::fs::write(&plain, "x").unwrap();
    let (code, err) = run(&file, &plain, false);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("that file exists"), "{err}");
    // With --force, any of them is replaced.
    assert_eq!(run(&other, &out, true).0, Some(0));
    assert!(out.join("summary.md").is_file());
    let o = bin()
        .args(["run", dir.to_str().unwrap(), "--quiet"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert!(String::from_utf8(o.stderr).unwrap().contains("is a folder"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shipped_experiments_parse() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            let text = std::fs::read_to_string(&p).unwrap();
            // Rule-set files (`rules_file`) are read from the disk, as the command line does.
            Experiment::parse_with(&p.display().to_string(), &text, &mut |f| {
                std::fs::read_to_string(f).map_err(|e| {
                    morale_lab::error::Error::Conflict(format!("cannot read {f}: {e}"))
                })
            })
            .unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
    }
    assert!(n >= 5);
    // And the shipped rule sets, each a change from the source.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut sets = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        let set = morale_lab::ruleset::RuleSet::parse(&p.display().to_string(), &text, &mut |f| {
            std::fs::read_to_string(f)
                .map_err(|e| morale_lab::error::Error::Conflict(format!("cannot read {f}: {e}")))
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            !set.rules.is_empty() && !set.description.is_empty(),
            "{}",
            p.display()
        );
        sets += 1;
    }
    assert!(sets >= 2);
}

/// With the `parquet` feature, `results.parquet` holds the same table as `results.csv`.
#[cfg(feature = "parquet")]
#[test]
fn results_parquet_is_results_csv() {
    use polars::prelude::{ParquetReader, SerReader};
    let dir = scratch("parquet");
    let file = dir.join("small.toml");
    std::fs::write(&file, SMALL).unwrap();
    let out = dir.join("out");
    run_into(&file, &out);
    let df = ParquetReader::new(std::fs::File::open(out.join("results.parquet")).unwrap())
        .finish()
        .unwrap();
    let mut csv = csv::Reader::from_path(out.join("results.csv")).unwrap();
    let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|n| n.to_string())
        .collect();
    assert_eq!(names, header);
    let records: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
    assert_eq!(df.height(), records.len());
    assert!(df.height() > 100);
    let variant = df.column("variant").unwrap().str().unwrap().clone();
    let turn = df.column("turn").unwrap().u32().unwrap().clone();
    let count = df.column("count").unwrap().u64().unwrap().clone();
    let estimate = df.column("estimate").unwrap().f64().unwrap().clone();
    let exact = df.column("exact").unwrap().f64().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let parse = |s: &str| (!s.is_empty()).then(|| s.parse::<f64>().unwrap());
    for (i, r) in records.iter().enumerate() {
        assert_eq!(variant.get(i), Some(&r[col("variant")]));
        assert_eq!(
            turn.get(i),
            (!r[col("turn")].is_empty()).then(|| r[col("turn")].parse().unwrap())
        );
        assert_eq!(
            count.get(i),
            (!r[col("count")].is_empty()).then(|| r[col("count")].parse().unwrap())
        );
        // CSV writes the shortest text that reads back to the same f64.
        assert_eq!(estimate.get(i), parse(&r[col("estimate")]), "row {i}");
        assert_eq!(exact.get(i), parse(&r[col("exact")]), "row {i}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Numbers do not move by accident: every experiment in `experiments/`, run again as the
/// README regenerates them (from the repository's root, `run experiments/NAME.toml`, at the
/// thread count the committed files record), makes every file of its committed report in
/// `reports/` to the byte — tables, answers, pages and every chart — except `timing.json`
/// (elapsed time) and `results.parquet` (written only with the `parquet` feature; its
/// contents are tested against `results.csv` apart). A change that moves a number fails here
/// until the reports are regenerated (and the README's answers rewritten from them).
/// (Mutation tried: the Green base number 5 → 6 in the rules table fails it, naming
/// `green-rally-number`, `leaders-and-rerolls` and the others that use it.)
#[test]
fn the_committed_reports_are_what_the_code_makes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = scratch("committed");
    for sub in ["experiments", "rulesets", "mechanics"] {
        copy_dir(&root.join(sub), &dir.join(sub));
    }
    let mut experiments: Vec<String> = file_names(&root.join("experiments"))
        .into_iter()
        .filter(|n| n.ends_with(".toml"))
        .collect();
    experiments.sort();
    assert!(experiments.len() >= 10, "experiments: {experiments:?}");
    let mut moved = Vec::new();
    for file in &experiments {
        let name = file.trim_end_matches(".toml");
        let committed = root.join("reports").join(name);
        assert!(
            committed.is_dir(),
            "experiments/{file} has no committed report"
        );
        let threads = recorded_threads(&committed);
        bin()
            .current_dir(&dir)
            .args(["run", &format!("experiments/{file}"), "--quiet"])
            .args(["--threads", &threads.to_string()])
            .assert()
            .success();
        let fresh = dir.join("reports").join(name);
        let skip = |n: &str| n == "timing.json" || n == "results.parquet";
        let listed =
            |d: &Path| -> Vec<String> { file_names(d).into_iter().filter(|n| !skip(n)).collect() };
        assert_eq!(
            listed(&fresh),
            listed(&committed),
            "reports/{name}: the files made are not the files committed"
        );
        for n in listed(&committed) {
            if std::fs::read(committed.join(&n)).unwrap() != std::fs::read(fresh.join(&n)).unwrap()
            {
                moved.push(format!("reports/{name}/{n}"));
            }
        }
    }
    assert!(
        moved.is_empty(),
        "these committed files are not what the code makes now (regenerate with `cargo run --release --features parquet -- run experiments/*.toml --force` and rewrite the README's answers): {moved:?}"
    );
}

/// The thread count a committed report's `results.json` records.
fn recorded_threads(report: &Path) -> u64 {
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(report.join("results.json")).unwrap()).unwrap();
    json["threads"]
        .as_u64()
        .expect("results.json records its threads")
}

/// Copy the files of `from`, and its folders', into a new folder `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for n in file_names(from) {
        let src = from.join(&n);
        if src.is_file() {
            std::fs::copy(&src, to.join(&n)).unwrap();
        } else if src.is_dir() {
            copy_dir(&src, &to.join(&n));
        }
    }
}

/// A sweep over a rule reads along the rule ("at the other values … tried"): every value against the source's, and the value
/// that meets the question's target named (issue 32's "how we will know").
#[test]
fn a_rule_sweep_answers_along_the_rule_and_names_the_match() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let summary =
        std::fs::read_to_string(root.join("reports/green-rally-number/summary.md")).unwrap();
    let answer = summary
        .lines()
        .find(|l| l.starts_with("**Answer.**"))
        .unwrap();
    assert!(
        answer.contains(
            "At the other values tried, the chance of recovering under Green is 74.39% at 4"
        ) && !answer.contains("the rules give 5") && answer.contains("74.39% at 4, 55.65% at 5 (the rules' own number) and 42.80% at 6.")
            && answer.contains("With the Green base number at 3, Green matches Regular with a +1 leader exactly: the chance of recovering is 90.15% under both."),
        "{answer}"
    );
    // The Regular base number moves the mark Green is held to, not Green: said in the mark's
    // new value and the Green number that meets it, not as a truism about Green's difference
    // (writer trial 48). A Regular needing 5 − 1 = 4 takes Green's test at 4: 74.39% both.
    assert!(
        answer.contains("The answer depends on the Regular base number being 4: at 5, Green with its base number at 4 would match Regular with a +1 leader (74.39%);"),
        "{answer}"
    );
    // No chart of the sweep shows one setting under a title that does not name it.
    for name in file_names(&root.join("reports/green-rally-number")) {
        if let Some(stem) = name.strip_suffix(".svg")
            && (stem.starts_with("outcomes") || stem.starts_with("per_turn"))
        {
            let svg = std::fs::read_to_string(root.join("reports/green-rally-number").join(&name))
                .unwrap();
            let title = svg
                .split("<title>")
                .nth(1)
                .unwrap()
                .split("</title>")
                .next()
                .unwrap();
            // The baseline, which the sweep does not touch, has one turn-by-turn chart for
            // every setting, and its title names none.
            if stem == "per_turn_regular-with-a-1-leader"
                || stem == "per_turn_regular-without-a-leader"
            {
                assert!(!title.contains("(at "), "{name}: {title}");
                continue;
            }
            assert!(title.contains("(at Green base number "), "{name}: {title}");
        }
    }
    let names = file_names(&root.join("reports/green-rally-number"));
    assert!(names.contains(&"per_turn_regular-with-a-1-leader.svg".to_string()));
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("per_turn_regular-with-a-1-leader_")),
        "{names:?}"
    );
}

/// Variants of different systems: the report says which outcomes are matched and how, and an
/// outcome with no counterpart (the 25% rules' retreating) is never compared.
#[test]
fn systems_are_compared_only_where_their_outcomes_match() {
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let root = reports.join("retreat-vs-rank-and-file");
    let summary = std::fs::read_to_string(root.join("summary.md")).unwrap();
    assert!(summary.contains("## Which ends are compared across rule systems"));
    assert!(summary.contains(
        "| Rank & File | retreating | — | no counterpart in Rank & File: not compared |"
    ));
    assert!(summary.contains(
        "are not compared (under Rank & File, in good order, unsteady and routing; under the plain 25% rules, still in the line and retreating)"
    ));
    let comparisons = std::fs::read_to_string(root.join("comparisons.csv")).unwrap();
    let across: Vec<&str> = comparisons
        .lines()
        .filter(|l| l.starts_with("Rank & File,"))
        .collect();
    assert!(across.iter().any(|l| l.contains(",outcome,removed,")));
    assert!(
        !across
            .iter()
            .any(|l| l.contains(",retreating,") || l.contains(",unsteady,"))
    );
    // One system throughout: no such section.
    let one = std::fs::read_to_string(reports.join("green-rally-number/summary.md")).unwrap();
    assert!(!one.contains("Which ends are compared across rule systems"));
}

/// A question asked within each system (`against`): each better unit is measured against
/// the average pair of its own system, so no comparison crosses systems, and the answer gives
/// each system's gain: none as written under Rank & File and the 25% rules, +24.2 and +15.9
/// points with the edge the experiment gives, +24.7 for Linear Warfare's guards.
#[test]
fn each_system_is_measured_against_its_own_baseline() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/value-of-quality");
    let summary = std::fs::read_to_string(root.join("summary.md")).unwrap();
    assert!(!summary.contains("Which ends are compared across rule systems"));
    for said in [
        // As written, class is worth nothing in these two systems' melees; the edge is said.
        "Rank & File, Veteran as written v Regular: 48.84% (the same)",
        "Rank & File, Veteran (+1 to hit) v Regular: 73.08% (+24.25 percentage points)",
        "25% rules, Elite as written v Regular: 49.32% (the same)",
        "25% rules, Elite (5 dice) v Regular: 65.23% (+15.91 points)",
        "with Linear Warfare, Guards v Line, 59.00% (+24.72 points)",
        "|  | attacker wins | defender wins |",
        "| Rank & File, Veteran (+1 to hit) v Regular | 73.08% (+24.25 points) | 23.21% (−25.62 points) |",
    ] {
        assert!(summary.contains(said), "{said}");
    }
    let comparisons = std::fs::read_to_string(root.join("comparisons.csv")).unwrap();
    let pairs: Vec<(String, String)> = comparisons
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split("\",\"").collect();
            (
                f[0].trim_start_matches('"').to_string(),
                f[1].split('"').next().unwrap().to_string(),
            )
        })
        .collect();
    assert!(!pairs.is_empty());
    for (variant, baseline) in &pairs {
        let system = |n: &str| n.split(',').next().unwrap().to_string();
        assert_eq!(
            system(variant),
            system(baseline),
            "{variant} against {baseline}"
        );
        assert!(!baseline.ends_with("v regular") || baseline.contains("regular v regular"));
    }
}

/// Variants side by side: a verdict of a sentence, then the headline table (each variant's
/// headline with its interval and its difference from the baseline), then the detail.
#[test]
fn variants_get_a_verdict_and_a_headline_table_before_the_detail() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/retreat-vs-rank-and-file");
    let summary = std::fs::read_to_string(root.join("summary.md")).unwrap();
    // The question asks whether the amendment does better (`verdict = true`): a plain word
    // first, then the lead.
    // What the amendment does comes first in a few words, the numbers after it.
    let answer = summary.find("**Answer.** No. The amendment saves units, but that is not what the question judges: it leaves places in the line empty longer and keeps less strength in the line. Against the plain 25% rules, the chance of being eliminated falls from 85.37% to 71.43%, while the average number of turns the unit's place in the line stood empty rises from 3.05 to 3.83 and the strength the unit held in its place (in turns at full strength) falls from 3.10 to 2.79. At the last turn, 9.40% of units are still retreating (none under the plain 25% rules).").unwrap();
    // Each head says the game's length: a column quoted alone still says what it counts.
    let table = summary
        .find("|  | eliminated by turn 8 | turns the unit's place stood empty (of 8) | strength held, in turns at full strength (of 8) | still retreating at the last turn |")
        .unwrap();
    let detail = summary.find("**Detail.** ").unwrap();
    assert!(answer < table && table < detail);
    // The answer's "9.4% … still retreating" is a number of the table too.
    assert!(summary[table..detail].contains("| 9.40% (+9.40 points) |"));
    // Two variants whose rules cannot change `eliminated` are exactly the baseline there, and
    // one of them in `empty_turns`, `strength_turns` and units still retreating too.
    assert_eq!(summary[table..detail].matches(" (the same) |").count(), 5);
    let page = std::fs::read_to_string(root.join("index.html")).unwrap();
    assert!(page.contains("<caption hidden>The headline, variant by variant</caption>"));
}

/// A metric as the headline ("how much faster?"): the verdict, the headline table (in the
/// metric's unit, with its condition) and a chart of the means; the exact values are the
/// scenario's own.
#[test]
fn a_metric_can_be_an_experiments_headline() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/how-much-faster");
    let summary = std::fs::read_to_string(root.join("summary.md")).unwrap();
    assert!(
        summary.contains("**Answer.** With Regular, alone, the average number of turns to recover among units that recovered is 3.85; it falls under every variant (better) \u{2014} Regular with a +1 leader: 3.05 (−0.80); Regular with a +2 leader: 2.47 (−1.38). The chance of recovering rises under every variant too, from 74.39% to between 90.15% and 98.11% (better). These are exact values."),
        "{summary}"
    );
    assert!(
        summary.contains("|  | turns to recover (among units that recovered) | recovered |"),
        "{summary}"
    );
    // Each row's exact column is the run's exact mean, to the digits shown.
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("results.json")).unwrap()).unwrap();
    for run in results["runs"].as_array().unwrap() {
        let exact = run["report"]["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == "turns_to_recover")
            .unwrap()["exact"]
            .as_f64()
            .unwrap();
        let name =
            results["experiment"]["variants"][run["variant"].as_u64().unwrap() as usize]["name"]
                .as_str()
                .unwrap()
                .to_string();
        let row = summary
            .lines()
            .find(|l| l.starts_with(&format!("| {name} | ")))
            .unwrap();
        assert!(
            row.contains(&format!("| {exact:.2} |")) || row.contains(&format!("| {exact:.2} (")),
            "{row} vs {exact}"
        );
    }
    let svg = std::fs::read_to_string(root.join("headline.svg")).unwrap();
    assert!(svg.contains("<title>How much faster"));
    // A headline that is neither an outcome nor a metric is refused, naming both lists.
    let dir = std::env::temp_dir().join(format!("morale-lab-headline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.toml");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/how-much-faster.toml"),
    )
    .unwrap()
    .replace(
        "headline = [\"turns_to_recover\", \"recovered\"]",
        "headline = \"turns_to_rally\"",
    );
    std::fs::write(&file, text).unwrap();
    let out = bin()
        .args(["run", file.to_str().unwrap(), "--out"])
        .arg(dir.join("out"))
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("headline: 'turns_to_rally' is not an outcome or a metric of rally")
            && err.contains("metrics: turns_to_recover"),
        "{err}"
    );
    assert!(!dir.join("out").exists());
    std::fs::remove_dir_all(&dir).ok();
}

/// Several headlines (issue 50): the retreat report opens with an answer table of both, a
/// sentence where they pull apart and the trade-off chart beside them; and it names
/// `retreat_out_of_range` among the assumptions that matter, which the command line confirms.
#[test]
fn the_retreat_report_carries_both_headlines_and_its_assumptions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/retreat-vs-rank-and-file");
    let summary = std::fs::read_to_string(root.join("summary.md")).unwrap();
    assert!(summary.contains(
        "|  | eliminated by turn 8 | turns the unit's place stood empty (of 8) | strength held, in turns at full strength (of 8) |"
    ));
    assert!(
        summary.contains(
            "| retreat on fire alone | 85.37% (the same) | 3.63 (+0.58 turns) | 2.86 (−0.24 turns) |"
        ),
        "{summary}"
    );
    // Another variant pulling the headlines apart is in the table (the answer keeps to 150
    // words, the reading it rests on first): the blocked amendment saves units and costs
    // strength.
    assert!(summary.contains(
        "| the amendment in a crowded line | 74.67% (−10.70 points) | 3.96 (+0.91 turns) | 2.75 (−0.35 turns) |"
    ), "{summary}");
    // Rank & File is there for comparison: out of the counts, said apart; a dash where its
    // rules have no such state, said under the table; its word for the end ("removed") is in
    // the glossary, not the cell ("95.96% removed" under "eliminated" read as a slip).
    assert!(
        summary.contains("| Rank & File (for comparison) | 95.96% | 6.81 | 1.05 | — |"),
        "{summary}"
    );
    assert!(
        summary.contains("A dash: Rank & File has no “retreating” state."),
        "{summary}"
    );
    // The rule ids the shared notes cite, keyed for a reader who cannot look them up.
    assert!(
        summary.contains(
            "as this study numbers them: EF-2 the test, EF-3 melee, EF-5 the retreat amendment"
        ),
        "{summary}"
    );
    assert!(summary.contains("](tradeoff.png)"));
    let svg = std::fs::read_to_string(root.join("tradeoff.svg")).unwrap();
    assert!(svg.contains(
        "<title>The trade-off: average turns the unit&#39;s place stood empty against chance of being eliminated"
    ));
    let html = std::fs::read_to_string(root.join("index.html")).unwrap();
    let (fig, charts) = (
        html.find("id=\"chart-tradeoff\"").unwrap(),
        html.find("<h2 id=\"charts\"").unwrap(),
    );
    assert!(fig < charts, "the trade-off comes with the answer");
    assert!(summary.contains(
        "| the amendment | eliminated | Retreating unit out of range | yes | no | EF-5 | −13.94 points | exactly the same | becomes none |"
    ), "{summary}");
    // The verdict's measures under every step listed, for the comparison the question leads
    // with: with the retreat in range, the amendment's place stands empty +1.05 turns longer
    // and holds 0.41 turns' strength less (writer trial 50: the rows spoke only of eliminations).
    // With the retreat in range: +1.05 and −0.41, both still worse, so still "No".
    assert!(summary.contains(
        "| setting | in this report | changed to | rule | difference in chance of being eliminated | difference in turns the unit's place stood empty | difference in strength held, in turns at full strength | the amendment's answer | the other comparisons, with the step taken |"
    ), "{summary}");
    // The report's own differences and answer head the table, for each step's to be read
    // against (writer trial 54).
    assert!(
        summary.contains(
            "| none: as in this report |  |  |  | −13.94 points | +0.78 turns | −0.31 turns | No |  |"
        ),
        "{summary}"
    );
    // Which way is better in each column, in a row above it (writer trial 57).
    assert!(
        summary.contains(
            "| better is |  |  |  | lower | lower | higher |  |  |\n| none: as in this report |"
        ),
        "{summary}"
    );
    // On the page, a band over the grid's columns says whose differences they are.
    assert!(html.contains(
        "<th class=\"group\" colspan=\"4\" scope=\"colgroup\">the amendment minus the plain 25% rules, with the step taken</th>"
    ));
    assert!(
        summary.contains(
            "| Retreating unit out of range | yes | no | EF-5 | no difference | +1.05 turns | −0.41 turns | still No | The amendment in a crowded line: eliminated +0.91 points (in this report −10.70); the difference changes sign. |"
        ),
        "{summary}"
    );
    // A step that leaves the band as the report has it says so before the comparison it is
    // listed for, and a row whose band is another's to the last digit names it (writer trial
    // 58 read the two as a repeat and a misprint).
    assert!(
        summary.contains("| Turns away (no return roll) | 1 | 2 | EF-3, EF-5 | −13.94 points | +0.78 turns | −0.31 turns | still No (only “retreat on fire alone” moves) | The amendment's differences stay as they are. Retreat on fire alone: eliminated −4.89 points (in this report no difference)."),
        "{summary}"
    );
    assert!(
        summary.contains("| Supported from behind | no | yes | EF-2 | −10.83 points | +0.59 turns | −0.22 turns | still No (same as Elite) | the same numbers as the row “Morale class changed to Elite” (both change the test the same way); other comparisons move little |"),
        "{summary}"
    );
    assert!(
        summary.contains("| Returns to action on a roll of | 5+ | 4+ | EF-5 | −6.77 points | +0.66 turns | −0.27 turns | still No | ")
            && summary.contains("|  |  | 6+ |  | −27.51 points | +1.03 turns | −0.40 turns | still No | "),
        "{summary}"
    );
    assert!(
        // What the assumption does to the amendment, said where it removes its saving (the
        // README said it, the answer only "the size of a difference", writer trial 59).
        summary.contains("No single step in the rules or in this study's assumptions overturns this answer. One qualifies it: the assumption that a retreating unit is out of the enemy's range (without it, the amendment no longer saves units)."),
        "{summary}"
    );
    // The command line agrees: with the retreat in range, the amendment eliminates exactly as
    // many units as the plain rules.
    let eliminated = |extra: &[&str]| -> f64 {
        let mut args = vec![
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
            "--set",
            "retreat_out_of_range=false",
            "--trials",
            "1000",
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        let out = bin().args(&args).assert().success();
        let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        v["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["outcome"] == "eliminated")
            .unwrap()["exact"]
            .as_f64()
            .unwrap()
    };
    let plain = eliminated(&[]);
    let amended = eliminated(&["--option", "retreat-on-fire", "--option", "return-roll"]);
    assert!((plain - amended).abs() < 1e-12, "{plain} vs {amended}");
    // The battle line's report (Monte Carlo) names it too.
    let line = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("reports/line-retreat-vs-rank-and-file/summary.md"),
    )
    .unwrap();
    let section = &line[line.find("## What could change the answer").unwrap()..];
    assert!(
        section.contains("| Retreating unit out of range | yes | no |"),
        "{section}"
    );
    assert!(line.contains(
        "|  | side A's empty places × turns | side A's strength held, in turns at full strength |"
    ));
}

/// The assumptions an answer rests on are readings of the rules and their numbers; the
/// situation (another unit, state or fire) and the sides' play are listed apart, under "Where
/// the answer holds", and the answer does not cite them.
#[test]
fn the_situation_is_not_an_assumption() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/retreat-vs-rank-and-file/summary.md"),
    )
    .unwrap();
    let start = text.find("## What could change the answer\n").unwrap();
    let holds = text.find("## Where the answer holds").unwrap();
    let after = text[holds..].find("\n## ").unwrap() + holds;
    // The table's rows (its intro may name a combination the rules refused to try).
    let readings: String = text[start..holds]
        .lines()
        .filter(|l| l.starts_with('|'))
        .collect::<Vec<_>>()
        .join("\n");
    let readings = readings.as_str();
    let situation = &text[holds..after + 1];
    assert!(readings.contains("| Retreating unit out of range | yes | no |"));
    // A row per step: 4+, then 6+ under it (writer trial 55).
    assert!(readings.contains("| Returns to action on a roll of | 5+ | 4+ |"));
    assert!(readings.contains("|  |  | 6+ |  |"));
    for s in ["Morale class", "Enemy fire dice a turn", "General attached"] {
        assert!(!readings.contains(s), "{s} is the situation: {readings}");
        assert!(situation.contains(s), "{s}: {situation}");
    }
    // The rally reports: another kind of unit and a player who keeps routing are not readings.
    let rally = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/leaders-and-rerolls/summary.md"),
    )
    .unwrap();
    let answer = rally
        .lines()
        .find(|l| l.starts_with("**Answer.**"))
        .unwrap();
    let start = rally.find("## What could change the answer\n").unwrap();
    let holds = rally.find("## Where the answer holds").unwrap();
    for s in ["Keep routing by choice", "Formed unit or single stand"] {
        assert!(!answer.contains(s), "{answer}");
        let rows: Vec<&str> = rally[start..holds]
            .lines()
            .filter(|l| l.starts_with('|'))
            .collect();
        assert!(!rows.iter().any(|l| l.contains(s)), "{rows:?}");
        assert!(rally[holds..].contains(s));
    }
}

/// Every shipped experiment names the headlines its question is about.
#[test]
fn every_shipped_experiment_names_its_headlines() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.lines().any(|l| l.starts_with("headline = ")),
            "{} names no headline",
            path.display()
        );
    }
}

/// A list of headlines is checked like one: each must be an outcome or metric, once, 1 to 4.
#[test]
fn a_list_of_headlines_is_checked() {
    refused_lists(
        "headlines",
        r#"headline = ["eliminated", "empty_turns", "strength_turns"]"#,
        "headline",
        &[
            (
                r#"["eliminated", "eliminated"]"#,
                "headline: 'eliminated' is named twice",
            ),
            ("[]", "headline: 0 names given; allowed: 1 to 4"),
            (
                r#"["eliminated", "holes"]"#,
                "headline: 'holes' is not an outcome or a metric of under-fire",
            ),
        ],
    );
}

/// The retreat experiment with its line `line` replaced by `key = LIST` for each list: each run
/// is refused, exit 2, saying `says`, and writes nothing.
fn refused_lists(tag: &str, line: &str, key: &str, lists: &[(&str, &str)]) {
    let dir = std::env::temp_dir().join(format!("morale-lab-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/retreat-vs-rank-and-file.toml"),
    )
    .unwrap();
    assert!(text.contains(line), "{line}");
    for (list, says) in lists {
        let file = dir.join("bad.toml");
        std::fs::write(&file, text.replace(line, &format!("{key} = {list}"))).unwrap();
        let out = bin()
            .args(["run", file.to_str().unwrap(), "--out"])
            .arg(dir.join("out"))
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(err.contains(says), "{list}: {err}");
        assert!(!dir.join("out").exists());
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `verdict = [...]` names the headlines the question asks about: each must be one of the
/// file's headlines, once; the answer judges by them and says the others beside them.
#[test]
fn a_verdict_on_some_headlines_is_checked_and_judges_by_them() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/retreat-vs-rank-and-file.toml"),
    )
    .unwrap();
    let verdict = text
        .lines()
        .find(|l| l.starts_with("verdict = "))
        .unwrap()
        .to_string();
    refused_lists(
        "verdict",
        &verdict,
        "verdict",
        &[
            (
                r#"["empty_turns", "empty_turns"]"#,
                "verdict: 'empty_turns' is named twice",
            ),
            (
                "[]",
                "verdict: no headline named; allowed: true, false, or a list of the headlines (eliminated, empty_turns, strength_turns)",
            ),
            (
                r#"["holes"]"#,
                "verdict: 'holes' is not one of the headlines; allowed: eliminated, empty_turns, strength_turns",
            ),
        ],
    );
    // The committed report: the two measures of holes judge ("No"), "eliminated" is beside.
    let summary = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/retreat-vs-rank-and-file/summary.md"),
    )
    .unwrap();
    assert!(
        summary.contains("**Answer.** No. The amendment saves units, but that is not what the question judges: it leaves places in the line empty longer and keeps less strength in the line. Against the plain 25% rules, the chance of being eliminated falls from 85.37% to 71.43%, while the average number of turns the unit's place in the line stood empty rises from 3.05 to 3.83 and the strength the unit held in its place (in turns at full strength) falls from 3.10 to 2.79. At the last turn, 9.40% of units are still retreating (none under the plain 25% rules). No single step in the rules or in this study's assumptions overturns this answer."),
        "{summary}"
    );
}

/// Variants over a sweep get the headline table too, a row per variant and setting.
#[test]
fn a_swept_experiment_has_its_headline_table_by_setting() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/green-rally-number");
    let summary = std::fs::read_to_string(root.join("summary.md")).unwrap();
    assert!(summary.contains(
        "|  | Green base number | recovered | difference from Regular with a +1 leader |\n"
    ));
    // One number per quantity: the simulation agrees with every value, said once in the
    // method paragraph, not in a column of "agrees".
    assert!(!summary.contains("| agrees |"), "{summary}");
    assert!(
        summary.contains("| Green | 5 | 55.65% | −34.50 points |\n"),
        "{summary}"
    );
    // The plain Regular, there for comparison, takes its row as such, and its one sentence
    // after the answer names where Green meets it.
    assert!(
        summary.contains(
            "| Regular without a leader (for comparison) | any (no effect) | 74.39% | −15.76 points |\n"
        ),
        "{summary}"
    );
    assert!(
        summary.contains(
            "For comparison, the chance of recovering under Regular without a leader is 74.39%, exactly as under Green with its base number at 4."
        ),
        "{summary}"
    );
    // The baseline the swept number does not touch takes one row and one section, not four,
    // and one check of its one value, with the trials of its four runs together; the report's
    // checks are 95% sure taken together, so the 90.183% of its 4,000,000 trials (2.3 standard
    // errors off the exact 90.149%) agrees, as 1 check in 20 would not.
    assert!(
        summary.contains("| Regular with a +1 leader | any (no effect) | 90.15% | — |\n"),
        "{summary}"
    );
    assert!(
        summary.contains(
            "and the simulation bears out all 132 exact values it was checked against (every chance and average, printed here or not)."
        ),
        "{summary}"
    );
    assert!(summary.contains(
        "The simulation checks it with the runs at the 4 settings together (4,000,000 trials)."
    ));
    assert_eq!(summary.matches("## Regular with a +1 leader").count(), 1);
    assert!(summary.contains("## Regular with a +1 leader (the same at every setting swept)"));
    // The assumptions were stepped at the first setting; a step that moves only the mark is
    // said as where Green would meet it along the sweep, not as Green's difference at 3 (a
    // truism, writer trial 52).
    assert!(
        summary.contains("| Regular base number | 4 | 3 or 5 | RF-1 | Either step moves Regular with a +1 leader, not Green: at 5, Green with its base number at 4 would match Regular with a +1 leader (74.39%); at 3, the chance of recovering under Regular with a +1 leader would be 98.11%, more than Green's at any value tried (3 to 6). |"),
        "{summary}"
    );
    // Where the setting swept moves both sides, the measure says where ("with 4 turns").
    let length =
        std::fs::read_to_string(root.join("../retreat-over-game-length/summary.md")).unwrap();
    assert!(
        length.contains("in the chance of being eliminated with 4 turns, not −10.09 points"),
        "{length}"
    );
}

/// One voice for "exactly the same" (issue 50): in every committed report a difference whose
/// exact value is 0 reads "exactly the same" in the Differences table too, never "no" (a
/// p-value's verdict over two processes that are the same), and no number is printed "-0.0000".
#[test]
fn exact_differences_decide_in_every_committed_report() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let mut checked = 0;
    for name in file_names(&root) {
        let Ok(summary) = std::fs::read_to_string(root.join(&name).join("summary.md")) else {
            continue;
        };
        assert!(
            !summary.contains("-0.0000") && !summary.contains("−0.0000"),
            "reports/{name}: a negative zero"
        );
        // The Differences table: its head names the columns; the difference column holds the
        // exact value where there is one ("exactly the same" where it is 0), and a test of chance, where the
        // table has one, defers to it.
        let mut in_differences = false;
        let mut head: Vec<String> = Vec::new();
        for line in summary.lines() {
            if line.starts_with("## ") {
                in_differences = line.starts_with("## Differences from");
                head.clear();
            }
            if !in_differences || !line.starts_with("| ") || line.starts_with("|---") {
                continue;
            }
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            if head.is_empty() {
                head = cells.iter().map(|c| c.to_string()).collect();
                continue;
            }
            // An interval of no width is no check: a share no trial of either side reached is
            // checked as a chance of its trials (writer trial 72 met an exact 1 in 100,000
            // "outside its interval: 0.0000 [0.0000, 0.0000]").
            assert!(
                !(line.contains("outside its interval") && line.contains("[0.0000, 0.0000]")),
                "reports/{name}: {line}"
            );
            let col = |name: &str| head.iter().position(|h| h == name);
            let diff = cells[col("difference").expect("a difference column")];
            let chance = col("could chance explain it?").map(|i| cells[i]);
            let all_exact = chance.is_none();
            if diff == "exactly the same" {
                assert!(
                    chance.is_none_or(|c| c == "exactly the same"),
                    "reports/{name}: {line}"
                );
                checked += 1;
            } else if all_exact || diff.ends_with(", exact") {
                // The exact value decides: never a p-value's "no" or "could be" beside it.
                assert!(
                    chance.is_none_or(|c| c == "no (the exact values differ)"),
                    "reports/{name}: {line}"
                );
                let check = cells[col("simulation's check (interval)")
                    .or(col("simulation (interval)"))
                    .expect("a check column")];
                assert!(
                    check.starts_with("agrees: ") || check.starts_with("outside its interval: "),
                    "reports/{name}: {line}"
                );
            }
        }
    }
    assert!(checked > 10, "only {checked} rows exactly the same");
}

/// What a reader scans at once is one family (issue 50): with two variants that are the same
/// process (A = B) and no exact solution (a line: every row decided by its estimates),
/// Holm's adjustment across every row of the comparison table keeps the chance that any row is
/// called real at or under 1 − confidence = 5%. Over 100 seeds at most 11 runs may flag a row
/// (a binomial of 100 at 5% passes 11 with chance 0.4%); with one family per outcome or
/// metric, as before, 14 of 100 such runs flagged at least one row.
#[test]
fn with_a_equal_to_b_few_runs_flag_any_row() {
    let text = r#"
name = "a-equals-b"
question = "Is B different from A (they are the same)?"
scenario = "line"
trials = 2_000
seed = 1

[[variant]]
name = "A"
system = "effectiveness"

[[variant]]
name = "B"
system = "effectiveness"
"#;
    let (mut flagged, mut rows) = (0, 0);
    for seed in 1..=100 {
        let exp = Experiment::parse("ab.toml", text)
            .unwrap()
            .with_overrides(None, Some(seed));
        let result = exp.run(Some(1), Sampler::Dice, &Control::new()).unwrap();
        let comparisons = morale_lab::experiment::compare::compare(&result);
        assert!(comparisons.iter().all(|c| c.exact_difference.is_none()));
        rows = comparisons.iter().filter(|c| c.p_value.is_some()).count();
        assert!(comparisons.iter().all(|c| c.family == rows));
        flagged += usize::from(comparisons.iter().any(|c| c.distinguishable));
    }
    assert!(rows >= 10, "{rows} rows tested");
    assert!(
        flagged <= 11,
        "{flagged} of 100 runs with A = B flagged a row"
    );
}

/// The keys a reader must never meet in a report's prose, tables or notes (issue 74): every
/// parameter, rule parameter, optional rule, system and scenario key `list` names that is not
/// already a plain word (a key with an underscore or a hyphen), and every outcome or metric key
/// with an underscore in the committed results.
fn keys_a_reader_never_meets() -> Vec<String> {
    let out = bin().args(["list", "--format", "json"]).output().unwrap();
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut keys = Vec::new();
    fn walk(v: &serde_json::Value, keys: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    if let ("key" | "name", serde_json::Value::String(s)) = (k.as_str(), x) {
                        keys.push(s.clone());
                    }
                    walk(x, keys);
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, keys)),
            _ => {}
        }
    }
    walk(&list, &mut keys);
    keys.retain(|k| !k.contains(' ') && (k.contains('_') || k.contains('-')));
    keys.sort();
    keys.dedup();
    keys
}

/// The words a reader reads in a report's `summary.md`: everything before the Reproduce box,
/// without code spans and the targets of images and links.
fn prose_of_summary(md: &str) -> String {
    let text = md.split("\n## Reproduce").next().unwrap_or("");
    let mut out = String::new();
    let mut in_code = false;
    let mut in_target = false;
    let mut prev = ' ';
    for c in text.chars() {
        match c {
            '`' => in_code = !in_code,
            '(' if prev == ']' => in_target = true,
            ')' if in_target => in_target = false,
            _ if in_code || in_target => {}
            _ => out.push(c),
        }
        prev = c;
    }
    out
}

/// Whether `text` holds `key` as a word of its own (not inside a longer word or file name).
fn holds_key(text: &str, key: &str) -> Option<String> {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '-' || c == '.' || c == '/';
    let mut from = 0;
    while let Some(i) = text[from..].find(key) {
        let at = from + i;
        let end = at + key.len();
        let before = text[..at].chars().next_back();
        let after = text[end..].chars().next();
        if !before.is_some_and(word) && !after.is_some_and(|c| word(c) && c != '.') {
            let lo = text[..at].char_indices().rev().nth(40).map_or(0, |x| x.0);
            let hi = text[end..]
                .char_indices()
                .nth(40)
                .map_or(text.len(), |x| end + x.0);
            return Some(text[lo..hi].replace('\n', " "));
        }
        from = end;
    }
    None
}

/// No parameter key, optional rule's or system's key, or outcome or metric key with an
/// underscore appears in a committed report's prose, tables or notes outside the Reproduce box
/// (issue 74): a reader meets labels; the keys are in the command line and the data's columns.
#[test]
fn every_committed_report_reads_in_a_readers_words() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let keys = keys_a_reader_never_meets();
    assert!(keys.iter().any(|k| k == "base_green") && keys.iter().any(|k| k == "return-roll"));
    let mut found = Vec::new();
    let mut read = 0;
    for name in file_names(&root) {
        let Ok(md) = std::fs::read_to_string(root.join(&name).join("summary.md")) else {
            continue;
        };
        read += 1;
        let prose = prose_of_summary(&md);
        // Outcome and metric keys: whatever the results name, where they hold an underscore.
        let results: serde_json::Value =
            serde_json::from_slice(&std::fs::read(root.join(&name).join("results.json")).unwrap())
                .unwrap();
        let mut names: Vec<String> = Vec::new();
        for run in results["runs"].as_array().into_iter().flatten() {
            for o in run["report"]["outcomes"].as_array().into_iter().flatten() {
                names.extend(o["outcome"].as_str().map(str::to_string));
            }
            for m in run["report"]["metrics"].as_array().into_iter().flatten() {
                names.extend(m["name"].as_str().map(str::to_string));
            }
        }
        names.retain(|n| n.contains('_'));
        for key in keys.iter().chain(&names) {
            if let Some(at) = holds_key(&prose, key) {
                found.push(format!(
                    "reports/{name}/summary.md: `{key}` in \u{2026}{at}\u{2026}"
                ));
            }
        }
    }
    assert!(read >= 10, "only {read} reports read");
    assert!(
        found.is_empty(),
        "keys in a reader's words:\n{}",
        found.join("\n")
    );
}

/// Every committed report's answer is at most 150 words (issue 74): the question's answer, the
/// headline table and chart say the rest.
#[test]
fn every_committed_answer_is_at_most_150_words() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let mut long = Vec::new();
    for name in file_names(&root) {
        let Ok(md) = std::fs::read_to_string(root.join(&name).join("summary.md")) else {
            continue;
        };
        let answer = md
            .lines()
            .find_map(|l| l.strip_prefix("**Answer.** "))
            .unwrap_or_else(|| panic!("reports/{name}: no answer"));
        let words = answer.split_whitespace().count();
        if words > 150 {
            long.push(format!("reports/{name}: {words} words"));
        }
    }
    assert!(long.is_empty(), "{long:?}");
}

/// Every committed SVG chart is editable text in an embedded font, set for print (issue 74):
/// `<text>` elements in DejaVu Sans, the letters they use embedded as an `@font-face`, and no
/// text under 19 px to the em on a 960-px canvas (9 pt when printed 16 cm wide).
#[test]
fn every_svg_chart_has_text_with_its_font_embedded() {
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let mut charts = 0;
    for dir in std::fs::read_dir(&reports).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_none_or(|e| e != "svg") {
                continue;
            }
            charts += 1;
            let svg = std::fs::read_to_string(&f).unwrap();
            let name = f.display();
            assert!(svg.contains("<text "), "{name}: no <text>");
            assert!(
                svg.contains("@font-face{font-family:'DejaVu Sans'")
                    && svg.contains("url(data:font/ttf;base64,"),
                "{name}: no embedded font"
            );
            assert!(!svg.contains("<use href="), "{name}: text as outlines");
            assert!(svg.starts_with("<svg width=\"960\""), "{name}");
            for size in svg.split(" font-size=\"").skip(1) {
                let size: f64 = size[..size.find('"').unwrap()].parse().unwrap();
                assert!(size >= 19.0 - 1e-6, "{name}: text at {size} px");
            }
            assert!(
                svg.split("<text ")
                    .skip(1)
                    .all(|t| t.contains("font-family=\"'DejaVu Sans',")),
                "{name}"
            );
        }
    }
    assert!(charts > 100, "{charts} charts");
}

/// A printed table is read as it was measured: under the answer's table, each headline's
/// meaning, in words; where two systems count a headline differently, both.
#[test]
fn every_committed_answer_table_says_what_its_columns_count() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let read = |name: &str| std::fs::read_to_string(root.join(name).join("summary.md")).unwrap();
    // What a report says its columns count: one column's sentence, or several as a glossary
    // (its opening line, then a line each).
    let glossary = |md: &str| -> Option<String> {
        let start = md.find("What the table's columns")?;
        let mut out = Vec::new();
        for (i, l) in md[start..].lines().enumerate() {
            match (i, l) {
                (0, l) => out.push(l),
                (1, "") => {}
                (_, l) if l.starts_with("- ") => out.push(l),
                _ => break,
            }
        }
        Some(out.join("\n"))
    };
    let green = read("green-rally-number");
    let said = green
        .find("In the table, \u{201c}recovered\u{201d} means back in good order by the last turn")
        .unwrap_or_else(|| panic!("{green}"));
    // Above the table, where the reader meets the word, not after it.
    let table = green
        .find("| Regular with a +1 leader")
        .unwrap_or_else(|| panic!("{green}"));
    assert!(said < table, "{green}");
    let retreat = read("retreat-vs-rank-and-file");
    let line = glossary(&retreat).expect("the retreat report says what its columns count");
    assert!(
        line.starts_with("What the table's columns count:\n- Eliminated"),
        "{line}"
    );
    for words in [
        "- Eliminated \u{2014} gone by the last turn (the 8th): its last quarter lost to fire, or its retreat blocked",
        "Under Rank & File, the column counts \u{201c}removed\u{201d} \u{2014} gone by the last turn",
        "dispersed by the 50% rule",
        // The states still held at the last turn are columns too (writer trial 74).
        "- Still retreating at the last turn \u{2014} retreated after a failed test and not yet back in its place",
        "- Turns the unit's place stood empty \u{2014} turns, of all those played, in which no unit held its place",
    ] {
        assert!(line.contains(words), "{words:?} not in {line}");
    }
    // A meaning that says only its label again is left out ("attacker's stands lost:
    // attacker's stands lost in the melee").
    let mut seen = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let md = std::fs::read_to_string(entry.unwrap().path().join("summary.md")).unwrap();
        if let Some(l) = glossary(&md) {
            seen += 1;
            assert!(
                !l.contains("stands lost \u{2014} attacker's stands lost"),
                "{l}"
            );
            assert!(!l.contains("turns until decided"), "{l}");
        }
    }
    assert!(seen > 5, "{seen} reports say what their columns count");
}

/// A value the rules give a meaning of its own is said in words where a setting is stepped:
/// "| Always passes at or above | 6 | 5 or 7 (no roll always passes) |".
#[test]
fn a_setting_value_that_means_never_says_so() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let md = std::fs::read_to_string(root.join("leaders-and-rerolls/summary.md")).unwrap();
    assert!(
        md.contains("| Always passes at or above | 6 | 5 or 7 (no roll always passes) |"),
        "leaders-and-rerolls does not say what 7 means"
    );
}

/// A reader reproduces the situation from the page: the settings of the situation that would
/// change the answer are in "Where the answer holds" with their values ("| Fires back | yes |
/// no |"), and what would change only the variant shown for scale (Rank & File's fire at shaken
/// units) is left out, as the section says: it is not an assumption of the answer.
#[test]
fn where_the_answer_holds_gives_the_situation_not_the_scale_rows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let md = std::fs::read_to_string(root.join("retreat-vs-rank-and-file/summary.md")).unwrap();
    let start = md.find("## Where the answer holds").unwrap();
    let end = md[start..]
        .find("\n## ")
        .map_or(md.len(), |e| start + 1 + e);
    let section = &md[start..end];
    for row in [
        "| Fires back | yes | no |",
        "| General attached | no | yes |",
        "| Morale class | Regular | Elite |",
    ] {
        assert!(section.contains(row), "{row:?} not in the table: {section}");
    }
    assert!(
        section.contains("Steps that would change only the row of Rank & File are left out."),
        "{section}"
    );
    for scale_only in ["Enemy fires at shaken units", "Formed unit or single stand"] {
        assert!(!section.contains(scale_only), "{scale_only}: {section}");
    }
    // A setting the file sets is in the setup, not repeated as an assumption.
    assert!(!section.contains("Besides what the setup"), "{section}");
    // A variant's own setting is said in its setup line, with what it does.
    assert!(
        md.contains("  - the amendment in a crowded line: the optional rules Retreat on Fire and Return Roll, 1 retreat in 6 blocked (a retreat blocked by a unit in its path eliminates the unit)\n"),
        "{md}"
    );
    // A step's own row sets another comparison's measure against that measure now.
    assert!(
        md.contains(
            "| −15.70 points | +1.19 turns | −0.47 turns | still No | The amendment in a crowded line: turns the unit's place stood empty +1.37 turns (in this report +0.91). |"
        ),
        "{md}"
    );
    // "reverses" in the full table is said not to touch the verdict's own measures.
    assert!(md.contains("The verdict rests on the average number of turns the unit's place in the line stood empty and the strength the unit held in its place (in turns at full strength) alone: a row that reverses another measure leaves it be."), "{md}");
    // A setting one variant sets for itself names that variant where its value is given.
    assert!(
        md.contains("| Chance a retreat is blocked | none | 1 in 6 |"),
        "{md}"
    );
}

/// The numbers a Why paragraph types (its author's, in the experiment file) are the report's
/// own: every number with a decimal point in a shipped experiment's `why` is an exact value or
/// an exact difference of its report (as a chance in per cent, or as it stands), or of a
/// report it names here as its source. A re-run that moves a number makes this fail, rather
/// than leave the Why saying the old one (writer trial 74).
#[test]
fn a_why_paragraphs_numbers_are_its_reports() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Whys that draw on another report's numbers: the games of other lengths.
    let sources: &[(&str, &[&str])] =
        &[("retreat-vs-rank-and-file", &["retreat-over-game-length"])];
    let exact_values = |report: &str| -> Vec<f64> {
        let mut out = Vec::new();
        for (file, column) in [
            ("results.csv", "exact"),
            ("comparisons.csv", "exact_difference"),
        ] {
            let path = root.join("reports").join(report).join(file);
            let Ok(mut reader) = csv::Reader::from_path(&path) else {
                continue;
            };
            let heads = reader.headers().unwrap().clone();
            let at = heads.iter().position(|h| h == column).unwrap();
            let kind = heads.iter().position(|h| h == "kind");
            for row in reader.records() {
                let row = row.unwrap();
                // Per-turn shares are many and small: a typo would find one by chance.
                if kind.is_some_and(|k| &row[k] == "per_turn") {
                    continue;
                }
                if let Ok(v) = row[at].parse::<f64>() {
                    out.push(v.abs());
                }
            }
        }
        out
    };
    let mut checked = 0;
    for path in std::fs::read_dir(root.join("experiments")).unwrap() {
        let path = path.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let file: toml::Table = text.parse().unwrap();
        let Some(why) = file.get("why").and_then(|w| w.as_str()) else {
            continue;
        };
        let name = path.file_stem().unwrap().to_str().unwrap();
        let mut values = exact_values(name);
        for (own, others) in sources {
            if *own == name {
                for other in *others {
                    values.extend(exact_values(other));
                }
            }
        }
        // Numbers with a decimal point: "95.96", "13.94" (not "4+", "8 turns", "1/6").
        let chars: Vec<char> = why.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let starts = chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_digit());
            if !starts {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_digit() || chars[j] == '.') {
                j += 1;
            }
            let number: String = chars[i..j].iter().collect::<String>();
            let number = number.trim_end_matches('.');
            i = j;
            let Some((_, decimals)) = number.split_once('.') else {
                continue;
            };
            let places = decimals.len();
            let found = values.iter().any(|v| {
                format!("{:.places$}", v * 100.0) == number || format!("{v:.places$}") == number
            });
            assert!(
                found,
                "experiments/{name}.toml: its Why says {number}, which is no exact value or \
                 difference of reports/{name} (or the reports it draws on): re-run, or mend the Why"
            );
            checked += 1;
        }
    }
    // The shipped Whys carry numbers: a test that read none would pass on anything.
    assert!(checked >= 10, "only {checked} numbers checked");
}
