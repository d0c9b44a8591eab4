//! Rank & File as the command line and experiments see it: its parameters, optional rules, and
//! how they become a runnable scenario.

use crate::error::{Error, Result};
use crate::params::{self, Input, Kind, OptionDef, ParamDef, Resolved};
use crate::rules::rank_and_file as rf;
use crate::scenario::rally::RfRally;
use crate::scenario::test::RfTest;
use crate::scenario::under_fire::RfUnderFire;
use crate::scenario::{ChainJob, EMPTY_TURNS, Job, MetricDef, OutcomeDef, TableDef};

use super::{describe, fire_model};

/// The system's name.
pub const NAME: &str = "rank-and-file";

/// The scenarios Rank & File has.
pub const SCENARIOS: &[&str] = &["test", "rally", "under-fire"];

const ALL: &[&str] = SCENARIOS;
const TURNED: &[&str] = &["rally", "under-fire"];
const FIRE: &[&str] = &["under-fire"];

/// Which states leave a hole in the line, and why (for `list` and reports).
pub const HOLES: &str = "unsteady (it retires, RF-4), routing and removed";

/// Every parameter of Rank & File's scenarios.
pub static PARAMS: [ParamDef; 17] = [
    ParamDef {
        key: "class",
        flag: Some("--class"),
        kind: Kind::Choice(&["veteran", "regular", "green"]),
        default: "regular",
        meaning: "morale class: the base number a test must reach (veteran 3, regular 4, green 5)",
        rule: "RF-1",
        scenarios: ALL,
    },
    ParamDef {
        key: "kind",
        flag: None,
        kind: Kind::Choice(&["formed", "artillery", "elephant", "wagon", "machine-gun"]),
        default: "formed",
        meaning: "formed unit of stands, or a single stand (no casualty modifier, no 50% rule, hit points per model)",
        rule: "RF-7",
        scenarios: ALL,
    },
    ParamDef {
        key: "stands",
        flag: Some("--stands"),
        kind: Kind::Int { min: 1, max: 40 },
        default: "8",
        meaning: "starting stands of a formed unit; gun models (at most 8) of a single stand",
        rule: "RF-2, RF-3, RF-7",
        scenarios: ALL,
    },
    ParamDef {
        key: "lost",
        flag: Some("--lost"),
        kind: Kind::Int { min: 0, max: 39 },
        default: "0",
        meaning: "stands (or models) already lost; −1 per stand on every test of a formed unit",
        rule: "RF-2, RF-3",
        scenarios: ALL,
    },
    ParamDef {
        key: "state",
        flag: Some("--state"),
        kind: Kind::Choice(&["good", "unsteady", "routing"]),
        default: "good",
        meaning: "morale state at the start (rally defaults to routing)",
        rule: "RF-4",
        scenarios: ALL,
    },
    ParamDef {
        key: "leader",
        flag: Some("--leader"),
        kind: Kind::Int { min: -3, max: 3 },
        default: "0",
        meaning: "bonus of the attached leader added to every test (commonly +1; 0 = none)",
        rule: "RF-2",
        scenarios: ALL,
    },
    ParamDef {
        key: "elite",
        flag: Some("--elite"),
        kind: Kind::Bool,
        default: "false",
        meaning: "an Elite unit re-rolls every failed test once",
        rule: "RF-6",
        scenarios: ALL,
    },
    ParamDef {
        key: "rerolls",
        flag: Some("--rerolls"),
        kind: Kind::Int { min: 0, max: 9 },
        default: "0",
        meaning: "re-rolls left to the attached commander for the battle; each failed test spends one (after Elite's own)",
        rule: "RF-6",
        scenarios: ALL,
    },
    ParamDef {
        key: "in_buildings",
        flag: None,
        kind: Kind::Bool,
        default: "false",
        meaning: "the unit is in buildings and gets buildings_bonus on every test",
        rule: "RF-2",
        scenarios: ALL,
    },
    ParamDef {
        key: "buildings_bonus",
        flag: None,
        kind: Kind::Int { min: 0, max: 3 },
        default: "1",
        meaning: "the in-buildings bonus (the source gives no number)",
        rule: "RF-2",
        scenarios: ALL,
    },
    ParamDef {
        key: "modifier",
        flag: None,
        kind: Kind::Int { min: -5, max: 5 },
        default: "0",
        meaning: "any other situational modifier on every test (charging etc.)",
        rule: "RF-2",
        scenarios: ALL,
    },
    ParamDef {
        key: "hit_points",
        flag: None,
        kind: Kind::Int { min: 1, max: 10 },
        default: "3",
        meaning: "hits each model of a single stand takes before it is lost (4 for an 8-gun battery's models)",
        rule: "RF-7",
        scenarios: ALL,
    },
    ParamDef {
        key: "turns",
        flag: Some("--turns"),
        kind: Kind::Int { min: 1, max: 1000 },
        default: "12",
        meaning: "turn cap (rally) or turns of fire (under-fire)",
        rule: "§4",
        scenarios: TURNED,
    },
    ParamDef {
        key: "fire_dice",
        flag: None,
        kind: Kind::Int { min: 0, max: 200 },
        default: "4",
        meaning: "dice the enemy fires each turn; each hit is one stand (one hit on a single stand)",
        rule: "§4",
        scenarios: FIRE,
    },
    ParamDef {
        key: "fire_to_hit",
        flag: None,
        kind: Kind::Int { min: 1, max: 6 },
        default: "6",
        meaning: "the roll each fire die needs to hit",
        rule: "§4",
        scenarios: FIRE,
    },
    ParamDef {
        key: "fire_loss",
        flag: None,
        kind: Kind::Dist,
        default: "",
        meaning: "instead of dice: chances of losing 0, 1, 2 … stands a turn, e.g. 1/2,1/3,1/6",
        rule: "§4",
        scenarios: FIRE,
    },
    ParamDef {
        key: "fire_on_shaken",
        flag: None,
        kind: Kind::Choice(&["all", "unsteady", "none"]),
        default: "all",
        meaning: "whom the enemy keeps firing at once shaken: unsteady and routing (all), unsteady only, or neither",
        rule: "§4",
        scenarios: FIRE,
    },
];

/// Rank & File's optional rules modelled so far.
pub static OPTIONS: [OptionDef; 3] = [
    OptionDef {
        name: "keep-broken-units",
        rule: "RF-3",
        meaning: "a routing unit at 50% losses is not removed: it keeps routing and never rallies",
    },
    OptionDef {
        name: "voluntary-rout",
        rule: "RF-5",
        meaning: "a routing unit never takes its rally test and keeps routing, still losing a stand each turn",
    },
    OptionDef {
        name: "artillery-may-rally",
        rule: "RF-7",
        meaning: "a battery that routs stays on the table and may rally like any unit",
    },
];

/// What a run of Rank & File needs beyond the resolved parameters.
struct Built {
    unit: rf::Unit,
    start: rf::UnitState,
    options: rf::Options,
}

fn build_unit(p: &Resolved, options: &[String]) -> Result<Built> {
    let has = |n: &str| options.iter().any(|o| o == n);
    let kind = rf::Kind::parse(p.choice("kind")).expect("validated choice");
    let stands = p.int("stands") as u8;
    let lost = p.int("lost") as u8;
    if kind.is_single_stand() && stands > 8 {
        return Err(Error::Invalid {
            what: p.what("stands"),
            value: stands.to_string(),
            allowed: format!(
                "a {} is a single stand: --stands counts its models, from 1 to 8",
                kind.name()
            ),
        });
    }
    if lost >= stands {
        return Err(Error::Invalid {
            what: p.what("lost"),
            value: lost.to_string(),
            allowed: format!(
                "stands lost must be less than {} = {stands} (a unit with every stand lost is gone)",
                p.what("stands")
            ),
        });
    }
    let options = rf::Options {
        keep_broken_units: has("keep-broken-units"),
        voluntary_rout: has("voluntary-rout"),
        artillery_may_rally: has("artillery-may-rally"),
    };
    let status = rf::Status::parse_start(p.choice("state")).expect("validated choice");
    if kind == rf::Kind::Artillery && status == rf::Status::Routing && !options.artillery_may_rally
    {
        return Err(Error::Conflict(format!(
            "{} routing is not a state an artillery battery can be in: a routed battery is removed (RF-7) unless --option artillery-may-rally",
            p.what("state")
        )));
    }
    let hit_points = p.int("hit_points") as u8;
    let unit = rf::Unit {
        class: rf::Class::parse(p.choice("class")).expect("validated choice"),
        kind,
        stands,
        elite: p.bool("elite"),
        leader: p.int("leader") as i8,
        in_buildings: p.bool("in_buildings"),
        buildings_bonus: p.int("buildings_bonus") as i8,
        modifier: p.int("modifier") as i8,
        hit_points,
    };
    let start = rf::UnitState {
        status,
        lost: if kind.is_single_stand() {
            lost * hit_points
        } else {
            lost
        },
        rerolls: p.int("rerolls") as u8,
    };
    Ok(Built {
        unit,
        start,
        options,
    })
}

fn need_note(b: &Built) -> String {
    match b.unit.need(b.start.lost) {
        rf::Need::AutoFail => {
            "at the start the unit is at 50% losses: every test fails (RF-3)".into()
        }
        rf::Need::Natural(n) => format!(
            "at the start a test needs a natural {n}+ (a 1 always fails, a 6 always passes; RF-2)"
        ),
    }
}

const STANDS_LOST: MetricDef = MetricDef::Value {
    name: "stands_lost",
    index: 0,
    meaning: "stands (models, for a single stand) lost by the end, counting those lost before",
};
const REROLLS_USED: MetricDef = MetricDef::Value {
    name: "rerolls_used",
    index: 1,
    meaning: "re-rolls spent from the commander's pool",
};

/// Build a runnable Rank & File scenario from the user's inputs.
///
/// # Errors
/// Unknown keys or options, values out of range, and values that do not fit together.
pub fn build(scenario: &str, inputs: &[Input], options: &[String]) -> Result<Box<dyn Job>> {
    let options = params::check_options(&OPTIONS, NAME, options)?;
    let overrides: &[(&str, &str)] = if scenario == "rally" {
        &[("state", "routing")]
    } else {
        &[]
    };
    let p = params::resolve(&PARAMS, NAME, scenario, inputs, overrides)?;
    let b = build_unit(&p, &options)?;
    let mut notes = vec![need_note(&b)];
    match scenario {
        "test" => Ok(Box::new(ChainJob {
            chain: (RfTest {
                unit: b.unit,
                state: b.start,
            }),
            describe: describe(NAME, scenario, &p, &options, notes),
            outcomes: OutcomeDef::per_class(&["pass", "fail"], 0),
            metrics: vec![MetricDef::Value {
                name: "rerolled",
                index: 0,
                meaning: "share of tests in which a re-roll was taken (Elite or commander)",
            }],
            tables: vec![],
        })),
        "rally" => Ok(Box::new(ChainJob {
            chain: (RfRally::new(b.unit, b.options, b.start, p.int("turns") as u32)),
            describe: describe(NAME, scenario, &p, &options, notes),
            outcomes: vec![
                OutcomeDef {
                    name: "recovered",
                    classes: vec![0],
                },
                OutcomeDef {
                    name: "removed",
                    classes: vec![3],
                },
                OutcomeDef {
                    name: "unrecovered",
                    classes: vec![1, 2],
                },
            ],
            metrics: vec![
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
            ],
            tables: vec![
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
        })),
        "under-fire" => {
            let fire = fire_model(&p)?;
            notes.push(format!(
                "enemy fire each turn: {} (mean {:.3} losses); holes in the line: {HOLES}",
                fire.description(),
                fire.mean()
            ));
            let shaken = p.choice("fire_on_shaken");
            Ok(Box::new(ChainJob {
                chain: (RfUnderFire::new(
                    b.unit,
                    b.options,
                    b.start,
                    p.int("turns") as u32,
                    fire,
                    shaken != "none",
                    shaken == "all",
                )),
                describe: describe(NAME, scenario, &p, &options, notes),
                outcomes: OutcomeDef::per_class(&["good", "unsteady", "routing", "removed"], 0),
                metrics: vec![
                    EMPTY_TURNS,
                    MetricDef::AbsorbTurn {
                        name: "turn_removed",
                        class: 3,
                        meaning: "turn of removal, among units removed",
                    },
                    STANDS_LOST,
                    REROLLS_USED,
                ],
                tables: vec![TableDef::PerTurn {
                    name: "per_turn",
                    title: "State after each turn",
                }],
            }))
        }
        other => Err(super::unsupported(NAME, SCENARIOS, other)),
    }
}
