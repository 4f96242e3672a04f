//! The bitboard search on m,n,k boards of 33 to 40 cells (keyed in base 3)
//! against a deliberately simple memoised negamax written here: the value
//! and depth of random positions near the end, at 1 and 2 threads; and
//! every key decodes to its position.

use retrograde::BoardSize;
use std::collections::HashMap;

use retrograde::{
    engines::bitboard::{Bitboard, BoardSearcher},
    engines::search::Precision,
    host::in_pool,
    language::Outcome,
    Family,
};
use retrograde_checker::lines as mnk_lines;

use crate::common::Rng;

/// Row-major boards (bit `r · cols + c`, row 0 at the top) and their lines.
struct Reference {
    cells: u32,
    lines: Vec<u64>,
    memo: HashMap<(u64, u64), (Outcome, u32)>,
}

impl Reference {
    fn new(cols: u32, rows: u32, k: u32) -> Self {
        let lines = mnk_lines::all_lines(cols as i32, rows as i32, k as i32)
            .iter()
            .map(|l| {
                l.iter()
                    .fold(0u64, |m, &(c, r)| m | 1 << (r as u32 * cols + c as u32))
            })
            .collect();
        Self {
            cells: cols * rows,
            lines,
            memo: HashMap::new(),
        }
    }

    fn has_line(&self, stones: u64) -> bool {
        self.lines.iter().any(|&l| l & !stones == 0)
    }

    /// The value and depth for the player to move, whose stones are `me`
    /// (the other's `them`): a win as fast as possible, a loss as slow.
    fn solve(&mut self, me: u64, them: u64) -> (Outcome, u32) {
        if let Some(&v) = self.memo.get(&(me, them)) {
            return v;
        }
        let empty: Vec<u32> = (0..self.cells)
            .filter(|&c| (me | them) >> c & 1 == 0)
            .collect();
        let result = if empty.is_empty() {
            (Outcome::Draw, 0)
        } else {
            let mut best: Option<(Outcome, u32)> = None;
            for c in empty {
                let mine = me | 1 << c;
                let child = if self.has_line(mine) {
                    (Outcome::Win, 1)
                } else {
                    let (v, d) = self.solve(them, mine);
                    (v.flip(), d + 1)
                };
                let rank = |(v, d): (Outcome, u32)| match v {
                    Outcome::Win => 1000 - d as i64,
                    Outcome::Draw => 0,
                    Outcome::Loss => -1000 + d as i64,
                };
                if best.is_none_or(|b| rank(child) > rank(b)) {
                    best = Some(child);
                }
            }
            best.unwrap()
        };
        self.memo.insert((me, them), result);
        result
    }
}

#[test]
fn positions_of_boards_past_32_cells_agree_with_a_simple_negamax() {
    let mut rng = Rng::new(40);
    for (cols, rows, k) in [(6, 6, 4), (7, 5, 4), (10, 4, 4), (8, 5, 5)] {
        let mut reference = Reference::new(cols, rows, k);
        let board = Bitboard::new(Family::Mnk, BoardSize { cols, rows, k }).unwrap();
        let cells = cols * rows;
        let bit = |i: u32| board.cell(i % cols, rows - 1 - i / cols);
        for threads in [1, 2] {
            let searcher = BoardSearcher::quiet(board.clone(), 1 << 18);
            let mut found = 0;
            while found < 40 {
                // a random position 7 to 10 cells from full, in play
                let stones = cells - 7 - rng.below(4) as u32;
                let (mut x, mut o) = (0u64, 0u64);
                for s in 0..stones {
                    let empty: Vec<u32> = (0..cells).filter(|&c| (x | o) >> c & 1 == 0).collect();
                    let c = empty[rng.below(empty.len() as u64) as usize];
                    if s % 2 == 0 {
                        x |= 1 << c;
                    } else {
                        o |= 1 << c;
                    }
                }
                if reference.has_line(x) || reference.has_line(o) {
                    continue;
                }
                found += 1;
                let x_moves = x.count_ones() == o.count_ones();
                let want = if x_moves {
                    reference.solve(x, o)
                } else {
                    reference.solve(o, x)
                };
                let to_bits = |m: u64| {
                    (0..cells)
                        .filter(|&c| m >> c & 1 == 1)
                        .fold(0, |b, c| b | bit(c))
                };
                let (bx, occupied) = (to_bits(x), to_bits(x | o));
                let exact = in_pool(threads, || searcher.search(bx, occupied, Precision::Exact))
                    .unwrap()
                    .unwrap()
                    .unwrap();
                assert_eq!(
                    (exact.value, exact.depth.unwrap()),
                    want,
                    "{cols}×{rows} k={k}: x {x:b} o {o:b}"
                );
                // the key is unique: it decodes to this position or a
                // symmetric image with the same stones counted
                let key = board.position_key(bx, occupied);
                let (dx, docc) = board.position_of_key(key).expect("a key decodes");
                assert_eq!(board.position_key(dx, docc), key);
                assert_eq!(
                    (dx.count_ones(), docc.count_ones()),
                    (bx.count_ones(), occupied.count_ones())
                );
            }
        }
    }
}

#[test]
fn boards_past_40_cells_are_refused_with_the_limit() {
    let err = Bitboard::new(Family::Mnk, BoardSize::new(9, 5, 4)).expect_err("45 cells");
    assert!(err.to_string().contains("40"), "{err}");
}
