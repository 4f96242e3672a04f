//! Solving a game tier by tier ([`Rules::TIERED`]), the finished tiers on
//! disk.
//!
//! A tier is a number no move lowers (stones on the board, pieces taken),
//! so the positions of a tier move only within it or up. Three passes:
//!
//! 1. **Up, enumerating.** From the start's tier, each tier's positions are
//!    enumerated from its roots by moves within it ([`enumerate_tier`]);
//!    the children of higher tiers it reaches are the roots of those tiers.
//!    A finished tier's keys (sorted) and its children above (sorted) go to
//!    spill files; only the roots of the tiers to come stay in memory.
//! 2. **Down, solving.** From the highest tier, each tier is read back with
//!    its children above, which are looked up in the tiers already solved
//!    (their spill files, memory-mapped: binary search on the sorted keys).
//!    The tier's graph ([`OwnGraph::build_tier`]) holds the children above
//!    as states without moves, and the pass is handed their values as
//!    seeds ([`solve_seeded`]): a child lost at depth `d` lets its parent
//!    win at `d + 1` exactly as if it had been solved here. The tier's
//!    values and depths go to a spill file; its graph is dropped.
//! 3. **Merged.** The tiers' keys and values are merged into one sorted
//!    table. The counts by ply are the tiers' added up: a tier's roots
//!    join its breadth-first walk at the ply the start reaches them, so
//!    each position is counted at its least ply. The result is the
//!    solution the whole game solved at once would give, bit for bit (the
//!    tests check it), so files, answers and the certificate do not know
//!    it was solved by tiers.
//!
//! Peak memory is the largest tier's graph and pass (with its children
//! above), not the whole game's; the merged table needs its keys, values
//! and depths. Spill files are the process's own, unlinked as soon as they
//! are made (they live on through their open handles), so they go with the
//! process however it ends.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::enumerate::{enumerate_tier, PlyCount};
use super::graph::{OwnGraph, BYTES_PER_STATE};
use super::index::{KeyIndex, MAX_POSITIONS};
use super::numbering::{Numbering, RankSet};
use super::{canonical, Key, Rules};
use crate::error::{Error, Result};
use crate::game::table::{code, retrograde_bytes, OutcomeTable};
use crate::game::Outcome;
use crate::memory::{huge_capacity, Budget, Bytes};
use crate::runtime::progress::Progress;
use crate::tables::retrograde::{solve_seeded, Seed};

/// The positions of one tier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TierCount {
    /// The tier ([`Rules::tier`]).
    pub tier: u32,
    /// Positions of this tier reached from the start.
    pub positions: u64,
    /// Of them, positions at which the game is over.
    pub ended: u64,
    /// Distinct moves of its positions in play (to this tier and above).
    pub moves: u64,
}

/// A game solved tier by tier: what the whole solve's `Solution` holds,
/// and the tiers' counts.
pub struct Tiered<P> {
    /// The positions, sorted.
    pub index: Numbering<P>,
    /// Their values and depths.
    pub table: OutcomeTable,
    /// The positions by the ply at which they are first reached.
    pub plies: Vec<PlyCount>,
    /// Distinct moves of the positions in play.
    pub moves: u64,
    /// The positions by tier.
    pub tiers: Vec<TierCount>,
}

/// Solves `rules` tier by tier, its spill files in `spill` (a directory;
/// the files are gone when this returns). The result equals the whole
/// game's solve.
pub fn solve_tiered<R: Rules>(
    rules: &R,
    spill: &Path,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<Tiered<R::Position>> {
    if !spill.is_dir() {
        return Err(Error::InvalidInput(format!(
            "{}: not a directory, so the finished tiers of {} cannot be kept there",
            spill.display(),
            rules.name()
        )));
    }
    let (mut tiers, plies) = enumerate_up(rules, spill, budget, progress)?;
    let mut moves = 0;
    for at in (0..tiers.len()).rev() {
        let (below, solved) = tiers.split_at_mut(at + 1);
        let tier = &mut below[at];
        tier.count.moves = solve_tier(rules, tier, solved, spill, budget, progress)?;
        moves += tier.count.moves;
    }
    let (index, table) = merge(&tiers, budget)?;
    Ok(Tiered {
        index,
        table,
        plies,
        moves,
        tiers: tiers.iter().map(|t| t.count).collect(),
    })
}

/// A tier on its way through the passes: its spill files and counts.
struct Tier {
    count: TierCount,
    /// Its positions, sorted.
    keys: SpillFile,
    /// Its positions' children in higher tiers, sorted and distinct
    /// (until the tier is solved).
    above: Option<SpillFile>,
    /// Once solved: each position's value and depth, [`pack`]ed, in the
    /// order of `keys`; both files mapped for lookups.
    solved: Option<SolvedTier>,
}

/// A solved tier, read from its memory-mapped spill files (which the maps
/// keep).
struct SolvedTier {
    keys: memmap2::Mmap,
    values: memmap2::Mmap,
}

/// A spill file: created, then unlinked at once, so that it goes with
/// the process whatever ends it (an error, a signal, the OOM killer); it
/// lives on through its open handle.
struct SpillFile {
    file: std::fs::File,
    /// Its name while it had one, for messages.
    path: PathBuf,
}

/// Spill files made by this process so far: each name is new.
static SPILLED: AtomicU64 = AtomicU64::new(0);

impl SpillFile {
    /// Writes `items` (each `width` bytes by `write`) to a new file in
    /// `dir`, named for `what`.
    fn write<T>(
        dir: &Path,
        what: &str,
        items: &[T],
        width: usize,
        write: impl Fn(&T, &mut [u8]),
    ) -> Result<Self> {
        let name = format!(
            ".retrograde-{}-{}-{what}.spill",
            std::process::id(),
            SPILLED.fetch_add(1, Relaxed)
        );
        let path = dir.join(name);
        let io = |cause| Error::Io {
            path: path.display().to_string(),
            cause,
        };
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(io)?;
        std::fs::remove_file(&path).map_err(io)?;
        let mut out = BufWriter::with_capacity(1 << 20, &file);
        let mut bytes = vec![0u8; width];
        for item in items {
            write(item, &mut bytes);
            out.write_all(&bytes).map_err(io)?;
        }
        out.into_inner().map_err(|e| io(e.into_error()))?;
        Ok(Self { file, path })
    }

    fn map(&self) -> Result<memmap2::Mmap> {
        // SAFETY: the file is this process's own and unlinked: nothing
        // else writes it, and this process does not once it is written.
        unsafe { memmap2::Mmap::map(&self.file) }.map_err(|cause| Error::Io {
            path: self.path.display().to_string(),
            cause,
        })
    }

    /// The keys the file holds.
    fn read_keys<P: Key>(&self) -> Result<Vec<P>> {
        let map = self.map()?;
        Ok(map.par_chunks(P::BYTES).map(P::read).collect())
    }

    fn write_keys<P: Key>(dir: &Path, what: &str, keys: &[P]) -> Result<Self> {
        Self::write(dir, what, keys, P::BYTES, |key, out| key.write(out))
    }
}

/// A value and depth in 4 bytes: the table's 2-bit code ([`code::of`]),
/// the depth above.
fn pack(table: &OutcomeTable, state: u64) -> u32 {
    code::of(table.outcome(state)) as u32 | table.depth(state).unwrap_or(0) << 2
}

fn unpack(packed: u32) -> (Outcome, u32) {
    let outcome = match u64::from(packed & 3) {
        code::WIN => Outcome::Win,
        code::LOSS => Outcome::Loss,
        _ => Outcome::Draw,
    };
    (outcome, packed >> 2)
}

/// What pass 1 gives: the tiers, and the whole game's counts by ply.
type Enumerated = (Vec<Tier>, Vec<PlyCount>);

/// Pass 1: every tier's positions, lowest tier first, and the whole
/// game's counts by ply (the tiers' added up).
fn enumerate_up<R: Rules>(
    rules: &R,
    spill: &Path,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<Enumerated> {
    let later = per_state_bytes::<R::Position>();
    let start = canonical(rules, rules.start(), &mut Vec::new());
    let mut roots = BTreeMap::from([(rules.tier(&start), vec![(start, 0)])]);
    let mut tiers = Vec::new();
    let mut plies = BTreeMap::new();
    let mut total = 0u64;
    while let Some((tier, these)) = roots.pop_first() {
        progress.note(&format!("tier {tier}: enumerating"));
        let reached = enumerate_tier(rules, these, Some(tier), budget, progress, later)?;
        let above_file = SpillFile::write(
            spill,
            &format!("tier{tier}-above"),
            &reached.outside,
            R::Position::BYTES,
            |(key, _), out| key.write(out),
        )?;
        for count in &reached.plies {
            let total: &mut PlyCount = plies.entry(count.ply).or_default();
            total.ply = count.ply;
            total.positions += count.positions;
            total.ended += count.ended;
        }
        for (child, ply) in reached.outside {
            let above = rules.tier(&child);
            if above <= tier {
                return Err(Error::InvalidInput(format!(
                    "the tier of {} {}: a position of tier {tier} moves to {}, of tier {above}",
                    rules.name(),
                    if above < tier {
                        "is not monotone"
                    } else {
                        "changes from call to call"
                    },
                    child.to_hex()
                )));
            }
            roots
                .entry(above)
                .or_insert_with(Vec::new)
                .push((child, ply));
        }
        let waiting: u64 = roots.values().map(|r| r.len() as u64).sum();
        budget.check(
            &format!(
                "the roots of {}'s tiers above {tier} ({waiting})",
                rules.name()
            ),
            Bytes(waiting.saturating_mul(std::mem::size_of::<(R::Position, u32)>() as u64)),
        )?;
        let mut keys = reached.positions;
        keys.par_sort_unstable();
        total += keys.len() as u64;
        if total >= MAX_POSITIONS {
            return Err(Error::TooManyStates {
                states: total,
                limit: MAX_POSITIONS - 1,
            });
        }
        let count = TierCount {
            tier,
            positions: keys.len() as u64,
            ended: reached.plies.iter().map(|p: &PlyCount| p.ended).sum(),
            moves: 0,
        };
        tiers.push(Tier {
            count,
            keys: SpillFile::write_keys(spill, &format!("tier{tier}-keys"), &keys)?,
            above: Some(above_file),
            solved: None,
        });
    }
    Ok((tiers, plies.into_values().collect()))
}

/// Pass 2 for one tier: solves it with its children above looked up in
/// `solved` (every higher tier, solved); writes and maps its values;
/// returns its moves.
fn solve_tier<R: Rules>(
    rules: &R,
    tier: &mut Tier,
    solved: &[Tier],
    spill: &Path,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<u64> {
    let number = tier.count.tier;
    progress.note(&format!("tier {number}: solving"));
    let above_file = tier.above.take().expect("a tier is solved once");
    let above_count = above_file.file.metadata().map_or(0, |m| m.len()) / R::Position::BYTES as u64;
    let states_count = tier.count.positions + above_count;
    // the index and graph of the tier with its children above, and per
    // child above its key, value and seed
    budget.check(
        &format!(
            "solving tier {number} of {} ({} positions, {above_count} children above)",
            rules.name(),
            tier.count.positions
        ),
        Bytes(
            states_count
                .saturating_mul(per_state_bytes::<R::Position>())
                .saturating_add(above_count.saturating_mul(R::Position::BYTES as u64 + 32)),
        ),
    )?;
    let above: Vec<R::Position> = above_file.read_keys()?;
    drop(above_file);
    let found: Vec<(Outcome, u32)> = above
        .par_iter()
        .map(|child| lookup(rules, solved, child))
        .collect::<Result<_>>()?;
    let mut states: Vec<R::Position> = huge_capacity(states_count as usize);
    states.extend(tier.keys.read_keys::<R::Position>()?);
    states.extend_from_slice(&above);
    states.par_sort_unstable();
    if let Some(twice) = states.par_windows(2).find_any(|w| w[0] == w[1]) {
        return Err(Error::InvalidInput(format!(
            "position {} of {} is both in tier {number} and above it \
             (rules whose tier changes from call to call?)",
            twice[0].to_hex(),
            rules.name()
        )));
    }
    // the states of the children above (both lists are sorted)
    let mut words = vec![0u64; states.len().div_ceil(64)];
    let mut next_above = above.iter().peekable();
    for (state, key) in states.iter().enumerate() {
        if next_above.next_if_eq(&key).is_some() {
            words[state / 64] |= 1 << (state % 64);
        }
    }
    let outside =
        RankSet::from_words(states.len() as u64, words).expect("a bit a state, none past them");
    let index = Numbering::Keys(KeyIndex::from_sorted(states));
    let held = Bytes(index.heap_bytes());
    let graph = OwnGraph::build_tier(rules, &index, Some(&outside), &budget.after(held), progress)?;
    let seeds: Vec<Seed> = above
        .iter()
        .zip(&found)
        .filter(|(_, (outcome, _))| *outcome != Outcome::Draw)
        .map(|(child, &(outcome, depth))| Seed {
            state: index.find(rules, child).expect("a child above is indexed"),
            outcome,
            depth,
        })
        .collect();
    drop((above, found));
    let (table, stats) = solve_seeded(&graph, &seeds, budget, progress, held)?;
    let moves = graph.edges();
    drop(graph);
    if stats.levels >= MAX_DEPTH {
        return Err(Error::InvalidInput(format!(
            "tier {number} of {} has positions decided at depth {} or more, \
             deeper than a tier's spill file holds",
            rules.name(),
            MAX_DEPTH
        )));
    }
    // the tier's own states, in order: every state but the children above
    let values: Vec<u32> = (0..index.states())
        .filter(|&state| !outside.contains(state))
        .map(|state| pack(&table, state))
        .collect();
    let values_file = SpillFile::write(
        spill,
        &format!("tier{number}-values"),
        &values,
        4,
        |v, out| out.copy_from_slice(&v.to_le_bytes()),
    )?;
    tier.solved = Some(SolvedTier {
        keys: tier.keys.map()?,
        values: values_file.map()?,
    });
    Ok(moves)
}

/// Depths a spill file holds: 30 bits, beside the 2-bit value.
const MAX_DEPTH: u32 = 1 << 30;

/// Bytes a state costs once the positions are enumerated (a tier's, or
/// the whole game's): its key, its slots in the index, its graph and the
/// retrograde pass's tables.
pub(super) fn per_state_bytes<P: Key>() -> u64 {
    KeyIndex::<P>::bytes_for(1, P::BYTES)
        + BYTES_PER_STATE
        + retrograde_bytes(1, u32::from(u16::MAX)).0
}

/// The value and depth of `child` in its tier, one of `solved`.
fn lookup<R: Rules>(rules: &R, solved: &[Tier], child: &R::Position) -> Result<(Outcome, u32)> {
    let number = rules.tier(child);
    let missing = || {
        Error::InvalidInput(format!(
            "position {} of {} (tier {number}) is reached, but its tier did not list it \
             (rules whose tier or moves change from call to call?)",
            child.to_hex(),
            rules.name()
        ))
    };
    let at = solved
        .binary_search_by_key(&number, |t| t.count.tier)
        .map_err(|_| missing())?;
    let tier = solved[at].solved.as_ref().ok_or_else(missing)?;
    let mut wanted = vec![0u8; R::Position::BYTES];
    child.write(&mut wanted);
    let count = tier.keys.len() / R::Position::BYTES;
    let key_at = |i: usize| &tier.keys[i * R::Position::BYTES..(i + 1) * R::Position::BYTES];
    let (mut low, mut high) = (0, count);
    while low < high {
        let middle = low + (high - low) / 2;
        if key_at(middle) < &wanted[..] {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    if low == count || key_at(low) != &wanted[..] {
        return Err(missing());
    }
    let raw = &tier.values[4 * low..4 * low + 4];
    Ok(unpack(u32::from_le_bytes(
        raw.try_into().expect("four bytes"),
    )))
}

/// Pass 3: the tiers' keys and values merged into one index and table.
fn merge<P: Key>(tiers: &[Tier], budget: &Budget) -> Result<(Numbering<P>, OutcomeTable)> {
    let positions: u64 = tiers.iter().map(|t| t.count.positions).sum();
    budget.check(
        &format!("merging {positions} positions of {} tiers", tiers.len()),
        Bytes(
            KeyIndex::<P>::bytes_for(positions, P::BYTES)
                .saturating_add(positions.saturating_mul(4))
                .saturating_add(positions.div_ceil(4)),
        ),
    )?;
    let maps: Vec<&SolvedTier> = tiers
        .iter()
        .map(|t| t.solved.as_ref().expect("every tier is solved"))
        .collect();
    let key_of = |t: usize, i: usize| P::read(&maps[t].keys[i * P::BYTES..(i + 1) * P::BYTES]);
    let value_of = |t: usize, i: usize| {
        u32::from_le_bytes(
            maps[t].values[4 * i..4 * i + 4]
                .try_into()
                .expect("four bytes"),
        )
    };
    let lengths: Vec<usize> = tiers.iter().map(|t| t.count.positions as usize).collect();
    let mut heap: BinaryHeap<Reverse<(P, usize, usize)>> = (0..tiers.len())
        .filter(|&t| lengths[t] > 0)
        .map(|t| Reverse((key_of(t, 0), t, 0)))
        .collect();
    let mut keys = huge_capacity(positions as usize);
    let mut depths = Vec::with_capacity(positions as usize);
    let mut words = vec![0u64; (positions as usize).div_ceil(32)];
    while let Some(Reverse((key, t, i))) = heap.pop() {
        if keys.last().is_some_and(|&last| last >= key) {
            return Err(Error::InvalidInput(format!(
                "position {} is in two tiers (rules whose tier changes from call to call?)",
                key.to_hex()
            )));
        }
        // a packed value's low 2 bits are the table's code
        let packed = value_of(t, i);
        let state = keys.len();
        words[state / 32] |= u64::from(packed & 3) << (2 * (state % 32));
        depths.push(packed >> 2);
        keys.push(key);
        if i + 1 < lengths[t] {
            heap.push(Reverse((key_of(t, i + 1), t, i + 1)));
        }
    }
    Ok((
        Numbering::Keys(KeyIndex::from_sorted(keys)),
        OutcomeTable::from_parts(words, depths),
    ))
}
