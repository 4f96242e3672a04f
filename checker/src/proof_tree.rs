//! A checker of proof certificates (`### Proof certificates` in
//! `docs/FORMAT.md`), written apart from the library: it knows only the
//! rules (its own lines, its own parser; no shared code with
//! `prove::proof_tree`) and tries every reply of the player who does not
//! prove.
//!
//! **The rules it trusts**, each with why it is sound (a claim: the
//! *prover* wins, or for `draws` at least draws, from the empty board; the
//! side to move follows from the stones, X first):
//!
//! 1. *The prover to move*: its listed move must be on an empty cell; a
//!    move completing the prover's line ends the line of play (a win, and
//!    so at least a draw); else the position it leads to must hold. One
//!    move is all a player needs.
//! 2. *The other player to move*: every empty cell is played; one
//!    completing the other's line is refused; every other must lead to a
//!    position that holds. So no reply is left unanswered.
//! 3. *A full board* ends a draw claim (no line was completed on the way,
//!    by rule 2) and is refused for a win claim.
//! 4. *A pairing* ends a draw claim (refused for a win claim): pairs of
//!    distinct empty cells, none in two pairs, every line free of the
//!    prover's stones holding both cells of one. Whoever is to move, the
//!    prover answers each stone of the other's on a paired cell with its
//!    partner (and plays anywhere otherwise: an extra stone never hurts on
//!    an m,n,k board), so every open line keeps a prover stone.
//!
//! A position is checked once (memoised by its stones); one that is
//! neither listed nor closed by rules 3–4 is refused.

use std::collections::{HashMap, HashSet};

use crate::lines::{cell_lines, parse_cell};
use crate::meter::Meter;
use crate::{Checked, Kind, Limits};

/// What a certificate lists at a position.
enum Listed {
    Move(usize),
    Pairs(Vec<(usize, usize)>),
}

/// One claim being replayed.
struct Replay<'a> {
    meter: &'a mut Meter,
    cols: usize,
    lines: &'a [Vec<usize>],
    prover: u8,
    win: bool,
    listed: &'a HashMap<String, Listed>,
    done: HashSet<Vec<u8>>,
}

impl Replay<'_> {
    fn diagram(&self, cells: &[u8]) -> String {
        let rows: Vec<String> = cells
            .chunks(self.cols)
            .map(|r| {
                r.iter()
                    .map(|&c| [b'.', b'X', b'O'][c as usize] as char)
                    .collect()
            })
            .collect();
        rows.join("/")
    }

    fn has_line(&self, cells: &[u8], who: u8) -> bool {
        self.lines
            .iter()
            .any(|l| l.iter().all(|&c| cells[c] == who))
    }

    /// Whether the claim holds from `cells` (no line on it), by the
    /// certificate: `Err` names the position where it fails.
    fn holds(&mut self, cells: Vec<u8>) -> Result<(), String> {
        if self.done.contains(&cells) {
            return Ok(());
        }
        self.meter.hold()?;
        let at = self.diagram(&cells);
        let fail = |why: &str| Err(format!("{why} at {at}"));
        let xs = cells.iter().filter(|&&c| c == 1).count();
        let os = cells.iter().filter(|&&c| c == 2).count();
        let to_move = if xs == os { 1 } else { 2 };
        let other = 3 - self.prover;
        match self.listed.get(&at) {
            Some(Listed::Pairs(pairs)) => {
                if self.win {
                    return fail("a pairing proves no win");
                }
                let mut partner = HashMap::new();
                for &(a, b) in pairs {
                    if a == b || cells[a] != 0 || cells[b] != 0 {
                        return fail("a pair of cells not both empty");
                    }
                    if partner.insert(a, b).is_some() || partner.insert(b, a).is_some() {
                        return fail("a cell paired twice");
                    }
                }
                for line in self.lines {
                    let blocked = line.iter().any(|&c| cells[c] == self.prover);
                    let covered = line
                        .iter()
                        .any(|c| partner.get(c).is_some_and(|p| line.contains(p)));
                    if !blocked && !covered {
                        return fail("an open line without a pair");
                    }
                }
            }
            _ if cells.iter().all(|&c| c != 0) => {
                if self.win {
                    return fail("a full board is no win");
                }
            }
            listed if to_move == self.prover => {
                let Some(Listed::Move(m)) = listed else {
                    return fail("no move listed");
                };
                if cells[*m] != 0 {
                    return fail("the listed move is on a stone");
                }
                let mut next = cells.clone();
                next[*m] = self.prover;
                if !self.has_line(&next, self.prover) {
                    self.holds(next)?;
                }
            }
            _ => {
                for m in (0..cells.len()).filter(|&m| cells[m] == 0) {
                    let mut next = cells.clone();
                    next[m] = other;
                    if self.has_line(&next, other) {
                        return fail("the other player completes a line");
                    }
                    self.holds(next)?;
                }
            }
        }
        self.done.insert(cells);
        Ok(())
    }
}

/// Replays every claim of a certificate from the empty board: the claims
/// (as `X wins`, `O draws`) if all hold, else why not.
pub fn check_certificate(text: &str) -> Result<Vec<String>, String> {
    check(text).map(|checked| checked.claims)
}

/// Replays every claim of a certificate from the empty board: the board,
/// the claims and the positions replayed (each claim's distinct positions
/// from which it was found to hold, summed) if all hold, else why not.
pub fn check(text: &str) -> Result<Checked, String> {
    check_metered(text, &mut Meter::new(&Limits::none()))
}

/// [`check`], counting each position replayed on `meter`.
pub(crate) fn check_metered(text: &str, meter: &mut Meter) -> Result<Checked, String> {
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') || l.contains("certificate"));
    if lines.next() != Some("# retrograde proof certificate 1") {
        return Err("not a proof certificate".into());
    }
    let board: Vec<usize> = lines
        .next()
        .and_then(|l| l.strip_prefix("mnk "))
        .map(|l| l.split(' ').filter_map(|w| w.parse().ok()).collect())
        .unwrap_or_default();
    let [cols, rows, k] = board[..] else {
        return Err("bad board line".into());
    };
    // (issue 73, line 9: `mnk 4 4 0` was accepted) a board of cells and a
    // line of at least one stone
    if cols == 0 || rows == 0 || k == 0 || cols.checked_mul(rows).is_none_or(|c| c > 64) {
        return Err(format!("bad board line: mnk {cols} {rows} {k}"));
    }
    let index = |name: &str| -> Result<usize, String> {
        match parse_cell(name) {
            Some((c, r)) if (c as usize) < cols && (r as usize) < rows => {
                Ok(r as usize * cols + c as usize)
            }
            _ => Err(format!("bad cell {name}")),
        }
    };
    let board_lines = cell_lines(cols, rows, k);
    // the sections: a claim, then its listed positions
    let mut sections: Vec<(String, HashMap<String, Listed>)> = Vec::new();
    for line in lines {
        let words: Vec<&str> = line.split(' ').collect();
        match words[..] {
            ["claim", _, _] => sections.push((line.to_string(), HashMap::new())),
            ["move", board, cell] => {
                let (_, listed) = sections.last_mut().ok_or("an entry before any claim")?;
                listed.insert(board.to_string(), Listed::Move(index(cell)?));
            }
            ["pairing", board, ref cells @ ..] if cells.len() % 2 == 0 => {
                let (_, listed) = sections.last_mut().ok_or("an entry before any claim")?;
                let cells: Vec<usize> = cells.iter().map(|c| index(c)).collect::<Result<_, _>>()?;
                let pairs = cells.chunks(2).map(|p| (p[0], p[1])).collect();
                listed.insert(board.to_string(), Listed::Pairs(pairs));
            }
            _ => return Err(format!("bad line {line:?}")),
        }
    }
    // (a certificate of no claim proves nothing)
    if sections.is_empty() {
        return Err("the certificate makes no claim".into());
    }
    let mut proved = Vec::new();
    let mut positions = 0;
    for (claim, listed) in &sections {
        let (prover, win) = match claim.as_str() {
            "claim X wins" => (1, true),
            "claim O wins" => (2, true),
            "claim X draws" => (1, false),
            "claim O draws" => (2, false),
            _ => return Err(format!("bad claim {claim:?}")),
        };
        let mut replay = Replay {
            meter: &mut *meter,
            cols,
            lines: &board_lines,
            prover,
            win,
            listed,
            done: HashSet::new(),
        };
        replay.holds(vec![0; cols * rows])?;
        positions += replay.done.len();
        proved.push(claim.trim_start_matches("claim ").to_string());
    }
    Ok(Checked {
        kind: Kind::ProofTree,
        board: (cols, rows, k),
        claims: proved,
        root: None,
        positions: Some(positions),
    })
}
