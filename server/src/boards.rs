//! The boards a server answers: the tables loaded at start (memory-mapped
//! once, shared by every request) and, for boards without one, a kept
//! searcher a board, so that a board's later requests reuse what its
//! earlier searches proved (one transposition table shared across
//! requests).
//!
//! Memory: the tables' files (and an eighth more, for the skip indices
//! of their blocks) count against the budget first; what is left
//! is split among at most [`MAX_SEARCHERS`] searchers and one more (a
//! searcher evicted while its search still runs keeps its table until the
//! search ends, and one search runs at a time). The least recently used
//! searcher is evicted for a new board. The searchers of the boards with
//! a shipped book are made at start, so that the first request does not
//! wait for a table to be allocated.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use retrograde::{
    disk::opened_table_bytes,
    facade::books::shipped_boards,
    facade::PositionSearcher,
    host::{Budget, Bytes},
    language::BoardGame,
    Analyzer, OpenTable,
};

/// The most boards whose searchers are kept at once.
pub const MAX_SEARCHERS: usize = 4;

/// A kept searcher and when it was last asked.
struct Kept {
    game: BoardGame,
    searcher: Arc<PositionSearcher<'static>>,
    used: u64,
}

/// The tables and searchers of a server.
pub struct Boards {
    /// The budget of one searcher's table, and the threads of a search.
    analyzer: Analyzer,
    tables: Vec<(PathBuf, OpenTable)>,
    searchers: Mutex<(u64, Vec<Kept>)>,
}

impl Boards {
    /// Opens the tables of `paths` (board tables only, one a board) within
    /// `budget`, and leaves the rest of it to the searchers.
    pub fn open(paths: &[PathBuf], budget: Budget, threads: usize) -> anyhow::Result<Self> {
        let mut tables: Vec<(PathBuf, OpenTable)> = Vec::new();
        let mut mapped = Bytes(0);
        for path in paths {
            let table = OpenTable::open(path, &budget)
                .map_err(|e| anyhow::anyhow!("--table {}: {e}", path.display()))?;
            let Some(board) = table.board() else {
                anyhow::bail!(
                    "--table {}: a {} table answers no board position; serve answers connect and mnk positions",
                    path.display(),
                    table.kind_name()
                );
            };
            if let Some((other, _)) = tables.iter().find(|(_, t)| t.board() == Some(board)) {
                anyhow::bail!(
                    "--table {}: {} already holds this board's table",
                    path.display(),
                    other.display()
                );
            }
            mapped = Bytes(mapped.0.saturating_add(opened_table_bytes(path).0));
            tables.push((path.clone(), table));
        }
        let analyzer = Analyzer::for_kept_searchers(budget, mapped, MAX_SEARCHERS, threads)?;
        let boards = Self {
            analyzer,
            tables,
            searchers: Mutex::new((0, Vec::new())),
        };
        // the boards with a shipped book (standard 7×6) answered at once
        // from the first request: their searchers (the book decoded, the
        // table allocated) made before the server listens
        for game in shipped_boards() {
            if boards.table_for(&game).is_none() {
                boards.searcher_for(&game)?;
            }
        }
        Ok(boards)
    }

    /// No tables and no searcher made ahead: the boards of a server that
    /// answers a game of one's own, whose router has no board routes.
    pub fn none(budget: Budget, threads: usize) -> anyhow::Result<Self> {
        Ok(Self {
            analyzer: Analyzer::for_kept_searchers(budget, Bytes(0), MAX_SEARCHERS, threads)?,
            tables: Vec::new(),
            searchers: Mutex::new((0, Vec::new())),
        })
    }

    /// The analyzer the searches run on (one searcher's budget, the
    /// threads).
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// The loaded table of `game`'s board, if any.
    pub fn table_for(&self, game: &BoardGame) -> Option<&OpenTable> {
        self.tables
            .iter()
            .find(|(_, t)| t.board() == Some(game))
            .map(|(_, t)| t)
    }

    /// The boards of the loaded tables, for `/healthz`.
    pub fn tables(&self) -> impl Iterator<Item = (&Path, &BoardGame)> {
        self.tables
            .iter()
            .filter_map(|(path, t)| t.board().map(|b| (path.as_path(), b)))
    }

    /// The kept searcher of `game`'s board, made (and the least recently
    /// used one evicted) if there is none.
    pub fn searcher_for(
        &self,
        game: &BoardGame,
    ) -> retrograde::Result<Arc<PositionSearcher<'static>>> {
        let mut guard = self.searchers.lock().unwrap_or_else(|p| p.into_inner());
        let (clock, kept) = &mut *guard;
        *clock += 1;
        if let Some(k) = kept.iter_mut().find(|k| &k.game == game) {
            k.used = *clock;
            return Ok(Arc::clone(&k.searcher));
        }
        if kept.len() >= MAX_SEARCHERS {
            let oldest = (0..kept.len()).min_by_key(|&i| kept[i].used).expect("full");
            kept.swap_remove(oldest);
        }
        let searcher = Arc::new(self.analyzer.searcher(game, 0)?);
        kept.push(Kept {
            game: game.clone(),
            searcher: Arc::clone(&searcher),
            used: *clock,
        });
        Ok(searcher)
    }
}
