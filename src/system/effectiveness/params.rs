//! The effectiveness rules' tables: their scenarios, parameters (situation and rule), optional
//! rules and unit-spec keywords, each with its default and meaning: the one home of every
//! default. [`Rules`] reads the rule parameters into the rules code's own types.

use super::rules as ef;
use crate::error::Result;
use crate::frac::Frac;
use crate::params::{Kind, Resolved};
use crate::scenario::Scenario;
use crate::system::Omission;

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

/// What the effectiveness house rule holds that the tool leaves out (docs/RULES.md §5), by the
/// scenarios it bears on.
pub const NOT_MODELLED: &[Omission] = &[
    Omission {
        what: "distances and facing (a retreat's full move and its variation, ending with its back to the enemy)",
        rules: "EF-3, EF-5",
        scenarios: &[
            Scenario::Rally,
            Scenario::UnderFire,
            Scenario::Melee,
            Scenario::Engagement,
            Scenario::Line,
        ],
    },
    Omission {
        what: "how far a support may stand (up to two turns' move): a unit is supported or not",
        rules: "EF-2",
        scenarios: &[
            Scenario::Test,
            Scenario::UnderFire,
            Scenario::Melee,
            Scenario::Engagement,
            Scenario::Line,
        ],
    },
    Omission {
        what: "a general switching units, or falling with his unit",
        rules: "EF-2",
        scenarios: &[
            Scenario::Rally,
            Scenario::UnderFire,
            Scenario::Melee,
            Scenario::Engagement,
            Scenario::Line,
        ],
    },
];

pub(super) const ALL: &[Scenario] = &[Scenario::Test, Scenario::Rally, Scenario::UnderFire];
pub(super) const MELEE: &[Scenario] = &[Scenario::Melee, Scenario::Engagement, Scenario::Line];
pub(super) const MELEE_ONLY: &[Scenario] = &[Scenario::Melee];
pub(super) const FIRE_AND_MELEE: &[Scenario] = &[
    Scenario::UnderFire,
    Scenario::Melee,
    Scenario::Engagement,
    Scenario::Line,
];
pub(super) const TURNED: &[Scenario] = &[
    Scenario::Rally,
    Scenario::UnderFire,
    Scenario::Engagement,
    Scenario::Line,
];
pub(super) const FIRE: &[Scenario] = &[Scenario::UnderFire];
pub(super) const FIRE_BATTLE: &[Scenario] =
    &[Scenario::UnderFire, Scenario::Engagement, Scenario::Line];
pub(super) const LINE: &[Scenario] = &[Scenario::Line];

/// Which states leave a hole in the line, and why.
pub const HOLES: &str = "retreating (its back turned to the enemy, out of the line until it returns to action, EF-5) and eliminated";

crate::params::choice_enum! {
    /// Where the unit of `test`, `rally` and `under-fire` starts (EF-5).
    pub enum StartState {
        /// In the line.
        InLine = "in_line",
        /// Retreating, out of the line.
        Retreating = "retreating",
    }
}

crate::params::choice_enum! {
    /// The troop type of the supports behind a line (EF-2, EF-4).
    pub enum SupportType {
        /// The type of the unit in front.
        Same = "same",
        /// Line infantry.
        Infantry = "infantry",
        /// Cavalry.
        Cavalry = "cavalry",
        /// Light infantry.
        Light = "light",
        /// Artillery.
        Artillery = "artillery",
    }
}

impl SupportType {
    /// The supports' troop type behind a unit of type `front`.
    pub fn troop(self, front: ef::Troop) -> ef::Troop {
        match self {
            SupportType::Same => front,
            SupportType::Infantry => ef::Troop::Infantry,
            SupportType::Cavalry => ef::Troop::Cavalry,
            SupportType::Light => ef::Troop::Light,
            SupportType::Artillery => ef::Troop::Artillery,
        }
    }
}

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
            meaning: "the score a test must reach by class (elite 3, regular 4, poor/militia 5)",
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
    state: StartState {
            flag: Some("--state"),
            kind: Kind::Choice(StartState::NAMES),
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
    support_type: SupportType {
            flag: None,
            kind: Kind::Choice(SupportType::NAMES),
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
    measure_strength: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "measure the strength the unit's place in the line holds each turn: strength-turns held and weakly held turns (the simulation then draws turn by turn: slower)",
            rule: "§4",
            scenarios: FIRE,
    },
    weak_share: Frac {
            flag: None,
            kind: Kind::Prob,
            default: "1/2",
            meaning: "a turn counts as weakly held when the place (in a line: the whole front) holds less than this share of its full strength",
            rule: "§4",
            scenarios: FIRE_BATTLE,
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

crate::params::choice_enum! {
    /// EF-3 in battles: whether a unit charged into melee and its charger still exchange fire
    /// in the turn the charge goes in (the source counts "any [hits] inflicted by firing" in
    /// the melee's comparison, but does not say when a charge contacts).
    pub enum ChargeFire {
        /// The charge contacts after the fire phase: charger and target exchange fire as they
        /// close, and those hits count in the melee.
        Exchange = "exchange",
        /// The charge contacts before the fire phase: the two never fire at each other, and a
        /// melee counts fire hits only from others (none, in an engagement).
        None = "none",
    }
}

crate::params::choice_enum! {
    /// EF-3 in battles: whether two units locked in a melee that goes on from an earlier turn
    /// (a tied round) fire and are fired at in the fire phase. The source counts "any [hits]
    /// inflicted by firing" in the melee's comparison and does not stop units in a melee from
    /// firing.
    pub enum LockedFire {
        /// They fire and are fired at as units in the line do, and the turn's fire hits count
        /// in that turn's round.
        Exchange = "exchange",
        /// The tool's earlier reading: they neither fire nor are fired at, and a round after a
        /// tie counts melee hits only.
        None = "none",
    }
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
    charge_fire: ChargeFire {
            flag: None,
            kind: Kind::Choice(ChargeFire::NAMES),
            default: "exchange",
            meaning: "battles: exchange (a charger and its target still exchange fire in the turn the charge goes in, and those hits count in the melee, as EF-3's \"including any inflicted by firing\" asks) or none (they are in contact before the fire phase and never fire at each other)",
            rule: "EF-3",
            scenarios: SCENARIOS,
    },
    locked_fire: LockedFire {
            flag: None,
            kind: Kind::Choice(LockedFire::NAMES),
            default: "exchange",
            meaning: "battles: units locked in a melee from an earlier turn (after a tied round) exchange (they fire and are fired at as units in the line, and the fire's hits count in that turn's round: EF-3 counts \"any [hits] inflicted by firing\") or none (they neither fire nor are fired at)",
            rule: "EF-3",
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
pub(super) const UNIT_SPEC: &str = "a unit spec: class and keywords (see Unit specs), e.g. \"elite general lost=1\"; in a line \"6 x regular\"";

/// The keywords of an effectiveness unit spec.
pub const SPEC_KEYWORDS: &str = "elite, regular, poor, infantry, cavalry, light, artillery, lost=N (steps lost: 0 to 3 as written, below the rule parameter steps), general, supported, dice=N (1 to 20)";

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
pub(super) struct Rules {
    /// Every rule parameter, typed.
    pub q: RuleParams,
    /// EF-1, EF-2 and EF-5's numbers, carried in every unit.
    pub numbers: ef::Numbers,
}

impl Rules {
    /// Read the rule parameters of `r`.
    pub(super) fn read(r: &Resolved) -> Result<Rules> {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every default lives in the tables: the rules code's own `Numbers::default` (used by
    /// its unit tests) is what the `RULES` table reads to.
    #[test]
    fn the_rules_codes_defaults_are_the_tables() {
        let r = crate::system::source_rules(&super::super::Effectiveness);
        assert_eq!(Rules::read(&r).unwrap().numbers, ef::Numbers::default());
    }
}
