//! The threat prover (`prove mnk --method threats`) on gomoku positions:
//! two wins for X proved from scratch with their certificates (the count
//! of positions each lists is asserted, and it is the same figure on every
//! machine: the search is deterministic), and a fixed number of positions
//! searched below 1.h8 m12 (a class of the 15,15,5 proof), its counts
//! asserted. Each iteration has a fresh prover of 2 GiB. Throughput is in
//! positions searched a second. Run: `cargo bench --bench threat_proof`.

use retrograde::BoardSize;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use retrograde::engines::threats::{Board, Geometry, Settings, ThreatProver, Verdict};

/// The settings of the gomoku runs (`scripts/gomoku.sh`: zones off).
fn gomoku_settings() -> Settings {
    Settings {
        zone_moves: None,
        ..Settings::default()
    }
}

/// Proves X's win after `moves` and returns (positions searched,
/// positions the certificate lists), or the positions searched alone
/// when `visits` stopped it first.
fn run(geometry: &Geometry, moves: &str, visits: u64) -> (u64, Option<usize>) {
    let mut board = Board::after(geometry, moves).unwrap();
    let mut prover = ThreatProver::new(geometry, 0, gomoku_settings(), 2 << 30, None);
    prover.limit_visits(visits);
    let verdict = prover.prove(&mut board);
    let searched = prover.stats().visits;
    if verdict != Verdict::Win {
        return (searched, None);
    }
    let (_, listed) = prover.certificate(&mut board).unwrap();
    (searched, Some(listed))
}

fn threat_prover(c: &mut Criterion) {
    let geometry = Geometry::new(BoardSize::new(15, 15, 5)).unwrap();
    let mut group = c.benchmark_group("threat_prover");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(60));
    // (moves, positions searched, positions listed)
    let cases = [
        ("h8,a1,i9,a2", 104_792, Some(8_738)),
        ("h8,m12,i9,l11", 273_802, Some(17_655)),
        ("h8,m12", 200_000, None),
    ];
    for (moves, searched, listed) in cases {
        group.throughput(Throughput::Elements(searched));
        group.bench_function(moves, |b| {
            b.iter(|| {
                assert_eq!(
                    run(&geometry, moves, 200_000.max(searched)),
                    (searched, listed)
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, threat_prover);
criterion_main!(benches);
