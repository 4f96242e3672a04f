//! The provers (`src/prove/`): pairings, proof trees, df-pn wins, zones and
//! threats, their certificates replayed by checkers written here apart from
//! the library (`threat_checker/`, with its self-test), their verdicts
//! against the exhaustive tables, and `prove mnk` through the binary.

#[path = "../common/mod.rs"]
mod common;

mod threat_checker;

mod facade;
mod oracle;
mod pairing_certificates;
mod proof_certificates;
mod prove_mnk_threats;
mod threat_checker_selftest;
mod threat_proof;
mod win_proof;
mod zone_proof;
