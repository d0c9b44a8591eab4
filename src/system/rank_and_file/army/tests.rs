use super::*;
use crate::system::rank_and_file::{Switches, unit::parse_fighter};
use rf::Status::{Good, Removed, Routing, Unsteady};

/// The table of standings reads as the rules say: no unit is absent; Good holds its place,
/// Unsteady only when it stayed in it (RF-7, RF-10); Routing is shaken; Removed is gone.
#[test]
fn standing_table_follows_the_states() {
    let a = army("regular infantry", "regular infantry", 1);
    for present in [false, true] {
        for status in [Good, Unsteady, Routing, Removed] {
            for in_place in [false, true] {
                let mut u = a.unit(0, 0);
                (u.present, u.s.status, u.s.in_place) = (present, status, in_place);
                let want = match (present, status) {
                    (false, _) => Standing::Absent,
                    (_, Good) => Standing::InLine,
                    (_, Unsteady) if in_place => Standing::InLine,
                    (_, Removed) => Standing::Gone,
                    _ => Standing::Shaken,
                };
                assert_eq!(a.standing(&u), want, "{u:?}");
            }
        }
    }
}

/// The targets read off the bits are the shared rule's (the enemy opposite, else the left,
/// else the right neighbour of that place), for every field width, every file and every
/// set of targets on the field.
#[test]
fn target_bits_aim_as_the_shared_rule() {
    for files in 1..=MAX_FILES {
        for targets in 0u32..1 << files {
            let targetable: [bool; MAX_FILES] =
                std::array::from_fn(|i| i < files && targets >> i & 1 == 1);
            for file in 0..files {
                assert_eq!(
                    target_of(targets, file),
                    fire_target(&targetable, file, files),
                    "{files} files, targets {targets:#b}, file {file}"
                );
            }
        }
    }
}

/// One file: side A's `attacker` charges side B's `defender` on turn 1 (in contact), with
/// Blown cavalry and waiver tests in force; side B shoots `b_dice` dice hitting on 6s.
fn army(attacker: &str, defender: &str, b_dice: u32) -> RfArmy {
    let on = Switches {
        waiver_tests: true,
        blown_cavalry: true,
        ..Switches::default()
    };
    let (a, sa) = parse_fighter("--attacker", attacker, &on).unwrap();
    let (d, sd) = parse_fighter("--defender", defender, &on).unwrap();
    let melee = MeleeSetup {
        options: rf::Options::default(),
        rules: rf::MeleeRules::SOURCE,
        max_rounds: 50,
    };
    RfArmy::new(
        [vec![a], vec![d]],
        [vec![sa], vec![sd]],
        melee,
        [Volley::dice(0, 6), Volley::dice(b_dice, 6)],
        on,
        (rf::Era::HorseAndMusket, false),
        BattleRules::SOURCE,
    )
}

fn field(army: &RfArmy) -> Field<RfSlot> {
    Field::one_file(army, 1)
}

/// Turn 1 of a one-file battle: side A charges from turn `charge_at_turn` (0: never on
/// that account, and not a shaken target either), fire reaches `fire_range` moves, and the
/// units stood `start_range` moves apart at the start of the turn.
fn one_file(charge_at_turn: u32, fire_range: u8, start_range: u8) -> TurnContext {
    TurnContext {
        turn: 1,
        files: 1,
        policy: Policy {
            charge_at_turn,
            when_shaken: false,
        },
        fire_range,
        start_range,
    }
}

fn turn_one(army: &RfArmy, f: &mut Field<RfSlot>, dice: &[u8]) -> usize {
    let ctx = one_file(1, 1, 1);
    scripted_turn(army, f, &ctx, dice)
}

/// RF-11 (supplement): a charger has its Blown marker after the charge even when the target
/// broke in its waiver test and no melee followed (it used to get none, and to lose one it
/// had).
#[test]
fn a_charger_whose_target_broke_before_contact_is_blown() {
    let army = army(
        "veteran cavalry stands=6 shock",
        "regular infantry stands=8 state=unsteady",
        0,
    );
    let mut f = field(&army);
    // The waiver test: a 1 fails, and an Unsteady unit that fails routs (RF-10).
    let used = turn_one(&army, &mut f, &[1]);
    assert_eq!(used, 1, "no melee dice were rolled");
    assert_eq!(f.front[1][0].s.status, rf::Status::Routing);
    assert!(f.front[0][0].blown, "the charger carries its Blown marker");
    // It already carried one: it keeps it.
    let army = army_blown();
    let mut f = field(&army);
    assert!(f.front[0][0].blown);
    turn_one(&army, &mut f, &[1]);
    assert!(f.front[0][0].blown);
}

/// RF-13: the charge phase comes before movement, so a charge covers one move from where
/// the units stood at the start of the turn: two moves apart, side A does not charge this
/// turn (it advances in the movement phase). Nothing is rolled: no waiver, no melee.
#[test]
fn a_unit_two_moves_off_does_not_charge_this_turn() {
    let army = army(
        "veteran cavalry stands=6 shock",
        "regular infantry stands=8",
        0,
    );
    let mut f = Field::one_file(&army, 2);
    let ctx = one_file(1, 0, 2);
    assert_eq!(scripted_turn(&army, &mut f, &ctx, &[]), 0);
    assert!(!f.front[0][0].blown, "it did not charge");
}

/// RF-13 and RF-10: a routing unit is still a charge target ("still valid charge
/// targets"). By default it evades ("routers that have evaded a charge"): no melee, and
/// as a charge's target it may not rally this turn (no die rolled), so it loses a stand as
/// a router that does not rally "will still" (RF-5); under `caught` the
/// charge contacts and destroys it; under `evades-unhurt` it flees without the loss; under
/// `not-a-target` nobody charges it and it takes
/// its rally test (a 6 rallies it to Unsteady).
#[test]
fn a_charged_router_evades_or_is_caught() {
    let mut army = army("regular cavalry stands=6", "regular infantry stands=8", 0);
    army.waiver_tests = false;
    let routing = |army: &RfArmy| {
        let mut f = field(army);
        f.front[1][0].s.status = rf::Status::Routing;
        f.front[1][0].s.lost = 1;
        f
    };
    let mut f = routing(&army);
    assert_eq!(turn_one(&army, &mut f, &[]), 0);
    assert_eq!(f.front[1][0].s.status, rf::Status::Routing);
    assert_eq!(f.front[1][0].s.lost, 2);
    assert!(f.front[0][0].blown, "the charger charged");
    // Routers rout on "until they either disperse or leave the table" (RF-3): at 3 lost
    // of 8 the stand it loses is the fourth, half the unit, and it disperses.
    let mut f = routing(&army);
    f.front[1][0].s.lost = 3;
    assert_eq!(turn_one(&army, &mut f, &[]), 0);
    assert_eq!(f.front[1][0].s.removal, Some(rf::Removal::Dispersed));
    // Under `evades-unhurt` it flees and does not rally (no die rolled), but keeps its
    // stands: still 1 lost, still routing (mutation tried: letting it into the rally
    // phase rolls a die and fails the count).
    army.set_battle(|b| b.charged_router = rf::ChargedRouter::EvadesUnhurt);
    let mut f = routing(&army);
    assert_eq!(turn_one(&army, &mut f, &[]), 0);
    assert_eq!(f.front[1][0].s.status, rf::Status::Routing);
    assert_eq!(f.front[1][0].s.lost, 1);
    army.set_battle(|b| b.charged_router = rf::ChargedRouter::Caught);
    let mut f = routing(&army);
    assert_eq!(turn_one(&army, &mut f, &[]), 0);
    assert_eq!(f.front[1][0].s.removal, Some(rf::Removal::Caught));
    army.set_battle(|b| b.charged_router = rf::ChargedRouter::NotATarget);
    let mut f = routing(&army);
    assert_eq!(turn_one(&army, &mut f, &[6]), 1);
    assert_eq!(f.front[1][0].s.status, rf::Status::Unsteady);
    assert!(!f.front[0][0].blown, "nobody charged");
}

/// Who fires (the sources are silent; rule parameters): by default only a Good unit that
/// did not charge. An Unsteady side B fires only under `unsteady_fires`.
#[test]
fn only_good_units_fire_unless_the_rules_say_otherwise() {
    let mut army = army("regular cavalry stands=6", "regular infantry stands=8", 6);
    let mut f = field(&army);
    f.front[1][0].s.status = rf::Status::Unsteady;
    let ctx = one_file(0, 1, 1);
    // Side B's rally test (1 fails): it stays Unsteady and does not fire.
    assert_eq!(scripted_turn(&army, &mut f, &ctx, &[1]), 1);
    army.set_battle(|b| b.unsteady_fires = true);
    let mut f = field(&army);
    f.front[1][0].s.status = rf::Status::Unsteady;
    // The rally test (1), then its volley (no hit).
    assert_eq!(scripted_turn(&army, &mut f, &ctx, &[1, 0]), 2);
}

fn army_blown() -> RfArmy {
    army(
        "veteran cavalry stands=6 shock blown",
        "regular infantry stands=8 state=unsteady",
        0,
    )
}

/// RF-11: a Blown marker comes off in a charge phase in which the unit neither charges nor
/// is routing; a routing unit keeps its marker.
#[test]
fn a_marker_comes_off_unless_the_unit_charges_or_routs() {
    let army = army_blown();
    let ctx = one_file(0, 0, 1);
    // Nobody charges or fires: side B's rally test (a 1 fails) is the only die.
    let mut f = field(&army);
    assert!(f.front[0][0].blown);
    assert_eq!(scripted_turn(&army, &mut f, &ctx, &[1]), 1);
    assert!(!f.front[0][0].blown, "a Good unit that did not charge");
    // Routing, it keeps the marker (its rally test and side B's: both 1s, both fail).
    let mut f = field(&army);
    f.front[0][0].s.status = rf::Status::Routing;
    assert_eq!(scripted_turn(&army, &mut f, &ctx, &[1, 1]), 2);
    assert_eq!(f.front[0][0].s.status, rf::Status::Routing);
    assert!(f.front[0][0].blown, "a routing unit");
}

/// RF-13 with the core rules' words: a target that becomes shaken before the melee phase
/// (here Unsteady after losing a stand to fire in the morale phase) retires, and a charger
/// that does so halts: the melee does not happen that turn.
#[test]
fn units_shaken_before_the_melee_phase_do_not_fight() {
    // Side B's volley at the charger (scripted dice pick its table's outcome by index):
    // one hit, then the charger's morale test fails (a 1) and it is Unsteady.
    let army = army("regular cavalry stands=6", "regular infantry stands=8", 6);
    let mut f = field(&army);
    let used = turn_one(&army, &mut f, &[1, 1, 1, 1, 1, 1]);
    assert_eq!(f.front[0][0].s.status, rf::Status::Unsteady);
    assert_eq!(
        used, 2,
        "the volley and the morale test only: no melee dice"
    );
    assert_eq!(f.front[1][0].s.status, rf::Status::Good);
    // With no hit the same charge is fought: its rounds roll dice.
    let mut f = field(&army);
    let mut dice = vec![0];
    dice.extend([1; 2000]);
    let used = turn_one(&army, &mut f, &dice);
    assert!(used > 2, "the melee was fought: {used} dice");
    // Under `unsteady_meets_charge` the charger made Unsteady still charges home.
    let mut army = army;
    army.set_battle(|b| b.unsteady_meets_charge = true);
    let mut f = field(&army);
    let mut dice = vec![1, 1];
    dice.extend([1; 2000]);
    let used = turn_one(&army, &mut f, &dice);
    assert!(used > 2, "the melee was fought: {used} dice");
}
