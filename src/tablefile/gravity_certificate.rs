//! Certifying a solved gravity table against the rules of its board, so
//! that a table edited with its checksums recomputed is refused: the
//! checksums guard against damage, this against edits.
//!
//! The plies are read from the last down, each once, and at most two are
//! held at a time. A table passes when
//! * ply 0 holds exactly the empty board;
//! * every stored key is a canonical position of its ply on this board, in
//!   which the player to move holds no line;
//! * every position's value and depth are the minimax of its children's
//!   (a position whose last mover holds a line is lost at depth 0, a full
//!   board drawn at depth 0), every child of a position in play is stored
//!   in the next ply, and every position of the next ply is such a child —
//!   so each ply holds exactly the positions legal play reaches;
//! * the per-ply counts derived from the positions (mirror images counted)
//!   equal the summary's, field by field.
//!
//! Depths fall by one along every chain of won and lost positions and end
//! at depth 0 on a completed line, so a table that passes is the solution
//! of the board its parameters name.

use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::certify::from_children;
use crate::game::Outcome;
use crate::rules::gravity::Gravity;
use crate::runtime::progress::Progress;
use crate::tables::sparse::key_index::KeyIndex;
use crate::tables::sparse::keys::PlyKeys;
use crate::tables::sparse::{decode, GravityCounts, GravityPly};

/// Positions a worker checks at once.
const CHUNK: usize = 1 << 12;

/// Certifies a gravity table (module docs). `ply_of(p)` gives ply `p`'s
/// sorted canonical keys and value bytes (decoded from a file, checksums
/// checked, or borrowed from memory); `stored` is the summary's counts.
/// The error names the first rule broken.
pub fn certify_gravity<'a>(
    game: &Gravity,
    stored: &[GravityCounts],
    ply_of: impl Fn(usize) -> Result<Cow<'a, GravityPly>, String>,
    progress: &dyn Progress,
) -> Result<(), String> {
    let plies = game.cells() as usize + 1;
    if stored.len() != plies {
        return Err(format!(
            "the summary has {} plies, the board {plies}",
            stored.len()
        ));
    }
    progress.stage("certify", plies as u64);
    let mut above: Option<Indexed<'a>> = None;
    for ply in (0..plies).rev() {
        let current = ply_of(ply)?;
        let reached = above.as_ref().map(|a| Marks::new(a.ply.raw().0.len()));
        let derived = check_ply(game, ply, &current, above.as_ref(), reached.as_ref())?;
        if let (Some(above), Some(reached)) = (&above, &reached) {
            if let Some(i) = reached.first_unmarked() {
                return Err(format!(
                    "position {:#x} of ply {} is no move's result from ply {ply}",
                    above.ply.raw().0.get(i),
                    ply + 1
                ));
            }
        }
        compare_counts(ply, &stored[ply], &derived)?;
        above = Some(Indexed::new(current));
        progress.advance(1);
    }
    let first = above.expect("a board has at least ply 0");
    let keys = first.ply.raw().0;
    if keys.len() != 1 || keys.get(0) != game.key(0, 0) {
        return Err("ply 0 does not hold exactly the empty board".into());
    }
    Ok(())
}

/// Checks every position of `ply` (children in `above`, marked in
/// `reached`); the counts its positions make.
fn check_ply(
    game: &Gravity,
    ply: usize,
    current: &GravityPly,
    above: Option<&Indexed<'_>>,
    reached: Option<&Marks>,
) -> Result<GravityCounts, String> {
    let (keys, values) = current.raw();
    if values.len() != keys.len() {
        return Err(format!("ply {ply}: keys and values differ in number"));
    }
    let total = (0..keys.len().div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let mut counts = GravityCounts::default();
            let end = ((chunk + 1) * CHUNK).min(keys.len());
            let start = chunk * CHUNK;
            for (i, &value) in (start..end).zip(&values[start..end]) {
                if i > 0 && keys.get(i - 1) >= keys.get(i) {
                    return Err(format!("ply {ply}: the keys are not in order"));
                }
                let entry = check_position(game, ply, keys.get(i), value, above, reached)?;
                counts = counts.plus(&entry);
            }
            Ok(counts)
        })
        .try_reduce(GravityCounts::default, |a, b| Ok(a.plus(&b)))?;
    Ok(GravityCounts {
        ply: ply as u32,
        ..total
    })
}

/// Checks one stored position against the rules; the counts it makes
/// (twice over when its mirror image is another position).
fn check_position(
    game: &Gravity,
    ply: usize,
    key: u64,
    value: u8,
    above: Option<&Indexed<'_>>,
    reached: Option<&Marks>,
) -> Result<GravityCounts, String> {
    let bad = |why: &str| format!("position {key:#x} of ply {ply}: {why}");
    if key >= 1u64.checked_shl(game.key_bits()).unwrap_or(u64::MAX) {
        return Err(bad("not a key of this board"));
    }
    let (x, occupied) = game.unkey(key);
    if game.key(x, occupied) != key
        || occupied.count_ones() != ply as u32
        || game.canonical(key) != key
    {
        return Err(bad("not a canonical position of this ply"));
    }
    let x_moves = ply.is_multiple_of(2);
    let (o, mover_stones) = (occupied & !x, if x_moves { x } else { occupied & !x });
    let last_stones = if x_moves { o } else { x };
    let full = ply as u32 == game.cells();
    let mut counts = GravityCounts::default();
    let want = if game.has_line(mover_stones) {
        return Err(bad("the player to move holds a line"));
    } else if game.has_line(last_stones) {
        counts.terminal = 1;
        if x_moves {
            counts.o_wins = 1;
        } else {
            counts.x_wins = 1;
        }
        (Outcome::Loss, 0)
    } else if full {
        counts.terminal = 1;
        counts.draws = 1;
        (Outcome::Draw, 0)
    } else {
        let above = above.ok_or_else(|| bad("a board in play in the last ply"))?;
        let (cols, _, _) = game.dimensions();
        let children = (0..cols)
            .filter_map(|c| game.drop_cell(occupied, c))
            .map(|cell| {
                let child_x = if x_moves { x | cell } else { x };
                let child = game.canonical(game.key(child_x, occupied | cell));
                above.position(child).map(|i| {
                    if let Some(reached) = reached {
                        reached.mark(i);
                    }
                    decode(above.ply.raw().1[i])
                })
            });
        let empty = game.cells() - ply as u32;
        from_children(children, empty).map_err(bad)?
    };
    if value & 0b11 == 0 || decode(value) != want {
        return Err(bad("its value or depth does not follow from the rules"));
    }
    let first_wins = match want.0 {
        Outcome::Draw => None,
        Outcome::Win => Some(x_moves),
        Outcome::Loss => Some(!x_moves),
    };
    match first_wins {
        None => counts.first_drawn = 1,
        Some(true) => counts.first_won = 1,
        Some(false) => counts.first_lost = 1,
    }
    counts.positions = 1;
    if game.mirror(key) != key {
        counts = counts.plus(&counts);
    }
    Ok(counts)
}

/// Refuses a summary whose counts of `ply` differ from those its positions
/// make, naming the fields that differ.
fn compare_counts(
    ply: usize,
    stored: &GravityCounts,
    derived: &GravityCounts,
) -> Result<(), String> {
    if stored == derived {
        return Ok(());
    }
    let fields = [
        ("ply", u64::from(stored.ply), u64::from(derived.ply)),
        ("positions", stored.positions, derived.positions),
        ("terminal", stored.terminal, derived.terminal),
        ("x_wins", stored.x_wins, derived.x_wins),
        ("o_wins", stored.o_wins, derived.o_wins),
        ("draws", stored.draws, derived.draws),
        ("first_won", stored.first_won, derived.first_won),
        ("first_drawn", stored.first_drawn, derived.first_drawn),
        ("first_lost", stored.first_lost, derived.first_lost),
    ];
    let differ: Vec<String> = fields
        .iter()
        .filter(|(_, s, d)| s != d)
        .map(|(name, s, d)| format!("{name} {s} stored, {d} counted"))
        .collect();
    Err(format!(
        "the summary's counts of ply {ply} differ from its positions ({})",
        differ.join("; ")
    ))
}

/// A ply with the bucket index of its keys, for the lookups of its
/// parents' children (a binary search over a whole ply of 64-bit keys
/// missed the cache at nearly every step).
struct Indexed<'a> {
    ply: Cow<'a, GravityPly>,
    index: KeyIndex,
}

impl<'a> Indexed<'a> {
    fn new(ply: Cow<'a, GravityPly>) -> Self {
        let index = match ply.raw().0 {
            PlyKeys::Narrow(k) => KeyIndex::new(k),
            PlyKeys::Wide(k) => KeyIndex::new(k),
        };
        Self { ply, index }
    }

    /// Where canonical `key` is stored, if it is.
    fn position(&self, key: u64) -> Option<usize> {
        let (from, to) = self.index.range(self.index.bucket(key));
        let at = match self.ply.raw().0 {
            PlyKeys::Narrow(k) => k[from..to].binary_search(&u32::try_from(key).ok()?),
            PlyKeys::Wide(k) => k[from..to].binary_search(&key),
        };
        at.ok().map(|i| from + i)
    }
}

/// One mark a position, set from any thread.
struct Marks {
    words: Vec<AtomicU64>,
    positions: usize,
}

impl Marks {
    fn new(positions: usize) -> Self {
        Self {
            words: (0..positions.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
            positions,
        }
    }

    fn mark(&self, i: usize) {
        self.words[i / 64].fetch_or(1 << (i % 64), Relaxed);
    }

    /// The first position not marked.
    fn first_unmarked(&self) -> Option<usize> {
        self.words
            .iter()
            .enumerate()
            .find_map(|(w, word)| {
                let missing = !word.load(Relaxed);
                (missing != 0).then(|| w * 64 + missing.trailing_zeros() as usize)
            })
            .filter(|&i| i < self.positions)
    }
}

/// Checks a solved gravity table in memory against the rules of `game`
/// (the certificate of this module).
pub fn check_gravity(
    game: &crate::rules::gravity::Gravity,
    solution: &crate::tables::sparse::GravitySolution,
) -> Result<(), String> {
    certify_gravity(
        game,
        &solution.counts,
        |ply| {
            solution
                .plies
                .get(ply)
                .map(std::borrow::Cow::Borrowed)
                .ok_or_else(|| format!("ply {ply} is missing"))
        },
        &crate::runtime::progress::Silent,
    )
}
