//! The df-pn win prover (`retrograde::engines::win`) against the
//! bitboard search and, on every position of every board up to 4×4, the
//! exhaustive tables.

use retrograde::{
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::layered::solve_mnk,
    engines::search::Precision,
    engines::win::{Verdict, WinProver},
    games::mnk::Mnk,
    host::Budget,
    language::Outcome,
    BoardSize, Family,
};

use crate::common;

#[test]
#[ignore]
fn a_board_from_the_environment() {
    let spec = std::env::var("RG_BOARD").unwrap_or("9,4,4".into());
    let v: Vec<u32> = spec.split(',').map(|s| s.parse().unwrap()).collect();
    let seconds: u64 = std::env::var("RG_SECONDS").map_or(60, |s| s.parse().unwrap());
    let board = Bitboard::new(Family::Mnk, BoardSize::new(v[0], v[1], v[2])).unwrap();
    let start = std::time::Instant::now();
    let mut prover = WinProver::new(
        &board,
        true,
        100_000_000,
        Some(start + std::time::Duration::from_secs(seconds)),
    )
    .unwrap();
    let verdict = prover.prove(0, 0);
    println!(
        "{spec}: {verdict:?} in {:.2?}, {:?}",
        start.elapsed(),
        prover.stats()
    );
}

#[test]
fn small_boards_agree_with_the_search() {
    for (cols, rows, k) in [
        (3, 3, 3),
        (4, 3, 3),
        (4, 4, 3),
        (5, 3, 3),
        (4, 4, 4),
        (5, 4, 3),
    ] {
        let board = Bitboard::new(Family::Mnk, BoardSize { cols, rows, k }).unwrap();
        let searcher = BoardSearcher::quiet(board.clone(), 1 << 20);
        let value = searcher
            .search(0, 0, Precision::Weak)
            .unwrap()
            .unwrap()
            .value;
        let mut prover = WinProver::new(&board, true, 1 << 22, None).unwrap();
        let x_wins = prover.prove(0, 0);
        let mut prover = WinProver::new(&board, false, 1 << 22, None).unwrap();
        let o_wins = prover.prove(0, 0);
        assert_eq!(
            x_wins == Verdict::Win,
            value == Outcome::Win,
            "{cols},{rows},{k}"
        );
        assert_eq!(
            o_wins == Verdict::Win,
            value == Outcome::Loss,
            "{cols},{rows},{k}"
        );
    }
}

/// Positions a few random moves deep on small boards, both attackers:
/// every settled verdict equals the search's value (300 positions; the
/// deeper ones meet the threat rules 4–8 of the prover's module doc).
#[test]
fn random_positions_agree_with_the_search() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for (cols, rows, k) in [(4, 4, 3), (5, 4, 3), (5, 4, 4)] {
        let board = Bitboard::new(Family::Mnk, BoardSize { cols, rows, k }).unwrap();
        let searcher = BoardSearcher::quiet(board.clone(), 1 << 20);
        let mut checked = 0;
        while checked < 100 {
            let (mut x, mut occupied) = (0u64, 0u64);
            let plies = 2 + next() % 9;
            for ply in 0..plies {
                let empty: Vec<u64> = (0..cols)
                    .flat_map(|c| (0..rows).map(move |r| (c, r)))
                    .map(|(c, r)| board.cell(c, r))
                    .filter(|&b| occupied & b == 0)
                    .collect();
                let cell = empty[(next() % empty.len() as u64) as usize];
                if ply % 2 == 0 {
                    x |= cell;
                }
                occupied |= cell;
            }
            let Ok(_) = board.stones_to_move(x, occupied) else {
                continue; // over already
            };
            let value = searcher
                .search(x, occupied, Precision::Weak)
                .unwrap()
                .unwrap()
                .value;
            let x_to_move = occupied.count_ones() % 2 == 0;
            for attacker_is_x in [true, false] {
                let mut prover = WinProver::new(&board, attacker_is_x, 1 << 22, None).unwrap();
                prover.limit_visits(2_000_000);
                let verdict = prover.prove(x, occupied);
                let mover_is_attacker = x_to_move == attacker_is_x;
                let wins = if mover_is_attacker {
                    value == Outcome::Win
                } else {
                    value == Outcome::Loss
                };
                match verdict {
                    Verdict::Win => assert!(wins, "{cols},{rows},{k} {x:#x} {occupied:#x}"),
                    Verdict::NoWin => assert!(!wins, "{cols},{rows},{k} {x:#x} {occupied:#x}"),
                    Verdict::Open => {}
                }
            }
            checked += 1;
        }
    }
}

/// The value for the player to move by two win provers (one for each side
/// as the attacker): the mover's win, the other's, or neither (a draw).
fn prover_value(provers: &mut [WinProver; 2], x: u64, occupied: u64) -> Outcome {
    let x_to_move = occupied.count_ones().is_multiple_of(2);
    let [for_x, for_o] = provers;
    let (mover, other) = if x_to_move {
        (for_x, for_o)
    } else {
        (for_o, for_x)
    };
    match (mover.prove(x, occupied), other.prove(x, occupied)) {
        (Verdict::Win, Verdict::NoWin) => Outcome::Win,
        (Verdict::NoWin, Verdict::Win) => Outcome::Loss,
        (Verdict::NoWin, Verdict::NoWin) => Outcome::Draw,
        v => panic!("unsettled or contradictory: {v:?}"),
    }
}

/// Checks the win prover on every position in play of the board
/// (reachable, no line yet) against the exhaustive table, one prover for
/// each attacker kept across the positions; returns how many.
fn every_position_agrees(cols: u32, rows: u32, k: u32) -> u64 {
    let game = Mnk::new(BoardSize { cols, rows, k }).unwrap();
    let table = solve_mnk(&game, &Budget::unlimited()).unwrap();
    let board = Bitboard::new(Family::Mnk, BoardSize { cols, rows, k }).unwrap();
    // the table's cells row by row; any one-to-one map of cells that keeps
    // lines keeps values
    let to_board = |stones: u32| {
        (0..cols * rows)
            .filter(|i| stones >> i & 1 == 1)
            .fold(0u64, |b, i| b | board.cell(i % cols, i / cols))
    };
    let mut provers = [true, false].map(|x| WinProver::new(&board, x, 1 << 24, None).unwrap());
    let mut checked = 0;
    common::for_each_position_in_play(&table, cols * rows, |x, o, value, _| {
        let (x, occupied) = (to_board(x), to_board(x | o));
        let got = prover_value(&mut provers, x, occupied);
        assert_eq!(
            got, value,
            "{cols},{rows},{k}: x {x:#x} occupied {occupied:#x}"
        );
        checked += 1;
    });
    checked
}

#[test]
fn every_position_of_every_board_up_to_4x4_agrees() {
    // 13,010,976 positions, 4,4,4's 9 M the most (about 40 s)
    let checked: u64 = common::mnk_boards_up_to_4x4()
        .into_iter()
        .map(|(cols, rows, k)| every_position_agrees(cols, rows, k))
        .sum();
    assert_eq!(checked, 13_010_976);
}
