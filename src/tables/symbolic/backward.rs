//! The backward pass: from the full board down to the empty one, each
//! ply's positions split into won, drawn and lost for the player to move,
//! from the next ply's split (Edelkamp & Kissmann's layered retrograde
//! analysis; Böck's order of the three sets):
//!
//! ```text
//! ended = S ∧ line(just moved)          lost: the line is the opponent's
//! W     = (S ∧ ¬ended) ∧ pre(L')        a move to a position lost for the opponent
//! D     = (S ∧ ¬ended ∧ ¬W) ∧ pre(D')   else a move to a drawn position
//! L     = S ∧ ¬(W ∨ D)                  else every move loses (or the game is over)
//! ```
//!
//! On the full board `W = ∅` and `D` is every position without a line.
//! Only `D'` and `L'` are carried from ply to ply; `W` and `L` of each ply
//! go to the checkpoint and the table (drawn = the rest of the ply).

use oxidd::bcdd::BCDDFunction;
use oxidd::BooleanFunction;

use super::checkpoint::{Checkpoint, SetKind};
use super::flat::FlatBdd;
use super::forward::Forward;
use super::layout::mover;
use super::rules::Rules;
use super::{count, full_store, in_store, in_time, node_count};
use crate::error::Result;
use crate::game::Outcome;
use crate::runtime::progress::Progress;

/// Receives each solved ply's won and lost sets, from the last ply down.
pub trait PlySink: Send {
    /// The positions of `ply` won and lost for the player to move.
    fn solved(&mut self, ply: u32, won: &FlatBdd, lost: &FlatBdd) -> Result<()>;
}

/// Runs (or resumes) the backward pass over the plies of `forward`, whose
/// reports it completes with the first player's counts. Returns the empty
/// board's value for the first player.
pub fn backward(
    rules: &Rules,
    forward: &mut Forward,
    checkpoint: Option<&Checkpoint>,
    mut sink: Option<&mut dyn PlySink>,
    progress: &dyn Progress,
    capacity: u64,
    deadline: Option<std::time::Instant>,
) -> Result<Outcome> {
    let layout = &rules.layout;
    let cells = layout.cells();
    let vars = layout.vars();
    // (drawn, lost) of the ply above the one being solved
    let mut above: Option<(BCDDFunction, BCDDFunction)> = None;
    let mut first = cells;
    if let Some(cp) = checkpoint {
        let done = cp.backward_reports();
        for (ply, report) in &done {
            // (the checkpoint refused, on opening, a ply past the board)
            let slot = forward.plies.get_mut(*ply as usize).ok_or_else(|| {
                crate::error::Error::InvalidInput(format!(
                    "the checkpoint names backward ply {ply}, past the board's {cells}"
                ))
            })?;
            *slot = *report;
        }
        if let Some(lowest) = done.iter().map(|(p, _)| *p).min() {
            // feed the sink what was solved before, then carry on below it
            for ply in (lowest..=cells).rev() {
                if sink.is_none() && ply != lowest {
                    continue;
                }
                let won = cp.load_flat(SetKind::Won, ply)?;
                let lost = cp.load_flat(SetKind::Lost, ply)?;
                if let Some(sink) = sink.as_deref_mut() {
                    sink.solved(ply, &won, &lost)?;
                }
                if ply == lowest && lowest > 0 {
                    let oom = |_| full_store(ply, capacity);
                    let reach = reachable(rules, forward, checkpoint, ply, capacity)?;
                    let won = won.to_function(&rules.manager()).map_err(oom)?;
                    let lost = lost.to_function(&rules.manager()).map_err(oom)?;
                    let drawn = reach.and(&won.or(&lost).map_err(oom)?.not().map_err(oom)?);
                    above = Some((drawn.map_err(oom)?, lost));
                }
            }
            if lowest == 0 {
                return value_of_empty(rules, cp, capacity);
            }
            first = lowest - 1;
        }
    }
    progress.stage("backward", u64::from(cells) + 1);
    progress.advance(u64::from(cells - first));
    let mut value = Outcome::Draw;
    for ply in (0..=first).rev() {
        in_time(deadline)?;
        let oom = |_| full_store(ply, capacity);
        let reach = reachable(rules, forward, checkpoint, ply, capacity)?;
        let (who, just_moved) = (mover(ply), 1 - mover(ply));
        let (won, drawn, lost) = in_store(rules, ply, capacity, || {
            let open = reach
                .and(&rules.line[just_moved].not().map_err(oom)?)
                .map_err(oom)?;
            let (won, drawn) = match &above {
                None => (rules.none.clone(), open),
                Some((drawn_above, lost_above)) => {
                    let won = open
                        .and(&rules.preimage(lost_above, who).map_err(oom)?)
                        .map_err(oom)?;
                    let rest = open.and(&won.not().map_err(oom)?).map_err(oom)?;
                    let drawn = rest
                        .and(&rules.preimage(drawn_above, who).map_err(oom)?)
                        .map_err(oom)?;
                    (won, drawn)
                }
            };
            let lost = reach
                .and(&won.or(&drawn).map_err(oom)?.not().map_err(oom)?)
                .map_err(oom)?;
            Ok((won, drawn, lost))
        })?;
        let (n_won, n_lost) = (count(&won, vars)?, count(&lost, vars)?);
        let report = &mut forward.plies[ply as usize];
        let positions = report.counts.positions;
        let (first_won, first_lost) = if who == 0 {
            (n_won, n_lost)
        } else {
            (n_lost, n_won)
        };
        report.counts.first_won = first_won;
        report.counts.first_lost = first_lost;
        report.counts.first_drawn = positions - n_won - n_lost;
        report.won_nodes = node_count(&won);
        report.lost_nodes = node_count(&lost);
        let report = *report;
        if checkpoint.is_some() || sink.is_some() {
            let (won_flat, lost_flat) =
                (FlatBdd::from_function(&won), FlatBdd::from_function(&lost));
            if let Some(cp) = checkpoint {
                cp.save_flat(SetKind::Won, ply, &won_flat)?;
                cp.save_flat(SetKind::Lost, ply, &lost_flat)?;
                cp.save_backward_report(ply, &report)?;
            }
            if let Some(sink) = sink.as_deref_mut() {
                sink.solved(ply, &won_flat, &lost_flat)?;
            }
        }
        progress.note(&format!(
            "ply {ply}: {} + {} nodes",
            report.won_nodes, report.lost_nodes
        ));
        progress.advance(1);
        if ply == 0 {
            value = outcome_of_empty(rules, &won, &lost, capacity)?;
        }
        above = Some((drawn, lost));
        drop(won);
    }
    Ok(value)
}

/// The positions of `ply`: kept from the forward pass, or read back from
/// the checkpoint.
fn reachable(
    rules: &Rules,
    forward: &mut Forward,
    checkpoint: Option<&Checkpoint>,
    ply: u32,
    capacity: u64,
) -> Result<BCDDFunction> {
    if let Some(set) = forward.sets.get_mut(ply as usize).and_then(Option::take) {
        return Ok(set);
    }
    match checkpoint {
        Some(cp) => cp.load(SetKind::Reachable, ply, rules, capacity),
        None => unreachable!("without a checkpoint the forward pass keeps every ply"),
    }
}

/// The empty board's value for the first player from ply 0's sets.
fn outcome_of_empty(
    rules: &Rules,
    won: &BCDDFunction,
    lost: &BCDDFunction,
    capacity: u64,
) -> Result<Outcome> {
    let oom = |_| full_store(0, capacity);
    Ok(if rules.empty.and(won).map_err(oom)?.satisfiable() {
        Outcome::Win
    } else if rules.empty.and(lost).map_err(oom)?.satisfiable() {
        Outcome::Loss
    } else {
        Outcome::Draw
    })
}

/// The empty board's value when the checkpoint holds ply 0 solved.
fn value_of_empty(rules: &Rules, cp: &Checkpoint, capacity: u64) -> Result<Outcome> {
    let oom = |_| full_store(0, capacity);
    let manager = rules.manager();
    let won = cp
        .load_flat(SetKind::Won, 0)?
        .to_function(&manager)
        .map_err(oom)?;
    let lost = cp
        .load_flat(SetKind::Lost, 0)?
        .to_function(&manager)
        .map_err(oom)?;
    outcome_of_empty(rules, &won, &lost, capacity)
}
