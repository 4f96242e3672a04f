//! `retrograde serve`: the flags of the HTTP server ([`retrograde_server`]).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use super::args::RunArgs;
use super::progress::Working;
use retrograde_server::api::MIN_TIME_LIMIT;
use retrograde_server::boards::Boards;
use retrograde_server::Config;

/// The longest `--move-seconds` taken.
const MAX_MOVE_SECONDS: f64 = 3600.0;

/// Arguments of `retrograde serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Where to listen (loopback unless another address is given; port 0:
    /// any free port, printed on the first line)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,

    /// A table saved by `connect --out` or `mnk --out` to answer its
    /// board's positions from (repeatable; memory-mapped once, shared by
    /// every request)
    #[arg(long = "table", value_name = "FILE")]
    tables: Vec<PathBuf>,

    /// The longest time a search of one request takes, and its default
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 5.0,
        allow_negative_numbers = true
    )]
    move_seconds: f64,

    /// Searches that may wait while one runs; past them a request gets 503
    #[arg(long, value_name = "N", default_value_t = 16)]
    queue: usize,

    #[command(flatten)]
    run: RunArgs,
}

/// Runs the server until SIGINT or SIGTERM.
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let seconds = args.move_seconds;
    let floor = MIN_TIME_LIMIT.as_secs_f64();
    if !(seconds.is_finite() && seconds >= floor && seconds <= MAX_MOVE_SECONDS) {
        anyhow::bail!(
            "--move-seconds {seconds} must be a number of seconds from {floor} (the shortest \
             search the server starts) to {MAX_MOVE_SECONDS:.0}"
        );
    }
    if args.queue > 4096 {
        anyhow::bail!("--queue {} must be at most 4096", args.queue);
    }
    // a table of an m,n,k board is read whole: a large one takes seconds
    // before the address is printed (issue 86: no word meanwhile)
    let opening = (!args.tables.is_empty()).then(|| {
        let bytes = args
            .tables
            .iter()
            .filter_map(|t| std::fs::metadata(t).ok())
            .map(|m| m.len())
            .sum::<u64>();
        Working::new(
            args.run.quiet(),
            false,
            "opening the tables",
            format!(
                "opening {} table{} ({} in all) before serving; the address is printed once they are open",
                args.tables.len(),
                if args.tables.len() == 1 { "" } else { "s" },
                retrograde::host::Bytes(bytes)
            ),
        )
    });
    let boards = Boards::open(&args.tables, args.run.budget(), args.run.threads());
    drop(opening);
    let boards = boards?;
    let config = Config {
        addr: args.addr,
        boards,
        move_seconds: Duration::from_secs_f64(seconds),
        queue: args.queue,
        own: None,
    };
    retrograde_server::run(config, args.run.threads())?;
    Ok(ExitCode::SUCCESS)
}
