//! Rank & File units in `engagement` and `line`, in RF-13's turn order.

#![allow(clippy::needless_range_loop)]

use super::Ctx;
use super::melee::{Charge, FightState, MeleeSetup, RfFight};
use super::params::{Player, Rules};
use super::rules as rf;
use super::unit::{fighter_of, fire_params};
use crate::dice::Roll;
use crate::error::{Error, Result};
use crate::scenario::Job;
use crate::scenario::battle::*;
use crate::scenario::invariants::Check;
use crate::scenario::melee::FightPhase;
use crate::system::battle::{self, BattleParams, BattleSetup, BreakPointSource, SideSpec};

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

/// Rank & File units and the RF-13 turn: charges by units within a charge move at the start of
/// the turn (waiver tests at the end of the charge phase, RF-10; Blown markers, RF-11; a
/// charged router evades or is caught, `charged_router`) → rally (RF-5; not for units in a
/// charge or that failed a waiver test; a router that evaded loses a stand, as one that does
/// not rally does) → movement → fire, simultaneous (each hit a stand, RF-7
/// hit points for single stands; who fires and at whom: [`BattleRules`]) → morale tests for
/// units that lost stands (RF-5, RF-3, RF-8 stampedes count as routing) → melee (RF-9 to the
/// end; RF-12 uncontrolled winners charge next turn) → end turn.
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
    /// Who fires, charges and may be charged (the sources are silent; rule parameters): set
    /// only where `by_status` is worked out again (a test's [`RfArmy::set_battle`]).
    battle: BattleRules,
    /// The same by status, worked out once.
    by_status: ByStatus,
    /// RF-10 in force.
    pub waiver_tests: bool,
    /// RF-10: the period (the Industrial Age spares frontal shock cavalry charges a waiver).
    pub era: rf::Era,
    /// RF-10: whether chargers pursue a target that routed in its waiver test.
    pub pursue: bool,
    /// RF-11 in force.
    pub blown_cavalry: bool,
    /// The melee of each file with each side as the attacker: `fights[attacker][file]`, and
    /// the same with a Blown attacker.
    fights: [Vec<[RfFight; 2]>; 2],
    /// Safety cap on melee rounds.
    pub max_rounds: u32,
    /// The melees fought out within a turn, for the exact solver.
    fought: PlayedOut<FightKey, FightState>,
}

/// A melee's start (attacker side, file, the attacker's marker, both units' states).
type FightKey = (usize, usize, bool, rf::UnitState, rf::UnitState);

impl RfArmy {
    /// The army of `fighters` (by side and file) under `options`, with the optional rules `on`
    /// (RF-8, RF-10, RF-11, RF-12).
    pub fn new(
        fighters: [Vec<rf::Fighter>; 2],
        starts: [Vec<rf::UnitState>; 2],
        melee: MeleeSetup,
        fire: [Volley; 2],
        on: super::Switches,
        (era, pursue): (rf::Era, bool),
        battle: BattleRules,
    ) -> Self {
        let fights = [0, 1].map(|a| {
            (0..fighters[a].len())
                .map(|i| {
                    // RF-11: the charger fights with the marker it carried into the charge
                    // (a spec's `blown` keyword only says what it starts with: a turn without
                    // a charge takes it off); the target's has come off by the melee phase, as
                    // it did not charge this turn (and a routing target does not fight).
                    let marked = |blown: bool| rf::Fighter {
                        blown,
                        ..fighters[a][i]
                    };
                    let def = rf::Fighter {
                        blown: false,
                        ..fighters[1 - a][i]
                    };
                    let make = |att: rf::Fighter| {
                        // The army takes the waiver tests itself, in its charge phase.
                        let charge = Charge {
                            waiver: false,
                            uncontrolled: on.uncontrolled,
                            after_waiver: rf::WaiverRules::default(),
                        };
                        RfFight::new(
                            [att, def],
                            [starts[a][i], starts[1 - a][i]],
                            melee,
                            Some(charge),
                        )
                    };
                    [make(marked(false)), make(marked(true))]
                })
                .collect()
        });
        RfArmy {
            fighters,
            starts,
            options: melee.options,
            fire,
            battle,
            by_status: ByStatus::of(&battle),
            waiver_tests: on.waiver_tests,
            era,
            pursue,
            blown_cavalry: on.blown_cavalry,
            fights,
            max_rounds: melee.max_rounds,
            fought: PlayedOut::default(),
        }
    }

    /// Change the battle rules in force.
    #[cfg(test)]
    pub fn set_battle(&mut self, change: impl FnOnce(&mut BattleRules)) {
        change(&mut self.battle);
        self.by_status = ByStatus::of(&self.battle);
    }

    /// May `u` be fired at?
    #[inline(always)]
    fn fire_target(k: &ByStatus, u: &RfSlot) -> bool {
        u.present & k.fired_at[u.s.status as usize]
    }

    /// May `u` be charged?
    #[inline(always)]
    fn charge_target(k: &ByStatus, u: &RfSlot) -> bool {
        u.present & k.charged[u.s.status as usize]
    }

    /// May `u` charge?
    #[inline(always)]
    fn may_charge(k: &ByStatus, u: &RfSlot) -> bool {
        u.present & k.charges[u.s.status as usize]
    }

    /// Does `u` fire, having charged this turn when `charged`?
    #[inline(always)]
    fn fires(&self, k: &ByStatus, u: &RfSlot, charged: bool) -> bool {
        u.present & (!charged | self.battle.chargers_fire) & k.fires[u.s.status as usize]
    }
}

/// Who fires, is fired at, charges and may be charged, by status (Good, Unsteady, Routing,
/// Removed), from the battle rules: read once a turn, so that each unit's answer is a lookup,
/// not a branch on its status.
#[derive(Debug, Clone, Copy)]
struct ByStatus {
    /// Fires: Good; Unsteady under `unsteady_fires`.
    fires: [bool; 4],
    /// May be fired at: Good and Unsteady; Routing under `fire_at_routing`.
    fired_at: [bool; 4],
    /// May charge: Good; Unsteady under `unsteady_charges`.
    charges: [bool; 4],
    /// May be charged: Good and Unsteady; Routing unless `charged_router = not-a-target`.
    charged: [bool; 4],
}

impl ByStatus {
    fn of(b: &BattleRules) -> ByStatus {
        ByStatus {
            fires: [true, b.unsteady_fires, false, false],
            fired_at: [true, true, b.fire_at_routing, false],
            charges: [true, b.unsteady_charges, false, false],
            charged: [
                true,
                true,
                b.charged_router != rf::ChargedRouter::NotATarget,
                false,
            ],
        }
    }
}

/// RF-13 in battles where the sources are silent (rule parameters): who fires, who charges, and
/// what a charge at a routing unit does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BattleRules {
    /// An Unsteady unit fires (`unsteady_fires`).
    pub unsteady_fires: bool,
    /// An Unsteady unit may charge (`unsteady_charges`).
    pub unsteady_charges: bool,
    /// A unit that charged this turn still fires (`chargers_fire`).
    pub chargers_fire: bool,
    /// Routing units are fired at (`fire_at_routing`).
    pub fire_at_routing: bool,
    /// A charger or target made Unsteady in the morale phase still meets the charge
    /// (`unsteady_meets_charge`).
    pub unsteady_meets_charge: bool,
    /// What a charge at a routing unit does (`charged_router`).
    pub charged_router: rf::ChargedRouter,
}

impl BattleRules {
    /// The rules in force, in words, for the report's notes.
    pub fn words(&self) -> String {
        let firers = if self.unsteady_fires {
            "Good and Unsteady units fire"
        } else {
            "only Good units fire"
        };
        let chargers = if self.chargers_fire {
            "chargers too"
        } else {
            "not a unit that charged this turn"
        };
        let at = if self.fire_at_routing {
            "at any unit on the table"
        } else {
            "at Good and Unsteady units"
        };
        let charge = if self.unsteady_charges {
            "Good and Unsteady units charge"
        } else {
            "only Good units charge"
        };
        let router = match self.charged_router {
            rf::ChargedRouter::Evades => {
                "a charged router evades (it flees, may not rally, and loses a stand as a router that does not rally, RF-5)"
            }
            rf::ChargedRouter::EvadesUnhurt => {
                "a charged router evades (it flees and may not rally this turn, but loses no stand for it)"
            }
            rf::ChargedRouter::Caught => "a charged router is caught and destroyed",
            rf::ChargedRouter::NotATarget => "routers are not charged",
        };
        let shaken = if self.unsteady_meets_charge {
            "a charger or target made Unsteady in the morale phase still meets the charge"
        } else {
            "a charger or target shaken in the morale phase halts or retires: no melee"
        };
        format!(
            "{firers} ({chargers}), {at}; {charge}, from a move away at the start of the turn; {router}; {shaken} (RF-13)"
        )
    }

    /// The rules in force from the rule parameters.
    pub(super) fn of(q: &super::params::RuleParams) -> BattleRules {
        BattleRules {
            unsteady_fires: q.unsteady_fires,
            unsteady_charges: q.unsteady_charges,
            chargers_fire: q.chargers_fire,
            fire_at_routing: q.fire_at_routing,
            unsteady_meets_charge: q.unsteady_meets_charge,
            charged_router: q.charged_router,
        }
    }

    /// The source's reading where it speaks, the tool's defaults elsewhere (the `RULES`
    /// table's defaults, which a test ties to this).
    #[cfg(test)]
    pub const SOURCE: BattleRules = BattleRules {
        unsteady_fires: false,
        unsteady_charges: false,
        chargers_fire: false,
        fire_at_routing: false,
        unsteady_meets_charge: false,
        charged_router: rf::ChargedRouter::Evades,
    };
}

/// End states of a Rank & File unit.
const RF_STATUSES: [&str; 4] = ["good", "unsteady", "routing", "removed"];

impl Army for RfArmy {
    type Unit = RfSlot;
    fn check_unit(&self, side: usize, file: usize, from: &RfSlot, to: &RfSlot) -> Check {
        let unit = &self.fighters[side][file].unit;
        super::invariants::rf_unit(unit, &self.options, &self.starts[side][file], from.s, to.s)
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
                removal: None,
                in_place: false,
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
    #[inline(always)]
    fn standing(&self, u: &RfSlot) -> Standing {
        // Read off a table by (present, status, in place) rather than by branches: a battle
        // asks this of every slot every turn, and its answers follow the dice.
        use Standing::{Absent, Gone, InLine, Shaken};
        const BY: [Standing; 16] = [
            // Not present: no unit, whatever its state.
            Absent, Absent, Absent, Absent, Absent, Absent, Absent, Absent,
            // Good; Unsteady, out of its place or (a battery that stayed, RF-7, or a unit made
            // Unsteady on the spot by a waiver test, RF-10) still in it; Routing; Removed.
            InLine, InLine, Shaken, InLine, Shaken, Shaken, Gone, Gone,
        ];
        BY[usize::from(u.present) << 3 | (u.s.status as usize) << 1 | usize::from(u.s.in_place)]
    }
    fn status(&self, u: &RfSlot) -> usize {
        u.s.status as usize
    }
    /// With its Blown marker (RF-11) and an uncontrolled charge it must make (RF-12).
    fn unit_words(&self, side: usize, file: usize, u: &RfSlot) -> String {
        let full = self.strength(side, file);
        let mut out = format!(
            "{} {}/{}",
            self.statuses()[self.status(u)],
            i64::from(full) - i64::from(self.strength_lost(side, file, u)),
            full
        );
        if u.blown {
            out += ", blown";
        }
        if u.must_charge {
            out += ", must charge";
        }
        out
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
        // Never more than the field holds (so the compiler drops the bounds checks).
        let files = ctx.files.min(MAX_FILES);
        // Each phase first works out, for every unit and without a branch, whether the phase
        // touches it (a bit per file), then visits only those units, in file order, side A
        // first: the same units in the same order as a test of each unit in turn, so the same
        // dice, but with no branch on each unit's state for the processor to mispredict.
        let charged = self.who_charges(f, ctx, files);
        let charges = charged[0] | charged[1];
        let rallies = Self::markers_and_rallies(f, files, charges);
        let met = self.charges_met(f, files, charged, r);
        self.rally_phase(f, files, rallies, met.evaded, r);
        let hits = self.fire_phase(f, ctx, files, charged, r);
        let morale_changed = self.morale_phase(f, files, &hits, r);
        self.melee_phase(f, files, charged, &met, morale_changed, r);
    }
}

/// What the charge phase leaves the rest of the turn (RF-10, RF-11, RF-13).
struct ChargesMet {
    /// Whether the melee in file `i` may still happen: not when the target broke in its
    /// waiver test or fled as a router (and the melee phase checks that neither side is shaken).
    contact: [bool; MAX_FILES],
    /// The Blown marker each charger carried into its charge (RF-11: −1 to hit).
    blown_at_charge: [bool; MAX_FILES],
    /// Routers that evaded a charge (`charged_router = evades`), by side: bit `i`.
    evaded: [u32; 2],
}

/// The phases of a Rank & File turn, in the order RF's turn sequence plays them (the charge
/// phase, rally, fire, morale, melee), each inlined into [`Army::turn`].
impl RfArmy {
    /// Charge phase (RF-13): who charges whom, as bits by side (bit `i`: the side charges in
    /// file `i`; it charged, whatever happens next). A charge covers one move from where the
    /// units stood at the start of the turn: the charge phase comes before movement.
    #[inline(always)]
    fn who_charges(&self, f: &Field<RfSlot>, ctx: &TurnContext, files: usize) -> [u32; 2] {
        use rf::Status::Unsteady;
        let k = self.by_status;
        let reach = ctx.start_range <= 1;
        // Side A's policy, for a target in good order and for a shaken one (an Unsteady
        // target: `charge_when_shaken`'s meaning; a router is charged only by
        // `charge_at_turn` or an uncontrolled charge).
        let (at_turn, at_shaken) = (
            ctx.policy.charges(ctx.turn, false),
            ctx.policy.charges(ctx.turn, true),
        );
        // Bit `i`: side A (`charged[0]`) or side B (`charged[1]`) charges in file `i`.
        let mut charged = [0u32; 2];
        for i in 0..files {
            let (a, b) = (f.front[0][i], f.front[1][i]);
            let shaken = b.s.status == Unsteady;
            let by_a = Self::may_charge(&k, &a)
                & Self::charge_target(&k, &b)
                & reach
                & (a.must_charge | at_turn | (at_shaken & shaken));
            let by_b =
                Self::may_charge(&k, &b) & Self::charge_target(&k, &a) & reach & b.must_charge;
            charged[0] |= u32::from(by_a) << i;
            charged[1] |= u32::from(!by_a & by_b) << i;
        }
        charged
    }

    /// RF-11 in every file without a charge: a marker comes off in a charge phase in which the
    /// unit is not routing (a removed unit keeps its state: it never acts again). Returns the
    /// units that will rally, as bits by side: only the shaken (a unit in good order or removed
    /// is left as it is, RF-5), and none in a charge.
    #[inline(always)]
    fn markers_and_rallies(f: &mut Field<RfSlot>, files: usize, charges: u32) -> [u32; 2] {
        const KEEPS_BLOWN: [bool; 4] = [false, false, true, true];
        const SHAKEN: [bool; 4] = [false, true, true, false];
        let mut rallies = [0u32; 2];
        for side in 0..2 {
            for i in 0..files {
                let in_charge = charges >> i & 1 == 1;
                let u = &mut f.front[side][i];
                u.must_charge = false;
                u.blown &= KEEPS_BLOWN[u.s.status as usize] | in_charge;
                rallies[side] |= u32::from(u.present & SHAKEN[u.s.status as usize]) << i;
            }
            rallies[side] &= !charges;
        }
        rallies
    }

    /// The charges met, file by file (RF-10, RF-11): a charged router flees or is caught, a
    /// target takes its waiver test, a cavalry charger gets its marker.
    #[inline(always)]
    fn charges_met<R: Roll>(
        &self,
        f: &mut Field<RfSlot>,
        files: usize,
        charged: [u32; 2],
        r: &mut R,
    ) -> ChargesMet {
        use rf::Status::{Removed, Routing};
        let charges = charged[0] | charged[1];
        let mut contact = [false; MAX_FILES];
        let mut blown_at_charge = [false; MAX_FILES];
        // Routers that evaded a charge (`charged_router = evades`), by side: bit `i`.
        let mut evaded = [0u32; 2];
        let mut m = charges;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            if i >= files {
                break;
            }
            let att = (charged[1] >> i & 1) as usize;
            let d = 1 - att;
            blown_at_charge[i] = f.front[att][i].blown;
            contact[i] = true;
            // A charged router flees again or is caught (`charged_router`): no melee.
            if f.front[d][i].s.status == Routing {
                contact[i] = false;
                match self.battle.charged_router {
                    rf::ChargedRouter::Caught => f.front[d][i].s.remove(rf::Removal::Caught),
                    // It flees and does not rally this turn (the charge phase's targets are
                    // out of the rally), and loses nothing for it.
                    rf::ChargedRouter::EvadesUnhurt => {}
                    _ => evaded[d] |= 1 << i,
                }
            }
            let due = contact[i]
                && self.waiver_tests
                && rf::waiver_due(&self.fighters[att][i], &self.fighters[d][i], true, self.era);
            if due {
                let target = &mut f.front[d][i];
                let rules = rf::WaiverRules {
                    stampede: self.options.elephant_stampede,
                    pursue: self.pursue,
                };
                let (s, _, end) =
                    rf::charge_waiver(&self.fighters[d][i].unit, &self.options, rules, target.s, r);
                target.s = s;
                if end != rf::WaiverEnd::Stands {
                    // The target broke (stampeded, or was caught and destroyed) before
                    // contact: no melee (the charger still charged, RF-11).
                    contact[i] = false;
                }
            }
            // RF-11: a cavalry charger gets a marker, whether or not the melee follows; the
            // target's comes off unless it is now routing (or removed).
            if self.blown_cavalry && self.fighters[att][i].troop == rf::Troop::Cavalry {
                f.front[att][i].blown = true;
            }
            let t = &mut f.front[d][i];
            t.blown &= matches!(t.s.status, Routing | Removed);
        }
        ChargesMet {
            contact,
            blown_at_charge,
            evaded,
        }
    }

    /// Rally phase (RF-5): the shaken units outside a charge test to rally.
    #[inline(always)]
    fn rally_phase<R: Roll>(
        &self,
        f: &mut Field<RfSlot>,
        files: usize,
        rallies: [u32; 2],
        evaded: [u32; 2],
        r: &mut R,
    ) {
        // A router that evaded a charge does not try, and loses its stand as a
        // router that does not rally (RF-5).
        for side in 0..2 {
            let mut m = rallies[side] | evaded[side];
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                if i >= files {
                    break;
                }
                let u = &mut f.front[side][i];
                let unit = &self.fighters[side][i].unit;
                u.s = if evaded[side] >> i & 1 == 1 {
                    unit.flee(&self.options, u.s, r)
                } else {
                    unit.rally(&self.options, u.s, r)
                };
            }
        }
    }

    /// Fire phase, simultaneous: the hits each unit takes, by side and file.
    #[inline(always)]
    fn fire_phase<R: Roll>(
        &self,
        f: &Field<RfSlot>,
        ctx: &TurnContext,
        files: usize,
        charged: [u32; 2],
        r: &mut R,
    ) -> [[u32; MAX_FILES]; 2] {
        let k = self.by_status;
        let mut hits = [[0u32; MAX_FILES]; 2];
        if f.range <= ctx.fire_range {
            for side in 0..2 {
                // Bit `i`: the enemy in file `i` may be fired at; the unit in file `i` fires.
                let (mut targets, mut firers) = (0u32, 0u32);
                for i in 0..files {
                    let u = &f.front[side][i];
                    targets |= u32::from(Self::fire_target(&k, &f.front[1 - side][i])) << i;
                    firers |= u32::from(self.fires(&k, u, charged[side] >> i & 1 == 1)) << i;
                }
                while firers != 0 {
                    let i = firers.trailing_zeros() as usize;
                    firers &= firers - 1;
                    if i >= files {
                        break;
                    }
                    if let Some(t) = target_of(targets, i) {
                        let u = &f.front[side][i];
                        let unit = &self.fighters[side][i].unit;
                        let full = u32::from(unit.stands);
                        let left = full - u32::from(unit.stands_lost(u.s)).min(full);
                        hits[1 - side][t] += self.fire[side].sample(left, full, r);
                    }
                }
            }
        }
        hits
    }

    /// Morale phase: units that lost stands test. Bit `i` of the result's `[side]`: the unit's
    /// state changed in this phase.
    #[inline(always)]
    fn morale_phase<R: Roll>(
        &self,
        f: &mut Field<RfSlot>,
        files: usize,
        hits: &[[u32; MAX_FILES]; 2],
        r: &mut R,
    ) -> [u32; 2] {
        let mut morale_changed = [0u32; 2];
        for side in 0..2 {
            let mut hit = 0u32;
            for i in 0..files {
                hit |= u32::from(hits[side][i] != 0) << i;
            }
            while hit != 0 {
                let i = hit.trailing_zeros() as usize;
                hit &= hit - 1;
                if i >= files {
                    break;
                }
                let unit = &self.fighters[side][i].unit;
                let u = &mut f.front[side][i];
                let before = u.s.status;
                let took = unit.take_hits(u.s, hits[side][i].min(255) as u8);
                // RF-5 with RF-8: a failed test may start a stampede, which counts as routing.
                u.s = unit.morale_test(&self.options, took, r).0;
                morale_changed[side] |= u32::from(u.s.status != before) << i;
            }
        }
        morale_changed
    }

    /// Melee phase: each charge that still meets is fought out (RF-9), with RF-12's charge
    /// after it.
    #[inline(always)]
    fn melee_phase<R: Roll>(
        &self,
        f: &mut Field<RfSlot>,
        files: usize,
        charged: [u32; 2],
        met: &ChargesMet,
        morale_changed: [u32; 2],
        r: &mut R,
    ) {
        use rf::Status::{Good, Unsteady};
        let ChargesMet {
            contact,
            blown_at_charge,
            ..
        } = met;
        let charges = charged[0] | charged[1];
        let mut m = charges;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            if i >= files || !contact[i] {
                continue;
            }
            let att = (charged[1] >> i & 1) as usize;
            let d = 1 - att;
            let (a, b) = (f.front[att][i], f.front[d][i]);
            // Units that became shaken before the melee phase do not fight: the charger halts,
            // the target retires (RF-13: "the melee will not happen"); under
            // `unsteady_meets_charge` only one that became Routing.
            let meets = self.battle.unsteady_meets_charge;
            let fighting = |side: usize, u: &RfSlot| match u.s.status {
                Good => true,
                Unsteady => meets || morale_changed[side] >> i & 1 == 0,
                _ => false,
            };
            if !fighting(att, &a) || !fighting(d, &b) {
                continue;
            }
            // The marker the charger carried into this charge (RF-11: −1 to hit).
            let fight = &self.fights[att][i][usize::from(blown_at_charge[i])];
            let mut st = FightState {
                phase: FightPhase::First,
                a: a.s,
                d: b.s,
                carry: [0, 0],
                fifty: false,
                must_charge: false,
                waiver_failed: false,
                stampeded: false,
            };
            // RF-9 to the end (at most `max_rounds` rounds). The turn reads of the end the
            // units, who won (a fight still going after the cap counts as the start's phase)
            // and RF-12's charge.
            let start = st;
            let end_of = |s: FightState| FightState {
                phase: match s.phase {
                    FightPhase::Over(k) => FightPhase::Over(k),
                    _ => start.phase,
                },
                must_charge: matches!(s.phase, FightPhase::Over(1 | 2)) && s.must_charge,
                a: s.a,
                d: s.d,
                ..start
            };
            st = self.fought.play(
                (att, i, blown_at_charge[i], a.s, b.s),
                fight,
                start,
                self.max_rounds,
                r,
                |s| matches!(s.phase, FightPhase::Over(_)),
                end_of,
            );
            f.front[att][i].s = st.a;
            f.front[d][i].s = st.d;
            match st.phase {
                FightPhase::Over(1) => f.front[att][i].must_charge = st.must_charge,
                FightPhase::Over(2) => f.front[d][i].must_charge = st.must_charge,
                _ => {}
            }
        }
    }
}

/// Whom the unit in `file` fires at, of the files marked in `targets` (bit `i`: the enemy in
/// file `i` may be fired at; no bit at or past the files in play): the enemy opposite, else a
/// neighbour of that place, left first (as [`fire_target`]).
#[inline(always)]
fn target_of(targets: u32, file: usize) -> Option<usize> {
    // The three places' bits, read off by a table, not by a branch on each: bit 0 the left
    // neighbour, bit 1 the enemy opposite, bit 2 the right neighbour. The step to the target,
    // or `NONE`.
    const NONE: i8 = i8::MIN;
    const STEP: [i8; 8] = [NONE, -1, 0, 0, 1, -1, 0, 0];
    let step = STEP[((targets << 1) >> file & 0b111) as usize];
    (step != NONE).then(|| file.wrapping_add_signed(isize::from(step)))
}

/// `engagement` and `line` (RF-13): the units of both sides from their specs.
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (scenario, r, p, on) = (ctx.setup.scenario, ctx.setup.resolved, &ctx.p, &ctx.on);
    let battle = BattleParams::read(r)?;
    let sides = SideSpec::pair(
        (&p.attacker, &p.how.attacker),
        (&p.defender, &p.how.defender),
    );
    let specs = battle::battle_specs(sides, &battle, scenario)?;
    let rule_params = Rules::read(r)?;
    let (mut fighters, mut starts) = ([vec![], vec![]], [vec![], vec![]]);
    for (side, given) in sides.iter().enumerate() {
        for (k, spec) in specs[side].iter().enumerate() {
            let what = format!("{} (unit {})", given.how, k + 1);
            let (f, s) = fighter_of(&rule_params, &what, spec, on)?;
            fighters[side].push(f);
            starts[side].push(s);
        }
    }
    let rules = rule_params.melee();
    for (i, (a, d)) in fighters[0].iter().zip(&fighters[1]).enumerate() {
        if a.needs_to_hit(d, &rules) > 6 && d.needs_to_hit(a, &rules) > 6 {
            return Err(Error::Conflict(format!(
                "the units of file {} cannot hurt each other in melee (neither side can hit)",
                i + 1
            )));
        }
    }
    let fire = battle::battle_volleys(&fire_params(p), &battle)?;
    let rules_in_force = BattleRules::of(&rule_params.q);
    let mut notes = vec![format!(
        "side A's fire: {}; side B's fire: {}; each hit a stand (RF-7: a hit on a single stand); {}",
        fire[0].description(),
        fire[1].description(),
        rules_in_force.words()
    )];
    if on.blown_cavalry {
        notes.push(
            "cavalry that charge get a Blown marker (-1 to hit); it comes off at the end of a charge phase in which the unit neither charges nor routs, so a charged unit, or one that waited a turn, fights without it (RF-11)".into(),
        );
    }
    let files = fighters[0].len();
    let melee = MeleeSetup {
        options: rule_params.options(on, Player::of(p)),
        rules,
        max_rounds: p.max_rounds,
    };
    let army = RfArmy::new(
        fighters,
        starts,
        melee,
        fire,
        *on,
        (p.era, p.pursue),
        rules_in_force,
    );
    let setup = BattleSetup {
        setup: ctx.setup,
        battle: &battle,
        turns: p.turns,
        break_point: BreakPointSource::Assumed(
            "the Rank & File sources give the army break point no number (RF-13)",
        ),
        supports: battle::side_supports(sides, &battle, scenario, files)?,
    };
    battle::battle_job(army, files, setup, notes)
}

#[cfg(test)]
mod tests;
