//! The table is bit-identical at 1, 2 and 4 threads. The graphs are large
//! enough that frontiers are split across workers.

use retrograde::{
    engines::retrograde::solve, games::cat_mouse::CatMouseGraph, host::in_pool,
    language::OutcomeTable,
};

use crate::common::{bench_graph, random_graph, Rng};

fn tables_at(graph: &[Vec<u32>]) -> Vec<OutcomeTable> {
    let game = CatMouseGraph::new(graph).unwrap();
    [1, 2, 4]
        .into_iter()
        .map(|threads| in_pool(threads, || solve(&game)).unwrap().unwrap())
        .collect()
}

#[test]
fn bench_graph_is_bit_identical_at_1_2_and_4_threads() {
    let tables = tables_at(&bench_graph());
    assert_eq!(tables[0], tables[1]);
    assert_eq!(tables[0], tables[2]);
    assert!(tables[0].counts().win > 0 && tables[0].counts().loss > 0);
}

#[test]
fn random_graphs_are_bit_identical_at_1_2_and_4_threads() {
    let mut rng = Rng::new(4);
    for case in 0..6 {
        let graph = sparse_random_graph(&mut rng, 300 + 100 * case, case % 2 == 1);
        let tables = tables_at(&graph);
        assert_eq!(tables[0], tables[1], "case {case}");
        assert_eq!(tables[0], tables[2], "case {case}");
    }
    // and small ones, which stay on the sequential path
    for _ in 0..20 {
        let tables = tables_at(&random_graph(&mut rng, 9, false));
        assert_eq!(tables[0], tables[2]);
    }
}

/// A ring plus random chords (degree about 4), the hole touching a few nodes.
fn sparse_random_graph(rng: &mut Rng, n: usize, directed: bool) -> Vec<Vec<u32>> {
    let mut graph = vec![Vec::new(); n];
    let edge = |graph: &mut Vec<Vec<u32>>, a: usize, b: usize| {
        graph[a].push(b as u32);
        if !directed {
            graph[b].push(a as u32);
        }
    };
    for v in 1..n {
        edge(&mut graph, v, if v + 1 < n { v + 1 } else { 1 });
    }
    for _ in 0..n {
        let (a, b) = (
            1 + rng.below(n as u64 - 1) as usize,
            1 + rng.below(n as u64 - 1) as usize,
        );
        if a != b {
            edge(&mut graph, a, b);
        }
    }
    for _ in 0..3 {
        let v = 1 + rng.below(n as u64 - 1) as usize;
        edge(&mut graph, v, 0);
    }
    graph
}
