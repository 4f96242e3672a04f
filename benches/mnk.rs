//! The full 4×4 k = 4 solve with every count (9,722,011 positions) at 1 and
//! 2 threads; every iteration asserts the counts, so a faster-but-wrong
//! change fails. Run: `cargo bench --bench mnk`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use retrograde::{
    engines::layered::solve_mnk, games::mnk::Mnk, host::Budget, language::Outcome, BoardSize,
};

fn mnk_4x4_k4(c: &mut Criterion) {
    let game = Mnk::new(BoardSize::new(4, 4, 4)).unwrap();
    let mut group = c.benchmark_group("mnk_4x4_k4");
    group.sample_size(10);
    group.throughput(Throughput::Elements(9_722_011));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(format!("{threads}_threads"), |b| {
            b.iter(|| {
                let s = pool
                    .install(|| solve_mnk(&game, &Budget::unlimited()))
                    .unwrap();
                let t = s.totals();
                assert_eq!(t.positions, 9_722_011);
                assert_eq!(
                    (t.terminal, t.x_wins, t.o_wins, t.draws),
                    (659_392, 401_096, 252_940, 5_356)
                );
                assert_eq!(t.classes, 1_217_977);
                assert_eq!(s.games.total(), 15_038_733_958_272);
                assert_eq!(s.lookup(0, 0).map(|(o, _)| o), Some(Outcome::Draw));
                s
            })
        });
    }
    group.finish();
}

criterion_group!(benches, mnk_4x4_k4);
criterion_main!(benches);
