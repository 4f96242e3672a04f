//! Opening any saved table, for a program that uses this crate as a
//! library: [`OpenTable::open`] recognises the file (a symbolic table, a
//! Connect Four table in one file or in a distributed solve's parts, or one
//! of the whole-table formats) and the board tables answer any position in
//! the shape every command prints ([`PositionAnswer`]).
//!
//! The example of saving a table and opening it again is on the crate's
//! `disk` page.
//!
//! What an answer rests on is said in docs/FORMAT.md: every block read is
//! checked against its checksum and every value against its children; a
//! Connect Four table is certified whole by [`MappedGravity::certify`].

use std::path::Path;

use super::symbolic::SymbolicFile;
use super::{load, MappedGravity, SavedGame, SavedTable};
use crate::error::{Error, Result};
use crate::memory::{Budget, Bytes};
use crate::position::answer::{answer, Oracle, PositionAnswer};
use crate::position::{BoardGame, Family, Position};
use crate::rules::gravity::Gravity;
use crate::tablefile::oracles::{GravityTable, MnkTable, SymbolicTable};
use crate::tables::layered::MnkSolution;

/// A saved table, opened.
pub enum OpenTable {
    /// An m,n,k table: every reachable position's value and depth.
    Mnk {
        /// The board it solves.
        board: BoardGame,
        /// The table, in memory.
        solution: MnkSolution,
    },
    /// A Connect Four (gravity) table, mapped from its file (or a
    /// distributed solve's parts): only the blocks a position needs are
    /// read, each checked against its checksum.
    Connect {
        /// The board it solves, in the position layout.
        board: BoardGame,
        /// The board in the gravity engine's layout.
        game: Gravity,
        /// The table.
        table: MappedGravity,
    },
    /// A symbolic table: each ply's won and lost positions as decision
    /// diagrams; values without depths.
    Symbolic {
        /// The board it solves.
        board: BoardGame,
        /// The table.
        table: SymbolicFile,
    },
    /// Any other game's table (Cat and Mouse, Nim, Can I Win, the ends
    /// game): its game and table, answered through the game's own methods
    /// (e.g. [`crate::rules::cat_mouse::CatMouseGraph::winner`]).
    Other(SavedGame, SavedTable),
}

impl OpenTable {
    /// Opens the table at `path`. A table read whole into memory (every
    /// kind but Connect Four and symbolic tables, which are mapped) is
    /// refused when its file is larger than `budget`. Every checksum of a
    /// whole table is checked as it is read; a mapped table's blocks are
    /// checked when first read.
    pub fn open(path: &Path, budget: &Budget) -> Result<Self> {
        if let Some(table) = SymbolicFile::open(path)? {
            use super::symbolic::SymbolicSets;
            let layout = *table.layout();
            let board = BoardGame::new(
                layout.family,
                crate::board::BoardSize::new(layout.cols, layout.rows, layout.k),
            )?;
            return Ok(Self::Symbolic { board, table });
        }
        if let Some(table) = MappedGravity::open(path)? {
            use super::GravityValues;
            let game = table.game().clone();
            let (cols, rows, k) = game.dimensions();
            let board =
                BoardGame::new(Family::Gravity, crate::board::BoardSize::new(cols, rows, k))?;
            return Ok(Self::Connect { board, game, table });
        }
        let size = std::fs::metadata(path)
            .map_err(|cause| Error::Io {
                path: path.display().to_string(),
                cause,
            })?
            .len();
        budget.check(&format!("loading {}", path.display()), Bytes(size))?;
        Ok(match load(path)? {
            (SavedGame::Mnk { rows, cols, k }, SavedTable::Layered(solution)) => Self::Mnk {
                board: BoardGame::new(Family::Mnk, crate::board::BoardSize::new(cols, rows, k))?,
                solution,
            },
            (game, table) => Self::Other(game, table),
        })
    }

    /// The board of a board game's table (m,n,k, Connect Four, symbolic);
    /// `None` for the other games.
    pub fn board(&self) -> Option<&BoardGame> {
        match self {
            Self::Mnk { board, .. }
            | Self::Connect { board, .. }
            | Self::Symbolic { board, .. } => Some(board),
            Self::Other(..) => None,
        }
    }

    /// The table as a source of values for positions of [`Self::board`].
    pub fn oracle(&self) -> Option<Box<dyn Oracle + '_>> {
        match self {
            Self::Mnk { solution, .. } => Some(Box::new(MnkTable(solution))),
            Self::Connect { game, table, .. } => Some(Box::new(GravityTable {
                game,
                solution: table,
            })),
            Self::Symbolic { table, .. } => Some(Box::new(SymbolicTable(table))),
            Self::Other(_, table) => table.oracle().map(|oracle| oracle as Box<dyn Oracle>),
        }
    }

    /// The answer for `p`: its status, its value and depth for the player
    /// to move (no depth from a symbolic table) and every legal move's.
    /// An error for a position the board does not hold, a gravity position
    /// no legal game reaches, a table found damaged on the way, or a table
    /// of a game without board positions.
    pub fn answer(&self, p: &Position) -> Result<PositionAnswer> {
        let (Some(board), Some(oracle)) = (self.board(), self.oracle()) else {
            return Err(Error::InvalidInput(format!(
                "a {} table answers no board position",
                self.kind_name()
            )));
        };
        board.check(p)?;
        answer(board, p, oracle.as_ref())?
            .ok_or_else(|| Error::InvalidInput("a table answered “not reached”".into()))
    }

    /// [`Self::answer`] for the position a move list reaches from the
    /// empty board, in the notation of `crate::position` (`"a1 b1"`,
    /// `"4 4 5"`).
    pub fn answer_moves(&self, moves: &str) -> Result<PositionAnswer> {
        let Some(board) = self.board() else {
            return self.answer(&Position::default());
        };
        self.answer(&board.play_moves(moves)?)
    }

    /// The game's name, as `query --check` prints it (`mnk`, `connect`,
    /// `cat-mouse` …).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Self::Mnk { .. } => Family::Mnk.name(),
            Self::Connect { .. } => Family::Gravity.name(),
            Self::Symbolic { board, .. } => board.family().name(),
            Self::Other(game, _) => game.kind_name(),
        }
    }
}

/// The memory a table file at `path` takes once opened to answer from it:
/// the file (mapped or read whole), and an eighth more for the skip
/// indices of a gravity table's blocks as they are read (at most a
/// twelfth of it); 0 if the file cannot be read (an open has already
/// succeeded or failed on it).
pub fn opened_table_bytes(path: &std::path::Path) -> crate::memory::Bytes {
    let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    crate::memory::Bytes(bytes.saturating_add(bytes / 8))
}
