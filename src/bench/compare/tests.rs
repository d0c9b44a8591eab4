//! `bench --compare`'s tests: verdicts, refusals and the ratio's interval.

use super::*;
use crate::bench::{Build, CaseRow, Machine, ReferenceRow, Run};

#[test]
fn a_change_is_called_only_beyond_the_noise_and_the_threshold() {
    let steady = [
        100.0, 102.0, 98.0, 101.0, 99.0, 100.5, 99.5, 100.2, 99.8, 100.1,
    ];
    let same = change(&steady, &steady.map(|x| x * 1.01), 0.1).unwrap();
    assert_eq!(same.verdict, Verdict::Same);
    assert!(same.low < 1.0 && 1.0 < same.high);
    let slower = change(&steady, &steady.map(|x| x / 2.0), 0.1).unwrap();
    assert_eq!(slower.verdict, Verdict::Slower);
    assert!((slower.ratio - 0.5).abs() < 1e-12);
    // 3% faster beyond doubt, but within a 10% threshold: the same.
    let small = change(&[100.0; 10], &[103.0; 10], 0.1).unwrap();
    assert_eq!(small.verdict, Verdict::Same);
    assert_eq!(
        change(&[100.0; 10], &[130.0; 10], 0.1).unwrap().verdict,
        Verdict::Faster
    );
    // Past the threshold but inside the noise: the same.
    let wide = [
        50.0, 150.0, 60.0, 140.0, 100.0, 70.0, 130.0, 80.0, 120.0, 90.0,
    ];
    assert_eq!(
        change(&wide, &wide.map(|x| x * 0.8), 0.1).unwrap().verdict,
        Verdict::Same
    );
    assert!(change(&[1.0], &[2.0], 0.1).is_none());
}

/// The ratio judged is the ratio of the two figures shown, and its interval holds it.
#[test]
fn the_ratio_shown_is_the_ratio_of_the_medians_shown() {
    let old = [10.0, 11.0, 12.0, 13.0, 100.0, 9.0, 10.5, 11.5, 12.5, 10.2];
    let new = [20.0, 21.0, 19.0, 22.0, 20.5, 18.0, 23.0, 21.5, 19.5, 20.2];
    let ch = change(&old, &new, 0.1).unwrap();
    let med = |xs: &[f64]| Spread::of(xs.to_vec(), "trials/s").median;
    assert_eq!((ch.old, ch.new), (med(&old), med(&new)));
    assert_eq!(ch.ratio, ch.new / ch.old);
    assert!(ch.low <= ch.ratio && ch.ratio <= ch.high);
    assert!(ch.confidence >= CONFIDENCE);
}

fn bench(waited: f64, samples: &[f64], ratios: &[f64]) -> Bench {
    // Each run's times as its figure and the processor use say (2 threads, 2^20 trials).
    let runs = samples
        .iter()
        .map(|x| {
            let wall_s = f64::from(1 << 20) / x;
            Run {
                wall_s,
                cpu_s: Some(2.0 * wall_s * (1.0 - waited)),
                waited_s: Some(2.0 * wall_s * waited),
            }
        })
        .collect();
    Bench {
        schema: provenance::SCHEMA,
        build: Build::this(),
        date: "2026-11-29T00:00:00Z".into(),
        machine: Machine {
            cpu: "a test processor".into(),
            cpu_flags: Vec::new(),
            cores: 2,
            threads: 2,
            os: "test".into(),
            load_before: Some([0.1, 0.1, 0.1]),
            load_after: Some([2.0, 1.0, 0.5]),
        },
        plan: Plan {
            seconds: 1.0,
            repeats: 10,
            threads: None,
            only: Vec::new(),
            exact_names: Vec::new(),
            sampler: None,
            set: Vec::new(),
            trials: Vec::new(),
        },
        seconds_a_case: 1.0,
        repeats: 10,
        noise_bound: 0.1,
        cases: vec![CaseRow {
            case: "rally RF".into(),
            sampler: "table".into(),
            command: String::new(),
            setup_ms: 0.1,
            trials: 1 << 20,
            per_second: Spread::of(samples.to_vec(), "trials/s"),
            runs,
            warmup_runs: 1,
            recalibrated: false,
            cpu: Some(CpuUse {
                busy: 1.0 - waited,
                waited,
            }),
            reference: Some("hand loop: rally RF".into()),
            to_reference: Some(Spread::of(ratios.to_vec(), "ratio")),
            legacy_ratio_samples: Vec::new(),
        }],
        references: Vec::new(),
        exact: Vec::new(),
        mechanic: Vec::new(),
        mechanic_not_run: None,
        api: Vec::new(),
        warnings: Vec::new(),
    }
}

const STEADY: [f64; 10] = [
    100e6, 101e6, 99e6, 100.5e6, 99.5e6, 100.2e6, 99.8e6, 100.1e6, 99.9e6, 100.3e6,
];
const RATIOS: [f64; 10] = [2.0, 2.02, 1.98, 2.01, 1.99, 2.0, 2.005, 1.995, 2.0, 2.0];

fn verdicts(c: &Compared) -> Vec<String> {
    c.text
        .lines()
        .filter(|l| l.starts_with("rally RF"))
        .map(|l| {
            l.split("  ")
                .filter(|w| !w.is_empty())
                .last()
                .unwrap()
                .trim()
                .to_string()
        })
        .collect()
}

/// The same figures on a quiet machine both times: same, judged, nothing to fail on.
#[test]
fn the_same_figures_on_a_quiet_machine_are_the_same() {
    let a = bench(0.004, &STEADY, &RATIOS);
    let c = compare(
        std::slice::from_ref(&a),
        std::slice::from_ref(&a),
        (&[], &[]),
        0.1,
        None,
    )
    .unwrap();
    assert_eq!(verdicts(&c), vec!["same", "same"], "{}", c.text);
    assert!(
        c.regressions.is_empty() && c.unjudged.is_empty(),
        "{}",
        c.text
    );
    assert!(c.text.contains("verdict: every row judged"), "{}", c.text);
}

/// An exact solution timed on one side only is named, whichever side it is on (it was
/// dropped in silence when only the baseline had it).
#[test]
fn an_exact_row_on_one_side_only_is_named() {
    let mut old = bench(0.004, &STEADY, &RATIOS);
    old.exact.push(super::super::ExactRow {
        case: "exact rally RF 12 stands 24 turns".into(),
        command: String::new(),
        ms: Spread::of(vec![1.0; 10], "ms"),
        solves_a_run: 1,
        runs: Vec::new(),
        cpu: None,
    });
    let new = bench(0.004, &STEADY, &RATIOS);
    for (a, b, side) in [(&old, &new, "baseline"), (&new, &old, "new build")] {
        let c = compare(
            std::slice::from_ref(a),
            std::slice::from_ref(b),
            (&[], &[]),
            0.1,
            None,
        )
        .unwrap();
        assert!(
            c.text.contains(&format!(
                "exact rally RF 12 stands 24 turns (exact), in the {side} only"
            )),
            "{}",
            c.text
        );
    }
}

/// The case: a quiet baseline (0.4% waited), a run now with a busy core (38%) whose
/// rates fell to 0.63: unreliable, with why, never slower; nothing counted as a regression.
#[test]
fn a_side_measured_on_a_busy_machine_is_unreliable_not_slower() {
    let old = bench(0.004, &STEADY, &RATIOS);
    let new = bench(0.38, &STEADY.map(|x| x * 0.63), &RATIOS.map(|x| x * 0.8));
    for (o, n) in [(&old, &new), (&new, &old)] {
        let c = compare(
            std::slice::from_ref(o),
            std::slice::from_ref(n),
            (&[], &[]),
            0.1,
            Some(0.25),
        )
        .unwrap();
        let v = verdicts(&c);
        assert!(
            v.iter()
                .all(|v| v.starts_with("unreliable: threads waited")),
            "{}",
            c.text
        );
        assert!(c.regressions.is_empty() && c.dropped.is_empty());
        assert_eq!(c.unjudged.len(), 2);
        assert_eq!(c.unjudged_guarded.len(), 1);
    }
    let c = compare(std::slice::from_ref(&old), &[new], (&[], &[]), 0.1, None).unwrap();
    assert!(
        c.text
            .contains("unreliable: threads waited 38% now, 0.4% then"),
        "{}",
        c.text
    );
    // Both a little busy but apart by more than the allowed difference: unreliable too.
    let a = bench(0.045, &STEADY, &RATIOS);
    let c = compare(&[old], &[a], (&[], &[]), 0.1, None).unwrap();
    assert_eq!(c.unjudged.len(), 2, "{}", c.text);
}

fn calm_of(load: f64) -> Contention {
    Contention {
        waited: None,
        load: Some(load),
    }
}

#[test]
fn the_grounds_of_unreliable() {
    let quiet = Contention {
        waited: Some(0.004),
        load: Some(0.1),
    };
    assert_eq!(unreliable(quiet, quiet), None);
    let busy = Contention {
        waited: Some(0.06),
        ..quiet
    };
    assert!(unreliable(busy, busy).is_some());
    let apart = Contention {
        waited: Some(0.03),
        ..quiet
    };
    assert!(unreliable(quiet, apart).is_some());
    // No waited time recorded: the load at the start decides.
    let unknown = Contention {
        waited: None,
        load: Some(1.5),
    };
    assert_eq!(
        unreliable(quiet, unknown).unwrap(),
        "load 1.50 a core (no waited time recorded) now, threads waited 0.4% then"
    );
    // One side recorded its waiting, the other only its load: each judged by its own.
    assert!(unreliable(calm_of(0.2), busy).is_some());
    assert_eq!(unreliable(calm_of(0.2), quiet), None);
    let calm = Contention {
        waited: None,
        load: Some(0.2),
    };
    assert_eq!(unreliable(calm, calm), None);
}

/// Different threads, sampler or settings: refused, one line naming what differs.
#[test]
fn different_work_is_refused_naming_what_differs() {
    let old = bench(0.004, &STEADY, &RATIOS);
    let mut one = old.clone();
    one.machine.threads = 1;
    let e = compare(std::slice::from_ref(&old), &[one], (&[], &[]), 0.1, None).unwrap_err();
    assert!(e.is_bad_input());
    assert!(e.to_string().contains("threads: 2 then, 1 now"), "{e}");
    assert_eq!(e.to_string().lines().count(), 1);
    let mut turns = old.clone();
    turns.plan.set = vec!["turns=12".into()];
    let e = compare(
        std::slice::from_ref(&old),
        std::slice::from_ref(&turns),
        (&[], &[]),
        0.1,
        None,
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("settings: the cases' own then, turns=12 now"),
        "{e}"
    );
    assert_eq!(
        differs(&old, 2, &turns.plan).as_deref(),
        Some("settings: the cases' own then, turns=12 now")
    );
    let mut dice = old.clone();
    dice.plan.sampler = Some("dice".into());
    assert!(
        differs(&old, 2, &dice.plan)
            .unwrap()
            .contains("sampler: the default then, dice now")
    );
    // Rounds of one side must agree too.
    let e = compare(
        &[old.clone(), turns],
        std::slice::from_ref(&old),
        (&[], &[]),
        0.1,
        None,
    )
    .unwrap_err();
    assert!(e.to_string().contains("the baseline's files"), "{e}");
    assert_eq!(differs(&old, 2, &old.plan), None);
}

/// A real regression on a quiet machine: slower, counted (the command exits 1), and the
/// hand-loop drop caught by --fail-on-drop.
#[test]
fn a_real_regression_is_slower() {
    let old = bench(0.004, &STEADY, &RATIOS);
    let new = bench(0.006, &STEADY.map(|x| x / 2.0), &RATIOS.map(|x| x / 2.0));
    let c = compare(&[old], &[new], (&[], &[]), 0.1, Some(0.25)).unwrap();
    assert_eq!(verdicts(&c), vec!["slower", "slower"], "{}", c.text);
    assert_eq!(c.regressions.len(), 2);
    assert_eq!(c.dropped.len(), 1);
    assert!(c.unjudged.is_empty());
    assert!(c.text.contains("0.500 ("), "{}", c.text);
    assert!(c.text.contains("verdict: slower"), "{}", c.text);
}

/// The rows as data (`--format json`) are the tables' rows: each side's median in its unit,
/// the ratio judged and its interval, the verdict and why; an exact solution's old and new
/// are its own times (its ratio is a speed, old time over new).
#[test]
fn the_rows_as_data_are_the_rows_judged() {
    let mut old = bench(0.004, &STEADY, &RATIOS);
    let exact = |ms: f64| super::super::ExactRow {
        case: "exact rally RF 12 stands 24 turns".into(),
        command: String::new(),
        ms: Spread::of(vec![ms; 10], "ms"),
        solves_a_run: 1,
        runs: Vec::new(),
        cpu: None,
    };
    old.exact.push(exact(2.0));
    let mut new = bench(0.006, &STEADY.map(|x| x / 2.0), &RATIOS.map(|x| x / 2.0));
    new.exact.push(exact(1.0));
    let c = compare(&[old], &[new], (&[], &[]), 0.1, None).unwrap();
    let tables: Vec<&str> = c.rows.iter().map(|r| r.table).collect();
    assert_eq!(tables, vec!["speed", "hand_loop", "exact"]);
    let speed = &c.rows[0];
    assert_eq!(
        (speed.unit, speed.verdict, speed.why.as_deref()),
        ("trials/s", "slower", None)
    );
    assert_eq!(speed.ratio, Some(speed.new.unwrap() / speed.old.unwrap()));
    assert!(speed.low.unwrap() <= 0.5 && 0.5 <= speed.high.unwrap());
    let ms = &c.rows[2];
    assert_eq!((ms.unit, ms.old, ms.new), ("ms", Some(2.0), Some(1.0)));
    assert_eq!((ms.ratio, ms.verdict), (Some(2.0), "faster"));
    assert_eq!(ms.sampler, None);
    // A busy side: unreliable, with why, in the data as in the text.
    let busy = compare(
        &[bench(0.004, &STEADY, &RATIOS)],
        &[bench(0.38, &STEADY, &RATIOS)],
        (&[], &[]),
        0.1,
        None,
    )
    .unwrap();
    assert_eq!(busy.rows[0].verdict, "unreliable");
    assert!(
        busy.rows[0].why.as_deref().unwrap().contains("waited"),
        "{:?}",
        busy.rows[0]
    );
}

/// A run's figure of zero, below zero or not a number is refused as a damaged file (it was
/// judged: a negative rate "slower", a zero time "faster" with no ratio).
#[test]
fn a_figure_no_bench_could_measure_is_refused() {
    let good = bench(0.004, &STEADY, &RATIOS);
    let text = serde_json::to_string(&good).unwrap();
    assert!(parse(&text, "good.json").is_ok());
    for bad in [-1.0, 0.0] {
        let mut b = good.clone();
        b.cases[0].per_second.samples[0] = bad;
        let e = parse(&serde_json::to_string(&b).unwrap(), "bad.json").unwrap_err();
        assert!(e.to_string().contains("not a positive number"), "{e}");
    }
}

/// A saved result whose figures disagree with the runs it recorded beside them (a rate
/// halved, processor use set quiet, a run dropped) is refused as an edited file: each would
/// give a verdict of its own making.
#[test]
fn a_file_that_disagrees_with_its_own_runs_is_refused() {
    let good = bench(0.38, &STEADY, &RATIOS);
    assert!(parse(&serde_json::to_string(&good).unwrap(), "good.json").is_ok());
    let refused = |b: &Bench| {
        parse_as(&serde_json::to_string(b).unwrap(), "--to", "edited.json")
            .unwrap_err()
            .to_string()
    };
    let mut halved = good.clone();
    halved.cases[0].per_second.samples[3] /= 2.0;
    let e = refused(&halved);
    assert!(
        e.starts_with("--to edited.json: ") && e.contains("run 4 of 10"),
        "{e}"
    );
    let mut quiet = good.clone();
    quiet.cases[0].cpu = Some(CpuUse {
        busy: 1.0,
        waited: 0.0,
    });
    assert!(refused(&quiet).contains("processor use"));
    let mut dropped = good.clone();
    dropped.cases[0].runs.pop();
    assert!(refused(&dropped).contains("10 runs' figures and 9 runs' times"));
    // A file without runs' times (saved before they were recorded) is read as it was.
    let mut old = good;
    old.cases[0].runs.clear();
    old.cases[0].per_second.samples[3] /= 2.0;
    assert!(parse(&serde_json::to_string(&old).unwrap(), "old.json").is_ok());
}

/// Layout 3 (dirty as text, paired ratios as `ratio_samples`) is read and upgraded; an
/// unknown layout is refused in one line.
#[test]
fn an_older_layout_is_read_and_an_unknown_one_refused() {
    let mut v = serde_json::to_value(bench(0.004, &STEADY, &RATIOS)).unwrap();
    v["schema"] = 3.into();
    v["build"]["dirty"] = "false".into();
    let c = &mut v["cases"][0];
    c.as_object_mut().unwrap().remove("to_reference");
    c.as_object_mut().unwrap().remove("runs");
    c["ratio_samples"] = serde_json::json!([2.0, 2.1, 1.9, 2.0, 2.05]);
    c["ratio_to_reference"] = 2.0.into();
    let b = parse(&v.to_string(), "old.json").unwrap();
    assert_eq!(b.build.dirty, Some(false));
    let r = b.cases[0].to_reference.as_ref().unwrap();
    assert_eq!((r.median, r.unit.as_str()), (2.0, "ratio"));
    v["schema"] = 2.into();
    let e = parse(&v.to_string(), "old.json").unwrap_err();
    assert!(
        e.to_string().contains("layout 2") && e.is_bad_input(),
        "{e}"
    );
    assert_eq!(e.to_string().lines().count(), 1);
    let e = parse("not json", "x.json").unwrap_err();
    assert_eq!(e.to_string().lines().count(), 1);
}

/// A hand loop whose own threads waited for a core (its file records it) makes the ratio to it
/// unreliable, though the case's runs were quiet: the speed row is judged, the ratio is not.
#[test]
fn a_busy_hand_loop_makes_its_ratio_unreliable() {
    let old = bench(0.004, &STEADY, &RATIOS);
    let mut new = bench(0.004, &STEADY, &RATIOS);
    new.references.push(ReferenceRow {
        reference: "hand loop: rally RF".into(),
        case: "rally RF".into(),
        trials: 1 << 20,
        per_second: Spread::of(STEADY.to_vec(), "trials/s"),
        runs: Vec::new(),
        cpu: Some(CpuUse {
            busy: 0.62,
            waited: 0.38,
        }),
        checked_against: "exact solution".into(),
    });
    let c = compare(
        std::slice::from_ref(&old),
        std::slice::from_ref(&new),
        (&[], &[]),
        0.1,
        None,
    )
    .unwrap();
    let v = verdicts(&c);
    assert_eq!(v[0], "same", "{}", c.text);
    assert!(
        v[1].starts_with("unreliable: threads waited 38% now"),
        "{}",
        c.text
    );
    assert_eq!(c.unjudged_guarded.len(), 1, "{}", c.text);
}

/// A mechanic file's speed is judged as a built-in case's is: the same figures are the same, a
/// file at half its speed is slower, and one measured while the machine was busy is
/// unreliable; a file on one side only is named.
#[test]
fn a_mechanic_file_row_is_judged_like_a_case() {
    let with = |waited: f64, samples: &[f64]| {
        let mut b = bench(0.004, &STEADY, &RATIOS);
        b.mechanic.push(super::super::MechanicRow {
            case: "first rally".into(),
            setup_ms_file: 1.0,
            setup_ms_built_in: 1.0,
            per_second_file: Spread::of(samples.to_vec(), "trials/s"),
            per_second_built_in: Spread::of(STEADY.to_vec(), "trials/s"),
            ratio: 1.0,
            cpu_file: Some(CpuUse {
                busy: 1.0 - waited,
                waited,
            }),
        });
        b
    };
    let row = |c: &Compared| {
        c.rows
            .iter()
            .find(|r| r.sampler.as_deref() == Some("mechanic file"))
            .cloned()
            .expect("a mechanic row")
    };
    let old = with(0.004, &STEADY);
    let same = compare(
        std::slice::from_ref(&old),
        std::slice::from_ref(&old),
        (&[], &[]),
        0.1,
        None,
    )
    .unwrap();
    assert_eq!(row(&same).verdict, "same", "{}", same.text);
    assert!(same.text.contains("first rally"), "{}", same.text);
    let half = with(0.004, &STEADY.map(|x| x / 2.0));
    let slower = compare(
        std::slice::from_ref(&old),
        std::slice::from_ref(&half),
        (&[], &[]),
        0.1,
        None,
    )
    .unwrap();
    assert_eq!(row(&slower).verdict, "slower", "{}", slower.text);
    assert!(
        slower
            .regressions
            .iter()
            .any(|r| r.contains("first rally (mechanic file)"))
    );
    let busy = with(0.40, &STEADY.map(|x| x / 2.0));
    let judged = compare(std::slice::from_ref(&old), &[busy], (&[], &[]), 0.1, None).unwrap();
    assert_eq!(row(&judged).verdict, "unreliable", "{}", judged.text);
    // Run by one side only: named.
    let plain = bench(0.004, &STEADY, &RATIOS);
    let c = compare(&[old], &[plain], (&[], &[]), 0.1, None).unwrap();
    assert!(
        c.not_compared
            .iter()
            .any(|m| m == "first rally (mechanic file), in the baseline only"),
        "{:?}",
        c.not_compared
    );
}
