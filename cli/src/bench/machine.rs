//! The machine record of a bench run: what ran it (CPU model, cores, the
//! load average before and after), which build (version and git commit)
//! and when (UTC date). Read from Linux's /proc; where a file is missing
//! the figure is `unknown` (or absent), never an error.

use std::time::{SystemTime, UNIX_EPOCH};

/// The version of this build, from Cargo.toml.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The git commit of this build (`git rev-parse --short HEAD` when it was
/// compiled, by build.rs), or `unknown`.
pub const COMMIT: &str = env!("RETROGRADE_COMMIT");

/// What ran a bench, which build, and when.
#[derive(Debug, Clone)]
pub struct Machine {
    /// The CPU's model name, or `unknown`.
    pub cpu: String,
    /// The cores this process may use.
    pub cores: usize,
    /// The 1-minute load average just before the first run, if known.
    pub load_before: Option<f64>,
    /// The 1-minute load average just after the last run, if known.
    pub load_after: Option<f64>,
    /// When the run started: `YYYY-MM-DDTHH:MM:SSZ`, UTC.
    pub date: String,
}

impl Machine {
    /// The record as the run starts (its `load_after` still unknown).
    pub fn now() -> Machine {
        let seconds = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Machine {
            cpu: cpu_model(),
            cores: std::thread::available_parallelism().map_or(1, usize::from),
            load_before: load_average(),
            load_after: None,
            date: utc_date(seconds),
        }
    }

    /// Records the load average as the run ends.
    pub fn finish(&mut self) {
        self.load_after = load_average();
    }

    /// The record as JSON: `cpu`, `cores`, `load_average` (`before`,
    /// `after`; `null` where unknown), `version`, `commit`, `date`.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "cpu": self.cpu,
            "cores": self.cores,
            "load_average": {"before": self.load_before, "after": self.load_after},
            "version": VERSION,
            "commit": COMMIT,
            "date": self.date,
        })
    }

    /// The record in one sentence, e.g. `retrograde 0.1.0 (commit 0e9c653)
    /// on 2 cores (AMD EPYC), 2026-11-24 21:30 UTC; load average 0.05 before
    /// the run, 1.62 after`.
    pub fn sentence(&self) -> String {
        let load = |l: Option<f64>| l.map_or("unknown".to_string(), |l| format!("{l:.2}"));
        format!(
            "retrograde {VERSION} (commit {COMMIT}) on {} core{} ({}), {} UTC; \
             load average {} before the run, {} after",
            self.cores,
            if self.cores == 1 { "" } else { "s" },
            self.cpu,
            self.date
                .replace('T', " ")
                .trim_end_matches('Z')
                .get(..16)
                .unwrap_or(&self.date),
            load(self.load_before),
            load(self.load_after),
        )
    }
}

/// The CPU's model name from /proc/cpuinfo (`model name`), or `unknown`.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

/// The 1-minute load average from /proc/loadavg, if it can be read.
fn load_average() -> Option<f64> {
    parse_load_average(&std::fs::read_to_string("/proc/loadavg").ok()?)
}

/// The first field of /proc/loadavg's line (`0.98 1.47 1.24 2/345 6789`):
/// the 1-minute load average, if it is a number at least 0.
fn parse_load_average(line: &str) -> Option<f64> {
    let load: f64 = line.split_whitespace().next()?.parse().ok()?;
    (load.is_finite() && load >= 0.0).then_some(load)
}

/// `seconds` since the Unix epoch as a UTC date and time,
/// `YYYY-MM-DDTHH:MM:SSZ` (ISO 8601).
pub fn utc_date(seconds: u64) -> String {
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The proleptic Gregorian (year, month 1–12, day 1–31) of `days` since
/// 1970-01-01, by Howard Hinnant's `civil_from_days`: days are counted in
/// eras of 400 years (146,097 days), each year starting on 1 March so that
/// the leap day falls at its end.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097); // 0..=146_096
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153; // 0 = March … 11 = February
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month as u32, day as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_from_seconds_since_the_epoch() {
        assert_eq!(utc_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_date(86_399), "1970-01-01T23:59:59Z");
        // leap days: 2000 is a leap year (divisible by 400), 2100 is not
        assert_eq!(utc_date(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_date(951_868_800), "2000-03-01T00:00:00Z");
        assert_eq!(utc_date(1_709_164_800), "2024-02-29T00:00:00Z");
        assert_eq!(utc_date(4_107_456_000), "2100-02-28T00:00:00Z");
        assert_eq!(utc_date(4_107_542_400), "2100-03-01T00:00:00Z");
        assert_eq!(utc_date(1_735_689_599), "2024-12-31T23:59:59Z");
        assert_eq!(utc_date(253_402_300_799), "9999-12-31T23:59:59Z");
        // every day of 1970–2399 follows the one before it, months as long
        // as the calendar says
        let leap = |y: i64| y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
        let length = |y: i64, m: u32| match m {
            2 => 28 + u32::from(leap(y)),
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        let mut last = civil_from_days(-1);
        assert_eq!(last, (1969, 12, 31));
        for days in 0..157_000 {
            let next = civil_from_days(days);
            let (y, m, d) = last;
            let follows = if d < length(y, m) {
                next == (y, m, d + 1)
            } else if m < 12 {
                next == (y, m + 1, 1)
            } else {
                next == (y + 1, 1, 1)
            };
            assert!(follows, "{last:?} then {next:?}");
            last = next;
        }
    }

    #[test]
    fn the_load_average_is_the_first_field_of_proc_loadavg() {
        assert_eq!(
            parse_load_average("0.98 1.47 1.24 2/345 6789\n"),
            Some(0.98)
        );
        assert_eq!(parse_load_average(""), None);
        assert_eq!(parse_load_average("x 1 2"), None);
        assert_eq!(parse_load_average("-1 1 2"), None);
    }
}
