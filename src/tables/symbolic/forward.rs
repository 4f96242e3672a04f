//! The forward pass: ply `p + 1` is the image of the positions of ply `p`
//! that no line has ended, from the empty board to the full one, each ply
//! counted by model counting as it is made.

use oxidd::bcdd::BCDDFunction;
use oxidd::BooleanFunction;

use super::checkpoint::{Checkpoint, SetKind};
use super::layout::mover;
use super::rules::Rules;
use super::{count, full_store, in_store, in_time, node_count, PlyReport};
use crate::error::Result;
use crate::runtime::progress::Progress;
use crate::tables::sparse::GravityCounts;

/// What the forward pass leaves: each ply's report and, where kept in
/// memory, its set of positions.
pub struct Forward {
    /// Reports, ply 0 first.
    pub plies: Vec<PlyReport>,
    /// The positions of each ply; `None` where the set lives only in the
    /// checkpoint (all but the last ply when checkpointing).
    pub sets: Vec<Option<BCDDFunction>>,
}

/// Runs (or resumes) the forward pass. Each ply's set is kept in memory
/// for the backward pass only when `keep_sets` and there is no checkpoint
/// to load it from: a count keeps the ply it expands and no other (6×6:
/// the plies' sets together take about 5 times the largest one).
pub fn forward(
    rules: &Rules,
    keep_sets: bool,
    checkpoint: Option<&Checkpoint>,
    progress: &dyn Progress,
    capacity: u64,
    deadline: Option<std::time::Instant>,
) -> Result<Forward> {
    let layout = &rules.layout;
    let cells = layout.cells();
    let vars = layout.vars();
    let mut plies: Vec<PlyReport> = Vec::new();
    let mut sets: Vec<Option<BCDDFunction>> = Vec::new();
    let mut current = rules.empty.clone();
    if let Some(cp) = checkpoint {
        plies = cp.forward_reports().to_vec();
        if let Some(last) = plies.len().checked_sub(1) {
            let set = cp.load(SetKind::Reachable, last as u32, rules, capacity)?;
            sets = vec![None; last];
            if last as u32 == cells {
                sets.push(Some(set));
                return Ok(Forward { plies, sets });
            }
            sets.push(None);
            current = in_store(rules, last as u32 + 1, capacity, || {
                next_ply(rules, &set, last as u32, capacity)
            })?;
        }
    }
    progress.stage("forward", u64::from(cells) + 1);
    progress.advance(plies.len() as u64);
    for ply in plies.len() as u32..=cells {
        in_time(deadline)?;
        let just_moved = 1 - mover(ply);
        let oom = |_| full_store(ply, capacity);
        let positions = count(&current, vars)?;
        let lines = count(&current.and(&rules.line[just_moved]).map_err(oom)?, vars)?;
        let draws = if ply == cells { positions - lines } else { 0 };
        let (x_wins, o_wins) = if just_moved == 0 {
            (lines, 0)
        } else {
            (0, lines)
        };
        let report = PlyReport {
            counts: GravityCounts {
                ply,
                positions,
                terminal: lines + draws,
                x_wins,
                o_wins,
                draws,
                ..GravityCounts::default()
            },
            nodes: node_count(&current),
            won_nodes: 0,
            lost_nodes: 0,
        };
        progress.note(&format!("ply {ply}: {} nodes", report.nodes));
        progress.advance(1);
        plies.push(report);
        if let Some(cp) = checkpoint {
            // the set first: the reports name only plies whose set is saved
            cp.save_set(SetKind::Reachable, ply, &current)?;
            cp.save_forward_reports(&plies)?;
        }
        if ply == cells {
            sets.push(Some(current));
            break;
        }
        let next = in_store(rules, ply + 1, capacity, || {
            next_ply(rules, &current, ply, capacity)
        })?;
        sets.push((keep_sets && checkpoint.is_none()).then_some(current));
        current = next;
    }
    Ok(Forward { plies, sets })
}

/// The positions of ply `ply + 1`: the image of those of `ply` that no
/// line has ended.
fn next_ply(rules: &Rules, set: &BCDDFunction, ply: u32, capacity: u64) -> Result<BCDDFunction> {
    let oom = |_| full_store(ply + 1, capacity);
    let live = set
        .and(&rules.line[1 - mover(ply)].not().map_err(oom)?)
        .map_err(oom)?;
    rules.image(&live, mover(ply)).map_err(oom)
}
