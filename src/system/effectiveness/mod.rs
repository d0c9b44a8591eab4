//! The 25% effectiveness rules as the command line and experiments see them: parameters,
//! optional rules (among them the retreat amendment), and how they become a runnable scenario.

pub mod army;
mod cases;
pub mod invariants;
pub mod melee;
pub mod odds;
pub mod rally;
pub mod rules;
pub mod test;
pub mod under_fire;

use crate::dice::Weights;
use crate::error::{Error, Result};
use crate::params::{self, Input, Kind, Resolved};
use crate::scenario::fire::Fire;
use crate::scenario::{ChainJob, EMPTY_TURNS, Job, MetricDef, OutcomeDef, Scenario, TableDef};
use army::EfArmy;
use melee::EfFight;
use rally::EfRally;
use rules as ef;
use test::EfTest;
use under_fire::{EfUnderFire, Enemy};

use super::shared::{self, BattleParams, BattleSetup, FireParams, SideSpec, describe, fire_model};
use super::{About, RuleSystem};
use crate::frac::Frac;
use crate::odds::Odds;

/// The system's name.
pub const NAME: &str = "effectiveness";

/// The scenarios it has.
pub const SCENARIOS: &[Scenario] = &[
    Scenario::Test,
    Scenario::Rally,
    Scenario::UnderFire,
    Scenario::Melee,
    Scenario::Engagement,
    Scenario::Line,
];

const ALL: &[Scenario] = &[Scenario::Test, Scenario::Rally, Scenario::UnderFire];
const MELEE: &[Scenario] = &[Scenario::Melee, Scenario::Engagement, Scenario::Line];
const MELEE_ONLY: &[Scenario] = &[Scenario::Melee];
const FIRE_AND_MELEE: &[Scenario] = &[
    Scenario::UnderFire,
    Scenario::Melee,
    Scenario::Engagement,
    Scenario::Line,
];
const TURNED: &[Scenario] = &[
    Scenario::Rally,
    Scenario::UnderFire,
    Scenario::Engagement,
    Scenario::Line,
];
const FIRE: &[Scenario] = &[Scenario::UnderFire];
const FIRE_BATTLE: &[Scenario] = &[Scenario::UnderFire, Scenario::Engagement, Scenario::Line];
const LINE: &[Scenario] = &[Scenario::Line];

/// Which states leave a hole in the line, and why.
pub const HOLES: &str = "retreating (back to the enemy, out of the line until it returns to action, EF-5) and eliminated";

crate::params::param_table! {
/// Every parameter of the effectiveness rules' scenarios.
    pub static PARAMS;
    /// The effectiveness rules' parameters, typed, read once when a scenario is built.
    pub struct Params;
    /// How each of the effectiveness rules' parameters was set.
    how ParamsHow;
    class: ef::Class {
            flag: Some("--class"),
            kind: Kind::Choice(&["elite", "regular", "poor"]),
            default: "regular",
            meaning: "class: the score a test must reach (elite 3, regular 4, poor/militia 5)",
            rule: "EF-2",
            scenarios: ALL,
    },
    lost: u8 {
            flag: Some("--lost"),
            kind: Kind::Int { min: 0, max: 7 },
            default: "0",
            meaning: "steps of effectiveness already lost, below the rule's steps (by the source's 4 steps: 0 = 100%, 3 = 25%)",
            rule: "EF-1",
            scenarios: ALL,
    },
    state: String {
            flag: Some("--state"),
            kind: Kind::Choice(&["in_line", "retreating"]),
            default: "in_line",
            meaning: "where the unit starts (rally defaults to retreating)",
            rule: "EF-5",
            scenarios: ALL,
    },
    general: bool {
            flag: Some("--general"),
            kind: Kind::Bool,
            default: "false",
            meaning: "a general is attached: general_bonus (+1) to tests and return_general_bonus (+1) to the roll to return to action",
            rule: "EF-2, EF-5",
            scenarios: ALL,
    },
    supported: bool {
            flag: Some("--supported"),
            kind: Kind::Bool,
            default: "false",
            meaning: "a friendly unit directly behind supports it: support_bonus (+1) to tests",
            rule: "EF-2",
            scenarios: ALL,
    },
    support_type: String {
            flag: None,
            kind: Kind::Choice(&["same", "infantry", "cavalry", "light", "artillery"]),
            default: "same",
            meaning: "troop type of the supports behind the line (same: the type of the unit in front); light infantry and artillery give no support and block no retreat",
            rule: "EF-2, EF-4",
            scenarios: LINE,
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
            meaning: "dice the enemy fires each turn",
            rule: "§4",
            scenarios: FIRE_BATTLE,
    },
    fire_to_hit: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 6 },
            default: "5",
            meaning: "the roll each fire die needs to hit",
            rule: "§4",
            scenarios: FIRE_BATTLE,
    },
    fire_loss: Vec<Frac> {
            flag: None,
            kind: Kind::Dist,
            default: "",
            meaning: "instead of dice: chances of losing 0, 1, 2 … quarters a turn, e.g. 1/2,1/3,1/6",
            rule: "§4",
            scenarios: FIRE_BATTLE,
    },
    return_fire_dice: u32 {
            flag: None,
            kind: Kind::Int { min: 0, max: 200 },
            default: "4",
            meaning: "dice the unit fires back each turn while in the line (for EF-5's exception)",
            rule: "EF-5",
            scenarios: FIRE,
    },
    return_fire_to_hit: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 6 },
            default: "5",
            meaning: "the roll each of the unit's fire dice needs to hit",
            rule: "EF-5",
            scenarios: FIRE,
    },
    enemy_class: ef::Class {
            flag: None,
            kind: Kind::Choice(&["elite", "regular", "poor"]),
            default: "regular",
            meaning: "class of the enemy it exchanges fire with, for that enemy's own test",
            rule: "EF-2, EF-5",
            scenarios: FIRE,
    },
    enemy_general: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "the enemy has a general attached (+1 to its test)",
            rule: "EF-2, EF-5",
            scenarios: FIRE,
    },
    enemy_supported: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "the enemy is supported (+1 to its test)",
            rule: "EF-2, EF-5",
            scenarios: FIRE,
    },
    p_blocked: Frac {
            flag: None,
            kind: Kind::Prob,
            default: "0",
            meaning: "chance a retreat's path is blocked by a unit that is not light infantry or artillery (the unit is then eliminated)",
            rule: "EF-4",
            scenarios: FIRE_AND_MELEE,
    },
    retreat_out_of_range: bool {
            flag: None,
            kind: Kind::Bool,
            default: "true",
            meaning: "a retreating unit is out of the enemy's range and is not fired at",
            rule: "EF-5",
            scenarios: FIRE_BATTLE,
    },
    exchange_fire: bool {
            flag: None,
            kind: Kind::Bool,
            default: "true",
            meaning: "the unit exchanges fire with the enemy that fires at it (false: no EF-5 exception)",
            rule: "EF-5",
            scenarios: FIRE,
    },
    attacker: String {
            flag: Some("--attacker"),
            kind: Kind::Spec(UNIT_SPEC),
            default: "regular",
            meaning: "the attacking unit: elite|regular|poor and keywords lost=N (quarters), general, supported, dice=N",
            rule: "EF-2, EF-3",
            scenarios: MELEE,
    },
    defender: String {
            flag: Some("--defender"),
            kind: Kind::Spec(UNIT_SPEC),
            default: "regular",
            meaning: "the defending unit, as --attacker",
            rule: "EF-2, EF-3",
            scenarios: MELEE,
    },
    melee_dice: u32 {
            flag: None,
            kind: Kind::Int { min: 1, max: 20 },
            default: "4",
            meaning: "dice each side rolls in a melee round (a spec's dice=N overrides)",
            rule: "EF-3",
            scenarios: MELEE,
    },
    max_rounds: u32 {
            flag: None,
            kind: Kind::Int { min: 2, max: 1000 },
            default: "200",
            meaning: "safety cap on tied rounds (one a turn): a melee not certain to end by then is an error",
            rule: "EF-3",
            scenarios: MELEE_ONLY,
    },
}

crate::params::param_table! {
    /// The effectiveness rules' rule parameters: the numbers of the house rule and its
    /// amendment, each defaulting to the source's value (`--rule KEY=VALUE`).
    pub static RULES;
    /// The effectiveness rules' rule parameters, typed.
    pub struct RuleParams;
    /// How each rule parameter was set.
    how RuleParamsHow;
    score_elite: i8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 8 },
            default: "3",
            meaning: "the score (die plus modifiers) an Elite unit's test must reach",
            rule: "EF-2",
            scenarios: SCENARIOS,
    },
    score_regular: i8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 8 },
            default: "4",
            meaning: "the score a Regular unit's test must reach",
            rule: "EF-2",
            scenarios: SCENARIOS,
    },
    score_poor: i8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 8 },
            default: "5",
            meaning: "the score a Poor or militia unit's test must reach",
            rule: "EF-2",
            scenarios: SCENARIOS,
    },
    general_bonus: i8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "the attached general's bonus to tests",
            rule: "EF-2",
            scenarios: SCENARIOS,
    },
    support_bonus: i8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "a supported unit's bonus to tests (a friendly unit directly behind)",
            rule: "EF-2",
            scenarios: SCENARIOS,
    },
    steps: u8 {
            flag: None,
            kind: Kind::Int { min: 2, max: 8 },
            default: "4",
            meaning: "steps of effectiveness from 100% to eliminated, each failed test or hits_per_step hits costing one (the source: 4 steps of 25%)",
            rule: "EF-1",
            scenarios: SCENARIOS,
    },
    hits_per_step: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 12 },
            default: "2",
            meaning: "hits that cost a step, 25% of effectiveness (hits short of a step carry over)",
            rule: "EF-3",
            scenarios: SCENARIOS,
    },
    melee_to_hit: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 6 },
            default: "4",
            meaning: "the roll a melee die needs to hit",
            rule: "EF-3",
            scenarios: SCENARIOS,
    },
    return_on: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 8 },
            default: "5",
            meaning: "with --option return-roll: the roll a retreating unit needs (before the general's bonus) to return to normal action; above 6 + that bonus: never",
            rule: "EF-5",
            scenarios: SCENARIOS,
    },
    return_general_bonus: i8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 3 },
            default: "1",
            meaning: "with --option return-roll: the attached general's bonus to the roll to return to action",
            rule: "EF-5",
            scenarios: SCENARIOS,
    },
    break_point: u32 {
            flag: None,
            kind: Kind::Int { min: 1, max: 100 },
            default: "50",
            meaning: "line: a side breaks when this percentage of its units (supports included) is gone (the house rule has no army morale rule)",
            rule: "§4",
            scenarios: SCENARIOS,
    },
    retreat_turns: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 12 },
            default: "1",
            meaning: "without --option return-roll: turns a retreating unit is out of the line before it is back in action (the plain rules say no more)",
            rule: "EF-3, EF-5",
            scenarios: SCENARIOS,
    },
}

/// What an effectiveness unit spec allows, with an example.
const UNIT_SPEC: &str = "a unit spec: class and keywords (see Unit specs), e.g. \"elite general lost=1\"; in a line \"6 x regular\"";

/// The keywords of an effectiveness unit spec.
pub const SPEC_KEYWORDS: &str = "elite, regular, poor, infantry, cavalry, light, artillery, lost=N (steps lost: 0 to 3 as written, below the rule parameter steps), general, supported, dice=N (1 to 20)";

/// Parse an effectiveness unit spec such as `elite general lost=1` into the unit, its start
/// and its melee dice (`None`: the default).
///
/// # Errors
/// [`Error::Invalid`] naming `what` and the keyword at fault, with the allowed ones.
pub fn parse_unit(
    what: &str,
    spec: &str,
    natural_one_fails: bool,
    numbers: ef::Numbers,
) -> Result<(ef::Unit, ef::UnitState, Option<u32>)> {
    let bad = |value: &str, allowed: String| Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed,
    };
    let (mut class, mut lost, mut dice, mut troop) = (None, 0u8, None, None);
    let (mut general, mut supported) = (false, false);
    for token in spec.split([' ', ',']).filter(|t| !t.is_empty()) {
        if let Some(c) = ef::Class::parse(token) {
            if class.replace(c).is_some() {
                return Err(bad(token, "give one class: elite, regular or poor".into()));
            }
            continue;
        }
        if let Some(t) = ef::Troop::parse(token) {
            if troop.replace(t).is_some() {
                return Err(bad(
                    token,
                    "give one troop type: infantry, cavalry, light or artillery".into(),
                ));
            }
            continue;
        }
        match (token, token.split_once('=')) {
            (_, Some(("lost", v))) => {
                let most = i64::from(numbers.steps) - 1;
                lost = params::parse_int(v)
                    .filter(|x| (0..=most).contains(x))
                    .ok_or_else(|| {
                        bad(
                            token,
                            format!(
                                "lost= takes steps (quarters) lost, 0 to {most} (steps = {})",
                                numbers.steps
                            ),
                        )
                    })? as u8
            }
            (_, Some(("dice", v))) => {
                dice = Some(
                    params::parse_int(v)
                        .filter(|x| (1..=20).contains(x))
                        .ok_or_else(|| {
                            bad(token, "dice= takes a whole number from 1 to 20".into())
                        })? as u32,
                )
            }
            ("general", None) => general = true,
            ("supported", None) => supported = true,
            _ => {
                return Err(bad(
                    token,
                    format!("unknown keyword; allowed: {SPEC_KEYWORDS}"),
                ));
            }
        }
    }
    let unit = ef::Unit {
        class: class.unwrap_or(ef::Class::Regular),
        general,
        supported,
        natural_one_fails,
        return_on: 5,
        troop: troop.unwrap_or_default(),
        return_roll: true,
        retreat_turns: 1,
        numbers,
    };
    let start = ef::UnitState {
        status: ef::Status::InLine,
        quarters: numbers.steps - lost,
        hits: 0,
        out: 0,
    };
    Ok((unit, start, dice))
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

crate::params::option_table! {
/// The effectiveness rules' optional rules.
    pub static OPTIONS;
    /// Which of its optional rules are switched on.
    pub struct Switches;
    natural_one_fails = "natural-one-fails" {
        rule: "EF-2",
        meaning: "a natural 1 fails every test (the source has no automatic failure: Elite +2 never fails)",
    },
    retreat_on_fire = "retreat-on-fire" {
        rule: "EF-5",
        meaning: "the amendment's first addition: a unit that loses 25%+ to fire and fails its test also retreats a full move",
    },
    return_roll = "return-roll" {
        rule: "EF-5",
        meaning: "the amendment's second addition: a retreating unit rolls 5+ (+1 with a general) at the start of each move to return to normal action (without it: back after retreat_turns)",
    },
}

/// The rule parameters, typed, as the rules code takes them.
struct Rules {
    /// Every rule parameter, typed.
    q: RuleParams,
    /// EF-1, EF-2 and EF-5's numbers, carried in every unit.
    numbers: ef::Numbers,
}

impl Rules {
    /// Read the rule parameters of `r`.
    fn read(r: &Resolved) -> Result<Rules> {
        let q = RuleParams::read(r)?;
        let numbers = ef::Numbers {
            scores: [q.score_elite, q.score_regular, q.score_poor],
            general_bonus: q.general_bonus,
            support_bonus: q.support_bonus,
            return_general_bonus: q.return_general_bonus,
            steps: q.steps,
        };
        Ok(Rules { q, numbers })
    }

    /// A unit spec's unit, playing these rules (EF-5's return and EF-1, EF-2's numbers).
    fn unit(
        &self,
        what: &str,
        spec: &str,
        on: &Switches,
    ) -> Result<(ef::Unit, ef::UnitState, Option<u32>)> {
        let (mut u, s, d) = parse_unit(what, spec, on.natural_one_fails, self.numbers)?;
        u.return_on = self.q.return_on;
        u.return_roll = on.return_roll;
        u.retreat_turns = self.q.retreat_turns;
        Ok((u, s, d))
    }
}

fn blocked_table(p: &Params) -> Option<Weights> {
    let f = p.p_blocked;
    (f.num > 0)
        .then(|| Weights::new(vec![f.den - f.num, f.num]))
        .flatten()
}

fn build_melee(
    r: &Resolved,
    p: &Params,
    on: &Switches,
    options: &[String],
) -> Result<Box<dyn Job>> {
    let rules = Rules::read(r)?;
    let (a, a_start, a_dice) = rules.unit(&p.how.attacker.what, &p.attacker, on)?;
    let (d, d_start, d_dice) = rules.unit(&p.how.defender.what, &p.defender, on)?;
    let dice = p.melee_dice;
    let to_hit = rules.q.melee_to_hit;
    let (a_dice, d_dice) = (a_dice.unwrap_or(dice), d_dice.unwrap_or(dice));
    let hpq = rules.q.hits_per_step;
    let notes = vec![format!(
        "a round a turn: attacker {a_dice} dice, defender {d_dice} dice, hitting on {to_hit}+; {hpq} hit(s) a quarter; the side that suffered more hits tests (EF-2) and retreats, blocked with chance {} (EF-3, EF-4); a tie fights on next turn",
        p.p_blocked
    )];
    let chain = EfFight::new(
        a,
        d,
        [a_start, d_start],
        [Weights::hits(a_dice, to_hit), Weights::hits(d_dice, to_hit)],
        hpq,
        blocked_table(p),
        p.max_rounds,
    );
    Ok(Box::new(ChainJob::new(
        chain,
        describe(NAME, Scenario::Melee, r, options, notes),
        OutcomeDef::per_class(&["attacker_wins", "defender_wins", "mutual_destruction"], 1),
        vec![
            MetricDef::EndTurn {
                name: "rounds",
                classes: vec![1, 2, 3],
                meaning: "rounds (turns) fought",
            },
            MetricDef::Value {
                name: "attacker_quarters_lost",
                meaning: "attacker's quarters lost",
            },
            MetricDef::Value {
                name: "defender_quarters_lost",
                meaning: "defender's quarters lost",
            },
            MetricDef::Value {
                name: "loser_failed_test",
                meaning: "share of melees whose loser failed its test (a further 25%)",
            },
            MetricDef::Value {
                name: "loser_eliminated",
                meaning: "share of melees whose loser was eliminated (by the lost quarter or a blocked retreat)",
            },
        ],
        vec![],
    )))
}

/// `engagement` and `line`: the units of both sides from their specs.
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
    let rules = Rules::read(r)?;
    let dice = p.melee_dice;
    let to_hit = rules.q.melee_to_hit;
    let (mut units, mut starts, mut melee) = ([vec![], vec![]], [vec![], vec![]], [vec![], vec![]]);
    let mut supports = [vec![], vec![]];
    for (side, given) in sides.iter().enumerate() {
        for (k, spec) in specs[side].iter().enumerate() {
            let what = format!("{} (unit {})", given.how, k + 1);
            let (u, s, d) = rules.unit(&what, spec, on)?;
            supports[side].push(if p.support_type == "same" {
                u.troop
            } else {
                ef::Troop::parse(&p.support_type).unwrap_or_default()
            });
            let mut supported = u;
            supported.supported = true;
            units[side].push([u, supported]);
            starts[side].push(s);
            melee[side].push(Weights::hits(d.unwrap_or(dice), to_hit));
        }
    }
    let fire = shared::battle_volleys(&fire_params(p), &battle)?;
    let hpq = rules.q.hits_per_step;
    let notes = vec![format!(
        "side A's fire: {}; side B's: {}; {hpq} hit(s) a quarter; melee {dice} dice a side on {to_hit}+ (dice= in a spec overrides); retreats blocked with chance {} or by a support behind that is not light infantry or artillery, which tests unless it is cavalry retreated into by infantry (EF-4); light and artillery supports give no +1 (EF-2){}; {}",
        fire[0].description(),
        fire[1].description(),
        p.p_blocked,
        if on.retreat_on_fire {
            "; retreat-on-fire: a failed fire test also retreats, unless an enemy it exchanged fire with lost and failed too (EF-5)"
        } else {
            ""
        },
        return_words(&rules.q, on),
    )];
    let files = units[0].len();
    let army = EfArmy {
        units,
        starts,
        fire,
        melee,
        hits_per_quarter: hpq,
        retreat_on_fire: on.retreat_on_fire,
        blocked: blocked_table(p),
        retreat_out_of_range: p.retreat_out_of_range,
        support_troops: supports,
    };
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

/// How a retreating unit comes back into action (EF-5), in words.
fn return_words(p: &RuleParams, on: &Switches) -> String {
    if on.return_roll {
        format!(
            "return-roll: a retreating unit returns to normal action on a roll of {}+ ({:+} with a general) at the start of each move (EF-5)",
            p.return_on, p.return_general_bonus
        )
    } else {
        format!(
            "a retreating unit is out of the line for {} turn{} and then back in action (retreat_turns; the return roll is the amendment's, --option return-roll)",
            p.retreat_turns,
            if p.retreat_turns == 1 { "" } else { "s" }
        )
    }
}

/// The unit of `test`, `rally` and `under-fire`.
fn unit(p: &Params, rules: &Rules, on: &Switches) -> ef::Unit {
    ef::Unit {
        class: p.class,
        general: p.general,
        supported: p.supported,
        natural_one_fails: on.natural_one_fails,
        return_on: rules.q.return_on,
        troop: ef::Troop::Infantry,
        return_roll: on.return_roll,
        retreat_turns: rules.q.retreat_turns,
        numbers: rules.numbers,
    }
}

/// The enemy it exchanges fire with under `retreat-on-fire` (EF-5): it never retreats here, so
/// its return roll is never taken.
fn enemy_unit(p: &Params, rules: &Rules, on: &Switches) -> ef::Unit {
    ef::Unit {
        class: p.enemy_class,
        general: p.enemy_general,
        supported: p.enemy_supported,
        natural_one_fails: on.natural_one_fails,
        return_on: rules.q.return_on,
        troop: ef::Troop::Infantry,
        return_roll: true,
        retreat_turns: 1,
        numbers: rules.numbers,
    }
}

/// The unit's state at the start.
///
/// # Errors
/// [`Error::Invalid`] for `lost` not below the rule's `steps`.
fn start(p: &Params, u: &ef::Unit) -> Result<ef::UnitState> {
    let steps = u.numbers.steps;
    if p.lost >= steps {
        return Err(Error::Invalid {
            what: p.how.lost.what.clone(),
            value: p.lost.to_string(),
            allowed: format!(
                "allowed: a whole number from 0 to {} (below steps = {steps}: a unit with every step lost is eliminated)",
                steps - 1
            ),
        });
    }
    let s = ef::UnitState {
        status: ef::Status::InLine,
        quarters: steps - p.lost,
        hits: 0,
        out: 0,
    };
    Ok(if p.state == "retreating" {
        u.retreating(s)
    } else {
        s
    })
}

fn need_note(u: &ef::Unit) -> String {
    match u.needs() {
        Some(1) => "a test always passes: no roll fails it (EF-2 has no automatic failure)".into(),
        Some(n) => format!("a test needs a natural {n}+ (EF-2)"),
        None => "no roll passes a test".into(),
    }
}

/// Build a runnable effectiveness-rules scenario from the user's inputs.
///
/// # Errors
/// Unknown keys or options, values out of range, and values that do not fit together.
fn build(scenario: Scenario, r: &Resolved, options: &[String]) -> Result<Box<dyn Job>> {
    let p = Params::read(r)?;
    let on = Switches::read(options);
    if scenario.is_battle() {
        return build_battle(scenario, r, &p, &on, options);
    }
    if scenario == Scenario::Melee {
        return build_melee(r, &p, &on, options);
    }
    let describe = |notes| describe(NAME, scenario, r, options, notes);
    let rules = Rules::read(r)?;
    let u = unit(&p, &rules, &on);
    let s = start(&p, &u)?;
    let mut notes = vec![need_note(&u)];
    let turns_table = |name: &'static str| TableDef::PerTurn {
        name,
        title: "State after each turn",
    };
    match scenario {
        Scenario::Test => Ok(Box::new(ChainJob::new(
            EfTest { unit: u },
            describe(notes),
            OutcomeDef::per_class(&["pass", "fail"], 0),
            vec![],
            vec![],
        ))),
        Scenario::Rally => {
            notes.push(return_words(&rules.q, &on));
            Ok(Box::new(ChainJob::new(
                EfRally {
                    unit: u,
                    start: s,
                    turns: p.turns,
                },
                describe(notes),
                vec![
                    OutcomeDef {
                        name: "back_in_action",
                        classes: vec![0],
                    },
                    OutcomeDef {
                        name: "still_retreating",
                        classes: vec![1],
                    },
                ],
                vec![MetricDef::AbsorbTurn {
                    name: "turns_to_return",
                    class: 0,
                    meaning: "moves until back in normal action, among units that returned",
                }],
                vec![
                    TableDef::Absorb {
                        name: "turns",
                        title: "Returned to action at each move and by each move",
                        columns: vec![("returned_at", 0, false), ("returned_by", 0, true)],
                    },
                    turns_table("per_turn"),
                ],
            )))
        }
        Scenario::UnderFire => {
            // Explicit losses are in quarters: one "hit" per quarter.
            let (fire, hits_per_quarter) = if p.fire_loss.is_empty() {
                (fire_model(&fire_params(&p))?, rules.q.hits_per_step)
            } else {
                (fire_model(&fire_params(&p))?, 1)
            };
            let p_blocked = p.p_blocked;
            let blocked = blocked_table(&p);
            let enemy = Enemy {
                unit: enemy_unit(&p, &rules, &on),
                fire: if p.exchange_fire {
                    Fire::dice(p.return_fire_dice, p.return_fire_to_hit)
                } else {
                    Fire::none()
                },
            };
            let retreat_on_fire = on.retreat_on_fire;
            notes.push(format!(
                "enemy fire each turn: {} (mean {:.3} hits), {hits_per_quarter} hit(s) a quarter; holes in the line: {HOLES}",
                fire.description(),
                fire.mean()
            ));
            if retreat_on_fire {
                notes.push(format!(
                    "retreat-on-fire: a failed fire test retreats the unit unless the enemy (class {}, under {}) also lost a quarter and failed; a retreat is blocked with chance {p_blocked}",
                    p.enemy_class.name(),
                    enemy.fire.description()
                ));
            }
            if retreat_on_fire || p.state == "retreating" {
                notes.push(return_words(&rules.q, &on));
            }
            Ok(Box::new(ChainJob::new(
                EfUnderFire {
                    unit: u,
                    start: s,
                    turns: p.turns,
                    fire,
                    hits_per_quarter,
                    retreat_on_fire,
                    enemy,
                    blocked,
                    retreat_out_of_range: p.retreat_out_of_range,
                },
                describe(notes),
                OutcomeDef::per_class(&["in_line", "retreating", "eliminated"], 0),
                vec![
                    EMPTY_TURNS,
                    MetricDef::AbsorbTurn {
                        name: "turn_eliminated",
                        class: 2,
                        meaning: "turn of elimination, among units eliminated",
                    },
                    MetricDef::Value {
                        name: "quarters_lost",
                        meaning: "quarters of effectiveness lost during the turns",
                    },
                ],
                vec![turns_table("per_turn")],
            )))
        }
        other => Err(shared::unsupported(NAME, SCENARIOS, other)),
    }
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
    edge_specs: &[
        (
            "elite general supported dice=20",
            "elite general supported dice=20",
        ),
        ("poor lost=3 dice=1", "poor lost=3 dice=1"),
    ],
};

impl RuleSystem for Effectiveness {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn outcomes(&self, scenario: Scenario) -> &'static [&'static str] {
        match scenario {
            Scenario::Test => &["pass", "fail"],
            Scenario::Rally => &["back_in_action", "still_retreating"],
            Scenario::UnderFire => &["in_line", "retreating", "eliminated"],
            Scenario::Melee => &["attacker_wins", "defender_wins", "mutual_destruction"],
            other => shared::battle_outcomes(other),
        }
    }
    fn defaults(&self, scenario: Scenario, _inputs: &[Input]) -> Vec<(&'static str, String)> {
        if scenario == Scenario::Rally {
            vec![("state", "retreating".into())]
        } else {
            Vec::new()
        }
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
                allowed: "effectiveness has no stands: its losses are in quarters".into(),
            });
        }
        let rules = Rules::read(rules)?;
        Ok(odds::effectiveness(rules.numbers, rules.q.return_on))
    }
}
