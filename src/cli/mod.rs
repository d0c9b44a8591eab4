//! The command line: clap definitions and their conversion into the library's validated inputs.
//!
//! The rooms: this file holds the command tree (the derived subcommands, the scenario commands
//! made from [`Scenario::ALL`], `sensitivity` and `balance` over them), the one-line form of
//! clap's errors, and the dispatch; [`commands`] has one file per command (its flags and its
//! run); [`flags`] checks every value the flags take; [`files`] reads what a user names;
//! [`write`] is the one way anything is written; [`progress`] the one display of progress.

mod commands;
mod files;
mod flags;
mod progress;
mod write;

use std::sync::Arc;

use clap::{Args, CommandFactory, Parser, Subcommand};

use morale_lab::Scenario;
use morale_lab::engine::Control;
use morale_lab::error::Result;
use morale_lab::system;

use commands::balance::{BalanceArgs, run_balance};
use commands::bench::{BenchArgs, run_bench};
use commands::completions::{CompletionsArgs, run_completions, run_man};
use commands::experiment::{ExperimentArgs, run_experiment};
use commands::list::{ListArgs, run_list};
use commands::merge::{MergeArgs, run_merge};
use commands::new::{NewArgs, run_new};
use commands::odds::{OddsArgs, run_odds};
use commands::play::{PlayArgs, run_play};
use commands::points::{PointsArgs, run_points};
use commands::publish::{PublishArgs, run_publish};
use commands::scenario::{RunArgs, run_scenario};
use commands::sensitivity::{SensitivityArgs, run_sensitivity};
use commands::serve::{ServeArgs, run_serve};

pub(crate) use write::{ON_INTERRUPT, WRITING};

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
        2  bad input, or --compare refused: the two ran different threads, sampler or settings (--set, --turns), or a file of an unknown layout (with --format json, also as a JSON object on standard output)\n  \
        3  with --compare: none slower, but a row could not be judged (unreliable: threads waited for a core more than 5% of their time on a side, or the two shares differ by more than 2 points, or too few runs; the JSON counts each cause); with --save: saved, but measured on a busy machine (threads waited more than 5% of their time)\n\n\
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

/// The flags of [`RunArgs`] that belong to some scenarios only: the field's id and its flag
/// (read from [`RunArgs::given`], the one table of them).
fn scenario_flags() -> Vec<(&'static str, &'static str)> {
    RunArgs::default()
        .given()
        .into_iter()
        .map(|g| (g.id, g.flag))
        .collect()
}

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
    let play = clap::Command::new("play")
        .about("Play solved: the best choices the rules leave side A (hold or charge, each turn of an engagement), exactly, beside every fixed way of playing; whether one choice is dominant, what good play is worth, and the simplest rule of thumb that comes close")
        .subcommand_required(true)
        .display_order(Scenario::ALL.len() + 2)
        .after_help(
            "Example:
  morale-lab play engagement --system rank-and-file --attacker \"regular cavalry\" --defender regular",
        )
        .subcommand(scenario_command(Scenario::Engagement, 0, Extra::Play))
        .subcommand(scenario_command(Scenario::Line, 1, Extra::Play).hide(true));
    for (i, scenario) in Scenario::ALL.into_iter().enumerate() {
        cmd = cmd.subcommand(scenario_command(scenario, i, Extra::None));
        sensitivity = sensitivity.subcommand(scenario_command(scenario, i, Extra::Sensitivity));
        balance = balance.subcommand(scenario_command(scenario, i, Extra::Balance));
    }
    cmd.subcommand(sensitivity)
        .subcommand(balance)
        .subcommand(play)
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
    /// `play SCENARIO`.
    Play,
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
        Extra::Play => example.replacen(
            &format!("morale-lab {}", scenario.name()),
            &format!("morale-lab play {}", scenario.name()),
            1,
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
    if extra == Extra::Play {
        sub = PlayArgs::augment_args(sub)
            .mut_arg("precision", |a| a.hide(true))
            .about(format!(
                "The best choices of side A, solved exactly: {}",
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
    // Hidden in the order the flags are defined (the order completion scripts list them).
    let scenario_flags = scenario_flags();
    let hidden: Vec<String> = sub
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .filter(|id| {
            scenario_flags
                .iter()
                .any(|(i, flag)| i == id && !flags.contains(flag))
        })
        .collect();
    for id in hidden {
        sub = sub.mut_arg(id, |a| a.hide(true));
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
    if let Some(("play", sub)) = matches.subcommand()
        && let Some((name, sub)) = sub.subcommand()
        && let Some(scenario) = Scenario::from_name(name)
    {
        let a = RunArgs::from_arg_matches(sub).unwrap_or_else(|e| exit_on(e));
        let p = PlayArgs::from_arg_matches(sub).unwrap_or_else(|e| exit_on(e));
        return run_play(scenario, a, p, control);
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
        Command::Bench(a) => run_bench(a),
        Command::Odds(a) => run_odds(a),
        Command::Publish(a) => run_publish(a, &control),
        Command::Serve(a) => run_serve(a, control),
        Command::List(a) => run_list(a),
        Command::Completions(a) => run_completions(a, command()),
        Command::Man => run_man(command()),
    }
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
            .filter(|n| {
                !derived.iter().any(|d| d == n) && !["sensitivity", "balance", "play"].contains(n)
            })
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
                    scenario_flags().iter().any(|(_, f)| *f == flag),
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
