//! One position language for the board games (m,n,k and gravity boards):
//! how a person writes a position and a move, and how every command prints
//! them back — so a move printed by any command is accepted as it is by
//! `--moves` and by `play`.
//!
//! ## Layout and notation
//!
//! A position is two stone sets, `x` and `o`, over cells numbered row by
//! row from the **top** row, as a diagram is read:
//!
//! ```text
//!        a  b  c  d          cell = row · cols + col
//!   1    0  1  2  3          (row 1 printed first)
//!   2    4  5  6  7
//!   3    8  9 10 11
//! ```
//!
//! * **m,n,k moves** name a cell as in a spreadsheet: the column's letter
//!   (`a` first) and the row's number counted from 1 at the top — `b3` is
//!   the second column of the third row. Letters may be given in either
//!   case; the tool prints lower case.
//! * **Gravity moves** name a column, counted from 1 at the left (the
//!   convention of Pascal Pons' and John Tromp's Connect Four solvers); a
//!   stone drops to the lowest empty cell of its column.
//! * A **move list** separates moves by spaces or commas (`"b2 a1 c3"`,
//!   `"4 4 5 3"`); on gravity boards of at most 9 columns a bare digit
//!   string (`4453`) is a move list too.
//! * A **diagram** lists the rows from the top, separated by `/`: `X`, `O`,
//!   `.` for empty (`"XO./.X./..."`). On a gravity board every stone must
//!   rest on the bottom or on another stone.
//!
//! Boards are described everywhere as *columns × rows* (width × height),
//! the way Connect Four's 7×6 is named.

pub mod answer;
pub mod sentinel;

pub use crate::board::cells::Cells;
use crate::board::BoardSize;
use crate::error::{quoted, Error, Result};

/// Largest side of a board this module describes.
pub const MAX_SIDE: u32 = 16;

/// Most cells of a board this module describes: one bit a cell in a
/// [`Cells`] (16 × 16, gomoku's 15 × 15 included).
pub const MAX_CELLS: u32 = Cells::CAPACITY as u32;

/// Most cells of a board whose stones fit one `u64` word: the engines that
/// answer positions by search and the tables take boards up to this size
/// ([`Position::words`]).
pub const WORD_CELLS: u32 = 64;

/// How stones are placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// A stone may go on any empty cell (tic-tac-toe and its kin).
    Mnk,
    /// A stone drops to the lowest empty cell of a column (Connect Four).
    Gravity,
}

impl Family {
    /// The name every front end gives the family: `"mnk"` or `"connect"`
    /// (the command's subcommand, the HTTP API's `game`, Python's).
    pub fn name(self) -> &'static str {
        match self {
            Family::Mnk => "mnk",
            Family::Gravity => "connect",
        }
    }

    /// The family `name` names: [`Self::name`]'s, or `"gravity"` for
    /// the gravity family.
    pub fn named(name: &str) -> Option<Family> {
        match name {
            "mnk" => Some(Family::Mnk),
            "connect" | "gravity" => Some(Family::Gravity),
            _ => None,
        }
    }

    /// The stones in a row that win when none is given: 3 (tic-tac-toe)
    /// on m,n,k boards, 4 (Connect Four) on gravity boards.
    pub fn default_k(self) -> u32 {
        match self {
            Family::Mnk => 3,
            Family::Gravity => 4,
        }
    }

    /// The board a search or an answer takes when none is given:
    /// tic-tac-toe's 3 × 3, standard Connect Four's 7 × 6, each with its
    /// [`Self::default_k`]. (A whole board's table defaults to what it
    /// solves in seconds: `connect`'s 4 × 4.)
    pub fn default_board(self) -> BoardSize {
        match self {
            Family::Mnk => BoardSize::new(3, 3, 3),
            Family::Gravity => BoardSize::new(7, 6, 4),
        }
    }
}

/// A player. X moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Side {
    /// `"X"` or `"O"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::X => "X",
            Side::O => "O",
        }
    }
}

impl std::fmt::Display for Side {
    /// Its name: `X` or `O`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Side {
    /// By its name (`"X"`, `"O"`), as the answers' JSON gives it.
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl serde::Serialize for Status {
    /// By its name (`"in_progress"`, `"won"`, `"drawn"`); the winner is a
    /// key of its own in the answers' JSON.
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Moves remain and nobody has a line.
    InProgress,
    /// A player has `k` in a row.
    Won(Side),
    /// The board is full without a line.
    Drawn,
}

impl Status {
    /// `"in_progress"`, `"won"` or `"drawn"`.
    pub fn name(self) -> &'static str {
        match self {
            Status::InProgress => "in_progress",
            Status::Won(_) => "won",
            Status::Drawn => "drawn",
        }
    }

    /// The winner's name (`"X"` or `"O"`) once a line is made, else `None`.
    pub fn winner_name(self) -> Option<&'static str> {
        match self {
            Status::Won(side) => Some(side.name()),
            _ => None,
        }
    }
}

/// A position: the cells of each player (layout in the module docs), on
/// boards of up to `MAX_CELLS` cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Position {
    /// X's stones.
    pub x: Cells,
    /// O's stones.
    pub o: Cells,
}

impl Position {
    /// The position of X's stones `x` and O's `o`, one bit a cell, on a
    /// board of at most [`WORD_CELLS`] cells.
    pub fn from_words(x: u64, o: u64) -> Self {
        Self {
            x: Cells::from_word(x),
            o: Cells::from_word(o),
        }
    }

    /// X's and O's stones one bit a cell, for the engines of boards of at
    /// most [`WORD_CELLS`] cells. Contract: no stone lies past cell 63.
    pub fn words(&self) -> (u64, u64) {
        (self.x.word(), self.o.word())
    }

    /// The occupied cells.
    pub fn occupied(&self) -> Cells {
        self.x | self.o
    }

    /// Stones on the board.
    pub fn stones(&self) -> u32 {
        self.occupied().len()
    }

    /// The player whose turn it is (or would be, in a finished game).
    pub fn to_move(&self) -> Side {
        if self.x.len() == self.o.len() {
            Side::X
        } else {
            Side::O
        }
    }

    /// The position after the player to move puts a stone on `cell`.
    pub fn with(&self, cell: u32) -> Position {
        match self.to_move() {
            Side::X => Position {
                x: self.x.with(cell),
                o: self.o,
            },
            Side::O => Position {
                x: self.x,
                o: self.o.with(cell),
            },
        }
    }
}

/// A board of one family: its size, `k`, and its winning lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardGame {
    family: Family,
    cols: u32,
    rows: u32,
    k: u32,
    lines: Vec<Cells>,
}

impl BoardGame {
    /// Validates the size (sides 1 to `MAX_SIDE`, at most `MAX_CELLS`
    /// cells) and `k` (1 to the longer side) and lists the winning lines.
    /// Which engines answer positions of a board is the facade's concern
    /// (`crate::analyzer`): the language describes every board.
    pub fn new(family: Family, size: BoardSize) -> Result<Self> {
        let BoardSize { cols, rows, k } = size;
        if !(1..=MAX_SIDE).contains(&cols)
            || !(1..=MAX_SIDE).contains(&rows)
            || cols * rows > MAX_CELLS
        {
            return Err(Error::InvalidInput(format!(
                "a board of {cols} columns × {rows} rows is outside what positions describe (sides from 1 to {MAX_SIDE})"
            )));
        }
        if k == 0 || k > cols.max(rows) {
            return Err(Error::InvalidInput(format!(
                "k = {k} does not fit {cols} columns × {rows} rows (k from 1 to {})",
                cols.max(rows)
            )));
        }
        let lines = winning_lines(cols, rows, k)
            .iter()
            .map(|cells| cells.iter().fold(Cells::default(), |m, &c| m.with(c)))
            .collect();
        Ok(Self {
            family,
            cols,
            rows,
            k,
            lines,
        })
    }

    /// The family.
    pub fn family(&self) -> Family {
        self.family
    }

    /// Columns (width).
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// Rows (height).
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Stones in a row that win.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The board's size and `k`.
    pub fn size(&self) -> BoardSize {
        BoardSize::new(self.cols, self.rows, self.k)
    }

    /// Cells of the board.
    pub fn cells(&self) -> u32 {
        self.cols * self.rows
    }

    /// Every cell.
    pub fn full(&self) -> Cells {
        Cells::first_n(self.cells())
    }

    /// The empty cells of `p`.
    pub fn empty(&self, p: &Position) -> Cells {
        self.full().minus(p.occupied())
    }

    /// Whether `stones` hold `k` in a row.
    pub fn has_line(&self, stones: Cells) -> bool {
        self.lines.iter().any(|l| l.minus(stones).is_empty())
    }

    /// Where the game stands. Both players holding a line happens in no
    /// legal game; it is named for the last mover (see [`Self::check`]).
    pub fn status(&self, p: &Position) -> Status {
        match (self.has_line(p.x), self.has_line(p.o)) {
            (true, true) => Status::Won(if p.to_move() == Side::X {
                Side::O
            } else {
                Side::X
            }),
            (true, false) => Status::Won(Side::X),
            (false, true) => Status::Won(Side::O),
            _ if p.occupied() == self.full() => Status::Drawn,
            _ => Status::InProgress,
        }
    }

    /// The cells the player to move may take, in order of column (gravity:
    /// one cell a column with room) or of cell. Empty once the game is over.
    pub fn legal_cells(&self, p: &Position) -> Vec<u32> {
        if self.status(p) != Status::InProgress {
            return Vec::new();
        }
        let empty = self.empty(p);
        match self.family {
            Family::Mnk => empty.iter().collect(),
            Family::Gravity => (0..self.cols)
                .filter_map(|c| self.drop_cell(empty, c))
                .collect(),
        }
    }

    /// How far `cell` lies from the board's centre, doubled so it is whole:
    /// the column's distance on gravity boards, the larger of the row's
    /// and the column's on m,n,k boards (moves near the centre are tried
    /// first).
    pub fn distance_from_centre(&self, cell: u32) -> u32 {
        match self.family {
            Family::Gravity => (2 * (cell % self.cols)).abs_diff(self.cols - 1),
            Family::Mnk => mnk_distance_from_centre(self.cols, self.rows, cell),
        }
    }

    /// The lowest empty cell of column `col`, if it has room.
    pub fn drop_cell(&self, empty: Cells, col: u32) -> Option<u32> {
        (0..self.rows)
            .rev()
            .map(|r| r * self.cols + col)
            .find(|&cell| empty.has(cell))
    }

    /// A move in the notation of the module docs.
    pub fn format_move(&self, cell: u32) -> String {
        match self.family {
            Family::Mnk => mnk_cell_name(self.cols, cell),
            Family::Gravity => (cell % self.cols + 1).to_string(),
        }
    }

    /// The cell the move `text` takes in position `p`; refuses malformed,
    /// off-board and illegal moves with a sentence saying why.
    pub fn parse_move(&self, p: &Position, text: &str) -> Result<u32> {
        let bad = |why: String| Err(Error::InvalidInput(why));
        let text = text.trim();
        let cell = match self.family {
            Family::Mnk => parse_mnk_cell(self.cols, self.rows, text)?,
            Family::Gravity => {
                let Ok(col) = text.parse::<u32>() else {
                    return bad(format!(
                        "{} is not a move: give a column number from 1 to {}",
                        quoted(text),
                        self.cols
                    ));
                };
                if col == 0 || col > self.cols {
                    return bad(format!(
                        "column {col} is off the board (columns 1 to {})",
                        self.cols
                    ));
                }
                match self.drop_cell(self.empty(p), col - 1) {
                    Some(cell) => cell,
                    None => return bad(format!("column {col} is full")),
                }
            }
        };
        if self.status(p) != Status::InProgress {
            return bad("the game is already over".into());
        }
        if p.occupied().has(cell) {
            return bad(format!("{} is taken", self.format_move(cell)));
        }
        Ok(cell)
    }

    /// The position after the moves of `text` from the empty board (module
    /// docs); refuses a move that is illegal or comes after the game ended.
    /// A refusal quotes the text at most once, shortened (`quoted`): a
    /// text of one move is quoted as that move, a longer one as the text
    /// with its bad move after it.
    pub fn play_moves(&self, text: &str) -> Result<Position> {
        let text = text.trim();
        // moves are taken as they come, not gathered first: a long bad
        // line costs no more memory than its own bytes
        let tokens: Box<dyn Iterator<Item = &str>> = if self.family == Family::Gravity
            && self.cols <= 9
            && !text.is_empty()
            && text.bytes().all(|b| b.is_ascii_digit())
        {
            Box::new((0..text.len()).map(|i| &text[i..i + 1]))
        } else {
            Box::new(
                text.split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|t| !t.is_empty()),
            )
        };
        let mut p = Position::default();
        for (i, token) in tokens.enumerate() {
            if self.status(&p) != Status::InProgress {
                return Err(Error::InvalidInput(format!(
                    "move {}, {}, comes after the game ended",
                    i + 1,
                    quoted(token)
                )));
            }
            let cell = self.parse_move(&p, token).map_err(|e| {
                Error::InvalidInput(if token == text {
                    format!("move {}: {e}", i + 1)
                } else {
                    format!("move {} of {}: {e}", i + 1, quoted(text))
                })
            })?;
            p = p.with(cell);
        }
        Ok(p)
    }

    /// The position a diagram shows (module docs). Its size must be this
    /// board's; on a gravity board the stones must pass [`Self::check`] (an
    /// m,n,k diagram that no game reaches is answered as unreachable).
    pub fn parse_diagram(&self, text: &str) -> Result<Position> {
        let p = parse_diagram_any(text)?;
        if (p.cols, p.rows) != (self.cols, self.rows) {
            return Err(Error::InvalidInput(format!(
                "the diagram has {} column{} × {} row{}, the board {} × {}",
                p.cols,
                if p.cols == 1 { "" } else { "s" },
                p.rows,
                if p.rows == 1 { "" } else { "s" },
                self.cols,
                self.rows
            )));
        }
        if self.family == Family::Gravity {
            self.check(&p.position)?;
        }
        Ok(p.position)
    }

    /// Refuses what no game of this family reaches and no answer can fit:
    /// stone counts off by more than one, and on gravity boards floating
    /// stones and two winners. (An m,n,k position that no legal game
    /// reaches otherwise is answered as unreachable, not refused.)
    pub fn check(&self, p: &Position) -> Result<()> {
        let (xs, os) = (p.x.len(), p.o.len());
        if xs != os && xs != os + 1 {
            return Err(Error::InvalidInput(format!(
                "X has {xs} stones and O {os}: X moves first, so X has as many stones as O or one more"
            )));
        }
        if self.family == Family::Gravity {
            let occupied = p.occupied();
            for cell in 0..self.cells() - self.cols {
                let below = cell + self.cols;
                if occupied.has(cell) && !occupied.has(below) {
                    return Err(Error::InvalidInput(format!(
                        "the stone in column {} floats: on a gravity board every stone rests on the bottom or on another stone",
                        cell % self.cols + 1
                    )));
                }
            }
            if self.has_line(p.x) && self.has_line(p.o) {
                return Err(Error::InvalidInput(
                    "both players have a line: no game reaches this position".into(),
                ));
            }
        }
        Ok(())
    }

    /// Whether legal play from the empty board reaches `p`: the counts fit
    /// ([`Self::check`]) and the stones can be taken back one at a time,
    /// each time a stone of the player who moved last (on gravity boards
    /// the top stone of a column), leaving no line on the way — so only the
    /// last stone may complete a line. m,n,k positions without a line are
    /// always reachable; gravity positions are searched, each set of
    /// column heights once.
    pub fn reachable(&self, p: &Position) -> bool {
        if self.check(p).is_err() {
            return false;
        }
        let no_lines = |q: &Position| !self.has_line(q.x) && !self.has_line(q.o);
        match self.family {
            Family::Mnk => no_lines(p) || self.takebacks(p).iter().any(no_lines),
            Family::Gravity => {
                let mut seen = std::collections::HashSet::new();
                self.unplay(p, &mut seen)
            }
        }
    }

    /// The positions before `p` whose last move was by the player who moved
    /// last (on gravity boards, one a column: its top stone).
    fn takebacks(&self, p: &Position) -> Vec<Position> {
        let last_is_x = p.stones() % 2 == 1;
        let mine = if last_is_x { p.x } else { p.o };
        let take = |cell: u32| {
            let bit = Cells::one(cell);
            Position {
                x: p.x.minus(bit),
                o: p.o.minus(bit),
            }
        };
        match self.family {
            Family::Mnk => mine.iter().map(take).collect(),
            Family::Gravity => (0..self.cols)
                .filter_map(|c| {
                    let top = (0..self.rows)
                        .map(|r| r * self.cols + c)
                        .find(|&cell| p.occupied().has(cell))?;
                    mine.has(top).then(|| take(top))
                })
                .collect(),
        }
    }

    /// Depth-first search for a way back to the empty board (see
    /// [`Self::reachable`]); `seen` holds the occupied sets already tried.
    fn unplay(&self, p: &Position, seen: &mut std::collections::HashSet<Cells>) -> bool {
        if p.stones() == 0 {
            return true;
        }
        if !seen.insert(p.occupied()) {
            return false;
        }
        self.takebacks(p)
            .iter()
            .any(|q| !self.has_line(q.x) && !self.has_line(q.o) && self.unplay(q, seen))
    }

    /// The position as a one-line diagram (`"XO./.X./..."`).
    pub fn diagram(&self, p: &Position) -> String {
        self.rows_of(p).join("/")
    }

    /// The position drawn for a person: column labels on top, row numbers
    /// (m,n,k) on the left, one line a row; every cell as wide as the
    /// widest column label (two characters from 10 gravity columns on).
    pub fn render(&self, p: &Position) -> String {
        let labels: Vec<String> = (0..self.cols)
            .map(|c| match self.family {
                Family::Mnk => mnk_column_letter(c).to_string(),
                Family::Gravity => (c + 1).to_string(),
            })
            .collect();
        render_rows(&labels, self.family == Family::Mnk, &self.rows_of(p))
    }

    fn rows_of(&self, p: &Position) -> Vec<String> {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        let cell = r * self.cols + c;
                        if p.x.has(cell) {
                            'X'
                        } else if p.o.has(cell) {
                            'O'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

/// The m,n,k name of cell `cell` (`row · cols + col`, row 0 at the top)
/// of a board `cols` wide: its column letter, then its row from 1 at the
/// top (`b3`). Contract: `cols ≤ 26`.
pub fn mnk_cell_name(cols: u32, cell: u32) -> String {
    let (row, col) = (cell / cols, cell % cols);
    format!("{}{}", mnk_column_letter(col), row + 1)
}

/// The letter of m,n,k column `col` (0 is `a`). Contract: `col < 26`.
pub fn mnk_column_letter(col: u32) -> char {
    char::from(b'a' + col as u8)
}

/// The cell named `text` on an m,n,k board `cols` wide and `rows` high:
/// its column letter (either case), then its row from 1 at the top in
/// decimal digits (`b3`, `H8`; spaces around it are ignored): the names
/// [`mnk_cell_name`] gives, read back. A malformed or off-board name is
/// refused with a sentence saying why. Contract: `1 ≤ cols ≤ 26`.
pub fn parse_mnk_cell(cols: u32, rows: u32, text: &str) -> Result<u32> {
    let text = text.trim();
    let mut chars = text.chars();
    let letter = chars.next().map(|c| c.to_ascii_lowercase());
    let digits = chars.as_str();
    let row_is_a_number = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let (Some(letter @ 'a'..='z'), true) = (letter, row_is_a_number) else {
        return Err(Error::InvalidInput(format!(
            "{} is not a move: give the column's letter and the row's number, e.g. b2",
            quoted(text)
        )));
    };
    let col = letter as u32 - 'a' as u32;
    // (digits past u32 are a row past any board)
    let row = digits.parse::<u32>().unwrap_or(u32::MAX);
    if col >= cols || row == 0 || row > rows {
        return Err(Error::InvalidInput(format!(
            "{} is off the board (columns a to {}, rows 1 to {rows})",
            quoted(text),
            mnk_column_letter(cols.saturating_sub(1))
        )));
    }
    Ok((row - 1) * cols + col)
}

/// A board drawn for a person from its `rows` (one character a cell, from
/// the top): the column `labels` on top, the row numbers from 1 on the
/// left when `numbered`; every cell as wide as the widest label.
pub fn render_rows(labels: &[String], numbered: bool, rows: &[String]) -> String {
    let width = labels.iter().map(String::len).max().unwrap_or(1);
    let mut out = String::from("   ");
    for label in labels {
        out.push_str(&format!(" {label:>width$}"));
    }
    out.push('\n');
    for (r, row) in rows.iter().enumerate() {
        let label = if numbered {
            (r + 1).to_string()
        } else {
            String::new()
        };
        out.push_str(&format!("{label:>3}"));
        for ch in row.chars() {
            out.push_str(&format!(" {ch:>width$}"));
        }
        out.push('\n');
    }
    out
}

/// How far an m,n,k cell is from the centre of a `cols × rows` board, in
/// half cells: the larger of its column's and its row's distances.
pub fn mnk_distance_from_centre(cols: u32, rows: u32, cell: u32) -> u32 {
    let (row, col) = (cell / cols, cell % cols);
    (2 * col)
        .abs_diff(cols - 1)
        .max((2 * row).abs_diff(rows - 1))
}

/// The one-line diagram of an m,n,k board of `cols × rows` cells (rows
/// from the top separated by `/`), cell `row · cols + col` drawn as
/// `stone_at(cell)` (`'X'`, `'O'` or `'.'`); for boards of any size, as the
/// certificates write them.
pub fn mnk_diagram(cols: u32, rows: u32, stone_at: impl Fn(u32) -> char) -> String {
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| stone_at(r * cols + c))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Every line of `k` cells (horizontal, vertical, both diagonals) on a
/// board of `cols × rows`, each as its cells `row · cols + col`, each line
/// once. The set is the same whichever end counts rows (it is symmetric top
/// to bottom), so every engine's layout may use it. Contract: `1 ≤ k`.
pub fn winning_lines(cols: u32, rows: u32, k: u32) -> Vec<Vec<u32>> {
    let (cols, rows, k) = (i64::from(cols), i64::from(rows), i64::from(k));
    let mut lines: Vec<Vec<u32>> = Vec::new();
    for (dr, dc) in [(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
        for r in 0..rows {
            for c in 0..cols {
                let (er, ec) = (r + dr * (k - 1), c + dc * (k - 1));
                if er >= rows || ec < 0 || ec >= cols {
                    continue;
                }
                let cells: Vec<u32> = (0..k)
                    .map(|i| ((r + dr * i) * cols + c + dc * i) as u32)
                    .collect();
                // k = 1: the four directions give the same one-cell line
                if !lines.contains(&cells) {
                    lines.push(cells);
                }
            }
        }
    }
    lines
}

/// The images of every cell under the board's symmetries (identity first): the dihedral
/// group of the square (8) on a square board, else the identity, the two
/// mirrors and the half turn. Each maps windows onto windows.
pub fn cell_symmetries(cols: u32, rows: u32) -> Vec<Vec<u16>> {
    let (c, r) = (cols as i64, rows as i64);
    type Map = Box<dyn Fn(i64, i64) -> (i64, i64)>;
    let mut maps: Vec<Map> = vec![
        Box::new(|x, y| (x, y)),
        Box::new(move |x, y| (c - 1 - x, y)),
        Box::new(move |x, y| (x, r - 1 - y)),
        Box::new(move |x, y| (c - 1 - x, r - 1 - y)),
    ];
    if cols == rows {
        maps.push(Box::new(|x, y| (y, x)));
        maps.push(Box::new(move |x, y| (c - 1 - y, x)));
        maps.push(Box::new(move |x, y| (y, c - 1 - x)));
        maps.push(Box::new(move |x, y| (c - 1 - y, c - 1 - x)));
    }
    maps.iter()
        .map(|f| {
            (0..r * c)
                .map(|cell| {
                    let (x, y) = f(cell % c, cell / c);
                    (y * c + x) as u16
                })
                .collect()
        })
        .collect()
}

/// A diagram read without a board to check it against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// Columns.
    pub cols: u32,
    /// Rows.
    pub rows: u32,
    /// The stones.
    pub position: Position,
}

/// Reads a diagram (module docs) of any size up to `MAX_SIDE` a side and
/// `MAX_CELLS` cells.
pub fn parse_diagram_any(text: &str) -> Result<Diagram> {
    let bad = |why: String| Err(Error::InvalidInput(format!("bad board {text:?}: {why}")));
    if text.is_empty() {
        return bad("it is empty".into());
    }
    let rows: Vec<&str> = text.split('/').collect();
    let cols = rows[0].chars().count();
    if cols == 0 {
        return bad("a row is empty".into());
    }
    if let Some(r) = rows.iter().position(|row| row.chars().count() != cols) {
        return bad(format!(
            "row {} has {} cells, row 1 has {cols}",
            r + 1,
            rows[r].chars().count()
        ));
    }
    if rows.len() > MAX_SIDE as usize
        || cols > MAX_SIDE as usize
        || rows.len() * cols > MAX_CELLS as usize
    {
        return bad(format!(
            "{cols} columns × {} rows is beyond sides of {MAX_SIDE}",
            rows.len()
        ));
    }
    let mut position = Position::default();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let cell = (r * cols + c) as u32;
            match ch {
                'X' => position.x = position.x.with(cell),
                'O' => position.o = position.o.with(cell),
                '.' => {}
                other => return bad(format!("{other:?} is not X, O, . or /")),
            }
        }
    }
    Ok(Diagram {
        cols: cols as u32,
        rows: rows.len() as u32,
        position,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mnk_moves_are_spreadsheet_cells() {
        let g = BoardGame::new(Family::Mnk, BoardSize::new(3, 3, 3)).unwrap();
        let p = g.play_moves("b2 a1, C3").unwrap();
        assert_eq!(g.diagram(&p), "O../.X./..X");
        assert_eq!(g.format_move(8), "c3");
        assert_eq!(g.parse_move(&p, "c1").unwrap(), 2);
        assert!(g.parse_move(&p, "b2").is_err());
        assert!(g.parse_move(&p, "d1").is_err());
        assert!(g.parse_move(&p, "a0").is_err());
        assert!(g.play_moves("a1 b1 a2 b2 a3 b3").is_err());
        assert_eq!(g.parse_diagram("O../.X./..X").unwrap(), p);
        for text in ["", "XO/X", "XOZ/.../...", "x../.../...", "/", "...//..."] {
            assert!(parse_diagram_any(text).is_err(), "{text:?}");
        }
        assert_eq!(winning_lines(3, 3, 3).len(), 8);
        assert_eq!(winning_lines(4, 4, 4).len(), 10);
        assert_eq!(winning_lines(4, 4, 3).len(), 24);
        assert_eq!(winning_lines(2, 2, 1).len(), 4);
    }

    #[test]
    fn gravity_moves_are_columns_from_one() {
        let g = BoardGame::new(Family::Gravity, BoardSize::new(5, 4, 4)).unwrap();
        let p = g.play_moves("4453").unwrap();
        assert_eq!(p, g.play_moves("4 4 5 3").unwrap());
        assert_eq!(g.diagram(&p), "...../...../...O./..OXX");
        assert_eq!(g.parse_diagram(&g.diagram(&p)).unwrap(), p);
        assert!(g.parse_diagram(".X.../...../...../.....").is_err());
        assert!(g.play_moves("1111 1").is_err());
        assert!(g.play_moves("6").is_err());
        assert!(g.reachable(&p));
        // O under every X stone: X never had a first move
        let stuck = g.parse_diagram("...../...../..X../..O..").unwrap();
        assert!(!g.reachable(&stuck));
        // X's line was complete before O's last stone
        let late = g.parse_diagram("...../...../OOO../XXXXO").unwrap();
        assert!(!g.reachable(&late));
        assert!(g.parse_diagram("...../...../...../XXXXO").is_err());
        let mnk = BoardGame::new(Family::Mnk, BoardSize::new(3, 3, 3)).unwrap();
        let o_first = mnk.parse_diagram("O../.../...").unwrap();
        assert!(!mnk.reachable(&o_first));
        let cells = g.legal_cells(&p);
        assert_eq!(cells.len(), 5);
        for cell in cells {
            let m = g.format_move(cell);
            assert_eq!(g.parse_move(&p, &m).unwrap(), cell);
        }
    }
}
