//! Cat and Mouse II on the fixed 64×64 bench grid (a wall segment across
//! the middle, cat jump 2, mouse jump 3; 32,772,608 states) at 1 and 2
//! threads. Every iteration asserts the table's totals and the answer.
//! Run: `cargo bench --bench cat_mouse_grid`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use retrograde::{
    engines::retrograde::solve,
    games::cat_mouse_grid::{bench_grid, CatMouseGrid},
};

fn cat_mouse_grid_64(c: &mut Criterion) {
    let rows = bench_grid();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let game = CatMouseGrid::new(&rows, 2, 3).unwrap();
    let mut group = c.benchmark_group("cat_mouse_grid_64x64");
    group.sample_size(10);
    group.throughput(Throughput::Elements(32_772_608));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(format!("{threads}_threads"), |b| {
            b.iter(|| {
                let table = pool.install(|| solve(&game)).unwrap();
                let totals = retrograde::games::cat_mouse::winner_totals(&table);
                assert_eq!(totals.mouse_wins, 22_735_730, "mouse wins");
                assert_eq!(totals.cat_wins, 10_036_878, "cat wins");
                assert_eq!(table.depth(game.start_state()), Some(41));
                assert!(game.mouse_wins_within(&table, game.start_state(), 1000));
                table
            })
        });
    }
    group.finish();
}

criterion_group!(benches, cat_mouse_grid_64);
criterion_main!(benches);
