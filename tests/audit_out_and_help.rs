//! Regression tests for three lines of issue 26 (the second audit): `--out`
//! replacing files that are not tables (line 9), a bad batch line echoed
//! whole and twice (line 8, its last part) and help texts that say less or
//! other than the program does (line 16). Each test is named for its line.

#[path = "common/cli.rs"]
mod cli_support;

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
