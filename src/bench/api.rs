//! The library's API cases: a run through `RunSpec` as a program embedding the library would make
//! it, beside the command line's.

use super::*;

/// The explorer's latency for one kind of request, over HTTP on loopback, nothing kept
/// between requests.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ApiRow {
    /// What is asked.
    pub case: String,
    /// The request (`POST` and its path).
    pub command: String,
    /// Requests timed.
    pub requests: usize,
    /// Milliseconds a request (connect, answer, close), every request's figure in `samples`.
    pub ms: Spread,
    /// The 95th percentile of the times, in milliseconds.
    pub p95_ms: f64,
}
/// The explorer's API cases: what the page asks for first (an exact answer) and a Monte Carlo
/// answer of 100,000 trials, for the README's rally example.
pub(super) const API_CASES: [(&str, &str); 2] = [
    (
        "explorer API, exact answer (rally RF)",
        "/api/run?system=rank-and-file&scenario=rally&set=class%3Dveteran&set=stands%3D7&set=lost%3D2&set=state%3Drouting&mode=exact",
    ),
    (
        "explorer API, 100,000 trials (rally RF)",
        "/api/run?system=rank-and-file&scenario=rally&set=class%3Dveteran&set=stands%3D7&set=lost%3D2&set=state%3Drouting&trials=100000&mode=mc",
    ),
];

/// Time requests to a loopback explorer with no cache, one after another, for `seconds`
/// each case (at least 20 requests).
pub(super) fn api_rows(bench: &mut Bench, seconds: f64, threads: Option<usize>) -> Result<()> {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0))
        .map_err(|e| Error::Conflict(format!("cannot listen on loopback: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::Conflict(e.to_string()))?;
    let token = "bench";
    let explorer = std::sync::Arc::new(
        morale_lab::explorer::Explorer::new(
            Vec::new(),
            morale_lab::explorer::Limits {
                cache: 0,
                threads,
                ..morale_lab::explorer::Limits::default()
            },
        )
        .with_gate(morale_lab::explorer::Gate::new(
            token.into(),
            addr.ip(),
            addr.port(),
            Vec::new(),
        )),
    );
    let control = std::sync::Arc::new(Control::new());
    crate::serve::accept(listener, explorer, std::sync::Arc::clone(&control));
    let fail = |e: std::io::Error| Error::Conflict(format!("the loopback explorer failed: {e}"));
    // The kinds of request alternate, one of each in turn, so that a change in the machine's
    // load, or its caches warming, falls on all of them alike; one round first, untimed.
    let mut times = vec![Vec::new(); API_CASES.len()];
    let started = Instant::now();
    for i in 0.. {
        if i > 20 && started.elapsed().as_secs_f64() > seconds * API_CASES.len() as f64 {
            break;
        }
        for (k, (_, path)) in API_CASES.iter().enumerate() {
            let t = Instant::now();
            let mut s = std::net::TcpStream::connect(addr).map_err(fail)?;
            write!(
                s,
                "POST {path} HTTP/1.1\r\nHost: {addr}\r\n{}: {token}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                morale_lab::explorer::TOKEN_HEADER
            )
            .map_err(fail)?;
            let mut out = Vec::new();
            s.read_to_end(&mut out).map_err(fail)?;
            if !out.starts_with(b"HTTP/1.1 200") {
                return Err(Error::Conflict(format!(
                    "the loopback explorer answered {}",
                    String::from_utf8_lossy(&out[..out.len().min(200)])
                )));
            }
            if i > 0 {
                times[k].push(t.elapsed().as_secs_f64() * 1e3);
            }
        }
    }
    for ((name, path), times) in API_CASES.iter().zip(times) {
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        let p95 = sorted[((sorted.len() - 1) as f64 * 0.95).round() as usize];
        bench.api.push(ApiRow {
            case: name.to_string(),
            command: format!("POST {path}"),
            requests: times.len(),
            ms: Spread::of(times, "ms"),
            p95_ms: p95,
        });
    }
    control.cancel();
    Ok(())
}
