//! The layered solve spread over ranks (processes, with the `mpi` feature
//! started by `mpirun`), generic over the board family
//! ([`LayeredRules`]): gravity boards and m,n,k boards run the same
//! code.
//!
//! * **Partition.** Each ply's canonical keys are spread over the ranks by
//!   a hash of the key ([`ranks::owner`]); a rank holds its part of every
//!   ply, sorted — about 1/P of the single-process memory.
//! * **Forward.** A rank expands its parents in rounds of at most
//!   [`ROUND_PARENTS`], routes each child to its owner in one all-to-all a
//!   round, and sorts and deduplicates what it receives: the keys received
//!   since the last fold are sorted alone once they outgrow the sorted
//!   head, and merged into it (on 6×4, one rank, 2 threads: 12 s with the
//!   whole part sorted at each fold, 10 s merging).
//! * **Backward: pull.** A rank asks each child's owner for its value: per
//!   round one all-to-all of child keys, a lookup by each owner in its part
//!   of the next ply, one all-to-all of value bytes back in the same order.
//!   Pull was chosen over pushing values to the parents' owners because it
//!   reuses the forward move generator (pushing needs a generator of
//!   predecessors for every family, and must filter predecessors that are
//!   unreachable or over), and its answers are one byte a key.
//! * **Agreement.** Every rank runs the same number of rounds (agreed by a
//!   max) and a refusal on one rank (memory) is agreed before the next
//!   collective, so no rank waits for a partner that has given up.
//!
//! The counts are summed over the ranks; the empty board's value comes from
//! the rank that owns it. With one rank ([`ranks::Solo`]) the engine is a
//! plain single-process solve, which the tests compare with the main
//! engine.

pub mod ranks;

#[cfg(feature = "mpi")]
pub mod mpi;

use rayon::prelude::*;

use super::backward::{count_position, solve_backward, ChildValues, NextPly};
use super::disjoint::DisjointWriter;
use super::forward::mark_ended;
use super::keys::KeyWord;
use super::rules::{LayeredRules, MnkRules};
use super::{chunk_len, GravityCounts, GravityPly, ENDED};
use crate::error::{Error, Result};
use crate::memory::{Budget, Bytes};
use crate::runtime::progress::Progress;
use ranks::{owner, Ranks};

/// Parents a rank expands in one round: with up to 8 children each and
/// 8-byte keys, a round's messages stay far below MPI's 2^31-element limit.
pub const ROUND_PARENTS: usize = 1 << 18;

/// One rank's share of a solved board.
#[derive(Debug)]
pub struct RankSolution {
    /// This rank's part of every ply (its canonical keys and their bytes).
    pub plies: Vec<GravityPly>,
    /// Every ply's counts, summed over all ranks.
    pub counts: Vec<GravityCounts>,
    /// The same counts of canonical positions (symmetry classes: each
    /// stored key once), summed over all ranks.
    pub classes: Vec<GravityCounts>,
    /// Games (move sequences from the empty board to an end) won by X,
    /// won by O and drawn, if the family counts them
    /// (`LayeredRules::counts_games`).
    pub games: Option<[u128; 3]>,
    /// The empty board's value/depth byte.
    pub root: u8,
}

impl RankSolution {
    /// The per-ply counts in the m,n,k report's terms: X can win = the
    /// first player wins, O can win = the first player loses.
    pub fn mnk_counts(&self) -> Vec<crate::tables::layered::PlyCounts> {
        self.counts
            .iter()
            .zip(&self.classes)
            .map(|(c, k)| crate::tables::layered::PlyCounts {
                ply: c.ply,
                positions: c.positions,
                terminal: c.terminal,
                x_wins: c.x_wins,
                o_wins: c.o_wins,
                draws: c.draws,
                classes: k.positions,
                terminal_classes: k.terminal,
                x_can_win: c.first_won,
                o_can_win: c.first_lost,
                neither_can_win: c.first_drawn,
                x_can_win_classes: k.first_won,
                o_can_win_classes: k.first_lost,
                neither_can_win_classes: k.first_drawn,
            })
            .collect()
    }

    /// The games by result, if counted.
    pub fn game_counts(&self) -> Option<crate::tables::layered::GameCounts> {
        self.games.map(
            |[x_wins, o_wins, draws]| crate::tables::layered::GameCounts {
                x_wins,
                o_wins,
                draws,
            },
        )
    }
}

/// The dense m,n,k solution of a distributed solve, built on rank 0 (the
/// m,n,k table format is dense, indexed by a board's rank among its ply's
/// boards, so it is written whole by one process): every rank sends its
/// canonical positions to rank 0, ply by ply, and rank 0 spreads them to
/// all their images. Rank 0 first checks the dense table against its
/// budget (a refusal is every rank's). `None` on the other ranks.
pub fn gather_mnk_solution<N: Ranks>(
    game: &crate::rules::mnk::Mnk,
    ranks: &N,
    solved: RankSolution,
    budget: &Budget,
) -> Result<Option<crate::tables::layered::MnkSolution>> {
    let root = ranks.rank() == 0;
    let check = if root {
        budget.check(
            "the dense m,n,k table gathered on rank 0",
            crate::tables::layered::estimate_bytes(game),
        )
    } else {
        Ok(())
    };
    agree(ranks, check)?;
    let counts = solved.mnk_counts();
    let games = solved.game_counts().expect("an m,n,k solve counts games");
    let cells = game.cells();
    let mut to_root = vec![0; ranks.size()];
    let mut plies = Vec::with_capacity(solved.plies.len());
    for ply in solved.plies {
        let (keys, values) = ply.raw();
        let keys: Vec<u64> = keys.iter().collect();
        to_root[0] = keys.len();
        let (got_keys, _) = ranks.exchange(&keys, &to_root)?;
        let (got_values, _) = ranks.exchange(values, &to_root)?;
        if root {
            plies.push(
                got_keys
                    .iter()
                    .zip(got_values)
                    .map(|(&k, v)| ((k & ((1 << cells) - 1)) as u32, (k >> cells) as u32, v))
                    .collect::<Vec<_>>(),
            );
        }
    }
    Ok(root
        .then(|| crate::tables::layered::MnkSolution::from_canonical(game, &plies, counts, games)))
}

/// Solves every reachable position of the m,n,k board `game` over
/// `ranks`, this rank holding its part; `budget` is this rank's.
pub fn solve_mnk_distributed<N: Ranks>(
    game: &crate::rules::mnk::Mnk,
    ranks: &N,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<RankSolution> {
    solve_distributed(&MnkRules::new(game), ranks, budget, progress)
}

/// Solves every reachable position of the gravity board `game` over
/// `ranks`, this rank holding its part; `budget` is this rank's.
pub fn solve_gravity_distributed<N: Ranks>(
    game: &crate::rules::gravity::Gravity,
    ranks: &N,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<RankSolution> {
    solve_distributed(&super::moves::Moves::new(game), ranks, budget, progress)
}

/// Whether every rank's `ok` holds (each rank learns the same answer).
pub fn all_ok<N: Ranks>(ranks: &N, ok: bool) -> bool {
    ranks.max(u64::from(!ok)) == 0
}

/// Solves every reachable position of `rules`' board over `ranks`, this
/// rank holding its part; `budget` is this rank's.
pub fn solve_distributed<R: LayeredRules, N: Ranks>(
    rules: &R,
    ranks: &N,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<RankSolution> {
    if rules.key_bits() <= u32::BITS {
        solve_in::<u32, R, N>(rules, ranks, budget, progress)
    } else {
        solve_in::<u64, R, N>(rules, ranks, budget, progress)
    }
}

fn solve_in<K: KeyWord, R: LayeredRules, N: Ranks>(
    rules: &R,
    ranks: &N,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<RankSolution> {
    let cells = rules.cells();
    let root = rules.root();
    let mine = owner(root, ranks.size()) == ranks.rank();
    let per_position = std::mem::size_of::<K>() as u64 + 1;
    let mut keys: Vec<Vec<K>> = vec![if mine {
        vec![K::from_key(root)]
    } else {
        Vec::new()
    }];
    let mut flags: Vec<Vec<u8>> = Vec::new();
    let mut held = per_position;
    // paths from the empty board to each position of the current ply, when
    // games are counted; games won by X, won by O, drawn
    let counting_games = rules.counts_games();
    let mut paths: Vec<u128> = vec![1; keys[0].len()];
    let mut games = [0u128; 3];
    progress.stage("forward", u64::from(cells) + 1);
    for ply in 0..=cells {
        let parents = &keys[ply as usize];
        let mut ended = vec![0u8; parents.len()];
        mark_ended(rules, ply, parents, &mut ended);
        if counting_games {
            add_games(rules, ply, parents, &ended, &paths, &mut games);
        }
        if ply < cells {
            let next = if counting_games {
                let (next, next_paths) =
                    next_part_with_paths(rules, ranks, ply, parents, &ended, &paths, budget, held)?;
                paths = next_paths;
                next
            } else {
                next_part(rules, ranks, ply, parents, &ended, budget, held)?
            };
            held += next.len() as u64 * per_position;
            keys.push(next);
        }
        flags.push(ended);
        progress.advance(1);
    }
    drop(paths);
    let games = if counting_games {
        Some(summed_games(ranks, games)?)
    } else {
        None
    };

    progress.stage("backward", u64::from(cells) + 1);
    let mut counts = Vec::with_capacity(keys.len());
    let mut classes = Vec::with_capacity(keys.len());
    let plies = solve_backward(keys, flags, |ply, keys, values, next| {
        let (local, local_classes) = solve_part(rules, ranks, ply, keys, values, next)?;
        counts.push(summed(ranks, local));
        classes.push(summed(ranks, local_classes));
        progress.advance(1);
        Ok(())
    })?;
    counts.reverse();
    classes.reverse();
    let mine = plies[0].raw().1.first().copied();
    let root = ranks.max(mine.map_or(0, u64::from)) as u8;
    Ok(RankSolution {
        plies,
        counts,
        classes,
        games,
        root,
    })
}

/// A refusal on any rank is every rank's: each rank learns whether another
/// failed before the next collective operation.
fn agree<T, N: Ranks>(ranks: &N, result: Result<T>) -> Result<T> {
    let all = all_ok(ranks, result.is_ok());
    match result {
        Ok(_) if !all => Err(Error::InvalidInput(
            "another rank of the solve refused to go on (its message says why)".into(),
        )),
        other => other,
    }
}

/// The rounds every rank runs for a part of `len` positions.
fn rounds<N: Ranks>(ranks: &N, len: usize) -> usize {
    ranks.max(len.div_ceil(ROUND_PARENTS) as u64) as usize
}

/// Round `r`'s positions of a part of `len`.
fn round_range(r: usize, len: usize) -> std::ops::Range<usize> {
    (r * ROUND_PARENTS).min(len)..((r + 1) * ROUND_PARENTS).min(len)
}

/// This rank's part of ply `ply + 1`: the children of its `parents` not
/// `ended`, routed to their owners, and what the other ranks route here.
#[allow(clippy::too_many_arguments)]
fn next_part<K: KeyWord, R: LayeredRules, N: Ranks>(
    rules: &R,
    ranks: &N,
    ply: u32,
    parents: &[K],
    ended: &[u8],
    budget: &Budget,
    held: u64,
) -> Result<Vec<K>> {
    let word = std::mem::size_of::<K>() as u64;
    // the distinct keys so far, sorted, and the keys received since
    let mut part: Vec<K> = Vec::new();
    let mut tail: Vec<K> = Vec::new();
    for r in 0..rounds(ranks, parents.len()) {
        let range = round_range(r, parents.len());
        let (ps, es) = (&parents[range.clone()], &ended[range]);
        let Routed {
            grouped: send,
            counts,
            ..
        } = route(
            ranks.size(),
            ps.len(),
            |p, out| {
                if es[p] != ENDED {
                    rules.for_each_child(ps[p].key(), ply, |c| out(K::from_key(c)));
                }
            },
            false,
        );
        let need = held + (part.len() + tail.len() + 2 * send.len()) as u64 * word;
        agree(ranks, check_budget(ranks, budget, ply + 1, held, need))?;
        let (received, _) = ranks.exchange(&send, &counts)?;
        drop(send);
        tail.extend_from_slice(&received);
        // fold the tail in once it outgrows the sorted head: sorted alone,
        // then merged (the head is never sorted again)
        if tail.len() > part.len().max(ROUND_PARENTS) {
            part = merge_in(part, std::mem::take(&mut tail));
        }
    }
    part = merge_in(part, tail);
    part.shrink_to_fit();
    Ok(part)
}

/// Refuses a round of enumerating `ply` that would need `need` bytes of
/// this rank (`held` of them by the plies so far) over its `budget`,
/// naming the rank count that would spread the same work within it.
fn check_budget<N: Ranks>(
    ranks: &N,
    budget: &Budget,
    ply: u32,
    held: u64,
    need: u64,
) -> Result<()> {
    if need <= budget.0 .0 {
        return Ok(());
    }
    let fitting = (need as u128 * ranks.size() as u128).div_ceil(u128::from(budget.0 .0.max(1)));
    Err(Error::OverMemoryBudget {
        what: format!(
            "rank {} of {}, enumerating ply {ply} ({} held)",
            ranks.rank(),
            ranks.size(),
            Bytes(held)
        ),
        needed: Bytes(need),
        budget: budget.0,
        hint: format!(
            " a rank; at least {fitting} ranks of this budget would share the work so far (more for the plies to come)"
        ),
        remedies: Vec::new(),
    })
}

/// The distinct keys of sorted, distinct `head` and unsorted `tail`, in
/// order: the tail sorted and deduplicated, then merged with the head.
fn merge_in<K: KeyWord>(head: Vec<K>, mut tail: Vec<K>) -> Vec<K> {
    tail.par_sort_unstable();
    tail.dedup();
    if head.is_empty() {
        return tail;
    }
    let mut merged = Vec::with_capacity(head.len() + tail.len());
    let (mut a, mut b) = (head.iter().peekable(), tail.iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(&&x), Some(&&y)) if x < y => a.next(),
            (Some(&&x), Some(&&y)) if y < x => b.next(),
            (Some(_), Some(_)) => {
                b.next();
                a.next()
            }
            (Some(_), None) => a.next(),
            (None, Some(_)) => b.next(),
            (None, None) => break,
        };
        merged.extend(next.copied());
    }
    merged
}

/// The words generated for a round's positions, grouped by owner.
struct Routed<K> {
    /// The words, owner after owner (in generation order within an owner).
    grouped: Vec<K>,
    /// How many words each owner gets.
    counts: Vec<usize>,
    /// For each word in generation order, its index in `grouped` (empty
    /// unless asked for: the forward pass does not read them back).
    places: Vec<u32>,
    /// Positions a generation chunk covers (the last fewer).
    chunk: usize,
    /// Where each chunk's words start in generation order (one more entry
    /// than chunks: the end).
    chunk_starts: Vec<usize>,
}

/// Routes the words `generate` makes for each of `items` positions to
/// their owners among `ranks`: generated in parallel chunks, counted by
/// owner per chunk, then written in parallel to disjoint places, which are
/// recorded when `placed`.
fn route<K: KeyWord>(
    ranks: usize,
    items: usize,
    generate: impl Fn(usize, &mut dyn FnMut(K)) + Sync,
    placed: bool,
) -> Routed<K> {
    let chunk = chunk_len(items);
    let chunks: Vec<Vec<K>> = (0..items.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut words = Vec::new();
            for i in c * chunk..((c + 1) * chunk).min(items) {
                generate(i, &mut |w| words.push(w));
            }
            words
        })
        .collect();
    let per_chunk: Vec<Vec<usize>> = chunks
        .par_iter()
        .map(|words| {
            let mut counts = vec![0usize; ranks];
            for w in words {
                counts[owner(w.key(), ranks)] += 1;
            }
            counts
        })
        .collect();
    let counts: Vec<usize> = (0..ranks)
        .map(|o| per_chunk.iter().map(|c| c[o]).sum())
        .collect();
    // chunk c writes owner o's words from the owner's start plus what the
    // chunks before it write there
    let mut next: Vec<usize> = counts
        .iter()
        .scan(0, |at, &c| {
            let start = *at;
            *at += c;
            Some(start)
        })
        .collect();
    let cursors: Vec<Vec<usize>> = per_chunk
        .iter()
        .map(|c| {
            let start = next.clone();
            next.iter_mut().zip(c).for_each(|(n, &k)| *n += k);
            start
        })
        .collect();
    let mut chunk_starts = vec![0];
    for words in &chunks {
        chunk_starts.push(chunk_starts.last().copied().unwrap_or(0) + words.len());
    }
    let total = counts.iter().sum();
    let mut grouped = vec![K::default(); total];
    let mut places = vec![0u32; if placed { total } else { 0 }];
    let mut place_parts = Vec::with_capacity(chunks.len());
    let mut rest = places.as_mut_slice();
    for words in &chunks {
        // each chunk's places, or none
        let (part, tail) = rest.split_at_mut(if placed { words.len() } else { 0 });
        place_parts.push(part);
        rest = tail;
    }
    let writer = DisjointWriter::new(&mut grouped);
    chunks
        .par_iter()
        .zip(cursors)
        .zip(place_parts)
        .for_each(|((words, mut cursor), places)| {
            for (i, &w) in words.iter().enumerate() {
                let o = owner(w.key(), ranks);
                // SAFETY: chunk c writes owner o's words at [its cursor,
                // its cursor + its count), ranges that never meet
                unsafe { writer.write(cursor[o], w) };
                if placed {
                    places[i] = cursor[o] as u32;
                }
                cursor[o] += 1;
            }
        });
    Routed {
        grouped,
        counts,
        places,
        chunk,
        chunk_starts,
    }
}

impl<K> Routed<K> {
    /// The places of chunk `c`'s words, in generation order.
    fn places_of(&self, c: usize) -> &[u32] {
        &self.places[self.chunk_starts[c]..self.chunk_starts[c + 1]]
    }
}

/// Solves this rank's part of `ply` from the next ply (all ranks' parts,
/// asked through `ranks`), returning the part's counts of positions and of
/// canonical positions.
fn solve_part<K: KeyWord, R: LayeredRules, N: Ranks>(
    rules: &R,
    ranks: &N,
    ply: u32,
    keys: &[K],
    values: &mut [u8],
    next: Option<&NextPly<'_, K>>,
) -> Result<(GravityCounts, GravityCounts)> {
    let cells = rules.cells();
    if let Some(next) = next {
        for r in 0..rounds(ranks, keys.len()) {
            let range = round_range(r, keys.len());
            let (ks, vs) = (&keys[range.clone()], &mut values[range]);
            let children = |p: usize, out: &mut dyn FnMut(K)| {
                if vs[p] != ENDED {
                    rules.for_each_child(ks[p].key(), ply, |c| out(K::from_key(c)));
                }
            };
            let routed = route(ranks.size(), ks.len(), children, true);
            let (to_answer, answer_counts) = ranks.exchange(&routed.grouped, &routed.counts)?;
            let mut answers = vec![0u8; to_answer.len()];
            let chunk = chunk_len(to_answer.len());
            to_answer
                .par_chunks(chunk)
                .zip(answers.par_chunks_mut(chunk))
                .for_each(|(keys, out)| next.values_of(keys, out));
            drop(to_answer);
            let (replies, _) = ranks.exchange(&answers, &answer_counts)?;
            vs.par_chunks_mut(routed.chunk)
                .zip(ks.par_chunks(routed.chunk))
                .enumerate()
                .for_each(|(c, (vs, ks))| {
                    let mut place = routed.places_of(c).iter();
                    for (k, v) in ks.iter().zip(vs) {
                        if *v == ENDED {
                            continue;
                        }
                        let mut values = ChildValues::new();
                        rules.for_each_child(k.key(), ply, |_| {
                            let at = *place.next().expect("one place a child");
                            values.add(replies[at as usize]);
                        });
                        *v = values.value(ply, cells);
                    }
                });
        }
    }
    let chunk = chunk_len(keys.len());
    let zero = || (GravityCounts::default(), GravityCounts::default());
    let (c, classes) = keys
        .par_chunks(chunk)
        .zip(values.par_chunks_mut(chunk))
        .map(|(ks, vs)| {
            let (mut c, mut classes) = zero();
            for (k, v) in ks.iter().zip(vs) {
                count_position(&mut c, v, rules.images(k.key()), ply, cells);
                count_position(&mut classes, v, 1, ply, cells);
            }
            (c, classes)
        })
        .reduce(zero, |a, b| (a.0.plus(&b.0), a.1.plus(&b.1)));
    Ok((c.with_ply(ply), classes.with_ply(ply)))
}

/// Adds the games that end at this rank's positions of `ply` (`paths` to
/// each, aligned with `keys`) to `games` (X wins, O wins, draws): a
/// position over by a line is won by the player who just moved, a full
/// board without a line is drawn. A canonical key stands for its images,
/// each reached by as many paths.
fn add_games<K: KeyWord, R: LayeredRules>(
    rules: &R,
    ply: u32,
    keys: &[K],
    ended: &[u8],
    paths: &[u128],
    games: &mut [u128; 3],
) {
    let last_was_x = ply % 2 == 1;
    for ((k, &e), &n) in keys.iter().zip(ended).zip(paths) {
        let all = n * u128::from(rules.images(k.key()));
        if e == ENDED {
            games[if last_was_x { 0 } else { 1 }] += all;
        } else if ply == rules.cells() {
            games[2] += all;
        }
    }
}

/// Game counts summed over the ranks (every rank sends its three to every
/// rank and adds up what it receives).
fn summed_games<N: Ranks>(ranks: &N, games: [u128; 3]) -> Result<[u128; 3]> {
    let send: Vec<u128> = (0..ranks.size()).flat_map(|_| games).collect();
    let (all, _) = ranks.exchange(&send, &vec![3; ranks.size()])?;
    let mut sum = [0u128; 3];
    for chunk in all.chunks(3) {
        for (s, &g) in sum.iter_mut().zip(chunk) {
            *s += g;
        }
    }
    Ok(sum)
}

/// [`next_part`] carrying each position's paths from the empty board:
/// a child's owner receives, with each child, its parent's paths times the
/// parent's images (the moves from every image of the parent into the
/// child's class), sums them per child, and divides by the child's images
/// (each image of the child is reached by as many paths).
#[allow(clippy::too_many_arguments)]
fn next_part_with_paths<K: KeyWord, R: LayeredRules, N: Ranks>(
    rules: &R,
    ranks: &N,
    ply: u32,
    parents: &[K],
    ended: &[u8],
    paths: &[u128],
    budget: &Budget,
    held: u64,
) -> Result<(Vec<K>, Vec<u128>)> {
    let pair = std::mem::size_of::<(K, u128)>() as u64;
    let mut part: Vec<(K, u128)> = Vec::new();
    let mut merged = 0;
    for r in 0..rounds(ranks, parents.len()) {
        let range = round_range(r, parents.len());
        let (ps, es) = (&parents[range.clone()], &ended[range.clone()]);
        let children = |p: usize, out: &mut dyn FnMut(K)| {
            if es[p] != ENDED {
                rules.for_each_child(ps[p].key(), ply, |c| out(K::from_key(c)));
            }
        };
        let routed = route(ranks.size(), ps.len(), children, true);
        let mut weights = vec![0u128; routed.grouped.len()];
        let writer = DisjointWriter::new(&mut weights);
        let ws = &paths[range.clone()];
        ps.par_chunks(routed.chunk)
            .zip(es.par_chunks(routed.chunk))
            .zip(ws.par_chunks(routed.chunk))
            .enumerate()
            .for_each(|(c, ((ps, es), ws))| {
                let mut place = routed.places_of(c).iter();
                for ((k, &e), &paths) in ps.iter().zip(es).zip(ws) {
                    if e != ENDED {
                        let weight = paths * u128::from(rules.images(k.key()));
                        rules.for_each_child(k.key(), ply, |_| {
                            let at = *place.next().expect("one place a child") as usize;
                            // SAFETY: places are a permutation of the words
                            unsafe { writer.write(at, weight) };
                        });
                    }
                }
            });
        let Routed {
            grouped: send,
            counts,
            ..
        } = routed;
        let need = held + (part.len() + 2 * send.len()) as u64 * pair;
        agree(ranks, check_budget(ranks, budget, ply + 1, held, need))?;
        let (received, _) = ranks.exchange(&send, &counts)?;
        let (received_weights, _) = ranks.exchange(&weights, &counts)?;
        part.extend(received.into_iter().zip(received_weights));
        if part.len() - merged > merged.max(ROUND_PARENTS) {
            merge_paths(&mut part);
            merged = part.len();
        }
    }
    merge_paths(&mut part);
    Ok(part
        .into_iter()
        .map(|(k, edges)| (k, edges / u128::from(rules.images(k.key()))))
        .unzip())
}

/// Sorts (key, paths) pairs by key and sums the paths of equal keys.
fn merge_paths<K: KeyWord>(pairs: &mut Vec<(K, u128)>) {
    pairs.par_sort_unstable_by_key(|p| p.0);
    pairs.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 += later.1;
        }
        same
    });
}

/// A ply's counts summed over the ranks.
fn summed<N: Ranks>(ranks: &N, c: GravityCounts) -> GravityCounts {
    let mut v = [
        c.positions,
        c.terminal,
        c.x_wins,
        c.o_wins,
        c.draws,
        c.first_won,
        c.first_drawn,
        c.first_lost,
    ];
    ranks.sum(&mut v);
    let [positions, terminal, x_wins, o_wins, draws, first_won, first_drawn, first_lost] = v;
    GravityCounts {
        ply: c.ply,
        positions,
        terminal,
        x_wins,
        o_wins,
        draws,
        first_won,
        first_drawn,
        first_lost,
    }
}

#[cfg(test)]
mod tests {
    use super::super::moves::Moves;
    use super::super::{decode, solve_gravity, GravityPly};
    use super::ranks::Solo;
    use super::*;
    use crate::board::BoardSize;
    use crate::rules::gravity::Gravity;
    use crate::runtime::progress::Silent;

    /// One rank alone builds exactly the main engine's plies and counts.
    #[test]
    fn one_rank_equals_the_main_engine() {
        for (cols, rows, k) in [(4, 4, 4), (5, 4, 4), (3, 3, 3), (4, 3, 2), (8, 4, 2)] {
            let game = Gravity::new(BoardSize { cols, rows, k }).unwrap();
            let want = solve_gravity(&game, &Budget::unlimited()).unwrap();
            let got = solve_distributed(&Moves::new(&game), &Solo, &Budget::unlimited(), &Silent)
                .unwrap();
            assert_eq!(got.counts, want.counts, "{cols}x{rows} k{k}");
            assert_eq!(got.plies, want.plies, "{cols}x{rows} k{k}");
            let root: &GravityPly = &want.plies[0];
            assert_eq!(got.root, root.raw().1[0]);
        }
    }

    /// The dense solution gathered from 1, 2 or 3 simulated ranks is the
    /// dense engine's, board for board (every position's value and depth).
    #[test]
    fn gathered_mnk_solutions_equal_the_dense_engine() {
        use crate::rules::mnk::Mnk;
        use crate::tables::layered::solve_mnk;
        for (rows, cols, k) in [(3, 3, 3), (3, 4, 3), (4, 4, 3), (2, 4, 2), (1, 4, 4)] {
            let game = Mnk::new(BoardSize { cols, rows, k }).unwrap();
            let want = solve_mnk(&game, &Budget::unlimited()).unwrap();
            for size in 1..=3 {
                let gathered: Vec<_> = std::thread::scope(|s| {
                    let handles: Vec<_> = super::ranks::threads::group(size)
                        .into_iter()
                        .map(|rank| {
                            let game = &game;
                            s.spawn(move || {
                                let solved = solve_mnk_distributed(
                                    game,
                                    &rank,
                                    &Budget::unlimited(),
                                    &Silent,
                                )
                                .unwrap();
                                gather_mnk_solution(game, &rank, solved, &Budget::unlimited())
                                    .unwrap()
                            })
                        })
                        .collect();
                    handles.into_iter().map(|h| h.join().unwrap()).collect()
                });
                let dense = gathered[0].as_ref().expect("rank 0 holds it");
                assert!(gathered[1..].iter().all(Option::is_none));
                assert_eq!(dense.plies, want.plies, "{cols}x{rows} k{k} on {size}");
                assert_eq!(dense.counts, want.counts);
                assert_eq!(dense.games, want.games);
            }
        }
    }

    /// m,n,k boards on the layered engine: one rank gives the dense
    /// engine's counts (positions, classes, outcomes, games) and value on
    /// every board up to 4×4 and every k; 2 and 3 simulated ranks on some.
    #[test]
    fn mnk_boards_equal_the_dense_engine() {
        use crate::rules::mnk::Mnk;
        use crate::tables::layered::solve_mnk;
        for rows in 1..=4u32 {
            for cols in 1..=4u32 {
                for k in 1..=rows.max(cols) {
                    let game = Mnk::new(BoardSize { cols, rows, k }).unwrap();
                    let want = solve_mnk(&game, &Budget::unlimited()).unwrap();
                    let root = want.lookup(0, 0).unwrap();
                    let sizes: &[usize] = if rows * cols <= 9 { &[1, 2, 3] } else { &[1] };
                    for &size in sizes {
                        let board = format!("{cols}x{rows} k{k} on {size} ranks");
                        let parts: Vec<RankSolution> = std::thread::scope(|s| {
                            let handles: Vec<_> = super::ranks::threads::group(size)
                                .into_iter()
                                .map(|rank| {
                                    let game = &game;
                                    s.spawn(move || {
                                        solve_mnk_distributed(
                                            game,
                                            &rank,
                                            &Budget::unlimited(),
                                            &Silent,
                                        )
                                        .unwrap()
                                    })
                                })
                                .collect();
                            handles.into_iter().map(|h| h.join().unwrap()).collect()
                        });
                        for got in &parts {
                            assert_eq!(got.mnk_counts(), want.counts, "{board}");
                            assert_eq!(got.game_counts(), Some(want.games), "{board}");
                            assert_eq!(decode(got.root), root, "{board}");
                        }
                    }
                }
            }
        }
    }

    /// Ranks simulated by threads: every rank count gives the main
    /// engine's counts and root value, and the ranks' parts together are
    /// the main engine's plies, each key with the rank that owns it.
    #[test]
    fn parts_on_several_ranks_make_the_main_engine_plies() {
        for (cols, rows, k) in [(4, 4, 4), (5, 4, 4), (3, 3, 3), (4, 5, 3), (6, 3, 2)] {
            let game = Gravity::new(BoardSize { cols, rows, k }).unwrap();
            let want = solve_gravity(&game, &Budget::unlimited()).unwrap();
            let moves = Moves::new(&game);
            for size in [2, 3, 4] {
                let parts: Vec<RankSolution> = std::thread::scope(|s| {
                    let handles: Vec<_> = super::ranks::threads::group(size)
                        .into_iter()
                        .map(|rank| {
                            let moves = &moves;
                            s.spawn(move || {
                                solve_distributed(moves, &rank, &Budget::unlimited(), &Silent)
                                    .unwrap()
                            })
                        })
                        .collect();
                    handles.into_iter().map(|h| h.join().unwrap()).collect()
                });
                let board = format!("{cols}x{rows} k{k} on {size} ranks");
                for (rank, part) in parts.iter().enumerate() {
                    assert_eq!(part.counts, want.counts, "{board}");
                    assert_eq!(part.root, want.plies[0].raw().1[0], "{board}");
                    for (ply, p) in part.plies.iter().enumerate() {
                        let (keys, values) = p.raw();
                        for (i, key) in keys.iter().enumerate() {
                            assert_eq!(owner(key, size), rank, "{board}");
                            let at = want.plies[ply].raw().0.position(key).expect(&board);
                            assert_eq!(values[i], want.plies[ply].raw().1[at], "{board}");
                        }
                    }
                }
                for (ply, p) in want.plies.iter().enumerate() {
                    let held: usize = parts.iter().map(|r| r.plies[ply].raw().0.len()).sum();
                    assert_eq!(held, p.raw().0.len(), "{board} ply {ply}");
                }
            }
        }
    }
}
