//! The explorer's edits: the edited mechanic files it keeps loaded (at most
//! [`Limits::max_edits`](super::Limits::max_edits), the least recently used one no request
//! holds unloaded first), and the registry's name of a setting's system, an edit loaded once
//! per text and held while a request uses it.

use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::system;

use super::Explorer;
use super::files::{Edit, short_hash};
use super::response::{Failure, line_in};
use super::view::Setting;

/// The edited mechanic files kept loaded, by their path (`dir/name.edited-HASH.rhai`).
#[derive(Default)]
pub(super) struct Edits {
    pub(super) kept: BTreeMap<String, Edit>,
    /// A clock of uses, for the least recently used.
    tick: u64,
    /// Loads under way (outside the lock), counted against the limit.
    loading: usize,
    /// Edits taken over the life of the server.
    taken: usize,
}

/// A request's use of an edited file (none for a built-in system or an offered file): while it
/// lives, the file is not unloaded.
pub(super) struct Hold<'a> {
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

impl Explorer {
    /// The registry's name of a setting's system: a built-in system, a mechanic file the
    /// server offers, or an edited text of one (loaded once per text, outside any lock, and
    /// kept loaded while the [`Hold`] lives).
    pub(super) fn system_of(
        &self,
        s: &Setting,
        prefix: &str,
    ) -> std::result::Result<(String, Hold<'_>), Failure> {
        if !crate::mechanic::is_file(&s.system) {
            return self.built_in(s, prefix);
        }
        let path = crate::paths::normalize(&s.system);
        let Some(start) = self.start_text(&path) else {
            return Err(self.unknown_system(s, prefix));
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
            return self.as_loaded(path, prefix);
        };
        if *code == start && from_disk.is_none() {
            return Ok(self.free(path));
        }
        self.edit(&path, code, infix, prefix)
    }

    /// A system's name with no edit held.
    fn free(&self, name: String) -> (String, Hold<'_>) {
        (
            name,
            Hold {
                edits: &self.edited,
                path: None,
            },
        )
    }

    /// The failure of a system that is neither built in nor offered: the names allowed.
    fn unknown_system(&self, s: &Setting, prefix: &str) -> Failure {
        // In the page's words: the System list holds the names (a phone trial met the raw
        // flag message with eleven file paths after it, from a mistyped link).
        let built: Vec<String> = system::systems()
            .iter()
            .map(|x| x.name().to_string())
            .collect();
        let files = self.offered().len();
        Failure {
            status: 400,
            message: format!(
                "No rule system called \u{201c}{}\u{201d} is offered here: pick one from the System list ({}{}).",
                s.system,
                crate::labels::listed(&built.iter().map(String::as_str).collect::<Vec<_>>()),
                match files {
                    0 => String::new(),
                    1 => ", or the mechanic file the server watches".to_string(),
                    n => format!(", or one of the {n} mechanic files the server watches"),
                }
            ),
            field: Some(format!("{prefix}system")),
            line: None,
        }
    }

    /// A built-in system's name (it takes no code).
    fn built_in(
        &self,
        s: &Setting,
        prefix: &str,
    ) -> std::result::Result<(String, Hold<'_>), Failure> {
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
        system::find(&s.system)
            .map(|x| self.free(x.name().to_string()))
            .map_err(|_| self.unknown_system(s, prefix))
    }

    /// An offered file as it loaded at start: its path, or why it did not load, at its line.
    fn as_loaded(
        &self,
        path: String,
        prefix: &str,
    ) -> std::result::Result<(String, Hold<'_>), Failure> {
        let broken = self.broken.read().unwrap_or_else(|e| e.into_inner());
        if let Some(why) = broken.get(&path) {
            return Err(Failure {
                status: 400,
                message: why.clone(),
                field: Some(format!("{prefix}code")),
                line: line_in(why),
            });
        }
        Ok(self.free(path))
    }

    /// An edited text `code` of the offered file at `path` (or its text now on disk: `infix`
    /// `disk`), under the server's name for it, `dir/name.{infix}-HASH.rhai`: kept if it is,
    /// else loaded, and held.
    fn edit(
        &self,
        path: &str,
        code: &str,
        infix: &str,
        prefix: &str,
    ) -> std::result::Result<(String, Hold<'_>), Failure> {
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
            .unwrap_or(path);
        let edited_path = format!("{stem}.{infix}-{hash}{}", crate::mechanic::EXTENSION);
        let held = || Hold {
            edits: &self.edited,
            path: Some(edited_path.clone()),
        };
        if self.kept_or_room(&edited_path)? {
            return Ok((edited_path.clone(), held()));
        }
        self.load_edit(&edited_path, code, prefix)?;
        Ok((edited_path.clone(), held()))
    }

    /// Whether the edit at `edited_path` is kept (then held by one more request); if not, room
    /// made for it, the least recently used edits that no request uses unloaded, and its load
    /// counted as under way.
    fn kept_or_room(&self, edited_path: &str) -> std::result::Result<bool, Failure> {
        let mut e = self.edited.lock().unwrap_or_else(|e| e.into_inner());
        e.tick += 1;
        let tick = e.tick;
        if let Some(edit) = e.kept.get_mut(edited_path) {
            edit.used = tick;
            edit.holds += 1;
            return Ok(true);
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
        Ok(false)
    }

    /// Load the edit at `edited_path` (room made for it) and keep it, held by this request.
    fn load_edit(
        &self,
        edited_path: &str,
        code: &str,
        prefix: &str,
    ) -> std::result::Result<(), Failure> {
        // Loaded outside the lock: other requests go on meanwhile. An edit extends only the
        // files the server offers, as they now stand on disk.
        let mut read = |p: &str| self.read_now(p, None);
        let loaded = crate::mechanic::load(edited_path, code, &mut read);
        let mut e = self.edited.lock().unwrap_or_else(|e| e.into_inner());
        e.loading -= 1;
        // Shown by the path the page knows, not the server's name for the edit.
        loaded.map_err(|err| {
            let mut f = Failure::of(&err, prefix);
            f.field = Some(format!("{prefix}code"));
            f
        })?;
        let used = e.tick;
        let edit = e.kept.entry(edited_path.to_string()).or_insert(Edit {
            text: code.to_string(),
            used,
            holds: 0,
        });
        edit.holds += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explorer::Limits;
    use crate::explorer::response::{as_saved, script_line, unedited};
    use crate::explorer::testing::*;
    use crate::explorer::view;
    use serde_json::json;

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
}
