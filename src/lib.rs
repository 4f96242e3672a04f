//! # retrograde
//!
//! A strong solver for finite two-player games. Every state of a game is
//! mapped onto a dense index `0..N` ([`index`]), described by a small trait
//! ([`game::RankedGame`]), and labelled win / loss / draw for the player to
//! move with its exact depth by a parallel, level-synchronous retrograde pass
//! ([`solve::retrograde`]). The result is an [`table::OutcomeTable`]: two bits
//! a state in a `bitvec` plus a depth a state; every count the tool prints
//! comes from that table.
//!
//! A table saved by the command line (`--out`) opens with
//! [`tablefile::open::OpenTable`], which answers any position of its board
//! in the shape `retrograde query --json` prints; its module doc has the
//! example. Solving from code:
//!
//! ```
//! use retrograde::games::cat_mouse::CatMouseGraph;
//! use retrograde::solve::retrograde::solve;
//!
//! // LeetCode 913, example 2: the mouse wins.
//! let game = CatMouseGraph::new(&[vec![1, 3], vec![0], vec![3], vec![0, 2]]).unwrap();
//! let table = solve(&game).unwrap();
//! let start = game.start_state(1, 2, retrograde::games::cat_mouse::Turn::Mouse).unwrap();
//! assert_eq!(game.winner(&table, start), Some(retrograde::games::cat_mouse::Player::Mouse));
//! ```

pub mod atomic_file;
pub mod checksum;
pub mod error;
pub mod files;
pub mod game;
pub mod games;
pub mod index;
pub mod memory;
pub mod position;
pub mod solve;
pub mod summary;
pub mod table;
pub mod tablefile;

pub use error::Error;
