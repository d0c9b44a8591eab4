//! Exact solutions: every outcome of a turn enumerated with its probability, and the resulting
//! Markov chain propagated turn by turn.
//!
//! [`enumerate`] runs a piece of rule code once per distinct sequence of chance outcomes, with an
//! [`Oracle`] in place of dice that follows each branch (six faces of a die, each outcome of a
//! weighted table) and multiplies its probabilities. [`solve_chain`] uses it to build each state's
//! one-turn transition distribution (once per state) and propagates the distribution over
//! (state, turns-empty-so-far) for the chain's turns, filling the same [`Layout`] as a Monte Carlo
//! tally with probabilities. States are kept in ordered maps so results are bit-reproducible.

use std::collections::BTreeMap;

use crate::chain::{Chain, FastMap, Layout};
use crate::dice::{Hits, Roll, Weights};
use crate::error::{Error, Result};

/// A stand-in for dice that walks one branch of the tree of chance outcomes.
#[derive(Debug)]
pub struct Oracle<'a> {
    script: &'a [u32],
    taken: Vec<(u32, u32)>,
    prob: f64,
    /// The branch's probability as an exact fraction `num / den` (`None` once it overflows).
    ratio: Option<(u128, u128)>,
}

impl Oracle<'_> {
    #[inline]
    fn choose(&mut self, arity: u32) -> u32 {
        let pos = self.taken.len();
        let c = self.script.get(pos).copied().unwrap_or(0);
        self.taken.push((c, arity));
        c
    }
}

impl Roll for Oracle<'_> {
    fn d6(&mut self) -> u8 {
        let c = self.choose(6);
        self.prob /= 6.0;
        self.ratio = self.ratio.and_then(|(n, d)| Some((n, d.checked_mul(6)?)));
        c as u8 + 1
    }
    /// One branch per total (not per combination of the tables' outcomes).
    fn hits(&mut self, hits: &Hits) -> u32 {
        match hits.parts() {
            [] => 0,
            [one] => self.pick(one) as u32,
            _ => {
                let c = self.choose(hits.pmf().len() as u32) as usize;
                self.prob *= hits.pmf()[c];
                self.ratio = self.ratio.and_then(|(n, d)| {
                    let (w, den) = hits.exact(c)?;
                    Some((n.checked_mul(w)?, d.checked_mul(den)?))
                });
                c as u32
            }
        }
    }
    fn follows_branches(&self) -> bool {
        true
    }
    /// One branch per outcome; its chance has no exact fraction here.
    fn branch(&mut self, pmf: &[f64]) -> usize {
        let c = self.choose(pmf.len() as u32) as usize;
        self.prob *= pmf[c];
        self.ratio = None;
        c
    }
    fn pick(&mut self, table: &Weights) -> usize {
        let c = self.choose(table.len() as u32) as usize;
        self.prob *= table.p(c);
        self.ratio = self.ratio.and_then(|(n, d)| {
            Some((
                n.checked_mul(u128::from(table.weight(c)))?,
                d.checked_mul(u128::from(table.total()))?,
            ))
        });
        c
    }
}

/// Call `f` once for every distinct branch of chance it can take, passing each result with its
/// probability to `sink`. `f` must be deterministic given its chance outcomes. Branches of
/// probability zero are skipped.
pub fn enumerate<T>(f: impl FnMut(&mut Oracle) -> T, mut sink: impl FnMut(T, f64)) {
    enumerate_exact(f, |out, p, _| sink(out, p));
}

/// [`enumerate`], also passing each branch's probability as an exact fraction
/// `(numerator, denominator)` where it fits 128 bits.
pub fn enumerate_exact<T>(
    f: impl FnMut(&mut Oracle) -> T,
    sink: impl FnMut(T, f64, Option<(u128, u128)>),
) {
    enumerate_within(f, sink, &Watch::none()).expect("an unbounded watch never stops");
}

/// The most branches of chance one state's turn may take in a bounded enumeration (a
/// [`Watch`] of a run): ten `d6()` in a row are 6^10, about 60 million, where one
/// `roll(10, 6)` is 51 branches, one per total.
pub const MAX_TURN_BRANCHES: u64 = 1 << 20;

/// A turn is refused before its branches are all taken once this many have been taken and the
/// share of the tree they cover projects more than [`REFUSE_FACTOR`] times
/// [`MAX_TURN_BRANCHES`] in all (a projection from a few thousand branches can overstate a
/// lopsided tree a few times over, never by this much for a tree under the bound).
pub const PROJECT_AFTER: u64 = 4096;

/// See [`PROJECT_AFTER`].
pub const REFUSE_FACTOR: f64 = 16.0;

/// The most branches taken between two looks at the clock, where branches are fast (the
/// cancel flag is read after every one; slow branches read the clock about every
/// millisecond).
const CLOCK_EVERY: u64 = 64;

/// What stops a long enumeration or solve while it runs: the user's cancel (read after every
/// branch and every state), a time budget, and bounds on one turn's branches and on the moves
/// a solve keeps. [`Watch::none`] stops nothing (odds sheets and tests of small, known trees).
pub struct Watch<'a> {
    /// The scenario, for the messages.
    pub scenario: &'a str,
    /// True once the user stopped the run.
    pub cancelled: &'a dyn Fn() -> bool,
    /// When the work started, and the seconds it may take (`None`: no limit).
    pub budget: Option<(std::time::Instant, f64)>,
    /// The most branches one turn may take (`u64::MAX`: no bound).
    pub max_branches: u64,
    /// The most moves between states a solve keeps (`usize::MAX`: no bound).
    pub max_moves: usize,
    /// The most branches all the turns enumerated under this watch may take together
    /// (`u64::MAX`: no bound), and the count so far.
    pub max_total: u64,
    /// Branches taken under this watch so far.
    pub taken: std::cell::Cell<u64>,
}

/// The most moves between states (one state's next states, summed over the states reached)
/// an exact solve keeps where a move is small (a rally's: some 40 bytes, so about 700 MB at the
/// bound); fewer where a move is large ([`max_solve_moves`]).
pub const MAX_SOLVE_MOVES: usize = 1 << 24;

/// The most bytes the moves an exact solve keeps may take, and the live states one turn reaches
/// likewise: each holds a whole state, which for a battle is some hundred fields (over 400
/// bytes), so a count alone let a fight's solve grow to several gigabytes.
pub const MAX_SOLVE_MOVE_BYTES: usize = 1 << 30;

/// The most moves a solve of a chain with states `S` keeps: [`MAX_SOLVE_MOVES`], or as many as
/// fit in [`MAX_SOLVE_MOVE_BYTES`] (for a Rank & File battle about 2.4 million).
pub fn max_solve_moves<S>() -> usize {
    MAX_SOLVE_MOVES.min(MAX_SOLVE_MOVE_BYTES / std::mem::size_of::<Move<S>>())
}

impl Watch<'_> {
    /// A watch that stops nothing.
    pub fn none() -> Watch<'static> {
        Watch {
            scenario: "",
            cancelled: &|| false,
            budget: None,
            max_branches: u64::MAX,
            max_moves: usize::MAX,
            max_total: u64::MAX,
            taken: std::cell::Cell::new(0),
        }
    }

    /// The cancel flag and the time budget, with `projected_s` the seconds the whole work is
    /// expected to take (the time spent when nothing better is known).
    pub(crate) fn check(&self, projected_s: Option<f64>) -> Result<()> {
        if (self.cancelled)() {
            return Err(Error::Cancelled);
        }
        if let Some((started, budget)) = self.budget {
            let spent = started.elapsed().as_secs_f64();
            let projected = projected_s.unwrap_or(spent).max(spent);
            if over_budget(spent, projected, budget) {
                return Err(Error::OverBudget {
                    scenario: self.scenario.to_string(),
                    projected_s: projected,
                    budget_s: budget,
                });
            }
        }
        Ok(())
    }

    /// After `paths` branches of one turn, started at `turn`, covering `covered` of the tree
    /// (each branch weighs the inverse of the product of its choices' counts, so the whole
    /// tree weighs 1): stop for the cancel flag, the budget, or the branch bound.
    /// The clock is read again at branch `next` (set here): every branch while branches are
    /// slow (a script's turn can take a good part of a second), up to every
    /// [`CLOCK_EVERY`] while they are fast.
    fn check_turn(
        &self,
        paths: u64,
        covered: f64,
        turn: std::time::Instant,
        next: &mut u64,
    ) -> Result<()> {
        if (self.cancelled)() {
            return Err(Error::Cancelled);
        }
        if paths < *next {
            return Ok(());
        }
        let per_path = turn.elapsed().as_secs_f64() / paths as f64;
        *next = paths + ((1e-3 / per_path.max(1e-12)) as u64).clamp(1, CLOCK_EVERY);
        let projected = if covered > 0.0 {
            (paths as f64 / covered).max(paths as f64)
        } else {
            f64::INFINITY
        };
        if paths > self.max_branches
            || (paths >= PROJECT_AFTER && projected > REFUSE_FACTOR * self.max_branches as f64)
            || self.taken.get().saturating_add(paths) > self.max_total
        {
            return Err(Error::TooManyBranches {
                scenario: self.scenario.to_string(),
                branches: projected.min(u64::MAX as f64) as u64,
                max: self.max_branches,
            });
        }
        let projected_s = self.budget.map(|(started, _)| {
            let spent = started.elapsed().as_secs_f64();
            let this_turn = turn.elapsed().as_secs_f64();
            spent + this_turn * (projected / paths as f64 - 1.0)
        });
        self.check(projected_s)
    }
}

/// [`enumerate_exact`] under a [`Watch`]: the cancel flag is read after every branch, the clock
/// and the branch bound every few; the first to trip ends the enumeration with its error
/// ([`Error::Cancelled`], [`Error::OverBudget`], [`Error::TooManyBranches`]).
///
/// # Errors
/// As the watch's checks.
pub fn enumerate_within<T>(
    mut f: impl FnMut(&mut Oracle) -> T,
    mut sink: impl FnMut(T, f64, Option<(u128, u128)>),
    watch: &Watch,
) -> Result<()> {
    let turn = std::time::Instant::now();
    let mut next = 1;
    let mut paths: u64 = 0;
    let mut covered = 0.0f64;
    let mut script: Vec<u32> = Vec::new();
    loop {
        let mut oracle = Oracle {
            script: &script,
            taken: Vec::with_capacity(script.len() + 4),
            prob: 1.0,
            ratio: Some((1, 1)),
        };
        let out = f(&mut oracle);
        let Oracle {
            mut taken,
            prob,
            ratio,
            ..
        } = oracle;
        if prob > 0.0 {
            sink(out, prob, ratio);
        }
        paths += 1;
        covered += taken
            .iter()
            .fold(1.0f64, |w, &(_, arity)| w / f64::from(arity));
        watch.check_turn(paths, covered, turn, &mut next)?;
        if !advance(&mut taken, |(c, arity)| (c, *arity)) {
            watch.taken.set(watch.taken.get().saturating_add(paths));
            return Ok(());
        }
        script.clear();
        script.extend(taken.iter().map(|&(c, _)| c));
    }
}

/// The odometer of an enumeration of chance outcomes: advance the last choice in `taken` that
/// has outcomes left, dropping the exhausted ones after it (`choice` gives a choice's value and
/// how many it has). False once every branch has been taken.
pub(crate) fn advance<T>(taken: &mut Vec<T>, choice: impl Fn(&mut T) -> (&mut u32, u32)) -> bool {
    while let Some(last) = taken.last_mut() {
        let (c, arity) = choice(last);
        if *c + 1 < arity {
            *c += 1;
            return true;
        }
        taken.pop();
    }
    false
}

/// The distribution of one turn from state `s`: next states with their probabilities.
#[cfg(test)]
pub fn transitions<C: Chain>(chain: &C, s: C::State) -> Vec<(C::State, f64)> {
    transitions_within(chain, s, &Watch::none()).expect("an unbounded watch never stops")
}

/// [`transitions`] under a [`Watch`].
///
/// # Errors
/// As [`enumerate_within`].
pub fn transitions_within<C: Chain>(
    chain: &C,
    s: C::State,
    watch: &Watch,
) -> Result<Vec<(C::State, f64)>> {
    let mut out: BTreeMap<C::State, f64> = BTreeMap::new();
    enumerate_within(
        |o| chain.step(s, o),
        |next, p, _| *out.entry(next).or_insert(0.0) += p,
        watch,
    )?;
    Ok(out.into_iter().collect())
}

/// Next states with integer weights, and the weights' total.
pub type IntegerTransitions<S> = (Vec<(S, u64)>, u64);

/// The distribution of one turn from state `s` with exact integer weights over a common
/// denominator that fits 64 bits: (next states with weights, total). `None` when the
/// denominator would not fit. The weights are checked to add up to the total exactly.
#[cfg(test)]
pub fn integer_transitions<C: Chain>(
    chain: &C,
    s: C::State,
) -> Option<IntegerTransitions<C::State>> {
    integer_transitions_within(chain, s, &Watch::none()).expect("an unbounded watch never stops")
}

/// [`integer_transitions`] under a [`Watch`].
///
/// # Errors
/// As [`enumerate_within`].
pub fn integer_transitions_within<C: Chain>(
    chain: &C,
    s: C::State,
    watch: &Watch,
) -> Result<Option<IntegerTransitions<C::State>>> {
    let mut paths: Vec<(C::State, u128, u128)> = Vec::new();
    let mut fits = true;
    enumerate_within(
        |o| chain.step(s, o),
        |next, _, ratio| match ratio {
            Some((n, d)) => paths.push((next, n, d)),
            None => fits = false,
        },
        watch,
    )?;
    Ok(integer_weights(paths, fits, chain.halted()))
}

/// One state's turn for a sampler: its next states with exact integer weights over their
/// common denominator where the dice sequences' fractions fit 64 bits (as
/// [`integer_transitions_within`]), else with their chances (a branch with no fraction, as a
/// melee fought to its end within the turn, or a denominator past 64 bits).
pub enum SamplerTransitions<S> {
    /// Exact integer weights and their total.
    Exact(IntegerTransitions<S>),
    /// Chances, in the states' order.
    Chances(Vec<(S, f64)>),
}

/// [`SamplerTransitions`] of state `s` under a [`Watch`]: one enumeration of its turn.
///
/// # Errors
/// As [`enumerate_within`].
pub fn sampler_transitions_within<C: Chain>(
    chain: &C,
    s: C::State,
    watch: &Watch,
) -> Result<SamplerTransitions<C::State>> {
    let mut paths: Vec<(C::State, u128, u128)> = Vec::new();
    let mut chances: BTreeMap<C::State, f64> = BTreeMap::new();
    let mut fits = true;
    enumerate_within(
        |o| chain.step(s, o),
        |next, p, ratio| {
            *chances.entry(next).or_insert(0.0) += p;
            match ratio {
                Some((n, d)) if fits => paths.push((next, n, d)),
                _ => fits = false,
            }
        },
        watch,
    )?;
    Ok(match integer_weights(paths, fits, chain.halted()) {
        Some(exact) => SamplerTransitions::Exact(exact),
        None => SamplerTransitions::Chances(chances.into_iter().collect()),
    })
}

/// The paths' fractions over their common denominator, where it fits 64 bits (`halted`: the
/// chain's script failed during the enumeration).
fn integer_weights<S: Ord + Copy>(
    paths: Vec<(S, u128, u128)>,
    fits: bool,
    halted: bool,
) -> Option<IntegerTransitions<S>> {
    if !fits {
        return None;
    }
    let mut den: u128 = 1;
    for &(_, _, d) in &paths {
        den = (den / gcd128(den, d)).checked_mul(d)?;
    }
    let den = u64::try_from(den).ok()?;
    let mut out: BTreeMap<S, u64> = BTreeMap::new();
    for (next, n, d) in paths {
        let w = u64::try_from(n * (u128::from(den) / d)).ok()?;
        *out.entry(next).or_insert(0) += w;
    }
    let total: u64 = out.values().try_fold(0u64, |a, &w| a.checked_add(w))?;
    if total != den && halted {
        // A script failed during the enumeration: its turns stopped rolling, so the paths no
        // longer form a tree. The job reports the script's error.
        return None;
    }
    assert_eq!(
        total, den,
        "a turn's outcomes must account for every dice sequence"
    );
    Some((out.into_iter().collect(), den))
}

fn gcd128(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A state's one-turn moves: next state, chance, and the next state's class.
/// A state's moves: where to, with what chance, into which class, for a move into an
/// absorbing class the index of its end state in the solve's list of end states, and the
/// number the solve gave the core of where to ([`Chain::core`]).
/// A move a solve keeps: the state it leads to, its chance, the state's class, where it ends
/// (among the ended states, for an absorbing class) and its core's number.
type Move<S> = (S, f64, usize, Option<usize>, u32);
type Moves<S> = Vec<Move<S>>;

/// One live state of [`solve_chain`]'s distribution: the chance of each count of turns its
/// place stood empty so far, from `lo` on.
struct Live<S> {
    state: S,
    /// The number the solve gave the state's core ([`Chain::core`]).
    core: u32,
    lo: usize,
    p: Vec<f64>,
}

impl<S> Live<S> {
    /// Add `q` to empty count `e`.
    #[inline]
    fn add(&mut self, e: usize, q: f64) {
        if self.p.is_empty() {
            self.lo = e;
        } else if e < self.lo {
            let grow = self.lo - e;
            self.p.splice(0..0, std::iter::repeat_n(0.0, grow));
            self.lo = e;
        }
        let k = e - self.lo;
        if k >= self.p.len() {
            self.p.resize(k + 1, 0.0);
        }
        self.p[k] += q;
    }
}

/// Tolerance on the total probability of an exact solution.
pub const MASS_TOLERANCE: f64 = 1e-9;

/// The exact solution of a chain, as probabilities in the chain's [`Layout`], with no time
/// limit.
///
/// # Errors
/// [`Error::Mass`] if the final distribution does not sum to 1 within [`MASS_TOLERANCE`]
/// (a defect, never bad input); `scenario` names the chain in that message.
pub fn solve_chain<C: Chain>(chain: &C, scenario: &str) -> Result<Vec<f64>> {
    solve_chain_within(chain, scenario, &Limit::none())
}

/// How long an exact solve may take, and how it learns that the user stopped the run.
pub struct Limit<'a> {
    /// Seconds the solve may take (`None`: no limit).
    pub budget_s: Option<f64>,
    /// The most branches the whole solve may enumerate (`None`: no bound beyond one turn's):
    /// a bound on work that stops at the same place on every machine, where a budget in
    /// seconds stops where the clock says.
    pub branches: Option<u64>,
    /// The most steps the whole solve may take (`None`: no bound): every branch of chance
    /// enumerated and every chance carried along a move between states counts one. Like
    /// `branches` it stops at the same place on every machine; unlike it, it bounds the
    /// solve's carrying of chances too, which is most of a long solve's time.
    pub work: Option<u64>,
    /// True once the user stopped the run (read after every branch of every turn and every
    /// state reached).
    pub cancelled: &'a dyn Fn() -> bool,
    /// Told (turns done, of turns) after every turn, for a progress display.
    pub progress: &'a dyn Fn(usize, usize),
}

impl Limit<'_> {
    /// No budget, never cancelled.
    pub fn none() -> Limit<'static> {
        Limit {
            budget_s: None,
            branches: None,
            work: None,
            cancelled: &|| false,
            progress: &|_, _| {},
        }
    }
}

/// The budget's arithmetic, apart from the clock so that hand values test it: the cells walked
/// in the turns so far.
#[derive(Debug, Default)]
struct Projection {
    walked: usize,
}

impl Projection {
    /// The seconds the whole solve should take, `spent` seconds in, at the start of turn `t` of
    /// `turns` with `cells` live cells: this turn's work against all the work so far (the cells
    /// walked, this turn's included) scales the time spent, for this turn and each one left.
    fn project(&mut self, spent: f64, cells: usize, t: usize, turns: usize) -> f64 {
        self.walked += cells;
        if self.walked == 0 {
            spent
        } else {
            spent * (1.0 + (cells * (turns + 1 - t)) as f64 / self.walked as f64)
        }
    }
}

/// Whether a solve stops for its budget: once the time spent passes it, once a projection
/// passes it with a quarter of it spent (early turns also pay for working out each new state's
/// moves, so an earlier projection is not trusted to the letter), or once a projection passes
/// it [`FAR_OVER`] times over with a sixteenth spent (no early overstatement comes near that: a
/// setting that would take half an hour is refused in a fraction of a second, not in a quarter
/// of the budget, which holds a server's slot the while).
fn over_budget(spent: f64, projected: f64, budget: f64) -> bool {
    spent > budget
        || (spent > budget / 4.0 && projected > budget)
        || (spent > budget / 16.0 && projected > FAR_OVER * budget)
}

/// See [`over_budget`].
const FAR_OVER: f64 = 64.0;

/// [`solve_chain`] within a [`Limit`]. The cost is known as it goes: each turn costs about as
/// much as the live states times their spread of empty counts times their moves, so after
/// every turn the time so far and the work of the turns left (at the latest turn's work, which
/// only grows while mass stays alive) project the whole; a projection past the budget stops at
/// once, so a solve never runs much past it.
///
/// # Errors
/// [`Error::OverBudget`] with the projected seconds; [`Error::Cancelled`]; and as
/// [`solve_chain`].
pub fn solve_chain_within<C: Chain>(chain: &C, scenario: &str, limit: &Limit) -> Result<Vec<f64>> {
    let started = std::time::Instant::now();
    let layout = Layout::of(chain);
    let turns = layout.turns;
    let classes = chain.classes();
    let mut out = vec![0.0f64; layout.len()];
    let mut cores = Cores::default();
    let mut ends = Ends::default();

    // Per-turn series (a battle's gaps, losses …): E[X] and E[X²] over every trial after each
    // turn, an ended trial keeping its last state's values (as the samplers count them). The
    // absorbed mass's share is summed as it ends and carried into every later turn.
    let n_series = layout.series();
    let mut read = vec![0u32; n_series];
    let mut ended_series = vec![0.0f64; 2 * n_series];
    let mut add_series = |sums: &mut [f64], s: &C::State, p: f64| {
        chain.series_all(s, &mut read);
        for (i, &x) in read.iter().enumerate() {
            let x = f64::from(x);
            sums[2 * i] += p * x;
            sums[2 * i + 1] += p * x * x;
        }
    };
    let start = chain.start();
    let c0 = chain.class_of(start);
    // The live distribution over (state, turns its place stood empty so far): per state (in
    // the states' order) the chances of each empty count from `lo` on. Each turn walks it in
    // (state, empty count) order and each state's moves in their order, so every cell sums its
    // terms in one fixed order (the same as a map keyed by (state, count)).
    let mut dist: Vec<Live<C::State>> = Vec::new();
    let mut projection = Projection::default();
    // Inside a turn: the cancel flag after every branch and state, the clock every few
    // branches, and the bounds on one turn's branches and on the moves kept.
    let watch = Watch {
        scenario,
        cancelled: limit.cancelled,
        budget: limit.budget_s.map(|b| (started, b)),
        max_branches: MAX_TURN_BRANCHES,
        max_moves: max_solve_moves::<C::State>(),
        max_total: limit.branches.unwrap_or(u64::MAX),
        taken: std::cell::Cell::new(0),
    };
    // Chances carried along moves so far (each live cell times its state's moves): with the
    // branches the watch counts, the steps `limit.work` bounds.
    let mut carried: u64 = 0;
    let max_live = MAX_SOLVE_MOVE_BYTES / std::mem::size_of::<Live<C::State>>();
    if classes[c0].absorbing {
        if n_series > 0 {
            add_series(&mut ended_series, &start, 1.0);
        }
        out[layout.absorbed(c0, 0)] += 1.0;
        let empty = if classes[c0].empty { turns } else { 0 };
        finish(chain, &layout, &mut out, (start, c0, empty), 1.0);
    } else {
        cores.ids.insert(chain.core(start), 0);
        dist.push(Live {
            state: start,
            core: 0,
            lo: 0,
            p: vec![1.0],
        });
    }
    for t in 1..=turns {
        (limit.progress)(t - 1, turns);
        turn_start_check(limit, started, &dist, &mut projection, (t, turns), scenario)?;
        let mut next: Vec<Live<C::State>> = Vec::new();
        // Where each state reached sits in `next` (looked up by hash: a landing per move of
        // every live state; the states are put in their order once, at the end of the turn).
        let mut at: FastMap<(u32, u64), usize> = FastMap::default();
        for live in &dist {
            let s = live.state;
            // A state's moves are its core's (the same turn: what it only accumulates is set
            // aside and carried over), worked out once per core.
            let key = chain.core(s);
            let own = chain.accumulated(s) == chain.accumulated(key);
            let i = cores.moves(chain, live.core, key, own, &watch, &mut ends)?;
            let trans = &cores.store[i];
            if let Some(most) = limit.work {
                carried = carried.saturating_add(live.p.len() as u64 * trans.len() as u64);
                if carried.saturating_add(watch.taken.get()) > most {
                    return Err(Error::OverWork {
                        scenario: scenario.to_string(),
                        steps: most,
                    });
                }
            }
            let lands = landings(chain, s, own, trans, &mut ends, &mut next, &mut at);
            // The live states a turn reaches hold their whole state too: bounded alike.
            if next.len() > max_live {
                return Err(Error::TooManyStates {
                    scenario: scenario.to_string(),
                    states: next.len(),
                    moves: cores.kept_moves,
                });
            }
            for (k, &p) in live.p.iter().enumerate() {
                // Mass that underflowed to zero adds nothing to any cell: dropping it keeps
                // every sum the same to the bit and long chains from carrying dead entries.
                if p == 0.0 {
                    continue;
                }
                let e = live.lo + k;
                for (&(_, q, c, _, _), &(absorbed, j)) in trans.iter().zip(&lands) {
                    let pq = p * q;
                    let info = classes[c];
                    if absorbed {
                        if n_series > 0 {
                            add_series(&mut ended_series, &ends.states[j].0, pq);
                        }
                        out[layout.absorbed(c, t)] += pq;
                        let e2 = e + if info.empty { turns - t + 1 } else { 0 };
                        out[layout.final_(c)] += pq;
                        out[layout.empty(e2)] += pq;
                        ends.states[j].1 += pq;
                    } else {
                        out[layout.live(t, c)] += pq;
                        next[j].add(e + usize::from(info.empty), pq);
                    }
                }
            }
        }
        drop(at);
        dist = in_state_order(chain, next);
        if n_series > 0 {
            let mut sums = ended_series.clone();
            for live in &dist {
                add_series(&mut sums, &live.state, live.p.iter().sum());
            }
            for i in 0..n_series {
                let at = layout.series_sum(i, t);
                out[at] = sums[2 * i];
                out[at + 1] = sums[2 * i + 1];
            }
        }
    }
    (limit.progress)(turns, turns);
    close(chain, &layout, &mut out, &ends, &dist, scenario)?;
    Ok(out)
}

/// A trial's end: chance `p` of ending in state `s` of class `c` with its place empty for
/// `empty` turns, into the final class, the empty count and each value.
fn finish<C: Chain>(
    chain: &C,
    layout: &Layout,
    out: &mut [f64],
    (s, c, empty): (C::State, usize, usize),
    p: f64,
) {
    out[layout.final_(c)] += p;
    out[layout.empty(empty)] += p;
    for i in 0..chain.values().len() {
        out[layout.value(i, chain.value_of(s, i) as usize)] += p;
    }
}

/// After the last turn: the values of the states that ended (summed as they ended, read
/// once here: they depend on the end state alone, not on the turn or the empty count), then
/// every state still live as an end at the turn cap; the total chance checked.
fn close<C: Chain>(
    chain: &C,
    layout: &Layout,
    out: &mut [f64],
    ends: &Ends<C::State>,
    dist: &[Live<C::State>],
    scenario: &str,
) -> Result<()> {
    for &(s, p) in &ends.states {
        for i in 0..chain.values().len() {
            out[layout.value(i, chain.value_of(s, i) as usize)] += p;
        }
    }
    for live in dist {
        let c = chain.class_of(live.state);
        for (k, &p) in live.p.iter().enumerate() {
            if p != 0.0 {
                finish(chain, layout, out, (live.state, c, live.lo + k), p);
            }
        }
    }
    let total: f64 = (0..chain.classes().len())
        .map(|c| out[layout.final_(c)])
        .sum();
    check_mass(total, scenario)
}

/// At the start of turn `t` of `turns`: stop if the user cancelled, or if the time spent or
/// its projection over the turns left passes the budget ([`over_budget`]).
fn turn_start_check<S>(
    limit: &Limit,
    started: std::time::Instant,
    dist: &[Live<S>],
    projection: &mut Projection,
    (t, turns): (usize, usize),
    scenario: &str,
) -> Result<()> {
    if (limit.cancelled)() {
        return Err(Error::Cancelled);
    }
    if let Some(budget) = limit.budget_s {
        let spent = started.elapsed().as_secs_f64();
        let cells: usize = dist.iter().map(|l| l.p.len()).sum();
        let projected = projection.project(spent, cells, t, turns);
        if over_budget(spent, projected, budget) {
            return Err(Error::OverBudget {
                scenario: scenario.to_string(),
                projected_s: projected.max(spent),
                budget_s: budget,
            });
        }
    }
    Ok(())
}

/// The states a solve has seen end, each with the chance absorbed into it so far; found by
/// their core's number and what they accumulated beyond it ([`Chain::core`],
/// [`Chain::accumulated`]): a landing is looked up by a few bytes, not by a whole state (a
/// battle's state is some hundred fields).
struct Ends<S> {
    states: Vec<(S, f64)>,
    at: FastMap<(u32, u64), usize>,
}

impl<S> Default for Ends<S> {
    fn default() -> Self {
        Ends {
            states: Vec::new(),
            at: FastMap::default(),
        }
    }
}

impl<S: Copy> Ends<S> {
    /// The index of the end state `s` (found by `key`), added with no chance yet if new.
    fn index(&mut self, key: (u32, u64), s: S) -> usize {
        let states = &mut self.states;
        *self.at.entry(key).or_insert_with(|| {
            states.push((s, 0.0));
            states.len() - 1
        })
    }
}

/// Each core's moves, worked out once, when a state of that core is first live, and kept by
/// the core's number; the numbers given to cores as they are first reached.
struct Cores<S> {
    store: Vec<Moves<S>>,
    /// Where core `i`'s moves sit in `store` (`u32::MAX`: not worked out yet).
    moves_of: Vec<u32>,
    ids: FastMap<S, u32>,
    kept_moves: usize,
}

impl<S> Default for Cores<S> {
    fn default() -> Self {
        Cores {
            store: Vec::new(),
            moves_of: Vec::new(),
            ids: FastMap::default(),
            kept_moves: 0,
        }
    }
}

impl<S: Copy + Eq + std::hash::Hash> Cores<S> {
    /// Where the moves of core `cid` (the state `key`) sit in `store`, worked out now if this
    /// is the first time; `own` says whether the live state is its core (then a move into an
    /// absorbing class keeps its end state's index).
    fn moves<C: Chain<State = S>>(
        &mut self,
        chain: &C,
        cid: u32,
        key: S,
        own: bool,
        watch: &Watch,
        ends: &mut Ends<S>,
    ) -> Result<usize> {
        let cid = cid as usize;
        if self.moves_of.len() <= cid {
            self.moves_of.resize(cid + 1, u32::MAX);
        }
        if self.moves_of[cid] == u32::MAX {
            let classes = chain.classes();
            watch.check(None)?;
            let next = transitions_within(chain, key, watch)?;
            let mut moves: Moves<S> = Vec::with_capacity(next.len());
            for (k, (s2, q)) in next.into_iter().enumerate() {
                // Reading a new state's class runs rule code (a mechanic file's script):
                // the watch is read between them too.
                if k % 64 == 63 {
                    watch.check(None)?;
                }
                let c = chain.class_of(s2);
                let n = self.ids.len() as u32;
                let id = *self.ids.entry(chain.core(s2)).or_insert(n);
                let end = (classes[c].absorbing && own)
                    .then(|| ends.index((id, chain.accumulated(s2)), s2));
                moves.push((s2, q, c, end, id));
            }
            self.kept_moves += moves.len();
            if self.kept_moves > watch.max_moves {
                return Err(Error::TooManyStates {
                    scenario: watch.scenario.to_string(),
                    states: self.store.len() + 1,
                    moves: self.kept_moves,
                });
            }
            self.moves_of[cid] = self.store.len() as u32;
            self.store.push(moves);
        }
        Ok(self.moves_of[cid] as usize)
    }
}

/// Where each of `trans` (the moves of `s`'s core) lands, with what `s` accumulated carried
/// unless `own`: a place in `next` (added at the end if new, found through `at`), or for an
/// absorbing class an index among the ended states.
fn landings<C: Chain>(
    chain: &C,
    s: C::State,
    own: bool,
    trans: &Moves<C::State>,
    ends: &mut Ends<C::State>,
    next: &mut Vec<Live<C::State>>,
    at: &mut FastMap<(u32, u64), usize>,
) -> Vec<(bool, usize)> {
    let classes = chain.classes();
    trans
        .iter()
        .map(|&(s2, _, c, end, id)| {
            // The landing's core is the move's (carrying adds only what the core sets aside).
            let s2 = if own { s2 } else { chain.carry(s, s2) };
            let key2 = (id, chain.accumulated(s2));
            if classes[c].absorbing {
                // The cached end is the core's own end state: a carried state ends in its own.
                let end = end.filter(|_| own).unwrap_or_else(|| ends.index(key2, s2));
                (true, end)
            } else {
                let slot = *at.entry(key2).or_insert_with(|| {
                    next.push(Live {
                        state: s2,
                        core: id,
                        lo: usize::MAX,
                        p: Vec::new(),
                    });
                    next.len() - 1
                });
                (false, slot)
            }
        })
        .collect()
}

/// The states a turn reached, in the states' order for the next turn, those with no chance
/// left out. (The states are compared in place and only their places sorted: a battle's state
/// is large to move.) A chain may keep the order the turn reached them in
/// ([`Chain::solve_in_state_order`]).
fn in_state_order<C: Chain>(chain: &C, mut next: Vec<Live<C::State>>) -> Vec<Live<C::State>> {
    match chain.solve_in_state_order() {
        true => {
            let mut order: Vec<u32> = (0..next.len() as u32).collect();
            order.sort_unstable_by(|&a, &b| next[a as usize].state.cmp(&next[b as usize].state));
            let mut next: Vec<Option<Live<C::State>>> = next.into_iter().map(Some).collect();
            order
                .into_iter()
                .filter_map(|i| next[i as usize].take())
                .filter(|l| !l.p.is_empty())
                .collect()
        }
        false => {
            next.retain(|l| !l.p.is_empty());
            next
        }
    }
}

/// A solution's total chance must be 1 within [`MASS_TOLERANCE`]: anything else is a defect of
/// the solver (every move's chances sum to 1), named with the scenario.
fn check_mass(total: f64, scenario: &str) -> Result<()> {
    if (total - 1.0).abs() > MASS_TOLERANCE {
        return Err(Error::Mass {
            scenario: scenario.to_string(),
            total,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests;
