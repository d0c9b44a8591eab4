//! Plain hand-written loops of two benchmark cases of the effectiveness rules, with the
//! source's numbers written in, for `bench` to hold the tool's samplers against: a Regular unit
//! under fire with the retreat amendment and its return roll (EF-1, EF-2, EF-4, EF-5), and a
//! melee of two Regular units (EF-1 to EF-4). The same engine runs them (chunks, dice,
//! threads), so the ratio of a case to its loop is the price of the tool's generality, and it
//! does not move with the machine. `bench` checks each loop's result against the tool's exact
//! solution every time it runs it, so neither can drift from the rules.

use crate::dice::{Dice, Roll};
use crate::engine::Sim;
use crate::system::cases::{Against, Reference, hits, run_loop};

/// The reference loop of `under-fire EF regular 12 turns retreat-on-fire return-roll`.
pub(super) const UNDER_FIRE: Reference = Reference {
    name: "hand loop: under-fire EF regular 12 turns retreat-on-fire return-roll",
    case: "under-fire EF regular 12 turns retreat-on-fire return-roll",
    outcomes: &["in_line", "retreating", "eliminated"],
    against: Against::Exact,
    run: run_loop::<UnderFireLoop>,
};

/// The reference loop of `melee EF regular v regular`.
pub(super) const MELEE: Reference = Reference {
    name: "hand loop: melee EF regular v regular",
    case: "melee EF regular v regular",
    outcomes: &["attacker_wins", "defender_wins", "mutual_destruction"],
    against: Against::Exact,
    run: run_loop::<MeleeLoop>,
};

/// EF-2: a Regular unit (no general, no support) passes its test on a natural 4+.
#[inline(always)]
fn regular_passes(dice: &mut Dice) -> bool {
    dice.d6() >= 4
}

/// The loop's trial: a Regular unit at full effectiveness in the line, for 12 turns under the
/// tool's default enemy fire (four dice hitting on 5+, two hits a quarter), exchanging fire
/// with a Regular enemy (our four dice on 5+), under `retreat-on-fire` and `return-roll`; no
/// retreat is blocked and a retreating unit is out of the enemy's range (the defaults).
#[derive(Default)]
struct UnderFireLoop;

impl Sim for UnderFireLoop {
    fn tally_len(&self) -> usize {
        3
    }

    fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]) {
        // The states, which are the tally's counters.
        const IN_LINE: usize = 0;
        const RETREATING: usize = 1;
        const ELIMINATED: usize = 2;
        for _ in 0..n {
            // EF-1: quarters of effectiveness left, and hits short of the next quarter.
            let (mut quarters, mut carry, mut state) = (4u32, 0u32, IN_LINE);
            for _turn in 0..12 {
                // EF-5 (return-roll): a retreating unit returns to normal action on a 5+ at the
                // start of its move; until then it is out of range, and nobody fires at it.
                if state == RETREATING {
                    if dice.d6() >= 5 {
                        state = IN_LINE;
                    } else {
                        continue;
                    }
                }
                // EF-1 / EF-3: every two hits cost a quarter; hits short of one carry over.
                let total = carry + hits(dice, 4, 5);
                let lost = (total / 2).min(quarters);
                carry = total % 2;
                quarters -= lost;
                if quarters == 0 {
                    state = ELIMINATED;
                    break;
                }
                // EF-2: a unit that lost 25% tests; a failure costs another 25%.
                if lost == 0 || regular_passes(dice) {
                    continue;
                }
                quarters -= 1;
                if quarters == 0 {
                    state = ELIMINATED;
                    break;
                }
                // EF-5: and it retreats, unless the enemy it exchanged fire with also lost a
                // quarter (two hits of our four dice on 5+) and failed its own test.
                let enemy_failed = hits(dice, 4, 5) >= 2 && !regular_passes(dice);
                if !enemy_failed {
                    state = RETREATING;
                }
            }
            tally[state] += 1;
        }
    }
}

/// The loop's melee: two Regular units at full effectiveness, four dice each hitting on 4+,
/// two hits a quarter, a round a turn until one side has suffered more hits (EF-3).
#[derive(Default)]
struct MeleeLoop;

impl Sim for MeleeLoop {
    fn tally_len(&self) -> usize {
        3
    }

    fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]) {
        for _ in 0..n {
            // Quarters left and hits carried: the attacker's, the defender's.
            let (mut quarters, mut carry) = ([4u32, 4], [0u32, 0]);
            // The end: 0 attacker wins, 1 defender wins, 2 both eliminated.
            let end = loop {
                let a_hits = hits(dice, 4, 4);
                let d_hits = hits(dice, 4, 4);
                for (side, h) in [(1, a_hits), (0, d_hits)] {
                    let total = carry[side] + h;
                    quarters[side] -= (total / 2).min(quarters[side]);
                    carry[side] = total % 2;
                }
                match (quarters[0] == 0, quarters[1] == 0) {
                    (true, true) => break 2,
                    (false, true) => break 0,
                    (true, false) => break 1,
                    // EF-3: a tie is fought again next turn.
                    (false, false) if a_hits == d_hits => continue,
                    // EF-3 / EF-2: the side that suffered more hits loses and tests (a failure
                    // costs it a quarter, which may eliminate it), then retreats (EF-4, never
                    // blocked here). The test is rolled as the rules roll it, though either way
                    // the other side won the melee, which is all the tally counts.
                    (false, false) => {
                        let loser = usize::from(a_hits > d_hits);
                        let _loser_failed = !regular_passes(dice);
                        break 1 - loser;
                    }
                }
            };
            tally[end] += 1;
        }
    }
}
