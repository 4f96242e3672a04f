//! Every position reachable from the start, breadth first and in parallel.
//!
//! The seen set is sharded: 256 hash sets, each behind its own lock, a
//! position's shard chosen by a hash mixed apart from the one the sets use
//! inside. A worker expands a chunk of the frontier into its own buffer,
//! sorts and dedups it, then visits the shards in turn, taking each lock
//! once per chunk; the positions it inserts first are its share of the next
//! frontier: one lock a shard a chunk, where a concurrent map locks per key.
//!
//! A shard is written here rather than taken from a crate: its keys in the
//! order they came and an open-addressing table of their indices ([`Shard`]),
//! which takes a batch at a time and prefetches the slots, then the keys
//! they name, of the whole batch before it probes any. On Dōbutsu shōgi,
//! whose seen set is gigabytes, a hash set probed one key at a time waited
//! on every miss in turn.
//!
//! Positions that end the game are kept and counted but never expanded.
//! The set of positions reached at each ply does not depend on the number
//! of threads, nor on which worker inserted which position.

use std::hash::{BuildHasher, Hash};
use std::sync::Mutex;

use rayon::prelude::*;
use rustc_hash::FxBuildHasher;

use super::numbering::RankSet;
use super::{canonical, Key, Rules};
use crate::error::Result;
use crate::memory::{huge_capacity, huge_vec, Budget, Bytes};
use crate::runtime::cache::prefetch;
use crate::runtime::progress::Progress;

/// Number of shards of the seen set (a power of two).
const SHARDS: usize = 256;

/// Frontier positions a worker expands at a time.
const CHUNK: usize = 2048;

/// Bytes a position costs in the seen set: its key (twice while its
/// vector grows) and up to four slots of 4 bytes.
pub fn seen_bytes_per_position(key_bytes: usize) -> u64 {
    2 * key_bytes as u64 + 16
}

/// The positions first reached at one ply (the plies of a shortest path
/// from the start).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PlyCount {
    /// The ply, from 0 (the start).
    pub ply: u32,
    /// Positions first reached at this ply.
    pub positions: u64,
    /// Of them, positions at which the game is over.
    pub ended: u64,
}

/// What the enumeration found: every reachable position once (canonical
/// forms, in no particular order) and the counts by ply.
pub struct Reached<P> {
    /// Every reachable position.
    pub positions: Vec<P>,
    /// Positions by the ply at which they are first reached.
    pub plies: Vec<PlyCount>,
    /// The children outside the tier enumerated ([`enumerate_tier`]),
    /// each at the least ply a move reaches it, sorted and distinct; empty
    /// for a whole game.
    pub outside: Vec<AtPly<P>>,
}

/// Enumerates every position reachable from `rules.start()`.
///
/// `later_bytes_per_position` is what the stages after this one will need
/// per position (the seen set is gone by then): the budget is checked at
/// every ply against the larger of the seen set and that, so a game too
/// large for `budget` is refused as soon as its positions so far show it,
/// before the set grows past the budget.
pub fn enumerate<R: Rules>(
    rules: &R,
    budget: &Budget,
    progress: &dyn Progress,
    later_bytes_per_position: u64,
) -> Result<Reached<R::Position>> {
    let start = canonical(rules, rules.start(), &mut Vec::new());
    enumerate_tier(
        rules,
        vec![(start, 0)],
        None,
        budget,
        progress,
        later_bytes_per_position,
    )
}

/// A position reached at a ply (counted from the start).
pub type AtPly<P> = (P, u32);

/// Enumerates every position of tier `tier` ([`Rules::tier`]) reachable
/// from `roots` (canonical positions of that tier, each with the ply at
/// which the start reaches it) by moves within it, or with `tier` `None`
/// every position reachable from `roots`. Each position is counted at the
/// least ply at which a root or a move reaches it (a root joins the
/// breadth-first frontier at its ply), so the counts by ply of every tier,
/// added up, are the whole game's. A child of another tier is not entered:
/// it goes to [`Reached::outside`] with its ply. The budget is checked as
/// [`enumerate`] says.
pub fn enumerate_tier<R: Rules>(
    rules: &R,
    mut roots: Vec<AtPly<R::Position>>,
    tier: Option<u32>,
    budget: &Budget,
    progress: &dyn Progress,
    later_bytes_per_position: u64,
) -> Result<Reached<R::Position>> {
    let shards: Vec<Mutex<Shard<R::Position>>> =
        (0..SHARDS).map(|_| Mutex::new(Shard::new())).collect();
    // the roots by ply, the last ply's first, so each ply pops its own
    roots.sort_unstable_by_key(|&(_, ply)| std::cmp::Reverse(ply));
    let mut ply = roots.last().map_or(0, |&(_, ply)| ply);
    let mut frontier: Vec<Vec<R::Position>> = Vec::new();
    let mut outside = Vec::new();
    let mut outside_distinct = 0;
    let mut plies = Vec::new();
    let mut seen = 0u64;
    let per_position = seen_bytes_per_position(R::Position::BYTES).max(later_bytes_per_position);
    progress.stage("positions", 0);
    loop {
        let mut joining = Vec::new();
        while let Some((root, _)) = roots.pop_if(|&mut (_, at)| at == ply) {
            joining.push(root);
        }
        let joining = insert_new(joining, &shards);
        if !joining.is_empty() {
            frontier.push(joining);
        }
        if frontier.is_empty() {
            match roots.last() {
                Some(&(_, next)) => {
                    ply = next;
                    continue;
                }
                None => break,
            }
        }
        let positions: u64 = frontier.iter().map(|part| part.len() as u64).sum();
        seen += positions;
        budget.check(
            &format!(
                "enumerating {} ({seen} positions to ply {ply})",
                rules.name()
            ),
            Bytes(seen.saturating_mul(per_position).saturating_add(
                (outside.len() * std::mem::size_of::<AtPly<R::Position>>()) as u64,
            )),
        )?;
        let (next, ended) = expand(rules, &frontier, tier, &shards, &mut outside, ply + 1);
        if outside.len() > 2 * outside_distinct {
            // the repeats go while they are few beside the rest
            dedup_least_ply(&mut outside);
            outside_distinct = outside.len();
        }
        plies.push(PlyCount {
            ply,
            positions,
            ended,
        });
        progress.advance(positions);
        progress.note(&format!("ply {ply}: {positions} positions, {seen} in all"));
        frontier = next;
        ply += 1;
    }
    let mut all = huge_capacity(seen as usize);
    for shard in shards {
        let shard = shard
            .into_inner()
            .unwrap_or_else(|poison| poison.into_inner());
        all.extend(shard.keys);
    }
    dedup_least_ply(&mut outside);
    Ok(Reached {
        positions: all,
        plies,
        outside,
    })
}

/// Sorts `reached` by position and keeps each position once, at its
/// least ply.
fn dedup_least_ply<P: Key>(reached: &mut Vec<AtPly<P>>) {
    reached.par_sort_unstable();
    reached.dedup_by_key(|&mut (position, _)| position);
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poison| poison.into_inner())
}

/// The shard of `position`: a hash of it mixed so that the bits that pick
/// the shard are not the ones the shard's own hash set probes by.
#[inline]
fn shard_of<P: Hash>(position: &P) -> usize {
    let hash = FxBuildHasher.hash_one(position);
    let mixed = (hash ^ (hash >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (mixed >> 56) as usize & (SHARDS - 1)
}

/// Expands `frontier`: the next ply's frontier (the children not seen
/// before) and how many of `frontier`'s positions the rules end (each
/// position's `outcome` asked once). Children outside `tier` (when it is
/// given) are appended to `outside` instead, at ply `next_ply`.
fn expand<R: Rules>(
    rules: &R,
    frontier: &[Vec<R::Position>],
    tier: Option<u32>,
    shards: &[Mutex<Shard<R::Position>>],
    outside: &mut Vec<AtPly<R::Position>>,
    next_ply: u32,
) -> (Vec<Vec<R::Position>>, u64) {
    // per chunk: the new positions, those ended, the children outside
    type Part<P> = (Vec<P>, u64, Vec<AtPly<P>>);
    let parts: Vec<Part<R::Position>> = frontier
        .par_iter()
        .flat_map(|part| part.par_chunks(CHUNK))
        .map(|chunk| {
            let mut children = Vec::new();
            let mut scratch = Vec::new();
            let mut images = Vec::new();
            let mut ended = 0;
            let mut elsewhere = Vec::new();
            for position in chunk {
                if rules.outcome(position).is_some() {
                    ended += 1;
                    continue;
                }
                scratch.clear();
                rules.moves(position, &mut scratch);
                for &child in scratch.iter() {
                    let child = canonical(rules, child, &mut images);
                    match tier {
                        Some(tier) if rules.tier(&child) != tier => {
                            elsewhere.push((child, next_ply))
                        }
                        _ => children.push(child),
                    }
                }
            }
            (insert_new(children, shards), ended, elsewhere)
        })
        .collect();
    let ended = parts.iter().map(|(_, ended, _)| ended).sum();
    let mut next = Vec::new();
    for (fresh, _, elsewhere) in parts {
        if !fresh.is_empty() {
            next.push(fresh);
        }
        outside.extend(elsewhere);
    }
    (next, ended)
}

/// Inserts `children` into the seen set; returns those that were new.
fn insert_new<P: Key>(mut children: Vec<P>, shards: &[Mutex<Shard<P>>]) -> Vec<P> {
    children.sort_unstable();
    children.dedup();
    let mut by_shard: Vec<Vec<P>> = vec![Vec::new(); SHARDS];
    for child in children {
        by_shard[shard_of(&child)].push(child);
    }
    let mut fresh = Vec::new();
    for (shard, batch) in shards.iter().zip(by_shard) {
        if batch.is_empty() {
            continue;
        }
        lock(shard).insert_batch(&batch, &mut fresh);
    }
    fresh
}

/// An empty slot of a [`Shard`].
const EMPTY: u32 = u32::MAX;

/// One shard of the seen set. Invariant: `keys` are distinct; `slots`
/// (`2^bits` of them, at most half full) is a linear-probing table whose
/// every non-empty slot holds the index of a key, each key's index in the
/// first slot at or after its home that holds it.
pub struct Shard<P> {
    keys: Vec<P>,
    slots: Vec<u32>,
    bits: u32,
}

impl<P: Key> Shard<P> {
    fn new() -> Self {
        Self {
            keys: Vec::new(),
            slots: vec![EMPTY; 16],
            bits: 4,
        }
    }

    /// Inserts `batch` (distinct keys); pushes onto `fresh` those that
    /// were not in the shard. The table grows first if the batch would
    /// fill it past half; then every home slot, and every key a home slot
    /// names, is prefetched before the first probe.
    fn insert_batch(&mut self, batch: &[P], fresh: &mut Vec<P>) {
        while 2 * (self.keys.len() + batch.len()) > self.slots.len() {
            self.grow();
        }
        for key in batch {
            prefetch(&self.slots[self.home(key)]);
        }
        for key in batch {
            let index = self.slots[self.home(key)];
            if index != EMPTY {
                prefetch(&self.keys[index as usize]);
            }
        }
        let mask = self.slots.len() - 1;
        for key in batch {
            let mut slot = self.home(key);
            loop {
                let index = self.slots[slot];
                if index == EMPTY {
                    self.slots[slot] = self.keys.len() as u32;
                    self.keys.push(*key);
                    fresh.push(*key);
                    break;
                }
                if self.keys[index as usize] == *key {
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
    }

    /// Doubles the table and puts every key's index back; makes room for
    /// as many keys as the table holds (both on huge pages where the
    /// kernel gives them: they are probed at random).
    fn grow(&mut self) {
        self.bits += 1;
        self.slots = huge_vec(1 << self.bits, |_| EMPTY);
        let mut keys = huge_capacity(self.slots.len() / 2);
        keys.extend_from_slice(&self.keys);
        self.keys = keys;
        let mask = self.slots.len() - 1;
        for (index, key) in self.keys.iter().enumerate() {
            let mut slot = self.home(key);
            while self.slots[slot] != EMPTY {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = index as u32;
        }
    }

    /// The home slot of `key`: the high bits of a multiplied hash (the
    /// shard was chosen by other bits, [`shard_of`]).
    #[inline]
    fn home(&self, key: &P) -> usize {
        let hash = FxBuildHasher.hash_one(key);
        (hash.wrapping_mul(0xd6e8_feb8_6659_fd93) >> (64 - self.bits)) as usize
    }
}

/// Enumerates every position reachable from `rules.start()` for rules
/// with a dense rank ([`Rules::RANKED`]): the seen set is a bit a rank,
/// marked by arithmetic (no keys kept, no hashing), and the frontier a
/// ply's positions. The counts by ply are those of [`enumerate`].
pub fn reach_ranks<R: Rules>(
    rules: &R,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<(RankSet, Vec<PlyCount>)> {
    let ranks = rules.ranks();
    let key_bytes = R::Position::BYTES as u64;
    budget.check(
        &format!("the reached ranks of {} ({ranks} ranks)", rules.name()),
        Bytes(ranks.div_ceil(8)),
    )?;
    let marks = RankSet::marks(ranks);
    let rank_of = |position: &R::Position| -> Result<u64> {
        let rank = rules.rank(position);
        if rank >= ranks {
            return Err(crate::error::Error::InvalidInput(format!(
                "position {} of {} has rank {rank}, not below its {ranks} ranks",
                position.to_hex(),
                rules.name()
            )));
        }
        Ok(rank)
    };
    let start = canonical(rules, rules.start(), &mut Vec::new());
    marks.mark(rank_of(&start)?);
    let mut frontier = vec![start];
    let mut plies = Vec::new();
    progress.stage("positions", 0);
    let mut seen = 0u64;
    while !frontier.is_empty() {
        let ply = plies.len() as u32;
        let positions = frontier.len() as u64;
        seen += positions;
        budget.check(
            &format!(
                "enumerating {} ({seen} positions to ply {ply})",
                rules.name()
            ),
            Bytes(ranks.div_ceil(8) + 2 * positions.saturating_mul(key_bytes)),
        )?;
        let parts: Vec<Result<(Vec<R::Position>, u64)>> = frontier
            .par_chunks(CHUNK)
            .map(|chunk| {
                let (mut next, mut scratch, mut images, mut ended) =
                    (Vec::new(), Vec::new(), Vec::new(), 0);
                for position in chunk {
                    if rules.outcome(position).is_some() {
                        ended += 1;
                        continue;
                    }
                    scratch.clear();
                    rules.moves(position, &mut scratch);
                    for &child in &scratch {
                        let child = canonical(rules, child, &mut images);
                        if marks.mark(rank_of(&child)?) {
                            next.push(child);
                        }
                    }
                }
                Ok((next, ended))
            })
            .collect();
        let mut next = Vec::new();
        let mut ended = 0;
        for part in parts {
            let (fresh, e) = part?;
            next.extend(fresh);
            ended += e;
        }
        plies.push(PlyCount {
            ply,
            positions,
            ended,
        });
        progress.advance(positions);
        progress.note(&format!("ply {ply}: {positions} positions, {seen} in all"));
        frontier = next;
    }
    Ok((marks.done(), plies))
}
