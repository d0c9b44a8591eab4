//! The rule systems' mechanics, one module per system, as plain documented code with no I/O.

pub mod effectiveness;
pub mod linear_warfare;
pub mod rank_and_file;
