//! `bench --edges`: every edge of the allowed ranges finishes within its time and memory.

use super::*;

/// `bench --edges`: every edge of the allowed ranges (or those whose system, scenario or label
/// contains a word of `only`) at 20,000 trials with its exact solution, timed, with its peak
/// memory where the system reports it. Prints the slowest, the hungriest and every refusal's
/// count.
///
/// # Errors
/// A setting that took longer than `limit` seconds, or used more than `memory_limit_mib` MiB,
/// or failed other than by refusing its input.
pub fn edges(
    threads: Option<usize>,
    limit: f64,
    memory_limit_mib: i64,
    only: &[String],
) -> Result<String> {
    let all = morale_lab::system::edges::edges();
    let picked: Vec<_> = all
        .iter()
        .filter(|e| {
            only.is_empty()
                || only.iter().any(|w| {
                    e.system.contains(w.as_str())
                        || e.scenario.name().contains(w.as_str())
                        || e.label.contains(w.as_str())
                })
        })
        .collect();
    let control = Control::new();
    let mut times: Vec<(f64, String)> = Vec::new();
    let mut memory: Vec<(u64, String)> = Vec::new();
    let (mut refused, mut failed) = (0, Vec::new());
    let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
    for e in &picked {
        reset_peak_memory();
        let t0 = Instant::now();
        let job = morale_lab::system::build(e.system, e.scenario, &e.inputs(), &[]);
        let outcome = job.map(|j| j.run(&options(20_000, threads, false), &control));
        let secs = t0.elapsed().as_secs_f64();
        if let Some(peak) = peak_memory() {
            if mib(peak) > memory_limit_mib as f64 {
                failed.push(format!(
                    "{} used {:.0} MiB (limit {memory_limit_mib} MiB)",
                    e.command(),
                    mib(peak)
                ));
            }
            memory.push((peak, e.command()));
        }
        match outcome {
            // Refused: when built, or when run (a melee that cannot be relied on to end).
            Err(_) | Ok(Err(_)) => refused += 1,
            Ok(Ok(_)) => times.push((secs, e.command())),
        }
        if secs > limit {
            failed.push(format!(
                "{} took {secs:.1} s (limit {limit} s)",
                e.command()
            ));
        }
    }
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = times.iter().map(|t| t.0).sum();
    let mut out = format!(
        "morale-lab {} bench --edges · {} settings: {} ran in {total:.1} s, {refused} refused (exit 2 on the command line)\n\nslowest (s, at 20,000 trials with the exact solution):\n",
        morale_lab::VERSION,
        picked.len(),
        times.len()
    );
    for (secs, command) in times.iter().take(12) {
        out += &format!("{secs:8.2}  {command}\n");
    }
    memory.sort_by_key(|m| std::cmp::Reverse(m.0));
    match memory.first() {
        None => out += "\npeak memory: not measured (this system does not report it)\n",
        Some(_) => {
            out += &format!(
                "\nlargest peak memory (MiB, resident, the whole process; limit {memory_limit_mib}):\n"
            );
            for (bytes, command) in memory.iter().take(5) {
                out += &format!("{:8.1}  {command}\n", mib(*bytes));
            }
        }
    }
    if !failed.is_empty() {
        return Err(Error::Conflict(format!(
            "{} edge setting(s) failed: {}",
            failed.len(),
            failed.join("; ")
        )));
    }
    Ok(out)
}
