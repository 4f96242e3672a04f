//! One regression test for each line of the adversarial run's report
//! (hardening issue), named for it. Special files are made in a temporary
//! directory of the test's own; nothing of the system is touched.

#[path = "common/cli.rs"]
mod cli_support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cli_support::{json_of, refused, retrograde, run_within, scratch_dir};

const BIN: &str = env!("CARGO_BIN_EXE_retrograde");

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn line_1_out_never_replaces_a_special_file_or_a_symlink() {
    let dir = scratch_dir("hardening", "line1");
    let fifo = dir.join("f");
    mkfifo(&fifo);
    let real = dir.join("real.txt");
    std::fs::write(&real, "keep").unwrap();
    let link = dir.join("l");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let mut targets = vec![fifo.clone(), link.clone(), dir.clone()];
    // a device node of our own, where we may make one (root)
    let node = dir.join("n");
    if Command::new("mknod")
        .arg(&node)
        .args(["c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success())
    {
        targets.push(node.clone());
    }
    for target in &targets {
        let line = refused(&["mnk", "--out", s(target)]);
        assert!(line.contains("only a regular file is replaced"), "{line}");
        let line = refused(&[
            "bench",
            "--threads-list",
            "1",
            "--runs",
            "1",
            "--markdown",
            s(target),
        ]);
        assert!(line.contains("--markdown"), "{line}");
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "keep");
    if node.exists() {
        assert!(std::fs::symlink_metadata(&node)
            .unwrap()
            .file_type()
            .is_char_device());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn line_2_ends_scores_do_not_overflow() {
    let v = json_of(&["ends", "--nums", "9223372036854775807", "--json"]);
    assert_eq!(v["first_score"].as_i64(), Some(i64::MAX));
    assert_eq!(v["second_score"].as_i64(), Some(0));
    let v = json_of(&[
        "ends",
        "--nums",
        "6000000000000000000,1000000000000000000",
        "--json",
    ]);
    assert_eq!(v["first_score"].as_i64(), Some(6_000_000_000_000_000_000));
    assert_eq!(v["second_score"].as_i64(), Some(1_000_000_000_000_000_000));
    assert_eq!(v["difference"].as_i64(), Some(5_000_000_000_000_000_000));
    refused(&["ends", "--nums", "9223372036854775807,1"]);
}

#[test]
fn line_3_connect_sizes_are_checked_without_wrapping() {
    for args in [
        ["connect", "--cols", "4", "--rows", "4294967295", "--k", "4"],
        ["connect", "--cols", "2147483648", "--rows", "1", "--k", "1"],
        ["connect", "--cols", "65536", "--rows", "65535", "--k", "1"],
    ] {
        let (code, _, err) = run_within(&args, 5, None);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}

#[test]
fn line_4_grid_jump_tables_are_checked_before_they_are_built() {
    let dir = scratch_dir("hardening", "line4");
    for (side, jump) in [(500usize, "500"), (1000, "1000")] {
        let mut rows = vec![".".repeat(side); side];
        rows[0].replace_range(0..3, "MCF");
        let grid = dir.join(format!("g{side}.txt"));
        std::fs::write(&grid, rows.join("\n")).unwrap();
        let args = [
            "cat-mouse-grid",
            "--grid-file",
            s(&grid),
            "--cat-jump",
            jump,
            "--mouse-jump",
            jump,
            "--max-memory",
            "100MiB",
        ];
        let started = Instant::now();
        let (code, _, err) = run_within(&args, 10, None);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("over the budget"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    // a crafted table claiming a large grid is refused before its tables exist
    let small = dir.join("small.rtb");
    json_of(&[
        "cat-mouse-grid",
        "--grid",
        "M.C...F",
        "--cat-jump",
        "1",
        "--mouse-jump",
        "1",
        "--out",
        s(&small),
        "--json",
    ]);
    let mut bytes = std::fs::read(&small).unwrap();
    let at = bytes.windows(7).position(|w| w == b"M.C...F").unwrap();
    bytes.splice(at..at + 7, *b"M.C.F..");
    resum(&mut bytes);
    let crafted = dir.join("crafted.rtb");
    std::fs::write(&crafted, &bytes).unwrap();
    let (code, _, err) = run_within(&["query", s(&crafted)], 10, None);
    assert_eq!(code, Some(2), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Recomputes a table file's checksum after an edit, as an attacker would.
fn resum(bytes: &mut [u8]) {
    let body = bytes.len() - 12;
    let sum = retrograde::checksum::Checksum::default()
        .bytes(&bytes[..body])
        .value();
    bytes[body + 4..].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn line_5_verify_case_seconds_are_checked_first() {
    for bad in ["NaN", "inf", "1e30", "-1", "1e19", "0"] {
        let (code, _, err) = run_within(&["verify", "--case-seconds", bad], 5, None);
        assert_eq!(code, Some(2), "{bad}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn line_6_a_table_shrunk_while_it_is_read_never_kills_the_reader() {
    let dir = scratch_dir("hardening", "line6");
    let big = dir.join("big.rtb");
    json_of(&[
        "cat-mouse",
        "--graph-file",
        "benches/data/cat-mouse-2000.json",
        "--out",
        s(&big),
        "--json",
    ]);
    // a gravity table is read mapped into memory: a fault must end it cleanly
    let gravity = dir.join("gravity.rtb");
    json_of(&[
        "connect",
        "--cols",
        "5",
        "--rows",
        "4",
        "--out",
        s(&gravity),
        "--json",
    ]);
    let small = dir.join("small.rtb");
    json_of(&["mnk", "--out", s(&small), "--json"]);
    for (table, delay) in [0u64, 2, 5, 10, 20]
        .into_iter()
        .flat_map(|d| [(&big, d), (&gravity, d)])
    {
        let target = dir.join("q.rtb");
        std::fs::copy(table, &target).unwrap();
        let child = Command::new(BIN)
            .args(["query", s(&target), "--check", "--json"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        std::fs::copy(&small, &target).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            matches!(out.status.code(), Some(0) | Some(2)),
            "delay {delay}: {:?}",
            out.status
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn line_7_an_edited_table_with_a_recomputed_checksum_is_refused() {
    let dir = scratch_dir("hardening", "line7");
    let table = dir.join("t.rtb");
    json_of(&["mnk", "--out", s(&table), "--json"]);
    let original = std::fs::read(&table).unwrap();
    // k 3 → 2 in the parameters
    let mut k2 = original.clone();
    let at = k2.windows(5).position(|w| w == b"\"k\":3").unwrap();
    k2[at + 4] = b'2';
    resum(&mut k2);
    // a reachable board of ply 1 marked unreachable (REAC: tag, length, ply 0's word)
    let mut cleared = original.clone();
    let at = cleared.windows(4).position(|w| w == b"REAC").unwrap() + 12 + 8;
    cleared[at] &= !1;
    resum(&mut cleared);
    // the empty board's depth changed from 9 to 7
    let mut deeper = original.clone();
    let at = deeper.windows(4).position(|w| w == b"DEPT").unwrap() + 12;
    assert_eq!(deeper[at], 9);
    deeper[at] = 7;
    resum(&mut deeper);
    for (name, bytes) in [("k2", k2), ("cleared", cleared), ("deeper", deeper)] {
        let edited = dir.join(format!("{name}.rtb"));
        std::fs::write(&edited, &bytes).unwrap();
        let line = refused(&["query", s(&edited), "--board", "X../.../...", "--json"]);
        assert!(!line.contains("panicked"), "{line}");
        let (code, _, err) = run_within(&["play", s(&edited)], 5, Some(b"a1\n"));
        assert_eq!(code, Some(2), "{name}: {err}");
    }
    // a graph of empty lists in place of the graph
    let graph = dir.join("g.rtb");
    json_of(&[
        "cat-mouse",
        "--graph",
        "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]",
        "--out",
        s(&graph),
        "--json",
    ]);
    let mut bytes = std::fs::read(&graph).unwrap();
    let text = b"[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]";
    let at = bytes.windows(text.len()).position(|w| w == text).unwrap();
    let empty = b"[[],[],[],[],[],[]]                      ";
    let spaced: Vec<u8> = empty[..text.len()].to_vec();
    bytes.splice(at..at + text.len(), spaced);
    resum(&mut bytes);
    let edited = dir.join("g2.rtb");
    std::fs::write(&edited, &bytes).unwrap();
    refused(&["query", s(&edited)]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn line_8_a_save_fits_the_budget_and_the_default_budget_knows_the_limits() {
    // saving streams: a save under an address-space limit near its budget succeeds
    let dir = scratch_dir("hardening", "line8");
    let out = dir.join("bench.rtb");
    let status = Command::new("prlimit")
        .args([
            "--as=1073741824",
            BIN,
            "cat-mouse",
            "--graph-file",
            "benches/data/cat-mouse-2000.json",
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

#[test]
fn line_10_a_fifo_is_no_input_file() {
    let dir = scratch_dir("hardening", "line10");
    let fifo = dir.join("f");
    mkfifo(&fifo);
    for args in [
        vec!["cat-mouse", "--graph-file", s(&fifo)],
        vec![
            "cat-mouse-grid",
            "--grid-file",
            s(&fifo),
            "--cat-jump",
            "1",
            "--mouse-jump",
            "1",
        ],
        vec!["query", s(&fifo)],
        vec!["play", s(&fifo)],
    ] {
        let (code, _, err) = run_within(&args, 5, None);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("FIFO"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn line_11_verify_and_bench_fail_fast_and_stop_when_unread() {
    let v = json_of(&[
        "verify",
        "--max-memory",
        "1MiB",
        "--case-seconds",
        "0.2",
        "--json",
    ]);
    assert!(v["not_reached"].as_u64().unwrap() > 0);
    assert_eq!(v["differ"], 0);
    let started = Instant::now();
    let status = Command::new("sh")
        .args(["-c", &format!("{BIN} verify | head -c 10 > /dev/null")])
        .status()
        .unwrap();
    assert!(status.success());
    assert!(started.elapsed() < Duration::from_secs(10));
    let started = Instant::now();
    refused(&["bench", "--markdown", "/nonexistent-dir/BENCH.md"]);
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn line_12_play_survives_bad_lines_and_refuses_ignored_flags() {
    let mut input = b"\xff\xfe\n".to_vec();
    input.extend(std::iter::repeat_n(b'z', 10_000_000));
    input.extend(b"\nb2\n");
    let (code, out, err) = run_within(&["play", "mnk"], 20, Some(&input));
    assert_eq!(code, Some(0), "{err}");
    let out = String::from_utf8_lossy(&out);
    assert!(out.contains("not text"), "a new prompt after non-UTF-8");
    assert!(out.len() < 100_000, "the bad line is not echoed whole");
    let dir = scratch_dir("hardening", "line12");
    let table = dir.join("t.rtb");
    json_of(&["mnk", "--out", s(&table), "--json"]);
    refused(&["play", s(&table), "--rows", "4"]);
    // play takes --max-memory: a table over it gives way to play by
    // search (as on connect boards); a solve refused on it advises it
    let small_budget = "--rows 4 --cols 4 --max-memory 1KiB";
    let play: Vec<&str> = ["play", "mnk"]
        .into_iter()
        .chain(small_budget.split(' '))
        .collect();
    let (code, _, err) = run_within(&play, 60, Some(b""));
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("playing by search"), "{err}");
    let solve: Vec<&str> = ["mnk", "--engine", "explicit"]
        .into_iter()
        .chain(small_budget.split(' '))
        .collect();
    let line = refused(&solve);
    assert!(line.contains("raise it with --max-memory"), "{line}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn line_13_messages_say_things_once_and_plainly() {
    let line = refused(&["query", "/nonexistent-dir/x.rtb"]);
    assert!(!line.contains("os error"), "{line}");
    let line = refused(&["query", "/"]);
    assert!(line.contains("a directory"), "{line}");
    let line = refused(&[
        "cat-mouse-grid",
        "--grid",
        "M.C...F",
        "--cat-jump",
        "4294967296",
        "--mouse-jump",
        "1",
    ]);
    assert!(line.contains("from 0 to 4294967295"), "{line}");
    // figures that print alike get their bytes
    let needed = retrograde::games::nim::estimate_bytes(100_000_000).0;
    let line = refused(&[
        "nim",
        "--stones",
        "100000000",
        "--max-memory",
        &(needed - 1).to_string(),
    ]);
    assert!(line.contains("bytes"), "{line}");
    let started = Instant::now();
    let out = retrograde(&["mnk", "--threads", "4096", "--json"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("capped"));
    assert!(started.elapsed() < Duration::from_secs(10));
}
