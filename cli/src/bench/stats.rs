//! The figures of a row's runs — median, min, max and their spread — and
//! the tests that call a bench's figures noisy.
//!
//! Two things make figures untrustworthy, and each is tested:
//!
//! * **A wide spread.** The runs of one workload at one thread count
//!   should take about the same time; when (max − min) / median is above
//!   [`SPREAD_LIMIT`] (10%), something else took the machine during some of
//!   them. One run has no spread, so it is never called noisy on this count.
//! * **A loaded machine.** The 1-minute load average (runnable tasks,
//!   averaged) before the first run is other programs' work: above
//!   [`LOAD_PER_CORE_LIMIT`] (a quarter) of the cores, they compete with
//!   the bench. After the last run it includes the bench's own threads, so
//!   only a load above the bench's largest thread count (at most the
//!   cores) plus that quarter counts. The 1-minute average lags: a build
//!   that ended just before the bench still weighs on it.

/// Runs spread over more than this fraction of their median are noisy.
pub const SPREAD_LIMIT: f64 = 0.10;

/// A load average, beyond the bench's own threads, above this many tasks a
/// core marks a loaded machine.
pub const LOAD_PER_CORE_LIMIT: f64 = 0.25;

/// The times of one row's runs, in seconds.
///
/// Invariant: `min <= median <= max`, all finite and at least 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// The middle time (the mean of the two middle ones for an even count):
    /// the row's figure, since one slow run moves it little.
    pub median: f64,
    /// The fastest run.
    pub min: f64,
    /// The slowest run.
    pub max: f64,
}

impl Summary {
    /// The summary of `times`, which holds at least one time.
    pub fn of(times: &[f64]) -> Summary {
        assert!(!times.is_empty(), "a row has at least one run");
        let mut sorted = times.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        let summary = Summary {
            median,
            min: sorted[0],
            max: sorted[n - 1],
        };
        debug_assert!(summary.min <= summary.median && summary.median <= summary.max);
        summary
    }

    /// (max − min) / median: 0 for one run (or a median of 0).
    pub fn spread(&self) -> f64 {
        if self.median > 0.0 {
            (self.max - self.min) / self.median
        } else {
            0.0
        }
    }
}

/// A reason for each row whose runs spread over more than
/// [`SPREAD_LIMIT`] of their median; rows as (workload, threads, summary).
pub fn spread_reasons<'a>(rows: impl IntoIterator<Item = (&'a str, u32, Summary)>) -> Vec<String> {
    rows.into_iter()
        .filter(|(_, _, s)| s.spread() > SPREAD_LIMIT)
        .map(|(workload, threads, s)| {
            format!(
                "{workload} at {threads} thread{}: the runs spread over {:.0}% of their median (limit {:.0}%)",
                if threads == 1 { "" } else { "s" },
                100.0 * s.spread(),
                100.0 * SPREAD_LIMIT
            )
        })
        .collect()
}

/// A reason for each load average that marks a loaded machine: `before`
/// the first run above [`LOAD_PER_CORE_LIMIT`] × `cores`, `after` the last
/// one above that plus the bench's own `most_threads` (at most `cores`).
pub fn load_reasons(
    before: Option<f64>,
    after: Option<f64>,
    cores: usize,
    most_threads: u32,
) -> Vec<String> {
    let others = LOAD_PER_CORE_LIMIT * cores as f64;
    let own = (most_threads as usize).min(cores);
    let mut reasons = Vec::new();
    if let Some(load) = before.filter(|&l| l > others) {
        reasons.push(format!(
            "the 1-minute load average was {load:.2} before the run, above {others:.2} \
             (a quarter of the {cores} cores): other programs were running"
        ));
    }
    let limit = own as f64 + others;
    if let Some(load) = after.filter(|&l| l > limit) {
        reasons.push(format!(
            "the 1-minute load average was {load:.2} after the run, above {limit:.2} \
             (the bench's own {own} thread{} and a quarter of the {cores} cores): \
             other programs were running",
            if own == 1 { "" } else { "s" }
        ));
    }
    reasons
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_min_and_max_of_the_runs() {
        let s = Summary::of(&[3.0, 1.0, 2.0]);
        assert_eq!((s.median, s.min, s.max), (2.0, 1.0, 3.0));
        // one slow run moves the median little, the mean a lot
        let s = Summary::of(&[1.0, 1.1, 9.0]);
        assert_eq!(s.median, 1.1);
        assert_eq!(Summary::of(&[4.0, 1.0, 3.0, 2.0]).median, 2.5);
        let one = Summary::of(&[0.5]);
        assert_eq!(
            (one.median, one.min, one.max, one.spread()),
            (0.5, 0.5, 0.5, 0.0)
        );
        assert!((Summary::of(&[0.9, 1.0, 1.2]).spread() - 0.3).abs() < 1e-12);
    }

    #[test]
    fn noisy_figures_are_flagged_by_a_wide_spread_or_a_loaded_machine() {
        let tight = Summary::of(&[1.00, 1.02, 1.05]);
        let wide = Summary::of(&[1.0, 1.3, 1.05]);
        let reasons = spread_reasons([("a", 1, tight), ("a", 2, wide), ("b", 1, tight)]);
        assert_eq!(reasons.len(), 1, "{reasons:?}");
        assert!(reasons[0].starts_with("a at 2 threads: the runs spread over 29%"));
        assert!(reasons[0].contains("limit 10%"));
        assert!(spread_reasons([("a", 1, Summary::of(&[2.0]))]).is_empty());

        // two cores: before the run, a quarter of them (0.50) is the limit
        assert!(load_reasons(Some(0.5), None, 2, 2).is_empty());
        let before = load_reasons(Some(0.98), None, 2, 2);
        assert_eq!(before.len(), 1);
        assert!(
            before[0].contains("0.98 before the run, above 0.50"),
            "{before:?}"
        );
        // after it, the bench's own threads are allowed for
        assert!(load_reasons(None, Some(2.4), 2, 2).is_empty());
        assert!(load_reasons(None, Some(1.4), 2, 1).is_empty());
        let after = load_reasons(None, Some(1.6), 2, 1);
        assert!(
            after[0].contains("1.60 after the run, above 1.50"),
            "{after:?}"
        );
        // the bench's own threads count at most once a core
        assert_eq!(load_reasons(None, Some(2.6), 2, 8).len(), 1);
        assert_eq!(load_reasons(Some(3.0), Some(9.0), 2, 2).len(), 2);
        assert!(load_reasons(None, None, 2, 2).is_empty());
    }
}
