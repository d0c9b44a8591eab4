//! The 25% effectiveness house rule and its retreat amendment (`effectiveness`, docs/RULES.md EF-1 to
//! EF-5). Plain game logic: no I/O, no generators; chance comes from a [`Roll`].

use std::hint::select_unpredictable;

use crate::dice::{Roll, Weights};
use crate::params::choice_value;
use crate::system::named::named_enum;

named_enum! {
    /// EF-2: a unit's class, which sets the score its test must reach. Declared best first, as
    /// [`Class::ALL`] lists them.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Class {
        /// Passes on 3 or more.
        Elite => "elite",
        /// Passes on 4 or more.
        Regular => "regular",
        /// Poor or militia: passes on 5 or more.
        Poor => "poor",
    }
}

impl Class {
    /// EF-2: the score (die plus modifiers) a test must reach, as the source gives it (a
    /// run reads [`Numbers::scores`]).
    pub fn target(self) -> i32 {
        match self {
            Class::Elite => 3,
            Class::Regular => 4,
            Class::Poor => 5,
        }
    }
}

named_enum! {
    /// EF-2 / EF-4: a unit's troop type, which decides whether it can support the unit in
    /// front, whether it blocks a retreat into it, and whether it tests when retreated into.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
    pub enum Troop {
        /// Line infantry (the default).
        #[default]
        Infantry => "infantry",
        /// Cavalry.
        Cavalry => "cavalry",
        /// Light infantry.
        Light => "light",
        /// Artillery.
        Artillery => "artillery",
    }
}

impl Troop {
    /// EF-2: "light infantry and artillery units cannot give support".
    pub fn gives_support(self) -> bool {
        !matches!(self, Troop::Light | Troop::Artillery)
    }
    /// EF-4: a retreat is obstructed by "another unit that is not light infantry or artillery".
    pub fn blocks_retreat(self) -> bool {
        self.gives_support()
    }
    /// EF-4: a friendly blocker "must take a morale test, unless it is cavalry retreated into
    /// by infantry" (light infantry are infantry too).
    pub fn tests_when_retreated_into(self, retreating: Troop) -> bool {
        !(self == Troop::Cavalry && matches!(retreating, Troop::Infantry | Troop::Light))
    }
}

/// Where a unit stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// In its place in the line, in normal action.
    InLine,
    /// EF-3 / EF-5: retreating with its back to the enemy, out of the line until it rolls to
    /// return to normal action.
    Retreating,
    /// EF-1: at 0% effectiveness, or EF-4: its retreat was blocked.
    Eliminated,
}

/// The numbers of EF-1, EF-2 and EF-5 a designer may change (rule parameters `score_elite` …
/// `return_general_bonus`); [`Numbers::default`] is the source's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Numbers {
    /// EF-2: the scores Elite, Regular and Poor tests must reach (3, 4, 5).
    pub scores: [i8; 3],
    /// EF-2: the attached general's bonus to tests (+1).
    pub general_bonus: i8,
    /// EF-2: a supported unit's bonus to tests (+1).
    pub support_bonus: i8,
    /// EF-5: the attached general's bonus to the roll to return to action (+1).
    pub return_general_bonus: i8,
    /// EF-1: the steps of effectiveness a unit has, each 100%/steps (4 steps of 25%).
    pub steps: u8,
}

impl Default for Numbers {
    fn default() -> Self {
        Numbers {
            scores: [
                Class::Elite.target() as i8,
                Class::Regular.target() as i8,
                Class::Poor.target() as i8,
            ],
            general_bonus: 1,
            support_bonus: 1,
            return_general_bonus: 1,
            steps: 4,
        }
    }
}

/// A unit's fixed profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unit {
    /// EF-2 class.
    pub class: Class,
    /// EF-2: a general is attached (+1 to tests; +1 to the roll to return, EF-5).
    pub general: bool,
    /// EF-2: supported by a friendly unit directly behind (+1 to tests).
    pub supported: bool,
    /// Option `natural-one-fails`: a natural 1 fails the test whatever the modifiers.
    pub natural_one_fails: bool,
    /// EF-5: the die roll (before the general's +1) a retreating unit needs to return to normal
    /// action (the source: 5).
    pub return_on: u8,
    /// Its troop type (EF-2, EF-4).
    pub troop: Troop,
    /// Option `return-roll`, the amendment's addition: a retreating unit rolls `return_on`+ at
    /// the start of each move to return to normal action.
    pub return_roll: bool,
    /// Without `return-roll`: the turns a retreating unit is out of the line before it is back
    /// in action (`retreat_turns`, default 1).
    pub retreat_turns: u8,
    /// The numbers of EF-1, EF-2 and EF-5 this run plays (rule parameters).
    pub numbers: Numbers,
}

/// A unit's state during a trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitState {
    /// Where it stands.
    pub status: Status,
    /// EF-1: effectiveness left, in steps (quarters in the source: 4 = 100%, 0 = eliminated).
    pub quarters: u8,
    /// Hits taken towards the next quarter lost (fewer than `hits_per_quarter`).
    pub hits: u8,
    /// Retreating without `return-roll`: turns still to be spent out of the line.
    pub out: u8,
}

impl Unit {
    /// EF-2: the modifiers on the test: `general_bonus` (+1) with a general attached,
    /// `support_bonus` (+1) when supported.
    pub fn modifiers(&self) -> i32 {
        let n = &self.numbers;
        i32::from(self.general) * i32::from(n.general_bonus)
            + i32::from(self.supported) * i32::from(n.support_bonus)
    }

    /// EF-2: the lowest natural roll that passes, or `None` when no roll passes. Without
    /// `natural-one-fails` an Elite unit with +2 never fails (needs 1).
    pub fn needs(&self) -> Option<u8> {
        let n = (i32::from(self.numbers.scores[self.class as usize]) - self.modifiers()).max(1);
        let n = if self.natural_one_fails { n.max(2) } else { n };
        (n <= 6).then_some(n as u8)
    }

    /// EF-2: take the test.
    #[inline(always)]
    pub fn test<R: Roll>(&self, r: &mut R) -> bool {
        self.test_if(true, r)
    }

    /// EF-2: take the test when `due` (passed or not), else pass without a die: the same dice
    /// and outcome as `!due || self.test(r)`, with no branch on `due` or on the die.
    #[inline(always)]
    pub fn test_if<R: Roll>(&self, due: bool, r: &mut R) -> bool {
        let d = r.d6_if(due);
        // No roll passes: a need of 7 is never met.
        let need = self.needs().unwrap_or(7);
        !due | (d >= need)
    }

    /// EF-5: a retreating unit's roll at the start of a move: return to normal action on
    /// `return_on`+ (+`return_general_bonus`, 1, with a general).
    #[inline(always)]
    pub fn roll_to_return<R: Roll>(&self, r: &mut R) -> bool {
        let general = i32::from(self.general) * i32::from(self.numbers.return_general_bonus);
        i32::from(r.d6()) + general >= i32::from(self.return_on)
    }

    /// EF-5 at the start of a retreating unit's move: is it back in normal action? Under
    /// `return-roll`, the amendment's roll ([`Unit::roll_to_return`]); without it, once its
    /// `retreat_turns` are spent (no die is rolled).
    #[inline(always)]
    pub fn back_in_action<R: Roll>(&self, s: &mut UnitState, r: &mut R) -> bool {
        if self.return_roll {
            return self.roll_to_return(r);
        }
        s.out = s.out.saturating_sub(1);
        s.out == 0
    }

    /// EF-3 / EF-5: a unit that starts retreating (or retreats): its turns out of the line
    /// when there is no return roll.
    pub fn retreating(&self, mut s: UnitState) -> UnitState {
        s.status = Status::Retreating;
        s.out = if self.return_roll {
            0
        } else {
            self.retreat_turns
        };
        s
    }

    /// EF-2's failure: a further step (25%) lost (eliminated at 0%).
    #[inline(always)]
    pub fn lose_quarter(&self, mut s: UnitState) -> UnitState {
        s.quarters = s.quarters.saturating_sub(1);
        if s.quarters == 0 {
            s.status = Status::Eliminated;
            s.hits = 0;
        }
        s
    }

    /// Hits from fire: every `hits_per_quarter` (`hits_per_step`) hits cost a step, 25% (hits short of a step carry
    /// over to later turns). Returns the new state and the quarters lost.
    #[inline(always)]
    pub fn take_hits(&self, s: UnitState, hits: u32, hits_per_quarter: u8) -> (UnitState, u8) {
        // Worked out whatever the hits and kept only when they count: no branch on the dice.
        let total = u32::from(s.hits) + hits;
        let (lost, rest) = crate::fastdiv::div_rem(total, u32::from(hits_per_quarter));
        let lost = lost.min(u32::from(s.quarters)) as u8;
        let mut t = s;
        t.hits = rest as u8;
        t.quarters -= lost;
        let gone = t.quarters == 0;
        t.status = select_unpredictable(gone, Status::Eliminated, t.status);
        t.hits = select_unpredictable(gone, 0, t.hits);
        let unchanged = (s.status == Status::Eliminated) | (hits == 0);
        (
            select_unpredictable(unchanged, s, t),
            select_unpredictable(unchanged, 0, lost),
        )
    }
}

/// EF-4: `unit` retreats; a retreat whose path is blocked (chance `p_blocked`) eliminates it.
#[inline(always)]
pub fn retreat<R: Roll>(
    unit: &Unit,
    mut s: UnitState,
    blocked: Option<&Weights>,
    r: &mut R,
) -> UnitState {
    if let Some(table) = blocked {
        // Outcome 1 of the table is "blocked".
        if r.pick(table) == 1 {
            s.status = Status::Eliminated;
            return s;
        }
    }
    unit.retreating(s)
}

choice_value!(Class, Class::parse);
choice_value!(Troop, Troop::parse);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::exact::enumerate;

    fn unit(class: Class, general: bool, supported: bool, n1: bool) -> Unit {
        Unit {
            class,
            general,
            supported,
            natural_one_fails: n1,
            return_on: 5,
            troop: Troop::Infantry,
            return_roll: true,
            retreat_turns: 1,
            numbers: Numbers::default(),
        }
    }

    #[test]
    fn ef2_ef5_numbers_are_rule_parameters() {
        let mut u = unit(Class::Poor, true, true, false);
        assert_eq!(u.needs(), Some(3));
        u.numbers.scores[2] = 6;
        u.numbers.general_bonus = 2;
        u.numbers.support_bonus = 0;
        assert_eq!(u.needs(), Some(4));
        // The general's +1 to the return roll: 4 + 1 reaches 5; with +0 it does not.
        assert!(u.roll_to_return(&mut Scripted::new(&[4])));
        u.numbers.return_general_bonus = 0;
        assert!(!u.roll_to_return(&mut Scripted::new(&[4])));
    }

    fn p_pass(u: &Unit) -> f64 {
        let mut p = 0.0;
        enumerate(
            |o| u.test(o),
            |ok, q| {
                if ok {
                    p += q
                }
            },
        );
        p
    }

    #[test]
    fn ef2_every_class_and_modifier() {
        // (class, modifiers) → sixths passing, without and with natural-one-fails.
        let cases = [
            (Class::Elite, 0, 4, 4),
            (Class::Elite, 1, 5, 5),
            (Class::Elite, 2, 6, 5),
            (Class::Regular, 0, 3, 3),
            (Class::Regular, 1, 4, 4),
            (Class::Regular, 2, 5, 5),
            (Class::Poor, 0, 2, 2),
            (Class::Poor, 1, 3, 3),
            (Class::Poor, 2, 4, 4),
        ];
        for (class, mods, plain, n1) in cases {
            for (g, s) in [(mods >= 1, mods == 2), (mods == 2, mods >= 1)] {
                let p = p_pass(&unit(class, g, s, false));
                assert!(
                    (p - f64::from(plain) / 6.0).abs() < 1e-12,
                    "{class:?}+{mods}"
                );
                let p = p_pass(&unit(class, g, s, true));
                assert!(
                    (p - f64::from(n1) / 6.0).abs() < 1e-12,
                    "{class:?}+{mods} n1"
                );
            }
        }
        // Elite +2 never fails, even on a 1, unless natural-one-fails.
        assert!(unit(Class::Elite, true, true, false).test(&mut Scripted::new(&[1])));
        assert!(!unit(Class::Elite, true, true, true).test(&mut Scripted::new(&[1])));
    }

    #[test]
    fn ef5_return_to_action() {
        let u = unit(Class::Elite, false, false, false);
        assert!(!u.roll_to_return(&mut Scripted::new(&[4])));
        assert!(u.roll_to_return(&mut Scripted::new(&[5])));
        let g = unit(Class::Poor, true, false, false);
        assert!(g.roll_to_return(&mut Scripted::new(&[4])));
        assert!(!g.roll_to_return(&mut Scripted::new(&[3])));
    }

    #[test]
    fn ef1_quarters_and_hits() {
        let u = unit(Class::Regular, false, false, false);
        let s = UnitState {
            status: Status::InLine,
            quarters: 4,
            hits: 0,
            out: 0,
        };
        let (s, lost) = u.take_hits(s, 3, 2);
        assert_eq!((s.quarters, s.hits, lost), (3, 1, 1));
        let (s, lost) = u.take_hits(s, 1, 2);
        assert_eq!((s.quarters, s.hits, lost), (2, 0, 1));
        let (s, lost) = u.take_hits(s, 9, 2);
        assert_eq!((s.status, s.quarters, lost), (Status::Eliminated, 0, 2));
        let s = UnitState {
            status: Status::InLine,
            quarters: 1,
            hits: 0,
            out: 0,
        };
        assert_eq!(u.lose_quarter(s).status, Status::Eliminated);
    }

    #[test]
    fn ef4_blocked_retreat_eliminates() {
        let s = UnitState {
            status: Status::InLine,
            quarters: 3,
            hits: 0,
            out: 0,
        };
        let u = unit(Class::Regular, false, false, false);
        let always = Weights::new(vec![0, 1]).unwrap();
        let never = Weights::new(vec![1, 0]).unwrap();
        let mut d = Scripted::new(&[1]);
        assert_eq!(
            retreat(&u, s, Some(&always), &mut d).status,
            Status::Eliminated
        );
        let mut d = Scripted::new(&[0]);
        assert_eq!(
            retreat(&u, s, Some(&never), &mut d).status,
            Status::Retreating
        );
        assert_eq!(
            retreat(&u, s, None, &mut Scripted::new(&[])).status,
            Status::Retreating
        );
    }

    #[test]
    fn ef5_the_return_roll_is_the_amendments() {
        // "Further, I am adding this: A retreating unit will be diced for at the start of each
        // move of retreat, needing a 5 or better to return to normal action." Without that
        // addition a retreating unit is back after `retreat_turns` turns, rolling no die.
        let mut plain = unit(Class::Regular, false, false, false);
        plain.return_roll = false;
        plain.retreat_turns = 2;
        let s = UnitState {
            status: Status::InLine,
            quarters: 3,
            hits: 0,
            out: 0,
        };
        let mut r = plain.retreating(s);
        let mut none = Scripted::new(&[]);
        assert!(!plain.back_in_action(&mut r, &mut none));
        assert!(plain.back_in_action(&mut r, &mut none));
        assert_eq!(none.used(), 0, "no die is rolled");
        // With it: a 5 returns, a 4 does not.
        let amended = unit(Class::Regular, false, false, false);
        let mut r = amended.retreating(s);
        assert!(!amended.back_in_action(&mut r, &mut Scripted::new(&[4])));
        assert!(amended.back_in_action(&mut r, &mut Scripted::new(&[5])));
    }

    #[test]
    fn ef4_troop_types() {
        // "Light infantry and artillery units cannot give support"; a retreat is blocked by
        // "another unit that is not light infantry or artillery"; a friendly blocker tests
        // "unless it is cavalry retreated into by infantry".
        use Troop::*;
        assert!(Infantry.gives_support() && Cavalry.gives_support());
        assert!(!Light.gives_support() && !Artillery.gives_support());
        assert!(
            Infantry.blocks_retreat() && !Light.blocks_retreat() && !Artillery.blocks_retreat()
        );
        assert!(!Cavalry.tests_when_retreated_into(Infantry));
        assert!(!Cavalry.tests_when_retreated_into(Light));
        assert!(Cavalry.tests_when_retreated_into(Cavalry));
        assert!(Infantry.tests_when_retreated_into(Cavalry));
    }
}
