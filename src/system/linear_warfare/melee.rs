//! `melee` (docs/RULES.md §4): an Age of Linear Warfare charge and melee (LW-3, LW-4, LW-6).

use super::Ctx;
use super::rules as lw;
use super::rules::{FollowUp, GeneralCoin, Pips, Side};
use super::unit::{coin_words, parse_side};
use crate::chain::{Chain, ClassInfo, ValueInfo};
use crate::dice::{Roll, Weights};
use crate::error::{Error, Result};
use crate::scenario::invariants::{self, Check};
use crate::scenario::{ChainJob, Job, MetricDef, OutcomeDef};

/// Classes of a melee: still fighting, or ended one of four ways.
pub const MELEE_CLASSES: [ClassInfo; 5] = [
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
    ClassInfo {
        name: "halted",
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
    /// Over: class index of the outcome (1 attacker wins, 2 defender wins, 3 bounce, 4 the
    /// charge halted: the closing fire left the charger on its last pip, LW-1).
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

/// An Age of Linear Warfare melee (LW-3, LW-4, LW-6): a double move's pip and the closing fire
/// (not by cavalry, LW-2) — a charger it leaves on its last pip halts (LW-1) — then opposed
/// rounds: +1 each for Guards, two or more pips more than the opponent (recomputed every round)
/// and following up, in the first round for a linear obstacle, and for charging in the first
/// round (or every round, `charge_bonus_rounds`). The loser of a round is pushed back and
/// loses a pip (a general may bear it, LW-6); a second lost round destroys it, as do 0 pips;
/// the winner follows up per the policy unless on its last pip (LW-1), and wins the melee when
/// it stops. A drawn round is a bounce, the mutual push-back (under `follow_up_draw =
/// earlier-winner` a drawn follow-up round ends the melee won by the side that won the round
/// before).
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
    /// LW-6: one coin flip per attack or per pip.
    pub general_coin: GeneralCoin,
    coin: Weights,
    values: [ValueInfo; 5],
}

impl LwMelee {
    /// A melee between two sides. Closing fire (when `closing_fire` and the defender shoots)
    /// hits on `fire_to_hit`+.
    pub fn new(
        attacker: Side,
        defender: Side,
        follow_up: FollowUp,
        closing_fire: bool,
        fire_to_hit: u8,
        dice_follow_pips: bool,
        general_coin: GeneralCoin,
    ) -> Self {
        LwMelee {
            fire_tables: (0..=u32::from(defender.stands))
                .map(|n| Weights::hits(n, fire_to_hit))
                .collect(),
            values: [
                ValueInfo {
                    name: "rounds",
                    max: Self::most_rounds(&attacker, &defender),
                },
                ValueInfo {
                    name: "attacker_pips_lost",
                    max: u32::from(attacker.pips_in_melee()),
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
            closing_fire: closing_fire && defender.kind.shoots(),
            dice_follow_pips,
            general_coin,
            coin: lw::coin(),
        }
    }

    /// LW-4: a side out of pips, or with `losses_to_destroy` (2) rounds lost, is destroyed.
    fn destroyed(&self, s: &MeleeState, side: usize) -> bool {
        let pips = if side == 0 { s.attacker } else { s.defender };
        self.attacker.numbers.destroyed(pips.unit, s.losses[side])
    }

    /// The most rounds a melee can take: a decided round costs its loser a round and a pip (or
    /// a general's pip), and a draw ends the melee. With `losses_to_destroy` = k, one side has
    /// lost k rounds by round 2k − 1; with no such limit, the pips run out.
    fn most_rounds(attacker: &Side, defender: &Side) -> u32 {
        let n = &attacker.numbers;
        match n.losses_to_destroy {
            0 => {
                let general = |s: &Side| {
                    if s.general {
                        u32::from(n.general_pips)
                    } else {
                        0
                    }
                };
                u32::from(attacker.pips_in_melee())
                    + u32::from(defender.pips)
                    + general(attacker)
                    + general(defender)
            }
            k => 2 * u32::from(k) - 1,
        }
    }
}

impl Chain for LwMelee {
    type State = MeleeState;
    /// LW-1 / LW-4 / LW-6: a finished melee stays finished; pips only fall; rounds lost only
    /// add up, to at most `losses_to_destroy`; a side out of pips or with that many rounds lost
    /// ends the melee.
    fn check_step(&self, from: MeleeState, to: MeleeState) -> Check {
        invariants::stays(matches!(from.phase, Phase::Over(_)), &from, &to)?;
        for (side, start, a, b) in [
            (0, &self.attacker, from.attacker, to.attacker),
            (1, &self.defender, from.defender, to.defender),
        ] {
            // No recovery in a melee; "removed" is the melee's end, checked below.
            super::invariants::lw_pips(start.pips, a, b, [false, true], false)?;
            let most = match self.attacker.numbers.losses_to_destroy {
                0 => u8::MAX,
                k => k,
            };
            invariants::ensure(
                to.losses[side] >= from.losses[side] && to.losses[side] <= most,
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
            // LW-3: a double move to charge costs a pip.
            unit: s.pips_in_melee(),
            general: if s.general { s.numbers.general_pips } else { 0 },
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
        // Closing fire and the most rounds (three by the source: a fourth would need a side's
        // second loss).
        1 + Self::most_rounds(&self.attacker, &self.defender)
    }
    fn step<R: Roll>(&self, mut s: MeleeState, r: &mut R) -> MeleeState {
        match s.phase {
            Phase::Over(_) => s,
            Phase::ClosingFire => {
                // LW-1: a defender on its last pip shoots at the charge unless `last_pip_fires`
                // is none.
                let last = s.defender.unit <= 1;
                if last && self.defender.numbers.last_pip_fires == lw::LastPipFires::None {
                    s.phase = Phase::Round { follower: 0 };
                    return s;
                }
                let dice =
                    lw::infantry_dice(self.defender.stands, s.defender.unit, self.dice_follow_pips);
                let hits = r.pick(&self.fire_tables[dice as usize]) as u32;
                s.attacker = s.attacker.lose(hits, self.general_coin, &self.coin, r);
                // LW-1: a charger the closing fire leaves on its last pip "may perform no
                // offensive action": its charge halts short, and no melee follows.
                s.phase = match s.attacker.unit {
                    0 => Phase::Over(2),
                    1 => Phase::Over(4),
                    _ => Phase::Round { follower: 0 },
                };
                s
            }
            Phase::Round { follower } => {
                let n = &self.attacker.numbers;
                let bonus = |me: Pips, them: Pips| n.gap_bonus(me.unit, them.unit);
                let follow = |who: u8| {
                    if follower == who {
                        i32::from(n.follow_up_bonus)
                    } else {
                        0
                    }
                };
                // The charge's impact (charging, the obstacle) counts in the first round only.
                let first = follower == 0;
                let a = self.attacker.round_modifiers(first)
                    + bonus(s.attacker, s.defender)
                    + follow(1);
                let d = self.defender.round_modifiers(first)
                    + bonus(s.defender, s.attacker)
                    + follow(2);
                s.rounds += 1;
                let (winner, loser) = match lw::opposed(a - d, r) {
                    std::cmp::Ordering::Equal => {
                        // "Draws result in a mutual push-back": a bounce, unless under
                        // `follow_up_draw = earlier-winner` a drawn follow-up leaves the melee
                        // to the side that won the round before.
                        let earlier = n.follow_up_draw == lw::FollowUpDraw::EarlierWinner;
                        s.phase = Phase::Over(if follower == 0 || !earlier {
                            3
                        } else {
                            follower
                        });
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
                // LW-4: a reversal (the follower lost the follow-up) may be followed up in turn
                // only under `reversal_follow_up`.
                let reversal = follower != 0 && follower != winner as u8 + 1;
                let follows = self.follow_up == FollowUp::Always
                    && winner_pips.unit > 1
                    && (!reversal || n.reversal_follow_up);
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
            // Fire and melee only: a double move's pip is the attacker's choice, not a loss.
            1 => u32::from(self.attacker.pips_in_melee() - s.attacker.unit),
            2 => u32::from(self.defender.pips - s.defender.unit),
            3 => u32::from(self.destroyed(&s, 0)),
            _ => u32::from(self.destroyed(&s, 1)),
        }
    }
}

/// The job of `melee`: a charge, the closing fire and opposed rounds with follow-up (LW-1 to
/// LW-4, LW-6).
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (p, q, n) = (&ctx.p, &ctx.q, &ctx.n);
    let dice_follow_pips = ctx.on.dice_follow_pips;
    let mut notes = Vec::new();
    let attacker = parse_side(&p.how.attacker.what, &p.attacker, *n)?;
    let defender = parse_side(&p.how.defender.what, &p.defender, *n)?;
    if attacker.pips < 2 {
        return Err(Error::Invalid {
            what: p.how.attacker.what.clone(),
            value: p.attacker.clone(),
            allowed: "an attacker on its last pip may take no offensive action (LW-1)".into(),
        });
    }
    if defender.charging {
        return Err(Error::Invalid {
            what: p.how.defender.what.clone(),
            value: "charging".into(),
            allowed: "only the attacker charges".into(),
        });
    }
    if defender.double_move {
        return Err(Error::Invalid {
            what: p.how.defender.what.clone(),
            value: "double-move".into(),
            allowed: "only the attacker charges".into(),
        });
    }
    let closing_fire = if defender.kind.shoots() {
        "the defender fires as it goes in"
    } else {
        "cavalry do not shoot, so no closing fire (LW-2)"
    };
    notes.push(format!(
        "attacker: {} {} pips{}{}{}; defender: {} {} pips{}{}",
        attacker.kind.name(),
        attacker.pips,
        match (attacker.double_move, attacker.charging) {
            (true, _) => format!(
                ", charging with a double move: it spends a pip first (LW-3, reported apart from the pips lost in the melee); {closing_fire}"
            ),
            (false, true) => format!(", charging (+1, LW-4; a single move costs no pip, LW-3); {closing_fire}"),
            _ => String::new(),
        },
        if attacker.obstacle { ", obstacle" } else { "" },
        if attacker.general { ", general" } else { "" },
        defender.kind.name(),
        defender.pips,
        if defender.obstacle {
            ", defending an obstacle"
        } else {
            ""
        },
        if defender.general { ", general" } else { "" },
    ));
    notes.push(format!(
        "{}; the charger's +1 counts {} (LW-4); a charger the closing fire leaves on its last pip halts, with no melee (halted), and a winner on its last pip may not follow up and wins the melee there (LW-1){}",
        match n.follow_up_draw {
            lw::FollowUpDraw::PushBack => "a drawn round, first or follow-up, is a bounce: both are pushed back and the melee ends (LW-4)",
            lw::FollowUpDraw::EarlierWinner => "a drawn first round is a bounce (LW-4); a drawn follow-up ends the melee, won by the side that won the round before (the tool's reading)",
        },
        match n.charge_bonus_rounds {
            lw::ChargeBonusRounds::First => "in the first round only",
            lw::ChargeBonusRounds::Every => "in every round (the tool's reading)",
        },
        if attacker.general || defender.general {
            format!("; the general's coin is flipped {} (LW-6)", coin_words(q.general_coin))
        } else {
            String::new()
        }
    ));
    let follow = p.follow_up;
    let chain = LwMelee::new(
        attacker,
        defender,
        follow,
        true,
        n.fire_to_hit(false, false),
        dice_follow_pips,
        q.general_coin,
    );
    let outcomes = OutcomeDef::each(
        chain.classes(),
        &["attacker_wins", "defender_wins", "bounce", "halted"],
    );
    Ok(Box::new(ChainJob::new(
        chain,
        ctx.setup.describe(notes),
        outcomes,
        vec![
            MetricDef::Value {
                name: "rounds",
                meaning: "melee rounds fought",
            },
            MetricDef::Value {
                name: "attacker_pips_lost",
                meaning: "attacker's pips lost to the closing fire and the melee (a double move's pip is not a loss: see the notes)",
            },
            MetricDef::Value {
                name: "defender_pips_lost",
                meaning: "defender's pips lost",
            },
            MetricDef::Value {
                name: "attacker_destroyed",
                meaning: "P(attacker destroyed: second lost round or no pips)",
            },
            MetricDef::Value {
                name: "defender_destroyed",
                meaning: "P(defender destroyed: second lost round or no pips)",
            },
        ],
        vec![],
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::system::linear_warfare::rules::UnitType;

    fn side(kind: UnitType, pips: u8) -> Side {
        Side {
            kind,
            pips,
            stands: 6,
            charging: false,
            double_move: false,
            obstacle: false,
            general: false,
            numbers: lw::Numbers::default(),
        }
    }

    fn melee(a: Side, d: Side) -> LwMelee {
        LwMelee::new(
            a,
            d,
            FollowUp::Always,
            true,
            4,
            false,
            GeneralCoin::PerAttack,
        )
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
    fn the_charge_and_the_obstacle_count_in_the_first_round_only() {
        // A charging Line (+1) against a Line behind an obstacle (+1): in the first round they
        // cancel, so a 4 beats a 3. In the follow-up the winner has only its follow-up +1 (the
        // charge's impact is spent) and the pushed-back loser no longer holds the obstacle: a 3
        // against a 4 draws (3 + 1 = 4); with the old reading (+1 charging, +1 follow-up, the
        // obstacle kept) it would have lost 4 against 5.
        let mut a = side(UnitType::Line, 6);
        a.charging = true;
        let mut d = side(UnitType::Line, 6);
        d.obstacle = true;
        let m = LwMelee::new(
            a,
            d,
            FollowUp::Always,
            false,
            4,
            false,
            GeneralCoin::PerAttack,
        );
        let s = m.step(m.start(), &mut Scripted::new(&[4, 3]));
        assert_eq!((s.phase, s.losses), (Phase::Round { follower: 1 }, [0, 1]));
        let s2 = m.step(s, &mut Scripted::new(&[3, 4]));
        assert_eq!(
            s2.losses,
            [0, 1],
            "a draw: nobody loses the follow-up round"
        );
        // Guards keep their +1 in every round: the same follow-up by Guards wins.
        let mut g = side(UnitType::Guards, 6);
        g.charging = true;
        let m = LwMelee::new(
            g,
            d,
            FollowUp::Always,
            false,
            4,
            false,
            GeneralCoin::PerAttack,
        );
        let s = m.step(m.start(), &mut Scripted::new(&[3, 3]));
        assert_eq!(s.losses, [0, 1]);
        let s = m.step(s, &mut Scripted::new(&[3, 4]));
        assert_eq!(s.losses, [0, 2]);
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
    fn only_a_double_move_costs_a_pip_and_every_charge_draws_closing_fire() {
        // LW-3: a unit "may expend a pip to gain a double move to charge". A charge of a single
        // move costs nothing; either way the charged unit fires as the charge goes in.
        let mut a = side(UnitType::Line, 2);
        a.charging = true;
        let m = melee(a, side(UnitType::Line, 6));
        assert_eq!(
            (m.start().phase, m.start().attacker.unit),
            (Phase::ClosingFire, 2)
        );
        a.double_move = true;
        let m = melee(a, side(UnitType::Line, 6));
        let s = m.start();
        assert_eq!((s.phase, s.attacker.unit), (Phase::ClosingFire, 1));
        // One hit from the closing volley ends the attacker before contact. The pip it spent
        // on the double move is reported apart: one pip lost to fire.
        let s = m.step(s, &mut Scripted::new(&[1]));
        assert_eq!(s.phase, Phase::Over(2));
        assert_eq!(m.value_of(s, 1), 1);
    }

    #[test]
    fn cavalry_do_not_shoot_as_a_charge_goes_in() {
        // LW-2: "Cavalry do not shoot": a charge on cavalry goes straight to the first round.
        let mut a = side(UnitType::Line, 6);
        a.charging = true;
        let m = melee(a, side(UnitType::Cavalry, 6));
        assert_eq!(m.start().phase, Phase::Round { follower: 0 });
        assert!(!m.closing_fire);
    }

    #[test]
    fn a_drawn_round_is_a_mutual_push_back() {
        // LW-4: "Draws result in a mutual push-back": a drawn follow-up is a bounce too.
        let m = melee(side(UnitType::Line, 6), side(UnitType::Line, 6));
        let s = m.step(m.start(), &mut Scripted::new(&[5, 2]));
        // Follow-up: 2 + 1 against 3 is a draw.
        let s = m.step(s, &mut Scripted::new(&[2, 3]));
        assert_eq!((s.phase, s.losses), (Phase::Over(3), [0, 1]));
    }

    #[test]
    fn under_earlier_winner_a_drawn_follow_up_goes_to_the_side_that_won_a_round() {
        // `follow_up_draw = earlier-winner`: once the attacker has won the first round, a
        // drawn follow-up ends the melee with the attacker the winner.
        let mut a = side(UnitType::Line, 6);
        a.numbers.follow_up_draw = lw::FollowUpDraw::EarlierWinner;
        let mut d = side(UnitType::Line, 6);
        d.numbers.follow_up_draw = lw::FollowUpDraw::EarlierWinner;
        let m = melee(a, d);
        let s = m.step(m.start(), &mut Scripted::new(&[5, 2]));
        let s = m.step(s, &mut Scripted::new(&[2, 3]));
        assert_eq!((s.phase, s.losses), (Phase::Over(1), [0, 1]));
        // Each side has lost a round (the defender won the follow-up and follows up in turn);
        // a draw then goes to the defender, the last to win a round.
        let s = m.step(m.start(), &mut Scripted::new(&[5, 2]));
        let s = m.step(s, &mut Scripted::new(&[1, 6]));
        assert_eq!((s.phase, s.losses), (Phase::Round { follower: 2 }, [1, 1]));
        let s = m.step(s, &mut Scripted::new(&[4, 3]));
        assert_eq!(s.phase, Phase::Over(2));
    }

    #[test]
    fn a_charger_the_closing_fire_leaves_on_its_last_pip_halts() {
        // LW-1: "units down to their last pip may perform no offensive action". A charging
        // Line of 2 hit once by the closing fire halts: no round is fought.
        let mut a = side(UnitType::Line, 2);
        a.charging = true;
        let m = melee(a, side(UnitType::Line, 6));
        assert_eq!(m.start().phase, Phase::ClosingFire);
        let s = m.step(m.start(), &mut Scripted::new(&[1]));
        assert_eq!((s.phase, s.attacker.unit, s.rounds), (Phase::Over(4), 1, 0));
        // No hit: it charges home with its 2 pips.
        let s = m.step(m.start(), &mut Scripted::new(&[0]));
        assert_eq!(s.phase, Phase::Round { follower: 0 });
    }

    #[test]
    fn the_charge_bonus_counts_in_every_round_under_every() {
        // `charge_bonus_rounds`: the charger's +1 in the first round only (default), or in
        // every round.
        let mut a = side(UnitType::Line, 6);
        a.charging = true;
        assert_eq!(a.round_modifiers(true), 1);
        assert_eq!(a.round_modifiers(false), 0);
        a.numbers.charge_bonus_rounds = lw::ChargeBonusRounds::Every;
        assert_eq!(a.round_modifiers(false), 1);
        // The obstacle's +1 stays in the first round.
        let mut d = side(UnitType::Line, 6);
        d.obstacle = true;
        d.numbers.charge_bonus_rounds = lw::ChargeBonusRounds::Every;
        assert_eq!((d.round_modifiers(true), d.round_modifiers(false)), (1, 0));
    }
}
