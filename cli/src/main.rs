//! The `retrograde` command: parse, validate, dispatch, map errors to exit
//! codes; one file per subcommand, shared options and output. Every answer
//! comes from the library (`retrograde`, its facade `retrograde::Analyzer`);
//! `serve` runs the HTTP front end of the `retrograde-server` crate.
//!
//! Exit codes: 0 success, 1 a check failed (reserved for `verify`, `bench`
//! and `check-proof`), 2 bad input or a solve that cannot run (one line on
//! stderr).

mod batch;
mod bench;
mod book;
mod cat_mouse;
mod cat_mouse_grid;
mod check_proof;
mod classics;
mod connect;
mod distributed;
mod engine_choice;
mod estimate;
mod generated_section;
mod mnk;
mod output;
mod play;
mod plot;
mod position;
mod progress;
mod prompt;
mod prove;
mod query;
mod search;
mod serve;
mod symbolic;
mod verify;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use retrograde::host::{
    parse_size, worker_threads, Budget, Bytes, ThreadCap, MAX_THREADS, MAX_THREADS_A_CORE,
};

/// A strong solver for finite two-player games: every state labelled win /
/// loss / draw for the player to move, with its exact depth.
#[derive(Debug, Parser)]
#[command(name = "retrograde", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Cat and Mouse on a graph (LeetCode 913): every (mouse, cat, turn) state.
    CatMouse(cat_mouse::CatMouseArgs),
    /// Cat and Mouse II on a grid (LeetCode 1728): jumps, food, a move limit.
    CatMouseGrid(cat_mouse_grid::CatMouseGridArgs),
    /// m,n,k boards (tic-tac-toe family): every reachable position, every count.
    Mnk(mnk::MnkArgs),
    /// Nim (LeetCode 292, generalised): every heap up to --stones, and the period.
    Nim(classics::NimArgs),
    /// Can I Win (LeetCode 464): every set of used numbers.
    CanIWin(classics::CanIWinArgs),
    /// Take from either end (LeetCode 486, 877): every interval of the row.
    Ends(classics::EndsArgs),
    /// Play an m,n,k or gravity board against perfect play (`play mnk`, `play connect`, `play FILE`).
    Play(play::PlayArgs),
    /// Gravity boards (Connect-Four family): every reachable position, per ply.
    Connect(connect::ConnectArgs),
    /// Prove a value by search, without a table of every state (m,n,k and gravity boards).
    Search(search::SearchArgs),
    /// Prove a value with a certificate anyone can check (m,n,k boards up to 26 × 26: pairing strategies).
    Prove(prove::ProveArgs),
    /// Check a certificate of `prove mnk --proof` with the independent checker, written from docs/FORMAT.md apart from the provers (exit 1 if refused).
    ///
    /// The checker (the crate retrograde-checker, checker/) was written
    /// from docs/FORMAT.md alone: it shares no code with the provers and
    /// depends on no other crate, and replays a certificate by the rules of
    /// m,n,k games (a zone proof trusting only the zone lemma proved in
    /// src/prove/zones.rs). It reads the four kinds `prove mnk --proof`
    /// writes, told apart by their first line: pairings, proof trees, zone
    /// proofs and threat proofs. Accepted: a line of what the certificate
    /// proves, exit 0; refused: `FILE: refused: WHY`, exit 1; a file that
    /// cannot be read: one line on stderr, exit 2.
    CheckProof(check_proof::CheckProofArgs),
    /// Answer from a table saved with --out, without solving again.
    Query(query::QueryArgs),
    /// Draw a connect or mnk --json report's per-ply table, or a bench --json report's speed-up by threads, as an SVG (--out FILE).
    Plot(plot::PlotArgs),
    /// Run the benchmark suite at several thread counts: the median, min and max of its runs, speed-up, checksums, a warning when the figures are noisy.
    Bench(bench::BenchArgs),
    /// Solve the published m,n,k and Connect Four cases and check every figure (exit 1 if any differs).
    Verify(verify::VerifyArgs),
    /// Serve positions' answers over HTTP: a JSON API (/api/v1/analyze, /api/v1/move), /healthz and /metrics.
    Serve(serve::ServeArgs),
}

/// A number of seconds on the command line: a finite decimal above 0 and
/// at most [`retrograde::facade::MAX_TIME_LIMIT`]. A negative
/// number reaches this parser (the options that take it allow a leading
/// `-`), so `-1` is refused for what it is, and `1e309` — infinity to a
/// 64-bit float — is refused rather than echoed as "inf".
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    use retrograde::facade::MAX_TIME_LIMIT;
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !seconds.is_finite() {
        return Err(format!("{text} is not a finite number of seconds"));
    }
    if seconds <= 0.0 || seconds > MAX_TIME_LIMIT {
        return Err(format!(
            "{text} must be a number of seconds above 0 and at most {MAX_TIME_LIMIT:.0}"
        ));
    }
    Ok(seconds)
}

/// Options every solving subcommand takes.
#[derive(Debug, Args, Clone)]
pub struct RunArgs {
    /// Worker threads [default: all cores]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
    threads: Option<u32>,

    /// Print one JSON object on stdout instead of the human report.
    #[arg(long)]
    json: bool,

    /// Draw no progress bar (bars appear only when stderr is a terminal).
    #[arg(long, short)]
    quiet: bool,

    /// Refuse a solve whose estimated memory exceeds SIZE, e.g. 512MiB or 8GiB
    /// [default: 80% of the least of physical memory, the cgroup's memory
    /// limit and the address-space limit]. The process takes a fixed 16 MiB
    /// beside it (code, stacks, small buffers): its peak stays within SIZE
    /// + 16 MiB.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_memory: Option<Bytes>,
}

impl RunArgs {
    /// The thread count to use: `--threads`, capped by the library at
    /// [`MAX_THREADS_A_CORE`] a core (a note on stderr says so), or all
    /// cores.
    pub fn threads(&self) -> usize {
        let (threads, capped) = worker_threads(self.threads.map(|n| n as usize));
        if let Some(ThreadCap { asked, cap, cores }) = capped {
            static NOTED: std::sync::Once = std::sync::Once::new();
            NOTED.call_once(|| {
                eprintln!(
                    "note: --threads {asked} is capped at {cap}, {MAX_THREADS_A_CORE} a core on this machine's {cores}"
                )
            });
        }
        threads
    }

    /// A progress bar on stderr, unless quiet or not a terminal.
    pub fn progress(&self) -> progress::Bar {
        progress::Bar::on_stderr(self.quiet)
    }

    /// A bar of plies on stderr (forward, then backward), unless quiet or
    /// not a terminal.
    pub fn progress_plies(&self) -> progress::Bar {
        progress::Bar::plies_on_stderr(self.quiet)
    }

    /// Whether `--quiet` was given: no progress, no notes on stderr.
    pub fn quiet(&self) -> bool {
        self.quiet
    }

    /// A counter of work of unknown size on stderr, unless quiet or not a terminal.
    pub fn progress_counter(&self) -> progress::Bar {
        progress::Bar::counter_on_stderr(self.quiet)
    }

    /// The memory budget in force.
    pub fn budget(&self) -> Budget {
        self.max_memory
            .map_or_else(Budget::default_for_machine, Budget)
    }

    /// One rank's budget when `local_ranks` share this machine: the
    /// machine's default shared among them, or `--max-memory` as given
    /// (it is per rank).
    #[cfg(feature = "mpi")]
    pub fn budget_per_rank(&self, local_ranks: usize) -> Budget {
        self.max_memory.map_or_else(
            || {
                Budget(Bytes(
                    Budget::default_for_machine().0 .0 / local_ranks.max(1) as u64,
                ))
            },
            Budget,
        )
    }
}

/// `--out FILE` of the solving subcommands, and `--force` to replace a
/// file there that is not a table of the same game.
#[derive(Debug, Args)]
pub struct OutArgs {
    /// Also write the complete outcome table to FILE (read it back with
    /// `retrograde query FILE`); a file already at FILE is replaced only if
    /// it is a table of retrograde of the same game and parameters (a
    /// rerun), or with --force.
    ///
    /// The table is written to a temporary file beside FILE and renamed
    /// into place once complete: a failed or interrupted solve leaves FILE
    /// as it was. The replaced file's permission bits are kept; a hard link
    /// to it still shows the old file (the name gets a new file). A file
    /// that appears at FILE (or takes the place of the one checked) while
    /// the solve runs is never replaced: the table is saved as
    /// FILE.new-PID beside it, and the command fails saying so.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,

    /// Replace the file at --out even if it is not a table of retrograde of
    /// the same game.
    #[arg(long, requires = "out")]
    pub force: bool,
}

impl OutArgs {
    /// Checks, before any solving, that `--out` can be written for a table
    /// of `game`: its directory exists and takes a new file, the path is
    /// not a directory or another non-regular file, and a file already
    /// there is a table of the same game and parameters (or `--force` was
    /// given): the library's one rule,
    /// [`retrograde::disk::check_replaceable`].
    pub fn check(&self, game: &retrograde::disk::SavedGame) -> anyhow::Result<()> {
        match &self.out {
            Some(path) => Ok(self
                .check_path(path, game)
                .map_err(|e| anyhow::anyhow!("--out {}", output::in_flags(&e)))?),
            None => Ok(()),
        }
    }

    /// The check of [`Self::check`] for one file written for `--out` (the
    /// table, or a part of a parted one).
    pub fn check_path(
        &self,
        path: &std::path::Path,
        game: &retrograde::disk::SavedGame,
    ) -> retrograde::Result<()> {
        retrograde::disk::check_table_output(path, self.force, game)
    }

    /// Saves the table if `--out` was given.
    pub fn save(
        &self,
        game: &retrograde::disk::SavedGame,
        table: &retrograde::disk::SavedTable,
    ) -> anyhow::Result<()> {
        if let Some(path) = &self.out {
            retrograde::disk::save(path, game, table)?;
        }
        Ok(())
    }
}

/// Solves a game with the retrograde engine on the run's threads, budget
/// and progress bar, and saves the table if `--out` asks for it.
pub fn solve_retrograde<G: retrograde::language::RankedGame>(
    game: &G,
    saved: retrograde::disk::SavedGame,
    run: &RunArgs,
    out: &OutArgs,
) -> anyhow::Result<(retrograde::language::OutcomeTable, Timing)> {
    use retrograde::disk::SavedTable;
    out.check(&saved)?;
    let threads = run.threads();
    let budget = run.budget();
    let bar = run.progress();
    let clock = std::time::Instant::now();
    // the saved game's description is held during the solve too
    let (table, stats) = retrograde::Analyzer::new(budget, threads).solve_ranked(
        game,
        Bytes(saved.heap_bytes()),
        &bar,
    )?;
    bar.finish();
    let timing = Timing {
        levels: Some(stats.levels),
        ..Timing::solved(clock.elapsed().as_secs_f64(), threads)
    };
    let table = SavedTable::Retrograde(table);
    out.save(&saved, &table)?;
    let SavedTable::Retrograde(table) = table else {
        unreachable!("built above")
    };
    Ok((table, timing))
}

/// How an answer was obtained, for the report's last line.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Seconds spent solving (or loading).
    pub seconds: f64,
    /// Worker threads.
    pub threads: usize,
    /// Levels of a retrograde solve.
    pub levels: Option<u32>,
    /// `"solved"` or `"loaded"` (an answer read from a table file).
    pub verb: &'static str,
    /// Ranks of a distributed solve (under `mpirun`), each on `threads`.
    pub ranks: Option<usize>,
}

impl Timing {
    /// A solve on `threads` that took `seconds`.
    pub fn solved(seconds: f64, threads: usize) -> Self {
        Self {
            seconds,
            threads,
            levels: None,
            verb: "solved",
            ranks: None,
        }
    }

    /// A count (no values) on `threads` that took `seconds`: reported as
    /// "counted in", not "solved in" (issue 73, line 16).
    pub fn counted(seconds: f64, threads: usize) -> Self {
        Self {
            verb: "counted",
            ..Self::solved(seconds, threads)
        }
    }

    /// A table loaded from a file in `seconds`.
    pub fn loaded(seconds: f64) -> Self {
        Self {
            seconds,
            threads: 1,
            levels: None,
            verb: "loaded",
            ranks: None,
        }
    }

    /// The JSON keys of the timing: `seconds`, `threads` and, for a solve,
    /// `states_per_second` (of `states`) and `levels`; `loaded: true` for
    /// an answer read from a file.
    pub fn json_keys(&self, states: Option<u64>) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::json;
        let mut keys = serde_json::Map::new();
        if self.verb == "loaded" {
            keys.insert("loaded".into(), json!(true));
        }
        if let Some(levels) = self.levels {
            keys.insert("levels".into(), json!(levels));
        }
        if let Some(ranks) = self.ranks {
            keys.insert("ranks".into(), json!(ranks));
        }
        keys.insert("threads".into(), json!(self.threads));
        keys.insert("seconds".into(), json!(self.seconds));
        if let (Some(states), "solved" | "counted") = (states, self.verb) {
            keys.insert(
                "states_per_second".into(),
                json!(states as f64 / self.seconds.max(1e-9)),
            );
        }
        keys
    }

    /// The report's last line: `solved in 0.012 s on 2 threads, 4.5 M
    /// states/s, 17 levels` or `loaded in 0.003 s`.
    pub fn line(&self, states: Option<u64>) -> String {
        if self.verb == "loaded" {
            return format!("loaded in {:.3} s from the table file\n", self.seconds);
        }
        let ranks = match self.ranks {
            Some(r) => format!("{r} rank{} × ", if r == 1 { "" } else { "s" }),
            None => String::new(),
        };
        let mut line = format!(
            "{} in {:.3} s on {ranks}{} thread{}",
            self.verb,
            self.seconds,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        );
        if let Some(states) = states {
            line.push_str(&format!(", {}", output::rate(states, self.seconds)));
        }
        if let Some(levels) = self.levels {
            line.push_str(&format!(", {} levels", output::grouped(u64::from(levels))));
        }
        line.push('\n');
        line
    }
}

/// Parses the arguments, runs the subcommand, and turns its result into an
/// exit code: errors become one line on stderr and exit code 2.
fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            use clap::error::ErrorKind;
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) {
                err.exit();
            }
            if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = err.print();
                return ExitCode::from(2);
            }
            eprintln!("{}", one_line(&err.render().to_string()));
            return ExitCode::from(2);
        }
    };
    // a signal removes the temporaries of files being written, and ends the
    // command; the server, which writes none, shuts down gracefully instead
    if !matches!(cli.command, Command::Serve(_)) {
        if let Err(err) = retrograde::disk::remove_temporaries_on_signals() {
            eprintln!("error: cannot watch for signals: {err}");
            return ExitCode::from(2);
        }
    }
    let mut cli = cli;
    // --csv: the report is made as for --json and printed as its per-ply
    // table; refused where there is none, before any work
    let csv_refused = match &mut cli.command {
        Command::Connect(args) if args.csv => {
            args.run.json = true;
            (args.position.given() || args.search).then_some("connect --moves, --board or --search")
        }
        Command::Mnk(args) if args.csv => {
            args.run.json = true;
            args.position.given().then_some("mnk --moves or --board")
        }
        _ => None,
    };
    if let Some(what) = csv_refused {
        eprintln!(
            "error: --csv prints a board's per-ply table; {what} answers one position (use --json)"
        );
        return ExitCode::from(2);
    }
    if matches!(&cli.command, Command::Connect(a) if a.csv)
        || matches!(&cli.command, Command::Mnk(a) if a.csv)
    {
        output::print_csv_instead_of_json();
    }
    let result = match &cli.command {
        Command::CatMouse(args) => cat_mouse::run(args),
        Command::CatMouseGrid(args) => cat_mouse_grid::run(args),
        Command::Mnk(args) => mnk::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Plot(args) => plot::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Query(args) => query::run(args),
        Command::Search(args) => search::run(args),
        Command::Prove(args) => prove::run(args),
        Command::CheckProof(args) => check_proof::run(args),
        Command::Connect(args) => connect::run(args),
        Command::Play(args) => play::run(args),
        Command::Nim(args) => classics::nim(args),
        Command::CanIWin(args) => classics::can_i_win(args),
        Command::Ends(args) => classics::ends(args),
        Command::Serve(args) => serve::run(args),
    };
    match result {
        Ok(code) => code,
        // a reader that went away (`| head`) ends any command quietly, as
        // output::emit does for the one-shot reports
        Err(err) if output::reader_went_away(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {}", output::error_line(&err));
            ExitCode::from(2)
        }
    }
}

/// Folds clap's multi-line message into one line: the message and its
/// details, without the usage and the hint that follow.
fn one_line(message: &str) -> String {
    message
        .lines()
        .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more information"))
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
