//! The distributed solve under a real `mpirun` (Open MPI; the build's
//! `mpi` feature): 1, 2 and 3 ranks (oversubscribed on this machine's
//! cores) give the single-process JSON report, a parted table answers every
//! position as the single-process table does, and a rank killed mid-solve
//! ends the job with a non-zero exit and no table. Run by `.ci/run` after
//! `scripts/install-mpi.sh`:
//! `cargo test --release --features mpi --test mpi`.
#![cfg(feature = "mpi")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use retrograde::{
    disk::{GravityValues, MappedGravity},
    engines::sparse::solve_gravity,
    games::gravity::Gravity,
    host::Budget,
    BoardSize,
};

const BIN: &str = env!("CARGO_BIN_EXE_retrograde");

/// `mpirun -np RANKS retrograde ARGS…`, allowed to oversubscribe the cores
/// and to run as root (CI machines run as root).
fn mpirun(ranks: usize, args: &[&str]) -> Output {
    Command::new("mpirun")
        .args(["--oversubscribe", "--allow-run-as-root", "-np"])
        .arg(ranks.to_string())
        .arg(BIN)
        .args(args)
        .output()
        .expect("mpirun runs (scripts/install-mpi.sh installs it)")
}

fn single(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The report without the fields that may differ between runs: timing,
/// threads and ranks; the ranks field is returned apart.
fn report(out: &Output) -> (serde_json::Value, Option<u64>) {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report");
    let map = v.as_object_mut().expect("an object");
    for key in ["threads", "seconds", "states_per_second"] {
        map.remove(key);
    }
    let ranks = map.remove("ranks").and_then(|r| r.as_u64());
    (v, ranks)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retrograde-mpi-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every position of the board answered from the parted table `path` as
/// the single-process solve has it.
fn every_position_agrees(path: &Path, game: &Gravity) {
    let want = solve_gravity(game, &Budget::unlimited()).unwrap();
    let table = MappedGravity::open(path).unwrap().expect("a gravity table");
    assert_eq!(table.counts(), want.counts.as_slice());
    for (ply, key, value, depth) in want.entries() {
        assert_eq!(
            table.value_of(ply, key).unwrap(),
            Some((value, depth)),
            "ply {ply} key {key:#x}"
        );
    }
}

/// Every gravity board up to 5×4 and every k up to 4.
#[test]
fn every_small_gravity_board_on_1_2_3_ranks_equals_one_process() {
    for cols in 1..=5u32 {
        for rows in 1..=4u32 {
            for k in 1..=4.min(cols.max(rows)) {
                let size = [
                    "connect",
                    "--cols",
                    &cols.to_string(),
                    "--rows",
                    &rows.to_string(),
                    "--k",
                    &k.to_string(),
                    "--json",
                    "-q",
                ];
                let (want, none) = report(&single(&size));
                assert_eq!(none, None, "a single process has no ranks field");
                for ranks in 1..=3 {
                    let board = format!("{cols}x{rows} k{k} on {ranks} ranks");
                    let dir = scratch(&format!("{cols}x{rows}-k{k}-{ranks}"));
                    let out = dir.join("table");
                    let mut args = size.to_vec();
                    args.extend(["--out", out.to_str().unwrap()]);
                    let (got, got_ranks) = report(&mpirun(ranks, &args));
                    assert_eq!(got, want, "{board}");
                    assert_eq!(got_ranks, Some(ranks as u64), "{board}");
                    if cols * rows <= 16 {
                        every_position_agrees(
                            &out,
                            &Gravity::new(BoardSize { cols, rows, k }).unwrap(),
                        );
                    }
                    // and `query` reads the parted table as one
                    let (queried, _) = report(&single(&["query", out.to_str().unwrap(), "--json"]));
                    let mut loaded = want.clone();
                    loaded["loaded"] = true.into();
                    assert_eq!(queried, loaded, "{board} through query");
                    std::fs::remove_dir_all(&dir).unwrap();
                }
            }
        }
    }
}

/// Every m,n,k board up to 4×4 and every k: the report, and the table
/// `--out` writes — byte for byte the single process's dense table, so
/// every position's value and depth — which `query` reads.
#[test]
fn every_mnk_board_up_to_4x4_on_1_2_3_ranks_equals_the_dense_engine() {
    let dir = scratch("mnk");
    for rows in 1..=4u32 {
        for cols in 1..=4u32 {
            for k in 1..=rows.max(cols) {
                let (c, r, k) = (cols.to_string(), rows.to_string(), k.to_string());
                let board = format!("{c}x{r} k{k}");
                let args = ["mnk", "--cols", &c, "--rows", &r, "--k", &k, "--json", "-q"];
                let table = |name: &str| dir.join(format!("{board}-{name}"));
                let with_out = |name: &str| {
                    let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
                    a.push("--out".into());
                    a.push(table(name).to_str().unwrap().to_string());
                    a
                };
                let one: Vec<String> = with_out("one");
                let one: Vec<&str> = one.iter().map(String::as_str).collect();
                let (want, _) = report(&single(&one));
                let want_table = std::fs::read(table("one")).unwrap();
                for ranks in 1..=3 {
                    let name = format!("np{ranks}");
                    let many = with_out(&name);
                    let many: Vec<&str> = many.iter().map(String::as_str).collect();
                    let (got, got_ranks) = report(&mpirun(ranks, &many));
                    assert_eq!(got, want, "{board} on {ranks} ranks");
                    assert_eq!(got_ranks, Some(ranks as u64));
                    let got_table = std::fs::read(table(&name)).unwrap();
                    assert!(got_table == want_table, "{board} on {ranks} ranks: table");
                }
                let path = table("np3");
                let (queried, _) = report(&single(&["query", path.to_str().unwrap(), "--json"]));
                let mut loaded = want.clone();
                loaded["loaded"] = true.into();
                assert_eq!(queried, loaded, "{board} through query");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn what_a_distributed_run_does_not_do_is_refused_once() {
    let dir = scratch("refused");
    let out = dir.join("t");
    for args in [
        vec!["mnk", "--moves", "b2", "--out", out.to_str().unwrap()],
        vec!["connect", "--moves", "44"],
    ] {
        let done = mpirun(2, &args);
        assert!(!done.status.success());
        let said = String::from_utf8_lossy(&done.stderr);
        assert_eq!(said.matches("error:").count(), 1, "one rank speaks: {said}");
        assert!(!out.exists());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn five_by_five_on_1_2_3_ranks_equals_one_process() {
    let size = ["connect", "--cols", "5", "--rows", "5", "--json", "-q"];
    let (want, _) = report(&single(&size));
    assert_eq!(want["positions"], 69_763_700);
    for ranks in 1..=3 {
        let (got, got_ranks) = report(&mpirun(ranks, &size));
        assert_eq!(got, want, "5x5 on {ranks} ranks");
        assert_eq!(got_ranks, Some(ranks as u64));
    }
}

#[test]
fn a_killed_rank_ends_the_job_without_a_table() {
    let dir = scratch("killed");
    let out = dir.join("table");
    let out_arg = out.to_str().unwrap().to_string();
    let child = Command::new("mpirun")
        .args(["--oversubscribe", "--allow-run-as-root", "-np", "2", BIN])
        .args([
            "connect", "--cols", "6", "--rows", "4", "-q", "--out", &out_arg,
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("mpirun starts");
    // wait for both ranks, then kill rank processes' last one mid-solve
    let mut victim = None;
    for _ in 0..200 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        let ranks = rank_pids(&out_arg);
        if ranks.len() == 2 {
            victim = ranks.last().copied();
            break;
        }
    }
    let victim = victim.expect("two ranks started");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let killed = Command::new("kill")
        .args(["-9", &victim.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let done = child.wait_with_output().unwrap();
    assert!(!done.status.success(), "mpirun must fail when a rank dies");
    let said = String::from_utf8_lossy(&done.stderr).to_string();
    assert!(
        said.contains("signal 9") || said.contains("Killed"),
        "a clear message: {said}"
    );
    assert!(!out.exists(), "no table under the final name");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The processes of the running `retrograde` ranks whose command line
/// holds `marker`.
fn rank_pids(marker: &str) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let comm = std::fs::read_to_string(entry.path().join("comm")).unwrap_or_default();
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if comm.trim() == "retrograde" && String::from_utf8_lossy(&cmdline).contains(marker) {
            pids.push(pid);
        }
    }
    pids.sort_unstable();
    pids
}
