//! # retrograde
//!
//! A strong solver for finite two-player games. Every state of a game is
//! mapped onto a dense index `0..N` ([`index`]), described by a small trait
//! ([`game::RankedGame`]), and labelled win / loss / draw for the player to
//! move with its exact depth by a parallel, level-synchronous retrograde pass
//! ([`tables::retrograde`]). The result is an [`game::table::OutcomeTable`]: two bits
//! a state in a `bitvec` plus a depth a state; every count the tool prints
//! comes from that table.
//!
//! ## Rooms
//!
//! The crate is built in layers; each room uses only those below it (a
//! test fails on any circle), and `docs/ARCHITECTURE.md` draws the plan:
//!
//! * **Facade** — [`analyzer`]: which engine answers a question within a
//!   budget and a time (the prover cascade, the searches of an answer).
//!   The command line, the Python package and the HTTP server call it.
//! * **Files** — [`tablefile`]: tables and books on disk, certified
//!   against their game's rules when read; [`summary`]: a solved board's
//!   counts as JSON.
//! * **Engines** — [`tables`] (every state: retrograde, dense and sparse
//!   layered, symbolic), [`search`] (one position: the bitboard and
//!   general searches, books) and [`prove`] (pairings, zones, df-pn win
//!   proofs, threat proofs, proof trees: certificates past search).
//! * **Games** — [`games`]: each game on a dense state index.
//! * **Language** — [`position`] (positions, moves, the one answer shape)
//!   and [`game`] (the [`game::RankedGame`] trait, outcomes and
//!   [`game::table::OutcomeTable`]).
//! * **Ground** — [`board`] (board sizes, cell sets), [`index`],
//!   [`runtime`] (pools, counters, progress, clocks), [`memory`],
//!   [`error`], [`bytes`], [`numbers`], [`files`], [`atomic_file`],
//!   [`checksum`].
//!
//! A table saved by the command line (`--out`) opens with
//! [`tablefile::open::OpenTable`], which answers any position of its board
//! in the shape `retrograde query --json` prints; its module doc has the
//! example. Solving from code:
//!
//! ```
//! use retrograde::games::cat_mouse::CatMouseGraph;
//! use retrograde::tables::retrograde::solve;
//!
//! // LeetCode 913, example 2: the mouse wins.
//! let game = CatMouseGraph::new(&[vec![1, 3], vec![0], vec![3], vec![0, 2]]).unwrap();
//! let table = solve(&game).unwrap();
//! let start = game.start_state(1, 2, retrograde::games::cat_mouse::Turn::Mouse).unwrap();
//! assert_eq!(game.winner(&table, start), Some(retrograde::games::cat_mouse::Player::Mouse));
//! ```

pub mod analyzer;
pub mod atomic_file;
pub mod board;
pub mod bytes;
pub mod checksum;
pub mod error;
pub mod files;
pub mod game;
pub mod games;
pub mod index;
pub mod memory;
pub mod numbers;
pub mod position;
pub mod prove;
pub mod runtime;
pub mod search;
pub mod summary;
pub mod tablefile;
pub mod tables;

pub use analyzer::Analyzer;
pub use error::Error;
