//! Solves spread over MPI ranks: `mpirun -np P retrograde connect …`.
//! A process knows it was started by `mpirun` from the variables Open MPI
//! (or a PMI launcher) sets; with the `mpi` feature it then joins the job
//! and solves its share, else it refuses, so that P processes never each
//! run the whole solve and print P reports.
//!
//! This module knows boards, not commands: `connect` and `mnk` describe
//! their run as a [`Request`] and print the [`RankReport`] that rank 0
//! hands back with their own report functions, so the command modules
//! import this one and never the other way round.

use std::process::ExitCode;

use retrograde::{
    engines::layered::{GameCounts, PlyCounts},
    engines::sparse::GravityCounts,
    games::gravity::Gravity,
    games::mnk::Mnk,
    language::Outcome,
};

use super::args::{OutArgs, RunArgs, Timing};

/// The board of a distributed run.
// read only by the `mpi` feature's solve
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub enum Board<'a> {
    Connect(&'a Gravity),
    Mnk(&'a Mnk),
}

/// What a distributed run was asked.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub struct Request<'a> {
    pub board: Board<'a>,
    pub run: &'a RunArgs,
    pub out: &'a OutArgs,
    /// `--moves`, `--board` or `--search`: not for a distributed run.
    pub one_position: bool,
}

/// What rank 0 reports once every rank has solved (and saved) its share:
/// counts summed over the ranks, and the empty board's value for the
/// first player with its depth.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub enum RankReport {
    Connect {
        counts: Vec<GravityCounts>,
        root: (Outcome, u32),
        timing: Timing,
    },
    Mnk {
        counts: Vec<PlyCounts>,
        games: GameCounts,
        root: (Outcome, u32),
        timing: Timing,
    },
}

/// How a run under `mpirun` ended on this process.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub enum Ranked {
    /// Rank 0's report, for the command to print.
    Report(RankReport),
    /// Nothing to print here (another rank, or a refusal rank 0 speaks of).
    Exit(ExitCode),
}

/// The number in the first of the environment variables `names` that holds
/// one.
fn env_number(names: &[&str]) -> Option<usize> {
    names
        .iter()
        .find_map(|n| std::env::var(n).ok()?.parse::<usize>().ok())
}

/// The processes of this job on all machines and on this one, if started
/// by `mpirun` (Open MPI's or a PMI launcher's variables).
pub fn launched_ranks() -> Option<(usize, usize)> {
    let world = env_number(&["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"])?;
    let local = env_number(&["OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"]).unwrap_or(1);
    Some((world, local))
}

/// This process's rank in the job, if started by `mpirun`.
#[cfg(feature = "mpi")]
fn launched_rank() -> Option<usize> {
    env_number(&["OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"])
}

/// Refuses a run under `mpirun` with several processes in a build without
/// MPI support.
#[cfg(not(feature = "mpi"))]
pub fn refuse_without_mpi(command: &str) -> anyhow::Result<()> {
    use anyhow::bail;
    if let Some((world, _)) = launched_ranks().filter(|&(w, _)| w > 1) {
        bail!(
            "started by mpirun as one of {world} processes, but this build of `retrograde {command}` has no MPI support: build it with `cargo build --release --features mpi` (scripts/install-mpi.sh installs Open MPI)"
        );
    }
    Ok(())
}

#[cfg(feature = "mpi")]
pub use with_mpi::on_ranks;

#[cfg(feature = "mpi")]
mod with_mpi {
    use std::path::Path;
    use std::process::ExitCode;
    use std::time::Instant;

    use anyhow::bail;
    use retrograde::{
        disk::{part_path, write_manifest, SavedGame, SavedTable},
        engines::distributed::{
            all_ok, gather_mnk_solution, solve_gravity_distributed, solve_mnk_distributed,
            MpiRanks, RankSolution, Ranks,
        },
        engines::sparse::{decode, GravitySolution},
        games::gravity::Gravity,
        host::{in_pool, Budget, Progress, Silent},
    };

    use super::super::args::Timing;
    use super::{Board, RankReport, Ranked, Request};

    /// Runs `request` on the ranks of this MPI job: every rank solves its
    /// share; with `--out`, every rank writes its part (connect) or rank 0
    /// the gathered table (m,n,k), and rank 0 the manifest, last. `None`
    /// when not started by `mpirun`.
    pub fn on_ranks(request: Request<'_>) -> anyhow::Result<Option<Ranked>> {
        let Some((_, local)) = super::launched_ranks() else {
            return Ok(None);
        };
        if let Err(e) = refuse_request(&request) {
            // every rank refuses alike; rank 0 says so
            return match super::launched_rank() {
                Some(0) | None => Err(e),
                Some(_) => Ok(Some(Ranked::Exit(ExitCode::from(2)))),
            };
        }
        let Some(ranks) = MpiRanks::init() else {
            bail!("MPI was initialized twice");
        };
        let result = run(&request, &ranks, local);
        if let Err(e) = &result {
            // rank 0 speaks for all; another rank speaks only of its own failure
            if ranks.rank() != 0 && e.to_string().starts_with("another rank") {
                return Ok(Some(Ranked::Exit(ExitCode::from(2))));
            }
        }
        result.map(Some)
    }

    /// What a distributed run does not do.
    fn refuse_request(request: &Request<'_>) -> anyhow::Result<()> {
        if request.one_position {
            bail!("under mpirun, a board is solved whole; answer a position from the saved table (`retrograde query FILE --moves …`) in one process");
        }
        Ok(())
    }

    fn run(request: &Request<'_>, ranks: &MpiRanks, local: usize) -> anyhow::Result<Ranked> {
        let (rank, size) = (ranks.rank(), ranks.size());
        let out = request.out.out.as_deref();
        // connect: every rank's part and the manifest; mnk: rank 0's table
        let checked = match (out, &request.board) {
            (Some(path), Board::Connect(game)) => {
                let (cols, rows, k) = game.dimensions();
                let saved = SavedGame::Gravity { cols, rows, k };
                request
                    .out
                    .check_path(&part_path(path, rank, size), &saved)
                    .and_then(|()| request.out.check_path(path, &saved))
            }
            (Some(path), Board::Mnk(game)) if rank == 0 => request.out.check_path(
                path,
                &SavedGame::Mnk {
                    rows: game.rows(),
                    cols: game.cols(),
                    k: game.k(),
                },
            ),
            _ => Ok(()),
        };
        if !all_ok(ranks, checked.is_ok()) {
            checked.map_err(|e| anyhow::anyhow!("--out {}", crate::output::in_flags(&e)))?;
            bail!("another rank cannot write its part of --out (its message says why)");
        }
        let threads = request.run.threads();
        let budget = request.run.budget_per_rank(local);
        let bar = request.run.progress_plies();
        let progress: &dyn Progress = if rank == 0 { &bar } else { &Silent };
        let clock = Instant::now();
        let solve = |budget: &Budget| match request.board {
            Board::Connect(game) => solve_gravity_distributed(game, ranks, budget, progress),
            Board::Mnk(game) => solve_mnk_distributed(game, ranks, budget, progress),
        };
        let solved = in_pool(threads, || solve(&budget))??;
        bar.finish();
        let timing = Timing {
            ranks: Some(size),
            ..Timing::solved(clock.elapsed().as_secs_f64(), threads)
        };
        let (value, depth) = decode(solved.root);
        match request.board {
            Board::Connect(game) => {
                let counts = solved.counts.clone();
                if let Some(path) = out {
                    save_parts(game, solved, path, ranks)?;
                }
                if rank != 0 {
                    return Ok(Ranked::Exit(ExitCode::SUCCESS));
                }
                Ok(Ranked::Report(RankReport::Connect {
                    counts,
                    root: (value, depth),
                    timing,
                }))
            }
            Board::Mnk(game) => {
                let counts = solved.mnk_counts();
                let games = solved.game_counts().expect("m,n,k solves count games");
                if let Some(path) = out {
                    // the dense table, as `mnk --out` writes it in one process
                    let table = gather_mnk_solution(game, ranks, solved, &budget)?;
                    if let Some(table) = table {
                        let saved = SavedGame::Mnk {
                            rows: game.rows(),
                            cols: game.cols(),
                            k: game.k(),
                        };
                        if let Err(e) =
                            retrograde::disk::save(path, &saved, &SavedTable::Layered(table))
                        {
                            eprintln!("error: {e}");
                            ranks.abort(2);
                        }
                    }
                }
                if rank != 0 {
                    return Ok(Ranked::Exit(ExitCode::SUCCESS));
                }
                Ok(Ranked::Report(RankReport::Mnk {
                    counts,
                    games,
                    root: (value, depth),
                    timing,
                }))
            }
        }
    }

    /// Every rank writes its part of `path`; once all have, rank 0 writes
    /// the manifest. A rank that fails makes every rank remove its part.
    fn save_parts(
        game: &Gravity,
        solved: RankSolution,
        path: &Path,
        ranks: &MpiRanks,
    ) -> anyhow::Result<()> {
        let (rank, size) = (ranks.rank(), ranks.size());
        let (cols, rows, k) = game.dimensions();
        let part = part_path(path, rank, size);
        let positions = solved.counts.iter().map(|c| c.positions).sum();
        let table = SavedTable::Gravity(GravitySolution {
            game: game.clone(),
            plies: solved.plies,
            counts: solved.counts,
        });
        let written = retrograde::disk::save(&part, &SavedGame::Gravity { cols, rows, k }, &table);
        if !all_ok(ranks, written.is_ok()) {
            if written.is_ok() {
                let _ = std::fs::remove_file(&part);
            }
            written?;
            bail!("another rank could not write its part of --out; no table was written");
        }
        if rank == 0 {
            if let Err(e) = write_manifest(path, game, size, positions) {
                eprintln!("error: {e}");
                // the parts are useless without their manifest
                ranks.abort(2);
            }
        }
        Ok(())
    }
}

/// Refuses a run under `mpirun` with several processes (this build has no
/// MPI support); `None` otherwise: the command runs in this one process.
#[cfg(not(feature = "mpi"))]
pub fn on_ranks(request: Request<'_>) -> anyhow::Result<Option<Ranked>> {
    refuse_without_mpi(match request.board {
        Board::Connect(_) => "connect",
        Board::Mnk(_) => "mnk",
    })?;
    Ok(None)
}
