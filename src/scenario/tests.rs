//! Tests of `scenario`, kept beside it.

use super::*;

/// Outcomes, metrics and tables name the classes they read; the names resolve to the
/// chain's own indices, and a name the chain does not have stops the build, naming the
/// classes there are.
#[test]
fn classes_are_named_not_numbered() {
    let c = &crate::scenario::test::TEST_CLASSES;
    assert_eq!(class_index(c, "pass"), 0);
    assert_eq!(class_index(c, "fail"), 1);
    let o = OutcomeDef::of(c, "any", &["fail", "pass"]);
    assert_eq!((o.name, o.classes), ("any", vec![1, 0]));
    let each = OutcomeDef::each(c, &["fail", "pass"]);
    assert_eq!(each[0].classes, vec![1]);
    assert_eq!(each[1].name, "pass");
    assert_eq!(
        MetricDef::absorb_turn(c, "m", "fail", ""),
        MetricDef::AbsorbTurn {
            name: "m",
            class: 1,
            meaning: ""
        }
    );
    let t = TableDef::absorb(c, "t", "T", &[("at", "fail", false), ("by", "pass", true)]);
    assert_eq!(
        t,
        TableDef::Absorb {
            name: "t",
            title: "T",
            columns: vec![("at", 1, false), ("by", 0, true)]
        }
    );
    let typo = std::panic::catch_unwind(|| class_index(c, "passed")).unwrap_err();
    let message = typo.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("'passed'") && message.contains("pass, fail"),
        "{message}"
    );
}
use crate::system::effectiveness::rules::{Class, Unit};
use crate::system::effectiveness::test::EfTest;

#[test]
fn a_job_compiles_its_tables_once_and_runs_alike_from_them() {
    let job = ChainJob::new(
        EfTest {
            unit: Unit {
                class: Class::Regular,
                general: false,
                supported: false,
                natural_one_fails: false,
                return_on: 5,
                troop: crate::system::effectiveness::rules::Troop::Infantry,
                return_roll: true,
                retreat_turns: 1,
                numbers: Default::default(),
            },
        },
        Describe {
            system: "effectiveness".into(),
            scenario: "test".into(),
            params: Map::new(),
            options: vec![],
            notes: vec![],
            ..Default::default()
        },
        OutcomeDef::each(&crate::scenario::test::TEST_CLASSES, &["pass", "fail"]),
        vec![],
        vec![],
    );
    let first = job.sim(Sampler::Table);
    assert!(std::ptr::eq(first, job.sim(Sampler::Table)));
    assert_eq!(first.sampler(), Sampler::Table);
    assert_eq!(job.sim(Sampler::Dice).sampler(), Sampler::Dice);
    let options = RunOptions {
        spec: RunSpec {
            trials: 100_000,
            seed: 7,
            stream: 0,
            threads: Some(2),
        },
        confidence: 0.95,
        exact_only: false,
        sampler: Sampler::Table,
        precision: None,
        exact_budget: None,
        exact_work: None,
    };
    let chunks = 0..options.spec.chunks();
    let a = job
        .tally(&options, chunks.clone(), &Control::new())
        .unwrap();
    let b = job
        .tally(&options, chunks.clone(), &Control::new())
        .unwrap();
    // A fresh job (tables compiled anew) draws exactly the same trials.
    let fresh = ChainJob::new(
        job.chain.clone(),
        job.describe.clone(),
        job.outcomes.clone(),
        vec![],
        vec![],
    );
    assert_eq!(a, b);
    assert_eq!(a, fresh.tally(&options, chunks, &Control::new()).unwrap());
}
