//! Loopback helpers for tests that run `majiang serve` as a real process: a free port and a plain
//! HTTP/1.1 request without an HTTP client crate.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};

/// A port of 127.0.0.1 that is free now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A plain HTTP/1.1 request; returns the status and the body (not chunked). A connection that
/// fails gives status 0.
pub fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let Ok(mut s) = TcpStream::connect(addr) else {
        return (0, String::new());
    };
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    if s.write_all(request.as_bytes()).is_err() {
        return (0, String::new());
    }
    let mut out = String::new();
    if s.read_to_string(&mut out).is_err() || out.len() < 12 {
        return (0, out);
    }
    let status = out[9..12].parse().unwrap_or(0);
    let body = out
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}
