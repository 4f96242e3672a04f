//! The search engine on a fixed mid-size case: Connect Four on 6 columns ×
//! 4 rows from the empty board (a second-player win, about 0.7 M nodes), at
//! 1 and 2 threads. Every iteration asserts the value; throughput is
//! reported in nodes/s. Run: `cargo bench --bench search`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use retrograde::game::Outcome;
use retrograde::solve::search::{value_of, SearchBoard};

fn connect_6x4(c: &mut Criterion) {
    let board = SearchBoard::gravity(6, 4, 4).unwrap();
    let nodes = value_of(&board, 0, 0, 1 << 24).unwrap().nodes;
    let mut group = c.benchmark_group("search_connect_6x4");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(format!("{threads}_threads"), |b| {
            b.iter(|| {
                let result = pool.install(|| value_of(&board, 0, 0, 1 << 24)).unwrap();
                assert_eq!(
                    result.value,
                    Outcome::Loss,
                    "6×4 Connect Four is a second-player win"
                );
                result
            })
        });
    }
    group.finish();
}

criterion_group!(benches, connect_6x4);
criterion_main!(benches);
