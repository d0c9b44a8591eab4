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

mod cache;
mod compute;
mod edits;
mod files;
mod gate;
mod lanes;
mod plain;
mod play;
mod publish;
mod response;
mod run;
pub mod sweep;
mod systems;
#[cfg(test)]
mod testing;
pub mod view;
mod written;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, RwLock};

use serde_json::{Value, json};

use crate::engine::Control;
use crate::error::Result;
use cache::Cache;
use edits::Edits;
use files::{Disk, read_from};
use lanes::Lane;
use response::JSON;
use view::View;
use written::commands;

pub use gate::{Gate, Head, TOKEN_HEADER};
pub use response::Response;

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
            "/api/play" if post => match self.play(&pairs) {
                Ok(v) => Response::json(200, &v),
                Err(f) => f.response(),
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
            | "/api/publish" | "/api/play" | "/api/progress" | "/api/cancel" => Response::error(
                405,
                &format!(
                    "{method} is not allowed on {path}: {}",
                    match path {
                        "/api/describe" | "/api/run" | "/api/publish" | "/api/play"
                        | "/api/cancel" => "POST it",
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
}

/// The value of the last `key` in `pairs`.
fn value<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use testing::*;

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
}
