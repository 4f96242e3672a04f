//! Relevance zones for wins: the cells a proof of the attacker's win
//! depends on, so that a defender move outside them is answered by the
//! same proof. After Hsu, Ko, Chen, Wei, Hsueh & Wu (TCS 815, 2020), who
//! prune the attacker's moves in proofs of draws by the zone of the null
//! move's proof ([`crate::prove::zones`] does that here); this module
//! is the same idea on the other side, for the threat prover's wins.
//!
//! **The cut.** At an AND node (defender to move) with many moves left
//! after the covers ([`super::Settings::zone_moves`]), the prover first
//! proves the position after a defender *pass* (the attacker to move on
//! the same board). If the attacker does not win even then, it does not win
//! after any defender move (an extra stone never hurts its owner in an
//! m,n,k game), so the node is disproved. If it wins, the *zone* of that
//! proof for one extra stone, `Z(pass, 1)`, is worked out, and only the
//! defender moves inside it are searched; each move `x` outside it is
//! answered by the pass proof played with `x` on the board. The certificate
//! says so with a `zone` entry, and the checker plays the pass proof with
//! each such `x` on the board (docs/FORMAT.md), so no lemma of this module
//! is taken on trust by the checker.
//!
//! **Zones.** `Z(P, i)` of a proof `P` (a proved position and the entries
//! below it) is the union, over every position `p` of `P`, of:
//!
//! 1. the empty cells of every window free of attacker stones holding
//!    `k − 1 − i` defender stones or more at `p` (*guards*);
//! 2. at an OR node: the attacker's chosen move; a completion cell where it
//!    wins at once; [`fours::touched_by`]`(run, i)` of a winning run;
//! 3. at an AND node: the attacker's completion cells (two where it wins by
//!    them, the forced block where it has one); for each cover run,
//!    `touched_by(run, i + 1)`, and for each defender move the covers
//!    answer only by replay (inside every run's `touched_by(run, 1)`),
//!    `touched_by(run, i)` of an answering run on the board after the
//!    move; at a cut node, `Z(pass, i + 1)`; one empty cell if none
//!    is in yet (so that extra stones never fill the board);
//!
//! restricted to the empty cells of `p`, with the zones of the positions
//! below (`Z(child, i)`) added in. `Z(P, i)` grows with `i`.
//!
//! *Lemma.* Let `e₁ … eₘ` be defender stones on empty cells with each
//! `eᵢ ∉ Z(P, i)`. Then `P`, played with them on the board, is still a
//! winning strategy: every position of `P` keeps the verdict of the rules
//! (the checker's "holds" with the stones added to the actual board).
//! *Proof*, by induction on `P`. At a position `p`: a window free of
//! attacker stones holding `s` defender stones holds `eᵢ` only if
//! `s + i < k − 1` (rule 1); the `eᵢ` in it have distinct indices, so at
//! most `k − 2 − s` of them, and it stays below `k − 1`: the defender
//! gains no completion cell and no line, so a forced block stays forced
//! and "the defender has no completion cell" stays true. Defender stones
//! take no attacker completion cell the proof uses (rules 2, 3), take no
//! chosen move, and kill attacker windows only, so the attacker's wins are
//! kept. Runs of fours replay as before by the lemma of
//! [`fours::touched_by`] (a cover's reply is one more stone: index 1, the
//! others shifted by one, hence `i + 1`). At an AND node the defender's
//! moves are those without the extra stones: fewer, each answered as
//! before, and the board is not full (rule 3). A cut node's moves outside
//! `Z(pass, 1)` are answered by the pass proof with that move as `e₁` and
//! the others as `e₂ …` (`eᵢ ∉ Z(p, i) ⊇ Z(pass, i + 1)`). Below, the
//! positions' zones are in `Z(P, i)`, so the induction applies. ∎
//!
//! The attacker's move at each proved OR node is fixed the first time a
//! walk asks for it (`ThreatProver::chosen_move`), and each cut is kept
//! once made, so the zones, the cuts and the certificate's walk see one
//! and the same proof.
//!
//! **Memory.** The cuts and chosen moves are kept within an eighth of the
//! budget. When that is full, the cuts of positions the table no longer
//! holds are forgotten (`forget_cuts_of_positions_gone`; chosen moves
//! never are); the search stops only when that frees less than an eighth
//! of it. A checkpoint loaded or merged past it is swept the same way
//! before it is refused.
//!
//! **Cuts checked by the walk.** That holds within one prover's runs. A
//! cut merged from another proof's checkpoint
//! (`ThreatProver::merge_checkpoint`) was made from that proof's pass
//! proof, whose moves may differ from the ones this prover has fixed. So
//! while the certificate is walked, each cut kept is checked against the
//! zone of the pass proof as it now stands, once before its entries are
//! written and once after (when the proofs below are all there), and made
//! again if that zone is not inside its own. A walk that made a cut again
//! has written a zone its pass proof may leave, so it fails and is walked
//! again (`prove mnk` does, a few times): each walk settles the cuts of
//! one level more. A walk that makes none has written the proof it read,
//! unless a piece of a pass proof was missing at both checks (given up by
//! a table full of proofs while the walk proved others again: the zone is
//! then unknown and the cut kept). The check is of zones only: a cut
//! whose moves inside its zone are fewer than the expansion's now (a
//! checkpoint of older rules) is not caught here. The checker refuses
//! either.

use std::rc::Rc;

use crate::board::cells::Cells;

use super::board::Board;
use super::fours;
use super::{Expansion, ThreatProver};

/// The moves searched at a cut AND node (module docs), in the orientation
/// of the node's canonical image.
#[derive(Debug)]
pub(super) struct Cut {
    /// `Z(pass, 1)` (its empty cells): the moves outside it are answered
    /// by the proof after the pass.
    pub zone: Cells,
    /// The moves left that are inside the zone, one of each set giving
    /// symmetric positions.
    pub moves: Vec<u16>,
    /// Every move left inside the zone.
    pub all: Vec<u16>,
}

impl ThreatProver<'_> {
    /// `cells` of `board`'s orientation in its canonical image's, where
    /// `t` maps `board` onto that image.
    fn board_to_canonical(&self, cells: Cells, t: usize) -> Cells {
        let map = &self.geometry.symmetries[t];
        cells
            .iter()
            .fold(Cells::default(), |s, c| s.with(u32::from(map[c as usize])))
    }

    /// `cells` of the canonical image's orientation in `board`'s.
    pub(super) fn canonical_to_board(&self, cells: Cells, t: usize) -> Cells {
        let map = &self.geometry.inverses[t];
        cells
            .iter()
            .fold(Cells::default(), |s, c| s.with(u32::from(map[c as usize])))
    }

    /// A run of an expansion (canonical orientation) in `board`'s, as the
    /// replays take it.
    fn oriented_run(&self, run: &[u16], t: usize) -> Vec<u16> {
        let inverse = &self.geometry.inverses[t];
        run.iter().map(|&c| inverse[c as usize]).collect()
    }

    /// The attacker's move at the proved OR node `board`: the first of its
    /// moves whose position is proved, fixed the first time it is asked.
    pub(super) fn chosen_move(&mut self, board: &Board) -> Option<u32> {
        let (key, t) = board.canonical();
        if let Some(&cell) = self.chosen.get(&key) {
            let cell = u32::from(self.geometry.inverses[t][cell as usize]);
            // (a move read from a checkpoint is taken only on an empty
            // cell: a damaged file never puts a stone on a stone)
            if board.is_empty(cell) {
                return Some(cell);
            }
        }
        let (expansion, t) = self.expansion(board);
        let Expansion::Moves { all, .. } = &*expansion else {
            return None;
        };
        let mover = board.to_move();
        let moves = self.oriented(all, t);
        let in_table = moves.iter().copied().find(|&c| {
            self.table
                .get(board.key_after(c, mover))
                .is_some_and(|n| n.proof == 0)
        });
        // else a move to a position the rules prove, whose entry a full
        // table may have replaced (table.rs, "Replacement")
        let cell = in_table.or_else(|| {
            let mut after = board.clone();
            moves.into_iter().find(|&c| {
                after.play(c, mover);
                let proved = self.is_proved(&after);
                after.undo(c, mover);
                proved
            })
        })?;
        self.chosen
            .insert(key, self.geometry.symmetries[t][cell as usize]);
        Some(cell)
    }

    /// The cut of the AND node `board`, whose position after a pass is
    /// proved (made once and kept); `expansion` is `board`'s (every
    /// caller holds it).
    pub(super) fn cut(&mut self, board: &Board, expansion: &Expansion) -> Rc<Cut> {
        let (key, t) = board.canonical();
        let Expansion::Moves { all, .. } = expansion else {
            unreachable!("a cut is made at an AND node with moves");
        };
        if let Some(cut) = self.cuts.get(&key) {
            // (a cut read from a checkpoint is taken only with its moves
            // among the node's: a damaged file never puts a stone on a
            // stone)
            if cut.all.iter().chain(&cut.moves).all(|c| all.contains(c)) {
                let cut = Rc::clone(cut);
                if !self.checking_cuts {
                    return cut;
                }
                // the walk's check (module docs): a zone not yet known
                // (a proof below not there) is checked after
                let now = self.zone_after_pass(&mut board.image(t));
                if now.is_none_or(|now| now.minus(cut.zone).is_empty()) {
                    return cut;
                }
                self.stats.cuts_remade += 1;
            }
        }
        let remade = self.cuts.contains_key(&key);
        // worked out on the canonical image, like the expansion
        let mut image = board.image(t);
        let zone = self
            .zone_after_pass(&mut image)
            .unwrap_or_else(|| image.empties());
        let inside: Vec<u32> = all
            .iter()
            .map(|&c| u32::from(c))
            .filter(|&c| zone.has(c))
            .collect();
        let defender = 1 - self.attacker;
        if !remade {
            self.stats.cuts += 1;
            self.stats.moves_cut += (all.len() - inside.len()) as u64;
        }
        let cut = Rc::new(Cut {
            zone,
            moves: super::distinct(&image, defender, &inside),
            all: inside.iter().map(|&c| c as u16).collect(),
        });
        if self.cuts.insert(key, Rc::clone(&cut)).is_some() {
            // zones worked out through the cut made again are not kept
            self.zone_memo.clear();
        }
        cut
    }

    /// `Z(pass, 1)` of the AND node `image`: the zone of the proof after
    /// a defender pass there, for one extra stone (`None` as
    /// [`Self::zone_of`]); `image` is as it was after.
    fn zone_after_pass(&mut self, image: &mut Board) -> Option<Cells> {
        image.pass();
        let zone = self.zone_of(image, 1);
        image.pass();
        zone
    }

    /// Forgets the cuts of positions the table holds no entry for (open
    /// ones replaced by others), when the zones' memory is full. Such a
    /// position is proved by no entry, so no zone
    /// worked out from the table reads its cut; searched again, it gets
    /// its cut again from its pass proof, the same while that proof's
    /// moves stay fixed, which they do: chosen moves are never forgotten
    /// (one forgotten could be chosen otherwise when proved again, and
    /// the zones worked out through it would no longer hold). Counted in
    /// the stats.
    pub(super) fn forget_cuts_of_positions_gone(&mut self) {
        let before = self.cuts.len();
        let table = &self.table;
        self.cuts.retain(|&key, _| table.get(key).is_some());
        self.cuts.shrink_to_fit();
        self.zone_memo.clear();
        self.stats.cuts_forgotten += (before - self.cuts.len()) as u64;
    }

    /// `Z(P, extras)` of the proof `P` of `board` (module docs), in
    /// `board`'s orientation; `None` when a position of it is not proved
    /// in the table (the caller then cuts nothing).
    pub(super) fn zone_of(&mut self, board: &mut Board, extras: u32) -> Option<Cells> {
        let (key, t) = board.canonical();
        if let Some(&zone) = self.zone_memo.get(&(key, extras)) {
            return Some(self.canonical_to_board(zone, t));
        }
        if !self.is_proved(board) {
            return None;
        }
        let (a, d) = (self.attacker, 1 - self.attacker);
        let k = self.geometry.k;
        let mut zone = board.open_window_cells(d, (k - 1).saturating_sub(extras));
        let (expansion, t) = self.expansion(board);
        let or = self.attacker_to_move(board);
        match &*expansion {
            // (never untried: `expansion` resolves it)
            Expansion::Lost | Expansion::Untried(_) => return None,
            Expansion::Won(run) if run.is_empty() => {
                let wins = board.completions(a);
                zone = wins
                    .iter()
                    .take(if or { 1 } else { 2 })
                    .fold(zone, Cells::with);
            }
            Expansion::Won(run) => {
                let run = self.oriented_run(run, t);
                zone = zone | fours::touched_by(board, a, &run, extras);
            }
            Expansion::Threats(_) => {
                // worked out on the canonical image, where the steps are
                let steps = self.threat_steps(board, t)?;
                let mut image = board.image(t);
                let below = super::steps::steps_zone(&mut image, a, &steps, extras, or);
                zone = zone | self.canonical_to_board(below, t);
            }
            Expansion::Moves { .. } if or => {
                let cell = self.chosen_move(board)?;
                board.play(cell, a);
                let below = self.zone_of(board, extras);
                board.undo(cell, a);
                zone = zone.with(cell) | below?;
            }
            Expansion::Moves {
                all, covers, pass, ..
            } => {
                zone = zone | board.completions(a);
                let all = self.oriented(all, t);
                let covers: Vec<Vec<u16>> =
                    covers.iter().map(|run| self.oriented_run(run, t)).collect();
                zone = zone | fours::covers_zone(board, a, &covers, &all, extras);
                let children = if *pass {
                    let cut = self.cut(board, &expansion);
                    board.pass();
                    let after_pass = self.zone_of(board, extras + 1);
                    board.pass();
                    zone = zone | after_pass?;
                    self.oriented(&cut.all, t)
                } else {
                    all
                };
                for cell in children {
                    board.play(cell, d);
                    let below = self.zone_of(board, extras);
                    board.undo(cell, d);
                    zone = zone | below?;
                }
                let empties = board.empties();
                if (zone & empties).is_empty() {
                    zone = zone.with(empties.first().expect("an AND node has an empty cell"));
                }
            }
        }
        let zone = zone & board.empties();
        if self.zone_memo.len() >= self.max_zones {
            self.zone_memo.clear();
        }
        let canonical = self.board_to_canonical(zone, t);
        self.zone_memo.insert((key, extras), canonical);
        Some(zone)
    }
}
