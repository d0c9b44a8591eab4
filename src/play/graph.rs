//! The graph play solves over: every state reachable from the start under any choice or the
//! chain's own policy, with its moves, kept as indices.

use super::*;
use crate::chain::FastMap;

/// The states play tells apart, with each one's moves under every choice (and under the
/// chain's own policy at each turn it reads), kept as indices.
pub(super) struct Graph<S> {
    pub(super) states: Vec<S>,
    pub(super) index: FastMap<S, usize>,
    pub(super) absorbing: Vec<bool>,
    pub(super) class: Vec<usize>,
    /// `moves[k][a]`: the next states of state `k` under choice `a`, with their chances.
    pub(super) moves: Vec<Vec<Vec<(usize, f64)>>>,
    /// The chain's own policy's moves, by (state, own turn).
    pub(super) own: FastMap<(usize, u32), Vec<(usize, f64)>>,
}

impl<S: Copy + Eq + std::hash::Hash> Graph<S> {
    fn id(&mut self, s: S, absorbing: bool, class: usize) -> usize {
        if let Some(&k) = self.index.get(&s) {
            return k;
        }
        let k = self.states.len();
        self.states.push(s);
        self.index.insert(s, k);
        self.absorbing.push(absorbing);
        self.class.push(class);
        self.moves.push(Vec::new());
        k
    }
}

/// One turn's next states from `s` (as turn `turn`, with `choice`), as play tells them apart.
fn moves_of<C: Chain>(
    chain: &C,
    g: &mut Graph<C::State>,
    s: C::State,
    turn: u32,
    choice: Option<usize>,
    watch: &Watch,
) -> Result<Vec<(usize, f64)>> {
    let mut next: Vec<(C::State, f64)> = Vec::new();
    // Looked up by the states' order: a battle's state is some hundred fields, and two states
    // part in their first few, where a hash reads them all (2.1 s to 0.6 s for a 25% rules
    // engagement's play).
    let mut at: std::collections::BTreeMap<C::State, usize> = std::collections::BTreeMap::new();
    enumerate_within(
        |o| chain.play_state(chain.step_choosing(s, turn, choice, o)),
        |n, p, _| match at.get(&n) {
            Some(&i) => next[i].1 += p,
            None => {
                at.insert(n, next.len());
                next.push((n, p));
            }
        },
        watch,
    )?;
    let classes = chain.classes();
    Ok(next
        .into_iter()
        .map(|(n, p)| {
            let c = chain.class_of(n);
            (g.id(n, classes[c].absorbing, c), p)
        })
        .collect())
}

/// Every state reachable from the start under any choice or the chain's own policy, with its
/// moves.
pub(super) fn graph<C: Chain>(chain: &C, watch: &Watch) -> Result<Graph<C::State>> {
    let classes = chain.classes();
    let mut g = Graph {
        states: Vec::new(),
        index: FastMap::default(),
        absorbing: Vec::new(),
        class: Vec::new(),
        moves: Vec::new(),
        own: FastMap::default(),
    };
    let start = chain.play_state(chain.start());
    let c = chain.class_of(start);
    g.id(start, classes[c].absorbing, c);
    // The own policy's turns that play differently: 1, 2, … up to where it stops reading.
    let turns = chain.turns();
    let mut own_turns: Vec<u32> = (1..=turns).map(|t| chain.own_turn(t)).collect();
    own_turns.dedup();
    let mut k = 0;
    while k < g.states.len() {
        watch.check(None)?;
        if g.states.len() > MAX_STATES {
            return Err(Error::Conflict(format!(
                "play: more than {MAX_STATES} states to tell apart; solve a smaller engagement (fewer stands or pips)"
            )));
        }
        if !g.absorbing[k] {
            let s = g.states[k];
            let mut by_choice = Vec::new();
            for a in 0..chain.choices().len() {
                by_choice.push(moves_of(chain, &mut g, s, 1, Some(a), watch)?);
            }
            g.moves[k] = by_choice;
            for &t in &own_turns {
                let m = moves_of(chain, &mut g, s, t.max(1), None, watch)?;
                g.own.insert((k, t), m);
            }
        }
        k += 1;
    }
    Ok(g)
}

/// A way of playing: the choice at turn `t` (from 1) in state `k` (`None`: the chain's own).
pub(super) type Rule<'a> = dyn Fn(u32, usize) -> Option<usize> + 'a;
