//! The binary as a user meets it: each command's answers, JSON, CSV and
//! plots, play, progress and bench, certificates checked, refusals and
//! help, generated bad input, the answers corpus, and the docs (their
//! examples run, ARCHITECTURE.md true to the code).

#[path = "../common/mod.rs"]
mod common;

mod adversarial;
mod answers_corpus;
mod architecture_doc;
mod beyond_reach;
mod cat_mouse;
mod cat_mouse_grid;
mod check_proof;
mod csv;
mod doc_examples;
mod help;
mod mnk;
mod notes;
mod play;
mod plot;
mod positions;
mod progress_and_bench;
mod progress_bars;
mod refusals;
mod search;
mod serve;
mod symbolic;
mod verify;
