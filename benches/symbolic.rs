//! The symbolic (BDD) engine on Connect Four: counting 6 × 4 (the forward
//! pass: one image a ply) and solving 5 × 4 (forward and backward: two
//! pre-images a ply), at 1 and 2 threads, each run in a fresh node store
//! of 2 GiB. Every iteration asserts the answer (6 × 4: 94,910,577
//! positions; 5 × 4: 3,945,711 positions, a draw). The long runs (6 × 6,
//! 7 × 5, 7 × 6) are documented in `results/symbolic/` with
//! `scripts/symbolic.sh`. Run: `cargo bench --bench symbolic`.

use criterion::{criterion_group, criterion_main, Criterion};
use retrograde::{
    engines::symbolic::{solve_symbolic, Encoding, Layout, SymbolicRun},
    host::{Budget, Bytes, Silent},
    language::Outcome,
    BoardSize, Family,
};

/// Positions and value of a run on a `cols` × `rows` board.
fn run(cols: u32, rows: u32, threads: usize, count_only: bool) -> (u64, Option<Outcome>) {
    let layout = Layout::new(
        Family::Gravity,
        BoardSize::new(cols, rows, 4),
        Encoding::Column,
    )
    .unwrap();
    let solution = solve_symbolic(
        &SymbolicRun {
            layout,
            threads,
            budget: Budget(Bytes(2 << 30)),
            count_only,
            checkpoint: None,
            deadline: None,
        },
        None,
        &Silent,
    )
    .unwrap();
    let positions = solution.plies.iter().map(|p| p.counts.positions).sum();
    (positions, solution.value)
}

fn symbolic(c: &mut Criterion) {
    let mut group = c.benchmark_group("symbolic_connect4");
    group.sample_size(10);
    for threads in [1, 2] {
        group.bench_function(format!("count_6x4_t{threads}"), |b| {
            b.iter(|| assert_eq!(run(6, 4, threads, true), (94_910_577, None)));
        });
        group.bench_function(format!("solve_5x4_t{threads}"), |b| {
            b.iter(|| assert_eq!(run(5, 4, threads, false), (3_945_711, Some(Outcome::Draw))));
        });
    }
    group.finish();
}

criterion_group!(benches, symbolic);
criterion_main!(benches);
