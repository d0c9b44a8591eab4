//! The fit: the cost formula fitted to side A's scores by damped Gauss–Newton on the logits,
//! with intervals from its covariance.

use super::{Fit, Matchup, PointsFile, Score};
use crate::error::{Error, Result};
use crate::stats::z_for_confidence;

/// Scores are kept this far from 0 and 1 before their logit is taken.
const CLIP: f64 = 1e-6;

/// Solve `a x = b` (a square, by Gaussian elimination with partial pivoting); `None` when `a`
/// is singular to working precision.
fn solve_linear(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    let scale = a
        .iter()
        .flatten()
        .fold(0.0f64, |m, x| m.max(x.abs()))
        .max(f64::MIN_POSITIVE);
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() <= 1e-12 * scale {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..n {
            let f = a[r][c] / a[c][c];
            for k in c..n {
                a[r][k] -= f * a[c][k];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

fn logit(p: f64) -> f64 {
    let p = p.clamp(CLIP, 1.0 - CLIP);
    (p / (1.0 - p)).ln()
}

/// Fit the cost formula to side A's scores in `plan` (see the module's description).
///
/// # Errors
/// [`Error::Conflict`] when the matchups are too few for the numbers fitted, or cannot tell two
/// terms apart (they always come together), or a worth falls to 0 or below.
pub fn fit(file: &PointsFile, plan: &[Matchup], scores: &[Score], confidence: f64) -> Result<Fit> {
    let free: Vec<usize> = (0..file.terms.len())
        .filter(|&t| t != file.reference)
        .collect();
    let np = 2 + free.len();
    if plan.len() <= np {
        return Err(Error::Conflict(format!(
            "{} matchups cannot fit {np} numbers (side A's edge, the slope and {} costs): name more unit types or a larger spread",
            plan.len(),
            free.len()
        )));
    }
    let model = Model::new(file, plan, scores, free, np);
    let Some(at) = model.at(model.start()) else {
        return Err(Error::Conflict(
            "the file's costs give a unit a worth of 0 or less".into(),
        ));
    };
    let at = model.descend(at);
    let inv = model.inverse(&at.jac, &at.res)?;
    let At { p, rss, .. } = at;
    let free = &model.free;
    let dof = (plan.len() - np) as f64;
    let sigma2 = rss / dof;
    let z = z_for_confidence(confidence);
    let se_p: Vec<f64> = (0..np)
        .map(|i| (inv[i][i].max(0.0) * sigma2).sqrt())
        .collect();
    let costs = model.costs_of(&p);
    let mut se = vec![0.0; file.terms.len()];
    for (k, &t) in free.iter().enumerate() {
        se[t] = se_p[2 + k];
    }
    let rounded = rounded(file, &costs);
    Ok(Fit {
        low: costs.iter().zip(&se).map(|(c, s)| c - z * s).collect(),
        high: costs.iter().zip(&se).map(|(c, s)| c + z * s).collect(),
        rounded,
        costs,
        se,
        k: p[1],
        k_se: se_p[1],
        h: p[0],
        h_se: se_p[0],
        sigma: sigma2.sqrt(),
        matchups: plan.len(),
        parameters: np,
    })
}

/// What the fit holds while it searches: the file, the plan, each matchup's logit and weight,
/// and the terms fitted (every one but the reference).
struct Model<'a> {
    file: &'a PointsFile,
    plan: &'a [Matchup],
    /// The terms fitted, by index.
    free: Vec<usize>,
    /// Numbers fitted: side A's edge, the slope, and a cost for each free term.
    np: usize,
    /// Each unit type's count of each term.
    counts: Vec<Vec<f64>>,
    /// Units a side.
    units: f64,
    /// Side A's score in each matchup, as a logit.
    y: Vec<f64>,
    /// Each matchup's weight (the logit's inverse variance).
    w: Vec<f64>,
}

/// A point of the search: the numbers, the weighted sum of squared residuals there, the
/// Jacobian and the residuals.
struct At {
    p: Vec<f64>,
    rss: f64,
    jac: Vec<Vec<f64>>,
    res: Vec<f64>,
}

impl<'a> Model<'a> {
    fn new(
        file: &'a PointsFile,
        plan: &'a [Matchup],
        scores: &[Score],
        free: Vec<usize>,
        np: usize,
    ) -> Model<'a> {
        let counts: Vec<Vec<f64>> = (0..file.units.len()).map(|i| file.counts(i)).collect();
        let units = f64::from(file.units_a_side);
        let y: Vec<f64> = scores.iter().map(|s| logit(s.value)).collect();
        let w: Vec<f64> = scores
            .iter()
            .map(|s| {
                let p = s.value.clamp(0.01, 0.99);
                p * (1.0 - p)
            })
            .collect();
        Model {
            file,
            plan,
            free,
            np,
            counts,
            units,
            y,
            w,
        }
    }

    /// d worth / d cost of each term, for a side with `n` steps (each unit of a line pays its
    /// per-unit terms).
    fn grad(&self, i: usize, n: u32) -> Vec<f64> {
        self.file
            .terms
            .iter()
            .zip(&self.counts[i])
            .map(|(t, c)| {
                if t.per_stand {
                    f64::from(n) * c
                } else {
                    self.units * c
                }
            })
            .collect()
    }

    fn worth(&self, costs: &[f64], i: usize, n: u32) -> f64 {
        self.grad(i, n).iter().zip(costs).map(|(g, c)| g * c).sum()
    }

    /// The costs at `p`: the file's, with the free terms' from `p`.
    fn costs_of(&self, p: &[f64]) -> Vec<f64> {
        let mut c = self.file.file_costs();
        for (k, &t) in self.free.iter().enumerate() {
            c[t] = p[2 + k];
        }
        c
    }

    /// Residuals and Jacobian at p; None where a worth is not positive.
    fn at(&self, p: Vec<f64>) -> Option<At> {
        let c = self.costs_of(&p);
        let mut rss = 0.0;
        let mut jac = Vec::with_capacity(self.plan.len());
        let mut res = Vec::with_capacity(self.plan.len());
        for (m, (&yi, &wi)) in self.plan.iter().zip(self.y.iter().zip(&self.w)) {
            let (wa, wb) = (
                self.worth(&c, m.a, m.a_stands),
                self.worth(&c, m.b, m.b_stands),
            );
            if wa <= 0.0 || wb <= 0.0 || !wa.is_finite() || !wb.is_finite() {
                return None;
            }
            let d = wa.ln() - wb.ln();
            let eta = p[0] + p[1] * d;
            let (ga, gb) = (self.grad(m.a, m.a_stands), self.grad(m.b, m.b_stands));
            let mut row = vec![1.0, d];
            row.extend(self.free.iter().map(|&t| p[1] * (ga[t] / wa - gb[t] / wb)));
            res.push(yi - eta);
            rss += wi * (yi - eta).powi(2);
            jac.push(row);
        }
        Some(At { p, rss, jac, res })
    }

    /// The weighted normal equations at a point: JᵀWJ and JᵀWr.
    fn normal(&self, jac: &[Vec<f64>], res: &[f64]) -> (Vec<Vec<f64>>, Vec<f64>) {
        let np = self.np;
        let mut a = vec![vec![0.0; np]; np];
        let mut g = vec![0.0; np];
        for ((row, r), wi) in jac.iter().zip(res).zip(&self.w) {
            for i in 0..np {
                g[i] += wi * row[i] * r;
                for j in 0..np {
                    a[i][j] += wi * row[i] * row[j];
                }
            }
        }
        (a, g)
    }

    /// Start: the file's costs, with the edge and slope that fit them best (a straight line).
    fn start(&self) -> Vec<f64> {
        let mut p = vec![0.0, 1.0];
        p.extend(self.free.iter().map(|&t| self.file.terms[t].cost));
        let c = self.file.file_costs();
        let (mut sw, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (m, (&yi, &wi)) in self.plan.iter().zip(self.y.iter().zip(&self.w)) {
            let d = self.worth(&c, m.a, m.a_stands).ln() - self.worth(&c, m.b, m.b_stands).ln();
            sw += wi;
            sx += wi * d;
            sy += wi * yi;
            sxx += wi * d * d;
            sxy += wi * d * yi;
        }
        let det = sw * sxx - sx * sx;
        if det.abs() > 1e-12 * sw * sxx.max(1e-300) {
            p[1] = (sw * sxy - sx * sy) / det;
            p[0] = (sy - p[1] * sx) / sw;
        }
        if p[1].abs() < 1e-6 {
            p[1] = 1.0;
        }
        p
    }

    /// Damped Gauss–Newton from `at`: a step is taken when it lowers the residuals, and the
    /// damping eased; else the damping grows, until the residuals stop falling.
    fn descend(&self, mut at: At) -> At {
        let np = self.np;
        let mut lambda = 1e-3;
        for _ in 0..500 {
            let (a, g) = self.normal(&at.jac, &at.res);
            let mut damped = a.clone();
            for i in 0..np {
                damped[i][i] += lambda * a[i][i].max(1e-12);
            }
            let Some(step) = solve_linear(damped, g) else {
                lambda *= 10.0;
                if lambda > 1e12 {
                    break;
                }
                continue;
            };
            let q: Vec<f64> = at.p.iter().zip(&step).map(|(x, s)| x + s).collect();
            match self.at(q) {
                Some(next) if next.rss <= at.rss => {
                    let done = at.rss - next.rss <= 1e-14 * at.rss.max(1e-300) || at.rss < 1e-28;
                    at = next;
                    lambda = (lambda / 10.0).max(1e-12);
                    if done {
                        break;
                    }
                }
                _ => {
                    lambda *= 10.0;
                    if lambda > 1e12 {
                        break;
                    }
                }
            }
        }
        at
    }

    /// The inverse of the normal matrix at the end (the fit's covariance, unscaled).
    ///
    /// # Errors
    /// [`Error::Conflict`] when the matchups cannot tell the free terms apart.
    fn inverse(&self, jac: &[Vec<f64>], res: &[f64]) -> Result<Vec<Vec<f64>>> {
        let (np, file, free) = (self.np, self.file, &self.free);
        let (a, _) = self.normal(jac, res);
        let mut inv = vec![vec![0.0; np]; np];
        for c in 0..np {
            let mut e = vec![0.0; np];
            e[c] = 1.0;
            let col = solve_linear(a.clone(), e).ok_or_else(|| {
                Error::Conflict(format!(
                    "the matchups cannot tell the costs of {} apart (terms that always come together, or no unit whose {} vary): change the unit types or price them as one",
                    free.iter()
                        .map(|&t| file.terms[t].word.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    file.size.many()
                ))
            })?;
            for r in 0..np {
                inv[r][c] = col[r];
            }
        }
        Ok(inv)
    }
}

/// The fitted costs rounded to the file's step (the reference's kept; a step's cost kept above 0).
fn rounded(file: &PointsFile, costs: &[f64]) -> Vec<f64> {
    let step = file.round;
    costs
        .iter()
        .enumerate()
        .map(|(t, &c)| {
            if t == file.reference {
                c
            } else {
                let r = (c / step).round() * step;
                // Keep a stand's cost above 0.
                if file.terms[t].per_stand && r <= 0.0 {
                    step
                } else {
                    r
                }
            }
        })
        .collect()
}
