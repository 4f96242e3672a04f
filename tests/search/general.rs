//! The search engine against the exhaustive layered engine: the empty
//! board of every m,n,k board up to 4×4 and every k, and hundreds of seeded
//! random positions in play; the same values at 1, 2 and 4 threads.

use retrograde::language::Outcome as Value;
use retrograde::{
    engines::layered::{solve_mnk, MnkSolution},
    engines::search::{value_of, Precision, SearchBoard, Searcher},
    games::mnk::Mnk,
    host::{in_pool, Budget},
    BoardSize,
};

use crate::common;
use crate::common::Rng;

const CAPACITY: usize = 1 << 22;

/// The exact value and depth of (X cells, O cells) by search.
fn exact(board: &SearchBoard, x: u64, o: u64) -> (Value, u32) {
    let r = Searcher::new(board, CAPACITY)
        .search(x, o, Precision::Exact)
        .unwrap()
        .unwrap();
    (r.value, r.depth.unwrap())
}

fn exhaustive(rows: u32, cols: u32, k: u32) -> MnkSolution {
    solve_mnk(
        &Mnk::new(BoardSize { cols, rows, k }).unwrap(),
        &Budget::unlimited(),
    )
    .unwrap()
}

#[test]
fn search_agrees_with_the_tables_on_every_empty_board_up_to_4x4() {
    for rows in 1..=4 {
        for cols in 1..=4 {
            for k in 1..=rows.max(cols) {
                let table = exhaustive(rows, cols, k);
                let want = table.lookup(0, 0).unwrap();
                let board = SearchBoard::new(BoardSize { cols, rows, k }).unwrap();
                let got = value_of(&board, 0, 0, CAPACITY).unwrap().value;
                assert_eq!(got, want.0, "{rows}×{cols} k={k}");
                assert_eq!(exact(&board, 0, 0), want, "{rows}×{cols} k={k} exact");
            }
        }
    }
}

#[test]
fn search_agrees_on_random_positions_in_play() {
    let mut rng = Rng::new(8);
    let mut checked = 0;
    for (rows, cols, k) in [(3, 3, 3), (3, 4, 3), (4, 4, 3), (4, 4, 4)] {
        let table = exhaustive(rows, cols, k);
        let game = Mnk::new(BoardSize { cols, rows, k }).unwrap();
        let board = SearchBoard::new(BoardSize { cols, rows, k }).unwrap();
        let mut found = 0;
        while found < 100 {
            // a random game prefix, stopped before it ends
            let plies = rng.below(u64::from(rows * cols - 1)) as u32;
            let (mut x, mut o) = (0u32, 0u32);
            let mut ok = true;
            for ply in 0..plies {
                let empty: Vec<u32> = (0..rows * cols)
                    .filter(|c| (x | o) & (1 << c) == 0)
                    .collect();
                let cell = empty[rng.below(empty.len() as u64) as usize];
                if ply % 2 == 0 {
                    x |= 1 << cell
                } else {
                    o |= 1 << cell
                }
                if game.has_line(x) || game.has_line(o) {
                    ok = false;
                    break;
                }
            }
            if !ok {
                continue;
            }
            let want = table
                .lookup(x, o)
                .expect("a legal game prefix is reachable");
            let got = value_of(&board, u64::from(x), u64::from(o), CAPACITY)
                .unwrap()
                .value;
            assert_eq!(got, want.0, "{rows}×{cols} k={k}: x {x:b} o {o:b}");
            let got = exact(&board, u64::from(x), u64::from(o));
            assert_eq!(got, want, "{rows}×{cols} k={k}: x {x:b} o {o:b} exact");
            found += 1;
        }
        checked += found;
    }
    assert_eq!(checked, 400);
}

#[test]
fn values_do_not_depend_on_the_thread_count() {
    for (rows, cols, k) in [(4, 4, 3), (4, 4, 4), (3, 5, 3)] {
        let board = SearchBoard::new(BoardSize { cols, rows, k }).unwrap();
        let values: Vec<_> = [1, 2, 4]
            .into_iter()
            .map(|t| {
                let weak = in_pool(t, || value_of(&board, 0, 0, CAPACITY))
                    .unwrap()
                    .unwrap()
                    .value;
                (weak, in_pool(t, || exact(&board, 0, 0)).unwrap())
            })
            .collect();
        assert!(
            values.iter().all(|v| *v == values[0]),
            "{rows}×{cols} k={k}: {values:?}"
        );
    }
}

#[test]
fn a_tiny_table_only_costs_time() {
    let board = SearchBoard::new(BoardSize::new(4, 4, 3)).unwrap();
    let roomy = value_of(&board, 0, 0, CAPACITY).unwrap();
    let cramped = value_of(&board, 0, 0, 16).unwrap();
    assert_eq!(roomy.value, cramped.value);
    assert!(cramped.nodes >= roomy.nodes);
}

#[test]
fn finished_or_illegal_positions_are_refused() {
    let board = SearchBoard::new(BoardSize::new(3, 3, 3)).unwrap();
    assert!(value_of(&board, 0b111, 0b11000, CAPACITY).is_err());
    assert!(value_of(&board, 0b11, 0, CAPACITY).is_err());
    assert!(SearchBoard::new(BoardSize::new(8, 9, 3)).is_err());
    assert!(SearchBoard::new(BoardSize::new(2, 17, 3)).is_err());
    assert!(SearchBoard::new(BoardSize::new(3, 9, 3)).is_ok());
    assert!(SearchBoard::new(BoardSize::new(3, 3, 4)).is_err());
}

use crate::common::cli;

#[test]
fn the_search_command_answers_boards_and_positions() {
    let v = cli::json_of(&[
        "search", "mnk", "--rows", "4", "--cols", "3", "--k", "3", "--json",
    ]);
    assert_eq!(
        (v["value"].as_str(), v["to_move"].as_str()),
        (Some("win"), Some("X"))
    );
    assert!(v["nodes"].as_u64().unwrap() > 0 && v["seconds"].is_number());
    let v = cli::json_of(&["search", "mnk", "--json"]);
    assert_eq!(v["value"], "draw");
    // O to move must block at c1: a draw; elsewhere it loses
    let v = cli::json_of(&["search", "mnk", "--board", "XX./.O./...", "--json"]);
    assert_eq!(v["value"], "draw");
    let v = cli::json_of(&["search", "mnk", "--board", "XX./.O./..O", "--json"]);
    assert_eq!(v["value"], "win");
    let v = cli::json_of(&["search", "mnk", "--board", "XXX/OO./...", "--json"]);
    assert_eq!(
        (v["status"].as_str(), v["winner"].as_str()),
        (Some("won"), Some("X"))
    );
    cli::refused(&["search", "mnk", "--rows", "17", "--moves", "a1"]);
    cli::refused(&["search", "connect", "--cols", "9", "--rows", "8"]);
    cli::refused(&["search", "mnk", "--board", "XO/X"]);
}

mod gravity {
    use super::*;
    use retrograde::{engines::sparse::solve_gravity, games::gravity::Gravity, language::Outcome};

    /// Gravity key bits (column-major with a spare bit a column) to search
    /// cells (row-major from the bottom).
    fn to_cells(game: &Gravity, stones: u64) -> u64 {
        let (cols, rows, _) = game.dimensions();
        let mut out = 0;
        for c in 0..cols {
            for r in 0..rows {
                if stones & (1 << (c * (rows + 1) + r)) != 0 {
                    out |= 1u64 << (r * cols + c);
                }
            }
        }
        out
    }

    #[test]
    fn search_agrees_with_the_exhaustive_gravity_tables() {
        let mut rng = Rng::new(4);
        for cols in 1..=5u32 {
            for rows in 1..=4u32 {
                for k in 1..=cols.max(rows) {
                    let game = Gravity::new(BoardSize { cols, rows, k }).unwrap();
                    let table = solve_gravity(&game, &Budget::unlimited()).unwrap();
                    let board = SearchBoard::gravity(BoardSize { cols, rows, k }).unwrap();
                    let want = table.lookup(0, game.key(0, 0)).unwrap();
                    assert_eq!(
                        value_of(&board, 0, 0, CAPACITY).unwrap().value,
                        want.0,
                        "{cols}×{rows} k={k}"
                    );
                    assert_eq!(exact(&board, 0, 0), want, "{cols}×{rows} k={k} exact");
                    // random games, stopped before they end
                    for _ in 0..8 {
                        let (x, occupied, ply) = common::random_gravity_prefix(&mut rng, &game);
                        let want = table.lookup(ply as usize, game.key(x, occupied)).unwrap();
                        let (xs, os) = (to_cells(&game, x), to_cells(&game, occupied & !x));
                        let got = value_of(&board, xs, os, CAPACITY).unwrap().value;
                        assert_eq!(
                            got, want.0,
                            "{cols}×{rows} k={k} x {x:b} occupied {occupied:b}"
                        );
                        assert_eq!(exact(&board, xs, os), want, "{cols}×{rows} k={k} exact");
                    }
                }
            }
        }
        let four_by_four = SearchBoard::gravity(BoardSize::new(4, 4, 4)).unwrap();
        assert_eq!(
            value_of(&four_by_four, 0, 0, CAPACITY).unwrap().value,
            Outcome::Draw
        );
    }
}

#[test]
fn a_search_past_its_deadline_reports_nothing() {
    let board = SearchBoard::new(BoardSize::new(5, 5, 4)).unwrap();
    let now = std::time::Instant::now();
    assert_eq!(
        retrograde::engines::search::value_within(&board, 0, 0, CAPACITY, Some(now)).unwrap(),
        None
    );
    let quick = SearchBoard::new(BoardSize::new(3, 3, 3)).unwrap();
    let later = now + std::time::Duration::from_secs(600);
    let found =
        retrograde::engines::search::value_within(&quick, 0, 0, CAPACITY, Some(later)).unwrap();
    assert_eq!(
        found.map(|r| r.value),
        Some(retrograde::language::Outcome::Draw)
    );
}

/// A board of 10 columns: the move "10" is a column, the diagram's cells
/// are as wide as the widest label, and a double threat is found.
#[test]
fn a_board_wider_than_9_columns_is_searched_and_drawn_aligned() {
    let out = cli::retrograde(&[
        "search",
        "connect",
        "--cols",
        "10",
        "--rows",
        "4",
        "--moves",
        "2 10 3 10 4",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "     1  2  3  4  5  6  7  8  9 10", "{text}");
    assert_eq!(lines[4], "     .  X  X  X  .  .  .  .  .  O", "{text}");
    assert!(text.contains("O to move: loss in 2 plies"), "{text}");
}
