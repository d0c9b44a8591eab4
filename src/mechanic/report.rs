//! What a mechanic file's report function (`<scenario>_report(p)` or `report(p)`) declares:
//! its classes, values, outcomes, metrics, tables, turns and notes, each read and checked
//! against the classes and values it names.

use rhai::{Array, Dynamic, Map};

use super::decl::{as_map, bad, intern, only_keys, opt_bool, opt_int, opt_str, req_str, str_list};
use crate::chain::{ClassInfo, ValueInfo};
use crate::error::Result;
use crate::scenario::{MetricDef, OutcomeDef, TableDef};

/// A report's outcome, metric and table declarations, resolved against its classes.
pub(super) struct Report {
    pub classes: Vec<ClassInfo>,
    pub values: Vec<ValueInfo>,
    pub outcomes: Vec<crate::scenario::OutcomeDef>,
    pub metrics: Vec<crate::scenario::MetricDef>,
    pub tables: Vec<crate::scenario::TableDef>,
    pub turns: u32,
    pub must_finish: bool,
    pub notes: Vec<String>,
}

impl Report {
    /// The report declared by `decl` (the report function's map).
    pub fn read(decl: &Map, path: &str, what: &str) -> Result<Report> {
        only_keys(
            decl,
            &[
                "classes",
                "values",
                "outcomes",
                "metrics",
                "tables",
                "turns",
                "must_finish",
                "notes",
            ],
            path,
            what,
        )?;
        let classes = classes(decl, path, what)?;
        let values = values(decl, path, what)?;
        let outcomes = outcomes(decl, &classes, path, what)?;
        let metrics = metrics(decl, &classes, &values, path, what)?;
        let mut tables = Vec::new();
        for t in list(decl, "tables", path, what)? {
            tables.push(table(&t, &classes, path, what)?);
        }
        let turns = opt_int(&decl.clone(), "turns", path, what)?.unwrap_or(1);
        if !(1..=10_000).contains(&turns) {
            return Err(bad(
                path,
                what,
                format!("turns {turns}; allowed: 1 to 10000"),
            ));
        }
        let notes = str_list(decl, "notes", path, what)?.unwrap_or_default();
        Ok(Report {
            classes,
            values,
            outcomes,
            metrics,
            tables,
            turns: turns as u32,
            must_finish: opt_bool(decl, "must_finish", path, what)?.unwrap_or(false),
            notes,
        })
    }
}

/// List `key` of the report's map (absent: empty).
fn list(decl: &Map, key: &str, path: &str, what: &str) -> Result<Array> {
    match decl.get(key) {
        None => Ok(Array::new()),
        Some(v) => v
            .clone()
            .try_cast::<Array>()
            .ok_or_else(|| bad(path, what, format!("`{key}` is not a list [ … ]"))),
    }
}

/// The index of class `name` among `classes`, or a message naming the classes there are.
fn class(classes: &[ClassInfo], name: &str, path: &str, what: &str) -> Result<usize> {
    classes.iter().position(|c| c.name == name).ok_or_else(|| {
        let names: Vec<&str> = classes.iter().map(|c| c.name).collect();
        bad(
            path,
            what,
            format!("names class `{name}`; the classes are {}", names.join(", ")),
        )
    })
}

/// `classes`: `#{ name, absorbing, empty }` each, 1 to 64 of them, each name once.
fn classes(decl: &Map, path: &str, what: &str) -> Result<Vec<ClassInfo>> {
    let mut classes = Vec::new();
    for c in list(decl, "classes", path, what)? {
        let m = as_map(&c, path, what)?;
        only_keys(&m, &["name", "absorbing", "empty"], path, what)?;
        let name = req_str(&m, "name", path, what)?;
        if classes.iter().any(|x: &ClassInfo| x.name == name) {
            return Err(bad(path, what, format!("class `{name}` twice")));
        }
        classes.push(ClassInfo {
            name: intern(&name),
            absorbing: opt_bool(&m, "absorbing", path, what)?.unwrap_or(false),
            empty: opt_bool(&m, "empty", path, what)?.unwrap_or(false),
        });
    }
    if classes.is_empty() || classes.len() > 64 {
        return Err(bad(path, what, "needs 1 to 64 `classes`".into()));
    }
    Ok(classes)
}

/// `values`: `#{ name, max }` each, `max` 0 to 100000 (default 1).
fn values(decl: &Map, path: &str, what: &str) -> Result<Vec<ValueInfo>> {
    let mut values = Vec::new();
    for v in list(decl, "values", path, what)? {
        let m = as_map(&v, path, what)?;
        only_keys(&m, &["name", "max"], path, what)?;
        let name = req_str(&m, "name", path, what)?;
        let max = opt_int(&m, "max", path, what)?.unwrap_or(1);
        if !(0..=100_000).contains(&max) {
            return Err(bad(
                path,
                what,
                format!("value `{name}`: max {max}; allowed: 0 to 100000"),
            ));
        }
        values.push(ValueInfo {
            name: intern(&name),
            max: max as u32,
        });
    }
    Ok(values)
}

/// `outcomes`: a class's name, or `#{ name, classes }` for a group of classes; at least one.
fn outcomes(decl: &Map, classes: &[ClassInfo], path: &str, what: &str) -> Result<Vec<OutcomeDef>> {
    let mut outcomes = Vec::new();
    for o in list(decl, "outcomes", path, what)? {
        let (name, of) = if o.is_string() {
            let n = o.to_string();
            (n.clone(), vec![n])
        } else {
            let m = as_map(&o, path, what)?;
            only_keys(&m, &["name", "classes"], path, what)?;
            let name = req_str(&m, "name", path, what)?;
            let of = str_list(&m, "classes", path, what)?.unwrap_or_else(|| vec![name.clone()]);
            (name, of)
        };
        outcomes.push(OutcomeDef {
            name: intern(&name),
            classes: of
                .iter()
                .map(|c| class(classes, c, path, what))
                .collect::<Result<_>>()?,
        });
    }
    if outcomes.is_empty() {
        return Err(bad(
            path,
            what,
            "needs `outcomes`: the classes (or groups of classes) the report shows".into(),
        ));
    }
    Ok(outcomes)
}

/// `metrics`: each read by [`metric`], each name once.
fn metrics(
    decl: &Map,
    classes: &[ClassInfo],
    values: &[ValueInfo],
    path: &str,
    what: &str,
) -> Result<Vec<MetricDef>> {
    let mut metrics = Vec::new();
    for x in list(decl, "metrics", path, what)? {
        metrics.push(metric(&x, classes, values, path, what)?);
    }
    for (i, m) in metrics.iter().enumerate() {
        if metrics[..i].iter().any(|x| x.name() == m.name()) {
            return Err(bad(
                path,
                what,
                format!("metric `{}` twice; each metric name once", m.name()),
            ));
        }
    }
    Ok(metrics)
}

/// One metric, by its `kind`: absorb_turn, end_turn, empty_turns, value or turns_sum.
fn metric(
    x: &Dynamic,
    classes: &[ClassInfo],
    values: &[ValueInfo],
    path: &str,
    what: &str,
) -> Result<MetricDef> {
    let m = as_map(x, path, what)?;
    only_keys(
        &m,
        &[
            "kind", "name", "class", "classes", "value", "share", "meaning",
        ],
        path,
        what,
    )?;
    let kind = req_str(&m, "kind", path, what)?;
    let meaning = intern(&opt_str(&m, "meaning", path)?.unwrap_or_default());
    let name = opt_str(&m, "name", path)?;
    let named = || -> Result<&'static str> {
        name.as_deref()
            .map(intern)
            .ok_or_else(|| bad(path, what, format!("a {kind} metric needs a `name`")))
    };
    Ok(match kind.as_str() {
        "absorb_turn" => MetricDef::AbsorbTurn {
            name: named()?,
            class: class(classes, &req_str(&m, "class", path, what)?, path, what)?,
            meaning,
        },
        "end_turn" => MetricDef::EndTurn {
            name: named()?,
            classes: str_list(&m, "classes", path, what)?
                .unwrap_or_default()
                .iter()
                .map(|c| class(classes, c, path, what))
                .collect::<Result<_>>()?,
            meaning,
        },
        "empty_turns" => crate::scenario::EMPTY_TURNS,
        "value" => {
            let name = named()?;
            if !values.iter().any(|v| v.name == name) {
                return Err(bad(
                    path,
                    what,
                    format!("metric `{name}` reads a value that `values` does not declare"),
                ));
            }
            MetricDef::Value { name, meaning }
        }
        // A value of the state added up over the turns (strength-turns held): the
        // value after every turn, a finished trial's last one to the end.
        "turns_sum" => {
            let name = named()?;
            let value = intern(&req_str(&m, "value", path, what).map_err(|_| {
                bad(
                    path,
                    what,
                    format!("turns_sum metric `{name}` needs `value`: the name of one of the declared `values` to add up over the turns"),
                )
            })?);
            if !values.iter().any(|v| v.name == value) {
                let declared: Vec<&str> = values.iter().map(|v| v.name).collect();
                return Err(bad(
                    path,
                    what,
                    format!(
                        "metric `{name}` sums value `{value}`, which `values` does not declare; declared: {}",
                        if declared.is_empty() {
                            "none".to_string()
                        } else {
                            declared.join(", ")
                        }
                    ),
                ));
            }
            MetricDef::SeriesTotal {
                name,
                series: value,
                // `share: true`: each turn as a share of the value's `max` (strength
                // in turns at full strength, as the built-in systems give it).
                share: opt_bool(&m, "share", path, what)?.unwrap_or(false),
                meaning,
            }
        }
        k => {
            return Err(bad(
                path,
                what,
                format!(
                    "metric kind '{k}'; allowed: absorb_turn, end_turn, empty_turns, value, turns_sum"
                ),
            ));
        }
    })
}

/// One table, by its `kind`: per_turn or absorb (whose columns [`absorb_columns`] reads).
fn table(t: &Dynamic, classes: &[ClassInfo], path: &str, what: &str) -> Result<TableDef> {
    let m = as_map(t, path, what)?;
    only_keys(&m, &["kind", "name", "title", "columns"], path, what)?;
    let kind = req_str(&m, "kind", path, what)?;
    let name = intern(&opt_str(&m, "name", path)?.unwrap_or_else(|| kind.clone()));
    let title = intern(&opt_str(&m, "title", path)?.unwrap_or_default());
    Ok(match kind.as_str() {
        "per_turn" => TableDef::PerTurn { name, title },
        "absorb" => TableDef::Absorb {
            name,
            title,
            columns: absorb_columns(&m, classes, path, what)?,
        },
        k => {
            return Err(bad(
                path,
                what,
                format!("table kind '{k}'; allowed: per_turn, absorb"),
            ));
        }
    })
}

/// An absorb table's `columns`: `[name, class, cumulative]` each.
fn absorb_columns(
    m: &Map,
    classes: &[ClassInfo],
    path: &str,
    what: &str,
) -> Result<Vec<(&'static str, usize, bool)>> {
    let cols = m
        .get("columns")
        .and_then(|c| c.clone().try_cast::<Array>())
        .ok_or_else(|| {
            bad(
                path,
                what,
                "an absorb table needs `columns`: [[name, class, cumulative], …]".into(),
            )
        })?;
    let mut columns = Vec::new();
    for c in cols {
        let parts = c.try_cast::<Array>().unwrap_or_default();
        match parts.as_slice() {
            [n, c, cum] if n.is_string() && c.is_string() && cum.is_bool() => {
                columns.push((
                    intern(&n.to_string()),
                    class(classes, &c.to_string(), path, what)?,
                    cum.as_bool().unwrap_or(false),
                ));
            }
            _ => {
                return Err(bad(
                    path,
                    what,
                    "a column is [name, class, cumulative (true/false)]".into(),
                ));
            }
        }
    }
    Ok(columns)
}
