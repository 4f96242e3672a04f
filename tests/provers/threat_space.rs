//! Threat-space search (`retrograde::engines::threats`, issue 76):
//! every move it finds wins — on every position in play of every board up
//! to 4 × 4 against the exhaustive tables, and on random 5 × 4 and 5 × 5
//! positions (k = 3, 4, 5) against the bitboard search. The prover that
//! uses it is checked in `threat_proof.rs`, its gomoku certificates (and
//! one with a defence set written too small) in `prove_mnk_threats.rs`.

use retrograde::{
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::layered::solve_mnk,
    engines::threats::{find_vcf, find_vct, Geometry, VcfLimits, VctLimits},
    games::mnk::Mnk,
    host::Budget,
    language::Outcome,
    BoardSize, Family,
};

use crate::common;
use crate::common::Rng;
use crate::threat_proof::board_of;

/// What the search says of one position: its move for the player to
/// move, and whether a run of fours alone (no three) wins there.
fn searched(geometry: &Geometry, x: u64, o: u64) -> (Option<u32>, bool) {
    let mut board = board_of(geometry, x, o);
    let mover = board.to_move();
    let (found, _) = find_vct(
        &mut board,
        mover,
        VctLimits::default(),
        VcfLimits::default(),
        3,
    );
    let by_fours = find_vcf(&mut board, mover, VcfLimits::default(), Default::default()).is_some();
    (found, by_fours)
}

/// The stones after `mover` plays `cell`.
fn after(x: u64, o: u64, cell: u32, mover: usize) -> (u64, u64) {
    match mover {
        0 => (x | 1 << cell, o),
        _ => (x, o | 1 << cell),
    }
}

/// Every position in play of every board up to 4 × 4 (every 7th of
/// 4 × 4 with k = 4): where the search finds a move, the position after it
/// is lost for the player then to move; and the search finds wins where
/// no run of fours does (threes played).
#[test]
fn every_move_it_finds_on_the_small_boards_wins_by_the_tables() {
    let (mut found, mut by_threes) = (0u64, 0u64);
    for (cols, rows, k) in common::mnk_boards_up_to_4x4() {
        let stride = if (cols, rows, k) == (4, 4, 4) { 7 } else { 1 };
        let size = BoardSize { cols, rows, k };
        let table = solve_mnk(&Mnk::new(size).unwrap(), &Budget::unlimited()).unwrap();
        let geometry = Geometry::new(size).unwrap();
        let mut seen = 0u64;
        common::for_each_position_in_play(&table, cols * rows, |x, o, value, _| {
            seen += 1;
            if !seen.is_multiple_of(stride) {
                return;
            }
            let (x, o) = (u64::from(x), u64::from(o));
            let (found_move, by_fours) = searched(&geometry, x, o);
            let Some(cell) = found_move else {
                return;
            };
            let mover = board_of(&geometry, x, o).to_move();
            let (nx, no) = after(x, o, cell, mover);
            let (nx, no) = (nx as u32, no as u32);
            let at = || format!("{cols},{rows},{k}: {}", board_of(&geometry, x, o).diagram());
            // a completed line has no entry: a win at once
            if let Some((then, _)) = table.lookup(nx, no) {
                assert_eq!(then, Outcome::Loss, "{} plays {cell}", at());
            }
            assert_eq!(value, Outcome::Win, "{}", at());
            found += 1;
            by_threes += u64::from(!by_fours);
        });
    }
    eprintln!("{found} moves found, {by_threes} where no run of fours wins");
    assert!(found > 100_000, "{found}");
    assert!(by_threes >= 400, "{by_threes}");
}

/// Random positions of 5 × 4 and 5 × 5 (k = 3, 4, 5): each move found is
/// checked against the bitboard search (itself checked against the
/// tables in tests/search/bitboard_mnk.rs), until 30 were found where no
/// run of fours wins or 40,000 positions were tried. Threes win there only
/// with k = 4 (30 of about 3,000 positions): with k = 3 a win comes at once
/// or by fours, and with k = 5 these boards have one window a line.
#[test]
fn every_move_it_finds_on_random_5x4_and_5x5_positions_wins_by_the_search() {
    let mut rng = Rng::new(76);
    for (cols, rows) in [(5u32, 4u32), (5, 5)] {
        for k in 3..=5u32 {
            let size = BoardSize { cols, rows, k };
            let bitboard = Bitboard::new(Family::Mnk, size).unwrap();
            let searcher = BoardSearcher::quiet(bitboard.clone(), 1 << 20);
            let geometry = Geometry::new(size).unwrap();
            let (mut tried, mut found, mut by_threes) = (0u32, 0u32, 0u32);
            while by_threes < 30 && tried < 40_000 {
                let least = u64::from(cols * rows / 3);
                let Some((x, o)) = common::random_mnk_position(&mut rng, cols, rows, k, least)
                else {
                    continue;
                };
                tried += 1;
                let (found_move, by_fours) = searched(&geometry, x, o);
                let Some(cell) = found_move else {
                    continue;
                };
                let mover = board_of(&geometry, x, o).to_move();
                let (nx, no) = after(x, o, cell, mover);
                let board = board_of(&geometry, nx, no);
                let at = || {
                    format!(
                        "{cols}×{rows} k={k}: {}",
                        board_of(&geometry, x, o).diagram()
                    )
                };
                if !board.has_line() {
                    let then = common::bitboard_value(&bitboard, &searcher, (cols, rows), (nx, no));
                    assert_eq!(then, Outcome::Loss, "{} plays {cell}", at());
                }
                found += 1;
                by_threes += u32::from(!by_fours);
            }
            eprintln!("{cols}×{rows} k={k}: {tried} tried, {found} found, {by_threes} by threes");
            match (rows, k) {
                // a line of 5 on 4 rows: only a row, one window each, and
                // random play never made a win there in 40,000 positions
                (4, 5) => {}
                // (k = 3 wins come at once or by fours; 5 × 5 with k = 5
                // has one window a line, so a three threatens no open four)
                (_, 3 | 5) => assert!(found >= 30, "{cols}×{rows} k={k}: {found} of {tried}"),
                _ => assert!(
                    by_threes >= 30,
                    "{cols}×{rows} k={k}: {by_threes} of {tried}"
                ),
            }
        }
    }
}
