//! What `bao serve` refuses before a request reaches the page's handlers, and how it listens.
//!
//! A web page the user visits elsewhere can send requests to a server on the user's machine,
//! and a name it controls can be made to resolve to 127.0.0.1 (DNS rebinding). So every request
//! must name the server by one of its own names in `Host` (the loopback names, or the address
//! `--host` gave), and a write (any method but GET and HEAD) that a browser marks as coming from
//! another page (`Origin`) is refused. Both answers are 403 with a one-line JSON error.
//!
//! The server drives hyper itself so that a client that sends half a request is cut off after
//! [`HEADER_TIMEOUT`] (its headers) or the body timeout (its body, [`read_body`]: 408), that
//! connections past a bound ([`MAX_CONNECTIONS`] by default, lowered to fit the process's file
//! limit) wait to be accepted until one served closes, and that Ctrl-C stops it after at most
//! [`SHUTDOWN_GRACE`] whatever the open connections do. Slow clients can therefore hold at most
//! the bound's connections, each for a bounded time, and never the server's file descriptors.

use super::ApiError;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

/// How long a client may take to send a request's headers.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long Ctrl-C waits for requests under way before the server stops anyway.
pub(crate) const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// How long a client may take to send a request's body, unless `--body-timeout` says.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The most connections served at once, unless `--max-connections` says.
pub const MAX_CONNECTIONS: usize = 128;

/// File descriptors kept free of connections under the process's limit (`ulimit -n`): for the
/// listener, the runtime and players' files.
const FD_RESERVE: usize = 64;

/// The names a request may call the server by.
#[derive(Clone, Debug)]
pub(crate) struct Guard {
    /// Host names and addresses, lower case, IPv6 in brackets.
    names: Vec<String>,
    /// Listening on every address (`0.0.0.0`, `::`): any IP address is a name of the server
    /// (an address cannot be rebound; a domain name can).
    any_address: bool,
    /// The port the server listens on.
    port: u16,
}

/// `host` as it appears in a `Host` header: IPv6 addresses in brackets, lower case.
fn host_name(host: &str) -> String {
    match host.parse::<IpAddr>() {
        Ok(IpAddr::V6(a)) => format!("[{a}]"),
        Ok(a) => a.to_string(),
        Err(_) => host.trim_end_matches('.').to_ascii_lowercase(),
    }
}

/// The first characters of a header value, for a message.
fn excerpt(text: &str) -> String {
    const MAX: usize = 80;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

impl Guard {
    /// The names of a server listening on `host` (the `--host` value) and `port`.
    pub fn new(host: &str, port: u16) -> Guard {
        let mut names: Vec<String> = ["localhost", "127.0.0.1", "[::1]"]
            .map(String::from)
            .to_vec();
        let own = host_name(host);
        if !names.contains(&own) {
            names.push(own);
        }
        let any_address = host.parse::<IpAddr>().is_ok_and(|a| a.is_unspecified());
        Guard {
            names,
            any_address,
            port,
        }
    }

    /// Whether a `Host` header value (`name:port`) names this server.
    fn host_ok(&self, value: &str) -> bool {
        let (name, port) = match value.rsplit_once(':') {
            // `[::1]:8080`, `localhost:8080`; a bare IPv6 address is not a Host value.
            Some((name, port)) if !name.contains(':') || name.ends_with(']') => (name, Some(port)),
            Some(_) => return false,
            None => (value, None),
        };
        let port_ok = match port {
            Some(p) => p.parse::<u16>() == Ok(self.port),
            None => self.port == 80,
        };
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        let name = host_name(bare);
        port_ok
            && (self.names.contains(&name) || (self.any_address && bare.parse::<IpAddr>().is_ok()))
    }

    /// Why a request is refused, if it is: a `Host` that is not one of the server's names, or a
    /// write whose `Origin` is another page.
    pub fn refusal(
        &self,
        method: &Method,
        host: Option<&str>,
        origin: Option<&str>,
    ) -> Option<String> {
        // Browsers always send Host; a client that sends none is not a browser page.
        if let Some(host) = host
            && !self.host_ok(host)
        {
            return Some(format!(
                "refused: Host `{}` is not a name of this server ({} with port {}); \
                 bao serve --host names another",
                excerpt(host),
                self.names.join(", "),
                self.port
            ));
        }
        if matches!(*method, Method::GET | Method::HEAD) {
            return None;
        }
        let origin = origin?;
        let own = host.is_some_and(|h| origin.eq_ignore_ascii_case(&format!("http://{h}")));
        (!own).then(|| {
            format!(
                "refused: a {method} from another page (Origin `{}`)",
                excerpt(origin)
            )
        })
    }
}

/// The middleware: refuses what [`Guard::refusal`] refuses with 403.
pub(super) async fn check(State(guard): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    let refusal = {
        // The headers are read before the await: the request's body is not Sync.
        let text = |name| {
            req.headers()
                .get(name)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        };
        let (host, origin) = (text(header::HOST), text(header::ORIGIN));
        guard.refusal(req.method(), host.as_deref(), origin.as_deref())
    };
    match refusal {
        Some(why) => ApiError(StatusCode::FORBIDDEN, why).into_response(),
        None => next.run(req).await,
    }
}

/// The middleware: reads a request's body (at most `BODY_LIMIT` bytes) within `timeout` of its
/// headers, before any handler runs; a slower body is answered 408 and its connection closed.
pub(super) async fn read_body(
    State(timeout): State<Duration>,
    req: Request,
    next: Next,
) -> Response {
    let (parts, body) = req.into_parts();
    let read = axum::body::to_bytes(body, super::BODY_LIMIT);
    match tokio::time::timeout(timeout, read).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, axum::body::Body::from(bytes)))
                .await
        }
        Ok(Err(_)) => ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request's body is larger than {} KiB, or cut short",
                super::BODY_LIMIT >> 10
            ),
        )
        .into_response(),
        Err(_) => {
            let why = format!(
                "the request's body took longer than {} ms to arrive",
                timeout.as_millis()
            );
            let mut answer = ApiError(StatusCode::REQUEST_TIMEOUT, why).into_response();
            answer.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
            answer
        }
    }
}

/// `wanted` connections at most, lowered where the process may open fewer files.
pub(crate) fn connection_cap(wanted: usize) -> usize {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only writes the struct it is given.
        let known = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
        if known && limit.rlim_cur != libc::RLIM_INFINITY {
            let free = usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX);
            return wanted.min(free.saturating_sub(FD_RESERVE).max(1));
        }
    }
    wanted
}

/// Serves `router` on `listener` until Ctrl-C: at most `max_connections` at once (more wait to
/// be accepted until one closes), each with [`HEADER_TIMEOUT`] for a request's headers; after
/// Ctrl-C, requests under way get [`SHUTDOWN_GRACE`] to finish.
pub(super) async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    max_connections: usize,
) {
    // Each connection holds a receiver; the sender's `closed` says when all are gone.
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let permits = Arc::new(tokio::sync::Semaphore::new(max_connections));
    let mut ctrl_c = std::pin::pin!(tokio::signal::ctrl_c());
    loop {
        // A connection past the bound waits in the listener's queue, holding no descriptor of
        // this process, until a connection served ends (the timeouts bound how long).
        let permit = tokio::select! {
            _ = &mut ctrl_c => break,
            permit = permits.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
        };
        let stream = tokio::select! {
            _ = &mut ctrl_c => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => {
                    // Out of file descriptors and the like: wait rather than spin.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let service = TowerToHyperService::new(router.clone());
        let mut stop = stop_rx.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT);
            let conn = builder.serve_connection(TokioIo::new(stream), service);
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
    drop(listener);
    drop(stop_rx);
    let _ = stop_tx.send(true);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, stop_tx.closed()).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_cap_leaves_file_descriptors_to_spare() {
        assert_eq!(connection_cap(0), 0);
        let cap = connection_cap(usize::MAX);
        assert!(cap >= 1);
        #[cfg(unix)]
        {
            let mut limit = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // SAFETY: getrlimit only writes the struct it is given.
            assert_eq!(
                unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) },
                0
            );
            if limit.rlim_cur != libc::RLIM_INFINITY {
                assert!((cap as u64) < limit.rlim_cur.max(FD_RESERVE as u64 + 1));
            }
        }
    }

    #[test]
    fn host_names_of_a_loopback_server() {
        let g = Guard::new("127.0.0.1", 8080);
        for ok in [
            "localhost:8080",
            "127.0.0.1:8080",
            "[::1]:8080",
            "LOCALHOST:8080",
        ] {
            assert!(g.host_ok(ok), "{ok}");
        }
        for no in [
            "evil.example:8080",
            "127.0.0.1:8081",
            "localhost",
            "192.168.1.2:8080",
            "::1:8080",
            "localhost.evil.example:8080",
            "",
        ] {
            assert!(!g.host_ok(no), "{no}");
        }
    }

    #[test]
    fn host_named_by_the_command_line_is_accepted_too() {
        let g = Guard::new("bao.lan", 80);
        assert!(g.host_ok("bao.lan") && g.host_ok("localhost") && !g.host_ok("evil.lan"));
        let g = Guard::new("::1", 9000);
        assert!(g.host_ok("[::1]:9000"));
        let any = Guard::new("0.0.0.0", 9000);
        assert!(any.host_ok("192.168.1.2:9000") && any.host_ok("[fe80::1]:9000"));
        assert!(!any.host_ok("evil.example:9000"));
    }

    #[test]
    fn cross_origin_writes_are_refused() {
        let g = Guard::new("127.0.0.1", 8080);
        let host = Some("127.0.0.1:8080");
        assert_eq!(
            g.refusal(&Method::POST, host, Some("http://127.0.0.1:8080")),
            None
        );
        assert_eq!(g.refusal(&Method::POST, host, None), None);
        assert_eq!(
            g.refusal(&Method::GET, host, Some("http://evil.example")),
            None
        );
        for origin in ["http://evil.example", "null", "http://localhost:8080"] {
            let why = g.refusal(&Method::POST, host, Some(origin)).unwrap();
            assert!(why.contains("another page"), "{why}");
        }
        let why = g
            .refusal(&Method::GET, Some("evil.example:8080"), None)
            .unwrap();
        assert!(why.contains("evil.example") && !why.contains('\n'), "{why}");
    }
}
