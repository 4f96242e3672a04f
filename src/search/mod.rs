//! Game-tree search: a position's value (and, when asked, its exact depth)
//! without a table of every state.
//!
//! * [`bitboard`]: the bitboard search of m,n,k and gravity boards up to
//!   its cell limit, with its transposition table ([`bound_table`]) and
//!   opening books ([`book`], made by [`book_making`]).
//! * [`general`]: negamax over any board of up to 64 cells, with a
//!   concurrent transposition table.
//! * [`mcts`]: Monte Carlo tree search (UCT), a move for boards beyond
//!   proof, not proved.

pub mod bitboard;
pub mod book;
pub mod book_making;
pub mod bound_table;
pub mod general;
pub mod mcts;
