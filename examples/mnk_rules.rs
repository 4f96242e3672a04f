//! An m,n,k game (4 × 4, three in a row) written for the generic engine as
//! a user would write it — a board in a `u32`, two bits a cell, no
//! symmetry — solved beside the built-in dense layered engine on the same
//! board: equal counts, and the time of each.
//!
//! ```text
//! cargo run --release --example mnk_rules                # every position
//! cargo run --release --example mnk_rules -- --symmetry  # one a symmetry class
//! cargo run --release --example mnk_rules -- serve       # its answers over HTTP
//! ```
//!
//! The game's own command line (`solve`, `query`, `play`, `serve`, crate
//! `retrograde-own`) runs with the symmetries; cells are named as the m,n,k
//! boards name them (a column letter, a row number from 1 at the top).

use std::time::Instant;

use retrograde::engines::layered::solve_mnk;
use retrograde::games::mnk::Mnk;
use retrograde::host::{Budget, Silent};
use retrograde::language::Outcome;
use retrograde::own::{solve_within, Rules};
use retrograde::BoardSize;

/// Cells on a side.
const SIDE: u32 = 4;
/// Stones in a row that win.
const K: u32 = 3;

/// 4 × 4, three in a row: cell `c` (row by row) at bits `2c`, `2c + 1`:
/// 1 for X, 2 for O. Whose turn it is follows from the stones.
struct FourByFour {
    lines: Vec<Vec<u32>>,
    /// With `--symmetry`: the 7 other symmetries of the square, each as
    /// the cell every cell goes to.
    symmetries: Vec<[u32; 16]>,
}

impl FourByFour {
    fn new(symmetry: bool) -> Self {
        let n = SIDE - 1;
        let maps: [CellMap; 7] = [
            |r, c, n| (c, n - r),
            |r, c, n| (n - r, n - c),
            |r, c, n| (n - c, r),
            |r, c, n| (r, n - c),
            |r, c, n| (n - r, c),
            |r, c, _| (c, r),
            |r, c, n| (n - c, n - r),
        ];
        let symmetries = if symmetry {
            maps.iter()
                .map(|map| {
                    let mut to = [0u32; 16];
                    for (cell, t) in to.iter_mut().enumerate() {
                        let (r, c) = map(cell as u32 / SIDE, cell as u32 % SIDE, n);
                        *t = r * SIDE + c;
                    }
                    to
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut lines = Vec::new();
        for r in 0..SIDE as i32 {
            for c in 0..SIDE as i32 {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let cells: Vec<(i32, i32)> =
                        (0..K as i32).map(|i| (r + i * dr, c + i * dc)).collect();
                    if cells.iter().all(|&(r, c)| {
                        (0..SIDE as i32).contains(&r) && (0..SIDE as i32).contains(&c)
                    }) {
                        lines.push(
                            cells
                                .iter()
                                .map(|&(r, c)| (r * SIDE as i32 + c) as u32)
                                .collect(),
                        );
                    }
                }
            }
        }
        Self { lines, symmetries }
    }
}

/// A symmetry of the square: (row, column, side − 1) to (row, column).
type CellMap = fn(u32, u32, u32) -> (u32, u32);

fn cell(board: u32, c: u32) -> u32 {
    (board >> (2 * c)) & 3
}

fn stones(board: u32) -> u32 {
    (0..SIDE * SIDE).filter(|&c| cell(board, c) != 0).count() as u32
}

impl Rules for FourByFour {
    type Position = u32;
    fn name(&self) -> String {
        "4x4 k=3".into()
    }
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, board: &u32, children: &mut Vec<u32>) {
        let stone = 1 + stones(*board) % 2;
        for c in 0..SIDE * SIDE {
            if cell(*board, c) == 0 {
                children.push(board | stone << (2 * c));
            }
        }
    }
    fn symmetries(&self, board: &u32, images: &mut Vec<u32>) {
        for to in &self.symmetries {
            let mut image = 0;
            for (c, &t) in to.iter().enumerate() {
                image |= cell(*board, c as u32) << (2 * t);
            }
            images.push(image);
        }
    }

    fn move_name(&self, board: &u32, _: usize, child: &u32) -> String {
        let c = (0..SIDE * SIDE)
            .find(|&c| cell(*board, c) != cell(*child, c))
            .expect("a move places a stone");
        format!("{}{}", (b'a' + (c % SIDE) as u8) as char, c / SIDE + 1)
    }

    fn render(&self, board: &u32) -> String {
        let mut text = String::from("  a b c d\n");
        for r in 0..SIDE {
            text.push_str(&format!("{}", r + 1));
            for c in 0..SIDE {
                text.push(' ');
                text.push(['.', 'X', 'O'][cell(*board, r * SIDE + c) as usize]);
            }
            text.push('\n');
        }
        let to_move = ['X', 'O'][(stones(*board) % 2) as usize];
        text.push_str(&format!("{to_move} to move"));
        text
    }

    fn outcome(&self, board: &u32) -> Option<Outcome> {
        let last = 2 - stones(*board) % 2;
        if self
            .lines
            .iter()
            .any(|l| l.iter().all(|&c| cell(*board, c) == last))
        {
            Some(Outcome::Loss)
        } else if stones(*board) == SIDE * SIDE {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
}

fn main() {
    if retrograde_own::main_if_asked(&FourByFour::new(true)) {
        return;
    }
    let symmetry = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--symmetry") => true,
        Some(other) => {
            eprintln!("mnk_rules: unknown argument {other}; usage: mnk_rules [--symmetry]");
            std::process::exit(2);
        }
    };
    let budget = Budget::default_for_machine();
    let rules = FourByFour::new(symmetry);
    let clock = Instant::now();
    let own = solve_within(&rules, &budget, &Silent).expect("4x4 fits");
    let own_seconds = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let built_in = solve_mnk(
        &Mnk::new(BoardSize::new(SIDE, SIDE, K)).expect("a board"),
        &budget,
    )
    .expect("4x4 fits");
    let built_in_seconds = clock.elapsed().as_secs_f64();
    let positions: u64 = built_in.counts.iter().map(|p| p.positions).sum();
    let classes: u64 = built_in.counts.iter().map(|p| p.classes).sum();
    let counts = own.counts();
    println!(
        "generic engine: {} positions (win {}, loss {}, draw {}) in {own_seconds:.2} s",
        own.positions(),
        counts.win,
        counts.loss,
        counts.draw
    );
    println!("built-in dense layered engine: {positions} positions ({classes} up to symmetry) in {built_in_seconds:.2} s");
    println!(
        "start: {:?}; time ratio {:.1}×",
        own.lookup(&rules, 0),
        own_seconds / built_in_seconds
    );
    let expected = if symmetry { classes } else { positions };
    assert_eq!(own.positions(), expected, "the counts differ");
}
