//! Game-tree search (`src/search/`): the bitboard and general engines
//! against the exhaustive tables, books, and batch mode (`search
//! --positions`) streaming line by line.

#[path = "../common/mod.rs"]
mod common;

mod batch;
mod bitboard_gravity;
mod bitboard_mnk;
mod bitboard_mnk_wide;
mod book;
mod facade;
mod general;
mod mcts;
