//! The df-pn core every prover shares: proof and disproof numbers
//! ([`ProofNumbers`], counted in `u32` by the win and threat provers,
//! `u64` by the zone prover) and the verdict on a position ([`Verdict`])
//! of the win prover ([`crate::prove::win`]) and the threat prover
//! ([`crate::prove::threats`]). The zone prover
//! ([`crate::prove::zones`]) counts from the defender's side and keeps a
//! verdict of its own, which carries the zone of a hold.

/// A df-pn search's verdict on a position, for the attacker (the win
/// prover's and the threat prover's; the zone prover's, from the
/// defender's side with the zone of a hold, is its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker wins.
    Win,
    /// The attacker does not win (with the moves tried, where a prover
    /// limits them).
    NoWin,
    /// Not settled within the limits (time, positions or memory).
    Open,
}

/// The word a search counts its numbers in: `u32` for the win and threat
/// provers (whose tables hold many entries), `u64` for the zone prover
/// (whose sums never saturate in practice, so its thresholds never
/// collapse onto a child's numbers).
pub trait Count: Copy + Ord + std::fmt::Debug {
    /// A number too large to count: proved or disproved.
    const INFINITE: Self;
    /// Nothing left to prove.
    const ZERO: Self;
}

impl Count for u32 {
    const INFINITE: u32 = u32::MAX / 2;
    const ZERO: u32 = 0;
}

impl Count for u64 {
    const INFINITE: u64 = u64::MAX / 4;
    const ZERO: u64 = 0;
}

/// A number too large to count in the `u32` searches: proved or
/// disproved.
pub const INFINITE: u32 = <u32 as Count>::INFINITE;

/// The proof and disproof numbers of a position: how many positions are
/// still to prove to show the prover's claim, and to show it fails (the
/// win and threat provers count from the attacker's side, the zone
/// prover from the defender's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofNumbers<C: Count> {
    /// Positions still to prove.
    pub proof: C,
    /// Positions still to disprove.
    pub disproof: C,
}

/// The numbers of the win and threat provers.
pub type Numbers = ProofNumbers<u32>;

impl<C: Count> ProofNumbers<C> {
    /// Proved: nothing left to prove.
    pub const PROVED: Self = Self {
        proof: C::ZERO,
        disproof: C::INFINITE,
    };
    /// Disproved: nothing left to disprove.
    pub const DISPROVED: Self = Self {
        proof: C::INFINITE,
        disproof: C::ZERO,
    };

    /// Whether the position is proved or disproved.
    pub fn settled(self) -> bool {
        self.proof == C::ZERO || self.disproof == C::ZERO
    }

    /// Whether either number reached its threshold's: the search of the
    /// position returns.
    pub fn exceeds(self, threshold: Self) -> bool {
        self.proof >= threshold.proof || self.disproof >= threshold.disproof
    }
}

impl ProofNumbers<u32> {
    /// The numbers a position with `moves` moves starts with (the
    /// "mobility" start): one to prove or disprove at the mover's turn
    /// (`or`: the attacker's, one good move proves), every move at the
    /// other's.
    pub fn mobility(or: bool, moves: u32) -> Self {
        if or {
            Self {
                proof: 1,
                disproof: moves,
            }
        } else {
            Self {
                proof: moves,
                disproof: 1,
            }
        }
    }
}

/// The summed side of a node's numbers, whose least side is `least`:
/// past the numbers' range an unsettled node's sum is large, not
/// infinite, so it stops at `INFINITE − 1` and stays below the thresholds
/// of `INFINITE` the searches give. (A sum saturated at `INFINITE` on an
/// unsettled node made it return at once from every search, forever:
/// found in the threat prover's gomoku runs.) A settled node (`least` 0,
/// or the sum 0) keeps its sum.
pub fn capped_sum(sum: u32, least: u32) -> u32 {
    if least == 0 {
        sum.min(INFINITE)
    } else {
        sum.min(INFINITE - 1)
    }
}
