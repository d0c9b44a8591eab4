//! The map of the best choice by state, as a chart.

use super::*;

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
        let pale = |c: plotters::style::RGBColor| {
            let f = |v: u8| (255.0 - (255.0 - v as f64) * 0.2).round() as u8;
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
            // A change in the last turn alone is the turn limit's, not the state's: such a cell
            // takes a paler shade of its first choice, named, and no number (a map of "12"s hid the
            // changes that matter, explorer trial 110).
            let last_only = last.turns.0 == self.turns
                && runs.len() > 1
                && runs[..runs.len() - 1]
                    .iter()
                    .all(|r| r.choice == first.choice);
            let cell = if runs.iter().all(|r| r.choice == first.choice) {
                (a, self.choices[a].clone())
            } else if last_only {
                let name = format!(
                    "{}, {} in the last turn only",
                    self.choices[a], self.choices[b]
                );
                (
                    kind_of(&mut kinds, name, pale(base[a])),
                    self.choices[a].clone(),
                )
            } else {
                let name = format!(
                    "{}, then {} from the turn shown",
                    self.choices[a], self.choices[b]
                );
                (
                    kind_of(&mut kinds, name, tint(base[a])),
                    format!("{} from {}", self.choices[b], last.turns.0),
                )
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
            bare: false,
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

/// The index of the kind of cell named `name` in `kinds`, added with `colour` where it is new.
fn kind_of(
    kinds: &mut Vec<(String, plotters::style::RGBColor)>,
    name: String,
    colour: plotters::style::RGBColor,
) -> usize {
    match kinds.iter().position(|k| k.0 == name) {
        Some(k) => k,
        None => {
            kinds.push((name, colour));
            kinds.len() - 1
        }
    }
}
