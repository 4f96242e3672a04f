//! Threat-space wins ([`super::space`]) in the certificate and in zones.
//! An expansion settled by continuous threats keeps only its first move;
//! its steps are found again, by the same search on the position's
//! canonical image (so the same steps in every orientation), when the
//! certificate's walk writes them or a zone needs them.
//!
//! **Entries** (docs/FORMAT.md, "Threat-space steps"): at an attacker
//! turn a `move` (or the `vcf` of a run of fours), at a defender turn its
//! `cover` runs, then the positions after every other defender move, each
//! position once: one the walk listed already keeps the entries it has.
//!
//! **Zones** (rules of [`super::zones`], over the positions of the steps):
//! at every position the guards (the empty cells of windows free of
//! attacker stones with `k − 1 − i` defender stones or more); at an
//! attacker turn its move, a completion cell where it wins at once, or
//! `touched_by(run, i)` of its run; at a defender turn the attacker's
//! completion cells and the cells of its covers (`zones::covers_zone`),
//! one empty cell if none is in yet; the zones of the positions below added
//! in, each restricted to the empty cells of its position. The lemma of
//! [`super::zones`] holds for it as for a proof read from the table: its
//! proof uses nothing but these rules.

use std::io::Write;

use rustc_hash::FxHashSet;

use crate::board::cells::Cells;
use crate::error::Result;

use super::board::Board;
use super::fours;
use super::space::{self, Step};
use super::zones::covers_zone;
use super::{written, ThreatProver};

impl ThreatProver<'_> {
    /// The steps of the threat-space win of `board`, whose expansion was
    /// settled by one, in the orientation of its canonical image (`t`
    /// maps `board` onto it); `None` if the search finds it no longer (the
    /// settings changed: a checkpoint's expansion is never kept, so not in
    /// one prover).
    pub(super) fn threat_steps(&self, board: &Board, t: usize) -> Option<Step> {
        let vct = self.settings.vct?;
        let mut image = board.image(t);
        let (vcf, covers) = (self.settings.vcf, self.settings.max_covers);
        space::vct_steps(&mut image, self.attacker, vct, vcf, covers)
    }

    /// Writes `step` (cells of the canonical image, `t` mapping `board`
    /// onto it) as the entries of `board`, listed already, and of the
    /// positions below it not yet listed; `board` is left as it was.
    pub(super) fn write_steps(
        &mut self,
        board: &mut Board,
        step: &Step,
        t: usize,
        out: &mut dyn Write,
        seen: &mut FxHashSet<u128>,
        entries: &mut usize,
    ) -> Result<()> {
        let g = self.geometry;
        let cell_of = |c: u32| u32::from(g.inverses[t][c as usize]);
        let names = |cells: &mut dyn Iterator<Item = u32>| -> String {
            cells
                .map(|c| format!(" {}", g.cell_name(cell_of(c))))
                .collect()
        };
        let (a, d) = (self.attacker, 1 - self.attacker);
        match step {
            Step::Done => {}
            Step::Run(run) => {
                let run = names(&mut run.iter().map(|&c| u32::from(c)));
                writeln!(out, "vcf {}{run}", board.diagram()).map_err(written)?;
                *entries += 1;
            }
            Step::Move(cell, below) => {
                let name = names(&mut std::iter::once(*cell));
                writeln!(out, "move {}{name}", board.diagram()).map_err(written)?;
                *entries += 1;
                self.write_below(board, cell_of(*cell), a, below, t, out, seen, entries)?;
            }
            Step::Replies { covers, replies } => {
                for cover in covers {
                    let cover = names(&mut cover.iter().map(|&c| u32::from(c)));
                    writeln!(out, "cover {}{cover}", board.diagram()).map_err(written)?;
                    *entries += 1;
                }
                for (reply, below) in replies {
                    self.write_below(board, cell_of(*reply), d, below, t, out, seen, entries)?;
                }
            }
        }
        Ok(())
    }

    /// [`Self::write_steps`] of `below` at `board` after `mover` plays
    /// `cell`, if that position is not listed yet.
    #[allow(clippy::too_many_arguments)]
    fn write_below(
        &mut self,
        board: &mut Board,
        cell: u32,
        mover: usize,
        below: &Step,
        t: usize,
        out: &mut dyn Write,
        seen: &mut FxHashSet<u128>,
        entries: &mut usize,
    ) -> Result<()> {
        board.play(cell, mover);
        let written = match self.listed(board, seen, false) {
            Ok(true) => self.write_steps(board, below, t, out, seen, entries),
            other => other.map(|_| ()),
        };
        board.undo(cell, mover);
        written
    }
}

/// `Z(steps, extras)` (module docs) of `step` at `board` (both in one
/// orientation), `attacker_turn` saying who is to move there.
pub(super) fn steps_zone(
    board: &mut Board,
    attacker: usize,
    step: &Step,
    extras: u32,
    attacker_turn: bool,
) -> Cells {
    let d = 1 - attacker;
    let k = board.geometry.k;
    let mut zone = board.open_window_cells(d, (k - 1).saturating_sub(extras));
    match step {
        Step::Done => {
            let wins = board.completions(attacker);
            let cells = if attacker_turn { 1 } else { 2 };
            zone = wins.iter().take(cells).fold(zone, Cells::with);
        }
        Step::Run(run) => zone = zone | fours::touched_by(board, attacker, run, extras),
        Step::Move(cell, below) => {
            board.play(*cell, attacker);
            let below = steps_zone(board, attacker, below, extras, false);
            board.undo(*cell, attacker);
            zone = zone.with(*cell) | below;
        }
        Step::Replies { covers, replies } => {
            zone = zone | board.completions(attacker);
            let open: Vec<u32> = replies.iter().map(|&(x, _)| x).collect();
            zone = zone | covers_zone(board, attacker, covers, &open, extras);
            for (x, below) in replies {
                board.play(*x, d);
                zone = zone | steps_zone(board, attacker, below, extras, true);
                board.undo(*x, d);
            }
            let empties = board.empties();
            if (zone & empties).is_empty() {
                zone = zone.with(empties.first().expect("a defender turn has an empty cell"));
            }
        }
    }
    zone & board.empties()
}
