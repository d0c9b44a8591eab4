//! Effectiveness-rules units in `engagement` and `line`.

#![allow(clippy::needless_range_loop)]

use super::rules as ef;
use crate::dice::{Roll, Weights};
use crate::scenario::battle::*;
use crate::scenario::invariants::Check;

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
    /// The troop type of each file's support (EF-2, EF-4).
    pub support_troops: [Vec<ef::Troop>; 2],
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

    /// The support behind the unit in `file` of `side`, if one stands there.
    fn support(&self, f: &Field<EfSlot>, side: usize, file: usize) -> Option<ef::Troop> {
        let b = &f.back[side][file];
        (b.present && b.s.status != ef::Status::Eliminated).then(|| self.support_troops[side][file])
    }

    /// EF-4 and EF-5: the unit in `file` of `side` retreats. A support behind that is not light
    /// infantry or artillery blocks it: the retreating unit is eliminated and the support tests
    /// (losing 25% on a failure) unless it is cavalry retreated into by infantry. A light or
    /// artillery support lets it through.
    fn retreat<R: Roll>(&self, f: &mut Field<EfSlot>, side: usize, file: usize, r: &mut R) {
        f.front[side][file].contact = false;
        let unit = &self.units[side][file][0];
        if let Some(troop) = self.support(f, side, file)
            && troop.blocks_retreat()
        {
            f.front[side][file].s.status = ef::Status::Eliminated;
            if troop.tests_when_retreated_into(unit.troop) && !unit.test(r) {
                f.back[side][file].s = unit.lose_quarter(f.back[side][file].s);
            }
            return;
        }
        let u = &mut f.front[side][file];
        u.s = ef::retreat(unit, u.s, self.blocked.as_ref(), r);
    }

    /// The unit in `file` of `side`, supported (+1, EF-2) when a support stands behind it that
    /// may give support (not light infantry or artillery).
    fn unit_at(&self, f: &Field<EfSlot>, side: usize, file: usize) -> &ef::Unit {
        let supported = self
            .support(f, side, file)
            .is_some_and(|t| t.gives_support());
        &self.units[side][file][usize::from(supported)]
    }
}

impl Army for EfArmy {
    type Unit = EfSlot;
    fn check_unit(&self, _side: usize, _file: usize, from: &EfSlot, to: &EfSlot) -> Check {
        super::invariants::ef_unit(self.hits_per_quarter, from.s, to.s)
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
                out: 0,
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
    fn strength(&self, side: usize, file: usize) -> u32 {
        u32::from(self.units[side][file][0].numbers.steps)
    }
    fn strength_lost(&self, side: usize, file: usize, u: &EfSlot) -> u32 {
        let steps = self.strength(side, file);
        steps - u32::from(u.s.quarters).min(steps)
    }
    fn turn<R: Roll>(&self, f: &mut Field<EfSlot>, ctx: &TurnContext, r: &mut R) {
        use ef::Status::{Eliminated, InLine, Retreating};
        let files = ctx.files;
        let hpq = self.hits_per_quarter;
        // EF-5: retreating units roll to return at the start of their move.
        for side in 0..2 {
            for i in 0..files {
                let u = &mut f.front[side][i];
                if u.present
                    && u.s.status == Retreating
                    && self.units[side][i][0].back_in_action(&mut u.s, r)
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
