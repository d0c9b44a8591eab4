//! Rank & File (`rank-and-file`): morale classes, the test, the 50% rule, morale states, rally,
//! re-rolls and single stands (RULES.md RF-1 to RF-7).
//!
//! Everything here is plain game logic: no I/O, no generators. Chance comes from a [`Roll`].
//!
//! One file per family of rules: `vocabulary` (the named choices and kinds), `morale` (the
//! unit, its tests and rally), `melee` (a side of a melee and a round's end) and `charge` (the
//! waiver test and what a charge can set off); everything is re-exported here.

mod charge;
mod melee;
mod morale;
mod vocabulary;

pub use charge::*;
pub use melee::*;
pub use morale::*;
pub use vocabulary::*;
