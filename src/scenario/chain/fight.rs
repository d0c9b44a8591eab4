//! A fight's table: the table sampler for chains with per-turn series (an engagement), whose
//! states are too many and too large to compile one by one. Each *core* ([`Chain::core`]) is
//! compiled once, with its one-turn moves as a weighted table, its class and (where the series
//! read the core alone) its series. A trial is the number of its core and its accumulated
//! number ([`Chain::accumulated`]): each turn it draws its core's move and adds up what it
//! accumulated ([`Chain::carried`]); its whole state ([`Chain::state_of_parts`]) is made only where
//! it is read (its values at the end), the same state the dice would have reached.

use super::*;

/// The most cores a fight's table compiles (as many as a chain's compiled states).
pub(super) const MAX_FIGHT_CORES: usize = table::MAX_TABLE_STATES;

/// The most branches of chance a fight's table takes over all its cores' turns (its watch's
/// bound, in place of [`MAX_COMPILE_BRANCHES`]): about two seconds of compiling here, well
/// inside the compile budget, where a setting at the edges of every range (Rank & File, 1,000
/// turns, 200 fire dice) would take more than ten before reaching that bound; it then runs by
/// dice, saying so. Rank & File at the defaults takes about 9,500 (213 cores, 2,396 moves); an
/// Elite effectiveness unit with a general against a Poor one, charging from turn 3 with a
/// retreat blocked one time in three, about 2.6 million (436 cores, 13,661 moves).
pub(super) const MAX_FIGHT_BRANCHES: u64 = 1 << 22;

/// The most moves a fight's table keeps over all its cores (twelve bytes each and a weight: some
/// tens of megabytes at the bound).
pub(super) const MAX_FIGHT_MOVES: usize = 1 << 20;

/// Weights of moves with no exact fraction are their chances in units of 2^−this, less the bits
/// of the table's buckets, so that one 64-bit draw picks a move (see [`Weights`]).
const CHANCE_BITS: u32 = 55;

/// Chances as integer weights: each in units of 2^−(55 − k) for a table of 2^k buckets (at
/// least one unit, so that no move is lost), which one 64-bit draw picks from. A weight differs
/// from its chance by at most one unit, under 2^−35 (3·10^−11) at the largest table kept and
/// 2^−46 for a turn of a few hundred moves.
fn rounded<S>(chances: Vec<(S, f64)>) -> Vec<(S, u64)> {
    let k = chances.len().next_power_of_two().trailing_zeros();
    let scale = f64::from(CHANCE_BITS.saturating_sub(k)).exp2();
    chances
        .into_iter()
        .map(|(s, p)| (s, ((p * scale).round() as u64).max(1)))
        .collect()
}

/// One core's moves: where they start in [`Fight::next`], and their weights (`None`: one move).
#[derive(Debug, Clone)]
pub(super) struct FightCore {
    pub(super) first: u32,
    pub(super) weights: Option<Weights>,
}

/// A fight's table: every core reached from the start, each with its moves.
#[derive(Debug, Clone)]
pub(super) struct Fight<S> {
    /// The cores, by the number the compilation gave them (the start's core is 0).
    pub(super) cores: Vec<FightCore>,
    /// Each core's state.
    pub(super) states: Vec<S>,
    /// The start's accumulated number (a trial begins at core 0 with it).
    pub(super) start_acc: u64,
    /// The number of each move's core.
    pub(super) next: Vec<u32>,
    /// What each move's state accumulated beyond its core ([`Chain::accumulated`]): the state
    /// a move leads to (stepped from its core) is [`Chain::state_of_parts`] of the two, which a
    /// trial carries its own state onto. A few bytes a move, so that the moves stay in the
    /// processor's caches where whole states (a battle's are hundreds of bytes) would not.
    pub(super) accumulated: Vec<u64>,
    /// Each core's class.
    pub(super) class: Vec<u32>,
    /// Each core's series, one after another, where the series read the core alone
    /// ([`Chain::series_of_core`]); else empty, and they are read off the whole state.
    pub(super) series: Vec<u32>,
    /// Each core's values, one after another, where they are the core's but for those read off
    /// the accumulated number ([`Chain::values_of_core`]); else empty, and they are read off
    /// the core and the accumulated number together at a trial's end.
    pub(super) values: Vec<u32>,
    /// The values read off a trial's accumulated number ([`Chain::value_of_accumulated`]), in
    /// place of the core's.
    pub(super) accumulated_values: Vec<usize>,
    /// Per core (where `values` is kept), the places in the layout its values other than the
    /// accumulated ones count at ([`Fight::place_values`]): a trial's end adds one at each.
    pub(super) value_slots: Vec<u32>,
    /// The cores whose moves are exact fractions of dice sequences (the rest are chances
    /// rounded: see [`rounded`]).
    pub(super) exact_cores: usize,
}

impl<S> Fight<S> {
    /// The number of value places a core has in [`Fight::value_slots`].
    pub(super) fn slots_per_core(&self, values: usize) -> usize {
        values - self.accumulated_values.len()
    }

    /// Fill [`Fight::value_slots`] from the values kept per core: value `i` of value `v`
    /// counts at `place(i, v)` (the layout's).
    pub(super) fn place_values(&mut self, values: usize, place: impl Fn(usize, usize) -> usize) {
        if self.values.is_empty() || values == 0 {
            return;
        }
        let own: Vec<usize> = (0..values)
            .filter(|i| !self.accumulated_values.contains(i))
            .collect();
        self.value_slots = self
            .values
            .chunks_exact(values)
            .flat_map(|vals| own.iter().map(|&i| place(i, vals[i] as usize) as u32))
            .collect();
    }
}

impl<S: Copy + Ord + std::hash::Hash> Fight<S> {
    /// Compile `chain`'s cores from its start's, under `watch`; `None` past
    /// [`MAX_FIGHT_CORES`] cores or [`MAX_FIGHT_MOVES`] moves, or a turn of too many branches
    /// (which the dice then run: a bound on counts, never on time).
    pub(super) fn compile<C: Chain<State = S>>(
        chain: &C,
        watch: &crate::exact::Watch,
    ) -> crate::error::Result<Option<Self>> {
        match Self::compile_within(chain, watch) {
            Err(crate::error::Error::TooManyBranches { .. }) => Ok(None),
            other => other,
        }
    }

    fn compile_within<C: Chain<State = S>>(
        chain: &C,
        watch: &crate::exact::Watch,
    ) -> crate::error::Result<Option<Self>> {
        use std::collections::HashMap;
        let mut ids: HashMap<S, u32> = HashMap::new();
        let start = chain.core(chain.start());
        assert!(
            chain.state_of_parts(start, chain.accumulated(chain.start())) == chain.start(),
            "a state is its core and its accumulated number (Chain::state_of_parts)"
        );
        ids.insert(start, 0);
        let mut pending = vec![start];
        let mut fight = Fight {
            cores: Vec::new(),
            states: Vec::new(),
            start_acc: chain.accumulated(chain.start()),
            next: Vec::new(),
            accumulated: Vec::new(),
            class: Vec::new(),
            series: Vec::new(),
            values: Vec::new(),
            accumulated_values: Vec::new(),
            value_slots: Vec::new(),
            exact_cores: 0,
        };
        let n_series = chain.series().len();
        let by_core = chain.series_of_core();
        let n_values = chain.values().len();
        let values_by_core = chain.values_of_core();
        if values_by_core {
            fight.accumulated_values = (0..n_values)
                .filter(|&i| chain.value_of_accumulated(i, fight.start_acc).is_some())
                .collect();
        }
        let mut i = 0;
        while i < pending.len() {
            watch.check(None)?;
            let core = pending[i];
            let first = fight.next.len() as u32;
            let absorbing = chain.classes()[chain.class_of(core)].absorbing;
            let mut weights = None;
            if !absorbing {
                let moves = match crate::exact::sampler_transitions_within(chain, core, watch)? {
                    crate::exact::SamplerTransitions::Exact((moves, _)) => {
                        fight.exact_cores += 1;
                        moves
                    }
                    crate::exact::SamplerTransitions::Chances(chances) => rounded(chances),
                };
                let mut w = Vec::with_capacity(moves.len());
                for (k, (to, weight)) in moves.into_iter().enumerate() {
                    if k % 64 == 63 {
                        watch.check(None)?;
                    }
                    let n = ids.len() as u32;
                    let id = *ids.entry(chain.core(to)).or_insert_with(|| {
                        pending.push(chain.core(to));
                        n
                    });
                    let acc = chain.accumulated(to);
                    assert!(
                        chain.state_of_parts(chain.core(to), acc) == to,
                        "a state is its core and its accumulated number (Chain::state_of_parts)"
                    );
                    fight.accumulated.push(acc);
                    fight.next.push(id);
                    w.push(weight);
                }
                if w.len() > 1 {
                    weights = Some(Weights::new(w).expect("a turn's weights are positive"));
                }
                if pending.len() > MAX_FIGHT_CORES || fight.next.len() > MAX_FIGHT_MOVES {
                    return Ok(None);
                }
            }
            fight.cores.push(FightCore { first, weights });
            fight.states.push(core);
            fight.class.push(chain.class_of(core) as u32);
            if by_core {
                let at = fight.series.len();
                fight.series.resize(at + n_series, 0);
                chain.series_all(&core, &mut fight.series[at..]);
            }
            if values_by_core {
                let at = fight.values.len();
                fight.values.resize(at + n_values, 0);
                chain.values_of_parts(&core, 0, &mut fight.values[at..]);
                for &k in &fight.accumulated_values {
                    fight.values[at + k] = 0;
                }
            }
            i += 1;
        }
        Ok(Some(fight))
    }
}

/// A chain that plays its turns from a fight's table as its trials do (drawing each core's move
/// from its weights, adding up the accumulated numbers, reading the class and series the table
/// keeps): solved exactly, it gives the chances the table sampler samples, to hold against the
/// rules' own exact solution ([`ChainSim::check_tables`]). Its state is a trial's: the number
/// of its core and its accumulated number.
pub(super) struct FightChain<'a, C: Chain> {
    pub(super) chain: &'a C,
    pub(super) fight: &'a Fight<C::State>,
}

impl<C: Chain> FightChain<'_, C> {
    /// The whole state of a trial's (core, accumulated number).
    fn state(&self, (core, acc): (u32, u64)) -> C::State {
        self.chain
            .state_of_parts(self.fight.states[core as usize], acc)
    }
}

impl<C: Chain> Chain for FightChain<'_, C> {
    type State = (u32, u64);
    fn start(&self) -> Self::State {
        (0, self.fight.start_acc)
    }
    fn turns(&self) -> u32 {
        self.chain.turns()
    }
    fn step<R: Roll>(&self, (core, acc): Self::State, r: &mut R) -> Self::State {
        let c = &self.fight.cores[core as usize];
        let m = c.first as usize + c.weights.as_ref().map_or(0, |w| r.pick(w));
        (
            self.fight.next[m],
            self.chain.carried(acc, self.fight.accumulated[m]),
        )
    }
    /// The solve works each core's turn out once, as for the chain itself (a trial of the
    /// same core and another accumulated number has the same moves).
    fn core(&self, (core, _): Self::State) -> Self::State {
        (
            core,
            self.chain.accumulated(self.fight.states[core as usize]),
        )
    }
    fn accumulated(&self, (_, acc): Self::State) -> u64 {
        acc
    }
    fn carry(&self, (_, acc): Self::State, (core, to): Self::State) -> Self::State {
        (core, self.chain.carried(acc, to))
    }
    fn classes(&self) -> &[ClassInfo] {
        self.chain.classes()
    }
    fn class_of(&self, (core, _): Self::State) -> usize {
        self.fight.class[core as usize] as usize
    }
    fn values(&self) -> &[crate::chain::ValueInfo] {
        self.chain.values()
    }
    /// As a trial reads it: off the table's values of the core where it keeps them (so that
    /// the check holds them to the exact solution too).
    fn value_of(&self, (core, acc): Self::State, i: usize) -> u32 {
        let n = self.chain.values().len();
        match self.fight.values.is_empty() {
            true => self.chain.value_of(self.state((core, acc)), i),
            false => match self.fight.accumulated_values.contains(&i) {
                true => self.chain.value_of_accumulated(i, acc).unwrap_or(0),
                false => self.fight.values[core as usize * n + i],
            },
        }
    }
    fn must_finish(&self) -> bool {
        self.chain.must_finish()
    }
    fn check_step(&self, from: Self::State, to: Self::State) -> crate::chain::check::Check {
        self.chain.check_step(self.state(from), self.state(to))
    }
    fn series(&self) -> &[crate::chain::ValueInfo] {
        self.chain.series()
    }
    fn series_of(&self, s: Self::State, i: usize) -> u32 {
        let n = self.chain.series().len();
        match self.fight.series.is_empty() {
            true => self.chain.series_of(self.state(s), i),
            false => self.fight.series[s.0 as usize * n + i],
        }
    }
}
