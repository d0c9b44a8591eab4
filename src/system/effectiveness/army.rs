//! Effectiveness-rules units in `engagement` and `line`.

#![allow(clippy::needless_range_loop)]

use super::Ctx;
use super::params::{ChargeFire, LockedFire, Rules};
use super::rules as ef;
use super::unit::{blocked_table, fire_params, return_words};
use crate::dice::{Roll, Weights};
use crate::error::Result;
use crate::scenario::Job;
use crate::scenario::battle::*;
use crate::scenario::invariants::Check;
use crate::system::battle::{self, BattleParams, BattleSetup, BreakPointSource, SideSpec};

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
/// charges a unit within a move → fire, simultaneous, by units in the line (a charger and its
/// target still exchange fire under `charge_fire = exchange`, units in a melee that went on
/// from an earlier turn under `locked_fire = exchange`, EF-3; every
/// `hits_per_quarter` hits a quarter, EF-3) → tests for units that lost 25% or more (EF-2; a
/// supported unit +1), a failure a further 25% and, under `retreat-on-fire`, a retreat unless an
/// enemy it exchanged fire with also lost and failed (EF-5) → the charges close on targets
/// still in the line → melee rounds in contact (EF-3: the
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
    /// EF-3: whether a charger and its target exchange fire in the turn the charge goes in.
    pub charge_fire: ChargeFire,
    /// EF-3: whether units locked in a melee from an earlier turn fire and are fired at.
    pub locked_fire: LockedFire,
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

    /// EF-5: each retreating unit of the first `files` rolls to return at the start of its
    /// move. A step of the turn, inlined into it as it was written there.
    #[inline(always)]
    fn returns<R: Roll>(&self, f: &mut Field<EfSlot>, files: usize, r: &mut R) {
        for side in 0..2 {
            for i in 0..files {
                let u = &mut f.front[side][i];
                if u.present
                    && u.s.status == ef::Status::Retreating
                    && self.units[side][i][0].back_in_action(&mut u.s, r)
                {
                    u.s.status = ef::Status::InLine;
                }
            }
        }
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
    fn shaken_target(&self) -> &'static str {
        // The policy's "shaken" target here is a retreating one (`turn`), which is out of
        // reach while `retreat_out_of_range` holds: said so, where "a shaken target" was a
        // state these rules do not have (writer trial 74).
        "a retreating target"
    }
    fn shaken_target_out_of_reach(&self) -> bool {
        self.retreat_out_of_range
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
    /// With the hits it carries towards its next quarter (EF-3) and whether it is in a melee
    /// that goes on.
    fn unit_words(&self, side: usize, file: usize, u: &EfSlot) -> String {
        let full = self.strength(side, file);
        let mut out = format!(
            "{} {}/{}",
            EF_STATUSES[self.status(u)].replace('_', " "),
            i64::from(full) - i64::from(self.strength_lost(side, file, u)),
            full
        );
        if u.s.hits > 0 {
            out += &format!(" +{} hit{}", u.s.hits, if u.s.hits == 1 { "" } else { "s" });
        }
        if u.contact {
            out += ", in melee";
        }
        out
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
        // Never more than the field holds (so the compiler drops the bounds checks).
        let files = ctx.files.min(MAX_FILES);
        let hpq = self.hits_per_quarter;
        self.returns(f, files, r);
        // Side A charges a unit within a move at the start of the turn (a charge is a move:
        // a unit further off advances this turn and may charge the next). The two are in melee
        // from the fire phase on (`charge_fire = none`) or after it (`exchange`, EF-3: they
        // exchange fire as the charge closes, and those hits count in the melee).
        // EF-3: the files locked in a melee from an earlier turn whose units still fire and
        // are fired at (`locked_fire = exchange`).
        let locked_fire: [bool; MAX_FILES] = std::array::from_fn(|i| {
            i < files
                && self.locked_fire == LockedFire::Exchange
                && f.front[0][i].contact
                && f.front[1][i].contact
        });
        let mut charging = [false; MAX_FILES];
        for i in 0..files {
            let (a, b) = (f.front[0][i], f.front[1][i]);
            if a.present
                && a.s.status == InLine
                && !a.contact
                && ctx.start_range <= 1
                && self.targetable(&b)
                && ctx.policy.charges(ctx.turn, b.s.status == Retreating)
            {
                charging[i] = true;
                if self.charge_fire == ChargeFire::None {
                    f.front[0][i].contact = true;
                    f.front[1][i].contact = true;
                }
            }
        }
        // Fire: simultaneous.
        let mut hits = [[0u32; MAX_FILES]; 2];
        let mut target = [[None; MAX_FILES]; 2];
        if f.range <= ctx.fire_range {
            for side in 0..2 {
                let targets: [bool; MAX_FILES] = std::array::from_fn(|i| {
                    let t = &f.front[1 - side][i];
                    i < files && self.targetable(t) && (!t.contact || locked_fire[i])
                });
                for i in 0..files {
                    let u = &f.front[side][i];
                    if !u.present || u.s.status != InLine || (u.contact && !locked_fire[i]) {
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
        // Every file, hit or not, without a branch on the dice (a file without hits loses
        // nothing and rolls no die).
        for side in 0..2 {
            for i in 0..files {
                let unit = *self.unit_at(f, side, i);
                let u = &mut f.front[side][i];
                let (s, lost) = unit.take_hits(u.s, hits[side][i], hpq);
                let fails = !unit.test_if((lost > 0) & (s.status != Eliminated), r);
                failed[side][i] = fails;
                u.s = std::hint::select_unpredictable(fails, unit.lose_quarter(s), s);
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
        // The charges that close after the fire: in melee unless either unit has left its
        // place (eliminated, or retreated under `retreat-on-fire`).
        for i in 0..files {
            let in_line = |u: &EfSlot| u.present && u.s.status == InLine;
            if charging[i] && in_line(&f.front[0][i]) && in_line(&f.front[1][i]) {
                f.front[0][i].contact = true;
                f.front[1][i].contact = true;
            }
        }
        // EF-3: a round in every melee.
        for i in 0..files {
            let (a, b) = (f.front[0][i], f.front[1][i]);
            // A unit that retreated after its fire test (under `retreat-on-fire`, possible for
            // a locked unit under `locked_fire = exchange`) has left the melee.
            let fighting = |u: &EfSlot| u.present && u.contact && u.s.status == InLine;
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

/// `engagement` and `line`: the units of both sides from their specs.
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (scenario, r, p, on) = (ctx.setup.scenario, ctx.setup.resolved, &ctx.p, &ctx.on);
    let battle = BattleParams::read(r)?;
    let sides = SideSpec::pair(
        (&p.attacker, &p.how.attacker),
        (&p.defender, &p.how.defender),
    );
    let specs = battle::battle_specs(sides, &battle, scenario)?;
    let rules = Rules::read(r)?;
    let dice = p.melee_dice;
    let to_hit = rules.q.melee_to_hit;
    let (mut units, mut starts, mut melee) = ([vec![], vec![]], [vec![], vec![]], [vec![], vec![]]);
    let mut supports = [vec![], vec![]];
    for (side, given) in sides.iter().enumerate() {
        for (k, spec) in specs[side].iter().enumerate() {
            let what = format!("{} (unit {})", given.how, k + 1);
            let (u, s, d) = rules.unit(&what, spec, on)?;
            supports[side].push(p.support_type.troop(u.troop));
            let mut supported = u;
            supported.supported = true;
            units[side].push([u, supported]);
            starts[side].push(s);
            melee[side].push(Weights::hits(d.unwrap_or(dice), to_hit));
        }
    }
    let fire = battle::battle_volleys(&fire_params(p), &battle)?;
    let hpq = rules.q.hits_per_step;
    let notes = vec![format!(
        "side A's fire: {}; side B's fire: {}; {} a quarter; melee {dice} dice a side on {to_hit}+; a retreat is blocked {}by a support behind that is not light infantry or artillery, which tests unless it is cavalry retreated into by infantry (EF-4); light and artillery supports give no +1 (EF-2){}; {}; {}; {}",
        fire[0].description(),
        fire[1].description(),
        crate::labels::count(u32::from(hpq), "hit", "hits"),
        // "Blocked with chance 0" read as tool's words (writer trial 74): said only where a
        // chance is set.
        match p.p_blocked.to_string().as_str() {
            "0" => "only ".to_string(),
            chance => format!("with chance {chance}, or "),
        },
        if on.retreat_on_fire {
            "; Retreat on Fire: a failed fire test also retreats, unless an enemy it exchanged fire with lost and failed too (EF-5)"
        } else {
            ""
        },
        return_words(&rules.q, on),
        match rules.q.charge_fire {
            ChargeFire::Exchange => {
                "a charger and its target exchange fire before the charge closes, and the fire's hits count in the melee (EF-3)"
            }
            ChargeFire::None => {
                "a charge closes before the fire phase: charger and target never fire at each other (the tool's other reading of EF-3)"
            }
        },
        match rules.q.locked_fire {
            LockedFire::Exchange => {
                "units locked in a melee from an earlier turn still fire and are fired at, and those hits count in the round (EF-3)"
            }
            LockedFire::None => {
                "units locked in a melee from an earlier turn neither fire nor are fired at (the tool's other reading of EF-3)"
            }
        },
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
        charge_fire: rules.q.charge_fire,
        locked_fire: rules.q.locked_fire,
    };
    let setup = BattleSetup {
        setup: ctx.setup,
        battle: &battle,
        turns: p.turns,
        break_point: BreakPointSource::Assumed("the effectiveness rules have no army morale rule"),
        supports: battle::side_supports(sides, &battle, scenario, files)?,
    };
    battle::battle_job(army, files, setup, notes)
}

/// The battle turn from the rules' words, with scripted dice: a value in a volley's or a melee
/// table's place is its number of hits; each turn checks the states after it and that no other
/// die was rolled.
#[cfg(test)]
mod tests {
    use super::*;

    fn unit(supported: bool) -> ef::Unit {
        ef::Unit {
            class: ef::Class::Regular,
            general: false,
            supported,
            natural_one_fails: false,
            return_on: 5,
            troop: ef::Troop::Infantry,
            return_roll: true,
            retreat_turns: 1,
            numbers: ef::Numbers::default(),
        }
    }

    /// One file, Regular infantry a side at 100%, four fire dice on 5+ and four melee dice on
    /// 4+ a side, every 2 hits a quarter, `retreat-on-fire` and `return-roll` in force.
    fn army() -> EfArmy {
        let start = ef::UnitState {
            status: ef::Status::InLine,
            quarters: 4,
            hits: 0,
            out: 0,
        };
        EfArmy {
            units: [
                vec![[unit(false), unit(true)]],
                vec![[unit(false), unit(true)]],
            ],
            starts: [vec![start], vec![start]],
            fire: [Volley::dice(4, 5), Volley::dice(4, 5)],
            melee: [vec![Weights::hits(4, 4)], vec![Weights::hits(4, 4)]],
            hits_per_quarter: 2,
            retreat_on_fire: true,
            blocked: None,
            retreat_out_of_range: true,
            support_troops: [vec![ef::Troop::Infantry], vec![ef::Troop::Infantry]],
            charge_fire: ChargeFire::None,
            locked_fire: LockedFire::None,
        }
    }

    /// The field: one unit a side in file 0, side B supported when `support`.
    fn field(army: &EfArmy, support: bool) -> Field<EfSlot> {
        let mut f = Field::one_file(army, 1);
        if support {
            f.back[1][0] = army.unit(1, 0);
        }
        f
    }

    /// Play turn 1; side A charges when `charge`. Every scripted die must be used.
    fn turn(army: &EfArmy, f: &mut Field<EfSlot>, charge: bool, dice: &[u8]) {
        let ctx = TurnContext {
            turn: 1,
            files: 1,
            policy: Policy {
                charge_at_turn: u32::from(charge),
                when_shaken: false,
            },
            fire_range: 1,
            start_range: 1,
        };
        let used = scripted_turn(army, f, &ctx, dice);
        assert_eq!(used, dice.len(), "dice rolled: {used} of {dice:?}");
    }

    fn state(f: &Field<EfSlot>, side: usize) -> (ef::Status, u8) {
        (f.front[side][0].s.status, f.front[side][0].s.quarters)
    }

    /// Fire is simultaneous (A's volley, then B's), then each unit that lost 25% tests (EF-2)
    /// and a failure costs a further 25%. Under `retreat-on-fire` (EF-5) a unit that failed
    /// retreats, unless the enemy it exchanged fire with also lost and failed.
    #[test]
    fn fire_tests_and_the_exchange_exception() {
        let a = army();
        // Two hits each way; both fail (1, 1): each is the other's exception, neither retreats.
        let mut f = field(&a, false);
        turn(&a, &mut f, false, &[2, 2, 1, 1]);
        assert_eq!(state(&f, 0), (ef::Status::InLine, 2));
        assert_eq!(state(&f, 1), (ef::Status::InLine, 2));
        // A fails (1), B passes (6): A retreats; B stays, 25% down.
        let mut f = field(&a, false);
        turn(&a, &mut f, false, &[2, 2, 1, 6]);
        assert_eq!(state(&f, 0), (ef::Status::Retreating, 2));
        assert_eq!(state(&f, 1), (ef::Status::InLine, 3));
        // B's volley misses: only B lost 25% and tests (2 fails): it retreats, A did not fail.
        let mut f = field(&a, false);
        turn(&a, &mut f, false, &[2, 0, 2]);
        assert_eq!(state(&f, 0), (ef::Status::InLine, 4));
        assert_eq!(state(&f, 1), (ef::Status::Retreating, 2));
    }

    /// EF-3: units in melee do not fire; each side rolls its melee dice, and the unit that
    /// suffered more hits tests (a failure costs 25%) and retreats a full move; a tie leaves
    /// them in melee.
    #[test]
    fn the_loser_of_a_melee_round_tests_and_retreats() {
        let a = army();
        // A charges: no fire. A deals 3 (a quarter, one hit carried), B deals 1 (carried).
        // B suffered more: it tests, 3 fails (Regular needs 4), loses 25% more and retreats.
        let mut f = field(&a, false);
        turn(&a, &mut f, true, &[3, 1, 3]);
        assert_eq!(state(&f, 0), (ef::Status::InLine, 4));
        assert_eq!(f.front[0][0].s.hits, 1);
        assert_eq!(state(&f, 1), (ef::Status::Retreating, 2));
        assert!(!f.front[0][0].contact && !f.front[1][0].contact);
        // A tie (2 and 2): both lose a quarter, nobody tests, the melee goes on.
        let mut f = field(&a, false);
        turn(&a, &mut f, true, &[2, 2]);
        assert_eq!(state(&f, 0), (ef::Status::InLine, 3));
        assert_eq!(state(&f, 1), (ef::Status::InLine, 3));
        assert!(f.front[0][0].contact && f.front[1][0].contact);
    }

    /// EF-3 "the unit suffering the most hits, including any inflicted by firing, retreats":
    /// under `charge_fire = exchange` the charger and its target exchange fire before the
    /// charge closes, and the fire's hits count in the melee. A's volley hits B twice (a
    /// quarter: B tests, 6 passes), B's misses; in the melee A deals 1 and B deals 2. Without
    /// the fire A would have suffered more (2 to 1); with it B has (3 to 2): B tests (2 fails,
    /// a further 25%) and retreats. A unit that retreats from the fire (`retreat-on-fire`)
    /// never meets the charge: no melee dice are rolled.
    #[test]
    fn fire_hits_count_in_the_melee_of_the_charge() {
        let mut a = army();
        a.charge_fire = ChargeFire::Exchange;
        let mut f = field(&a, false);
        turn(&a, &mut f, true, &[2, 0, 6, 1, 2, 2]);
        assert_eq!(state(&f, 0), (ef::Status::InLine, 3));
        assert_eq!(state(&f, 1), (ef::Status::Retreating, 2));
        // B fails its fire test (1) and retreats under retreat-on-fire: the charge finds no
        // one, and the fire's dice are all that were rolled.
        let mut f = field(&a, false);
        turn(&a, &mut f, true, &[2, 0, 1]);
        assert_eq!(state(&f, 1), (ef::Status::Retreating, 2));
        assert!(!f.front[0][0].contact && !f.front[1][0].contact);
        // Under `none` the charge is in contact before the fire: no volley, the same melee
        // dice, and A loses (2 to 1): a quarter to the hits, a further one to its failed test
        // (2), and it retreats.
        a.charge_fire = ChargeFire::None;
        let mut f = field(&a, false);
        turn(&a, &mut f, true, &[1, 2, 2]);
        assert_eq!(state(&f, 0), (ef::Status::Retreating, 2));
        assert_eq!(state(&f, 1), (ef::Status::InLine, 4));
    }

    /// EF-3 counts "any [hits] inflicted by firing" in a melee, and nothing stops units in a
    /// melee from firing: under `locked_fire = exchange` two units locked from an earlier turn
    /// fire as units in the line do. A's volley hits B twice (a quarter: B tests, 6 passes), B's
    /// misses; in the round each deals 2. Melee hits alone tie (2 to 2), but B suffered 4 to A's
    /// 2: it tests (2 fails, a further quarter) and retreats. Under `none` no volley is rolled
    /// and the same round ties: the melee goes on.
    #[test]
    fn units_locked_in_a_melee_fire_under_locked_fire_exchange() {
        let mut a = army();
        let locked = |a: &EfArmy| {
            let mut f = field(a, false);
            f.front[0][0].contact = true;
            f.front[1][0].contact = true;
            f
        };
        a.locked_fire = LockedFire::Exchange;
        let mut f = locked(&a);
        turn(&a, &mut f, false, &[2, 0, 6, 2, 2, 2]);
        assert_eq!(state(&f, 0), (ef::Status::InLine, 3));
        assert_eq!(state(&f, 1), (ef::Status::Retreating, 1));
        assert!(!f.front[0][0].contact && !f.front[1][0].contact);
        a.locked_fire = LockedFire::None;
        let mut f = locked(&a);
        turn(&a, &mut f, false, &[2, 2]);
        assert_eq!(state(&f, 0), (ef::Status::InLine, 3));
        assert_eq!(state(&f, 1), (ef::Status::InLine, 3));
        assert!(f.front[0][0].contact && f.front[1][0].contact);
    }

    /// RF-13's order, which the battles follow for every system: a charge covers one move from
    /// where the unit stood at the start of the turn. Two moves apart, side A advances this
    /// turn (and fires when in range) but does not charge.
    #[test]
    fn a_unit_two_moves_off_does_not_charge_this_turn() {
        let a = army();
        let mut f = field(&a, false);
        let ctx = TurnContext {
            turn: 1,
            files: 1,
            policy: Policy {
                charge_at_turn: 1,
                when_shaken: false,
            },
            fire_range: 1,
            start_range: 2,
        };
        // The volleys (none hit) are all that is rolled.
        let used = scripted_turn(&a, &mut f, &ctx, &[0, 0]);
        assert_eq!(used, 2);
        assert!(!f.front[0][0].contact);
    }

    /// EF-2 and EF-4: a support behind gives +1 to the test (a Regular then passes on 3), but
    /// the loser retreats whatever its test (EF-3), and the support blocks that retreat: the
    /// unit in front is eliminated, and the support, infantry retreated into by infantry,
    /// tests (5 passes: it keeps its strength).
    #[test]
    fn a_support_gives_plus_one_and_blocks_the_retreat() {
        let a = army();
        let mut f = field(&a, true);
        turn(&a, &mut f, true, &[3, 1, 3, 5]);
        assert_eq!(state(&f, 1), (ef::Status::Eliminated, 3));
        assert_eq!(f.back[1][0].s.quarters, 4);
        // Unsupported, the same 3 fails: a further 25%, and a clear retreat.
        let mut f = field(&a, false);
        turn(&a, &mut f, true, &[3, 1, 3]);
        assert_eq!(state(&f, 1), (ef::Status::Retreating, 2));
    }

    /// EF-4 with a failed test: the further 25%, then the blocked retreat eliminates the unit
    /// and the support tests (1 fails: it loses 25%).
    #[test]
    fn a_blocked_retreat_eliminates_and_the_support_tests() {
        let a = army();
        let mut f = field(&a, true);
        turn(&a, &mut f, true, &[3, 1, 2, 1]);
        assert_eq!(f.front[1][0].s.status, ef::Status::Eliminated);
        assert_eq!(f.back[1][0].s.quarters, 3);
    }
}

// ---------------------------------------------------------------------------------------------
// The Age of Linear Warfare
