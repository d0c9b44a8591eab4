//! The explorer's files: the mechanic files it offers, as read at start, added to the folder
//! since, or changed on disk (the text runs use now, the count of changes the page follows),
//! and the ones that did not load, with why.

use std::collections::BTreeMap;

use crate::error::{Error, Result};

use super::Explorer;
use super::cache::Cache;

/// Mechanic files changed on disk since the server started.
#[derive(Default)]
pub(super) struct Disk {
    /// Their text now, by normalised path.
    now: BTreeMap<String, String>,
    /// Changes so far.
    version: u64,
}

/// A mechanic file's text from the files read at start or the edited ones taken.
pub(super) fn read_from(
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

/// One edited file kept loaded.
pub(super) struct Edit {
    pub(super) text: String,
    /// When it was last used (on the [`Edits`](super::edits::Edits) clock).
    pub(super) used: u64,
    /// Requests using it now: it is not unloaded while any is.
    pub(super) holds: usize,
}

pub(super) fn short_hash(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Explorer {
    /// The mechanic files that did not load, with why (the binary says so at start).
    pub fn broken(&self) -> BTreeMap<String, String> {
        self.broken
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The text of an offered file as read at start (or when it was added).
    pub(super) fn start_text(&self, path: &str) -> Option<String> {
        let files = self.files.read().unwrap_or_else(|e| e.into_inner());
        files.get(path).cloned()
    }

    /// Every offered file's path and text as read at start (or when added).
    pub(super) fn offered(&self) -> Vec<(String, String)> {
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
    pub(super) fn files_version(&self) -> u64 {
        self.disk.lock().unwrap_or_else(|e| e.into_inner()).version
    }

    /// A file's text as it now stands on disk (as read at start unless it changed).
    pub(super) fn text_now(&self, path: &str) -> Option<String> {
        let disk = self.disk.lock().unwrap_or_else(|e| e.into_inner());
        match disk.now.get(path) {
            Some(t) => Some(t.clone()),
            None => self.start_text(path),
        }
    }

    /// A mechanic file's text as it now stands, for `extends` (and an experiment's systems):
    /// an offered file as on disk now, else an edited one taken.
    pub(super) fn read_now(
        &self,
        p: &str,
        edited: Option<&BTreeMap<String, Edit>>,
    ) -> Result<String> {
        match self.text_now(&crate::paths::normalize(p)) {
            Some(text) => Ok(text),
            None => read_from(&BTreeMap::new(), edited, p),
        }
    }

    /// The files an offered file extends (as it loaded at start) that changed on disk since.
    pub(super) fn bases_changed(&self, path: &str) -> Vec<String> {
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
    pub(super) fn disk_stamp(&self) -> String {
        let disk = self.disk.lock().unwrap_or_else(|e| e.into_inner());
        disk.now
            .iter()
            .map(|(p, t)| format!("\0{p}\0{t}"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explorer::Limits;
    use crate::explorer::testing::*;
    use crate::explorer::view;
    use serde_json::json;

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
}
