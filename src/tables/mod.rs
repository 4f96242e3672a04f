//! Exhaustive tables: every state of a game labelled win / loss / draw for
//! the player to move, with its exact depth — an
//! [`OutcomeTable`](crate::game::table::OutcomeTable) for the explicit
//! engines.
//!
//! * [`retrograde`]: parallel level-synchronous retrograde analysis for
//!   games with cycles (draws are the states never decided).
//! * [`layered`]: forward enumeration and backward induction by ply for
//!   games where every move adds a stone (m,n,k boards).
//! * [`sparse`]: the same by ply over sorted keys, for gravity boards.
//! * [`symbolic`]: the same by ply over decision diagrams (OxiDD).
//! * [`atomic`]: the shared claim-once tables of a parallel solve.
//!
//! Tables never print; they report through
//! [`Progress`](crate::runtime::progress::Progress) and run on the rayon
//! pool they are called in.

pub mod atomic;
pub mod layered;
pub mod retrograde;
pub mod sparse;
pub mod symbolic;
