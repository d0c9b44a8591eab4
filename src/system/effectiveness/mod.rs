//! The 25% effectiveness house rule (EF-1 to EF-5) as the command line and experiments see it:
//! what it is ([`About`]) and, for each scenario, the file that builds its job from a [`Ctx`].
//! Its tables (parameters, rule parameters, optional rules, among them the retreat amendment)
//! are in `params.rs`, its units in `unit.rs`.

pub mod army;
mod cases;
pub mod invariants;
pub mod melee;
pub mod odds;
mod params;
pub mod rally;
mod reference;
pub mod rules;
pub mod test;
pub mod under_fire;
mod unit;

use crate::error::Result;
use crate::odds::Odds;
use crate::params::{Input, Resolved};
use crate::scenario::{Job, Scenario};

use super::{About, RuleSystem, Setup};
use params::Rules;
pub use params::{
    HOLES, NAME, NOT_MODELLED, OPTIONS, PARAMS, Params, RULES, SCENARIOS, SPEC_KEYWORDS, Switches,
};

/// What every effectiveness job is built from: the scenario, every parameter in force (typed
/// in `p`), the optional rules switched on.
pub(super) struct Ctx<'a> {
    /// The system, the scenario, every parameter in force and the optional rules' names.
    pub setup: Setup<'a>,
    /// The parameters, typed.
    pub p: Params,
    /// The optional rules switched on.
    pub on: Switches,
}

/// The 25% effectiveness house rule (EF-1 to EF-5), with its retreat amendment as an option.
#[derive(Debug, Clone, Copy, Default)]
pub struct Effectiveness;

/// What Effectiveness is, for `list` and the registry.
static ABOUT: About = About {
    name: NAME,
    title: "The 25% effectiveness house rule (tests, melee, blocked retreats), with the retreat amendment as an option",
    rules: "EF-1 to EF-5",
    scenarios: SCENARIOS,
    params: &PARAMS,
    rule_params: &RULES,
    options: &OPTIONS,
    holes: HOLES,
    specs: SPEC_KEYWORDS,
    bench: cases::CASES,
    exact_bench: cases::EXACT_CASES,
    references: &[reference::UNDER_FIRE, reference::MELEE],
    helps: &[],
    edge_specs: &[
        (
            "elite general supported dice=20",
            "elite general supported dice=20",
        ),
        ("poor lost=3 dice=1", "poor lost=3 dice=1"),
    ],
    not_modelled: NOT_MODELLED,
};

impl RuleSystem for Effectiveness {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn defaults(&self, scenario: Scenario, _inputs: &[Input]) -> Vec<(&'static str, String)> {
        if scenario == Scenario::Rally {
            vec![("state", "retreating".into())]
        } else {
            Vec::new()
        }
    }
    fn build(&self, scenario: Scenario, p: &Resolved, options: &[String]) -> Result<Box<dyn Job>> {
        let ctx = Ctx {
            setup: Setup {
                system: NAME,
                not_modelled: NOT_MODELLED,
                scenario,
                resolved: p,
                options,
            },
            p: Params::read(p)?,
            on: Switches::read(options),
        };
        match scenario {
            Scenario::Test => test::job(&ctx),
            Scenario::Rally => rally::job(&ctx),
            Scenario::UnderFire => under_fire::job(&ctx),
            Scenario::Melee => melee::job(&ctx),
            Scenario::Engagement | Scenario::Line => army::job(&ctx),
            other => Err(other.unsupported(NAME, SCENARIOS)),
        }
    }
    fn odds(&self, ask: &crate::odds::OddsAsk, rules: &Resolved) -> Result<Odds> {
        ask.only(
            "effectiveness",
            &[],
            "its units have no stands (losses are in quarters of effectiveness), and its tables are by class and modifiers",
        )?;
        let rules = Rules::read(rules)?;
        Ok(odds::effectiveness(rules.numbers, rules.q.return_on))
    }
}
