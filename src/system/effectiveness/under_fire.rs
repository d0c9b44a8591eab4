//! `under-fire` (docs/RULES.md §4): an effectiveness-rules unit holds its place under enemy fire.

use super::params::{HOLES, StartState};
use super::rules as ef;
use super::unit::{blocked_table, enemy_unit, fire_params, return_words};
use super::{Ctx, unit};
use crate::chain::{Chain, ClassInfo, ValueInfo};
use crate::dice::{Roll, Weights};
use crate::error::Result;
use crate::scenario::fire::Fire;
use crate::scenario::fire::fire_model;
use crate::scenario::invariants::Check;
use crate::scenario::{EMPTY_TURNS, Job, MetricDef, OutcomeDef, TableDef};

/// Classes of an effectiveness-rules unit under fire: only elimination ends a trial early; a
/// retreating or eliminated unit leaves its place in the line empty.
pub const EF_UNDER_FIRE_CLASSES: [ClassInfo; 3] = [
    ClassInfo {
        name: "in_line",
        absorbing: false,
        empty: false,
    },
    ClassInfo {
        name: "retreating",
        absorbing: false,
        empty: true,
    },
    ClassInfo {
        name: "eliminated",
        absorbing: true,
        empty: true,
    },
];

/// The enemy a unit exchanges fire with, for EF-5's exception: its class and modifiers for its
/// own test, and the fire our unit returns. Its strength is not tracked: each turn it loses a
/// quarter when our volley scores `hits_per_quarter` hits or more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enemy {
    /// Its profile for the test.
    pub unit: ef::Unit,
    /// Our unit's fire at it, while our unit is in the line.
    pub fire: Fire,
    /// Hits of our volley that cost it a quarter: EF-3's `hits_per_step`, always (our return
    /// fire is dice, even when `fire_loss` gives the enemy's fire in quarters).
    pub hits_per_quarter: u8,
}

/// An effectiveness-rules unit under fire (built with its fields named). Each turn: a retreating unit rolls to return to
/// normal action (EF-5); the enemy fires (not at a retreating unit out of its range); a unit
/// that lost 25% or more this turn tests (EF-2) and on a failure loses a further 25%; under
/// `retreat-on-fire` it also retreats (EF-5) — unless the enemy it exchanged fire with also
/// lost effectiveness and failed its test — and a blocked retreat eliminates it (EF-4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EfUnderFire {
    /// The unit.
    pub unit: ef::Unit,
    /// Its state at the start.
    pub start: ef::UnitState,
    /// Turns of fire.
    pub turns: u32,
    /// The enemy's fire each turn, in hits.
    pub fire: Fire,
    /// Hits that cost 25%.
    pub hits_per_quarter: u8,
    /// Option `retreat-on-fire` (EF-5).
    pub retreat_on_fire: bool,
    /// The enemy, for the exception to the retreat.
    pub enemy: Enemy,
    /// EF-4: the chance a retreat's path is blocked, as a two-outcome table (clear, blocked);
    /// `None` when it is never blocked.
    pub blocked: Option<Weights>,
    /// EF-5: a retreating unit is out of the enemy's range.
    pub retreat_out_of_range: bool,
}

/// The value each trial reports, at most `steps` (EF-1), by `steps` from 0 to 8.
const VALUES: [[ValueInfo; 1]; 9] = {
    const fn lost(max: u32) -> [ValueInfo; 1] {
        [ValueInfo {
            name: "quarters_lost",
            max,
        }]
    }
    [
        lost(0),
        lost(1),
        lost(2),
        lost(3),
        lost(4),
        lost(5),
        lost(6),
        lost(7),
        lost(8),
    ]
};

impl EfUnderFire {
    /// Whether the enemy lost a quarter to our volley this turn and failed its test.
    #[inline(always)]
    fn enemy_failed<R: Roll>(&self, r: &mut R) -> bool {
        self.enemy.fire.sample(r) >= u32::from(self.enemy.hits_per_quarter)
            && !self.enemy.unit.test(r)
    }
}

impl Chain for EfUnderFire {
    type State = ef::UnitState;
    /// EF-1 / EF-4 (see [`super::invariants::ef_unit`]).
    fn check_step(&self, from: ef::UnitState, to: ef::UnitState) -> Check {
        super::invariants::ef_unit(self.hits_per_quarter, from, to)
    }
    fn start(&self) -> ef::UnitState {
        self.start
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    #[inline]
    fn step<R: Roll>(&self, mut s: ef::UnitState, r: &mut R) -> ef::UnitState {
        if s.status == ef::Status::Retreating && self.unit.back_in_action(&mut s, r) {
            s.status = ef::Status::InLine;
        }
        let fired_at = match s.status {
            ef::Status::InLine => true,
            ef::Status::Retreating => !self.retreat_out_of_range,
            ef::Status::Eliminated => false,
        };
        if !fired_at {
            return s;
        }
        let in_line = s.status == ef::Status::InLine;
        let (s, lost) = self
            .unit
            .take_hits(s, self.fire.sample(r), self.hits_per_quarter);
        if lost == 0 || s.status == ef::Status::Eliminated || self.unit.test(r) {
            return s;
        }
        let s = self.unit.lose_quarter(s);
        if !self.retreat_on_fire || s.status == ef::Status::Eliminated {
            return s;
        }
        // The exception: the enemy we exchanged fire with (only while we were in the line to
        // fire back) also lost effectiveness and failed its test.
        if in_line && self.enemy_failed(r) {
            return s;
        }
        ef::retreat(&self.unit, s, self.blocked.as_ref(), r)
    }
    fn classes(&self) -> &[ClassInfo] {
        &EF_UNDER_FIRE_CLASSES
    }
    #[inline]
    fn class_of(&self, s: ef::UnitState) -> usize {
        s.status as usize
    }
    fn values(&self) -> &[ValueInfo] {
        &VALUES[usize::from(self.unit.numbers.steps).min(8)]
    }
    fn value_of(&self, s: ef::UnitState, _i: usize) -> u32 {
        // An eliminated unit has lost every quarter it had, whether the fire took the last one
        // (EF-1) or its retreat was blocked with quarters left (EF-4).
        if s.status == ef::Status::Eliminated {
            return u32::from(self.start.quarters);
        }
        u32::from(self.start.quarters - s.quarters)
    }
}

/// Strength in the line (docs/RULES.md §4): the quarters left (4 = 100%) while the unit is in
/// the line; nothing while it retreats or once eliminated.
impl crate::scenario::strength::Holds for EfUnderFire {
    fn full(&self) -> u32 {
        u32::from(self.unit.numbers.steps)
    }
    fn held(&self, s: ef::UnitState) -> u32 {
        if EF_UNDER_FIRE_CLASSES[self.class_of(s)].empty {
            return 0;
        }
        u32::from(s.quarters)
    }
}

/// The job of `under-fire`: the unit under enemy fire, with every test its rules call for
/// (EF-1, EF-2, EF-5), the retreat amendment included.
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (rules, u, s, mut notes) = unit::single(ctx)?;
    let (p, on) = (&ctx.p, &ctx.on);
    // Explicit losses are in quarters: one "hit" per quarter.
    let (fire, hits_per_quarter) = if p.fire_loss.is_empty() {
        (fire_model(&fire_params(p))?, rules.q.hits_per_step)
    } else {
        (fire_model(&fire_params(p))?, 1)
    };
    let p_blocked = p.p_blocked;
    let blocked = blocked_table(p);
    let enemy = Enemy {
        unit: enemy_unit(p, &rules, on),
        fire: if p.exchange_fire {
            Fire::dice(p.return_fire_dice, p.return_fire_to_hit)
        } else {
            Fire::none()
        },
        hits_per_quarter: rules.q.hits_per_step,
    };
    let retreat_on_fire = on.retreat_on_fire;
    notes.push(format!(
        "enemy fire each turn: {} ({} on average), {} a quarter; a unit leaves a hole in the line when {}",
        fire.description(),
        crate::report::up_to_units(fire.mean(), 3, "hit", "hits"),
        crate::labels::count(u32::from(hits_per_quarter), "hit", "hits"),
        crate::system::holes_when(HOLES)
    ));
    if retreat_on_fire {
        notes.push(format!(
            "Retreat on Fire: a failed fire test retreats the unit, unless the enemy also lost a quarter that turn and failed its own test (the enemy: {} troops under the unit's return fire, {}); {}",
            p.enemy_class.name(),
            enemy.fire.description(),
            if p_blocked.num == 0 {
                "no retreat is blocked".to_string()
            } else {
                format!("a retreat is blocked with chance {p_blocked}")
            }
        ));
    }
    if retreat_on_fire || p.state == StartState::Retreating {
        notes.push(return_words(&rules.q, on));
    }
    let chain = EfUnderFire {
        unit: u,
        start: s,
        turns: p.turns,
        fire,
        hits_per_quarter,
        retreat_on_fire,
        enemy,
        blocked,
        retreat_out_of_range: p.retreat_out_of_range,
    };
    let c = chain.classes();
    let outcomes = OutcomeDef::each(c, &["in_line", "retreating", "eliminated"]);
    let turn_eliminated = MetricDef::absorb_turn(
        c,
        "turn_eliminated",
        "eliminated",
        "turn of elimination, among units eliminated",
    );
    Ok(crate::scenario::strength::job(
        chain,
        ctx.setup.describe(notes),
        outcomes,
        vec![
            EMPTY_TURNS,
            turn_eliminated,
            MetricDef::Value {
                name: "quarters_lost",
                meaning: "quarters of effectiveness lost during the turns (all it had, once eliminated)",
            },
        ],
        vec![TableDef::PerTurn {
            name: "per_turn",
            title: "State after each turn",
        }],
        ctx.p.measure_strength.then_some(ctx.p.weak_share),
    ))
}

/// The turn from the rules' words, with scripted dice: each test names the dice it rolls, in
/// order, and checks both the state after the turn and that no other die was rolled. A hit
/// table is "picked" by the scripted value, so a value in the fire's place is its number of
/// hits.
#[cfg(test)]
mod tests {
    use super::*;

    fn unit(class: ef::Class, return_roll: bool) -> ef::Unit {
        ef::Unit {
            class,
            general: false,
            supported: false,
            natural_one_fails: false,
            return_on: 5,
            troop: ef::Troop::Infantry,
            return_roll,
            retreat_turns: 1,
            numbers: ef::Numbers::default(),
        }
    }

    /// A Regular unit at 100% under four dice on 5+ (every 2 hits a quarter, EF-3), exchanging
    /// fire with a Regular enemy; `retreat-on-fire` and `return-roll` as given.
    fn chain(retreat_on_fire: bool, return_roll: bool) -> EfUnderFire {
        EfUnderFire {
            unit: unit(ef::Class::Regular, return_roll),
            start: in_line(4),
            turns: 12,
            fire: Fire::dice(4, 5),
            hits_per_quarter: 2,
            retreat_on_fire,
            enemy: Enemy {
                unit: unit(ef::Class::Regular, false),
                fire: Fire::dice(4, 5),
                hits_per_quarter: 2,
            },
            blocked: None,
            retreat_out_of_range: true,
        }
    }

    fn in_line(quarters: u8) -> ef::UnitState {
        ef::UnitState {
            status: ef::Status::InLine,
            quarters,
            hits: 0,
            out: 0,
        }
    }

    fn turn(c: &EfUnderFire, s: ef::UnitState, dice: &[u8]) -> ef::UnitState {
        crate::chain::scripted_step(c, s, dice)
    }

    /// EF-2: a unit that lost 25% to fire tests; a Regular needs 4. A failure costs a further
    /// 25%; a pass costs nothing more. Without `retreat-on-fire` it stays in the line.
    #[test]
    fn a_quarter_lost_to_fire_is_tested_and_a_failure_costs_another() {
        let c = chain(false, false);
        // Two hits (a quarter), then the test: 3 fails.
        let s = turn(&c, in_line(4), &[2, 3]);
        assert_eq!((s.status, s.quarters, s.hits), (ef::Status::InLine, 2, 0));
        // Two hits, then 4 passes.
        let s = turn(&c, in_line(4), &[2, 4]);
        assert_eq!((s.status, s.quarters), (ef::Status::InLine, 3));
        // Three hits: a quarter and one hit carried over; the test passes.
        let s = turn(&c, in_line(4), &[3, 6]);
        assert_eq!((s.quarters, s.hits), (3, 1));
        // Next turn one more hit makes the second quarter: the unit tests again.
        let s = turn(&c, s, &[1, 1]);
        assert_eq!((s.quarters, s.hits), (1, 0));
    }

    /// EF-2 is taken only when 25% or more was lost this turn: one hit, short of a quarter, is
    /// no test (no die rolled after the fire).
    #[test]
    fn hits_short_of_a_quarter_carry_over_without_a_test() {
        let c = chain(true, true);
        let s = turn(&c, in_line(4), &[1]);
        assert_eq!((s.status, s.quarters, s.hits), (ef::Status::InLine, 4, 1));
        let s = turn(&c, in_line(4), &[0]);
        assert_eq!(s, in_line(4));
    }

    /// EF-5's first addition: a failed test after fire also retreats, unless the enemy we
    /// exchanged fire with lost 25% to our return fire and failed its own test.
    #[test]
    fn retreat_on_fire_and_its_exception() {
        let c = chain(true, true);
        // Two hits, a failed test (2); our volley at the enemy: 2 hits, its test fails (1):
        // the exception holds, the unit stays in the line.
        let s = turn(&c, in_line(4), &[2, 2, 2, 1]);
        assert_eq!((s.status, s.quarters), (ef::Status::InLine, 2));
        // The enemy passes its test (4): the unit retreats.
        let s = turn(&c, in_line(4), &[2, 2, 2, 4]);
        assert_eq!((s.status, s.quarters), (ef::Status::Retreating, 2));
        // Our volley scores one hit: the enemy loses nothing and takes no test.
        let s = turn(&c, in_line(4), &[2, 2, 1]);
        assert_eq!(s.status, ef::Status::Retreating);
        // A test passed: no retreat, no volley looked at.
        let s = turn(&c, in_line(4), &[2, 5]);
        assert_eq!((s.status, s.quarters), (ef::Status::InLine, 3));
    }

    /// EF-5's second addition: at the start of each of its moves a retreating unit rolls 5+ to
    /// return to action; while it retreats it is out of range (not fired at). Once back, it
    /// is fired at in the same turn.
    #[test]
    fn the_return_roll_starts_the_turn() {
        let c = chain(true, true);
        let retreating = c.unit.retreating(in_line(3));
        // 4: still retreating, and no fire at it.
        let s = turn(&c, retreating, &[4]);
        assert_eq!(s.status, ef::Status::Retreating);
        // 5: back in the line, then fired at (no hits).
        let s = turn(&c, retreating, &[5, 0]);
        assert_eq!(s, in_line(3));
        // Without the return roll: back after `retreat_turns` (1) with no die for it.
        let plain = chain(true, false);
        let retreating = plain.unit.retreating(in_line(3));
        assert_eq!(retreating.out, 1);
        let s = turn(&plain, retreating, &[0]);
        assert_eq!(s, in_line(3));
    }

    /// EF-4: a retreat whose path is blocked eliminates the unit (the block table's outcome 1).
    #[test]
    fn a_blocked_retreat_eliminates() {
        let mut c = chain(true, true);
        c.blocked = Some(Weights::new(vec![5, 1]).unwrap());
        let s = turn(&c, in_line(4), &[2, 1, 0, 1]);
        assert_eq!(s.status, ef::Status::Eliminated);
        let s = turn(&c, in_line(4), &[2, 1, 0, 0]);
        assert_eq!(s.status, ef::Status::Retreating);
    }

    /// EF-1: the last quarter lost eliminates; an eliminated unit takes no test and no fire.
    #[test]
    fn the_last_quarter_eliminates_without_a_test() {
        let c = chain(true, true);
        let s = turn(&c, in_line(1), &[2]);
        assert_eq!((s.status, s.quarters), (ef::Status::Eliminated, 0));
        assert_eq!(turn(&c, s, &[]), s);
        // At 50%, a quarter lost and a failed test: the further quarter eliminates, and an
        // eliminated unit does not retreat.
        let s = turn(&c, in_line(2), &[2, 1]);
        assert_eq!((s.status, s.quarters), (ef::Status::Eliminated, 0));
    }
}
