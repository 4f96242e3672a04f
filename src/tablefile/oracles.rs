//! The solved tables behind a position answer: an m,n,k table, a gravity
//! table and a symbolic table, each translating the position layout of
//! [`crate::position`] into its table's own.

use crate::error::Result;
use crate::game::Outcome;
use crate::position::answer::{Lookup, Oracle};
use crate::position::sentinel::sentinel_cells;
use crate::position::{Cells, Position};
use crate::rules::gravity::Gravity;
use crate::tablefile::GravityValues;
use crate::tables::layered::MnkSolution;

/// A solved m,n,k table (its cell layout is the position layout).
pub struct MnkTable<'a>(pub &'a MnkSolution);

impl Oracle for MnkTable<'_> {
    fn lookup(&self, p: &Position) -> Result<Lookup> {
        let word = |cells: Cells| cells.as_word().and_then(|w| u32::try_from(w).ok());
        let (Some(x), Some(o)) = (word(p.x), word(p.o)) else {
            return Ok(Lookup::Unreachable);
        };
        Ok(match self.0.lookup(x, o) {
            Some((value, depth)) => Lookup::Known(value, Some(depth)),
            None => Lookup::Unreachable,
        })
    }
}

/// A solved gravity table.
pub struct GravityTable<'a> {
    /// The board the table solves.
    pub game: &'a Gravity,
    /// The table, in memory or in a file.
    pub solution: &'a dyn GravityValues,
}

/// The gravity engine's key of `p` (see [`sentinel_cells`]).
pub fn gravity_key(game: &Gravity, p: &Position) -> u64 {
    let (cols, rows, _) = game.dimensions();
    let (x, occupied) = sentinel_cells(cols, rows, p);
    game.key(x, occupied)
}

impl Oracle for GravityTable<'_> {
    fn lookup(&self, p: &Position) -> Result<Lookup> {
        let key = gravity_key(self.game, p);
        Ok(match self.solution.value_of(p.stones() as usize, key)? {
            Some((value, depth)) => Lookup::Known(value, Some(depth)),
            None => Lookup::Unreachable,
        })
    }
}

/// A symbolic table (in a file or fresh from a solve): each ply's won and
/// lost sets as decision diagrams; values only, no depths.
pub struct SymbolicTable<'a>(pub &'a dyn crate::tablefile::symbolic::SymbolicSets);

impl Oracle for SymbolicTable<'_> {
    fn lookup(&self, p: &Position) -> Result<Lookup> {
        use crate::tablefile::symbolic::Set;
        let layout = self.0.layout();
        let ply = p.stones();
        if ply > layout.cells() {
            return Ok(Lookup::Unreachable);
        }
        let bits = layout.assignment(p);
        Ok(if self.0.contains(ply, Set::Won, &bits)? {
            Lookup::Known(Outcome::Win, None)
        } else if self.0.contains(ply, Set::Lost, &bits)? {
            Lookup::Known(Outcome::Loss, None)
        } else {
            Lookup::Known(Outcome::Draw, None)
        })
    }
}
