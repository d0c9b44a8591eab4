//! Fuzz the experiment-file loader: any text either parses into an experiment whose
//! every variant builds, or is refused with a `file:line: key: message` error — never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use morale_lab::Error;
use morale_lab::experiment::Experiment;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Experiment::parse("fuzz.toml", text) {
        Ok(e) => {
            // A loaded experiment has what a run needs.
            assert!(!e.variants.is_empty());
            assert!(e.trials >= 1);
        }
        Err(Error::File { path, line, .. }) => {
            assert_eq!(path, "fuzz.toml");
            // The line is one of the file's lines (an empty file has line 1).
            assert!(
                line >= 1 && line <= text.lines().count().max(1) + 1,
                "line {line}"
            );
        }
        Err(other) => panic!("a loader error that does not name the file: {other}"),
    }
});
