//! A plain hand-written loop of the rally benchmark case (a routing Veteran unit of 7 stands
//! with 2 lost, RF-2, RF-3 and RF-5 with the source's numbers written in), for `bench` to hold
//! the tool's samplers against: the same engine runs it (chunks, dice, threads), so the ratio
//! of the two is the price of the tool's generality. `bench` checks its result against the
//! tool's exact solution every time it runs it, so it cannot drift from the rules.

use crate::dice::{Dice, Roll};
use crate::engine::{Control, RunSpec, Sim};
use crate::error::Result;
use crate::system::cases::{Against, Reference};

/// The reference loop of `rally RF veteran 7 stands 2 lost routing 100 turns`.
pub(super) const RALLY: Reference = Reference {
    name: "hand loop: rally RF veteran 7 stands 2 lost routing 100 turns",
    case: "rally RF veteran 7 stands 2 lost routing 100 turns",
    outcomes: &["recovered", "removed", "unsteady", "routing"],
    against: Against::Exact,
    run: rally,
};

/// Run the rally loop's trials as the engine runs a job's: tallies of the four ends.
fn rally(spec: &RunSpec, control: &Control) -> Result<Vec<u64>> {
    crate::engine::run(&RallyLoop, spec, control)
}

/// The loop's trial: a routing Veteran unit of 7 stands, 2 lost, at most 100 rally phases.
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
