//! `morale-lab`: the thin binary. Parse the command line, run the library, print the result,
//! and map errors to exit codes: 2 for bad input, 1 for failures, 130 when interrupted (Ctrl-C,
//! SIGTERM or SIGHUP).

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
    // Ctrl-C (SIGINT), SIGTERM or SIGHUP asks the run to stop after the chunks under way
    // (milliseconds); nothing is printed and nothing written.
    let _ = ctrlc::set_handler(move || on_interrupt.cancel());
    match cli::run(control) {
        Ok(text) => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                // A closed pipe (`| head`) is not an error worth a message.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: cannot write the output: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(match e {
                morale_lab::Error::Cancelled => 130,
                ref e if e.is_bad_input() => 2,
                _ => 1,
            })
        }
    }
}
