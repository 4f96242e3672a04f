//! Beyond reach there is a next step (second audit, line 12): a refusal
//! names the command that goes further, `play connect` beyond a table's
//! reach plays by search, and a search without a time limit says first
//! that it may take long.

use crate::common::cli::{refused, run_within};

#[test]
fn an_m_n_k_board_beyond_both_table_engines_names_the_search() {
    // before: auto handed 7×7 to the symbolic engine, which filled memory
    // for minutes; now it is refused at once with the search's command
    let (code, _, err) = run_within(&["mnk", "--cols", "7", "--rows", "7", "--k", "5"], 30, None);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("`retrograde search mnk --cols 7 --rows 7 --k 5`"),
        "{err}"
    );
    assert!(err.contains("--engine symbolic"), "{err}");
    // 5×5 is within the symbolic engine's measured reach: not refused here
    let err = refused(&["mnk", "--cols", "6", "--rows", "5", "--k", "4"]);
    assert!(err.contains("search mnk --cols 6 --rows 5 --k 4"), "{err}");
}

#[test]
fn a_position_beyond_the_position_language_says_where_it_goes() {
    // a gravity board past 64 cells: its positions are read (issue 74,
    // line 3), but no engine answers them; (issue 73, line 16) the message
    // gives no m,n,k advice for a gravity board
    let err = refused(&[
        "search", "connect", "--cols", "9", "--rows", "9", "--moves", "5",
    ]);
    assert!(
        err.contains("no engine answers positions of a gravity board") && !err.contains("mnk"),
        "{err}"
    );

    // a board past the position language's 16 a side
    let err = refused(&[
        "search", "mnk", "--cols", "17", "--rows", "17", "--k", "5", "--moves", "i9",
    ]);
    assert!(err.contains("sides from 1 to 16"), "{err}");
}

/// `search mnk` with `args` (split at spaces): its exit code, standard
/// output and error.
fn search_mnk(args: &str) -> (Option<i32>, String, String) {
    let all: Vec<&str> = ["search", "mnk"]
        .into_iter()
        .chain(args.split_whitespace())
        .collect();
    let (code, out, err) = run_within(&all, 120, None);
    (code, String::from_utf8(out).unwrap(), err)
}

/// The empty m,n,k board past the search engine's 40 cells is answered by
/// the provers: 7,7,5 by relevance zones, 15,15,9 (past the position
/// language) by a pairing; a board they do not settle in its time limit
/// says "not proved" with exit 3; a position goes to the zone prover and
/// then the search.
#[test]
fn search_mnk_proves_the_empty_board_past_the_engine() {
    let proved = |args: &str| {
        let (code, out, err) = search_mnk(args);
        assert_eq!(code, Some(0), "{args}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let text = |key: &str| v[key].as_str().unwrap_or_default().to_string();
        (text("value"), text("method"), err)
    };
    let (value, method, err) = proved("--cols 7 --rows 7 --k 5 --json");
    assert_eq!((value.as_str(), method.as_str()), ("draw", "zones"));
    assert!(err.contains("past the search's 40 cells"), "{err}");
    let (value, method, _) = proved("--cols 15 --rows 15 --k 9 --json -q");
    assert_eq!((value.as_str(), method.as_str()), ("draw", "pairing"));
    let (code, out, _) = search_mnk("--cols 8 --rows 8 --k 5 --time-limit 1 -q");
    assert_eq!(code, Some(3));
    assert!(out.contains("not proved"), "{out}");
    // a position on such a board goes to the zone prover first: a value
    // without a depth where it proves one, "not reached" where it does not
    let (code, out, err) =
        search_mnk("--cols 7 --rows 7 --k 5 --moves d4 --time-limit 60 --json -q");
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["value"].as_str(), v["depth"].is_null()),
        (Some("draw"), true),
        "{out}"
    );
    let (code, out, _) = search_mnk("--cols 7 --rows 7 --k 5 --moves d4,a1 --time-limit 0.05 -q");
    assert_eq!(code, Some(3));
    assert!(out.contains("not reached"), "{out}");
    // past the provers' sides: one line, before any note (issue 74: the
    // library's words, which name no command)
    let (code, _, err) = search_mnk("--cols 27 --rows 27 --k 5");
    assert_eq!(code, Some(2));
    assert_eq!(
        err.trim(),
        "error: the m,n,k provers take sides of 1 to 26; a 27 × 27 board is past them"
    );
}

#[test]
fn play_connect_beyond_a_table_plays_by_search() {
    // a budget no table fits: the game goes on by search, proved moves
    // showing their values as a table's would
    let (code, out, err) = run_within(
        &[
            "play",
            "connect",
            "--cols",
            "5",
            "--rows",
            "4",
            "--max-memory",
            "1MiB",
        ],
        120,
        Some(b"3\n"),
    );
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("playing by search"), "{err}");
    assert!(
        out.contains("X to move: draw for X in 20 plies under perfect play"),
        "{out}"
    );
    assert!(out.contains("O to move: draw for O in 19 plies"), "{out}");
    assert!(out.contains("O plays "), "{out}");
    // 8×7 (no book) with a short move time: moves not proved are said to
    // be so
    let (code, out, err) = run_within(
        &[
            "play",
            "connect",
            "--cols",
            "8",
            "--rows",
            "7",
            "--move-seconds",
            "0.2",
            "--human",
            "o",
        ],
        120,
        Some(b""),
    );
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("X to move: not proved within the move's time"),
        "{out}"
    );
    assert!(
        out.contains("X plays 4 (not proved") || out.contains("X plays 5 (not proved"),
        "{out}"
    );
    for bad in ["0", "-1", "nan", "1e9"] {
        let err = refused(&[
            "play",
            "connect",
            "--cols",
            "7",
            "--rows",
            "6",
            "--move-seconds",
            bad,
        ]);
        assert!(err.contains("--move-seconds"), "{err}");
    }
    let err = refused(&["play", "mnk", "--move-seconds", "3"]);
    assert!(err.contains("--move-seconds"), "{err}");
}

#[test]
fn play_mnk_beyond_the_table_engines_plays_by_search() {
    // 6×6 with k = 4 (sides past the dense engine's 5): by search, a
    // position within --move-seconds, the program's moves named
    let args = "play mnk --cols 6 --rows 6 --k 4 --human o --move-seconds 5";
    let args: Vec<&str> = args.split(' ').collect();
    let (code, out, err) = run_within(&args, 120, Some(b"a1\n"));
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("playing by search"), "{err}");
    assert!(out.contains("m,n,k board of 6 columns × 6 rows"), "{out}");
    assert_eq!(out.matches("X plays ").count(), 2, "{out}");
    // past the bitboard search's 40 cells: the zone prover, then the
    // general search (7,7,5: the empty board and d4 are proved draws, a
    // value without a depth, and the program plays)
    let args = "play mnk --cols 7 --rows 7 --k 5 --human o --move-seconds 60";
    let args: Vec<&str> = args.split(' ').collect();
    let (code, out, err) = run_within(&args, 300, Some(b""));
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("playing by the zone prover"), "{err}");
    assert!(
        out.contains("X to move: draw for X under perfect play"),
        "{out}"
    );
    assert!(out.contains("X plays d4"), "{out}");
    // past 64 cells: the threat prover (tests/cli/positions.rs), and past
    // the position language's 16 a side refused in one line
    let err = refused(&["play", "mnk", "--cols", "17", "--rows", "17", "--k", "5"]);
    assert!(err.contains("sides from 1 to 16"), "{err}");
}

#[test]
fn a_search_without_a_time_limit_says_it_may_take_long() {
    let (code, _, err) = run_within(
        &["search", "mnk", "--cols", "6", "--rows", "6", "--k", "3"],
        60,
        None,
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("note: no --time-limit"), "{err}");
    let (_, _, err) = run_within(
        &[
            "search",
            "mnk",
            "--cols",
            "6",
            "--rows",
            "6",
            "--k",
            "3",
            "--time-limit",
            "60",
        ],
        60,
        None,
    );
    assert!(err.is_empty(), "{err}");
    let (_, _, err) = run_within(
        &[
            "search", "mnk", "--cols", "6", "--rows", "6", "--k", "3", "-q",
        ],
        60,
        None,
    );
    assert!(err.is_empty(), "{err}");
}
