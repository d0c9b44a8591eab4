//! RF-1 to RF-7: a unit's fixed profile and the numbers it tests against, its state during a
//! trial, the morale and rally tests, the 50% rule, re-rolls, casualties and removal.

use super::*;
use crate::dice::Roll;

/// The fixed profile of a unit: everything that does not change during a trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unit {
    /// RF-1 morale class.
    pub class: Class,
    /// RF-7 formed unit or single stand.
    pub kind: Kind,
    /// Starting stands of a formed unit, or gun models of a single stand.
    pub stands: u8,
    /// RF-6: an Elite unit that may re-roll every failed test (`elite_rerolls = unlimited`;
    /// a limited allowance is part of the re-roll pool, [`EliteRerolls::apply`]).
    pub elite: bool,
    /// RF-2: the attached leader's bonus (0 when none).
    pub leader: i8,
    /// RF-2: the unit is in buildings.
    pub in_buildings: bool,
    /// RF-2: the in-buildings bonus (the source gives no number; default +1).
    pub buildings_bonus: i8,
    /// RF-2: any other situational modifier (charging etc.; default 0).
    pub modifier: i8,
    /// RF-7: hits each model of a single stand can take (3; optional 4 for an 8-gun battery).
    pub hit_points: u8,
    /// The numbers of RF-1 to RF-5 as this run plays them (rule parameters).
    pub numbers: Numbers,
}

/// The numbers of RF-1 to RF-5 a designer may change (rule parameters `base_veteran` …
/// `rally_loss`); [`Numbers::default`] is the source's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Numbers {
    /// RF-1: the base numbers of Veteran, Regular and Green (3, 4, 5).
    pub base: [i8; 3],
    /// RF-2: the modifier per stand lost, on a formed unit's tests (−1).
    pub loss_modifier: i8,
    /// RF-2: a natural roll at or above this always passes (6; 7: none does).
    pub always_passes: u8,
    /// RF-2: a natural roll at or below this always fails (1; 0: none does).
    pub always_fails: u8,
    /// RF-3: the 50% rule's threshold as a fraction of the starting stands, numerator and
    /// denominator (1/2): broken when lost ≥ that fraction.
    pub break_fraction: (u16, u16),
    /// RF-5: stands a routing unit loses when it fails its rally (1).
    pub rally_loss: u8,
    /// RF-6: re-rolls a unit may take on one test (1).
    pub rerolls_per_test: u8,
    /// RF-8: an elephant that failed a morale test stampedes on a D6 at or below this (2).
    pub stampede_on: u8,
    /// RF-8 with RF-10: whether a failed waiver test may start a stampede (true: the
    /// supplement reads "morale and rally tests" as "morale, rally and waiver tests", and RF-8's
    /// stampede follows "any failed morale test"; false: a waiver test is read with the rally
    /// tests RF-8 excludes).
    pub waiver_stampede: bool,
    /// RF-6: when a commander's re-roll is spent (the source gives the player the choice).
    pub reroll_when: RerollWhen,
    /// RF-7: what wagons do when routed.
    pub routed_wagons: RoutedWagons,
}

crate::params::choice_enum! {
    /// RF-7: wagons "routed as a result of fire … flee", "routed as a result of melee the
    /// drivers flee and the wagons are captured".
    pub enum RoutedWagons {
        /// Routed wagons leave the table: fled (fire or any test) or captured (a lost melee).
        Leave = "leave",
        /// The tool's earlier reading: a routed wagon routs as any single stand, and may rally.
        Rout = "rout",
    }
}

crate::params::choice_enum! {
    /// RF-6: which failed tests a unit spends a commander's re-roll on. The source gives the
    /// re-rolls, not when a player would use them; an Elite unit's own re-roll (limited ones
    /// join the pool) is spent the same way, and an unlimited one on every failed test.
    pub enum RerollWhen {
        /// On every failed test while any are left.
        Always = "always",
        /// Only on a test whose failure would rout or remove the unit: a morale or waiver test
        /// of a shaken unit, a rally test of a routing one. A Good unit's test and an Unsteady
        /// unit's rally keep them for later.
        ToAvoidRout = "to-avoid-rout",
    }
}

impl Numbers {
    /// RF-2's natural rolls in words: "a 1 always fails, a 6 always passes" as written.
    pub fn naturals(&self) -> String {
        let fails = match self.always_fails {
            0 => "no roll always fails".to_string(),
            1 => "a 1 always fails".to_string(),
            f => format!("1 to {f} always fail"),
        };
        let passes = match self.always_passes {
            7 => "no roll always passes".to_string(),
            6 => "a 6 always passes".to_string(),
            p => format!("{p} to 6 always pass"),
        };
        format!("{fails}, {passes}")
    }
}

impl Default for Numbers {
    fn default() -> Self {
        Numbers {
            base: [
                Class::Veteran.base() as i8,
                Class::Regular.base() as i8,
                Class::Green.base() as i8,
            ],
            loss_modifier: -1,
            always_passes: 6,
            always_fails: 1,
            break_fraction: (1, 2),
            rally_loss: 1,
            rerolls_per_test: 1,
            stampede_on: 2,
            waiver_stampede: true,
            reroll_when: RerollWhen::Always,
            routed_wagons: RoutedWagons::Leave,
        }
    }
}

/// What a unit's state is during a trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitState {
    /// RF-4 morale state.
    pub status: Status,
    /// Formed unit: stands lost so far. Single stand: hits taken so far (a model is lost each
    /// time the hits reach another multiple of its hit points).
    pub lost: u8,
    /// RF-6: re-rolls left for the battle: an Elite unit's allowance, then the attached
    /// commander's pool.
    pub rerolls: u8,
    /// Why the unit was removed (`None` while it is on the table).
    pub removal: Option<Removal>,
    /// An Unsteady unit still in its place in the line: a battery that stayed (RF-7,
    /// `battery_stays`), or a unit made Unsteady on the spot by a waiver test (RF-10). False
    /// for a unit that retired, routed, or halted Unsteady where its rout ended (RF-5).
    pub in_place: bool,
}

impl UnitState {
    /// A unit on the table in `status` with `lost` stands (or hits) gone and `rerolls` left.
    pub fn new(status: Status, lost: u8, rerolls: u8) -> Self {
        UnitState {
            status,
            lost,
            rerolls,
            removal: None,
            in_place: false,
        }
    }

    /// Take the unit off the table for `why`.
    #[inline(always)]
    pub fn remove(&mut self, why: Removal) {
        self.status = Status::Removed;
        self.removal = Some(why);
        self.in_place = false;
    }

    /// Put the unit in `status`, having left its place in the line (it retired, routed or
    /// rallied somewhere behind it).
    #[inline(always)]
    pub fn away(&mut self, status: Status) {
        self.status = status;
        self.in_place = false;
    }
}

/// Why a Rank & File unit left the table. The sources name several ways; reports count each
/// apart (`removed_*` metrics). An elephant's stampede (RF-8) is not one of them: the source
/// turns it about and runs it 3D6 inches, and the tool counts it as routing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Removal {
    /// It lost every stand (a formed unit) or every model (a single stand, RF-7), to fire, to
    /// melee or to failed rallies.
    Destroyed,
    /// RF-3 (the 50% rule): a routing formed unit at half its stands lost is dispersed.
    Dispersed,
    /// A Routing unit that dropped another level: it failed a morale test under
    /// `routing_fail = removed` (RF-4), or lost a melee (RF-9).
    FailedWhileRouting,
    /// RF-7: a battery that routed with its guns unlimbered (it had stayed where it was when it
    /// became Unsteady); its crew abandon the guns.
    GunsAbandoned,
    /// RF-7: a battery that routed with its guns limbered (it had limbered and retired when it
    /// became Unsteady): it leaves the table with them.
    RoutedWithGuns,
    /// RF-10 `pursue`: it routed from its waiver test and the charger caught it.
    Caught,
    /// RF-7 (`routed_wagons = leave`): wagons routed by fire (or any test) flee the table.
    WagonsFled,
    /// RF-7 (`routed_wagons = leave`): wagons routed by a lost melee: the drivers flee and the
    /// wagons are captured.
    WagonsCaptured,
}

impl Removal {
    /// The metric that counts it.
    pub fn metric(self) -> &'static str {
        match self {
            Removal::Destroyed => "removed_destroyed",
            Removal::Dispersed => "removed_dispersed",
            Removal::FailedWhileRouting => "removed_failed_while_routing",
            Removal::GunsAbandoned => "removed_guns_abandoned",
            Removal::RoutedWithGuns => "removed_routed_with_guns",
            Removal::Caught => "removed_caught",
            Removal::WagonsFled => "removed_wagons_fled",
            Removal::WagonsCaptured => "removed_wagons_captured",
        }
    }
    /// What the metric means, for reports and `list`.
    pub fn meaning(self) -> &'static str {
        match self {
            Removal::Destroyed => {
                "share of trials in which the unit was removed having lost every stand (or a single stand every model)"
            }
            Removal::Dispersed => {
                "share of trials in which the 50% rule dispersed the unit while routing (RF-3)"
            }
            Removal::FailedWhileRouting => {
                "share of trials in which the unit was removed for failing again while routing (routing_fail = removed, RF-4; or a melee lost, RF-9)"
            }
            Removal::GunsAbandoned => {
                "share of trials in which a battery routed with its guns unlimbered (it had stayed in place when Unsteady) and its crew abandoned them (RF-7)"
            }
            Removal::RoutedWithGuns => {
                "share of trials in which a battery routed with its guns limbered (it had limbered and retired when Unsteady) and left the table with them (RF-7)"
            }
            Removal::Caught => {
                "share of charges in which the charger pursued the routed target and destroyed it (RF-10 pursue)"
            }
            Removal::WagonsFled => {
                "share of trials in which wagons routed by fire or a test fled the table (RF-7, routed_wagons = leave)"
            }
            Removal::WagonsCaptured => {
                "share of trials in which wagons routed by a lost melee were captured, their drivers fled (RF-7, routed_wagons = leave)"
            }
        }
    }
}

/// RF-2 / RF-3: what a test needs on the natural die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// RF-3: a unit at 50% losses fails every test, whatever it rolls.
    AutoFail,
    /// Pass on a natural roll of this number or more (2 to 6: a natural 1 always fails and a
    /// natural 6 always passes).
    Natural(u8),
}

impl Need {
    /// The probability of passing without a re-roll, as sixths.
    #[cfg(test)]
    pub fn sixths(self) -> u8 {
        match self {
            Need::AutoFail => 0,
            Need::Natural(n) => 7 - n,
        }
    }
}

impl Unit {
    /// The damage a unit can take before it is removed: stands for a formed unit, models ×
    /// hit points for a single stand (RF-7).
    pub fn capacity(&self) -> u8 {
        if self.kind.is_single_stand() {
            self.stands * self.hit_points
        } else {
            self.stands
        }
    }

    /// RF-3 (the 50% rule): a formed unit with lost stands at least `break_fraction` (half) of
    /// its starting stands. Single stands are exempt.
    #[inline(always)]
    pub fn broken(&self, lost: u8) -> bool {
        let (num, den) = self.numbers.break_fraction;
        !self.kind.is_single_stand()
            && u32::from(den) * u32::from(lost) >= u32::from(num) * u32::from(self.stands)
    }

    /// RF-2 / RF-3: what a morale or waiver test needs when `lost` stands (or hits) are gone.
    /// Modifiers: `loss_modifier` (−1) per stand lost (formed units only), the leader's bonus,
    /// the in-buildings bonus and the situational modifier; a natural roll at or below
    /// `always_fails` (1) fails, at or above `always_passes` (6) passes.
    #[inline(always)]
    pub fn need(&self, lost: u8) -> Need {
        self.need_with(lost, i32::from(self.modifier))
    }

    /// RF-5: what a rally test needs. Its modifiers are the source's three: the commander
    /// attachment bonus, the in-buildings bonus and losses so far; the situational `modifier`
    /// (charging and the like) is for morale and waiver tests only.
    #[inline(always)]
    pub fn rally_need(&self, lost: u8) -> Need {
        self.need_with(lost, 0)
    }

    /// [`Unit::need`] with `situational` for the situational modifier.
    #[inline(always)]
    fn need_with(&self, lost: u8, situational: i32) -> Need {
        if self.broken(lost) {
            return Need::AutoFail;
        }
        let casualties = if self.kind.is_single_stand() {
            0
        } else {
            i32::from(lost)
        };
        let buildings = if self.in_buildings {
            i32::from(self.buildings_bonus)
        } else {
            0
        };
        let n = &self.numbers;
        let modifiers = casualties * i32::from(n.loss_modifier)
            + i32::from(self.leader)
            + buildings
            + situational;
        let base = i32::from(n.base[self.class as usize]);
        let needed =
            (base - modifiers).clamp(i32::from(n.always_fails) + 1, i32::from(n.always_passes));
        Need::Natural(needed as u8)
    }

    /// RF-2 with RF-6: take one test. A failed roll is re-rolled when allowed, up to
    /// `rerolls_per_test` times (the source: once): an Elite unit's own re-roll first, else one
    /// from the commander's pool (spending it). An automatic failure (RF-3) is not re-rolled:
    /// no roll can change it.
    #[inline(always)]
    pub fn test<R: Roll>(&self, need: Need, rerolls: &mut u8, r: &mut R) -> bool {
        self.test_detail(need, rerolls, r).0
    }

    /// The unit routs (RF-4): state `s` made Routing, except that wagons under `routed_wagons =
    /// leave` leave the table (RF-7): captured when `by_melee`, else fled.
    #[inline(always)]
    pub fn routs(&self, mut s: UnitState, by_melee: bool) -> UnitState {
        if self.kind == Kind::Wagon && self.numbers.routed_wagons == RoutedWagons::Leave {
            s.remove(if by_melee {
                Removal::WagonsCaptured
            } else {
                Removal::WagonsFled
            });
        } else {
            s.away(Status::Routing);
        }
        s
    }

    /// RF-6 with `reroll_when`: the re-rolls of `pool` this unit may spend on a test whose
    /// failure would rout or remove it (`high_stakes`) or not.
    #[inline(always)]
    pub fn pool_for(&self, high_stakes: bool, pool: u8) -> u8 {
        match self.numbers.reroll_when {
            RerollWhen::Always => pool,
            RerollWhen::ToAvoidRout if high_stakes => pool,
            RerollWhen::ToAvoidRout => 0,
        }
    }

    /// [`Unit::test`] of a unit in state `s`, spending its re-rolls as `reroll_when` says: a
    /// failure would rout or remove it when `high_stakes`.
    #[inline(always)]
    pub(super) fn test_state<R: Roll>(
        &self,
        need: Need,
        s: &mut UnitState,
        high_stakes: bool,
        r: &mut R,
    ) -> bool {
        let mut pool = self.pool_for(high_stakes, s.rerolls);
        let kept = s.rerolls - pool;
        let passed = self.test(need, &mut pool, r);
        s.rerolls = kept + pool;
        passed
    }

    /// [`Unit::test`], also saying whether a re-roll was taken: (passed, re-rolled).
    #[inline(always)]
    pub fn test_detail<R: Roll>(&self, need: Need, rerolls: &mut u8, r: &mut R) -> (bool, bool) {
        let Need::Natural(n) = need else {
            return (false, false);
        };
        if r.d6() >= n {
            return (true, false);
        }
        let mut rerolled = false;
        for _ in 0..self.numbers.rerolls_per_test {
            if !self.elite {
                if *rerolls == 0 {
                    break;
                }
                *rerolls -= 1;
            }
            rerolled = true;
            if r.d6() >= n {
                return (true, true);
            }
        }
        (false, rerolled)
    }

    /// The state after losing one more stand (a formed unit) or one more model (a single
    /// stand: its hits rise to the next multiple of its hit points); removed when nothing is
    /// left.
    #[inline(always)]
    fn lose_stand(&self, mut s: UnitState) -> UnitState {
        s.lost = if self.kind.is_single_stand() {
            (s.lost / self.hit_points + 1) * self.hit_points
        } else {
            s.lost + 1
        };
        if s.lost >= self.capacity() {
            s.lost = self.capacity();
            s.remove(Removal::Destroyed);
        }
        s
    }

    /// RF-5: a routing unit that fails its rally routs on and loses `rally_loss` stands (one),
    /// stopping when nothing is left.
    #[inline(always)]
    fn rout_on(&self, mut s: UnitState) -> UnitState {
        for _ in 0..self.numbers.rally_loss {
            if s.status == Status::Removed {
                break;
            }
            s = self.lose_stand(s);
        }
        s
    }

    /// RF-3: a routing formed unit at 50% losses is removed (dispersed), unless
    /// `keep-broken-units` keeps it routing.
    #[inline(always)]
    pub(super) fn apply_fifty_percent(&self, o: &Options, mut s: UnitState) -> UnitState {
        if s.status == Status::Routing && self.broken(s.lost) && !o.keep_broken_units {
            s.remove(Removal::Dispersed);
        }
        s
    }

    /// RF-5 rally phase: an Unsteady or Routing unit tests to go up one level.
    ///
    /// - Unsteady: pass → Good; fail → stays Unsteady. A unit at 50% losses may not rally (RF-3).
    /// - Routing: pass → Unsteady, halting where its rout took it; fail → routs again and
    ///   loses another stand, then RF-3 applies at once. Under `voluntary_rout` it does not
    ///   test and loses the stand. A routing unit at 50% is removed (dispersed); under
    ///   `keep-broken-units` it keeps routing instead, may not rally, and loses a stand every
    ///   rally phase as a router that failed to rally does ("will still lose another stand"),
    ///   until it has none left.
    /// - RF-7: a routed battery is removed unless `artillery-may-rally` (with its limbered
    ///   guns: a battery that stayed in place routs in the morale phase, not here).
    ///
    /// Whether the unit is allowed to rally this turn (not charging, not charged, army morale)
    /// is the caller's business.
    #[inline(always)]
    pub fn rally<R: Roll>(&self, o: &Options, mut s: UnitState, r: &mut R) -> UnitState {
        match s.status {
            Status::Good | Status::Removed => s,
            Status::Unsteady => {
                // A failed rally leaves it Unsteady: not a test to rout it.
                if !self.broken(s.lost)
                    && self.test_state(self.rally_need(s.lost), &mut s, false, r)
                {
                    s.status = Status::Good;
                    s.in_place = false;
                }
                s
            }
            Status::Routing => self.rally_routing(o, s, !o.voluntary_rout, r),
        }
    }

    /// RF-13 under `charged_router = evades`, in the rally phase: a router charged this turn
    /// flees again and does not try to rally, and a routing unit that does not rally "will
    /// still lose another stand" (RF-5), then RF-3 applies — what [`Unit::rally`] does to a
    /// router under `voluntary_rout`. Any other unit is left as it is. Rolls no die.
    #[inline(always)]
    pub fn flee<R: Roll>(&self, o: &Options, s: UnitState, r: &mut R) -> UnitState {
        match s.status {
            Status::Routing => self.rally_routing(o, s, false, r),
            _ => s,
        }
    }

    /// RF-5's rally phase for a routing unit, testing only when `tries`.
    #[inline(always)]
    fn rally_routing<R: Roll>(
        &self,
        o: &Options,
        mut s: UnitState,
        tries: bool,
        r: &mut R,
    ) -> UnitState {
        if self.kind == Kind::Artillery && !o.artillery_may_rally {
            s.remove(self.battery_routs(s));
            return s;
        }
        if self.broken(s.lost) {
            if o.keep_broken_units {
                return self.rout_on(s);
            }
            return self.apply_fifty_percent(o, s);
        }
        if tries && self.test_state(self.rally_need(s.lost), &mut s, true, r) {
            s.away(Status::Unsteady);
            return s;
        }
        let s = self.rout_on(s);
        self.apply_fifty_percent(o, s)
    }

    /// RF-7: why a battery that routs leaves the table: a battery still in its place has its
    /// guns unlimbered, and its crew abandon them; one that limbered and retired when it became
    /// Unsteady routs with them.
    #[inline(always)]
    fn battery_routs(&self, s: UnitState) -> Removal {
        if s.in_place {
            Removal::GunsAbandoned
        } else {
            Removal::RoutedWithGuns
        }
    }

    /// Losses from fire: `hits` stands (formed) or hits (single stand) are taken off; a unit
    /// with nothing left is removed.
    #[inline(always)]
    pub fn take_hits(&self, mut s: UnitState, hits: u8) -> UnitState {
        if s.status == Status::Removed || hits == 0 {
            return s;
        }
        let cap = self.capacity();
        s.lost = s.lost.saturating_add(hits).min(cap);
        if s.lost >= cap {
            s.remove(Removal::Destroyed);
        }
        s
    }

    /// RF-5 morale phase for a unit that lost a stand (or, RF-7, a single stand that took a hit)
    /// this turn: see [`Unit::morale_test`], without saying whether an elephant stampeded.
    #[cfg(test)]
    pub fn morale<R: Roll>(&self, o: &Options, s: UnitState, r: &mut R) -> UnitState {
        self.morale_test(o, s, r).0
    }

    /// RF-5 morale phase for a unit that lost a stand (or, RF-7, a single stand that took a hit)
    /// this turn: test; a failure drops one level (Good → Unsteady → Routing); a Routing unit
    /// that fails does what `routing_fail` says (RF-4: the sources are silent). A unit that
    /// becomes Unsteady retires, but a battery may stay where it is (`battery_stays`, RF-7).
    /// RF-7: a battery that fails while Unsteady routs and is removed, unless
    /// `artillery-may-rally` (its crew abandon guns that stayed unlimbered in place; a battery
    /// that had limbered and retired leaves with them). RF-3 then applies to a routing formed
    /// unit. RF-8 (`elephant-stampede`): "this stampede test applies to any failed morale
    /// test", whatever the elephant's state, so an elephant on the table that failed rolls a D6
    /// and on `stampede_on` or less stampedes, which counts as routing. Returns the state and
    /// whether it stampeded.
    #[inline(always)]
    pub fn morale_test<R: Roll>(
        &self,
        o: &Options,
        mut s: UnitState,
        r: &mut R,
    ) -> (UnitState, bool) {
        // A failure of a Good unit makes it Unsteady; of a shaken one routs or removes it.
        let high_stakes = s.status != Status::Good;
        if s.status == Status::Removed || self.test_state(self.need(s.lost), &mut s, high_stakes, r)
        {
            return (s, false);
        }
        let mut s = match s.status {
            Status::Good => {
                s.status = Status::Unsteady;
                s.in_place = o.battery_stays && self.kind == Kind::Artillery;
                s
            }
            Status::Unsteady if self.kind == Kind::Artillery && !o.artillery_may_rally => {
                s.remove(self.battery_routs(s));
                s
            }
            Status::Unsteady => {
                let s = self.routs(s, false);
                self.apply_fifty_percent(o, s)
            }
            Status::Routing => match o.routing_fail {
                RoutingFail::RoutAgain => self.apply_fifty_percent(o, self.rout_on(s)),
                RoutingFail::Removed => {
                    s.remove(Removal::FailedWhileRouting);
                    s
                }
                RoutingFail::NoEffect => self.apply_fifty_percent(o, s),
            },
            Status::Removed => s,
        };
        let stampeded = o.elephant_stampede
            && self.kind == Kind::Elephant
            && s.status != Status::Removed
            && stampedes(self, r);
        if stampeded {
            s.away(Status::Routing);
        }
        (s, stampeded)
    }

    /// Stands (formed) or models (single stand) lost in state `s`.
    pub fn stands_lost(&self, s: UnitState) -> u8 {
        if self.kind.is_single_stand() {
            s.lost / self.hit_points
        } else {
            s.lost
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;

    fn unit(class: Class, stands: u8) -> Unit {
        Unit {
            class,
            kind: Kind::Formed,
            stands,
            elite: false,
            leader: 0,
            in_buildings: false,
            buildings_bonus: 1,
            modifier: 0,
            hit_points: 3,
            numbers: Numbers::default(),
        }
    }

    fn state(status: Status, lost: u8, rerolls: u8) -> UnitState {
        UnitState::new(status, lost, rerolls)
    }

    #[test]
    fn rf2_worked_example_from_the_source() {
        // Veteran, 7 stands: 2 lost → 5+; 3 lost → 6; 3 lost with a +1 leader → 5+.
        let u = unit(Class::Veteran, 7);
        assert_eq!(u.need(2), Need::Natural(5));
        assert_eq!(u.need(2).sixths(), 2);
        assert_eq!(u.need(3), Need::Natural(6));
        let led = Unit { leader: 1, ..u };
        assert_eq!(led.need(3), Need::Natural(5));
        // A 3 with 2 lost: stays Unsteady; a 5 rallies to Good.
        let o = Options::default();
        let s = state(Status::Unsteady, 2, 0);
        assert_eq!(
            u.rally(&o, s, &mut Scripted::new(&[3])).status,
            Status::Unsteady
        );
        assert_eq!(
            u.rally(&o, s, &mut Scripted::new(&[5])).status,
            Status::Good
        );
    }

    #[test]
    fn rf2_naturals_and_modifiers() {
        // Natural 1 fails even when modifiers make it enough; natural 6 passes whatever.
        let u = Unit {
            leader: 3,
            ..unit(Class::Veteran, 8)
        };
        assert_eq!(u.need(0), Need::Natural(2));
        assert_eq!(unit(Class::Green, 12).need(5), Need::Natural(6));
        assert_eq!(unit(Class::Regular, 8).need(0), Need::Natural(4));
        let b = Unit {
            in_buildings: true,
            ..unit(Class::Regular, 8)
        };
        assert_eq!(b.need(0), Need::Natural(3));
        let m = Unit {
            modifier: -1,
            ..unit(Class::Regular, 8)
        };
        assert_eq!(m.need(0), Need::Natural(5));
    }

    #[test]
    fn rf4_a_routing_unit_that_fails_a_morale_test() {
        // The sources are silent; by default it does what RF-5 says of a routing unit that
        // fails its rally: it routs on and loses another stand, then the 50% rule applies.
        let u = unit(Class::Regular, 8);
        let routing = |lost| UnitState::new(Status::Routing, lost, 0);
        let fail = |o: &Options, s| u.morale(o, s, &mut Scripted::new(&[1]));
        let o = Options::default();
        assert_eq!(o.routing_fail, RoutingFail::RoutAgain);
        assert_eq!(fail(&o, routing(1)), routing(2));
        // 3 of 8 lost, one more is 4: half, dispersed (RF-3).
        assert_eq!(fail(&o, routing(3)).status, Status::Removed);
        let removed = Options {
            routing_fail: RoutingFail::Removed,
            ..o
        };
        assert_eq!(fail(&removed, routing(1)).status, Status::Removed);
        let none = Options {
            routing_fail: RoutingFail::NoEffect,
            ..o
        };
        assert_eq!(fail(&none, routing(1)), routing(1));
        // A pass changes nothing under any choice.
        assert_eq!(
            u.morale(&o, routing(1), &mut Scripted::new(&[6])),
            routing(1)
        );
    }

    #[test]
    fn rf5_rally_tests_take_the_leader_buildings_and_losses_only() {
        // "The modifiers that apply to a rally test are the commander attachment bonus, unit in
        // buildings bonus and losses so far": a situational −2 makes a Regular's morale test
        // need 6 (4 + 2) but leaves its rally test at 4+ (with a +1 leader and 1 lost, 4+).
        let mut u = unit(Class::Regular, 8);
        u.modifier = -2;
        u.leader = 1;
        assert_eq!(u.need(1), Need::Natural(6));
        assert_eq!(u.rally_need(1), Need::Natural(4));
        // An Unsteady unit rallies on a 4 (it would fail a morale test on it).
        let s = UnitState::new(Status::Unsteady, 1, 0);
        let after = u.rally(&Options::default(), s, &mut Scripted::new(&[4]));
        assert_eq!(after.status, Status::Good);
        let after = u.morale(&Options::default(), s, &mut Scripted::new(&[4]));
        assert_eq!(after.status, Status::Routing);
    }

    #[test]
    fn rf3_fifty_percent_rule() {
        let u = unit(Class::Veteran, 7);
        assert!(!u.broken(3));
        assert!(u.broken(4));
        assert_eq!(unit(Class::Veteran, 8).need(4), Need::AutoFail);
        // A natural 6 does not save it, and no re-roll is spent.
        let mut rr = 1;
        assert!(!u.test(Need::AutoFail, &mut rr, &mut Scripted::new(&[])));
        assert_eq!(rr, 1);
        // Unsteady at 50% may not rally; routing at 50% is removed, or kept with the option.
        let o = Options::default();
        let s = u.rally(&o, state(Status::Unsteady, 4, 0), &mut Scripted::new(&[]));
        assert_eq!(s.status, Status::Unsteady);
        let s = u.rally(&o, state(Status::Routing, 4, 0), &mut Scripted::new(&[]));
        assert_eq!(s.status, Status::Removed);
        let keep = Options {
            keep_broken_units: true,
            ..o
        };
        // Under `keep-broken-units` it "continues routing until it disperses": it may not rally
        // (no die is rolled) and, like any router that did not rally, "will still lose
        // another stand" each rally phase, until none is left.
        let s = u.rally(&keep, state(Status::Routing, 4, 0), &mut Scripted::new(&[]));
        assert_eq!(s, state(Status::Routing, 5, 0));
        let s = u.rally(&keep, state(Status::Routing, 6, 0), &mut Scripted::new(&[]));
        assert_eq!(
            (s.status, s.lost, s.removal),
            (Status::Removed, 7, Some(Removal::Destroyed))
        );
        // Single stands are exempt.
        let gun = Unit {
            kind: Kind::Artillery,
            stands: 2,
            ..u
        };
        assert!(!gun.broken(5));
    }

    #[test]
    fn rf5_routing_rally_fail_loses_a_stand() {
        let u = unit(Class::Regular, 8);
        let o = Options::default();
        let s = u.rally(&o, state(Status::Routing, 1, 0), &mut Scripted::new(&[2]));
        assert_eq!(s, state(Status::Routing, 2, 0));
        // Losing the stand that reaches 50% removes it at once.
        let s = u.rally(&o, state(Status::Routing, 3, 0), &mut Scripted::new(&[1]));
        assert_eq!(s.status, Status::Removed);
        let s = u.rally(&o, state(Status::Routing, 1, 0), &mut Scripted::new(&[6]));
        assert_eq!(s, state(Status::Unsteady, 1, 0));
        // Voluntary rout: no test (no die used), the stand is still lost.
        let vol = Options {
            voluntary_rout: true,
            ..o
        };
        let mut d = Scripted::new(&[]);
        assert_eq!(
            u.rally(&vol, state(Status::Routing, 1, 0), &mut d),
            state(Status::Routing, 2, 0)
        );
        assert_eq!(d.used(), 0);
    }

    #[test]
    fn rf6_worked_example_from_the_source() {
        // Routing Veteran, 3 of 7 lost, +1 leader with one re-roll: rolls 2, re-rolls 5 → Unsteady.
        let u = Unit {
            leader: 1,
            ..unit(Class::Veteran, 7)
        };
        let o = Options::default();
        let s = u.rally(
            &o,
            state(Status::Routing, 3, 1),
            &mut Scripted::new(&[2, 5]),
        );
        assert_eq!(s, state(Status::Unsteady, 3, 0));
        // Without the re-roll the 2 loses a stand: 4 of 7 lost → 50% → dispersed.
        let s = u.rally(&o, state(Status::Routing, 3, 0), &mut Scripted::new(&[2]));
        assert_eq!(s.status, Status::Removed);
    }

    #[test]
    fn rf6_one_reroll_per_test_elite_first() {
        let elite = Unit {
            elite: true,
            ..unit(Class::Regular, 8)
        };
        let mut pool = 2;
        // Elite re-roll used; the commander's pool is untouched; a second failure stands.
        assert!(!elite.test(Need::Natural(4), &mut pool, &mut Scripted::new(&[1, 2])));
        assert_eq!(pool, 2);
        let plain = unit(Class::Regular, 8);
        assert!(plain.test(Need::Natural(4), &mut pool, &mut Scripted::new(&[3, 4])));
        assert_eq!(pool, 1);
        let mut none = 0;
        assert!(!plain.test(Need::Natural(4), &mut none, &mut Scripted::new(&[3])));
        // rerolls_per_test = 2: a failed re-roll is re-rolled again while the pool lasts.
        let mut two = plain;
        two.numbers.rerolls_per_test = 2;
        let mut pool = 3;
        let (passed, rerolled) =
            two.test_detail(Need::Natural(4), &mut pool, &mut Scripted::new(&[1, 2, 5]));
        assert!(passed && rerolled);
        assert_eq!(pool, 1);
        let mut pool = 1;
        assert!(!two.test(Need::Natural(4), &mut pool, &mut Scripted::new(&[1, 2])));
        assert_eq!(pool, 0);
    }

    /// RF-6 `reroll_when = to-avoid-rout`: a Good unit's failed morale test and an Unsteady
    /// unit's failed rally keep the commander's re-roll; a shaken unit's morale test and a
    /// routing unit's rally spend it. (A Regular with 1 lost needs 5.)
    #[test]
    fn rf6_rerolls_kept_for_tests_that_would_rout() {
        let mut u = unit(Class::Regular, 8);
        u.numbers.reroll_when = RerollWhen::ToAvoidRout;
        let o = Options::default();
        let s = u.morale(&o, state(Status::Good, 1, 1), &mut Scripted::new(&[1]));
        assert_eq!((s.status, s.rerolls), (Status::Unsteady, 1));
        let s = u.morale(
            &o,
            state(Status::Unsteady, 1, 1),
            &mut Scripted::new(&[1, 6]),
        );
        assert_eq!((s.status, s.rerolls), (Status::Unsteady, 0));
        let s = u.rally(&o, state(Status::Unsteady, 1, 1), &mut Scripted::new(&[1]));
        assert_eq!((s.status, s.rerolls), (Status::Unsteady, 1));
        let s = u.rally(
            &o,
            state(Status::Routing, 1, 1),
            &mut Scripted::new(&[1, 6]),
        );
        assert_eq!((s.status, s.rerolls), (Status::Unsteady, 0));
        // Always (the default): a Good unit spends it too.
        u.numbers.reroll_when = RerollWhen::Always;
        let s = u.morale(&o, state(Status::Good, 1, 1), &mut Scripted::new(&[1, 6]));
        assert_eq!((s.status, s.rerolls), (Status::Good, 0));
    }

    #[test]
    fn rf4_morale_drops_one_level() {
        let u = unit(Class::Regular, 8);
        let o = Options::default();
        let fail = || Scripted::new(&[1]);
        let s = u.morale(&o, state(Status::Good, 1, 0), &mut fail());
        assert_eq!(s.status, Status::Unsteady);
        let s = u.morale(&o, state(Status::Unsteady, 1, 0), &mut fail());
        assert_eq!(s.status, Status::Routing);
        // A Routing unit that fails routs on and loses a stand (`routing_fail`, below).
        let s = u.morale(&o, state(Status::Routing, 1, 0), &mut fail());
        assert_eq!((s.status, s.lost), (Status::Routing, 2));
        // Unsteady fails into routing at 50% → removed at once.
        let s = u.morale(&o, state(Status::Unsteady, 4, 0), &mut Scripted::new(&[]));
        assert_eq!(s.status, Status::Removed);
        // Regular with 2 lost needs 4 + 2 = 6: a 5 fails, a 6 holds.
        let s = u.morale(&o, state(Status::Good, 2, 0), &mut Scripted::new(&[5]));
        assert_eq!(s.status, Status::Unsteady);
        let s = u.morale(&o, state(Status::Good, 2, 0), &mut Scripted::new(&[6]));
        assert_eq!(s.status, Status::Good);
    }

    #[test]
    fn rf7_artillery() {
        let gun = Unit {
            kind: Kind::Artillery,
            stands: 2,
            ..unit(Class::Regular, 2)
        };
        assert_eq!(gun.capacity(), 6);
        // No casualty modifier: 5 hits taken still needs the base 4.
        assert_eq!(gun.need(5), Need::Natural(4));
        let o = Options::default();
        let s = gun.morale(&o, state(Status::Good, 1, 0), &mut Scripted::new(&[1]));
        assert_eq!(s.status, Status::Unsteady);
        let s = gun.morale(&o, s, &mut Scripted::new(&[1]));
        assert_eq!(s.status, Status::Removed);
        let may = Options {
            artillery_may_rally: true,
            ..o
        };
        let s = gun.morale(
            &may,
            state(Status::Unsteady, 1, 0),
            &mut Scripted::new(&[1]),
        );
        assert_eq!(s.status, Status::Routing);
        // A failed rally from rout loses a model: hits rise to the next multiple of 3.
        let s = gun.rally(&may, s, &mut Scripted::new(&[1]));
        assert_eq!(s, state(Status::Routing, 3, 0));
        assert_eq!(gun.stands_lost(s), 1);
        let s = gun.rally(&may, s, &mut Scripted::new(&[2]));
        assert_eq!(s.status, Status::Removed);
        // Hits: a model goes when its hits reach its hit points; all gone → removed.
        let s = gun.take_hits(state(Status::Good, 0, 0), 5);
        assert_eq!((s.status, gun.stands_lost(s)), (Status::Good, 1));
        assert_eq!(gun.take_hits(s, 1).status, Status::Removed);
    }
}
