//! The games, each on a dense state index.
//!
//! * [`cat_mouse`]: Cat and Mouse on a graph (LeetCode 913).
//! * [`cat_mouse_grid`]: Cat and Mouse II on a grid (LeetCode 1728).
//! * [`mnk`]: m,n,k boards, the tic-tac-toe family.

pub mod adjacency;
pub mod cat_mouse;
pub mod cat_mouse_grid;
pub mod mnk;
