//! Age of Linear Warfare units in `engagement` and `line`.

#![allow(clippy::needless_range_loop)]

use super::Ctx;
use super::melee::{LwMelee, MeleeState, Phase};
use super::rules as lw;
use super::rules::{FollowUp, LwState, LwStatus};
use super::unit::{coin_words, parse_side};
use crate::chain::Chain;
use crate::dice::{Roll, Weights};
use crate::error::{Error, Result};
use crate::scenario::Job;
use crate::scenario::battle::Volley;
use crate::scenario::battle::*;
use crate::scenario::invariants::Check;
use crate::system::battle::{self, BattleParams, BattleSetup, BreakPointSource, SideSpec};

/// An Age of Linear Warfare unit in a battle: its state under fire (status and pips) and
/// whether the slot holds a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LwSlot {
    /// Its state.
    pub s: LwState,
    /// The slot holds a unit.
    pub present: bool,
    /// Pips it has spent on double moves to charge (LW-3), reported apart from its losses.
    pub moved: u8,
}

/// Age of Linear Warfare units and their turn: side A declares charges (LW-3: from a move away,
/// or from two with a double move, which costs a pip; not on the last pip, LW-1) → units
/// falling back retire or recover a pip (LW-5) → fire, simultaneous, by units in the line that
/// are not charging and not cavalry (one die per stand on 4+, LW-2; each hit a pip; with a
/// general attached a coin decides who bears each volley, or each pip, LW-6) → melees (LW-3
/// closing fire, LW-4 rounds with follow-up, a second loss destroys) → units at or below
/// `fall_back_at` pips fall back (LW-5). LW-7's army break point is the line's.
#[derive(Debug, Clone)]
pub struct LwArmy {
    /// Each side's units by file.
    pub sides: [Vec<lw::Side>; 2],
    /// Each side's fire, by file: one die per stand on 4+ (LW-2).
    pub fire: [Vec<Volley>; 2],
    /// Option `dice-follow-pips` (LW-2).
    pub dice_follow_pips: bool,
    /// When it falls back and rejoins (LW-5).
    pub fall_back: lw::FallBack,
    /// LW-6: one coin flip per attack or per pip.
    pub general_coin: lw::GeneralCoin,
    /// LW-3: a unit that charges this turn still fires in the fire phase (`chargers_fire`).
    pub chargers_fire: bool,
    /// LW-1, LW-3: a declared charge still goes in when the fire phase has left the charger on
    /// its last pip, or the double move would put it there (`last_pip_charges`; by default
    /// it does not: no offensive action on the last pip).
    pub last_pip_charges: bool,
    /// `melees[attacker side][file]`.
    melees: [Vec<LwMelee>; 2],
    /// The melees fought out within a turn, for the exact solver (by file and start).
    fought: PlayedOut<(usize, MeleeState), MeleeState>,
    coin: Weights,
}

impl LwArmy {
    /// The army of `sides` (by side and file).
    pub fn new(
        sides: [Vec<lw::Side>; 2],
        fire: [Vec<Volley>; 2],
        dice_follow_pips: bool,
        follow_up: FollowUp,
        fall_back: lw::FallBack,
        general_coin: lw::GeneralCoin,
        chargers_fire: bool,
    ) -> Self {
        let melees = [0, 1].map(|a| {
            (0..sides[a].len())
                .map(|i| {
                    let mut att = sides[a][i];
                    att.charging = true;
                    let mut def = sides[1 - a][i];
                    def.charging = false;
                    let to_hit = def.numbers.fire_to_hit(false, false);
                    LwMelee::new(
                        att,
                        def,
                        follow_up,
                        true,
                        to_hit,
                        dice_follow_pips,
                        general_coin,
                    )
                })
                .collect()
        });
        LwArmy {
            sides,
            fire,
            dice_follow_pips,
            fall_back,
            general_coin,
            chargers_fire,
            last_pip_charges: false,
            melees,
            fought: PlayedOut::default(),
            coin: lw::coin(),
        }
    }

    /// The army with `last_pip_charges` as given (LW-1: by default a charger left on its last
    /// pip stays).
    pub fn with_last_pip_charges(mut self, last_pip_charges: bool) -> Self {
        self.last_pip_charges = last_pip_charges;
        self
    }

    fn targetable(&self, u: &LwSlot) -> bool {
        u.present
            && match u.s.status {
                LwStatus::InLine => true,
                LwStatus::Retiring | LwStatus::Recovering => !self.fall_back.out_of_range,
                LwStatus::Removed => false,
            }
    }

    /// LW-5: falling back and recovering, at the start of the turn, for the first `files` of
    /// each side: a unit that fell back last turn is recovering; a recovering one regains its
    /// pips, and rejoins the turn after the one it regains its last. A step of the turn,
    /// inlined into it as it was written there.
    #[inline(always)]
    fn recover(&self, f: &mut Field<LwSlot>, files: usize) {
        for side in 0..2 {
            for i in 0..files {
                let start = self.sides[side][i].pips;
                let u = &mut f.front[side][i];
                match u.s.status {
                    LwStatus::Retiring => u.s.status = LwStatus::Recovering,
                    LwStatus::Recovering => u.s = self.fall_back.recover(u.s, start),
                    _ => {}
                }
            }
        }
    }
}

/// End states of an Age of Linear Warfare unit.
const LW_STATUSES: [&str; 3] = ["in_line", "falling_back", "removed"];

impl Army for LwArmy {
    type Unit = LwSlot;
    /// One file, or two without supports (1.4 s and 140 MB at the defaults, 12 turns; with a
    /// support behind, 5 s and 540 MB, and three files past a minute and 2 GB).
    fn line_solves(&self, files: usize, supports: [usize; 2]) -> bool {
        files == 1 || (files == 2 && supports == [0, 0])
    }
    fn line_solves_words(&self) -> &'static str {
        "a line of one file a side is solved exactly, and of two without supports; two with a support take some 5 s and half a gigabyte, three more than a minute and 2 GB"
    }
    fn check_unit(&self, side: usize, file: usize, from: &LwSlot, to: &LwSlot) -> Check {
        super::invariants::lw_unit(self.sides[side][file].pips, from.s, to.s)
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
            moved: 0,
        }
    }
    fn unit(&self, side: usize, file: usize) -> LwSlot {
        let u = &self.sides[side][file];
        LwSlot {
            s: LwState {
                status: LwStatus::InLine,
                pips: lw::Pips {
                    unit: u.pips,
                    general: if u.general { u.numbers.general_pips } else { 0 },
                },
            },
            present: true,
            moved: 0,
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
    /// Pips lost to fire and melee: pips down from the start, less those spent on double
    /// moves (a unit that recovers pips while falling back can make up for those too).
    fn strength_lost(&self, side: usize, file: usize, u: &LwSlot) -> u32 {
        u32::from(
            self.sides[side][file]
                .pips
                .saturating_sub(u.s.pips.unit)
                .saturating_sub(u.moved),
        )
    }
    /// Its pips now (those spent on double moves are gone from the line too).
    fn held(&self, _side: usize, _file: usize, u: &LwSlot) -> u32 {
        u32::from(u.s.pips.unit)
    }
    fn apart(&self) -> Option<(&'static str, &'static str)> {
        Some((
            "a_double_move_pips",
            "pips side A spent on double moves to charge (LW-3), apart from a_strength_lost",
        ))
    }
    fn apart_of(&self, u: &LwSlot) -> u32 {
        u32::from(u.moved)
    }
    fn turn<R: Roll>(&self, f: &mut Field<LwSlot>, ctx: &TurnContext, r: &mut R) {
        // Never more than the field holds (so the compiler drops the bounds checks).
        let files = ctx.files.min(MAX_FILES);
        // LW-3: charges are declared at the start of the turn, so the distance then decides: a
        // single move from a move away, a double move (a pip) from two.
        let mut charging = [false; MAX_FILES];
        for (i, c) in charging.iter_mut().enumerate().take(files) {
            let (a, b) = (f.front[0][i], f.front[1][i]);
            // LW-1: not on the last pip, the double move's pips paid (LW-3) included.
            let cost = self.sides[0][i].numbers.double_move_cost;
            *c = a.present
                && a.s.status == LwStatus::InLine
                && a.s.pips.unit > 1
                && (ctx.start_range < 2 || a.s.pips.unit > cost + 1)
                && ctx.start_range <= 2
                && self.targetable(&b)
                && ctx.policy.charges(ctx.turn, b.s.status != LwStatus::InLine);
        }
        self.recover(f, files);
        // LW-2: fire, simultaneous.
        let mut volleys = [[([0u32; 3], 0usize); MAX_FILES]; 2];
        if f.range <= ctx.fire_range {
            for side in 0..2 {
                let targets: [bool; MAX_FILES] =
                    std::array::from_fn(|i| i < files && self.targetable(&f.front[1 - side][i]));
                for i in 0..files {
                    let u = &f.front[side][i];
                    let unit = &self.sides[side][i];
                    // LW-3: a charger fires only under `chargers_fire`; LW-1: a unit on its
                    // last pip only under `last_pip_fires = all`.
                    let numbers = &unit.numbers;
                    if !u.present
                        || u.s.status != LwStatus::InLine
                        || (side == 0 && charging[i] && !self.chargers_fire)
                        || (u.s.pips.unit <= 1 && numbers.last_pip_fires != lw::LastPipFires::All)
                        || !unit.kind.shoots()
                    {
                        continue;
                    }
                    if let Some(t) = fire_target(&targets, i, files) {
                        let stands = unit.stands;
                        let left = lw::infantry_dice(stands, u.s.pips.unit, self.dice_follow_pips);
                        let n = self.fire[side][i].sample(left, u32::from(stands), r);
                        // At most three volleys reach a unit: from opposite and either side.
                        let v = &mut volleys[1 - side][t];
                        v.0[v.1] = n;
                        v.1 += 1;
                    }
                }
            }
        }
        for side in 0..2 {
            for i in 0..files {
                let u = &mut f.front[side][i];
                let (hits, n) = volleys[side][i];
                if n > 0 && u.present && u.s.status != LwStatus::Removed {
                    // LW-6: each volley is one attack for the general's coin.
                    u.s.pips =
                        u.s.pips
                            .lose_all(&hits[..n], self.general_coin, &self.coin, r);
                    u.s.status = std::hint::select_unpredictable(
                        u.s.pips.unit == 0,
                        LwStatus::Removed,
                        u.s.status,
                    );
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
            let cost = if ctx.start_range >= 2 {
                self.sides[0][i].numbers.double_move_cost
            } else {
                0
            };
            // LW-1: a charger the fire phase has left on its last pip, or that the double
            // move's pips (LW-3) would put there, "may perform no offensive action": it stays
            // where it is and draws no closing fire, unless `last_pip_charges`.
            if a.s.pips.unit <= cost + 1 && !self.last_pip_charges {
                continue;
            }
            f.front[0][i].moved += cost;
            let mut st = MeleeState {
                phase: if m.closing_fire {
                    Phase::ClosingFire
                } else {
                    Phase::Round { follower: 0 }
                },
                attacker: lw::Pips {
                    unit: a.s.pips.unit.saturating_sub(cost),
                    general: a.s.pips.general,
                },
                defender: b.s.pips,
                losses: [0, 0],
                rounds: 0,
            };
            // The melee to its end (LW-3, LW-4). The turn reads of the end the pips and losses
            // of both sides.
            let start = st;
            let end_of = |s: MeleeState| MeleeState {
                attacker: s.attacker,
                defender: s.defender,
                losses: s.losses,
                ..start
            };
            st = self.fought.play(
                (i, start),
                m,
                start,
                m.turns(),
                r,
                |s| matches!(s.phase, Phase::Over(_)),
                end_of,
            );
            for (side, pips) in [(0, st.attacker), (1, st.defender)] {
                let u = &mut f.front[side][i];
                u.s.pips = pips;
                if self.sides[side][i]
                    .numbers
                    .destroyed(pips.unit, st.losses[side])
                {
                    u.s.status = LwStatus::Removed;
                }
            }
        }
        // LW-5: units worn down fall back.
        for side in 0..2 {
            for i in 0..files {
                let u = &mut f.front[side][i];
                let falls = u.present
                    & (u.s.status == LwStatus::InLine)
                    & (u.s.pips.unit <= self.fall_back.at);
                u.s.status = std::hint::select_unpredictable(falls, LwStatus::Retiring, u.s.status);
            }
        }
    }
}

/// `engagement` and `line`: the units of both sides from their specs (the `charging` and
/// `double-move` keywords are ignored: side A's policy and the distance decide its charges).
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (scenario, r) = (ctx.setup.scenario, ctx.setup.resolved);
    let (p, q, n) = (&ctx.p, &ctx.q, ctx.n);
    let dice_follow_pips = ctx.on.dice_follow_pips;
    let battle = BattleParams::read(r)?;
    if battle.how.b_fire.given {
        return Err(Error::Invalid {
            what: battle.how.b_fire.what.clone(),
            value: battle.b_fire.clone(),
            allowed: "linear-warfare units fire a die per stand (LW-2): give stands=N in side B's specs instead".into(),
        });
    }
    let given = SideSpec::pair(
        (&p.attacker, &p.how.attacker),
        (&p.defender, &p.how.defender),
    );
    let specs = battle::battle_specs(given, &battle, scenario)?;
    let (mut sides, mut fire) = ([vec![], vec![]], [vec![], vec![]]);
    let to_hit = n.fire_to_hit(false, false);
    for (side, given) in given.iter().enumerate() {
        for (k, spec) in specs[side].iter().enumerate() {
            let what = format!("{} (unit {})", given.how, k + 1);
            let mut u = parse_side(&what, spec, n)?;
            u.charging = false;
            u.double_move = false;
            fire[side].push(Volley::dice(u32::from(u.stands), to_hit));
            sides[side].push(u);
        }
    }
    let follow = p.follow_up;
    let fall_back = match (p.fall_back_at, p.return_at) {
        (0, _) => "units never fall back (the choice LW-5 gives is never taken)".to_string(),
        (at, 0) => format!(
            "units at {at} pips or fewer fall back, recover a pip a turn and rejoin the turn after they are back to their starting pips (LW-5)"
        ),
        (at, back) => {
            format!(
                "units at {at} pips or fewer fall back, recover a pip a turn and rejoin the turn after they reach {back} pips (LW-5)"
            )
        }
    };
    let last_pip = match n.last_pip_fires {
        lw::LastPipFires::ClosingOnly => "a unit on its last pip gives only closing fire",
        lw::LastPipFires::All => "a unit on its last pip still fires",
        lw::LastPipFires::None => "a unit on its last pip does not fire",
    };
    let notes = vec![format!(
        "each unit fires a die per stand on {to_hit}+ (LW-2{}; cavalry do not shoot; {}; {last_pip}, LW-1); side A charges from a move away, or from two with a double move that costs a pip, reported apart as pips spent on double moves, never onto its last pip (LW-3, LW-1), and {}; distances are counted in moves, whatever the unit's move (cavalry 40 cm, line infantry 25 cm); {fall_back}; the general's coin is flipped {} (LW-6)",
        if dice_follow_pips {
            "; no more dice than pips"
        } else {
            ""
        },
        if q.chargers_fire {
            "a charger fires too"
        } else {
            "a charger does not fire"
        },
        if q.last_pip_charges {
            "a charger the fire phase leaves on its last pip still charges"
        } else {
            "a charger the fire phase leaves on its last pip stays where it is"
        },
        coin_words(q.general_coin),
    )];
    let files = sides[0].len();
    let army = LwArmy::new(
        sides,
        fire,
        dice_follow_pips,
        follow,
        lw::FallBack {
            at: p.fall_back_at,
            return_at: p.return_at,
            out_of_range: p.fall_back_out_of_range,
        },
        q.general_coin,
        q.chargers_fire,
    )
    .with_last_pip_charges(q.last_pip_charges);
    let setup = BattleSetup {
        setup: ctx.setup,
        battle: &battle,
        turns: p.turns,
        break_point: BreakPointSource::Source {
            rule: "LW-7",
            percent: 50,
            as_written: "an army breaks at half its units",
            says: "half the army",
        },
        supports: battle::side_supports(given, &battle, scenario, files)?,
    };
    battle::battle_job(army, files, setup, notes)
}

/// The battle turn from the rules' words, with scripted dice: a value in a volley's place is
/// its number of hits, melee rounds roll the attacker's die then the defender's; each turn
/// checks the states after it and that no other die was rolled.
#[cfg(test)]
mod tests {
    use super::*;

    fn side(kind: lw::UnitType, pips: u8) -> lw::Side {
        lw::Side {
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

    /// One file: `a` against `b`, six fire dice on 4+ each, follow-up always, falling back at
    /// `fall_back_at` pips and rejoining at 6.
    fn army(a: lw::Side, b: lw::Side, fall_back_at: u8) -> LwArmy {
        LwArmy::new(
            [vec![a], vec![b]],
            [vec![Volley::dice(6, 4)], vec![Volley::dice(6, 4)]],
            false,
            FollowUp::Always,
            lw::FallBack {
                at: fall_back_at,
                return_at: 6,
                out_of_range: true,
            },
            lw::GeneralCoin::PerAttack,
            false,
        )
    }

    /// Play turn 1 from `range` moves apart; side A charges when `charge`.
    fn turn(army: &LwArmy, f: &mut Field<LwSlot>, charge: bool, dice: &[u8]) {
        let ctx = TurnContext {
            turn: 1,
            files: 1,
            policy: Policy {
                charge_at_turn: u32::from(charge),
                when_shaken: false,
            },
            fire_range: 2,
            start_range: f.range,
        };
        let used = scripted_turn(army, f, &ctx, dice);
        assert_eq!(used, dice.len(), "dice rolled: {used} of {dice:?}");
    }

    fn pips(f: &Field<LwSlot>, s: usize) -> (LwStatus, u8) {
        (f.front[s][0].s.status, f.front[s][0].s.pips.unit)
    }

    /// LW-2: fire is simultaneous, A's volley then B's, each hit a pip; LW-5: a unit at or
    /// below `fall_back_at` pips falls back at the end of the turn.
    #[test]
    fn fire_both_ways_and_falling_back() {
        let a = army(side(lw::UnitType::Line, 6), side(lw::UnitType::Line, 6), 3);
        let mut f = Field::one_file(&a, 1);
        turn(&a, &mut f, false, &[2, 3]);
        assert_eq!(pips(&f, 0), (LwStatus::Retiring, 3));
        assert_eq!(pips(&f, 1), (LwStatus::InLine, 4));
        // Cavalry do not shoot: only A's volley is rolled.
        let a = army(
            side(lw::UnitType::Line, 6),
            side(lw::UnitType::Cavalry, 6),
            0,
        );
        let mut f = Field::one_file(&a, 1);
        turn(&a, &mut f, false, &[1]);
        assert_eq!(pips(&f, 0), (LwStatus::InLine, 6));
        assert_eq!(pips(&f, 1), (LwStatus::InLine, 5));
    }

    /// LW-3 and LW-4 in a battle turn: the charger does not fire; the defender fires in the
    /// fire phase and again as the charge goes in (closing fire); then rounds: +1 for
    /// charging in the first, +1 for two or more pips more in every round, +1 for following
    /// up; a lost round costs a pip and the second lost round destroys.
    #[test]
    fn a_charge_closing_fire_and_rounds_with_follow_up() {
        let a = army(side(lw::UnitType::Line, 6), side(lw::UnitType::Line, 6), 0);
        let mut f = Field::one_file(&a, 1);
        let dice = [
            1, // B's volley at the charger: 5 pips.
            1, // B's closing fire: 4 pips.
            4,
            3, // Round 1: A 4 + 1 (charging) = 5 against B 3 + 1 (6 pips to 4) = 4: B loses.
            2, 5, // Round 2, A follows up: A 2 + 1 = 3 against B 5: A loses (3 pips).
            6,
            1, // Round 3, B follows up: A 6 against B 1 + 1 + 1 (5 pips to 3): B's second
               // loss destroys it.
        ];
        turn(&a, &mut f, true, &dice);
        assert_eq!(pips(&f, 0), (LwStatus::InLine, 3));
        assert_eq!(pips(&f, 1), (LwStatus::Removed, 4));
        assert_eq!(f.front[0][0].moved, 0, "a single move costs no pip");
    }

    /// LW-3: from two moves away the charge is a double move and costs a pip before the
    /// closing fire, counted apart from losses; LW-4: a drawn first round is a bounce.
    #[test]
    fn a_double_move_pays_its_pip_and_a_drawn_first_round_bounces() {
        let a = army(
            side(lw::UnitType::Guards, 7),
            side(lw::UnitType::Line, 6),
            0,
        );
        let mut f = Field::one_file(&a, 2);
        let dice = [
            0, // B's volley: no hit.
            0, // Closing fire: no hit.
            3, 5, // Round 1: Guards 3 + 1 + 1 (charging) = 5 against 5: a bounce.
        ];
        turn(&a, &mut f, true, &dice);
        assert_eq!(pips(&f, 0), (LwStatus::InLine, 6));
        assert_eq!(f.front[0][0].moved, 1);
        assert_eq!(pips(&f, 1), (LwStatus::InLine, 6));
    }

    /// LW-1 "units down to their last pip may perform no offensive action", and the charge is
    /// one: a unit of 2 pips two moves away would pay its pip for the double move (LW-3) and
    /// charge on its last pip, so it does not charge: both sides fire (no hits) and nothing
    /// else is rolled. With 3 pips it pays one and charges with 2: B's volley (no hit), the
    /// closing fire (no hit), and a round: A 6 + 1 (charging) against B 1 + 1 (6 pips to
    /// 2) — B loses a pip and the charger, on more than its last pip, follows up; 1 + 1
    /// against 6 + 1: A loses, down to its last pip; B follows up the reversal (+1 and +1 for
    /// 5 pips to 1) with 6 against A's 1: A's second lost round destroys it.
    #[test]
    fn no_double_move_onto_the_last_pip() {
        let a = army(side(lw::UnitType::Line, 2), side(lw::UnitType::Line, 6), 0);
        let mut f = Field::one_file(&a, 2);
        turn(&a, &mut f, true, &[0, 0]);
        assert_eq!(f.front[0][0].moved, 0);
        assert_eq!(pips(&f, 0), (LwStatus::InLine, 2));
        let a = army(side(lw::UnitType::Line, 3), side(lw::UnitType::Line, 6), 0);
        let mut f = Field::one_file(&a, 2);
        turn(&a, &mut f, true, &[0, 0, 6, 1, 1, 6, 1, 6]);
        assert_eq!(f.front[0][0].moved, 1);
        assert_eq!(pips(&f, 0).0, LwStatus::Removed);
        assert_eq!(pips(&f, 1), (LwStatus::InLine, 5));
    }

    /// LW-3 gives the charged unit its closing fire and says nothing of the charger firing:
    /// by default it does not (B's volley, the closing fire, the rounds); under
    /// `chargers_fire` its volley comes first (A's volley, B's, the closing fire, the rounds).
    /// The rounds: A 6 + 1 (charging) against B 1, B loses; A follows up, 1 + 1 against 6,
    /// and loses; B follows up the reversal, 6 + 1 against 1: A's second loss destroys it.
    #[test]
    fn a_charger_fires_only_under_chargers_fire() {
        let a = army(side(lw::UnitType::Line, 6), side(lw::UnitType::Line, 6), 0);
        let rounds = [6, 1, 1, 6, 6, 1];
        let mut f = Field::one_file(&a, 1);
        let mut dice = vec![0, 0];
        dice.extend(rounds);
        turn(&a, &mut f, true, &dice);
        let mut a = a;
        a.chargers_fire = true;
        let mut f = Field::one_file(&a, 1);
        let mut dice = vec![0, 0, 0];
        dice.extend(rounds);
        turn(&a, &mut f, true, &dice);
    }

    /// LW-1: a charger that the fire phase leaves on its last pip "may perform no offensive
    /// action": by default the declared charge does not go in, and no closing fire is drawn
    /// (B's volley of 5 hits and nothing else rolled). From two moves away the double move
    /// would put a charger the volley left on 2 pips on its last: it stays too. Under
    /// `last_pip_charges` the charge goes in and draws the closing fire: one hit removes it;
    /// with none it halts there, on its last pip (LW-1 at the closing fire), with no melee.
    #[test]
    fn a_charger_the_volley_leaves_on_its_last_pip_stays() {
        let a = army(side(lw::UnitType::Line, 6), side(lw::UnitType::Line, 6), 0);
        let mut f = Field::one_file(&a, 1);
        turn(&a, &mut f, true, &[5]);
        assert_eq!(pips(&f, 0), (LwStatus::InLine, 1));
        assert_eq!(pips(&f, 1), (LwStatus::InLine, 6));
        let mut f = Field::one_file(&a, 2);
        turn(&a, &mut f, true, &[4]);
        assert_eq!(pips(&f, 0), (LwStatus::InLine, 2));
        assert_eq!(f.front[0][0].moved, 0, "no double move, no pip paid");
        let mut a = a;
        a.last_pip_charges = true;
        let mut f = Field::one_file(&a, 1);
        turn(&a, &mut f, true, &[5, 1]);
        assert_eq!(pips(&f, 0), (LwStatus::Removed, 0));
        let mut f = Field::one_file(&a, 1);
        turn(&a, &mut f, true, &[5, 0]);
        assert_eq!(pips(&f, 0), (LwStatus::InLine, 1));
        assert_eq!(pips(&f, 1), (LwStatus::InLine, 6));
    }

    /// LW-1 with `last_pip_fires` (the source does not say whether firing is offensive): by
    /// default a unit on its last pip gives closing fire at a charge but no fire-phase volley.
    #[test]
    fn a_unit_on_its_last_pip_gives_only_closing_fire() {
        let mut b = side(lw::UnitType::Line, 1);
        let a = army(side(lw::UnitType::Line, 6), b, 0);
        let mut f = Field::one_file(&a, 1);
        // No charge: A's volley (no hit) and nothing from B.
        turn(&a, &mut f, false, &[0]);
        // A charges: B's closing fire (no hit), then a round (A 6 + 1 + 1 against 1 + 0): B
        // loses its last pip and is removed.
        let mut f = Field::one_file(&a, 1);
        turn(&a, &mut f, true, &[0, 6, 1]);
        assert_eq!(pips(&f, 1), (LwStatus::Removed, 0));
        // Under `all` it fires in the fire phase too; under `none` not even at the charge.
        b.numbers.last_pip_fires = lw::LastPipFires::All;
        let a = army(side(lw::UnitType::Line, 6), b, 0);
        let mut f = Field::one_file(&a, 1);
        turn(&a, &mut f, false, &[0, 0]);
        b.numbers.last_pip_fires = lw::LastPipFires::None;
        let a = army(side(lw::UnitType::Line, 6), b, 0);
        let mut f = Field::one_file(&a, 1);
        turn(&a, &mut f, true, &[6, 1]);
        assert_eq!(pips(&f, 1), (LwStatus::Removed, 0));
    }
}
