//! Play solved backward: the states play tells apart with their moves, the worth of every
//! choice at every turn in every state, optimal play forward, dominance, the policy's table and
//! every fixed way of playing's value.

use super::graph::{Graph, Rule};
use super::thumbs::thumbs;
use super::*;

/// The value of playing by `rule` from the start, exact (backward over the turns).
fn value_of<C: Chain>(chain: &C, g: &Graph<C::State>, pay: &[f64], rule: &Rule) -> f64 {
    let n = g.states.len();
    let end: Vec<f64> = (0..n).map(|k| pay[g.class[k]]).collect();
    let mut v = end.clone();
    for t in (1..=chain.turns()).rev() {
        let mut before = end.clone();
        for k in (0..n).filter(|&k| !g.absorbing[k]) {
            let m = match rule(t, k) {
                Some(a) => &g.moves[k][a],
                None => &g.own[&(k, chain.own_turn(t))],
            };
            before[k] = m.iter().map(|&(j, p)| p * v[j]).sum();
        }
        v = before;
    }
    v[0]
}

/// A chain's graph solved backward: the worth of every choice at every turn in every state.
pub(super) struct Solved<'a, C: Chain> {
    chain: &'a C,
    g: &'a Graph<C::State>,
    names: &'a [&'a str],
    pay: &'a [f64],
    pub(super) turns: u32,
    /// `q[t][k][a]`: the value of choice `a` at turn `t` in state `k`, then playing optimally.
    q: Vec<Vec<Vec<f64>>>,
    /// The value of optimal play from the start.
    pub(super) optimal: f64,
}

impl<'a, C: Chain> Solved<'a, C> {
    /// Backward over the turns, from the payoff of each state's class at the turn cap.
    ///
    /// # Errors
    /// The watch's cancel flag, budget or bounds.
    pub(super) fn backward(
        chain: &'a C,
        g: &'a Graph<C::State>,
        names: &'a [&'a str],
        pay: &'a [f64],
        watch: &Watch,
    ) -> Result<Self> {
        let n = g.states.len();
        let turns = chain.turns();
        let end: Vec<f64> = (0..n).map(|k| pay[g.class[k]]).collect();
        let mut v = end.clone();
        let mut q: Vec<Vec<Vec<f64>>> = vec![Vec::new(); turns as usize + 1];
        for t in (1..=turns).rev() {
            watch.check(None)?;
            let mut before = end.clone();
            let mut qt = vec![Vec::new(); n];
            for k in (0..n).filter(|&k| !g.absorbing[k]) {
                let values: Vec<f64> = g.moves[k]
                    .iter()
                    .map(|m| m.iter().map(|&(j, p)| p * v[j]).sum())
                    .collect();
                before[k] = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                qt[k] = values;
            }
            q[t as usize] = qt;
            v = before;
        }
        Ok(Solved {
            chain,
            g,
            names,
            pay,
            turns,
            q,
            optimal: v[0],
        })
    }

    /// The best choice at turn `t` in state `k` (the first of equals).
    fn best(&self, t: u32, k: usize) -> usize {
        let qs = &self.q[t as usize][k];
        (0..qs.len())
            .max_by(|&a, &b| qs[a].total_cmp(&qs[b]).then(b.cmp(&a)))
            .unwrap_or(0)
    }

    /// Forward under optimal play: how likely each (turn, state) is met.
    pub(super) fn met(&self) -> Vec<Vec<f64>> {
        let g = self.g;
        let n = g.states.len();
        let mut reach = vec![0.0; n];
        reach[0] = 1.0;
        let mut met: Vec<Vec<f64>> = vec![Vec::new(); self.turns as usize + 1];
        for t in 1..=self.turns {
            met[t as usize] = reach.clone();
            let mut next = vec![0.0; n];
            for k in 0..n {
                if reach[k] == 0.0 {
                    continue;
                }
                if g.absorbing[k] {
                    next[k] += reach[k];
                    continue;
                }
                for &(j, p) in &g.moves[k][self.best(t, k)] {
                    next[j] += reach[k] * p;
                }
            }
            reach = next;
        }
        met
    }

    /// Each class's chance at the turn cap under optimal play.
    pub(super) fn at_end(&self) -> Vec<f64> {
        let g = self.g;
        let n = g.states.len();
        let mut reach = vec![0.0; n];
        reach[0] = 1.0;
        for t in 1..=self.turns {
            let mut next = vec![0.0; n];
            for k in (0..n).filter(|&k| reach[k] != 0.0) {
                if g.absorbing[k] {
                    next[k] += reach[k];
                    continue;
                }
                for &(j, p) in &g.moves[k][self.best(t, k)] {
                    next[j] += reach[k] * p;
                }
            }
            reach = next;
        }
        let mut out = vec![0.0; self.pay.len()];
        for k in 0..n {
            out[g.class[k]] += reach[k];
        }
        out
    }

    /// The states with a decision: not absorbing, and not where every choice moves alike (a
    /// unit that may not charge).
    pub(super) fn choosing(&self) -> Vec<bool> {
        let g = self.g;
        let alike = |k: usize| {
            let sorted = |m: &Vec<(usize, f64)>| {
                let mut m = m.clone();
                m.sort_by_key(|x| x.0);
                m
            };
            let first = sorted(&g.moves[k][0]);
            g.moves[k][1..].iter().all(|m| sorted(m) == first)
        };
        (0..g.states.len())
            .map(|k| !g.absorbing[k] && !alike(k))
            .collect()
    }

    /// Dominance: each decision met (the choices differ in worth), weighted by its chance; the
    /// weight each choice is best in, and the weights tied and decided.
    pub(super) fn dominance(&self, met: &[Vec<f64>], choosing: &[bool]) -> (Vec<f64>, f64, f64) {
        let mut shares = vec![0.0; self.names.len()];
        let (mut tied, mut decided) = (0.0, 0.0);
        for t in 1..=self.turns {
            for k in (0..self.g.states.len()).filter(|&k| choosing[k]) {
                let w = met[t as usize][k];
                if w == 0.0 {
                    continue;
                }
                let qs = &self.q[t as usize][k];
                let hi = qs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let lo = qs.iter().copied().fold(f64::INFINITY, f64::min);
                if hi - lo <= TIE {
                    tied += w;
                } else {
                    decided += w;
                    shares[self.best(t, k)] += w;
                }
            }
        }
        (shares, tied, decided)
    }

    /// The policy's table: a row per state and run of turns with the same best choice, for the
    /// states with a decision, the most often reached first.
    pub(super) fn policy(&self, met: &[Vec<f64>], choosing: &[bool]) -> Vec<PolicyRow> {
        let turns = self.turns;
        let mut policy = Vec::new();
        for k in (0..self.g.states.len()).filter(|&k| choosing[k]) {
            let mut t = 1;
            while t <= turns {
                let choice_at = |t: u32| -> (String, f64) {
                    let qs = &self.q[t as usize][k];
                    let hi = qs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let lo = qs.iter().copied().fold(f64::INFINITY, f64::min);
                    match hi - lo <= TIE {
                        true => ("either".to_string(), 0.0),
                        false => (self.names[self.best(t, k)].to_string(), hi - lo),
                    }
                };
                let (choice, margin) = choice_at(t);
                let mut last = t;
                let mut reached = met[t as usize][k];
                while last < turns && choice_at(last + 1).0 == choice {
                    last += 1;
                    reached += met[last as usize][k];
                }
                if reached > 0.0 && choice != "either" {
                    let [own, enemy] = self.chain.play_words(self.g.states[k]);
                    policy.push(PolicyRow {
                        turns: (t, last),
                        own,
                        enemy,
                        choice,
                        margin,
                        reached,
                    });
                }
                t = last + 1;
            }
        }
        policy.sort_by(|a, b| b.reached.total_cmp(&a.reached).then(a.turns.cmp(&b.turns)));
        policy
    }

    /// Fixed ways of playing: the chain's own, each choice always, and (with `thumbs_too`)
    /// rules of thumb; with the simplest rule of thumb within `within` of optimal and the
    /// closest fixed way of all.
    pub(super) fn fixed_ways(
        &self,
        thumbs_too: bool,
        within: f64,
    ) -> (Vec<Valued>, Option<Valued>, Option<Valued>) {
        let (chain, g, pay, names, optimal) =
            (self.chain, self.g, self.pay, self.names, self.optimal);
        let mut fixed = vec![Valued {
            name: "as its settings play it".into(),
            value: value_of(chain, g, pay, &|_, _| None),
            loss: 0.0,
        }];
        for (a, name) in names.iter().enumerate() {
            fixed.push(Valued {
                name: format!("always {name}"),
                value: value_of(chain, g, pay, &|_, _| Some(a)),
                loss: 0.0,
            });
        }
        for f in &mut fixed {
            f.loss = optimal - f.value;
        }
        // Rules of thumb by how much a player must hold in mind (a class each): the simplest
        // class with a rule within reach gives the best rule of that class. Each choice made
        // always is the simplest class of all.
        let mut classes: Vec<Vec<Valued>> = vec![fixed[1..=names.len()].to_vec()];
        let tried = match thumbs_too {
            true => thumbs(chain, g, names),
            false => Vec::new(),
        };
        for (class, words, rule) in tried {
            let value = value_of(chain, g, pay, rule.as_ref());
            let row = Valued {
                name: words,
                value,
                loss: optimal - value,
            };
            while classes.len() <= class {
                classes.push(Vec::new());
            }
            classes[class].push(row.clone());
            fixed.push(row);
        }
        let best_of = |rows: &[Valued]| {
            rows.iter()
                .max_by(|a, b| {
                    a.value
                        .total_cmp(&b.value)
                        .then(b.name.len().cmp(&a.name.len()))
                })
                .cloned()
        };
        let thumb = classes
            .iter()
            .find(|c| c.iter().any(|r| r.loss <= within))
            .and_then(|c| best_of(c));
        let closest = best_of(&fixed[1..]);
        (fixed, thumb, closest)
    }

    /// The table a chain plays: the best choice at every turn in each state with a decision
    /// (elsewhere every choice moves alike, and the chain's own policy stands).
    pub(super) fn table(&self, choosing: &[bool]) -> crate::chain::Played<C::State> {
        crate::chain::Played {
            by_state: (0..self.g.states.len())
                .filter(|&k| choosing[k])
                .map(|k| {
                    let at: Vec<u8> = (1..=self.turns).map(|t| self.best(t, k) as u8).collect();
                    (self.g.states[k], at)
                })
                .collect(),
        }
    }
}
