//! Forged tables refused: gravity tables forged with every checksum
//! recomputed, and damage only the trailer's checksum shows (issue 26,
//! lines 1 and 2). A table of at most `CERTIFIED_ON_OPEN` stored positions
//! (4×4) is certified whenever it is opened; a larger one (5×4) by `query
//! --check` and by the report of its counts. Edited m,n,k and graph tables
//! with a recomputed checksum are refused too (issue 12, line 7).

use retrograde::BoardSize;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use retrograde::games::gravity::Gravity;

use crate::common::cli::{json_of, refused, retrograde, run_within, scratch_dir};
use crate::common::forge;
use crate::common::forge::{resum, value_byte, ForgedTable};

/// A scratch directory of this test binary.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retrograde-audit-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Tables solved so far: the board and the file's bytes.
type Solved = std::sync::Mutex<Vec<((u32, u32), Vec<u8>)>>;

/// The table of `cols × rows`, solved once for every test.
fn table(cols: u32, rows: u32) -> Vec<u8> {
    static TABLES: OnceLock<Solved> = OnceLock::new();
    let tables = TABLES.get_or_init(Default::default);
    let mut tables = tables.lock().unwrap();
    if let Some((_, bytes)) = tables.iter().find(|(b, _)| *b == (cols, rows)) {
        return bytes.clone();
    }
    let path = scratch().join(format!("c{cols}x{rows}.rgt"));
    let out = retrograde(&[
        "connect",
        "--cols",
        &cols.to_string(),
        "--rows",
        &rows.to_string(),
        "-q",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let bytes = std::fs::read(&path).unwrap();
    tables.push(((cols, rows), bytes.clone()));
    bytes
}

/// Writes `bytes` to a file named `name` in the scratch directory.
fn written(name: &str, bytes: &[u8]) -> PathBuf {
    let path = scratch().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The canonical key of the board after X drops in column `c` (from 0).
fn after_first_move(game: &Gravity, c: u32) -> u64 {
    let cell = game.drop_cell(0, c).unwrap();
    game.canonical(game.key(cell, cell))
}

// issue 26, line 1
#[test]
fn a_forged_value_and_child_are_refused() {
    let game = Gravity::new(BoardSize::new(4, 4, 4)).unwrap();
    let mut t = ForgedTable::parse(&table(4, 4));
    // the empty board "won in 16" and a child "lost in 15", locally
    // consistent; the truth is a draw
    let root = t.value_at(0, game.key(0, 0));
    t.blocks[root] = value_byte('w', 16);
    let child = t.value_at(1, after_first_move(&game, 0));
    t.blocks[child] = value_byte('l', 15);
    let forged = written("forged-value.rgt", &t.to_bytes());
    for args in [
        vec!["query", s(&forged), "--moves", ""],
        vec!["query", s(&forged), "--check"],
        vec!["query", s(&forged)],
    ] {
        let err = refused(&args);
        assert!(err.contains("does not follow from the rules"), "{err}");
    }
    refused(&["play", s(&forged)]);
}

// issue 26, line 1
#[test]
fn an_edited_k_is_refused() {
    let mut t = ForgedTable::parse(&table(4, 4));
    t.parameters["k"] = 3.into();
    let forged = written("forged-k.rgt", &t.to_bytes());
    let err = refused(&["query", s(&forged), "--moves", "1 2 3"]);
    assert!(err.contains("ply"), "{err}");
}

// issue 26, line 1
#[test]
fn summary_counts_are_derived_not_printed_as_stored() {
    // impossible counts: refused on opening
    let mut t = ForgedTable::parse(&table(4, 4));
    t.summary["counts"][7]["x_wins"] = 1060.into();
    let forged = written("forged-impossible-counts.rgt", &t.to_bytes());
    let err = refused(&["query", s(&forged), "--check"]);
    assert!(err.contains("counts of ply 7"), "{err}");
    // possible counts, wrong: the certification of a table beyond
    // certification on opening (5×4) finds them
    let mut t = ForgedTable::parse(&table(5, 4));
    let ply = &mut t.summary["counts"][9];
    let (won, lost) = (
        ply["first_won"].as_u64().unwrap(),
        ply["first_lost"].as_u64().unwrap(),
    );
    ply["first_won"] = (won + 1).into();
    ply["first_lost"] = (lost - 1).into();
    let forged = written("forged-counts.rgt", &t.to_bytes());
    for args in [
        vec!["query", s(&forged), "--check"],
        vec!["query", s(&forged)],
    ] {
        let err = refused(&args);
        assert!(err.contains("counts of ply 9 differ"), "{err}");
    }
}

// issue 26, line 1
#[test]
fn a_table_without_its_blocks_has_no_value() {
    let mut t = ForgedTable::parse(&table(4, 4));
    for (stored, first) in &mut t.directory {
        *stored = 0;
        *first = 0;
    }
    t.index.clear();
    t.blocks.clear();
    for ply in t.summary["counts"].as_array_mut().unwrap() {
        for field in forge::COUNT_FIELDS {
            ply[field] = 0.into();
        }
    }
    t.head[24..32].copy_from_slice(&0u64.to_le_bytes());
    let forged = written("forged-empty.rgt", &t.to_bytes());
    for args in [
        vec!["query", s(&forged)],
        vec!["query", s(&forged), "--check"],
    ] {
        let err = refused(&args);
        assert!(!err.contains("draw"), "{err}");
    }
}

// issue 26, line 1
#[test]
fn a_table_of_every_value_a_win_is_refused() {
    for (cols, rows) in [(4, 4), (5, 4)] {
        let mut t = ForgedTable::parse(&table(cols, rows));
        for at in t.value_places() {
            t.blocks[at] = value_byte('w', t.blocks[at] >> 2);
        }
        let forged = written(&format!("forged-wins-{cols}x{rows}.rgt"), &t.to_bytes());
        let err = refused(&["query", s(&forged), "--check"]);
        assert!(err.contains("does not follow from the rules"), "{err}");
    }
}

// issue 26, line 2
#[test]
fn the_trailer_checksum_is_checked() {
    for (cols, rows) in [(4, 4), (5, 4)] {
        let mut bytes = table(cols, rows);
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        let flipped = written(&format!("flipped-{cols}x{rows}.rgt"), &bytes);
        let err = refused(&["query", s(&flipped), "--check"]);
        assert!(err.contains("trailer"), "{err}");

        let mut bytes = table(cols, rows);
        let at = bytes.len() - 12;
        bytes.splice(at..at, [0u8; 4]);
        let inserted = written(&format!("inserted-{cols}x{rows}.rgt"), &bytes);
        let err = refused(&["query", s(&inserted), "--moves", ""]);
        assert!(err.contains("trailer"), "{err}");
    }
}

#[test]
fn honest_tables_are_certified() {
    for (cols, rows) in [(4, 4), (5, 4)] {
        let path = written(&format!("honest-{cols}x{rows}.rgt"), &table(cols, rows));
        let out = retrograde(&["query", s(&path), "--check"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("certified"));
    }
}

// issue 12, line 7
#[test]
fn an_edited_table_with_a_recomputed_checksum_is_refused() {
    let dir = scratch_dir("hardening", "line7");
    let table = dir.join("t.rtb");
    json_of(&["mnk", "--out", s(&table), "--json"]);
    let original = std::fs::read(&table).unwrap();
    // k 3 → 2 in the parameters
    let mut k2 = original.clone();
    let at = k2.windows(5).position(|w| w == b"\"k\":3").unwrap();
    k2[at + 4] = b'2';
    resum(&mut k2);
    // a reachable board of ply 1 marked unreachable (REAC: tag, length, ply 0's word)
    let mut cleared = original.clone();
    let at = cleared.windows(4).position(|w| w == b"REAC").unwrap() + 12 + 8;
    cleared[at] &= !1;
    resum(&mut cleared);
    // the empty board's depth changed from 9 to 7
    let mut deeper = original.clone();
    let at = deeper.windows(4).position(|w| w == b"DEPT").unwrap() + 12;
    assert_eq!(deeper[at], 9);
    deeper[at] = 7;
    resum(&mut deeper);
    for (name, bytes) in [("k2", k2), ("cleared", cleared), ("deeper", deeper)] {
        let edited = dir.join(format!("{name}.rtb"));
        std::fs::write(&edited, &bytes).unwrap();
        let line = refused(&["query", s(&edited), "--board", "X../.../...", "--json"]);
        assert!(!line.contains("panicked"), "{line}");
        let (code, _, err) = run_within(&["play", s(&edited)], 5, Some(b"a1\n"));
        assert_eq!(code, Some(2), "{name}: {err}");
    }
    // a graph of empty lists in place of the graph
    let graph = dir.join("g.rtb");
    json_of(&[
        "cat-mouse",
        "--graph",
        "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]",
        "--out",
        s(&graph),
        "--json",
    ]);
    let mut bytes = std::fs::read(&graph).unwrap();
    let text = b"[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]";
    let at = bytes.windows(text.len()).position(|w| w == text).unwrap();
    let empty = b"[[],[],[],[],[],[]]                      ";
    let spaced: Vec<u8> = empty[..text.len()].to_vec();
    bytes.splice(at..at + text.len(), spaced);
    resum(&mut bytes);
    let edited = dir.join("g2.rtb");
    std::fs::write(&edited, &bytes).unwrap();
    refused(&["query", s(&edited)]);
    std::fs::remove_dir_all(&dir).unwrap();
}
