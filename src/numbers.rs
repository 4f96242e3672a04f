//! Numbers as reports print them.

/// `1234567` → `1,234,567`.
pub fn grouped(n: u64) -> String {
    grouped_u128(u128::from(n))
}

/// [`grouped`] for the 128-bit game counts.
pub fn grouped_u128(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
