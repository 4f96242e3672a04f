//! The lowest layer of the board games: a board's size ([`BoardSize`]) and
//! cell sets of up to 256 cells ([`cells`]).

pub mod cells;
pub mod size;

pub use size::BoardSize;
