//! Gravity boards (the Connect-Four family): John Tromp's position counts,
//! a differential test against a simple reference on every small board, and
//! thread independence.

use retrograde::BoardSize;
use std::collections::{HashMap, HashSet};

use retrograde::{
    engines::sparse::solve_gravity,
    games::gravity::Gravity,
    host::{in_pool, Budget},
    language::Outcome,
};

/// Tromp's counts of positions (play stops at a win; positions containing
/// a win counted): width × height 4×4 161,029; 5×4 3,945,711.
#[test]
fn tromps_position_counts() {
    for (cols, rows, want) in [(4, 4, 161_029), (5, 4, 3_945_711)] {
        let s = solve_gravity(
            &Gravity::new(BoardSize::new(cols, rows, 4)).unwrap(),
            &Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(s.positions(), want, "{cols}×{rows}");
        let game = Gravity::new(BoardSize::new(cols, rows, 4)).unwrap();
        assert_eq!(
            s.lookup(0, game.key(0, 0)).unwrap().0,
            Outcome::Draw,
            "{cols}×{rows} is a draw"
        );
    }
}

/// A board as columns of stones, bottom first: 1 = X, 2 = O.
type Columns = Vec<Vec<u8>>;

struct Reference {
    cols: usize,
    rows: usize,
    k: usize,
}

impl Reference {
    fn cell(&self, b: &Columns, c: i64, r: i64) -> u8 {
        if c < 0 || r < 0 || c >= self.cols as i64 || r >= self.rows as i64 {
            return 0;
        }
        *b[c as usize].get(r as usize).unwrap_or(&0)
    }

    fn has_line(&self, b: &Columns, p: u8) -> bool {
        (0..self.cols as i64).any(|c| {
            (0..self.rows as i64).any(|r| {
                [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
                    (0..self.k as i64).all(|i| self.cell(b, c + dc * i, r + dr * i) == p)
                })
            })
        })
    }

    fn over(&self, b: &Columns, ply: usize) -> bool {
        let last = if ply % 2 == 1 { 1 } else { 2 };
        (ply > 0 && self.has_line(b, last)) || ply == self.cols * self.rows
    }

    fn children(&self, b: &Columns, ply: usize) -> Vec<Columns> {
        (0..self.cols)
            .filter(|&c| b[c].len() < self.rows)
            .map(|c| {
                let mut child = b.clone();
                child[c].push(if ply.is_multiple_of(2) { 1 } else { 2 });
                child
            })
            .collect()
    }

    fn value(
        &self,
        b: &Columns,
        ply: usize,
        memo: &mut HashMap<Columns, (Outcome, u32)>,
    ) -> (Outcome, u32) {
        if let Some(&v) = memo.get(b) {
            return v;
        }
        let v = if self.over(b, ply) {
            if ply == self.cols * self.rows && !self.has_line(b, if ply % 2 == 1 { 1 } else { 2 }) {
                (Outcome::Draw, 0)
            } else {
                (Outcome::Loss, 0)
            }
        } else {
            let kids: Vec<(Outcome, u32)> = self
                .children(b, ply)
                .iter()
                .map(|c| self.value(c, ply + 1, memo))
                .collect();
            if let Some(d) = kids
                .iter()
                .filter(|k| k.0 == Outcome::Loss)
                .map(|k| k.1 + 1)
                .min()
            {
                (Outcome::Win, d)
            } else if kids.iter().any(|k| k.0 == Outcome::Draw) {
                (Outcome::Draw, (self.cols * self.rows - ply) as u32)
            } else {
                (Outcome::Loss, kids.iter().map(|k| k.1 + 1).max().unwrap())
            }
        };
        memo.insert(b.clone(), v);
        v
    }
}

fn key_of(game: &Gravity, b: &Columns) -> u64 {
    let (_, rows, _) = game.dimensions();
    let (mut x, mut occupied) = (0u64, 0u64);
    for (c, column) in b.iter().enumerate() {
        for (r, &p) in column.iter().enumerate() {
            let bit = 1u64 << (c as u32 * (rows + 1) + r as u32);
            occupied |= bit;
            if p == 1 {
                x |= bit;
            }
        }
    }
    game.key(x, occupied)
}

/// Checks every position and count of the solve of `cols × rows`, `k`
/// against the reference, ply by ply.
fn check_against_reference(cols: usize, rows: usize, k: usize) {
    let game = Gravity::new(BoardSize::new(cols as u32, rows as u32, k as u32)).unwrap();
    let solution = solve_gravity(&game, &Budget::unlimited()).unwrap();
    let reference = Reference { cols, rows, k };
    let mut memo = HashMap::new();
    let mut ply_set: HashSet<Columns> = HashSet::from([vec![Vec::new(); cols]]);
    for ply in 0..=cols * rows {
        let c = &solution.counts[ply];
        assert_eq!(
            c.positions,
            ply_set.len() as u64,
            "{cols}×{rows} k={k} ply {ply}"
        );
        let terminal = ply_set.iter().filter(|b| reference.over(b, ply)).count() as u64;
        assert_eq!(
            c.terminal, terminal,
            "{cols}×{rows} k={k} ply {ply} terminal"
        );
        let mut next = HashSet::new();
        // the first player's outcomes under perfect play
        let mut first = [0u64; 3];
        for b in &ply_set {
            let want = reference.value(b, ply, &mut memo);
            let x_to_move = ply % 2 == 0;
            let slot = match (want.0, x_to_move) {
                (Outcome::Draw, _) => 1,
                (Outcome::Win, true) | (Outcome::Loss, false) => 0,
                _ => 2,
            };
            first[slot] += 1;
            assert_eq!(
                solution.lookup(ply, key_of(&game, b)),
                Some(want),
                "{cols}×{rows} k={k} {b:?}"
            );
            if !reference.over(b, ply) {
                next.extend(reference.children(b, ply));
            }
        }
        assert_eq!(
            [c.first_won, c.first_drawn, c.first_lost],
            first,
            "{cols}×{rows} k={k} ply {ply} first player's outcomes"
        );
        ply_set = next;
    }
}

#[test]
fn every_small_board_matches_the_reference() {
    let mut boards = 0;
    for cols in 1..=4usize {
        for rows in 1..=4usize {
            for k in 1..=cols.max(rows) {
                check_against_reference(cols, rows, k);
                boards += 1;
            }
        }
    }
    assert_eq!(boards, 50);
}

/// Boards whose keys need more than 32 bits run the engine on 64-bit key
/// words: the same check on the ones small enough for the reference.
#[test]
fn boards_with_wide_keys_match_the_reference() {
    for (cols, rows, k) in [(4, 8, 2), (5, 6, 2), (6, 6, 2), (8, 4, 2)] {
        assert!(
            Gravity::new(BoardSize::new(cols as u32, rows as u32, k as u32))
                .unwrap()
                .key_bits()
                > 32
        );
        check_against_reference(cols, rows, k);
    }
}

#[test]
fn plies_are_identical_at_1_2_and_4_threads() {
    // 32-bit and 64-bit key words
    for game in [
        Gravity::new(BoardSize::new(5, 4, 4)).unwrap(),
        Gravity::new(BoardSize::new(8, 4, 2)).unwrap(),
    ] {
        let runs: Vec<_> = [1, 2, 4]
            .into_iter()
            .map(|t| {
                in_pool(t, || solve_gravity(&game, &Budget::unlimited()))
                    .unwrap()
                    .unwrap()
            })
            .collect();
        for run in &runs[1..] {
            assert_eq!(run.plies, runs[0].plies);
            assert_eq!(run.counts, runs[0].counts);
        }
    }
}

use crate::common::cli;

#[test]
fn the_connect_command_counts_and_searches() {
    let v = cli::json_of(&["connect", "--cols", "4", "--rows", "4", "--json"]);
    assert_eq!(
        (v["positions"].as_u64(), v["value"].as_str()),
        (Some(161_029), Some("draw"))
    );
    assert_eq!(v["per_ply"].as_array().unwrap().len(), 17);
    let v = cli::json_of(&[
        "connect", "--cols", "6", "--rows", "4", "--search", "--json",
    ]);
    assert_eq!(
        (v["value"].as_str(), v["to_move"].as_str()),
        (Some("loss"), Some("X"))
    );
    assert!(v["nodes"].as_u64().unwrap() > 0);
    cli::refused(&["connect", "--cols", "8", "--rows", "8"]);
    cli::refused(&["connect", "--cols", "4", "--rows", "4", "--k", "5"]);
    cli::refused(&[
        "connect",
        "--cols",
        "5",
        "--rows",
        "5",
        "--max-memory",
        "1KiB",
        "--engine",
        "explicit",
    ]);
    // auto falls back to the symbolic engine, whose node store does not
    // fit 1 KiB either: a note, then the refusal
    let out = cli::retrograde(&[
        "connect",
        "--cols",
        "5",
        "--rows",
        "5",
        "--max-memory",
        "1KiB",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("symbolic engine") && err.contains("node store"),
        "{err}"
    );
}
