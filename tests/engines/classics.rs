//! The small classic games (Nim, Can I Win, the LeetCode game puzzles)
//! against deliberately simple recursive references,
//! on hundreds of seeded random inputs, and LeetCode's examples.

use std::collections::HashMap;
use std::process::Command;

use retrograde::{
    games::can_i_win::solve_can_i_win,
    games::ends::{solve_ends, End},
    games::nim::solve_nim,
    host::{in_pool, Budget},
};

use crate::common::cli::{json_of, refused};
use crate::common::Rng;

fn nim_reference(n: u64, m: u64, memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&w) = memo.get(&n) {
        return w;
    }
    let w = (1..=m.min(n)).any(|t| !nim_reference(n - t, m, memo));
    memo.insert(n, w);
    w
}

#[test]
fn nim_matches_the_recursion_on_every_heap() {
    let mut rng = Rng::new(292);
    for _ in 0..300 {
        let (n, m) = (rng.below(300), 1 + rng.below(12));
        let table = solve_nim(n, m, &Budget::unlimited()).unwrap();
        let mut memo = HashMap::new();
        for heap in 0..=n {
            assert_eq!(
                table.wins(heap),
                nim_reference(heap, m, &mut memo),
                "heap {heap}, take 1..={m}"
            );
        }
        // the period, by brute force over the same table
        let p = (1..=n)
            .find(|&p| (0..=n - p).all(|i| table.wins(i) == table.wins(i + p)))
            .unwrap_or(n + 1);
        assert_eq!(table.period(), p);
        if n > 2 * (m + 1) {
            assert_eq!(p, m + 1);
        }
    }
}

fn can_i_win_reference(
    max: u32,
    total: i64,
    used: u32,
    sum: i64,
    memo: &mut HashMap<u32, bool>,
) -> bool {
    if let Some(&w) = memo.get(&used) {
        return w;
    }
    let w = (1..=max).filter(|i| used & (1 << (i - 1)) == 0).any(|i| {
        sum + i64::from(i) >= total
            || !can_i_win_reference(max, total, used | 1 << (i - 1), sum + i64::from(i), memo)
    });
    memo.insert(used, w);
    w
}

#[test]
fn can_i_win_matches_the_recursion_on_every_state() {
    let mut rng = Rng::new(464);
    for _ in 0..300 {
        let max = rng.below(13) as u32;
        let total = rng.below(90) as i64 - 5;
        let table = solve_can_i_win(max, total, &Budget::unlimited()).unwrap();
        let mut memo = HashMap::new();
        for used in 0..(1u32 << max) {
            let sum: i64 = (0..max)
                .filter(|b| used & (1 << b) != 0)
                .map(|b| i64::from(b) + 1)
                .sum();
            let want = sum < total && can_i_win_reference(max, total, used, sum, &mut memo);
            assert_eq!(table.wins(used), want, "M {max}, T {total}, used {used:b}");
        }
        let all = i64::from(max) * i64::from(max + 1) / 2;
        let leetcode = total <= 0
            || (all >= total && can_i_win_reference(max, total, 0, 0, &mut HashMap::new()));
        assert_eq!(table.first_player_wins(), leetcode, "M {max}, T {total}");
    }
}

fn ends_reference(a: &[u64]) -> i64 {
    fn best(a: &[u64], i: usize, j: usize, memo: &mut HashMap<(usize, usize), i64>) -> i64 {
        if i == j {
            return a[i] as i64;
        }
        if let Some(&v) = memo.get(&(i, j)) {
            return v;
        }
        let v = (a[i] as i64 - best(a, i + 1, j, memo)).max(a[j] as i64 - best(a, i, j - 1, memo));
        memo.insert((i, j), v);
        v
    }
    best(a, 0, a.len() - 1, &mut HashMap::new())
}

#[test]
fn ends_match_the_recursion_and_the_line_achieves_the_scores() {
    let mut rng = Rng::new(486);
    for _ in 0..300 {
        let n = 1 + rng.below(40) as usize;
        let a: Vec<u64> = (0..n).map(|_| rng.below(1000)).collect();
        let s = in_pool(2, || solve_ends(&a, &Budget::unlimited()))
            .unwrap()
            .unwrap();
        assert_eq!(s.difference, ends_reference(&a), "{a:?}");
        // replay the line: it takes the numbers from the ends and scores as claimed
        let (mut i, mut j) = (0, n - 1);
        let mut scores = [0i64; 2];
        for (turn, &(end, number)) in s.line().iter().enumerate() {
            let taken = if end == End::Left { a[i] } else { a[j] };
            assert_eq!(taken, number);
            scores[turn % 2] += number as i64;
            if end == End::Left {
                i += 1
            } else {
                j = j.wrapping_sub(1)
            }
        }
        assert_eq!(
            (scores[0], scores[1]),
            (s.first_score(), s.second_score()),
            "{a:?}"
        );
    }
}

#[test]
fn leetcodes_examples_on_the_command_line() {
    let json = |args: &[&str]| -> serde_json::Value {
        let out = Command::new(env!("CARGO_BIN_EXE_retrograde"))
            .args(args)
            .arg("--json")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    assert_eq!(
        json(&["nim", "--stones", "4", "--max-take", "3"])["first_player_wins"],
        false
    );
    assert_eq!(
        json(&["nim", "--stones", "4", "--max-take", "3"])["period"],
        4
    );
    assert_eq!(
        json(&["can-i-win", "--max", "10", "--total", "11"])["first_player_wins"],
        false
    );
    assert!(
        json(&["ends", "--nums", "1,5,2"])["difference"]
            .as_i64()
            .unwrap()
            < 0
    );
    assert!(
        json(&["ends", "--nums", "1,5,233,7"])["difference"]
            .as_i64()
            .unwrap()
            >= 0
    );
    let v = json(&["ends", "--nums", "1,100,3"]);
    assert_eq!(
        (
            v["difference"].as_i64(),
            v["first_score"].as_i64(),
            v["second_score"].as_i64()
        ),
        (Some(-96), Some(4), Some(100))
    );
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    for args in [
        vec!["nim", "--stones", "-1"],
        vec!["nim", "--stones", "5", "--max-take", "0"],
        vec!["can-i-win", "--max", "31", "--total", "5"],
        vec!["can-i-win", "--max", "-2", "--total", "5"],
        vec!["ends", "--nums", ""],
        vec!["ends", "--nums", "1,-2"],
        vec!["ends", "--nums", "1,,2"],
        vec!["ends", "--nums", "9223372036854775807,1"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_retrograde"))
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    }
}

#[test]
fn can_i_win_is_identical_at_1_and_2_threads() {
    let one = in_pool(1, || solve_can_i_win(18, 90, &Budget::unlimited()))
        .unwrap()
        .unwrap();
    let two = in_pool(2, || solve_can_i_win(18, 90, &Budget::unlimited()))
        .unwrap()
        .unwrap();
    assert!((0..1u32 << 18).all(|s| one.wins(s) == two.wins(s)));
}

// issue 12, line 2
#[test]
fn ends_scores_do_not_overflow() {
    let v = json_of(&["ends", "--nums", "9223372036854775807", "--json"]);
    assert_eq!(v["first_score"].as_i64(), Some(i64::MAX));
    assert_eq!(v["second_score"].as_i64(), Some(0));
    let v = json_of(&[
        "ends",
        "--nums",
        "6000000000000000000,1000000000000000000",
        "--json",
    ]);
    assert_eq!(v["first_score"].as_i64(), Some(6_000_000_000_000_000_000));
    assert_eq!(v["second_score"].as_i64(), Some(1_000_000_000_000_000_000));
    assert_eq!(v["difference"].as_i64(), Some(5_000_000_000_000_000_000));
    refused(&["ends", "--nums", "9223372036854775807,1"]);
}
