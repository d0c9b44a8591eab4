//! Rank & File as the command line and experiments see it: its parameters, optional rules, and
//! how they become a runnable scenario.

pub mod army;
mod cases;
pub mod invariants;
pub mod melee;
pub mod odds;
pub mod rally;
pub mod rules;
pub mod test;
pub mod under_fire;

use crate::error::{Error, Result};
use crate::params::{self, Input, Kind, Resolved};
use crate::scenario::{ChainJob, EMPTY_TURNS, Job, MetricDef, OutcomeDef, Scenario, TableDef};
use army::RfArmy;
use melee::{Charge, MeleeSetup, RfFight};
use rally::{RALLY_REMOVALS, RfRally, removal_metrics};
use rules as rf;
use test::RfTest;
use under_fire::{RfUnderFire, UNDER_FIRE_REMOVALS, UnderFireRules};

use super::shared::{self, BattleParams, BattleSetup, FireParams, SideSpec, describe, fire_model};
use super::{About, RuleSystem};
use crate::frac::Frac;
use crate::odds::Odds;

/// The system's name.
pub const NAME: &str = "rank-and-file";

/// The scenarios Rank & File has.
pub const SCENARIOS: &[Scenario] = &[
    Scenario::Test,
    Scenario::Rally,
    Scenario::UnderFire,
    Scenario::Melee,
    Scenario::Charge,
    Scenario::Engagement,
    Scenario::Line,
];

const ALL: &[Scenario] = &[Scenario::Test, Scenario::Rally, Scenario::UnderFire];
const FIGHT: &[Scenario] = &[
    Scenario::Melee,
    Scenario::Charge,
    Scenario::Engagement,
    Scenario::Line,
];
const CHARGE: &[Scenario] = &[Scenario::Charge];
const CHARGES: &[Scenario] = &[Scenario::Charge, Scenario::Engagement, Scenario::Line];
const TURNED: &[Scenario] = &[
    Scenario::Rally,
    Scenario::UnderFire,
    Scenario::Engagement,
    Scenario::Line,
];
const FIRE: &[Scenario] = &[Scenario::UnderFire];
const FIRE_BATTLE: &[Scenario] = &[Scenario::UnderFire, Scenario::Engagement, Scenario::Line];

/// Which states leave a hole in the line, and why (for `list` and reports).
pub const HOLES: &str = "unsteady (it retires, RF-4), routing and removed";

crate::params::param_table! {
/// Every parameter of Rank & File's scenarios.
    pub static PARAMS;
    /// Rank & File's parameters, typed, read once when a scenario is built.
    pub struct Params;
    /// How each of Rank & File's parameters was set.
    how ParamsHow;
    class: rf::Class {
            flag: Some("--class"),
            kind: Kind::Choice(&["veteran", "regular", "green"]),
            default: "regular",
            meaning: "morale class: the base number a test must reach (veteran 3, regular 4, green 5)",
            rule: "RF-1",
            scenarios: ALL,
    },
    kind: rf::Kind {
            flag: None,
            kind: Kind::Choice(&["formed", "artillery", "elephant", "wagon", "machine-gun"]),
            default: "formed",
            meaning: "formed unit of stands, or a single stand (no casualty modifier, no 50% rule, hit points per model)",
            rule: "RF-7",
            scenarios: ALL,
    },
    stands: u8 {
            flag: Some("--stands"),
            kind: Kind::Int { min: 1, max: 40 },
            default: "8",
            meaning: "starting stands of a formed unit; gun models (at most 8) of a single stand",
            rule: "RF-2, RF-3, RF-7",
            scenarios: ALL,
    },
    lost: u8 {
            flag: Some("--lost"),
            kind: Kind::Int { min: 0, max: 39 },
            default: "0",
            meaning: "stands (or models) already lost; −1 per stand on every test of a formed unit",
            rule: "RF-2, RF-3",
            scenarios: ALL,
    },
    state: rf::Status {
            flag: Some("--state"),
            kind: Kind::Choice(&["good", "unsteady", "routing"]),
            default: "good",
            meaning: "morale state at the start (rally defaults to routing)",
            rule: "RF-4",
            scenarios: ALL,
    },
    leader: i8 {
            flag: Some("--leader"),
            kind: Kind::Int { min: -3, max: 3 },
            default: "0",
            meaning: "bonus of the attached leader added to every test (commonly +1; 0 = none)",
            rule: "RF-2",
            scenarios: ALL,
    },
    elite: bool {
            flag: Some("--elite"),
            kind: Kind::Bool,
            default: "false",
            meaning: "an Elite unit: it may re-roll a failed test, elite_rerolls times in the battle",
            rule: "RF-6",
            scenarios: ALL,
    },
    rerolls: u8 {
            flag: Some("--rerolls"),
            kind: Kind::Int { min: 0, max: 9 },
            default: "0",
            meaning: "re-rolls left to the attached commander for the battle; each failed test spends one (after Elite's own)",
            rule: "RF-6",
            scenarios: ALL,
    },
    in_buildings: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "the unit is in buildings and gets buildings_bonus on every test",
            rule: "RF-2",
            scenarios: ALL,
    },
    modifier: i8 {
            flag: None,
            kind: Kind::Int { min: -5, max: 5 },
            default: "0",
            meaning: "any other situational modifier (charging etc.) on morale and waiver tests; rally tests take only the leader, buildings and losses (RF-5)",
            rule: "RF-2",
            scenarios: ALL,
    },
    turns: u32 {
            flag: Some("--turns"),
            kind: Kind::Int { min: 1, max: 1000 },
            default: "12",
            meaning: "turn cap (rally) or turns of fire (under-fire)",
            rule: "§4",
            scenarios: TURNED,
    },
    fire_dice: u32 {
            flag: None,
            kind: Kind::Int { min: 0, max: 200 },
            default: "4",
            meaning: "dice the enemy fires each turn; each hit is one stand (one hit on a single stand)",
            rule: "§4",
            scenarios: FIRE_BATTLE,
    },
    fire_to_hit: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 6 },
            default: "6",
            meaning: "the roll each fire die needs to hit",
            rule: "§4",
            scenarios: FIRE_BATTLE,
    },
    fire_loss: Vec<Frac> {
            flag: None,
            kind: Kind::Dist,
            default: "",
            meaning: "instead of dice: chances of losing 0, 1, 2 … stands a turn, e.g. 1/2,1/3,1/6",
            rule: "§4",
            scenarios: FIRE_BATTLE,
    },
    fire_on_shaken: String {
            flag: None,
            kind: Kind::Choice(&["all", "unsteady", "none"]),
            default: "all",
            meaning: "whom the enemy keeps firing at once shaken: unsteady and routing (all), unsteady only, or neither",
            rule: "§4",
            scenarios: FIRE,
    },
    attacker: String {
            flag: Some("--attacker"),
            kind: Kind::Spec(UNIT_SPEC),
            default: "regular infantry",
            meaning: "the attacking (charging) unit: class, troops and keywords (see Unit specs)",
            rule: "RF-9, RF-10, RF-11, RF-12",
            scenarios: FIGHT,
    },
    defender: String {
            flag: Some("--defender"),
            kind: Kind::Spec(UNIT_SPEC),
            default: "regular infantry",
            meaning: "the defending (charged) unit, as --attacker",
            rule: "RF-9, RF-10",
            scenarios: FIGHT,
    },
    max_rounds: u32 {
            flag: None,
            kind: Kind::Int { min: 2, max: 1000 },
            default: "200",
            meaning: "safety cap on drawn rounds: a melee not certain to end by then is an error",
            rule: "RF-9",
            scenarios: FIGHT,
    },
    charge_from: String {
            flag: None,
            kind: Kind::Choice(&["front", "flank", "rear"]),
            default: "front",
            meaning: "where the charge strikes the target (flank and rear trigger waiver tests)",
            rule: "RF-10",
            scenarios: CHARGE,
    },
    pursue: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "a charger whose target routed in its waiver test pursues it and, contacting it, destroys it (reported as target_caught)",
            rule: "RF-10",
            scenarios: CHARGES,
    },
    era: rf::Era {
            flag: None,
            kind: Kind::Choice(&["horse-and-musket", "industrial"]),
            default: "horse-and-musket",
            meaning: "the period: in the industrial age shock cavalry cause no waiver test when charging frontally",
            rule: "RF-10",
            scenarios: CHARGES,
    },
}

crate::params::param_table! {
    /// Rank & File's rule parameters: the numbers of its rules, each defaulting to the
    /// source's value (`--rule KEY=VALUE`).
    pub static RULES;
    /// Rank & File's rule parameters, typed.
    pub struct RuleParams;
    /// How each rule parameter was set.
    how RuleParamsHow;
    base_veteran: i8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 8 },
            default: "3",
            meaning: "the base number a Veteran unit's test must reach before modifiers",
            rule: "RF-1",
            scenarios: SCENARIOS,
    },
    base_regular: i8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 8 },
            default: "4",
            meaning: "the base number a Regular unit's test must reach before modifiers",
            rule: "RF-1",
            scenarios: SCENARIOS,
    },
    base_green: i8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 8 },
            default: "5",
            meaning: "the base number a Green unit's test must reach before modifiers",
            rule: "RF-1",
            scenarios: SCENARIOS,
    },
    loss_modifier: i8 {
            flag: None,
            kind: Kind::Int { min: -3, max: 0 },
            default: "-1",
            meaning: "the modifier per stand lost on a formed unit's tests",
            rule: "RF-2",
            scenarios: SCENARIOS,
    },
    always_passes: u8 {
            flag: None,
            kind: Kind::Int { min: 2, max: 7 },
            default: "6",
            meaning: "a natural roll at or above this always passes a test (7: none does)",
            rule: "RF-2",
            scenarios: SCENARIOS,
    },
    always_fails: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 5 },
            default: "1",
            meaning: "a natural roll at or below this always fails a test (0: none does); below always_passes",
            rule: "RF-2",
            scenarios: SCENARIOS,
    },
    break_fraction: Frac {
            flag: None,
            kind: Kind::Prob,
            default: "1/2",
            meaning: "the 50% rule's threshold: a formed unit with lost stands at least this fraction of its starting stands fails every test and, routing, is dispersed (above 0; 1: only when no stand is left)",
            rule: "RF-3",
            scenarios: SCENARIOS,
    },
    rally_loss: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "stands a routing unit loses when it fails its rally test (and, under routing_fail = rout-again, a morale test)",
            rule: "RF-5",
            scenarios: SCENARIOS,
    },
    routing_fail: rf::RoutingFail {
            flag: None,
            kind: Kind::Choice(&["rout-again", "removed", "no-effect"]),
            default: "rout-again",
            meaning: "a Routing unit that fails a morale test: routs on and loses another stand (then the 50% rule), is removed, or nothing more (the sources are silent)",
            rule: "RF-4",
            scenarios: SCENARIOS,
    },
    elite_rerolls: rf::EliteRerolls {
            flag: None,
            kind: Kind::Choice(&rf::EliteRerolls::NAMES),
            default: "1",
            meaning: "re-rolls an Elite unit has in the battle, spent before the commander's, at most one a test: 1 to 9, or unlimited (the source gives no number)",
            rule: "RF-6",
            scenarios: SCENARIOS,
    },
    buildings_bonus: i8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "the in-buildings bonus (the source gives no number)",
            rule: "RF-2",
            scenarios: SCENARIOS,
    },
    hit_points: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 10 },
            default: "3",
            meaning: "hits each model of a single stand takes before it is lost (4 for an 8-gun battery's models)",
            rule: "RF-7",
            scenarios: SCENARIOS,
    },
    to_hit: u8 {
            flag: None,
            kind: Kind::Int { min: 2, max: 6 },
            default: "4",
            meaning: "the roll a melee die needs before modifiers (not in the source excerpts)",
            rule: "RF-9",
            scenarios: SCENARIOS,
    },
    hits_per_stand: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 6 },
            default: "1",
            meaning: "melee hits that make one casualty stand (short hits carry to the next round)",
            rule: "RF-9",
            scenarios: SCENARIOS,
    },
    six_always_hits: bool {
            flag: None,
            kind: Kind::Bool,
            default: "true",
            meaning: "a natural 6 always hits in melee",
            rule: "RF-9",
            scenarios: SCENARIOS,
    },
    auto_rout_on_win: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "the winner routs the loser outright instead of dropping it a level",
            rule: "RF-9",
            scenarios: SCENARIOS,
    },
    rerolls_per_test: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 3 },
            default: "1",
            meaning: "re-rolls a unit may take on one test, each of a failed roll, while it has any (the source: never more than one)",
            rule: "RF-6",
            scenarios: SCENARIOS,
    },
    stampede_on: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 6 },
            default: "2",
            meaning: "with --option elephant-stampede: an elephant that fails a morale or waiver test stampedes on a D6 at or below this (0: never)",
            rule: "RF-8",
            scenarios: SCENARIOS,
    },
    cavalry_vs_elephants: u8 {
            flag: None,
            kind: Kind::Int { min: 2, max: 7 },
            default: "6",
            meaning: "the roll cavalry need to hit elephants in melee, whatever their modifiers (7: they cannot)",
            rule: "RF-9",
            scenarios: SCENARIOS,
    },
    blown_penalty: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "with --option blown-cavalry: how much worse a Blown unit's melee to-hit roll is",
            rule: "RF-11",
            scenarios: SCENARIOS,
    },
    break_point: u32 {
            flag: None,
            kind: Kind::Int { min: 1, max: 100 },
            default: "50",
            meaning: "line: a side breaks when this percentage of its units (supports included) is gone (the sources give no number)",
            rule: "RF-13",
            scenarios: SCENARIOS,
    },
}

/// The rule parameters, typed and checked against each other, as the rules code takes them.
struct Rules {
    /// Every rule parameter, typed.
    q: RuleParams,
    /// RF-1 to RF-8's numbers, carried in every unit.
    numbers: rf::Numbers,
}

impl Rules {
    /// Read and check the rule parameters of `r`.
    ///
    /// # Errors
    /// [`Error::Conflict`] for `always_fails` not below `always_passes`; [`Error::Invalid`] for a
    /// `break_fraction` of 0 (every unit would start broken).
    fn read(r: &Resolved) -> Result<Rules> {
        let q = RuleParams::read(r)?;
        if q.always_fails >= q.always_passes {
            return Err(Error::Conflict(format!(
                "{} = {} and {} = {} leave no roll to the modifiers: always_fails must be below always_passes",
                q.how.always_fails, q.always_fails, q.how.always_passes, q.always_passes
            )));
        }
        let f = q.break_fraction;
        if f.num == 0 || f.den > u64::from(u16::MAX) {
            return Err(Error::Invalid {
                what: q.how.break_fraction.what.clone(),
                value: f.to_string(),
                allowed: "allowed: a fraction above 0 and at most 1, e.g. 1/2 or 2/3".into(),
            });
        }
        let numbers = rf::Numbers {
            base: [q.base_veteran, q.base_regular, q.base_green],
            loss_modifier: q.loss_modifier,
            always_passes: q.always_passes,
            always_fails: q.always_fails,
            break_fraction: (f.num as u16, f.den as u16),
            rally_loss: q.rally_loss,
            rerolls_per_test: q.rerolls_per_test,
            stampede_on: q.stampede_on,
        };
        Ok(Rules { q, numbers })
    }

    /// RF-9 and RF-11's numbers.
    fn melee(&self) -> rf::MeleeRules {
        let q = &self.q;
        rf::MeleeRules {
            to_hit: q.to_hit,
            hits_per_stand: q.hits_per_stand,
            six_always_hits: q.six_always_hits,
            auto_rout_on_win: q.auto_rout_on_win,
            cavalry_vs_elephants: q.cavalry_vs_elephants,
            blown_penalty: q.blown_penalty,
        }
    }

    /// The optional rules switched on, with `routing_fail` (RF-4).
    fn options(&self, on: &Switches) -> rf::Options {
        rf::Options {
            routing_fail: self.q.routing_fail,
            keep_broken_units: on.keep_broken_units,
            voluntary_rout: on.voluntary_rout,
            artillery_may_rally: on.artillery_may_rally,
        }
    }

    /// Put the rule parameters that live in a unit into `unit`, and Elite's re-roll allowance
    /// (RF-6) into its `start`.
    fn apply(&self, unit: &mut rf::Unit, start: &mut rf::UnitState) {
        unit.numbers = self.numbers;
        unit.buildings_bonus = self.q.buildings_bonus;
        unit.hit_points = self.q.hit_points;
        self.q.elite_rerolls.apply(unit, start);
    }
}

/// What a Rank & File unit spec allows, with an example.
const UNIT_SPEC: &str = "a unit spec: class, troops and keywords (see Unit specs), e.g. \"veteran cavalry stands=6 shock\"; in a line \"6 x regular infantry\"";

/// The keywords of a Rank & File unit spec, for messages and `list`.
pub const SPEC_KEYWORDS: &str = "veteran, regular, green, infantry, cavalry, elephant, skirmisher, stands=N, lost=N, state=good|unsteady|routing, elite, leader=N, rerolls=N, frontage=N, hit=N (a modifier to melee hit rolls), blown, shock, square, obstacle, buildings, modifier=N (-5 to 5, on its morale and waiver tests), uncontrolled=N (0 to 6)";

crate::params::option_table! {
/// Rank & File's optional rules.
    pub static OPTIONS;
    /// Which of its optional rules are switched on.
    pub struct Switches;
    keep_broken_units = "keep-broken-units" {
        rule: "RF-3",
        meaning: "a routing unit at 50% losses is not removed: it keeps routing and never rallies",
    },
    voluntary_rout = "voluntary-rout" {
        rule: "RF-5",
        meaning: "a routing unit never takes its rally test and keeps routing, still losing a stand each turn",
    },
    artillery_may_rally = "artillery-may-rally" {
        rule: "RF-7",
        meaning: "a battery that routs stays on the table and may rally like any unit",
    },
    elephant_stampede = "elephant-stampede" {
        rule: "RF-8",
        meaning: "an elephant that fails a morale test (not a rally) stampedes on 1-2 (reported as p_stampede)",
    },
    waiver_tests = "waiver-tests" {
        rule: "RF-10",
        meaning: "a charge target tests before contact when charged in flank/rear, by better-class shock troops (foot), or as skirmishers standing",
    },
    blown_cavalry = "blown-cavalry" {
        rule: "RF-11",
        meaning: "cavalry that charged carry a Blown marker: -1 to hit in melee (spec keyword blown)",
    },
    uncontrolled = "uncontrolled" {
        rule: "RF-12",
        meaning: "a melee winner rolls a D6 and must charge next turn on its uncontrolled number or less",
    },
}

/// What a run of Rank & File needs beyond the resolved parameters.
struct Built {
    unit: rf::Unit,
    start: rf::UnitState,
    options: rf::Options,
}

fn build_unit(p: &Params, rules: &Rules, on: &Switches) -> Result<Built> {
    let kind = p.kind;
    let stands = p.stands;
    let lost = p.lost;
    if kind.is_single_stand() && stands > 8 {
        return Err(Error::Invalid {
            what: p.how.stands.what.clone(),
            value: stands.to_string(),
            allowed: format!(
                "a {} is a single stand: --stands counts its models, from 1 to 8",
                kind.name()
            ),
        });
    }
    if lost >= stands {
        return Err(Error::Invalid {
            what: p.how.lost.what.clone(),
            value: lost.to_string(),
            allowed: format!(
                "stands lost must be less than {} = {stands} (a unit with every stand lost is gone)",
                p.how.stands.what
            ),
        });
    }
    let options = rules.options(on);
    let status = p.state;
    if kind == rf::Kind::Artillery && status == rf::Status::Routing && !options.artillery_may_rally
    {
        return Err(Error::Conflict(format!(
            "{} routing is not a state an artillery battery can be in: a routed battery is removed (RF-7) unless --option artillery-may-rally",
            p.how.state.what
        )));
    }
    let hit_points = rules.q.hit_points;
    let mut unit = rf::Unit {
        class: p.class,
        kind,
        stands,
        elite: p.elite,
        leader: p.leader,
        in_buildings: p.in_buildings,
        buildings_bonus: rules.q.buildings_bonus,
        modifier: p.modifier,
        hit_points,
        numbers: rules.numbers,
    };
    let mut start = rf::UnitState {
        status,
        lost: if kind.is_single_stand() {
            lost * hit_points
        } else {
            lost
        },
        rerolls: p.rerolls,
        removal: None,
    };
    rules.apply(&mut unit, &mut start);
    Ok(Built {
        unit,
        start,
        options,
    })
}

fn need_note(b: &Built) -> String {
    let numbers = &b.unit.numbers;
    let naturals = numbers.naturals();
    let said = match b.unit.need(b.start.lost) {
        rf::Need::AutoFail if numbers.break_fraction == (1, 2) => {
            "at the start the unit is at 50% losses: every test fails (RF-3)".into()
        }
        rf::Need::AutoFail => {
            let (num, den) = numbers.break_fraction;
            format!(
                "at the start the unit has lost {num}/{den} of its stands (break_fraction): every test fails (RF-3)"
            )
        }
        rf::Need::Natural(7) => {
            format!("at the start no roll passes a test ({naturals}; RF-2)")
        }
        rf::Need::Natural(n) => {
            format!("at the start a test needs a natural {n}+ ({naturals}; RF-2)")
        }
    };
    match b.unit.rally_need(b.start.lost) {
        rf::Need::Natural(n) if b.unit.modifier != 0 => {
            format!("{said}; a rally test, without the situational modifier, a natural {n}+ (RF-5)")
        }
        _ => said,
    }
}

const STANDS_LOST: MetricDef = MetricDef::Value {
    name: "stands_lost",
    meaning: "stands (models, for a single stand) lost by the end, counting those lost before",
};
const REROLLS_USED: MetricDef = MetricDef::Value {
    name: "rerolls_used",
    meaning: "re-rolls spent in the battle: an Elite unit's allowance first, then the commander's pool (unlimited Elite re-rolls are not counted)",
};

/// Build a runnable Rank & File scenario from the user's inputs.
///
/// # Errors
/// Unknown keys or options, values out of range, and values that do not fit together.
fn build(scenario: Scenario, r: &Resolved, options: &[String]) -> Result<Box<dyn Job>> {
    let p = Params::read(r)?;
    let on = Switches::read(options);
    if scenario.is_battle() {
        return build_battle(scenario, r, &p, &on, options);
    }
    if FIGHT.contains(&scenario) {
        return build_fight(scenario, r, &p, &on, options);
    }
    let describe = |notes| describe(NAME, scenario, r, options, notes);
    let rules = Rules::read(r)?;
    let b = build_unit(&p, &rules, &on)?;
    let mut notes = vec![need_note(&b)];
    if p.elite {
        notes.push(match rules.q.elite_rerolls {
            rf::EliteRerolls::Unlimited => {
                "Elite: a re-roll of every failed test, all battle (elite_rerolls = unlimited; RF-6)".to_string()
            }
            rf::EliteRerolls::Limited(n) => format!(
                "Elite: {n} re-roll{} in the battle, spent before the commander's, at most one a test (elite_rerolls; RF-6)",
                if n == 1 { "" } else { "s" }
            ),
        });
    }
    match scenario {
        Scenario::Test => Ok(Box::new(ChainJob::new(
            RfTest {
                unit: b.unit,
                state: b.start,
            },
            describe(notes),
            OutcomeDef::per_class(&["pass", "fail"], 0),
            vec![MetricDef::Value {
                name: "rerolled",
                meaning: "share of tests in which a re-roll was taken (Elite or commander)",
            }],
            vec![],
        ))),
        Scenario::Rally => Ok(Box::new(ChainJob::new(
            RfRally::new(b.unit, b.options, b.start, p.turns),
            describe(notes),
            vec![
                OutcomeDef {
                    name: "recovered",
                    classes: vec![0],
                },
                OutcomeDef {
                    name: "removed",
                    classes: vec![3],
                },
                OutcomeDef {
                    name: "unsteady",
                    classes: vec![1],
                },
                OutcomeDef {
                    name: "routing",
                    classes: vec![2],
                },
            ],
            vec![
                MetricDef::AbsorbTurn {
                    name: "turns_to_recover",
                    class: 0,
                    meaning: "rally phases until back in good order, among units that recovered",
                },
                MetricDef::AbsorbTurn {
                    name: "turns_to_removal",
                    class: 3,
                    meaning: "rally phases until removed, among units removed",
                },
                STANDS_LOST,
                REROLLS_USED,
            ]
            .into_iter()
            .chain(removal_metrics(&RALLY_REMOVALS))
            .collect(),
            vec![
                TableDef::Absorb {
                    name: "turns",
                    title: "Recovered and removed, at each turn and by each turn",
                    columns: vec![
                        ("recovered_at", 0, false),
                        ("recovered_by", 0, true),
                        ("removed_at", 3, false),
                        ("removed_by", 3, true),
                    ],
                },
                TableDef::PerTurn {
                    name: "per_turn",
                    title: "State after each turn",
                },
            ],
        ))),
        Scenario::UnderFire => {
            let fire = fire_model(&fire_params(&p))?;
            notes.push(format!(
                "enemy fire each turn: {} (mean {:.3} losses); holes in the line: {HOLES}",
                fire.description(),
                fire.mean()
            ));
            let shaken = p.fire_on_shaken.as_str();
            Ok(Box::new(ChainJob::new(
                RfUnderFire::new(
                    b.unit,
                    b.options,
                    b.start,
                    p.turns,
                    fire,
                    UnderFireRules {
                        fire_on_unsteady: shaken != "none",
                        fire_on_routing: shaken == "all",
                        stampede: on.elephant_stampede,
                    },
                ),
                describe(notes),
                OutcomeDef::per_class(&["good", "unsteady", "routing", "removed"], 0),
                vec![
                    EMPTY_TURNS,
                    MetricDef::AbsorbTurn {
                        name: "turn_removed",
                        class: 3,
                        meaning: "turn of removal, among units removed",
                    },
                    STANDS_LOST,
                    REROLLS_USED,
                    MetricDef::Value {
                        name: "p_stampede",
                        meaning: "share of trials in which the elephant stampeded (RF-8; 0 unless an elephant under elephant-stampede; it counts as routing, not removed)",
                    },
                ]
                .into_iter()
                .chain(removal_metrics(&UNDER_FIRE_REMOVALS))
                .collect(),
                vec![TableDef::PerTurn {
                    name: "per_turn",
                    title: "State after each turn",
                }],
            )))
        }
        other => Err(shared::unsupported(NAME, SCENARIOS, other)),
    }
}

/// Parse a Rank & File unit spec such as `veteran cavalry stands=6 lost=1 shock` (RF-1, RF-9 to
/// RF-12) into the fighter and its starting state.
///
/// # Errors
/// [`Error::Invalid`] naming `what` (the flag) and the keyword at fault, with the allowed ones.
pub fn parse_fighter(
    what: &str,
    spec: &str,
    on: &Switches,
) -> Result<(rf::Fighter, rf::UnitState)> {
    let bad = |value: &str, allowed: String| Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed,
    };
    let num = |token: &str, v: &str, min: i64, max: i64| {
        params::parse_int(v)
            .filter(|x| (min..=max).contains(x))
            .ok_or_else(|| {
                bad(
                    token,
                    format!(
                        "{} takes a whole number from {min} to {max}",
                        token.split('=').next().unwrap_or(token)
                    ),
                )
            })
    };
    let (mut class, mut troop) = (None, None);
    let (mut stands, mut lost, mut leader, mut rerolls, mut frontage, mut hit, mut uncontrolled) =
        (None, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64);
    let (mut modifier, mut buildings) = (0i64, false);
    let mut status = rf::Status::Good;
    let (mut elite, mut blown, mut shock, mut square, mut obstacle) =
        (false, false, false, false, false);
    for token in spec.split([' ', ',']).filter(|t| !t.is_empty()) {
        if let Some(c) = rf::Class::parse(token) {
            if class.replace(c).is_some() {
                return Err(bad(
                    token,
                    "give one class: veteran, regular or green".into(),
                ));
            }
            continue;
        }
        if let Some(t) = rf::Troop::parse(token) {
            if troop.replace(t).is_some() {
                return Err(bad(
                    token,
                    "give one troop type: infantry, cavalry, elephant or skirmisher".into(),
                ));
            }
            continue;
        }
        match token.split_once('=') {
            Some(("stands", v)) => stands = Some(num(token, v, 1, 40)?),
            Some(("lost", v)) => lost = num(token, v, 0, 39)?,
            Some(("leader", v)) => leader = num(token, v, -3, 3)?,
            Some(("rerolls", v)) => rerolls = num(token, v, 0, 9)?,
            Some(("frontage", v)) => frontage = num(token, v, 1, 40)?,
            Some(("hit", v)) => hit = num(token, v, -3, 3)?,
            Some(("uncontrolled", v)) => uncontrolled = num(token, v, 0, 6)?,
            Some(("modifier", v)) => modifier = num(token, v, -5, 5)?,
            Some(("state", v)) => {
                status = rf::Status::parse_start(v)
                    .ok_or_else(|| bad(token, "state= takes good, unsteady or routing".into()))?
            }
            Some(_) => {
                return Err(bad(
                    token,
                    format!("unknown keyword; allowed: {SPEC_KEYWORDS}"),
                ));
            }
            None => match token {
                "elite" => elite = true,
                "blown" => blown = true,
                "shock" => shock = true,
                "square" => square = true,
                "obstacle" => obstacle = true,
                "buildings" => buildings = true,
                _ => {
                    return Err(bad(
                        token,
                        format!("unknown keyword; allowed: {SPEC_KEYWORDS}"),
                    ));
                }
            },
        }
    }
    let troop = troop.unwrap_or(rf::Troop::Infantry);
    let kind = if troop == rf::Troop::Elephant {
        rf::Kind::Elephant
    } else {
        rf::Kind::Formed
    };
    let stands = stands.unwrap_or(if kind == rf::Kind::Elephant { 1 } else { 8 }) as u8;
    if kind == rf::Kind::Elephant && stands > 8 {
        return Err(bad(
            spec,
            "an elephant is a single stand: stands= counts its models, 1 to 8".into(),
        ));
    }
    if lost >= i64::from(stands) {
        return Err(bad(
            spec,
            format!("lost={lost} must be less than stands={stands}"),
        ));
    }
    if status == rf::Status::Routing {
        return Err(bad(
            spec,
            "a routing unit does not fight a melee (RF-5: it routs)".into(),
        ));
    }
    if blown && !(troop == rf::Troop::Cavalry && on.blown_cavalry) {
        return Err(bad(
            "blown",
            "a Blown marker needs cavalry and --option blown-cavalry (RF-11)".into(),
        ));
    }
    let hit_points = 3;
    let unit = rf::Unit {
        class: class.unwrap_or(rf::Class::Regular),
        kind,
        stands,
        elite,
        leader: leader as i8,
        in_buildings: buildings,
        buildings_bonus: 1,
        modifier: modifier as i8,
        hit_points,
        numbers: rf::Numbers::default(),
    };
    let fighter = rf::Fighter {
        unit,
        troop,
        frontage: frontage as u8,
        hit_modifier: hit as i8,
        blown,
        shock,
        square,
        obstacle,
        uncontrolled: uncontrolled as u8,
    };
    let start = rf::UnitState::new(status, lost as u8, rerolls as u8);
    Ok((fighter, start))
}

/// A fighter from its unit spec, with the rule parameters that reach into it (RF-2's
/// in-buildings bonus, RF-6's Elite allowance, RF-7's hit points and RF-1 to RF-8's numbers).
fn fighter_of(
    rules: &Rules,
    what: &str,
    spec: &str,
    on: &Switches,
) -> Result<(rf::Fighter, rf::UnitState)> {
    let (mut f, mut s) = parse_fighter(what, spec, on)?;
    rules.apply(&mut f.unit, &mut s);
    Ok((f, s))
}

/// The enemy's fire of `under-fire` and of battles.
fn fire_params(p: &Params) -> FireParams {
    FireParams {
        dice: p.fire_dice,
        to_hit: p.fire_to_hit,
        loss: p.fire_loss.clone(),
        how_dice: p.how.fire_dice.clone(),
        how_loss: p.how.fire_loss.clone(),
    }
}

/// `engagement` and `line` (RF-13): the units of both sides from their specs.
fn build_battle(
    scenario: Scenario,
    r: &Resolved,
    p: &Params,
    on: &Switches,
    options: &[String],
) -> Result<Box<dyn Job>> {
    let battle = BattleParams::read(r)?;
    let sides = [
        SideSpec {
            spec: &p.attacker,
            how: &p.how.attacker,
        },
        SideSpec {
            spec: &p.defender,
            how: &p.how.defender,
        },
    ];
    let specs = shared::battle_specs(sides, &battle, scenario)?;
    let rule_params = Rules::read(r)?;
    let (mut fighters, mut starts) = ([vec![], vec![]], [vec![], vec![]]);
    for (side, given) in sides.iter().enumerate() {
        for (k, spec) in specs[side].iter().enumerate() {
            let what = format!("{} (unit {})", given.how, k + 1);
            let (f, s) = fighter_of(&rule_params, &what, spec, on)?;
            fighters[side].push(f);
            starts[side].push(s);
        }
    }
    let rules = rule_params.melee();
    for (i, (a, d)) in fighters[0].iter().zip(&fighters[1]).enumerate() {
        if a.needs_to_hit(d, &rules) > 6 && d.needs_to_hit(a, &rules) > 6 {
            return Err(Error::Conflict(format!(
                "the units of file {} cannot hurt each other in melee (neither side can hit)",
                i + 1
            )));
        }
    }
    let fire = shared::battle_volleys(&fire_params(p), &battle)?;
    let notes = vec![format!(
        "side A's fire: {}; side B's: {}; only Good units fire; each hit a stand (RF-7: a hit on a single stand)",
        fire[0].description(),
        fire[1].description()
    )];
    let files = fighters[0].len();
    let melee = MeleeSetup {
        options: rule_params.options(on),
        rules,
        max_rounds: p.max_rounds,
    };
    let army = RfArmy::new(fighters, starts, melee, fire, *on, (p.era, p.pursue));
    let setup = BattleSetup {
        system: NAME,
        scenario,
        resolved: r,
        battle: &battle,
        turns: p.turns,
        options,
    };
    shared::battle_job(army, files, setup, notes)
}

fn build_fight(
    scenario: Scenario,
    r: &Resolved,
    p: &Params,
    on: &Switches,
    options: &[String],
) -> Result<Box<dyn Job>> {
    let rule_params = Rules::read(r)?;
    let (attacker, a_start) = fighter_of(&rule_params, &p.how.attacker.what, &p.attacker, on)?;
    let (defender, d_start) = fighter_of(&rule_params, &p.how.defender.what, &p.defender, on)?;
    let rules = rule_params.melee();
    let rf_options = rule_params.options(on);
    let mut notes = vec![format!(
        "attacker hits on {}+, defender on {}+ (7 = cannot hit); first round: stands in contact plus one overlapping each flank (frontage), later rounds all stands (RF-9)",
        attacker.needs_to_hit(&defender, &rules),
        defender.needs_to_hit(&attacker, &rules)
    )];
    let charge = if scenario == Scenario::Charge {
        let frontal = p.charge_from == "front";
        let due = rf::waiver_due(&attacker, &defender, frontal, p.era);
        let waiver = on.waiver_tests && due;
        let stampede = on.elephant_stampede && defender.unit.kind == rf::Kind::Elephant;
        notes.push(if waiver {
            format!(
                "the target takes a waiver test at the end of the charge phase, with all the usual modifiers (RF-10){}{}",
                if stampede {
                    "; an elephant that fails it may stampede (RF-8), which ends the charge like a rout"
                } else {
                    ""
                },
                if p.pursue {
                    "; the charger pursues a target that routed and destroys it (target_caught)"
                } else {
                    "; a target that routed is not pursued (pursue = false)"
                }
            )
        } else if due {
            "a waiver test would be due (RF-10) but --option waiver-tests is off".to_string()
        } else {
            "no waiver test is due (RF-10)".to_string()
        });
        if on.blown_cavalry && attacker.troop == rf::Troop::Cavalry {
            notes.push(
                "the charging cavalry carries a Blown marker after this charge (RF-11)".into(),
            );
        }
        Some(Charge {
            waiver,
            uncontrolled: on.uncontrolled,
            after_waiver: rf::WaiverRules {
                stampede: on.elephant_stampede,
                pursue: p.pursue,
            },
        })
    } else {
        None
    };
    let setup = MeleeSetup {
        options: rf_options,
        rules,
        max_rounds: p.max_rounds,
    };
    let chain = RfFight::new([attacker, defender], [a_start, d_start], setup, charge);
    if chain.hopeless() {
        return Err(Error::Conflict(format!(
            "this {scenario} cannot end: neither side can hit (attacker needs {}+, defender {}+)",
            attacker.needs_to_hit(&defender, &rules),
            defender.needs_to_hit(&attacker, &rules)
        )));
    }
    let mut outcomes =
        OutcomeDef::per_class(&["attacker_wins", "defender_wins", "mutual_destruction"], 1);
    if charge.is_some() {
        outcomes.insert(
            0,
            OutcomeDef {
                name: "target_broke",
                classes: vec![4],
            },
        );
        if p.pursue {
            outcomes.insert(
                1,
                OutcomeDef {
                    name: "target_caught",
                    classes: vec![5],
                },
            );
        }
    }
    let mut metrics = vec![
        MetricDef::EndTurn {
            name: "rounds",
            classes: vec![1, 2, 3],
            meaning: "melee rounds fought, among melees fought",
        },
        MetricDef::Value {
            name: "attacker_stands_lost",
            meaning: "attacker's stands lost in the melee",
        },
        MetricDef::Value {
            name: "defender_stands_lost",
            meaning: "defender's stands lost in the melee",
        },
        MetricDef::Value {
            name: "loser_unsteady",
            meaning: "share of trials in which the loser ends Unsteady",
        },
        MetricDef::Value {
            name: "loser_routing",
            meaning: "share of trials in which the loser ends Routing",
        },
        MetricDef::Value {
            name: "loser_removed",
            meaning: "share of trials in which the loser ends removed (the three causes below add up to it)",
        },
        MetricDef::Value {
            name: "loser_removed_by_fifty_percent",
            meaning: "share of trials in which the 50% rule dispersed the loser (RF-3)",
        },
        MetricDef::Value {
            name: "loser_removed_destroyed",
            meaning: "share of trials in which the loser lost its last stand (or model, RF-7) in the melee",
        },
        MetricDef::Value {
            name: "loser_removed_failed_while_routing",
            meaning: "share of trials in which the loser was already Routing and, losing, dropped to removed (RF-9)",
        },
    ];
    if charge.is_some() {
        metrics.push(MetricDef::Value {
            name: "waiver_failed",
            meaning: "share of charges in which the target failed its waiver test (RF-10)",
        });
        metrics.push(MetricDef::Value {
            name: "must_charge_again",
            meaning: "share of charges after which the winner must charge next turn (RF-12)",
        });
        if chain.waiver && chain.after_waiver.stampede {
            metrics.push(MetricDef::Value {
                name: "p_stampede",
                meaning: "share of charges in which the elephant failed its waiver test and stampeded (RF-8)",
            });
        }
    }
    Ok(Box::new(ChainJob::new(
        chain,
        describe(NAME, scenario, r, options, notes),
        outcomes,
        metrics,
        vec![],
    )))
}

/// Rank & File (RF-1 to RF-13): morale classes, the 50% rule, unsteady and routing units, rally, re-rolls, single stands, melee, charges and the supplement's optional rules.
#[derive(Debug, Clone, Copy, Default)]
pub struct RankAndFile;

/// What RankAndFile is, for `list` and the registry.
static ABOUT: About = About {
    name: NAME,
    title: "Rank & File: morale classes, the 50% rule, unsteady/routing, rally, re-rolls, single stands, melee, charges and the supplement's options",
    rules: "RF-1 to RF-12",
    scenarios: SCENARIOS,
    params: &PARAMS,
    rule_params: &RULES,
    options: &OPTIONS,
    holes: HOLES,
    specs: SPEC_KEYWORDS,
    bench: cases::CASES,
    exact_bench: cases::EXACT_CASES,
    edge_specs: &[
        (
            "veteran cavalry stands=40 elite leader=3 rerolls=9 frontage=40 hit=3 shock uncontrolled=6",
            "veteran infantry stands=40 lost=19 leader=3 rerolls=9 frontage=40 hit=3 square obstacle",
        ),
        (
            "green infantry stands=1 leader=-3 hit=-3 frontage=1",
            "green skirmisher stands=1 leader=-3 hit=-3 frontage=1",
        ),
    ],
};

impl RuleSystem for RankAndFile {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn outcomes(&self, scenario: Scenario) -> &'static [&'static str] {
        match scenario {
            Scenario::Test => &["pass", "fail"],
            Scenario::Rally => &["recovered", "removed", "unsteady", "routing"],
            Scenario::UnderFire => &["good", "unsteady", "routing", "removed"],
            Scenario::Melee => &["attacker_wins", "defender_wins", "mutual_destruction"],
            Scenario::Charge => &[
                "target_broke",
                "target_caught",
                "attacker_wins",
                "defender_wins",
                "mutual_destruction",
            ],
            other => shared::battle_outcomes(other),
        }
    }
    fn defaults(&self, scenario: Scenario, _inputs: &[Input]) -> Vec<(&'static str, String)> {
        if scenario == Scenario::Rally {
            vec![("state", "routing".into())]
        } else {
            Vec::new()
        }
    }
    fn build(&self, scenario: Scenario, p: &Resolved, options: &[String]) -> Result<Box<dyn Job>> {
        build(scenario, p, options)
    }
    fn odds(&self, stands: Option<u8>, max_lost: u8, rules: &Resolved) -> Result<Odds> {
        Ok(odds::rank_and_file(
            stands,
            max_lost,
            Rules::read(rules)?.numbers,
        ))
    }
}
