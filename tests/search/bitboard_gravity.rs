//! The dedicated gravity search engine against the exhaustive gravity
//! tables: the exact value and depth of the empty board of every board up
//! to 5 columns × 4 rows and every k, and of random positions in play, in
//! weak and exact mode, at 1, 2 and 4 threads; and a tiny table only costs
//! time.

use retrograde::{
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::search::Precision,
    engines::sparse::solve_gravity,
    games::gravity::Gravity,
    host::{in_pool, Budget},
    language::Outcome,
    BoardSize,
};

use crate::common;
use crate::common::Rng;

/// Large enough that the table keeps best moves (2^22 entries and up).
const ENTRIES: usize = 1 << 22;

#[test]
fn exact_scores_agree_with_the_exhaustive_tables() {
    let mut rng = Rng::new(13);
    let mut checked = 0;
    for cols in 1..=5u32 {
        for rows in 1..=4u32 {
            for k in 1..=cols.max(rows) {
                let game = Gravity::new(BoardSize { cols, rows, k }).unwrap();
                let table = solve_gravity(&game, &Budget::unlimited()).unwrap();
                // the empty board and random games stopped before they end
                let mut positions = vec![(0u64, 0u64, 0u32)];
                for _ in 0..12 {
                    positions.push(common::random_gravity_prefix(&mut rng, &game));
                }
                for (x, occupied, ply) in positions {
                    let want = table.lookup(ply as usize, game.key(x, occupied)).unwrap();
                    let threads = [1, 2, 4][checked % 3];
                    let exact = in_pool(threads, || {
                        BoardSearcher::quiet(Bitboard::gravity(&game), ENTRIES).search(
                            x,
                            occupied,
                            Precision::Exact,
                        )
                    })
                    .unwrap()
                    .unwrap()
                    .unwrap();
                    assert_eq!(
                        (exact.value, exact.depth.unwrap()),
                        want,
                        "{cols}×{rows} k={k} x {x:b} occupied {occupied:b}"
                    );
                    let weak = BoardSearcher::quiet(Bitboard::gravity(&game), 16)
                        .search(x, occupied, Precision::Weak)
                        .unwrap()
                        .unwrap();
                    assert_eq!(weak.value, want.0, "{cols}×{rows} k={k} weak, tiny table");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 800, "{checked}");
}

/// Every position in play of every board up to 5 × 4 and every k: the
/// exact value and depth, and the weak value, against the exhaustive table.
/// One searcher a board (its table reused across positions), at 1, 2 or 4
/// threads in turn.
/// What the move on `bit` gets the player to move in (X stones `x`,
/// occupied cells `occupied`): its value and plies to the end, counting the
/// move, from the table.
fn after_move(
    game: &Gravity,
    table: &retrograde::engines::sparse::GravitySolution,
    x: u64,
    occupied: u64,
    bit: u64,
) -> (Outcome, u32) {
    let stones = occupied.count_ones();
    let x = if stones.is_multiple_of(2) { x | bit } else { x };
    let occupied = occupied | bit;
    let mover = if stones.is_multiple_of(2) {
        x
    } else {
        occupied & !x
    };
    if game.has_line(mover) {
        return (Outcome::Win, 1);
    }
    if occupied.count_ones() == game.cells() {
        return (Outcome::Draw, 1);
    }
    let (v, d) = table
        .lookup(stones as usize + 1, game.key(x, occupied))
        .expect("the child is reachable");
    (v.flip(), d + 1)
}

#[test]
fn every_position_up_to_5x4_agrees_with_the_exhaustive_tables() {
    let mut boards = 0;
    let mut checked = 0u64;
    for cols in 1..=5u32 {
        for rows in 1..=4u32 {
            for k in 1..=cols.max(rows) {
                let game = Gravity::new(BoardSize { cols, rows, k }).unwrap();
                let table = solve_gravity(&game, &Budget::unlimited()).unwrap();
                let threads = [1, 2, 4][boards % 3];
                boards += 1;
                let searcher = BoardSearcher::quiet(Bitboard::gravity(&game), ENTRIES);
                in_pool(threads, || {
                    for (_, key, value, depth) in table.entries() {
                        if depth == 0 {
                            continue; // the game is over
                        }
                        let (x, occupied) = game.unkey(key);
                        let exact = searcher
                            .search(x, occupied, Precision::Exact)
                            .unwrap()
                            .unwrap();
                        let weak = searcher
                            .search(x, occupied, Precision::Weak)
                            .unwrap()
                            .unwrap();
                        assert_eq!(
                            (exact.value, exact.depth.unwrap(), weak.value),
                            (value, depth, value),
                            "{cols}×{rows} k={k} key {key:b} at {threads} threads"
                        );
                        if let Some(bit) = exact.best {
                            assert_eq!(
                                after_move(&game, &table, x, occupied, bit),
                                (value, depth),
                                "{cols}×{rows} k={k} key {key:b}: best move {bit:b}"
                            );
                        }
                        checked += 1;
                    }
                })
                .unwrap();
            }
        }
    }
    assert!(checked > 1_000_000, "{checked}");
}

/// Thousands of positions of the largest boards the exhaustive engine
/// solves in the suite's time, 5 × 5 and 6 × 4, and of 4 × 6 (six rows: the
/// claimeven bound at the height of 7 × 6), drawn at random from their
/// tables, at 1, 2 and 4 threads.
#[test]
fn random_positions_of_5x5_6x4_and_4x6_agree_with_the_exhaustive_tables() {
    random_positions_agree(
        56,
        &[(5, 5, 4, 20_000), (6, 4, 4, 20_000), (4, 6, 4, 4_000)],
    );
}

/// Boards with a side beyond 8 (the position language takes sides up to 16
/// within 64 cells; the bitboard engine within 64 bits with the sentinel
/// row): wide ones, where the bitboard's columns run past bit 40, and tall
/// ones with an even height (claimeven).
#[test]
fn random_positions_of_boards_wider_or_taller_than_8_agree_with_the_exhaustive_tables() {
    random_positions_agree(
        1014,
        &[
            (10, 2, 3, 20_000),
            (10, 2, 4, 20_000),
            (2, 10, 4, 50),
            (3, 9, 4, 20_000),
        ],
    );
}

/// Draws positions in play from the exhaustive table of each `(cols, rows,
/// k, one_in)` — each with probability 1 / `one_in` — and searches each at
/// 1, 2 and 4 threads, weak or exact by turns: the value (and in exact mode
/// the depth) must be the table's.
fn random_positions_agree(seed: u64, boards: &[(u32, u32, u32, u64)]) {
    let mut rng = Rng::new(seed);
    for &(cols, rows, k, one_in) in boards {
        let game = Gravity::new(BoardSize { cols, rows, k }).unwrap();
        let table = solve_gravity(&game, &Budget::unlimited()).unwrap();
        let in_play: Vec<(u64, Outcome, u32)> = table
            .entries()
            .filter(|e| e.3 > 0 && rng.below(one_in) == 0)
            .map(|(_, key, value, depth)| (key, value, depth))
            .collect();
        assert!(in_play.len() > 1_000, "{cols}×{rows}: {}", in_play.len());
        for threads in [1, 2, 4] {
            let searcher = BoardSearcher::quiet(Bitboard::gravity(&game), ENTRIES);
            in_pool(threads, || {
                for (i, &(key, value, depth)) in in_play.iter().enumerate() {
                    // each position once in each mode, over the thread counts
                    let (x, occupied) = game.unkey(key);
                    let precision = if i % 3 == threads / 2 {
                        Precision::Weak
                    } else {
                        Precision::Exact
                    };
                    let r = searcher.search(x, occupied, precision).unwrap().unwrap();
                    assert_eq!(r.value, value, "{cols}×{rows} k={k} key {key:b}");
                    if precision == Precision::Exact {
                        assert_eq!(r.depth, Some(depth), "{cols}×{rows} k={k} key {key:b}");
                    }
                }
            })
            .unwrap();
        }
    }
}

#[test]
fn finished_and_malformed_positions_are_refused() {
    let game = Gravity::new(BoardSize::new(4, 4, 4)).unwrap();
    let searcher = BoardSearcher::quiet(Bitboard::gravity(&game), 64);
    // a floating stone: row 1 of column 0 without row 0
    assert!(searcher.search(0b10, 0b10, Precision::Exact).is_err());
    // X's vertical line
    let x = 0b1111;
    let o = 0b1111 << 5;
    assert!(searcher.search(x, x | o, Precision::Exact).is_err());
}

/// Timing of the two engines on one empty board (not a test of speed: run
/// with `--ignored --nocapture` to see the figures).
#[test]
#[ignore]
fn time_both_engines() {
    use retrograde::engines::search::{SearchBoard, Searcher};
    for (cols, rows) in [(6u32, 4u32), (5, 5), (6, 5), (5, 6), (7, 5), (6, 6)] {
        let game = Gravity::new(BoardSize::new(cols, rows, 4)).unwrap();
        let clock = std::time::Instant::now();
        let new = in_pool(2, || {
            BoardSearcher::quiet(Bitboard::gravity(&game), 1 << 24).search(0, 0, Precision::Exact)
        })
        .unwrap()
        .unwrap()
        .unwrap();
        let t_new = clock.elapsed().as_secs_f64();
        println!(
            "{cols}x{rows}: dedicated {:?} depth {:?} {} nodes {t_new:.2} s",
            new.value, new.depth, new.nodes
        );
        if cols * rows > 30 {
            continue;
        }
        let board = SearchBoard::gravity(BoardSize::new(cols, rows, 4)).unwrap();
        let clock = std::time::Instant::now();
        let old = in_pool(2, || {
            Searcher::new(&board, 1 << 24).search(0, 0, Precision::Exact)
        })
        .unwrap()
        .unwrap()
        .unwrap();
        println!(
            "{cols}x{rows}: general   {:?} depth {:?} {} nodes {:.2} s",
            old.value,
            old.depth,
            old.nodes,
            clock.elapsed().as_secs_f64()
        );
    }
}

/// The static bounds from threat parity (follow-up, paired columns, the
/// zugzwang of a threat) hold on every position in play of every board up
/// to 24 cells with lines of 3 and 4: a bound of 0 never meets a won
/// position, a bound of −1 only lost ones. Each kind of bound must fire,
/// on boards of odd and of even height.
#[test]
fn static_parity_bounds_hold_on_every_position() {
    // fired: [height odd][empty cells even][bound is −1]
    let mut fired = [[[0u64; 2]; 2]; 2];
    for cols in 2..=6u32 {
        for rows in 2..=6u32 {
            if cols * rows > 24 {
                continue;
            }
            for k in [3, 4] {
                if k > cols.max(rows) {
                    continue;
                }
                let game = Gravity::new(BoardSize { cols, rows, k }).unwrap();
                let board = Bitboard::gravity(&game);
                let table = solve_gravity(&game, &Budget::unlimited()).unwrap();
                for (_, key, value, depth) in table.entries() {
                    if depth == 0 {
                        continue; // the game is over
                    }
                    let (x, occupied) = game.unkey(key);
                    let Some(bound) = board.static_bound(x, occupied).unwrap() else {
                        continue;
                    };
                    let holds = match bound {
                        -1 => value == Outcome::Loss,
                        0 => value != Outcome::Win,
                        _ => false,
                    };
                    assert!(
                        holds,
                        "{cols}×{rows} k={k} key {key:b}: bound {bound}, value {value:?}"
                    );
                    let even_empty = (cols * rows - occupied.count_ones()) % 2 == 0;
                    fired[rows as usize % 2][usize::from(even_empty)][usize::from(bound == -1)] +=
                        1;
                }
            }
        }
    }
    for height in 0..2 {
        // every odd-empty bound is −1 by construction
        assert!(fired[height][0][1] > 1_000, "{fired:?}");
        assert!(fired[height][1].iter().all(|&n| n > 1_000), "{fired:?}");
    }
}
