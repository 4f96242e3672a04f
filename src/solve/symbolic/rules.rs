//! The game's rules as decision diagrams over a [`Layout`]: the empty
//! board, "player `p` has a line", and each move as a pair of cubes, with
//! the image (every successor of a set) and pre-image (every predecessor
//! with a successor in a set) built from them.
//!
//! A move of player `p` changes a few variables from a precondition to an
//! effect and leaves the rest alone, so its image of a set `S` is
//! `restrict(S, pre) ∧ effect` (the Shannon cofactor forgets the changed
//! variables; the conjunction sets them anew) and its pre-image of `T` is
//! `restrict(T, effect) ∧ pre`. A relational product over a transition
//! relation computes the same sets; the cofactor form needs no second copy
//! of the variables and is the faster of the two on these boards (module
//! doc of [`super`]).
//!
//! * Column encoding, a move into column `c` of height `h`: pre = bit `h`
//!   set and the bits above clear; effect = bit `h` the stone's colour, bit
//!   `h + 1` the new sentinel, the bits above clear.
//! * Pair encoding: pre = both variables of the cell clear (and, on a
//!   gravity board, the cell below occupied: a guard that is no cube, so
//!   it is conjoined after the cofactor); effect = the player's variable
//!   set, the other clear.

use oxidd::bcdd::{BCDDFunction, BCDDManagerRef};
use oxidd::util::AllocResult;
use oxidd::{BooleanFunction, Manager, ManagerRef};

use super::layout::{Encoding, Layout};
use crate::position::Family;

/// One move of one player, as decision diagrams.
pub struct Move {
    /// The cube of the changed variables' values before the move.
    pre_cube: BCDDFunction,
    /// The cube of their values after it.
    effect_cube: BCDDFunction,
    /// What an image conjoins after the cofactor: the effect and any
    /// guard on unchanged variables.
    image_and: BCDDFunction,
    /// What a pre-image conjoins after the cofactor: the precondition and
    /// any guard.
    preimage_and: BCDDFunction,
}

/// A board's rules in one manager.
pub struct Rules {
    /// The board and its variables.
    pub layout: Layout,
    /// The empty board.
    pub empty: BCDDFunction,
    /// Positions where X (index 0) or O (index 1) has a line.
    pub line: [BCDDFunction; 2],
    /// Every move of X (index 0) and of O (index 1).
    moves: [Vec<Move>; 2],
    /// Constant false.
    pub none: BCDDFunction,
    /// When to collect garbage between operations.
    collector: Collector,
}

/// Garbage collection between the operations of an image, once the store
/// fills past a level (see [`Collector::between_operations`]).
struct Collector {
    /// Node slots of the store.
    capacity: u64,
    /// Collect when the store holds at least this many nodes, live or dead.
    next: std::sync::atomic::AtomicU64,
}

/// The fill (in hundredths) at which a collection first runs.
const COLLECT_FILL: u64 = 70;
/// The room (in hundredths) left free above the live nodes of the last
/// collection before the next runs, and the highest fill that waits.
const COLLECT_ROOM: u64 = 15;
const COLLECT_MAX_FILL: u64 = 92;

impl Collector {
    fn new(capacity: u64) -> Self {
        Self {
            capacity,
            next: (capacity / 100 * COLLECT_FILL).into(),
        }
    }

    /// Collects the dead nodes when the store is past its level. OxiDD's
    /// own collector runs only once 95% of the slots are taken, and stays
    /// off after a collection that leaves more than 90%; an image of a
    /// large ply then fills the store with dead intermediate results
    /// (6×6: full at 62.6 M nodes where Böck's program, which collects
    /// inside its operations, peaks at 40 M). A collection empties the
    /// apply cache too, so the next level is set above the live nodes it
    /// leaves, not at a fixed fill: collections stay rare in a roomy
    /// store.
    fn between_operations(&self, manager: &BCDDManagerRef) {
        use std::sync::atomic::Ordering::Relaxed;
        let held = manager.with_manager_shared(|m| m.approx_num_inner_nodes() as u64);
        if held < self.next.load(Relaxed) {
            return;
        }
        let live = manager.with_manager_shared(|m| {
            m.gc();
            m.num_inner_nodes() as u64
        });
        let unit = self.capacity / 100;
        let next = (live + unit * COLLECT_ROOM)
            .max(unit * COLLECT_FILL)
            .min(unit * COLLECT_MAX_FILL);
        self.next.store(next, Relaxed);
    }
}

impl Rules {
    /// Builds the rules in `manager`, whose variables must be exactly the
    /// layout's (created by [`super::store::NodeStore`]) and which holds
    /// `capacity` node slots.
    pub fn new(manager: &BCDDManagerRef, layout: Layout, capacity: u64) -> AllocResult<Self> {
        let vars: Vec<BCDDFunction> = manager.with_manager_shared(|m| {
            (0..layout.vars())
                .map(|v| BCDDFunction::var(m, v))
                .collect::<AllocResult<_>>()
        })?;
        let all = manager.with_manager_shared(|m| BCDDFunction::t(m));
        let none = manager.with_manager_shared(|m| BCDDFunction::f(m));
        let literal = |v: u32, value: bool| -> AllocResult<BCDDFunction> {
            let x = &vars[v as usize];
            if value {
                Ok(x.clone())
            } else {
                x.not()
            }
        };
        let cube = |literals: &[(u32, bool)]| -> AllocResult<BCDDFunction> {
            // from the deepest level up, so each step adds one node on top
            let mut sorted = literals.to_vec();
            sorted.sort_unstable_by_key(|l| std::cmp::Reverse(l.0));
            sorted
                .iter()
                .try_fold(all.clone(), |acc, &(v, b)| literal(v, b)?.and(&acc))
        };
        let any_of = |vs: &[u32]| -> AllocResult<BCDDFunction> {
            vs.iter()
                .try_fold(none.clone(), |acc, &v| acc.or(&vars[v as usize]))
        };
        // player's stone on (c, r)
        let stone = |c: u32, r: u32, player: usize| -> AllocResult<BCDDFunction> {
            match layout.encoding {
                Encoding::Pair => Ok(vars[layout.pair_var(c, r, player) as usize].clone()),
                Encoding::Column => {
                    let above: Vec<u32> = (r + 1..=layout.rows)
                        .map(|j| layout.column_var(c, j))
                        .collect();
                    literal(layout.column_var(c, r), player == 0)?.and(&any_of(&above)?)
                }
            }
        };
        let mut line = [none.clone(), none.clone()];
        for (player, set) in line.iter_mut().enumerate() {
            for cells in layout.lines() {
                let mut all_stones = all.clone();
                for &(c, r) in &cells {
                    all_stones = all_stones.and(&stone(c, r, player)?)?;
                }
                *set = set.or(&all_stones)?;
            }
        }
        let mut moves: [Vec<Move>; 2] = [Vec::new(), Vec::new()];
        for (player, list) in moves.iter_mut().enumerate() {
            for c in 0..layout.cols {
                for r in 0..layout.rows {
                    list.push(match layout.encoding {
                        Encoding::Column => {
                            let mut pre = vec![(layout.column_var(c, r), true)];
                            let mut effect = vec![
                                (layout.column_var(c, r), player == 0),
                                (layout.column_var(c, r + 1), true),
                            ];
                            for j in r + 1..=layout.rows {
                                pre.push((layout.column_var(c, j), false));
                                if j > r + 1 {
                                    effect.push((layout.column_var(c, j), false));
                                }
                            }
                            let (pre, effect) = (cube(&pre)?, cube(&effect)?);
                            Move {
                                image_and: effect.clone(),
                                preimage_and: pre.clone(),
                                pre_cube: pre,
                                effect_cube: effect,
                            }
                        }
                        Encoding::Pair => {
                            let mine = layout.pair_var(c, r, player);
                            let theirs = layout.pair_var(c, r, 1 - player);
                            let pre = cube(&[(mine, false), (theirs, false)])?;
                            let effect = cube(&[(mine, true), (theirs, false)])?;
                            let guard = if layout.family == Family::Gravity && r > 0 {
                                any_of(&[
                                    layout.pair_var(c, r - 1, 0),
                                    layout.pair_var(c, r - 1, 1),
                                ])?
                            } else {
                                all.clone()
                            };
                            Move {
                                image_and: effect.and(&guard)?,
                                preimage_and: pre.and(&guard)?,
                                pre_cube: pre,
                                effect_cube: effect,
                            }
                        }
                    });
                }
            }
        }
        let empty = match layout.encoding {
            Encoding::Column => cube(
                &(0..layout.cols)
                    .flat_map(|c| (0..=layout.rows).map(move |j| (c, j)))
                    .map(|(c, j)| (layout.column_var(c, j), j == 0))
                    .collect::<Vec<_>>(),
            )?,
            Encoding::Pair => cube(&(0..layout.vars()).map(|v| (v, false)).collect::<Vec<_>>())?,
        };
        Ok(Self {
            layout,
            empty,
            line,
            moves,
            none,
            collector: Collector::new(capacity),
        })
    }

    /// The manager the rules' diagrams live in.
    pub fn manager(&self) -> BCDDManagerRef {
        use oxidd::Function;
        self.none.manager_ref()
    }

    /// Every position one move of `player` (0 = X) reaches from `set`.
    pub fn image(&self, set: &BCDDFunction, player: usize) -> AllocResult<BCDDFunction> {
        self.unite_moves(set, player, |m| (&m.pre_cube, &m.image_and))
    }

    /// Every position where `player` (0 = X) has a move into `set`.
    pub fn preimage(&self, set: &BCDDFunction, player: usize) -> AllocResult<BCDDFunction> {
        self.unite_moves(set, player, |m| (&m.effect_cube, &m.preimage_and))
    }

    /// The union, over `player`'s moves, of `set` cofactored by the first
    /// diagram `cubes` picks of the move and conjoined with the second;
    /// dead nodes are collected between the moves.
    fn unite_moves(
        &self,
        set: &BCDDFunction,
        player: usize,
        cubes: impl Fn(&Move) -> (&BCDDFunction, &BCDDFunction),
    ) -> AllocResult<BCDDFunction> {
        let manager = self.manager();
        let mut union = Union::new(&self.none);
        for m in &self.moves[player] {
            let (cofactor, conjoin) = cubes(m);
            union.add(set.restrict(cofactor)?.and(conjoin)?)?;
            self.collector.between_operations(&manager);
        }
        union.finish()
    }
}

/// A union of many sets built as they come, pairwise in a balanced tree
/// (unions of sets of like size stay smaller than one long running
/// union), holding at most one partial union a tree level — about log₂ of
/// the sets — instead of every set at once. Measured on 6×6: computing a
/// ply's 36 images in parallel and uniting them afterwards filled a store
/// of 62.6 M nodes at ply 26, where Böck's program peaks at 40 M; the
/// parallelism of OxiDD's own operations keeps both cores busy.
pub struct Union {
    /// `(level, partial union)`: level `l` unites `2^l` sets.
    partial: Vec<(u32, BCDDFunction)>,
    none: BCDDFunction,
}

impl Union {
    /// An empty union.
    pub fn new(none: &BCDDFunction) -> Self {
        Self {
            partial: Vec::new(),
            none: none.clone(),
        }
    }

    /// Adds a set.
    pub fn add(&mut self, set: BCDDFunction) -> AllocResult<()> {
        let mut carry = (0, set);
        while let Some((level, _)) = self.partial.last() {
            if *level != carry.0 {
                break;
            }
            let (level, other) = self.partial.pop().expect("checked");
            carry = (level + 1, other.or(&carry.1)?);
        }
        self.partial.push(carry);
        Ok(())
    }

    /// The union of everything added.
    pub fn finish(mut self) -> AllocResult<BCDDFunction> {
        let mut total = self.partial.pop().map_or(self.none.clone(), |(_, f)| f);
        while let Some((_, f)) = self.partial.pop() {
            total = f.or(&total)?;
        }
        Ok(total)
    }
}

/// Whether `manager` holds exactly the variables of `layout`.
pub fn fits(manager: &BCDDManagerRef, layout: &Layout) -> bool {
    manager.with_manager_shared(|m| m.num_vars() == layout.vars())
}
