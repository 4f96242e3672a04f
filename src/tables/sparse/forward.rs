//! The forward pass: the next ply's sorted, deduplicated canonical keys
//! from the current ply's, without a global sort.
//!
//! 1. **Count.** Every parent not ended by a line is expanded once; its
//!    children's canonical keys are counted into 2^16 bins by their top
//!    bits, per chunk of parents (and each parent's "ended" flag is set).
//! 2. **Plan.** Consecutive bins are grouped into tasks of about
//!    [`TASK_CHILDREN`] children, and tasks into rounds that fit the memory
//!    left: one round unless the children would not fit at once.
//! 3. **Scatter.** Per round, every parent is expanded again and each
//!    child written straight to its task's part of the round's buffer, at
//!    an offset the counts fix (disjoint per chunk and task, so threads
//!    write without locks).
//! 4. **Deduplicate.** Each task (a small key range) is sorted and
//!    deduplicated on its own, in parallel: through a bitmap of its key
//!    range when that is dense enough (one bit set per child, then the set
//!    bits read back in order — no comparisons at all), else by sorting.
//! 5. **Append.** The tasks' distinct keys, already in order, are copied
//!    to the ply.
//!
//! Generating twice is cheaper than storing and re-reading: a child costs
//! a few additions. Measured on 6×4 at 2 threads: see the module docs of
//! [`super`].

use std::cell::RefCell;

use rayon::prelude::*;

use super::disjoint::DisjointWriter;
use super::keys::KeyWord;
use super::moves::Moves;
use super::rules::LayeredRules;
use super::{chunk_len, ENDED};
use crate::error::Result;
use crate::memory::{Budget, Bytes};

/// Children a task holds at most (unless one bin holds more): a task's
/// keys fit the second-level cache while it is deduplicated.
const TASK_CHILDREN: u64 = 1 << 16;

/// A task is deduplicated through a bitmap when its key range needs at most
/// this many 64-bit words (2 MiB, within the second-level cache)…
const MAX_BITMAP_WORDS: u64 = 1 << 18;
/// …and at most this many words a child (else sorting is cheaper).
const BITMAP_WORDS_PER_CHILD: u64 = 8;

/// Bits of the key that pick a bin, at most.
const BIN_BITS: u32 = 16;

/// How the children are binned and grouped.
struct Plan {
    /// A key's bin is `key >> bin_shift`.
    bin_shift: u32,
    /// Each bin's task.
    task_of_bin: Vec<u32>,
    /// Each task's bins: `first_bin[t] .. first_bin[t + 1]`.
    first_bin: Vec<usize>,
    /// Each task's children.
    task_children: Vec<u64>,
}

impl Plan {
    /// The key range of task `t`, `[low, high)`, as (low, width).
    fn range(&self, t: usize) -> (u64, u128) {
        let low = (self.first_bin[t] as u64) << self.bin_shift;
        let width = ((self.first_bin[t + 1] - self.first_bin[t]) as u128) << self.bin_shift;
        (low, width)
    }
}

/// Sets the "ended" flag of each position of `keys` at `ply` that holds a
/// line of the player who just moved (other flags stay 0), for either
/// engine and any board family.
pub(crate) fn mark_ended<K: KeyWord, R: LayeredRules>(
    rules: &R,
    ply: u32,
    keys: &[K],
    flags: &mut [u8],
) {
    let chunk = chunk_len(keys.len());
    keys.par_chunks(chunk)
        .zip(flags.par_chunks_mut(chunk))
        .for_each(|(ks, fs)| {
            for (k, f) in ks.iter().zip(fs) {
                if rules.has_ended_by_line(k.key(), ply) {
                    *f = ENDED;
                }
            }
        });
}

/// The next ply of `parents` (sorted canonical keys of `ply`), setting
/// `flags` (same length, zeroed) to [`ENDED`] where a parent is over.
/// `held` bytes are already spent; the round buffer and the new ply must
/// fit in the rest of `budget`, or the ply is refused with the figure.
pub(crate) fn next_ply<K: KeyWord>(
    moves: &Moves,
    ply: u32,
    parents: &[K],
    flags: &mut [u8],
    budget: &Budget,
    held: u64,
) -> Result<Vec<K>> {
    let key_bits = moves.game().key_bits();
    let bin_bits = key_bits.min(BIN_BITS);
    let bin_shift = key_bits - bin_bits;
    let bins = 1usize << bin_bits;
    let chunk = chunk_len(parents.len());
    let histograms: Vec<Vec<u32>> = parents
        .par_chunks(chunk)
        .zip(flags.par_chunks_mut(chunk))
        .map(|(ps, fs)| {
            let mut histogram = vec![0u32; bins];
            for (p, f) in ps.iter().zip(fs) {
                let key = p.key();
                if moves.has_ended_by_line(key, ply) {
                    *f = ENDED;
                    continue;
                }
                moves.for_each_child(key, moves.mirror(key), ply, |child| {
                    histogram[(child >> bin_shift) as usize] += 1;
                });
            }
            histogram
        })
        .collect();
    let plan = plan(&histograms, bin_shift);
    let word = std::mem::size_of::<K>() as u64;
    let children: u64 = plan.task_children.iter().sum();
    // the new ply holds at most one key a child; the rest is for rounds
    let room = budget.0 .0.saturating_sub(held);
    let round_words = (room / word).saturating_sub(children);
    let largest_task = plan.task_children.iter().copied().max().unwrap_or(0);
    if round_words < largest_task.min(children) {
        budget.check(
            &format!(
                "enumerating ply {} ({} held, {} children)",
                ply + 1,
                Bytes(held),
                children
            ),
            Bytes(held + (children + largest_task) * word),
        )?;
    }
    // the new ply's room taken at once (`children` bounds it, and is what
    // the budget counted): a vector grown by appending holds up to twice
    // its length, and three times while it moves (measured: 5×5 at
    // 150 MiB peaked at 169 MiB)
    let mut next: Vec<K> = Vec::with_capacity(children as usize);
    let mut first_task = 0;
    while first_task < plan.task_children.len() {
        let mut end_task = first_task;
        let mut words = 0;
        while end_task < plan.task_children.len()
            && (end_task == first_task || words + plan.task_children[end_task] <= round_words)
        {
            words += plan.task_children[end_task];
            end_task += 1;
        }
        round(
            moves,
            ply,
            parents,
            flags,
            &histograms,
            &plan,
            first_task..end_task,
            &mut next,
        );
        first_task = end_task;
    }
    // (a large block shrinks in place: glibc remaps it)
    next.shrink_to_fit();
    Ok(next)
}

/// Groups bins into tasks.
fn plan(histograms: &[Vec<u32>], bin_shift: u32) -> Plan {
    let bins = histograms.first().map_or(1, Vec::len);
    let mut totals = vec![0u64; bins];
    for h in histograms {
        for (t, &c) in totals.iter_mut().zip(h) {
            *t += u64::from(c);
        }
    }
    let mut task_of_bin = vec![0u32; bins];
    let mut first_bin = vec![0usize];
    let mut task_children = vec![0u64];
    for (b, &count) in totals.iter().enumerate() {
        let current = task_children.last_mut().expect("one task at least");
        if *current > 0 && *current + count > TASK_CHILDREN {
            first_bin.push(b);
            task_children.push(count);
        } else {
            *current += count;
        }
        task_of_bin[b] = (task_children.len() - 1) as u32;
    }
    first_bin.push(bins);
    Plan {
        bin_shift,
        task_of_bin,
        first_bin,
        task_children,
    }
}

/// Scatters, deduplicates and appends the children of tasks `tasks`.
#[allow(clippy::too_many_arguments)]
fn round<K: KeyWord>(
    moves: &Moves,
    ply: u32,
    parents: &[K],
    flags: &[u8],
    histograms: &[Vec<u32>],
    plan: &Plan,
    tasks: std::ops::Range<usize>,
    next: &mut Vec<K>,
) {
    // where each chunk writes each task's children: tasks in order, and
    // within a task the chunks in order
    let sizes = &plan.task_children[tasks.clone()];
    let mut cursors: Vec<Vec<u64>> = vec![vec![0; sizes.len()]; histograms.len()];
    let mut at = 0u64;
    for t in tasks.clone() {
        let bins = plan.first_bin[t]..plan.first_bin[t + 1];
        for (h, cursor) in histograms.iter().zip(cursors.iter_mut()) {
            cursor[t - tasks.start] = at;
            at += h[bins.clone()].iter().map(|&c| u64::from(c)).sum::<u64>();
        }
    }
    let mut buffer = vec![K::default(); at as usize];
    let writer = DisjointWriter::new(&mut buffer);
    let chunk = chunk_len(parents.len());
    parents
        .par_chunks(chunk)
        .zip(flags.par_chunks(chunk))
        .zip(cursors.into_par_iter())
        .for_each(|((ps, fs), mut cursor)| {
            for (p, &f) in ps.iter().zip(fs) {
                if f == ENDED {
                    continue;
                }
                let key = p.key();
                moves.for_each_child(key, moves.mirror(key), ply, |child| {
                    let t = plan.task_of_bin[(child >> plan.bin_shift) as usize] as usize;
                    if tasks.contains(&t) {
                        let slot = &mut cursor[t - tasks.start];
                        // SAFETY: chunk c writes task t's children at
                        // [its cursor, its cursor + its count): the counts
                        // came from expanding the same parents, so the
                        // ranges of different chunks and tasks never meet
                        unsafe { writer.write(*slot as usize, K::from_key(child)) };
                        *slot += 1;
                    }
                });
            }
        });
    // deduplicate each task in place; its distinct keys lead its slice
    let mut slices = Vec::with_capacity(sizes.len());
    let mut rest = buffer.as_mut_slice();
    for (t, &size) in tasks.clone().zip(sizes) {
        let (slice, tail) = rest.split_at_mut(size as usize);
        slices.push((plan.range(t), slice));
        rest = tail;
    }
    let distinct: Vec<usize> = slices
        .into_par_iter()
        .map(|((low, width), slice)| deduplicate(slice, low, width))
        .collect();
    let start = next.len();
    next.resize(start + distinct.iter().sum::<usize>(), K::default());
    let mut dest = &mut next[start..];
    let mut src = buffer.as_slice();
    let mut pairs = Vec::with_capacity(sizes.len());
    for (&size, &d) in sizes.iter().zip(&distinct) {
        let (to, dest_tail) = dest.split_at_mut(d);
        let (from, src_tail) = src.split_at(size as usize);
        pairs.push((to, &from[..d]));
        dest = dest_tail;
        src = src_tail;
    }
    pairs
        .into_par_iter()
        .for_each(|(to, from)| to.copy_from_slice(from));
}

thread_local! {
    /// Each thread's bitmap, all zero between uses.
    static BITMAP: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// Sorts and deduplicates `keys` (all in `[low, low + width)`), leaving
/// the distinct keys in order at the front; returns how many.
fn deduplicate<K: KeyWord>(keys: &mut [K], low: u64, width: u128) -> usize {
    let words = width.div_ceil(64);
    let n = keys.len() as u128;
    if words > u128::from(MAX_BITMAP_WORDS) || words > n * u128::from(BITMAP_WORDS_PER_CHILD) {
        keys.sort_unstable();
        return dedup_sorted(keys);
    }
    BITMAP.with(|bitmap| {
        let mut bitmap = bitmap.borrow_mut();
        let words = words as usize;
        if bitmap.len() < words {
            bitmap.resize(words, 0);
        }
        for k in keys.iter() {
            let offset = k.key() - low;
            bitmap[(offset >> 6) as usize] |= 1 << (offset & 63);
        }
        let mut distinct = 0;
        for (w, word) in bitmap[..words].iter_mut().enumerate() {
            let mut bits = std::mem::take(word);
            while bits != 0 {
                let offset = (w as u64) << 6 | u64::from(bits.trailing_zeros());
                keys[distinct] = K::from_key(low + offset);
                distinct += 1;
                bits &= bits - 1;
            }
        }
        distinct
    })
}

/// Moves the distinct keys of sorted `keys` to the front; returns how many.
fn dedup_sorted<K: KeyWord>(keys: &mut [K]) -> usize {
    if keys.is_empty() {
        return 0;
    }
    let mut distinct = 1;
    for i in 1..keys.len() {
        if keys[i] != keys[distinct - 1] {
            keys[distinct] = keys[i];
            distinct += 1;
        }
    }
    distinct
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_ways_of_deduplicating_agree_with_sort_and_dedup() {
        let mut seed = 7u64;
        for n in [0usize, 1, 5, 100, 3000] {
            for width in [64u128, 1000, 1 << 20] {
                let mut keys: Vec<u64> = (0..n)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        100 + (seed >> 33) % width as u64
                    })
                    .collect();
                let mut want = keys.clone();
                want.sort_unstable();
                want.dedup();
                let d = deduplicate(&mut keys, 100, width);
                assert_eq!(&keys[..d], &want[..], "n {n} width {width}");
            }
        }
        BITMAP.with(|b| assert!(b.borrow().iter().all(|&w| w == 0)));
    }
}

#[cfg(test)]
mod round_tests {
    use super::*;
    use crate::board::BoardSize;
    use crate::rules::gravity::Gravity;

    /// A ply enumerated in many small rounds (the least memory that lets it
    /// through) equals the ply enumerated at once.
    #[test]
    fn rounds_give_the_same_ply() {
        let game = Gravity::new(BoardSize::new(5, 4, 4)).unwrap();
        let moves = Moves::new(&game);
        let unlimited = Budget::unlimited();
        let mut ply_keys = vec![game.key(0, 0) as u32];
        for ply in 0..12 {
            let mut flags = vec![0u8; ply_keys.len()];
            let whole = next_ply(&moves, ply, &ply_keys, &mut flags, &unlimited, 0).unwrap();
            // the smallest budget that lets the ply through
            let (mut low, mut high) = (0u64, 64 * whole.len() as u64 + 1024);
            while low < high {
                let mid = (low + high) / 2;
                let mut f = vec![0u8; ply_keys.len()];
                match next_ply(&moves, ply, &ply_keys, &mut f, &Budget(Bytes(mid)), 0) {
                    Ok(_) => high = mid,
                    Err(_) => low = mid + 1,
                }
            }
            let mut tight_flags = vec![0u8; ply_keys.len()];
            let tight = next_ply(
                &moves,
                ply,
                &ply_keys,
                &mut tight_flags,
                &Budget(Bytes(low)),
                0,
            )
            .unwrap();
            assert_eq!(tight, whole, "ply {}", ply + 1);
            assert_eq!(tight_flags, flags);
            ply_keys = whole;
        }
    }
}
