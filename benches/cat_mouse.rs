//! Cat and Mouse on the 2,000-node bench graph (7,996,000 states) at 1 and 2
//! threads. Every iteration asserts the table's totals (the figures of the
//! seeds' C baseline), so a faster-but-wrong change fails here.
//!
//! Run: `cargo bench --bench cat_mouse`. The whole-process comparison with
//! the C baseline is `benches/compare_baseline.sh`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use retrograde::{engines::retrograde::solve, games::cat_mouse::CatMouseGraph};

fn bench_graph() -> CatMouseGraph {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/cat-mouse-2000.json"
    );
    let lists: Vec<Vec<u32>> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    CatMouseGraph::new(&lists).unwrap()
}

fn cat_mouse_2000(c: &mut Criterion) {
    let game = bench_graph();
    let mut group = c.benchmark_group("cat_mouse_2000");
    group.sample_size(20);
    group.throughput(Throughput::Elements(7_996_000));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(format!("{threads}_threads"), |b| {
            b.iter(|| {
                let table = pool.install(|| solve(&game)).unwrap();
                let totals = retrograde::games::cat_mouse::winner_totals(&table);
                assert_eq!(totals.mouse_wins, 1_783_458, "mouse wins");
                assert_eq!(totals.cat_wins, 13_996, "cat wins");
                assert_eq!(totals.draws, 6_198_546, "draws");
                table
            })
        });
    }
    group.finish();
}

criterion_group!(benches, cat_mouse_2000);
criterion_main!(benches);
