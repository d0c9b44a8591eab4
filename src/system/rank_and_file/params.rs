//! Rank & File's tables: its scenarios, its parameters (situation and rule), its optional rules
//! and its unit-spec keywords, each with its default and meaning: the one home of every default.
//! [`Rules`] reads the rule parameters into the rules code's own types.

use super::rules as rf;
use crate::error::{Error, Result};
use crate::frac::Frac;
use crate::params::{Kind, Resolved};
use crate::scenario::Scenario;
use crate::system::Omission;

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

/// What the Rank & File sources hold that the tool leaves out (docs/RULES.md §5), by the
/// scenarios it bears on.
pub const NOT_MODELLED: &[Omission] = &[
    Omission {
        what: "distances and the tabletop: rout, retire and retreat distances, push-backs and the tabletop's edge (so a routing unit never leaves the table)",
        rules: "RF-4, RF-5, RF-13",
        scenarios: &[
            Scenario::Rally,
            Scenario::UnderFire,
            Scenario::Charge,
            Scenario::Engagement,
            Scenario::Line,
        ],
    },
    Omission {
        what: "fleeing as movement: a router or skirmisher that flees a charge is not moved",
        rules: "RF-10, RF-13",
        scenarios: &[Scenario::Charge, Scenario::Engagement, Scenario::Line],
    },
    Omission {
        what: "flank marches, counter-charges, charge pro-rating and \"wait and see\" declarations",
        rules: "RF-13",
        scenarios: &[Scenario::Charge, Scenario::Engagement, Scenario::Line],
    },
    Omission {
        what: "wounded and killed leaders",
        rules: "RF-5, RF-13",
        scenarios: &[
            Scenario::Rally,
            Scenario::UnderFire,
            Scenario::Melee,
            Scenario::Charge,
            Scenario::Engagement,
            Scenario::Line,
        ],
    },
    Omission {
        what: "the artillery table (light, medium, heavy and siege guns, horse and foot): fire is given as dice",
        rules: "RF-7",
        scenarios: &[Scenario::UnderFire, Scenario::Engagement, Scenario::Line],
    },
    Omission {
        what: "formations other than square, and facing",
        rules: "RF-9, RF-10",
        scenarios: &[
            Scenario::Melee,
            Scenario::Charge,
            Scenario::Engagement,
            Scenario::Line,
        ],
    },
    Omission {
        what: "wagons in melees and fights (captured when routed in melee): a unit spec has no wagons",
        rules: "RF-7",
        scenarios: &[
            Scenario::Melee,
            Scenario::Charge,
            Scenario::Engagement,
            Scenario::Line,
        ],
    },
    Omission {
        what: "the rule that no unit rallies once its army's morale has failed",
        rules: "RF-13",
        scenarios: &[Scenario::Rally, Scenario::Engagement, Scenario::Line],
    },
    Omission {
        what: "an elephant's stampede path and the tests it forces on others",
        rules: "RF-8",
        scenarios: &[
            Scenario::UnderFire,
            Scenario::Charge,
            Scenario::Engagement,
            Scenario::Line,
        ],
    },
    Omission {
        what: "which Unsteady units besides batteries may stay in place",
        rules: "RF-4, RF-7",
        scenarios: &[Scenario::UnderFire, Scenario::Engagement, Scenario::Line],
    },
    Omission {
        what: "initiative, leaders' movement and reinforcements",
        rules: "RF-13",
        scenarios: &[Scenario::Engagement, Scenario::Line],
    },
    Omission {
        what: "a charge that continues on into other targets, units just unmasked among them, with the further waiver tests it may cause",
        rules: "RF-10",
        scenarios: &[Scenario::Charge, Scenario::Engagement, Scenario::Line],
    },
    Omission {
        what: "formations' break points: only the army's (a line's break point) ends a battle",
        rules: "RF-13",
        scenarios: &[Scenario::Line],
    },
];

pub(super) const ALL: &[Scenario] = &[Scenario::Test, Scenario::Rally, Scenario::UnderFire];
pub(super) const FIGHT: &[Scenario] = &[
    Scenario::Melee,
    Scenario::Charge,
    Scenario::Engagement,
    Scenario::Line,
];
pub(super) const CHARGE: &[Scenario] = &[Scenario::Charge];
pub(super) const CHARGES: &[Scenario] = &[Scenario::Charge, Scenario::Engagement, Scenario::Line];
pub(super) const TURNED: &[Scenario] = &[
    Scenario::Rally,
    Scenario::UnderFire,
    Scenario::Engagement,
    Scenario::Line,
];
pub(super) const FIRE: &[Scenario] = &[Scenario::UnderFire];
pub(super) const RALLYING: &[Scenario] = &[
    Scenario::Rally,
    Scenario::UnderFire,
    Scenario::Engagement,
    Scenario::Line,
];
pub(super) const FIRE_BATTLE: &[Scenario] =
    &[Scenario::UnderFire, Scenario::Engagement, Scenario::Line];

/// Which states leave a hole in the line, and why (for `list` and reports).
pub const HOLES: &str = "unsteady (it retires, RF-4; not a battery that stayed in place, RF-7, nor a unit made unsteady on the spot by a waiver test, RF-10), routing and removed";

crate::params::choice_enum! {
    /// `under-fire`: whom the enemy keeps firing at once shaken (§4; the sources are silent).
    pub enum FireOnShaken {
        /// Unsteady and routing units alike.
        All = "all",
        /// Unsteady units, not routing ones.
        Unsteady = "unsteady",
        /// Neither: fire stops once the unit is shaken.
        Neither = "none",
    }
}

impl FireOnShaken {
    /// The enemy fires at an Unsteady unit.
    pub fn at_unsteady(self) -> bool {
        self != FireOnShaken::Neither
    }
    /// The enemy fires at a Routing unit.
    pub fn at_routing(self) -> bool {
        self == FireOnShaken::All
    }
}

crate::params::choice_enum! {
    /// `charge`: where the charge strikes its target (RF-10).
    pub enum ChargeFrom {
        /// Its front.
        Front = "front",
        /// A flank.
        Flank = "flank",
        /// Its rear.
        Rear = "rear",
    }
}

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
            meaning: "an Elite unit: it may re-roll a failed test, as many times in the battle as \u{201c}Elite re-rolls a battle\u{201d} allows",
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
    fire_on_shaken: FireOnShaken {
            flag: None,
            kind: Kind::Choice(FireOnShaken::NAMES),
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
    charge_from: ChargeFrom {
            flag: None,
            kind: Kind::Choice(ChargeFrom::NAMES),
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
    voluntary_rout: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "policy: the player lets a routing unit keep routing rather than take its rally test; it still loses a stand each rally phase, as a failed rally would",
            rule: "RF-5",
            scenarios: RALLYING,
    },
    battery_stays: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "policy: a battery made Unsteady by a morale test stays where it is, guns unlimbered, instead of limbering and retiring: its place is not empty, and if it then routs its crew abandon the guns (a battery that retired routs with them); never after losing a melee",
            rule: "RF-7",
            scenarios: FIRE_BATTLE,
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
            meaning: "hits each gun model of an artillery battery takes before it is lost (the source's 3; its optional rule gives an 8-gun battery's models 4)",
            rule: "RF-7",
            scenarios: SCENARIOS,
    },
    hit_points_elephant: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 10 },
            default: "3",
            meaning: "hits an elephant stand takes before it is lost (the tool's assumption: the source gives hit points for gun models only)",
            rule: "RF-7",
            scenarios: SCENARIOS,
    },
    hit_points_wagon: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 10 },
            default: "3",
            meaning: "hits a wagon, caisson or cart takes before it is lost (the tool's assumption: the source gives hit points for gun models only)",
            rule: "RF-7",
            scenarios: SCENARIOS,
    },
    hit_points_machine_gun: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 10 },
            default: "3",
            meaning: "hits a machine-gun stand takes before it is lost (the tool's assumption: the source gives hit points for gun models only)",
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
            meaning: "every winner routs the loser outright instead of dropping it a level (for some units only: their spec's routs-loser keyword)",
            rule: "RF-9",
            scenarios: SCENARIOS,
    },
    shaken_winner_charges: bool {
            flag: None,
            kind: Kind::Bool,
            default: "true",
            meaning: "a melee winner left Unsteady by a failed waiver test still rolls for an uncontrolled charge (false: only a winner in good order, as battles let only Good units charge)",
            rule: "RF-12",
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
    routed_wagons: rf::RoutedWagons {
            flag: None,
            kind: Kind::Choice(rf::RoutedWagons::NAMES),
            default: "leave",
            meaning: "what wagons (kind=wagon) do when routed: leave (routed by fire or a test they flee the table, removed_wagons_fled; by a lost melee their drivers flee and they are captured, removed_wagons_captured) or rout (as any single stand, and may rally: the tool's reading before)",
            rule: "RF-7",
            scenarios: SCENARIOS,
    },
    reroll_when: rf::RerollWhen {
            flag: None,
            kind: Kind::Choice(rf::RerollWhen::NAMES),
            default: "always",
            meaning: "which failed tests a commander's (or a limited Elite) re-roll is spent on: always (every failed test while any are left) or to-avoid-rout (only a test whose failure would rout or remove the unit: a shaken unit's morale or waiver test, a routing unit's rally); the source gives the re-rolls, not when a player uses them",
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
    waiver_stampede: bool {
            flag: None,
            kind: Kind::Bool,
            default: "true",
            meaning: "with --option elephant-stampede and --option waiver-tests: an elephant that fails a waiver test may stampede (the supplement reads every \"morale and rally test\" as \"morale, rally and waiver\"; RF-8's stampede follows any failed morale test but no rally test, so the waiver test could be read with either: false reads it with the rally tests)",
            rule: "RF-8, RF-10",
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
    unsteady_fires: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "battles: an Unsteady unit fires in the firing phase (the sources are silent; by default only Good units fire, an Unsteady one having retired)",
            rule: "RF-13",
            scenarios: SCENARIOS,
    },
    unsteady_charges: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "battles: an Unsteady unit may charge (the sources are silent; by default only Good units charge)",
            rule: "RF-13",
            scenarios: SCENARIOS,
    },
    chargers_fire: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "battles: a unit that charged this turn still fires in the firing phase (the sources are silent; by default it does not)",
            rule: "RF-13",
            scenarios: SCENARIOS,
    },
    unsteady_meets_charge: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "battles: a charger or target made Unsteady in the morale phase still meets the charge (the core rules allow that chargers halt and targets flee, and by default they do: a charger that became Unsteady or Routing halts and such a target retires, no melee; true: only one that became Routing does)",
            rule: "RF-13",
            scenarios: SCENARIOS,
    },
    fire_at_routing: bool {
            flag: None,
            kind: Kind::Bool,
            default: "false",
            meaning: "battles: units fire at a routing enemy (the sources are silent; by default a router has run its rout distance and is not fired at)",
            rule: "RF-13",
            scenarios: SCENARIOS,
    },
    charged_router: rf::ChargedRouter {
            flag: None,
            kind: Kind::Choice(rf::ChargedRouter::NAMES),
            default: "evades",
            meaning: "battles: a routing unit is a charge target (the core rally rules, RF-3: routers are \"still valid charge targets\"; the turn order: some \"have evaded a charge\"): evades (it flees again, may not rally this turn, and so loses a stand, RF-5's \"will still lose another stand\"), evades-unhurt (it flees and may not rally this turn, but loses no stand for it), caught (the charge contacts it and destroys it, as RF-10 says of a router pursued), or not-a-target",
            rule: "RF-3, RF-5, RF-10, RF-13",
            scenarios: SCENARIOS,
    },
}

/// The rule parameters, typed and checked against each other, as the rules code takes them.
pub(super) struct Rules {
    /// Every rule parameter, typed.
    pub q: RuleParams,
    /// RF-1 to RF-8's numbers, carried in every unit.
    pub numbers: rf::Numbers,
}

impl Rules {
    /// Read and check the rule parameters of `r`.
    ///
    /// # Errors
    /// [`Error::Conflict`] for `always_fails` not below `always_passes`; [`Error::Invalid`] for a
    /// `break_fraction` of 0 (every unit would start broken).
    pub(super) fn read(r: &Resolved) -> Result<Rules> {
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
            waiver_stampede: q.waiver_stampede,
            reroll_when: q.reroll_when,
            routed_wagons: q.routed_wagons,
        };
        Ok(Rules { q, numbers })
    }

    /// RF-9 and RF-11's numbers.
    pub(super) fn melee(&self) -> rf::MeleeRules {
        let q = &self.q;
        rf::MeleeRules {
            to_hit: q.to_hit,
            hits_per_stand: q.hits_per_stand,
            six_always_hits: q.six_always_hits,
            auto_rout_on_win: q.auto_rout_on_win,
            cavalry_vs_elephants: q.cavalry_vs_elephants,
            blown_penalty: q.blown_penalty,
            shaken_winner_charges: q.shaken_winner_charges,
        }
    }

    /// The optional rules switched on, with `routing_fail` (RF-4) and the player's policies
    /// where the scenario has them (`voluntary_rout`, `battery_stays`: false where not).
    pub(super) fn options(&self, on: &Switches, policy: Player) -> rf::Options {
        rf::Options {
            routing_fail: self.q.routing_fail,
            keep_broken_units: on.keep_broken_units,
            voluntary_rout: policy.voluntary_rout,
            artillery_may_rally: on.artillery_may_rally,
            elephant_stampede: on.elephant_stampede,
            battery_stays: policy.battery_stays,
        }
    }

    /// Put the rule parameters that live in a unit into `unit`, and Elite's re-roll allowance
    /// (RF-6) into its `start`.
    pub(super) fn apply(&self, unit: &mut rf::Unit, start: &mut rf::UnitState) {
        unit.numbers = self.numbers;
        unit.buildings_bonus = self.q.buildings_bonus;
        unit.hit_points = self.hit_points(unit.kind);
        self.q.elite_rerolls.apply(unit, start);
    }

    /// RF-7: the hits a model of a single stand of `kind` takes (the source's 3 for gun models;
    /// the others by assumption, each its own rule parameter).
    pub(super) fn hit_points(&self, kind: rf::Kind) -> u8 {
        match kind {
            rf::Kind::Formed | rf::Kind::Artillery => self.q.hit_points,
            rf::Kind::Elephant => self.q.hit_points_elephant,
            rf::Kind::Wagon => self.q.hit_points_wagon,
            rf::Kind::MachineGun => self.q.hit_points_machine_gun,
        }
    }
}

/// The player's choices that the optional rules' code reads (situation parameters, RF-5 and
/// RF-7), where the scenario has them.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Player {
    /// RF-5 `voluntary_rout`.
    pub voluntary_rout: bool,
    /// RF-7 `battery_stays`.
    pub battery_stays: bool,
}

impl Player {
    /// The policies of `p`.
    pub(super) fn of(p: &Params) -> Player {
        Player {
            voluntary_rout: p.voluntary_rout,
            battery_stays: p.battery_stays,
        }
    }
}

/// What a Rank & File unit spec allows, with an example.
pub(super) const UNIT_SPEC: &str = "a unit spec: class, troops and keywords (see Unit specs), e.g. \"veteran cavalry stands=6 shock\"; in a line \"6 x regular infantry\"";

/// The keywords of a Rank & File unit spec, for messages and `list`.
pub const SPEC_KEYWORDS: &str = "veteran, regular, green, infantry, cavalry, elephant, skirmisher, stands=N, lost=N, state=good|unsteady|routing, elite, leader=N, rerolls=N, frontage=N, hit=N (a modifier to melee hit rolls), blown, shock, square, obstacle, buildings, modifier=N (-5 to 5, on its morale and waiver tests), uncontrolled=N (0 to 6), routs-loser (a melee it wins routs the loser outright)";

crate::params::option_table! {
/// Rank & File's optional rules.
    pub static OPTIONS;
    /// Which of its optional rules are switched on.
    pub struct Switches;
    keep_broken_units = "keep-broken-units" {
        rule: "RF-3",
        meaning: "a routing unit at 50% losses is not removed: it keeps routing, never rallies, and loses a stand each rally phase until none is left",
    },
    artillery_may_rally = "artillery-may-rally" {
        rule: "RF-7",
        meaning: "a battery that routs stays on the table and may rally like any unit",
    },
    elephant_stampede = "elephant-stampede" {
        rule: "RF-8",
        meaning: "an elephant that fails a morale or waiver test (not a rally), whatever its state, stampedes on 1-2 and counts as routing (reported as p_stampede)",
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every default lives in the tables: the rules code's own defaults (`Numbers::default`,
    /// `MeleeRules::SOURCE`, used by its unit tests and odds sheet) are what the `RULES` table
    /// reads to, so changing a default is one line of the table, and this test says which
    /// other line must follow.
    #[test]
    fn the_rules_codes_defaults_are_the_tables() {
        let r = crate::system::source_rules(&super::super::RankAndFile);
        let rules = Rules::read(&r).unwrap();
        assert_eq!(rules.numbers, rf::Numbers::default());
        assert_eq!(rules.melee(), rf::MeleeRules::SOURCE);
        assert_eq!(rules.q.routing_fail, rf::Options::default().routing_fail);
        assert_eq!(
            super::super::army::BattleRules::of(&rules.q),
            super::super::army::BattleRules::SOURCE
        );
    }
}
