//! Typed errors of the library. Every variant names what was wrong and what is allowed, so the
//! binary can print it as one line and exit with code 2 (bad input) or 1 (failure).

use thiserror::Error;

/// Everything that can go wrong in a run, from bad input to an interrupted run.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum Error {
    /// A value given for a flag or key could not be used.
    #[error("invalid value '{value}' for {what}: {allowed}")]
    Invalid {
        /// Where the value came from: a flag (`--class`) or a key (`--set fire_to_hit`).
        what: String,
        /// The value as given.
        value: String,
        /// What is allowed instead.
        allowed: String,
    },
    /// A key that this system and scenario do not know.
    #[error("unknown key '{key}' in {what}: allowed keys for {context} are {allowed}")]
    UnknownKey {
        /// Where it came from (`--set`).
        what: String,
        /// The key as given.
        key: String,
        /// The system and scenario.
        context: String,
        /// The keys that are allowed.
        allowed: String,
    },
    /// A parameter that exists but does not apply to this scenario.
    #[error(
        "{what} does not apply to the {scenario} scenario of {system}; it applies to: {applies}"
    )]
    NotApplicable {
        /// The flag or key.
        what: String,
        /// The scenario asked for.
        scenario: String,
        /// The system asked for.
        system: String,
        /// The scenarios the parameter does apply to.
        applies: String,
    },
    /// Values that are each fine but do not fit together (e.g. more stands lost than the unit has).
    #[error("{0}")]
    Conflict(String),
    /// An output could not be written (a report folder, a chart, a shard, a page): a failure
    /// of the place written to, not of the input, with an exit status of its own.
    #[error("cannot {action} {path}: {reason}")]
    Write {
        /// What was being done: `write`, `replace`, `create the parent of`.
        action: String,
        /// The file or folder.
        path: String,
        /// Why it failed, as the system said.
        reason: String,
    },
    /// A check the user asked for found what it guards against (a benchmark slower than its
    /// baseline allows): a failure (exit 1), not bad input.
    #[error("{0}")]
    CheckFailed(String),
    /// A scenario a system does not (yet) model.
    #[error("the {scenario} scenario is not available for {system}; available: {available}")]
    Unsupported {
        /// The scenario asked for.
        scenario: String,
        /// The system asked for.
        system: String,
        /// The scenarios this system has.
        available: String,
    },
    /// A problem in a file, with its place.
    #[error("{path}{}: {}{message}", if *line == 0 { String::new() } else { format!(":{line}") }, if key.is_empty() { String::new() } else { format!("{key}: ") })]
    File {
        /// The file.
        path: String,
        /// The line (1-based; 0 when the fault is the whole file, and then no line is shown).
        line: usize,
        /// The key at fault (empty when the file does not parse).
        key: String,
        /// What is wrong and what is allowed.
        message: String,
    },
    /// A rule invariant broke (a defect, never bad input).
    #[error("internal error: a rule invariant of {scenario} broke: {what}")]
    Invariant {
        /// The scenario.
        scenario: String,
        /// What broke, with the states.
        what: String,
    },
    /// The run was stopped by the user (Ctrl-C) before it finished.
    #[error("interrupted: the run was stopped before it finished; nothing was written")]
    Cancelled,
    /// The exact solution would take longer than its budget (`--exact-budget`).
    #[error(
        "the exact solution of this {scenario} would take about {projected_s:.1} s, more than the budget of {budget_s} s; raise --exact-budget"
    )]
    OverBudget {
        /// The scenario.
        scenario: String,
        /// The projected seconds of the whole solve.
        projected_s: f64,
        /// The budget, in seconds.
        budget_s: f64,
    },
    /// The exact solution takes more steps than a run allows it (an experiment's bound on work,
    /// the same on every machine so that its report is too).
    #[error(
        "the exact solution of this {scenario} takes more than {} steps (branches of chance and chances carried between states), the most an experiment gives one so that its report is the same on every machine: run this setting alone (morale-lab run …, with --exact-budget), or by Monte Carlo",
        crate::report::thousands(*steps)
    )]
    OverWork {
        /// The scenario.
        scenario: String,
        /// The bound, in steps.
        steps: u64,
    },
    /// One turn of a scenario takes more branches of chance than an enumeration allows (a
    /// mechanic file that rolls dice one by one where it could roll them together).
    #[error(
        "one turn of this {scenario} takes about {} branches of chance, more than the {} allowed: roll dice together where only their total or count matters (roll(10, 6) for the sum of ten dice is 51 branches, hits(10, 5) for how many of ten show 5+ is 11; ten d6() in a loop are 60,466,176)",
        crate::report::thousands(*branches),
        crate::report::thousands(*max)
    )]
    TooManyBranches {
        /// The scenario.
        scenario: String,
        /// The branches counted, or projected from the share of the tree taken.
        branches: u64,
        /// The bound.
        max: u64,
    },
    /// The table sampler's tables take longer to compile than the budget (`--exact-budget`).
    #[error(
        "the table sampler's tables take more than {budget_s} s to compile (the turns are slow or many): run with --sampler dice, which plays every turn's dice (the same chances, slower per trial), or raise --exact-budget (the tables get it, or 10 s if it is less)"
    )]
    TablesOverBudget {
        /// The budget, in seconds.
        budget_s: f64,
    },
    /// An exact solution would keep more moves between states than memory allows.
    #[error(
        "the exact solution of this {scenario} reaches more than {} moves between states (from {} states so far), more than its memory allows: give the state fewer values, or run by Monte Carlo",
        crate::report::thousands(*moves as u64),
        crate::report::thousands(*states as u64)
    )]
    TooManyStates {
        /// The scenario.
        scenario: String,
        /// The states reached so far.
        states: usize,
        /// The moves kept so far.
        moves: usize,
    },
    /// A comparison of benchmarks found a regression past its threshold (exit 1): its report,
    /// for standard output, and one line naming the rows that fell.
    #[error("{message}")]
    Regression {
        /// The comparison's tables.
        report: String,
        /// What fell, in one line.
        message: String,
    },
    /// A comparison of benchmarks that could not judge (exit 3): a side was measured on a busy
    /// machine, or the two differ in what was recorded; its report, and why, in one line.
    #[error("{message}")]
    Unjudged {
        /// The comparison's tables.
        report: String,
        /// Why it could not judge, in one line.
        message: String,
    },
    /// An error that also gives data for standard output (`bench --format json` refusing: its
    /// JSON object), with the exit status and message of the error it carries.
    #[error("{error}")]
    Refused {
        /// What standard output gets.
        report: String,
        /// The error itself.
        error: Box<Error>,
    },
    /// An exact solution whose probability mass does not add up to 1: a bug, never bad input.
    #[error("exact solution of {scenario} lost probability mass: total {total} (expected 1)")]
    Mass {
        /// The scenario whose solution failed the check.
        scenario: String,
        /// The total probability found.
        total: f64,
    },
}

impl Error {
    /// The report a comparison's verdict carries for standard output, when it has one.
    pub fn report(&self) -> Option<&str> {
        match self {
            Error::Regression { report, .. }
            | Error::Unjudged { report, .. }
            | Error::Refused { report, .. } => Some(report),
            _ => None,
        }
    }

    /// True for errors caused by the user's input (exit code 2); false for failures (exit 1).
    pub fn is_bad_input(&self) -> bool {
        if let Error::Refused { error, .. } = self {
            return error.is_bad_input();
        }
        !matches!(
            self,
            Error::Cancelled
                | Error::Write { .. }
                | Error::Mass { .. }
                | Error::Invariant { .. }
                | Error::CheckFailed(_)
                | Error::Regression { .. }
                | Error::Unjudged { .. }
        )
    }
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
