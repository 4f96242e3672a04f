//! The board search on 7 × 6 Connect Four position sets
//! (`benches/data/connect4-7x6-*.txt`, "moves score" a line, the score in
//! Pascal Pons' convention): the first positions of each set, strong (exact
//! score) and weak (win / draw / loss), at 1 and 2 threads, each run with a
//! fresh 64 MiB table; and the empty 6 × 6 and 7 × 5 boards, exact, at 1
//! and 2 threads with the table the command line gives them (256 MiB).
//! Every iteration asserts every score; throughput is reported in
//! positions/s. `benches/search_sets.sh` runs whole sets
//! through the command line and beside a peer; `results/SEARCH.md` has the
//! figures. Run: `cargo bench --bench search`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use retrograde::{
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::search::Precision,
    games::gravity::Gravity,
    language::{pons_score, sentinel_cells, BoardGame, Outcome},
    BoardSize, Family,
};

/// Table entries a run: 64 MiB of one-word entries.
const ENTRIES: usize = 1 << 23;

/// One position of a set: its stones (mover, occupied), stone count and
/// expected score.
struct Case {
    x: u64,
    occupied: u64,
    stones: u32,
    score: i32,
}

/// The first `count` positions of the set `name`.
fn load(name: &str, count: usize) -> Vec<Case> {
    let path = format!(
        "{}/benches/data/connect4-7x6-{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let board = BoardGame::new(
        Family::Gravity,
        retrograde::language::BoardSize::new(7, 6, 4),
    )
    .unwrap();
    text.lines()
        .take(count)
        .map(|line| {
            let (moves, score) = line.split_once(' ').expect("moves score");
            let p = board.play_moves(moves).unwrap();
            let (x, occupied) = sentinel_cells(7, 6, &p);
            Case {
                x,
                occupied,
                stones: p.stones(),
                score: score.parse().unwrap(),
            }
        })
        .collect()
}

/// A pool of `threads` workers.
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// Searches every case on a fresh table and asserts its answer.
fn run(board: &Bitboard, cases: &[Case], precision: Precision) {
    let searcher = BoardSearcher::quiet(board.clone(), ENTRIES);
    for case in cases {
        let r = searcher
            .search(case.x, case.occupied, precision)
            .unwrap()
            .expect("no deadline");
        match precision {
            Precision::Exact => {
                let score = pons_score(42, case.stones, r.value, r.depth);
                assert_eq!(score, Some(case.score), "score of a set position");
            }
            Precision::Weak => {
                let want = match case.score.signum() {
                    1 => Outcome::Win,
                    -1 => Outcome::Loss,
                    _ => Outcome::Draw,
                };
                assert_eq!(r.value, want, "value of a set position");
            }
        }
    }
}

fn position_sets(c: &mut Criterion) {
    let board = Bitboard::gravity(&Gravity::new(BoardSize::new(7, 6, 4)).unwrap());
    for (name, count) in [("late", 200), ("middle", 50), ("early", 4)] {
        let cases = load(name, count);
        let mut group = c.benchmark_group(format!("search_connect4_7x6_{name}"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(cases.len() as u64));
        for (mode, precision) in [("strong", Precision::Exact), ("weak", Precision::Weak)] {
            for threads in [1, 2] {
                let pool = pool(threads);
                group.bench_function(format!("{mode}_{threads}_threads"), |b| {
                    b.iter(|| pool.install(|| run(&board, &cases, precision)))
                });
            }
        }
        group.finish();
    }
}

/// The empty 6 × 6 (a second-player win on move 36) and 7 × 5 (a draw)
/// boards, exact score, each on a fresh table.
fn empty_boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("search_connect4_empty");
    group.sample_size(10);
    for (cols, rows, value, depth) in [(6, 6, Outcome::Loss, 36), (7, 5, Outcome::Draw, 35)] {
        let board = Bitboard::gravity(&Gravity::new(BoardSize::new(cols, rows, 4)).unwrap());
        for threads in [1, 2] {
            let pool = pool(threads);
            group.bench_function(format!("{cols}x{rows}_{threads}_threads"), |b| {
                b.iter(|| {
                    pool.install(|| {
                        let searcher = BoardSearcher::quiet(board.clone(), 1 << 25);
                        let r = searcher.search(0, 0, Precision::Exact).unwrap().unwrap();
                        assert_eq!((r.value, r.depth), (value, Some(depth)));
                    })
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, empty_boards, position_sets);
criterion_main!(benches);
