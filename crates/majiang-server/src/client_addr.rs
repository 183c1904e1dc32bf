//! The client's address as a request extractor: what the creation throttles and the
//! connection caps count by.

use crate::app::App;
use crate::listen::forwarded_for;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use std::net::{IpAddr, SocketAddr};

/// The client's address: the TCP peer's, or behind a trusted reverse proxy
/// ([`crate::Limits::trust_forwarded_for`]) the last `X-Forwarded-For` entry. Unknown
/// (`0.0.0.0`) when the router is driven without a socket.
pub(crate) struct ClientAddr(pub(crate) IpAddr);

impl FromRequestParts<App> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        if app.limits().trust_forwarded_for
            && let Some(ip) = forwarded_for(&parts.headers)
        {
            return Ok(ClientAddr(ip));
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        Ok(ClientAddr(peer.unwrap_or(IpAddr::from([0u8, 0, 0, 0]))))
    }
}
