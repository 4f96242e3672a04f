//! Making an opening book ([`super::book`]): every position in play up to
//! some number of stones enumerated ply by ply, searched from the deepest
//! ply up by the bitboard search, journaled a batch at a time so that a
//! run cut short resumes, and checked whole ([`Book::check_negamax`])
//! before it is kept.

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::runtime::progress::{Progress, Silent};
use crate::search::bitboard::{Bitboard, BoardSearcher};
use crate::search::book::Book;
use crate::search::general::Precision;

impl Book {
    /// Checks that every position of fewer than [`Self::max_stones`] stones
    /// has the negamax of its children's scores: for each move, a win
    /// completed on `m` stones scores `cells − m`, a full board without a
    /// line 0, and any other child the negation of its book score — which
    /// the book must hold. The positions of the deepest ply are the only
    /// scores taken on trust (their children are not in the book). Keys
    /// must decode to positions on `board` (as `crate::tablefile::book`
    /// checks on reading).
    pub fn check_negamax(&self, board: &Bitboard) -> std::result::Result<(), String> {
        let cells = board.cells();
        for (key, score) in self.entries() {
            let (x, occupied) = board
                .position_of_key(key)
                .ok_or_else(|| format!("key {key:#x}: not a position of the board"))?;
            let stones = occupied.count_ones();
            if stones >= self.max_stones {
                continue;
            }
            let x_moves = stones % 2 == 0;
            let me = if x_moves { x } else { occupied & !x };
            let mut best: Option<i32> = None;
            let mut open = board.playable_cells(occupied);
            while open != 0 {
                let cell = open & open.wrapping_neg();
                open ^= cell;
                let (x2, occupied2) = (if x_moves { x | cell } else { x }, occupied | cell);
                let value = if board.has_line(me | cell) {
                    (cells - stones) as i32
                } else if stones + 1 == cells {
                    0
                } else {
                    let child = board.position_key(x2, occupied2);
                    let s = self.score(child).ok_or_else(|| {
                        format!(
                            "key {key:#x} ({stones} stones): a child (key {child:#x}) is \
                             missing, and the book holds every position up to {} stones",
                            self.max_stones
                        )
                    })?;
                    -i32::from(s)
                };
                best = Some(best.map_or(value, |b| b.max(value)));
            }
            if best != Some(i32::from(score)) {
                return Err(format!(
                    "key {key:#x} ({stones} stones): its score {score} is not the negamax of \
                     its children's ({})",
                    best.map_or("no move".into(), |b| b.to_string())
                ));
            }
        }
        Ok(())
    }
}

/// Positions searched between two calls of [`Journal::record`]: a run cut
/// short loses at most this many searches.
pub const JOURNAL_BATCH: usize = 1024;

/// Where the scores of a book being made are kept as they are proved, so
/// that a run cut short resumes (the file kind is
/// `crate::tablefile::book_journal`).
pub trait Journal: Send {
    /// Scores proved by an earlier run: not searched again. Contract:
    /// exact scores of positions of the board, under the search's keys.
    fn earlier(&self) -> &HashMap<u64, i8>;

    /// Keeps `proved`, a batch of scores just searched.
    fn record(&mut self, proved: &[(u64, i8)]) -> Result<()>;
}

/// A journal that keeps nothing (a run starts from nothing).
#[derive(Default)]
pub struct NoJournal(HashMap<u64, i8>);

impl Journal for NoJournal {
    fn earlier(&self) -> &HashMap<u64, i8> {
        &self.0
    }

    fn record(&mut self, _: &[(u64, i8)]) -> Result<()> {
        Ok(())
    }
}

/// Makes the book of `board` up to `plies` stones (module docs) on the
/// current rayon pool, with a table of `entries` entries, starting from
/// `start` (an earlier book of the same board, whose positions are not
/// searched again). The positions are held in memory: a ply of more than
/// `max_positions` is refused before it is searched (7×6 Connect Four has
/// about 1.7 million positions at ply 12, half of them kept).
/// `progress` is told of each position proved (stage "positions").
pub fn make_book(
    board: Bitboard,
    entries: usize,
    plies: u32,
    max_positions: usize,
    start: Option<Arc<Book>>,
    progress: &dyn Progress,
) -> Result<Book> {
    check_plies(plies)?;
    let by_ply = board.positions_in_play(plies, max_positions)?;
    make_book_of(
        board,
        entries,
        &by_ply,
        start,
        &mut NoJournal::default(),
        progress,
    )
}

/// Refuses a book of more than [`MAX_BOOK_PLIES`] plies.
pub fn check_plies(plies: u32) -> Result<()> {
    if plies > MAX_BOOK_PLIES {
        return Err(Error::InvalidInput(format!(
            "a book of {plies} plies is beyond the {MAX_BOOK_PLIES} this tool makes"
        )));
    }
    Ok(())
}

/// [`make_book`] of the positions `by_ply` already enumerated
/// ([`Bitboard::positions_in_play`]): a caller that sizes the table from
/// the memory the positions leave enumerates them first. The scores
/// `journal` holds from an earlier run are taken as they are; each batch
/// searched is told to it.
pub fn make_book_of(
    board: Bitboard,
    entries: usize,
    by_ply: &[Vec<(u64, u64)>],
    start: Option<Arc<Book>>,
    journal: &mut dyn Journal,
    progress: &dyn Progress,
) -> Result<Book> {
    let total: usize = by_ply.iter().map(Vec::len).sum();
    progress.stage("positions", total as u64);
    let mut searcher = BoardSearcher::new(board, entries, None, &Silent).side_by_side();
    let mut book = start.map_or_else(Book::default, |b| Book::clone(&b));
    for ply in (0..by_ply.len()).rev() {
        for batch in by_ply[ply].chunks(JOURNAL_BATCH) {
            let earlier = journal.earlier();
            // (key, score, searched now)
            let proved: Vec<(u64, i8, bool)> = batch
                .par_iter()
                .map(|&(x, occupied)| {
                    let key = searcher.board().position_key(x, occupied);
                    let known = book.score(key).or_else(|| earlier.get(&key).copied());
                    let scored = match known {
                        Some(s) => (key, s, false),
                        None => {
                            let r = searcher
                                .search(x, occupied, Precision::Exact)?
                                .expect("a search without a deadline finishes");
                            (key, r.score.expect("an exact search gives the score"), true)
                        }
                    };
                    progress.advance(1);
                    Ok(scored)
                })
                .collect::<Result<_>>()?;
            let searched: Vec<(u64, i8)> = proved
                .iter()
                .filter(|p| p.2)
                .map(|&(key, score, _)| (key, score))
                .collect();
            journal.record(&searched)?;
            book.scores
                .extend(proved.into_iter().map(|(key, score, _)| (key, score)));
        }
        book.max_stones = book.max_stones.max(ply as u32);
        searcher.set_book(Arc::new(book.clone()));
    }
    // the search's scores checked against each other before they are kept
    book.check_negamax(searcher.board()).map_err(|why| {
        Error::InvalidInput(format!("the book made is inconsistent (a bug): {why}"))
    })?;
    Ok(book)
}

/// The most plies [`make_book`] takes.
pub const MAX_BOOK_PLIES: u32 = 20;
