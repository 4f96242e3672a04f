//! Threat-space search: a *victory by continuous threats* (VCT; Allis
//! 1994, "Searching for solutions in games and artificial intelligence",
//! ch. 5), the OR-node rule of the threat prover that plays threes as well
//! as fours. A small depth-first AND/OR search, run on a position with the
//! attacker to move; what it finds is a winning strategy built only of
//! exact steps, so the prover settles the position by it (a leaf of its
//! proof, like a run of fours).
//!
//! * **Attacker turn** (OR): a completion cell wins; two defender
//!   completion cells, or a full board, lose; one must be taken (and the
//!   defender then moves again); a run of fours found by
//!   [`fours::find_vcf`] wins. Otherwise, with threats left in the depth,
//!   each *threat* is tried: a move into a window free of defender stones
//!   that then holds `k − 2` attacker stones or more (a three, or a four).
//!   After the sequence's first threat, a threat must share a window with
//!   one of the sequence's attacker moves (Allis's *dependency*: threats
//!   that do not build on each other can be played in any order, so one
//!   order is enough). Threats are tried by what they make, most first:
//!   fours, then threes, each weighed by its windows.
//! * **Defender turn** (AND): a defender completion cell, or a full board,
//!   loses; two attacker completion cells win; one must be blocked. Else
//!   the runs of fours that win after a defender *pass* are found
//!   ([`fours::defence`], the covers of the prover's own AND nodes, with
//!   the same limits): none means the last move was no threat, and the
//!   node is lost; each defender move a cover's replay still wins after is
//!   answered by it; **every** other defender move — the three's defence
//!   set, the defender's own fours and fives, anything the covers miss — is
//!   searched.
//!
//! *Lemma.* A win found is a win. At a defender turn each move is either
//! answered by a replayed run of fours (a winning strategy by the lemma
//! of [`fours`]) or searched and found won; at an attacker turn the
//! move played is searched and found won; the leaves are completion
//! cells or runs of fours that replay. Nothing about a threat's defence
//! set is assumed: a move left out of it would have been replayed and
//! answered. ∎
//!
//! **What it does not try.** Threats that combine two independent chains
//! (Allis's combination stage), quiet attacker moves, and sequences past
//! [`VctLimits::depth`] threats or [`VctLimits::nodes`] positions: none
//! found says nothing, and the prover then searches the position itself.
//! Since only attacker moves are left out, this costs proofs, never
//! soundness. The search is a function of the board and the limits alone
//! (no state is kept between searches but its scratch), so every
//! orientation of a position, and every search of it again, finds the
//! same move.
//!
//! **Certificate.** The prover settles the position by the win found and
//! writes its whole tree as one `vct` entry (docs/FORMAT.md, "Threat-space
//! trees"): the threats, the defender's turns with their cover runs, and
//! every defence searched. The checker plays every defender move itself.

use rustc_hash::FxHashMap;

use crate::board::cells::Cells;

use super::board::Board;
use super::fours::{self, VcfLimits};

/// Limits of one threat-space search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VctLimits {
    /// The most threats (threes and fours before the last run of fours)
    /// in a sequence.
    pub depth: u32,
    /// The most positions visited in one search.
    pub nodes: u32,
}

impl Default for VctLimits {
    fn default() -> Self {
        Self {
            depth: 3,
            nodes: 400,
        }
    }
}

/// A win by continuous threats, as found: what the certificate writes
/// (docs/FORMAT.md, "Threat-space trees"), cells of the board searched.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// A completion cell at the attacker's turn (`*` in the tree), or two
    /// at the defender's (`[ ]`).
    Done,
    /// At the attacker's turn: a winning run of fours (`( … )` in the tree).
    Run(Vec<u16>),
    /// At the attacker's turn: this move, then the defender's turn after
    /// it.
    Move(u32, Box<Step>),
    /// At the defender's turn: the runs of fours that answer the moves
    /// they cover (none when the attacker has one completion cell, which
    /// answers every move but its block), and every other move with the
    /// attacker's turn after it.
    Replies {
        covers: Vec<Vec<u16>>,
        replies: Vec<(u32, Step)>,
    },
}

/// The attacker's first move of a victory by continuous threats from
/// `board` (`attacker` to move, no completion cell of its own, the
/// defender with none), found within `limits` with runs of fours and
/// covers searched within `vcf` and `max_covers` as the prover's own;
/// `None` when none is found (which says nothing); with the positions
/// visited. `board` is left as it was.
pub fn find_vct(
    board: &mut Board,
    attacker: usize,
    limits: VctLimits,
    vcf: VcfLimits,
    max_covers: usize,
) -> (Option<u32>, u32) {
    let mut search = VctSearch::new(attacker, limits, vcf, max_covers, false);
    let found = search.attacker_turn(board, limits.depth, Cells::default(), true);
    (found.and(search.first), search.nodes)
}

/// The whole win [`find_vct`] finds with the same arguments (the search
/// is the same, step for step: so it finds it too), as its steps; `None`
/// where `find_vct` finds no move.
pub fn vct_steps(
    board: &mut Board,
    attacker: usize,
    limits: VctLimits,
    vcf: VcfLimits,
    max_covers: usize,
) -> Option<Step> {
    let mut search = VctSearch::new(attacker, limits, vcf, max_covers, true);
    let found = search.attacker_turn(board, limits.depth, Cells::default(), true);
    found.filter(|_| search.first.is_some())
}

struct VctSearch {
    attacker: usize,
    limits: VctLimits,
    vcf: VcfLimits,
    max_covers: usize,
    /// Whether the steps of a win are kept (else each is [`Step::Done`]).
    record: bool,
    nodes: u32,
    /// Positions (exact keys, attacker to move) settled as not won with
    /// this many threats left, and so with any fewer.
    failed: FxHashMap<u128, u32>,
    /// The root's move, once found.
    first: Option<u32>,
}

impl VctSearch {
    fn new(
        attacker: usize,
        limits: VctLimits,
        vcf: VcfLimits,
        max_covers: usize,
        record: bool,
    ) -> Self {
        Self {
            attacker,
            limits,
            vcf,
            max_covers,
            record,
            nodes: 0,
            failed: FxHashMap::default(),
            first: None,
        }
    }

    /// Whether the node budget is spent (counting this visit).
    fn spent(&mut self) -> bool {
        self.nodes += 1;
        self.nodes > self.limits.nodes
    }

    /// `Step::Move(cell, below)`, when steps are kept.
    fn moved(&self, cell: u32, below: Step) -> Step {
        if self.record {
            Step::Move(cell, Box::new(below))
        } else {
            Step::Done
        }
    }

    /// Whether the attacker, to move at `board`, wins within `left`
    /// threats, and how; `played` holds the sequence's attacker moves (the
    /// dependency). At the `root`, the move found is kept.
    fn attacker_turn(
        &mut self,
        board: &mut Board,
        left: u32,
        played: Cells,
        root: bool,
    ) -> Option<Step> {
        if self.spent() {
            return None;
        }
        let (a, d) = (self.attacker, 1 - self.attacker);
        if !board.completions(a).is_empty() {
            return Some(Step::Done);
        }
        let theirs = board.completions(d);
        if theirs.len() >= 2 || board.empties().is_empty() {
            return None;
        }
        if let Some(block) = theirs.first() {
            board.play(block, a);
            let below = self.defender_turn(board, left, played.with(block));
            board.undo(block, a);
            if below.is_some() && root {
                self.first = Some(block);
            }
            return below.map(|below| self.moved(block, below));
        }
        if let Some(run) = fours::find_vcf(board, a, self.vcf, Cells::default()) {
            if root {
                self.first = run.first().map(|&c| u32::from(c));
            }
            return Some(if self.record {
                Step::Run(run)
            } else {
                Step::Done
            });
        }
        if left == 0 {
            return None;
        }
        let key = board.exact_key();
        if self.failed.get(&key).is_some_and(|&l| l >= left) {
            return None;
        }
        for m in self.threats(board, played) {
            board.play(m, a);
            let below = self.defender_turn(board, left - 1, played.with(m));
            board.undo(m, a);
            if let Some(below) = below {
                if root {
                    self.first = Some(m);
                }
                return Some(self.moved(m, below));
            }
            if self.nodes > self.limits.nodes {
                return None;
            }
        }
        self.failed.insert(key, left);
        None
    }

    /// Whether the attacker wins at `board`, the defender to move, with
    /// `left` threats to go, and how (module docs: every defender move no
    /// cover answers is searched).
    fn defender_turn(&mut self, board: &mut Board, left: u32, played: Cells) -> Option<Step> {
        if self.spent() {
            return None;
        }
        let (a, d) = (self.attacker, 1 - self.attacker);
        if !board.completions(d).is_empty() || board.empties().is_empty() {
            return None;
        }
        let mine = board.completions(a);
        if mine.len() >= 2 {
            return Some(Step::Done);
        }
        let (covers, open) = match mine.first() {
            Some(block) => (Vec::new(), vec![block]),
            None => fours::defence(board, a, self.vcf, self.max_covers)?,
        };
        let mut replies = Vec::new();
        for x in open {
            board.play(x, d);
            let below = self.attacker_turn(board, left, played, false);
            board.undo(x, d);
            if self.record {
                replies.push((x, below?));
            } else {
                below?;
            }
        }
        Some(if self.record {
            Step::Replies { covers, replies }
        } else {
            Step::Done
        })
    }

    /// The attacker's threats at `board` (module docs), best first: the
    /// cells where it makes a four, and those where it makes a three that
    /// threatens to become two completion cells at once, near a move of
    /// `played` unless it is empty.
    fn threats(&self, board: &mut Board, played: Cells) -> Vec<u32> {
        let a = self.attacker;
        let g = board.geometry;
        let k = g.k;
        let mut cells = board.open_window_cells(a, k.saturating_sub(3)) & board.empties();
        if !played.is_empty() {
            let near = played
                .iter()
                .fold(Cells::default(), |s, m| s | g.cells_near(m));
            cells = cells & near;
        }
        // weighed: a four made counts 1,000, a three 30, a two 1, over the
        // windows through the cell (free of defender stones)
        let mut weighed: Vec<(u32, u32)> = Vec::new();
        for c in cells.iter() {
            let (mut weight, mut threes) = (0u32, false);
            for &w in &g.windows_at[c as usize] {
                let counts = board.count(w as usize);
                let (mine, theirs) = (u32::from(counts[a]), counts[1 - a]);
                weight += match (theirs, k.saturating_sub(mine + 1)) {
                    (0, 1) => 1000,
                    (0, 2) => {
                        threes = true;
                        30
                    }
                    (0, 3) => 1,
                    _ => 0,
                };
            }
            if weight >= 1000 || (threes && self.threatens_two_completions(board, c)) {
                weighed.push((u32::MAX - weight, c));
            }
        }
        weighed.sort_unstable();
        weighed.into_iter().map(|(_, c)| c).collect()
    }

    /// Whether, with the attacker's stone on `cell`, one more attacker
    /// stone in a window through `cell` makes two completion cells (an
    /// open four, or a four and a second four): a three in Allis's sense.
    /// Its replies are still worked out by the covers, not by this test.
    fn threatens_two_completions(&self, board: &mut Board, cell: u32) -> bool {
        let a = self.attacker;
        board.play_in_run(cell, a);
        let candidates = four_cells_through(board, a, cell);
        let mut threatens = false;
        for c in candidates.iter() {
            board.play_in_run(c, a);
            threatens = board.completions(a).len() >= 2;
            board.undo_in_run(c, a);
            if threatens {
                break;
            }
        }
        board.undo_in_run(cell, a);
        threatens
    }
}

/// The empty cells where `colour` makes a four in a window through `cell`.
fn four_cells_through(board: &Board, colour: usize, cell: u32) -> Cells {
    let g = board.geometry;
    let threes = board.threes(colour);
    let mut cells = Cells::default();
    for &w in &g.windows_at[cell as usize] {
        if threes[w as usize / 64] >> (w % 64) & 1 == 1 {
            cells = cells | g.windows[w as usize];
        }
    }
    cells & board.empties()
}
