//! What the Rank & File and effectiveness melees share: their outcome classes and phases.

use crate::chain::ClassInfo;

/// Classes of a Rank & File or effectiveness melee (and a Rank & File charge).
pub const FIGHT_CLASSES: [ClassInfo; 6] = [
    ClassInfo {
        name: "fighting",
        absorbing: false,
        empty: false,
    },
    ClassInfo {
        name: "attacker_wins",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "defender_wins",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "mutual_destruction",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "target_broke",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "target_caught",
        absorbing: true,
        empty: false,
    },
];

/// Phase codes of [`FightState`]: fighting its first round, fighting later rounds, or over
/// with the class index of the outcome (1 to 5 of [`FIGHT_CLASSES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FightPhase {
    /// The first round is next (after the charge phase, in a charge).
    First,
    /// A later round is next.
    Later,
    /// Over: the outcome's class index.
    Over(u8),
}
