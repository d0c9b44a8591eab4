//! Play solved: the best choices a side can make under a rule system, found exactly by backward
//! induction over the turn cap on the chain the exact solver walks, beside every fixed way of
//! playing; what good play is worth, whether one choice is (nearly) always right, and the
//! simplest rule of thumb that comes close (in the spirit of Neller and Presser's optimal and
//! practical play of Pig, 2004 and 2010).
//!
//! A chain offers its choices ([`Chain::choices`]: side A's charge in an engagement, hold or
//! charge, made at the start of each turn). The other side has no choice in these models (only
//! side A charges), so the game is one player's decision process and needs no mixed
//! strategies. The objective is a value per outcome class (by default side A holding the field
//! counts 1, side B holding it −1: the chance to hold the field minus the enemy's); the solve
//! maximises its expectation at the turn cap.

use std::collections::HashMap;

use serde::Serialize;

use crate::chain::Chain;
use crate::error::{Error, Result};
use crate::exact::{Watch, enumerate_within};

/// Two values closer than this are the same (a choice between them is no choice).
pub const TIE: f64 = 1e-12;

/// The most states play keeps: past it the solve is refused (a line's field is far beyond).
pub const MAX_STATES: usize = 200_000;

/// What to solve for.
#[derive(Debug, Clone)]
pub struct Ask {
    /// The objective: outcomes with their weights (`side_a_holds` 1 and `side_b_holds` −1:
    /// the chance to hold the field minus the enemy's), its value the weighted sum of the
    /// outcomes' chances at the turn cap.
    pub weights: Vec<(String, f64)>,
    /// A rule of thumb is reported when it comes within this of the optimal value (in the
    /// objective's unit: 0.005 is half a point of a chance).
    pub within: f64,
    /// The seconds the solve may take (`None`: no limit).
    pub budget: Option<f64>,
}

impl Ask {
    /// What a variant with `play = "optimal"` plays for (play's default objective): the chance
    /// side A holds the field minus the chance side B holds it, a rule of thumb within half a
    /// point, with no time limit (the states are bounded).
    pub fn hold_the_field() -> Ask {
        Ask {
            weights: vec![("side_a_holds".into(), 1.0), ("side_b_holds".into(), -1.0)],
            within: 0.005,
            budget: None,
        }
    }

    /// The objective in words: "the chance side A holds − the chance side B holds".
    pub fn words(&self) -> String {
        let mut out = String::new();
        for (i, (key, w)) in self.weights.iter().enumerate() {
            let name = crate::labels::outcome(key).noun;
            let sign = if *w < 0.0 { "−" } else { "+" };
            let size = if (w.abs() - 1.0).abs() < TIE {
                String::new()
            } else {
                format!("{} × ", w.abs())
            };
            out += &match (i, *w < 0.0) {
                (0, false) => format!("{size}{name}"),
                (0, true) => format!("−{size}{name}"),
                _ => format!(" {sign} {size}{name}"),
            };
        }
        out
    }
}

/// The objective as a value per class of a chain whose outcomes are `outcomes` (each gathering
/// classes), for `classes` classes.
///
/// # Errors
/// An outcome the objective names that the scenario does not have.
pub(crate) fn payoff(ask: &Ask, outcomes: &[(&str, &[usize])], classes: usize) -> Result<Vec<f64>> {
    let mut pay = vec![0.0; classes];
    for (name, w) in &ask.weights {
        let (_, of) = outcomes
            .iter()
            .find(|(n, _)| n == name)
            .ok_or_else(|| Error::Invalid {
                what: "--objective".into(),
                value: name.clone(),
                allowed: format!(
                    "an outcome of this scenario: {}",
                    outcomes
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })?;
        for &c in *of {
            pay[c] += w;
        }
    }
    Ok(pay)
}

/// Why `scenario` has nothing for play to solve, in words: a line's charges are not solved
/// yet; every other scenario but an engagement leaves side A no choice.
pub(crate) fn no_choice(scenario: &str) -> Error {
    Error::Conflict(match scenario {
        "line" => "play: a line's charges, chosen file by file, are not solved yet; play solves side A's charge in an engagement (scenario engagement)".into(),
        other => format!(
            "play: the {other} scenario leaves side A no choice to solve; play solves side A's charge in an engagement (scenario engagement)"
        ),
    })
}

/// A way of playing and its exact value.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Valued {
    /// The way of playing in words.
    pub name: String,
    /// Its expected objective at the turn cap, exact.
    pub value: f64,
    /// Its loss against optimal play.
    pub loss: f64,
}

/// One row of the optimal policy: a state the deciding side can face, the turns at which the
/// choice is the same, the best choice and what each choice is worth there.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PolicyRow {
    /// The first and last turn (from 1) the row covers.
    pub turns: (u32, u32),
    /// The deciding side's unit in words.
    pub own: String,
    /// The other side's unit in words.
    pub enemy: String,
    /// The best choice (`either` where both are worth the same).
    pub choice: String,
    /// What the best choice gains over the other, at the row's first turn.
    pub margin: f64,
    /// How many of these turns side A can expect to face this state under optimal play (the
    /// chances of facing it at each, added up).
    pub reached: f64,
}

/// How often each choice is the best one, weighted by how likely its states are under optimal
/// play.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Share {
    /// The choice.
    pub choice: String,
    /// Its share of the decisions met (the decisions where the choices differ in worth).
    pub share: f64,
}

/// Play solved.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Solution {
    /// What was solved: the system, scenario, parameters, rules and options, one line each
    /// (as a scenario's report heads them).
    pub setting: Vec<String>,
    /// The objective in words.
    pub objective: String,
    /// The choices, in the chain's order.
    pub choices: Vec<String>,
    /// Turns solved.
    pub turns: u32,
    /// States play told apart.
    pub states: usize,
    /// The value under optimal play (exact).
    pub optimal: f64,
    /// The chain's own policy (its parameters), always each choice, and the rules of thumb
    /// tried, each with its exact value.
    pub fixed: Vec<Valued>,
    /// The simplest rule of thumb within [`Ask::within`] of optimal, if any (the best of the
    /// simplest kind that has one).
    pub thumb: Option<Valued>,
    /// The fixed way of playing tried that comes closest to optimal, whatever its kind.
    pub closest: Option<Valued>,
    /// How often each choice is best in the decisions met under optimal play (the choices
    /// worth the same are left out).
    pub shares: Vec<Share>,
    /// Of the decisions met under optimal play, the share where the choices are worth the same.
    pub indifferent: f64,
    /// Decisions met under optimal play (the expected number of turns with a real choice).
    pub decisions_met: f64,
    /// The optimal policy, a row per state and run of turns alike, most often met first.
    pub policy: Vec<PolicyRow>,
    /// Each outcome's chance at the turn cap under the best play (the scenario's outcomes, in
    /// its order): what the value is made of ("side A holds 70.29%").
    pub outcomes: Vec<(String, f64)>,
}

impl Solution {
    /// The chain's own policy's row.
    pub fn own(&self) -> &Valued {
        &self.fixed[0]
    }
    /// The best single choice made every turn.
    pub fn best_always(&self) -> Option<&Valued> {
        // Ties go as the rule of thumb's do (the shorter name, then the first): a setting
        // where the choices are worth the same names one choice in both sentences.
        self.fixed
            .iter()
            .filter(|f| f.name.starts_with("always "))
            .rev()
            .max_by(|a, b| {
                a.value
                    .total_cmp(&b.value)
                    .then(b.name.len().cmp(&a.name.len()))
            })
    }
}

/// The states play tells apart, with each one's moves under every choice (and under the
/// chain's own policy at each turn it reads), kept as indices.
struct Graph<S> {
    states: Vec<S>,
    index: HashMap<S, usize>,
    absorbing: Vec<bool>,
    class: Vec<usize>,
    /// `moves[k][a]`: the next states of state `k` under choice `a`, with their chances.
    moves: Vec<Vec<Vec<(usize, f64)>>>,
    /// The chain's own policy's moves, by (state, own turn).
    own: HashMap<(usize, u32), Vec<(usize, f64)>>,
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
    let mut at: HashMap<C::State, usize> = HashMap::new();
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
fn graph<C: Chain>(chain: &C, watch: &Watch) -> Result<Graph<C::State>> {
    let classes = chain.classes();
    let mut g = Graph {
        states: Vec::new(),
        index: HashMap::new(),
        absorbing: Vec::new(),
        class: Vec::new(),
        moves: Vec::new(),
        own: HashMap::new(),
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
type Rule<'a> = dyn Fn(u32, usize) -> Option<usize> + 'a;

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

/// Solve play: the optimal policy and value (and the policy as a table a chain can play,
/// [`Chain::with_play`]), every fixed way of playing's value, how dominant each choice is, and
/// with `thumbs_too` the simplest rule of thumb close to optimal (a chain that only plays the
/// table needs none).
///
/// # Errors
/// The chain has no choices; too many states; the watch's cancel flag, budget or bounds.
pub(crate) fn solve_with<C: Chain>(
    chain: &C,
    ask: &Ask,
    (pay, outcomes): (&[f64], &[(&str, &[usize])]),
    watch: &Watch,
    thumbs_too: bool,
) -> Result<(Solution, crate::chain::Played<C::State>)> {
    let names = chain.choices();
    if names.is_empty() {
        return Err(Error::Conflict(
            "play: this setting leaves no choice to solve (play solves side A's charge in an engagement)".into(),
        ));
    }
    if pay.len() != chain.classes().len() {
        return Err(Error::Conflict(
            "play: the objective does not fit this scenario's outcomes".into(),
        ));
    }
    let g = graph(chain, watch)?;
    let solved = Solved::backward(chain, &g, names, pay, watch)?;
    let met = solved.met();
    let choosing = solved.choosing();
    let (shares, tied, decided) = solved.dominance(&met, &choosing);
    let all = tied + decided;
    let policy = solved.policy(&met, &choosing);
    let (fixed, thumb, closest) = solved.fixed_ways(thumbs_too, ask.within);
    let table = solved.table(&choosing);
    let at_end = solved.at_end();
    let solution = Solution {
        setting: Vec::new(),
        objective: ask.words(),
        choices: names.iter().map(|s| s.to_string()).collect(),
        turns: solved.turns,
        states: g.states.len(),
        optimal: solved.optimal,
        fixed,
        thumb,
        closest,
        shares: names
            .iter()
            .zip(&shares)
            .map(|(c, w)| Share {
                choice: c.to_string(),
                share: if decided > 0.0 { w / decided } else { 0.0 },
            })
            .collect(),
        indifferent: if all > 0.0 { tied / all } else { 0.0 },
        decisions_met: decided,
        policy,
        outcomes: outcomes
            .iter()
            .map(|(name, of)| (name.to_string(), of.iter().map(|&c| at_end[c]).sum()))
            .collect(),
    };
    Ok((solution, table))
}

/// A chain's graph solved backward: the worth of every choice at every turn in every state.
struct Solved<'a, C: Chain> {
    chain: &'a C,
    g: &'a Graph<C::State>,
    names: &'a [&'a str],
    pay: &'a [f64],
    turns: u32,
    /// `q[t][k][a]`: the value of choice `a` at turn `t` in state `k`, then playing optimally.
    q: Vec<Vec<Vec<f64>>>,
    /// The value of optimal play from the start.
    optimal: f64,
}

impl<'a, C: Chain> Solved<'a, C> {
    /// Backward over the turns, from the payoff of each state's class at the turn cap.
    ///
    /// # Errors
    /// The watch's cancel flag, budget or bounds.
    fn backward(
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
    fn met(&self) -> Vec<Vec<f64>> {
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
    fn at_end(&self) -> Vec<f64> {
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
    fn choosing(&self) -> Vec<bool> {
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
    fn dominance(&self, met: &[Vec<f64>], choosing: &[bool]) -> (Vec<f64>, f64, f64) {
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
    fn policy(&self, met: &[Vec<f64>], choosing: &[bool]) -> Vec<PolicyRow> {
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
    fn fixed_ways(
        &self,
        thumbs_too: bool,
        within: f64,
    ) -> (Vec<Valued>, Option<Valued>, Option<Valued>) {
        let (chain, g, pay, names, optimal) =
            (self.chain, self.g, self.pay, self.names, self.optimal);
        let mut fixed = vec![Valued {
            name: "as the parameters set it".into(),
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
    fn table(&self, choosing: &[bool]) -> crate::chain::Played<C::State> {
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

/// The rules of thumb tried, simplest first: one feature against a threshold (charge when the
/// enemy is shaken; when the enemy has `k` or less left; when we have `k` or more), then the
/// shaken rule or a threshold, in the order a player would learn them.
#[allow(clippy::type_complexity)]
fn thumbs<'a, C: Chain>(
    chain: &'a C,
    g: &'a Graph<C::State>,
    names: &'a [&'a str],
) -> Vec<(usize, String, Box<Rule<'a>>)> {
    let (hold, charge) = match names {
        [h, c] => (*h, *c),
        _ => return Vec::new(),
    };
    let features: Vec<Vec<(String, i64)>> =
        g.states.iter().map(|s| chain.play_features(*s)).collect();
    let state_names: Vec<String> = features
        .first()
        .map(|f| {
            f.iter()
                .filter_map(|(n, _)| n.strip_prefix("enemy ").map(str::to_string))
                .filter(|n| !["strength", "shaken"].contains(&n.as_str()))
                .collect()
        })
        .unwrap_or_default();
    let feature = move |k: usize, name: &str| -> Option<i64> {
        features[k].iter().find(|(n, _)| n == name).map(|f| f.1)
    };
    let feature = std::sync::Arc::new(feature);
    let range = |name: &str| -> Vec<i64> {
        let mut v: Vec<i64> = (0..g.states.len())
            .filter_map(|k| feature(k, name))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    // Classes: 1 one state of the enemy's or one number; 2 two parts; 3 and 4 the same with a
    // turn (a timing the turn limit makes, offered last).
    let mut out: Vec<(usize, String, Box<Rule<'a>>)> = Vec::new();
    // A state of the enemy's by name (`enemy routing`), where some state met has it.
    let mut states = state_names;
    states.retain(|st| (0..g.states.len()).any(|k| feature(k, &format!("enemy {st}")) == Some(1)));
    for st in &states {
        let f = feature.clone();
        let name = format!("enemy {st}");
        out.push((
            1,
            format!(
                "{charge} when the enemy is {}, else {hold}",
                st.replace('_', " ")
            ),
            Box::new(move |_, k| Some(usize::from(f(k, &name) == Some(1)))),
        ));
    }
    let f = feature.clone();
    out.push((
        1,
        format!("{charge} when the enemy is shaken, else {hold}"),
        Box::new(move |_, k| Some(usize::from(f(k, "enemy shaken") == Some(1)))),
    ));
    for x in range("enemy strength") {
        let f = feature.clone();
        out.push((
            1,
            format!("{charge} when the enemy has {x} or less left, else {hold}"),
            Box::new(move |_, k| Some(usize::from(f(k, "enemy strength").is_some_and(|v| v <= x)))),
        ));
    }
    for x in range("own strength") {
        let f = feature.clone();
        out.push((
            1,
            format!("{charge} while we have {x} or more left, else {hold}"),
            Box::new(move |_, k| Some(usize::from(f(k, "own strength").is_some_and(|v| v >= x)))),
        ));
    }
    for x in range("enemy strength") {
        let f = feature.clone();
        out.push((
            2,
            format!("{charge} when the enemy is shaken or has {x} or less left, else {hold}"),
            Box::new(move |_, k| {
                Some(usize::from(
                    f(k, "enemy shaken") == Some(1)
                        || f(k, "enemy strength").is_some_and(|v| v <= x),
                ))
            }),
        ));
    }
    for x in 1..=chain.turns() {
        out.push((
            3,
            format!("{hold} before turn {x}, {charge} from turn {x} on"),
            Box::new(move |t, _| Some(usize::from(t >= x))),
        ));
    }
    // Two parts: an enemy's state, or from a turn on (the last turns play for the cap).
    for st in &states {
        for x in 2..=chain.turns() {
            let f = feature.clone();
            let name = format!("enemy {st}");
            out.push((
                4,
                format!(
                    "{charge} when the enemy is {} or from turn {x} on, else {hold}",
                    st.replace('_', " ")
                ),
                Box::new(move |t, k| Some(usize::from(t >= x || f(k, &name) == Some(1)))),
            ));
        }
    }
    out
}

/// A value of the objective in percentage points, signed, with `unit`: `+12.34 pp`.
fn points_in(x: f64, unit: &str) -> String {
    let v = 100.0 * x;
    let v = if v.abs() < 0.005 { 0.0 } else { v };
    format!("{}{:.2} {unit}", if v < 0.0 { "−" } else { "+" }, v.abs())
}

/// A share as a percentage that does not round a trace away: 100% only when it is all.
fn share(x: f64) -> String {
    match x {
        x if x >= 1.0 => "100%".into(),
        x if x <= 0.0 => "0%".into(),
        x if x > 0.999 => format!("{:.3}%", 100.0 * x).replace("100.000%", "99.999%"),
        x => format!("{:.1}%", 100.0 * x),
    }
}

impl Solution {
    /// The answer in a few sentences: the value of optimal play beside the parameters' policy
    /// and the best single choice, whether a choice is dominant, and the rule of thumb.
    pub fn answer(&self) -> String {
        self.answer_in("pp")
    }

    /// [`Solution::answer`] with its points in `unit` (`pp`, or `points` where a report says
    /// "points").
    pub fn answer_in(&self, unit: &str) -> String {
        let points = |x: f64| points_in(x, unit);
        let own = self.own();
        let mut out = format!(
            "Measured as {} (in percentage points{}, from −100 to +100): side A's best play scores {}; played as the parameters set it, {}, so good play is worth {}.",
            self.objective,
            if unit == "pp" { ", pp" } else { "" },
            points(self.optimal),
            points(own.value),
            points(own.loss).trim_start_matches('+')
        );
        // What the best play's value is made of: each outcome's chance (explorer trial 63
        // looked for best play's own chance to hold).
        let shares: Vec<String> = self
            .outcomes
            .iter()
            .map(|(name, p)| {
                format!(
                    "{} {}",
                    crate::labels::outcome(name).head,
                    crate::labels::percent(*p)
                )
            })
            .collect();
        if !shares.is_empty() {
            out += &format!(" Under the best play: {}.", shares.join(", "));
        }
        if let Some(best) = self.best_always() {
            out += &format!(
                " The best choice made every turn alike, {}, scores {}: choosing turn by turn is worth {}.",
                best.name,
                points(best.value),
                points(best.loss).trim_start_matches('+')
            );
        }
        let top = self
            .shares
            .iter()
            .max_by(|a, b| a.share.total_cmp(&b.share));
        match top {
            _ if self.decisions_met <= TIE => {
                out += " No decision met under the best play changes the outcome: the choice is no choice here.";
            }
            Some(t) if t.share >= 1.0 => {
                out += &format!(
                    " {} is the better choice in every decision met that matters: it is dominant.",
                    capital(&t.choice)
                )
            }
            Some(t) if t.share >= 0.95 => {
                out += &format!(
                    " {} is the better choice in {} of the decisions met that matter: nearly dominant.",
                    capital(&t.choice),
                    share(t.share)
                )
            }
            Some(_) => {
                let parts: Vec<String> = self
                    .shares
                    .iter()
                    .map(|s| format!("{} {}", s.choice, share(s.share)))
                    .collect();
                out += &format!(
                    " Neither choice dominates: of the decisions met that matter, {}.",
                    parts.join(", ")
                );
            }
            None => {}
        }
        match (&self.thumb, &self.closest) {
            (Some(t), _) => {
                out += &format!(
                    " Rule of thumb: {}; it scores {}, {} short of the best.",
                    t.name,
                    points(t.value),
                    points(t.loss).trim_start_matches('+')
                );
                if t.name.contains("turn ") {
                    out += &format!(
                        " Its turn is a timing the turn limit ({} turns) makes: a fight is scored where it stands at the last turn.",
                        self.turns
                    );
                    if let Some(w) = self
                        .fixed
                        .iter()
                        .skip(1)
                        .filter(|f| !f.name.contains("turn "))
                        .max_by(|a, b| a.value.total_cmp(&b.value))
                    {
                        out += &format!(
                            " Without a turn in it, the best rule tried is: {}, {} short.",
                            w.name,
                            points(w.loss).trim_start_matches('+')
                        );
                    }
                }
            }
            (None, Some(c)) => {
                out += &format!(
                    " No simple rule tried comes within reach of the best; the closest, {}, is {} short.",
                    c.name,
                    points(c.loss).trim_start_matches('+')
                );
            }
            (None, None) => {}
        }
        out
    }

    /// The ways of playing shown: optimal play, the parameters' own, each choice always, the
    /// rule of thumb (or the closest tried).
    pub fn ways(&self, unit: &str) -> Vec<Vec<String>> {
        let points = |x: f64| points_in(x, unit);
        let mut rows = vec![vec![
            "way of playing".to_string(),
            "value".to_string(),
            "short of the best".to_string(),
        ]];
        rows.push(vec!["best play".into(), points(self.optimal), "—".into()]);
        let mut shown: Vec<&Valued> = self.fixed.iter().take(1 + self.choices.len()).collect();
        for extra in [&self.thumb, &self.closest].into_iter().flatten() {
            if !shown.iter().any(|f| f.name == extra.name) {
                shown.push(extra);
            }
        }
        for f in shown {
            rows.push(vec![
                f.name.clone(),
                points(f.value),
                points(f.loss).trim_start_matches('+').to_string(),
            ]);
        }
        rows
    }

    /// The best choice by state: the `rows` most met, of those met in at least a thousandth
    /// of a turn.
    pub fn states(&self, rows: usize, unit: &str) -> (Vec<Vec<String>>, usize) {
        let points = |x: f64| points_in(x, unit);
        let mut t = vec![vec![
            "turns".to_string(),
            "side A".to_string(),
            "side B".to_string(),
            "best".to_string(),
            "gains".to_string(),
            "turns met".to_string(),
        ]];
        let met: Vec<&PolicyRow> = self.policy.iter().filter(|r| r.reached >= 1e-3).collect();
        for r in met.iter().take(rows) {
            t.push(vec![
                match r.turns.0 == r.turns.1 {
                    true => r.turns.0.to_string(),
                    false => format!("{}–{}", r.turns.0, r.turns.1),
                },
                r.own.clone(),
                r.enemy.clone(),
                r.choice.clone(),
                points(r.margin),
                format!("{:.3}", r.reached),
            ]);
        }
        (t, met.len())
    }

    /// What the state table's columns mean.
    pub fn states_note(&self, unit: &str) -> String {
        format!(
            "gains: what the best choice adds over the other at the first of those turns, played well after (on the scale of −100 to +100 {unit}, so a gain can pass 100); turns met: how many of those turns side A can expect to face that state under the best play. Charge: advance a move a turn while out of reach, and charge when able. Left out: states where the choices are worth the same (side A may not charge, or charging changes nothing), and states met in under a thousandth of a turn. Choices in the last turns play for the turn limit ({} turns): a fight is scored where it stands then.",
            self.turns
        )
    }

    fn turns_words(&self) -> String {
        format!(
            "{} turn{}, {} states told apart; side B has no choice in this model (only side A charges), so no mixed strategy is needed.",
            self.turns,
            if self.turns == 1 { "" } else { "s" },
            self.states
        )
    }

    /// Aligned plain text: what was solved, the answer, the ways of playing and the policy's
    /// most met rows.
    pub fn to_text(&self, rows: usize) -> String {
        let mut out = String::new();
        for l in &self.setting {
            out += &crate::report::wrap(l, 100);
        }
        if !self.setting.is_empty() {
            out += "\n";
        }
        out += &crate::report::wrap(&self.answer(), 100);
        out += &format!("\n{}\n\n", self.turns_words());
        out += &crate::report::align_left(&self.ways("pp"), 1);
        let (t, met) = self.states(rows, "pp");
        out += &format!(
            "\nThe best choice by state (the {} most often met under the best play, of {}):\n",
            (t.len() - 1).min(met),
            met
        );
        out += &crate::report::align_left(&t, 3);
        out += &crate::report::wrap(&format!("({})", self.states_note("pp")), 100);
        out
    }

    /// Markdown: the answer, the ways of playing and the best choice by state as tables.
    pub fn to_markdown(&self, rows: usize) -> String {
        let mut out = String::from("# Play solved\n\n");
        for l in &self.setting {
            out += &format!("- {l}\n");
        }
        out += &format!("\n{}\n\n{}\n\n", self.answer(), self.turns_words());
        out += &crate::report::md_table(&self.ways("pp"));
        let (t, met) = self.states(rows, "pp");
        out += &format!(
            "\n**The best choice by state** (the {} most often met under the best play, of {})\n\n",
            (t.len() - 1).min(met),
            met
        );
        out += &crate::report::md_table(&t);
        out += &format!("\n*{}*\n", self.states_note("pp"));
        out
    }

    /// CSV: every row of the best choice by state (`reached` is the turns met).
    pub fn to_csv(&self) -> String {
        let mut rows = vec![vec![
            "first_turn".to_string(),
            "last_turn".to_string(),
            "side_a".to_string(),
            "side_b".to_string(),
            "best".to_string(),
            "gain".to_string(),
            "turns_met".to_string(),
        ]];
        for r in &self.policy {
            rows.push(vec![
                r.turns.0.to_string(),
                r.turns.1.to_string(),
                r.own.clone(),
                r.enemy.clone(),
                r.choice.clone(),
                r.margin.to_string(),
                r.reached.to_string(),
            ]);
        }
        crate::report::csv_text(rows)
    }

    /// Render in `format`, with at most `rows` rows of the best choice by state in text and
    /// Markdown (CSV and JSON have them all).
    pub fn render(&self, format: crate::report::Format, rows: usize) -> String {
        use crate::report::Format;
        match format {
            Format::Json => crate::report::pretty_json(self),
            Format::Markdown => self.to_markdown(rows),
            Format::Csv => self.to_csv(),
            Format::Text => self.to_text(rows),
        }
    }
}

/// The most states of a side the map of the best choice shows (the most met).
const MAP_MOST: usize = 14;

impl Solution {
    /// The map of the best choice by state: side A's states across, side B's down (each in
    /// order of state, then strength, the most met kept where there are more than
    /// [`MAP_MOST`]), each cell coloured by the best choice there, or by the choice it starts
    /// with where the best choice changes as the turn limit nears (the cell gives the turn it
    /// changes). States met in under a thousandth of a turn are left out, as in the table.
    pub fn chart(&self, title: &str) -> crate::report::chart::Chart {
        use crate::report::chart::{Chart, Choices, colour};
        // Each state's runs of turns, in turn order, and how often it is met.
        let mut states: Vec<((String, String), Vec<&PolicyRow>, f64)> = Vec::new();
        for r in &self.policy {
            let key = (r.own.clone(), r.enemy.clone());
            match states.iter_mut().find(|s| s.0 == key) {
                Some(s) => {
                    s.1.push(r);
                    s.2 += r.reached;
                }
                None => states.push((key, vec![r], r.reached)),
            }
        }
        states.retain(|s| s.2 >= 1e-3);
        for s in &mut states {
            s.1.sort_by_key(|r| r.turns.0);
        }
        let axis = |side: usize| -> Vec<String> {
            let mut met: Vec<(String, f64)> = Vec::new();
            for ((own, enemy), _, reached) in &states {
                let name = if side == 0 { own } else { enemy };
                match met.iter_mut().find(|m| &m.0 == name) {
                    Some(m) => m.1 += reached,
                    None => met.push((name.clone(), *reached)),
                }
            }
            met.sort_by(|a, b| b.1.total_cmp(&a.1));
            met.truncate(MAP_MOST);
            // The state's name first (in order of how often met), then the most left first.
            let status_rank: Vec<String> = {
                let mut seen: Vec<String> = Vec::new();
                for (n, _) in &met {
                    let st = status_of(n);
                    if !seen.contains(&st) {
                        seen.push(st);
                    }
                }
                seen
            };
            let mut names: Vec<String> = met.into_iter().map(|m| m.0).collect();
            names.sort_by_key(|n| {
                let rank = status_rank.iter().position(|st| *st == status_of(n));
                let (left, rest) = left_of(n);
                (rank, rest, std::cmp::Reverse(left))
            });
            names
        };
        let (xs, ys) = (axis(0), axis(1));
        let n = self.choices.len();
        let tint = |c: plotters::style::RGBColor| {
            let f = |v: u8| (255.0 - (255.0 - v as f64) * 0.45).round() as u8;
            plotters::style::RGBColor(f(c.0), f(c.1), f(c.2))
        };
        let base: Vec<plotters::style::RGBColor> = (0..n)
            .map(|i| colour(if i == 0 { 0 } else { i + 2 }))
            .collect();
        let mut kinds: Vec<(String, plotters::style::RGBColor)> = self
            .choices
            .iter()
            .zip(&base)
            .map(|(c, col)| (c.clone(), *col))
            .collect();
        let mut cells = vec![vec![None; xs.len()]; ys.len()];
        let index = |c: &str| self.choices.iter().position(|x| x == c);
        for ((own, enemy), runs, _) in &states {
            let (Some(xi), Some(yi)) = (
                xs.iter().position(|x| x == own),
                ys.iter().position(|y| y == enemy),
            ) else {
                continue;
            };
            let (Some(first), Some(last)) = (runs.first(), runs.last()) else {
                continue;
            };
            let (Some(a), Some(b)) = (index(&first.choice), index(&last.choice)) else {
                continue;
            };
            let cell = if runs.iter().all(|r| r.choice == first.choice) {
                (a, self.choices[a].clone())
            } else {
                let name = format!(
                    "{}, then {} from the turn shown",
                    self.choices[a], self.choices[b]
                );
                let kind = match kinds.iter().position(|k| k.0 == name) {
                    Some(k) => k,
                    None => {
                        kinds.push((name, tint(base[a])));
                        kinds.len() - 1
                    }
                };
                (kind, format!("{} from {}", self.choices[b], last.turns.0))
            };
            cells[yi][xi] = Some(cell);
        }
        let late = kinds.len() > n;
        Chart::Choices(Choices {
            title: title.to_string(),
            x: ("side A (the side that chooses)".into(), xs),
            y: ("side B".into(), ys),
            cells,
            kinds,
            note: format!(
                "Each side's state: its morale state and what it has left. A blank cell: a state not met under the best play, met in under a thousandth of a turn, or one where the choices are worth the same. Turn limit: {} turns{}.",
                self.turns,
                // "Charge from 11" beside a rule of thumb "from turn 12" read as a disagreement
                // (explorer trial 63): a late change plays for the limit.
                match late {
                    true =>
                        "; a choice that changes in the last turns plays for it, as a fight is scored where it stands then",
                    false => "",
                }
            ),
        })
    }
}

/// A unit's state in words (`unsteady 5/6, blown`) without what it has left: `unsteady`.
fn status_of(words: &str) -> String {
    words
        .split(|c: char| c.is_ascii_digit())
        .next()
        .unwrap_or(words)
        .trim()
        .to_string()
}

/// What a unit in `words` has left (`5` of `unsteady 5/6, blown`) and the words after it.
fn left_of(words: &str) -> (i64, String) {
    let start = words
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(words.len());
    let digits: String = words[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    let after = words[start..]
        .split_once([',', ' '])
        .map(|(_, r)| r.to_string())
        .unwrap_or_default();
    (digits.parse().unwrap_or(0), after)
}

/// `s` with its first letter capital.
fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
