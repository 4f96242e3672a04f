//! Proof and disproof numbers, shared by the proof-number searches
//! ([`crate::solve::win_proof`], [`crate::solve::threat_proof`]).

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

    /// Whether the position is proved or disproved.
    pub fn settled(self) -> bool {
        self.proof == 0 || self.disproof == 0
    }
}
