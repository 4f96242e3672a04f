//! Solves spread over MPI ranks: `mpirun -np P retrograde connect …`.
//! A process knows it was started by `mpirun` from the variables Open MPI
//! (or a PMI launcher) sets; with the `mpi` feature it then joins the job
//! and solves its share, else it refuses, so that P processes never each
//! run the whole solve and print P reports.

/// The processes of this job on all machines and on this one, if started
/// by `mpirun` (Open MPI's or a PMI launcher's variables).
pub fn launched_ranks() -> Option<(usize, usize)> {
    let var = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| std::env::var(n).ok()?.parse::<usize>().ok())
    };
    let world = var(&["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"])?;
    let local = var(&["OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"]).unwrap_or(1);
    Some((world, local))
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
pub use with_mpi::connect;

#[cfg(feature = "mpi")]
mod with_mpi {
    use std::process::ExitCode;
    use std::time::Instant;

    use anyhow::bail;
    use retrograde::games::gravity::Gravity;
    use retrograde::solve::in_pool;
    use retrograde::solve::progress::{Progress, Silent};
    use retrograde::solve::sparse_layered::distributed::mpi::MpiRanks;
    use retrograde::solve::sparse_layered::distributed::ranks::Ranks;
    use retrograde::solve::sparse_layered::distributed::{all_ok, solve_gravity_distributed};
    use retrograde::solve::sparse_layered::{decode, GravitySolution};
    use retrograde::tablefile::parted::{part_path, write_manifest};
    use retrograde::tablefile::{SavedGame, SavedTable};

    use super::super::connect::ConnectArgs;
    use super::super::output::first_player_result;
    use super::super::Timing;

    /// `connect` on the ranks of this MPI job: rank 0 prints the report
    /// (progress too); with `--out`, every rank writes its part and rank 0
    /// the manifest, last.
    pub fn connect(args: &ConnectArgs, game: &Gravity) -> anyhow::Result<Option<ExitCode>> {
        let Some((_, local)) = super::launched_ranks() else {
            return Ok(None);
        };
        let Some(ranks) = MpiRanks::init() else {
            bail!("MPI was initialized twice");
        };
        let result = run(args, game, &ranks, local);
        if let Err(e) = &result {
            // rank 0 speaks for all; another rank speaks only of its own failure
            if ranks.rank() != 0 && e.to_string().starts_with("another rank") {
                return Ok(Some(ExitCode::from(2)));
            }
        }
        result.map(Some)
    }

    fn run(
        args: &ConnectArgs,
        game: &Gravity,
        ranks: &MpiRanks,
        local: usize,
    ) -> anyhow::Result<ExitCode> {
        let (rank, size) = (ranks.rank(), ranks.size());
        if args.position.given() || args.search {
            bail!("under mpirun, connect solves whole boards; answer a position from the saved table (`retrograde query FILE --moves …`) in one process");
        }
        let out = args.out.out.as_deref();
        let checked = match out {
            Some(path) => retrograde::files::check_output(&part_path(path, rank, size))
                .and_then(|()| retrograde::files::check_output(path)),
            None => Ok(()),
        };
        if !all_ok(ranks, checked.is_ok()) {
            checked.map_err(|e| anyhow::anyhow!("--out {e}"))?;
            bail!("another rank cannot write its part of --out (its message says why)");
        }
        let threads = args.run.threads();
        let budget = args.run.budget_per_rank(local);
        let bar = args.run.progress_plies();
        let progress: &dyn Progress = if rank == 0 { &bar } else { &Silent };
        let clock = Instant::now();
        let solved = in_pool(threads, || {
            solve_gravity_distributed(game, ranks, &budget, progress)
        })??;
        bar.finish();
        let timing = Timing {
            ranks: Some(size),
            ..Timing::solved(clock.elapsed().as_secs_f64(), threads)
        };
        let (value, depth) = decode(solved.root);
        let counts = solved.counts.clone();
        if let Some(path) = out {
            let (cols, rows, k) = game.dimensions();
            let part = part_path(path, rank, size);
            let table = SavedTable::Gravity(GravitySolution {
                game: game.clone(),
                plies: solved.plies,
                counts: solved.counts,
            });
            let written =
                retrograde::tablefile::save(&part, &SavedGame::Gravity { cols, rows, k }, &table);
            if !all_ok(ranks, written.is_ok()) {
                if written.is_ok() {
                    let _ = std::fs::remove_file(&part);
                }
                written?;
                bail!("another rank could not write its part of --out; no table was written");
            }
            if rank == 0 {
                let positions = counts.iter().map(|c| c.positions).sum();
                if let Err(e) = write_manifest(path, game, size, positions) {
                    eprintln!("error: {e}");
                    // the parts are useless without their manifest
                    ranks.abort(2);
                }
            }
        }
        if rank == 0 {
            super::super::connect::report_counts(
                game,
                &counts,
                (first_player_result(value), depth),
                &timing,
                args.run.json,
            )
        } else {
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Runs `connect` distributed when started by `mpirun`; `None` when not.
#[cfg(not(feature = "mpi"))]
pub fn connect(
    _args: &super::connect::ConnectArgs,
    _game: &retrograde::games::gravity::Gravity,
) -> anyhow::Result<Option<std::process::ExitCode>> {
    refuse_without_mpi("connect")?;
    Ok(None)
}
