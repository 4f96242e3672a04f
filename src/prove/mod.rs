//! Provers: values of m,n,k boards too large to search, each written as a
//! certificate that a checker trusting only the rules can replay
//! (docs/FORMAT.md).
//!
//! * [`pairing`]: draws by a pairing strategy, found without search.
//! * [`zones`]: draws by each player's defence, with pairings and
//!   relevance zones.
//! * [`win`]: first-player wins by df-pn proof-number search.
//! * [`threats`]: first-player wins on boards up to 256 cells by runs of
//!   fours and threats (gomoku).
//! * [`proof_tree`]: the search's values written as a proof tree.
//! * [`proof_numbers`]: the proof and disproof numbers the proof-number
//!   searches share.

pub mod pairing;
pub mod proof_numbers;
pub mod proof_tree;
pub mod threats;
pub mod win;
pub mod zones;
