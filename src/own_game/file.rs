//! A user game's table on disk: the container every table file uses
//! (`RETROGRD`, version 1, sections, a checksum trailer; docs/FORMAT.md)
//! with game kind 8 and index encoding 10: the sorted keys, then the
//! values and depths of the states in key order; or, for rules with a
//! dense rank ([`Rules::RANKED`]), encoding 11: the ranks the start
//! reaches (a bit a rank), then the values and depths of every rank.
//!
//! A table is read back only with the rules it was made from (the same
//! name and key width), and certified against them before it answers
//! (see [`super::certify`]).

use std::path::Path;

use serde_json::{json, Value};

use super::enumerate::PlyCount;
use super::index::{KeyIndex, MAX_POSITIONS};
use super::numbering::{Numbering, RankSet};
use super::solve::Solution;
use super::{certify::certify, Key, Rules};
use crate::error::{Error, Result};
use crate::game::table::{code, Counts, OutcomeTable};
use crate::game::Outcome;
use crate::memory::{Budget, Bytes};
use crate::runtime::progress::Progress;
use crate::tablefile::replace::{identify, Found, Ours};
use crate::tablefile::{
    open_container, rename, save_with, words_of, Summing, OWN_GAME_KIND, TRAILER_BYTES,
};

/// The index encoding of a user game's table: sorted keys.
pub const OWN_ENCODING: u32 = 10;

/// The index encoding of a user game's table numbered by the rules' rank.
pub const OWN_RANKED_ENCODING: u32 = 11;

/// Checks, before a solve, that a table may be written to `path`: a new
/// file, or a table file (of ours, of any game) that it replaces. Anything
/// else — a file that is not a table, a directory, a link — is refused.
pub fn check_table_output(path: &Path) -> Result<()> {
    crate::files::check_output(path)?;
    let what = match identify(path) {
        Found::Nothing | Found::Ours(Ours::Table(_)) | Found::OursUnread("a table", _) => {
            return Ok(())
        }
        Found::Ours(ours) => ours.describe(),
        Found::OursUnread(kind, _) => kind.to_string(),
        Found::Other(_) => "not a table of retrograde".to_string(),
    };
    Err(Error::InvalidInput(format!(
        "{}: exists and is {what}; a table replaces only a table — give another path",
        path.display()
    )))
}

/// Writes `solution` of `rules` to `path` atomically; returns the file's
/// size. The caller checks the path first ([`check_table_output`]).
pub fn save<R: Rules>(path: &Path, rules: &R, solution: &Solution<R::Position>) -> Result<u64> {
    save_with(path, |out| {
        let states = solution.index.states();
        let encoding = match solution.index {
            Numbering::Keys(_) => OWN_ENCODING,
            Numbering::Ranks(_) => OWN_RANKED_ENCODING,
        };
        let mut w = Summing::header(out, OWN_GAME_KIND, encoding, states)?;
        w.json(
            b"PARM",
            &json!({"game": rules.name(), "key_bytes": R::Position::BYTES}),
        )?;
        let plies: Vec<[u64; 2]> = solution
            .plies
            .iter()
            .map(|p| [p.positions, p.ended])
            .collect();
        w.json(b"SUMM", &json!({"plies": plies, "moves": solution.moves}))?;
        match &solution.index {
            Numbering::Keys(index) => {
                let width = R::Position::BYTES;
                w.section(b"KEYS", states * width as u64, |w| {
                    let mut buffer = vec![0u8; width * 4096];
                    for chunk in index.keys().chunks(4096) {
                        for (key, out) in chunk.iter().zip(buffer.chunks_mut(width)) {
                            key.write(out);
                        }
                        w.put(&buffer[..chunk.len() * width])?;
                    }
                    Ok(())
                })?;
            }
            Numbering::Ranks(reached) => {
                let words = reached.words();
                w.section(b"REAC", words.len() as u64 * 8, |w| w.words(words))?;
            }
        }
        let values = solution.table.value_words();
        w.section(b"VALS", values.len() as u64 * 8, |w| w.words(values))?;
        w.section(b"DEPT", states * 4, |w| {
            for chunk in solution.table.depths().chunks(4096) {
                let bytes: Vec<u8> = chunk.iter().flat_map(|d| d.to_le_bytes()).collect();
                w.put(&bytes)?;
            }
            Ok(())
        })?;
        w.trailer()
    })
}

/// Bytes of memory reading a table of `states` positions needs besides
/// the file itself: the keys and their index, values, depths, and the
/// check's per-state bytes.
fn load_bytes(states: u64, key_bytes: usize) -> u64 {
    KeyIndex::<u64>::bytes_for(states, key_bytes)
        .saturating_add(states.saturating_mul(4 + 1 + 3 + 1))
}

/// The bytes of the file at `path`, read whole once `budget` allows
/// twice its size (the file, and what is decoded from it).
fn read_within(path: &Path, budget: &Budget) -> Result<Vec<u8>> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    budget.check(
        &format!("reading the table {}", path.display()),
        Bytes(size.saturating_mul(2)),
    )?;
    crate::files::read_regular(path)
}

/// The refusal of the table at `path`, for `why`.
fn bad_table(path: &Path, why: String) -> Error {
    rename(
        Error::BadTableFile {
            path: String::new(),
            why,
        },
        path,
    )
}

/// Reads the table at `path`, made from `rules`, and certifies it against
/// them (every position reached, every value from its children); a file
/// that is damaged, edited, or of other rules is refused.
pub fn load<R: Rules>(
    path: &Path,
    rules: &R,
    budget: &Budget,
    progress: &dyn Progress,
) -> Result<Solution<R::Position>> {
    let bytes = read_within(path, budget)?;
    let bad = |why: String| bad_table(path, why);
    let parts = decode::<R::Position>(&bytes, Some((&rules.name(), R::RANKED))).map_err(bad)?;
    drop(bytes);
    let held = Bytes(load_bytes(parts.index.states(), R::Position::BYTES));
    budget.check(&format!("checking the table {}", path.display()), held)?;
    certify(
        rules,
        &parts.index,
        &parts.table,
        &parts.plies,
        parts.moves,
        &budget.after(held),
        progress,
    )
    .map_err(|why| {
        bad(format!(
            "the table does not follow from the rules of {}: {why}",
            rules.name()
        ))
    })?;
    Ok(Solution {
        name: rules.name(),
        index: parts.index,
        table: parts.table,
        plies: parts.plies,
        moves: parts.moves,
        tiers: Vec::new(),
    })
}

/// A table of a game of one's own read without its rules, for a front end
/// that has only the file (the Python package). It is checked for damage
/// and form — the checksum, each section's length, the keys' order, a
/// value for every state — but **not certified**: a file edited with its
/// checksum recomputed answers as it reads. The program that defines the
/// rules certifies it (`PROGRAM query FILE --check`, [`load`]).
pub struct StoredTable {
    /// The game's name, as the file gives it.
    pub name: String,
    /// The states: keys of 4, 8 or 16 bytes, or ranks.
    pub states: StoredStates,
    /// Value and depth of every state.
    pub table: OutcomeTable,
    /// Positions by the ply at which they are first reached.
    pub plies: Vec<PlyCount>,
    /// Distinct moves of the positions in play.
    pub moves: u64,
}

/// The states of a [`StoredTable`], by the width of its keys.
pub enum StoredStates {
    /// Keys of 4 bytes.
    Keys32(Numbering<u32>),
    /// Keys of 8 bytes.
    Keys64(Numbering<u64>),
    /// Keys of 16 bytes.
    Keys128(Numbering<u128>),
}

/// `$body` with `$n` bound to the [`Numbering`] of `$states`, whatever
/// the width of its keys.
macro_rules! with_numbering {
    ($states:expr, $n:ident => $body:expr) => {
        match $states {
            StoredStates::Keys32($n) => $body,
            StoredStates::Keys64($n) => $body,
            StoredStates::Keys128($n) => $body,
        }
    };
}

impl StoredTable {
    /// The state of the position whose key (or rank, for a table numbered
    /// by rank) is `key`, if the start reaches it. The key is the
    /// canonical form's: a reader without the rules cannot fold symmetric
    /// images.
    pub fn state_of(&self, key: u128) -> Option<u64> {
        fn find<P: Key + TryFrom<u128>>(numbering: &Numbering<P>, key: u128) -> Option<u64> {
            match numbering {
                Numbering::Keys(index) => index.find(&P::try_from(key).ok()?),
                Numbering::Ranks(reached) => {
                    let rank = u64::try_from(key).ok()?;
                    reached.contains(rank).then_some(rank)
                }
            }
        }
        with_numbering!(&self.states, n => find(n, key))
    }

    /// The value and depth of the position with key (or rank) `key`.
    pub fn value(&self, key: u128) -> Option<(Outcome, Option<u32>)> {
        let state = self.state_of(key)?;
        Some((self.table.outcome(state), self.table.depth(state)))
    }

    /// Positions the start reaches.
    pub fn positions(&self) -> u64 {
        with_numbering!(&self.states, n => n.positions())
    }

    /// Win / loss / draw totals over the positions the start reaches.
    pub fn counts(&self) -> Counts {
        with_numbering!(&self.states, n => n.counts(&self.table))
    }

    /// Whether the states are ranks (else keys).
    pub fn by_rank(&self) -> bool {
        with_numbering!(&self.states, n => n.ranks().is_some())
    }
}

/// Reads the table of a game of one's own at `path` without its rules
/// ([`StoredTable`]: checked for damage, not certified), within `budget`.
pub fn open_stored(path: &Path, budget: &Budget) -> Result<StoredTable> {
    let bytes = read_within(path, budget)?;
    let bad = |why: String| bad_table(path, why);
    let (mut r, _, _, _) = open_container(&bytes, true).map_err(bad)?;
    let parameters: Value = serde_json::from_slice(r.section(b"PARM", None).map_err(bad)?)
        .map_err(|e| bad(format!("parameters are not JSON: {e}")))?;
    let name = parameters["game"].as_str().unwrap_or("").to_string();
    /// The file's parts, its states wrapped by their key width.
    fn parts<P: Key>(
        bytes: &[u8],
        wrap: fn(Numbering<P>) -> StoredStates,
    ) -> std::result::Result<(StoredStates, OutcomeTable, Vec<PlyCount>, u64), String> {
        let p = decode::<P>(bytes, None)?;
        Ok((wrap(p.index), p.table, p.plies, p.moves))
    }
    let (states, table, plies, moves) = match parameters["key_bytes"].as_u64() {
        Some(4) => parts::<u32>(&bytes, StoredStates::Keys32).map_err(bad)?,
        Some(8) => parts::<u64>(&bytes, StoredStates::Keys64).map_err(bad)?,
        Some(16) => parts::<u128>(&bytes, StoredStates::Keys128).map_err(bad)?,
        _ => {
            return Err(bad(format!(
                "its keys are {} bytes; a game of one's own has keys of 4, 8 or 16",
                parameters["key_bytes"]
            )))
        }
    };
    Ok(StoredTable {
        name,
        states,
        table,
        plies,
        moves,
    })
}

/// What a file holds, read and checked for its form only.
struct Parts<P> {
    index: Numbering<P>,
    table: OutcomeTable,
    plies: Vec<PlyCount>,
    moves: u64,
}

/// The parts of a table file of `name`'s rules, numbered by rank if
/// `ranked`; with `expect` `None`, of whatever rules the file names (its
/// numbering read from its encoding).
fn decode<P: Key>(
    bytes: &[u8],
    expect: Option<(&str, bool)>,
) -> std::result::Result<Parts<P>, String> {
    let (mut r, kind, encoding, states) = open_container(bytes, expect.is_some())?;
    let (name, ranked) = expect.unwrap_or(("", encoding == OWN_RANKED_ENCODING));
    let body = bytes.len() - TRAILER_BYTES;
    if kind != OWN_GAME_KIND || !matches!(encoding, OWN_ENCODING | OWN_RANKED_ENCODING) {
        return Err(format!(
            "not a table of a game of your own (game kind {kind}, encoding {encoding}); \
             `retrograde query` reads it"
        ));
    }
    let parameters: Value = serde_json::from_slice(r.section(b"PARM", None)?)
        .map_err(|e| format!("parameters are not JSON: {e}"))?;
    if expect.is_some() && parameters["game"].as_str() != Some(name) {
        return Err(format!(
            "a table of {}, not of {name}",
            parameters["game"].as_str().unwrap_or("an unnamed game")
        ));
    }
    if (encoding == OWN_RANKED_ENCODING) != ranked {
        return Err(format!(
            "its positions are numbered {}, those of {name} {}",
            if ranked { "by key" } else { "by rank" },
            if ranked { "by rank" } else { "by key" }
        ));
    }
    if parameters["key_bytes"].as_u64() != Some(P::BYTES as u64) {
        return Err(format!(
            "its positions are {} bytes, those of {name} {}",
            parameters["key_bytes"],
            P::BYTES
        ));
    }
    if states >= MAX_POSITIONS {
        return Err(format!(
            "the header claims {states} positions, more than an index holds"
        ));
    }
    let per_state = if ranked { 4 } else { P::BYTES as u64 + 4 };
    if states
        .checked_mul(per_state)
        .is_none_or(|b| b > bytes.len() as u64)
    {
        return Err(format!(
            "the header claims {states} positions, more than the file holds"
        ));
    }
    let summary: Value = serde_json::from_slice(r.section(b"SUMM", None)?)
        .map_err(|e| format!("the summary is not JSON: {e}"))?;
    let (plies, moves) = read_summary(&summary)?;
    let index = if ranked {
        let words = words_of(r.section(b"REAC", Some(states.div_ceil(64) * 8))?);
        Numbering::Ranks(
            RankSet::from_words(states, words)
                .ok_or("bits are set past the last rank among those reached")?,
        )
    } else {
        let keys: Vec<P> = r
            .section(b"KEYS", Some(states * P::BYTES as u64))?
            .chunks_exact(P::BYTES)
            .map(P::read)
            .collect();
        if let Some(at) = keys.windows(2).position(|w| w[0] >= w[1]) {
            return Err(format!(
                "the positions are not in strictly increasing order at {}",
                at + 1
            ));
        }
        Numbering::Keys(KeyIndex::from_sorted(keys))
    };
    let words = (2 * states).div_ceil(64);
    let values = words_of(r.section(b"VALS", Some(words * 8))?);
    let depths: Vec<u32> = r
        .section(b"DEPT", Some(states * 4))?
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    if r.at > body {
        return Err("the sections run into the checksum trailer".into());
    }
    if r.at < body {
        return Err(format!("{} bytes follow the last section", body - r.at));
    }
    check_values(&values, states)?;
    Ok(Parts {
        index,
        table: OutcomeTable::from_parts(values, depths),
        plies,
        moves,
    })
}

fn read_summary(summary: &Value) -> std::result::Result<(Vec<PlyCount>, u64), String> {
    let moves = summary["moves"]
        .as_u64()
        .ok_or("the summary has no count of moves")?;
    let plies = summary["plies"]
        .as_array()
        .ok_or("the summary has no counts by ply")?
        .iter()
        .enumerate()
        .map(|(ply, pair)| {
            match pair
                .as_array()
                .map(|p| (p.len(), p[0].as_u64(), p.get(1).and_then(Value::as_u64)))
            {
                Some((2, Some(positions), Some(ended))) => Ok(PlyCount {
                    ply: ply as u32,
                    positions,
                    ended,
                }),
                _ => Err(format!("the summary's ply {ply} is not a pair of counts")),
            }
        })
        .collect::<std::result::Result<_, String>>()?;
    Ok((plies, moves))
}

/// Every state has a value (no `00`), and the bits past the last are 0.
fn check_values(words: &[u64], states: u64) -> std::result::Result<(), String> {
    for state in 0..states {
        let bits = (words[(state / 32) as usize] >> (2 * (state % 32))) & 0b11;
        if bits == code::UNKNOWN {
            return Err(format!("position {state} has no value"));
        }
    }
    let used = 2 * states % 64;
    if used != 0 && words.last().is_some_and(|&w| w >> used != 0) {
        return Err("bits are set past the last position".into());
    }
    Ok(())
}
