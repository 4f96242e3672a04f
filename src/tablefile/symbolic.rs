//! Symbolic tables (index encoding 8): each ply's won and lost sets for
//! the player to move as flat decision diagrams ([`crate::tables::symbolic::flat`]),
//! for m,n,k (kind 3) and gravity (kind 4) boards. Drawn positions of a ply
//! are the rest; values only, no depths. `docs/FORMAT.md` has the layout.
//!
//! The writer is a [`PlySink`]: the diagrams go to a spill file beside the
//! output as the backward pass makes them; [`SymbolicTableWriter::finish`]
//! then writes the table atomically (head, the spilled diagrams, trailer)
//! and removes the spill — which goes too when the writer is dropped
//! unfinished (a refusal, an error, a panic unwinding): an
//! [`crate::atomic_file::Temporary`] owns it. The reader maps the file and checks the head
//! (its own checksum), then each 4096-node block of a diagram the first
//! time a lookup walks into it; [`SymbolicFile::check`] checks every byte
//! and every node.

use crate::board::BoardSize;
use std::collections::HashSet;
use std::io::{BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{json, Value};

use super::{SavedGame, FORMAT_VERSION, MAGIC, TRAILER_BYTES};
use crate::atomic_file::write_atomically_with;
use crate::checksum::Checksum;
use crate::error::{Error, Remedy, Result, Setting};
use crate::game::Outcome;
use crate::position::Family;
use crate::tables::symbolic::certify::{certify, Certified, StoredTable};
use crate::tables::symbolic::flat::{FlatBdd, FlatView, NODE_BYTES};
use crate::tables::symbolic::{Encoding, Layout, PlyReport, PlySink, SymbolicSolution};

/// The index encoding of a symbolic table.
pub const SYMBOLIC_ENCODING: u32 = 8;
/// Nodes a checksummed block holds.
pub const BLOCK_NODES: usize = 4096;
/// Bytes of one directory entry.
const ENTRY_BYTES: usize = 48;

/// Which set of a ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Set {
    /// Won for the player to move.
    Won = 0,
    /// Lost for the player to move.
    Lost = 1,
}

/// Where a diagram lies (offsets relative to the spill while writing,
/// absolute in the file).
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    ply: u32,
    set: u32,
    root: u32,
    nodes: u64,
    nodes_at: u64,
    sums_at: u64,
    sums_checksum: u64,
}

impl Entry {
    fn blocks(&self) -> u64 {
        self.nodes.div_ceil(BLOCK_NODES as u64)
    }

    fn bytes(&self) -> [u8; ENTRY_BYTES] {
        let mut out = [0u8; ENTRY_BYTES];
        let words32 = [self.ply, self.set, self.root, 0];
        for (i, w) in words32.iter().enumerate() {
            out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
        let words64 = [self.nodes, self.nodes_at, self.sums_at, self.sums_checksum];
        for (i, w) in words64.iter().enumerate() {
            out[16 + 8 * i..24 + 8 * i].copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    fn parse(b: &[u8]) -> Self {
        let w32 = |i: usize| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().expect("4 bytes"));
        let w64 =
            |i: usize| u64::from_le_bytes(b[16 + 8 * i..24 + 8 * i].try_into().expect("8 bytes"));
        Entry {
            ply: w32(0),
            set: w32(1),
            root: w32(2),
            nodes: w64(0),
            nodes_at: w64(1),
            sums_at: w64(2),
            sums_checksum: w64(3),
        }
    }
}

/// Block checksums of a diagram's node bytes.
fn block_sums(node_bytes: &[u8]) -> Vec<u64> {
    node_bytes
        .chunks(BLOCK_NODES * NODE_BYTES)
        .map(|block| Checksum::default().bytes(block).value())
        .collect()
}

fn words(sums: &[u64]) -> Vec<u8> {
    sums.iter().flat_map(|s| s.to_le_bytes()).collect()
}

/// The game a layout solves, as saved.
pub fn saved_game(layout: &Layout) -> SavedGame {
    match layout.family {
        Family::Gravity => SavedGame::Gravity {
            cols: layout.cols,
            rows: layout.rows,
            k: layout.k,
        },
        Family::Mnk => SavedGame::Mnk {
            rows: layout.rows,
            cols: layout.cols,
            k: layout.k,
        },
    }
}

/// Writes a symbolic table: a [`PlySink`] for the backward pass, then
/// [`Self::finish`].
pub struct SymbolicTableWriter {
    out: PathBuf,
    spill_path: PathBuf,
    spill: Option<BufWriter<std::fs::File>>,
    /// Removes the spill file when the writer is dropped, however the run
    /// ends (finished, failed, refused, a panic unwinding).
    _spill_file: crate::atomic_file::Temporary,
    spilled: u64,
    entries: Vec<Entry>,
}

impl SymbolicTableWriter {
    /// A writer of the table `out`; its spill file is made beside it.
    pub fn new(out: &Path) -> Result<Self> {
        let dir = match out.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = out.file_name().map(|n| n.to_string_lossy().to_string());
        if let Some(own) = &name {
            crate::atomic_file::remove_stale_temporaries(dir, |n| n == own);
        }
        let spill_path = dir.join(format!(
            ".{}.spill-{}",
            name.unwrap_or_default(),
            std::process::id()
        ));
        let (spill_file, file) =
            crate::atomic_file::Temporary::create(&spill_path).map_err(|cause| Error::Io {
                path: spill_path.display().to_string(),
                cause,
            })?;
        Ok(Self {
            out: out.to_path_buf(),
            spill_path,
            spill: Some(BufWriter::with_capacity(1 << 20, file)),
            _spill_file: spill_file,
            spilled: 0,
            entries: Vec::new(),
        })
    }

    fn spill_error(&self, cause: std::io::Error) -> Error {
        Error::Io {
            path: self.spill_path.display().to_string(),
            cause,
        }
    }

    fn append(&mut self, ply: u32, set: Set, flat: &FlatBdd) -> Result<()> {
        let nodes = flat.node_bytes();
        let sums = words(&block_sums(&nodes));
        let spill = self.spill.as_mut().expect("open until finish");
        let result = spill.write_all(&sums).and_then(|_| spill.write_all(&nodes));
        result.map_err(|e| self.spill_error(e))?;
        self.entries.push(Entry {
            ply,
            set: set as u32,
            root: flat.root,
            nodes: flat.nodes.len() as u64,
            sums_at: self.spilled,
            nodes_at: self.spilled + sums.len() as u64,
            sums_checksum: Checksum::default().bytes(&sums).value(),
        });
        self.spilled += (sums.len() + nodes.len()) as u64;
        Ok(())
    }

    /// Writes the table for `solution` atomically and removes the spill
    /// (as dropping the writer unfinished does); returns the file's size.
    pub fn finish(mut self, solution: &SymbolicSolution) -> Result<u64> {
        self.write_table(solution)
    }

    fn write_table(&mut self, solution: &SymbolicSolution) -> Result<u64> {
        let mut spill = self.spill.take().expect("finished once");
        spill.flush().map_err(|e| self.spill_error(e))?;
        let mut spill = spill
            .into_inner()
            .map_err(|e| self.spill_error(e.into_error()))?;
        let layout = &solution.layout;
        let cells = layout.cells();
        let value = solution.value.ok_or_else(|| {
            Error::refused(
                "a count-only run has no values to save (drop {remedy})",
                &[Remedy::give(Setting::CountOnly)],
            )
        })?;
        self.entries.sort_by_key(|e| (e.ply, e.set));
        let complete = self.entries.len() == 2 * (cells as usize + 1)
            && self
                .entries
                .iter()
                .enumerate()
                .all(|(i, e)| e.ply == (i / 2) as u32 && e.set == (i % 2) as u32);
        if !complete {
            return Err(Error::InvalidInput(
                "the backward pass did not hand over every ply's sets".into(),
            ));
        }
        let game = saved_game(layout);
        let total: u64 = solution.plies.iter().map(|p| p.counts.positions).sum();
        let summary = json!({
            "encoding": layout.encoding.name(),
            "value": match value { Outcome::Win => "first", Outcome::Loss => "second", Outcome::Draw => "draw" },
            "plies": solution.plies,
        });
        let parameters = serde_json::to_vec(&game.parameters()).expect("JSON");
        let summary = serde_json::to_vec(&summary).expect("JSON");
        let mut head = Vec::new();
        head.extend_from_slice(MAGIC);
        head.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        head.extend_from_slice(&game.kind().to_le_bytes());
        head.extend_from_slice(&SYMBOLIC_ENCODING.to_le_bytes());
        head.extend_from_slice(&0u32.to_le_bytes());
        head.extend_from_slice(&total.to_le_bytes());
        for (tag, body) in [(b"PARM", &parameters), (b"SUMM", &summary)] {
            head.extend_from_slice(tag);
            head.extend_from_slice(&(body.len() as u64).to_le_bytes());
            head.extend_from_slice(body);
        }
        let directory_len = self.entries.len() * ENTRY_BYTES;
        // DDIR, then DSUM (tag, length, checksum), then DBLK's tag and length
        let base = (head.len() + 12 + directory_len + 12 + 8 + 12) as u64;
        head.extend_from_slice(b"DDIR");
        head.extend_from_slice(&(directory_len as u64).to_le_bytes());
        for e in &self.entries {
            let placed = Entry {
                nodes_at: e.nodes_at + base,
                sums_at: e.sums_at + base,
                ..*e
            };
            head.extend_from_slice(&placed.bytes());
        }
        let head_sum = Checksum::default().bytes(&head).value();
        head.extend_from_slice(b"DSUM");
        head.extend_from_slice(&8u64.to_le_bytes());
        head.extend_from_slice(&head_sum.to_le_bytes());
        head.extend_from_slice(b"DBLK");
        head.extend_from_slice(&self.spilled.to_le_bytes());
        debug_assert_eq!(head.len() as u64, base);
        let mut size = 0u64;
        write_atomically_with(&self.out, |file| {
            let mut out = BufWriter::with_capacity(1 << 20, file);
            let mut sum = crate::checksum::StreamChecksum::default();
            out.write_all(&head)?;
            sum.update(&head);
            spill.rewind()?;
            let mut buffer = vec![0u8; 1 << 20];
            loop {
                let n = spill.read(&mut buffer)?;
                if n == 0 {
                    break;
                }
                out.write_all(&buffer[..n])?;
                sum.update(&buffer[..n]);
            }
            out.write_all(b"CSUM")?;
            out.write_all(&sum.value().to_le_bytes())?;
            out.flush()?;
            size = base + self.spilled + TRAILER_BYTES as u64;
            Ok(())
        })
        .map_err(|cause| Error::Io {
            path: self.out.display().to_string(),
            cause,
        })?;
        Ok(size)
    }
}

impl PlySink for SymbolicTableWriter {
    fn solved(&mut self, ply: u32, won: &FlatBdd, lost: &FlatBdd) -> Result<()> {
        self.append(ply, Set::Won, won)?;
        self.append(ply, Set::Lost, lost)
    }
}

/// A diagram's node bytes and root edge.
type NodesAndRoot = (Vec<u8>, u32);

/// Anything that says whether a position is in a ply's won or lost set.
pub trait SymbolicSets: Sync {
    /// The board and encoding.
    fn layout(&self) -> &Layout;
    /// Whether the position spelled by `assignment` (of `ply` stones) is in
    /// the ply's `set`.
    fn contains(&self, ply: u32, set: Set, assignment: &[bool]) -> Result<bool>;
}

/// The sets of a solve kept in memory, filled as a [`PlySink`] (to answer
/// a position right after solving it): each ply's won and lost node bytes
/// and roots, by ply.
pub struct SolvedSets {
    layout: Layout,
    plies: Vec<Option<[NodesAndRoot; 2]>>,
}

impl SolvedSets {
    /// No ply yet, of a board.
    pub fn new(layout: Layout) -> Self {
        Self {
            layout,
            plies: vec![None; layout.cells() as usize + 1],
        }
    }
}

impl PlySink for SolvedSets {
    fn solved(&mut self, ply: u32, won: &FlatBdd, lost: &FlatBdd) -> Result<()> {
        let slot = self
            .plies
            .get_mut(ply as usize)
            .ok_or_else(|| Error::InvalidInput(format!("no ply {ply} on the board")))?;
        *slot = Some([(won.node_bytes(), won.root), (lost.node_bytes(), lost.root)]);
        Ok(())
    }
}

impl SymbolicSets for SolvedSets {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn contains(&self, ply: u32, set: Set, assignment: &[bool]) -> Result<bool> {
        let sets = self
            .plies
            .get(ply as usize)
            .and_then(Option::as_ref)
            .ok_or_else(|| Error::InvalidInput(format!("no ply {ply} in the solved sets")))?;
        let (bytes, root) = &sets[set as usize];
        let view = FlatView::new(bytes, *root, self.layout.vars()).map_err(Error::InvalidInput)?;
        view.eval(assignment, |_| Ok(()))
            .map_err(Error::InvalidInput)
    }
}

/// A symbolic table file mapped into memory.
pub struct SymbolicFile {
    path: String,
    map: memmap2::Mmap,
    layout: Layout,
    plies: Vec<PlyReport>,
    value: Outcome,
    entries: Vec<Entry>,
    /// Blocks whose checksum has been checked, by (entry, block).
    checked: Mutex<HashSet<(usize, u64)>>,
}

impl SymbolicFile {
    /// Maps `path` if it is a symbolic table; `Ok(None)` for any other
    /// table. The head (header, parameters, summary, directory) is checked
    /// against its checksum and the directory against the file's length.
    pub fn open(path: &Path) -> Result<Option<Self>> {
        let bad = |why: String| Error::BadTableFile {
            path: path.display().to_string(),
            why,
        };
        let mut file = crate::files::open_regular(path)?;
        let mut head = [0u8; 20];
        let read = file.read_exact(&mut head).is_ok();
        let word = |at: usize| u32::from_le_bytes(head[at..at + 4].try_into().expect("4 bytes"));
        if !read || &head[..8] != MAGIC || word(16) != SYMBOLIC_ENCODING {
            return Ok(None);
        }
        super::gravity::exit_cleanly_on_sigbus();
        // SAFETY: read-only map; a table is replaced by rename, never shrunk
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|cause| Error::Io {
            path: path.display().to_string(),
            cause,
        })?;
        // A lookup reads a few scattered blocks: the kernel's read-around of
        // each fault (128 KiB and growing) read 35 MB of a 61 MB 6×4 table
        // for one deep position. Blocks are asked for whole instead
        // (`fetch`).
        let _ = map.advise(memmap2::Advice::Random);
        let (layout, plies, value, entries) = parse_head(&map).map_err(bad)?;
        Ok(Some(Self {
            path: path.display().to_string(),
            map,
            layout,
            plies,
            value,
            entries,
            checked: Mutex::new(HashSet::new()),
        }))
    }

    /// The per-ply reports stored.
    pub fn plies(&self) -> &[PlyReport] {
        &self.plies
    }

    /// The empty board's value for the first player.
    pub fn value(&self) -> Outcome {
        self.value
    }

    /// The file's size.
    pub fn bytes(&self) -> u64 {
        self.map.len() as u64
    }

    fn damaged(&self, why: String) -> Error {
        Error::BadTableFile {
            path: self.path.clone(),
            why,
        }
    }

    fn entry(&self, ply: u32, set: Set) -> Result<(usize, &Entry)> {
        let i = 2 * ply as usize + set as usize;
        self.entries
            .get(i)
            .map(|e| (i, e))
            .ok_or_else(|| self.damaged(format!("no diagram for ply {ply}")))
    }

    /// Asks the kernel to read `len` bytes at `at` of the file in one go
    /// (the map reads page by page on its own); a hint only.
    fn fetch(&self, at: usize, len: usize) {
        let _ = self.map.advise_range(memmap2::Advice::WillNeed, at, len);
    }

    /// Offset and length in the file of block `block` of entry `e`.
    fn block_range(&self, e: &Entry, block: u64) -> (usize, usize) {
        let block_bytes = (BLOCK_NODES * NODE_BYTES) as u64;
        let start = block * block_bytes;
        let end = (start + block_bytes).min(e.nodes * NODE_BYTES as u64);
        ((e.nodes_at + start) as usize, (end - start) as usize)
    }

    fn node_bytes(&self, e: &Entry) -> &[u8] {
        &self.map[e.nodes_at as usize..(e.nodes_at + e.nodes * NODE_BYTES as u64) as usize]
    }

    fn sums(&self, e: &Entry) -> &[u8] {
        &self.map[e.sums_at as usize..(e.sums_at + 8 * e.blocks()) as usize]
    }

    /// Checks one block of entry `i` (once).
    fn check_block(&self, i: usize, e: &Entry, block: u64) -> Result<()> {
        let mut checked = self.checked.lock().unwrap_or_else(|p| p.into_inner());
        if checked.contains(&(i, block)) {
            return Ok(());
        }
        if !checked.contains(&(i, u64::MAX)) {
            self.fetch(e.sums_at as usize, 8 * e.blocks() as usize);
            if Checksum::default().bytes(self.sums(e)).value() != e.sums_checksum {
                return Err(self.damaged(format!(
                    "the block checksums of ply {}'s diagram are damaged",
                    e.ply
                )));
            }
            checked.insert((i, u64::MAX));
        }
        let (at, len) = self.block_range(e, block);
        self.fetch(at, len);
        let want = u64::from_le_bytes(
            self.sums(e)[8 * block as usize..8 * block as usize + 8]
                .try_into()
                .expect("8 bytes"),
        );
        if Checksum::default().bytes(&self.map[at..at + len]).value() != want {
            return Err(self.damaged(format!(
                "block {block} of ply {}'s diagram is damaged (checksum mismatch)",
                e.ply
            )));
        }
        checked.insert((i, block));
        Ok(())
    }

    /// Checks every byte: the trailer's checksum of the whole file, every
    /// block, and every node's invariants.
    pub fn check(&self) -> Result<()> {
        // read ahead again: every byte is read in order
        let _ = self.map.advise(memmap2::Advice::Sequential);
        let body = self.map.len() - TRAILER_BYTES;
        let stored = u64::from_le_bytes(self.map[body + 4..].try_into().expect("8 bytes"));
        if &self.map[body..body + 4] != b"CSUM"
            || Checksum::default().bytes(&self.map[..body]).value() != stored
        {
            return Err(self.damaged("the checksum of the whole file does not match".into()));
        }
        for (i, e) in self.entries.iter().enumerate() {
            for block in 0..e.blocks() {
                self.check_block(i, e, block)?;
            }
            FlatBdd::from_bytes(self.node_bytes(e), e.root, self.layout.vars())
                .map_err(|why| self.damaged(format!("ply {}: {why}", e.ply)))?;
        }
        Ok(())
    }
}

impl StoredTable for SymbolicFile {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn plies(&self) -> &[PlyReport] {
        &self.plies
    }

    fn value(&self) -> Outcome {
        self.value
    }

    fn sets(&self, ply: u32) -> Result<(FlatBdd, FlatBdd)> {
        let flat = |set: Set| -> Result<FlatBdd> {
            let (i, e) = self.entry(ply, set)?;
            for block in 0..e.blocks() {
                self.check_block(i, e, block)?;
            }
            FlatBdd::from_bytes(self.node_bytes(e), e.root, self.layout.vars())
                .map_err(|why| self.damaged(format!("ply {ply}: {why}")))
        };
        Ok((flat(Set::Won)?, flat(Set::Lost)?))
    }

    fn name(&self) -> String {
        self.path.clone()
    }
}

impl SymbolicFile {
    /// Certifies the table against the rules of its board (every set
    /// recomputed: `crate::tables::symbolic::certify`), after
    /// [`Self::check`] of every byte.
    pub fn certify(
        &self,
        budget: &crate::memory::Budget,
        threads: usize,
        progress: &dyn crate::runtime::progress::Progress,
    ) -> Result<Certified> {
        self.check()?;
        certify(self, budget, threads, progress)
    }
}

impl SymbolicSets for SymbolicFile {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn contains(&self, ply: u32, set: Set, assignment: &[bool]) -> Result<bool> {
        let (i, e) = self.entry(ply, set)?;
        let view = FlatView::new(self.node_bytes(e), e.root, self.layout.vars())
            .map_err(|why| self.damaged(why))?;
        view.eval(assignment, |node| {
            self.check_block(i, e, u64::from(node - 1) / BLOCK_NODES as u64)
                .map_err(|err| err.to_string())
        })
        .map_err(|why| self.damaged(why))
    }
}

type Head = (Layout, Vec<PlyReport>, Outcome, Vec<Entry>);

/// Parses and checks the head of a symbolic table.
fn parse_head(bytes: &[u8]) -> std::result::Result<Head, String> {
    let (mut r, game, encoding, states) = super::read_header(bytes, false)?;
    debug_assert_eq!(encoding, SYMBOLIC_ENCODING);
    let (family, cols, rows, k) = match game {
        SavedGame::Gravity { cols, rows, k } => (Family::Gravity, cols, rows, k),
        SavedGame::Mnk { rows, cols, k } => (Family::Mnk, cols, rows, k),
        other => {
            return Err(format!(
                "index encoding {SYMBOLIC_ENCODING} does not fit game kind {}",
                other.kind()
            ))
        }
    };
    let summary = r.section(b"SUMM", None)?;
    let directory = r.section(b"DDIR", None)?;
    let head_end = r.at;
    let stored = r.section(b"DSUM", Some(8))?;
    if Checksum::default()
        .bytes(&bytes[..head_end])
        .value()
        .to_le_bytes()
        != stored
    {
        return Err(
            "the head (parameters, summary, directory) is damaged: checksum mismatch".into(),
        );
    }
    let summary: Value =
        serde_json::from_slice(summary).map_err(|e| format!("the summary is not JSON: {e}"))?;
    let encoding = match summary["encoding"].as_str() {
        Some("column") => Encoding::Column,
        Some("pair") => Encoding::Pair,
        other => return Err(format!("unknown diagram encoding {other:?}")),
    };
    let layout = Layout::new(family, BoardSize { cols, rows, k }, encoding)
        .map_err(|e| format!("the stored board is invalid: {e}"))?;
    let value = match summary["value"].as_str() {
        Some("first") => Outcome::Win,
        Some("second") => Outcome::Loss,
        Some("draw") => Outcome::Draw,
        other => return Err(format!("unknown value {other:?}")),
    };
    let plies: Vec<PlyReport> = serde_json::from_value(summary["plies"].clone())
        .map_err(|e| format!("the per-ply reports are unreadable: {e}"))?;
    let cells = layout.cells() as usize;
    if plies.len() != cells + 1
        || plies
            .iter()
            .enumerate()
            .any(|(i, p)| p.counts.ply as usize != i)
    {
        return Err(format!("the summary does not hold plies 0 to {cells}"));
    }
    let total: u64 = plies.iter().map(|p| p.counts.positions).sum();
    if total != states {
        return Err(format!(
            "the header counts {states} positions, the plies {total}"
        ));
    }
    if directory.len() != 2 * (cells + 1) * ENTRY_BYTES {
        return Err(format!("the directory does not hold plies 0 to {cells}"));
    }
    let blocks = r.section(b"DBLK", None)?;
    let (start, end) = (r.at - blocks.len(), r.at);
    if end != bytes.len() - TRAILER_BYTES {
        return Err("the diagrams do not end where the trailer begins".into());
    }
    let entries: Vec<Entry> = directory
        .chunks_exact(ENTRY_BYTES)
        .map(Entry::parse)
        .collect();
    for (i, e) in entries.iter().enumerate() {
        if (e.ply as usize, e.set as usize) != (i / 2, i % 2) {
            return Err(format!("directory entry {i} is out of order"));
        }
        let within = |at: u64, len: Option<u64>| {
            len.and_then(|l| at.checked_add(l))
                .is_some_and(|stop| at >= start as u64 && stop <= end as u64)
        };
        if !within(e.sums_at, e.blocks().checked_mul(8))
            || !within(e.nodes_at, e.nodes.checked_mul(NODE_BYTES as u64))
        {
            return Err(format!("directory entry {i} points outside the diagrams"));
        }
        if u64::from(e.root >> 1) > e.nodes {
            return Err(format!(
                "directory entry {i}: the root points past the nodes"
            ));
        }
    }
    Ok((layout, plies, value, entries))
}
