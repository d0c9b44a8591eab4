//! Rule sets: a designer's variant of a rule system, named and shared as a TOML file.
//!
//! ```toml
//! name = "green-needs-six"
//! description = "Green units test on 6: how much worse are they?"
//! base = "rank-and-file"          # a system, or another rule-set file (relative to this one)
//! options = ["keep-broken-units"]
//!
//! [rules]
//! base_green = 6
//! ```
//!
//! A rule set built on another file takes that file's rules and options, then its own (its own
//! values win). The library reads no files: the caller hands over a reader for `base` files,
//! and every file read is recorded in [`RuleSet::files`] so a run can be repeated from them.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::error::{Error, Result};
use crate::params::{self, Input};
use crate::system;

/// The deepest chain of `base` files a rule set may stand on.
pub const MAX_DEPTH: usize = 8;

/// A checked rule set: the system it changes, its rule parameters and its optional rules.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleSet {
    /// Its name.
    pub name: String,
    /// What it is for.
    pub description: String,
    /// The rule system it is built on (through any `base` files).
    pub system: String,
    /// Rule parameters it sets, base files' first, as typed (key, value).
    pub rules: Vec<(String, String)>,
    /// Optional rules it switches on, base files' first.
    pub options: Vec<String>,
    /// Every file read, this one first, with its text.
    pub files: Vec<(String, String)>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleSetFile {
    name: Spanned<String>,
    #[serde(default)]
    description: String,
    base: Spanned<String>,
    #[serde(default)]
    options: Vec<Spanned<String>>,
    #[serde(default)]
    rules: BTreeMap<String, Spanned<toml::Value>>,
}

fn line_of(source: &str, offset: usize) -> usize {
    source[..offset.min(source.len())].matches('\n').count() + 1
}

pub use crate::paths::relative_to;

impl RuleSet {
    /// The rule set in `source`, the text of the file `path`; `read` gives the text of a `base`
    /// file (its path already made relative to the file that names it).
    ///
    /// # Errors
    /// [`Error::File`] naming the file, line and key: a file that does not parse, an unknown
    /// system, a rule parameter the system does not have or a value it does not allow, an
    /// unknown optional rule, a chain of `base` files that loops or is deeper than
    /// [`MAX_DEPTH`].
    pub fn parse(
        path: &str,
        source: &str,
        read: &mut dyn FnMut(&str) -> Result<String>,
    ) -> Result<RuleSet> {
        Self::parse_at(path, source, read, &mut Vec::new())
    }

    fn parse_at(
        path: &str,
        source: &str,
        read: &mut dyn FnMut(&str) -> Result<String>,
        chain: &mut Vec<String>,
    ) -> Result<RuleSet> {
        let file_err = |line: usize, key: &str, message: String| Error::File {
            path: path.to_string(),
            line,
            key: key.to_string(),
            message,
        };
        let f: RuleSetFile = toml::from_str(source).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start);
            file_err(line_of(source, at), "", e.message().trim().to_string())
        })?;
        let name = f.name.get_ref().trim().to_string();
        if name.is_empty() {
            return Err(file_err(
                line_of(source, f.name.span().start),
                "name",
                "a rule set needs a name".into(),
            ));
        }
        chain.push(path.to_string());
        let base = f.base.get_ref().trim();
        let base_line = line_of(source, f.base.span().start);
        let mut set = if base.ends_with(".toml") {
            let file = relative_to(path, base);
            if chain.contains(&file) {
                return Err(file_err(
                    base_line,
                    "base",
                    format!("the base files loop: {} → {file}", chain.join(" → ")),
                ));
            }
            if chain.len() >= MAX_DEPTH {
                return Err(file_err(
                    base_line,
                    "base",
                    format!("rule sets may stand on at most {MAX_DEPTH} files in a chain"),
                ));
            }
            let text = read(&file).map_err(|e| file_err(base_line, "base", e.to_string()))?;
            Self::parse_at(&file, &text, read, chain)?
        } else {
            // A system: built in, or a mechanic file relative to this one (its system goes by
            // its path, and the set records the file's text).
            let (sys, files) = if crate::paths::is_mechanic(base) {
                let file = relative_to(path, base);
                let sys = crate::mechanic::load_with(&file, read)
                    .map_err(|e| file_err(base_line, "base", e.to_string()))?;
                (
                    sys,
                    crate::mechanic::files_of(sys.name()).unwrap_or_default(),
                )
            } else {
                let sys = system::find(base).map_err(|e| {
                    file_err(
                        base_line,
                        "base",
                        format!(
                            "{e}, a rule-set file ending in .toml, or a mechanic file ending in .rhai"
                        ),
                    )
                })?;
                (sys, Vec::new())
            };
            RuleSet {
                name: String::new(),
                description: String::new(),
                system: sys.name().to_string(),
                rules: Vec::new(),
                options: Vec::new(),
                files,
            }
        };
        let sys = system::find(&set.system)?;
        for (key, value) in &f.rules {
            let line = line_of(source, value.span().start);
            let text = match value.get_ref() {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Float(x) => x.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                _ => {
                    return Err(file_err(
                        line,
                        &format!("rules.{key}"),
                        "a value must be a number, true/false or text".into(),
                    ));
                }
            };
            // Checked now, against the system's rule parameters, so a bad file says where.
            let input = Input::rule(key, text.clone());
            params::resolve(
                &system::all_params(sys),
                sys.rule_params(),
                sys.name(),
                sys.scenarios()[0],
                std::slice::from_ref(&input),
                &[],
            )
            .map_err(|e| file_err(line, &format!("rules.{key}"), e.to_string()))?;
            set.rules.retain(|(k, _)| k != key);
            set.rules.push((key.clone(), text));
        }
        for o in &f.options {
            params::check_options(sys.options(), sys.name(), std::slice::from_ref(o.get_ref()))
                .map_err(|e| file_err(line_of(source, o.span().start), "options", e.to_string()))?;
            if !set.options.contains(o.get_ref()) {
                set.options.push(o.get_ref().clone());
            }
        }
        set.name = name;
        set.description = f.description.trim().to_string();
        set.files.insert(0, (path.to_string(), source.to_string()));
        Ok(set)
    }

    /// The rule parameters as inputs (`--rule` values), ahead of any the command line gives.
    pub fn inputs(&self) -> Vec<Input> {
        self.rules.iter().map(|(k, v)| Input::rule(k, v)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(name: &str) -> Result<String> {
        match name {
            "sets/base.toml" => Ok("name = \"base\"\nbase = \"rank-and-file\"\noptions = [\"keep-broken-units\"]\n[rules]\nbase_green = 6\nrally_loss = 2\n".into()),
            "sets/loop.toml" => Ok("name = \"loop\"\nbase = \"child.toml\"\n".into()),
            other => Err(Error::Conflict(format!("cannot read {other}: no such file"))),
        }
    }

    #[test]
    fn a_rule_set_stands_on_its_base_and_its_own_values_win() {
        let src = "name = \"child\"\nbase = \"base.toml\"\n[rules]\nbase_green = 4\n";
        let set = RuleSet::parse("sets/child.toml", src, &mut files).unwrap();
        assert_eq!(set.system, "rank-and-file");
        assert_eq!(
            set.rules,
            vec![
                ("rally_loss".to_string(), "2".to_string()),
                ("base_green".to_string(), "4".to_string())
            ]
        );
        assert_eq!(set.options, vec!["keep-broken-units".to_string()]);
        assert_eq!(set.files.len(), 2);
    }

    #[test]
    fn bad_rule_sets_say_where() {
        let mut read = files;
        let err = |src: &str, read: &mut dyn FnMut(&str) -> Result<String>| {
            RuleSet::parse("sets/child.toml", src, read)
                .unwrap_err()
                .to_string()
        };
        let e = err(
            "name = \"x\"\nbase = \"rank-and-file\"\n[rules]\nbase_green = 9\n",
            &mut read,
        );
        assert!(e.starts_with("sets/child.toml:4: rules.base_green:"), "{e}");
        assert!(e.contains("from 1 to 8"), "{e}");
        let e = err(
            "name = \"x\"\nbase = \"rank-and-file\"\n[rules]\nstands = 9\n",
            &mut read,
        );
        assert!(e.contains("--set stands"), "{e}");
        let e = err("name = \"x\"\nbase = \"chess\"\n", &mut read);
        assert!(e.starts_with("sets/child.toml:2: base:"), "{e}");
        let e = err("name = \"x\"\nbase = \"missing.toml\"\n", &mut read);
        assert!(e.contains("no such file"), "{e}");
        let e = err(
            "name = \"x\"\nbase = \"rank-and-file\"\noptions = [\"fly\"]\n",
            &mut read,
        );
        assert!(e.starts_with("sets/child.toml:3: options:"), "{e}");
        let e = err(
            "name = \"x\"\nbase = \"rank-and-file\"\ncolour = 1\n",
            &mut read,
        );
        assert!(e.contains("colour"), "{e}");
    }

    /// A reader over an in-memory folder of rule-set files.
    fn folder(files: Vec<(String, String)>) -> impl FnMut(&str) -> Result<String> {
        move |name: &str| {
            files
                .iter()
                .find(|(f, _)| f == name)
                .map(|(_, t)| t.clone())
                .ok_or_else(|| Error::Conflict(format!("cannot read {name}: no such file")))
        }
    }

    /// A chain of `base` files that comes back to a file already in it is refused, naming the
    /// chain. The reader can read every file of the loop, so without the loop check the chain
    /// would run on to the depth limit and say so instead (mutation tried: the `chain.contains`
    /// check removed makes this test fail with "at most 8 files"). No file of the loop is
    /// called "loop", so the message's words are the check's, not a file name's.
    #[test]
    fn a_loop_of_base_files_is_refused_naming_the_chain() {
        let mut read = folder(vec![
            (
                "sets/a.toml".into(),
                "name = \"a\"\nbase = \"b.toml\"\n".into(),
            ),
            (
                "sets/b.toml".into(),
                "name = \"b\"\nbase = \"a.toml\"\n".into(),
            ),
        ]);
        let src = "name = \"a\"\nbase = \"b.toml\"\n";
        let e = RuleSet::parse("sets/a.toml", src, &mut read)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "sets/b.toml:2: base: the base files loop: sets/a.toml → sets/b.toml → sets/a.toml"
        );
        // A file that names itself is the shortest loop.
        let own = "name = \"own\"\nbase = \"own.toml\"\n";
        let mut read = folder(vec![("sets/own.toml".into(), own.into())]);
        let e = RuleSet::parse("sets/own.toml", own, &mut read)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("the base files loop: sets/own.toml → sets/own.toml"),
            "{e}"
        );
    }

    /// A chain of `MAX_DEPTH` files stands; one more file is refused, naming the limit
    /// (mutations tried: the depth check removed, and `>=` made `>`: each makes this test fail).
    #[test]
    fn the_depth_limit_is_max_depth_files() {
        // f1 stands on f2 … on f{n}, which stands on rank-and-file and sets base_green = 6;
        // each file above sets rally_loss to its own depth, so the top file's value wins.
        let chain = |n: usize| {
            let mut files = Vec::new();
            for i in 1..=n {
                let base = if i == n {
                    "rank-and-file".to_string()
                } else {
                    format!("f{}.toml", i + 1)
                };
                let rules = if i == n {
                    "base_green = 6".to_string()
                } else {
                    format!("rally_loss = {}", (i % 3) + 1)
                };
                files.push((
                    format!("sets/f{i}.toml"),
                    format!("name = \"f{i}\"\nbase = \"{base}\"\n[rules]\n{rules}\n"),
                ));
            }
            files
        };
        let files = chain(MAX_DEPTH);
        let top = files[0].1.clone();
        let set = RuleSet::parse("sets/f1.toml", &top, &mut folder(files)).unwrap();
        assert_eq!(set.files.len(), MAX_DEPTH);
        assert_eq!(set.system, "rank-and-file");
        assert_eq!(
            set.rules,
            vec![
                ("base_green".to_string(), "6".to_string()),
                ("rally_loss".to_string(), "2".to_string())
            ]
        );
        let files = chain(MAX_DEPTH + 1);
        let top = files[0].1.clone();
        let e = RuleSet::parse("sets/f1.toml", &top, &mut folder(files))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "sets/f{MAX_DEPTH}.toml:2: base: rule sets may stand on at most {MAX_DEPTH} files in a chain"
            )
        );
    }
}
