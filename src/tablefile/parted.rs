//! Tables written by a distributed solve (`mpirun … connect --out FILE`):
//! each rank writes the positions it owns as an ordinary gravity table
//! file, `FILE.part-R-of-P` (the whole board's counts in its summary), and
//! rank 0 writes the manifest `FILE` last, atomically, once every part is
//! on disk: a solve that fails anywhere leaves no table under `FILE`.
//!
//! The manifest is a line of text that names the format, then one JSON
//! object: the board, the rank count, the ownership scheme and the parts'
//! file names (beside the manifest). A reader maps every part and asks the
//! part that owns a position's canonical key; on opening it checks that
//! every part is of the same board with the same counts and that each
//! block of a part starts with a key its rank owns (parts swapped or mixed
//! up are refused).

use crate::board::BoardSize;
use std::borrow::Cow;
use std::io::Read;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use serde::{Deserialize, Serialize};

use super::gravity::{GravityFile, GravityValues};
use crate::error::{Error, Result};
use crate::game::Outcome;
use crate::memory::{Budget, Bytes};
use crate::rules::gravity::Gravity;
use crate::runtime::progress::{Progress, Silent};
use crate::tablefile::gravity_certificate::certify_gravity;
use crate::tables::sparse::distributed::ranks::{owner, OWNER_SCHEME};
use crate::tables::sparse::{GravityCounts, GravityPly};

/// The manifest's first line.
pub const MANIFEST_MAGIC: &[u8] = b"retrograde parted table\n";

/// The manifest's JSON object.
#[derive(Serialize, Deserialize)]
struct Manifest {
    version: u32,
    game: String,
    cols: u32,
    rows: u32,
    k: u32,
    ranks: usize,
    owner: String,
    positions: u64,
    parts: Vec<String>,
}

/// The part of `out` that rank `rank` of `ranks` writes.
pub fn part_path(out: &Path, rank: usize, ranks: usize) -> PathBuf {
    let name = out
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!("{name}.part-{rank}-of-{ranks}"))
}

/// Writes the manifest of the `ranks` parts of `out` atomically.
pub fn write_manifest(out: &Path, game: &Gravity, ranks: usize, positions: u64) -> Result<()> {
    let (cols, rows, k) = game.dimensions();
    let parts = (0..ranks)
        .map(|r| {
            part_path(out, r, ranks)
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let manifest = Manifest {
        version: 1,
        game: "connect".into(),
        cols,
        rows,
        k,
        ranks,
        owner: OWNER_SCHEME.into(),
        positions,
        parts,
    };
    let mut bytes = MANIFEST_MAGIC.to_vec();
    serde_json::to_writer_pretty(&mut bytes, &manifest).expect("a manifest serializes");
    bytes.push(b'\n');
    crate::atomic_file::write_atomically(out, &bytes).map_err(|cause| Error::Io {
        path: out.display().to_string(),
        cause,
    })
}

/// A parted gravity table: every part mapped.
pub struct PartedGravity {
    game: Gravity,
    counts: Vec<GravityCounts>,
    parts: Vec<GravityFile>,
    /// Bytes of the manifest and the parts.
    bytes: u64,
    /// The manifest's path, for messages.
    manifest: String,
}

impl PartedGravity {
    /// Opens the manifest `path` and its parts; `Ok(None)` if `path` is not
    /// a manifest.
    pub fn open(path: &Path) -> Result<Option<Self>> {
        let mut head = vec![0u8; MANIFEST_MAGIC.len()];
        let mut file = crate::files::open_regular(path)?;
        if file.read_exact(&mut head).is_err() || head != MANIFEST_MAGIC {
            return Ok(None);
        }
        let bad = |why: String| Error::BadTableFile {
            path: path.display().to_string(),
            why,
        };
        let text = crate::files::read_regular(path)?;
        let manifest: Manifest = serde_json::from_slice(&text[MANIFEST_MAGIC.len()..])
            .map_err(|e| bad(format!("the manifest is not readable: {e}")))?;
        if manifest.version != 1 || manifest.game != "connect" || manifest.owner != OWNER_SCHEME {
            return Err(bad(format!(
                "a manifest of version {}, game {}, ownership {} is not one this build reads",
                manifest.version, manifest.game, manifest.owner
            )));
        }
        if manifest.ranks == 0 || manifest.parts.len() != manifest.ranks {
            return Err(bad("the manifest's parts do not fit its rank count".into()));
        }
        let game = Gravity::new(BoardSize::new(manifest.cols, manifest.rows, manifest.k))
            .map_err(|e| bad(format!("the manifest's board is invalid: {e}")))?;
        let dir = path.parent().unwrap_or(Path::new(""));
        let mut parts = Vec::with_capacity(manifest.ranks);
        let mut bytes = text.len() as u64;
        for (rank, name) in manifest.parts.iter().enumerate() {
            if Path::new(name).file_name() != Some(std::ffi::OsStr::new(name)) {
                return Err(bad(format!(
                    "the part {name} is not a file beside the manifest"
                )));
            }
            let part_file = dir.join(name);
            bytes += std::fs::metadata(&part_file).map_or(0, |m| m.len());
            let part = GravityFile::open(&part_file)?
                .ok_or_else(|| bad(format!("the part {name} is not a gravity table")))?;
            if part.game().dimensions() != game.dimensions() {
                return Err(bad(format!("the part {name} is of another board")));
            }
            if part
                .block_first_keys()
                .any(|key| owner(key, manifest.ranks) != rank)
            {
                return Err(bad(format!(
                    "the part {name} holds positions of another rank (parts mixed up)"
                )));
            }
            parts.push(part);
        }
        let counts = parts[0].counts().to_vec();
        let positions: u64 = counts.iter().map(|c| c.positions).sum();
        if parts.iter().any(|p| p.counts() != counts.as_slice()) || positions != manifest.positions
        {
            return Err(bad(
                "the parts' counts disagree with each other or the manifest".into(),
            ));
        }
        Ok(Some(Self {
            game,
            counts,
            parts,
            bytes,
            manifest: path.display().to_string(),
        }))
    }

    /// Ranks the table was written by.
    pub fn ranks(&self) -> usize {
        self.parts.len()
    }

    /// Bytes of the manifest and its parts.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Canonical positions stored in all parts.
    pub fn stored(&self) -> u64 {
        self.parts.iter().map(GravityFile::stored).sum()
    }

    /// Checks every block of every part.
    pub fn check_blocks(&self) -> Result<()> {
        self.parts.iter().try_for_each(GravityFile::check_blocks)
    }

    /// Ply `ply`'s positions from every part, merged in key order.
    fn ply(&self, ply: usize) -> Result<GravityPly> {
        let shares = self
            .parts
            .par_iter()
            .map(|part| part.ply(ply))
            .collect::<Result<Vec<_>>>()?;
        let mut entries: Vec<(u64, u8)> = shares
            .iter()
            .flat_map(|share| {
                let (keys, values) = share.raw();
                keys.iter().zip(values.iter().copied())
            })
            .collect();
        drop(shares);
        entries.par_sort_unstable_by_key(|&(key, _)| key);
        if entries.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(self.damaged(format!("ply {ply}: two parts hold the same position")));
        }
        let (keys, values) = entries.into_iter().unzip();
        super::gravity::ply_in_words(&self.game, keys, values).map_err(|why| self.damaged(why))
    }

    fn damaged(&self, why: String) -> Error {
        Error::BadTableFile {
            path: self.manifest.clone(),
            why,
        }
    }
}

impl GravityValues for PartedGravity {
    fn game(&self) -> &Gravity {
        &self.game
    }
    fn counts(&self) -> &[GravityCounts] {
        &self.counts
    }
    fn value_of(&self, ply: usize, key: u64) -> Result<Option<(Outcome, u32)>> {
        let part = owner(self.game.canonical(key), self.parts.len());
        self.parts[part].value_of(ply, key)
    }
}

/// A gravity table answered from disk: one file, or a manifest and parts.
pub enum MappedGravity {
    /// One table file.
    Single(GravityFile),
    /// A distributed solve's parts.
    Parted(PartedGravity),
}

/// Tables of at most this many stored positions are certified whenever
/// they are opened (a few tens of milliseconds); larger ones by
/// [`MappedGravity::certify`] (`query --check`).
pub const CERTIFIED_ON_OPEN: u64 = 1 << 20;

impl MappedGravity {
    /// Opens `path` if it is a gravity table or a parted table's manifest;
    /// `Ok(None)` for any other file. Every checksum a lookup relies on is
    /// checked and the summary's counts are checked to be possible; a
    /// table of at most `CERTIFIED_ON_OPEN` stored positions is
    /// certified whole.
    pub fn open(path: &Path) -> Result<Option<Self>> {
        let table = match PartedGravity::open(path)? {
            Some(parted) => Self::Parted(parted),
            None => match GravityFile::open(path)? {
                Some(single) => Self::Single(single),
                None => return Ok(None),
            },
        };
        let bad = |why: String| Error::BadTableFile {
            path: path.display().to_string(),
            why,
        };
        let stored = table.stored_per_ply();
        super::gravity::plausible_counts(table.game(), table.counts(), &stored).map_err(bad)?;
        if table.stored() <= CERTIFIED_ON_OPEN {
            table.certify(&Budget::unlimited(), &Silent)?;
        }
        Ok(Some(table))
    }

    /// Canonical positions stored in each ply, all parts together.
    fn stored_per_ply(&self) -> Vec<u64> {
        match self {
            Self::Single(f) => f.stored_per_ply(),
            Self::Parted(p) => p.parts.iter().map(GravityFile::stored_per_ply).fold(
                vec![0; p.game.cells() as usize + 1],
                |mut total, part| {
                    for (t, n) in total.iter_mut().zip(part) {
                        *t += n;
                    }
                    total
                },
            ),
        }
    }

    /// Certifies the whole table against the rules of its board (see
    /// `crate::tablefile::gravity_certificate`) and every file's trailer
    /// checksum; two plies decoded at a time, refused up front if they do
    /// not fit `budget`.
    pub fn certify(&self, budget: &Budget, progress: &dyn Progress) -> Result<()> {
        let game = self.game();
        let word = if game.key_bits() <= u32::BITS { 4 } else { 8 };
        let largest = self.stored_per_ply().into_iter().max().unwrap_or(0);
        // two plies held, the newer one also as its decoded blocks while
        // they are joined (and, for parts, as merged (key, value) pairs),
        // and the older one's bucket index (4 bytes for 8 keys)
        let per_position = match self {
            Self::Single(_) => 3 * (word + 1) + 1,
            Self::Parted(_) => 3 * (word + 1) + 1 + 2 * 16,
        };
        budget.check(
            "certifying the table",
            Bytes(largest.saturating_mul(per_position)),
        )?;
        let path = match self {
            Self::Single(f) => {
                f.check_trailer()?;
                f.path().to_string()
            }
            Self::Parted(p) => {
                p.parts.iter().try_for_each(GravityFile::check_trailer)?;
                p.manifest.clone()
            }
        };
        let ply_of = |ply: usize| {
            let decoded = match self {
                Self::Single(f) => f.ply(ply),
                Self::Parted(p) => p.ply(ply),
            };
            decoded.map(Cow::Owned).map_err(|e| e.to_string())
        };
        certify_gravity(game, self.counts(), ply_of, progress)
            .map_err(|why| Error::BadTableFile { path, why })
    }

    /// Canonical positions stored.
    pub fn stored(&self) -> u64 {
        match self {
            Self::Single(f) => f.stored(),
            Self::Parted(p) => p.stored(),
        }
    }

    /// Checks every block.
    pub fn check_blocks(&self) -> Result<()> {
        match self {
            Self::Single(f) => f.check_blocks(),
            Self::Parted(p) => p.check_blocks(),
        }
    }

    /// The table's files: 1, or the parts.
    pub fn files(&self) -> usize {
        match self {
            Self::Single(_) => 1,
            Self::Parted(p) => p.ranks(),
        }
    }

    fn values(&self) -> &dyn GravityValues {
        match self {
            Self::Single(f) => f,
            Self::Parted(p) => p,
        }
    }
}

impl GravityValues for MappedGravity {
    fn game(&self) -> &Gravity {
        self.values().game()
    }
    fn counts(&self) -> &[GravityCounts] {
        self.values().counts()
    }
    fn value_of(&self, ply: usize, key: u64) -> Result<Option<(Outcome, u32)>> {
        self.values().value_of(ply, key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Budget;
    use crate::runtime::progress::Silent;
    use crate::tablefile::{save, SavedGame, SavedTable};
    use crate::tables::sparse::distributed::ranks::threads;
    use crate::tables::sparse::distributed::{solve_gravity_distributed, RankSolution};
    use crate::tables::sparse::{solve_gravity, GravitySolution};

    /// Writes the parts and manifest of `game` solved on `ranks` simulated
    /// ranks under `out`, as `mpirun … --out` does.
    fn write_parted(game: &Gravity, ranks: usize, out: &Path) {
        let parts: Vec<RankSolution> = std::thread::scope(|s| {
            let handles: Vec<_> = threads::group(ranks)
                .into_iter()
                .map(|rank| {
                    s.spawn(move || {
                        solve_gravity_distributed(game, &rank, &Budget::unlimited(), &Silent)
                            .unwrap()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let (cols, rows, k) = game.dimensions();
        let positions = parts[0].counts.iter().map(|c| c.positions).sum();
        for (rank, part) in parts.into_iter().enumerate() {
            let table = SavedTable::Gravity(GravitySolution {
                game: game.clone(),
                plies: part.plies,
                counts: part.counts,
            });
            save(
                &part_path(out, rank, ranks),
                &SavedGame::Gravity { cols, rows, k },
                &table,
            )
            .unwrap();
        }
        write_manifest(out, game, ranks, positions).unwrap();
    }

    fn refusal(out: &Path) -> String {
        match MappedGravity::open(out) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("a damaged parted table was opened"),
        }
    }

    #[test]
    fn parts_read_as_one_table_and_mixed_up_parts_are_refused() {
        let dir = std::env::temp_dir().join(format!("retrograde-parted-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let game = Gravity::new(BoardSize::new(4, 4, 4)).unwrap();
        let want = solve_gravity(&game, &Budget::unlimited()).unwrap();
        let out = dir.join("c44");
        write_parted(&game, 3, &out);
        let table = MappedGravity::open(&out).unwrap().expect("a gravity table");
        assert_eq!(table.files(), 3);
        assert_eq!(table.counts(), want.counts.as_slice());
        assert_eq!(table.stored(), want.stored());
        table.check_blocks().unwrap();
        for (ply, key, value, depth) in want.entries() {
            assert_eq!(table.value_of(ply, key).unwrap(), Some((value, depth)));
        }
        drop(table);

        // two parts swapped
        let (p0, p1) = (part_path(&out, 0, 3), part_path(&out, 1, 3));
        let spare = dir.join("spare");
        std::fs::rename(&p0, &spare).unwrap();
        std::fs::rename(&p1, &p0).unwrap();
        std::fs::rename(&spare, &p1).unwrap();
        assert!(refusal(&out).contains("another rank"), "{}", refusal(&out));
        std::fs::rename(&p0, &spare).unwrap();
        std::fs::rename(&p1, &p0).unwrap();
        std::fs::rename(&spare, &p1).unwrap();
        assert!(MappedGravity::open(&out).unwrap().is_some());

        // a part of another board in its place
        let other = dir.join("other");
        write_parted(&Gravity::new(BoardSize::new(5, 4, 4)).unwrap(), 3, &other);
        std::fs::copy(part_path(&other, 2, 3), part_path(&out, 2, 3)).unwrap();
        assert!(refusal(&out).contains("another board"), "{}", refusal(&out));

        // a part missing; a manifest naming a path outside its directory
        std::fs::remove_file(part_path(&out, 2, 3)).unwrap();
        let _ = refusal(&out);
        let text = std::fs::read_to_string(&out).unwrap();
        std::fs::write(&out, text.replace("c44.part-1-of-3", "../c44.part-1-of-3")).unwrap();
        assert!(
            refusal(&out).contains("beside the manifest"),
            "{}",
            refusal(&out)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
