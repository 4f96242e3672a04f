//! Packed state indices: bijections between a game's states and `0..N`.
//!
//! Dense indices let every table be a flat array or a bitvec, so no hash map
//! sits on the hot path.
//!
//! * [`mixed_radix`]: tuples of bounded digits, e.g. (mouse, cat, turn);
//! * [`colex`]: sets of cells by their colexicographic rank, and the
//!   per-ply rank of a board's (X cells, O cells) built on it.

pub mod colex;
pub mod mixed_radix;
pub mod neighbours;

pub use colex::PlyShape;
pub use mixed_radix::MixedRadix;
