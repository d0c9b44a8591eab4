//! `morale-lab serve`, the explorer: the real binary on a loopback port, its API against the
//! command line's numbers, robustness probes, 200 requests at once, and the page driven in
//! headless chromium through the DevTools protocol (skipped without a browser unless
//! `MORALE_LAB_REQUIRE_BROWSER=1`).
//!
//! With `MORALE_LAB_SCREENSHOTS=DIR`, the browser tests also write the screenshots of the README
//! and the guide
//! (`explorer-wide.png` at 1280×800, `explorer-phone.png` at 400 px wide, `explorer-sweep.png`
//! at 1280×900) into DIR.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::json_of;

/// The server under test, stopped (SIGINT, as Ctrl-C) when dropped.
struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    addr: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        Server::start_with("mechanics", extra)
    }
    /// A server offering the mechanic files of `dir`.
    fn start_with(dir: &str, extra: &[&str]) -> Server {
        let exe = assert_cmd::cargo::cargo_bin("morale-lab");
        let mut child = Command::new(exe)
            .args(["serve", "--port", "0", "--mechanics", dir])
            .args(extra)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_string();
        Server { child, addr }
    }
    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Send raw bytes and read the answer to the end: (status, body). The status is 0 when the
/// server closed without an answer.
fn raw(addr: &str, request: &[u8]) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let _ = s.write_all(request);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = match out.windows(4).position(|w| w == b"\r\n\r\n") {
        Some(i) => out[i + 4..].to_vec(),
        None => Vec::new(),
    };
    (status, body)
}

/// The page's token, read off the page as a browser reads it (once per server).
fn token(addr: &str) -> String {
    static TOKENS: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());
    let mut tokens = TOKENS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, t)) = tokens.iter().find(|(a, _)| a == addr) {
        return t.clone();
    }
    let (status, page) = raw(
        addr,
        format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    );
    assert_eq!(status, 200);
    let page = String::from_utf8_lossy(&page);
    let t = page
        .split(r#"<meta name="morale-lab-token" content=""#)
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("the page carries a token")
        .to_string();
    assert_eq!(t.len(), 32, "{t}");
    tokens.push((addr.to_string(), t.clone()));
    t
}

/// Ask the API as the page does: with its token, by POST for what computes or stops (run,
/// describe, cancel), by GET for what only reads.
fn get(addr: &str, path: &str) -> (u16, Value) {
    let route = path.split('?').next().unwrap_or(path);
    let method = match route {
        "/api/run" | "/api/describe" | "/api/cancel" => "POST",
        _ => "GET",
    };
    let token = token(addr);
    let (status, body) = raw(
        addr,
        format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nX-Morale-Lab-Token: {token}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").as_bytes(),
    );
    (
        status,
        serde_json::from_slice(&body).unwrap_or(Value::String(
            String::from_utf8_lossy(&body).chars().take(300).collect(),
        )),
    )
}

/// The README's rally example: a routing Veteran unit, 2 of 7 stands lost.
const RALLY: &str = "system=rank-and-file&scenario=rally&set=class%3Dveteran&set=stands%3D7&set=lost%3D2&set=state%3Drouting";
const RALLY_CLI: [&str; 10] = [
    "rally",
    "--system",
    "rank-and-file",
    "--class",
    "veteran",
    "--stands",
    "7",
    "--lost",
    "2",
    "--state",
];

fn cli(extra: &[&str]) -> Value {
    let mut args: Vec<&str> = RALLY_CLI.to_vec();
    args.push("routing");
    args.extend(extra);
    args.extend(["--format", "json"]);
    json_of(&args)
}

#[test]
fn the_api_gives_the_command_lines_numbers_to_the_bit() {
    let server = Server::start(&[]);
    let (status, v) = get(&server.addr, &format!("/api/run?{RALLY}&mode=exact"));
    assert_eq!(status, 200, "{v}");
    let want = cli(&["--exact-only"]);
    let got = &v["variants"][0]["report"];
    for (g, w) in got["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .zip(want["outcomes"].as_array().unwrap())
    {
        assert_eq!(g["outcome"], w["outcome"]);
        assert_eq!(g["exact"], w["exact"], "{}", g["outcome"]);
    }
    // Monte Carlo: the same trials and seed give the same estimates as the command line's.
    let (status, v) = get(
        &server.addr,
        &format!("/api/run?{RALLY}&trials=50000&seed=11&mode=mc"),
    );
    assert_eq!(status, 200, "{v}");
    let want = cli(&["--trials", "50000", "--seed", "11"]);
    assert_eq!(
        v["variants"][0]["report"]["outcomes"], want["outcomes"],
        "estimates differ from the command line's"
    );
    assert_eq!(v["variants"][0]["report"]["metrics"], want["metrics"]);
    // A bad value: 400 with the command line's own message.
    let (status, bad) = get(
        &server.addr,
        "/api/run?scenario=rally&set=stands%3D99&rule=base_green%3D9",
    );
    assert_eq!(status, 400);
    let out = crate::common::bin()
        .args(["rally", "--set", "stands=99", "--rule", "base_green=9"])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let line = String::from_utf8_lossy(&out);
    assert_eq!(
        format!("error: {}", bad["error"].as_str().unwrap()),
        line.trim_end(),
        "{bad}"
    );
    // The command the page shows gives them too.
    let command = v["commands"][0]["command"].as_str().unwrap().to_string();
    let args: Vec<&str> = command.split(' ').skip(1).collect();
    let mut args = args.clone();
    args.extend(["--format", "json"]);
    assert_eq!(json_of(&args)["outcomes"], want["outcomes"]);
}

#[test]
fn ctrl_c_stops_the_server_cleanly_and_other_addresses_warn() {
    let exe = assert_cmd::cargo::cargo_bin("morale-lab");
    let mut child = Command::new(&exe)
        .args([
            "serve",
            "--port",
            "0",
            "--host",
            "0.0.0.0",
            "--mechanics",
            "mechanics",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("http://0.0.0.0:"), "{line}");
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?} {stderr}", out.status);
    assert!(
        stderr.contains("anyone who can reach this address") && stderr.contains("its own page"),
        "{stderr}"
    );
    assert!(stderr.contains("stopped"), "{stderr}");
    // A bad address or port: one line, exit code 2.
    for args in [["--host", "localhost:80"], ["--port", "70000"]] {
        let out = Command::new(&exe).arg("serve").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("allowed"), "{err}");
    }
}

#[test]
fn the_server_survives_probes_and_still_answers_correctly() {
    let server = Server::start(&[]);
    let addr = server.addr.clone();
    let want = cli(&["--exact-only"])["outcomes"][0]["exact"].clone();
    // Unknown paths and traversal: nothing but the page and the API.
    for path in [
        "/../../etc/passwd",
        "/%2e%2e/Cargo.toml",
        "/src/lib.rs",
        "/mechanics/rank-and-file.rhai",
        "/api/",
        "/api/run/../../Cargo.toml",
    ] {
        // With the page's token, so that the API's own answer is the one probed.
        let (status, body) = raw(
            &addr,
            format!(
                "GET {path} HTTP/1.1\r\nHost: {addr}\r\nX-Morale-Lab-Token: {}\r\nConnection: close\r\n\r\n",
                token(&addr)
            )
            .as_bytes(),
        );
        assert!(
            status == 404 || status == 400,
            "{path}: {status} {}",
            String::from_utf8_lossy(&body)
        );
        let text = String::from_utf8_lossy(&body);
        assert!(
            !text.contains("[package]") && !text.contains("root:") && !text.contains("fn about")
        );
    }
    // A body over the limit, announced or sent.
    let (status, _) = raw(
        &addr,
        format!("POST /api/run HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 999999999\r\nConnection: close\r\n\r\nscenario=rally").as_bytes(),
    );
    assert_eq!(status, 413);
    // Malformed HTTP and garbage.
    for junk in [
        &b"\x00\x01\x02 garbage\r\n\r\n"[..],
        b"GET\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"POST /api/run HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
        b"GET /api/run?scenario=rally&set=%ff%fe HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    ] {
        let _ = raw(&addr, junk);
    }
    // Another site's name for this address is refused (DNS rebinding).
    let (status, _) = raw(
        &addr,
        b"GET /api/systems HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 403);
    // A client that opens connections and sends nothing does not block the others.
    let idle: Vec<TcpStream> = (0..20)
        .map(|_| TcpStream::connect(&addr).unwrap())
        .collect();
    // A run above the trial budget is refused up front.
    let (status, v) = get(&addr, &format!("/api/run?{RALLY}&trials=1e12&mode=mc"));
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["field"], "trials");
    let (status, v) = get(&addr, &format!("/api/run?{RALLY}&mode=exact"));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["variants"][0]["report"]["outcomes"][0]["exact"], want);
    drop(idle);
    // A flood of long Monte Carlo runs (seconds each, two at a time) does not hold up an exact
    // answer: those run in a lane of their own.
    let flood: Vec<_> = (0..4)
        .map(|i| {
            let a = addr.clone();
            std::thread::spawn(move || {
                get(
                    &a,
                    &format!(
                        "/api/run?system=linear-warfare&scenario=line&trials={}&mode=mc",
                        2_000_000 + i
                    ),
                )
                .0
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let (status, v) = get(
        &addr,
        &format!("/api/run?{RALLY}&set=leader%3D1&mode=exact"),
    );
    let waited = started.elapsed();
    assert_eq!(status, 200, "{v}");
    let still_running = flood.iter().filter(|h| !h.is_finished()).count();
    assert!(
        still_running > 0 && waited < Duration::from_secs(3),
        "the exact answer took {waited:?} ({still_running} Monte Carlo runs left)"
    );
    // Each run answered, or told the server is busy once it waited its 10 s.
    for h in flood {
        let status = h.join().unwrap();
        assert!(status == 200 || status == 503, "{status}");
    }
}

/// Only the server's own page drives it: another site's name for this address (DNS
/// rebinding), another site's page (a form's POST, an `<img>`'s GET), a request without the
/// page's token are refused, and GET or HEAD compute nothing; `--host localhost` works.
#[test]
fn other_sites_cannot_drive_the_server() {
    let server = Server::start(&["--host", "localhost"]);
    let addr = server.addr.clone();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let port = addr.split(':').nth(1).unwrap().to_string();
    let token = token(&addr);
    let ask = |method: &str, path: &str, headers: &str| -> (u16, String) {
        let (status, body) = raw(
            &addr,
            format!("{method} {path} HTTP/1.1\r\n{headers}Content-Length: 0\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        );
        (status, String::from_utf8_lossy(&body).into_owned())
    };
    let battle = "/api/run?system=rank-and-file&scenario=line&trials=3000000&mode=mc";
    // Rebinding names: not the page, not the API.
    for host in ["127.evil.example", "127.0.0.1.nip.io", "localhost.evil.com"] {
        for path in ["/", "/api/systems"] {
            let (status, body) = ask(
                "GET",
                path,
                &format!("Host: {host}:{port}\r\nX-Morale-Lab-Token: {token}\r\n"),
            );
            assert_eq!(status, 403, "{host} {path}: {body}");
            assert!(
                !body.contains("fn about") && !body.contains("<html"),
                "{body}"
            );
        }
    }
    let mine = format!("Host: {addr}\r\n");
    // Another site's page: a no-cors POST carries its Origin (and the browser's word), an
    // `<img>` a GET; neither has the token.
    for headers in [
        format!("{mine}Origin: http://evil.example\r\n"),
        format!("{mine}Origin: http://evil.example\r\nX-Morale-Lab-Token: {token}\r\n"),
        format!("{mine}Sec-Fetch-Site: cross-site\r\nX-Morale-Lab-Token: {token}\r\n"),
        format!("{mine}Origin: null\r\n"),
        mine.clone(),
    ] {
        for method in ["POST", "GET", "HEAD"] {
            let (status, body) = ask(method, battle, &headers);
            assert_eq!(status, 403, "{method} {headers:?}: {body}");
        }
    }
    // With the token, GET and HEAD still compute nothing.
    for method in ["GET", "HEAD"] {
        let (status, _) = ask(
            method,
            battle,
            &format!("{mine}X-Morale-Lab-Token: {token}\r\n"),
        );
        assert_eq!(status, 405, "{method}");
    }
    // The page's own requests go through, by loopback address or by localhost.
    let (status, body) = ask(
        "POST",
        &format!("/api/run?{RALLY}&mode=exact"),
        &format!(
            "Host: localhost:{port}\r\nOrigin: http://localhost:{port}\r\nSec-Fetch-Site: same-origin\r\nX-Morale-Lab-Token: {token}\r\n"
        ),
    );
    assert_eq!(status, 200, "{body}");
    // No run was started by the refused ones.
    let (_, v) = get(&addr, "/api/progress?run=none");
    assert!(v["done"].is_null(), "{v}");
}

/// A run stuck in turns of many branches (a mechanic file edited to roll seven `d6()` in a
/// loop, some 560,000 branches a turn, seconds to enumerate) stops at once when its page stops it or at the time limit, and frees its slot: a
/// fresh exact answer is not held up behind it.
#[test]
fn stop_and_the_time_limit_end_a_run_inside_a_turn_and_free_its_slot() {
    let server = Server::start(&["--max-seconds", "1", "--max-runs", "1"]);
    let addr = server.addr.clone();
    let path = "mechanics/examples/first-rally.rhai";
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap();
    let code = text.replacen(
        "fn rally_turn(p, s) {\n",
        "fn rally_turn(p, s) {\n    let total = 0;\n    for i in 0..7 { total += d6(); }\n",
        1,
    );
    assert_ne!(code, text);
    let run = |id: &str| {
        let body = format!(
            "system={}&scenario=rally&mode=mc&trials=1000&run={id}&code={}",
            morale_lab::explorer::view::encode(path),
            morale_lab::explorer::view::encode(&code)
        );
        let addr = addr.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            let (status, _) = post_body(&addr, "/api/run", body.as_bytes());
            (status, started.elapsed())
        })
    };
    // Stopped by its page half a second in, inside a turn's branches.
    let stopped = run("stuck1");
    std::thread::sleep(Duration::from_millis(500));
    let (_, c) = get(&addr, "/api/cancel?run=stuck1");
    assert_eq!(c["cancelled"], true, "{c}");
    let (status, took) = stopped.join().unwrap();
    assert_eq!(status, 409);
    assert!(took < Duration::from_millis(1000), "took {took:?}");
    // Left alone, stopped by the time limit; the lane's one slot is free again at once.
    let limited = run("stuck2");
    let (status, took) = limited.join().unwrap();
    assert_eq!(status, 503);
    assert!(took < Duration::from_millis(2000), "took {took:?}");
    let started = Instant::now();
    let (status, v) = get(&addr, &format!("/api/run?{RALLY}&mode=mc&trials=1000"));
    assert_eq!(status, 200, "{v}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_long_run_is_stopped_by_the_time_budget_and_by_cancel() {
    let server = Server::start(&["--max-seconds", "1"]);
    let addr = server.addr.clone();
    let battle = "/api/run?system=rank-and-file&scenario=line&trials=100000000&mode=mc";
    let started = Instant::now();
    let (status, v) = get(&addr, &format!("{battle}&run=budget"));
    // Stopped by the limit: the batches it finished are kept (said so), or, before the first
    // batch (a million trials) is done, nothing and a 503.
    match status {
        503 => assert!(
            v["error"].as_str().unwrap().contains("stopped after 1 s"),
            "{v}"
        ),
        200 => {
            assert_eq!(
                v["partial"]["by"], "the server's limit of 1 s for one run",
                "{v}"
            );
            assert!(v["partial"]["trials"].as_u64().unwrap() < 100_000_000);
        }
        _ => panic!("{status}: {v}"),
    }
    assert!(started.elapsed() < Duration::from_secs(20));
    // Cancelled by its page before its first batch is done: 409, nothing kept.
    let a = addr.clone();
    let run = std::thread::spawn(move || get(&a, &format!("{battle}&run=page1")));
    let deadline = Instant::now() + Duration::from_secs(30);
    while !get(&addr, "/api/progress?run=page1").1["done"].is_u64() {
        assert!(Instant::now() < deadline, "the run never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let (_, c) = get(&addr, "/api/cancel?run=page1");
    let (status, v) = run.join().unwrap();
    assert_eq!(c["cancelled"], true);
    if status != 409 {
        // The first batch finished between the first progress and the cancel (a slow start).
        assert_eq!((status, &v["partial"]["by"]), (200, &json!("Stop")), "{v}");
    }
}

/// Issue 54: a Monte Carlo sweep stopped part way keeps the batches every value finished: the
/// same trials at each, said, not kept as the whole answer, and its experiment file asks for
/// that many trials.
#[test]
fn a_stopped_sweep_keeps_the_same_trials_at_every_value() {
    let server = Server::start(&[]);
    let addr = server.addr.clone();
    let sweep = "/api/run?system=rank-and-file&scenario=line&trials=100000000&seed=2&mode=mc&sweep=break_point&values=40%2C60&run=sweep1";
    let a = addr.clone();
    let run = std::thread::spawn(move || get(&a, sweep));
    // Past both values' first batch (2^20 trials each), stop.
    let deadline = Instant::now() + Duration::from_secs(60);
    while get(&addr, "/api/progress?run=sweep1").1["done"]
        .as_u64()
        .is_none_or(|d| d < 2_200_000)
    {
        assert!(Instant::now() < deadline, "the sweep never got going");
        std::thread::sleep(Duration::from_millis(20));
    }
    let (_, c) = get(&addr, "/api/cancel?run=sweep1");
    assert_eq!(c["cancelled"], true);
    let (status, v) = run.join().unwrap();
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["partial"]["by"], "Stop", "{v}");
    let trials = v["partial"]["trials"].as_u64().unwrap();
    assert!(
        (1 << 20..100_000_000).contains(&trials) && trials.is_power_of_two(),
        "{trials}"
    );
    let s = &v["sweep"];
    assert_eq!(s["trials"], trials);
    assert_eq!(s["values"], json!(["40", "60"]));
    for row in s["rows"].as_array().unwrap() {
        assert!(row["cells"][0]["estimate"].is_f64(), "{row}");
    }
    assert!(
        s["experiment"]
            .as_str()
            .unwrap()
            .contains(&format!("trials = {trials}\n")),
        "{s}"
    );
    // Not kept as the whole sweep's answer: asked again, it runs again (and is stopped again).
    let a = addr.clone();
    let again = std::thread::spawn(move || get(&a, sweep));
    let deadline = Instant::now() + Duration::from_secs(60);
    while get(&addr, "/api/progress?run=sweep1").1["done"]
        .as_u64()
        .is_none()
    {
        assert!(Instant::now() < deadline, "the sweep was not run again");
        std::thread::sleep(Duration::from_millis(20));
    }
    get(&addr, "/api/cancel?run=sweep1");
    let (status, v) = again.join().unwrap();
    assert!(
        status == 409 || v["partial"]["by"] == "Stop",
        "{status}: {v}"
    );
}

/// What the page's button `id` downloads: `[file name, text]` (the download caught in the page).
fn downloaded(b: &mut Browser, id: &str) -> Value {
    b.eval(&format!("window.got = null; let blob = null; URL.createObjectURL = (x) => {{ blob = x; return 'about:blank'; }}; HTMLAnchorElement.prototype.click = function () {{ const name = this.download; blob.text().then((t) => {{ window.got = [name, t]; }}); }}; document.getElementById({id:?}).click()"));
    b.wait("window.got")
}

/// An experiment file saved as `name` in a folder of its own and run by the real binary
/// (`run NAME --out out`): its `results.json`.
fn run_experiment_file(name: &str, text: &str) -> Value {
    let dir = std::env::temp_dir().join(format!(
        "morale-lab-file-{}-{}",
        std::process::id(),
        name.replace('.', "-")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), text).unwrap();
    let out = Command::new(assert_cmd::cargo::cargo_bin("morale-lab"))
        .args(["run", name, "--quiet", "--out", "out"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/results.json")).unwrap())
            .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    results
}

/// Open `url` (a line battle of 10^8 trials, one profile or more), run its Monte Carlo, and
/// press Stop once every profile is past its first batch (2^20 trials each: just over 1.05% of
/// the run); the status line then, and the trials kept (checked a power of two, past the
/// first batch).
fn stopped_past_first_batch(b: &mut Browser, url: &str) -> (String, u64) {
    b.goto(url);
    b.wait("!!document.getElementById('mc-only')");
    b.eval("document.getElementById('run-mc').click()");
    b.wait("(() => { const p = document.querySelector('#status progress'); return !!p && p.value > 0.0106; })()");
    b.eval("document.getElementById('stop').click()");
    let status = b
        .wait("(() => { const t = document.getElementById('status').textContent; return t.includes('kept') ? t : null; })()")
        .as_str()
        .unwrap()
        .to_string();
    let trials = b.eval("mcAnswer.partial.trials").as_u64().unwrap();
    assert!(
        (1 << 20..100_000_000).contains(&trials) && trials.is_power_of_two(),
        "{trials}"
    );
    (status, trials)
}

/// Issue 54: Stop keeps what the run has: the batches of whole chunks it finished, the numbers
/// of a run of that many trials, which the command box gives and the command line repeats to
/// the bit; the answer says it is partial and is not kept as the whole view's.
#[test]
fn a_stopped_run_keeps_its_finished_trials_on_the_page() {
    let Some(chromium) =
        crate::browser::chromium("a_stopped_run_keeps_its_finished_trials_on_the_page")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "partial");
    let (status, trials) = stopped_past_first_batch(
        &mut b,
        &server.url("/?system=rank-and-file&scenario=line&trials=100000000&seed=4"),
    );
    assert!(
        status.contains("stopped by Stop")
            && status.contains(&format!("--trials {trials}"))
            && status.contains("of 100,000,000 trials"),
        "{status}"
    );
    // The estimates shown are the command line's with that many trials, to the bit.
    let command = b
        .eval("document.getElementById('command').textContent")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        command.ends_with(&format!("--trials {trials} --seed 4")),
        "{command}"
    );
    let shown = b.eval("mcAnswer.variants[0].report.outcomes.map((o) => o.count)");
    let out = Command::new(assert_cmd::cargo::cargo_bin("morale-lab"))
        .args([
            "line",
            "--system",
            "rank-and-file",
            "--trials",
            &trials.to_string(),
            "--seed",
            "4",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    let counts: Vec<Value> = cli["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["count"].clone())
        .collect();
    assert_eq!(shown, json!(counts));
    assert!(
        b.eval("document.getElementById('notes').textContent")
            .as_str()
            .unwrap()
            .contains("stopped part way")
    );
    assert!(
        b.eval("document.querySelectorAll('#tables tr[data-outcome]').length")
            .as_u64()
            .unwrap()
            > 0
    );
}

/// Issue 54: with several profiles, Stop keeps the batches every profile finished (they run
/// side by side): the same trials for each, and the experiment file the page offers gives the
/// page's numbers from the command line, to the bit.
#[test]
fn a_stopped_run_of_two_profiles_keeps_the_same_trials_for_each() {
    let Some(chromium) =
        crate::browser::chromium("a_stopped_run_of_two_profiles_keeps_the_same_trials_for_each")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "partial-two");
    let (status, trials) = stopped_past_first_batch(&mut b, &server.url("/?system=rank-and-file&scenario=line&rule=base_regular%3D5&name=Regular%205%2B&trials=100000000&seed=4&a.system=rank-and-file&a.name=Source"));
    assert!(
        status.contains("stopped by Stop") && status.contains(&format!("--trials {trials}")),
        "{status}"
    );
    assert_eq!(
        b.eval("mcAnswer.variants.map((v) => [v.name, v.report.trials])"),
        json!([["Source", trials], ["Regular 5+", trials]])
    );
    // Compared on those trials, with the experiments' statistics.
    assert!(
        b.eval("document.querySelectorAll('table.ab tbody tr').length")
            .as_u64()
            .unwrap()
            > 0
    );
    let shown = b.eval("mcAnswer.variants.map((v) => v.report.outcomes.map((o) => o.count))");
    let got = downloaded(&mut b, "dl-exp");
    assert_eq!(got[0], json!("explorer.toml"));
    let text = got[1].as_str().unwrap();
    assert!(text.contains(&format!("trials = {trials}\n")), "{text}");
    let results = run_experiment_file("explorer.toml", text);
    let cli: Vec<Vec<Value>> = results["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["report"]["outcomes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["count"].clone())
                .collect()
        })
        .collect();
    assert_eq!(shown, json!(cli));
}

#[test]
fn two_hundred_requests_at_once_are_all_answered_correctly() {
    let server = Server::start(&[]);
    // Ten settings, twenty requests each, all at once; each answer checked against the
    // library's exact solution of the same setting.
    let settings: Vec<(String, f64)> = (0..10)
        .map(|i| {
            let stands = 4 + i;
            let class = ["veteran", "regular", "green"][i % 3];
            let job = morale_lab::job(
                "rank-and-file",
                "rally",
                &[
                    ("class", class),
                    ("stands", &stands.to_string()),
                    ("state", "routing"),
                ],
                &[],
            )
            .unwrap();
            let r = job
                .run(
                    // The server's default trials: the exact solution is the same to the bit
                    // only with the same run options.
                    &morale_lab::RunOptions::new(1_000_000, 1).exact_only(true),
                    &morale_lab::Control::new(),
                )
                .unwrap();
            (
                format!(
                    "/api/run?scenario=rally&set=class%3D{class}&set=stands%3D{stands}&set=state%3Drouting&mode=exact"
                ),
                r.outcomes[0].cell.exact.unwrap(),
            )
        })
        .collect();
    // Each setting asked alone first: the library's exact value (to 1e-12: the library here is
    // another build than the server's; the command line's bits are checked above).
    let alone: Vec<f64> = settings
        .iter()
        .map(|(path, want)| {
            let (status, v) = get(&server.addr, path);
            assert_eq!(status, 200, "{v}");
            let got = v["variants"][0]["report"]["outcomes"][0]["exact"]
                .as_f64()
                .unwrap();
            assert!((got - want).abs() < 1e-12, "{path}: {got} against {want}");
            got
        })
        .collect();
    // Then all at once, with no answers kept: every one computed again under load, and the
    // same to the bit as alone.
    drop(server);
    let server = Server::start(&["--no-cache"]);
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(200));
    let handles: Vec<_> = (0..200)
        .map(|i| {
            let (path, want) = (settings[i % 10].0.clone(), alone[i % 10]);
            let addr = server.addr.clone();
            let barrier = std::sync::Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                let (status, v) = get(&addr, &path);
                (
                    status,
                    v["variants"][0]["report"]["outcomes"][0]["exact"].as_f64(),
                    want,
                )
            })
        })
        .collect();
    let mut ok = 0;
    for h in handles {
        let (status, got, want) = h.join().unwrap();
        assert_eq!(status, 200);
        assert_eq!(got, Some(want));
        ok += 1;
    }
    assert_eq!(ok, 200);
}

// ---- The page in a real browser, through the DevTools protocol ----

/// Chromium, driven over its DevTools WebSocket: one page, attached with a flat session.
struct Browser {
    child: Child,
    ws: tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
    session: String,
    next: u64,
    _profile: std::path::PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self._profile);
    }
}

impl Browser {
    fn launch(chromium: &std::path::Path, name: &str) -> Browser {
        let profile =
            std::env::temp_dir().join(format!("morale-lab-explorer-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let mut child = Command::new(chromium)
            .args(crate::browser::QUIET)
            .args(["--remote-debugging-port=0", "--remote-allow-origins=*"])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("chromium starts");
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.split("DevTools listening on ").nth(1) {
                    let _ = tx.send(url.trim().to_string());
                }
            }
        });
        let url = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("chromium's DevTools address");
        let (ws, _) = tungstenite::connect(url.as_str()).expect("DevTools connects");
        if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        }
        let mut b = Browser {
            child,
            ws,
            session: String::new(),
            next: 0,
            _profile: profile,
        };
        let target = b.call("Target.createTarget", json!({ "url": "about:blank" }));
        let attached = b.call(
            "Target.attachToTarget",
            json!({ "targetId": target["targetId"], "flatten": true }),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        b.call("Page.enable", json!({}));
        b.call("Runtime.enable", json!({}));
        b
    }

    /// Send a command (to the page's session once attached) and wait for its result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if !self.session.is_empty() {
            msg["sessionId"] = json!(self.session);
        }
        self.ws
            .send(tungstenite::Message::text(msg.to_string()))
            .expect("DevTools send");
        loop {
            let m = self.ws.read().expect("DevTools answer");
            let Ok(text) = m.to_text() else { continue };
            let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
            if v["method"] == "Runtime.exceptionThrown" {
                panic!("the page threw: {}", v["params"]["exceptionDetails"]);
            }
            if v["method"] == "Runtime.consoleAPICalled" && v["params"]["type"] == "error" {
                panic!("the page logged an error: {}", v["params"]["args"]);
            }
            if v["id"] == id {
                if !v["error"].is_null() {
                    panic!("{method}: {}", v["error"]);
                }
                return v["result"].clone();
            }
        }
    }

    fn eval(&mut self, js: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": js, "awaitPromise": true, "returnByValue": true }),
        );
        if !r["exceptionDetails"].is_null() {
            panic!("{js}: {}", r["exceptionDetails"]);
        }
        r["result"]["value"].clone()
    }

    /// Wait until `js` is truthy (up to 60 s); its value.
    fn wait(&mut self, js: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let v = self.eval(js);
            if !(v.is_null() || v == json!(false) || v == json!("")) {
                return v;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {js} at {}; status: {}; error: {}",
                self.eval("location.href"),
                self.eval("document.getElementById('status')?.textContent"),
                self.eval("document.getElementById('error')?.textContent")
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn goto(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url }));
        self.wait("document.readyState === 'complete' && !!document.getElementById('status')");
    }

    fn screenshot(&mut self, width: u32, height: u32) -> Vec<u8> {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500 }),
        );
        std::thread::sleep(Duration::from_millis(500));
        let shot = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        base64(shot["data"].as_str().unwrap())
    }
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = s
        .bytes()
        .filter(|c| *c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, c)| {
            acc | (u32::from(val(*c)) << (18 - 6 * i))
        });
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len() - 1]);
    }
    out
}

/// The exact value the page shows for an outcome (full precision, from its data attribute).
fn shown_exact(b: &mut Browser, outcome: &str) -> f64 {
    b.wait(&format!(
        "(() => {{ const td = document.querySelector('tr[data-outcome=\"{outcome}\"] td.exact'); return td && td.dataset.value ? Number(td.dataset.value) : null; }})()"
    ))
    .as_f64()
    .unwrap()
}

/// A published page's data: the JSON in its script element.
fn page_data(html: &str) -> Value {
    let text = html
        .split("<script type=\"application/json\" id=\"data\">")
        .nth(1)
        .and_then(|r| r.split("</script>").next())
        .unwrap()
        .replace("<\\/", "</");
    serde_json::from_str(&text).unwrap()
}

/// The centre of the element `sel` on the screen, which must be within it.
fn centre_on_screen(b: &mut Browser, sel: &str) -> (f64, f64) {
    let v = b.eval(&format!("(() => {{ const r = document.querySelector('{sel}').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2, innerHeight]; }})()"));
    let (x, y) = (v[0].as_f64().unwrap(), v[1].as_f64().unwrap());
    assert!(
        y > 0.0 && y < v[2].as_f64().unwrap(),
        "{sel} is off the screen: {v}"
    );
    (x, y)
}

/// Type `value` into the field `field` (`set.stands`, `rule.base_veteran`) as a person would.
fn type_into(b: &mut Browser, field: &str, value: &str) {
    b.eval(&format!(
        "(() => {{ const el = document.querySelector('[data-field=\"{field}\"] input, [data-field=\"{field}\"] select'); el.value = {value:?}; el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', {{ bubbles: true }})); }})()"
    ));
}

/// Phone trial 76 (second round): just after Pin as A, A's name box is open; B's class
/// changed then, B's chip said "B · same as A" beside a table of B green against A regular
/// until a reload. The chips follow every change, the box keeping its focus.
#[test]
fn the_chips_follow_a_change_while_a_name_box_is_open() {
    let Some(chromium) =
        crate::browser::chromium("the_chips_follow_a_change_while_a_name_box_is_open")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "chips");
    b.goto(&server.url(&format!("/?{RALLY}&trials=20000&seed=5")));
    shown_exact(&mut b, "recovered");
    b.eval("document.getElementById('pin').click()");
    b.wait("location.search.includes('a.set=')");
    b.wait("document.activeElement.classList.contains('chip-name')");
    assert_eq!(
        b.eval("document.querySelector('#profile-list button.pick[data-label=\"B\"]').textContent"),
        json!("B · same as A")
    );
    type_into(&mut b, "set.class", "green");
    b.wait("location.search.includes('set=class%3Dgreen')");
    let chip = b.wait("(() => { const t = document.querySelector('#profile-list button.pick[data-label=\"B\"]').textContent; return t.includes('same as') ? null : t; })()");
    assert!(chip.as_str().unwrap().contains("green"), "{chip}");
    // The name box is still open, and still has the focus.
    assert_eq!(
        b.eval("document.activeElement.classList.contains('chip-name') && document.activeElement.dataset.label"),
        json!("A")
    );
}

/// Phone trial 76, third round: B named "Leader +1" kept its name when the system changed (its
/// settings reset, so the name was false), and passed it to A on the next pin. A profile's name
/// goes with its system.
#[test]
fn a_profile_name_goes_with_its_system() {
    let Some(chromium) = crate::browser::chromium("a_profile_name_goes_with_its_system") else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "name-system");
    b.goto(&server.url(&format!("/?{RALLY}&trials=20000&seed=5")));
    shown_exact(&mut b, "recovered");
    b.eval("document.getElementById('pin').click()");
    b.wait("location.search.includes('a.set=')");
    b.eval("(() => { const n = document.getElementById('profile-name'); n.value = 'Leader +1'; n.dispatchEvent(new Event('input')); return 0; })()");
    b.wait("location.search.includes('name=Leader')");
    b.eval("(() => { const s = document.getElementById('system'); s.value = 'mechanics/examples/first-rally.rhai'; s.dispatchEvent(new Event('change')); return 0; })()");
    b.wait("!document.getElementById('editor').hidden && !location.search.includes('name=')");
    assert_eq!(
        b.eval("[document.getElementById('profile-name').value, [...document.querySelectorAll('#profile-list button.pick')].some((c) => c.textContent.includes('Leader +1'))]"),
        json!(["", false])
    );
    // A of Rank & File beside B of a mechanic file: they share one measure, and the page says
    // why the comparison is that short.
    b.wait("[...document.querySelectorAll('#tables p')].some((p) => p.textContent.startsWith('The profiles use different rule systems, so only what both count is compared here: stands lost.'))");
}

/// Issue 76: "Publish a page" writes the page the command line's `publish` writes, from the
/// profile the form edits and the fields left open; the page holds the command line's exact
/// values, and a field the scenario does not have is refused in one line.
#[test]
fn the_page_publishes_a_page_that_needs_no_server() {
    let Some(chromium) = crate::browser::chromium("the_page_publishes_a_page_that_needs_no_server")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "publish");
    b.goto(&server.url("/?system=rank-and-file&scenario=rally&set=stands%3D6&set=lost%3D1"));
    b.wait("document.getElementById('publish-add').options.length > 2");
    // An optional rule can be left open too.
    assert_eq!(
        b.eval("[...document.getElementById('publish-add').querySelectorAll('optgroup')].map((g) => g.label).join(',')").as_str(),
        Some("Situation,Rule parameters,Optional rules")
    );
    for key in ["class", "lost"] {
        b.eval(&format!("(() => {{ const s = document.getElementById('publish-add'); s.value = {key:?}; s.dispatchEvent(new Event('change')); }})()"));
    }
    // A number comes with a range to edit; a choice takes every value.
    assert_eq!(
        b.eval("document.getElementById('open-class').value")
            .as_str(),
        Some("")
    );
    b.eval("(() => { const e = document.getElementById('open-lost'); e.value = '0..2'; e.dispatchEvent(new Event('input')); })()");
    b.eval("document.getElementById('publish-title').value = 'Green at 2 lost?'");
    let got = downloaded(&mut b, "publish-run");
    assert_eq!(got[0].as_str(), Some("green-at-2-lost.html"));
    let html = got[1].as_str().unwrap();
    let said = b.wait("(() => { const t = document.getElementById('publish-said').textContent; return t.includes('exact answers') ? t : null; })()");
    assert!(
        said.as_str().unwrap().starts_with("9 exact answers"),
        "{said}"
    );
    // The page's data: green with 2 lost is the command line's.
    let data = page_data(html);
    let values = data["open"][0]["values"].as_array().unwrap();
    let green = values.iter().position(|v| v == "green").unwrap();
    let answer = &data["answers"][green * 3 + 2];
    let want = crate::common::json_of(&[
        "rally",
        "--system",
        "rank-and-file",
        "--set",
        "class=green",
        "--set",
        "stands=6",
        "--set",
        "lost=2",
        "--exact-only",
        "--format",
        "json",
    ]);
    assert_eq!(
        answer["recovered"][0].as_f64(),
        want["outcomes"][0]["exact"].as_f64()
    );
    assert!(data["command"].as_str().unwrap().contains("--set stands=6"));
    // The form's value of a field left open (1 lost) is where the page opens; the page's
    // command line leaves that field to the page.
    assert_eq!(data["open"][1]["key"], "lost");
    assert_eq!(data["open"][1]["start"], 1);
    assert!(!data["command"].as_str().unwrap().contains("lost"));
    assert!(html.contains("<h1 id=\"title\">Green at 2 lost?</h1>"));
}

/// With profiles pinned, the page holds every profile side by side (the explorer's A against
/// B), the fields left open applying to each: each profile's answers are the command line's,
/// its own command line is on the page, and each state's chance after each turn rides along.
#[test]
fn the_page_publishes_every_profile_side_by_side() {
    let Some(chromium) = crate::browser::chromium("the_page_publishes_every_profile_side_by_side")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "publish-profiles");
    b.goto(&server.url("/?system=rank-and-file&scenario=rally&set=class%3Dgreen&name=Green&a.system=rank-and-file&a.name=Regular"));
    b.wait("document.getElementById('publish-add').options.length > 2 && !document.getElementById('publish-all-row').hidden");
    // The notes: one both profiles share is said once, bare; one of a profile's own once, with
    // its letter (a trial read the same note once a profile).
    b.wait(
        "[...document.querySelectorAll('#notes li')].some((l) => l.textContent.startsWith('B: '))",
    );
    let notes: Vec<String> = serde_json::from_value(
        b.eval("[...document.querySelectorAll('#notes li')].map((l) => l.textContent)"),
    )
    .unwrap();
    let shared: Vec<&String> = notes
        .iter()
        .filter(|n| n.contains("not modelled here"))
        .collect();
    assert_eq!(shared.len(), 1, "{notes:?}");
    assert!(shared[0].starts_with("not modelled here"), "{notes:?}");
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("A: at the start a test needs a natural 4+")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("B: at the start a test needs a natural 5+")),
        "{notes:?}"
    );
    // Every profile side by side is a page even with no field left open.
    assert_eq!(
        b.eval("document.getElementById('publish-run').disabled"),
        Value::Bool(false)
    );
    b.eval("(() => { const s = document.getElementById('publish-add'); s.value = 'lost'; s.dispatchEvent(new Event('change')); })()");
    b.eval("(() => { const e = document.getElementById('open-lost'); e.value = '0..1'; e.dispatchEvent(new Event('input')); })()");
    let got = downloaded(&mut b, "publish-run");
    let html = got[1].as_str().unwrap();
    let data = page_data(html);
    assert_eq!(data["open"][0]["flag"], "profile");
    assert_eq!(
        data["open"][0]["values"],
        serde_json::json!(["A (Regular)", "B (Green)"])
    );
    // What sets a profile apart is said with its name.
    assert!(
        data["open"][0]["words"][1]
            .as_str()
            .unwrap()
            .contains("Green troops"),
        "{}",
        data["open"][0]["words"]
    );
    assert!(
        data["commands"][1]
            .as_str()
            .unwrap()
            .contains("--set class=green")
    );
    assert!(
        !data["commands"][0]
            .as_str()
            .unwrap()
            .contains("class=green")
    );
    // B (Green) with 1 lost: profile-major, the last field turning fastest.
    let answer = &data["answers"][3];
    let want = crate::common::json_of(&[
        "rally",
        "--system",
        "rank-and-file",
        "--set",
        "class=green",
        "--set",
        "lost=1",
        "--exact-only",
        "--format",
        "json",
    ]);
    assert_eq!(
        answer["recovered"][0].as_f64(),
        want["outcomes"][0]["exact"].as_f64()
    );
    // The last turn's states, to the six decimals the page keeps.
    let table = want["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "per_turn")
        .unwrap();
    let last = table["rows"].as_array().unwrap().last().unwrap()["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["exact"].as_f64().unwrap())
        .collect::<Vec<_>>();
    let page_last = answer["_turns"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect::<Vec<_>>();
    assert_eq!(last.len(), page_last.len());
    for (x, y) in last.iter().zip(&page_last) {
        assert!((x - y).abs() <= 5e-7, "{last:?} against {page_last:?}");
    }
    assert_eq!(data["layers"][0]["head"], "recovered");
}

/// The README's permalink of its quick-start example opens the numbers the README prints.
#[test]
fn the_readmes_permalink_opens_the_readmes_numbers() {
    let Some(chromium) =
        crate::browser::chromium("the_readmes_permalink_opens_the_readmes_numbers")
    else {
        return;
    };
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let link = readme
        .split('`')
        .find(|s| s.starts_with("?system=rank-and-file&scenario=rally"))
        .expect("the README's permalink");
    let printed: Vec<&str> = readme
        .lines()
        .find(|l| l.starts_with("recovered  "))
        .expect("the README's printed outcomes")
        .split_whitespace()
        .collect();
    let (estimate, exact) = (printed[1], printed[4]);
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "readme");
    b.goto(&server.url(&format!("/{link}")));
    let shown = b
        .wait("(() => { const td = document.querySelector('tr[data-outcome=\"recovered\"] td.estimate'); return td && td.dataset.value ? Number(td.dataset.value) : null; })()")
        .as_f64()
        .unwrap();
    assert_eq!(format!("{shown:.6}"), estimate);
    assert_eq!(format!("{:.6}", shown_exact(&mut b, "recovered")), exact);
}

#[test]
fn the_page_works_in_a_real_browser() {
    let Some(chromium) = crate::browser::chromium("the_page_works_in_a_real_browser") else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "page");

    // A permalink opens the command line's numbers.
    b.goto(&server.url(&format!("/?{RALLY}&trials=20000&seed=5")));
    let want = cli(&["--exact-only"]);
    let recovered = shown_exact(&mut b, "recovered");
    assert_eq!(Some(recovered), want["outcomes"][0]["exact"].as_f64());
    // Monte Carlo follows, with the command line's estimates for that trials and seed.
    let estimate = b
        .wait("(() => { const td = document.querySelector('tr[data-outcome=\"recovered\"] td.estimate'); return td ? Number(td.dataset.value) : null; })()")
        .as_f64()
        .unwrap();
    let mc = cli(&["--trials", "20000", "--seed", "5"]);
    assert_eq!(Some(estimate), mc["outcomes"][0]["p"].as_f64());
    assert!(
        b.eval("document.querySelectorAll('#charts svg').length")
            .as_u64()
            > Some(0)
    );

    // Change a rule number: the exact value follows, as the command line gives it.
    type_into(&mut b, "rule.base_veteran", "4");
    b.wait("location.search.includes('rule=base_veteran%3D4')");
    b.wait("document.querySelector('[data-field=\"rule.base_veteran\"]').classList.contains('changed')");
    let want4 = cli(&["--exact-only", "--rule", "base_veteran=4"])["outcomes"][0]["exact"]
        .as_f64()
        .unwrap();
    b.wait(&format!(
        "(() => {{ const td = document.querySelector('tr[data-outcome=\"recovered\"] td.exact'); return td && Number(td.dataset.value) === {want4:?}; }})()"
    ));
    assert_ne!(want4, recovered);

    // Pin as A, change the rule back, compare: B − A is the exact difference with a test.
    b.eval("document.getElementById('pin').click()");
    b.wait("location.search.includes('a.rule=base_veteran%3D4')");
    type_into(&mut b, "rule.base_veteran", "");
    let exact_diff = recovered - want4;
    b.wait(&format!(
        "(() => {{ const tr = document.querySelector('tr[data-compare=\"recovered\"]'); return tr && tr.cells.length === 5 && Math.abs(Number(tr.cells[3].dataset.value) - {exact_diff:?}) < 1e-12; }})()"
    ));
    // Every difference is exact, so it decides: no test is asked of the estimates (no p-value
    // or "chance?" column), and the note says so; the interval stays as the simulation's check.
    assert_eq!(
        b.eval("[...document.querySelector('tr[data-compare=\"recovered\"]').closest('table').tHead.rows[0].cells].map((c) => c.textContent).slice(4)"),
        json!(["estimate's joint 95% interval"])
    );
    assert!(
        b.eval("[...document.querySelectorAll('#tables p.small')].some((p) => p.textContent.includes('Every difference here is exact and decides'))")
            == json!(true)
    );
    // Exact first: in A's, B's and the difference's cells the exact value is the number, in
    // bold, and the estimate its check beneath it.
    assert_eq!(
        b.eval("[1, 2, 3].map((i) => { const td = document.querySelector('tr[data-compare=\"recovered\"]').cells[i]; const ex = td.querySelector('.ex'); return td.classList.contains('exact') && Number(getComputedStyle(td).fontWeight) >= 600 && td.firstChild.nodeType === 3 && !!ex && ex.textContent.startsWith('estimate ') && Number(getComputedStyle(ex).fontWeight) < 600; })"),
        json!([true, true, true])
    );
    // The per-turn charts overlaid: a chart per state, A's and B's lines on each.
    assert!(
        b.eval("document.querySelectorAll('#charts figure[data-chart^=\"per_turn_\"]').length")
            .as_u64()
            >= Some(3)
    );
    // A long table's head stays in sight: scrolled past its top, the head sits under the
    // header and the action bar, not off the screen.
    let stuck = b.eval(
        "(() => { const t = [...document.querySelectorAll('#results .scroll.fits table')].filter((t) => t.tHead).sort((a, b) => b.offsetHeight - a.offsetHeight)[0]; if (!t) return 'no table that fits'; const cover = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--cover')); const th = t.tHead.rows[0].cells[0]; const into = Math.min(60, t.offsetHeight - 3 * th.offsetHeight); if (into < 10) return 'table too short: ' + t.offsetHeight; window.scrollTo(0, t.getBoundingClientRect().top + window.scrollY - cover + into); const r = [th.getBoundingClientRect().top, cover, t.getBoundingClientRect().top]; window.scrollTo(0, 0); return r; })()",
    );
    let s: Vec<f64> = stuck
        .as_array()
        .unwrap_or_else(|| panic!("{stuck}"))
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert!(
        s[2] < s[1] - 5.0 && (s[0] - s[1]).abs() < 2.0,
        "head at {}, cover {}, table top {}",
        s[0],
        s[1],
        s[2]
    );
    let link: String = b.eval("location.href").as_str().unwrap().to_string();
    let q = b.eval("query()");
    assert!(link.ends_with(q.as_str().unwrap()), "{link} vs {q}");
    let experiment = b
        .eval("(mcAnswer || exactAnswer).experiment")
        .as_str()
        .unwrap()
        .to_string();
    assert!(experiment.contains("name = \"A\"") && experiment.contains("base_veteran = 4"));

    // Opening that link again reproduces the comparison to the bit.
    let table = b
        .eval("document.getElementById('tables').textContent")
        .as_str()
        .unwrap()
        .to_string();
    b.goto(&link);
    b.wait("(() => { const tr = document.querySelector('tr[data-compare=\"recovered\"]'); return tr && tr.cells.length === 5; })()");
    assert_eq!(
        b.eval("document.getElementById('tables').textContent")
            .as_str()
            .unwrap(),
        table,
        "{link}"
    );

    // A bad value shows its message beside its field.
    b.goto(&server.url(&format!("/?{RALLY}")));
    shown_exact(&mut b, "recovered");
    type_into(&mut b, "set.stands", "99");
    let msg = b
        .wait("(() => { const m = document.querySelector('[data-field=\"set.stands\"] .msg'); return m && m.textContent; })()")
        .as_str()
        .unwrap()
        .to_string();
    // In the form's words: its label, what is allowed, what was typed.
    assert!(
        msg.starts_with("Stands: ") && msg.contains("from 1 to") && msg.ends_with("(not 99)"),
        "{msg}"
    );

    // An edited mechanic file with a syntax error shows its line.
    b.goto(&server.url("/?system=mechanics%2Fexamples%2Ffirst-rally.rhai&scenario=rally"));
    b.wait("!document.getElementById('editor').hidden && document.getElementById('code').value.length > 0");
    let line = b
        .eval("(() => { const c = document.getElementById('code'); const lines = c.value.split('\\n'); lines.splice(4, 0, 'fn broken( {'); c.value = lines.join('\\n'); document.getElementById('run-code').click(); return 5; })()")
        .as_u64()
        .unwrap();
    let shown = b
        .wait("document.getElementById('code-error').textContent")
        .as_str()
        .unwrap()
        .to_string();
    assert!(shown.contains(&format!("Line {line}")), "{shown}");
    // A working edit runs as a new system at once.
    b.eval("document.getElementById('reset-code').click()");
    b.wait("document.getElementById('code-error').textContent === '' && !!document.querySelector('td.exact[data-value]:not([data-value=\"\"])')");

    // A run is cancelled when its page goes away: a battle of 10^8 trials (minutes) started,
    // then the page left; the server drops the run within seconds.
    b.goto(&server.url("/?system=rank-and-file&scenario=line&trials=100000000&seed=1"));
    b.wait("document.getElementById('mc-only') !== null");
    b.eval("document.getElementById('run-mc').click()");
    let id = b.wait("runId").as_str().unwrap().to_string();
    // The page holds its run id before its request reaches the server: wait for the run.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, p) = get(&server.addr, &format!("/api/progress?run={id}"));
        if p["done"].is_u64() {
            break;
        }
        assert!(Instant::now() < deadline, "the run never started: {p}");
        std::thread::sleep(Duration::from_millis(50));
    }
    b.call("Page.navigate", json!({ "url": "about:blank" }));
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let (_, p) = get(&server.addr, &format!("/api/progress?run={id}"));
        if p["done"].is_null() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the run goes on after its page left: {p}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    if let Some(dir) = std::env::var_os("MORALE_LAB_SCREENSHOTS") {
        let dir = std::path::PathBuf::from(dir);
        // Three named profiles side by side: the same unit Veteran, Regular and Green.
        let unit = "set=stands%3D7&set=lost%3D1&set=state%3Drouting";
        b.goto(&server.url(&format!("/?system=rank-and-file&scenario=rally&set=class%3Dregular&{unit}&name=Regular&trials=1000000&seed=1&a.system=rank-and-file&a.name=Veteran&a.set=class%3Dveteran&{}&c.system=rank-and-file&c.name=Green&c.set=class%3Dgreen&{}", unit.replace("set=", "a.set="), unit.replace("set=", "c.set="))));
        b.wait("(() => { const tr = document.querySelector('tr[data-side=\"recovered\"]'); return !!mcAnswer && !!tr; })()");
        std::fs::write(dir.join("explorer-wide.png"), b.screenshot(1280, 800)).unwrap();
        // The phone's view as a phone opens it (its parts folded at that width).
        b.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": 400, "height": 860, "deviceScaleFactor": 1, "mobile": true }),
        );
        b.goto(&server.url("/?system=rank-and-file&scenario=rally&trials=1000000&seed=1"));
        b.wait("(() => { const td = document.querySelector('tr[data-outcome=\"recovered\"] td.estimate'); return td && td.dataset.value; })()");
        std::fs::write(dir.join("explorer-phone.png"), b.screenshot(400, 1300)).unwrap();
    }
}

/// Issue 54: at 1280×900 Run Monte Carlo, Stop, Pin as A and the progress sit above the
/// results and stay in sight (not covered) wherever the page is scrolled while results show.
#[test]
fn the_controls_stay_in_sight_beside_the_results() {
    let Some(chromium) = crate::browser::chromium("the_controls_stay_in_sight_beside_the_results")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "controls");
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
    );
    b.goto(&server.url(&format!("/?{RALLY}&trials=20000&seed=5")));
    shown_exact(&mut b, "recovered");
    b.wait("document.querySelectorAll('#charts svg').length > 0");
    let in_sight = "(() => ['run-mc', 'stop', 'pin', 'unpin', 'status'].map((id) => { const e = document.getElementById(id); const r = e.getBoundingClientRect(); const at = document.elementFromPoint(r.left + Math.min(r.width, 40) / 2, r.top + r.height / 2); return id + ':' + (r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && !!at && (at === e || e.contains(at))); }).join(' '))()";
    for scroll in [
        "0",
        "document.body.scrollHeight / 2",
        "document.body.scrollHeight",
    ] {
        b.eval(&format!("window.scrollTo(0, {scroll}); true"));
        let seen = b.eval(in_sight);
        let seen = seen.as_str().unwrap();
        assert!(!seen.contains("false"), "scrolled to {scroll}: {seen}");
    }
    assert!(
        b.eval("window.scrollY").as_f64().unwrap() > 0.0,
        "the page is taller than the window, so the check above scrolled"
    );
}

/// "Solve for" (issue 53): the page solves a number for a target, and shows what `balance`
/// gives from the command line; with A pinned, A's value as the target; a bad target is shown
/// at its field; a change of the view solves again.
#[test]
fn the_page_solves_for_a_number() {
    let Some(chromium) = crate::browser::chromium("the_page_solves_for_a_number") else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "solve");
    b.goto(&server.url(&format!("/?{RALLY}&trials=20000&seed=5")));
    shown_exact(&mut b, "recovered");
    // base_veteran for a target of one half: the command line's answer, value by value.
    let mut args = vec!["balance"];
    args.extend(RALLY_CLI);
    args.extend([
        "routing",
        "--solve",
        "base_veteran",
        "--target",
        "0.5",
        "--format",
        "json",
    ]);
    let want = json_of(&args);
    b.eval("document.getElementById('solve-key').value = 'base_veteran'");
    b.eval("document.getElementById('solve-target').value = '0.5'");
    b.eval("document.getElementById('solve-run').click()");
    let answer = b
        .wait("(() => { const p = document.querySelector('#solved p'); return p && p.textContent; })()")
        .as_str()
        .unwrap()
        .to_string();
    // The command line's crossing, in the page's words; every value it tried, a row.
    let crossing = &want["crossings"][0];
    assert!(
        answer.contains(&format!(
            "Veteran base number {}",
            crossing["below"]["value"].as_str().unwrap()
        )),
        "{answer} / {crossing}"
    );
    let rows = b
        .eval("document.querySelectorAll('#solved tbody tr').length")
        .as_u64();
    assert_eq!(rows, Some(want["points"].as_array().unwrap().len() as u64));
    assert_eq!(
        b.eval("document.querySelectorAll('#solved svg').length")
            .as_u64(),
        Some(1)
    );
    let command = b
        .eval("document.querySelector('#solved pre').textContent")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        command.starts_with("morale-lab balance rally --system rank-and-file")
            && command.contains("--solve base_veteran"),
        "{command}"
    );

    // Pin as A, named on its chip as it is pinned (issue 76), make B Green: A's value is the
    // target, B alone is solved.
    b.eval("document.getElementById('pin').click()");
    b.wait("location.search.includes('a.set=')");
    assert_eq!(
        b.eval("document.activeElement.classList.contains('chip-name') && document.activeElement.dataset.label"),
        json!("A")
    );
    b.call("Input.insertText", json!({ "text": "Veteran" }));
    press(&mut b, "Enter", 13);
    b.wait(
        "location.search.includes('a.name=Veteran') && !document.querySelector('input.chip-name')",
    );
    assert_eq!(
        b.eval("document.querySelector('#profile-list button.pick[data-label=\"A\"]').textContent"),
        json!("A · Veteran (base)")
    );
    type_into(&mut b, "set.class", "green");
    b.wait("location.search.includes('set=class%3Dgreen')");
    // The solve follows the view, as an exact sweep does (explorer trial 60 lost its answer
    // adding a profile): the Green view is solved for the Veteran base number again, and the
    // link keeps it.
    b.wait("!!mcAnswer && mcAnswer.query.includes('set=class%3Dgreen')");
    b.wait("location.search.includes('&solve=base_veteran&target=0.5') && [...document.querySelectorAll('#solved h2')].some((h) => h.textContent.includes('Veteran base number'))");
    // The button beside the field asks at once, with a profile pinned: meet A (a trial pressed
    // it and waited).
    b.eval("document.querySelector('[data-field=\"rule.base_green\"] .solve-here').click()");
    assert_eq!(
        b.eval("[document.getElementById('solve-key').value, document.getElementById('solve-target').value]"),
        json!(["base_green", "A"])
    );
    let heading = b
        .wait("(() => { const h = document.querySelector('#solved h2'); return h && h.textContent.includes('Green base number') && h.textContent; })()")
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(heading, "What Green base number makes B fair");
    assert_eq!(
        b.eval("document.querySelectorAll('#solved h2').length")
            .as_u64(),
        Some(1)
    );
    // A Veteran's base number is 3: a Green one reaching it exactly is base_green = 3.
    let answer = b
        .eval("document.querySelector('#solved p').textContent")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        answer.contains("at Green base number 3, exactly"),
        "{answer}"
    );
    // Its command line names A by its setting (`--against`), not by A's value as a number, and
    // gives the same answer.
    let command = b
        .eval("document.querySelector('#solved pre').textContent")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        command.contains(" --against class=veteran") && !command.contains("--target"),
        "{command}"
    );
    let words: Vec<&str> = command.split_whitespace().skip(1).collect();
    let out = Command::new(assert_cmd::cargo::cargo_bin("morale-lab"))
        .args(&words)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{command}");
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (&cli["crossings"][0]["root"], &cli["crossings"][0]["hit"]),
        (&json!(3.0), &json!(true)),
        "{cli}"
    );
    // The link holds the solve: opened again, it solves again.
    b.wait("location.search.includes('&solve=base_green&target=A')");
    let link = b.eval("location.href").as_str().unwrap().to_string();
    b.goto(&link);
    let again = b
        .wait("(() => { const p = document.querySelector('#solved p'); return p && p.textContent; })()")
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(again, answer);
    assert_eq!(
        b.eval("[document.getElementById('solve-key').value, document.getElementById('solve-target').value, location.href]"),
        json!(["base_green", "A", link])
    );
    // A number as the target: the Green base number cannot move A (a Veteran unit), so A
    // is named in one line after B's answer, not searched in a table of its own.
    b.eval("document.getElementById('solve-target').value = '0.5'");
    b.eval("document.getElementById('solve-run').click()");
    let unmoved = b
        .wait("(() => { const p = document.getElementById('solve-unmoved'); return p && p.textContent; })()")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        unmoved.starts_with("A (Veteran): Green base number does not change it: ")
            && unmoved.contains("at every value from"),
        "{unmoved}"
    );
    assert_eq!(
        b.eval("[[...document.querySelectorAll('#solved h2')].map((h) => h.textContent), document.querySelectorAll('#solved table').length, document.querySelector('#solved').lastElementChild.id]"),
        json!([["What Green base number makes B fair"], 1, "solve-unmoved"])
    );
    b.wait("location.search.includes('&solve=base_green&target=0.5')");
    if let Some(dir) = std::env::var_os("MORALE_LAB_SCREENSHOTS") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::write(dir.join("explorer-solve.png"), b.screenshot(1280, 900)).unwrap();
        b.eval("document.querySelector('[data-field=\"rule.base_green\"]').scrollIntoView()");
        std::fs::write(
            dir.join("explorer-solve-fields.png"),
            b.screenshot(1280, 900),
        )
        .unwrap();
    }

    // A target that is no number, at its field.
    b.eval("document.getElementById('solve-target').value = 'half'");
    b.eval("document.getElementById('solve-run').click()");
    let msg = b
        .wait("(() => { const m = document.querySelector('[data-field=\"solve.target\"] .msg'); return m && m.textContent; })()")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        msg.contains("(not half)") && msg.contains("a number"),
        "{msg}"
    );
    // The results stand for the view as it is: a bad Solve box does not dim them.
    assert_eq!(
        b.eval("document.getElementById('tables').classList.contains('stale') || !document.getElementById('stale-note').hidden"),
        json!(false)
    );
}

/// The server's resident memory now and at its peak, in MiB (Linux).
fn rss_mib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let field = |name: &str| -> u64 {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|k| k.parse::<u64>().ok())
            .unwrap()
            / 1024
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// POST `body` to `path` with the page's token: the status and the answer's length.
fn post_body(addr: &str, path: &str, body: &[u8]) -> (u16, usize) {
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nX-Morale-Lab-Token: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        token(addr),
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    let (status, answer) = raw(addr, &request);
    (status, answer.len())
}

/// The user's guide's ceiling on the server's memory holds: after 100 edits of the largest size
/// taken (each a distinct text of some 1,800 functions, the least recently used unloaded past
/// 32) and 300 requests of 2 MiB whose answers are over 8 MB each, the peak stays under it.
#[test]
#[ignore = "long tier: cargo test -- --ignored"]
fn the_servers_memory_stays_under_its_ceiling() {
    const CEILING_MIB: u64 = 512;
    let server = Server::start(&[]);
    let addr = server.addr.clone();
    let pid = server.child.id();
    let base = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("mechanics/examples/first-rally.rhai"),
    )
    .unwrap();
    let mut pad = String::new();
    let mut i = 0;
    while base.len() + pad.len() < (128 << 10) - 200 {
        pad += &format!(
            "fn pad{i}(x) {{ let y = x * {i}; if y > 3 {{ y - 1 }} else {{ y + {i} }} }}\n"
        );
        i += 1;
    }
    for k in 0..100 {
        let code = format!("// edit {k}\n{base}{pad}");
        let body = format!(
            "system=mechanics%2Fexamples%2Ffirst-rally.rhai&scenario=rally&mode=exact&code={}",
            morale_lab::explorer::view::encode(&code)
        );
        let (status, _) = post_body(&addr, "/api/run", body.as_bytes());
        assert_eq!(status, 200, "edit {k}");
    }
    let after_edits = rss_mib(pid);
    let option = "option=keep-broken-units&";
    let big = format!(
        "system=rank-and-file&scenario=rally&mode=exact&{}",
        option.repeat(((2 << 20) - 200) / option.len())
    );
    for k in 0..300 {
        let (status, len) = post_body(&addr, "/api/run", format!("{big}seed={k}").as_bytes());
        assert_eq!(status, 200, "request {k}");
        assert!(len > 8_000_000, "{len}");
    }
    let after_requests = rss_mib(pid);
    eprintln!(
        "server memory (MiB, now and peak): after 100 edits {after_edits:?}, after 300 requests of 2 MiB {after_requests:?}"
    );
    assert!(
        after_requests.1 < CEILING_MIB,
        "peak {} MiB",
        after_requests.1
    );
}

/// Idle connections past the server's limit are closed oldest first, so a new client still
/// gets its answer at once.
#[test]
fn idle_connections_do_not_lock_a_new_client_out() {
    let server = Server::start(&[]);
    let addr = server.addr.clone();
    let _ = token(&addr);
    let idle: Vec<TcpStream> = (0..600)
        .map(|_| TcpStream::connect(&addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let (status, v) = get(&addr, "/api/systems");
    assert_eq!(status, 200, "{v}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );
    drop(idle);
}

/// Issue 54: each settled change is a history entry, so the browser's Back undoes exactly one
/// change in place (no page load) and Forward redoes it; pinning is a change like any other.
#[test]
fn back_undoes_one_change_in_place() {
    let Some(chromium) = crate::browser::chromium("back_undoes_one_change_in_place") else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "back");
    b.goto(&server.url(&format!("/?{RALLY}&trials=20000&seed=5")));
    let seven = shown_exact(&mut b, "recovered");
    // A mark on the window: a page load would lose it.
    b.eval("window.sameLoad = true; history.length");
    let at_open = b.eval("history.length").as_u64().unwrap();
    let want = |b: &mut Browser, stands: &str, value: f64| {
        b.wait(&format!(
            "(() => {{ const el = document.querySelector('[data-field=\"set.stands\"] input'); const td = document.querySelector('tr[data-outcome=\"recovered\"] td.exact'); return el.value === {stands:?} && td && td.dataset.value !== '' && Number(td.dataset.value) === {value:?}; }})()"
        ));
    };
    // Typing "8" then "5" in one pause is one change.
    type_into(&mut b, "set.stands", "8");
    type_into(&mut b, "set.stands", "5");
    b.wait("location.search.includes('stands%3D5')");
    // The address changes as the edit settles, the answer a moment later: wait for the
    // command line's own exact value at 5 stands.
    let five = json_of(&[
        "rally",
        "--system",
        "rank-and-file",
        "--class",
        "veteran",
        "--stands",
        "5",
        "--lost",
        "2",
        "--state",
        "routing",
        "--exact-only",
        "--format",
        "json",
    ])["outcomes"][0]["exact"]
        .as_f64()
        .unwrap();
    assert_ne!(five, seven);
    want(&mut b, "5", five);
    assert_eq!(b.eval("history.length").as_u64(), Some(at_open + 1));
    // A second change: a rule number.
    type_into(&mut b, "rule.base_veteran", "4");
    b.wait("location.search.includes('base_veteran%3D4')");
    b.eval("history.back()");
    b.wait("!location.search.includes('base_veteran') && document.querySelector('[data-field=\"rule.base_veteran\"] input').value === ''");
    want(&mut b, "5", five);
    b.eval("history.back()");
    b.wait("location.search.includes('stands%3D7')");
    want(&mut b, "7", seven);
    assert_eq!(
        b.eval("window.sameLoad === true"),
        json!(true),
        "Back loaded the page again"
    );
    // Forward redoes it; pinning is undone like a value.
    b.eval("history.forward()");
    want(&mut b, "5", five);
    b.eval("document.getElementById('pin').click()");
    b.wait("location.search.includes('a.set=')");
    b.wait("!!document.querySelector('tr[data-compare=\"recovered\"]')");
    b.eval("history.back()");
    b.wait("!location.search.includes('a.set=') && document.getElementById('unpin').disabled && !document.querySelector('tr[data-compare]')");
    want(&mut b, "5", five);
    assert_eq!(b.eval("window.sameLoad === true"), json!(true));
}

/// Issue 54: a link holding a 50 KB edited mechanic file opens the page with that file (the
/// text rides in the link's fragment, which the browser never sends), and the page's own link
/// after an edit keeps the code out of the request.
#[test]
fn a_link_with_a_large_edited_file_opens() {
    let Some(chromium) = crate::browser::chromium("a_link_with_a_large_edited_file_opens") else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "large-edit");
    let system = "mechanics%2Fexamples%2Ffirst-rally.rhai";
    b.goto(&server.url(&format!("/?system={system}&scenario=rally")));
    let saved = first_exact(&mut b);
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/mechanics/examples/first-rally.rhai"
    ))
    .unwrap();
    // The saved file with helper functions nobody calls, past 50 KB: the same numbers.
    let mut edited = text.clone();
    let mut i = 0;
    while edited.len() < 50 * 1024 {
        edited += &format!(
            "\n// helper {i}: kept for a later rule\nfn unused_{i}(x) {{ if x > {i} {{ x - 1 }} else {{ x + 1 }} }}\n"
        );
        i += 1;
    }
    let fragment = format!("code={}", morale_lab::explorer::view::encode(&edited));
    let url = server.url(&format!("/?system={system}&scenario=rally#{fragment}"));
    assert!(url.len() > 60 * 1024, "{}", url.len());
    b.goto(&url);
    b.wait(&format!(
        "document.getElementById('code').value.length === {}",
        edited.len()
    ));
    assert_eq!(
        b.eval("document.getElementById('code').value"),
        json!(edited)
    );
    b.wait("document.getElementById('code-path').textContent.includes('edited')");
    assert_eq!(first_exact(&mut b), saved);
    assert_eq!(
        b.eval("document.getElementById('error').hidden"),
        json!(true)
    );
    // The page's own link: settings in the query, the edit in the fragment, as the lines that
    // differ from the file as saved (the helpers added), not the whole text again.
    b.wait("location.hash.startsWith('#patch=')");
    let hash_len = b.eval("location.hash.length").as_u64().unwrap() as usize;
    assert!(
        hash_len < fragment.len() - text.len() / 2,
        "{hash_len} of {}",
        fragment.len()
    );
    assert!(
        !b.eval("location.search")
            .as_str()
            .unwrap()
            .contains("code=")
    );
    // An edit made on the page goes to the fragment too, and opens again from it.
    b.eval("(() => { const c = document.getElementById('code'); c.value = c.value + '\\n// one more line\\n'; document.getElementById('run-code').click(); })()");
    b.wait("decodeURIComponent(location.hash).includes('one more line')");
    let link = b.eval("location.href").as_str().unwrap().to_string();
    b.call("Page.navigate", json!({ "url": "about:blank" }));
    b.wait("location.href === 'about:blank'");
    b.goto(&link);
    b.wait("document.getElementById('code').value.includes('one more line')");
    assert_eq!(first_exact(&mut b), saved);
}

/// A number changed on line 30 of a long file makes a short link (the changed line against the
/// saved file's hash, where the whole text made 34,000 characters, issue 76), which opens with
/// the edit; a link made against another version of the file opens it as saved, and says so.
#[test]
fn an_edit_of_a_long_file_makes_a_short_link() {
    let Some(chromium) = crate::browser::chromium("an_edit_of_a_long_file_makes_a_short_link")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "short-link");
    let system = "mechanics%2Fexamples%2Ffirst-rally.rhai";
    b.goto(&server.url(&format!("/?system={system}&scenario=rally")));
    let saved = first_exact(&mut b);
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/mechanics/examples/first-rally.rhai"
    ))
    .unwrap();
    // A comment added after line 30: the same numbers, a different text.
    let mut lines: Vec<&str> = text.split('\n').collect();
    assert!(lines.len() > 40);
    lines.insert(30, "// a note of the designer's");
    let edited = lines.join("\n");
    b.eval(&format!(
        "(() => {{ const c = document.getElementById('code'); c.value = {}; c.dispatchEvent(new Event('input')); document.getElementById('run-code').click(); }})()",
        serde_json::to_string(&edited).unwrap()
    ));
    b.wait("location.hash.startsWith('#patch=')");
    // The changed line is marked as it is typed, not only when a link brings it (phone trial
    // 76, third round).
    b.wait("document.querySelectorAll('#code-hl .editline').length === 1 && document.querySelector('#code-hl .editline').textContent.includes('a note of the designer')");
    let link = b.eval("location.href").as_str().unwrap().to_string();
    let fragment = link.split_once('#').unwrap().1.to_string();
    assert!(fragment.len() < 120, "{fragment}");
    assert_eq!(first_exact(&mut b), saved);
    b.call("Page.navigate", json!({ "url": "about:blank" }));
    b.wait("location.href === 'about:blank'");
    b.goto(&link);
    b.wait("document.getElementById('code-path').textContent.includes('edited')");
    assert_eq!(
        b.eval("document.getElementById('code').value"),
        json!(edited)
    );
    // The changed line is marked, and the editor opens on it (explorer trial 63 found the
    // editor at line 1, the change off screen).
    b.wait("document.querySelectorAll('#code-hl .editline').length === 1 && document.querySelector('#code-hl .editline').textContent.includes('a note of the designer') && document.getElementById('code').scrollTop > 0");
    assert_eq!(first_exact(&mut b), saved);
    assert_eq!(
        b.eval("document.getElementById('disk-note').hidden"),
        json!(true)
    );
    // Against another version of the file: opened as saved, and said.
    let (head, rest) = fragment.split_once('.').unwrap();
    let stale = link.replace(&format!("#{fragment}"), &format!("#{}x.{rest}", head));
    b.call("Page.navigate", json!({ "url": "about:blank" }));
    b.wait("location.href === 'about:blank'");
    b.goto(&stale);
    let note = b
        .wait("(() => { const n = document.getElementById('disk-note'); return !n.hidden && n.textContent; })()")
        .as_str()
        .unwrap()
        .to_string();
    assert!(note.contains("another version of the file"), "{note}");
    assert_eq!(b.eval("document.getElementById('code').value"), json!(text));
    assert_eq!(first_exact(&mut b), saved);
}

/// The first exact value the page shows (whatever the outcomes are called).
fn first_exact(b: &mut Browser) -> f64 {
    b.wait("(() => { const td = document.querySelector('tr[data-outcome] td.exact'); return td && td.dataset.value ? Number(td.dataset.value) : null; })()")
        .as_f64()
        .unwrap()
}

/// Issue 54, the editor: line numbers and highlighting; an edit runs as typing pauses; the
/// command box reproduces the edited file's numbers once the file is saved where it says; a
/// compile error is shown at its line with the old results dimmed; the file downloads; a blank
/// template runs as it is, with exact fractions.
#[test]
fn the_editor_runs_as_you_type_and_reproduces_from_the_command_line() {
    let Some(chromium) = crate::browser::chromium(
        "the_editor_runs_as_you_type_and_reproduces_from_the_command_line",
    ) else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "editor");
    b.goto(&server.url(
        "/?system=mechanics%2Fexamples%2Ffirst-rally.rhai&scenario=rally&trials=20000&seed=3",
    ));
    let saved = first_exact(&mut b);
    // The file by its title in the list of systems.
    assert_eq!(
        b.eval("(() => { const s = document.getElementById('system'); return s.options[s.selectedIndex].text; })()"),
        json!("A first mechanic: a shaken unit rallies (first-rally.rhai)")
    );
    // A line number for each line; keywords, strings and comments marked.
    let lines = b
        .eval("document.getElementById('code').value.split('\\n').length")
        .as_u64()
        .unwrap();
    assert_eq!(
        b.eval("document.getElementById('gutter').textContent.trim().split('\\n').length")
            .as_u64(),
        Some(lines)
    );
    assert!(
        b.eval("document.querySelectorAll('#code-hl .k').length")
            .as_u64()
            > Some(10)
    );
    assert!(
        b.eval("document.querySelectorAll('#code-hl .c').length")
            .as_u64()
            > Some(3)
    );
    assert_eq!(
        b.eval("document.getElementById('code-hl').textContent === document.getElementById('code').value + '\\n '"),
        json!(true),
        "the highlighted text is the text"
    );
    // Typing: the rally number from 4 to 5, and no click; the numbers follow.
    let type_code = |b: &mut Browser, js: &str| {
        b.eval(&format!("(() => {{ const c = document.getElementById('code'); c.focus(); c.value = ({js})(c.value); c.dispatchEvent(new Event('input', {{ bubbles: true }})); }})()"));
    };
    type_code(
        &mut b,
        "(t) => t.replace('value: 4,\\n           meaning: \"the roll', 'value: 5,\\n           meaning: \"the roll')",
    );
    let five = b
        .wait(&format!("(() => {{ const td = document.querySelector('tr[data-outcome] td.exact'); return td && td.dataset.value && Number(td.dataset.value) !== {saved:?} ? Number(td.dataset.value) : null; }})()"))
        .as_f64()
        .unwrap();
    assert!(five < saved, "{five} {saved}");
    b.wait("location.hash.startsWith('#patch=')");
    // The command box: save the edit where it says, and the command line gives the page's numbers.
    let estimate = b
        .wait("(() => { const td = document.querySelector('tr[data-outcome] td.estimate'); return td && td.dataset.value ? Number(td.dataset.value) : null; })()")
        .as_f64()
        .unwrap();
    let command = b
        .eval("document.getElementById('command').textContent")
        .as_str()
        .unwrap()
        .to_string();
    let mut it = command.lines();
    assert_eq!(
        it.next(),
        Some(
            "# first save the edited file (Download the edited file) as mechanics/examples/first-rally-edited.rhai"
        ),
        "{command}"
    );
    let run = it.next().unwrap();
    assert!(!command.contains(".edited-"), "{command}");
    let dir = std::env::temp_dir().join(format!("morale-lab-editor-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("mechanics/examples")).unwrap();
    let text = b.eval("document.getElementById('code').value");
    std::fs::write(
        dir.join("mechanics/examples/first-rally-edited.rhai"),
        text.as_str().unwrap(),
    )
    .unwrap();
    let out = Command::new(assert_cmd::cargo::cargo_bin("morale-lab"))
        .args(run.split_whitespace().skip(1))
        .args(["--format", "json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(cli["outcomes"][0]["exact"].as_f64(), Some(five), "{run}");
    assert_eq!(cli["outcomes"][0]["p"].as_f64(), Some(estimate), "{run}");
    // The download: the edited text under the name the command uses.
    let got = downloaded(&mut b, "dl-code");
    assert_eq!(got[0], json!("first-rally-edited.rhai"));
    assert_eq!(got[1], text);
    // A compile error: its line in the gutter, the message, the old results dimmed.
    type_code(
        &mut b,
        "(t) => { const l = t.split('\\n'); l.splice(6, 0, 'fn broken( {'); return l.join('\\n'); }",
    );
    let shown = b
        .wait("document.getElementById('code-error').textContent")
        .as_str()
        .unwrap()
        .to_string();
    assert!(shown.contains("Line 7"), "{shown}");
    assert_eq!(
        b.wait("(() => { const e = document.querySelector('#gutter .err'); return e && e.textContent; })()"),
        json!("7")
    );
    // The address is the page's link, the text that does not load included (issue 76).
    b.wait("decodeURIComponent(location.hash).includes('fn broken( {')");
    assert_eq!(
        b.eval("location.search + location.hash === link()"),
        json!(true)
    );
    assert_eq!(
        b.eval("document.getElementById('tables').classList.contains('stale') && !document.getElementById('stale-note').hidden && document.querySelectorAll('tr[data-outcome]').length > 0"),
        json!(true)
    );
    // A blank template runs as it is: six tries at 4+, exact with its fraction.
    b.eval("document.getElementById('blank-code').click()");
    b.wait("(() => { const td = document.querySelector('tr[data-outcome=\"passed\"] td.exact'); return td && td.textContent === '98.44% (63/64)'; })()");
    assert_eq!(
        b.eval("document.getElementById('tables').classList.contains('stale') || !document.getElementById('stale-note').hidden || !!document.querySelector('#gutter .err')"),
        json!(false)
    );
}

/// The first rally padded with comment lines so that the rally number (`value: 4,` of
/// `rally_on`) sits on line `at`, the file `lines` long at least.
fn long_first_rally(at: usize, lines: usize) -> String {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/mechanics/examples/first-rally.rhai"
    ))
    .unwrap();
    let mut out: Vec<String> = text.lines().map(str::to_string).collect();
    let i = out
        .iter()
        .position(|l| l.contains("key: \"rally_on\""))
        .unwrap();
    assert!(out[i].ends_with("value: 4,"), "{}", out[i]);
    assert!(i < at);
    for k in 0..at - 1 - i {
        out.insert(
            i,
            format!("// a note kept for a later rule, {k} of {}", at - 1 - i),
        );
    }
    while out.len() < lines {
        out.push(format!("// the end of the file, line {}", out.len() + 1));
    }
    assert!(out[at - 1].contains("key: \"rally_on\""));
    out.join("\n") + "\n"
}

/// A mechanic file's first exact value from the command line.
fn cli_first_exact(text: &str, tag: &str) -> f64 {
    let dir = std::env::temp_dir().join(format!("morale-lab-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("long-rally.rhai");
    std::fs::write(&file, text).unwrap();
    let v = json_of(&[
        "rally",
        "--system",
        &file.to_string_lossy(),
        "--exact-only",
        "--format",
        "json",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    v["outcomes"][0]["exact"].as_f64().unwrap()
}

/// A left click at (x, y) in the page's viewport, as the mouse makes it.
fn click_at(b: &mut Browser, x: f64, y: f64) {
    for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
        b.call(
            "Input.dispatchMouseEvent",
            json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
        );
    }
}

/// A key pressed and released (Backspace, End …), as the keyboard sends it.
fn press(b: &mut Browser, key: &str, code: u32) {
    for kind in ["rawKeyDown", "keyUp"] {
        b.call(
            "Input.dispatchKeyEvent",
            json!({ "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code }),
        );
    }
}

/// Wait until `js` gives the same value twice, 150 ms apart (a smooth scroll has ended).
fn settled(b: &mut Browser, js: &str) {
    let mut last = b.eval(js);
    for _ in 0..100 {
        std::thread::sleep(Duration::from_millis(150));
        let now = b.eval(js);
        if now == last {
            return;
        }
        last = now;
    }
    panic!("{js} never settled");
}

/// Where line `line` of the editor is on the screen (its middle, `x` px into the text area),
/// after the editor's own scrolling: `[x, y, visible]`.
/// The explorer on `first-rally.rhai` with `text` in its editor (the link's whole text), once
/// the editor holds it.
fn open_first_rally_with(b: &mut Browser, server: &Server, text: &str) {
    b.goto(&server.url(&format!(
        "/?system=mechanics%2Fexamples%2Ffirst-rally.rhai&scenario=rally&trials=20000&seed=3#code={}",
        morale_lab::explorer::view::encode(text)
    )));
    b.wait(&format!(
        "document.getElementById('code').value.length === {}",
        text.len()
    ));
}

fn line_on_screen(b: &mut Browser, line: usize, x: f64) -> Value {
    b.eval(&format!(
        "(() => {{ const c = document.getElementById('code'), r = c.getBoundingClientRect(), st = getComputedStyle(c); const lh = parseFloat(st.lineHeight), y = r.top + parseFloat(st.paddingTop) + ({line} - 1) * lh - c.scrollTop + lh / 2; return [r.left + {x}, y, y - lh / 2 >= r.top && y + lh / 2 <= r.top + c.clientHeight]; }})()"
    ))
}

/// Phone trial 110: on a phone a long line wraps in the editor, as a phone's editors do; the
/// highlighted text wraps with it at the same width, each line's number stands as tall as its
/// wrapped line (so the numbers below a long line stay beside their lines), and a tap on a
/// line's number puts the caret at that line.
#[test]
fn long_lines_wrap_in_the_phone_editor_with_their_numbers_beside_them() {
    let Some(chromium) = crate::browser::chromium(
        "long_lines_wrap_in_the_phone_editor_with_their_numbers_beside_them",
    ) else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "phone-wrap");
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true }),
    );
    // A comment line of some 170 characters, early in the file (five rows at 14 px, so that
    // line 3 is still in the editor's view).
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("mechanics/examples/first-rally.rhai"),
    )
    .unwrap();
    let long = format!("// {}\n", "a long comment that runs on ".repeat(6));
    let text = format!("{long}{text}");
    open_first_rally_with(&mut b, &server, &text);
    b.wait("document.getElementById('code-hl').children.length > 10");
    let v = b.eval("(() => { const c = document.getElementById('code'), h = document.getElementById('code-hl'), g = document.getElementById('gutter'); const rows = [...h.children], nums = [...g.children]; return { wrap: c.getAttribute('wrap'), sideways: c.scrollWidth > c.clientWidth + 1, first: rows[0].offsetHeight, line: parseFloat(getComputedStyle(c).lineHeight), tops: [1, 2, 5, 20].map((i) => [rows[i].getBoundingClientRect().top, nums[i].getBoundingClientRect().top]), heights: rows.slice(0, 30).every((r, i) => Math.abs(r.getBoundingClientRect().height - nums[i].getBoundingClientRect().height) < 0.5), sameWidth: h.clientWidth === c.clientWidth }; })()");
    assert_eq!(v["wrap"], json!("soft"), "{v}");
    assert_eq!(v["sideways"], json!(false), "no sideways scrolling: {v}");
    let (first, line) = (v["first"].as_f64().unwrap(), v["line"].as_f64().unwrap());
    assert!(first > 3.0 * line, "the long line wraps: {v}");
    assert_eq!(v["heights"], json!(true), "{v}");
    assert_eq!(v["sameWidth"], json!(true), "{v}");
    for t in v["tops"].as_array().unwrap() {
        let (row, num) = (t[0].as_f64().unwrap(), t[1].as_f64().unwrap());
        assert!((row - num).abs() < 0.5, "a number beside its line: {v}");
    }
    // The textarea wraps where the highlighted copy does: the caret at the start of line 3
    // stands where line 3's colours are (measured by a mirror of the textarea's text).
    let caret = b.eval("(() => { const c = document.getElementById('code'), h = document.getElementById('code-hl'); const m = document.createElement('div'); const cs = getComputedStyle(c); for (const k of ['font', 'whiteSpace', 'overflowWrap', 'padding', 'boxSizing', 'tabSize', 'lineHeight', 'letterSpacing']) m.style[k] = cs[k]; m.style.width = c.clientWidth + 'px'; m.style.position = 'absolute'; m.style.visibility = 'hidden'; const lines = c.value.split('\\n'); m.textContent = lines.slice(0, 2).join('\\n') + '\\n'; const mark = document.createElement('span'); mark.textContent = 'x'; m.append(mark); document.body.append(m); const y = mark.offsetTop; m.remove(); return [y, h.children[2].offsetTop]; })()");
    let (y, row) = (caret[0].as_f64().unwrap(), caret[1].as_f64().unwrap());
    // Within a pixel or two (whole-pixel offsets of 16.8 px lines); a line wrapped apart
    // would be a whole line, 16.8 px, off.
    assert!((y - row).abs() < 2.0, "{caret}");
    // A tap on line 3's number puts the caret at the start of line 3.
    b.eval("(() => { const c = document.getElementById('code'); c.scrollTop = 0; c.dispatchEvent(new Event('scroll')); c.closest('.code-wrap').scrollIntoView({ block: 'center' }); return 0; })()");
    settled(&mut b, "scrollY");
    let at = b.eval("(() => { const r = document.getElementById('gutter').children[2].getBoundingClientRect(); return [r.left + 5, r.top + r.height / 2]; })()");
    click_at(&mut b, at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    let caret = b.eval("(() => { const c = document.getElementById('code'); return [c.selectionStart, c.value.split('\\n').slice(0, 2).join('\\n').length + 1]; })()");
    assert_eq!(caret[0], caret[1], "{caret}");
}

/// Issue 76: the editor works over the whole of a long file, not only its first twenty lines:
/// the wheel scrolls the text, its colours and its line numbers together; a click at line 300
/// puts the caret there; typing there changes the answer to the command line's for the changed
/// file.
#[test]
fn the_editor_works_on_every_line_of_a_long_file() {
    let Some(chromium) = crate::browser::chromium("the_editor_works_on_every_line_of_a_long_file")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "long-file");
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
    );
    let text = long_first_rally(300, 340);
    let saved = cli_first_exact(&text, "long-saved");
    let changed = text.replacen(
        "max: 7, value: 4,\n           meaning: \"the roll",
        "max: 7, value: 5,\n           meaning: \"the roll",
        1,
    );
    assert_ne!(changed, text);
    let want = cli_first_exact(&changed, "long-changed");
    assert_ne!(want, saved);
    open_first_rally_with(&mut b, &server, &text);
    assert_eq!(first_exact(&mut b), saved);
    // The editor has a height of its own, well inside the window; the text scrolls inside it.
    let (height, scroll) = {
        let v = b.eval("(() => { const c = document.getElementById('code'); return [c.clientHeight, c.scrollHeight]; })()");
        (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
    };
    assert!(
        (300.0..=700.0).contains(&height) && scroll > 5.0 * height,
        "{height} {scroll}"
    );
    // The highlighted text and the line numbers are no taller than the textarea's client area.
    assert_eq!(
        b.eval("(() => { const c = document.getElementById('code'), h = document.getElementById('code-hl'), g = document.getElementById('gutter'); return h.clientHeight === c.clientHeight && h.clientWidth === c.clientWidth && g.clientHeight === c.clientHeight; })()"),
        json!(true)
    );
    // The editor in the window, then the wheel over it until line 300 shows.
    b.eval("document.getElementById('code').scrollIntoView({ block: 'end' }); true");
    let mut seen = json!(false);
    for _ in 0..40 {
        seen = line_on_screen(&mut b, 300, 200.0);
        if seen[2] == json!(true) {
            break;
        }
        let r = b.eval("(() => { const r = document.getElementById('code').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()");
        let before = b.eval("document.getElementById('code').scrollTop");
        b.call(
            "Input.dispatchMouseEvent",
            json!({ "type": "mouseWheel", "x": r[0], "y": r[1], "deltaX": 0, "deltaY": 300 }),
        );
        b.wait(&format!(
            "document.getElementById('code').scrollTop !== {before}"
        ));
        settled(&mut b, "document.getElementById('code').scrollTop");
    }
    assert_eq!(seen[2], json!(true), "line 300 never came into view");
    // The wheel scrolled the textarea, and the colours and numbers followed it.
    b.wait("(() => { const c = document.getElementById('code'); return c.scrollTop > 0 && document.getElementById('code-hl').scrollTop === c.scrollTop && document.getElementById('gutter').scrollTop === c.scrollTop; })()");
    // Line 300's number stands beside it.
    let (x, y) = (seen[0].as_f64().unwrap(), seen[1].as_f64().unwrap());
    let number = b.eval(&format!(
        "(() => {{ const g = document.getElementById('gutter'), r = g.getBoundingClientRect(), lh = parseFloat(getComputedStyle(g).lineHeight); return Math.floor(({y} - r.top - parseFloat(getComputedStyle(g).paddingTop) + g.scrollTop) / lh) + 1; }})()"
    ));
    assert_eq!(number, json!(300));
    // What is under line 300 is the textarea (nothing covers it), and a click there puts the
    // caret on it: past the end of its text, at its end.
    assert_eq!(
        b.eval(&format!(
            "document.elementFromPoint({}, {y}) === document.getElementById('code')",
            x + 450.0
        )),
        json!(true)
    );
    click_at(&mut b, x + 450.0, y);
    assert_eq!(
        b.eval("(() => { const c = document.getElementById('code'); return [document.activeElement === c, c.value.slice(0, c.selectionStart).split('\\n').length, c.value.slice(0, c.selectionStart).split('\\n').pop()]; })()"),
        json!([true, 300, "        #{ key: \"rally_on\", min: 2, max: 7, value: 4,"])
    );
    // Typing there: 4+ becomes 5+, and the answer is the command line's for the changed file.
    press(&mut b, "Backspace", 8);
    press(&mut b, "Backspace", 8);
    b.call("Input.insertText", json!({ "text": "5," }));
    assert_eq!(
        b.eval("document.getElementById('code').value"),
        json!(changed)
    );
    b.wait(&format!(
        "(() => {{ const td = document.querySelector('tr[data-outcome] td.exact'); return !!td && td.dataset.value !== '' && Number(td.dataset.value) === {want:?}; }})()"
    ));
    // The colours show the new text where it is; still aligned after typing.
    assert_eq!(
        b.eval("(() => { const c = document.getElementById('code'); return document.getElementById('code-hl').textContent === c.value + '\\n ' && document.getElementById('code-hl').scrollTop === c.scrollTop && document.getElementById('gutter').scrollTop === c.scrollTop; })()"),
        json!(true)
    );
    // The keyboard takes the caret to the end of the file, the text scrolls to it, and the
    // layers follow; the wheel then takes it to the very bottom, and they follow there too.
    let lines = text.lines().count();
    for kind in ["rawKeyDown", "keyUp"] {
        b.call(
            "Input.dispatchKeyEvent",
            json!({ "type": kind, "key": "End", "code": "End", "windowsVirtualKeyCode": 35, "modifiers": 2 }),
        );
    }
    b.wait("(() => { const c = document.getElementById('code'); return c.selectionStart === c.value.length && c.scrollTop > 0 && document.getElementById('code-hl').scrollTop === c.scrollTop && document.getElementById('gutter').scrollTop === c.scrollTop; })()");
    settled(&mut b, "document.getElementById('code').scrollTop");
    let last = line_on_screen(&mut b, lines, 10.0);
    assert_eq!(last[2], json!(true), "{last}");
    let r = b.eval("(() => { const r = document.getElementById('code').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()");
    b.call(
        "Input.dispatchMouseEvent",
        json!({ "type": "mouseWheel", "x": r[0], "y": r[1], "deltaX": 0, "deltaY": 2000 }),
    );
    b.wait("(() => { const c = document.getElementById('code'); return c.scrollTop + c.clientHeight >= c.scrollHeight - 1 && document.getElementById('code-hl').scrollTop === c.scrollTop && document.getElementById('gutter').scrollTop === c.scrollTop; })()");
}

/// Phone trial 76: a long file on a phone took many swipes to reach a line. "go to line" takes a
/// number (and Ctrl-G reaches it from the editor): the caret at that line's start, the line in
/// sight in the editor, the editor in the window; then typing there edits that line.
#[test]
fn a_line_is_reached_by_its_number_on_a_phone() {
    let Some(chromium) = crate::browser::chromium("a_line_is_reached_by_its_number_on_a_phone")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "goto-line");
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true }),
    );
    let text = long_first_rally(300, 340);
    open_first_rally_with(&mut b, &server, &text);
    b.wait("document.getElementById('code-hl').children.length > 300");
    // The box is in the editor's row, a thumb can reach it.
    let at = b.eval("(() => { const g = document.getElementById('goto-line'); g.scrollIntoView({ block: 'center' }); const r = g.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2, r.width > 0 && r.height > 0]; })()");
    assert_eq!(at[2], json!(true), "{at}");
    settled(&mut b, "scrollY");
    let at = b.eval("(() => { const r = document.getElementById('goto-line').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()");
    click_at(&mut b, at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    b.call("Input.insertText", json!({ "text": "300" }));
    press(&mut b, "Enter", 13);
    let want = text
        .split('\n')
        .take(299)
        .map(|l| l.len() + 1)
        .sum::<usize>();
    b.wait(&format!(
        "(() => {{ const c = document.getElementById('code'); return document.activeElement === c && c.selectionStart === {want}; }})()"
    ));
    settled(
        &mut b,
        "[scrollY, document.getElementById('code').scrollTop]",
    );
    // Line 300's colours, its number and the textarea's view all show it, inside the editor,
    // and the editor is in the window.
    let v = b.eval("(() => { const c = document.getElementById('code'), r = c.getBoundingClientRect(), row = document.getElementById('code-hl').children[299].getBoundingClientRect(), num = document.getElementById('gutter').children[299].getBoundingClientRect(); return [row.top >= r.top && row.bottom <= r.bottom, Math.abs(row.top - num.top) < 1, r.top >= 0 && r.bottom <= innerHeight, document.getElementById('gutter').children[299].textContent]; })()");
    assert_eq!(v, json!([true, true, true, "300"]));
    // The line gone to is marked for a moment; the box says how many lines there are.
    assert_eq!(
        b.eval("[document.querySelectorAll('#code-hl .gotoline').length, document.getElementById('goto-line').placeholder]"),
        json!([1, format!("1\u{2013}{}", text.split('\n').count())])
    );
    // Typing goes to line 300.
    b.call("Input.insertText", json!({ "text": "// here\n" }));
    assert_eq!(
        b.eval("document.getElementById('code').value.split('\\n')[299]"),
        json!("// here")
    );
    // Ctrl-G from the editor goes back to the box; a number past the end takes the last line.
    for kind in ["rawKeyDown", "keyUp"] {
        b.call(
            "Input.dispatchKeyEvent",
            json!({ "type": kind, "key": "g", "code": "KeyG", "windowsVirtualKeyCode": 71, "modifiers": 2 }),
        );
    }
    b.wait("document.activeElement === document.getElementById('goto-line')");
    b.call("Input.insertText", json!({ "text": "9999" }));
    press(&mut b, "Enter", 13);
    b.wait("(() => { const c = document.getElementById('code'); return document.activeElement === c && c.value.slice(0, c.selectionStart).split('\\n').length === c.value.split('\\n').length; })()");
}

/// Issue 76: a link whose edited file does not load opens with the file, its error at its line,
/// the form as the link has it and the command line; the address and the page's link agree.
#[test]
fn a_link_with_a_broken_edited_file_opens_with_its_form_and_its_error() {
    let Some(chromium) = crate::browser::chromium(
        "a_link_with_a_broken_edited_file_opens_with_its_form_and_its_error",
    ) else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "broken-link");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/mechanics/examples/first-rally.rhai"
    ))
    .unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(6, "fn broken( {");
    let broken = lines.join("\n") + "\n";
    // First on the page: the error typed, and the address is the page's link at once.
    b.goto(&server.url(
        "/?system=mechanics%2Fexamples%2Ffirst-rally.rhai&scenario=rally&set=stands%3D8&trials=20000&seed=3",
    ));
    first_exact(&mut b);
    b.eval(&format!("(() => {{ const c = document.getElementById('code'); c.focus(); c.value = {broken:?}; c.dispatchEvent(new Event('input', {{ bubbles: true }})); }})()"));
    b.wait("(() => { const e = document.querySelector('#gutter .err'); return e && e.textContent === '7'; })()");
    b.wait("decodeURIComponent(location.hash).includes('fn broken( {')");
    assert_eq!(
        b.eval("location.search + location.hash === link()"),
        json!(true)
    );
    let link = b.eval("location.href").as_str().unwrap().to_string();
    // Opened afresh: the file, its error at line 7, the form and the command line.
    let mut fresh = Browser::launch(&chromium, "broken-link-fresh");
    fresh.goto(&link);
    fresh.wait("(() => { const e = document.querySelector('#gutter .err'); return e && e.textContent === '7'; })()");
    assert_eq!(
        fresh.eval("document.getElementById('code').value"),
        json!(broken)
    );
    let shown = fresh
        .wait("document.getElementById('code-error').textContent")
        .as_str()
        .unwrap()
        .to_string();
    assert!(shown.starts_with("Line 7"), "{shown}");
    assert_eq!(
        fresh.eval("[document.getElementById('scenario').value, document.getElementById('scenario').options.length > 0, document.querySelector('[data-field=\"set.stands\"] input').value, document.querySelectorAll('#situation .field').length > 0]"),
        json!(["rally", true, "8", true])
    );
    let command = fresh
        .wait("document.getElementById('command').textContent")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        command.starts_with("# first save the edited file (Download the edited file) as mechanics/examples/first-rally-edited.rhai\n")
            && command.contains("--set stands=8"),
        "{command}"
    );
    assert_eq!(
        fresh.eval("location.href"),
        json!(link),
        "the address is the link opened"
    );
    assert_eq!(
        fresh.eval("location.search + location.hash === link()"),
        json!(true)
    );
    // Put right, it runs with the link's form.
    fresh.eval(&format!("(() => {{ const c = document.getElementById('code'); c.focus(); c.value = {text:?}; c.dispatchEvent(new Event('input', {{ bubbles: true }})); }})()"));
    let fixed = first_exact(&mut fresh);
    fresh
        .wait("!document.querySelector('#gutter .err') && document.getElementById('error').hidden");
    let mut args = vec!["rally", "--system", "mechanics/examples/first-rally.rhai"];
    args.extend(["--stands", "8", "--exact-only", "--format", "json"]);
    assert_eq!(Some(fixed), json_of(&args)["outcomes"][0]["exact"].as_f64());
}

/// Where the element `sel` is on the page (its top, scrolled or not).
fn page_top(b: &mut Browser, sel: &str) -> f64 {
    b.eval(&format!(
        "document.querySelector('{sel}').getBoundingClientRect().top + scrollY"
    ))
    .as_f64()
    .unwrap()
}

/// A field's help opens from the "?" beside its name as a box over what is below it: nothing
/// moves when it opens or closes (explorer trial 63: an open help pushed the form down and
/// stayed open). One is open at a time; a second press of its "?", Escape, or a press elsewhere
/// closes it, and a press on the field under the box lands there.
#[test]
fn a_help_opens_over_the_form_and_a_click_lands_where_it_went_down() {
    let Some(chromium) =
        crate::browser::chromium("a_help_opens_over_the_form_and_a_click_lands_where_it_went_down")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "help-click");
    b.goto(&server.url("/?system=rank-and-file&scenario=rally"));
    b.wait("document.querySelectorAll('[data-field=\"set.elite\"] input').length === 1");
    b.eval(
        "document.querySelector('[data-field=\"set.stands\"]').scrollIntoView({ block: 'center' })",
    );
    let open = |b: &mut Browser| {
        b.eval("[...document.querySelectorAll('.field.helping')].map((f) => f.dataset.field).join(',')")
            .as_str()
            .unwrap()
            .to_string()
    };
    // Focusing a box opens no help: nothing moves under a reader typing.
    let below = "[data-field=\"set.lost\"]";
    let before = page_top(&mut b, below);
    let (x, y) = centre_on_screen(&mut b, "[data-field=\"set.stands\"] input");
    click_at(&mut b, x, y);
    assert_eq!(open(&mut b), "");
    // The "?" opens the help, over the field below, which stays where it was.
    let (x, y) = centre_on_screen(&mut b, "[data-field=\"set.stands\"] .qm");
    click_at(&mut b, x, y);
    assert_eq!(open(&mut b), "set.stands");
    assert_eq!(
        b.eval("(() => { const h = document.querySelector('[data-field=\"set.stands\"] .help'), q = document.querySelector('[data-field=\"set.stands\"] .qm'); return [h.offsetHeight > 0, getComputedStyle(h).position, q.getAttribute('aria-expanded'), document.querySelector('[data-field=\"set.stands\"] input').getAttribute('aria-describedby') === h.id]; })()"),
        json!([true, "absolute", "true", true])
    );
    assert_eq!(page_top(&mut b, below), before, "the field below moved");
    let covered = b.eval(&format!("(() => {{ const h = document.querySelector('[data-field=\"set.stands\"] .help').getBoundingClientRect(), f = document.querySelector('{below} input').getBoundingClientRect(); return h.bottom > f.top; }})()"));
    assert_eq!(covered, json!(true), "the help is not over the field below");
    // A second press of its "?" closes it; nothing moved.
    click_at(&mut b, x, y);
    assert_eq!(open(&mut b), "");
    assert_eq!(page_top(&mut b, below), before);
    // One at a time: another "?" opens its own and closes the first.
    click_at(&mut b, x, y);
    let (x2, y2) = centre_on_screen(&mut b, "[data-field=\"set.leader\"] .qm");
    click_at(&mut b, x2, y2);
    assert_eq!(open(&mut b), "set.leader");
    // A press on the field under the help lands there, and closes the help.
    click_at(&mut b, x, y);
    assert_eq!(open(&mut b), "set.stands");
    let (x, y) = centre_on_screen(&mut b, &format!("{below} input"));
    click_at(&mut b, x, y);
    assert_eq!(open(&mut b), "");
    assert_eq!(
        b.eval(&format!(
            "document.activeElement === document.querySelector('{below} input')"
        )),
        json!(true),
        "the box under the help took the click"
    );
    let (x, y) = centre_on_screen(&mut b, "[data-field=\"set.elite\"] .qm");
    click_at(&mut b, x, y);
    let (x, y) = centre_on_screen(&mut b, "[data-field=\"set.elite\"] input");
    click_at(&mut b, x, y);
    assert_eq!(
        b.eval("document.querySelector('[data-field=\"set.elite\"] input').checked"),
        json!(true),
        "the tick box beside an open help took the click"
    );
    assert_eq!(open(&mut b), "");
    // By the keyboard: Enter on the "?" opens it, Escape closes it, and the focus stays.
    b.eval("document.querySelector('[data-field=\"set.leader\"] .qm').focus()");
    for kind in ["keyDown", "keyUp"] {
        b.call(
            "Input.dispatchKeyEvent",
            json!({ "type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "text": if kind == "keyDown" { "\r" } else { "" } }),
        );
    }
    assert_eq!(open(&mut b), "set.leader");
    press(&mut b, "Escape", 27);
    assert_eq!(open(&mut b), "");
    assert_eq!(
        b.eval(
            "document.activeElement === document.querySelector('[data-field=\"set.leader\"] .qm')"
        ),
        json!(true)
    );
    // The fixed fields have theirs too (the Monte Carlo box's).
    assert_eq!(
        b.eval("!!document.querySelector('[data-field=\"seed\"] .qm')"),
        json!(true)
    );
}

/// The same on a phone, by taps (a tap focuses a field with the mouse events that follow the
/// touch): the "?" opens the help over the form, the field below stays put, and a tap on the
/// tick box below lands and closes the help (a designer lost two taps of four to a help that
/// moved the form).
#[test]
fn a_tap_lands_where_it_went_down_while_a_help_is_open() {
    let Some(chromium) =
        crate::browser::chromium("a_tap_lands_where_it_went_down_while_a_help_is_open")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "help-tap");
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true }),
    );
    b.call(
        "Emulation.setTouchEmulationEnabled",
        json!({ "enabled": true, "maxTouchPoints": 1 }),
    );
    b.goto(&server.url("/?system=rank-and-file&scenario=rally"));
    b.wait("document.querySelectorAll('[data-field=\"set.elite\"] input').length === 1");
    b.eval(
        "document.querySelector('[data-field=\"set.stands\"]').scrollIntoView({ block: 'center' })",
    );
    let tap = |b: &mut Browser, sel: &str| {
        let (x, y) = centre_on_screen(b, sel);
        b.call(
            "Input.dispatchTouchEvent",
            json!({ "type": "touchStart", "touchPoints": [{ "x": x, "y": y }] }),
        );
        b.call(
            "Input.dispatchTouchEvent",
            json!({ "type": "touchEnd", "touchPoints": [] }),
        );
    };
    let below = page_top(&mut b, "[data-field=\"set.elite\"]");
    tap(&mut b, "[data-field=\"set.leader\"] .qm");
    b.wait("document.querySelector('[data-field=\"set.leader\"]').classList.contains('helping') && document.querySelector('[data-field=\"set.leader\"] .help').offsetHeight > 0");
    assert_eq!(page_top(&mut b, "[data-field=\"set.elite\"]"), below);
    // A second tap on the "?" closes it; a third opens it again.
    tap(&mut b, "[data-field=\"set.leader\"] .qm");
    b.wait("document.querySelectorAll('.field.helping').length === 0");
    tap(&mut b, "[data-field=\"set.leader\"] .qm");
    b.wait("document.querySelectorAll('.field.helping').length === 1");
    tap(&mut b, "[data-field=\"set.elite\"] input");
    assert_eq!(
        b.wait("document.querySelector('[data-field=\"set.elite\"] input').checked || null"),
        json!(true),
        "the tick box below an open help took the tap"
    );
    b.wait("document.querySelectorAll('.field.helping').length === 0");
    assert_eq!(page_top(&mut b, "[data-field=\"set.elite\"]"), below);
}

/// Explorer trial 63: while a new answer is computed after a change, the results on show are
/// dimmed in place and the status says "updating…", until it arrives; an answer quicker than
/// 150 ms shows no cue (no flicker while typing). The page's exact answers are held back here
/// until released, so the test does not depend on the server's speed.
#[test]
fn the_results_say_updating_while_a_slow_answer_is_computed() {
    let Some(chromium) =
        crate::browser::chromium("the_results_say_updating_while_a_slow_answer_is_computed")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "updating");
    b.goto(&server.url(&format!("/?{RALLY}&trials=20000")));
    let before = shown_exact(&mut b, "recovered");
    b.wait("/Monte Carlo:/.test(document.getElementById('status').textContent)");
    // The page's exact runs wait for `release()`; when the cue came, after the run was asked.
    b.eval("(() => { const real = window.fetch; window.held = []; window.hold = true; window.cueAt = null; window.askedAt = null; new MutationObserver(() => { if (window.cueAt === null && document.getElementById('results').classList.contains('updating')) window.cueAt = performance.now(); }).observe(document.getElementById('results'), { attributes: true }); window.fetch = (u, o) => { if (String(u).startsWith('/api/run') && o && String(o.body).includes('mode=exact')) { window.askedAt = performance.now(); if (window.hold) return new Promise((go) => window.held.push(() => go(real(u, o)))); } return real(u, o); }; window.release = () => { window.hold = false; window.held.splice(0).forEach((go) => go()); }; })()");
    type_into(&mut b, "set.stands", "9");
    b.wait("window.held.length === 1");
    b.wait("document.getElementById('results').classList.contains('updating')");
    assert_eq!(
        b.eval("document.getElementById('status').textContent"),
        json!("updating\u{2026}")
    );
    assert!(
        b.eval("window.cueAt - window.askedAt").as_f64().unwrap() >= 140.0,
        "the cue came before 150 ms"
    );
    // On a phone the strip at the screen's foot says it in place of its closing words.
    assert_eq!(
        b.eval("document.getElementById('strip').classList.contains('updating') && document.querySelector('#strip .busy').textContent"),
        json!(" \u{b7} updating\u{2026}")
    );
    // The old results stay in place, dimmed (as the fade ends): nothing is taken away.
    b.wait("Number(getComputedStyle(document.getElementById('tables')).opacity) < 0.5");
    assert_eq!(
        b.eval("Number(document.querySelector('tr[data-outcome=\"recovered\"] td.exact').dataset.value)"),
        json!(before)
    );
    b.eval("window.release()");
    b.wait("!document.getElementById('results').classList.contains('updating')");
    let nine = shown_exact(&mut b, "recovered");
    assert_ne!(nine, before);
    assert!(
        !b.eval("document.getElementById('status').textContent")
            .as_str()
            .unwrap()
            .contains("updating")
    );
    // An answer that comes at once (the server keeps the last answers): no cue before 150 ms.
    b.wait("/Monte Carlo:/.test(document.getElementById('status').textContent)");
    b.eval("window.cueAt = null; window.askedAt = null;");
    type_into(&mut b, "set.stands", "");
    b.wait(&format!(
        "Number(document.querySelector('tr[data-outcome=\"recovered\"] td.exact').dataset.value) === {before:?} && window.askedAt !== null"
    ));
    assert_eq!(
        b.eval("window.cueAt === null || window.cueAt - window.askedAt >= 140"),
        json!(true)
    );
    // The editor's runs say it too: an edited file's answer held back.
    b.goto(
        &server.url("/?system=mechanics%2Fexamples%2Ffirst-rally.rhai&scenario=rally&trials=20000"),
    );
    first_exact(&mut b);
    b.eval("(() => { const real = window.fetch; window.held = []; window.fetch = (u, o) => String(u).startsWith('/api/run') && String(o && o.body).includes('mode=exact') ? new Promise((go) => window.held.push(() => go(real(u, o)))) : real(u, o); })()");
    b.eval("(() => { const c = document.getElementById('code'); c.value = c.value.replace('\\n', '\\n// a note\\n'); c.dispatchEvent(new Event('input')); document.getElementById('run-code').click(); })()");
    b.wait("document.getElementById('results').classList.contains('updating') && window.held.length > 0");
    b.eval("window.held.forEach((go) => go())");
    b.wait("!document.getElementById('results').classList.contains('updating')");
}

/// Explorer trial 63: on a phone the map of the best choice shows its words (the cells', the
/// axes', the legend's) at least 11 px on the screen; they were 8.5 px, a 480-px drawing shrunk
/// into a figure with a desktop's margins. It pans sideways in its own box.
#[test]
fn the_map_of_the_best_choice_reads_on_a_phone() {
    let Some(chromium) = crate::browser::chromium("the_map_of_the_best_choice_reads_on_a_phone")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "play-phone");
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true }),
    );
    b.goto(&server.url(
        "/?system=rank-and-file&scenario=engagement&set=attacker%3Dveteran%20cavalry&set=defender%3Dgreen%20stands%3D6&trials=20000&play=1",
    ));
    b.wait("!!document.querySelector('#played figure svg')");
    // Each text's size on the screen: its size in the drawing times the drawing's scale.
    // Phone trial 74: fitted to the screen, most cells were too small to carry their turn; the
    // map is drawn at its own size in a box that pans sideways, the page itself never does.
    let sizes = b.eval("(() => { const fig = document.querySelector('#played figure'), svg = fig.querySelector('svg'), r = svg.getBoundingClientRect(), f = fig.getBoundingClientRect(), k = r.width / Number(svg.getAttribute('width')); const s = [...svg.querySelectorAll('text')].map((t) => Number(t.getAttribute('font-size')) * k); return [Math.min(...s), s.length, f.left >= 0 && f.right <= innerWidth && document.documentElement.scrollWidth <= innerWidth, (() => { const pan = fig.querySelector('.pan'); return !!pan && pan.scrollWidth > pan.clientWidth; })()]; })()");
    let least = sizes[0].as_f64().unwrap();
    assert!(least >= 11.0, "the map's text is {least:.1} px on a phone");
    assert!(sizes[1].as_u64().unwrap() > 10, "{sizes}");
    assert_eq!(
        sizes[2],
        json!(true),
        "the map's box or the page runs off the screen: {sizes}"
    );
    assert_eq!(
        sizes[3],
        json!(true),
        "the map is not at its own size: {sizes}"
    );
    // Phone trial 76: the title, legend, what runs across and the note were inside the panned
    // picture and cut off at the screen's edge. Only the grid pans: they are text on the page,
    // within the screen, and the picture holds none of them.
    let outside = b.eval("(() => { const fig = document.querySelector('#played figure'), svg = fig.querySelector('svg'), title = fig.querySelector('.map-title'), keys = [...fig.querySelectorAll('ul.map-key li')], within = (e) => { const r = e.getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth; }; const words = [...svg.querySelectorAll('text')].map((t) => t.textContent).join(' '); return [title ? title.textContent : '', keys.map((k) => k.textContent), !!title && within(title) && keys.every(within), words.includes('best choice') || words.includes('Each side')]; })()");
    assert!(
        outside[0]
            .as_str()
            .unwrap()
            .contains("best choice in each state"),
        "{outside}"
    );
    assert!(!outside[1].as_array().unwrap().is_empty(), "{outside}");
    assert_eq!(outside[2], json!(true), "{outside}");
    assert_eq!(
        outside[3],
        json!(false),
        "the picture still holds its title or note: {outside}"
    );
    // Phone trial 76, second round: the rows' names scrolled away with the grid. Panned, the
    // map keeps them at the box's left edge, over the grid's cells.
    b.eval("(() => { const pan = document.querySelector('#played .pan'); pan.scrollLeft = 300; pan.dispatchEvent(new Event('scroll')); return pan.scrollLeft; })()");
    settled(&mut b, "document.querySelector('#played .pan').scrollLeft");
    let rows = b.eval("(() => { const pan = document.querySelector('#played .pan'), rows = pan.querySelector('.map-rows'), p = pan.getBoundingClientRect(), r = rows && rows.getBoundingClientRect(); return [pan.scrollLeft > 0, !!rows && Math.abs(r.left - p.left) < 1, !!rows && r.width > 40 && r.width < 250, !!rows && rows.textContent.includes('good'), pan.querySelector('svg') !== rows.querySelector('svg')]; })()");
    assert_eq!(rows, json!([true, true, true, true, true]));
}

/// Explorer trial 63: on a phone the comparison's interval column is left out, and each
/// difference's interval is a small line under it instead, the same interval, read without
/// scrolling sideways; on a wide screen the column is back and the line goes.
#[test]
fn the_interval_of_a_difference_reads_on_a_phone() {
    let Some(chromium) = crate::browser::chromium("the_interval_of_a_difference_reads_on_a_phone")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "interval-phone");
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true }),
    );
    b.goto(&server.url(&format!(
        "/?{RALLY}&trials=20000&a.system=rank-and-file&a.set=class%3Dgreen"
    )));
    b.wait("document.querySelectorAll('table.ab td.iv').length > 0");
    let check = "(() => { const rows = [...document.querySelectorAll('table.ab tbody tr')]; const bad = rows.filter((tr) => { const l = tr.querySelector('.ivl'), c = tr.querySelector('td.iv'); if (!l || !c) return true; const r = l.getBoundingClientRect(); return !(l.offsetHeight > 0 && r.left >= 0 && r.right <= innerWidth && c.offsetParent === null && l.lastChild.textContent === c.textContent && l.textContent.startsWith('joint 95% interval')); }); const w = document.querySelector('table.ab').closest('.scroll'); return [rows.length, bad.length, w.scrollWidth <= w.clientWidth, document.documentElement.scrollWidth <= innerWidth]; })()";
    let v = b.eval(check);
    assert!(v[0].as_u64().unwrap() >= 3, "{v}");
    assert_eq!(v[1], json!(0), "rows whose interval cannot be read: {v}");
    assert_eq!(v[2], json!(true), "the table scrolls sideways: {v}");
    assert_eq!(v[3], json!(true), "the page scrolls sideways: {v}");
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
    );
    b.wait("[...document.querySelectorAll('table.ab td.iv')].every((c) => c.offsetParent !== null) && [...document.querySelectorAll('table.ab .ivl')].every((l) => l.offsetHeight === 0)");
}

/// Explorer trial 63: "Back to the file as saved" leaves the editor where it is: the button is
/// disabled once there is nothing to go back to, not taken away (the row of buttons under the
/// title was a line shorter, and the editor jumped up under the pointer).
#[test]
fn back_to_the_file_as_saved_keeps_the_editor_in_place() {
    let Some(chromium) =
        crate::browser::chromium("back_to_the_file_as_saved_keeps_the_editor_in_place")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "reset-place");
    for (width, height) in [(1280, 900), (390, 844)] {
        b.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500 }),
        );
        b.goto(
            &server.url(
                "/?system=mechanics%2Fexamples%2Ffirst-rally.rhai&scenario=rally&trials=20000",
            ),
        );
        let saved = first_exact(&mut b);
        assert_eq!(
            b.eval("[document.getElementById('reset-code').hidden, document.getElementById('reset-code').disabled]"),
            json!([false, true])
        );
        b.eval("(() => { const c = document.getElementById('code'); c.value = c.value.replace('value: 4,', 'value: 5,'); c.dispatchEvent(new Event('input')); document.getElementById('run-code').click(); })()");
        b.wait("location.hash.startsWith('#patch=') && document.getElementById('code-path').textContent.includes('edited')");
        b.wait(&format!(
            "(() => {{ const td = document.querySelector('td.exact[data-value]:not([data-value=\"\"])'); return !!td && Number(td.dataset.value) !== {saved:?}; }})()"
        ));
        assert_eq!(
            b.eval("document.getElementById('reset-code').disabled"),
            json!(false)
        );
        // Measured with the run over both times (the status line's words differ meanwhile).
        let done = "!runId && /Monte Carlo:/.test(document.getElementById('status').textContent)";
        b.wait(done);
        let top = page_top(&mut b, "#code");
        b.eval("document.getElementById('reset-code').click()");
        b.wait(&format!(
            "state.code === null && !location.hash && Number(document.querySelector('td.exact[data-value]:not([data-value=\"\"])').dataset.value) === {saved:?}"
        ));
        b.wait(done);
        assert_eq!(
            page_top(&mut b, "#code"),
            top,
            "the editor moved at {width} px"
        );
        assert_eq!(
            b.eval("[document.getElementById('reset-code').hidden, document.getElementById('reset-code').disabled]"),
            json!([false, true])
        );
    }
}

/// With two profiles, one table gives a state after each turn, a column a profile and B less A
/// (issue 76: a designer asked how much worse, turn by turn, and had to subtract); its values are
/// the command line's, and its state is picked in its heading.
#[test]
fn profiles_compare_turn_by_turn_in_one_table() {
    let Some(chromium) = crate::browser::chromium("profiles_compare_turn_by_turn_in_one_table")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "turns-side");
    b.goto(&server.url("/?system=rank-and-file&scenario=rally&set=class%3Dgreen&name=Green&a.system=rank-and-file&a.name=Regular"));
    b.wait("document.querySelectorAll('table[data-table=\"per_turn_side_by_side\"] tbody tr').length === 12");
    let state = |class: &str| -> Vec<f64> {
        let v = crate::common::json_of(&[
            "rally",
            "--system",
            "rank-and-file",
            "--set",
            &format!("class={class}"),
            "--exact-only",
            "--format",
            "json",
        ]);
        let t = v["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "per_turn")
            .unwrap()
            .clone();
        t["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["cells"][0]["exact"].as_f64().unwrap())
            .collect()
    };
    let (regular, green) = (state("regular"), state("green"));
    let shown = b.eval("[...document.querySelectorAll('table[data-table=\"per_turn_side_by_side\"] tbody tr')].map((tr) => [Number(tr.cells[1].dataset.value), Number(tr.cells[2].dataset.value), Number(tr.cells[3].dataset.value)])");
    for (t, row) in shown.as_array().unwrap().iter().enumerate() {
        let (a, bb, d) = (
            row[0].as_f64().unwrap(),
            row[1].as_f64().unwrap(),
            row[2].as_f64().unwrap(),
        );
        assert_eq!((a, bb), (regular[t], green[t]), "turn {}", t + 1);
        assert!(
            (d - (green[t] - regular[t])).abs() < 1e-15,
            "turn {}",
            t + 1
        );
    }
    // Every state but the first, together: not recovered.
    b.eval("(() => { const s = document.getElementById('turn-state'); s.value = String(s.options.length - 1); s.dispatchEvent(new Event('change')); })()");
    let head = b.wait("(() => { const h = document.querySelector('table[data-table=\"per_turn_side_by_side\"]').closest('.scroll').previousElementSibling.previousElementSibling.textContent; return h.includes('not recovered') ? h : null; })()");
    assert!(
        head.as_str()
            .unwrap()
            .contains("unsteady, routing or removed")
            || head
                .as_str()
                .unwrap()
                .contains("unsteady or routing or removed"),
        "{head}"
    );
    let last = b.eval("Number(document.querySelector('table[data-table=\"per_turn_side_by_side\"] tbody tr:last-child').cells[1].dataset.value)");
    assert!(
        (last.as_f64().unwrap() - (1.0 - regular[11])).abs() < 1e-12,
        "{last}"
    );
}

/// An estimate whose interval misses the exact value is marked on its row and named in a note
/// (issue 76): the page's rows are checked together, as a report's are (each interval widened
/// until the page's checks are 95% sure taken together, Bonferroni), so that a page of many rows
/// does not warn by chance alone; marked are exactly the rows that miss so, no others. Seed 1's
/// rally misses on its headline by 2.7 standard errors, beyond the 2.69 of its 7 checks.
#[test]
fn an_estimate_that_misses_the_exact_value_is_marked() {
    let Some(chromium) =
        crate::browser::chromium("an_estimate_that_misses_the_exact_value_is_marked")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "missed");
    b.goto(&server.url("/?system=rank-and-file&scenario=rally&trials=1000000&seed=1"));
    b.wait("typeof mcAnswer !== 'undefined' && mcAnswer !== null && document.querySelectorAll('tr[data-outcome] td.estimate').length > 0");
    // Each check as (name, exact, estimate, low, high), as the run gave it.
    let report = b.eval("mcAnswer.variants[0].report");
    let mut checks: Vec<(String, f64, f64, f64, f64)> = Vec::new();
    for o in report["outcomes"].as_array().unwrap() {
        if let (Some(e), Some(lo), Some(hi)) = (
            o["exact"].as_f64(),
            o["ci_low"].as_f64(),
            o["ci_high"].as_f64(),
        ) {
            let name = o["outcome"].as_str().unwrap().to_string();
            checks.push((name, e, o["p"].as_f64().unwrap(), lo, hi));
        }
    }
    for m in report["metrics"].as_array().unwrap() {
        if let (Some(e), Some(v), Some(se)) = (
            m["exact"].as_f64(),
            m["value"].as_f64(),
            m["stderr"].as_f64(),
        ) && se > 0.0
        {
            let name = m["name"].as_str().unwrap().to_string();
            checks.push((name, e, v, v - 1.96 * se, v + 1.96 * se));
        }
    }
    let n = checks.len();
    let k = morale_lab::stats::z_for_confidence(1.0 - 0.05 / n as f64) / 1.96;
    let missing = |c: &&(String, f64, f64, f64, f64)| {
        c.1 < c.2 - k * (c.2 - c.3) - 1e-12 || c.1 > c.2 + k * (c.4 - c.2) + 1e-12
    };
    let want: Vec<&str> = checks
        .iter()
        .filter(missing)
        .map(|c| c.0.as_str())
        .collect();
    let outcomes: Vec<&str> = report["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["outcome"].as_str().unwrap())
        .collect();
    let want_rows: Vec<&str> = want
        .iter()
        .copied()
        .filter(|w| outcomes.contains(w))
        .collect();
    let marked = b.eval("[...document.querySelectorAll('tr[data-outcome].missed')].map((tr) => tr.dataset.outcome).join(',')");
    assert_eq!(marked.as_str().unwrap(), want_rows.join(","), "{checks:?}");
    assert!(
        want.contains(&"recovered"),
        "seed 1 no longer misses: {checks:?}"
    );
    // Rows that miss only at 95% one by one are not marked: the page checks them together.
    let one_by_one = checks.iter().filter(|c| c.1 < c.3 || c.1 > c.4).count();
    assert!(one_by_one > want.len(), "{checks:?}");
    let marked_metrics = b.eval("[...document.querySelectorAll('tr[data-metric].missed')].map((tr) => tr.dataset.metric).join(',')");
    let want_metrics: Vec<&str> = want
        .iter()
        .copied()
        .filter(|w| !outcomes.contains(w))
        .collect();
    assert_eq!(marked_metrics.as_str().unwrap(), want_metrics.join(","));
    assert!(
        b.eval("document.querySelectorAll('tr[data-outcome]:not(.missed)').length > 0")
            == json!(true)
    );
    let note = b.eval("document.querySelector('.missed-note').textContent");
    let note = note.as_str().unwrap();
    assert!(
        note.contains("recovered")
            && note.contains(&format!("of {n} fall outside"))
            && note.contains("95% sure taken together")
            && note.contains("one page in 20"),
        "{note}"
    );
    // The first page (seed 1) has this miss: it is said calmly, in plain words, as a footnote
    // in the muted colour, not a warning sign in red or brown (explorer trial 63 read it as an
    // error before doing anything); its check is folded under "How this is checked".
    assert!(
        note.starts_with("* The simulation's estimate of recovered") && !note.contains('\u{26a0}'),
        "{note}"
    );
    assert_eq!(
        b.eval("[getComputedStyle(document.querySelector('tr.missed td'), '::after').content, getComputedStyle(document.querySelector('.missed-note')).color, document.querySelector('.missed-note details').open]"),
        json!(["\" *\"", "rgb(91, 100, 117)", false])
    );
}

/// Issue 54, the phone and the exports: at 390 px the form comes first and compact, the
/// results next; nothing is cut off the page (a wide table scrolls inside its box and says
/// so); each chart has its title as alternative text and downloads as SVG and PNG, each table
/// as CSV with the values the page holds.
#[test]
fn the_page_works_on_a_phone_and_exports_what_it_shows() {
    let Some(chromium) =
        crate::browser::chromium("the_page_works_on_a_phone_and_exports_what_it_shows")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "phone");
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true }),
    );
    b.goto(&server.url(&format!(
        "/?{RALLY}&trials=20000&seed=5&a.system=rank-and-file&a.set=class%3Dregular&a.set=stands%3D7&a.set=lost%3D2&a.set=state%3Drouting"
    )));
    b.wait("(() => { const tr = document.querySelector('tr[data-compare=\"recovered\"]'); return tr && tr.cells.length === 5; })()");
    b.wait("document.querySelectorAll('#charts svg').length > 0");
    let at = |b: &mut Browser, js: &str| b.eval(js).as_f64().unwrap();
    // The charts are drawn for the phone's width: their text, 14 to 15 px on the canvas, is at
    // least 10 px on the screen (the full chart's would be about 5.5).
    let scales = b.eval("[...document.querySelectorAll('#charts svg')].map((s) => s.getBoundingClientRect().width / Number(s.getAttribute('width')))");
    for k in scales.as_array().unwrap() {
        let k = k.as_f64().unwrap();
        assert!(14.0 * k >= 10.0, "chart text at {:.1} px", 14.0 * k);
    }
    assert!(
        b.eval("[...document.querySelectorAll('#charts svg')].every((s) => s.getAttribute('width') === '480')")
            == json!(true)
    );
    let form = at(
        &mut b,
        "document.getElementById('form').getBoundingClientRect().top + scrollY",
    );
    let results = at(
        &mut b,
        "document.getElementById('results').getBoundingClientRect().top + scrollY",
    );
    assert!(form < results, "the form first: {form} {results}");
    // While the form fills the screen, the headline's answer of each profile stays in sight
    // at its foot, the same numbers as the table; it steps aside once the results are in view,
    // and while the bar of buttons sits where it would cover them (phone trial 74: Pin as A,
    // at the first screen's foot, was under it). The rule parameters opened, the form fills
    // the screen.
    b.eval("scrollTo(0, 0)");
    b.wait("(() => { const s = document.getElementById('strip'), a = document.getElementById('actions').getBoundingClientRect(); return a.top >= innerHeight || getComputedStyle(s).display === 'none'; })()");
    b.eval("document.querySelector('#rules legend').click()");
    b.eval("scrollTo(0, 0)");
    let strip = b.wait("(() => { const s = document.getElementById('strip'); return getComputedStyle(s).display === 'block' && s.getBoundingClientRect().bottom <= innerHeight + 1 ? s.textContent : null; })()");
    let strip = strip.as_str().unwrap().to_string();
    for label in ["A", "B"] {
        let shown = b.eval(&format!("document.querySelector('tr[data-compare=\"recovered\"] td[data-profile=\"{label}\"]').firstChild.textContent"));
        let shown = shown
            .as_str()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string();
        assert!(
            strip.contains(&format!("{label} {shown}")),
            "{strip} against {shown}"
        );
    }
    b.eval("document.getElementById('tables').scrollIntoView()");
    b.wait("getComputedStyle(document.getElementById('strip')).display === 'none'");
    // Nor does it come back below them, pointing down to results read already (phone trial
    // 76: "all results ↓" over the command line at the page's foot).
    b.eval("scrollTo(0, document.body.scrollHeight)");
    b.eval("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
    b.wait("getComputedStyle(document.getElementById('strip')).display === 'none'");
    // The rule parameters folded again, as the page opens them.
    b.eval("document.querySelector('#rules legend').click()");
    b.eval("scrollTo(0, 0)");
    assert!(
        results < 844.0,
        "a compact form: the results start at {results} px"
    );
    // Folded parts open on a tap.
    assert_eq!(
        b.eval("document.getElementById('rules').classList.contains('folded')"),
        json!(true)
    );
    b.eval("document.querySelector('#rules legend').click()");
    assert_eq!(
        b.eval("!document.getElementById('rules').classList.contains('folded') && document.querySelector('[data-field=\"rule.base_veteran\"] input').offsetHeight > 0"),
        json!(true)
    );
    // Nothing runs off the page, and the profiles' table reads without scrolling sideways
    // (issue 76: its values wrap, the interval and p-value columns stay on wider screens).
    assert_eq!(
        b.eval("document.documentElement.scrollWidth <= innerWidth"),
        json!(true),
        "{}",
        b.eval("document.documentElement.scrollWidth")
    );
    assert_eq!(
        b.eval("(() => { const w = document.querySelector('tr[data-compare]').closest('.scroll'); const hint = w.previousElementSibling; return w.scrollWidth <= w.clientWidth + 1 && !w.classList.contains('more') && hint.hidden; })()"),
        json!(true),
        "{}",
        b.eval("(() => { const w = document.querySelector('tr[data-compare]').closest('.scroll'); return [w.scrollWidth, w.clientWidth]; })()")
    );
    // Alternative text: the chart's title.
    assert_eq!(
        b.eval("[...document.querySelectorAll('#charts svg')].every((s) => s.getAttribute('role') === 'img' && s.getAttribute('aria-label').length > 5)"),
        json!(true)
    );
    // The downloads, caught before the browser saves them.
    b.eval("window.got = []; let blob = null; URL.createObjectURL = (x) => { blob = x; return 'about:blank'; }; HTMLAnchorElement.prototype.click = function () { const name = this.download, type = blob.type, size = blob.size; blob.text().then((t) => window.got.push([name, type, size, t.slice(0, 400)])); }; true");
    b.eval("document.querySelector('#tables h2 .export button').click()");
    b.eval("document.querySelector('#charts figure .export button').click()");
    b.eval("document.querySelectorAll('#charts figure .export button')[1].click()");
    let got = b.wait("window.got.length === 3 && window.got");
    let find = |ext: &str| {
        got.as_array()
            .unwrap()
            .iter()
            .find(|g| g[0].as_str().unwrap().ends_with(ext))
            .unwrap_or_else(|| panic!("no {ext} in {got}"))
            .clone()
    };
    let csv = find(".csv");
    let text = csv[3].as_str().unwrap();
    // Each value column is two in the file: the exact value, then the estimate.
    assert!(
        text.starts_with(
            ",A,A estimate,B,B estimate,B − A,B − A estimate,estimate's joint 95% interval\r\n"
        ),
        "{text}"
    );
    let recovered = text
        .lines()
        .find(|l| l.starts_with("recovered,"))
        .unwrap_or_else(|| panic!("{text}"));
    let exact_diff =
        b.eval("document.querySelector('tr[data-compare=\"recovered\"]').cells[3].dataset.value");
    assert!(
        recovered.contains(&format!(",{},", exact_diff.as_str().unwrap())),
        "{recovered} {exact_diff}"
    );
    let svg = find(".svg");
    assert_eq!(svg[1], json!("image/svg+xml"));
    assert!(svg[3].as_str().unwrap().starts_with("<svg"), "{svg}");
    let png = find(".png");
    assert_eq!(png[1], json!("image/png"));
    assert!(png[2].as_u64().unwrap() > 10_000, "{png}");
}

/// Issue 54, cumulative chances: the rally's table of recovered and removed turn by turn, shown
/// by turn k (within k turns), at turn k, or not by turn k (more than k), each the command
/// line's exact value (or one minus it).
#[test]
fn the_turn_tables_show_chances_at_by_and_not_by_turn_k() {
    let Some(chromium) =
        crate::browser::chromium("the_turn_tables_show_chances_at_by_and_not_by_turn_k")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "turns");
    b.goto(&server.url(&format!("/?{RALLY}&trials=20000&seed=5")));
    let recovered = shown_exact(&mut b, "recovered");
    let want = cli(&["--exact-only"]);
    let table = want["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "turns")
        .unwrap()
        .clone();
    let cols: Vec<&str> = table["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let col = |name: &str| cols.iter().position(|c| *c == name).unwrap();
    let shown = |b: &mut Browser| -> Vec<f64> {
        b.wait("document.querySelectorAll('table[data-table=\"turns\"] tr[data-turn]').length === 12 && document.querySelector('table[data-table=\"turns\"] tr[data-turn] td.exact')");
        b.eval("[...document.querySelectorAll('table[data-table=\"turns\"] tr[data-turn]')].map((tr) => Number(tr.cells[1].dataset.value))")
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let rows = table["rows"].as_array().unwrap();
    let cli_col = |name: &str| -> Vec<f64> {
        rows.iter()
            .map(|r| r["cells"][col(name)]["exact"].as_f64().unwrap())
            .collect()
    };
    // By turn k: the command line's `recovered_by`, reaching the outcome's chance at the cap.
    let by = shown(&mut b);
    assert_eq!(by, cli_col("recovered_by"));
    assert!((by[11] - recovered).abs() < 1e-12, "{by:?} {recovered}");
    let pick = |b: &mut Browser, view: &str| {
        b.eval(&format!("(() => {{ const s = document.querySelector('table[data-table=\"turns\"]').closest('.scroll').previousElementSibling.previousElementSibling.querySelector('select.turn-view'); s.value = '{view}'; s.dispatchEvent(new Event('change')); }})()"));
    };
    // The view changes at once (the page draws it again from the answer it holds).
    pick(&mut b, "at");
    assert_eq!(
        b.eval("document.querySelector('table[data-table=\"turns\"]').closest('.scroll').previousElementSibling.previousElementSibling.firstChild.textContent"),
        json!("Recovered and removed at turn k")
    );
    let at = shown(&mut b);
    assert_eq!(at, cli_col("recovered_at"));
    assert!((at.iter().sum::<f64>() - recovered).abs() < 1e-12);
    pick(&mut b, "after");
    let after = shown(&mut b);
    for (x, y) in after.iter().zip(&by) {
        assert_eq!(*x, 1.0 - y);
    }
}

/// Issue 54: three profiles side by side, each named and editable, with exact values and their
/// fractions; each compared with a base the reader picks; the form moves between profiles and
/// Back undoes that like any change; the link holds them all.
#[test]
fn three_profiles_side_by_side_with_exact_fractions() {
    let Some(chromium) =
        crate::browser::chromium("three_profiles_side_by_side_with_exact_fractions")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "profiles");
    b.goto(&server.url(&format!("/?{RALLY}&trials=20000&seed=3")));
    shown_exact(&mut b, "recovered");
    let exact = |rule: Option<&str>| {
        let mut args = vec!["--exact-only"];
        if let Some(r) = rule {
            args.extend(["--rule", r]);
        }
        cli(&args)["outcomes"][0]["exact"].as_f64().unwrap()
    };
    let (three, four, five) = (
        exact(None),
        exact(Some("base_veteran=4")),
        exact(Some("base_veteran=5")),
    );
    // A: the source's rule; B: 4+; C, a new profile from B: 5+, named.
    b.eval("document.getElementById('pin').click()");
    b.wait("location.search.includes('a.system=')");
    type_into(&mut b, "rule.base_veteran", "4");
    b.wait("location.search.includes('rule=base_veteran%3D4')");
    assert_eq!(
        b.eval("document.getElementById('pin').textContent"),
        json!("New profile")
    );
    b.eval("document.getElementById('pin').click()");
    b.wait(
        "location.search.includes('edit=C') && location.search.includes('b.rule=base_veteran%3D4')",
    );
    type_into(&mut b, "rule.base_veteran", "5");
    b.eval("(() => { const el = document.getElementById('profile-name'); el.value = 'Hard rally'; el.dispatchEvent(new Event('input', { bubbles: true })); })()");
    b.wait("location.search.includes('name=Hard+rally') || location.search.includes('name=Hard%20rally')");
    // Side by side: each profile's exact value is its own command line's.
    let got = b.wait("(() => { const tr = document.querySelector('tr[data-side=\"recovered\"]'); if (!tr || !location.search.includes('rule=base_veteran%3D5')) return null; const v = [...tr.querySelectorAll('td[data-profile]')].map((td) => [td.dataset.profile, Number(td.dataset.exact)]); return v.length === 3 && v.every(([, x]) => x > 0) ? v : null; })()");
    assert_eq!(got, json!([["A", three], ["B", four], ["C", five]]));
    // The name's own refresh may land after the values' (each edit waits its quarter second):
    // wait for the heads to carry it, then check all of them.
    let heads = b.wait("(() => { const h = [...document.querySelector('tr[data-side]').closest('table').querySelectorAll('th')].map((th) => th.textContent); return h.some((t) => t.includes('Hard rally')) ? h : null; })()");
    // A profile with no name of its own is headed by what sets it apart (phone trial 71: heads
    // of "A" and "B" alone said nothing): A from B, B from the base, by the rule's label.
    let heads: Vec<String> = serde_json::from_value(heads).unwrap();
    assert_eq!(heads[0], "");
    assert!(
        heads[1].starts_with("A (") && heads[1].ends_with(": 3) · base"),
        "{heads:?}"
    );
    assert!(
        heads[2].starts_with("B (") && heads[2].ends_with(": 4)"),
        "{heads:?}"
    );
    assert_eq!(heads[3], "C (Hard rally)");
    // Beside B's and C's values, their exact change from A in points; none beside A's.
    let changes = b.eval("[...document.querySelector('tr[data-side=\"recovered\"]').querySelectorAll('td[data-profile]')].map((td) => { const d = td.querySelector('.dif'); return d ? d.textContent : null; })");
    let pts = |x: f64| {
        let t = format!("{:.2}", 100.0 * x);
        format!(
            " ({}{})",
            if x > 0.0 { "+" } else { "" },
            t.replace('-', "\u{2212}")
        )
    };
    assert_eq!(changes, json!([null, pts(four - three), pts(five - three)]));
    // Exact fractions beside the values, each the value it stands beside.
    let fractions = b.eval("[...document.querySelectorAll('tr[data-side] td[data-profile]')].map((td) => [/\\((\\d+)\\/(\\d+)\\)/.exec(td.textContent), Number(td.dataset.exact)]).filter(([m]) => m).map(([m, x]) => [Number(m[1]) / Number(m[2]), x])");
    let fractions = fractions.as_array().unwrap();
    assert!(fractions.len() >= 3, "{fractions:?}");
    for f in fractions {
        let (q, x) = (f[0].as_f64().unwrap(), f[1].as_f64().unwrap());
        assert!((q - x).abs() < 1e-9 * x.abs().max(1e-300) + 1e-12, "{f}");
    }
    // Against the base: B − A and C − A, exact.
    let diff = |b: &mut Browser, who: &str| {
        b.wait(&format!("(() => {{ const tr = document.querySelector('tr[data-compare=\"recovered\"][data-profile=\"{who}\"]'); const td = tr && tr.querySelector('td.exact[data-value]'); return td && td.dataset.value !== 'undefined' ? Number(td.dataset.value) : null; }})()")).as_f64().unwrap()
    };
    b.wait("!!mcAnswer");
    assert!((diff(&mut b, "B") - (four - three)).abs() < 1e-12);
    assert!((diff(&mut b, "C") - (five - three)).abs() < 1e-12);
    // Another base: C; the others against it.
    b.eval("(() => { const s = document.getElementById('base'); s.value = 'C'; s.dispatchEvent(new Event('change')); })()");
    b.wait("location.search.includes('base=C') && !!document.querySelector('tr[data-compare=\"recovered\"][data-profile=\"A\"]') && !!mcAnswer");
    assert!((diff(&mut b, "A") - (three - five)).abs() < 1e-12);
    assert!((diff(&mut b, "B") - (four - five)).abs() < 1e-12);
    // The form edits A: its own rule (the source's), and the link says so; Back returns to C.
    b.eval("document.querySelector('#profile-list button.pick[data-label=\"A\"]').click()");
    b.wait("location.search.includes('edit=A') && document.querySelector('[data-field=\"rule.base_veteran\"] input').value === '' && document.getElementById('profile-name').value === ''");
    b.eval("history.back()");
    b.wait("location.search.includes('edit=C') && document.querySelector('[data-field=\"rule.base_veteran\"] input').value === '5' && document.getElementById('profile-name').value === 'Hard rally'");
    // The link opens all three again, with the same numbers.
    let link = b.eval("location.href").as_str().unwrap().to_string();
    let text = b
        .wait("(() => { const t = document.querySelector('tr[data-side]'); return t && !!mcAnswer ? document.getElementById('tables').textContent : null; })()")
        .as_str()
        .unwrap()
        .to_string();
    b.goto(&link);
    let again = b
        .wait("(() => { const t = document.querySelector('tr[data-side]'); return t && !!mcAnswer ? document.getElementById('tables').textContent : null; })()")
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(text, again);
    // A profile removed: two left, B beside A's old table.
    b.eval("document.querySelector('#profile-list button.drop[aria-label=\"Remove profile B\"]').click()");
    b.wait("!location.search.includes('b.') && !document.querySelector('tr[data-side]') && !!document.querySelector('tr[data-compare=\"recovered\"]')");
    let commands = b.eval("document.getElementById('command').textContent");
    assert!(
        commands.as_str().unwrap().contains("A: morale-lab rally")
            && commands
                .as_str()
                .unwrap()
                .contains("C (Hard rally): morale-lab rally"),
        "{commands}"
    );
}

/// Issue 54: a mechanic file changed on disk is picked up while the server runs: the page,
/// left alone, learns of it within seconds, shows the new text in the editor with a note, and
/// gives the new text's numbers (the command line's for the file as it now is).
#[test]
fn a_file_changed_on_disk_is_picked_up_by_the_page() {
    let Some(chromium) =
        crate::browser::chromium("a_file_changed_on_disk_is_picked_up_by_the_page")
    else {
        return;
    };
    let dir = std::env::temp_dir().join(format!(
        "morale-lab-disk-{}-{}",
        std::process::id(),
        Instant::now().elapsed().as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("mechanics/examples/first-rally.rhai"),
    )
    .unwrap();
    let file = dir.join("first-rally.rhai");
    std::fs::write(&file, &text).unwrap();
    let path = file.to_string_lossy().into_owned();
    let exact = || {
        json_of(&[
            "rally",
            "--system",
            &path,
            "--exact-only",
            "--format",
            "json",
        ])["outcomes"][0]["exact"]
            .as_f64()
            .unwrap()
    };
    let before = exact();
    let server = Server::start_with(&dir.to_string_lossy(), &[]);
    let mut b = Browser::launch(&chromium, "disk");
    b.goto(&server.url(&format!(
        "/?system={}&scenario=rally&trials=20000&seed=2",
        morale_lab::explorer::view::encode(&path)
    )));
    assert_eq!(shown_exact(&mut b, "rallied"), before);
    // Saved from another editor: 4+ becomes 5+.
    let harder = text.replacen("value: 4,", "value: 5,", 1);
    assert_ne!(harder, text);
    save_as_another_editor(&file, &harder);
    let after = exact();
    assert_ne!(after, before);
    b.wait(&format!(
        "(() => {{ const td = document.querySelector('tr[data-outcome=\"rallied\"] td.exact'); return !!td && Number(td.dataset.value) === {after:?}; }})()"
    ));
    assert_eq!(
        b.eval("document.getElementById('code').value.includes('value: 5,') && !document.getElementById('disk-note').hidden && document.getElementById('disk-note').textContent.includes('changed on disk')"),
        json!(true)
    );
    assert_eq!(b.eval("state.code === null"), json!(true), "not an edit");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 54: a file that extends one changed on disk follows it on the open page (with a note
/// naming the base), and a file new in the folder is offered without a restart; each gives the
/// command line's numbers for the files as they now stand.
#[test]
fn a_changed_base_and_a_new_file_are_picked_up_by_the_page() {
    let Some(chromium) =
        crate::browser::chromium("a_changed_base_and_a_new_file_are_picked_up_by_the_page")
    else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("morale-lab-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("mechanics/examples/first-rally.rhai"),
    )
    .unwrap();
    let (base, child, added) = (
        dir.join("base.rhai"),
        dir.join("child.rhai"),
        dir.join("added.rhai"),
    );
    std::fs::write(&base, &text).unwrap();
    std::fs::write(
        &child,
        "// The first rally under another name.\nfn about() {\n    #{ extends: \"base.rhai\", title: \"The first rally, extended\", rules: \"X-1\" }\n}\n",
    )
    .unwrap();
    let exact = |file: &std::path::Path| {
        json_of(&[
            "rally",
            "--system",
            &file.to_string_lossy(),
            "--exact-only",
            "--format",
            "json",
        ])["outcomes"][0]["exact"]
            .as_f64()
            .unwrap()
    };
    let before = exact(&child);
    let server = Server::start_with(&dir.to_string_lossy(), &[]);
    let mut b = Browser::launch(&chromium, "folder");
    let open = |b: &mut Browser, file: &std::path::Path| {
        b.goto(&server.url(&format!(
            "/?system={}&scenario=rally&trials=20000&seed=2",
            morale_lab::explorer::view::encode(&file.to_string_lossy())
        )));
    };
    open(&mut b, &child);
    assert_eq!(shown_exact(&mut b, "rallied"), before);
    // The base, saved from another editor: 4+ becomes 5+. The child follows.
    save_as_another_editor(&base, &text.replacen("value: 4,", "value: 5,", 1));
    let after = exact(&child);
    assert!(after < before, "{after} {before}");
    b.wait(&format!(
        "(() => {{ const td = document.querySelector('tr[data-outcome=\"rallied\"] td.exact'); return !!td && Number(td.dataset.value) === {after:?}; }})()"
    ));
    let note = b.eval("document.getElementById('disk-note').hidden ? '' : document.getElementById('disk-note').textContent");
    assert!(
        note.as_str().unwrap().contains("base.rhai, which")
            && note.as_str().unwrap().contains("extends, changed on disk"),
        "{note}"
    );
    assert_eq!(b.eval("state.code === null"), json!(true), "not an edit");
    // A new file in the folder: offered to the open page, and run as the command line runs it.
    std::fs::write(&added, text.replacen("value: 4,", "value: 6,", 1)).unwrap();
    let name = added.to_string_lossy().into_owned();
    b.wait(&format!(
        "[...document.getElementById('system').options].some((o) => o.value === {name:?})"
    ));
    open(&mut b, &added);
    assert_eq!(shown_exact(&mut b, "rallied"), exact(&added));
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The sweep: a field at each of a range of values, every profile at each, drawn with the
/// exact curve; its experiment file gives the same numbers from the command line, the link
/// holds it, and an exact sweep follows the form.
#[test]
fn a_sweep_draws_the_exact_curve_and_reproduces_from_the_command_line() {
    let Some(chromium) = crate::browser::chromium(
        "a_sweep_draws_the_exact_curve_and_reproduces_from_the_command_line",
    ) else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "sweep");
    b.goto(&server.url(&format!("/?{RALLY}&trials=20000&seed=5")));
    shown_exact(&mut b, "recovered");
    // A: the source's rule; B: 4+.
    b.eval("document.getElementById('pin').click()");
    b.wait("location.search.includes('a.system=')");
    type_into(&mut b, "rule.base_veteran", "4");
    b.wait("!!mcAnswer && mcAnswer.query.includes('rule=base_veteran%3D4')");
    // The button beside "Already lost" sweeps it at once over the range it may take here: of
    // 7 stands, 0 to 6 lost (issue 76: not 0..8 with 7 and 8 said to be left out).
    b.eval("document.querySelector('[data-field=\"set.lost\"] .sweep-here').click()");
    let rows = b
        .wait("(() => { const r = document.querySelectorAll('#swept tbody tr'); return r.length ? r.length : null; })()")
        .as_u64()
        .unwrap();
    assert_eq!(
        b.eval("[document.getElementById('sweep-key').value, document.getElementById('sweep-values').value, !!document.getElementById('sweep-left-out')]"),
        json!(["lost", "0..6", false])
    );
    assert_eq!(rows, 7);
    // The profiles do not differ in stands lost: no warning.
    assert_eq!(
        b.eval("!!document.getElementById('sweep-differs')"),
        json!(false)
    );
    assert!(
        b.wait("location.search.includes('sweep=lost&values=0..6')")
            .as_bool()
            .unwrap()
    );
    // Typed, a range is run as typed: 7 and 8 of 7 stands cannot be lost and still rally, so
    // they are left out, and said.
    b.eval("document.getElementById('sweep-values').value = '0..8'; document.getElementById('sweep-run').click()");
    let left = b
        .wait("(() => { const l = document.getElementById('sweep-left-out'); return l && l.textContent; })()");
    assert!(
        left.as_str().unwrap().starts_with("Left out: 7, 8 (")
            && left
                .as_str()
                .unwrap()
                .contains("less than --set stands = 7"),
        "{left}"
    );
    assert_eq!(
        b.eval("document.querySelectorAll('#swept tbody tr').length")
            .as_u64(),
        Some(7)
    );
    assert!(
        b.wait("location.search.includes('sweep=lost&values=0..8')")
            .as_bool()
            .unwrap()
    );
    // One chart, with its title as its text and the exact line named on its axis.
    assert_eq!(
        b.eval("document.querySelectorAll('#swept svg[role=img]').length")
            .as_u64(),
        Some(1)
    );
    // Now by Monte Carlo as well, over 0..3: the dots beside the exact values.
    b.eval("document.getElementById('sweep-values').value = '0..3'; document.getElementById('sweep-mc').checked = true; document.getElementById('sweep-run').click()");
    b.wait("(() => { const e = document.querySelector('#swept tbody tr .ex'); return document.querySelectorAll('#swept tbody tr').length === 4 && !!e; })()");
    assert!(
        b.eval("location.search.includes('sweep.mc=1')")
            .as_bool()
            .unwrap()
    );
    if let Some(dir) = std::env::var_os("MORALE_LAB_SCREENSHOTS") {
        b.eval("reveal(document.getElementById('swept'))");
        std::fs::write(
            std::path::PathBuf::from(dir).join("explorer-sweep.png"),
            b.screenshot(1280, 900),
        )
        .unwrap();
    }
    let shown = b.eval(
        "[...document.querySelectorAll('#swept tbody tr')].map((tr) => [tr.dataset.value, [...tr.querySelectorAll('td.exact')].map((td) => [td.dataset.column, Number(td.dataset.value), Number(td.querySelector('.ex').textContent.replace('estimate ', '').replace('%', '')) / 100])])",
    );
    // The experiment file the page offers, run from the command line: the same exact values
    // to the bit, and the same estimates.
    let got = downloaded(&mut b, "dl-sweep");
    assert_eq!(got[0], json!("sweep.toml"));
    let text = got[1].as_str().unwrap();
    assert!(
        text.contains("[sweep]\nx = { key = \"lost\", values = [0, 1, 2, 3] }"),
        "{text}"
    );
    assert_eq!(
        b.eval("document.getElementById('sweep-command').textContent"),
        json!("morale-lab run sweep.toml")
    );
    let results = run_experiment_file("sweep.toml", text);
    let names: Vec<String> = results["experiment"]["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["A", "B"]);
    let shown = shown.as_array().unwrap();
    let runs = results["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 8);
    for run in runs {
        let lost = run["point"][0].as_i64().unwrap().to_string();
        let variant = run["variant"].as_u64().unwrap() as usize;
        let recovered = run["report"]["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["outcome"] == "recovered")
            .unwrap();
        let row = shown
            .iter()
            .find(|r| r[0].as_str() == Some(&lost))
            .unwrap_or_else(|| panic!("no row for lost = {lost}"));
        let cell = &row[1][variant];
        assert_eq!(cell[0].as_str(), Some(names[variant].as_str()));
        assert_eq!(
            cell[1].as_f64(),
            recovered["exact"].as_f64(),
            "lost = {lost}"
        );
        // The page shows the estimate to two decimals of a per cent.
        let p = recovered["p"].as_f64().unwrap();
        assert!(
            (cell[2].as_f64().unwrap() - p).abs() < 0.00005 + 1e-12,
            "lost = {lost}: {cell} against {p}"
        );
    }
    // The link holds the sweep: opened afresh, it runs again (by Monte Carlo, as asked).
    let href = b.eval("location.href").as_str().unwrap().to_string();
    let mut fresh = Browser::launch(&chromium, "sweep-link");
    fresh.goto(&href);
    fresh.wait("(() => { const r = document.querySelectorAll('#swept tbody tr'); return r.length === 4 && !!document.querySelector('#swept tbody tr .ex'); })()");
    assert_eq!(
        fresh.eval("[...document.querySelectorAll('#swept td.exact')].map((td) => Number(td.dataset.value))"),
        b.eval("[...document.querySelectorAll('#swept td.exact')].map((td) => Number(td.dataset.value))")
    );
    drop(fresh);
    // An exact sweep follows the form: B at 5+ moves B's column, and A's stays.
    b.eval("document.getElementById('sweep-mc').checked = false; document.getElementById('sweep-run').click()");
    b.wait("!location.search.includes('sweep.mc') && !document.querySelector('#swept .ex')");
    let before =
        b.eval("[...document.querySelectorAll('#swept td.exact')].map((td) => td.dataset.value)");
    type_into(&mut b, "rule.base_veteran", "5");
    b.wait(&format!(
        "JSON.stringify([...document.querySelectorAll('#swept td.exact')].map((td) => td.dataset.value)) !== {:?}",
        before.to_string()
    ));
    let after =
        b.eval("[...document.querySelectorAll('#swept td.exact')].map((td) => td.dataset.value)");
    let (before, after) = (before.as_array().unwrap(), after.as_array().unwrap());
    assert_eq!(before.len(), 8);
    for i in 0..4 {
        assert_eq!(before[2 * i], after[2 * i], "A's column stays");
    }
    assert_ne!(before[1], after[1], "B's column moves");
    // Bad values are refused at their field, saying what is allowed.
    b.eval("document.getElementById('sweep-values').value = '0..99'; document.getElementById('sweep-run').click()");
    let msg = b
        .wait("(() => { const m = document.querySelector('[data-field=\"sweep.values\"] .msg'); return m && m.textContent; })()")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        msg.contains("'99' is not allowed for lost: a whole number from"),
        "{msg}"
    );
    // Swept over the very number A and B differ in, the sweep erases their difference: the
    // page says so, naming each profile's own value.
    b.eval("document.getElementById('sweep-key').value = 'base_veteran'; document.getElementById('sweep-values').value = '2..5'; document.getElementById('sweep-run').click()");
    let differs = b.wait(
        "(() => { const w = document.getElementById('sweep-differs'); return w && w.textContent; })()",
    );
    assert!(
        differs.as_str().unwrap().contains(
            "(A: as written, B: 5), and the sweep gives each of them every value in turn"
        ),
        "{differs}"
    );
    // Clear the sweep: gone from the page and the link.
    b.eval("document.getElementById('sweep-clear').click()");
    b.wait("!location.search.includes('sweep=') && document.getElementById('swept').children.length === 0");
}

/// Saves `text` to `path` as another editor would, its modification time set two seconds ahead,
/// so the server's watch sees a new time even where the filesystem keeps whole seconds (rather
/// than waiting a second before writing).
fn save_as_another_editor(path: &std::path::Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(std::time::SystemTime::now() + Duration::from_secs(2))
        .unwrap();
}

/// Best play (issue 78): in an engagement the page solves side A's choices for the profile the
/// form edits, as `play engagement` does on the command line (the same answer, to the digit),
/// with each way of playing valued, the states most met, the map of the best choice and the
/// command that gives them; the link holds it and a link opened solves it again; a scenario
/// with no choice hides it.
#[test]
fn the_page_solves_the_best_play() {
    let Some(chromium) = crate::browser::chromium("the_page_solves_the_best_play") else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "play");
    let view = "system=rank-and-file&scenario=engagement&set=attacker%3Dveteran%20cavalry&set=defender%3Dgreen%20stands%3D6&trials=20000";
    b.goto(&server.url(&format!("/?{view}")));
    shown_exact(&mut b, "side_a_holds");
    assert_eq!(
        b.eval("document.getElementById('play').hidden"),
        json!(false)
    );
    let want = json_of(&[
        "play",
        "engagement",
        "--system",
        "rank-and-file",
        "--attacker",
        "veteran cavalry",
        "--defender",
        "green stands=6",
        "--format",
        "json",
    ]);
    b.eval("document.getElementById('play-run').click()");
    let answer = b
        .wait("(() => { const p = document.querySelector('#played p'); return p && p.textContent; })()")
        .as_str()
        .unwrap()
        .to_string();
    let points = |x: f64| format!("{:+.2} points", 100.0 * x).replace('-', "\u{2212}");
    assert!(
        answer.contains(&format!(
            "side A's best play scores {}",
            points(want["optimal"].as_f64().unwrap())
        )) && answer.contains(want["thumb"]["name"].as_str().unwrap()),
        "{answer} / {want}"
    );
    // Each way of playing, a row; the states, up to twenty; the map; the command line.
    let ways = b
        .eval("document.querySelectorAll('#played table')[0].querySelectorAll('tbody tr').length")
        .as_u64()
        .unwrap();
    assert!(ways >= 4, "{ways}");
    let states = b
        .eval("document.querySelectorAll('#played table')[1].querySelectorAll('tbody tr').length")
        .as_u64()
        .unwrap();
    assert!((1..=20).contains(&states), "{states}");
    assert_eq!(
        b.eval("document.querySelectorAll('#played figure svg').length")
            .as_u64(),
        Some(1)
    );
    let command = b
        .eval("document.querySelector('#played pre').textContent")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        command.starts_with("morale-lab play engagement --system rank-and-file")
            && command.contains("--chart best-play.png"),
        "{command}"
    );
    // The link holds it: opened afresh, the page solves it again.
    b.wait("location.search.includes('play=1')");
    let link = b.eval("location.href").as_str().unwrap().to_string();
    b.eval("document.getElementById('played').replaceChildren()");
    b.goto(&link);
    let again = b
        .wait("(() => { const p = document.querySelector('#played p'); return p && p.textContent; })()")
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(again, answer);
    // A scenario with no choice: no best play to ask, and the link lets it go.
    b.goto(&server.url(&format!("/?{RALLY}&play=1")));
    shown_exact(&mut b, "recovered");
    assert_eq!(
        b.eval("document.getElementById('play').hidden"),
        json!(true)
    );
    b.wait("!location.search.includes('play=1') && !document.querySelector('#played p')");
}

/// A designer's trial: on a phone a typo in a side's unit in an engagement was not marked at
/// its box, and the strip at the screen's foot kept the last setting's bold answer. The box is
/// marked with its error, naming the word, and the strip says the answer is not current and
/// what is wrong, with no number; put right, the strip has its number again.
#[test]
fn a_typo_in_a_unit_is_marked_at_its_box_and_the_strip_is_not_current() {
    let Some(chromium) = crate::browser::chromium(
        "a_typo_in_a_unit_is_marked_at_its_box_and_the_strip_is_not_current",
    ) else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "typo-phone");
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true }),
    );
    b.goto(&server.url("/?system=rank-and-file&scenario=engagement&trials=20000"));
    let before = b.wait("(() => { const s = document.getElementById('strip'); return !s.hidden && s.querySelector('b') && /%/.test(s.textContent) && !s.classList.contains('error') ? s.textContent : null; })()");
    assert!(before.as_str().unwrap().contains("38.62%"), "{before}");
    type_into(&mut b, "set.attacker", "regulr infantry");
    let marked = b.wait("(() => { const f = document.querySelector('.field.bad'); const m = f && f.querySelector('.msg'); return m ? [f.dataset.field, m.textContent] : null; })()");
    assert_eq!(marked[0], json!("set.attacker"), "{marked}");
    let msg = marked[1].as_str().unwrap();
    assert!(
        msg.starts_with("Attacking unit: \u{201c}regulr\u{201d} is not one of its words; ")
            && msg.contains("veteran, regular, green"),
        "{msg}"
    );
    let strip = b.wait("(() => { const s = document.getElementById('strip'); return s.classList.contains('error') && getComputedStyle(s).display === 'block' ? s.textContent : null; })()");
    let strip = strip.as_str().unwrap();
    assert!(
        strip.starts_with("Not current")
            && strip.contains("Attacking unit")
            && strip.contains("regulr")
            && !strip.contains('%')
            && !strip.contains("allowed"),
        "{strip}"
    );
    // A tap on it goes to the box to put right.
    b.eval("window.scrollTo(0, document.documentElement.scrollHeight)");
    b.eval("document.getElementById('strip').click()");
    b.wait("document.activeElement && document.activeElement.closest('[data-field=\"set.attacker\"]') !== null");
    type_into(&mut b, "set.attacker", "regular infantry");
    b.wait("(() => { const s = document.getElementById('strip'); return !s.classList.contains('error') && s.textContent.includes('38.62%') && !document.querySelector('.field.bad'); })()");
}

/// A designer's trial: the tables printed each row's own 95% interval while the page judged
/// its estimates by the joint (Bonferroni-widened) intervals, so three exact values lay just
/// outside their printed intervals with no star. The intervals printed are those judged: an
/// exact value outside its printed interval is starred, one inside is not, the widths are the
/// joint ones for the number of rows checked, and the note says so and over how many rows.
#[test]
fn every_exact_value_outside_its_printed_interval_is_starred() {
    let Some(chromium) =
        crate::browser::chromium("every_exact_value_outside_its_printed_interval_is_starred")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "joint");
    // Rows, each: [exact, low, high, starred, printed text, estimate]; the number checked.
    let rows = "(() => { const out = []; for (const tr of document.querySelectorAll('#tables tr, #against tr')) { const iv = tr.querySelector('td[data-low]'); if (!iv) continue; const ex = tr.querySelector('td:has(.ivl)') || tr.querySelector('td.exact'); if (!ex || !ex.classList.contains('exact')) continue; out.push([Number(ex.dataset.value), Number(iv.dataset.low), Number(iv.dataset.high), tr.classList.contains('missed'), iv.textContent, Number(ex.dataset.estimate)]); } return out; })()";
    for (url, fmt_pct) in [
        (
            "/?system=rank-and-file&scenario=rally&trials=1000000&seed=1".to_string(),
            true,
        ),
        (
            format!("/?{RALLY}&trials=20000&seed=3&a.system=rank-and-file&a.set=class%3Dgreen"),
            false,
        ),
        (
            "/?system=rank-and-file&scenario=engagement&trials=20000&seed=5".to_string(),
            true,
        ),
    ] {
        b.goto(&server.url(&url));
        b.wait("typeof mcAnswer !== 'undefined' && mcAnswer !== null && document.querySelectorAll('td[data-low]').length > 0 && !!document.querySelector('.joint-note')");
        let got = b.eval(rows);
        let got = got.as_array().unwrap();
        assert!(got.len() >= 3, "{url}: {got:?}");
        let mut starred = 0;
        for r in got {
            let (exact, lo, hi, star) = (
                r[0].as_f64().unwrap(),
                r[1].as_f64().unwrap(),
                r[2].as_f64().unwrap(),
                r[3].as_bool().unwrap(),
            );
            let outside = exact < lo - 1e-12 || exact > hi + 1e-12;
            assert_eq!(outside, star, "{url}: {r}");
            starred += usize::from(star);
            // The text is the interval judged, as the page prints numbers.
            let text = r[4].as_str().unwrap();
            if fmt_pct {
                // To two places, or as many more as keep the printed exact value on its true
                // side of the printed edges (an exact 74.39% just outside "74.39% – 74.62%"
                // read as inside).
                let places = (2..6)
                    .find(|&d| {
                        let r = |x: f64| format!("{:.*}", d, 100.0 * x).parse::<f64>().unwrap();
                        (r(exact) >= r(lo) && r(exact) <= r(hi)) != outside
                    })
                    .unwrap_or(6);
                assert_eq!(
                    text,
                    format!("{:.*}% – {:.*}%", places, 100.0 * lo, places, 100.0 * hi),
                    "{url}"
                );
                if places > 2 {
                    let shown = b.eval("[...document.querySelectorAll('td.exact')].map((t) => t.textContent).join('|')");
                    assert!(
                        shown
                            .as_str()
                            .unwrap()
                            .contains(&format!("{:.*}%", places, 100.0 * exact)),
                        "{url}: {shown}"
                    );
                }
            } else {
                assert!(text.contains(" to "), "{url}: {text}");
            }
        }
        // Joint: each as wide as the number of rows checked asks.
        let note = b.eval("document.querySelector('.joint-note').textContent");
        let note = note.as_str().unwrap();
        let n: usize = note
            .split(" over the ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("{url}: {note}"));
        let z = morale_lab::stats::z_for_confidence(1.0 - 0.05 / n as f64);
        assert!(
            note.contains("joint 95% intervals")
                && note.contains("which a reader scans at once")
                && note.contains(&format!("\u{b1}{z:.2} standard errors")),
            "{url}: {note}"
        );
        assert!(z > 2.3, "{url}: {n} rows");
        let heads = b.eval("[...document.querySelectorAll('th')].map((t) => t.textContent).filter((t) => /interval/.test(t))");
        assert!(
            heads
                .as_array()
                .unwrap()
                .iter()
                .all(|h| h.as_str().unwrap().contains("joint 95% interval")),
            "{url}: {heads}"
        );
        if url.contains("seed=1") {
            // Seed 1's rally misses on its headline (see the test above): starred, and inside
            // its interval no row is.
            assert!(starred >= 1, "{url}: {got:?}");
        }
    }
}

/// A designer's trial: the default engagement's two alike Regular units hold 38.62% and
/// 44.84%, with nothing to say why; and the best play did not say that side B has no choice.
/// The page says why, from what the model does (only side A charges, and a charger does not
/// fire that turn), and the claim holds: with side A's charges off the sides come out alike;
/// the best play says the defending unit has no choice to make.
#[test]
fn alike_units_that_differ_say_why_and_best_play_says_b_has_no_choice() {
    let Some(chromium) = crate::browser::chromium(
        "alike_units_that_differ_say_why_and_best_play_says_b_has_no_choice",
    ) else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "sides");
    b.goto(&server.url("/?system=rank-and-file&scenario=engagement&trials=20000"));
    let why = b.wait(
        "(() => { const p = document.getElementById('sides-note'); return p && p.textContent; })()",
    );
    let why = why.as_str().unwrap();
    assert!(
        why.contains("Side A (the attacking unit) charges an enemy that is shaken (\u{201c}A charges a shaken target\u{201d}, on)")
            && why.contains("side B (the defending unit) never chooses to charge")
            && why.contains("does not fire in that turn (\u{201c}Chargers still fire\u{201d}, off)")
            && why.contains("With side A's charges switched off, the two sides come out alike"),
        "{why}"
    );
    // Its words are the model's: switched off, alike; a charger that fires, and side A is ahead.
    let holds = |b: &mut Browser| {
        b.wait("(() => { const a = document.querySelector('tr[data-outcome=\"side_a_holds\"] td.exact'), c = document.querySelector('tr[data-outcome=\"side_b_holds\"] td.exact'); return a && c && !document.getElementById('results').classList.contains('updating') && typeof exactAnswer !== 'undefined' && exactAnswer ? [Number(a.dataset.value), Number(c.dataset.value), location.search] : null; })()")
    };
    b.eval("(() => { const el = document.querySelector('[data-field=\"set.charge_when_shaken\"] input'); el.checked = false; el.dispatchEvent(new Event('change', { bubbles: true })); })()");
    b.wait("location.search.includes('charge_when_shaken%3Dfalse') && !document.getElementById('sides-note')");
    let v = holds(&mut b);
    assert!(
        (v[0].as_f64().unwrap() - v[1].as_f64().unwrap()).abs() < 1e-12,
        "{v}"
    );
    // A different side's unit: no note (they are not alike).
    b.goto(&server.url(
        "/?system=rank-and-file&scenario=engagement&trials=20000&set=defender%3Dgreen%20infantry",
    ));
    b.wait("!!document.querySelector('tr[data-outcome=\"side_a_holds\"] td.exact')");
    assert_eq!(
        b.eval("!!document.getElementById('sides-note')"),
        json!(false)
    );
    // Best play: side B has no choice, said in the page's words of the side.
    b.goto(&server.url("/?system=rank-and-file&scenario=engagement&trials=20000&play=1"));
    let none = b.wait("(() => { const p = document.getElementById('play-no-choice'); return p && p.textContent; })()");
    assert!(
        none.as_str().unwrap().starts_with(
            "The defending unit (side B) has no choice to make here: it never chooses to charge"
        ),
        "{none}"
    );
}

/// A designer's trial: on a phone, "New profile" made the page leap half a screen (the name
/// box of the new profile, below the button, was focused and the browser jumped to it). The
/// page stays where the reader is: the button does not leap, a short smooth scroll at most
/// brings the new profile's chip into sight.
#[test]
fn a_new_profile_keeps_the_phone_where_it_is() {
    let Some(chromium) = crate::browser::chromium("a_new_profile_keeps_the_phone_where_it_is")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "new-profile-phone");
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true }),
    );
    b.call(
        "Emulation.setTouchEmulationEnabled",
        json!({ "enabled": true }),
    );
    b.goto(&server.url(&format!("/?{RALLY}&trials=20000")));
    b.wait("!!document.querySelector('td.exact')");
    for press in 0..2 {
        // The button low on the screen, as a thumb finds it.
        let before = b.eval("(() => { const r = document.getElementById('pin').getBoundingClientRect(); window.scrollBy(0, r.top - 700); return document.getElementById('pin').getBoundingClientRect().top; })()");
        b.eval("document.getElementById('pin').click()");
        let after = b.eval("document.getElementById('pin').getBoundingClientRect().top");
        let (before, after) = (before.as_f64().unwrap(), after.as_f64().unwrap());
        // No leap (it was 490 px): at most the first steps of a short smooth scroll.
        assert!(
            (before - after).abs() < 60.0,
            "press {press}: the button leapt from {before} to {after}"
        );
        // The new chip comes into sight (a short smooth scroll at most), with no keyboard.
        b.wait(&format!("document.querySelectorAll('#profile-list .chip').length === {} && (() => {{ const c = document.querySelector('#profile-list .chip:last-child').getBoundingClientRect(); return c.top >= 0 && c.bottom <= innerHeight; }})()", press + 2));
        let moved = b.eval("document.getElementById('pin').getBoundingClientRect().top");
        assert!(
            (before - moved.as_f64().unwrap()).abs() < 200.0,
            "press {press}: the page moved from {before} to {moved}"
        );
        assert_eq!(
            b.eval("document.activeElement.classList.contains('chip-name')"),
            json!(false)
        );
    }
}

/// A designer's trial: a mechanic file's error showed the scripting engine's jargon
/// ("Expression cannot be assigned to"). It reads in plain words at its line, the engine's
/// own words kept in small print beneath.
#[test]
fn a_script_error_reads_in_plain_words_at_its_line() {
    let Some(chromium) =
        crate::browser::chromium("a_script_error_reads_in_plain_words_at_its_line")
    else {
        return;
    };
    let server = Server::start(&[]);
    let mut b = Browser::launch(&chromium, "plain-errors");
    b.goto(
        &server.url("/?system=mechanics%2Fexamples%2Ffirst-rally.rhai&scenario=rally&trials=20000"),
    );
    b.wait("!document.getElementById('editor').hidden && !!document.querySelector('td.exact')");
    for (line, says, engine) in [
        (
            "    d6() = 3;",
            "the left side of this `=` is not something that can be set",
            "Expression cannot be assigned to",
        ),
        (
            "    let x = y + 1;",
            ", in rally_turn(): there is no variable `y` here: make it first with `let y = …`",
            "Variable not found: y",
        ),
        (
            "    let a = [1]; let q = a[3];",
            ", in rally_turn(): there is no item 3 in this list of 1 item",
            "Array index 3 out of bounds",
        ),
    ] {
        b.eval(&format!("(() => {{ const c = document.getElementById('code'); const l = c.value.split('\\n'); const i = l.findIndex((x) => x.startsWith('fn rally_turn')); l.splice(i + 1, 0, {line:?}); c.value = l.join('\\n'); document.getElementById('run-code').click(); }})()"));
        let at = b.eval("document.getElementById('code').value.split('\\n').findIndex((x) => x.startsWith('fn rally_turn')) + 2");
        let shown = b.wait("(() => { const e = document.getElementById('code-error'); const s = e.querySelector('small.engine'); return s ? [e.firstChild.textContent, s.textContent, getComputedStyle(s).fontSize, getComputedStyle(e).fontSize] : null; })()");
        let (plain, small) = (shown[0].as_str().unwrap(), shown[1].as_str().unwrap());
        assert!(
            plain.starts_with(&format!("Line {at}")) && plain.contains(says),
            "{plain}"
        );
        assert!(!plain.contains(engine), "{plain}");
        assert!(
            small.starts_with("The scripting engine's words: ") && small.contains(engine),
            "{small}"
        );
        let px = |v: &Value| {
            v.as_str()
                .unwrap()
                .trim_end_matches("px")
                .parse::<f64>()
                .unwrap()
        };
        assert!(px(&shown[2]) < px(&shown[3]), "{shown}");
        b.eval("document.getElementById('reset-code').click()");
        b.wait("document.getElementById('code-error').textContent === '' && !!document.querySelector('td.exact')");
    }
}
