//! `retrograde prove mnk`: the empty board's value (or, with `--method
//! threats`, a position's) proved with a certificate anyone can check.
//! The command reads its flags into a request of the library's prover
//! cascade ([`retrograde::facade::prove`], whose doc says which
//! prover is tried when) and prints its report; where none proves the
//! claim, it says so (exit 3) and proves nothing.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use retrograde::{
    engines::bitboard::MAX_MNK_CELLS,
    facade::{checked_seconds, Method, ProveReport, ProveRequest, ThreatOptions, VctLimits},
    host::ReportLines,
    Analyzer, BoardSize, Setting,
};

use super::args::RunArgs;
use super::output::{emit, emit_json, flag_error};
use super::progress::Working;

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
    /// there is replaced only if it is a certificate of the kind this
    /// method writes (the cascade: pairing, zone proof or proof tree; the
    /// win prover: proof tree; the threat prover: threats) and of this
    /// board, or with --force.
    #[arg(long, value_name = "FILE")]
    proof: Option<PathBuf>,
    /// Replace the file at --proof even if it is not a certificate of this
    /// kind and board.
    #[arg(long)]
    force: bool,
    /// Give up the search (and the certificate built from it) after
    /// SECONDS and say "not proved" (exit 3); a pairing is found at once.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = super::args::parse_seconds)]
    time_limit: Option<f64>,
    /// Which prover: every one in turn (a pairing, zones, the win prover
    /// for a share, the search), or the win prover alone with no share —
    /// for a first-player win that takes it long (e.g. 9,4,4).
    #[arg(long, value_enum, default_value = "auto")]
    method: MethodArg,
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
    /// With --method threats: threat-space search at each attacker turn,
    /// a victory by continuous threats (threes and fours, each three
    /// followed against every defender reply no run of fours answers) of
    /// at most DEPTH threats and NODES positions (default 400); found,
    /// it settles the turn, and the certificate (version 3) holds its
    /// whole tree for the checker to replay. `off` (the default): never.
    #[arg(long, value_name = "DEPTH[,NODES]|off", value_parser = parse_vct)]
    vct: Option<Vct>,
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
    #[arg(long, value_name = "SECONDS", requires = "checkpoint", allow_negative_numbers = true, value_parser = super::args::parse_seconds)]
    checkpoint_every: Option<f64>,
    /// With --method threats: a line of counts on stderr every SECONDS
    /// (positions, expansions, the table's entries and settled ones, the
    /// root's numbers), to follow a long run.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = super::args::parse_seconds)]
    report_every: Option<f64>,
    #[command(flatten)]
    run: RunArgs,
}

/// `--vct`: the limits of threat-space search, or `None` for `off`.
#[derive(Clone, Copy, Debug)]
pub struct Vct(Option<VctLimits>);

fn parse_vct(text: &str) -> Result<Vct, String> {
    if text == "off" {
        return Ok(Vct(None));
    }
    let mut limits = VctLimits::default();
    let (depth, nodes) = match text.split_once(',') {
        Some((depth, nodes)) => (depth, Some(nodes)),
        None => (text, None),
    };
    limits.depth = match depth.parse::<u32>() {
        Ok(n) if (1..=16).contains(&n) => n,
        _ => return Err(format!("{depth:?} is not a depth of threats from 1 to 16")),
    };
    if let Some(nodes) = nodes {
        limits.nodes = match nodes.parse::<u32>() {
            Ok(n) if (1..=10_000_000).contains(&n) => n,
            _ => {
                return Err(format!(
                    "{nodes:?} is not a count of positions from 1 to 10000000"
                ))
            }
        };
    }
    Ok(Vct(Some(limits)))
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

/// The provers `prove mnk` tries (`--method`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MethodArg {
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

impl ProveMnkArgs {
    /// The library's request for these flags (the flags' own ranges
    /// checked).
    fn request(&self) -> anyhow::Result<ProveRequest> {
        let limit = |setting, seconds| checked_seconds(setting, seconds).map_err(flag_error);
        let time_limit = limit(Setting::TimeLimit, self.time_limit)?;
        let report_every = limit(Setting::ReportEvery, self.report_every)?;
        let checkpoint_every = limit(Setting::CheckpointEvery, self.checkpoint_every)?;
        Ok(ProveRequest {
            size: BoardSize::new(self.cols, self.rows, self.k),
            method: match self.method {
                MethodArg::Auto => Method::Auto,
                MethodArg::Win => Method::Win,
                MethodArg::Threats => Method::Threats,
            },
            after: self.after.clone(),
            threats: ThreatOptions {
                zone_moves: self.zone_moves.map(|z| z.0),
                covers: self.covers.map(usize::from),
                defender_runs: self.defender_runs,
                vct: self.vct.and_then(|v| v.0),
                horizons: self.max_stones.as_ref().map(|h| h.0.clone()),
                checkpoint: self.checkpoint.clone(),
                merge: self.merge_checkpoint.clone(),
                checkpoint_every,
                report_every: report_every
                    .map(|every| (every, ReportLines::new(|line| eprintln!("{line}")))),
            },
            certificate: self.proof.clone(),
            replace_any_file: self.force,
            time_limit,
        })
    }
}

/// Proves the claim of `args` and prints the proof's report (exit 3 when
/// nothing proves it).
pub fn prove_mnk(args: &ProveMnkArgs) -> anyhow::Result<ExitCode> {
    let request = args.request()?;
    let short = match request.time_limit {
        Some(limit) => format!(
            "proving {}, up to {} s",
            request.name(),
            limit.as_secs_f64()
        ),
        None => format!("proving {}, no --time-limit", request.name()),
    };
    let note = Working::new(args.run.quiet(), args.run.json, &short, proving(&request));
    let report = Analyzer::new(args.run.budget(), args.run.threads())
        .prove(&request)
        .map_err(flag_error);
    drop(note);
    print_report(&request, &report?, args.run.json)
}

/// What `prove mnk` is doing for `request`, and until when: its spinner,
/// or the note of a run still going after a moment (issue 86: a proof ran
/// for minutes without a word).
fn proving(request: &ProveRequest) -> String {
    let provers = match request.method {
        // the win prover and the search take boards of the bitboard search
        Method::Auto if request.size.cells() > u64::from(MAX_MNK_CELLS) => {
            "a pairing, then the zone prover"
        }
        Method::Auto => "a pairing, then the zone prover, the win prover and the search in turn",
        Method::Win => "the win prover alone",
        Method::Threats => "the threat prover",
    };
    let until = match request.time_limit {
        Some(limit) => format!(
            "it stops after {} s (--time-limit S to change)",
            limit.as_secs_f64()
        ),
        None => "without --time-limit it runs until the value is settled, which may take hours; \
                 --time-limit S stops it"
            .to_string(),
    };
    let counts = match (request.method, &request.threats.report_every) {
        (Method::Threats, None) => "; --report-every S prints its counts",
        _ => "",
    };
    format!("proving {} by {provers}: {until}{counts}", request.name())
}

/// Prints `report` of `request`, as text or JSON; exit 3 when not proved.
pub fn print_report(
    request: &ProveRequest,
    report: &ProveReport,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let size = request.size;
    let name = request.name();
    let proof = report.proof.as_ref();
    let code = if json {
        emit_json(&report.json(request))?
    } else if let Some(p) = proof {
        let mut text = format!(
            "{name} ({} columns × {} rows, lines of {}): {}\n",
            size.cols,
            size.rows,
            size.k,
            p.value.in_words()
        );
        for d in &p.details {
            text.push_str(&format!("  {d}\n"));
        }
        if let Some(path) = &request.certificate {
            text.push_str(&format!("  certificate: {}\n", path.display()));
        }
        emit(&text)?
    } else if request.method == Method::Threats {
        emit(&format!(
            "{name}: not proved: {}\n",
            report.why_not.as_deref().unwrap_or_default()
        ))?
    } else {
        emit(&format!(
            "{name}: not proved: no pairing strategy found for lines of {} on {} × {}, and {}\n",
            size.k,
            size.cols,
            size.rows,
            report.why_not.as_deref().unwrap_or_default()
        ))?
    };
    Ok(if proof.is_none() {
        ExitCode::from(3)
    } else {
        code
    })
}
