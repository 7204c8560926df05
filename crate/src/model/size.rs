//! Sizes as links and messages write them: decimal digits with an optional
//! binary suffix (`8K` = 8192).

pub const KIB: u64 = 1024;
pub const MIB: u64 = 1024 * KIB;
pub const GIB: u64 = 1024 * MIB;

/// Parses a size: decimal digits with an optional binary suffix K, M or G
/// (any case, optionally followed by `B` or `iB`). `Ok(None)` means the number
/// is well formed but does not fit in 64 bits.
pub fn parse_size(text: &str) -> Result<Option<u64>, String> {
    let t = text.trim();
    let digits_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, suffix) = t.split_at(digits_end);
    if digits.is_empty() {
        return Err(format!("'{}' is not a size", shorten(text)));
    }
    let unit = match suffix.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => KIB,
        "m" | "mb" | "mib" => MIB,
        "g" | "gb" | "gib" => GIB,
        _ => return Err(format!("'{}' has an unknown unit (use K, M or G)", shorten(text))),
    };
    // Digits only, so the sole parse failure left is overflow.
    Ok(digits.parse::<u64>().ok().and_then(|n| n.checked_mul(unit)))
}

/// Formats a size with the largest binary suffix that divides it exactly.
pub fn format_size(n: u64) -> String {
    for (unit, suffix) in [(GIB, "G"), (MIB, "M"), (KIB, "K")] {
        if n >= unit && n % unit == 0 {
            return format!("{}{suffix}", n / unit);
        }
    }
    n.to_string()
}

/// Untrusted text quoted back in a message: at most 40 characters.
pub fn shorten(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if text.chars().nth(40).is_some() {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_size("8K"), Ok(Some(8192)));
        assert_eq!(parse_size("8kib"), Ok(Some(8192)));
        assert_eq!(parse_size(" 1M "), Ok(Some(1 << 20)));
        assert_eq!(parse_size("2G"), Ok(Some(2 << 30)));
        assert_eq!(parse_size("64"), Ok(Some(64)));
        assert_eq!(parse_size("99999999999999999999"), Ok(None));
        assert_eq!(parse_size("17179869184G"), Ok(None));
        for bad in ["", "K", "-1", "1.5K", "8Q", "NaN", "Infinity", "0x10"] {
            assert!(parse_size(bad).is_err(), "{bad:?} should not parse");
        }
    }

    #[test]
    fn format_size_uses_exact_suffixes_only() {
        assert_eq!(format_size(8192), "8K");
        assert_eq!(format_size(1536), "1536");
        assert_eq!(format_size(3 << 20), "3M");
        assert_eq!(format_size(0), "0");
    }
}
