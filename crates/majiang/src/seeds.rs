//! Seeds derived from seeds: every random choice in the project comes from a seed, and the
//! seeds of the parts (a hand of a match, a bot of a table, a match of a simulation) are mixed
//! from the one a person gives, here and nowhere else.

/// SplitMix64's output function: a well-mixed 64-bit value of `x` (Steele, Lea and Flood,
/// "Fast splittable pseudorandom number generators", 2014). Written out rather than taken from a
/// crate: it is four lines, and the seeds of recorded logs depend on these exact constants.
///
/// ```
/// use majiang::seeds::splitmix64;
/// assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
/// assert_ne!(splitmix64(1), splitmix64(2));
/// ```
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of the `k`-th bot of a match played with `match_seed` (`majiang play` and
/// `selfplay` number their bots in seating order): the match seed times the 64-bit golden
/// ratio, plus `k`.
///
/// ```
/// use majiang::seeds::bot_seed;
/// assert_eq!(bot_seed(0, 3), 3);
/// assert_ne!(bot_seed(7, 0), bot_seed(8, 0));
/// ```
pub const fn bot_seed(match_seed: u64, k: u64) -> u64 {
    match_seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(k)
}
