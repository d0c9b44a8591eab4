//! The samplers of a chain ([`crate::chain::Chain`]): [`ChainSim`] runs a chain's trials for the
//! engine, by its dice or by its compiled tables, and fills a tally laid out by [`Layout`];
//! [`crate::exact::solve_chain`] fills an array of probabilities with the same layout, so
//! estimates and exact values are read by the same code.

pub use crate::chain::{Chain, ClassInfo, Layout};
use crate::dice::{Dice, Roll, Weights};
use crate::engine::Sim;

mod blocks;
mod fight;
mod opening;
mod sim;
mod table;
mod tally;
#[cfg(test)]
mod tests;
mod tree;

use blocks::*;
use fight::*;
use opening::*;
use table::*;
use tree::*;

pub use sim::{ChainSim, MIN_COMPILE_BUDGET, Sampler};
