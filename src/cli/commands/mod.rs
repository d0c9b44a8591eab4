//! One file per command: its flags (a clap `Args`) and what it runs. The scenario commands share
//! [`scenario::RunArgs`], which `sensitivity` and `balance` extend.

pub(crate) mod balance;
pub(crate) mod bench;
pub(crate) mod completions;
pub(crate) mod experiment;
pub(crate) mod list;
pub(crate) mod merge;
pub(crate) mod new;
pub(crate) mod odds;
pub(crate) mod play;
pub(crate) mod points;
pub(crate) mod publish;
pub(crate) mod scenario;
pub(crate) mod sensitivity;
pub(crate) mod serve;
