//! Sizes as people read them, in binary units: the server's limits are written that way (a
//! 32 MiB request body, 30 MiB a message, a 1 GiB vault upload), so a size shown next to one
//! compares with it.

/// `1` → `1 byte`, `46` → `46 bytes`, `1536` → `1.5 KiB`, `2^31` → `2.0 GiB`.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return if n == 1 { "1 byte".into() } else { format!("{n} bytes") };
    }
    let mut value = n as f64 / 1024.0;
    let mut unit = 0;
    // 1023.95 and up would be written `1024.0` of this unit: that is one of the next.
    while value >= 1023.95 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn sizes_are_written_in_binary_units() {
        assert_eq!(bytes(0), "0 bytes");
        assert_eq!(bytes(1), "1 byte");
        assert_eq!(bytes(1023), "1023 bytes");
        assert_eq!(bytes(1024), "1.0 KiB");
        assert_eq!(bytes(1536), "1.5 KiB");
        assert_eq!(bytes((1 << 20) - 1), "1.0 MiB", "not 1024.0 KiB");
        assert_eq!(bytes(30 << 20), "30.0 MiB");
        assert_eq!(bytes(2_147_483_648), "2.0 GiB");
        assert_eq!(bytes(5 << 40), "5.0 TiB");
        assert_eq!(bytes(u64::MAX), "16777216.0 TiB");
    }
}
