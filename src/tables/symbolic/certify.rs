//! Certifying a symbolic table against the rules of its board: every
//! stored set is recomputed and compared, so a table that passes holds
//! exactly the values a solve gives — whatever its checksums say. A file
//! edited with its checksums recomputed (k, the board, the value, a count,
//! won and lost swapped, another board's diagrams) is refused, naming the
//! first ply and set that differ.
//!
//! From the empty board up, holding two plies at a time (ply `p`'s
//! positions `S`, won `W` and lost `L`, and the same of ply `p + 1`):
//!
//! ```text
//! S(0)   = the empty board;  S(p+1) = image(S(p) ∧ ¬line(just moved))
//! open   = S(p) ∧ ¬line(just moved)
//! D(p+1) = S(p+1) ∧ ¬(W(p+1) ∨ L(p+1))            (from the stored sets)
//! W(p)  == open ∧ pre(L(p+1))                     (∅ on the full board)
//! D(p)   = open ∧ ¬W(p) ∧ pre(D(p+1))             (open on the full board)
//! L(p)  == S(p) ∧ ¬(W(p) ∨ D(p))
//! ```
//!
//! and every count of the summary (positions, terminal, lines, first
//! player's won / drawn / lost, node counts) equals the model count, and
//! the stored value is ply 0's. Ply `p` is checked against the stored sets
//! of ply `p + 1`, which are checked in turn: the full board's sets are
//! fixed by the rules alone, so by induction every set passes only if it
//! is the true one. The work is a solve's (an image and two pre-images a
//! ply) in the memory of two plies.

use oxidd::bcdd::BCDDFunction;
use oxidd::BooleanFunction;

use super::flat::FlatBdd;
use super::layout::mover;
use super::layout::Layout;
use super::rules::Rules;
use super::store::NodeStore;
use super::{count, full_store, node_count, PlyReport};
use crate::error::{Error, Result};
use crate::game::Outcome;
use crate::memory::Budget;
use crate::runtime::progress::Progress;

/// A stored symbolic table, as the certifier reads it.
pub trait StoredTable: Sync {
    /// The board and encoding the table says it holds.
    fn layout(&self) -> &Layout;
    /// The per-ply reports it stores.
    fn plies(&self) -> &[PlyReport];
    /// The empty board's value it stores, for the first player.
    fn value(&self) -> Outcome;
    /// Ply `ply`'s (won, lost) sets, read and checked as flat diagrams.
    fn sets(&self, ply: u32) -> Result<(FlatBdd, FlatBdd)>;
    /// The name of the table, for refusals.
    fn name(&self) -> String;
}

/// What a certification measured.
#[derive(Clone, Copy, Debug)]
pub struct Certified {
    /// Positions of every ply together.
    pub positions: u64,
    /// Node slots of the store it ran in.
    pub capacity: u64,
}

/// One ply's sets in the store.
struct Ply {
    reach: BCDDFunction,
    won: BCDDFunction,
    lost: BCDDFunction,
}

/// Certifies `table` against the rules of its board, in a node store
/// within `budget` on `threads` workers; refuses it with
/// [`Error::BadTableFile`] naming the first ply and set that differ.
pub fn certify(
    table: &dyn StoredTable,
    budget: &Budget,
    threads: usize,
    progress: &dyn Progress,
) -> Result<Certified> {
    let layout = *table.layout();
    let cells = layout.cells();
    if table.plies().len() != cells as usize + 1 {
        return Err(refuse(
            table,
            format!(
                "its summary holds {} plies, not {}",
                table.plies().len(),
                cells + 1
            ),
        ));
    }
    let store = NodeStore::new(&layout, budget, threads)?;
    let capacity = store.capacity;
    store.run(|| {
        let rules =
            Rules::new(&store.manager, layout, capacity).map_err(|_| full_store(0, capacity))?;
        progress.stage("certify", u64::from(cells) + 1);
        let mut ply_sets = load(table, &rules, 0, rules.empty.clone(), capacity)?;
        let mut positions = 0u64;
        for ply in 0..=cells {
            let oom = |_| full_store(ply, capacity);
            let report = &table.plies()[ply as usize];
            let (who, just_moved) = (mover(ply), 1 - mover(ply));
            let Ply { reach, won, lost } = ply_sets;
            check_forward_counts(table, &rules, ply, &reach, report, capacity)?;
            positions += report.counts.positions;
            let open = reach
                .and(&rules.line[just_moved].not().map_err(oom)?)
                .map_err(oom)?;
            let (want_won, want_drawn, above) = if ply == cells {
                (rules.none.clone(), open, None)
            } else {
                let next_reach = rules.image(&open, who).map_err(oom)?;
                let next = load(table, &rules, ply + 1, next_reach, capacity)?;
                let next_drawn = next
                    .reach
                    .and(&next.won.or(&next.lost).map_err(oom)?.not().map_err(oom)?)
                    .map_err(oom)?;
                let want_won = open
                    .and(&rules.preimage(&next.lost, who).map_err(oom)?)
                    .map_err(oom)?;
                let rest = open.and(&want_won.not().map_err(oom)?).map_err(oom)?;
                let want_drawn = rest
                    .and(&rules.preimage(&next_drawn, who).map_err(oom)?)
                    .map_err(oom)?;
                (want_won, want_drawn, Some(next))
            };
            let want_lost = reach
                .and(&want_won.or(&want_drawn).map_err(oom)?.not().map_err(oom)?)
                .map_err(oom)?;
            for (name, stored, want) in [("won", &won, &want_won), ("lost", &lost, &want_lost)] {
                if stored != want {
                    let differ = count(&stored.xor(want).map_err(oom)?, layout.vars())?;
                    return Err(refuse(
                        table,
                        format!(
                            "ply {ply}'s {name} set is not what the rules of the board give \
                             ({differ} positions differ)"
                        ),
                    ));
                }
            }
            check_backward_counts(table, &rules, ply, &won, &lost, report)?;
            if ply == 0 {
                check_value(table, &rules, &won, &lost, capacity)?;
            }
            progress.advance(1);
            match above {
                Some(next) => ply_sets = next,
                None => break,
            }
        }
        Ok(Certified {
            positions,
            capacity,
        })
    })
}

fn refuse(table: &dyn StoredTable, why: String) -> Error {
    Error::BadTableFile {
        path: table.name(),
        why: format!("not certified: {why}"),
    }
}

/// Ply `ply`'s stored sets in the store, beside its positions `reach`.
fn load(
    table: &dyn StoredTable,
    rules: &Rules,
    ply: u32,
    reach: BCDDFunction,
    capacity: u64,
) -> Result<Ply> {
    let (won, lost) = table.sets(ply)?;
    let manager = rules.manager();
    let oom = |_| full_store(ply, capacity);
    Ok(Ply {
        reach,
        won: won.to_function(&manager).map_err(oom)?,
        lost: lost.to_function(&manager).map_err(oom)?,
    })
}

/// The summary's counts of ply `ply`'s positions and lines against the
/// model counts of `reach`.
fn check_forward_counts(
    table: &dyn StoredTable,
    rules: &Rules,
    ply: u32,
    reach: &BCDDFunction,
    report: &PlyReport,
    capacity: u64,
) -> Result<()> {
    let vars = rules.layout.vars();
    let cells = rules.layout.cells();
    let just_moved = 1 - mover(ply);
    let positions = count(reach, vars)?;
    let lines = count(
        &reach
            .and(&rules.line[just_moved])
            .map_err(|_| full_store(ply, capacity))?,
        vars,
    )?;
    let draws = if ply == cells { positions - lines } else { 0 };
    let (x_wins, o_wins) = if just_moved == 0 {
        (lines, 0)
    } else {
        (0, lines)
    };
    let c = &report.counts;
    let want = (
        ply,
        positions,
        lines + draws,
        x_wins,
        o_wins,
        draws,
        node_count(reach),
    );
    let stored = (
        c.ply,
        c.positions,
        c.terminal,
        c.x_wins,
        c.o_wins,
        c.draws,
        report.nodes,
    );
    if want != stored {
        return Err(refuse(
            table,
            format!(
                "ply {ply}'s counts in the summary (ply, positions, terminal, X wins, O wins, \
                 draws, nodes) are {stored:?}; the rules give {want:?}"
            ),
        ));
    }
    Ok(())
}

/// The summary's first-player counts and node counts of ply `ply` against
/// its (certified) won and lost sets.
fn check_backward_counts(
    table: &dyn StoredTable,
    rules: &Rules,
    ply: u32,
    won: &BCDDFunction,
    lost: &BCDDFunction,
    report: &PlyReport,
) -> Result<()> {
    let vars = rules.layout.vars();
    let (n_won, n_lost) = (count(won, vars)?, count(lost, vars)?);
    let c = &report.counts;
    let (first_won, first_lost) = if mover(ply) == 0 {
        (n_won, n_lost)
    } else {
        (n_lost, n_won)
    };
    let want = (
        first_won,
        c.positions - n_won - n_lost,
        first_lost,
        node_count(won),
        node_count(lost),
    );
    let stored = (
        c.first_won,
        c.first_drawn,
        c.first_lost,
        report.won_nodes,
        report.lost_nodes,
    );
    if want != stored {
        return Err(refuse(
            table,
            format!(
                "ply {ply}'s first-player counts in the summary (won, drawn, lost, won nodes, \
                 lost nodes) are {stored:?}; its sets give {want:?}"
            ),
        ));
    }
    Ok(())
}

/// The stored value against ply 0's (certified) sets.
fn check_value(
    table: &dyn StoredTable,
    rules: &Rules,
    won: &BCDDFunction,
    lost: &BCDDFunction,
    capacity: u64,
) -> Result<()> {
    let oom = |_| full_store(0, capacity);
    let value = if rules.empty.and(won).map_err(oom)?.satisfiable() {
        Outcome::Win
    } else if rules.empty.and(lost).map_err(oom)?.satisfiable() {
        Outcome::Loss
    } else {
        Outcome::Draw
    };
    if value != table.value() {
        return Err(refuse(
            table,
            format!(
                "it stores the empty board's value as {:?} for the first player; its sets \
                 give {value:?}",
                table.value()
            ),
        ));
    }
    Ok(())
}
