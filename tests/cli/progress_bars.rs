//! The progress bars as a terminal shows them (util-linux's `script` gives
//! the run a pseudo-terminal): no "0/0" before a stage has its size, a ply
//! bar that counts plies done (never backwards), and an ETA on the passes
//! over plies (issue 73, line 15).

use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_retrograde");

/// What `retrograde ARGS` draws on a terminal's stderr.
fn drawn(args: &str) -> String {
    let out = Command::new("script")
        .args([
            "-q",
            "-e",
            "-c",
            &format!("{BIN} {args} > /dev/null"),
            "/dev/null",
        ])
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .output()
        .expect("util-linux's script runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn bars_never_show_zero_of_zero_and_ply_bars_count_plies_done_with_an_eta() {
    let states = drawn("mnk --cols 4 --rows 4 --k 3");
    assert!(!states.contains(" 0/0 "), "{states:?}");
    let plies = drawn("connect --cols 5 --rows 4 --engine symbolic");
    assert!(
        plies.contains("plies done") && plies.contains("ETA") && !plies.contains(" 0/0 "),
        "{plies:?}"
    );
    // the count of plies done within each stage only grows
    for stage in ["forward", "backward"] {
        let done: Vec<u32> = plies
            .split(stage)
            .skip(1)
            .filter_map(|part| {
                let at = part.find(" plies done")?;
                let before = &part[..at];
                let slash = before.rfind('/')?;
                let start = before[..slash].rfind(' ')? + 1;
                before[start..slash].parse().ok()
            })
            .collect();
        assert!(done.windows(2).all(|w| w[0] <= w[1]), "{stage}: {done:?}");
    }
}
