//! The games, each on a dense state index.
//!
//! * [`cat_mouse`]: Cat and Mouse on a graph (LeetCode 913).
//! * [`mnk`]: m,n,k boards, the tic-tac-toe family.

pub mod cat_mouse;
pub mod mnk;
