//! `morale-lab serve`: the explorer page and its API over HTTP on loopback. The answers are the
//! library's ([`morale_lab::explorer::Explorer`]); this file only listens, reads one bounded
//! request per connection (HTTP/1.1, `Connection: close`), and writes the answer.

use std::io::Read;
use std::net::{IpAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use morale_lab::engine::Control;
use morale_lab::error::{Error, Result};
use morale_lab::explorer::{Explorer, Limits, Response};

/// How to serve.
pub struct Serve {
    /// The address to listen on (loopback unless asked otherwise).
    pub host: IpAddr,
    /// The port (0: any free one).
    pub port: u16,
    /// The folder of mechanic files offered as systems, and whether it was named (a named
    /// folder must exist).
    pub mechanics: (std::path::PathBuf, bool),
    /// Open the page in the desktop's browser.
    pub open: bool,
    /// The server's limits.
    pub limits: Limits,
    /// Host names it answers to beyond loopback (`--allow-host`).
    pub names: Vec<String>,
}

/// The most mechanic files read from the folder.
const MAX_FILES: usize = 500;

/// Every `.rhai` file under `dir`, with its text, sorted by path (files over the size limit
/// left out).
fn mechanic_files(dir: &std::path::Path) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for (path, len) in mechanic_paths(dir)? {
        if len > morale_lab::mechanic::MAX_FILE_BYTES as u64 {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(&path) {
            out.push((path, text));
        }
    }
    out.sort();
    Ok(out)
}

/// Every `.rhai` file under `dir`, with its size, at most [`MAX_FILES`].
fn mechanic_paths(dir: &std::path::Path) -> Result<Vec<(String, u64)>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| Error::File {
            path: d.display().to_string(),
            line: 0,
            key: String::new(),
            message: format!("cannot be read as the --mechanics folder: {e}"),
        })?;
        for entry in entries.flatten() {
            let path = entry.path();
            let kind = entry.file_type();
            if kind.as_ref().is_ok_and(|t| t.is_dir()) {
                stack.push(path);
            } else if kind.is_ok_and(|t| t.is_file())
                && morale_lab::mechanic::is_file(&path.to_string_lossy())
            {
                if out.len() >= MAX_FILES {
                    return Err(Error::Conflict(format!(
                        "{} holds more than {MAX_FILES} mechanic files: point --mechanics at a smaller folder",
                        dir.display()
                    )));
                }
                let len = entry.metadata().map_or(0, |m| m.len());
                out.push((path.to_string_lossy().into_owned(), len));
            }
        }
    }
    Ok(out)
}

/// A token no other page can guess: 128 bits from the system's random source (the clock, the
/// process and a stack address hashed, where there is none).
fn token() -> String {
    use sha2::Digest;
    let mut bytes = [0u8; 16];
    let random = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_ok();
    if !random {
        let mut h = sha2::Sha256::new();
        h.update(format!(
            "{:?} {} {:p}",
            std::time::SystemTime::now(),
            std::process::id(),
            &bytes
        ));
        bytes.copy_from_slice(&h.finalize()[..16]);
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Connections served at once. Past it the oldest connection that has not yet sent its whole
/// request (an idle one) is closed to make room; with none idle, a new one gets 503 at once.
const MAX_CONNECTIONS: usize = 512;

/// Request bodies held at once, in bytes, over every connection: past it a request is told the
/// server is busy, so that many large requests together have a ceiling in memory.
const MAX_BODIES_IN_FLIGHT: usize = 128 << 20;

/// The bytes of request bodies held now.
static BODIES: AtomicUsize = AtomicUsize::new(0);

/// A request body's share of [`MAX_BODIES_IN_FLIGHT`], given back when dropped.
struct Reserved(usize);

impl Reserved {
    fn take(n: usize) -> Option<Reserved> {
        let before = BODIES.fetch_add(n, Ordering::SeqCst);
        if before + n > MAX_BODIES_IN_FLIGHT {
            BODIES.fetch_sub(n, Ordering::SeqCst);
            return None;
        }
        Some(Reserved(n))
    }
}

impl Drop for Reserved {
    fn drop(&mut self) {
        BODIES.fetch_sub(self.0, Ordering::SeqCst);
    }
}

/// Connections still reading their request, oldest first: closed first when the server is full.
type Idle = Arc<std::sync::Mutex<std::collections::VecDeque<(u64, TcpStream)>>>;

/// How often the offered mechanic files are looked at for changes.
const WATCH_EVERY: Duration = Duration::from_millis(500);

/// Look at the mechanic files offered every [`WATCH_EVERY`]; a file whose time or size changed
/// is read again and, if its text changed, the explorer runs it as it now stands (a file grown
/// past the size limit, or gone, is left as it was, with a warning). A file new in the folder
/// `dir` is offered from then on (up to [`MAX_FILES`] in all).
fn watch(
    dir: Option<std::path::PathBuf>,
    mut paths: Vec<String>,
    explorer: Arc<Explorer>,
    control: Arc<Control>,
) {
    if paths.is_empty() && dir.is_none() {
        return;
    }
    let stamp = |p: &str| {
        std::fs::metadata(p)
            .ok()
            .map(|m| (m.modified().ok(), m.len()))
    };
    let mut seen: Vec<_> = paths.iter().map(|p| stamp(p)).collect();
    std::thread::spawn(move || {
        while !control.is_cancelled() {
            std::thread::sleep(WATCH_EVERY);
            // New files first: read and offered (a folder grown past the limit adds none).
            let listed = dir.as_deref().and_then(|d| mechanic_paths(d).ok());
            for (path, len) in listed.unwrap_or_default() {
                if paths.contains(&path) || len > morale_lab::mechanic::MAX_FILE_BYTES as u64 {
                    continue;
                }
                // Its time and size before it is read: a change while reading is seen next time.
                let now = stamp(&path);
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                if explorer.file_added(&path, text) {
                    match explorer.broken().get(&morale_lab::paths::normalize(&path)) {
                        Some(why) => eprintln!(
                            "{path} is new in the folder: offered, but it does not load: {why}"
                        ),
                        None => eprintln!("{path} is new in the folder: the explorer offers it"),
                    }
                }
                paths.push(path);
                seen.push(now);
            }
            for (path, last) in paths.iter().zip(seen.iter_mut()) {
                let now = stamp(path);
                if now == *last {
                    continue;
                }
                *last = now;
                match now {
                    None => eprintln!("warning: {path} is gone: the explorer keeps its last text"),
                    Some((_, len)) if len > morale_lab::mechanic::MAX_FILE_BYTES as u64 => {
                        eprintln!(
                            "warning: {path} is now {len} bytes, over the limit of {}: the explorer keeps its last text",
                            morale_lab::mechanic::MAX_FILE_BYTES
                        )
                    }
                    Some(_) => {
                        if let Ok(text) = std::fs::read_to_string(path)
                            && explorer.file_changed(path, text)
                        {
                            eprintln!(
                                "{path} changed on disk: the explorer now runs it as it stands"
                            );
                        }
                    }
                }
            }
        }
    });
}

/// The largest request head (request line and headers), in bytes.
const MAX_HEAD: usize = 64 << 10;

/// How long a connection may take to send its whole request, and to take each part of the
/// answer.
const IO_TIMEOUT: Duration = Duration::from_secs(10);

/// Listen and answer until `control` is cancelled (Ctrl-C).
pub fn serve(s: Serve, control: Arc<Control>) -> Result<String> {
    let (dir, named) = &s.mechanics;
    let files = if dir.is_dir() || *named {
        mechanic_files(dir)?
    } else {
        Vec::new()
    };
    let n_files = files.len();
    let watched: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let listener = TcpListener::bind((s.host, s.port)).map_err(|e| Error::Invalid {
        what: "--port".into(),
        value: s.port.to_string(),
        allowed: format!("a free port on {} ({e})", s.host),
    })?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::Conflict(format!("the server has no address: {e}")))?;
    let gate = morale_lab::explorer::Gate::new(token(), s.host, addr.port(), s.names.clone());
    let explorer = Arc::new(Explorer::new(files, s.limits.clone()).with_gate(gate));
    for (path, why) in explorer.broken() {
        eprintln!("warning: {path} is offered but does not load: {why}");
    }
    let url = match addr.ip() {
        IpAddr::V6(ip) => format!("http://[{ip}]:{}/", addr.port()),
        IpAddr::V4(ip) => format!("http://{ip}:{}/", addr.port()),
    };
    if !s.host.is_loopback() {
        eprintln!(
            "warning: listening on {} — anyone who can reach this address can open the page, read every mechanic file it offers, and run the server's CPU ({} runs at once of each kind, up to {} s each); it answers to IP addresses{} and localhost, and its API only to its own page",
            s.host,
            s.limits.max_runs,
            s.limits.max_seconds,
            if s.names.is_empty() {
                String::new()
            } else {
                format!(", {}", s.names.join(", "))
            }
        );
    }
    println!(
        "morale-lab explorer at {url} ({} built-in systems, {n_files} mechanic files from {}); Ctrl-C stops it",
        morale_lab::system::systems()
            .iter()
            .filter(|x| !morale_lab::mechanic::is_file(x.name()))
            .count(),
        dir.display()
    );
    use std::io::Write;
    let _ = std::io::stdout().flush();
    if s.open {
        let opened = std::process::Command::new("xdg-open")
            .arg(&url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if opened.is_err() {
            eprintln!("could not open a browser (xdg-open): open {url} yourself");
        }
    }
    accept(listener, Arc::clone(&explorer), Arc::clone(&control));
    let folder = dir.is_dir().then(|| dir.clone());
    watch(folder, watched, Arc::clone(&explorer), Arc::clone(&control));
    while !control.is_cancelled() {
        std::thread::sleep(Duration::from_millis(100));
    }
    explorer.cancel_all();
    eprintln!("morale-lab serve: stopped");
    Ok(String::new())
}

/// Answer `listener`'s connections on a thread, each connection on a thread of its own with
/// timeouts, so that a slow or idle client holds only its own thread, never another's request.
pub fn accept(listener: TcpListener, explorer: Arc<Explorer>, control: Arc<Control>) {
    let open = Arc::new(AtomicUsize::new(0));
    let idle: Idle = Arc::default();
    std::thread::spawn(move || {
        for (id, stream) in listener.incoming().enumerate() {
            if control.is_cancelled() {
                break;
            }
            let Ok(mut stream) = stream else { continue };
            if open.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
                // Make room by closing the oldest connection still sending its request (its
                // thread then ends); with none, this one is told the server is busy.
                let oldest = idle.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                match oldest {
                    Some((_, old)) => {
                        let _ = old.shutdown(std::net::Shutdown::Both);
                    }
                    None => {
                        let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
                        let _ = write_response(
                            &mut stream,
                            &busy("has too many connections open"),
                            false,
                        );
                        continue;
                    }
                }
            }
            open.fetch_add(1, Ordering::SeqCst);
            let explorer = Arc::clone(&explorer);
            let open = Arc::clone(&open);
            let idle = Arc::clone(&idle);
            std::thread::spawn(move || {
                connection(&explorer, stream, (id as u64, &idle));
                open.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
}

/// 503 with `why` the server cannot take the request now.
fn busy(why: &str) -> Response {
    Response {
        status: 503,
        content_type: "application/json; charset=utf-8",
        body: format!(
            r#"{{"error":"the server {why}: try again in a moment","field":null,"line":null}}"#
        )
        .into_bytes(),
    }
}

fn plain(status: u16, text: &str) -> Response {
    Response {
        status,
        content_type: "text/plain; charset=utf-8",
        body: text.as_bytes().to_vec(),
    }
}

/// Serve one connection: one request, its answer, then close.
fn connection(explorer: &Explorer, mut stream: TcpStream, (id, idle): (u64, &Idle)) {
    let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
    // Idle until its whole request is in: the first to be closed should the server fill up.
    if let Ok(clone) = stream.try_clone() {
        idle.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_back((id, clone));
    }
    let request = read_request(&mut stream, explorer.limits().max_body);
    idle.lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|(i, _)| *i != id);
    let (reply, head_only) = match request {
        Ok(req) => {
            let head_only = req.method == "HEAD";
            let head = morale_lab::explorer::Head {
                method: &req.method,
                path: req
                    .target
                    .split_once('?')
                    .map_or(&req.target[..], |(p, _)| p),
                host: req.host.as_deref(),
                origin: req.origin.as_deref(),
                fetch_site: req.fetch_site.as_deref(),
                token: req.token.as_deref(),
            };
            let reply = explorer.answer(&head, &req.target, &req.body);
            (reply, head_only)
        }
        Err(Some(reply)) => (reply, false),
        Err(None) => return,
    };
    let _ = write_response(&mut stream, &reply, head_only);
    // Close gently: stop writing, then read what the client still sends (a refused body) for a
    // moment, so that the answer is not lost to a reset.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let mut sink = [0u8; 4096];
    let mut drained = 0;
    while drained < (256 << 10) {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

/// A request as read: method, target (path and query), the headers the gate reads, body.
struct Request {
    method: String,
    target: String,
    host: Option<String>,
    origin: Option<String>,
    fetch_site: Option<String>,
    token: Option<String>,
    body: Vec<u8>,
    /// The body's share of the bytes held at once.
    _reserved: Reserved,
}

/// Read one request (HTTP/1.0 or 1.1, a body by Content-Length only). `Err(Some(r))`: answer
/// `r` (malformed, too large); `Err(None)`: the client went away or was too slow.
fn read_request(
    stream: &mut TcpStream,
    max_body: usize,
) -> std::result::Result<Request, Option<Response>> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    // The whole request within the time, however slowly it trickles in.
    let deadline = std::time::Instant::now() + IO_TIMEOUT;
    let read = |stream: &mut TcpStream, chunk: &mut [u8]| -> Option<usize> {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return None;
        }
        match stream.read(chunk) {
            Ok(0) | Err(_) => None,
            Ok(n) => Some(n),
        }
    };
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        if buf.len() > MAX_HEAD {
            return Err(Some(plain(431, "the request's head is too large")));
        }
        match read(stream, &mut chunk) {
            None => return Err(None),
            Some(n) => buf.extend_from_slice(&chunk[..n]),
        }
    };
    let bad = || Some(plain(400, "a malformed HTTP request"));
    let head = std::str::from_utf8(&buf[..head_end]).map_err(|_| bad())?;
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let (method, target, version) = (
        first.next().unwrap_or(""),
        first.next().unwrap_or(""),
        first.next().unwrap_or(""),
    );
    if method.is_empty()
        || !method.bytes().all(|b| b.is_ascii_uppercase())
        || !target.starts_with('/')
        || !(version == "HTTP/1.1" || version == "HTTP/1.0")
        || first.next().is_some()
    {
        return Err(bad());
    }
    let (mut host, mut origin, mut fetch_site, mut token) = (None, None, None, None);
    let mut length = 0usize;
    for line in lines {
        let (name, value) = line.split_once(':').ok_or_else(bad)?;
        let value = value.trim();
        // A header the gate reads, given twice, is refused: which one counts is ambiguous.
        let once = |slot: &mut Option<String>| {
            if slot.replace(value.to_string()).is_some() {
                Err(bad())
            } else {
                Ok(())
            }
        };
        if name.eq_ignore_ascii_case("host") {
            once(&mut host)?;
        } else if name.eq_ignore_ascii_case("origin") {
            once(&mut origin)?;
        } else if name.eq_ignore_ascii_case("sec-fetch-site") {
            once(&mut fetch_site)?;
        } else if name.eq_ignore_ascii_case(morale_lab::explorer::TOKEN_HEADER) {
            once(&mut token)?;
        } else if name.eq_ignore_ascii_case("content-length") {
            length = value.parse().map_err(|_| bad())?;
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(Some(plain(411, "send the body with a Content-Length")));
        }
    }
    if length > max_body {
        return Err(Some(Response {
            status: 413,
            content_type: "application/json; charset=utf-8",
            body: format!(
                "{{\"error\":\"the request body is {length} bytes; the most allowed is {max_body}\",\"field\":null,\"line\":null}}"
            )
            .into_bytes(),
        }));
    }
    let Some(reserved) = Reserved::take(length + buf.len()) else {
        return Err(Some(busy("holds too many large requests at once")));
    };
    let mut body = buf[head_end + 4..].to_vec();
    body.truncate(length);
    while body.len() < length {
        match read(stream, &mut chunk) {
            None => return Err(None),
            Some(n) => body.extend_from_slice(&chunk[..n.min(length - body.len())]),
        }
    }
    Ok(Request {
        method: method.to_string(),
        target: target.to_string(),
        host,
        origin,
        fetch_site,
        token,
        body,
        _reserved: reserved,
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Internal Server Error",
    }
}

fn write_response(stream: &mut TcpStream, r: &Response, head_only: bool) -> std::io::Result<()> {
    use std::io::Write;
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nContent-Security-Policy: default-src 'none'; connect-src 'self'; img-src 'self' data: blob:; font-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'\r\n\r\n",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len()
    );
    stream.write_all(head.as_bytes())?;
    if !head_only {
        stream.write_all(&r.body)?;
    }
    Ok(())
}
