//! The game's rules as decision diagrams over a [`Layout`]: the empty
//! board, "player `p` has a line", and the moves, with the image (every
//! successor of a set) and pre-image (every predecessor with a successor
//! in a set) built from them.
//!
//! * **Column encoding** (gravity boards): a move into column `c` is a
//!   function of the column's bits alone, whatever its height, so the
//!   pre-image of `T` is `T` with the column's bits replaced by their
//!   values after the move (one OxiDD substitution, a vector compose), and
//!   the image of `S` is `S` with them replaced by their values before it
//!   (`ColumnMoves`): one operation a column. Measured on 2 cores (AMD
//!   EPYC host; 1 thread, user CPU, identical JSON) against the
//!   cofactor form below, one cofactor-and-conjoin a (column, height) and
//!   their union: counting 7×4 17.2 s → 8.7 s, counting 6×5 66.1 s → 37.8
//!   s (peak 4.8 → 3.7 GB); solving 6×4 43.3 s → 25.5 s, peak 1.85 → 1.24
//!   GB. Conjoining a guard after each substitution instead of folding it
//!   into the replacements took 30.4 s on that solve; conjoining each
//!   column's pre-image with the ply's open positions before the union,
//!   29.8–31.1 s.
//! * **Pair encoding** (m,n,k boards, and gravity boards if asked): a move
//!   changes a cell's two variables from a precondition to an effect and
//!   leaves the rest alone, so its image of `S` is `restrict(S, pre) ∧
//!   effect` (the Shannon cofactor forgets the changed variables; the
//!   conjunction sets them anew) and its pre-image of `T` is `restrict(T,
//!   effect) ∧ pre`; pre = both variables of the cell clear (and, on a
//!   gravity board, the cell below occupied: a guard that is no cube, so it
//!   is conjoined after the cofactor); effect = the player's variable set,
//!   the other clear.
//!
//! Neither needs a second copy of the variables or a transition relation
//! (a relational product computes the same sets, slower on these boards:
//! module doc of [`super`]).

use oxidd::bcdd::{BCDDFunction, BCDDManagerRef};
use oxidd::util::AllocResult;
use oxidd::{BooleanFunction, FunctionSubst, Manager, ManagerRef, Subst};

use super::layout::{Encoding, Layout};
use crate::position::Family;

/// One move of one player (pair encoding), as decision diagrams.
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

/// The moves of one player into one column (column encoding), all heights
/// at once: a move is a function of the column's bits, so the pre-image
/// of a set `T` is `T` with the column's bits replaced by their values
/// after the move (`T ∘ succ`), and the image of `S` is `S` with them
/// replaced by their values before it (`S ∘ pred`). Where there is no
/// move (a full column before; after, an empty column or a top stone of
/// the other player's) the replacement is a column of clear bits, which
/// no position has (every column holds its sentinel), so the sets the
/// engine passes — positions only — hold nothing there and no guard is
/// conjoined. One substitution replaces the column's `rows`
/// cofactor-and-conjoin steps, their guards and their union.
struct ColumnMoves {
    /// The column's bits ↦ their values after the move.
    after: Subst<BCDDFunction>,
    /// The column's bits ↦ their values before the move.
    before: Subst<BCDDFunction>,
}

/// A board's rules in one manager.
pub struct Rules {
    /// The board and its variables.
    pub layout: Layout,
    /// The empty board.
    pub empty: BCDDFunction,
    /// Positions where X (index 0) or O (index 1) has a line.
    pub line: [BCDDFunction; 2],
    /// Pair encoding: every move of X (index 0) and of O (index 1), one
    /// cell at a time (empty for the column encoding).
    moves: [Vec<Move>; 2],
    /// Column encoding: the moves by column, for X and for O (empty for
    /// the pair encoding).
    columns: [Vec<ColumnMoves>; 2],
    /// Constant false.
    pub none: BCDDFunction,
    /// When to collect garbage between operations.
    collector: Collector,
}

/// Garbage collection between the operations of an image, once the store
/// fills past a level (see [`Collector::between_operations`]), and the
/// watch on OxiDD's own collector (see [`Collector::watch`]).
struct Collector {
    /// Node slots of the store.
    capacity: u64,
    /// Collect when the store holds at least this many nodes, live or dead.
    next: std::sync::atomic::AtomicU64,
    /// OxiDD's high-water mark: its background collector is signalled
    /// once the store holds this many nodes.
    background_mark: u64,
    /// Collections the manager has run that were ours (or before us).
    own_collections: std::sync::atomic::AtomicU64,
    /// Set for good once the store reached `background_mark` or OxiDD
    /// collected on its own: from then on the run's course depends on
    /// when that thread ran, so the store counts as full.
    overfilled: std::sync::atomic::AtomicBool,
    /// Nodes held at the last check between operations.
    last_held: std::sync::atomic::AtomicU64,
    /// The most one operation has added to the store.
    largest_growth: std::sync::atomic::AtomicU64,
}

/// The fill (in hundredths) at which a collection first runs.
const COLLECT_FILL: u64 = 70;
/// The room (in hundredths) left free above the live nodes of the last
/// collection before the next runs, and the highest fill that waits.
const COLLECT_ROOM: u64 = 15;
const COLLECT_MAX_FILL: u64 = 92;
/// The fill (in hundredths) at which OxiDD signals its own collector.
const BACKGROUND_FILL: u64 = 95;

impl Collector {
    fn new(capacity: u64, manager: &BCDDManagerRef) -> Self {
        // OxiDD's own formula (`new_manager`: 95% of its u32 slot count)
        let slots = u64::from(u32::try_from(capacity).unwrap_or(u32::MAX));
        Self {
            capacity,
            next: (capacity / 100 * COLLECT_FILL).into(),
            background_mark: slots / 100 * BACKGROUND_FILL,
            own_collections: manager.with_manager_shared(|m| m.gc_count()).into(),
            overfilled: false.into(),
            last_held: 0.into(),
            largest_growth: 0.into(),
        }
    }

    /// Runs one collection of ours, keeping count of it.
    fn collect(&self, manager: &BCDDManagerRef) -> u64 {
        use std::sync::atomic::Ordering::Relaxed;
        self.watch(manager);
        manager.with_manager_shared(|m| {
            let before = m.gc_count();
            m.gc();
            self.own_collections
                .fetch_add(m.gc_count() - before, Relaxed);
            m.num_inner_nodes() as u64
        })
    }

    /// Notes whether OxiDD's background collector has been signalled
    /// (the store reached its mark) or has run. Its signal comes at a
    /// fixed point of a run, but when its thread then runs does not, so
    /// a ply that needs it could fit in one run and fill the store in the
    /// next (`mnk 4×4 k=4 --max-memory 25MiB --threads 1` failed 3 runs
    /// of 6, at plies 10 or 11). At one thread the store's fill before the
    /// signal is the same every run, and the signal is seen here: either
    /// the fill is still at the mark, or the collection has begun and
    /// counted itself.
    fn watch(&self, manager: &BCDDManagerRef) {
        use std::sync::atomic::Ordering::Relaxed;
        let (held, collections) =
            manager.with_manager_shared(|m| (m.approx_num_inner_nodes() as u64, m.gc_count()));
        if held >= self.background_mark || collections > self.own_collections.load(Relaxed) {
            self.overfilled.store(true, Relaxed);
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
        let growth = held.saturating_sub(self.last_held.swap(held, Relaxed));
        let largest = self.largest_growth.fetch_max(growth, Relaxed).max(growth);
        // near the mark, the next operation may grow the store as much as
        // the largest one so far did: collect before it rather than after
        let near_mark = held + largest.saturating_mul(2) >= self.background_mark;
        if held < self.next.load(Relaxed) && !near_mark {
            return;
        }
        let live = self.collect(manager);
        self.last_held.store(live, Relaxed);
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
        let mut columns: [Vec<ColumnMoves>; 2] = [Vec::new(), Vec::new()];
        for player in 0..2 {
            for c in 0..layout.cols {
                if layout.encoding == Encoding::Column {
                    let bits: Vec<u32> =
                        (0..=layout.rows).map(|j| layout.column_var(c, j)).collect();
                    columns[player].push(column_moves(&bits, player == 0, &vars, &none)?);
                    continue;
                }
                for r in 0..layout.rows {
                    let mine = layout.pair_var(c, r, player);
                    let theirs = layout.pair_var(c, r, 1 - player);
                    let pre = cube(&[(mine, false), (theirs, false)])?;
                    let effect = cube(&[(mine, true), (theirs, false)])?;
                    let guard = if layout.family == Family::Gravity && r > 0 {
                        any_of(&[layout.pair_var(c, r - 1, 0), layout.pair_var(c, r - 1, 1)])?
                    } else {
                        all.clone()
                    };
                    moves[player].push(Move {
                        image_and: effect.and(&guard)?,
                        preimage_and: pre.and(&guard)?,
                        pre_cube: pre,
                        effect_cube: effect,
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
            columns,
            none,
            collector: Collector::new(capacity, manager),
        })
    }

    /// Whether the store has been full: an operation ran out of slots, or
    /// the store reached the fill at which OxiDD collects on a thread of
    /// its own (see `Collector::watch`). Sticky: once true, the run is to
    /// stop with a full store.
    pub fn store_was_full(&self) -> bool {
        self.collector.watch(&self.manager());
        self.collector
            .overfilled
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The manager the rules live in.
    pub fn manager(&self) -> BCDDManagerRef {
        use oxidd::Function;
        self.none.manager_ref()
    }

    /// Every position one move of `player` (0 = X) reaches from `set`, a
    /// set of positions (on the column encoding every column of a member
    /// holds its sentinel: see `ColumnMoves`).
    pub fn image(&self, set: &BCDDFunction, player: usize) -> AllocResult<BCDDFunction> {
        match self.layout.encoding {
            Encoding::Column => self.unite(&self.columns[player], |c| set.substitute(&c.before)),
            Encoding::Pair => self.unite(&self.moves[player], |m| {
                set.restrict(&m.pre_cube)?.and(&m.image_and)
            }),
        }
    }

    /// Every position where `player` (0 = X) has a move into `set`, a set
    /// of positions (as for [`Self::image`]; a complement such as `¬W`
    /// must be conjoined with the ply's positions first).
    pub fn preimage(&self, set: &BCDDFunction, player: usize) -> AllocResult<BCDDFunction> {
        match self.layout.encoding {
            Encoding::Column => self.unite(&self.columns[player], |c| set.substitute(&c.after)),
            Encoding::Pair => self.unite(&self.moves[player], |m| {
                set.restrict(&m.effect_cube)?.and(&m.preimage_and)
            }),
        }
    }

    /// The union of `part` of each of `moves` (a player's columns or
    /// cells); dead nodes are collected between the parts.
    fn unite<T>(
        &self,
        moves: &[T],
        part: impl Fn(&T) -> AllocResult<BCDDFunction>,
    ) -> AllocResult<BCDDFunction> {
        let manager = self.manager();
        let mut union = Union::new(&self.none);
        for m in moves {
            union.add(part(m)?)?;
            self.collector.between_operations(&manager);
        }
        union.finish()
    }
}

/// One player's moves into the column of bits `bits` (bottom first, the
/// sentinel above the stones: the column's height is its highest set
/// bit): with `any_above(j)` "a bit above `j` is set" and `top(j)` "bit
/// `j` is the sentinel",
///
/// ```text
/// after:   b_j ↦ ((b_j ∧ any_above(j)) ∨ (top(j) ∧ stone) ∨ top(j − 1)) ∧ not_full
/// before:  b_j ↦ ((b_j ∧ any_above(j + 1)) ∨ top(j + 1)) ∧ topped
/// ```
///
/// (the stone's bit is set for X): below the height nothing changes; the
/// sentinel's bit becomes the stone and the bit above it the new sentinel,
/// and back. `not_full` is "the sentinel below the top bit", `topped` "the
/// sentinel above the bottom bit and the bit under it the stone's"; where
/// they fail every bit is clear (see [`ColumnMoves`]).
fn column_moves(
    bits: &[u32],
    is_x: bool,
    vars: &[BCDDFunction],
    none: &BCDDFunction,
) -> AllocResult<ColumnMoves> {
    let bit = |j: usize| vars[bits[j] as usize].clone();
    let top_bit = bits.len() - 1;
    // any_above[j] for j in 0..=top_bit + 1
    let mut any_above = vec![none.clone(); bits.len() + 1];
    for j in (0..top_bit).rev() {
        any_above[j] = any_above[j + 1].or(&bit(j + 1))?;
    }
    let top = |j: usize| -> AllocResult<BCDDFunction> {
        if j > top_bit {
            return Ok(none.clone());
        }
        bit(j).and(&any_above[j].not()?)
    };
    let stone = |j: usize| -> AllocResult<BCDDFunction> {
        if is_x {
            Ok(bit(j))
        } else {
            bit(j).not()
        }
    };
    let (mut not_full, mut topped) = (none.clone(), none.clone());
    for j in 0..=top_bit {
        if j < top_bit {
            not_full = not_full.or(&top(j)?)?;
        }
        if j >= 1 {
            topped = topped.or(&top(j)?.and(&stone(j - 1)?)?)?;
        }
    }
    let (mut after, mut before) = (Vec::new(), Vec::new());
    for j in 0..=top_bit {
        let kept = bit(j).and(&any_above[j])?;
        let placed = if is_x { top(j)? } else { none.clone() };
        let raised = if j >= 1 { top(j - 1)? } else { none.clone() };
        after.push(kept.or(&placed)?.or(&raised)?.and(&not_full)?);
        let below = bit(j).and(&any_above[j + 1])?;
        before.push(below.or(&top(j + 1)?)?.and(&topped)?);
    }
    Ok(ColumnMoves {
        after: Subst::new(bits.to_vec(), after),
        before: Subst::new(bits.to_vec(), before),
    })
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
