//! `--checkpoint DIR`: every finished ply's diagrams and reports on disk,
//! so that a run killed at any moment resumes from its last finished ply
//! and ends with the identical result.
//!
//! ```text
//! DIR/progress.json       the board, the encoding, the forward reports so
//!                         far, the backward reports so far (written last,
//!                         atomically, after the ply's diagrams)
//! DIR/reach-PPP.bdd       the positions of ply PPP (forward pass)
//! DIR/won-PPP.bdd         the positions of ply PPP won / lost for the
//! DIR/lost-PPP.bdd        player to move (backward pass)
//! ```
//!
//! A diagram file is `RGBDDSET`, `u32` version 1, `u32` variables, `u32`
//! root edge, `u32` 0, `u64` nodes, the nodes ([`super::flat`]), then the
//! `u64` checksum of every byte before it. Each file is written atomically
//! (temporary file, sync, rename), and `progress.json` names a ply only
//! once its files are complete; a file that fails its checks is refused,
//! never trusted.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use oxidd::bcdd::BCDDFunction;
use serde::{Deserialize, Serialize};

use super::flat::{FlatBdd, NODE_BYTES};
use super::layout::Layout;
use super::rules::Rules;
use super::{full_store, PlyReport};
use crate::atomic_file::write_atomically_with;
use crate::checksum::Checksum;
use crate::error::{Error, Result};
use crate::position::Family;

const MAGIC: &[u8; 8] = b"RGBDDSET";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 4 + 4 + 4 + 8;

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

/// A checkpoint directory of one board.
pub struct Checkpoint {
    dir: PathBuf,
    vars: u32,
    state: Mutex<Progress>,
}

fn family_name(family: Family) -> &'static str {
    match family {
        Family::Gravity => "gravity",
        Family::Mnk => "mnk",
    }
}

impl Checkpoint {
    /// Opens `dir` (made if missing) for `layout`; a directory holding
    /// another board's checkpoint is refused.
    pub fn open(dir: &Path, layout: &Layout) -> Result<Self> {
        let io = |cause| Error::Io {
            path: dir.display().to_string(),
            cause,
        };
        match std::fs::metadata(dir) {
            Ok(meta) if !meta.is_dir() => {
                return Err(Error::InvalidInput(format!(
                    "--checkpoint {}: not a directory",
                    dir.display()
                )))
            }
            Ok(_) => {}
            Err(_) => std::fs::create_dir_all(dir).map_err(io)?,
        }
        let fresh = Progress {
            family: family_name(layout.family).into(),
            cols: layout.cols,
            rows: layout.rows,
            k: layout.k,
            encoding: layout.encoding.name().into(),
            ..Progress::default()
        };
        let path = dir.join("progress.json");
        let state = match std::fs::read(&path) {
            Ok(bytes) => {
                let bad = |why: String| Error::BadTableFile {
                    path: path.display().to_string(),
                    why,
                };
                let saved: Progress =
                    serde_json::from_slice(&bytes).map_err(|e| bad(format!("unreadable: {e}")))?;
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
                saved
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => fresh,
            Err(cause) => {
                return Err(Error::Io {
                    path: path.display().to_string(),
                    cause,
                })
            }
        };
        Ok(Self {
            dir: dir.to_path_buf(),
            vars: layout.vars(),
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
        let path = self.dir.join("progress.json");
        let text = serde_json::to_vec_pretty(state).expect("reports serialise");
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

    /// Saves a set of a ply.
    pub fn save_set(&self, kind: SetKind, ply: u32, set: &BCDDFunction) -> Result<()> {
        self.save_flat(kind, ply, &FlatBdd::from_function(set))
    }

    /// Saves a flattened set of a ply.
    pub fn save_flat(&self, kind: SetKind, ply: u32, flat: &FlatBdd) -> Result<()> {
        let path = self.path(kind, ply);
        write_atomically_with(&path, |file| write_set(file, self.vars, flat)).map_err(|cause| {
            Error::Io {
                path: path.display().to_string(),
                cause,
            }
        })
    }

    /// Reads a set of a ply back, every check made.
    pub fn load_flat(&self, kind: SetKind, ply: u32) -> Result<FlatBdd> {
        let path = self.path(kind, ply);
        let bytes = crate::files::read_regular(&path)?;
        read_set(&bytes, self.vars).map_err(|why| Error::BadTableFile {
            path: path.display().to_string(),
            why,
        })
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

/// Writes a diagram file (module doc).
pub fn write_set(out: &mut impl std::io::Write, vars: u32, flat: &FlatBdd) -> std::io::Result<()> {
    let mut head = Vec::with_capacity(HEADER);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.extend_from_slice(&vars.to_le_bytes());
    head.extend_from_slice(&flat.root.to_le_bytes());
    head.extend_from_slice(&0u32.to_le_bytes());
    head.extend_from_slice(&(flat.nodes.len() as u64).to_le_bytes());
    let body = flat.node_bytes();
    let mut sum = Checksum::default();
    sum.bytes(&head).bytes(&body);
    out.write_all(&head)?;
    out.write_all(&body)?;
    out.write_all(&sum.value().to_le_bytes())
}

/// Reads a diagram file, refusing any that fails a check.
pub fn read_set(bytes: &[u8], vars: u32) -> std::result::Result<FlatBdd, String> {
    if bytes.len() < HEADER + 8 || &bytes[..8] != MAGIC {
        return Err("not a diagram file of this program".into());
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    if word(8) != VERSION {
        return Err(format!(
            "diagram file version {} (this build reads {VERSION})",
            word(8)
        ));
    }
    if word(12) != vars {
        return Err(format!("a diagram over {} variables, not {vars}", word(12)));
    }
    let root = word(16);
    let nodes = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
    let body_len = nodes
        .checked_mul(NODE_BYTES as u64)
        .filter(|&n| n == (bytes.len() - HEADER - 8) as u64)
        .ok_or("truncated or padded: the node count does not match the length")?
        as usize;
    let (head, rest) = bytes.split_at(HEADER);
    let (body, tail) = rest.split_at(body_len);
    let mut sum = Checksum::default();
    sum.bytes(head).bytes(body);
    if sum.value().to_le_bytes() != tail {
        return Err("checksum mismatch: the file is damaged".into());
    }
    FlatBdd::from_bytes(body, root, vars)
}
