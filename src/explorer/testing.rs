//! What the explorer's tests share: a server with the built-in systems alone, an answer's
//! JSON, and a file's entry in the list of systems.

use serde_json::Value;

use super::{Explorer, Limits, Response};

pub(super) fn explorer() -> Explorer {
    Explorer::new(Vec::new(), Limits::default())
}

pub(super) fn body(r: &Response) -> Value {
    serde_json::from_slice(&r.body).expect("JSON")
}

/// The list of systems (`/api/systems`), and the entry of the file at `path` in it.
pub(super) fn listed(x: &Explorer, path: &str) -> (Value, Value) {
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
