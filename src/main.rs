//! `morale-lab`: the thin binary. Parse the command line, run the library, print the result,
//! and map errors to exit codes: 2 for bad input, 1 for failures (a benchmark regression among
//! them), 3 when a benchmark comparison could not judge, 74 when an output could not be written
//! (a report, a chart, a shard, a page, standard output), 130 when interrupted (Ctrl-C, SIGTERM
//! or SIGHUP).

mod bench;
mod cli;
mod list;
mod serve;

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use morale_lab::engine::Control;

fn main() -> ExitCode {
    let control = Arc::new(Control::new());
    let on_interrupt = Arc::clone(&control);
    // Ctrl-C (SIGINT), SIGTERM or SIGHUP asks the run to stop: every long loop reads the flag
    // (a chunk of trials, a branch of a turn, a state of a solve), so it ends in milliseconds,
    // printing and writing nothing. Should anything still run after most of a second, the
    // process ends itself then (once no file is half-written), so that an interrupt always
    // ends the command within a second.
    let _ = ctrlc::set_handler(move || {
        on_interrupt.cancel();
        std::thread::spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(800));
            // A write under way finishes (or cleans up) first: milliseconds.
            for _ in 0..50 {
                if cli::WRITING.load(std::sync::atomic::Ordering::SeqCst) == 0 {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            if let Some(text) = cli::ON_INTERRUPT.get() {
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
            }
            eprintln!(
                "error: interrupted: the run was stopped before it finished; nothing was written"
            );
            std::process::exit(130);
        });
    });
    match cli::run(control) {
        Ok(text) => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                // A closed pipe (`| head`) is not an error worth a message.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: cannot write the output: {e}");
                    ExitCode::from(74)
                }
            }
        }
        Err(e) => {
            // A comparison's verdict: its tables on standard output, the verdict's line below.
            if let Some(report) = e.report() {
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(report.as_bytes()).and_then(|()| out.flush());
            }
            // Exit 3 is not a failure of the command: it measured, and says what it could not
            // judge (or that the baseline it saved was measured on a busy machine).
            let kind = match e {
                morale_lab::Error::Unjudged { .. } => "warning",
                _ => "error",
            };
            eprintln!("{kind}: {e}");
            ExitCode::from(match e {
                morale_lab::Error::Cancelled => 130,
                morale_lab::Error::Unjudged { .. } => 3,
                morale_lab::Error::Write { .. } => 74,
                ref e if e.is_bad_input() => 2,
                _ => 1,
            })
        }
    }
}
