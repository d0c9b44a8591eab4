//! The Age of Linear Warfare as the command line and experiments see it: parameters, unit
//! specs, the `dice-follow-pips` option, and how they become a runnable scenario.

pub mod army;
pub mod invariants;
pub mod melee;
pub mod odds;
pub mod rules;
pub mod test;
pub mod under_fire;

use crate::error::{Error, Result};
use crate::params::{Input, Kind, OptionDef, ParamDef, Resolved, parse_int};
use crate::scenario::battle::Volley;
use crate::scenario::fire::Fire;
use crate::scenario::{ChainJob, EMPTY_TURNS, Job, MetricDef, OutcomeDef, TableDef};
use army::LwArmy;
use melee::{FollowUp, LwMelee};
use rules::{self as lw, Pips, Side, UnitType};
use test::{LwTest, MAX_VOLLEY_DICE};
use under_fire::{LwState, LwStatus, LwUnderFire};

use super::RuleSystem;
use super::shared::{self, describe};
use crate::odds::Odds;

/// The system's name.
pub const NAME: &str = "linear-warfare";

/// The scenarios it has.
pub const SCENARIOS: &[&str] = &["test", "under-fire", "melee", "engagement", "line"];

const TEST: &[&str] = &["test"];
const FIRE: &[&str] = &["under-fire"];
const FIRE_BATTLE: &[&str] = &["under-fire", "engagement", "line"];
const MELEE: &[&str] = &["melee", "engagement", "line"];

const VOLLEY_AND_FIRE: &[&str] = &["test", "under-fire"];
const UNIT: &[&str] = &["test", "under-fire"];

/// Which states leave a hole in the line, and why.
pub const HOLES: &str = "falling back in good order (it retires a full move and recovers out of the line, LW-5) and removed";

/// `engagement` and `line`: the units of both sides from their specs (a `charging` keyword is
/// ignored: side A's policy decides its charges).
fn build_battle(
    scenario: &str,
    p: &Resolved,
    options: &[String],
    dice_follow_pips: bool,
) -> Result<Box<dyn Job>> {
    if p.given("b_fire") {
        return Err(Error::Invalid {
            what: p.what("b_fire"),
            value: p.choice("b_fire").into(),
            allowed: "linear-warfare units fire a die per stand on 4+ (LW-2): give stands=N in side B's specs instead".into(),
        });
    }
    let specs = shared::battle_specs(p, scenario)?;
    let (mut sides, mut fire) = ([vec![], vec![]], [vec![], vec![]]);
    let to_hit = lw::fire_to_hit(false, false);
    for (side, key) in ["attacker", "defender"].iter().enumerate() {
        for (k, spec) in specs[side].iter().enumerate() {
            let what = format!("{} (unit {})", p.what(key), k + 1);
            let mut u = parse_side(&what, spec)?;
            u.charging = false;
            fire[side].push(Volley::dice(u32::from(u.stands), to_hit));
            sides[side].push(u);
        }
    }
    let follow = if p.choice("follow_up") == "always" {
        FollowUp::Always
    } else {
        FollowUp::Never
    };
    let notes = vec![format!(
        "each unit fires a die per stand on {to_hit}+ (LW-2{}); a charge is a double move from up to 2 moves, costing a pip (LW-3); units at {} pips or fewer fall back and rejoin at {} (LW-5)",
        if dice_follow_pips {
            "; no more dice than pips"
        } else {
            ""
        },
        p.int("fall_back_at"),
        p.int("return_at")
    )];
    let files = sides[0].len();
    let army = LwArmy::new(
        sides,
        fire,
        dice_follow_pips,
        follow,
        (
            p.int("fall_back_at") as u8,
            p.int("return_at") as u8,
            p.bool("fall_back_out_of_range"),
        ),
    );
    Ok(shared::battle_job(
        army, files, NAME, scenario, p, options, notes,
    ))
}

/// The keywords of a unit spec, for messages.
pub const SPEC_KEYWORDS: &str =
    "line, guards, light, pips=N (1 to 12), stands=N (1 to 24), charging, obstacle, general";

/// Every parameter of The Age of Linear Warfare's scenarios.
pub static PARAMS: [ParamDef; 20] = [
    ParamDef {
        key: "test",
        flag: None,
        kind: Kind::Choice(&["round", "volley"]),
        default: "round",
        meaning: "what one test is: an opposed melee round (LW-4) or a volley (LW-2)",
        rule: "LW-2, LW-4",
        scenarios: TEST,
    },
    ParamDef {
        key: "difference",
        flag: None,
        kind: Kind::Int { min: -6, max: 6 },
        default: "0",
        meaning: "round: the first side's melee modifiers minus the second's",
        rule: "LW-4",
        scenarios: TEST,
    },
    ParamDef {
        key: "type",
        flag: Some("--type"),
        kind: Kind::Choice(&["line", "guards", "light"]),
        default: "line",
        meaning: "unit type: pips line 6, guards 7, light 4 (the firer in a volley test, the unit under fire in under-fire)",
        rule: "LW-1",
        scenarios: UNIT,
    },
    ParamDef {
        key: "pips",
        flag: Some("--pips"),
        kind: Kind::Int { min: 1, max: 12 },
        default: "6",
        meaning: "pips at the start (default: the type's)",
        rule: "LW-1",
        scenarios: UNIT,
    },
    ParamDef {
        key: "stands",
        flag: Some("--stands"),
        kind: Kind::Int { min: 1, max: 24 },
        default: "6",
        meaning: "volley test: the infantry firer's stands, one die each",
        rule: "LW-2",
        scenarios: TEST,
    },
    ParamDef {
        key: "fire_from",
        flag: None,
        kind: Kind::Choice(&["infantry", "artillery"]),
        default: "infantry",
        meaning: "who fires: infantry (a die a stand) or artillery (dice by range band)",
        rule: "LW-2",
        scenarios: VOLLEY_AND_FIRE,
    },
    ParamDef {
        key: "range_band",
        flag: None,
        kind: Kind::Int { min: 1, max: 4 },
        default: "1",
        meaning: "artillery range band, 25 cm each: 5, 3, 2, 1 dice",
        rule: "LW-2",
        scenarios: VOLLEY_AND_FIRE,
    },
    ParamDef {
        key: "cover",
        flag: None,
        kind: Kind::Bool,
        default: "false",
        meaning: "the target is behind a wall, in buildings or entrenched: −1 per die",
        rule: "LW-2",
        scenarios: VOLLEY_AND_FIRE,
    },
    ParamDef {
        key: "flanking",
        flag: None,
        kind: Kind::Bool,
        default: "false",
        meaning: "flanking fire: +1 per die",
        rule: "LW-2",
        scenarios: VOLLEY_AND_FIRE,
    },
    ParamDef {
        key: "general",
        flag: Some("--general"),
        kind: Kind::Bool,
        default: "false",
        meaning: "a general (2 pips) is attached: each pip lost goes to him or the unit by coin flip",
        rule: "LW-6",
        scenarios: FIRE,
    },
    ParamDef {
        key: "general_joins",
        flag: None,
        kind: Kind::Bool,
        default: "false",
        meaning: "the general joins at the start, recovering a pip for the unit (up to its type's pips)",
        rule: "LW-6",
        scenarios: FIRE,
    },
    ParamDef {
        key: "turns",
        flag: Some("--turns"),
        kind: Kind::Int { min: 1, max: 1000 },
        default: "12",
        meaning: "turns of fire",
        rule: "§4",
        scenarios: FIRE_BATTLE,
    },
    ParamDef {
        key: "fire_dice",
        flag: None,
        kind: Kind::Int { min: 0, max: 200 },
        default: "3",
        meaning: "infantry fire: dice fired at the unit each turn",
        rule: "LW-2",
        scenarios: FIRE,
    },
    ParamDef {
        key: "fire_loss",
        flag: None,
        kind: Kind::Dist,
        default: "",
        meaning: "instead of dice: chances of losing 0, 1, 2 … pips a turn, e.g. 1/2,1/3,1/6",
        rule: "§4",
        scenarios: FIRE,
    },
    ParamDef {
        key: "fall_back_at",
        flag: None,
        kind: Kind::Int { min: 0, max: 11 },
        default: "0",
        meaning: "fall back in good order when at or below this many pips (0: never)",
        rule: "LW-5",
        scenarios: FIRE_BATTLE,
    },
    ParamDef {
        key: "return_at",
        flag: None,
        kind: Kind::Int { min: 0, max: 12 },
        default: "0",
        meaning: "rejoin the line on recovering to this many pips (0: its starting pips)",
        rule: "LW-5",
        scenarios: FIRE_BATTLE,
    },
    ParamDef {
        key: "fall_back_out_of_range",
        flag: None,
        kind: Kind::Bool,
        default: "true",
        meaning: "a unit falling back is out of the enemy's range",
        rule: "LW-5",
        scenarios: FIRE_BATTLE,
    },
    ParamDef {
        key: "attacker",
        flag: Some("--attacker"),
        kind: Kind::Spec,
        default: "line",
        meaning: "the attacking unit: type and keywords pips=N stands=N charging obstacle general",
        rule: "LW-1, LW-3, LW-4, LW-6",
        scenarios: MELEE,
    },
    ParamDef {
        key: "defender",
        flag: Some("--defender"),
        kind: Kind::Spec,
        default: "line",
        meaning: "the defending unit, as --attacker",
        rule: "LW-1, LW-3, LW-4, LW-6",
        scenarios: MELEE,
    },
    ParamDef {
        key: "follow_up",
        flag: None,
        kind: Kind::Choice(&["always", "never"]),
        default: "always",
        meaning: "whether the winner of a round follows up (+1) when LW-1 allows (not on its last pip)",
        rule: "LW-4",
        scenarios: MELEE,
    },
];

/// Its optional rules.
pub static OPTIONS: [OptionDef; 1] = [OptionDef {
    name: "dice-follow-pips",
    rule: "LW-2",
    meaning: "infantry roll no more fire dice than they have pips left",
}];

/// Parse a unit spec such as `guards pips=7 charging` (LW-1, LW-3, LW-4, LW-6).
///
/// # Errors
/// [`Error::Invalid`] naming `what` (the flag) and the keyword at fault, with the allowed ones.
pub fn parse_side(what: &str, spec: &str) -> Result<Side> {
    let bad = |value: &str, allowed: String| Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed,
    };
    let mut kind = None;
    let (mut pips, mut stands) = (None, 6u8);
    let (mut charging, mut obstacle, mut general) = (false, false, false);
    for token in spec.split([' ', ',']).filter(|t| !t.is_empty()) {
        if let Some(t) = UnitType::parse(token) {
            if kind.replace(t).is_some() {
                return Err(bad(
                    token,
                    "give one unit type: line, guards or light".into(),
                ));
            }
            continue;
        }
        match token.split_once('=') {
            Some(("pips", v)) => {
                pips = Some(
                    parse_int(v)
                        .filter(|p| (1..=12).contains(p))
                        .ok_or_else(|| {
                            bad(token, "pips=N takes a whole number from 1 to 12".into())
                        })? as u8,
                )
            }
            Some(("stands", v)) => {
                stands = parse_int(v)
                    .filter(|p| (1..=24).contains(p))
                    .ok_or_else(|| {
                        bad(token, "stands=N takes a whole number from 1 to 24".into())
                    })? as u8
            }
            Some(_) => {
                return Err(bad(
                    token,
                    format!("unknown keyword; allowed: {SPEC_KEYWORDS}"),
                ));
            }
            None => match token {
                "charging" => charging = true,
                "obstacle" => obstacle = true,
                "general" => general = true,
                _ => {
                    return Err(bad(
                        token,
                        format!("unknown keyword; allowed: {SPEC_KEYWORDS}"),
                    ));
                }
            },
        }
    }
    let kind = kind.unwrap_or(UnitType::Line);
    let pips = pips.unwrap_or(kind.pips());
    if charging && pips < 2 {
        return Err(bad(
            spec,
            "a unit on its last pip may take no offensive action (LW-1); charging costs a pip (LW-3)".into(),
        ));
    }
    Ok(Side {
        kind,
        pips,
        stands,
        charging,
        obstacle,
        general,
    })
}

fn volley_dice(p: &Resolved, stands_key: &str, dice_follow_pips: bool) -> Result<(u32, u8)> {
    let to_hit = lw::fire_to_hit(p.bool("cover"), p.bool("flanking"));
    let dice = if p.choice("fire_from") == "artillery" {
        lw::artillery_dice(p.int("range_band") as u8).expect("validated band")
    } else if stands_key == "stands" {
        lw::infantry_dice(p.int("stands") as u8, p.int("pips") as u8, dice_follow_pips)
    } else {
        p.int(stands_key) as u32
    };
    Ok((dice, to_hit))
}

/// Build a runnable Age of Linear Warfare scenario from the user's inputs.
///
/// # Errors
/// Unknown keys, keywords or options, values out of range, and values that do not fit together.
fn build(scenario: &str, p: &Resolved, options: &[String]) -> Result<Box<dyn Job>> {
    let p = p.clone();
    let options = options.to_vec();
    let dice_follow_pips = options.iter().any(|o| o == "dice-follow-pips");
    if shared::BATTLES.contains(&scenario) {
        return build_battle(scenario, &p, &options, dice_follow_pips);
    }
    let mut notes = Vec::new();
    match scenario {
        "test" => {
            let chain = if p.choice("test") == "round" {
                notes.push(format!(
                    "one opposed roll: each side a D6 plus its modifiers; the first side's total is {:+} against the second's (LW-4)",
                    p.int("difference")
                ));
                LwTest::Round {
                    difference: p.int("difference") as i32,
                }
            } else {
                let (dice, to_hit) = volley_dice(&p, "stands", dice_follow_pips)?;
                if dice > MAX_VOLLEY_DICE {
                    return Err(Error::Invalid {
                        what: p.what("stands"),
                        value: dice.to_string(),
                        allowed: format!("a volley test takes at most {MAX_VOLLEY_DICE} dice"),
                    });
                }
                notes.push(format!("{dice} dice hitting on {to_hit}+ (LW-2)"));
                LwTest::Volley {
                    dice,
                    to_hit,
                    table: crate::dice::Weights::hits(dice, to_hit),
                }
            };
            let (outcomes, metrics) = match &chain {
                LwTest::Round { .. } => (
                    ["win", "draw", "lose"]
                        .iter()
                        .enumerate()
                        .map(|(i, n)| OutcomeDef {
                            name: n,
                            classes: vec![i],
                        })
                        .collect(),
                    vec![],
                ),
                LwTest::Volley { dice, .. } => (
                    (0..=*dice as usize)
                        .map(|k| OutcomeDef {
                            name: test::VOLLEY_CLASSES[k].name,
                            classes: vec![k],
                        })
                        .collect(),
                    vec![MetricDef::Value {
                        name: "hits",
                        index: 0,
                        meaning: "hits (pips removed) by the volley",
                    }],
                ),
            };
            Ok(Box::new(ChainJob {
                compiled: Default::default(),
                chain,
                describe: describe(NAME, scenario, &p, &options, notes),
                outcomes,
                metrics,
                tables: vec![],
            }))
        }
        "under-fire" => {
            let pips = p.int("pips") as u8;
            let general = p.bool("general");
            let joins = p.bool("general_joins");
            if joins && !general {
                return Err(Error::Conflict(
                    "--set general_joins=true needs a general: add --general".into(),
                ));
            }
            let type_max = UnitType::parse(p.choice("type")).expect("validated").pips();
            let start_pips = if joins {
                (pips + 1).min(type_max.max(pips))
            } else {
                pips
            };
            let fall_back_at = p.int("fall_back_at") as u8;
            let return_at = match p.int("return_at") as u8 {
                0 => start_pips,
                r => r,
            };
            if fall_back_at > 0
                && (fall_back_at >= start_pips
                    || return_at <= fall_back_at
                    || return_at > start_pips)
            {
                return Err(Error::Conflict(format!(
                    "fall_back_at={fall_back_at} and return_at={return_at} do not fit a unit of {start_pips} pips: need fall_back_at < return_at <= {start_pips}"
                )));
            }
            let fire = if p.dist("fire_loss").is_empty() && p.choice("fire_from") == "infantry" {
                Fire::dice(
                    p.int("fire_dice") as u32,
                    lw::fire_to_hit(p.bool("cover"), p.bool("flanking")),
                )
            } else if p.dist("fire_loss").is_empty() {
                let (dice, to_hit) = volley_dice(&p, "fire_dice", false)?;
                Fire::dice(dice, to_hit)
            } else {
                shared::fire_model(&p)?
            };
            notes.push(format!(
                "enemy fire each turn: {} (mean {:.3} pips); holes in the line: {HOLES}",
                fire.description(),
                fire.mean()
            ));
            if fall_back_at > 0 {
                notes.push(format!(
                    "falls back at {fall_back_at} pips or fewer, recovers a pip a turn after the turn it retires, rejoins at {return_at} (LW-5)"
                ));
            }
            let start = LwState {
                status: LwStatus::InLine,
                pips: Pips {
                    unit: start_pips,
                    general: if general { lw::GENERAL_PIPS } else { 0 },
                },
            };
            Ok(Box::new(ChainJob {
                compiled: Default::default(),
                chain: LwUnderFire::new(
                    start_pips,
                    start,
                    p.int("turns") as u32,
                    fire,
                    fall_back_at,
                    return_at,
                    p.bool("fall_back_out_of_range"),
                ),
                describe: describe(NAME, scenario, &p, &options, notes),
                outcomes: OutcomeDef::per_class(&["in_line", "falling_back", "removed"], 0),
                metrics: vec![
                    EMPTY_TURNS,
                    MetricDef::AbsorbTurn {
                        name: "turn_removed",
                        class: 2,
                        meaning: "turn of removal, among units removed",
                    },
                    MetricDef::Value {
                        name: "pips_lost",
                        index: 0,
                        meaning: "pips down from the start at the end (recovered pips count back)",
                    },
                ],
                tables: vec![TableDef::PerTurn {
                    name: "per_turn",
                    title: "State after each turn",
                }],
            }))
        }
        "melee" => {
            let attacker = parse_side(&p.what("attacker"), p.choice("attacker"))?;
            let defender = parse_side(&p.what("defender"), p.choice("defender"))?;
            if attacker.pips < 2 {
                return Err(Error::Invalid {
                    what: p.what("attacker"),
                    value: p.choice("attacker").into(),
                    allowed: "an attacker on its last pip may take no offensive action (LW-1)"
                        .into(),
                });
            }
            if defender.charging {
                return Err(Error::Invalid {
                    what: p.what("defender"),
                    value: "charging".into(),
                    allowed: "only the attacker charges".into(),
                });
            }
            notes.push(format!(
                "attacker: {} {} pips{}{}{}; defender: {} {} pips{}{}",
                attacker.kind.name(),
                attacker.pips,
                if attacker.charging {
                    ", charging (costs a pip, LW-3; the defender fires as it goes in)"
                } else {
                    ""
                },
                if attacker.obstacle { ", obstacle" } else { "" },
                if attacker.general { ", general" } else { "" },
                defender.kind.name(),
                defender.pips,
                if defender.obstacle {
                    ", defending an obstacle"
                } else {
                    ""
                },
                if defender.general { ", general" } else { "" },
            ));
            let follow = if p.choice("follow_up") == "always" {
                FollowUp::Always
            } else {
                FollowUp::Never
            };
            Ok(Box::new(ChainJob {
                compiled: Default::default(),
                chain: LwMelee::new(
                    attacker,
                    defender,
                    follow,
                    true,
                    lw::fire_to_hit(false, false),
                    dice_follow_pips,
                ),
                describe: describe(NAME, scenario, &p, &options, notes),
                outcomes: OutcomeDef::per_class(&["attacker_wins", "defender_wins", "bounce"], 1),
                metrics: vec![
                    MetricDef::Value {
                        name: "rounds",
                        index: 0,
                        meaning: "melee rounds fought",
                    },
                    MetricDef::Value {
                        name: "attacker_pips_lost",
                        index: 1,
                        meaning: "attacker's pips lost, the charge's pip and closing fire included",
                    },
                    MetricDef::Value {
                        name: "defender_pips_lost",
                        index: 2,
                        meaning: "defender's pips lost",
                    },
                    MetricDef::Value {
                        name: "attacker_destroyed",
                        index: 3,
                        meaning: "P(attacker destroyed: second lost round or no pips)",
                    },
                    MetricDef::Value {
                        name: "defender_destroyed",
                        index: 4,
                        meaning: "P(defender destroyed: second lost round or no pips)",
                    },
                ],
                tables: vec![],
            }))
        }
        other => Err(shared::unsupported(NAME, SCENARIOS, other)),
    }
}

/// The Age of Linear Warfare (LW-1 to LW-7): pips, fire, the opposed-roll melee with follow-up, falling back, generals.
#[derive(Debug, Clone, Copy, Default)]
pub struct LinearWarfare;

impl RuleSystem for LinearWarfare {
    fn name(&self) -> &'static str {
        NAME
    }
    fn title(&self) -> &'static str {
        "The Age of Linear Warfare: pips, fire, opposed-roll melee with follow-up, falling back"
    }
    fn rules(&self) -> &'static str {
        "LW-1 to LW-7"
    }
    fn scenarios(&self) -> &'static [&'static str] {
        SCENARIOS
    }
    fn params(&self) -> &'static [ParamDef] {
        &PARAMS
    }
    fn options(&self) -> &'static [OptionDef] {
        &OPTIONS
    }
    fn holes(&self) -> &'static str {
        HOLES
    }
    fn specs(&self) -> &'static str {
        SPEC_KEYWORDS
    }
    fn outcomes(&self, scenario: &str) -> &'static [&'static str] {
        match scenario {
            "test" => &test::OUTCOMES,
            "under-fire" => &["in_line", "falling_back", "removed"],
            "melee" => &["attacker_wins", "defender_wins", "bounce"],
            other => shared::battle_outcomes(other),
        }
    }
    fn defaults(&self, _scenario: &str, inputs: &[Input]) -> Vec<(&'static str, String)> {
        // The pips default to the type's (LW-1).
        let type_pips = inputs
            .iter()
            .rev()
            .find(|i| i.key == "type")
            .and_then(|i| UnitType::parse(i.value.trim()))
            .unwrap_or(UnitType::Line)
            .pips();
        vec![("pips", type_pips.to_string())]
    }
    fn build(&self, scenario: &str, p: &Resolved, options: &[String]) -> Result<Box<dyn Job>> {
        build(scenario, p, options)
    }
    fn odds(&self, stands: Option<u8>, max_lost: u8) -> Result<Odds> {
        let _ = max_lost;
        if let Some(s) = stands {
            return Err(Error::Invalid {
                what: "--stands".into(),
                value: s.to_string(),
                allowed: "the linear-warfare odds sheet has no --stands: its volley table runs 1 to 6 dice".into(),
            });
        }
        Ok(odds::linear_warfare())
    }
}
