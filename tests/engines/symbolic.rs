//! The symbolic (BDD) engine against the explicit engines: every per-ply
//! count, every first-player W/D/L count and the empty board's value, on
//! every gravity board up to 5×4 and every m,n,k board up to 4×4, every k,
//! both encodings where they apply, at 1 and 2 threads; Böck's published
//! counts; and a checkpointed run killed part-way that resumes to the
//! identical result.

use retrograde::{
    disk::{Set, SolvedSets, SymbolicSets},
    engines::layered::solve_mnk,
    engines::sparse::{solve_gravity, GravityCounts},
    engines::symbolic::{solve_symbolic, Encoding, Layout, PlySink, SymbolicRun, SymbolicSolution},
    games::gravity::Gravity,
    games::mnk::Mnk,
    host::{Budget, Bytes, Silent},
    language::Outcome,
    BoardSize, Family,
};

fn run(layout: Layout, threads: usize, count_only: bool) -> SymbolicSolution {
    solve_symbolic(
        &SymbolicRun {
            layout,
            threads,
            budget: Budget(Bytes(256 << 20)),
            count_only,
            checkpoint: None,
            deadline: None,
        },
        None,
        &Silent,
    )
    .unwrap()
}

fn counts(s: &SymbolicSolution) -> Vec<GravityCounts> {
    s.plies.iter().map(|p| p.counts).collect()
}

#[test]
fn gravity_boards_up_to_5x4_equal_the_explicit_engine() {
    for cols in 1..=5u32 {
        for rows in 1..=4u32 {
            for k in 1..=cols.max(rows) {
                let game = Gravity::new(BoardSize { cols, rows, k }).unwrap();
                let explicit = solve_gravity(&game, &Budget::unlimited()).unwrap();
                let value = explicit.lookup(0, game.key(0, 0)).unwrap().0;
                for encoding in [Encoding::Column, Encoding::Pair] {
                    for threads in [1, 2] {
                        let layout =
                            Layout::new(Family::Gravity, BoardSize { cols, rows, k }, encoding)
                                .unwrap();
                        let s = run(layout, threads, false);
                        let what = format!("{cols}×{rows} k={k} {encoding:?} {threads} threads");
                        assert_eq!(counts(&s), explicit.counts, "{what}");
                        assert_eq!(s.value, Some(value), "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn mnk_boards_up_to_4x4_equal_the_explicit_engine() {
    for cols in 1..=4u32 {
        for rows in 1..=4u32 {
            for k in 1..=cols.max(rows) {
                let game = Mnk::new(BoardSize { cols, rows, k }).unwrap();
                let explicit = solve_mnk(&game, &Budget::unlimited()).unwrap();
                let value = explicit.lookup(0, 0).unwrap().0;
                for threads in [1, 2] {
                    let layout =
                        Layout::new(Family::Mnk, BoardSize { cols, rows, k }, Encoding::Pair)
                            .unwrap();
                    let s = run(layout, threads, false);
                    let what = format!("{cols}×{rows} k={k}, {threads} threads");
                    assert_eq!(s.value, Some(value), "{what}");
                    assert_eq!(s.plies.len(), explicit.counts.len(), "{what}");
                    for (mine, theirs) in s.plies.iter().zip(&explicit.counts) {
                        let c = mine.counts;
                        let got = [
                            c.positions,
                            c.terminal,
                            c.x_wins,
                            c.o_wins,
                            c.draws,
                            c.first_won,
                            c.first_drawn,
                            c.first_lost,
                        ];
                        let want = [
                            theirs.positions,
                            theirs.terminal,
                            theirs.x_wins,
                            theirs.o_wins,
                            theirs.draws,
                            theirs.x_can_win,
                            theirs.neither_can_win,
                            theirs.o_can_win,
                        ];
                        assert_eq!(got, want, "{what}, ply {}", c.ply);
                    }
                }
            }
        }
    }
}

/// Böck's table of positions (all reachable positions, those with a line
/// included; markus7800/Connect4-Strong-Solver, README and paper, Table
/// 1), k = 4, for the boards that count in well under a second here.
#[test]
fn boecks_counts_of_small_boards() {
    let table: &[(u32, u32, u64)] = &[
        (1, 1, 2),
        (2, 2, 18),
        (3, 3, 869),
        (4, 4, 161_029),
        (2, 6, 1_571),
        (6, 2, 29_737),
        (3, 5, 38_310),
        (5, 3, 158_911),
        (1, 11, 12),
        (11, 1, 48_930),
        (2, 10, 113_835),
        (10, 2, 50_780_523),
        (4, 5, 1_706_255),
        (5, 4, 3_945_711),
        (3, 6, 235_781),
        (7, 2, 189_648),
    ];
    for &(cols, rows, want) in table {
        let layout = Layout::new(
            Family::Gravity,
            BoardSize::new(cols, rows, 4),
            Encoding::Column,
        )
        .unwrap();
        let s = run(layout, 2, true);
        let total: u64 = s.plies.iter().map(|p| p.counts.positions).sum();
        assert_eq!(total, want, "{cols}×{rows}");
        assert_eq!(s.value, None);
    }
}

#[test]
fn a_tiny_store_is_refused_with_the_ply_not_a_crash() {
    let layout = Layout::new(Family::Gravity, BoardSize::new(6, 4, 4), Encoding::Column).unwrap();
    let err = solve_symbolic(
        &SymbolicRun {
            layout,
            threads: 1,
            budget: Budget(Bytes(4 << 20)),
            count_only: true,
            checkpoint: None,
            deadline: None,
        },
        None,
        &Silent,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("not reached") && err.contains("ply"), "{err}");
}

/// A count holds the ply it expands, not every ply: 7×4 counts in a store
/// about three quarters of its plies' diagrams together (and collects its
/// dead nodes on the way), and every per-ply count equals the explicit
/// engine's documented run (`results/connect/connect-7x4-k4.json`).
///
/// The board and the thread count are chosen so that the outcome does not
/// hang on timing: each thread working in an OxiDD store keeps up to two
/// chunks of 64 K slots to itself, and OxiDD's background collector runs
/// when the scheduler lets it, so how full a store is at a given moment
/// varies from run to run by a few hundred thousand slots. Measured under
/// two competing 2-thread solves: 6×4 in 40 MiB (0.92 of its plies) at one
/// thread was refused in 1 run of 20, 7×4 in 150 MiB at two threads in 1 of
/// 6, 7×4 in 150 MiB at one thread in none of 8. Before counts dropped the
/// plies they had expanded, 6×4 was refused at ply 20 in 64 MiB.
#[test]
fn a_count_fits_a_store_smaller_than_all_its_plies() {
    let layout = Layout::new(Family::Gravity, BoardSize::new(7, 4, 4), Encoding::Column).unwrap();
    let tight = solve_symbolic(
        &SymbolicRun {
            layout,
            threads: 1,
            budget: Budget(Bytes(150 << 20)),
            count_only: true,
            checkpoint: None,
            deadline: None,
        },
        None,
        &Silent,
    )
    .unwrap();
    let all_plies: u64 = tight.plies.iter().map(|p| p.nodes).sum();
    let largest = tight.plies.iter().map(|p| p.nodes).max().unwrap();
    assert!(
        tight.capacity < all_plies * 4 / 5 && tight.capacity > 4 * largest,
        "store {} nodes, plies {all_plies} together, largest {largest}",
        tight.capacity
    );
    let documented: serde_json::Value =
        serde_json::from_str(include_str!("../../results/connect/connect-7x4-k4.json")).unwrap();
    let explicit: Vec<GravityCounts> =
        serde_json::from_value(documented["per_ply"].clone()).unwrap();
    let without_values = |c: &GravityCounts| GravityCounts {
        first_won: 0,
        first_drawn: 0,
        first_lost: 0,
        ..*c
    };
    let counted: Vec<GravityCounts> = counts(&tight).iter().map(without_values).collect();
    let expected: Vec<GravityCounts> = explicit.iter().map(without_values).collect();
    assert_eq!(counted, expected);
}

#[test]
fn empty_board_values() {
    // tic-tac-toe a draw; 4×4 k=3 a first-player win; Connect Four on
    // 5×4 a draw (6×4, a second-player win, is a measured run: README)
    for (family, cols, rows, k, want) in [
        (Family::Mnk, 3, 3, 3, Outcome::Draw),
        (Family::Mnk, 4, 4, 3, Outcome::Win),
        (Family::Gravity, 5, 4, 4, Outcome::Draw),
    ] {
        let layout = Layout::new(
            family,
            BoardSize { cols, rows, k },
            Encoding::best_for(family),
        )
        .unwrap();
        assert_eq!(
            run(layout, 2, false).value,
            Some(want),
            "{cols}×{rows} k={k}"
        );
    }
}

/// Solves with the sets kept, for lookups.
fn sets_of(layout: Layout) -> SolvedSets {
    let mut memory = SolvedSets::new(layout);
    solve_symbolic(
        &SymbolicRun {
            layout,
            threads: 2,
            budget: Budget(Bytes(256 << 20)),
            count_only: false,
            checkpoint: None,
            deadline: None,
        },
        Some(&mut memory as &mut dyn PlySink),
        &Silent,
    )
    .unwrap();
    memory
}

/// Every stored position of the explicit gravity engine (and its mirror
/// image), state by state: in the symbolic won set exactly when the
/// explicit table says won, in the lost set exactly when it says lost.
#[test]
fn every_gravity_position_up_to_5x4_has_the_explicit_value() {
    for (cols, rows, k) in [(4, 4, 4), (5, 4, 4), (4, 4, 3), (5, 3, 3), (3, 5, 3)] {
        let game = Gravity::new(BoardSize { cols, rows, k }).unwrap();
        let explicit = solve_gravity(&game, &Budget::unlimited()).unwrap();
        let layout = Layout::new(
            Family::Gravity,
            BoardSize { cols, rows, k },
            Encoding::Column,
        )
        .unwrap();
        let sets = sets_of(layout);
        let field = rows + 1;
        let mirror = |key: u64| -> u64 {
            (0..cols).fold(0, |m, c| {
                m | ((key >> (c * field)) & ((1 << field) - 1)) << ((cols - 1 - c) * field)
            })
        };
        let mut checked = 0u64;
        for (ply, table) in explicit.plies.iter().enumerate() {
            let (keys, values) = table.raw();
            for (i, &code) in values.iter().enumerate() {
                let key = keys.get(i);
                for key in [key, mirror(key)] {
                    // the column encoding's assignment is the key's bits
                    let bits: Vec<bool> = (0..layout.vars()).map(|v| key >> v & 1 == 1).collect();
                    let won = sets.contains(ply as u32, Set::Won, &bits).unwrap();
                    let lost = sets.contains(ply as u32, Set::Lost, &bits).unwrap();
                    let what = format!("{cols}×{rows} k={k} ply {ply} key {key:#x}");
                    assert_eq!((won, lost), (code & 3 == 1, code & 3 == 2), "{what}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= explicit.counts.iter().map(|c| c.positions).sum::<u64>());
    }
}

/// Every board of 3^cells stone patterns on m,n,k boards up to 12 cells:
/// a reachable one has the explicit value, an unreachable one is in
/// neither set.
#[test]
fn every_mnk_board_up_to_12_cells_has_the_explicit_value() {
    for (cols, rows, k) in [
        (3, 3, 3),
        (4, 3, 3),
        (3, 4, 3),
        (4, 3, 4),
        (4, 3, 2),
        (2, 5, 3),
    ] {
        let game = Mnk::new(BoardSize { cols, rows, k }).unwrap();
        let explicit = solve_mnk(&game, &Budget::unlimited()).unwrap();
        let layout = Layout::new(Family::Mnk, BoardSize { cols, rows, k }, Encoding::Pair).unwrap();
        let sets = sets_of(layout);
        let cells = cols * rows;
        for pattern in 0..3u64.pow(cells) {
            let (mut x, mut o, mut rest) = (0u64, 0u64, pattern);
            for cell in 0..cells {
                match rest % 3 {
                    1 => x |= 1 << cell,
                    2 => o |= 1 << cell,
                    _ => {}
                }
                rest /= 3;
            }
            let p = retrograde::language::Position::from_words(x, o);
            let ply = p.stones();
            let bits = layout.assignment(&p);
            let won = sets.contains(ply, Set::Won, &bits).unwrap();
            let lost = sets.contains(ply, Set::Lost, &bits).unwrap();
            let want = match explicit.lookup(x as u32, o as u32) {
                Some((Outcome::Win, _)) => (true, false),
                Some((Outcome::Loss, _)) => (false, true),
                _ => (false, false),
            };
            assert_eq!((won, lost), want, "{cols}×{rows} k={k} x={x:#b} o={o:#b}");
        }
    }
}
