//! A bench run as text: the table on stdout, the JSON object, the Markdown
//! section of BENCH.md, and `--report DIR`, which writes DIR/BENCH.md,
//! DIR/bench.json and DIR/bench-scaling.svg from one run.
//!
//! Invariant: the three files of `--report` hold the figures of one run —
//! all three are made from its rows (the SVG from the very JSON object
//! written to bench.json), all three are made before any is written, and
//! each is written atomically.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde_json::{json, Value};

use super::super::generated_section;
use super::super::output::grouped;
use super::super::plot;
use super::stats::{LOAD_PER_CORE_LIMIT, SPREAD_LIMIT};
use super::{Bench, Row};

/// The run as one JSON object: `command`, `machine` (see
/// [`super::machine::Machine::json`]), `runs`, `noisy` and `noise` (the
/// reasons), `noise_limits`, and `rows`, each with its median `seconds`,
/// `min_seconds`, `max_seconds`, `spread` and every run's time in `times`.
pub fn json(bench: &Bench) -> Value {
    json!({
        "command": bench.command,
        "machine": bench.machine.json(),
        "runs": bench.runs,
        "noisy": !bench.noise.is_empty(),
        "noise": bench.noise,
        "noise_limits": {"spread": SPREAD_LIMIT, "load_per_core": LOAD_PER_CORE_LIMIT},
        "rows": bench.rows.iter().map(|r| json!({
            "workload": r.workload,
            "states": r.states,
            "threads": r.threads,
            "seconds": r.summary.median,
            "min_seconds": r.summary.min,
            "max_seconds": r.summary.max,
            "spread": r.summary.spread(),
            "times": r.times,
            "states_per_second": states_per_second(r),
            "speedup": r.speedup,
            "efficiency": r.efficiency,
            "checksum": r.checksum,
        })).collect::<Vec<_>>(),
    })
}

fn states_per_second(r: &Row) -> f64 {
    r.states as f64 / r.summary.median.max(1e-9)
}

/// The human table: the machine record, then a row a workload and thread
/// count.
pub fn table(bench: &Bench) -> String {
    let mut out = format!(
        "{}; median of {} run{}\n",
        bench.machine.sentence(),
        bench.runs,
        plural(bench.runs)
    );
    let _ = writeln!(
        out,
        "{:<16} {:>12} {:>7} {:>9} {:>9} {:>9} {:>6} {:>14} {:>8} {:>10}  checksum",
        "workload",
        "states",
        "threads",
        "median s",
        "min s",
        "max s",
        "spread",
        "states/s",
        "speed-up",
        "efficiency"
    );
    for r in &bench.rows {
        let _ = writeln!(
            out,
            "{:<16} {:>12} {:>7} {:>9.3} {:>9.3} {:>9.3} {:>5.0}% {:>14} {:>7.2}× {:>9.0}%  {}",
            r.workload,
            grouped(r.states),
            r.threads,
            r.summary.median,
            r.summary.min,
            r.summary.max,
            100.0 * r.summary.spread(),
            grouped(states_per_second(r) as u64),
            r.speedup,
            100.0 * r.efficiency,
            r.checksum
        );
    }
    out
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The generated section of BENCH.md: how and where the figures were
/// measured, whether they are noisy, then the table. `with_files` links
/// bench.json and bench-scaling.svg, written beside it by `--report`.
pub fn markdown(bench: &Bench, with_files: bool) -> String {
    let mut out = String::new();
    let files = if with_files {
        ", which writes this table, [`bench.json`](bench.json) and \
         [`bench-scaling.svg`](bench-scaling.svg) from the same run"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "Measured by `{}`{files}: {}.\n\n\
         Each row is the median of {} run{} with the fastest (*min*) and the slowest (*max*); \
         *spread* is (max − min) / median. Solve time only (the input is built once, outside the timing). \
         *Speed-up* is the median time at the smallest thread count divided by the median at this one; \
         *efficiency* is the speed-up divided by the ratio of thread counts (100% = perfect scaling). \
         The checksum (states : hash of the whole table) must be equal at every thread count.\n",
        bench.command,
        bench.machine.sentence(),
        bench.runs,
        plural(bench.runs),
    );
    if bench.noise.is_empty() {
        let _ = writeln!(
            out,
            "Not noisy: every spread is at most {:.0}% and the load average stayed within \
             a quarter of the cores beyond the bench's own threads.\n",
            100.0 * SPREAD_LIMIT
        );
    } else {
        let _ = writeln!(out, "**Noisy figures** — trust them less:\n");
        for reason in &bench.noise {
            let _ = writeln!(out, "- {reason}");
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "| workload | states | threads | median s | min s | max s | spread | states/s | speed-up | efficiency | checksum |"
    );
    let _ = writeln!(
        out,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    );
    for r in &bench.rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.0}% | {} | {:.2}× | {:.0}% | `{}` |",
            r.workload,
            grouped(r.states),
            r.threads,
            r.summary.median,
            r.summary.min,
            r.summary.max,
            100.0 * r.summary.spread(),
            grouped(states_per_second(r) as u64),
            r.speedup,
            100.0 * r.efficiency,
            r.checksum
        );
    }
    out
}

/// The new text of the Markdown file `path` with `generated` as its
/// section: the file as it stands with only that section replaced, or a new
/// file. Refuses a file without the section (see [`generated_section`]), so
/// notes kept around the table are never lost and a file `bench` did not
/// write is never replaced. `flag` names the option in messages.
pub fn markdown_file(path: &Path, generated: &str, flag: &str) -> anyhow::Result<String> {
    let existing = match std::fs::symlink_metadata(path) {
        Ok(_) => Some(retrograde::disk::read_regular_text(path)?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => bail!(
            "{flag} {}: {}",
            path.display(),
            retrograde::host::os_text(&e)
        ),
    };
    generated_section::splice(existing.as_deref(), "# Benchmarks", generated)
        .map_err(|why| anyhow::anyhow!("{flag} {}: {why}", path.display()))
}

/// Writes `bytes` to `path` atomically, naming the path in an error.
pub fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    retrograde::disk::write_atomically(path, bytes).map_err(|e| {
        anyhow::anyhow!(
            "cannot write {}: {}",
            path.display(),
            retrograde::host::os_text(&e)
        )
    })
}

/// The three files of `--report DIR`, checked before any work.
pub struct ReportDir {
    markdown: PathBuf,
    json: PathBuf,
    svg: PathBuf,
}

impl ReportDir {
    /// Checks that DIR is a folder and that each of its three files is
    /// absent or one that `bench --report` may replace: a BENCH.md with
    /// the generated section, a bench.json that is a bench report, a
    /// bench-scaling.svg that `plot` wrote.
    pub fn check(dir: &Path) -> anyhow::Result<ReportDir> {
        if !dir.is_dir() {
            bail!("--report {}: not a folder", dir.display());
        }
        let report = ReportDir {
            markdown: dir.join("BENCH.md"),
            json: dir.join("bench.json"),
            svg: dir.join("bench-scaling.svg"),
        };
        for path in [&report.markdown, &report.json, &report.svg] {
            retrograde::disk::check_output(path).map_err(|e| anyhow::anyhow!("--report {e}"))?;
        }
        markdown_file(&report.markdown, "", "--report")?;
        if report.json.exists() && !is_bench_report(&report.json) {
            bail!(
                "--report {}: exists and is not a bench report (no machine and rows), \
                 so it is not replaced; move it away or give another folder",
                report.json.display()
            );
        }
        if report.svg.exists() && !plot::is_ours(&report.svg) {
            bail!(
                "--report {}: exists and was not written by plot, so it is not replaced; \
                 move it away or give another folder",
                report.svg.display()
            );
        }
        Ok(report)
    }

    /// Writes the three files of `bench`: each made first, then each
    /// written atomically.
    pub fn write(&self, bench: &Bench) -> anyhow::Result<()> {
        let report = json(bench);
        let json_text = format!("{report}\n");
        let svg = plot::bench_svg(&report).context("drawing bench-scaling.svg")?;
        let markdown = markdown_file(&self.markdown, &markdown(bench, true), "--report")?;
        write(&self.json, json_text.as_bytes())?;
        write(&self.markdown, markdown.as_bytes())?;
        write(&self.svg, svg.as_bytes())
    }
}

/// Whether the file at `path` is a JSON object with `machine` and `rows`,
/// as `bench --json` writes.
fn is_bench_report(path: &Path) -> bool {
    retrograde::disk::read_regular_text(path)
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        .is_some_and(|v| v.get("machine").is_some() && v.get("rows").is_some_and(Value::is_array))
}
