//! The Age of Linear Warfare (LW-1 to LW-7) as the command line and experiments see it: what it
//! is ([`About`]) and, for each scenario, the file that builds its job from a [`Ctx`]. Its tables
//! (parameters, rule parameters, optional rules) are in `params.rs`, its unit specs in `unit.rs`.

pub mod army;
mod cases;
pub mod invariants;
pub mod melee;
pub mod odds;
mod params;
mod reference;
pub mod rules;
pub mod test;
pub mod under_fire;
mod unit;

use crate::error::Result;
use crate::odds::Odds;
use crate::params::{Input, Resolved, Source};
use crate::scenario::{Job, Scenario};

use super::{About, RuleSystem, Setup, Size};
use params::{FIRE_RANGE, numbers};
pub use params::{
    HOLES, NAME, NOT_MODELLED, OPTIONS, PARAMS, Params, RULES, RuleParams, SCENARIOS,
    SPEC_KEYWORDS, Switches,
};
use rules::{self as lw, UnitType};

/// What every Linear Warfare job is built from: the scenario, every parameter in force (typed
/// in `p` and `q`), the rules' numbers, the optional rules switched on.
pub(super) struct Ctx<'a> {
    /// The system, the scenario, every parameter in force and the optional rules' names.
    pub setup: Setup<'a>,
    /// The parameters, typed.
    pub p: Params,
    /// The rule parameters, typed.
    pub q: RuleParams,
    /// LW-1 to LW-7's numbers, from `q`.
    pub n: lw::Numbers,
    /// The optional rules switched on.
    pub on: Switches,
}

/// The Age of Linear Warfare (LW-1 to LW-7): pips, fire, the opposed-roll melee with follow-up, falling back, generals.
#[derive(Debug, Clone, Copy, Default)]
pub struct LinearWarfare;

/// What LinearWarfare is, for `list` and the registry.
static ABOUT: About = About {
    name: NAME,
    title: "The Age of Linear Warfare: pips, fire, opposed-roll melee with follow-up, falling back",
    rules: "LW-1 to LW-7",
    scenarios: SCENARIOS,
    params: &PARAMS,
    rule_params: &RULES,
    options: &OPTIONS,
    holes: HOLES,
    specs: SPEC_KEYWORDS,
    bench: cases::CASES,
    exact_bench: cases::EXACT_CASES,
    references: &[reference::UNDER_FIRE, reference::MELEE, reference::LINE],
    helps: &[(Scenario::Test, TEST_HELP)],
    edge_specs: &[
        (
            "guards pips=12 stands=24 double-move general",
            "guards pips=12 stands=24 obstacle general",
        ),
        (
            "cavalry pips=12 double-move general",
            "cavalry pips=12 general",
        ),
        ("light pips=2 stands=1", "light pips=1 stands=1"),
    ],
    not_modelled: NOT_MODELLED,
};

/// What one test is under Linear Warfare: no morale test, an opposed round or a volley.
pub const TEST_HELP: &str =
    "One opposed melee round (LW-4) or one volley (LW-2): the chance of each result";

/// What a points budget buys of a Linear Warfare unit: stands, a fire die each (LW-2), or pips
/// (LW-1), the type's number otherwise.
static SIZES: [Size; 2] = [
    Size {
        key: "stands",
        one: "stand",
        min: 1,
        max: 24,
        rule: "LW-2",
    },
    Size {
        key: "pips",
        one: "pip",
        min: 1,
        max: 12,
        rule: "LW-1",
    },
];

impl RuleSystem for LinearWarfare {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn sizes(&self) -> &'static [Size] {
        &SIZES
    }
    fn defaults(&self, scenario: Scenario, inputs: &[Input]) -> Vec<(&'static str, String)> {
        // The pips default to the type's (LW-1), as the rule parameters give them.
        let kind = inputs
            .iter()
            .rev()
            .find(|i| i.key == "type" && i.source != Source::Rule)
            .and_then(|i| UnitType::parse(i.value.trim()))
            .unwrap_or(UnitType::Line);
        let key = format!("pips_{}", kind.name());
        let type_pips = inputs
            .iter()
            .rev()
            .find(|i| i.source == Source::Rule && i.key == key)
            .map_or_else(|| kind.pips().to_string(), |i| i.value.trim().to_string());
        let mut defaults = vec![("pips", type_pips)];
        if scenario.is_battle() {
            // LW-2: infantry fire at "Range 25cm", one line-infantry move (LW-1).
            defaults.push(("fire_range", FIRE_RANGE.to_string()));
        }
        defaults
    }
    fn build(&self, scenario: Scenario, p: &Resolved, options: &[String]) -> Result<Box<dyn Job>> {
        let q = RuleParams::read(p)?;
        let ctx = Ctx {
            setup: Setup {
                system: NAME,
                not_modelled: NOT_MODELLED,
                scenario,
                resolved: p,
                options,
            },
            p: Params::read(p)?,
            n: numbers(&q),
            q,
            on: Switches::read(options),
        };
        match scenario {
            Scenario::Test => test::job(&ctx),
            Scenario::UnderFire => under_fire::job(&ctx),
            Scenario::Melee => melee::job(&ctx),
            Scenario::Engagement | Scenario::Line => army::job(&ctx),
            other => Err(other.unsupported(NAME, SCENARIOS)),
        }
    }
    fn odds(&self, ask: &crate::odds::OddsAsk, rules: &Resolved) -> Result<Odds> {
        ask.only(
            "linear-warfare",
            &[],
            "its tables are melee rounds by modifier difference and volleys of 1 to 6 dice",
        )?;
        let mut sheet = odds::linear_warfare(numbers(&RuleParams::read(rules)?));
        // Its tables are melee rounds and volleys: what a melee leaves out bears on them.
        sheet
            .notes
            .extend(super::sheet_left_out(NOT_MODELLED, &[Scenario::Melee]));
        Ok(sheet)
    }
}
