//! The vocabulary of Rank & File's rules: morale classes, kinds of unit, morale states, what a
//! routing unit's failed rally does, Elite re-rolls, the optional rules of RF-1 to RF-7, the
//! kinds of troops in a melee (RF-9) and the period of the battle (RF-10).

use super::{Unit, UnitState};
use crate::params::choice_value;
use crate::system::named::named_enum;

named_enum! {
    /// RF-1: a unit's morale class, which sets the base number its tests must reach. Declared
    /// best first, as [`Class::ALL`] lists them.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Class {
        /// Base number 3.
        Veteran => "veteran",
        /// Base number 4.
        Regular => "regular",
        /// Base number 5.
        Green => "green",
    }
}

impl Class {
    /// RF-1: the base number a modified die must reach.
    pub fn base(self) -> i32 {
        match self {
            Class::Veteran => 3,
            Class::Regular => 4,
            Class::Green => 5,
        }
    }
}

named_enum! {
    /// RF-7: what the unit is — a formed unit of stands, or a single stand.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Kind {
        /// A formed unit of several stands (infantry or cavalry).
        Formed => "formed",
        /// An artillery battery of one or more gun models (RF-7 special morale and hit points).
        Artillery => "artillery",
        /// An elephant stand.
        Elephant => "elephant",
        /// A wagon, caisson or cart.
        Wagon => "wagon",
        /// A machine gun.
        MachineGun => "machine-gun",
    }
}

impl Kind {
    /// RF-7: single stands get no casualty modifier and ignore the 50% rule.
    pub fn is_single_stand(self) -> bool {
        self != Kind::Formed
    }
}

/// RF-4: morale states, plus removal from the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// Good order.
    Good,
    /// Unsteady: retires when it becomes so; may rally to Good.
    Unsteady,
    /// Routing: may rally to Unsteady; loses a stand each time it fails (RF-5).
    Routing,
    /// Removed from the table (dispersed, destroyed or abandoned).
    Removed,
}

impl Status {
    /// The name used on the command line and in outputs.
    pub fn name(self) -> &'static str {
        match self {
            Status::Good => "good",
            Status::Unsteady => "unsteady",
            Status::Routing => "routing",
            Status::Removed => "removed",
        }
    }
    /// Parse a starting state (`removed` is not a starting state).
    pub fn parse_start(s: &str) -> Option<Status> {
        [Status::Good, Status::Unsteady, Status::Routing]
            .into_iter()
            .find(|x| x.name() == s)
    }
}

named_enum! {
    /// RF-4 (the sources are silent): what a Routing unit that fails a morale test does.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
    pub enum RoutingFail {
        /// It routs on and loses another stand, then the 50% rule applies: what RF-5 says of a
        /// routing unit that fails its rally test.
        #[default]
        RoutAgain => "rout-again",
        /// It is removed (the next level down).
        Removed => "removed",
        /// Nothing more happens: it keeps routing.
        NoEffect => "no-effect",
    }
}

crate::params::choice_enum! {
    /// RF-10 and RF-13 in battles: what a charge at a routing unit does. The core rally rules
    /// (RF-3's optional rule) keep routers as "still valid charge targets"; the turn order
    /// speaks of "routers that have evaded a charge", lets routers "flee from a charge", and a
    /// charge's target may not rally that turn.
    pub enum ChargedRouter {
        /// It flees again (not modelled as distance) and may not rally this turn, so it loses a
        /// stand as a router that does not rally (RF-5); no melee.
        Evades = "evades",
        /// It flees again and may not rally this turn, but loses no stand for it: the flight
        /// is movement, not a failed rally (issue 79: the sources do not say it costs a stand).
        EvadesUnhurt = "evades-unhurt",
        /// The charge contacts it and destroys it, as RF-10 says of a routed target pursued.
        Caught = "caught",
        /// Routing units are not charged (the tool's reading before).
        NotATarget = "not-a-target",
    }
}

/// RF-6: how many re-rolls an Elite unit has in a battle. The optional rule says some things
/// "allow a unit to re-roll its morale dice a certain number of times during a battle", and
/// that being Elite gives "a morale re-roll attempt"; the number is not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EliteRerolls {
    /// This many re-rolls in the battle (1 to 9), spent before the commander's pool.
    Limited(u8),
    /// A re-roll of every failed test, all battle.
    Unlimited,
}

impl Default for EliteRerolls {
    fn default() -> Self {
        EliteRerolls::Limited(1)
    }
}

impl EliteRerolls {
    /// Every choice, as `list` shows them.
    pub const NAMES: [&'static str; 10] =
        ["1", "2", "3", "4", "5", "6", "7", "8", "9", "unlimited"];
    /// Parse a name: a whole number from 1 to 9 or `unlimited`.
    pub fn parse(s: &str) -> Option<EliteRerolls> {
        match s {
            "unlimited" => Some(EliteRerolls::Unlimited),
            _ => s
                .parse::<u8>()
                .ok()
                .filter(|n| (1..=9).contains(n))
                .map(EliteRerolls::Limited),
        }
    }
    /// An Elite unit's allowance, as the re-roll pool it starts with: the unit keeps its
    /// unlimited re-rolls (`elite`), or loses the flag and has `n` more re-rolls in its pool.
    /// Elite's re-rolls are spent first and a test takes at most one re-roll, so one pool holding
    /// both gives the same tests as two pools spent in turn.
    pub fn apply(self, unit: &mut Unit, start: &mut UnitState) {
        if let (true, EliteRerolls::Limited(n)) = (unit.elite, self) {
            unit.elite = false;
            start.rerolls += n;
        }
    }
}

choice_value!(EliteRerolls, EliteRerolls::parse);

/// The optional rules of RF-1 to RF-7 that change morale and rally, and the choices where the
/// sources are silent that change them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Options {
    /// RF-4: what a Routing unit that fails a morale test does (`routing_fail`).
    pub routing_fail: RoutingFail,
    /// RF-3 `keep-broken-units`: a routing unit at 50% losses is not removed; it keeps routing,
    /// never rallies and loses no further stands to failed rallies (it takes none).
    pub keep_broken_units: bool,
    /// RF-5 `voluntary_rout` (a player's choice, a situation parameter): a routing unit never
    /// takes its rally test and keeps routing, losing the stand each turn as a failed rally
    /// would.
    pub voluntary_rout: bool,
    /// RF-7 `artillery-may-rally`: a battery that fails while Unsteady routs but stays on the
    /// table, and may rally like any unit.
    pub artillery_may_rally: bool,
    /// RF-8 `elephant-stampede`: an elephant that fails a morale or waiver test (never a rally
    /// test) stampedes on a D6 at or below `stampede_on`, and counts as routing.
    pub elephant_stampede: bool,
    /// RF-7 `battery_stays` (a player's choice, a situation parameter): a battery that becomes
    /// Unsteady from a morale test stays where it is, guns unlimbered, instead of limbering
    /// and retiring ("it may opt to remain where it is"; not after losing a melee).
    pub battery_stays: bool,
}

named_enum! {
    /// RF-9: what kind of troops fight a melee (for hit chances and RF-10's triggers).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Troop {
        /// Formed foot.
        Infantry => "infantry",
        /// Formed horse.
        Cavalry => "cavalry",
        /// An elephant stand.
        Elephant => "elephant",
        /// Skirmishers (foot).
        Skirmisher => "skirmisher",
    }
}

impl Troop {
    /// Foot troops (RF-10's second trigger).
    pub fn is_foot(self) -> bool {
        matches!(self, Troop::Infantry | Troop::Skirmisher)
    }
}

named_enum! {
    /// RF-10: the period of the battle, for the supplement's period-specific waiver rule.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub enum Era {
        /// The horse-and-musket era (the default): every waiver rule applies.
        #[default]
        HorseAndMusket => "horse-and-musket",
        /// The Industrial Age: shock cavalry do not cause waiver tests when charging frontally.
        Industrial => "industrial",
    }
}

choice_value!(Era, Era::parse);
choice_value!(Class, Class::parse);
choice_value!(Kind, Kind::parse);
choice_value!(Status, Status::parse_start);
choice_value!(RoutingFail, RoutingFail::parse);
