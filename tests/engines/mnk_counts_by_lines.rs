//! A second, independent count of m,n,k positions per ply, by inclusion and
//! exclusion over the board's lines instead of any move generation: it
//! checks the symbolic engine's 5×5 counts with k = 5 and k = 4
//! (results/symbolic/), which no explicit engine reaches.
//!
//! A position of ply `p` is a pair of disjoint stone sets: the last mover's
//! `M` (⌈p/2⌉ stones when X moved last, ⌊p/2⌋ when O did) and the other
//! side's `N`. It is reachable exactly when `N` holds no line and either
//! `M` holds none (any order of play reaches it: no subset of a line-free
//! set holds a line) or every line `M` holds passes through one common
//! stone of `M` (played last; before it neither side had a line). The
//! count enumerates `M` and counts the line-free `N` of the right size in
//! the cells left by inclusion and exclusion over the lines inside them.

use retrograde::{engines::layered::solve_mnk, games::mnk::Mnk, host::Budget, BoardSize};
use retrograde_checker::lines::all_lines;
use serde_json::Value;

/// The lines of `k` cells of a `cols` × `rows` board as masks, cells
/// numbered row by row.
fn lines(cols: u32, rows: u32, k: u32) -> Vec<u32> {
    all_lines(cols as i32, rows as i32, k as i32)
        .iter()
        .map(|line| {
            line.iter().fold(0u32, |mask, &(c, r)| {
                mask | 1 << (r as u32 * cols + c as u32)
            })
        })
        .collect()
}

/// Per ply: (positions, positions with a line). A full board ends the game
/// too: the engines count every position of the last ply as terminal.
fn counts_by_lines(cols: u32, rows: u32, k: u32) -> Vec<(u64, u64)> {
    let cells = cols * rows;
    let lines = lines(cols, rows, k);
    let mut choose = vec![vec![0u64; cells as usize + 1]; cells as usize + 1];
    for n in 0..=cells as usize {
        choose[n][0] = 1;
        for r in 1..=n {
            choose[n][r] = choose[n - 1][r - 1] + choose[n - 1][r];
        }
    }
    let binomial = |n: u32, r: i64| {
        if r < 0 || r > n as i64 {
            0
        } else {
            choose[n as usize][r as usize] as i64
        }
    };
    // the line-free sets of `size` cells within `free`: by inclusion and
    // exclusion over the sets of lines inside `free`, only those whose
    // union fits in `size` cells counting (the others choose nothing)
    fn signed_sum(
        inside: &[u32],
        union: u32,
        sign: i64,
        left: u32,
        size: u32,
        binomial: &dyn Fn(u32, i64) -> i64,
    ) -> i64 {
        let forced = union.count_ones();
        let mut total = sign * binomial(left - forced, size as i64 - forced as i64);
        for (i, &line) in inside.iter().enumerate() {
            if (union | line).count_ones() <= size {
                total += signed_sum(&inside[i + 1..], union | line, -sign, left, size, binomial);
            }
        }
        total
    }
    let line_free = |free: u32, size: u32| -> u64 {
        let inside: Vec<u32> = lines.iter().copied().filter(|l| l & !free == 0).collect();
        signed_sum(&inside, 0, 1, free.count_ones(), size, &binomial) as u64
    };
    assert!(cells < 32, "cells are bits of a u32");
    let all = (1u32 << cells) - 1;
    (0..=cells)
        .map(|ply| {
            // X moved last on odd plies, O on even ones
            let (last, other) = (ply.div_ceil(2), ply / 2);
            let (mut positions, mut terminal) = (0u64, 0u64);
            // every set of `last` cells, in increasing order (Gosper)
            let mut m: u32 = if last == 0 { 0 } else { (1u32 << last) - 1 };
            loop {
                let (mut holds_a_line, mut common) = (false, m);
                for &line in lines.iter().filter(|&&l| l & !m == 0) {
                    holds_a_line = true;
                    common &= line;
                }
                if !holds_a_line || common != 0 {
                    let n = line_free(all & !m, other);
                    positions += n;
                    if holds_a_line {
                        terminal += n;
                    }
                }
                if last == 0 {
                    break;
                }
                let low = m & m.wrapping_neg();
                let ripple = m + low;
                if ripple > all {
                    break;
                }
                m = ripple | (((m ^ ripple) >> 2) / low);
            }
            (positions, terminal)
        })
        .collect()
}

/// The method against the exhaustive engine on boards it solves in
/// moments.
#[test]
fn the_line_count_equals_the_exhaustive_engine() {
    for (cols, rows, k) in [
        (3, 3, 3),
        (4, 3, 3),
        (4, 4, 3),
        (4, 4, 4),
        (5, 3, 4),
        (5, 3, 5),
    ] {
        let game = Mnk::new(BoardSize { cols, rows, k }).unwrap();
        let table = solve_mnk(&game, &Budget::unlimited()).unwrap();
        let expected: Vec<(u64, u64, u64)> = table
            .counts
            .iter()
            .map(|c| (c.positions, c.x_wins + c.o_wins, c.terminal))
            .collect();
        let cells = (cols * rows) as usize;
        let counted: Vec<(u64, u64, u64)> = counts_by_lines(cols, rows, k)
            .into_iter()
            .enumerate()
            .map(|(ply, (n, lines))| (n, lines, if ply == cells { n } else { lines }))
            .collect();
        assert_eq!(counted, expected, "{cols},{rows},{k}");
    }
}

/// The symbolic engine's 5×5 k = 5 solve kept in results/symbolic/ (no
/// explicit engine reaches 25 cells): every ply's positions and terminal
/// positions, and the totals; and its value, the published draw (which
/// `verify` also proves by a pairing strategy).
#[test]
fn the_kept_5x5_k5_count_equals_the_line_count() {
    let report = kept_report_equals_the_line_count("mnk-5x5-k5.json", 5);
    assert_eq!(report["positions"].as_u64(), Some(158_977_021_146));
    assert_eq!(report["value"], "draw");
}

/// The same for the forward pass of 5×5 k = 4 kept in results/symbolic/
/// (its backward pass is not reached; the value, a draw, is proved by
/// `search mnk` and by `prove mnk`'s proof trees, results/PROOFS.md).
#[test]
fn the_kept_5x5_k4_count_equals_the_line_count() {
    let report = kept_report_equals_the_line_count("forward-mnk-5x5-k4.json", 4);
    assert_eq!(report["positions"].as_u64(), Some(135_554_807_014));
}

/// Checks the kept 5×5 report `file` (lines of `k`) against
/// [`counts_by_lines`], ply by ply and in its totals, and returns it.
fn kept_report_equals_the_line_count(file: &str, k: u32) -> Value {
    let path = format!(
        "{}/results/symbolic/{file}",
        crate::common::root().display()
    );
    let report: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let kept: Vec<(u64, u64, u64)> = report["per_ply"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let n = |key: &str| p[key].as_u64().unwrap();
            (n("positions"), n("x_wins") + n("o_wins"), n("terminal"))
        })
        .collect();
    let counted = counts_by_lines(5, 5, k);
    let full_board = counted.len() - 1;
    let as_kept: Vec<(u64, u64, u64)> = counted
        .iter()
        .enumerate()
        .map(|(ply, &(n, lines))| (n, lines, if ply == full_board { n } else { lines }))
        .collect();
    assert_eq!(kept, as_kept, "{file}");
    let total = |f: fn(usize, (u64, u64)) -> u64| -> u64 {
        counted.iter().enumerate().map(|(ply, &c)| f(ply, c)).sum()
    };
    let x_wins = total(|ply, (_, lines)| if ply % 2 == 1 { lines } else { 0 });
    let o_wins = total(|ply, (_, lines)| if ply % 2 == 0 { lines } else { 0 });
    let (full, full_lines) = counted[full_board];
    let totals = [
        ("positions", total(|_, (n, _)| n)),
        ("x_wins", x_wins),
        ("o_wins", o_wins),
        ("draws", full - full_lines),
    ];
    for (key, value) in totals {
        assert_eq!(report[key].as_u64(), Some(value), "{file}: {key}");
    }
    report
}
