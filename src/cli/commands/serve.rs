//! `serve` (`explore`): the explorer on this machine.

use std::sync::Arc;

use clap::Args;

use morale_lab::engine::Control;
use morale_lab::error::Result;

use crate::cli::flags::{int_in, invalid, seconds_in, threads_of, trials_of};

#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The port (0: any free one; the URL is printed).
    #[arg(long, value_name = "N", default_value = "8317")]
    pub(crate) port: String,
    /// The address to listen on: an IP address or localhost. Anything but loopback warns and
    /// says what is exposed; every check stays (the Host must be an IP address, localhost or
    /// an --allow-host name, and the API answers only its own page).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub(crate) host: String,
    /// A host name the server answers to when it listens beyond loopback (repeatable), e.g.
    /// lab.example for http://lab.example:8080/. Loopback servers answer to localhost and
    /// loopback addresses only.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub(crate) allow_host: Vec<String>,
    /// The folder of mechanic files offered as systems (default: mechanics/ where the server
    /// starts). It is watched: a file saved or added there is offered from then on; the server
    /// writes nothing.
    #[arg(long, value_name = "DIR")]
    pub(crate) mechanics: Option<std::path::PathBuf>,
    /// Open the page in the desktop's browser.
    #[arg(long)]
    pub(crate) open: bool,
    /// The most Monte Carlo trials one setting may ask for.
    #[arg(long, value_name = "N", default_value = "1e8")]
    pub(crate) max_trials: String,
    /// Seconds one run may take before it is stopped.
    #[arg(long, value_name = "S", default_value = "120")]
    pub(crate) max_seconds: String,
    /// Runs at once (others wait up to 10 s, then are told the server is busy).
    #[arg(long, value_name = "N", default_value = "2")]
    pub(crate) max_runs: String,
    /// Worker threads of each run (default: every core).
    #[arg(long, value_name = "N")]
    pub(crate) threads: Option<String>,
    /// Keep no answers: every request is computed again (for measuring).
    #[arg(long)]
    pub(crate) no_cache: bool,
}

pub(crate) fn run_serve(a: ServeArgs, control: Arc<Control>) -> Result<String> {
    let host: std::net::IpAddr = match a.host.trim() {
        h if h.eq_ignore_ascii_case("localhost") => std::net::IpAddr::from([127, 0, 0, 1]),
        h => h.trim_start_matches('[').trim_end_matches(']').parse().map_err(|_| {
            invalid(
                "--host",
                &a.host,
                "allowed: an IP address or localhost, e.g. 127.0.0.1 (the default) or 0.0.0.0 for every interface",
            )
        })?,
    };
    for name in &a.allow_host {
        let ok = !name.is_empty()
            && name.len() <= 253
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
        if !ok {
            return Err(invalid(
                "--allow-host",
                name,
                "allowed: a host name of letters, digits, '-' and '.', e.g. lab.example",
            ));
        }
    }
    let port = int_in("--port", &a.port, 0, 65535)? as u16;
    let limits = morale_lab::explorer::Limits {
        max_trials: trials_of(&a.max_trials)
            .ok()
            .filter(|t| *t >= 1000)
            .ok_or_else(|| {
                invalid(
                    "--max-trials",
                    &a.max_trials,
                    "allowed: a whole number of trials from 1000, e.g. 1e8",
                )
            })?,
        max_seconds: seconds_in("--max-seconds", &a.max_seconds, 1.0, 86_400.0)?,
        max_runs: int_in("--max-runs", &a.max_runs, 1, 64)? as usize,
        threads: threads_of(&a.threads)?,
        cache: if a.no_cache {
            0
        } else {
            morale_lab::explorer::Limits::default().cache
        },
        ..morale_lab::explorer::Limits::default()
    };
    let mechanics = match a.mechanics {
        Some(dir) => (dir, true),
        None => (std::path::PathBuf::from("mechanics"), false),
    };
    crate::serve::serve(
        crate::serve::Serve {
            host,
            port,
            mechanics,
            open: a.open,
            limits,
            names: a.allow_host.clone(),
        },
        control,
    )
}
