//! The Age of Linear Warfare's tables: its scenarios, parameters (situation and rule), optional
//! rules and unit-spec keywords, each with its default and meaning: the one home of every
//! default. [`numbers`] reads the rule parameters into the rules code's own types.

use super::rules::{self as lw, FollowUp, UnitType};
use crate::frac::Frac;
use crate::params::Kind;
use crate::scenario::Scenario;
use crate::system::Omission;

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

/// What The Age of Linear Warfare holds that the tool leaves out (docs/RULES.md §5), by the
/// scenarios it bears on.
pub const NOT_MODELLED: &[Omission] = &[
    Omission {
        what: "push-backs and move rates: a push-back does not change the distance, and cavalry's 40 cm counts as one move",
        rules: "LW-1, LW-4",
        scenarios: &[Scenario::Melee, Scenario::Engagement, Scenario::Line],
    },
    Omission {
        what: "artillery as units: its range bands serve a volley test only",
        rules: "LW-2",
        scenarios: &[Scenario::UnderFire, Scenario::Engagement, Scenario::Line],
    },
    Omission {
        what: "cover and flanking fire in fights",
        rules: "LW-2",
        scenarios: &[Scenario::Engagement, Scenario::Line],
    },
    Omission {
        what: "a general joining or leaving a unit during a fight",
        rules: "LW-6",
        scenarios: &[Scenario::UnderFire, Scenario::Engagement, Scenario::Line],
    },
    Omission {
        what: "the army's withdrawal itself: at half the army destroyed the battle ends",
        rules: "LW-7",
        scenarios: &[Scenario::Line],
    },
];

/// What a Linear Warfare unit spec allows, with an example.
const UNIT_SPEC: &str = "a unit spec: type and keywords (see Unit specs), e.g. \"guards pips=7 double-move\"; in a line \"6 x line\"";

pub(super) const TEST: &[Scenario] = &[Scenario::Test];
pub(super) const FIRE: &[Scenario] = &[Scenario::UnderFire];
pub(super) const FIRE_BATTLE: &[Scenario] =
    &[Scenario::UnderFire, Scenario::Engagement, Scenario::Line];
pub(super) const MELEE: &[Scenario] = &[Scenario::Melee, Scenario::Engagement, Scenario::Line];

pub(super) const VOLLEY_AND_FIRE: &[Scenario] = &[Scenario::Test, Scenario::UnderFire];
pub(super) const UNIT: &[Scenario] = &[Scenario::Test, Scenario::UnderFire];

/// LW-2: infantry "Range 25cm", one line-infantry move (LW-1): the battles' `fire_range`
/// default for this system.
pub(super) const FIRE_RANGE: u8 = 1;

/// Which states leave a hole in the line, and why.
pub const HOLES: &str = "falling back in good order (it retires a full move and recovers out of the line, LW-5) and removed";

/// The keywords of a unit spec, for messages.
pub const SPEC_KEYWORDS: &str = "line, guards, light, cavalry, pips=N (1 to 12), stands=N (1 to 24), charging, double-move, obstacle, general";

crate::params::choice_enum! {
    /// What one `test` is.
    pub enum TestKind {
        /// An opposed melee round (LW-4).
        Round = "round",
        /// A volley (LW-2).
        Volley = "volley",
    }
}

crate::params::choice_enum! {
    /// Who fires (LW-2).
    pub enum FireFrom {
        /// Infantry: a die a stand.
        Infantry = "infantry",
        /// Artillery: dice by range band.
        Artillery = "artillery",
    }
}

crate::params::param_table! {
/// Every parameter of The Age of Linear Warfare's scenarios.
    pub static PARAMS;
    /// The Age of Linear Warfare's parameters, typed, read once when a scenario is built.
    pub struct Params;
    /// How each of its parameters was set.
    how ParamsHow;
    test: TestKind {
            flag: None,
            kind: Kind::Choice(TestKind::NAMES),
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
    fire_from: FireFrom {
            flag: None,
            kind: Kind::Choice(FireFrom::NAMES),
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
    follow_up: FollowUp {
            flag: None,
            kind: Kind::Choice(FollowUp::NAMES),
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
            meaning: "the charger's melee bonus, in the first round (see charge_bonus_rounds)",
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
            meaning: "pips a double move to charge costs; the charger must have more than its last pip left once it has paid (LW-1: no offensive action on the last pip)",
            rule: "LW-3",
            scenarios: SCENARIOS,
    },
    reversal_follow_up: bool {
            flag: None,
            kind: Kind::Bool,
            default: "true",
            meaning: "a side that lost a round and won the follow-up may follow up in turn (false: that reversal ends the melee, won by it; the source does not say)",
            rule: "LW-4",
            scenarios: SCENARIOS,
    },
    last_pip_fires: lw::LastPipFires {
            flag: None,
            kind: Kind::Choice(lw::LastPipFires::NAMES),
            default: "closing-only",
            meaning: "what a unit on its last pip (\"no offensive action\") still shoots: closing-only (its closing fire at a charge, which is defence; no fire-phase volleys), all, or none (the source does not say whether firing is offensive)",
            rule: "LW-1",
            scenarios: SCENARIOS,
    },
    chargers_fire: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "battles: a unit that charges this turn still fires in the fire phase (the source gives only the charged unit's closing fire; by default the charger does not fire)",
            rule: "LW-3",
            scenarios: SCENARIOS,
    },
    last_pip_charges: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "battles: a declared charge still goes in when the fire phase has left the charger on its last pip, or a double move would put it there; it then draws the closing fire (the source: no offensive action on the last pip, so by default the charger stays where it is and no closing fire is drawn)",
            rule: "LW-1, LW-3",
            scenarios: &[Scenario::Engagement, Scenario::Line],
    },
    follow_up_draw: lw::FollowUpDraw {
            flag: None,
            kind: Kind::Choice(lw::FollowUpDraw::NAMES),
            default: "push-back",
            meaning: "a drawn round after the first: push-back (\"Draws result in a mutual push-back\": the melee ends there, won by neither, a bounce) or earlier-winner (the tool's reading before: the melee goes to the side that won the round before)",
            rule: "LW-4",
            scenarios: SCENARIOS,
    },
    charge_bonus_rounds: lw::ChargeBonusRounds {
            flag: None,
            kind: Kind::Choice(lw::ChargeBonusRounds::NAMES),
            default: "first",
            meaning: "the rounds in which the charger's +1 for \"charging into melee\" counts: first (the charge going in; after it the winner has its follow-up +1) or every round of the melee (the source does not say)",
            rule: "LW-4",
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
        rule: "LW-2 (the tool's)",
        meaning: "the tool's own idea, not the source's (which gives a die per stand): infantry roll no more fire dice than they have pips left",
    },
}

/// The numbers of LW-1 to LW-7 from the rule parameters.
pub(super) fn numbers(q: &RuleParams) -> lw::Numbers {
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
        reversal_follow_up: q.reversal_follow_up,
        last_pip_fires: q.last_pip_fires,
        follow_up_draw: q.follow_up_draw,
        charge_bonus_rounds: q.charge_bonus_rounds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every default lives in the tables: the rules code's own `Numbers::default` (used by
    /// its unit tests) is what the `RULES` table reads to.
    #[test]
    fn the_rules_codes_defaults_are_the_tables() {
        let r = crate::system::source_rules(&super::super::LinearWarfare);
        let q = RuleParams::read(&r).unwrap();
        assert_eq!(numbers(&q), lw::Numbers::default());
        assert_eq!(q.general_coin, lw::GeneralCoin::default());
    }
}
