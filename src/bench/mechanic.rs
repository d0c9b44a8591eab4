//! The mechanic files' cases: a script's run timed beside the built-in rules it restates.

use super::*;

/// A case run by a built-in system and by the mechanic file that writes the same rules.
pub(super) struct MechanicCase {
    pub(super) name: &'static str,
    pub(super) built_in: &'static str,
    pub(super) file: &'static str,
    pub(super) scenario: morale_lab::Scenario,
    pub(super) set: &'static [&'static str],
    pub(super) options: &'static [&'static str],
}

/// The mechanic files' cases: the same setting by the built-in system and by its file.
pub(super) const MECHANIC_CASES: &[MechanicCase] = &[
    MechanicCase {
        name: "mechanic rally RF veteran routing",
        built_in: "rank-and-file",
        file: "mechanics/rank-and-file.rhai",
        scenario: morale_lab::Scenario::Rally,
        set: &["class=veteran", "stands=7", "lost=2", "state=routing"],
        options: &[],
    },
    MechanicCase {
        name: "mechanic under-fire RF regular 12 stands 24 turns",
        built_in: "rank-and-file",
        file: "mechanics/rank-and-file.rhai",
        scenario: morale_lab::Scenario::UnderFire,
        set: &["class=regular", "stands=12", "turns=24"],
        options: &[],
    },
    MechanicCase {
        name: "mechanic under-fire EF regular 12 turns retreat-on-fire return-roll",
        built_in: "effectiveness",
        file: "mechanics/effectiveness.rhai",
        scenario: morale_lab::Scenario::UnderFire,
        set: &["class=regular", "turns=12"],
        options: &["retreat-on-fire", "return-roll"],
    },
];

/// Each mechanic case by the built-in system and by its file, side by side: set-up (the script
/// compiled, the tables built, the exact solution) and Monte Carlo trials per second (runs of
/// the two alternated), with the file's ratio to the built-in. The files are read from
/// `mechanics/` (the folder run from, or the source tree's).
pub(super) fn mechanic_rows(
    bench: &mut Bench,
    cases: &[&MechanicCase],
    seconds: f64,
    threads: Option<usize>,
) -> Result<()> {
    let read = |p: &str| -> Result<String> {
        let here = std::path::Path::new(p);
        let there = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(p);
        std::fs::read_to_string(here)
            .or_else(|_| std::fs::read_to_string(&there))
            .map_err(|e| Error::Conflict(format!("{p}: {e}")))
    };
    for case in cases {
        if let Err(e) = morale_lab::mechanic::load_with(case.file, &mut |p| read(p)) {
            bench.mechanic_not_run = Some(e.to_string());
            return Ok(());
        }
        let inputs: Vec<morale_lab::params::Input> = case
            .set
            .iter()
            .map(|p| morale_lab::params::Input::parse_set(p))
            .collect::<Result<_>>()?;
        let rules: Vec<String> = case.options.iter().map(|s| s.to_string()).collect();
        let mut jobs = Vec::new();
        for system in [case.file, case.built_in] {
            // Set-up: a fresh job, its exact solution and its compiled tables, before any trial.
            let started = Instant::now();
            let job = morale_lab::system::build(system, case.scenario, &inputs, &rules)?;
            job.run(&options(1, threads, true), &Control::new())?;
            job.tally(&options(1, threads, false), 0..0, &Control::new())?;
            let setup = started.elapsed().as_secs_f64();
            // The calibration's runs are its warm-up, not counted.
            let (trials, _) = calibrate(seconds, |t| {
                rate(job.as_ref(), t, threads, Sampler::Table, &mut None)
            })?;
            jobs.push((job, setup, trials, Vec::new()));
        }
        let n_threads = bench.machine.threads.max(1);
        let mut file_runs = Vec::new();
        for _ in 0..REPEATS {
            for (i, (job, _, trials, rates)) in jobs.iter_mut().enumerate() {
                let m = measured(n_threads, || {
                    rate(job.as_ref(), *trials, threads, Sampler::Table, &mut None)
                })?;
                rates.push(m.value);
                if i == 0 {
                    file_runs.push(m);
                }
            }
        }
        let file = Spread::of(std::mem::take(&mut jobs[0].3), "trials/s");
        let built = Spread::of(std::mem::take(&mut jobs[1].3), "trials/s");
        bench.mechanic.push(MechanicRow {
            case: case.name.to_string(),
            setup_ms_file: jobs[0].1 * 1e3,
            setup_ms_built_in: jobs[1].1 * 1e3,
            ratio: file.median / built.median,
            per_second_file: file,
            per_second_built_in: built,
            cpu_file: cpu_of(&file_runs),
        });
    }
    Ok(())
}
