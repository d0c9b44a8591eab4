//! `under-fire` (docs/RULES.md §4): a Rank & File unit holds its place under enemy fire.

use super::params::HOLES;
use super::rally::{REROLLS_USED, STANDS_LOST, removal_metrics};
use super::rally::{removal_values, removed_for, rf_class, rf_value, rf_values};
use super::rules as rf;
use super::unit::fire_params;
use super::{Ctx, unit};
use crate::chain::{Chain, ClassInfo, ValueInfo};
use crate::dice::Roll;
use crate::error::Result;
use crate::scenario::fire::Fire;
use crate::scenario::fire::fire_model;
use crate::scenario::invariants::{self, Check};
use crate::scenario::{EMPTY_TURNS, Job, MetricDef, OutcomeDef, TableDef};

/// Classes of a Rank & File unit under fire: only removal ends a trial early. Unsteady (it
/// retires, RF-4), routing and removed units leave their place in the line empty.
pub const RF_UNDER_FIRE_CLASSES: [ClassInfo; 4] = [
    ClassInfo {
        name: "good",
        absorbing: false,
        empty: false,
    },
    ClassInfo {
        name: "unsteady",
        absorbing: false,
        empty: true,
    },
    ClassInfo {
        name: "routing",
        absorbing: false,
        empty: true,
    },
    ClassInfo {
        name: "removed",
        absorbing: true,
        empty: true,
    },
];

/// A Rank & File unit under fire. Each turn follows RF-13: rally phase (RF-5) for an Unsteady
/// or Routing unit; the enemy's fire; then, if the unit lost a stand (or a single stand took a
/// hit), its morale test (RF-5, RF-7) and the 50% rule (RF-3). Under `elephant-stampede` an
/// elephant that fails a morale test stampedes on 1–2 (RF-8); the state records whether it ever
/// did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RfUnderFire {
    /// The unit.
    pub unit: rf::Unit,
    /// The optional rules in force.
    pub options: rf::Options,
    /// Its state at the start.
    pub start: rf::UnitState,
    /// Turns of fire.
    pub turns: u32,
    /// The enemy's fire each turn, in stands (formed) or hits (single stands).
    pub fire: Fire,
    /// The enemy keeps firing at the unit while it is Unsteady.
    pub fire_on_unsteady: bool,
    /// The enemy keeps firing at the unit while it is Routing.
    pub fire_on_routing: bool,
    /// Its classes: a battery that may stay in its place when Unsteady (RF-7,
    /// `battery_stays`) has one more, `unsteady_in_place`, whose place is not empty.
    classes: &'static [ClassInfo],
    values: Vec<ValueInfo>,
}

/// [`RF_UNDER_FIRE_CLASSES`] and a battery Unsteady in its place (RF-7, `battery_stays`),
/// which leaves no hole.
pub const RF_UNDER_FIRE_CLASSES_STAYING: [ClassInfo; 5] = [
    RF_UNDER_FIRE_CLASSES[0],
    RF_UNDER_FIRE_CLASSES[1],
    RF_UNDER_FIRE_CLASSES[2],
    RF_UNDER_FIRE_CLASSES[3],
    ClassInfo {
        name: "unsteady_in_place",
        absorbing: false,
        empty: false,
    },
];

/// Why a unit may leave the table under fire: every stand lost, the 50% rule (RF-3), a failed
/// morale test while Routing under `routing_fail = removed` (RF-4), a routed battery with its
/// guns abandoned or limbered (RF-7).
pub const UNDER_FIRE_REMOVALS: [rf::Removal; 5] = [
    rf::Removal::Destroyed,
    rf::Removal::Dispersed,
    rf::Removal::FailedWhileRouting,
    rf::Removal::GunsAbandoned,
    rf::Removal::RoutedWithGuns,
];

/// Which shaken states the enemy keeps firing at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnderFireRules {
    /// The enemy keeps firing while the unit is Unsteady.
    pub fire_on_unsteady: bool,
    /// The enemy keeps firing while the unit is Routing.
    pub fire_on_routing: bool,
}

/// The removal causes an under-fire report of `unit` counts: [`UNDER_FIRE_REMOVALS`], and for
/// wagons that leave the table when routed (RF-7) `removed_wagons_fled`.
pub fn removals(unit: &rf::Unit) -> &'static [rf::Removal] {
    const WITH_WAGONS: [rf::Removal; 6] = [
        rf::Removal::Destroyed,
        rf::Removal::Dispersed,
        rf::Removal::FailedWhileRouting,
        rf::Removal::GunsAbandoned,
        rf::Removal::RoutedWithGuns,
        rf::Removal::WagonsFled,
    ];
    if unit.kind == rf::Kind::Wagon && unit.numbers.routed_wagons == rf::RoutedWagons::Leave {
        &WITH_WAGONS
    } else {
        &UNDER_FIRE_REMOVALS
    }
}

impl RfUnderFire {
    /// A unit under `fire` for `turns` turns.
    pub fn new(
        unit: rf::Unit,
        options: rf::Options,
        start: rf::UnitState,
        turns: u32,
        fire: Fire,
        rules: UnderFireRules,
    ) -> Self {
        let [lost, rerolls] = rf_values(&unit, &start);
        let stampede = ValueInfo {
            name: "p_stampede",
            max: 1,
        };
        RfUnderFire {
            values: [lost, rerolls, stampede]
                .into_iter()
                .chain(removal_values(removals(&unit)))
                .collect(),
            unit,
            options,
            start,
            turns,
            fire,
            fire_on_unsteady: rules.fire_on_unsteady,
            fire_on_routing: rules.fire_on_routing,
            classes: if options.battery_stays && unit.kind == rf::Kind::Artillery {
                &RF_UNDER_FIRE_CLASSES_STAYING
            } else {
                &RF_UNDER_FIRE_CLASSES
            },
        }
    }
}

impl Chain for RfUnderFire {
    type State = (rf::UnitState, bool);
    /// RF-3 to RF-8 (see [`super::invariants::rf_unit`]); a stampede, once it happened, stays
    /// counted.
    fn check_step(&self, from: Self::State, to: Self::State) -> Check {
        super::invariants::rf_unit(&self.unit, &self.options, &self.start, from.0, to.0)?;
        invariants::ensure(!from.1 || to.1, || "a stampede was undone".into())
    }
    fn start(&self) -> Self::State {
        (self.start, false)
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    #[inline]
    fn step<R: Roll>(&self, (s, stampeded): Self::State, r: &mut R) -> Self::State {
        let s = self.unit.rally(&self.options, s, r);
        let targeted = match s.status {
            rf::Status::Good => true,
            rf::Status::Unsteady => self.fire_on_unsteady,
            rf::Status::Routing => self.fire_on_routing,
            rf::Status::Removed => false,
        };
        if !targeted {
            return (s, stampeded);
        }
        let hits = self.fire.sample(r).min(u32::from(u8::MAX)) as u8;
        if hits == 0 {
            return (s, stampeded);
        }
        let hit = self.unit.take_hits(s, hits);
        // RF-5, with RF-8's stampede on any failed test (`elephant-stampede`).
        let (after, stamped) = self.unit.morale_test(&self.options, hit, r);
        (after, stampeded || stamped)
    }
    fn classes(&self) -> &[ClassInfo] {
        self.classes
    }
    #[inline]
    fn class_of(&self, s: Self::State) -> usize {
        if s.0.status == rf::Status::Unsteady && s.0.in_place {
            4
        } else {
            rf_class(s.0)
        }
    }
    fn values(&self) -> &[ValueInfo] {
        &self.values
    }
    fn value_of(&self, s: Self::State, i: usize) -> u32 {
        match i {
            0 | 1 => rf_value(&self.unit, &self.start, s.0, i),
            2 => u32::from(s.1),
            _ => removed_for(s.0, removals(&self.unit)[i - 3]),
        }
    }
}

/// Strength in the line (docs/RULES.md §4): the stands left (a single stand's models) while
/// the unit holds its place; nothing while the place stands empty.
impl crate::scenario::strength::Holds for RfUnderFire {
    fn full(&self) -> u32 {
        u32::from(self.unit.stands)
    }
    fn held(&self, s: (rf::UnitState, bool)) -> u32 {
        if self.classes()[self.class_of(s)].empty {
            return 0;
        }
        u32::from(self.unit.stands.saturating_sub(self.unit.stands_lost(s.0)))
    }
}

/// The job of `under-fire`: the unit under enemy fire, with every test its rules call for.
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (b, mut notes) = unit::single(ctx)?;
    let p = &ctx.p;
    let fire = fire_model(&fire_params(p))?;
    notes.push(format!(
        "enemy fire each turn: {} ({} on average); a unit leaves a hole in the line when {}",
        fire.description(),
        crate::report::up_to_units(fire.mean(), 3, "loss", "losses"),
        crate::system::holes_when(HOLES)
    ));
    let shaken = p.fire_on_shaken;
    let chain = RfUnderFire::new(
        b.unit,
        b.options,
        b.start,
        p.turns,
        fire,
        UnderFireRules {
            fire_on_unsteady: shaken.at_unsteady(),
            fire_on_routing: shaken.at_routing(),
        },
    );
    let c = chain.classes();
    let mut outcomes = OutcomeDef::each(c, &["good", "unsteady", "routing", "removed"]);
    if c.len() > 4 {
        // A battery Unsteady in its place is Unsteady all the same.
        outcomes[1] = OutcomeDef::of(c, "unsteady", &["unsteady", "unsteady_in_place"]);
    }
    let turn_removed = MetricDef::absorb_turn(
        c,
        "turn_removed",
        "removed",
        "turn of removal, among units removed",
    );
    Ok(crate::scenario::strength::job(
        chain,
        ctx.setup.describe(notes),
        outcomes,
        vec![
            EMPTY_TURNS,
            turn_removed,
            STANDS_LOST,
            REROLLS_USED,
            MetricDef::Value {
                name: "p_stampede",
                meaning: "share of trials in which the elephant stampeded (RF-8; 0 unless an elephant under elephant-stampede; it counts as routing, not removed)",
            },
        ]
        .into_iter()
        .chain(removal_metrics(removals(&b.unit)))
        .collect(),
        vec![TableDef::PerTurn {
            name: "per_turn",
            title: "State after each turn",
        }],
        ctx.p.measure_strength.then_some(ctx.p.weak_share),
    ))
}
