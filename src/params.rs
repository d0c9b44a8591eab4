//! Parameters: every number, choice and switch a scenario takes, with its default, its allowed
//! values and its meaning in one table per system ([`ParamDef`]).
//!
//! The same table validates the command line (flags and `--set KEY=VALUE`), fills the `params`
//! block of every report (defaults included, so a run can be repeated), and is printed by
//! `morale-lab list`. Where docs/RULES.md chose a default the sources do not give, it is here as a
//! default a user can change, never a hidden constant.

use serde_json::{Map, Value as Json};

use crate::error::{Error, Result};
use crate::frac::Frac;
use crate::scenario::{Describe, Scenario};

/// What values a parameter takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Int {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A real number in `min..=max`.
    Real {
        /// Smallest allowed.
        min: f64,
        /// Largest allowed.
        max: f64,
    },
    /// `true` or `false`.
    Bool,
    /// One of a list of names.
    Choice(&'static [&'static str]),
    /// A probability distribution over 0, 1, 2 … as comma-separated fractions or decimals
    /// adding up to 1 (empty: not used).
    Dist,
    /// A probability from 0 to 1, as a fraction (`1/6`) or a decimal (`0.25`), kept exact.
    Prob,
    /// A spec checked by the system that reads it (a unit spec such as `guards pips=7
    /// charging`, or a fire spec such as `6 on 5`): what is allowed, with an example that fits
    /// the system.
    Spec(&'static str),
}

impl Kind {
    /// What is allowed, in words, for error messages and `list`.
    pub fn allowed(&self) -> String {
        match self {
            Kind::Int { min, max } => format!("a whole number from {min} to {max}"),
            Kind::Real { min, max } => format!("a number from {min} to {max}"),
            Kind::Bool => "true or false".into(),
            Kind::Choice(c) => format!("one of {}", c.join(", ")),
            Kind::Dist => {
                "comma-separated chances of 0, 1, 2 … losses (fractions like 1/6 or decimals), adding up to exactly 1".into()
            }
            Kind::Prob => "a chance from 0 to 1, as a fraction like 1/6 or a decimal like 0.25".into(),
            Kind::Spec(allowed) => (*allowed).into(),
        }
    }
}

/// One parameter of a system's scenarios.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParamDef {
    /// Its key (`stands`, `fire_to_hit` …), used with `--set` and in experiment files.
    pub key: &'static str,
    /// Its own flag, when it has one (`--stands`).
    pub flag: Option<&'static str>,
    /// Allowed values.
    pub kind: Kind,
    /// The default, as text.
    pub default: &'static str,
    /// What it means, in the game's terms.
    pub meaning: &'static str,
    /// The docs/RULES.md ids it comes from.
    pub rule: &'static str,
    /// The scenarios it applies to.
    pub scenarios: &'static [Scenario],
}

/// An optional rule that can be switched on by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionDef {
    /// Its name (`keep-broken-units`).
    pub name: &'static str,
    /// The docs/RULES.md id.
    pub rule: &'static str,
    /// What it does.
    pub meaning: &'static str,
}

/// Where a value came from, for error messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A flag of its own (`--stands`).
    Flag(String),
    /// `--set KEY=VALUE`.
    Set,
    /// `--rule KEY=VALUE`: a rule parameter (a number or choice of the rules themselves).
    Rule,
}

/// A value given by the user, not yet checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The key it sets.
    pub key: String,
    /// The value as typed.
    pub value: String,
    /// Where it was typed.
    pub source: Source,
}

impl Input {
    /// A value typed with a flag of its own.
    pub fn flag(flag: &str, key: &str, value: impl Into<String>) -> Input {
        Input {
            key: key.into(),
            value: value.into(),
            source: Source::Flag(flag.into()),
        }
    }

    /// Parse `KEY=VALUE` as given to `--set`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when there is no `=` or the key is empty.
    pub fn parse_set(s: &str) -> Result<Input> {
        Self::parse_pair(
            s,
            Source::Set,
            "KEY=VALUE, e.g. --set fire_dice=6 (see `morale-lab list` for keys)",
        )
    }

    /// Parse `KEY=VALUE` as given to `--rule`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when there is no `=` or the key is empty.
    pub fn parse_rule(s: &str) -> Result<Input> {
        Self::parse_pair(
            s,
            Source::Rule,
            "KEY=VALUE, e.g. --rule base_green=6 (see `morale-lab list` for the rule parameters)",
        )
    }

    fn parse_pair(s: &str, source: Source, allowed: &str) -> Result<Input> {
        match s.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok(Input {
                key: k.trim().to_string(),
                value: v.trim().to_string(),
                source,
            }),
            _ => Err(Error::Invalid {
                what: if source == Source::Rule {
                    "--rule".into()
                } else {
                    "--set".into()
                },
                value: s.into(),
                allowed: allowed.into(),
            }),
        }
    }

    /// A rule parameter's value, as a rule-set file or an experiment's `rules` gives it.
    pub fn rule(key: &str, value: impl Into<String>) -> Input {
        Input {
            key: key.into(),
            value: value.into(),
            source: Source::Rule,
        }
    }

    /// How the user gave it, for messages: the flag, `--set KEY` or `--rule KEY`.
    pub fn what(&self) -> String {
        match &self.source {
            Source::Flag(f) => f.clone(),
            Source::Set => format!("--set {}", self.key),
            Source::Rule => format!("--rule {}", self.key),
        }
    }
}

/// A checked value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A whole number.
    Int(i64),
    /// A real number.
    Real(f64),
    /// A switch.
    Bool(bool),
    /// A name from a list.
    Choice(String),
    /// Free text checked by its reader (a unit spec).
    Text(String),
    /// A distribution (empty when unused).
    Dist(Vec<Frac>),
    /// A probability.
    Prob(Frac),
}

impl Value {
    fn to_json(&self) -> Json {
        match self {
            Value::Int(i) => Json::from(*i),
            Value::Real(x) => Json::from(*x),
            Value::Bool(b) => Json::from(*b),
            Value::Choice(s) | Value::Text(s) => Json::from(s.clone()),
            Value::Dist(d) => Json::from(
                d.iter()
                    .map(|f| f.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            Value::Prob(f) => Json::from(f.to_string()),
        }
    }
}

/// Parse a whole number as typed: digits with optional `_` or `,` separators, an optional sign,
/// or scientific notation with a whole value (`1e6`, `2.5e7`).
pub fn parse_int(s: &str) -> Option<i64> {
    let t: String = s.trim().chars().filter(|&c| c != '_' && c != ',').collect();
    if let Ok(v) = t.parse::<i64>() {
        return Some(v);
    }
    if t.contains(['e', 'E']) {
        let x: f64 = t.parse().ok()?;
        if x.is_finite() && x.fract() == 0.0 && x.abs() < 9.2e18 {
            return Some(x as i64);
        }
    }
    None
}

/// The command line's flags for parameters of scenarios, as (key, flag, presence): a
/// parameter with one of these keys takes that flag (`--class`); a presence flag (`--elite`)
/// sets a true-or-false parameter to true. The command line makes its flags from this list (a
/// test checks they agree), and a mechanic file's parameters take the flag of their key.
pub const COMMAND_LINE_FLAGS: &[(&str, &str, bool)] = &[
    ("class", "--class", false),
    ("stands", "--stands", false),
    ("lost", "--lost", false),
    ("state", "--state", false),
    ("leader", "--leader", false),
    ("elite", "--elite", true),
    ("general", "--general", true),
    ("supported", "--supported", true),
    ("type", "--type", false),
    ("pips", "--pips", false),
    ("attacker", "--attacker", false),
    ("defender", "--defender", false),
    ("rerolls", "--rerolls", false),
    ("turns", "--turns", false),
];

/// The value of `raw` as a parameter of `kind` takes it, or `None` when it is not allowed.
pub(crate) fn parse_value(kind: &Kind, raw: &str) -> Option<Value> {
    match kind {
        Kind::Int { min, max } => parse_int(raw)
            .filter(|v| (*min..=*max).contains(v))
            .map(Value::Int),
        Kind::Real { min, max } => raw
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && (*min..=*max).contains(v))
            .map(Value::Real),
        Kind::Bool => match raw.trim() {
            "true" | "yes" | "1" | "on" => Some(Value::Bool(true)),
            "false" | "no" | "0" | "off" => Some(Value::Bool(false)),
            _ => None,
        },
        Kind::Choice(c) => c
            .iter()
            .find(|&&x| x == raw.trim())
            .map(|x| Value::Choice(x.to_string())),
        Kind::Dist => {
            if raw.trim().is_empty() {
                return Some(Value::Dist(Vec::new()));
            }
            let parts: Option<Vec<Frac>> = raw.split(',').map(Frac::parse).collect();
            let parts = parts?;
            if parts.iter().any(|f| f.num > f.den) {
                return None;
            }
            Some(Value::Dist(parts))
        }
        Kind::Spec(_) => Some(Value::Text(raw.trim().to_string())),
        Kind::Prob => Frac::parse(raw).filter(|f| f.num <= f.den).map(Value::Prob),
    }
}

/// The checked parameters of one run, every key of the scenario present.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    values: Vec<(&'static ParamDef, Value, Option<Input>)>,
    /// The rule parameters: the system's rules as this run plays them.
    rules: Vec<(&'static ParamDef, Value, Option<Input>)>,
}

/// A rule parameter that differs from the source's value.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleChange {
    /// Its key.
    pub key: &'static str,
    /// Its value in this run, as the report's JSON gives it.
    pub value: Json,
    /// The source's value.
    pub source: &'static str,
}

impl Resolved {
    fn entry(&self, key: &str) -> Option<&(&'static ParamDef, Value, Option<Input>)> {
        self.values
            .iter()
            .chain(&self.rules)
            .find(|(d, _, _)| d.key == key)
    }
    fn get(&self, key: &str) -> &Value {
        &self
            .entry(key)
            .unwrap_or_else(|| panic!("parameter {key} is not defined for this scenario"))
            .1
    }
    /// Every rule parameter with its value in this run, as JSON, in table order.
    pub fn rules_json(&self) -> Map<String, Json> {
        self.rules
            .iter()
            .map(|(d, v, _)| (d.key.to_string(), v.to_json()))
            .collect()
    }
    /// The rule parameters whose value differs from the source's (the table's default), in
    /// table order.
    pub fn rules_changed(&self) -> Vec<RuleChange> {
        self.rules
            .iter()
            .filter(|(d, v, _)| parse_value(&d.kind, d.default).as_ref() != Some(v))
            .map(|(d, v, _)| RuleChange {
                key: d.key,
                value: v.to_json(),
                source: d.default,
            })
            .collect()
    }
    /// The report's description of a run of `system`'s `scenario` with these parameters in
    /// force, the optional rules `options` switched on, and `notes`.
    pub fn describe(
        &self,
        system: &str,
        scenario: Scenario,
        options: &[String],
        notes: Vec<String>,
    ) -> Describe {
        Describe {
            system: system.into(),
            scenario: scenario.name().into(),
            params: self.to_json(),
            rules: self.rules_json(),
            rules_changed: self
                .rules_changed()
                .into_iter()
                .map(|c| (c.key.to_string(), c.value, c.source.to_string()))
                .collect(),
            options: options.to_vec(),
            notes,
            source: None,
        }
    }
    /// True when `key` applies to this scenario.
    pub fn has(&self, key: &str) -> bool {
        self.entry(key).is_some()
    }
    /// Whether the user gave `key` (rather than leaving its default).
    pub fn given(&self, key: &str) -> bool {
        self.entry(key).is_some_and(|(_, _, i)| i.is_some())
    }
    /// A whole-number parameter.
    pub fn int(&self, key: &str) -> i64 {
        match self.get(key) {
            Value::Int(i) => *i,
            v => panic!("{key} is not a whole number: {v:?}"),
        }
    }
    /// A real-number parameter.
    pub fn real(&self, key: &str) -> f64 {
        match self.get(key) {
            Value::Real(x) => *x,
            v => panic!("{key} is not a real number: {v:?}"),
        }
    }
    /// A switch.
    pub fn bool(&self, key: &str) -> bool {
        match self.get(key) {
            Value::Bool(b) => *b,
            v => panic!("{key} is not a switch: {v:?}"),
        }
    }
    /// A choice.
    pub fn choice(&self, key: &str) -> &str {
        match self.get(key) {
            Value::Choice(s) => s,
            v => panic!("{key} is not a choice: {v:?}"),
        }
    }
    /// A distribution (empty when unused).
    pub fn dist(&self, key: &str) -> &[Frac] {
        match self.get(key) {
            Value::Dist(d) => d,
            v => panic!("{key} is not a distribution: {v:?}"),
        }
    }
    /// A probability.
    pub fn prob(&self, key: &str) -> Frac {
        match self.get(key) {
            Value::Prob(f) => *f,
            v => panic!("{key} is not a probability: {v:?}"),
        }
    }
    /// How the user set `key`, e.g. `--lost` or `--set lost` (or `key` itself for a default),
    /// for messages about values that do not fit together.
    pub fn what(&self, key: &str) -> String {
        self.entry(key)
            .and_then(|(d, _, i)| {
                i.as_ref()
                    .map(Input::what)
                    .or_else(|| d.flag.map(str::to_string))
            })
            .unwrap_or_else(|| key.to_string())
    }
    /// How `key` was set (see [`How`]).
    pub fn how(&self, key: &str) -> How {
        How {
            what: self.what(key),
            given: self.given(key),
        }
    }
    /// The value of `key` from `table` as a field's type: the resolved value where the key
    /// applies to the scenario, else the table's default.
    ///
    /// # Errors
    /// A value (or default) that does not fit the type: a defect in the table, reported rather
    /// than panicking.
    pub fn typed<T: FromValue>(&self, table: &[ParamDef], key: &str) -> Result<T> {
        let value = match self.entry(key) {
            Some((_, v, _)) => Some(v.clone()),
            None => table
                .iter()
                .find(|d| d.key == key)
                .and_then(|d| parse_value(&d.kind, d.default)),
        };
        value
            .as_ref()
            .and_then(T::from_value)
            .ok_or_else(|| Error::Invalid {
                what: key.into(),
                value: format!("{value:?}"),
                allowed: format!(
                    "a value of type {} (a defect in the parameter table)",
                    std::any::type_name::<T>()
                ),
            })
    }
    /// The value of `def` in this run: its resolved value where it applies to the scenario,
    /// else its default.
    pub(crate) fn value_or_default(&self, def: &ParamDef) -> Option<Value> {
        match self.entry(def.key) {
            Some((_, v, _)) => Some(v.clone()),
            None => parse_value(&def.kind, def.default),
        }
    }
    /// Every parameter as JSON, in table order.
    pub fn to_json(&self) -> Map<String, Json> {
        self.values
            .iter()
            .map(|(d, v, _)| (d.key.to_string(), v.to_json()))
            .collect()
    }
}

/// A checked value as a typed field of a system's parameter struct (see [`param_table!`]).
pub trait FromValue: Sized {
    /// The field's value, or `None` when the table's kind does not fit the field's type.
    fn from_value(v: &Value) -> Option<Self>;
}

macro_rules! int_value {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(v: &Value) -> Option<Self> {
                match v {
                    Value::Int(i) => <$t>::try_from(*i).ok(),
                    _ => None,
                }
            }
        }
    )*};
}
int_value!(i64, i32, u32, u16, u8, i8, usize);

impl FromValue for bool {
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

impl FromValue for f64 {
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Real(x) => Some(*x),
            _ => None,
        }
    }
}

/// Text is read only from free text (a unit spec): a choice is read as its enum
/// (`choice_enum!`), never as a string to compare later.
impl FromValue for String {
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Text(s) => Some(s.clone()),
            _ => None,
        }
    }
}

impl FromValue for Frac {
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Prob(f) => Some(*f),
            _ => None,
        }
    }
}

impl FromValue for Vec<Frac> {
    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Dist(d) => Some(d.clone()),
            _ => None,
        }
    }
}

/// A choice parameter read as a rule type: `$t::$parse(&str) -> Option<$t>`.
macro_rules! choice_value {
    ($t:ty, $parse:path) => {
        impl $crate::params::FromValue for $t {
            fn from_value(v: &$crate::params::Value) -> Option<Self> {
                match v {
                    $crate::params::Value::Choice(s) => $parse(s),
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use choice_value;

/// Declare a choice parameter's values as an enum: each variant with its name, the list of
/// names for the table (`NAMES`, so `Kind::Choice(T::NAMES)` writes them once), `name`,
/// `parse`, and reading from a resolved value. A choice is compared as an enum, never as text.
macro_rules! choice_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every choice, in the table's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Every choice's name, in the table's order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];
            /// Its name in parameters and reports.
            pub fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $text ),+
                }
            }
            /// The choice named `s`.
            pub fn parse(s: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|c| c.name() == s)
            }
        }

        $crate::params::choice_value!($name, $name::parse);
    };
}
pub(crate) use choice_enum;

/// How one parameter of a run was set: the flag or `--set KEY` it came from (the key itself for
/// a default), for messages about values that do not fit together.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct How {
    /// The flag or key, as a message names it (`--lost`, `--set lost`, `lost`).
    pub what: String,
    /// The user gave it (rather than leaving its default).
    pub given: bool,
}

impl std::fmt::Display for How {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

/// Declare a system's parameter table (`static`) and the typed struct its resolved values are
/// read into once, when a scenario is built. Each field's name is the parameter's key, so a key
/// is written once (or given as `field = "key"` where the key is not a Rust name); its doc is
/// the parameter's meaning. Fields of parameters that do not apply
/// to the scenario hold their defaults. A companion struct says how each was set.
macro_rules! param_table {
    (
        $(#[$tmeta:meta])* $tvis:vis static $table:ident;
        $(#[$smeta:meta])* $svis:vis struct $name:ident;
        $(#[$hmeta:meta])* how $how:ident;
        $(
            $field:ident $(= $key:literal)? : $ty:ty {
                flag: $flag:expr,
                kind: $kind:expr,
                default: $default:expr,
                meaning: $meaning:expr,
                rule: $rule:expr,
                scenarios: $scenarios:expr $(,)?
            }
        ),* $(,)?
    ) => {
        $(#[$tmeta])*
        $tvis static $table: [$crate::params::ParamDef; <[&str]>::len(&[$(stringify!($field)),*])] = [
            $($crate::params::ParamDef {
                key: $crate::params::param_key!($field $(, $key)?),
                flag: $flag,
                kind: $kind,
                default: $default,
                meaning: $meaning,
                rule: $rule,
                scenarios: $scenarios,
            }),*
        ];

        $(#[$smeta])*
        #[derive(Debug, Clone, PartialEq)]
        $svis struct $name {
            $(
                #[doc = $meaning]
                pub $field: $ty,
            )*
            /// How each parameter was set, for messages.
            pub how: $how,
        }

        $(#[$hmeta])*
        #[derive(Debug, Clone, PartialEq, Eq, Default)]
        $svis struct $how {
            $(
                #[doc = concat!("How `", $crate::params::param_key!($field $(, $key)?), "` was set.")]
                pub $field: $crate::params::How,
            )*
        }

        impl $name {
            /// The typed values of `p` (defaults for parameters that do not apply).
            ///
            /// # Errors
            /// A value whose kind does not fit its field (a defect in the table).
            pub fn read(p: &$crate::params::Resolved) -> $crate::error::Result<Self> {
                Ok($name {
                    $($field: p.typed(&$table, $crate::params::param_key!($field $(, $key)?))?,)*
                    how: $how {
                        $($field: p.how($crate::params::param_key!($field $(, $key)?)),)*
                    },
                })
            }
        }
    };
}
pub(crate) use param_table;

/// A parameter's key: its field's name, or the key given where that is not a Rust name
/// (`unit_type = "type"`).
macro_rules! param_key {
    ($field:ident) => {
        stringify!($field)
    };
    ($field:ident, $key:literal) => {
        $key
    };
}
pub(crate) use param_key;

/// Declare a system's optional rules (`static`) and the struct of switches read from the names
/// a user gave, once, when a scenario is built. Each switch is written once, as a field with its
/// option name (`keep_broken_units = "keep-broken-units"`); its doc is the rule's meaning.
macro_rules! option_table {
    (
        $(#[$tmeta:meta])* $tvis:vis static $table:ident;
        $(#[$smeta:meta])* $svis:vis struct $name:ident;
        $(
            $field:ident = $key:literal { rule: $rule:expr, meaning: $meaning:expr $(,)? }
        ),* $(,)?
    ) => {
        $(#[$tmeta])*
        $tvis static $table: [$crate::params::OptionDef; <[&str]>::len(&[$($key),*])] = [
            $($crate::params::OptionDef { name: $key, rule: $rule, meaning: $meaning }),*
        ];

        $(#[$smeta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        $svis struct $name {
            $(
                #[doc = $meaning]
                pub $field: bool,
            )*
        }

        impl $name {
            /// The switches of the optional rules named in `names` (already checked).
            #[allow(unused_variables, reason = "a system with no optional rules reads none")]
            pub fn read(names: &[String]) -> Self {
                $name {
                    $($field: names.iter().any(|n| n == $key),)*
                }
            }
        }
    };
}
pub(crate) use option_table;

/// Check `inputs` against a system's table for one scenario; fill every other key with its
/// default (`overrides` gives scenario-specific defaults). Later inputs win over earlier ones.
///
/// # Errors
/// [`Error::UnknownKey`] for a key the system does not have; [`Error::NotApplicable`] for one
/// that does not apply to this scenario; [`Error::Invalid`] for a value outside what is allowed.
pub fn resolve(
    defs: &[&'static ParamDef],
    rules: &'static [ParamDef],
    system: &str,
    scenario: Scenario,
    inputs: &[Input],
    overrides: &[(&str, String)],
) -> Result<Resolved> {
    let applies = |d: &ParamDef| d.scenarios.contains(&scenario);
    // A flag and a `--set` of the same key that disagree: one of them is a mistake, and the
    // later winning silently would hide it.
    for flag in inputs
        .iter()
        .filter(|i| matches!(i.source, Source::Flag(_)))
    {
        let def = defs.iter().find(|d| d.key == flag.key);
        let parsed = |v: &str| def.and_then(|d| parse_value(&d.kind, v));
        if let Some(set) = inputs.iter().find(|i| {
            i.source == Source::Set
                && i.key == flag.key
                && (parsed(&i.value).is_none() || parsed(&i.value) != parsed(&flag.value))
        }) {
            return Err(Error::Conflict(format!(
                "{} ({}) and --set {}={} contradict each other: give the value once",
                flag.what(),
                flag.value,
                set.key,
                set.value
            )));
        }
    }
    let (rule_inputs, inputs): (Vec<Input>, Vec<Input>) = inputs
        .iter()
        .cloned()
        .partition(|i| i.source == Source::Rule);
    for input in &rule_inputs {
        if rules.iter().any(|d| d.key == input.key) {
            continue;
        }
        if defs.iter().any(|d| d.key == input.key) {
            return Err(Error::Conflict(format!(
                "{} is not a rule parameter but part of the situation: give it with --set {}={} (experiments: set = {{ … }})",
                input.what(),
                input.key,
                input.value
            )));
        }
        let keys: Vec<&str> = rules.iter().map(|d| d.key).collect();
        return Err(Error::UnknownKey {
            what: input.what(),
            key: input.key.clone(),
            context: format!("{system} rules"),
            allowed: if keys.is_empty() {
                "none yet".into()
            } else {
                keys.join(", ")
            },
        });
    }
    for input in &inputs {
        if rules.iter().any(|d| d.key == input.key) {
            return Err(Error::Conflict(format!(
                "{} is a rule parameter, not part of the situation: give it with --rule {}={} (experiments: rules = {{ … }})",
                input.what(),
                input.key,
                input.value
            )));
        }
        match defs.iter().find(|d| d.key == input.key) {
            None if matches!(input.source, Source::Flag(_)) => {
                return Err(Error::Conflict(format!(
                    "{} is not a parameter of {system}; see `morale-lab list --system {system}`",
                    input.what()
                )));
            }
            None => {
                let keys: Vec<&str> = defs.iter().filter(|d| applies(d)).map(|d| d.key).collect();
                return Err(Error::UnknownKey {
                    what: input.what(),
                    key: input.key.clone(),
                    context: format!("{system} {scenario}"),
                    allowed: keys.join(", "),
                });
            }
            Some(d) if !applies(d) => {
                return Err(Error::NotApplicable {
                    what: input.what(),
                    scenario: scenario.name().into(),
                    system: system.into(),
                    applies: Scenario::join(d.scenarios, ", "),
                });
            }
            Some(_) => {}
        }
    }
    let mut values = Vec::new();
    for d in defs.iter().filter(|d| applies(d)) {
        values.push(resolve_one(d, &inputs, overrides)?);
    }
    // Every rule parameter is in force in every scenario (a rule set holds melee rules and
    // morale rules alike), whether or not the scenario reads it.
    let mut rule_values = Vec::new();
    for d in rules {
        rule_values.push(resolve_one(d, &rule_inputs, &[])?);
    }
    Ok(Resolved {
        values,
        rules: rule_values,
    })
}

/// The value of `d` from the last input that gives it, else its default.
fn resolve_one(
    d: &'static ParamDef,
    inputs: &[Input],
    overrides: &[(&str, String)],
) -> Result<(&'static ParamDef, Value, Option<Input>)> {
    let given = inputs.iter().rev().find(|i| i.key == d.key);
    let value = match given {
        Some(i) => parse_value(&d.kind, &i.value).ok_or_else(|| Error::Invalid {
            what: i.what(),
            value: i.value.clone(),
            allowed: format!("allowed: {}", d.kind.allowed()),
        })?,
        None => {
            let default = overrides
                .iter()
                .find(|(k, _)| *k == d.key)
                .map_or(d.default, |(_, v)| v.as_str());
            parse_value(&d.kind, default)
                .unwrap_or_else(|| panic!("default of {} must be valid", d.key))
        }
    };
    Ok((d, value, given.cloned()))
}

/// Check option names against a system's list.
///
/// # Errors
/// [`Error::Invalid`] naming `--option`, the unknown name and the system's options.
pub fn check_options(defs: &[OptionDef], system: &str, names: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        if !defs.iter().any(|d| d.name == n) {
            let known: Vec<&str> = defs.iter().map(|d| d.name).collect();
            return Err(Error::Invalid {
                what: "--option".into(),
                value: n.clone(),
                allowed: if known.is_empty() {
                    format!("{system} has no optional rules")
                } else {
                    format!("options of {system} are {}", known.join(", "))
                },
            });
        }
        if !out.contains(n) {
            out.push(n.clone());
        }
    }
    Ok(out)
}

/// Parameters' labels live with every other label a reader meets ([`crate::labels`]).
pub use crate::labels::{
    has_param_label as has_label, param as label, param_in_prose as label_in_prose,
};

// ---------------------------------------------------------------------------------------------
// Values as a list or ranges, typed for a sweep or a published page

/// The most values one sweep runs (each is one run per profile).
pub const MAX_VALUES: usize = 41;

/// Points a range of a real number or a chance is cut into when no step is given (the ends
/// included: 11 values).
const DEFAULT_STEPS: u64 = 10;

/// Read `values` as typed for a parameter of kind `kind`: values and ranges separated by
/// commas, a range `LOW..HIGH` (every whole number between, or for a real number or a chance
/// 11 values from end to end) or `LOW..HIGH step S`. Chances stay exact fractions.
pub fn parse_values(
    kind: &Kind,
    key: &str,
    text: &str,
) -> std::result::Result<Vec<String>, String> {
    let allowed =
        "values and ranges separated by commas, e.g. 2..8, or 0, 1/6, 1/3, or 0..1 step 1/12";
    let mut out: Vec<String> = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (range, step) = match item.split_once(" step ") {
            Some((r, s)) => (r.trim(), Some(s.trim())),
            None => (item, None),
        };
        let more = match range.split_once("..") {
            None if step.is_some() => {
                return Err(format!(
                    "'{item}': a step goes with a range LOW..HIGH step S"
                ));
            }
            None => vec![single(kind, key, range)?],
            Some((lo, hi)) => expand(kind, key, lo.trim(), hi.trim(), step)?,
        };
        for v in more {
            if !out.contains(&v) {
                out.push(v);
            }
            if out.len() > MAX_VALUES {
                return Err(format!(
                    "more than {MAX_VALUES} values: a sweep runs each value for every profile, so narrow the range or give a larger step"
                ));
            }
        }
    }
    match out.len() {
        0 => Err(format!("no values: {allowed}")),
        1 => Err(format!(
            "one value only: a sweep needs two or more ({allowed})"
        )),
        _ => Ok(out),
    }
}

/// One value, checked against the kind's range.
fn single(kind: &Kind, key: &str, s: &str) -> std::result::Result<String, String> {
    let bad = || format!("'{s}' is not allowed for {key}: {}", kind.allowed());
    match kind {
        Kind::Int { min, max } => {
            let x = crate::params::parse_int(s).ok_or_else(bad)?;
            if x < *min || x > *max {
                return Err(bad());
            }
            Ok(x.to_string())
        }
        Kind::Real { min, max } => {
            let x: f64 = s.parse().map_err(|_| bad())?;
            if !x.is_finite() || x < *min || x > *max {
                return Err(bad());
            }
            Ok(real_text(x))
        }
        Kind::Prob => {
            let f = Frac::parse(s).filter(|f| f.num <= f.den).ok_or_else(bad)?;
            Ok(f.to_string())
        }
        _ => Err(format!(
            "{key} is not a number ({}): a sweep runs whole numbers, numbers and chances",
            kind.allowed()
        )),
    }
}

/// A real number as the command line would write it, without float noise.
fn real_text(x: f64) -> String {
    let r = (x * 1e9).round() / 1e9;
    let t = format!("{r}");
    if t == "-0" { "0".into() } else { t }
}

/// The values of a range `lo..hi` (with an optional step).
fn expand(
    kind: &Kind,
    key: &str,
    lo: &str,
    hi: &str,
    step: Option<&str>,
) -> std::result::Result<Vec<String>, String> {
    let (a, b) = (single(kind, key, lo)?, single(kind, key, hi)?);
    let too_many = || {
        format!(
            "{lo}..{hi} holds more than {MAX_VALUES} values: narrow it or give a larger step (LOW..HIGH step S)"
        )
    };
    let bad_step =
        |s: &str| format!("'{s}' is not a step here: a positive number (a whole one for {key})");
    match kind {
        Kind::Int { .. } => {
            let (a, b): (i64, i64) = (a.parse().unwrap_or(0), b.parse().unwrap_or(0));
            let s = match step {
                Some(s) => crate::params::parse_int(s)
                    .filter(|s| *s > 0)
                    .ok_or_else(|| bad_step(s))?,
                None => 1,
            };
            let (lo, hi) = (a.min(b), a.max(b));
            if (hi - lo) / s + 1 > MAX_VALUES as i64 {
                return Err(too_many());
            }
            let mut v: Vec<String> = (0..=(hi - lo) / s)
                .map(|k| (lo + k * s).to_string())
                .collect();
            if a > b {
                v.reverse();
            }
            Ok(v)
        }
        Kind::Real { .. } => {
            let (a, b): (f64, f64) = (a.parse().unwrap_or(0.0), b.parse().unwrap_or(0.0));
            let s = match step {
                Some(s) => s
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| bad_step(s))?,
                None if a == b => 1.0,
                None => (b - a).abs() / DEFAULT_STEPS as f64,
            };
            let n = ((b - a).abs() / s + 1e-9).floor() as usize;
            if n + 1 > MAX_VALUES {
                return Err(too_many());
            }
            let dir = if b < a { -1.0 } else { 1.0 };
            Ok((0..=n).map(|k| real_text(a + dir * k as f64 * s)).collect())
        }
        Kind::Prob => {
            let (fa, fb) = (
                Frac::parse(&a).unwrap_or(Frac { num: 0, den: 1 }),
                Frac::parse(&b).unwrap_or(Frac { num: 0, den: 1 }),
            );
            let step = match step {
                Some(s) => Some(
                    Frac::parse(s)
                        .filter(|f| f.num > 0)
                        .ok_or_else(|| bad_step(s))?,
                ),
                None => None,
            };
            // Over one common denominator, as whole numbers (exact fractions stay exact).
            let den = [fa.den, fb.den, step.map_or(1, |s| s.den)]
                .iter()
                .fold(1u64, |l, &d| l / crate::frac::gcd(l, d) * d);
            let (mut den, mut na, mut nb) = (den, fa.num * (den / fa.den), fb.num * (den / fb.den));
            let ns = match step {
                Some(s) => s.num * (den / s.den),
                None => {
                    // Ten equal steps from end to end.
                    den *= DEFAULT_STEPS;
                    na *= DEFAULT_STEPS;
                    nb *= DEFAULT_STEPS;
                    (nb.abs_diff(na) / DEFAULT_STEPS).max(1)
                }
            };
            let (lo, hi) = (na.min(nb), na.max(nb));
            if (hi - lo) / ns + 1 > MAX_VALUES as u64 {
                return Err(too_many());
            }
            let mut v: Vec<String> = (0..=(hi - lo) / ns)
                .filter_map(|k| Frac::new(lo + k * ns, den))
                .map(|f| f.to_string())
                .collect();
            if na > nb {
                v.reverse();
            }
            Ok(v)
        }
        _ => Err(single(kind, key, lo).err().unwrap_or_default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static DEFS: [ParamDef; 2] = [
        ParamDef {
            key: "stands",
            flag: Some("--stands"),
            kind: Kind::Int { min: 1, max: 40 },
            default: "8",
            meaning: "",
            rule: "",
            scenarios: &[Scenario::Test, Scenario::Rally],
        },
        ParamDef {
            key: "turns",
            flag: Some("--turns"),
            kind: Kind::Int { min: 1, max: 10 },
            default: "5",
            meaning: "",
            rule: "",
            scenarios: &[Scenario::Rally],
        },
    ];

    #[test]
    fn numbers_as_people_type_them() {
        assert_eq!(parse_int("1_000_000"), Some(1_000_000));
        assert_eq!(parse_int("1e6"), Some(1_000_000));
        assert_eq!(parse_int("2.5e7"), Some(25_000_000));
        assert_eq!(parse_int("1.5"), None);
        assert_eq!(parse_int("ten"), None);
    }

    #[test]
    fn a_flag_and_a_set_that_disagree_are_refused() {
        let defs: Vec<&'static ParamDef> = DEFS.iter().collect();
        let both = |flag: &str, set: &str| {
            resolve(
                &defs,
                &[],
                "sys",
                Scenario::Rally,
                &[
                    Input::flag("--stands", "stands", flag),
                    Input::parse_set(&format!("stands={set}")).unwrap(),
                ],
                &[],
            )
        };
        let err = both("6", "8").unwrap_err();
        assert!(
            matches!(&err, Error::Conflict(m) if m.contains("--stands (6) and --set stands=8")),
            "{err}"
        );
        // The same value twice says nothing wrong.
        assert_eq!(both("8", "8").unwrap().int("stands"), 8);
    }

    #[test]
    fn resolves_defaults_and_rejects_bad_input() {
        let defs: Vec<&'static ParamDef> = DEFS.iter().collect();
        let r = resolve(
            &defs,
            &[],
            "sys",
            Scenario::Rally,
            &[],
            &[("turns", "7".into())],
        )
        .unwrap();
        assert_eq!((r.int("stands"), r.int("turns")), (8, 7));
        let err = resolve(
            &defs,
            &[],
            "sys",
            Scenario::Test,
            &[Input::flag("--turns", "turns", "3")],
            &[],
        )
        .unwrap_err();
        assert!(matches!(err, Error::NotApplicable { .. }), "{err}");
        let err = resolve(
            &defs,
            &[],
            "sys",
            Scenario::Rally,
            &[Input::parse_set("x=1").unwrap()],
            &[],
        )
        .unwrap_err();
        assert!(err.to_string().contains("stands, turns"), "{err}");
        let err = resolve(
            &defs,
            &[],
            "sys",
            Scenario::Rally,
            &[Input::flag("--stands", "stands", "0")],
            &[],
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid value '0' for --stands: allowed: a whole number from 1 to 40"
        );
        assert!(Input::parse_set("novalue").is_err());
    }
}
