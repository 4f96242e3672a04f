//! The engine against a deliberately simple reference, state by state, on
//! hundreds of seeded random graphs.
//!
//! The reference knows nothing of the library's index or game trait: it
//! keeps a winner and a depth per (mouse, cat, turn) triple and sweeps over
//! all of them, round after round, until nothing changes. In round `r` a
//! position is decided from the previous round's labels: a win for its mover
//! at depth `r` if some move reaches a position the mover wins, a loss at
//! depth `r` if every move reaches a position the opponent wins.

// The reference loops over (mouse, cat, turn) by index on purpose: it reads
// like the rules, which is the point of a reference.
#![allow(clippy::needless_range_loop)]

use std::collections::BTreeSet;

use crate::common::{random_graph, Rng};
use retrograde::{
    engines::retrograde::solve,
    games::cat_mouse::{CatMouseGraph, Player, Position, Turn},
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Label {
    winner: Player,
    depth: u32,
}

/// `labels[mouse][cat][turn]`, `None` for a draw; cat 0 is never used.
type Labels = Vec<Vec<[Option<Label>; 2]>>;

fn reference(graph: &[Vec<u32>]) -> Labels {
    let n = graph.len();
    let exits: Vec<BTreeSet<usize>> = graph
        .iter()
        .map(|l| l.iter().map(|&b| b as usize).collect())
        .collect();
    let moves = |m: usize, c: usize, t: usize| -> Vec<(usize, usize, usize)> {
        if t == 0 {
            exits[m].iter().map(|&m2| (m2, c, 1)).collect()
        } else {
            exits[c]
                .iter()
                .filter(|&&c2| c2 != 0)
                .map(|&c2| (m, c2, 0))
                .collect()
        }
    };
    let mover = |t: usize| if t == 0 { Player::Mouse } else { Player::Cat };
    let mut labels: Labels = vec![vec![[None; 2]; n]; n];
    for m in 0..n {
        for c in 1..n {
            for t in 0..2 {
                let winner = if m == 0 {
                    Some(Player::Mouse)
                } else if m == c {
                    Some(Player::Cat)
                } else if moves(m, c, t).is_empty() {
                    Some(if t == 0 { Player::Cat } else { Player::Mouse })
                } else {
                    None
                };
                labels[m][c][t] = winner.map(|winner| Label { winner, depth: 0 });
            }
        }
    }
    for round in 1.. {
        let before = labels.clone();
        for m in 0..n {
            for c in 1..n {
                for t in 0..2 {
                    if before[m][c][t].is_some() {
                        continue;
                    }
                    let children: Vec<_> = moves(m, c, t)
                        .iter()
                        .map(|&(a, b, u)| before[a][b][u])
                        .collect();
                    let me = mover(t);
                    if children.iter().any(|l| l.is_some_and(|l| l.winner == me)) {
                        labels[m][c][t] = Some(Label {
                            winner: me,
                            depth: round,
                        });
                    } else if children.iter().all(|l| l.is_some()) {
                        let other = if me == Player::Mouse {
                            Player::Cat
                        } else {
                            Player::Mouse
                        };
                        labels[m][c][t] = Some(Label {
                            winner: other,
                            depth: round,
                        });
                    }
                }
            }
        }
        if labels == before {
            break;
        }
    }
    labels
}

fn compare(graph: &[Vec<u32>]) {
    let expected = reference(graph);
    let game = CatMouseGraph::new(graph).unwrap();
    let table = solve(&game).unwrap();
    let n = graph.len() as u32;
    for mouse in 0..n {
        for cat in 1..n {
            for (t, turn) in [Turn::Mouse, Turn::Cat].into_iter().enumerate() {
                let s = game.rank(Position { mouse, cat, turn });
                let got = game.winner(&table, s).map(|winner| Label {
                    winner,
                    depth: table.depth(s).unwrap(),
                });
                assert_eq!(
                    got, expected[mouse as usize][cat as usize][t],
                    "graph {graph:?}, mouse {mouse}, cat {cat}, {turn:?} to move"
                );
            }
        }
    }
}

#[test]
fn matches_the_reference_on_random_undirected_graphs() {
    let mut rng = Rng::new(1);
    for _ in 0..300 {
        let n = 3 + rng.below(10) as usize;
        compare(&random_graph(&mut rng, n, false));
    }
}

#[test]
fn matches_the_reference_on_random_directed_graphs() {
    let mut rng = Rng::new(2);
    for _ in 0..300 {
        let n = 3 + rng.below(10) as usize;
        compare(&random_graph(&mut rng, n, true));
    }
}

#[test]
fn matches_the_reference_on_the_leetcode_examples() {
    compare(&[
        vec![2, 5],
        vec![3],
        vec![0, 4, 5],
        vec![1, 4, 5],
        vec![2, 3],
        vec![0, 2, 3],
    ]);
    compare(&[vec![1, 3], vec![0], vec![3], vec![0, 2]]);
}
