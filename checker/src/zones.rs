//! A checker of zone proof certificates (`### Zone proof certificates` in
//! `docs/FORMAT.md`), written apart from the library (its own lines,
//! parser and zones; no shared code with `prove::zones`). It computes the
//! board's symmetries itself.
//!
//! **The rules it trusts**, each with why it is sound (a claim `D draws`:
//! the defender `D` stops the attacker from ever completing a line):
//!
//! 1. *Leaves.* A full board (with no attacker line) ends the game drawn;
//!    a defender move completing a line ends it won by the defender: the
//!    attacker never completes a line after it.
//! 2. *A defender move* (`move`) on an empty cell: one move that holds is
//!    enough at the defender's turn.
//! 3. *A pairing* (`pairing`, attacker to move): pairs of distinct empty
//!    cells, no cell in two, and every line free of the defender's stones
//!    holding both cells of a pair. Answering each attacker stone on a
//!    paired cell with its partner leaves every such line a defender stone
//!    (an extra stone never hurts the defender), so none is completed.
//! 4. *The completion-cell rule* (the zone lemma's precondition): the
//!    attacker, to move, has no *completion cell* (a line free of the
//!    defender's stones with one empty cell, or none), and the defender,
//!    to move, faces at most one unless its listed move completes a line of
//!    its own. Refused otherwise — such a position is lost for the
//!    defender, and rule 5 would not see it.
//! 5. *Expand* (`expand`, attacker to move): the null move (the same board
//!    with the defender to move) must hold with zone `Z₀`; every attacker
//!    move inside `Z₀` is played (one completing a line is refused) and
//!    must hold; a move outside `Z₀` is answered by the null move's proof.
//!    Sound by the zone lemma proved in the module docs of
//!    `src/prove/zones.rs` (a proof stays valid in every *extension* of its
//!    position: extra stones outside its zone, no attacker line), given
//!    rule 4 and the zones computed here: a pairing's cells; a completed
//!    line's cells and the move; a move's cell and its child's zone; for
//!    `expand`, `Z₀`, the zones of the moves inside it and the *guards*,
//!    two empty cells of every line free of the defender's stones (the
//!    lowest outside the zone added where it holds fewer).
//! 6. *Parts and symmetry.* A position with no entry of its own holds when
//!    a symmetry of the board (the eight of a square, else the four of a
//!    rectangle, computed here) maps it onto the root of a part proved
//!    before, with the root's zone mapped back: a symmetry maps lines onto
//!    lines, so it maps a proof onto a proof.
//!
//! Every position is checked once (memoised by side to move and board);
//! a position the certificate does not list and no rule closes is refused.

use std::collections::HashMap;

use crate::lines::{cell_lines, parse_cell};
use crate::meter::Meter;
use crate::{Checked, Kind, Limits};

/// A board of the checker, row by row from the top: each cell 0 empty,
/// 1 X, 2 O.
pub type Board = Vec<u8>;

/// A claim's entries by (side to move, diagram).
type Entries = HashMap<(u8, String), Listed>;

/// What a certificate lists for a position and side to move.
#[derive(Debug)]
enum Listed {
    Move(usize),
    Pairs(Vec<(usize, usize)>),
    Expand,
}

/// The roots of a claim's parts already proved, by (side to move, board),
/// with their zones.
type Proved = HashMap<(u8, Board), Vec<bool>>;

/// A cell's name (`b1`: column letter, row number from 1 at the top), or
/// `a line already complete` for the mark `usize::MAX` of
/// `Checker::completion_cells`.
fn cell_name(cell: usize, cols: usize) -> String {
    if cell == usize::MAX {
        return "a line already complete".into();
    }
    format!(
        "{}{}",
        (b'a' + (cell % cols) as u8) as char,
        cell / cols + 1
    )
}

/// One claim's part (or main body) being replayed: the defender's colour,
/// the entries, the roots of the parts proved before it with the board's
/// symmetries (each cell's image), and the zone of every position already
/// checked.
struct Checker<'a> {
    meter: &'a mut Meter,
    cols: usize,
    cells: usize,
    lines: &'a [Vec<usize>],
    defender: u8,
    listed: &'a Entries,
    proved: &'a Proved,
    symmetries: &'a [Vec<usize>],
    zones: HashMap<(u8, Board), Vec<bool>>,
}

impl Checker<'_> {
    fn diagram(&self, b: &Board) -> String {
        b.chunks(self.cols)
            .map(|r| {
                r.iter()
                    .map(|&c| ['.', 'X', 'O'][c as usize])
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    /// The attacker's *completion cells* on `b`, in order: the empty cell
    /// of each line free of the defender's stones with exactly one empty
    /// cell; a line with none (the attacker's line) counts as `usize::MAX`
    /// so that it is never missed.
    fn completion_cells(&self, b: &Board) -> Vec<usize> {
        let mut cells: Vec<usize> = Vec::new();
        for line in self.lines {
            if line.iter().any(|&c| b[c] == self.defender) {
                continue;
            }
            let mut empty = line.iter().filter(|&&c| b[c] == 0);
            match (empty.next(), empty.next()) {
                (None, _) => cells.push(usize::MAX),
                (Some(&c), None) => cells.push(c),
                _ => {}
            }
        }
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    fn line_of(&self, b: &Board, who: u8) -> Option<&Vec<usize>> {
        self.lines.iter().find(|l| l.iter().all(|&c| b[c] == who))
    }

    /// The zone of a proved part's root that `b` is an image of under a
    /// symmetry `σ` (`σ(b)` the root): the cells `c` with `σ(c)` in the
    /// root's zone.
    fn proved_zone(&self, b: &Board, to_move: u8) -> Option<Vec<bool>> {
        self.symmetries.iter().find_map(|image| {
            let mut mapped = vec![0; self.cells];
            for (c, &stone) in b.iter().enumerate() {
                mapped[image[c]] = stone;
            }
            let zone = self.proved.get(&(to_move, mapped))?;
            Some((0..self.cells).map(|c| zone[image[c]]).collect())
        })
    }

    /// The zone of the claim's proof from `b` with `to_move` to move (no
    /// line on `b`), or the fault.
    fn zone(&mut self, b: &Board, to_move: u8) -> Result<Vec<bool>, String> {
        if let Some(z) = self.zones.get(&(to_move, b.clone())) {
            return Ok(z.clone());
        }
        let key = (to_move, self.diagram(b));
        let entry = self.listed.get(&key);
        if entry.is_none() {
            if let Some(z) = self.proved_zone(b, to_move) {
                return Ok(z);
            }
        }
        let attacker = 3 - self.defender;
        let at = format!(
            "{} with {} to move",
            key.1,
            ['.', 'X', 'O'][to_move as usize]
        );
        // the precondition of the zone lemma (module docs): no line free
        // of the defender's stones is one stone or none short for the
        // attacker to move, nor for the defender to move facing two
        let completions = self.completion_cells(b);
        if to_move == attacker && !completions.is_empty() {
            return Err(format!(
                "the attacker, to move, has a completion cell ({}) at {at}",
                cell_name(completions[0], self.cols)
            ));
        }
        if to_move == self.defender && completions.len() >= 2 {
            let completes_own = match entry {
                Some(Listed::Move(cell)) if b[*cell] == 0 => {
                    let mut child = b.clone();
                    child[*cell] = self.defender;
                    self.line_of(&child, self.defender).is_some()
                }
                _ => false,
            };
            if !completes_own {
                return Err(format!(
                    "the defender, to move, faces two completion cells ({} and {}) at {at}",
                    cell_name(completions[0], self.cols),
                    cell_name(completions[1], self.cols)
                ));
            }
        }
        let mut zone = vec![false; self.cells];
        if b.iter().all(|&c| c != 0) {
            // a full board without an attacker line: a draw
        } else {
            match (to_move == self.defender, entry) {
                (true, Some(Listed::Move(cell))) => {
                    let cell = *cell;
                    if b[cell] != 0 {
                        return Err(format!("a move to a taken cell at {at}"));
                    }
                    let mut child = b.clone();
                    child[cell] = self.defender;
                    zone[cell] = true;
                    if let Some(line) = self.line_of(&child, self.defender) {
                        for &c in line {
                            zone[c] = true;
                        }
                    } else {
                        for (z, c) in zone.iter_mut().zip(self.zone(&child, attacker)?) {
                            *z |= c;
                        }
                    }
                }
                (false, Some(Listed::Pairs(pairs))) => {
                    let mut partner = vec![usize::MAX; self.cells];
                    for &(x, y) in pairs {
                        if x == y || b[x] != 0 || b[y] != 0 {
                            return Err(format!("a pair not of two empty cells at {at}"));
                        }
                        if partner[x] != usize::MAX || partner[y] != usize::MAX {
                            return Err(format!("a cell in two pairs at {at}"));
                        }
                        (partner[x], partner[y]) = (y, x);
                        (zone[x], zone[y]) = (true, true);
                    }
                    for line in self.lines {
                        let open = line.iter().all(|&c| b[c] != self.defender);
                        let covered = line.iter().any(|&c| line.contains(&partner[c]));
                        if open && !covered {
                            return Err(format!("a line {line:?} holds no pair at {at}"));
                        }
                    }
                }
                (false, Some(Listed::Expand)) => {
                    // the null move, then every attacker move in its zone
                    let null = self.zone(b, self.defender)?;
                    zone.clone_from(&null);
                    for m in 0..self.cells {
                        if !null[m] || b[m] != 0 {
                            continue;
                        }
                        // completes no line: the attacker has no
                        // completion cell here (refused above)
                        let mut child = b.clone();
                        child[m] = attacker;
                        for (z, c) in zone.iter_mut().zip(self.zone(&child, self.defender)?) {
                            *z |= c;
                        }
                    }
                    // guards: an open line keeps two empty cells in the zone,
                    // so no larger position lets the attacker complete it at once
                    let before = zone.clone();
                    for line in self.lines {
                        if line.iter().any(|&c| b[c] == self.defender) {
                            continue;
                        }
                        let inside = line.iter().filter(|&&c| b[c] == 0 && before[c]).count();
                        let mut outside: Vec<usize> = line
                            .iter()
                            .copied()
                            .filter(|&c| b[c] == 0 && !before[c])
                            .collect();
                        outside.sort_unstable();
                        for c in outside.into_iter().take(2usize.saturating_sub(inside)) {
                            zone[c] = true;
                        }
                    }
                }
                _ => return Err(format!("no fitting entry at {at}")),
            }
        }
        self.meter.hold()?;
        self.zones.insert((to_move, b.clone()), zone.clone());
        Ok(zone)
    }
}

/// A claim of a certificate: the defender's letter, its main entries
/// (replayed from the start) and its parts, each a root (side to move,
/// board) with its own entries, replayed in order before the main ones.
struct Claim {
    defender: String,
    main: Entries,
    parts: Vec<(u8, Board, Entries)>,
}

/// A parsed certificate: the board's columns, cells and `k`, its lines
/// (cells by index), its symmetries (each cell's image) and its claims.
struct Parsed {
    cols: usize,
    cells: usize,
    k: usize,
    lines: Vec<Vec<usize>>,
    symmetries: Vec<Vec<usize>>,
    claims: Vec<Claim>,
}

/// The board's symmetries, found apart from the library: the eight of the
/// square, or the four of a rectangle (identity, mirrors, half turn), each
/// as every cell's image.
fn board_symmetries(cols: usize, rows: usize) -> Vec<Vec<usize>> {
    let (w, h) = (cols as i64, rows as i64);
    type Map = Box<dyn Fn(i64, i64) -> (i64, i64)>;
    let mut maps: Vec<Map> = vec![
        Box::new(|x, y| (x, y)),
        Box::new(move |x, y| (w - 1 - x, y)),
        Box::new(move |x, y| (x, h - 1 - y)),
        Box::new(move |x, y| (w - 1 - x, h - 1 - y)),
    ];
    if cols == rows {
        maps.push(Box::new(|x, y| (y, x)));
        maps.push(Box::new(move |x, y| (w - 1 - y, h - 1 - x)));
        maps.push(Box::new(move |x, y| (h - 1 - y, x)));
        maps.push(Box::new(move |x, y| (y, w - 1 - x)));
    }
    maps.iter()
        .map(|f| {
            (0..cols * rows)
                .map(|c| {
                    let (x, y) = f((c % cols) as i64, (c / cols) as i64);
                    (y * w + x) as usize
                })
                .collect()
        })
        .collect()
}

/// Reads a zone proof certificate's header and entries (version 2 with
/// `part` lines, or version 1 without).
fn parse_certificate(text: &str) -> Result<Parsed, String> {
    let mut rows = text.lines();
    let version = match rows.next() {
        Some("# retrograde zone proof certificate 1") => 1,
        Some("# retrograde zone proof certificate 2") => 2,
        _ => return Err("not a zone proof certificate".into()),
    };
    let mut rows = rows.filter(|l| !l.starts_with('#'));
    let dims: Vec<usize> = rows
        .next()
        .and_then(|l| l.strip_prefix("mnk "))
        .ok_or("no mnk line")?
        .split(' ')
        .map(|v| v.parse().map_err(|_| "a bad size".to_string()))
        .collect::<Result<_, _>>()?;
    let [cols, rows_n, k] = dims[..] else {
        return Err("mnk needs three sizes".into());
    };
    // sides of cells, lettered `a` to `z` (`mnk 0 0 5` panicked), and a
    // line of at least one stone
    if !(1..=26).contains(&cols) || !(1..=26).contains(&rows_n) || k == 0 {
        return Err(format!("an unsupported board: mnk {cols} {rows_n} {k}"));
    }
    let lines = cell_lines(cols, rows_n, k);
    let cell = |name: &str| -> Result<usize, String> {
        let (x, y) = parse_cell(name).ok_or(format!("a bad cell {name}"))?;
        if x < 0 || y < 0 || x as usize >= cols || y as usize >= rows_n {
            return Err(format!("{name} is off the board"));
        }
        Ok(y as usize * cols + x as usize)
    };
    let side_of = |word: &str, row: &str| match word {
        "X" => Ok(1u8),
        "O" => Ok(2u8),
        _ => Err(format!("a bad side: {row}")),
    };
    let mut claims: Vec<Claim> = Vec::new();
    for row in rows {
        let words: Vec<&str> = row.split(' ').collect();
        if words[0] == "claim" {
            if words.len() != 3 || !["X", "O"].contains(&words[1]) || words[2] != "draws" {
                return Err(format!("a bad claim: {row}"));
            }
            claims.push(Claim {
                defender: words[1].to_string(),
                main: HashMap::new(),
                parts: Vec::new(),
            });
            continue;
        }
        let claim = claims.last_mut().ok_or("an entry before any claim")?;
        if words.len() < 3 {
            return Err(format!("a short entry: {row}"));
        }
        let side = side_of(words[1], row)?;
        if words[0] == "part" && version == 2 && words.len() == 3 {
            let board: Board = words[2]
                .split('/')
                .flat_map(|r| r.chars())
                .map(|c| match c {
                    '.' => Ok(0),
                    'X' => Ok(1),
                    'O' => Ok(2),
                    _ => Err(format!("a bad diagram: {row}")),
                })
                .collect::<Result<_, _>>()?;
            if board.len() != cols * rows_n || words[2].split('/').count() != rows_n {
                return Err(format!("a diagram not of the board: {row}"));
            }
            claim.parts.push((side, board, HashMap::new()));
            continue;
        }
        let listed = match claim.parts.last_mut() {
            Some((_, _, entries)) => entries,
            None => &mut claim.main,
        };
        let entry = match words[0] {
            "move" if words.len() == 4 => Listed::Move(cell(words[3])?),
            "expand" if words.len() == 3 => Listed::Expand,
            "pairing" if words.len() % 2 == 1 => Listed::Pairs(
                words[3..]
                    .chunks(2)
                    .map(|p| Ok((cell(p[0])?, cell(p[1])?)))
                    .collect::<Result<_, String>>()?,
            ),
            _ => return Err(format!("a bad entry: {row}")),
        };
        if listed.insert((side, words[2].to_string()), entry).is_some() {
            return Err(format!("a position listed twice: {row}"));
        }
    }
    let symmetries = board_symmetries(cols, rows_n);
    Ok(Parsed {
        cols,
        cells: cols * rows_n,
        k,
        lines,
        symmetries,
        claims,
    })
}

/// Replays a zone proof certificate: `Ok` with its claims (the letters of
/// the defenders, `["O", "X"]`) when both hold from the empty board.
pub fn check_certificate(text: &str) -> Result<Vec<String>, String> {
    check(text).map(|_| vec!["O".into(), "X".into()])
}

/// Replays a zone proof certificate as [`check_certificate`] does: what it
/// proves (the board, `X draws` and `O draws`, and the positions the
/// replay visited) or a one-line reason.
pub fn check(text: &str) -> Result<Checked, String> {
    check_metered(text, &mut Meter::new(&Limits::none()))
}

/// [`check`], counting each position held on `meter`.
pub(crate) fn check_metered(text: &str, meter: &mut Meter) -> Result<Checked, String> {
    let parsed = parse_certificate(text)?;
    let mut names: Vec<&str> = parsed.claims.iter().map(|c| c.defender.as_str()).collect();
    names.sort();
    if names != ["O", "X"] {
        return Err("a draw needs the claims of both players".into());
    }
    let visited = replay_claims(&parsed, &vec![0; parsed.cells], 1, meter)?;
    Ok(Checked {
        kind: Kind::Zones,
        board: (parsed.cols, parsed.cells / parsed.cols, parsed.k),
        claims: vec!["X draws".into(), "O draws".into()],
        root: None,
        positions: Some(visited),
    })
}

/// Replays a certificate's claims (one or both) from `start` with `to_move`
/// to move instead of the empty board: `Ok` with how many positions the
/// replay visited.
pub fn check_claims_from(text: &str, start: &Board, to_move: u8) -> Result<usize, String> {
    let mut meter = Meter::new(&Limits::none());
    replay_claims(&parse_certificate(text)?, start, to_move, &mut meter)
}

/// Replays parsed claims from `start` with `to_move` to move (the empty
/// board with X to move for a whole game): how many positions it visited.
/// Each claim's parts are replayed first, in order, each from its root with
/// its own entries and the roots proved before it; then its main entries
/// from `start`. A position with no entry of its own is taken as proved
/// when a symmetry maps it onto a proved part's root.
fn replay_claims(
    parsed: &Parsed,
    start: &Board,
    to_move: u8,
    meter: &mut Meter,
) -> Result<usize, String> {
    let Parsed {
        cols,
        cells,
        lines,
        symmetries,
        claims,
        ..
    } = parsed;
    if start.len() != *cells {
        return Err("the start is not of the certificate's board".into());
    }
    let mut visited = 0;
    for claim in claims {
        let mut proved = Proved::new();
        let parts = claim
            .parts
            .iter()
            .map(|(side, root, listed)| (*side, root, listed));
        for (side, root, listed) in parts.chain([(to_move, start, &claim.main)]) {
            let mut checker = Checker {
                meter: &mut *meter,
                cols: *cols,
                cells: *cells,
                lines,
                defender: if claim.defender == "X" { 1 } else { 2 },
                listed,
                proved: &proved,
                symmetries,
                zones: HashMap::new(),
            };
            let zone = checker.zone(root, side)?;
            visited += checker.zones.len();
            proved.insert((side, root.clone()), zone);
        }
    }
    Ok(visited)
}
