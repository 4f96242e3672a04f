//! Running the `retrograde` binary in the CLI tests.
#![allow(dead_code)]

use std::process::{Command, Output, Stdio};

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
