//! Cat and Mouse on a graph against published answers: the LeetCode 913
//! examples and the figures of a plain C queue solver on the bench graph.

use retrograde::{
    engines::retrograde::solve,
    games::cat_mouse::{CatMouseGraph, Player, Turn},
};

use crate::common;

/// LeetCode's answer: 1 mouse, 2 cat, 0 draw; and the start's depth.
fn answer(graph: &[Vec<u32>]) -> (u8, Option<u32>) {
    let game = CatMouseGraph::new(graph).unwrap();
    let table = solve(&game).unwrap();
    let start = game.start_state(1, 2, Turn::Mouse).unwrap();
    let code = match game.winner(&table, start) {
        Some(Player::Mouse) => 1,
        Some(Player::Cat) => 2,
        None => 0,
    };
    (code, table.depth(start))
}

fn lists(json: &str) -> Vec<Vec<u32>> {
    serde_json::from_str(json).unwrap()
}

#[test]
fn leetcode_913_example_1_is_a_draw() {
    assert_eq!(
        answer(&lists("[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]")),
        (0, None)
    );
}

#[test]
fn leetcode_913_example_2_is_a_mouse_win() {
    assert_eq!(answer(&lists("[[1,3],[0],[3],[0,2]]")).0, 1);
}

/// A depth-first search that declares a draw after 2n turns (a common
/// answer to LeetCode 913) gets this one wrong:
/// the mouse's win takes 7 plies on 11 nodes, but it needs the full table.
#[test]
fn the_case_that_defeats_a_2n_turn_cutoff_is_a_mouse_win() {
    let graph = lists("[[6],[4],[9],[5],[1,5],[3,4,6],[0,5,10],[8,9,10],[7],[2,7],[6,7]]");
    assert_eq!(answer(&graph).0, 1);
}

/// The bench graph (benches/data/cat-mouse-2000.json) as solved by a plain
/// queue-based retrograde solver in C (benches/baseline/cat_mouse.c, run
/// here): states 7,996,000; mouse wins 1,783,458; cat wins 13,996; draws
/// 6,198,546; outcome mouse at depth 11.
#[test]
fn the_bench_graph_matches_the_baseline_figures() {
    let game = CatMouseGraph::new(&common::bench_graph()).unwrap();
    let table = solve(&game).unwrap();
    let totals = retrograde::games::cat_mouse::winner_totals(&table);
    assert_eq!(table.states(), 7_996_000);
    assert_eq!(totals.mouse_wins, 1_783_458);
    assert_eq!(totals.cat_wins, 13_996);
    assert_eq!(totals.draws, 6_198_546);
    let start = game.start_state(1, 2, Turn::Mouse).unwrap();
    assert_eq!(game.winner(&table, start), Some(Player::Mouse));
    assert_eq!(table.depth(start), Some(11));
}
