//! What a mechanic file declares, read once: its description, parameters, rule parameters and
//! optional rules (as the same tables the built-in systems have), and per run its state's
//! variables and its report.

use std::collections::BTreeMap;

use rhai::{AST, Array, Dynamic, Engine, Map};

use super::script;
use crate::error::{Error, Result};
use crate::params::{self, Kind, OptionDef, ParamDef};
use crate::scenario::Scenario;
use crate::system::{About, Size};

/// The most states a file's declared variables may make together (the product of their sizes).
pub const MAX_STATES: u64 = 1 << 24;

/// A string kept for the life of the process (the registry's tables are `'static`); each text
/// is kept once, however often it is asked for.
pub(super) fn intern(s: &str) -> &'static str {
    use std::collections::BTreeSet;
    use std::sync::{Mutex, OnceLock};
    static TEXTS: OnceLock<Mutex<BTreeSet<&'static str>>> = OnceLock::new();
    let mut texts = TEXTS
        .get_or_init(|| Mutex::new(BTreeSet::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(t) = texts.get(s) {
        return t;
    }
    let t: &'static str = Box::leak(s.to_string().into_boxed_str());
    texts.insert(t);
    t
}

/// A value kept for the life of the process (the registry's tables are `'static`), once per
/// content: a file loaded again, or another file declaring the same table, gets the same one,
/// so what loading files keeps grows with the distinct tables declared, not with the loads.
/// Everything kept stays reachable from here (nothing is leaked unreachably, which a leak
/// checker would report).
pub(super) fn keep<T: std::fmt::Debug + Send + Sync + 'static>(value: T) -> &'static T {
    use std::any::{Any, TypeId};
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Kept = HashMap<(TypeId, String), &'static (dyn Any + Send + Sync)>;
    static KEPT: OnceLock<Mutex<Kept>> = OnceLock::new();
    let mut kept = KEPT
        .get_or_init(|| Mutex::new(HashMap::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let key = (TypeId::of::<T>(), format!("{value:?}"));
    if let Some(t) = kept.get(&key).and_then(|a| a.downcast_ref::<T>()) {
        return t;
    }
    let t: &'static T = Box::leak(Box::new(value));
    kept.insert(key, t);
    t
}

/// A slice kept as [`keep`] keeps a value.
pub(super) fn keep_slice<T: std::fmt::Debug + Send + Sync + 'static>(v: Vec<T>) -> &'static [T] {
    keep(v).as_slice()
}

/// Call function `name` of `ast` and say where it failed.
pub(super) fn call(
    engine: &Engine,
    ast: &AST,
    path: &str,
    name: &str,
    args: impl rhai::FuncArgs,
) -> Result<Dynamic> {
    let mut scope = rhai::Scope::new();
    let options = rhai::CallFnOptions::new().eval_ast(false);
    engine
        .call_fn_with_options::<Dynamic>(options, &mut scope, ast, name, args)
        .map_err(|e| match *e {
            rhai::EvalAltResult::ErrorFunctionNotFound(ref f, _) if f.starts_with(name) => {
                Error::File {
                    path: path.into(),
                    line: 0,
                    key: String::new(),
                    message: format!("has no function {name}: a mechanic file declares itself with about(), params(), rules() and options() (see docs/MECHANICS.md)"),
                }
            }
            _ => {
                let (source, pos, what) = script::describe(&e);
                let file = source.unwrap_or_else(|| path.to_string());
                Error::Conflict(script::at(&file, pos, &format!("{name}: {what}")))
            }
        })
}

/// Call function `name`, which must give an object map.
pub(super) fn call_map(
    engine: &Engine,
    ast: &AST,
    path: &str,
    name: &str,
    args: impl rhai::FuncArgs,
) -> Result<Map> {
    let v = call(engine, ast, path, name, args)?;
    let t = v.type_name();
    v.try_cast::<Map>()
        .ok_or_else(|| bad(path, name, format!("gives {t}, not an object map #{{ … }}")))
}

/// Call function `name`, which must give an array (none defined: empty).
fn call_array(engine: &Engine, ast: &AST, path: &str, name: &str) -> Result<Array> {
    if !ast.iter_functions().any(|f| f.name == name) {
        return Ok(Array::new());
    }
    let v = call(engine, ast, path, name, ())?;
    let t = v.type_name();
    v.try_cast::<Array>()
        .ok_or_else(|| bad(path, name, format!("gives {t}, not an array [ … ]")))
}

/// A declaration at fault.
pub(super) fn bad(path: &str, what: &str, message: String) -> Error {
    Error::File {
        path: path.into(),
        line: 0,
        key: what.into(),
        message,
    }
}

/// Text field `key` of `m`, if present.
pub(super) fn opt_str(m: &Map, key: &str, path: &str) -> Result<Option<String>> {
    match m.get(key) {
        None => Ok(None),
        Some(v) if v.is_string() => Ok(Some(v.to_string())),
        Some(v) => Err(bad(path, key, format!("is {}, not text", v.type_name()))),
    }
}

pub(super) fn req_str(m: &Map, key: &str, path: &str, what: &str) -> Result<String> {
    opt_str(m, key, path)?.ok_or_else(|| bad(path, what, format!("needs `{key}` (text)")))
}

pub(super) fn opt_int(m: &Map, key: &str, path: &str, what: &str) -> Result<Option<i64>> {
    match m.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_int()
            .map(Some)
            .map_err(|t| bad(path, what, format!("`{key}` is {t}, not a whole number"))),
    }
}

pub(super) fn opt_bool(m: &Map, key: &str, path: &str, what: &str) -> Result<Option<bool>> {
    match m.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_bool()
            .map(Some)
            .map_err(|t| bad(path, what, format!("`{key}` is {t}, not true or false"))),
    }
}

pub(super) fn str_list(m: &Map, key: &str, path: &str, what: &str) -> Result<Option<Vec<String>>> {
    match m.get(key) {
        None => Ok(None),
        Some(v) => {
            let a = v
                .clone()
                .try_cast::<Array>()
                .ok_or_else(|| bad(path, what, format!("`{key}` is not a list [ … ]")))?;
            a.iter()
                .map(|x| {
                    if x.is_string() {
                        Ok(x.to_string())
                    } else {
                        Err(bad(path, what, format!("`{key}` holds {x}, not text")))
                    }
                })
                .collect::<Result<Vec<_>>>()
                .map(Some)
        }
    }
}

pub(super) fn only_keys(m: &Map, allowed: &[&str], path: &str, what: &str) -> Result<()> {
    if let Some(k) = m.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(bad(
            path,
            what,
            format!("unknown field `{k}`; allowed: {}", allowed.join(", ")),
        ));
    }
    Ok(())
}

pub(super) fn as_map(v: &Dynamic, path: &str, what: &str) -> Result<Map> {
    v.clone()
        .try_cast::<Map>()
        .ok_or_else(|| bad(path, what, format!("holds {v}, not an object map #{{ … }}")))
}

fn is_key(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && s.starts_with(|c: char| c.is_ascii_lowercase())
}

fn scenario_list(names: &[String], path: &str, what: &str) -> Result<Vec<Scenario>> {
    names
        .iter()
        .map(|n| {
            Scenario::from_name(n)
                .filter(|s| super::SCENARIOS.contains(s))
                .ok_or_else(|| {
                    bad(
                        path,
                        what,
                        format!(
                            "scenario '{n}': a mechanic file has {}",
                            Scenario::join(&super::SCENARIOS, ", ")
                        ),
                    )
                })
        })
        .collect()
}

/// One file of an `extends` chain: its own functions, and those of the files up to it merged.
pub(super) struct Level {
    /// The file.
    pub path: String,
    /// Its own functions.
    pub own: AST,
    /// Its functions over those of the files it extends.
    pub merged: AST,
}

fn defines(ast: &AST, name: &str) -> bool {
    ast.iter_functions().any(|f| f.name == name)
}

/// Each file's own list `name` (`params`, `rules`, `options`), furthest base first, combined:
/// an entry whose `field` (key or name) an earlier file has replaces it; a new one is added.
fn combined(engine: &Engine, levels: &[Level], name: &str, field: &str) -> Result<Array> {
    let mut out: Array = Array::new();
    for l in levels.iter().filter(|l| defines(&l.own, name)) {
        let mut own: Vec<String> = Vec::new();
        for entry in call_array(engine, &l.merged, &l.path, name)? {
            let id = entry
                .clone()
                .try_cast::<Map>()
                .and_then(|m| m.get(field).map(|v| v.to_string()));
            if let Some(id) = &id {
                if own.contains(id) {
                    return Err(bad(
                        &l.path,
                        &format!("{name}()"),
                        format!("declares `{id}` twice"),
                    ));
                }
                own.push(id.clone());
            }
            let at = id.as_ref().and_then(|id| {
                out.iter().position(|e| {
                    e.clone()
                        .try_cast::<Map>()
                        .and_then(|m| m.get(field).map(|v| v.to_string()))
                        .as_ref()
                        == Some(id)
                })
            });
            match at {
                Some(i) => out[i] = entry,
                None => out.push(entry),
            }
        }
    }
    Ok(out)
}

/// What a file declares of itself.
pub(super) struct Declared {
    title: String,
    rules: String,
    holes: String,
    specs: String,
    scenarios: Vec<Scenario>,
    params: Vec<ParamDef>,
    rule_params: Vec<ParamDef>,
    options: Vec<OptionDef>,
    /// What one trial of a scenario is under the file (`about().helps`).
    helps: Vec<(Scenario, String)>,
    /// What a points budget may buy of a unit (`about().sizes`).
    pub sizes: Vec<Size>,
    /// Per scenario, defaults that differ from the table's.
    pub defaults: BTreeMap<Scenario, Vec<(&'static str, String)>>,
}

impl Declared {
    /// The system's description for the registry, named by `path`.
    pub fn about(&self, path: &'static str) -> &'static About {
        keep(About {
            name: path,
            title: intern(&self.title),
            rules: intern(&self.rules),
            scenarios: keep_slice(self.scenarios.clone()),
            params: keep_slice(self.params.clone()),
            rule_params: keep_slice(self.rule_params.clone()),
            options: keep_slice(self.options.clone()),
            holes: intern(&self.holes),
            specs: intern(&self.specs),
            bench: &[],
            exact_bench: &[],
            references: &[],
            helps: keep_slice(
                self.helps
                    .iter()
                    .map(|(sc, h)| (*sc, intern(h)))
                    .collect::<Vec<_>>(),
            ),
            edge_specs: &[],
            not_modelled: &[],
        })
    }
}

/// Read a file's declarations: `about()`, `params()`, `rules()`, `options()`, each file of its
/// `extends` chain adding to (and replacing entries of) the files it extends.
pub(super) fn declare(engine: &Engine, levels: &[Level], path: &str) -> Result<Declared> {
    let ast = &levels.last().expect("the file itself").merged;
    let mut about = Map::new();
    for l in levels.iter().filter(|l| defines(&l.own, "about")) {
        about.extend(call_map(engine, &l.merged, &l.path, "about", ())?);
    }
    about.remove("extends");
    only_keys(
        &about,
        &[
            "title",
            "rules",
            "scenarios",
            "holes",
            "specs",
            "extends",
            "defaults",
            "sizes",
            "helps",
        ],
        path,
        "about()",
    )?;
    let title = req_str(&about, "title", path, "about()")?;
    let rules = opt_str(&about, "rules", path)?.unwrap_or_default();
    let holes = opt_str(&about, "holes", path)?.unwrap_or_else(|| "see the file".into());
    let specs = opt_str(&about, "specs", path)?.unwrap_or_default();
    let names = str_list(&about, "scenarios", path, "about()")?.ok_or_else(|| {
        bad(
            path,
            "about()",
            "needs `scenarios`, e.g. [\"test\", \"rally\"]".into(),
        )
    })?;
    let mut scenarios = scenario_list(&names, path, "about().scenarios")?;
    if scenarios.is_empty() {
        return Err(bad(path, "about().scenarios", "names no scenario".into()));
    }
    scenarios.sort();
    scenarios.dedup();
    has_turns(ast, &scenarios, path)?;
    let all: &'static [Scenario] = keep_slice(scenarios.clone());
    let params = combined(engine, levels, "params", "key")?
        .iter()
        .map(|v| param(v, path, "params()", all, true))
        .collect::<Result<Vec<_>>>()?;
    let rule_params = combined(engine, levels, "rules", "key")?
        .iter()
        .map(|v| param(v, path, "rules()", all, false))
        .collect::<Result<Vec<_>>>()?;
    keys_once(&params, &rule_params, path)?;
    let options = combined(engine, levels, "options", "name")?
        .iter()
        .map(|v| option(v, path))
        .collect::<Result<Vec<_>>>()?;
    let sizes = match about.get("sizes") {
        None => Vec::new(),
        Some(v) => sizes_of(v, path)?,
    };
    let defaults = defaults_of(&about, &params, path)?;
    let helps = helps_of(&about, &scenarios, path)?;
    Ok(Declared {
        title,
        rules,
        holes,
        specs,
        scenarios,
        params,
        rule_params,
        options,
        helps,
        sizes,
        defaults,
    })
}

/// Refuse a scenario of `about().scenarios` for which the file has no `<scenario>_turn(p, s)`.
fn has_turns(ast: &AST, scenarios: &[Scenario], path: &str) -> Result<()> {
    for s in scenarios {
        let turn = format!("{}_turn", s.name().replace('-', "_"));
        if !ast
            .iter_functions()
            .any(|f| f.name == turn && f.params.len() == 2)
        {
            return Err(bad(
                path,
                "about().scenarios",
                format!("names {s}, but the file has no {turn}(p, s)"),
            ));
        }
    }
    Ok(())
}

/// Refuse a key declared twice among the parameters and rule parameters together.
fn keys_once(params: &[ParamDef], rule_params: &[ParamDef], path: &str) -> Result<()> {
    for (i, d) in params.iter().chain(rule_params).enumerate() {
        if params
            .iter()
            .chain(rule_params)
            .skip(i + 1)
            .any(|e| e.key == d.key)
        {
            return Err(bad(
                path,
                "params()",
                format!(
                    "declares `{}` twice (a key is a parameter or a rule parameter, once)",
                    d.key
                ),
            ));
        }
    }
    Ok(())
}

/// One optional rule of `options()`: `#{ name, rule, meaning }`.
fn option(v: &Dynamic, path: &str) -> Result<OptionDef> {
    let m = as_map(v, path, "options()")?;
    only_keys(&m, &["name", "rule", "meaning"], path, "options()")?;
    let name = req_str(&m, "name", path, "options()")?;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(bad(
            path,
            "options()",
            format!("'{name}' is not an option name: lowercase letters, digits and '-'"),
        ));
    }
    Ok(OptionDef {
        name: intern(&name),
        rule: intern(&opt_str(&m, "rule", path)?.unwrap_or_default()),
        meaning: intern(&req_str(&m, "meaning", path, "options()")?),
    })
}

/// `about().defaults`: per scenario, defaults of `params` that differ from the table's.
fn defaults_of(
    about: &Map,
    params: &[ParamDef],
    path: &str,
) -> Result<BTreeMap<Scenario, Vec<(&'static str, String)>>> {
    let mut defaults = BTreeMap::new();
    if let Some(d) = about.get("defaults") {
        let d = as_map(d, path, "about().defaults")?;
        for (sc, over) in d {
            let scenario = scenario_list(
                &[sc.to_string().replace('_', "-")],
                path,
                "about().defaults",
            )?[0];
            let over = as_map(&over, path, "about().defaults")?;
            let mut list = Vec::new();
            for (k, v) in over {
                let def = params.iter().find(|d| d.key == k.as_str()).ok_or_else(|| {
                    bad(
                        path,
                        "about().defaults",
                        format!("`{k}` is not one of params()"),
                    )
                })?;
                let text = default_text(&v);
                if params::parse_value(&def.kind, &text).is_none() {
                    return Err(bad(
                        path,
                        "about().defaults",
                        format!("{k} = {text}: allowed: {}", def.kind.allowed()),
                    ));
                }
                list.push((def.key, text));
            }
            defaults.insert(scenario, list);
        }
    }
    Ok(defaults)
}

/// `about().helps`: what one trial of a scenario is under the file, in a line, by scenario
/// (`helps: #{ test: "One opposed round: …" }`); each scenario one of the file's.
fn helps_of(about: &Map, scenarios: &[Scenario], path: &str) -> Result<Vec<(Scenario, String)>> {
    let mut helps = Vec::new();
    if let Some(h) = about.get("helps") {
        for (sc, text) in as_map(h, path, "about().helps")? {
            let scenario =
                scenario_list(&[sc.to_string().replace('_', "-")], path, "about().helps")?[0];
            if !scenarios.contains(&scenario) {
                return Err(bad(
                    path,
                    "about().helps",
                    format!("`{sc}` is not one of the file's scenarios"),
                ));
            }
            let text = text.into_string().map_err(|_| {
                bad(
                    path,
                    "about().helps",
                    format!("`{sc}` needs a line of text, e.g. \"One opposed round\""),
                )
            })?;
            helps.push((scenario, text));
        }
    }
    Ok(helps)
}

/// `about().sizes`: what a points budget may buy of a unit, each a whole-number keyword of the
/// file's unit specs, `#{ key: "stands", one: "stand", min: 1, max: 24, rule: "X-1" }` (`one`,
/// the word for one of it, defaults to the key without its last `s`).
fn sizes_of(v: &Dynamic, path: &str) -> Result<Vec<Size>> {
    const WHAT: &str = "about().sizes";
    let list = v.clone().try_cast::<Array>().ok_or_else(|| {
        bad(
            path,
            WHAT,
            format!(
                "holds {v}, not a list: e.g. [#{{ key: \"stands\", min: 1, max: 24, rule: \"X-1\" }}]"
            ),
        )
    })?;
    let mut out: Vec<Size> = Vec::new();
    for item in &list {
        let m = as_map(item, path, WHAT)?;
        only_keys(&m, &["key", "one", "min", "max", "rule"], path, WHAT)?;
        let key = req_str(&m, "key", path, WHAT)?;
        if !is_key(&key) {
            return Err(bad(
                path,
                WHAT,
                format!(
                    "'{key}' is not a keyword: lowercase letters, digits and '_', written KEY=N in a unit spec"
                ),
            ));
        }
        if out.iter().any(|s| s.key == key) {
            return Err(bad(path, WHAT, format!("declares `{key}` twice")));
        }
        let one = opt_str(&m, "one", path)?
            .unwrap_or_else(|| key.strip_suffix('s').unwrap_or(&key).to_string());
        if !is_key(&one) {
            return Err(bad(
                path,
                WHAT,
                format!("`{key}`: one = '{one}' is not a word: lowercase letters, digits and '_'"),
            ));
        }
        let bound = |k: &str| -> Result<u32> {
            let n = opt_int(&m, k, path, WHAT)?
                .ok_or_else(|| bad(path, WHAT, format!("`{key}` needs `{k}` (a whole number)")))?;
            u32::try_from(n)
                .ok()
                .filter(|n| (1..=1000).contains(n))
                .ok_or_else(|| {
                    bad(
                        path,
                        WHAT,
                        format!("`{key}`: {k} = {n}; allowed: a whole number from 1 to 1000"),
                    )
                })
        };
        let (min, max) = (bound("min")?, bound("max")?);
        if min > max {
            return Err(bad(
                path,
                WHAT,
                format!("`{key}`: min {min} is above max {max}"),
            ));
        }
        out.push(Size {
            key: intern(&key),
            one: intern(&one),
            min,
            max,
            rule: intern(&opt_str(&m, "rule", path)?.unwrap_or_default()),
        });
    }
    Ok(out)
}

fn default_text(v: &Dynamic) -> String {
    if let Ok(b) = v.as_bool() {
        b.to_string()
    } else {
        v.to_string()
    }
}

/// One parameter's declaration.
fn param(
    v: &Dynamic,
    path: &str,
    list: &str,
    all: &'static [Scenario],
    situation: bool,
) -> Result<ParamDef> {
    let m = as_map(v, path, list)?;
    only_keys(
        &m,
        &[
            "key",
            "min",
            "max",
            "choices",
            "kind",
            "value",
            "meaning",
            "rule",
            "scenarios",
            "allowed",
        ],
        path,
        list,
    )?;
    let key = req_str(&m, "key", path, list)?;
    let what = format!("{list} {key}");
    if !is_key(&key) || key == "options" {
        return Err(bad(
            path,
            list,
            format!(
                "'{key}' is not a key: lowercase letters, digits and '_', starting with a letter (not `options`)"
            ),
        ));
    }
    let min = opt_int(&m, "min", path, &what)?;
    let max = opt_int(&m, "max", path, &what)?;
    let choices = str_list(&m, "choices", path, &what)?;
    let kind_name = opt_str(&m, "kind", path)?;
    let kind = match (choices, min, max, kind_name.as_deref()) {
        (Some(c), None, None, None | Some("choice")) => {
            if c.is_empty() {
                return Err(bad(path, &what, "has no choices".into()));
            }
            let names: Vec<&'static str> = c.iter().map(|x| intern(x)).collect();
            Kind::Choice(keep_slice(names))
        }
        (None, Some(min), Some(max), None | Some("int")) if min <= max => Kind::Int { min, max },
        (None, Some(min), Some(max), _) if min > max => {
            return Err(bad(path, &what, format!("min {min} is above max {max}")));
        }
        (None, None, None, Some("bool")) => Kind::Bool,
        (None, None, None, Some("prob")) => Kind::Prob,
        (None, None, None, Some("dist")) => Kind::Dist,
        (None, None, None, Some("spec")) => Kind::Spec(intern(
            &opt_str(&m, "allowed", path)?.unwrap_or_else(|| "text read by the file".into()),
        )),
        _ => {
            return Err(bad(
                path,
                &what,
                "needs `min` and `max` (a whole number), `choices` (a list of names), or `kind`: \"bool\", \"prob\" (a chance), \"dist\" (chances of 0, 1, 2 …) or \"spec\" (text the file reads)".into(),
            ));
        }
    };
    // `default` is a reserved word in Rhai: a parameter's default is its `value`.
    let default = m
        .get("value")
        .map(default_text)
        .ok_or_else(|| bad(path, &what, "needs a `value` (its default)".into()))?;
    if params::parse_value(&kind, &default).is_none() {
        return Err(bad(
            path,
            &what,
            format!("default {default}: allowed: {}", kind.allowed()),
        ));
    }
    let scenarios: &'static [Scenario] = match str_list(&m, "scenarios", path, &what)? {
        None => all,
        Some(names) => {
            let list = scenario_list(&names, path, &what)?;
            if let Some(s) = list.iter().find(|s| !all.contains(s)) {
                return Err(bad(
                    path,
                    &what,
                    format!("names {s}, which about() does not list"),
                ));
            }
            keep_slice(list)
        }
    };
    // A situation parameter whose key the command line has a flag for takes that flag.
    let flag = if situation {
        params::COMMAND_LINE_FLAGS
            .iter()
            .find(|(k, _, presence)| *k == key && (!presence || kind == Kind::Bool))
            .map(|(_, f, _)| *f)
    } else {
        None
    };
    Ok(ParamDef {
        key: intern(&key),
        flag,
        kind,
        default: intern(&default),
        meaning: intern(&req_str(&m, "meaning", path, &what)?),
        rule: intern(&opt_str(&m, "rule", path)?.unwrap_or_default()),
        scenarios,
    })
}

/// How one state variable is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum VarKind {
    /// A whole number from `min` (to `min + size - 1`).
    Int(i64),
    /// One of these names.
    Named(Vec<String>),
    /// `false` or `true`.
    Bool,
}

/// One state variable: its name, its values, and where it sits in the packed state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Var {
    pub name: String,
    pub kind: VarKind,
    pub size: u64,
    pub stride: u64,
}

/// A scenario's state: its variables packed into one whole number (mixed radix, the first
/// variable most significant).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Layout {
    pub vars: Vec<Var>,
    pub states: u64,
}

impl Layout {
    /// The layout declared by `decl` (the state function's array).
    pub fn read(decl: &Dynamic, path: &str, what: &str) -> Result<Layout> {
        let list = decl
            .clone()
            .try_cast::<Array>()
            .ok_or_else(|| bad(path, what, "gives no array of state variables".into()))?;
        if list.is_empty() {
            return Err(bad(path, what, "declares no state variable".into()));
        }
        let mut vars: Vec<Var> = Vec::new();
        let mut states: u64 = 1;
        for v in &list {
            let m = as_map(v, path, what)?;
            only_keys(&m, &["name", "min", "max", "values", "kind"], path, what)?;
            let name = req_str(&m, "name", path, what)?;
            if !is_key(&name) {
                return Err(bad(path, what, format!("'{name}' is not a variable name")));
            }
            if vars.iter().any(|x| x.name == name) {
                return Err(bad(path, what, format!("declares `{name}` twice")));
            }
            let kind = if let Some(values) = str_list(&m, "values", path, what)? {
                if values.is_empty() {
                    return Err(bad(path, what, format!("`{name}` has no values")));
                }
                VarKind::Named(values)
            } else if opt_str(&m, "kind", path)?.as_deref() == Some("bool") {
                VarKind::Bool
            } else {
                match (
                    opt_int(&m, "min", path, what)?,
                    opt_int(&m, "max", path, what)?,
                ) {
                    (Some(lo), Some(hi)) if lo <= hi => VarKind::Int(lo),
                    (Some(lo), Some(hi)) => {
                        return Err(bad(
                            path,
                            what,
                            format!("`{name}`: min {lo} is above max {hi}"),
                        ));
                    }
                    _ => {
                        return Err(bad(
                            path,
                            what,
                            format!(
                                "`{name}` needs `min` and `max`, `values` (names), or kind: \"bool\""
                            ),
                        ));
                    }
                }
            };
            let size = match &kind {
                VarKind::Int(lo) => {
                    let hi = opt_int(&m, "max", path, what)?.unwrap_or(*lo);
                    (hi - lo) as u64 + 1
                }
                VarKind::Named(v) => v.len() as u64,
                VarKind::Bool => 2,
            };
            states = states.checked_mul(size).filter(|s| *s <= MAX_STATES).ok_or_else(|| {
                let sizes: Vec<String> = vars
                    .iter()
                    .map(|x| format!("{} {}", x.name, x.size))
                    .chain(std::iter::once(format!("{name} {size}")))
                    .collect();
                bad(
                    path,
                    what,
                    format!(
                        "the state space is too large: {} make more than the limit of {MAX_STATES} states; give the variables narrower ranges",
                        sizes.join(" × ")
                    ),
                )
            })?;
            vars.push(Var {
                name,
                kind,
                size,
                stride: 0,
            });
        }
        // The first variable is the most significant, so states order as their variables do,
        // in the order declared (and values in the order listed): the order the table sampler
        // numbers them in.
        let mut stride = 1;
        for v in vars.iter_mut().rev() {
            v.stride = stride;
            stride *= v.size;
        }
        Ok(Layout { vars, states })
    }

    /// The state `s` as the script sees it.
    pub fn unpack(&self, s: u64) -> Map {
        let mut m = Map::new();
        for v in &self.vars {
            let i = (s / v.stride) % v.size;
            let value = match &v.kind {
                VarKind::Int(lo) => Dynamic::from(lo + i as i64),
                VarKind::Named(names) => Dynamic::from(names[i as usize].clone()),
                VarKind::Bool => Dynamic::from(i == 1),
            };
            m.insert(v.name.as_str().into(), value);
        }
        m
    }

    /// The packed state of `m`, or what is wrong with it.
    pub fn pack(&self, m: &Map) -> std::result::Result<u64, String> {
        let mut s = 0u64;
        for v in &self.vars {
            let value = m
                .get(v.name.as_str())
                .ok_or_else(|| format!("gives no `{}`", v.name))?;
            let i = match &v.kind {
                VarKind::Int(lo) => {
                    let x = value
                        .as_int()
                        .map_err(|t| format!("sets `{}` to {t}, not a whole number", v.name))?;
                    let hi = lo + v.size as i64 - 1;
                    if !(*lo..=hi).contains(&x) {
                        return Err(format!(
                            "sets `{}` to {x}, outside its declared {lo}..={hi}",
                            v.name
                        ));
                    }
                    (x - lo) as u64
                }
                VarKind::Named(names) => {
                    let x = value.to_string();
                    names.iter().position(|n| *n == x).ok_or_else(|| {
                        format!(
                            "sets `{}` to {value}, not one of its declared values {}",
                            v.name,
                            names.join(", ")
                        )
                    })? as u64
                }
                VarKind::Bool => u64::from(
                    value
                        .as_bool()
                        .map_err(|t| format!("sets `{}` to {t}, not true or false", v.name))?,
                ),
            };
            s += i * v.stride;
        }
        if let Some(k) = m
            .keys()
            .find(|k| !self.vars.iter().any(|v| v.name == k.as_str()))
        {
            return Err(format!(
                "sets `{k}`, which is not a declared state variable ({})",
                self.vars
                    .iter()
                    .map(|v| v.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Ok(s)
    }

    /// State `s` in words, for messages.
    pub fn words(&self, s: u64) -> String {
        let m = self.unpack(s);
        let parts: Vec<String> = self
            .vars
            .iter()
            .map(|v| {
                format!(
                    "{}: {}",
                    v.name,
                    m.get(v.name.as_str())
                        .map(|x| x.to_string())
                        .unwrap_or_default()
                )
            })
            .collect();
        format!("{{{}}}", parts.join(", "))
    }
}
