//! Cat and Mouse II on a grid (LeetCode 1728): LeetCode's examples, the move
//! limit against a finite-horizon reference on every state of hundreds of
//! seeded random grids, and thread independence.

use retrograde::{
    engines::retrograde::solve,
    games::cat_mouse_grid::{CatMouseGrid, GridPosition, Turn},
    host::in_pool,
};

use crate::common::Rng;

fn leetcode(grid: &[&str], cat_jump: u32, mouse_jump: u32) -> bool {
    let game = CatMouseGrid::new(grid, cat_jump, mouse_jump).unwrap();
    let table = solve(&game).unwrap();
    game.mouse_wins_within(&table, game.start_state(), 1000)
}

#[test]
fn leetcodes_five_examples() {
    assert!(leetcode(&["####F", "#C...", "M...."], 1, 2));
    assert!(leetcode(&["M.C...F"], 1, 4));
    assert!(!leetcode(&["M.C...F"], 1, 3));
    assert!(!leetcode(&["C...#", "...#F", "....#", "M...."], 2, 5));
    assert!(leetcode(
        &[".M...", "..#..", "#..#.", "C#.#.", "...#F"],
        3,
        1
    ));
}

/// `wins[r][m][c][t]` of [`finite_horizon`].
type Horizon = Vec<Vec<Vec<[bool; 2]>>>;

/// The finite-horizon reference: `wins[r][m][c][t]` — does the mouse reach
/// the food with at most `r` moves left, from mouse cell `m`, cat cell `c`,
/// `t` to move (0 mouse)? Computed for r = 0, 1, …, L from r − 1, over its
/// own list of floor cells and its own jump generator.
fn finite_horizon(
    grid: &[Vec<u8>],
    cat_jump: i32,
    mouse_jump: i32,
    limit: usize,
) -> (Vec<(i32, i32)>, Horizon) {
    let rows = grid.len() as i32;
    let cols = grid[0].len() as i32;
    let cells: Vec<(i32, i32)> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter(|&(r, c)| grid[r as usize][c as usize] != b'#')
        .collect();
    let index = |p: (i32, i32)| cells.iter().position(|&q| q == p).unwrap();
    let food = cells
        .iter()
        .position(|&(r, c)| grid[r as usize][c as usize] == b'F')
        .unwrap();
    let jumps = |from: usize, jump: i32| -> Vec<usize> {
        let (r, c) = cells[from];
        let mut out = vec![from];
        for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            for step in 1..=jump {
                let (nr, nc) = (r + dr * step, c + dc * step);
                if nr < 0
                    || nc < 0
                    || nr >= rows
                    || nc >= cols
                    || grid[nr as usize][nc as usize] == b'#'
                {
                    break;
                }
                out.push(index((nr, nc)));
            }
        }
        out
    };
    let n = cells.len();
    let mut wins = vec![vec![vec![[false; 2]; n]; n]; limit + 1];
    for r in 0..=limit {
        for m in 0..n {
            for c in 0..n {
                for t in 0..2 {
                    wins[r][m][c][t] = if m == c || c == food {
                        false
                    } else if m == food {
                        true
                    } else if r == 0 {
                        false
                    } else if t == 0 {
                        jumps(m, mouse_jump).iter().any(|&m2| wins[r - 1][m2][c][1])
                    } else {
                        jumps(c, cat_jump).iter().all(|&c2| wins[r - 1][m][c2][0])
                    };
                }
            }
        }
    }
    (cells, wins)
}

fn random_grid(rng: &mut Rng) -> Vec<Vec<u8>> {
    loop {
        let rows = 1 + rng.below(6) as usize;
        let cols = 1 + rng.below(6) as usize;
        let walls = rng.below(40);
        let mut grid: Vec<Vec<u8>> = (0..rows)
            .map(|_| {
                (0..cols)
                    .map(|_| if rng.chance(walls) { b'#' } else { b'.' })
                    .collect()
            })
            .collect();
        let mut floor: Vec<(usize, usize)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|&(r, c)| grid[r][c] == b'.')
            .collect();
        if floor.len() < 3 {
            continue;
        }
        for piece in [b'C', b'M', b'F'] {
            let (r, c) = floor.remove(rng.below(floor.len() as u64) as usize);
            grid[r][c] = piece;
        }
        return grid;
    }
}

#[test]
fn the_move_limit_matches_a_finite_horizon_reference_on_every_state() {
    const LIMIT: usize = 12;
    let mut rng = Rng::new(1728);
    let mut decided_by_limit = 0;
    for case in 0..300 {
        let grid = random_grid(&mut rng);
        let (cat_jump, mouse_jump) = (1 + rng.below(4) as u32, 1 + rng.below(4) as u32);
        let text: Vec<String> = grid
            .iter()
            .map(|row| String::from_utf8(row.clone()).unwrap())
            .collect();
        let rows: Vec<&str> = text.iter().map(String::as_str).collect();
        let game = CatMouseGrid::new(&rows, cat_jump, mouse_jump).unwrap();
        let table = solve(&game).unwrap();
        let (cells, wins) = finite_horizon(&grid, cat_jump as i32, mouse_jump as i32, LIMIT);
        for (m, &(mr, mc)) in cells.iter().enumerate() {
            for (c, &(cr, cc)) in cells.iter().enumerate() {
                for (t, turn) in [Turn::Mouse, Turn::Cat].into_iter().enumerate() {
                    let mouse = game.cell_at(mr as u32, mc as u32).unwrap();
                    let cat = game.cell_at(cr as u32, cc as u32).unwrap();
                    let s = game.rank(GridPosition { mouse, cat, turn });
                    for limit in 0..=LIMIT {
                        let want = wins[limit][m][c][t];
                        assert_eq!(
                            game.mouse_wins_within(&table, s, limit as u64),
                            want,
                            "case {case}: {rows:?} cat jump {cat_jump} mouse jump {mouse_jump}, mouse {m} cat {c} {turn:?}, limit {limit}"
                        );
                        decided_by_limit +=
                            usize::from(limit > 0 && want && !wins[limit - 1][m][c][t]);
                    }
                }
            }
        }
    }
    assert!(
        decided_by_limit > 1000,
        "the limits must matter: {decided_by_limit}"
    );
}

#[test]
fn tables_are_bit_identical_at_1_2_and_4_threads() {
    let mut rng = Rng::new(7);
    let rows: Vec<String> = (0..48)
        .map(|r| {
            (0..48)
                .map(|c| {
                    if (r, c) == (0, 0) {
                        'M'
                    } else if (r, c) == (47, 47) {
                        'F'
                    } else if (r, c) == (0, 47) {
                        'C'
                    } else if rng.chance(12) {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let game = CatMouseGrid::new(&rows, 2, 3).unwrap();
    let tables: Vec<_> = [1, 2, 4]
        .into_iter()
        .map(|t| in_pool(t, || solve(&game)).unwrap().unwrap())
        .collect();
    assert_eq!(tables[0], tables[1]);
    assert_eq!(tables[0], tables[2]);
}

#[test]
fn bad_grids_are_refused_with_a_reason() {
    let err = |rows: &[&str]| CatMouseGrid::new(rows, 1, 1).unwrap_err().to_string();
    assert!(err(&["CM.", "F."]).contains("row 2"));
    assert!(err(&["CMX", "F.."]).contains("'X'"));
    assert!(err(&["M..", "F.."]).contains("C (cat)"));
    assert!(err(&["CMM", "F.."]).contains("M (mouse)"));
    assert!(err(&[]).contains("empty"));
}
