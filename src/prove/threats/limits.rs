//! The threat prover's limits: memory kept against the budget, the
//! visits, the deadline, and the path named when one stops a proof.

use super::*;

impl<'g> ThreatProver<'g> {
    /// Whether the search must stop now (time, visits); says why once.
    pub(super) fn over_limits(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        if self.kept_bytes() > self.max_kept_bytes {
            // the cuts of positions the table no longer holds go first
            // (made again as needed: `zones`); stopped if that frees less
            // than an eighth, so that a sweep is not made at every position
            // (not while the certificate is walked: a cut forgotten
            // between its two checks would be made afresh unchecked)
            if !self.checking_cuts {
                self.forget_cuts_of_positions_gone();
            }
            if self.kept_bytes() > self.max_kept_bytes / 8 * 7 {
                self.stopped = Some(format!(
                    "the zones' memory is full ({} cuts, all of positions the table holds, and {} moves kept)",
                    self.cuts.len(),
                    self.chosen.len()
                ));
                return true;
            }
        }
        self.stop_past_visits();
        self.stopped.is_some()
    }

    /// Bytes the cuts and chosen moves kept take, about.
    pub(super) fn kept_bytes(&self) -> u64 {
        self.cuts.len() as u64 * BYTES_PER_CUT + self.chosen.len() as u64 * BYTES_PER_CHOSEN
    }

    /// Keeps, from now on, the keys of the positions each certificate
    /// written lists, so that the checkpoint of the proof alone can be
    /// saved after it ([`Self::save_proof_checkpoint`]).
    pub fn keep_proof_positions(&mut self) {
        self.keeping_proof_keys = true;
    }

    /// Whether the deadline given has passed.
    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Stops the search once it has searched its positions.
    pub(super) fn stop_past_visits(&mut self) {
        if self.stopped.is_none() && self.stats.visits >= self.max_visits {
            self.stopped = Some(format!("{} positions visited", self.stats.visits));
        }
    }

    /// Stops the search at the deadline or past its positions; called
    /// every 256 positions from [`Self::search`]'s entry (not only from
    /// [`Self::over_limits`], which a node that returns at once skips: in
    /// the saturation livelock (module docs) the search ran past its time
    /// limit, and past its positions without a deadline).
    pub(super) fn check_clock(&mut self) {
        let now = Instant::now();
        if self.stopped.is_none() && self.deadline.is_some_and(|d| now >= d) {
            self.stopped = Some(TIME_LIMIT.into());
        }
        self.stop_past_visits();
        if self.progress.due(now) {
            let line = self.progress.line(now, self.snapshot());
            self.progress
                .write(&format!("{line}, path {}", self.path_names()));
        }
    }

    /// The moves from the root to the position being searched, named
    /// (`pass` for a defender pass), for the progress line.
    pub(super) fn path_names(&self) -> String {
        let names: Vec<String> = self
            .progress
            .path
            .iter()
            .map(|&cell| match cell {
                PASS => "pass".into(),
                cell => self.geometry.cell_name(cell),
            })
            .collect();
        names.join(" ")
    }

    /// Whether the last [`Self::prove`] stopped at its deadline (and for
    /// nothing else).
    pub fn stopped_by_clock(&self) -> bool {
        self.stopped.as_deref() == Some(TIME_LIMIT)
    }
}
