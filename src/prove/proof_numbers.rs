//! Proof and disproof numbers, shared by the proof-number searches
//! ([`crate::prove::win`], [`crate::prove::threats`]).

/// A number too large to count: proved or disproved.
pub const INFINITE: u32 = u32::MAX / 2;

/// The proof and disproof numbers of a position: how many positions are
/// still to prove to show the attacker wins, and to show it does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    pub proof: u32,
    pub disproof: u32,
}

impl Numbers {
    pub const PROVED: Self = Self {
        proof: 0,
        disproof: INFINITE,
    };
    pub const DISPROVED: Self = Self {
        proof: INFINITE,
        disproof: 0,
    };

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

    /// Whether the position is proved or disproved.
    pub fn settled(self) -> bool {
        self.proof == 0 || self.disproof == 0
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
