//! Draw proofs on large m,n,k boards: a search for the *defender* (the
//! player who only wants to stop the other, the *attacker*, from ever
//! completing a line), closed by pairing strategies and pruned by
//! relevance zones — the method of Hsu, Ko, Chen, Wei, Hsueh & Wu, "On
//! solving the 7,7,5-game and the 8,8,5-game" (Theoretical Computer
//! Science 815, 2020), written here from the paper's idea, not its code.
//!
//! **The search.** An AND/OR search: at the defender's turn (OR) one move
//! must hold, at the attacker's (AND) every move must. A position *holds*
//! (the attacker cannot win from it) when
//! * the board is full or the defender completes a line (the game ends
//!   without an attacker line), or
//! * the attacker is to move and the defender owns a pairing of the lines
//!   still open to the attacker ([`crate::prove::pairing`]), or
//! * the defender is to move and one move leads to a position that holds,
//!   or the attacker is to move and every move does.
//!
//! A position *falls* when the attacker is to move with a line one stone
//! short, or the defender is to move facing two such lines.
//!
//! **Relevance zones.** Every position proved to hold gets a *zone*, a set
//! of cells such that the proof stays valid in every *extension*: a
//! position that agrees with it on the zone, has extra stones (of either
//! colour) only on cells empty in it and outside the zone, and holds no
//! attacker line (the *zone lemma*). Zones: a pairing leaf's is the cells
//! of its pairs; a completed defender line's is the line; a full board's
//! is empty; a defender move `r`'s is `r` and its child's zone. At the
//! attacker's turn the search first proves the *null move*: the same
//! stones with the defender to move (as if the attacker passed). Its zone
//! `Z₀` answers every attacker move outside it: after such a move the
//! position is an extension of the null move's, so the defender's proof
//! of the null move still holds. Only the moves inside `Z₀` are searched;
//! the position's zone is `Z₀` with their zones and its *guards*: every
//! line open to the attacker (no defender stone) gets two of its empty
//! cells in the zone (the lowest outside it are added where it has
//! fewer), so that no extension gives the attacker a line to complete at
//! once. Without the guards the lemma is false: a defender line finished
//! two moves later does not help if an extra attacker stone lets the
//! attacker finish first (the exhaustive tests found this on 3 × 4).
//!
//! **The precondition.** The lemma speaks of the positions of a proof,
//! and a proof holds none where the attacker, to move, has a *completion
//! cell* (a line free of the defender's stones with one empty cell), nor
//! one where the defender, to move, faces two and does not complete a
//! line of its own: the search declares both fallen (below), and the
//! checker refuses a certificate that lists either. Without it the lemma
//! is false at the position itself, not only in its extensions: a line
//! with one empty cell cannot keep two in the zone, and an attacker move
//! outside `Z₀` completing it is "answered" by a null move's proof that
//! never met it (the forgery `tests/fixtures/proofs/zone-forgery-4-1-2.proof`:
//! on 4,1,2 after X b1 and O c1 the null move's proof is O's d1, its zone
//! c1 d1, and X's a1 wins at once).
//!
//! *Proof of the lemma*, by induction from the leaves, for an extension
//! `P'` of a position `P` of the proof (`P' = P` included). A pairing leaf: a
//! line open to the attacker in `P'` was open in `P` too, so it holds a
//! pair, whose cells are in the zone and so still empty: the pairing still
//! works. A completed defender line: the defender, to move, completes it
//! (`P'` holds no attacker line). A full board: `P' = P`. A defender move
//! `r`: `r` is in the zone, so still empty, and `P'` with `r` is an
//! extension of the proved child. An attacker move `m`: by the
//! precondition every line open to the attacker in `P` has two empty
//! cells, the guards put two of them in the zone, so they are empty in
//! `P'` too and `m` completes no line; `P'` with `m` is an extension of
//! the searched child (`m` inside `Z₀`) or of the null move's position
//! (`m` outside it: its stone and `P'`'s extra ones lie outside `Z₀`). ∎
//!
//! A position where the null move does not hold does not hold either (a
//! stone never hurts on an m,n,k board, so the attacker's extra move only
//! helps), so a fall is exact. Two searches ([`Search`]) share the
//! leaves, the zones and the table of positions (held with their zones,
//! fallen, or open), and order moves by a threat count (lines through a
//! cell, weighted by the stones on them): depth-first proof-number search
//! (`zone_proof/proof_numbers.rs`, the default), and depth-first search with
//! iterative deepening on the number of defender moves. Each is
//! exhaustive when not stopped, so on small boards its answer equals the
//! complete tables (`tests/provers/zone_proof.rs`, both searches).
//!
//! **Certificates** ([`prove_draw`], [`ZoneProver::write_proof`]): every position of the
//! proof with its side to move, the defender's move at its turns, a
//! pairing or the word `expand` at the attacker's. A claim may come in
//! *parts*, each the proof of one position (its root) on its own: the
//! checker takes a proved root for every position a symmetry of the board
//! maps onto it, which is sound because the symmetries map lines onto
//! lines. [`prove_draw`] so proves the second player's defence one class
//! of first moves at a time, each on a fresh table. The checker
//! (`tests/provers/zone_proof.rs`, written apart) recomputes every zone from the
//! certificate, checks each pairing against the rules, and follows the
//! null move and every attacker move inside its zone; it trusts only the
//! lemma above and the board's symmetry. Format in docs/FORMAT.md.

use std::fmt::Write as _;
use std::rc::Rc;
use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::error::{Error, Result};
use crate::prove::pairing::PairingBoard;

pub use crate::board::cells::Cells;

mod proof_numbers;

/// The most cells a board may have (a set of cells is four 64-bit words):
/// 16 × 16.
pub const MAX_CELLS: usize = 256;

/// The first line of a zone proof certificate.
pub const CERTIFICATE_MAGIC: &str = "# retrograde zone proof certificate 2";

/// Bytes a table entry takes (its key, its zone, the map's overhead), to
/// size the table from a memory budget.
pub const BYTES_PER_ENTRY: u64 = 160;

/// A position for the prover: the attacker's and the defender's stones and
/// who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// The attacker's stones.
    pub attacker: Cells,
    /// The defender's stones.
    pub defender: Cells,
    /// Whether the attacker moves next.
    pub attacker_to_move: bool,
}

/// What the search knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker cannot win; the zone of the proof.
    Holds(Cells),
    /// The attacker wins.
    Falls,
    /// Not settled within the depth or the time.
    Open,
}

/// How a held position was proved, for the certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum How {
    /// A pairing of the open lines (recomputed when written).
    Pairing,
    /// The defender's move.
    Move(u32),
    /// The null move and the attacker's moves inside its zone.
    Expand,
}

#[derive(Clone, Copy, Debug)]
enum Entry {
    Held(Cells, How),
    Fell,
    /// Not settled with this many defender moves.
    OpenTo(u32),
    /// Not settled by the proof-number search: its numbers.
    Numbers(proof_numbers::Numbers),
}

/// How the prover searches (the leaves and zones are the same).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Search {
    /// Depth-first with iterative deepening on the defender's moves.
    Deepening,
    /// Depth-first proof-number search (`zone_proof/proof_numbers.rs`): the default,
    /// several times fewer positions on 7,7,5 and 6,4,4.
    #[default]
    ProofNumbers,
}

/// Counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProverStats {
    pub nodes: u64,
    /// Pairing searches started (`ZoneProver::pairing`).
    pub pairing_tries: u64,
    /// Steps those searches took in all (each at most `PAIRING_STEPS`).
    pub pairing_steps: u64,
    pub depth: u32,
}

/// The coverings of one board line (shared by the positions that need them).
type LineCoverings = Rc<Vec<Covering>>;

/// A maximal row, column or diagonal of at least `k` cells.
struct BoardLine {
    /// Its cells in order (at most 26).
    cells: Vec<u32>,
    /// Its windows of `k` cells, in order.
    windows: Vec<Cells>,
}

/// The prover for one board and one defender (module docs).
pub struct ZoneProver {
    board: PairingBoard,
    all: Cells,
    lines: Vec<Cells>,
    board_lines: Vec<BoardLine>,
    /// The coverings of a board line's live windows, by (line, live
    /// windows, attacker stones on the line): positions share them.
    coverings: FxHashMap<(u16, u32, u32), Option<LineCoverings>>,
    table: FxHashMap<Node, Entry>,
    max_entries: usize,
    deadline: Option<Instant>,
    stopped: bool,
    stats: ProverStats,
    max_nodes: u64,
    /// The node count at which the clock is read next.
    next_check: u64,
    search: Search,
}

impl ZoneProver {
    /// A prover on `board` (at most `MAX_CELLS` cells) that keeps at most
    /// `max_entries` positions and gives up at `deadline`.
    pub fn new(board: PairingBoard, max_entries: usize, deadline: Option<Instant>) -> Result<Self> {
        if board.cells() > MAX_CELLS {
            return Err(Error::InvalidInput(format!(
                "a {} × {} board has {} cells; the zone prover takes at most {MAX_CELLS}",
                board.cols,
                board.rows,
                board.cells()
            )));
        }
        let lines = crate::position::winning_lines(board.cols, board.rows, board.k)
            .iter()
            .map(|l| l.iter().fold(Cells::default(), |s, &c| s.with(c)))
            .collect();
        let all = (0..board.cells() as u32).fold(Cells::default(), |s, c| s.with(c));
        let k = board.k as usize;
        let board_lines = board
            .board_lines()
            .into_iter()
            .map(|cells| BoardLine {
                windows: cells
                    .windows(k)
                    .map(|w| w.iter().fold(Cells::default(), |s, &c| s.with(c)))
                    .collect(),
                cells,
            })
            .collect();
        Ok(Self {
            board,
            all,
            lines,
            board_lines,
            coverings: FxHashMap::default(),
            table: FxHashMap::default(),
            max_entries,
            deadline,
            stopped: false,
            stats: ProverStats::default(),
            max_nodes: u64::MAX,
            next_check: 0,
            search: Search::default(),
        })
    }

    /// The counts of the searches run so far.
    pub fn stats(&self) -> ProverStats {
        self.stats
    }

    /// Whether the last [`Self::prove`] stopped on the deadline or the
    /// table's limit (its `Open` says nothing then).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Chooses the search [`Self::prove`] runs.
    pub fn set_search(&mut self, search: Search) {
        self.search = search;
    }

    /// Proves `node`: `Holds` with the zone, `Falls`, or `Open` when the
    /// depth, the time or the table ran out. [`Search::Deepening`] deepens
    /// up to `max_depth` defender moves (the cells left bound it anyway);
    /// [`Search::ProofNumbers`] has no depth.
    pub fn prove(&mut self, node: Node, max_depth: u32) -> Verdict {
        if self.search == Search::ProofNumbers {
            return self.prove_by_numbers(node);
        }
        let empties = self.all.minus(node.attacker | node.defender).len();
        let deepest = max_depth.min(empties / 2 + 1);
        let mut verdict = Verdict::Open;
        for depth in 1..=deepest {
            self.stats.depth = depth;
            verdict = self.search(node, depth);
            if verdict != Verdict::Open || self.stopped {
                break;
            }
        }
        verdict
    }

    fn search(&mut self, n: Node, depth: u32) -> Verdict {
        if n.attacker_to_move {
            self.attacker_turn(n.attacker, n.defender, depth)
        } else {
            self.defender_turn(n.attacker, n.defender, depth, &[])
        }
    }

    /// The cells that complete a line for `side` against `other`.
    fn completions(&self, side: Cells, other: Cells) -> Cells {
        let k = self.board.k;
        let mut found = Cells::default();
        for line in &self.lines {
            if !line.meets(&other) && (*line & side).len() == k - 1 {
                found = found | line.minus(side);
            }
        }
        found
    }

    /// A line the defender completes with one move, if any.
    fn defender_line(&self, attacker: Cells, defender: Cells) -> Option<Cells> {
        let k = self.board.k;
        self.lines
            .iter()
            .find(|l| !l.meets(&attacker) && (**l & defender).len() == k - 1)
            .copied()
    }

    /// At the defender's turn `node`: when the defender completes a line
    /// with one move, enters the position as held by that move (its zone
    /// the line) and returns the line.
    fn held_by_defender_line(&mut self, node: Node) -> Option<Cells> {
        let line = self.defender_line(node.attacker, node.defender)?;
        let cell = line
            .minus(node.defender)
            .iter()
            .next()
            .expect("a line one stone short");
        self.store(node, Entry::Held(line, How::Move(cell)));
        Some(line)
    }

    /// At the attacker's turn `node`: when the defender owns a pairing,
    /// enters the position as held by it (its zone the pairs' cells) and
    /// returns the zone.
    fn held_by_pairing(&mut self, node: Node) -> Option<Cells> {
        let zone = self
            .pairing(node.attacker, node.defender)?
            .iter()
            .fold(Cells::default(), |s, &(x, y)| s.with(x).with(y));
        self.store(node, Entry::Held(zone, How::Pairing));
        Some(zone)
    }

    fn look_up(&self, n: &Node, depth: u32) -> Option<Verdict> {
        match self.table.get(n)? {
            Entry::Held(zone, _) => Some(Verdict::Holds(*zone)),
            Entry::Fell => Some(Verdict::Falls),
            Entry::OpenTo(d) if *d >= depth => Some(Verdict::Open),
            Entry::OpenTo(_) | Entry::Numbers(_) => None,
        }
    }

    fn store(&mut self, n: Node, entry: Entry) {
        if self.table.len() >= self.max_entries && !self.table.contains_key(&n) {
            self.stopped = true;
            return;
        }
        self.table.insert(n, entry);
    }

    fn out_of_time(&mut self) -> bool {
        if !self.stopped && self.stats.nodes >= self.next_check {
            self.next_check = self.stats.nodes + 1024;
            self.stopped = self.stats.nodes >= self.max_nodes
                || self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.stopped
    }

    /// Stops the search (as the deadline does) after about `max_nodes`.
    pub fn limit_nodes(&mut self, max_nodes: u64) {
        self.max_nodes = max_nodes;
    }

    /// The defender's pairing of the lines open to the attacker, if one is
    /// found within [`PAIRING_STEPS`]: every board line's coverings
    /// ([`line_coverings`], cached by the line's pattern), then one a line
    /// with no cell twice ([`choose_coverings`]).
    fn pairing(&mut self, attacker: Cells, defender: Cells) -> Option<Vec<(u32, u32)>> {
        self.stats.pairing_tries += 1;
        let mut lines = Vec::with_capacity(self.board_lines.len());
        for (index, line) in self.board_lines.iter().enumerate() {
            let mut live_mask = 0u32;
            for (i, w) in line.windows.iter().enumerate() {
                if !w.meets(&defender) {
                    // a live window with fewer than two free cells: no pair fits
                    if w.minus(attacker).len() < 2 {
                        return None;
                    }
                    live_mask |= 1 << i;
                }
            }
            if live_mask == 0 {
                continue;
            }
            let attacker_mask = line
                .cells
                .iter()
                .enumerate()
                .filter(|(_, &c)| attacker.has(c))
                .fold(0u32, |m, (i, _)| m | 1 << i);
            let key = (index as u16, live_mask, attacker_mask);
            let coverings = match self.coverings.get(&key) {
                Some(c) => c.clone(),
                None => {
                    let live: Vec<Cells> = line
                        .windows
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| live_mask >> i & 1 == 1)
                        .map(|(_, w)| *w)
                        .collect();
                    let c = line_coverings(&live, attacker).map(Rc::new);
                    self.coverings.insert(key, c.clone());
                    c
                }
            };
            lines.push(coverings?);
        }
        let mut budget = PAIRING_STEPS;
        let mut pairs = Vec::new();
        let found = choose_coverings(&mut lines, Cells::default(), &mut pairs, &mut budget);
        self.stats.pairing_steps += PAIRING_STEPS - budget;
        if !found {
            return None;
        }
        pairs.sort_unstable();
        Some(pairs)
    }

    /// Each empty cell's threat count for `side` against `other`: every
    /// line still open to `side` through it, weighted 8^(its stones).
    fn threat_scores(&self, side: Cells, other: Cells, scores: &mut [u64]) {
        for line in &self.lines {
            if line.meets(&other) {
                continue;
            }
            let weight = 1u64 << (3 * (*line & side).len());
            for c in line.minus(side).iter() {
                scores[c as usize] += weight;
            }
        }
    }

    /// `cells` ordered by their threat counts for both sides (blocking the
    /// attacker counts double), the highest first, ties by cell.
    fn ordered(&self, cells: Cells, attacker: Cells, defender: Cells) -> Vec<u32> {
        let mut scores = vec![0u64; self.board.cells()];
        self.threat_scores(attacker, defender, &mut scores);
        for s in scores.iter_mut() {
            *s *= 2;
        }
        self.threat_scores(defender, attacker, &mut scores);
        let mut moves: Vec<u32> = cells.iter().collect();
        moves.sort_by_key(|&c| std::cmp::Reverse(scores[c as usize]));
        moves
    }

    /// Counts a visit: the node and its empty cells.
    fn visit(&mut self, a: Cells, d: Cells, attacker_to_move: bool) -> (Node, Cells) {
        self.stats.nodes += 1;
        let node = Node {
            attacker: a,
            defender: d,
            attacker_to_move,
        };
        (node, self.all.minus(a | d))
    }

    /// Records an attacker's turn that a child's `verdict` (`Falls` or
    /// `Open` at `depth`) keeps from holding, and returns that verdict.
    fn record_failure(&mut self, node: Node, verdict: Verdict, depth: u32) -> Verdict {
        let entry = if verdict == Verdict::Falls {
            Entry::Fell
        } else {
            Entry::OpenTo(depth)
        };
        self.store(node, entry);
        verdict
    }

    fn attacker_turn(&mut self, a: Cells, d: Cells, depth: u32) -> Verdict {
        let (node, empty) = self.visit(a, d, true);
        if empty.is_empty() {
            return Verdict::Holds(Cells::default());
        }
        if !self.completions(a, d).is_empty() {
            return Verdict::Falls;
        }
        if let Some(v) = self.look_up(&node, depth) {
            return v;
        }
        if let Some(zone) = self.held_by_pairing(node) {
            return Verdict::Holds(zone);
        }
        if depth == 0 || self.out_of_time() {
            return Verdict::Open;
        }
        let mut zone = match self.defender_turn(a, d, depth, &[]) {
            Verdict::Holds(z) => z,
            other => return self.record_failure(node, other, depth),
        };
        // the defender's answers to try first: the partner of the attacker's
        // cell in the null move's pairing, the null move's own move, the
        // answer that held a sibling
        let (partner, null_move) = self.answers_from(node);
        let mut last_answer = None;
        // the attacker's most threatening moves first: a fall ends the search
        for m in self.ordered(zone & empty, d, a) {
            let hints = answer_hints(
                m,
                [Some(partner[m as usize]), null_move, last_answer],
                empty,
            );
            // each reply deepened on its own: an easy one is settled shallow
            let mut verdict = Verdict::Open;
            for dd in 1..=depth {
                verdict = self.defender_turn(a.with(m), d, dd, &hints);
                if verdict != Verdict::Open || self.stopped {
                    break;
                }
            }
            match verdict {
                Verdict::Holds(z) => {
                    zone = zone | z;
                    if let Some(Entry::Held(_, How::Move(r))) = self.table.get(&Node {
                        attacker: a.with(m),
                        attacker_to_move: false,
                        ..node
                    }) {
                        last_answer = Some(*r);
                    }
                }
                other => return self.record_failure(node, other, depth),
            }
        }
        let zone = self.guarded(zone, a, d);
        self.store(node, Entry::Held(zone, How::Expand));
        Verdict::Holds(zone)
    }

    /// The defender's answers at an attacker's turn `node` whose null move
    /// holds: each cell's partner in the pairing that follows the null
    /// move's answer (`u32::MAX` where none), and that answer.
    fn answers_from(&mut self, node: Node) -> (Vec<u32>, Option<u32>) {
        let null_move = match self.table.get(&Node {
            attacker_to_move: false,
            ..node
        }) {
            Some(Entry::Held(_, How::Move(r))) => Some(*r),
            _ => None,
        };
        let mut partner = vec![u32::MAX; self.board.cells()];
        if let Some(r) = null_move {
            let (a, d) = (node.attacker, node.defender.with(r));
            let after = Node {
                defender: d,
                ..node
            };
            if let Some(Entry::Held(_, How::Pairing)) = self.table.get(&after) {
                for (x, y) in self.pairing(a, d).unwrap_or_default() {
                    (partner[x as usize], partner[y as usize]) = (y, x);
                }
            }
        }
        (partner, null_move)
    }

    /// `zone` with the *guards* of an attacker's turn (module docs): every
    /// line open to the attacker gets two of its empty cells in the zone,
    /// the lowest of those outside `zone` added where it has fewer.
    fn guarded(&self, zone: Cells, a: Cells, d: Cells) -> Cells {
        let empty = self.all.minus(a | d);
        let mut guarded = zone;
        for line in &self.lines {
            if line.meets(&d) {
                continue;
            }
            let free = *line & empty;
            let inside = (free & zone).len();
            for c in free
                .minus(zone)
                .iter()
                .take(2usize.saturating_sub(inside as usize))
            {
                guarded = guarded.with(c);
            }
        }
        guarded
    }

    fn defender_turn(&mut self, a: Cells, d: Cells, depth: u32, hints: &[u32]) -> Verdict {
        let (node, empty) = self.visit(a, d, false);
        if empty.is_empty() {
            return Verdict::Holds(Cells::default());
        }
        if let Some(line) = self.held_by_defender_line(node) {
            return Verdict::Holds(line);
        }
        let threats = self.completions(a, d);
        if threats.len() >= 2 {
            return Verdict::Falls;
        }
        if let Some(v) = self.look_up(&node, depth) {
            return v;
        }
        if depth == 0 || self.out_of_time() {
            return Verdict::Open;
        }
        let moves = if threats.is_empty() {
            let mut moves = hints.to_vec();
            moves.extend(
                self.ordered(empty, a, d)
                    .into_iter()
                    .filter(|c| !hints.contains(c)),
            );
            moves
        } else {
            threats.iter().collect()
        };
        let mut open = false;
        for r in moves {
            match self.attacker_turn(a, d.with(r), depth - 1) {
                Verdict::Holds(z) => {
                    let zone = z.with(r);
                    self.store(node, Entry::Held(zone, How::Move(r)));
                    return Verdict::Holds(zone);
                }
                Verdict::Falls => {}
                Verdict::Open => {
                    open = true;
                    if self.stopped {
                        break;
                    }
                }
            }
        }
        if open {
            self.store(node, Entry::OpenTo(depth));
            Verdict::Open
        } else {
            self.store(node, Entry::Fell);
            Verdict::Falls
        }
    }

    /// The diagram of a node for the certificate: rows from the top
    /// separated by `/`, the first player's stones `X`, the second's `O`.
    fn diagram(&self, n: &Node, attacker_is_x: bool) -> String {
        let (xs, os) = if attacker_is_x {
            (n.attacker, n.defender)
        } else {
            (n.defender, n.attacker)
        };
        crate::position::mnk_diagram(self.board.cols, self.board.rows, |c| {
            if xs.has(c) {
                'X'
            } else if os.has(c) {
                'O'
            } else {
                '.'
            }
        })
    }

    /// Appends the entries of the proof of `root` (which must hold) to
    /// `text`: one line a position reached, each once (module docs,
    /// docs/FORMAT.md); returns how many. `attacker_is_x` names the sides.
    pub fn write_proof(
        &mut self,
        root: Node,
        attacker_is_x: bool,
        text: &mut String,
    ) -> Result<u64> {
        let side = |attacker_to_move: bool| {
            if attacker_to_move == attacker_is_x {
                'X'
            } else {
                'O'
            }
        };
        let mut written = std::collections::HashSet::new();
        let mut stack = vec![root];
        let mut count = 0u64;
        while let Some(n) = stack.pop() {
            if !written.insert(n) {
                continue;
            }
            let empty = self.all.minus(n.attacker | n.defender);
            if empty.is_empty() {
                continue; // a full board needs no entry
            }
            let (_, how) = self.held(&n, attacker_is_x)?;
            let board = self.diagram(&n, attacker_is_x);
            let to_move = side(n.attacker_to_move);
            count += 1;
            match how {
                How::Move(r) => {
                    let _ = writeln!(text, "move {to_move} {board} {}", self.board.cell_name(r));
                    let child = Node {
                        defender: n.defender.with(r),
                        attacker_to_move: true,
                        ..n
                    };
                    if self.defender_line(n.attacker, n.defender).is_none() {
                        stack.push(child);
                    }
                }
                How::Pairing => {
                    let pairs = self.pairing(n.attacker, n.defender).ok_or_else(|| {
                        Error::InvalidInput(format!("internal error: no pairing at {board}"))
                    })?;
                    let _ = write!(text, "pairing {to_move} {board}");
                    for (x, y) in pairs {
                        let _ = write!(
                            text,
                            " {} {}",
                            self.board.cell_name(x),
                            self.board.cell_name(y)
                        );
                    }
                    text.push('\n');
                }
                How::Expand => {
                    let _ = writeln!(text, "expand {to_move} {board}");
                    let null = Node {
                        attacker_to_move: false,
                        ..n
                    };
                    let (zone, _) = self.held(&null, attacker_is_x)?;
                    stack.push(null);
                    for m in (zone & empty).iter() {
                        stack.push(Node {
                            attacker: n.attacker.with(m),
                            attacker_to_move: false,
                            ..n
                        });
                    }
                }
            }
        }
        Ok(count)
    }

    /// The zone and proof of a position the proof needs (every one it
    /// reaches but a full board is in the table as held).
    fn held(&self, n: &Node, attacker_is_x: bool) -> Result<(Cells, How)> {
        match self.table.get(n) {
            Some(Entry::Held(zone, how)) => Ok((*zone, *how)),
            _ => Err(Error::InvalidInput(format!(
                "internal error: the proof has no entry for {}",
                self.diagram(n, attacker_is_x)
            ))),
        }
    }
}

/// The defender's answers to try first after the attacker's move `m`:
/// the candidates that are empty cells other than `m`, each once, in
/// order (`None` and `u32::MAX`, a cell with no partner, are skipped).
fn answer_hints(m: u32, candidates: [Option<u32>; 3], empty: Cells) -> Vec<u32> {
    let mut hints = Vec::with_capacity(candidates.len());
    for h in candidates.into_iter().flatten() {
        if h != m && h != u32::MAX && empty.has(h) && !hints.contains(&h) {
            hints.push(h);
        }
    }
    hints
}

/// The most steps of the search for a pairing at one position (past them
/// it gives up: no pairing is claimed, the prover searches on; a step
/// chooses one line's covering). Measured (results/PROOFS.md, "Zone
/// proofs"): on 8,8,5 most searches fail and used to run out of 1,000
/// steps; with 100 the proof-number search proved the defence after a1
/// in 205 s, where with 1,000 it had not in 150 s; 7,7,5 takes the same
/// time either way.
const PAIRING_STEPS: u64 = 100;

/// The most coverings kept for one board line (a longer list makes the
/// pairing search give up, which is sound: no pairing is claimed).
const MAX_LINE_COVERINGS: usize = 4096;

/// A way to cover the live windows of one board line: its cells and pairs.
#[derive(Clone, Debug)]
struct Covering {
    cells: Cells,
    pairs: Vec<(u32, u32)>,
}

/// Every covering of `windows` (the live windows of one board line, in
/// order) by disjoint pairs of cells not in `blocked`, keeping only those
/// whose cell sets are minimal (a covering with more cells than another is
/// never needed: the other lines only care which cells are taken). `None`
/// when there are more than [`MAX_LINE_COVERINGS`].
fn line_coverings(windows: &[Cells], blocked: Cells) -> Option<Vec<Covering>> {
    fn extend(
        windows: &[Cells],
        blocked: Cells,
        current: &mut Covering,
        found: &mut Vec<Covering>,
    ) -> bool {
        let taken = blocked | current.cells;
        let Some(&first) = windows.first() else {
            found.push(current.clone());
            return found.len() <= MAX_LINE_COVERINGS;
        };
        let free: Vec<u32> = first.minus(taken).iter().collect();
        for (i, &x) in free.iter().enumerate() {
            for &y in &free[i + 1..] {
                let both = Cells::one(x).with(y);
                // the windows after the first that the pair covers are a run
                let rest = windows
                    .iter()
                    .position(|w| (*w & both) != both)
                    .unwrap_or(windows.len());
                current.cells = current.cells | both;
                current.pairs.push((x, y));
                let more = extend(&windows[rest..], blocked, current, found);
                current.pairs.pop();
                current.cells = current.cells.minus(both);
                if !more {
                    return false;
                }
            }
        }
        true
    }
    let mut found = Vec::new();
    let mut current = Covering {
        cells: Cells::default(),
        pairs: Vec::new(),
    };
    if !extend(windows, blocked, &mut current, &mut found) {
        return None;
    }
    found.sort_by_key(|c| c.cells.len());
    let mut minimal: Vec<Covering> = Vec::new();
    for c in found {
        if !minimal.iter().any(|m| (m.cells & c.cells) == m.cells) {
            minimal.push(c);
        }
    }
    Some(minimal)
}

/// Chooses one covering a board line, no cell in two (the lines are the
/// variables of a small constraint search: the line with the fewest
/// coverings left first). `false` when none exists or `budget` steps are
/// spent; on success the chosen pairs are appended to `pairs`.
fn choose_coverings(
    lines: &mut Vec<Rc<Vec<Covering>>>,
    used: Cells,
    pairs: &mut Vec<(u32, u32)>,
    budget: &mut u64,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut tightest: Option<(usize, usize)> = None;
    for (i, options) in lines.iter().enumerate() {
        let fit = options.iter().filter(|c| !c.cells.meets(&used)).count();
        if fit == 0 {
            return false;
        }
        if tightest.is_none_or(|(_, f)| fit < f) {
            tightest = Some((i, fit));
        }
    }
    let Some((line, _)) = tightest else {
        return true;
    };
    let options = lines.swap_remove(line);
    for c in options.iter().filter(|c| !c.cells.meets(&used)) {
        let before = pairs.len();
        pairs.extend_from_slice(&c.pairs);
        if choose_coverings(lines, used | c.cells, pairs, budget) {
            return true;
        }
        pairs.truncate(before);
        if *budget == 0 {
            break;
        }
    }
    lines.push(options);
    let last = lines.len() - 1;
    lines.swap(line, last);
    false
}

/// What [`prove_draw`] settled about the empty board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawProof {
    /// Neither player can win: the certificate of both claims ("O draws",
    /// then "X draws"), the positions each lists, each search's counts
    /// (summed over its parts).
    Draw {
        /// The certificate's text.
        certificate: String,
        /// Positions each claim's certificate lists.
        entries: [u64; 2],
        /// Each claim's search counts.
        stats: [ProverStats; 2],
    },
    /// This player can force a line (shown by the search, not certified
    /// here: the win's proof tree is `crate::prove::proof_tree`'s).
    Wins {
        /// Whether the player who can win is the first (X).
        first_player: bool,
    },
    /// Not settled within the time, the nodes or the table: why.
    Open(String),
}

/// Proves the empty board of `board` a draw by two claims, each a search
/// of this module: the second player stops the first (the first player
/// attacks and moves first), then the first player stops the second (the
/// defender moves first). Each search's table has `memory_bytes / 2`
/// ([`BYTES_PER_ENTRY`] a position; the rest is the certificate's); each
/// claim stops after `max_nodes` or at `deadline`.
///
/// The first claim is proved in *parts* (`prove_split_claim`), each on a
/// fresh table: the null move, then one first move of each class under the
/// board's symmetries. The certificate lists each part's proof under a
/// `part` line, and the checker takes a part's root, once proved, for every
/// position symmetric to it (docs/FORMAT.md): on 8,8,5 the ten classes of
/// first moves stand for all 64, and the table only ever holds one part.
pub fn prove_draw(
    board: PairingBoard,
    memory_bytes: u64,
    deadline: Option<Instant>,
    max_nodes: u64,
) -> Result<DrawProof> {
    let mut certificate = format!(
        "{CERTIFICATE_MAGIC}\n# a draw: each claim's player stops the other from completing a line of {}\nmnk {} {} {}\n",
        board.k, board.cols, board.rows, board.k
    );
    let max_entries = (memory_bytes / BYTES_PER_ENTRY / 2).clamp(1, 1 << 32) as usize;
    let limits = Limits {
        max_entries,
        deadline,
        max_nodes,
    };
    let mut entries = [0; 2];
    let mut stats = [ProverStats::default(); 2];
    for (i, attacker_is_x) in [true, false].into_iter().enumerate() {
        let defender = if attacker_is_x { 'O' } else { 'X' };
        let _ = writeln!(certificate, "claim {defender} draws");
        let settled = if attacker_is_x {
            prove_split_claim(board, limits, &mut certificate, &mut stats[i])?
        } else {
            let root = Node {
                attacker: Cells::default(),
                defender: Cells::default(),
                attacker_to_move: false,
            };
            prove_part(board, root, false, limits, &mut certificate, &mut stats[i])?
        };
        match settled {
            Settled::Holds { entries: n, .. } => entries[i] = n,
            Settled::Falls => {
                return Ok(DrawProof::Wins {
                    first_player: attacker_is_x,
                })
            }
            Settled::Open => {
                let who = if attacker_is_x { "second" } else { "first" };
                return Ok(DrawProof::Open(format!(
                    "the {who} player's defence was not proved within the limits ({} positions searched)",
                    stats[i].nodes
                )));
            }
        }
    }
    Ok(DrawProof::Draw {
        certificate,
        entries,
        stats,
    })
}

/// The limits of one claim's search.
#[derive(Clone, Copy, Debug)]
struct Limits {
    /// Positions a part's table may hold.
    max_entries: usize,
    deadline: Option<Instant>,
    /// Positions the claim may search, over all its parts.
    max_nodes: u64,
}

/// How a claim or a part of one came out.
enum Settled {
    /// Proved: its root's zone and the positions its certificate lists.
    Holds {
        zone: Cells,
        entries: u64,
    },
    Falls,
    /// Stopped by a limit.
    Open,
}

/// Proves `root` on a fresh table and appends its proof to `text` (its
/// entries only: the caller writes any `part` line), adding the search's
/// counts to `stats`.
fn prove_part(
    board: PairingBoard,
    root: Node,
    attacker_is_x: bool,
    limits: Limits,
    text: &mut String,
    stats: &mut ProverStats,
) -> Result<Settled> {
    let mut prover = ZoneProver::new(board, limits.max_entries, limits.deadline)?;
    prover.limit_nodes(limits.max_nodes.saturating_sub(stats.nodes));
    let verdict = prover.prove(root, u32::MAX);
    let counts = prover.stats();
    stats.nodes += counts.nodes;
    stats.pairing_tries += counts.pairing_tries;
    stats.pairing_steps += counts.pairing_steps;
    stats.depth = stats.depth.max(counts.depth);
    Ok(match verdict {
        Verdict::Holds(zone) if !prover.stopped() => Settled::Holds {
            zone,
            entries: prover.write_proof(root, attacker_is_x, text)?,
        },
        Verdict::Falls => Settled::Falls,
        _ => Settled::Open,
    })
}

/// The claim that the second player (O) stops the first, who moves first,
/// proved in parts and appended to `text`. The root (the empty board, X to
/// move) is an `expand` entry; its null move (O moving first) is the first
/// part, and for every first move inside the null move's zone one part
/// proves the defence after a move of its class under the board's
/// symmetries (the first such cell in cell order). A root the defender
/// holds by a pairing is that one entry.
fn prove_split_claim(
    board: PairingBoard,
    limits: Limits,
    text: &mut String,
    stats: &mut ProverStats,
) -> Result<Settled> {
    let empty = Node {
        attacker: Cells::default(),
        defender: Cells::default(),
        attacker_to_move: true,
    };
    let mut prover = ZoneProver::new(board, 1 << 16, limits.deadline)?;
    if !prover
        .completions(empty.attacker, empty.defender)
        .is_empty()
    {
        return Ok(Settled::Falls);
    }
    if prover.held_by_pairing(empty).is_some() {
        let entries = prover.write_proof(empty, true, text)?;
        return Ok(Settled::Holds {
            zone: prover.zone_of(&empty),
            entries,
        });
    }
    let _ = writeln!(text, "expand X {}", prover.diagram(&empty, true));
    let mut listed = 1;
    let mut parts = String::new();
    let null = Node {
        attacker_to_move: false,
        ..empty
    };
    let _ = writeln!(parts, "part O {}", prover.diagram(&null, true));
    let zone = match prove_part(board, null, true, limits, &mut parts, stats)? {
        Settled::Holds { zone, entries } => {
            listed += entries;
            zone
        }
        other => return Ok(other),
    };
    let symmetries = crate::position::cell_symmetries(board.cols, board.rows);
    // each class by its least cell (the identity keeps `m` among them)
    let mut classes = Cells::default();
    for m in (zone & prover.all).iter() {
        let class = symmetries
            .iter()
            .map(|image| u32::from(image[m as usize]))
            .fold(m, u32::min);
        if classes.has(class) {
            continue;
        }
        classes = classes.with(class);
        let first = Node {
            attacker: Cells::one(m),
            ..null
        };
        let _ = writeln!(parts, "part O {}", prover.diagram(&first, true));
        match prove_part(board, first, true, limits, &mut parts, stats)? {
            Settled::Holds { entries, .. } => listed += entries,
            other => return Ok(other),
        }
    }
    text.push_str(&parts);
    // the whole board is a zone of any held position (its only extension
    // is itself); the parts' zones are each in its own class's frame
    Ok(Settled::Holds {
        zone: prover.all,
        entries: listed,
    })
}
