//! RF-9: one side of a melee or charge, casualties taken and the loser's test, and who wins a
//! round.

use super::*;

/// One side of a Rank & File melee or charge, as its unit spec gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fighter {
    /// Its morale profile (class, stands, leader, Elite …).
    pub unit: Unit,
    /// What troops they are.
    pub troop: Troop,
    /// RF-9: stands in contact in the first round (0: all); one overlapping stand on each flank
    /// fights too.
    pub frontage: u8,
    /// A modifier to its melee hit rolls.
    pub hit_modifier: i8,
    /// RF-11: it carries a Blown marker (−1 to hit; cavalry, option `blown-cavalry`).
    pub blown: bool,
    /// RF-10: shock troops.
    pub shock: bool,
    /// RF-10: in square.
    pub square: bool,
    /// RF-10: defending a linear obstacle or building.
    pub obstacle: bool,
    /// RF-12: its uncontrolled number (0: never uncontrolled, 6: always).
    pub uncontrolled: u8,
    /// RF-9: a melee it wins routs the loser outright ("in some cases", the sources say; the
    /// spec keyword `routs-loser`), as `auto_rout_on_win` does for every winner.
    pub routs_loser: bool,
}

/// RF-9's parameters where the sources are silent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MeleeRules {
    /// The roll a melee die needs before modifiers (default 4).
    pub to_hit: u8,
    /// Hits that make one casualty stand (default 1).
    pub hits_per_stand: u8,
    /// A natural 6 always hits (RF-9).
    pub six_always_hits: bool,
    /// The winner routs the loser outright.
    pub auto_rout_on_win: bool,
    /// RF-9: the roll cavalry need to hit elephants, whatever their modifiers (6; 7: never).
    pub cavalry_vs_elephants: u8,
    /// RF-11: how much worse a Blown unit's to-hit roll is (1).
    pub blown_penalty: u8,
    /// RF-12: a winner left Unsteady (by a failed waiver test) still rolls for an uncontrolled
    /// charge (true, the tool's reading before issue 79), or only a Good winner does (false, as
    /// battles let only Good units charge).
    pub shaken_winner_charges: bool,
}

impl MeleeRules {
    /// The source's numbers and this tool's defaults where the source is silent.
    pub const SOURCE: MeleeRules = MeleeRules {
        to_hit: 4,
        hits_per_stand: 1,
        six_always_hits: true,
        auto_rout_on_win: false,
        cavalry_vs_elephants: 6,
        blown_penalty: 1,
        shaken_winner_charges: true,
    };
}

impl Default for MeleeRules {
    fn default() -> Self {
        MeleeRules::SOURCE
    }
}

/// How a melee ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MeleeEnd {
    /// The attacker caused more casualties (or only the defender was wiped out).
    AttackerWins,
    /// The defender caused more casualties (or only the attacker was wiped out).
    DefenderWins,
    /// Both sides were wiped out in the same round.
    MutualDestruction,
}

impl Fighter {
    /// RF-9: dice this side rolls in a round: in the first, the stands in contact plus one
    /// overlapping stand on each flank; later, all its stands.
    pub fn dice(&self, s: &UnitState, first: bool) -> u8 {
        let left = self.unit.stands - self.unit.stands_lost(*s);
        if first && self.frontage > 0 {
            left.min(self.frontage + 2)
        } else {
            left
        }
    }

    /// RF-9 / RF-11: the roll this side's dice need against `them` (7: cannot hit). Cavalry
    /// fighting elephants hit only on 6; a Blown unit has −1; a natural 6 always hits when the
    /// rules say so.
    pub fn needs_to_hit(&self, them: &Fighter, rules: &MeleeRules) -> u8 {
        if self.troop == Troop::Cavalry && them.troop == Troop::Elephant {
            return rules.cavalry_vs_elephants;
        }
        let blown = if self.blown {
            i32::from(rules.blown_penalty)
        } else {
            0
        };
        let need = i32::from(rules.to_hit) - i32::from(self.hit_modifier) + blown;
        let need = need.clamp(1, 7);
        let need = if rules.six_always_hits {
            need.min(6)
        } else {
            need
        };
        need as u8
    }
}

/// RF-9: casualties from `hits`: every `hits_per_stand` hits remove a stand (hits short of a
/// stand carry to the next round in `carry`); a unit with no stands left is removed.
/// RF-7: a single stand counts its hits against its models' hit points, the hits it took from
/// fire included (its state holds hits, not models), so `carry` stays untouched.
pub fn take_casualties(
    unit: &Unit,
    mut s: UnitState,
    carry: &mut u8,
    hits: u8,
    hits_per_stand: u8,
) -> UnitState {
    if unit.kind.is_single_stand() {
        return unit.take_hits(s, hits);
    }
    let total = u16::from(*carry) + u16::from(hits);
    let stands = (total / u16::from(hits_per_stand)) as u8;
    *carry = (total % u16::from(hits_per_stand)) as u8;
    s.lost = (s.lost + stands).min(unit.stands);
    if s.lost >= unit.stands {
        s.remove(Removal::Destroyed);
    }
    s
}

/// RF-9 with RF-5 and RF-3: the loser of a melee drops a level without a test (or routs
/// outright when the winner may rout it); a routing unit at 50% losses is then removed.
/// Returns the state and whether the 50% rule removed it.
pub fn lose_melee(
    unit: &Unit,
    o: &Options,
    rules: &MeleeRules,
    mut s: UnitState,
) -> (UnitState, bool) {
    if s.status == Status::Removed {
        return (s, false);
    }
    // "None of these options apply to a unit that has just lost a melee - they must still
    // retire": the loser leaves its place, whatever it did before.
    match s.status {
        _ if rules.auto_rout_on_win && s.status != Status::Routing => s = unit.routs(s, true),
        Status::Good => s.away(Status::Unsteady),
        Status::Unsteady => s = unit.routs(s, true),
        Status::Routing | Status::Removed => s.remove(Removal::FailedWhileRouting),
    }
    let after = unit.apply_fifty_percent(o, s);
    let fifty = after.removal == Some(Removal::Dispersed);
    (after, fifty)
}

/// RF-9: who won a round in which the attacker scored `a_hits` and the defender `d_hits`,
/// given who is wiped out; `None` for a drawn round (fought again).
pub fn round_winner(a_hits: u8, d_hits: u8, a_gone: bool, d_gone: bool) -> Option<MeleeEnd> {
    match (a_gone, d_gone) {
        (true, true) => Some(MeleeEnd::MutualDestruction),
        (false, true) => Some(MeleeEnd::AttackerWins),
        (true, false) => Some(MeleeEnd::DefenderWins),
        (false, false) => match a_hits.cmp(&d_hits) {
            std::cmp::Ordering::Greater => Some(MeleeEnd::AttackerWins),
            std::cmp::Ordering::Less => Some(MeleeEnd::DefenderWins),
            std::cmp::Ordering::Equal => None,
        },
    }
}

#[cfg(test)]
mod melee_tests {
    use super::*;
    use crate::dice::Scripted;

    fn fighter(class: Class, stands: u8, troop: Troop) -> Fighter {
        Fighter {
            unit: Unit {
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
            },
            troop,
            frontage: 0,
            hit_modifier: 0,
            blown: false,
            shock: false,
            square: false,
            obstacle: false,
            uncontrolled: 0,
            routs_loser: false,
        }
    }

    const RULES: MeleeRules = MeleeRules::SOURCE;

    #[test]
    fn rf9_hit_numbers() {
        let inf = fighter(Class::Regular, 6, Troop::Infantry);
        let cav = fighter(Class::Regular, 6, Troop::Cavalry);
        let ele = fighter(Class::Regular, 1, Troop::Elephant);
        assert_eq!(inf.needs_to_hit(&cav, &RULES), 4);
        assert_eq!(cav.needs_to_hit(&ele, &RULES), 6);
        let blown = Fighter { blown: true, ..cav };
        assert_eq!(blown.needs_to_hit(&inf, &RULES), 5);
        let poor = Fighter {
            hit_modifier: -5,
            ..inf
        };
        assert_eq!(poor.needs_to_hit(&inf, &RULES), 6, "a 6 always hits");
        let no_six = MeleeRules {
            six_always_hits: false,
            ..RULES
        };
        assert_eq!(poor.needs_to_hit(&inf, &no_six), 7);
        // The rule parameters reach the same rules: cavalry against elephants, Blown.
        let changed = MeleeRules {
            cavalry_vs_elephants: 5,
            blown_penalty: 2,
            ..RULES
        };
        assert_eq!(cav.needs_to_hit(&ele, &changed), 5);
        let blown_cav = Fighter { blown: true, ..cav };
        assert_eq!(blown_cav.needs_to_hit(&inf, &changed), 6);
        assert_eq!(blown_cav.needs_to_hit(&inf, &RULES), 5);
        let wide = Fighter { frontage: 2, ..inf };
        let s = UnitState::new(Status::Good, 0, 0);
        assert_eq!((wide.dice(&s, true), wide.dice(&s, false)), (4, 6));
        // Three in contact and one overlapping each flank: five of eight in the first round.
        // (Frontage 2 alone cannot tell 2 + 2 from 2 × 2: a surviving mutant showed it.)
        let eight = fighter(Class::Regular, 8, Troop::Infantry);
        let three = Fighter {
            frontage: 3,
            ..eight
        };
        assert_eq!((three.dice(&s, true), three.dice(&s, false)), (5, 8));
        // Two stands lost: no more dice than stands left.
        let worn = UnitState::new(Status::Good, 4, 0);
        assert_eq!((three.dice(&worn, true), three.dice(&worn, false)), (4, 4));
    }

    #[test]
    fn rf9_loser_drops_a_level_and_fifty_percent() {
        let u = fighter(Class::Regular, 8, Troop::Infantry).unit;
        let o = Options::default();
        let s = |status, lost| UnitState::new(status, lost, 0);
        assert_eq!(
            lose_melee(&u, &o, &RULES, s(Status::Good, 5)).0.status,
            Status::Unsteady
        );
        assert_eq!(
            lose_melee(&u, &o, &RULES, s(Status::Unsteady, 1)).0.status,
            Status::Routing
        );
        let (after, fifty) = lose_melee(&u, &o, &RULES, s(Status::Unsteady, 4));
        assert_eq!((after.status, fifty), (Status::Removed, true));
        let rout = MeleeRules {
            auto_rout_on_win: true,
            ..RULES
        };
        assert_eq!(
            lose_melee(&u, &o, &rout, s(Status::Good, 0)).0.status,
            Status::Routing
        );
        assert_eq!(round_winner(2, 2, false, false), None);
        assert_eq!(
            round_winner(0, 3, true, true),
            Some(MeleeEnd::MutualDestruction)
        );
        assert_eq!(
            round_winner(0, 3, false, true),
            Some(MeleeEnd::AttackerWins)
        );
        let mut carry = 1;
        let t = take_casualties(&u, s(Status::Good, 0), &mut carry, 3, 2);
        assert_eq!((t.lost, carry), (2, 0));
    }

    #[test]
    fn rf10_waiver_triggers() {
        let inf = |c| fighter(c, 6, Troop::Infantry);
        let regular = inf(Class::Regular);
        let vet_shock = Fighter {
            shock: true,
            ..inf(Class::Veteran)
        };
        // Frontal, no shock: none. Flank or rear by formed troops: always.
        assert!(!waiver_due(
            &inf(Class::Veteran),
            &regular,
            true,
            Era::HorseAndMusket
        ));
        assert!(waiver_due(
            &inf(Class::Green),
            &regular,
            false,
            Era::HorseAndMusket
        ));
        // Frontal shock of a better class against foot, unless square or obstacle.
        assert!(waiver_due(&vet_shock, &regular, true, Era::HorseAndMusket));
        assert!(!waiver_due(
            &vet_shock,
            &Fighter {
                square: true,
                ..regular
            },
            true,
            Era::HorseAndMusket
        ));
        assert!(!waiver_due(
            &vet_shock,
            &Fighter {
                obstacle: true,
                ..regular
            },
            true,
            Era::HorseAndMusket
        ));
        assert!(!waiver_due(
            &Fighter {
                shock: true,
                ..inf(Class::Regular)
            },
            &regular,
            true,
            Era::HorseAndMusket
        ));
        // "Defending a linear obstacle/building": a unit in buildings is spared too.
        let mut housed = regular;
        housed.unit.in_buildings = true;
        assert!(!waiver_due(&vet_shock, &housed, true, Era::HorseAndMusket));
        // "Shock cavalry do not cause waiver tests when charging frontally during the
        // 'Industrial Age'": shock foot still do, and flank charges still do.
        let vet_shock_cav = Fighter {
            shock: true,
            ..fighter(Class::Veteran, 6, Troop::Cavalry)
        };
        assert!(waiver_due(
            &vet_shock_cav,
            &regular,
            true,
            Era::HorseAndMusket
        ));
        assert!(!waiver_due(&vet_shock_cav, &regular, true, Era::Industrial));
        assert!(waiver_due(&vet_shock, &regular, true, Era::Industrial));
        assert!(waiver_due(&vet_shock_cav, &regular, false, Era::Industrial));
        let cav_target = fighter(Class::Regular, 6, Troop::Cavalry);
        assert!(
            !waiver_due(&vet_shock, &cav_target, true, Era::HorseAndMusket),
            "only foot"
        );
        // Skirmishers standing against formed troops; not against skirmishers.
        let sk = fighter(Class::Regular, 4, Troop::Skirmisher);
        assert!(waiver_due(&regular, &sk, true, Era::HorseAndMusket));
        assert!(!waiver_due(&sk, &sk, true, Era::HorseAndMusket));
        // The test: Good fails into Unsteady, Unsteady into Routing.
        let o = Options::default();
        let s = UnitState::new(Status::Good, 0, 0);
        let (t, failed) = waiver(&regular.unit, &o, s, &mut Scripted::new(&[3]));
        assert_eq!((t.status, failed), (Status::Unsteady, true));
        let (t, _) = waiver(&regular.unit, &o, t, &mut Scripted::new(&[1]));
        assert_eq!(t.status, Status::Routing);
        let (t, failed) = waiver(&regular.unit, &o, s, &mut Scripted::new(&[4]));
        assert_eq!((t.status, failed), (Status::Good, false));
        // "All the usual modifiers apply including those for charging": a Regular in buildings
        // (+1) passes on a 3; with a −1 for being charged as well it needs the 4 again.
        let mut u = regular.unit;
        u.in_buildings = true;
        assert!(!waiver(&u, &o, s, &mut Scripted::new(&[3])).1);
        u.modifier = -1;
        assert!(waiver(&u, &o, s, &mut Scripted::new(&[3])).1);
    }

    #[test]
    fn rf8_and_rf12_rolls() {
        let mut elephant = fighter(Class::Regular, 1, Troop::Elephant).unit;
        assert!(stampedes(&elephant, &mut Scripted::new(&[2])));
        assert!(!stampedes(&elephant, &mut Scripted::new(&[3])));
        elephant.numbers.stampede_on = 3;
        assert!(stampedes(&elephant, &mut Scripted::new(&[3])));
        elephant.numbers.stampede_on = 0;
        assert!(!stampedes(&elephant, &mut Scripted::new(&[1])));
        assert!(uncontrolled(3, &mut Scripted::new(&[3])));
        assert!(!uncontrolled(3, &mut Scripted::new(&[4])));
        assert!(!uncontrolled(0, &mut Scripted::new(&[])));
        assert!(uncontrolled(6, &mut Scripted::new(&[6])));
    }

    /// RF-8: "this stampede test applies to any failed morale test - whether that test is to
    /// rout the elephant or just make it become unsteady"; a stampeding elephant turns about
    /// and runs, which the tool counts as routing, "it does not apply to rally tests".
    #[test]
    fn rf8_a_stampede_follows_any_failed_morale_test_and_routs() {
        let stand = |models| Unit {
            kind: Kind::Elephant,
            ..fighter(Class::Regular, models, Troop::Elephant).unit
        };
        let elephant = stand(1);
        let on = Options {
            elephant_stampede: true,
            ..Options::default()
        };
        // Good, fails (1), stampedes (2): routing, not Unsteady.
        let good = UnitState::new(Status::Good, 1, 0);
        let (s, stamped) = elephant.morale_test(&on, good, &mut Scripted::new(&[1, 2]));
        assert!(stamped);
        assert_eq!((s.status, s.lost), (Status::Routing, 1));
        // Good, fails (1), no stampede (3): Unsteady as any unit.
        let (s, stamped) = elephant.morale_test(&on, good, &mut Scripted::new(&[1, 3]));
        assert_eq!((s.status, stamped), (Status::Unsteady, false));
        // Already routing (two models, one hit taken): its failed test is rolled for too (1,
        // then 1 stampedes). Under the default `routing_fail = rout-again` it loses a model
        // first (its hits rise to the next 3).
        let two = stand(2);
        let routing = UnitState::new(Status::Routing, 1, 0);
        let (s, stamped) = two.morale_test(&on, routing, &mut Scripted::new(&[1, 1]));
        assert!(stamped);
        assert_eq!((s.status, s.lost), (Status::Routing, 3));
        // Passing rolls no stampede die; nor does a rally (its failure is not a morale test).
        let (_, stamped) = elephant.morale_test(&on, good, &mut Scripted::new(&[6]));
        assert!(!stamped);
        let unsteady = UnitState::new(Status::Unsteady, 1, 0);
        let s = elephant.rally(&on, unsteady, &mut Scripted::new(&[1]));
        assert_eq!(s.status, Status::Unsteady);
        // Without the option, no stampede die.
        let (s, stamped) =
            elephant.morale_test(&Options::default(), good, &mut Scripted::new(&[1]));
        assert_eq!((s.status, stamped), (Status::Unsteady, false));
    }

    /// Every way off the table records its cause, and only removal records one.
    #[test]
    fn each_removal_records_its_cause() {
        let o = Options::default();
        let cause = |s: UnitState| {
            assert_eq!(s.status == Status::Removed, s.removal.is_some(), "{s:?}");
            s.removal
        };
        let regular = fighter(Class::Regular, 8, Troop::Infantry).unit;
        // RF-3: routing at 3 of 8, fails its rally (a 1), loses the 4th stand: dispersed.
        let s = UnitState::new(Status::Routing, 3, 0);
        let after = regular.rally(&o, s, &mut Scripted::new(&[1]));
        assert_eq!(cause(after), Some(Removal::Dispersed));
        // RF-4 `routing_fail = removed`: routing, hit and failing again.
        let removed = Options {
            routing_fail: RoutingFail::Removed,
            ..o
        };
        let s = UnitState::new(Status::Routing, 1, 0);
        let after = regular.morale(&removed, s, &mut Scripted::new(&[1]));
        assert_eq!(cause(after), Some(Removal::FailedWhileRouting));
        // Passing keeps it on the table, with no cause.
        let after = regular.morale(&removed, s, &mut Scripted::new(&[6]));
        assert_eq!(cause(after), None);
        // RF-7: "if they have the guns limbered they will rout with them, if the guns are
        // unlimbered the crew will rout and abandon their guns". An Unsteady battery that
        // limbered and retired (the default) and fails routs with its guns; one that stayed in
        // place (`battery_stays`) has them unlimbered, and the crew abandon them.
        let gun = Unit {
            kind: Kind::Artillery,
            stands: 2,
            ..regular
        };
        let s = UnitState::new(Status::Unsteady, 1, 0);
        let after = gun.morale(&o, s, &mut Scripted::new(&[1]));
        assert_eq!(cause(after), Some(Removal::RoutedWithGuns));
        let stays = Options {
            battery_stays: true,
            ..o
        };
        let good = UnitState::new(Status::Good, 1, 0);
        let unsteady = gun.morale(&stays, good, &mut Scripted::new(&[1]));
        assert_eq!(
            (unsteady.status, unsteady.in_place),
            (Status::Unsteady, true)
        );
        let after = gun.morale(&stays, unsteady, &mut Scripted::new(&[1]));
        assert_eq!(cause(after), Some(Removal::GunsAbandoned));
        // Without the policy it limbers and retires: not in its place.
        let retired = gun.morale(&o, good, &mut Scripted::new(&[1]));
        assert_eq!(
            (retired.status, retired.in_place),
            (Status::Unsteady, false)
        );
        // "None of these options apply to a unit that has just lost a melee": it retires.
        let (lost, _) = lose_melee(&gun, &stays, &RULES, good);
        assert_eq!((lost.status, lost.in_place), (Status::Unsteady, false));
        // A formed unit never stays, whatever the policy.
        let unit = regular.morale(&stays, good, &mut Scripted::new(&[1]));
        assert!(!unit.in_place);
        // Every hit gone: destroyed, by fire or in melee.
        assert_eq!(
            cause(gun.take_hits(UnitState::new(Status::Good, 0, 0), 6)),
            Some(Removal::Destroyed)
        );
        let mut carry = 0;
        let s = UnitState::new(Status::Good, 6, 0);
        let after = take_casualties(&regular, s, &mut carry, 2, 1);
        assert_eq!(cause(after), Some(Removal::Destroyed));
        // RF-9: a Routing loser drops to removed.
        let (after, fifty) =
            lose_melee(&regular, &o, &RULES, UnitState::new(Status::Routing, 1, 0));
        assert_eq!(
            (cause(after), fifty),
            (Some(Removal::FailedWhileRouting), false)
        );
        // RF-10 `pursue`: an Unsteady target that fails routs and is caught.
        let rules = WaiverRules {
            stampede: false,
            pursue: true,
        };
        let s = UnitState::new(Status::Unsteady, 0, 0);
        let (after, _, end) = charge_waiver(&regular, &o, rules, s, &mut Scripted::new(&[1]));
        assert_eq!(
            (cause(after), end),
            (Some(Removal::Caught), WaiverEnd::Caught)
        );
    }

    /// Fire at a removed unit changes nothing: it keeps the cause it was removed for. (A
    /// surviving mutant made the early return need both a removed unit and no hits.)
    #[test]
    fn a_removed_unit_takes_no_more_hits() {
        let u = fighter(Class::Regular, 8, Troop::Infantry).unit;
        let mut s = UnitState::new(Status::Routing, 4, 0);
        s.remove(Removal::Dispersed);
        let after = u.take_hits(s, 3);
        assert_eq!(after, s);
        assert_eq!(after.removal, Some(Removal::Dispersed));
        // No hits on a unit in the line: nothing changes either.
        let good = UnitState::new(Status::Good, 2, 0);
        assert_eq!(u.take_hits(good, 0), good);
    }

    /// The words reports print: RF-2's naturals as the rules set them, and a meaning for each
    /// cause of removal, each its own. (Surviving mutants emptied both.)
    #[test]
    fn naturals_and_removals_in_words() {
        let n = Numbers::default();
        assert_eq!(n.naturals(), "a 1 always fails, a 6 always passes");
        let none = Numbers {
            always_fails: 0,
            always_passes: 7,
            ..n
        };
        assert_eq!(
            none.naturals(),
            "no roll always fails, no roll always passes"
        );
        let wide = Numbers {
            always_fails: 2,
            always_passes: 5,
            ..n
        };
        assert_eq!(wide.naturals(), "1 to 2 always fail, 5 to 6 always pass");
        let causes = [
            Removal::Destroyed,
            Removal::Dispersed,
            Removal::FailedWhileRouting,
            Removal::GunsAbandoned,
            Removal::Caught,
        ];
        let mut meanings: Vec<&str> = causes.iter().map(|c| c.meaning()).collect();
        for m in &meanings {
            assert!(m.starts_with("share of "), "{m}");
        }
        meanings.sort_unstable();
        meanings.dedup();
        assert_eq!(meanings.len(), causes.len());
        assert!(Removal::Dispersed.meaning().contains("50%"));
    }
}
