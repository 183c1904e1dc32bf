//! What the server stamps things with: the time as Unix milliseconds, and random ids and
//! tokens.

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// `bytes` random bytes from the operating system's CSPRNG, as hex (falling back to `rand`'s
/// thread RNG, itself a CSPRNG seeded from the OS, if the OS source fails).
pub(crate) fn random_hex(bytes: usize) -> String {
    use rand::TryRngCore;
    let mut buf = vec![0u8; bytes];
    if rand::rngs::OsRng.try_fill_bytes(&mut buf).is_err() {
        rand::fill(buf.as_mut_slice());
    }
    buf.iter().map(|b| format!("{b:02x}")).collect()
}
