//! `retrograde check-proof FILE`: the certificates `prove mnk --proof`
//! writes, of each kind, are accepted by the independent checker (the
//! crate `retrograde_checker`); a damaged copy (a move changed, a line
//! dropped) and a file that is no certificate are refused with a reason
//! (exit 1); a file that cannot be read is an error (exit 2).
// issue 74, line 6

use std::path::{Path, PathBuf};

use crate::common::cli::{refused, retrograde, scratch_dir, succeeds};

/// Proves with `prove mnk ARGS --proof DIR/NAME` and returns the
/// certificate's path.
fn proved(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let path = dir.join(name);
    let proof = path.to_str().unwrap();
    succeeds(&[&["prove", "mnk"][..], args, &["--proof", proof]].concat());
    path
}

/// `check-proof FILE` (and `ARGS`): exit code, stdout, stderr.
fn check(file: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = retrograde(&[&["check-proof", file.to_str().unwrap()][..], args].concat());
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Checks that `file` is accepted with the line `FILE: accepted: WHAT…`,
/// `WHAT` starting with `what`, and that `--json` says the same of `kind`,
/// `board` and `claims`; the positions replayed.
fn accepted(file: &Path, what: &str, kind: &str, board: [u64; 3], claims: &[&str]) -> Option<u64> {
    let (code, out, err) = check(file, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    let prefix = format!("{}: accepted: {what}", file.display());
    assert!(
        out.starts_with(&prefix) && out.lines().count() == 1,
        "{out}"
    );
    assert!(err.is_empty(), "{err}");
    let (code, out, _) = check(file, &["--json"]);
    assert_eq!(code, Some(0), "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["file"], file.to_str().unwrap());
    assert_eq!(json["accepted"], true, "{json}");
    assert_eq!(json["kind"], kind, "{json}");
    let size: Vec<u64> = ["cols", "rows", "k"]
        .iter()
        .map(|key| json[key].as_u64().unwrap())
        .collect();
    assert_eq!(size, board, "{json}");
    assert_eq!(json["claims"], serde_json::json!(claims), "{json}");
    assert!(json["why"].is_null(), "{json}");
    json["positions"].as_u64()
}

/// Checks that `text`, written to `file`, is refused (exit 1) with one line
/// `FILE: refused: WHY` holding `why`, and by `--json` with the same reason
/// and `kind`.
fn refused_as(file: &Path, text: &str, why: &str, kind: Option<&str>) {
    std::fs::write(file, text).unwrap();
    let (code, out, err) = check(file, &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    let prefix = format!("{}: refused: ", file.display());
    assert!(out.starts_with(&prefix), "{out}");
    assert!(out.contains(why), "{why:?} not in {out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(err.is_empty(), "{err}");
    let (code, out, _) = check(file, &["--json"]);
    assert_eq!(code, Some(1), "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["accepted"], false, "{json}");
    assert_eq!(json["kind"], serde_json::json!(kind), "{json}");
    assert!(json["why"].as_str().unwrap().contains(why), "{json}");
    assert!(
        json["positions"].is_null() && json["cols"].is_null(),
        "{json}"
    );
}

/// The text without its first line that starts with `prefix`.
fn without_first(text: &str, prefix: &str) -> String {
    let line = text.lines().find(|l| l.starts_with(prefix)).unwrap();
    text.replacen(&format!("{line}\n"), "", 1)
}

/// The text with the cell of its first line starting with `prefix` (the
/// line's last word) changed to `cell`.
fn moved(text: &str, prefix: &str, cell: &str) -> String {
    let line = text.lines().find(|l| l.starts_with(prefix)).unwrap();
    let (head, _) = line.rsplit_once(' ').unwrap();
    text.replacen(line, &format!("{head} {cell}"), 1)
}

/// How many of the copies of `text` [`moved`] to each of `cells`, written
/// to `file`, are refused.
fn refused_moves(file: &Path, text: &str, prefix: &str, cells: &[&str]) -> usize {
    cells
        .iter()
        .filter(|cell| {
            std::fs::write(file, moved(text, prefix, cell)).unwrap();
            check(file, &[]).0 == Some(1)
        })
        .count()
}

#[test]
fn a_pairing_is_accepted_and_a_copy_without_a_pair_refused() {
    let dir = scratch_dir("check-proof", "pairing");
    let file = proved(
        &dir,
        "555.proof",
        &["--cols", "5", "--rows", "5", "--k", "5"],
    );
    let positions = accepted(
        &file,
        "a pairing certificate of 5,5,5: X draws, O draws (every line of 5 holds a pair)",
        "pairing",
        [5, 5, 5],
        &["X draws", "O draws"],
    );
    assert_eq!(positions, None, "a pairing replays no position");
    let text = std::fs::read_to_string(&file).unwrap();
    // the last pair dropped: its line holds no pair
    let last = text.lines().last().unwrap();
    let damaged = text.replacen(&format!("{last}\n"), "", 1);
    refused_as(
        &dir.join("damaged"),
        &damaged,
        "holds no pair",
        Some("pairing"),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_proof_tree_of_the_win_prover_is_accepted_and_damaged_copies_refused() {
    let dir = scratch_dir("check-proof", "tree");
    let args = ["--cols", "4", "--rows", "3", "--k", "3", "--method", "win"];
    let file = proved(&dir, "433.proof", &args);
    let positions = accepted(
        &file,
        "a proof certificate of 4,3,3: X wins (",
        "proof-tree",
        [4, 3, 3],
        &["X wins"],
    );
    assert!(positions.unwrap() > 10, "{positions:?}");
    let text = std::fs::read_to_string(&file).unwrap();
    let damaged = dir.join("damaged");
    refused_as(
        &damaged,
        &without_first(&text, "move "),
        "no move listed",
        Some("proof-tree"),
    );
    // the first move changed: some other cell does not win (not every cell does)
    let cells = ["a1", "b1", "c1", "d1", "a2", "d2", "a3", "b3", "c3", "d3"];
    let broken = refused_moves(&damaged, &text, "move ..../..../.... ", &cells);
    assert!(broken > 0, "every first move still replays");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_zone_proof_is_accepted_and_damaged_copies_refused() {
    let dir = scratch_dir("check-proof", "zones");
    let file = proved(
        &dir,
        "775.proof",
        &["--cols", "7", "--rows", "7", "--k", "5"],
    );
    let positions = accepted(
        &file,
        "a zone proof certificate of 7,7,5: X draws, O draws (",
        "zone-proof",
        [7, 7, 5],
        &["X draws", "O draws"],
    );
    assert!(positions.unwrap() > 1_000, "{positions:?}");
    let text = std::fs::read_to_string(&file).unwrap();
    let damaged = dir.join("damaged");
    refused_as(
        &damaged,
        &without_first(&text, "pairing "),
        "no fitting entry",
        Some("zone-proof"),
    );
    // a part's line dropped: its root is proved nowhere
    let second_part = text
        .lines()
        .filter(|l| l.starts_with("part "))
        .nth(1)
        .unwrap();
    let without_part = text.replacen(&format!("{second_part}\n"), "", 1);
    std::fs::write(&damaged, without_part).unwrap();
    assert_eq!(check(&damaged, &[]).0, Some(1));
    // the first move changed: some other cell is refused
    let broken = refused_moves(&damaged, &text, "move ", &["a1", "b2", "c3", "d4", "g7"]);
    assert!(broken >= 2, "{broken}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_threat_proof_is_accepted_with_its_position_and_damaged_copies_refused() {
    let dir = scratch_dir("check-proof", "threats");
    let args = [
        "--cols",
        "15",
        "--rows",
        "15",
        "--k",
        "5",
        "--method",
        "threats",
        "--after",
        "h8,a1,i9,a15",
        "--max-memory",
        "256MiB",
    ];
    let file = proved(&dir, "gomoku.proof", &args);
    let positions = accepted(
        &file,
        "a threat proof certificate of 15,15,5: X wins from the position of X h8 i9, O a1 a15 (",
        "threat-proof",
        [15, 15, 5],
        &["X wins"],
    );
    assert!(positions.unwrap() > 1_000, "{positions:?}");
    let text = std::fs::read_to_string(&file).unwrap();
    let (_, out, _) = check(&file, &["--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let root = text.lines().find_map(|l| l.strip_prefix("root ")).unwrap();
    assert_eq!(json["root"], root, "{json}");
    let damaged = dir.join("damaged");
    // the root's entry dropped, or its move sent to a far corner
    let root_entry = format!("move {root} ");
    for copy in [
        without_first(&text, &root_entry),
        moved(&text, &root_entry, "o1"),
    ] {
        refused_as(&damaged, &copy, "the claim fails: ", Some("threat-proof"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn what_is_no_certificate_is_refused() {
    let dir = scratch_dir("check-proof", "none");
    let file = dir.join("notes.txt");
    refused_as(&file, "notes\n", "not a certificate", None);
    refused_as(&file, "", "an empty file", None);
    refused_as(
        &file,
        "# retrograde zone proof certificate 9\n",
        "names no certificate",
        None,
    );
    std::fs::write(&file, [0xff, 0xfe, 0]).unwrap();
    let (code, out, _) = check(&file, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("refused: the file is not UTF-8 text"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_that_cannot_be_read_and_bad_flags_exit_2() {
    let dir = scratch_dir("check-proof", "unread");
    let missing = dir.join("missing.proof");
    let err = refused(&["check-proof", missing.to_str().unwrap()]);
    assert!(
        err.contains("cannot read") && err.contains("missing.proof"),
        "{err}"
    );
    let err = refused(&["check-proof", dir.to_str().unwrap()]);
    assert!(err.contains("not a regular file"), "{err}");
    // larger than the memory budget: refused unread, with its size
    let big = dir.join("big.proof");
    std::fs::write(&big, "# retrograde pairing certificate 1\n".repeat(100)).unwrap();
    let err = refused(&["check-proof", big.to_str().unwrap(), "--max-memory", "1KiB"]);
    assert!(
        err.contains("3,500 bytes") && err.contains("memory budget of 1.0 KiB"),
        "{err}"
    );
    refused(&["check-proof"]);
    refused(&["check-proof", big.to_str().unwrap(), "--max-memory", "lots"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The fixtures of issue 86, kept in `tests/fixtures/proofs/`.
fn fixture(name: &str) -> PathBuf {
    crate::common::root()
        .join("tests/fixtures/proofs")
        .join(name)
}

/// A forged zone proof of a false claim (4,1,2 is a first-player win) is
/// refused, with the position where the attacker's immediate win was left
/// out; the checker before issue 86 accepted it as a draw.
#[test]
fn the_forged_zone_proof_is_refused() {
    let (code, out, _) = check(&fixture("zone-forgery-4-1-2.proof"), &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("refused: the defender, to move, faces two completion cells (a1 and c1)"),
        "{out}"
    );
}

/// A valid 11 KB threat certificate whose check held past 4 GB and aborted
/// (issue 86): within `--max-memory` or `--time-limit` the check stops
/// with one line and exit 2, no verdict.
#[test]
fn a_check_past_its_budget_stops_with_one_line() {
    let bomb = fixture("threat-check-bomb.proof");
    let bomb = bomb.to_str().unwrap();
    let err = refused(&["check-proof", bomb, "--max-memory", "64MiB"]);
    assert!(
        err.contains("not checked: the check would hold more than")
            && err.contains("raise --max-memory"),
        "{err}"
    );
    let err = refused(&["check-proof", bomb, "--time-limit", "0.5"]);
    assert!(
        err.contains("not checked: the check ran past its time limit of 0.5 s"),
        "{err}"
    );
    refused(&["check-proof", bomb, "--time-limit", "0"]);
}
