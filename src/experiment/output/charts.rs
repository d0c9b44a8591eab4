//! The experiment's charts, as data: each is drawn to PNG and SVG by the exporters.

use super::*;

pub(super) fn estimate(c: &Cell) -> Estimate {
    Estimate {
        p: c.p,
        low: c.ci_low.unwrap_or(c.p),
        high: c.ci_high.unwrap_or(c.p),
    }
}

pub(super) fn charts(result: &ExperimentResult) -> Vec<(String, Chart)> {
    let exp = &result.experiment;
    let per_point = exp.variants.len();
    let first: &[Run] = &result.runs[..per_point];
    let mut out = Vec::new();
    // Outcome bars at the first setting, categories from the baseline.
    let categories: Vec<String> = first[0]
        .report
        .outcomes
        .iter()
        .map(|o| o.outcome.clone())
        .collect();
    let at = point_label(exp, &first[0].point);
    out.push((
        "outcomes".to_string(),
        Chart::Bars {
            title: format!(
                "{}: outcomes{}",
                exp.name,
                if at.is_empty() {
                    String::new()
                } else {
                    format!(" ({at})")
                }
            ),
            series: first
                .iter()
                .map(|r| {
                    let vals = categories
                        .iter()
                        .map(|c| find(&r.report, c).map(estimate))
                        .collect();
                    (exp.variants[r.variant].name.clone(), vals)
                })
                .collect(),
            categories,
        },
    ));
    for r in first {
        if let Some(t) = r.report.tables.iter().find(|t| t.name == "per_turn") {
            out.push((
                format!("per_turn_{}", slug(&exp.variants[r.variant].name)),
                Chart::Stacked {
                    title: format!("{}: state after each turn", exp.variants[r.variant].name),
                    layers: t.columns.clone(),
                    shares: t
                        .rows
                        .iter()
                        .map(|row| row.cells.iter().map(|c| c.p).collect())
                        .collect(),
                },
            ));
        }
    }
    // Per-turn means of a battle's lines (gaps, units lost, shaken): one chart per measure,
    // a line per variant.
    if let Some(t0) = first[0].report.tables.iter().find(|t| t.name == "lines") {
        for (ci, col) in t0.columns.iter().enumerate() {
            let series = first
                .iter()
                .map(|r| {
                    let vals = r
                        .report
                        .tables
                        .iter()
                        .find(|t| t.name == "lines")
                        .map(|t| {
                            t.rows
                                .iter()
                                .map(|row| row.cells.get(ci).map(estimate))
                                .collect()
                        })
                        .unwrap_or_default();
                    (exp.variants[r.variant].name.clone(), vals)
                })
                .collect();
            out.push((
                format!("lines_{col}"),
                Chart::Lines {
                    title: format!("{}: {} after each turn (mean)", exp.name, col),
                    x_label: "turn".into(),
                    x_values: t0.rows.iter().map(|row| row.turn.to_string()).collect(),
                    y_label: col.clone(),
                    series,
                },
            ));
        }
    }
    let key = headline(exp, &first[0].report);
    if let Some(x) = exp.sweep.first() {
        let ys: Vec<Option<&SetValue>> = match exp.sweep.get(1) {
            Some(y) => y.values.iter().map(Some).collect(),
            None => vec![None],
        };
        let mut series = Vec::new();
        for (vi, v) in exp.variants.iter().enumerate() {
            for (yi, yv) in ys.iter().enumerate() {
                let vals = (0..x.values.len())
                    .map(|xi| {
                        let point = xi * ys.len() + yi;
                        find(&result.runs[point * per_point + vi].report, &key).map(estimate)
                    })
                    .collect();
                let name = match yv {
                    Some(y) => format!("{} ({}={})", v.name, exp.sweep[1].key, y.as_input()),
                    None => v.name.clone(),
                };
                series.push((name, vals));
            }
        }
        out.push((
            "sweep".to_string(),
            Chart::Lines {
                title: format!("{}: P({key}) by {}", exp.name, x.key),
                x_label: x.key.clone(),
                x_values: x.values.iter().map(SetValue::as_input).collect(),
                y_label: format!("P({key})"),
                series,
            },
        ));
        if let Some(y) = exp.sweep.get(1) {
            for (vi, v) in exp.variants.iter().enumerate() {
                let cells = (0..y.values.len())
                    .map(|yi| {
                        (0..x.values.len())
                            .map(|xi| {
                                let point = xi * y.values.len() + yi;
                                find(&result.runs[point * per_point + vi].report, &key)
                                    .map_or(f64::NAN, |c| c.exact.unwrap_or(c.p))
                            })
                            .collect()
                    })
                    .collect();
                out.push((
                    format!("heatmap_{}", slug(&v.name)),
                    Chart::Heat {
                        title: format!("{}: P({key}), exact", v.name),
                        x: (
                            x.key.clone(),
                            x.values.iter().map(SetValue::as_input).collect(),
                        ),
                        y: (
                            y.key.clone(),
                            y.values.iter().map(SetValue::as_input).collect(),
                        ),
                        cells,
                    },
                ));
            }
        }
    }
    out
}
