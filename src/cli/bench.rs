//! `retrograde bench`: a fixed suite of workloads at several thread counts,
//! with speed-up, parallel efficiency and a checksum that must agree across
//! thread counts.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use retrograde::atomic_file::write_atomically;
use retrograde::games::cat_mouse::CatMouseGraph;
use retrograde::games::cat_mouse_grid::{bench_grid, CatMouseGrid};
use retrograde::games::gravity::Gravity;
use retrograde::games::mnk::Mnk;
use retrograde::memory::Budget;
use retrograde::solve::layered::solve_mnk;
use retrograde::solve::retrograde::solve_within;
use retrograde::solve::sparse_layered::solve_gravity;
use serde_json::json;

use super::generated_section;
use super::output::{emit, emit_json, grouped};

/// The 2,000-node Cat and Mouse bench graph (`benches/data/cat-mouse-2000.json`).
const CAT_MOUSE_2000: &str = include_str!("../../benches/data/cat-mouse-2000.json");

/// Arguments of `retrograde bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Thread counts to run [default: 1, 2, 4, … up to the number of cores]
    #[arg(long, value_name = "N,N,...", value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=4096))]
    threads_list: Option<Vec<u32>>,

    /// Runs of each workload at each thread count; the best time counts.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    runs: u32,

    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,

    /// Also write the table with the machine's description as Markdown to
    /// PATH (atomically), e.g. results/BENCH.md. An existing file keeps every
    /// line outside its section marked as written by `bench`; one without
    /// that section is refused.
    #[arg(long, value_name = "PATH")]
    markdown: Option<std::path::PathBuf>,

    /// No status lines on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// One workload: its name and a solve that returns (states, checksum).
struct Workload {
    name: &'static str,
    solve: Box<dyn Fn() -> anyhow::Result<(u64, u64)> + Sync>,
}

fn workloads() -> anyhow::Result<Vec<Workload>> {
    let lists: Vec<Vec<u32>> = serde_json::from_str(CAT_MOUSE_2000)?;
    let graph = CatMouseGraph::new(&lists)?;
    let grid_rows = bench_grid();
    let grid_rows: Vec<&str> = grid_rows.iter().map(String::as_str).collect();
    let grid = CatMouseGrid::new(&grid_rows, 2, 3)?;
    let mnk = |k| Mnk::new(4, 4, k);
    let (k3, k4) = (mnk(3)?, mnk(4)?);
    let (connect_6x4, connect_5x5) = (Gravity::new(6, 4, 4)?, Gravity::new(5, 5, 4)?);
    let unlimited = Budget::unlimited();
    Ok(vec![
        Workload {
            name: "cat-mouse-2000",
            solve: Box::new(move || {
                let (t, _) = solve_within(&graph, &unlimited)?;
                Ok((t.states(), t.checksum()))
            }),
        },
        Workload {
            name: "grid-64x64",
            solve: Box::new(move || {
                let (t, _) = solve_within(&grid, &unlimited)?;
                Ok((t.states(), t.checksum()))
            }),
        },
        Workload {
            name: "mnk-4x4-k3",
            solve: Box::new(move || {
                let s = solve_mnk(&k3, &unlimited)?;
                Ok((s.totals().positions, s.checksum()))
            }),
        },
        Workload {
            name: "mnk-4x4-k4",
            solve: Box::new(move || {
                let s = solve_mnk(&k4, &unlimited)?;
                Ok((s.totals().positions, s.checksum()))
            }),
        },
        Workload {
            name: "connect-6x4",
            solve: Box::new(move || {
                let s = solve_gravity(&connect_6x4, &unlimited)?;
                Ok((s.positions(), s.checksum()))
            }),
        },
        Workload {
            name: "connect-5x5",
            solve: Box::new(move || {
                let s = solve_gravity(&connect_5x5, &unlimited)?;
                Ok((s.positions(), s.checksum()))
            }),
        },
    ])
}

/// One measured row.
struct Row {
    workload: &'static str,
    states: u64,
    threads: u32,
    seconds: f64,
    speedup: f64,
    efficiency: f64,
    checksum: String,
}

fn default_thread_counts() -> Vec<u32> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let mut counts: Vec<u32> =
        std::iter::successors(Some(1u32), |&t| (t * 2 <= cores).then_some(t * 2)).collect();
    if counts.last() != Some(&cores) {
        counts.push(cores);
    }
    counts
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// Runs the suite and prints it; exit 1 if a checksum differs across
/// thread counts.
pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.markdown {
        retrograde::files::check_output(path).map_err(|e| anyhow::anyhow!("--markdown {e}"))?;
        markdown_file(path, "")?;
    }
    let counts = args
        .threads_list
        .clone()
        .unwrap_or_else(default_thread_counts);
    let status = !args.quiet && std::io::stderr().is_terminal();
    let mut rows = Vec::new();
    for workload in workloads()? {
        let mut base: Option<(u32, f64)> = None;
        for &threads in &counts {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads as usize)
                .build()
                .map_err(|e| anyhow::anyhow!("could not start the thread pool: {e}"))?;
            let mut best = f64::INFINITY;
            let mut result = (0, 0);
            for run in 1..=args.runs {
                if status {
                    eprint!(
                        "\r\x1b[2K{} at {threads} thread(s), run {run}/{}",
                        workload.name, args.runs
                    );
                }
                let clock = Instant::now();
                result = pool.install(|| (workload.solve)())?;
                best = best.min(clock.elapsed().as_secs_f64());
            }
            let (states, sum) = result;
            let checksum = format!("{states}:{sum:016x}");
            let (base_threads, base_seconds) = *base.get_or_insert((threads, best));
            let speedup = base_seconds / best;
            rows.push(Row {
                workload: workload.name,
                states,
                threads,
                seconds: best,
                speedup,
                efficiency: speedup / (f64::from(threads) / f64::from(base_threads)),
                checksum,
            });
        }
    }
    if status {
        eprint!("\r\x1b[2K");
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let cpu = cpu_model();
    if let Some(path) = &args.markdown {
        let text = markdown_file(path, &markdown(&rows, cores, &cpu, args.runs))?;
        write_atomically(path, text.as_bytes()).map_err(|e| {
            anyhow::anyhow!(
                "cannot write {}: {}",
                path.display(),
                retrograde::error::os_text(&e)
            )
        })?;
    }
    let code = if args.json {
        emit_json(&json!({
            "machine": {"cores": cores, "cpu": cpu},
            "rows": rows.iter().map(|r| json!({
                "workload": r.workload,
                "states": r.states,
                "threads": r.threads,
                "seconds": r.seconds,
                "states_per_second": r.states as f64 / r.seconds,
                "speedup": r.speedup,
                "efficiency": r.efficiency,
                "checksum": r.checksum,
            })).collect::<Vec<_>>(),
        }))?
    } else {
        emit(&table(&rows))?
    };
    let mismatched = checksum_mismatches(&rows);
    if !mismatched.is_empty() {
        eprintln!(
            "error: checksums differ across thread counts: {}",
            mismatched.join(", ")
        );
        return Ok(ExitCode::from(1));
    }
    Ok(code)
}

/// The rows whose checksum differs from the first row of their workload.
fn checksum_mismatches(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .filter(|r| {
            let first = rows
                .iter()
                .find(|f| f.workload == r.workload)
                .expect("r itself");
            first.checksum != r.checksum
        })
        .map(|r| format!("{} at {} threads", r.workload, r.threads))
        .collect()
}

fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<16} {:>12} {:>7} {:>9} {:>14} {:>8} {:>10}  checksum",
        "workload", "states", "threads", "seconds", "states/s", "speed-up", "efficiency"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{:<16} {:>12} {:>7} {:>9.3} {:>14} {:>7.2}× {:>9.0}%  {}",
            r.workload,
            grouped(r.states),
            r.threads,
            r.seconds,
            grouped((r.states as f64 / r.seconds) as u64),
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
/// write is never replaced.
fn markdown_file(path: &std::path::Path, generated: &str) -> anyhow::Result<String> {
    let existing = match std::fs::symlink_metadata(path) {
        Ok(_) => Some(retrograde::files::read_regular_text(path)?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => anyhow::bail!(
            "--markdown {}: {}",
            path.display(),
            retrograde::error::os_text(&e)
        ),
    };
    generated_section::splice(existing.as_deref(), "# Benchmarks", generated)
        .map_err(|why| anyhow::anyhow!("--markdown {}: {why}", path.display()))
}

/// The generated section of the Markdown file: how the figures were
/// measured, then the table.
fn markdown(rows: &[Row], cores: usize, cpu: &str, runs: u32) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Measured on {cores} cores ({cpu}) by `cargo run --release -- bench --markdown results/BENCH.md`, \
         best of {runs} run{plural}. Solve time only (the input is built once, outside the timing). \
         *Speed-up* is the time at the smallest thread count divided by the time at this one; \
         *efficiency* is the speed-up divided by the ratio of thread counts (100% = perfect scaling). \
         The checksum (states : hash of the whole table) must be equal at every thread count.\n",
        plural = if runs == 1 { "" } else { "s" }
    );
    let _ = writeln!(
        out,
        "| workload | states | threads | seconds | states/s | speed-up | efficiency | checksum |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---|");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.3} | {} | {:.2}× | {:.0}% | `{}` |",
            r.workload,
            grouped(r.states),
            r.threads,
            r.seconds,
            grouped((r.states as f64 / r.seconds) as u64),
            r.speedup,
            100.0 * r.efficiency,
            r.checksum
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(workload: &'static str, threads: u32, checksum: &str) -> Row {
        Row {
            workload,
            states: 1,
            threads,
            seconds: 1.0,
            speedup: 1.0,
            efficiency: 1.0,
            checksum: checksum.into(),
        }
    }

    #[test]
    fn a_checksum_that_differs_across_thread_counts_is_reported() {
        let agree = [row("a", 1, "1:x"), row("a", 2, "1:x"), row("b", 1, "2:y")];
        assert!(checksum_mismatches(&agree).is_empty());
        let differ = [row("a", 1, "1:x"), row("a", 2, "1:z"), row("b", 1, "2:y")];
        assert_eq!(checksum_mismatches(&differ), ["a at 2 threads"]);
    }

    #[test]
    fn default_thread_counts_double_up_to_the_cores() {
        let counts = default_thread_counts();
        assert_eq!(counts[0], 1);
        assert!(counts.windows(2).all(|w| w[0] < w[1]));
    }
}
