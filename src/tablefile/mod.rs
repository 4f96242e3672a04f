//! Outcome tables on disk: a versioned, checksummed binary format, written
//! atomically and read back (into memory, then certified against the
//! game's rules) without solving again.
//! `docs/FORMAT.md` describes the layout byte by byte.
//!
//! Reading never trusts the file: every length is checked against what the
//! parameters imply, the checksum covers every byte before it, and every
//! failure is a [`Error::BadTableFile`] — never a panic, never a wrong answer.

use crate::board::BoardSize;
use std::path::Path;

use serde_json::{json, Value};

use std::io::Write;

use crate::atomic_file::write_atomically_with;
use crate::checksum::{Checksum, StreamChecksum};
use crate::error::{Error, Result};
use crate::game::RankedGame;
use crate::index::PlyShape;
use crate::memory::Budget;
use crate::position::answer::Oracle;
use crate::rules::can_i_win::{self, CanIWinTable};
use crate::rules::cat_mouse::CatMouseGraph;
use crate::rules::cat_mouse_grid::CatMouseGrid;
use crate::rules::ends::{self, EndsSolution};
use crate::rules::gravity::Gravity;
use crate::rules::mnk::Mnk;
use crate::rules::nim::{self, NimTable};
use crate::tablefile::certify::{check_mnk, check_retrograde};
use crate::tablefile::gravity_certificate::check_gravity;
use crate::tables::layered::{GameCounts, MnkSolution, PlyCounts, PlyTable};

use crate::game::table::{code, OutcomeTable};
use crate::tables::sparse::GravitySolution;

pub mod book;
pub mod book_journal;
pub mod certify;
mod gravity;
pub mod gravity_certificate;
pub mod open;
pub mod oracles;
pub mod parted;
pub mod replace;
pub mod symbolic;

pub use gravity::{GravityFile, GravityValues, BLOCK_POSITIONS};
pub use parted::MappedGravity;

/// The index encoding of a gravity table: canonical keys in checksummed
/// blocks (`gravity.rs`).
pub const GRAVITY_ENCODING: u32 = 7;

/// The game kind of a table of a game of your own (`src/own_game/file.rs`).
pub const OWN_GAME_KIND: u32 = 8;

/// The first eight bytes of every table file.
pub const MAGIC: &[u8; 8] = b"RETROGRD";
/// The format this build writes and reads; bumped on any change of layout.
pub const FORMAT_VERSION: u32 = 1;

const HEADER_BYTES: usize = 8 + 4 + 4 + 4 + 4 + 8;
pub(crate) const TRAILER_BYTES: usize = 4 + 8;

/// Which game a table solves, with everything needed to rebuild it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SavedGame {
    /// Cat and Mouse on a graph: the adjacency lists.
    Graph(Vec<Vec<u32>>),
    /// Cat and Mouse II on a grid.
    Grid {
        /// The rows of the grid.
        rows: Vec<String>,
        /// The cat's longest jump.
        cat_jump: u32,
        /// The mouse's longest jump.
        mouse_jump: u32,
    },
    /// An m,n,k board.
    Mnk {
        /// Rows.
        rows: u32,
        /// Columns.
        cols: u32,
        /// Stones in a row that win.
        k: u32,
    },
    /// A gravity board (Connect-Four family).
    Gravity {
        /// Columns.
        cols: u32,
        /// Rows.
        rows: u32,
        /// Stones in a row that win.
        k: u32,
    },
    /// Nim: every heap up to `stones`.
    Nim {
        /// The largest heap.
        stones: u64,
        /// The largest take.
        max_take: u64,
    },
    /// Can I Win: every set of used numbers.
    CanIWin {
        /// The numbers are `1..=max`.
        max: u32,
        /// The total to reach.
        total: i64,
    },
    /// Take from either end: every interval of the row.
    Ends {
        /// The row.
        numbers: Vec<u64>,
    },
}

impl SavedGame {
    /// The game of a board of `family` and `size` (m,n,k or gravity).
    pub fn of_board(family: crate::position::Family, size: BoardSize) -> Self {
        let BoardSize { cols, rows, k } = size;
        match family {
            crate::position::Family::Gravity => SavedGame::Gravity { cols, rows, k },
            crate::position::Family::Mnk => SavedGame::Mnk { rows, cols, k },
        }
    }

    /// The kind number stored in the header.
    pub fn kind(&self) -> u32 {
        match self {
            SavedGame::Graph(_) => 1,
            SavedGame::Grid { .. } => 2,
            SavedGame::Mnk { .. } => 3,
            SavedGame::Gravity { .. } => 4,
            SavedGame::Nim { .. } => 5,
            SavedGame::CanIWin { .. } => 6,
            SavedGame::Ends { .. } => 7,
        }
    }

    /// Bytes the description holds on the heap, roughly (lists, rows).
    pub fn heap_bytes(&self) -> u64 {
        match self {
            SavedGame::Graph(lists) => lists.iter().map(|l| 24 + 4 * l.len() as u64).sum(),
            SavedGame::Grid { rows, .. } => rows.iter().map(|r| 24 + r.len() as u64).sum(),
            SavedGame::Ends { numbers } => 8 * numbers.len() as u64,
            _ => 0,
        }
    }

    /// The kind's name: the subcommand that solves it.
    pub fn kind_name(&self) -> &'static str {
        match self {
            SavedGame::Graph(_) => "cat-mouse",
            SavedGame::Grid { .. } => "cat-mouse-grid",
            SavedGame::Mnk { .. } => crate::position::Family::Mnk.name(),
            SavedGame::Gravity { .. } => crate::position::Family::Gravity.name(),
            SavedGame::Nim { .. } => "nim",
            SavedGame::CanIWin { .. } => "can-i-win",
            SavedGame::Ends { .. } => "ends",
        }
    }

    /// Writes the parameters' JSON to `out` without building a JSON tree
    /// of them (a large graph's tree would cost far more than the graph).
    fn write_parameters(&self, out: impl Write) -> serde_json::Result<()> {
        #[derive(serde::Serialize)]
        struct GraphParameters<'a> {
            graph: &'a [Vec<u32>],
        }
        #[derive(serde::Serialize)]
        struct EndsParameters<'a> {
            numbers: &'a [u64],
        }
        match self {
            SavedGame::Graph(graph) => serde_json::to_writer(out, &GraphParameters { graph }),
            SavedGame::Ends { numbers } => serde_json::to_writer(out, &EndsParameters { numbers }),
            small => serde_json::to_writer(out, &small.parameters()),
        }
    }

    fn parameters(&self) -> Value {
        match self {
            SavedGame::Graph(graph) => json!({ "graph": graph }),
            SavedGame::Grid {
                rows,
                cat_jump,
                mouse_jump,
            } => {
                json!({ "grid": rows, "cat_jump": cat_jump, "mouse_jump": mouse_jump })
            }
            SavedGame::Mnk { rows, cols, k } => json!({ "rows": rows, "cols": cols, "k": k }),
            SavedGame::Gravity { cols, rows, k } => json!({ "cols": cols, "rows": rows, "k": k }),
            SavedGame::Nim { stones, max_take } => {
                json!({ "stones": stones, "max_take": max_take })
            }
            SavedGame::CanIWin { max, total } => json!({ "max": max, "total": total }),
            SavedGame::Ends { numbers } => json!({ "numbers": numbers }),
        }
    }

    fn from_parameters(kind: u32, p: &Value) -> std::result::Result<Self, String> {
        let number = |key: &str| {
            p[key]
                .as_u64()
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| format!("parameter {key} is missing or not a number"))
        };
        let big = |key: &str| {
            p[key]
                .as_u64()
                .ok_or_else(|| format!("parameter {key} is missing or not a number"))
        };
        match kind {
            1 => serde_json::from_value(p["graph"].clone())
                .map(SavedGame::Graph)
                .map_err(|e| format!("parameter graph: {e}")),
            2 => Ok(SavedGame::Grid {
                rows: serde_json::from_value(p["grid"].clone())
                    .map_err(|e| format!("parameter grid: {e}"))?,
                cat_jump: number("cat_jump")?,
                mouse_jump: number("mouse_jump")?,
            }),
            3 => Ok(SavedGame::Mnk {
                rows: number("rows")?,
                cols: number("cols")?,
                k: number("k")?,
            }),
            4 => Ok(SavedGame::Gravity {
                cols: number("cols")?,
                rows: number("rows")?,
                k: number("k")?,
            }),
            5 => Ok(SavedGame::Nim {
                stones: big("stones")?,
                max_take: big("max_take")?,
            }),
            6 => Ok(SavedGame::CanIWin {
                max: number("max")?,
                total: p["total"]
                    .as_i64()
                    .ok_or("parameter total is missing or not a number")?,
            }),
            7 => serde_json::from_value(p["numbers"].clone())
                .map(|numbers| SavedGame::Ends { numbers })
                .map_err(|e| format!("parameter numbers: {e}")),
            OWN_GAME_KIND => Err(format!(
                "a table of a game of your own ({}); open it with the program that \
                 defines its rules (retrograde::own::load)",
                p["game"].as_str().unwrap_or("unnamed")
            )),
            other => Err(format!("unknown game kind {other}")),
        }
    }
}

/// A solved table of either engine.
#[derive(Clone, Debug)]
pub enum SavedTable {
    /// A retrograde table (cat-and-mouse games).
    Retrograde(OutcomeTable),
    /// A layered m,n,k solution.
    Layered(MnkSolution),
    /// A sparse layered gravity solution.
    Gravity(GravitySolution),
    /// A Nim table.
    Nim(NimTable),
    /// A Can I Win table.
    CanIWin(CanIWinTable),
    /// A take-from-either-end solution.
    Ends(EndsSolution),
}

impl SavedTable {
    /// The table as the source of a board position's values: the one way
    /// a table becomes an [`Oracle`] (an m,n,k or gravity table; `None`
    /// for the games without board positions).
    pub fn oracle(&self) -> Option<Box<dyn Oracle + Sync + '_>> {
        match self {
            SavedTable::Layered(solution) => Some(Box::new(oracles::MnkTable(solution))),
            SavedTable::Gravity(solution) => Some(Box::new(oracles::GravityTable {
                game: &solution.game,
                solution,
            })),
            _ => None,
        }
    }
}

/// A writer that only counts the bytes written to it.
struct Counter(u64);

impl Write for Counter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 += bytes.len() as u64;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<W: Write> Write for Summing<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.put(bytes)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A writer that keeps the checksum of everything written through it.
pub(crate) struct Summing<W: Write> {
    inner: W,
    sum: StreamChecksum,
    written: u64,
}

impl<W: Write> Summing<W> {
    /// A writer to `out` that has written the header of a file of `game`
    /// in `encoding` holding `states` states, and its `PARM` section.
    fn head(out: W, game: &SavedGame, encoding: u32, states: u64) -> std::io::Result<Self> {
        let mut w = Self::header(out, game.kind(), encoding, states)?;
        let mut counted = Counter(0);
        game.write_parameters(&mut counted)?;
        w.section(b"PARM", counted.0, |w| Ok(game.write_parameters(w)?))?;
        Ok(w)
    }

    /// A writer to `out` that has written a file's header: the magic, the
    /// version, `kind`, `encoding` and `states` (the parameters come next).
    pub(crate) fn header(out: W, kind: u32, encoding: u32, states: u64) -> std::io::Result<Self> {
        let mut w = Summing {
            inner: out,
            sum: StreamChecksum::default(),
            written: 0,
        };
        w.put(MAGIC)?;
        w.put(&FORMAT_VERSION.to_le_bytes())?;
        w.put(&kind.to_le_bytes())?;
        w.put(&encoding.to_le_bytes())?;
        w.put(&0u32.to_le_bytes())?;
        w.put(&states.to_le_bytes())?;
        Ok(w)
    }

    /// Ends the file with the checksum trailer; returns the bytes of the
    /// whole file.
    pub(crate) fn trailer(mut self) -> std::io::Result<u64> {
        let sum = self.sum.value();
        self.inner.write_all(b"CSUM")?;
        self.inner.write_all(&sum.to_le_bytes())?;
        self.inner.flush()?;
        Ok(self.written + TRAILER_BYTES as u64)
    }

    pub(crate) fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.sum.update(bytes);
        self.written += bytes.len() as u64;
        self.inner.write_all(bytes)
    }

    /// A section's tag and length, then its content from `body`, which
    /// must write exactly `len` bytes.
    pub(crate) fn section(
        &mut self,
        tag: &[u8; 4],
        len: u64,
        body: impl FnOnce(&mut Self) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        self.put(tag)?;
        self.put(&len.to_le_bytes())?;
        let start = self.written;
        body(self)?;
        debug_assert_eq!(self.written - start, len, "section {tag:?}");
        Ok(())
    }

    pub(crate) fn words(&mut self, words: &[u64]) -> std::io::Result<()> {
        for chunk in words.chunks(1024) {
            let bytes: Vec<u8> = chunk.iter().flat_map(|w| w.to_le_bytes()).collect();
            self.put(&bytes)?;
        }
        Ok(())
    }

    pub(crate) fn json(&mut self, tag: &[u8; 4], value: &Value) -> std::io::Result<()> {
        let text = value.to_string();
        self.section(tag, text.len() as u64, |w| w.put(text.as_bytes()))
    }
}

/// Bytes of `words` 64-bit words.
fn word_len(words: &[u64]) -> u64 {
    words.len() as u64 * 8
}

/// Writes the file for a solved game to `out`, streaming: nothing beyond a
/// few kilobytes of buffer is held besides the table itself. Contract:
/// `table` solves `game`. Returns the bytes written.
pub fn write_table(out: impl Write, game: &SavedGame, table: &SavedTable) -> std::io::Result<u64> {
    let (encoding, states) = match table {
        SavedTable::Retrograde(t) => (1u32, t.states()),
        SavedTable::Layered(s) => (2u32, s.plies.iter().map(|p| p.shape.size).sum()),
        SavedTable::Gravity(s) => (GRAVITY_ENCODING, s.positions()),
        SavedTable::Nim(t) => (4u32, t.stones() + 1),
        SavedTable::CanIWin(t) => (5u32, t.states()),
        SavedTable::Ends(t) => (6u32, (t.numbers().len() * t.numbers().len()) as u64),
    };
    let mut w = Summing::head(out, game, encoding, states)?;
    match table {
        SavedTable::Retrograde(t) => {
            w.section(b"VALS", word_len(t.value_words()), |w| {
                w.words(t.value_words())
            })?;
            w.section(b"DEPT", t.depths().len() as u64 * 4, |w| {
                for chunk in t.depths().chunks(2048) {
                    let bytes: Vec<u8> = chunk.iter().flat_map(|d| d.to_le_bytes()).collect();
                    w.put(&bytes)?;
                }
                Ok(())
            })?;
        }
        SavedTable::Layered(s) => {
            w.json(
                b"SUMM",
                &json!({
                    "counts": s.counts,
                    "games": [s.games.x_wins.to_string(), s.games.o_wins.to_string(), s.games.draws.to_string()],
                }),
            )?;
            let raws: Vec<_> = s.plies.iter().map(|p| p.raw()).collect();
            let reach: u64 = raws.iter().map(|r| word_len(r.0)).sum();
            w.section(b"REAC", reach, |w| {
                raws.iter().try_for_each(|r| w.words(r.0))
            })?;
            let values: u64 = raws.iter().map(|r| word_len(r.1)).sum();
            w.section(b"VALS", values, |w| {
                raws.iter().try_for_each(|r| w.words(r.1))
            })?;
            let depths: u64 = raws.iter().map(|r| r.2.len() as u64).sum();
            w.section(b"DEPT", depths, |w| {
                raws.iter().try_for_each(|r| w.put(r.2))
            })?;
        }
        SavedTable::Gravity(s) => gravity::write_sections(&mut w, s)?,
        SavedTable::Nim(t) => {
            w.section(b"BITS", word_len(t.raw_words()), |w| w.words(t.raw_words()))?
        }
        SavedTable::CanIWin(t) => {
            w.section(b"BITS", word_len(t.raw_words()), |w| w.words(t.raw_words()))?
        }
        SavedTable::Ends(t) => {
            w.json(b"SUMM", &json!({ "difference": t.difference }))?;
            w.section(b"BITS", word_len(t.raw_words()), |w| w.words(t.raw_words()))?;
        }
    }
    w.trailer()
}

/// The file's bytes for a solved game, in memory (for tests and small
/// tables). Contract: `table` solves `game`.
pub fn encode(game: &SavedGame, table: &SavedTable) -> Vec<u8> {
    let mut out = Vec::new();
    write_table(&mut out, game, table).expect("writing to memory cannot fail");
    out
}

/// Writes the table to `path` atomically, streaming it through a buffer;
/// returns the file's size.
pub fn save(path: &Path, game: &SavedGame, table: &SavedTable) -> Result<u64> {
    save_with(path, |out| write_table(out, game, table))
}

/// Writes a file to `path` atomically through a buffer with `write`,
/// which returns the bytes it wrote; returns them.
pub(crate) fn save_with(
    path: &Path,
    write: impl FnOnce(std::io::BufWriter<&mut std::fs::File>) -> std::io::Result<u64>,
) -> Result<u64> {
    let mut size = 0;
    write_atomically_with(path, |file| {
        size = write(std::io::BufWriter::with_capacity(1 << 16, file))?;
        Ok(())
    })
    .map_err(|cause| Error::Io {
        path: path.display().to_string(),
        cause,
    })?;
    Ok(size)
}

/// Reads the regular file `path` and checks it completely; see [`decode`].
///
/// The file is read into memory rather than mapped: a mapped file that
/// another process shrinks while it is read kills the reader with SIGBUS,
/// and the whole table is copied into memory anyway.
pub fn load(path: &Path) -> Result<(SavedGame, SavedTable)> {
    let bytes = crate::files::read_regular(path)?;
    decode(&bytes).map_err(|e| rename(e, path))
}

pub(crate) fn rename(err: Error, path: &Path) -> Error {
    match err {
        Error::BadTableFile { why, .. } => Error::BadTableFile {
            path: path.display().to_string(),
            why,
        },
        other => other,
    }
}

/// Bounds-checked reading of the file's bytes.
pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) at: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn take(&mut self, n: usize, what: &str) -> std::result::Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("truncated: {what} runs past the end of the file"))?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    pub(crate) fn u32(&mut self, what: &str) -> std::result::Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4, what)?.try_into().expect("4 bytes"),
        ))
    }

    pub(crate) fn u64(&mut self, what: &str) -> std::result::Result<u64, String> {
        Ok(u64::from_le_bytes(
            self.take(8, what)?.try_into().expect("8 bytes"),
        ))
    }

    pub(crate) fn section(
        &mut self,
        tag: &[u8; 4],
        expected_len: Option<u64>,
    ) -> std::result::Result<&'a [u8], String> {
        let name = String::from_utf8_lossy(tag).to_string();
        if self.take(4, &name)? != tag {
            return Err(format!("section {name} is missing"));
        }
        let len = self.u64(&name)?;
        if let Some(expected) = expected_len {
            if len != expected {
                return Err(format!(
                    "section {name} holds {len} bytes, the table needs {expected}"
                ));
            }
        }
        let len = usize::try_from(len).map_err(|_| format!("section {name} is too long"))?;
        self.take(len, &name)
    }
}

pub(crate) fn words_of(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

/// Parses and checks a whole table file.
pub fn decode(bytes: &[u8]) -> Result<(SavedGame, SavedTable)> {
    decode_checked(bytes).map_err(|why| Error::BadTableFile {
        path: "table".into(),
        why,
    })
}

/// The container of every table file: its length, magic, version and
/// trailer checked (with `whole`, the checksum over every byte before the
/// trailer too); a reader at the first section, the game kind, the index
/// encoding and the state count.
pub(crate) fn open_container(
    bytes: &[u8],
    whole: bool,
) -> std::result::Result<(Reader<'_>, u32, u32, u64), String> {
    if bytes.len() < HEADER_BYTES + TRAILER_BYTES {
        return Err(format!(
            "truncated: {} bytes is too short for a table file",
            bytes.len()
        ));
    }
    if &bytes[..8] != MAGIC {
        return Err("not a retrograde table file (wrong magic bytes)".into());
    }
    let mut r = Reader { bytes, at: 8 };
    let version = r.u32("version")?;
    if version != FORMAT_VERSION {
        return Err(format!(
            "format version {version}, but this build reads version {FORMAT_VERSION}"
        ));
    }
    let body = bytes.len() - TRAILER_BYTES;
    if &bytes[body..body + 4] != b"CSUM" {
        return Err("truncated or damaged: the checksum trailer is missing".into());
    }
    let stored = u64::from_le_bytes(bytes[body + 4..].try_into().expect("8 bytes"));
    if whole && Checksum::default().bytes(&bytes[..body]).value() != stored {
        return Err("corrupted: the checksum does not match the contents".into());
    }
    let kind = r.u32("kind")?;
    let encoding = r.u32("index encoding")?;
    let _reserved = r.u32("reserved")?;
    let states = r.u64("state count")?;
    Ok((r, kind, encoding, states))
}

/// The header and parameters of a table file: a reader at the first
/// section after them, the game, the index encoding and the state count.
/// With `whole`, the checksum of the whole file is checked first (a mapped
/// file checks its parts as it reads them instead).
fn read_header(
    bytes: &[u8],
    whole: bool,
) -> std::result::Result<(Reader<'_>, SavedGame, u32, u64), String> {
    let (mut r, kind, encoding, states) = open_container(bytes, whole)?;
    let parameters: Value = serde_json::from_slice(r.section(b"PARM", None)?)
        .map_err(|e| format!("parameters are not JSON: {e}"))?;
    let game = SavedGame::from_parameters(kind, &parameters)?;
    // A retrograde table holds 4 depth bytes a state: a header that claims
    // more states than the file can hold is refused before the game (its
    // graph or jump tables) is built.
    if encoding == 1 && states.checked_mul(4).is_none_or(|b| b > bytes.len() as u64) {
        return Err(format!(
            "the header claims {states} states, more than a file of {} bytes holds",
            bytes.len()
        ));
    }
    Ok((r, game, encoding, states))
}

fn decode_checked(bytes: &[u8]) -> std::result::Result<(SavedGame, SavedTable), String> {
    let (mut r, game, encoding, states) = read_header(bytes, true)?;
    let (kind, body) = (game.kind(), bytes.len() - TRAILER_BYTES);
    let bad_game = |e: Error| format!("the stored game is invalid: {e}");
    let table = match (&game, encoding) {
        (SavedGame::Graph(graph), 1) => {
            let solved = CatMouseGraph::new(graph).map_err(bad_game)?;
            let table = read_retrograde(&mut r, solved.state_count(), states)?;
            check_retrograde(&solved, &table)?;
            SavedTable::Retrograde(table)
        }
        (
            SavedGame::Grid {
                rows,
                cat_jump,
                mouse_jump,
            },
            1,
        ) => {
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            // the floor decides the state count: checked before the jump tables exist
            let floor = rows
                .iter()
                .flat_map(|r| r.chars())
                .filter(|&c| c != '#')
                .count() as u64;
            if floor.checked_mul(floor).and_then(|f| f.checked_mul(2)) != Some(states) {
                return Err(format!(
                    "the header says {states} states, the grid has {floor} floor cells"
                ));
            }
            let solved = CatMouseGrid::new(&rows, *cat_jump, *mouse_jump).map_err(bad_game)?;
            let table = read_retrograde(&mut r, solved.state_count(), states)?;
            check_retrograde(&solved, &table)?;
            SavedTable::Retrograde(table)
        }
        (SavedGame::Mnk { rows, cols, k }, 2) => {
            let board = Mnk::new(BoardSize::new(*cols, *rows, *k)).map_err(bad_game)?;
            let solution = read_layered(&mut r, board.cells(), states)?;
            check_mnk(&board, &solution)?;
            SavedTable::Layered(solution)
        }
        (SavedGame::Gravity { .. }, 3) => {
            return Err("a gravity table of an older build (full keys, no mirror symmetry): solve the board again".into())
        }
        (SavedGame::Gravity { cols, rows, k }, GRAVITY_ENCODING) => {
            let board = Gravity::new(BoardSize::new(*cols, *rows, *k)).map_err(bad_game)?;
            let solution = gravity::read_solution(&mut r, &board, states)?;
            check_gravity(&board, &solution)?;
            SavedTable::Gravity(solution)
        }
        (SavedGame::Nim { stones, max_take }, 4) => {
            let heaps = stones
                .checked_add(1)
                .filter(|&h| h == states && *max_take > 0)
                .ok_or("the Nim parameters do not fit the table")?;
            let words = words_of(r.section(b"BITS", Some(heaps.div_ceil(64) * 8))?);
            let table = NimTable::from_raw(words, heaps as usize, *max_take);
            // the classics are certified by solving them again: one pass each
            let again =
                nim::solve_nim(*stones, *max_take, &Budget::unlimited()).map_err(bad_game)?;
            if again.raw_words() != table.raw_words() {
                return Err("the Nim table does not follow from the rules".into());
            }
            SavedTable::Nim(table)
        }
        (SavedGame::CanIWin { max, total }, 5) => {
            if *max > can_i_win::MAX_NUMBERS || states != 1u64 << max {
                return Err("the Can I Win parameters do not fit the table".into());
            }
            let words = words_of(r.section(b"BITS", Some(states.div_ceil(64) * 8))?);
            let again =
                can_i_win::solve_can_i_win(*max, *total, &Budget::unlimited()).map_err(bad_game)?;
            if again.raw_words() != words.as_slice() {
                return Err("the Can I Win table does not follow from the rules".into());
            }
            SavedTable::CanIWin(CanIWinTable::from_raw(*max, *total, words))
        }
        (SavedGame::Ends { numbers }, 6) => {
            let n = numbers.len();
            if n == 0 || n > ends::MAX_NUMBERS || states != (n * n) as u64 {
                return Err("the row does not fit the table".into());
            }
            let summary: Value = serde_json::from_slice(r.section(b"SUMM", None)?)
                .map_err(|e| format!("the summary is not JSON: {e}"))?;
            let difference = summary["difference"]
                .as_i64()
                .ok_or("the summary has no difference")?;
            let words = words_of(r.section(b"BITS", Some(states.div_ceil(64) * 8))?);
            let again = ends::solve_ends(numbers, &Budget::unlimited()).map_err(bad_game)?;
            if again.raw_words() != words.as_slice() || again.difference != difference {
                return Err("the row's table does not follow from the rules".into());
            }
            SavedTable::Ends(EndsSolution::from_raw(numbers.clone(), difference, words))
        }
        (_, book::BOOK_ENCODING) => {
            return Err(
                "a search book, not a table: a search of its board takes it as its opening book"
                    .into(),
            )
        }
        (_, other) => {
            return Err(format!(
                "index encoding {other} does not fit game kind {kind}"
            ))
        }
    };
    if r.at != body {
        return Err(format!(
            "{} unexpected bytes before the checksum",
            body - r.at
        ));
    }
    Ok((game, table))
}

fn read_retrograde(
    r: &mut Reader,
    states: u64,
    stored: u64,
) -> std::result::Result<OutcomeTable, String> {
    if states != stored {
        return Err(format!(
            "the header says {stored} states, the game has {states}"
        ));
    }
    let words = words_of(r.section(b"VALS", Some(states.div_ceil(32) * 8))?);
    let depth_bytes = r.section(b"DEPT", Some(states * 4))?;
    let depths: Vec<u32> = depth_bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    for s in 0..states {
        let value = (words[(s / 32) as usize] >> (2 * (s % 32))) & 0b11;
        if value == code::UNKNOWN {
            return Err(format!("state {s} has no value"));
        }
    }
    Ok(OutcomeTable::from_parts(words, depths))
}

fn read_layered(
    r: &mut Reader,
    cells: u32,
    stored: u64,
) -> std::result::Result<MnkSolution, String> {
    let shapes: Vec<PlyShape> = (0..=cells).map(|p| PlyShape::of_ply(cells, p)).collect();
    let boards: u64 = shapes.iter().map(|s| s.size).sum();
    if boards != stored {
        return Err(format!(
            "the header says {stored} boards, the game has {boards}"
        ));
    }
    let summary: Value = serde_json::from_slice(r.section(b"SUMM", None)?)
        .map_err(|e| format!("the summary is not JSON: {e}"))?;
    let counts: Vec<PlyCounts> = serde_json::from_value(summary["counts"].clone())
        .map_err(|e| format!("the summary's counts: {e}"))?;
    let games: Vec<u128> = summary["games"]
        .as_array()
        .map(|a| a.iter().filter_map(|g| g.as_str()?.parse().ok()).collect())
        .unwrap_or_default();
    if counts.len() != shapes.len() || games.len() != 3 {
        return Err("the summary does not fit the board".into());
    }
    let reach_words: u64 = shapes.iter().map(|s| s.size.div_ceil(64)).sum();
    let value_words: u64 = shapes.iter().map(|s| (2 * s.size).div_ceil(64)).sum();
    let reach = r.section(b"REAC", Some(reach_words * 8))?;
    let values = r.section(b"VALS", Some(value_words * 8))?;
    let depths = r.section(b"DEPT", Some(boards))?;
    let (mut at_reach, mut at_values, mut at_depths) = (0usize, 0usize, 0usize);
    let mut plies = Vec::with_capacity(shapes.len());
    for shape in shapes {
        let size = shape.size as usize;
        let (rn, vn) = (size.div_ceil(64) * 8, (2 * size).div_ceil(64) * 8);
        let reach_w = words_of(&reach[at_reach..at_reach + rn]);
        let value_w = words_of(&values[at_values..at_values + vn]);
        for i in 0..size {
            let reachable = (reach_w[i / 64] >> (i % 64)) & 1 == 1;
            let value = (value_w[i / 32] >> (2 * (i % 32))) & 0b11;
            if reachable == (value == code::UNKNOWN) {
                return Err(format!(
                    "board {i} of ply {} has a value that contradicts its reachability",
                    shape.x + shape.o
                ));
            }
        }
        plies.push(PlyTable::from_raw(
            shape,
            reach_w,
            value_w,
            depths[at_depths..at_depths + size].to_vec(),
        ));
        at_reach += rn;
        at_values += vn;
        at_depths += size;
    }
    Ok(MnkSolution {
        plies,
        counts,
        games: GameCounts {
            x_wins: games[0],
            o_wins: games[1],
            draws: games[2],
        },
    })
}
