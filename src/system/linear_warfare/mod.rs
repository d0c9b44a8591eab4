//! The Age of Linear Warfare as the command line and experiments see it: parameters, unit
//! specs, the `dice-follow-pips` option, and how they become a runnable scenario.

pub mod army;
mod cases;
pub mod invariants;
pub mod melee;
pub mod odds;
pub mod rules;
pub mod test;
pub mod under_fire;

use crate::error::{Error, Result};
use crate::params::{Input, Kind, Resolved, Source, parse_int};
use crate::scenario::battle::Volley;
use crate::scenario::fire::Fire;
use crate::scenario::{ChainJob, EMPTY_TURNS, Job, MetricDef, OutcomeDef, Scenario, TableDef};
use army::LwArmy;
use melee::{FollowUp, LwMelee};
use rules::{self as lw, Pips, Side, UnitType};
use test::{LwTest, MAX_VOLLEY_DICE};
use under_fire::{LwState, LwStatus, LwUnderFire};

use super::shared::{self, BattleParams, BattleSetup, FireParams, SideSpec, describe};
use super::{About, RuleSystem};
use crate::frac::Frac;
use crate::odds::Odds;

/// The system's name.
pub const NAME: &str = "linear-warfare";

/// The scenarios it has.
pub const SCENARIOS: &[Scenario] = &[
    Scenario::Test,
    Scenario::UnderFire,
    Scenario::Melee,
    Scenario::Engagement,
    Scenario::Line,
];

/// What a Linear Warfare unit spec allows, with an example.
const UNIT_SPEC: &str = "a unit spec: type and keywords (see Unit specs), e.g. \"guards pips=7 double-move\"; in a line \"6 x line\"";

const TEST: &[Scenario] = &[Scenario::Test];
const FIRE: &[Scenario] = &[Scenario::UnderFire];
const FIRE_BATTLE: &[Scenario] = &[Scenario::UnderFire, Scenario::Engagement, Scenario::Line];
const MELEE: &[Scenario] = &[Scenario::Melee, Scenario::Engagement, Scenario::Line];

const VOLLEY_AND_FIRE: &[Scenario] = &[Scenario::Test, Scenario::UnderFire];
const UNIT: &[Scenario] = &[Scenario::Test, Scenario::UnderFire];

/// Which states leave a hole in the line, and why.
pub const HOLES: &str = "falling back in good order (it retires a full move and recovers out of the line, LW-5) and removed";

/// `engagement` and `line`: the units of both sides from their specs (the `charging` and
/// `double-move` keywords are ignored: side A's policy and the distance decide its charges).
fn build_battle(
    scenario: Scenario,
    r: &Resolved,
    (p, q): (&Params, &RuleParams),
    options: &[String],
    dice_follow_pips: bool,
) -> Result<Box<dyn Job>> {
    let n = numbers(q);
    let battle = BattleParams::read(r)?;
    if battle.how.b_fire.given {
        return Err(Error::Invalid {
            what: battle.how.b_fire.what.clone(),
            value: battle.b_fire.clone(),
            allowed: "linear-warfare units fire a die per stand (LW-2): give stands=N in side B's specs instead".into(),
        });
    }
    let given = [
        SideSpec {
            spec: &p.attacker,
            how: &p.how.attacker,
        },
        SideSpec {
            spec: &p.defender,
            how: &p.how.defender,
        },
    ];
    let specs = shared::battle_specs(given, &battle, scenario)?;
    let (mut sides, mut fire) = ([vec![], vec![]], [vec![], vec![]]);
    let to_hit = n.fire_to_hit(false, false);
    for (side, given) in given.iter().enumerate() {
        for (k, spec) in specs[side].iter().enumerate() {
            let what = format!("{} (unit {})", given.how, k + 1);
            let mut u = parse_side(&what, spec, n)?;
            u.charging = false;
            u.double_move = false;
            fire[side].push(Volley::dice(u32::from(u.stands), to_hit));
            sides[side].push(u);
        }
    }
    let follow = if p.follow_up == "always" {
        FollowUp::Always
    } else {
        FollowUp::Never
    };
    let notes = vec![format!(
        "each unit fires a die per stand on {to_hit}+ (LW-2{}; cavalry do not shoot); side A charges from a move away, or from two with a double move that costs a pip, reported as a_double_move_pips (LW-3); distances are counted in moves, whatever the unit's move (cavalry 40 cm, line infantry 25 cm); units at {} pips or fewer fall back and rejoin at {} (LW-5); the general's coin is flipped {} (LW-6)",
        if dice_follow_pips {
            "; no more dice than pips"
        } else {
            ""
        },
        p.fall_back_at,
        p.return_at,
        coin_words(q.general_coin),
    )];
    let files = sides[0].len();
    let army = LwArmy::new(
        sides,
        fire,
        dice_follow_pips,
        follow,
        lw::FallBack {
            at: p.fall_back_at,
            return_at: p.return_at,
            out_of_range: p.fall_back_out_of_range,
        },
        q.general_coin,
    );
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

/// The numbers of LW-1 to LW-7 from the rule parameters.
fn numbers(q: &RuleParams) -> lw::Numbers {
    lw::Numbers {
        pips: [q.pips_line, q.pips_guards, q.pips_light, q.pips_cavalry],
        general_pips: q.general_pips,
        to_hit: q.to_hit,
        cover_penalty: q.cover_penalty,
        flank_bonus: q.flank_bonus,
        artillery_dice: [
            q.artillery_dice_1,
            q.artillery_dice_2,
            q.artillery_dice_3,
            q.artillery_dice_4,
        ],
        guards_bonus: q.guards_bonus,
        charge_bonus: q.charge_bonus,
        obstacle_bonus: q.obstacle_bonus,
        pip_gap: q.pip_gap,
        pip_gap_bonus: q.pip_gap_bonus,
        follow_up_bonus: q.follow_up_bonus,
        losses_to_destroy: q.losses_to_destroy,
        double_move_cost: q.double_move_cost,
    }
}

/// How the general's coin is flipped, in words.
fn coin_words(how: lw::GeneralCoin) -> &'static str {
    match how {
        lw::GeneralCoin::PerAttack => "once per attack (a volley, a melee round)",
        lw::GeneralCoin::PerPip => "once per pip lost",
    }
}

/// The keywords of a unit spec, for messages.
pub const SPEC_KEYWORDS: &str = "line, guards, light, cavalry, pips=N (1 to 12), stands=N (1 to 24), charging, double-move, obstacle, general";

crate::params::param_table! {
/// Every parameter of The Age of Linear Warfare's scenarios.
    pub static PARAMS;
    /// The Age of Linear Warfare's parameters, typed, read once when a scenario is built.
    pub struct Params;
    /// How each of its parameters was set.
    how ParamsHow;
    test: String {
            flag: None,
            kind: Kind::Choice(&["round", "volley"]),
            default: "round",
            meaning: "what one test is: an opposed melee round (LW-4) or a volley (LW-2)",
            rule: "LW-2, LW-4",
            scenarios: TEST,
    },
    difference: i32 {
            flag: None,
            kind: Kind::Int { min: -6, max: 6 },
            default: "0",
            meaning: "round: the first side's melee modifiers minus the second's",
            rule: "LW-4",
            scenarios: TEST,
    },
    unit_type = "type": UnitType {
            flag: Some("--type"),
            kind: Kind::Choice(&["line", "guards", "light", "cavalry"]),
            default: "line",
            meaning: "unit type: pips line 6, guards 7, light 4, cavalry 6 (cavalry do not shoot); the firer in a volley test, the unit under fire in under-fire",
            rule: "LW-1",
            scenarios: UNIT,
    },
    pips: u8 {
            flag: Some("--pips"),
            kind: Kind::Int { min: 1, max: 12 },
            default: "6",
            meaning: "pips at the start (default: the type's)",
            rule: "LW-1",
            scenarios: UNIT,
    },
    stands: u8 {
            flag: Some("--stands"),
            kind: Kind::Int { min: 1, max: 24 },
            default: "6",
            meaning: "volley test: the infantry firer's stands, one die each",
            rule: "LW-2",
            scenarios: TEST,
    },
    fire_from: String {
            flag: None,
            kind: Kind::Choice(&["infantry", "artillery"]),
            default: "infantry",
            meaning: "who fires: infantry (a die a stand) or artillery (dice by range band)",
            rule: "LW-2",
            scenarios: VOLLEY_AND_FIRE,
    },
    range_band: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 4 },
            default: "1",
            meaning: "artillery range band, 25 cm each: 5, 3, 2, 1 dice",
            rule: "LW-2",
            scenarios: VOLLEY_AND_FIRE,
    },
    cover: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "the target is behind a wall, in buildings or entrenched: −1 per die",
            rule: "LW-2",
            scenarios: VOLLEY_AND_FIRE,
    },
    flanking: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "flanking fire: +1 per die",
            rule: "LW-2",
            scenarios: VOLLEY_AND_FIRE,
    },
    general: bool {
            flag: Some("--general"),
            kind: Kind::Bool,
            default: "false",
            meaning: "a general (general_pips, 2) is attached: a coin flip decides whether he or the unit bears a loss (see general_coin)",
            rule: "LW-6",
            scenarios: FIRE,
    },
    general_joins: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "the general joins at the start, recovering a pip for the unit (up to its type's pips)",
            rule: "LW-6",
            scenarios: FIRE,
    },
    turns: u32 {
            flag: Some("--turns"),
            kind: Kind::Int { min: 1, max: 1000 },
            default: "12",
            meaning: "turns of fire",
            rule: "§4",
            scenarios: FIRE_BATTLE,
    },
    fire_dice: u32 {
            flag: None,
            kind: Kind::Int { min: 0, max: 200 },
            default: "3",
            meaning: "infantry fire: dice fired at the unit each turn",
            rule: "LW-2",
            scenarios: FIRE,
    },
    fire_loss: Vec<Frac> {
            flag: None,
            kind: Kind::Dist,
            default: "",
            meaning: "instead of dice: chances of losing 0, 1, 2 … pips a turn, e.g. 1/2,1/3,1/6",
            rule: "§4",
            scenarios: FIRE,
    },
    fall_back_at: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 11 },
            default: "0",
            meaning: "fall back in good order when at or below this many pips (0: never)",
            rule: "LW-5",
            scenarios: FIRE_BATTLE,
    },
    return_at: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 12 },
            default: "0",
            meaning: "rejoin the line on recovering to this many pips (0: its starting pips)",
            rule: "LW-5",
            scenarios: FIRE_BATTLE,
    },
    fall_back_out_of_range: bool {
            flag: None,
            kind: Kind::Bool,
            default: "true",
            meaning: "a unit falling back is out of the enemy's range",
            rule: "LW-5",
            scenarios: FIRE_BATTLE,
    },
    attacker: String {
            flag: Some("--attacker"),
            kind: Kind::Spec(UNIT_SPEC),
            default: "line",
            meaning: "the attacking unit: type and keywords pips=N stands=N charging double-move obstacle general",
            rule: "LW-1, LW-3, LW-4, LW-6",
            scenarios: MELEE,
    },
    defender: String {
            flag: Some("--defender"),
            kind: Kind::Spec(UNIT_SPEC),
            default: "line",
            meaning: "the defending unit, as --attacker",
            rule: "LW-1, LW-3, LW-4, LW-6",
            scenarios: MELEE,
    },
    follow_up: String {
            flag: None,
            kind: Kind::Choice(&["always", "never"]),
            default: "always",
            meaning: "whether the winner of a round follows up (+1) when LW-1 allows (not on its last pip)",
            rule: "LW-4",
            scenarios: MELEE,
    },
}

crate::params::param_table! {
    /// The Age of Linear Warfare's rule parameters: the numbers of its rules, each defaulting
    /// to the source's value (`--rule KEY=VALUE`).
    pub static RULES;
    /// Its rule parameters, typed.
    pub struct RuleParams;
    /// How each rule parameter was set.
    how RuleParamsHow;
    pips_line: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 12 },
            default: "6",
            meaning: "pips a line infantry unit starts with",
            rule: "LW-1",
            scenarios: SCENARIOS,
    },
    pips_guards: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 12 },
            default: "7",
            meaning: "pips a Guards unit starts with",
            rule: "LW-1",
            scenarios: SCENARIOS,
    },
    pips_light: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 12 },
            default: "4",
            meaning: "pips a light infantry unit starts with",
            rule: "LW-1",
            scenarios: SCENARIOS,
    },
    pips_cavalry: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 12 },
            default: "6",
            meaning: "pips a line cavalry unit starts with",
            rule: "LW-1",
            scenarios: SCENARIOS,
    },
    general_pips: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 6 },
            default: "2",
            meaning: "pips a general has",
            rule: "LW-6",
            scenarios: SCENARIOS,
    },
    to_hit: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 7 },
            default: "4",
            meaning: "the roll a fire die needs before cover and flanking (7: none hits)",
            rule: "LW-2",
            scenarios: SCENARIOS,
    },
    cover_penalty: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "how much worse the fire roll is against a target in cover",
            rule: "LW-2",
            scenarios: SCENARIOS,
    },
    flank_bonus: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "how much better the fire roll is for flanking fire",
            rule: "LW-2",
            scenarios: SCENARIOS,
    },
    artillery_dice_1: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 12 },
            default: "5",
            meaning: "artillery dice in range band 1 (25 cm each)",
            rule: "LW-2",
            scenarios: SCENARIOS,
    },
    artillery_dice_2: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 12 },
            default: "3",
            meaning: "artillery dice in range band 2 (25 cm each)",
            rule: "LW-2",
            scenarios: SCENARIOS,
    },
    artillery_dice_3: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 12 },
            default: "2",
            meaning: "artillery dice in range band 3 (25 cm each)",
            rule: "LW-2",
            scenarios: SCENARIOS,
    },
    artillery_dice_4: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 12 },
            default: "1",
            meaning: "artillery dice in range band 4 (25 cm each)",
            rule: "LW-2",
            scenarios: SCENARIOS,
    },
    guards_bonus: i8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "the Guards' melee bonus, in every round",
            rule: "LW-4",
            scenarios: SCENARIOS,
    },
    charge_bonus: i8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "the charger's melee bonus, in the first round",
            rule: "LW-4",
            scenarios: SCENARIOS,
    },
    obstacle_bonus: i8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "the melee bonus for defending a linear obstacle, in the first round",
            rule: "LW-4",
            scenarios: SCENARIOS,
    },
    pip_gap: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 6 },
            default: "2",
            meaning: "pips more than the opponent that earn pip_gap_bonus in a melee round",
            rule: "LW-4",
            scenarios: SCENARIOS,
    },
    pip_gap_bonus: i8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "the melee bonus for pip_gap pips more than the opponent",
            rule: "LW-4",
            scenarios: SCENARIOS,
    },
    follow_up_bonus: i8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "the melee bonus of a winner following up into another round",
            rule: "LW-4",
            scenarios: SCENARIOS,
    },
    losses_to_destroy: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 4 },
            default: "2",
            meaning: "lost melee rounds that destroy a unit whatever its pips (the source: a second; 0: only pips)",
            rule: "LW-4",
            scenarios: SCENARIOS,
    },
    double_move_cost: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "pips a double move to charge costs",
            rule: "LW-3",
            scenarios: SCENARIOS,
    },
    general_coin: lw::GeneralCoin {
            flag: None,
            kind: Kind::Choice(&["per-attack", "per-pip"]),
            default: "per-attack",
            meaning: "a unit with a general attached flips the coin once per attack (a volley, a melee round: the whole loss to the one it picks) or once per pip lost (the source is silent)",
            rule: "LW-6",
            scenarios: SCENARIOS,
    },
    break_point: u32 {
            flag: None,
            kind: Kind::Int { min: 1, max: 100 },
            default: "50",
            meaning: "line: a side breaks when this percentage of its units (supports included) is gone (the source: half the army)",
            rule: "LW-7",
            scenarios: SCENARIOS,
    },
}

crate::params::option_table! {
/// Its optional rules.
    pub static OPTIONS;
    /// Which of its optional rules are switched on.
    pub struct Switches;
    dice_follow_pips = "dice-follow-pips" {
        rule: "LW-2",
        meaning: "infantry roll no more fire dice than they have pips left",
    },
}

/// Parse a unit spec such as `guards pips=7 double-move` (LW-1, LW-2, LW-3, LW-4, LW-6).
///
/// # Errors
/// [`Error::Invalid`] naming `what` (the flag) and the keyword at fault, with the allowed ones.
pub fn parse_side(what: &str, spec: &str, numbers: lw::Numbers) -> Result<Side> {
    let bad = |value: &str, allowed: String| Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed,
    };
    let mut kind = None;
    let (mut pips, mut stands) = (None, 6u8);
    let (mut charging, mut double_move, mut obstacle, mut general) = (false, false, false, false);
    for token in spec.split([' ', ',']).filter(|t| !t.is_empty()) {
        if let Some(t) = UnitType::parse(token) {
            if kind.replace(t).is_some() {
                return Err(bad(
                    token,
                    "give one unit type: line, guards, light or cavalry".into(),
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
                "double-move" => {
                    charging = true;
                    double_move = true;
                }
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
    let pips = pips.unwrap_or(numbers.pips(kind));
    let cost = numbers.double_move_cost;
    if double_move && pips <= cost {
        return Err(bad(
            spec,
            format!(
                "a double move costs {} (LW-3, double_move_cost), and a unit on its last pip may take no offensive action (LW-1): give pips={} or more",
                if cost == 1 {
                    "a pip".to_string()
                } else {
                    format!("{cost} pips")
                },
                cost + 1
            ),
        ));
    }
    Ok(Side {
        kind,
        pips,
        stands,
        charging,
        double_move,
        obstacle,
        general,
        numbers,
    })
}

/// The dice of a volley and the roll each needs (LW-2): artillery by range band; else the
/// unit's own stands (`own`, a `test`: no more dice than pips under `dice-follow-pips`) or the
/// enemy's `fire_dice` (`under-fire`).
fn volley_dice(
    (p, n): (&Params, &lw::Numbers),
    own: bool,
    dice_follow_pips: bool,
) -> Result<(u32, u8)> {
    let to_hit = n.fire_to_hit(p.cover, p.flanking);
    let dice = if p.fire_from == "artillery" {
        n.artillery_dice(p.range_band)
            .ok_or_else(|| Error::Invalid {
                what: p.how.range_band.what.clone(),
                value: p.range_band.to_string(),
                allowed: "a range band from 1 to 4".into(),
            })?
    } else if own {
        if !p.unit_type.shoots() {
            return Err(Error::Invalid {
                what: p.how.unit_type.what.clone(),
                value: p.unit_type.name().into(),
                allowed: "cavalry do not shoot (LW-2): a volley test takes line, guards or light, or fire_from=artillery".into(),
            });
        }
        lw::infantry_dice(p.stands, p.pips, dice_follow_pips)
    } else {
        p.fire_dice
    };
    Ok((dice, to_hit))
}

/// Build a runnable Age of Linear Warfare scenario from the user's inputs.
///
/// # Errors
/// Unknown keys, keywords or options, values out of range, and values that do not fit together.
fn build(scenario: Scenario, r: &Resolved, options: &[String]) -> Result<Box<dyn Job>> {
    let p = Params::read(r)?;
    let q = RuleParams::read(r)?;
    let n = numbers(&q);
    let dice_follow_pips = Switches::read(options).dice_follow_pips;
    if scenario.is_battle() {
        return build_battle(scenario, r, (&p, &q), options, dice_follow_pips);
    }
    let describe = |notes| describe(NAME, scenario, r, options, notes);
    let mut notes = Vec::new();
    match scenario {
        Scenario::Test => {
            let chain = if p.test == "round" {
                notes.push(format!(
                    "one opposed roll: each side a D6 plus its modifiers; the first side's total is {:+} against the second's (LW-4)",
                    p.difference
                ));
                LwTest::Round {
                    difference: p.difference,
                }
            } else {
                let (dice, to_hit) = volley_dice((&p, &n), true, dice_follow_pips)?;
                if dice > MAX_VOLLEY_DICE {
                    return Err(Error::Invalid {
                        what: p.how.stands.what,
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
                        meaning: "hits (pips removed) by the volley",
                    }],
                ),
            };
            Ok(Box::new(ChainJob::new(
                chain,
                describe(notes),
                outcomes,
                metrics,
                vec![],
            )))
        }
        Scenario::UnderFire => {
            let pips = p.pips;
            let general = p.general;
            let joins = p.general_joins;
            if joins && !general {
                return Err(Error::Conflict(
                    "--set general_joins=true needs a general: add --general".into(),
                ));
            }
            let type_max = n.pips(p.unit_type);
            let start_pips = if joins {
                (pips + 1).min(type_max.max(pips))
            } else {
                pips
            };
            let fall_back_at = p.fall_back_at;
            let return_at = match p.return_at {
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
            let fire = if p.fire_loss.is_empty() && p.fire_from == "infantry" {
                Fire::dice(p.fire_dice, n.fire_to_hit(p.cover, p.flanking))
            } else if p.fire_loss.is_empty() {
                let (dice, to_hit) = volley_dice((&p, &n), false, false)?;
                Fire::dice(dice, to_hit)
            } else {
                shared::fire_model(&FireParams {
                    dice: p.fire_dice,
                    to_hit: n.fire_to_hit(p.cover, p.flanking),
                    loss: p.fire_loss.clone(),
                    how_dice: p.how.fire_dice.clone(),
                    how_loss: p.how.fire_loss.clone(),
                })?
            };
            notes.push(format!(
                "enemy fire each turn: {} (mean {:.3} pips); holes in the line: {HOLES}",
                fire.description(),
                fire.mean()
            ));
            if general {
                notes.push(format!(
                    "a general is attached: the coin is flipped {} (LW-6)",
                    coin_words(q.general_coin)
                ));
            }
            if fall_back_at > 0 {
                notes.push(format!(
                    "falls back at {fall_back_at} pips or fewer, recovers a pip a turn after the turn it retires, rejoins at {return_at} (LW-5)"
                ));
            }
            let start = LwState {
                status: LwStatus::InLine,
                pips: Pips {
                    unit: start_pips,
                    general: if general { n.general_pips } else { 0 },
                },
            };
            Ok(Box::new(ChainJob::new(
                LwUnderFire::new(
                    start_pips,
                    start,
                    p.turns,
                    fire,
                    lw::FallBack {
                        at: fall_back_at,
                        return_at,
                        out_of_range: p.fall_back_out_of_range,
                    },
                    q.general_coin,
                ),
                describe(notes),
                OutcomeDef::per_class(&["in_line", "falling_back", "removed"], 0),
                vec![
                    EMPTY_TURNS,
                    MetricDef::AbsorbTurn {
                        name: "turn_removed",
                        class: 2,
                        meaning: "turn of removal, among units removed",
                    },
                    MetricDef::Value {
                        name: "pips_lost",
                        meaning: "pips down from the start at the end (recovered pips count back)",
                    },
                ],
                vec![TableDef::PerTurn {
                    name: "per_turn",
                    title: "State after each turn",
                }],
            )))
        }
        Scenario::Melee => {
            let attacker = parse_side(&p.how.attacker.what, &p.attacker, n)?;
            let defender = parse_side(&p.how.defender.what, &p.defender, n)?;
            if attacker.pips < 2 {
                return Err(Error::Invalid {
                    what: p.how.attacker.what.clone(),
                    value: p.attacker.clone(),
                    allowed: "an attacker on its last pip may take no offensive action (LW-1)"
                        .into(),
                });
            }
            if defender.charging {
                return Err(Error::Invalid {
                    what: p.how.defender.what,
                    value: "charging".into(),
                    allowed: "only the attacker charges".into(),
                });
            }
            if defender.double_move {
                return Err(Error::Invalid {
                    what: p.how.defender.what,
                    value: "double-move".into(),
                    allowed: "only the attacker charges".into(),
                });
            }
            let closing_fire = if defender.kind.shoots() {
                "the defender fires as it goes in"
            } else {
                "cavalry do not shoot, so no closing fire (LW-2)"
            };
            notes.push(format!(
                "attacker: {} {} pips{}{}{}; defender: {} {} pips{}{}",
                attacker.kind.name(),
                attacker.pips,
                match (attacker.double_move, attacker.charging) {
                    (true, _) => format!(
                        ", charging with a double move: it spends a pip first (LW-3, reported apart from attacker_pips_lost); {closing_fire}"
                    ),
                    (false, true) => format!(", charging (+1 in the first round, LW-4; a single move costs no pip, LW-3); {closing_fire}"),
                    _ => String::new(),
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
            notes.push(format!(
                "a drawn first round is a bounce (LW-4); a drawn follow-up ends the melee, won by the side that won the round before; a winner on its last pip may not follow up (LW-1) and wins the melee there{}",
                if attacker.general || defender.general {
                    format!("; the general's coin is flipped {} (LW-6)", coin_words(q.general_coin))
                } else {
                    String::new()
                }
            ));
            let follow = if p.follow_up == "always" {
                FollowUp::Always
            } else {
                FollowUp::Never
            };
            Ok(Box::new(ChainJob::new(
                LwMelee::new(
                    attacker,
                    defender,
                    follow,
                    true,
                    n.fire_to_hit(false, false),
                    dice_follow_pips,
                    q.general_coin,
                ),
                describe(notes),
                OutcomeDef::per_class(&["attacker_wins", "defender_wins", "bounce"], 1),
                vec![
                    MetricDef::Value {
                        name: "rounds",
                        meaning: "melee rounds fought",
                    },
                    MetricDef::Value {
                        name: "attacker_pips_lost",
                        meaning: "attacker's pips lost to the closing fire and the melee (a double move's pip is not a loss: see the notes)",
                    },
                    MetricDef::Value {
                        name: "defender_pips_lost",
                        meaning: "defender's pips lost",
                    },
                    MetricDef::Value {
                        name: "attacker_destroyed",
                        meaning: "P(attacker destroyed: second lost round or no pips)",
                    },
                    MetricDef::Value {
                        name: "defender_destroyed",
                        meaning: "P(defender destroyed: second lost round or no pips)",
                    },
                ],
                vec![],
            )))
        }
        other => Err(shared::unsupported(NAME, SCENARIOS, other)),
    }
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
};

impl RuleSystem for LinearWarfare {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn outcomes(&self, scenario: Scenario) -> &'static [&'static str] {
        match scenario {
            Scenario::Test => &test::OUTCOMES,
            Scenario::UnderFire => &["in_line", "falling_back", "removed"],
            Scenario::Melee => &["attacker_wins", "defender_wins", "bounce"],
            other => shared::battle_outcomes(other),
        }
    }
    fn defaults(&self, _scenario: Scenario, inputs: &[Input]) -> Vec<(&'static str, String)> {
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
        vec![("pips", type_pips)]
    }
    fn build(&self, scenario: Scenario, p: &Resolved, options: &[String]) -> Result<Box<dyn Job>> {
        build(scenario, p, options)
    }
    fn odds(&self, stands: Option<u8>, max_lost: u8, rules: &Resolved) -> Result<Odds> {
        let _ = max_lost;
        if let Some(s) = stands {
            return Err(Error::Invalid {
                what: "--stands".into(),
                value: s.to_string(),
                allowed: "the linear-warfare odds sheet has no --stands: its volley table runs 1 to 6 dice".into(),
            });
        }
        Ok(odds::linear_warfare(numbers(&RuleParams::read(rules)?)))
    }
}
