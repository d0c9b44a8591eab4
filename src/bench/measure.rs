//! Timing a run: its wall and CPU time, the time its threads waited for a core, the trials that
//! fill a run's share of the time, and the process's peak memory.

use super::*;

/// One timed run: its figure (a rate, or milliseconds), how the threads used the processor
/// meanwhile, and its own times.
#[derive(Debug, Clone, Copy)]
pub(super) struct Measured {
    pub(super) value: f64,
    pub(super) cpu: Option<CpuUse>,
    pub(super) run: Run,
}

/// Time `work` on `threads` threads: its figure and the processor's use meanwhile.
pub(super) fn measured(threads: usize, work: impl FnOnce() -> Result<f64>) -> Result<Measured> {
    let before = provenance::cpu_times();
    let started = Instant::now();
    let value = work()?;
    let wall_s = started.elapsed().as_secs_f64().max(1e-9);
    let used = before
        .zip(provenance::cpu_times())
        .map(|((on0, w0), (on1, w1))| (on1 - on0, w1 - w0));
    let cpu = used.map(|(on, waited)| CpuUse {
        busy: on / (wall_s * threads as f64),
        // Of the time the threads were ready to run, the share they waited for a core: the
        // same as a share of wall × threads while every thread is always ready, and never
        // above 100% when the process has more threads than it was asked for.
        waited: if on + waited > 0.0 {
            waited / (on + waited)
        } else {
            0.0
        },
    });
    Ok(Measured {
        value,
        cpu,
        run: Run {
            wall_s,
            cpu_s: used.map(|u| u.0),
            waited_s: used.map(|u| u.1),
        },
    })
}

/// The medians of the processor's use over runs.
pub(super) fn cpu_of(runs: &[Measured]) -> Option<CpuUse> {
    let uses: Vec<CpuUse> = runs.iter().filter_map(|m| m.cpu).collect();
    (uses.len() == runs.len() && !uses.is_empty()).then(|| CpuUse {
        busy: Spread::of(uses.iter().map(|u| u.busy).collect(), "share").median,
        waited: Spread::of(uses.iter().map(|u| u.waited).collect(), "share").median,
    })
}

/// The trials that make one run of `run_once` last at least `seconds`, doubling from 2^16, and
/// how many runs that took (warm-up: none of them is counted).
pub(super) fn calibrate<M>(
    seconds: f64,
    mut run_once: impl FnMut(u64) -> Result<M>,
) -> Result<(u64, usize)> {
    let mut trials = 1u64 << 16;
    let mut made = 0;
    loop {
        let started = Instant::now();
        run_once(trials)?;
        made += 1;
        if started.elapsed().as_secs_f64() >= seconds || trials >= 1 << 40 {
            return Ok((trials, made));
        }
        trials *= 2;
    }
}

/// `trials` doubled until a run of them, at `wall` seconds for `trials`, lasts `seconds`.
pub(super) fn rescaled(trials: u64, wall: f64, seconds: f64) -> u64 {
    let mut t = trials;
    while (t as f64 / trials as f64) * wall < seconds && t < 1 << 40 {
        t *= 2;
    }
    t
}

/// The Monte Carlo rate of `job` at `trials` with `sampler` (trials per second, from its
/// report), keeping the report in `last`.
pub(super) fn rate(
    job: &dyn morale_lab::Job,
    trials: u64,
    threads: Option<usize>,
    sampler: Sampler,
    last: &mut Option<Report>,
) -> Result<f64> {
    let opts = options(trials, threads, false).sampler(sampler);
    let report = job.run(&opts, &Control::new())?;
    let rate = report.trials_per_s;
    *last = Some(report);
    Ok(rate)
}

/// A reference loop's rate at `trials`, its tally checked against the rules (against `tool`,
/// the case's last report, where the loop is held against the tool's Monte Carlo).
pub(super) fn reference_rate(
    r: &Reference,
    trials: u64,
    threads: Option<usize>,
    tool: Option<&Report>,
) -> Result<f64> {
    let spec = RunSpec {
        trials,
        seed: 1,
        stream: 0,
        threads,
    };
    Ok(reference_measured(r, &spec, 1, tool)?.value)
}

/// A timed run of a reference loop on `threads` threads: its rate over the loop alone (the
/// check of its outcomes after it is not timed), with its wall and processor time.
pub(super) fn reference_measured(
    r: &Reference,
    spec: &RunSpec,
    threads: usize,
    tool: Option<&Report>,
) -> Result<Measured> {
    let mut tally = None;
    let mut m = measured(threads, || {
        tally = Some((r.run)(spec, &Control::new())?);
        Ok(0.0)
    })?;
    m.value = spec.trials as f64 / m.run.wall_s;
    if let Some(t) = &tally {
        r.check(t, tool)?;
    }
    Ok(m)
}

/// The peak resident memory of this process since the last [`reset_peak_memory`], in bytes,
/// where the system reports it (Linux: `VmHWM` in `/proc/self/status`).
pub(super) fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Start a new peak for [`peak_memory`] (Linux: writing 5 to `/proc/self/clear_refs` resets
/// `VmHWM` to the memory resident now). Returns false where that cannot be done, and then the
/// peak is the process's since it started: still an upper bound for each setting.
pub(super) fn reset_peak_memory() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}
