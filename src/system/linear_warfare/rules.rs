//! The Age of Linear Warfare (`linear-warfare`, docs/RULES.md LW-1 to LW-7): pips, fire, the
//! opposed-roll melee with follow-up, falling back in good order, generals. Plain game logic.

use crate::dice::{Roll, Weights};
use crate::params::choice_value;
use crate::system::named::named_enum;

named_enum! {
    /// LW-1: a unit's type, which sets its pips. [`UnitType::ALL`] lists them in the order of
    /// [`Numbers::pips`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum UnitType {
        /// Line infantry: 6 pips.
        Line => "line",
        /// Guards: 7 pips (the extra "seventh" pip), +1 in melee (LW-4).
        Guards => "guards",
        /// Light infantry: 4 pips.
        Light => "light",
        /// Line cavalry: 6 pips, a 40 cm move; cavalry do not shoot (LW-2), so no fire and no
        /// closing fire.
        Cavalry => "cavalry",
    }
}

impl UnitType {
    /// LW-1: the pips a unit of this type starts with, as the source gives them (a run reads
    /// [`Numbers::pips`]).
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
}

/// LW-6: a general's pips, as the source gives them (a run reads [`Numbers::general_pips`]).
pub const GENERAL_PIPS: u8 = 2;

/// The numbers of LW-1 to LW-7 a designer may change (rule parameters `pips_line` …
/// `break_point`); [`Numbers::default`] is the source's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Numbers {
    /// LW-1: the starting pips of line, guards, light and cavalry (6, 7, 4, 6).
    pub pips: [u8; 4],
    /// LW-6: a general's pips (2).
    pub general_pips: u8,
    /// LW-2: the roll a fire die needs before cover and flanking (4).
    pub to_hit: u8,
    /// LW-2: how much worse the roll is against cover (1).
    pub cover_penalty: u8,
    /// LW-2: how much better the roll is for flanking fire (1).
    pub flank_bonus: u8,
    /// LW-2: artillery dice in range bands 1 to 4 (5, 3, 2, 1).
    pub artillery_dice: [u8; 4],
    /// LW-4: the Guards' bonus in every round (+1).
    pub guards_bonus: i8,
    /// LW-4: the charger's bonus in the first round (+1).
    pub charge_bonus: i8,
    /// LW-4: the bonus for defending a linear obstacle in the first round (+1).
    pub obstacle_bonus: i8,
    /// LW-4: pips more than the opponent that earn [`Numbers::pip_gap_bonus`] (2).
    pub pip_gap: u8,
    /// LW-4: the bonus for having `pip_gap` pips more than the opponent (+1).
    pub pip_gap_bonus: i8,
    /// LW-4: the bonus of a winner following up (+1).
    pub follow_up_bonus: i8,
    /// LW-4: lost rounds that destroy a unit whatever its pips (2: "a second lost round";
    /// 0: only pips destroy).
    pub losses_to_destroy: u8,
    /// LW-3: pips a double move to charge costs (1).
    pub double_move_cost: u8,
    /// LW-4: a side that loses a round and wins the follow-up (a reversal) may follow up in
    /// turn (true; the source does not say; false: the reversal ends the melee, its winner
    /// winning it).
    pub reversal_follow_up: bool,
    /// LW-1: whether a unit on its last pip, which "may perform no offensive action", still
    /// fires (the source does not say whether firing is offensive).
    pub last_pip_fires: LastPipFires,
    /// LW-4: what a drawn round after the first does ("Draws result in a mutual push-back").
    pub follow_up_draw: FollowUpDraw,
    /// LW-4: in which rounds the charger has its +1 for "charging into melee".
    pub charge_bonus_rounds: ChargeBonusRounds,
}

crate::params::choice_enum! {
    /// LW-4: a drawn round once a side has lost one. The source: "Draws result in a mutual
    /// push-back of a full move", with no exception for a follow-up round.
    pub enum FollowUpDraw {
        /// Every draw is the mutual push-back: the melee ends there, won by neither (`bounce`).
        PushBack = "push-back",
        /// The tool's earlier reading: a drawn follow-up ends the melee won by the side that
        /// won the round before.
        EarlierWinner = "earlier-winner",
    }
}

crate::params::choice_enum! {
    /// LW-4: the rounds in which the charger's +1 for "charging into melee" counts.
    pub enum ChargeBonusRounds {
        /// The first round only: the charge going in. After it the winner follows up with its
        /// own +1 and the loser has been pushed back.
        First = "first",
        /// Every round of the melee the charge began, whoever follows up.
        Every = "every",
    }
}

crate::params::choice_enum! {
    /// LW-1: what a unit down to its last pip may still shoot.
    pub enum LastPipFires {
        /// Only its closing fire at a charge coming in (LW-3), which is defence; firing in the
        /// fire phase is offensive action.
        ClosingOnly = "closing-only",
        /// Every volley: firing is not offensive action.
        All = "all",
        /// Nothing.
        None = "none",
    }
}

impl Default for Numbers {
    fn default() -> Self {
        Numbers {
            pips: UnitType::ALL.map(UnitType::pips),
            general_pips: GENERAL_PIPS,
            to_hit: 4,
            cover_penalty: 1,
            flank_bonus: 1,
            artillery_dice: [5, 3, 2, 1],
            guards_bonus: 1,
            charge_bonus: 1,
            obstacle_bonus: 1,
            pip_gap: 2,
            pip_gap_bonus: 1,
            follow_up_bonus: 1,
            losses_to_destroy: 2,
            double_move_cost: 1,
            reversal_follow_up: true,
            last_pip_fires: LastPipFires::ClosingOnly,
            follow_up_draw: FollowUpDraw::PushBack,
            charge_bonus_rounds: ChargeBonusRounds::First,
        }
    }
}

impl Numbers {
    /// LW-1: the pips a unit of `kind` starts with.
    pub fn pips(&self, kind: UnitType) -> u8 {
        self.pips[kind as usize]
    }

    /// LW-2: artillery dice by range band 1 to 4 (25 cm each): 5, 3, 2, 1.
    pub fn artillery_dice(&self, band: u8) -> Option<u32> {
        (1..=4)
            .contains(&band)
            .then(|| u32::from(self.artillery_dice[usize::from(band) - 1]))
    }

    /// LW-2: the roll a fire die needs: 4+, −1 per die for cover (so 5+), +1 for flanking fire
    /// (so 3+), kept within 1 to 7 (7: no die hits).
    pub fn fire_to_hit(&self, cover: bool, flanking: bool) -> u8 {
        let cover = if cover {
            i32::from(self.cover_penalty)
        } else {
            0
        };
        let flank = if flanking {
            i32::from(self.flank_bonus)
        } else {
            0
        };
        (i32::from(self.to_hit) + cover - flank).clamp(1, 7) as u8
    }

    /// LW-4: a side with `losses` rounds lost or no pips left is destroyed.
    pub fn destroyed(&self, unit_pips: u8, losses: u8) -> bool {
        unit_pips == 0 || (self.losses_to_destroy > 0 && losses >= self.losses_to_destroy)
    }

    /// LW-4: the bonus of a side with `me` pips against one with `them`.
    pub fn gap_bonus(&self, me: u8, them: u8) -> i32 {
        if u32::from(me) >= u32::from(them) + u32::from(self.pip_gap) {
            i32::from(self.pip_gap_bonus)
        } else {
            0
        }
    }
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

impl FallBack {
    /// LW-5, the start of a turn of a unit recovering, of `start` pips at the start: a unit
    /// already at `return_at` (0: `start`) rejoins the line and acts this turn; otherwise it
    /// recovers a pip and stays out of the line, this being a turn "in which it may perform no
    /// other actions" — so the turn it regains its last pip it still does nothing else, and
    /// it rejoins the turn after.
    #[inline(always)]
    pub fn recover(&self, mut s: LwState, start: u8) -> LwState {
        let back = match self.return_at {
            0 => start,
            n => n.min(start),
        };
        if s.pips.unit >= back {
            s.status = LwStatus::InLine;
        } else {
            s.pips.unit += 1;
        }
        s
    }
}

named_enum! {
    /// LW-6: how often the coin is flipped when a unit with a general attached is attacked. The
    /// source says the unit "must flip a coin to see which of them bears any pip loss", but not
    /// whether one attack is one flip.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub enum GeneralCoin {
        /// One flip for one attack (a volley, the closing fire, one melee round): the whole
        /// loss of that attack goes to the one it picks (a general who falls passes the rest to
        /// the unit).
        #[default]
        PerAttack => "per-attack",
        /// One flip for every pip lost.
        PerPip => "per-pip",
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

    /// The pips lost to several attacks in a turn, each as [`Pips::lose`]. With no general
    /// there is no coin, and pips taken one attack at a time down to none are their sum,
    /// saturated: taken at once, with no branch on each attack's hits.
    #[inline(always)]
    pub fn lose_all<R: Roll>(
        self,
        attacks: &[u32],
        how: GeneralCoin,
        coin: &Weights,
        r: &mut R,
    ) -> Pips {
        if self.general == 0 {
            let all: u32 = attacks.iter().sum();
            return Pips {
                unit: self.unit.saturating_sub(all.min(255) as u8),
                ..self
            };
        }
        attacks.iter().fold(self, |p, &h| p.lose(h, how, coin, r))
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
    /// The numbers of LW-1 to LW-7 this run plays (rule parameters).
    pub numbers: Numbers,
}

impl Side {
    /// LW-4: this side's modifiers in a round: +1 (`guards_bonus`) for Guards in every round;
    /// +1 for defending a linear obstacle in the first round only (after it the defender has
    /// been pushed back off it, or has followed up over it); +1 for charging in the first
    /// round, the charge going in (in a follow-up round the winner has its follow-up +1
    /// instead), or in every round under `charge_bonus_rounds = every`.
    pub fn round_modifiers(&self, first_round: bool) -> i32 {
        let n = &self.numbers;
        let on = |yes: bool, bonus: i8| if yes { i32::from(bonus) } else { 0 };
        on(self.kind == UnitType::Guards, n.guards_bonus)
            + on(self.obstacle && first_round, n.obstacle_bonus)
            + on(
                self.charging && (first_round || n.charge_bonus_rounds == ChargeBonusRounds::Every),
                n.charge_bonus,
            )
    }

    /// LW-3: the pips this side has when the melee starts: a double move costs
    /// `double_move_cost` (1) first.
    pub fn pips_in_melee(&self) -> u8 {
        if self.double_move {
            self.pips.saturating_sub(self.numbers.double_move_cost)
        } else {
            self.pips
        }
    }
}

choice_value!(UnitType, UnitType::parse);
choice_value!(GeneralCoin, GeneralCoin::parse);

/// Where an Age of Linear Warfare unit under fire stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LwStatus {
    /// In the line.
    InLine,
    /// LW-5: falling back; this turn it retires a full move.
    Retiring,
    /// LW-5: fallen back, recovering a pip a turn.
    Recovering,
    /// LW-1: out of pips.
    Removed,
}

/// An Age of Linear Warfare unit's state under fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LwState {
    /// Where it stands.
    pub status: LwStatus,
    /// Its pips and its general's.
    pub pips: Pips,
}

crate::params::choice_enum! {
    /// LW-4 follow-up policy of the winner of a round (`follow_up`).
    pub enum FollowUp {
        /// Always follow up when LW-1 allows it (not on the last pip).
        Always = "always",
        /// Never follow up.
        Never = "never",
    }
}

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
        let n = Numbers::default();
        assert_eq!(n.fire_to_hit(false, false), 4);
        assert_eq!(n.fire_to_hit(true, false), 5);
        assert_eq!(n.fire_to_hit(false, true), 3);
        assert_eq!(n.fire_to_hit(true, true), 4);
        assert_eq!(
            (1..=4)
                .map(|b| n.artillery_dice(b).unwrap())
                .collect::<Vec<_>>(),
            [5, 3, 2, 1]
        );
        assert_eq!(n.artillery_dice(5), None);
        // The rule parameters reach the same rules.
        let m = Numbers {
            to_hit: 5,
            cover_penalty: 2,
            artillery_dice: [6, 4, 2, 0],
            ..n
        };
        assert_eq!(
            (m.fire_to_hit(true, false), m.fire_to_hit(false, true)),
            (7, 4)
        );
        assert_eq!(m.artillery_dice(1), Some(6));
        assert_eq!(infantry_dice(6, 3, false), 6);
        assert_eq!(infantry_dice(6, 3, true), 3);
        // 6 dice at 4+: 3 hits on average, none at all 1/64 of the time.
        let t = Weights::hits(6, n.fire_to_hit(false, false));
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
        assert_eq!(Numbers::default().pips(UnitType::Light), 4);
    }

    #[test]
    fn lw4_destroyed_and_pip_gap() {
        let n = Numbers::default();
        assert!(!n.destroyed(3, 1) && n.destroyed(3, 2) && n.destroyed(0, 0));
        assert_eq!((n.gap_bonus(7, 5), n.gap_bonus(6, 5)), (1, 0));
        let m = Numbers {
            losses_to_destroy: 0,
            pip_gap: 1,
            pip_gap_bonus: 2,
            ..n
        };
        assert!(!m.destroyed(3, 5) && m.destroyed(0, 0));
        assert_eq!(m.gap_bonus(6, 5), 2);
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

    /// No pip lost, no coin flipped: the scripted dice hold none, so a flip would panic. And a
    /// unit with no pips left loses no more, nor does its general. (Caught the mutant that
    /// made the early return need both.)
    #[test]
    fn lw6_no_loss_no_coin() {
        let c = coin();
        let start = Pips {
            unit: 6,
            general: 2,
        };
        let gone = Pips {
            unit: 0,
            general: 2,
        };
        for how in GeneralCoin::ALL {
            let mut d = crate::dice::Scripted::new(&[]);
            assert_eq!(start.lose(0, how, &c, &mut d), start, "{how:?}");
            assert_eq!(gone.lose(3, how, &c, &mut d), gone, "{how:?}");
            assert_eq!(d.used(), 0);
        }
    }

    /// Each choice of `general_coin` reads back as itself, and nothing else reads. (Caught the
    /// mutants that made `parse` give one choice for every name, or swap them.)
    #[test]
    fn general_coin_names_read_back() {
        for how in GeneralCoin::ALL {
            assert_eq!(GeneralCoin::parse(how.name()), Some(how));
        }
        assert_ne!(GeneralCoin::PerAttack.name(), GeneralCoin::PerPip.name());
        assert_eq!(GeneralCoin::parse("per-coin"), None);
        assert_eq!(GeneralCoin::parse(""), None);
    }
}
