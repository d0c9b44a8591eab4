//! A plain hand-written loop of the Linear Warfare line benchmark case (six Line battalions a
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
use crate::engine::{Control, RunSpec, Sim};
use crate::error::Result;
use crate::system::cases::{Against, Reference};

/// The reference loop of `line LW 6 v 6`.
pub(super) const LINE: Reference = Reference {
    name: "hand loop: line LW 6 v 6",
    case: "line LW 6 v 6",
    outcomes: &["side_a_wins", "side_b_wins", "both_broken", "draw_at_cap"],
    against: Against::MonteCarlo,
    run: line,
};

/// Run the line loop's battles as the engine runs a job's: tallies of the four ends.
fn line(spec: &RunSpec, control: &Control) -> Result<Vec<u64>> {
    crate::engine::run(&LineLoop, spec, control)
}

/// The loop's battle.
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
