//! The games, each on a dense state index.
//!
//! * [`cat_mouse`]: Cat and Mouse on a graph (LeetCode 913).
//! * [`cat_mouse_grid`]: Cat and Mouse II on a grid (LeetCode 1728).
//! * [`mnk`]: m,n,k boards, the tic-tac-toe family.
//! * [`nim`], [`can_i_win`], [`ends`]: the small classics (LeetCode 292, 464,
//!   486 / 877).

pub mod adjacency;
pub mod can_i_win;
pub mod cat_mouse;
pub mod cat_mouse_grid;
pub mod ends;
pub mod gravity;
pub mod mnk;
pub mod nim;
