//! Regression tests for three lines of issue 26 (the second audit): `--out`
//! replacing files that are not tables (line 9), a bad batch line echoed
//! whole and twice (line 8, its last part) and help texts that say less or
//! other than the program does (line 16). Each test is named for its line.

#[path = "common/cli.rs"]
mod cli_support;

use std::path::Path;

use cli_support::{refused, retrograde};

/// Runs `args` (which must succeed, quietly) and returns its stdout.
fn succeeds(args: &[&str]) -> String {
    let out = retrograde(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// A bad batch line of a megabyte: it was quoted whole, twice (as the
/// line and as its one move), into a 2 MB line on stderr; now the line is
/// quoted at most once, shortened to its start and its length in bytes.
/// (Where the message goes — stderr, or the bad line's answer — is the
/// batch loop's business; this looks at both outputs.)
#[test]
fn line_8_a_bad_batch_line_is_quoted_once_and_shortened() {
    let long = "x".repeat(1_000_000);
    let two_moves = format!("a1 {}", "b".repeat(1_000_000));
    let full_column = "1".repeat(1_000_000);
    for (game, line) in [
        ("mnk", long.as_str()),
        ("mnk", two_moves.as_str()),
        ("connect", full_column.as_str()),
    ] {
        let (code, said) = batch(game, format!("\n{line}\n").as_bytes());
        let shown = &said[..said.len().min(400)];
        assert!(
            code.is_some_and(|c| c != 0),
            "{game}: exit {code:?}: {shown}"
        );
        assert!(!said.contains("panicked"), "{shown}");
        assert!(
            said.len() < 1000,
            "{game}: {} bytes said: {shown}",
            said.len()
        );
        assert!(said.contains("line 2"), "{said}");
        assert!(said.contains(&format!("({} bytes)", line.len())), "{said}");
        // the line's start appears once, not as the line and again as its move
        assert_eq!(said.matches(&line[..40]).count(), 1, "{said}");
    }
    // a short bad line is quoted whole, once
    let (code, said) = batch("mnk", b"zz\n");
    assert_eq!(code, Some(2));
    assert_eq!(said.matches("zz").count(), 1, "{said}");
    assert!(said.contains("\"zz\""), "{said}");
}

/// Runs `search GAME --positions -` on a 4×4 board with `input`, reading
/// its output while it runs (a long line on stderr fills no pipe);
/// returns the exit code and what it printed (stdout, then stderr).
fn batch(game: &str, input: &[u8]) -> (Option<i32>, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_retrograde"))
        .args([
            "search",
            game,
            "--cols",
            "4",
            "--rows",
            "4",
            "--positions",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // a program that stops reading early closes the pipe: not an error
    let feeder = std::thread::spawn(move || drop(stdin.write_all(&input)));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    let mut said = String::from_utf8_lossy(&out.stdout).into_owned();
    said.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), said)
}

/// Top-level help: `play`, `search` and `verify` were described as m,n,k
/// only, though each covers gravity boards (Connect Four) too.
#[test]
fn line_16_top_level_help_names_gravity_boards_where_they_are_covered() {
    let help = succeeds(&["--help"]);
    for command in ["play", "search", "verify"] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{command} ")))
            .unwrap_or_else(|| panic!("no {command} in {help}"));
        assert!(
            line.contains("Connect") || line.contains("gravity"),
            "{command}: {line}"
        );
    }
    let search = succeeds(&["search", "--help"]);
    assert!(
        search.lines().next().unwrap().contains("gravity"),
        "{search}"
    );
    let play = succeeds(&["play", "--help"]);
    assert!(play.contains("play connect"), "{play}");
}

/// `play --help` listed `--json`, which play then refuses: it is not
/// listed now, and still refused in one line.
#[test]
fn line_16_play_does_not_list_json() {
    let help = succeeds(&["play", "--help"]);
    assert!(!help.contains("--json"), "{help}");
    let stderr = refused(&["play", "mnk", "--json"]);
    assert!(stderr.contains("--json"), "{stderr}");
}

/// `--max-memory`'s default: help said "80% of physical memory", the
/// README (and the code, `Budget::default_for_machine`) the least of
/// physical memory, the cgroup's limit and the address-space limit. Help
/// and README now say the same sentence.
#[test]
fn line_16_max_memory_default_is_said_as_the_code_computes_it() {
    const DEFAULT: &str = "80% of the least of physical memory, the cgroup's memory limit and the address-space limit";
    let squeeze = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    for command in [
        &["mnk", "--help"][..],
        &["connect", "--help"],
        &["search", "connect", "--help"],
        &["verify", "--help"],
        &["play", "--help"],
        &["cat-mouse", "--help"],
    ] {
        let help = squeeze(&succeeds(command));
        assert!(help.contains(DEFAULT), "{command:?}: {help}");
        assert!(!help.contains("80% of physical memory"), "{command:?}");
    }
    let readme = squeeze(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap(),
    );
    assert!(readme.contains(DEFAULT));
    assert!(!readme.contains("80% of physical memory"));
    assert!(!readme.contains("80% of what the process may use"));
}
