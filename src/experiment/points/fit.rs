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
    let counts: Vec<Vec<f64>> = (0..file.units.len()).map(|i| file.counts(i)).collect();
    // d worth / d cost of each term, for a side with `n` steps (each unit of a line pays its
    // per-unit terms).
    let units = f64::from(file.units_a_side);
    let grad = |i: usize, n: u32| -> Vec<f64> {
        file.terms
            .iter()
            .zip(&counts[i])
            .map(|(t, c)| {
                if t.per_stand {
                    f64::from(n) * c
                } else {
                    units * c
                }
            })
            .collect()
    };
    let worth = |costs: &[f64], i: usize, n: u32| -> f64 {
        grad(i, n).iter().zip(costs).map(|(g, c)| g * c).sum()
    };
    let y: Vec<f64> = scores.iter().map(|s| logit(s.value)).collect();
    let w: Vec<f64> = scores
        .iter()
        .map(|s| {
            let p = s.value.clamp(0.01, 0.99);
            p * (1.0 - p)
        })
        .collect();
    let costs_of = |p: &[f64]| -> Vec<f64> {
        let mut c = file.file_costs();
        for (k, &t) in free.iter().enumerate() {
            c[t] = p[2 + k];
        }
        c
    };
    // Residuals and Jacobian at p; None where a worth is not positive.
    let model = |p: &[f64]| -> Option<(f64, Vec<Vec<f64>>, Vec<f64>)> {
        let c = costs_of(p);
        let mut rss = 0.0;
        let mut jac = Vec::with_capacity(plan.len());
        let mut res = Vec::with_capacity(plan.len());
        for (m, (&yi, &wi)) in plan.iter().zip(y.iter().zip(&w)) {
            let (wa, wb) = (worth(&c, m.a, m.a_stands), worth(&c, m.b, m.b_stands));
            if wa <= 0.0 || wb <= 0.0 || !wa.is_finite() || !wb.is_finite() {
                return None;
            }
            let d = wa.ln() - wb.ln();
            let eta = p[0] + p[1] * d;
            let (ga, gb) = (grad(m.a, m.a_stands), grad(m.b, m.b_stands));
            let mut row = vec![1.0, d];
            row.extend(free.iter().map(|&t| p[1] * (ga[t] / wa - gb[t] / wb)));
            res.push(yi - eta);
            rss += wi * (yi - eta).powi(2);
            jac.push(row);
        }
        Some((rss, jac, res))
    };
    let normal = |jac: &[Vec<f64>], res: &[f64]| -> (Vec<Vec<f64>>, Vec<f64>) {
        let mut a = vec![vec![0.0; np]; np];
        let mut g = vec![0.0; np];
        for ((row, r), wi) in jac.iter().zip(res).zip(&w) {
            for i in 0..np {
                g[i] += wi * row[i] * r;
                for j in 0..np {
                    a[i][j] += wi * row[i] * row[j];
                }
            }
        }
        (a, g)
    };
    // Start: the file's costs, with the edge and slope that fit them best (a straight line).
    let mut p = vec![0.0, 1.0];
    p.extend(free.iter().map(|&t| file.terms[t].cost));
    {
        let c = file.file_costs();
        let (mut sw, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (m, (&yi, &wi)) in plan.iter().zip(y.iter().zip(&w)) {
            let d = worth(&c, m.a, m.a_stands).ln() - worth(&c, m.b, m.b_stands).ln();
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
    }
    let Some((mut rss, mut jac, mut res)) = model(&p) else {
        return Err(Error::Conflict(
            "the file's costs give a unit a worth of 0 or less".into(),
        ));
    };
    let mut lambda = 1e-3;
    for _ in 0..500 {
        let (a, g) = normal(&jac, &res);
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
        let q: Vec<f64> = p.iter().zip(&step).map(|(x, s)| x + s).collect();
        match model(&q) {
            Some((r2, j2, e2)) if r2 <= rss => {
                let done = rss - r2 <= 1e-14 * rss.max(1e-300) || rss < 1e-28;
                p = q;
                rss = r2;
                jac = j2;
                res = e2;
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
    let (a, _) = normal(&jac, &res);
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
    let dof = (plan.len() - np) as f64;
    let sigma2 = rss / dof;
    let z = z_for_confidence(confidence);
    let se_p: Vec<f64> = (0..np)
        .map(|i| (inv[i][i].max(0.0) * sigma2).sqrt())
        .collect();
    let costs = costs_of(&p);
    let mut se = vec![0.0; file.terms.len()];
    for (k, &t) in free.iter().enumerate() {
        se[t] = se_p[2 + k];
    }
    let step = file.round;
    let rounded: Vec<f64> = costs
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
        .collect();
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
