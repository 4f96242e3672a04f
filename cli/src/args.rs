//! The options every command shares ([`RunArgs`]: threads, memory,
//! progress, JSON; [`OutArgs`]: a table to write) and the report's timing
//! line ([`Timing`]); the command modules take them from here, one way.

use clap::Args;

use super::{output, progress};
use retrograde::host::{
    parse_size, worker_threads, Budget, Bytes, ThreadCap, MAX_THREADS, MAX_THREADS_A_CORE,
};

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
    pub(crate) threads: Option<u32>,

    /// Print one JSON object on stdout instead of the human report.
    #[arg(long)]
    pub(crate) json: bool,

    /// Draw no progress bar (bars appear only when stderr is a terminal).
    #[arg(long, short)]
    pub(crate) quiet: bool,

    /// Refuse a solve whose estimated memory exceeds SIZE, e.g. 512MiB or 8GiB
    /// [default: 80% of the least of physical memory, the cgroup's memory
    /// limit and the address-space limit]. The process takes a fixed 16 MiB
    /// beside it (code, stacks, small buffers): its peak stays within SIZE
    /// + 16 MiB.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub(crate) max_memory: Option<Bytes>,
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
