//! m,n,k tables and counts are bit-identical at 1, 2 and 4 threads.

use retrograde::{
    engines::layered::solve_mnk,
    games::mnk::Mnk,
    host::{in_pool, Budget},
    BoardSize,
};

#[test]
fn tables_are_bit_identical_at_1_2_and_4_threads() {
    for (rows, cols, k) in [(4, 4, 3), (4, 4, 4), (3, 4, 3)] {
        let game = Mnk::new(BoardSize { cols, rows, k }).unwrap();
        let runs: Vec<_> = [1, 2, 4]
            .into_iter()
            .map(|threads| {
                in_pool(threads, || solve_mnk(&game, &Budget::unlimited()))
                    .unwrap()
                    .unwrap()
            })
            .collect();
        for run in &runs[1..] {
            assert_eq!(run.counts, runs[0].counts);
            assert_eq!(run.games, runs[0].games);
            for (a, b) in run.plies.iter().zip(&runs[0].plies) {
                assert!(
                    a.raw() == b.raw(),
                    "{rows}×{cols} k={k}, ply of shape {:?}",
                    a.shape
                );
            }
        }
    }
}
