//! The provers (`src/prove/`): pairings, proof trees, df-pn wins, zones and
//! threats, their certificates replayed by the checkers written apart from
//! the library (the crate `retrograde_checker`, `checker/`; the threat
//! checker's self-test is here), their verdicts against the exhaustive
//! tables, and `prove mnk` through the binary.

#[path = "../common/mod.rs"]
mod common;

mod facade;
mod forgers;
mod oracle;
mod pairing_certificates;
mod proof_certificates;
mod prove_mnk_threats;
mod threat_checker_selftest;
mod threat_proof;
mod threat_space;
mod win_proof;
mod zone_proof;
