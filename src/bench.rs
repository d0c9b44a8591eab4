//! `morale-lab bench`: the README's benchmark cases on the user's machine, in trials (battles)
//! per second, through the same builders as the command line.

use std::time::Instant;

use morale_lab::engine::{Control, RunSpec};
use morale_lab::error::{Error, Result};
use morale_lab::params::Input;
use morale_lab::scenario::RunOptions;
use morale_lab::scenario::chain::Sampler;
use morale_lab::system;

/// One case: name, system, scenario, `--set` pairs, options.
type Case = (
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

/// The criterion benches' cases.
const CASES: &[Case] = &[
    (
        "rally RF veteran 7 stands 2 lost routing",
        "rank-and-file",
        "rally",
        &[
            "class=veteran",
            "stands=7",
            "lost=2",
            "state=routing",
            "turns=100",
        ],
        &[],
    ),
    (
        "under-fire RF regular 8 stands 12 turns",
        "rank-and-file",
        "under-fire",
        &["class=regular", "stands=8", "turns=12"],
        &[],
    ),
    (
        "under-fire EF regular 12 turns retreat-on-fire",
        "effectiveness",
        "under-fire",
        &["class=regular", "turns=12"],
        &["retreat-on-fire"],
    ),
    (
        "under-fire LW line 12 turns",
        "linear-warfare",
        "under-fire",
        &["turns=12"],
        &[],
    ),
    (
        "melee RF veteran cavalry v regular infantry",
        "rank-and-file",
        "melee",
        &[
            "attacker=veteran cavalry stands=6",
            "defender=regular infantry",
        ],
        &[],
    ),
    (
        "melee EF regular v regular",
        "effectiveness",
        "melee",
        &[],
        &[],
    ),
    (
        "melee LW guards charging v line behind obstacle",
        "linear-warfare",
        "melee",
        &[
            "attacker=guards pips=7 charging",
            "defender=line pips=5 obstacle",
        ],
        &[],
    ),
    (
        "line RF 6 v 6",
        "rank-and-file",
        "line",
        &[
            "attacker=6 x regular infantry",
            "defender=6 x regular infantry",
        ],
        &[],
    ),
    (
        "line EF 6 v 6",
        "effectiveness",
        "line",
        &["attacker=6 x regular", "defender=6 x regular"],
        &[],
    ),
    (
        "line LW 6 v 6",
        "linear-warfare",
        "line",
        &["attacker=6 x line", "defender=6 x line"],
        &[],
    ),
];

/// Run every case (or those matching `only`) for at least `seconds` each and print a table.
pub fn run(seconds: Option<&str>, threads: Option<&str>, only: &[String]) -> Result<String> {
    let bad = |what: &str, value: &str, allowed: &str| Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed: allowed.into(),
    };
    let seconds = match seconds {
        None => 1.0,
        Some(s) => s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| (0.01..=600.0).contains(x))
            .ok_or_else(|| {
                bad(
                    "--seconds",
                    s,
                    "allowed: a number of seconds from 0.01 to 600",
                )
            })?,
    };
    let threads = match threads {
        None => None,
        Some(t) => Some(
            t.trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=1024).contains(n))
                .ok_or_else(|| bad("--threads", t, "allowed: a whole number from 1 to 1024"))?,
        ),
    };
    let cases: Vec<_> = CASES
        .iter()
        .filter(|c| only.is_empty() || only.iter().any(|w| c.0.contains(w.as_str())))
        .collect();
    if cases.is_empty() {
        return Err(bad(
            "FILTER",
            &only.join(" "),
            "no case matches; words such as rally, under-fire, melee, line, RF, EF, LW",
        ));
    }
    let n_threads = threads.unwrap_or_else(rayon::current_num_threads);
    let mut out = format!(
        "morale-lab {} bench · {n_threads} threads · at least {seconds} s a case\n\n",
        morale_lab::VERSION
    );
    let mut rows = vec![[
        "case".to_string(),
        "sampler".into(),
        "trials".into(),
        "per second".into(),
    ]];
    for (name, sys, scenario, pairs, options) in cases {
        let inputs: Vec<Input> = pairs
            .iter()
            .map(|p| Input::parse_set(p))
            .collect::<Result<_>>()?;
        let options: Vec<String> = options.iter().map(|s| s.to_string()).collect();
        let job = system::build(sys, scenario, &inputs, &options)?;
        // Double the trials until one run takes at least the time asked for.
        let mut trials = 1u64 << 16;
        loop {
            let spec = RunSpec {
                trials,
                seed: 1,
                stream: 0,
                threads,
            };
            let opts = RunOptions {
                spec,
                confidence: 0.95,
                exact_only: false,
                sampler: Sampler::Table,
                precision: None,
            };
            let started = Instant::now();
            let report = job.run(&opts, &Control::new())?;
            let mc = started.elapsed().as_secs_f64();
            if mc >= seconds || trials >= 1 << 40 {
                rows.push([
                    name.to_string(),
                    report.sampler.unwrap_or_default(),
                    morale_lab::report::thousands(trials),
                    format!("{:.2} M", report.trials_per_s / 1e6),
                ]);
                break;
            }
            trials *= 2;
        }
    }
    let widths: Vec<usize> = (0..4)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    for r in &rows {
        out += &format!(
            "{:<w0$}  {:<w1$}  {:>w2$}  {:>w3$}\n",
            r[0],
            r[1],
            r[2],
            r[3],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3]
        );
    }
    out += "\n(per second: trials, or battles for line; Monte Carlo only, the exact solution's time excluded)\n";
    Ok(out)
}
