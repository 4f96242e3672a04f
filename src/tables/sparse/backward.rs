//! The backward pass: each position's value and depth from its children's
//! in the next ply, and the ply's counts (a position standing for itself
//! and its mirror image counts twice unless it is its own mirror image).

use rayon::prelude::*;

use super::key_index::KeyIndex;
use super::keys::KeyWord;
use super::moves::Moves;
use super::{chunk_len, GravityCounts, GravityPly, DRAW, ENDED, LOSS, WIN};
use crate::error::Result;
use crate::runtime::cache::prefetch;

/// The solved next ply, as the backward pass reads it.
pub(crate) struct NextPly<'a, K> {
    pub(crate) keys: &'a [K],
    pub(crate) values: &'a [u8],
    pub(crate) index: KeyIndex,
}

/// The backward pass's walk, for either engine: from the full board's ply
/// back to the empty board's, `solve` turns each ply's flags (`flags[p]`,
/// [`ENDED`] or 0) into its value/depth bytes given the solved next ply
/// (indexed; absent for the full board's ply). Returns the solved plies
/// from the empty board on; each ply's keys and bytes stay held until the
/// end (they are the table), the next ply's index only while it is read.
pub(crate) fn solve_backward<K: KeyWord>(
    keys: Vec<Vec<K>>,
    flags: Vec<Vec<u8>>,
    mut solve: impl FnMut(u32, &[K], &mut [u8], Option<&NextPly<'_, K>>) -> Result<()>,
) -> Result<Vec<GravityPly>> {
    let mut plies = Vec::with_capacity(keys.len());
    let mut solved: Option<(Vec<K>, Vec<u8>)> = None;
    for (ply, (ply_keys, mut values)) in keys.into_iter().zip(flags).enumerate().rev() {
        let next = solved.as_ref().map(|(k, v)| NextPly {
            keys: k,
            values: v,
            index: KeyIndex::new(k),
        });
        solve(ply as u32, &ply_keys, &mut values, next.as_ref())?;
        drop(next);
        if let Some((k, v)) = solved.replace((ply_keys, values)) {
            plies.push(GravityPly::from_raw(K::wrap(k), v));
        }
    }
    if let Some((k, v)) = solved {
        plies.push(GravityPly::from_raw(K::wrap(k), v));
    }
    plies.reverse();
    Ok(plies)
}

/// Fills `values` (the forward pass's flags: [`ENDED`] or 0) with each
/// position's value/depth byte and counts the ply. Contract: `next` is the
/// solved ply `ply + 1`, absent only for a full board's ply.
pub(crate) fn solve_ply<K: KeyWord>(
    moves: &Moves,
    ply: u32,
    keys: &[K],
    values: &mut [u8],
    next: Option<&NextPly<'_, K>>,
) -> GravityCounts {
    let cells = moves.game().cells();
    let chunk = chunk_len(keys.len());
    keys.par_chunks(chunk)
        .zip(values.par_chunks_mut(chunk))
        .map(|(ks, vs)| {
            let mut c = GravityCounts::default();
            let mut lookups = Vec::with_capacity(GROUP * 64);
            for (ks, vs) in ks.chunks(GROUP).zip(vs.chunks_mut(GROUP)) {
                let own_images = if ply < cells {
                    let next = next.expect("a non-full board has a next ply");
                    solve_group(moves, ply, ks, vs, next, &mut lookups)
                } else {
                    own_mirror_images(moves, ks)
                };
                for (slot, v) in vs.iter_mut().enumerate() {
                    let weight = if own_images >> slot & 1 == 1 { 1 } else { 2 };
                    count_position(&mut c, v, weight, ply, cells);
                }
            }
            c
        })
        .reduce(GravityCounts::default, |a, b| a.plus(&b))
        .with_ply(ply)
}

/// Counts one position of `ply` standing for `weight` positions (itself
/// and its distinct images) into `c`; `v` holds its value/depth byte or the
/// forward pass's [`ENDED`] flag (the final byte of a position over by a
/// line), and a full board's byte is set to a draw here.
#[inline]
pub(crate) fn count_position(c: &mut GravityCounts, v: &mut u8, weight: u64, ply: u32, cells: u32) {
    let x_to_move = ply.is_multiple_of(2);
    c.positions += weight;
    if *v == ENDED {
        c.terminal += weight;
        // the player who just moved completed a line
        if x_to_move {
            c.o_wins += weight;
        } else {
            c.x_wins += weight;
        }
    } else if ply == cells {
        *v = DRAW;
        c.terminal += weight;
        c.draws += weight;
    }
    let first = match (*v & 0b11, x_to_move) {
        (DRAW, _) => &mut c.first_drawn,
        (WIN, true) | (LOSS, false) => &mut c.first_won,
        _ => &mut c.first_lost,
    };
    *first += weight;
}

/// A position's value from its children's, one child at a time: win by
/// the fastest child loss, else draw if a child draws (depth: the board
/// fills), else loss by the slowest child win.
pub(crate) struct ChildValues {
    fastest_win: u8,
    slowest_loss: u8,
    can_draw: bool,
}

impl ChildValues {
    /// No child seen yet.
    #[inline]
    pub(crate) fn new() -> Self {
        Self {
            fastest_win: u8::MAX,
            slowest_loss: 0,
            can_draw: false,
        }
    }

    /// Takes in a child's value/depth byte.
    #[inline]
    pub(crate) fn add(&mut self, child: u8) {
        let depth = (child >> 2) + 1;
        match child & 0b11 {
            LOSS => self.fastest_win = self.fastest_win.min(depth),
            WIN => self.slowest_loss = self.slowest_loss.max(depth),
            _ => self.can_draw = true,
        }
    }

    /// The value/depth byte of a position of `ply` on a board of `cells`.
    #[inline]
    pub(crate) fn value(&self, ply: u32, cells: u32) -> u8 {
        if self.fastest_win != u8::MAX {
            WIN | self.fastest_win << 2
        } else if self.can_draw {
            DRAW | ((cells - ply) as u8) << 2
        } else {
            LOSS | self.slowest_loss << 2
        }
    }
}

/// Where `key` is in a bucket's sorted `keys`: a branch-free count of the
/// smaller keys for the usual few keys (a binary search's branches are
/// unpredictable), a binary search for a crowded bucket.
#[inline]
pub(crate) fn position_in_bucket<K: KeyWord>(keys: &[K], key: K) -> usize {
    let at = if keys.len() <= 32 {
        keys.iter().map(|&k| usize::from(k < key)).sum()
    } else {
        keys.partition_point(|&k| k < key)
    };
    assert!(
        keys.get(at) == Some(&key),
        "children of a reachable position are reachable"
    );
    at
}

/// The positions of a group that are their own mirror images, one bit a
/// position.
fn own_mirror_images<K: KeyWord>(moves: &Moves, keys: &[K]) -> u64 {
    keys.iter().enumerate().fold(0, |mask, (slot, k)| {
        let key = k.key();
        mask | u64::from(moves.mirror(key) == key) << slot
    })
}

/// Positions whose children are looked up together: their lookups' cache
/// misses overlap (see [`solve_group`]).
const GROUP: usize = 64;
const _: () = assert!(GROUP <= 64, "a group's own mirror images fit a u64");

/// One child's lookup in the next ply: which position of the group asked,
/// the child's key, then its bucket and finally its index.
#[derive(Clone, Copy)]
struct Lookup {
    slot: usize,
    key: u64,
    at: usize,
}

/// Sets the value/depth byte of every position of a group not ended by a
/// line (`values` hold the forward pass's flags), from its children: win
/// by the fastest child loss, else draw if a child draws (depth: the board
/// fills), else loss by the slowest child win. Returns the positions that
/// are their own mirror images (as [`own_mirror_images`]).
///
/// The lookups run in three sweeps over all the group's children, each
/// prefetching what the next reads (the bucket's start, then both ends of
/// its keys, then the value), so a group's ~300 cache misses overlap (64
/// positions a group measured a little faster than 32 or 16). On 6×4 at 2
/// threads the backward pass of ply 18 went from 0.58 s (one lookup after
/// another) to 0.49 s (16 a group); the rest is the branch-free search
/// inside the bucket waiting on its keys (this machine is a shared VM:
/// timings vary by ±20% from run to run). Many lookups fall in buckets of
/// 33–64 keys (keys cluster), but prefetching every cache line of a bucket
/// instead of its two ends was 10–20% slower on 6×4 and 5×5 (three
/// interleaved pairs on an idle AMD EPYC host): more lines in flight than
/// the search then reads. Four keys a bucket instead of eight was level.
fn solve_group<K: KeyWord>(
    moves: &Moves,
    ply: u32,
    keys: &[K],
    values: &mut [u8],
    next: &NextPly<'_, K>,
    lookups: &mut Vec<Lookup>,
) -> u64 {
    lookups.clear();
    let mut own_images = 0;
    for (slot, (k, &v)) in keys.iter().zip(values.iter()).enumerate() {
        let key = k.key();
        let mirror = moves.mirror(key);
        own_images |= u64::from(mirror == key) << slot;
        if v == ENDED {
            continue;
        }
        moves.for_each_child(key, mirror, ply, |child| {
            let bucket = next.index.bucket(child);
            prefetch(next.index.start_of(bucket));
            lookups.push(Lookup {
                slot,
                key: child,
                at: bucket,
            });
        });
    }
    for l in lookups.iter_mut() {
        let (from, to) = next.index.range(l.at);
        prefetch(&next.keys[from.min(next.keys.len() - 1)]);
        if to > from + 1 {
            prefetch(&next.keys[to - 1]);
        }
        l.at = from | to << 32;
    }
    for l in lookups.iter_mut() {
        let (from, to) = (l.at & 0xffff_ffff, l.at >> 32);
        l.at = from + position_in_bucket(&next.keys[from..to], K::from_key(l.key));
        prefetch(&next.values[l.at]);
    }
    let cells = moves.game().cells();
    let mut pending = lookups.iter().peekable();
    for (slot, v) in values.iter_mut().enumerate() {
        if *v == ENDED {
            continue;
        }
        let mut children = ChildValues::new();
        while let Some(l) = pending.next_if(|l| l.slot == slot) {
            children.add(next.values[l.at]);
        }
        *v = children.value(ply, cells);
    }
    own_images
}

impl<K: KeyWord> NextPly<'_, K> {
    /// The value/depth byte of each of `keys` (all held by the ply) into
    /// `out`, in groups whose lookups prefetch in three sweeps as
    /// [`solve_group`]'s do: the buckets' starts, both ends of their keys,
    /// then the values.
    pub(crate) fn values_of(&self, keys: &[K], out: &mut [u8]) {
        let mut at = [0usize; GROUP];
        for (ks, vs) in keys.chunks(GROUP).zip(out.chunks_mut(GROUP)) {
            for (a, k) in at.iter_mut().zip(ks) {
                *a = self.index.bucket(k.key());
                prefetch(self.index.start_of(*a));
            }
            let mut ranges = [(0usize, 0usize); GROUP];
            for (r, &a) in ranges.iter_mut().zip(&at[..ks.len()]) {
                let (from, to) = self.index.range(a);
                prefetch(&self.keys[from.min(self.keys.len() - 1)]);
                if to > from + 1 {
                    prefetch(&self.keys[to - 1]);
                }
                *r = (from, to);
            }
            for ((a, &(from, to)), &k) in at.iter_mut().zip(&ranges).zip(ks) {
                *a = from + position_in_bucket(&self.keys[from..to], k);
                prefetch(&self.values[*a]);
            }
            for (v, &a) in vs.iter_mut().zip(&at) {
                *v = self.values[a];
            }
        }
    }
}
