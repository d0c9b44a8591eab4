//! The Age of Linear Warfare (`linear-warfare`, docs/RULES.md LW-1 to LW-7): pips, fire, the
//! opposed-roll melee with follow-up, falling back in good order, generals. Plain game logic.

use crate::dice::{Roll, Weights};
use crate::params::choice_value;

/// LW-1: a unit's type, which sets its pips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitType {
    /// Line infantry: 6 pips.
    Line,
    /// Guards: 7 pips (the extra "seventh" pip), +1 in melee (LW-4).
    Guards,
    /// Light infantry: 4 pips.
    Light,
    /// Line cavalry: 6 pips, a 40 cm move; cavalry do not shoot (LW-2), so no fire and no
    /// closing fire.
    Cavalry,
}

impl UnitType {
    /// Every type.
    pub const ALL: [UnitType; 4] = [
        UnitType::Line,
        UnitType::Guards,
        UnitType::Light,
        UnitType::Cavalry,
    ];
    /// LW-1: the pips a unit of this type starts with.
    pub fn pips(self) -> u8 {
        match self {
            UnitType::Line | UnitType::Cavalry => 6,
            UnitType::Guards => 7,
            UnitType::Light => 4,
        }
    }
    /// LW-2: "Cavalry do not shoot": whether units of this type fire at all (in the fire
    /// phase and as a charge goes in).
    pub fn shoots(self) -> bool {
        self != UnitType::Cavalry
    }
    /// The name used on the command line and in unit specs.
    pub fn name(self) -> &'static str {
        match self {
            UnitType::Line => "line",
            UnitType::Guards => "guards",
            UnitType::Light => "light",
            UnitType::Cavalry => "cavalry",
        }
    }
    /// Parse a name.
    pub fn parse(s: &str) -> Option<UnitType> {
        UnitType::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// LW-6: a general's pips.
pub const GENERAL_PIPS: u8 = 2;

/// LW-2: artillery dice by range band 1 to 4 (25 cm each).
pub fn artillery_dice(band: u8) -> Option<u32> {
    match band {
        1 => Some(5),
        2 => Some(3),
        3 => Some(2),
        4 => Some(1),
        _ => None,
    }
}

/// LW-2: the roll a fire die needs: 4+, −1 per die for cover (so 5+), +1 for flanking fire
/// (so 3+).
pub fn fire_to_hit(cover: bool, flanking: bool) -> u8 {
    4 + u8::from(cover) - u8::from(flanking)
}

/// LW-2 with option `dice-follow-pips`: infantry roll one die per stand, or, under the option,
/// no more dice than they have pips left.
pub fn infantry_dice(stands: u8, pips: u8, dice_follow_pips: bool) -> u32 {
    u32::from(if dice_follow_pips {
        stands.min(pips)
    } else {
        stands
    })
}

/// LW-4: one opposed roll. `difference` is the first side's modifiers minus the second's.
/// Returns `Ordering::Greater` when the first side wins, `Equal` for a draw.
#[inline(always)]
pub fn opposed<R: Roll>(difference: i32, r: &mut R) -> std::cmp::Ordering {
    let a = i32::from(r.d6()) + difference;
    let b = i32::from(r.d6());
    a.cmp(&b)
}

/// A side's pips and its general's, as they stand during a fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pips {
    /// The unit's pips (0: removed, LW-1).
    pub unit: u8,
    /// Its attached general's pips (0: no general, or he has fallen).
    pub general: u8,
}

/// LW-5: when a unit falls back out of the line and when it rejoins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FallBack {
    /// It falls back at or below this many pips (0: never).
    pub at: u8,
    /// It rejoins the line on recovering to this many pips.
    pub return_at: u8,
    /// A unit falling back is out of the enemy's range.
    pub out_of_range: bool,
}

/// LW-6: how often the coin is flipped when a unit with a general attached is attacked. The
/// source says the unit "must flip a coin to see which of them bears any pip loss", but not
/// whether one attack is one flip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GeneralCoin {
    /// One flip for one attack (a volley, the closing fire, one melee round): the whole loss of
    /// that attack goes to the one it picks (a general who falls passes the rest to the unit).
    #[default]
    PerAttack,
    /// One flip for every pip lost.
    PerPip,
}

impl GeneralCoin {
    /// Every choice, in the order `list` shows them.
    pub const ALL: [GeneralCoin; 2] = [GeneralCoin::PerAttack, GeneralCoin::PerPip];
    /// The name used on the command line and in outputs.
    pub fn name(self) -> &'static str {
        match self {
            GeneralCoin::PerAttack => "per-attack",
            GeneralCoin::PerPip => "per-pip",
        }
    }
    /// Parse a name.
    pub fn parse(s: &str) -> Option<GeneralCoin> {
        Self::ALL.into_iter().find(|x| x.name() == s)
    }
}

/// The fair coin of LW-6: outcome 1 means the general bears the loss.
pub fn coin() -> Weights {
    Weights::new(vec![1, 1]).expect("two outcomes")
}

impl Pips {
    /// LW-6: one pip lost by a unit that may have a general attached: with a general a coin
    /// decides who bears it.
    #[inline(always)]
    pub fn lose_one<R: Roll>(mut self, coin: &Weights, r: &mut R) -> Pips {
        if self.general > 0 && r.pick(coin) == 1 {
            self.general -= 1;
        } else {
            self.unit = self.unit.saturating_sub(1);
        }
        self
    }

    /// `n` pips lost to one attack (LW-2: each hit removes one pip). With a general attached
    /// (LW-6) the coin decides who bears them: once for the whole attack (`per-attack`: if it
    /// picks the general and he has fewer pips than the loss, he falls and the unit bears the
    /// rest), or once for each pip (`per-pip`).
    #[inline(always)]
    pub fn lose<R: Roll>(mut self, n: u32, how: GeneralCoin, coin: &Weights, r: &mut R) -> Pips {
        if n == 0 || self.unit == 0 {
            return self;
        }
        if how == GeneralCoin::PerAttack || self.general == 0 {
            if self.general > 0 && r.pick(coin) == 1 {
                let his = n.min(u32::from(self.general)) as u8;
                self.general -= his;
                self.unit = self
                    .unit
                    .saturating_sub((n - u32::from(his)).min(255) as u8);
            } else {
                self.unit = self.unit.saturating_sub(n.min(255) as u8);
            }
            return self;
        }
        for _ in 0..n {
            if self.unit == 0 {
                break;
            }
            self = self.lose_one(coin, r);
        }
        self
    }
}

/// LW-4: a side of a melee, as given by its unit spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Side {
    /// Its type.
    pub kind: UnitType,
    /// Pips at the start (LW-1; overridable).
    pub pips: u8,
    /// Stands, for its fire (LW-2).
    pub stands: u8,
    /// It charges into the melee: +1 in the first round (LW-4); the defender fires as the
    /// charge goes in (LW-3).
    pub charging: bool,
    /// The charge is a double move, which costs a pip before the closing fire (LW-3: a unit
    /// "may expend a pip to gain a double move to charge"). Implies `charging`.
    pub double_move: bool,
    /// It defends a linear obstacle: +1 (LW-4).
    pub obstacle: bool,
    /// A general is attached (LW-6).
    pub general: bool,
}

impl Side {
    /// LW-4: this side's modifiers in a round: +1 for Guards in every round; +1 for charging
    /// and +1 for defending a linear obstacle in the first round only, the charge's impact
    /// (in a follow-up round the winner has its follow-up +1 instead, and the loser, pushed
    /// back, no longer holds the obstacle).
    pub fn round_modifiers(&self, first_round: bool) -> i32 {
        i32::from(self.kind == UnitType::Guards)
            + if first_round {
                i32::from(self.obstacle) + i32::from(self.charging)
            } else {
                0
            }
    }
}

choice_value!(UnitType, UnitType::parse);
choice_value!(GeneralCoin, GeneralCoin::parse);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::enumerate;
    use std::cmp::Ordering;

    fn round_odds(difference: i32) -> (f64, f64, f64) {
        let (mut w, mut d, mut l) = (0.0, 0.0, 0.0);
        enumerate(
            |o| opposed(difference, o),
            |res, p| match res {
                Ordering::Greater => w += p,
                Ordering::Equal => d += p,
                Ordering::Less => l += p,
            },
        );
        (w, d, l)
    }

    #[test]
    fn lw4_opposed_round() {
        let (w, d, l) = round_odds(0);
        assert!((w - 15.0 / 36.0).abs() < 1e-12 && (d - 6.0 / 36.0).abs() < 1e-12);
        assert!((l - 15.0 / 36.0).abs() < 1e-12);
        let (w, d, _) = round_odds(1);
        assert!((w - 21.0 / 36.0).abs() < 1e-12 && (d - 5.0 / 36.0).abs() < 1e-12);
        let (w, d, l) = round_odds(-1);
        assert!((l - 21.0 / 36.0).abs() < 1e-12 && (d - 5.0 / 36.0).abs() < 1e-12 && w > 0.0);
    }

    #[test]
    fn lw2_fire() {
        assert_eq!(fire_to_hit(false, false), 4);
        assert_eq!(fire_to_hit(true, false), 5);
        assert_eq!(fire_to_hit(false, true), 3);
        assert_eq!(fire_to_hit(true, true), 4);
        assert_eq!(
            (1..=4)
                .map(|b| artillery_dice(b).unwrap())
                .collect::<Vec<_>>(),
            [5, 3, 2, 1]
        );
        assert_eq!(artillery_dice(5), None);
        assert_eq!(infantry_dice(6, 3, false), 6);
        assert_eq!(infantry_dice(6, 3, true), 3);
        // 6 dice at 4+: 3 hits on average, none at all 1/64 of the time.
        let t = Weights::hits(6, fire_to_hit(false, false));
        assert!((t.p(0) - 1.0 / 64.0).abs() < 1e-15);
        let mean: f64 = (0..t.len()).map(|k| k as f64 * t.p(k)).sum();
        assert!((mean - 3.0).abs() < 1e-12);
    }

    #[test]
    fn lw6_general_shares_losses() {
        let c = coin();
        let mut p_gen = 0.0;
        enumerate(
            |o| {
                Pips {
                    unit: 6,
                    general: 2,
                }
                .lose_one(&c, o)
            },
            |p, q| {
                if p.general == 1 {
                    p_gen += q
                }
            },
        );
        assert!((p_gen - 0.5).abs() < 1e-15);
        // No general: the unit always bears it; nothing below zero.
        let mut d = crate::dice::Scripted::new(&[]);
        let p = Pips {
            unit: 1,
            general: 0,
        }
        .lose(3, GeneralCoin::PerPip, &c, &mut d);
        assert_eq!(
            p,
            Pips {
                unit: 0,
                general: 0
            }
        );
        assert_eq!(UnitType::Guards.pips(), 7);
    }

    #[test]
    fn lw6_one_flip_for_one_attack() {
        // "Any unit attacked whilst with a General attached must flip a coin to see which of
        // them bears any pip loss": per attack, one flip decides who bears the whole volley.
        let c = coin();
        let start = Pips {
            unit: 6,
            general: 2,
        };
        let mut seen = std::collections::BTreeMap::new();
        enumerate(
            |o| start.lose(2, GeneralCoin::PerAttack, &c, o),
            |p, q| *seen.entry((p.unit, p.general)).or_insert(0.0) += q,
        );
        // Half the time the unit loses both, half the time the general does: never one each.
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert!((seen[&(4, 2)] - 0.5).abs() < 1e-15 && (seen[&(6, 0)] - 0.5).abs() < 1e-15);
        // Per pip, one each half the time.
        let mut split = 0.0;
        enumerate(
            |o| start.lose(2, GeneralCoin::PerPip, &c, o),
            |p, q| {
                if p.unit == 5 {
                    split += q
                }
            },
        );
        assert!((split - 0.5).abs() < 1e-15);
        // Three hits on the general: he falls with two, the unit bears the third.
        let mut d = crate::dice::Scripted::new(&[1]);
        assert_eq!(
            start.lose(3, GeneralCoin::PerAttack, &c, &mut d),
            Pips {
                unit: 5,
                general: 0
            }
        );
        assert_eq!(UnitType::Cavalry.pips(), 6);
        assert!(!UnitType::Cavalry.shoots() && UnitType::Light.shoots());
    }
}
