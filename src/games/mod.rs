//! The games, each on a dense state index.
//!
//! * [`cat_mouse`]: Cat and Mouse on a graph (LeetCode 913).

pub mod cat_mouse;
