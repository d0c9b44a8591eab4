//! The explorer's gate: who may drive the server. A request's [`Head`] (its method, path and
//! the headers that say where it comes from) is checked before anything is answered: the
//! `Host` must name this server, a browser page must be its own, and the API wants the page's
//! token ([`TOKEN_HEADER`]). What it refuses gets a 403 saying why.

use super::Response;

/// A request's head, as the [`Gate`] reads it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Head<'a> {
    /// The method (`GET`, `POST`, …).
    pub method: &'a str,
    /// The path, without the query.
    pub path: &'a str,
    /// The `Host` header.
    pub host: Option<&'a str>,
    /// The `Origin` header.
    pub origin: Option<&'a str>,
    /// The `Sec-Fetch-Site` header.
    pub fetch_site: Option<&'a str>,
    /// The `X-Morale-Lab-Token` header.
    pub token: Option<&'a str>,
}

/// The header that carries the page's token to the API.
pub const TOKEN_HEADER: &str = "X-Morale-Lab-Token";

/// Who may drive the server: only its own page. A request must name the server by a loopback
/// address or `localhost` in its `Host` (or, when it listens beyond loopback, by any IP address
/// or a name it was told to answer to), so that another site's name pointed at this address
/// (DNS rebinding) is refused; a request from a browser page must come from the same origin
/// (`Origin`, `Sec-Fetch-Site`); and the API answers only requests that carry the token written
/// into the page, which another site's page cannot read. The page itself computes nothing.
#[derive(Debug, Clone)]
pub struct Gate {
    token: String,
    port: u16,
    loopback_only: bool,
    names: Vec<String>,
}

impl Gate {
    /// The gate of a server listening on `bound`:`port`, with the page's `token` and the
    /// extra host `names` it answers to (beyond loopback only).
    pub fn new(token: String, bound: std::net::IpAddr, port: u16, names: Vec<String>) -> Gate {
        Gate {
            token,
            port,
            loopback_only: bound.is_loopback(),
            names: names.into_iter().map(|n| n.to_ascii_lowercase()).collect(),
        }
    }

    /// The page's token.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Whether `host` (a `Host` header: a name, an IPv4 address or a bracketed IPv6 address,
    /// with or without the port) names this server.
    pub fn host_allowed(&self, host: &str) -> bool {
        let (name, port) = match host.strip_prefix('[') {
            Some(rest) => match rest.split_once(']') {
                Some((inner, "")) => (format!("[{inner}]"), None),
                Some((inner, p)) => match p.strip_prefix(':') {
                    Some(p) => (format!("[{inner}]"), Some(p)),
                    None => return false,
                },
                None => return false,
            },
            None => match host.rsplit_once(':') {
                Some((n, p)) => (n.to_string(), Some(p)),
                None => (host.to_string(), None),
            },
        };
        if let Some(p) = port
            && p.parse::<u16>().ok() != Some(self.port)
        {
            return false;
        }
        let name = name.to_ascii_lowercase();
        let ip: Option<std::net::IpAddr> = match name.strip_prefix('[') {
            Some(inner) => inner
                .strip_suffix(']')
                .and_then(|i| i.parse::<std::net::Ipv6Addr>().ok())
                .map(std::net::IpAddr::V6),
            None => name
                .parse::<std::net::Ipv4Addr>()
                .ok()
                .map(std::net::IpAddr::V4),
        };
        match ip {
            Some(ip) => ip.is_loopback() || !self.loopback_only,
            None => name == "localhost" || (!self.loopback_only && self.names.contains(&name)),
        }
    }

    /// Let the request through, or the answer that refuses it.
    ///
    /// # Errors
    /// A 403 answer saying what was refused.
    pub fn check(&self, h: &Head) -> std::result::Result<(), Response> {
        let refuse = |why: String| Err(Response::error(403, &why, None, None));
        let Some(host) = h.host.filter(|host| self.host_allowed(host)) else {
            return refuse(format!(
                "this server answers to {}only, on port {}: the Host {} is refused",
                if self.loopback_only {
                    "localhost and loopback addresses "
                } else {
                    "IP addresses, localhost and the names given with --allow-host "
                },
                self.port,
                h.host.map_or("(none)".into(), |x| format!(
                    "'{}'",
                    x.chars().take(100).collect::<String>()
                ))
            ));
        };
        if let Some(origin) = h.origin
            && !origin.eq_ignore_ascii_case(&format!("http://{host}"))
        {
            return refuse(format!(
                "this server answers to its own page only: a request from {} is refused",
                origin.chars().take(100).collect::<String>()
            ));
        }
        if let Some(site) = h.fetch_site
            && !matches!(site, "same-origin" | "none")
        {
            return refuse(format!(
                "this server answers to its own page only: a {site} request is refused"
            ));
        }
        if h.path.starts_with("/api/") && !same(h.token.unwrap_or(""), &self.token) {
            return refuse(format!(
                "the API answers its own page only: send the page's token in {TOKEN_HEADER} (it is in the page's <meta name=\"morale-lab-token\">)"
            ));
        }
        Ok(())
    }
}

/// Whether two tokens are the same, in a time that does not depend on where they differ.
pub(super) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explorer::testing::*;

    /// A loopback server's gate on port 8080, and a request through it.
    fn gated(host: &str, origin: Option<&str>, site: Option<&str>, token: Option<&str>) -> u16 {
        let x = explorer().with_gate(Gate::new(
            "t0ken".into(),
            std::net::IpAddr::from([127, 0, 0, 1]),
            8080,
            Vec::new(),
        ));
        let head = Head {
            method: "POST",
            path: "/api/run",
            host: Some(host),
            origin,
            fetch_site: site,
            token,
        };
        x.answer(&head, "/api/run?scenario=rally&mode=fast", b"")
            .status
    }

    #[test]
    fn only_the_servers_own_page_drives_it() {
        let t = Some("t0ken");
        // Let through (to the API's own answer, 400 for a bad mode).
        for host in [
            "localhost:8080",
            "LOCALHOST",
            "127.0.0.1:8080",
            "127.0.0.2",
            "[::1]:8080",
        ] {
            assert_eq!(gated(host, None, None, t), 400, "{host}");
        }
        assert_eq!(
            gated(
                "localhost:8080",
                Some("http://localhost:8080"),
                Some("same-origin"),
                t
            ),
            400
        );
        // Another site's name for this address (DNS rebinding), another port, no name.
        for host in [
            "127.evil.example",
            "127.0.0.1.nip.io",
            "127.0.0.1.nip.io:8080",
            "localhost.evil.com",
            "evil.example:8080",
            "127.1",
            "127.0.0.1:8081",
            "[::1]x",
            "",
        ] {
            assert_eq!(gated(host, None, None, t), 403, "{host}");
        }
        // Another site's page, by its origin or the browser's word; a page without the token.
        assert_eq!(
            gated("localhost:8080", Some("http://evil.example"), None, t),
            403
        );
        assert_eq!(gated("localhost:8080", Some("null"), None, t), 403);
        assert_eq!(gated("localhost:8080", None, Some("cross-site"), t), 403);
        assert_eq!(gated("localhost:8080", None, Some("same-site"), t), 403);
        assert_eq!(gated("localhost:8080", None, None, None), 403);
        assert_eq!(gated("localhost:8080", None, None, Some("t0kem")), 403);
        // The page carries the token; GET and HEAD compute nothing.
        let x = explorer().with_gate(Gate::new(
            "t0ken".into(),
            std::net::IpAddr::from([127, 0, 0, 1]),
            8080,
            Vec::new(),
        ));
        let page = String::from_utf8(x.handle("GET", "/", b"").body).unwrap();
        assert!(page.contains(r#"<meta name="morale-lab-token" content="t0ken">"#));
        for method in ["GET", "HEAD"] {
            for path in [
                "/api/run?scenario=rally",
                "/api/describe",
                "/api/cancel?run=x",
            ] {
                assert_eq!(x.handle(method, path, b"").status, 405, "{method} {path}");
            }
        }
    }

    #[test]
    fn beyond_loopback_the_gate_takes_addresses_and_named_hosts() {
        let g = Gate::new(
            "t".into(),
            std::net::IpAddr::from([0, 0, 0, 0]),
            80,
            vec!["Lab.Example".into()],
        );
        for ok in [
            "192.0.2.7",
            "192.0.2.7:80",
            "lab.example",
            "localhost:80",
            "[2001:db8::1]",
        ] {
            assert!(g.host_allowed(ok), "{ok}");
        }
        for bad in ["evil.example", "lab.example.evil", "192.0.2.7:81"] {
            assert!(!g.host_allowed(bad), "{bad}");
        }
    }
}
