//! The command line: clap definitions and their conversion into the library's validated inputs.

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, CommandFactory, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use morale_lab::Sampler;
use morale_lab::engine::Control;
use morale_lab::error::{Error, Result};
use morale_lab::params::{Input, parse_int};
use morale_lab::report::Format;
use morale_lab::system;
use morale_lab::{RunOptions, Scenario};

/// Monte Carlo and exact odds for horse-and-musket wargame morale, rally and melee rules.
///
/// Every run prints the Monte Carlo estimate of each outcome with its confidence interval
/// beside the exact value, so numbers can go straight into a rulebook. Runs are reproducible
/// to the bit from --seed, whatever --threads.
#[derive(Debug, Parser)]
#[command(name = "morale-lab", version, propagate_version = true)]
#[command(after_help = "Examples:\n  \
    morale-lab rally --system rank-and-file --class veteran --stands 7 --lost 2 --state routing --trials 10000000\n  \
    morale-lab under-fire --system rank-and-file --class regular --stands 8 --set fire_dice=6 --set fire_to_hit=5\n  \
    morale-lab test --system rank-and-file --class green --stands 6 --lost 1 --leader 1 --format json\n  \
    morale-lab under-fire --system effectiveness --class regular --option retreat-on-fire --set p_blocked=1/6\n  \
    morale-lab melee --system linear-warfare --attacker \"guards pips=7 charging\" --defender \"line pips=5 obstacle\"\n  \
    morale-lab line --system effectiveness --attacker \"6 x regular\" --defender \"6 x regular\" --option retreat-on-fire --set turns=12\n  \
    morale-lab odds rank-and-file --stands 8 --format md\n  \
    morale-lab list")]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands besides the scenarios'. Each scenario's subcommand (`test`, `rally`, …) is made
/// from [`Scenario::ALL`] by [`command`] and takes [`RunArgs`], so a new scenario has its
/// subcommand without a change here.
#[derive(Debug, Subcommand)]
enum Command {
    /// Run an experiment file: variants side by side, tables, comparisons and charts.
    #[command(after_help = "Examples:\n  \
        morale-lab new my-question                      # write my-question.toml to start from\n  \
        morale-lab run my-question.toml --trials 10000  # a quick look (recorded in the report)\n  \
        morale-lab run experiments/rally-odds.toml      # the report goes to reports/rally-odds/")]
    Run(ExperimentArgs),
    /// Write a commented experiment file to start from (NAME.toml; NAME names its report).
    New(NewArgs),
    /// Add the shard files of `run --shard K/N` (or `points --shard K/N`) and write the same
    /// report as one run.
    Merge(MergeArgs),
    /// What a unit is worth: every unit type of a points file against every other at equal
    /// points, and the costs that bring every matchup nearest 50%, with intervals (every
    /// system: a budget buys stands or pips, or whole units in a line; a mechanic file what its
    /// about().sizes declares).
    #[command(after_help = "Examples:\n  \
        morale-lab points points/rank-and-file.toml              # the matrix, the fitted costs, the check\n  \
        morale-lab points points/effectiveness.toml              # whole units in a line, by Monte Carlo\n  \
        morale-lab points points/rank-and-file.toml --format csv  # every cost and cell, for a spreadsheet\n  \
        morale-lab points points/rank-and-file.toml --shard 1/4   # a quarter of the matchups; merge adds the four")]
    Points(PointsArgs),
    /// Measure trials per second of every scenario and system on this machine (the benchmark
    /// cases of docs/PERFORMANCE.md).
    #[command(after_help = "Exit status:\n  \
        0  measured; with --compare: every row judged and none slower beyond the noise and --threshold\n  \
        1  with --compare: a row reliably slower past --threshold (with --fail-on-drop: a hand-loop ratio fallen past it); or a failure\n  \
        2  bad input, or --compare refused: the two ran different threads, sampler or settings (--set, --turns), or a file of an unknown layout\n  \
        3  with --compare: none slower, but a row could not be judged (unreliable: threads waited for a core more than 5% of their time on a side, or the two shares differ by more than 2 points)\n\n\
        Examples:\n  \
        morale-lab bench rally --save q.json     # a baseline\n  \
        morale-lab bench --compare q.json        # run it again, judged against the baseline\n  \
        morale-lab bench --compare a.json --to b.json")]
    Bench(BenchArgs),
    /// The publishable table of exact pass chances for a system.
    Odds(OddsArgs),
    /// Publish a setting as one self-contained page: every exact answer over the fields left
    /// open, precomputed, so a reader changes them and reads the answers at once with no server
    /// (from any static host, or a file on disk).
    #[command(after_help = "Examples:\n  \
        morale-lab publish rally --system rank-and-file --open class --open lost=0..3 --out rally.html\n  \
        morale-lab publish under-fire --system effectiveness --option retreat-on-fire --option return-roll --open fire_dice=1..6 --open return_on=3..6 --out amendment.html\n\n\
        The page opens at any answer from its link (rally.html#class=green&lost=2).")]
    Publish(PublishArgs),
    /// Systems, scenarios, optional rules and every parameter with its default and meaning.
    List(ListArgs),
    /// Open the explorer: a page on this machine where a rule change shows its odds at once
    /// (exact as you type, Monte Carlo beside them, A beside B, and a link that holds it all).
    #[command(
        visible_alias = "explore",
        after_help = "Examples:\n  \
        morale-lab serve                  # http://127.0.0.1:8317/ with mechanics/ as systems\n  \
        morale-lab serve --port 0 --open  # any free port, opened in the browser"
    )]
    Serve(ServeArgs),
    /// Print a shell completion script (e.g. `morale-lab completions bash > ~/.local/share/bash-completion/completions/morale-lab`).
    Completions(CompletionsArgs),
    /// Print the man page in roff (e.g. `morale-lab man > ~/.local/share/man/man1/morale-lab.1`).
    Man,
}

#[derive(Debug, Args)]
struct ServeArgs {
    /// The port (0: any free one; the URL is printed).
    #[arg(long, value_name = "N", default_value = "8317")]
    port: String,
    /// The address to listen on: an IP address or localhost. Anything but loopback warns and
    /// says what is exposed; every check stays (the Host must be an IP address, localhost or
    /// an --allow-host name, and the API answers only its own page).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    host: String,
    /// A host name the server answers to when it listens beyond loopback (repeatable), e.g.
    /// lab.example for http://lab.example:8080/. Loopback servers answer to localhost and
    /// loopback addresses only.
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
    /// The folder of mechanic files offered as systems (read once at start; the server writes
    /// nothing).
    #[arg(long, value_name = "DIR")]
    mechanics: Option<std::path::PathBuf>,
    /// Open the page in the desktop's browser.
    #[arg(long)]
    open: bool,
    /// The most Monte Carlo trials one setting may ask for.
    #[arg(long, value_name = "N", default_value = "1e8")]
    max_trials: String,
    /// Seconds one run may take before it is stopped.
    #[arg(long, value_name = "S", default_value = "120")]
    max_seconds: String,
    /// Runs at once (others wait up to 10 s, then are told the server is busy).
    #[arg(long, value_name = "N", default_value = "2")]
    max_runs: String,
    /// Worker threads of each run (default: every core).
    #[arg(long, value_name = "N")]
    threads: Option<String>,
    /// Keep no answers: every request is computed again (for measuring).
    #[arg(long)]
    no_cache: bool,
}

#[derive(Debug, Args)]
struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, value_name = "SHELL")]
    shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
struct RunArgs {
    /// Rule system (see `morale-lab list`), or a mechanic file (`path/to/file.rhai`)
    /// [default: rank-and-file, or the --rules file's].
    #[arg(help_heading = "Rules and situation", long, value_name = "SYSTEM", value_parser = systems())]
    system: Option<String>,
    /// A rule-set file (name, description, base, [rules], options): its rule parameters and
    /// optional rules, under any --rule and --option given here.
    #[arg(
        help_heading = "Rules and situation",
        long = "rules",
        value_name = "FILE"
    )]
    rules_file: Option<std::path::PathBuf>,
    /// Class (rank-and-file: veteran, regular, green; effectiveness: elite, regular, poor).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "CLASS"
    )]
    class: Option<String>,
    /// Starting stands of the unit (models, for a single stand).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    stands: Option<String>,
    /// Losses already taken, in the system's unit (stands; quarters for effectiveness).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    lost: Option<String>,
    /// State at the start (rank-and-file: good, unsteady, routing; effectiveness: in_line,
    /// retreating).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "STATE"
    )]
    state: Option<String>,
    /// Bonus of the attached leader (e.g. 1).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    leader: Option<String>,
    /// The unit is Elite (rank-and-file: a re-roll on every test).
    #[arg(help_heading = "The unit (test, rally, under-fire)", long)]
    elite: bool,
    /// A general is attached (effectiveness: +1 to tests and to the roll to return).
    #[arg(help_heading = "The unit (test, rally, under-fire)", long)]
    general: bool,
    /// The unit is supported from behind (effectiveness: +1 to tests).
    #[arg(help_heading = "The unit (test, rally, under-fire)", long)]
    supported: bool,
    /// Unit type (linear-warfare: line, guards, light).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long = "type",
        value_name = "TYPE"
    )]
    unit_type: Option<String>,
    /// Pips at the start (linear-warfare; default: the type's).
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    pips: Option<String>,
    /// The attacking unit (side A of a battle), e.g. "veteran cavalry stands=6 shock"
    /// (rank-and-file), "guards pips=7 charging" (linear-warfare), "6 x regular" (a line); see
    /// `morale-lab list`.
    #[arg(
        help_heading = "The fight (melee, charge, engagement, line)",
        long,
        value_name = "SPEC"
    )]
    attacker: Option<String>,
    /// The defending unit (side B of a battle), e.g. "line pips=5 obstacle".
    #[arg(
        help_heading = "The fight (melee, charge, engagement, line)",
        long,
        value_name = "SPEC"
    )]
    defender: Option<String>,
    /// Re-rolls left to the attached commander.
    #[arg(
        help_heading = "The unit (test, rally, under-fire)",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    rerolls: Option<String>,
    /// Switch on an optional rule (repeatable; see `morale-lab list`).
    #[arg(
        help_heading = "Rules and situation",
        long = "option",
        value_name = "NAME"
    )]
    options: Vec<String>,
    /// Set any parameter of the situation (repeatable), e.g. --set fire_dice=6.
    #[arg(
        help_heading = "Rules and situation",
        long = "set",
        value_name = "KEY=VALUE"
    )]
    sets: Vec<String>,
    /// Change a number of the rules themselves (repeatable), e.g. --rule base_green=6; the
    /// report says which rules differ from the source (see `morale-lab list` for each system's
    /// rule parameters).
    #[arg(
        help_heading = "Rules and situation",
        long = "rule",
        value_name = "KEY=VALUE"
    )]
    rules: Vec<String>,
    /// Turns: the rally cap, turns of fire (under-fire), or of the battle (engagement, line).
    #[arg(
        help_heading = "Rules and situation",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    turns: Option<String>,
    /// Monte Carlo trials (1e7 and 10_000_000 both work); default one million, or with
    /// --precision the most trials to spend (default 1e10).
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    trials: Option<String>,
    /// Run until the widest interval of an outcome has at most this half-width (e.g. 0.001),
    /// doubling the trials from about a million; deterministic for a given seed.
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "HALF_WIDTH",
        allow_hyphen_values = true
    )]
    precision: Option<String>,
    /// Seed: the same seed gives the same numbers to the bit.
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "N",
        default_value = "1",
        allow_hyphen_values = true
    )]
    seed: String,
    /// The seed's generator stream (default 0). An experiment's run k draws from stream k of its
    /// seed, and so does the explorer's profile k (A is 0, B is 1): the stream reproduces
    /// their estimates to the bit.
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "K",
        default_value = "0",
        allow_hyphen_values = true
    )]
    stream: String,
    /// Worker threads (default: every core). Results do not depend on it.
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "N",
        allow_hyphen_values = true
    )]
    threads: Option<String>,
    /// Confidence level of the intervals.
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "LEVEL",
        default_value = "0.95"
    )]
    confidence: String,
    /// Print only the exact solution (no Monte Carlo).
    #[arg(help_heading = "Monte Carlo and exact solution", long)]
    exact_only: bool,
    /// Seconds the exact solution may take (default 5). Past it the report notes "exact:
    /// skipped" and gives Monte Carlo alone; with --exact-only the run is refused.
    #[arg(
        help_heading = "Monte Carlo and exact solution",
        long,
        value_name = "SECONDS"
    )]
    exact_budget: Option<String>,
    /// Output format.
    #[arg(help_heading = "Output", long, value_name = "FORMAT", default_value = "text", value_parser = formats())]
    format: String,
    /// How Monte Carlo draws a turn.
    #[arg(help_heading = "Monte Carlo and exact solution", long, value_name = "SAMPLER", default_value = "table", value_parser = samplers())]
    sampler: String,
    /// No progress bar.
    #[arg(help_heading = "Output", long, short)]
    quiet: bool,
}

/// The flags `sensitivity` adds to a scenario's.
#[derive(Debug, Args)]
struct SensitivityArgs {
    /// The outcome or metric to measure (default: recovered where the scenario has it, else
    /// the unit gone, else the first outcome), e.g. --headline turns_to_recover.
    #[arg(help_heading = "Sensitivity", long, value_name = "NAME")]
    headline: Option<String>,
    /// Also draw the tornado chart to FILE (.png or .svg).
    #[arg(help_heading = "Sensitivity", long, value_name = "FILE")]
    chart: Option<std::path::PathBuf>,
    /// Replace the --chart file if it exists.
    #[arg(help_heading = "Sensitivity", long)]
    force: bool,
}

/// The flags `balance` adds to a scenario's.
#[derive(Debug, Args)]
struct BalanceArgs {
    /// The parameter or rule parameter to solve for (a whole number, a chance, a number, a
    /// choice or a switch), e.g. --solve base_green.
    #[arg(help_heading = "Balance", long, value_name = "KEY", required = true)]
    solve: String,
    /// The value the headline must reach: a share from 0 to 1 for an outcome (0.5), a value in
    /// the metric's unit for a metric. Or use --against.
    #[arg(
        help_heading = "Balance",
        long,
        value_name = "NUMBER",
        allow_hyphen_values = true
    )]
    target: Option<String>,
    /// The target is the same headline in another setting: the run asked for with KEY=VALUE
    /// instead (repeatable; a situation or rule parameter), e.g. --against class=regular.
    #[arg(help_heading = "Balance", long, value_name = "KEY=VALUE")]
    against: Vec<String>,
    /// The other setting's optional rules, instead of the run's (a comma list, or none).
    #[arg(help_heading = "Balance", long, value_name = "LIST")]
    against_options: Option<String>,
    /// The other setting is under another rule system (a name or a mechanic file): the run's
    /// situation goes along, not its rule numbers or optional rules; --against gives that
    /// system's own values, e.g. --against-system effectiveness --against class=regular.
    #[arg(help_heading = "Balance", long, value_name = "SYSTEM")]
    against_system: Option<String>,
    /// The range searched, LOW..HIGH (default: the parameter's allowed range; a chance 0..1).
    #[arg(
        help_heading = "Balance",
        long,
        value_name = "LOW..HIGH",
        allow_hyphen_values = true
    )]
    range: Option<String>,
    /// The outcome or metric to bring to the target (default: recovered where the scenario
    /// has it, else the unit gone, else the first outcome), e.g. --headline eliminated.
    #[arg(help_heading = "Balance", long, value_name = "NAME")]
    headline: Option<String>,
    /// Also draw the headline against the parameter, with the target, to FILE (.png or .svg).
    #[arg(help_heading = "Balance", long, value_name = "FILE")]
    chart: Option<std::path::PathBuf>,
    /// Replace the --chart file if it exists.
    #[arg(help_heading = "Balance", long)]
    force: bool,
    /// Search by Monte Carlo (--trials at each value, from --seed) even where the setting
    /// solves exactly; a setting that does not is searched so anyway.
    #[arg(help_heading = "Balance", long)]
    monte_carlo: bool,
}

#[derive(Debug, Args)]
struct ExperimentArgs {
    /// Experiment files (TOML; see experiments/). Several run one after another.
    #[arg(value_name = "EXPERIMENT.toml", required = true)]
    files: Vec<std::path::PathBuf>,
    #[command(flatten)]
    target: OutArgs,
    /// Worker threads (default: every core). Results do not depend on it.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    threads: Option<String>,
    /// How Monte Carlo draws a turn.
    #[arg(long, value_name = "SAMPLER", default_value = "table", value_parser = samplers())]
    sampler: String,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Run only part K of N of every run's trials and write its raw tallies (JSON) to --out
    /// (default <name>.shard-K-of-N.json); `morale-lab merge` adds the N parts.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Monte Carlo trials per run instead of the file's (a quick look; the report says so).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    trials: Option<String>,
    /// Seed instead of the file's (the report says so).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    seed: Option<String>,
}

#[derive(Debug, Args)]
struct NewArgs {
    /// The experiment's name (letters, digits, '-' and '_'), or a path ending in .toml.
    #[arg(value_name = "NAME")]
    name: std::path::PathBuf,
    /// Replace the file if it exists.
    #[arg(long)]
    force: bool,
}

#[derive(Debug, Args)]
struct BenchArgs {
    /// Seconds to spend on each case (at least; default 1).
    #[arg(long, value_name = "S")]
    seconds: Option<String>,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N")]
    threads: Option<String>,
    /// Only the cases whose name contains one of these words (e.g. rally, line).
    #[arg(value_name = "FILTER")]
    only: Vec<String>,
    /// Output: text (aligned tables) or json (one object: the build, the machine and its load,
    /// each case's command line, median with its interval, every run's figure, its reference
    /// and ratio).
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    format: String,
    /// The least timed runs of each case after its warm-up (default 10); more are run until the
    /// median's interval is within 5% of it, or 3× the time has passed. The figure is their
    /// median, with that interval.
    #[arg(long, value_name = "N")]
    repeats: Option<String>,
    /// Run the cases with this sampler only: table or dice (default: table, and dice too for a
    /// case with a hand-written loop or an engagement).
    #[arg(long, value_name = "SAMPLER")]
    sampler: Option<String>,
    /// KEY=VALUE laid over every case's settings (repeatable), as the scenario commands take
    /// it; a case so changed runs without its hand-written loop.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Turns, laid over every case's (the same as --set turns=N).
    #[arg(long, value_name = "N")]
    turns: Option<String>,
    /// Print each case's command line (what a run of it runs) and what it is held against;
    /// run nothing.
    #[arg(long)]
    list: bool,
    /// Also write the result as JSON to FILE (a baseline for --compare).
    #[arg(long, value_name = "FILE")]
    save: Option<std::path::PathBuf>,
    /// Compare with a saved result: run the baseline's cases the same way (its threads,
    /// trials a run, sampler and settings; its seconds and repeats unless given here) and give
    /// each case's speed new/old (the ratio of the two medians shown) with its interval and a
    /// verdict: faster, slower, same, or unreliable (either side's threads waited for a core
    /// more than 5% of their time, or the two shares differ by more than 2 points). Different
    /// threads, sampler or settings are refused (exit 2). Exit 1: a row reliably slower past
    /// --threshold; exit 3: none slower, but a row could not be judged. Several files are
    /// rounds of one baseline.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    compare: Vec<std::path::PathBuf>,
    /// With --compare: instead of running, compare with these saved results (rounds of the
    /// new build; as many rounds as the baseline's are paired round by round).
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "compare")]
    to: Vec<std::path::PathBuf>,
    /// With --compare: the smallest change called faster or slower, in percent (default 10).
    #[arg(long, value_name = "PCT", requires = "compare")]
    threshold: Option<String>,
    /// With --compare: judge only the ratios to the hand-written loops: fail (exit 1) when one
    /// falls by more than PCT percent, beyond the noise (CI's guard); exit 3 when one could not
    /// be judged.
    #[arg(long, value_name = "PCT", requires = "compare")]
    fail_on_drop: Option<String>,
    /// Instead: run every setting at the edges of the allowed ranges (each number at its
    /// minimum and maximum, all at their maximum, the largest units) at 20,000 trials with its
    /// exact solution, print the slowest, and fail if one takes longer than --limit.
    #[arg(long)]
    edges: bool,
    /// With --edges: the most seconds one setting may take.
    #[arg(long, value_name = "S", default_value = "60")]
    limit: String,
    /// With --edges: the most memory one setting may use, in MiB (peak resident set; measured
    /// where the system reports it, Linux).
    #[arg(long, value_name = "MIB", default_value = "1024")]
    memory_limit: String,
}

#[derive(Debug, Args)]
struct PointsArgs {
    /// The points file (TOML): unit types, a cost formula, a budget and what it buys (see points/
    /// and the guide).
    #[arg(value_name = "POINTS.toml")]
    file: std::path::PathBuf,
    /// Output format: text, md, json or csv.
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    format: String,
    /// Play only part K of N of the matchups and write their scores (JSON) to --out (default
    /// <name>.shard-K-of-N.json); `morale-lab merge` adds the N parts, fits and checks.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// With --shard: the shard file to write.
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// Replace an existing --out file.
    #[arg(long)]
    force: bool,
    /// Refuse a matchup that does not solve exactly instead of playing it by Monte Carlo (the
    /// file's trials and seed).
    #[arg(long)]
    exact_only: bool,
    /// Seconds an exact solve of one matchup may take before it is played by Monte Carlo.
    #[arg(long, value_name = "SECONDS")]
    exact_budget: Option<String>,
    /// Play every matchup by Monte Carlo (the file's trials and seed), even those that solve
    /// exactly: to check the exact numbers, or see the fit under noise.
    #[arg(long, conflicts_with = "exact_only")]
    monte_carlo: bool,
    /// Confidence of every interval (the fitted costs' and the Monte Carlo cells').
    #[arg(long, value_name = "LEVEL", default_value = "0.95")]
    confidence: String,
    /// Worker threads for the Monte Carlo matchups (default: every core; the numbers do not
    /// depend on it).
    #[arg(long, value_name = "N")]
    threads: Option<String>,
    /// No progress display.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Debug, Args)]
struct MergeArgs {
    /// The shard files of one experiment or one points file (all N of them): an experiment's
    /// report goes to --out (default reports/<name>/), a points report to standard output (and
    /// in every format under --out).
    #[arg(value_name = "SHARD.json", required = true)]
    parts: Vec<std::path::PathBuf>,
    #[command(flatten)]
    target: OutArgs,
    /// No progress display.
    #[arg(long, short)]
    quiet: bool,
}

/// Where `run` and `merge` write, and whether they may replace what is there.
#[derive(Debug, Args)]
struct OutArgs {
    /// Where to write the report (default: reports/<experiment name>/; with `run`, one file
    /// only; with `run --shard`, the shard file).
    #[arg(long, value_name = "DIR")]
    out: Option<std::path::PathBuf>,
    /// Replace an existing output folder (or shard file). Not needed to replace the
    /// experiment's own report, as written by `run` or `merge`.
    #[arg(long)]
    force: bool,
    /// Draw the PNG charts this many times larger (e.g. 2 for print: 1920 pixels wide);
    /// the SVG charts are vector and print at any size.
    #[arg(long, value_name = "FACTOR", default_value = "1")]
    chart_scale: String,
}

impl OutArgs {
    /// `--chart-scale`: a factor from 0.5 to 4.
    fn chart_scale(&self) -> Result<f64> {
        self.chart_scale
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|k| (0.5..=4.0).contains(k))
            .ok_or_else(|| {
                invalid(
                    "--chart-scale",
                    &self.chart_scale,
                    "allowed: a factor from 0.5 to 4 (2 draws PNGs 1920 pixels wide)",
                )
            })
    }

    /// The report folder: `--out`, or `default`. An existing folder is replaced when it is this
    /// experiment's report as the tool wrote it (so an edited experiment runs again without
    /// `--force`), and otherwise refused without `--force`, saying why.
    fn report_folder(
        &self,
        default: impl FnOnce() -> std::path::PathBuf,
        experiment: &str,
    ) -> Result<std::path::PathBuf> {
        let out = self.out.clone().unwrap_or_else(default);
        if out.exists()
            && !self.force
            && let Err(why) = our_report(&out, experiment)
        {
            return Err(invalid(
                "--out",
                &out.display().to_string(),
                &format!(
                    "that {} exists and {why}: give --force to replace it, or another --out",
                    if out.is_dir() { "folder" } else { "file" }
                ),
            ));
        }
        Ok(out)
    }

    /// `--out`, or `default`; refused when it exists and `--force` is not given.
    fn path(&self, default: impl FnOnce() -> std::path::PathBuf) -> Result<std::path::PathBuf> {
        let out = self.out.clone().unwrap_or_else(default);
        if out.exists() && !self.force {
            let what = if out.is_dir() { "folder" } else { "file" };
            return Err(invalid(
                "--out",
                &out.display().to_string(),
                &format!("that {what} exists: give --force to replace it, or another --out"),
            ));
        }
        Ok(out)
    }
}

/// Whether `dir` is the report of experiment `name` as `run` or `merge` writes it: a folder of
/// the files a report has (CSV, JSON, Markdown, HTML, PNG, SVG, Parquet) and nothing else, whose
/// `results.json` is a morale-lab report of that experiment. `Err` says what it is not.
fn our_report(dir: &std::path::Path, name: &str) -> std::result::Result<(), String> {
    const KINDS: [&str; 7] = ["csv", "json", "md", "html", "png", "svg", "parquet"];
    if !dir.is_dir() {
        return Err("is not a folder".into());
    }
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot be read ({e})"))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot be read ({e})"))?;
        let path = entry.path();
        let file = entry.file_type().is_ok_and(|t| t.is_file());
        let kind = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !file || !KINDS.contains(&kind) {
            return Err(format!(
                "holds {}, which a report does not",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    let results = std::fs::read_to_string(dir.join("results.json"))
        .map_err(|_| "has no results.json of a report".to_string())?;
    let v: serde_json::Value = serde_json::from_str(&results)
        .map_err(|_| "its results.json is not a report's".to_string())?;
    match v["experiment"]["name"].as_str() {
        Some(n) if v["version"].is_string() && n == name => Ok(()),
        Some(n) if v["version"].is_string() => {
            Err(format!("is the report of another experiment, '{n}'"))
        }
        _ => Err("its results.json is not a report's".into()),
    }
}

#[derive(Debug, Args)]
struct OddsArgs {
    /// Rule system [default: the --rules file's].
    #[arg(value_name = "SYSTEM", value_parser = systems())]
    system: Option<String>,
    /// A rule-set file: the sheet shows its rule parameters (its optional rules do not change
    /// these tables).
    #[arg(long = "rules", value_name = "FILE")]
    rules_file: Option<std::path::PathBuf>,
    /// Change a number of the rules (repeatable), e.g. --rule base_green=6; the sheet says
    /// which rules differ from the source.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rules: Vec<String>,
    /// Rank & File: starting stands, to mark the rows where the 50% rule makes every test fail,
    /// and the unit size of the rally tables [default: 8 for the rally tables].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    stands: Option<String>,
    /// Rank & File: the largest number of stands lost shown in the test table [default: 6].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    max_lost: Option<String>,
    /// Rank & File: the rally tables for a unit that has already lost this many stands
    /// [default: 0].
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    lost: Option<String>,
    /// Output format; `html` is a print-ready quick-reference page (A4 or Letter).
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = odds_formats())]
    format: String,
    /// The sheet's title (default: the system's; with --rules, the rule set's name, with its
    /// description under it).
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
}

#[derive(Debug, Args)]
struct PublishArgs {
    /// The scenario (rally, under-fire, melee, charge, engagement, line, test).
    #[arg(value_name = "SCENARIO")]
    scenario: String,
    /// Rule system, or a mechanic file (`path/to/file.rhai`).
    #[arg(long, value_name = "SYSTEM", default_value = "rank-and-file")]
    system: String,
    /// A setting every answer shares (repeatable), as the scenario commands take it.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// A rule parameter every answer shares (repeatable), e.g. --rule base_green=4.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rules: Vec<String>,
    /// An optional rule in play (repeatable).
    #[arg(long = "option", value_name = "NAME")]
    options: Vec<String>,
    /// A field the reader may change (repeatable): KEY for every value a choice, switch or
    /// small whole number takes, or KEY=VALUES (values and ranges separated by commas, e.g.
    /// lost=0..3, or p_blocked=0,1/6,1/3). The page holds every combination, at most 5,000.
    #[arg(long = "open", value_name = "KEY[=VALUES]", required = true)]
    open: Vec<String>,
    /// The page to write (HTML).
    #[arg(long, value_name = "FILE")]
    out: std::path::PathBuf,
}

#[derive(Debug, Args)]
struct ListArgs {
    /// Only this system, or a mechanic file (`path/to/file.rhai`).
    #[arg(long, value_name = "SYSTEM", value_parser = systems())]
    system: Option<String>,
    /// Instead: the effective rules of this rule-set file (every rule parameter, what it
    /// changes from the source, and its optional rules).
    #[arg(long = "rules", value_name = "FILE", conflicts_with = "system")]
    rules_file: Option<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = formats())]
    format: String,
}

/// The output formats, for `--format`'s help, completion and "did you mean".
fn formats() -> PossibleValuesParser {
    PossibleValuesParser::new(format_values())
}

/// The output formats with their help.
fn format_values() -> Vec<PossibleValue> {
    vec![
        PossibleValue::new("text").help("aligned plain text for the terminal"),
        PossibleValue::new("csv").help("comma-separated values with a header row"),
        PossibleValue::new("md")
            .alias("markdown")
            .help("Markdown tables, ready for a rulebook or a blog"),
        PossibleValue::new("json").help("one JSON document with every number"),
    ]
}

/// The odds sheet's formats: the output formats and a print-ready page.
fn odds_formats() -> PossibleValuesParser {
    let mut values = format_values();
    values
        .push(PossibleValue::new("html").help("a print-ready quick-reference page (A4 or Letter)"));
    PossibleValuesParser::new(values)
}

/// The rule systems, for `--system`'s and `odds`' help, completion and "did you mean".
fn systems() -> SystemParser {
    SystemParser(PossibleValuesParser::new(
        system::systems()
            .into_iter()
            .map(|s| PossibleValue::new(s.name()).help(s.title())),
    ))
}

/// A system's name, or the path of a mechanic file (ending in `.rhai`): the names complete and
/// are suggested as the built-in list; a file is checked when it is loaded.
#[derive(Clone)]
struct SystemParser(PossibleValuesParser);

impl clap::builder::TypedValueParser for SystemParser {
    type Value = String;
    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> std::result::Result<String, clap::Error> {
        match value.to_str() {
            Some(v) if morale_lab::mechanic::is_file(v) => Ok(v.to_string()),
            _ => self.0.parse_ref(cmd, arg, value),
        }
    }
    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        self.0.possible_values()
    }
}

/// The Monte Carlo samplers.
fn samplers() -> PossibleValuesParser {
    PossibleValuesParser::new([
        PossibleValue::new("table")
            .help("each turn's exact outcome distribution, compiled from the rules (fast)"),
        PossibleValue::new("dice").help("the rules code rolls every die (the same probabilities)"),
    ])
}

fn invalid(what: &str, value: &str, allowed: &str) -> Error {
    Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed: allowed.into(),
    }
}

fn int_in(what: &str, raw: &str, min: i64, max: i64) -> Result<i64> {
    parse_int(raw)
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| {
            invalid(
                what,
                raw,
                &format!("allowed: a whole number from {min} to {max}"),
            )
        })
}

/// A number of seconds from `min` to `max`.
fn seconds_in(what: &str, raw: &str, min: f64, max: f64) -> Result<f64> {
    raw.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| (min..=max).contains(x))
        .ok_or_else(|| {
            invalid(
                what,
                raw,
                &format!("allowed: a number of seconds from {min} to {max}"),
            )
        })
}

fn format_of(raw: &str) -> Result<Format> {
    Format::parse(raw).ok_or_else(|| invalid("--format", raw, "allowed: text, csv, md, json"))
}

/// The flags of [`RunArgs`] that belong to some scenarios only: the field's id and its flag.
const SCENARIO_FLAGS: &[(&str, &str)] = &[
    ("class", "--class"),
    ("stands", "--stands"),
    ("lost", "--lost"),
    ("state", "--state"),
    ("leader", "--leader"),
    ("elite", "--elite"),
    ("general", "--general"),
    ("supported", "--supported"),
    ("unit_type", "--type"),
    ("pips", "--pips"),
    ("attacker", "--attacker"),
    ("defender", "--defender"),
    ("rerolls", "--rerolls"),
    ("turns", "--turns"),
];

/// The command line: the derived definition, with each scenario's `--help` showing only the
/// flags some system uses in that scenario, the systems that have it, and an example.
pub fn command() -> clap::Command {
    let mut cmd = Cli::command();
    // The scenarios first, in their order, then the other subcommands in theirs.
    let others: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for (i, name) in others.iter().enumerate() {
        cmd = cmd.mut_subcommand(name, |c| c.display_order(Scenario::ALL.len() + i));
    }
    let mut sensitivity = clap::Command::new("sensitivity")
        .about("Which rule matters most: move every rule parameter one step each way from its value and switch every optional rule, and see how much each changes the headline (exact where it can be solved)")
        .subcommand_required(true)
        .display_order(Scenario::ALL.len())
        .after_help(
            "Example:\n  morale-lab sensitivity rally --system rank-and-file --class regular --stands 8 --state routing --chart tornado.png",
        );
    let mut balance = clap::Command::new("balance")
        .about("What number makes it fair: solve for one parameter or rule number so that a headline reaches a target, a number or the same headline in another setting (exact where the setting solves, else by Monte Carlo)")
        .subcommand_required(true)
        .display_order(Scenario::ALL.len() + 1)
        .after_help(
            "Examples:\n  morale-lab balance rally --system rank-and-file --class green --stands 8 --state routing --solve base_green --against class=regular --against leader=1\n  morale-lab balance under-fire --system effectiveness --class regular --turns 8 --set fire_dice=3 --set fire_to_hit=5 --option retreat-on-fire --option return-roll --solve p_blocked --headline eliminated --against-options none\n  morale-lab balance engagement --system rank-and-file --attacker \"green stands=6\" --defender \"regular stands=6\" --solve attacker.leader --range 0..3 --headline side_a_holds --target 0.5",
        );
    for (i, scenario) in Scenario::ALL.into_iter().enumerate() {
        cmd = cmd.subcommand(scenario_command(scenario, i, Extra::None));
        sensitivity = sensitivity.subcommand(scenario_command(scenario, i, Extra::Sensitivity));
        balance = balance.subcommand(scenario_command(scenario, i, Extra::Balance));
    }
    cmd.subcommand(sensitivity).subcommand(balance)
}

/// Which command a scenario's subcommand sits under, for the flags it adds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Extra {
    /// The scenario's own command.
    None,
    /// `sensitivity SCENARIO`.
    Sensitivity,
    /// `balance SCENARIO`.
    Balance,
}

/// A scenario's subcommand: its flags ([`RunArgs`], those no system uses in it hidden), the
/// systems that have it and an example; with `sensitivity`, the flags that command adds.
fn scenario_command(scenario: Scenario, order: usize, extra: Extra) -> clap::Command {
    let has: Vec<&dyn system::RuleSystem> = system::systems()
        .into_iter()
        .filter(|s| s.scenarios().contains(&scenario))
        .collect();
    let flags: Vec<&str> = has
        .iter()
        .flat_map(|s| system::all_params(*s))
        .filter(|p| p.scenarios.contains(&scenario))
        .filter_map(|p| p.flag)
        .collect();
    let example = scenario.about().example;
    let example = match extra {
        Extra::None => example.to_string(),
        Extra::Sensitivity => example.replacen(
            &format!("morale-lab {}", scenario.name()),
            &format!("morale-lab sensitivity {}", scenario.name()),
            1,
        ),
        Extra::Balance => format!(
            "{} --solve KEY --target NUMBER",
            example.replacen(
                &format!("morale-lab {}", scenario.name()),
                &format!("morale-lab balance {}", scenario.name()),
                1,
            )
        ),
    };
    let names: Vec<&str> = has.iter().map(|s| s.name()).collect();
    // What each system leaves out that bears on this scenario (docs/RULES.md §5).
    let omitted: String = has
        .iter()
        .filter_map(|s| {
            let items: Vec<&str> = s
                .not_modelled()
                .iter()
                .filter(|o| o.scenarios.contains(&scenario))
                .map(|o| o.what)
                .collect();
            (!items.is_empty()).then(|| format!("\n  {}: {}.", s.name(), items.join("; ")))
        })
        .collect();
    let omitted = if omitted.is_empty() {
        String::new()
    } else {
        format!("\nNot modelled (what and why: docs/RULES.md §5):{omitted}\n")
    };
    let after = format!(
        "Systems with this scenario: {}.\nEvery parameter, with its range and default: morale-lab list --system SYSTEM\n{omitted}\nExample:\n  {example}",
        names.join(", ")
    );
    let mut sub = RunArgs::augment_args(clap::Command::new(scenario.name()))
        .about(scenario.about().help)
        .display_order(order);
    if extra == Extra::Balance {
        sub = BalanceArgs::augment_args(sub)
            .mut_arg("precision", |a| a.hide(true))
            .about(format!(
                "Solve for the number that makes it fair: {}",
                sentence_inside(scenario.about().help)
            ));
    }
    if extra == Extra::Sensitivity {
        // After the flags `sensitivity` adds (their doc comment would otherwise be the
        // subcommand's line): what it answers for this scenario.
        sub = SensitivityArgs::augment_args(sub)
            .mut_arg("precision", |a| a.hide(true))
            .about(format!(
                "Which rule number matters most here: {}",
                sentence_inside(scenario.about().help)
            ));
    }
    for (id, flag) in SCENARIO_FLAGS {
        if !flags.contains(flag) {
            sub = sub.mut_arg(*id, |a| a.hide(true));
        }
    }
    sub.after_help(after)
}

/// A sentence set inside another: its first letter in lower case, unless it is a name or a
/// symbol (`N units …` stays).
fn sentence_inside(s: &str) -> String {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if second.is_lowercase() || second == ' ' && first == 'A' => {
            first.to_lowercase().chain(s.chars().skip(1)).collect()
        }
        _ => s.to_string(),
    }
}

/// Leave on a clap error: help and version as clap prints them, anything else as one line
/// (what was wrong, what is allowed, and clap's "did you mean") with exit code 2.
fn exit_on(e: clap::Error) -> ! {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit();
    }
    eprintln!("{}", one_line(&e));
    std::process::exit(2);
}

/// A clap error in one line: its first line, then the allowed values and any suggestion.
fn one_line(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    let rendered = e.render().to_string();
    let mut line = rendered
        .lines()
        .next()
        .unwrap_or("error: bad command line")
        .to_string();
    let words = |v: &ContextValue| match v {
        ContextValue::String(s) => Some(vec![s.clone()]),
        ContextValue::Strings(v) => Some(v.clone()),
        _ => None,
    };
    if line.ends_with(':')
        && let Some(missing) = e.get(ContextKind::InvalidArg).and_then(words)
    {
        line += &format!(" {}", missing.join(", "));
    }
    if let Some(allowed) = e
        .get(ContextKind::ValidValue)
        .and_then(words)
        .filter(|v| !v.is_empty())
    {
        line += &format!("; allowed: {}", allowed.join(", "));
    }
    for kind in [
        ContextKind::SuggestedValue,
        ContextKind::SuggestedArg,
        ContextKind::SuggestedSubcommand,
    ] {
        if let Some(s) = e.get(kind).and_then(words).filter(|s| !s.is_empty()) {
            let quoted: Vec<String> = s.iter().map(|s| format!("'{s}'")).collect();
            line += &format!(" (did you mean {}?)", quoted.join(" or "));
        }
    }
    if !line.contains("--help") {
        line += "; see --help";
    }
    line
}

/// Parse the command line, run, and return what to print.
pub fn run(control: Arc<Control>) -> Result<String> {
    use clap::FromArgMatches;
    let matches = command().try_get_matches().unwrap_or_else(|e| exit_on(e));
    if let Some((name, sub)) = matches.subcommand()
        && let Some(scenario) = Scenario::from_name(name)
    {
        let a = RunArgs::from_arg_matches(sub).unwrap_or_else(|e| exit_on(e));
        return run_scenario(scenario, a, control);
    }
    if let Some(("sensitivity", sub)) = matches.subcommand()
        && let Some((name, sub)) = sub.subcommand()
        && let Some(scenario) = Scenario::from_name(name)
    {
        let a = RunArgs::from_arg_matches(sub).unwrap_or_else(|e| exit_on(e));
        let s = SensitivityArgs::from_arg_matches(sub).unwrap_or_else(|e| exit_on(e));
        return run_sensitivity(scenario, a, s, control);
    }
    if let Some(("balance", sub)) = matches.subcommand()
        && let Some((name, sub)) = sub.subcommand()
        && let Some(scenario) = Scenario::from_name(name)
    {
        let a = RunArgs::from_arg_matches(sub).unwrap_or_else(|e| exit_on(e));
        let b = BalanceArgs::from_arg_matches(sub).unwrap_or_else(|e| exit_on(e));
        return run_balance(scenario, a, b, control);
    }
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| exit_on(e));
    match cli.command {
        Command::Run(a) => run_experiment(a, control),
        Command::Merge(a) => run_merge(a, control),
        Command::Points(a) => run_points(a, control),
        Command::New(a) => run_new(a),
        Command::Bench(a) if a.edges => crate::bench::edges(
            threads_of(&a.threads)?,
            seconds_in("--limit", &a.limit, 0.01, 3600.0)?,
            int_in("--memory-limit", &a.memory_limit, 16, 1 << 20)?,
            &a.only,
        ),
        Command::Bench(a) => run_bench(a),
        Command::Odds(a) => run_odds(a),
        Command::Publish(a) => run_publish(a, &control),
        Command::Serve(a) => run_serve(a, control),
        Command::List(a) => match &a.rules_file {
            Some(file) => crate::list::render_ruleset(&load_ruleset(file)?, format_of(&a.format)?),
            None => {
                let system = a.system.as_deref().map(load_mechanic).transpose()?;
                crate::list::render(system.as_deref(), format_of(&a.format)?)
            }
        },
        Command::Completions(a) => {
            let mut out = Vec::new();
            clap_complete::generate(a.shell, &mut command(), "morale-lab", &mut out);
            Ok(String::from_utf8(out).expect("completion scripts are UTF-8"))
        }
        Command::Man => {
            let mut out = Vec::new();
            clap_mangen::Man::new(command())
                .render(&mut out)
                .map_err(|e| Error::Conflict(format!("cannot render the man page: {e}")))?;
            Ok(String::from_utf8(out).expect("roff is UTF-8"))
        }
    }
}

/// What a scenario's flags ask for: the system, its inputs and optional rules, how to run, and
/// the output format.
struct Asked {
    system: String,
    inputs: Vec<Input>,
    options: Vec<String>,
    run: RunOptions,
    format: Format,
}

fn asked(a: &RunArgs) -> Result<Asked> {
    let format = format_of(&a.format)?;
    let precision = match &a.precision {
        None => None,
        Some(raw) => Some(
            raw.trim()
                .parse::<f64>()
                .ok()
                .filter(|h| *h > 0.0 && *h <= 0.5)
                .ok_or_else(|| {
                    invalid(
                        "--precision",
                        raw,
                        "allowed: a half-width above 0 and at most 0.5, e.g. 0.001",
                    )
                })?,
        ),
    };
    let default_trials = if precision.is_some() {
        "1e10"
    } else {
        "1000000"
    };
    let trials = trials_of(a.trials.as_deref().unwrap_or(default_trials))?;
    let seed = seed_of(&a.seed)?;
    let threads = match &a.threads {
        None => None,
        Some(t) => Some(int_in("--threads", t, 1, 1024)? as usize),
    };
    let confidence = confidence_in(&a.confidence)?;

    let mut inputs = Vec::new();
    let flags = [
        ("--class", "class", &a.class),
        ("--stands", "stands", &a.stands),
        ("--lost", "lost", &a.lost),
        ("--state", "state", &a.state),
        ("--leader", "leader", &a.leader),
        ("--rerolls", "rerolls", &a.rerolls),
        ("--turns", "turns", &a.turns),
        ("--type", "type", &a.unit_type),
        ("--pips", "pips", &a.pips),
        ("--attacker", "attacker", &a.attacker),
        ("--defender", "defender", &a.defender),
    ];
    for (flag, key, value) in flags {
        if let Some(v) = value {
            inputs.push(Input::flag(flag, key, v.clone()));
        }
    }
    for (on, flag, key) in [
        (a.elite, "--elite", "elite"),
        (a.general, "--general", "general"),
        (a.supported, "--supported", "supported"),
    ] {
        if on {
            inputs.push(Input::flag(flag, key, "true"));
        }
    }
    for s in &a.sets {
        inputs.push(Input::parse_set(s)?);
    }
    let (system, rules, mut options) = rules_of(
        (a.system.as_ref(), "--system"),
        a.rules_file.as_deref(),
        &a.rules,
    )?;
    inputs.extend(rules);
    options.extend(a.options.iter().cloned());
    let exact_budget = match &a.exact_budget {
        None => morale_lab::DEFAULT_EXACT_BUDGET,
        Some(s) => seconds_in("--exact-budget", s, 0.1, 86_400.0)?,
    };
    let sampler = Sampler::parse(&a.sampler)
        .ok_or_else(|| invalid("--sampler", &a.sampler, "allowed: table, dice"))?;
    let stream = a.stream.trim().parse::<u64>().map_err(|_| {
        invalid(
            "--stream",
            &a.stream,
            "allowed: a whole number from 0 to 2^64−1 (0: the seed's first stream)",
        )
    })?;
    let run = RunOptions::new(trials, seed)
        .stream(stream)
        .threads(threads)
        .confidence(confidence)
        .exact_only(a.exact_only)
        .sampler(sampler)
        .precision(precision)
        .exact_budget(Some(exact_budget));
    Ok(Asked {
        system,
        inputs,
        options,
        run,
        format,
    })
}

fn run_scenario(scenario: Scenario, a: RunArgs, control: Arc<Control>) -> Result<String> {
    let Asked {
        system,
        inputs,
        options,
        run: options_run,
        format,
    } = asked(&a)?;
    let job = system::build(&system, scenario, &inputs, &options)?;
    let trials = options_run.spec.trials;
    let show_bar = !a.quiet && std::io::stderr().is_terminal();
    // With a precision the total is not known in advance: a counter instead of a bar.
    let bar = show_bar.then(|| {
        progress(
            trials,
            options_run.precision.is_none(),
            Arc::clone(&control),
        )
    });
    let result = job.run(&options_run, &control);
    if let Some((bar, handle)) = bar {
        bar.finish_and_clear();
        let _ = handle.join();
    }
    Ok(result?.render(format))
}

/// `sensitivity SCENARIO`: every rule parameter one step each way, every optional rule
/// switched, sorted by the change to the headline; a tornado chart with `--chart`.
fn run_sensitivity(
    scenario: Scenario,
    a: RunArgs,
    s: SensitivityArgs,
    control: Arc<Control>,
) -> Result<String> {
    use morale_lab::experiment::sensitivity::{Ask, analyse, runs};
    if a.precision.is_some() {
        return Err(invalid(
            "--precision",
            a.precision.as_deref().unwrap_or(""),
            "not taken by sensitivity: it runs --trials trials a setting where it cannot solve exactly",
        ));
    }
    let chart = chart_target(s.chart.as_ref(), s.force)?;
    let asked = asked(&a)?;
    let ask = Ask {
        system: &asked.system,
        scenario,
        inputs: &asked.inputs,
        options: &asked.options,
        headline: s.headline.as_deref(),
        run: asked.run.clone(),
    };
    let total = (runs(&ask)? as u64).saturating_mul(asked.run.spec.trials);
    let bar = (!a.quiet && std::io::stderr().is_terminal())
        .then(|| progress(total, true, Arc::clone(&control)));
    let result = analyse(&ask, &control);
    if let Some((bar, handle)) = bar {
        bar.finish_and_clear();
        let _ = handle.join();
    }
    let result = result?;
    if let Some((path, svg)) = chart {
        draw_chart(&result.chart(), &path, svg)?;
    }
    Ok(result.render(asked.format))
}

/// Where `--chart` writes, and whether as SVG: a `.png` or `.svg` name not already there
/// (unless `force`).
fn chart_target(
    chart: Option<&std::path::PathBuf>,
    force: bool,
) -> Result<Option<(std::path::PathBuf, bool)>> {
    let Some(path) = chart else {
        return Ok(None);
    };
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if ext != "png" && ext != "svg" {
        return Err(invalid(
            "--chart",
            &path.display().to_string(),
            "allowed: a file name ending .png or .svg",
        ));
    }
    if path.exists() && !force {
        return Err(Error::Conflict(format!(
            "{} exists; add --force to replace it",
            path.display()
        )));
    }
    Ok(Some((path.clone(), ext == "svg")))
}

/// Draw `chart` to `path` (SVG or PNG).
fn draw_chart(
    chart: &morale_lab::report::chart::Chart,
    path: &std::path::Path,
    svg: bool,
) -> Result<()> {
    let fail = |e: String| Error::Conflict(format!("could not draw the chart: {e}"));
    let bytes = if svg {
        chart.svg().map_err(fail)?.into_bytes()
    } else {
        chart.png().map_err(fail)?
    };
    write_file(path, &bytes)
}

/// `balance SCENARIO`: solve for one parameter so that the headline reaches a target.
fn run_balance(
    scenario: Scenario,
    a: RunArgs,
    b: BalanceArgs,
    control: Arc<Control>,
) -> Result<String> {
    use morale_lab::experiment::balance::{Ask, Target, solve};
    if let Some(p) = &a.precision {
        return Err(invalid(
            "--precision",
            p,
            "not taken by balance: where it cannot solve exactly it runs --trials trials at each value",
        ));
    }
    let against_system = b.against_system.as_deref().map(load_mechanic).transpose()?;
    let target = match (
        &b.target,
        b.against.is_empty() && b.against_options.is_none() && against_system.is_none(),
    ) {
        (Some(t), true) => Target::Number(
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| invalid("--target", t, "a number, e.g. 0.5"))?,
        ),
        (None, false) => Target::Setting {
            inputs: b
                .against
                .iter()
                .map(|s| Input::parse_set(s))
                .collect::<Result<Vec<_>>>()?,
            options: b.against_options.as_deref().map(|l| {
                l.split(',')
                    .map(str::trim)
                    .filter(|o| !o.is_empty() && *o != "none")
                    .map(str::to_string)
                    .collect()
            }),
            system: against_system,
        },
        (Some(t), false) => {
            return Err(invalid(
                "--target",
                t,
                "either --target NUMBER or --against KEY=VALUE / --against-options LIST / --against-system NAME, not both",
            ));
        }
        (None, true) => {
            return Err(Error::Conflict(
                "balance needs a target: --target NUMBER, or --against KEY=VALUE / --against-options LIST / --against-system NAME (the same headline in another setting)".into(),
            ));
        }
    };
    let range = match &b.range {
        None => None,
        Some(r) => Some(
            r.split_once("..")
                .map(|(lo, hi)| (lo.trim().to_string(), hi.trim().to_string()))
                .ok_or_else(|| invalid("--range", r, "LOW..HIGH, e.g. 2..12 or 0..1/2"))?,
        ),
    };
    let chart = chart_target(b.chart.as_ref(), b.force)?;
    let asked = asked(&a)?;
    let ask = Ask {
        system: &asked.system,
        scenario,
        inputs: &asked.inputs,
        options: &asked.options,
        headline: b.headline.as_deref(),
        key: b.solve.trim(),
        range,
        target,
        run: asked.run.clone(),
        monte_carlo: b.monte_carlo,
    };
    // A counter of trials (the values tried are not known in advance), and the exact
    // solutions' progress.
    let bar = (!a.quiet && std::io::stderr().is_terminal())
        .then(|| progress(0, false, Arc::clone(&control)));
    let result = solve(&ask, &control);
    if let Some((bar, handle)) = bar {
        bar.finish_and_clear();
        let _ = handle.join();
    }
    let mut result = result?;
    // What reproduces it: this command line, as typed (without --chart and --force).
    let mut words = vec!["morale-lab".to_string()];
    let mut args = std::env::args().skip(1);
    while let Some(w) = args.next() {
        if w == "--chart" {
            args.next();
            continue;
        }
        if w == "--force" || w.starts_with("--chart=") {
            continue;
        }
        words.push(shell_word(&w));
    }
    result.command = Some(words.join(" "));
    if let Some((path, svg)) = chart {
        draw_chart(&result.chart(), &path, svg)?;
    }
    Ok(result.render(asked.format))
}

/// `w` as a shell reads it back: bare when it holds only safe characters, else single-quoted.
fn shell_word(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=./,:+%@".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// Files being written just now: an interrupt waits for them to be in place (or gone) before
/// it ends the process, so that a forced end never leaves a half-written file behind.
pub(crate) static WRITING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Counts one write under way while it lives.
struct Writing;

impl Writing {
    fn start() -> Writing {
        WRITING.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Writing
    }
}

impl Drop for Writing {
    fn drop(&mut self) {
        WRITING.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Write `bytes` to `path` through a temporary file beside it, so a failure leaves no half file.
fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    let _writing = Writing::start();
    let fail = |e: std::io::Error| Error::Conflict(format!("cannot write {}: {e}", path.display()));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or("chart".into());
    let tmp = path.with_file_name(format!(".{name}.partial-{}", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}

/// A progress bar on standard error, updated from the run's counter until it finishes.
fn progress(
    total: u64,
    known: bool,
    control: Arc<Control>,
) -> (ProgressBar, std::thread::JoinHandle<()>) {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(if known {
            "{spinner} [{elapsed_precise}] {wide_bar} {percent}% · {human_pos}/{human_len} trials · {rate} · ETA {eta} {msg}"
        } else {
            "{spinner} [{elapsed_precise}] {human_pos} trials · {rate} · running until the precision is reached {msg}"
        })
        .expect("valid template")
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1} M trials/s", state.per_sec() / 1e6);
            },
        ),
    );
    let b = bar.clone();
    let handle = std::thread::spawn(move || {
        while !b.is_finished() {
            // The checks after the runs run trials of their own: the bar stays full.
            let done = control.done();
            b.set_position(if known { done.min(total) } else { done });
            // The exact solution comes first: say which turn it has reached; after the runs,
            // which check.
            match (control.exact_progress(), control.checking()) {
                (Some((done, of)), _) => {
                    b.set_message(format!("· exact solution: turn {done} of {of}"))
                }
                (None, Some((done, of))) => b.set_message(format!(
                    "· checking the assumptions: setting {} of {of}",
                    done + 1
                )),
                (None, None) => b.set_message(""),
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    (bar, handle)
}

fn run_experiment(a: ExperimentArgs, control: Arc<Control>) -> Result<String> {
    if a.target.out.is_some() && a.files.len() > 1 {
        return Err(invalid(
            "--out",
            &a.target
                .out
                .as_ref()
                .map(|o| o.display().to_string())
                .unwrap_or_default(),
            "--out names one report folder: give one experiment file with it",
        ));
    }
    let trials = a.trials.as_deref().map(trials_of).transpose()?;
    let seed = a.seed.as_deref().map(seed_of).transpose()?;
    a.target.chart_scale()?;
    // Check every file before running any.
    let mut loaded = Vec::new();
    for file in &a.files {
        let (exp, source) = load_experiment(file)?;
        loaded.push((file.clone(), (exp.with_overrides(trials, seed), source)));
    }
    let mut said = String::new();
    for (file, (exp, source)) in loaded {
        said += &match &a.shard {
            None => run_one(&a, &file, exp, Arc::clone(&control))?,
            Some(k_of_n) => run_shard(&a, &file, exp, &source, k_of_n, Arc::clone(&control))?,
        };
    }
    Ok(said)
}

/// A seed: a whole number from 0 to 2^64−1.
fn seed_of(raw: &str) -> Result<u64> {
    parse_int(raw)
        .filter(|&s| s >= 0)
        .map(|s| s as u64)
        .or_else(|| raw.trim().parse::<u64>().ok())
        .ok_or_else(|| invalid("--seed", raw, "allowed: a whole number from 0 to 2^64−1"))
}

/// Trials: a whole number from 1 to 10^15 (1e7 and 10_000_000 both work).
fn trials_of(raw: &str) -> Result<u64> {
    Ok(int_in("--trials", raw, 1, 1_000_000_000_000_000)? as u64)
}

/// `new`: write a commented experiment file to start from.
fn run_new(a: NewArgs) -> Result<String> {
    let path = if a.name.extension().is_some_and(|e| e == "toml") {
        a.name.clone()
    } else {
        a.name.with_extension("toml")
    };
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(invalid(
            "NAME",
            &a.name.display().to_string(),
            "the name names the report folder: letters, digits, '-' and '_' only (e.g. my-question)",
        ));
    }
    if path.exists() && !a.force {
        return Err(Error::Conflict(format!(
            "{} exists: choose another name, or --force to replace it",
            path.display()
        )));
    }
    let _writing = Writing::start();
    std::fs::write(&path, morale_lab::experiment::template(&name))
        .map_err(|e| Error::Conflict(format!("cannot write {}: {e}", path.display())))?;
    Ok(format!(
        "wrote {}: edit the question and the variants, then `morale-lab run {}`\n",
        path.display(),
        path.display()
    ))
}

fn threads_of(threads: &Option<String>) -> Result<Option<usize>> {
    match threads {
        None => Ok(None),
        Some(t) => Ok(Some(int_in("--threads", t, 1, 1024)? as usize)),
    }
}

/// `bench`: measure (or list, or compare with a saved result).
fn run_bench(a: BenchArgs) -> Result<String> {
    use crate::bench::{self, compare};
    let format = Format::parse(&a.format)
        .filter(|f| matches!(f, Format::Text | Format::Json))
        .ok_or_else(|| invalid("--format", &a.format, "allowed: text, json"))?;
    let percent = |what: &str, raw: &Option<String>, default: f64| -> Result<f64> {
        raw.as_ref().map_or(Ok(default), |r| {
            r.trim()
                .trim_end_matches('%')
                .parse::<f64>()
                .ok()
                .filter(|x| (0.0..100.0).contains(x))
                .map(|x| x / 100.0)
                .ok_or_else(|| invalid(what, r, "allowed: a percentage from 0 to 100, e.g. 10"))
        })
    };
    let threshold = percent("--threshold", &a.threshold, 0.10)?;
    let drop = a
        .fail_on_drop
        .as_ref()
        .map(|_| percent("--fail-on-drop", &a.fail_on_drop, 0.0))
        .transpose()?;
    if let Some(s) = &a.sampler {
        Sampler::parse(s).ok_or_else(|| invalid("--sampler", s, "allowed: table, dice"))?;
    }
    let read = |p: &std::path::PathBuf| -> Result<bench::Bench> {
        let name = p.display().to_string();
        let text = std::fs::read_to_string(p).map_err(|e| {
            invalid(
                "--compare",
                &name,
                &format!("a file that can be read ({e})"),
            )
        })?;
        compare::parse(&text, &name)
    };
    let old = a.compare.iter().map(read).collect::<Result<Vec<_>>>()?;
    let mut set = a.set.clone();
    if let Some(t) = &a.turns {
        set.push(format!("turns={}", int_in("--turns", t, 1, 100_000)?));
    }
    // Asked here, or the baseline's, or the defaults.
    let base = old.first().map(|b| &b.plan);
    let plan = bench::Plan {
        seconds: match (&a.seconds, base) {
            (Some(s), _) => seconds_in("--seconds", s, 0.01, 600.0)?,
            (None, Some(b)) => b.seconds,
            (None, None) => 1.0,
        },
        repeats: match (&a.repeats, base) {
            (Some(r), _) => int_in("--repeats", r, 2, 1000)? as usize,
            (None, Some(b)) => b.repeats.max(bench::REPEATS),
            (None, None) => bench::REPEATS,
        },
        // Against a baseline: the threads it ran (not "every core" of another machine).
        threads: match (threads_of(&a.threads)?, old.first()) {
            (Some(t), _) => Some(t),
            (None, Some(b)) => Some(b.machine.threads),
            (None, None) => None,
        },
        only: a.only.clone(),
        // Against a baseline: its cases and no others (a word given here narrows them).
        exact_names: old
            .first()
            .map(|b| {
                b.cases
                    .iter()
                    .map(|c| c.case.clone())
                    .chain(b.exact.iter().map(|e| e.case.clone()))
                    .filter(|n| a.only.is_empty() || a.only.iter().any(|w| n.contains(w.as_str())))
                    .collect()
            })
            .unwrap_or_default(),
        sampler: a
            .sampler
            .clone()
            .or_else(|| base.and_then(|b| b.sampler.clone())),
        set: if set.is_empty() {
            base.map(|b| b.set.clone()).unwrap_or_default()
        } else {
            set
        },
        // Against a baseline: the trials a run it ran, so that each run does the same work.
        trials: old
            .first()
            .map(|b| {
                b.cases
                    .iter()
                    .map(|c| bench::FixedTrials {
                        case: c.case.clone(),
                        sampler: c.sampler.clone(),
                        trials: c.trials,
                    })
                    .chain(b.references.iter().map(|r| bench::FixedTrials {
                        case: r.reference.clone(),
                        sampler: "plain loop".into(),
                        trials: r.trials,
                    }))
                    .collect()
            })
            .unwrap_or_default(),
    };
    if !old.is_empty() && plan.exact_names.is_empty() {
        return Err(invalid(
            "--compare",
            &a.compare[0].display().to_string(),
            "a saved result with Monte Carlo or exact cases (matching the words given)",
        ));
    }
    if a.list {
        return bench::list(&plan);
    }
    if !old.is_empty() && format == Format::Json {
        return Err(invalid(
            "--format",
            &a.format,
            "text with --compare (write the new result's JSON with --save)",
        ));
    }
    // Against a baseline, run now: refused before anything runs when the work would differ.
    if let (Some(b), true) = (old.first(), a.to.is_empty()) {
        let threads = plan.threads.unwrap_or_else(rayon::current_num_threads);
        if let Some(d) = compare::differs(b, threads, &plan) {
            return Err(Error::Conflict(format!(
                "bench --compare: cannot compare: this run would differ from {} ({d}); run it as the baseline ran, or save a new baseline with these settings",
                a.compare[0].display()
            )));
        }
    }
    if let Some(path) = &a.save {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        if dir.is_some_and(|d| !d.is_dir()) || path.is_dir() {
            return Err(invalid(
                "--save",
                &path.display().to_string(),
                "a file in a folder that exists",
            ));
        }
    }
    let new = if a.to.is_empty() {
        let b = bench::run(&plan)?;
        if let Some(path) = &a.save {
            write_file(path, bench::json(&b)?.as_bytes())?;
        }
        vec![b]
    } else {
        a.to.iter().map(read).collect::<Result<Vec<_>>>()?
    };
    if old.is_empty() {
        return match format {
            Format::Json => bench::json(&new[0]),
            _ => Ok(bench::render(&new[0])),
        };
    }
    let names = |v: &[std::path::PathBuf]| -> Vec<String> {
        v.iter().map(|p| p.display().to_string()).collect()
    };
    let c = compare::compare(
        &old,
        &new,
        (&names(&a.compare), &names(&a.to)),
        threshold,
        drop,
    )?;
    let out = c.text;
    // Exit 1: a reliable regression past the threshold (with --fail-on-drop, a hand-loop ratio
    // fallen past its drop); exit 3: no regression, but a row could not be judged.
    match drop {
        Some(_) if c.guarded == 0 => Err(Error::Conflict(
            "--fail-on-drop: no case of the baseline has a hand-written loop to guard its speed by"
                .into(),
        )),
        Some(d) if !c.dropped.is_empty() => Err(Error::Regression {
            report: out,
            message: format!(
                "{} case(s) fell more than {:.0}% against their hand-written loop: {}",
                c.dropped.len(),
                d * 100.0,
                c.dropped.join("; ")
            ),
        }),
        Some(_) if !c.unjudged_guarded.is_empty() => Err(Error::Unjudged {
            report: out,
            message: format!(
                "could not judge {} hand-loop ratio(s) (exit 3): {}",
                c.unjudged_guarded.len(),
                c.unjudged_guarded.join("; ")
            ),
        }),
        Some(_) => Ok(out),
        None if !c.regressions.is_empty() => Err(Error::Regression {
            report: out,
            message: format!(
                "{} row(s) slower beyond the noise and the {:.0}% threshold: {}",
                c.regressions.len(),
                threshold * 100.0,
                c.regressions.join("; ")
            ),
        }),
        None if !c.unjudged.is_empty() => Err(Error::Unjudged {
            report: out,
            message: format!(
                "could not judge {} row(s) (exit 3): {}",
                c.unjudged.len(),
                c.unjudged.join("; ")
            ),
        }),
        None => Ok(out),
    }
}

/// `run --shard K/N`: part of every run's trials, written as raw tallies.
fn run_shard(
    a: &ExperimentArgs,
    file: &std::path::Path,
    exp: morale_lab::experiment::Experiment,
    source: &str,
    k_of_n: &str,
    control: Arc<Control>,
) -> Result<String> {
    use morale_lab::experiment::shard;
    let (k, n) = shard::parse_shard(k_of_n)?;
    let threads = threads_of(&a.threads)?;
    let sampler = Sampler::parse(&a.sampler)
        .ok_or_else(|| invalid("--sampler", &a.sampler, "allowed: table, dice"))?;
    let out = a
        .target
        .path(|| std::path::PathBuf::from(format!("{}.shard-{k}-of-{n}.json", exp.name)))?;
    let part = exp.run_shard(
        &file.display().to_string(),
        source,
        (k, n),
        threads,
        sampler,
        &control,
    )?;
    if control.is_cancelled() {
        return Err(Error::Cancelled);
    }
    let mut bytes = serde_json::to_vec(&part).expect("serialises");
    bytes.push(b'\n');
    let _writing = Writing::start();
    let tmp = out.with_extension(format!("partial-{}", std::process::id()));
    let fail = |e: std::io::Error| Error::Conflict(format!("cannot write {}: {e}", out.display()));
    std::fs::write(&tmp, &bytes).map_err(fail)?;
    std::fs::rename(&tmp, &out).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })?;
    Ok(format!(
        "wrote shard {k}/{n} of {} to {} ({} runs)\n",
        exp.name,
        out.display(),
        exp.runs()
    ))
}

/// `merge`: add all N shards and write the report of the whole run.
fn run_merge(a: MergeArgs, control: Arc<Control>) -> Result<String> {
    use morale_lab::experiment::{output, shard};
    let mut parts = Vec::new();
    let mut names = Vec::new();
    for p in &a.parts {
        let path = p.display().to_string();
        let file_err = |message: String| Error::File {
            path: path.clone(),
            line: 0,
            key: String::new(),
            message,
        };
        let bytes = std::fs::read(p).map_err(|e| {
            file_err(if p.is_dir() {
                "is a folder, not a shard file".into()
            } else {
                format!("cannot be read: {e}")
            })
        })?;
        if serde_json::from_slice::<serde_json::Value>(&bytes)
            .ok()
            .and_then(|v| v.get("format")?.as_str().map(str::to_string))
            .as_deref()
            == Some(morale_lab::experiment::points::FORMAT)
        {
            return merge_points(&a, control);
        }
        let part: shard::Shard = serde_json::from_slice(&bytes).map_err(|e| {
            file_err(format!(
                "is not a shard file of `morale-lab run --shard`: {e}"
            ))
        })?;
        parts.push(part);
        names.push(path);
    }
    // The exact solutions are worked out again while merging: show that it is going on.
    let total = parts.first().map_or(0, |p| p.tallies.len() as u64);
    let bar = (!a.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template("merging {pos}/{len} runs {wide_bar}")
                .expect("a valid template"),
        );
        bar
    });
    let result = shard::merge_with(&parts, &names, &control, &|done| {
        if let Some(b) = &bar {
            b.set_position(done as u64);
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let result = result?;
    let out = a.target.report_folder(
        || std::path::Path::new("reports").join(&result.experiment.name),
        &result.experiment.name,
    )?;
    let command = result.experiment.command(&parts[0].path);
    let files = output::outputs_scaled(&result, &command, a.target.chart_scale()?)?;
    // Stopped while the report was drawn: write nothing.
    if control.is_cancelled() {
        return Err(Error::Cancelled);
    }
    write_folder(&out, &files)?;
    Ok(format!(
        "merged {} shards: wrote {} files to {}/ ({} run{} of {} trials)\n",
        parts.len(),
        files.len(),
        out.display(),
        result.experiment.runs(),
        if result.experiment.runs() == 1 {
            ""
        } else {
            "s"
        },
        morale_lab::report::thousands(result.experiment.trials)
    ))
}

/// A confidence level as typed, checked.
fn confidence_in(raw: &str) -> Result<f64> {
    raw.trim()
        .parse::<f64>()
        .ok()
        .filter(|c| *c >= 0.5 && *c < 1.0)
        .ok_or_else(|| {
            invalid(
                "--confidence",
                raw,
                "allowed: a level from 0.5 up to (not including) 1, e.g. 0.95",
            )
        })
}

/// A counter of matchups on a terminal (none when quiet or not on one).
fn matchup_bar(quiet: bool, what: &str) -> Option<ProgressBar> {
    (!quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{spinner}} [{{elapsed_precise}}] {what} {{pos}}/{{len}} {{wide_bar}} ETA {{eta}}"
            ))
            .expect("valid template"),
        );
        bar
    })
}

/// `points`: play a points file's matchups (or a shard of them), fit and check its costs.
fn run_points(a: PointsArgs, control: Arc<Control>) -> Result<String> {
    use morale_lab::experiment::points;
    let format = format_of(&a.format)?;
    let confidence = confidence_in(&a.confidence)?;
    let exact_budget = match &a.exact_budget {
        None => morale_lab::DEFAULT_EXACT_BUDGET,
        Some(s) => seconds_in("--exact-budget", s, 0.1, 86_400.0)?,
    };
    let shard = a
        .shard
        .as_deref()
        .map(morale_lab::experiment::shard::parse_shard)
        .transpose()?;
    if a.out.is_some() && shard.is_none() {
        return Err(invalid(
            "--out",
            &a.out
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            "only with --shard K/N (the report goes to standard output)",
        ));
    }
    let path = a.file.display().to_string();
    let text = read_text(&a.file, "points file")?;
    let mut file = points::PointsFile::parse_with(&path, &text, &mut read_named)?;
    file.monte_carlo = a.monte_carlo;
    let run = RunOptions::new(file.trials, file.seed)
        .confidence(confidence)
        .exact_only(a.exact_only)
        .exact_budget(Some(exact_budget))
        .threads(threads_of(&a.threads)?);
    let bar = matchup_bar(a.quiet, "matchup");
    let mut tick = |done: usize, total: usize| {
        if let Some(b) = &bar {
            b.set_length(total as u64);
            b.set_position(done as u64);
        }
    };
    if let Some((k, n)) = shard {
        let out = a.out.clone().unwrap_or_else(|| {
            let stem = a
                .file
                .file_stem()
                .map_or("points".into(), |s| s.to_string_lossy().to_string());
            a.file
                .with_file_name(format!("{stem}.shard-{k}-of-{n}.json"))
        });
        if out.exists() && !a.force {
            return Err(invalid(
                "--out",
                &out.display().to_string(),
                "a file that does not exist yet (or --force to replace it)",
            ));
        }
        let part = points::run_shard(&file, k, n, &run, &control, &mut tick);
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        let part = part?;
        let mut json = serde_json::to_string_pretty(&part).expect("a shard serialises");
        json.push('\n');
        write_file(&out, json.as_bytes())?;
        return Ok(format!(
            "shard {k} of {n}: {} matchups written to {}\n",
            part.scores.len(),
            out.display()
        ));
    }
    let result = points::run(&file, &run, &control, &mut tick);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let mut result = result?;
    let mut words = vec![format!("morale-lab points {}", shell_word(&path))];
    if a.exact_only {
        words.push("--exact-only".into());
    }
    if a.monte_carlo {
        words.push("--monte-carlo".into());
    }
    if let Some(b) = &a.exact_budget {
        words.push(format!("--exact-budget {}", shell_word(b)));
    }
    if (confidence - 0.95).abs() > 1e-12 {
        words.push(format!("--confidence {confidence}"));
    }
    result.command = words.join(" ");
    Ok(result.render(format))
}

/// `merge` of points shards: the report on standard output, and in every format under --out.
fn merge_points(a: &MergeArgs, control: Arc<Control>) -> Result<String> {
    use morale_lab::experiment::output::OutputFile;
    use morale_lab::experiment::points;
    let mut parts = Vec::new();
    for p in &a.parts {
        let bytes = std::fs::read(p).map_err(|e| Error::File {
            path: p.display().to_string(),
            line: 0,
            key: String::new(),
            message: format!("cannot be read: {e}"),
        })?;
        let part: points::Shard = serde_json::from_slice(&bytes).map_err(|e| Error::File {
            path: p.display().to_string(),
            line: 0,
            key: String::new(),
            message: format!("is not a shard file of `morale-lab points --shard`: {e}"),
        })?;
        parts.push(part);
    }
    let bar = matchup_bar(a.quiet, "checking");
    let result = points::merge(&parts, &RunOptions::new(1, 1), &control);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let mut result = result?;
    result.command = format!(
        "morale-lab points {}{}",
        shell_word(&result.file.path),
        if result.file.monte_carlo {
            " --monte-carlo"
        } else {
            ""
        }
    );
    if let Some(out) = &a.target.out {
        if out.exists() && !a.target.force {
            return Err(invalid(
                "--out",
                &out.display().to_string(),
                "a folder that does not exist yet (or --force to replace it)",
            ));
        }
        let files: Vec<OutputFile> = [
            ("points.txt", Format::Text),
            ("points.md", Format::Markdown),
            ("points.json", Format::Json),
            ("points.csv", Format::Csv),
        ]
        .into_iter()
        .map(|(name, f)| OutputFile {
            name: name.into(),
            bytes: result.render(f).into_bytes(),
        })
        .collect();
        if control.is_cancelled() {
            return Err(Error::Cancelled);
        }
        write_folder(out, &files)?;
    }
    Ok(result.to_text())
}

/// The text of a file a user named, or one line saying why it cannot be read.
fn read_text(file: &std::path::Path, what: &str) -> Result<String> {
    let path = file.display().to_string();
    let bytes = std::fs::read(file).map_err(|e| Error::File {
        path: path.clone(),
        line: 0,
        key: String::new(),
        message: if file.is_dir() {
            format!("is a folder, not {what}")
        } else {
            format!("cannot be read: {e}")
        },
    })?;
    String::from_utf8(bytes).map_err(|_| Error::File {
        path,
        line: 0,
        key: String::new(),
        message: "is not UTF-8 text".into(),
    })
}

/// A rule-set file and the files it stands on.
/// The system, rule inputs and optional rules of `--system` (or the positional system, named
/// `flag`), `--rules FILE` and `--rule KEY=VALUE`: the file's, then the flags' over them. With
/// neither a system nor a file, Rank & File.
///
/// # Errors
/// A file that cannot be read or parsed, a `--rule` that is not KEY=VALUE, and a system that
/// differs from the file's.
fn rules_of(
    (system, flag): (Option<&String>, &str),
    file: Option<&std::path::Path>,
    rules: &[String],
) -> Result<(String, Vec<Input>, Vec<String>)> {
    let (mut inputs, mut options) = (Vec::new(), Vec::new());
    let system = match file {
        None => load_mechanic(&system.cloned().unwrap_or_else(|| "rank-and-file".into()))?,
        Some(file) => {
            let set = load_ruleset(file)?;
            // The same system, however it is named (a mechanic file by another path).
            let same = |s: &String| load_mechanic(s).is_ok_and(|name| name == set.system);
            if let Some(sys) = system.filter(|s| !same(s)) {
                return Err(Error::Conflict(format!(
                    "{flag} {sys} and --rules {} (a rule set of {}) name two systems: give one",
                    file.display(),
                    set.system
                )));
            }
            inputs.extend(set.inputs());
            options.extend(set.options.iter().cloned());
            set.system
        }
    };
    for s in rules {
        inputs.push(Input::parse_rule(s)?);
    }
    Ok((system, inputs, options))
}

fn load_ruleset(file: &std::path::Path) -> Result<morale_lab::ruleset::RuleSet> {
    let source = read_text(file, "a rule-set file")?;
    morale_lab::ruleset::RuleSet::parse(&file.display().to_string(), &source, &mut read_named)
}

/// A file a rule set, an experiment or a mechanic file names, by what it is.
fn read_named(p: &str) -> Result<String> {
    let what = if morale_lab::mechanic::is_file(p) {
        "a mechanic file"
    } else {
        "a rule-set file"
    };
    read_text(std::path::Path::new(p), what)
}

/// The name `system` goes by: a system's own, or, when it names a mechanic file (`--system
/// path/to/file.rhai`), the file loaded (under the path it was first loaded by).
fn load_mechanic(system: &str) -> Result<String> {
    if morale_lab::mechanic::is_file(system) {
        return Ok(morale_lab::mechanic::load_with(system, &mut read_named)?
            .name()
            .to_string());
    }
    Ok(system.to_string())
}

fn load_experiment(file: &std::path::Path) -> Result<(morale_lab::experiment::Experiment, String)> {
    let path = file.display().to_string();
    let source = read_text(file, "an experiment file")?;
    let exp = morale_lab::experiment::Experiment::parse_with(&path, &source, &mut read_named)?;
    Ok((exp, source))
}

fn run_one(
    a: &ExperimentArgs,
    file: &std::path::Path,
    exp: morale_lab::experiment::Experiment,
    control: Arc<Control>,
) -> Result<String> {
    use morale_lab::experiment::output;
    let threads = threads_of(&a.threads)?;
    let sampler = Sampler::parse(&a.sampler)
        .ok_or_else(|| invalid("--sampler", &a.sampler, "allowed: table, dice"))?;
    let out = a.target.report_folder(
        || std::path::Path::new("reports").join(&exp.name),
        &exp.name,
    )?;
    let total = exp.trials.saturating_mul(exp.runs() as u64);
    let bar = (!a.quiet && std::io::stderr().is_terminal())
        .then(|| progress(total, true, Arc::clone(&control)));
    let result = exp.run(threads, sampler, &control);
    if let Some((bar, handle)) = bar {
        bar.finish_and_clear();
        let _ = handle.join();
    }
    let result = result?;
    let command = exp.command(&file.display().to_string());
    let files = output::outputs_scaled(&result, &command, a.target.chart_scale()?)?;
    write_folder(&out, &files)?;
    Ok(format!(
        "wrote {} files to {}/ ({} run{} of {} trials)\n",
        files.len(),
        out.display(),
        exp.runs(),
        if exp.runs() == 1 { "" } else { "s" },
        morale_lab::report::thousands(exp.trials)
    ))
}

/// Write `files` into a new folder beside `out`, then rename it into place, so an interrupted
/// or failed run leaves no partial folder.
fn write_folder(
    out: &std::path::Path,
    files: &[morale_lab::experiment::output::OutputFile],
) -> Result<()> {
    let _writing = Writing::start();
    let fail = |what: &str, e: std::io::Error| {
        Error::Conflict(format!("cannot {what} {}: {e}", out.display()))
    };
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| fail("create the parent of", e))?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or("report".into());
    let tmp = parent.join(format!(".{name}.partial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir(&tmp).map_err(|e| fail("write", e))?;
    let written = files
        .iter()
        .try_for_each(|f| std::fs::write(tmp.join(&f.name), &f.bytes));
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(fail("write", e));
    }
    if out.exists() {
        let old = parent.join(format!(".{name}.old-{}", std::process::id()));
        std::fs::rename(out, &old).map_err(|e| fail("replace", e))?;
        std::fs::rename(&tmp, out).map_err(|e| fail("replace", e))?;
        let _ = std::fs::remove_dir_all(&old);
    } else {
        std::fs::rename(&tmp, out).map_err(|e| fail("write", e))?;
    }
    Ok(())
}

fn run_serve(a: ServeArgs, control: Arc<Control>) -> Result<String> {
    let host: std::net::IpAddr = match a.host.trim() {
        h if h.eq_ignore_ascii_case("localhost") => std::net::IpAddr::from([127, 0, 0, 1]),
        h => h.trim_start_matches('[').trim_end_matches(']').parse().map_err(|_| {
            invalid(
                "--host",
                &a.host,
                "allowed: an IP address or localhost, e.g. 127.0.0.1 (the default) or 0.0.0.0 for every interface",
            )
        })?,
    };
    for name in &a.allow_host {
        let ok = !name.is_empty()
            && name.len() <= 253
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
        if !ok {
            return Err(invalid(
                "--allow-host",
                name,
                "allowed: a host name of letters, digits, '-' and '.', e.g. lab.example",
            ));
        }
    }
    let port = int_in("--port", &a.port, 0, 65535)? as u16;
    let limits = morale_lab::explorer::Limits {
        max_trials: trials_of(&a.max_trials)
            .ok()
            .filter(|t| *t >= 1000)
            .ok_or_else(|| {
                invalid(
                    "--max-trials",
                    &a.max_trials,
                    "allowed: a whole number of trials from 1000, e.g. 1e8",
                )
            })?,
        max_seconds: seconds_in("--max-seconds", &a.max_seconds, 1.0, 86_400.0)?,
        max_runs: int_in("--max-runs", &a.max_runs, 1, 64)? as usize,
        threads: threads_of(&a.threads)?,
        cache: if a.no_cache {
            0
        } else {
            morale_lab::explorer::Limits::default().cache
        },
        ..morale_lab::explorer::Limits::default()
    };
    let mechanics = match a.mechanics {
        Some(dir) => (dir, true),
        None => (std::path::PathBuf::from("mechanics"), false),
    };
    crate::serve::serve(
        crate::serve::Serve {
            host,
            port,
            mechanics,
            open: a.open,
            limits,
            names: a.allow_host.clone(),
        },
        control,
    )
}

/// `publish`: every answer worked out (refused past the most, with the count), its size said,
/// then the page written whole.
fn run_publish(a: PublishArgs, control: &Control) -> Result<String> {
    use morale_lab::params::{Input, Source};
    let scenario = Scenario::from_name(&a.scenario).ok_or_else(|| {
        invalid(
            "SCENARIO",
            &a.scenario,
            "allowed: test, rally, under-fire, melee, charge, engagement, line",
        )
    })?;
    let pair = |flag: &str, kv: &str| -> Result<(String, String)> {
        kv.split_once('=')
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .filter(|(k, _)| !k.is_empty())
            .ok_or_else(|| invalid(flag, kv, "allowed: KEY=VALUE"))
    };
    let mut inputs = Vec::new();
    for kv in &a.sets {
        let (key, value) = pair("--set", kv)?;
        inputs.push(Input {
            key,
            value,
            source: Source::Set,
        });
    }
    for kv in &a.rules {
        let (key, value) = pair("--rule", kv)?;
        inputs.push(Input::rule(&key, value));
    }
    let system = load_mechanic(&a.system)?;
    let open = a
        .open
        .iter()
        .map(|o| morale_lab::publish::open_field(&system, scenario, o))
        .collect::<Result<Vec<_>>>()?;
    let ask = morale_lab::publish::Ask {
        system: system.clone(),
        scenario,
        inputs,
        options: a.options.clone(),
        open,
    };
    let mut command = format!("morale-lab {} --system {}", scenario.name(), a.system);
    for kv in &a.sets {
        command += &format!(" --set {}", morale_lab::explorer::view::shell(kv));
    }
    for kv in &a.rules {
        command += &format!(" --rule {}", morale_lab::explorer::view::shell(kv));
    }
    for o in &a.options {
        command += &format!(" --option {o}");
    }
    let page = morale_lab::publish::publish(&ask, &command, env!("CARGO_PKG_VERSION"), control)?;
    eprintln!(
        "publishing {} exact answers, {} KB, to {}",
        morale_lab::report::thousands(page.answers as u64),
        page.html.len().div_ceil(1024),
        a.out.display()
    );
    write_file(&a.out, page.html.as_bytes())?;
    Ok(format!(
        "wrote {} ({} KB): {} exact answers{}\n",
        a.out.display(),
        page.html.len().div_ceil(1024),
        morale_lab::report::thousands(page.answers as u64),
        if page.refused > 0 {
            format!(
                ", {} of them settings the rules refuse (the page says why)",
                page.refused
            )
        } else {
            String::new()
        }
    ))
}

fn run_odds(a: OddsArgs) -> Result<String> {
    let html = a.format == "html";
    let format = if html {
        Format::Text
    } else {
        format_of(&a.format)?
    };
    if a.system.is_none() && a.rules_file.is_none() {
        return Err(Error::Conflict(
            "odds needs a rule system (rank-and-file, effectiveness, linear-warfare) or --rules FILE".into(),
        ));
    }
    let stands = match &a.stands {
        None => None,
        Some(s) => Some(int_in("--stands", s, 1, 40)? as u8),
    };
    let ask = morale_lab::odds::OddsAsk {
        stands,
        max_lost: a
            .max_lost
            .as_deref()
            .map(|m| int_in("--max-lost", m, 0, 39).map(|v| v as u8))
            .transpose()?,
        lost: a
            .lost
            .as_deref()
            .map(|m| int_in("--lost", m, 0, 39).map(|v| v as u8))
            .transpose()?,
    };
    // A rule set's optional rules do not change these tables: only its rule parameters count.
    let (system, rules, _options) = rules_of(
        (a.system.as_ref(), "odds"),
        a.rules_file.as_deref(),
        &a.rules,
    )?;
    let mut sheet = system::odds(&system, &ask, &rules)?;
    // The title: the user's, else a rule set's name beside the system's title; a rule set's
    // description under it.
    let set = a.rules_file.as_deref().map(load_ruleset).transpose()?;
    let description = set.as_ref().map(|s| s.description.as_str());
    if let Some(title) = &a.title {
        let t = title.trim();
        if t.is_empty() || t.chars().count() > 200 || t.contains(['\n', '\r']) {
            return Err(invalid(
                "--title",
                title,
                "allowed: one line of 1 to 200 characters",
            ));
        }
        sheet.set_title(t, description);
    } else if let Some(set) = &set {
        let title = format!("{} — {}", set.name, sheet.title);
        sheet.set_title(&title, description);
    }
    Ok(if html {
        sheet.html()
    } else {
        sheet.render(format)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::FromArgMatches;

    /// The subcommands that run a scenario are exactly `Scenario::ALL`, in its order, each
    /// taking the run flags; the others are the derived ones. A scenario added to the enum has
    /// its subcommand without a change here, and none can be left without one.
    #[test]
    fn the_scenario_subcommands_are_the_scenarios() {
        let cmd = command();
        cmd.clone().debug_assert();
        let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
        let derived: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        let scenarios: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| !derived.iter().any(|d| d == n) && *n != "sensitivity" && *n != "balance")
            .collect();
        let all: Vec<&str> = Scenario::ALL.iter().map(|s| s.name()).collect();
        assert_eq!(scenarios, all);
        // `sensitivity` takes every scenario, with its flags and its own.
        let sens = cmd.find_subcommand("sensitivity").unwrap();
        let under: Vec<&str> = sens.get_subcommands().map(|c| c.get_name()).collect();
        assert_eq!(under, all);
        for sub in sens.get_subcommands() {
            for id in ["system", "headline", "chart", "force"] {
                assert!(sub.get_arguments().any(|a| a.get_id() == id), "{id}");
            }
        }
        // So does `balance`.
        let bal = cmd.find_subcommand("balance").unwrap();
        let under: Vec<&str> = bal.get_subcommands().map(|c| c.get_name()).collect();
        assert_eq!(under, all);
        for sub in bal.get_subcommands() {
            for id in [
                "system", "solve", "target", "against", "range", "headline", "chart",
            ] {
                assert!(sub.get_arguments().any(|a| a.get_id() == id), "{id}");
            }
        }
        for s in Scenario::ALL {
            let sub = cmd.find_subcommand(s.name()).unwrap();
            assert!(sub.get_arguments().any(|a| a.get_id() == "system"), "{s}");
            assert_eq!(
                sub.get_about().map(|a| a.to_string()).as_deref(),
                Some(s.about().help)
            );
            // Each parses back into the scenario it names.
            let m = command()
                .try_get_matches_from(["morale-lab", s.name(), "--trials", "10"])
                .unwrap();
            let (name, sub) = m.subcommand().unwrap();
            assert_eq!(Scenario::from_name(name), Some(s));
            let a = RunArgs::from_arg_matches(sub).unwrap();
            assert_eq!(a.trials.as_deref(), Some("10"));
        }
        // `--help` lists the scenarios first, in their order.
        let mut shown: Vec<(usize, &str)> = cmd
            .get_subcommands()
            .map(|c| (c.get_display_order(), c.get_name()))
            .collect();
        shown.sort_unstable();
        let first: Vec<&str> = shown.iter().take(all.len()).map(|(_, n)| *n).collect();
        assert_eq!(first, all);
    }

    /// Every flag a system's parameter table names is a flag of the command line: a table
    /// cannot promise `--modifier` in `list` while the command line refuses it (found by adding
    /// a system on a scratch branch: its new flag was listed and refused). Parameters without a
    /// flag of their own take `--set KEY=VALUE`.
    #[test]
    fn every_parameter_flag_is_a_flag_of_the_command_line() {
        let cmd = command();
        for sys in system::systems() {
            for p in system::all_params(sys) {
                let Some(flag) = p.flag else { continue };
                assert!(
                    SCENARIO_FLAGS.iter().any(|(_, f)| *f == flag),
                    "{}: {} names {flag}, which the command line does not have",
                    sys.name(),
                    p.key
                );
                for s in p.scenarios {
                    let sub = cmd.find_subcommand(s.name()).unwrap();
                    let long = flag.trim_start_matches("--");
                    assert!(
                        sub.get_arguments()
                            .any(|a| a.get_long() == Some(long) && !a.is_hide_set()),
                        "{} {s}: {flag} is hidden or missing",
                        sys.name()
                    );
                }
            }
        }
    }
}
