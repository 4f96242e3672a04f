//! Running the `retrograde` binary in the CLI tests.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary with `args`, no standard input.
pub fn retrograde(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retrograde"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// Runs a command that must succeed with exactly one JSON line on stdout
/// and nothing on stderr; returns the object.
pub fn json_of(args: &[&str]) -> serde_json::Value {
    let out = retrograde(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "exactly one JSON line: {text}");
    serde_json::from_str(&text).unwrap()
}

/// Runs a bad command line: exit 2, nothing on stdout, one line on stderr
/// and no panic. Returns that line.
pub fn refused(args: &[&str]) -> String {
    let out = retrograde(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "args {args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "args {args:?}: nothing on stdout");
    assert!(!stderr.contains("panicked"), "args {args:?}: {stderr}");
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "args {args:?}: one line: {stderr}"
    );
    stderr
}

/// Runs the binary with `args` and `input` on standard input, killing it
/// (and failing the test) after `seconds`; returns (exit code, stdout,
/// stderr). The input is written and both outputs are read while the
/// program runs, so a program that reads or writes more than a pipe holds
/// neither blocks nor is taken for a hang.
pub fn run_within(
    args: &[&str],
    seconds: u64,
    input: Option<&[u8]>,
) -> (Option<i32>, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_retrograde"))
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let feeder = input.map(|bytes| {
        let mut stdin = child.stdin.take().expect("piped");
        let bytes = bytes.to_vec();
        // a program that stops reading early closes the pipe: not an error
        std::thread::spawn(move || drop(stdin.write_all(&bytes)))
    });
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).expect("the output");
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped")));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waitable") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(seconds) {
            let _ = child.kill();
            panic!("{args:?} did not finish within {seconds} s (a hang)");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    if let Some(feeder) = feeder {
        feeder.join().expect("the input written");
    }
    let stderr = stderr.join().expect("stderr read");
    (
        status.code(),
        stdout.join().expect("stdout read"),
        String::from_utf8_lossy(&stderr).to_string(),
    )
}

/// Plays `retrograde ARGS` with `input` typed in; the game must end with
/// exit 0. Returns what it printed.
pub fn play_with(args: &[&str], input: &str) -> String {
    let (code, out, err) = run_within(args, 120, Some(input.as_bytes()));
    assert_eq!(code, Some(0), "{args:?}: {err}");
    String::from_utf8(out).expect("text")
}

/// A fresh, empty scratch directory for one test: `retrograde-TAG-PID-NAME`
/// under the system's temporary directory (anything left there by an
/// earlier run of the same process id is removed first).
pub fn scratch_dir(tag: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("retrograde-{tag}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `args` (which must succeed, quietly) and returns its stdout.
pub fn succeeds(args: &[&str]) -> String {
    let out = retrograde(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// Makes a FIFO at `path` (with the system's `mkfifo`).
pub fn mkfifo(path: &std::path::Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}
