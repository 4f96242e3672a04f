//! An independent checker of threat proof certificates, written from the
//! spec alone (`### Threat proof certificates` in `docs/FORMAT.md`) and
//! sharing no code with the prover (`src/prove/threats/`).
//!
//! Call [`check_certificate`] (or the crate's `check`, which recognises
//! every kind of certificate).
//!
//! The checker reads the whole certificate strictly (version 3, version 2,
//! which has no `vct` entries, or version 1, which has no `zone` entries
//! either), and checks every entry on its own: board shape, no completed
//! line, a `move` onto an empty cell, a `vct` entry's tree by its grammar,
//! at most one `move`, `vcf` or `vct` entry and at most one `zone` entry a
//! board. An entry's kind, not its stones, says who is to move at its
//! board (below a `zone` entry the defender has passed), so the stone
//! counts of entries are not checked; the root's are, and its side to move
//! follows from them.
//!
//! Then it checks that the root *holds*, exactly as the spec defines it.
//! A position is a pair of boards: the lookup board `L`, whose entries are
//! used, and the actual board `A`, which is `L` with zero or more extra
//! defender stones (put there by `zone` entries); every rule and every
//! replay uses `A`. The root is (root, root).
//!
//! - attacker to move at (`L`, `A`): `A` has a completion cell of the
//!   attacker's; or `L` has a `vcf` entry whose run wins by replay on `A`;
//!   or `L` has a `vct` entry whose tree wins on `A` (below); or `L` has a
//!   `move` entry whose cell `m` is empty in `A` and, played, completes a
//!   line in `A` or leads to (`L`+m, `A`+m) holding with the defender to
//!   move;
//! - defender to move at (`L`, `A`): `A` is not full, the defender has no
//!   completion cell in `A`, and for every empty cell `x` of `A`, with the
//!   defender's stone on `x`: (`L`+x, `A`+x) holds with the attacker to
//!   move; or some `cover` run of `L` replays to a win on `A`+x; or `L` has
//!   a `zone` entry that does not list `x` and (`L`, `A`+x) holds with the
//!   attacker to move (`x` is then an extra stone).
//!
//! A `vct` entry's tree (`attacker := "*" | "(" CELL+ ")" | CELL defender`,
//! `defender := "[" cover* reply* "]"`, `cover := "(" CELL+ ")"`,
//! `reply := CELL attacker`) is replayed on `A` and its own boards only:
//! no entry is consulted below it.
//!
//! - an attacker step wins: `*` when the attacker has a completion cell;
//!   `( a₁ … aₙ )` when the run wins by replay; `CELL defender` when `CELL`
//!   is empty and the attacker's stone on it completes a line or leaves a
//!   board where the defender step holds;
//! - a defender step holds when the board is not full, the defender has no
//!   completion cell, no two replies name one cell, and for every empty
//!   cell `x`, with the defender's stone on `x`: if a reply names `x`, its
//!   attacker step wins (that reply alone decides); otherwise the attacker
//!   has a completion cell or some cover run of the step replays to a win.
//!   A reply naming a cell that is not empty is never played.
//!
//! **Why each rule is sound.** Every rule is applied to the actual board
//! `A`, the position really on the board: the lookup board `L` only
//! chooses which entries to use, so a wrong choice can make a true claim
//! fail but never a false one pass. At the attacker's turn one move (or a
//! run, or a tree) that wins is enough; at the defender's turn every empty
//! cell is played, and each must be answered — by `L`+x's entries, by a
//! cover whose replay wins on `A`+x, or, for a cell outside a `zone`
//! entry's list, by `L`'s own attacker entries replayed on `A`+x: in each
//! case the answer is checked on the board the defender's stone is really
//! on. A completion cell of the attacker's wins at its turn (it completes
//! a line); the defender, to move, must have none (else it would win) and
//! the board must not be full (a draw). A replay fails whenever the
//! defender could complete a line, or has a choice of blocks, so it wins
//! only when each defender move is forced. A position met again on its
//! own path is a cycle and fails, so no verdict rests on itself.
//!
//! Verdicts are memoised by (side to move, `L`, `A`), each board by its
//! key; the common case `L` = `A` is kept by (side, `A`) alone. A position
//! met again while it is being checked is a cycle, and fails. A tree's
//! boards are not memoised: each node of a tree has one path from its
//! root, so one replay of a tree visits each node at most once, and the
//! tree's verdict on (`L`, `A`) is memoised as the entry's.

use std::collections::HashMap;

use crate::meter::Meter;
use crate::{Checked, Kind, Limits};

const EMPTY: u8 = 0;
const X: u8 = 1;
const O: u8 = 2;

/// Line 1 of a certificate of version 3, of version 2 (still read; it has
/// no `vct` entries) and of version 1 (still read; it has no `zone`
/// entries either).
const HEADER: &str = "# retrograde threat proof certificate 3";
const HEADER_V2: &str = "# retrograde threat proof certificate 2";
const HEADER_V1: &str = "# retrograde threat proof certificate 1";

/// Boards of up to 256 cells (at most 26 columns, lettered `a` to `z`);
/// the stack the check runs on (it recurses once or twice per ply).
const MAX_CELLS: usize = 256;
const STACK_BYTES: usize = 256 << 20;

/// Checks a threat proof certificate's text; Ok(number of positions checked) or Err(one-line reason).
///
/// The number counts each distinct position (side to move, lookup board,
/// actual board) checked through its `move`, `vcf` or `vct` entry or with
/// the defender to move, plus each defender reply (and the root) settled at
/// once by a completion cell or a `cover` run; and, in the replay of a
/// `vct` tree, each defender step's board, each board after a defender
/// reply that a reply of the tree answers, and each one settled at once by
/// a completion cell or a cover run of the step.
pub fn check_certificate(text: &str) -> Result<usize, String> {
    check(text).map(|checked| checked.positions.unwrap_or_default())
}

/// Checks a threat proof certificate's text: what it proves (the board,
/// the claim, the root position unless it is the empty board, and the
/// number of positions of [`check_certificate`]) or a one-line reason.
pub fn check(text: &str) -> Result<Checked, String> {
    check_metered(text, &mut Meter::new(&Limits::none()))
}

/// [`check`], counting each position held in the memo on `meter`.
pub(crate) fn check_metered(text: &str, meter: &mut Meter) -> Result<Checked, String> {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("threat-checker".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || check_text(text, meter))
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

    /// A diagram: rows from the top separated by `/`, cells `X`, `O`, `.`;
    /// without a completed line, and for the root (`root`) with stone
    /// counts some game reaches (an entry's stones need not say who is to
    /// move: its kind does).
    fn parse_board(&self, word: &str, root: bool) -> Result<Pos, String> {
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
        if root && xs != os && xs != os + 1 {
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

/// Whether `player` has a stone on `cell` of the board of `key`.
fn has_stone(key: &Key, cell: usize, player: u8) -> bool {
    let base = if player == X { 0 } else { 4 };
    key[base + cell / 64] & (1 << (cell % 64)) != 0
}

/// A set of cells, by their bits (a `zone` entry's list).
type Cells = [u64; 4];

fn contains(cells: &Cells, cell: usize) -> bool {
    cells[cell / 64] & (1 << (cell % 64)) != 0
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

/// The diagram of the board of `key`.
fn key_diagram(geo: &Geometry, key: &Key) -> String {
    (0..geo.rows)
        .map(|row| {
            (row * geo.cols..(row + 1) * geo.cols)
                .map(|cell| {
                    if has_stone(key, cell, X) {
                        'X'
                    } else if has_stone(key, cell, O) {
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

/// What the attacker does at a board where it is to move.
enum Plan {
    Move(usize),
    Vcf(Vec<usize>),
    /// A threat-space tree: its attacker step, by its index in
    /// [`Trees::attacks`].
    Vct(usize),
}

impl Plan {
    fn kind(&self) -> &'static str {
        match self {
            Plan::Move(_) => "move",
            Plan::Vcf(_) => "vcf",
            Plan::Vct(_) => "vct",
        }
    }
}

/// An attacker step of a `vct` tree.
enum Attack {
    /// `*`: the attacker has a completion cell.
    Star,
    /// `( a₁ … aₙ )`: the run wins by replay.
    Run(Vec<usize>),
    /// `CELL defender`: the attacker plays the cell; then the defender
    /// step, by its index in [`Trees::defences`].
    Play(usize, usize),
}

/// A defender step of a `vct` tree.
#[derive(Default)]
struct Defence {
    covers: Vec<Vec<usize>>,
    /// Each reply's cell and its attacker step (by its index in
    /// [`Trees::attacks`]).
    replies: Vec<(usize, usize)>,
}

/// The steps of every `vct` tree of a certificate, which refer to each
/// other by index (so that no tree, however deep, is built or dropped by
/// recursion).
#[derive(Default)]
struct Trees {
    attacks: Vec<Attack>,
    defences: Vec<Defence>,
}

/// Where an attacker step being read goes: the tree's root, or a reply
/// (its defender step, its cell).
enum Slot {
    Root,
    Reply(usize, usize),
}

/// Reads the words of a `vct` entry's tree by the grammar of the spec
///
/// ```text
/// attacker := "*" | "(" CELL+ ")" | CELL defender
/// defender := "[" cover* reply* "]"
/// cover    := "(" CELL+ ")"
/// reply    := CELL attacker
/// ```
///
/// into `trees`, without recursion: the index of its attacker step, or why
/// the words are not one tree.
fn parse_tree(geo: &Geometry, words: &[&str], trees: &mut Trees) -> Result<usize, String> {
    const MARKS: [&str; 5] = ["*", "(", ")", "[", "]"];
    // the word at `i` (1-based in messages)
    let shown = |i: usize| match words.get(i) {
        Some(w) => format!("{w:?} (word {} of the tree)", i + 1),
        None => "the end of the tree".to_string(),
    };
    let cell_at = |i: usize| -> Result<usize, String> {
        let word = words[i];
        if MARKS.contains(&word) {
            return Err(format!("expected a cell, not {}", shown(i)));
        }
        geo.parse_cell(word)
            .map_err(|why| format!("{why} (word {} of the tree)", i + 1))
    };
    // a run after its `(` at `i`: its cells, and the index after its `)`
    let run_at = |mut i: usize| -> Result<(Vec<usize>, usize), String> {
        let open = i - 1;
        let mut run = Vec::new();
        loop {
            match words.get(i) {
                None => return Err(format!("the `(` of word {} has no `)`", open + 1)),
                Some(&")") if run.is_empty() => {
                    return Err(format!("an empty run at word {} of the tree", open + 1))
                }
                Some(&")") => return Ok((run, i + 1)),
                Some(_) => run.push(cell_at(i)?),
            }
            i += 1;
        }
    };
    let mut i = 0;
    // the defender steps open, the innermost last
    let mut open: Vec<usize> = Vec::new();
    // an attacker step to read, and where it goes
    let mut slot = Some(Slot::Root);
    let mut root = None;
    loop {
        if let Some(into) = slot.take() {
            let attack = match words.get(i).copied() {
                None => {
                    return Err(format!(
                        "expected an attacker step (`*`, `(` or a cell), not {}",
                        shown(i)
                    ))
                }
                Some("*") => {
                    i += 1;
                    Attack::Star
                }
                Some("(") => {
                    let (run, next) = run_at(i + 1)?;
                    i = next;
                    Attack::Run(run)
                }
                Some(w) if MARKS.contains(&w) => {
                    return Err(format!(
                        "expected an attacker step (`*`, `(` or a cell), not {}",
                        shown(i)
                    ))
                }
                Some(_) => {
                    let cell = cell_at(i)?;
                    if words.get(i + 1) != Some(&"[") {
                        return Err(format!(
                            "expected `[` after the attacker's {}, not {}",
                            words[i],
                            shown(i + 1)
                        ));
                    }
                    i += 2;
                    let defence = trees.defences.len();
                    trees.defences.push(Defence::default());
                    open.push(defence);
                    Attack::Play(cell, defence)
                }
            };
            let id = trees.attacks.len();
            trees.attacks.push(attack);
            match into {
                Slot::Root => root = Some(id),
                Slot::Reply(defence, cell) => trees.defences[defence].replies.push((cell, id)),
            }
        } else {
            // in the innermost defender step open
            let defence = *open.last().expect("a defender step is open");
            match words.get(i).copied() {
                None => {
                    return Err(
                        "the tree ends inside a defender step (a `[` without its `]`)".into(),
                    )
                }
                Some("]") => {
                    i += 1;
                    open.pop();
                }
                Some("(") => {
                    if !trees.defences[defence].replies.is_empty() {
                        return Err(format!(
                            "a cover after a reply, at {} (covers come first)",
                            shown(i)
                        ));
                    }
                    let (run, next) = run_at(i + 1)?;
                    i = next;
                    trees.defences[defence].covers.push(run);
                }
                Some(w) if MARKS.contains(&w) => {
                    return Err(format!(
                        "expected a cover `(`, a reply's cell or `]`, not {}",
                        shown(i)
                    ))
                }
                Some(_) => {
                    let cell = cell_at(i)?;
                    i += 1;
                    slot = Some(Slot::Reply(defence, cell));
                }
            }
        }
        if slot.is_none() && open.is_empty() {
            break;
        }
    }
    if i < words.len() {
        return Err(format!("{} follows the whole tree", shown(i)));
    }
    Ok(root.expect("the root step was read"))
}

/// A certificate, read; the entries by the key of their board.
struct Certificate {
    geo: Geometry,
    attacker: u8,
    root: Pos,
    plans: HashMap<Key, Plan>,
    trees: Trees,
    covers: HashMap<Key, Vec<Vec<usize>>>,
    zones: HashMap<Key, Cells>,
}

fn parse(text: &str) -> Result<Certificate, String> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if text.ends_with('\n') {
        lines.pop();
    }
    let version = match lines.first() {
        Some(&HEADER) => 3,
        Some(&HEADER_V2) => 2,
        Some(&HEADER_V1) => 1,
        _ => {
            return Err(format!(
                "line 1 is not {HEADER:?} (nor {HEADER_V2:?}, nor {HEADER_V1:?})"
            ))
        }
    };
    let mut geo: Option<Geometry> = None;
    let mut attacker: Option<u8> = None;
    let mut root: Option<Pos> = None;
    let mut plans: HashMap<Key, Plan> = HashMap::new();
    let mut trees = Trees::default();
    let mut covers: HashMap<Key, Vec<Vec<usize>>> = HashMap::new();
    let mut zones: HashMap<Key, Cells> = HashMap::new();
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
        if attacker.is_none() {
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
        }
        if root.is_none() {
            let ["root", board] = words[..] else {
                return Err(at(format!("expected `root BOARD`, not {line:?}")));
            };
            root = Some(g.parse_board(board, true).map_err(at)?);
            continue;
        }
        // an entry: its kind, not its stones, says who is to move at its board
        let kind = words[0];
        if !["move", "vcf", "vct", "cover", "zone"].contains(&kind) {
            return Err(at(format!("unknown entry {line:?}")));
        }
        if kind == "vct" && version < 3 {
            return Err(at(format!(
                "a vct entry in a version {version} certificate (vct entries need version 3)"
            )));
        }
        if kind == "zone" && version < 2 {
            return Err(at(format!(
                "a zone entry in a version 1 certificate: {line:?}"
            )));
        }
        // a zone's list of cells may be empty
        let least = if kind == "zone" { 2 } else { 3 };
        if words.len() < least {
            return Err(at(format!("malformed entry {line:?}")));
        }
        let pos = g.parse_board(words[1], false).map_err(at)?;
        let key = pos.key();
        if kind == "vct" {
            let step = parse_tree(g, &words[2..], &mut trees)
                .map_err(|why| at(format!("a bad vct tree: {why}")))?;
            if let Some(old) = plans.insert(key, Plan::Vct(step)) {
                return Err(at(format!(
                    "a second entry (vct after {}) for {}",
                    old.kind(),
                    words[1]
                )));
            }
            continue;
        }
        let cells = words[2..]
            .iter()
            .map(|w| g.parse_cell(w))
            .collect::<Result<Vec<usize>, String>>()
            .map_err(at)?;
        match kind {
            "move" | "vcf" => {
                let plan = if kind == "move" {
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
                    return Err(at(format!(
                        "a second entry ({kind} after {}) for {}",
                        old.kind(),
                        words[1]
                    )));
                }
            }
            "cover" => covers.entry(key).or_default().push(cells),
            "zone" => {
                let mut zone: Cells = [0; 4];
                for cell in cells {
                    zone[cell / 64] |= 1 << (cell % 64);
                }
                if zones.insert(key, zone).is_some() {
                    return Err(at(format!("a second zone entry for {}", words[1])));
                }
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
        trees,
        covers,
        zones,
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

/// Who is to move at a position.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    Attacker,
    Defender,
}

enum Status {
    Checking,
    Holds,
    Fails(Broken),
}

/// A position the spec asks about: the lookup board `L` (by its key),
/// whose entries are used, and the actual board `A` (its cells, and its
/// key), which is `L` with zero or more extra defender stones.
struct At<'p> {
    lookup: Key,
    actual: &'p Pos,
    actual_key: Key,
}

/// The verdicts found, by (side to move, `L`, `A`): those with `L` = `A`
/// (all of them in a certificate without `zone` entries) by (side, `A`)
/// alone, the others by all three.
#[derive(Default)]
struct Memo {
    same: HashMap<(Side, Key), Status>,
    extra: HashMap<(Side, Key, Key), Status>,
}

impl Memo {
    fn get(&self, side: Side, at: &At) -> Option<&Status> {
        if at.lookup == at.actual_key {
            self.same.get(&(side, at.actual_key))
        } else {
            self.extra.get(&(side, at.lookup, at.actual_key))
        }
    }

    fn insert(&mut self, side: Side, at: &At, status: Status) {
        if at.lookup == at.actual_key {
            self.same.insert((side, at.actual_key), status);
        } else {
            self.extra.insert((side, at.lookup, at.actual_key), status);
        }
    }
}

struct Checker<'a> {
    cert: &'a Certificate,
    meter: &'a mut Meter,
    memo: Memo,
    checked: usize,
}

fn check_text(text: &str, meter: &mut Meter) -> Result<Checked, String> {
    let cert = parse(text)?;
    let mut checker = Checker {
        cert: &cert,
        meter,
        memo: Memo::default(),
        checked: 0,
    };
    let root = At {
        lookup: cert.root.key(),
        actual: &cert.root,
        actual_key: cert.root.key(),
    };
    let verdict = if cert.root.to_move() == cert.attacker {
        checker.attacker_holds(&root)
    } else {
        checker.defender_holds(&root)
    };
    verdict.map_err(|b| format!("the claim fails: {}", b.why))?;
    let geo = &cert.geo;
    let root = cert.root.diagram(geo);
    Ok(Checked {
        kind: Kind::Threats,
        board: (geo.cols, geo.rows, geo.k),
        claims: vec![format!("{} wins", player_name(cert.attacker))],
        root: root.contains(['X', 'O']).then_some(root),
        positions: Some(checker.checked),
    })
}

impl Checker<'_> {
    /// `A`'s diagram, followed by `L`'s when they differ.
    fn name(&self, at: &At) -> String {
        let geo = &self.cert.geo;
        if at.lookup == at.actual_key {
            at.actual.diagram(geo)
        } else {
            format!(
                "{} (lookup board {})",
                at.actual.diagram(geo),
                key_diagram(geo, &at.lookup)
            )
        }
    }

    /// The memo's verdict on `at` with `side` to move, if any.
    fn recall(&self, side: Side, at: &At) -> Option<Result<(), Broken>> {
        match self.memo.get(side, at)? {
            Status::Holds => Some(Ok(())),
            Status::Fails(broken) => Some(Err(broken.clone())),
            Status::Checking => Some(Err(deep(format!("a cycle through {}", self.name(at))))),
        }
    }

    fn remember(&mut self, side: Side, at: &At, verdict: &Result<(), Broken>) {
        let status = match verdict {
            Ok(()) => Status::Holds,
            Err(broken) => Status::Fails(broken.clone()),
        };
        self.memo.insert(side, at, status);
    }

    /// Whether `at`, with the attacker to move, holds.
    fn attacker_holds(&mut self, at: &At) -> Result<(), Broken> {
        let geo = &self.cert.geo;
        if !at
            .actual
            .completion_cells(geo, self.cert.attacker, 1)
            .is_empty()
        {
            self.checked += 1;
            return Ok(());
        }
        self.planned_holds(at)
    }

    /// Whether `at`, with the attacker to move and without a completion
    /// cell of the attacker's in `A`, holds by the `move`, `vcf` or `vct`
    /// entry of `L`.
    fn planned_holds(&mut self, at: &At) -> Result<(), Broken> {
        let cert = self.cert;
        let geo = &cert.geo;
        if let Some(verdict) = self.recall(Side::Attacker, at) {
            return verdict;
        }
        let Some(plan) = cert.plans.get(&at.lookup) else {
            return Err(shallow(format!(
                "no move, vcf or vct entry for {}",
                key_diagram(geo, &at.lookup)
            )));
        };
        self.meter.hold().map_err(shallow)?;
        self.memo.insert(Side::Attacker, at, Status::Checking);
        self.checked += 1;
        let verdict = match plan {
            Plan::Vcf(run) => replay(geo, at.actual, run, cert.attacker).map_err(|why| {
                shallow(format!(
                    "the vcf run {} at {} fails: {why}",
                    geo.cell_names(run),
                    self.name(at)
                ))
            }),
            &Plan::Vct(step) => self.step_wins(at.actual, step).map_err(|broken| Broken {
                why: format!("the vct tree at {} fails: {}", self.name(at), broken.why),
                deep: broken.deep,
            }),
            &Plan::Move(cell) => {
                if at.actual.cells[cell] != EMPTY {
                    Err(shallow(format!(
                        "the move {} at {} is onto an occupied cell",
                        geo.cell_name(cell),
                        self.name(at)
                    )))
                } else {
                    let mut child = at.actual.clone();
                    child.place(geo, cell, cert.attacker);
                    if child.has_line(geo, cert.attacker) {
                        Ok(())
                    } else {
                        self.defender_holds(&At {
                            lookup: with_stone(at.lookup, cell, cert.attacker),
                            actual: &child,
                            actual_key: with_stone(at.actual_key, cell, cert.attacker),
                        })
                    }
                }
            }
        };
        self.remember(Side::Attacker, at, &verdict);
        verdict
    }

    /// Whether `at`, with the defender to move, holds.
    fn defender_holds(&mut self, at: &At) -> Result<(), Broken> {
        if let Some(verdict) = self.recall(Side::Defender, at) {
            return verdict;
        }
        self.meter.hold().map_err(shallow)?;
        self.memo.insert(Side::Defender, at, Status::Checking);
        self.checked += 1;
        let verdict = self.every_reply_answered(at);
        self.remember(Side::Defender, at, &verdict);
        verdict
    }

    fn every_reply_answered(&mut self, at: &At) -> Result<(), Broken> {
        let cert = self.cert;
        let geo = &cert.geo;
        let (attacker, defender) = (cert.attacker, other(cert.attacker));
        let pos = at.actual;
        self.defender_may_move(pos, &|| self.name(at))?;
        let threats = pos.completion_cells(geo, attacker, usize::MAX);
        let covers: &[Vec<usize>] = cert.covers.get(&at.lookup).map_or(&[], Vec::as_slice);
        let zone = cert.zones.get(&at.lookup);
        for x in 0..geo.cells() {
            if pos.cells[x] != EMPTY {
                continue;
            }
            // After the defender's stone on x the attacker's completion cells
            // are exactly `threats` without x: the attacker's stones are the
            // same, and a cell completes a line only when the line's other
            // cells are all the attacker's stones (so x is not among them).
            // Then (L+x, A+x) holds with the attacker to move.
            if threats.iter().any(|&t| t != x) {
                self.checked += 1;
                continue;
            }
            let mut child = pos.clone();
            child.place(geo, x, defender);
            debug_assert!(child.completion_cells(geo, attacker, 1).is_empty());
            let actual_key = with_stone(at.actual_key, x, defender);
            // (L+x, A+x) by the entry of L+x
            let lookup = with_stone(at.lookup, x, defender);
            let entry = if cert.plans.contains_key(&lookup) {
                let after = At {
                    lookup,
                    actual: &child,
                    actual_key,
                };
                match self.planned_holds(&after) {
                    Ok(()) => continue,
                    Err(broken) => Some(broken),
                }
            } else {
                None
            };
            // a cover run of L on A+x
            if covers
                .iter()
                .any(|run| replay(geo, &child, run, attacker).is_ok())
            {
                self.checked += 1;
                continue;
            }
            // outside the zone of L: (L, A+x), x an extra stone
            let outside = match zone {
                Some(zone) if !contains(zone, x) => {
                    let after = At {
                        lookup: at.lookup,
                        actual: &child,
                        actual_key,
                    };
                    match self.planned_holds(&after) {
                        Ok(()) => continue,
                        Err(broken) => Some(broken),
                    }
                }
                _ => None,
            };
            let reply = format!(
                "the defender's reply {} at {}",
                geo.cell_name(x),
                self.name(at)
            );
            if let Some(broken) = entry.iter().chain(&outside).find(|b| b.deep) {
                return Err(broken.clone());
            }
            let mut why = match entry {
                Some(broken) => format!("{reply}: {}, and no cover run wins after it", broken.why),
                None => format!(
                    "{reply} has no move, vcf or vct entry after it, and no cover run wins after it"
                ),
            };
            match (zone, outside) {
                (None, _) => {}
                (Some(_), None) => why.push_str(", and the zone lists it"),
                (Some(_), Some(broken)) => {
                    why.push_str(&format!(", and outside the zone: {}", broken.why));
                }
            }
            return Err(deep(why));
        }
        Ok(())
    }

    /// Whether the attacker step `step` of a `vct` tree wins on `pos`, the
    /// attacker to move. Why not is `deep` when it was found below a reply
    /// of the tree (it then names the board and the reply).
    fn step_wins(&mut self, pos: &Pos, step: usize) -> Result<(), Broken> {
        let cert = self.cert;
        let geo = &cert.geo;
        let attacker = cert.attacker;
        match &cert.trees.attacks[step] {
            Attack::Star => {
                if pos.completion_cells(geo, attacker, 1).is_empty() {
                    Err(shallow(format!(
                        "`*` at {}, where the attacker has no completion cell",
                        pos.diagram(geo)
                    )))
                } else {
                    Ok(())
                }
            }
            Attack::Run(run) => replay(geo, pos, run, attacker).map_err(|why| {
                shallow(format!(
                    "the run {} at {} fails: {why}",
                    geo.cell_names(run),
                    pos.diagram(geo)
                ))
            }),
            &Attack::Play(cell, defence) => {
                if pos.cells[cell] != EMPTY {
                    return Err(shallow(format!(
                        "the move {} at {} is onto an occupied cell",
                        geo.cell_name(cell),
                        pos.diagram(geo)
                    )));
                }
                let mut child = pos.clone();
                child.place(geo, cell, attacker);
                if child.has_line(geo, attacker) {
                    return Ok(());
                }
                self.defence_holds(&child, defence)
            }
        }
    }

    /// What a defender's turn needs before its moves are played: `pos` is
    /// not full and the defender has no completion cell; `name` names the
    /// board in the reason (made only for one).
    fn defender_may_move(&self, pos: &Pos, name: &dyn Fn() -> String) -> Result<(), Broken> {
        let geo = &self.cert.geo;
        if pos.is_full() {
            return Err(deep(format!(
                "the defender is to move at a full board {}",
                name()
            )));
        }
        let defender = other(self.cert.attacker);
        if let Some(&c) = pos.completion_cells(geo, defender, 1).first() {
            return Err(deep(format!(
                "the defender, to move at {}, has a completion cell {}",
                name(),
                geo.cell_name(c)
            )));
        }
        Ok(())
    }

    /// Whether the defender step `defence` of a `vct` tree holds on `pos`,
    /// the defender to move; why not names the board (and the reply).
    fn defence_holds(&mut self, pos: &Pos, defence: usize) -> Result<(), Broken> {
        let cert = self.cert;
        let geo = &cert.geo;
        let (attacker, defender) = (cert.attacker, other(cert.attacker));
        let step = &cert.trees.defences[defence];
        self.checked += 1;
        self.defender_may_move(pos, &|| format!("{} in the tree", pos.diagram(geo)))?;
        // each cell's reply, if any
        let mut reply_of: Vec<Option<usize>> = vec![None; geo.cells()];
        for &(cell, attack) in &step.replies {
            if reply_of[cell].replace(attack).is_some() {
                return Err(deep(format!(
                    "the defender step at {} in the tree has two replies {}",
                    pos.diagram(geo),
                    geo.cell_name(cell)
                )));
            }
        }
        // as in `every_reply_answered`: after the defender's stone on x the
        // attacker's completion cells are these without x
        let threats = pos.completion_cells(geo, attacker, usize::MAX);
        for (x, &answer) in reply_of.iter().enumerate() {
            if pos.cells[x] != EMPTY {
                continue;
            }
            let reply = || {
                format!(
                    "the defender's reply {} at {}",
                    geo.cell_name(x),
                    pos.diagram(geo)
                )
            };
            if let Some(attack) = answer {
                // the reply alone decides
                let mut child = pos.clone();
                child.place(geo, x, defender);
                self.checked += 1;
                self.step_wins(&child, attack).map_err(|broken| {
                    if broken.deep {
                        broken
                    } else {
                        deep(format!("{}: {}", reply(), broken.why))
                    }
                })?;
                continue;
            }
            if threats.iter().any(|&t| t != x) {
                self.checked += 1;
                continue;
            }
            let mut child = pos.clone();
            child.place(geo, x, defender);
            if step
                .covers
                .iter()
                .any(|run| replay(geo, &child, run, attacker).is_ok())
            {
                self.checked += 1;
                continue;
            }
            return Err(deep(if step.covers.is_empty() {
                format!(
                    "{} is no reply of the tree's step there, which has no cover run",
                    reply()
                )
            } else {
                format!(
                    "{} is no reply of the tree's step there, and none of the step's {} cover runs wins after it",
                    reply(),
                    step.covers.len()
                )
            }));
        }
        Ok(())
    }
}
