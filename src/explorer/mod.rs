//! The explorer: what `morale-lab serve` answers, free of sockets and files. The binary reads
//! the mechanic files once at start, passes each HTTP request's head, path, query and body to
//! [`Explorer::answer`] (its [`Gate`]: only the server's own page drives it; then
//! [`Explorer::handle`]) and writes the [`Response`] back.
//!
//! The page ([`PAGE`], one self-contained file) asks `GET /api/systems` for every system's
//! parameter tables, then `POST /api/run` with the view's query (the same text as its link):
//! first `mode=exact`, which answers from the exact solution (cached by setting), then
//! `mode=mc` with a run id, whose progress `GET /api/progress?run=ID` reports and
//! `POST /api/cancel?run=ID` stops. With a pinned setting A, both run as the two variants of
//! an experiment, and the comparison is the experiments' own ([`crate::experiment::compare`]).
//!
//! Limits: at most [`Limits::max_runs`] runs at once, exact answers and Monte Carlo runs
//! counted apart (others wait up to
//! [`Limits::wait_seconds`], then get 503), each stopped after [`Limits::max_seconds`] and
//! refused above [`Limits::max_trials`]; bodies above [`Limits::max_body`] are refused; at
//! most [`Limits::max_edits`] edited mechanic files (of [`Limits::max_edit_bytes`] at most)
//! are kept loaded, the least recently used unloaded first; answers are kept up to
//! [`Limits::cache_bytes`].

pub mod sweep;
pub mod view;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::Sampler;
use crate::engine::Control;
use crate::error::{Error, Result};
use crate::experiment::{Experiment, compare, output};
use crate::params::{Input, Kind, ParamDef, Source};
use crate::report::chart;
use crate::system::{self, RuleSystem};
use view::{Profile, Setting, View};

/// The page: HTML, style and script in one file, no outside assets.
pub const PAGE: &str = include_str!("page.html");

/// The blank template the page's editor starts a new mechanic file from (it runs as it is).
pub const BLANK: &str = include_str!("blank.rhai");

/// What the server allows.
#[derive(Debug, Clone)]
pub struct Limits {
    /// The most Monte Carlo trials a setting may ask for.
    pub max_trials: u64,
    /// Seconds a run may take before it is stopped.
    pub max_seconds: f64,
    /// Runs at once.
    pub max_runs: usize,
    /// Seconds a request waits for a free run before it is turned away.
    pub wait_seconds: f64,
    /// Edited mechanic files kept loaded at once; past it the least recently used one not in
    /// use is unloaded (its memory freed).
    pub max_edits: usize,
    /// The largest edited mechanic file taken, in bytes (a compiled script takes some 30
    /// times its text in memory).
    pub max_edit_bytes: usize,
    /// Edited files taken over the life of the server: each leaves its declared tables
    /// loaded when it is unloaded (about 60 KB measured for an edit of 128 KiB).
    pub max_edits_ever: usize,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// Worker threads of each Monte Carlo run (`None`: every core).
    pub threads: Option<usize>,
    /// Answers kept (exact answers by setting, Monte Carlo ones by setting, trials and seed);
    /// 0 keeps none.
    pub cache: usize,
    /// The bytes of answers kept, at most (an answer larger than a quarter of it is not kept).
    pub cache_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_trials: 100_000_000,
            max_seconds: 120.0,
            max_runs: 2,
            wait_seconds: 10.0,
            max_edits: 32,
            max_edit_bytes: 128 << 10,
            max_edits_ever: 2_000,
            max_body: 2 << 20,
            threads: None,
            cache: 256,
            cache_bytes: 64 << 20,
        }
    }
}

/// An HTTP answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The content type.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

const JSON: &str = "application/json; charset=utf-8";

impl Response {
    fn json(status: u16, v: &Value) -> Response {
        Response {
            status,
            content_type: JSON,
            body: v.to_string().into_bytes(),
        }
    }
    /// An error in one line, as the command line says it, with the field it is about (and
    /// a mechanic file's line) for the page to show beside it.
    fn error(status: u16, message: &str, field: Option<String>, line: Option<usize>) -> Response {
        Response::json(
            status,
            &json!({ "error": message, "field": field, "line": line }),
        )
    }
}

/// A request's head, as the [`Gate`] reads it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Head<'a> {
    /// The method (`GET`, `POST`, …).
    pub method: &'a str,
    /// The path, without the query.
    pub path: &'a str,
    /// The `Host` header.
    pub host: Option<&'a str>,
    /// The `Origin` header.
    pub origin: Option<&'a str>,
    /// The `Sec-Fetch-Site` header.
    pub fetch_site: Option<&'a str>,
    /// The `X-Morale-Lab-Token` header.
    pub token: Option<&'a str>,
}

/// The header that carries the page's token to the API.
pub const TOKEN_HEADER: &str = "X-Morale-Lab-Token";

/// Who may drive the server: only its own page. A request must name the server by a loopback
/// address or `localhost` in its `Host` (or, when it listens beyond loopback, by any IP address
/// or a name it was told to answer to), so that another site's name pointed at this address
/// (DNS rebinding) is refused; a request from a browser page must come from the same origin
/// (`Origin`, `Sec-Fetch-Site`); and the API answers only requests that carry the token written
/// into the page, which another site's page cannot read. The page itself computes nothing.
#[derive(Debug, Clone)]
pub struct Gate {
    token: String,
    port: u16,
    loopback_only: bool,
    names: Vec<String>,
}

impl Gate {
    /// The gate of a server listening on `bound`:`port`, with the page's `token` and the
    /// extra host `names` it answers to (beyond loopback only).
    pub fn new(token: String, bound: std::net::IpAddr, port: u16, names: Vec<String>) -> Gate {
        Gate {
            token,
            port,
            loopback_only: bound.is_loopback(),
            names: names.into_iter().map(|n| n.to_ascii_lowercase()).collect(),
        }
    }

    /// The page's token.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Whether `host` (a `Host` header: a name, an IPv4 address or a bracketed IPv6 address,
    /// with or without the port) names this server.
    pub fn host_allowed(&self, host: &str) -> bool {
        let (name, port) = match host.strip_prefix('[') {
            Some(rest) => match rest.split_once(']') {
                Some((inner, "")) => (format!("[{inner}]"), None),
                Some((inner, p)) => match p.strip_prefix(':') {
                    Some(p) => (format!("[{inner}]"), Some(p)),
                    None => return false,
                },
                None => return false,
            },
            None => match host.rsplit_once(':') {
                Some((n, p)) => (n.to_string(), Some(p)),
                None => (host.to_string(), None),
            },
        };
        if let Some(p) = port
            && p.parse::<u16>().ok() != Some(self.port)
        {
            return false;
        }
        let name = name.to_ascii_lowercase();
        let ip: Option<std::net::IpAddr> = match name.strip_prefix('[') {
            Some(inner) => inner
                .strip_suffix(']')
                .and_then(|i| i.parse::<std::net::Ipv6Addr>().ok())
                .map(std::net::IpAddr::V6),
            None => name
                .parse::<std::net::Ipv4Addr>()
                .ok()
                .map(std::net::IpAddr::V4),
        };
        match ip {
            Some(ip) => ip.is_loopback() || !self.loopback_only,
            None => name == "localhost" || (!self.loopback_only && self.names.contains(&name)),
        }
    }

    /// Let the request through, or the answer that refuses it.
    ///
    /// # Errors
    /// A 403 answer saying what was refused.
    pub fn check(&self, h: &Head) -> std::result::Result<(), Response> {
        let refuse = |why: String| Err(Response::error(403, &why, None, None));
        let Some(host) = h.host.filter(|host| self.host_allowed(host)) else {
            return refuse(format!(
                "this server answers to {}only, on port {}: the Host {} is refused",
                if self.loopback_only {
                    "localhost and loopback addresses "
                } else {
                    "IP addresses, localhost and the names given with --allow-host "
                },
                self.port,
                h.host.map_or("(none)".into(), |x| format!(
                    "'{}'",
                    x.chars().take(100).collect::<String>()
                ))
            ));
        };
        if let Some(origin) = h.origin
            && !origin.eq_ignore_ascii_case(&format!("http://{host}"))
        {
            return refuse(format!(
                "this server answers to its own page only: a request from {} is refused",
                origin.chars().take(100).collect::<String>()
            ));
        }
        if let Some(site) = h.fetch_site
            && !matches!(site, "same-origin" | "none")
        {
            return refuse(format!(
                "this server answers to its own page only: a {site} request is refused"
            ));
        }
        if h.path.starts_with("/api/") && !same(h.token.unwrap_or(""), &self.token) {
            return refuse(format!(
                "the API answers its own page only: send the page's token in {TOKEN_HEADER} (it is in the page's <meta name=\"morale-lab-token\">)"
            ));
        }
        Ok(())
    }
}

/// Whether two tokens are the same, in a time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The server's state: the mechanic files it offers, the edited ones taken, runs under way and
/// answers kept.
pub struct Explorer {
    /// Who may drive it (`None`: the caller checks; the page carries no token).
    gate: Option<Gate>,
    limits: Limits,
    /// Mechanic files read at start (and those added to the folder since), by normalised path,
    /// with their text then.
    files: RwLock<BTreeMap<String, String>>,
    /// Files that did not load, with why.
    broken: RwLock<BTreeMap<String, String>>,
    /// Files whose text on disk changed since start (the binary watches them), with the text
    /// now there: runs use it (loaded as an edit is), the page is told.
    disk: Mutex<Disk>,
    /// Edited files kept loaded.
    edited: Mutex<Edits>,
    runs: Mutex<HashMap<String, Arc<Control>>>,
    /// Runs under way: exact answers and Monte Carlo runs apart, so that a page's exact
    /// answer never waits behind other pages' long runs.
    lanes: [Lane; 2],
    cache: Mutex<Cache>,
}

/// Answers kept, and their bytes.
#[derive(Default)]
struct Cache {
    answers: BTreeMap<String, Vec<u8>>,
    bytes: usize,
}

/// Mechanic files changed on disk since the server started.
#[derive(Default)]
struct Disk {
    /// Their text now, by normalised path.
    now: BTreeMap<String, String>,
    /// Changes so far.
    version: u64,
}

/// The edited mechanic files kept loaded, by their path (`dir/name.edited-HASH.rhai`).
#[derive(Default)]
struct Edits {
    kept: BTreeMap<String, Edit>,
    /// A clock of uses, for the least recently used.
    tick: u64,
    /// Loads under way (outside the lock), counted against the limit.
    loading: usize,
    /// Edits taken over the life of the server.
    taken: usize,
}

/// One edited file kept loaded.
struct Edit {
    text: String,
    /// When it was last used (on the [`Edits`] clock).
    used: u64,
    /// Requests using it now: it is not unloaded while any is.
    holds: usize,
}

/// A request's use of an edited file (none for a built-in system or an offered file): while it
/// lives, the file is not unloaded.
struct Hold<'a> {
    edits: &'a Mutex<Edits>,
    path: Option<String>,
}

impl Drop for Hold<'_> {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let mut e = self.edits.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(edit) = e.kept.get_mut(path) {
                edit.holds -= 1;
            }
        }
    }
}

/// Runs of one kind under way, and a signal when one ends.
#[derive(Default)]
struct Lane {
    busy: Mutex<usize>,
    freed: Condvar,
}

/// A run slot, given back when dropped.
struct Slot<'a>(&'a Lane);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut busy = self.0.busy.lock().unwrap_or_else(|e| e.into_inner());
        *busy -= 1;
        self.0.freed.notify_one();
    }
}

/// Why a request failed: its status and message, and the field or line it is about.
struct Failure {
    status: u16,
    message: String,
    field: Option<String>,
    line: Option<usize>,
}

impl Failure {
    fn of(e: &Error, prefix: &str) -> Failure {
        let (mut field, mut line) = field_of(e, prefix);
        let message = unedited(&for_the_page(e));
        // A mechanic file's script error (`path.rhai:LINE:COL: …`): the editor's line.
        if field.is_none()
            && let Some(l) = script_line(&message)
        {
            field = Some(format!("{prefix}code"));
            line = Some(l);
        }
        let status = match e {
            Error::Cancelled => 409,
            e if e.is_bad_input() || field.is_some() => 400,
            _ => 500,
        };
        Failure {
            status,
            message,
            field,
            line,
        }
    }
    fn busy(message: String) -> Failure {
        Failure {
            status: 503,
            message,
            field: None,
            line: None,
        }
    }
    fn json(&self) -> Value {
        json!({ "error": self.message, "field": self.field, "line": self.line })
    }
    fn response(&self) -> Response {
        Response::json(self.status, &self.json())
    }
}

/// An error's message as the page should say it: the command line's advice to raise
/// `--exact-budget` names a control the page does not have, so a budget the explorer's limits
/// set says what the page can do instead, and where the flag is.
fn for_the_page(e: &Error) -> String {
    match e {
        Error::OverBudget {
            scenario,
            projected_s,
            budget_s,
        } => format!(
            "the exact solution of this {scenario} would take about {projected_s:.1} s, more than the explorer allows ({budget_s} s): press Run Monte Carlo for an estimate, or solve it from the command line with a larger --exact-budget"
        ),
        Error::TablesOverBudget { budget_s } => format!(
            "the table sampler's tables take more than {budget_s} s to compile, more than the explorer allows: run it from the command line with --sampler dice (every turn's dice, the same chances) or a larger --exact-budget"
        ),
        e => e.to_string(),
    }
}

/// The page's field an error is about: `set.KEY`, `rule.KEY`, `option`, `trials`, `seed`,
/// `scenario`, `system` or `code` (with its line), prefixed `a.` for the pinned setting.
fn field_of(e: &Error, prefix: &str) -> (Option<String>, Option<usize>) {
    let of_what = |what: &str, key: Option<&str>| -> Option<String> {
        // "C's --set KEY": that profile's field.
        let what = what.trim();
        let b = what.as_bytes();
        let owned;
        let (prefix, what) = if b.len() > 4 && b[0].is_ascii_uppercase() && &what[1..4] == "'s " {
            owned = format!("{}.", what[..1].to_ascii_lowercase());
            (owned.as_str(), &what[4..])
        } else {
            (prefix, what)
        };
        for (flag, name) in [("--set", "set"), ("--rule", "rule")] {
            if let Some(rest) = what.strip_prefix(flag) {
                let k = key.unwrap_or(rest.trim());
                return Some(format!("{prefix}{name}.{}", k.trim()));
            }
        }
        let name = what.trim_start_matches('-');
        let name = match name {
            "option" => "option",
            "trials" => return Some("trials".into()),
            "seed" => return Some("seed".into()),
            "scenario" => return Some("scenario".into()),
            "system" => "system",
            // A situation flag (`--stands`): the field of its key.
            flag if !flag.is_empty() && what.starts_with("--") => {
                return Some(format!("{prefix}set.{}", flag.replace('-', "_")));
            }
            _ => return None,
        };
        Some(format!("{prefix}{name}"))
    };
    match e {
        Error::Invalid { what, .. } => (of_what(what, None), None),
        Error::UnknownKey { what, key, .. } => (of_what(what, Some(key)), None),
        Error::NotApplicable { what, .. } => (of_what(what, None), None),
        Error::File { line, .. } => (Some(format!("{prefix}code")), Some(*line)),
        _ => (None, None),
    }
}

impl Explorer {
    /// A server offering the built-in systems and the mechanic files `files` (path, text), each
    /// loaded now; a file that does not load is listed with why.
    pub fn new(files: Vec<(String, String)>, limits: Limits) -> Explorer {
        let files: BTreeMap<String, String> = files
            .into_iter()
            .map(|(p, t)| (crate::paths::normalize(&p), t))
            .collect();
        let mut broken = BTreeMap::new();
        for (path, text) in &files {
            let mut read = |p: &str| -> Result<String> { read_from(&files, None, p) };
            if let Err(e) = crate::mechanic::load(path, text, &mut read) {
                broken.insert(path.clone(), e.to_string());
            }
        }
        Explorer {
            gate: None,
            limits,
            files: RwLock::new(files),
            broken: RwLock::new(broken),
            disk: Mutex::new(Disk::default()),
            edited: Mutex::new(Edits::default()),
            runs: Mutex::new(HashMap::new()),
            lanes: Default::default(),
            cache: Mutex::new(Cache::default()),
        }
    }

    /// The explorer behind `gate`: [`Explorer::answer`] lets through only what it allows, and
    /// the page carries its token.
    pub fn with_gate(mut self, gate: Gate) -> Explorer {
        self.gate = Some(gate);
        self
    }

    /// Answer one request through the gate: refused (403) unless it allows it, else as
    /// [`Explorer::handle`]. `target` is the request's path and query.
    pub fn answer(&self, head: &Head, target: &str, body: &[u8]) -> Response {
        if let Some(gate) = &self.gate
            && let Err(refused) = gate.check(head)
        {
            return refused;
        }
        self.handle(head.method, target, body)
    }

    /// Stop every run under way (the server is stopping).
    pub fn cancel_all(&self) {
        let runs = self.runs.lock().unwrap_or_else(|e| e.into_inner());
        for c in runs.values() {
            c.cancel();
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The mechanic files that did not load, with why (the binary says so at start).
    pub fn broken(&self) -> BTreeMap<String, String> {
        self.broken
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The text of an offered file as read at start (or when it was added).
    fn start_text(&self, path: &str) -> Option<String> {
        let files = self.files.read().unwrap_or_else(|e| e.into_inner());
        files.get(path).cloned()
    }

    /// Every offered file's path and text as read at start (or when added).
    fn offered(&self) -> Vec<(String, String)> {
        let files = self.files.read().unwrap_or_else(|e| e.into_inner());
        files.iter().map(|(p, t)| (p.clone(), t.clone())).collect()
    }

    /// A mechanic file new in the folder since start: loaded and offered from now on (a file
    /// that does not load is listed with why, and runs once it changes to one that does), and
    /// the page learns of it from its next look at the files. Returns whether it was new.
    pub fn file_added(&self, path: &str, text: String) -> bool {
        let path = crate::paths::normalize(path);
        if self.start_text(&path).is_some() {
            return false;
        }
        let loaded = {
            let mut read = |p: &str| self.read_now(p, None);
            crate::mechanic::load(&path, &text, &mut read)
        };
        if let Err(e) = loaded {
            let mut broken = self.broken.write().unwrap_or_else(|e| e.into_inner());
            broken.insert(path.clone(), e.to_string());
        }
        {
            let mut files = self.files.write().unwrap_or_else(|e| e.into_inner());
            files.insert(path, text);
        }
        let mut disk = self.disk.lock().unwrap_or_else(|e| e.into_inner());
        disk.version += 1;
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        *cache = Cache::default();
        true
    }

    /// Answer one request. `target` is the request's path and query; `body` its body (for
    /// `POST`, a form-encoded query or, for `/api/describe`, the same).
    pub fn handle(&self, method: &str, target: &str, body: &[u8]) -> Response {
        if body.len() > self.limits.max_body {
            return Response::error(
                413,
                &format!(
                    "the request body is {} bytes; the most allowed is {}",
                    body.len(),
                    self.limits.max_body
                ),
                None,
                None,
            );
        }
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let mut pairs = view::decode_query(query);
        if method == "POST" {
            match std::str::from_utf8(body) {
                Ok(text) => pairs.extend(view::decode_query(text)),
                Err(_) => {
                    return Response::error(400, "the request body is not UTF-8 text", None, None);
                }
            }
        }
        // Reading is GET (or HEAD); anything that computes, loads or stops is POST, which
        // another site's `<img>` or link cannot send.
        let get = matches!(method, "GET" | "HEAD");
        let post = method == "POST";
        match path {
            "/" | "/index.html" if get => Response {
                status: 200,
                content_type: "text/html; charset=utf-8",
                body: PAGE
                    .replacen("{{TOKEN}}", self.gate.as_ref().map_or("", |g| g.token()), 1)
                    // A JSON string inside a script element: no `</` may close it early.
                    .replacen(
                        "{{BLANK}}",
                        &Value::String(BLANK.into())
                            .to_string()
                            .replace("</", "<\\/"),
                        1,
                    )
                    .into_bytes(),
            },
            "/api/systems" if get => Response::json(200, &self.systems_json()),
            // The count of changes to the mechanic files on disk: the page asks it every few
            // seconds and fetches the files again when it moves.
            "/api/files" if get => {
                Response::json(200, &json!({ "files_version": self.files_version() }))
            }
            "/api/describe" if post => match self.describe(&pairs) {
                Ok(v) => Response::json(200, &v),
                Err(f) => f.response(),
            },
            "/api/run" if post => match self.run(&pairs) {
                Ok(bytes) => Response {
                    status: 200,
                    content_type: JSON,
                    body: bytes,
                },
                // A view that reads but does not run (an edited file that does not load, a
                // value out of range) still has its command lines: the page's command box
                // follows its link, which the same error then comes from.
                Err(f) => match View::parse(&pairs, self.limits.max_trials) {
                    Ok(v) => {
                        let mut body = f.json();
                        body["commands"] = commands(&v);
                        Response::json(f.status, &body)
                    }
                    Err(_) => f.response(),
                },
            },
            "/api/publish" if post => match self.publish(&pairs) {
                Ok(v) => Response::json(200, &v),
                Err(f) => f.response(),
            },
            "/api/progress" if get => {
                let id = value(&pairs, "run").unwrap_or_default();
                let runs = self.runs.lock().unwrap_or_else(|e| e.into_inner());
                match runs.get(id) {
                    Some(c) => Response::json(
                        200,
                        &json!({ "done": c.done(), "exact": c.exact_progress() }),
                    ),
                    None => Response::json(200, &json!({ "done": null })),
                }
            }
            "/api/cancel" if post => {
                let id = value(&pairs, "run").unwrap_or_default();
                let runs = self.runs.lock().unwrap_or_else(|e| e.into_inner());
                let found = runs.get(id).inspect(|c| c.cancel()).is_some();
                Response::json(200, &json!({ "cancelled": found }))
            }
            "/" | "/index.html" | "/api/systems" | "/api/files" | "/api/describe" | "/api/run"
            | "/api/publish" | "/api/progress" | "/api/cancel" => Response::error(
                405,
                &format!(
                    "{method} is not allowed on {path}: {}",
                    match path {
                        "/api/describe" | "/api/run" | "/api/publish" | "/api/cancel" => "POST it",
                        _ => "GET it",
                    }
                ),
                None,
                None,
            ),
            _ => Response::error(
                404,
                &format!(
                    "nothing at {}: this server has its page (/) and its API (/api/systems, /api/files, /api/describe, /api/run, /api/publish, /api/progress, /api/cancel)",
                    path.chars().take(200).collect::<String>()
                ),
                None,
                None,
            ),
        }
    }

    /// Every system offered: built-in ones, then the mechanic files (broken ones with why).
    /// A mechanic file's text as it now is on disk (the binary reads it again when it
    /// changes): runs from now on use it, answers kept for the old text are dropped, and the
    /// page learns of it from its next answer. Returns whether anything changed. A path the
    /// server did not offer at start is ignored.
    pub fn file_changed(&self, path: &str, text: String) -> bool {
        let path = crate::paths::normalize(path);
        let Some(start) = self.start_text(&path) else {
            return false;
        };
        let mut disk = self.disk.lock().unwrap_or_else(|e| e.into_inner());
        let changed = if text == start {
            disk.now.remove(&path).is_some()
        } else if disk.now.get(&path) == Some(&text) {
            false
        } else {
            disk.now.insert(path, text);
            true
        };
        if changed {
            disk.version += 1;
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            *cache = Cache::default();
        }
        changed
    }

    /// How many times files changed on disk (the page compares it with its own).
    fn files_version(&self) -> u64 {
        self.disk.lock().unwrap_or_else(|e| e.into_inner()).version
    }

    /// A file's text as it now stands on disk (as read at start unless it changed).
    fn text_now(&self, path: &str) -> Option<String> {
        let disk = self.disk.lock().unwrap_or_else(|e| e.into_inner());
        match disk.now.get(path) {
            Some(t) => Some(t.clone()),
            None => self.start_text(path),
        }
    }

    /// A mechanic file's text as it now stands, for `extends` (and an experiment's systems):
    /// an offered file as on disk now, else an edited one taken.
    fn read_now(&self, p: &str, edited: Option<&BTreeMap<String, Edit>>) -> Result<String> {
        match self.text_now(&crate::paths::normalize(p)) {
            Some(text) => Ok(text),
            None => read_from(&BTreeMap::new(), edited, p),
        }
    }

    /// The files an offered file extends (as it loaded at start) that changed on disk since.
    fn bases_changed(&self, path: &str) -> Vec<String> {
        let Some(chain) = crate::mechanic::files_of(path) else {
            return Vec::new();
        };
        let disk = self.disk.lock().unwrap_or_else(|e| e.into_inner());
        chain
            .into_iter()
            .skip(1)
            .map(|(p, _)| p)
            .filter(|p| disk.now.contains_key(p))
            .collect()
    }

    /// Every file changed on disk with its text now (empty when none has): part of the name an
    /// edit or a file run from disk is loaded under, so that one extending a changed file is
    /// loaded again with the base's new text.
    fn disk_stamp(&self) -> String {
        let disk = self.disk.lock().unwrap_or_else(|e| e.into_inner());
        disk.now
            .iter()
            .map(|(p, t)| format!("\0{p}\0{t}"))
            .collect()
    }

    fn systems_json(&self) -> Value {
        let mut list: Vec<Value> = system::systems()
            .into_iter()
            .map(|s| describe_system(s, None))
            .collect();
        for (path, text) in &self.offered() {
            // Changed on disk, or a file it extends did: described as it now is (its own
            // tables), under its own path, with the bases that changed and a stamp of the texts
            // it runs (the page follows a change of either).
            let bases = self.bases_changed(path);
            if let Some(now) = self
                .text_now(path)
                .filter(|t| t != text || !bases.is_empty())
            {
                let stamp = short_hash(&format!("{now}{}", self.disk_stamp()));
                let setting = Setting {
                    system: path.clone(),
                    ..Setting::default()
                };
                match self.system_of(&setting, "") {
                    Ok((name, _hold)) => {
                        if let Ok(s) = system::find(&name) {
                            let mut d = describe_system(s, Some(&now));
                            d["name"] = json!(path);
                            d["changed_on_disk"] = json!(true);
                            d["bases_changed"] = json!(bases);
                            d["stamp"] = json!(stamp);
                            list.push(unrenamed(d));
                        }
                    }
                    Err(f) => list.push(json!({ "name": path, "mechanic": true, "text": now, "error": f.message, "changed_on_disk": true, "bases_changed": bases, "stamp": stamp })),
                }
                continue;
            }
            let broken = self.broken.read().unwrap_or_else(|e| e.into_inner());
            match broken.get(path) {
                Some(why) => {
                    list.push(json!({ "name": path, "mechanic": true, "text": text, "error": why }))
                }
                None => {
                    if let Ok(s) = system::find(path) {
                        list.push(describe_system(s, Some(text)));
                    }
                }
            }
        }
        json!({
            "systems": list,
            "limits": {
                "max_trials": self.limits.max_trials,
                "max_seconds": self.limits.max_seconds,
            },
            "files_version": self.files_version(),
            "version": crate::report::VERSION,
        })
    }

    /// `/api/describe`: one system's tables, an edited mechanic file's included (`system`,
    /// `code`).
    fn describe(&self, pairs: &[(String, String)]) -> std::result::Result<Value, Failure> {
        let setting = Setting {
            system: value(pairs, "system")
                .unwrap_or("rank-and-file")
                .to_string(),
            code: value(pairs, "code").map(str::to_string),
            ..Setting::default()
        };
        let (name, _hold) = self.system_of(&setting, "")?;
        let s = system::find(&name).map_err(|e| Failure::of(&e, ""))?;
        Ok(describe_system(s, setting.code.as_deref()))
    }

    /// The registry's name of a setting's system: a built-in system, a mechanic file the
    /// server offers, or an edited text of one (loaded once per text, outside any lock, and
    /// kept loaded while the [`Hold`] lives).
    fn system_of(
        &self,
        s: &Setting,
        prefix: &str,
    ) -> std::result::Result<(String, Hold<'_>), Failure> {
        let free = |name: String| {
            (
                name,
                Hold {
                    edits: &self.edited,
                    path: None,
                },
            )
        };
        let is_file = crate::mechanic::is_file(&s.system);
        let path = crate::paths::normalize(&s.system);
        let offered = || {
            let mut names: Vec<String> = system::systems()
                .iter()
                .map(|x| x.name().to_string())
                .collect();
            names.extend(self.offered().into_iter().map(|(p, _)| p));
            names.join(", ")
        };
        let unknown = || Failure {
            status: 400,
            message: format!(
                "invalid value '{}' for --system: allowed here: {}",
                s.system,
                offered()
            ),
            field: Some(format!("{prefix}system")),
            line: None,
        };
        if !is_file {
            if s.code.is_some() {
                return Err(Failure {
                    status: 400,
                    message: format!(
                        "code is only taken with a mechanic file (a system ending .rhai), not '{}'",
                        s.system
                    ),
                    field: Some(format!("{prefix}code")),
                    line: None,
                });
            }
            return system::find(&s.system)
                .map(|x| free(x.name().to_string()))
                .map_err(|_| unknown());
        }
        let Some(start) = self.start_text(&path) else {
            return Err(unknown());
        };
        // A file changed on disk, or extending one that did, runs as it now is: loaded as an
        // edit of it would be, its bases read as they now are.
        let now = self.text_now(&path);
        let stale = !self.bases_changed(&path).is_empty();
        let from_disk = now.as_ref().filter(|t| stale || **t != start);
        let code = match (&s.code, from_disk) {
            (Some(c), Some(d)) if c == d => None,
            (c, _) => c.as_ref(),
        };
        let (code, infix) = match (code, from_disk) {
            (Some(c), _) => (Some(c), "edited"),
            (None, Some(d)) => (Some(d), "disk"),
            (None, None) => (None, "edited"),
        };
        let Some(code) = code else {
            let broken = self.broken.read().unwrap_or_else(|e| e.into_inner());
            if let Some(why) = broken.get(&path) {
                return Err(Failure {
                    status: 400,
                    message: why.clone(),
                    field: Some(format!("{prefix}code")),
                    line: line_in(why),
                });
            }
            return Ok(free(path));
        };
        if *code == start && from_disk.is_none() {
            return Ok(free(path));
        }
        if code.len() > self.limits.max_edit_bytes {
            return Err(Failure {
                status: 413,
                message: format!(
                    "the edited file is {} bytes; this server takes edits of at most {} (a mechanic file is rarely over 20,000: split it with `extends`, or run it from the command line)",
                    code.len(),
                    self.limits.max_edit_bytes
                ),
                field: Some(format!("{prefix}code")),
                line: None,
            });
        }
        let hash = short_hash(&format!("{code}{}", self.disk_stamp()));
        let stem = path
            .strip_suffix(crate::mechanic::EXTENSION)
            .unwrap_or(&path);
        let edited_path = format!("{stem}.{infix}-{hash}{}", crate::mechanic::EXTENSION);
        let held = || Hold {
            edits: &self.edited,
            path: Some(edited_path.clone()),
        };
        {
            let mut e = self.edited.lock().unwrap_or_else(|e| e.into_inner());
            e.tick += 1;
            let tick = e.tick;
            if let Some(edit) = e.kept.get_mut(&edited_path) {
                edit.used = tick;
                edit.holds += 1;
                return Ok((edited_path.clone(), held()));
            }
            if e.taken >= self.limits.max_edits_ever {
                return Err(Failure::busy(format!(
                    "this server has taken {} edited files, its limit (each leaves some kilobytes loaded): restart it to edit more",
                    e.taken
                )));
            }
            // Room for one more: unload the least recently used edits that no request uses.
            while e.kept.len() + e.loading >= self.limits.max_edits {
                let oldest = e
                    .kept
                    .iter()
                    .filter(|(_, x)| x.holds == 0)
                    .min_by_key(|(_, x)| x.used)
                    .map(|(k, _)| k.clone());
                let Some(oldest) = oldest else {
                    return Err(Failure::busy(format!(
                        "all {} edited files this server keeps are in use by runs: try again in a moment",
                        e.kept.len() + e.loading
                    )));
                };
                e.kept.remove(&oldest);
                crate::mechanic::unload(&oldest);
            }
            e.loading += 1;
            e.taken += 1;
        }
        // Loaded outside the lock: other requests go on meanwhile. An edit extends only the
        // files the server offers, as they now stand on disk.
        let mut read = |p: &str| self.read_now(p, None);
        let loaded = crate::mechanic::load(&edited_path, code, &mut read);
        let mut e = self.edited.lock().unwrap_or_else(|e| e.into_inner());
        e.loading -= 1;
        // Shown by the path the page knows, not the server's name for the edit.
        loaded.map_err(|err| {
            let mut f = Failure::of(&err, prefix);
            f.field = Some(format!("{prefix}code"));
            f
        })?;
        let used = e.tick;
        let edit = e.kept.entry(edited_path.clone()).or_insert(Edit {
            text: code.clone(),
            used,
            holds: 0,
        });
        edit.holds += 1;
        Ok((edited_path.clone(), held()))
    }

    /// Take a run slot, waiting up to the limit.
    fn slot(&self, exact: bool) -> std::result::Result<Slot<'_>, Failure> {
        let lane = &self.lanes[usize::from(exact)];
        let deadline = Instant::now() + Duration::from_secs_f64(self.limits.wait_seconds);
        let mut busy = lane.busy.lock().unwrap_or_else(|e| e.into_inner());
        while *busy >= self.limits.max_runs {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Failure::busy(format!(
                    "the server is busy ({} runs under way, its limit): try again in a moment",
                    *busy
                )));
            }
            busy = lane
                .freed
                .wait_timeout(busy, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        *busy += 1;
        Ok(Slot(lane))
    }

    fn cached(&self, key: &str) -> Option<Vec<u8>> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.answers.get(key).cloned()
    }

    /// Keep an answer, within the count and the bytes allowed (both its key and its bytes
    /// count: a key is the request's text). Full, the cache starts afresh.
    fn keep(&self, key: String, bytes: &[u8]) {
        let size = key.len() + bytes.len();
        if self.limits.cache == 0 || size > self.limits.cache_bytes / 4 {
            return;
        }
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.answers.len() >= self.limits.cache || cache.bytes + size > self.limits.cache_bytes
        {
            cache.answers.clear();
            cache.bytes = 0;
        }
        if let Some(old) = cache.answers.insert(key.clone(), bytes.to_vec()) {
            cache.bytes -= key.len() + old.len();
        }
        cache.bytes += size;
    }

    /// `f`, with `control` cancelled once it passes the server's limit for one run: what it
    /// returned, and whether the limit stopped it.
    fn within_limit<T>(&self, control: &Arc<Control>, f: impl FnOnce() -> T) -> (T, bool) {
        let timed_out = Arc::new(AtomicBool::new(false));
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let watchdog = {
            let control = Arc::clone(control);
            let timed_out = Arc::clone(&timed_out);
            let budget = Duration::from_secs_f64(self.limits.max_seconds);
            std::thread::spawn(move || {
                if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                    done_rx.recv_timeout(budget)
                {
                    timed_out.store(true, Ordering::SeqCst);
                    control.cancel();
                }
            })
        };
        let out = f();
        let _ = done_tx.send(());
        let _ = watchdog.join();
        (out, timed_out.load(Ordering::SeqCst))
    }

    /// `/api/publish`: the page of the profile the form edits over the fields left open
    /// (`open=KEY` or `open=KEY=VALUES`, repeatable), every exact answer in it, as `publish`
    /// makes it from the command line; in a run slot, stopped at the server's time limit.
    fn publish(&self, pairs: &[(String, String)]) -> std::result::Result<Value, Failure> {
        // The view is the link's keys; the fields left open are the page's own.
        let view: Vec<(String, String)> = pairs
            .iter()
            .filter(|(k, _)| k != "open" && k != "title")
            .cloned()
            .collect();
        let v = View::parse(&view, self.limits.max_trials).map_err(|e| Failure::of(&e, ""))?;
        let p = &v.profiles[v.edit];
        let prefix = v.prefix(v.edit);
        let (name, _hold) = self
            .system_of(&p.setting, &prefix)
            .map_err(|f| whose(f, &v, p))?;
        let refused = |message: String| Failure {
            status: 400,
            message: format!("publish: {message}"),
            field: Some("publish.add".into()),
            line: None,
        };
        let open = pairs
            .iter()
            .filter(|(k, _)| k == "open")
            .map(|(_, o)| crate::publish::open_field(&name, v.scenario, o))
            .collect::<Result<Vec<_>>>()
            .map_err(|e| refused(for_the_page(&e)))?;
        if open.is_empty() {
            return Err(refused(
                "add a field the reader may change (the page holds its answers at each value)"
                    .into(),
            ));
        }
        // A title is one line of at most 200 characters, as the command line's --title.
        let title = value(pairs, "title")
            .map(str::trim)
            .filter(|t| !t.is_empty());
        if let Some(t) = title
            && !crate::publish::is_title(t)
        {
            return Err(Failure {
                status: 400,
                message: "publish: a title is one line of 1 to 200 characters".into(),
                field: Some("publish.title".into()),
                line: None,
            });
        }
        let ask = crate::publish::Ask {
            system: name,
            scenario: v.scenario,
            inputs: inputs_of(&p.setting),
            options: p.setting.options.clone(),
            title: title.map(str::to_string),
            open,
        };
        // The page's command line carries what the page fixes; each open field's value is the
        // page's to add (the form's value of it is where the page opens).
        let mut fixed = p.setting.clone();
        fixed
            .sets
            .retain(|(k, _)| !ask.open.iter().any(|o| &o.key == k));
        fixed
            .rules
            .retain(|(k, _)| !ask.open.iter().any(|o| &o.key == k));
        fixed
            .options
            .retain(|n| !ask.open.iter().any(|o| o.option && o.covers(n)));
        let _slot = self.slot(true)?;
        let control = Arc::new(Control::new());
        // The page's command line solves exactly: the view's trials and seed are not its.
        let mut words = Vec::new();
        let mut skip = false;
        let full = v.command(&fixed);
        for w in full.split(' ') {
            if skip {
                skip = false;
            } else if w == "--trials" || w == "--seed" {
                skip = true;
            } else {
                words.push(w);
            }
        }
        let (made, timed_out) = self.within_limit(&control, || {
            crate::publish::publish(&ask, &words.join(" "), env!("CARGO_PKG_VERSION"), &control)
        });
        let page = match made {
            Ok(page) => page,
            Err(Error::Cancelled) if timed_out => {
                return Err(Failure::busy(format!(
                    "stopped after {} s, the server's limit for one run: leave fewer values open",
                    self.limits.max_seconds
                )));
            }
            Err(e) => return Err(refused(for_the_page(&e))),
        };
        Ok(json!({
            "html": page.html,
            "answers": page.answers,
            "refused": page.refused,
            "bytes": page.html.len(),
        }))
    }

    /// `/api/run`: the view's numbers, `mode=exact` (default) or `mode=mc`.
    fn run(&self, pairs: &[(String, String)]) -> std::result::Result<Vec<u8>, Failure> {
        let started = Instant::now();
        let v = View::parse(pairs, self.limits.max_trials).map_err(|e| Failure::of(&e, ""))?;
        let mode = value(pairs, "mode").unwrap_or("exact");
        let exact = match mode {
            "exact" => true,
            "mc" => false,
            other => {
                return Err(Failure {
                    status: 400,
                    message: format!("invalid value '{other}' for mode: allowed: exact, mc"),
                    field: None,
                    line: None,
                });
            }
        };
        // Each setting checked as the command line checks it.
        // In the experiment's order (the base first), each with its link prefix.
        let mut settings: Vec<Variant<'_>> = Vec::new();
        // The edited files used are kept loaded until this answer is made.
        let mut holds = Vec::new();
        for i in v.in_order() {
            let p = &v.profiles[i];
            let prefix = v.prefix(i);
            let (name, hold) = self
                .system_of(&p.setting, &prefix)
                .map_err(|f| whose(f, &v, p))?;
            settings.push(Variant {
                prefix,
                profile: p,
                name,
            });
            holds.push(hold);
        }
        let mut has_exact = true;
        for s in &settings {
            let inputs = inputs_of(&s.profile.setting);
            let job = system::build(&s.name, v.scenario, &inputs, &s.profile.setting.options)
                .map_err(|e| whose(Failure::of(&e, &s.prefix), &v, s.profile))?;
            has_exact &= job.has_exact();
        }
        // "Solve for": the view's settings as the variants of an experiment with a [balance]
        // section (B against the pinned A, or both against a number), checked before it runs.
        let solve = self.solve_section(pairs, &v)?;
        // "Sweep": one numeric field at each of a list of values, every profile at each.
        let sweep = match value(pairs, "sweep")
            .map(str::trim)
            .filter(|k| !k.is_empty())
        {
            None => None,
            Some(_) if solve.is_some() => {
                return Err(Failure {
                    status: 400,
                    message: "a request sweeps or solves, not both: ask one, then the other".into(),
                    field: Some("sweep.key".into()),
                    line: None,
                });
            }
            Some(key) => {
                let edited = v.in_order().iter().position(|&i| i == v.edit).unwrap_or(0);
                let of = value(pairs, "of").map(str::trim).filter(|o| !o.is_empty());
                let refused = |(message, field): sweep::Refusal| Failure {
                    status: 400,
                    message: format!("sweep: {message}"),
                    field: Some(field.into()),
                    line: None,
                };
                let mut a = sweep::ask(
                    &settings[edited].name,
                    v.scenario,
                    key,
                    value(pairs, "values").unwrap_or(""),
                    of,
                )
                .map_err(refused)?;
                // A value some profile cannot take (3 stands lost of 3) is left out, and said.
                let rule = a.rule;
                // `fit=1`: the page's own range for the number, fitted to what it may be here.
                a.keep_allowed(value(pairs, "fit") == Some("1"), |x| {
                    settings.iter().find_map(|s| {
                        let mut inputs = inputs_of(&s.profile.setting);
                        inputs.push(if rule {
                            Input::rule(key, x)
                        } else {
                            Input {
                                key: key.to_string(),
                                value: x.to_string(),
                                source: Source::Set,
                            }
                        });
                        let e =
                            system::build(&s.name, v.scenario, &inputs, &s.profile.setting.options)
                                .err()?;
                        // The reason alone (the value is said beside it): values left out
                        // for one reason are listed together.
                        let why = unedited(&for_the_page(&e));
                        let why = why
                            .strip_prefix(&format!("invalid value '{x}' for "))
                            .and_then(|rest| rest.split_once(": "))
                            .map_or(why.clone(), |(_, reason)| reason.to_string());
                        Some(if v.compared() {
                            format!("profile {}: {why}", s.profile.title())
                        } else {
                            why
                        })
                    })
                })
                .map_err(refused)?;
                Some(a)
            }
        };
        let key = format!(
            "{}|{}{}{}",
            mode,
            solve.as_deref().unwrap_or(""),
            // The values left out are part of the answer (a range typed says them, the same
            // range fitted by the page does not).
            sweep
                .as_ref()
                .map_or(String::new(), |a| format!("{}{:?}", a.toml(), a.left_out)),
            if exact {
                v.exact_key()
            } else {
                format!("{}&trials={}&seed={}", v.exact_key(), v.trials, v.seed)
            }
        );
        if let Some(bytes) = self.cached(&key) {
            return Ok(bytes);
        }
        if solve.is_some() && !(exact && has_exact) {
            return Err(Failure {
                status: 400,
                message: "solve for runs on the exact answers here, and this setting has none (or Monte Carlo was asked): `morale-lab balance` searches it by Monte Carlo from the command line".into(),
                field: Some("solve.key".into()),
                line: None,
            });
        }
        if exact && !has_exact {
            let answer = json!({
                "mode": "exact",
                "has_exact": false,
                "files_version": self.files_version(),
                "query": v.query(),
                "commands": commands(&v),
                "ruleset": ruleset_toml(&v, v.current()),
                "experiment": v.compared().then(|| experiment_toml(&v, &settings, false)),
            });
            return Ok(answer.to_string().into_bytes());
        }
        let _slot = self.slot(exact)?;
        if let Some(bytes) = self.cached(&key) {
            return Ok(bytes);
        }
        // Monte Carlo stopped part way keeps the trials it finished (a prefix: the numbers of a
        // run of that many), the same for every profile and sweep value (they run side by side).
        let control = Arc::new(if exact {
            Control::new()
        } else {
            Control::keeping_partial()
        });
        let id = value(pairs, "run")
            .filter(|id| !id.is_empty() && id.len() <= 64)
            .map(str::to_string);
        if let Some(id) = &id {
            let mut runs = self.runs.lock().unwrap_or_else(|e| e.into_inner());
            // The same page's earlier run gives way to its new one.
            if let Some(old) = runs.insert(id.clone(), Arc::clone(&control)) {
                old.cancel();
            }
        }
        let (result, timed_out) = self.within_limit(&control, || match &sweep {
            Some(a) => self.sweep(&v, &settings, exact, a, &control),
            None => self.compute(&v, &settings, exact, solve.as_deref(), &control),
        });
        if let Some(id) = &id {
            let mut runs = self.runs.lock().unwrap_or_else(|e| e.into_inner());
            if runs.get(id).is_some_and(|c| Arc::ptr_eq(c, &control)) {
                runs.remove(id);
            }
        }
        let mut answer = match result {
            Ok(a) => a,
            Err(Error::Cancelled) if timed_out => {
                return Err(Failure::busy(format!(
                    "stopped after {} s, the server's limit for one run: ask for fewer trials",
                    self.limits.max_seconds
                )));
            }
            // A sweep value one of the profiles refuses (its system has no such parameter, or
            // other bounds): the sweep's fault, beside its values.
            Err(Error::File { key, message, .. }) if key.starts_with("sweep") => {
                return Err(Failure {
                    status: 400,
                    message: format!("sweep: {}", unedited(&message)),
                    field: Some("sweep.values".into()),
                    line: None,
                });
            }
            // A `[balance]` the experiment refused: the solve controls' fault, in their words.
            Err(Error::File { key, message, .. }) if key.starts_with("balance") => {
                return Err(Failure {
                    status: 400,
                    message: format!("solve for: {}", unedited(&message)),
                    field: Some(
                        match key.as_str() {
                            "balance.range" => "solve.range",
                            "balance.target" => "solve.target",
                            _ => "solve.key",
                        }
                        .into(),
                    ),
                    line: None,
                });
            }
            Err(e) => return Err(Failure::of(&e, "")),
        };
        answer["elapsed_ms"] = json!((started.elapsed().as_secs_f64() * 1e4).round() / 10.0);
        if let Some(partial) = answer.get_mut("partial").filter(|p| !p.is_null()) {
            // Not the view's whole answer: said, and never kept for it.
            partial["by"] = json!(if timed_out {
                format!(
                    "the server's limit of {} s for one run",
                    self.limits.max_seconds
                )
            } else {
                "Stop".to_string()
            });
            return Ok(answer.to_string().into_bytes());
        }
        let bytes = answer.to_string().into_bytes();
        self.keep(key, &bytes);
        Ok(bytes)
    }

    /// The `[balance]` section a request's `solve`, `target` and `range` ask for (`None` without
    /// `solve`): a profile's letter (`target=A`) solves every other profile to reach that one's
    /// headline, a number solves every profile to reach it.
    fn solve_section(
        &self,
        pairs: &[(String, String)],
        v: &View,
    ) -> std::result::Result<Option<String>, Failure> {
        let Some(key) = value(pairs, "solve")
            .map(str::trim)
            .filter(|k| !k.is_empty())
        else {
            return Ok(None);
        };
        let bad = |field: &str, message: String| Failure {
            status: 400,
            message,
            field: Some(field.to_string()),
            line: None,
        };
        let target = value(pairs, "target").map(str::trim).unwrap_or("");
        let mut out = format!("\n[balance]\nsolve = {}\n", view::toml_string(key));
        let letters: Vec<String> = v.profiles.iter().map(|p| p.label.to_string()).collect();
        if target.len() == 1 && target.chars().all(|c| c.is_ascii_alphabetic()) {
            let l = target.to_ascii_uppercase();
            if !v.compared() || !letters.contains(&l) {
                return Err(bad(
                    "solve.target",
                    if v.compared() {
                        format!(
                            "target {l} is not a profile here: a number, or one of {}",
                            letters.join(", ")
                        )
                    } else {
                        format!(
                            "target {l} names a profile to match: keep one first (Pin as A), or give a number"
                        )
                    },
                ));
            }
            let title = v
                .profiles
                .iter()
                .find(|p| p.label.to_string() == l)
                .map(Profile::title)
                .unwrap_or(l);
            out += &format!("against = {}\n", view::toml_string(&title));
        } else {
            match target.parse::<f64>() {
                Ok(t) if t.is_finite() => out += &format!("target = {t:?}\n"),
                _ => {
                    return Err(bad(
                        "solve.target",
                        format!(
                            "invalid value '{target}' for the target: a number (a share from 0 to 1 for an outcome, e.g. 0.5){}",
                            if v.compared() {
                                ", or a profile's letter (A: that profile's value)"
                            } else {
                                ""
                            }
                        ),
                    ));
                }
            }
        }
        if let Some(r) = value(pairs, "range")
            .map(str::trim)
            .filter(|r| !r.is_empty())
        {
            out += &format!("range = {}\n", view::toml_string(r));
        }
        Ok(Some(out))
    }

    /// Parse an experiment the view wrote (edited files read as the server keeps them) and run
    /// it: exact values only when `exact`, else Monte Carlo beside them.
    fn experiment(
        &self,
        text: &str,
        exact: bool,
        control: &Control,
    ) -> Result<(Experiment, crate::experiment::ExperimentResult)> {
        let mut read = |p: &str| -> Result<String> {
            let edited = self.edited.lock().unwrap_or_else(|e| e.into_inner());
            self.read_now(p, Some(&edited.kept))
        };
        let exp = Experiment::parse_with("explorer.toml", text, &mut read)?;
        let mut planned = exp.plan(self.limits.threads, Sampler::Table)?;
        for p in &mut planned {
            p.options.exact_only = exact;
        }
        // Monte Carlo of several runs goes side by side in batches, so that Stop leaves every
        // profile (and sweep value) on the same finished trials.
        let (runs, _) = crate::experiment::run_side_by_side(planned, control)?;
        let result = exp.result(self.limits.threads, runs);
        Ok((exp, result))
    }

    /// Run the view's profiles at every value of a sweep (an experiment with a `[sweep]`) and
    /// answer with its chart and table.
    fn sweep(
        &self,
        v: &View,
        settings: &[Variant<'_>],
        exact: bool,
        a: &sweep::Ask,
        control: &Control,
    ) -> Result<Value> {
        let text = sweep::with_sweep(&experiment_toml(v, settings, true), a);
        let (_, result) = self.experiment(&text, exact, control)?;
        // Stopped part way: the trials every value and profile finished, and a file of that many.
        let held = stopped(v, exact, &result);
        let partial = held.as_ref().map(|h| h.trials);
        let v = held.as_ref().unwrap_or(v);
        let titles: Vec<String> = settings
            .iter()
            .map(|s| {
                if v.compared() {
                    s.profile.title()
                } else {
                    "this setting".to_string()
                }
            })
            .collect();
        let file = sweep::with_sweep(&experiment_toml(v, settings, false), a);
        let mut answer = sweep::answer(v, &titles, a, &result, file)?;
        // Charts and files name an edited file as the page saves it.
        answer = serde_json::from_str(&as_saved(&answer.to_string())).unwrap_or(answer);
        Ok(json!({
            "files_version": self.files_version(),
            "mode": if exact { "exact" } else { "mc" },
            "has_exact": true,
            "query": v.query(),
            "sweep": answer,
            "partial": partial.map(|trials| json!({ "trials": trials })),
        }))
    }

    /// Run the view's settings as the variants of an experiment (A first: the baseline) and
    /// answer with their reports, charts and comparisons.
    fn compute(
        &self,
        v: &View,
        settings: &[Variant<'_>],
        exact: bool,
        solve: Option<&str>,
        control: &Control,
    ) -> Result<Value> {
        let text = experiment_toml(v, settings, true) + solve.unwrap_or("");
        let (exp, result) = self.experiment(&text, exact, control)?;
        // A run stopped part way: its trials, and the commands that give its numbers.
        let held = stopped(v, exact, &result);
        let partial = held.as_ref().map(|h| h.trials);
        let v = held.as_ref().unwrap_or(v);
        let mut charts = Vec::new();
        let mut drawn = output::point_charts(&result);
        if v.compared() {
            // Profiles side by side: each state's share turn by turn, every profile's line on
            // one chart, in place of a stacked chart for each.
            drawn.retain(|(name, _)| !name.starts_with("per_turn_"));
            drawn.extend(output::per_turn_overlaid(&result));
        }
        for (name, chart) in drawn {
            let draw = |size| {
                chart
                    .svg_sized(size)
                    .map_err(|e| Error::Conflict(format!("could not draw the chart {name}: {e}")))
            };
            // Drawn twice: as the reports draw it, and narrow for a phone's width.
            let (svg, narrow) = (draw(chart::SIZE)?, draw(chart::NARROW)?);
            charts.push(
                json!({ "name": name, "title": chart.title(), "svg": svg, "narrow": narrow }),
            );
        }
        let variants: Vec<Value> = result
            .runs
            .iter()
            .map(|r| {
                // The report (its system, source and notes) names an edited file as the page
                // saves it, not by the server's name for it.
                let text = serde_json::to_string(&r.report).unwrap_or_default();
                let report: Value = serde_json::from_str(&as_saved(&text)).unwrap_or(Value::Null);
                // Each exact value's simple fraction (5/9), as the command line prints it, by
                // outcome and measure (beside the report, which stays the command line's).
                let outcomes = r.report.outcomes.iter().map(|o| (&o.outcome, o.cell.exact));
                let metrics = r.report.metrics.iter().map(|m| (&m.name, m.exact));
                let fractions: serde_json::Map<String, Value> = outcomes
                    .chain(metrics)
                    .filter_map(|(name, exact)| {
                        let (a, b) = crate::report::simple_fraction(exact?)?;
                        Some((name.clone(), json!(format!("{a}/{b}"))))
                    })
                    .collect();
                let p = settings[r.variant].profile;
                json!({ "label": p.label.to_string(), "name": p.name, "title": p.title(), "report": report, "fractions": fractions })
            })
            .collect();
        let comparisons = if v.compared() {
            if exact {
                let base = &result.runs[0];
                Value::Array(
                    result.runs[1..]
                        .iter()
                        .flat_map(|r| {
                            exact_differences(
                                &base.report,
                                &r.report,
                                &settings[base.variant].profile.title(),
                                &settings[r.variant].profile.title(),
                            )
                        })
                        .collect(),
                )
            } else {
                serde_json::to_value(compare::compare(&result)).unwrap_or(Value::Null)
            }
        } else {
            Value::Null
        };
        let headline = output::headline(&result);
        let mut solved = Vec::new();
        for (name, b) in exp.balances(self.limits.threads, Sampler::Table, control)? {
            let chart = b.chart();
            let draw = |size| {
                chart
                    .svg_sized(size)
                    .map_err(|e| Error::Conflict(format!("could not draw the balance chart: {e}")))
            };
            let (svg, narrow) = (draw(chart::SIZE)?, draw(chart::NARROW)?);
            let p = settings
                .iter()
                .map(|s| s.profile)
                .find(|p| p.title() == name)
                .unwrap_or(&v.profiles[v.edit]);
            solved.push(json!({
                "label": p.label.to_string(),
                "name": p.name,
                "key": b.key,
                "words": b.key_words(),
                "answer": b.answer(),
                // The number does not move this profile's headline: one line, not a search.
                "unmoved": b.unmoved(),
                "context": b.context_lines(),
                "rows": b.rows(),
                "exact": b.exact,
                "chart": { "title": chart.title(), "svg": svg, "narrow": narrow },
                "command": solve_command(v, &p.setting, &b),
            }));
        }
        Ok(json!({
            "files_version": self.files_version(),
            "balance": solved,
            "mode": if exact { "exact" } else { "mc" },
            "has_exact": true,
            "query": v.query(),
            "headline": headline.map(|(k, metric)| json!({ "key": k, "metric": metric })),
            "variants": variants,
            "comparisons": comparisons,
            "charts": charts,
            "commands": commands(v),
            "ruleset": ruleset_toml(v, v.current()),
            "experiment": v.compared().then(|| experiment_toml(v, settings, false)),
            "partial": partial.map(|trials| json!({ "trials": trials })),
        }))
    }
}

/// The view with the trials a Monte Carlo run stopped part way holds (every run of it the
/// same), whose commands and files give its numbers; `None` for a whole run or an exact one.
fn stopped(v: &View, exact: bool, result: &crate::experiment::ExperimentResult) -> Option<View> {
    let held = result.runs.iter().map(|r| r.report.trials).min()?;
    (!exact && held > 0 && held < v.trials).then(|| View {
        trials: held,
        ..v.clone()
    })
}

/// The value of the last `key` in `pairs`.
fn value<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// A mechanic file's text from the files read at start or the edited ones taken.
fn read_from(
    files: &BTreeMap<String, String>,
    edited: Option<&BTreeMap<String, Edit>>,
    p: &str,
) -> Result<String> {
    let path = crate::paths::normalize(p);
    files
        .get(&path)
        .or_else(|| edited.and_then(|e| e.get(&path)).map(|e| &e.text))
        .cloned()
        .ok_or_else(|| Error::File {
            path: p.to_string(),
            line: 0,
            key: String::new(),
            message: "is not one of the files this server offers (its --mechanics folder)".into(),
        })
}

/// The line of a mechanic file's error, `….rhai:LINE:COL: …` or `….rhai:LINE: …`.
fn script_line(message: &str) -> Option<usize> {
    let at = message.find(".rhai:")? + ".rhai:".len();
    let digits: String = message[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok().filter(|l| *l > 0)
}

/// A message with the server's names for edited files (`name.edited-HASH.rhai`) put back to
/// the file's own.
fn unedited(message: &str) -> String {
    renamed(message, "")
}

/// A message with the server's names for edited files as the page saves them
/// (`name-edited.rhai`, [`view::edited_name`]).
fn as_saved(message: &str) -> String {
    renamed(message, "-edited")
}

/// `name.edited-HASH.rhai` → `name{tail}.rhai` throughout `message` (and a file changed on
/// disk, `name.disk-HASH.rhai`, → `name.rhai`: it is the file itself).
fn renamed(message: &str, tail: &str) -> String {
    renamed_infix(&renamed_infix(message, ".disk-", ""), ".edited-", tail)
}

/// A JSON answer with the server's names for files put back to the files' own.
fn unrenamed(v: Value) -> Value {
    serde_json::from_str(&unedited(&v.to_string())).unwrap_or(v)
}

/// `name{infix}HASH.rhai` → `name{tail}.rhai` throughout `message`.
fn renamed_infix(message: &str, infix: &str, tail: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find(infix) {
        let after = &rest[i + infix.len()..];
        let hex = after.chars().take_while(char::is_ascii_hexdigit).count();
        out.push_str(&rest[..i]);
        if hex == 12 && after[hex..].starts_with(crate::mechanic::EXTENSION) {
            out.push_str(tail);
            rest = &after[hex..];
        } else {
            out.push_str(infix);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The first `:LINE` of an error message about a file (`path:12: …`).
fn line_in(message: &str) -> Option<usize> {
    message
        .split(':')
        .nth(1)
        .and_then(|l| l.trim().parse::<usize>().ok())
}

fn short_hash(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn inputs_of(s: &Setting) -> Vec<Input> {
    let mut inputs: Vec<Input> = s
        .sets
        .iter()
        .map(|(k, v)| Input {
            key: k.clone(),
            value: v.clone(),
            source: Source::Set,
        })
        .collect();
    inputs.extend(s.rules.iter().map(|(k, v)| Input::rule(k, v.clone())));
    inputs
}

/// Each profile's command line, in letter order, with its letter and name.
fn commands(v: &View) -> Value {
    Value::Array(
        v.profiles
            .iter()
            .enumerate()
            .map(|(k, p)| {
                // Profile k runs as the experiment's run of its place in the order (the base
                // first): that run's stream.
                let stream = if v.compared() {
                    v.in_order().iter().position(|&j| j == k).unwrap_or(0)
                } else {
                    0
                };
                json!({ "label": p.label.to_string(), "name": p.name, "command": v.command_in_stream(&p.setting, stream) })
            })
            .collect(),
    )
}

/// A profile as the experiment runs it: its link prefix, the profile, and its system's name
/// in the registry (an edited file's as the server loaded it).
struct Variant<'a> {
    prefix: String,
    profile: &'a Profile,
    name: String,
}

/// A failure of a profile other than the one the form edits says whose it is.
fn whose(mut f: Failure, v: &View, p: &Profile) -> Failure {
    if v.compared() && p.label != v.profiles[v.edit].label {
        f.message = format!("profile {}: {}", p.title(), f.message);
    }
    f
}

/// A setting's rules as a rule-set file (its situation is not a rule set's).
fn ruleset_toml(v: &View, s: &Setting) -> String {
    let mut out = String::from(
        "# A rule set written by morale-lab's explorer: use it with --rules FILE, or as\n# rules_file = \"FILE\" in an experiment's variant.\n",
    );
    if s.code.is_some() {
        out += &format!(
            "# It stands on an edited copy of {}: save the editor's text there first.\n",
            s.system
        );
    }
    out += &format!(
        "name = \"explorer-rules\"\ndescription = {}\nbase = {}\n",
        view::toml_string(&format!(
            "The rules of `{}` as set in the explorer.",
            v.command(s)
        )),
        view::toml_string(&s.system)
    );
    if !s.options.is_empty() {
        let opts: Vec<String> = s.options.iter().map(|o| view::toml_string(o)).collect();
        out += &format!("options = [{}]\n", opts.join(", "));
    }
    if !s.rules.is_empty() {
        out += "\n[rules]\n";
        for (k, val) in &s.rules {
            out += &format!("{k} = {}\n", view::toml_value(val));
        }
    }
    out
}

/// The view as an experiment file: its profiles as variants, the base first, or the one profile
/// alone. `to_run`: name edited files by the server's paths for them (else by the page's, with
/// a note).
fn experiment_toml(v: &View, settings: &[Variant<'_>], to_run: bool) -> String {
    let compare = v.compared();
    let mut out = String::from(
        "# An experiment written by morale-lab's explorer: run it with\n#   morale-lab run explorer.toml\n",
    );
    for s in settings {
        let st = &s.profile.setting;
        if st.code.is_some() && !to_run {
            out += &format!(
                "# {} uses an edited copy of {}: save the editor's text (Download the edited file) as {} first.\n",
                s.profile.label,
                st.system,
                view::edited_name(&st.system)
            );
        }
    }
    let question = if !compare {
        "What does this setting give?".to_string()
    } else {
        let base = settings[0].profile.label;
        let others: Vec<String> = settings[1..]
            .iter()
            .map(|s| s.profile.label.to_string())
            .collect();
        let others = match others.len() {
            1 => others[0].clone(),
            n => format!("{} and {}", others[..n - 1].join(", "), others[n - 1]),
        };
        format!(
            "How do{} {others} differ from {base}?",
            if settings.len() == 2 { "es" } else { "" }
        )
    };
    out += &format!(
        "name = \"explorer\"\nquestion = {}\nscenario = \"{}\"\nseed = {}\ntrials = {}\n",
        view::toml_string(&question),
        v.scenario.name(),
        v.seed,
        v.trials
    );
    for s in settings {
        let st = &s.profile.setting;
        let label = if compare {
            s.profile.title()
        } else {
            "this setting".to_string()
        };
        let system = match (to_run, &st.code) {
            (true, _) => s.name.clone(),
            (false, Some(_)) => view::edited_name(&st.system),
            (false, None) => st.system.clone(),
        };
        out += &format!(
            "\n[[variant]]\nname = {}\nsystem = {}\n",
            view::toml_string(&label),
            view::toml_string(&system)
        );
        if !st.sets.is_empty() {
            out += &format!("set = {}\n", view::inline_table(&st.sets));
        }
        if !st.rules.is_empty() {
            out += &format!("rules = {}\n", view::inline_table(&st.rules));
        }
        if !st.options.is_empty() {
            let opts: Vec<String> = st.options.iter().map(|o| view::toml_string(o)).collect();
            out += &format!("options = [{}]\n", opts.join(", "));
        }
    }
    out
}

/// The `balance` command line that gives a search's numbers (setting `s`, as the view runs it).
fn solve_command(v: &View, s: &Setting, b: &crate::experiment::balance::Balance) -> String {
    let run = v.command(s);
    let run = run
        .strip_prefix("morale-lab ")
        .unwrap_or(&run)
        .split(" --trials ")
        .next()
        .unwrap_or("")
        .to_string();
    let mut out = format!("morale-lab balance {run} --solve {}", view::shell(&b.key));
    if !b.range.0.is_empty() {
        out += &format!(
            " --range {}",
            view::shell(&format!("{}..{}", b.range.0, b.range.1))
        );
    }
    out += &format!(
        " --headline {} --target {}",
        view::shell(&b.headline),
        b.target
    );
    out
}

/// Exact differences `b − a` of every outcome and metric both have (`an`, `bn`: their names).
fn exact_differences(a: &crate::Report, b: &crate::Report, an: &str, bn: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for o in &b.outcomes {
        if let Some(base) = a
            .outcomes
            .iter()
            .find(|x| compare::same_outcome(&x.outcome, &o.outcome))
            && let (Some(x), Some(y)) = (o.cell.exact, base.cell.exact)
        {
            out.push(json!({ "kind": "outcome", "name": o.outcome, "variant": bn, "baseline": an, "estimate": x, "baseline_estimate": y, "exact_difference": x - y }));
        }
    }
    for m in &b.metrics {
        if let Some(base) = a.metrics.iter().find(|x| x.name == m.name)
            && let (Some(x), Some(y)) = (m.exact, base.exact)
        {
            out.push(json!({ "kind": "metric", "name": m.name, "variant": bn, "baseline": an, "estimate": x, "baseline_estimate": y, "exact_difference": x - y }));
        }
    }
    out
}

/// A system's tables for the page's form: its scenarios with their parameters (defaults as
/// the scenario has them), its rule parameters with the source's values, its optional rules.
fn describe_system(s: &dyn RuleSystem, text: Option<&str>) -> Value {
    let params = system::all_params(s);
    let scenarios: Vec<Value> = s
        .scenarios()
        .iter()
        .map(|sc| {
            let defaults = s.defaults(*sc, &[]);
            let ps: Vec<Value> = params
                .iter()
                .filter(|p| p.scenarios.contains(sc))
                .filter(|p| !s.rule_params().iter().any(|r| r.key == p.key))
                .map(|p| {
                    let default = defaults
                        .iter()
                        .find(|(k, _)| *k == p.key)
                        .map_or(p.default.to_string(), |(_, v)| v.clone());
                    param_json(p, &default)
                })
                .collect();
            json!({
                "name": sc.name(),
                "help": sc.about().help,
                "params": ps,
            })
        })
        .collect();
    json!({
        "name": s.name(),
        "title": s.title(),
        "rules": s.rules(),
        "mechanic": crate::mechanic::is_file(s.name()),
        "text": text,
        "scenarios": scenarios,
        "rule_params": s.rule_params().iter().map(|p| param_json(p, p.default)).collect::<Vec<_>>(),
        "options": s.options().iter().map(|o| json!({ "name": o.name, "rule": o.rule, "meaning": o.meaning })).collect::<Vec<_>>(),
    })
}

fn param_json(p: &ParamDef, default: &str) -> Value {
    let (kind, extra) = match p.kind {
        Kind::Int { min, max } => ("int", json!({ "min": min, "max": max })),
        Kind::Real { min, max } => ("real", json!({ "min": min, "max": max })),
        Kind::Bool => ("bool", Value::Null),
        Kind::Choice(c) => ("choice", json!({ "choices": c })),
        Kind::Dist => ("dist", Value::Null),
        Kind::Prob => ("prob", Value::Null),
        Kind::Spec(_) => ("spec", Value::Null),
    };
    let mut v = json!({
        "key": p.key,
        "label": crate::params::label(p.key),
        "flag": p.flag,
        "kind": kind,
        "allowed": p.kind.allowed(),
        "default": default,
        "meaning": p.meaning,
        "rule": p.rule,
    });
    if let (Some(obj), Value::Object(more)) = (v.as_object_mut(), extra) {
        obj.extend(more);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explorer() -> Explorer {
        Explorer::new(Vec::new(), Limits::default())
    }

    fn body(r: &Response) -> Value {
        serde_json::from_slice(&r.body).expect("JSON")
    }

    /// The list of systems (`/api/systems`), and the entry of the file at `path` in it.
    fn listed(x: &Explorer, path: &str) -> (Value, Value) {
        let sys = body(&x.handle("GET", "/api/systems", b""));
        let entry = sys["systems"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == path)
            .unwrap()
            .clone();
        (sys, entry)
    }

    /// A loopback server's gate on port 8080, and a request through it.
    fn gated(host: &str, origin: Option<&str>, site: Option<&str>, token: Option<&str>) -> u16 {
        let x = explorer().with_gate(Gate::new(
            "t0ken".into(),
            std::net::IpAddr::from([127, 0, 0, 1]),
            8080,
            Vec::new(),
        ));
        let head = Head {
            method: "POST",
            path: "/api/run",
            host: Some(host),
            origin,
            fetch_site: site,
            token,
        };
        x.answer(&head, "/api/run?scenario=rally&mode=fast", b"")
            .status
    }

    #[test]
    fn only_the_servers_own_page_drives_it() {
        let t = Some("t0ken");
        // Let through (to the API's own answer, 400 for a bad mode).
        for host in [
            "localhost:8080",
            "LOCALHOST",
            "127.0.0.1:8080",
            "127.0.0.2",
            "[::1]:8080",
        ] {
            assert_eq!(gated(host, None, None, t), 400, "{host}");
        }
        assert_eq!(
            gated(
                "localhost:8080",
                Some("http://localhost:8080"),
                Some("same-origin"),
                t
            ),
            400
        );
        // Another site's name for this address (DNS rebinding), another port, no name.
        for host in [
            "127.evil.example",
            "127.0.0.1.nip.io",
            "127.0.0.1.nip.io:8080",
            "localhost.evil.com",
            "evil.example:8080",
            "127.1",
            "127.0.0.1:8081",
            "[::1]x",
            "",
        ] {
            assert_eq!(gated(host, None, None, t), 403, "{host}");
        }
        // Another site's page, by its origin or the browser's word; a page without the token.
        assert_eq!(
            gated("localhost:8080", Some("http://evil.example"), None, t),
            403
        );
        assert_eq!(gated("localhost:8080", Some("null"), None, t), 403);
        assert_eq!(gated("localhost:8080", None, Some("cross-site"), t), 403);
        assert_eq!(gated("localhost:8080", None, Some("same-site"), t), 403);
        assert_eq!(gated("localhost:8080", None, None, None), 403);
        assert_eq!(gated("localhost:8080", None, None, Some("t0kem")), 403);
        // The page carries the token; GET and HEAD compute nothing.
        let x = explorer().with_gate(Gate::new(
            "t0ken".into(),
            std::net::IpAddr::from([127, 0, 0, 1]),
            8080,
            Vec::new(),
        ));
        let page = String::from_utf8(x.handle("GET", "/", b"").body).unwrap();
        assert!(page.contains(r#"<meta name="morale-lab-token" content="t0ken">"#));
        for method in ["GET", "HEAD"] {
            for path in [
                "/api/run?scenario=rally",
                "/api/describe",
                "/api/cancel?run=x",
            ] {
                assert_eq!(x.handle(method, path, b"").status, 405, "{method} {path}");
            }
        }
    }

    /// "Solve for": the answer under `balance`, B against A or a number; bad asks at their field.
    #[test]
    fn solve_for_answers_with_the_search_and_refuses_at_its_field() {
        let x = explorer();
        let q = "/api/run?scenario=rally&set=class%3Dgreen&set=state%3Drouting&a.set=class%3Dregular&a.set=state%3Drouting";
        let r = x.handle("POST", &format!("{q}&solve=base_green&target=A"), b"");
        assert_eq!(r.status, 200);
        let v = body(&r);
        let solved = v["balance"].as_array().unwrap();
        assert_eq!(solved.len(), 1, "B alone is solved against A");
        assert_eq!(solved[0]["label"], "B");
        assert!(
            solved[0]["answer"]
                .as_str()
                .unwrap()
                .contains("Green base number 4, exactly")
        );
        assert!(
            solved[0]["chart"]["svg"]
                .as_str()
                .unwrap()
                .starts_with("<svg")
        );
        assert!(solved[0]["unmoved"].is_null());
        assert_eq!(solved[0]["words"], "Green base number");
        // A number: both solved; without solve, no search. The Green base number does not
        // move A, a Regular unit: A's answer says so in one sentence.
        let v = body(&x.handle("POST", &format!("{q}&solve=base_green&target=0.5"), b""));
        let solved = v["balance"].as_array().unwrap();
        assert_eq!(solved.len(), 2);
        let (a, b) = (&solved[0], &solved[1]);
        assert_eq!((&a["label"], &b["label"]), (&json!("A"), &json!("B")));
        let line = a["unmoved"].as_str().unwrap();
        assert!(
            line.starts_with("Green base number does not change it: the chance ")
                && line.contains(" at every value from "),
            "{line}"
        );
        assert!(b["unmoved"].is_null(), "{b}");
        let v = body(&x.handle("POST", q, b""));
        assert_eq!(v["balance"].as_array().unwrap().len(), 0);
        for (ask, field) in [
            ("solve=base_green&target=half", "solve.target"),
            ("solve=base_greenn&target=0.5", "solve.key"),
            ("solve=base_green&target=0.5&range=0..20", "solve.range"),
            ("solve=base_green&target=1.5", "solve.target"),
        ] {
            let r = x.handle("POST", &format!("{q}&{ask}"), b"");
            assert_eq!(r.status, 400, "{ask}");
            let v = body(&r);
            assert_eq!(v["field"], field, "{ask}: {v}");
            assert!(
                !v["error"].as_str().unwrap().contains("explorer.toml"),
                "{v}"
            );
        }
        let r = x.handle(
            "POST",
            "/api/run?scenario=rally&solve=base_green&target=A",
            b"",
        );
        assert_eq!(body(&r)["field"], "solve.target");
        // A line has no exact answer: solve for says so at its field rather than searching.
        let r = x.handle(
            "POST",
            "/api/run?scenario=line&solve=break_fraction&target=0.5",
            b"",
        );
        assert_eq!(r.status, 400);
        assert_eq!(body(&r)["field"], "solve.key");
        let r = x.handle(
            "POST",
            &format!("{q}&mode=mc&solve=base_green&target=0.5"),
            b"",
        );
        assert_eq!(body(&r)["field"], "solve.key");
    }

    #[test]
    fn beyond_loopback_the_gate_takes_addresses_and_named_hosts() {
        let g = Gate::new(
            "t".into(),
            std::net::IpAddr::from([0, 0, 0, 0]),
            80,
            vec!["Lab.Example".into()],
        );
        for ok in [
            "192.0.2.7",
            "192.0.2.7:80",
            "lab.example",
            "localhost:80",
            "[2001:db8::1]",
        ] {
            assert!(g.host_allowed(ok), "{ok}");
        }
        for bad in ["evil.example", "lab.example.evil", "192.0.2.7:81"] {
            assert!(!g.host_allowed(bad), "{bad}");
        }
    }

    /// A key given twice in a link is refused at its field, A's at A's, in the page's words
    /// (no internal experiment file named).
    #[test]
    fn a_key_twice_in_a_link_is_refused_at_its_field() {
        let x = explorer();
        for (q, field) in [
            ("scenario=rally&set=stands%3D7&set=stands%3D8", "set.stands"),
            ("scenario=rally&a.set=lost%3D1&a.set=lost%3D2", "a.set.lost"),
            (
                "scenario=rally&rule=base_green%3D5&rule=base_green%3D4",
                "rule.base_green",
            ),
        ] {
            let r = x.handle("POST", &format!("/api/run?{q}"), b"");
            assert_eq!(r.status, 400, "{q}");
            let v = body(&r);
            assert_eq!(v["field"], field, "{q}: {v}");
            let e = v["error"].as_str().unwrap();
            assert!(
                e.contains("each key once") && !e.contains("explorer.toml"),
                "{e}"
            );
            assert_eq!(e.lines().count(), 1, "{e}");
        }
        // Different keys, or the same key in A and in B, are fine.
        let ok = "scenario=rally&set=stands%3D7&set=lost%3D1&a.set=stands%3D8";
        assert_eq!(x.handle("POST", &format!("/api/run?{ok}"), b"").status, 200);
    }

    /// The budgets' errors name what the page can do, not a flag it has no control for.
    #[test]
    fn a_budget_error_names_what_the_page_can_do() {
        let over = Error::OverBudget {
            scenario: "engagement".into(),
            projected_s: 12.0,
            budget_s: 5.0,
        };
        let tables = Error::TablesOverBudget { budget_s: 5.0 };
        for (e, says) in [(over, "Run Monte Carlo"), (tables, "--sampler dice")] {
            let m = Failure::of(&e, "").message;
            assert!(
                m.contains(says) && m.contains("more than the explorer allows"),
                "{m}"
            );
            assert!(!m.contains("raise --exact-budget"), "{m}");
        }
    }

    #[test]
    fn the_page_and_the_api_answer_and_nothing_else_is_served() {
        let x = explorer();
        let page = x.handle("GET", "/", b"");
        assert_eq!(page.status, 200);
        assert!(String::from_utf8_lossy(&page.body).contains("<title>morale-lab explorer"));
        for path in [
            "/../Cargo.toml",
            "/src/lib.rs",
            "/etc/passwd",
            "/api/../../Cargo.toml",
            "/index.html/..",
            "/favicon.ico",
        ] {
            let r = x.handle("GET", path, b"");
            assert_eq!(r.status, 404, "{path}");
            assert!(!String::from_utf8_lossy(&r.body).contains("[package]"));
        }
        assert_eq!(x.handle("DELETE", "/api/run", b"").status, 405);
        let systems = body(&x.handle("GET", "/api/systems", b""));
        let names: Vec<&str> = systems["systems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"rank-and-file") && names.contains(&"linear-warfare"));
    }

    #[test]
    fn an_exact_answer_is_the_command_lines() {
        let x = explorer();
        let r = x.handle(
            "POST",
            "/api/run",
            b"system=rank-and-file&scenario=rally&set=class%3Dveteran&set=stands%3D7&set=lost%3D2&mode=exact",
        );
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = body(&r);
        let job = crate::job(
            "rank-and-file",
            "rally",
            &[("class", "veteran"), ("stands", "7"), ("lost", "2")],
            &[],
        )
        .unwrap();
        let want = job
            .run(
                &crate::RunOptions::new(1000, 1).exact_only(true),
                &Control::new(),
            )
            .unwrap();
        let got = &v["variants"][0]["report"]["outcomes"][0];
        assert_eq!(got["outcome"], "recovered");
        assert_eq!(got["exact"].as_f64(), want.outcomes[0].cell.exact);
        assert!(
            v["charts"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["svg"].as_str().unwrap().starts_with("<svg"))
        );
        assert_eq!(
            v["commands"][0]["command"],
            "morale-lab rally --system rank-and-file --set class=veteran --set stands=7 --set lost=2 --trials 1000000 --seed 1"
        );
    }

    #[test]
    fn a_bad_value_is_refused_beside_its_field() {
        let x = explorer();
        let r = x.handle(
            "POST",
            "/api/run?scenario=rally&set=stands%3D99&a.rule=base_green%3D0",
            b"",
        );
        assert_eq!(r.status, 400);
        let v = body(&r);
        // A is checked first.
        assert_eq!(v["field"], "a.rule.base_green", "{v}");
        let r = x.handle("POST", "/api/run?scenario=rally&set=stands%3D99", b"");
        let v = body(&r);
        assert_eq!(v["field"], "set.stands", "{v}");
        assert!(v["error"].as_str().unwrap().contains("'99'"), "{v}");
        let v = body(&x.handle("POST", "/api/run?scenario=rally&set=colour%3Dred", b""));
        assert_eq!(v["field"], "set.colour", "{v}");
        let v = body(&x.handle("POST", "/api/run?scenario=rally&system=chess", b""));
        assert_eq!(v["field"], "system", "{v}");
        let v = body(&x.handle("POST", "/api/run?scenario=rally&mode=fast", b""));
        assert!(v["error"].as_str().unwrap().contains("allowed: exact, mc"));
    }

    #[test]
    fn bodies_over_the_limit_are_refused() {
        let x = Explorer::new(
            Vec::new(),
            Limits {
                max_body: 100,
                ..Limits::default()
            },
        );
        assert_eq!(x.handle("POST", "/api/run", &[b'a'; 101]).status, 413);
        assert_eq!(x.handle("POST", "/api/run", &[0xff; 10]).status, 400);
    }

    #[test]
    fn a_pinned_setting_is_compared_with_the_experiments_statistics() {
        let x = explorer();
        let q = b"scenario=rally&set=class%3Dregular&set=stands%3D8&set=state%3Drouting&rule=base_regular%3D5&a.set=class%3Dregular&a.set=stands%3D8&a.set=state%3Drouting&trials=20000&mode=mc";
        let r = x.handle("POST", "/api/run", q);
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = body(&r);
        let variants = v["variants"].as_array().unwrap();
        assert_eq!(variants[0]["label"], "A");
        assert_eq!(variants[1]["label"], "B");
        let c = v["comparisons"].as_array().unwrap();
        let rec = c.iter().find(|c| c["name"] == "recovered").unwrap();
        assert!(rec["p_value"].as_f64().is_some());
        assert!(rec["exact_difference"].as_f64().is_some());
        // The experiment offered for download runs the same.
        let text = v["experiment"].as_str().unwrap();
        let exp = Experiment::parse("explorer.toml", text).unwrap();
        assert_eq!(exp.variants.len(), 2);
        assert_eq!(exp.trials, 20_000);
        // So does the rule-set file: B's rules, on the system B plays.
        let set = crate::ruleset::RuleSet::parse(
            "explorer-rules.toml",
            v["ruleset"].as_str().unwrap(),
            &mut |p: &str| Err(Error::Conflict(format!("no file {p}"))),
        )
        .unwrap();
        assert_eq!(set.system, "rank-and-file");
        assert_eq!(
            set.rules,
            vec![("base_regular".to_string(), "5".to_string())]
        );
    }

    /// Every parameter of every built-in system has a label written for it, short enough for
    /// the form's column; a mechanic file's own parameter gets its key in words.
    #[test]
    fn every_built_in_parameter_has_a_short_label() {
        for s in system::systems() {
            let d = describe_system(s, None);
            let mut params: Vec<&Value> = d["rule_params"].as_array().unwrap().iter().collect();
            for sc in d["scenarios"].as_array().unwrap() {
                params.extend(sc["params"].as_array().unwrap());
            }
            assert!(params.len() > 10, "{}", s.name());
            for p in params {
                let key = p["key"].as_str().unwrap();
                assert!(
                    crate::params::has_label(key),
                    "{}: {key} has no label",
                    s.name()
                );
                let label = p["label"].as_str().unwrap();
                assert!(label.len() <= 30 && !label.contains('_'), "{key}: {label}");
            }
        }
        assert_eq!(
            crate::params::label("hit_points_machine_gun"),
            "Hits to lose a machine gun"
        );
        assert_eq!(crate::params::label("shaken_at"), "Shaken at");
    }

    /// Three named profiles, the base chosen: each answer is its own setting's, each other
    /// profile is compared with the base (exact differences; Monte Carlo rows with p-values
    /// adjusted across them all), and the downloaded experiment holds them base first.
    #[test]
    fn profiles_are_compared_with_the_chosen_base() {
        let x = explorer();
        let q = "scenario=rally&set=class%3Dregular&name=Regulars&a.set=class%3Dgreen&a.name=Green&c.set=class%3Dveteran&c.name=Veterans&base=C&trials=20000";
        let r = x.handle("POST", "/api/run", format!("{q}&mode=exact").as_bytes());
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = body(&r);
        let variants = v["variants"].as_array().unwrap();
        let labels: Vec<&str> = variants
            .iter()
            .map(|x| x["label"].as_str().unwrap())
            .collect();
        assert_eq!(labels, vec!["C", "A", "B"]);
        assert_eq!(variants[0]["title"], "C (Veterans)");
        // Each profile's exact answer is that setting's alone.
        let exact_of = |class: &str| {
            let r = x.handle(
                "POST",
                "/api/run",
                format!("scenario=rally&set=class%3D{class}&mode=exact").as_bytes(),
            );
            body(&r)["variants"][0]["report"]["outcomes"][0]["exact"]
                .as_f64()
                .unwrap()
        };
        let (vet, green, regular) = (exact_of("veteran"), exact_of("green"), exact_of("regular"));
        let got: Vec<f64> = variants
            .iter()
            .map(|x| x["report"]["outcomes"][0]["exact"].as_f64().unwrap())
            .collect();
        assert_eq!(got, vec![vet, green, regular]);
        let c = v["comparisons"].as_array().unwrap();
        let rec: Vec<&Value> = c.iter().filter(|c| c["name"] == "recovered").collect();
        assert_eq!(rec.len(), 2);
        assert_eq!(rec[0]["variant"], "A (Green)");
        assert_eq!(rec[0]["baseline"], "C (Veterans)");
        assert_eq!(rec[0]["exact_difference"].as_f64().unwrap(), green - vet);
        assert_eq!(rec[1]["exact_difference"].as_f64().unwrap(), regular - vet);
        let cmds = v["commands"].as_array().unwrap();
        assert_eq!(cmds.len(), 3);
        assert_eq!(cmds[1]["name"], "Regulars");
        assert!(cmds[0]["command"].as_str().unwrap().contains("class=green"));
        // Each profile's command draws from its run's stream (the base C first: run 0), so it
        // gives that profile's estimates to the bit.
        let stream_of = |i: usize| {
            let c = cmds[i]["command"].as_str().unwrap();
            c.split(" --stream ").nth(1).map(str::to_string)
        };
        assert_eq!(
            (stream_of(0), stream_of(1), stream_of(2)),
            (Some("1".into()), Some("2".into()), None)
        );
        let text = v["experiment"].as_str().unwrap();
        let exp = Experiment::parse("explorer.toml", text).unwrap();
        let names: Vec<&str> = exp.variants.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names, vec!["C (Veterans)", "A (Green)", "B (Regulars)"]);
        assert!(text.contains("How do A and B differ from C?"), "{text}");

        // By Monte Carlo: both profiles against the base, Holm across every row.
        let r = x.handle("POST", "/api/run", format!("{q}&mode=mc").as_bytes());
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = body(&r);
        let c = v["comparisons"].as_array().unwrap();
        for who in ["A (Green)", "B (Regulars)"] {
            let row = c
                .iter()
                .find(|c| c["name"] == "recovered" && c["variant"] == who)
                .unwrap();
            assert_eq!(row["baseline"], "C (Veterans)");
            assert!(row["exact_difference"].as_f64().is_some());
        }
        // Where the exact difference is known it decides; elsewhere Holm's p is no smaller.
        for c in c {
            match (c["p_value"].as_f64(), c["p_adjusted"].as_f64()) {
                (Some(p), Some(adj)) => assert!(adj >= p, "{c}"),
                _ => assert!(c["exact_difference"].is_f64(), "{c}"),
            }
        }

        // Solve for: the other profiles meet a profile's value, named by its letter.
        let r = x.handle(
            "POST",
            "/api/run",
            format!("{q}&mode=exact&solve=base_green&target=c&range=2..6").as_bytes(),
        );
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = body(&r);
        let labels: Vec<&str> = v["balance"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["label"].as_str().unwrap())
            .collect();
        assert_eq!(labels, vec!["A", "B"]);
        let r = x.handle(
            "POST",
            "/api/run",
            format!("{q}&mode=exact&solve=base_green&target=D").as_bytes(),
        );
        assert_eq!(r.status, 400);
        assert!(
            body(&r)["error"]
                .as_str()
                .unwrap()
                .contains("one of A, B, C"),
            "{}",
            body(&r)
        );
        // Another profile's bad value says whose it is.
        let r = x.handle(
            "POST",
            "/api/run",
            b"scenario=rally&a.set=class%3Delite&c.set=class%3Dgreen&mode=exact",
        );
        assert_eq!(r.status, 400);
        let e = body(&r);
        assert!(
            e["error"].as_str().unwrap().starts_with("profile A: "),
            "{e}"
        );
        assert_eq!(e["field"], "a.set.class");
    }

    /// Edited files past the limit unload the least recently used one that no request uses
    /// (freed: no longer found), the limit over the server's life is kept, and answers are
    /// kept within their bytes.
    #[test]
    fn edits_are_kept_by_least_recent_use_and_answers_by_bytes() {
        let path = "mechanics/examples/first-rally.rhai";
        let text = std::fs::read_to_string(path).unwrap();
        let x = Explorer::new(
            vec![(path.into(), text.clone())],
            Limits {
                max_edits: 2,
                max_edits_ever: 5,
                cache_bytes: 40_000,
                ..Limits::default()
            },
        );
        let setting = |i: usize| Setting {
            system: path.into(),
            code: Some(format!("// least recently used, edit {i}\n{text}")),
            ..Setting::default()
        };
        let loaded = |name: &str| system::find(name).is_ok();
        let (e0, h0) = x.system_of(&setting(0), "").map_err(|f| f.message).unwrap();
        let (e1, h1) = x.system_of(&setting(1), "").map_err(|f| f.message).unwrap();
        assert!(loaded(&e0) && loaded(&e1));
        // Both in use: no room for a third.
        let busy = x.system_of(&setting(2), "").err().unwrap();
        assert_eq!(busy.status, 503, "{}", busy.message);
        drop(h0);
        drop(h1);
        // Edit 0 used again, so edit 1 is the least recently used: it goes for edit 2.
        drop(x.system_of(&setting(0), "").map_err(|f| f.message).unwrap());
        let (e2, h2) = x.system_of(&setting(2), "").map_err(|f| f.message).unwrap();
        drop(h2);
        assert!(loaded(&e0) && loaded(&e2));
        assert!(!loaded(&e1), "the least recently used edit was unloaded");
        // Edit 1 again loads anew; then the limit over the server's life (5 taken) refuses.
        drop(x.system_of(&setting(1), "").map_err(|f| f.message).unwrap());
        drop(x.system_of(&setting(3), "").map_err(|f| f.message).unwrap());
        let over = x.system_of(&setting(4), "").err().unwrap();
        assert!(over.message.contains("restart"), "{}", over.message);
        // Answers within their bytes: one over a quarter of them is not kept; the rest are,
        // until the bytes would pass the limit.
        x.keep("big".into(), &[0; 10_001]);
        assert!(x.cached("big").is_none());
        for i in 0..5 {
            x.keep(format!("k{i}"), &[0; 9_000]);
        }
        let kept = (0..5)
            .filter(|i| x.cached(&format!("k{i}")).is_some())
            .count();
        assert!((1..5).contains(&kept), "{kept}");
        assert!(x.cache.lock().unwrap().bytes <= 40_000);
    }

    #[test]
    fn the_blank_template_runs_with_exact_fractions() {
        let path = "mechanics/examples/first-rally.rhai";
        let text = std::fs::read_to_string(path).unwrap();
        let x = Explorer::new(vec![(path.into(), text)], Limits::default());
        let q = format!(
            "system={}&scenario=rally&code={}&mode=exact",
            view::encode(path),
            view::encode(BLANK)
        );
        let r = x.handle("POST", "/api/run", q.as_bytes());
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = body(&r);
        let passed = &v["variants"][0]["report"]["outcomes"][0];
        assert_eq!(passed["outcome"], "passed", "{v}");
        // Six turns of a 4+ on a D6: all but (1/2)^6 pass.
        assert_eq!(passed["exact"], 63.0 / 64.0);
        assert_eq!(v["variants"][0]["fractions"]["passed"], "63/64");
        assert_eq!(v["variants"][0]["fractions"]["turns_to_pass"], "40/21");
        assert!(
            passed.get("fraction").is_none(),
            "the report stays the command line's"
        );
        // The page holds it as a JSON string that no `</` in it could end early.
        let page = x.handle("GET", "/", b"");
        let page = String::from_utf8(page.body).unwrap();
        assert!(!page.contains("{{BLANK}}"));
        let start = page.find("id=\"blank\">").unwrap() + "id=\"blank\">".len();
        let json = &page[start..start + page[start..].find("</script>").unwrap()];
        assert_eq!(serde_json::from_str::<String>(json).unwrap(), BLANK);
    }

    /// A file changed on disk runs as it now stands (the numbers of the new text, under the
    /// file's own name, never the server's), answers kept for the old text are dropped, the
    /// list of systems carries the new text and the count of changes; put back, the old
    /// numbers return; a change that does not load is shown at its line.
    #[test]
    fn a_file_changed_on_disk_runs_as_it_now_stands() {
        let path = "mechanics/examples/first-rally.rhai";
        let text = std::fs::read_to_string(path).unwrap();
        let x = Explorer::new(vec![(path.into(), text.clone())], Limits::default());
        let q = format!("system={}&scenario=rally&mode=exact", view::encode(path));
        let exact = |x: &Explorer| {
            let r = x.handle("POST", "/api/run", q.as_bytes());
            assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
            let v = body(&r);
            (
                v["variants"][0]["report"]["outcomes"][0]["exact"]
                    .as_f64()
                    .unwrap(),
                v,
            )
        };
        let (before, v) = exact(&x);
        assert_eq!(v["files_version"], 0);
        let harder = text.replacen("value: 4,", "value: 5,", 1);
        assert_ne!(harder, text);
        assert!(!x.file_changed("mechanics/other.rhai", harder.clone()));
        assert!(x.file_changed(path, harder.clone()));
        assert!(!x.file_changed(path, harder.clone()), "the same text twice");
        let (after, v) = exact(&x);
        assert!(after < before, "{after} {before}");
        assert_eq!(v["files_version"], 1);
        let text_of = v.to_string();
        assert!(
            !text_of.contains(".disk-") && !text_of.contains("-edited"),
            "{v}"
        );
        assert_eq!(v["variants"][0]["report"]["system"], path);
        // The same as the new text sent as an edit.
        let q2 = format!(
            "system={}&scenario=rally&mode=exact&code={}",
            view::encode(path),
            view::encode(&harder)
        );
        let r = x.handle("POST", "/api/run", q2.as_bytes());
        assert_eq!(
            body(&r)["variants"][0]["report"]["outcomes"][0]["exact"].as_f64(),
            Some(after)
        );
        let (sys, file) = listed(&x, path);
        assert_eq!(file["text"], harder.as_str());
        assert_eq!(file["changed_on_disk"], true);
        assert_eq!(sys["files_version"], 1);
        // Put back: the first numbers again.
        assert!(x.file_changed(path, text.clone()));
        assert_eq!(exact(&x).0, before);
        // A change that does not load: at its line.
        let mut lines: Vec<&str> = text.lines().collect();
        lines.insert(2, "fn broken( {");
        assert!(x.file_changed(path, lines.join("\n")));
        let r = x.handle("POST", "/api/run", q.as_bytes());
        assert_eq!(r.status, 400);
        let v = body(&r);
        assert_eq!(
            (v["field"].as_str(), v["line"].as_u64()),
            (Some("code"), Some(3)),
            "{v}"
        );
        assert!(!v["error"].as_str().unwrap().contains(".disk-"), "{v}");
    }

    /// Issue 54: a file that extends a file changed on disk runs on the base's new text (the
    /// numbers of the new base, under its own name), its entry in the list names the base
    /// that changed, an edit of it runs on the new base too, and with the base put back the
    /// first numbers return.
    #[test]
    fn a_file_extending_one_changed_on_disk_runs_on_its_new_text() {
        let base = "mechanics/extends-on-disk/base.rhai";
        let child = "mechanics/extends-on-disk/child.rhai";
        let text = std::fs::read_to_string("mechanics/examples/first-rally.rhai").unwrap();
        let own = "fn about() {\n    #{ extends: \"base.rhai\", title: \"The first rally, extended\", rules: \"X-1\" }\n}\n";
        let x = Explorer::new(
            vec![(base.into(), text.clone()), (child.into(), own.into())],
            Limits::default(),
        );
        let exact = |x: &Explorer, system: &str, code: Option<&str>| {
            let mut q = format!("system={}&scenario=rally&mode=exact", view::encode(system));
            if let Some(c) = code {
                q += &format!("&code={}", view::encode(c));
            }
            let r = x.handle("POST", "/api/run", q.as_bytes());
            assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
            let v = body(&r);
            assert!(!v.to_string().contains(".disk-"), "{v}");
            v["variants"][0]["report"]["outcomes"][0]["exact"]
                .as_f64()
                .unwrap()
        };
        let before = exact(&x, child, None);
        assert_eq!(before, exact(&x, base, None));
        let edit = own.replace("extended", "extended and edited");
        assert_eq!(exact(&x, child, Some(&edit)), before);
        // The base now rallies on 5+: the child follows, as does an edit of it.
        let harder = text.replacen("value: 4,", "value: 5,", 1);
        assert!(x.file_changed(base, harder));
        let after = exact(&x, child, None);
        assert!(after < before, "{after} {before}");
        assert_eq!(after, exact(&x, base, None));
        assert_eq!(exact(&x, child, Some(&edit)), after);
        let (_, first) = listed(&x, child);
        assert_eq!(first["text"], own);
        assert_eq!(first["bases_changed"], json!([base]));
        assert_eq!(first["title"], "The first rally, extended");
        // Changed again: a new stamp, so an open page follows.
        let hardest = text.replacen("value: 4,", "value: 6,", 1);
        assert!(x.file_changed(base, hardest));
        let (_, later) = listed(&x, child);
        assert_ne!(later["stamp"], first["stamp"]);
        assert!(exact(&x, child, None) < after);
        // Put back: the first numbers, and the child listed as it was read at start.
        assert!(x.file_changed(base, text));
        assert_eq!(exact(&x, child, None), before);
        let (_, again) = listed(&x, child);
        assert!(again.get("bases_changed").is_none(), "{again}");
    }

    /// Issue 54: a file new in the folder is offered from then on; one that does not load is
    /// listed with why, and runs once it changes on disk to one that does.
    #[test]
    fn a_file_added_to_the_folder_is_offered() {
        let path = "mechanics/added-on-disk/new.rhai";
        let text = std::fs::read_to_string("mechanics/examples/first-rally.rhai").unwrap();
        let x = Explorer::new(Vec::new(), Limits::default());
        let q = format!("system={}&scenario=rally&mode=exact", view::encode(path));
        let r = x.handle("POST", "/api/run", q.as_bytes());
        assert_eq!(r.status, 400);
        let broken = text.replacen("fn about()", "fn about( {", 1);
        assert!(x.file_added(path, broken));
        assert!(!x.file_added(path, text.clone()), "added once");
        let (sys, entry) = listed(&x, path);
        assert_eq!(sys["files_version"], 1);
        assert!(entry["error"].is_string(), "{entry}");
        assert_eq!(x.handle("POST", "/api/run", q.as_bytes()).status, 400);
        // Fixed on disk: it runs, as the example does.
        assert!(x.file_changed(path, text));
        let r = x.handle("POST", "/api/run", q.as_bytes());
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let got = body(&r)["variants"][0]["report"]["outcomes"][0]["exact"].as_f64();
        assert_eq!(got, Some(7.0 / 8.0));
    }

    #[test]
    fn an_edited_mechanic_file_runs_or_says_its_line() {
        let path = "mechanics/examples/first-rally.rhai";
        let text = std::fs::read_to_string(path).unwrap();
        let x = Explorer::new(vec![(path.into(), text.clone())], Limits::default());
        assert!(x.broken().is_empty(), "{:?}", x.broken());
        let mut lines: Vec<&str> = text.lines().collect();
        lines.insert(4, "fn broken( {");
        let q = format!(
            "system={}&scenario=rally&code={}",
            view::encode(path),
            view::encode(&lines.join("\n"))
        );
        let r = x.handle("POST", "/api/describe", q.as_bytes());
        assert_eq!(r.status, 400);
        let v = body(&r);
        assert_eq!(v["field"], "code", "{v}");
        assert_eq!(v["line"], 5, "{v}");
        assert!(v["error"].as_str().unwrap().starts_with(path), "{v}");
        assert!(!v["error"].as_str().unwrap().contains(".edited-"), "{v}");
        // Run, the same text says the same, with the view's command lines beside the error (the
        // page's command box follows a link whose file does not load).
        let r = x.handle(
            "POST",
            "/api/run",
            format!("{q}&set=stands%3D8&mode=exact").as_bytes(),
        );
        assert_eq!(r.status, 400);
        let v = body(&r);
        assert_eq!(
            (&v["field"], &v["line"]),
            (&json!("code"), &json!(5)),
            "{v}"
        );
        assert_eq!(
            v["commands"][0]["command"],
            "morale-lab rally --system mechanics/examples/first-rally-edited.rhai --set stands=8 --trials 1000000 --seed 1",
            "{v}"
        );
        // A request that is not a view has none.
        let r = x.handle("POST", "/api/run?scenario=nowhere", b"");
        assert!(body(&r)["commands"].is_null());
        // A working edit (a comment added) runs as a system of its own at once.
        let edited = format!("// edited\n{text}");
        let q = format!(
            "system={}&scenario=rally&code={}&mode=exact",
            view::encode(path),
            view::encode(&edited)
        );
        let r = x.handle("POST", "/api/run", q.as_bytes());
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = body(&r);
        assert!(v["variants"][0]["report"]["outcomes"][0]["exact"].is_f64());
        // Its notes and command name it as the page saves it, never by the server's name.
        let text = v.to_string();
        assert!(!text.contains(".edited-"), "{text}");
        assert!(
            v["commands"][0]["command"].as_str().unwrap().starts_with(
                "morale-lab rally --system mechanics/examples/first-rally-edited.rhai "
            ),
            "{v}"
        );
        assert_eq!(
            as_saved("a/b.edited-0123456789ab.rhai:3: x"),
            "a/b-edited.rhai:3: x"
        );
        // A file the server does not offer is not read.
        let r = x.handle(
            "POST",
            "/api/run?system=..%2FCargo.rhai&scenario=rally&code=x",
            b"",
        );
        assert_eq!(body(&r)["field"], "system");
        assert_eq!(
            unedited("a/b.edited-0123456789ab.rhai:3: x"),
            "a/b.rhai:3: x"
        );
        assert_eq!(script_line("a/b.rhai:12:4: does not compile"), Some(12));
    }

    #[test]
    fn an_engagement_is_exact_and_a_line_says_it_is_not() {
        let x = explorer();
        let v = body(&x.handle(
            "POST",
            "/api/run?system=linear-warfare&scenario=engagement&mode=exact",
            b"",
        ));
        assert_eq!(v["has_exact"], true, "{v}");
        let v = body(&x.handle(
            "POST",
            "/api/run?system=linear-warfare&scenario=line&mode=exact",
            b"",
        ));
        assert_eq!(v["has_exact"], false, "{v}");
        let r = x.handle(
            "POST",
            "/api/run?system=linear-warfare&scenario=line&mode=mc&trials=2000",
            b"",
        );
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    }
}
