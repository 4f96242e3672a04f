//! Memory first: sizes, the machine's memory, and the budget a solve must
//! fit in. Every solver estimates its bytes before it allocates anything and
//! calls [`Budget::check`]; a solve over budget is refused with the figure.

use std::fmt;

use crate::error::{Error, Result};

/// A number of bytes, printed in binary units (`1.5 GiB`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bytes(pub u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
        let mut value = self.0 as f64;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        if unit == 0 {
            write!(f, "{} B", self.0)
        } else {
            write!(f, "{value:.1} {}", UNITS[unit])
        }
    }
}

/// Parses a size such as `512MiB`, `8GiB`, `1.5GB`, `4096` (bytes).
/// Binary units (KiB, MiB, GiB, TiB) are powers of 1024; decimal ones (KB,
/// MB, GB, TB) powers of 1000. Case-insensitive; spaces are allowed.
///
/// ```
/// use retrograde::memory::{parse_size, Bytes};
/// assert_eq!(parse_size("512MiB"), Ok(Bytes(512 << 20)));
/// assert_eq!(parse_size("2 GB"), Ok(Bytes(2_000_000_000)));
/// assert!(parse_size("lots").is_err());
/// ```
pub fn parse_size(text: &str) -> std::result::Result<Bytes, String> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let split = compact
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(compact.len());
    let (number, unit) = compact.split_at(split);
    let scale: f64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kib" => 1024.0,
        "m" | "mib" => 1024.0 * 1024.0,
        "g" | "gib" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tib" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        _ => {
            return Err(format!(
            "unknown size unit {unit:?} in {text:?} (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)"
        ))
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size (e.g. 512MiB or 8GiB)"))?;
    let bytes = value * scale;
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(format!("{text:?} is too large a size"));
    }
    Ok(Bytes(bytes.round() as u64))
}

/// Total physical memory, read from `/proc/meminfo`; `None` where unknown.
pub fn physical_memory() -> Option<Bytes> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(Bytes(kib * 1024))
}

/// The most memory a solve may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget(pub Bytes);

impl Budget {
    /// 80% of physical memory, or no limit where the memory is unknown.
    pub fn default_for_machine() -> Self {
        match physical_memory() {
            Some(Bytes(total)) => Budget(Bytes(total / 5 * 4)),
            None => Budget::unlimited(),
        }
    }

    /// No limit at all (for library callers and tests).
    pub fn unlimited() -> Self {
        Budget(Bytes(u64::MAX))
    }

    /// Refuses `needed` bytes for `what` if they exceed the budget.
    pub fn check(&self, what: &str, needed: Bytes) -> Result<()> {
        if needed > self.0 {
            return Err(Error::OverMemoryBudget {
                what: what.to_string(),
                needed,
                budget: self.0,
                hint: beyond_machine_hint(needed),
            });
        }
        Ok(())
    }
}

/// What to tell a user whose solve needs `needed`: raise `--max-memory`
/// while the machine has that much memory, else that it does not.
pub fn beyond_machine_hint(needed: Bytes) -> String {
    match physical_memory() {
        Some(total) if needed > total => {
            format!("; this machine has only {total} of memory")
        }
        _ => " (raise it with --max-memory)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_both_unit_systems() {
        assert_eq!(parse_size("1MiB"), Ok(Bytes(1 << 20)));
        assert_eq!(parse_size("8GiB"), Ok(Bytes(8 << 30)));
        assert_eq!(parse_size("1.5kib"), Ok(Bytes(1536)));
        assert_eq!(parse_size("3KB"), Ok(Bytes(3000)));
        assert_eq!(parse_size("77"), Ok(Bytes(77)));
        assert!(parse_size("").is_err());
        assert!(parse_size("5 parsecs").is_err());
        assert!(parse_size("1e30TiB").is_err());
    }

    #[test]
    fn bytes_print_in_binary_units() {
        assert_eq!(Bytes(512).to_string(), "512 B");
        assert_eq!(Bytes(3 << 20).to_string(), "3.0 MiB");
        assert_eq!(Bytes(1536 << 20).to_string(), "1.5 GiB");
    }

    #[test]
    fn the_budget_refuses_what_does_not_fit() {
        let budget = Budget(Bytes(1000));
        assert!(budget.check("x", Bytes(1000)).is_ok());
        let err = budget
            .check("the table", Bytes(1001))
            .unwrap_err()
            .to_string();
        assert!(err.contains("1001 B") && err.contains("1000 B"), "{err}");
    }
}
