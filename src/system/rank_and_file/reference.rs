//! Plain hand-written loops of three Rank & File benchmark cases, with the source's numbers
//! written in, for `bench` to hold the tool's samplers against: the rally (a routing Veteran
//! unit of 7 stands with 2 lost: RF-2, RF-3, RF-5), a Regular unit of 8 stands under fire
//! (RF-2 to RF-5, RF-13) and a melee of Veteran cavalry against Regular infantry (RF-9). The
//! same engine runs them (chunks, dice, threads), so the ratio of a case to its loop is the
//! price of the tool's generality, and it does not move with the machine. `bench` checks each
//! loop's result against the tool's exact solution every time it runs it, so none can drift
//! from the rules.

use crate::dice::{Dice, Roll};
use crate::engine::Sim;
use crate::system::cases::{Against, Reference, hits, run_loop};

/// The reference loop of `rally RF veteran 7 stands 2 lost routing 100 turns`.
pub(super) const RALLY: Reference = Reference {
    name: "hand loop: rally RF veteran 7 stands 2 lost routing 100 turns",
    case: "rally RF veteran 7 stands 2 lost routing 100 turns",
    outcomes: &["recovered", "removed", "unsteady", "routing"],
    against: Against::Exact,
    run: run_loop::<RallyLoop>,
};

/// The loop's trial: a routing Veteran unit of 7 stands, 2 lost, at most 100 rally phases.
#[derive(Default)]
struct RallyLoop;

/// RF-2: the natural roll a Veteran (base 3+) formed unit needs with `lost` stands gone, one
/// worse per stand; a 1 always fails, a 6 always passes.
#[inline(always)]
fn need(lost: u32) -> u8 {
    (3 + lost).clamp(2, 6) as u8
}

/// RF-3: 7 stands are broken at 50%, from the fourth stand lost.
#[inline(always)]
fn broken(lost: u32) -> bool {
    2 * lost >= 7
}

impl Sim for RallyLoop {
    fn tally_len(&self) -> usize {
        4
    }

    fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]) {
        for _ in 0..n {
            let (mut lost, mut routing) = (2u32, true);
            // The end: 0 recovered, 1 removed, 2 still unsteady, 3 still routing.
            let mut end = 3;
            for _ in 0..100 {
                if routing {
                    // RF-5: pass → Unsteady; fail → rout on, one more stand lost, and RF-3
                    // disperses a routing unit at 50%.
                    if dice.d6() >= need(lost) {
                        routing = false;
                        end = 2;
                    } else {
                        lost += 1;
                        if broken(lost) {
                            end = 1;
                            break;
                        }
                    }
                } else if dice.d6() >= need(lost) {
                    // An Unsteady unit (never broken here) that passes is back in good order.
                    end = 0;
                    break;
                }
            }
            tally[end] += 1;
        }
    }
}

/// The reference loop of `under-fire RF regular 8 stands 12 turns`.
pub(super) const UNDER_FIRE: Reference = Reference {
    name: "hand loop: under-fire RF regular 8 stands 12 turns",
    case: "under-fire RF regular 8 stands 12 turns",
    outcomes: &["good", "unsteady", "routing", "removed"],
    against: Against::Exact,
    run: run_loop::<UnderFireLoop>,
};

/// The loop's trial: a Good Regular unit of 8 stands under the tool's default enemy fire (four
/// dice hitting on 6, a stand a hit, at the unit whatever its state) for 12 turns.
#[derive(Default)]
struct UnderFireLoop;

/// Stands of the unit under fire.
const UF_STANDS: u32 = 8;

/// RF-2: the natural roll a Regular (base 4+) formed unit needs with `lost` stands gone, one
/// worse per stand; a 1 always fails, a 6 always passes.
#[inline(always)]
fn regular_need(lost: u32) -> u8 {
    (4 + lost).clamp(2, 6) as u8
}

/// RF-3: 8 stands are broken at 50%, from the fourth stand lost: every test fails.
#[inline(always)]
fn uf_broken(lost: u32) -> bool {
    2 * lost >= UF_STANDS
}

/// A test of a Regular unit with `lost` stands gone: no die when it is broken (RF-3).
#[inline(always)]
fn regular_passes(dice: &mut Dice, lost: u32) -> bool {
    !uf_broken(lost) && dice.d6() >= regular_need(lost)
}

impl Sim for UnderFireLoop {
    fn tally_len(&self) -> usize {
        4
    }

    fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]) {
        // The states, which are the tally's counters: 0 good, 1 unsteady, 2 routing, 3 removed.
        const GOOD: usize = 0;
        const UNSTEADY: usize = 1;
        const ROUTING: usize = 2;
        const REMOVED: usize = 3;
        for _ in 0..n {
            let (mut lost, mut state) = (0u32, GOOD);
            for _turn in 0..12 {
                // RF-13 rally phase (RF-5): an Unsteady unit that passes is Good (not at 50%);
                // a Routing one that passes halts Unsteady, and one that fails routs on, loses
                // a stand, and RF-3 disperses it at 50%.
                if state == UNSTEADY {
                    if regular_passes(dice, lost) {
                        state = GOOD;
                    }
                } else if state == ROUTING {
                    if regular_passes(dice, lost) {
                        state = UNSTEADY;
                    } else {
                        lost += 1;
                        if uf_broken(lost) {
                            state = REMOVED;
                            break;
                        }
                    }
                }
                // The enemy's fire: four dice, a stand lost for each 6.
                let hits = hits(dice, 4, 6);
                if hits == 0 {
                    continue;
                }
                lost += hits;
                if lost >= UF_STANDS {
                    state = REMOVED;
                    break;
                }
                // RF-5 morale phase: a unit that lost a stand tests; a failure drops a level
                // (RF-4), a Routing unit that fails routs on and loses a stand (the tool's
                // `routing_fail = rout-again`), and RF-3 disperses a routing unit at 50%.
                if regular_passes(dice, lost) {
                    continue;
                }
                match state {
                    GOOD => state = UNSTEADY,
                    UNSTEADY => state = ROUTING,
                    _ => lost += 1,
                }
                if uf_broken(lost) && state == ROUTING {
                    state = REMOVED;
                    break;
                }
            }
            tally[state] += 1;
        }
    }
}

/// The reference loop of `melee RF veteran cavalry v regular infantry`.
pub(super) const MELEE: Reference = Reference {
    name: "hand loop: melee RF veteran cavalry v regular infantry",
    case: "melee RF veteran cavalry v regular infantry",
    outcomes: &["attacker_wins", "defender_wins", "mutual_destruction"],
    against: Against::Exact,
    run: run_loop::<MeleeLoop>,
};

/// The loop's melee: 6 stands of cavalry charge 8 of infantry (the spec's default), every
/// stand fighting (no frontage given), both hitting on 4+ (RF-9, no modifier applies).
#[derive(Default)]
struct MeleeLoop;

impl Sim for MeleeLoop {
    fn tally_len(&self) -> usize {
        3
    }

    fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]) {
        for _ in 0..n {
            // Stands left: the attacker's, the defender's.
            let (mut a, mut d) = (6u32, 8u32);
            // The end: 0 attacker wins, 1 defender wins, 2 both wiped out.
            let end = loop {
                // RF-9: a die a stand, each 4+ a hit, each hit a stand, both sides at once.
                let (a_hits, d_hits) = (hits(dice, a, 4), hits(dice, d, 4));
                d = d.saturating_sub(a_hits);
                a = a.saturating_sub(d_hits);
                // The side wiped out loses; else the side that scored fewer hits; a drawn
                // round is fought again.
                match (a == 0, d == 0) {
                    (true, true) => break 2,
                    (false, true) => break 0,
                    (true, false) => break 1,
                    (false, false) if a_hits > d_hits => break 0,
                    (false, false) if a_hits < d_hits => break 1,
                    (false, false) => {}
                }
            };
            tally[end] += 1;
        }
    }
}
