//! The generic engine of user games (`retrograde::own`) against a
//! deliberately simple reference, state by state, on hundreds of seeded
//! random games — with and without symmetries, with and without unmoves —
//! and bit-identical at 1, 2 and 4 threads.
//!
//! The reference knows nothing of the engine: it walks the game from the
//! start into a `BTreeMap`, then sweeps over every position round after
//! round until nothing changes. In round `r` a position in play is decided
//! from the previous round's labels: won at depth `r` if some move reaches
//! a position lost for its mover, lost at depth `r` if every move reaches a
//! position won for its mover. What is never decided is a draw.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::common::Rng;
use retrograde::host::{Budget, Silent};
use retrograde::language::Outcome;
use retrograde::language::OutcomeTable;
use retrograde::own::{
    canonical, check_contract, load, save, solve, solve_spilling, solve_whole, PlyCount, Rules,
    Solution,
};

/// A value and depth as the reference labels it (`None`: a draw).
type Label = Option<(Outcome, u32)>;

/// Every position reachable from the start (raw, no symmetry) with its label.
fn reference<R: Rules<Position = u32>>(rules: &R) -> BTreeMap<u32, Label> {
    let mut seen = BTreeSet::from([rules.start()]);
    let mut queue = VecDeque::from([rules.start()]);
    let mut children: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    while let Some(p) = queue.pop_front() {
        let mut kids = Vec::new();
        if rules.outcome(&p).is_none() {
            rules.moves(&p, &mut kids);
        }
        for &k in &kids {
            if seen.insert(k) {
                queue.push_back(k);
            }
        }
        children.insert(p, kids);
    }
    // an end of depth d > 0 is labelled at the end of round d, so that
    // its parents see it in round d + 1 (as a child decided at depth d)
    let deep_ends: Vec<(u32, Outcome, u32)> = seen
        .iter()
        .filter_map(|&p| match rules.outcome(&p) {
            Some(value) if value != Outcome::Draw && rules.end_depth(&p) > 0 => {
                Some((p, value, rules.end_depth(&p)))
            }
            _ => None,
        })
        .collect();
    let deepest_end = deep_ends.iter().map(|&(_, _, d)| d).max().unwrap_or(0);
    let mut labels: BTreeMap<u32, Label> = seen
        .iter()
        .map(|&p| {
            let label = match rules.outcome(&p) {
                Some(Outcome::Draw) => None,
                Some(_) if rules.end_depth(&p) > 0 => None,
                Some(value) => Some((value, 0)),
                None if children[&p].is_empty() => Some((Outcome::Loss, 0)),
                None => None,
            };
            (p, label)
        })
        .collect();
    let over = |p: &u32| rules.outcome(p).is_some() || children[p].is_empty();
    for round in 1.. {
        let before = labels.clone();
        for (&p, label) in labels.iter_mut() {
            if label.is_some() || over(&p) {
                continue;
            }
            let kids: Vec<Label> = children[&p].iter().map(|k| before[k]).collect();
            if kids.iter().any(|l| matches!(l, Some((Outcome::Loss, _)))) {
                *label = Some((Outcome::Win, round));
            } else if kids.iter().all(|l| matches!(l, Some((Outcome::Win, _)))) {
                *label = Some((Outcome::Loss, round));
            }
        }
        for &(p, value, depth) in &deep_ends {
            if depth == round {
                labels.insert(p, Some((value, depth)));
            }
        }
        if labels == before && round >= deepest_end {
            break;
        }
    }
    labels
}

/// A random game on nodes `0..2n`: node `2c + b` is the position of class
/// `c`, side `b`. A move of class `c` to class `d` leads from side `b` to
/// side `b ^ twist(c, d)`, so swapping sides (`x ^ 1`) is a symmetry of
/// the game. Ends, and the classes' moves (repeats and cycles included),
/// are drawn from the seed.
struct RandomGame {
    moves: Vec<Vec<u32>>,
    ends: Vec<Option<Outcome>>,
    /// Each node's [`Rules::end_depth`] (0 but in [`RandomGame::deepen`]).
    end_depths: Vec<u32>,
    symmetric: bool,
    parents: Vec<Vec<u32>>,
}

impl RandomGame {
    fn new(rng: &mut Rng, symmetric: bool) -> Self {
        let classes = 2 + rng.below(40) as usize;
        Self::with_classes(rng, symmetric, classes)
    }

    fn with_classes(rng: &mut Rng, symmetric: bool, classes: usize) -> Self {
        Self::build(rng, symmetric, classes, None, 4)
    }

    /// A game whose classes are in tiers of `block` classes (class `c` in
    /// tier `c / block`), every move to a class of the same tier or above:
    /// the tier of node `x` is `(x / 2) / block`; a move goes at most
    /// three tiers up. A class has up to five
    /// moves (not three): moves that only go up reach less.
    fn in_tiers(rng: &mut Rng, symmetric: bool, classes: usize, block: usize) -> Self {
        Self::build(rng, symmetric, classes, Some(block), 6)
    }

    /// `classes` classes, each with fewer than `degrees` moves drawn, in
    /// tiers of `block` classes if it is given.
    fn build(
        rng: &mut Rng,
        symmetric: bool,
        classes: usize,
        block: Option<usize>,
        degrees: u64,
    ) -> Self {
        let mut moves = vec![Vec::new(); 2 * classes];
        let mut ends = vec![None; 2 * classes];
        for c in 0..classes {
            let end = match rng.below(10) {
                // the start's class is in play, so the game is not one position
                _ if c == 0 => None,
                0 => Some(Outcome::Win),
                1 | 2 => Some(Outcome::Loss),
                3 => Some(Outcome::Draw),
                _ => None,
            };
            let degree = rng.below(degrees);
            // in tiers, a move stays in its tier or goes up to three higher
            let lowest = block.map_or(0, |block| c / block * block);
            let span = block.map_or(classes, |block| (4 * block).min(classes - lowest));
            let targets: Vec<(usize, u32)> = (0..degree)
                .map(|_| {
                    let d = lowest + rng.below(span as u64) as usize;
                    (d, rng.below(2) as u32)
                })
                .collect();
            for b in 0..2 {
                ends[2 * c + b] = end;
                for &(d, twist) in &targets {
                    let side = if symmetric { b as u32 ^ twist } else { twist };
                    moves[2 * c + b].push(2 * d as u32 + side);
                }
            }
        }
        let mut parents = vec![Vec::new(); 2 * classes];
        for (p, kids) in moves.iter().enumerate() {
            for &k in kids {
                parents[k as usize].push(p as u32);
            }
        }
        let end_depths = vec![0; ends.len()];
        Self {
            moves,
            ends,
            end_depths,
            symmetric,
            parents,
        }
    }

    /// The same game with each won or lost end (both sides of a class
    /// alike) at a depth from 0 to 3, drawn from `rng`.
    fn deepen(mut self, rng: &mut Rng) -> Self {
        for c in 0..self.ends.len() / 2 {
            let depth = rng.below(4) as u32;
            if matches!(self.ends[2 * c], Some(Outcome::Win | Outcome::Loss)) {
                self.end_depths[2 * c] = depth;
                self.end_depths[2 * c + 1] = depth;
            }
        }
        self
    }
}

impl Rules for RandomGame {
    type Position = u32;
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, p: &u32, children: &mut Vec<u32>) {
        children.extend(&self.moves[*p as usize]);
    }
    fn outcome(&self, p: &u32) -> Option<Outcome> {
        self.ends[*p as usize]
    }
    fn end_depth(&self, p: &u32) -> u32 {
        self.end_depths[*p as usize]
    }
    fn symmetries(&self, p: &u32, images: &mut Vec<u32>) {
        if self.symmetric {
            images.push(p ^ 1);
        }
    }
}

/// The same game, its predecessors given by unmoves.
struct WithUnmoves(RandomGame);

impl Rules for WithUnmoves {
    type Position = u32;
    const UNMOVES: bool = true;
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, p: &u32, children: &mut Vec<u32>) {
        self.0.moves(p, children)
    }
    fn outcome(&self, p: &u32) -> Option<Outcome> {
        self.0.outcome(p)
    }
    fn end_depth(&self, p: &u32) -> u32 {
        self.0.end_depth(p)
    }
    fn symmetries(&self, p: &u32, images: &mut Vec<u32>) {
        self.0.symmetries(p, images)
    }
    fn unmoves(&self, p: &u32, parents: &mut Vec<u32>) {
        parents.extend(&self.0.parents[*p as usize]);
    }
}

/// The methods of a wrapper of a game (its field `game`) that pass to it.
macro_rules! rules_of_the_wrapped_game {
    () => {
        fn start(&self) -> u32 {
            self.game.start()
        }
        fn moves(&self, p: &u32, children: &mut Vec<u32>) {
            self.game.moves(p, children)
        }
        fn outcome(&self, p: &u32) -> Option<Outcome> {
            self.game.outcome(p)
        }
        fn end_depth(&self, p: &u32) -> u32 {
            self.game.end_depth(p)
        }
        fn symmetries(&self, p: &u32, images: &mut Vec<u32>) {
            self.game.symmetries(p, images)
        }
        fn unmoves(&self, p: &u32, parents: &mut Vec<u32>) {
            self.game.unmoves(p, parents)
        }
    };
}

/// The same game solved tier by tier: node `x` is in tier
/// `5 · ((x / 2) / block) + 3` (a game of [`RandomGame::in_tiers`] with
/// that block): the start's tier is not 0, and the tiers have gaps.
struct InTiers<G> {
    game: G,
    block: u32,
}

impl<G: Rules<Position = u32>> Rules for InTiers<G> {
    type Position = u32;
    const UNMOVES: bool = G::UNMOVES;
    const TIERED: bool = true;
    rules_of_the_wrapped_game!();
    fn tier(&self, p: &u32) -> u32 {
        5 * (p / 2 / self.block) + 3
    }
}

/// The same game numbered by a dense rank: its nodes spread over a few
/// more ranks than there are nodes, in a seeded order, the ranks between
/// them no position's.
struct Ranked<G> {
    game: G,
    rank_of: Vec<u32>,
    node_of: Vec<Option<u32>>,
}

impl<G: Rules<Position = u32>> Ranked<G> {
    fn new(game: G, nodes: usize, rng: &mut Rng) -> Self {
        let ranks = nodes + 1 + rng.below(nodes as u64 / 2 + 1) as usize;
        let mut order: Vec<u32> = (0..ranks as u32).collect();
        for i in (1..ranks).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let rank_of: Vec<u32> = order[..nodes].to_vec();
        let mut node_of = vec![None; ranks];
        for (node, &rank) in rank_of.iter().enumerate() {
            node_of[rank as usize] = Some(node as u32);
        }
        Self {
            game,
            rank_of,
            node_of,
        }
    }
}

impl<G: Rules<Position = u32>> Rules for Ranked<G> {
    type Position = u32;
    const UNMOVES: bool = G::UNMOVES;
    const RANKED: bool = true;
    rules_of_the_wrapped_game!();
    fn ranks(&self) -> u64 {
        self.node_of.len() as u64
    }
    fn rank(&self, p: &u32) -> u64 {
        u64::from(self.rank_of[*p as usize])
    }
    fn unrank(&self, rank: u64) -> Option<u32> {
        self.node_of[rank as usize]
    }
}

/// Solves `rules` and compares every position the reference reaches.
fn compare<R: Rules<Position = u32>>(rules: &R, what: &str) {
    let expected = reference(rules);
    let solution = solve(rules).unwrap();
    let classes: BTreeSet<u32> = expected
        .keys()
        .map(|&p| canonical(rules, p, &mut Vec::new()))
        .collect();
    assert_eq!(solution.positions(), classes.len() as u64, "{what}");
    for (&p, &label) in &expected {
        let got = solution.lookup(rules, p).unwrap();
        let want = match label {
            Some((value, depth)) => (value, Some(depth)),
            None => (Outcome::Draw, None),
        };
        assert_eq!(got, want, "{what}: position {p}");
    }
}

#[test]
fn matches_the_reference_on_random_games() {
    let mut rng = Rng::new(89);
    for i in 0..300 {
        let game = RandomGame::new(&mut rng, false);
        compare(&game, &format!("game {i}"));
    }
}

#[test]
fn matches_the_reference_on_random_games_with_a_symmetry() {
    let mut rng = Rng::new(890);
    for i in 0..300 {
        let game = RandomGame::new(&mut rng, true);
        compare(&game, &format!("symmetric game {i}"));
    }
}

#[test]
fn matches_the_reference_on_random_games_numbered_by_rank() {
    let mut rng = Rng::new(892);
    for i in 0..300 {
        let symmetric = i % 3 == 1;
        let game = RandomGame::new(&mut rng, symmetric);
        let nodes = game.moves.len();
        if i % 2 == 0 {
            let game = Ranked::new(game, nodes, &mut rng);
            compare(&game, &format!("game {i} by rank"));
        } else {
            let game = Ranked::new(WithUnmoves(game), nodes, &mut rng);
            compare(&game, &format!("game {i} by rank with unmoves"));
        }
    }
}

#[test]
fn matches_the_reference_on_random_games_whose_ends_have_depths() {
    let mut rng = Rng::new(897);
    let spill = std::env::temp_dir().join(format!("retrograde-deep-ends-{}", std::process::id()));
    std::fs::create_dir_all(&spill).unwrap();
    for i in 0..300 {
        let symmetric = i % 3 == 1;
        match i % 4 {
            0 => {
                let game = RandomGame::new(&mut rng, symmetric).deepen(&mut rng);
                compare(&game, &format!("game {i} with deep ends"));
                // the certificate of a saved table checks the ends' depths
                let file = spill.join("deep.rgt");
                save(&file, &game, &solve(&game).unwrap()).unwrap();
                load(&file, &game, &Budget::unlimited(), &Silent).unwrap();
                std::fs::remove_file(&file).unwrap();
            }
            1 => {
                let game = WithUnmoves(RandomGame::new(&mut rng, symmetric).deepen(&mut rng));
                compare(&game, &format!("game {i} with deep ends and unmoves"));
            }
            2 => {
                let game = RandomGame::new(&mut rng, symmetric).deepen(&mut rng);
                let nodes = game.moves.len();
                let game = Ranked::new(WithUnmoves(game), nodes, &mut rng);
                compare(&game, &format!("game {i} with deep ends by rank"));
            }
            _ => {
                let block = 1 + rng.below(6) as u32;
                let classes = 2 + rng.below(40) as usize;
                let game = RandomGame::in_tiers(&mut rng, symmetric, classes, block as usize)
                    .deepen(&mut rng);
                let game = InTiers { game, block };
                compare_tiers(&game, &format!("game {i} with deep ends in tiers"), &spill);
            }
        }
    }
    std::fs::remove_dir(&spill).unwrap();
}

#[test]
fn matches_the_reference_on_random_games_with_unmoves() {
    let mut rng = Rng::new(891);
    for i in 0..300 {
        let symmetric = i % 2 == 1;
        let game = WithUnmoves(RandomGame::new(&mut rng, symmetric));
        compare(&game, &format!("game {i} with unmoves"));
    }
}

/// What a solve gives, to compare two solves bit for bit.
type Solved = (Vec<u32>, OutcomeTable, Vec<PlyCount>, u64);

fn solved(solution: Solution<u32>) -> Solved {
    let keys = solution.index.keys().unwrap().to_vec();
    (keys, solution.table, solution.plies, solution.moves)
}

/// Solves `rules` tier by tier (spilling to a directory of its own, left
/// empty) against the reference, and against its solve in one piece bit
/// for bit: keys, values, depths, counts by ply and moves.
fn compare_tiers<R: Rules<Position = u32>>(rules: &R, what: &str, spill: &std::path::Path) {
    compare(rules, what);
    let tiered = solve_spilling(rules, spill, &Budget::unlimited(), &Silent).unwrap();
    let whole = solve_whole(rules, &Budget::unlimited(), &Silent).unwrap();
    // the tiers, in order, each with the positions of the whole solve in it
    let mut by_tier: BTreeMap<u32, u64> = BTreeMap::new();
    for &key in whole.index.keys().unwrap() {
        *by_tier.entry(rules.tier(&key)).or_default() += 1;
    }
    let counted: Vec<(u32, u64)> = tiered.tiers.iter().map(|t| (t.tier, t.positions)).collect();
    assert_eq!(counted, by_tier.into_iter().collect::<Vec<_>>(), "{what}");
    assert_eq!(solved(tiered), solved(whole), "{what}");
    assert_eq!(
        std::fs::read_dir(spill).unwrap().count(),
        0,
        "{what}: spill files left"
    );
}

#[test]
fn tier_by_tier_matches_the_reference_and_the_whole_solve_on_random_games() {
    let spill = std::env::temp_dir().join(format!("retrograde-tiers-{}", std::process::id()));
    std::fs::create_dir_all(&spill).unwrap();
    let mut rng = Rng::new(893);
    for i in 0..300 {
        let symmetric = i % 3 == 1;
        let classes = 2 + rng.below(40) as usize;
        let block = 1 + rng.below(6) as u32;
        let game = RandomGame::in_tiers(&mut rng, symmetric, classes, block as usize);
        if i % 2 == 0 {
            let game = InTiers { game, block };
            compare_tiers(&game, &format!("game {i} in tiers"), &spill);
        } else {
            let game = InTiers {
                game: WithUnmoves(game),
                block,
            };
            compare_tiers(&game, &format!("game {i} in tiers with unmoves"), &spill);
        }
    }
    std::fs::remove_dir(&spill).unwrap();
}

/// A game whose tier is not a function: every other call says one more.
struct FlakyTier {
    game: InTiers<RandomGame>,
    calls: std::sync::atomic::AtomicU32,
}

impl Rules for FlakyTier {
    type Position = u32;
    const TIERED: bool = true;
    rules_of_the_wrapped_game!();
    fn tier(&self, p: &u32) -> u32 {
        let call = self
            .calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.game.tier(p) + call % 2
    }
}

#[test]
fn rules_whose_tier_changes_from_call_to_call_get_an_error_or_the_right_table() {
    let mut rng = Rng::new(896);
    let mut refused = 0;
    for i in 0..30 {
        let block = 1 + rng.below(4) as u32;
        let game = InTiers {
            game: RandomGame::in_tiers(&mut rng, false, 200, block as usize),
            block,
        };
        let whole = solved(solve_whole(&game, &Budget::unlimited(), &Silent).unwrap());
        let flaky = FlakyTier {
            game,
            calls: Default::default(),
        };
        match solve(&flaky) {
            Ok(solution) => assert_eq!(solved(solution), whole, "game {i}"),
            Err(e) => {
                let message = e.to_string();
                assert!(!message.contains('\n'), "{message}");
                refused += 1;
            }
        }
    }
    assert!(refused > 0, "no flaky tier was noticed");
}

#[test]
fn a_tier_that_a_move_lowers_is_refused_by_name() {
    let mut rng = Rng::new(894);
    // moves anywhere, so some move lowers the tier
    let game = InTiers {
        game: RandomGame::build(&mut rng, false, 1000, None, 6),
        block: 10,
    };
    let refusal = match solve(&game) {
        Ok(s) => panic!("a falling tier is refused ({} positions)", s.positions()),
        Err(e) => e.to_string(),
    };
    assert!(refusal.contains("is not monotone"), "{refusal}");
    // and the contract check names the move
    let why = check_contract(&game, 10_000).unwrap_err();
    assert!(why.contains("lowers the tier"), "{why}");
}

/// `work` run on pools of 1, 2 and 4 threads.
fn at_one_two_and_four_threads<T: Send>(work: impl Fn() -> T + Sync) -> Vec<T> {
    [1, 2, 4]
        .iter()
        .map(|&threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(&work)
        })
        .collect()
}

#[test]
fn the_table_is_the_same_at_one_two_and_four_threads() {
    let mut rng = Rng::new(892);
    for i in 0..3 {
        let game = RandomGame::with_classes(&mut rng, true, 100_000);
        let tables = at_one_two_and_four_threads(|| {
            let s = solve(&game).unwrap();
            (s.index.keys().unwrap().to_vec(), s.table, s.plies)
        });
        assert_eq!(tables[0], tables[1]);
        assert_eq!(tables[0], tables[2]);
        // numbered by rank (every other game with unmoves)
        let nodes = game.moves.len();
        let tables = if i % 2 == 0 {
            let ranked = Ranked::new(game, nodes, &mut rng);
            at_one_two_and_four_threads(|| {
                let s = solve(&ranked).unwrap();
                (s.index.ranks().unwrap().words().to_vec(), s.table, s.plies)
            })
        } else {
            let ranked = Ranked::new(WithUnmoves(game), nodes, &mut rng);
            at_one_two_and_four_threads(|| {
                let s = solve(&ranked).unwrap();
                (s.index.ranks().unwrap().words().to_vec(), s.table, s.plies)
            })
        };
        assert_eq!(tables[0], tables[1]);
        assert_eq!(tables[0], tables[2]);
    }
}

#[test]
fn tier_by_tier_the_table_is_the_same_at_one_two_and_four_threads() {
    let mut rng = Rng::new(895);
    for i in 0..2 {
        let game = RandomGame::in_tiers(&mut rng, i == 0, 100_000, 25_000);
        let tables = if i == 0 {
            let game = InTiers {
                game,
                block: 25_000,
            };
            at_one_two_and_four_threads(|| solved(solve(&game).unwrap()))
        } else {
            let game = InTiers {
                game: WithUnmoves(game),
                block: 25_000,
            };
            at_one_two_and_four_threads(|| solved(solve(&game).unwrap()))
        };
        assert!(
            tables[0].0.len() > 10_000,
            "a game of many positions: {}",
            tables[0].0.len()
        );
        assert_eq!(tables[0], tables[1]);
        assert_eq!(tables[0], tables[2]);
    }
}

/// Cat and Mouse (LeetCode 913) written for the trait, with unmoves: a
/// position is `mouse | cat << 16 | turn << 32` (turn 1: the cat's).
struct CatAndMouse {
    exits: Vec<Vec<u32>>,
    entries: Vec<Vec<u32>>,
}

impl CatAndMouse {
    fn new(graph: &[Vec<u32>]) -> Self {
        let mut entries = vec![Vec::new(); graph.len()];
        for (a, exits) in graph.iter().enumerate() {
            for &b in exits {
                entries[b as usize].push(a as u32);
            }
        }
        Self {
            exits: graph.to_vec(),
            entries,
        }
    }

    fn key(mouse: u32, cat: u32, cat_moves: bool) -> u64 {
        u64::from(mouse) | u64::from(cat) << 16 | u64::from(cat_moves) << 32
    }

    fn parts(p: u64) -> (u32, u32, bool) {
        (
            (p & 0xffff) as u32,
            ((p >> 16) & 0xffff) as u32,
            p >> 32 == 1,
        )
    }
}

impl Rules for CatAndMouse {
    type Position = u64;
    const UNMOVES: bool = true;
    fn start(&self) -> u64 {
        Self::key(1, 2, false)
    }
    fn moves(&self, p: &u64, children: &mut Vec<u64>) {
        let (mouse, cat, cat_moves) = Self::parts(*p);
        if cat_moves {
            let exits = self.exits[cat as usize].iter().filter(|&&c| c != 0);
            children.extend(exits.map(|&c| Self::key(mouse, c, false)));
        } else {
            let exits = self.exits[mouse as usize].iter();
            children.extend(exits.map(|&m| Self::key(m, cat, true)));
        }
    }
    fn outcome(&self, p: &u64) -> Option<Outcome> {
        let (mouse, cat, cat_moves) = Self::parts(*p);
        let mouse_won = if mouse == 0 {
            true
        } else if mouse == cat {
            false
        } else {
            return None;
        };
        Some(if mouse_won != cat_moves {
            Outcome::Win
        } else {
            Outcome::Loss
        })
    }
    fn unmoves(&self, p: &u64, parents: &mut Vec<u64>) {
        let (mouse, cat, cat_moves) = Self::parts(*p);
        if cat_moves {
            let from = self.entries[mouse as usize].iter();
            parents.extend(from.map(|&m| Self::key(m, cat, false)));
        } else {
            let from = self.entries[cat as usize].iter().filter(|&&c| c != 0);
            parents.extend(from.map(|&c| Self::key(mouse, c, true)));
        }
    }
}

#[test]
fn cat_and_mouse_through_the_trait_equals_the_built_in_engine_state_by_state() {
    use crate::common::random_graph;
    use retrograde::engines::retrograde::solve as solve_ranked;
    use retrograde::games::cat_mouse::{CatMouseGraph, Position, Turn};
    let mut rng = Rng::new(913);
    for i in 0..300 {
        let n = 3 + rng.below(10) as usize;
        let graph = random_graph(&mut rng, n, i % 2 == 1);
        let built_in = CatMouseGraph::new(&graph).unwrap();
        let table = solve_ranked(&built_in).unwrap();
        let rules = CatAndMouse::new(&graph);
        let solution = solve(&rules).unwrap();
        for &key in solution.index.keys().unwrap() {
            let (mouse, cat, cat_moves) = CatAndMouse::parts(key);
            let turn = if cat_moves { Turn::Cat } else { Turn::Mouse };
            let state = built_in.rank(Position { mouse, cat, turn });
            let want = (table.outcome(state), table.depth(state));
            assert_eq!(
                solution.lookup(&rules, key),
                Some(want),
                "graph {graph:?}, {key:x}"
            );
        }
    }
}

/// Nim as the built-in engine plays it: one heap, take 1 to `max_take`.
struct Nim {
    stones: u64,
    max_take: u64,
}

impl Rules for Nim {
    type Position = u64;
    fn start(&self) -> u64 {
        self.stones
    }
    fn moves(&self, heap: &u64, children: &mut Vec<u64>) {
        children.extend((1..=self.max_take.min(*heap)).map(|t| heap - t));
    }
    fn outcome(&self, _: &u64) -> Option<Outcome> {
        None
    }
}

/// Can I Win (LeetCode 464): a position is the set of numbers used.
struct CanIWin {
    max: u32,
    total: i64,
}

impl CanIWin {
    fn sum(&self, used: u32) -> i64 {
        (0..self.max)
            .filter(|i| used >> i & 1 == 1)
            .map(|i| i64::from(i) + 1)
            .sum()
    }
}

impl Rules for CanIWin {
    type Position = u32;
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, used: &u32, children: &mut Vec<u32>) {
        children.extend(
            (0..self.max)
                .filter(|i| used >> i & 1 == 0)
                .map(|i| used | 1 << i),
        );
    }
    fn outcome(&self, used: &u32) -> Option<Outcome> {
        (self.sum(*used) >= self.total).then_some(Outcome::Loss)
    }
}

/// Take from either end (LeetCode 486): a position is the interval left
/// and the mover's lead so far, `from | to << 8 | (lead + 2^15) << 16`.
struct Ends(Vec<u64>);

impl Ends {
    fn key(from: usize, to: usize, lead: i64) -> u64 {
        from as u64 | (to as u64) << 8 | ((lead + (1 << 15)) as u64) << 16
    }
}

impl Rules for Ends {
    type Position = u64;
    fn start(&self) -> u64 {
        Self::key(0, self.0.len(), 0)
    }
    fn moves(&self, p: &u64, children: &mut Vec<u64>) {
        let (from, to) = ((p & 0xff) as usize, ((p >> 8) & 0xff) as usize);
        let lead = (p >> 16) as i64 - (1 << 15);
        // the child is the opponent's: their lead is minus ours
        children.push(Self::key(from + 1, to, -(lead + self.0[from] as i64)));
        children.push(Self::key(from, to - 1, -(lead + self.0[to - 1] as i64)));
    }
    fn outcome(&self, p: &u64) -> Option<Outcome> {
        let (from, to) = ((p & 0xff) as usize, ((p >> 8) & 0xff) as usize);
        let lead = (p >> 16) as i64 - (1 << 15);
        (from == to).then_some(match lead.signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        })
    }
}

#[test]
fn nim_can_i_win_and_ends_through_the_trait_equal_the_built_in_engines() {
    use retrograde::games::{can_i_win::solve_can_i_win, ends::solve_ends, nim::solve_nim};
    use retrograde::host::Budget;
    let budget = Budget::unlimited();
    let mut rng = Rng::new(464);
    for _ in 0..100 {
        let (stones, max_take) = (rng.below(200), 1 + rng.below(6));
        let built_in = solve_nim(stones, max_take, &budget).unwrap();
        let rules = Nim { stones, max_take };
        let solution = solve(&rules).unwrap();
        for heap in 0..=stones {
            let (value, _) = solution.lookup(&rules, heap).unwrap();
            assert_eq!(
                value == Outcome::Win,
                built_in.wins(heap),
                "nim {stones}/{max_take}"
            );
        }
    }
    for _ in 0..100 {
        let max = 1 + rng.below(10) as u32;
        let total = 1 + rng.below(u64::from(max * (max + 1) / 2) + 5) as i64;
        let built_in = solve_can_i_win(max, total, &budget).unwrap();
        let rules = CanIWin { max, total };
        let solution = solve(&rules).unwrap();
        for &used in solution.index.keys().unwrap() {
            let (value, _) = solution.lookup(&rules, used).unwrap();
            assert_eq!(
                value == Outcome::Win,
                built_in.wins(used),
                "can i win {max}/{total}"
            );
        }
        // LeetCode answers "false" outright when 1 + … + max < total; the
        // game itself is then decided by who runs out of numbers.
        if i64::from(max * (max + 1) / 2) >= total {
            let (start, _) = solution.lookup(&rules, 0).unwrap();
            assert_eq!(start == Outcome::Win, built_in.first_player_wins());
        }
    }
    for _ in 0..100 {
        let row: Vec<u64> = (0..1 + rng.below(9)).map(|_| rng.below(20)).collect();
        let built_in = solve_ends(&row, &budget).unwrap();
        let rules = Ends(row.clone());
        let (value, _) = solve(&rules)
            .unwrap()
            .lookup(&rules, rules.start())
            .unwrap();
        let lead = built_in.first_score() as i64 - built_in.second_score() as i64;
        let want = match lead.signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        };
        assert_eq!(value, want, "ends {row:?}");
    }
}

#[test]
fn the_contract_check_passes_good_rules_and_names_what_breaks_bad_ones() {
    use retrograde::own::check_contract;
    // The mouse on 1, the cat on 2, the hole 0 at the far end of a path.
    let edges = [
        (1, 3),
        (3, 4),
        (4, 5),
        (5, 6),
        (6, 0),
        (2, 4),
        (2, 5),
        (3, 6),
    ];
    let mut graph = vec![Vec::new(); 7];
    for (a, b) in edges {
        graph[a].push(b as u32);
        graph[b].push(a as u32);
    }
    let report = check_contract(&CatAndMouse::new(&graph), 1000).unwrap();
    assert!(report.positions > 20 && report.unmoves > 20, "{report:?}");
    let mut rng = Rng::new(7);
    let symmetric = RandomGame::with_classes(&mut rng, true, 50);
    assert!(check_contract(&symmetric, 1000).unwrap().images > 0);

    /// Unmoves that forget a parent.
    struct ForgetfulUnmoves(CatAndMouse);
    impl Rules for ForgetfulUnmoves {
        type Position = u64;
        const UNMOVES: bool = true;
        fn start(&self) -> u64 {
            self.0.start()
        }
        fn moves(&self, p: &u64, children: &mut Vec<u64>) {
            self.0.moves(p, children)
        }
        fn outcome(&self, p: &u64) -> Option<Outcome> {
            self.0.outcome(p)
        }
        fn unmoves(&self, p: &u64, parents: &mut Vec<u64>) {
            self.0.unmoves(p, parents);
            parents.pop();
        }
    }
    let why = check_contract(&ForgetfulUnmoves(CatAndMouse::new(&graph)), 1000).unwrap_err();
    assert!(why.contains("not undone by an unmove"), "{why}");

    // A "symmetry" that is not one: the start's image ends the game.
    let mut broken = RandomGame::new(&mut rng, true);
    broken.ends[0] = None;
    broken.ends[1] = Some(Outcome::Win);
    let why = check_contract(&broken, 1000).unwrap_err();
    assert!(why.contains("image"), "{why}");

    // A rank: a good one passes; two positions on one rank are caught.
    let mut ranked = loop {
        let game = RandomGame::with_classes(&mut rng, false, 50);
        let nodes = game.moves.len();
        let ranked = Ranked::new(game, nodes, &mut rng);
        if check_contract(&ranked, 1000).unwrap().positions > 3 {
            break ranked;
        }
    };
    let child = *ranked.game.moves[0].iter().find(|&&c| c != 0).unwrap();
    ranked.rank_of[child as usize] = ranked.rank_of[0];
    let why = check_contract(&ranked, 1000).unwrap_err();
    assert!(why.contains("unranks to"), "{why}");
}

#[test]
fn a_position_with_more_moves_than_a_count_holds_is_refused_by_name() {
    /// The start has 70,000 moves, each ending the game.
    struct Wide;
    impl Rules for Wide {
        type Position = u32;
        fn start(&self) -> u32 {
            0
        }
        fn moves(&self, _: &u32, children: &mut Vec<u32>) {
            children.extend(1..=70_000);
        }
        fn outcome(&self, p: &u32) -> Option<Outcome> {
            (*p != 0).then_some(Outcome::Loss)
        }
    }
    let why = solve(&Wide).err().expect("refused").to_string();
    assert!(
        why.contains("position 00000000") && why.contains("more than 65,535 moves"),
        "{why}"
    );
}
