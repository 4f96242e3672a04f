//! The bitboard search engine on m,n,k boards against the exhaustive
//! layered engine: the exact value and depth, and the weak value, of every
//! reachable position in play of every board of up to 12 cells and every
//! k, and of thousands of random positions of the 4 × 4 boards, at 1, 2
//! and 4 threads.

use retrograde::{
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::layered::{solve_mnk, MnkSolution},
    engines::search::Precision,
    games::mnk::Mnk,
    host::{in_pool, Budget},
    language::Outcome,
    BoardSize, Family,
};

use crate::common;
use crate::common::Rng;

/// Row-major cells (row 0 at the top) to the bitboard's.
fn to_bitboard(board: &Bitboard, cols: u32, rows: u32, cells: u32) -> u64 {
    (0..cols * rows)
        .filter(|c| cells & (1 << c) != 0)
        .fold(0, |out, c| out | board.cell(c % cols, rows - 1 - c / cols))
}

/// Searches (X cells, O cells) exactly and weakly with `searcher` and
/// checks both against the table's (value, depth).
fn check(
    searcher: &BoardSearcher,
    (game, table): (&Mnk, &MnkSolution),
    (cols, rows, k): (u32, u32, u32),
    (x, o): (u32, u32),
    want: (Outcome, u32),
) {
    let board = searcher.board();
    let bx = to_bitboard(board, cols, rows, x);
    let occupied = bx | to_bitboard(board, cols, rows, o);
    let exact = searcher
        .search(bx, occupied, Precision::Exact)
        .unwrap()
        .unwrap();
    let weak = searcher
        .search(bx, occupied, Precision::Weak)
        .unwrap()
        .unwrap();
    assert_eq!(
        (exact.value, exact.depth.unwrap(), weak.value),
        (want.0, want.1, want.0),
        "{cols}×{rows} k={k}: x {x:b} o {o:b}"
    );
    // the move the search names keeps the value and depth
    if let Some(bit) = exact.best {
        let at = bit.trailing_zeros();
        let cell = (rows - 1 - at % (rows + 1)) * cols + at / (rows + 1);
        let x_moves = x.count_ones() == o.count_ones();
        let (cx, co) = if x_moves {
            (x | 1 << cell, o)
        } else {
            (x, o | 1 << cell)
        };
        let got = if game.has_line(if x_moves { cx } else { co }) {
            (Outcome::Win, 1)
        } else if (cx | co).count_ones() == cols * rows {
            (Outcome::Draw, 1)
        } else {
            let (v, d) = table.lookup(cx, co).unwrap();
            (v.flip(), d + 1)
        };
        assert_eq!(
            got, want,
            "{cols}×{rows} k={k}: x {x:b} o {o:b} best {cell}"
        );
    }
}

fn exhaustive(cols: u32, rows: u32, k: u32) -> MnkSolution {
    solve_mnk(
        &Mnk::new(BoardSize { cols, rows, k }).unwrap(),
        &Budget::unlimited(),
    )
    .unwrap()
}

#[test]
fn every_position_of_every_board_up_to_12_cells_agrees() {
    let mut boards = 0;
    let mut checked = 0u64;
    for cols in 1..=5u32 {
        for rows in 1..=5u32 {
            if cols * rows > 12 {
                continue;
            }
            for k in 1..=cols.max(rows) {
                let table = exhaustive(cols, rows, k);
                let game = Mnk::new(BoardSize { cols, rows, k }).unwrap();
                let searcher = BoardSearcher::quiet(
                    Bitboard::new(Family::Mnk, BoardSize { cols, rows, k }).unwrap(),
                    1 << 16,
                );
                let cells = cols * rows;
                let threads = [1, 2, 4][boards % 3];
                boards += 1;
                in_pool(threads, || {
                    common::for_each_position_in_play(&table, cells, |x, o, value, depth| {
                        check(
                            &searcher,
                            (&game, &table),
                            (cols, rows, k),
                            (x, o),
                            (value, depth),
                        );
                        checked += 1;
                    });
                })
                .unwrap();
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn random_positions_of_the_4x4_boards_agree() {
    let mut rng = Rng::new(44);
    for k in 1..=4u32 {
        let table = exhaustive(4, 4, k);
        let game = Mnk::new(BoardSize::new(4, 4, k)).unwrap();
        for threads in [1, 2, 4] {
            let searcher = BoardSearcher::quiet(
                Bitboard::new(Family::Mnk, BoardSize::new(4, 4, k)).unwrap(),
                1 << 18,
            );
            let mut found = 0;
            while found < 1_000 {
                // a random game prefix, stopped before it ends
                let plies = rng.below(15) as u32;
                let (mut x, mut o) = (0u32, 0u32);
                let mut in_play = true;
                for ply in 0..plies {
                    let empty: Vec<u32> = (0..16).filter(|c| (x | o) & (1 << c) == 0).collect();
                    let cell = empty[rng.below(empty.len() as u64) as usize];
                    if ply % 2 == 0 {
                        x |= 1 << cell;
                    } else {
                        o |= 1 << cell;
                    }
                    if game.has_line(x) || game.has_line(o) {
                        in_play = false;
                        break;
                    }
                }
                if !in_play {
                    continue;
                }
                let want = table.lookup(x, o).expect("a game prefix is reachable");
                in_pool(threads, || {
                    check(&searcher, (&game, &table), (4, 4, k), (x, o), want)
                })
                .unwrap();
                found += 1;
            }
        }
    }
}

#[test]
fn the_published_k4_boards_are_proved_at_once() {
    // 5,5,4 a draw, 6,5,4 a first-player win (Uiterwijk), 5,5,5 a draw
    for (cols, rows, k, value) in [(5, 5, 4, Outcome::Draw), (5, 6, 4, Outcome::Win)] {
        let searcher = BoardSearcher::quiet(
            Bitboard::new(Family::Mnk, BoardSize { cols, rows, k }).unwrap(),
            1 << 22,
        );
        let r = in_pool(2, || searcher.search(0, 0, Precision::Weak))
            .unwrap()
            .unwrap()
            .unwrap();
        assert_eq!(r.value, value, "{cols}×{rows} k={k}");
    }
}
