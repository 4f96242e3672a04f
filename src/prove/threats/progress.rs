//! The threat prover's progress report: a line of counts every so many
//! seconds, handed to the front end's [`ReportLines`] (`prove
//! --report-every` writes them to stderr), for runs of hours, where a
//! search that goes round its table without settling anything shows as
//! positions searched with few new expansions and settled entries.
//!
//! Each line gives the totals and, in brackets, what changed since the
//! line before: positions searched, expansions worked out, the table's
//! entries and slots, its settled entries, the new keys that found it
//! crowded and the entries replaced for them (and of those, the proofs
//! given up: [`super::table`], "Replacement"), the searches that returned
//! at once (their numbers past the thresholds they were given: each such
//! return is a descent that found nothing to do), the mean and deepest
//! depth of the positions searched, and the root's numbers; then the
//! moves from the root to the position being searched at that moment.

use std::time::{Duration, Instant};

use super::table::TableCounts;
use crate::prove::proof_numbers::Numbers;
use crate::runtime::progress::ReportLines;

/// Counts the search keeps for the report, and when the next is due.
#[derive(Debug)]
pub struct Progress {
    /// Reports every this long, to these lines; `None`: never.
    every: Option<(Duration, ReportLines)>,
    started: Instant,
    next: Instant,
    /// Depths summed over the positions searched since the last report,
    /// and the deepest.
    pub depth_sum: u64,
    pub max_depth: u32,
    /// Searches that returned without searching a child, unsettled.
    pub at_once: u64,
    /// The moves from the root to the position being searched (cells;
    /// `u32::MAX` a pass), one per depth below the root: its length plus
    /// one is that position's depth.
    pub path: Vec<u32>,
    /// The key of the position [`super::ThreatProver::prove`] searches.
    pub root: u128,
    last: Snapshot,
}

/// The totals at a report, to give the next one's changes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Snapshot {
    pub visits: u64,
    pub expansions: u64,
    pub entries: usize,
    pub slots: usize,
    pub table: TableCounts,
    pub at_once: u64,
    /// The root's numbers in the table.
    pub root: Option<Numbers>,
}

impl Default for Progress {
    fn default() -> Self {
        let now = Instant::now();
        Self {
            every: None,
            started: now,
            next: now,
            depth_sum: 0,
            max_depth: 0,
            at_once: 0,
            path: Vec::new(),
            root: 0,
            last: Snapshot::default(),
        }
    }
}

impl Progress {
    /// Reports every `every` from now on, to `lines` (the clock of the
    /// lines starts now; the first line's changes count from `now`).
    pub fn report_every(&mut self, every: Duration, now: Snapshot, lines: ReportLines) {
        self.every = Some((every, lines));
        self.last = now;
        self.started = Instant::now();
        self.next = self.started + every;
    }

    /// Hands `line` to the report's lines, if reports were asked for.
    pub fn write(&self, line: &str) {
        if let Some((_, lines)) = &self.every {
            lines.write(line);
        }
    }

    /// Whether a report is due now.
    pub fn due(&self, now: Instant) -> bool {
        self.every.is_some() && now >= self.next
    }

    /// The report's line at time `at` for the totals `now`; the next is
    /// due a period later, and its changes are counted from these totals.
    pub fn line(&mut self, at: Instant, now: Snapshot) -> String {
        if let Some((every, _)) = &self.every {
            self.next = at + *every;
        }
        let last = std::mem::replace(&mut self.last, now);
        let visits = now.visits.saturating_sub(last.visits);
        let mean_depth = if visits == 0 {
            0.0
        } else {
            self.depth_sum as f64 / visits as f64
        };
        let line = format!(
            "progress {:.0} s: {} positions (+{}), {} expansions (+{}), table {} entries \
             ({:+}) in {} slots, settled {} ({:+}), crowded +{}, replaced +{} \
             (proofs given up +{}), ageings {}, \
             returned at once +{}, depth mean {:.1} max {}, root {}",
            at.duration_since(self.started).as_secs_f64(),
            now.visits,
            visits,
            now.expansions,
            now.expansions.saturating_sub(last.expansions),
            now.entries,
            now.entries as i64 - last.entries as i64,
            now.slots,
            now.table.settled,
            now.table.settled as i64 - last.table.settled as i64,
            now.table.crowded.saturating_sub(last.table.crowded),
            now.table.replaced.saturating_sub(last.table.replaced),
            now.table
                .proofs_given_up
                .saturating_sub(last.table.proofs_given_up),
            now.table.ageings,
            now.at_once.saturating_sub(last.at_once),
            mean_depth,
            self.max_depth,
            now.root.map_or("not stored".into(), |n| format!(
                "({}, {})",
                n.proof, n.disproof
            )),
        );
        self.depth_sum = 0;
        self.max_depth = 0;
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_gives_the_totals_and_the_changes_since_the_last() {
        let mut progress = Progress::default();
        assert!(!progress.due(Instant::now()), "never due unless asked");
        let first = Snapshot {
            visits: 1_000,
            expansions: 2_000,
            entries: 500,
            slots: 4_096,
            ..Snapshot::default()
        };
        progress.report_every(Duration::from_secs(3_600), first, ReportLines::new(|_| {}));
        assert!(!progress.due(Instant::now()));
        assert!(progress.due(Instant::now() + Duration::from_secs(3_601)));
        progress.depth_sum = 3 * 500;
        progress.max_depth = 7;
        let table = TableCounts {
            settled: 40,
            crowded: 9,
            replaced: 8,
            proofs_given_up: 3,
            ..TableCounts::default()
        };
        let line = progress.line(
            Instant::now(),
            Snapshot {
                visits: 1_500,
                expansions: 2_100,
                entries: 450,
                slots: 4_096,
                table,
                at_once: 12,
                root: Some(Numbers {
                    proof: 5,
                    disproof: 6,
                }),
            },
        );
        for part in [
            "1500 positions (+500)",
            "2100 expansions (+100)",
            "table 450 entries (-50) in 4096 slots",
            "settled 40 (+40)",
            "crowded +9, replaced +8 (proofs given up +3)",
            "returned at once +12",
            "depth mean 3.0 max 7",
            "root (5, 6)",
        ] {
            assert!(line.contains(part), "{part}: {line}");
        }
        // the next line counts from this one's totals, depths anew
        let again = progress.line(
            Instant::now(),
            Snapshot {
                visits: 1_500,
                ..Snapshot::default()
            },
        );
        assert!(
            again.contains("(+0)") && again.contains("depth mean 0.0 max 0"),
            "{again}"
        );
        assert!(again.contains("root not stored"), "{again}");
    }
}
