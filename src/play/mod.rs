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

use serde::Serialize;

use crate::chain::Chain;
use crate::error::{Error, Result};
use crate::exact::{Watch, enumerate_within};

mod graph;
mod map;
mod render;
pub(crate) use render::share;
mod solve;
mod thumbs;

use graph::graph;
use solve::Solved;

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
