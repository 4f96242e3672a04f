//! Helpers shared by the integration tests, a module of every test target
//! (`#[path = "../common/mod.rs"] mod common;` in each `tests/AREA/main.rs`):
//! here a seeded generator, random graphs and positions; in the modules
//! below, running the binary (`cli`), forging table files (`forge`,
//! `symbolic_forge`) and an m,n,k reference (`mnk_reference`; the lines
//! and cell names of the independent checker, `retrograde_checker::lines`,
//! serve as another). Written for the tests only; the library does not use
//! them.
#![allow(dead_code)]

pub mod cli;
pub mod forge;
pub mod mnk_reference;
pub mod symbolic_forge;

/// The workspace's top folder (the repository's): the tests are targets
/// of the command's crate, `cli/`, one folder below it.
pub fn root() -> &'static std::path::Path {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the command's crate lies in the workspace")
}

/// SplitMix64: a tiny, well-known seeded generator, so that every random
/// instance of the tests is reproducible from its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x5851_F42D_4C95_7F2D)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..bound` (bound > 0).
    pub fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound
    }

    /// `true` with probability `percent / 100`.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A random Cat-and-Mouse graph on `n` nodes. Undirected graphs list each
/// edge both ways; directed ones may have nodes without exits, self-loops
/// and repeated entries. Some nodes touch only the hole.
pub fn random_graph(rng: &mut Rng, n: usize, directed: bool) -> Vec<Vec<u32>> {
    let mut graph = vec![Vec::new(); n];
    let density = 15 + rng.below(45);
    for a in 0..n {
        for b in 0..n {
            if a == b && !(directed && rng.chance(5)) {
                continue;
            }
            if directed {
                if rng.chance(density) {
                    graph[a].push(b as u32);
                }
            } else if a < b && rng.chance(density) {
                graph[a].push(b as u32);
                graph[b].push(a as u32);
            }
        }
    }
    // Nodes that touch only the hole.
    for v in 3..n {
        if rng.chance(10) {
            for list in graph.iter_mut() {
                list.retain(|&b| b as usize != v);
            }
            graph[v] = vec![0];
            if !directed || rng.chance(50) {
                graph[0].push(v as u32);
            }
        }
    }
    if directed && rng.chance(20) {
        let v = rng.below(n as u64) as usize;
        if let Some(&b) = graph[v].first() {
            graph[v].push(b); // a repeated entry is one edge
        }
    }
    graph
}

/// The benchmark graph (2,000 nodes), kept in the repository.
pub fn bench_graph() -> Vec<Vec<u32>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../benches/data/cat-mouse-2000.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A random game on a gravity board, stopped before it ends: up to a
/// random number of plies below the board's cells, and before any move
/// that would complete a line. Returns (X stones, occupied cells, plies) in
/// the layout of `retrograde::games::gravity`.
pub fn random_gravity_prefix(
    rng: &mut Rng,
    game: &retrograde::games::gravity::Gravity,
) -> (u64, u64, u32) {
    let (cols, _, _) = game.dimensions();
    let (mut x, mut occupied) = (0u64, 0u64);
    let plies = rng.below(u64::from(game.cells())) as u32;
    let mut ply = 0;
    while ply < plies {
        let open: Vec<u64> = (0..cols)
            .filter_map(|c| game.drop_cell(occupied, c))
            .collect();
        let cell = open[rng.below(open.len() as u64) as usize];
        let (nx, no) = if ply % 2 == 0 {
            (x | cell, occupied | cell)
        } else {
            (x, occupied | cell)
        };
        if game.has_line(nx) || game.has_line(no & !nx) {
            break;
        }
        (x, occupied) = (nx, no);
        ply += 1;
    }
    (x, occupied, ply)
}

/// Every m,n,k board up to 4×4 as (columns, rows, k), each k from 1 to the
/// longer side.
pub fn mnk_boards_up_to_4x4() -> Vec<(u32, u32, u32)> {
    (1..=4u32)
        .flat_map(|cols| (1..=4u32).map(move |rows| (cols, rows)))
        .flat_map(|(cols, rows)| (1..=cols.max(rows)).map(move |k| (cols, rows, k)))
        .collect()
}

/// Every position in play of an m,n,k board of `cells` cells (reachable,
/// no line yet, a move left) that `table` knows, as (X cells, O cells,
/// the value and depth for the player to move): every (X, O) split of the
/// board is tried, the table knows the reachable ones.
pub fn for_each_position_in_play(
    table: &retrograde::engines::layered::MnkSolution,
    cells: u32,
    mut visit: impl FnMut(u32, u32, retrograde::language::Outcome, u32),
) {
    for x in 0u32..1 << cells {
        let rest = ((1u32 << cells) - 1) & !x;
        let mut o = rest;
        loop {
            let (xs, os) = (x.count_ones(), o.count_ones());
            if xs == os || xs == os + 1 {
                if let Some((value, depth)) = table.lookup(x, o) {
                    if depth > 0 {
                        visit(x, o, value, depth);
                    }
                }
            }
            if o == 0 {
                break;
            }
            o = (o - 1) & rest;
        }
    }
}

/// A random position of an m,n,k board (X and O cells as bits, cell
/// `row · cols + col`, row 0 at the top): a random game of `min_plies` or
/// more moves, `None` when a line is on it or the board is full.
pub fn random_mnk_position(
    rng: &mut Rng,
    cols: u32,
    rows: u32,
    k: u32,
    min_plies: u64,
) -> Option<(u64, u64)> {
    let cells = u64::from(cols * rows);
    let (mut x, mut o) = (0u64, 0u64);
    for ply in 0..min_plies + rng.below(cells - min_plies) {
        let free: Vec<u64> = (0..cells).filter(|c| (x | o) >> c & 1 == 0).collect();
        let c = free[rng.below(free.len() as u64) as usize];
        if ply % 2 == 0 {
            x |= 1 << c;
        } else {
            o |= 1 << c;
        }
    }
    let lines = retrograde::language::winning_lines(cols, rows, k);
    let has_line = |s: u64| lines.iter().any(|l| l.iter().all(|&c| s >> c & 1 == 1));
    let full = (x | o).count_ones() == cols * rows;
    (!has_line(x) && !has_line(o) && !full).then_some((x, o))
}

/// The value for the player to move of the position (as in
/// [`random_mnk_position`]) by the bitboard search.
pub fn bitboard_value(
    bitboard: &retrograde::engines::bitboard::Bitboard,
    searcher: &retrograde::engines::bitboard::BoardSearcher,
    (cols, rows): (u32, u32),
    (x, o): (u64, u64),
) -> retrograde::language::Outcome {
    let to_bits = |s: u64| {
        (0..cols * rows)
            .filter(|&c| s >> c & 1 == 1)
            .fold(0, |out, c| {
                out | bitboard.cell(c % cols, rows - 1 - c / cols)
            })
    };
    searcher
        .search(
            to_bits(x),
            to_bits(x | o),
            retrograde::engines::search::Precision::Weak,
        )
        .unwrap()
        .unwrap()
        .value
}
