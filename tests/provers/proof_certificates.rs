//! Proof certificates replayed by the checker written apart from the
//! library (`retrograde_checker::proof_tree`, in `checker/`: it knows only
//! the rules, its own lines and its own parser, and tries every reply of
//! the player who does not prove).

use retrograde::{
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::proof_tree::{certificate, claims_of, Claim, Goal},
    engines::search::Precision,
    BoardSize, Family,
};
use retrograde_checker::proof_tree::check_certificate;

use crate::common::cli::{retrograde, scratch_dir};

/// The certificate of the empty board's value, as the library writes it.
fn certificate_of(cols: u32, rows: u32, k: u32) -> String {
    let searcher = BoardSearcher::quiet(
        Bitboard::new(Family::Mnk, BoardSize { cols, rows, k }).unwrap(),
        1 << 20,
    );
    let value = searcher
        .search(0, 0, Precision::Weak)
        .unwrap()
        .unwrap()
        .value;
    let (text, _) = certificate(&searcher, &claims_of(value), 1 << 22).unwrap();
    text
}

#[test]
fn the_certificates_of_small_boards_replay() {
    for (cols, rows, k, claims) in [
        (3, 3, 3, &["X draws", "O draws"][..]),
        (4, 3, 3, &["X wins"][..]),
        (3, 4, 3, &["X wins"][..]),
        (4, 4, 3, &["X wins"][..]),
        (4, 4, 4, &["X draws", "O draws"][..]),
        (5, 4, 4, &["X draws", "O draws"][..]),
    ] {
        let text = certificate_of(cols, rows, k);
        assert_eq!(
            check_certificate(&text),
            Ok(claims.iter().map(|c| c.to_string()).collect()),
            "{cols}×{rows} k = {k}"
        );
    }
}

#[test]
fn the_checker_refuses_a_damaged_certificate() {
    let text = certificate_of(4, 4, 3);
    // the first move swapped for another cell, one by one: some swap must
    // break the proof (not every cell wins)
    let first_move = text.lines().find(|l| l.starts_with("move ")).unwrap();
    let broken = ["a1", "b1", "c1", "d1", "a2", "d2"]
        .iter()
        .filter(|cell| {
            let line = format!("move ..../..../..../.... {cell}");
            check_certificate(&text.replacen(first_move, &line, 1)).is_err()
        })
        .count();
    assert!(broken > 0, "every first move still replays");
    // a claim for the wrong player, an entry dropped, a bad header
    assert!(check_certificate(&text.replacen("claim X wins", "claim O wins", 1)).is_err());
    let second = text
        .lines()
        .filter(|l| l.starts_with("move "))
        .nth(1)
        .unwrap();
    assert!(check_certificate(&text.replacen(&format!("{second}\n"), "", 1)).is_err());
    assert!(check_certificate(&text.replacen("certificate 1", "certificate 9", 1)).is_err());
    assert!(text.contains("\nmnk 4 4 3\n"));
    for header in [
        "mnk 4 4 0",
        "mnk 0 4 3",
        "mnk 4 0 3",
        "mnk 4 4",
        "mnk 4 4 x",
    ] {
        let forged = text.replacen("\nmnk 4 4 3\n", &format!("\n{header}\n"), 1);
        assert!(check_certificate(&forged).is_err(), "{header} refused");
    }
    // a draw's pairing with one pair dropped
    let draw = certificate_of(5, 4, 4);
    let pairing = draw
        .lines()
        .find(|l| l.starts_with("pairing "))
        .expect("a pairing leaf");
    let mut words: Vec<&str> = pairing.split(' ').collect();
    words.truncate(words.len() - 2);
    assert!(check_certificate(&draw.replacen(pairing, &words.join(" "), 1)).is_err());
}

#[test]
fn a_false_claim_is_refused_by_the_builder() {
    let searcher = BoardSearcher::quiet(
        Bitboard::new(Family::Mnk, BoardSize::new(3, 3, 3)).unwrap(),
        1 << 16,
    );
    let claim = Claim {
        prover_is_x: true,
        goal: Goal::Win,
    };
    assert!(certificate(&searcher, &[claim], 1 << 20).is_err());
}

/// `prove mnk` on a board without a pairing proves the first player's win
/// by proof-number search and writes a certificate that replays.
#[test]
fn prove_mnk_writes_a_proof_tree_that_replays() {
    let dir = scratch_dir("proof", "tree");
    let proof = dir.join("4-4-3.txt");
    let path = proof.to_str().unwrap();
    let out = retrograde(&[
        "prove", "mnk", "--cols", "4", "--rows", "4", "--k", "3", "--json", "--proof", path,
    ]);
    assert!(out.status.success(), "{out:?}");
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(
        json.contains(r#""value":"first""#) && json.contains(r#""method":"proof-number search""#),
        "{json}"
    );
    let text = std::fs::read_to_string(&proof).unwrap();
    assert_eq!(check_certificate(&text), Ok(vec!["X wins".to_string()]));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Replays the certificate file named by `RG_PROOF` (a documented run:
/// `RG_PROOF=FILE cargo test --release --test provers
/// proof_certificates:: -- --ignored`), printing the claims it proves.
#[test]
#[ignore]
fn replay_a_certificate_file() {
    let path = std::env::var("RG_PROOF").expect("RG_PROOF names a certificate file");
    let text = std::fs::read_to_string(&path).unwrap();
    let claims = check_certificate(&text).unwrap_or_else(|why| panic!("{path}: {why}"));
    eprintln!("{path}: proved {claims:?}");
}

/// The certificates kept in results/proofs/ (9,4,4 and 10,4,4, the
/// first player's wins; xz-compressed, read through the `xz` program):
/// each replays to "X wins". A documented run of about 15 s.
#[test]
#[ignore]
fn the_kept_certificates_replay() {
    for name in ["9-4-4", "10-4-4"] {
        let path = format!(
            "{}/results/proofs/{name}.txt.xz",
            crate::common::root().display()
        );
        let out = std::process::Command::new("xz")
            .args(["-dc", &path])
            .output()
            .expect("the xz program decompresses the kept certificates");
        assert!(out.status.success(), "xz -dc {path}");
        let text = String::from_utf8(out.stdout).unwrap();
        let claims = check_certificate(&text).unwrap_or_else(|why| panic!("{path}: {why}"));
        assert_eq!(claims, ["X wins"], "{path}");
    }
}

/// A search that does not finish within `--time-limit` proves nothing:
/// exit 3, "not proved" with the reason, no certificate written.
#[test]
fn prove_mnk_out_of_time_claims_nothing() {
    let dir = scratch_dir("proof", "late");
    let proof = dir.join("9-4-4.txt");
    let path = proof.to_str().unwrap();
    // a first-player win: the zone prover does not settle it, the search
    // needs far more than half a second
    let out = retrograde(&[
        "prove",
        "mnk",
        "--cols",
        "9",
        "--rows",
        "4",
        "--k",
        "4",
        "--time-limit",
        "0.5",
        "--proof",
        path,
    ]);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("not proved") && text.contains("within the time limit of 0.5 s"),
        "{text}"
    );
    assert!(!proof.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Certificates of the df-pn win prover replay like the search's.
#[test]
fn the_win_provers_certificates_replay() {
    use retrograde::engines::win::win_certificate;
    for (cols, rows, k) in [(4, 4, 3), (5, 4, 3), (6, 5, 4)] {
        let board = Bitboard::new(Family::Mnk, BoardSize { cols, rows, k }).unwrap();
        let (text, size, _) = win_certificate(&board, true, 1 << 22, None, None, None)
            .unwrap()
            .unwrap_or_else(|v| panic!("{cols},{rows},{k}: {v:?}"));
        assert!(size.moves > 0);
        assert_eq!(
            check_certificate(&text),
            Ok(vec!["X wins".to_string()]),
            "{cols},{rows},{k}"
        );
    }
}
