//! `melee`: two units fight a melee to its end under the system's rules (RULES.md §4).

use crate::dice::{Roll, Weights};
use crate::rules::effectiveness as ef;
use crate::rules::linear_warfare::{self as lw, Pips, Side};
use crate::rules::rank_and_file as rf;
use crate::scenario::chain::{Chain, ClassInfo, ValueInfo};
use crate::scenario::invariants::{self, Check};

/// Classes of a melee: still fighting, or ended one of three ways.
pub const MELEE_CLASSES: [ClassInfo; 4] = [
    ClassInfo {
        name: "fighting",
        absorbing: false,
        empty: false,
    },
    ClassInfo {
        name: "attacker_wins",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "defender_wins",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "bounce",
        absorbing: true,
        empty: false,
    },
];

/// Where a melee stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    /// The charge is going in: the defender's closing fire (LW-3) comes next.
    ClosingFire,
    /// A round is to be fought; `follower` (0 none, 1 attacker, 2 defender) follows up (+1).
    Round {
        /// Who follows up into this round.
        follower: u8,
    },
    /// Over: class index of the outcome (1 attacker wins, 2 defender wins, 3 bounce).
    Over(u8),
}

/// The state of an Age of Linear Warfare melee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MeleeState {
    /// Where it stands.
    pub phase: Phase,
    /// Attacker's pips (and its general's).
    pub attacker: Pips,
    /// Defender's pips (and its general's).
    pub defender: Pips,
    /// Rounds each side has lost in this melee (the second destroys it).
    pub losses: [u8; 2],
    /// Rounds fought.
    pub rounds: u8,
}

/// LW-4 follow-up policy of the winner of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FollowUp {
    /// Always follow up when LW-1 allows it (not on the last pip).
    Always,
    /// Never follow up.
    Never,
}

/// An Age of Linear Warfare melee (LW-3, LW-4, LW-6): the charge's pip and closing fire, then
/// opposed rounds — +1 each for Guards, a linear obstacle, charging, two or more pips more than
/// the opponent (recomputed every round), and following up. The loser of a round is pushed back
/// and loses a pip (a general may bear it, LW-6); a second lost round destroys it, as do 0 pips;
/// the winner follows up per the policy unless on its last pip; a draw is a bounce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LwMelee {
    /// The attacking unit.
    pub attacker: Side,
    /// The defending unit.
    pub defender: Side,
    /// The winner's follow-up policy.
    pub follow_up: FollowUp,
    /// The defender fires once as a charge goes in (LW-3).
    pub closing_fire: bool,
    /// Closing fire: hit tables by number of dice (index = dice).
    fire_tables: Vec<Weights>,
    /// Option `dice-follow-pips` (LW-2).
    pub dice_follow_pips: bool,
    coin: Weights,
    values: [ValueInfo; 5],
}

impl LwMelee {
    /// A melee between two sides. Closing fire hits on `fire_to_hit`+.
    pub fn new(
        attacker: Side,
        defender: Side,
        follow_up: FollowUp,
        closing_fire: bool,
        fire_to_hit: u8,
        dice_follow_pips: bool,
    ) -> Self {
        LwMelee {
            fire_tables: (0..=u32::from(defender.stands))
                .map(|n| Weights::hits(n, fire_to_hit))
                .collect(),
            values: [
                ValueInfo {
                    name: "rounds",
                    max: 4,
                },
                ValueInfo {
                    name: "attacker_pips_lost",
                    max: u32::from(attacker.pips),
                },
                ValueInfo {
                    name: "defender_pips_lost",
                    max: u32::from(defender.pips),
                },
                ValueInfo {
                    name: "attacker_destroyed",
                    max: 1,
                },
                ValueInfo {
                    name: "defender_destroyed",
                    max: 1,
                },
            ],
            attacker,
            defender,
            follow_up,
            closing_fire,
            dice_follow_pips,
            coin: lw::coin(),
        }
    }

    fn destroyed(&self, s: &MeleeState, side: usize) -> bool {
        let pips = if side == 0 { s.attacker } else { s.defender };
        pips.unit == 0 || s.losses[side] >= 2
    }
}

impl Chain for LwMelee {
    type State = MeleeState;
    /// LW-1 / LW-4 / LW-6: a finished melee stays finished; pips only fall; rounds lost only
    /// add up, to at most two; a side out of pips or with two rounds lost ends the melee.
    fn check_step(&self, from: MeleeState, to: MeleeState) -> Check {
        invariants::stays(matches!(from.phase, Phase::Over(_)), &from, &to)?;
        for (side, start, a, b) in [
            (0, &self.attacker, from.attacker, to.attacker),
            (1, &self.defender, from.defender, to.defender),
        ] {
            // No recovery in a melee; "removed" is the melee's end, checked below.
            invariants::lw_pips(start.pips, a, b, [false, true], false)?;
            invariants::ensure(
                to.losses[side] >= from.losses[side] && to.losses[side] <= 2,
                || format!("rounds lost went from {from:?} to {to:?}"),
            )?;
            invariants::ensure(
                !self.destroyed(&to, side) || matches!(to.phase, Phase::Over(_)),
                || format!("side {side} is destroyed but the melee goes on: {to:?}"),
            )?;
        }
        invariants::ensure(to.rounds >= from.rounds, || {
            format!("rounds went back: {from:?} → {to:?}")
        })
    }
    fn start(&self) -> MeleeState {
        let pips = |s: &Side| Pips {
            // LW-3: the charger's double move costs a pip.
            unit: s.pips - u8::from(s.charging),
            general: if s.general { lw::GENERAL_PIPS } else { 0 },
        };
        MeleeState {
            phase: if self.attacker.charging && self.closing_fire {
                Phase::ClosingFire
            } else {
                Phase::Round { follower: 0 }
            },
            attacker: pips(&self.attacker),
            defender: pips(&self.defender),
            losses: [0, 0],
            rounds: 0,
        }
    }
    fn turns(&self) -> u32 {
        // Closing fire and at most three rounds: a fourth would need a side's second loss.
        4
    }
    fn step<R: Roll>(&self, mut s: MeleeState, r: &mut R) -> MeleeState {
        match s.phase {
            Phase::Over(_) => s,
            Phase::ClosingFire => {
                let dice =
                    lw::infantry_dice(self.defender.stands, s.defender.unit, self.dice_follow_pips);
                let hits = r.pick(&self.fire_tables[dice as usize]) as u32;
                s.attacker = s.attacker.lose(hits, &self.coin, r);
                s.phase = if s.attacker.unit == 0 {
                    Phase::Over(2)
                } else {
                    Phase::Round { follower: 0 }
                };
                s
            }
            Phase::Round { follower } => {
                let bonus = |me: Pips, them: Pips| i32::from(me.unit >= them.unit + 2);
                let a = self.attacker.fixed_modifiers()
                    + bonus(s.attacker, s.defender)
                    + i32::from(follower == 1);
                let d = self.defender.fixed_modifiers()
                    + bonus(s.defender, s.attacker)
                    + i32::from(follower == 2);
                s.rounds += 1;
                let (winner, loser) = match lw::opposed(a - d, r) {
                    std::cmp::Ordering::Equal => {
                        s.phase = Phase::Over(3);
                        return s;
                    }
                    std::cmp::Ordering::Greater => (0usize, 1usize),
                    std::cmp::Ordering::Less => (1, 0),
                };
                s.losses[loser] += 1;
                if loser == 0 {
                    s.attacker = s.attacker.lose_one(&self.coin, r);
                } else {
                    s.defender = s.defender.lose_one(&self.coin, r);
                }
                let winner_pips = if winner == 0 { s.attacker } else { s.defender };
                let follows = self.follow_up == FollowUp::Always && winner_pips.unit > 1;
                s.phase = if self.destroyed(&s, loser) || !follows {
                    Phase::Over(winner as u8 + 1)
                } else {
                    Phase::Round {
                        follower: winner as u8 + 1,
                    }
                };
                s
            }
        }
    }
    fn classes(&self) -> &[ClassInfo] {
        &MELEE_CLASSES
    }
    fn class_of(&self, s: MeleeState) -> usize {
        match s.phase {
            Phase::Over(c) => usize::from(c),
            _ => 0,
        }
    }
    fn values(&self) -> &[ValueInfo] {
        &self.values
    }
    fn value_of(&self, s: MeleeState, i: usize) -> u32 {
        match i {
            0 => u32::from(s.rounds),
            1 => u32::from(self.attacker.pips - s.attacker.unit),
            2 => u32::from(self.defender.pips - s.defender.unit),
            3 => u32::from(self.destroyed(&s, 0)),
            _ => u32::from(self.destroyed(&s, 1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::rules::linear_warfare::UnitType;

    fn side(kind: UnitType, pips: u8) -> Side {
        Side {
            kind,
            pips,
            stands: 6,
            charging: false,
            obstacle: false,
            general: false,
        }
    }

    fn melee(a: Side, d: Side) -> LwMelee {
        LwMelee::new(a, d, FollowUp::Always, true, 4, false)
    }

    #[test]
    fn winner_follows_up_with_plus_one() {
        let m = melee(side(UnitType::Line, 6), side(UnitType::Line, 6));
        let s = m.step(m.start(), &mut Scripted::new(&[5, 2]));
        assert_eq!(s.phase, Phase::Round { follower: 1 });
        assert_eq!((s.defender.unit, s.losses), (5, [0, 1]));
        // Follow-up round: the attacker's 3 + 1 beats a 3; the defender's second loss destroys it.
        let s = m.step(s, &mut Scripted::new(&[3, 3]));
        assert_eq!(s.phase, Phase::Over(1));
        assert!(m.destroyed(&s, 1));
        assert_eq!(m.value_of(s, 0), 2);
    }

    #[test]
    fn draws_bounce_and_last_pip_cannot_follow_up() {
        let m = melee(side(UnitType::Line, 6), side(UnitType::Line, 6));
        assert_eq!(
            m.step(m.start(), &mut Scripted::new(&[4, 4])).phase,
            Phase::Over(3)
        );
        // An attacker down to its last pip wins but may not follow up (LW-1).
        let m = melee(side(UnitType::Line, 2), side(UnitType::Line, 2));
        let mut s = m.start();
        s.attacker.unit = 1;
        let s = m.step(s, &mut Scripted::new(&[6, 1]));
        assert_eq!(s.phase, Phase::Over(1));
        assert_eq!(s.defender.unit, 1);
    }

    #[test]
    fn pip_advantage_and_guards_count() {
        // Guards (+1) with 7 pips against 5 (+1 for two more): a 3 beats a 4 (3 + 2 > 4) and a
        // 2 draws with it (2 + 2 = 4).
        let m = melee(side(UnitType::Guards, 7), side(UnitType::Line, 5));
        let s = m.step(m.start(), &mut Scripted::new(&[3, 4]));
        assert_eq!(s.losses, [0, 1]);
        let s = m.step(m.start(), &mut Scripted::new(&[2, 4]));
        assert_eq!(s.phase, Phase::Over(3));
    }

    #[test]
    fn charge_costs_a_pip_and_draws_closing_fire() {
        let mut a = side(UnitType::Line, 2);
        a.charging = true;
        let m = melee(a, side(UnitType::Line, 6));
        let s = m.start();
        assert_eq!((s.phase, s.attacker.unit), (Phase::ClosingFire, 1));
        // One hit from the closing volley ends the attacker before contact.
        let s = m.step(s, &mut Scripted::new(&[1]));
        assert_eq!(s.phase, Phase::Over(2));
        assert_eq!(m.value_of(s, 1), 2);
    }
}

/// Classes of a Rank & File or effectiveness melee (and a Rank & File charge).
pub const FIGHT_CLASSES: [ClassInfo; 5] = [
    ClassInfo {
        name: "fighting",
        absorbing: false,
        empty: false,
    },
    ClassInfo {
        name: "attacker_wins",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "defender_wins",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "mutual_destruction",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "target_broke",
        absorbing: true,
        empty: false,
    },
];

/// Phase codes of [`FightState`]: fighting its first round, fighting later rounds, or over
/// with the class index of the outcome (1 to 4 of [`FIGHT_CLASSES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FightPhase {
    /// The first round is next (after the charge phase, in a charge).
    First,
    /// A later round is next.
    Later,
    /// Over: the outcome's class index.
    Over(u8),
}

/// The state of a Rank & File melee or charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FightState {
    /// Where it stands.
    pub phase: FightPhase,
    /// The attacker.
    pub a: rf::UnitState,
    /// The defender.
    pub d: rf::UnitState,
    /// Hits short of a stand, carried to the next round (attacker's, defender's).
    pub carry: [u8; 2],
    /// The loser was removed by the 50% rule.
    pub fifty: bool,
    /// RF-12: the winner must charge again next turn.
    pub must_charge: bool,
    /// RF-10: the target failed a waiver test.
    pub waiver_failed: bool,
}

/// A Rank & File melee (RF-9), or a whole charge (RF-10 waiver test, RF-9 melee, RF-12
/// uncontrolled test, RF-11 blown marker) when `charge` is given. Each step is one round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RfFight {
    /// The attacker (the charger).
    pub attacker: rf::Fighter,
    /// The defender (the target).
    pub defender: rf::Fighter,
    /// Starting states.
    pub start: [rf::UnitState; 2],
    /// Optional rules in force.
    pub options: rf::Options,
    /// RF-9's parameters.
    pub rules: rf::MeleeRules,
    /// The safety cap on rounds.
    pub max_rounds: u32,
    /// For a charge: the target takes a waiver test (option and a trigger, RF-10).
    pub waiver: bool,
    /// For a charge: the winner rolls for an uncontrolled charge (option, RF-12).
    pub uncontrolled: bool,
    /// The scenario is a charge.
    pub charge: bool,
    tables: [Vec<Weights>; 2],
    values: Vec<ValueInfo>,
}

impl RfFight {
    /// A melee (or charge) between two fighters.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        attacker: rf::Fighter,
        defender: rf::Fighter,
        start: [rf::UnitState; 2],
        options: rf::Options,
        rules: rf::MeleeRules,
        max_rounds: u32,
        charge: Option<(bool, bool)>,
    ) -> Self {
        let table = |me: &rf::Fighter, them: &rf::Fighter| -> Vec<Weights> {
            let need = me.needs_to_hit(them, &rules);
            (0..=u32::from(me.unit.stands))
                .map(|n| Weights::hits(n, need))
                .collect()
        };
        let mut values = vec![
            ValueInfo {
                name: "attacker_stands_lost",
                max: u32::from(attacker.unit.stands),
            },
            ValueInfo {
                name: "defender_stands_lost",
                max: u32::from(defender.unit.stands),
            },
            ValueInfo {
                name: "loser_unsteady",
                max: 1,
            },
            ValueInfo {
                name: "loser_routing",
                max: 1,
            },
            ValueInfo {
                name: "loser_removed",
                max: 1,
            },
            ValueInfo {
                name: "loser_removed_by_fifty_percent",
                max: 1,
            },
        ];
        if charge.is_some() {
            values.push(ValueInfo {
                name: "waiver_failed",
                max: 1,
            });
            values.push(ValueInfo {
                name: "must_charge_again",
                max: 1,
            });
        }
        let (waiver, uncontrolled) = charge.unwrap_or((false, false));
        RfFight {
            tables: [table(&attacker, &defender), table(&defender, &attacker)],
            attacker,
            defender,
            start,
            options,
            rules,
            max_rounds,
            waiver,
            uncontrolled,
            charge: charge.is_some(),
            values,
        }
    }

    /// Whether neither side can ever score a hit (the melee could never end).
    pub fn hopeless(&self) -> bool {
        let cannot = |me: &rf::Fighter, them: &rf::Fighter| me.needs_to_hit(them, &self.rules) > 6;
        cannot(&self.attacker, &self.defender) && cannot(&self.defender, &self.attacker)
    }

    fn loser(&self, s: &FightState) -> Option<rf::UnitState> {
        match s.phase {
            FightPhase::Over(1) => Some(s.d),
            FightPhase::Over(2) => Some(s.a),
            _ => None,
        }
    }
}

impl Chain for RfFight {
    type State = FightState;
    /// RF-3 to RF-12 for both sides (see [`invariants::rf_unit`]); a finished melee stays
    /// finished.
    fn check_step(&self, from: FightState, to: FightState) -> Check {
        invariants::stays(matches!(from.phase, FightPhase::Over(_)), &from, &to)?;
        invariants::rf_unit(
            &self.attacker.unit,
            &self.options,
            &self.start[0],
            from.a,
            to.a,
        )?;
        invariants::rf_unit(
            &self.defender.unit,
            &self.options,
            &self.start[1],
            from.d,
            to.d,
        )
    }
    fn start(&self) -> FightState {
        FightState {
            phase: FightPhase::First,
            a: self.start[0],
            d: self.start[1],
            carry: [0, 0],
            fifty: false,
            must_charge: false,
            waiver_failed: false,
        }
    }
    fn turns(&self) -> u32 {
        self.max_rounds
    }
    fn must_finish(&self) -> bool {
        true
    }
    fn step<R: Roll>(&self, mut s: FightState, r: &mut R) -> FightState {
        let first = match s.phase {
            FightPhase::Over(_) => return s,
            FightPhase::First => true,
            FightPhase::Later => false,
        };
        // RF-10: at the end of the charge phase, at most one waiver test.
        if first && self.waiver {
            let (d, failed) = rf::waiver(&self.defender.unit, &self.options, s.d, r);
            s.d = d;
            s.waiver_failed = failed;
            if matches!(d.status, rf::Status::Routing | rf::Status::Removed) {
                s.phase = FightPhase::Over(4);
                return s;
            }
        }
        let a_dice = self.attacker.dice(&s.a, first);
        let d_dice = self.defender.dice(&s.d, first);
        let a_hits = r.pick(&self.tables[0][usize::from(a_dice)]) as u8;
        let d_hits = r.pick(&self.tables[1][usize::from(d_dice)]) as u8;
        // RF-9: a formed unit loses a stand per `hits_per_stand` hits; RF-7: a single stand
        // loses a model per `hit_points` hits (`take_casualties`).
        let (au, du) = (&self.attacker.unit, &self.defender.unit);
        let hps = self.rules.hits_per_stand;
        s.d = rf::take_casualties(du, s.d, &mut s.carry[1], a_hits, hps);
        s.a = rf::take_casualties(au, s.a, &mut s.carry[0], d_hits, hps);
        let gone = |u: &rf::UnitState| u.status == rf::Status::Removed;
        let Some(end) = rf::round_winner(a_hits, d_hits, gone(&s.a), gone(&s.d)) else {
            s.phase = FightPhase::Later;
            return s;
        };
        let (winner, loser) = match end {
            rf::MeleeEnd::AttackerWins => (Some(&self.attacker), Some((&self.defender, &mut s.d))),
            rf::MeleeEnd::DefenderWins => (Some(&self.defender), Some((&self.attacker, &mut s.a))),
            rf::MeleeEnd::MutualDestruction => (None, None),
        };
        if let Some((fighter, state)) = loser {
            let (after, fifty) = rf::lose_melee(&fighter.unit, &self.options, &self.rules, *state);
            *state = after;
            s.fifty = fifty;
        }
        if let Some(w) = winner
            && self.uncontrolled
        {
            s.must_charge = rf::uncontrolled(w.uncontrolled, r);
        }
        s.phase = FightPhase::Over(match end {
            rf::MeleeEnd::AttackerWins => 1,
            rf::MeleeEnd::DefenderWins => 2,
            rf::MeleeEnd::MutualDestruction => 3,
        });
        s
    }
    fn classes(&self) -> &[ClassInfo] {
        &FIGHT_CLASSES
    }
    fn class_of(&self, s: FightState) -> usize {
        match s.phase {
            FightPhase::Over(c) => usize::from(c),
            _ => 0,
        }
    }
    fn values(&self) -> &[ValueInfo] {
        &self.values
    }
    fn value_of(&self, s: FightState, i: usize) -> u32 {
        let loser = self.loser(&s).map(|l| l.status);
        let is = |st| u32::from(loser == Some(st));
        match i {
            // Stands (or a single stand's models, RF-7) lost in the melee.
            0 => {
                let u = &self.attacker.unit;
                u32::from(u.stands_lost(s.a) - u.stands_lost(self.start[0]))
            }
            1 => {
                let u = &self.defender.unit;
                u32::from(u.stands_lost(s.d) - u.stands_lost(self.start[1]))
            }
            2 => is(rf::Status::Unsteady),
            3 => is(rf::Status::Routing),
            4 => is(rf::Status::Removed),
            5 => u32::from(s.fifty),
            6 => u32::from(s.waiver_failed),
            _ => u32::from(s.must_charge),
        }
    }
}

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
        let v = |name| ValueInfo { name, max: 4 };
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
    /// EF-1 / EF-3 / EF-4 for both sides (see [`invariants::ef_unit`]); a finished melee
    /// stays finished.
    fn check_step(&self, from: EfFightState, to: EfFightState) -> Check {
        invariants::stays(matches!(from.phase, FightPhase::Over(_)), &from, &to)?;
        invariants::ef_unit(self.hits_per_quarter, from.a, to.a)?;
        invariants::ef_unit(self.hits_per_quarter, from.d, to.d)
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
            *state = ef::retreat(*state, self.blocked.as_ref(), r);
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
