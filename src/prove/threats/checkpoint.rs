//! The threat prover's checkpoints (`prove mnk --method threats
//! --checkpoint FILE`): what a proof has learnt, on disk, so that a proof
//! stopped by its time limit (or killed) goes on in a later process from
//! where its last checkpoint left it.
//!
//! **What is kept.** df-pn holds all it knows in its table: a search
//! started again from the root with the table restored follows the
//! numbers back down to where it was (the stack it was on costs one
//! descent). Beside the table: with zones, the attacker moves chosen and
//! the cuts made, which stay fixed once made (the zones and the
//! certificate read them: [`super::relevance`]); and the counts of the report,
//! so that they cover every run. The expansion cache and the zone memo are
//! worked out again as needed, the same way as before.
//!
//! **A checkpoint larger than the table** (one of a larger budget, or of
//! version 3, whose table also held the leaves' numbers): its settled
//! entries are all kept, and of its open ones those of most work (by
//! powers of two, counted in a first pass over the file), so that the
//! table holds at most [`super::table::Table::room`], three quarters of
//! its slots, leaving the rest for the search. The open entries left out
//! (the report counts them) are searched again as needed: a settled
//! entry is the only kind whose loss costs a proof, and those stay.
//! (Loaded whole in slot order, which is the order of the keys' homes, a
//! checkpoint too large would fill the table from its start: once 15/16
//! full, keys whose homes lay in the still empty end would find no open
//! entry near to replace.)
//!
//! **Identity.** A checkpoint belongs to one proof: the board, the
//! attacker, the position proved (its diagram, and its key, so that a
//! change of the keys' hashing is caught) and the prover's settings.
//! The horizon ([`Settings::max_stones`]) is not part of it: a checkpoint
//! resumes under any, but its identity text records its own (a line
//! `horizon N` or `horizon none`, read back and not compared), and one
//! resumed under a wider horizon leaves its disproved entries out (a
//! position no win was found in within fewer stones may be one within
//! more; its proofs hold under any horizon). Resumed under a narrower
//! horizon, a proof by quiet moves past it could not be read back into
//! the certificate (its expansion there is "not a win"), so `prove mnk`
//! refuses that. A checkpoint without the line says nothing and is
//! resumed as it is.
//! Another proof's checkpoint is refused, as is a file that fails its
//! checks (magic, version, sizes, checksum, numbers no search gives); a
//! save replaces nothing but this proof's checkpoint (a file put at the
//! path during a run is refused, and the run stops with an error). Moves
//! and cuts read back are used only where they fit the position (empty
//! cells among its moves), so a damaged file can waste a search but not
//! break the board; every proof is checked again by its certificate.
//!
//! **A proof's checkpoint** ([`ThreatProver::save_proof_checkpoint`]):
//! once the certificate is written, the positions it lists are the
//! proof; the checkpoint then keeps their entries, chosen moves and cuts
//! alone (the same format), a few million where the table held hundreds
//! of millions. Resumed, its root is proved and its certificate written
//! again without a search (unless a proof was given up while it was
//! walked: that piece is searched again); merged, it adds the proof and
//! nothing else.
//!
//! **Merging** ([`ThreatProver::merge_checkpoint`], `prove mnk
//! --merge-checkpoint`): another proof's checkpoint, of the same board,
//! attacker and settings but any position, adds its proved entries to
//! this prover's table, and its chosen moves and cuts where this prover
//! holds none. So the open moves of a proof too large for one table can
//! each be proved by a run of its own, with the whole table, and the
//! proof above resumed with their proofs merged and its certificate
//! written. Its position's key is worked out again from its diagram and
//! must be the one it holds (a checkpoint of a build that hashed
//! otherwise would add entries under others' keys). One written under a
//! wider horizon than the prover's is refused: its proofs by quiet moves
//! past this horizon would not read back into the certificate (`prove
//! mnk` starts at a horizon as wide as every checkpoint's it is given).
//! Where both held a chosen move, the two proofs may differ below a cut,
//! so the walk checks the cuts ([`super::relevance`]); the checker checks the
//! whole either way. All or nothing: a proof given up to make room for
//! another (the table full of proofs) fails the merge, which then asks
//! for a larger budget.
//!
//! **Format** (little-endian): `RGTHREAT`, `u32` version; `u32` length and
//! the identity's text (one `field value` line a field, the horizon's
//! last); `f64` seconds
//! searched so far; `u64` visits, expansions, cuts, moves cut; `u64`
//! entries, then each entry's key fingerprint ([`super::table`]: `u64`
//! high, `u32` low), `proof << 32 | disproof` (`u64`) and work (`u32`);
//! `u64` chosen moves, then each one's key and cell (`u64`);
//! `u64` cuts, then each one's key and three cell lists (zone, moves,
//! all), each a `u64` length and its cells as `u16`; last the `u64`
//! checksum ([`StreamChecksum`]) of every byte before it. A key (of a
//! chosen move or a cut) is two `u64`, low first. This is version 4.
//! Version 3 had no work; it is still read, each entry's work taken as
//! 0: its open entries are the first replaced and, when the checkpoint is
//! larger than the table, all left out (its settled ones kept). (Ranked
//! by proof plus disproof instead, its starting numbers of
//! defender-to-move leaves, `(moves, 1)` with up to 200 moves, would
//! outrank the new search's entries and hold most of its table.)
//! Version 1 held each entry's whole key in place of its fingerprint (and
//! no work); it is still read (the fingerprints worked out from the
//! keys). Version 2 (64-bit fingerprints, development builds of one day)
//! is refused: its fingerprints are too short to fill this table. Written
//! atomically (temporary file, sync, rename), so a run killed while
//! writing leaves the previous checkpoint whole.

use std::collections::hash_map::Entry;
use std::fs::File;
use std::io::{BufReader, BufWriter, ErrorKind, Read, Write};
use std::path::Path;
use std::rc::Rc;

use crate::atomic_file::write_atomically_with;
use crate::board::cells::Cells;
use crate::checksum::StreamChecksum;
use crate::error::{quoted, Error, Remedy, Result, Setting, QUOTED_CHARS};
use rustc_hash::FxHashSet;

use super::board::Board;
use super::relevance::Cut;
use super::table::{fingerprint, pack, unpack, Fingerprint};
use super::{Settings, ThreatProver};
use crate::prove::proof_numbers::{capped_sum, Numbers, INFINITE};

/// The first bytes of a checkpoint file.
pub const MAGIC: &[u8; 8] = b"RGTHREAT";

/// The format version written.
const VERSION: u32 = 4;

/// An older version read: fingerprints without the entries' work.
const NO_WORK_VERSION: u32 = 3;

/// The oldest version read: whole keys in place of fingerprints.
const KEYS_VERSION: u32 = 1;

/// The longest identity text read (a 16 × 16 diagram and the settings
/// take about 1 kB).
const MAX_IDENTITY: u32 = 1 << 16;

/// What the runs before this one did, by their checkpoint.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Earlier {
    /// Seconds they searched.
    pub seconds: f64,
    /// Positions they searched.
    pub visits: u64,
    /// Open entries of the checkpoint left out: more than the table
    /// takes with room to search (those of least work).
    pub dropped: u64,
    /// Disproved entries left out: the checkpoint's horizon was narrower
    /// than this run's.
    pub disproofs_dropped: u64,
    /// The checkpoint's horizon (`Some(None)`: none), `None` when it does
    /// not say (a checkpoint written before horizons were recorded).
    pub horizon: Option<Option<u32>>,
}

/// What [`ThreatProver::merge_checkpoint`] took from another proof's
/// checkpoint, and what its runs had done.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Merged {
    /// Proved entries stored (of positions not proved here already).
    pub proved: u64,
    /// Chosen moves and cuts kept (those of positions this prover had
    /// none for).
    pub chosen: u64,
    pub cuts: u64,
    /// Seconds and positions its runs searched.
    pub seconds: f64,
    pub visits: u64,
}

/// Bytes written with their checksum.
struct Out<W: Write> {
    w: W,
    sum: StreamChecksum,
}

impl<W: Write> Out<W> {
    fn bytes(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.sum.update(bytes);
        self.w.write_all(bytes)
    }

    fn u32(&mut self, v: u32) -> std::io::Result<()> {
        self.bytes(&v.to_le_bytes())
    }

    fn u64(&mut self, v: u64) -> std::io::Result<()> {
        self.bytes(&v.to_le_bytes())
    }

    fn key(&mut self, key: u128) -> std::io::Result<()> {
        self.u64(key as u64)?;
        self.u64((key >> 64) as u64)
    }

    fn cells(&mut self, cells: &[u16]) -> std::io::Result<()> {
        self.u64(cells.len() as u64)?;
        cells.iter().try_for_each(|&c| self.bytes(&c.to_le_bytes()))
    }
}

/// Bytes read with their checksum; `bad` words every failure.
struct In<R: Read> {
    r: R,
    sum: StreamChecksum,
    path: String,
    /// The file's format version (0 before the header is read).
    version: u32,
    /// The horizon its search had (`Some(None)`: none), `None` when the
    /// file does not say (written before horizons were recorded).
    horizon: Option<Option<u32>>,
}

impl<R: Read> In<R> {
    fn bad(&self, why: impl Into<String>) -> Error {
        Error::BadTableFile {
            path: self.path.clone(),
            why: why.into(),
        }
    }

    fn fill(&mut self, buf: &mut [u8]) -> Result<()> {
        match self.r.read_exact(buf) {
            Ok(()) => {
                self.sum.update(buf);
                Ok(())
            }
            Err(e) if e.kind() == ErrorKind::UnexpectedEof => {
                Err(self.bad("the checkpoint is truncated (a run killed while writing it leaves the last whole one, so this file was cut later)"))
            }
            Err(cause) => Err(Error::CannotRead {
                path: self.path.clone(),
                cause,
            }),
        }
    }

    fn u32(&mut self) -> Result<u32> {
        let mut b = [0; 4];
        self.fill(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> Result<u64> {
        let mut b = [0; 8];
        self.fill(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn key(&mut self) -> Result<u128> {
        let low = self.u64()?;
        Ok(u128::from(self.u64()?) << 64 | u128::from(low))
    }

    /// A list of cells, each below `cells`.
    fn cells(&mut self, cells: u32) -> Result<Vec<u16>> {
        let n = self.u64()?;
        if n > u64::from(cells) {
            return Err(self.bad(format!("a list of {n} cells on a board of {cells}")));
        }
        let mut list = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let mut b = [0; 2];
            self.fill(&mut b)?;
            let c = u16::from_le_bytes(b);
            if u32::from(c) >= cells {
                return Err(self.bad(format!("cell {c} on a board of {cells}")));
            }
            list.push(c);
        }
        Ok(list)
    }

    /// Reads the checksum, last, and refuses a file whose bytes do not
    /// give it or that goes on past it.
    fn end(&mut self) -> Result<()> {
        let sum = self.sum.value();
        let mut stored = [0; 8];
        self.fill(&mut stored)?;
        let mut rest = [0; 1];
        if u64::from_le_bytes(stored) != sum || !matches!(self.r.read(&mut rest), Ok(0)) {
            return Err(self.bad(
                "the checkpoint fails its checksum (damaged); delete it to start the proof over",
            ));
        }
        Ok(())
    }

    /// The counts after the identity: seconds searched so far, and
    /// visits, expansions, cuts and moves cut.
    fn counts(&mut self) -> Result<(f64, [u64; 4])> {
        let seconds = f64::from_bits(self.u64()?);
        // (issue 73, line 9) a run takes a finite, non-negative time
        if !seconds.is_finite() || seconds < 0.0 {
            return Err(self.bad(format!(
                "it records {seconds} seconds searched, which no run takes"
            )));
        }
        Ok((
            seconds,
            [self.u64()?, self.u64()?, self.u64()?, self.u64()?],
        ))
    }

    /// One table entry (fingerprint, numbers, work), checked.
    fn entry(&mut self) -> Result<(Fingerprint, Numbers, u32)> {
        let fingerprint = match self.version {
            KEYS_VERSION => fingerprint(self.key()?),
            _ => {
                let high = self.u64()?;
                if high == 0 {
                    return Err(self.bad("an entry of fingerprint 0, which no table holds"));
                }
                Fingerprint {
                    high,
                    low: self.u32()?,
                }
            }
        };
        let mut numbers = unpack(self.u64()?);
        if numbers.proof > INFINITE
            || numbers.disproof > INFINITE
            || numbers.proof == numbers.disproof && numbers.proof == 0
        {
            return Err(self.bad(format!(
                "proof and disproof numbers {} and {} no search gives",
                numbers.proof, numbers.disproof
            )));
        }
        // runs before the saturation mend (module docs of `super`,
        // "Saturation") stored sums of INFINITE on unsettled
        // positions: large, not infinite (each side is the sum of a
        // node whose other side is its least)
        let Numbers { proof, disproof } = numbers;
        numbers.proof = capped_sum(proof, disproof);
        numbers.disproof = capped_sum(disproof, proof);
        let work = match self.version {
            VERSION => self.u32()?,
            // no work written: unknown, so none (module docs)
            _ => 0,
        };
        Ok((fingerprint, numbers, work))
    }
}

/// The settings as a checkpoint's identity names them: those that change
/// what the table's entries mean. [`Settings::defender_runs`] is left out:
/// it refutes only positions that are not wins either way, so a
/// checkpoint is resumed with it on or off. (The text is the one the
/// settings' `Debug` gave before that field, so older checkpoints match.)
fn settings_identity(settings: &Settings) -> String {
    let Settings {
        vcf,
        max_covers,
        attacker_moves,
        zone_moves,
        defender_runs: _,
        max_stones: _,
        vct,
    } = settings;
    // (threat-space search changes which attacker moves are tried, so
    // what a disproof means; without it the text is the older one)
    let vct = vct.map_or_else(String::new, |v| format!(", vct: {v:?}"));
    format!(
        "Settings {{ vcf: {vcf:?}, max_covers: {max_covers:?}, \
         attacker_moves: {attacker_moves:?}, zone_moves: {zone_moves:?}{vct} }}"
    )
}

impl ThreatProver<'_> {
    /// The fields a checkpoint must agree on with the proof of `root`;
    /// without one, those a checkpoint merged must (the game and the
    /// settings: what its entries mean), not its position.
    fn identity(&self, root: Option<&Board>) -> Vec<(&'static str, String)> {
        let g = self.geometry;
        let mut fields = vec![
            ("board", format!("{} {} {}", g.cols, g.rows, g.k)),
            ("attacker", ["X", "O"][self.attacker].to_string()),
        ];
        if let Some(root) = root {
            fields.push(("position", root.diagram()));
            fields.push(("key", format!("{:032x}", root.key())));
        }
        fields.push(("settings", settings_identity(&self.settings)));
        fields
    }

    /// Writes the prover's state, as it is after a search of `root`
    /// stopped, to `path` atomically (module docs); `seconds`: the time
    /// searched by this run and those before it.
    pub fn save_checkpoint(&self, path: &Path, root: &Board, seconds: f64) -> Result<()> {
        self.write_checkpoint(path, root, seconds, None)
    }

    /// Writes, as [`Self::save_checkpoint`], the checkpoint of the proof
    /// of `root` alone: the entries, chosen moves and cuts of the
    /// positions its certificate, just written, lists (a few million,
    /// where the table holds hundreds of millions). Enough to write the
    /// certificate again, and what a proof above merges
    /// ([`Self::merge_checkpoint`]); a proof given up while the
    /// certificate was walked leaves a position without its entry, which
    /// is then searched again. The whole table when no certificate was
    /// written whole with its positions kept
    /// ([`Self::keep_proof_positions`]; their keys are dropped when they
    /// would take the walk's memory).
    pub fn save_proof_checkpoint(&self, path: &Path, root: &Board, seconds: f64) -> Result<()> {
        if self.proof_keys.is_empty() {
            return self.save_checkpoint(path, root, seconds);
        }
        let kept: FxHashSet<Fingerprint> =
            self.proof_keys.iter().map(|&k| fingerprint(k)).collect();
        self.write_checkpoint(path, root, seconds, Some((&self.proof_keys, &kept)))
    }

    /// [`Self::save_checkpoint`], of the positions `only` names (their
    /// keys, and their keys' fingerprints) or of all.
    fn write_checkpoint(
        &self,
        path: &Path,
        root: &Board,
        seconds: f64,
        only: Option<(&FxHashSet<u128>, &FxHashSet<Fingerprint>)>,
    ) -> Result<()> {
        let keeps_key = |key: &u128| only.is_none_or(|(keys, _)| keys.contains(key));
        let keeps_entry = |f: &Fingerprint| only.is_none_or(|(_, kept)| kept.contains(f));
        // only this proof's checkpoint is replaced (a file put there, or
        // another run's checkpoint, since the run began is refused)
        self.open_checked(path, Some(root))?;
        let mut identity: String = self
            .identity(Some(root))
            .iter()
            .map(|(field, value)| format!("{field} {value}\n"))
            .collect();
        // (not part of the identity: read back to keep or drop disproofs)
        identity += &format!(
            "horizon {}\n",
            super::horizon_name(self.settings.max_stones)
        );
        write_atomically_with(path, |file| {
            let mut out = Out {
                w: BufWriter::with_capacity(1 << 20, file),
                sum: StreamChecksum::default(),
            };
            out.bytes(MAGIC)?;
            out.u32(VERSION)?;
            out.u32(identity.len() as u32)?;
            out.bytes(identity.as_bytes())?;
            out.u64(seconds.to_bits())?;
            let s = &self.stats;
            for n in [s.visits, s.expansions, s.cuts, s.moves_cut] {
                out.u64(n)?;
            }
            let entries = match only {
                None => self.table.len(),
                Some(_) => self
                    .table
                    .entries()
                    .filter(|(f, ..)| keeps_entry(f))
                    .count(),
            };
            out.u64(entries as u64)?;
            for (fingerprint, numbers, work) in self.table.entries() {
                if !keeps_entry(&fingerprint) {
                    continue;
                }
                out.u64(fingerprint.high)?;
                out.u32(fingerprint.low)?;
                out.u64(pack(numbers))?;
                out.u32(work)?;
            }
            out.u64(self.chosen.keys().filter(|k| keeps_key(k)).count() as u64)?;
            for (&key, &cell) in self.chosen.iter().filter(|(k, _)| keeps_key(k)) {
                out.key(key)?;
                out.u64(u64::from(cell))?;
            }
            out.u64(self.cuts.keys().filter(|k| keeps_key(k)).count() as u64)?;
            for (&key, cut) in self.cuts.iter().filter(|(k, _)| keeps_key(k)) {
                out.key(key)?;
                let zone: Vec<u16> = cut.zone.iter().map(|c| c as u16).collect();
                out.cells(&zone)?;
                out.cells(&cut.moves)?;
                out.cells(&cut.all)?;
            }
            let sum = out.sum.value();
            out.w.write_all(&sum.to_le_bytes())?;
            out.w.flush()
        })
        .map_err(|cause| Error::Io {
            path: path.display().to_string(),
            cause,
        })
    }

    /// Opens `path` and reads its header, refusing anything but a
    /// checkpoint of the proof of `root` (without one: of any position of
    /// this game and these settings, whose key its position gives);
    /// `None` when there is no file.
    fn open_checked(
        &self,
        path: &Path,
        root: Option<&Board>,
    ) -> Result<Option<In<BufReader<File>>>> {
        let shown = path.display().to_string();
        // a FIFO would block the open for ever, a device never end: only a
        // regular file (or nothing) is a checkpoint
        if std::fs::metadata(path).is_ok() {
            crate::files::check_regular_input(path)?;
        }
        let file = match File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(cause) => return Err(Error::CannotRead { path: shown, cause }),
        };
        let mut input = In {
            r: BufReader::with_capacity(1 << 20, file),
            sum: StreamChecksum::default(),
            path: shown,
            version: 0,
            horizon: None,
        };
        let mut magic = [0; 8];
        match input.r.read_exact(&mut magic) {
            Ok(()) => input.sum.update(&magic),
            Err(e) if e.kind() == ErrorKind::UnexpectedEof => {}
            Err(cause) => {
                return Err(Error::CannotRead {
                    path: input.path,
                    cause,
                })
            }
        }
        if &magic != MAGIC {
            return Err(input.bad(
                "not a checkpoint of retrograde's threat prover, so it is neither read nor replaced; give another path",
            ));
        }
        let version = input.u32()?;
        if ![VERSION, NO_WORK_VERSION, KEYS_VERSION].contains(&version) {
            return Err(input.bad(format!(
                "a checkpoint of format version {version}; this retrograde reads versions {KEYS_VERSION}, {NO_WORK_VERSION} and {VERSION} (delete it to start the proof over)"
            )));
        }
        input.version = version;
        let length = input.u32()?;
        if length > MAX_IDENTITY {
            return Err(input.bad(format!("an identity of {length} bytes")));
        }
        let mut text = vec![0; length as usize];
        input.fill(&mut text)?;
        let text = String::from_utf8_lossy(&text).into_owned();
        let theirs: Vec<(&str, &str)> = text
            .lines()
            .map(|line| line.split_once(' ').unwrap_or((line, "")))
            .collect();
        for (field, ours) in self.identity(root) {
            let found = theirs.iter().find(|(f, _)| *f == field).map(|(_, v)| *v);
            if found != Some(ours.as_str()) {
                // (a diagram is too long to quote in a line)
                let differs = match found {
                    Some(theirs) if ours.len() <= QUOTED_CHARS => {
                        format!(
                            "its {field} is {}, this run's {}",
                            quoted(theirs),
                            quoted(&ours)
                        )
                    }
                    _ => format!("it differs from this run in its {field}"),
                };
                return Err(input.bad(format!(
                    "a checkpoint of another proof ({differs}); give another path, or the arguments of the run that wrote it"
                )));
            }
        }
        if root.is_none() {
            // its keys are this build's only if its position's is: a
            // change of the keys' hashing would make its entries others'
            let field = |name: &str| theirs.iter().find(|(f, _)| *f == name).map(|(_, v)| *v);
            let position = field("position").and_then(|d| Board::from_diagram(self.geometry, d));
            let key = position.map(|p| format!("{:032x}", p.key()));
            if key.is_none() || key.as_deref() != field("key") {
                return Err(input.bad(
                    "its position's key is not the one this retrograde works out (a checkpoint of another build's hashing), so its entries cannot be merged",
                ));
            }
        }
        if let Some((_, value)) = theirs.iter().find(|(f, _)| *f == "horizon") {
            let horizon = match *value {
                "none" => None,
                n => Some(
                    n.parse()
                        .map_err(|_| input.bad(format!("a horizon of {}", quoted(n))))?,
                ),
            };
            input.horizon = Some(horizon);
        }
        Ok(Some(input))
    }

    /// The horizon the checkpoint at `path` of the proof of `root` was
    /// written with (`Some(None)`: none); `None` when there is no file or
    /// it does not say. Reads its header only.
    pub fn checkpoint_horizon(&self, path: &Path, root: &Board) -> Result<Option<Option<u32>>> {
        Ok(self
            .open_checked(path, Some(root))?
            .and_then(|input| input.horizon))
    }

    /// The horizon the checkpoint at `path`, of any proof of this game and
    /// settings, was written with, as [`Self::checkpoint_horizon`] (for a
    /// checkpoint to merge).
    pub fn merged_checkpoint_horizon(&self, path: &Path) -> Result<Option<Option<u32>>> {
        Ok(self
            .open_checked(path, None)?
            .and_then(|input| input.horizon))
    }

    /// Restores the checkpoint at `path` of the proof of `root` into this
    /// prover, fresh from [`ThreatProver::new`]; `None` when there is no
    /// file at `path`. A file that is not a checkpoint, or another proof's,
    /// or damaged, is an error (the prover is then to be dropped: it may
    /// hold part of the file).
    pub fn load_checkpoint(&mut self, path: &Path, root: &Board) -> Result<Option<Earlier>> {
        let Some(mut input) = self.open_checked(path, Some(root))? else {
            return Ok(None);
        };
        let (seconds, [visits, expansions, cuts, moves_cut]) = input.counts()?;
        // disproofs of a narrower horizon than this run's may not hold
        // under it (proofs hold under any)
        let stale = input
            .horizon
            .is_some_and(|theirs| super::wider(self.settings.max_stones, theirs));
        let entries = input.u64()?;
        // more entries than the table takes with room to search (a
        // checkpoint of an older, larger layout, or of a larger budget):
        // the settled ones and the open ones of most work are kept, by a
        // first pass that counts the works
        let room = self.table.room() as u64;
        let least_work = if entries > room {
            self.least_work_kept(path, root, room, stale)?
        } else {
            0
        };
        let (mut dropped, mut disproofs_dropped) = (0, 0);
        for _ in 0..entries {
            let (fingerprint, numbers, work) = input.entry()?;
            if stale && numbers.disproof == 0 {
                disproofs_dropped += 1;
                continue;
            }
            if !numbers.settled() && work < least_work {
                dropped += 1;
                continue;
            }
            if !self.store_giving_up_no_proof(fingerprint, numbers, work) {
                return Err(Error::refused(
                    format!(
                        "{}: the checkpoint's {entries} positions do not fit the table that {{remedy}} gives; give the budget of the run that wrote it",
                        input.path
                    ),
                    &[Remedy::give(Setting::MaxMemory)],
                ));
            }
        }
        self.read_moves_and_cuts(&mut input)?;
        input.end()?;
        self.stats.visits += visits;
        self.stats.expansions += expansions;
        self.stats.cuts += cuts;
        self.stats.moves_cut += moves_cut;
        Ok(Some(Earlier {
            seconds,
            visits,
            dropped,
            disproofs_dropped,
            horizon: input.horizon,
        }))
    }

    /// Stores an entry read from a checkpoint; false if the table gave a
    /// proof up to make room for it (the file does not fit: a load or
    /// merge then fails rather than lose a proof).
    fn store_giving_up_no_proof(
        &mut self,
        fingerprint: Fingerprint,
        numbers: Numbers,
        work: u32,
    ) -> bool {
        let given_up = self.table.counts().proofs_given_up;
        self.table.store_fingerprint(fingerprint, numbers, work);
        self.table.counts().proofs_given_up == given_up
    }

    /// Reads the chosen moves and the cuts of a checkpoint, after its
    /// entries, and keeps each one whose position has none yet (every one,
    /// into a fresh prover); the counts kept. An error if they are more
    /// than the zones' memory keeps.
    fn read_moves_and_cuts<R: Read>(&mut self, input: &mut In<R>) -> Result<(u64, u64)> {
        let cells = self.geometry.cells();
        let (mut chosen, mut cut) = (0, 0);
        for _ in 0..input.u64()? {
            let key = input.key()?;
            let cell = input.u64()?;
            if cell >= u64::from(cells) {
                return Err(input.bad(format!("a chosen move at cell {cell} of {cells}")));
            }
            if let Entry::Vacant(place) = self.chosen.entry(key) {
                place.insert(cell as u16);
                chosen += 1;
            }
        }
        for _ in 0..input.u64()? {
            let key = input.key()?;
            let zone = input
                .cells(cells)?
                .into_iter()
                .fold(Cells::default(), |z, c| z.with(u32::from(c)));
            let (moves, all) = (input.cells(cells)?, input.cells(cells)?);
            if let Entry::Vacant(place) = self.cuts.entry(key) {
                place.insert(Rc::new(Cut { zone, moves, all }));
                cut += 1;
            }
        }
        if self.kept_bytes() > self.max_kept_bytes {
            // (those of positions the table does not hold first: as the
            // search does when they fill up)
            self.forget_cuts_of_positions_gone();
        }
        if self.kept_bytes() > self.max_kept_bytes {
            return Err(Error::refused(
                format!(
                    "{}: the checkpoint's cuts and chosen moves, with those held, {} and {} (about {} bytes), are more than {{remedy}} keeps ({} bytes); give at least the budget of the run that wrote it",
                    input.path,
                    self.cuts.len(),
                    self.chosen.len(),
                    self.kept_bytes(),
                    self.max_kept_bytes
                ),
                &[Remedy::give(Setting::MaxMemory)],
            ));
        }
        Ok((chosen, cut))
    }

    /// Adds the proofs of another checkpoint at `path` to this prover's:
    /// one of the same game and settings, of any position (in practice
    /// one below the root, proved by a run of its own, so that its root's
    /// proof has the whole table; its horizon not wider than this
    /// prover's, module docs). Its **proved** entries are stored (its
    /// open and disproved ones are the other search's business), and its
    /// chosen moves and cuts where
    /// this prover has none (where both have one, this prover's proofs
    /// were made with its own; a cut of the other's whose pass proof now
    /// runs through a move of this one's is made again by the
    /// certificate's walk: `super::relevance`). Its counts are not added
    /// (the report gives them apart). An error if the file is not there,
    /// is not such a checkpoint, is damaged, or its proofs or cuts do not
    /// fit this prover's memory (the prover is then to be dropped).
    pub fn merge_checkpoint(&mut self, path: &Path) -> Result<Merged> {
        let Some(mut input) = self.open_checked(path, None)? else {
            return Err(Error::InvalidInput(format!(
                "{}: there is no checkpoint there to merge",
                path.display()
            )));
        };
        // its proofs by quiet moves past this prover's horizon would not
        // read back into the certificate (as a checkpoint resumed under a
        // narrower horizon: module docs)
        if let Some(theirs) = input.horizon {
            if super::wider(theirs, self.settings.max_stones) {
                return Err(input.bad(format!(
                    "its horizon of {} stones is wider than this run's {}, so its proofs could not all be read back; give that horizon or a wider one",
                    super::horizon_name(theirs),
                    super::horizon_name(self.settings.max_stones)
                )));
            }
        }
        let (seconds, [visits, ..]) = input.counts()?;
        let mut proved = 0;
        for _ in 0..input.u64()? {
            let (fingerprint, numbers, work) = input.entry()?;
            let held = self.table.get_fingerprint(fingerprint);
            if numbers.proof != 0 || held.is_some_and(|n| n.proof == 0) {
                continue;
            }
            if !self.store_giving_up_no_proof(fingerprint, numbers, work) {
                return Err(Error::refused(
                    format!(
                        "{}: its proofs, with those held, do not fit the table that {{remedy}} gives ({} stored when one was given up); give a larger budget",
                        input.path, proved
                    ),
                    &[Remedy::give(Setting::MaxMemory)],
                ));
            }
            proved += 1;
        }
        let (chosen, cuts) = self.read_moves_and_cuts(&mut input)?;
        input.end()?;
        // (the zones worked out so far may have read cuts or moves this
        // merge now answers otherwise: none kept)
        self.zone_memo.clear();
        Ok(Merged {
            proved,
            chosen,
            cuts,
            seconds,
            visits,
        })
    }

    /// The least work of the open entries kept from the checkpoint at
    /// `path` so that they and the settled ones are at most `room`
    /// (works counted by powers of two: a first pass over its entries;
    /// with `stale`, its disproved entries are left out and not counted).
    fn least_work_kept(&self, path: &Path, root: &Board, room: u64, stale: bool) -> Result<u32> {
        let Some(mut input) = self.open_checked(path, Some(root))? else {
            return Err(Error::InvalidInput(format!(
                "{}: the checkpoint went away while read",
                path.display()
            )));
        };
        input.counts()?;
        // open entries by bit length of their work (0: work 0)
        let (mut settled, mut open) = (0u64, [0u64; 33]);
        for _ in 0..input.u64()? {
            let (_, numbers, work) = input.entry()?;
            if stale && numbers.disproof == 0 {
                continue;
            }
            if numbers.settled() {
                settled += 1;
            } else {
                open[(32 - work.leading_zeros()) as usize] += 1;
            }
        }
        // the most bit lengths from the top that fit
        let mut kept = settled;
        let mut least = 33;
        while least > 0 && kept + open[least - 1] <= room {
            least -= 1;
            kept += open[least];
        }
        Ok(match least {
            0 => 0,
            33 => u32::MAX,
            n => 1 << (n - 1),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::Geometry;
    use super::super::Verdict;
    use super::*;
    use crate::board::BoardSize;

    #[test]
    fn the_settings_identity_is_the_text_older_checkpoints_hold() {
        // (the gomoku classes' checkpoints of 2026-11-27 hold this line)
        for defender_runs in [false, true] {
            let settings = Settings {
                zone_moves: None,
                defender_runs,
                ..Settings::default()
            };
            assert_eq!(
                settings_identity(&settings),
                "Settings { vcf: VcfLimits { depth: 24, tries: 1000 }, max_covers: 3, \
                 attacker_moves: Some(6), zone_moves: None }"
            );
        }
    }

    /// A cut of two moves that no position has.
    fn fake_cut() -> Cut {
        Cut {
            zone: Cells::default(),
            moves: vec![1, 2],
            all: vec![1, 2, 3],
        }
    }

    #[test]
    fn chosen_moves_count_at_their_own_size_in_the_zones_memory() {
        // 64 MiB keep 8 MiB of cuts and moves: 100,000 chosen moves take
        // about 16 MB at a cut's old size (160 bytes) and 5.6 MB at their
        // own
        // (j8 of 2026-11-28 could not be resumed at the budget that wrote
        // it while both were counted at a cut's size)
        let dir = std::env::temp_dir().join(format!("retrograde-kept-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("h8-a1.checkpoint");
        let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        let board = Board::after(&geometry, "h8,a1").unwrap();
        let prover = || ThreatProver::new(&geometry, 0, Settings::default(), 64 << 20, None);
        let mut full = prover();
        for key in 0..100_000u128 {
            full.chosen
                .insert(key * 0x9e37_79b9_7f4a_7c15, (key % 225) as u16);
        }
        assert!(100_000 * 160 > full.max_kept_bytes);
        assert!(!full.over_limits(), "{:?}", full.stopped());
        full.save_checkpoint(&path, &board, 1.0).unwrap();
        let mut resumed = prover();
        resumed.load_checkpoint(&path, &board).unwrap().unwrap();
        assert_eq!(resumed.chosen.len(), 100_000);
        // a budget that keeps fewer: the cuts of positions the table does
        // not hold (all of these) are forgotten at the load, the chosen
        // moves never
        let key = |i: u128| i * 0x9e37_79b9_7f4a_7c15 + 1;
        let mut with_cuts = prover();
        for i in 0..30_000 {
            with_cuts.cuts.insert(key(i), Rc::new(fake_cut()));
        }
        with_cuts.chosen.insert(key(0), 7);
        with_cuts.save_checkpoint(&path, &board, 1.0).unwrap();
        let mut smaller = ThreatProver::new(&geometry, 0, Settings::default(), 32 << 20, None);
        assert!(30_000 * super::super::BYTES_PER_CUT > smaller.max_kept_bytes);
        smaller.load_checkpoint(&path, &board).unwrap().unwrap();
        assert!(smaller.cuts.is_empty());
        assert_eq!(smaller.chosen.len(), 1);
        assert_eq!(smaller.stats.cuts_forgotten, 30_000);
        // cuts past what is left: those of positions the table does not
        // hold are forgotten (the chosen moves kept), and the search goes
        // on; those of positions it holds stop it
        let fill = |prover: &mut ThreatProver, held: bool| {
            for i in 0..=(prover.max_kept_bytes / super::super::BYTES_PER_CUT) as u128 {
                prover.cuts.insert(key(i), Rc::new(fake_cut()));
                if held {
                    let open = Numbers {
                        proof: 2,
                        disproof: 3,
                    };
                    prover.table.store(key(i), open, 1);
                }
            }
        };
        fill(&mut full, false);
        let cuts = full.cuts.len() as u64;
        assert!(!full.over_limits(), "{:?}", full.stopped());
        assert!(full.cuts.is_empty());
        assert_eq!(full.chosen.len(), 100_000);
        assert_eq!(full.stats.cuts_forgotten, cuts);
        fill(&mut full, true);
        assert!(full.over_limits());
        assert!(full
            .stopped()
            .unwrap()
            .starts_with("the zones' memory is full"));
        assert_eq!(full.cuts.len() as u64, cuts);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_checkpoint_of_a_narrower_horizon_is_resumed_without_its_disproofs() {
        let dir = std::env::temp_dir().join(format!("retrograde-hz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("h8-a1-i9-a2.checkpoint");
        let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        let mut board = Board::after(&geometry, "h8,a1,i9,a2").unwrap();
        let prover = |max_stones| {
            let settings = Settings {
                max_stones,
                ..Settings::default()
            };
            ThreatProver::new(&geometry, 0, settings, 1 << 28, None)
        };
        let mut narrow = prover(Some(14));
        assert_eq!(narrow.prove(&mut board), Verdict::NoWin);
        narrow.save_checkpoint(&path, &board, 1.0).unwrap();
        let disproved = narrow
            .table
            .entries()
            .filter(|(_, n, _)| n.disproof == 0)
            .count() as u64;
        assert!(disproved > 0);
        for (horizon, dropped, verdict) in [
            (Some(12), 0, Verdict::NoWin),
            (Some(14), 0, Verdict::NoWin),
            (Some(16), disproved, Verdict::Win),
            (None, disproved, Verdict::Win),
        ] {
            let mut resumed = prover(horizon);
            assert_eq!(
                resumed.checkpoint_horizon(&path, &board).unwrap(),
                Some(Some(14))
            );
            let earlier = resumed.load_checkpoint(&path, &board).unwrap().unwrap();
            assert_eq!(earlier.horizon, Some(Some(14)));
            assert_eq!(earlier.disproofs_dropped, dropped, "{horizon:?}");
            assert_eq!(
                resumed.table.len() as u64,
                narrow.table.len() as u64 - dropped
            );
            resumed.limit_visits(2_000_000);
            assert_eq!(resumed.prove(&mut board), verdict, "{horizon:?}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_checkpoint_larger_than_the_table_keeps_the_settled_and_the_most_worked() {
        let dir = std::env::temp_dir().join(format!("retrograde-ck-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("h8-a1-i9-a2.checkpoint");
        let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
        let mut board = Board::after(&geometry, "h8,a1,i9,a2").unwrap();
        let settings = Settings {
            zone_moves: None,
            ..Settings::default()
        };
        let mut large = ThreatProver::new(&geometry, 0, settings, 256 << 20, None);
        large.limit_visits(60_000);
        assert_eq!(large.prove(&mut board), Verdict::Open);
        large.save_checkpoint(&path, &board, 1.0).unwrap();
        // 2 MiB: a table of 43,690 slots, room for about 32,800
        let mut small = ThreatProver::new(&geometry, 0, settings, 2 << 20, None);
        let room = small.table.room();
        assert!(large.table.len() > room, "{} entries", large.table.len());
        let earlier = small.load_checkpoint(&path, &board).unwrap().unwrap();
        assert_eq!(earlier.visits, 60_000);
        assert!(small.table.len() <= room);
        assert_eq!(
            earlier.dropped as usize,
            large.table.len() - small.table.len()
        );
        // every settled entry is kept, and an open one only if no open
        // one dropped has more work than it (by powers of two)
        let mut least_kept = u32::MAX;
        let mut most_dropped = 0;
        for (f, n, work) in large.table.entries() {
            match small.table.entry(f) {
                Some((kept, w)) => {
                    assert_eq!((kept, w), (n, work));
                    if !n.settled() {
                        least_kept = least_kept.min(work);
                    }
                }
                None => {
                    assert!(!n.settled());
                    most_dropped = most_dropped.max(work);
                }
            }
        }
        assert!(most_dropped < least_kept, "{most_dropped} {least_kept}");
        assert!(32 - most_dropped.leading_zeros() < 32 - least_kept.leading_zeros());
        // and the proof goes on from there
        small.limit_visits(60_000 + 600_000);
        assert_eq!(small.prove(&mut board), Verdict::Win);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
