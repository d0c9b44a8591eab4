//! The registry grows at run time: a rule system made by the program (as a system read from a
//! file will be) is found by name by everything that finds the built-in ones. Its own test
//! binary, so that the system it registers is never seen by the other tests.

use morale_lab::params::Resolved;
use morale_lab::system::{self, About, RuleSystem};
use morale_lab::{Control, Error, RunOptions, Scenario};

/// A system made at run time: Rank & File's rules under another name, reached through the
/// registry as a system from a file would reach its own code.
struct House {
    about: &'static About,
    rules: &'static dyn RuleSystem,
}

impl RuleSystem for House {
    fn about(&self) -> &'static About {
        self.about
    }
    fn defaults(
        &self,
        scenario: Scenario,
        inputs: &[morale_lab::params::Input],
    ) -> Vec<(&'static str, String)> {
        self.rules.defaults(scenario, inputs)
    }
    fn build(
        &self,
        scenario: Scenario,
        p: &Resolved,
        options: &[String],
    ) -> morale_lab::Result<Box<dyn morale_lab::Job>> {
        self.rules.build(scenario, p, options)
    }
    fn odds(
        &self,
        ask: &morale_lab::odds::OddsAsk,
        rules: &Resolved,
    ) -> morale_lab::Result<morale_lab::odds::Odds> {
        self.rules.odds(ask, rules)
    }
}

fn house(name: &'static str) -> &'static House {
    let rules = system::find("rank-and-file").unwrap();
    Box::leak(Box::new(House {
        // Leaked once, as a loaded system's description would be: it lives as long as the
        // process.
        about: Box::leak(Box::new(About {
            name,
            title: "house rules: Rank & File under another name",
            ..*rules.about()
        })),
        rules,
    }))
}

/// One test, in order: the registry starts with the built-in systems; a new one is added
/// after them and found by `find`, `job`, `odds` and an experiment file; a second system of a
/// name already there, built-in or not, is refused with a message naming it.
#[test]
fn a_system_registered_at_run_time_is_found_everywhere() {
    let names = || -> Vec<&str> { system::systems().iter().map(|s| s.name()).collect() };
    let built_in: Vec<&str> = system::BUILT_IN.iter().map(|s| s.name()).collect();
    assert_eq!(names(), built_in);
    assert!(system::find("house-rules").is_err());

    system::register(house("house-rules")).unwrap();
    let mut want = built_in.clone();
    want.push("house-rules");
    assert_eq!(names(), want);
    assert_eq!(system::find("house-rules").unwrap().name(), "house-rules");

    // A run of it, as the library's callers make one.
    let job = morale_lab::job("house-rules", "rally", &[("class", "regular")], &[]).unwrap();
    let report = job
        .run(&RunOptions::new(20_000, 7), &Control::new())
        .unwrap();
    assert_eq!(report.trials, 20_000);
    // Its odds sheet and its unknown keys go through the registry too.
    assert!(
        system::odds(
            "house-rules",
            &morale_lab::odds::OddsAsk {
                max_lost: Some(3),
                ..Default::default()
            },
            &[]
        )
        .is_ok()
    );
    let bad = morale_lab::job("house-rules", "rally", &[("no_such_key", "1")], &[]);
    assert!(bad.is_err());

    // An experiment naming it.
    let text = r#"
name = "house"
question = "Does the house system run from a file?"
scenario = "rally"
seed = 1
trials = 1000
[[variant]]
name = "house"
system = "house-rules"
"#;
    let e = morale_lab::experiment::Experiment::parse("house.toml", text).unwrap();
    assert_eq!(e.variants.len(), 1);

    // Names are unique: the same again, or a built-in one's, is refused naming it.
    for name in ["house-rules", "rank-and-file"] {
        let err = system::register(house(name)).unwrap_err();
        assert!(matches!(err, Error::Conflict(_)), "{err}");
        assert!(err.to_string().contains(name), "{err}");
    }
    assert_eq!(names(), want, "nothing added by a refusal");
}
