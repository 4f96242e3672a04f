//! `--checkpoint DIR`: every finished ply's diagrams and reports on disk,
//! so that a run killed at any moment resumes from its last finished ply
//! and ends with the identical result.
//!
//! ```text
//! DIR/progress.json       the board, the encoding, the forward reports so
//!                         far, the backward reports so far, and their
//!                         checksum (written last, atomically, after the
//!                         ply's diagrams)
//! DIR/reach-PPP.bdd       the positions of ply PPP (forward pass)
//! DIR/won-PPP.bdd         the positions of ply PPP won / lost for the
//! DIR/lost-PPP.bdd        player to move (backward pass)
//! ```
//!
//! A diagram file is `RGBDDSET`, `u32` version 2, its identity (`u32`
//! family, columns, rows, k, encoding, ply, kind: see [`SetIdentity`]),
//! `u32` variables, `u32` root edge, `u64` nodes, the nodes
//! ([`super::flat`]), then the `u64` checksum of every byte before it.
//! Each file is written atomically (temporary file, sync, rename), and
//! `progress.json` names a ply only once its files are complete.
//!
//! Nothing read back is trusted: a set file must carry the identity of the
//! very set asked for (a file of another board, another k or encoding, or
//! renamed from another ply or kind — `won-012.bdd` swapped with
//! `lost-012.bdd` — is refused, naming it), its node count and model count
//! must equal those `progress.json` recorded for it, and `progress.json`
//! itself must pass its checksum, name plies in order within the board,
//! and be a small regular file (a FIFO or a link to a device is refused
//! before it is opened). Leftover temporary files of runs killed in the
//! directory are removed when it is opened
//! ([`crate::atomic_file::remove_stale_temporaries`]).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use oxidd::bcdd::BCDDFunction;
use serde::{Deserialize, Serialize};

use super::flat::{FlatBdd, NODE_BYTES};
use super::layout::Encoding;
use super::layout::Layout;
use super::rules::Rules;
use super::{full_store, PlyReport};
use crate::atomic_file::write_atomically_with;
use crate::checksum::Checksum;
use crate::error::{Error, Result, Setting};
use crate::position::Family;

const MAGIC: &[u8; 8] = b"RGBDDSET";
const VERSION: u32 = 2;
/// Magic, version, the seven identity words, variables, root, nodes.
const HEADER: usize = 8 + 4 + 7 * 4 + 4 + 4 + 8;
/// The largest `progress.json` read back: its reports take a few hundred
/// bytes a ply, and a board has at most 65 plies.
const PROGRESS_CAP: u64 = 1 << 20;
/// The name of the progress file in a checkpoint directory.
const PROGRESS: &str = "progress.json";

/// Which set of a ply a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetKind {
    /// Every position of the ply.
    Reachable,
    /// The positions won for the player to move.
    Won,
    /// The positions lost for the player to move.
    Lost,
}

impl SetKind {
    fn prefix(self) -> &'static str {
        match self {
            SetKind::Reachable => "reach",
            SetKind::Won => "won",
            SetKind::Lost => "lost",
        }
    }

    fn code(self) -> u32 {
        match self {
            SetKind::Reachable => 0,
            SetKind::Won => 1,
            SetKind::Lost => 2,
        }
    }

    fn name(self) -> &'static str {
        match self {
            SetKind::Reachable => "reachable",
            SetKind::Won => "won",
            SetKind::Lost => "lost",
        }
    }
}

/// What a set file holds: the board (family, columns, rows, k), the
/// encoding, the ply and the kind of set. Stored in the file's header as
/// seven `u32` words: family (0 gravity, 1 m,n,k), columns, rows, k,
/// encoding (0 column, 1 pair), ply, kind (0 reachable, 1 won, 2 lost).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetIdentity {
    /// The board and encoding.
    pub layout: Layout,
    /// The ply (stones on the board).
    pub ply: u32,
    /// Which set of the ply.
    pub kind: SetKind,
}

impl SetIdentity {
    fn words(&self) -> [u32; 7] {
        let l = &self.layout;
        let family = match l.family {
            Family::Gravity => 0,
            Family::Mnk => 1,
        };
        let encoding = match l.encoding {
            Encoding::Column => 0,
            Encoding::Pair => 1,
        };
        [
            family,
            l.cols,
            l.rows,
            l.k,
            encoding,
            self.ply,
            self.kind.code(),
        ]
    }

    /// The identity the seven words spell, in words (for a refusal).
    fn describe(words: &[u32; 7]) -> String {
        let family = match words[0] {
            0 => "gravity",
            1 => "mnk",
            _ => "unknown-family",
        };
        let encoding = match words[4] {
            0 => "column",
            1 => "pair",
            _ => "unknown",
        };
        let kind = match words[6] {
            0 => "reachable",
            1 => "won",
            2 => "lost",
            _ => "unknown",
        };
        format!(
            "ply {}'s {kind} set of {family} {}×{} k={} ({encoding} encoding)",
            words[5], words[1], words[2], words[3]
        )
    }
}

impl std::fmt::Display for SetIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&Self::describe(&self.words()))
    }
}

/// What `progress.json` holds.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Progress {
    family: String,
    cols: u32,
    rows: u32,
    k: u32,
    encoding: String,
    forward: Vec<PlyReport>,
    backward: Vec<(u32, PlyReport)>,
}

impl Progress {
    /// The checksum `progress.json` stores: of the compact JSON of the
    /// progress (the struct's own field order, so the same progress always
    /// gives the same bytes).
    fn checksum(&self) -> String {
        let bytes = serde_json::to_vec(self).expect("reports serialise");
        format!("{:016x}", Checksum::default().bytes(&bytes).value())
    }

    /// Refuses a progress that no run of `layout` writes: forward reports
    /// not of plies 0, 1, … in order or past the board; backward reports
    /// before the forward pass ended, twice for a ply, past the board, or
    /// not a run of plies down from the full board.
    fn check(&self, cells: u32) -> std::result::Result<(), String> {
        if self.forward.len() > cells as usize + 1 {
            return Err(format!(
                "it names {} forward plies, and the board has {}",
                self.forward.len(),
                cells + 1
            ));
        }
        if let Some((i, r)) = self
            .forward
            .iter()
            .enumerate()
            .find(|(i, r)| r.counts.ply as usize != *i)
        {
            return Err(format!(
                "forward report {i} is of ply {}, not ply {i}",
                r.counts.ply
            ));
        }
        if self.backward.is_empty() {
            return Ok(());
        }
        if self.forward.len() != cells as usize + 1 {
            return Err("it names backward plies before the forward pass ended".into());
        }
        let mut plies: Vec<u32> = self.backward.iter().map(|(p, _)| *p).collect();
        plies.sort_unstable();
        let lowest = plies[0];
        let expected: Vec<u32> = (lowest..=cells).collect();
        if lowest > cells || plies != expected {
            return Err(format!(
                "its backward plies {plies:?} are not every ply from one up to the full board \
                 ({cells})"
            ));
        }
        let agrees = |p: u32, r: &PlyReport| {
            let (b, f) = (&r.counts, &self.forward[p as usize]);
            let c = &f.counts;
            (
                b.ply,
                b.positions,
                b.terminal,
                b.x_wins,
                b.o_wins,
                b.draws,
                r.nodes,
            ) == (
                p,
                c.positions,
                c.terminal,
                c.x_wins,
                c.o_wins,
                c.draws,
                f.nodes,
            ) && b
                .first_won
                .checked_add(b.first_lost)
                .and_then(|n| n.checked_add(b.first_drawn))
                == Some(b.positions)
        };
        if let Some((p, _)) = self.backward.iter().find(|(p, r)| !agrees(*p, r)) {
            return Err(format!(
                "backward ply {p}'s report does not match its forward report"
            ));
        }
        Ok(())
    }
}

/// What `progress.json` holds on disk: the progress and its checksum.
#[derive(Serialize, Deserialize)]
struct SavedProgress {
    progress: Progress,
    checksum: String,
}

/// A checkpoint directory of one board.
pub struct Checkpoint {
    dir: PathBuf,
    layout: Layout,
    state: Mutex<Progress>,
}

fn family_name(family: Family) -> &'static str {
    match family {
        Family::Gravity => "gravity",
        Family::Mnk => "mnk",
    }
}

/// Whether `name` is a file name a checkpoint directory's writes use: the
/// progress file or a set file (for the removal of stale temporaries).
fn is_checkpoint_name(name: &str) -> bool {
    name == PROGRESS
        || ["reach-", "won-", "lost-"].iter().any(|prefix| {
            name.strip_prefix(prefix)
                .and_then(|r| r.strip_suffix(".bdd"))
                .is_some_and(|ply| !ply.is_empty() && ply.bytes().all(|b| b.is_ascii_digit()))
        })
}

impl Checkpoint {
    /// Opens `dir` (made if missing) for `layout`; a directory holding
    /// another board's checkpoint, or a `progress.json` that fails its
    /// checks, is refused. Temporary files that killed runs left in the
    /// directory are removed.
    pub fn open(dir: &Path, layout: &Layout) -> Result<Self> {
        let io = |cause| Error::Io {
            path: dir.display().to_string(),
            cause,
        };
        match std::fs::metadata(dir) {
            Ok(meta) if !meta.is_dir() => {
                return Err(Error::setting(
                    Setting::Checkpoint,
                    format!("{}: not a directory", dir.display()),
                ))
            }
            Ok(_) => {}
            Err(_) => std::fs::create_dir_all(dir).map_err(io)?,
        }
        crate::atomic_file::remove_stale_temporaries(dir, is_checkpoint_name);
        let fresh = Progress {
            family: family_name(layout.family).into(),
            cols: layout.cols,
            rows: layout.rows,
            k: layout.k,
            encoding: layout.encoding.name().into(),
            ..Progress::default()
        };
        let path = dir.join(PROGRESS);
        let state = match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => fresh,
            _ => {
                let saved = read_progress(&path)?;
                let bad = |why: String| Error::BadTableFile {
                    path: path.display().to_string(),
                    why,
                };
                let same = (
                    &saved.family,
                    saved.cols,
                    saved.rows,
                    saved.k,
                    &saved.encoding,
                ) == (
                    &fresh.family,
                    fresh.cols,
                    fresh.rows,
                    fresh.k,
                    &fresh.encoding,
                );
                if !same {
                    return Err(bad(format!(
                        "a checkpoint of {} {}×{} k={} ({} encoding), not of this run; \
                         use another directory",
                        saved.family, saved.cols, saved.rows, saved.k, saved.encoding
                    )));
                }
                saved.check(layout.cells()).map_err(bad)?;
                saved
            }
        };
        Ok(Self {
            dir: dir.to_path_buf(),
            layout: *layout,
            state: Mutex::new(state),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, Progress> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The forward reports of the plies finished so far.
    pub fn forward_reports(&self) -> Vec<PlyReport> {
        self.state().forward.clone()
    }

    /// The backward reports of the plies finished so far.
    pub fn backward_reports(&self) -> Vec<(u32, PlyReport)> {
        self.state().backward.clone()
    }

    /// Records the forward reports (after the last one's set is saved).
    pub fn save_forward_reports(&self, reports: &[PlyReport]) -> Result<()> {
        let mut state = self.state();
        state.forward = reports.to_vec();
        self.write_progress(&state)
    }

    /// Records a finished backward ply (after its sets are saved).
    pub fn save_backward_report(&self, ply: u32, report: &PlyReport) -> Result<()> {
        let mut state = self.state();
        state.backward.retain(|(p, _)| *p != ply);
        state.backward.push((ply, *report));
        self.write_progress(&state)
    }

    fn write_progress(&self, state: &Progress) -> Result<()> {
        let path = self.dir.join(PROGRESS);
        let saved = SavedProgress {
            checksum: state.checksum(),
            progress: state.clone(),
        };
        let text = serde_json::to_vec_pretty(&saved).expect("reports serialise");
        write_atomically_with(&path, |f| std::io::Write::write_all(f, &text)).map_err(|cause| {
            Error::Io {
                path: path.display().to_string(),
                cause,
            }
        })
    }

    fn path(&self, kind: SetKind, ply: u32) -> PathBuf {
        self.dir.join(format!("{}-{ply:03}.bdd", kind.prefix()))
    }

    fn identity(&self, kind: SetKind, ply: u32) -> SetIdentity {
        SetIdentity {
            layout: self.layout,
            ply,
            kind,
        }
    }

    /// Saves a set of a ply.
    pub fn save_set(&self, kind: SetKind, ply: u32, set: &BCDDFunction) -> Result<()> {
        self.save_flat(kind, ply, &FlatBdd::from_function(set))
    }

    /// Saves a flattened set of a ply.
    pub fn save_flat(&self, kind: SetKind, ply: u32, flat: &FlatBdd) -> Result<()> {
        let path = self.path(kind, ply);
        let identity = self.identity(kind, ply);
        write_atomically_with(&path, |file| write_set(file, &identity, flat)).map_err(|cause| {
            Error::Io {
                path: path.display().to_string(),
                cause,
            }
        })
    }

    /// What `progress.json` recorded of a set: its nodes (terminal
    /// included) and its positions; `None` for a set it has no report of.
    fn recorded(&self, kind: SetKind, ply: u32) -> Option<(u64, u64)> {
        let state = self.state();
        let mover_first = super::layout::mover(ply) == 0;
        match kind {
            SetKind::Reachable => state
                .forward
                .get(ply as usize)
                .map(|r| (r.nodes, r.counts.positions)),
            SetKind::Won | SetKind::Lost => {
                let (_, r) = state.backward.iter().find(|(p, _)| *p == ply)?;
                let c = &r.counts;
                let (won, lost) = if mover_first {
                    (c.first_won, c.first_lost)
                } else {
                    (c.first_lost, c.first_won)
                };
                Some(match kind {
                    SetKind::Won => (r.won_nodes, won),
                    _ => (r.lost_nodes, lost),
                })
            }
        }
    }

    /// Reads a set of a ply back, every check made: the file's checksum
    /// and identity, every node's invariants, and its node and model
    /// counts against those `progress.json` recorded.
    pub fn load_flat(&self, kind: SetKind, ply: u32) -> Result<FlatBdd> {
        let path = self.path(kind, ply);
        let bad = |why: String| Error::BadTableFile {
            path: path.display().to_string(),
            why,
        };
        let bytes = crate::files::read_regular(&path)?;
        let flat = read_set(&bytes, &self.identity(kind, ply)).map_err(bad)?;
        let (nodes, positions) = self.recorded(kind, ply).ok_or_else(|| {
            bad(format!(
                "progress.json has no report of ply {ply}'s {} set",
                kind.name()
            ))
        })?;
        let (has_nodes, has_positions) = (
            flat.nodes.len() as u64 + 1,
            flat.model_count(self.layout.vars()),
        );
        if (has_nodes, has_positions) != (nodes, u128::from(positions)) {
            return Err(bad(format!(
                "it holds {has_positions} positions in {has_nodes} nodes, and progress.json \
                 recorded {positions} in {nodes} for ply {ply}'s {} set",
                kind.name()
            )));
        }
        Ok(flat)
    }

    /// Reads a set of a ply back into the rules' manager (a store of
    /// `capacity` nodes).
    pub fn load(
        &self,
        kind: SetKind,
        ply: u32,
        rules: &Rules,
        capacity: u64,
    ) -> Result<BCDDFunction> {
        let flat = self.load_flat(kind, ply)?;
        flat.to_function(&rules.manager())
            .map_err(|_| full_store(ply, capacity))
    }
}

/// Reads `progress.json` (a small regular file; its checksum checked).
fn read_progress(path: &Path) -> Result<Progress> {
    let bad = |why: String| Error::BadTableFile {
        path: path.display().to_string(),
        why,
    };
    let bytes = crate::files::read_regular_capped(path, PROGRESS_CAP)?;
    let saved: SavedProgress = serde_json::from_slice(&bytes).map_err(|e| {
        bad(format!(
            "unreadable ({e}); a checkpoint of an older build is not read: \
             start the run in a new directory"
        ))
    })?;
    if saved.progress.checksum() != saved.checksum {
        return Err(bad(
            "checksum mismatch: the file was edited or damaged; start the run in a new \
             directory"
                .into(),
        ));
    }
    Ok(saved.progress)
}

/// Writes a diagram file of `identity` (module doc).
pub fn write_set(
    out: &mut impl std::io::Write,
    identity: &SetIdentity,
    flat: &FlatBdd,
) -> std::io::Result<()> {
    let mut head = Vec::with_capacity(HEADER);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    for word in identity.words() {
        head.extend_from_slice(&word.to_le_bytes());
    }
    head.extend_from_slice(&identity.layout.vars().to_le_bytes());
    head.extend_from_slice(&flat.root.to_le_bytes());
    head.extend_from_slice(&(flat.nodes.len() as u64).to_le_bytes());
    debug_assert_eq!(head.len(), HEADER);
    let body = flat.node_bytes();
    let mut sum = Checksum::default();
    sum.bytes(&head).bytes(&body);
    out.write_all(&head)?;
    out.write_all(&body)?;
    out.write_all(&sum.value().to_le_bytes())
}

/// Reads a diagram file, refusing any that fails a check or holds another
/// set than `identity`.
pub fn read_set(bytes: &[u8], identity: &SetIdentity) -> std::result::Result<FlatBdd, String> {
    if bytes.len() < 12 || &bytes[..8] != MAGIC {
        return Err("not a diagram file of this program".into());
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    if word(8) != VERSION {
        return Err(format!(
            "diagram file version {} (this build reads {VERSION}); a checkpoint of an older \
             build is not read: start the run in a new directory",
            word(8)
        ));
    }
    if bytes.len() < HEADER + 8 {
        return Err("truncated: shorter than its header".into());
    }
    let (head, rest) = bytes.split_at(HEADER);
    let body_len = u64::from_le_bytes(head[HEADER - 8..].try_into().expect("8 bytes"))
        .checked_mul(NODE_BYTES as u64)
        .filter(|&n| n == (rest.len() - 8) as u64)
        .ok_or("truncated or padded: the node count does not match the length")?
        as usize;
    let (body, tail) = rest.split_at(body_len);
    let mut sum = Checksum::default();
    sum.bytes(head).bytes(body);
    if sum.value().to_le_bytes() != tail {
        return Err("checksum mismatch: the file is damaged".into());
    }
    let stored: [u32; 7] = std::array::from_fn(|i| word(12 + 4 * i));
    if stored != identity.words() {
        return Err(format!(
            "it holds {}, not {identity}: a file of another run, or renamed",
            SetIdentity::describe(&stored)
        ));
    }
    let vars = identity.layout.vars();
    if word(40) != vars {
        return Err(format!("a diagram over {} variables, not {vars}", word(40)));
    }
    FlatBdd::from_bytes(body, word(44), vars)
}
