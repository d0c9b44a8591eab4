//! Plain hand-written loops of three Linear Warfare benchmark cases, with the source's numbers
//! written in, for `bench` to hold the tool against: a Line battalion under fire (LW-1, LW-2),
//! a charge of Guards at Line behind an obstacle (LW-1, LW-3, LW-4), each checked against the
//! case's exact solution on every run; and the line battle below.
//!
//! The line: a plain hand-written loop of the Linear Warfare line benchmark case (six Line battalions a
//! side, 6 pips and 6 stands each, a move apart, the tool's defaults for everything the sources
//! leave open), for `bench` to hold the battle code against. With those defaults no unit falls
//! back (`fall_back_at` 0), so side A, which charges only a shaken target, never charges, and a
//! turn is the fire phase alone: LW-2 one die a stand hitting on 4+, each hit a pip, at the
//! battalion opposite or, where its place is empty, a neighbour of that place (left first);
//! LW-1 no fire from a unit on its last pip; a unit with no pips left is gone; LW-7 a side that
//! has lost half its units (3) breaks; 12 turns. It rolls every die one by one, as a player
//! would. Its battles are checked against the tool's own Monte Carlo run of the case (no exact
//! solution exists), outcome by outcome, so it cannot drift from the rules.

use crate::dice::{Dice, Roll};
use crate::engine::Sim;
use crate::system::cases::{Against, Reference, hits, run_loop};

/// The reference loop of `line LW 6 v 6`.
pub(super) const LINE: Reference = Reference {
    name: "hand loop: line LW 6 v 6",
    case: "line LW 6 v 6",
    outcomes: &["side_a_wins", "side_b_wins", "both_broken", "draw_at_cap"],
    against: Against::MonteCarlo,
    run: run_loop::<LineLoop>,
};

/// The loop's battle.
#[derive(Default)]
struct LineLoop;

/// Battalions a side.
const FILES: usize = 6;

/// LW-7: units gone at which a side breaks (half of six).
const BREAKS_AT: usize = 3;

impl Sim for LineLoop {
    fn tally_len(&self) -> usize {
        4
    }

    fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]) {
        for _ in 0..n {
            // Pips left, by side and file: 0 is gone.
            let mut pips = [[6u8; FILES]; 2];
            // The end: 0 side A wins, 1 side B wins, 2 both broken, 3 still fighting.
            let mut end = 3;
            for _turn in 0..12 {
                // LW-2: fire is simultaneous, so every volley is rolled before any pip is lost.
                let mut hits = [[0u8; FILES]; 2];
                for side in 0..2 {
                    let enemy = &pips[1 - side];
                    for i in 0..FILES {
                        // LW-1: a unit on its last pip does not fire (nor does a gone one).
                        if pips[side][i] < 2 {
                            continue;
                        }
                        let target = if enemy[i] > 0 {
                            i
                        } else if i > 0 && enemy[i - 1] > 0 {
                            i - 1
                        } else if i + 1 < FILES && enemy[i + 1] > 0 {
                            i + 1
                        } else {
                            continue;
                        };
                        for _ in 0..6 {
                            if dice.d6() >= 4 {
                                hits[1 - side][target] += 1;
                            }
                        }
                    }
                }
                let mut gone = [0; 2];
                for side in 0..2 {
                    for i in 0..FILES {
                        pips[side][i] = pips[side][i].saturating_sub(hits[side][i]);
                        gone[side] += usize::from(pips[side][i] == 0);
                    }
                }
                match (gone[0] >= BREAKS_AT, gone[1] >= BREAKS_AT) {
                    (false, true) => end = 0,
                    (true, false) => end = 1,
                    (true, true) => end = 2,
                    (false, false) => continue,
                }
                break;
            }
            tally[end] += 1;
        }
    }
}

/// The reference loop of `under-fire LW line 12 turns`.
pub(super) const UNDER_FIRE: Reference = Reference {
    name: "hand loop: under-fire LW line 12 turns",
    case: "under-fire LW line 12 turns",
    outcomes: &["in_line", "falling_back", "removed"],
    against: Against::Exact,
    run: run_loop::<UnderFireLoop>,
};

/// The loop's trial: a Line battalion of 6 pips under the tool's default enemy fire, three
/// dice hitting on 4+ a turn (LW-2), for 12 turns. With the defaults it never falls back
/// (`fall_back_at` 0), so it stays in the line until its last pip is gone (LW-1).
#[derive(Default)]
struct UnderFireLoop;

impl Sim for UnderFireLoop {
    fn tally_len(&self) -> usize {
        3
    }

    fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]) {
        for _ in 0..n {
            let mut pips = 6u32;
            // The end: 0 in the line, 2 removed (1, falling back, never happens here).
            let mut end = 0;
            for _turn in 0..12 {
                // LW-2: each hit removes a pip.
                pips = pips.saturating_sub(hits(dice, 3, 4));
                // LW-1: a unit with no pips left is removed.
                if pips == 0 {
                    end = 2;
                    break;
                }
            }
            tally[end] += 1;
        }
    }
}

/// The reference loop of `melee LW guards charging v line behind obstacle`.
pub(super) const MELEE: Reference = Reference {
    name: "hand loop: melee LW guards charging v line behind obstacle",
    case: "melee LW guards charging v line behind obstacle",
    outcomes: &["attacker_wins", "defender_wins", "bounce", "halted"],
    against: Against::Exact,
    run: run_loop::<MeleeLoop>,
};

/// The loop's charge: Guards of 7 pips charge (a single move, no pip spent) a Line battalion
/// of 5 pips and 6 stands defending an obstacle; no generals.
#[derive(Default)]
struct MeleeLoop;

/// LW-4: +1 for having two pips more than the opponent.
#[inline(always)]
fn gap(me: u32, them: u32) -> i32 {
    i32::from(me >= them + 2)
}

impl Sim for MeleeLoop {
    fn tally_len(&self) -> usize {
        4
    }

    fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]) {
        for _ in 0..n {
            let mut pips = [7u32, 5];
            // LW-3: the defender's closing fire as the charge goes in, a die a stand on 4+,
            // each hit a pip.
            pips[0] = pips[0].saturating_sub(hits(dice, 6, 4));
            // LW-1: a charger left on its last pip halts short (3); with none it is gone (1,
            // the defender wins).
            if pips[0] <= 1 {
                tally[if pips[0] == 0 { 1 } else { 3 }] += 1;
                continue;
            }
            // Rounds lost, and who follows up (0: nobody, the first round; 1 attacker; 2
            // defender).
            let mut losses = [0u32; 2];
            let mut follower = 0usize;
            // The end: 0 attacker wins, 1 defender wins, 2 bounce.
            let end = loop {
                // LW-4: Guards +1 every round; in the first round the charger +1 and the
                // obstacle +1; +1 for two pips more; +1 to the side following up.
                let first = follower == 0;
                let a = 1 + i32::from(first) + gap(pips[0], pips[1]) + i32::from(follower == 1);
                let d = i32::from(first) + gap(pips[1], pips[0]) + i32::from(follower == 2);
                let roll_a = i32::from(dice.d6()) + a;
                let roll_d = i32::from(dice.d6()) + d;
                // A drawn round is a mutual push-back: the melee ends in a bounce.
                if roll_a == roll_d {
                    break 2;
                }
                let winner = usize::from(roll_d > roll_a);
                let loser = 1 - winner;
                // The loser loses a pip; a second lost round, or no pips, destroys it.
                losses[loser] += 1;
                pips[loser] -= 1;
                if pips[loser] == 0 || losses[loser] >= 2 {
                    break winner;
                }
                // The winner follows up unless it is on its last pip (LW-1), and may be
                // followed up in turn if it loses (a reversal, the tool's default).
                if pips[winner] <= 1 {
                    break winner;
                }
                follower = winner + 1;
            };
            tally[end] += 1;
        }
    }
}
