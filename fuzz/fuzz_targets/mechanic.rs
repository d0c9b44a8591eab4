//! Fuzz mechanic files: the input is up to four files separated by lines of `----`; the first
//! is `m/f0.rhai`, the others `m/f1.rhai` … (an `extends: "f1.rhai"` reads file 1). Whatever
//! they say, a file loads or is refused with an error, never a panic or a hang (the sandbox's
//! operation limit ends every call); a file that loads builds each of its scenarios with its
//! defaults, whose exact solution (within a small budget) comes out or refuses its input; and
//! nothing of it leaks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use morale_lab::engine::Control;
use morale_lab::{Error, RunOptions, mechanic};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let files: Vec<(String, String)> = text
        .split("\n----\n")
        .take(4)
        .enumerate()
        .map(|(i, t)| (format!("m/f{i}.rhai"), t.to_string()))
        .collect();
    let mut read = |name: &str| {
        files
            .iter()
            .find(|(f, _)| f == name)
            .map(|(_, t)| t.clone())
            .ok_or_else(|| Error::Conflict(format!("cannot read {name}: no such file")))
    };
    let Ok(sys) = mechanic::load_unregistered(&files[0].0, &files[0].1, &mut read) else {
        return;
    };
    for scenario in sys.scenarios() {
        let Ok(job) = morale_lab::system::build_system(sys, *scenario, &[], &[]) else {
            continue;
        };
        let opts = RunOptions::new(64, 1)
            .threads(Some(1))
            .exact_budget(Some(0.5));
        if let Err(e) = job.run(&opts, &Control::new()) {
            assert!(e.is_bad_input(), "a mechanic that loads fails to run: {e}");
        }
    }
    // Done with it: free what runs it (what stays — its path, hash and declared tables — is
    // kept once per distinct file and reachable, so the leak checker stays on).
    mechanic::release(sys);
});
