//! `engagement` and `line`: whole fights played turn by turn in each system's own turn order
//! (RULES.md §4; RF-13 for Rank & File). Monte Carlo only: the state spaces are too large to
//! solve exactly, so these chains run with the dice sampler and report per-turn means.
//!
//! The field is a row of `files` (1 for an engagement, up to [`MAX_FILES`] for a line). In each
//! file a unit of side A faces a unit of side B; in a line the first `supports` files of each
//! side also have a supporting unit of the same spec behind. Side A advances a move a turn from
//! `range` until in contact when its [`Policy`] has it charge at all, and charges when the policy
//! says. A support steps up into its file when the unit in front is gone. Fire goes at the unit
//! opposite; a unit facing an empty place fires at a neighbour of that place instead (gaps in a
//! line expose the units beside them). The three systems' turns are in [`RfArmy`], [`EfArmy`]
//! and [`LwArmy`].

// Turns index several parallel per-side, per-file arrays (fronts, supports, hits, charges) by
// the same side and file: index loops say that more plainly than zipped iterators.
#![allow(clippy::needless_range_loop)]

use std::fmt::Debug;
use std::hash::Hash;

use crate::dice::{Roll, Weights};
use crate::rules::effectiveness as ef;
use crate::rules::linear_warfare as lw;
use crate::rules::rank_and_file as rf;
use crate::scenario::chain::{Chain, ClassInfo, ValueInfo};
use crate::scenario::fire::Fire;
use crate::scenario::invariants::{self, Check, ensure};
use crate::scenario::melee::{
    FightPhase, FightState, FollowUp, LwMelee, MeleeState, Phase, RfFight,
};
use crate::scenario::under_fire::{LwState, LwStatus};

/// The most units a side may have in the front line.
pub const MAX_FILES: usize = 12;

/// How a unit stands, for the line's bookkeeping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// In its place in the line.
    InLine,
    /// Still on the field but out of its place (unsteady, routing, retreating, falling back):
    /// its place stands empty.
    Shaken,
    /// Removed, eliminated or destroyed: it never acts again.
    Gone,
    /// No unit in this slot (a file with no support).
    Absent,
}

/// When side A charges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// From this turn on, charge whenever able (0: never on this account).
    pub charge_at_turn: u32,
    /// Charge a target that is shaken (unsteady, retreating, falling back).
    pub when_shaken: bool,
}

impl Policy {
    /// Whether side A ever charges (and so advances to contact).
    pub fn active(&self) -> bool {
        self.charge_at_turn > 0 || self.when_shaken
    }
    /// Whether side A charges a target this turn.
    #[inline]
    pub fn charges(&self, turn: u32, target_shaken: bool) -> bool {
        (self.charge_at_turn > 0 && turn >= self.charge_at_turn)
            || (self.when_shaken && target_shaken)
    }
}

/// What a system's turn needs to know besides the field.
#[derive(Debug, Clone, Copy)]
pub struct TurnContext {
    /// The turn being played (1-based).
    pub turn: u32,
    /// Files in play.
    pub files: usize,
    /// Side A's charge policy.
    pub policy: Policy,
    /// Fire reaches this many moves.
    pub fire_range: u8,
}

/// The units on the field: `front[side][file]`, `back[side][file]`, and the distance between the
/// lines in moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Field<U> {
    /// The front line of each side.
    pub front: [[U; MAX_FILES]; 2],
    /// The supports behind it.
    pub back: [[U; MAX_FILES]; 2],
    /// Distance between the lines, in moves.
    pub range: u8,
}

/// A side's fire: `dice` dice at full strength hitting on `to_hit`+, falling in proportion to
/// the firer's strength (rounded); or a fixed table of losses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Volley {
    by_dice: Vec<Fire>,
    fixed: Option<Fire>,
}

impl Volley {
    /// `full` dice at full strength, hitting on `to_hit`+.
    pub fn dice(full: u32, to_hit: u8) -> Volley {
        Volley {
            by_dice: (0..=full).map(|n| Fire::dice(n, to_hit)).collect(),
            fixed: None,
        }
    }
    /// The same losses whatever the firer's strength.
    pub fn fixed(fire: Fire) -> Volley {
        Volley {
            by_dice: Vec::new(),
            fixed: Some(fire),
        }
    }
    /// One volley from a firer with `left` of `full` strength.
    #[inline]
    pub fn sample<R: Roll>(&self, left: u32, full: u32, r: &mut R) -> u32 {
        if let Some(f) = &self.fixed {
            return f.sample(r);
        }
        let max = self.by_dice.len() as u32 - 1;
        let n = (max * left + full / 2) / full.max(1);
        self.by_dice[n.min(max) as usize].sample(r)
    }
    /// A description for reports.
    pub fn description(&self) -> String {
        match &self.fixed {
            Some(f) => f.description().to_string(),
            None => format!(
                "{} at full strength, fewer dice in proportion to losses",
                self.by_dice.last().map_or("no fire", |f| f.description())
            ),
        }
    }
}

/// One rule system's units and turn, for [`Battle`].
pub trait Army: Clone + Debug + Send + Sync {
    /// A unit slot's state: small and `Copy`.
    type Unit: Copy + Eq + Ord + Hash + Debug + Send + Sync;
    /// The names of the states a unit can end in (`good`, `routing` …).
    fn statuses(&self) -> &'static [&'static str];
    /// The end-state value names for side A and side B (`a_ends_good` …), as `statuses`.
    fn end_names(&self) -> [&'static [&'static str]; 2];
    /// An empty slot.
    fn absent(&self) -> Self::Unit;
    /// The unit of `side` in `file` at the start (the support when `back`).
    fn unit(&self, side: usize, file: usize) -> Self::Unit;
    /// How a unit stands.
    fn standing(&self, u: &Self::Unit) -> Standing;
    /// Index into `statuses` of a unit's state.
    fn status(&self, u: &Self::Unit) -> usize;
    /// Full strength (stands, quarters, pips) of the unit of `side` in `file`.
    fn strength(&self, side: usize, file: usize) -> u32;
    /// Strength lost by a unit of `side` in `file`.
    fn strength_lost(&self, side: usize, file: usize, u: &Self::Unit) -> u32;
    /// The rule invariants of one turn of the unit of `side` in `file` that is on the field
    /// (see [`invariants`]).
    ///
    /// # Errors
    /// What broke.
    fn check_unit(&self, side: usize, file: usize, from: &Self::Unit, to: &Self::Unit) -> Check;
    /// One game turn for every unit on the field, in the system's turn order.
    fn turn<R: Roll>(&self, f: &mut Field<Self::Unit>, ctx: &TurnContext, r: &mut R);
}

/// Whom a unit in `file` fires at: the enemy opposite when `targetable`, else a neighbour of
/// that place (left first).
#[inline]
fn fire_target(targetable: &[bool; MAX_FILES], file: usize, files: usize) -> Option<usize> {
    if targetable[file] {
        Some(file)
    } else if file > 0 && targetable[file - 1] {
        Some(file - 1)
    } else if file + 1 < files && targetable[file + 1] {
        Some(file + 1)
    } else {
        None
    }
}

/// The outcome classes of an engagement.
pub const ENGAGEMENT_CLASSES: [ClassInfo; 4] = [
    ClassInfo {
        name: "fighting",
        absorbing: false,
        empty: false,
    },
    ClassInfo {
        name: "side_a_holds",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "side_b_holds",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "both_gone",
        absorbing: true,
        empty: false,
    },
];

/// The outcome classes of a line.
pub const LINE_CLASSES: [ClassInfo; 4] = [
    ClassInfo {
        name: "fighting",
        absorbing: false,
        empty: false,
    },
    ClassInfo {
        name: "side_a_wins",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "side_b_wins",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "both_broken",
        absorbing: true,
        empty: false,
    },
];

/// The per-turn series of a battle.
pub const SERIES: [&str; 6] = [
    "gaps_a", "gaps_b", "lost_a", "lost_b", "shaken_a", "shaken_b",
];

/// The state of a battle: the field, the turn, how it ended (0: still going; else the class),
/// units lost that were replaced by their supports, strength they took with them, and
/// position-turns each line stood empty so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BattleState<U> {
    /// The units.
    pub field: Field<U>,
    /// Turns played.
    pub turn: u16,
    /// 0 while fighting, else the outcome class.
    pub end: u8,
    /// Units gone and replaced by their supports, per side.
    pub replaced: [u8; 2],
    /// Their strength, per side.
    pub spent: [u16; 2],
    /// Positions empty, summed over the turns so far, per side.
    pub holes: [u16; 2],
}

/// An engagement (one file, decided when a unit is gone) or a line (decided by each army's
/// break point, RF-13 / LW-7 / a parameter for the effectiveness rules).
#[derive(Debug, Clone)]
pub struct Battle<A: Army> {
    /// The system's units and turn.
    pub army: A,
    /// Files in play.
    pub files: usize,
    /// Supports per side (in the first files).
    pub supports: [usize; 2],
    /// Turn cap.
    pub turns: u32,
    /// A line (break points) rather than an engagement.
    pub line: bool,
    /// Units lost at which each side breaks (line).
    pub break_at: [u32; 2],
    /// Distance at the start, in moves.
    pub range: u8,
    /// Fire reaches this many moves.
    pub fire_range: u8,
    /// Side A's charges.
    pub policy: Policy,
    values: Vec<ValueInfo>,
    series: [ValueInfo; 6],
}

impl<A: Army> Battle<A> {
    /// A battle of `files` files (1 for an engagement) with `supports` supports per side.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        army: A,
        files: usize,
        supports: [usize; 2],
        turns: u32,
        line: bool,
        break_point_percent: u32,
        range: u8,
        fire_range: u8,
        policy: Policy,
    ) -> Self {
        let files = files.clamp(1, MAX_FILES);
        let supports = supports.map(|s| s.min(files));
        let units = |side: usize| (files + supports[side]) as u32;
        let break_at = [0, 1].map(|s| (units(s) * break_point_percent).div_ceil(100).max(1));
        let strength = |side: usize| -> u32 {
            (0..files)
                .map(|f| army.strength(side, f) * (1 + u32::from(f < supports[side])))
                .sum()
        };
        let holes = files as u32 * turns;
        let mut values = vec![
            ValueInfo {
                name: "a_units_lost",
                max: units(0),
            },
            ValueInfo {
                name: "b_units_lost",
                max: units(1),
            },
            ValueInfo {
                name: "a_strength_lost",
                max: strength(0),
            },
            ValueInfo {
                name: "b_strength_lost",
                max: strength(1),
            },
            ValueInfo {
                name: "a_hole_turns",
                max: holes,
            },
            ValueInfo {
                name: "b_hole_turns",
                max: holes,
            },
        ];
        if !line {
            for names in army.end_names() {
                values.extend(names.iter().map(|&name| ValueInfo { name, max: 1 }));
            }
        }
        let series = [0, 1, 0, 1, 0, 1].map(units);
        let series = std::array::from_fn(|i| ValueInfo {
            name: SERIES[i],
            max: if i < 2 { files as u32 } else { series[i] },
        });
        Battle {
            army,
            files,
            supports,
            turns,
            line,
            break_at,
            range,
            fire_range,
            policy,
            values,
            series,
        }
    }

    /// Units of `side` gone so far.
    pub fn units_lost(&self, s: &BattleState<A::Unit>, side: usize) -> u32 {
        let gone = |u: &A::Unit| u32::from(self.army.standing(u) == Standing::Gone);
        let f = &s.field;
        u32::from(s.replaced[side])
            + (0..self.files)
                .map(|i| gone(&f.front[side][i]) + gone(&f.back[side][i]))
                .sum::<u32>()
    }

    fn count(&self, s: &BattleState<A::Unit>, side: usize, what: Standing) -> u32 {
        let f = &s.field;
        (0..self.files)
            .map(|i| {
                u32::from(self.army.standing(&f.front[side][i]) == what)
                    + u32::from(self.army.standing(&f.back[side][i]) == what)
            })
            .sum()
    }

    fn gaps(&self, s: &BattleState<A::Unit>, side: usize) -> u32 {
        (0..self.files)
            .filter(|&i| self.army.standing(&s.field.front[side][i]) != Standing::InLine)
            .count() as u32
    }
}

impl<A: Army> Chain for Battle<A> {
    type State = BattleState<A::Unit>;
    /// A decided battle stays decided; turns count up; holes and replacements only add up
    /// (at most one replacement per support); an absent slot stays absent and a gone unit
    /// never changes again (it never acts); every unit on the field keeps its system's
    /// invariants ([`Army::check_unit`]); a support that steps up continues from its own state.
    fn check_step(&self, from: Self::State, to: Self::State) -> Check {
        invariants::stays(from.end != 0, &from, &to)?;
        if from.end != 0 {
            return Ok(());
        }
        ensure(to.turn == from.turn + 1, || "a turn is one turn".into())?;
        for side in 0..2 {
            ensure(
                to.holes[side] >= from.holes[side]
                    && to.replaced[side] >= from.replaced[side]
                    && usize::from(to.replaced[side]) <= self.supports[side],
                || format!("side {side}'s holes or replacements went wrong: {from:?} → {to:?}"),
            )?;
        }
        let slot = |side: usize, file: usize, a: &A::Unit, b: &A::Unit| -> Check {
            match self.army.standing(a) {
                Standing::Absent | Standing::Gone => ensure(a == b, || {
                    format!(
                        "an absent or gone unit changed (side {side}, file {file}): {a:?} → {b:?}"
                    )
                }),
                _ => self.army.check_unit(side, file, a, b),
            }
        };
        for side in 0..2 {
            for i in 0..MAX_FILES {
                let (fb, tb) = (&from.field.back[side][i], &to.field.back[side][i]);
                let (ff, tf) = (&from.field.front[side][i], &to.field.front[side][i]);
                let stepped_up = self.army.standing(tb) == Standing::Absent
                    && self.army.standing(fb) != Standing::Absent;
                if stepped_up {
                    ensure(to.replaced[side] > from.replaced[side], || {
                        format!("a support left without stepping up (side {side}, file {i})")
                    })?;
                    slot(side, i, fb, tf)?;
                } else {
                    slot(side, i, fb, tb)?;
                    slot(side, i, ff, tf)?;
                }
            }
        }
        Ok(())
    }
    fn start(&self) -> Self::State {
        let absent = self.army.absent();
        let mut field = Field {
            front: [[absent; MAX_FILES]; 2],
            back: [[absent; MAX_FILES]; 2],
            range: self.range,
        };
        for side in 0..2 {
            for i in 0..self.files {
                field.front[side][i] = self.army.unit(side, i);
                if i < self.supports[side] {
                    field.back[side][i] = self.army.unit(side, i);
                }
            }
        }
        BattleState {
            field,
            turn: 0,
            end: 0,
            replaced: [0, 0],
            spent: [0, 0],
            holes: [0, 0],
        }
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    fn exact(&self) -> bool {
        false
    }
    fn step<R: Roll>(&self, mut s: Self::State, r: &mut R) -> Self::State {
        if s.end != 0 {
            return s;
        }
        s.turn += 1;
        let f = &mut s.field;
        // Movement: side A closes to contact when it means to charge.
        if self.policy.active() && f.range > 1 {
            f.range -= 1;
        }
        let ctx = TurnContext {
            turn: u32::from(s.turn),
            files: self.files,
            policy: self.policy,
            fire_range: self.fire_range,
        };
        self.army.turn(f, &ctx, r);
        // Supports step up into the places of units that are gone.
        for side in 0..2 {
            for i in 0..self.supports[side] {
                let back = self.army.standing(&f.back[side][i]);
                if self.army.standing(&f.front[side][i]) == Standing::Gone
                    && matches!(back, Standing::InLine | Standing::Shaken)
                {
                    s.replaced[side] += 1;
                    s.spent[side] += self.army.strength(side, i) as u16;
                    f.front[side][i] = f.back[side][i];
                    f.back[side][i] = self.army.absent();
                }
            }
        }
        for side in 0..2 {
            s.holes[side] += self.gaps(&s, side) as u16;
        }
        let gone = if self.line {
            [0, 1].map(|side| self.units_lost(&s, side) >= self.break_at[side])
        } else {
            [0, 1].map(|side| self.army.standing(&s.field.front[side][0]) == Standing::Gone)
        };
        s.end = match gone {
            [true, true] => 3,
            [false, true] => 1,
            [true, false] => 2,
            [false, false] => 0,
        };
        s
    }
    fn classes(&self) -> &[ClassInfo] {
        if self.line {
            &LINE_CLASSES
        } else {
            &ENGAGEMENT_CLASSES
        }
    }
    fn class_of(&self, s: Self::State) -> usize {
        usize::from(s.end)
    }
    fn values(&self) -> &[ValueInfo] {
        &self.values
    }
    fn value_of(&self, s: Self::State, i: usize) -> u32 {
        let side = i % 2;
        match i {
            0 | 1 => self.units_lost(&s, side),
            2 | 3 => {
                let f = &s.field;
                u32::from(s.spent[side])
                    + (0..self.files)
                        .map(|k| {
                            let lost = |u: &A::Unit| {
                                if self.army.standing(u) == Standing::Absent {
                                    0
                                } else {
                                    self.army.strength_lost(side, k, u)
                                }
                            };
                            lost(&f.front[side][k]) + lost(&f.back[side][k])
                        })
                        .sum::<u32>()
            }
            4 | 5 => u32::from(s.holes[side]),
            _ => {
                let n = self.army.statuses().len();
                let (side, st) = ((i - 6) / n, (i - 6) % n);
                u32::from(self.army.status(&s.field.front[side][0]) == st)
            }
        }
    }
    fn series(&self) -> &[ValueInfo] {
        &self.series
    }
    fn series_of(&self, s: Self::State, i: usize) -> u32 {
        let side = i % 2;
        match i {
            0 | 1 => self.gaps(&s, side),
            2 | 3 => self.units_lost(&s, side),
            _ => self.count(&s, side, Standing::Shaken),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rank & File

/// A Rank & File unit in a battle: its state, a Blown marker (RF-11), whether it must charge
/// this turn (RF-12), and whether the slot holds a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RfSlot {
    /// Its state.
    pub s: rf::UnitState,
    /// RF-11: carries a Blown marker.
    pub blown: bool,
    /// RF-12: must charge this turn.
    pub must_charge: bool,
    /// The slot holds a unit.
    pub present: bool,
}

/// Rank & File units and the RF-13 turn: charges (waiver tests at the end of the charge phase,
/// RF-10; Blown markers, RF-11) → rally (RF-5; not for units in a charge or that failed a waiver
/// test) → movement → fire, simultaneous (Good units not charging fire; each hit a stand, RF-7
/// hit points for single stands) → morale tests for units that lost stands (RF-5, RF-3, RF-8
/// stampedes count as routing) → melee (RF-9 to the end; RF-12 uncontrolled winners charge
/// next turn) → end turn. Only Good units fire; Good and Unsteady units may be fired at and
/// charged (a routing unit is running away).
#[derive(Debug, Clone)]
pub struct RfArmy {
    /// Each side's fighters, by file.
    pub fighters: [Vec<rf::Fighter>; 2],
    /// Their starting states.
    pub starts: [Vec<rf::UnitState>; 2],
    /// Optional rules.
    pub options: rf::Options,
    /// Each side's fire.
    pub fire: [Volley; 2],
    /// RF-8 in force.
    pub stampede: bool,
    /// RF-10 in force.
    pub waiver_tests: bool,
    /// RF-11 in force.
    pub blown_cavalry: bool,
    /// The melee of each file with each side as the attacker: `fights[attacker][file]`, and
    /// the same with a Blown attacker.
    fights: [Vec<[RfFight; 2]>; 2],
    /// Safety cap on melee rounds.
    pub max_rounds: u32,
}

impl RfArmy {
    /// The army of `fighters` (by side and file) under `options`.
    pub fn new(
        fighters: [Vec<rf::Fighter>; 2],
        starts: [Vec<rf::UnitState>; 2],
        options: rf::Options,
        rules: rf::MeleeRules,
        fire: [Volley; 2],
        max_rounds: u32,
        [stampede, waiver_tests, blown_cavalry, uncontrolled]: [bool; 4],
    ) -> Self {
        let fights = [0, 1].map(|a| {
            (0..fighters[a].len())
                .map(|i| {
                    let att = fighters[a][i];
                    let def = fighters[1 - a][i];
                    let mut blown = att;
                    blown.blown = true;
                    let make = |att: rf::Fighter| {
                        RfFight::new(
                            att,
                            def,
                            [starts[a][i], starts[1 - a][i]],
                            options,
                            rules,
                            max_rounds,
                            Some((false, uncontrolled)),
                        )
                    };
                    [make(att), make(blown)]
                })
                .collect()
        });
        RfArmy {
            fighters,
            starts,
            options,
            fire,
            stampede,
            waiver_tests,
            blown_cavalry,
            fights,
            max_rounds,
        }
    }

    fn targetable(u: &RfSlot) -> bool {
        u.present && matches!(u.s.status, rf::Status::Good | rf::Status::Unsteady)
    }
}

/// End states of a Rank & File unit.
const RF_STATUSES: [&str; 4] = ["good", "unsteady", "routing", "removed"];

impl Army for RfArmy {
    type Unit = RfSlot;
    fn check_unit(&self, side: usize, file: usize, from: &RfSlot, to: &RfSlot) -> Check {
        let unit = &self.fighters[side][file].unit;
        invariants::rf_unit(unit, &self.options, &self.starts[side][file], from.s, to.s)
    }
    fn statuses(&self) -> &'static [&'static str] {
        &RF_STATUSES
    }
    fn end_names(&self) -> [&'static [&'static str]; 2] {
        [
            &[
                "a_ends_good",
                "a_ends_unsteady",
                "a_ends_routing",
                "a_ends_removed",
            ],
            &[
                "b_ends_good",
                "b_ends_unsteady",
                "b_ends_routing",
                "b_ends_removed",
            ],
        ]
    }
    fn absent(&self) -> RfSlot {
        RfSlot {
            s: rf::UnitState {
                status: rf::Status::Removed,
                lost: 0,
                rerolls: 0,
            },
            blown: false,
            must_charge: false,
            present: false,
        }
    }
    fn unit(&self, side: usize, file: usize) -> RfSlot {
        RfSlot {
            s: self.starts[side][file],
            blown: self.fighters[side][file].blown,
            must_charge: false,
            present: true,
        }
    }
    fn standing(&self, u: &RfSlot) -> Standing {
        match (u.present, u.s.status) {
            (false, _) => Standing::Absent,
            (_, rf::Status::Good) => Standing::InLine,
            (_, rf::Status::Removed) => Standing::Gone,
            _ => Standing::Shaken,
        }
    }
    fn status(&self, u: &RfSlot) -> usize {
        u.s.status as usize
    }
    fn strength(&self, side: usize, file: usize) -> u32 {
        // Stands, or a single stand's models (RF-7).
        u32::from(self.fighters[side][file].unit.stands)
    }
    fn strength_lost(&self, side: usize, file: usize, u: &RfSlot) -> u32 {
        let unit = &self.fighters[side][file].unit;
        u32::from(unit.stands_lost(u.s)).min(u32::from(unit.stands))
    }
    fn turn<R: Roll>(&self, f: &mut Field<RfSlot>, ctx: &TurnContext, r: &mut R) {
        use rf::Status::{Good, Removed, Routing, Unsteady};
        let files = ctx.files;
        // Charge phase: who charges whom (attacker side per file), and waiver tests.
        let mut charge: [Option<usize>; MAX_FILES] = [None; MAX_FILES];
        let mut no_rally = [[false; MAX_FILES]; 2];
        for i in 0..files {
            let (a, b) = (f.front[0][i], f.front[1][i]);
            let able = |u: &RfSlot| u.present && u.s.status == Good;
            let by_a = able(&a)
                && Self::targetable(&b)
                && f.range <= 1
                && (a.must_charge || ctx.policy.charges(ctx.turn, b.s.status == Unsteady));
            let by_b = able(&b) && Self::targetable(&a) && f.range <= 1 && b.must_charge;
            charge[i] = if by_a {
                Some(0)
            } else if by_b {
                Some(1)
            } else {
                None
            };
            for side in 0..2 {
                f.front[side][i].must_charge = false;
            }
            if let Some(att) = charge[i] {
                no_rally[0][i] = true;
                no_rally[1][i] = true;
                let d = 1 - att;
                let due = self.waiver_tests
                    && rf::waiver_due(&self.fighters[att][i], &self.fighters[d][i], true);
                if due {
                    let target = &mut f.front[d][i];
                    let (s, _) = rf::waiver(&self.fighters[d][i].unit, &self.options, target.s, r);
                    target.s = s;
                    if matches!(s.status, Routing | Removed) {
                        // The target broke before contact: no melee.
                        charge[i] = None;
                    }
                }
            }
            // RF-11: a marker comes off in a charge phase in which the unit neither charges nor
            // is routing (a removed unit keeps its state: it never acts again).
            for side in 0..2 {
                let u = &mut f.front[side][i];
                if charge[i] != Some(side) && !matches!(u.s.status, Routing | Removed) {
                    u.blown = self.fighters[side][i].blown;
                }
            }
        }
        // Rally phase.
        for side in 0..2 {
            for i in 0..files {
                let u = &mut f.front[side][i];
                if u.present && !no_rally[side][i] {
                    u.s = self.fighters[side][i].unit.rally(&self.options, u.s, r);
                }
            }
        }
        // Fire phase: simultaneous.
        let mut hits = [[0u32; MAX_FILES]; 2];
        if f.range <= ctx.fire_range {
            for side in 0..2 {
                let targets: [bool; MAX_FILES] =
                    std::array::from_fn(|i| i < files && Self::targetable(&f.front[1 - side][i]));
                for i in 0..files {
                    let u = &f.front[side][i];
                    if !u.present || u.s.status != Good || charge[i] == Some(side) {
                        continue;
                    }
                    if let Some(t) = fire_target(&targets, i, files) {
                        let unit = &self.fighters[side][i].unit;
                        let full = u32::from(unit.stands);
                        let left = full - u32::from(unit.stands_lost(u.s)).min(full);
                        hits[1 - side][t] += self.fire[side].sample(left, full, r);
                    }
                }
            }
        }
        // Morale phase: units that lost stands test.
        for side in 0..2 {
            for i in 0..files {
                if hits[side][i] == 0 {
                    continue;
                }
                let unit = &self.fighters[side][i].unit;
                let u = &mut f.front[side][i];
                let hit = unit.take_hits(u.s, hits[side][i].min(255) as u8);
                let after = unit.morale(&self.options, hit, r);
                let failed = hit.status != Removed && after.status != hit.status;
                u.s = after;
                if self.stampede
                    && failed
                    && unit.kind == rf::Kind::Elephant
                    && after.status != Removed
                    && rf::stampedes(r)
                {
                    u.s.status = Routing;
                }
            }
        }
        // Melee phase.
        for (i, c) in charge.iter().enumerate().take(files) {
            let Some(att) = *c else { continue };
            let d = 1 - att;
            let (a, b) = (f.front[att][i], f.front[d][i]);
            let fighting = |u: &RfSlot| matches!(u.s.status, Good | Unsteady);
            if !fighting(&a) || !fighting(&b) {
                continue;
            }
            let fight = &self.fights[att][i][usize::from(a.blown)];
            let mut st = FightState {
                phase: FightPhase::First,
                a: a.s,
                d: b.s,
                carry: [0, 0],
                fifty: false,
                must_charge: false,
                waiver_failed: false,
            };
            for _ in 0..self.max_rounds {
                st = fight.step(st, r);
                if let FightPhase::Over(_) = st.phase {
                    break;
                }
            }
            f.front[att][i].s = st.a;
            f.front[d][i].s = st.d;
            match st.phase {
                FightPhase::Over(1) => f.front[att][i].must_charge = st.must_charge,
                FightPhase::Over(2) => f.front[d][i].must_charge = st.must_charge,
                _ => {}
            }
            if self.blown_cavalry && self.fighters[att][i].troop == rf::Troop::Cavalry {
                f.front[att][i].blown = true;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The effectiveness rules

/// An effectiveness-rules unit in a battle: its state, whether it is locked in melee with the
/// unit opposite, and whether the slot holds a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EfSlot {
    /// Its state.
    pub s: ef::UnitState,
    /// In melee with the unit opposite (a drawn round is fought again next turn, EF-3).
    pub contact: bool,
    /// The slot holds a unit.
    pub present: bool,
}

/// Effectiveness-rules units and their turn: retreating units roll to return (EF-5) → side A
/// charges (contact) → fire, simultaneous, by units in the line and not in melee (every
/// `hits_per_quarter` hits a quarter, EF-3) → tests for units that lost 25% or more (EF-2; a
/// supported unit +1), a failure a further 25% and, under `retreat-on-fire`, a retreat unless an
/// enemy it exchanged fire with also lost and failed (EF-5) → melee rounds in contact (EF-3: the
/// unit that suffered more hits this turn, fire included, tests and retreats; a tie fights on
/// next turn). A retreat into a support behind is blocked: the retreating unit is eliminated
/// and the support tests, losing 25% on a failure (EF-4); `p_blocked` blocks any retreat.
#[derive(Debug, Clone)]
pub struct EfArmy {
    /// Each side's units by file, unsupported and supported (`units[side][file][supported]`).
    pub units: [Vec<[ef::Unit; 2]>; 2],
    /// Their starting states.
    pub starts: [Vec<ef::UnitState>; 2],
    /// Each side's fire.
    pub fire: [Volley; 2],
    /// Each side's melee hits per round, by file.
    pub melee: [Vec<Weights>; 2],
    /// Hits that cost 25%.
    pub hits_per_quarter: u8,
    /// Option `retreat-on-fire` (EF-5).
    pub retreat_on_fire: bool,
    /// EF-4: (clear, blocked) for any retreat.
    pub blocked: Option<Weights>,
    /// EF-5: a retreating unit is out of the enemy's range.
    pub retreat_out_of_range: bool,
}

/// End states of an effectiveness-rules unit.
const EF_STATUSES: [&str; 3] = ["in_line", "retreating", "eliminated"];

impl EfArmy {
    fn targetable(&self, u: &EfSlot) -> bool {
        u.present
            && match u.s.status {
                ef::Status::InLine => true,
                ef::Status::Retreating => !self.retreat_out_of_range,
                ef::Status::Eliminated => false,
            }
    }

    /// EF-4 and EF-5: the unit in `file` of `side` retreats; a support behind blocks it.
    fn retreat<R: Roll>(&self, f: &mut Field<EfSlot>, side: usize, file: usize, r: &mut R) {
        f.front[side][file].contact = false;
        let back = f.back[side][file];
        if back.present && back.s.status != ef::Status::Eliminated {
            f.front[side][file].s.status = ef::Status::Eliminated;
            let unit = &self.units[side][file][0];
            if !unit.test(r) {
                f.back[side][file].s = unit.lose_quarter(back.s);
            }
            return;
        }
        let u = &mut f.front[side][file];
        u.s = ef::retreat(u.s, self.blocked.as_ref(), r);
    }

    fn unit_at(&self, f: &Field<EfSlot>, side: usize, file: usize) -> &ef::Unit {
        let b = &f.back[side][file];
        let supported = b.present && b.s.status != ef::Status::Eliminated;
        &self.units[side][file][usize::from(supported)]
    }
}

impl Army for EfArmy {
    type Unit = EfSlot;
    fn check_unit(&self, _side: usize, _file: usize, from: &EfSlot, to: &EfSlot) -> Check {
        invariants::ef_unit(self.hits_per_quarter, from.s, to.s)
    }
    fn statuses(&self) -> &'static [&'static str] {
        &EF_STATUSES
    }
    fn end_names(&self) -> [&'static [&'static str]; 2] {
        [
            &["a_ends_in_line", "a_ends_retreating", "a_ends_eliminated"],
            &["b_ends_in_line", "b_ends_retreating", "b_ends_eliminated"],
        ]
    }
    fn absent(&self) -> EfSlot {
        EfSlot {
            s: ef::UnitState {
                status: ef::Status::Eliminated,
                quarters: 0,
                hits: 0,
            },
            contact: false,
            present: false,
        }
    }
    fn unit(&self, side: usize, file: usize) -> EfSlot {
        EfSlot {
            s: self.starts[side][file],
            contact: false,
            present: true,
        }
    }
    fn standing(&self, u: &EfSlot) -> Standing {
        match (u.present, u.s.status) {
            (false, _) => Standing::Absent,
            (_, ef::Status::InLine) => Standing::InLine,
            (_, ef::Status::Retreating) => Standing::Shaken,
            (_, ef::Status::Eliminated) => Standing::Gone,
        }
    }
    fn status(&self, u: &EfSlot) -> usize {
        u.s.status as usize
    }
    fn strength(&self, _side: usize, _file: usize) -> u32 {
        4
    }
    fn strength_lost(&self, _side: usize, _file: usize, u: &EfSlot) -> u32 {
        4 - u32::from(u.s.quarters.min(4))
    }
    fn turn<R: Roll>(&self, f: &mut Field<EfSlot>, ctx: &TurnContext, r: &mut R) {
        use ef::Status::{Eliminated, InLine, Retreating};
        let files = ctx.files;
        let hpq = self.hits_per_quarter;
        // EF-5: retreating units roll to return at the start of their move.
        for side in 0..2 {
            for i in 0..files {
                let u = &mut f.front[side][i];
                if u.present && u.s.status == Retreating && self.units[side][i][0].roll_to_return(r)
                {
                    u.s.status = InLine;
                }
            }
        }
        // Side A charges: the two units are in melee from now on.
        for i in 0..files {
            let (a, b) = (f.front[0][i], f.front[1][i]);
            if a.present
                && a.s.status == InLine
                && !a.contact
                && f.range <= 1
                && self.targetable(&b)
                && ctx.policy.charges(ctx.turn, b.s.status == Retreating)
            {
                f.front[0][i].contact = true;
                f.front[1][i].contact = true;
            }
        }
        // Fire: simultaneous.
        let mut hits = [[0u32; MAX_FILES]; 2];
        let mut target = [[None; MAX_FILES]; 2];
        if f.range <= ctx.fire_range {
            for side in 0..2 {
                let targets: [bool; MAX_FILES] = std::array::from_fn(|i| {
                    let t = &f.front[1 - side][i];
                    i < files && self.targetable(t) && !t.contact
                });
                for i in 0..files {
                    let u = &f.front[side][i];
                    if !u.present || u.s.status != InLine || u.contact {
                        continue;
                    }
                    target[side][i] = fire_target(&targets, i, files);
                    if let Some(t) = target[side][i] {
                        let left = u32::from(u.s.quarters);
                        hits[1 - side][t] += self.fire[side].sample(left, 4, r);
                    }
                }
            }
        }
        // EF-2 tests for units that lost 25% or more from fire.
        let mut failed = [[false; MAX_FILES]; 2];
        for side in 0..2 {
            for i in 0..files {
                if hits[side][i] == 0 {
                    continue;
                }
                let unit = *self.unit_at(f, side, i);
                let u = &mut f.front[side][i];
                let (s, lost) = unit.take_hits(u.s, hits[side][i], hpq);
                u.s = s;
                if lost > 0 && s.status != Eliminated && !unit.test(r) {
                    failed[side][i] = true;
                    u.s = unit.lose_quarter(s);
                }
            }
        }
        // EF-5: the retreat after a failed test, with its exception.
        if self.retreat_on_fire {
            for side in 0..2 {
                for i in 0..files {
                    if !failed[side][i] || f.front[side][i].s.status == Eliminated {
                        continue;
                    }
                    let exchanged = target[side][i]
                        .is_some_and(|j| target[1 - side][j] == Some(i) && failed[1 - side][j]);
                    if !exchanged {
                        self.retreat(f, side, i, r);
                    }
                }
            }
        }
        // EF-3: a round in every melee.
        for i in 0..files {
            let (a, b) = (f.front[0][i], f.front[1][i]);
            let fighting = |u: &EfSlot| u.present && u.contact && u.s.status != Eliminated;
            if !(fighting(&a) && fighting(&b)) {
                f.front[0][i].contact = false;
                f.front[1][i].contact = false;
                continue;
            }
            let dealt = [
                r.pick(&self.melee[0][i]) as u32,
                r.pick(&self.melee[1][i]) as u32,
            ];
            for side in 0..2 {
                let unit = *self.unit_at(f, side, i);
                let u = &mut f.front[side][i];
                u.s = unit.take_hits(u.s, dealt[1 - side], hpq).0;
            }
            let suffered = [hits[0][i] + dealt[1], hits[1][i] + dealt[0]];
            let gone = |side: usize| f.front[side][i].s.status == Eliminated;
            let loser = match (gone(0), gone(1)) {
                (false, false) => match suffered[0].cmp(&suffered[1]) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                },
                _ => {
                    f.front[0][i].contact = false;
                    f.front[1][i].contact = false;
                    None
                }
            };
            if let Some(l) = loser {
                f.front[0][i].contact = false;
                f.front[1][i].contact = false;
                let unit = *self.unit_at(f, l, i);
                if !unit.test(r) {
                    let u = &mut f.front[l][i];
                    u.s = unit.lose_quarter(u.s);
                }
                if f.front[l][i].s.status != Eliminated {
                    self.retreat(f, l, i, r);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The Age of Linear Warfare

/// An Age of Linear Warfare unit in a battle: its state under fire (status and pips) and
/// whether the slot holds a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LwSlot {
    /// Its state.
    pub s: LwState,
    /// The slot holds a unit.
    pub present: bool,
}

/// Age of Linear Warfare units and their turn: side A declares charges (LW-3: a double move,
/// so from up to 2 moves, costing a pip; not on the last pip, LW-1) → units falling back retire
/// or recover a pip (LW-5) → fire, simultaneous, by units in the line that are not charging
/// (one die per stand on 4+, LW-2; each hit a pip, a general bearing half by coin, LW-6) →
/// melees (LW-3 closing fire, LW-4 rounds with follow-up, a second loss destroys) → units at or
/// below `fall_back_at` pips fall back (LW-5). LW-7's army break point is the line's.
#[derive(Debug, Clone)]
pub struct LwArmy {
    /// Each side's units by file.
    pub sides: [Vec<lw::Side>; 2],
    /// Each side's fire, by file: one die per stand on 4+ (LW-2).
    pub fire: [Vec<Volley>; 2],
    /// Option `dice-follow-pips` (LW-2).
    pub dice_follow_pips: bool,
    /// Fall back at or below this many pips (0: never).
    pub fall_back_at: u8,
    /// Rejoin the line on recovering to this many pips.
    pub return_at: u8,
    /// A unit falling back is out of the enemy's range.
    pub fall_back_out_of_range: bool,
    /// `melees[attacker side][file]`.
    melees: [Vec<LwMelee>; 2],
    coin: Weights,
}

impl LwArmy {
    /// The army of `sides` (by side and file).
    pub fn new(
        sides: [Vec<lw::Side>; 2],
        fire: [Vec<Volley>; 2],
        dice_follow_pips: bool,
        follow_up: FollowUp,
        (fall_back_at, return_at, fall_back_out_of_range): (u8, u8, bool),
    ) -> Self {
        let melees = [0, 1].map(|a| {
            (0..sides[a].len())
                .map(|i| {
                    let mut att = sides[a][i];
                    att.charging = true;
                    let mut def = sides[1 - a][i];
                    def.charging = false;
                    LwMelee::new(att, def, follow_up, true, 4, dice_follow_pips)
                })
                .collect()
        });
        LwArmy {
            sides,
            fire,
            dice_follow_pips,
            fall_back_at,
            return_at,
            fall_back_out_of_range,
            melees,
            coin: lw::coin(),
        }
    }

    fn targetable(&self, u: &LwSlot) -> bool {
        u.present
            && match u.s.status {
                LwStatus::InLine => true,
                LwStatus::Retiring | LwStatus::Recovering => !self.fall_back_out_of_range,
                LwStatus::Removed => false,
            }
    }
}

/// End states of an Age of Linear Warfare unit.
const LW_STATUSES: [&str; 3] = ["in_line", "falling_back", "removed"];

impl Army for LwArmy {
    type Unit = LwSlot;
    fn check_unit(&self, side: usize, file: usize, from: &LwSlot, to: &LwSlot) -> Check {
        invariants::lw_unit(self.sides[side][file].pips, from.s, to.s)
    }
    fn statuses(&self) -> &'static [&'static str] {
        &LW_STATUSES
    }
    fn end_names(&self) -> [&'static [&'static str]; 2] {
        [
            &["a_ends_in_line", "a_ends_falling_back", "a_ends_removed"],
            &["b_ends_in_line", "b_ends_falling_back", "b_ends_removed"],
        ]
    }
    fn absent(&self) -> LwSlot {
        LwSlot {
            s: LwState {
                status: LwStatus::Removed,
                pips: lw::Pips {
                    unit: 0,
                    general: 0,
                },
            },
            present: false,
        }
    }
    fn unit(&self, side: usize, file: usize) -> LwSlot {
        let u = &self.sides[side][file];
        LwSlot {
            s: LwState {
                status: LwStatus::InLine,
                pips: lw::Pips {
                    unit: u.pips,
                    general: if u.general { lw::GENERAL_PIPS } else { 0 },
                },
            },
            present: true,
        }
    }
    fn standing(&self, u: &LwSlot) -> Standing {
        match (u.present, u.s.status) {
            (false, _) => Standing::Absent,
            (_, LwStatus::InLine) => Standing::InLine,
            (_, LwStatus::Removed) => Standing::Gone,
            _ => Standing::Shaken,
        }
    }
    fn status(&self, u: &LwSlot) -> usize {
        match u.s.status {
            LwStatus::InLine => 0,
            LwStatus::Retiring | LwStatus::Recovering => 1,
            LwStatus::Removed => 2,
        }
    }
    fn strength(&self, side: usize, file: usize) -> u32 {
        u32::from(self.sides[side][file].pips)
    }
    fn strength_lost(&self, side: usize, file: usize, u: &LwSlot) -> u32 {
        u32::from(self.sides[side][file].pips.saturating_sub(u.s.pips.unit))
    }
    fn turn<R: Roll>(&self, f: &mut Field<LwSlot>, ctx: &TurnContext, r: &mut R) {
        let files = ctx.files;
        // LW-3: charges are declared at the start of the turn.
        let mut charging = [false; MAX_FILES];
        for (i, c) in charging.iter_mut().enumerate().take(files) {
            let (a, b) = (f.front[0][i], f.front[1][i]);
            *c = a.present
                && a.s.status == LwStatus::InLine
                && a.s.pips.unit > 1
                && f.range <= 2
                && self.targetable(&b)
                && ctx.policy.charges(ctx.turn, b.s.status != LwStatus::InLine);
        }
        // LW-5: falling back and recovering.
        for side in 0..2 {
            for i in 0..files {
                let start = self.sides[side][i].pips;
                let u = &mut f.front[side][i];
                match u.s.status {
                    LwStatus::Retiring => u.s.status = LwStatus::Recovering,
                    LwStatus::Recovering => {
                        u.s.pips.unit = (u.s.pips.unit + 1).min(start);
                        if u.s.pips.unit >= self.return_at {
                            u.s.status = LwStatus::InLine;
                        }
                    }
                    _ => {}
                }
            }
        }
        // LW-2: fire, simultaneous.
        let mut hits = [[0u32; MAX_FILES]; 2];
        if f.range <= ctx.fire_range {
            for side in 0..2 {
                let targets: [bool; MAX_FILES] =
                    std::array::from_fn(|i| i < files && self.targetable(&f.front[1 - side][i]));
                for i in 0..files {
                    let u = &f.front[side][i];
                    if !u.present || u.s.status != LwStatus::InLine || (side == 0 && charging[i]) {
                        continue;
                    }
                    if let Some(t) = fire_target(&targets, i, files) {
                        let stands = self.sides[side][i].stands;
                        let left = lw::infantry_dice(stands, u.s.pips.unit, self.dice_follow_pips);
                        hits[1 - side][t] += self.fire[side][i].sample(left, u32::from(stands), r);
                    }
                }
            }
        }
        for side in 0..2 {
            for i in 0..files {
                let u = &mut f.front[side][i];
                if hits[side][i] > 0 && u.present && u.s.status != LwStatus::Removed {
                    u.s.pips = u.s.pips.lose(hits[side][i], &self.coin, r);
                    if u.s.pips.unit == 0 {
                        u.s.status = LwStatus::Removed;
                    }
                }
            }
        }
        // LW-3, LW-4: the melees.
        for (i, &c) in charging.iter().enumerate().take(files) {
            let (a, b) = (f.front[0][i], f.front[1][i]);
            if !c || a.s.status != LwStatus::InLine || !self.targetable(&b) {
                continue;
            }
            let m = &self.melees[0][i];
            let mut st = MeleeState {
                phase: Phase::ClosingFire,
                attacker: lw::Pips {
                    unit: a.s.pips.unit - 1,
                    general: a.s.pips.general,
                },
                defender: b.s.pips,
                losses: [0, 0],
                rounds: 0,
            };
            for _ in 0..m.turns() {
                st = m.step(st, r);
                if let Phase::Over(_) = st.phase {
                    break;
                }
            }
            for (side, pips) in [(0, st.attacker), (1, st.defender)] {
                let u = &mut f.front[side][i];
                u.s.pips = pips;
                if pips.unit == 0 || st.losses[side] >= 2 {
                    u.s.status = LwStatus::Removed;
                }
            }
        }
        // LW-5: units worn down fall back.
        for side in 0..2 {
            for i in 0..files {
                let u = &mut f.front[side][i];
                if u.present && u.s.status == LwStatus::InLine && u.s.pips.unit <= self.fall_back_at
                {
                    u.s.status = LwStatus::Retiring;
                }
            }
        }
    }
}
