//! `retrograde prove mnk`: the empty board's value proved with a
//! certificate anyone can check, on m,n,k boards up to 26 × 26: by a
//! pairing strategy ([`retrograde::solve::pairing`]) where one is found (a
//! draw); else by the zone prover ([`retrograde::solve::zone_proof`]) on
//! boards up to 256 cells (a draw: each player's defence, with pairings
//! and relevance zones); else, on boards up to 40 cells, by the df-pn win
//! prover ([`retrograde::solve::win_proof`], a first-player win within
//! [`WIN_VISITS_FIRST`] positions) or the bitboard search, written as a
//! proof tree ([`retrograde::solve::proof_tree`]).
//! On boards the search takes, the zone prover gets [`ZONE_NODES_FIRST`]
//! positions first (it proves draws fast, wins slowly). Where none
//! reaches, the command says so (exit 3) and proves nothing.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Subcommand};
use retrograde::error::os_text;
use retrograde::position::searching::{board_table_entries, time_limit, MAX_TIME_LIMIT};
use retrograde::position::Family;
use retrograde::solve::board_search::{Bitboard, BoardSearcher, MAX_MNK_CELLS};
use retrograde::solve::in_pool;
use retrograde::solve::pairing::{self, PairingBoard};
use retrograde::solve::progress::Silent;
use retrograde::solve::proof_numbers::Numbers;
use retrograde::solve::proof_tree;
use retrograde::solve::search::Precision;
use retrograde::solve::threat_proof::board::{Board, Geometry};
use retrograde::solve::threat_proof::checkpoint::Merged;
use retrograde::solve::threat_proof::{self, horizon_name, wider, Settings, ThreatProver, Verdict};
use retrograde::solve::win_proof;
use retrograde::solve::zone_proof::{self, DrawProof};
use retrograde::tablefile::replace::check_replaceable;

use super::output::{emit, emit_json, first_player_result, grouped, result_in_words};
use super::RunArgs;

/// Positions the zone prover may search on a board the bitboard search also
/// takes (about 3 s), before the search is asked.
pub const ZONE_NODES_FIRST: u64 = 300_000;

/// Positions the df-pn win prover may visit before the search is asked
/// (6,6,4's win takes 63,012, about 0.5 s; a million is a few seconds).
pub const WIN_VISITS_FIRST: u64 = 1_000_000;

/// Arguments of `retrograde prove`.
#[derive(Debug, Args)]
pub struct ProveArgs {
    #[command(subcommand)]
    game: ProveGame,
}

#[derive(Debug, Subcommand)]
enum ProveGame {
    /// An m,n,k board from the empty position (sides up to 26).
    Mnk(ProveMnkArgs),
}

/// Arguments of `retrograde prove mnk`.
#[derive(Debug, Args)]
pub struct ProveMnkArgs {
    /// Columns (width).
    #[arg(long, value_name = "C")]
    cols: u32,
    /// Rows (height).
    #[arg(long, value_name = "R")]
    rows: u32,
    /// Stones in a row that win.
    #[arg(long)]
    k: u32,
    /// Write the proof's certificate to FILE (docs/FORMAT.md), written to a
    /// temporary file beside it and renamed into place. A file already
    /// there is replaced only if it is a certificate of retrograde, or with
    /// --force.
    #[arg(long, value_name = "FILE")]
    proof: Option<PathBuf>,
    /// Replace the file at --proof even if it is not a certificate.
    #[arg(long)]
    force: bool,
    /// Give up the search (and the certificate built from it) after
    /// SECONDS and say "not proved" (exit 3); a pairing is found at once.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = super::parse_seconds)]
    time_limit: Option<f64>,
    /// Which prover: every one in turn (a pairing, zones, the win prover
    /// for a share, the search), or the win prover alone with no share —
    /// for a first-player win that takes it long (e.g. 9,4,4).
    #[arg(long, value_enum, default_value = "auto")]
    method: Method,
    /// With --method threats: prove the position these moves reach from
    /// the empty board (cells such as h8, X first, separated by spaces or
    /// commas) instead of the empty board.
    #[arg(long, value_name = "MOVES", default_value = "")]
    after: String,
    /// With --method threats: the least defender moves left at which the
    /// prover proves the position after a defender pass first and
    /// searches only the moves inside that proof's zone; `off`: never
    /// (default: the prover's own, 10).
    #[arg(long, value_name = "N|off", value_parser = parse_zone_moves)]
    zone_moves: Option<ZoneMoves>,
    /// With --method threats: the most runs of fours a defender's turn
    /// looks for, each answering the replies it still wins against, from
    /// 1 to 8 (default: the prover's own, 3). Fewer make each node cheaper
    /// and leave more replies to search; a checkpoint is resumed only with
    /// the number it was written with.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=8))]
    covers: Option<u8>,
    /// With --method threats: look for a winning run of fours of the
    /// defender's own at each of its turns, refuting the turn at once
    /// when there is one (fewer positions searched without zones, often
    /// more with them; scripts/gomoku.sh turns it on).
    #[arg(long)]
    defender_runs: bool,
    /// With --method threats: a horizon; an attacker turn with N stones
    /// or more on the board wins only by a completion cell or a run of
    /// fours (no quiet move is tried there). Sound; too small a horizon
    /// only fails to prove. Several, rising (`30,36`): an iterative
    /// horizon, each tried when the one before disproves the position,
    /// its proofs kept. A checkpoint resumes at the horizon it was
    /// written with (or the next wider one given), never under a
    /// narrower one.
    #[arg(long, value_name = "N[,N...]", value_parser = parse_horizons)]
    max_stones: Option<Horizons>,
    /// With --method threats: keep the proof's state in FILE, written
    /// every --checkpoint-every seconds, when the search stops unsettled
    /// and when it ends in a proof (its positions alone once the
    /// certificate is written, for a proof above to merge:
    /// --merge-checkpoint; the whole table should the certificate fail,
    /// for a later run to write it), and resume from it when it is there
    /// (same arguments, and the same --max-memory or more); a proof can so
    /// run across several processes. A file there that is not a checkpoint
    /// is never replaced.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// With --method threats: add the proofs of another run's checkpoint
    /// (same board and settings, any position: in practice one below
    /// this one, proved by a run of its own) before searching: its proved
    /// positions, chosen moves and cuts. So a proof's open moves can each
    /// be proved with the whole table, then put together in one
    /// certificate. May be given several times.
    #[arg(long, value_name = "FILE")]
    merge_checkpoint: Vec<PathBuf>,
    /// Seconds between checkpoints (default 1800).
    #[arg(long, value_name = "SECONDS", requires = "checkpoint", allow_negative_numbers = true, value_parser = super::parse_seconds)]
    checkpoint_every: Option<f64>,
    /// With --method threats: a line of counts on stderr every SECONDS
    /// (positions, expansions, the table's entries and settled ones, the
    /// root's numbers), to follow a long run.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = super::parse_seconds)]
    report_every: Option<f64>,
    #[command(flatten)]
    run: RunArgs,
}

impl ProveMnkArgs {
    /// The arguments `search mnk` hands over for an empty board past the
    /// bitboard search: every prover in turn, no certificate written.
    pub fn for_search(
        cols: u32,
        rows: u32,
        k: u32,
        time_limit: Option<f64>,
        run: &RunArgs,
    ) -> Self {
        Self {
            cols,
            rows,
            k,
            proof: None,
            force: false,
            time_limit,
            method: Method::Auto,
            after: String::new(),
            zone_moves: None,
            covers: None,
            defender_runs: false,
            max_stones: None,
            checkpoint: None,
            merge_checkpoint: Vec::new(),
            checkpoint_every: None,
            report_every: None,
            run: run.clone(),
        }
    }
}

/// `--zone-moves`: a count of moves, or `None` for `off`.
#[derive(Clone, Copy, Debug)]
pub struct ZoneMoves(Option<usize>);

fn parse_zone_moves(text: &str) -> Result<ZoneMoves, String> {
    match text {
        "off" => Ok(ZoneMoves(None)),
        n => match n.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(ZoneMoves(Some(n))),
            _ => Err(format!(
                "{n:?} is neither a count of moves (1 or more) nor `off`"
            )),
        },
    }
}

/// `--max-stones`: horizons, strictly rising.
#[derive(Clone, Debug)]
pub struct Horizons(Vec<u32>);

fn parse_horizons(text: &str) -> Result<Horizons, String> {
    let stones = text
        .split(',')
        .map(|n| match n.trim().parse::<u32>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!("{n:?} is not a count of stones (1 or more)")),
        })
        .collect::<Result<Vec<u32>, String>>()?;
    if stones.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!("{text:?}: the horizons must rise, as in 30,36"));
    }
    Ok(Horizons(stones))
}

/// The provers `prove mnk` tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// A pairing, then zones, the win prover and the search, each for a
    /// share.
    Auto,
    /// The df-pn win prover alone, until it settles or --time-limit.
    Win,
    /// The threat prover alone (boards up to 256 cells, e.g. gomoku's
    /// 15 × 15): a first-player win by runs of fours and threats, from the
    /// empty board or the position --after reaches.
    Threats,
}

/// Runs `retrograde prove`.
pub fn run(args: &ProveArgs) -> anyhow::Result<ExitCode> {
    match &args.game {
        ProveGame::Mnk(a) => prove_mnk(a),
    }
}

/// Refuses to replace at `path` a file that is not a certificate of
/// retrograde (of either kind), unless `force`; reads only its first line.
fn check_proof_output(path: &Path, force: bool) -> anyhow::Result<()> {
    let ours = [
        pairing::CERTIFICATE_MAGIC,
        proof_tree::CERTIFICATE_MAGIC,
        zone_proof::CERTIFICATE_MAGIC,
        threat_proof::CERTIFICATE_MAGIC,
    ];
    let head_len = ours.iter().map(|m| m.len()).max().unwrap_or(0);
    let is_ours = |head: &[u8]| ours.iter().any(|m| head.starts_with(m.as_bytes()));
    check_replaceable(path, force, head_len, is_ours, "a certificate")
        .map_err(|e| anyhow::anyhow!("--proof {e}"))
}

/// A proof found: the first player's value, how, the certificate and
/// what to say of it.
struct Proof {
    value: &'static str,
    method: &'static str,
    certificate: Certificate,
    /// One line a claim (or the pairing), for the report.
    details: Vec<String>,
    json: serde_json::Value,
}

/// A proof's certificate: its text, written to `--proof` once the proof
/// is found, or already written there (or, without `--proof`, read to
/// its end and dropped) as it was read from the prover: the threat
/// prover's can be past what memory holds.
enum Certificate {
    Text(String),
    Streamed,
}

/// A draw by a pairing strategy on the empty board, checked.
fn by_pairing(board: PairingBoard, lines: usize) -> anyhow::Result<Option<Proof>> {
    // never claim what the pairing does not show
    let Some(p) = pairing::checked_empty_board_pairing(board)
        .map_err(|why| anyhow::anyhow!("internal error: {why}"))?
    else {
        return Ok(None);
    };
    Ok(Some(Proof {
        value: "draw",
        method: "pairing",
        certificate: Certificate::Text(p.to_certificate()),
        details: vec![format!(
            "proved by a pairing strategy: {} disjoint pairs of cells, each of the {lines} lines holds both cells of one (checked); whoever answers each cell with its partner stops every line, so neither player can win",
            p.pairs.len()
        )],
        json: serde_json::json!({ "pairs": p.pairs.len(), "lines": lines }),
    }))
}

/// A draw by the zone prover, or why not: `Ok(Err(why))` when it stopped
/// (time, `max_nodes`, memory) or found a win (which it does not certify).
fn by_zones(
    args: &ProveMnkArgs,
    board: PairingBoard,
    deadline: Option<Instant>,
    max_nodes: u64,
) -> anyhow::Result<Result<Proof, String>> {
    if board.cells() > zone_proof::MAX_CELLS {
        return Ok(Err(format!(
            "the board is past the zone prover's {} cells",
            zone_proof::MAX_CELLS
        )));
    }
    match zone_proof::prove_draw(board, args.run.budget().0 .0, deadline, max_nodes)? {
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
                value: "draw",
                method: "zones",
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

/// The first player's win by the df-pn prover
/// ([`retrograde::solve::win_proof`]) within [`WIN_VISITS_FIRST`]
/// positions, written as a proof tree; `None` when it does not prove one
/// (a draw, or not within its share).
fn by_win_proof(
    args: &ProveMnkArgs,
    bitboard: &Bitboard,
    deadline: Option<Instant>,
    max_visits: Option<u64>,
) -> anyhow::Result<Option<Proof>> {
    let max_entries = win_proof::certificate_entries(args.run.budget().0 .0);
    let Ok((certificate, size, stats)) =
        win_proof::win_certificate(bitboard, true, max_entries, deadline, max_visits)?
    else {
        return Ok(None);
    };
    Ok(Some(Proof {
        value: "first",
        method: "proof-number search",
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

/// The first player's win from the position `--after` reaches, by the
/// threat prover ([`retrograde::solve::threat_proof`]), or why not
/// ([`ThreatRun`]).
fn by_threats(
    args: &ProveMnkArgs,
    started: Instant,
    deadline: Option<Instant>,
) -> anyhow::Result<ThreatRun> {
    let geometry = Geometry::new(args.cols, args.rows, args.k)?;
    let mut board =
        Board::after(&geometry, &args.after).map_err(|e| anyhow::anyhow!("--after: {e}"))?;
    anyhow::ensure!(
        !board.has_line(),
        "--after {}: the game is over there (a line of {} is complete)",
        args.after,
        args.k
    );
    let defaults = Settings::default();
    // the horizons tried in turn (one: `--max-stones`' or the default)
    let horizons: Vec<Option<u32>> = match &args.max_stones {
        Some(Horizons(stones)) => stones.iter().map(|&n| Some(n)).collect(),
        None => vec![defaults.max_stones],
    };
    let settings = Settings {
        zone_moves: args.zone_moves.map_or(defaults.zone_moves, |z| z.0),
        max_covers: args.covers.map_or(defaults.max_covers, usize::from),
        defender_runs: args.defender_runs || defaults.defender_runs,
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
        args.run.budget().0 .0,
        deadline,
    ));
    let mut saves = 0u64;
    // a checkpoint resumes at its horizon, or the first wider one given;
    // never under a narrower one, where its proofs by quiet moves past
    // the horizon could not be read back into a certificate
    // (and the checkpoints merged: their proofs past a narrower horizon
    // would not read back either)
    let mut theirs = Vec::new();
    if let Some(path) = &args.checkpoint {
        theirs.push(("--checkpoint", prover.checkpoint_horizon(path, &board)?));
    }
    for path in &args.merge_checkpoint {
        theirs.push((
            "--merge-checkpoint",
            prover.merged_checkpoint_horizon(path)?,
        ));
    }
    let mut stage = 0;
    for (flag, theirs) in theirs {
        let Some(theirs) = theirs else { continue };
        let at_least = horizons
            .iter()
            .position(|&h| !wider(theirs, h))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{flag}: it was written with a horizon of {} stones, wider than every --max-stones given; give that horizon or a wider one",
                    horizon_name(theirs)
                )
            })?;
        stage = stage.max(at_least);
    }
    // (stage 0's is the prover's own)
    if stage > 0 {
        prover.set_horizon(horizons[stage]);
    }
    let earlier = match &args.checkpoint {
        Some(path) => prover.load_checkpoint(path, &board)?.unwrap_or_default(),
        None => Default::default(),
    };
    if args.checkpoint.is_some() {
        // (a proof's checkpoint keeps the positions of its certificate)
        prover.keep_proof_positions();
    }
    let mut merged = Vec::new();
    for path in &args.merge_checkpoint {
        merged.push((path, prover.merge_checkpoint(path)?));
    }
    if let Some(every) = args.report_every {
        prover.report_every(std::time::Duration::from_secs_f64(every));
    }
    let every = std::time::Duration::from_secs_f64(args.checkpoint_every.unwrap_or(1800.0));
    // the time a checkpoint records: this run's and the earlier ones'
    let seconds_searched = || earlier.seconds + started.elapsed().as_secs_f64();
    let verdict = loop {
        // with a checkpoint, the search stops at each save and goes on
        // from the table (df-pn's whole state) after it
        let save_at = args.checkpoint.as_ref().map(|_| Instant::now() + every);
        prover.set_deadline(match (deadline, save_at) {
            (Some(d), Some(s)) => Some(d.min(s)),
            (d, s) => d.or(s),
        });
        let verdict = prover.prove(&mut board);
        if verdict == Verdict::Disproved && stage + 1 < horizons.len() {
            // not a win within this horizon: the next, wider one
            stage += 1;
            let removed = prover.set_horizon(horizons[stage]);
            if args.report_every.is_some() {
                eprintln!(
                    "horizon {}: {removed} disproved positions forgotten",
                    horizon_name(horizons[stage])
                );
            }
            continue;
        }
        if let (Verdict::Open, Some(path)) = (verdict, &args.checkpoint) {
            // on only when the clock stopped it for the save (not for the
            // deadline or the zones' memory)
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
        args.proof.as_deref(),
    );
    let moves = (verdict == Verdict::Open).then(|| moves_searched(&mut prover, &board, &geometry));
    if let (Ok(Err(why)), Some((_, text))) = (&mut outcome, &moves) {
        why.push_str(text);
    }
    if let (Verdict::Proved, Some(path)) = (verdict, &args.checkpoint) {
        // a proof whose certificate failed (not read back, or its file not
        // written: a full disk) is kept, so that the next run (after a
        // mend) starts at the proof, not at the last save
        const KEPT: &str = " (the proved table is saved in the checkpoint)";
        match &mut outcome {
            // and a proof with its certificate is kept too, its positions
            // alone, for a proof above to merge (--merge-checkpoint); the
            // proof and its certificate stand if the save fails: said
            // with them
            Ok(Ok(proof)) => match prover.save_proof_checkpoint(path, &board, seconds_searched()) {
                Ok(()) => saves += 1,
                Err(e) => proof
                    .details
                    .push(format!("the checkpoint could not be saved: {e}")),
            },
            Ok(Err(why)) if earlier.visits > 0 || !merged.is_empty() => {
                // (issue 73, line 9: such a file was saved again) a proof
                // built on entries read from files that does not hold: the
                // files are not to be believed, and nothing is written from
                // them (a run from nothing keeps its proved table, below)
                anyhow::bail!(
                    "--checkpoint {}: it says the position is proved, but its entries do not \
                     carry the proof to a certificate ({why}): a forged or damaged checkpoint \
                     (or one of the --merge-checkpoint files); it is left as it is and not \
                     saved again — delete it to search afresh",
                    path.display()
                );
            }
            Ok(Err(why)) => {
                prover.save_checkpoint(path, &board, seconds_searched())?;
                saves += 1;
                why.push_str(KEPT);
            }
            Err(e) => {
                return Err(
                    match prover.save_checkpoint(path, &board, seconds_searched()) {
                        Ok(()) => anyhow::anyhow!("{e}{KEPT}"),
                        Err(save) => anyhow::anyhow!("{e} (and the checkpoint: {save})"),
                    },
                )
            }
        }
    }
    let outcome = outcome?;
    let checkpoint = args.checkpoint.as_ref().map(|path| {
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

/// What [`by_threats`] reports: the proof or why not, what the
/// checkpoint did, and (stopped on a limit) the root's moves searched.
struct ThreatRun {
    outcome: Result<Proof, String>,
    checkpoint: Option<serde_json::Value>,
    /// What each --merge-checkpoint brought.
    merged: Vec<serde_json::Value>,
    moves_searched: Option<serde_json::Value>,
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
/// `verdict`: the proof with its certificate (written to `proof_path`
/// as it is read, atomically), or why there is none; an error if the
/// file cannot be written.
fn threat_outcome(
    prover: &mut ThreatProver,
    board: &mut Board,
    verdict: Verdict,
    earlier_text: &str,
    proof_path: Option<&Path>,
) -> anyhow::Result<Result<Proof, String>> {
    match verdict {
        Verdict::Proved => {}
        Verdict::Disproved => {
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
    Ok(Ok(Proof {
        value: "first",
        method: "threats",
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
    }))
}

/// Writes the certificate of `board`'s proof to `path` (atomically: the
/// file appears only whole) or, without one, reads it to its end to be
/// sure it can be; its number of entries, `Ok(Err(why))` if the proof
/// cannot be read back, an error if the file cannot be written.
fn write_threat_certificate(
    prover: &mut ThreatProver,
    board: &mut Board,
    path: Option<&Path>,
) -> anyhow::Result<Result<usize, retrograde::Error>> {
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
) -> anyhow::Result<Result<usize, retrograde::Error>> {
    let Some(path) = path else {
        return Ok(prover.write_certificate(board, &mut std::io::sink()));
    };
    let (mut entries, mut unread) = (0, None);
    let written = retrograde::atomic_file::write_atomically_with(path, |file| {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        match prover.write_certificate(board, &mut out) {
            Ok(n) => {
                entries = n;
                Ok(())
            }
            Err(retrograde::Error::Io { cause, .. }) => Err(cause),
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
    written.map_err(|e| proof_unwritten(path, &e))?;
    Ok(Ok(entries))
}

/// The error of a certificate that could not be written to `--proof`.
fn proof_unwritten(path: &Path, cause: &std::io::Error) -> anyhow::Error {
    anyhow::anyhow!("--proof {}: {}", path.display(), os_text(cause))
}

/// The value by the bitboard search on `bitboard`, written as a proof tree
/// (one claim for a win, two for a draw); `Err` with why not past
/// `deadline`.
fn by_search(
    args: &ProveMnkArgs,
    bitboard: Bitboard,
    deadline: Option<Instant>,
) -> anyhow::Result<Result<Proof, String>> {
    let budget = args.run.budget();
    let entries = board_table_entries(&budget, Family::Mnk, bitboard.cells());
    let table_bytes = entries as u64 * retrograde::solve::board_search::BYTES_PER_ENTRY;
    let max_entries = (budget.0 .0.saturating_sub(table_bytes) / proof_tree::BYTES_PER_ENTRY)
        .min(1 << 32) as usize;
    let searcher = BoardSearcher::new(bitboard, entries, deadline, &Silent);
    let built = in_pool(args.run.threads(), || -> anyhow::Result<_> {
        let Some(result) = searcher.search(0, 0, Precision::Weak)? else {
            return Ok(None);
        };
        let claims = proof_tree::claims_of(result.value);
        match proof_tree::certificate(&searcher, &claims, max_entries) {
            Ok((text, sizes)) => Ok(Some((result.value, claims, text, sizes))),
            // the builder's searches stopped on the deadline
            Err(_) if deadline.is_some_and(|d| Instant::now() >= d) => Ok(None),
            Err(e) => Err(e.into()),
        }
    })??;
    let Some((value, claims, certificate, sizes)) = built else {
        return Ok(Err(format!(
            "the search did not finish within --time-limit {}",
            args.time_limit.unwrap_or_default()
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
        value: first_player_result(value),
        method: "search",
        certificate: Certificate::Text(certificate),
        details,
        json: serde_json::json!({ "nodes": searcher.nodes(), "claims": json_claims }),
    }))
}

/// Refuses, in the command's words, a board past the provers' sides
/// (the pairing search's [`pairing::MAX_SIDE`]).
pub fn ensure_sides(cols: u32, rows: u32) -> anyhow::Result<()> {
    let sides = 1..=pairing::MAX_SIDE;
    anyhow::ensure!(
        sides.contains(&cols) && sides.contains(&rows),
        "the m,n,k provers (`prove mnk`, and `search mnk` on an empty board past 40 cells) take \
         sides of 1 to {max}; a {cols} × {rows} board is past them",
        max = pairing::MAX_SIDE
    );
    Ok(())
}

/// Proves the empty board of `args` and prints the proof's report (exit 3
/// when nothing proves it).
pub fn prove_mnk(args: &ProveMnkArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    ensure_sides(args.cols, args.rows)?;
    let board = PairingBoard::new(args.cols, args.rows, args.k)?;
    if let Some(path) = &args.proof {
        check_proof_output(path, args.force)?;
    }
    let name = match args.after.trim() {
        "" => format!("{},{},{}", args.cols, args.rows, args.k),
        moves => format!("{},{},{} after {moves}", args.cols, args.rows, args.k),
    };
    let lines: usize = board
        .board_lines()
        .iter()
        .map(|l| l.len() + 1 - args.k as usize)
        .sum();
    let deadline = match args.time_limit.map(|s| (s, time_limit(s))) {
        None => None,
        Some((_, Some(limit))) => Some(started + limit),
        Some((s, None)) => anyhow::bail!(
            "--time-limit {s} must be a number of seconds above 0 and at most {MAX_TIME_LIMIT:.0} \
             (leave it out for no limit)"
        ),
    };
    // the board search takes boards up to its MAX_MNK_CELLS
    let bitboard = Bitboard::new(Family::Mnk, args.cols, args.rows, args.k).ok();
    let zone_nodes = if bitboard.is_some() {
        ZONE_NODES_FIRST
    } else {
        u64::MAX
    };
    // the threat prover's own flags
    for (given, refusal) in [
        (
            !args.after.trim().is_empty(),
            "--after proves a position, which only --method threats does",
        ),
        (
            args.checkpoint.is_some(),
            "--checkpoint keeps the state of a threat proof, which only --method threats makes",
        ),
        (
            !args.merge_checkpoint.is_empty(),
            "--merge-checkpoint adds a threat proof's state, which only --method threats makes",
        ),
        (
            args.report_every.is_some(),
            "--report-every follows a threat proof, which only --method threats makes",
        ),
        (
            args.zone_moves.is_some(),
            "--zone-moves sets the threat prover's zones, which only --method threats uses",
        ),
        (
            args.covers.is_some(),
            "--covers sets the threat prover's runs of fours, which only --method threats uses",
        ),
        (
            args.defender_runs,
            "--defender-runs sets the threat prover's defence, which only --method threats uses",
        ),
        (
            args.max_stones.is_some(),
            "--max-stones sets the threat prover's horizon, which only --method threats uses",
        ),
    ] {
        anyhow::ensure!(!given || args.method == Method::Threats, "{refusal}");
    }
    for (flag, every) in [
        ("--report-every", args.report_every),
        ("--checkpoint-every", args.checkpoint_every),
    ] {
        if let Some(every) = every {
            anyhow::ensure!(
                every.is_finite() && every > 0.0 && every <= MAX_TIME_LIMIT,
                "{flag} {every} must be a number of seconds above 0 and at most {MAX_TIME_LIMIT:.0}"
            );
        }
    }
    if let Some(path) = &args.checkpoint {
        anyhow::ensure!(
            !args.merge_checkpoint.contains(path),
            "--merge-checkpoint names the --checkpoint file, {}, which is resumed anyway",
            path.display()
        );
        retrograde::files::check_output(path).map_err(|e| anyhow::anyhow!("--checkpoint {e}"))?;
        anyhow::ensure!(
            args.proof.as_ref() != Some(path),
            "--checkpoint and --proof name the same file, {}; give two",
            path.display()
        );
    }
    let mut checkpoint = None;
    let mut merged = None;
    let mut moves_searched = None;
    let (proof, why_not) = if args.method == Method::Threats {
        let run = by_threats(args, started, deadline)?;
        checkpoint = run.checkpoint;
        merged = (!run.merged.is_empty()).then_some(run.merged);
        moves_searched = run.moves_searched;
        match run.outcome {
            Ok(p) => (Some(p), None),
            Err(why) => (None, Some(why)),
        }
    } else if args.method == Method::Win {
        let Some(bitboard) = &bitboard else {
            anyhow::bail!(
                "--method win takes boards of at most {MAX_MNK_CELLS} cells; {name} has {}",
                args.cols * args.rows
            );
        };
        match by_win_proof(args, bitboard, deadline, None)? {
            Some(p) => (Some(p), None),
            None => (
                None,
                Some("the win prover did not prove a first-player win".to_string()),
            ),
        }
    } else {
        match by_pairing(board, lines)? {
            Some(p) => (Some(p), None),
            None => match (by_zones(args, board, deadline, zone_nodes)?, bitboard) {
                (Ok(p), _) => (Some(p), None),
                (Err(_), Some(bitboard)) => {
                    match by_win_proof(args, &bitboard, deadline, Some(WIN_VISITS_FIRST))? {
                        Some(p) => (Some(p), None),
                        None => match by_search(args, bitboard, deadline)? {
                            Ok(p) => (Some(p), None),
                            Err(why) => (None, Some(why)),
                        },
                    }
                }
                (Err(why), None) => (None, Some(why)),
            },
        }
    };
    if let (
        Some(Proof {
            certificate: Certificate::Text(text),
            ..
        }),
        Some(path),
    ) = (&proof, &args.proof)
    {
        retrograde::atomic_file::write_atomically(path, text.as_bytes())
            .map_err(|e| proof_unwritten(path, &e))?;
    }
    let seconds = started.elapsed().as_secs_f64();
    let code = if args.run.json {
        emit_json(&serde_json::json!({
            "game": "mnk",
            "cols": args.cols,
            "rows": args.rows,
            "k": args.k,
            "after": args.after.trim(),
            "proved": proof.is_some(),
            "value": proof.as_ref().map(|p| p.value),
            "method": proof.as_ref().map(|p| p.method),
            "proof": proof.as_ref().map(|p| p.json.clone()),
            "why_not": why_not,
            "certificate": proof.as_ref().and(args.proof.as_ref()).map(|p| p.display().to_string()),
            "checkpoint": checkpoint,
            "merged": merged,
            "moves_searched": moves_searched,
            "seconds": seconds,
        }))?
    } else if let Some(p) = &proof {
        let mut text = format!(
            "{name} ({} columns × {} rows, lines of {}): {}\n",
            args.cols,
            args.rows,
            args.k,
            result_in_words(p.value)
        );
        for d in &p.details {
            text.push_str(&format!("  {d}\n"));
        }
        if let Some(path) = &args.proof {
            text.push_str(&format!("  certificate: {}\n", path.display()));
        }
        emit(&text)?
    } else if args.method == Method::Threats {
        emit(&format!(
            "{name}: not proved: {}\n",
            why_not.unwrap_or_default()
        ))?
    } else {
        emit(&format!(
            "{name}: not proved: no pairing strategy found for lines of {} on {} × {}, and {}\n",
            args.k,
            args.cols,
            args.rows,
            why_not.unwrap_or_default()
        ))?
    };
    Ok(if proof.is_none() {
        ExitCode::from(3)
    } else {
        code
    })
}

/// `n` positions, grouped by thousands ("1 position", "12,345 positions").
fn positions(n: u64) -> String {
    if n == 1 {
        "1 position".into()
    } else {
        format!("{} positions", grouped(n))
    }
}
