//! `melee` (docs/RULES.md §4): an effectiveness-rules melee (EF-3, EF-4).

use super::Ctx;
use super::params::Rules;
use super::rules as ef;
use super::unit::blocked_table;
use crate::chain::{Chain, ClassInfo, ValueInfo};
use crate::dice::{Roll, Weights};
use crate::error::Result;
use crate::scenario::invariants::{self, Check};
use crate::scenario::melee::{FIGHT_CLASSES, FightPhase};
use crate::scenario::{ChainJob, Job, MetricDef, OutcomeDef};

/// The state of an effectiveness-rules melee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EfFightState {
    /// Where it stands (only `Later` and `Over` are used: every round is alike).
    pub phase: FightPhase,
    /// The attacker.
    pub a: ef::UnitState,
    /// The defender.
    pub d: ef::UnitState,
    /// The loser failed its test.
    pub loser_failed: bool,
}

/// An effectiveness-rules melee (EF-3): a round a turn; each side's hits (every
/// `hits_per_quarter` a quarter, carried over); the unit that suffered more hits loses: it
/// tests (EF-2; a failure costs a further 25%) and retreats a full move, eliminated if the path
/// is blocked (EF-4); a tie is fought again next turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EfFight {
    /// The attacker.
    pub attacker: ef::Unit,
    /// The defender.
    pub defender: ef::Unit,
    /// Starting states.
    pub start: [ef::UnitState; 2],
    /// Each side's hits per round (attacker's, defender's).
    pub tables: [Weights; 2],
    /// Hits that cost 25%.
    pub hits_per_quarter: u8,
    /// EF-4: (clear, blocked) for the loser's retreat.
    pub blocked: Option<Weights>,
    /// The safety cap on rounds.
    pub max_rounds: u32,
    values: [ValueInfo; 4],
}

impl EfFight {
    /// A melee between two units.
    pub fn new(
        attacker: ef::Unit,
        defender: ef::Unit,
        start: [ef::UnitState; 2],
        tables: [Weights; 2],
        hits_per_quarter: u8,
        blocked: Option<Weights>,
        max_rounds: u32,
    ) -> Self {
        // EF-1: at most every step is lost.
        let v = |name| ValueInfo {
            name,
            max: u32::from(attacker.numbers.steps),
        };
        EfFight {
            attacker,
            defender,
            start,
            tables,
            hits_per_quarter,
            blocked,
            max_rounds,
            values: [
                v("attacker_quarters_lost"),
                v("defender_quarters_lost"),
                ValueInfo {
                    name: "loser_failed_test",
                    max: 1,
                },
                ValueInfo {
                    name: "loser_eliminated",
                    max: 1,
                },
            ],
        }
    }
}

impl Chain for EfFight {
    type State = EfFightState;
    /// EF-1 / EF-3 / EF-4 for both sides (see [`super::invariants::ef_unit`]); a finished melee
    /// stays finished.
    fn check_step(&self, from: EfFightState, to: EfFightState) -> Check {
        invariants::stays(matches!(from.phase, FightPhase::Over(_)), &from, &to)?;
        super::invariants::ef_unit(self.hits_per_quarter, from.a, to.a)?;
        super::invariants::ef_unit(self.hits_per_quarter, from.d, to.d)
    }
    fn start(&self) -> EfFightState {
        EfFightState {
            phase: FightPhase::Later,
            a: self.start[0],
            d: self.start[1],
            loser_failed: false,
        }
    }
    fn turns(&self) -> u32 {
        self.max_rounds
    }
    fn must_finish(&self) -> bool {
        true
    }
    fn step<R: Roll>(&self, mut s: EfFightState, r: &mut R) -> EfFightState {
        if let FightPhase::Over(_) = s.phase {
            return s;
        }
        let a_hits = r.pick(&self.tables[0]) as u32;
        let d_hits = r.pick(&self.tables[1]) as u32;
        s.d = self
            .defender
            .take_hits(s.d, a_hits, self.hits_per_quarter)
            .0;
        s.a = self
            .attacker
            .take_hits(s.a, d_hits, self.hits_per_quarter)
            .0;
        let gone = |u: &ef::UnitState| u.status == ef::Status::Eliminated;
        let (loser_is_attacker, code) = match (gone(&s.a), gone(&s.d)) {
            (true, true) => {
                s.phase = FightPhase::Over(3);
                return s;
            }
            (false, true) => {
                s.phase = FightPhase::Over(1);
                return s;
            }
            (true, false) => {
                s.phase = FightPhase::Over(2);
                return s;
            }
            // EF-3: the unit that suffered more hits loses; a tie is fought next turn.
            (false, false) => match d_hits.cmp(&a_hits) {
                std::cmp::Ordering::Greater => (true, 2),
                std::cmp::Ordering::Less => (false, 1),
                std::cmp::Ordering::Equal => return s,
            },
        };
        let (unit, state) = if loser_is_attacker {
            (&self.attacker, &mut s.a)
        } else {
            (&self.defender, &mut s.d)
        };
        if !unit.test(r) {
            s.loser_failed = true;
            *state = unit.lose_quarter(*state);
        }
        if state.status != ef::Status::Eliminated {
            *state = ef::retreat(unit, *state, self.blocked.as_ref(), r);
        }
        s.phase = FightPhase::Over(code);
        s
    }
    fn classes(&self) -> &[ClassInfo] {
        &FIGHT_CLASSES
    }
    fn class_of(&self, s: EfFightState) -> usize {
        match s.phase {
            FightPhase::Over(c) => usize::from(c),
            _ => 0,
        }
    }
    fn values(&self) -> &[ValueInfo] {
        &self.values
    }
    fn value_of(&self, s: EfFightState, i: usize) -> u32 {
        let loser = match s.phase {
            FightPhase::Over(1) => Some(s.d),
            FightPhase::Over(2) => Some(s.a),
            _ => None,
        };
        match i {
            0 => u32::from(self.start[0].quarters - s.a.quarters),
            1 => u32::from(self.start[1].quarters - s.d.quarters),
            2 => u32::from(s.loser_failed),
            _ => u32::from(loser.is_some_and(|l| l.status == ef::Status::Eliminated)),
        }
    }
}

/// The job of `melee`: two units from their specs fight a round a turn until one suffers more
/// hits and retreats (EF-3, EF-4).
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (p, on) = (&ctx.p, &ctx.on);
    let rules = Rules::read(ctx.setup.resolved)?;
    let (a, a_start, a_dice) = rules.unit(&p.how.attacker.what, &p.attacker, on)?;
    let (d, d_start, d_dice) = rules.unit(&p.how.defender.what, &p.defender, on)?;
    let dice = p.melee_dice;
    let to_hit = rules.q.melee_to_hit;
    let (a_dice, d_dice) = (a_dice.unwrap_or(dice), d_dice.unwrap_or(dice));
    let hpq = rules.q.hits_per_step;
    let notes = vec![format!(
        "a round a turn: attacker {a_dice} dice, defender {d_dice} dice, hitting on {to_hit}+; {} a quarter; the side that suffered more hits tests (EF-2) and retreats, blocked with chance {} (EF-3, EF-4); a tie fights on next turn",
        crate::labels::count(u32::from(hpq), "hit", "hits"),
        p.p_blocked
    )];
    let chain = EfFight::new(
        a,
        d,
        [a_start, d_start],
        [Weights::hits(a_dice, to_hit), Weights::hits(d_dice, to_hit)],
        hpq,
        blocked_table(p),
        p.max_rounds,
    );
    let c = chain.classes();
    let decided = ["attacker_wins", "defender_wins", "mutual_destruction"];
    let outcomes = OutcomeDef::each(c, &decided);
    let rounds = MetricDef::end_turn(c, "rounds", &decided, "rounds (turns) fought");
    Ok(Box::new(ChainJob::new(
        chain,
        ctx.setup.describe(notes),
        outcomes,
        vec![
            rounds,
            MetricDef::Value {
                name: "attacker_quarters_lost",
                meaning: "attacker's quarters lost",
            },
            MetricDef::Value {
                name: "defender_quarters_lost",
                meaning: "defender's quarters lost",
            },
            MetricDef::Value {
                name: "loser_failed_test",
                meaning: "share of melees whose loser failed its test (a further 25%)",
            },
            MetricDef::Value {
                name: "loser_eliminated",
                meaning: "share of melees whose loser was eliminated (by the lost quarter or a blocked retreat)",
            },
        ],
        vec![],
    )))
}
