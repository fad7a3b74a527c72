//! Hashing: the SplitMix64 mixer behind every derived seed, and the FNV-1a checksum of file
//! framings.

/// The golden-ratio increment of SplitMix64.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 finalizer: a fast, well-spread 64-bit mix. Every seed derived from another
/// (episodes, games of a match, training purposes) goes through it.
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One SplitMix64 output for the state `z`: the finalizer of `z + golden ratio`.
#[inline]
pub const fn splitmix64(z: u64) -> u64 {
    mix64(z.wrapping_add(GOLDEN_GAMMA))
}

/// FNV-1a (64 bits) over the bytes: the checksum that ends the player and replay files, enough to
/// catch truncation and corruption.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
