//! The game contract of Cat and Mouse, checked on every state of small
//! random graphs: rank/unrank round-trip, move counts, unmoves as the exact
//! inverse of moves, and the listed terminal states.

use std::collections::HashMap;

use retrograde::{
    games::cat_mouse::{CatMouseGraph, Position, Turn},
    language::RankedGame,
};

use crate::common::{random_graph, Rng};

fn check_contract(game: &CatMouseGraph) {
    let n = game.nodes();
    let states = game.state_count();
    assert_eq!(states, u64::from(n) * u64::from(n - 1) * 2);

    // rank/unrank is a bijection onto 0..states.
    let mut seen = vec![false; states as usize];
    for mouse in 0..n {
        for cat in 1..n {
            for turn in [Turn::Mouse, Turn::Cat] {
                let p = Position { mouse, cat, turn };
                let s = game.rank(p);
                assert!(s < states && !seen[s as usize]);
                seen[s as usize] = true;
                assert_eq!(game.unrank(s), p);
            }
        }
    }

    // Moves, counted both ways.
    let mut into: HashMap<u64, HashMap<u64, u32>> = HashMap::new();
    for s in 0..states {
        let mut moves = 0;
        game.for_each_move(s, |t| {
            assert!(t < states);
            moves += 1;
            if game.terminal(s).is_none() {
                *into.entry(t).or_default().entry(s).or_default() += 1;
            }
        });
        if game.terminal(s).is_some() {
            assert_eq!(moves, 0, "terminal state {s} has moves");
        } else {
            assert!(moves > 0, "non-terminal state {s} has no moves");
            assert_eq!(game.move_count(s), moves);
            assert!(moves <= game.max_move_count());
        }
    }
    for s in 0..states {
        let mut back: HashMap<u64, u32> = HashMap::new();
        game.for_each_unmove(s, |p, p_moves| {
            assert!(game.terminal(p).is_none(), "unmove yielded terminal {p}");
            assert_eq!(p_moves, game.move_count(p));
            *back.entry(p).or_default() += 1;
        });
        assert_eq!(back, into.remove(&s).unwrap_or_default(), "unmoves of {s}");
    }

    // The listed terminal states are exactly the terminal states.
    let mut listed: Vec<_> = game.terminal_states();
    listed.sort_by_key(|&(s, _)| s);
    let scanned: Vec<_> = (0..states)
        .filter_map(|s| game.terminal(s).map(|o| (s, o)))
        .collect();
    assert_eq!(listed, scanned);
}

#[test]
fn contract_holds_on_seeded_random_graphs() {
    let mut rng = Rng::new(913);
    for case in 0..200 {
        let n = 3 + rng.below(7) as usize;
        let graph = random_graph(&mut rng, n, case % 2 == 1);
        check_contract(&CatMouseGraph::new(&graph).unwrap());
    }
}

#[test]
fn repeated_entries_are_one_edge() {
    let once = CatMouseGraph::new(&[vec![2], vec![2], vec![0, 1]]).unwrap();
    let twice = CatMouseGraph::new(&[vec![2, 2], vec![2, 2, 2], vec![1, 0, 1]]).unwrap();
    for s in 0..once.state_count() {
        assert_eq!(once.move_count(s), twice.move_count(s));
    }
    check_contract(&twice);
}

#[test]
fn bad_graphs_are_refused_with_a_reason() {
    let err = |g: &[Vec<i64>]| CatMouseGraph::from_signed(g).unwrap_err().to_string();
    assert!(err(&[vec![1], vec![0]]).contains("at least 3"));
    assert!(err(&[vec![1], vec![0, 3], vec![]]).contains("graph[1] lists node 3"));
    assert!(err(&[vec![1], vec![-1], vec![]]).contains("graph[1] lists node -1"));
    let game = CatMouseGraph::new(&[vec![1], vec![0], vec![]]).unwrap();
    assert!(game
        .start_state(1, 0, Turn::Mouse)
        .unwrap_err()
        .to_string()
        .contains("hole"));
    assert!(game.start_state(3, 1, Turn::Mouse).is_err());
    assert!(game.start_state(1, 3, Turn::Mouse).is_err());
}
