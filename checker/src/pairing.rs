//! A checker of pairing certificates (`### Pairing certificates` in
//! `docs/FORMAT.md`), written apart from the library: it shares no code
//! with `prove::pairing` (its own parser, its own lines, its own cell
//! names).
//!
//! **The rule it trusts**: pairs of two distinct cells on the board, no
//! cell in two pairs, and every line of `k` holding both cells of one
//! pair prove the empty board a draw for both players. Sound: whoever
//! answers each of the opponent's stones on a paired cell with its partner
//! (and plays anywhere else otherwise, an extra stone never hurting on an
//! m,n,k board) holds a stone on every line, so the opponent completes
//! none; both players can play this, so neither can win.

use crate::lines::{all_lines, parse_cell};
use crate::{Checked, Kind};

/// Accepts a certificate of a draw on the empty board, or says why not:
/// the header, the board, pairs of distinct cells on the board, no cell
/// twice, and every line holding both cells of one pair. Ok(the board's
/// columns, rows and `k`).
pub fn check_certificate(text: &str) -> Result<(i32, i32, i32), String> {
    let mut lines = text.lines();
    if lines.next() != Some("# retrograde pairing certificate 1") {
        return Err("not a pairing certificate".into());
    }
    let mut board = None;
    let mut partner = std::collections::HashMap::new();
    for line in lines {
        if line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if board.is_none() {
            let numbers: Vec<i32> = words
                .iter()
                .skip(1)
                .filter_map(|w| w.parse().ok())
                .collect();
            if words.first() != Some(&"mnk") || numbers.len() != 3 || words.len() != 4 {
                return Err(format!("bad board line {line:?}"));
            }
            // sides of cells, lettered `a` to `z` (`mnk 5 5 0` panicked,
            // `mnk 0 5 5` was accepted), and a line of at least one stone
            if !(1..=26).contains(&numbers[0]) || !(1..=26).contains(&numbers[1]) || numbers[2] < 1
            {
                return Err(format!("bad board line {line:?}"));
            }
            board = Some((numbers[0], numbers[1], numbers[2]));
            continue;
        }
        let (cols, rows, _) = board.unwrap();
        let cells: Vec<(i32, i32)> = words.iter().filter_map(|w| parse_cell(w)).collect();
        if words.len() != 2 || cells.len() != 2 || cells[0] == cells[1] {
            return Err(format!("bad pair {line:?}"));
        }
        for &(x, y) in &cells {
            if !(0..cols).contains(&x) || !(0..rows).contains(&y) {
                return Err(format!("{line:?} leaves the board"));
            }
        }
        for (a, b) in [(cells[0], cells[1]), (cells[1], cells[0])] {
            if partner.insert(a, b).is_some() {
                return Err(format!("a cell of {line:?} is paired twice"));
            }
        }
    }
    let (cols, rows, k) = board.ok_or("no board line")?;
    for line in all_lines(cols, rows, k) {
        let covered = line
            .iter()
            .any(|c| partner.get(c).is_some_and(|p| line.contains(p)));
        if !covered {
            let cells: Vec<String> = line
                .iter()
                .map(|&(x, y)| format!("{}{}", (b'a' + x as u8) as char, y + 1))
                .collect();
            return Err(format!("the line {} holds no pair", cells.join(" ")));
        }
    }
    Ok((cols, rows, k))
}

/// Checks a pairing certificate as [`check_certificate`] does: what it
/// proves (neither player wins: `X draws` and `O draws`, whoever follows
/// the pairing stopping every line) or a one-line reason. No position is
/// replayed: a pairing is checked against every line at once.
pub fn check(text: &str) -> Result<Checked, String> {
    let (cols, rows, k) = check_certificate(text)?;
    Ok(Checked {
        kind: Kind::Pairing,
        board: (cols as usize, rows as usize, k as usize),
        claims: vec!["X draws".into(), "O draws".into()],
        root: None,
        positions: None,
    })
}
