//! An independent checker of threat proof certificates, written from the
//! spec alone (`### Threat proof certificates` in `docs/FORMAT.md`) and
//! sharing no code with the prover (`src/solve/threat_proof/`).
//!
//! Include it with `mod threat_checker;` and call [`check_certificate`].
//!
//! The checker reads the whole certificate strictly, checks every entry on
//! its own (board shape, stone counts, no completed line, the entry's kind
//! fits the side to move), then checks that the root *holds*, exactly as
//! the spec defines it, with memoisation by board:
//!
//! - attacker to move: it has a completion cell; or the position has a
//!   `vcf` entry whose run wins by replay; or a `move` entry whose cell is
//!   empty and, played, completes a line or leads to a position that holds
//!   with the defender to move;
//! - defender to move: the board is not full, the defender has no
//!   completion cell, and for every empty cell `x`, after the defender's
//!   stone on `x` the position holds, or some `cover` run of the position
//!   replays to a win in it.

use std::collections::HashMap;

const EMPTY: u8 = 0;
const X: u8 = 1;
const O: u8 = 2;

const HEADER: &str = "# retrograde threat proof certificate 1";

/// Boards of up to 256 cells (at most 26 columns, lettered `a` to `z`);
/// the stack the check runs on (it recurses once or twice per ply).
const MAX_CELLS: usize = 256;
const STACK_BYTES: usize = 256 << 20;

/// Checks a threat proof certificate's text; Ok(number of positions checked) or Err(one-line reason).
///
/// The number counts each distinct position checked through its `move` or
/// `vcf` entry or with the defender to move, plus each defender reply (and
/// the root) settled at once by a completion cell or a `cover` run.
pub fn check_certificate(text: &str) -> Result<usize, String> {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("threat-checker".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || check_text(text))
            .map_err(|e| format!("cannot start the checking thread: {e}"))?;
        match worker.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

fn other(player: u8) -> u8 {
    match player {
        X => O,
        O => X,
        _ => unreachable!("not a player: {player}"),
    }
}

fn player_name(player: u8) -> char {
    if player == X {
        'X'
    } else {
        'O'
    }
}

/// The board's shape and its lines.
struct Geometry {
    cols: usize,
    rows: usize,
    k: usize,
    /// Every run of `k` consecutive cells across, down and along both
    /// diagonals, each as its cells (`row · cols + col`, row 0 at the top).
    windows: Vec<Vec<usize>>,
    /// For each cell, the windows holding it.
    windows_of: Vec<Vec<usize>>,
}

impl Geometry {
    fn new(cols: usize, rows: usize, k: usize) -> Geometry {
        // with k = 1 the four directions give the same one-cell windows
        let directions: &[(isize, isize)] = if k == 1 {
            &[(0, 1)]
        } else {
            &[(0, 1), (1, 0), (1, 1), (1, -1)]
        };
        let mut windows = Vec::new();
        for &(dr, dc) in directions {
            for r in 0..rows as isize {
                for c in 0..cols as isize {
                    let (er, ec) = (r + dr * (k as isize - 1), c + dc * (k as isize - 1));
                    if er < 0 || er >= rows as isize || ec < 0 || ec >= cols as isize {
                        continue;
                    }
                    let cells: Vec<usize> = (0..k as isize)
                        .map(|i| ((r + dr * i) * cols as isize + c + dc * i) as usize)
                        .collect();
                    windows.push(cells);
                }
            }
        }
        let mut windows_of = vec![Vec::new(); cols * rows];
        for (w, cells) in windows.iter().enumerate() {
            for &cell in cells {
                windows_of[cell].push(w);
            }
        }
        Geometry {
            cols,
            rows,
            k,
            windows,
            windows_of,
        }
    }

    fn cells(&self) -> usize {
        self.cols * self.rows
    }

    fn cell_name(&self, cell: usize) -> String {
        format!(
            "{}{}",
            (b'a' + (cell % self.cols) as u8) as char,
            cell / self.cols + 1
        )
    }

    fn cell_names(&self, cells: &[usize]) -> String {
        cells
            .iter()
            .map(|&c| self.cell_name(c))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A cell name: a column letter (`a` the leftmost), then a row number
    /// from 1 at the top, without leading zeros.
    fn parse_cell(&self, word: &str) -> Result<usize, String> {
        let bad = || format!("bad cell {word:?}");
        let bytes = word.as_bytes();
        if bytes.len() < 2 || !bytes[0].is_ascii_lowercase() {
            return Err(bad());
        }
        let col = (bytes[0] - b'a') as usize;
        let row = parse_number(&word[1..]).ok_or_else(bad)?;
        if col >= self.cols || row == 0 || row > self.rows {
            return Err(format!("cell {word:?} is off the board"));
        }
        Ok((row - 1) * self.cols + col)
    }

    /// A diagram: rows from the top separated by `/`, cells `X`, `O`, `.`.
    fn parse_board(&self, word: &str) -> Result<Pos, String> {
        let rows: Vec<&str> = word.split('/').collect();
        if rows.len() != self.rows || rows.iter().any(|r| r.len() != self.cols) {
            return Err(format!(
                "board {word:?} is not {} rows of {} cells",
                self.rows, self.cols
            ));
        }
        let mut cells = Vec::with_capacity(self.cells());
        for row in rows {
            for ch in row.bytes() {
                cells.push(match ch {
                    b'X' => X,
                    b'O' => O,
                    b'.' => EMPTY,
                    _ => return Err(format!("board {word:?} holds {:?}", ch as char)),
                });
            }
        }
        let pos = Pos::new(self, cells);
        let (xs, os) = (pos.stones(X), pos.stones(O));
        if xs != os && xs != os + 1 {
            return Err(format!(
                "board {word:?} has {xs} X and {os} O stones, which no game reaches"
            ));
        }
        for player in [X, O] {
            if pos.has_line(self, player) {
                return Err(format!(
                    "board {word:?} already has a completed line of {}",
                    player_name(player)
                ));
            }
        }
        Ok(pos)
    }
}

/// A decimal number without sign or leading zeros.
fn parse_number(word: &str) -> Option<usize> {
    if word.is_empty()
        || !word.bytes().all(|b| b.is_ascii_digit())
        || (word.len() > 1 && word.starts_with('0'))
    {
        return None;
    }
    word.parse().ok()
}

/// A board's key: the X stones' bits, then the O stones' bits.
type Key = [u64; 8];

fn with_stone(mut key: Key, cell: usize, player: u8) -> Key {
    let base = if player == X { 0 } else { 4 };
    key[base + cell / 64] |= 1 << (cell % 64);
    key
}

/// A window's code: the sum over its cells of `WEIGHT[cell]`, that is its
/// number of empty cells, plus 2¹⁰ times its number of X stones, plus 2²⁰
/// times its number of O stones (a window has at most 256 < 2¹⁰ cells, so
/// the code tells the three numbers).
const WEIGHT: [u32; 3] = [1, 1 << 10, 1 << 20];

/// The code of a window of `k` cells holding `k - 1` stones of `player`
/// and one empty cell.
fn completion_code(k: usize, player: u8) -> u32 {
    WEIGHT[EMPTY as usize] + (k as u32 - 1) * WEIGHT[player as usize]
}

/// The code of a window of `k` cells all holding stones of `player`.
fn line_code(k: usize, player: u8) -> u32 {
    k as u32 * WEIGHT[player as usize]
}

/// A position: its cells, and the code of every window.
#[derive(Clone)]
struct Pos {
    cells: Vec<u8>,
    /// For each window of the geometry, its code (see `WEIGHT`).
    codes: Vec<u32>,
}

impl Pos {
    fn new(geo: &Geometry, cells: Vec<u8>) -> Pos {
        let codes = geo
            .windows
            .iter()
            .map(|w| w.iter().map(|&cell| WEIGHT[cells[cell] as usize]).sum())
            .collect();
        Pos { cells, codes }
    }

    fn place(&mut self, geo: &Geometry, cell: usize, player: u8) {
        assert_eq!(self.cells[cell], EMPTY, "placing on an occupied cell");
        self.cells[cell] = player;
        for &w in &geo.windows_of[cell] {
            self.codes[w] = self.codes[w] - WEIGHT[EMPTY as usize] + WEIGHT[player as usize];
        }
    }

    fn stones(&self, player: u8) -> usize {
        self.cells.iter().filter(|&&c| c == player).count()
    }

    /// X when both have as many stones, else O.
    fn to_move(&self) -> u8 {
        if self.stones(X) == self.stones(O) {
            X
        } else {
            O
        }
    }

    fn is_full(&self) -> bool {
        self.cells.iter().all(|&c| c != EMPTY)
    }

    fn has_line(&self, geo: &Geometry, player: u8) -> bool {
        let line = line_code(geo.k, player);
        self.codes.contains(&line)
    }

    /// The distinct completion cells of `player` (empty cells that would
    /// complete a line of `k` of its stones), at most `limit` of them.
    fn completion_cells(&self, geo: &Geometry, player: u8, limit: usize) -> Vec<usize> {
        let target = completion_code(geo.k, player);
        let mut found = Vec::new();
        for (w, &code) in self.codes.iter().enumerate() {
            if code == target {
                let cell = geo.windows[w]
                    .iter()
                    .copied()
                    .find(|&c| self.cells[c] == EMPTY)
                    .expect("a window with one empty cell");
                if !found.contains(&cell) {
                    found.push(cell);
                    if found.len() >= limit {
                        break;
                    }
                }
            }
        }
        found
    }

    fn key(&self) -> Key {
        let mut key = [0u64; 8];
        for (cell, &c) in self.cells.iter().enumerate() {
            if c != EMPTY {
                key = with_stone(key, cell, c);
            }
        }
        key
    }

    fn diagram(&self, geo: &Geometry) -> String {
        self.cells
            .chunks(geo.cols)
            .map(|row| {
                row.iter()
                    .map(|&c| match c {
                        X => 'X',
                        O => 'O',
                        _ => '.',
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// What the attacker does at a position where it is to move.
enum Plan {
    Move(usize),
    Vcf(Vec<usize>),
}

/// A certificate, read.
struct Certificate {
    geo: Geometry,
    attacker: u8,
    root: Pos,
    plans: HashMap<Key, Plan>,
    covers: HashMap<Key, Vec<Vec<usize>>>,
}

fn parse(text: &str) -> Result<Certificate, String> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if text.ends_with('\n') {
        lines.pop();
    }
    if lines.first() != Some(&HEADER) {
        return Err(format!("line 1 is not {HEADER:?}"));
    }
    let mut geo: Option<Geometry> = None;
    let mut attacker: Option<u8> = None;
    let mut root: Option<Pos> = None;
    let mut plans: HashMap<Key, Plan> = HashMap::new();
    let mut covers: HashMap<Key, Vec<Vec<usize>>> = HashMap::new();
    for (i, &line) in lines.iter().enumerate().skip(1) {
        let at = |why: String| format!("line {}: {why}", i + 1);
        if line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split(' ').collect();
        if words.iter().any(|w| w.is_empty()) {
            return Err(at(format!("malformed line {line:?}")));
        }
        let Some(g) = &geo else {
            let [kw, cols, rows, k] = words[..] else {
                return Err(at(format!("expected `mnk COLS ROWS K`, not {line:?}")));
            };
            let (Some(cols), Some(rows), Some(k)) =
                (parse_number(cols), parse_number(rows), parse_number(k))
            else {
                return Err(at(format!("expected `mnk COLS ROWS K`, not {line:?}")));
            };
            if kw != "mnk" {
                return Err(at(format!("expected `mnk COLS ROWS K`, not {line:?}")));
            }
            if !(1..=26).contains(&cols)
                || !(1..=MAX_CELLS).contains(&rows)
                || cols * rows > MAX_CELLS
                || !(1..=MAX_CELLS).contains(&k)
            {
                return Err(at(format!("unsupported board {line:?}")));
            }
            geo = Some(Geometry::new(cols, rows, k));
            continue;
        };
        let Some(attacker) = attacker else {
            attacker = Some(match line {
                "claim X wins" => X,
                "claim O wins" => O,
                _ => {
                    return Err(at(format!(
                        "expected `claim X wins` or `claim O wins`, not {line:?}"
                    )))
                }
            });
            continue;
        };
        if root.is_none() {
            let ["root", board] = words[..] else {
                return Err(at(format!("expected `root BOARD`, not {line:?}")));
            };
            root = Some(g.parse_board(board).map_err(at)?);
            continue;
        }
        // an entry
        if !["move", "vcf", "cover"].contains(&words[0]) {
            return Err(at(format!("unknown entry {line:?}")));
        }
        if words.len() < 3 {
            return Err(at(format!("malformed entry {line:?}")));
        }
        let pos = g.parse_board(words[1]).map_err(at)?;
        let cells = words[2..]
            .iter()
            .map(|w| g.parse_cell(w))
            .collect::<Result<Vec<usize>, String>>()
            .map_err(at)?;
        let to_move = pos.to_move();
        let key = pos.key();
        match words[0] {
            "move" | "vcf" => {
                if to_move != attacker {
                    return Err(at(format!(
                        "a {} entry at {}, where the defender is to move",
                        words[0], words[1]
                    )));
                }
                let plan = if words[0] == "move" {
                    let [cell] = cells[..] else {
                        return Err(at(format!("a move entry names one cell: {line:?}")));
                    };
                    if pos.cells[cell] != EMPTY {
                        return Err(at(format!(
                            "move {} onto an occupied cell at {}",
                            words[2], words[1]
                        )));
                    }
                    Plan::Move(cell)
                } else {
                    Plan::Vcf(cells)
                };
                if let Some(old) = plans.insert(key, plan) {
                    let old = match old {
                        Plan::Move(_) => "move",
                        Plan::Vcf(_) => "vcf",
                    };
                    return Err(at(format!(
                        "a second entry ({} after {old}) for {}",
                        words[0], words[1]
                    )));
                }
            }
            "cover" => {
                if to_move == attacker {
                    return Err(at(format!(
                        "a cover entry at {}, where the attacker is to move",
                        words[1]
                    )));
                }
                covers.entry(key).or_default().push(cells);
            }
            _ => unreachable!("checked above"),
        }
    }
    let (Some(geo), Some(attacker), Some(root)) = (geo, attacker, root) else {
        return Err("the certificate ends before its `mnk`, `claim` and `root` lines".into());
    };
    Ok(Certificate {
        geo,
        attacker,
        root,
        plans,
        covers,
    })
}

/// The replay of `run` at `start` (attacker to move), word for word as the
/// spec gives it: Ok when it wins, else why it fails.
fn replay(geo: &Geometry, start: &Pos, run: &[usize], attacker: u8) -> Result<(), String> {
    let defender = other(attacker);
    let mut pos = start.clone();
    for &a in run {
        if !pos.completion_cells(geo, attacker, 1).is_empty() {
            return Ok(());
        }
        let theirs = pos.completion_cells(geo, defender, 2);
        if theirs.len() >= 2 {
            return Err(format!(
                "before {} the defender has two completion cells ({})",
                geo.cell_name(a),
                geo.cell_names(&theirs)
            ));
        }
        if let Some(&t) = theirs.first() {
            if t != a {
                return Err(format!(
                    "before {} the defender has a completion cell {}",
                    geo.cell_name(a),
                    geo.cell_name(t)
                ));
            }
        }
        if pos.cells[a] != EMPTY {
            return Err(format!("{} is not empty", geo.cell_name(a)));
        }
        pos.place(geo, a, attacker);
        let ours = pos.completion_cells(geo, attacker, 2);
        match ours[..] {
            [] => {
                return Err(format!(
                    "{} leaves the attacker no completion cell",
                    geo.cell_name(a)
                ))
            }
            [block] => pos.place(geo, block, defender),
            _ => return Ok(()),
        }
    }
    Err("the run runs out".into())
}

/// Why a position does not hold; `deep` when the reason was found below a
/// defender's reply (it then already names the board and reply where the
/// proof breaks).
#[derive(Clone)]
struct Broken {
    why: String,
    deep: bool,
}

fn deep(why: String) -> Broken {
    Broken { why, deep: true }
}

fn shallow(why: String) -> Broken {
    Broken { why, deep: false }
}

enum Status {
    Checking,
    Holds,
    Fails(Broken),
}

struct Checker<'a> {
    cert: &'a Certificate,
    memo: HashMap<Key, Status>,
    checked: usize,
}

fn check_text(text: &str) -> Result<usize, String> {
    let cert = parse(text)?;
    let mut checker = Checker {
        cert: &cert,
        memo: HashMap::new(),
        checked: 0,
    };
    let root = &cert.root;
    let verdict = if root.to_move() == cert.attacker {
        checker.attacker_holds(root)
    } else {
        checker.defender_holds(root)
    };
    verdict.map_err(|b| format!("the claim fails: {}", b.why))?;
    Ok(checker.checked)
}

impl Checker<'_> {
    /// The memo's verdict on `key`, if any.
    fn recall(&self, key: &Key, pos: &Pos) -> Option<Result<(), Broken>> {
        match self.memo.get(key)? {
            Status::Holds => Some(Ok(())),
            Status::Fails(broken) => Some(Err(broken.clone())),
            Status::Checking => Some(Err(deep(format!(
                "a cycle through {}",
                pos.diagram(&self.cert.geo)
            )))),
        }
    }

    fn remember(&mut self, key: Key, verdict: &Result<(), Broken>) {
        let status = match verdict {
            Ok(()) => Status::Holds,
            Err(broken) => Status::Fails(broken.clone()),
        };
        self.memo.insert(key, status);
    }

    /// Whether `pos`, with the attacker to move, holds.
    fn attacker_holds(&mut self, pos: &Pos) -> Result<(), Broken> {
        let geo = &self.cert.geo;
        if !pos.completion_cells(geo, self.cert.attacker, 1).is_empty() {
            self.checked += 1;
            return Ok(());
        }
        self.planned_holds(pos, pos.key())
    }

    /// Whether `pos` (key `key`), with the attacker to move and without a
    /// completion cell of the attacker's, holds by its `move` or `vcf` entry.
    fn planned_holds(&mut self, pos: &Pos, key: Key) -> Result<(), Broken> {
        let cert = self.cert;
        let geo = &cert.geo;
        if let Some(verdict) = self.recall(&key, pos) {
            return verdict;
        }
        let Some(plan) = cert.plans.get(&key) else {
            return Err(shallow(format!(
                "no move or vcf entry for {}",
                pos.diagram(geo)
            )));
        };
        self.memo.insert(key, Status::Checking);
        self.checked += 1;
        let verdict = match plan {
            Plan::Vcf(run) => replay(geo, pos, run, cert.attacker).map_err(|why| {
                shallow(format!(
                    "the vcf run {} at {} fails: {why}",
                    geo.cell_names(run),
                    pos.diagram(geo)
                ))
            }),
            &Plan::Move(cell) => {
                if pos.cells[cell] != EMPTY {
                    Err(shallow(format!(
                        "the move {} at {} is onto an occupied cell",
                        geo.cell_name(cell),
                        pos.diagram(geo)
                    )))
                } else {
                    let mut child = pos.clone();
                    child.place(geo, cell, cert.attacker);
                    if child.has_line(geo, cert.attacker) {
                        Ok(())
                    } else {
                        self.defender_holds(&child)
                    }
                }
            }
        };
        self.remember(key, &verdict);
        verdict
    }

    /// Whether `pos`, with the defender to move, holds.
    fn defender_holds(&mut self, pos: &Pos) -> Result<(), Broken> {
        let key = pos.key();
        if let Some(verdict) = self.recall(&key, pos) {
            return verdict;
        }
        self.memo.insert(key, Status::Checking);
        self.checked += 1;
        let verdict = self.every_reply_answered(pos, key);
        self.remember(key, &verdict);
        verdict
    }

    fn every_reply_answered(&mut self, pos: &Pos, key: Key) -> Result<(), Broken> {
        let cert = self.cert;
        let geo = &cert.geo;
        let (attacker, defender) = (cert.attacker, other(cert.attacker));
        if pos.is_full() {
            return Err(deep(format!(
                "the defender is to move at a full board {}",
                pos.diagram(geo)
            )));
        }
        if let Some(&c) = pos.completion_cells(geo, defender, 1).first() {
            return Err(deep(format!(
                "the defender, to move at {}, has a completion cell {}",
                pos.diagram(geo),
                geo.cell_name(c)
            )));
        }
        let threats = pos.completion_cells(geo, attacker, usize::MAX);
        let covers: &[Vec<usize>] = cert.covers.get(&key).map_or(&[], Vec::as_slice);
        for x in 0..geo.cells() {
            if pos.cells[x] != EMPTY {
                continue;
            }
            // After the defender's stone on x the attacker's completion cells
            // are exactly `threats` without x: the attacker's stones are the
            // same, and a cell completes a line only when the line's other
            // cells are all the attacker's stones (so x is not among them).
            if threats.iter().any(|&t| t != x) {
                self.checked += 1;
                continue;
            }
            let child_key = with_stone(key, x, defender);
            let mut child = pos.clone();
            child.place(geo, x, defender);
            debug_assert!(child.completion_cells(geo, attacker, 1).is_empty());
            let entry = if cert.plans.contains_key(&child_key) {
                match self.planned_holds(&child, child_key) {
                    Ok(()) => continue,
                    Err(broken) => Some(broken),
                }
            } else {
                None
            };
            if covers
                .iter()
                .any(|run| replay(geo, &child, run, attacker).is_ok())
            {
                self.checked += 1;
                continue;
            }
            let reply = format!("the defender's reply {}", geo.cell_name(x));
            return Err(match entry {
                Some(broken) if broken.deep => broken,
                Some(broken) => deep(format!(
                    "{reply} at {}: {}, and no cover run wins after it",
                    pos.diagram(geo),
                    broken.why
                )),
                None => deep(format!(
                    "{reply} at {} has no move or vcf entry after it, and no cover run wins after it",
                    pos.diagram(geo)
                )),
            });
        }
        Ok(())
    }
}
