//! The layered engine against the simple reference of
//! `common/mnk_reference.rs`, for every board of at most 12 cells (within
//! 5×5) and every k: every count of every ply, the games, and every
//! position's value and depth.

use retrograde::BoardSize;
use std::collections::{HashMap, HashSet};

use retrograde::{
    engines::layered::{solve_mnk, PlyCounts},
    games::mnk::Mnk,
    host::Budget,
    language::Outcome,
};

use crate::common::mnk_reference::{Reference, Value};

fn compare(rows: u32, cols: u32, k: u32) {
    let reference = Reference::new(rows, cols, k);
    let solution = solve_mnk(
        &Mnk::new(BoardSize { cols, rows, k }).unwrap(),
        &Budget::unlimited(),
    )
    .unwrap();
    let name = format!("{rows}×{cols} k={k}");
    for (ply, boards) in reference.plies.iter().enumerate() {
        let c = &solution.counts[ply];
        let terminal: Vec<_> = boards
            .iter()
            .filter(|&&(x, o)| reference.is_terminal(x, o))
            .collect();
        let x_moved = ply % 2 == 1;
        let x_won = terminal
            .iter()
            .filter(|&&&(x, o)| {
                ply > 0 && reference.has_line(if x_moved { x } else { o }) && x_moved
            })
            .count();
        let o_won = terminal
            .iter()
            .filter(|&&&(x, o)| {
                ply > 0 && reference.has_line(if x_moved { x } else { o }) && !x_moved
            })
            .count();
        let classes = |set: &mut dyn Iterator<Item = &(u32, u32)>| {
            set.map(|&(x, o)| reference.canonical(x, o))
                .collect::<HashSet<_>>()
                .len() as u64
        };
        let x_to_move = ply % 2 == 0;
        let side = |&&(x, o): &&(u32, u32)| match reference.values[&(x, o)] {
            Value::Win(_) => {
                if x_to_move {
                    'X'
                } else {
                    'O'
                }
            }
            Value::Loss(_) => {
                if x_to_move {
                    'O'
                } else {
                    'X'
                }
            }
            Value::Draw(_) => '-',
        };
        let of_side = |s: char| boards.iter().filter(|b| side(b) == s).collect::<Vec<_>>();
        let expected = PlyCounts {
            ply: ply as u32,
            positions: boards.len() as u64,
            terminal: terminal.len() as u64,
            x_wins: x_won as u64,
            o_wins: o_won as u64,
            draws: (terminal.len() - x_won - o_won) as u64,
            classes: classes(&mut boards.iter()),
            terminal_classes: classes(&mut terminal.iter().copied()),
            x_can_win: of_side('X').len() as u64,
            o_can_win: of_side('O').len() as u64,
            neither_can_win: of_side('-').len() as u64,
            x_can_win_classes: classes(&mut of_side('X').into_iter()),
            o_can_win_classes: classes(&mut of_side('O').into_iter()),
            neither_can_win_classes: classes(&mut of_side('-').into_iter()),
        };
        assert_eq!(*c, expected, "{name}, ply {ply}");
        for &(x, o) in boards {
            let want = match reference.values[&(x, o)] {
                Value::Win(d) => (Outcome::Win, d),
                Value::Loss(d) => (Outcome::Loss, d),
                Value::Draw(d) => (Outcome::Draw, d),
            };
            assert_eq!(
                solution.lookup(x, o),
                Some(want),
                "{name}, board x={x:b} o={o:b}"
            );
        }
    }
    let games = reference.games(&mut HashMap::new(), 0, 0);
    let g = solution.games;
    assert_eq!([g.x_wins, g.o_wins, g.draws], games, "{name}: games");
}

#[test]
fn every_board_of_at_most_12_cells_and_every_k_matches_the_reference() {
    let mut boards = 0;
    for rows in 1..=5 {
        for cols in 1..=5 {
            if rows * cols > 12 {
                continue;
            }
            for k in 1..=rows.max(cols) {
                compare(rows, cols, k);
                boards += 1;
            }
        }
    }
    assert_eq!(boards, 66);
}

#[test]
fn unreachable_boards_have_no_value() {
    let solution = solve_mnk(
        &Mnk::new(BoardSize::new(3, 3, 3)).unwrap(),
        &Budget::unlimited(),
    )
    .unwrap();
    // X has a full row and O's third stone was still played: never legal.
    assert_eq!(solution.lookup(0b000_000_111, 0b011_010_000), None);
    // too many X stones
    assert_eq!(solution.lookup(0b11, 0), None);
}
