//! `retrograde prove mnk`: a value proved with a certificate anyone can
//! check, on m,n,k boards up to 26 × 26 — today by a pairing strategy
//! ([`retrograde::solve::pairing`]), which proves a draw where it finds
//! one; where it finds none the command says so (exit 3) and proves
//! nothing.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Subcommand};
use retrograde::solve::pairing::{find_pairing, Holder, PairingBoard, CERTIFICATE_MAGIC};

use super::output::{emit, emit_json};
use super::RunArgs;

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
    #[command(flatten)]
    run: RunArgs,
}

/// Runs `retrograde prove`.
pub fn run(args: &ProveArgs) -> anyhow::Result<ExitCode> {
    match &args.game {
        ProveGame::Mnk(a) => prove_mnk(a),
    }
}

/// Refuses to replace at `path` a file that is not a certificate of
/// retrograde, unless `force`.
fn check_proof_output(path: &Path, force: bool) -> anyhow::Result<()> {
    retrograde::files::check_output(path)?;
    if force || std::fs::symlink_metadata(path).is_err() {
        return Ok(());
    }
    let head = std::fs::read(path)
        .map(|bytes| bytes.starts_with(CERTIFICATE_MAGIC.as_bytes()))
        .unwrap_or(false);
    if !head {
        anyhow::bail!(
            "--proof {}: exists and is not a certificate of retrograde, so it is not replaced; give another path, or --force to replace it",
            path.display()
        );
    }
    Ok(())
}

fn prove_mnk(args: &ProveMnkArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let board = PairingBoard::new(args.cols, args.rows, args.k)?;
    if let Some(path) = &args.proof {
        check_proof_output(path, args.force)?;
    }
    let name = format!("{},{},{}", args.cols, args.rows, args.k);
    let lines: usize = board
        .board_lines()
        .iter()
        .map(|l| l.len() + 1 - args.k as usize)
        .sum();
    let pairing = find_pairing(board, &vec![Holder::Empty; board.cells()]);
    if let Some(p) = &pairing {
        // never claim what the pairing does not show
        p.check().map_err(|why| {
            anyhow::anyhow!("internal error: the pairing found fails its check: {why}")
        })?;
        if let Some(path) = &args.proof {
            retrograde::atomic_file::write_atomically(path, p.to_certificate().as_bytes())
                .map_err(|e| anyhow::anyhow!("--proof {}: {e}", path.display()))?;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let code = if args.run.json {
        emit_json(&serde_json::json!({
            "game": "mnk",
            "cols": args.cols,
            "rows": args.rows,
            "k": args.k,
            "value": pairing.as_ref().map(|_| "draw"),
            "method": "pairing",
            "proved": pairing.is_some(),
            "lines": lines,
            "pairs": pairing.as_ref().map(|p| p.pairs.len()),
            "certificate": pairing.as_ref().and(args.proof.as_ref()).map(|p| p.display().to_string()),
            "seconds": seconds,
        }))?
    } else if let Some(p) = &pairing {
        let mut text = format!(
            "{name} ({} columns × {} rows, lines of {}): draw\n  proved by a pairing strategy: {} disjoint pairs of cells, each of the {lines} lines holds both cells of one (checked); whoever answers each cell with its partner stops every line, so neither player can win\n",
            args.cols, args.rows, args.k, p.pairs.len()
        );
        if let Some(path) = &args.proof {
            text.push_str(&format!("  certificate: {}\n", path.display()));
        }
        emit(&text)?
    } else {
        emit(&format!(
            "{name}: not proved: no pairing strategy found for lines of {} on {} × {} (pairings exist only where lines are long for the board; `retrograde search mnk` proves boards up to 32 cells)\n",
            args.k, args.cols, args.rows
        ))?
    };
    Ok(if pairing.is_none() {
        ExitCode::from(3)
    } else {
        code
    })
}
