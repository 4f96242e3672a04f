//! The `retrograde` command: parse, validate, dispatch, map errors to exit
//! codes; one file per subcommand, shared options and output. Every answer
//! comes from the library (`retrograde`, its facade `retrograde::Analyzer`);
//! `serve` runs the HTTP front end of the `retrograde-server` crate.
//!
//! Exit codes: 0 success, 1 a check failed (reserved for `verify`, `bench`
//! and `check-proof`), 2 bad input or a solve that cannot run (one line on
//! stderr).

mod args;
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

use clap::{Parser, Subcommand};

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
