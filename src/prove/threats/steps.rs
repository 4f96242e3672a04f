//! Threat-space wins ([`super::space`]) in the certificate and in zones.
//! An expansion settled by continuous threats keeps only its first move;
//! its steps are found again, by the same search on the position's
//! canonical image (so the same steps in every orientation), when the
//! certificate's walk writes them or a zone needs them.
//!
//! **Entry** (docs/FORMAT.md, "Threat-space trees"): one `vct` entry of
//! the position holding the whole tree, replayed by the checker on the
//! actual board. Its positions are listed nowhere else, so the proof a
//! zone is worked out from is exactly the one written: a position the
//! tree shares with another proof keeps its own steps in each.
//!
//! **Zones** (rules of [`super::relevance`], over the positions of the steps):
//! at every position the guards (the empty cells of windows free of
//! attacker stones with `k − 1 − i` defender stones or more); at an
//! attacker turn its move, a completion cell where it wins at once, or
//! `touched_by(run, i)` of its run; at a defender turn the attacker's
//! completion cells and the cells of its covers (`fours::covers_zone`),
//! one empty cell if none is in yet; the zones of the positions below added
//! in, each restricted to the empty cells of its position. The lemma of
//! [`super::relevance`] holds for it as for a proof read from the table: the
//! tree's replay uses nothing but these rules.

use std::io::Write;

use crate::board::cells::Cells;
use crate::error::Result;

use super::board::Board;
use super::fours;
use super::space::{self, Step};
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

    /// Writes the `vct` entry of `board` for `step`, its win in cells
    /// of the canonical image (`t` maps `board` onto it).
    pub(super) fn write_steps(
        &self,
        board: &Board,
        step: &Step,
        t: usize,
        out: &mut dyn Write,
    ) -> Result<()> {
        let g = self.geometry;
        let mut tree = String::new();
        let name = |c: u32| g.cell_name(u32::from(g.inverses[t][c as usize]));
        tree_words(step, true, &name, &mut tree);
        writeln!(out, "vct {}{tree}", board.diagram()).map_err(written)
    }
}

/// Appends the words of `step` (docs/FORMAT.md, "Threat-space trees"),
/// each after a space: an attacker step when `attacker_turn`, else a
/// defender step; `name` names a cell.
fn tree_words(step: &Step, attacker_turn: bool, name: &dyn Fn(u32) -> String, out: &mut String) {
    let run = |cells: &[u16], out: &mut String| {
        out.push_str(" (");
        for &c in cells {
            out.push(' ');
            out.push_str(&name(u32::from(c)));
        }
        out.push_str(" )");
    };
    match step {
        // two completion cells at a defender turn: every move leaves one
        Step::Done if !attacker_turn => out.push_str(" [ ]"),
        Step::Done => out.push_str(" *"),
        Step::Run(cells) => run(cells, out),
        Step::Move(cell, below) => {
            out.push(' ');
            out.push_str(&name(*cell));
            tree_words(below, false, name, out);
        }
        Step::Replies { covers, replies } => {
            out.push_str(" [");
            for cover in covers {
                run(cover, out);
            }
            for (cell, below) in replies {
                out.push(' ');
                out.push_str(&name(*cell));
                tree_words(below, true, name, out);
            }
            out.push_str(" ]");
        }
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
            zone = zone | fours::covers_zone(board, attacker, covers, &open, extras);
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
