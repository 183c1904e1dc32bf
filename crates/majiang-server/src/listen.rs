//! The accept loop: every TCP connection is counted (in total and per client address) and
//! refused past [`Limits::max_connections`] or [`Limits::max_connections_per_address`]; a
//! client has [`Limits::header_timeout`] to send each request's headers (a half-open or silent
//! connection is closed then), and [`Limits::request_timeout`] for its body to arrive and its
//! answer to be ready (a body dripped slower is answered 408 and its connection closed). The
//! count follows a connection into its WebSocket: it ends when the socket closes.
//!
//! Behind a trusted reverse proxy ([`Limits::trust_forwarded_for`]) every connection comes
//! from the proxy, so the per-address cap counts by the forwarded address instead: the
//! requests in progress of each client address, and the WebSockets it holds open (an upgraded
//! request keeps its place until its socket closes); past the cap a request is answered 429.
//!
//! At shutdown the loop stops accepting, tells the connections to finish and waits for them.

use crate::limits::Limits;
use crate::metrics::METRICS;
use axum::Router;
use axum::extract::connect_info::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;

/// How long the connections get to finish at shutdown.
const DRAIN: Duration = Duration::from_secs(10);

/// The open connections, in total and by client address.
#[derive(Debug, Default)]
pub(crate) struct Gate {
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// One admitted connection: counted until dropped.
#[derive(Debug)]
pub(crate) struct Permit {
    gate: Arc<Gate>,
    addr: IpAddr,
}

impl Gate {
    /// Admits a connection from `addr` unless a cap is reached (`per_address` of 0: no cap
    /// per address).
    pub(crate) fn admit(
        self: &Arc<Self>,
        addr: IpAddr,
        total: usize,
        per_address: usize,
    ) -> Option<Permit> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let mine = open.1.get(&addr).copied().unwrap_or(0);
        if open.0 >= total || (per_address > 0 && mine >= per_address) {
            return None;
        }
        open.0 += 1;
        *open.1.entry(addr).or_insert(0) += 1;
        Some(Permit {
            gate: self.clone(),
            addr,
        })
    }

    /// Open connections now.
    pub(crate) fn open(&self) -> usize {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).0
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut open = self.gate.open.lock().unwrap_or_else(|e| e.into_inner());
        open.0 = open.0.saturating_sub(1);
        if let Some(n) = open.1.get_mut(&self.addr) {
            *n -= 1;
            if *n == 0 {
                open.1.remove(&self.addr);
            }
        }
    }
}

/// A TCP stream that holds its connection's [`Permit`] (through an upgrade to a WebSocket
/// too), and behind a proxy the forwarded address's permit of an upgraded request.
struct Counted {
    io: TcpStream,
    _permit: Permit,
    _upgraded: Arc<Mutex<Option<Permit>>>,
}

impl AsyncRead for Counted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

/// Serves `router` on `listener` under `limits` until `shutdown` completes; then `on_shutdown`
/// runs (it closes the WebSockets) and the connections get [`DRAIN`] to finish.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    gate: Arc<Gate>,
    shutdown: impl Future<Output = ()> + Send + 'static,
    on_shutdown: impl FnOnce(),
) -> std::io::Result<()> {
    let (closing, closed) = watch::channel(false);
    let mut conns = JoinSet::new();
    // Behind a trusted proxy: the requests and sockets of each forwarded address.
    let forwarded = Arc::new(Gate::default());
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors, most likely: wait for some to close.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
            Some(_) = conns.join_next(), if !conns.is_empty() => continue,
        };
        let per_address = if limits.trust_forwarded_for {
            // Behind a proxy every connection comes from its address: the cap applies to the
            // forwarded addresses, request by request (below).
            0
        } else {
            limits.max_connections_per_address
        };
        let Some(permit) = gate.admit(peer.ip(), limits.max_connections, per_address) else {
            METRICS.connection_refused();
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let upgraded = Arc::new(Mutex::new(None));
        let io = TokioIo::new(Counted {
            io: stream,
            _permit: permit,
            _upgraded: upgraded.clone(),
        });
        let router = router.clone();
        let forwarded = forwarded.clone();
        let (trusted, cap, deadline) = (
            limits.trust_forwarded_for,
            limits.max_connections_per_address,
            limits.request_timeout,
        );
        let service = hyper::service::service_fn(move |mut req: hyper::Request<_>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            let router = router.clone();
            // Behind the proxy: a place for the forwarded address, for this request (and for
            // its socket, if it is a WebSocket).
            let place = trusted.then(|| {
                let addr = forwarded_for(req.headers()).unwrap_or(peer.ip());
                forwarded.admit(addr, usize::MAX, cap)
            });
            let upgrade = req.headers().contains_key(hyper::header::UPGRADE);
            let upgraded = upgraded.clone();
            async move {
                use tower_service::Service;
                let permit = match place {
                    Some(None) => {
                        METRICS.connection_refused();
                        return Ok(refusal(
                            axum::http::StatusCode::TOO_MANY_REQUESTS,
                            "too many requests in progress from your address",
                        ));
                    }
                    Some(Some(p)) => Some(p),
                    None => None,
                };
                let mut router = router;
                let answer =
                    tokio::time::timeout(deadline, router.call(req.map(axum::body::Body::new)))
                        .await;
                if upgrade && let Some(p) = permit {
                    *upgraded.lock().unwrap_or_else(|e| e.into_inner()) = Some(p);
                }
                match answer {
                    Ok(answer) => answer,
                    Err(_) => {
                        METRICS.request_timed_out();
                        tracing::debug!("request from {peer} timed out");
                        Ok(refusal(
                            axum::http::StatusCode::REQUEST_TIMEOUT,
                            "the request took too long to arrive",
                        ))
                    }
                }
            }
        });
        let mut closed = closed.clone();
        let header_timeout = limits.header_timeout;
        conns.spawn(async move {
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(io, service)
                .with_upgrades();
            tokio::pin!(conn);
            tokio::select! {
                served = conn.as_mut() => {
                    if served.is_err_and(|e| e.is_timeout()) {
                        METRICS.headers_timed_out();
                    }
                }
                _ = until_closing(&mut closed) => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
    drop(listener);
    on_shutdown();
    let _ = closing.send(true);
    let _ = tokio::time::timeout(DRAIN, async { while conns.join_next().await.is_some() {} }).await;
    Ok(())
}

/// An answer that closes its connection (what the client sent is not read further).
fn refusal(status: axum::http::StatusCode, why: &'static str) -> axum::response::Response {
    let mut r = axum::response::Response::new(axum::body::Body::from(why));
    *r.status_mut() = status;
    r.headers_mut().insert(
        hyper::header::CONNECTION,
        hyper::header::HeaderValue::from_static("close"),
    );
    r
}

/// Completes when the server starts closing.
async fn until_closing(closed: &mut watch::Receiver<bool>) {
    let _ = closed.wait_for(|c| *c).await;
}

/// The address a trusted reverse proxy says the request came from: the last
/// `X-Forwarded-For` entry (the one the proxy added; earlier ones the client could write).
pub(crate) fn forwarded_for(headers: &axum::http::HeaderMap) -> Option<IpAddr> {
    headers
        .get_all("x-forwarded-for")
        .iter()
        .next_back()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|v| v.trim().parse().ok())
}
