//! The searches behind a position answer: the bitboard search, the
//! general search, and the m,n,k provers before the general search. Each
//! translates the position layout of [`crate::position`] into its
//! engine's own.

use crate::error::Result;
use crate::game::Outcome;
use crate::position::answer::{Lookup, Oracle};
use crate::position::sentinel::{position_cell, sentinel_cells};
use crate::position::{BoardGame, Family, Position};
use crate::prove::pairing::PairingBoard;
use crate::prove::zones::{self, Node, Verdict, ZoneProver};
use crate::runtime::clock::Clock;
use crate::search::bitboard::BoardSearcher;
use crate::search::general::{best_child_bound, Precision, Searcher};

/// The bitboard engine (gravity boards and m,n,k boards of up to 32
/// cells): every position asked is searched with one shared table, until
/// the oracle's clock stops (one position's answer, its searches in turn,
/// shares one clock).
pub struct BoardSearch<'a> {
    /// The searcher (its board is the position's).
    pub searcher: &'a BoardSearcher<'a>,
    /// When the searches give up.
    pub clock: &'a Clock<'a>,
    /// Exact depth, or the value only.
    pub precision: Precision,
}

impl BoardSearch<'_> {
    /// The X stones and occupied cells of `p` in the bitboard layout.
    fn bitboard_cells(&self, p: &Position) -> (u64, u64) {
        let (_, cols, rows, _) = self.searcher.board().dimensions();
        sentinel_cells(cols, rows, p)
    }

    /// The position's cell of a bitboard cell.
    fn position_cell(&self, bit: u64) -> u32 {
        let (_, cols, rows, _) = self.searcher.board().dimensions();
        position_cell(cols, rows, bit)
    }
}

impl Oracle for BoardSearch<'_> {
    fn lookup(&self, p: &Position) -> Result<Lookup> {
        Ok(self.lookup_best(p)?.0)
    }

    fn lookup_best(&self, p: &Position) -> Result<(Lookup, Option<u32>)> {
        let (x, occupied) = self.bitboard_cells(p);
        Ok(
            match self
                .searcher
                .search_within(x, occupied, self.precision, self.clock)?
            {
                Some(r) => (
                    Lookup::Known(r.value, r.depth),
                    r.best.map(|bit| self.position_cell(bit)),
                ),
                None => (Lookup::NotReached, None),
            },
        )
    }

    fn keeps_value(
        &self,
        child: &Position,
        value: Outcome,
        depth: Option<u32>,
    ) -> Result<Option<bool>> {
        let cells = self.searcher.board().cells();
        let Some(bound) = best_child_bound(value, depth, child.stones(), cells) else {
            return Ok(Some(true));
        };
        let (x, occupied) = self.bitboard_cells(child);
        self.searcher
            .score_at_most_within(x, occupied, bound, self.clock)
    }
}

/// A search: every position asked is searched with one shared
/// transposition table, until the oracle's clock stops.
pub struct Search<'a> {
    /// The board, in the position layout.
    pub game: &'a BoardGame,
    /// The searcher (its board matches `game`).
    pub searcher: &'a Searcher<'a>,
    /// When the searches give up.
    pub clock: &'a Clock<'a>,
    /// Exact depth, or the value only.
    pub precision: Precision,
}

impl Oracle for Search<'_> {
    fn lookup(&self, p: &Position) -> Result<Lookup> {
        let (x, o) = self.engine_cells(p);
        Ok(
            match self
                .searcher
                .search_within(x, o, self.precision, self.clock)?
            {
                Some(r) => Lookup::Known(r.value, r.depth),
                None => Lookup::NotReached,
            },
        )
    }

    fn keeps_value(
        &self,
        child: &Position,
        value: Outcome,
        depth: Option<u32>,
    ) -> Result<Option<bool>> {
        let Some(bound) = best_child_bound(value, depth, child.stones(), self.game.cells()) else {
            return Ok(Some(true));
        };
        let (x, o) = self.engine_cells(child);
        self.searcher.score_at_most_within(x, o, bound, self.clock)
    }
}

impl Search<'_> {
    /// The X and O cells of `p` in the search's layout.
    fn engine_cells(&self, p: &Position) -> (u64, u64) {
        match self.game.family() {
            Family::Mnk => p.words(),
            // the search's gravity cells count rows from the bottom
            Family::Gravity => (
                flip_rows(self.game, p.x.word()),
                flip_rows(self.game, p.o.word()),
            ),
        }
    }
}

/// `mask` with its rows in the other order.
fn flip_rows(game: &BoardGame, mask: u64) -> u64 {
    let (cols, rows) = (game.cols(), game.rows());
    let row_mask = (1u64 << cols) - 1;
    (0..rows).fold(0u64, |out, r| {
        out | ((mask >> (r * cols)) & row_mask) << ((rows - 1 - r) * cols)
    })
}

/// On m,n,k boards past the bitboard search: the zone prover
/// (`crate::prove::zones`) first, for positions with at least
/// `min_empty` empty cells, then the general search. The prover runs
/// twice, each within `max_nodes` positions: the mover attacking (a fall:
/// the mover wins), within half the clock's time left, and the other
/// player attacking (a fall: the mover loses), within the rest; both
/// defences holding make a draw. Its values come without a depth; where
/// it settles nothing, the search answers in the time left.
pub struct ProversThenSearch<'a> {
    /// The general search, for what the provers leave.
    pub search: Search<'a>,
    /// The board, for the prover.
    pub board: PairingBoard,
    /// Positions each proof may search.
    pub max_nodes: u64,
    /// Bytes each proof's table may take.
    pub memory_bytes: u64,
    /// Positions with fewer empty cells go to the search at once.
    pub min_empty: u32,
    /// Positions the proofs searched, added up.
    pub nodes: &'a std::sync::atomic::AtomicU64,
}

impl ProversThenSearch<'_> {
    /// The value of `p` (in play) for the mover, if the provers settle it.
    fn proved(&self, p: &Position) -> Result<Option<Outcome>> {
        let mover_attack = self.falls(p, true, true)?;
        if mover_attack == Some(true) {
            return Ok(Some(Outcome::Win));
        }
        Ok(match (mover_attack, self.falls(p, false, false)?) {
            (_, Some(true)) => Some(Outcome::Loss),
            (Some(false), Some(false)) => Some(Outcome::Draw),
            _ => None,
        })
    }

    /// Whether the attack on `p` (in play) of the mover (`mover_attacks`)
    /// or of the other player falls (`Some(true)`: the attacker wins) or
    /// holds (`Some(false)`), if the prover settles it: within half the
    /// clock's time left when `first` (another proof may follow), else
    /// within all of it.
    fn falls(&self, p: &Position, mover_attacks: bool, first: bool) -> Result<Option<bool>> {
        let empty = self.search.game.cells() - p.stones();
        if empty < self.min_empty {
            return Ok(None);
        }
        let (mine, theirs) = if p.stones().is_multiple_of(2) {
            (p.x, p.o)
        } else {
            (p.o, p.x)
        };
        let (attacker, defender) = if mover_attacks {
            (mine, theirs)
        } else {
            (theirs, mine)
        };
        let max_entries = (self.memory_bytes / zones::BYTES_PER_ENTRY).clamp(1, 1 << 32) as usize;
        let deadline = self.search.clock.deadline();
        let until = match deadline {
            Some(d) if first => {
                let now = std::time::Instant::now();
                Some(now + d.saturating_duration_since(now) / 2)
            }
            d => d,
        };
        let mut prover = ZoneProver::new(self.board, max_entries, until)?;
        prover.limit_nodes(self.max_nodes);
        let verdict = prover.prove(
            Node {
                attacker,
                defender,
                attacker_to_move: mover_attacks,
            },
            u32::MAX,
        );
        self.nodes
            .fetch_add(prover.stats().nodes, std::sync::atomic::Ordering::Relaxed);
        Ok(match verdict {
            Verdict::Falls => Some(true),
            Verdict::Holds(_) if !prover.stopped() => Some(false),
            _ => None,
        })
    }
}

impl Oracle for ProversThenSearch<'_> {
    fn lookup(&self, p: &Position) -> Result<Lookup> {
        match self.proved(p)? {
            Some(value) => Ok(Lookup::Known(value, None)),
            None => self.search.lookup(p),
        }
    }

    fn keeps_value(
        &self,
        child: &Position,
        value: Outcome,
        depth: Option<u32>,
    ) -> Result<Option<bool>> {
        if depth.is_none() {
            // only the proof that decides: a lost position keeps its value
            // whatever is played; a won one by a move that leaves the
            // other player lost (its opponent's attack falls)
            let kept = match value {
                Outcome::Loss => Some(true),
                Outcome::Win => self.falls(child, false, false)?,
                Outcome::Draw => self
                    .proved(child)?
                    .map(|v| crate::position::answer::keeps(value, None, v.flip(), None)),
            };
            if kept.is_some() {
                return Ok(kept);
            }
        }
        self.search.keeps_value(child, value, depth)
    }
}
