//! Arbitrary player files, and player files whose header is arbitrary JSON or a valid header with
//! one number replaced by an arbitrary one (a network of 0 or 100000000 units, 0 or 4294967295
//! simulations, negative or huge search constants), each with a correct checksum: the file is
//! refused with a one-line error, or read and its network built; nothing panics or aborts.
#![no_main]

use bao_zero::player_file::{Bundle, FORMAT_VERSION};
use libfuzzer_sys::fuzz_target;

/// A valid header (the shipped Bao la Kiswahili player's), the seed of this target.
const HEADER: &str = include_str!("../seeds/player_header/kiswahili.json");

/// The numbers of a header, by JSON pointer.
const NUMBERS: [&str; 8] = [
    "/net/hidden/0",
    "/net/blocks",
    "/net/channels",
    "/sims",
    "/search/c_puct",
    "/search/fpu_reduction",
    "/search/minimax_weight",
    "/rules/max_sown",
];

/// Marks where the number goes in the printed header.
const MARK: &str = "@@number@@";

fuzz_target!(|data: &[u8]| {
    // The bytes as a whole file.
    check(data);
    match data.split_first() {
        // A leading 0xFF: one number of the valid header replaced.
        Some((0xFF, rest)) if rest.len() >= 10 => check(&file(&with_number(rest))),
        // Otherwise the bytes as the header.
        _ => check(&file(data)),
    }
});

/// Reads `bytes` as a player file: refused in one line, or read, and its network built (or
/// refused: the file holds no weights).
fn check(bytes: &[u8]) {
    match Bundle::from_bytes(bytes) {
        Err(e) => {
            let line = format!("{e:#}");
            assert!(!line.contains('\n'), "a refusal is one line: {line}");
        }
        Ok(bundle) => {
            bundle.header.validate().expect("a read header is valid");
            let _ = bundle.inference();
        }
    }
}

/// A player file with `header`, no weights and a correct checksum.
fn file(header: &[u8]) -> Vec<u8> {
    let mut out = b"BAOZERO-PLAYER\n".to_vec();
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(header.len() as u64).to_le_bytes());
    out.extend_from_slice(header);
    out.extend_from_slice(&0u64.to_le_bytes());
    let sum = bao_zero::util::hash::fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The valid header with the number `bytes[0]` picks (of [`NUMBERS`]) written as `bytes[1]` and
/// the eight bytes after it make it.
fn with_number(bytes: &[u8]) -> Vec<u8> {
    let mut header: serde_json::Value = serde_json::from_str(HEADER).expect("the seed is JSON");
    let pointer = NUMBERS[bytes[0] as usize % NUMBERS.len()];
    let raw = u64::from_le_bytes(bytes[2..10].try_into().unwrap());
    let number = match bytes[1] % 8 {
        0 => raw.to_string(),
        1 => (raw as i64).to_string(),
        2 => (raw % 1024).to_string(),
        3 => format!("{raw}000"),
        4 => [
            "0",
            "-0.0",
            "1e308",
            "-1e-308",
            "1e999",
            "-1",
            "4294967295",
            "100000000",
        ][raw as usize % 8]
            .to_string(),
        _ => format!("{:e}", f64::from_bits(raw)),
    };
    if bytes[1] & 0x80 != 0 && pointer.starts_with("/net") {
        header["net"]["kind"] = "resnet".into();
    }
    if let Some(at) = header.pointer_mut(pointer) {
        *at = MARK.into();
    }
    header
        .to_string()
        .replace(&format!("\"{MARK}\""), &number)
        .into_bytes()
}
