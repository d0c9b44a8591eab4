//! The rule systems: each is one folder under `system/` with one value that implements
//! [`RuleSystem`] (its names, scenarios, parameters, optional rules, unit specs, odds sheet, and
//! how a scenario becomes a runnable [`Job`]). The built-in ones are listed once in
//! [`BUILT_IN`]; the registry ([`systems`], [`find`]) starts with them and grows at run time
//! ([`register`]). Nothing outside a system's folder matches on its name or assumes how many
//! there are: the command line, experiments, `list`, `odds` and the tests all go through the
//! registry.

pub(crate) mod battle;
pub mod cases;
pub mod edges;
pub(crate) mod effectiveness;
pub(crate) mod linear_warfare;
pub(crate) mod named;
pub(crate) mod rank_and_file;

use crate::error::{Error, Result};
use crate::odds::Odds;
use crate::params::{self, Input, OptionDef, ParamDef, Resolved};
use crate::scenario::{Describe, Job, Scenario};

pub use battle::BATTLE_PARAMS;

/// A rule system: everything the tool knows of one set of rules.
///
/// What a rule system is, as data: its name and description and what `list` shows of it.
#[derive(Debug, Clone, Copy)]
pub struct About {
    /// The name used with `--system` and in experiment files (`rank-and-file`).
    pub name: &'static str,
    /// A one-line description.
    pub title: &'static str,
    /// The rule ids it models (`RF-1 to RF-12`).
    pub rules: &'static str,
    /// Its scenarios, in the order `list` shows them.
    pub scenarios: &'static [Scenario],
    /// Its own parameters; every system with battles also takes [`BATTLE_PARAMS`].
    pub params: &'static [ParamDef],
    /// Its rule parameters: every number and choice of its rules a designer may change
    /// (`--rule KEY=VALUE`), each defaulting to the source's value.
    pub rule_params: &'static [ParamDef],
    /// Its optional rules.
    pub options: &'static [OptionDef],
    /// Which states leave a hole in the line, and why.
    pub holes: &'static str,
    /// The keywords of its unit specs (`--attacker`, `--defender`).
    pub specs: &'static str,
    /// Its benchmark cases: one realistic setup of each of its scenarios.
    pub bench: &'static [cases::BenchCase],
    /// Its exact solvers' benchmark cases: the largest realistic units.
    pub exact_bench: &'static [cases::BenchCase],
    /// Plain hand-written loops of some of its benchmark cases, for `bench`'s ratios.
    pub references: &'static [cases::Reference],
    /// What one trial of a scenario is under this system, where it differs from the scenario's
    /// own words (Linear Warfare's test is an opposed round or a volley, not a morale test).
    pub helps: &'static [(Scenario, &'static str)],
    /// (Attacker, defender) unit specs at the edges of what its specs allow (the largest and
    /// the smallest), for the edge test ([`edges`]).
    pub edge_specs: &'static [(&'static str, &'static str)],
    /// The parts of its sources it leaves out (docs/RULES.md §5), with the scenarios each bears
    /// on.
    pub not_modelled: &'static [Omission],
}

/// A part of a system's sources the tool leaves out, and the scenarios whose numbers it would
/// bear on: what `list`, each scenario's `--help`, every report and odds sheet name.
#[derive(Debug, Clone, Copy)]
pub struct Omission {
    /// What is left out, in a few words.
    pub what: &'static str,
    /// The rule ids it belongs to.
    pub rules: &'static str,
    /// The scenarios it bears on.
    pub scenarios: &'static [Scenario],
}

/// What every job of a system is built from, whatever the system: its name and what its
/// sources hold that the tool leaves out, the scenario, every parameter in force and the
/// optional rules switched on. Each system's `Ctx` holds one beside its typed parameters, and
/// a battle job gets it in its [`BattleSetup`](battle::BattleSetup).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Setup<'a> {
    /// The system's name.
    pub system: &'static str,
    /// What the system's sources hold that the tool leaves out.
    pub not_modelled: &'static [Omission],
    /// The scenario.
    pub scenario: Scenario,
    /// Every parameter in force, for the report and for the tables read later.
    pub resolved: &'a Resolved,
    /// The optional rules switched on, by name, for the report.
    pub options: &'a [String],
}

impl Setup<'_> {
    /// The report's description of this run, with `notes` and the line of what the system
    /// leaves out of the scenario.
    pub fn describe(&self, mut notes: Vec<String>) -> Describe {
        notes.extend(not_modelled_line(self.not_modelled, &[self.scenario]));
        self.resolved
            .describe(self.system, self.scenario, self.options, notes)
    }
}

/// A system's states that leave a hole in the line (its `HOLES`, "a, b and c") as the end of
/// a sentence "a unit leaves a hole in the line when …": "it is a, b or c".
pub fn holes_when(holes: &str) -> String {
    match holes.rsplit_once(" and ") {
        Some((rest, last)) => format!("it is {rest} or {last}"),
        None => format!("it is {holes}"),
    }
}

/// The line a report or sheet gives what `omissions` leaves out of `scenarios` (any of them):
/// "not modelled here: … (docs/RULES.md §5)", or `None` when nothing bears on them.
pub fn not_modelled_line(omissions: &[Omission], scenarios: &[Scenario]) -> Option<String> {
    let items: Vec<String> = omissions
        .iter()
        .filter(|o| o.scenarios.iter().any(|s| scenarios.contains(s)))
        // The omission's heading and its detail a dash apart: after "not modelled here:" a
        // second colon read as a third level (writer trial 74).
        .map(|o| format!("{} ({})", o.what.replacen(": ", " \u{2014} ", 1), o.rules))
        .collect();
    (!items.is_empty()).then(|| {
        format!(
            "not modelled here: {} (what and why: docs/RULES.md §5)",
            items.join("; ")
        )
    })
}

/// On a player's sheet, in a player's words: what its tables (of `scenarios`) leave out, by rule,
/// each by its heading alone ("distances and the tabletop", not the modelling detail after its
/// colon), with no pointer into the project's docs; `None` when nothing bears on them.
pub(crate) fn sheet_left_out(omissions: &[Omission], scenarios: &[Scenario]) -> Option<String> {
    let items: Vec<String> = omissions
        .iter()
        .filter(|o| o.scenarios.iter().any(|s| scenarios.contains(s)))
        .map(|o| {
            format!(
                "{} ({})",
                o.what.split(": ").next().unwrap_or(o.what),
                o.rules
            )
        })
        .collect();
    (!items.is_empty()).then(|| format!("These tables leave out {}.", items.join("; ")))
}

/// A whole-number keyword of a system's unit specs that a points budget buys (`stands=N`): what
/// makes a unit bigger without changing what it is (`morale-lab points`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// The keyword, written `KEY=N` in a unit spec (`stands`).
    pub key: &'static str,
    /// One of it, in words (`stand`): a points file prices it in `[cost] per_<one>`.
    pub one: &'static str,
    /// The fewest a unit may have.
    pub min: u32,
    /// The most a unit may have.
    pub max: u32,
    /// The rule ids it comes from.
    pub rule: &'static str,
}

/// One rule system: its description ([`About`]), its defaults and outcomes, building a job of
/// one of its scenarios, and its odds sheet.
///
/// A built-in system is one folder under `system/` (see `docs/DESIGN.md`'s checklist) with a
/// value implementing this trait, and one line in [`BUILT_IN`]; a system made at run time is
/// added with [`register`].
pub trait RuleSystem: Sync {
    /// What it is, as data.
    fn about(&self) -> &'static About;
    /// The name used with `--system` and in experiment files (`rank-and-file`).
    fn name(&self) -> &'static str {
        self.about().name
    }
    /// A one-line description.
    fn title(&self) -> &'static str {
        self.about().title
    }
    /// The rule ids it models (`RF-1 to RF-12`).
    fn rules(&self) -> &'static str {
        self.about().rules
    }
    /// Its scenarios, in the order `list` shows them.
    fn scenarios(&self) -> &'static [Scenario] {
        self.about().scenarios
    }
    /// Its own parameters; every system with battles also takes [`BATTLE_PARAMS`].
    fn params(&self) -> &'static [ParamDef] {
        self.about().params
    }
    /// Its rule parameters (`--rule KEY=VALUE`), defaulting to the source's values.
    fn rule_params(&self) -> &'static [ParamDef] {
        self.about().rule_params
    }
    /// Its optional rules.
    fn options(&self) -> &'static [OptionDef] {
        self.about().options
    }
    /// What one trial of `scenario` is under this system, in a line (the explorer's form).
    fn scenario_help(&self, scenario: Scenario) -> &'static str {
        self.about()
            .helps
            .iter()
            .find(|(sc, _)| *sc == scenario)
            .map_or(scenario.about().help, |(_, h)| h)
    }
    /// Which states leave a hole in the line, and why.
    fn holes(&self) -> &'static str {
        self.about().holes
    }
    /// The keywords of its unit specs (`--attacker`, `--defender`).
    fn specs(&self) -> &'static str {
        self.about().specs
    }
    /// The parts of its sources it leaves out (docs/RULES.md §5).
    fn not_modelled(&self) -> &'static [Omission] {
        self.about().not_modelled
    }
    /// What a points budget may buy of one of its units, the usual first (`morale-lab points`);
    /// none when its units have no size (a budget then buys whole units, in a line).
    fn sizes(&self) -> &'static [Size] {
        &[]
    }
    /// Where the system comes from when it is not built in: a mechanic file's path and the
    /// SHA-256 of its text.
    fn source(&self) -> Option<String> {
        None
    }
    /// The short form of [`RuleSystem::source`] that reports name in their rules line: the
    /// path and the first 16 hex digits of the SHA-256.
    fn source_short(&self) -> Option<String> {
        None
    }
    /// Defaults that differ from the parameter table's in one scenario (a `rally` starts with
    /// the unit shaken) or follow another input (a unit type's pips).
    fn defaults(&self, _scenario: Scenario, _inputs: &[Input]) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    /// A runnable job of `scenario` from its checked parameters and optional rules.
    ///
    /// # Errors
    /// Values that are each allowed but do not fit together.
    fn build(&self, scenario: Scenario, p: &Resolved, options: &[String]) -> Result<Box<dyn Job>>;
    /// Its odds sheet for a rulebook: exact chances only, under the rule parameters of `rules`
    /// (see [`odds`]), for what `ask` asks (a unit size, the losses shown, the losses a
    /// rallying unit has had).
    ///
    /// # Errors
    /// Anything in `ask` this system's sheet does not take, or rule parameters that do not fit
    /// together.
    fn odds(&self, ask: &crate::odds::OddsAsk, rules: &Resolved) -> Result<Odds>;
}

/// The built-in rule systems, in the order `list` shows them.
pub static BUILT_IN: [&dyn RuleSystem; 3] = [
    &rank_and_file::RankAndFile,
    &effectiveness::Effectiveness,
    &linear_warfare::LinearWarfare,
];

/// A list of rule systems, each name once: the built-in ones and any added at run time.
#[derive(Clone)]
pub struct Registry {
    systems: Vec<&'static dyn RuleSystem>,
}

impl Registry {
    /// The built-in systems ([`BUILT_IN`]).
    pub fn built_in() -> Self {
        Registry {
            systems: BUILT_IN.to_vec(),
        }
    }

    /// Adds `system` after the others.
    ///
    /// # Errors
    /// [`Error::Conflict`] when a system of that name is already there.
    pub fn add(&mut self, system: &'static dyn RuleSystem) -> Result<()> {
        if self.systems.iter().any(|s| s.name() == system.name()) {
            return Err(Error::Conflict(format!(
                "a rule system named {} is already there: give the new one another name",
                system.name()
            )));
        }
        self.systems.push(system);
        Ok(())
    }

    /// Every system, built-in ones first, then in the order they were added.
    pub fn systems(&self) -> &[&'static dyn RuleSystem] {
        &self.systems
    }

    /// Look a system up by name.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming `--system` and the systems there are.
    pub fn find(&self, name: &str) -> Result<&'static dyn RuleSystem> {
        // A file goes by its path, written any way that names the same file.
        let normal;
        let name = if crate::paths::is_mechanic(name) {
            normal = crate::paths::normalize(name);
            normal.as_str()
        } else {
            name
        };
        self.systems
            .iter()
            .find(|s| s.name() == name)
            .copied()
            .ok_or_else(|| Error::Invalid {
                what: "--system".into(),
                value: name.into(),
                allowed: format!(
                    "systems are {}",
                    self.systems
                        .iter()
                        .map(|s| s.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.systems.iter().map(|s| s.name()))
            .finish()
    }
}

/// The process's registry: the built-in systems and those [`register`]ed since.
fn registry() -> &'static std::sync::RwLock<Registry> {
    static REGISTRY: std::sync::OnceLock<std::sync::RwLock<Registry>> = std::sync::OnceLock::new();
    REGISTRY.get_or_init(|| std::sync::RwLock::new(Registry::built_in()))
}

/// Every rule system this process knows, in the order `list` shows them: the built-in ones,
/// then those registered at run time.
pub fn systems() -> Vec<&'static dyn RuleSystem> {
    let r = registry().read().unwrap_or_else(|e| e.into_inner());
    r.systems().to_vec()
}

/// Adds a rule system made at run time (from a file, say) to the process's registry, where
/// [`find`], [`build`], [`odds`], `list` and experiments find it by name.
///
/// # Errors
/// [`Error::Conflict`] when a system of that name is already registered.
pub fn register(system: &'static dyn RuleSystem) -> Result<()> {
    let mut r = registry().write().unwrap_or_else(|e| e.into_inner());
    r.add(system)
}

/// Look a system up by name in the process's registry, or a mechanic file loaded in this
/// process by its path (a mechanic file, loaded by the mechanic module).
///
/// # Errors
/// [`Error::Invalid`] naming `--system` and the systems there are.
pub fn find(name: &str) -> Result<&'static dyn RuleSystem> {
    // A mechanic file loaded in this process goes by its path.
    if crate::paths::is_mechanic(name)
        && let Some(m) = files()
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&crate::paths::normalize(name))
    {
        return Ok(*m);
    }
    let r = registry().read().unwrap_or_else(|e| e.into_inner());
    r.find(name)
}

/// The systems loaded from files (mechanic files), by their path: found by [`find`], but not
/// among [`systems`], so the walks over every system stay the built-in and registered ones.
fn files() -> &'static std::sync::RwLock<std::collections::BTreeMap<String, &'static dyn RuleSystem>>
{
    static FILES: std::sync::OnceLock<
        std::sync::RwLock<std::collections::BTreeMap<String, &'static dyn RuleSystem>>,
    > = std::sync::OnceLock::new();
    FILES.get_or_init(Default::default)
}

/// Make the system loaded from the file `path` (a mechanic file) findable by that path.
pub fn add_file(path: &str, system: &'static dyn RuleSystem) {
    files()
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(crate::paths::normalize(path), system);
}

/// Forget the system loaded from the file `path` (a mechanic file unloaded).
pub fn remove_file(path: &str) {
    files()
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&crate::paths::normalize(path));
}

/// Every parameter `system` takes: its own, then the battle parameters when it has battles.
pub fn all_params(system: &dyn RuleSystem) -> Vec<&'static ParamDef> {
    let battles = system.scenarios().iter().any(|s| s.is_battle());
    let battle: &'static [ParamDef] = if battles { &BATTLE_PARAMS } else { &[] };
    system.params().iter().chain(battle).collect()
}

/// The default of `p` for `sys`, as `list` prints it: the table's, or the system's own where it
/// differs (Linear Warfare's `fire_range` is one move); where it differs in some of the
/// scenarios only, those are named ("in-line; rally: retreating").
pub fn default_text(sys: &dyn RuleSystem, p: &ParamDef) -> String {
    let mut by: Vec<(Scenario, String)> = Vec::new();
    for &sc in p.scenarios.iter().filter(|s| sys.scenarios().contains(s)) {
        let v = sys
            .defaults(sc, &[])
            .into_iter()
            .find(|(k, _)| *k == p.key)
            .map_or_else(|| p.default.to_string(), |(_, v)| v);
        by.push((sc, v));
    }
    let first = by.first().map_or(p.default.to_string(), |(_, v)| v.clone());
    if by.iter().all(|(_, v)| *v == first) {
        return first;
    }
    let odd: Vec<String> = by
        .iter()
        .filter(|(_, v)| v != p.default)
        .map(|(s, v)| format!("{s}: {v}"))
        .collect();
    format!("{}; {}", p.default, odd.join("; "))
}

/// The odds sheet of `system` under the rule parameters of `rules` (inputs from `--rule` and
/// rule-set files: every one must be a rule parameter). The sheet says which rules it shows:
/// `rules_line` is "as written" or each rule parameter changed from the source.
///
/// # Errors
/// An unknown system, a key that is not one of its rule parameters, a value outside what is
/// allowed, and the sheet's own refusals.
pub fn odds(system: &str, ask: &crate::odds::OddsAsk, rules: &[Input]) -> Result<Odds> {
    let sys = find(system)?;
    if let Some(i) = rules.iter().find(|i| i.source != params::Source::Rule) {
        return Err(Error::Conflict(format!(
            "{} is part of a situation: an odds sheet takes rule parameters only (--rule, --rules)",
            i.what()
        )));
    }
    let r = params::resolve(
        &all_params(sys),
        sys.rule_params(),
        sys.name(),
        Scenario::Test,
        rules,
        &[],
    )?;
    let mut sheet = sys.odds(ask, &r)?;
    sheet.set_rules(&r);
    // The sheet's tables are tests and rallies.
    // The sheet's tables are tests and rallies.
    sheet.notes.extend(sheet_left_out(
        sys.not_modelled(),
        &[Scenario::Test, Scenario::Rally],
    ));
    Ok(sheet)
}

/// Build a runnable scenario of a system from the user's inputs and optional rules.
///
/// # Errors
/// An unknown system or scenario, or any input the system's parameters reject.
pub fn build(
    system: &str,
    scenario: Scenario,
    inputs: &[Input],
    options: &[String],
) -> Result<Box<dyn Job>> {
    build_system(find(system)?, scenario, inputs, options)
}

/// [`build`] for a system in hand (one not in the registry, say).
///
/// # Errors
/// As [`build`].
pub fn build_system(
    sys: &dyn RuleSystem,
    scenario: Scenario,
    inputs: &[Input],
    options: &[String],
) -> Result<Box<dyn Job>> {
    if !sys.scenarios().contains(&scenario) {
        return Err(scenario.unsupported(sys.name(), sys.scenarios()));
    }
    let options = params::check_options(sys.options(), sys.name(), options)?;
    let defaults = sys.defaults(scenario, inputs);
    let p = params::resolve(
        &all_params(sys),
        sys.rule_params(),
        sys.name(),
        scenario,
        inputs,
        &defaults,
    )?;
    sys.build(scenario, &p, &options)
}

/// Every parameter of `system` at its default, the rules as the source writes them: what a
/// system's tests read the rules code's own defaults against.
/// The parameter `key` of system `s` in `scenario`: its definition and whether it is a rule
/// parameter.
pub fn param_of(
    s: &dyn RuleSystem,
    scenario: Scenario,
    key: &str,
) -> Option<(&'static ParamDef, bool)> {
    if let Some(p) = s.rule_params().iter().find(|p| p.key == key) {
        return Some((p, true));
    }
    all_params(s)
        .into_iter()
        .find(|p| p.key == key && p.scenarios.contains(&scenario))
        .map(|p| (p, false))
}

#[cfg(test)]
pub(crate) fn source_rules(system: &dyn RuleSystem) -> Resolved {
    params::resolve(
        &all_params(system),
        system.rule_params(),
        system.name(),
        Scenario::Test,
        &[],
        &[],
    )
    .expect("the defaults resolve")
}
