//! `sensitivity`: which rule matters most. Each value it gives is checked against a run of the
//! same setting through the ordinary command line, so the table cannot drift from the rules.

use serde_json::Value;

use crate::common::{bin, json_of};

const ISSUE: &[&str] = &[
    "sensitivity",
    "rally",
    "--system",
    "rank-and-file",
    "--class",
    "regular",
    "--stands",
    "8",
    "--state",
    "routing",
];

fn with(extra: &[&str]) -> Vec<String> {
    ISSUE.iter().chain(extra).map(|s| s.to_string()).collect()
}

/// The exact chance of `outcome` in the rally of [`ISSUE`] with `--rule KEY=TO` or `--option`.
fn exact_rally(outcome: &str, extra: &[String]) -> f64 {
    let mut args: Vec<&str> = ISSUE[1..].to_vec();
    args.extend(["--exact-only", "--format", "json"]);
    args.extend(extra.iter().map(String::as_str));
    let v = json_of(&args);
    v["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["outcome"] == outcome)
        .and_then(|o| o["exact"].as_f64())
        .unwrap_or_else(|| panic!("no exact {outcome} in {args:?}"))
}

#[test]
fn every_rule_parameter_is_listed_with_the_value_a_run_of_it_gives() {
    let args = with(&["--format", "json"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let v = json_of(&args);
    assert_eq!(v["headline"], "recovered");
    assert_eq!(v["trials"], 0, "a rally solves exactly: no Monte Carlo");
    let base = v["base"]["value"].as_f64().unwrap();
    assert!((base - exact_rally("recovered", &[])).abs() < 1e-12);
    let effects = v["effects"].as_array().unwrap();
    let list = json_of(&["list", "--system", "rank-and-file", "--format", "json"]);
    let system = &list["systems"][0];
    // Every rule parameter and optional rule is tried (or said not to be steppable).
    for p in system["rule_params"].as_array().unwrap() {
        let key = p["key"].as_str().unwrap();
        let tried = effects.iter().any(|e| e["key"] == key);
        let skipped = v["not_stepped"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["key"] == key);
        assert!(tried || skipped, "{key} is neither tried nor said why not");
    }
    for o in system["options"].as_array().unwrap() {
        assert!(effects.iter().any(|e| e["key"] == o["name"]), "{o}");
    }
    // Each value is what a run of that one setting gives, and the change is from the base.
    let mut checked = 0;
    for e in effects {
        if e.get("refused").is_some() {
            continue;
        }
        let (key, to) = (e["key"].as_str().unwrap(), e["to"].as_str().unwrap());
        let extra = if e["kind"] == "option" {
            if to == "on" {
                vec!["--option".to_string(), key.to_string()]
            } else {
                continue;
            }
        } else {
            vec!["--rule".to_string(), format!("{key}={to}")]
        };
        let want = exact_rally("recovered", &extra);
        let got = e["value"]["value"].as_f64().unwrap();
        assert!(
            (got - want).abs() < 1e-12,
            "{key} → {to}: {got} against {want}"
        );
        let change = e["change"].as_f64().unwrap();
        assert!((change - (want - base)).abs() < 1e-12, "{key} → {to}");
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} settings checked");
    // Sorted: parameters by their largest change, biggest first.
    let mut last = f64::INFINITY;
    let mut seen: Vec<&str> = Vec::new();
    for e in effects {
        let key = e["key"].as_str().unwrap();
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let biggest = effects
            .iter()
            .filter(|x| x["key"] == key)
            .filter_map(|x| x["change"].as_f64())
            .fold(0.0f64, |m, c| m.max(c.abs()));
        assert!(biggest <= last + 1e-12, "{key} is out of order");
        last = biggest;
    }
    // The source's one-stand-a-failed-rally rule is what matters most here.
    assert_eq!(effects[0]["key"], "rally_loss");
}

#[test]
fn text_names_the_rule_that_matters_most_and_the_ones_that_do_not() {
    let out = bin().args(with(&[])).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    // Settings by their labels (issue 74): the keys are in the command line that reproduces it.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("\u{201c}Stands lost on a failed rally\u{201d} matters most: at 0 instead of 1, the chance of recovering rises from 74.4% to 99.7%"),
        "{text}"
    );
    assert!(flat.contains(" base_regular "), "{text}");
    // The unit is Regular: Green's and Veteran's numbers cannot move it.
    let none = flat
        .split("No change to the chance of recovering")
        .nth(1)
        .unwrap();
    assert!(none.contains("Green base number") && none.contains("Veteran base number"));
    for line in text.lines() {
        assert!(line.chars().count() <= 100, "too wide: {line}");
    }
}

#[test]
fn a_metric_can_be_the_headline() {
    let args = with(&["--headline", "turns_to_recover", "--format", "json"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let v = json_of(&args);
    assert_eq!(v["headline_kind"], "metric");
    assert!(
        v["meaning"]
            .as_str()
            .unwrap()
            .contains("among units that recovered")
    );
    let bad = bin().args(with(&["--headline", "nope"])).assert().code(2);
    let err = String::from_utf8(bad.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("--headline") && err.contains("turns_to_recover"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn monte_carlo_where_there_is_no_exact_solution_with_intervals() {
    let v = json_of(&[
        "sensitivity",
        "line",
        "--system",
        "effectiveness",
        "--trials",
        "4000",
        "--seed",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(v["trials"], 4000);
    assert!(
        v["why_estimates"]
            .as_str()
            .unwrap()
            .contains("no exact solution")
    );
    let effects = v["effects"].as_array().unwrap();
    for e in effects.iter().filter(|e| e.get("refused").is_none()) {
        let (c, lo, hi) = (
            e["change"].as_f64().unwrap(),
            e["low"].as_f64().unwrap(),
            e["high"].as_f64().unwrap(),
        );
        assert!(lo <= c && c <= hi, "{e}");
        assert_eq!(e["chance"].as_bool().unwrap(), lo <= 0.0 && hi >= 0.0);
    }
    // Poor units' score is not in a line of Regulars: the same seed gives the same draws.
    let poor = effects.iter().find(|e| e["key"] == "score_poor").unwrap();
    assert_eq!(poor["change"].as_f64().unwrap(), 0.0);
    // The same seed gives the same table to the bit.
    let again = json_of(&[
        "sensitivity",
        "line",
        "--system",
        "effectiveness",
        "--trials",
        "4000",
        "--seed",
        "5",
        "--format",
        "json",
        "--threads",
        "1",
    ]);
    assert_eq!(v["effects"], again["effects"]);
    // --exact-only cannot be met here: said up front, exit 2.
    let out = bin()
        .args(["sensitivity", "line", "--exact-only"])
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.contains("no exact solution"), "{err}");
}

#[test]
fn the_tornado_chart_is_written_as_asked() {
    let dir = crate::reports::scratch("tornado");
    let png = dir.join("t.png");
    let svg = dir.join("t.svg");
    for file in [&png, &svg] {
        let chart = file.display().to_string();
        bin()
            .args(with(&["--chart", &chart, "--format", "csv"]))
            .assert()
            .success();
    }
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<title>Which rule matters most for recovered"));
    // An existing file needs --force; a wrong extension is refused; nothing half-written.
    let chart = png.display().to_string();
    bin().args(with(&["--chart", &chart])).assert().code(2);
    let bad = dir.join("t.jpg").display().to_string();
    let out = bin().args(with(&["--chart", &bad])).assert().code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.contains(".png or .svg"), "{err}");
    assert!(!dir.join("t.jpg").exists());
    let names: Vec<String> = std::fs::read_dir(&*dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn an_experiment_with_a_sweep_cannot_ask_for_sensitivity() {
    let text = "name = \"x\"\nquestion = \"q\"\nscenario = \"rally\"\nsensitivity = true\n\n[[variant]]\nname = \"a\"\nsystem = \"rank-and-file\"\n\n[sweep]\nx = { key = \"lost\", values = [0, 1] }\n";
    let e = morale_lab::experiment::Experiment::parse("x.toml", text).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("x.toml:4") && msg.contains("sensitivity"),
        "{msg}"
    );
}

/// The parsed CSV has a row for the run asked for and one per setting.
#[test]
fn csv_has_a_row_per_setting() {
    let args = with(&["--format", "csv"]);
    let out = bin().args(&args).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let json: Value = {
        let args = with(&["--format", "json"]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        json_of(&args)
    };
    assert_eq!(rows.len(), 1 + json["effects"].as_array().unwrap().len());
    assert_eq!(&rows[0][4], "as set");
}

/// "Which rule number most changes removal?" (issue 50): rule numbers are ranked apart from the
/// optional rules, so a number leads even where an optional rule moves the headline more
/// (`keep-broken-units`, which relabels dispersed units as routing), and a step to 0 that
/// switches a rule off is marked.
#[test]
fn rule_numbers_are_ranked_apart_and_a_step_that_switches_a_rule_off_is_marked() {
    let out = bin()
        .args([
            "sensitivity",
            "under-fire",
            "--system",
            "rank-and-file",
            "--class",
            "regular",
            "--stands",
            "8",
            "--turns",
            "6",
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    // The verdict, as one line (the text wraps at 100 columns).
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("\u{201c}Modifier per stand lost\u{201d} matters most"),
        "{text}"
    );
    assert!(flat.contains("(0 switches that rule off.)"), "{text}");
    assert!(
        flat.contains("Of the optional rules, Keep Broken Units changes it most"),
        "{text}"
    );
    assert!(text.contains("0 (the rule off)"), "{text}");
    // Every rule number's rank comes before every optional rule's.
    let rank_of = |label: &str| {
        text.lines()
            .find(|l| {
                l.contains(label)
                    && l.split_whitespace()
                        .next()
                        .is_some_and(|t| t.parse::<usize>().is_ok())
            })
            .and_then(|l| l.split_whitespace().next()?.parse::<usize>().ok())
            .unwrap_or_else(|| panic!("{label} has no rank: {text}"))
    };
    // The terminal's table names each setting by the key the command line takes.
    assert!(rank_of(" base_regular ") < rank_of(" keep-broken-units "));
    // break_fraction 2/5 of 8 stands breaks at the same stand as 1/2: exactly no change, said
    // in the one voice, never "0.0 points".
    let row = text
        .lines()
        .find(|l| l.contains(" 2/5 "))
        .unwrap_or_else(|| panic!("no 2/5 row: {text}"));
    assert!(row.contains("exactly the same"), "{row}");
    assert!(!text.contains(" 0.0 points"), "{text}");
}

/// `sensitivity --help` says what it answers for each scenario (each line read "The flags
/// `sensitivity` adds to a scenario's", the doc comment of its flags).
#[test]
fn sensitivity_help_says_what_each_scenario_answers() {
    let out = bin().args(["sensitivity", "--help"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(!text.contains("The flags `sensitivity` adds"), "{text}");
    assert!(
        text.contains("rally       Which rule number matters most here: a shaken unit rallies"),
        "{text}"
    );
    assert!(
        text.contains("Which rule number matters most here: N units a side"),
        "{text}"
    );
}
