//! The parallel, deterministic trial runner.
//!
//! A run of `trials` trials is cut into chunks of [`CHUNK`] trials (the last may be shorter).
//! Chunk *i* draws from its own [`Dice`] derived from (seed, stream, *i*) — never from the
//! thread that runs it — and adds into an integer tally. Tallies are merged by addition, which
//! is exact and commutative, so a run gives bit-identical results at any thread count. Memory
//! is one tally per worker whatever the number of trials.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;

use crate::dice::Dice;
use crate::error::{Error, Result};

/// Trials per chunk: small enough to balance two cores and to react to Ctrl-C within a few
/// milliseconds, large enough that setting up a chunk's generator costs nothing measurable.
pub const CHUNK: u64 = 1 << 16;

/// Trials run between two looks at the cancel flag: a few milliseconds of the slowest
/// scenario (a 12-unit line battle), a negligible cost for the fastest.
pub const PIECE: u64 = 1 << 12;

/// Something whose trials the engine can run: it owns the layout of an integer tally and adds
/// one trial's results into it.
pub trait Sim: Sync {
    /// The number of counters in this simulation's tally.
    fn tally_len(&self) -> usize;
    /// Run `n` trials with `dice`, adding their results into `tally`. Running `a` then `b`
    /// trials with the same dice must equal running `a + b` (the engine runs a chunk in pieces).
    fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]);
}

/// What to run: how many trials, from which seed and stream, on how many threads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSpec {
    /// Number of trials (at least 1).
    pub trials: u64,
    /// The run's seed.
    pub seed: u64,
    /// A stream number (the variant's index in an experiment; 0 for a single run).
    pub stream: u64,
    /// Worker threads; `None` uses every core.
    pub threads: Option<usize>,
}

impl RunSpec {
    /// The number of chunks in this run's chunk plan.
    pub fn chunks(&self) -> u64 {
        self.trials.div_ceil(CHUNK)
    }

    /// The number of trials in chunk `i` of the plan.
    pub fn chunk_trials(&self, i: u64) -> u64 {
        CHUNK.min(self.trials - i * CHUNK)
    }

    /// The number of trials in the chunks `range` of the plan (a shard's part of the run).
    pub fn range_trials(&self, range: std::ops::Range<u64>) -> u64 {
        let end = range.end.min(self.chunks());
        let start = range.start.min(end);
        (end * CHUNK).min(self.trials) - (start * CHUNK).min(self.trials)
    }
}

/// Shared between a run and whoever watches it: trials done so far, and a flag to stop early.
///
/// The flag is read by every worker every [`PIECE`] trials and the counter written as often;
/// each has a cache line of its own, so the workers' writes to the counter do not keep
/// evicting the flag from every core's cache.
#[derive(Debug, Default)]
pub struct Control {
    done: CacheLine<AtomicU64>,
    cancel: CacheLine<AtomicBool>,
    /// The exact solve's progress: turns done (high 32 bits) of turns (low 32; 0: none).
    exact: CacheLine<AtomicU64>,
    /// Checks after the runs (an experiment's assumptions): settings done (high 32 bits) of
    /// settings (low 32; 0: none).
    checking: CacheLine<AtomicU64>,
    /// A stopped run keeps its largest finished prefix of chunks (see [`run_keeping`]).
    keep_partial: AtomicBool,
}

/// A value alone on its (64-byte) cache line.
#[derive(Debug, Default)]
#[repr(align(64))]
struct CacheLine<T>(T);

impl Control {
    /// A fresh control: nothing done, not cancelled.
    pub fn new() -> Self {
        Control::default()
    }
    /// Trials finished so far (updated every [`PIECE`] trials).
    pub fn done(&self) -> u64 {
        self.done.0.load(Ordering::Relaxed)
    }
    /// The exact solution under way: (turns done, of turns), or `None` when none is running.
    pub fn exact_progress(&self) -> Option<(u32, u32)> {
        let x = self.exact.0.load(Ordering::Relaxed);
        let (done, of) = ((x >> 32) as u32, x as u32);
        (of > 0 && done < of).then_some((done, of))
    }
    /// Record the exact solve's progress (`done == of`: finished).
    pub fn set_exact_progress(&self, done: u32, of: u32) {
        let x = (u64::from(done) << 32) | u64::from(of);
        self.exact.0.store(x, Ordering::Relaxed);
    }
    /// The checks after the runs under way: (settings done, of settings), or `None`.
    pub fn checking(&self) -> Option<(u32, u32)> {
        let x = self.checking.0.load(Ordering::Relaxed);
        let (done, of) = ((x >> 32) as u32, x as u32);
        (of > 0 && done < of).then_some((done, of))
    }
    /// Record the checks' progress (`done == of`: finished).
    pub fn set_checking(&self, done: u32, of: u32) {
        let x = (u64::from(done) << 32) | u64::from(of);
        self.checking.0.store(x, Ordering::Relaxed);
    }
    /// A control whose stopped runs keep what they finished: the largest prefix of whole
    /// chunks, the same trials as a run of that many (see [`run_keeping`]).
    pub fn keeping_partial() -> Self {
        let c = Control::default();
        c.keep_partial.store(true, Ordering::Relaxed);
        c
    }
    /// Whether a stopped run keeps its finished prefix.
    pub fn keeps_partial(&self) -> bool {
        self.keep_partial.load(Ordering::Relaxed)
    }
    /// Ask the run to stop; it returns [`Error::Cancelled`] after the chunks under way.
    pub fn cancel(&self) {
        self.cancel.0.store(true, Ordering::Relaxed);
    }
    /// True once [`Control::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.0.load(Ordering::Relaxed)
    }
}

/// Run the trials of `sim` described by `spec` and return the merged tally.
///
/// # Errors
/// [`Error::Conflict`] for zero trials or a thread pool that cannot be built;
/// [`Error::Cancelled`] when `control` was cancelled before the run finished.
pub fn run<S: Sim>(sim: &S, spec: &RunSpec, control: &Control) -> Result<Vec<u64>> {
    if spec.trials == 0 {
        return Err(Error::Invalid {
            what: "--trials".into(),
            value: "0".into(),
            allowed: "a whole number of at least 1".into(),
        });
    }
    on_threads(spec.threads, || {
        run_chunks(sim, spec, 0..spec.chunks(), control)
    })
}

/// Run the chunks `range` of `spec`'s chunk plan on `spec.threads` workers (a shard of a run).
///
/// # Errors
/// [`Error::Cancelled`] when `control` is cancelled.
pub fn run_range<S: Sim>(
    sim: &S,
    spec: &RunSpec,
    range: std::ops::Range<u64>,
    control: &Control,
) -> Result<Vec<u64>> {
    on_threads(spec.threads, || run_chunks(sim, spec, range, control))
}

/// Run `work` on a pool of `threads` workers (`None`: the global pool of every core).
fn on_threads<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> Result<T> + Send,
) -> Result<T> {
    match threads {
        None => work(),
        Some(n) => pool(n)?.install(work),
    }
}

/// The process's pool of `n` workers, started on first use and kept: a run, each batch of a
/// `--precision` run and each benchmark iteration then find their workers already running
/// instead of paying to start and stop threads (a fixed cost that weighs on short runs and
/// so on the parallel speed-up).
fn pool(n: usize) -> Result<Arc<rayon::ThreadPool>> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    // A panic while the lock was held cannot leave the list half-changed (one push), so a
    // poisoned lock is still good.
    let mut pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, p)) = pools.iter().find(|(k, _)| *k == n) {
        return Ok(Arc::clone(p));
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(move |i| format!("morale-lab-{n}-{i}"))
            .build()
            .map_err(|e| Error::Conflict(format!("cannot start {n} threads: {e}")))?,
    );
    pools.push((n, Arc::clone(&p)));
    Ok(p)
}

/// Run batches of whole chunks until `enough` says the tally so far is enough, doubling the
/// trials each time (from 16 chunks), or until `spec.trials` (the cap) is reached. The chunks are
/// those of a plain run of the same total, so the result equals `run` with the trials used; it
/// depends on the seed only. Returns the tally and the trials used.
///
/// # Errors
/// As [`run`].
pub fn run_until<S: Sim>(
    sim: &S,
    spec: &RunSpec,
    control: &Control,
    mut enough: impl FnMut(&[u64], u64) -> bool,
) -> Result<(Vec<u64>, u64)> {
    if spec.trials == 0 {
        return run(sim, spec, control).map(|t| (t, 0));
    }
    let mut tally = vec![0u64; sim.tally_len()];
    let (mut done_chunks, mut used) = (0, 0);
    // The last batch holds every trial: the loop ends there at the latest.
    for trials in batches(spec.trials) {
        let batch = RunSpec {
            trials,
            ..spec.clone()
        };
        let chunks = batch.chunks();
        let part = on_threads(spec.threads, || {
            run_chunks(sim, &batch, done_chunks..chunks, control)
        })?;
        add_into(&mut tally, &part);
        (done_chunks, used) = (chunks, trials);
        if trials >= spec.trials || enough(&tally, trials) {
            break;
        }
    }
    Ok((tally, used))
}

/// The trials after each batch of a run of `trials` in batches: 16 whole chunks, then doubling,
/// the last holding every trial. Each but the last is a whole number of chunks, so the chunks of
/// a batch are a prefix of the chunk plan of the whole run, and of every later batch.
pub fn batches(trials: u64) -> impl Iterator<Item = u64> {
    let first = (16 * CHUNK).min(trials);
    std::iter::successors((first > 0).then_some(first), move |&t| {
        (t < trials).then(|| t.saturating_mul(2).min(trials))
    })
}

/// Run all of `spec`'s trials in batches of whole chunks (16 chunks, then doubling, as
/// [`run_until`]), so that a run stopped part way keeps the batches it finished: a prefix of the
/// chunk plan, the same tally as [`run`] with that many trials (and the same seed). The whole
/// run's tally equals [`run`]'s. Returns the tally and the trials it holds.
///
/// # Errors
/// As [`run`]; [`Error::Cancelled`] when stopped before the first batch finished.
pub fn run_keeping<S: Sim>(sim: &S, spec: &RunSpec, control: &Control) -> Result<(Vec<u64>, u64)> {
    let mut kept: Option<(Vec<u64>, u64)> = None;
    let got = run_until(sim, spec, control, |tally, trials| {
        kept = Some((tally.to_vec(), trials));
        false
    });
    match (got, kept) {
        (Err(Error::Cancelled), Some(prefix)) => Ok(prefix),
        (got, _) => got,
    }
}

/// Run the chunks `range` of `spec`'s chunk plan on the current rayon pool and merge their
/// tallies. The building block of [`run`], of precision-driven batches and of shards.
pub fn run_chunks<S: Sim>(
    sim: &S,
    spec: &RunSpec,
    range: std::ops::Range<u64>,
    control: &Control,
) -> Result<Vec<u64>> {
    let len = sim.tally_len();
    range
        .into_par_iter()
        .try_fold(
            || vec![0u64; len],
            |mut tally, i| {
                let n = spec.chunk_trials(i);
                let mut dice = Dice::for_chunk(spec.seed, spec.stream, i);
                // A chunk runs in pieces with the same dice (the same trials as in one go), so
                // that Ctrl-C is heard and progress moves every few milliseconds even when a
                // trial is a whole battle.
                let mut left = n;
                while left > 0 {
                    if control.is_cancelled() {
                        return Err(Error::Cancelled);
                    }
                    let piece = left.min(PIECE);
                    sim.run_chunk(&mut dice, piece, &mut tally);
                    control.done.0.fetch_add(piece, Ordering::Relaxed);
                    left -= piece;
                }
                Ok(tally)
            },
        )
        .try_reduce(
            || vec![0u64; len],
            |mut a, b| {
                add_into(&mut a, &b);
                Ok(a)
            },
        )
}

/// Add tally `b` into `a`, counter by counter. Within a run no counter can overflow: a count
/// is at most the trials (at most 10^15), and a series' sum of squares at most the trials times
/// the square of its largest value (a few thousand), far below 2^64.
pub fn add_into(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += *y;
    }
}

/// [`add_into`] for tallies from outside (shard files): `false`, leaving `a` partly added,
/// when a counter would overflow 64 bits.
pub fn try_add_into(a: &mut [u64], b: &[u64]) -> bool {
    for (x, y) in a.iter_mut().zip(b) {
        match x.checked_add(*y) {
            Some(v) => *x = v,
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Roll;

    /// Counts each face of one die per trial.
    struct Faces;
    impl Sim for Faces {
        fn tally_len(&self) -> usize {
            6
        }
        fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]) {
            for _ in 0..n {
                tally[usize::from(dice.d6() - 1)] += 1;
            }
        }
    }

    /// [`Faces`], stopping its own run once it has begun more than `after` trials.
    struct StopsAfter<'a> {
        control: &'a Control,
        begun: AtomicU64,
        after: u64,
    }
    impl Sim for StopsAfter<'_> {
        fn tally_len(&self) -> usize {
            6
        }
        fn run_chunk(&self, dice: &mut Dice, n: u64, tally: &mut [u64]) {
            if self.begun.fetch_add(n, Ordering::SeqCst) + n > self.after {
                self.control.cancel();
            }
            Faces.run_chunk(dice, n, tally);
        }
    }

    /// A run stopped in its second batch keeps the first: the tally of a run of that many
    /// trials with the same seed, to the count; unstopped, it is the plain run's.
    #[test]
    fn a_stopped_run_keeps_its_finished_prefix() {
        let spec = RunSpec {
            trials: 100 * CHUNK + 7,
            seed: 9,
            stream: 0,
            threads: Some(2),
        };
        let first = 16 * CHUNK;
        let control = Control::keeping_partial();
        let sim = StopsAfter {
            control: &control,
            begun: AtomicU64::new(0),
            after: first,
        };
        let (tally, trials) = run_keeping(&sim, &spec, &control).unwrap();
        assert_eq!(trials, first);
        let prefix = RunSpec {
            trials: first,
            ..spec.clone()
        };
        assert_eq!(tally, run(&Faces, &prefix, &Control::new()).unwrap());
        let whole = run_keeping(&Faces, &spec, &Control::keeping_partial()).unwrap();
        assert_eq!(
            whole,
            (run(&Faces, &spec, &Control::new()).unwrap(), spec.trials)
        );
    }

    #[test]
    fn chunk_plan_covers_every_trial_once() {
        let spec = RunSpec {
            trials: 3 * CHUNK + 5,
            seed: 1,
            stream: 0,
            threads: Some(1),
        };
        assert_eq!(spec.chunks(), 4);
        let total: u64 = (0..spec.chunks()).map(|i| spec.chunk_trials(i)).sum();
        assert_eq!(total, spec.trials);
    }

    #[test]
    fn identical_tallies_at_any_thread_count() {
        let base = RunSpec {
            trials: 10 * CHUNK + 123,
            seed: 42,
            stream: 0,
            threads: Some(1),
        };
        let one = run(&Faces, &base, &Control::new()).unwrap();
        for t in [2, 3, 8] {
            let spec = RunSpec {
                threads: Some(t),
                ..base.clone()
            };
            assert_eq!(run(&Faces, &spec, &Control::new()).unwrap(), one);
        }
        assert_eq!(one.iter().sum::<u64>(), base.trials);
    }

    #[test]
    fn a_thread_count_keeps_its_pool() {
        let a = pool(3).unwrap();
        let b = pool(3).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(a.current_num_threads(), 3);
        assert!(!Arc::ptr_eq(&a, &pool(2).unwrap()));
    }

    #[test]
    fn zero_trials_and_cancel_are_errors() {
        let spec = RunSpec {
            trials: 0,
            seed: 1,
            stream: 0,
            threads: None,
        };
        assert!(matches!(
            run(&Faces, &spec, &Control::new()),
            Err(Error::Invalid { .. })
        ));
        let c = Control::new();
        c.cancel();
        let spec = RunSpec {
            trials: 100,
            ..spec
        };
        assert_eq!(run(&Faces, &spec, &c), Err(Error::Cancelled));
        // Keeping its prefix, a run cancelled before its first batch has nothing to keep.
        let k = Control::keeping_partial();
        k.cancel();
        assert_eq!(run_keeping(&Faces, &spec, &k), Err(Error::Cancelled));
    }
}
