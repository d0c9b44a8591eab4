//! The chain model: a scenario as a small Markov chain over a unit's state, one step per game
//! turn. Below both ways of running it (the exact solver, `exact`, and the samplers,
//! `scenario::chain`), which are peers; it knows nothing of either.
//!
//! A [`Chain`] says where a trial starts, how one turn changes the state (drawing its chance from
//! a [`Roll`]), and how states are reported: each state belongs to a [`ClassInfo`] (good,
//! routing, removed …), some classes end a trial (absorbing), some mean the unit's place in the
//! line stands empty. The samplers (`scenario::chain`) run a chain's trials and fill a tally
//! laid out by [`Layout`]; the exact solver fills an array of probabilities with the same
//! layout, so estimates and exact values are read by the same code.

use std::fmt::Debug;
use std::hash::Hash;

use crate::dice::Roll;

/// How states of one class are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClassInfo {
    /// The class's name in outputs (e.g. `routing`).
    pub name: &'static str,
    /// A trial that reaches this class ends there (e.g. removed, or recovered in `rally`).
    pub absorbing: bool,
    /// The unit's position in the line stands empty while it is in this class (holes metric).
    pub empty: bool,
}

/// A way of playing solved by `crate::play`: the choice of [`Chain::choices`] to make in each
/// state (as [`Chain::play_state`] tells states apart) at each turn, which a chain built with it
/// ([`Chain::with_play`]) plays in place of its own policy, exactly and in every sampler.
#[derive(Debug, Clone, PartialEq)]
pub struct Played<S: Eq + Hash> {
    /// By state: the choice at turn 1, 2, … (a state missing, or a turn past its list: the
    /// chain's own policy, where every choice moves alike).
    pub by_state: FastMap<S, Vec<u8>>,
}

impl<S: Eq + Hash> Played<S> {
    /// The choice in play state `s` at turn `turn` (from 1), if the table makes one.
    #[inline]
    pub fn choice(&self, s: &S, turn: u32) -> Option<usize> {
        let at = turn.checked_sub(1)? as usize;
        self.by_state
            .get(s)
            .and_then(|v| v.get(at))
            .map(|&c| usize::from(c))
    }
}

/// An integer read off a trial's final state (e.g. stands lost), tallied as a histogram.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValueInfo {
    /// The value's name in outputs.
    pub name: &'static str,
    /// The largest value it can take.
    pub max: u32,
}

/// A scenario as a Markov chain over a unit's state, one step per turn.
pub trait Chain: Sync {
    /// The state a trial carries from turn to turn: small and `Copy`.
    type State: Copy + Eq + Ord + Hash + Debug + Send + Sync;
    /// Where every trial starts.
    fn start(&self) -> Self::State;
    /// The number of turns a trial lasts at most.
    fn turns(&self) -> u32;
    /// One turn: the next state, drawing chance from `r`.
    fn step<R: Roll>(&self, s: Self::State, r: &mut R) -> Self::State;
    /// [`Chain::step`] on the state where it lies: the same turn with the same draws, which a
    /// chain with a large state (a battle's field) plays without copying the state in and out.
    #[inline(always)]
    fn step_in_place<R: Roll>(&self, s: &mut Self::State, r: &mut R) {
        *s = self.step(*s, r);
    }
    /// The part of state `s` its turn depends on: `s` with what it only accumulates set aside
    /// (a battle's hole-turns; its turn count where no rule reads it). States with the same core
    /// have the same moves, which the exact solver works out once per core. A core has the
    /// class of its state.
    fn core(&self, s: Self::State) -> Self::State {
        s
    }
    /// What `s` accumulated beyond its core ([`Chain::core`]), as a number: a state is its core
    /// and this number (two states with the same core and the same number are one state), and
    /// the core of [`Chain::carry`]`(s, to)` is the core of `to`. The exact solver finds states
    /// by the two.
    fn accumulated(&self, s: Self::State) -> u64 {
        let _ = s;
        0
    }
    /// The state one turn from `s` reaches when its core ([`Chain::core`]) reaches `to`: what
    /// `s` accumulated, added back (the same state as [`Chain::step`] from `s` with the same
    /// draws).
    fn carry(&self, s: Self::State, to: Self::State) -> Self::State {
        let _ = s;
        to
    }
    /// The state whose core is `core` and whose accumulated number is `accumulated`
    /// ([`Chain::core`], [`Chain::accumulated`]): `state_of_parts(core(s), accumulated(s)) == s`.
    /// The table sampler of a fight keeps its moves as these two (a few bytes, where a
    /// battle's state is hundreds).
    fn state_of_parts(&self, core: Self::State, accumulated: u64) -> Self::State {
        let _ = accumulated;
        core
    }
    /// The accumulated number ([`Chain::accumulated`]) of [`Chain::carry`]`(s, to)`, from
    /// those of `s` and `to`: what a trial of the table sampler adds up, turn by turn, without
    /// making its whole state.
    fn carried(&self, accumulated: u64, to: u64) -> u64 {
        let _ = accumulated;
        to
    }
    /// The reporting classes.
    fn classes(&self) -> &[ClassInfo];
    /// The class of a state (an index into [`Chain::classes`]).
    fn class_of(&self, s: Self::State) -> usize;
    /// The integer values read off the final state.
    fn values(&self) -> &[ValueInfo];
    /// Value `i` of state `s` (at most `values()[i].max`).
    fn value_of(&self, s: Self::State, i: usize) -> u32;
    /// Every value of state `s` at once, into `out` (one per [`Chain::values`], in order): the
    /// same as [`Chain::value_of`], which a chain may read off in one pass over its state.
    fn values_all(&self, s: &Self::State, out: &mut [u32]) {
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.value_of(*s, i);
        }
    }
    /// The values of [`Chain::state_of_parts`]`(core, accumulated)`, into `out`, as
    /// [`Chain::values_all`] reads them: a chain with a large state reads them without making it
    /// (the table sampler of a fight reads them once a trial).
    fn values_of_parts(&self, core: &Self::State, accumulated: u64, out: &mut [u32]) {
        self.values_all(&self.state_of_parts(*core, accumulated), out);
    }
    /// Value `i` where it is read off the accumulated number alone ([`Chain::accumulated`]: a
    /// battle's hole-turns), else `None`. With [`Chain::values_of_core`], every other value is
    /// its core's, so that the table sampler of a fight reads those once per core and only
    /// these once a trial.
    fn value_of_accumulated(&self, i: usize, accumulated: u64) -> Option<u32> {
        let _ = (i, accumulated);
        None
    }
    /// True when every value that [`Chain::value_of_accumulated`] does not give is the same for
    /// every state of a core (the values of `state_of_parts(core, a)` for any `a`).
    fn values_of_core(&self) -> bool {
        false
    }
    /// True when every trial must end within the turns (a melee's rounds): a chance of still
    /// going at the cap is then an error, not an outcome.
    fn must_finish(&self) -> bool {
        false
    }
    /// False for chains too large to solve exactly or to compile into tables (`line`): they
    /// run by Monte Carlo with the dice sampler only.
    fn exact(&self) -> bool {
        true
    }
    /// The rule invariants of one turn from `from` to `to` (see [`check`]): counts
    /// within their bounds, legal moves between states, removed units frozen. Every chain
    /// states its own; `scenario::invariants::audit` checks them over reachable and sampled
    /// turns.
    ///
    /// # Errors
    /// What broke, in words.
    fn check_step(&self, from: Self::State, to: Self::State) -> check::Check;
    /// True once the chain can no longer play a turn (a mechanic file's script failed: every
    /// later turn leaves its state as it is, and the job reports the error). Enumerations of
    /// its turns are then not to be trusted and are given up, not checked.
    fn halted(&self) -> bool {
        false
    }
    /// Integers read off the state after every turn and reported as per-turn means (gaps in a
    /// line, units lost …): the exact solver gives their means too; the table sampler compiles
    /// a chain with series by its cores, and reads them off the state each trial carries.
    fn series(&self) -> &[ValueInfo] {
        &[]
    }
    /// True when the series read nothing a state accumulates beyond its core
    /// ([`Chain::core`]): the series of `s` are those of `core(s)`, which the table sampler
    /// then reads once per core.
    fn series_of_core(&self) -> bool {
        false
    }
    /// True (the default) when the exact solver walks each turn's live states in the states'
    /// order ([`Ord`]): the order every committed report's exact numbers were summed in. False
    /// walks them in the order a turn first reached them, which is as fixed (the same moves in
    /// the same order every run) and spares sorting, where a state is large and many (a
    /// battle's: some hundred fields); the sums then differ from the sorted walk's in their last
    /// bits only.
    fn solve_in_state_order(&self) -> bool {
        true
    }
    /// The choices a player has at the start of each turn, by name (side A's charge in an
    /// engagement: `hold`, `charge`), which `crate::play` solves; none (the default) where the
    /// chain's rules leave no choice or play does not solve it.
    fn choices(&self) -> &'static [&'static str] {
        &[]
    }
    /// One turn from `s` as turn `turn` (from 1) with choice `choice` of [`Chain::choices`]
    /// made, or the chain's own policy (its parameters) where it is `None`.
    fn step_choosing<R: Roll>(
        &self,
        s: Self::State,
        turn: u32,
        choice: Option<usize>,
        r: &mut R,
    ) -> Self::State {
        let _ = (turn, choice);
        self.step(s, r)
    }
    /// This chain with side A playing `table` (solved by `crate::play`) in place of its own
    /// policy; `None` where the chain offers no choice.
    fn with_play(&self, table: std::sync::Arc<Played<Self::State>>) -> Option<Self>
    where
        Self: Sized,
    {
        let _ = table;
        None
    }
    /// What play tells states apart by: `s` without what only accumulates and without its turn
    /// count (the solve counts turns). By default its core.
    fn play_state(&self, s: Self::State) -> Self::State {
        self.core(s)
    }
    /// The turn as the chain's own policy reads it: turns that play alike give one number (a
    /// policy that reads no turn: 0).
    fn own_turn(&self, turn: u32) -> u32 {
        turn
    }
    /// What a rule of thumb may read of a state, as named whole numbers (own and enemy
    /// strength left, whether the enemy is shaken …).
    fn play_features(&self, s: Self::State) -> Vec<(String, i64)> {
        let _ = s;
        Vec::new()
    }
    /// A state in words for a policy's table: the deciding side's unit, then the other's.
    fn play_words(&self, s: Self::State) -> [String; 2] {
        [format!("{s:?}"), String::new()]
    }
    /// Series `i` of state `s` (at most `series()[i].max`).
    fn series_of(&self, _s: Self::State, _i: usize) -> u32 {
        0
    }
    /// Every series of state `s` at once, into `out` (one per [`Chain::series`], in order):
    /// the same values as [`Chain::series_of`], which a chain may read off in one pass over its
    /// state (a battle's line) instead of one pass per series.
    fn series_all(&self, s: &Self::State, out: &mut [u32]) {
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.series_of(*s, i);
        }
    }
}

pub mod check;
mod layout;

pub use layout::Layout;
mod fast_map;
pub(crate) use fast_map::FastMap;

/// For the systems' scripted turns: one step of `chain` from `s` with `dice` in order, every
/// one of which must be used (no other die rolled).
#[cfg(test)]
pub(crate) fn scripted_step<C: Chain>(chain: &C, s: C::State, dice: &[u8]) -> C::State {
    let mut r = crate::dice::Scripted::new(dice);
    let after = chain.step(s, &mut r);
    assert_eq!(
        r.used(),
        dice.len(),
        "dice rolled: {} of {dice:?}",
        r.used()
    );
    after
}
