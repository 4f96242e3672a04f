//! The empty m,n,k board's value alone, asked of the search (values only):
//! the search gets the first share of the time alone, then the provers (a
//! pairing, zones, the win prover) join it beside its table
//! ([`super::prove::race_for_the_value`]), so that `search` reaches what
//! `prove` reaches — 9,4,4's first-player win, which the search alone does
//! not reach in 300 s, the win prover proves in about 90 s more.

use std::time::{Duration, Instant};

use super::searching::Question;
use crate::position::answer::MoveDetail;
use crate::position::{BoardGame, Family};
use crate::search::general::Precision;

/// The share of a time limit (at most [`SEARCH_ALONE_AT_MOST`]) that the
/// search gets alone before the provers join it.
pub const SEARCH_ALONE_SHARE: u32 = 4;

/// The most time the search gets alone before the provers join it: every
/// board the search answers at once (to 5 × 5) is answered by it alone.
pub const SEARCH_ALONE_AT_MOST: Duration = Duration::from_secs(10);

/// Whether `question` on `game` is the value alone of the empty m,n,k
/// board (values only, one best move), which the provers race the search
/// for once its first share is spent.
pub fn races(game: &BoardGame, question: &Question) -> bool {
    game.family() == Family::Mnk
        && question.precision == Precision::Weak
        && question.detail == MoveDetail::Best
        && question.position.stones() == 0
}

/// When the search started at `started` stops alone, under `time_limit`.
pub fn search_alone_until(started: Instant, time_limit: Option<Duration>) -> Instant {
    let alone = match time_limit {
        Some(limit) => (limit / SEARCH_ALONE_SHARE).min(SEARCH_ALONE_AT_MOST),
        None => SEARCH_ALONE_AT_MOST,
    };
    started + alone
}
