//! A batch's memory (`search --positions`, issue 26, line 5): its peak
//! does not grow with the number of lines, nor with the answers waiting
//! behind a slow line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_retrograde");

/// The peak resident memory of `args` reading `input` from a pipe, and its
/// stdout lines (counted) and exit code.
#[allow(clippy::zombie_processes, reason = "waited for with wait4")]
fn peak_memory(args: &[&str], input: Vec<u8>) -> (u64, usize, Option<i32>) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = child.stdout.take().unwrap();
    let counter = std::thread::spawn(move || BufReader::new(stdout).lines().count());
    let pid = child.id() as libc::pid_t;
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    // SAFETY: waits for our own child; `status` and `usage` are ours
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    writer.join().unwrap();
    let lines = counter.join().unwrap();
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    (usage.ru_maxrss as u64 * 1024, lines, code)
}

/// 500,000 blank lines with `--max-memory 32MiB` peaked at 181 MB (every
/// line read and kept before the first search, about 400 bytes each). The
/// batch now keeps a few lines in flight: its peak stays within the
/// budget.
// issue 26, line 5
#[test]
fn a_batch_keeps_within_its_memory_whatever_its_length() {
    let lines = 500_000;
    let (peak, answered, code) = peak_memory(
        &[
            "search",
            "mnk",
            "--positions",
            "-",
            "--max-memory",
            "32MiB",
            "--json",
        ],
        vec![b'\n'; lines],
    );
    assert_eq!(code, Some(0));
    assert_eq!(answered, lines);
    assert!(peak < 32 << 20, "peak {peak} bytes");
}

/// Nor do the answers waiting for a slow line pile up: behind an empty
/// 7 × 6 board searched for a second (without its book), 200,000 quick lines are read only as
/// the answers before them are written.
// issue 26, line 5
#[test]
fn answers_waiting_for_a_slow_line_do_not_pile_up() {
    let quick = 200_000;
    let mut input = b"\n".to_vec();
    for _ in 0..quick {
        input.extend(b"121212\n");
    }
    let (peak, answered, code) = peak_memory(
        &[
            "search",
            "connect",
            "--positions",
            "-",
            "--no-book",
            "--time-limit",
            "1",
            "--threads",
            "2",
            "--max-memory",
            "8MiB",
            "--json",
        ],
        input,
    );
    assert_eq!(code, Some(3));
    assert_eq!(answered, quick + 1);
    assert!(peak < 32 << 20, "peak {peak} bytes");
}
