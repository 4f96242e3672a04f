//! Pairing certificates checked by the checker written apart from the
//! library (`retrograde_checker::pairing`, in `checker/`: it shares no code
//! with `prove::pairing`, its own parser, its own lines, its own cell
//! names), and pairings set against the search on random positions: a
//! pairing for one player must mean the other cannot win.

use retrograde::{
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::pairing::{find_pairing, Holder, PairingBoard},
    engines::search::Precision,
    language::Outcome,
    BoardSize, Family,
};
use retrograde_checker::lines::all_lines;
use retrograde_checker::pairing::check_certificate;

use crate::common::cli::{retrograde, scratch_dir};
use crate::common::Rng;

fn certificate(cols: u32, rows: u32, k: u32) -> String {
    let board = PairingBoard::new(BoardSize { cols, rows, k }).unwrap();
    let pairing = find_pairing(board, &vec![Holder::Empty; board.cells()])
        .unwrap_or_else(|| panic!("{cols}×{rows}, k = {k}: no pairing found"));
    pairing.to_certificate()
}

#[test]
fn certificates_of_the_pairing_draws_pass_the_checker() {
    for (cols, rows, k) in [
        (5, 5, 5),
        (6, 6, 6),
        (7, 7, 6),
        (8, 8, 8),
        (9, 9, 9),
        (11, 11, 8),
        (13, 13, 9),
        (15, 15, 10),
        (19, 19, 11),
        (19, 8, 8),
        // the periodic pairing of Hales & Jewett
        (15, 15, 9),
        (19, 19, 9),
        (26, 26, 9),
        (26, 9, 9),
    ] {
        let text = certificate(cols, rows, k);
        assert_eq!(
            check_certificate(&text),
            Ok((cols as i32, rows as i32, k as i32)),
            "{cols}×{rows} k = {k}"
        );
    }
}

#[test]
fn the_checker_refuses_a_damaged_certificate() {
    let text = certificate(8, 8, 8);
    let pair_lines: Vec<&str> = text
        .lines()
        .filter(|l| l.len() <= 7 && l.contains(' '))
        .collect();
    assert!(
        pair_lines.len() >= 18,
        "8×8 has 18 lines, each needs a pair"
    );
    // a pair dropped: its line is open
    let dropped = text.replacen(&format!("{}\n", pair_lines[3]), "", 1);
    assert!(check_certificate(&dropped).is_err());
    // a cell used twice
    let (first, _) = pair_lines[0].split_once(' ').unwrap();
    let (_, second) = pair_lines[1].split_once(' ').unwrap();
    let twice = text.replacen(pair_lines[1], &format!("{first} {second}"), 1);
    assert!(check_certificate(&twice).is_err());
    // a cell off the board, a bad header, a bad board
    assert!(check_certificate(&text.replacen(pair_lines[2], "a1 i9", 1)).is_err());
    assert!(check_certificate(&text.replacen("certificate 1", "certificate 2", 1)).is_err());
    assert!(check_certificate(&text.replacen("mnk 8 8 8", "mnk 8 8 7", 1)).is_err());
}

/// On 200 seeded 5×5 positions (7 to 14 stones) with neither line made,
/// lines of 4 and of 5: when a pairing is found for one player, the search
/// proves the other cannot win, whoever is to move.
#[test]
fn a_pairing_means_the_other_player_cannot_win() {
    let mut won = 0;
    for k in [4, 5] {
        let (paired, decided) = pairings_agree_with_the_search(k);
        assert!(paired >= 20, "k = {k}: only {paired} pairings");
        won += decided;
    }
    // the check has teeth: positions the attacker wins were tried
    assert!(won >= 100, "only {won} won positions");
}

/// The number of pairings found and of positions won (by either player).
fn pairings_agree_with_the_search(k: u32) -> (usize, usize) {
    let (cols, rows) = (5u32, 5u32);
    let board = PairingBoard::new(BoardSize { cols, rows, k }).unwrap();
    let searcher = BoardSearcher::quiet(
        Bitboard::new(Family::Mnk, BoardSize { cols, rows, k }).unwrap(),
        1 << 20,
    );
    let lines = all_lines(cols as i32, rows as i32, k as i32);
    let mut rng = Rng::new(29);
    let (mut tried, mut paired, mut decided) = (0, 0, 0);
    while tried < 200 {
        // 0: empty, 1: X, 2: O; X moves first
        let mut who = vec![0u8; 25];
        let stones = 7 + rng.below(8) as usize;
        for s in 0..stones {
            let empty: Vec<usize> = (0..25).filter(|&c| who[c] == 0).collect();
            who[empty[rng.below(empty.len() as u64) as usize]] = 1 + (s % 2) as u8;
        }
        let has_line = |p: u8| {
            lines
                .iter()
                .any(|l| l.iter().all(|&(x, y)| who[(y * 5 + x) as usize] == p))
        };
        if has_line(1) || has_line(2) {
            continue;
        }
        tried += 1;
        let to_move = if stones.is_multiple_of(2) { 1 } else { 2 };
        // the bitboard: column c is bits c·6 .., row 0 at the bottom
        let bit = |c: usize| 1u64 << ((c % 5) * 6 + (4 - c / 5));
        let x: u64 = (0..25)
            .filter(|&c| who[c] == 1)
            .map(bit)
            .fold(0, |a, b| a | b);
        let o: u64 = (0..25)
            .filter(|&c| who[c] == 2)
            .map(bit)
            .fold(0, |a, b| a | b);
        let value = searcher
            .search(x, x | o, Precision::Weak)
            .unwrap()
            .unwrap()
            .value;
        decided += usize::from(value != Outcome::Draw);
        for defender in [1u8, 2] {
            let holders: Vec<Holder> = who
                .iter()
                .map(|&w| match w {
                    0 => Holder::Empty,
                    w if w == defender => Holder::Defender,
                    _ => Holder::Attacker,
                })
                .collect();
            if find_pairing(board, &holders).is_none() {
                continue;
            }
            paired += 1;
            // the attacker (the other player) cannot win
            let attacker_wins = if to_move == defender {
                value == Outcome::Loss
            } else {
                value == Outcome::Win
            };
            assert!(
                !attacker_wins,
                "a pairing for player {defender} yet the other wins: {who:?}"
            );
        }
    }
    eprintln!("k = {k}: {paired} pairings among {tried} positions, {decided} won");
    (paired, decided)
}

/// `prove mnk` writes a certificate the checker accepts, says "not proved"
/// with exit 3 where it finds no pairing, and never replaces a file that
/// is not a certificate.
#[test]
fn prove_mnk_writes_a_checked_certificate_and_replaces_only_its_own() {
    let dir = scratch_dir("pairing", "prove");
    let proof = dir.join("13-13-9.txt");
    let run = retrograde;
    let path = proof.to_str().unwrap();
    let args = ["prove", "mnk", "--cols", "13", "--rows", "13", "--k", "9"];
    let out = run(&[&args[..], &["--proof", path]].concat());
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("draw"));
    let text = std::fs::read_to_string(&proof).unwrap();
    assert_eq!(check_certificate(&text), Ok((13, 13, 9)));
    // its own certificate is replaced; another file is not, unless --force
    assert!(run(&[&args[..], &["--proof", path]].concat())
        .status
        .success());
    std::fs::write(&proof, "notes\n").unwrap();
    let out = run(&[&args[..], &["--proof", path]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&proof).unwrap(), "notes\n");
    assert!(run(&[&args[..], &["--proof", path, "--force"]].concat())
        .status
        .success());
    // gomoku's board with lines of 5: no pairing, the zone prover finds no
    // draw (it is a first-player win) within its second: nothing claimed
    let out = run(&[
        "prove",
        "mnk",
        "--cols",
        "15",
        "--rows",
        "15",
        "--k",
        "5",
        "--time-limit",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stdout).contains("not proved"));
    std::fs::remove_dir_all(&dir).unwrap();
}
