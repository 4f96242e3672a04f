//! Forgers: for every m,n,k board of at most 16 cells and every `k`, and
//! every claim the exhaustive tables say is false, search for a
//! certificate of that claim that the checkers of `retrograde_checker`
//! accept. None may be found: a checker is trusted because it refuses
//! every false claim.
//!
//! Each forger is a search over the entries its format allows (zone
//! proofs: `move`, `pairing`, `expand`; proof trees: `move`, `pairing`;
//! threat proofs: `move`, `vcf`, `cover`, `zone`, `vct`), built greedily
//! from the checker's own rules, with the rules a sloppy checker might
//! forget *relaxed*: the zone forger expands where the attacker has a
//! completion cell and lets the defender ignore one (the hole of
//! `zone-forgery-4-1-2.proof`), the proof-tree forger skips the other
//! player's completing replies and takes a full board for a win, the
//! threat forger answers every defender move by the attacker's proof after
//! a defender pass (a `zone` entry listing no cell) and lets the defender
//! move with a line to complete or on a full board. Whatever the relaxed
//! search "proves" is written out and handed to the real checker, which
//! must refuse it. Without the relaxations the same searches prove true
//! claims, and the checker must accept those (so the forgers write
//! certificates the checkers read, and the test cannot pass by writing
//! nonsense).
//!
//! Written for the tests only, on its own bit masks (cell `row · cols +
//! col`, row 0 at the top); the truth comes from the library's exhaustive
//! tables (`solve_mnk`, sides up to 5) or, on longer boards, from the
//! bitboard search.

use std::collections::HashMap;

use retrograde::{
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::layered::{solve_mnk, MnkSolution},
    games::mnk::Mnk,
    host::Budget,
    language::Outcome,
    BoardSize, Family,
};

use crate::common;
use crate::common::Rng;

/// Positions a forger may visit on one claim before it gives up.
const NODES: u64 = 60_000;

/// A board's cells and lines as bit masks.
struct Geometry {
    cols: u32,
    rows: u32,
    k: u32,
    all: u32,
    lines: Vec<u32>,
}

impl Geometry {
    fn new(cols: u32, rows: u32, k: u32) -> Self {
        let mut lines = Vec::new();
        for r in 0..rows as i32 {
            for c in 0..cols as i32 {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let cells: Vec<(i32, i32)> =
                        (0..k as i32).map(|i| (r + dr * i, c + dc * i)).collect();
                    let inside = cells
                        .iter()
                        .all(|&(y, x)| y >= 0 && x >= 0 && y < rows as i32 && x < cols as i32);
                    if inside {
                        let mask = cells
                            .iter()
                            .fold(0u32, |m, &(y, x)| m | 1 << (y * cols as i32 + x));
                        // k = 1: one cell is a line in every direction
                        if !lines.contains(&mask) {
                            lines.push(mask);
                        }
                    }
                }
            }
        }
        let cells = cols * rows;
        let all = if cells == 32 {
            u32::MAX
        } else {
            (1 << cells) - 1
        };
        Geometry {
            cols,
            rows,
            k,
            all,
            lines,
        }
    }

    fn has_line(&self, stones: u32) -> bool {
        self.lines.iter().any(|&l| l & !stones == 0)
    }

    fn line_of(&self, stones: u32) -> Option<u32> {
        self.lines.iter().copied().find(|&l| l & stones == l)
    }

    /// The empty cells that complete a line of `own` free of `other`.
    fn completions(&self, own: u32, other: u32) -> u32 {
        let mut cells = 0;
        for &l in &self.lines {
            let free = l & !own;
            if l & other == 0 && free.count_ones() == 1 {
                cells |= free;
            }
        }
        cells
    }

    fn cell(&self, c: u32) -> String {
        format!(
            "{}{}",
            (b'a' + (c % self.cols) as u8) as char,
            c / self.cols + 1
        )
    }

    fn diagram(&self, x: u32, o: u32) -> String {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        let bit = 1 << (r * self.cols + c);
                        if x & bit != 0 {
                            'X'
                        } else if o & bit != 0 {
                            'O'
                        } else {
                            '.'
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    fn board_line(&self) -> String {
        format!("mnk {} {} {}\n", self.cols, self.rows, self.k)
    }

    /// The empty cells of `taken`'s complement, lowest first.
    fn empty(&self, taken: u32) -> impl Iterator<Item = u32> {
        let free = self.all & !taken;
        (0..32).filter(move |c| free >> c & 1 == 1)
    }

    /// A pairing of the lines free of `owner`'s stones (each holding both
    /// cells of one pair of empty cells, no cell in two pairs), found by a
    /// bounded backtracking search.
    fn pairing(&self, owner: u32, taken: u32) -> Option<Vec<(u32, u32)>> {
        let open: Vec<u32> = self
            .lines
            .iter()
            .copied()
            .filter(|l| l & owner == 0)
            .collect();
        let mut pairs = Vec::new();
        let mut steps = 2_000;
        self.pair_lines(&open, taken, &mut pairs, &mut steps)
            .then_some(pairs)
    }

    fn pair_lines(
        &self,
        open: &[u32],
        taken: u32,
        pairs: &mut Vec<(u32, u32)>,
        steps: &mut u32,
    ) -> bool {
        let covered = |l: u32, pairs: &[(u32, u32)]| {
            pairs
                .iter()
                .any(|&(p, q)| l >> p & 1 == 1 && l >> q & 1 == 1)
        };
        let Some(&line) = open.iter().find(|&&l| !covered(l, pairs)) else {
            return true;
        };
        let used = pairs.iter().fold(taken, |m, &(p, q)| m | 1 << p | 1 << q);
        let free: Vec<u32> = (0..32)
            .filter(|c| line >> c & 1 == 1 && used >> c & 1 == 0)
            .collect();
        for (i, &p) in free.iter().enumerate() {
            for &q in &free[i + 1..] {
                if *steps == 0 {
                    return false;
                }
                *steps -= 1;
                pairs.push((p, q));
                if self.pair_lines(open, taken, pairs, steps) {
                    return true;
                }
                pairs.pop();
            }
        }
        false
    }

    fn pairs_text(&self, pairs: &[(u32, u32)]) -> String {
        pairs
            .iter()
            .map(|&(p, q)| format!(" {} {}", self.cell(p), self.cell(q)))
            .collect()
    }
}

/// Cells ordered for a mover: its own completions, then the other's,
/// then the rest, lowest first.
fn ordered(g: &Geometry, own: u32, other: u32) -> Vec<u32> {
    let taken = own | other;
    let win = g.completions(own, other);
    let block = g.completions(other, own);
    let mut cells: Vec<u32> = g.empty(taken).collect();
    cells.sort_by_key(|&c| (win >> c & 1 == 0, block >> c & 1 == 0, c));
    cells
}

// ---------------------------------------------------------------- zones

/// A zone proof entry of the forger.
enum ZoneEntry {
    Move(u32),
    Pairs(Vec<(u32, u32)>),
    Expand,
}

/// The zone forger for one claim: the defender (X or O) draws.
struct ZoneForger<'g> {
    g: &'g Geometry,
    defender_is_x: bool,
    relaxed: bool,
    nodes: u64,
    /// (attacker, defender, attacker to move) → the zone of its proof.
    memo: HashMap<(u32, u32, bool), Option<u32>>,
    entries: HashMap<(u32, u32, bool), ZoneEntry>,
}

impl<'g> ZoneForger<'g> {
    /// A forger of `defender draws` on `g` that visits at most `nodes`
    /// positions, with the sloppy checker's rules when `relaxed`.
    fn new(g: &'g Geometry, defender_is_x: bool, relaxed: bool, nodes: u64) -> Self {
        ZoneForger {
            g,
            defender_is_x,
            relaxed,
            nodes,
            memo: HashMap::new(),
            entries: HashMap::new(),
        }
    }

    fn holds(&mut self, a: u32, d: u32, attacker_to_move: bool) -> Option<u32> {
        let key = (a, d, attacker_to_move);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        if self.nodes == 0 {
            return None;
        }
        self.nodes -= 1;
        let found = if a | d == self.g.all {
            Some(0)
        } else if attacker_to_move {
            self.attacker_turn(a, d)
        } else {
            self.defender_turn(a, d)
        };
        self.memo.insert(key, found);
        found
    }

    fn defender_turn(&mut self, a: u32, d: u32) -> Option<u32> {
        let threats = self.g.completions(a, d);
        let mut best: Option<(u32, u32)> = None;
        let mut moves = ordered(self.g, d, a);
        if self.relaxed {
            // a defender threat first: the null move after it completes a
            // line, whose zone may leave out an attacker's completion cell
            let g = self.g;
            moves.sort_by_key(|&r| {
                g.completions(d | 1 << r, a) == 0 && g.line_of(d | 1 << r).is_none()
            });
        }
        for r in moves {
            let child = d | 1 << r;
            let zone = match self.g.line_of(child) {
                Some(line) => Some(line | 1 << r),
                None if !self.relaxed && threats & !(1 << r) != 0 => None,
                None => self.holds(a, child, true).map(|z| z | 1 << r),
            };
            if let Some(z) = zone {
                // defender moves chosen to shrink zones
                if best.is_none_or(|(_, b)| z.count_ones() < b.count_ones()) {
                    best = Some((r, z));
                }
            }
        }
        let (r, zone) = best?;
        self.entries.insert((a, d, false), ZoneEntry::Move(r));
        Some(zone)
    }

    fn attacker_turn(&mut self, a: u32, d: u32) -> Option<u32> {
        if !self.relaxed && self.g.completions(a, d) != 0 {
            return None;
        }
        if let Some(pairs) = self.g.pairing(d, a | d) {
            let zone = pairs.iter().fold(0, |m, &(p, q)| m | 1 << p | 1 << q);
            self.entries.insert((a, d, true), ZoneEntry::Pairs(pairs));
            return Some(zone);
        }
        // expand wherever it is allowed
        let null = self.holds(a, d, false)?;
        let mut zone = null;
        for m in self.g.empty(a | d).filter(|m| null >> m & 1 == 1) {
            if self.g.has_line(a | 1 << m) {
                return None;
            }
            zone |= self.holds(a | 1 << m, d, false)?;
        }
        // the guards, as the checker computes them
        let empty = self.g.all & !(a | d);
        let before = zone;
        for &l in &self.g.lines {
            if l & d != 0 {
                continue;
            }
            let inside = (l & empty & before).count_ones();
            let outside = (0..32).filter(|c| (l & empty & !before) >> c & 1 == 1);
            for c in outside.take(2usize.saturating_sub(inside as usize)) {
                zone |= 1 << c;
            }
        }
        self.entries.insert((a, d, true), ZoneEntry::Expand);
        Some(zone)
    }

    /// The claim's text with every entry the search proved.
    fn certificate(&self) -> String {
        let g = self.g;
        let (dl, al) = if self.defender_is_x {
            ('X', 'O')
        } else {
            ('O', 'X')
        };
        let mut text = format!("# retrograde zone proof certificate 2\n{}", g.board_line());
        text.push_str(&format!("claim {dl} draws\n"));
        let mut keys: Vec<_> = self.entries.keys().copied().collect();
        keys.sort_unstable();
        for (a, d, attacker_to_move) in keys {
            let (x, o) = if self.defender_is_x { (d, a) } else { (a, d) };
            let board = g.diagram(x, o);
            let side = if attacker_to_move { al } else { dl };
            text.push_str(&match &self.entries[&(a, d, attacker_to_move)] {
                ZoneEntry::Move(r) => format!("move {side} {board} {}\n", g.cell(*r)),
                ZoneEntry::Pairs(p) => format!("pairing {side} {board}{}\n", g.pairs_text(p)),
                ZoneEntry::Expand => format!("expand {side} {board}\n"),
            });
        }
        text
    }
}

/// Forges `defender draws` from (x, o) with `x_to_move`; the checker's
/// verdict on what the forger wrote, or `None` when it proved nothing.
fn forge_zone(
    g: &Geometry,
    (x, o, x_to_move): (u32, u32, bool),
    defender_is_x: bool,
    relaxed: bool,
) -> Option<Result<usize, String>> {
    let (a, d) = if defender_is_x { (o, x) } else { (x, o) };
    let mut forger = ZoneForger::new(g, defender_is_x, relaxed, NODES);
    forger.holds(a, d, x_to_move != defender_is_x)?;
    let text = forger.certificate();
    let start: Vec<u8> = (0..g.cols * g.rows)
        .map(|c| u8::from(x >> c & 1 == 1) + 2 * u8::from(o >> c & 1 == 1))
        .collect();
    let to_move = if x_to_move { 1 } else { 2 };
    Some(retrograde_checker::zones::check_claims_from(
        &text, &start, to_move,
    ))
}

// ---------------------------------------------------------- proof trees

/// The proof-tree forger for one claim from the empty board.
struct TreeForger<'g> {
    g: &'g Geometry,
    prover_is_x: bool,
    win: bool,
    relaxed: bool,
    nodes: u64,
    memo: HashMap<(u32, u32), bool>,
    moves: HashMap<(u32, u32), u32>,
    pairings: HashMap<(u32, u32), Vec<(u32, u32)>>,
}

impl TreeForger<'_> {
    /// Whether the claim holds from (prover's stones, other's stones).
    fn holds(&mut self, p: u32, q: u32) -> bool {
        if let Some(&known) = self.memo.get(&(p, q)) {
            return known;
        }
        if self.nodes == 0 {
            return false;
        }
        self.nodes -= 1;
        let found = self.search(p, q);
        self.memo.insert((p, q), found);
        found
    }

    fn search(&mut self, p: u32, q: u32) -> bool {
        let g = self.g;
        if p | q == g.all {
            return !self.win || self.relaxed;
        }
        if !self.win || self.relaxed {
            if let Some(pairs) = g.pairing(p, p | q) {
                self.pairings.insert((p, q), pairs);
                return true;
            }
        }
        let (xs, os) = if self.prover_is_x {
            (p.count_ones(), q.count_ones())
        } else {
            (q.count_ones(), p.count_ones())
        };
        let prover_to_move = (xs == os) == self.prover_is_x;
        if prover_to_move {
            for m in ordered(g, p, q) {
                if g.has_line(p | 1 << m) || self.holds(p | 1 << m, q) {
                    self.moves.insert((p, q), m);
                    return true;
                }
            }
            false
        } else {
            for m in ordered(g, q, p) {
                if g.has_line(q | 1 << m) {
                    if self.relaxed {
                        continue;
                    }
                    return false;
                }
                if !self.holds(p, q | 1 << m) {
                    return false;
                }
            }
            true
        }
    }

    fn certificate(&self) -> String {
        let g = self.g;
        let letter = if self.prover_is_x { 'X' } else { 'O' };
        let what = if self.win { "wins" } else { "draws" };
        let mut text = format!("# retrograde proof certificate 1\n{}", g.board_line());
        text.push_str(&format!("claim {letter} {what}\n"));
        let board = |&(p, q): &(u32, u32)| {
            if self.prover_is_x {
                g.diagram(p, q)
            } else {
                g.diagram(q, p)
            }
        };
        let mut keys: Vec<_> = self.moves.keys().collect();
        keys.sort_unstable();
        for key in keys {
            text.push_str(&format!(
                "move {} {}\n",
                board(key),
                g.cell(self.moves[key])
            ));
        }
        let mut keys: Vec<_> = self.pairings.keys().collect();
        keys.sort_unstable();
        for key in keys {
            let pairs = g.pairs_text(&self.pairings[key]);
            text.push_str(&format!("pairing {}{pairs}\n", board(key)));
        }
        text
    }
}

fn forge_tree(
    g: &Geometry,
    prover_is_x: bool,
    win: bool,
    relaxed: bool,
) -> Option<Result<Vec<String>, String>> {
    let mut forger = TreeForger {
        g,
        prover_is_x,
        win,
        relaxed,
        nodes: NODES,
        memo: HashMap::new(),
        moves: HashMap::new(),
        pairings: HashMap::new(),
    };
    if !forger.holds(0, 0) {
        return None;
    }
    Some(retrograde_checker::proof_tree::check_certificate(
        &forger.certificate(),
    ))
}

// -------------------------------------------------------- threat proofs

/// How the threat forger answers an attacker's turn.
#[derive(Clone)]
enum Attack {
    Move(u32),
    Run(Vec<u32>),
}

/// The threat forger for one claim: the attacker wins from a root.
struct ThreatForger<'g> {
    g: &'g Geometry,
    attacker_is_x: bool,
    relaxed: bool,
    nodes: u64,
    /// Attacker turns by (attacker, defender): how, or `None` (fails).
    attacks: HashMap<(u32, u32), Option<Attack>>,
    /// Defender turns by (attacker, defender): whether they hold.
    defences: HashMap<(u32, u32), bool>,
    /// Defender turns answered by the pass (`zone` with no cell).
    passes: Vec<(u32, u32)>,
    /// Covers by defender turn.
    covers: HashMap<(u32, u32), Vec<Vec<u32>>>,
    rng: Rng,
}

impl ThreatForger<'_> {
    /// A run of fours that wins by the checker's replay from (a, d), the
    /// attacker to move, of at most `depth` moves.
    fn run(&self, a: u32, d: u32, depth: u32) -> Option<Vec<u32>> {
        let g = self.g;
        let theirs = g.completions(d, a);
        if depth == 0 || theirs.count_ones() >= 2 {
            return None;
        }
        for m in g.empty(a | d) {
            if theirs != 0 && theirs != 1 << m {
                continue;
            }
            let mine = g.completions(a | 1 << m, d);
            match mine.count_ones() {
                0 => continue,
                1 => {
                    let block = mine.trailing_zeros();
                    if let Some(mut rest) = self.run(a | 1 << m, d | 1 << block, depth - 1) {
                        rest.insert(0, m);
                        return Some(rest);
                    }
                }
                _ => return Some(vec![m]),
            }
        }
        None
    }

    fn attack(&mut self, a: u32, d: u32) -> bool {
        let g = self.g;
        if g.completions(a, d) != 0 {
            return true;
        }
        if let Some(known) = self.attacks.get(&(a, d)) {
            return known.is_some();
        }
        if self.nodes == 0 || a | d == g.all {
            return false;
        }
        self.nodes -= 1;
        self.attacks.insert((a, d), None);
        let mut how = self.run(a, d, 3).map(Attack::Run);
        if how.is_none() {
            for m in ordered(g, a, d) {
                if g.has_line(a | 1 << m) || self.defend(a | 1 << m, d) {
                    how = Some(Attack::Move(m));
                    break;
                }
            }
        }
        let found = how.is_some();
        self.attacks.insert((a, d), how);
        found
    }

    fn defend(&mut self, a: u32, d: u32) -> bool {
        let g = self.g;
        if let Some(&known) = self.defences.get(&(a, d)) {
            return known;
        }
        if !self.relaxed && (a | d == g.all || g.completions(d, a) != 0) {
            return false;
        }
        self.defences.insert((a, d), false);
        // a pass answers every move: a zone entry that lists no cell
        if self.relaxed && self.attack(a, d) {
            self.passes.push((a, d));
            self.defences.insert((a, d), true);
            return true;
        }
        let mut holds = true;
        for x in ordered(g, d, a) {
            if self.attack(a, d | 1 << x) {
                continue;
            }
            if let Some(run) = self.run(a, d | 1 << x, 3) {
                self.covers.entry((a, d)).or_default().push(run);
                continue;
            }
            holds = false;
            break;
        }
        self.defences.insert((a, d), holds);
        holds
    }

    fn board(&self, a: u32, d: u32) -> String {
        if self.attacker_is_x {
            self.g.diagram(a, d)
        } else {
            self.g.diagram(d, a)
        }
    }

    fn cells(&self, run: &[u32]) -> String {
        run.iter()
            .map(|&c| format!(" {}", self.g.cell(c)))
            .collect()
    }

    /// The attacker step of a vct tree from (a, d), at most `budget`
    /// tokens, or `None` when the proof below is larger.
    fn tree(&self, a: u32, d: u32, budget: &mut i32) -> Option<String> {
        *budget -= 1;
        if *budget < 0 {
            return None;
        }
        let g = self.g;
        if g.completions(a, d) != 0 {
            return Some("*".into());
        }
        match self.attacks.get(&(a, d))?.as_ref()? {
            Attack::Run(run) => Some(format!("({} )", self.cells(run))),
            Attack::Move(m) => {
                let (a2, mut step) = (a | 1 << m, g.cell(*m));
                if g.has_line(a2) {
                    return Some(format!("{step} [ ]"));
                }
                if self.passes.contains(&(a2, d)) {
                    return None;
                }
                step.push_str(" [");
                for run in self.covers.get(&(a2, d)).into_iter().flatten() {
                    step.push_str(&format!(" ({} )", self.cells(run)));
                }
                for x in g.empty(a2 | d) {
                    if self
                        .attacks
                        .get(&(a2, d | 1 << x))
                        .is_some_and(Option::is_some)
                    {
                        let below = self.tree(a2, d | 1 << x, budget)?;
                        step.push_str(&format!(" {} {below}", g.cell(x)));
                    }
                }
                step.push_str(" ]");
                Some(step)
            }
        }
    }

    fn certificate(&mut self, root: (u32, u32)) -> String {
        let g = self.g;
        let letter = if self.attacker_is_x { 'X' } else { 'O' };
        let mut text = format!(
            "# retrograde threat proof certificate 3\n{}",
            g.board_line()
        );
        let (x, o) = if self.attacker_is_x {
            root
        } else {
            (root.1, root.0)
        };
        text.push_str(&format!("claim {letter} wins\nroot {}\n", g.diagram(x, o)));
        let mut keys: Vec<(u32, u32)> = self.attacks.keys().copied().collect();
        keys.sort_unstable();
        for (a, d) in keys {
            let board = self.board(a, d);
            let entry = match &self.attacks[&(a, d)] {
                None => continue,
                Some(Attack::Run(run)) => format!("vcf {board}{}\n", self.cells(run)),
                Some(Attack::Move(m)) => {
                    // some attacker turns written as one threat-space tree
                    let tree = if self.rng.chance(30) {
                        self.tree(a, d, &mut 200)
                    } else {
                        None
                    };
                    match tree {
                        Some(tree) => format!("vct {board} {tree}\n"),
                        None => format!("move {board} {}\n", g.cell(*m)),
                    }
                }
            };
            text.push_str(&entry);
        }
        for &(a, d) in &self.passes {
            text.push_str(&format!("zone {}\n", self.board(a, d)));
        }
        let mut keys: Vec<&(u32, u32)> = self.covers.keys().collect();
        keys.sort_unstable();
        for &(a, d) in keys {
            for run in &self.covers[&(a, d)] {
                text.push_str(&format!("cover {}{}\n", self.board(a, d), self.cells(run)));
            }
        }
        text
    }
}

/// Forges `attacker wins` from (x, o) with `x_to_move` (as the stones
/// say); the checker's verdict, or `None` when the forger proved nothing.
fn forge_threats(
    g: &Geometry,
    (x, o, x_to_move): (u32, u32, bool),
    attacker_is_x: bool,
    relaxed: bool,
    seed: u64,
) -> Option<Result<usize, String>> {
    let (a, d) = if attacker_is_x { (x, o) } else { (o, x) };
    let mut forger = ThreatForger {
        g,
        attacker_is_x,
        relaxed,
        nodes: NODES,
        attacks: HashMap::new(),
        defences: HashMap::new(),
        passes: Vec::new(),
        covers: HashMap::new(),
        rng: Rng::new(seed),
    };
    let proved = if x_to_move == attacker_is_x {
        forger.attack(a, d)
    } else {
        forger.defend(a, d)
    };
    if !proved {
        return None;
    }
    let text = forger.certificate((a, d));
    Some(retrograde_checker::threats::check_certificate(&text))
}

// ---------------------------------------------------------------- runs

/// What the forgers did on a set of boards.
#[derive(Debug, Default)]
struct Tally {
    /// False claims tried.
    false_claims: u64,
    /// Certificates of false claims the relaxed forgers wrote (each
    /// refused by its checker, or the run fails).
    forged: u64,
    /// True claims tried without relaxations, and accepted.
    true_claims: u64,
    accepted: u64,
}

/// The value of a position for the player to move: from the exhaustive
/// tables where the library builds them (sides up to 5), else from the
/// bitboard search (exact; checked against the tables in
/// `tests/search/`).
enum Truth {
    Tables(MnkSolution),
    Search(Box<(Bitboard, BoardSearcher<'static>)>, (u32, u32)),
}

impl Truth {
    fn new(cols: u32, rows: u32, k: u32) -> Self {
        let size = BoardSize { cols, rows, k };
        if cols <= 5 && rows <= 5 {
            let game = Mnk::new(size).unwrap();
            Truth::Tables(solve_mnk(&game, &Budget::unlimited()).unwrap())
        } else {
            let bitboard = Bitboard::new(Family::Mnk, size).unwrap();
            let searcher = BoardSearcher::quiet(bitboard.clone(), 1 << 18);
            Truth::Search(Box::new((bitboard, searcher)), (cols, rows))
        }
    }

    fn value(&self, x: u32, o: u32) -> Outcome {
        match self {
            Truth::Tables(table) => table.lookup(x, o).expect("a position in play").0,
            Truth::Search(search, size) => {
                let (bitboard, searcher) = &**search;
                common::bitboard_value(bitboard, searcher, *size, (x.into(), o.into()))
            }
        }
    }
}

/// A random position in play of `g` (no line, a move left) with X to move
/// when the stones are even: a random game of random length.
fn random_position(g: &Geometry, rng: &mut Rng) -> Option<(u32, u32, bool)> {
    let cells = g.cols * g.rows;
    let (mut x, mut o) = (0u32, 0u32);
    let plies = rng.below(u64::from(cells));
    for ply in 0..plies {
        let free: Vec<u32> = g.empty(x | o).collect();
        let c = free[rng.below(free.len() as u64) as usize];
        if ply % 2 == 0 {
            x |= 1 << c;
        } else {
            o |= 1 << c;
        }
        if g.has_line(x) || g.has_line(o) {
            return None;
        }
    }
    (x | o != g.all).then_some((x, o, x.count_ones() == o.count_ones()))
}

/// Runs every forger on one board: the empty board's claims and
/// `positions` random positions' claims (zones and threats, which start
/// anywhere); panics on any false claim accepted, or a true claim refused.
fn forge_board(cols: u32, rows: u32, k: u32, positions: u32, tally: &mut Tally) {
    let g = Geometry::new(cols, rows, k);
    let truth = Truth::new(cols, rows, k);
    let value = |x: u32, o: u32| truth.value(x, o);
    let name = format!("{cols},{rows},{k}");
    let mut rng = Rng::new(u64::from(cols * 1_000 + rows * 100 + k));

    // proof trees: the four claims from the empty board
    let root = value(0, 0);
    for (prover_is_x, win) in [(true, true), (false, true), (true, false), (false, false)] {
        let truth = match (prover_is_x, win) {
            (true, true) => root == Outcome::Win,
            (true, false) => root != Outcome::Loss,
            (false, true) => root == Outcome::Loss,
            (false, false) => root != Outcome::Win,
        };
        let claim = format!(
            "{} {}",
            if prover_is_x { 'X' } else { 'O' },
            if win { "wins" } else { "draws" }
        );
        if truth {
            tally.true_claims += 1;
            if let Some(verdict) = forge_tree(&g, prover_is_x, win, false) {
                assert!(
                    verdict.is_ok(),
                    "{name}: proof tree of {claim}: {verdict:?}"
                );
                tally.accepted += 1;
            }
        } else {
            tally.false_claims += 1;
            if let Some(verdict) = forge_tree(&g, prover_is_x, win, true) {
                tally.forged += 1;
                assert!(
                    verdict.is_err(),
                    "{name}: a forged proof tree of the false claim {claim} accepted"
                );
            }
        }
    }

    // zones and threats: from the empty board and random positions
    let mut starts = vec![(0, 0, true)];
    while (starts.len() as u32) <= positions {
        if let Some(start) = random_position(&g, &mut rng) {
            starts.push(start);
        } else if g.lines.is_empty() || rng.chance(1) {
            starts.push((0, 0, true));
        }
    }
    for (i, &(x, o, x_to_move)) in starts.iter().enumerate() {
        let v = value(x, o);
        let at = format!(
            "{name} from {} ({} to move)",
            g.diagram(x, o),
            if x_to_move { 'X' } else { 'O' }
        );
        // who wins, if anyone
        let winner_is_x = match v {
            Outcome::Win => Some(x_to_move),
            Outcome::Loss => Some(!x_to_move),
            Outcome::Draw => None,
        };
        for side_is_x in [true, false] {
            // zone claim: `side` draws
            let draws = winner_is_x != Some(!side_is_x);
            if draws {
                tally.true_claims += 1;
                if let Some(verdict) = forge_zone(&g, (x, o, x_to_move), side_is_x, false) {
                    assert!(
                        verdict.is_ok(),
                        "{at}: zone proof of a true draw claim: {verdict:?}"
                    );
                    tally.accepted += 1;
                }
            } else {
                tally.false_claims += 1;
                if let Some(verdict) = forge_zone(&g, (x, o, x_to_move), side_is_x, true) {
                    tally.forged += 1;
                    assert!(
                        verdict.is_err(),
                        "{at}: a forged zone proof that {} draws accepted",
                        if side_is_x { 'X' } else { 'O' }
                    );
                }
            }
            // threat claim: `side` wins
            let seed = rng.next_u64() ^ i as u64;
            if winner_is_x == Some(side_is_x) {
                tally.true_claims += 1;
                if let Some(verdict) = forge_threats(&g, (x, o, x_to_move), side_is_x, false, seed)
                {
                    assert!(
                        verdict.is_ok(),
                        "{at}: threat proof of a true win: {verdict:?}"
                    );
                    tally.accepted += 1;
                }
            } else {
                tally.false_claims += 1;
                if let Some(verdict) = forge_threats(&g, (x, o, x_to_move), side_is_x, true, seed) {
                    tally.forged += 1;
                    assert!(
                        verdict.is_err(),
                        "{at}: a forged threat proof that {} wins accepted",
                        if side_is_x { 'X' } else { 'O' }
                    );
                }
            }
        }
    }
}

/// Every board of at most `cells` cells (sides from 1) with every `k` up
/// to its longer side.
fn boards_up_to(cells: u32) -> Vec<(u32, u32, u32)> {
    let mut boards = Vec::new();
    for cols in 1..=cells {
        for rows in 1..=cells / cols {
            for k in 1..=cols.max(rows) {
                boards.push((cols, rows, k));
            }
        }
    }
    boards
}

fn forge_boards(cells: u32, positions: u32) -> Tally {
    let mut tally = Tally::default();
    for (cols, rows, k) in boards_up_to(cells) {
        forge_board(cols, rows, k, positions, &mut tally);
    }
    tally
}

#[test]
fn no_false_claim_is_accepted_on_boards_up_to_16_cells() {
    let tally = forge_boards(16, 12);
    eprintln!("{tally:?}");
    // the forgers are not idle: they forged certificates of false claims
    // (all refused) and proved true ones (all accepted)
    assert!(tally.forged > 100, "{tally:?}");
    assert!(tally.accepted > tally.true_claims / 2, "{tally:?}");
}

#[test]
#[ignore = "minutes: every board up to 20 cells, more positions"]
fn no_false_claim_is_accepted_on_boards_up_to_20_cells() {
    let tally = forge_boards(20, 40);
    eprintln!("{tally:?}");
    assert!(tally.forged > 100, "{tally:?}");
}

/// Writes the zone forger's certificate of a board's empty position, both
/// claims, the false one forged with the relaxed rules: how the fixture
/// `tests/fixtures/proofs/zone-forgery-4-4-3.proof` was made against the
/// checker before issue 86's fix (which accepted it). `RG_FORGE=4,4,3
/// RG_FORGE_OUT=FILE cargo test --release --test provers
/// forgers::write_a_forged_zone_certificate -- --ignored`.
#[test]
#[ignore = "a documented run: writes a file"]
fn write_a_forged_zone_certificate() {
    let board: Vec<u32> = std::env::var("RG_FORGE")
        .expect("RG_FORGE=COLS,ROWS,K")
        .split(',')
        .map(|n| n.parse().unwrap())
        .collect();
    let g = Geometry::new(board[0], board[1], board[2]);
    let root = Truth::new(board[0], board[1], board[2]).value(0, 0);
    let mut text = String::new();
    for defender_is_x in [false, true] {
        let draws = root == Outcome::Draw || defender_is_x;
        let (a, d) = (0, 0);
        let nodes = std::env::var("RG_FORGE_NODES").map_or(NODES, |n| n.parse().unwrap());
        let mut forger = ZoneForger::new(&g, defender_is_x, !draws, nodes);
        forger
            .holds(a, d, !defender_is_x)
            .expect("the forger proves the claim");
        let claim = forger.certificate();
        let start = if text.is_empty() {
            0
        } else {
            claim.find("claim").unwrap()
        };
        text.push_str(&claim[start..]);
    }
    std::fs::write(std::env::var("RG_FORGE_OUT").unwrap(), text).unwrap();
}
