//! An m,n,k game (4 × 4, three in a row) written for the generic engine as
//! a user would write it — a board in a `u32`, two bits a cell, no
//! symmetry — solved beside the built-in dense layered engine on the same
//! board: equal counts, and the time of each.
//!
//! ```text
//! cargo run --release --example mnk_rules                # every position
//! cargo run --release --example mnk_rules -- --symmetry  # one a symmetry class
//! cargo run --release --example mnk_rules -- --rank      # numbered by a dense rank
//! cargo run --release --example mnk_rules -- --tiers     # tier by tier (stones placed)
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
use retrograde::own::{among_free, solve_within, Colex, Rules};
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

/// The same rules numbered by a dense rank, with unmoves (a stone of the
/// player who moved last taken back): no keys, no hash table, no reverse
/// graph. The rank goes by layers of stones: a board of `n` stones (X has
/// `⌈n/2⌉`, O `⌊n/2⌋`) is numbered after every board of fewer, by the
/// colex rank of X's cells among the 16, then of O's among the cells X left
/// — 10,165,779 ranks for the 6,036,001 positions reached.
struct ByRank {
    rules: FourByFour,
    /// Binomial coefficients up to 16, and colex ranks.
    colex: Colex,
    /// The first rank of each layer of stones, and one past the last.
    layer: [u64; 18],
}

const CELLS: usize = (SIDE * SIDE) as usize;

impl ByRank {
    fn new(rules: FourByFour) -> Self {
        let colex = Colex::new(CELLS);
        let mut layer = [0u64; 18];
        for n in 0..=CELLS {
            let (x, o) = (n.div_ceil(2), n / 2);
            layer[n + 1] = layer[n] + colex.choose(CELLS, x) * colex.choose(CELLS - x, o);
        }
        Self {
            rules,
            colex,
            layer,
        }
    }
}

/// The cells of `board` holding `stone` (1 or 2), as a bit set: the
/// cells' bit pairs that read `stone`, gathered from every other bit.
fn cells_of(board: u32, stone: u32) -> u32 {
    let low = if stone == 1 {
        board & !(board >> 1)
    } else {
        (board >> 1) & !board
    };
    let mut x = low & 0x5555_5555;
    x = (x | (x >> 1)) & 0x3333_3333;
    x = (x | (x >> 2)) & 0x0f0f_0f0f;
    x = (x | (x >> 4)) & 0x00ff_00ff;
    (x | (x >> 8)) & 0x0000_ffff
}

impl Rules for ByRank {
    type Position = u32;
    const UNMOVES: bool = true;
    const RANKED: bool = true;
    fn name(&self) -> String {
        "4x4 k=3 by rank".into()
    }
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, board: &u32, children: &mut Vec<u32>) {
        self.rules.moves(board, children)
    }
    fn symmetries(&self, board: &u32, images: &mut Vec<u32>) {
        self.rules.symmetries(board, images)
    }
    fn outcome(&self, board: &u32) -> Option<Outcome> {
        self.rules.outcome(board)
    }
    fn unmoves(&self, board: &u32, parents: &mut Vec<u32>) {
        let stones = stones(*board);
        if stones == 0 {
            return;
        }
        let last = 2 - stones % 2;
        for c in 0..SIDE * SIDE {
            if cell(*board, c) == last {
                parents.push(board & !(3 << (2 * c)));
            }
        }
    }
    fn ranks(&self) -> u64 {
        self.layer[CELLS + 1]
    }
    fn rank(&self, board: &u32) -> u64 {
        let (xs, os) = (cells_of(*board, 1), cells_of(*board, 2));
        let n = (xs.count_ones() + os.count_ones()) as usize;
        // O's cells renumbered among those X left empty
        let o_among_free = among_free(u64::from(os), u64::from(xs));
        self.layer[n]
            + self.colex.rank(u64::from(xs)) * self.colex.choose(CELLS - n.div_ceil(2), n / 2)
            + self.colex.rank(o_among_free)
    }
    fn unrank(&self, rank: u64) -> Option<u32> {
        let n = (0..=CELLS).find(|&n| rank < self.layer[n + 1])?;
        let (x, o) = (n.div_ceil(2), n / 2);
        let within = rank - self.layer[n];
        let per_x = self.colex.choose(CELLS - x, o);
        let xs = self.colex.unrank(within / per_x, x, CELLS);
        let o_among_free = self.colex.unrank(within % per_x, o, CELLS - x);
        let mut board = 0u32;
        let mut free = 0;
        for c in 0..CELLS {
            if xs >> c & 1 == 1 {
                board |= 1 << (2 * c);
            } else {
                board |= ((o_among_free >> free & 1) as u32) << (2 * c + 1);
                free += 1;
            }
        }
        Some(board)
    }
}

/// The same rules with a tier, the stones on the board (a move adds one):
/// the engine solves them tier by tier, the finished tiers on disk.
struct ByStones(FourByFour);

impl Rules for ByStones {
    type Position = u32;
    const TIERED: bool = true;
    fn name(&self) -> String {
        "4x4 k=3 by tiers".into()
    }
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, board: &u32, children: &mut Vec<u32>) {
        self.0.moves(board, children)
    }
    fn symmetries(&self, board: &u32, images: &mut Vec<u32>) {
        self.0.symmetries(board, images)
    }
    fn outcome(&self, board: &u32) -> Option<Outcome> {
        self.0.outcome(board)
    }
    fn tier(&self, board: &u32) -> u32 {
        stones(*board)
    }
}

fn main() {
    if retrograde_own::main_if_asked(&FourByFour::new(true)) {
        return;
    }
    let (mut symmetry, mut by_rank, mut by_tiers) = (false, false, false);
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--symmetry" => symmetry = true,
            "--rank" => by_rank = true,
            "--tiers" => by_tiers = true,
            other => {
                eprintln!(
                    "mnk_rules: unknown argument {other}; \
                     usage: mnk_rules [--symmetry] [--rank | --tiers]"
                );
                std::process::exit(2);
            }
        }
    }
    let budget = Budget::default_for_machine();
    let rules = FourByFour::new(symmetry);
    let clock = Instant::now();
    let (positions_own, counts, start) = if by_rank {
        let rules = ByRank::new(rules);
        let own = solve_within(&rules, &budget, &Silent).expect("4x4 fits");
        (own.positions(), own.counts(), own.lookup(&rules, 0))
    } else if by_tiers {
        let rules = ByStones(rules);
        let own = solve_within(&rules, &budget, &Silent).expect("4x4 fits");
        (own.positions(), own.counts(), own.lookup(&rules, 0))
    } else {
        let own = solve_within(&rules, &budget, &Silent).expect("4x4 fits");
        (own.positions(), own.counts(), own.lookup(&rules, 0))
    };
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
    println!(
        "generic engine{}: {positions_own} positions (win {}, loss {}, draw {}) in {own_seconds:.2} s",
        match (by_rank, by_tiers) {
            (true, _) => " by rank",
            (_, true) => " tier by tier",
            _ => "",
        },
        counts.win,
        counts.loss,
        counts.draw
    );
    println!("built-in dense layered engine: {positions} positions ({classes} up to symmetry) in {built_in_seconds:.2} s");
    println!(
        "start: {start:?}; time ratio {:.1}×",
        own_seconds / built_in_seconds
    );
    let expected = if symmetry { classes } else { positions };
    assert_eq!(positions_own, expected, "the counts differ");
}
