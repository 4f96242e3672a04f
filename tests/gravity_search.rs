//! The dedicated gravity search engine against the exhaustive gravity
//! tables: the exact value and depth of the empty board of every board up
//! to 5 columns × 4 rows and every k, and of random positions in play, in
//! weak and exact mode, at 1, 2 and 4 threads; and a tiny table only costs
//! time.

mod common;

use common::Rng;
use retrograde::games::gravity::Gravity;
use retrograde::memory::Budget;
use retrograde::solve::gravity_search::GravitySearcher;
use retrograde::solve::in_pool;
use retrograde::solve::search::Precision;
use retrograde::solve::sparse_layered::solve_gravity;

const ENTRIES: usize = 1 << 20;

#[test]
fn exact_scores_agree_with_the_exhaustive_tables() {
    let mut rng = Rng::new(13);
    let mut checked = 0;
    for cols in 1..=5u32 {
        for rows in 1..=4u32 {
            for k in 1..=cols.max(rows) {
                let game = Gravity::new(cols, rows, k).unwrap();
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
                        GravitySearcher::quiet(&game, ENTRIES).search(x, occupied, Precision::Exact)
                    })
                    .unwrap()
                    .unwrap()
                    .unwrap();
                    assert_eq!(
                        (exact.value, exact.depth.unwrap()),
                        want,
                        "{cols}×{rows} k={k} x {x:b} occupied {occupied:b}"
                    );
                    let weak = GravitySearcher::quiet(&game, 16)
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

#[test]
fn finished_and_malformed_positions_are_refused() {
    let game = Gravity::new(4, 4, 4).unwrap();
    let searcher = GravitySearcher::quiet(&game, 64);
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
    use retrograde::solve::search::{SearchBoard, Searcher};
    for (cols, rows) in [(6u32, 4u32), (5, 5), (6, 5), (5, 6), (7, 5), (6, 6)] {
        let game = Gravity::new(cols, rows, 4).unwrap();
        let clock = std::time::Instant::now();
        let new = in_pool(2, || {
            GravitySearcher::quiet(&game, 1 << 24).search(0, 0, Precision::Exact)
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
        let board = SearchBoard::gravity(cols, rows, 4).unwrap();
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
