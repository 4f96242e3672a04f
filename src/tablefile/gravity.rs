//! Gravity tables on disk in checksummed blocks, readable in place.
//!
//! A solved gravity board has billions of positions, so its table is
//! written compactly and read without loading it:
//!
//! * each ply's sorted canonical keys are cut into blocks of
//!   [`BLOCK_POSITIONS`]; a block holds its positions' value/depth bytes,
//!   then the gaps between consecutive keys as LEB128 varints (the first
//!   key is in the index) — about 2–3 bytes a stored position, 1–1.5 a
//!   position counted with its mirror image;
//! * `GDIR` gives each ply's stored positions and first block; `GIDX`
//!   each block's first key, byte offset, positions and checksum; `GSUM`
//!   the checksum of every byte before it (header, parameters, summary,
//!   directory, index); `GBLK` the blocks.
//!
//! [`GravityFile`] maps a file into memory and answers a lookup by one
//! binary search over the ply's first keys and the decoding of part of
//! one block. The first time a block is read its checksum is checked and
//! its gaps decoded once into a skip index (every [`SKIP_STRIDE`]-th key
//! and where its gaps resume, 10 bytes per 64 positions, about a
//! sixteenth of the file for the blocks read); a lookup then decodes at
//! most [`SKIP_STRIDE`] gaps rather than half a block's (a served table
//! answer spent 26% of its time in those decodes). A damaged block is
//! refused when first read, a damaged index when the file is opened. [`GravityFile::check_blocks`]
//! checks every block. `docs/FORMAT.md` gives the layout byte by byte.

use crate::board::BoardSize;
use std::io::Write;
use std::path::Path;

use rayon::prelude::*;
use serde_json::json;

use super::{Reader, SavedGame, Summing};
use crate::checksum::Checksum;
use crate::error::{Error, Result};
use crate::game::Outcome;
use crate::rules::gravity::Gravity;
use crate::tables::sparse::keys::{KeyWord, PlyKeys};
use crate::tables::sparse::{decode, GravityCounts, GravityPly, GravitySolution};

/// Stored positions a block holds (the last block of a ply fewer).
pub const BLOCK_POSITIONS: usize = 4096;

/// Positions between two entries of a block's skip index.
pub const SKIP_STRIDE: usize = 64;

/// Bytes of one index entry: first key, offset, positions, reserved,
/// checksum.
const INDEX_ENTRY: usize = 8 + 8 + 4 + 4 + 8;

/// One block's index entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct BlockEntry {
    first_key: u64,
    offset: u64,
    positions: u32,
    bytes: u64,
    checksum: u64,
}

/// Appends the block of `keys` (sorted) and `values` to `out`.
fn encode_block<K: KeyWord>(keys: &[K], values: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(values);
    for pair in keys.windows(2) {
        let mut gap = pair[1].key() - pair[0].key();
        while gap >= 0x80 {
            out.push(gap as u8 | 0x80);
            gap >>= 7;
        }
        out.push(gap as u8);
    }
}

/// The index entries of one ply's blocks (offsets from 0), in parallel.
fn ply_entries<K: KeyWord>(keys: &[K], values: &[u8]) -> Vec<BlockEntry> {
    keys.par_chunks(BLOCK_POSITIONS)
        .zip(values.par_chunks(BLOCK_POSITIONS))
        .map_init(Vec::new, |buffer, (k, v)| {
            buffer.clear();
            encode_block(k, v, buffer);
            BlockEntry {
                first_key: k[0].key(),
                offset: 0,
                positions: k.len() as u32,
                bytes: buffer.len() as u64,
                checksum: Checksum::default().bytes(buffer).value(),
            }
        })
        .collect()
}

/// Calls `f` with the keys of `keys` as a slice of their word.
macro_rules! with_keys {
    ($keys:expr, |$k:ident| $body:expr) => {
        match $keys {
            PlyKeys::Narrow($k) => $body,
            PlyKeys::Wide($k) => $body,
        }
    };
}

/// Writes the gravity sections (SUMM, GDIR, GIDX, GSUM, GBLK), streaming
/// the blocks a batch at a time.
pub(super) fn write_sections<W: Write>(
    w: &mut Summing<W>,
    s: &GravitySolution,
) -> std::io::Result<()> {
    w.json(b"SUMM", &json!({ "counts": s.counts }))?;
    let mut directory = Vec::with_capacity(s.plies.len());
    let mut index: Vec<BlockEntry> = Vec::new();
    let mut offset = 0u64;
    for ply in &s.plies {
        let (keys, values) = ply.raw();
        directory.push((keys.len() as u64, index.len() as u64));
        for mut entry in with_keys!(keys, |k| ply_entries(k, values)) {
            entry.offset = offset;
            offset += entry.bytes;
            index.push(entry);
        }
    }
    w.section(b"GDIR", directory.len() as u64 * 16, |w| {
        for (positions, first_block) in &directory {
            w.put(&positions.to_le_bytes())?;
            w.put(&first_block.to_le_bytes())?;
        }
        Ok(())
    })?;
    w.section(b"GIDX", (index.len() * INDEX_ENTRY) as u64, |w| {
        for chunk in index.chunks(4096) {
            let mut bytes = Vec::with_capacity(chunk.len() * INDEX_ENTRY);
            for e in chunk {
                bytes.extend_from_slice(&e.first_key.to_le_bytes());
                bytes.extend_from_slice(&e.offset.to_le_bytes());
                bytes.extend_from_slice(&e.positions.to_le_bytes());
                bytes.extend_from_slice(&0u32.to_le_bytes());
                bytes.extend_from_slice(&e.checksum.to_le_bytes());
            }
            w.put(&bytes)?;
        }
        Ok(())
    })?;
    let head_sum = w.sum.value();
    w.section(b"GSUM", 8, |w| w.put(&head_sum.to_le_bytes()))?;
    w.section(b"GBLK", offset, |w| {
        for ply in &s.plies {
            let (keys, values) = ply.raw();
            with_keys!(keys, |k| write_blocks(w, k, values))?;
        }
        Ok(())
    })
}

/// Writes the blocks of one ply, encoded in parallel a batch at a time.
fn write_blocks<W: Write, K: KeyWord>(
    w: &mut Summing<W>,
    keys: &[K],
    values: &[u8],
) -> std::io::Result<()> {
    const BATCH: usize = 256 * BLOCK_POSITIONS;
    for (k, v) in keys.chunks(BATCH).zip(values.chunks(BATCH)) {
        let encoded: Vec<Vec<u8>> = k
            .par_chunks(BLOCK_POSITIONS)
            .zip(v.par_chunks(BLOCK_POSITIONS))
            .map(|(k, v)| {
                let mut out = Vec::with_capacity(k.len() * 3);
                encode_block(k, v, &mut out);
                out
            })
            .collect();
        for block in &encoded {
            w.put(block)?;
        }
    }
    Ok(())
}

/// Where the sections of a gravity table lie in its bytes, checked for
/// consistency (every block inside GBLK, blocks in key order, counts that
/// fit the board) and against the head checksum.
struct Layout {
    counts: Vec<GravityCounts>,
    /// Per ply: stored positions, first block.
    directory: Vec<(u64, u64)>,
    /// The index entries.
    index: Vec<BlockEntry>,
    /// Where GBLK's bytes start.
    blocks_at: usize,
    /// Each block's skip index, made the first time the block is read,
    /// after its checksum is checked and its gaps decoded (not again: the
    /// file is mapped read-only, and retrograde replaces a table by
    /// renaming a new file over it, never by writing into it). Hashing a
    /// block of 4,096 positions on every lookup was most of a served
    /// answer's time.
    skips: Vec<std::sync::OnceLock<Skips>>,
}

/// A checked block's skip index: the key at every [`SKIP_STRIDE`]-th
/// position (`keys[i]` at position `i × SKIP_STRIDE`; `keys[0]` is the
/// block's first key) and the offset into the block's gaps where the gap
/// after it starts.
struct Skips {
    keys: Box<[u64]>,
    offsets: Box<[u16]>,
}

/// Reads the gravity sections after the header and parameters.
fn read_layout(
    r: &mut Reader<'_>,
    game: &Gravity,
    states: u64,
) -> std::result::Result<Layout, String> {
    let summary: serde_json::Value = serde_json::from_slice(r.section(b"SUMM", None)?)
        .map_err(|e| format!("the summary is not JSON: {e}"))?;
    let counts: Vec<GravityCounts> = serde_json::from_value(summary["counts"].clone())
        .map_err(|e| format!("the summary's counts: {e}"))?;
    let positions = counts
        .iter()
        .try_fold(0u64, |t, c| t.checked_add(c.positions))
        .ok_or("the summary's counts overflow")?;
    let plies = game.cells() as usize + 1;
    if counts.len() != plies || positions != states {
        return Err("the summary does not fit the board".into());
    }
    let dir = r.section(b"GDIR", Some(plies as u64 * 16))?;
    let directory: Vec<(u64, u64)> = dir
        .chunks_exact(16)
        .map(|c| (le64(&c[..8]), le64(&c[8..])))
        .collect();
    let idx = r.section(b"GIDX", None)?;
    if idx.len() % INDEX_ENTRY != 0 {
        return Err("the block index is damaged".into());
    }
    let head_end = r.at;
    let stored = le64(r.section(b"GSUM", Some(8))?);
    if Checksum::default().bytes(&r.bytes[..head_end]).value() != stored {
        return Err("corrupted: the checksum of the header and index does not match".into());
    }
    let index: Vec<BlockEntry> = idx
        .chunks_exact(INDEX_ENTRY)
        .map(|c| BlockEntry {
            first_key: le64(&c[..8]),
            offset: le64(&c[8..16]),
            positions: u32::from_le_bytes(c[16..20].try_into().expect("4 bytes")),
            bytes: 0,
            checksum: le64(&c[24..32]),
        })
        .collect();
    let blocks = r.section(b"GBLK", None)?;
    let blocks_at = r.at - blocks.len();
    if r.at != r.bytes.len() - super::TRAILER_BYTES {
        return Err(format!(
            "{} bytes lie between the blocks and the checksum trailer",
            (r.bytes.len() - super::TRAILER_BYTES).saturating_sub(r.at)
        ));
    }
    let mut index = index;
    for b in 0..index.len() {
        let end = index.get(b + 1).map_or(blocks.len() as u64, |n| n.offset);
        if end < index[b].offset || end > blocks.len() as u64 {
            return Err(format!("block {b} lies outside the blocks section"));
        }
        index[b].bytes = end - index[b].offset;
    }
    // each ply's blocks: consecutive, holding its positions, in key order
    let mut next_block = 0u64;
    for (ply, &(stored, first)) in directory.iter().enumerate() {
        let blocks = stored.div_ceil(BLOCK_POSITIONS as u64);
        // next_block ≤ index.len(), so the sum cannot wrap
        if first != next_block || blocks > (index.len() as u64 - next_block) {
            return Err(format!("the directory of ply {ply} is damaged"));
        }
        let range = first as usize..(first + blocks) as usize;
        let held: u64 = index[range.clone()]
            .iter()
            .map(|e| u64::from(e.positions))
            .sum();
        if held != stored
            || index[range.clone()]
                .windows(2)
                .any(|w| w[0].first_key >= w[1].first_key)
        {
            return Err(format!("the blocks of ply {ply} are damaged"));
        }
        next_block += blocks;
    }
    if next_block as usize != index.len() {
        return Err("the block index has blocks of no ply".into());
    }
    let skips = index.iter().map(|_| Default::default()).collect();
    Ok(Layout {
        counts,
        directory,
        index,
        blocks_at,
        skips,
    })
}

/// The refusal of a damaged block.
fn damaged(ply: usize, at: usize) -> String {
    format!("corrupted: a block of ply {ply} (at byte {at}) is damaged")
}

/// A block's gaps between consecutive keys, LEB128 varints.
struct Gaps<'a> {
    bytes: &'a [u8],
}

impl Gaps<'_> {
    /// The key after `key`: `None` if the gap is missing, zero or
    /// overflows.
    fn next_key(&mut self, key: u64) -> Option<u64> {
        let (mut gap, mut shift) = (0u64, 0u32);
        loop {
            let (&byte, rest) = self.bytes.split_first()?;
            self.bytes = rest;
            if shift > 63 {
                return None;
            }
            gap |= u64::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                break;
            }
        }
        key.checked_add(gap).filter(|_| gap > 0)
    }
}

fn le64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b.try_into().expect("8 bytes"))
}

impl Layout {
    /// The blocks of `ply`.
    fn blocks_of(&self, ply: usize) -> &[BlockEntry] {
        let (stored, first) = self.directory[ply];
        let n = stored.div_ceil(BLOCK_POSITIONS as u64) as usize;
        &self.index[first as usize..first as usize + n]
    }

    /// Block `e`'s bytes (its checksum checked), split into its value
    /// bytes and its gaps.
    fn block_bytes<'b>(
        &self,
        bytes: &'b [u8],
        ply: usize,
        e: &BlockEntry,
    ) -> std::result::Result<(&'b [u8], Gaps<'b>), String> {
        let start = self.blocks_at + e.offset as usize;
        let data = &bytes[start..start + e.bytes as usize];
        if Checksum::default().bytes(data).value() != e.checksum
            || data.len() < e.positions as usize
        {
            return Err(damaged(ply, start));
        }
        Ok(self.split_block(bytes, e))
    }

    /// Block `e`'s bytes split into its value bytes and its gaps.
    /// Contract: the block has been checked ([`Self::block_bytes`]).
    fn split_block<'b>(&self, bytes: &'b [u8], e: &BlockEntry) -> (&'b [u8], Gaps<'b>) {
        let start = self.blocks_at + e.offset as usize;
        let data = &bytes[start..start + e.bytes as usize];
        let (values, gaps) = data.split_at(e.positions as usize);
        (values, Gaps { bytes: gaps })
    }

    /// Block `e`'s value bytes, its checksum and decoding checked, after
    /// `visit` has seen each of its positions: its index in the block, its
    /// key, and the offset into the block's gaps where the gap after it
    /// starts.
    fn decode_block<'b>(
        &self,
        bytes: &'b [u8],
        ply: usize,
        e: &BlockEntry,
        mut visit: impl FnMut(usize, u64, usize),
    ) -> std::result::Result<&'b [u8], String> {
        let (values, mut gaps) = self.block_bytes(bytes, ply, e)?;
        let bad = || damaged(ply, self.blocks_at + e.offset as usize);
        if values.is_empty() || values.iter().any(|&v| v & 0b11 == 0) {
            return Err(bad());
        }
        let all = gaps.bytes.len();
        let mut key = e.first_key;
        for i in 0..values.len() {
            if i > 0 {
                key = gaps.next_key(key).ok_or_else(bad)?;
            }
            visit(i, key, all - gaps.bytes.len());
        }
        if !gaps.bytes.is_empty() {
            return Err(bad());
        }
        Ok(values)
    }

    /// Block `e`'s keys and value bytes, its checksum and decoding checked.
    fn block(
        &self,
        bytes: &[u8],
        ply: usize,
        e: &BlockEntry,
    ) -> std::result::Result<(Vec<u64>, Vec<u8>), String> {
        let mut keys = Vec::with_capacity(e.positions as usize);
        let values = self.decode_block(bytes, ply, e, |_, key, _| keys.push(key))?;
        Ok((keys, values.to_vec()))
    }

    /// Block `e`'s skip index, its checksum checked and every gap decoded
    /// (a block's gaps are under 64 KiB: 4,096 of at most 10 bytes).
    fn skips_of(
        &self,
        bytes: &[u8],
        ply: usize,
        e: &BlockEntry,
    ) -> std::result::Result<Skips, String> {
        if e.bytes.saturating_sub(u64::from(e.positions)) > u64::from(u16::MAX) {
            return Err(damaged(ply, self.blocks_at + e.offset as usize));
        }
        let entries = (e.positions as usize).div_ceil(SKIP_STRIDE);
        let (mut keys, mut offsets) = (Vec::with_capacity(entries), Vec::with_capacity(entries));
        self.decode_block(bytes, ply, e, |i, key, offset| {
            if i % SKIP_STRIDE == 0 {
                keys.push(key);
                // under u16::MAX: the gaps' length was checked above
                offsets.push(offset as u16);
            }
        })?;
        Ok(Skips {
            keys: keys.into_boxed_slice(),
            offsets: offsets.into_boxed_slice(),
        })
    }

    /// The value/depth byte of canonical `key` at `ply`, if stored: the
    /// block that may hold it (checked and indexed the first time it is
    /// read), then at most [`SKIP_STRIDE`] of its gaps decoded.
    fn find(&self, bytes: &[u8], ply: usize, key: u64) -> std::result::Result<Option<u8>, String> {
        if ply >= self.directory.len() {
            return Ok(None);
        }
        let blocks = self.blocks_of(ply);
        let b = blocks.partition_point(|e| e.first_key <= key);
        let Some(e) = b.checked_sub(1).map(|b| &blocks[b]) else {
            return Ok(None);
        };
        let cell = &self.skips[self.directory[ply].1 as usize + b - 1];
        let skips = match cell.get() {
            Some(skips) => skips,
            None => {
                // another thread may have set the same index meanwhile
                let _ = cell.set(self.skips_of(bytes, ply, e)?);
                cell.get().expect("the skip index was just set")
            }
        };
        let (values, gaps) = self.split_block(bytes, e);
        // keys[0] is the first key, at most `key`: j ≥ 0
        let j = skips.keys.partition_point(|&k| k <= key) - 1;
        let mut gaps = Gaps {
            bytes: &gaps.bytes[usize::from(skips.offsets[j])..],
        };
        let bad = || damaged(ply, self.blocks_at + e.offset as usize);
        let mut at = skips.keys[j];
        let end = values.len().min((j + 1) * SKIP_STRIDE);
        for (i, &value) in values[j * SKIP_STRIDE..end].iter().enumerate() {
            if i > 0 {
                // decoded once already, when the index was made
                at = gaps.next_key(at).ok_or_else(bad)?;
            }
            if at >= key {
                return Ok((at == key).then_some(value));
            }
        }
        Ok(None)
    }

    /// Every ply, decoded (every block's checksum checked), in key words
    /// of `game`.
    fn plies(&self, bytes: &[u8], game: &Gravity) -> std::result::Result<Vec<GravityPly>, String> {
        (0..self.directory.len())
            .map(|ply| self.ply(bytes, game, ply))
            .collect()
    }

    /// Ply `ply`'s stored positions, decoded (every block's checksum
    /// checked), in key words of `game`.
    fn ply(
        &self,
        bytes: &[u8],
        game: &Gravity,
        ply: usize,
    ) -> std::result::Result<GravityPly, String> {
        let decoded: Vec<(Vec<u64>, Vec<u8>)> = self
            .blocks_of(ply)
            .par_iter()
            .map(|e| self.block(bytes, ply, e))
            .collect::<std::result::Result<_, _>>()?;
        let mut keys = Vec::with_capacity(self.directory[ply].0 as usize);
        let mut values = Vec::with_capacity(keys.capacity());
        for (k, v) in decoded {
            if keys.last().is_some_and(|&last| last >= k[0]) {
                return Err(format!("the keys of ply {ply} are not in order"));
            }
            keys.extend(k);
            values.extend(v);
        }
        ply_in_words(game, keys, values)
    }
}

/// A ply of sorted `keys` and their `values`, its keys in the word of
/// `game` (32 bits where they fit).
pub(super) fn ply_in_words(
    game: &Gravity,
    keys: Vec<u64>,
    values: Vec<u8>,
) -> std::result::Result<GravityPly, String> {
    let keys = if game.key_bits() <= u32::BITS {
        let narrow: Option<Vec<u32>> = keys.iter().map(|&k| u32::try_from(k).ok()).collect();
        PlyKeys::Narrow(narrow.ok_or("a key does not fit the board")?)
    } else {
        PlyKeys::Wide(keys)
    };
    Ok(GravityPly::from_raw(keys, values))
}

/// Reads a whole gravity table (after the header and parameters) into
/// memory; the caller certifies it.
pub(super) fn read_solution(
    r: &mut Reader<'_>,
    game: &Gravity,
    states: u64,
) -> std::result::Result<GravitySolution, String> {
    let layout = read_layout(r, game, states)?;
    let plies = layout.plies(r.bytes, game)?;
    Ok(GravitySolution {
        game: game.clone(),
        plies,
        counts: layout.counts,
    })
}

/// A gravity table file mapped into memory: lookups decode one block.
///
/// The map is read-only. A file truncated by another process while mapped
/// faults the reader with SIGBUS (the atomic writes of this tool never do
/// that — a table is replaced by renaming, never shrunk); [`GravityFile::open`]
/// installs a SIGBUS handler that ends the process with one line and exit
/// code 2 instead of a crash.
pub struct GravityFile {
    path: String,
    map: memmap2::Mmap,
    game: Gravity,
    layout: Layout,
}

impl GravityFile {
    /// Maps `path` if it is a gravity table; `Ok(None)` for a table of
    /// another game. The header, parameters, summary and index are checked
    /// (their checksum included); blocks are checked as they are read.
    pub fn open(path: &Path) -> Result<Option<Self>> {
        let bad = |why: String| Error::BadTableFile {
            path: path.display().to_string(),
            why,
        };
        let mut file = crate::files::open_regular(path)?;
        if !is_gravity_file(&mut file) {
            return Ok(None);
        }
        exit_cleanly_on_sigbus();
        // SAFETY: the map is read-only; see the type's docs for truncation
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|cause| Error::Io {
            path: path.display().to_string(),
            cause,
        })?;
        let (mut r, game, encoding, states) = super::read_header(&map, false).map_err(bad)?;
        let SavedGame::Gravity { cols, rows, k } = game else {
            return Ok(None);
        };
        if encoding != super::GRAVITY_ENCODING {
            return Err(bad(format!(
                "index encoding {encoding} does not fit game kind {}",
                game.kind()
            )));
        }
        let game = Gravity::new(BoardSize { cols, rows, k })
            .map_err(|e| bad(format!("the stored game is invalid: {e}")))?;
        let layout = read_layout(&mut r, &game, states).map_err(bad)?;
        Ok(Some(Self {
            path: path.display().to_string(),
            map,
            game,
            layout,
        }))
    }

    fn damaged(&self, why: String) -> Error {
        Error::BadTableFile {
            path: self.path.clone(),
            why,
        }
    }

    /// The file's path, for messages.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Canonical positions stored (a position and its mirror image once).
    pub fn stored(&self) -> u64 {
        self.layout.directory.iter().map(|&(n, _)| n).sum()
    }

    /// Checks every block's checksum and decoding.
    pub fn check_blocks(&self) -> Result<()> {
        self.layout
            .plies(&self.map, &self.game)
            .map(drop)
            .map_err(|why| self.damaged(why))
    }

    /// Ply `ply`'s stored positions (a part's share, for a part of a
    /// distributed solve's table), every block's checksum checked.
    pub(super) fn ply(&self, ply: usize) -> Result<GravityPly> {
        self.layout
            .ply(&self.map, &self.game, ply)
            .map_err(|why| self.damaged(why))
    }

    /// Canonical positions stored in each ply.
    pub(super) fn stored_per_ply(&self) -> Vec<u64> {
        self.layout.directory.iter().map(|&(n, _)| n).collect()
    }

    /// Checks the trailer's checksum of the whole file.
    pub(super) fn check_trailer(&self) -> Result<()> {
        let body = self.map.len() - super::TRAILER_BYTES;
        let stored = le64(&self.map[body + 4..]);
        if Checksum::default().bytes(&self.map[..body]).value() == stored {
            Ok(())
        } else {
            Err(self.damaged(
                "corrupted: the checksum of the whole file (its trailer) does not match".into(),
            ))
        }
    }
}

/// Refuses summary counts that cannot be those of the stored positions,
/// checked without reading the blocks: each ply's positions between its
/// stored canonical positions and twice as many, its terminal positions
/// the sum of X's wins, O's wins and draws (draws only on a full board,
/// wins only after the winner's move), its first-player values summing to
/// its positions. [`super::MappedGravity::certify`] derives every count.
/// (`stored`: the canonical positions of each ply in the whole table, every
/// part of a distributed solve's table together.)
pub(super) fn plausible_counts(
    game: &Gravity,
    counts: &[GravityCounts],
    stored: &[u64],
) -> std::result::Result<(), String> {
    let cells = game.cells() as usize;
    for (ply, (c, &n)) in counts.iter().zip(stored).enumerate() {
        let bad = |what: &str| {
            Err(format!(
                "the summary's counts of ply {ply} are impossible: {what}"
            ))
        };
        let sums = |parts: &[u64]| parts.iter().try_fold(0u64, |t, &p| t.checked_add(p));
        if c.ply as usize != ply {
            return bad("they name another ply");
        }
        if c.positions < n || c.positions > n.saturating_mul(2) {
            return bad("positions other than the stored ones");
        }
        if sums(&[c.x_wins, c.o_wins, c.draws]) != Some(c.terminal) || c.terminal > c.positions {
            return bad("terminal positions other than the wins and draws");
        }
        let x_moved = ply % 2 == 1;
        if (c.draws > 0 && ply != cells) || (x_moved && c.o_wins > 0) || (!x_moved && c.x_wins > 0)
        {
            return bad("a win or draw no move of this ply makes");
        }
        let valued = sums(&[c.first_won, c.first_drawn, c.first_lost]);
        if valued != Some(c.positions) {
            return bad("first-player values that do not sum to the positions");
        }
    }
    Ok(())
}

/// Whether the file starts like a gravity table (magic, version, kind,
/// encoding), read without mapping it; the file is left at its start.
fn is_gravity_file(file: &mut std::fs::File) -> bool {
    use std::io::{Read, Seek};
    let mut head = [0u8; 20];
    let read = file.read_exact(&mut head).is_ok();
    let _ = file.rewind();
    let word = |at: usize| u32::from_le_bytes(head[at..at + 4].try_into().expect("4 bytes"));
    read && &head[..8] == super::MAGIC
        && word(12)
            == (SavedGame::Gravity {
                cols: 0,
                rows: 0,
                k: 0,
            })
            .kind()
        && word(16) == super::GRAVITY_ENCODING
}

/// Installs (once) a SIGBUS handler that writes one line and exits with
/// code 2: a mapped table shrunk by another process while read.
pub(super) fn exit_cleanly_on_sigbus() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    extern "C" fn on_sigbus(_: libc::c_int) {
        const LINE: &[u8] =
            b"error: the table file shrank while it was read (another process truncated it); no answer\n";
        // SAFETY: write and _exit are async-signal-safe
        unsafe {
            libc::write(2, LINE.as_ptr().cast(), LINE.len());
            libc::_exit(2);
        }
    }
    ONCE.call_once(|| {
        // SAFETY: the handler only calls async-signal-safe functions
        unsafe {
            libc::signal(libc::SIGBUS, on_sigbus as *const () as libc::sighandler_t);
        }
    });
}

/// The values of a solved gravity board, from memory or from a file.
pub trait GravityValues: Sync {
    /// The board.
    fn game(&self) -> &Gravity;
    /// The per-ply counts.
    fn counts(&self) -> &[GravityCounts];
    /// The value and depth of the position `key` (either mirror image) at
    /// `ply`, if reachable; an error if the table is damaged there.
    fn value_of(&self, ply: usize, key: u64) -> Result<Option<(Outcome, u32)>>;
}

impl GravityValues for GravitySolution {
    fn game(&self) -> &Gravity {
        &self.game
    }
    fn counts(&self) -> &[GravityCounts] {
        &self.counts
    }
    fn value_of(&self, ply: usize, key: u64) -> Result<Option<(Outcome, u32)>> {
        Ok(self.lookup(ply, key))
    }
}

impl GravityValues for GravityFile {
    fn game(&self) -> &Gravity {
        &self.game
    }
    fn counts(&self) -> &[GravityCounts] {
        &self.layout.counts
    }
    fn value_of(&self, ply: usize, key: u64) -> Result<Option<(Outcome, u32)>> {
        let found = self
            .layout
            .find(&self.map, ply, self.game.canonical(key))
            .map_err(|why| self.damaged(why))?;
        Ok(found.map(decode))
    }
}

impl GravityFile {
    /// The first key of every block (each ply's blocks in key order).
    pub fn block_first_keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.layout.index.iter().map(|e| e.first_key)
    }
}
