//! The zone prover as a source of position values (`ProversThenSearch`,
//! which `search mnk` puts before the general search on boards past the
//! bitboard search) against the exhaustive tables: a stride of the
//! positions in play of 4×4 with k = 3 and 4 and of 4×3 with k = 3, each
//! answered by the prover alone (the mover's attack, then the other's)
//! and by the table, value for value, and the best move it names keeps the
//! value by the table; and a position with too few empty
//! cells goes to the search, which gives a depth.

use retrograde::BoardSize;
use std::sync::atomic::AtomicU64;

use retrograde::{
    engines::layered::solve_mnk,
    engines::pairing::PairingBoard,
    engines::search::{Precision, SearchBoard, Searcher},
    facade::{ProversThenSearch, Search},
    games::mnk::Mnk,
    host::{Budget, Clock},
    language::{answer_with, BoardGame, Lookup, MoveDetail, Oracle, Outcome, Status},
    Family, Position,
};

use crate::common::for_each_position_in_play;

/// The oracle on `game`, the prover first for positions with at least
/// `min_empty` empty cells. Its search is exact: it answers with a depth,
/// so a value without one comes from the prover.
fn provers_then_search<'a>(
    game: &'a BoardGame,
    searcher: &'a Searcher<'a>,
    clock: &'a Clock<'a>,
    nodes: &'a AtomicU64,
    min_empty: u32,
) -> ProversThenSearch<'a> {
    ProversThenSearch {
        search: Search {
            game,
            searcher,
            clock,
            precision: Precision::Exact,
        },
        board: PairingBoard::new(BoardSize::new(game.cols(), game.rows(), game.k())).unwrap(),
        max_nodes: u64::MAX,
        memory_bytes: 64 << 20,
        min_empty,
        nodes,
    }
}

#[test]
fn the_provers_values_equal_the_tables() {
    for (cols, rows, k, stride) in [(4, 4, 3, 97), (4, 4, 4, 211), (4, 3, 3, 7)] {
        let table = solve_mnk(
            &Mnk::new(BoardSize { cols, rows, k }).unwrap(),
            &Budget::unlimited(),
        )
        .unwrap();
        let game = BoardGame::new(
            Family::Mnk,
            retrograde::language::BoardSize::new(cols, rows, k),
        )
        .unwrap();
        let board = SearchBoard::new(BoardSize { cols, rows, k }).unwrap();
        let searcher = Searcher::new(&board, 1 << 16);
        let (clock, nodes) = (Clock::until(None), AtomicU64::new(0));
        let oracle = provers_then_search(&game, &searcher, &clock, &nodes, 0);
        let (mut seen, mut checked) = (0u64, 0u64);
        for_each_position_in_play(&table, cols * rows, |x, o, value, _| {
            seen += 1;
            if seen % stride != 0 {
                return;
            }
            let p = Position::from_words(u64::from(x), u64::from(o));
            match oracle.lookup(&p).unwrap() {
                // the prover alone: no depth
                Lookup::Known(v, None) => {
                    assert_eq!(v, value, "{cols}×{rows} k={k} x={x:b} o={o:b}")
                }
                other => panic!("{cols}×{rows} k={k} x={x:b} o={o:b}: {other:?}"),
            }
            // the best move it names keeps the value, by the table
            let answer = answer_with(&game, &p, &oracle, MoveDetail::Best)
                .unwrap()
                .unwrap();
            let best = answer.moves.iter().find(|m| m.best).unwrap();
            let child = p.with(game.parse_move(&p, &best.notation).unwrap());
            let kept = match game.status(&child) {
                Status::InProgress => {
                    let (x, o) = child.words();
                    let (x, o) = (x as u32, o as u32);
                    table.lookup(x, o).unwrap().0.flip()
                }
                Status::Won(_) => Outcome::Win,
                Status::Drawn => Outcome::Draw,
            };
            assert_eq!(
                kept, value,
                "{cols}×{rows} k={k} x={x:b} o={o:b} best {}",
                best.notation
            );
            checked += 1;
        });
        assert!(checked >= 100, "{cols}×{rows} k={k}: {checked} positions");
        assert!(nodes.load(std::sync::atomic::Ordering::Relaxed) > 0);
    }
}

#[test]
fn positions_with_few_empty_cells_go_to_the_search() {
    let (cols, rows, k) = (4, 4, 3);
    let game = BoardGame::new(
        Family::Mnk,
        retrograde::language::BoardSize::new(cols, rows, k),
    )
    .unwrap();
    let board = SearchBoard::new(BoardSize { cols, rows, k }).unwrap();
    let searcher = Searcher::new(&board, 1 << 16);
    let (clock, nodes) = (Clock::until(None), AtomicU64::new(0));
    let oracle = provers_then_search(&game, &searcher, &clock, &nodes, 17);
    let p = game.play_moves("b2 a1").unwrap();
    assert!(matches!(
        oracle.lookup(&p).unwrap(),
        Lookup::Known(_, Some(_))
    ));
    assert_eq!(nodes.load(std::sync::atomic::Ordering::Relaxed), 0);
}
