//! Saved tables (`src/tablefile/`): round trips, mapped gravity files,
//! `--out` and what it may replace, queries of saved tables, the library's
//! `OpenTable`, and forged or damaged files refused.

#[path = "../common/mod.rs"]
mod common;

mod forged_tables;
mod gravity_file;
mod library_api;
mod out_file;
mod own_table;
mod query_positions;
mod symbolic_forgeries;
mod tablefile;
