//! `retrograde check-proof FILE`: a certificate that `prove mnk --proof`
//! wrote, replayed by the independent checker — the crate
//! `retrograde_checker` (`checker/`), written from `docs/FORMAT.md` apart
//! from the provers, which shares no code with them. The command reads the
//! file, hands its text to [`retrograde_checker::check`] and prints the
//! verdict: accepted (exit 0) with what the certificate proves, or refused
//! (exit 1) with why; a file that cannot be read, or a check that would
//! pass `--max-memory` or `--time-limit`, is an error (exit 2, no
//! verdict).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use retrograde::host::{parse_size, Budget, Bytes};
use retrograde_checker::{Checked, Failure, Kind, Limits};
use serde_json::json;

use super::output::{emit, emit_json, grouped};

/// Arguments of `retrograde check-proof`.
#[derive(Debug, Args)]
pub struct CheckProofArgs {
    /// A certificate written by `prove mnk --proof FILE` (or `search mnk
    /// --proof FILE`): a pairing, a proof tree, a zone proof or a threat
    /// proof, told apart by its first line.
    #[arg(value_name = "FILE")]
    file: PathBuf,

    /// Print one JSON object on stdout instead of the line: file,
    /// accepted, kind, cols, rows, k, claims, root, positions, why.
    #[arg(long)]
    json: bool,

    /// The memory the check may take, e.g. 512MiB or 8GiB: a file larger
    /// than it is refused unread, and the check stops (exit 2, no verdict)
    /// before the positions it holds pass what is left after the text
    /// (docs/FORMAT.md, "the cost of a check") [default: 80% of the least
    /// of physical memory, the cgroup's memory limit and the address-space
    /// limit].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_memory: Option<Bytes>,

    /// Stop the check after SECONDS (exit 2, no verdict) [default: no
    /// limit].
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = super::args::parse_seconds)]
    time_limit: Option<f64>,
}

/// Runs `retrograde check-proof`: exit 0 when the certificate is accepted,
/// 1 when it is refused, 2 when the file cannot be read.
pub fn run(args: &CheckProofArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let text = read(args)?;
    let verdict = match &text {
        Some(text) => {
            let budget = memory_budget(args);
            let limits = Limits {
                max_positions: Limits::positions_for(budget.0 .0, text.len() as u64),
                deadline: args
                    .time_limit
                    .map(|s| started + Duration::from_secs_f64(s)),
                seconds: args.time_limit,
            };
            if limits.max_positions.is_none() {
                anyhow::bail!(
                    "{}: the text and its parsed entries take about {}, over the memory budget \
                     of {} (raise it with --max-memory); not checked",
                    args.file.display(),
                    Bytes(Limits::text_memory(text.len() as u64)),
                    budget.0
                );
            }
            match retrograde_checker::check_within(text, &limits) {
                Ok(checked) => Ok(checked),
                Err(Failure::Refused(why)) => Err(why),
                Err(Failure::OverBudget(why)) => {
                    anyhow::bail!("{}: not checked: {why}", args.file.display())
                }
            }
        }
        None => Err("the file is not UTF-8 text, so no certificate".into()),
    };
    let kind = text.as_deref().and_then(Kind::of);
    let file = args.file.display().to_string();
    let code = if args.json {
        emit_json(&report_json(&file, kind, &verdict))?
    } else {
        emit(&match &verdict {
            Ok(checked) => format!("{file}: accepted: {}\n", in_words(checked)),
            Err(why) => format!("{file}: refused: {why}\n"),
        })?
    };
    Ok(if verdict.is_ok() {
        code
    } else {
        ExitCode::from(1)
    })
}

/// The memory budget: `--max-memory`, or the machine's default.
fn memory_budget(args: &CheckProofArgs) -> Budget {
    args.max_memory
        .map_or_else(Budget::default_for_machine, Budget)
}

/// The text of the file (`None` when it is not UTF-8), read only from a
/// regular file no larger than the memory budget.
fn read(args: &CheckProofArgs) -> anyhow::Result<Option<String>> {
    let path = &args.file;
    let budget = memory_budget(args);
    retrograde::disk::check_regular_input(path)?;
    let size = std::fs::metadata(path)
        .map_err(|cause| retrograde::Error::CannotRead {
            path: path.display().to_string(),
            cause,
        })?
        .len();
    if size > budget.0 .0 {
        anyhow::bail!(
            "{}: a file of {} ({} bytes), larger than the memory budget of {} (raise it with \
             --max-memory); not read",
            path.display(),
            Bytes(size),
            grouped(size),
            budget.0
        );
    }
    // capped, should the file grow while it is read
    let bytes = retrograde::disk::read_regular_capped(path, budget.0 .0)?;
    Ok(String::from_utf8(bytes).ok())
}

/// What an accepted certificate proves, in words: `a zone proof
/// certificate of 7,7,5: X draws, O draws (1,234 positions replayed)`.
fn in_words(checked: &Checked) -> String {
    let (cols, rows, k) = checked.board;
    let mut text = format!(
        "{} of {cols},{rows},{k}: {}",
        checked.kind.in_words(),
        checked.claims.join(", ")
    );
    if let Some(stones) = checked.root_in_words() {
        text.push_str(&format!(" from the position of {stones}"));
    }
    let done = if checked.kind == Kind::Threats {
        "checked"
    } else {
        "replayed"
    };
    match checked.positions {
        Some(1) => text.push_str(&format!(" (1 position {done})")),
        Some(n) => text.push_str(&format!(" ({} positions {done})", grouped(n as u64))),
        None => text.push_str(&format!(" (every line of {k} holds a pair)")),
    }
    text
}

/// The `--json` report: one object whether accepted or refused.
fn report_json(
    file: &str,
    kind: Option<Kind>,
    verdict: &Result<Checked, String>,
) -> serde_json::Value {
    match verdict {
        Ok(checked) => json!({
            "file": file,
            "accepted": true,
            "kind": checked.kind.name(),
            "cols": checked.board.0,
            "rows": checked.board.1,
            "k": checked.board.2,
            "claims": checked.claims,
            "root": checked.root,
            "positions": checked.positions,
            "why": null,
        }),
        Err(why) => json!({
            "file": file,
            "accepted": false,
            "kind": kind.map(Kind::name),
            "cols": null,
            "rows": null,
            "k": null,
            "claims": [],
            "root": null,
            "positions": null,
            "why": why,
        }),
    }
}
