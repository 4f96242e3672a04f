//! The budget of a check ([`Limits`]) and the meter the checkers count
//! their work on ([`Meter`]).
//!
//! **Cost model.** A checker's memory is the certificate's text, its
//! parsed entries (about as large again as the text) and the positions it
//! holds: every position a checker has settled stays in its memo until the
//! end (zone proofs: one per position replayed; proof trees: one per
//! position; threat proofs: one per (lookup board, actual board, side to
//! move) met, which `zone` entries multiply — a defender turn with a zone
//! plays every empty cell outside it as an extra stone, so `d` nested
//! zones on `n` empty cells can ask for about `n^d / d!` positions from a
//! few kilobytes of text). Each held position is counted at
//! [`Limits::BYTES_PER_POSITION`] against the memory budget; time is read
//! every few thousand positions.

use std::time::Instant;

use crate::{Checked, Failure};

/// Bounds on a check: how many positions it may hold, and when it must
/// stop. `Limits::none()` has neither.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// The most positions held at once (`None`: no bound).
    pub max_positions: Option<usize>,
    /// The instant the check gives up at (`None`: never).
    pub deadline: Option<Instant>,
    /// The seconds the deadline stands for, for the message.
    pub seconds: Option<f64>,
}

impl Limits {
    /// Bytes a held position is counted at: its board's key (up to 64
    /// bytes, twice for a threat proof's lookup and actual boards), its
    /// verdict or zone, the hash map's overhead and the replay's stack —
    /// measured at 570 bytes a position on the threat checker (921,600
    /// positions in 525 MB peak), rounded up.
    pub const BYTES_PER_POSITION: u64 = 640;

    /// No bound.
    pub fn none() -> Self {
        Limits::default()
    }

    /// The memory a text of `text_bytes` takes with its parsed entries:
    /// about three times the text.
    pub fn text_memory(text_bytes: u64) -> u64 {
        text_bytes.saturating_mul(3)
    }

    /// The positions that `bytes` of memory hold after the text and its
    /// parsed entries ([`Limits::text_memory`]), or `None` when the text
    /// alone does not fit.
    pub fn positions_for(bytes: u64, text_bytes: u64) -> Option<usize> {
        let rest = bytes.checked_sub(Self::text_memory(text_bytes))?;
        Some(usize::try_from(rest / Self::BYTES_PER_POSITION).unwrap_or(usize::MAX))
    }
}

/// Counts a check's held positions against its [`Limits`]; once over, the
/// checker's next step fails and [`Meter::verdict`] reports the budget,
/// not a refusal.
pub(crate) struct Meter {
    limits: Limits,
    held: usize,
    ticks: u32,
    over: Option<String>,
}

impl Meter {
    pub(crate) fn new(limits: &Limits) -> Self {
        Meter {
            limits: *limits,
            held: 0,
            ticks: 0,
            over: None,
        }
    }

    /// Counts one more position held; `Err` (with the reason, kept for
    /// [`Meter::verdict`]) once over a bound.
    pub(crate) fn hold(&mut self) -> Result<(), String> {
        if let Some(why) = &self.over {
            return Err(why.clone());
        }
        self.held += 1;
        if self
            .limits
            .max_positions
            .is_some_and(|most| self.held > most)
        {
            let most = self.limits.max_positions.unwrap_or_default();
            return Err(self.stop(format!(
                "the check would hold more than {most} positions (about {} MiB at {} bytes a \
                 position), over its memory budget: raise --max-memory",
                (most as u64 * Limits::BYTES_PER_POSITION) >> 20,
                Limits::BYTES_PER_POSITION
            )));
        }
        self.ticks += 1;
        if self.ticks >= 4096 {
            self.ticks = 0;
            if self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
                let seconds = self.limits.seconds.unwrap_or_default();
                return Err(self.stop(format!(
                    "the check ran past its time limit of {seconds} s after {} positions: raise \
                     --time-limit",
                    self.held
                )));
            }
        }
        Ok(())
    }

    fn stop(&mut self, why: String) -> String {
        self.over = Some(why.clone());
        why
    }

    /// A checker's verdict as a [`Failure`]: over budget when the meter
    /// stopped it, whatever the checker made of that.
    pub(crate) fn verdict(self, verdict: Result<Checked, String>) -> Result<Checked, Failure> {
        match (verdict, self.over) {
            (_, Some(why)) => Err(Failure::OverBudget(why)),
            (Ok(checked), None) => Ok(checked),
            (Err(why), None) => Err(Failure::Refused(why)),
        }
    }
}
