//! `melee` and `charge` (docs/RULES.md §4): a Rank & File melee (RF-9) or a whole charge (RF-10 to RF-12).

use super::Ctx;
use super::params::{ChargeFrom, Rules};
use super::rules as rf;
use super::unit::fighter_of;
use crate::chain::{Chain, ClassInfo, ValueInfo};
use crate::dice::{Hits, MAX_TABLE_DICE, Roll};
use crate::error::{Error, Result};
use crate::scenario::invariants::{self, Check};
use crate::scenario::melee::{FIGHT_CLASSES, FightPhase};
use crate::scenario::{ChainJob, Job, MetricDef, OutcomeDef, Scenario};

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
    /// RF-8: the target, an elephant, stampeded on failing its waiver test.
    pub stampeded: bool,
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
    /// For a charge: what follows a failed waiver test (RF-8 stampede, RF-10 pursuit).
    pub after_waiver: rf::WaiverRules,
    /// The scenario is a charge.
    pub charge: bool,
    /// Each side's hits by the dice it rolls (a die a stand; over 24 dice, several tables).
    tables: [Vec<Hits>; 2],
    values: Vec<ValueInfo>,
}

/// How melees are fought: the optional rules in force, RF-9's parameters and the safety cap on
/// rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeleeSetup {
    /// Optional rules in force.
    pub options: rf::Options,
    /// RF-9's parameters.
    pub rules: rf::MeleeRules,
    /// The safety cap on rounds.
    pub max_rounds: u32,
}

/// What makes a melee a whole charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Charge {
    /// The target takes a waiver test at the end of the charge phase (RF-10).
    pub waiver: bool,
    /// The winner rolls for an uncontrolled charge (RF-12).
    pub uncontrolled: bool,
    /// What follows a failed waiver test (RF-8 stampede, RF-10 pursuit).
    pub after_waiver: rf::WaiverRules,
}

impl RfFight {
    /// A melee between `[attacker, defender]` from their starting states, or a whole charge
    /// when `charge` is given.
    pub fn new(
        [attacker, defender]: [rf::Fighter; 2],
        start: [rf::UnitState; 2],
        setup: MeleeSetup,
        charge: Option<Charge>,
    ) -> Self {
        let MeleeSetup {
            options,
            rules,
            max_rounds,
        } = setup;
        let table = |me: &rf::Fighter, them: &rf::Fighter| -> Vec<Hits> {
            let need = me.needs_to_hit(them, &rules);
            (0..=u32::from(me.unit.stands))
                .map(|n| Hits::dice(n, need, MAX_TABLE_DICE))
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
            ValueInfo {
                name: "loser_removed_destroyed",
                max: 1,
            },
            ValueInfo {
                name: "loser_removed_failed_while_routing",
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
        let Charge {
            waiver,
            uncontrolled,
            after_waiver,
        } = charge.unwrap_or(Charge {
            waiver: false,
            uncontrolled: false,
            after_waiver: rf::WaiverRules::default(),
        });
        let after_waiver = rf::WaiverRules {
            stampede: after_waiver.stampede && defender.unit.kind == rf::Kind::Elephant,
            ..after_waiver
        };
        if waiver && after_waiver.stampede {
            values.push(ValueInfo {
                name: "p_stampede",
                max: 1,
            });
        }
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
            after_waiver,
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
    /// RF-3 to RF-12 for both sides (see [`super::invariants::rf_unit`]); a finished melee stays
    /// finished.
    fn check_step(&self, from: FightState, to: FightState) -> Check {
        invariants::stays(matches!(from.phase, FightPhase::Over(_)), &from, &to)?;
        super::invariants::rf_unit(
            &self.attacker.unit,
            &self.options,
            &self.start[0],
            from.a,
            to.a,
        )?;
        super::invariants::rf_unit(
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
            stampeded: false,
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
            let (d, failed, end) = rf::charge_waiver(
                &self.defender.unit,
                &self.options,
                self.after_waiver,
                s.d,
                r,
            );
            s.d = d;
            s.waiver_failed = failed;
            s.stampeded = end == rf::WaiverEnd::Stampeded;
            match end {
                rf::WaiverEnd::Stands => {}
                rf::WaiverEnd::Caught => {
                    s.phase = FightPhase::Over(5);
                    return s;
                }
                rf::WaiverEnd::Broke | rf::WaiverEnd::Stampeded => {
                    s.phase = FightPhase::Over(4);
                    return s;
                }
            }
        }
        let a_dice = self.attacker.dice(&s.a, first);
        let d_dice = self.defender.dice(&s.d, first);
        let a_hits = r.hits(&self.tables[0][usize::from(a_dice)]) as u8;
        let d_hits = r.hits(&self.tables[1][usize::from(d_dice)]) as u8;
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
            // RF-9: the loser routs outright when every winner routs it, or this one does.
            let rules = rf::MeleeRules {
                auto_rout_on_win: self.rules.auto_rout_on_win
                    || winner.is_some_and(|w| w.routs_loser),
                ..self.rules
            };
            let (after, fifty) = rf::lose_melee(&fighter.unit, &self.options, &rules, *state);
            *state = after;
            s.fifty = fifty;
        }
        // RF-12: the winner's uncontrolled test; under `shaken_winner_charges = false` only a
        // winner in good order takes it (an Unsteady one, from its waiver test, may not charge).
        let winner_status = match end {
            rf::MeleeEnd::AttackerWins => s.a.status,
            _ => s.d.status,
        };
        if let Some(w) = winner
            && self.uncontrolled
            && (self.rules.shaken_winner_charges || winner_status == rf::Status::Good)
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
        let loser = self.loser(&s);
        let is = |st| u32::from(loser.map(|l| l.status) == Some(st));
        let removed_for = |why| u32::from(loser.and_then(|l| l.removal) == Some(why));
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
            6 => removed_for(rf::Removal::Destroyed),
            7 => removed_for(rf::Removal::FailedWhileRouting),
            8 => u32::from(s.waiver_failed),
            9 => u32::from(s.must_charge),
            _ => u32::from(s.stampeded),
        }
    }
}

/// The job of `melee` and `charge`: two units from their specs fight (RF-9 to RF-12), a charge
/// with its waiver test and the winner's uncontrolled test.
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (scenario, p, on) = (ctx.setup.scenario, &ctx.p, &ctx.on);
    let rule_params = Rules::read(ctx.setup.resolved)?;
    let (attacker, a_start) = fighter_of(&rule_params, &p.how.attacker.what, &p.attacker, on)?;
    let (mut defender, d_start) = fighter_of(&rule_params, &p.how.defender.what, &p.defender, on)?;
    // RF-11: a marker comes off at the end of a charge phase in which the unit did not charge
    // and is not routing, and the melee phase comes after it: the defender did not charge, so
    // it meets the melee without its marker (the attacker's, carried into its charge, counts).
    let defender_shed_marker = std::mem::replace(&mut defender.blown, false);
    let rules = rule_params.melee();
    let rf_options = rule_params.options(on, Default::default());
    let mut notes = vec![format!(
        "attacker hits on {}+, defender on {}+ (7 = cannot hit); first round: stands in contact plus one overlapping each flank (frontage), later rounds all stands (RF-9)",
        attacker.needs_to_hit(&defender, &rules),
        defender.needs_to_hit(&attacker, &rules)
    )];
    if defender_shed_marker {
        notes.push(
            "the defender's Blown marker comes off at the end of the charge phase, before the melee: it did not charge this turn (RF-11)".into(),
        );
    }
    let charge = if scenario == Scenario::Charge {
        let frontal = p.charge_from == ChargeFrom::Front;
        let due = rf::waiver_due(&attacker, &defender, frontal, p.era);
        let waiver = on.waiver_tests && due;
        let stampede = on.elephant_stampede && defender.unit.kind == rf::Kind::Elephant;
        notes.push(if waiver {
            format!(
                "the target takes a waiver test at the end of the charge phase, with all the usual modifiers (RF-10){}{}",
                if stampede {
                    "; an elephant that fails it may stampede (RF-8), which ends the charge like a rout"
                } else {
                    ""
                },
                if p.pursue {
                    "; the charger pursues a target that routed and destroys it (counted as caught)"
                } else {
                    "; a target that routed is not pursued (the pursuit is switched off)"
                }
            )
        } else if due {
            "a waiver test would be due (RF-10), but the optional rule of waiver tests is off".to_string()
        } else {
            "no waiver test is due (RF-10)".to_string()
        });
        if on.blown_cavalry && attacker.troop == rf::Troop::Cavalry {
            notes.push(if attacker.blown {
                "the charging cavalry charges while Blown: it fights with its marker (-1 to hit) and keeps it after this charge (RF-11)".into()
            } else {
                "the charging cavalry carries a Blown marker after this charge (RF-11)".into()
            });
        }
        Some(Charge {
            waiver,
            uncontrolled: on.uncontrolled,
            after_waiver: rf::WaiverRules {
                stampede: on.elephant_stampede,
                pursue: p.pursue,
            },
        })
    } else {
        None
    };
    let setup = MeleeSetup {
        options: rf_options,
        rules,
        max_rounds: p.max_rounds,
    };
    let chain = RfFight::new([attacker, defender], [a_start, d_start], setup, charge);
    if chain.hopeless() {
        return Err(Error::Conflict(format!(
            "this {scenario} cannot end: neither side can hit (attacker needs {}+, defender {}+)",
            attacker.needs_to_hit(&defender, &rules),
            defender.needs_to_hit(&attacker, &rules)
        )));
    }
    let c = chain.classes();
    let decided = ["attacker_wins", "defender_wins", "mutual_destruction"];
    let mut outcomes = OutcomeDef::each(c, &decided);
    if charge.is_some() {
        outcomes.insert(0, OutcomeDef::of(c, "target_broke", &["target_broke"]));
        if p.pursue {
            outcomes.insert(1, OutcomeDef::of(c, "target_caught", &["target_caught"]));
        }
    }
    let mut metrics = vec![
        MetricDef::end_turn(
            c,
            "rounds",
            &decided,
            "melee rounds fought, among melees fought",
        ),
        MetricDef::Value {
            name: "attacker_stands_lost",
            meaning: "attacker's stands lost in the melee",
        },
        MetricDef::Value {
            name: "defender_stands_lost",
            meaning: "defender's stands lost in the melee",
        },
        MetricDef::Value {
            name: "loser_unsteady",
            meaning: "share of trials in which the loser ends Unsteady",
        },
        MetricDef::Value {
            name: "loser_routing",
            meaning: "share of trials in which the loser ends Routing",
        },
        MetricDef::Value {
            name: "loser_removed",
            meaning: "share of trials in which the loser ends removed (the three causes below add up to it)",
        },
        MetricDef::Value {
            name: "loser_removed_by_fifty_percent",
            meaning: "share of trials in which the 50% rule dispersed the loser (RF-3)",
        },
        MetricDef::Value {
            name: "loser_removed_destroyed",
            meaning: "share of trials in which the loser lost its last stand (or model, RF-7) in the melee",
        },
        MetricDef::Value {
            name: "loser_removed_failed_while_routing",
            meaning: "share of trials in which the loser was already Routing and, losing, dropped to removed (RF-9)",
        },
    ];
    if charge.is_some() {
        metrics.push(MetricDef::Value {
            name: "waiver_failed",
            meaning: "share of charges in which the target failed its waiver test (RF-10)",
        });
        metrics.push(MetricDef::Value {
            name: "must_charge_again",
            meaning: "share of charges after which the winner must charge next turn (RF-12)",
        });
        if chain.waiver && chain.after_waiver.stampede {
            metrics.push(MetricDef::Value {
                name: "p_stampede",
                meaning: "share of charges in which the elephant failed its waiver test and stampeded (RF-8)",
            });
        }
    }
    Ok(Box::new(ChainJob::new(
        chain,
        ctx.setup.describe(notes),
        outcomes,
        metrics,
        vec![],
    )))
}

#[cfg(test)]
mod tests {
    #[test]
    fn first_round_drawn_with_the_hand_computed_chance() {
        // Two equal 4-stand units at 4+: the first round's casualties are equal with chance
        // Σₖ C(4,k)²/256 = 70/256 — a drawn round (69/256), or both wiped out at 4–4 (1/256).
        use crate::chain::Chain;
        use crate::exact::transitions;
        use crate::scenario::melee::FightPhase;
        use crate::system::rank_and_file::melee::{MeleeSetup, RfFight};
        use crate::system::rank_and_file::rules as rf;
        let (f, s) = crate::system::rank_and_file::unit::parse_fighter(
            "--attacker",
            "regular stands=4",
            &Default::default(),
        )
        .unwrap();
        let rules = rf::MeleeRules::SOURCE;
        let setup = MeleeSetup {
            options: rf::Options::default(),
            rules,
            max_rounds: 50,
        };
        let fight = RfFight::new([f, f], [s, s], setup, None);
        let first = transitions(&fight, fight.start());
        let p = |want: &dyn Fn(&FightPhase) -> bool| -> f64 {
            first
                .iter()
                .filter(|(s, _)| want(&s.phase))
                .map(|(_, p)| p)
                .sum()
        };
        assert!((p(&|ph| *ph == FightPhase::Later) - 69.0 / 256.0).abs() < 1e-12);
        assert!((p(&|ph| *ph == FightPhase::Over(3)) - 1.0 / 256.0).abs() < 1e-12);
    }
}
