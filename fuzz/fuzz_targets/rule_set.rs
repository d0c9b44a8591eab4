//! Fuzz rule-set files and their chains of `base` files: the input is up to nine files
//! separated by lines of `----`; the first is `sets/f0.toml`, the others `sets/f1.toml` … and
//! a `base = "fK.toml"` reads file K. Whatever they say, a rule set parses or is refused with a
//! `file:line: key: message` error naming one of the files (loops and chains deeper than the
//! limit included), never a panic; a rule set that parses builds its system's `test` scenario
//! with its rules and options, whose exact report comes out or refuses its input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use morale_lab::engine::Control;
use morale_lab::ruleset::RuleSet;
use morale_lab::{Error, RunOptions, Scenario, system};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let files: Vec<(String, String)> = text
        .split("\n----\n")
        .take(9)
        .enumerate()
        .map(|(i, t)| (format!("sets/f{i}.toml"), t.to_string()))
        .collect();
    let mut read = |name: &str| {
        files
            .iter()
            .find(|(f, _)| f == name)
            .map(|(_, t)| t.clone())
            .ok_or_else(|| Error::Conflict(format!("cannot read {name}: no such file")))
    };
    match RuleSet::parse(&files[0].0, &files[0].1, &mut read) {
        Ok(set) => {
            assert!(!set.files.is_empty() && set.files.len() <= morale_lab::ruleset::MAX_DEPTH);
            let Ok(job) = system::build(&set.system, Scenario::Test, &set.inputs(), &set.options) else {
                return;
            };
            let mut opts = RunOptions::new(1, 1).threads(Some(1));
            opts.exact_only = true;
            if let Err(e) = job.run(&opts, &Control::new()) {
                assert!(e.is_bad_input(), "a built rule set fails to run: {e}");
            }
        }
        Err(Error::File { path, line, .. }) => {
            let named = files.iter().find(|(f, _)| *f == path);
            let (_, source) = named.unwrap_or_else(|| panic!("the error names {path}, no file"));
            assert!(
                line >= 1 && line <= source.lines().count().max(1) + 1,
                "{path}: line {line}"
            );
        }
        Err(other) => panic!("a rule-set error that does not name the file: {other}"),
    }
});
