//! Runs larger than one machine: `run --shard K/N` runs the K-th of N disjoint parts of every
//! run's chunk plan and keeps the raw integer tallies; [`merge`] adds the parts of all N shards
//! and makes the same result as one run on one machine (tallies are merged by addition, chunk
//! generators depend only on the seed, the run and the chunk).
//!
//! A shard records the experiment file's text, the tool version, the seed, the trials and the
//! sampler, so a merge of parts from different experiments, seeds or versions, or with a missing
//! or duplicated shard, is refused.

use serde::{Deserialize, Serialize};

use super::{Experiment, ExperimentResult, Run};
use crate::engine::Control;
use crate::error::{Error, Result};
use crate::scenario::chain::Sampler;

/// The `format` field of a shard file.
pub const FORMAT: &str = "morale-lab shard 1";

/// One shard's raw tallies, with what is needed to check and merge it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shard {
    /// Always [`FORMAT`].
    pub format: String,
    /// The tool version that made it.
    pub version: String,
    /// The experiment file's path, as given.
    pub path: String,
    /// The experiment file's text.
    pub source: String,
    /// The rule-set and mechanic files its variants name (`rules_file`, `system = "x.rhai"`),
    /// with their text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rule_files: Vec<(String, String)>,
    /// Its seed.
    pub seed: u64,
    /// Trials per run.
    pub trials: u64,
    /// The sampler (`table` or `dice`).
    pub sampler: String,
    /// Which shard (1-based).
    pub shard: u64,
    /// Of how many.
    pub of: u64,
    /// Threads used (recorded; results do not depend on it).
    pub threads: usize,
    /// The raw tally of every run, point-major.
    pub tallies: Vec<Vec<u64>>,
    /// The seconds each run's part took (summed over the shards in a merge's `timing.json`).
    #[serde(default)]
    pub elapsed_s: Vec<f64>,
}

/// SHA-256 of `text`, in hex (for messages naming a file's version).
fn digest(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The chunks of a plan of `chunks` chunks that shard `k` (1-based) of `n` runs: contiguous,
/// disjoint, covering every chunk once.
pub fn chunk_range(chunks: u64, k: u64, n: u64) -> std::ops::Range<u64> {
    let at = |i: u64| (u128::from(chunks) * u128::from(i) / u128::from(n)) as u64;
    at(k - 1)..at(k)
}

/// Parse `K/N` (1 ≤ K ≤ N ≤ 100,000).
///
/// # Errors
/// [`Error::Invalid`] naming `--shard`.
pub fn parse_shard(text: &str) -> Result<(u64, u64)> {
    let bad = || Error::Invalid {
        what: "--shard".into(),
        value: text.into(),
        allowed: "K/N with 1 ≤ K ≤ N ≤ 100000, e.g. 3/8 for the third of eight parts".into(),
    };
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: u64 = k.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || k > n || n > 100_000 {
        return Err(bad());
    }
    Ok((k, n))
}

impl Experiment {
    /// Run shard `k` (1-based) of `n` of every run; `path` and `source` are the experiment
    /// file's, recorded so that the merge can rebuild the experiment.
    ///
    /// # Errors
    /// [`Error::Cancelled`] when `control` is cancelled.
    pub fn run_shard(
        &self,
        path: &str,
        source: &str,
        (k, n): (u64, u64),
        threads: Option<usize>,
        sampler: Sampler,
        control: &Control,
    ) -> Result<Shard> {
        let mut tallies = Vec::new();
        let mut elapsed_s = Vec::new();
        for planned in self.plan(threads, sampler)? {
            let range = chunk_range(planned.options.spec.chunks(), k, n);
            let started = std::time::Instant::now();
            tallies.push(planned.job.tally(&planned.options, range, control)?);
            elapsed_s.push(started.elapsed().as_secs_f64());
        }
        Ok(Shard {
            format: FORMAT.into(),
            version: crate::VERSION.into(),
            path: path.into(),
            source: source.into(),
            rule_files: self.rule_files.clone(),
            seed: self.seed,
            trials: self.trials,
            sampler: sampler.name().into(),
            shard: k,
            of: n,
            threads: threads.unwrap_or_else(rayon::current_num_threads),
            tallies,
            elapsed_s,
        })
    }
}

/// Add the tallies of all N shards of one experiment and make its result, the same as one run
/// on one machine. `names[i]` names `parts[i]` in messages.
///
/// # Errors
/// [`Error::Conflict`] for parts of different experiments, seeds, trials, samplers or versions,
/// a missing or duplicated shard, or tallies of the wrong shape or count;
/// [`Error::Cancelled`] when `control` is cancelled (checked between runs and in every exact
/// solve).
pub fn merge(parts: &[Shard], names: &[String], control: &Control) -> Result<ExperimentResult> {
    merge_with(parts, names, control, &|_| {})
}

/// [`merge`], telling `progress` how many runs are merged so far (each works out its exact
/// solution again).
///
/// # Errors
/// As [`merge`].
pub fn merge_with(
    parts: &[Shard],
    names: &[String],
    control: &Control,
    progress: &dyn Fn(usize),
) -> Result<ExperimentResult> {
    let Some(first) = parts.first() else {
        return Err(Error::Conflict(
            "merge needs the shard files of one experiment".into(),
        ));
    };
    let given = Given { parts, names };
    given.of_one_run(first)?;
    let n = first.of;
    given.every_shard_once(n)?;
    let (exp, sampler) = experiment_of(first)?;
    let plan = exp.plan(None, sampler)?;
    let mut runs = Vec::new();
    for (r, planned) in plan.into_iter().enumerate() {
        if control.is_cancelled() {
            return Err(Error::Cancelled);
        }
        let sum = given.summed(r, &planned, n, sampler)?;
        let report = planned.job.report_tally(&sum, &planned.options, control)?;
        runs.push(Run {
            point: planned.point,
            variant: planned.variant,
            report,
        });
        progress(runs.len());
    }
    let mut result = exp.result(Some(first.threads), runs);
    as_one_run(&mut result, parts, first.threads);
    result.timing_parts = Some(n);
    result.sensitivity = exp.sensitivities(None, sampler, control)?;
    result.balance = exp.balances(None, sampler, control)?;
    result.assumptions = exp.assumptions(&result.runs, None, sampler, control)?;
    result.play = exp.plays(control)?;
    Ok(result)
}

/// The shards given to a merge, with the names that name them in messages.
struct Given<'a> {
    parts: &'a [Shard],
    names: &'a [String],
}

impl Given<'_> {
    /// The name of part `i` in messages.
    fn name(&self, i: usize) -> String {
        self.names
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("part {}", i + 1))
    }

    /// Every part a shard file of the same run as `first` (experiment, files, seed, trials,
    /// sampler, split, version), made by this version.
    ///
    /// # Errors
    /// [`Error::Conflict`] naming the first part that differs, and how.
    fn of_one_run(&self, first: &Shard) -> Result<()> {
        let conflict = |m: String| Err(Error::Conflict(m));
        for (i, p) in self.parts.iter().enumerate() {
            if p.format != FORMAT {
                return conflict(format!("{} is not a morale-lab shard file", self.name(i)));
            }
            let differs = if p.version != first.version {
                Some(format!("version {} against {}", p.version, first.version))
            } else if p.source != first.source || p.path != first.path {
                Some(format!(
                    "experiment {} against {} (or its text differs)",
                    p.path, first.path
                ))
            } else if p.rule_files != first.rule_files {
                let differ: Vec<String> = p
                    .rule_files
                    .iter()
                    .filter(|f| !first.rule_files.contains(f))
                    .map(|(f, text)| format!("{f} (sha256 {}…)", &digest(text)[..12]))
                    .collect();
                Some(format!(
                    "the files its variants name differ: {}",
                    if differ.is_empty() {
                        "some are missing".to_string()
                    } else {
                        differ.join(", ")
                    }
                ))
            } else if p.seed != first.seed {
                Some(format!("seed {} against {}", p.seed, first.seed))
            } else if p.trials != first.trials {
                Some(format!("trials {} against {}", p.trials, first.trials))
            } else if p.sampler != first.sampler {
                Some(format!("sampler {} against {}", p.sampler, first.sampler))
            } else if p.of != first.of {
                Some(format!("a split into {} parts against {}", p.of, first.of))
            } else {
                None
            };
            if let Some(d) = differs {
                return conflict(format!(
                    "{} and {} are not parts of the same run: {d}",
                    self.name(i),
                    self.name(0)
                ));
            }
        }
        if first.version != crate::VERSION {
            return conflict(format!(
                "the shards were made by morale-lab {} and this is {}: merge with the version that made them",
                first.version,
                crate::VERSION
            ));
        }
        Ok(())
    }

    /// Each of the `n` shards given once: none out of range, twice or missing.
    ///
    /// # Errors
    /// [`Error::Conflict`] naming the shards given twice or missing, and how to run the missing.
    fn every_shard_once(&self, n: u64) -> Result<()> {
        let conflict = |m: String| Err(Error::Conflict(m));
        let mut seen = vec![None; n as usize];
        let mut twice = Vec::new();
        for (i, p) in self.parts.iter().enumerate() {
            if p.shard == 0 || p.shard > n {
                return conflict(format!("{} says shard {} of {n}", self.name(i), p.shard));
            }
            if let Some(j) = seen[(p.shard - 1) as usize].replace(i) {
                twice.push(format!(
                    "{}/{n} ({} and {})",
                    p.shard,
                    self.name(j),
                    self.name(i)
                ));
            }
        }
        if !twice.is_empty() {
            return conflict(format!(
                "shard{} given twice: {}",
                if twice.len() > 1 { "s" } else { "" },
                twice.join(", ")
            ));
        }
        let missing: Vec<String> = (1..=n)
            .filter(|k| seen[(*k - 1) as usize].is_none())
            .map(|k| format!("{k}/{n}"))
            .collect();
        if !missing.is_empty() {
            let ks: Vec<String> = (1..=n)
                .filter(|k| seen[(*k - 1) as usize].is_none())
                .map(|k| k.to_string())
                .collect();
            let again = if ks.len() == 1 {
                format!(
                    "run it again as the others were, with `--shard {}/{n}`",
                    ks[0]
                )
            } else {
                format!(
                    "run them again as the others were, with `--shard K/{n}` for K = {}",
                    ks.join(", ")
                )
            };
            return conflict(format!(
                "shard{} {} missing: merge needs all {n}; {again} (a Slurm array counting from 1: `sbatch --array={}`)",
                if missing.len() > 1 { "s" } else { "" },
                missing.join(", ") + if missing.len() > 1 { " are" } else { " is" },
                ks.join(",")
            ));
        }
        Ok(())
    }

    /// Run `r`'s tallies of every part (of `n`), added.
    ///
    /// # Errors
    /// [`Error::Conflict`] for a part with no tally for the run, a tally of the wrong shape or
    /// count, or counts that overflow when added.
    fn summed(
        &self,
        r: usize,
        planned: &super::Planned,
        n: u64,
        sampler: Sampler,
    ) -> Result<Vec<u64>> {
        let conflict = |m: String| Err(Error::Conflict(m));
        let mut sum: Option<Vec<u64>> = None;
        for (i, p) in self.parts.iter().enumerate() {
            let Some(t) = p.tallies.get(r) else {
                return conflict(format!("{} has no tally for run {}", self.name(i), r + 1));
            };
            // Each part must count exactly the trials of its own chunks, so a damaged or
            // edited file is named, not only noticed in the sum.
            let spec = &planned.options.spec;
            let ran = spec.range_trials(chunk_range(spec.chunks(), p.shard, n));
            let counted = planned
                .job
                .tally_trials(t, sampler)
                .map_err(|e| Error::Conflict(format!("{}: run {}: {e}", self.name(i), r + 1)))?;
            if counted != ran {
                return conflict(format!(
                    "{}: run {} counts {counted} trials where shard {}/{n} ran {ran}: a damaged or edited shard file",
                    self.name(i),
                    r + 1,
                    p.shard
                ));
            }
            // Every part's tally has the scenario's shape (checked just above), so they add.
            match &mut sum {
                None => sum = Some(t.clone()),
                Some(s) => {
                    if !crate::engine::try_add_into(s, t) {
                        return conflict(format!(
                            "{}: run {} has counts that overflow 64 bits when added: a damaged or edited shard file",
                            self.name(i),
                            r + 1
                        ));
                    }
                }
            }
        }
        Ok(sum.unwrap_or_default())
    }
}

/// The experiment the shards ran, and their sampler. The shards may have run other trials or
/// another seed than the file's (`run --trials --seed`): they are recorded in the shards.
///
/// # Errors
/// [`Error::Conflict`] for a file the shards do not hold or an unknown sampler; the
/// experiment file's errors.
fn experiment_of(first: &Shard) -> Result<(Experiment, Sampler)> {
    let exp = Experiment::parse_with(&first.path, &first.source, &mut |p| {
        first
            .rule_files
            .iter()
            .find(|(f, _)| f == p)
            .map(|(_, text)| text.clone())
            .ok_or_else(|| Error::Conflict(format!("the shards do not hold the file {p}")))
    })?
    .with_overrides(Some(first.trials), Some(first.seed));
    let sampler = Sampler::parse(&first.sampler).ok_or_else(|| {
        Error::Conflict(format!("unknown sampler {} in the shards", first.sampler))
    })?;
    Ok((exp, sampler))
}

/// The merged run stands for one run of all the trials; its time is the parts' summed.
fn as_one_run(result: &mut ExperimentResult, parts: &[Shard], threads: usize) {
    for (r, run) in result.runs.iter_mut().enumerate() {
        run.report.threads = threads;
        let spent: f64 = parts.iter().filter_map(|p| p.elapsed_s.get(r)).sum();
        run.report.elapsed_s = spent;
        run.report.trials_per_s = if spent > 0.0 {
            run.report.trials as f64 / spent
        } else {
            0.0
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_chunk_once() {
        for chunks in [0u64, 1, 7, 100, 1 << 20] {
            for n in [1u64, 2, 3, 8, 13] {
                let mut next = 0;
                for k in 1..=n {
                    let r = chunk_range(chunks, k, n);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, chunks);
            }
        }
    }

    /// The trials of a shard's chunks add up, over the shards, to the run's trials (the last
    /// chunk may be short).
    #[test]
    fn shards_count_every_trial_once() {
        use crate::engine::{CHUNK, RunSpec};
        for trials in [
            1u64,
            CHUNK - 1,
            CHUNK,
            CHUNK + 1,
            3 * CHUNK + 17,
            100 * CHUNK,
        ] {
            let spec = RunSpec {
                trials,
                seed: 1,
                stream: 0,
                threads: None,
            };
            for n in [1u64, 2, 3, 7] {
                let parts: Vec<u64> = (1..=n)
                    .map(|k| spec.range_trials(chunk_range(spec.chunks(), k, n)))
                    .collect();
                assert_eq!(parts.iter().sum::<u64>(), trials, "{trials} in {n}");
                let whole: u64 = (0..spec.chunks()).map(|i| spec.chunk_trials(i)).sum();
                assert_eq!(whole, trials);
            }
        }
    }

    #[test]
    fn shard_spec_is_checked() {
        assert_eq!(parse_shard("3/8").unwrap(), (3, 8));
        // The edges: N up to 100,000, K from 1 to N.
        assert_eq!(parse_shard("100000/100000").unwrap(), (100_000, 100_000));
        assert_eq!(parse_shard("1/1").unwrap(), (1, 1));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "1/100001", "1/1000001"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
