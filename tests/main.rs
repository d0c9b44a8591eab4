//! Integration tests: one binary, themed modules (DESIGN.md "Habits").

mod bad_input;
mod balance;
mod battles;
mod browser;
mod cli;
mod common;
mod determinism;
mod exact_vs_mc;
mod explorer;
mod fidelity;
mod interrupt;
mod play;
mod points;
mod properties;
mod publish;
mod reference;
mod reports;
mod rule_params;
mod sensitivity;
mod shards;
mod strength;
