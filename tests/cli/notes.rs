//! Commands that can run long say so on stderr before they go quiet
//! (issue 86: `play connect --cols 7 --rows 6` was silent for 10 s before
//! its first prompt; `prove mnk` ran for minutes without a word): the
//! note says what runs and until when, and a quick run or `--json` prints
//! none.

use crate::common::cli::{retrograde, run_within};

// issue 86: a proof that runs past a moment says what it runs and when it
// stops; a quick one, --json and --quiet say nothing
#[test]
fn prove_mnk_says_what_it_runs_and_until_when_once_it_runs_past_a_moment() {
    let run = |extra: &'static [&'static str]| {
        std::thread::spawn(move || {
            let args = [
                &[
                    "prove",
                    "mnk",
                    "--cols",
                    "8",
                    "--rows",
                    "8",
                    "--k",
                    "5",
                    "--time-limit",
                    "3",
                    "--threads",
                    "1",
                ][..],
                extra,
            ]
            .concat();
            run_within(&args, 60, None)
        })
    };
    // side by side: each takes its 3 s (8,8,5 is not proved in them)
    let (plain, json, quiet) = (run(&[]), run(&["--json"]), run(&["--quiet"]));
    let (code, out, err) = plain.join().unwrap();
    assert_eq!(code, Some(3), "{err}");
    assert!(String::from_utf8_lossy(&out).contains("not proved"));
    let notes: Vec<&str> = err.lines().collect();
    assert_eq!(notes.len(), 1, "one line: {err}");
    for words in [
        "note: still running after 2 s: proving 8,8,5",
        "zone prover",
        "stops after 3 s",
        "--time-limit",
    ] {
        assert!(notes[0].contains(words), "{words:?}: {err}");
    }
    for (flag, run) in [("--json", json), ("--quiet", quiet)] {
        let (code, _, err) = run.join().unwrap();
        assert_eq!(code, Some(3), "{flag}: {err}");
        assert!(err.is_empty(), "{flag}: {err}");
    }
    // settled at once (a pairing): no note
    let out = retrograde(&["prove", "mnk", "--cols", "5", "--rows", "5", "--k", "5"]);
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// issue 86: `play connect --cols 7 --rows 6` searched the player's own
// position for its value, up to --move-seconds, before the first prompt,
// and nothing said so
#[test]
fn play_by_search_says_before_its_first_search_that_the_players_positions_are_searched() {
    let args = [
        "play",
        "connect",
        "--cols",
        "7",
        "--rows",
        "6",
        "--move-seconds",
        "0.2",
    ];
    // the input ends at the first prompt: the game ends there, exit 0
    let (code, out, err) = run_within(&args, 60, Some(b""));
    assert_eq!(code, Some(0), "{err}");
    assert!(String::from_utf8_lossy(&out).contains("your move"));
    let note = err
        .lines()
        .find(|l| l.starts_with("note: "))
        .unwrap_or_else(|| panic!("a note: {err}"));
    for words in [
        "playing by search",
        "up to 0.2 s",
        "yours too before your prompt",
        "--move-seconds S to change",
    ] {
        assert!(note.contains(words), "{words:?}: {note}");
    }
    // --quiet: no note
    let quiet = [&args[..], &["--quiet"]].concat();
    let (code, _, err) = run_within(&quiet, 60, Some(b""));
    assert_eq!(code, Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}
