//! Proving an m,n,k board's value with a certificate anyone can check:
//! the one cascade of provers every front end uses (`prove mnk`, `search
//! mnk` on boards past the search, Python's `prove`).
//!
//! **The cascade** ([`Method::Auto`]), on boards of sides up to
//! [`pairing::MAX_SIDE`]:
//!
//! 1. a pairing strategy ([`crate::prove::pairing`]), found at once where
//!    there is one (a draw);
//! 2. the zone prover ([`crate::prove::zones`]) on boards up to 256 cells
//!    (a draw: each player's defence, with pairings and relevance zones),
//!    within [`ZONE_NODES_FIRST`] positions where the bitboard search also
//!    takes the board (it proves draws fast and wins slowly), else with no
//!    limit but the clock;
//! 3. on boards the bitboard search takes (up to
//!    [`MAX_MNK_CELLS`] cells): the df-pn win prover ([`crate::prove::win`])
//!    for half the time left under a time limit (without one, within
//!    [`WIN_VISITS_FIRST`] positions), then the bitboard search for the
//!    rest, written as a proof tree ([`crate::prove::proof_tree`]).
//!
//! [`Method::Win`] runs the win prover alone with no share (a first-player
//! win that takes it long, such as 9,4,4's); [`Method::Threats`] the threat
//! prover alone ([`crate::prove::threats`], boards up to 256 cells, from the
//! empty board or a position), with its checkpoints, merges and horizons.
//! Where nothing proves the claim, the report says why and proves nothing.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::BoardSize;
use crate::error::{os_text, Error, Result, Setting};
use crate::game::{GameValue, Outcome};
use crate::memory::Budget;
use crate::numbers::grouped;
use crate::position::Family;
use crate::prove::pairing::{self, PairingBoard};
use crate::prove::proof_numbers::Numbers;
use crate::prove::proof_tree;
use crate::prove::threats::board::{Board, Geometry};
use crate::prove::threats::checkpoint::Merged;
pub use crate::prove::threats::space::VctLimits;
use crate::prove::threats::{horizon_name, wider, Settings, ThreatProver, Verdict};
use crate::prove::win;
use crate::prove::zones::{self, DrawProof};
use crate::runtime::clock::Clock;
use crate::runtime::in_pool;
use crate::runtime::progress::{ReportLines, Silent};
use crate::search::bitboard::{self, Bitboard, BoardSearcher, MAX_MNK_CELLS};
use crate::search::general::Precision;
use crate::tablefile::replace::{check_replaceable, CertificateKind, Ours};

use crate::search::bitboard::board_table_entries;

/// Positions the zone prover may search on a board the bitboard search also
/// takes (about 3 s), before the search is asked.
pub const ZONE_NODES_FIRST: u64 = 300_000;

/// Positions the df-pn win prover may visit before the search is asked
/// (6,6,4's win takes 63,012, about 0.5 s; a million is a few seconds).
pub const WIN_VISITS_FIRST: u64 = 1_000_000;

/// Which provers [`prove`] tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The cascade of the module doc: a pairing, then zones, the win
    /// prover and the search, each for a share.
    Auto,
    /// The df-pn win prover alone, until it settles or the time limit.
    Win,
    /// The threat prover alone (boards up to 256 cells): a first-player win
    /// by runs of fours and threats, from the empty board or a position.
    Threats,
}

/// The threat prover's settings ([`Method::Threats`] only; every other
/// method refuses them). `None` leaves the prover's own default.
#[derive(Clone, Debug, Default)]
pub struct ThreatOptions {
    /// The least defender moves left at which a defender pass is proved
    /// first and only the moves inside its zone are searched; `Some(None)`:
    /// never.
    pub zone_moves: Option<Option<usize>>,
    /// The most runs of fours a defender's turn looks for (1 to 8).
    pub covers: Option<usize>,
    /// Look for a winning run of fours of the defender's own at each of its
    /// turns.
    pub defender_runs: bool,
    /// Threat-space search at attacker turns, within these limits
    /// (`None`: off).
    pub vct: Option<VctLimits>,
    /// Horizons tried in turn, strictly rising: an attacker turn with that
    /// many stones on the board or more wins only by a completion cell or
    /// a run of fours.
    pub horizons: Option<Vec<u32>>,
    /// The file the proof's state is kept in and resumed from.
    pub checkpoint: Option<PathBuf>,
    /// Other runs' checkpoints whose proofs are added before searching.
    pub merge: Vec<PathBuf>,
    /// Time between checkpoints (default 30 minutes).
    pub checkpoint_every: Option<Duration>,
    /// Progress lines of the search: their period, and where they go.
    pub report_every: Option<(Duration, ReportLines)>,
}

impl ThreatOptions {
    /// The settings given, each with the refusal that names it when the
    /// method is not [`Method::Threats`].
    fn given(&self) -> [(bool, Setting, &'static str); 8] {
        [
            (
                self.checkpoint.is_some(),
                Setting::Checkpoint,
                "keeps the state of a threat proof, which only {remedy} makes",
            ),
            (
                !self.merge.is_empty(),
                Setting::MergeCheckpoint,
                "adds a threat proof's state, which only {remedy} makes",
            ),
            (
                self.report_every.is_some(),
                Setting::ReportEvery,
                "follows a threat proof, which only {remedy} makes",
            ),
            (
                self.zone_moves.is_some(),
                Setting::ZoneMoves,
                "sets the threat prover's zones, which only {remedy} uses",
            ),
            (
                self.covers.is_some(),
                Setting::Covers,
                "sets the threat prover's runs of fours, which only {remedy} uses",
            ),
            (
                self.defender_runs,
                Setting::DefenderRuns,
                "sets the threat prover's defence, which only {remedy} uses",
            ),
            (
                self.vct.is_some(),
                Setting::Vct,
                "sets the threat prover's threat-space search, which only {remedy} uses",
            ),
            (
                self.horizons.is_some(),
                Setting::MaxStones,
                "sets the threat prover's horizon, which only {remedy} uses",
            ),
        ]
    }
}

/// What to prove and how.
#[derive(Clone, Debug)]
pub struct ProveRequest {
    /// The board.
    pub size: BoardSize,
    /// The provers to try.
    pub method: Method,
    /// With [`Method::Threats`]: the moves to the position to prove (cells
    /// such as `h8`, X first); empty for the empty board.
    pub after: String,
    /// The threat prover's settings.
    pub threats: ThreatOptions,
    /// Write the certificate to this file (atomically) once proved.
    pub certificate: Option<PathBuf>,
    /// Replace a file at `certificate` that is not a certificate of the
    /// kind this request writes and of its board.
    pub replace_any_file: bool,
    /// Give up after this long and report why not proved.
    pub time_limit: Option<Duration>,
}

impl ProveRequest {
    /// The empty board of `size` by the cascade, with no certificate file
    /// and no time limit.
    pub fn new(size: BoardSize) -> Self {
        Self {
            size,
            method: Method::Auto,
            after: String::new(),
            threats: ThreatOptions::default(),
            certificate: None,
            replace_any_file: false,
            time_limit: None,
        }
    }

    /// The board's name in reports: `9,4,4`, or `15,15,5 after h8 i9`.
    pub fn name(&self) -> String {
        match self.after.trim() {
            "" => self.size.to_string(),
            moves => format!("{} after {moves}", self.size),
        }
    }
}

/// Which prover found a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofMethod {
    /// A pairing strategy.
    Pairing,
    /// The zone prover.
    Zones,
    /// The df-pn win prover.
    ProofNumberSearch,
    /// The bitboard search, written as a proof tree.
    Search,
    /// The threat prover.
    Threats,
}

impl ProofMethod {
    /// Its name in reports and JSON.
    pub fn name(self) -> &'static str {
        match self {
            ProofMethod::Pairing => "pairing",
            ProofMethod::Zones => "zones",
            ProofMethod::ProofNumberSearch => "proof-number search",
            ProofMethod::Search => "search",
            ProofMethod::Threats => "threats",
        }
    }
}

/// A proof's certificate.
#[derive(Clone, Debug)]
pub enum Certificate {
    /// Its text (also written to the request's file, if it names one).
    Text(String),
    /// Streamed to the request's file as the prover read it out (the
    /// threat prover's can be past what memory holds), or, without a
    /// file, read to its end and dropped.
    Streamed,
}

/// A proof found.
#[derive(Clone, Debug)]
pub struct Proof {
    /// The first player's result.
    pub value: GameValue,
    /// The prover that found it.
    pub method: ProofMethod,
    /// Its certificate (docs/FORMAT.md).
    pub certificate: Certificate,
    /// One line a claim (or the pairing), for a report.
    pub details: Vec<String>,
    /// The same as JSON: positions, nodes and claims.
    pub json: serde_json::Value,
}

/// What [`prove`] reports.
#[derive(Clone, Debug)]
pub struct ProveReport {
    /// The proof, if one was found.
    pub proof: Option<Proof>,
    /// Without a proof: why not.
    pub why_not: Option<String>,
    /// With a threat checkpoint: what it held and how often it was written.
    pub checkpoint: Option<serde_json::Value>,
    /// With merged checkpoints: what each brought.
    pub merged: Option<Vec<serde_json::Value>>,
    /// A threat proof stopped on a limit: the root's moves and their
    /// proof and disproof numbers.
    pub moves_searched: Option<serde_json::Value>,
    /// Seconds from the start of the request.
    pub seconds: f64,
}

impl ProveReport {
    /// The report as JSON, in the shape `prove mnk --json` prints (and
    /// Python's `prove` returns, with the certificate's text added).
    pub fn json(&self, request: &ProveRequest) -> serde_json::Value {
        let size = request.size;
        let proof = self.proof.as_ref();
        serde_json::json!({
            "game": "mnk",
            "cols": size.cols,
            "rows": size.rows,
            "k": size.k,
            "after": request.after.trim(),
            "proved": proof.is_some(),
            "value": proof.map(|p| p.value.name()),
            "method": proof.map(|p| p.method.name()),
            "proof": proof.map(|p| p.json.clone()),
            "why_not": self.why_not,
            "certificate": proof
                .and(request.certificate.as_ref())
                .map(|p| p.display().to_string()),
            "checkpoint": self.checkpoint,
            "merged": self.merged,
            "moves_searched": self.moves_searched,
            "seconds": self.seconds,
        })
    }
}

/// Refuses a board past the provers' sides (the pairing search's
/// `pairing::MAX_SIDE`).
pub fn ensure_sides(cols: u32, rows: u32) -> Result<()> {
    let sides = 1..=pairing::MAX_SIDE;
    if sides.contains(&cols) && sides.contains(&rows) {
        return Ok(());
    }
    Err(Error::InvalidInput(format!(
        "the m,n,k provers take sides of 1 to {}; a {cols} × {rows} board is past them",
        pairing::MAX_SIDE
    )))
}

/// Proves the claim of `request` within `budget` on `threads` workers.
pub fn prove(request: &ProveRequest, budget: &Budget, threads: usize) -> Result<ProveReport> {
    let started = Instant::now();
    let size = request.size;
    ensure_sides(size.cols, size.rows)?;
    let board = PairingBoard::new(size)?;
    if let Some(path) = &request.certificate {
        check_certificate_output(path, request)?;
    }
    let deadline = request.time_limit.map(|limit| started + limit);
    // the bitboard search takes boards up to its MAX_MNK_CELLS
    let bitboard = Bitboard::new(Family::Mnk, size).ok();
    let zone_nodes = if bitboard.is_some() {
        ZONE_NODES_FIRST
    } else {
        u64::MAX
    };
    if request.method != Method::Threats {
        if !request.after.trim().is_empty() {
            return Err(Error::setting_with(
                Setting::After,
                "proves a position, which only {remedy} does",
                Setting::Method,
                Some("threats"),
            ));
        }
        if let Some((_, setting, refusal)) = request.threats.given().iter().find(|g| g.0) {
            return Err(Error::setting_with(
                *setting,
                *refusal,
                Setting::Method,
                Some("threats"),
            ));
        }
    }
    check_checkpoint_files(request)?;
    let mut report = ProveReport {
        proof: None,
        why_not: None,
        checkpoint: None,
        merged: None,
        moves_searched: None,
        seconds: 0.0,
    };
    let provers = Provers {
        request,
        budget,
        threads,
        deadline,
    };
    let outcome = match request.method {
        Method::Threats => {
            let run = provers.by_threats(started)?;
            report.checkpoint = run.checkpoint;
            report.merged = (!run.merged.is_empty()).then_some(run.merged);
            report.moves_searched = run.moves_searched;
            run.outcome
        }
        Method::Win => {
            let Some(bitboard) = &bitboard else {
                return Err(Error::setting(
                    Setting::Method,
                    format!(
                        "win takes boards of at most {MAX_MNK_CELLS} cells; {} has {}",
                        request.name(),
                        size.cells()
                    ),
                ));
            };
            provers
                .by_win_proof(bitboard, None, deadline, None)?
                .ok_or_else(|| "the win prover did not prove a first-player win".to_string())
        }
        Method::Auto => match by_pairing(board)? {
            Some(p) => Ok(p),
            None => match (provers.by_zones(board, zone_nodes)?, bitboard) {
                (Ok(p), _) => Ok(p),
                (Err(_), Some(bitboard)) => {
                    let (visits, until) = win_share(deadline);
                    match provers.by_win_proof(&bitboard, visits, until, None)? {
                        Some(p) => Ok(p),
                        None => provers.by_search(bitboard)?,
                    }
                }
                (Err(why), None) => Err(why),
            },
        },
    };
    match outcome {
        Ok(proof) => {
            if let (Certificate::Text(text), Some(path)) =
                (&proof.certificate, &request.certificate)
            {
                crate::atomic_file::write_atomically(path, text.as_bytes())
                    .map_err(|e| certificate_unwritten(path, &e))?;
            }
            report.proof = Some(proof);
        }
        Err(why) => report.why_not = Some(why),
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// What settled the empty board's value in [`race_for_the_value`].
#[derive(Debug)]
pub enum Settled {
    /// The search, whose table now holds the root's value (for the first
    /// player, to move).
    BySearch(Outcome),
    /// A prover, with its proof and certificate.
    ByProof(Box<Proof>),
    /// Nothing before the deadline.
    NotReached,
}

/// The empty m,n,k board's value alone, on a board the bitboard search
/// takes, when `searcher` (of that board, its table kept) has not found it
/// in a first share: a pairing and the zone prover within
/// `ZONE_NODES_FIRST` positions, then the df-pn win prover on one thread
/// racing `searcher` on the others until one settles the value or the
/// deadline passes (the other is stopped); at one thread, the win prover
/// for half the time left, then the search. `search mnk --weak` asks it:
/// 9,4,4's win takes the win prover about 86 s, which the search does not
/// reach in 300 s; 8,4,4's draw the search about 30 s, which the win prover
/// never proves.
pub fn race_for_the_value(
    size: BoardSize,
    searcher: &BoardSearcher,
    budget: &Budget,
    threads: usize,
    deadline: Option<Instant>,
    cancel: Option<&AtomicBool>,
) -> Result<Settled> {
    let request = ProveRequest {
        time_limit: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        ..ProveRequest::new(size)
    };
    let provers = Provers {
        request: &request,
        budget,
        threads,
        deadline,
    };
    let board = PairingBoard::new(size)?;
    if let Some(proof) = by_pairing(board)? {
        return Ok(Settled::ByProof(Box::new(proof)));
    }
    if let Ok(proof) = provers.by_zones(board, ZONE_NODES_FIRST)? {
        return Ok(Settled::ByProof(Box::new(proof)));
    }
    let bitboard = searcher.board().clone();
    if threads <= 1 {
        // one thread: the win prover for half the time left (without a
        // time limit, WIN_VISITS_FIRST positions), then the search
        let (visits, until) = win_share(deadline);
        if let Some(proof) = provers.by_win_proof(&bitboard, visits, until, cancel)? {
            return Ok(Settled::ByProof(Box::new(proof)));
        }
        let clock = Clock::until(deadline);
        let clock = match cancel {
            Some(flag) => clock.cancelled_by(flag),
            None => clock,
        };
        return Ok(
            match in_pool(1, || searcher.search_within(0, 0, Precision::Weak, &clock))?? {
                Some(result) => Settled::BySearch(result.value),
                None => Settled::NotReached,
            },
        );
    }
    // each stops the other once it settles the value; `cancel` stops both
    // (a watcher relays it, since each listens to one flag)
    let (search_done, proof_done) = (AtomicBool::new(false), AtomicBool::new(false));
    let both_done = AtomicBool::new(false);
    let (searched, proved) = std::thread::scope(|scope| {
        if let Some(cancel) = cancel {
            scope.spawn(|| {
                while !both_done.load(Ordering::Relaxed) {
                    if cancel.load(Ordering::Relaxed) {
                        search_done.store(true, Ordering::Relaxed);
                        proof_done.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            });
        }
        let prover = scope.spawn(|| {
            let proved = provers.by_win_proof(&bitboard, None, deadline, Some(&search_done));
            if matches!(proved, Ok(Some(_))) {
                proof_done.store(true, Ordering::Relaxed);
            }
            proved
        });
        let clock = Clock::until(deadline).cancelled_by(&proof_done);
        let searched = in_pool(threads.saturating_sub(1).max(1), || {
            searcher.search_within(0, 0, Precision::Weak, &clock)
        });
        if matches!(searched, Ok(Ok(Some(_)))) {
            search_done.store(true, Ordering::Relaxed);
        }
        let proved = prover.join().expect("the win prover does not panic");
        both_done.store(true, Ordering::Relaxed);
        (searched, proved)
    });
    if let Some(proof) = proved? {
        return Ok(Settled::ByProof(Box::new(proof)));
    }
    Ok(match searched?? {
        Some(result) => Settled::BySearch(result.value),
        None => Settled::NotReached,
    })
}

/// Refuses to replace at `path` a file other than a certificate of a kind
/// `request` may write (the cascade: a pairing, zone proof or proof-tree
/// certificate; the win prover: a proof tree; the threat prover: a threat
/// certificate) of its board, unless `replace_any_file`
/// ([`check_replaceable`]: one rule for every writer).
fn check_certificate_output(path: &Path, request: &ProveRequest) -> Result<()> {
    let kinds: &[CertificateKind] = match request.method {
        Method::Auto => &[
            CertificateKind::Pairing,
            CertificateKind::Zones,
            CertificateKind::ProofTree,
        ],
        Method::Win => &[CertificateKind::ProofTree],
        Method::Threats => &[CertificateKind::Threats],
    };
    let size = request.size;
    let writes: Vec<Ours> = kinds
        .iter()
        .map(|&kind| Ours::Certificate(kind, (size.cols, size.rows, size.k)))
        .collect();
    check_replaceable(
        path,
        (request.replace_any_file, Setting::ReplaceAnyFile),
        &writes,
    )
    .map_err(|e| e.of_setting(Setting::Proof))
}

/// The checkpoint files of a threat request: not among those merged, not
/// the certificate file, and a place a file can be written.
fn check_checkpoint_files(request: &ProveRequest) -> Result<()> {
    let Some(path) = &request.threats.checkpoint else {
        return Ok(());
    };
    if request.threats.merge.contains(path) {
        return Err(Error::setting_with(
            Setting::MergeCheckpoint,
            format!(
                "names the {{remedy}} file, {}, which is resumed anyway",
                path.display()
            ),
            Setting::Checkpoint,
            None,
        ));
    }
    crate::files::check_output(path)
        .map_err(|e| Error::setting(Setting::Checkpoint, e.to_string()))?;
    if request.certificate.as_ref() == Some(path) {
        return Err(Error::setting(
            Setting::Checkpoint,
            format!(
                "and the certificate name the same file, {}; give two",
                path.display()
            ),
        ));
    }
    Ok(())
}

/// The error of a certificate that could not be written.
fn certificate_unwritten(path: &Path, cause: &std::io::Error) -> Error {
    Error::setting(
        Setting::Proof,
        format!("{}: {}", path.display(), os_text(cause)),
    )
}

/// `n` positions, grouped by thousands ("1 position", "12,345 positions").
fn positions(n: u64) -> String {
    if n == 1 {
        "1 position".into()
    } else {
        format!("{} positions", grouped(n))
    }
}

/// The win prover's share before the search: half the time left to
/// `deadline` (positions unbounded), or [`WIN_VISITS_FIRST`] positions
/// without a deadline.
fn win_share(deadline: Option<Instant>) -> (Option<u64>, Option<Instant>) {
    match deadline {
        Some(d) => {
            let now = Instant::now();
            (None, Some(now + d.saturating_duration_since(now) / 2))
        }
        None => (Some(WIN_VISITS_FIRST), None),
    }
}

/// A draw by a pairing strategy on the empty board, checked.
fn by_pairing(board: PairingBoard) -> Result<Option<Proof>> {
    // the board's lines of k: each board line of n cells holds n + 1 - k
    let k = board.k as usize;
    let lines: usize = board.board_lines().iter().map(|l| l.len() + 1 - k).sum();
    // never claim what the pairing does not show
    let Some(p) = pairing::checked_empty_board_pairing(board)
        .map_err(|why| Error::InvalidInput(format!("internal error: {why}")))?
    else {
        return Ok(None);
    };
    Ok(Some(Proof {
        value: GameValue::Draw,
        method: ProofMethod::Pairing,
        certificate: Certificate::Text(p.to_certificate()),
        details: vec![format!(
            "proved by a pairing strategy: {} disjoint pairs of cells, each of the {lines} lines holds both cells of one (checked); whoever answers each cell with its partner stops every line, so neither player can win",
            p.pairs.len()
        )],
        json: serde_json::json!({ "pairs": p.pairs.len(), "lines": lines }),
    }))
}

/// The provers of one request, with its budget, threads and deadline.
struct Provers<'r> {
    request: &'r ProveRequest,
    budget: &'r Budget,
    threads: usize,
    deadline: Option<Instant>,
}

impl Provers<'_> {
    /// A draw by the zone prover, or why not: `Ok(Err(why))` when it
    /// stopped (time, `max_nodes`, memory) or found a win (which it does
    /// not certify).
    fn by_zones(
        &self,
        board: PairingBoard,
        max_nodes: u64,
    ) -> Result<std::result::Result<Proof, String>> {
        if board.cells() > zones::MAX_CELLS {
            return Ok(Err(format!(
                "the board is past the zone prover's {} cells",
                zones::MAX_CELLS
            )));
        }
        match zones::prove_draw(board, self.budget.0 .0, self.deadline, max_nodes)? {
            DrawProof::Draw {
                certificate,
                entries,
                stats,
            } => {
                let claims = ["O draws", "X draws"];
                let details = (0..2)
                    .map(|i| {
                        format!(
                            "claim {}: {} positions listed, {} searched (pairings and relevance zones)",
                            claims[i],
                            grouped(entries[i]),
                            grouped(stats[i].nodes)
                        )
                    })
                    .collect();
                let json_claims: Vec<serde_json::Value> = (0..2)
                    .map(|i| {
                        serde_json::json!({
                            "claim": format!("claim {}", claims[i]),
                            "positions": entries[i],
                            "nodes": stats[i].nodes,
                        })
                    })
                    .collect();
                Ok(Ok(Proof {
                    value: GameValue::Draw,
                    method: ProofMethod::Zones,
                    certificate: Certificate::Text(certificate),
                    details,
                    json: serde_json::json!({
                        "nodes": stats[0].nodes + stats[1].nodes,
                        "claims": json_claims,
                    }),
                }))
            }
            DrawProof::Wins { first_player } => Ok(Err(format!(
                "the zone prover finds a {} player win, which it does not certify",
                if first_player { "first" } else { "second" }
            ))),
            DrawProof::Open(why) => Ok(Err(why)),
        }
    }

    /// The first player's win by the df-pn prover ([`crate::prove::win`])
    /// within `max_visits` positions and `deadline`, written as a proof tree; `None` when
    /// it does not prove one (a draw, or not within its share).
    fn by_win_proof(
        &self,
        bitboard: &Bitboard,
        max_visits: Option<u64>,
        deadline: Option<Instant>,
        cancel: Option<&AtomicBool>,
    ) -> Result<Option<Proof>> {
        let max_entries = win::certificate_entries(self.budget.0 .0);
        let Ok((certificate, size, stats)) =
            win::win_certificate(bitboard, true, max_entries, deadline, max_visits, cancel)?
        else {
            return Ok(None);
        };
        Ok(Some(Proof {
            value: GameValue::First,
            method: ProofMethod::ProofNumberSearch,
            certificate: Certificate::Text(certificate),
            details: vec![format!(
                "claim X wins: {} positions replayed, {} moves listed ({} visited by the search)",
                grouped(size.positions as u64),
                grouped(size.moves as u64),
                positions(stats.visits)
            )],
            json: serde_json::json!({
                "visits": stats.visits,
                "claims": [{
                    "claim": "claim X wins",
                    "positions": size.positions,
                    "moves": size.moves,
                    "pairings": size.pairings,
                }],
            }),
        }))
    }

    /// The value by the bitboard search on `bitboard`, written as a proof
    /// tree (one claim for a win, two for a draw); `Err` with why not past
    /// the deadline.
    fn by_search(&self, bitboard: Bitboard) -> Result<std::result::Result<Proof, String>> {
        let entries = board_table_entries(self.budget, Family::Mnk, bitboard.cells());
        let table_bytes = entries as u64 * bitboard::BYTES_PER_ENTRY;
        let max_entries = (self.budget.0 .0.saturating_sub(table_bytes)
            / proof_tree::BYTES_PER_ENTRY)
            .min(1 << 32) as usize;
        let deadline = self.deadline;
        let searcher = BoardSearcher::new(bitboard, entries, deadline, &Silent);
        let built = in_pool(self.threads, || -> Result<_> {
            let Some(result) = searcher.search(0, 0, Precision::Weak)? else {
                return Ok(None);
            };
            let claims = proof_tree::claims_of(result.value);
            match proof_tree::certificate(&searcher, &claims, max_entries) {
                Ok((text, sizes)) => Ok(Some((result.value, claims, text, sizes))),
                // the builder's searches stopped on the deadline
                Err(_) if deadline.is_some_and(|d| Instant::now() >= d) => Ok(None),
                Err(e) => Err(e),
            }
        })??;
        let Some((value, claims, certificate, sizes)) = built else {
            return Ok(Err(format!(
                "the search did not finish within the time limit of {} s",
                self.request
                    .time_limit
                    .map_or(0.0, |limit| limit.as_secs_f64())
            )));
        };
        let details = claims
            .iter()
            .zip(&sizes)
            .map(|(c, s)| {
                format!(
                    "{}: {} positions replayed, {} moves and {} pairings listed",
                    c.line(),
                    grouped(s.positions as u64),
                    grouped(s.moves as u64),
                    grouped(s.pairings as u64)
                )
            })
            .collect();
        let json_claims: Vec<serde_json::Value> = claims
            .iter()
            .zip(&sizes)
            .map(|(c, s)| {
                serde_json::json!({
                    "claim": c.line(),
                    "positions": s.positions,
                    "moves": s.moves,
                    "pairings": s.pairings,
                })
            })
            .collect();
        Ok(Ok(Proof {
            value: GameValue::of_first_player(value),
            method: ProofMethod::Search,
            certificate: Certificate::Text(certificate),
            details,
            json: serde_json::json!({ "nodes": searcher.nodes(), "claims": json_claims }),
        }))
    }
}

/// What [`Provers::by_threats`] reports: the proof or why not, what the
/// checkpoint did, and (stopped on a limit) the root's moves searched.
struct ThreatRun {
    outcome: std::result::Result<Proof, String>,
    checkpoint: Option<serde_json::Value>,
    /// What each merged checkpoint brought.
    merged: Vec<serde_json::Value>,
    moves_searched: Option<serde_json::Value>,
}

impl Provers<'_> {
    /// The first player's win from the position `after` reaches, by the
    /// threat prover ([`crate::prove::threats`]), or why not.
    fn by_threats(&self, started: Instant) -> Result<ThreatRun> {
        let request = self.request;
        let options = &request.threats;
        let size = request.size;
        let deadline = self.deadline;
        let geometry = Geometry::new(size)?;
        let mut board = Board::after(&geometry, &request.after)
            .map_err(|e| Error::setting(Setting::After, format!(": {e}")))?;
        if board.has_line() {
            return Err(Error::setting(
                Setting::After,
                format!(
                    "{}: the game is over there (a line of {} is complete)",
                    request.after, size.k
                ),
            ));
        }
        let defaults = Settings::default();
        // the horizons tried in turn (one: the request's or the default)
        let horizons: Vec<Option<u32>> = match &options.horizons {
            Some(stones) => stones.iter().map(|&n| Some(n)).collect(),
            None => vec![defaults.max_stones],
        };
        let settings = Settings {
            zone_moves: options.zone_moves.unwrap_or(defaults.zone_moves),
            max_covers: options.covers.unwrap_or(defaults.max_covers),
            defender_runs: options.defender_runs || defaults.defender_runs,
            vct: options.vct.or(defaults.vct),
            max_stones: horizons[0],
            ..defaults
        };
        // never dropped: the process ends soon after, and freeing its
        // millions of cached expansions block by block took seconds (1.9 s
        // after a 30 s search of h8 n10, counted in the report's time)
        let mut prover = std::mem::ManuallyDrop::new(ThreatProver::new(
            &geometry,
            0,
            settings,
            self.budget.0 .0,
            deadline,
        ));
        let mut saves = 0u64;
        // a checkpoint resumes at its horizon, or the first wider one
        // given; never under a narrower one, where its proofs by quiet
        // moves past the horizon could not be read back into a certificate
        // (and the checkpoints merged: their proofs past a narrower horizon
        // would not read back either)
        let mut theirs = Vec::new();
        if let Some(path) = &options.checkpoint {
            theirs.push((
                Setting::Checkpoint,
                prover.checkpoint_horizon(path, &board)?,
            ));
        }
        for path in &options.merge {
            theirs.push((
                Setting::MergeCheckpoint,
                prover.merged_checkpoint_horizon(path)?,
            ));
        }
        let mut stage = 0;
        for (setting, theirs) in theirs {
            let Some(theirs) = theirs else { continue };
            let at_least = horizons
                .iter()
                .position(|&h| !wider(theirs, h))
                .ok_or_else(|| {
                    Error::setting_with(
                        setting,
                        format!(
                            ": it was written with a horizon of {} stones, wider than every \
                             {{remedy}} given; give that horizon or a wider one",
                            horizon_name(theirs)
                        ),
                        Setting::MaxStones,
                        None,
                    )
                })?;
            stage = stage.max(at_least);
        }
        // (stage 0's is the prover's own)
        if stage > 0 {
            prover.set_horizon(horizons[stage]);
        }
        let earlier = match &options.checkpoint {
            Some(path) => prover.load_checkpoint(path, &board)?.unwrap_or_default(),
            None => Default::default(),
        };
        if options.checkpoint.is_some() {
            // (a proof's checkpoint keeps the positions of its certificate)
            prover.keep_proof_positions();
        }
        let mut merged = Vec::new();
        for path in &options.merge {
            merged.push((path, prover.merge_checkpoint(path)?));
        }
        if let Some((every, lines)) = &options.report_every {
            prover.report_every(*every, lines.clone());
        }
        let every = options
            .checkpoint_every
            .unwrap_or(Duration::from_secs(1800));
        // the time a checkpoint records: this run's and the earlier ones'
        let seconds_searched = || earlier.seconds + started.elapsed().as_secs_f64();
        let verdict = loop {
            // with a checkpoint, the search stops at each save and goes on
            // from the table (df-pn's whole state) after it
            let save_at = options.checkpoint.as_ref().map(|_| Instant::now() + every);
            prover.set_deadline(match (deadline, save_at) {
                (Some(d), Some(s)) => Some(d.min(s)),
                (d, s) => d.or(s),
            });
            let verdict = prover.prove(&mut board);
            if verdict == Verdict::NoWin && stage + 1 < horizons.len() {
                // not a win within this horizon: the next, wider one
                stage += 1;
                let removed = prover.set_horizon(horizons[stage]);
                if let Some((_, lines)) = &options.report_every {
                    lines.write(&format!(
                        "horizon {}: {removed} disproved positions forgotten",
                        horizon_name(horizons[stage])
                    ));
                }
                continue;
            }
            if let (Verdict::Open, Some(path)) = (verdict, &options.checkpoint) {
                // on only when the clock stopped it for the save (not for
                // the deadline or the zones' memory)
                let now = Instant::now();
                let for_the_save = prover.stopped_by_clock() && deadline.is_none_or(|d| now < d);
                prover.save_checkpoint(path, &board, seconds_searched())?;
                saves += 1;
                if for_the_save {
                    continue;
                }
            }
            break verdict;
        };
        prover.set_deadline(deadline);
        let mut earlier_text = if earlier.visits > 0 {
            let dropped = match earlier.dropped {
                0 => String::new(),
                n => format!(" (the {n} open positions of least work left out of the table)"),
            };
            format!(
                ", {} of them and {:.0} s in earlier runs{dropped}",
                earlier.visits, earlier.seconds
            )
        } else {
            String::new()
        };
        if !merged.is_empty() {
            let sum = |f: fn(&Merged) -> u64| merged.iter().map(|(_, m)| f(m)).sum::<u64>();
            earlier_text += &format!(
                ", with {} positions proved merged from {} other checkpoint{} (their runs searched {} positions in {:.0} s)",
                sum(|m| m.proved),
                merged.len(),
                if merged.len() == 1 { "" } else { "s" },
                sum(|m| m.visits),
                merged.iter().map(|(_, m)| m.seconds).sum::<f64>()
            );
        }
        let mut outcome = threat_outcome(
            &mut prover,
            &mut board,
            verdict,
            &earlier_text,
            request.certificate.as_deref(),
        );
        let moves =
            (verdict == Verdict::Open).then(|| moves_searched(&mut prover, &board, &geometry));
        if let (Ok(Err(why)), Some((_, text))) = (&mut outcome, &moves) {
            why.push_str(text);
        }
        if let (Verdict::Win, Some(path)) = (verdict, &options.checkpoint) {
            // a proof whose certificate failed (not read back, or its file
            // not written: a full disk) is kept, so that the next run
            // (after a mend) starts at the proof, not at the last save
            const KEPT: &str = " (the proved table is saved in the checkpoint)";
            outcome = match outcome {
                // and a proof with its certificate is kept too, its
                // positions alone, for a proof above to merge; the proof
                // and its certificate stand if the save fails: said with
                // them
                Ok(Ok(mut proof)) => {
                    match prover.save_proof_checkpoint(path, &board, seconds_searched()) {
                        Ok(()) => saves += 1,
                        Err(e) => proof
                            .details
                            .push(format!("the checkpoint could not be saved: {e}")),
                    }
                    Ok(Ok(proof))
                }
                Ok(Err(why)) if earlier.visits > 0 || !merged.is_empty() => {
                    // (issue 73, line 9: such a file was saved again) a
                    // proof built on entries read from files that does not
                    // hold: the files are not to be believed, and nothing
                    // is written from them (a run from nothing keeps its
                    // proved table, below)
                    return Err(Error::setting(
                        Setting::Checkpoint,
                        format!(
                            "{}: it says the position is proved, but its entries do not carry \
                             the proof to a certificate ({why}): a forged or damaged checkpoint \
                             (or one of the checkpoints merged); it is left as it is and not \
                             saved again — delete it to search afresh",
                            path.display()
                        ),
                    ));
                }
                Ok(Err(mut why)) => {
                    prover.save_checkpoint(path, &board, seconds_searched())?;
                    saves += 1;
                    why.push_str(KEPT);
                    Ok(Err(why))
                }
                Err(e) => {
                    let kept = match prover.save_checkpoint(path, &board, seconds_searched()) {
                        Ok(()) => KEPT.to_string(),
                        Err(save) => format!(" (and the checkpoint: {save})"),
                    };
                    return Err(e.with_note(&kept));
                }
            };
        }
        let outcome = outcome?;
        let checkpoint = options.checkpoint.as_ref().map(|path| {
            serde_json::json!({
                "file": path.display().to_string(),
                "earlier_seconds": earlier.seconds,
                "earlier_visits": earlier.visits,
                "entries_dropped": earlier.dropped,
                "disproofs_dropped": earlier.disproofs_dropped,
                "horizon": earlier.horizon.map(horizon_name),
                "written": saves,
            })
        });
        let merged = merged
            .iter()
            .map(|(path, m)| {
                serde_json::json!({
                    "file": path.display().to_string(),
                    "proved": m.proved,
                    "chosen_moves": m.chosen,
                    "cuts": m.cuts,
                    "seconds": m.seconds,
                    "visits": m.visits,
                })
            })
            .collect();
        Ok(ThreatRun {
            outcome,
            checkpoint,
            merged,
            moves_searched: moves.map(|(json, _)| json),
        })
    }
}

/// How far a search stopped on a limit got at `board`, move by move
/// ([`ThreatProver::moves_searched`]): as JSON (each move with its proof
/// and disproof numbers, null where none is held) and as a sentence that
/// names the open moves with their numbers.
fn moves_searched(
    prover: &mut ThreatProver,
    board: &Board,
    geometry: &Geometry,
) -> (serde_json::Value, String) {
    let moves = prover.moves_searched(board);
    let name = |cell: Option<u32>| cell.map_or("pass".to_string(), |c| geometry.cell_name(c));
    let json = moves
        .iter()
        .map(|&(cell, numbers)| {
            serde_json::json!({
                "move": name(cell),
                "proof": numbers.map(|n| n.proof),
                "disproof": numbers.map(|n| n.disproof),
            })
        })
        .collect();
    let count = |f: fn(&Numbers) -> bool| {
        moves
            .iter()
            .filter(|(_, n)| n.as_ref().is_some_and(f))
            .count()
    };
    // the open moves, least proof number first (not held: last)
    let mut open: Vec<_> = moves
        .iter()
        .filter(|(_, n)| !n.is_some_and(|n| n.settled()))
        .collect();
    open.sort_by_key(|(_, n)| n.map_or(u32::MAX, |n| n.proof));
    const NAMED: usize = 10;
    let mut named: Vec<String> = open
        .iter()
        .take(NAMED)
        .map(|&&(cell, n)| match n {
            Some(n) => format!("{} ({}, {})", name(cell), n.proof, n.disproof),
            None => format!("{} (not held)", name(cell)),
        })
        .collect();
    if open.len() > NAMED {
        named.push(format!("and {} more", open.len() - NAMED));
    }
    let text = format!(
        "; of the {} moves searched there, {} proved, {} disproved, {} open{}{}",
        moves.len(),
        count(|n| n.proof == 0),
        count(|n| n.disproof == 0),
        open.len(),
        if open.is_empty() {
            ""
        } else {
            " (least proof number first, with their proof and disproof numbers): "
        },
        named.join(", ")
    );
    (json, text)
}

/// The report of the threat prover's search of `board` that ended in
/// `verdict`: the proof with its certificate (written to `proof_path` as
/// it is read, atomically), or why there is none; an error if the file
/// cannot be written.
fn threat_outcome(
    prover: &mut ThreatProver,
    board: &mut Board,
    verdict: Verdict,
    earlier_text: &str,
    proof_path: Option<&Path>,
) -> Result<std::result::Result<Proof, String>> {
    match verdict {
        Verdict::Win => {}
        Verdict::NoWin => {
            let within = match prover.horizon() {
                Some(n) => format!(", within a horizon of {n} stones"),
                None => String::new(),
            };
            return Ok(Err(format!(
                "the threat prover finds no first-player win among the moves it \
                 tries (the best-scored few{within}: this does not make it a draw)"
            )));
        }
        Verdict::Open => {
            return Ok(Err(format!(
                "the threat prover stopped on {} ({} searched{earlier_text})",
                prover.stopped().unwrap_or("a limit"),
                positions(prover.stats().visits)
            )))
        }
    }
    // never a claimed result without its certificate
    let entries = match write_threat_certificate(prover, board, proof_path)? {
        Ok(entries) => entries,
        Err(e) => return Ok(Err(format!("the threat prover found a win but {e}"))),
    };
    let stats = prover.stats();
    let mut proof = Proof {
        value: GameValue::First,
        method: ProofMethod::Threats,
        certificate: Certificate::Streamed,
        details: vec![format!(
            "claim X wins: {} positions listed ({} searched{earlier_text}, {} expanded: runs of fours and covers; {} zones answered {} replies)",
            grouped(entries as u64),
            grouped(stats.visits),
            grouped(stats.expansions),
            grouped(stats.cuts),
            grouped(stats.moves_cut)
        )],
        json: serde_json::json!({
            "visits": stats.visits,
            "expansions": stats.expansions,
            "zone_cuts": stats.cuts,
            "replies_answered_by_zones": stats.moves_cut,
            "proved_afresh_for_the_certificate": stats.proved_afresh,
            "given_up_proved_again_for_the_certificate": stats.proved_again,
            "cuts_made_again_by_the_walk": stats.cuts_remade,
            "cuts_forgotten": stats.cuts_forgotten,
            "horizon": prover.horizon(),
            "claims": [{ "claim": "claim X wins", "positions": entries }],
        }),
    };
    if prover.settings().vct.is_some() {
        // (only then, so that answers without it keep their shape)
        proof.json["threat_space_wins"] = stats.vct_found.into();
        proof.json["threat_space_searches"] = stats.vct_searches.into();
        proof.json["threat_space_positions"] = stats.vct_nodes.into();
    }
    Ok(Ok(proof))
}

/// Writes the certificate of `board`'s proof to `path` (atomically: the
/// file appears only whole) or, without one, reads it to its end to be
/// sure it can be; its number of entries, `Ok(Err(why))` if the proof
/// cannot be read back, an error if the file cannot be written.
fn write_threat_certificate(
    prover: &mut ThreatProver,
    board: &mut Board,
    path: Option<&Path>,
) -> Result<std::result::Result<usize, Error>> {
    // a walk that made cuts again (merged from another proof) is walked
    // again: each settles one level more (module docs of the prover's
    // `zones`)
    const WALKS: usize = 8;
    for _ in 1..WALKS {
        let remade = prover.stats().cuts_remade;
        let written = write_threat_certificate_once(prover, board, path)?;
        if prover.stats().cuts_remade == remade || prover.past_deadline() {
            return Ok(written);
        }
    }
    write_threat_certificate_once(prover, board, path)
}

/// One walk of [`write_threat_certificate`].
fn write_threat_certificate_once(
    prover: &mut ThreatProver,
    board: &mut Board,
    path: Option<&Path>,
) -> Result<std::result::Result<usize, Error>> {
    let Some(path) = path else {
        return Ok(prover.write_certificate(board, &mut std::io::sink()));
    };
    let (mut entries, mut unread) = (0, None);
    let written = crate::atomic_file::write_atomically_with(path, |file| {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        match prover.write_certificate(board, &mut out) {
            Ok(n) => {
                entries = n;
                Ok(())
            }
            Err(Error::Io { cause, .. }) => Err(cause),
            Err(why) => {
                // no file is left: the temporary one is removed
                unread = Some(why);
                Err(std::io::Error::other("the proof could not be read back"))
            }
        }
    });
    if let Some(why) = unread {
        return Ok(Err(why));
    }
    written.map_err(|e| certificate_unwritten(path, &e))?;
    Ok(Ok(entries))
}
