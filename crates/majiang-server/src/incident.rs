//! Errors for clients: a short message and an incident id. The details (database messages,
//! which may name tables, hosts or users) go to the server's log only, on a line carrying the
//! same id, so an operator finds them from what a player reports.

/// Logs `detail` under a new incident id and returns what the client is told: `what` (a
/// message whose one value is `incident`) with the id.
pub(crate) fn told(
    what: &'static crate::words::WordsDef,
    detail: &dyn std::fmt::Display,
) -> crate::words::Words {
    let id = crate::stamp::random_hex(4);
    let told = what.with([id.clone().into()]);
    tracing::error!(incident = %id, "{told}: {detail}");
    told
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_client_gets_the_summary_and_an_id_not_the_detail() {
        let words = super::told(
            &crate::words::api::STORAGE_FAILED,
            &"relation \"actions\" is locked",
        );
        assert_eq!(words.key(), "api.storage_failed");
        let told = words.to_string();
        assert!(
            told.starts_with("storage failed, try again (incident "),
            "{told}"
        );
        assert!(!told.contains("actions"), "{told}");
        let id = told.trim_end_matches(')').rsplit(' ').next().unwrap();
        assert_eq!(id.len(), 8);
        assert!(id.chars().all(|c| c.is_ascii_hexdigit()));
    }
}
