//! Mechanic files: a designer's own rule system in a short Rhai script (`.rhai`), run through
//! the same machinery as a built-in system — the exact solver's oracle walks the script's dice,
//! the table sampler compiles its states' one-turn tables, and parameters, rule parameters,
//! optional rules, rule sets, experiments, sweeps, reports and charts take it as they take any
//! system. docs/MECHANICS.md is the guide for designers.
//!
//! A file holds functions only:
//! - `about()`: `#{ title, rules, scenarios, holes, specs, extends, defaults, sizes }`;
//! - `params()` and `rules()`: the situation and the rule parameters, each
//!   `#{ key, min, max | choices | kind: "bool" | "prob" | "dist" | "spec", value (its
//!   default), meaning, rule, scenarios }`; `options()`: `#{ name, rule, meaning }`;
//! - per scenario (`test`, `rally`, `under_fire`, `melee`): `<scenario>_state(p)` (or
//!   `state(p)`): the state's variables, `#{ name, min, max }` or `#{ name, values }`;
//!   `<scenario>_start(p)` (or `start(p)`); `<scenario>_turn(p, s)`, one turn, the only place
//!   dice are rolled; `<scenario>_report(p)` (or `report(p)`): classes, values, outcomes,
//!   metrics, tables, turns and notes; `class_of(p, s)` and `values_of(p, s)` (or their
//!   `<scenario>_` forms) read a state; optional `check(p)` refuses settings that do not fit.
//!
//! The library reads no files: [`load`] takes the file's text and a reader for the file it
//! `extends` (whose functions the extending file's replace, name for name).

mod chain;
mod decl;
mod report;
pub(crate) mod script;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use rhai::{AST, Dynamic, Engine, Map};

use crate::error::{Error, Result};
use crate::odds::Odds;
use crate::params::{ParamDef, Resolved};
use crate::scenario::{Job, Scenario};
use crate::system::{About, RuleSystem};

pub use decl::MAX_STATES;

/// The scenarios a mechanic file may have: the chain scenarios.
pub const SCENARIOS: [Scenario; 4] = [
    Scenario::Test,
    Scenario::Rally,
    Scenario::UnderFire,
    Scenario::Melee,
];

/// The deepest chain of files a mechanic file may extend.
pub const MAX_EXTENDS: usize = 8;

/// The largest mechanic file, in bytes.
pub const MAX_FILE_BYTES: usize = 1 << 20;

pub use crate::paths::MECHANIC_EXTENSION as EXTENSION;

/// Whether `system` names a mechanic file rather than a system.
pub fn is_file(system: &str) -> bool {
    crate::paths::is_mechanic(system)
}

/// A loaded mechanic file: a rule system made at run time.
pub struct Mechanic {
    /// The file's path, as the registry names the system.
    path: &'static str,
    /// SHA-256 of the file's text and of every file it extends, in hex.
    hash: String,
    /// What it runs: its engine, functions and text, until it is unloaded ([`unload`]).
    body: std::sync::RwLock<Option<Arc<Body>>>,
    about: &'static About,
    /// Per scenario, the defaults that differ from the table's.
    defaults: BTreeMap<Scenario, Vec<(&'static str, String)>>,
    /// What a points budget may buy of a unit (`about().sizes`).
    sizes: &'static [crate::system::Size],
    /// Itself, as kept for the life of the process (set once when it is loaded).
    me: OnceLock<&'static Mechanic>,
}

/// The part of a loaded file that runs it, and nearly all of its memory (a compiled script
/// is some 30 times its text): freed when the file is unloaded, while the small rest (its
/// path and declared tables, which the registry hands out for the life of the process) stays.
struct Body {
    /// The file and the files it extends, with their text, this one first.
    files: Vec<(String, String)>,
    engine: Engine,
    /// Its functions, those of the files it extends replaced by its own.
    ast: AST,
    /// The file and line of every function's `fn` in force, for messages.
    lines: BTreeMap<String, (String, usize)>,
}

impl std::fmt::Debug for Mechanic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mechanic")
            .field("path", &self.path)
            .field("hash", &self.hash)
            .finish_non_exhaustive()
    }
}

/// The mechanic files loaded in this process, by path: a path loads once, and the same path
/// with other text is refused.
fn loaded() -> &'static Mutex<BTreeMap<String, &'static Mechanic>> {
    static LOADED: OnceLock<Mutex<BTreeMap<String, &'static Mechanic>>> = OnceLock::new();
    LOADED.get_or_init(|| Mutex::new(BTreeMap::new()))
}

/// Every file loaded in this process, registered or not, by path and hash: a file loaded
/// again with the same text is the same value (its body made again if it was freed), so what
/// stays for the life of the process — a path, a hash and the declared tables — grows with
/// the distinct files loaded, not with the loads, and stays reachable.
fn made() -> &'static Mutex<BTreeMap<(String, String), &'static Mechanic>> {
    static MADE: OnceLock<Mutex<BTreeMap<(String, String), &'static Mechanic>>> = OnceLock::new();
    MADE.get_or_init(|| Mutex::new(BTreeMap::new()))
}

pub use crate::paths::normalize;

/// The SHA-256 of `files`' texts, in order, in hex.
fn digest(files: &[(String, String)]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for (_, text) in files {
        h.update((text.len() as u64).to_le_bytes());
        h.update(text.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Load the mechanic file `path` (its text `text`), and the files it extends through `read`
/// (given their paths relative to the file that names them), check its declarations, and add
/// it to the files loaded, where [`crate::system::find`] finds it by its path. The same path
/// loaded again with the same text is the same system; with other text it is refused.
///
/// # Errors
/// [`Error::File`] naming the file, line and column: a file that does not compile, a missing or
/// malformed declaration, a state space beyond [`MAX_STATES`], an `extends` chain too deep or
/// in a loop, a script that fails while declaring.
pub fn load(
    path: &str,
    text: &str,
    read: &mut dyn FnMut(&str) -> Result<String>,
) -> Result<&'static dyn RuleSystem> {
    load_as(path, text, read, true)
}

/// [`load`] without adding the system to the registry or to the files loaded: for checking a
/// file (a fuzz target, a test) without it standing for its path in the process.
///
/// # Errors
/// As [`load`].
pub fn load_unregistered(
    path: &str,
    text: &str,
    read: &mut dyn FnMut(&str) -> Result<String>,
) -> Result<&'static dyn RuleSystem> {
    load_as(path, text, read, false)
}

/// Load (and with `register`, register) the file at `path` whose text is `text`: its size
/// checked, the files it extends read, the levels merged, then the system found again or made.
fn load_as(
    path: &str,
    text: &str,
    read: &mut dyn FnMut(&str) -> Result<String>,
    register: bool,
) -> Result<&'static dyn RuleSystem> {
    let path = normalize(path);
    if text.len() > MAX_FILE_BYTES {
        return Err(file_err(
            &path,
            0,
            format!(
                "is {} bytes; a mechanic file may have at most {MAX_FILE_BYTES}",
                text.len()
            ),
        ));
    }
    let engine = script::engine();
    let (files, chain) = read_extends(&engine, &path, text, read)?;
    let (levels, lines) = merge_levels(chain, &files);
    let ast = levels.last().expect("the file itself").merged.clone();
    let hash = digest(&files);
    // One load at a time, from the check to the registration: two threads loading the same
    // file get the same system.
    let mut map = loaded().lock().unwrap_or_else(|e| e.into_inner());
    if register && let Some(m) = found_again(&mut map, &path, &hash)? {
        return Ok(m);
    }
    let mut made = made().lock().unwrap_or_else(|e| e.into_inner());
    let body = Arc::new(Body {
        files,
        engine,
        ast,
        lines,
    });
    let mechanic = make(&mut made, Arc::clone(&body), &levels, &path, hash)
        .map_err(|e| at_declaration(e, &body.files))?;
    drop(made);
    let path = mechanic.path;
    if register {
        // Found by its path (`system::find`), not listed among the systems: the walks over
        // every system (`list`, the benchmark cases) stay the built-in ones and those
        // registered.
        if crate::system::systems().iter().any(|x| x.name() == path) {
            return Err(file_err(path, 0, "names a system already there".into()));
        }
        map.insert(path.to_string(), mechanic);
        crate::system::add_file(path, mechanic);
    }
    Ok(mechanic)
}

/// Each file of an extends chain by its path: its text, or its script.
type ByPath<T> = Vec<(String, T)>;

/// A file and the files it extends: their texts, and each compiled on its own, this one
/// first; an extension that loops or goes too deep refused.
fn read_extends(
    engine: &Engine,
    path: &str,
    text: &str,
    read: &mut dyn FnMut(&str) -> Result<String>,
) -> Result<(ByPath<String>, ByPath<AST>)> {
    let path = path.to_string();
    let mut files = vec![(path.clone(), text.to_string())];
    let ast = compile(engine, &path, text)?;
    // The file and the files it extends, this one first, each compiled on its own.
    let mut chain: Vec<(String, AST)> = vec![(path.clone(), ast.clone())];
    let mut at = (path.clone(), ast);
    loop {
        let about = decl::call_map(engine, &at.1, &at.0, "about", ())?;
        let Some(base) = decl::opt_str(&about, "extends", &at.0)? else {
            break;
        };
        let base = normalize(&crate::paths::relative_to(&at.0, &base));
        if files.iter().any(|(p, _)| *p == base) {
            let names: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
            return Err(file_err(
                &path,
                0,
                format!(
                    "the files it extends loop: {} -> {base}",
                    names.join(" -> ")
                ),
            ));
        }
        if files.len() > MAX_EXTENDS {
            return Err(file_err(
                &path,
                0,
                format!("it extends more than {MAX_EXTENDS} files deep"),
            ));
        }
        let base_text =
            read(&base).map_err(|e| file_err(&at.0, 0, format!("extends {base}: {e}")))?;
        let base_ast = compile(engine, &base, &base_text)?;
        files.push((base.clone(), base_text));
        chain.push((base.clone(), base_ast.clone()));
        at = (base, base_ast);
    }
    Ok((files, chain))
}

/// A declaration's fault (`rules() rally_on: default 54: …`) at the line that declares it: the
/// first line quoting its key after its function's `fn` (the explorer marks that line; a trial
/// met the message with no line marked, phone trial 76). Other errors as they are.
fn at_declaration(e: Error, files: &[(String, String)]) -> Error {
    let Error::File {
        path,
        line: 0,
        key,
        message,
    } = e
    else {
        return e;
    };
    let found = files
        .iter()
        .find(|(p, _)| *p == path)
        .and_then(|(_, text)| {
            let (func, name) = key.split_once("() ")?;
            let lines: Vec<&str> = text.lines().collect();
            let from = lines
                .iter()
                .position(|l| l.trim_start().starts_with(&format!("fn {func}(")))?;
            let quoted = format!("\"{name}\"");
            (from..lines.len())
                .find(|&i| lines[i].contains(&quoted))
                .map(|i| i + 1)
        });
    Error::File {
        path,
        line: found.unwrap_or(0),
        key,
        message,
    }
}

/// The levels of an extends chain (read this file first) and where each function is defined.
fn merge_levels(
    mut chain: Vec<(String, AST)>,
    files: &[(String, String)],
) -> (Vec<decl::Level>, BTreeMap<String, (String, usize)>) {
    // The furthest base first; each file's functions replace its base's, name for name, and
    // each level is the files up to it, merged.
    chain.reverse();
    let mut levels: Vec<decl::Level> = Vec::new();
    let mut lines: BTreeMap<String, (String, usize)> = BTreeMap::new();
    for (file, own) in &chain {
        let text = &files.iter().find(|(p, _)| p == file).expect("read above").1;
        for (name, line) in fn_lines(text) {
            lines.insert(name, (file.clone(), line));
        }
        let merged = match levels.last() {
            Some(below) => below.merged.merge(own),
            None => own.clone(),
        };
        levels.push(decl::Level {
            path: file.clone(),
            own: own.clone(),
            merged,
        });
    }
    (levels, lines)
}

/// The system already registered for this file (by `path`, or the same text by another path,
/// registered under `path` too); other text under the same path refused.
fn found_again(
    map: &mut BTreeMap<String, &'static Mechanic>,
    path: &str,
    hash: &str,
) -> Result<Option<&'static Mechanic>> {
    if let Some(m) = map.get(path) {
        if m.hash == hash {
            return Ok(Some(*m));
        }
        return Err(file_err(
            path,
            0,
            format!(
                "was loaded earlier in this run with other text (sha256 {}…, now {}…): a run uses one version of a file",
                &m.hash[..12],
                &hash[..12]
            ),
        ));
    }
    // The same file named another way (another path to it, a copy): the same system.
    // It is also found by this path from now on (a run names it either way).
    if let Some(m) = map
        .values()
        .find(|m| m.hash == hash && m.path != path)
        .copied()
    {
        // (Not yet under this path: that was looked up just above.)
        map.insert(path.to_string(), m);
        crate::system::add_file(path, m);
        return Ok(Some(m));
    }
    Ok(None)
}

/// The system for this path and text: one made before given `body` again, or a new one made
/// from the file's declarations.
fn make(
    made: &mut BTreeMap<(String, String), &'static Mechanic>,
    body: Arc<Body>,
    levels: &[decl::Level],
    path: &str,
    hash: String,
) -> Result<&'static Mechanic> {
    Ok(match made.get(&(path.to_string(), hash.clone())).copied() {
        // Loaded before (and perhaps freed since): the same system, running again.
        Some(m) => {
            m.body
                .write()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(body);
            m
        }
        None => {
            let declared = decl::declare(&body.engine, levels, path)?;
            let name = decl::intern(path);
            let mechanic: &'static Mechanic = Box::leak(Box::new(Mechanic {
                path: name,
                hash: hash.clone(),
                body: std::sync::RwLock::new(Some(body)),
                about: declared.about(name),
                sizes: decl::keep_slice(declared.sizes.clone()),
                defaults: declared.defaults,
                me: OnceLock::new(),
            }));
            let _ = mechanic.me.set(mechanic);
            made.insert((path.to_string(), hash), mechanic);
            mechanic
        }
    })
}

/// Load the mechanic file at `path`, reading it (and the files it extends) through `read`
/// (loading a file again with the same text is the same system; with other text, refused).
///
/// # Errors
/// As [`load`], and `read`'s own.
pub fn load_with(
    path: &str,
    read: &mut dyn FnMut(&str) -> Result<String>,
) -> Result<&'static dyn RuleSystem> {
    let text = read(path)?;
    load(path, &text, read)
}

/// The files of the mechanic system `name` (this file and those it extends, with their text),
/// if it is one: what a shard records so that a merge can rebuild it.
pub fn files_of(name: &str) -> Option<Vec<(String, String)>> {
    let map = loaded().lock().unwrap_or_else(|e| e.into_inner());
    map.get(name)
        .and_then(|m| m.body().ok())
        .map(|b| b.files.clone())
}

/// Unload the mechanic file loaded from `path`: no longer found by its path, and its compiled
/// functions, engine and text freed (a job still holding it fails with a message saying so,
/// should it run). A server that takes edited files unloads the least recently used ones, so
/// that its memory has a ceiling. False if no file was loaded from `path`.
pub fn unload(path: &str) -> bool {
    let path = normalize(path);
    let mut map = loaded().lock().unwrap_or_else(|e| e.into_inner());
    let Some(m) = map.remove(&path) else {
        return false;
    };
    crate::system::remove_file(&path);
    // Freed only when no other path still names the same system.
    if !map.values().any(|other| std::ptr::eq(*other, m)) {
        m.body.write().unwrap_or_else(|e| e.into_inner()).take();
    }
    true
}

/// Free what runs the mechanic system `system` (its compiled functions, engine and text), as
/// [`unload`] does, if it is a file loaded with [`load_unregistered`] that no path names: for
/// a caller that checks many files (a fuzz target, a test) and is done with this one. False
/// if `system` is no such file. Loading the same text again runs it again.
pub fn release(system: &dyn RuleSystem) -> bool {
    let map = loaded().lock().unwrap_or_else(|e| e.into_inner());
    let made = made().lock().unwrap_or_else(|e| e.into_inner());
    let same = |m: &Mechanic| std::ptr::addr_eq(m, system as *const dyn RuleSystem);
    let Some(m) = made.values().copied().find(|m| same(m)) else {
        return false;
    };
    if map.values().any(|m| same(m)) {
        return false;
    }
    m.body.write().unwrap_or_else(|e| e.into_inner()).take();
    true
}

/// The mechanic system loaded from `path`, if it was.
pub fn find(path: &str) -> Option<&'static dyn RuleSystem> {
    let map = loaded().lock().unwrap_or_else(|e| e.into_inner());
    map.get(&normalize(path))
        .map(|m| *m as &'static dyn RuleSystem)
}

fn file_err(path: &str, line: usize, message: String) -> Error {
    Error::File {
        path: path.into(),
        line,
        key: String::new(),
        message,
    }
}

/// Compile `text`, or say where it does not.
fn compile(engine: &Engine, path: &str, text: &str) -> Result<AST> {
    let mut ast = engine.compile(text).map_err(|e| {
        let pos = e.position();
        let mut what = e.err_type().to_string();
        // A number with a point is no number here: say so, not what the parser then expected.
        let line = pos
            .line()
            .and_then(|l| text.lines().nth(l - 1))
            .unwrap_or_default();
        let b = line.as_bytes();
        if b.windows(3).any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit()) {
            what += " (a mechanic file has whole numbers only: no 0.5; give chances as chance(1, 2) or pick([…]))";
        }
        Error::Conflict(script::at(path, pos, &format!("does not compile: {what}")))
    })?;
    if has_statements(engine, &ast) {
        return Err(file_err(
            path,
            0,
            "holds statements outside functions: a mechanic file holds functions only (put numbers in params() or rules())".into(),
        ));
    }
    ast.set_source(path);
    Ok(ast)
}

/// Whether `ast` has statements outside its functions (run with a hook that stops at the
/// first operation, so nothing of them runs).
fn has_statements(engine: &Engine, ast: &AST) -> bool {
    let _ = engine;
    let mut probe = Engine::new_raw();
    let seen = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = std::sync::Arc::clone(&seen);
    probe.on_progress(move |_| {
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
        Some(Dynamic::UNIT)
    });
    let _ = probe.eval_ast::<Dynamic>(&ast.clone_statements_only());
    seen.load(std::sync::atomic::Ordering::Relaxed)
}

/// The line of each `fn NAME(` in `text`.
fn fn_lines(text: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let t = t.strip_prefix("private ").unwrap_or(t);
        if let Some(rest) = t.strip_prefix("fn ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.entry(name).or_insert(i + 1);
        }
    }
    out
}

impl Mechanic {
    /// The file's path.
    pub fn path(&self) -> &str {
        self.path
    }
    /// SHA-256 of its text and of the files it extends.
    pub fn hash(&self) -> &str {
        &self.hash
    }
    /// Its path and the first 16 hex digits of its hash, as reports name it.
    pub fn short(&self) -> String {
        format!("{} (sha256 {})", self.path, &self.hash[..16])
    }
    /// What runs the file, or the error of a file unloaded.
    fn body(&self) -> Result<Arc<Body>> {
        self.body
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .ok_or_else(|| {
                Error::Conflict(format!(
                    "{}: this file was unloaded (the server keeps a bounded number of edited files): run it again",
                    self.path
                ))
            })
    }
    /// Whether the file defines function `name` (with any number of parameters).
    fn has_fn(&self, name: &str) -> bool {
        self.body()
            .is_ok_and(|b| b.ast.iter_functions().any(|f| f.name == name))
    }
    /// `path:line` of function `name`'s definition in force, or the path.
    fn place(&self, name: &str) -> String {
        match self.body().ok().and_then(|b| b.lines.get(name).cloned()) {
            Some((file, l)) => format!("{file}:{l}"),
            None => self.path.to_string(),
        }
    }
    /// The name of the scenario's function `what` (`turn`, `state` …): `<scenario>_<what>` when
    /// the file has it, else the shared `fallback` when given and defined.
    fn scenario_fn(
        &self,
        scenario: Scenario,
        what: &str,
        fallback: Option<&str>,
    ) -> Option<String> {
        let own = format!("{}_{what}", scenario.name().replace('-', "_"));
        if self.has_fn(&own) {
            return Some(own);
        }
        fallback.filter(|f| self.has_fn(f)).map(str::to_string)
    }
    /// Call the script function `name` with `args`.
    fn call(&self, name: &str, args: impl rhai::FuncArgs) -> Result<Dynamic> {
        let mut scope = rhai::Scope::new();
        let options = rhai::CallFnOptions::new()
            .eval_ast(false)
            .rewind_scope(false);
        let body = self.body()?;
        body.engine
            .call_fn_with_options::<Dynamic>(options, &mut scope, &body.ast, name, args)
            .map_err(|e| self.script_error(name, &e))
    }
    /// A script error of function `name`, at its place.
    fn script_error(&self, name: &str, e: &rhai::EvalAltResult) -> Error {
        let (source, pos, what) = script::describe(e);
        let what = what
            .strip_prefix(&format!("in {name}: "))
            .unwrap_or(&what)
            .to_string();
        if pos.is_none() {
            Error::Conflict(format!("{}: {name}: {what}", self.place(name)))
        } else {
            // The file the failing code is in (a base file's function, say).
            let file = source
                .or_else(|| {
                    self.body()
                        .ok()
                        .and_then(|b| b.lines.get(name).map(|(f, _)| f.clone()))
                })
                .unwrap_or_else(|| self.path.to_string());
            Error::Conflict(script::at(&file, pos, &format!("{name}: {what}")))
        }
    }
}

impl RuleSystem for Mechanic {
    fn about(&self) -> &'static About {
        self.about
    }
    fn sizes(&self) -> &'static [crate::system::Size] {
        self.sizes
    }
    fn source(&self) -> Option<String> {
        Some(format!("{} (sha256 {})", self.path, self.hash))
    }
    fn source_short(&self) -> Option<String> {
        Some(self.short())
    }
    fn defaults(
        &self,
        scenario: Scenario,
        _inputs: &[crate::params::Input],
    ) -> Vec<(&'static str, String)> {
        self.defaults.get(&scenario).cloned().unwrap_or_default()
    }
    fn build(&self, scenario: Scenario, p: &Resolved, options: &[String]) -> Result<Box<dyn Job>> {
        // Kept for the life of the process when it was loaded.
        let me: &'static Mechanic = self
            .me
            .get()
            .copied()
            .ok_or_else(|| Error::Conflict(format!("{} is not loaded", self.path)))?;
        // A file unloaded says so (not that its functions are missing).
        self.body()?;
        chain::build(me, scenario, p, options)
    }
    fn odds(&self, _ask: &crate::odds::OddsAsk, _rules: &Resolved) -> Result<Odds> {
        Err(Error::Invalid {
            what: "odds".into(),
            value: self.path.into(),
            allowed: "a mechanic file has no odds sheet: run its test scenario (morale-lab test --system FILE --exact-only) for its chances".into(),
        })
    }
}

/// The parameters of a file as `p` in its functions: every parameter and rule parameter by key
/// (whole numbers, `true`/`false`, choices and specs as text, a chance as `[a, b]`, a
/// distribution as integer weights over a common denominator, `[]` when unused); `options`,
/// the optional rules switched on; and `given`, the keys the user set (the rest are defaults).
fn p_map(resolved: &Resolved, options: &[String], defs: &[&ParamDef]) -> Map {
    use crate::params::Value;
    let mut m = Map::new();
    for def in defs {
        let value = match resolved.value_or_default(def) {
            Some(Value::Int(i)) => Dynamic::from(i),
            Some(Value::Bool(b)) => Dynamic::from(b),
            Some(Value::Choice(c) | Value::Text(c)) => Dynamic::from(c),
            Some(Value::Prob(f)) => Dynamic::from(vec![
                Dynamic::from(f.num as i64),
                Dynamic::from(f.den as i64),
            ]),
            Some(Value::Dist(d)) => {
                let den = d.iter().fold(1u64, |a, f| lcm(a, f.den));
                Dynamic::from(
                    d.iter()
                        .map(|f| Dynamic::from((f.num * (den / f.den)) as i64))
                        .collect::<rhai::Array>(),
                )
            }
            // No real numbers in a file (the engine has none).
            Some(Value::Real(_)) | None => Dynamic::UNIT,
        };
        m.insert(def.key.into(), value);
    }
    m.insert(
        "given".into(),
        Dynamic::from(
            defs.iter()
                .filter(|d| resolved.given(d.key))
                .map(|d| Dynamic::from(d.key.to_string()))
                .collect::<rhai::Array>(),
        ),
    );
    m.insert(
        "options".into(),
        Dynamic::from(
            options
                .iter()
                .map(|o| Dynamic::from(o.clone()))
                .collect::<rhai::Array>(),
        ),
    );
    m
}

fn lcm(a: u64, b: u64) -> u64 {
    let gcd = |mut x: u64, mut y: u64| {
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x
    };
    a / gcd(a, b) * b
}
