//! A process's place in a cluster ([`Node`]): its name, its public URL and its leases' length
//! (see [`crate::cluster`]).

use std::time::Duration;

/// The shortest lease accepted (milliseconds).
pub const MIN_LEASE_MS: u64 = 300;

/// This process's place in a cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The node's name, unique in the cluster: the owner of its leases.
    pub name: String,
    /// The URL clients are sent to for the rooms this process runs (`https://host`, no
    /// trailing slash): a public address the operator gives, reachable from the browsers.
    pub url: String,
    /// How long a lease lasts without renewal (milliseconds): how long a dead node's rooms
    /// wait before another node takes them.
    pub lease_ms: u64,
    /// This process's claim on its name: an id drawn at start (see `App::join_cluster`).
    pub instance: String,
}

impl Node {
    /// A node named by its URL `url` (as before names and URLs were apart), with leases of
    /// `lease_ms`.
    pub fn new(url: &str, lease_ms: u64) -> Node {
        Node::named(url.trim_end_matches('/'), url, lease_ms)
    }

    /// The node `name` whose clients are sent to `url`, with leases of `lease_ms`.
    pub fn named(name: &str, url: &str, lease_ms: u64) -> Node {
        Node {
            name: name.to_string(),
            url: url.trim_end_matches('/').to_string(),
            lease_ms: lease_ms.max(MIN_LEASE_MS),
            instance: crate::stamp::random_hex(8),
        }
    }

    /// How often a lease round comes (renewing the leases, taking over the rooms of a dead
    /// node): four times a lease, so one or two slow round trips lose none, and a dead node's
    /// rooms are taken over at most a quarter of a lease after its leases ran out.
    pub(crate) fn renew_every(&self) -> Duration {
        Duration::from_millis(self.lease_ms / 4)
    }
}
