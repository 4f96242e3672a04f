//! Peak memory within `--max-memory` plus the documented allowance
//! (`retrograde::host::ALLOWANCE`), measured as the child's maximum
//! resident set (wait4's rusage) (issue 73, line 7).

use std::path::Path;
use std::process::{Command, Stdio};

use retrograde::host::ALLOWANCE;

use crate::common::cli::{refused, scratch_dir};

const BIN: &str = env!("CARGO_BIN_EXE_retrograde");

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Runs the binary with `args`; its exit code and peak resident bytes.
#[allow(clippy::zombie_processes)] // reaped by wait4, which std cannot see
fn peak_of(args: &[&str]) -> (i32, u64) {
    let child = Command::new(env!("CARGO_BIN_EXE_retrograde"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, reaping it (std never waits for it)
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    assert!(libc::WIFEXITED(status), "the run was killed");
    (libc::WEXITSTATUS(status), usage.ru_maxrss as u64 * 1024)
}

// (issue 73, line 7: 150 MiB peaked at 169 MiB) the explicit gravity
// engine's new ply grew by appending, up to three times its length
#[test]
fn the_explicit_gravity_engine_stays_within_its_budget_and_the_allowance() {
    let budget = 150u64 << 20;
    let (code, peak) = peak_of(&[
        "connect",
        "--cols",
        "5",
        "--rows",
        "5",
        "--engine",
        "explicit",
        "--max-memory",
        "150MiB",
        "-q",
    ]);
    assert_eq!(code, 2, "refused past ply 21 in this budget");
    assert!(
        peak <= budget + ALLOWANCE.0,
        "peak {} MiB, budget 150 MiB + {} MiB",
        peak >> 20,
        ALLOWANCE.0 >> 20
    );
}

#[test]
fn a_search_stays_within_its_budget_and_the_allowance() {
    let (code, peak) = peak_of(&[
        "search",
        "connect",
        "--moves",
        "4444",
        "--max-memory",
        "64MiB",
        "-q",
    ]);
    assert_eq!(code, 0);
    assert!(peak <= (64 << 20) + ALLOWANCE.0, "peak {} MiB", peak >> 20);
}

/// The outcome (exit code and stderr) of the symbolic engine on 4×4 k=4 at
/// one thread and `budget`.
fn symbolic_4x4_outcome(budget: &str) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_retrograde"))
        .args([
            "mnk", "--cols", "4", "--rows", "4", "--k", "4", "--engine", "symbolic",
        ])
        .args(["--max-memory", budget, "--threads", "1", "-q"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

// (issue 73, line 7: failed 3 runs of 6, at ply 10 or 11) a ply that takes
// the store to OxiDD's background collector's mark is a full store, the
// same every run; and the collector between operations makes room before
// the mark, so a larger store does not fail where a smaller one solved
#[test]
fn a_symbolic_store_near_its_size_gives_the_same_outcome_every_run() {
    let tight: Vec<_> = (0..4).map(|_| symbolic_4x4_outcome("25MiB")).collect();
    assert!(tight.iter().all(|o| *o == tight[0]), "{tight:?}");
    assert_eq!(tight[0].0, Some(2), "{tight:?}");
    assert!(tight[0].1.contains("filled the node store"), "{tight:?}");
    for budget in ["40MiB", "60MiB"] {
        let roomy = symbolic_4x4_outcome(budget);
        assert_eq!(roomy.0, Some(0), "{budget}: {roomy:?}");
    }
}

// issue 12, line 8
#[test]
fn a_save_fits_the_budget_and_the_default_budget_knows_the_limits() {
    // saving streams: a save under an address-space limit near its budget succeeds
    let dir = scratch_dir("hardening", "line8");
    let out = dir.join("bench.rtb");
    let graph = crate::common::root().join("benches/data/cat-mouse-2000.json");
    let status = Command::new("prlimit")
        .args([
            "--as=1073741824",
            BIN,
            "cat-mouse",
            "--graph-file",
            s(&graph),
        ])
        .args(["--max-memory", "600MiB", "--json", "--out", s(&out)])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert!(out.exists());
    // the default budget follows the address-space limit: refused, not aborted
    let run = Command::new("prlimit")
        .args(["--as=2147483648", BIN, "nim", "--stones", "100000000000"])
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stderr).contains("over the budget"));
    // a complete graph's structures count: the estimate exceeds the bare tables
    let complete: Vec<Vec<u32>> = (0..600u32)
        .map(|a| (0..600).filter(|&b| b != a).collect())
        .collect();
    let file = dir.join("complete.json");
    std::fs::write(&file, serde_json::to_string(&complete).unwrap()).unwrap();
    let line = refused(&[
        "cat-mouse",
        "--graph-file",
        s(&file),
        "--max-memory",
        "4MiB",
    ]);
    assert!(line.contains("over the budget"), "{line}");
    std::fs::remove_dir_all(&dir).unwrap();
}
