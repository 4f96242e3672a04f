//! `retrograde bench`: a fixed suite of workloads at several thread counts,
//! with speed-up, parallel efficiency and a checksum that must agree across
//! thread counts. Each row is the median of `--runs` runs with their min and
//! max; a wide spread or a loaded machine marks the figures noisy (see
//! [`stats`]), on stderr and in the report. `--report DIR` writes BENCH.md,
//! bench.json and bench-scaling.svg from one run (see [`report`]).

mod machine;
mod report;
mod stats;

use retrograde::BoardSize;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use retrograde::{
    engines::layered::solve_mnk,
    engines::retrograde::solve_within,
    engines::sparse::solve_gravity,
    games::cat_mouse::CatMouseGraph,
    games::cat_mouse_grid::{bench_grid, CatMouseGrid},
    games::gravity::Gravity,
    games::mnk::Mnk,
    host::Budget,
};

use super::output::{emit, emit_json};
use machine::Machine;
use report::ReportDir;
use stats::Summary;

/// The 2,000-node Cat and Mouse bench graph (`benches/data/cat-mouse-2000.json`).
const CAT_MOUSE_2000: &str = include_str!("../../../benches/data/cat-mouse-2000.json");

/// Arguments of `retrograde bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Thread counts to run [default: 1, 2, 4, … up to the number of cores]
    #[arg(long, value_name = "N,N,...", value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=4096))]
    threads_list: Option<Vec<u32>>,

    /// Runs of each workload at each thread count; a row shows their
    /// median, min and max. Runs spread over more than 10% of their median
    /// mark the figures noisy, as does a 1-minute load average above a
    /// quarter of the cores (beyond the bench's own threads) before or after.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    runs: u32,

    /// Only these workloads of the suite, by name [default: all:
    /// cat-mouse-2000, grid-64x64, mnk-4x4-k3, mnk-4x4-k4, connect-6x4,
    /// connect-5x5]
    #[arg(long, value_name = "NAME,...", value_delimiter = ',')]
    workloads: Option<Vec<String>>,

    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,

    /// Also write the table with the machine's description as Markdown to
    /// PATH (atomically), e.g. results/BENCH.md. An existing file keeps every
    /// line outside its section marked as written by `bench`; one without
    /// that section is refused.
    #[arg(long, value_name = "PATH", conflicts_with = "report")]
    markdown: Option<PathBuf>,

    /// Write DIR/BENCH.md (its generated section, as --markdown does),
    /// DIR/bench.json (the --json report) and DIR/bench-scaling.svg (its
    /// plot) from this one run, e.g. `--report results/`. Each existing file
    /// must be one bench or plot wrote; all three are checked before any work.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,

    /// No status lines on stderr (warnings of noisy figures still appear).
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
    let mnk = |k| Mnk::new(BoardSize::new(4, 4, k));
    let (k3, k4) = (mnk(3)?, mnk(4)?);
    let (connect_6x4, connect_5x5) = (
        Gravity::new(BoardSize::new(6, 4, 4))?,
        Gravity::new(BoardSize::new(5, 5, 4))?,
    );
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

/// One measured row: a workload at a thread count.
struct Row {
    workload: &'static str,
    states: u64,
    threads: u32,
    /// Every run's time, in seconds, in the order run.
    times: Vec<f64>,
    /// The median, min and max of `times`.
    summary: Summary,
    /// The median at the first thread count divided by this row's median.
    speedup: f64,
    /// `speedup` divided by the ratio of thread counts.
    efficiency: f64,
    checksum: String,
}

/// A finished run of the suite: what it measured, where and how.
struct Bench {
    /// The command line as given, `retrograde bench …`.
    command: String,
    machine: Machine,
    /// Runs a row.
    runs: u32,
    rows: Vec<Row>,
    /// Why the figures are noisy; empty when they are not.
    noise: Vec<String>,
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

/// The workloads of the suite named in `names` (all for `None`), in the
/// suite's order; a name that is not in the suite is refused.
fn selected(suite: Vec<Workload>, names: Option<&[String]>) -> anyhow::Result<Vec<Workload>> {
    let Some(names) = names else {
        return Ok(suite);
    };
    if let Some(unknown) = names
        .iter()
        .find(|n| !suite.iter().any(|w| w.name == n.as_str()))
    {
        let all: Vec<&str> = suite.iter().map(|w| w.name).collect();
        anyhow::bail!(
            "--workloads: no workload `{unknown}` in the suite ({})",
            all.join(", ")
        );
    }
    Ok(suite
        .into_iter()
        .filter(|w| names.iter().any(|n| n == w.name))
        .collect())
}

/// The command line as given, its program named `retrograde`; an argument
/// with a space or a quote is quoted.
fn command_line() -> String {
    let mut words = vec!["retrograde".to_string()];
    for arg in std::env::args().skip(1) {
        if arg.is_empty() || arg.contains([' ', '\'', '"']) {
            words.push(format!("'{}'", arg.replace('\'', "'\\''")));
        } else {
            words.push(arg);
        }
    }
    words.join(" ")
}

/// Runs the suite and prints it; exit 1 if a checksum differs across
/// thread counts. Every output is checked before the first run.
pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.markdown {
        retrograde::disk::check_output(path).map_err(|e| anyhow::anyhow!("--markdown {e}"))?;
        report::markdown_file(path, "", "--markdown")?;
    }
    let report_dir = args.report.as_deref().map(ReportDir::check).transpose()?;
    let workloads = selected(workloads()?, args.workloads.as_deref())?;
    let counts = args
        .threads_list
        .clone()
        .unwrap_or_else(default_thread_counts);
    let status = !args.quiet && std::io::stderr().is_terminal();
    let mut machine = Machine::now();
    let rows = measure(&workloads, &counts, args.runs, status)?;
    machine.finish();
    let most_threads = counts.iter().copied().max().unwrap_or(1);
    let mut noise = stats::spread_reasons(rows.iter().map(|r| (r.workload, r.threads, r.summary)));
    noise.extend(stats::load_reasons(
        machine.load_before,
        machine.load_after,
        machine.cores,
        most_threads,
    ));
    let bench = Bench {
        command: command_line(),
        machine,
        runs: args.runs,
        rows,
        noise,
    };
    if let Some(path) = &args.markdown {
        let text = report::markdown_file(path, &report::markdown(&bench, false), "--markdown")?;
        report::write(path, text.as_bytes())?;
    }
    if let Some(dir) = &report_dir {
        dir.write(&bench)?;
    }
    let code = if args.json {
        emit_json(&report::json(&bench))?
    } else {
        emit(&report::table(&bench))?
    };
    for reason in &bench.noise {
        eprintln!("warning: noisy figures: {reason}");
    }
    let mismatched = checksum_mismatches(&bench.rows);
    if !mismatched.is_empty() {
        eprintln!(
            "error: checksums differ across thread counts: {}",
            mismatched.join(", ")
        );
        return Ok(ExitCode::from(1));
    }
    Ok(code)
}

/// Runs each workload `runs` times at each thread count; speed-up and
/// efficiency are against the first thread count's median.
fn measure(
    workloads: &[Workload],
    counts: &[u32],
    runs: u32,
    status: bool,
) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    for workload in workloads {
        let mut base: Option<(u32, f64)> = None;
        for &threads in counts {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads as usize)
                .build()
                .map_err(|e| anyhow::anyhow!("could not start the thread pool: {e}"))?;
            let mut times = Vec::with_capacity(runs as usize);
            let mut result = (0, 0);
            for run in 1..=runs {
                if status {
                    eprint!(
                        "\r\x1b[2K{} at {threads} thread(s), run {run}/{runs}",
                        workload.name
                    );
                }
                let clock = Instant::now();
                result = pool.install(|| (workload.solve)())?;
                times.push(clock.elapsed().as_secs_f64());
            }
            let (states, sum) = result;
            let summary = Summary::of(&times);
            let (base_threads, base_median) = *base.get_or_insert((threads, summary.median));
            let speedup = base_median / summary.median.max(1e-9);
            rows.push(Row {
                workload: workload.name,
                states,
                threads,
                times,
                summary,
                speedup,
                efficiency: speedup / (f64::from(threads) / f64::from(base_threads)),
                checksum: format!("{states}:{sum:016x}"),
            });
        }
    }
    if status {
        eprint!("\r\x1b[2K");
    }
    Ok(rows)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(workload: &'static str, threads: u32, checksum: &str) -> Row {
        Row {
            workload,
            states: 1,
            threads,
            times: vec![1.0],
            summary: Summary::of(&[1.0]),
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
