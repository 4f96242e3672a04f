//! The exhaustive engines (`src/tables/`) and their games: published
//! figures, differential tests against simple references written in the
//! tests, thread-count independence, and the projection of a solve's size.

#[path = "../common/mod.rs"]
mod common;

mod cat_mouse_contract;
mod cat_mouse_differential;
mod cat_mouse_grid;
mod cat_mouse_published;
mod cat_mouse_threads;
mod classics;
mod connect_projection;
mod gravity;
mod mnk_counts_by_lines;
mod mnk_differential;
mod mnk_published;
mod mnk_threads;
mod own_games;
mod symbolic;
