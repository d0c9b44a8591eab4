//! `under-fire` (docs/RULES.md §4): an Age of Linear Warfare unit holds its place under enemy fire.

use super::Ctx;
use super::params::{FireFrom, HOLES};
use super::rules::{self as lw, LwState, LwStatus, Pips};
use super::unit::{coin_words, volley_dice};
use crate::chain::{Chain, ClassInfo, ValueInfo};
use crate::dice::{Roll, Weights};
use crate::error::{Error, Result};
use crate::scenario::fire::Fire;
use crate::scenario::fire::{FireParams, fire_model};
use crate::scenario::invariants::Check;
use crate::scenario::{EMPTY_TURNS, Job, MetricDef, OutcomeDef, TableDef};

/// Classes of an Age of Linear Warfare unit under fire: falling back in good order leaves its
/// place empty, as does removal (which ends the trial).
pub const LW_UNDER_FIRE_CLASSES: [ClassInfo; 3] = [
    ClassInfo {
        name: "in_line",
        absorbing: false,
        empty: false,
    },
    ClassInfo {
        name: "falling_back",
        absorbing: false,
        empty: true,
    },
    ClassInfo {
        name: "removed",
        absorbing: true,
        empty: true,
    },
];

/// An Age of Linear Warfare unit under fire. Each turn: a unit falling back retires (the turn
/// it decided) or recovers a pip (LW-5), rejoining the line the turn after it reaches
/// `return_at` pips (the turn it recovers is one in which it does nothing else); the enemy fires
/// at it (not while it falls back out of range), each hit a pip (LW-2; a general bears half, by
/// coin, LW-6); a unit in the line at or below `fall_back_at` pips falls back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LwUnderFire {
    /// Pips the unit starts with (and recovers up to).
    pub pips: u8,
    /// Its state at the start.
    pub start: LwState,
    /// Turns of fire.
    pub turns: u32,
    /// The enemy's fire each turn, in hits (= pips).
    pub fire: Fire,
    /// When it falls back and rejoins (LW-5).
    pub fall_back: lw::FallBack,
    /// LW-6: one coin flip per volley or per pip.
    pub general_coin: lw::GeneralCoin,
    coin: Weights,
    values: [ValueInfo; 1],
}

impl LwUnderFire {
    /// A unit of `pips` pips under `fire`.
    pub fn new(
        pips: u8,
        start: LwState,
        turns: u32,
        fire: Fire,
        fall_back: lw::FallBack,
        general_coin: lw::GeneralCoin,
    ) -> Self {
        LwUnderFire {
            pips,
            start,
            turns,
            fire,
            fall_back,
            general_coin,
            coin: lw::coin(),
            values: [ValueInfo {
                name: "pips_lost",
                max: u32::from(pips),
            }],
        }
    }
}

impl Chain for LwUnderFire {
    type State = LwState;
    /// LW-1 / LW-5 / LW-6 (see [`super::invariants::lw_pips`]): a unit gains a pip only in a turn
    /// it spends recovering.
    fn check_step(&self, from: LwState, to: LwState) -> Check {
        super::invariants::lw_unit(self.pips, from, to)
    }
    fn start(&self) -> LwState {
        self.start
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    #[inline]
    fn step<R: Roll>(&self, mut s: LwState, r: &mut R) -> LwState {
        match s.status {
            LwStatus::Removed => return s,
            LwStatus::Retiring => s.status = LwStatus::Recovering,
            // LW-5: a pip a turn "in which it may perform no other actions": the turn it
            // recovers its last pip is one of those, so it rejoins the line the turn after.
            LwStatus::Recovering => s = self.fall_back.recover(s, self.pips),
            LwStatus::InLine => {}
        }
        let fired_at = s.status == LwStatus::InLine || !self.fall_back.out_of_range;
        if fired_at {
            let hits = self.fire.sample(r);
            s.pips = s.pips.lose(hits, self.general_coin, &self.coin, r);
            if s.pips.unit == 0 {
                s.status = LwStatus::Removed;
                return s;
            }
        }
        if s.status == LwStatus::InLine && s.pips.unit <= self.fall_back.at {
            s.status = LwStatus::Retiring;
        }
        s
    }
    fn classes(&self) -> &[ClassInfo] {
        &LW_UNDER_FIRE_CLASSES
    }
    #[inline]
    fn class_of(&self, s: LwState) -> usize {
        match s.status {
            LwStatus::InLine => 0,
            LwStatus::Retiring | LwStatus::Recovering => 1,
            LwStatus::Removed => 2,
        }
    }
    fn values(&self) -> &[ValueInfo] {
        &self.values
    }
    fn value_of(&self, s: LwState, _i: usize) -> u32 {
        u32::from(self.pips.saturating_sub(s.pips.unit))
    }
}

/// Strength in the line (docs/RULES.md §4): the unit's own pips while it stands in the line;
/// nothing while it falls back or once removed.
impl crate::scenario::strength::Holds for LwUnderFire {
    fn full(&self) -> u32 {
        u32::from(self.pips)
    }
    fn held(&self, s: LwState) -> u32 {
        if self.classes()[self.class_of(s)].empty {
            return 0;
        }
        u32::from(s.pips.unit)
    }
}

/// The job of `under-fire`: the unit under enemy fire, falling back and recovering (LW-2, LW-5,
/// LW-6).
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (p, q, n) = (&ctx.p, &ctx.q, &ctx.n);
    let mut notes = Vec::new();
    let pips = p.pips;
    let general = p.general;
    let joins = p.general_joins;
    if joins && !general {
        return Err(Error::Conflict(
            "--set general_joins=true needs a general: add --general".into(),
        ));
    }
    let type_max = n.pips(p.unit_type);
    let start_pips = if joins {
        (pips + 1).min(type_max.max(pips))
    } else {
        pips
    };
    let fall_back_at = p.fall_back_at;
    let return_at = match p.return_at {
        0 => start_pips,
        r => r,
    };
    if fall_back_at > 0
        && (fall_back_at >= start_pips || return_at <= fall_back_at || return_at > start_pips)
    {
        return Err(Error::Conflict(format!(
            "fall_back_at={fall_back_at} and return_at={return_at} do not fit a unit of {start_pips} pips: need fall_back_at < return_at <= {start_pips}"
        )));
    }
    let fire = if p.fire_loss.is_empty() && p.fire_from == FireFrom::Infantry {
        Fire::dice(p.fire_dice, n.fire_to_hit(p.cover, p.flanking))
    } else if p.fire_loss.is_empty() {
        let (dice, to_hit) = volley_dice((p, n), false, false)?;
        Fire::dice(dice, to_hit)
    } else {
        fire_model(&FireParams {
            dice: p.fire_dice,
            to_hit: n.fire_to_hit(p.cover, p.flanking),
            loss: p.fire_loss.clone(),
            dice_given: p.how.fire_dice.given.then(|| p.how.fire_dice.what.clone()),
            loss_what: p.how.fire_loss.what.clone(),
        })?
    };
    notes.push(format!(
        "enemy fire each turn: {} ({} on average); a unit leaves a hole in the line when {}",
        fire.description(),
        crate::report::up_to_units(fire.mean(), 3, "pip", "pips"),
        crate::system::holes_when(HOLES)
    ));
    if general {
        notes.push(format!(
            "a general is attached: the coin is flipped {} (LW-6)",
            coin_words(q.general_coin)
        ));
    }
    if fall_back_at > 0 {
        notes.push(format!(
            "falls back at {fall_back_at} pips or fewer, recovers a pip a turn after the turn it retires (doing nothing else), and rejoins the line the turn after it reaches {return_at} (LW-5)"
        ));
    }
    let start = LwState {
        status: LwStatus::InLine,
        pips: Pips {
            unit: start_pips,
            general: if general { n.general_pips } else { 0 },
        },
    };
    let chain = LwUnderFire::new(
        start_pips,
        start,
        p.turns,
        fire,
        lw::FallBack {
            at: fall_back_at,
            return_at,
            out_of_range: p.fall_back_out_of_range,
        },
        q.general_coin,
    );
    let c = chain.classes();
    let outcomes = OutcomeDef::each(c, &["in_line", "falling_back", "removed"]);
    let turn_removed = MetricDef::absorb_turn(
        c,
        "turn_removed",
        "removed",
        "turn of removal, among units removed",
    );
    Ok(crate::scenario::strength::job(
        chain,
        ctx.setup.describe(notes),
        outcomes,
        vec![
            EMPTY_TURNS,
            turn_removed,
            MetricDef::Value {
                name: "pips_lost",
                meaning: "pips down from the start at the end (recovered pips count back)",
            },
        ],
        vec![TableDef::PerTurn {
            name: "per_turn",
            title: "State after each turn",
        }],
        ctx.p.measure_strength.then_some(ctx.p.weak_share),
    ))
}

/// The turn from the rules' words, with scripted dice (a hit table is "picked" by the scripted
/// value, so a value in the fire's place is its number of hits; a coin's value 1 is the
/// general's side). Each turn checks the state after it and that no other die was rolled.
#[cfg(test)]
mod tests {
    use super::*;

    fn state(status: LwStatus, unit: u8, general: u8) -> LwState {
        LwState {
            status,
            pips: lw::Pips { unit, general },
        }
    }

    /// Line infantry (6 pips) under three dice on 4+, falling back at `at` pips and rejoining
    /// at `return_at`; the general's coin as given.
    fn chain(at: u8, return_at: u8, coin: lw::GeneralCoin) -> LwUnderFire {
        LwUnderFire::new(
            6,
            state(LwStatus::InLine, 6, 0),
            12,
            Fire::dice(3, 4),
            lw::FallBack {
                at,
                return_at,
                out_of_range: true,
            },
            coin,
        )
    }

    fn turn(c: &LwUnderFire, s: LwState, dice: &[u8]) -> LwState {
        crate::chain::scripted_step(c, s, dice)
    }

    /// LW-2: each hit removes a pip; LW-1: at 0 pips the unit is removed, and a removed unit is
    /// not fired at again.
    #[test]
    fn each_hit_is_a_pip_and_the_last_removes() {
        let c = chain(0, 6, lw::GeneralCoin::PerAttack);
        let s = turn(&c, state(LwStatus::InLine, 6, 0), &[2]);
        assert_eq!(s, state(LwStatus::InLine, 4, 0));
        let s = turn(&c, state(LwStatus::InLine, 2, 0), &[3]);
        assert_eq!(s.status, LwStatus::Removed);
        assert_eq!(s.pips.unit, 0);
        assert_eq!(turn(&c, s, &[]), s);
    }

    /// LW-5: at `fall_back_at` pips or fewer the unit falls back: it spends the next turn
    /// retiring a full move, then recovers a pip a turn out of the enemy's range, and rejoins
    /// the line the turn after it reaches `return_at`, fired at again from then.
    #[test]
    fn falling_back_retires_recovers_and_rejoins() {
        let c = chain(3, 5, lw::GeneralCoin::PerAttack);
        // Three hits: 3 pips, at the threshold: it falls back (retiring next turn).
        let s = turn(&c, state(LwStatus::InLine, 6, 0), &[3]);
        assert_eq!(s, state(LwStatus::Retiring, 3, 0));
        // Retiring: out of range, no pip back yet.
        let s = turn(&c, s, &[]);
        assert_eq!(s, state(LwStatus::Recovering, 3, 0));
        // A pip a turn, out of range: 4, then 5 = return_at; that turn is still one "in which
        // it may perform no other actions", so it is out of the line and not fired at.
        let s = turn(&c, s, &[]);
        assert_eq!(s, state(LwStatus::Recovering, 4, 0));
        let s = turn(&c, s, &[]);
        assert_eq!(s, state(LwStatus::Recovering, 5, 0));
        // The turn after, back in the line and fired at (one hit).
        let s = turn(&c, s, &[1]);
        assert_eq!(s, state(LwStatus::InLine, 4, 0));
        // ... and at 4 it is above the threshold, so it holds.
        let s = turn(&c, s, &[0]);
        assert_eq!(s, state(LwStatus::InLine, 4, 0));
    }

    /// LW-6 `per-attack`: one coin for the whole volley; the general bears it all (up to his
    /// pips, the rest passing to the unit) or the unit does. `per-pip`: a coin for every pip
    /// until the general's are gone.
    #[test]
    fn the_generals_coin() {
        let per_attack = chain(0, 6, lw::GeneralCoin::PerAttack);
        // Three hits, the coin to the general (1): his two pips, then one to the unit.
        let s = turn(&per_attack, state(LwStatus::InLine, 6, 2), &[3, 1]);
        assert_eq!(s, state(LwStatus::InLine, 5, 0));
        // The coin to the unit (0): all three.
        let s = turn(&per_attack, state(LwStatus::InLine, 6, 2), &[3, 0]);
        assert_eq!(s, state(LwStatus::InLine, 3, 2));
        let per_pip = chain(0, 6, lw::GeneralCoin::PerPip);
        // Three hits: unit, general, unit.
        let s = turn(&per_pip, state(LwStatus::InLine, 6, 2), &[3, 0, 1, 0]);
        assert_eq!(s, state(LwStatus::InLine, 4, 1));
        // No hit: no coin.
        let s = turn(&per_pip, state(LwStatus::InLine, 6, 2), &[0]);
        assert_eq!(s, state(LwStatus::InLine, 6, 2));
    }
}
